"""Cross-checks of the optimized engines (``reference.engine``) against the plain reference.

With the same seeds the engine must make exactly the reference's decisions (actions equal) and give
the same regret and ``β_t`` up to floating-point rounding (``1e-12`` relative); results must not
depend on the block size or on which other replicates share the batch.  Everything here is
deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.engine import BatchedTreeNoise, draw_noise_sums, run_gap_batch
from reference.engine.blocks import replicate_seeds, run_blocks
from reference.engine.linucb import _guarded_cholesky
from reference.engine.tasks import GapBatchTask
from reference.files import DamagedFileWarning
from reference.noise import (
    GaussianVectorNoise,
    LaplaceNoise,
    NodeNoise,
    SymmetricGaussianNoise,
    WishartNoise,
    ZeroNoise,
)
from reference.shariff_sheffet.environments import BandArmSampler
from reference.shariff_sheffet.linucb import AccuracyEventError, AccuracyEventWarning
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    PrivacyParameters,
    ProblemConstants,
    Variant,
)
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.tree import PadMode, TreeAggregator

PRIVACY = PrivacyParameters(epsilon=1.0, delta=0.1)


def _reference_runs(variant: Variant, seeds: list[int], **kw: Any) -> list[Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccuracyEventWarning)
        return [
            run_gap_experiment(
                variant, seed=s, privacy=PRIVACY if variant != "nonprivate" else None, **kw
            )
            for s in seeds
        ]


def _assert_matches_reference(
    variant: Variant, seeds: list[int], block_rounds: int, **kw: Any
) -> None:
    n = kw["n"]
    refs = _reference_runs(variant, seeds, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccuracyEventWarning)
        batch = run_gap_batch(
            variant,
            seeds=seeds,
            privacy=PRIVACY if variant != "nonprivate" else None,
            checkpoints=np.arange(1, n + 1),
            trace=True,
            block_rounds=block_rounds,
            **kw,
        )
    assert batch.actions is not None and batch.betas is not None
    for r, ref in enumerate(refs):
        np.testing.assert_array_equal(batch.actions[r], ref.actions)
        np.testing.assert_allclose(
            batch.cumulative_regret[r], ref.cumulative_regret, rtol=1e-12, atol=1e-12
        )
        np.testing.assert_allclose(batch.betas[r], ref.betas, rtol=1e-12)
        assert batch.repairs[r] == ref.repairs


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    ("d", "num_arms", "n", "gap"),
    [(2, 4, 70, 0.1), (5, 25, 120, 0.0), (3, 1, 20, 0.1), (10, 12, 40, 0.1)],
)
def test_engine_equals_reference(
    variant: Variant, d: int, num_arms: int, n: int, gap: float
) -> None:
    _assert_matches_reference(variant, [3, 17], 32, d=d, num_arms=num_arms, gap=gap, n=n)


def test_engine_equals_reference_gaussian_rewards_nonprivate() -> None:
    # Gaussian rewards exceed B̃ = 1, which only the non-private variant accepts unclipped
    _assert_matches_reference(
        "nonprivate", [5], 16, d=3, num_arms=9, gap=0.1, n=60, reward_model="gaussian"
    )


@settings(max_examples=12)
@given(
    variant=st.sampled_from(VARIANTS),
    d=st.integers(2, 4),
    num_arms=st.integers(1, 6),
    n=st.integers(2, 40),
    seed=st.integers(0, 2**32 - 1),
    block=st.integers(1, 50),
)
def test_engine_equals_reference_property(
    variant: Variant, d: int, num_arms: int, n: int, seed: int, block: int
) -> None:
    _assert_matches_reference(variant, [seed], block, d=d, num_arms=num_arms, gap=0.1, n=n)


@pytest.mark.parametrize("variant", ["nonprivate", "wishart"])
def test_engine_results_do_not_depend_on_block_size_or_batch(variant: Variant) -> None:
    kw: dict[str, Any] = {"d": 3, "num_arms": 9, "gap": 0.1, "n": 90, "trace": True}
    privacy = PRIVACY if variant != "nonprivate" else None
    runs = [
        run_gap_batch(variant, seeds=[1, 2, 3], privacy=privacy, block_rounds=b, **kw)
        for b in (1, 13, 128)
    ]
    alone = run_gap_batch(variant, seeds=[2], privacy=privacy, block_rounds=7, **kw)
    for other in runs[1:]:
        np.testing.assert_array_equal(other.cumulative_regret, runs[0].cumulative_regret)
        np.testing.assert_array_equal(other.betas, runs[0].betas)
    assert alone.betas is not None and runs[0].betas is not None
    np.testing.assert_array_equal(alone.betas[0], runs[0].betas[1])
    np.testing.assert_array_equal(alone.cumulative_regret[0], runs[0].cumulative_regret[1])


def test_checkpoints_summarise_without_trace() -> None:
    full = run_gap_batch(
        "gaussian",
        d=2,
        num_arms=4,
        gap=0.1,
        n=50,
        seeds=[9],
        privacy=PRIVACY,
        checkpoints=np.arange(1, 51),
    )
    summary = run_gap_batch(
        "gaussian",
        d=2,
        num_arms=4,
        gap=0.1,
        n=50,
        seeds=[9],
        privacy=PRIVACY,
        checkpoints=[5, 20, 50],
    )
    assert summary.actions is None and summary.betas is None
    np.testing.assert_array_equal(
        summary.cumulative_regret[0], full.cumulative_regret[0, [4, 19, 49]]
    )
    assert summary.final_regret[0] == full.final_regret[0]


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"seeds": []}, r"^seeds must"),
        ({"checkpoints": [3, 2]}, r"^checkpoints must"),
        ({"checkpoints": [0, 5]}, r"^checkpoints must lie"),
        ({"checkpoints": [5, 11]}, r"^checkpoints must lie"),
        ({"n": 1}, r"^alpha = 1/n needs n >= 2"),
        ({"block_rounds": 0}, r"^block_rounds must"),
        ({"pd_policy": "ignore"}, r"^pd_policy must"),
        ({"reward_policy": "drop"}, r"^reward_policy must"),
        ({"constants": ProblemConstants(d=4)}, r"^constants.d=4 does not match d=3"),
        ({"privacy": None}, r"^privacy \(epsilon, delta\) is required"),
    ],
)
def test_run_gap_batch_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "d": 3,
        "num_arms": 4,
        "gap": 0.1,
        "n": 10,
        "seeds": [0],
        "privacy": PRIVACY,
    }
    run_gap_batch("wishart", **base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_gap_batch("wishart", **dict(base, **kwargs))


def test_private_variant_rejects_rewards_above_b_tilde_or_clips_them() -> None:
    kw: dict[str, Any] = {
        "d": 3,
        "num_arms": 4,
        "gap": 0.1,
        "n": 30,
        "seeds": [0, 1],
        "privacy": PRIVACY,
    }
    with pytest.raises(ValueError, match=r"^y must be in \[-B_tilde, B_tilde\]"):
        run_gap_batch("gaussian", reward_model="gaussian", **kw)
    clipped = run_gap_batch("gaussian", reward_model="gaussian", reward_policy="clip", **kw)
    # |mean + z| > 1 has probability > 0.3 per round here, so 30 rounds clip at least once
    assert np.all(clipped.clip_events > 0)


# ------------------------------------------------------------------------------------------------
# The PD guard
# ------------------------------------------------------------------------------------------------


def test_guarded_cholesky_repairs_like_the_reference() -> None:
    rho_min = 2.0
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
    bad = Q @ np.diag([-1.0, 3.0, 5.0]) @ Q.T  # indefinite
    good = np.diag([2.5, 3.0, 4.0])
    with pytest.raises(AccuracyEventError, match=r"^round 7: replicate 1"):
        _guarded_cholesky(np.stack([good, bad]), rho_min, "raise", 7)
    L, repaired = _guarded_cholesky(np.stack([good, bad]), rho_min, "repair", 7)
    assert repaired.tolist() == [False, True]
    np.testing.assert_allclose(L[0] @ L[0].T, good, rtol=1e-14)
    # the repaired V has the eigenvalues raised to rho_min and the same eigenvectors
    np.testing.assert_allclose(
        L[1] @ L[1].T, Q @ np.diag([2.0, 3.0, 5.0]) @ Q.T, rtol=1e-12, atol=1e-12
    )


# ------------------------------------------------------------------------------------------------
# The batched tree noise
# ------------------------------------------------------------------------------------------------

LAWS: list[NodeNoise] = [
    WishartNoise(3, 7, 2.0),
    SymmetricGaussianNoise(3, 1.5),
    GaussianVectorNoise((2,), 0.7),
    LaplaceNoise((2,), 0.5),
    ZeroNoise((2, 2)),
]


@pytest.mark.parametrize("law", LAWS, ids=lambda law: type(law).__name__)
@pytest.mark.parametrize("pad", ["fresh", "none"])
@pytest.mark.parametrize("block", [1, 5, 64])
def test_batched_tree_noise_equals_reference_trees(
    law: NodeNoise, pad: PadMode, block: int
) -> None:
    n, seeds = 23, [4, 5, 6]
    trees = [TreeAggregator(n, law, np.random.default_rng(s), pad=pad) for s in seeds]
    batched = BatchedTreeNoise(
        n, law, [np.random.default_rng(s) for s in seeds], pad=pad, block_rounds=block
    )
    item = np.zeros(law.shape)
    for _ in range(n):
        expected = np.stack([tree.release().noise for tree in trees])
        np.testing.assert_allclose(batched.release_noise(), expected, rtol=1e-12, atol=1e-12)
        for tree in trees:
            tree.insert(item)
        batched.insert()


def test_batched_tree_noise_protocol_errors() -> None:
    tree = BatchedTreeNoise(2, ZeroNoise((1,)), [np.random.default_rng(0)])
    with pytest.raises(RuntimeError, match=r"release_noise\(\) must be called"):
        tree.insert()
    for _ in range(2):
        tree.release_noise()
        tree.insert()
    with pytest.raises(ValueError, match=r"^all n=2 releases"):
        tree.release_noise()
    with pytest.raises(ValueError, match=r"^rngs must"):
        BatchedTreeNoise(2, ZeroNoise((1,)), [])
    with pytest.raises(ValueError, match=r"^pad must"):
        BatchedTreeNoise(2, ZeroNoise((1,)), [np.random.default_rng(0)], pad="persistent")  # type: ignore[arg-type]


def test_draw_noise_sums_rejects_unknown_laws_and_bad_terms() -> None:
    class Custom:
        shape = (1,)

        def sample(self, rng: Any) -> Any:
            return np.zeros(1)

        def sample_sum(self, rng: Any, j: int) -> Any:
            return np.zeros(1)

    from reference.rng import NoiseStreams

    streams = [NoiseStreams.split(np.random.default_rng(0))]
    with pytest.raises(TypeError, match="no batched sampler for Custom"):
        draw_noise_sums(Custom(), streams, np.array([1]))
    with pytest.raises(ValueError, match="terms must all be >= 1"):
        draw_noise_sums(ZeroNoise((1,)), streams, np.array([0]))


# ------------------------------------------------------------------------------------------------
# The block-stable band sampler of the environment
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "method"), [(-0.75, 0.65, "rejection"), (0.9, 0.95, "inverse_cdf")]
)
def test_band_sampler_is_block_stable(low: float, high: float, method: str) -> None:
    one = BandArmSampler(np.random.default_rng(8), 4, low, high)
    assert one.method == method
    whole = one.draw(300)
    pieces = BandArmSampler(np.random.default_rng(8), 4, low, high)
    parts = np.concatenate([pieces.draw(k) for k in (1, 0, 7, 100, 192)])
    np.testing.assert_array_equal(parts, whole)


def test_band_sampler_rejection_law_d5() -> None:
    # Heads of uniform points of S⁴ have density ∝ (1 − h²); truncated to [−0.75, 0.65] its CDF is
    # G(h) = (h − h³/3 − G₀)/(G₁ − G₀) with G(x) = x − x³/3.  KS test at level 1e-6 (N = 20000), and
    # the tails are unit vectors orthogonal to e₁ with mean within 5 s.e. of 0.
    sampler = BandArmSampler(np.random.default_rng(2026), 5, -0.75, 0.65)
    x = sampler.draw(20000)
    np.testing.assert_allclose(np.linalg.norm(x, axis=1), 1.0, rtol=0, atol=1e-12)
    h = x[:, 0]
    assert h.min() >= -0.75 and h.max() <= 0.65

    def g(v: Any) -> Any:
        return v - v**3 / 3.0

    lo, hi = g(-0.75), g(0.65)
    assert stats.kstest(h, lambda v: (g(v) - lo) / (hi - lo)).pvalue > 1e-6
    tails = x[:, 1:] / np.sqrt(1.0 - h**2)[:, None]
    assert np.all(np.abs(tails.mean(axis=0)) <= 5.0 * np.sqrt(0.25 / 20000))


# ------------------------------------------------------------------------------------------------
# Replicate blocks: executors, block sizes, resume
# ------------------------------------------------------------------------------------------------

TASK = GapBatchTask(
    "wishart", d=3, num_arms=4, gap=0.1, n=40, epsilon=1.0, delta=0.1, checkpoints=(10, 40)
)


def test_replicate_seeds_are_the_spawned_children() -> None:
    children = np.random.SeedSequence(77).spawn(6)
    got = replicate_seeds(77, 2, 5, 6)
    assert [c.spawn_key for c in got] == [c.spawn_key for c in children[2:5]]
    assert [c.generate_state(4).tolist() for c in got] == [
        c.generate_state(4).tolist() for c in children[2:5]
    ]
    with pytest.raises(ValueError, match="need 0 <= first <= stop <= total"):
        replicate_seeds(77, 4, 3, 6)


def test_blocks_are_bit_identical_across_block_sizes_and_executors(tmp_path: Any) -> None:
    serial = run_blocks(TASK, seed=5, replicates=7, block_size=7, executor="serial")
    assert serial["cumulative_regret"].shape == (7, 2)
    direct = TASK(np.random.SeedSequence(5).spawn(7))
    np.testing.assert_array_equal(serial["cumulative_regret"], direct["cumulative_regret"])
    for block_size, executor in [(1, "serial"), (3, "processes")]:
        other = run_blocks(
            TASK, seed=5, replicates=7, block_size=block_size, executor=executor, max_workers=2
        )
        for key in serial:
            np.testing.assert_array_equal(other[key], serial[key])


def test_blocks_on_a_dask_cluster_are_bit_identical() -> None:
    from dask.distributed import LocalCluster

    serial = run_blocks(TASK, seed=6, replicates=4, block_size=2, executor="serial")
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        remote = run_blocks(
            TASK, seed=6, replicates=4, block_size=3, executor=cluster.scheduler_address
        )
    np.testing.assert_array_equal(remote["cumulative_regret"], serial["cumulative_regret"])


def test_blocks_resume_without_recomputing(tmp_path: Any) -> None:
    out = tmp_path / "run"
    first = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    assert sorted(p.name for p in out.glob("block-*.npz")) == [
        f"block-0000{i}.npz" for i in range(3)
    ]
    # simulate an interruption: one block lost, another replaced by a marker the rerun must keep
    (out / "block-00001.npz").unlink()
    marker: dict[str, Any] = {key: np.full_like(value[4:5], -1.0) for key, value in first.items()}
    np.savez(out / "block-00002.npz", **marker)
    resumed = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    np.testing.assert_array_equal(resumed["cumulative_regret"][:4], first["cumulative_regret"][:4])
    assert np.all(resumed["cumulative_regret"][4] == -1.0)  # loaded, not recomputed
    with pytest.raises(ValueError, match="holds blocks of another configuration"):
        run_blocks(TASK, seed=9, replicates=5, block_size=2, executor="serial", out_dir=out)


def test_blocks_extend_to_more_replicates_without_recomputing(tmp_path: Any) -> None:
    """Replicate i's seed does not depend on the total, so a run with more replicates reuses the
    stored complete blocks (a marker in one proves it is read, not recomputed) and equals a fresh
    run; a fewer-replicate run reads a prefix; a partial last block cannot be extended."""
    out = tmp_path / "run"
    run_blocks(TASK, seed=8, replicates=4, block_size=2, executor="serial", out_dir=out)
    fresh = run_blocks(TASK, seed=8, replicates=8, block_size=2, executor="serial")
    marker: dict[str, Any] = {key: np.full_like(value[:2], -1.0) for key, value in fresh.items()}
    np.savez(out / "block-00001.npz", **marker)
    extended = run_blocks(TASK, seed=8, replicates=8, block_size=2, executor="serial", out_dir=out)
    assert np.all(extended["cumulative_regret"][2:4] == -1.0)  # loaded, not recomputed
    np.testing.assert_array_equal(extended["cumulative_regret"][4:], fresh["cumulative_regret"][4:])
    assert json.loads((out / "manifest.json").read_text())["replicates"] == 8
    prefix = run_blocks(TASK, seed=8, replicates=2, block_size=2, executor="serial", out_dir=out)
    np.testing.assert_array_equal(prefix["cumulative_regret"], fresh["cumulative_regret"][:2])
    assert json.loads((out / "manifest.json").read_text())["replicates"] == 8
    odd = tmp_path / "odd"
    run_blocks(TASK, seed=8, replicates=3, block_size=2, executor="serial", out_dir=odd)
    with pytest.raises(ValueError, match="holds blocks of another configuration"):
        run_blocks(TASK, seed=8, replicates=6, block_size=2, executor="serial", out_dir=odd)
    with pytest.raises(ValueError, match="holds blocks of another configuration"):
        run_blocks(TASK, seed=9, replicates=8, block_size=2, executor="serial", out_dir=out)


BLOCK_DAMAGE = [
    pytest.param(b"", id="empty"),
    pytest.param(b"PK\x03\x04truncated", id="truncated"),
    pytest.param(b"\x00garbage", id="garbage"),
]


@pytest.mark.parametrize("damage", BLOCK_DAMAGE)
def test_a_damaged_block_is_named_and_recomputed(tmp_path: Any, damage: bytes) -> None:
    out = tmp_path / "run"
    first = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    (out / "block-00001.npz").write_bytes(damage)
    with pytest.warns(DamagedFileWarning, match=r"block-00001\.npz is damaged"):
        again = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    for key in first:
        np.testing.assert_array_equal(again[key], first[key])
    # rewritten whole: the next run reads it silently
    with warnings.catch_warnings():
        warnings.simplefilter("error", DamagedFileWarning)
        run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)


def test_a_block_of_the_wrong_size_is_recomputed(tmp_path: Any) -> None:
    out = tmp_path / "run"
    first = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    short: dict[str, Any] = {k: v[:1] for k, v in first.items()}
    np.savez(out / "block-00000.npz", **short)  # one row, not two
    with pytest.warns(DamagedFileWarning, match=r"block-00000\.npz is damaged .*2 replicates"):
        again = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    np.testing.assert_array_equal(again["cumulative_regret"], first["cumulative_regret"])
    np.savez(out / "block-00000.npz")  # a valid archive holding nothing
    with pytest.warns(DamagedFileWarning, match=r"block-00000\.npz is damaged"):
        run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)


@pytest.mark.parametrize("damage", [b"", b'{"task": {"type": "GapBa', b"\x00garbage"])
def test_a_damaged_manifest_is_refused_naming_the_file_to_delete(
    tmp_path: Any, damage: bytes
) -> None:
    out = tmp_path / "run"
    first = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    (out / "manifest.json").write_bytes(damage)
    with pytest.raises(ValueError, match=r"manifest\.json is damaged .*delete .*manifest\.json"):
        run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    # never blocked for good: once it is deleted, the blocks are recomputed (not trusted) and the
    # folder is claimed again
    (out / "manifest.json").unlink()
    (out / "block-00002.npz").write_bytes(b"")  # would warn if it were read
    with warnings.catch_warnings():
        warnings.simplefilter("error", DamagedFileWarning)
        again = run_blocks(TASK, seed=8, replicates=5, block_size=2, executor="serial", out_dir=out)
    np.testing.assert_array_equal(again["cumulative_regret"], first["cumulative_regret"])
    assert (out / "manifest.json").stat().st_size > 0


class _FailingTask:
    """A task that fails before finishing any block (e.g. an invalid configuration)."""

    def __call__(self, seeds: Any) -> dict[str, Any]:
        raise ValueError("gap must be in [0, 1.5), got 9.0")


def test_a_task_that_fails_at_once_never_claims_its_folder(tmp_path: Any) -> None:
    out = tmp_path / "run"
    with pytest.raises(ValueError, match="gap must be"):
        run_blocks(
            _FailingTask(), seed=8, replicates=4, block_size=2, executor="serial", out_dir=out
        )
    assert not (out / "manifest.json").exists()
    # the corrected task runs on the same folder
    fixed = run_blocks(TASK, seed=8, replicates=4, block_size=2, executor="serial", out_dir=out)
    assert fixed["cumulative_regret"].shape == (4, 2)
    assert (out / "manifest.json").exists()


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"executor": "threads"}, r"^executor must be"),
        ({"block_size": 0}, r"^block_size must"),
        ({"replicates": 0}, r"^replicates must"),
        ({"seed": -1}, r"^seed must"),
    ],
)
def test_run_blocks_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {"seed": 1, "replicates": 2, "block_size": 1, "executor": "serial"}
    with pytest.raises(ValueError, match=pattern):
        run_blocks(TASK, **dict(base, **kwargs))


def test_engine_equals_reference_on_spawned_seeds_with_first_round_ties() -> None:
    # Non-private round 1: V = I and θ̃ = 0, so every unit-norm arm has the same index β_1; the
    # tie rule (ucb_argmax) must decide it, not rounding noise (which differs between Cholesky
    # and eigendecomposition).  20 spawned seeds, 300 rounds.
    from reference.rng import child_seeds

    seeds = child_seeds(4, 0, 20)
    batch = run_gap_batch(
        "nonprivate", d=3, num_arms=9, gap=0.1, n=300, seeds=seeds, privacy=None, trace=True
    )
    assert batch.actions is not None
    for r, seed in enumerate(seeds):
        ref = run_gap_experiment(
            "nonprivate", d=3, num_arms=9, gap=0.1, n=300, seed=seed, privacy=None
        )
        assert ref.actions[0] == 0  # the tie goes to the lowest index
        np.testing.assert_array_equal(batch.actions[r], ref.actions)


@pytest.mark.parametrize("variant", ["gaussian", "wishart"])
def test_engine_equals_reference_with_a_reshifted_regularizer(variant: Variant) -> None:
    # App. D.3: the regularizer moved to a target ρ_min runs the same on both paths
    _assert_matches_reference(
        variant, [4, 9], 16, d=3, num_arms=9, gap=0.1, n=60, target_rho_min=500.0
    )
