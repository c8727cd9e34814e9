"""The third-party-style online learners of ``examples/online.py``: the protocols they satisfy,
their tree and densities, and what the audits say of them (the radius calibration is caught
through its release mechanism; the correct learners are not)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from audit.methods.online import online_stream_audit, online_streams
from audit.methods.white_box import density_privacy_losses, white_box_audit
from audit.protocols import DensityMechanism, OnlinePolicy, PrivacyClaim, ReleasingPolicy
from examples.online import (
    ExponentialWeights,
    PrivateEXP3,
    RadiusTreeFTRL,
    TreeFTRLExperts,
    node_sums,
    prefix_nodes,
    tree_levels,
    tree_nodes,
)

CLAIM = PrivacyClaim(1.0, 0.0, "t_neighbouring", "ε-DP")


def test_learners_satisfy_the_protocols() -> None:
    for learner in (TreeFTRLExperts(), RadiusTreeFTRL(), PrivateEXP3()):
        assert isinstance(learner, OnlinePolicy) and isinstance(learner, ReleasingPolicy)
        assert isinstance(learner.release_mechanism(), DensityMechanism)
        assert learner.epsilon == 1.0 and learner.delta == 0.0
    assert isinstance(ExponentialWeights(), OnlinePolicy)
    assert not hasattr(ExponentialWeights(), "epsilon")


@pytest.mark.parametrize("leaves", [1, 2, 5, 8, 15, 16])
def test_the_tree_tiles_every_prefix_with_its_own_nodes(leaves: int) -> None:
    losses = np.random.default_rng(0).random((leaves + 1, 3))
    nodes = set(tree_nodes(leaves))
    for s in range(leaves + 1):
        used = prefix_nodes(s)
        assert set(used) <= nodes
        total = node_sums(losses, used).sum(axis=0) if used else np.zeros(3)
        assert total == pytest.approx(losses[:s].sum(axis=0))
    most = max(sum(1 for j, k in nodes if k << j <= leaf < (k + 1) << j) for leaf in range(leaves))
    assert most == tree_levels(leaves)


@pytest.mark.parametrize("learner", [TreeFTRLExperts(), PrivateEXP3()], ids=repr)
def test_points_use_only_earlier_losses_and_follow_the_generator(
    learner: TreeFTRLExperts | PrivateEXP3,
) -> None:
    losses = np.random.default_rng(1).random((12, 4))
    later = losses.copy()
    later[6:] = 1.0 - later[6:]
    a = learner.play(losses, np.random.default_rng(5))
    b = learner.play(later, np.random.default_rng(5))
    assert a.shape == (12, 4) and np.allclose(a.sum(axis=1), 1.0) and np.all(a >= 0.0)
    assert np.array_equal(a[:7], b[:7])  # x_1 .. x_7 use l_1 .. l_6 only
    assert np.array_equal(a, learner.play(losses, np.random.default_rng(5)))


def test_the_calibrations() -> None:
    n, dim = 16, 5
    assert TreeFTRLExperts().node_scale(n, dim) == dim * 4 / 1.0  # Δ₁([0,1]^N) = N, 4 levels
    assert TreeFTRLExperts(2.0, "linf_ball").node_scale(n, dim) == 2 * dim * 4 / 2.0
    assert RadiusTreeFTRL().node_scale(n, dim) == dim * 4 / 1.0  # ‖Y‖₁ = N: half the diameter
    assert RadiusTreeFTRL(loss_set="box01").node_scale(n, dim) == TreeFTRLExperts().node_scale(
        n, dim
    )
    assert PrivateEXP3(0.5).parameters(100, 3)[2] == 2.0
    assert PrivateEXP3(0.5, "linf_ball").parameters(100, 3)[2] == 4.0


def test_tree_release_density_is_the_laplace_density_of_the_node_sums() -> None:
    learner = TreeFTRLExperts(loss_set="linf_ball")
    losses = np.random.default_rng(2).uniform(-1.0, 1.0, (6, 3))
    release = learner.release_mechanism()
    out = release.sample(losses, np.random.default_rng(3), 4)
    sums = node_sums(losses, tree_nodes(5)).ravel()
    assert out.shape == (4, sums.size)
    scale = learner.node_scale(6, 3)
    expected = np.asarray(stats.laplace.logpdf(out, loc=sums, scale=scale)).sum(axis=1)
    assert release.log_density(losses, out) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("learner", "loss_set", "bound"),
    [
        (TreeFTRLExperts(), "box01", 1.0),
        (TreeFTRLExperts(loss_set="linf_ball"), "linf_ball", 1.0),
        (RadiusTreeFTRL(), "linf_ball", 2.0),
        (PrivateEXP3(), "box01", 1.0),
        (PrivateEXP3(loss_set="linf_ball"), "linf_ball", 1.0),
    ],
    ids=repr,
)
def test_privacy_losses_of_the_releases_stay_within_their_exact_bound(
    learner: TreeFTRLExperts | PrivateEXP3, loss_set: str, bound: float
) -> None:
    pair = online_streams(5, 2, loss_set=loss_set)[0]  # type: ignore[arg-type]
    release = learner.release_mechanism()
    losses = density_privacy_losses(release, pair.x, pair.x_prime, np.random.default_rng(4), 400)
    assert np.all(np.abs(losses) <= bound + 1e-9)
    if bound > 1.0:
        assert losses.max() > 1.0  # the radius calibration's loss exceeds the claimed ε


def test_radius_calibration_is_caught_by_the_white_box_and_the_correct_tree_is_not() -> None:
    pair = online_streams(3, 2, loss_set="linf_ball")[0]
    assert pair.description == "worst case at day 1"
    bad = white_box_audit(RadiusTreeFTRL().release_mechanism(), pair, CLAIM, samples=2000, seed=1)
    assert bad.violation and bad.epsilon_lower_bound > 1.5
    good = TreeFTRLExperts(loss_set="linf_ball").release_mechanism()
    assert not white_box_audit(good, pair, CLAIM, samples=2000, seed=1).violation
    box = online_streams(3, 2)[0]
    assert not white_box_audit(
        TreeFTRLExperts().release_mechanism(), box, CLAIM, samples=2000, seed=1
    ).violation
    assert not white_box_audit(
        PrivateEXP3().release_mechanism(), box, CLAIM, samples=500, seed=1
    ).violation


def test_the_batched_bandit_transcripts_have_the_law_of_one_run() -> None:
    # arms: a chi-square test of the (i_1, i_2, i_3) counts against one-at-a-time transcripts;
    # feedbacks: a two-sample KS test of the last round's (which depends on the earlier ones)
    learner = PrivateEXP3(epsilon=0.5)
    losses = np.random.default_rng(0).random((3, 3))
    batched = learner.release_mechanism().sample(losses, np.random.default_rng(1), 6000)
    rng = np.random.default_rng(2)
    single = np.array(
        [np.concatenate([a.astype(np.float64), y]) for a, y in
         (learner.transcript(losses, rng) for _ in range(6000))]
    )  # fmt: skip
    codes = [(out[:, :3] @ np.array([9.0, 3.0, 1.0])).astype(int) for out in (batched, single)]
    table = np.array([np.bincount(c, minlength=27) for c in codes])
    table = table[:, table.sum(axis=0) > 0]
    assert stats.chi2_contingency(table).pvalue > 1e-3
    assert stats.ks_2samp(batched[:, 5], single[:, 5]).pvalue > 1e-3
    assert set(np.unique(batched[:, :3])) <= {0.0, 1.0, 2.0}


def test_the_stream_audit_catches_noiseless_weights_and_not_the_private_learners() -> None:
    pair = online_streams(8, 3)[1]  # one coordinate at day 1
    broken = online_stream_audit(
        ExponentialWeights(), pair.x, pair.x_prime, 1, CLAIM, runs=100, seed=2
    )
    assert broken.violation and broken.epsilon_lower_bound > 2.0
    for learner in (TreeFTRLExperts(), PrivateEXP3()):
        result = online_stream_audit(learner, pair.x, pair.x_prime, 1, CLAIM, runs=200, seed=2)
        assert not result.violation


def test_arguments_and_losses_are_checked() -> None:
    with pytest.raises(ValueError, match="epsilon must be in"):
        TreeFTRLExperts(0.0)
    with pytest.raises(ValueError, match="epsilon must be in"):
        PrivateEXP3(math.inf)
    with pytest.raises(ValueError, match="loss_set must be one of"):
        RadiusTreeFTRL(loss_set="l2_ball")
    with pytest.raises(ValueError, match="eta must be in"):
        TreeFTRLExperts(eta=-1.0)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="declared loss set 'box01'"):
        TreeFTRLExperts().play(-np.ones((4, 2)), rng)
    with pytest.raises(ValueError, match=r"shape \(n, N\)"):
        PrivateEXP3().play(np.ones(4), rng)
    # a transcript with an arm that cannot be played has density 0
    learner = PrivateEXP3()
    losses = np.full((3, 2), 0.5)
    out = learner.release_mechanism().sample(losses, rng, 2)
    out[1, 0] = 2.0
    assert learner.release_mechanism().log_density(losses, out)[1] == -math.inf
