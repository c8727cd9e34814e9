"""Tests of the full-information learners (Alg. 1, one-shot twin, Alg. 3), sets and regularisers.

Closed forms are checked against a generic solver (scipy SLSQP) and first-order optimality; linear
oracles and support functions against brute force over vertices; action laws against exact
probabilities with binomial tests at p < 1e-6 (Bonferroni over rounds).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import optimize, stats

from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import laplace_sum_sf, noise_draws_per_release
from reference.agarwal_singh.environments import (
    experts_minimax,
    ftl_trap,
    regret_full_info,
)
from reference.agarwal_singh.full_info import (
    OneShotFTRL,
    PrivateFTPL,
    PrivateFTRL,
    run_full_info,
)
from reference.agarwal_singh.sets import (
    Cube,
    L2Ball,
    LossSet,
    NegativeEntropySimplex,
    Simplex,
    SquaredNormBall,
    SquaredNormCube,
    default_learning_rate,
)
from reference.agarwal_singh.theorems import (
    cor32_parameters,
    cor32_regret_bound,
    noise_width_monte_carlo,
    noise_width_upper_bound,
)
from reference.noise import GaussianVectorNoise, LaplaceNoise, ZeroNoise

P_REJECT = 1e-6
finite = st.floats(-20.0, 20.0, allow_nan=False)


def _solve_numerically(objective, x0: FloatArray, constraints, bounds=None) -> FloatArray:  # type: ignore[no-untyped-def]
    res = optimize.minimize(
        objective,
        x0,
        method="SLSQP",
        constraints=constraints,
        bounds=bounds,
        options={"ftol": 1e-14, "maxiter": 500},
    )
    return np.asarray(res.x)


# --------------------------------------------------------------------------------------------
# Regulariser closed forms
# --------------------------------------------------------------------------------------------


@given(theta=hnp.arrays(np.float64, 4, elements=finite), eta=st.floats(0.01, 2.0))
@settings(max_examples=30)
def test_negative_entropy_step_is_the_constrained_minimiser(theta: FloatArray, eta: float) -> None:
    reg = NegativeEntropySimplex(4)
    x = reg.argmin(theta, eta)
    assert Simplex(4).contains(x, tol=1e-12)
    # stationarity: eta*theta_i + log x_i + 1 is constant across coordinates (KKT with x > 0)
    grad = eta * theta + np.log(x) + 1.0
    assert np.ptp(grad) < 1e-9

    def objective(z: FloatArray) -> float:
        return float(eta * z @ theta + np.sum(z * np.log(np.maximum(z, 1e-300))))

    z = _solve_numerically(
        objective,
        np.full(4, 0.25),
        [{"type": "eq", "fun": lambda z: z.sum() - 1.0}],
        bounds=[(1e-12, 1.0)] * 4,
    )
    z = np.clip(z, 1e-300, None) / np.clip(z, 1e-300, None).sum()  # back onto the simplex
    assert objective(x) <= objective(z) + 1e-9


@given(theta=hnp.arrays(np.float64, 3, elements=finite), eta=st.floats(0.01, 2.0))
@settings(max_examples=30)
def test_ball_step_is_projection_and_minimiser(theta: FloatArray, eta: float) -> None:
    reg = SquaredNormBall(3)
    x = reg.argmin(theta, eta)
    assert L2Ball(3).contains(x, tol=1e-12)

    def objective(z: FloatArray) -> float:
        return float(eta * z @ theta + z @ z)

    z = _solve_numerically(objective, np.zeros(3), [{"type": "ineq", "fun": lambda z: 1.0 - z @ z}])
    z = z / max(1.0, float(np.linalg.norm(z)))  # SLSQP may end slightly outside the ball
    assert objective(x) <= objective(z) + 1e-9
    # random feasible points never beat it
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(200, 3))
    pts *= (rng.random((200, 1)) ** (1 / 3)) / np.linalg.norm(pts, axis=1, keepdims=True)
    assert objective(x) <= min(objective(p) for p in pts) + 1e-12


@given(theta=hnp.arrays(np.float64, (2, 3), elements=finite), eta=st.floats(0.01, 2.0))
@settings(max_examples=30)
def test_cube_step_is_coordinatewise_clip(theta: FloatArray, eta: float) -> None:
    reg = SquaredNormCube(3)
    x = reg.argmin(theta, eta)  # batched over the leading axis
    for row_theta, row_x in zip(theta, x, strict=True):
        for ti, xi in zip(row_theta, row_x, strict=True):
            # 1-d minimiser of eta*t*x + x^2 on [-1, 1], by scalar search
            best = optimize.minimize_scalar(
                lambda v, ti=ti: eta * ti * v + v * v,
                bounds=(-1, 1),
                method="bounded",
                options={"xatol": 1e-12},
            ).x
            assert xi == pytest.approx(best, abs=1e-6)


def test_regulariser_constants() -> None:
    # D_R = max R - min R over X, checked at the extreme points
    for N in (2, 5):
        ent = NegativeEntropySimplex(N)
        assert (
            pytest.approx(float(ent.value(np.eye(N)[0]) - ent.value(np.full(N, 1 / N)))) == ent.D_R
        )
        ball = SquaredNormBall(N)
        e1 = np.eye(N)[0]
        assert pytest.approx(float(ball.value(e1) - ball.value(np.zeros(N)))) == ball.D_R
        cube = SquaredNormCube(N)
        assert pytest.approx(float(cube.value(np.ones(N)) - cube.value(np.zeros(N)))) == cube.D_R
    # G^2 = max_x l^T (Hess R(x))^{-1} l: entropy Hess = diag(1/x) -> max_x sum x_i l_i^2
    loss = np.array([0.3, -0.9, 0.5])
    assert float(NegativeEntropySimplex(3).dual_local_norm_sq(loss)) == pytest.approx(0.81)
    assert float(SquaredNormBall(3).dual_local_norm_sq(loss)) == pytest.approx(loss @ loss / 2)
    assert default_learning_rate(math.log(2), 100, 1.0) == pytest.approx(
        math.sqrt(math.log(2) / 200)
    )


# --------------------------------------------------------------------------------------------
# Decision and loss sets
# --------------------------------------------------------------------------------------------


@given(c=hnp.arrays(np.float64, 3, elements=finite))
@settings(max_examples=40)
def test_linear_oracles_and_support_against_vertices(c: FloatArray) -> None:
    simplex_vertices = np.eye(3)
    cube_vertices = np.array(list(itertools.product([-1.0, 1.0], repeat=3)))
    for X, vertices in ((Simplex(3), simplex_vertices), (Cube(3), cube_vertices)):
        x = X.linear_argmin(c)
        assert X.contains(x)
        assert float(c @ x) == pytest.approx(float(np.min(vertices @ c)), abs=1e-12)
        assert float(X.support(c)) == pytest.approx(float(np.max(vertices @ c)), abs=1e-12)
    ball = L2Ball(3)
    x = ball.linear_argmin(c)
    assert ball.contains(x, tol=1e-12)
    assert float(c @ x) == pytest.approx(-float(np.linalg.norm(c)), abs=1e-9)
    assert float(ball.support(c)) == pytest.approx(float(np.linalg.norm(c)))


def test_loss_set_radii_and_diameters_against_extreme_points() -> None:
    N = 3
    extreme = {
        "linf_ball": np.array(list(itertools.product([-1.0, 1.0], repeat=N))),
        "box01": np.array(list(itertools.product([0.0, 1.0], repeat=N))),
        "l1_ball": np.vstack([np.eye(N), -np.eye(N)]),
    }
    for kind, pts in extreme.items():
        Y = LossSet(kind, N)  # type: ignore[arg-type]
        assert Y.contains(pts)
        for p in (1, 2, math.inf):
            assert Y.norm_radius(p) == pytest.approx(np.max(np.linalg.norm(pts, ord=p, axis=1)))
            diffs = pts[:, None, :] - pts[None, :, :]
            assert Y.diameter(p) == pytest.approx(np.max(np.linalg.norm(diffs, ord=p, axis=2)))
        assert Y.coordinate_range == pytest.approx(np.ptp(pts[:, 0]))
    sphere = LossSet("l2_ball", N)
    assert sphere.norm_radius(1) == pytest.approx(math.sqrt(N))  # at 1/sqrt(N) * ones
    assert sphere.diameter(1) == pytest.approx(2 * math.sqrt(N))
    assert not sphere.contains(np.ones((1, N)))
    with pytest.raises(ValueError, match="kind must be"):
        LossSet("l3_ball", 2)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="p must be 1, 2 or inf"):
        sphere.norm_radius(3)


# --------------------------------------------------------------------------------------------
# Algorithm 1 and its one-shot twin
# --------------------------------------------------------------------------------------------


def test_noise_free_private_ftrl_is_exponential_weights() -> None:
    T, N, eta = 30, 3, 0.4
    losses = np.random.default_rng(5).uniform(0, 1, size=(T, N))
    learner = PrivateFTRL(
        NegativeEntropySimplex(N), eta, ZeroNoise((N,)), T, np.random.default_rng(0)
    )
    run = run_full_info(learner, losses)
    for t in range(T):
        cum = losses[:t].sum(axis=0)
        w = np.array([math.exp(-eta * c) for c in cum])
        np.testing.assert_allclose(run.actions[t], w / w.sum(), rtol=1e-12)
    incurred = sum(float(losses[t] @ run.actions[t]) for t in range(T))
    assert float(run.regret) == pytest.approx(incurred - float(losses.sum(axis=0).min()), rel=1e-12)


def test_private_ftrl_uses_the_previous_noisy_prefix() -> None:
    # the action at round t depends only on l_1..l_{t-1}: changing l_t leaves x_1..x_t unchanged
    T, N = 12, 2
    base = np.random.default_rng(6).uniform(-1, 1, size=(T, N))
    other = base.copy()
    other[6] = -base[6]
    acts = []
    for losses in (base, other):
        learner = PrivateFTRL(
            SquaredNormCube(N), 0.3, LaplaceNoise((N,), 1.0), T, np.random.default_rng(7)
        )
        acts.append(run_full_info(learner, losses).actions)
    np.testing.assert_array_equal(acts[0][:7], acts[1][:7])
    assert not np.array_equal(acts[0][7:], acts[1][7:])


def test_determinism_and_validation() -> None:
    losses = experts_minimax(3, 64)

    def run(seed: int) -> FloatArray:
        lr = PrivateFTRL(
            NegativeEntropySimplex(3), 0.2, LaplaceNoise((3,), 2.0), 64, np.random.default_rng(seed)
        )
        return run_full_info(lr, losses).actions

    np.testing.assert_array_equal(run(1), run(1))
    assert not np.array_equal(run(1), run(2))
    with pytest.raises(ValueError, match="eta must be in"):
        PrivateFTRL(NegativeEntropySimplex(3), 0.0, ZeroNoise((3,)), 4, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"noise\.shape must end with the dimension N=3"):
        PrivateFTRL(NegativeEntropySimplex(3), 0.1, ZeroNoise((2,)), 4, np.random.default_rng(0))
    learner = PrivateFTRL(
        NegativeEntropySimplex(3), 0.1, ZeroNoise((3,)), 4, np.random.default_rng(0)
    )
    checked = PrivateFTRL(
        NegativeEntropySimplex(3),
        0.1,
        ZeroNoise((3,)),
        4,
        np.random.default_rng(0),
        loss_set=LossSet("box01", 3),
    )
    checked.observe(np.array([0.0, 1.0, 0.5]))
    with pytest.raises(ValueError, match="loss must lie in the declared loss set"):
        checked.observe(np.array([0.0, 1.5, 0.5]))
    with pytest.raises(ValueError, match=r"losses must have shape \(any, 3\)"):
        run_full_info(learner, np.zeros((4, 2)))


def _prob_first_expert_above(
    t: int, losses: FloatArray, K: int, lam: float, eta: float, a: float
) -> float:
    """P(x_t(1) > logistic(eta a)) for 2 experts and negative-entropy FTRL: x_t(1) =
    logistic(eta (Z(2) - Z(1) + C)), C = sum_{s<t}(l_s(2) - l_s(1)); Z(2) - Z(1) is the sum of 2K
    i.i.d. Laplace(lam) (symmetric), so the probability is P(W_{2K} > a - C)."""
    C = float(losses[: t - 1, 1].sum() - losses[: t - 1, 0].sum())
    return laplace_sum_sf(a - C, 2 * K, lam)


def _count_above(actions: FloatArray, eta: float, a: float) -> int:
    return int((actions[:, 0] > 1.0 / (1.0 + math.exp(-eta * a))).sum())


@pytest.mark.parametrize("learner_kind", ["private", "one_shot"])
def test_eq1_action_law_of_private_ftrl_and_one_shot_twin(learner_kind: str) -> None:
    # Eq. (1) (proof of Thm 3.4): x_t and x_hat_t have the same law for every t -- the law of the
    # FTRL step at sum_{s<t} l_s + (sum of K Laplace draws).  Exact binomial test per round.
    T, R, lam, eta = 16, 20_000, 2.0, 0.5
    K = noise_draws_per_release(T)
    losses = np.tile([0.6, 0.4], (T, 1))
    noise = LaplaceNoise((R, 2), lam)
    rng = np.random.default_rng(21 if learner_kind == "private" else 22)
    learner: PrivateFTRL | OneShotFTRL
    if learner_kind == "private":
        learner = PrivateFTRL(NegativeEntropySimplex(2), eta, noise, T, rng)
    else:
        learner = OneShotFTRL(NegativeEntropySimplex(2), eta, noise, T, rng)
    run = run_full_info(learner, losses)
    a = 2.0 * lam * math.sqrt(K)
    pvalues = []
    for t in range(1, T + 1):
        k = _count_above(run.actions[t - 1], eta, a)
        pvalues.append(
            stats.binomtest(k, R, _prob_first_expert_above(t, losses, K, lam, eta, a)).pvalue
        )
    assert min(pvalues) > P_REJECT / T


def test_eq1_fails_without_padding_negative_control() -> None:
    T, R, lam, eta = 16, 20_000, 2.0, 0.5
    K = noise_draws_per_release(T)
    losses = np.tile([0.6, 0.4], (T, 1))
    learner = PrivateFTRL(
        NegativeEntropySimplex(2),
        eta,
        LaplaceNoise((R, 2), lam),
        T,
        np.random.default_rng(23),
        pad=False,
    )
    run = run_full_info(learner, losses)
    t = 2  # x_2 uses L~_1 = one node only (popcount 1 < K = 4)
    a = 2.0 * lam * math.sqrt(K)
    k = _count_above(run.actions[t - 1], eta, a)
    p = _prob_first_expert_above(t, losses, K, lam, eta, a)
    assert stats.binomtest(k, R, p).pvalue < P_REJECT


@pytest.mark.parametrize("instance", ["experts", "sphere", "cube"])
def test_certified_cor32_bound_holds_on_ftl_hard_sequences(instance: str) -> None:
    # Mean regret over R replicates vs the certified bound; Hoeffding upper bound of the mean
    # at level 1e-6 (per-run regret lies in [-range, range] with range = 2 T max|<l,x>|).
    N, T, R = 2, 128, 400
    params = cor32_parameters(instance, N, T, 1.0)  # type: ignore[arg-type]
    if instance == "experts":
        losses = ftl_trap(T)
    elif instance == "sphere":
        losses = np.array([[(-1.0) ** t, 0.0] for t in range(T)]) * 0.9
        losses[0] *= 0.5
    else:
        losses = np.array([[(-1.0) ** t * 0.5, 0.5] for t in range(T)])
    learner = PrivateFTRL(
        params.regularizer,
        params.eta,
        LaplaceNoise((R, N), params.lam),
        T,
        np.random.default_rng(31),
    )
    regret = run_full_info(learner, losses).regret
    bound = cor32_regret_bound(params, T)
    M = max(1.0, float(np.max(np.abs(losses))) * params.regularizer.decision_set.radius(1))
    half_width = 2 * T * M * math.sqrt(math.log(1 / P_REJECT) / (2 * R))
    assert float(regret.mean()) - half_width <= bound
    # and the empirical mean is far below (the bound is not vacuous here): informational sanity
    assert float(regret.mean()) < bound


def test_noise_width_closed_forms_dominate_monte_carlo() -> None:
    rng = np.random.default_rng(41)
    N, K, lam = 4, 5, 1.3
    for instance, X in (("experts", Simplex(N)), ("sphere", L2Ball(N)), ("cube", Cube(N))):
        mean, ucb = noise_width_monte_carlo(X, LaplaceNoise((N,), lam), K, rng, n=4000, alpha=1e-6)
        lower = 2 * mean - ucb  # symmetric normal-approximation lower bound at the same level
        assert lower <= noise_width_upper_bound(instance, N, K, lam)  # type: ignore[arg-type]
    # cube: 2 E||Z||_1 = 2 N E|W| exactly; E|W| = 2 * int_0^inf P(W > a) da
    from scipy import integrate

    e_abs = 2 * integrate.quad(lambda a: laplace_sum_sf(a, K, lam), 0, np.inf)[0]
    mean, ucb = noise_width_monte_carlo(
        Cube(N), LaplaceNoise((N,), lam), K, rng, n=4000, alpha=1e-6
    )
    assert 2 * mean - ucb <= 2 * N * e_abs <= ucb


# --------------------------------------------------------------------------------------------
# Algorithm 3 (FTPL)
# --------------------------------------------------------------------------------------------


def test_ftpl_action_law_on_interval_exact_binomial() -> None:
    # X = [-1, 1]: x_t = -sign(L~_{t-1}) with L~_{t-1} ~ N(sum_{s<t} l_s, K sigma^2)
    T, R, sigma = 8, 20_000, 1.5
    K = noise_draws_per_release(T)
    losses = np.full((T, 1), 0.4)
    learner = PrivateFTPL(Cube(1), GaussianVectorNoise((R, 1), sigma), T, np.random.default_rng(51))
    run = run_full_info(learner, losses)
    pvalues = []
    for t in range(1, T + 1):
        p_minus = float(stats.norm.cdf(0.4 * (t - 1) / (sigma * math.sqrt(K))))  # P(L~ > 0)
        k = int((run.actions[t - 1, :, 0] == -1.0).sum())
        pvalues.append(stats.binomtest(k, R, p_minus).pvalue)
    assert min(pvalues) > P_REJECT / T
    assert Cube(1).contains(run.actions)


def test_ftpl_plays_vertices_and_regret_matches_definition() -> None:
    T, N = 20, 3
    losses = np.random.default_rng(52).uniform(0, 1, size=(T, N))
    learner = PrivateFTPL(Simplex(N), GaussianVectorNoise((N,), 0.5), T, np.random.default_rng(53))
    run = run_full_info(learner, losses)
    assert set(np.unique(run.actions)) <= {0.0, 1.0}
    assert np.all(run.actions.sum(axis=1) == 1.0)
    direct = float(np.sum(run.actions * losses) - losses.sum(axis=0).min())
    assert float(run.regret) == pytest.approx(direct)
    assert float(regret_full_info(run.actions, losses, Simplex(N))) == pytest.approx(direct)
