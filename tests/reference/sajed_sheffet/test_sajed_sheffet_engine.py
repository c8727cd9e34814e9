"""Tests of ``reference.engine.mab``: the replicate-vectorised DP-SE and DP-UCB engines
(Sajed & Sheffet, Algorithm 3 and the Sec. 5 DP-UCB baseline).

Checks:

* the Sec. 5 instances against the means printed in the paper, and their
  defining shape (endpoints 0.75/0.25, linear/convex/concave second differences);
* DP-SE: every replicate equals the reference fast path :func:`simulate_dpse_bernoulli` on the
  same seed -- pulls, elimination rounds and epochs and final regret bit for bit -- with rows of
  different instances, ``ε`` (including ``inf``), ``noise_on`` and mid-epoch truncation; the regret
  curve equals the cumulative sum of ``Δ`` over the pull sequence rebuilt independently from the
  reference's epoch records; the C1/K=5 regression value computed by hand;
* DP-UCB: every replicate equals ``run_policy(DPUCB(...))`` with the generators of
  :func:`pseudo_regret_trajectories` -- the arm of every round and the regret trajectory bit for
  bit -- for both calibrations and rows with different ``ε``; the result does not depend on the
  block sizes of the pre-drawn streams or on which replicates share the batch;
* determinism for fixed seeds and input validation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine import mab as engine
from reference.engine.mab import (
    INSTANCES,
    dpse_bernoulli_batch,
    dpucb_bernoulli_batch,
    regret_checkpoints,
    section5_means,
)
from reference.rng import child_seeds, named_generators
from reference.sajed_sheffet.bandits import (
    DPUCB,
    BanditEnvironment,
    pseudo_regret_trajectories,
    run_policy,
    simulate_dpse_bernoulli,
)


def test_instances_match_the_paper() -> None:
    assert section5_means("C1", 5).tolist() == [0.75, 0.7, 0.7, 0.7, 0.7]
    assert section5_means("C2", 5) == pytest.approx([0.75, 0.625, 0.5, 0.375, 0.25], abs=1e-15)
    assert section5_means("C3", 5) == pytest.approx(
        [0.75, 0.53125, 0.375, 0.28125, 0.25], abs=1e-15
    )
    assert section5_means("C4", 5) == pytest.approx(
        [0.75, 0.71875, 0.625, 0.46875, 0.25], abs=1e-15
    )
    for K in (3, 5, 10, 20):
        for name in ("C2", "C3", "C4"):
            mu = section5_means(name, K)
            assert mu[0] == pytest.approx(0.75) and mu[-1] == pytest.approx(0.25)
            assert np.all(np.diff(mu) < 0)  # the best arm is arm 0
        second = {n: np.diff(section5_means(n, K), 2) for n in ("C2", "C3", "C4")}
        assert np.allclose(second["C2"], 0.0, atol=1e-12)
        assert np.all(second["C3"] > 0) and np.all(second["C4"] < 0)
    with pytest.raises(ValueError, match="instance"):
        section5_means("C5", 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="K"):
        section5_means("C1", 1)


@settings(max_examples=20, deadline=None)
@given(T=st.integers(1, 10**9), per_decade=st.integers(1, 12), linear=st.integers(1, 200))
def test_regret_checkpoints_are_increasing_rounds_ending_at_T(
    T: int, per_decade: int, linear: int
) -> None:
    marks = regret_checkpoints(T, per_decade, linear)
    assert marks[0] == 1 and marks[-1] == T
    assert np.all(np.diff(marks) > 0)


# --------------------------------------------------------------------------------------------
# DP-SE
# --------------------------------------------------------------------------------------------


def test_dpse_batch_equals_reference_fast_path_row_by_row() -> None:
    T = 5 * 10**7
    rows: list[tuple[engine.Instance, float]] = [
        ("C2", 0.1),
        ("C3", 0.25),
        ("C4", 1.0),
        ("C1", math.inf),
        ("C2", 0.5),
    ] * 3
    means = np.array([section5_means(i, 5) for i, _ in rows])
    eps = np.array([e for _, e in rows])
    seeds = child_seeds(11, 0, len(rows))
    for noise_on in ("r", "R_e"):
        res = dpse_bernoulli_batch(means, T, eps, 1.0 / T, seeds, noise_on=noise_on)
        for r, seed in enumerate(seeds):
            ref = simulate_dpse_bernoulli(
                means[r], T, float(eps[r]), 1.0 / T, np.random.default_rng(seed), noise_on=noise_on
            )
            assert np.array_equal(res.pulls[r], ref.pulls)
            assert np.array_equal(res.elimination_round[r], ref.elimination_round)
            assert np.array_equal(res.elimination_epoch[r], ref.elimination_epoch)
            assert res.final_regret[r] == ref.pseudo_regret
            assert res.epochs_completed[r] == len(ref.records)


@settings(max_examples=12, deadline=None)
@given(
    instance=st.sampled_from(INSTANCES),
    K=st.integers(2, 6),
    T=st.integers(2, 400_000),
    epsilon=st.sampled_from([0.05, 0.3, 2.0]),
    beta=st.sampled_from([0.5, 0.01, 1e-6]),
    seed=st.integers(0, 2**32),
)
def test_dpse_batch_equals_reference_including_truncation(
    instance: engine.Instance, K: int, T: int, epsilon: float, beta: float, seed: int
) -> None:
    mu = section5_means(instance, K)
    seeds = child_seeds(seed, 0, 3)
    res = dpse_bernoulli_batch(mu, T, epsilon, beta, seeds, checkpoints=[T])
    for r, s in enumerate(seeds):
        ref = simulate_dpse_bernoulli(mu, T, epsilon, beta, np.random.default_rng(s))
        assert np.array_equal(res.pulls[r], ref.pulls)
        assert res.pulls[r].sum() == T
        assert res.final_regret[r] == ref.pseudo_regret
        assert res.regret[r, -1] == ref.pseudo_regret


def _pull_sequence_from_records(mu: np.ndarray, T: int, seed: np.random.SeedSequence) -> np.ndarray:
    """The arm of every round, rebuilt from the reference's epoch records (round-robin over S)."""
    ref = simulate_dpse_bernoulli(mu, T, 0.5, 0.01, np.random.default_rng(seed))
    arms: list[int] = []
    viable: tuple[int, ...] = tuple(range(mu.size))
    for rec in ref.records:
        arms += list(rec.viable) * rec.params.rounds
        viable = tuple(a for a in rec.viable if a not in rec.eliminated)
    while len(arms) < T:  # a truncated epoch (round-robin) or the last arm forever
        arms += list(viable)
    return np.array(arms[:T], dtype=np.int64)


