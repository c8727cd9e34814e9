"""A third party's per-node Wishart degrees of freedom of Shariff & Sheffet (NeurIPS 2018), Sec. 4.1:
``k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉``, written apart from privonline (its parameter ``eps``
is privonline's ``epsilon``: ``--rename eps=epsilon``).  ``degrees_of_freedom`` is right;
``degrees_of_freedom_off_by_one`` drops Theorem 8's ``+ 1`` (``k₀ ≥ d + 1 + …``)::

    privonline golden compare examples.golden_compare.wishart:degrees_of_freedom \\
        --entry wishart_degrees_of_freedom --rename eps=epsilon --path .

Proof note: ``proofs_notes/audit/golden_schema.md``.
"""

from __future__ import annotations

import math

__all__ = ["degrees_of_freedom", "degrees_of_freedom_off_by_one"]


def _radicand(d: int, m: int, eps: float, delta: float) -> float:
    """``224 m ε⁻² ln(8m/δ) ln(2/δ)``, after refusing the inputs Sec. 4.1 does not cover: the
    per-node ``ε₀ = ε/√(8m ln(2/δ))`` and ``δ₀ = δ/(2m)`` must satisfy ``ε₀ < 1``, ``δ₀ < 1/e``."""
    if isinstance(d, bool) or not isinstance(d, int) or d < 1:
        raise ValueError(f"d must be an integer >= 1, got {d!r}")
    if isinstance(m, bool) or not isinstance(m, int) or m < 1:
        raise ValueError(f"m must be an integer >= 1, got {m!r}")
    if not (math.isfinite(eps) and eps > 0.0):
        raise ValueError(f"eps must be a finite number > 0, got {eps!r}")
    if not 0.0 < delta < 1.0:
        raise ValueError(f"delta must be in (0, 1), got {delta!r}")
    eps0 = eps / math.sqrt(8.0 * m * math.log(2.0 / delta))
    if eps0 >= 1.0 or delta / (2.0 * m) >= 1.0 / math.e:
        raise ValueError(
            f"the per-node (eps0, delta0) = ({eps0}, {delta / (2.0 * m)}) must satisfy eps0 < 1 "
            "and delta0 < 1/e (eps or delta too large)"
        )
    return 224.0 * m * math.log(8.0 * m / delta) * math.log(2.0 / delta) / eps / eps


def degrees_of_freedom(d: int, m: int, eps: float, delta: float) -> int:
    """Degrees of freedom of each tree node's Wishart noise ``W_d(I, k)`` (Sec. 4.1)."""
    return d + 1 + math.ceil(_radicand(d, m, eps, delta))


def degrees_of_freedom_off_by_one(d: int, m: int, eps: float, delta: float) -> int:
    """The same with the ``+ 1`` forgotten: one degree of freedom short in every case."""
    return d + math.ceil(_radicand(d, m, eps, delta))
