"""Stream designs on which the later choices reveal the changed record (audit/methods/designs.py)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from audit.methods.black_box import event_audit_from_samples
from audit.methods.designs import (
    LINEAR_RECORDS,
    ONLINE_PATTERNS,
    anchored_features,
    choice_features,
    design_online_audit,
    design_stream_audit,
    informative_days,
    linear_design,
    linear_designs,
    multi_armed_design,
    multi_armed_designs,
    online_design,
    online_designs,
    point_features,
    reused_noise_design,
)
from audit.methods.stream import collect_transcripts, differing_day
from audit.protocols import PrivacyClaim
from reference.agarwal_singh.sets import LossSet

REPO = Path(__file__).resolve().parents[3]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from examples import linear_zoo, online  # noqa: E402
from examples.good_policy import GaussianTreeLinUCB  # noqa: E402

PURE = PrivacyClaim(1.0, 0.0, "t_neighbouring")
APPROX = PrivacyClaim(1.0, 0.1, "t_neighbouring")


@given(
    n=st.integers(2, 20),
    record=st.sampled_from(LINEAR_RECORDS),
    d=st.integers(2, 4),
    data=st.data(),
)
def test_linear_designs_are_t_neighbours_inside_the_record_domain(
    n: int, record: str, d: int, data: st.DataObject
) -> None:
    t = data.draw(st.integers(1, n - 1))
    pair = linear_design(n, t, record, d=d)  # type: ignore[arg-type]
    assert differing_day(pair.x, pair.x_prime) == t
    for stream in (pair.x, pair.x_prime):
        assert stream.n == n
        for arms, rewards in zip(stream.decision_sets, stream.reward_tables, strict=True):
            assert arms.shape == (2, d) and rewards.shape == (2,)
            assert np.all(np.linalg.norm(arms, axis=1) <= 1.0 + 1e-12)
            assert np.all(np.abs(rewards) <= 1.0)
        # day t: both arms are the record (the record enters whatever is chosen)
        arms_t = stream.decision_sets[t - 1]
        assert np.array_equal(arms_t[0], arms_t[1])
        assert stream.reward_tables[t - 1][0] == stream.reward_tables[t - 1][1]
        # later days: two opposite arms of equal norm, reward 0 (the bonus cancels; u is fixed)
        for day in range(t, n):
            arms = stream.decision_sets[day]
            assert np.allclose(arms[0], -arms[1], atol=0.0)
            assert np.array_equal(stream.reward_tables[day], np.zeros(2))
        # earlier days: no data
        for day in range(t - 1):
            assert not stream.decision_sets[day].any() and not stream.reward_tables[day].any()
    assert informative_days(pair.x, t).tolist() == list(range(t + 1, n + 1))


def test_each_record_pair_is_the_documented_corner() -> None:
    rows = {}
    for record in LINEAR_RECORDS:
        pair = linear_design(3, 1, record)
        rows[record] = [
            np.append(s.decision_sets[0][0], s.reward_tables[0][0]) for s in (pair.x, pair.x_prime)
        ]
    e1, e2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert np.array_equal(rows["reward"][0], [*e1, 1.0]) and np.array_equal(
        rows["reward"][1], [*e1, -1.0]
    )
    assert np.array_equal(rows["context"][1], [*(-e1), 1.0])
    assert np.array_equal(rows["both"][1], [*e2, -1.0])
    assert np.array_equal(rows["row"][1], [0.0, 0.0, 0.0])
    # "reward" and "context" change the Gram matrix of the row identically
    v, w = rows["reward"][1], rows["context"][1]
    assert np.array_equal(np.outer(v, v), np.outer(w, w))
    # "both" is observed along (e1 + e2)/sqrt(2), the direction in which u moves
    observe = linear_design(3, 1, "both").x.decision_sets[1][0]
    assert observe == pytest.approx(np.array([1.0, 1.0]) / math.sqrt(2.0))


def test_a_noiseless_policy_reveals_the_change_in_every_later_choice() -> None:
    """The threshold property: with exact statistics the later choice is the sign of u's moved
    coordinate, so the transcripts on the two streams are deterministic and opposite."""
    for record in ("reward", "context"):
        pair = linear_design(6, 1, record)
        rng = np.random.default_rng(0)
        a = linear_zoo.non_private.run(pair.x.decision_sets, pair.x.reward_tables, rng)
        b = linear_zoo.non_private.run(pair.x_prime.decision_sets, pair.x_prime.reward_tables, rng)
        assert a[1:].tolist() == [0] * 5 and b[1:].tolist() == [1] * 5


def test_design_grids_are_distinctly_named() -> None:
    for pairs in (linear_designs(), multi_armed_designs(), online_designs("linf_ball")):
        names = [p.description for p in pairs]
        assert len(set(names)) == len(names) and all(p.relation == "t_neighbouring" for p in pairs)


def test_multi_armed_design_changes_one_days_rewards_only() -> None:
    pair = multi_armed_design(8, 3, 4)
    assert differing_day(pair.x, pair.x_prime) == 3
    assert np.array_equal(pair.x.reward_tables[2], np.ones(4))
    assert np.array_equal(pair.x_prime.reward_tables[2], np.zeros(4))
    others = [r for i, r in enumerate(pair.x.reward_tables) if i != 2]
    assert all(not r.any() for r in others)
    assert all(np.array_equal(a, np.eye(4)) for a in pair.x.decision_sets)


@pytest.mark.parametrize("kind", ["box01", "linf_ball", "l2_ball", "l1_ball"])
@pytest.mark.parametrize("pattern", ONLINE_PATTERNS)
@pytest.mark.parametrize("dim", [2, 3, 5])
def test_online_designs_stay_in_the_loss_set(kind: str, pattern: str, dim: int) -> None:
    pair = online_design(4, dim, loss_set=kind, pattern=pattern)  # type: ignore[arg-type]
    ys = LossSet(kind, dim)  # type: ignore[arg-type]
    for losses in (pair.x, pair.x_prime):
        assert losses.shape == (4, dim)
        assert all(ys.contains(row) for row in losses)
    changed = np.flatnonzero(np.any(pair.x != pair.x_prime, axis=1))
    assert changed.tolist() == [0]
    if pattern == "split":  # the differences of coordinates move as much as the set allows
        diff = pair.x[0] - pair.x_prime[0]
        assert diff[0] > 0 and diff[1] < 0


def test_feature_maps_read_the_informative_days_and_the_log_points() -> None:
    actions = np.array([[0, 1, 1, 0], [1, 1, 0, 0]], dtype=np.float64)
    f = choice_features(np.array([3, 5]), 1)  # days 3 and 5 of a transcript of days 2..5
    assert f(actions).tolist() == [[1, 0], [1, 0]]
    with pytest.raises(ValueError, match="after t"):
        choice_features(np.array([1]), 1)
    points = np.array([[0.5, 0.5, 0.25, 0.75]])
    g = point_features(2)(points)
    assert g.shape == (1, 8)
    assert g[0, 4:6] == pytest.approx([0.0, 0.0], abs=1e-15)
    assert g[0, 6] - g[0, 7] == pytest.approx(math.log(1 / 3))


def test_input_errors_name_the_parameter() -> None:
    with pytest.raises(ValueError, match="t must be"):
        linear_design(4, 4)
    with pytest.raises(ValueError, match="record"):
        linear_design(4, 1, "nothing")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="d must"):
        linear_design(4, 1, d=1)
    with pytest.raises(ValueError, match="num_arms"):
        multi_armed_design(4, 1, 1)
    with pytest.raises(ValueError, match="loss_set"):
        online_design(4, 2, loss_set="sphere")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="grid"):
        linear_designs(())
    with pytest.raises(ValueError, match="levels"):
        reused_noise_design(3)
    with pytest.raises(ValueError, match="d must"):
        reused_noise_design(5, d=1)


def _u_along_w(stream: object, day: int) -> float:
    """``⟨w, u⟩`` of the release day ``day`` (1-based) reads, whichever arms were chosen: every
    day offers ``(w, ρ)`` and ``(−w, −ρ)`` (or two copies of the record), so its row adds ``ρ``."""
    tables = stream.reward_tables  # type: ignore[attr-defined]
    return float(sum(tables[k][0] for k in range(day - 1)))


@pytest.mark.parametrize("levels", [4, 5, 6, 8])
def test_reused_noise_design_anchors_read_the_same_noise_count_and_align(levels: int) -> None:
    """Every anchor's two releases have the same node count (``popcount``), sit on both sides of
    the record, and read equal statistics along ``w`` on ``x`` and 2 apart on ``x'``; the rows stay
    in the record domain and the streams differ on day ``t`` only."""
    design = reused_noise_design(levels)
    x, xp = design.x, design.x_prime
    q = 2 ** (levels - 2)
    assert x.n == 3 * q and len(design.anchors) == q - 1
    assert differing_day(x, xp) == design.t and design.relation == "t_neighbouring"
    for before, after in design.anchors:
        assert before < design.t < after
        assert (before - 1).bit_count() == (after - 1).bit_count()
        assert math.isclose(_u_along_w(x, before), _u_along_w(x, after), abs_tol=1e-12)
        assert math.isclose(_u_along_w(xp, before) - 2.0, _u_along_w(xp, after), abs_tol=1e-12)
    for sets, tables in zip(x.decision_sets, x.reward_tables, strict=True):
        assert np.all(np.linalg.norm(sets, axis=1) <= 1.0 + 1e-12)
        assert np.all(np.abs(tables) <= 1.0)


def test_a_noise_reusing_policy_never_splits_an_anchor_on_the_aligned_stream() -> None:
    """Known-bad, exactly: the tree that reuses one noise draw chooses the same arm on both days
    of every anchor on ``x`` (run after run), and splits some on ``x'``; the independent tree
    splits about half of them on both streams.  (At ε = 8 the shared noise is smaller, so the
    splits on ``x'`` are frequent enough for 300 runs.)"""
    design = reused_noise_design(6)
    features = anchored_features(design)
    pair = design
    policy = linear_zoo.NoiseReusedLinUCB(epsilon=8.0)
    out, out_p = collect_transcripts(policy, pair.x, pair.x_prime, design.t,
                                     runs=300, seed=5, earlier_days=True)  # fmt: skip
    assert out.shape == (300, pair.x.n - 1)
    assert features(out).max() == 0.0 and features(out_p).max() > 0.0
    good, good_p = collect_transcripts(linear_zoo.gaussian_tree, pair.x, pair.x_prime, design.t,
                                       runs=50, seed=5, earlier_days=True)  # fmt: skip
    half = len(design.anchors) / 2
    assert abs(features(good).mean() - half) < 3 and abs(features(good_p).mean() - half) < 3


def test_earlier_days_put_the_days_before_t_first() -> None:
    """``earlier_days`` adds the actions of days ``1 .. t − 1`` before those of ``t + 1 .. n``."""
    design = reused_noise_design(4)
    pair = design
    late, _ = collect_transcripts(linear_zoo.gaussian_tree, pair.x, pair.x_prime, design.t,
                                  runs=4, seed=3)  # fmt: skip
    every, _ = collect_transcripts(linear_zoo.gaussian_tree, pair.x, pair.x_prime, design.t,
                                   runs=4, seed=3, earlier_days=True)  # fmt: skip
    assert every.shape[1] == pair.x.n - 1
    np.testing.assert_array_equal(every[:, design.t - 1 :], late)


@pytest.mark.slow
def test_a_correct_tree_passes_on_the_anchored_design() -> None:
    """Known-good: the independent Gaussian tree's anchors split alike on both streams, so the
    anchored feature's event audit finds no violation of (1, 0.1)."""
    result = design_stream_audit(linear_zoo.gaussian_tree, reused_noise_design(6), APPROX,
                                 runs=600, seed=7, confidence=0.99, name="anchored")  # fmt: skip
    assert not result.violation


@pytest.mark.slow
def test_a_two_fold_under_noised_laplace_tree_is_caught_from_its_actions() -> None:
    """Known-bad: the Laplace tree that ignores the Gram matrix's ℓ₁ sensitivity is 2ε on the
    reward pair; its actions alone reject the claimed ε = 1 on the two-day design."""
    pair = linear_design(2, 1, "reward")
    result = design_stream_audit(
        linear_zoo.laplace_tree, pair, PURE, runs=3000, seed=11, confidence=0.99, name="laplace"
    )
    assert result.violation and result.epsilon_lower_bound > 1.0


@pytest.mark.slow
def test_a_correct_gaussian_tree_is_not_caught_on_a_design() -> None:
    """Known-good: the independent Gaussian-tree LinUCB passes (1, 0.1) on the same design."""
    pair = linear_design(4, 1, "reward")
    result = design_stream_audit(
        GaussianTreeLinUCB(), pair, APPROX, runs=1000, seed=11, confidence=0.99, name="good"
    )
    assert not result.violation and result.verdict == "pass"


@pytest.mark.slow
def test_online_designs_catch_the_radius_calibrated_tree_and_pass_the_correct_one() -> None:
    pair = online_design(2, 2, loss_set="linf_ball")
    bad = design_online_audit(
        online.RadiusTreeFTRL(), pair, PURE, runs=4000, seed=3, confidence=0.99, name="radius"
    )
    assert bad.violation
    good = design_online_audit(
        online.TreeFTRLExperts(loss_set="linf_ball"), pair, PURE, runs=2000, seed=3,
        confidence=0.99, name="tree",
    )  # fmt: skip
    assert not good.violation


def test_prefix_likelihood_ratio_finds_a_first_day_leak_in_long_transcripts() -> None:
    """Only day 1 depends on the input; 20 later days are fair coins.  Whole transcripts are all
    distinct (their count ratio learns nothing), their first column is a clean look."""
    rng = np.random.default_rng(5)
    size = 4000

    def sample(p: float) -> np.ndarray:
        first = (rng.random(size) < p).astype(np.float64)
        return np.column_stack([first, rng.integers(0, 2, (size, 20)).astype(np.float64)])

    x, x_prime = sample(0.9), sample(0.1)
    whole = event_audit_from_samples(
        x, x_prime, PURE, name="w", mechanism="m", score="likelihood_ratio", seed=1
    )
    prefix = event_audit_from_samples(
        x, x_prime, PURE, name="p", mechanism="m", score=("prefix_likelihood_ratio",), seed=1
    )
    assert prefix.violation and prefix.epsilon_lower_bound > whole.epsilon_lower_bound
    assert prefix.details["event"].startswith("prefix_likelihood_ratio[")
    with pytest.raises(ValueError, match="score"):
        event_audit_from_samples(x, x_prime, PURE, name="p", mechanism="m", score=())
    with pytest.raises(ValueError, match="score"):
        event_audit_from_samples(x, x_prime, PURE, name="p", mechanism="m", score=("auto",))
