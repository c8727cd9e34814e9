"""The regret comparison method: paired runs on named generators, the paired Wilcoxon, the rounds
of a scaling fit."""

from __future__ import annotations

import numpy as np
import pytest

from audit.methods.regret import paired_runs, paired_wilcoxon, regret_rounds


def test_paired_runs_give_both_sides_one_environment_and_their_own_randomness() -> None:
    seen: list[tuple[float, float, float]] = []

    def run(i: int, gens: dict[str, np.random.Generator]) -> tuple[float, float]:
        env = float(gens["environment"].random())
        mine, theirs = float(gens["candidate"].random()), float(gens["reference"].random())
        seen.append((env, mine, theirs))
        return env + mine, env + theirs

    candidate, reference = paired_runs(
        run, runs=5, seed=3, streams=("environment", "candidate", "reference")
    )
    assert candidate.shape == reference.shape == (5,)
    again = paired_runs(run, runs=5, seed=3, streams=("environment", "candidate", "reference"))
    assert np.array_equal(again[0], candidate) and np.array_equal(again[1], reference)
    envs = [e for e, _, _ in seen[:5]]
    assert len(set(envs)) == 5  # every run its own environment
    assert all(m != t for _, m, t in seen)  # each side its own stream


def test_the_paired_wilcoxon_is_a_non_inferiority_test_with_a_margin() -> None:
    reference = np.linspace(100.0, 130.0, 12)
    within = paired_wilcoxon(reference * 1.05, reference, confidence=0.99)
    beyond = paired_wilcoxon(reference * 1.5, reference, confidence=0.99)
    assert not within[1] and beyond[1] and beyond[0] < 1e-3
    assert paired_wilcoxon(reference * 1.05, reference, confidence=0.99, margin=0.0)[1]
    assert paired_wilcoxon(1.1 * reference, reference, confidence=0.99) == (1.0, False)


def test_regret_rounds_are_distinct_log_spaced_and_checked() -> None:
    rounds = regret_rounds(300, 16, 10)
    assert rounds[0] == 16 and rounds[-1] == 300 and np.all(np.diff(rounds) > 0)
    with pytest.raises(ValueError, match="first must be < n=16"):
        regret_rounds(16, 16, 10)
    with pytest.raises(ValueError, match="points"):
        regret_rounds(300, 16, 1)
