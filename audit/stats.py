"""Confidence bounds used by the audits, each with the inequality that makes it sound.

* :func:`clopper_pearson` -- exact binomial bounds, one-sided at level ``β`` each.
* :func:`empirical_bernstein_bounds` -- Maurer & Pontil (2009), Theorem 4, for means in ``[0, 1]``.
* :func:`hockey_stick_summands` -- ``(1 − e^{ε − L})₊``, whose mean under ``P`` is ``δ_{P‖Q}(ε)``.
* :func:`paired_order` -- "A below B" on paired runs (holds, fails, or needs more runs).
* :class:`SequentialPlan` -- more runs at planned looks, each at ``α/L``, up to a stated cap.

Proof note: ``proofs_notes/audit/white_box_hockey_stick.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from scipy import stats

from reference._typing import FloatArray
from reference.validation import check_array, check_in_range, check_int_at_least

__all__ = [
    "REGRET_MARGIN",
    "MeanBounds",
    "OrderVerdict",
    "SequentialPlan",
    "all_orders",
    "clopper_pearson",
    "clopper_pearson_lower",
    "clopper_pearson_upper",
    "empirical_bernstein_bounds",
    "empirical_bernstein_pvalue",
    "empirical_bernstein_width",
    "hockey_stick_summands",
    "is_constant_sample",
    "paired_order",
    "paired_wilcoxon_greater",
    "welch_order",
]


def clopper_pearson(successes: int, trials: int, beta: float) -> tuple[float, float]:
    """One-sided Clopper–Pearson bounds ``(lower, upper)`` on a binomial proportion, each at level ``β``.

    The pair is the two-sided exact interval at confidence ``1 − 2β`` (``binomtest(...).proportion_ci``
    with ``method="exact"``).  ``lower = 0`` when ``successes = 0``; ``upper = 1`` when
    ``successes = trials``.
    """
    trials = check_int_at_least("trials", trials, 1)
    successes = check_int_at_least("successes", successes, 0)
    if successes > trials:
        raise ValueError(f"successes must be in [0, trials={trials}], got {successes}")
    beta = check_in_range("beta", beta, 0.0, 0.5)
    ci = stats.binomtest(successes, trials).proportion_ci(
        confidence_level=1.0 - 2.0 * beta, method="exact"
    )
    return float(ci.low), float(ci.high)


def clopper_pearson_lower(successes: FloatArray, trials: float, beta: float) -> FloatArray:
    """Vectorised one-sided Clopper–Pearson lower bounds at level ``β``: the ``β`` quantile of
    ``Beta(k, N − k + 1)``, 0 where ``k = 0``.  ``successes`` may be non-integer (expected counts
    in power calculations); no argument checks, for inner loops (:func:`clopper_pearson` checks)."""
    k = np.asarray(successes, dtype=np.float64)
    with np.errstate(all="ignore"):
        low = stats.beta.ppf(beta, np.maximum(k, 1e-300), trials - k + 1.0)
    return np.where(k > 0, low, 0.0)


def clopper_pearson_upper(successes: FloatArray, trials: float, beta: float) -> FloatArray:
    """Vectorised one-sided Clopper–Pearson upper bounds at level ``β``: the ``1 − β`` quantile of
    ``Beta(k + 1, N − k)``, 1 where ``k = N`` (same conventions as
    :func:`clopper_pearson_lower`)."""
    k = np.asarray(successes, dtype=np.float64)
    with np.errstate(all="ignore"):
        high = stats.beta.ppf(1.0 - beta, k + 1.0, np.maximum(trials - k, 1e-300))
    return np.where(k < trials, high, 1.0)


REGRET_MARGIN = 0.1
"""Non-inferiority margin of the regret comparisons of ``privonline check``: a candidate's
utility fails only if its regret is significantly larger than ``1 + REGRET_MARGIN`` times the
reference's on the same paired runs (one-sided Wilcoxon on ``R_cand − (1 + margin)·R_ref``).
Independent implementations of one algorithm differ in constants (tree layout, confidence
widths); a test of *any* difference would fail them for a few per cent."""


def paired_wilcoxon_greater(difference: FloatArray) -> float:
    """One-sided paired signed-rank p-value of "the differences are larger than 0" (scipy's
    ``wilcoxon(..., alternative="greater")``); 1 when every difference is 0 (no evidence, where
    scipy would refuse).  The regret comparisons of ``privonline check`` use it."""
    d = np.asarray(difference, dtype=np.float64)
    if np.all(d == 0.0):
        return 1.0
    return float(stats.wilcoxon(d, alternative="greater").pvalue)


@dataclass(frozen=True)
class OrderVerdict:
    """A claimed order ``E[A] < E[B]`` judged on paired runs.

    Attributes:
        verdict: ``"holds"`` (the interval of ``E[B − A]`` lies above 0), ``"fails"`` (below 0) or
            ``"needs more runs"`` (it contains 0).
        difference: the mean of ``B − A`` over the runs.
        ci_low, ci_high: its two-sided Student-t interval at ``confidence``.
        confidence: the interval's level.
    """

    verdict: Literal["holds", "fails", "needs more runs"]
    difference: float
    ci_low: float
    ci_high: float
    confidence: float


def _check_finite_samples(smaller: FloatArray, larger: FloatArray) -> None:
    if not (np.all(np.isfinite(smaller)) and np.all(np.isfinite(larger))):
        raise ValueError("smaller and larger must be finite (a verdict is never computed from NaN)")


def _order_from_interval(
    estimate: float, low: float, high: float, confidence: float
) -> OrderVerdict:
    """Holds when the interval of ``E[larger] − E[smaller]`` lies above 0, fails below 0."""
    verdict: Literal["holds", "fails", "needs more runs"] = (
        "holds" if low > 0.0 else "fails" if high < 0.0 else "needs more runs"
    )
    return OrderVerdict(verdict, estimate, low, high, confidence)


def paired_order(
    smaller: FloatArray | Sequence[float],
    larger: FloatArray | Sequence[float],
    confidence: float = 0.95,
) -> OrderVerdict:
    """Judge ``E[smaller] < E[larger]`` from paired runs (run ``r`` of both on the same seed).

    The two-sided Student-t interval of the mean of ``larger − smaller`` (normal differences
    assumed: with a handful of runs a rank test cannot reach the level at all); the claim holds
    when the interval lies above 0 and fails when it lies below.  At least 2 runs.
    """
    a = np.asarray(smaller, dtype=np.float64)
    b = np.asarray(larger, dtype=np.float64)
    if a.ndim != 1 or a.shape != b.shape or a.size < 2:
        raise ValueError(
            f"smaller and larger must be paired runs of equal length >= 2, got shapes "
            f"{a.shape} and {b.shape}"
        )
    _check_finite_samples(a, b)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    d = b - a
    mean = float(d.mean())
    half = float(
        stats.t.ppf(0.5 + confidence / 2.0, d.size - 1) * d.std(ddof=1) / math.sqrt(d.size)
    )
    low, high = mean - half, mean + half
    return _order_from_interval(mean, low, high, confidence)


@dataclass(frozen=True)
class SequentialPlan:
    """Add runs in planned looks until a verdict is decided or the cap is reached.

    ``looks`` are the cumulative run counts at which the claim is judged (strictly increasing,
    the first ``≥ 2``); the last is the cap.  Every look uses the interval at level
    ``1 − α/L`` (:attr:`confidence`): the probability that *some* planned look's interval misses
    its target is at most ``L · α/L = α`` (Bonferroni), so the verdict at whichever look the
    runs stop -- decided, or undecided at the cap -- is wrong with probability at most ``α``,
    whatever the data made us do at earlier looks.  A plan is fixed before its second look and
    applies to every claim it names, decided at the first look or not.
    """

    looks: tuple[int, ...]
    alpha: float = 0.05

    def __post_init__(self) -> None:
        looks = tuple(check_int_at_least("looks", look, 2) for look in self.looks)
        if not looks or any(b <= a for a, b in itertools.pairwise(looks)):
            raise ValueError(
                f"looks must be strictly increasing run counts, each >= 2, got {self.looks}"
            )
        if not 0.0 < self.alpha < 1.0:  # also refuses NaN
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha}")

    @property
    def cap(self) -> int:
        """The largest number of runs the plan allows (its last look)."""
        return self.looks[-1]

    @property
    def confidence(self) -> float:
        """The level of every look's interval, ``1 − α/L``."""
        return 1.0 - self.alpha / len(self.looks)

    def look(self, runs: int) -> int:
        """The 1-based index of the look at ``runs`` runs; a run count that is not a planned look
        is refused (judging there would spend α the plan did not budget)."""
        runs = check_int_at_least("runs", runs, 2)
        if runs not in self.looks:
            raise ValueError(f"runs must be one of the planned looks {self.looks}, got {runs}")
        return self.looks.index(runs) + 1

    def status(self, verdict: str, runs: int) -> dict[str, Any]:
        """What the plan says after judging ``verdict`` at ``runs`` runs: ``"decided"``,
        ``"more runs"`` (with ``next_runs``, the next look) or ``"undecided at the cap"``."""
        index = self.look(runs)
        if verdict in ("holds", "fails"):
            state, following = "decided", None
        elif runs == self.cap:
            state, following = "undecided at the cap", None
        else:
            state, following = "more runs", self.looks[index]
        return {
            "rule": f"Bonferroni over {len(self.looks)} planned looks {list(self.looks)} "
            f"(each at {self.confidence:.6g}; family α = {self.alpha:.6g}); cap {self.cap} runs",
            "looks": list(self.looks),
            "look": index,
            "runs": runs,
            "state": state,
            "next_runs": following,
        }


