"""Cross-checks of the compiled Agarwal & Singh engines (``reference.engine.compiled.ftrl``)
against the plain reference.

With the same seeds the compiled loops must play the reference's points (FTRL, to rounding) and
arms (EXP2, exactly) and give its regret up to rounding (``1e-12`` relative, beyond the reference's
own summation error), for every instance, ``ε`` (``∞`` included), calibration and preset; results
must not depend on the threads, on which seeds share a call, on the chunking of the loop or on
``trace``.  Deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.papers.agarwal_singh.repro_bandits import mab_cell
from audit.papers.agarwal_singh.repro_common import FullInfoSet
from audit.papers.agarwal_singh.repro_eps_window import eps_window_cell
from audit.papers.agarwal_singh.repro_ftrl import (
    _ftrl_parameters,
    _ftrl_regret,
    ftrl_cell,
    ftrl_set_cell,
    full_info_losses,
    set_losses,
)
from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import Calibration
from reference.agarwal_singh.bandits import (
    EXP2Exploration,
    PrivateBanditReduction,
    run_bandit,
)
from reference.agarwal_singh.environments import (
    experts_bernoulli,
    experts_minimax,
    ftl_trap,
    mab_constant_gap,
    mab_switching,
)
from reference.agarwal_singh.full_info import PrivateFTRL, run_full_info
from reference.agarwal_singh.sets import (
    LossSet,
    NegativeEntropySimplex,
    Regularizer,
    SquaredNormBall,
    SquaredNormCube,
)
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.engine.compiled import ftrl as engine
from reference.engine.compiled.ftrl import (
    ExpertsInstance,
    FTRLRegularizer,
    MABInstance,
    run_exp2_compiled,
    run_ftrl_compiled,
    run_ftrl_losses_compiled,
)
from reference.noise import LaplaceNoise, ZeroNoise
from reference.rng import child_seeds, named_generators

INF = math.inf
EPS = np.finfo(np.float64).eps


def _expert_losses(instance: ExpertsInstance, N: int, T: int) -> FloatArray:
    if instance == "minimax":
        return experts_minimax(N, T)
    if instance == "gap":
        return mab_constant_gap(N, T, best=0.3, other=0.5)
    return ftl_trap(T)


def _mab_losses(instance: MABInstance, N: int, T: int) -> FloatArray:
    if instance == "constant_gap":
        return mab_constant_gap(N, T, best=0.1, other=0.5)
    return mab_switching(N, T, gap=0.1, switches=(T // 3, 2 * T // 3))


def _prefix_regret(terms: FloatArray, losses: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Exact (``math.fsum``) prefix regrets of per-round incurred ``terms`` ``(T,)`` against the
    best arm, and a bound on the reference's own summation error at each prefix."""
    T = losses.shape[0]
    exact = np.array(
        [
            math.fsum(terms[:t]) - min(math.fsum(losses[:t, i]) for i in range(losses.shape[1]))
            for t in range(1, T + 1)
        ]
    )
    scale = np.cumsum(np.abs(terms)) + np.abs(losses).cumsum(axis=0).max(axis=1)
    return exact, 4.0 * T * EPS * scale


