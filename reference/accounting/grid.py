"""The privacy-loss grid shared by the PLD accountants of :mod:`reference.accounting`.

Proof note: ``proofs_notes/shariff_sheffet/tight_wishart.md``.
"""

from __future__ import annotations

__all__ = ["DEFAULT_INTERVAL"]

DEFAULT_INTERVAL = 1e-4
"""Default width of the privacy-loss grid of the PLD accountants (each node's loss is rounded
*up* to it, so a composition of ``h`` nodes is pessimistic by at most ``h·10⁻⁴`` in ε)."""
