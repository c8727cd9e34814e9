"""The online kinds' regret check (``privonline check --kind online_full / online_bandit``)
against Agarwal & Singh's private learners (the references of audit/papers/agarwal_singh/regret.py)."""

from __future__ import annotations

import numpy as np
import pytest

from audit.kinds.online import online_regret_check
from audit.papers.agarwal_singh.regret import online_means
from examples.online import PrivateEXP3, TreeFTRLExperts
from reference._typing import FloatArray
from reference.agarwal_singh.theorems import thm41_parameters


class Uniform:
    """Plays the uniform distribution every round: regret ``≈ 0.2·T`` on the default means, far
    above the private learners' (8 paired runs: the smallest one-sided signed-rank p is 2⁻⁸)."""

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        return np.full(losses.shape, 1.0 / losses.shape[1])


class LastVertex:
    """Always the worst expert's vertex (a bandit learner that never learns)."""

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        points = np.zeros(losses.shape)
        points[:, -1] = 1.0
        return points


def test_correct_learners_pass_and_a_learner_that_never_learns_fails() -> None:
    full = online_regret_check(
        TreeFTRLExperts(1.0), feedback="full", epsilon=1.0, horizon=400, runs=8, seed=1
    )
    assert full.passed and full.feedback == "full" and full.name == "online full regret"
    assert full.means == online_means(5) == (0.25, 0.5, 0.5, 0.5, 0.5)
    # at T = 400 the uniform learner's regret (about 80) is within the 10% margin of the private
    # reference's (70); at T = 2000 it is not (about 400 against 250)
    worse = online_regret_check(
        Uniform(), feedback="full", epsilon=1.0, horizon=2000, runs=8, seed=1
    )
    assert worse.worse and not worse.passed and worse.margin == 0.1
    same = online_regret_check(Uniform(), feedback="full", epsilon=1.0, horizon=400, runs=8, seed=1)
    assert same.reference_mean == pytest.approx(full.reference_mean)  # same losses, same reference
    bandit = online_regret_check(
        PrivateEXP3(1.0), feedback="bandit", epsilon=1.0, horizon=400, runs=8, seed=1
    )
    assert bandit.passed and bandit.feedback == "bandit"
    never = online_regret_check(
        LastVertex(), feedback="bandit", epsilon=1.0, horizon=2000, runs=8, seed=1
    )
    assert never.worse
    assert never.candidate_mean > never.reference_mean


def test_the_check_is_deterministic_in_its_seed() -> None:
    a, b, c = (
        online_regret_check(
            PrivateEXP3(), feedback="bandit", epsilon=1.0, horizon=300, runs=3, seed=s
        )
        for s in (7, 7, 8)
    )
    assert a == b
    assert a.reference_mean != c.reference_mean


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"feedback": "partial"}, "feedback must be one of"),
        ({"epsilon": 0.0}, "epsilon"),
        ({"dim": 1}, "dim must be an integer >= 2"),
        ({"horizon": 1}, "horizon must be an integer >= 2"),
        ({"runs": 1}, "runs must be an integer >= 2"),
        ({"seed": -1}, "seed"),
        ({"confidence": 1.5}, "confidence"),
        ({"feedback": "bandit", "horizon": 2}, "gamma|T"),
    ],
)
def test_arguments_are_checked(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"feedback": "full", "epsilon": 1.0, "horizon": 50, "runs": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        online_regret_check(Uniform(), **args)  # type: ignore[arg-type]


def test_the_candidates_points_are_checked() -> None:
    class WrongShape:
        def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
            return np.zeros((losses.shape[0], 2))

    with pytest.raises(ValueError, match=r"returned on run 1 must have shape \(50, 5\)"):
        online_regret_check(WrongShape(), feedback="full", epsilon=1.0, horizon=50, runs=2)


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
def test_the_bandit_designs_are_long_enough_for_a_learner_with_thm41_parameters(
    epsilon: float,
) -> None:
    # Algorithm 4 with Thm 4.1's parameters (the reference among such learners) refuses a
    # horizon where its exploration rate exceeds 1: at N = 5 every T < 8 (it made the check of
    # the correct reference crash on the full-information kind's 2-round designs)
    from audit.kinds.online import DIM
    from audit.kinds.online_bandit import KIND
    from audit.methods.designs import online_designs

    for pair in online_designs("box01", KIND.design_horizons, dims=(2, DIM)):
        horizon, dim = pair.x.shape
        thm41_parameters(dim, horizon, epsilon, preset="proof_consistent", calibration="strict")
