"""The papers' reference algorithms as check targets, and DP-SE's first release."""

from __future__ import annotations

import math

import numpy as np

from audit.protocols import DensityMechanism, OnlinePolicy, ReleasingPolicy, StreamPolicy
from examples import references
from examples.multi_armed import EpochOneMeans, PrivateSuccessiveElimination
from reference.sajed_sheffet.constants import dpse_rounds


def test_the_epoch_one_release_has_the_references_epoch_length() -> None:
    for epsilon, arms in ((1.0, 5), (0.25, 3)):
        m = EpochOneMeans(epsilon, arms)
        assert m.days == arms * m.rounds  # the fixed point T = K·R_1(T)
        assert m.rounds == math.ceil(dpse_rounds(arms, 1, 1.0 / m.days, epsilon))


def test_the_epoch_one_release_is_what_dp_se_computes_and_its_density_is_laplace() -> None:
    m = EpochOneMeans(1.0, 5)
    rng = np.random.default_rng(3)
    records = np.zeros((m.days, 5))
    records[np.arange(m.days), np.arange(m.days) % 5] = rng.integers(2, size=m.days)
    draws = m.sample(records, np.random.default_rng(4), 20_000)
    means = records[np.arange(m.days), np.arange(m.days) % 5].reshape(m.rounds, 5).mean(axis=0)
    scale = 1.0 / m.rounds
    assert np.allclose(np.median(draws, axis=0), means, atol=0.05 * scale)
    assert np.allclose(np.mean(np.abs(draws - means), axis=0), scale, rtol=0.03)  # E|Lap(b)| = b
    at_means = m.log_density(records, means[None, :])[0]
    assert math.isclose(at_means, -5 * math.log(2 * scale), rel_tol=1e-12)
    # the policy's first days are the round robin the release assumes
    policy = PrivateSuccessiveElimination()
    arms = tuple(np.eye(5) for _ in range(40))
    actions = policy.run(arms, tuple(np.zeros(5) for _ in range(40)), np.random.default_rng(0))
    assert actions.tolist() == [day % 5 for day in range(40)]


def test_the_references_satisfy_the_protocols_and_are_deterministic_in_their_seed() -> None:
    for policy in (references.algorithm1, references.dp_se, references.dp_ucb):
        assert isinstance(policy, StreamPolicy)
    assert isinstance(references.dp_se, ReleasingPolicy)
    assert isinstance(references.dp_se.release_mechanism(), DensityMechanism)
    for learner in (references.private_ftrl, references.private_bandit):
        assert isinstance(learner, OnlinePolicy)
        losses = np.random.default_rng(1).random((30, 5))
        a = learner.play(losses, np.random.default_rng(7))
        b = learner.play(losses, np.random.default_rng(7))
        assert a.shape == (30, 5) and np.array_equal(a, b)
    arms = tuple(np.eye(5) for _ in range(30))
    rewards = tuple(np.random.default_rng(2).integers(2, size=(30, 5)).astype(float))
    ucb = references.dp_ucb.run(arms, rewards, np.random.default_rng(5))
    assert np.array_equal(ucb, references.dp_ucb.run(arms, rewards, np.random.default_rng(5)))
    contexts = tuple(np.random.default_rng(3).uniform(-0.5, 0.5, size=(4, 3)) for _ in range(20))
    linear = tuple(np.random.default_rng(4).choice([-1.0, 1.0], size=(20, 4)))
    actions = references.algorithm1.run(contexts, linear, np.random.default_rng(6))
    assert actions.shape == (20,) and actions.max() < 4