def _assert_ftrl_matches(
    instance: ExpertsInstance,
    N: int,
    T: int,
    epsilon: float,
    seeds: list[Any],
    G: int = 1,
    calibration: Calibration = "strict",
) -> None:
    losses = _expert_losses(instance, N, T)
    marks = np.arange(1, T + 1)
    compiled = run_ftrl_compiled(instance, N=N, T=T, epsilon=epsilon, seeds=seeds,
                                 runs_per_seed=G, calibration=calibration, checkpoints=marks,
                                 trace=True, workers=2)  # fmt: skip
    assert compiled.actions is not None
    assert compiled.regret.shape == (len(seeds) * G, T)
    p = cor32_parameters("experts", N, T, 1.0 if math.isinf(epsilon) else epsilon,
                         calibration=calibration, experts_losses="box01")  # fmt: skip
    for g, seed in enumerate(seeds):
        noise = ZeroNoise((G, N)) if math.isinf(epsilon) else LaplaceNoise((G, N), p.lam)
        learner = PrivateFTRL(p.regularizer, p.eta, noise, T, seed, loss_set=p.loss_set)
        run = run_full_info(learner, losses)
        for j in range(G):
            r = g * G + j
            points = run.actions[:, j]
            np.testing.assert_allclose(compiled.actions[r], points, rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(compiled.regret[r, -1], run.regret[j], rtol=1e-12,
                                       atol=4 * T * EPS * T)  # fmt: skip
            exact, slack = _prefix_regret(np.einsum("tn,tn->t", points, losses), losses)
            np.testing.assert_allclose(compiled.regret[r], exact, rtol=1e-12, atol=slack[-1])


def _reference_mab(
    instance: MABInstance,
    N: int,
    T: int,
    epsilon: float,
    seed: Any,
    preset: Any = "paper",
    calibration: Calibration = "strict",
) -> Any:
    streams = named_generators(seed, ("arms", "reduction"))
    learner: EXP2Exploration | PrivateBanditReduction
    if math.isinf(epsilon):
        eta = math.sqrt(math.log(N) / (2.0 * N * T))
        learner = EXP2Exploration(N, eta, eta * N, streams["arms"])
    else:
        p = thm41_parameters(N, T, epsilon, preset=preset, calibration=calibration)
        inner = EXP2Exploration(N, p.eta, p.gamma, streams["arms"])
        learner = PrivateBanditReduction(inner, LaplaceNoise((N,), p.lam), streams["reduction"])
    return run_bandit(learner, _mab_losses(instance, N, T))


def _assert_exp2_matches(
    instance: MABInstance,
    N: int,
    T: int,
    epsilon: float,
    seeds: list[Any],
    preset: Any = "paper",
    calibration: Calibration = "strict",
) -> None:
    losses = _mab_losses(instance, N, T)
    compiled = run_exp2_compiled(instance, N=N, T=T, epsilon=epsilon, seeds=seeds, preset=preset,
                                 calibration=calibration, checkpoints=np.arange(1, T + 1),
                                 trace=True, workers=2)  # fmt: skip
    assert compiled.arms is not None and compiled.probs is not None
    for r, seed in enumerate(seeds):
        ref = _reference_mab(instance, N, T, epsilon, seed, preset, calibration)
        np.testing.assert_array_equal(compiled.arms[r], ref.arms)
        np.testing.assert_allclose(compiled.probs[r], ref.probs, rtol=1e-12)
        exact, slack = _prefix_regret(np.einsum("tn,tn->t", ref.probs, losses), losses)
        np.testing.assert_allclose(compiled.pseudo_regret[r], exact, rtol=1e-12, atol=slack[-1])
        np.testing.assert_allclose(compiled.pseudo_regret[r, -1], ref.pseudo_regret, rtol=1e-12,
                                   atol=slack[-1])  # fmt: skip
        exact, slack = _prefix_regret(ref.incurred, losses)
        np.testing.assert_allclose(compiled.regret[r], exact, rtol=1e-12, atol=slack[-1])
        np.testing.assert_allclose(compiled.regret[r, -1], ref.regret, rtol=1e-12, atol=slack[-1])


# --------------------------------------------------------------------------------------------
# FTRL (Algorithms 1 and 2)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.3, 3.0, INF])
@pytest.mark.parametrize(
    ("instance", "N", "T", "G"),
    [
        ("minimax", 2, 64, 1),
        ("gap", 5, 100, 3),
        ("ftl_trap", 2, 33, 2),
        ("minimax", 8, 1, 1),
        ("gap", 150, 20, 1),  # N > 128: numpy's pairwise sum splits in halves
    ],
)
def test_ftrl_equals_reference(
    instance: ExpertsInstance, N: int, T: int, G: int, epsilon: float
) -> None:
    if instance == "minimax" and 4 * math.log(N) > T:
        with pytest.raises(ValueError, match=r"^T must be >= 4 ln N"):
            run_ftrl_compiled(instance, N=N, T=T, epsilon=epsilon, seeds=[0])
        return
    _assert_ftrl_matches(instance, N, T, epsilon, [3, np.random.SeedSequence(17)], G)


@settings(max_examples=15, deadline=None)
@given(
    instance=st.sampled_from(["minimax", "gap", "ftl_trap"]),
    N=st.integers(2, 12),
    T=st.integers(2, 80),
    epsilon=st.sampled_from([0.01, 0.5, 10.0, INF]),
    calibration=st.sampled_from(["strict", "paper"]),
    G=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_ftrl_equals_reference_property(
    instance: ExpertsInstance,
    N: int,
    T: int,
    epsilon: float,
    calibration: Calibration,
    G: int,
    seed: int,
) -> None:
    if instance == "ftl_trap":
        N = 2
    if instance == "minimax" and 4 * math.log(N) > T:
        T = math.ceil(4 * math.log(N))
    _assert_ftrl_matches(instance, N, T, epsilon, [seed], G, calibration)


def test_ftrl_sums_are_exact_where_the_reference_rounds() -> None:
    # ε = ∞: x_t is exponential weights of the exact prefix; the reference's tree sums its nodes
    # sequentially (its x_t drift ~1e-12 by T = 2^15), the compiled prefix is compensated
    T, N = 2**13, 2
    compiled = run_ftrl_compiled("minimax", N=N, T=T, epsilon=INF, seeds=[0], trace=True)
    assert compiled.actions is not None
    losses = experts_minimax(N, T)
    prefix = np.array([[float(Fraction(v) * t) for v in losses[0]] for t in range(T)])
    eta = cor32_parameters("experts", N, T, 1.0, experts_losses="box01").eta
    logits = -eta * prefix
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    points = weights / weights.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(compiled.actions[0], points, rtol=0, atol=4 * EPS)
    exact = math.fsum((points * losses).ravel()) - min(math.fsum(c) for c in losses.T)
    np.testing.assert_allclose(compiled.regret[0, -1], exact, rtol=1e-13)


def _reference_cell_regret(
    losses: FloatArray,
    epsilon: float,
    runs: int,
    seed: Any,
    decision_set: FullInfoSet,
    calibration: Calibration = "strict",
) -> FloatArray:
    """The plain reference path of an E4 / ε-window cell: ``PrivateFTRL`` + ``run_full_info``."""
    T, N = losses.shape
    p = _ftrl_parameters(N, T, epsilon, calibration, decision_set)
    rng = np.random.default_rng(seed)
    if math.isinf(epsilon):
        learner = PrivateFTRL(p.regularizer, p.eta, ZeroNoise((1, N)), T, rng, loss_set=p.loss_set)
        return np.repeat(run_full_info(learner, losses).regret, runs)
    noise = LaplaceNoise((runs, N), p.lam)
    learner = PrivateFTRL(p.regularizer, p.eta, noise, T, rng, loss_set=p.loss_set)
    return np.asarray(run_full_info(learner, losses).regret)


@pytest.mark.parametrize("epsilon", [1.0, INF])
def test_the_e4_cell_on_the_compiled_engine_equals_the_reference_path(epsilon: float) -> None:
    seed = np.random.SeedSequence(5, spawn_key=(1, 0, 2, 128))
    cell = ftrl_cell("minimax", 2, 128, epsilon, 4, "strict", seed)
    assert seed.n_children_spawned == 0  # the caller's seed is not advanced
    losses = full_info_losses("minimax", 2, 128)
    generic = _ftrl_regret(losses, epsilon, 4, "strict", seed, "experts")
    assert seed.n_children_spawned == 0
    reference = _reference_cell_regret(losses, epsilon, 4, seed, "experts")  # spawns from seed
    np.testing.assert_allclose(cell["regret"], reference, rtol=1e-12, atol=1e-10)
    assert {k: v for k, v in cell.items() if k != "regret"} == {
        k: v for k, v in generic.items() if k != "regret"
    }
    np.testing.assert_allclose(generic["regret"], reference, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("epsilon", [0.3, INF])
@pytest.mark.parametrize("decision_set", ["sphere", "cube"])
def test_the_e4_set_cells_on_the_compiled_engine_equal_the_reference_path(
    decision_set: FullInfoSet, epsilon: float
) -> None:
    seed = np.random.SeedSequence(5, spawn_key=(1, 3, 4, 300))
    cell = ftrl_set_cell(decision_set, 4, 300, epsilon, 5, "strict", seed)
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    losses = set_losses(decision_set, 4, 300, np.random.default_rng(env_seed))
    reference = _reference_cell_regret(losses, epsilon, 5, tree_seed, decision_set)
    np.testing.assert_allclose(cell["regret"], reference, rtol=1e-12, atol=1e-10)


@pytest.mark.parametrize("epsilon", [0.01, INF])
def test_the_eps_window_cell_on_the_compiled_engine_equals_the_reference_path(
    epsilon: float,
) -> None:
    seed = np.random.SeedSequence(7, spawn_key=(5, 0, 2, 4096))
    cell = eps_window_cell(4096, epsilon, (0.3, 0.5), 6, "paper", seed)
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    losses = experts_bernoulli(np.array([0.3, 0.5]), 4096, np.random.default_rng(env_seed))
    reference = _reference_cell_regret(losses, epsilon, 6, tree_seed, "experts", "paper")
    np.testing.assert_allclose(cell["regret"], reference, rtol=1e-12, atol=1e-9)


def _assert_ftrl_losses_match(
    regularizer: FTRLRegularizer,
    losses: FloatArray,
    eta: float,
    lam: float | None,
    seeds: list[Any],
    G: int = 1,
) -> None:
    T, N = losses.shape
    regs: dict[str, Regularizer] = {"entropy": NegativeEntropySimplex(N), "ball": SquaredNormBall(N),
            "cube": SquaredNormCube(N)}  # fmt: skip
    compiled = run_ftrl_losses_compiled(regularizer, losses=losses, eta=eta, lam=lam, seeds=seeds,
                                        runs_per_seed=G, checkpoints=np.arange(1, T + 1),
                                        trace=True, workers=2)  # fmt: skip
    assert compiled.actions is not None
    assert compiled.regret.shape == (len(seeds) * G, T)
    for g, seed in enumerate(seeds):
        noise = ZeroNoise((G, N)) if lam is None else LaplaceNoise((G, N), lam)
        run = run_full_info(PrivateFTRL(regs[regularizer], eta, noise, T, seed), losses)
        for j in range(G):
            r = g * G + j
            np.testing.assert_allclose(compiled.actions[r], run.actions[:, j], rtol=1e-12,
                                       atol=1e-13)  # fmt: skip
            np.testing.assert_allclose(compiled.regret[r, -1], run.regret[j], rtol=1e-12,
                                       atol=4 * T * EPS * T * float(np.abs(losses).max()))  # fmt: skip


@pytest.mark.parametrize("lam", [None, 0.5, 30.0])
@pytest.mark.parametrize(
    ("regularizer", "N", "T"),
    [("entropy", 2, 200), ("entropy", 9, 130), ("ball", 1, 100), ("ball", 3, 257),
     ("ball", 12, 100), ("cube", 2, 200), ("cube", 10, 129)],
)  # fmt: skip
def test_ftrl_on_given_losses_equals_reference(
    regularizer: FTRLRegularizer, N: int, T: int, lam: float | None
) -> None:
    rng = np.random.default_rng(N * T)
    losses = rng.uniform(-1.0, 1.0, size=(T, N)) / N
    if regularizer == "entropy":
        losses = np.abs(losses)
    _assert_ftrl_losses_match(regularizer, losses, 0.3, lam, [3, np.random.SeedSequence(4)], G=2)


@settings(max_examples=15, deadline=None)
@given(
    regularizer=st.sampled_from(["entropy", "ball", "cube"]),
    N=st.integers(2, 12),
    T=st.integers(1, 300),
    eta=st.floats(1e-3, 3.0),
    lam=st.sampled_from([None, 0.1, 2.0, 50.0]),
    G=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_ftrl_on_given_losses_equals_reference_property(
    regularizer: FTRLRegularizer, N: int, T: int, eta: float, lam: float | None, G: int, seed: int
) -> None:
    losses = np.random.default_rng(seed).uniform(0.0, 1.0, size=(T, N))
    _assert_ftrl_losses_match(regularizer, losses, eta, lam, [seed], G=G)


def test_ftrl_independent_of_threads_batches_chunks_and_trace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kw: dict[str, Any] = {"N": 3, "T": 700, "epsilon": 0.5, "checkpoints": [1, 64, 65, 699, 700]}
    seeds = child_seeds(8, 0, 4)
    runs = [run_ftrl_compiled("gap", seeds=seeds, runs_per_seed=2, workers=w, **kw) for w in (1, 3)]
    alone = run_ftrl_compiled("gap", seeds=seeds[2:3], runs_per_seed=2, **kw)
    traced = run_ftrl_compiled("gap", seeds=seeds, runs_per_seed=2, trace=True, **kw)
    monkeypatch.setattr(engine, "CHUNK_ROUNDS", 64)
    chunked = run_ftrl_compiled("gap", seeds=seeds, runs_per_seed=2, **kw)
    for other in (runs[1], traced, chunked):
        np.testing.assert_array_equal(other.regret, runs[0].regret)
    np.testing.assert_array_equal(alone.regret, runs[0].regret[4:6])
    assert runs[0].actions is None and traced.actions is not None


# --------------------------------------------------------------------------------------------
# The private reduction over EXP2 (Algorithms 4 and 5)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("epsilon", [0.25, 2.0, INF])
@pytest.mark.parametrize(
    ("instance", "N", "T"),
    [
        ("constant_gap", 2, 400),
        ("switching", 5, 600),
        ("switching", 50, 300),
        ("switching", 140, 400),
    ],
)
def test_exp2_equals_reference(instance: MABInstance, N: int, T: int, epsilon: float) -> None:
    _assert_exp2_matches(instance, N, T, epsilon, [1, np.random.SeedSequence(9)])


@settings(max_examples=15, deadline=None)
@given(
    instance=st.sampled_from(["constant_gap", "switching"]),
    N=st.integers(2, 20),
    T=st.integers(3, 300),
    epsilon=st.sampled_from([0.25, 1.0, 4.0, INF]),
    preset=st.sampled_from(["paper", "proof_consistent"]),
    calibration=st.sampled_from(["strict", "paper"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_exp2_equals_reference_property(
    instance: MABInstance,
    N: int,
    T: int,
    epsilon: float,
    preset: Any,
    calibration: Calibration,
    seed: int,
) -> None:
    try:
        _reference_mab(instance, N, T, epsilon, seed, preset, calibration)
    except ValueError as error:  # γ > 1: T too small for N, ε
        with pytest.raises(ValueError, match=r"^gamma"):
            run_exp2_compiled(instance, N=N, T=T, epsilon=epsilon, seeds=[seed], preset=preset,
                              calibration=calibration)  # fmt: skip
        assert "gamma" in str(error)
        return
    _assert_exp2_matches(instance, N, T, epsilon, [seed], preset, calibration)


@pytest.mark.parametrize("epsilon", [1.0, INF])
def test_the_e7_cell_on_the_compiled_engine_equals_the_reference_path(epsilon: float) -> None:
    seed = np.random.SeedSequence(6, spawn_key=(2, 1, 4, 999))
    cell = mab_cell("switching", 4, 999, epsilon, 3, "paper", seed)
    runs = [
        _reference_mab("switching", 4, 999, epsilon, child) for child in child_seeds(seed, 0, 3)
    ]
    slack = 4 * 999 * EPS * 999  # the reference's own summation error
    np.testing.assert_allclose(cell["regret"], [r.pseudo_regret for r in runs], rtol=1e-12,
                               atol=slack)  # fmt: skip
    np.testing.assert_allclose(cell["realised_regret"], [r.regret for r in runs], rtol=1e-12,
                               atol=slack)  # fmt: skip


def test_exp2_independent_of_threads_batches_chunks_and_trace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kw: dict[str, Any] = {"N": 4, "T": 500, "epsilon": 1.0, "checkpoints": [1, 64, 65, 500]}
    seeds = child_seeds(3, 0, 4)
    runs = [run_exp2_compiled("switching", seeds=seeds, workers=w, **kw) for w in (1, 3)]
    alone = run_exp2_compiled("switching", seeds=seeds[1:2], **kw)
    traced = run_exp2_compiled("switching", seeds=seeds, trace=True, **kw)
    monkeypatch.setattr(engine, "CHUNK_ROUNDS", 64)
    chunked = run_exp2_compiled("switching", seeds=seeds, **kw)
    for other in (runs[1], traced, chunked):
        np.testing.assert_array_equal(other.pseudo_regret, runs[0].pseudo_regret)
        np.testing.assert_array_equal(other.regret, runs[0].regret)
    np.testing.assert_array_equal(alone.pseudo_regret, runs[0].pseudo_regret[1:2])
    assert runs[0].arms is None and traced.arms is not None


# --------------------------------------------------------------------------------------------
# Bad inputs
# --------------------------------------------------------------------------------------------


_COMMON_BAD: list[tuple[dict[str, Any], str]] = [
    ({"N": 1}, r"^N must be an integer >= 2"),
    ({"T": 0}, r"^T must be an integer >= 1"),
    ({"epsilon": 0.0}, r"^epsilon must be in \(0, inf\)"),
    ({"epsilon": -INF}, r"^epsilon must be finite"),
    ({"epsilon": math.nan}, r"^epsilon must be finite"),
    ({"seeds": []}, r"^seeds must hold at least one seed"),
    ({"seeds": 3}, r"^seeds must be a sequence"),
    ({"seeds": [-1]}, r"^seeds\[0\] must be an integer >= 0"),
    ({"seeds": [np.random.default_rng(0)]}, r"^seeds\[0\] must be an integer >= 0"),
    ({"calibration": "loose"}, r"^calibration must be one of"),
    ({"checkpoints": [3, 2]}, r"^checkpoints must be a non-empty strictly increasing"),
    ({"checkpoints": [5, 400]}, r"^checkpoints must be a non-empty strictly increasing"),
    ({"checkpoints": []}, r"^checkpoints must be a non-empty strictly increasing"),
    ({"trace": 1}, r"^trace must be"),
    ({"progress": "yes"}, r"^progress must be"),
    ({"workers": 0}, r"^workers must be an integer >= 1"),
]


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        *_COMMON_BAD,
        ({"instance": "switching"}, r"^instance must be one of"),
        ({"instance": "ftl_trap", "N": 3}, r"^N must be 2 for the ftl_trap instance"),
        ({"instance": "minimax", "T": 2, "N": 8}, r"^T must be >= 4 ln N"),
        ({"runs_per_seed": 0}, r"^runs_per_seed must be an integer >= 1"),
    ],
)
def test_run_ftrl_compiled_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {"instance": "gap", "N": 3, "T": 100, "epsilon": 1.0, "seeds": [0]}
    run_ftrl_compiled(**base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_ftrl_compiled(**dict(base, **kwargs))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"regularizer": "simplex"}, r"^regularizer must be one of"),
        ({"losses": np.zeros(5)}, r"^losses must"),
        ({"losses": np.zeros((0, 2))}, r"^losses must have shape"),
        ({"losses": np.zeros((5, 1))}, r"^losses must have shape .* N >= 2"),
        ({"losses": np.full((4, 2), math.nan)}, r"^losses must"),
        ({"losses": np.full((4, 2), 2.0)}, r"^losses must lie in the declared loss set"),
        ({"loss_set": LossSet("box01", 3)}, r"^loss_set must have dimension N = 2"),
        ({"loss_set": "box01"}, r"^loss_set must be"),
        ({"eta": 0.0}, r"^eta must be"),
        ({"lam": -1.0}, r"^lam must be"),
        ({"lam": math.inf}, r"^lam must be"),
        ({"seeds": []}, r"^seeds must hold at least one seed"),
        ({"runs_per_seed": 0}, r"^runs_per_seed must be an integer >= 1"),
        ({"checkpoints": [5, 400]}, r"^checkpoints must be a non-empty strictly increasing"),
        ({"workers": 0}, r"^workers must be an integer >= 1"),
    ],
)
def test_run_ftrl_losses_compiled_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "regularizer": "entropy",
        "losses": np.full((50, 2), 0.5),
        "eta": 0.1,
        "lam": 1.0,
        "seeds": [0],
        "loss_set": LossSet("box01", 2),
    }
    run_ftrl_losses_compiled(**base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_ftrl_losses_compiled(**dict(base, **kwargs))


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        *_COMMON_BAD,
        ({"instance": "gap"}, r"^instance must be one of"),
        ({"instance": "switching", "T": 2}, r"^T must be >= 3 for the switching instance"),
        ({"preset": "tight"}, r"^preset must be one of"),
        ({"N": 50, "T": 10}, r"^gamma = .* must be in \(0, 1\]"),
        ({"N": 50, "T": 10, "epsilon": INF}, r"^gamma = .* must be in \(0, 1\]"),
    ],
)
def test_run_exp2_compiled_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "instance": "constant_gap",
        "N": 3,
        "T": 100,
        "epsilon": 1.0,
        "seeds": [0],
    }
    run_exp2_compiled(**base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_exp2_compiled(**dict(base, **kwargs))
