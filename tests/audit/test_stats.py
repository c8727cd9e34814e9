"""Coverage of the audit's confidence bounds: each holds at (at least) its nominal level.

These are the auditor's own soundness checks: a published auditor once shipped a DKW margin that
held only with probability 1/2 (STYLE.md).  Each simulation has a fixed seed; its acceptance
threshold is the 0.999 quantile of Binomial(reps, β), so a correct bound fails the test with
probability < 1e-3, while a bound of level 2β (half as wide in log-confidence) is caught.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from audit.stats import (
    SequentialPlan,
    all_orders,
    clopper_pearson,
    clopper_pearson_lower,
    clopper_pearson_upper,
    empirical_bernstein_bounds,
    empirical_bernstein_pvalue,
    hockey_stick_summands,
    is_constant_sample,
    paired_order,
    paired_wilcoxon_greater,
    welch_order,
)

REPS = 3000
BETA = 0.05
ACCEPT = int(stats.binom(REPS, BETA).ppf(0.999))  # 177 misses of 3000 at most


def test_clopper_pearson_coverage() -> None:
    rng = np.random.default_rng(101)
    p, n = 0.07, 60
    counts = rng.binomial(n, p, size=REPS)
    lows = np.array([clopper_pearson(int(c), n, BETA)[0] for c in counts])
    highs = np.array([clopper_pearson(int(c), n, BETA)[1] for c in counts])
    assert int(np.sum(lows > p)) <= ACCEPT
    assert int(np.sum(highs < p)) <= ACCEPT


def test_a_too_narrow_binomial_bound_is_caught_by_the_same_check() -> None:
    # the plug-in normal interval p̂ ± z·se at small n p misses far more often than β
    rng = np.random.default_rng(102)
    p, n = 0.02, 60
    counts = rng.binomial(n, p, size=REPS)
    phat = counts / n
    wald_high = phat + stats.norm.ppf(1 - BETA) * np.sqrt(phat * (1 - phat) / n)
    assert int(np.sum(wald_high < p)) > ACCEPT


def test_clopper_pearson_edges_and_bad_input() -> None:
    assert clopper_pearson(0, 10, 0.05)[0] == 0.0
    assert clopper_pearson(10, 10, 0.05)[1] == 1.0
    # one-sided upper bound at 0 successes: 1 − β^{1/n}
    assert clopper_pearson(0, 10, 0.05)[1] == pytest.approx(1 - 0.05 ** (1 / 10), rel=1e-9)
    with pytest.raises(ValueError, match="successes must be in"):
        clopper_pearson(11, 10, 0.05)
    with pytest.raises(ValueError, match=r"beta must be in \(0.0, 0.5\)"):
        clopper_pearson(1, 10, 0.5)


def test_vectorised_clopper_pearson_agrees_with_the_checked_one() -> None:
    trials = 200
    k = np.array([0.0, 1.0, 7.0, 100.0, 199.0, 200.0])
    low, high = clopper_pearson_lower(k, trials, 0.025), clopper_pearson_upper(k, trials, 0.025)
    for i, kk in enumerate(k):
        lo, hi = clopper_pearson(int(kk), trials, 0.025)
        assert low[i] == pytest.approx(lo, rel=1e-6, abs=1e-12)
        assert high[i] == pytest.approx(hi, rel=1e-6, abs=1e-12)
    # expected (non-integer) counts sit between their integer neighbours
    mid = clopper_pearson_lower(np.array([7.5]), trials, 0.025)[0]
    assert low[2] < mid < clopper_pearson_lower(np.array([8.0]), trials, 0.025)[0]


def test_paired_wilcoxon_is_scipys_and_says_no_evidence_when_nothing_differs() -> None:
    d = np.array([3.0, 1.0, -0.5, 2.0, 4.0, 0.0, 1.5])
    assert paired_wilcoxon_greater(d) == stats.wilcoxon(d, alternative="greater").pvalue
    assert paired_wilcoxon_greater(np.zeros(5)) == 1.0
    assert paired_wilcoxon_greater(np.arange(1.0, 9.0)) == pytest.approx(2.0**-8)


def test_empirical_bernstein_coverage_on_skewed_unit_variables() -> None:
    # Z = (1 − e^{ε−L})₊ for Gaussian losses: the very variables the hockey-stick audit averages
    rng = np.random.default_rng(103)
    mu, eps, n = 0.5, 0.8, 400
    # true mean by a huge independent sample (its error ~1e-5 is negligible against the bounds)
    true = float(hockey_stick_summands(rng.normal(mu**2 / 2, mu, size=4_000_000), eps).mean())
    misses_low = misses_high = 0
    for _ in range(REPS):
        z = hockey_stick_summands(rng.normal(mu**2 / 2, mu, size=n), eps)
        b = empirical_bernstein_bounds(z, BETA)
        misses_low += int(b.lower > true)
        misses_high += int(b.upper < true)
    assert misses_low <= ACCEPT and misses_high <= ACCEPT


def test_empirical_bernstein_pvalue_is_consistent_with_the_bound() -> None:
    rng = np.random.default_rng(104)
    z = rng.beta(0.5, 5.0, size=5000)
    b = empirical_bernstein_bounds(z, 0.01)
    # at threshold = lower bound the p-value is exactly the bound's level
    assert empirical_bernstein_pvalue(z, b.lower) == pytest.approx(0.01, rel=1e-6)
    assert empirical_bernstein_pvalue(z, float(z.mean()) + 0.1) == 1.0
    with pytest.raises(ValueError, match=r"values must lie in \[0, 1\]"):
        empirical_bernstein_bounds(np.array([0.5, 1.5]), 0.05)


def test_hockey_stick_summands_handle_infinite_losses() -> None:
    out = hockey_stick_summands(np.array([math.inf, -math.inf, 0.0, 1.0, 3.0]), 1.0)
    np.testing.assert_allclose(out, [1.0, 0.0, 0.0, 0.0, 1 - math.exp(-2.0)])
    with pytest.raises(ValueError, match="losses must not contain NaN"):
        hockey_stick_summands(np.array([math.nan]), 1.0)


# ------------------------------------------------------------------------------------------------
# Claimed orders on paired runs (the reproductions' "A below B")
# ------------------------------------------------------------------------------------------------


def test_paired_order_three_verdicts() -> None:
    base = np.array([10.0, 12.0, 9.0, 11.0, 10.5])
    clearly = paired_order(base, base + np.array([5.0, 6.0, 5.5, 4.5, 5.0]))
    assert clearly.verdict == "holds" and clearly.ci_low > 0
    assert clearly.difference == pytest.approx(5.2)
    reversed_ = paired_order(base, base - np.array([5.0, 6.0, 5.5, 4.5, 5.0]))
    assert reversed_.verdict == "fails" and reversed_.ci_high < 0
    noisy = paired_order(base, base + np.array([3.0, -2.0, 1.0, -1.5, 0.5]))
    assert noisy.verdict == "needs more runs" and noisy.ci_low < 0 < noisy.ci_high
    # the interval is scipy's Student-t interval of the mean difference
    d = np.array([3.0, -2.0, 1.0, -1.5, 0.5])
    low, high = stats.t.interval(0.95, 4, loc=d.mean(), scale=stats.sem(d))
    assert (noisy.ci_low, noisy.ci_high) == pytest.approx((low, high), abs=1e-12)
    assert all_orders([clearly, clearly]) == "holds"
    assert all_orders([clearly, noisy]) == "needs more runs"
    assert all_orders([clearly, noisy, reversed_]) == "fails"


def test_welch_order_three_verdicts_and_scipys_interval() -> None:
    a = np.array([1.0, 1.2, 0.9, 1.1, 1.05])
    assert welch_order(a, a + 2.0 + np.array([0.1, -0.1, 0.0, 0.2, 0.0])).verdict == "holds"
    assert welch_order(a + 2.0, a[:3]).verdict == "fails"
    b = np.array([1.3, 0.8, 1.4, 0.7])
    noisy = welch_order(a, b)
    assert noisy.verdict == "needs more runs" and noisy.ci_low < 0 < noisy.ci_high
    # Welch's interval, written out: df by Welch–Satterthwaite
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    half = stats.t.ppf(0.975, df) * math.sqrt(va + vb)
    mean = b.mean() - a.mean()
    assert (noisy.ci_low, noisy.ci_high) == pytest.approx((mean - half, mean + half), abs=1e-12)
    assert noisy.difference == pytest.approx(mean, abs=1e-15)
    for bad in ([1.0], [np.nan, 1.0]):
        with pytest.raises(ValueError, match=r"^smaller and larger must"):
            welch_order(bad, b)
    with pytest.raises(ValueError, match=r"^smaller and larger must not both be constant"):
        welch_order([1.0, 1.0], [2.0, 2.0])
    # one constant sample: the other's one-sample t interval, no precision-loss warning
    # a spread of rounding only counts as constant (DP-SE's regret summed in different orders)
    assert is_constant_sample(np.array([250.0, 250.0 * (1 + 1e-14), 250.0]))
    assert not is_constant_sample(np.array([250.0, 250.0 * (1 + 1e-9), 250.0]))
    nearly = welch_order([250.0, 250.0 * (1 + 1e-14), 250.0], b)
    assert nearly.ci_high - nearly.ci_low == pytest.approx(
        2 * stats.t.ppf(0.975, b.size - 1) * b.std(ddof=1) / math.sqrt(b.size), rel=1e-9
    )
    with pytest.raises(ValueError, match="not both be constant"):
        welch_order([1.0, 1.0 + 1e-15], [2.0, 2.0])
    one = welch_order([250.0, 250.0, 250.0], b)
    half = stats.t.ppf(0.975, b.size - 1) * b.std(ddof=1) / math.sqrt(b.size)
    centre = b.mean() - 250.0
    assert (one.ci_low, one.ci_high) == pytest.approx((centre - half, centre + half), abs=1e-12)


def test_welch_order_false_claims_rate_at_most_nominal() -> None:
    # equal means, unequal variances and sizes: "holds" in at most 2.5% of trials (one side)
    rng = np.random.default_rng(2025)
    trials = 4000
    a, b = rng.normal(size=(trials, 5)), 3.0 * rng.normal(size=(trials, 8))
    rate = np.mean([welch_order(a[i], b[i]).verdict == "holds" for i in range(trials)])
    assert rate <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / trials)


def test_paired_order_false_claims_rate_at_most_nominal() -> None:
    # equal means: "holds" must come out in at most 2.5% of trials (one side of a 95% interval)
    rng = np.random.default_rng(2024)
    trials = 4000
    a = rng.normal(size=(trials, 5))
    b = a + rng.normal(size=(trials, 5))
    rate = np.mean([paired_order(a[i], b[i]).verdict == "holds" for i in range(trials)])
    assert rate <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / trials)


@pytest.mark.parametrize(
    ("smaller", "larger", "pattern"),
    [
        ([1.0], [2.0], r"^smaller and larger must be paired runs of equal length >= 2"),
        ([1.0, 2.0], [2.0, 3.0, 4.0], r"^smaller and larger must be paired runs"),
        ([1.0, math.nan], [2.0, 3.0], r"^smaller and larger must be finite"),
    ],
)
def test_paired_order_bad_input(smaller: list[float], larger: list[float], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        paired_order(smaller, larger)
    with pytest.raises(ValueError, match=r"^orders must hold at least one"):
        all_orders([])


def test_sequential_plan_levels_and_states() -> None:
    plan = SequentialPlan((5, 10, 20, 35))
    assert plan.cap == 35
    assert plan.confidence == pytest.approx(1 - 0.05 / 4, abs=1e-15)
    assert plan.status("needs more runs", 5)["state"] == "more runs"
    assert plan.status("needs more runs", 5)["next_runs"] == 10
    assert plan.status("fails", 10)["state"] == "decided"
    assert plan.status("needs more runs", 35)["state"] == "undecided at the cap"
    assert SequentialPlan((5,)).confidence == pytest.approx(0.95, abs=1e-15)
    with pytest.raises(ValueError, match=r"^runs must be one of the planned looks"):
        plan.status("holds", 7)


def test_sequential_plan_keeps_the_family_level_of_paired_order() -> None:
    """No true difference; looks at 5, 10, 20, 35 runs stopping at the first decided one: a wrong
    decision ("holds" or "fails") at most α = 5% of the time (simulated: 3.65%); judging every
    look at 95% (the broken rule) errs more than the plan and more than α (13.75%)."""
    rng = np.random.default_rng(102)
    plan = SequentialPlan((5, 10, 20, 35))
    trials = 2000
    wrong = naive = 0
    for _ in range(trials):
        a = rng.normal(size=plan.cap)
        b = a + rng.normal(size=plan.cap)
        verdicts = [paired_order(a[:r], b[:r], plan.confidence).verdict for r in plan.looks]
        wrong += any(v != "needs more runs" for v in verdicts)
        naive += any(paired_order(a[:r], b[:r]).verdict != "needs more runs" for r in plan.looks)
    assert wrong / trials <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials)
    assert naive / trials > 0.05 + 3 * math.sqrt(0.05 * 0.95 / trials)
    assert naive > wrong


@pytest.mark.parametrize(
    ("looks", "alpha", "pattern"),
    [
        ((), 0.05, r"^looks must be strictly increasing"),
        ((1, 5), 0.05, r"^looks must be an integer >= 2"),
        ((5, 5), 0.05, r"^looks must be strictly increasing"),
        ((5.5,), 0.05, r"^looks must be an integer >= 2"),
        ((5, 10), math.nan, r"^alpha must be in \(0, 1\)"),
        ((5, 10), 1.0, r"^alpha must be in \(0, 1\)"),
    ],
)
def test_sequential_plan_bad_input(looks: tuple[int, ...], alpha: float, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        SequentialPlan(looks, alpha)
