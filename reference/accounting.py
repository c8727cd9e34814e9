"""Exact privacy accounting for Gaussian mechanisms (Gaussian differential privacy).

A Gaussian mechanism whose two neighbouring output laws are ``N(0, 1)`` and ``N(μ, 1)`` after
whitening is ``μ``-GDP, and its exact privacy profile is (Dong, Roth & Su 2019, Cor. 2.13; Balle &
Wang 2018, Thm 8)::

    δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).

Composing mechanisms that are ``μ_i``-GDP gives ``√(Σ μ_i²)``-GDP exactly (Dong, Roth & Su,
Cor. 3.3).  These functions are shared by the tight calibrations of the reference
(:mod:`reference.shariff_sheffet.tight`) and by the audits' exact claims (:mod:`audit.exact`).
"""

from __future__ import annotations

import math

from scipy import optimize, special

from reference.validation import check_delta, check_in_range, check_positive

__all__ = ["gaussian_dp_delta", "gaussian_dp_epsilon", "gaussian_dp_mu"]


def gaussian_dp_delta(mu: float, epsilon: float) -> float:
    """Exact ``δ(ε)`` of a ``μ``-GDP mechanism, computed in log space for stability."""
    mu = check_positive("mu", mu)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    first = special.ndtr(-eps / mu + mu / 2.0)
    second = math.exp(eps + float(special.log_ndtr(-eps / mu - mu / 2.0)))
    return max(0.0, float(first) - second)


def gaussian_dp_epsilon(mu: float, delta: float) -> float:
    """The smallest ``ε ≥ 0`` with ``gaussian_dp_delta(μ, ε) ≤ δ`` (0 if ``δ(0) ≤ δ``)."""
    mu = check_positive("mu", mu)
    delta = check_in_range("delta", delta, 0.0, 1.0)
    if gaussian_dp_delta(mu, 0.0) <= delta:
        return 0.0
    upper = 1.0
    while gaussian_dp_delta(mu, upper) > delta:
        upper *= 2.0
    return float(
        optimize.brentq(lambda e: gaussian_dp_delta(mu, e) - delta, 0.0, upper, xtol=1e-12)
    )


def gaussian_dp_mu(epsilon: float, delta: float) -> float:
    """The largest ``μ`` whose mechanism is ``(ε, δ)``-DP: ``δ(ε; μ) ≤ δ`` (``δ`` increases in ``μ``).

    Returned rounded *down* (the bisection keeps a feasible lower end), so a mechanism calibrated to
    it meets ``(ε, δ)``.
    """
    eps = check_positive("epsilon", epsilon)
    dlt = check_delta(delta)
    low, high = 1e-6, 1.0
    while gaussian_dp_delta(high, eps) <= dlt:
        low, high = high, 2.0 * high
    if gaussian_dp_delta(low, eps) > dlt:  # pragma: no cover - δ(ε; 1e-6) is ~0
        raise ValueError(f"no mu >= 1e-6 meets (epsilon, delta) = ({eps}, {dlt})")
    for _ in range(200):
        mid = 0.5 * (low + high)
        if gaussian_dp_delta(mid, eps) <= dlt:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * high:
            break
    return low
