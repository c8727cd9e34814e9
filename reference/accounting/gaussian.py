"""Exact privacy curves of the Gaussian mechanism (``μ``-GDP).

Neighbouring output laws ``N(0, 1)`` and ``N(μ, 1)`` (after whitening) have the exact profile
``δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)`` (Dong, Roth & Su 2019, Cor. 2.13; Balle & Wang
2018, Thm 8); ``μ_i``-GDP mechanisms compose to ``√(Σ μ_i²)``-GDP (Dong, Roth & Su, Cor. 3.3).

The calibration :func:`gaussian_mu_for` is proved in the tight Gaussian tree note.
Proof note: ``proofs_notes/audit/exact_privacy_curves.md``.
"""

from __future__ import annotations

import math

from scipy import optimize, special

from reference.validation import check_delta, check_in_range, check_positive

__all__ = [
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mu_for",
]


def gaussian_delta(epsilon: float, *, mu: float) -> float:
    """Exact ``δ(ε)`` of a ``μ``-GDP mechanism, computed in log space for stability."""
    mu = check_positive("mu", mu)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    first = special.ndtr(-eps / mu + mu / 2.0)
    second = math.exp(eps + float(special.log_ndtr(-eps / mu - mu / 2.0)))
    return max(0.0, float(first) - second)


def gaussian_epsilon(delta: float, *, mu: float) -> float:
    """The smallest ``ε ≥ 0`` with ``gaussian_delta(ε, mu=μ) ≤ δ`` (0 if ``δ(0) ≤ δ``)."""
    mu = check_positive("mu", mu)
    delta = check_in_range("delta", delta, 0.0, 1.0)
    if gaussian_delta(0.0, mu=mu) <= delta:
        return 0.0
    upper = 1.0
    while gaussian_delta(upper, mu=mu) > delta:
        upper *= 2.0
    return float(
        optimize.brentq(lambda e: gaussian_delta(e, mu=mu) - delta, 0.0, upper, xtol=1e-12)
    )


def gaussian_mu_for(epsilon: float, delta: float) -> float:
    """The largest ``μ`` whose mechanism is ``(ε, δ)``-DP: ``δ(ε; μ) ≤ δ`` (``δ`` increases in ``μ``).

    Returned rounded *down* (the bisection keeps a feasible lower end), so a mechanism calibrated to
    it meets ``(ε, δ)``.
    """
    eps = check_positive("epsilon", epsilon)
    dlt = check_delta(delta)
    low, high = 1e-6, 1.0
    while gaussian_delta(eps, mu=high) <= dlt:
        low, high = high, 2.0 * high
    if gaussian_delta(eps, mu=low) > dlt:  # pragma: no cover - δ(ε; 1e-6) is ~0
        raise ValueError(f"no mu >= 1e-6 meets (epsilon, delta) = ({eps}, {dlt})")
    for _ in range(200):
        mid = 0.5 * (low + high)
        if gaussian_delta(eps, mu=mid) <= dlt:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * high:
            break
    return low
