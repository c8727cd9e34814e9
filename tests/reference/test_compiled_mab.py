"""Cross-checks of the compiled DP-SE / DP-UCB engine (``reference.engine.compiled.mab``).

With the same seeds the compiled loops must give exactly the numpy engine's result
(``reference.engine.mab``: every field bit for bit) and so the reference's (Sajed & Sheffet,
Algorithm 3 and the Sec. 5 DP-UCB baseline: pulls, eliminations, the arm of every round and the
regret), on a grid of the Sec. 5 instances (both ``noise_on``, ``ε = inf``, both calibrations, mid-
epoch truncation, the paper's ``T = 5·10⁷`` for DP-SE) and under hypothesis; results must not depend
on the threads, on which replicates share a call, on the chunking of rounds or on ``trace``.
Deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.engine.compiled import (
    dpse_bernoulli_compiled,
    dpucb_bernoulli_compiled,
    dpucb_table_compiled,
)
from reference.engine.compiled import mab as compiled
from reference.engine.mab import (
    INSTANCES,
    DPSEBatchResult,
    DPUCBBatchResult,
    Instance,
    dpse_bernoulli_batch,
    dpucb_bernoulli_batch,
    regret_checkpoints,
    section5_means,
)
from reference.rng import child_seeds, named_generators
from reference.sajed_sheffet.bandits import (
    DPUCB,
    BanditEnvironment,
    run_policy,
    simulate_dpse_bernoulli,
)

_DPSE_FIELDS = (
    "pulls",
    "elimination_round",
    "elimination_epoch",
    "epochs_completed",
    "checkpoints",
    "regret",
    "final_regret",
)
_DPUCB_FIELDS = ("pulls", "checkpoints", "regret", "final_regret", "gamma", "arms")


def _assert_dpse_equal(a: DPSEBatchResult, b: DPSEBatchResult) -> None:
    for name in _DPSE_FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def _assert_dpucb_equal(a: DPUCBBatchResult, b: DPUCBBatchResult) -> None:
    for name in _DPUCB_FIELDS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


# --------------------------------------------------------------------------------------------
# DP-SE
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("noise_on", ["r", "R_e"])
@pytest.mark.parametrize(("K", "T"), [(5, 5 * 10**7), (50, 5 * 10**7), (3, 20_000), (6, 700)])
def test_dpse_equals_numpy_engine_and_reference(
    noise_on: Literal["r", "R_e"], K: int, T: int
) -> None:
    rows: list[tuple[Instance, float]] = [
        ("C1", 0.1),
        ("C2", 0.25),
        ("C3", 1.0),
        ("C4", math.inf),
        ("C2", 0.5),
        ("C3", 0.05),
    ]
    means = np.array([section5_means(i, K) for i, _ in rows])
    eps = np.array([e for _, e in rows])
    seeds = child_seeds(13, 0, len(rows))
    marks = regret_checkpoints(T, 10, 50)
    kw: dict[str, Any] = {"noise_on": noise_on, "checkpoints": marks}
    numpy_engine = dpse_bernoulli_batch(means, T, eps, 1.0 / T, seeds, **kw)
    result = dpse_bernoulli_compiled(means, T, eps, 1.0 / T, seeds, **kw)
    _assert_dpse_equal(result, numpy_engine)
    for r, seed in enumerate(seeds):
        ref = simulate_dpse_bernoulli(
            means[r], T, float(eps[r]), 1.0 / T, np.random.default_rng(seed), noise_on=noise_on
        )
        np.testing.assert_array_equal(result.pulls[r], ref.pulls)
        np.testing.assert_array_equal(result.elimination_round[r], ref.elimination_round)
        np.testing.assert_array_equal(result.elimination_epoch[r], ref.elimination_epoch)
        assert result.epochs_completed[r] == len(ref.records)
        assert result.final_regret[r] == ref.pseudo_regret


def test_dpse_every_round_and_extreme_means() -> None:
    # means 0 and 1 (binomial edge cases), a checkpoint at every round, truncation mid-epoch
    T = 30_000
    means = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, 1.0], [0.75, 0.7, 0.0]])
    seeds = child_seeds(2, 0, 3)
    kw: dict[str, Any] = {"checkpoints": np.arange(1, T + 1)}
    _assert_dpse_equal(
        dpse_bernoulli_compiled(means, T, 0.5, 0.01, seeds, **kw),
        dpse_bernoulli_batch(means, T, 0.5, 0.01, seeds, **kw),
    )


@settings(max_examples=25, deadline=None)
@given(
    instance=st.sampled_from(INSTANCES),
    K=st.integers(2, 8),
    T=st.integers(1, 400_000),
    epsilon=st.sampled_from([0.05, 0.3, 2.0, math.inf]),
    beta=st.sampled_from([0.5, 0.01, 1e-6]),
    noise_on=st.sampled_from(["r", "R_e"]),
    seed=st.integers(0, 2**32),
    marks=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=20),
)
def test_dpse_equals_numpy_engine_property(
    instance: Instance,
    K: int,
    T: int,
    epsilon: float,
    beta: float,
    noise_on: str,
    seed: int,
    marks: list[float],
) -> None:
    checkpoints = np.unique(np.ceil(np.array(marks) * T).clip(1, T).astype(np.int64))
    mu = section5_means(instance, K)
    seeds = child_seeds(seed, 0, 3)
    kw: dict[str, Any] = {"noise_on": noise_on, "checkpoints": checkpoints}
    _assert_dpse_equal(
        dpse_bernoulli_compiled(mu, T, epsilon, beta, seeds, **kw),
        dpse_bernoulli_batch(mu, T, epsilon, beta, seeds, **kw),
    )


def test_dpse_does_not_depend_on_threads_or_batch() -> None:
    T = 10**7
    mu = section5_means("C3", 10)
    seeds = child_seeds(3, 0, 6)
    runs = [dpse_bernoulli_compiled(mu, T, 0.25, 1.0 / T, seeds, workers=w) for w in (1, 2, 4)]
    for run in runs[1:]:
        _assert_dpse_equal(run, runs[0])
    part = dpse_bernoulli_compiled(mu, T, 0.25, 1.0 / T, seeds[2:4])
    np.testing.assert_array_equal(part.pulls, runs[0].pulls[2:4])
    np.testing.assert_array_equal(part.regret, runs[0].regret[2:4])
    other = dpse_bernoulli_compiled(mu, T, 0.25, 1.0 / T, child_seeds(4, 0, 6))
    assert not np.array_equal(other.pulls, runs[0].pulls)


# --------------------------------------------------------------------------------------------
# DP-UCB
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("calibration", ["per_tree", "split"])
def test_dpucb_equals_reference_round_by_round(calibration: str) -> None:
    T = 2_500
    rows: list[tuple[Instance, float]] = [("C1", 0.25), ("C2", 1.0), ("C3", 0.1), ("C4", 0.5)]
    means = np.array([section5_means(i, 3) for i, _ in rows])
    eps = np.array([e for _, e in rows])
    seeds = child_seeds(21, 0, len(rows))
    kw: dict[str, Any] = {
        "calibration": calibration,
        "checkpoints": np.arange(1, T + 1),
        "trace": True,
    }
    result = dpucb_bernoulli_compiled(means, T, eps, seeds, **kw)
    _assert_dpucb_equal(result, dpucb_bernoulli_batch(means, T, eps, seeds, **kw))
    assert result.arms is not None
    for r, seed in enumerate(seeds):
        gens = named_generators(seed, ("environment", "policy"))
        policy = DPUCB(3, T, float(eps[r]), gens["policy"], calibration=calibration)  # type: ignore[arg-type]
        run = run_policy(policy, BanditEnvironment(means[r], gens["environment"]), T)
        np.testing.assert_array_equal(result.arms[r], run.arms)
        np.testing.assert_array_equal(result.regret[r], run.regret)  # bit for bit


@pytest.mark.parametrize("width_factor", [0.25, 3.0])
def test_dpucb_width_factor_scales_gamma_and_keeps_the_paths_equal(width_factor: float) -> None:
    """``width_factor`` multiplies ``γ``; the compiled engine, the numpy engine and the reference
    class make the same choices with it on the same seeds."""
    T = 2_000
    means = np.array([section5_means("C2", 3)] * 2)
    seeds = child_seeds(8, 0, 2)
    kw: dict[str, Any] = {"checkpoints": np.arange(1, T + 1), "trace": True}
    result = dpucb_bernoulli_compiled(means, T, 0.5, seeds, width_factor=width_factor, **kw)
    _assert_dpucb_equal(
        result, dpucb_bernoulli_batch(means, T, 0.5, seeds, width_factor=width_factor, **kw)
    )
    plain = dpucb_bernoulli_batch(means, T, 0.5, seeds, **kw)
    np.testing.assert_allclose(result.gamma, width_factor * plain.gamma, rtol=1e-15)
    assert result.arms is not None
    for r, seed in enumerate(seeds):
        gens = named_generators(seed, ("environment", "policy"))
        policy = DPUCB(3, T, 0.5, gens["policy"], width_factor=width_factor)
        run = run_policy(policy, BanditEnvironment(means[r], gens["environment"]), T)
        np.testing.assert_array_equal(result.arms[r], run.arms)


@pytest.mark.parametrize("instance", INSTANCES)
def test_dpucb_equals_numpy_engine_at_fifty_arms(instance: Instance) -> None:
    T = 6_000
    mu = section5_means(instance, 50)
    seeds = child_seeds(5, 0, 2)
    kw: dict[str, Any] = {"checkpoints": regret_checkpoints(T), "trace": True}
    _assert_dpucb_equal(
        dpucb_bernoulli_compiled(mu, T, [0.1, 1.0], seeds, **kw),
        dpucb_bernoulli_batch(mu, T, [0.1, 1.0], seeds, **kw),
    )


@settings(max_examples=25, deadline=None)
@given(
    instance=st.sampled_from(INSTANCES),
    K=st.integers(2, 7),
    T=st.integers(7, 1_500),
    epsilon=st.sampled_from([0.05, 0.3, 2.0, 50.0]),
    calibration=st.sampled_from(["per_tree", "split"]),
    beta_u=st.sampled_from([None, 0.5, 1e-9]),
    seed=st.integers(0, 2**32),
)
def test_dpucb_equals_numpy_engine_property(
    instance: Instance,
    K: int,
    T: int,
    epsilon: float,
    calibration: str,
    beta_u: float | None,
    seed: int,
) -> None:
    mu = section5_means(instance, K)
    seeds = child_seeds(seed, 0, 2)
    kw: dict[str, Any] = {
        "calibration": calibration,
        "beta_u": beta_u,
        "checkpoints": np.arange(1, T + 1),
        "trace": True,
    }
    _assert_dpucb_equal(
        dpucb_bernoulli_compiled(mu, T, epsilon, seeds, **kw),
        dpucb_bernoulli_batch(mu, T, epsilon, seeds, **kw),
    )


def test_dpucb_does_not_depend_on_threads_batch_chunks_or_trace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    T = 3_000
    mu = section5_means("C3", 4)
    seeds = child_seeds(2, 0, 4)
    marks = [1, 4, 5, 999, 1_000, 1_001, T]
    numpy_engine = dpucb_bernoulli_batch(mu, T, 0.5, seeds, checkpoints=marks, trace=True)
    runs = [
        dpucb_bernoulli_compiled(mu, T, 0.5, seeds, checkpoints=marks, trace=True, workers=w)
        for w in (1, 2, 4)
    ]
    monkeypatch.setattr(compiled, "CHUNK_ROUNDS", 7)  # many calls of the loop, state carried over
    runs.append(dpucb_bernoulli_compiled(mu, T, 0.5, seeds, checkpoints=marks, trace=True))
    for run in runs:
        _assert_dpucb_equal(run, numpy_engine)
    alone = dpucb_bernoulli_compiled(mu, T, 0.5, seeds[1:2], checkpoints=marks)
    assert alone.arms is None
    np.testing.assert_array_equal(alone.regret[0], numpy_engine.regret[1])
    np.testing.assert_array_equal(alone.pulls[0], numpy_engine.pulls[1])


def test_dpucb_rounds_is_a_prefix_of_the_full_run() -> None:
    T = 3_000
    mu = section5_means("C4", 3)
    seeds = child_seeds(9, 0, 3)
    full = dpucb_bernoulli_compiled(mu, T, 0.25, seeds, trace=True)
    head = dpucb_bernoulli_compiled(mu, T, 0.25, seeds, rounds=1_000, trace=True, progress=True)
    _assert_dpucb_equal(head, dpucb_bernoulli_batch(mu, T, 0.25, seeds, rounds=1_000, trace=True))
    assert full.arms is not None and head.arms is not None
    np.testing.assert_array_equal(head.arms, full.arms[:, :1_000])


# --------------------------------------------------------------------------------------------
# Validation: the numpy engine's checks and messages
# --------------------------------------------------------------------------------------------

_MU = section5_means("C1", 3)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"epsilon": 0.0},
        {"beta": 1.5},
        {"means": [0.5, 1.5]},
        {"means": [0.5]},
        {"means": np.full((3, 2), 0.5)},
        {"T": 0},
        {"checkpoints": [101]},
        {"checkpoints": [5, 5]},
        {"noise_on": "R"},
        {"seeds": []},
        {"seeds": "abc"},
    ],
)
def test_dpse_bad_input_as_numpy_engine(kwargs: dict[str, Any]) -> None:
    base: dict[str, Any] = {
        "means": _MU,
        "T": 100,
        "epsilon": 1.0,
        "beta": 0.1,
        "seeds": child_seeds(0, 0, 2),
    }
    args = dict(base, **kwargs)
    with pytest.raises(ValueError) as expected:
        dpse_bernoulli_batch(**args)
    with pytest.raises(ValueError) as error:
        dpse_bernoulli_compiled(**args)
    assert str(error.value) == str(expected.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"epsilon": math.inf},
        {"epsilon": [0.1, 0.2, 0.3]},
        {"means": np.full((3, 2), 0.5)},
        {"T": 2},
        {"calibration": "both"},
        {"calibration": ["split"]},
        {"beta_u": 0.0},
        {"checkpoints": [5, 5]},
        {"rounds": 101},
        {"checkpoints": [60], "rounds": 50},
        {"trace": 1},
        {"width_factor": 0.0},
        {"width_factor": math.nan},
        {"width_factor": "wide"},
    ],
)
def test_dpucb_bad_input_as_numpy_engine(kwargs: dict[str, Any]) -> None:
    base: dict[str, Any] = {"means": _MU, "T": 100, "epsilon": 1.0, "seeds": child_seeds(0, 0, 2)}
    args = dict(base, **kwargs)
    with pytest.raises(ValueError) as expected:
        dpucb_bernoulli_batch(**args)
    with pytest.raises(ValueError) as error:
        dpucb_bernoulli_compiled(**args)
    assert str(error.value) == str(expected.value)


def test_workers_and_progress_are_checked() -> None:
    seeds = child_seeds(0, 0, 2)
    with pytest.raises(ValueError, match=r"^workers must"):
        dpse_bernoulli_compiled(_MU, 100, 1.0, 0.1, seeds, workers=0)
    with pytest.raises(ValueError, match=r"^workers must"):
        dpucb_bernoulli_compiled(_MU, 100, 1.0, seeds, workers=0)
    with pytest.raises(ValueError, match=r"^progress must"):
        dpucb_bernoulli_compiled(_MU, 100, 1.0, seeds, progress="yes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# DP-UCB on a given reward table (the regret check's reference)
# --------------------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    K=st.integers(2, 7),
    T=st.integers(7, 1_500),
    epsilon=st.sampled_from([0.05, 0.3, 2.0, 50.0]),
    calibration=st.sampled_from(["per_tree", "split"]),
    beta_u=st.sampled_from([None, 0.5, 1e-9]),
    fractional=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_dpucb_table_equals_the_class_driven_round_by_round(
    K: int,
    T: int,
    epsilon: float,
    calibration: Literal["per_tree", "split"],
    beta_u: float | None,
    fractional: bool,
    seed: int,
) -> None:
    env = np.random.default_rng(seed)
    mu = env.random(K)
    table = env.random((T, K)) if fractional else (env.random((T, K)) < mu).astype(np.float64)
    rng, twin = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    result = dpucb_table_compiled(table, mu, epsilon, rng, calibration=calibration, beta_u=beta_u)
    policy = DPUCB(K, T, epsilon, twin, calibration=calibration, beta_u=beta_u)
    arms, regret = np.empty(T, dtype=np.int64), 0.0
    for t in range(T):
        arms[t] = policy.select_arm()
        policy.update(int(arms[t]), float(table[t, arms[t]]))
        regret += float(mu.max() - mu[arms[t]])
    assert result.arms is not None
    np.testing.assert_array_equal(result.arms[0], arms)
    assert result.final_regret[0] == regret  # bit for bit: same terms, same order
    np.testing.assert_array_equal(result.pulls[0], policy.counts)
    # the caller's generator is advanced as the class advances it
    assert rng.bit_generator.state == twin.bit_generator.state
    assert rng.spawn(1)[0].random() == twin.spawn(1)[0].random()  # same children spawned


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rewards": np.full((10, 2), 1.5)}, r"^rewards must be in \[0, 1\]"),
        ({"rewards": np.full((10, 2), np.nan)}, r"^rewards"),
        ({"rewards": np.zeros(10)}, r"^rewards"),
        ({"means": [0.5, 0.5, 0.5]}, r"^means must have one value per column"),
        ({"rewards": np.zeros((1, 2))}, r"^rewards must have at least 2 rows"),
        ({"rewards": np.zeros((2, 3))}, r"^rewards must have at least 2 rows"),
        ({"epsilon": 0.0}, r"^epsilon"),
        ({"calibration": "both"}, r"^calibration"),
    ],
)
def test_dpucb_table_bad_input(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {
        "rewards": np.zeros((10, 2)),
        "means": [0.6, 0.4],
        "epsilon": 1.0,
        "rng": np.random.default_rng(0),
    } | kwargs
    with pytest.raises(ValueError, match=match):
        dpucb_table_compiled(**args)


def test_dpucb_table_refuses_a_legacy_generator() -> None:
    with pytest.raises((TypeError, ValueError), match=r"^rng"):
        dpucb_table_compiled(np.zeros((10, 2)), [0.6, 0.4], 1.0, np.random.RandomState(0))  # type: ignore[arg-type]
