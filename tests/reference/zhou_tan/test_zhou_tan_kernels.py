"""Tests of ``reference.zhou_tan.kernels`` (Zhou & Tan, kernels Sec. 2, ``γ_t`` Sec. 2).

Checks against independent sources: closed forms of the Matérn kernel written out here, a direct
``scipy.special.kv`` evaluation of the paper's formula, brute-force maximisation of the information
gain on a tiny domain, the chain rule of ``ln det`` computed with the exact GP posterior, and the
independently computed reference values (not by this code).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special

from reference.zhou_tan import kernels as kn
from reference.zhou_tan.gp import gp_posterior_on_domain

PROPS = settings(max_examples=40, deadline=None)


def _grid() -> np.ndarray:
    return kn.unit_grid(100)


def test_unit_grid_is_paper_grid() -> None:
    X = kn.unit_grid(100)
    assert X.shape == (100, 1)
    assert X[0, 0] == pytest.approx(0.01) and X[-1, 0] == 1.0
    assert np.allclose(np.diff(X[:, 0]), 0.01)


@pytest.mark.parametrize("ell", [0.05, 0.2, 1.0])
def test_matern_half_is_exponential(ell: float) -> None:
    X = _grid()
    s = np.abs(X - X.T)
    assert np.allclose(kn.matern_kernel(X, X, ell, 0.5), np.exp(-s / ell), atol=1e-13)


@pytest.mark.parametrize("ell", [0.05, 0.2, 1.0])
def test_matern_three_and_five_halves_closed_forms(ell: float) -> None:
    X = _grid()
    r = np.abs(X - X.T) / ell
    k32 = (1 + math.sqrt(3) * r) * np.exp(-math.sqrt(3) * r)
    k52 = (1 + math.sqrt(5) * r + 5 * r**2 / 3) * np.exp(-math.sqrt(5) * r)
    assert np.allclose(kn.matern_kernel(X, X, ell, 1.5), k32, atol=1e-13)
    assert np.allclose(kn.matern_kernel(X, X, ell, 2.5), k52, atol=1e-13)
    for nu in (0.5, 1.5, 2.5):
        assert np.allclose(
            kn.matern_closed_form(X, X, ell, nu), kn.matern_kernel(X, X, ell, nu), atol=1e-13
        )


@given(
    nu=st.floats(0.2, 8.0),
    ell=st.floats(0.05, 2.0),
    s=st.floats(1e-3, 3.0),
)
@PROPS
def test_matern_matches_direct_bessel_formula(nu: float, ell: float, s: float) -> None:
    """The paper's formula evaluated literally with ``scipy.special.kv`` and ``gamma`` (Sec. 2)."""
    z = s * math.sqrt(2 * nu) / ell
    direct = 2 ** (1 - nu) / special.gamma(nu) * z**nu * special.kv(nu, z)
    got = kn.matern_kernel(np.array([[0.0]]), np.array([[s]]), ell, nu)[0, 0]
    assert got == pytest.approx(direct, rel=1e-10, abs=1e-300)


def test_matern_large_nu_tends_to_se() -> None:
    X = _grid()
    diff = np.max(np.abs(kn.matern_kernel(X, X, 0.2, 50.0) - kn.se_kernel(X, X, 0.2)))
    assert diff < 1e-2
    with pytest.raises(ValueError, match="overflows"):
        kn.matern_kernel(X, X, 0.2, 400.0)


def test_matern_tiny_distances_are_one() -> None:
    """K_ν overflows below z ≈ 1e-123 (ν = 2.5); the kernel there is 1 to double precision."""
    X = np.array([[0.0], [1e-150], [1e-5]])
    K = kn.matern_kernel(X, X, 1.0, 2.5)
    assert K[0, 1] == 1.0
    assert K[0, 2] == pytest.approx(kn.matern_closed_form(X, X, 1.0, 2.5)[0, 2], rel=1e-14)


def test_se_kernel_values() -> None:
    X = np.array([[0.0, 0.0], [0.3, 0.4]])  # distance 0.5
    K = kn.se_kernel(X, X, 0.5)
    assert K[0, 1] == pytest.approx(math.exp(-0.25 / 0.5))
    assert np.allclose(np.diag(K), 1.0)


@given(
    pts=st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=25),
    ell=st.floats(0.05, 1.0),
    nu=st.sampled_from([0.5, 1.5, 2.5, 3.7]),
)
@PROPS
def test_gram_matrices_are_psd_with_unit_diagonal(
    pts: list[tuple[float, float]], ell: float, nu: float
) -> None:
    X = np.asarray(pts)
    for K in (kn.se_kernel(X, X, ell), kn.matern_kernel(X, X, ell, nu)):
        assert np.allclose(K, K.T)
        assert np.allclose(np.diag(K), 1.0)
        assert np.linalg.eigvalsh(K)[0] >= -1e-8 * len(pts)
        assert np.all(K <= 1.0 + 1e-12)


