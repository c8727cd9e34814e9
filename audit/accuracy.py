"""Accuracy-event audit of a regularizer source (Shariff & Sheffet Definition 3).

For a noise law summed over exactly ``m`` node noises (one padded tree release), a shift, and
claimed bounds ``(ρ_min, ρ_max, γ)``, the event

    ``ρ_min ≤ λ_min(H)``, ``λ_max(H) ≤ ρ_max`` and ``‖h‖_{H⁻¹} ≤ γ``,
    with ``H = N[:d, :d] + shift·I`` and ``h = N[:d, d]``,

must fail with probability at most ``q`` per release.  Over ``R`` independent releases the number
of failures is ``Bin(R, q')`` with ``q' ≤ q`` under the claim, so a one-sided Clopper–Pearson lower
bound on the failure rate above ``q`` rejects the claim with false-alarm probability ``≤ β``.
(Issue 5 extends this to whole runs and to the confidence ellipsoid of Proposition 4.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from audit.stats import clopper_pearson
from reference.noise import NodeNoise
from reference.shariff_sheffet.bounds import RegularizerBounds
from reference.validation import check_in_range, check_int_at_least

__all__ = ["AccuracyAuditResult", "regularizer_accuracy_audit"]


@dataclass(frozen=True)
class AccuracyAuditResult:
    """Failure count of the accuracy event and its Clopper–Pearson bounds."""

    name: str
    failures: int
    releases: int
    nominal_failure_rate: float
    failure_rate_lower: float
    failure_rate_upper: float
    violation: bool
    confidence: float
    seed: int
    runtime_seconds: float
    lambda_min_quantiles: tuple[float, float, float]
    lambda_max_quantiles: tuple[float, float, float]
    h_norm_quantiles: tuple[float, float, float]


def regularizer_accuracy_audit(
    noise: NodeNoise,
    m: int,
    d: int,
    bounds: RegularizerBounds,
    nominal_failure_rate: float,
    *,
    releases: int,
    seed: int,
    name: str = "accuracy",
    confidence: float = 0.95,
    shift: float | None = None,
) -> AccuracyAuditResult:
    """Count violations of the Definition-3 event over ``releases`` independent padded releases.

    ``shift`` defaults to ``bounds.shift``; passing another value audits an implementation that
    applies a different shift (e.g. forgets it) against the claimed bounds.  Reported quantiles
    are the 1%, 50% and 99% empirical quantiles (how conservative each bound is).
    """
    t0 = time.perf_counter()
    releases = check_int_at_least("releases", releases, 1)
    q = check_in_range("nominal_failure_rate", nominal_failure_rate, 0.0, 1.0, low_open=False)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    applied = bounds.shift if shift is None else shift
    rng = np.random.default_rng(seed)
    lam_min = np.empty(releases)
    lam_max = np.empty(releases)
    h_norm = np.empty(releases)
    for r in range(releases):
        total = noise.sample_sum(rng, m)
        H = total[:d, :d] + applied * np.eye(d)
        h = total[:d, d]
        lam, Q = np.linalg.eigh(H)
        lam_min[r], lam_max[r] = lam[0], lam[-1]
        h_norm[r] = np.sqrt(np.sum((Q.T @ h) ** 2 / lam)) if lam[0] > 0 else np.inf
    failed = (lam_min < bounds.rho_min) | (lam_max > bounds.rho_max) | (h_norm > bounds.gamma)
    failures = int(failed.sum())
    beta = 1.0 - confidence
    low, _ = clopper_pearson(failures, releases, beta)
    _, high = clopper_pearson(failures, releases, beta)

    def quantiles(x: np.ndarray) -> tuple[float, float, float]:
        a, b, c = np.quantile(x, [0.01, 0.5, 0.99])
        return float(a), float(b), float(c)

    return AccuracyAuditResult(
        name=name,
        failures=failures,
        releases=releases,
        nominal_failure_rate=q,
        failure_rate_lower=low,
        failure_rate_upper=high,
        violation=low > q,
        confidence=confidence,
        seed=seed,
        runtime_seconds=time.perf_counter() - t0,
        lambda_min_quantiles=quantiles(lam_min),
        lambda_max_quantiles=quantiles(lam_max),
        h_norm_quantiles=quantiles(h_norm),
    )
