"""Tests of SCRiBLe and its barriers (reference/agarwal_singh/scrible.py), inner learner of Thm 4.5.

Closed forms are checked against first-order optimality, finite differences and scalar search;
the one-point estimator's unbiasedness exactly, by enumerating the 2N perturbations.  The
polytope barrier (damped Newton) is checked against the cube's closed form (the cube as
``{Ax ≤ b}``), first-order optimality, finite differences and scipy's minimiser on a simplex.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import optimize

from reference._typing import FloatArray
from reference.agarwal_singh.bandits import PrivateBanditReduction, run_bandit
from reference.agarwal_singh.scrible import (
    BallBarrier,
    CubeBarrier,
    PolytopeBarrier,
    SCRiBLe,
    dikin_axes,
)
from reference.agarwal_singh.sets import L2Ball
from reference.agarwal_singh.theorems import thm45_parameters
from reference.noise import LaplaceNoise

finite = st.floats(-50.0, 50.0, allow_nan=False)


@given(theta=hnp.arrays(np.float64, 3, elements=finite), eta=st.floats(0.001, 5.0))
@settings(max_examples=50)
def test_closed_form_steps_satisfy_first_order_conditions(theta: FloatArray, eta: float) -> None:
    for barrier in (BallBarrier(3), CubeBarrier(3)):
        x = barrier.ftrl_argmin(theta, eta)
        assert math.isfinite(barrier.value(x))  # strictly interior
        residual = eta * theta + barrier.grad(x)
        assert np.linalg.norm(residual) <= 1e-9 * max(1.0, eta * float(np.linalg.norm(theta)))


def test_radial_step_matches_scalar_search() -> None:
    # 1-d cube barrier: argmin_x eta*t*x - ln(1 - x^2) on (-1, 1)
    barrier = CubeBarrier(1)
    for t in (-30.0, -1.0, 0.0, 0.2, 4.0):
        for eta in (0.01, 0.5, 3.0):
            found = optimize.minimize_scalar(
                lambda v, t=t, eta=eta: eta * t * v - math.log(1 - v * v),
                bounds=(-1 + 1e-12, 1 - 1e-12),
                method="bounded",
                options={"xatol": 1e-12},
            ).x
            x = float(barrier.ftrl_argmin(np.array([t]), eta)[0])
            assert x == pytest.approx(found, abs=1e-6)


@given(x=hnp.arrays(np.float64, 3, elements=st.floats(-0.5, 0.5)))
@settings(max_examples=30)
def test_gradients_and_hessians_by_finite_differences(x: FloatArray) -> None:
    h = 1e-6
    for barrier in (BallBarrier(3), CubeBarrier(3)):
        grad_fd = np.array(
            [(barrier.value(x + h * e) - barrier.value(x - h * e)) / (2 * h) for e in np.eye(3)]
        )
        np.testing.assert_allclose(barrier.grad(x), grad_fd, rtol=1e-6, atol=1e-6)
        hess_fd = np.stack(
            [(barrier.grad(x + h * e) - barrier.grad(x - h * e)) / (2 * h) for e in np.eye(3)]
        )
        np.testing.assert_allclose(barrier.hess(x), hess_fd, rtol=1e-5, atol=1e-5)


def test_ball_hessian_eigenpairs_spec_closed_form() -> None:
    x = np.array([0.3, -0.4, 0.0])
    r2 = float(x @ x)
    H = BallBarrier(3).hess(x)
    u = x / math.sqrt(r2)
    np.testing.assert_allclose(H @ u, (2 / (1 - r2) + 4 * r2 / (1 - r2) ** 2) * u, rtol=1e-12)
    v = np.array([0.4, 0.3, 0.0]) / 0.5
    np.testing.assert_allclose(H @ v, 2 / (1 - r2) * v, rtol=1e-12)
    assert BallBarrier(3).nu == 1.0 and CubeBarrier(3).nu == 6.0


@pytest.mark.parametrize(
    "barrier", [BallBarrier(n) for n in (2, 4, 8)] + [CubeBarrier(n) for n in (2, 4, 8)]
)
def test_played_points_on_unit_dikin_ellipsoid_and_feasible(
    barrier: BallBarrier | CubeBarrier,
) -> None:
    learner = SCRiBLe(barrier, 0.3, np.random.default_rng(0))
    rng = np.random.default_rng(1)
    for _ in range(200):
        x = learner.center
        y = learner.act()
        H = barrier.hess(x)
        assert float((y - x) @ H @ (y - x)) == pytest.approx(1.0, rel=1e-9)
        assert barrier.contains(y)
        learner.update(float(rng.uniform(-1, 1)))


def _moved_learner(barrier: BallBarrier | CubeBarrier) -> SCRiBLe:
    learner = SCRiBLe(barrier, 0.2, np.random.default_rng(2))
    rng = np.random.default_rng(3)
    for _ in range(5):  # move the centre off the origin
        learner.act()
        learner.update(float(rng.uniform(-1, 1)))
    return learner


@pytest.mark.parametrize(
    "barrier", [BallBarrier(n) for n in (2, 4, 8)] + [CubeBarrier(n) for n in (2, 4, 8)]
)
def test_one_point_estimator_is_unbiased_by_enumeration(barrier: BallBarrier | CubeBarrier) -> None:
    learner = _moved_learner(barrier)
    n = barrier.dim
    loss = np.random.default_rng(4).uniform(-1, 1, size=n)
    eigvals, eigvecs = learner.perturbation_basis()
    x = learner.center
    mean = np.zeros(n)
    for k in range(n):
        for s in (-1.0, 1.0):
            y = x + s * eigvecs[:, k] / math.sqrt(eigvals[k])
            mean += learner.estimate(float(loss @ y), k, s, eigvals, eigvecs) / (2 * n)
    np.testing.assert_allclose(mean, loss, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("barrier", [BallBarrier(4), CubeBarrier(4)])
def test_one_point_estimator_is_unbiased_with_the_reductions_laplace_noise(
    barrier: BallBarrier | CubeBarrier,
) -> None:
    """Inside Algorithm 4 the scalar is ``<l + Z, y>``: over ``(k, s, Z)`` the estimate's mean is
    still ``l`` (2·10⁵ draws, Laplace scale 2; every coordinate within 4.5 standard errors)."""
    learner = _moved_learner(barrier)
    n = barrier.dim
    rng = np.random.default_rng(5)
    loss = rng.uniform(-1, 1, size=n)
    eigvals, eigvecs = learner.perturbation_basis()
    x = learner.center
    draws = 200_000
    k = rng.integers(n, size=draws)
    s = np.where(rng.random(draws) < 0.5, 1.0, -1.0)
    Z = rng.laplace(0.0, 2.0, size=(draws, n))
    dirs = eigvecs[:, k].T  # (draws, n)
    y = x + s[:, None] * dirs / np.sqrt(eigvals[k])[:, None]
    f = np.sum((loss + Z) * y, axis=1)
    est = n * (f * s * np.sqrt(eigvals[k]))[:, None] * dirs
    se = est.std(axis=0, ddof=1) / math.sqrt(draws)
    assert np.all(np.abs(est.mean(axis=0) - loss) <= 4.5 * se)
    # the same draws through the learner's own estimate (a few, as a cross-check of the formula)
    for i in range(5):
        got = learner.estimate(float(f[i]), int(k[i]), float(s[i]), eigvals, eigvecs)
        np.testing.assert_allclose(got, est[i], rtol=1e-12, atol=1e-12)


def test_private_scrible_runs_feasibly_and_reproducibly() -> None:
    N, T = 2, 300
    params = thm45_parameters(N, T, 1.0, nu=1.0, M=1.0, X_l2=1.0, Y_l1=1.0)
    assert params.condition_holds and params.clipped  # eta clipped at small T
    u = np.array([0.6, -0.4])
    losses = (
        0.5 * u
        + 0.5
        * np.random.default_rng(4).choice([-1.0, 1.0], size=(T, 1))
        * np.eye(N)[np.random.default_rng(5).integers(N, size=T)]
    )

    def run(seed: int) -> FloatArray:
        rng = np.random.default_rng(seed)
        inner = SCRiBLe(BallBarrier(N), params.eta, rng)
        reduction = PrivateBanditReduction(inner, LaplaceNoise((N,), params.lam), rng)
        return run_bandit(reduction, losses, loss_bounds=(-1.0, 1.0)).actions

    actions = run(6)
    np.testing.assert_array_equal(actions, run(6))
    assert L2Ball(N).contains(actions, tol=1e-12)
    with pytest.raises(RuntimeError, match="call act"):
        SCRiBLe(BallBarrier(2), 0.1, np.random.default_rng(0)).update(0.0)


def _cube_as_polytope(n: int) -> PolytopeBarrier:
    return PolytopeBarrier(np.vstack([np.eye(n), -np.eye(n)]), np.ones(2 * n))


def _corner_simplex(n: int) -> PolytopeBarrier:
    """``{x ≥ 0, Σx ≤ 1}``: full-dimensional, ``m = N + 1`` (the fewest rows a bounded set needs)."""
    return PolytopeBarrier(np.vstack([-np.eye(n), np.ones((1, n))]), np.r_[np.zeros(n), 1.0])


@given(
    x=hnp.arrays(np.float64, 3, elements=st.floats(-0.9, 0.9)),
    theta=hnp.arrays(np.float64, 3, elements=finite),
    eta=st.floats(0.001, 5.0),
)
@settings(max_examples=50, deadline=None)
def test_polytope_barrier_on_the_cube_is_the_cube_barrier(
    x: FloatArray, theta: FloatArray, eta: float
) -> None:
    cube, poly = CubeBarrier(3), _cube_as_polytope(3)
    assert poly.nu == cube.nu == 6.0
    assert poly.value(x) == pytest.approx(cube.value(x), rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(poly.grad(x), cube.grad(x), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(poly.hess(x), cube.hess(x), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(poly.analytic_center(), np.zeros(3), atol=1e-12)
    # Newton stops at decrement 1e-10: ‖x − x*‖ in the local norm is below ~1e-10
    np.testing.assert_allclose(
        poly.ftrl_argmin(theta, eta), cube.ftrl_argmin(theta, eta), rtol=0.0, atol=1e-9
    )


@given(theta=hnp.arrays(np.float64, 3, elements=finite), eta=st.floats(0.001, 5.0))
@settings(max_examples=40, deadline=None)
def test_polytope_step_is_interior_and_first_order_optimal(theta: FloatArray, eta: float) -> None:
    barrier = _corner_simplex(3)
    for start in (None, np.array([0.1, 0.2, 0.3])):
        x = barrier.ftrl_argmin(theta, eta, start=start)
        assert math.isfinite(barrier.value(x))
        residual = eta * theta + barrier.grad(x)
        # the Newton decrement is the residual in the dual local norm
        dual = float(residual @ np.linalg.solve(barrier.hess(x), residual))
        assert math.sqrt(max(dual, 0.0)) < 1e-9


def test_polytope_step_matches_scipy_minimiser_and_finite_differences() -> None:
    barrier = _corner_simplex(2)
    theta, eta = np.array([3.0, -1.0]), 0.7

    def objective(v: FloatArray) -> float:
        return eta * float(theta @ v) + barrier.value(v)

    found = optimize.minimize(
        objective,
        np.array([0.3, 0.3]),
        method="Nelder-Mead",
        options={"xatol": 1e-12, "fatol": 1e-14, "maxiter": 5000},
    ).x
    np.testing.assert_allclose(barrier.ftrl_argmin(theta, eta), found, atol=1e-6)
    # analytic centre of the corner simplex in 2-d: by symmetry x1 = x2, 1/x = 1/(1 − 2x) → 1/3
    np.testing.assert_allclose(barrier.analytic_center(), [1 / 3, 1 / 3], atol=1e-12)
    x, h = np.array([0.2, 0.1]), 1e-6
    grad_fd = [(barrier.value(x + h * e) - barrier.value(x - h * e)) / (2 * h) for e in np.eye(2)]
    np.testing.assert_allclose(barrier.grad(x), grad_fd, rtol=1e-6)
    hess_fd = np.stack(
        [(barrier.grad(x + h * e) - barrier.grad(x - h * e)) / (2 * h) for e in np.eye(2)]
    )
    np.testing.assert_allclose(barrier.hess(x), hess_fd, rtol=1e-5)


def test_scrible_on_a_polytope_plays_inside_and_follows_the_cube_run() -> None:
    """The cube as a polytope, along a SCRiBLe run: every centre is the cube's closed-form FTRL
    step of the run's ``θ`` (to Newton's tolerance) and every played point lies on one of the
    cube's closed-form Dikin axes (``eigh`` orders the polytope's axes by eigenvalue, the cube's
    closed form by coordinate, so the same draw may pick a different axis); every played point
    on a random polytope is feasible."""
    rng_losses = np.random.default_rng(7)
    feedback = rng_losses.uniform(-1, 1, size=300)
    cube = CubeBarrier(3)
    poly = SCRiBLe(_cube_as_polytope(3), 0.05, np.random.default_rng(8))
    for f in feedback:
        x = poly.center
        eigvals, eigvecs = dikin_axes(cube, x)
        offset = poly.act() - x
        assert (
            min(
                float(np.linalg.norm(offset - s * eigvecs[:, k] / math.sqrt(eigvals[k])))
                for k in range(3)
                for s in (-1.0, 1.0)
            )
            <= 1e-7
        )
        poly.update(float(f))
        np.testing.assert_allclose(
            poly.center, cube.ftrl_argmin(poly._theta, 0.05), rtol=0.0, atol=1e-7
        )
    A = np.random.default_rng(9).normal(size=(12, 3))
    barrier = PolytopeBarrier(A, np.ones(12) + 0.5)
    learner = SCRiBLe(barrier, 0.05, np.random.default_rng(10))
    for f in feedback:
        x = learner.center
        y = learner.act()
        assert float((y - x) @ barrier.hess(x) @ (y - x)) == pytest.approx(1.0, rel=1e-9)
        assert barrier.contains(y)
        learner.update(float(f))


@pytest.mark.parametrize(
    ("A", "b", "match"),
    [
        (np.eye(2), np.ones(2), "at least N \\+ 1 = 3 rows"),
        (np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]), np.ones(3), "bounded polytope: x\\[0\\]"),
        (
            np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]),
            np.array([1.0, -2.0, 1.0, 1.0]),
            "non-empty",
        ),
        (
            np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0], [0.0, -1.0]]),
            np.array([0.0, 0.0, 1.0, 1.0]),
            "full-dimensional",
        ),
        (np.array([[1.0, 0.0], [0.0, 0.0], [-1.0, -1.0]]), np.ones(3), "non-zero rows"),
        (np.array([[np.nan, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.ones(3), "A must contain only"),
        (np.vstack([-np.eye(2), np.ones((1, 2))]), np.array([0.0, 0.0, np.inf]), "b must contain"),
    ],
)
def test_polytope_barrier_rejects_sets_without_a_barrier(
    A: FloatArray, b: FloatArray, match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        PolytopeBarrier(A, b)


def test_polytope_step_rejects_bad_start_and_reports_non_convergence() -> None:
    barrier = _corner_simplex(2)
    with pytest.raises(ValueError, match="start must be strictly inside"):
        barrier.ftrl_argmin(np.zeros(2), 1.0, start=np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="start must contain only finite"):
        barrier.ftrl_argmin(np.zeros(2), 1.0, start=np.array([np.nan, 0.1]))
    for closed in (BallBarrier(2), CubeBarrier(2)):  # closed forms check start too
        with pytest.raises(ValueError, match="start must contain only finite"):
            closed.ftrl_argmin(np.zeros(2), 1.0, start=np.array([np.nan, 0.1]))
        with pytest.raises(ValueError, match="start must be strictly inside"):
            closed.ftrl_argmin(np.zeros(2), 1.0, start=np.array([1.0, 0.0]))
        np.testing.assert_array_equal(
            closed.ftrl_argmin(np.ones(2), 1.0, start=np.array([0.1, 0.1])),
            closed.ftrl_argmin(np.ones(2), 1.0),
        )
    with pytest.raises(RuntimeError, match="did not reach decrement"):  # the analytic centre
        PolytopeBarrier(barrier.A, barrier.b, max_newton_steps=2)
    with pytest.raises(ValueError, match="newton_tol must be in"):
        PolytopeBarrier(barrier.A, barrier.b, newton_tol=1.5)