def test_kernel_input_validation() -> None:
    X = _grid()
    with pytest.raises(ValueError, match="lengthscale"):
        kn.se_kernel(X, X, 0.0)
    with pytest.raises(ValueError, match="nu"):
        kn.matern_kernel(X, X, 0.2, -1.0)
    with pytest.raises(ValueError, match="columns"):
        kn.se_kernel(X, np.zeros((3, 2)), 0.2)
    with pytest.raises(ValueError, match="nu"):
        kn.matern_closed_form(X, X, 0.2, 3.5)


def test_linear_kernel() -> None:
    X = np.array([[1.0, 2.0], [3.0, -1.0]])
    assert np.array_equal(kn.linear_kernel(X, X), X @ X.T)


# --------------------------------------------------------------------------------------------
# Information gain


def test_gamma_rates() -> None:
    T = math.e**2
    assert kn.gamma_rate(T, "se", 1) == pytest.approx(2.0**2)
    assert kn.gamma_rate(T, "linear", 3) == pytest.approx(6.0)
    # Matérn, d = 1, ν = 2.5: exponent 2/(5 + 2) = 2/7.
    assert kn.gamma_rate(T, "matern", 1, 2.5) == pytest.approx(T ** (2 / 7) * 2.0)
    with pytest.raises(ValueError, match="nu"):
        kn.gamma_rate(T, "matern", 1)
    with pytest.raises(ValueError, match="T"):
        kn.gamma_rate(1.0, "se", 1)


def test_information_gain_chain_rule_matches_logdet() -> None:
    """½ Σ ln(1 + σ²_{s−1}(x_s)/λ) = ½ ln det(I + K_t/λ) (exact identity)."""
    rng = np.random.default_rng(3)
    X = _grid()
    K = kn.matern_kernel(X, X, 0.2, 2.5)
    for lam in (0.5, 1.0, 2.0):
        arms = rng.integers(0, 100, size=30)
        chain = 0.0
        for s in range(arms.size):
            _, var = gp_posterior_on_domain(K, arms[:s], np.zeros(s), lam)
            chain += 0.5 * math.log1p(var[arms[s]] / lam)
        direct = kn.information_gain(K[np.ix_(arms, arms)], lam)
        assert chain == pytest.approx(direct, rel=1e-10)


def test_certified_bound_brackets_brute_force_gamma() -> None:
    """Tiny domain: γ_t by enumerating all multisets; G_t ≤ γ_t ≤ γ̄_t."""
    X = np.array([[0.0], [0.15], [0.5], [0.9]])
    K = kn.se_kernel(X, X, 0.3)
    lam = 0.7
    T = 4
    G = kn.greedy_info_gain_curve(K, T, lam)
    cert = kn.certified_gamma_upper(K, T, lam)
    spec = kn.spectral_info_gain_bound(K, T, lam)
    for t in range(1, T + 1):
        gamma_t = max(
            kn.information_gain(K[np.ix_(A, A)], lam)
            for A in itertools.combinations_with_replacement(range(4), t)
        )
        assert G[t - 1] <= gamma_t + 1e-12
        assert gamma_t <= cert[t - 1] + 1e-12
        assert gamma_t <= spec[t - 1] + 1e-12
        assert gamma_t <= G[t - 1] / (1 - math.exp(-1)) + 1e-12


def test_random_sequences_below_certified_bound() -> None:
    rng = np.random.default_rng(11)
    X = _grid()
    K = kn.se_kernel(X, X, 0.2)
    cert = kn.certified_gamma_upper(K, 200, 1.0)
    for _ in range(5):
        arms = rng.integers(0, 100, size=200)
        for t in (1, 10, 50, 200):
            assert kn.information_gain(K[np.ix_(arms[:t], arms[:t])], 1.0) <= cert[t - 1]


def test_spec_reference_values() -> None:
    """Reference values: grid {0.01..1}, l = 0.2, λ = 1 (given to 2 decimals)."""
    X = _grid()
    se = kn.se_kernel(X, X, 0.2)
    mat = kn.matern_kernel(X, X, 0.2, 2.5)
    G_se = kn.greedy_info_gain_curve(se, 1000, 1.0)
    C_se = kn.certified_gamma_upper(se, 1000, 1.0)
    G_m = kn.greedy_info_gain_curve(mat, 1000, 1.0)
    C_m = kn.certified_gamma_upper(mat, 1000, 1.0)
    assert (round(G_se[99], 2), round(G_se[999], 2)) == (7.41, 14.47)
    assert (round(C_se[99], 2), round(C_se[999], 2)) == (11.72, 22.89)
    assert (round(G_m[99], 2), round(G_m[999], 2)) == (8.46, 18.37)
    assert (round(C_m[99], 2), round(C_m[999], 2)) == (13.38, 29.05)


def test_greedy_curve_monotone_and_concave_increments() -> None:
    X = _grid()
    G = kn.greedy_info_gain_curve(kn.se_kernel(X, X, 0.2), 300, 1.0)
    inc = np.diff(np.concatenate([[0.0], G]))
    assert np.all(inc > 0)
    assert np.all(np.diff(inc) <= 1e-12)  # greedy gains are non-increasing (submodularity)
