"""Cross-checks of the compiled engine (``reference.engine.compiled``) against the plain reference.

As for the numpy engine (``test_engine.py``): with the same seeds the compiled loop must make
exactly the reference's decisions (actions equal) and give its regret and ``β_t`` up to rounding
(``1e-12`` relative), for every variant, calibration, regularizer shift and reward model; results
must not depend on the threads, on which replicates share a call, or on ``trace``.  Deterministic:
fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine import run_gap_batch
from reference.engine.compiled import run_gap_compiled
from reference.engine.compiled.linucb import CHUNK_ROUNDS
from reference.engine.compiled.linucb import _guarded_cholesky as compiled_guard
from reference.engine.linucb import _guarded_cholesky
from reference.engine.tasks import GapBatchTask
from reference.rng import child_seeds
from reference.shariff_sheffet.linucb import AccuracyEventError, AccuracyEventWarning
from reference.shariff_sheffet.regularizers import (
    SOURCES,
    VARIANTS,
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    Variant,
)
from reference.shariff_sheffet.simulation import run_gap_experiment

PRIVACY = PrivacyParameters(epsilon=1.0, delta=0.1)
CALIBRATIONS: tuple[Calibration, ...] = ("paper", "tight")


def _privacy(variant: Variant) -> PrivacyParameters | None:
    return None if variant == "nonprivate" else PRIVACY


def _assert_matches_reference(variant: Variant, seeds: list[Any], **kw: Any) -> None:
    n = kw["n"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccuracyEventWarning)
        refs = [run_gap_experiment(variant, seed=s, privacy=_privacy(variant), **kw) for s in seeds]
        compiled = run_gap_compiled(
            variant,
            seeds=seeds,
            privacy=_privacy(variant),
            checkpoints=np.arange(1, n + 1),
            trace=True,
            **kw,
        )
    assert compiled.actions is not None and compiled.betas is not None
    for r, ref in enumerate(refs):
        np.testing.assert_array_equal(compiled.actions[r], ref.actions)
        np.testing.assert_allclose(
            compiled.cumulative_regret[r], ref.cumulative_regret, rtol=1e-12, atol=1e-12
        )
        np.testing.assert_allclose(compiled.betas[r], ref.betas, rtol=1e-12)
        assert compiled.repairs[r] == ref.repairs


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    ("d", "num_arms", "n", "gap"),
    [(2, 4, 70, 0.1), (5, 25, 120, 0.0), (3, 1, 20, 0.1), (10, 12, 40, 0.1)],
)
def test_compiled_equals_reference(
    variant: Variant, d: int, num_arms: int, n: int, gap: float
) -> None:
    _assert_matches_reference(variant, [3, 17], d=d, num_arms=num_arms, gap=gap, n=n)


@pytest.mark.parametrize("variant", ["gaussian", "wishart", "wishart_unshifted"])
def test_compiled_equals_reference_tight_calibration(variant: Variant) -> None:
    _assert_matches_reference(variant, [2, 8], d=4, num_arms=16, gap=0.1, n=80, calibration="tight")


def test_compiled_equals_reference_factorized_source() -> None:
    """The factorized source (BLT noise stream) on both sides of ``BLAS_FROM_D``, reshifted too."""
    _assert_matches_reference(
        "factorized", [2, 8], d=4, num_arms=16, gap=0.1, n=80, calibration="tight"
    )
    _assert_matches_reference(
        "factorized", [5], d=10, num_arms=12, gap=0.0, n=70, calibration="tight"
    )
    _assert_matches_reference(
        "factorized", [4], d=3, num_arms=9, gap=0.1, n=60, calibration="tight", target_rho_min=50.0
    )


@pytest.mark.parametrize("variant", ["gaussian", "wishart"])
def test_compiled_equals_reference_with_a_reshifted_regularizer(variant: Variant) -> None:
    _assert_matches_reference(variant, [4, 9], d=3, num_arms=9, gap=0.1, n=60, target_rho_min=500.0)


def test_compiled_equals_reference_gaussian_rewards_nonprivate() -> None:
    _assert_matches_reference(
        "nonprivate", [5], d=3, num_arms=9, gap=0.1, n=60, reward_model="gaussian"
    )


def test_compiled_equals_reference_on_spawned_seeds_with_first_round_ties() -> None:
    # non-private round 1: every unit-norm arm has the index β_1; the tie rule decides it
    _assert_matches_reference("nonprivate", child_seeds(4, 0, 6), d=3, num_arms=9, gap=0.1, n=150)


@settings(max_examples=20, deadline=None)
@given(
    variant=st.sampled_from(SOURCES),
    calibration=st.sampled_from(CALIBRATIONS),
    d=st.integers(2, 12),  # both sides of BLAS_FROM_D
    num_arms=st.integers(1, 10),
    n=st.integers(2, 60),
    gap=st.sampled_from([0.0, 0.1, 0.5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_compiled_equals_reference_property(
    variant: Variant, calibration: Calibration, d: int, num_arms: int, n: int, gap: float, seed: int
) -> None:
    kw: dict[str, Any] = {"d": d, "num_arms": num_arms, "gap": gap, "n": n}
    try:
        run_gap_experiment(variant, seed=seed, privacy=_privacy(variant), calibration=calibration,
                           **kw)  # fmt: skip
    except ValueError as error:  # e.g. a tight Wishart k too small for Prop. 9 at this n
        with pytest.raises(ValueError, match=re.escape(str(error))):
            run_gap_compiled(variant, seeds=[seed], privacy=_privacy(variant),
                             calibration=calibration, **kw)  # fmt: skip
        return
    _assert_matches_reference(variant, [seed], calibration=calibration, **kw)


def test_compiled_equals_numpy_engine_across_chunks_threads_and_batches() -> None:
    # more rounds than one call of the compiled loop: the state carries over between calls
    n = CHUNK_ROUNDS + 300
    kw: dict[str, Any] = {"d": 3, "num_arms": 4, "gap": 0.1, "n": n, "privacy": PRIVACY}
    marks = [1, 1000, CHUNK_ROUNDS, CHUNK_ROUNDS + 1, n]
    numpy_engine = run_gap_batch("gaussian", seeds=[1, 2, 3], checkpoints=marks, **kw)
    runs = [
        run_gap_compiled("gaussian", seeds=[1, 2, 3], checkpoints=marks, workers=w, **kw)
        for w in (1, 2, 3)
    ]
    alone = run_gap_compiled("gaussian", seeds=[2], checkpoints=marks, **kw)
    for run in runs:
        np.testing.assert_array_equal(run.cumulative_regret, runs[0].cumulative_regret)
    np.testing.assert_array_equal(alone.cumulative_regret[0], runs[0].cumulative_regret[1])
    np.testing.assert_allclose(
        runs[0].cumulative_regret, numpy_engine.cumulative_regret, rtol=1e-12, atol=1e-9
    )


def test_compiled_checkpoints_summarise_without_trace() -> None:
    kw: dict[str, Any] = {"d": 2, "num_arms": 4, "gap": 0.1, "n": 50, "privacy": PRIVACY}
    full = run_gap_compiled("wishart", seeds=[9], checkpoints=np.arange(1, 51), trace=True, **kw)
    summary = run_gap_compiled("wishart", seeds=[9], checkpoints=[5, 20, 50], **kw)
    assert summary.actions is None and summary.betas is None
    np.testing.assert_array_equal(
        summary.cumulative_regret[0], full.cumulative_regret[0, [4, 19, 49]]
    )


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"seeds": []}, r"^seeds must"),
        ({"checkpoints": [3, 2]}, r"^checkpoints must"),
        ({"checkpoints": [5, 11]}, r"^checkpoints must lie"),
        ({"n": 1}, r"^alpha = 1/n needs n >= 2"),
        ({"workers": 0}, r"^workers must"),
        ({"pd_policy": "ignore"}, r"^pd_policy must"),
        ({"reward_policy": "drop"}, r"^reward_policy must"),
        ({"constants": ProblemConstants(d=4)}, r"^constants.d=4 does not match d=3"),
        ({"privacy": None}, r"^privacy \(epsilon, delta\) is required"),
        ({"gap": 1.4}, r"^gap=1.4: the band of sub-optimal means"),
    ],
)
def test_run_gap_compiled_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "d": 3,
        "num_arms": 4,
        "gap": 0.1,
        "n": 10,
        "seeds": [0],
        "privacy": PRIVACY,
    }
    run_gap_compiled("wishart", **base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_gap_compiled("wishart", **dict(base, **kwargs))


def test_compiled_rejects_rewards_above_b_tilde_or_clips_them_like_the_numpy_engine() -> None:
    kw: dict[str, Any] = {
        "d": 3,
        "num_arms": 4,
        "gap": 0.1,
        "n": 30,
        "seeds": [0, 1],
        "privacy": PRIVACY,
        "reward_model": "gaussian",
    }
    with pytest.raises(ValueError, match=r"^y must be in \[-B_tilde, B_tilde\]"):
        run_gap_compiled("gaussian", **kw)
    clipped = run_gap_compiled("gaussian", reward_policy="clip", trace=True, **kw)
    numpy_engine = run_gap_batch("gaussian", reward_policy="clip", trace=True, **kw)
    np.testing.assert_array_equal(clipped.clip_events, numpy_engine.clip_events)
    assert np.all(clipped.clip_events > 0)
    np.testing.assert_array_equal(clipped.actions, numpy_engine.actions)


def test_compiled_guard_repairs_like_the_numpy_engine() -> None:
    rho_min = 2.0
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
    for V, expected in [
        (Q @ np.diag([-1.0, 3.0, 5.0]) @ Q.T, 1),  # indefinite: repaired
        (Q @ np.diag([1.0, 3.0, 5.0]) @ Q.T, 1),  # positive definite below ρ_min: repaired
        (np.diag([2.5, 3.0, 4.0]), 0),
    ]:
        L_numpy, repaired = _guarded_cholesky(V[None], rho_min, "repair", 1)
        L = np.zeros((3, 3))
        assert compiled_guard(V.copy(), 3, rho_min, True, L) == expected
        assert bool(repaired[0]) == bool(expected)
        np.testing.assert_allclose(L, L_numpy[0], rtol=1e-12, atol=1e-12)
        if expected:
            assert compiled_guard(V.copy(), 3, rho_min, False, np.zeros((3, 3))) == -1
            with pytest.raises(AccuracyEventError):
                _guarded_cholesky(V[None], rho_min, "raise", 1)


def test_block_task_runs_on_either_engine_with_the_same_results() -> None:
    seeds = child_seeds(11, 0, 3)
    kw: dict[str, Any] = {"d": 3, "num_arms": 9, "gap": 0.1, "n": 200, "epsilon": 1.0}
    compiled = GapBatchTask("wishart", delta=0.1, checkpoints=(50, 200), **kw)(seeds)
    numpy_engine = GapBatchTask("wishart", delta=0.1, checkpoints=(50, 200), engine="numpy", **kw)(
        seeds
    )
    assert compiled.keys() == numpy_engine.keys()
    for key in compiled:
        np.testing.assert_allclose(compiled[key], numpy_engine[key], rtol=1e-12, atol=1e-9)
    with pytest.raises(ValueError, match=r"^engine must be one of"):
        GapBatchTask("wishart", engine="fast", **kw)(seeds)  # type: ignore[arg-type]
