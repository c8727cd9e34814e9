"""The same third-party LinUCB with a planted bug: the privacy switch is ignored, so the "private"
policy runs without noise and with the non-private ridge ``ρ = 1`` (a configuration flag read from
the wrong place).  Its claimed ``(ε, δ)`` joint DP is false; ``privonline check`` must fail it.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from reference.shariff_sheffet.bounds import RegularizerBounds, nonprivate_bounds

from .good_policy import GaussianTreeLinUCB


class PrivacyIgnoredLinUCB(GaussianTreeLinUCB):
    """Planted bug: no node noise, ridge ``ρ = 1``, while still claiming ``(ε, δ)``."""

    def calibration(self, n: int, d: int, m: int) -> tuple[float, RegularizerBounds]:
        return 0.0, nonprivate_bounds(1.0)


policy = PrivacyIgnoredLinUCB()
