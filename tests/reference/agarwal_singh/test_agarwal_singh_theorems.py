"""Tests of the theorem functions (reference/agarwal_singh/theorems.py) and the environments.

Numbers are checked against deterministic test vectors (computed
independently of this code) and against the formulas re-derived by hand in the test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.accounting import gaussian_delta
from reference.agarwal_singh import theorems as th
from reference.agarwal_singh.aggregation import nodes_per_leaf, noise_draws_per_release
from reference.agarwal_singh.environments import (
    best_fixed_action,
    cube_signed_basis,
    experts_bernoulli,
    experts_minimax,
    ftl_trap,
    mab_constant_gap,
    mab_switching,
    pseudo_regret_mab,
    regret_full_info,
    single_change_neighbours,
    sphere_drift,
    worst_case_replacement,
)
from reference.agarwal_singh.sets import Cube, L2Ball, LossSet, Simplex
from reference.agarwal_singh.theorems import (
    cor32_parameters,
    cor32_rate_paper,
    cor32_regret_bound,
    factC1_bound,
    factC1_tail_probability,
    factC1_threshold,
    gaussian_output_level_sensitivity,
    gaussian_tree_node_delta,
    lemma42_laplace_scale,
    noise_width_upper_bound,
    thm31_laplace_scale,
    thm31_regret_bound,
    thm34_regret_bound_certified,
    thm34_regret_bound_paper,
    thm35_regret_bound_certified,
    thm35_regret_bound_paper,
    thm35_sigma,
    thm35_sigma_strict,
    thm41_parameters,
    thm41_rate_paper,
    thm41_regret_expression_paper,
    thm45_parameters,
    thm45_rate_paper,
    thm45_regret_bound_certified,
    thm45_regret_expression_paper,
    thmA1_min_sigma,
)

P_REJECT = 1e-6


# --------------------------------------------------------------------------------------------
# Theorem 4.1
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("N", "T", "preset", "eta", "gamma", "ratio"),
    [
        (10, 10**5, "paper", 2.0053e-4, 1.0730e-2, 10.51),
        (2, 10**4, "paper", 9.1260e-4, 8.3255e-3, 8.90),
        (10, 10**5, "proof_consistent", 2.4200e-5, 1.3615e-2, 1.0),
        (2, 10**4, "proof_consistent", 1.3019e-4, 1.0575e-2, 1.0),
    ],
)
def test_thm41_parameters_spec_vectors(
    N: int, T: int, preset: str, eta: float, gamma: float, ratio: float
) -> None:
    p = thm41_parameters(N, T, 1.0, preset=preset)  # type: ignore[arg-type]
    assert p.lam == 1.0  # [0,1] losses: Delta_B = B = 1, both calibrations give 1/eps
    assert p.eta == pytest.approx(eta, rel=2e-4)
    assert p.gamma == pytest.approx(gamma, rel=2e-4)
    assert p.condition_ratio == pytest.approx(ratio, abs=6e-3)


@given(eps=st.floats(0.05, 20.0), N=st.integers(2, 50), T=st.integers(10**3, 10**7))
@settings(max_examples=40)
def test_thm41_paper_gamma_does_not_depend_on_epsilon(eps: float, N: int, T: int) -> None:
    # gamma = eta N sqrt(1 + 2 l^2 ln NT) = sqrt(N ln N / (2T))
    expected = math.sqrt(N * math.log(N) / (2 * T))
    if expected > 1:
        return
    p = thm41_parameters(N, T, eps, preset="paper")
    assert p.gamma == pytest.approx(expected, rel=1e-10)
    assert p.condition_ratio > 1  # the paper's parameters violate the proof's condition


def test_thm41_calibrations_and_validation() -> None:
    strict = thm41_parameters(4, 10**5, 0.5, loss_range="sym")
    paper = thm41_parameters(4, 10**5, 0.5, loss_range="sym", calibration="paper")
    assert strict.lam == pytest.approx(4.0) and strict.eps_effective == pytest.approx(0.5)
    assert paper.lam == pytest.approx(2.0) and paper.eps_effective == pytest.approx(1.0)
    with pytest.raises(ValueError, match=r"gamma = .* must be in \(0, 1\]"):
        thm41_parameters(50, 20, 1.0)
    with pytest.raises(ValueError, match="preset must be"):
        thm41_parameters(2, 10**4, 1.0, preset="tuned")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Delta_B must be <= 2B"):
        lemma42_laplace_scale(1.0, 1.0, 3.0)
    # paper expression by hand (Sec. 4.1 + bad event 1)
    N, T, eta, gamma, lam = 3, 1000, 0.01, 0.1, 2.0
    hand = (
        math.log(N) / eta
        + 2 * eta * T * N * (1 + lam**2 * math.log(N * T) ** 2)
        + 2 * T * gamma
        + 1
    )
    assert thm41_regret_expression_paper(N, T, eta, gamma, lam) == pytest.approx(hand)
    assert thm41_rate_paper(N, T, 2.0) == pytest.approx(
        math.sqrt(N * T * math.log(T) * math.log(N)) / 2
    )


# --------------------------------------------------------------------------------------------
# Fact C.1
# --------------------------------------------------------------------------------------------


@given(N=st.integers(1, 10**4), T=st.integers(1, 10**6))
@settings(max_examples=60)
def test_factC1_exact_tail_is_below_claimed_bound(N: int, T: int) -> None:
    p = factC1_tail_probability(N, T)
    assert 0.0 <= p <= factC1_bound(T) * (1 + 1e-12)


def test_factC1_tail_by_monte_carlo_exact_binomial() -> None:
    N, T, lam, n = 3, 2, 0.8, 100_000
    a = factC1_threshold(lam, N, T)
    assert a == pytest.approx(math.sqrt(10) * lam * math.log(6))
    Z = np.random.default_rng(0).laplace(0.0, lam, size=(n, N))
    k = int((np.abs(Z).max(axis=1) >= a).sum())
    assert stats.binomtest(k, n, factC1_tail_probability(N, T)).pvalue > P_REJECT


# --------------------------------------------------------------------------------------------
# Theorem 4.5
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("T", "eta", "eta_max", "ok"),
    [
        (10**4, 6.195e-3, 2.192e-3, False),
        (10**5, 2.190e-3, 1.784e-3, False),
        (10**6, 7.587e-4, 1.505e-3, True),
    ],
)
def test_thm45_parameters_spec_vectors(T: int, eta: float, eta_max: float, ok: bool) -> None:
    # unit ball (nu = 1, M = 1, ||X||_2 = 1), ||Y||_1 = 1, eps = 1, N = 2, paper lambda = 1
    p = thm45_parameters(2, T, 1.0, nu=1, M=1, X_l2=1, Y_l1=1, calibration="paper", preset="paper")
    assert p.lam == 1.0 and p.eps_effective == pytest.approx(2.0)
    assert p.eta_paper == pytest.approx(eta, rel=3e-4)
    assert p.eta_max == pytest.approx(eta_max, rel=3e-4)
    assert p.condition_holds is ok
    clipped = thm45_parameters(2, T, 1.0, nu=1, M=1, X_l2=1, Y_l1=1, calibration="paper")
    assert clipped.eta == pytest.approx(min(eta, eta_max), rel=3e-4)
    assert clipped.condition_holds and clipped.clipped is (not ok)


def test_thm45_bounds_by_hand() -> None:
    N, T, nu, M, X, lam = 2, 10**6, 1.0, 1.0, 1.0, 1.0
    L = 4 * lam * X * math.sqrt(N) * math.log(N * T)
    eta = 1.0 / (4 * N * (M + L))
    C45 = M**2 + 10 * lam**2 * N * math.log(N * T) ** 2 * X**2
    hand = 4 * eta * T * N**2 * C45 + nu * math.log(T) / eta + 2 * (M + L) + 2 * M
    assert thm45_regret_bound_certified(N, T, nu, M, X, lam, eta) == pytest.approx(hand)
    with pytest.raises(ValueError, match=r"eta must be <= 1/\(4N\(M\+L\)\)"):
        thm45_regret_bound_certified(N, T, nu, M, X, lam, 2 * eta)
    paper = 2 * eta * T * N**2 * (M**2 + lam**2 * N * X**2) + nu * math.log(T) / eta
    paper += 8 * lam * X * math.sqrt(N) * math.log(N * T) + 2 * M
    assert thm45_regret_expression_paper(N, T, nu, M, X, lam, eta) == pytest.approx(paper)
    rate = math.sqrt(T * math.log(T)) * math.sqrt(N**2 * nu * (M**2 + N * X**2 / 0.25))
    assert thm45_rate_paper(N, T, 0.5, nu=nu, M=M, X_l2=X, Y_l1=1.0) == pytest.approx(rate)
    strict = thm45_parameters(2, T, 1.0, nu=1, M=1, X_l2=1, Y_l1=1)
    assert strict.lam == pytest.approx(2.0) and strict.eps_effective == pytest.approx(1.0)


# --------------------------------------------------------------------------------------------
# Gaussian tree (Thm A.1, Thm 3.5)
# --------------------------------------------------------------------------------------------


def test_thm35_sigma_formulas() -> None:
    eps, delta, T, N = 1.0, 1e-5, 1024, 4
    lt = math.log(T)
    # sanity: Thm A.1 minimum sigma for ||Y||_2 = 1 is about 93.2
    assert thmA1_min_sigma(eps, delta, T, 1.0) == pytest.approx(lt * math.log(lt / delta))
    assert thmA1_min_sigma(eps, delta, T, 1.0) == pytest.approx(93.2, abs=0.05)
    regret_branch = 1.0 * math.sqrt(T / (math.sqrt(N) * lt))
    privacy_branch = math.sqrt(N) * lt * math.log(lt / delta)
    assert thm35_sigma(eps, delta, T, N, 1.0) == pytest.approx(max(regret_branch, privacy_branch))
    # with ||Y||_2 = 2 sqrt(N) the paper's sigma is below Thm A.1's requirement
    big = 2 * math.sqrt(N)
    assert thm35_sigma(eps, delta, T, N, big) < thmA1_min_sigma(eps, delta, T, big)
    with pytest.raises(ValueError, match="T must be an integer >= 3"):
        thm35_sigma(eps, delta, 2, N, 1.0)


def test_thm35_strict_sigma_is_the_exact_delta_threshold() -> None:
    eps, delta, T, N = 1.0, 1e-5, 64, 2
    sigma = thm35_sigma_strict(eps, delta, T, N, 1.0, 2.0)
    h = nodes_per_leaf(T)
    assert h == 6
    regret_branch = math.sqrt(T / (math.sqrt(N) * math.log(T)))
    if sigma > regret_branch * (1 + 1e-9):  # privacy branch active: delta(eps) == delta
        assert gaussian_tree_node_delta(eps, sigma=sigma, T=T, Y_l2_diameter=2.0) == pytest.approx(
            delta, rel=1e-6
        )
        assert gaussian_tree_node_delta(eps, sigma=0.99 * sigma, T=T, Y_l2_diameter=2.0) > delta
    mu = math.sqrt(h) * 2.0 / sigma
    assert gaussian_tree_node_delta(eps, sigma=sigma, T=T, Y_l2_diameter=2.0) == gaussian_delta(
        eps, mu=mu
    )


@pytest.mark.parametrize(
    ("T", "view", "expected", "node_level"),
    [
        (16, "actions", 2.7057, 4.0),
        (16, "prefix_sums", 2.8846, 4.4721),
        (17, "actions", 2.6810, 4.4721),
        (64, "actions", 3.3328, 4.8990),
    ],
)
def test_gaussian_output_level_sensitivity_spec_vectors(
    T: int, view: str, expected: float, node_level: float
) -> None:
    # (N = 1, Delta = 2, sigma = 1, worst t0 = 1)
    d_eff, t0 = gaussian_output_level_sensitivity(T, 2.0, 1.0, view)  # type: ignore[arg-type]
    assert d_eff == pytest.approx(expected, abs=1e-4)
    assert t0 == 1
    h = nodes_per_leaf(T, view)  # type: ignore[arg-type]
    assert math.sqrt(h) * 2.0 == pytest.approx(node_level, abs=1e-4)
    assert d_eff < node_level  # post-processing never increases the sensitivity
    # proportional to Delta/sigma
    assert gaussian_output_level_sensitivity(T, 1.0, 4.0, view)[0] == pytest.approx(d_eff / 8)  # type: ignore[arg-type]


def test_thm35_bounds_by_hand() -> None:
    sigma, N, T, X, Y = 3.0, 4, 1000, 2.0, 0.5
    lt = math.log(T)
    paper = sigma * math.sqrt(N * lt) * X + T * X * Y**2 / (2 * sigma * math.sqrt(lt))
    assert thm35_regret_bound_paper(sigma, N, T, X, Y) == pytest.approx(paper)
    s_eff = sigma * math.sqrt(noise_draws_per_release(T))  # K = 10
    assert noise_draws_per_release(T) == 10
    assert thm35_regret_bound_certified(sigma, N, T, X, Y) == pytest.approx(
        s_eff * math.sqrt(N) * X + T * X * Y**2 / (2 * s_eff)
    )


# --------------------------------------------------------------------------------------------
# Theorems 3.1 / 3.4 and Corollary 3.2
# --------------------------------------------------------------------------------------------


@given(D_R=st.floats(0.01, 100.0), G2=st.floats(0.01, 1e5), D=st.floats(0.0, 1e3))
@settings(max_examples=40)
def test_thm34_certified_bound_at_tuned_eta(D_R: float, G2: float, D: float) -> None:
    eta = math.sqrt(D_R / (2 * G2))
    assert thm34_regret_bound_certified(D_R, G2, eta, D) == pytest.approx(
        2 * math.sqrt(2 * D_R * G2) + D, rel=1e-12
    )
    assert thm34_regret_bound_paper(D_R, G2, D) == pytest.approx(math.sqrt(D_R * G2) + D)
    assert thm31_regret_bound(D_R, G2, D) == thm34_regret_bound_paper(D_R, G2, D)


@pytest.mark.parametrize("T", [16, 17, 1024])
def test_cor32_paper_lambdas_are_the_printed_ones(T: int) -> None:
    N, eps = 8, 0.5
    lt = math.log(T)
    printed = {"experts": N * lt / eps, "sphere": math.sqrt(N) * lt / eps, "cube": lt / eps}
    diameters = {"experts": 2 * N, "sphere": 2 * math.sqrt(N), "cube": 2.0}
    h = nodes_per_leaf(T)
    for instance, lam in printed.items():
        paper = cor32_parameters(instance, N, T, eps, calibration="paper")  # type: ignore[arg-type]
        assert paper.lam == pytest.approx(lam)
        assert paper.eps_effective == pytest.approx(h * diameters[instance] / lam)
        strict = cor32_parameters(instance, N, T, eps)  # type: ignore[arg-type]
        assert strict.lam == pytest.approx(diameters[instance] * h / eps)
        assert strict.eps_effective == pytest.approx(eps)
        assert noise_draws_per_release(T) == strict.K
    box = cor32_parameters("experts", N, T, eps, experts_losses="box01")
    assert box.lam == pytest.approx(N * h / eps)  # Delta_1([0,1]^N) = N


@pytest.mark.parametrize("N", [1, 3, 16])
@pytest.mark.parametrize("T", [2**10, 2**16])
def test_table1_general_row_bound(N: int, T: int) -> None:
    """Table 1's general OLO row, explicit: equal to Cor. 3.2's certified bound on the cube (its
    own instance of the row), looser on the sphere (whose width uses ‖·‖₂), and its privacy term
    is 2rNλ√(2K) with λ = Δ₁h/ε: 1/ε, and h√K ≍ log^{3/2} T."""
    eps = 0.5
    cube = th.cor32_parameters("cube", N, T, eps)
    general = th.table1_general_regret_bound(
        T, eps, N=N, D_R=float(N), G2=0.5, loss_l1_diameter=2.0, decision_linf_radius=1.0
    )
    assert general == pytest.approx(th.cor32_regret_bound(cube, T), rel=1e-12)
    sphere = th.cor32_parameters("sphere", N, T, eps)
    assert th.table1_general_regret_bound(
        T, eps, N=N, D_R=1.0, G2=0.5, loss_l1_diameter=2.0 * math.sqrt(N), decision_linf_radius=1.0
    ) >= th.cor32_regret_bound(sphere, T) * (1 - 1e-12)

    def privacy_term(T_: int, e: float) -> float:
        kw = {
            "N": N,
            "D_R": float(N),
            "G2": 0.5,
            "loss_l1_diameter": 2.0,
            "decision_linf_radius": 1.0,
        }
        return th.table1_general_regret_bound(T_, e, **kw) - 2 * math.sqrt(2 * N * 0.5 * T_)  # type: ignore[arg-type]

    assert privacy_term(T, 0.1) / privacy_term(T, 1.0) == pytest.approx(10.0, rel=1e-12)
    h, K = nodes_per_leaf(T), noise_draws_per_release(T)
    assert privacy_term(T, 1.0) == pytest.approx(2 * N * 2.0 * h * math.sqrt(2 * K), rel=1e-12)


def test_cor32_bound_and_rates_by_hand() -> None:
    N, T, eps = 4, 4096, 1.0
    p = cor32_parameters("sphere", N, T, eps)
    eta = math.sqrt(1.0 / (2 * T * 0.5))
    assert p.eta == pytest.approx(eta)
    width = 2 * p.lam * math.sqrt(2 * p.K * N)
    assert cor32_regret_bound(p, T) == pytest.approx(1.0 / eta + 2 * eta * T * 0.5 + width)
    assert noise_width_upper_bound("experts", 3, 2, 1.0) == pytest.approx(
        2 * 2 * (1 + 1 / 2 + 1 / 3)
    )
    lt = math.log(T)
    assert cor32_rate_paper("experts", N, T, eps) == pytest.approx(
        math.sqrt(T * math.log(N)) + N * lt**2 * math.log(N)
    )
    assert cor32_rate_paper("cube", N, T, eps) == pytest.approx(math.sqrt(N * T) + N * lt**2)
    assert thm31_laplace_scale(eps, T, LossSet("l1_ball", N)) == pytest.approx(2 * 12 / eps)


# --------------------------------------------------------------------------------------------
# Environments and regret
# --------------------------------------------------------------------------------------------


def test_environment_generators_stay_in_their_loss_sets() -> None:
    rng = np.random.default_rng(0)
    N, T = 5, 400
    mini = experts_minimax(N, T)
    assert LossSet("box01", N).contains(mini)
    assert mini[0, 0] == pytest.approx(0.5 - math.sqrt(math.log(N) / T))
    assert LossSet("l2_ball", N).contains(sphere_drift(N, T, 0.2, rng))
    cube = cube_signed_basis(N, T, 0.1, rng)
    assert LossSet("l1_ball", N).contains(cube)
    assert np.all(np.abs(cube).sum(axis=1) == 1.0)
    bern = experts_bernoulli(np.array([0.3, 0.5]), T, rng)
    assert set(np.unique(bern)) <= {0.0, 1.0}
    trap = ftl_trap(7)
    np.testing.assert_array_equal(trap[:3], [[0.5, 0.0], [0.0, 1.0], [1.0, 0.0]])
    switching = mab_switching(3, 9, 0.2, [3, 6])
    np.testing.assert_array_equal(np.argmin(switching, axis=1), [0, 0, 0, 1, 1, 1, 2, 2, 2])
    gap = mab_constant_gap(3, 4)
    np.testing.assert_array_equal(gap[0], [0.1, 0.5, 0.5])
    with pytest.raises(ValueError, match="T must be >= 4 ln N"):
        experts_minimax(100, 5)
    with pytest.raises(ValueError, match="switches must be strictly increasing"):
        mab_switching(2, 10, 0.1, [5, 5])


def test_cube_signed_basis_sign_frequencies_exact_binomial() -> None:
    T, bias = 50_000, 0.1
    losses = cube_signed_basis(2, T, bias, np.random.default_rng(1))
    # coordinate j = 1 (1-based, odd): P(+1) = 0.4; j = 2 (even): 0.6
    for j, p_plus in ((0, 0.4), (1, 0.6)):
        signs = losses[losses[:, j] != 0, j]
        assert stats.binomtest(int((signs > 0).sum()), signs.size, p_plus).pvalue > P_REJECT / 2


def test_neighbours_realise_the_diameter() -> None:
    for kind in ("linf_ball", "l2_ball", "l1_ball", "box01"):
        Y = LossSet(kind, 4)
        a, b = worst_case_replacement(Y)
        assert Y.contains(np.stack([a, b]))
        assert float(np.abs(a - b).sum()) == pytest.approx(Y.diameter(1))
    base = np.zeros((6, 2))
    L, Lp = single_change_neighbours(base, 3, np.array([1.0, -1.0]))
    assert np.flatnonzero(np.any(Lp != L, axis=1)).tolist() == [2]
    assert np.all(base == 0)  # input untouched
    with pytest.raises(ValueError, match=r"t0 must be in \[1, T\]"):
        single_change_neighbours(base, 7, np.zeros(2))


def test_regret_against_brute_force_best_fixed_action() -> None:
    rng = np.random.default_rng(2)
    losses = rng.uniform(-1, 1, size=(30, 3))
    for X, candidates in (
        (Simplex(3), np.eye(3)),
        (Cube(3), np.array([[a, b, c] for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)], float)),
    ):
        actions = np.tile(X.linear_argmin(rng.normal(size=3)), (30, 1))
        brute = float(np.sum(actions * losses) - np.min(candidates @ losses.sum(axis=0)))
        assert float(regret_full_info(actions, losses, X)) == pytest.approx(brute)
        best = best_fixed_action(losses, X)
        assert float(best @ losses.sum(axis=0)) == pytest.approx(
            float(np.min(candidates @ losses.sum(axis=0)))
        )
    ball = L2Ball(3)
    actions = np.zeros((30, 3))
    assert float(regret_full_info(actions, losses, ball)) == pytest.approx(
        float(np.linalg.norm(losses.sum(axis=0)))
    )
    probs = np.full((30, 3), 1 / 3)
    assert float(pseudo_regret_mab(probs, losses)) == pytest.approx(
        float(losses.sum() / 3 - losses.sum(axis=0).min())
    )
    with pytest.raises(ValueError, match="actions must have shape"):
        regret_full_info(actions[:5], losses, ball)