def test_dpse_regret_curve_is_the_cumulative_gap_of_the_pull_sequence() -> None:
    T = 30_000
    mu = section5_means("C2", 4)
    seeds = child_seeds(5, 0, 4)
    res = dpse_bernoulli_batch(mu, T, 0.5, 0.01, seeds, checkpoints=np.arange(1, T + 1))
    gaps = mu.max() - mu
    for r, seed in enumerate(seeds):
        arms = _pull_sequence_from_records(mu, T, seed)
        assert np.array_equal(np.bincount(arms, minlength=mu.size), res.pulls[r])
        np.testing.assert_allclose(res.regret[r], np.cumsum(gaps[arms]), rtol=1e-12, atol=1e-9)
        # piecewise linear: the increments are constant inside each epoch's full rounds
        assert np.all(np.diff(res.regret[r]) >= -1e-12)


def test_dpse_c1_k5_regression_value_by_hand() -> None:
    """All four 0.05-gap arms go at the end of epoch 3: ``(r_1 + r_2 + r_3)·0.05·4``."""
    T = 5 * 10**7
    res = dpse_bernoulli_batch(section5_means("C1", 5), T, 0.25, 1.0 / T, child_seeds(0, 0, 3))
    assert res.final_regret == pytest.approx([(2743 + 11676 + 48362) * 0.2] * 3, rel=1e-12)
    res = dpse_bernoulli_batch(section5_means("C1", 5), T, 0.1, 1.0 / T, child_seeds(0, 0, 3))
    assert res.final_regret == pytest.approx([(3317 + 11676 + 48362) * 0.2] * 3, rel=1e-12)
    assert np.all(res.elimination_epoch[:, 1:] == 3) and np.all(res.elimination_epoch[:, 0] == -1)


