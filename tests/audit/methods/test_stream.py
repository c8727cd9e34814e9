"""The joint-DP stream audit of Algorithm 1 (audit/methods/stream.py)."""

from __future__ import annotations

import numpy as np
import pytest

from audit.methods.stream import (
    Algorithm1Policy,
    Stream,
    differing_day,
    multi_armed_streams,
    neighbouring_streams,
    stream_audit,
    worst_case_streams,
)
from audit.protocols import PrivacyClaim, StreamPolicy
from reference.noise import ZeroNoise
from reference.shariff_sheffet import (
    LinUCB,
    PrivacyParameters,
    ProblemConstants,
    TreeStatistics,
    make_policy,
    nonprivate_bounds,
)
from reference.tree import TreeAggregator

CONSTANTS = ProblemConstants(d=2)
CLAIM = PrivacyClaim(1.0, 0.1, "t_neighbouring", "printed (ε, δ)")


def _noiseless(n: int, rng: np.random.Generator) -> LinUCB:
    """A broken "private" Algorithm 1: the tree releases exact sums (no node noise)."""
    tree = TreeAggregator(n, ZeroNoise((3, 3)), rng)
    return LinUCB(TreeStatistics(CONSTANTS, tree, nonprivate_bounds(1.0)), CONSTANTS, 1.0 / n)


def test_worst_case_streams_are_t_neighbours_with_orthogonal_rows() -> None:
    s, sp = worst_case_streams(8, 3)
    assert s.n == sp.n == 8
    for day in range(8):
        same = np.array_equal(s.decision_sets[day], sp.decision_sets[day])
        assert same == (day != 2)
    v = np.append(s.decision_sets[2][0], s.reward_tables[2][0])
    w = np.append(sp.decision_sets[2][0], sp.reward_tables[2][0])
    assert v @ w == 0.0 and v @ v == w @ w == 2.0  # orthogonal, both of norm L̃ = √2


def test_policy_satisfies_the_protocol() -> None:
    policy = Algorithm1Policy(_noiseless, "noiseless")
    assert isinstance(policy, StreamPolicy)


def test_noiseless_algorithm_is_caught_and_the_private_one_is_not() -> None:
    s, sp = worst_case_streams(16, 1)
    broken = stream_audit(
        Algorithm1Policy(_noiseless, "noiseless"), s, sp, 1, CLAIM, runs=200, seed=1
    )
    assert broken.violation and broken.epsilon_lower_bound > 2.0
    private = Algorithm1Policy(
        lambda n, rng: make_policy("gaussian", CONSTANTS, n, 1 / n, rng, PrivacyParameters(1, 0.1)),
        "gaussian",
    )
    result = stream_audit(private, s, sp, 1, CLAIM, runs=200, seed=1)
    assert not result.violation


def test_candidate_streams_differ_on_one_day_each_in_their_own_way() -> None:
    pairs = neighbouring_streams(16, seed=3)
    assert [p.description for p in pairs] == [
        f"{kind} at day {t}" for t in (1, 8) for kind in ("contexts", "rewards", "both")
    ]
    for pair in pairs:
        t = differing_day(pair.x, pair.x_prime)
        assert t == int(pair.description.split()[-1]) and pair.relation == "t_neighbouring"
        same_sets = np.array_equal(pair.x.decision_sets[t - 1], pair.x_prime.decision_sets[t - 1])
        same_rewards = np.array_equal(
            pair.x.reward_tables[t - 1], pair.x_prime.reward_tables[t - 1]
        )
        kind = pair.description.split()[0]
        assert (same_sets, same_rewards) == {
            "contexts": (False, True), "rewards": (True, False), "both": (False, False)
        }[kind]  # fmt: skip
    with pytest.raises(ValueError, match="kinds must be"):
        neighbouring_streams(16, kinds=("days",))
    for bad in ((0,), (16,), (2.5,), (True,)):
        with pytest.raises(ValueError, match=r"days must be integers in \[1, n - 1\]"):
            neighbouring_streams(16, days=bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match=r"days must be integers in \[1, n - 1\]"):
            multi_armed_streams(16, days=bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="exactly one day"):
        differing_day(pairs[0].x, pairs[0].x)


def test_streams_must_be_t_neighbours() -> None:
    s, sp = worst_case_streams(8, 3)
    with pytest.raises(ValueError, match="differ on day 3"):
        stream_audit(Algorithm1Policy(_noiseless, "x"), s, sp, 2, CLAIM, runs=8, seed=0)
    with pytest.raises(ValueError, match="one entry per day"):
        Stream((np.zeros((1, 2)),), ())
    with pytest.raises(ValueError, match=r"t must be in \[1, n - 1\]"):
        worst_case_streams(8, 8)
