"""Tests of Algorithm 1 (reference/shariff_sheffet/linucb.py) and its regularizer sources."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.noise import SymmetricGaussianNoise, ZeroNoise
from reference.shariff_sheffet.bounds import RegularizerBounds, nonprivate_bounds
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.linucb import AccuracyEventError, AccuracyEventWarning, LinUCB
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    ExactStatistics,
    PrivacyParameters,
    ProblemConstants,
    TreeStatistics,
    Variant,
    make_regularizer,
)
from reference.shariff_sheffet.simulation import make_policy, run_episode, run_gap_experiment
from reference.tree import TreeAggregator

PRIVACY = PrivacyParameters(epsilon=1.0, delta=0.1)


def test_first_round_by_hand() -> None:
    # Round 1, non-private, ρ = 1: V_1 = I, ũ_1 = 0, so θ̃_1 = 0 and
    # β_1 = σ √(2 ln(2/α) + ln det I − d ln 1) + S √1 + 0 = √(2 ln 40) + 1 for α = 0.05.
    constants = ProblemConstants(d=2)
    policy = LinUCB(ExactStatistics(constants, rho=1.0), constants, alpha=0.05)
    arms = np.array([[0.6, 0.0], [0.0, 0.8], [0.8, 0.0]])
    # UCB = 0 + β‖x‖: the two arms of norm 0.8 tie; the first of them (index 1) is chosen
    assert policy.select(arms) == 1
    assert policy.last is not None
    assert policy.last.beta == pytest.approx(math.sqrt(2 * math.log(40.0)) + 1.0, rel=1e-12)
    np.testing.assert_array_equal(policy.last.theta_tilde, np.zeros(2))


def test_estimate_after_updates_by_hand() -> None:
    # after x1 = (1, 0), y1 = 1 and x2 = (0, 1), y2 = -1 with ρ = 1:
    # G = I, V = 2I, u = (1, -1), θ̃ = V⁻¹u = (0.5, -0.5); ln det V = 2 ln 2.
    constants = ProblemConstants(d=2)
    policy = LinUCB(ExactStatistics(constants, rho=1.0), constants, alpha=0.1)
    policy.update(np.array([1.0, 0.0]), 1.0)
    policy.update(np.array([0.0, 1.0]), -1.0)
    policy.select(np.array([[1.0, 0.0]]))
    assert policy.last is not None
    np.testing.assert_allclose(policy.last.theta_tilde, [0.5, -0.5], rtol=1e-14)
    assert policy.last.log_det_V == pytest.approx(2 * math.log(2.0), rel=1e-14)
    expected_beta = math.sqrt(2 * math.log(20.0) + 2 * math.log(2.0)) + 1.0
    assert policy.last.beta == pytest.approx(expected_beta, rel=1e-12)


@given(st.integers(min_value=0, max_value=2**32 - 1))
@settings(max_examples=30)
def test_ucb_is_the_maximum_over_the_confidence_ellipsoid(seed: int) -> None:
    # Eq. (1): max_{θ ∈ E_t} ⟨θ, x⟩ is attained at θ̄ = θ̃ + β V⁻¹x / ‖x‖_{V⁻¹}, on the boundary.
    rng = np.random.default_rng(seed)
    constants = ProblemConstants(d=3)
    policy = LinUCB(ExactStatistics(constants, rho=1.0), constants, alpha=0.1)
    for _ in range(5):
        x = rng.normal(size=3)
        policy.update(x / np.linalg.norm(x), float(rng.uniform(-1, 1)))
    arms = rng.normal(size=(4, 3))
    arms /= np.linalg.norm(arms, axis=1, keepdims=True)
    chosen = policy.select(arms)
    assert policy.last is not None
    V, _ = policy.regularizer.current()
    V_inv = np.linalg.inv(V)
    ucbs = []
    for x in arms:
        width = math.sqrt(x @ V_inv @ x)
        theta_bar = policy.last.theta_tilde + policy.last.beta * V_inv @ x / width
        delta = theta_bar - policy.last.theta_tilde
        assert math.sqrt(delta @ V @ delta) == pytest.approx(policy.last.beta, rel=1e-9)
        ucbs.append(theta_bar @ x)
    assert chosen == int(np.argmax(ucbs))


def test_private_path_with_zero_noise_equals_nonprivate() -> None:
    # A tree with no noise and shift ρ, bounds (ρ, ρ, 0), is the non-private algorithm exactly.
    d, n, rho = 3, 60, 1.0
    constants = ProblemConstants(d=d)
    tree = TreeAggregator(n, ZeroNoise((d + 1, d + 1)), np.random.default_rng(0))
    private = LinUCB(TreeStatistics(constants, tree, nonprivate_bounds(rho)), constants, 0.1)
    exact = LinUCB(ExactStatistics(constants, rho), constants, 0.1)
    env_a = LinearGapEnvironment(d, 9, 0.1, np.random.default_rng(5))
    env_b = LinearGapEnvironment(d, 9, 0.1, np.random.default_rng(5))
    result_a = run_episode(private, env_a, n)
    result_b = run_episode(exact, env_b, n)
    np.testing.assert_array_equal(result_a.actions, result_b.actions)
    np.testing.assert_allclose(result_a.betas, result_b.betas, rtol=1e-9)


@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=1, max_value=12))
@settings(max_examples=20)
def test_released_V_is_symmetric_and_reads_off_the_tree(seed: int, rounds: int) -> None:
    d = 2
    constants = ProblemConstants(d=d)
    rng = np.random.default_rng(seed)
    tree = TreeAggregator(16, SymmetricGaussianNoise(d + 1, 3.0), rng)
    bounds = RegularizerBounds(rho_min=1.0, rho_max=2.0, gamma=1.0, shift=7.0)
    stats_ = TreeStatistics(constants, tree, bounds)
    xs = rng.normal(size=(rounds, d))
    xs /= np.linalg.norm(xs, axis=1, keepdims=True)
    ys = rng.uniform(-1, 1, size=rounds)
    for x, y in zip(xs, ys, strict=True):
        stats_.update(x, float(y))
    V, u_tilde = stats_.current()
    H, h = stats_.regularizer()
    np.testing.assert_array_equal(V, V.T)
    # V = G + H and ũ = u + h, with H = N[:d,:d] + shift·I, h = N[:d, d]
    np.testing.assert_allclose(V, xs.T @ xs + H, atol=1e-9)
    np.testing.assert_allclose(u_tilde, xs.T @ ys + h, atol=1e-9)


def _indefinite_source(d: int) -> TreeStatistics:
    """A tree whose release is far below ρ_min: outside the accuracy event every round."""
    constants = ProblemConstants(d=d)
    tree = TreeAggregator(8, ZeroNoise((d + 1, d + 1)), np.random.default_rng(0))
    bounds = RegularizerBounds(rho_min=5.0, rho_max=6.0, gamma=0.0, shift=-1.0)
    return TreeStatistics(constants, tree, bounds)


def test_pd_guard_repairs_with_warning_or_raises() -> None:
    constants = ProblemConstants(d=2)
    repairing = LinUCB(_indefinite_source(2), constants, 0.1)
    with pytest.warns(AccuracyEventWarning, match="rho_min"):
        repairing.select(np.eye(2))
    assert repairing.repairs == 1 and repairing.last is not None and repairing.last.repaired
    assert repairing.last.lambda_min_V == 5.0
    assert np.isfinite(repairing.last.beta)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the warning is issued once, the count keeps going
        repairing.select(np.eye(2))
    assert repairing.repairs == 2
    raising = LinUCB(_indefinite_source(2), constants, 0.1, pd_policy="raise")
    with pytest.raises(AccuracyEventError, match="lambda_min"):
        raising.select(np.eye(2))


def test_rewards_outside_the_bound_raise_or_are_clipped_and_counted() -> None:
    constants = ProblemConstants(d=2, B_tilde=1.0)
    tree = TreeAggregator(4, ZeroNoise((3, 3)), np.random.default_rng(0))
    strict = TreeStatistics(constants, tree, nonprivate_bounds())
    with pytest.raises(ValueError, match=r"y must be in \[-B_tilde, B_tilde\]"):
        strict.update(np.array([1.0, 0.0]), 2.5)
    tree = TreeAggregator(4, ZeroNoise((3, 3)), np.random.default_rng(0))
    clipping = TreeStatistics(constants, tree, nonprivate_bounds(), reward_policy="clip")
    clipping.update(np.array([1.0, 0.0]), 2.5)
    assert clipping.clip_events == 1
    # the inserted row is (1, 0, 1): its outer product is the exact prefix
    np.testing.assert_array_equal(tree.exact_prefix(), np.outer([1.0, 0.0, 1.0], [1.0, 0.0, 1.0]))


def test_bad_input_is_rejected() -> None:
    constants = ProblemConstants(d=2, L=1.0)
    policy = LinUCB(ExactStatistics(constants), constants, 0.1)
    with pytest.raises(ValueError, match=r"arms: every row must have Euclidean norm <= 1\.0"):
        policy.select(np.array([[2.0, 0.0]]))
    with pytest.raises(ValueError, match="arms must contain only finite values"):
        policy.select(np.array([[np.nan, 0.0]]))
    with pytest.raises(ValueError, match=r"arms must have shape \(any, 2\)"):
        policy.select(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="at least one action"):
        policy.select(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="x must have Euclidean norm <= L"):
        policy.update(np.array([3.0, 0.0]), 0.0)
    with pytest.raises(ValueError, match="y must be finite"):
        policy.update(np.array([1.0, 0.0]), float("inf"))
    with pytest.raises(ValueError, match=r"alpha must be in \(0.0, 1.0\)"):
        LinUCB(ExactStatistics(constants), constants, 1.0)
    with pytest.raises(ValueError, match="pd_policy"):
        LinUCB(ExactStatistics(constants), constants, 0.1, pd_policy="ignore")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"B must be in \[1, inf\)"):
        ProblemConstants(d=2, B=0.5)
    with pytest.raises(ValueError, match=r"epsilon must be in \(0, inf\)"):
        PrivacyParameters(epsilon=0.0, delta=0.1)
    with pytest.raises(ValueError, match=r"delta must be in \(0.0, 1.0\)"):
        PrivacyParameters(epsilon=1.0, delta=1.0)
    with pytest.raises(ValueError, match="privacy"):
        make_regularizer("gaussian", constants, 10, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="variant must be one of"):
        make_regularizer("laplace", constants, 10, 0.1, np.random.default_rng(0), PRIVACY)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="pad must be 'fresh' for the Wishart"):
        make_regularizer(
            "wishart", constants, 10, 0.1, np.random.default_rng(0), PRIVACY, pad="none"
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_actions(variant: Variant) -> None:
    runs = [
        run_gap_experiment(variant, d=2, num_arms=4, gap=0.1, n=30, seed=9, privacy=PRIVACY)
        for _ in range(2)
    ]
    np.testing.assert_array_equal(runs[0].actions, runs[1].actions)
    np.testing.assert_array_equal(runs[0].cumulative_regret, runs[1].cumulative_regret)


def test_nonprivate_learns_and_private_variants_stay_in_their_accuracy_event() -> None:
    # Non-private LinUCB on a gap instance must beat uniform play clearly by n = 400 (uniform has
    # expected regret ≈ (0.75 - E[sub-optimal mean]) per round).  Private variants at the paper's
    # calibration never leave the accuracy event in these runs (probability of a repair ≤ α per run).
    n = 400
    nonprivate = run_gap_experiment(
        "nonprivate", d=3, num_arms=9, gap=0.1, n=n, seed=3, privacy=None
    )
    assert nonprivate.cumulative_regret[-1] < 0.3 * n
    private_variants: tuple[Variant, ...] = ("gaussian", "wishart", "wishart_unshifted")
    for variant in private_variants:
        constants = ProblemConstants(d=3)
        policy = make_policy(variant, constants, n, 1 / n, np.random.default_rng(4), PRIVACY)
        env = LinearGapEnvironment(3, 9, 0.1, np.random.default_rng(3))
        result = run_episode(policy, env, 50)
        assert result.repairs == 0
        assert np.all(np.diff(result.cumulative_regret) >= 0)


def test_ucb_argmax_treats_rounding_level_differences_as_ties() -> None:
    from reference.shariff_sheffet.linucb import UCB_TIE_RTOL, ucb_argmax

    ucb = np.array([1.0, 1.0 + 1e-15, 1.0 - 1e-15, 0.5])
    assert int(ucb_argmax(ucb)) == 0  # within 1e-12 relative: tied, lowest index
    assert int(ucb_argmax(np.array([1.0, 1.0 + 1e-9]))) == 1  # a real difference wins
    batched = ucb_argmax(np.array([[0.0, 3.0, 3.0], [2.0, 1.0, 2.0 * (1 + UCB_TIE_RTOL / 2)]]))
    assert batched.tolist() == [1, 0]