def test_dpse_rows_do_not_depend_on_the_batch_and_are_deterministic() -> None:
    T = 10**7
    mu = section5_means("C3", 10)  # not deterministic at this T (sd 1007 at 5·10⁷)
    seeds = child_seeds(3, 0, 6)
    full = dpse_bernoulli_batch(mu, T, 0.25, 1.0 / T, seeds)
    part = dpse_bernoulli_batch(mu, T, 0.25, 1.0 / T, seeds[2:4])
    again = dpse_bernoulli_batch(mu, T, 0.25, 1.0 / T, seeds)
    assert np.array_equal(full.pulls[2:4], part.pulls)
    assert np.array_equal(full.pulls, again.pulls)
    other = dpse_bernoulli_batch(mu, T, 0.25, 1.0 / T, child_seeds(4, 0, 6))
    assert not np.array_equal(full.pulls, other.pulls)


# --------------------------------------------------------------------------------------------
# DP-UCB
# --------------------------------------------------------------------------------------------


def _reference_dpucb(
    mu: np.ndarray, T: int, epsilon: float, seed: np.random.SeedSequence, calibration: str
) -> tuple[np.ndarray, np.ndarray]:
    gens = named_generators(seed, ("environment", "policy"))
    policy = DPUCB(mu.size, T, epsilon, gens["policy"], calibration=calibration)  # type: ignore[arg-type]
    run = run_policy(policy, BanditEnvironment(mu, gens["environment"]), T)
    return run.arms, run.regret


@pytest.mark.parametrize("calibration", ["per_tree", "split"])
def test_dpucb_batch_equals_reference_round_by_round(calibration: str) -> None:
    T = 2_500
    rows: list[tuple[engine.Instance, float]] = [
        ("C1", 0.25),
        ("C2", 1.0),
        ("C3", 0.1),
        ("C4", 0.5),
    ]
    means = np.array([section5_means(i, 3) for i, _ in rows])
    eps = np.array([e for _, e in rows])
    seeds = child_seeds(21, 0, len(rows))
    res = dpucb_bernoulli_batch(
        means, T, eps, seeds, calibration=calibration,  # type: ignore[arg-type]
        checkpoints=np.arange(1, T + 1), trace=True,
    )  # fmt: skip
    assert res.arms is not None
    for r, seed in enumerate(seeds):
        arms, regret = _reference_dpucb(means[r], T, float(eps[r]), seed, calibration)
        assert np.array_equal(res.arms[r], arms)
        assert np.array_equal(res.regret[r], regret)  # bit for bit
        assert np.array_equal(res.pulls[r], np.bincount(arms, minlength=3))


def test_dpucb_batch_equals_pseudo_regret_trajectories() -> None:
    T, runs, seed = 1_500, 3, 8
    mu = section5_means("C2", 5)
    ref = pseudo_regret_trajectories(
        lambda K, rng: DPUCB(K, T, 0.25, rng), mu, T, runs=runs, seed=seed
    )
    res = dpucb_bernoulli_batch(
        mu, T, 0.25, child_seeds(seed, 0, runs), checkpoints=np.arange(1, T + 1)
    )
    assert np.array_equal(res.regret, ref)


def test_dpucb_does_not_depend_on_block_sizes_or_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    T = 1_200
    mu = section5_means("C3", 4)
    seeds = child_seeds(2, 0, 4)
    base = dpucb_bernoulli_batch(mu, T, 0.5, seeds, trace=True)
    monkeypatch.setattr(engine, "_REWARD_BLOCK", 7)
    monkeypatch.setattr(engine, "_NOISE_BLOCK", 13)  # = tree_depth(1200): refills every pull
    small = dpucb_bernoulli_batch(mu, T, 0.5, seeds, trace=True)
    single = dpucb_bernoulli_batch(mu, T, 0.5, seeds[1:2], trace=True)
    assert base.arms is not None and small.arms is not None and single.arms is not None
    assert np.array_equal(base.arms, small.arms)
    assert np.array_equal(base.final_regret, small.final_regret)
    assert np.array_equal(base.arms[1], single.arms[0])
    other = dpucb_bernoulli_batch(mu, T, 0.5, child_seeds(3, 0, 4))
    assert not np.array_equal(base.final_regret, other.final_regret)


