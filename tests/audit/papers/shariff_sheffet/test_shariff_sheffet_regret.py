"""Regret audits (Theorems 5 and 6 of Shariff & Sheffet): containment, scaling, regression check.

Known-good cases pass and deliberately broken ones are caught:

* containment: the correct variants stay below Eq. (2)/(3) in every run (measured slack: regret is
  0.5% of the non-private Thm 5 bound and about 10% of the private ones at n = 500, d = 3); a
  bound computed with ``n`` replaced by ``n/1000`` (a wrong constant) is exceeded in every run;
* scaling: non-private regret grows more slowly than the Thm 5 and Thm 6 forms (fitted slope well
  below 1); a policy that forgets the rewards has linear regret and is rejected (slope > 1);
* scaling in ε: the private excess regret (paired with the non-private runs) grows like Theorem
  6's private term ``∝ ρ_max(ε)`` (n = 3000: slope 0.96 [0.87, 1.04], consistent at level 0.01); a
  mechanism calibrated with ``ε²`` while its bounds claim ``ε`` grows faster and is rejected (slope
  1.81 [1.71, 1.92], p = 6e-9);
* regression check: the reference itself, run through the third-party protocol, is not worse
  (identical regret, p = 1); the reward-forgetting policy is worse (Wilcoxon p < 1e-6 over 30
  paired runs) and fails the scaling fit.

Every run is seeded; the false-positive rates are the stated test levels (0.05, or 0.01 for the
regression check), and the broken cases are far outside them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy import stats

from audit.methods.binomial import RunAuditResult
from audit.methods.scaling import fit_against_form, fit_mean_against_form
from audit.methods.stream import Algorithm1Policy
from audit.papers.shariff_sheffet.regret import (
    claim14_pull_check,
    cor15_floor_check,
    regret_containment_audit,
    regret_regression_check,
    regret_scaling_in_dimension,
    regret_scaling_in_n,
    regret_scaling_in_privacy,
    theorem_bound,
)
from reference.shariff_sheffet.linucb import LinUCB
from reference.shariff_sheffet.regularizers import (
    ExactStatistics,
    PrivacyParameters,
    ProblemConstants,
    make_regularizer,
    regularizer_spec,
)

PRIVACY = PrivacyParameters(1.0, 0.1)
SETTING: dict[str, Any] = {"d": 3, "num_arms": 9, "gap": 0.1}


@pytest.mark.parametrize("variant", ["nonprivate", "wishart", "gaussian", "wishart_unshifted"])
@pytest.mark.parametrize("theorem", ["thm5", "thm6"])
def test_correct_variants_stay_below_the_theorems(variant: Any, theorem: Any) -> None:
    privacy = None if variant == "nonprivate" else PRIVACY
    result = regret_containment_audit(
        variant, n=500, runs=40, seed=1, privacy=privacy, theorem=theorem, **SETTING
    )
    assert isinstance(result, RunAuditResult)
    assert result.failures == 0 and not result.violation
    low, median, high = result.slack[f"regret / {theorem} bound"]
    assert 0.0 < low <= median <= high < 1.0


def test_a_bound_missing_the_sqrt_n_factor_is_exceeded() -> None:
    # A plausible bug in a bound: B·√8·[…] instead of B·√(8n)·[…] (Eq. 2), i.e. the bound divided
    # by √n.  Private regret at n = 500 is about 10% of Eq. (2), so every run exceeds the buggy one.
    n = 500
    constants = ProblemConstants(d=3)
    _, bounds = regularizer_spec("wishart", constants, n, 1.0 / n, PRIVACY)
    buggy = theorem_bound("thm5", n, constants, 1.0 / n, bounds) / np.sqrt(n)
    result = regret_containment_audit(
        "wishart", n=n, runs=20, seed=3, privacy=PRIVACY, claimed_bound=buggy, **SETTING
    )
    assert result.violation and result.failures == 20


@pytest.mark.parametrize("theorem", ["thm5", "thm6"])
def test_nonprivate_regret_grows_slower_than_the_theorem(theorem: Any) -> None:
    fit = regret_scaling_in_n("nonprivate", n=3000, runs=20, seed=2, theorem=theorem, **SETTING)
    assert fit.consistent
    assert fit.ci_high < 1.0
    assert fit.observations == 20 * 12 and fit.replicates == 20


def test_fit_rejects_growth_faster_than_the_form() -> None:
    # regret ∝ n against a √n form: slope 2, rejected; the same data against an n form: slope 1
    rng = np.random.default_rng(5)
    n = np.geomspace(10, 1e4, 8)
    regrets = 0.3 * n[None, :] * np.exp(rng.normal(0.0, 0.05, size=(15, 8)))
    fast = fit_against_form("linear vs sqrt", n, np.sqrt(n), regrets, theorem_exponent="1/2")
    assert not fast.consistent and fast.ci_low > 1.5
    matched = fit_against_form("linear vs linear", n, n, regrets, theorem_exponent="1")
    assert matched.consistent and matched.ci_low < 1.0 < matched.ci_high + 0.1


def test_identical_replicates_give_a_zero_width_interval_without_warnings() -> None:
    # deterministic algorithms (e.g. DP-SE epochs, Alg. 2's powers of two) repeat exactly; the
    # clustered variance is then 0 up to rounding and the verdict is the point estimate's
    n = np.geomspace(10, 1e4, 6)
    regrets = np.tile(3.0 * n**0.5, (5, 1))
    fit = fit_against_form("deterministic", n, n, regrets, theorem_exponent="1")
    assert fit.ci_low == pytest.approx(0.5) and fit.ci_high - fit.ci_low < 1e-12
    assert fit.consistent and fit.pvalue_above_one == pytest.approx(1.0)
    steep = fit_against_form("steep", n, n**0.25, regrets, theorem_exponent="1")
    assert steep.ci_low == pytest.approx(2.0) and steep.ci_high - steep.ci_low < 1e-12
    assert not steep.consistent


def test_mean_fit_recovers_the_exponent_when_single_values_are_negative() -> None:
    # E[y] = 2·f^0.7 with additive noise large enough that some values are negative
    rng = np.random.default_rng(8)
    form = np.geomspace(1.0, 100.0, 6)
    values = 2.0 * form[None, :] ** 0.7 + rng.normal(0.0, 2.0, size=(40, 6))
    assert np.any(values < 0)
    fit = fit_mean_against_form("synthetic", form, form, values, theorem_exponent="1")
    assert fit.ci_low < 0.7 < fit.ci_high and fit.consistent
    assert fit.bare_power_exponent == pytest.approx(fit.slope)
    steep = fit_mean_against_form("steep", form, form**0.35, values, theorem_exponent="1")
    assert not steep.consistent and steep.ci_low > 1.5
    with pytest.raises(ValueError, match=r"^the mean of values must be positive"):
        fit_mean_against_form("bad", form, form, -np.abs(values), theorem_exponent="1")


PRIVACY_SCALING: dict[str, Any] = {
    "epsilons": (0.5, 1.0, 2.0, 4.0, 8.0),
    "d": 3,
    "num_arms": 9,
    "gap": 0.1,
    "n": 3000,
    "runs": 10,
    "seed": 4,
    "calibration": "tight",
    "confidence": 0.99,
}


def test_private_excess_grows_like_the_theorem_and_an_eps_squared_calibration_is_caught() -> None:
    good = regret_scaling_in_privacy("gaussian", **PRIVACY_SCALING)
    assert good.consistent, good
    assert good.bare_power_exponent > 0.2  # the excess does grow as ε shrinks
    planted = regret_scaling_in_privacy(
        "gaussian", mechanism_epsilon=lambda e: e * e, **PRIVACY_SCALING
    )
    assert not planted.consistent, planted
    assert planted.slope > good.slope + 0.3
    with pytest.raises(ValueError, match=r"^variant must be a private variant"):
        regret_scaling_in_privacy("nonprivate", **PRIVACY_SCALING)
    with pytest.raises(ValueError, match=r"^epsilons must hold at least two"):
        regret_scaling_in_privacy("gaussian", **dict(PRIVACY_SCALING, epsilons=(1.0, 1.0)))


def test_dimension_fit_reports_against_the_bound_at_each_d() -> None:
    fit = regret_scaling_in_dimension(
        "nonprivate", dims=(2, 4), num_arms=4, gap=0.1, n=400, runs=4, seed=1, theorem="thm6"
    )
    assert fit.x == (2.0, 4.0) and fit.replicates == 4 and len(fit.form) == 2
    assert fit.form[1] > fit.form[0]  # Eq. (3) grows with d
    with pytest.raises(ValueError, match=r"^dims must hold at least two"):
        regret_scaling_in_dimension(
            "nonprivate", dims=(3,), num_arms=4, gap=0.1, n=400, runs=4, seed=1
        )


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"regrets": np.ones((3, 2))}, r"^regrets must have shape"),
        ({"form": np.ones(3), "x": np.arange(1.0, 4.0)}, r"^form must take at least two"),
        ({"regrets": -np.ones((3, 3))}, r"^regrets and form must be positive"),
    ],
)
def test_fit_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "x": np.arange(1.0, 4.0),
        "form": np.arange(1.0, 4.0),
        "regrets": np.ones((3, 3)),
    }
    with pytest.raises(ValueError, match=pattern):
        fit_against_form("bad", theorem_exponent="1", **dict(base, **kwargs))


class _RewardForgotten(ExactStatistics):
    """A broken non-private source: the reward never enters ``u_t`` (so ``θ̃_t = 0``)."""

    def update(self, x: Any, y: float) -> None:
        super().update(x, 0.0)


def _policy(broken: bool) -> Algorithm1Policy:
    constants = ProblemConstants(d=3)

    def factory(n: int, rng: np.random.Generator) -> LinUCB:
        source = (
            _RewardForgotten(constants)
            if broken
            else make_regularizer("nonprivate", constants, n, 1.0 / n, rng)
        )
        return LinUCB(source, constants, 1.0 / n)

    return Algorithm1Policy(factory, "reward forgotten" if broken else "reference")


def test_regression_check_passes_the_reference_and_catches_a_broken_policy() -> None:
    kw: dict[str, Any] = {"n": 600, "runs": 30, "seed": 4, **SETTING}
    good = regret_regression_check(_policy(broken=False), "nonprivate", **kw)
    assert good.passed and good.wilcoxon_pvalue == 1.0
    assert good.candidate_mean == pytest.approx(good.reference_mean, rel=1e-12)
    bad = regret_regression_check(_policy(broken=True), "nonprivate", **kw)
    assert bad.worse and bad.wilcoxon_pvalue < 1e-6
    assert not bad.candidate_scaling.consistent
    assert not bad.passed
    assert bad.candidate_mean > 5 * bad.reference_mean


def test_cor15_floor_holds_for_dp_se_and_catches_an_oracle() -> None:
    # DP-SE (Sajed & Sheffet, pure eps-DP) on 5 Bernoulli arms, T = 1e5, eps = 0.5, 30 runs: mean
    # regret far above Cor. 15's (K-1) ln T / (200 eps) = 0.46.  A policy that reads the true means
    # (regret 0) is below what any eps-DP algorithm must pay.  Level 0.01.
    from reference.sajed_sheffet.bandits import simulate_dpse_bernoulli

    means, T, eps = np.array([0.75, 0.7, 0.6, 0.5, 0.4]), 100_000, 0.5
    runs = [
        simulate_dpse_bernoulli(means, T, eps, 1.0 / T, np.random.default_rng(s)).pseudo_regret
        for s in np.random.SeedSequence(3).spawn(30)
    ]
    dpse = cor15_floor_check(np.array(runs), num_arms=5, n=T, epsilon=eps)
    assert not dpse.violation and dpse.ratio > 100
    oracle = cor15_floor_check(np.zeros(30), num_arms=5, n=T, epsilon=eps)
    assert oracle.violation and oracle.lower_bound == pytest.approx(4 * np.log(T) / 100)
    with pytest.raises(ValueError, match="at least 2 runs"):
        cor15_floor_check(np.zeros(1), num_arms=5, n=T, epsilon=eps)
    # no verdict from NaN: a NaN regret used to make the t-test's p-value NaN, hence "no violation"
    with pytest.raises(ValueError, match="regrets must contain only finite values"):
        cor15_floor_check(np.array([1.0, np.nan, 2.0]), num_arms=5, n=T, epsilon=eps)


def test_claim14_floor_holds_for_dp_se_and_catches_a_nonprivate_claim() -> None:
    """Claim 14 on C2 with K = 5 (arm 4: gap 0.5), T = 10⁸, 30 runs, level 0.01: DP-SE run at
    ε = 10⁻⁴ pulls arm 4 about 3.4·10⁶ times, far above ln(T)/(100 ε Δ) = 3684; the non-private
    successive elimination (DP-SE's ε = ∞ limit) pulls it 2832 times, fewer than any 10⁻⁴-DP
    algorithm must: claimed as 10⁻⁴-DP it is a violation."""
    from reference.engine.compiled import dpse_bernoulli_compiled
    from reference.engine.mab import section5_means
    from reference.rng import child_seeds

    mu, T, eps = section5_means("C2", 5), 10**8, 1e-4
    seeds = child_seeds(14, 0, 30)
    private = dpse_bernoulli_compiled(mu, T, eps, 1.0 / T, seeds).pulls[:, 4]
    good = claim14_pull_check(private, n=T, epsilon=eps, gap=0.5)
    assert not good.violation and good.fraction_at_least == 1.0
    assert good.min_pulls == pytest.approx(np.log(T) / (100 * eps * 0.5))
    assert 0.0 < good.smallest_detectable < 0.5  # the power statement of the pass
    nonprivate = dpse_bernoulli_compiled(mu, T, np.inf, 1.0 / T, child_seeds(14, 0, 30)).pulls
    bad = claim14_pull_check(nonprivate[:, 4], n=T, epsilon=eps, gap=0.5)
    assert bad.violation and bad.fraction_at_least == 0.0 and bad.upper_bound < 0.5
    with pytest.raises(ValueError, match="sufficiently large n"):
        claim14_pull_check(private, n=100, epsilon=eps, gap=0.5)
    for values, message in (([1.0], "at least 2 runs"), ([1.5, 2.0], "whole numbers"),
                            ([np.nan, 1.0], "finite")):  # fmt: skip
        with pytest.raises(ValueError, match=message):
            claim14_pull_check(np.array(values), n=T, epsilon=eps, gap=0.5)


def test_claim14_check_false_alarm_rate_at_most_nominal() -> None:
    """At the claim's edge, P[pulls ≥ t_a] = 1/2 exactly, the check (level 0.01, 30 runs) reports a
    violation in at most 1% of batches: simulated over 200 000 batches (the verdict depends only on
    the count of runs at or above t_a, so each count is checked once) and exactly (0.81%:
    Clopper–Pearson is conservative)."""
    threshold = np.log(10**8) / (100 * 1e-4 * 0.5)
    verdict = np.array(
        [
            claim14_pull_check(
                np.where(np.arange(30) < h, np.ceil(threshold), 0.0), n=10**8, epsilon=1e-4, gap=0.5
            ).violation
            for h in range(31)
        ]
    )
    hits = np.random.default_rng(2026).binomial(30, 0.5, size=200_000)
    simulated = float(verdict[hits].mean())
    exact = float(np.sum(stats.binom.pmf(np.arange(31), 30, 0.5)[verdict]))
    assert exact <= 0.01 and simulated <= 0.01 + 3 * np.sqrt(0.01 * 0.99 / hits.size)
    assert simulated == pytest.approx(exact, abs=0.002)


def test_scaling_fits_refuse_nan_regrets() -> None:
    x = np.array([1.0, 2.0, 4.0])
    regrets = np.array([[1.0, 2.0, 4.0], [1.0, np.nan, 4.0]])
    with pytest.raises(ValueError, match="regrets must contain only finite values"):
        fit_against_form("f", x, x, regrets, theorem_exponent="1")
    with pytest.raises(ValueError, match="values must contain only finite values"):
        fit_mean_against_form("f", x, x, regrets, theorem_exponent="1")
