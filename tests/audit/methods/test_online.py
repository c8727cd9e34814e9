"""The privacy audit of online learners on neighbouring loss sequences (audit/methods/online.py)."""

from __future__ import annotations

import numpy as np
import pytest

from audit.methods.online import (
    check_points,
    collect_points,
    online_stream_audit,
    online_streams,
)
from audit.protocols import OnlinePolicy, PrivacyClaim
from reference._typing import FloatArray
from reference.agarwal_singh.sets import LossSet

CLAIM = PrivacyClaim(1.0, 0.0, "t_neighbouring", "ε-DP")


class FollowTheLeader:
    """Not private: all weight on the expert with the least exact cumulative loss so far."""

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        dim = losses.shape[1]
        before = np.vstack([np.zeros(dim), np.cumsum(losses, axis=0)[:-1]])
        return np.asarray(np.eye(dim)[np.argmin(before, axis=1)], dtype=np.float64)


class RandomizedResponseFTL:
    """Private by construction: ignores the losses and plays a uniformly random vertex."""

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        n, dim = losses.shape
        return np.asarray(np.eye(dim)[rng.integers(0, dim, n)], dtype=np.float64)


class Returns:
    """Returns a fixed value whatever the losses (malformed outputs)."""

    def __init__(self, value: object) -> None:
        self.value = value

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        return self.value  # type: ignore[return-value]


def test_streams_are_one_pair_per_day_and_pattern_differing_in_that_round_only() -> None:
    pairs = online_streams(8, 3)
    assert [p.description for p in pairs] == [
        "worst case at day 1",
        "one coordinate at day 1",
        "worst case at day 4",
        "one coordinate at day 4",
    ]
    box = LossSet("box01", 3)
    for pair in pairs:
        t = int(pair.description.rsplit(" ", 1)[1])
        assert pair.relation == "t_neighbouring"
        assert pair.x.shape == pair.x_prime.shape == (8, 3)
        differ = np.flatnonzero(np.any(pair.x != pair.x_prime, axis=1))
        assert differ.tolist() == [t - 1]
        assert box.contains(pair.x) and box.contains(pair.x_prime)
    worst = pairs[0]
    assert np.abs(worst.x[0] - worst.x_prime[0]).sum() == pytest.approx(box.diameter(1))
    one = pairs[1]
    assert one.x[0, 0] == 1.0 and one.x_prime[0, 0] == 0.0
    assert np.array_equal(one.x[0, 1:], one.x_prime[0, 1:])


@pytest.mark.parametrize("kind", ["box01", "linf_ball", "l2_ball", "l1_ball"])
def test_streams_stay_inside_every_loss_set(kind: str) -> None:
    ys = LossSet(kind, 4, 2.0)  # type: ignore[arg-type]
    for pair in online_streams(6, 4, loss_set=ys, days=(2, 5)):
        assert ys.contains(pair.x) and ys.contains(pair.x_prime)
        if pair.description.startswith("worst"):
            t = int(pair.description.rsplit(" ", 1)[1])
            gap = np.abs(pair.x[t - 1] - pair.x_prime[t - 1]).sum()
            assert gap == pytest.approx(ys.diameter(1))


def test_streams_follow_the_seed() -> None:
    a, b = online_streams(8, 3, seed=5), online_streams(8, 3, seed=5)
    c = online_streams(8, 3, seed=6)
    assert all(
        np.array_equal(p.x, q.x) and np.array_equal(p.x_prime, q.x_prime)
        for p, q in zip(a, b, strict=True)
    )
    assert not np.array_equal(a[0].x, c[0].x)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 2, "dim": 3}, "n must be an integer >= 3"),
        ({"n": 8, "dim": 1}, "dim must be an integer >= 2"),
        ({"n": 8, "dim": 3, "days": (0,)}, r"days must be integers in \[1, n - 1\] = \[1, 7\]"),
        ({"n": 8, "dim": 3, "days": (8,)}, r"days must be integers in \[1, n - 1\]"),
        ({"n": 8, "dim": 3, "days": (True,)}, r"days must be integers"),
        ({"n": 8, "dim": 3, "days": (2.0,)}, r"days must be integers"),
        ({"n": 8, "dim": 3, "days": ()}, "days must be a non-empty tuple"),
        ({"n": 8, "dim": 3, "loss_set": "box"}, "loss_set must be one of"),
        (
            {"n": 8, "dim": 3, "loss_set": LossSet("box01", 4)},
            "loss_set must have dimension dim = 3",
        ),
    ],
)
def test_stream_arguments_are_checked(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        online_streams(**kwargs)  # type: ignore[arg-type]


def test_check_points_names_the_run_and_refuses_bad_points() -> None:
    good = np.full((4, 2), 0.5)
    assert check_points(good.tolist(), 4, 2, "run 1") == pytest.approx(good)
    with pytest.raises(ValueError, match=r"run 1 must have shape \(4, 2\), one point per round"):
        check_points(np.ones((4, 3)), 4, 2, "run 1")
    bad = good.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match=r"run 2 contain 1 non-finite values .* round 3"):
        check_points(bad, 4, 2, "run 2")
    with pytest.raises(ValueError, match="run 3 must be a numeric array"):
        check_points("points", 4, 2, "run 3")


