"""Binomial audits of events over independent trials: failure counts and their Clopper–Pearson
bounds (the method behind every accuracy and containment audit).

Under a claim that an event fails with probability at most ``q`` per trial, the failures of ``R``
independent trials are ``Bin(R, q')`` with ``q' ≤ q``; a one-sided Clopper–Pearson lower bound above
``q`` rejects with false-alarm probability ``≤ 1 − confidence``.

Proof note: ``proofs_notes/audit/accuracy_event.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from audit.stats import clopper_pearson
from reference.validation import check_in_range

__all__ = ["RunAuditResult", "check_ratios", "ratio_quantiles"]


def check_ratios(name: str, value: np.ndarray, *, allow_inf: bool, ndim: int = 1) -> np.ndarray:
    """A non-empty array of numbers: NaN and ``-inf`` are refused, ``+inf`` only if ``allow_inf``
    (a ratio to a bound is ``+inf`` where the bound's premise fails, e.g. ``λ_min ≤ 0``)."""
    if isinstance(value, bool | np.bool_ | str | bytes) or value is None:
        raise ValueError(f"{name} must be an array of real numbers, got {value!r:.80}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be an array of real numbers, got {value!r:.80}") from err
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    bad = np.isnan(arr) | (arr == -np.inf) | ((arr == np.inf) & (not allow_inf))
    if np.any(bad):
        allowed = "+inf allowed" if allow_inf else "finite values only"
        raise ValueError(f"{name} must not contain NaN or -inf ({allowed})")
    return arr


def ratio_quantiles(x: np.ndarray) -> tuple[float, float, float]:
    """1%, 50% and 99% empirical quantiles (no interpolation, so infinite ratios are allowed).

    ``x`` is a non-empty 1-D array of ratios; NaN and ``-inf`` are refused."""
    x = check_ratios("x", x, allow_inf=True)
    a, b, c = np.quantile(x, [0.01, 0.5, 0.99], method="inverted_cdf")
    return float(a), float(b), float(c)


@dataclass(frozen=True)
class RunAuditResult:
    """Failure count over independent trials (releases or runs), its Clopper–Pearson bounds, and
    slack quantiles.

    ``slack`` maps a quantity to its (1%, 50%, 99%) empirical quantiles over trials, each expressed
    as a ratio to its bound (``≤ 1`` on the event; e.g. ``rho_min / lambda_min(H)``).
    """

    name: str
    runs: int
    failures: int
    nominal_failure_rate: float
    failure_rate_lower: float
    failure_rate_upper: float
    violation: bool
    confidence: float
    seed: int
    runtime_seconds: float
    slack: dict[str, tuple[float, float, float]]

    @classmethod
    def from_ratios(
        cls,
        name: str,
        ratios: dict[str, np.ndarray],
        nominal_failure_rate: float,
        *,
        confidence: float,
        seed: int,
        started: float,
    ) -> RunAuditResult:
        """A trial fails when any of its ratios to a bound exceeds 1.  Failures are
        ``Bin(trials, q')`` with ``q' ≤ q`` under the claim, so a one-sided Clopper–Pearson lower
        bound (level ``1 − confidence``) above ``q`` rejects with probability ``≤ 1 − confidence``.
        """
        confidence = check_in_range("confidence", confidence, 0.0, 1.0)
        values = [check_ratios(f"ratios[{key!r}]", v, allow_inf=True) for key, v in ratios.items()]
        if not values:
            raise ValueError("ratios must hold at least one quantity")
        trials = len(values[0])
        failed = np.zeros(trials, dtype=bool)
        for ratio in values:
            failed |= ratio > 1.0
        failures = int(failed.sum())
        beta = 1.0 - confidence
        low, _ = clopper_pearson(failures, trials, beta)
        _, high = clopper_pearson(failures, trials, beta)
        return cls(
            name=name,
            runs=trials,
            failures=failures,
            nominal_failure_rate=nominal_failure_rate,
            failure_rate_lower=low,
            failure_rate_upper=high,
            violation=low > nominal_failure_rate,
            confidence=confidence,
            seed=seed,
            runtime_seconds=time.perf_counter() - started,
            slack={key: ratio_quantiles(ratio) for key, ratio in ratios.items()},
        )
