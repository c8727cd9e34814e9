"""The black-box event audit: its false-alarm rate, its power, and agreement with the white box."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats

from audit.mechanisms import GaussianMechanism, LaplaceMechanism
from audit.methods.black_box import (
    EventCounts,
    epsilon_lower_bound,
    event_audit,
    event_audit_from_samples,
)
from audit.methods.white_box import white_box_audit
from audit.protocols import NeighbouringPair, PrivacyClaim
from reference.accounting import gaussian_epsilon, laplace_epsilon

PAIR = NeighbouringPair(np.zeros(1), np.ones(1))
_MIXED_SCORES = ("binned_likelihood_ratio", "naive_bayes", "classifier")
"""The score families ``score="auto"`` tries on outputs that mix discrete and continuous columns."""


def test_false_alarm_rate_on_a_correct_mechanism_at_its_exact_guarantee() -> None:
    # 200 audits of the Gaussian mechanism (μ = 1) against its *exact* (ε(δ), δ): each rejects with
    # probability ≤ β = 0.05, so ≤ 21 rejections (the 0.999 quantile of Bin(200, 0.05)).
    claim = PrivacyClaim(gaussian_epsilon(1e-2, mu=1.0), 1e-2)
    rejections = sum(
        event_audit(GaussianMechanism(1.0), PAIR, claim, samples=4000, seed=s).violation
        for s in range(200)
    )
    assert rejections <= int(stats.binom(200, 0.05).ppf(0.999))


def test_power_against_a_mechanism_with_half_the_noise() -> None:
    # σ = 0.5 instead of 1 (μ = 2): δ(ε_claim) is far above the claim; 30 of 30 audits reject
    claim = PrivacyClaim(gaussian_epsilon(1e-2, mu=1.0), 1e-2)
    hits = sum(
        event_audit(GaussianMechanism(0.5), PAIR, claim, samples=20000, seed=s).violation
        for s in range(30)
    )
    assert hits == 30


def test_black_box_lower_bound_never_exceeds_the_white_box_curve() -> None:
    # the black box can only see events, so its ε lower bound must sit below the true ε(δ)
    for scale in (0.5, 1.0, 2.0):
        mech = LaplaceMechanism(scale)
        claim = PrivacyClaim(1.0 / scale, 0.0)
        bb = event_audit(mech, PAIR, claim, samples=100_000, seed=7)
        wb = white_box_audit(mech, PAIR, claim, samples=100_000, seed=7)
        assert not bb.violation and not wb.violation
        assert bb.epsilon_lower_bound <= laplace_epsilon(0.0, epsilon_0=1.0 / scale) + 1e-12
        assert bb.epsilon_lower_bound > 0.5 / scale  # and it is informative (half the true ε)


def test_epsilon_lower_bound_formula_by_hand() -> None:
    # c = 900/1000, c' = 100/1000, δ = 0: ln(P̲/P̄') with one-sided CP at β/2 = 0.025
    counts = EventCounts(900, 1000, 100, 1000)
    p_low = stats.beta.ppf(0.025, 900, 101)
    q_high = stats.beta.ppf(0.975, 101, 900)
    assert epsilon_lower_bound(counts, 0.0, 0.05) == pytest.approx(math.log(p_low / q_high))
    assert epsilon_lower_bound(EventCounts(1, 1000, 1, 1000), 0.1, 0.05) == -math.inf


def test_discrete_outputs_use_the_count_likelihood_ratio() -> None:
    # randomized response on 3 bits: outputs are discrete, several features -> count LR score
    rng = np.random.default_rng(3)
    p_keep = math.exp(1.0) / (1 + math.exp(1.0))  # each bit ε = 1, three bits ε = 3
    truth, other = np.zeros(3), np.ones(3)

    def rr(bits: np.ndarray, size: int) -> np.ndarray:
        flip = rng.uniform(size=(size, 3)) > p_keep
        return np.where(flip, 1 - bits, bits)

    result = event_audit_from_samples(
        rr(truth, 100_000), rr(other, 100_000), PrivacyClaim(2.0, 0.0), name="rr", mechanism="rr"
    )
    assert result.violation and 2.0 < result.epsilon_lower_bound <= 3.0


def test_many_discrete_outputs_also_try_a_linear_score() -> None:
    # randomized response on 12 bits at ε = 0.05 each (ε = 0.6 in all): 4096 outputs, too many
    # for the count ratio at 2·10⁵ samples; the number of ones, a linear score, is the
    # Neyman-Pearson statistic, and "auto" finds it
    rng = np.random.default_rng(4)
    p_keep = math.exp(0.05) / (1 + math.exp(0.05))
    ones, zeros = (
        (rng.random((200_000, 12)) < p_keep).astype(np.float64),
        (rng.random((200_000, 12)) > p_keep).astype(np.float64),
    )
    claim = PrivacyClaim(0.2, 0.0)
    auto = event_audit_from_samples(ones, zeros, claim, name="rr12", mechanism="rr", seed=0)
    counts = event_audit_from_samples(
        ones, zeros, claim, name="rr12", mechanism="rr", seed=0, score="likelihood_ratio"
    )
    assert auto.details["event"].startswith("linear")
    assert auto.violation and 0.2 < auto.epsilon_lower_bound <= 0.6
    # the count ratio alone misses it (seeds 4-9: linear 0.29-0.38, counts 0.02-0.13)
    assert not counts.violation


def test_lower_bound_event_selection_reaches_laplace_at_1e5() -> None:
    # Laplace with ε = 1 is tight on every tail event; ranking events by a simultaneous lower
    # bound (not the plug-in ratio) picks a large one, so ε_LB lands near 1 at 10⁵ samples
    result = event_audit(
        LaplaceMechanism(1.0), PAIR, PrivacyClaim(1.0, 0.0), samples=100_000, seed=1
    )
    assert not result.violation
    assert 0.9 < result.epsilon_lower_bound <= 1.0 + 1e-12
    assert result.verdict == "pass"
    assert result.detectable_epsilon is not None and result.detectable_epsilon < 1.2


def test_too_few_samples_is_inconclusive_not_a_pass() -> None:
    # 40 outputs per side cannot catch a violation twice the claim: the report says so
    result = event_audit(LaplaceMechanism(1.0), PAIR, PrivacyClaim(1.0, 0.0), samples=40, seed=2)
    assert not result.violation
    assert result.detectable_epsilon is not None and result.detectable_epsilon > 2.0
    assert result.verdict == "inconclusive"
    assert "power" in result.summary()


def test_count_likelihood_ratio_score_matches_a_per_row_lookup() -> None:
    from audit.methods.black_box import _likelihood_ratio_score

    rng = np.random.default_rng(4)
    train_p = rng.integers(0, 3, size=(500, 2)).astype(float)
    train_q = rng.integers(0, 4, size=(400, 2)).astype(float)
    score = _likelihood_ratio_score(train_p, train_q)
    probe = np.array([[0.0, 0.0], [3.0, 3.0], [9.0, 9.0], [-0.0, 2.0]])
    by_hand = []
    for row in probe:
        c_p = int(np.sum(np.all(train_p == row, axis=1)))
        c_q = int(np.sum(np.all(train_q == row, axis=1)))
        seen = c_p + c_q > 0
        llr = math.log((c_p + 0.5) / (c_q + 0.5)) - math.log(500.5 / 400.5)
        by_hand.append(llr if seen else 0.0)
    assert score.apply(probe) == pytest.approx(by_hand, abs=1e-12)


def test_mixed_outputs_find_a_violation_of_a_released_value() -> None:
    # a count column (discrete) and a noisy value column (continuous), as in a sparse vector that
    # also releases its values: the value column is released with half the noise the claim needs
    rng = np.random.default_rng(5)

    def draw(shift: float, size: int) -> np.ndarray:
        count = rng.integers(0, 3, size=size).astype(float)
        value = shift + rng.laplace(0.0, 0.5, size=size)
        return np.column_stack([count, value])

    claim = PrivacyClaim(1.0, 0.0)
    result = event_audit_from_samples(
        draw(0.0, 200_000), draw(1.0, 200_000), claim, name="mixed", mechanism="mixed", seed=5
    )
    # mixed columns try the classifier, the binned law's ratio and its product form
    assert result.details["event"].split(" ")[0].split("[")[0] in _MIXED_SCORES
    assert result.violation and 1.0 < result.epsilon_lower_bound <= 2.0 + 1e-12


def test_score_argument_is_checked() -> None:
    with pytest.raises(ValueError, match="score"):
        bad: Any = "magic"
        event_audit(
            LaplaceMechanism(1.0), PAIR, PrivacyClaim(1.0, 0.0), samples=100, seed=1, score=bad
        )
    two_columns = np.zeros((100, 2))
    with pytest.raises(ValueError, match="one feature column"):
        event_audit_from_samples(
            two_columns,
            two_columns,
            PrivacyClaim(1.0, 0.0),
            name="n",
            mechanism="m",
            score="feature",
        )


def test_black_box_power_statement_covers_a_slightly_leakier_laplace() -> None:
    # Laplace(1) audited at ε = 1 states the ε it would have caught; Laplace at that ε is
    # rejected in at least 28 of 30 audits (coverage ≥ 0.95 is the promise)
    claim = PrivacyClaim(1.0, 0.0)
    good = event_audit(LaplaceMechanism(1.0), PAIR, claim, samples=50_000, seed=12)
    assert good.verdict == "pass" and good.detectable_epsilon is not None
    leaky = LaplaceMechanism(1.0 / good.detectable_epsilon)
    hits = sum(
        event_audit(leaky, PAIR, claim, samples=50_000, seed=s).violation for s in range(400, 430)
    )
    assert hits >= 28


# ------------------------------------------------------------------------------------------------
# structured scores for outputs that mix flags and released values
# ------------------------------------------------------------------------------------------------


def _flag_and_value(rng: np.random.Generator, size: int, spread: float) -> np.ndarray:
    """A flag (⊤ with probability ½) and, under ⊤, a released value ``N(0, spread²)`` (0 else)."""
    flag = rng.random(size) < 0.5
    value = np.where(flag, rng.normal(0.0, spread, size), 0.0)
    return np.stack([flag * 1.0, value], axis=1)


def test_column_coder_keeps_discrete_values_and_atoms_and_bins_the_rest() -> None:
    from audit.methods.black_box import _column_coder

    flags = np.array([0.0, 1.0, -1.0, 1.0])
    code = _column_coder(flags, 4)
    assert code(np.array([-1.0, 0.0, 1.0, 7.0])).tolist() == [0, 1, 2, 3]  # 7: unseen
    rng = np.random.default_rng(0)
    mixed = np.where(rng.random(4000) < 0.5, 0.0, rng.normal(size=4000))
    code = _column_coder(mixed, 4)
    codes = code(mixed)
    assert set(codes[mixed == 0.0].tolist()) == {0}  # the atom "no release" keeps one code
    rest = codes[mixed != 0.0]
    assert set(rest.tolist()) == {1, 2, 3, 4}  # the released values fall into 4 quantile bins
    assert np.all(np.abs(np.bincount(rest)[1:] / rest.size - 0.25) < 0.01)


def test_mixed_outputs_catch_a_leak_in_both_tails_of_the_released_value() -> None:
    # under x' the released value is spread 1.6x wider: the ratio is largest in both tails, an
    # event no single threshold of the value describes; the auto score (mixed columns) catches it
    rng_p, rng_q = np.random.default_rng(1), np.random.default_rng(2)
    out_p = _flag_and_value(rng_p, 40_000, 1.0)
    out_q = _flag_and_value(rng_q, 40_000, 1.6)
    result = event_audit_from_samples(
        out_p, out_q, PrivacyClaim(0.5, 0.0), name="tails", mechanism="m", seed=3
    )
    assert result.violation and result.epsilon_lower_bound > 0.6
    assert result.details["event"].split(" ")[0].split("[")[0] in _MIXED_SCORES


def test_structured_scores_alone_catch_the_tails_and_the_product_law() -> None:
    rng_p, rng_q = np.random.default_rng(4), np.random.default_rng(5)
    out_p = _flag_and_value(rng_p, 50_000, 1.0)
    out_q = _flag_and_value(rng_q, 50_000, 1.6)
    binned = event_audit_from_samples(
        out_p, out_q, PrivacyClaim(0.5, 0.0), name="b", mechanism="m", seed=6,
        score="binned_likelihood_ratio",
    )  # fmt: skip
    assert binned.violation and binned.details["event"].startswith("binned_likelihood_ratio[")
    # a product law: 12 released values, each shifted by 0.25 scales under x' (ε = 3 in all)
    x = np.random.default_rng(7).laplace(0.0, 1.0, (50_000, 12))
    xp = np.random.default_rng(8).laplace(0.25, 1.0, (50_000, 12))
    flags = np.ones((50_000, 1))
    product = event_audit_from_samples(
        np.hstack([flags, x]), np.hstack([flags, xp]), PrivacyClaim(1.0, 0.0), name="nb",
        mechanism="m", seed=9, score="naive_bayes",
    )  # fmt: skip
    assert product.violation and product.details["event"].startswith("naive_bayes[")


def test_structured_scores_keep_the_false_alarm_rate_on_equal_laws() -> None:
    # same law under x and x': each audit rejects with probability <= 0.05 (the new families
    # alone, every bin count a candidate: the most selection they add); 60 seeds
    rejections = 0
    for s in range(60):
        out_p = _flag_and_value(np.random.default_rng(1000 + s), 4000, 1.0)
        out_q = _flag_and_value(np.random.default_rng(2000 + s), 4000, 1.0)
        rejections += event_audit_from_samples(
            out_p, out_q, PrivacyClaim(0.0, 0.0), name="null", mechanism="m", seed=s,
            score=("binned_likelihood_ratio", "naive_bayes"),
        ).violation  # fmt: skip
    assert rejections <= int(stats.binom(60, 0.05).ppf(0.999))