def is_constant_sample(values: FloatArray) -> bool:
    """Whether a sample's spread is rounding only (``ptp ≤ 10⁻¹²·max|x|``): the same number
    accumulated in different orders, e.g. a regret that is one sum of gaps in every run.  Its
    variance is then 0 for :func:`welch_order` (scipy would compute it with a precision-loss
    warning)."""
    x = check_array("values", values, ndim=1)
    if x.size == 0:
        raise ValueError("values must hold at least one number")
    return bool(np.ptp(x) <= 1e-12 * float(np.max(np.abs(x))))


def welch_order(
    smaller: FloatArray | Sequence[float],
    larger: FloatArray | Sequence[float],
    confidence: float = 0.95,
) -> OrderVerdict:
    """Judge ``E[smaller] < E[larger]`` from two independent samples (runs of different seeds).

    Welch's two-sided Student-t interval of ``E[larger] − E[smaller]`` (unequal variances;
    ``scipy.stats.ttest_ind(..., equal_var=False).confidence_interval``); the verdict reads it
    as :func:`paired_order` does.  At least 2 values in each sample, not both constant
    (:func:`is_constant_sample`).
    """
    a = np.asarray(smaller, dtype=np.float64)
    b = np.asarray(larger, dtype=np.float64)
    if a.ndim != 1 or b.ndim != 1 or a.size < 2 or b.size < 2:
        raise ValueError(
            f"smaller and larger must be samples of >= 2 values each, got shapes {a.shape} and "
            f"{b.shape}"
        )
    _check_finite_samples(a, b)
    a_constant, b_constant = is_constant_sample(a), is_constant_sample(b)
    if a_constant and b_constant:
        raise ValueError("smaller and larger must not both be constant (no interval exists)")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    if a_constant or b_constant:
        # Welch's interval with one variance 0 is the other sample's one-sample t interval
        # (Satterthwaite's df is then its n − 1); scipy would warn of precision loss
        varied = b if a_constant else a
        half = float(
            stats.t.ppf(0.5 + confidence / 2.0, varied.size - 1)
            * varied.std(ddof=1)
            / math.sqrt(varied.size)
        )
        mid = float(b.mean() - a.mean())
        low, high = mid - half, mid + half
    else:
        ci = stats.ttest_ind(b, a, equal_var=False).confidence_interval(confidence)
        low, high = float(ci.low), float(ci.high)
    return _order_from_interval(float(b.mean() - a.mean()), low, high, confidence)


