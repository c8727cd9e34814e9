"""The multi-armed kind's regret check (``privonline check --kind multi_armed``) against DP-SE."""

from __future__ import annotations

import numpy as np
import pytest

from audit.kinds.multi_armed import multi_armed_regret_check


class AlwaysLast:
    """Pulls a worst arm every day: worse than DP-SE once DP-SE eliminates (8 paired runs: the
    smallest one-sided signed-rank p is 2⁻⁸, below the level 0.01)."""

    def run(self, decision_sets, reward_tables, rng):  # type: ignore[no-untyped-def]
        return np.full(len(decision_sets), len(decision_sets[0]) - 1)


class RoundRobin:
    def run(self, decision_sets, reward_tables, rng):  # type: ignore[no-untyped-def]
        return np.arange(len(decision_sets)) % len(decision_sets[0])


def test_a_policy_worse_than_dp_se_fails_and_an_equal_one_passes() -> None:
    worse = multi_armed_regret_check(AlwaysLast(), epsilon=1.0, horizon=20_000, runs=8, seed=1)
    assert worse.worse and not worse.passed
    assert worse.candidate_mean == pytest.approx(0.25 * 20_000)
    same = multi_armed_regret_check(RoundRobin(), epsilon=1.0, horizon=3000, runs=4, seed=1)
    assert same.passed and same.reference_mean == pytest.approx(same.candidate_mean)


def test_arguments_and_actions_are_checked() -> None:
    with pytest.raises(ValueError, match="means must be"):
        multi_armed_regret_check(RoundRobin(), epsilon=1.0, means=(0.5,), runs=2)
    with pytest.raises(ValueError, match="runs"):
        multi_armed_regret_check(RoundRobin(), epsilon=1.0, runs=1)

    class OutOfRange:
        def run(self, decision_sets, reward_tables, rng):  # type: ignore[no-untyped-def]
            return np.full(len(decision_sets), 7)

    with pytest.raises(ValueError, match="run 1"):
        multi_armed_regret_check(OutOfRange(), epsilon=1.0, horizon=50, runs=2)