def test_dpucb_rounds_is_a_prefix_of_the_full_run() -> None:
    T = 3_000
    mu = section5_means("C4", 3)
    seeds = child_seeds(9, 0, 3)
    full = dpucb_bernoulli_batch(mu, T, 0.25, seeds, checkpoints=np.arange(1, T + 1), trace=True)
    head = dpucb_bernoulli_batch(mu, T, 0.25, seeds, rounds=1_000, trace=True)
    assert full.arms is not None and head.arms is not None
    assert np.array_equal(head.arms, full.arms[:, :1_000])
    assert np.array_equal(head.final_regret, full.regret[:, 999])
    assert np.all(head.pulls.sum(axis=1) == 1_000)
    with pytest.raises(ValueError, match="rounds"):
        dpucb_bernoulli_batch(mu, T, 0.25, seeds, rounds=T + 1)


def test_dpucb_gamma_and_split_calibration() -> None:
    """``γ`` per row is the reference's; ``ε/K`` per tree multiplies the node scale and ``γ`` by K."""
    T, K = 4_096, 4
    mu = section5_means("C1", K)
    seeds = child_seeds(1, 0, 1)
    per_tree = dpucb_bernoulli_batch(mu, T, 0.5, seeds, calibration="per_tree")
    split = dpucb_bernoulli_batch(mu, T, 0.5, seeds, calibration="split")
    gens = named_generators(seeds[0], ("environment", "policy"))
    assert per_tree.gamma[0] == DPUCB(K, T, 0.5, gens["policy"]).gamma
    assert split.gamma[0] == pytest.approx(K * per_tree.gamma[0], rel=1e-12)


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def test_validation() -> None:
    seeds = child_seeds(0, 0, 2)
    mu = section5_means("C1", 3)
    with pytest.raises(ValueError, match="epsilon"):
        dpse_bernoulli_batch(mu, 100, 0.0, 0.1, seeds)
    with pytest.raises(ValueError, match="epsilon"):
        dpucb_bernoulli_batch(mu, 100, math.inf, seeds)
    with pytest.raises(ValueError, match="epsilon"):
        dpucb_bernoulli_batch(mu, 100, [0.1, 0.2, 0.3], seeds)
    with pytest.raises(ValueError, match="beta"):
        dpse_bernoulli_batch(mu, 100, 1.0, 1.5, seeds)
    with pytest.raises(ValueError, match="means"):
        dpse_bernoulli_batch([0.5, 1.5], 100, 1.0, 0.1, seeds)
    with pytest.raises(ValueError, match="means"):
        dpucb_bernoulli_batch(np.full((3, 2), 0.5), 100, 1.0, seeds)
    with pytest.raises(ValueError, match="K"):
        dpse_bernoulli_batch([0.5], 100, 1.0, 0.1, seeds)
    with pytest.raises(ValueError, match="T"):
        dpucb_bernoulli_batch(mu, 2, 1.0, seeds)
    with pytest.raises(ValueError, match="calibration"):
        dpucb_bernoulli_batch(mu, 100, 1.0, seeds, calibration="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="calibration"):
        dpucb_bernoulli_batch(mu, 100, 1.0, seeds, calibration=["split"])
    with pytest.raises(ValueError, match="checkpoints"):
        dpucb_bernoulli_batch(mu, 100, 1.0, seeds, checkpoints=[5, 5])
    with pytest.raises(ValueError, match="checkpoints"):
        dpse_bernoulli_batch(mu, 100, 1.0, 0.1, seeds, checkpoints=[101])
    with pytest.raises(ValueError, match="noise_on"):
        dpse_bernoulli_batch(mu, 100, 1.0, 0.1, seeds, noise_on="R")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seeds"):
        dpse_bernoulli_batch(mu, 100, 1.0, 0.1, [])