def all_orders(orders: Sequence[OrderVerdict]) -> Literal["holds", "fails", "needs more runs"]:
    """A conjunction of orders ("A below every other"): holds when every order holds (an
    intersection-union test, valid at each order's level), fails when any order fails."""
    if not orders:
        raise ValueError("orders must hold at least one OrderVerdict")
    verdicts = {o.verdict for o in orders}
    if verdicts == {"holds"}:
        return "holds"
    return "fails" if "fails" in verdicts else "needs more runs"


@dataclass(frozen=True)
class MeanBounds:
    """A point estimate of a mean with one-sided confidence bounds (each at level ``beta``)."""

    estimate: float
    lower: float
    upper: float
    beta: float
    samples: int


def _check_unit_samples(values: FloatArray) -> FloatArray:
    z = np.asarray(values, dtype=np.float64).ravel()
    if z.size < 2:
        raise ValueError(f"values must contain at least 2 samples, got {z.size}")
    if np.any(~np.isfinite(z)) or np.any(z < 0.0) or np.any(z > 1.0):
        raise ValueError("values must lie in [0, 1] (empirical Bernstein bound)")
    return z


def empirical_bernstein_width(variance: float, samples: int, beta: float) -> float:
    """The Maurer–Pontil width ``√(2Vx/N) + 7x/(3(N−1))`` with ``x = ln(2/β)`` (Maurer & Pontil
    2009, Thm 4): the distance from the mean to either one-sided level-``β`` bound."""
    log_term = math.log(2.0 / beta)
    return math.sqrt(2.0 * variance * log_term / samples) + 7.0 * log_term / (3.0 * (samples - 1))


