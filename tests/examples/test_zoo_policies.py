"""The policy zoo (``examples.linear_zoo``, ``examples.multi_armed_zoo``): protocols, valid and
reproducible actions, release mechanisms whose density matches their samples, and release-level
audits on a worst-case pair of record streams (``n = 8``, day 1 changed) that reject each
release bug's claim and not the correct policies'."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy import stats

from audit.methods.black_box import event_audit
from audit.methods.white_box import white_box_audit
from audit.protocols import (
    DensityMechanism,
    NeighbouringPair,
    PrivacyClaim,
    ReleasingPolicy,
    StreamPolicy,
    check_actions,
)
from examples import linear_zoo, multi_armed_zoo
from examples.zoo_trees import levels, released_nodes
from reference._typing import FloatArray

LINEAR: dict[str, Any] = {
    "laplace_tree": linear_zoo.laplace_tree,
    "noise_reused": linear_zoo.noise_reused,
    "delta_mismatch": linear_zoo.delta_mismatch,
    "non_private": linear_zoo.non_private,
    "gaussian_tree": linear_zoo.gaussian_tree,
}
MULTI_ARMED: dict[str, Any] = {
    "dp_ucb": multi_armed_zoo.dp_ucb,
    "wrong_split_dp_ucb": multi_armed_zoo.wrong_split_dp_ucb,
    "noise_reused_dp_ucb": multi_armed_zoo.noise_reused_dp_ucb,
    "reused_rewards_dpse": multi_armed_zoo.reused_rewards_dpse,
}
DENSITY = ("laplace_tree", "delta_mismatch", "gaussian_tree", "dp_ucb", "wrong_split_dp_ucb")
BLACK_BOX = ("noise_reused", "noise_reused_dp_ucb")
POLICIES: dict[str, Any] = {**LINEAR, **MULTI_ARMED}


def _stream(name: str, n: int = 24) -> tuple[FloatArray, FloatArray]:
    rng = np.random.default_rng(7)
    if name in LINEAR:
        sets = rng.normal(size=(n, 3, 2))
        sets /= np.linalg.norm(sets, axis=2, keepdims=True)
        return sets, rng.choice([-1.0, 1.0], size=(n, 3))
    return np.array([np.eye(3)] * n), (rng.random((n, 3)) < 0.5).astype(np.float64)


@pytest.mark.parametrize("name", list(POLICIES))
def test_each_policy_states_its_claim_and_plays_valid_reproducible_actions(name: str) -> None:
    policy = POLICIES[name]
    assert policy.epsilon == 1.0 and policy.delta in (0.0, 0.1)  # the calibration it states
    assert type(policy).__name__ in repr(policy)
    assert isinstance(policy, StreamPolicy)
    sets, rewards = _stream(name)
    actions = check_actions(policy.run(sets, rewards, np.random.default_rng(3)), sets, name)
    again = policy.run(sets, rewards, np.random.default_rng(3))
    np.testing.assert_array_equal(actions, again)


@pytest.mark.parametrize("name", list(POLICIES))
def test_release_mechanisms_are_white_or_black_box_as_documented(name: str) -> None:
    policy = POLICIES[name]
    if name in DENSITY + BLACK_BOX:
        assert isinstance(policy, ReleasingPolicy)
        mechanism = policy.release_mechanism()
        assert isinstance(mechanism, DensityMechanism) == (name in DENSITY)
    else:
        assert not isinstance(policy, ReleasingPolicy)


def _records(name: str, n: int = 8) -> tuple[FloatArray, FloatArray]:
    """A worst-case pair of record streams: day 1 changed, the other days fixed."""
    if name in LINEAR:  # rows (x, y), d = 1
        rng = np.random.default_rng(11)
        base = np.column_stack([rng.choice([-0.5, 0.5], n), rng.choice([-1.0, 1.0], n)])
        x, x_prime = base.copy(), base.copy()
        x[0] = (1.0, 1.0)
        # the Laplace tree's worst case is the zero row (largest ℓ₁ change), the Gaussian's an
        # orthogonal row of the same norm (largest Frobenius change)
        x_prime[0] = (0.0, 0.0) if name == "laplace_tree" else (1.0, -1.0)
        return x, x_prime
    base = np.zeros((n, 3))  # day t's reward in arm (t mod 3), 1 on odd days
    for t in range(n):
        base[t, t % 3] = float(t % 2)
    x, x_prime = base.copy(), base.copy()
    x[0, 0] = 1.0  # day 1: arm 0 pulled, reward 1 or 0
    return x, x_prime


def _claim(name: str) -> PrivacyClaim:
    policy = POLICIES[name]
    return PrivacyClaim(policy.epsilon, policy.delta, "t_neighbouring")


@pytest.mark.parametrize("name", DENSITY)
def test_log_density_is_the_density_of_what_sample_draws(name: str) -> None:
    mechanism = POLICIES[name].release_mechanism()
    x, x_prime = _records(name)
    rng = np.random.default_rng(5)
    outputs = mechanism.sample(x, rng, 20_000)
    width = len(released_nodes(8)) * 3  # q = 3: the upper triangle of 2 × 2, or K = 3 arms
    assert outputs.shape == (20_000, width) and levels(8) == 3
    # the 1-D marginal of the first coordinate: log_density along a line through an output (the
    # coordinates are independent), normalised, against the sampled coordinate's histogram
    grid = np.linspace(outputs[:, 0].min(), outputs[:, 0].max(), 4001)
    line = np.repeat(outputs[:1], grid.size, axis=0)
    line[:, 0] = grid
    pdf = np.exp(mechanism.log_density(x, line) - mechanism.log_density(x, line).max())
    cdf = np.cumsum(pdf) / pdf.sum()
    ks = stats.kstest(outputs[:, 0], lambda u: np.interp(u, grid, cdf))
    assert ks.pvalue > 1e-3, ks
    # normalisation and support: E_x[p_x'(o)/p_x(o)] = 1 for a neighbour x'
    ratio = np.exp(mechanism.log_density(x_prime, outputs) - mechanism.log_density(x, outputs))
    assert abs(ratio.mean() - 1.0) < 6 * ratio.std() / np.sqrt(ratio.size) + 1e-3


AUDITS = [
    ("laplace_tree", True),
    ("delta_mismatch", True),
    ("gaussian_tree", False),
    ("noise_reused", True),
    ("dp_ucb", False),
    ("wrong_split_dp_ucb", True),
    ("noise_reused_dp_ucb", True),
]


@pytest.mark.parametrize(("name", "bug"), AUDITS)
def test_the_release_audit_rejects_each_release_bug_and_no_correct_policy(
    name: str, bug: bool
) -> None:
    x, x_prime = _records(name)
    pair: NeighbouringPair[Any] = NeighbouringPair(x, x_prime, "t_neighbouring", "day 1")
    mechanism = POLICIES[name].release_mechanism()
    if isinstance(mechanism, DensityMechanism):
        result = white_box_audit(mechanism, pair, _claim(name), samples=20_000, seed=2026)
    else:
        result = event_audit(mechanism, pair, _claim(name), samples=4_000, seed=2026)
    assert result.violation == bug, result
    if bug:
        assert result.epsilon_lower_bound > 2.0  # really ε ≈ 3 or more (the docstrings)