def test_learners_of_the_tests_satisfy_the_protocol() -> None:
    assert isinstance(FollowTheLeader(), OnlinePolicy)
    assert isinstance(RandomizedResponseFTL(), OnlinePolicy)


def test_a_non_private_learner_is_caught_and_a_private_one_is_not() -> None:
    # "one coordinate": the worst case of [0, 1]^N (all ones vs all zeros) shifts every expert's
    # loss alike, which no learner on the simplex that is shift-invariant can see
    pair = online_streams(8, 3)[1]
    broken = online_stream_audit(
        FollowTheLeader(), pair.x, pair.x_prime, 1, CLAIM, runs=100, seed=1
    )
    assert broken.violation and broken.epsilon_lower_bound > 2.0
    fine = online_stream_audit(
        RandomizedResponseFTL(), pair.x, pair.x_prime, 1, CLAIM, runs=200, seed=1
    )
    assert not fine.violation
    assert fine.mechanism.startswith("<") or "RandomizedResponseFTL" in fine.mechanism


def test_the_audit_is_deterministic_in_its_seed() -> None:
    pair = online_streams(8, 3)[1]
    runs = [
        online_stream_audit(
            RandomizedResponseFTL(), pair.x, pair.x_prime, 1, CLAIM, runs=40, seed=s
        )
        for s in (3, 3)
    ]
    assert runs[0].epsilon_lower_bound == runs[1].epsilon_lower_bound
    assert runs[0].p_value == runs[1].p_value
    a = collect_points(RandomizedResponseFTL(), pair.x, pair.x_prime, 1, runs=4, seed=9)
    b = collect_points(RandomizedResponseFTL(), pair.x, pair.x_prime, 1, runs=4, seed=9)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert a[0].shape == (4, 7 * 3)  # rounds 2..8, flattened


def test_audit_arguments_and_points_are_checked() -> None:
    pair = online_streams(8, 3)[0]
    ftl = FollowTheLeader()
    with pytest.raises(ValueError, match=r"claim\.relation must be 't_neighbouring'"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 1, PrivacyClaim(1.0, 0.0), runs=8, seed=1)
    with pytest.raises(ValueError, match="must be t-neighbours \\(t=4\\) but differ in round 1"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 4, CLAIM, runs=8, seed=1)
    with pytest.raises(ValueError, match=r"t must be in \[1, n - 1\] = \[1, 7\]"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 8, CLAIM, runs=8, seed=1)
    with pytest.raises(ValueError, match="same shape"):
        online_stream_audit(ftl, pair.x, pair.x_prime[:-1], 1, CLAIM, runs=8, seed=1)
    with pytest.raises(ValueError, match="runs must be an integer >= 4"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 1, CLAIM, runs=3, seed=1)
    with pytest.raises(ValueError, match="seed"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 1, CLAIM, runs=8, seed=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="confidence"):
        online_stream_audit(ftl, pair.x, pair.x_prime, 1, CLAIM, runs=8, seed=1, confidence=1.0)
    nan_points = np.full((8, 3), np.nan)
    with pytest.raises(ValueError, match=r"returned on run 1 contain 24 non-finite values"):
        online_stream_audit(Returns(nan_points), pair.x, pair.x_prime, 1, CLAIM, runs=8, seed=1)
    with pytest.raises(ValueError, match=r"returned on run 1 must have shape \(8, 3\)"):
        online_stream_audit(Returns(np.zeros(8)), pair.x, pair.x_prime, 1, CLAIM, runs=8, seed=1)


def test_the_policy_cannot_change_the_audited_losses() -> None:
    class Mutates:
        def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
            losses[:] = 0.0
            return np.full(losses.shape, 1.0 / losses.shape[1])

    pair = online_streams(8, 3)[0]
    before = pair.x.copy()
    collect_points(Mutates(), pair.x, pair.x_prime, 1, runs=4, seed=1)
    assert np.array_equal(pair.x, before)