def empirical_bernstein_bounds(values: FloatArray, beta: float) -> MeanBounds:
    """Maurer–Pontil empirical Bernstein bounds on ``E Z`` for i.i.d. ``Z ∈ [0, 1]``.

    Each of ``lower`` and ``upper`` fails with probability at most ``β`` (Maurer & Pontil 2009,
    Thm 4): ``E Z ≤ Z̄ + √(2 V ln(2/β) / N) + 7 ln(2/β) / (3(N − 1))``; it adapts to the small
    variance of hockey-stick summands.  Bounds are clipped to ``[0, 1]``.
    """
    z = _check_unit_samples(values)
    beta = check_in_range("beta", beta, 0.0, 1.0)
    n = z.size
    mean = float(z.mean())
    var = float(z.var(ddof=1))
    width = empirical_bernstein_width(var, n, beta)
    return MeanBounds(
        estimate=mean,
        lower=max(0.0, mean - width),
        upper=min(1.0, mean + width),
        beta=beta,
        samples=n,
    )


def empirical_bernstein_pvalue(values: FloatArray, threshold: float) -> float:
    """p-value of ``H₀: E Z ≤ threshold`` from the empirical Bernstein lower bound.

    The smallest ``β`` at which the level-``β`` lower bound exceeds ``threshold``: with
    ``x = ln(2/β)``, ``a = √(2V/N)``, ``b = 7/(3(N−1))`` the lower bound is ``Z̄ − a√x − b x``;
    solving ``Z̄ − a√x − b x = threshold`` for ``x`` gives ``β = 2 e^{−x}`` (capped at 1).  Under
    ``H₀`` this p-value is super-uniform, by the bound's guarantee.
    """
    z = _check_unit_samples(values)
    n = z.size
    gap = float(z.mean()) - threshold
    if gap <= 0.0:
        return 1.0
    a = math.sqrt(2.0 * float(z.var(ddof=1)) / n)
    b = 7.0 / (3.0 * (n - 1))
    root = (-a + math.sqrt(a * a + 4.0 * b * gap)) / (2.0 * b)
    return min(1.0, 2.0 * math.exp(-(root**2)))


def hockey_stick_summands(losses: FloatArray, epsilon: float) -> FloatArray:
    """``(1 − e^{ε − L})₊`` elementwise; its mean under ``P`` is ``δ_{P‖Q}(ε)``.

    ``L = +∞`` (an output impossible under ``Q``) contributes 1, ``L = −∞`` contributes 0.  NaN
    losses are rejected.
    """
    loss = np.asarray(losses, dtype=np.float64)
    if np.any(np.isnan(loss)):
        raise ValueError("losses must not contain NaN")
    eps = float(epsilon)
    if math.isnan(eps):
        raise ValueError("epsilon must not be NaN")
    out = np.zeros_like(loss)
    finite = np.isfinite(loss)
    above = finite & (loss > eps)
    out[above] = -np.expm1(eps - loss[above])
    out[loss == np.inf] = 1.0
    return out
