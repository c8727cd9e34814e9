"""Cross-checks of the compiled SCRiBLe engine (``reference.engine.compiled.scrible``) against the
plain reference (``SCRiBLe`` behind ``PrivateBanditReduction``), and of the closed-form Dikin axes
(``dikin_axes``) against ``numpy.linalg.eigh``.

With the same seeds the compiled loop must play the reference's axes and signs and its points to
rounding, and give its regrets to rounding, on the ball and the cube, private and not.  "To
rounding": the reference's dot products go through BLAS (fused multiply-adds) and the loop's do
not; near the boundary the FTRL map amplifies that last-bit difference by the barrier's
conditioning (``~1/(1 − ‖x‖²)²``), so a run whose centre reaches radius 0.999 differs by up to
``10⁻⁸`` (points are compared to ``10⁻⁷``; at E9's parameters they agree to ``10⁻¹²``).  A run
whose centre reaches the boundary in floating point is refused by both.  Results
must not depend on the threads, on which seeds share a call, on the chunking or on ``trace``.
Deterministic: fixed seeds, derandomised hypothesis.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.papers.agarwal_singh.repro_bandits import blo_cell, blo_losses
from reference._typing import FloatArray
from reference.agarwal_singh.bandits import PrivateBanditReduction
from reference.agarwal_singh.environments import regret_full_info
from reference.agarwal_singh.scrible import (
    BallBarrier,
    CubeBarrier,
    PolytopeBarrier,
    SCRiBLe,
    dikin_axes,
)
from reference.agarwal_singh.sets import Cube, L2Ball
from reference.engine.compiled import scrible as engine
from reference.engine.compiled.scrible import SCRiBLeSet, run_scrible_compiled
from reference.noise import LaplaceNoise
from reference.rng import child_seeds, named_generators

# --------------------------------------------------------------------------------------------
# The closed-form axes
# --------------------------------------------------------------------------------------------


def _interior_point(barrier: BallBarrier | CubeBarrier, rng: np.random.Generator) -> FloatArray:
    x = rng.uniform(-1.0, 1.0, size=barrier.dim)
    if isinstance(barrier, BallBarrier):
        x *= rng.uniform(0.0, 0.999) / float(np.linalg.norm(x))
    else:
        x *= 0.999
    return x


@settings(max_examples=40, deadline=None)
@given(
    kind=st.sampled_from(["ball", "cube"]),
    N=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    at_centre=st.booleans(),
)
def test_dikin_axes_are_an_orthonormal_eigenbasis_with_eighs_eigenvalues(
    kind: str, N: int, seed: int, at_centre: bool
) -> None:
    barrier = BallBarrier(N) if kind == "ball" else CubeBarrier(N)
    x = np.zeros(N) if at_centre else _interior_point(barrier, np.random.default_rng(seed))
    eigvals, eigvecs = dikin_axes(barrier, x)
    H = barrier.hess(x)
    scale = float(np.max(np.abs(H)))
    np.testing.assert_allclose(eigvecs.T @ eigvecs, np.eye(N), rtol=0, atol=1e-13)
    np.testing.assert_allclose(H @ eigvecs, eigvecs * eigvals, rtol=0, atol=1e-12 * scale)
    np.testing.assert_allclose(np.sort(eigvals), np.linalg.eigvalsh(H), rtol=1e-12, atol=0)


def test_dikin_axes_of_the_ball_put_the_radial_axis_first() -> None:
    x = np.array([-0.3, 0.4, 0.0])
    eigvals, eigvecs = dikin_axes(BallBarrier(3), x)
    np.testing.assert_allclose(np.abs(eigvecs[:, 0]), np.abs(x) / 0.5, rtol=0, atol=1e-15)
    gap = 1.0 - 0.25
    np.testing.assert_allclose(eigvals, [2 / gap + 1 / gap**2, 2 / gap, 2 / gap], rtol=1e-15)


def test_dikin_axes_of_a_polytope_are_eighs() -> None:
    A = np.vstack([np.eye(2), -np.eye(2)])
    barrier = PolytopeBarrier(A, np.ones(4))
    x = np.array([0.2, -0.5])
    eigvals, eigvecs = dikin_axes(barrier, x)
    want_vals, want_vecs = np.linalg.eigh(barrier.hess(x))
    np.testing.assert_array_equal(eigvals, want_vals)
    np.testing.assert_array_equal(eigvecs, want_vecs)


@pytest.mark.parametrize(
    ("barrier", "x", "pattern"),
    [
        (BallBarrier(2), np.array([1.0, 0.0]), r"^x must be strictly inside"),
        (CubeBarrier(2), np.array([0.0, -1.0]), r"^x must be strictly inside"),
        (BallBarrier(2), np.array([0.0, math.nan]), r"^x must"),
        (BallBarrier(2), np.zeros(3), r"^x must have shape"),
        ("ball", np.zeros(2), r"^barrier must be"),
    ],
)
def test_dikin_axes_bad_input(barrier: Any, x: FloatArray, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        dikin_axes(barrier, x)


# --------------------------------------------------------------------------------------------
# The compiled loop against the reference
# --------------------------------------------------------------------------------------------


def _reference_run(
    decision_set: SCRiBLeSet, losses: FloatArray, eta: float, lam: float | None, seed: Any
) -> tuple[list[int], FloatArray, FloatArray]:
    """The reference run: the axes ``k_t``, the centres and the played points."""
    T, N = losses.shape
    streams = named_generators(seed, ("learner", "reduction"))
    barrier = BallBarrier(N) if decision_set == "ball" else CubeBarrier(N)
    inner = SCRiBLe(barrier, eta, streams["learner"])
    learner: SCRiBLe | PrivateBanditReduction = inner
    if lam is not None:
        learner = PrivateBanditReduction(inner, LaplaceNoise((N,), lam), streams["reduction"])
    axes: list[int] = []
    centres = np.empty((T, N))
    played = np.empty((T, N))
    for t, loss in enumerate(losses):
        centres[t] = inner.center
        played[t] = learner.act()
        assert inner._pending is not None
        axes.append(inner._pending[0])
        learner.update(float(loss @ played[t]))
    return axes, centres, played


def _assert_matches(
    decision_set: SCRiBLeSet,
    N: int,
    T: int,
    eta: float,
    lam: float | None,
    seeds: list[Any],
    tol: float = 1e-7,
) -> None:
    losses = blo_losses(N, T, np.random.default_rng(T))
    region = L2Ball(N) if decision_set == "ball" else Cube(N)
    try:
        references = [_reference_run(decision_set, losses, eta, lam, seed) for seed in seeds]
    except RuntimeError as error:  # a centre on the boundary in floating point: both refuse
        assert "boundary" in str(error)
        with pytest.raises(RuntimeError, match=r"^SCRiBLe's centre reached the boundary"):
            run_scrible_compiled(decision_set, losses=losses, eta=eta, lam=lam, seeds=seeds)
        return
    compiled = run_scrible_compiled(decision_set, losses=losses, eta=eta, lam=lam, seeds=seeds,
                                    checkpoints=np.arange(1, T + 1), trace=True,
                                    workers=2)  # fmt: skip
    assert compiled.centres is not None and compiled.played is not None
    for r, (axes, centres, played) in enumerate(references):
        # the played point's offset from the centre is ±axis/√λ: its largest coordinate is the
        # axis up to sign for the cube; for both, the points equal the reference's to rounding
        np.testing.assert_allclose(compiled.centres[r], centres, rtol=0, atol=tol)
        np.testing.assert_allclose(compiled.played[r], played, rtol=0, atol=tol)
        if decision_set == "cube":
            offsets = np.abs(compiled.played[r] - compiled.centres[r])
            np.testing.assert_array_equal(np.argmax(offsets, axis=1), axes)
        for got, points in (
            (compiled.centre_regret[r], centres),
            (compiled.played_regret[r], played),
        ):
            want = [
                float(regret_full_info(points[: t + 1], losses[: t + 1], region)) for t in range(T)
            ]
            np.testing.assert_allclose(got, want, rtol=1e-9, atol=tol * T)  # fmt: skip


@pytest.mark.parametrize("lam", [None, 0.5, 2.0])
@pytest.mark.parametrize(("decision_set", "N", "T"), [("ball", 1, 50), ("ball", 2, 300),
                                                      ("ball", 7, 200), ("cube", 1, 50),
                                                      ("cube", 3, 300), ("cube", 8, 200)])  # fmt: skip
def test_scrible_equals_reference(
    decision_set: SCRiBLeSet, N: int, T: int, lam: float | None
) -> None:
    _assert_matches(decision_set, N, T, 0.1 / N, lam, [1, np.random.SeedSequence(9)])


@pytest.mark.parametrize("decision_set", ["ball", "cube"])
def test_scrible_equals_reference_at_e9s_parameters_to_1e_12(decision_set: SCRiBLeSet) -> None:
    _assert_matches(decision_set, 4, 3000, 3e-4, 2.0, [5], tol=1e-12)


@pytest.mark.parametrize("decision_set", ["ball", "cube"])
def test_a_centre_on_the_boundary_is_refused_by_both(decision_set: SCRiBLeSet) -> None:
    losses = blo_losses(2, 300, np.random.default_rng(0))
    with pytest.raises(RuntimeError, match=r"boundary"):
        _reference_run(decision_set, losses, 0.5, 20.0, 1)
    with pytest.raises(RuntimeError, match=r"^SCRiBLe's centre reached the boundary .* round \d+"):
        run_scrible_compiled(decision_set, losses=losses, eta=0.5, lam=20.0, seeds=[0, 1])


@settings(max_examples=15, deadline=None)
@given(
    decision_set=st.sampled_from(["ball", "cube"]),
    N=st.integers(1, 10),
    T=st.integers(1, 200),
    eta=st.floats(1e-4, 0.1),
    lam=st.sampled_from([None, 0.5, 2.0, 4.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_scrible_equals_reference_property(
    decision_set: SCRiBLeSet, N: int, T: int, eta: float, lam: float | None, seed: int
) -> None:
    _assert_matches(decision_set, N, T, eta, lam, [seed])


@pytest.mark.parametrize("epsilon", [1.0, math.inf])
@pytest.mark.parametrize("decision_set", ["ball", "cube"])
def test_the_e9_cell_on_the_compiled_engine_equals_the_reference_path(
    decision_set: SCRiBLeSet, epsilon: float
) -> None:
    seed = np.random.SeedSequence(6, spawn_key=(3, 0, 2, 400))
    cell = blo_cell(2, 400, epsilon, 3, seed, decision_set)
    env_seed, runs_seed = child_seeds(seed, 0, 2)
    losses = blo_losses(2, 400, np.random.default_rng(env_seed))
    lam = None if math.isinf(epsilon) else cell["lam"]
    region = L2Ball(2) if decision_set == "ball" else Cube(2)
    for r, child in enumerate(child_seeds(runs_seed, 0, 3)):
        _, centres, played = _reference_run(decision_set, losses, cell["eta"], lam, child)
        np.testing.assert_allclose(cell["regret"][r], regret_full_info(centres, losses, region),
                                   rtol=1e-9, atol=1e-9)  # fmt: skip
        np.testing.assert_allclose(cell["played_regret"][r], regret_full_info(played, losses, region),
                                   rtol=1e-9, atol=1e-9)  # fmt: skip


def test_scrible_independent_of_threads_batches_chunks_and_trace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    losses = blo_losses(3, 500, np.random.default_rng(0))
    kw: dict[str, Any] = {"losses": losses, "eta": 0.1, "lam": 2.0, "checkpoints": [1, 64, 65, 500]}
    seeds = child_seeds(3, 0, 4)
    runs = [run_scrible_compiled("ball", seeds=seeds, workers=w, **kw) for w in (1, 3)]
    alone = run_scrible_compiled("ball", seeds=seeds[1:2], **kw)
    traced = run_scrible_compiled("ball", seeds=seeds, trace=True, **kw)
    monkeypatch.setattr(engine, "CHUNK_ROUNDS", 64)
    chunked = run_scrible_compiled("ball", seeds=seeds, **kw)
    for other in (runs[1], traced, chunked):
        np.testing.assert_array_equal(other.centre_regret, runs[0].centre_regret)
        np.testing.assert_array_equal(other.played_regret, runs[0].played_regret)
    np.testing.assert_array_equal(alone.centre_regret, runs[0].centre_regret[1:2])
    assert runs[0].centres is None and traced.centres is not None


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"decision_set": "simplex"}, r"^decision_set must be one of"),
        ({"losses": np.zeros(5)}, r"^losses must"),
        ({"losses": np.zeros((0, 2))}, r"^losses must"),
        ({"losses": np.full((4, 2), math.nan)}, r"^losses must"),
        ({"losses": np.full((4, 2), math.inf)}, r"^losses must"),
        ({"eta": 0.0}, r"^eta must be"),
        ({"eta": math.nan}, r"^eta must be"),
        ({"lam": -1.0}, r"^lam must be"),
        ({"lam": math.inf}, r"^lam must be"),
        ({"seeds": []}, r"^seeds must hold at least one seed"),
        ({"seeds": [np.random.default_rng(0)]}, r"^seeds\[0\] must be an integer >= 0"),
        ({"checkpoints": [5, 400]}, r"^checkpoints must be a non-empty strictly increasing"),
        ({"trace": 1}, r"^trace must be"),
        ({"workers": 0}, r"^workers must be an integer >= 1"),
    ],
)
def test_run_scrible_compiled_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {
        "decision_set": "ball",
        "losses": np.full((100, 2), 0.25),
        "eta": 0.1,
        "lam": 1.0,
        "seeds": [0],
    }
    run_scrible_compiled(**base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        run_scrible_compiled(**dict(base, **kwargs))
