"""Tests of ``reference.shariff_sheffet.bounds`` (Shariff & Sheffet, NeurIPS 2018).

Sources: the paper (Sec. 4.1-4.2, Prop. 4 and its restatement in App. B, the proofs of Thms 5 and 6
in App. B, the proof of Prop. 9 in App. C, Claim 14 / Cor. 15) and the independently computed
golden table of the implementation notes (``proofs_notes/shariff_sheffet/``).

Three kinds of checks:

* hand computations: every formula is re-derived *in the test*, step by step with :mod:`math`,
  for the tiny configuration ``n = 1000, d = 2, ε = 1, δ = 0.1, α = 1/n, L̃ = √2`` (and ``L = S =
  σ = B = 1``);
* golden constants from an independent derivation, not outputs of this
  code -- to 5 significant digits (``rel = 1e-5``) for the three configurations;
* identities, monotonicity and input validation, partly with hypothesis.
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reference.shariff_sheffet import bounds as bd
from reference.shariff_sheffet.bounds import RegularizerBounds

# Settings shared by the property tests: deterministic example generation, no per-example deadline.
PROPS = settings(deadline=None, max_examples=60, derandomize=True, database=None)

REL = 1e-12  # agreement between a hand computation and the code (same formula, float rounding)


# ------------------------------------------------------------------------------------------------
# Tiny configuration, computed by hand step by step
# ------------------------------------------------------------------------------------------------

N_TINY = 1000
D_TINY = 2
EPS = 1.0
DELTA = 0.1
ALPHA_TINY = 1.0 / N_TINY
L_TILDE = math.sqrt(2.0)  # L̃² = L² + B̃² = 1 + 1
L_TILDE_SQ = 2.0


def test_tree_depth_tiny_by_hand() -> None:
    # m = 1 + ceil(log2 1000); 2^9 = 512 < 1000 <= 1024 = 2^10, so ceil(log2 1000) = 10 and m = 11.
    assert 2**9 < N_TINY <= 2**10
    assert bd.tree_depth(N_TINY) == 1 + 10 == 11


def test_node_privacy_tiny_by_hand() -> None:
    m = 11
    # ε0 = ε / sqrt(8 m ln(2/δ)) = 1 / sqrt(88 · ln 20) = 1 / sqrt(88 · 2.995732) ≈ 0.0615896
    ln_2_over_delta = math.log(2.0 / DELTA)
    eps0 = EPS / math.sqrt(8.0 * m * ln_2_over_delta)
    assert eps0 == pytest.approx(0.0615896, rel=1e-5)
    # Wishart: δ0 = δ / (2m) = 0.1 / 22 ≈ 0.00454545; Gaussian: δ0 = δ/2 = 0.05 (Sec. 4.2)
    e_w, d_w = bd.wishart_node_privacy(EPS, DELTA, m)
    assert e_w == pytest.approx(eps0, rel=REL)
    assert d_w == pytest.approx(DELTA / (2.0 * m), rel=REL)
    assert d_w == pytest.approx(0.1 / 22.0, rel=REL)
    e_g, d_g = bd.gaussian_node_privacy(EPS, DELTA, m)
    assert e_g == pytest.approx(eps0, rel=REL)
    assert d_g == pytest.approx(0.05, rel=REL)


def test_wishart_k_tiny_by_hand() -> None:
    d, m = D_TINY, 11
    # k = d + 1 + ceil(224 · m · ε⁻² · ln(8m/δ) · ln(2/δ))
    ln_8m_over_delta = math.log(8.0 * m / DELTA)  # ln(88/0.1) = ln 880 ≈ 6.779922
    ln_2_over_delta = math.log(2.0 / DELTA)  # ln 20 ≈ 2.995732
    assert ln_8m_over_delta == pytest.approx(6.779922, rel=1e-6)
    assert ln_2_over_delta == pytest.approx(2.995732, rel=1e-6)
    radicand = 224.0 * m * ln_8m_over_delta * ln_2_over_delta / EPS**2  # ≈ 50045.887
    assert radicand == pytest.approx(50045.887, rel=1e-7)
    k_hand = d + 1 + math.ceil(radicand)  # 2 + 1 + 50046 = 50049
    assert k_hand == 50049
    assert bd.wishart_degrees_of_freedom(d, m, EPS, DELTA) == k_hand


def _tiny_wishart_pieces() -> tuple[int, int, float, float, float]:
    """(m, k, a, b8, b2) for the tiny configuration, by hand."""
    m, k = 11, 50049
    a = math.sqrt(m * k)  # sqrt(550539) ≈ 741.98315
    # b8 = √d + sqrt(2 ln(8n/α)) = √2 + sqrt(2 ln(8·10⁶)) = 1.414214 + sqrt(2 · 15.894952) ≈ 7.052467
    b8 = math.sqrt(D_TINY) + math.sqrt(2.0 * math.log(8.0 * N_TINY / ALPHA_TINY))
    # b2 = √d + sqrt(2 ln(2n/α)) = √2 + sqrt(2 ln(2·10⁶)) = 1.414214 + sqrt(2 · 14.508658) ≈ 6.800986
    b2 = math.sqrt(D_TINY) + math.sqrt(2.0 * math.log(2.0 * N_TINY / ALPHA_TINY))
    return m, k, a, b8, b2


def test_wishart_pieces_tiny_numeric() -> None:
    m, k, a, b8, b2 = _tiny_wishart_pieces()
    assert m * k == 550539
    assert a == pytest.approx(741.98315, rel=1e-7)
    assert b8 == pytest.approx(7.052467, rel=1e-6)
    assert b2 == pytest.approx(6.800986, rel=1e-6)


def test_wishart_unshifted_tiny_by_hand() -> None:
    m, k, a, b8, b2 = _tiny_wishart_pieces()
    # Prop. 9 (unshifted): ρ_min = L̃²(a − b8)², ρ_max = L̃²(a + b8)², γ = L̃ b2, shift 0
    rho_min = L_TILDE_SQ * (a - b8) ** 2  # 2 · 734.93069² ≈ 1.080246e6
    rho_max = L_TILDE_SQ * (a + b8) ** 2  # 2 · 749.03562² ≈ 1.122109e6
    gamma = L_TILDE * b2  # 1.414214 · 6.800986 ≈ 9.618046
    got = bd.wishart_unshifted_bounds(D_TINY, m, k, L_TILDE, N_TINY, ALPHA_TINY)
    assert got.rho_min == pytest.approx(rho_min, rel=REL)
    assert got.rho_max == pytest.approx(rho_max, rel=REL)
    assert got.gamma == pytest.approx(gamma, rel=REL)
    assert got.shift == 0.0


def test_wishart_shift_tiny_by_hand() -> None:
    m, k, a, b8, _ = _tiny_wishart_pieces()
    # Eq. (4): c = L̃²(√(mk) − √d − √(2 ln(8n/α)))² − 4 L̃² √(mk)(√d + √(2 ln(8n/α)))
    first = L_TILDE_SQ * (a - b8) ** 2  # ≈ 1.080246e6
    second = 4.0 * L_TILDE_SQ * a * b8  # 8 · 741.98315 · 7.052467 ≈ 41862.49
    c = first - second  # ≈ 1.038384e6
    assert second == pytest.approx(41862.49, rel=1e-6)
    assert bd.wishart_shift(D_TINY, m, k, L_TILDE, N_TINY, ALPHA_TINY) == pytest.approx(c, rel=REL)


def test_wishart_shifted_tiny_by_hand() -> None:
    m, k, a, b8, b2 = _tiny_wishart_pieces()
    # Prop. 9 (shifted): ρ'_min = 4L̃² a b8, ρ'_max = 8L̃² a b8, γ' = L̃ sqrt(a b2), shift −c
    rho_min_p = 4.0 * L_TILDE_SQ * a * b8  # ≈ 41862.49
    rho_max_p = 8.0 * L_TILDE_SQ * a * b8  # ≈ 83724.99
    gamma_p = L_TILDE * math.sqrt(a * b2)  # 1.414214 · sqrt(5046.209) ≈ 100.4611
    c = L_TILDE_SQ * (a - b8) ** 2 - 4.0 * L_TILDE_SQ * a * b8
    got = bd.wishart_shifted_bounds(D_TINY, m, k, L_TILDE, N_TINY, ALPHA_TINY)
    assert got.rho_min == pytest.approx(rho_min_p, rel=REL)
    assert got.rho_max == pytest.approx(rho_max_p, rel=REL)
    assert got.gamma == pytest.approx(gamma_p, rel=REL)
    assert got.shift == pytest.approx(-c, rel=REL)
    # tight γ' (Claim 20 step of the proof): γ · sqrt(ρ_min / ρ'_min), γ = L̃ b2, ρ_min = L̃²(a−b8)²
    gamma_tight = L_TILDE * b2 * math.sqrt(L_TILDE_SQ * (a - b8) ** 2 / rho_min_p)  # ≈ 48.8580
    tight = bd.wishart_shifted_bounds(D_TINY, m, k, L_TILDE, N_TINY, ALPHA_TINY, gamma_mode="tight")
    assert tight.gamma == pytest.approx(gamma_tight, rel=REL)
    assert (tight.rho_min, tight.rho_max, tight.shift) == (got.rho_min, got.rho_max, got.shift)


def _tiny_gaussian_pieces() -> tuple[float, float, float]:
    """(σ_noise, Υ, γ) for the tiny configuration, by hand."""
    m = 11
    ln_4_over_delta = math.log(4.0 / DELTA)  # ln 40 ≈ 3.688879
    # σ_noise² = 16 m L̃⁴ ln(4/δ)² / ε² = 16 · 11 · 4 · 3.688879² ≈ 9579.913
    sigma_noise_sq = 16.0 * m * L_TILDE_SQ**2 * ln_4_over_delta**2 / EPS**2
    sigma_noise = math.sqrt(sigma_noise_sq)  # ≈ 97.87703
    # Υ = σ_noise sqrt(2m) (4√d + 2 ln(2n/α)) = 97.877 · sqrt(22) · (4√2 + 2 · 14.508658) ≈ 15918.36
    ln_2n_over_alpha = math.log(2.0 * N_TINY / ALPHA_TINY)
    upsilon = sigma_noise * math.sqrt(2.0 * m) * (4.0 * math.sqrt(D_TINY) + 2.0 * ln_2n_over_alpha)
    # γ = σ_noise sqrt(m/Υ) (√d + sqrt(2 ln(2n/α))) ≈ 17.49846
    gamma = (
        sigma_noise
        * math.sqrt(m / upsilon)
        * (math.sqrt(D_TINY) + math.sqrt(2.0 * ln_2n_over_alpha))
    )
    return sigma_noise, upsilon, gamma


def test_gaussian_tiny_by_hand() -> None:
    m = 11
    sigma_noise, upsilon, gamma = _tiny_gaussian_pieces()
    assert sigma_noise**2 == pytest.approx(9579.913, rel=1e-6)
    assert bd.gaussian_noise_std(m, L_TILDE, EPS, DELTA) == pytest.approx(sigma_noise, rel=REL)
    assert bd.gaussian_operator_norm_bound(sigma_noise, m, D_TINY, N_TINY, ALPHA_TINY) == (
        pytest.approx(upsilon, rel=REL)
    )
    # second (closed) form of Υ (Sec. 4.2): √32 · m · L̃² · ln(4/δ) · (4√d + 2 ln(2n/α)) / ε
    closed = (
        math.sqrt(32.0)
        * m
        * L_TILDE_SQ
        * math.log(4.0 / DELTA)
        * (4.0 * math.sqrt(D_TINY) + 2.0 * math.log(2.0 * N_TINY / ALPHA_TINY))
        / EPS
    )
    assert closed == pytest.approx(upsilon, rel=REL)
    assert bd.gaussian_operator_norm_bound_closed_form(
        m, L_TILDE, EPS, DELTA, D_TINY, N_TINY, ALPHA_TINY
    ) == pytest.approx(closed, rel=REL)
    # Prop. 11: ρ_min = Υ, ρ_max = 3Υ, γ as above, shift +2Υ
    got = bd.gaussian_bounds(D_TINY, m, L_TILDE, EPS, DELTA, N_TINY, ALPHA_TINY)
    assert got.rho_min == pytest.approx(upsilon, rel=REL)
    assert got.rho_max == pytest.approx(3.0 * upsilon, rel=REL)
    assert got.gamma == pytest.approx(gamma, rel=REL)
    assert got.shift == pytest.approx(2.0 * upsilon, rel=REL)


@pytest.mark.parametrize("rho", [1.0, 0.25, 7.5])
def test_nonprivate_bounds_by_hand(rho: float) -> None:
    # Sec. 2.7: H_t = ρI, h_t = 0 ⇒ ρ_min = ρ_max = ρ, γ = 0, shift ρ
    got = bd.nonprivate_bounds(rho)
    assert (got.rho_min, got.rho_max, got.gamma, got.shift) == (rho, rho, 0.0, rho)


def _hand_beta_bar(
    t: int, d: int, L: float, sigma: float, alpha: float, S: float, b: RegularizerBounds
) -> float:
    # β̄_t = σ sqrt(2 ln(2/α) + d ln(ρ_max/ρ_min + t L²/(d ρ_min))) + S sqrt(ρ_max) + γ
    log_term = 2.0 * math.log(2.0 / alpha)
    ratio = b.rho_max / b.rho_min
    growth = t * L**2 / (d * b.rho_min)
    radicand = log_term + d * math.log(ratio + growth)
    return sigma * math.sqrt(radicand) + S * math.sqrt(b.rho_max) + b.gamma


def _hand_bracket(
    n: int, d: int, L: float, S: float, sigma: float, alpha: float, b: RegularizerBounds
) -> float:
    # [σ(2 ln(2/α) + d ln(ρ_max/ρ_min + nL²/(dρ_min))) + (S√ρ_max + γ) sqrt(d ln(1 + nL²/(dρ_min)))]
    x = n * L**2 / (d * b.rho_min)
    sigma_term = sigma * (2.0 * math.log(2.0 / alpha) + d * math.log(b.rho_max / b.rho_min + x))
    noise_term = (S * math.sqrt(b.rho_max) + b.gamma) * math.sqrt(d * math.log(1.0 + x))
    return sigma_term + noise_term


def _tiny_variants() -> dict[str, RegularizerBounds]:
    """The four regularizer variants for the tiny configuration, built from the hand pieces."""
    _, _, a, b8, b2 = _tiny_wishart_pieces()
    _, upsilon, gamma_g = _tiny_gaussian_pieces()
    c = L_TILDE_SQ * (a - b8) ** 2 - 4.0 * L_TILDE_SQ * a * b8
    return {
        "nonprivate": RegularizerBounds(1.0, 1.0, 0.0, 1.0),
        "gaussian": RegularizerBounds(upsilon, 3.0 * upsilon, gamma_g, 2.0 * upsilon),
        "wishart": RegularizerBounds(
            4.0 * L_TILDE_SQ * a * b8, 8.0 * L_TILDE_SQ * a * b8, L_TILDE * math.sqrt(a * b2), -c
        ),
        "wishart_unshifted": RegularizerBounds(
            L_TILDE_SQ * (a - b8) ** 2, L_TILDE_SQ * (a + b8) ** 2, L_TILDE * b2, 0.0
        ),
    }


@pytest.mark.parametrize("variant", ["nonprivate", "gaussian", "wishart", "wishart_unshifted"])
def test_beta_bar_and_theorems_tiny_by_hand(variant: str) -> None:
    b = _tiny_variants()[variant]
    n, d, L, S, sigma, B, alpha, gap = N_TINY, D_TINY, 1.0, 1.0, 1.0, 1.0, ALPHA_TINY, 0.1
    beta = _hand_beta_bar(n, d, L, sigma, alpha, S, b)
    assert bd.beta_bar(n, d, L, sigma, alpha, S, b) == pytest.approx(beta, rel=REL)
    bracket = _hand_bracket(n, d, L, S, sigma, alpha, b)
    # Eq. (2): B sqrt(8n) [·];  Eq. (3): (8B/Δ) [·]²
    thm5 = B * math.sqrt(8.0 * n) * bracket
    thm6 = 8.0 * B / gap * bracket**2
    assert bd.regret_bound_thm5(n, d, L, S, B, sigma, alpha, b) == pytest.approx(thm5, rel=REL)
    assert bd.regret_bound_thm6(n, d, L, S, B, sigma, alpha, b, gap) == pytest.approx(thm6, rel=REL)


def test_nonprivate_beta_bar_tiny_numeric() -> None:
    # NonPrivate(ρ=1): β̄_n = sqrt(2 ln(2000) + 2 ln(1 + 1000/2)) + 1
    #                       = sqrt(2 · 7.600902 + 2 · 6.216606) + 1 = sqrt(27.635017) + 1 ≈ 6.256902
    two_ln = 2.0 * math.log(2.0 / ALPHA_TINY)
    d_ln = 2.0 * math.log(1.0 + 1000.0 / 2.0)
    expected = math.sqrt(two_ln + d_ln) + 1.0
    assert expected == pytest.approx(6.256902, rel=1e-6)
    got = bd.beta_bar(N_TINY, D_TINY, 1.0, 1.0, ALPHA_TINY, 1.0, bd.nonprivate_bounds())
    assert got == pytest.approx(expected, rel=REL)


def test_beta_t_by_hand() -> None:
    b = RegularizerBounds(rho_min=2.0, rho_max=5.0, gamma=0.75, shift=0.0)
    d, sigma, alpha, S = 3, 1.5, 0.05, 2.0
    log_det_V = 4.2
    # β_t = σ sqrt(2 ln(2/α) + ln det V − d ln ρ_min) + S sqrt(ρ_max) + γ
    #     = 1.5 sqrt(2 ln 40 + 4.2 − 3 ln 2) + 2 sqrt 5 + 0.75
    #     = 1.5 sqrt(7.377759 + 4.2 − 2.079442) + 4.472136 + 0.75 ≈ 1.5 · 3.081934 + 5.222136
    radicand = 2.0 * math.log(2.0 / alpha) + log_det_V - d * math.log(b.rho_min)
    assert radicand == pytest.approx(9.498317, rel=1e-6)
    expected = sigma * math.sqrt(radicand) + S * math.sqrt(b.rho_max) + b.gamma
    assert expected == pytest.approx(9.845037, rel=1e-6)
    assert bd.beta_t(log_det_V, d, sigma, alpha, S, b) == pytest.approx(expected, rel=REL)


def test_reshifting_the_unshifted_wishart_to_eq4_gives_the_shifted_bounds() -> None:
    # App. D.3's generic shift reproduces Sec. 4.1's shifted Wishart (Eq. 4, tight γ')
    # when the target is its ρ'_min: shift −c, ρ'_max = 2ρ'_min, γ' = γ √(ρ_min/ρ'_min).
    n, d, alpha = 5 * 10**7, 5, 1 / (5 * 10**7)
    m = bd.tree_depth(n)
    k = bd.wishart_degrees_of_freedom(d, m, 1.0, 0.1)
    base = bd.wishart_unshifted_bounds(d, m, k, L_TILDE, n, alpha)
    shifted = bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha, gamma_mode="tight")
    got = bd.reshifted_bounds(base, shifted.rho_min, "wishart")
    for field in ("rho_min", "rho_max", "gamma", "shift"):
        assert getattr(got, field) == pytest.approx(getattr(shifted, field), rel=1e-9)
    # upward shifts use the rigorous H + Δs I ⪰ (1 + Δs/ρ_max) H bound; Gaussian keeps its form
    up = bd.reshifted_bounds(base, 2 * base.rho_min, "wishart")
    assert up.gamma == pytest.approx(
        base.gamma * math.sqrt(base.rho_max / (base.rho_max + base.rho_min))
    )
    g = bd.gaussian_bounds(d, m, L_TILDE, 1.0, 0.1, n, alpha)
    same = bd.reshifted_bounds(g, g.rho_min, "gaussian")
    assert same == g
    with pytest.raises(ValueError, match=r"^mechanism must be"):
        bd.reshifted_bounds(g, 1.0, "laplace")  # type: ignore[arg-type]


def test_beta_t_batch_agrees_with_beta_t() -> None:
    b = bd.RegularizerBounds(rho_min=2.0, rho_max=5.0, gamma=0.5, shift=0.0)
    log_dets = np.array([-50.0, 0.0, 3.0, 40.0])
    batch = bd.beta_t_batch(log_dets, 3, 1.5, 0.01, 2.0, b)
    assert batch.shape == (4,)
    for value, got in zip(log_dets, batch, strict=True):
        assert got == bd.beta_t(float(value), 3, 1.5, 0.01, 2.0, b)


def test_beta_t_radicand_clamped_at_zero() -> None:
    # R-RAD: off the accuracy event the radicand can be negative; β_t is then S√ρ_max + γ.
    b = RegularizerBounds(rho_min=100.0, rho_max=200.0, gamma=0.5, shift=0.0)
    # radicand = 2 ln(2/0.1) + (−50) − 2 ln 100 = 5.99 − 50 − 9.21 < 0
    got = bd.beta_t(-50.0, 2, 1.0, 0.1, 1.0, b)
    assert got == pytest.approx(math.sqrt(200.0) + 0.5, rel=REL)


def test_claim14_and_cor15_by_hand() -> None:
    # Claim 14: ln(n) / (100 ε Δ_a) = ln 1000 / (100 · 1 · 0.1) = 6.907755 / 10 ≈ 0.6907755
    assert bd.claim14_min_pulls(1000, 1.0, 0.1) == pytest.approx(math.log(1000) / 10.0, rel=REL)
    assert bd.claim14_min_pulls(1000, 1.0, 0.1) == pytest.approx(0.6907755, rel=1e-6)
    # ε = 0.5, Δ = 0.2, n = 10⁶: ln 10⁶ / (100 · 0.5 · 0.2) = 13.815511 / 10
    assert bd.claim14_min_pulls(10**6, 0.5, 0.2) == pytest.approx(math.log(10**6) / 10.0, rel=REL)
    # Cor. 15: (k − 1) ln(n) / (200 ε) = 24 · ln 1000 / 200 ≈ 0.828931
    assert bd.cor15_regret_lower_bound(25, 1000, 1.0) == pytest.approx(
        24.0 * math.log(1000) / 200.0, rel=REL
    )
    assert bd.cor15_regret_lower_bound(2, 10**4, 0.25) == pytest.approx(
        1.0 * math.log(10**4) / 50.0, rel=REL
    )


@PROPS
@given(
    gaps=st.lists(st.floats(1e-3, 1.5), min_size=1, max_size=20),
    n=st.integers(2, 10**9),
    eps=st.floats(1e-3, 10.0),
)
def test_cor15_is_half_the_gap_weighted_claim14_pulls(
    gaps: list[float], n: int, eps: float
) -> None:
    # Proof of Cor. 15: Σ_{a≠a¹} Δ_a · [ln(n)/(100 ε Δ_a)] · 1/2 = (k−1) ln(n)/(200 ε).
    total = sum(g * bd.claim14_min_pulls(n, eps, g) / 2.0 for g in gaps)
    assert bd.cor15_regret_lower_bound(len(gaps) + 1, n, eps) == pytest.approx(total, rel=1e-9)


# ------------------------------------------------------------------------------------------------
# Tree depth m = 1 + ceil(log2 n): exact integer arithmetic
# ------------------------------------------------------------------------------------------------


def _ceil_log2_by_doubling(n: int) -> int:
    """Smallest j with 2**j >= n, found by repeated doubling (pure integer arithmetic)."""
    j, power = 0, 1
    while power < n:
        power *= 2
        j += 1
    return j


@pytest.mark.parametrize(
    ("n", "m"),
    [
        (1, 1),  # ceil(log2 1) = 0
        (2, 2),  # 2 = 2^1
        (3, 3),  # 2 < 3 <= 4
        (4, 3),  # 4 = 2^2
        (5, 4),  # 4 < 5 <= 8
        (2**52 + 1, 54),  # 2^52 < n <= 2^53
        (10**12, 41),  # 2^39 ≈ 5.5e11 < 10^12 <= 2^40 ≈ 1.1e12
        (2**60, 61),
        (2**60 + 1, 62),
    ],
)
def test_tree_depth_exact(n: int, m: int) -> None:
    assert 1 + _ceil_log2_by_doubling(n) == m
    assert bd.tree_depth(n) == m


def test_tree_depth_matches_doubling_on_a_range() -> None:
    for n in list(range(1, 2049)) + [2**j + o for j in range(11, 64) for o in (-1, 0, 1)]:
        assert bd.tree_depth(n) == 1 + _ceil_log2_by_doubling(n), n


# ------------------------------------------------------------------------------------------------
# Golden constants (independent derivation), rel 1e-5
# ------------------------------------------------------------------------------------------------

# (n, d) -> quantity -> value, copied from the independently derived golden table (L = B̃ = 1, L̃² = 2,
# S = σ = 1, α = 1/n, B = 1, ε = 1, δ = 0.1; Thm 6 with Δ = 0.1).  Lists are in the order
# NonPrivate / Gaussian / Wishart / WishartUnshifted.
GOLDEN: dict[tuple[int, int], dict[str, Any]] = {
    (5 * 10**7, 5): {
        "m": 27,
        "k": 139115,
        "mk": 3756105,
        "rho_min_u": 7.42795e6,
        "rho_max_u": 7.59695e6,
        "gamma_u": 15.1870,
        "c": 7.25894e6,
        "rho_min_s": 169004.0,
        "rho_max_s": 338008.0,
        "gamma_s": 204.022,
        "gamma_s_tight": 100.683,
        "sigma_noise": 153.344,
        "sigma_noise_sq": 23514.3,
        "upsilon": 91545.5,
        "gamma_g": 28.2804,
        "gamma_g_simplified": 53.3473,
        "beta_bar": [11.8366, 560.113, 792.984, 2777.86],
        "thm5": [2.52818e6, 5.47750e7, 7.22453e7, 1.15282e8],
        "thm6": [1.27834e6, 6.00059e8, 1.04388e9, 2.65801e9],
    },
    (10**5, 5): {
        "m": 18,
        "k": 87848,
        "mk": 1581264,
        "rho_min_u": 3.11581e6,
        "rho_max_u": 3.20959e6,
        "gamma_u": 12.9027,
        "c": 3.02203e6,
        "rho_min_s": 93778.2,
        "rho_max_s": 187556.0,
        "gamma_s": 151.478,
        "gamma_s_tight": 74.3731,
        "sigma_noise": 125.205,
        "sigma_noise_sq": 15676.2,
        "upsilon": 42356.0,
        "gamma_g": 23.5486,
        "gamma_g_simplified": 35.5597,
        "beta_bar": [9.59825, 385.549, 589.883, 1809.39],
        "thm5": [72418.8, 500058.0, 539423.0, 310668.0],
        "thm6": [524449.0, 2.50058e7, 2.90977e7, 9.65146e6],
    },
    (1000, 2): {
        "m": 11,
        "k": 50049,
        "mk": 550539,
        "rho_min_u": 1.08025e6,
        "rho_max_u": 1.12211e6,
        "gamma_u": 9.61805,
        "c": 1.03838e6,
        "rho_min_s": 41862.5,
        "rho_max_s": 83725.0,
        "gamma_s": 100.461,
        "gamma_s_tight": 48.8580,
        "sigma_noise": 97.8770,
        "sigma_noise_sq": 9579.91,
        "upsilon": 15918.4,
        "gamma_g": 17.4985,
        "gamma_g_simplified": 21.7578,
        "beta_bar": [6.25690, 240.202, 393.888, 1072.82],
        "thm5": [2787.13, 6808.48, 6857.53, 4275.12],
        "thm6": [77681.1, 463554.0, 470258.0, 182767.0],
    },
}
GOLDEN_REL = 1e-5


def _variants_from_code(n: int, d: int) -> tuple[int, int, dict[str, RegularizerBounds]]:
    alpha = 1.0 / n
    m = bd.tree_depth(n)
    k = bd.wishart_degrees_of_freedom(d, m, EPS, DELTA)
    return (
        m,
        k,
        {
            "nonprivate": bd.nonprivate_bounds(1.0),
            "gaussian": bd.gaussian_bounds(d, m, L_TILDE, EPS, DELTA, n, alpha),
            "wishart": bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha),
            "wishart_unshifted": bd.wishart_unshifted_bounds(d, m, k, L_TILDE, n, alpha),
        },
    )


@pytest.mark.parametrize(("n", "d"), list(GOLDEN))
def test_golden_constants_spec_2_8(n: int, d: int) -> None:
    """Golden table (independent derivation), 5 significant digits."""
    g = GOLDEN[(n, d)]
    alpha = 1.0 / n
    m, k, variants = _variants_from_code(n, d)
    assert m == g["m"]
    assert k == g["k"]
    assert m * k == g["mk"]
    un = variants["wishart_unshifted"]
    assert un.rho_min == pytest.approx(g["rho_min_u"], rel=GOLDEN_REL)
    assert un.rho_max == pytest.approx(g["rho_max_u"], rel=GOLDEN_REL)
    assert un.gamma == pytest.approx(g["gamma_u"], rel=GOLDEN_REL)
    c = bd.wishart_shift(d, m, k, L_TILDE, n, alpha)
    assert c == pytest.approx(g["c"], rel=GOLDEN_REL)
    sh = variants["wishart"]
    assert sh.rho_min == pytest.approx(g["rho_min_s"], rel=GOLDEN_REL)
    assert sh.rho_max == pytest.approx(g["rho_max_s"], rel=GOLDEN_REL)
    assert sh.gamma == pytest.approx(g["gamma_s"], rel=GOLDEN_REL)
    assert sh.shift == pytest.approx(-g["c"], rel=GOLDEN_REL)
    tight = bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha, gamma_mode="tight")
    assert tight.gamma == pytest.approx(g["gamma_s_tight"], rel=GOLDEN_REL)
    s = bd.gaussian_noise_std(m, L_TILDE, EPS, DELTA)
    assert s == pytest.approx(g["sigma_noise"], rel=GOLDEN_REL)
    assert s**2 == pytest.approx(g["sigma_noise_sq"], rel=GOLDEN_REL)
    ups = bd.gaussian_operator_norm_bound(s, m, d, n, alpha)
    assert ups == pytest.approx(g["upsilon"], rel=GOLDEN_REL)
    assert bd.gaussian_operator_norm_bound_closed_form(m, L_TILDE, EPS, DELTA, d, n, alpha) == (
        pytest.approx(g["upsilon"], rel=GOLDEN_REL)
    )
    gs = variants["gaussian"]
    assert gs.rho_min == pytest.approx(g["upsilon"], rel=GOLDEN_REL)
    assert gs.rho_max == pytest.approx(3.0 * g["upsilon"], rel=GOLDEN_REL)
    assert gs.gamma == pytest.approx(g["gamma_g"], rel=GOLDEN_REL)
    order = ["nonprivate", "gaussian", "wishart", "wishart_unshifted"]
    for i, name in enumerate(order):
        b = variants[name]
        assert bd.beta_bar(n, d, 1.0, 1.0, alpha, 1.0, b) == pytest.approx(
            g["beta_bar"][i], rel=GOLDEN_REL
        ), name
        assert bd.regret_bound_thm5(n, d, 1.0, 1.0, 1.0, 1.0, alpha, b) == pytest.approx(
            g["thm5"][i], rel=GOLDEN_REL
        ), name
        assert bd.regret_bound_thm6(n, d, 1.0, 1.0, 1.0, 1.0, alpha, b, 0.1) == pytest.approx(
            g["thm6"][i], rel=GOLDEN_REL
        ), name


@pytest.mark.parametrize(("n", "d"), list(GOLDEN))
def test_gaussian_gamma_vs_papers_simplified_bound(n: int, d: int) -> None:
    """Prop. 11 (Sec. 4.2): the simplified bound sqrt(m L̃² (√d + 2 ln(2n/α)) / (√2 ε)).

    It is not used by the code (R-GAMMA-G), but at the three golden configurations it does
    dominate the exact γ; its value is checked against an independently computed table.
    """
    alpha = 1.0 / n
    m = bd.tree_depth(n)
    simplified = math.sqrt(
        m * L_TILDE_SQ * (math.sqrt(d) + 2.0 * math.log(2.0 * n / alpha)) / (math.sqrt(2.0) * EPS)
    )
    assert simplified == pytest.approx(GOLDEN[(n, d)]["gamma_g_simplified"], rel=GOLDEN_REL)
    exact = bd.gaussian_bounds(d, m, L_TILDE, EPS, DELTA, n, alpha).gamma
    assert exact < simplified


def test_papers_simplified_gaussian_gamma_fails_for_large_d() -> None:
    # R-GAMMA-G: d = 1000, ℓ = ln(2n/α) = 10, δ = 0.1: exact γ² / simplified² ≈ 2.5 > 1.
    d, delta, eps, L_t, m = 1000, 0.1, 1.0, 1.0, 5
    # choose n, α with 2n/α = e^10: n = 10, α = 20 / e^10
    n = 10
    alpha = 2.0 * n / math.exp(10.0)
    ell = math.log(2.0 * n / alpha)
    assert ell == pytest.approx(10.0, rel=1e-12)
    ratio_hand = (
        4.0
        * math.log(4.0 / delta)
        * (math.sqrt(d) + math.sqrt(2.0 * ell)) ** 2
        / ((4.0 * math.sqrt(d) + 2.0 * ell) * (math.sqrt(d) + 2.0 * ell))
    )
    assert ratio_hand == pytest.approx(2.5, abs=0.1)
    exact = bd.gaussian_bounds(d, m, L_t, eps, delta, n, alpha).gamma
    simplified_sq = m * L_t**2 * (math.sqrt(d) + 2.0 * ell) / (math.sqrt(2.0) * eps)
    assert exact**2 / simplified_sq == pytest.approx(ratio_hand, rel=1e-9)
    assert exact**2 > simplified_sq


# ------------------------------------------------------------------------------------------------
# Identities, over random configurations
# ------------------------------------------------------------------------------------------------

configs = st.tuples(
    st.integers(1, 10**12),  # n
    st.integers(1, 100),  # d
    st.floats(1e-3, 2.0),  # ε (ε0 < 1 always: sqrt(8 m ln(2/δ)) >= sqrt(8 ln(2/0.9)) ≈ 2.53)
    st.floats(1e-9, 0.7),  # δ (δ0 = δ/2m < 1/e needs δ < 2/e ≈ 0.736 when m = 1)
    st.floats(1e-12, 0.9),  # α
    st.floats(0.1, 10.0),  # L̃
)


@PROPS
@given(cfg=configs)
@pytest.mark.filterwarnings("ignore:Eq. \\(4\\) shift c:UserWarning")
def test_identities(cfg: tuple[int, int, float, float, float, float]) -> None:
    n, d, eps, delta, alpha, L_t = cfg
    m = bd.tree_depth(n)
    k = bd.wishart_degrees_of_freedom(d, m, eps, delta)
    a = math.sqrt(m * k)
    b8 = math.sqrt(d) + math.sqrt(2.0 * math.log(8.0 * n / alpha))
    assume(a > b8 * (1.0 + 1e-9))  # precondition of Prop. 9 / Claim 19
    # Υ first form == closed form (Sec. 4.2)
    s = bd.gaussian_noise_std(m, L_t, eps, delta)
    assert bd.gaussian_operator_norm_bound(s, m, d, n, alpha) == pytest.approx(
        bd.gaussian_operator_norm_bound_closed_form(m, L_t, eps, delta, d, n, alpha), rel=1e-12
    )
    # App. C, proof of Prop. 9: ρ_min − c = ρ'_min = ρ_max − ρ_min, and ρ'_max = 2 ρ'_min
    un = bd.wishart_unshifted_bounds(d, m, k, L_t, n, alpha)
    sh = bd.wishart_shifted_bounds(d, m, k, L_t, n, alpha)
    c = bd.wishart_shift(d, m, k, L_t, n, alpha)
    assert un.rho_min - c == pytest.approx(sh.rho_min, rel=1e-8)
    assert un.rho_max - un.rho_min == pytest.approx(sh.rho_min, rel=1e-8)
    assert un.rho_max - c == pytest.approx(sh.rho_max, rel=1e-8)
    assert sh.rho_max == pytest.approx(2.0 * sh.rho_min, rel=1e-12)
    assert sh.shift == -c
    # k − (d+1) = ceil(28 ε0⁻² ln(4/δ0)) (Thm 8 with the Wishart per-node parameters), up to ±1
    eps0, delta0 = bd.wishart_node_privacy(eps, delta, m)
    thm8 = math.ceil(28.0 * math.log(4.0 / delta0) / eps0**2)
    assert abs((k - (d + 1)) - thm8) <= 1
    # γ'_tight <= γ'/2 -- derived for c ≥ 0 (Claim 20). For c < 0 the
    # tight bound is γ √(ρ_max/ρ'_max) <= γ instead: extra regularisation only shrinks ‖h‖_{H⁻¹}.
    tight = bd.wishart_shifted_bounds(d, m, k, L_t, n, alpha, gamma_mode="tight")
    if c >= 0.0:
        assert tight.gamma <= sh.gamma / 2.0 * (1.0 + 1e-12)
    else:
        assert tight.gamma <= un.gamma * (1.0 + 1e-12)
    # Gaussian: ρ_max = 3 ρ_min, shift = 2 ρ_min (Sec. 4.2)
    gs = bd.gaussian_bounds(d, m, L_t, eps, delta, n, alpha)
    assert gs.rho_max == pytest.approx(3.0 * gs.rho_min, rel=1e-12)
    assert gs.shift == pytest.approx(2.0 * gs.rho_min, rel=1e-12)


@pytest.mark.parametrize(("n", "d"), list(GOLDEN))
def test_identities_at_golden_configs(n: int, d: int) -> None:
    alpha = 1.0 / n
    m, k, v = _variants_from_code(n, d)
    un, sh = v["wishart_unshifted"], v["wishart"]
    c = bd.wishart_shift(d, m, k, L_TILDE, n, alpha)
    assert un.rho_min - c == pytest.approx(sh.rho_min, rel=1e-9)
    assert un.rho_max - un.rho_min == pytest.approx(sh.rho_min, rel=1e-9)
    assert sh.rho_max == pytest.approx(2.0 * sh.rho_min, rel=1e-12)
    eps0, delta0 = bd.wishart_node_privacy(EPS, DELTA, m)
    assert abs((k - (d + 1)) - math.ceil(28.0 * math.log(4.0 / delta0) / eps0**2)) <= 1
    tight = bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha, gamma_mode="tight")
    assert tight.gamma <= sh.gamma / 2.0
    # c > 0 ⇔ a > (3 + 2√2) b8; true at all three configurations
    a = math.sqrt(m * k)
    b8 = math.sqrt(d) + math.sqrt(2.0 * math.log(8.0 * n / alpha))
    assert a > (3.0 + 2.0 * math.sqrt(2.0)) * b8
    assert c > 0.0


@PROPS
@given(
    d=st.integers(1, 50),
    m=st.integers(1, 40),
    n=st.integers(1, 10**9),
    alpha=st.floats(1e-9, 0.9),
    L_t=st.floats(0.1, 10.0),
    factor=st.floats(0.05, 20.0),
)
def test_shift_positive_iff_a_exceeds_3_plus_2sqrt2_b8(
    d: int, m: int, n: int, alpha: float, L_t: float, factor: float
) -> None:
    # c = L̃²[(a−b8)² − 4ab8] = L̃²[a² − 6ab8 + b8²] > 0 ⇔ a > (3 + 2√2) b8 (for a > b8)
    b8 = math.sqrt(d) + math.sqrt(2.0 * math.log(8.0 * n / alpha))
    threshold = (3.0 + 2.0 * math.sqrt(2.0)) * b8
    k = max(d + 1, math.ceil((factor * threshold) ** 2 / m))
    a = math.sqrt(m * k)
    assume(a > b8 * 1.001 and abs(a / threshold - 1.0) > 1e-6)
    c = bd.wishart_shift(d, m, k, L_t, n, alpha)
    assert (c > 0.0) == (a > threshold)


# ------------------------------------------------------------------------------------------------
# Monotonicity (hypothesis)
# ------------------------------------------------------------------------------------------------


def _paper_variants(
    n: int, d: int, eps: float, delta: float, alpha: float
) -> dict[str, RegularizerBounds]:
    m = bd.tree_depth(n)
    k = bd.wishart_degrees_of_freedom(d, m, eps, delta)
    return {
        "nonprivate": bd.nonprivate_bounds(1.0),
        "gaussian": bd.gaussian_bounds(d, m, L_TILDE, eps, delta, n, alpha),
        "wishart": bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha),
        "wishart_unshifted": bd.wishart_unshifted_bounds(d, m, k, L_TILDE, n, alpha),
    }


def _all_three(n: int, d: int, alpha: float, b: RegularizerBounds) -> tuple[float, float, float]:
    return (
        bd.beta_bar(n, d, 1.0, 1.0, alpha, 1.0, b),
        bd.regret_bound_thm5(n, d, 1.0, 1.0, 1.0, 1.0, alpha, b),
        bd.regret_bound_thm6(n, d, 1.0, 1.0, 1.0, 1.0, alpha, b, 0.1),
    )


@PROPS
@given(
    n1=st.integers(2, 10**10),
    n2=st.integers(2, 10**10),
    d=st.integers(1, 30),
    eps=st.floats(0.01, 2.0),
    delta=st.sampled_from([1e-6, 1e-3, 0.1, 0.5]),
)
def test_monotone_in_n_with_bounds_recomputed(
    n1: int, n2: int, d: int, eps: float, delta: float
) -> None:
    """α = 1/n and the noise constants recomputed at each horizon (m, k, Υ, ... depend on n).

    β̄_n increases for all four variants; Eqs. (2)/(3) for NonPrivate, Gaussian and shifted
    Wishart.  (The unshifted Wishart Eqs. (2)/(3) are not monotone in n: see the next test.)
    """
    lo, hi = sorted((n1, n2))
    assume(lo < hi)
    v_lo = _paper_variants(lo, d, eps, delta, 1.0 / lo)
    v_hi = _paper_variants(hi, d, eps, delta, 1.0 / hi)
    for name in v_lo:
        a = _all_three(lo, d, 1.0 / lo, v_lo[name])
        b = _all_three(hi, d, 1.0 / hi, v_hi[name])
        assert b[0] > a[0], name
        if name != "wishart_unshifted":
            assert b[1] > a[1], name
            assert b[2] > a[2], name


def test_unshifted_wishart_regret_bound_drops_when_m_increases() -> None:
    """Documented non-monotonicity: when n crosses 2^j, m (hence a = √(mk)) jumps and
    ρ_max/ρ_min = ((a+b8)/(a−b8))² falls; with nL²/(dρ_min) ≪ 1 Eq. (2) ≈ √8·n·√(ρ_max/ρ_min)
    then decreases.  Found by brute force while writing these tests (d = 5, ε = 1, δ = 0.1)."""
    d = 5
    before = _paper_variants(512, d, EPS, DELTA, 1.0 / 512)["wishart_unshifted"]
    after = _paper_variants(513, d, EPS, DELTA, 1.0 / 513)["wishart_unshifted"]
    assert bd.tree_depth(512) == 10 and bd.tree_depth(513) == 11
    assert _all_three(513, d, 1.0 / 513, after)[1] < _all_three(512, d, 1.0 / 512, before)[1]
    assert _all_three(513, d, 1.0 / 513, after)[0] > _all_three(512, d, 1.0 / 512, before)[0]


@PROPS
@given(
    t1=st.integers(0, 10**12),
    t2=st.integers(0, 10**12),
    d=st.integers(1, 50),
    rho_min=st.floats(1e-3, 1e8),
    ratio=st.floats(1.0, 10.0),
    gamma=st.floats(0.0, 1e3),
    alpha=st.floats(1e-12, 0.9),
)
def test_monotone_in_n_with_fixed_bounds(
    t1: int, t2: int, d: int, rho_min: float, ratio: float, gamma: float, alpha: float
) -> None:
    lo, hi = sorted((t1, t2))
    assume(hi - lo >= 1 + hi // 10**6)  # a visible increase of t L²/(d ρ_min)
    b = RegularizerBounds(rho_min, rho_min * ratio, gamma, 0.0)
    assert bd.beta_bar(hi, d, 1.0, 1.0, alpha, 1.0, b) >= bd.beta_bar(
        lo, d, 1.0, 1.0, alpha, 1.0, b
    )
    lo, hi = max(lo, 1), max(hi, 2)
    assume(lo < hi)
    assert bd.regret_bound_thm5(hi, d, 1.0, 1.0, 1.0, 1.0, alpha, b) > bd.regret_bound_thm5(
        lo, d, 1.0, 1.0, 1.0, 1.0, alpha, b
    )
    assert bd.regret_bound_thm6(hi, d, 1.0, 1.0, 1.0, 1.0, alpha, b, 0.1) > bd.regret_bound_thm6(
        lo, d, 1.0, 1.0, 1.0, 1.0, alpha, b, 0.1
    )


@PROPS
@given(
    e1=st.floats(1e-3, 2.0),
    e2=st.floats(1e-3, 2.0),
    d=st.integers(1, 30),
    n_over_d2=st.integers(2, 10**7),
    delta=st.sampled_from([1e-6, 1e-3, 0.1, 0.5]),
)
def test_monotone_in_inverse_epsilon(
    e1: float, e2: float, d: int, n_over_d2: int, delta: float
) -> None:
    """Noise constants recomputed at each ε (gaussian_bounds, Wishart k and bounds).

    β̄_n increases with 1/ε for all three private variants; Eqs. (2)/(3) for Gaussian and shifted
    Wishart, in the domain n >= 2d² (S = σ = 1).  Below it the σ-term d·ln(ρ_max/ρ_min +
    nL²/(dρ_min)), which *decreases* as ρ_min grows, can dominate (brute force: violations only for
    n <= 1.1 d²).  The unshifted Wishart Eqs. (2)/(3) decrease in 1/ε when nL²/(dρ_min) is small
    (next test).
    """
    big, small = sorted((e1, e2), reverse=True)
    assume(big > small * (1.0 + 1e-6))
    n = n_over_d2 * d * d
    alpha = 1.0 / n
    v_big = _paper_variants(n, d, big, delta, alpha)
    v_small = _paper_variants(n, d, small, delta, alpha)  # smaller ε = more noise
    for name in ("gaussian", "wishart", "wishart_unshifted"):
        a = _all_three(n, d, alpha, v_big[name])
        b = _all_three(n, d, alpha, v_small[name])
        assert b[0] > a[0], name
        if name != "wishart_unshifted":
            assert b[1] > a[1], name
            assert b[2] > a[2], name


def test_unshifted_wishart_regret_bound_decreases_in_inverse_epsilon_at_ci_config() -> None:
    """Documented: at the CI configuration (n = 10⁵, d = 5) nL²/(dρ_min) ≈ 0.006, so Eq. (2) for
    the unshifted Wishart is ≈ √8·n·(a+b8)/(a−b8), which falls as a = √(mk) grows with 1/ε."""
    n, d = 10**5, 5
    b1 = _paper_variants(n, d, 1.0, DELTA, 1.0 / n)["wishart_unshifted"]
    b_half = _paper_variants(n, d, 0.5, DELTA, 1.0 / n)["wishart_unshifted"]
    assert n / (d * b1.rho_min) < 0.01
    thm5_1 = bd.regret_bound_thm5(n, d, 1.0, 1.0, 1.0, 1.0, 1.0 / n, b1)
    thm5_half = bd.regret_bound_thm5(n, d, 1.0, 1.0, 1.0, 1.0, 1.0 / n, b_half)
    assert thm5_half < thm5_1
    assert math.sqrt(8.0) * n < thm5_half  # ... towards its limit √8·n from above


@PROPS
@given(
    n=st.integers(1, 10**9),
    d=st.integers(1, 50),
    gap=st.floats(1e-6, 10.0),
    scale=st.floats(1e-3, 1e3),
    rho_min=st.floats(1e-2, 1e7),
    ratio=st.floats(1.0, 5.0),
    gamma=st.floats(0.0, 100.0),
)
def test_thm6_exactly_proportional_to_inverse_gap(
    n: int, d: int, gap: float, scale: float, rho_min: float, ratio: float, gamma: float
) -> None:
    b = RegularizerBounds(rho_min, rho_min * ratio, gamma, 0.0)
    r1 = bd.regret_bound_thm6(n, d, 1.0, 1.0, 1.0, 1.0, 0.01, b, gap)
    r2 = bd.regret_bound_thm6(n, d, 1.0, 1.0, 1.0, 1.0, 0.01, b, gap * scale)
    assert r1 * gap == pytest.approx(r2 * gap * scale, rel=1e-12)
    # and Eq. (3) = (8B/Δ)[·]² with the same bracket as Eq. (2) = B √(8n) [·]
    thm5 = bd.regret_bound_thm5(n, d, 1.0, 1.0, 1.0, 1.0, 0.01, b)
    assert r1 == pytest.approx(8.0 / gap * (thm5 / math.sqrt(8.0 * n)) ** 2, rel=1e-10)


@PROPS
@given(
    n=st.integers(1, 10**9),
    d=st.integers(1, 50),
    rho_min=st.floats(1e-2, 1e7),
    ratio=st.floats(1.0, 5.0),
    gamma=st.floats(0.0, 100.0),
    alpha=st.floats(1e-9, 0.9),
    B=st.floats(1.0, 10.0),
)
def test_display_forms_dominate_proof_forms(
    n: int, d: int, rho_min: float, ratio: float, gamma: float, alpha: float, B: float
) -> None:
    """Thm 5 (proof, App. B): B β̄_n sqrt(8dn ln(1 + nL²/(dρ_min))) <= Eq. (2) (R-T5), and Thm 6 (proof, App. B):
    (8B/Δ) β̄_n² d ln(1 + nL²/(dρ_min)) <= Eq. (3)."""
    b = RegularizerBounds(rho_min, rho_min * ratio, gamma, 0.0)
    beta_n = bd.beta_bar(n, d, 1.0, 1.0, alpha, 1.0, b)
    ln1p = math.log1p(n / (d * rho_min))
    proof5 = B * beta_n * math.sqrt(8.0 * d * n * ln1p)
    proof6 = 8.0 * B / 0.1 * beta_n**2 * d * ln1p
    assert proof5 <= bd.regret_bound_thm5(n, d, 1.0, 1.0, B, 1.0, alpha, b) * (1 + 1e-12)
    assert proof6 <= bd.regret_bound_thm6(n, d, 1.0, 1.0, B, 1.0, alpha, b, 0.1) * (1 + 1e-12)


# ------------------------------------------------------------------------------------------------
# Prop. 4: β_t <= β̄_t on the event log det V_t <= d ln(ρ_max + t L²/d)
# ------------------------------------------------------------------------------------------------


@PROPS
@given(
    t=st.integers(0, 10**9),
    d=st.integers(1, 50),
    rho_min=st.floats(1e-3, 1e7),
    ratio=st.floats(1.0, 10.0),
    gamma=st.floats(0.0, 1e3),
    sigma=st.floats(0.0, 10.0),
    S=st.floats(0.0, 10.0),
    alpha=st.floats(1e-12, 0.9),
    L=st.floats(0.1, 10.0),
    slack=st.floats(0.0, 1.0),
)
def test_beta_t_at_most_beta_bar_on_the_logdet_event(
    t: int,
    d: int,
    rho_min: float,
    ratio: float,
    gamma: float,
    sigma: float,
    S: float,
    alpha: float,
    L: float,
    slack: float,
) -> None:
    b = RegularizerBounds(rho_min, rho_min * ratio, gamma, 0.0)
    ceiling = d * math.log(b.rho_max + t * L**2 / d)  # Prop. 4, step 5 (trace–determinant)
    log_det = ceiling - slack * (abs(ceiling) + 1.0)
    beta = bd.beta_t(log_det, d, sigma, alpha, S, b)
    beta_bar = bd.beta_bar(t, d, L, sigma, alpha, S, b)
    assert beta <= beta_bar * (1.0 + 1e-12) + 1e-12
    # at equality the two coincide (β̄_t is β_t evaluated at the ceiling)
    assert bd.beta_t(ceiling, d, sigma, alpha, S, b) == pytest.approx(beta_bar, rel=1e-9)
    # and the inequality is sharp: above the ceiling β_t exceeds β̄_t (if σ is not negligible)
    if sigma >= 1e-3:
        assert bd.beta_t(ceiling + 1.0, d, sigma, alpha, S, b) > beta_bar


@PROPS
@given(
    seed=st.integers(0, 2**32 - 1),
    d=st.integers(1, 6),
    t=st.integers(0, 40),
    rho_min=st.floats(0.1, 100.0),
    ratio=st.floats(1.0, 5.0),
    L=st.floats(0.1, 3.0),
)
def test_beta_t_at_most_beta_bar_for_random_matrices(
    seed: int, d: int, t: int, rho_min: float, ratio: float, L: float
) -> None:
    """V = G + H with G = Σ x xᵀ (‖x‖ <= L) and ρ_min I ⪯ H ⪯ ρ_max I: the log-det event of
    Prop. 4 step 5 holds (Claim 16 + AM–GM) and hence β_t <= β̄_t."""
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((t, d))
    norms = np.linalg.norm(xs, axis=1, keepdims=True)
    xs = xs / np.maximum(norms, 1e-300) * L * rng.uniform(0.0, 1.0, size=(t, 1))
    G = xs.T @ xs
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    lam = rng.uniform(rho_min, rho_min * ratio, size=d)
    H = (Q * lam) @ Q.T
    sign, log_det = np.linalg.slogdet(G + H)
    assert sign > 0
    b = RegularizerBounds(rho_min, rho_min * ratio, 0.3, 0.0)
    assert float(log_det) <= d * math.log(b.rho_max + t * L**2 / d) + 1e-9
    beta = bd.beta_t(float(log_det), d, 1.0, 0.05, 1.0, b)
    assert beta <= bd.beta_bar(t, d, L, 1.0, 0.05, 1.0, b) * (1.0 + 1e-12)


# ------------------------------------------------------------------------------------------------
# Input validation: every public function raises ValueError naming the parameter
# ------------------------------------------------------------------------------------------------

GOOD_BOUNDS = RegularizerBounds(rho_min=2.0, rho_max=4.0, gamma=1.0, shift=0.0)
_M_TINY, _K_TINY = 11, 50049

BASELINES: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "tree_depth": (bd.tree_depth, {"n": 1000}),
    "wishart_node_privacy": (bd.wishart_node_privacy, {"epsilon": 1.0, "delta": 0.1, "m": 11}),
    "gaussian_node_privacy": (bd.gaussian_node_privacy, {"epsilon": 1.0, "delta": 0.1, "m": 11}),
    "wishart_degrees_of_freedom": (
        bd.wishart_degrees_of_freedom,
        {"d": 2, "m": 11, "epsilon": 1.0, "delta": 0.1},
    ),
    "wishart_unshifted_bounds": (
        bd.wishart_unshifted_bounds,
        {"d": 2, "m": _M_TINY, "k": _K_TINY, "L_tilde": L_TILDE, "n": 1000, "alpha": 0.001},
    ),
    "wishart_shift": (
        bd.wishart_shift,
        {"d": 2, "m": _M_TINY, "k": _K_TINY, "L_tilde": L_TILDE, "n": 1000, "alpha": 0.001},
    ),
    "wishart_shifted_bounds": (
        bd.wishart_shifted_bounds,
        {"d": 2, "m": _M_TINY, "k": _K_TINY, "L_tilde": L_TILDE, "n": 1000, "alpha": 0.001},
    ),
    "gaussian_noise_std": (
        bd.gaussian_noise_std,
        {"m": 11, "L_tilde": L_TILDE, "epsilon": 1.0, "delta": 0.1},
    ),
    "gaussian_operator_norm_bound": (
        bd.gaussian_operator_norm_bound,
        {"sigma_noise": 97.9, "m": 11, "d": 2, "n": 1000, "alpha": 0.001},
    ),
    "gaussian_operator_norm_bound_closed_form": (
        bd.gaussian_operator_norm_bound_closed_form,
        {
            "m": 11,
            "L_tilde": L_TILDE,
            "epsilon": 1.0,
            "delta": 0.1,
            "d": 2,
            "n": 1000,
            "alpha": 0.001,
        },
    ),
    "gaussian_bounds": (
        bd.gaussian_bounds,
        {
            "d": 2,
            "m": 11,
            "L_tilde": L_TILDE,
            "epsilon": 1.0,
            "delta": 0.1,
            "n": 1000,
            "alpha": 0.001,
        },
    ),
    "gaussian_bounds_for_release_std": (
        bd.gaussian_bounds_for_release_std,
        {"d": 2, "release_std": 10.0, "n": 1000, "alpha": 0.001},
    ),
    "gaussian_bounds_for_sigma": (
        bd.gaussian_bounds_for_sigma,
        {"d": 2, "m": 11, "sigma_noise": 10.0, "n": 1000, "alpha": 0.001},
    ),
    "nonprivate_bounds": (bd.nonprivate_bounds, {"rho": 1.0}),
    "reshifted_bounds": (
        bd.reshifted_bounds,
        {"base": GOOD_BOUNDS, "target_rho_min": 3.0, "mechanism": "wishart"},
    ),
    "beta_t": (
        bd.beta_t,
        {"log_det_V": 3.0, "d": 2, "sigma": 1.0, "alpha": 0.001, "S": 1.0, "bounds": GOOD_BOUNDS},
    ),
    "beta_t_batch": (
        bd.beta_t_batch,
        {
            "log_det_V": np.array([3.0, -50.0]),
            "d": 2,
            "sigma": 1.0,
            "alpha": 0.001,
            "S": 1.0,
            "bounds": GOOD_BOUNDS,
        },
    ),
    "beta_bar": (
        bd.beta_bar,
        {
            "t": 1000,
            "d": 2,
            "L": 1.0,
            "sigma": 1.0,
            "alpha": 0.001,
            "S": 1.0,
            "bounds": GOOD_BOUNDS,
        },
    ),
    "regret_bound_thm5": (
        bd.regret_bound_thm5,
        {
            "n": 1000,
            "d": 2,
            "L": 1.0,
            "S": 1.0,
            "B": 1.0,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": GOOD_BOUNDS,
        },
    ),
    "regret_bound_thm6": (
        bd.regret_bound_thm6,
        {
            "n": 1000,
            "d": 2,
            "L": 1.0,
            "S": 1.0,
            "B": 1.0,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": GOOD_BOUNDS,
            "gap": 0.1,
        },
    ),
    "claim14_min_pulls": (bd.claim14_min_pulls, {"n": 1000, "epsilon": 1.0, "gap": 0.1}),
    "cor15_regret_lower_bound": (
        bd.cor15_regret_lower_bound,
        {"num_arms": 25, "n": 1000, "epsilon": 1.0},
    ),
    "claim13_daily_regret_bound": (
        bd.claim13_daily_regret_bound,
        {"epsilon": 0.5, "delta": 0.1, "p": 0.5},
    ),
    "claim13_regret_lower_bound": (
        bd.claim13_regret_lower_bound,
        {"n": 100, "epsilon": 0.5, "delta": 0.1},
    ),
    "cor10_regret_order": (
        bd.cor10_regret_order,
        {"n": 10**6, "d": 4, "epsilon": 0.5, "delta": 0.1, "alpha": 1e-6},
    ),
    "cor12_regret_order": (
        bd.cor12_regret_order,
        {"n": 10**6, "d": 4, "epsilon": 0.5, "delta": 0.1, "alpha": 1e-6},
    ),
    "lemma21_regret_bound": (
        bd.lemma21_regret_bound,
        {"beta_bar_n": 2.0, "n": 10, "potential": 1.0},
    ),
    "lemma22_elliptical_potential": (
        bd.lemma22_elliptical_potential,
        {"actions": np.array([[1.0, 0.0], [0.5, 0.5]]), "U1": np.eye(2)},
    ),
}

NAN = float("nan")
INF = float("inf")
# parameter -> bad values (each must raise ValueError naming the parameter)
BAD_VALUES: dict[str, list[Any]] = {
    "epsilon": [0.0, -0.0, -1.0, NAN, INF, "1"],
    "delta": [0.0, 1.0, -0.1, 1.5, NAN],
    "alpha": [0.0, 1.0, -0.5, 2.0, NAN],
    "n": [0, -1, 10.0, True],
    "d": [0, -2, 2.0],
    "m": [0, -1, 1.5],
    "t": [-1, 0.5],
    "k": [0, 2],  # k >= d + 1 = 3 required
    "L_tilde": [0.0, -1.0, NAN, INF],
    "L": [0.0, -1.0, NAN],
    "sigma_noise": [0.0, -1.0, NAN],
    "release_std": [0.0, -1.0, NAN, INF],
    "rho": [0.0, -1.0, NAN, INF],
    "B": [0.0, 0.5, 0.999, NAN],
    "gap": [0.0, -0.1, NAN, INF],
    "num_arms": [1, 0],
    "log_det_V": [NAN, INF, -INF],
    "sigma": [-1.0, NAN],
    "S": [-1.0, NAN],
    "target_rho_min": [0.0, -1.0, NAN],
    "beta_bar_n": [0.5, NAN, INF],
    "p": [-0.1, 1.5, NAN],
    "potential": [-1.0, 11.0, NAN],
    "actions": [np.zeros((0, 2)), np.array([[NAN, 1.0]])],
    "U1": [-np.eye(2), np.eye(3)],
}


def _message_pattern(func: str, param: str, value: Any) -> str:
    """Regex the error message must match: it starts with the parameter name."""
    if (func == "beta_t_batch" and param == "log_det_V") or param in ("actions", "U1"):
        return rf"^{param} must"  # array checks: "must have shape", "must contain only finite"
    if (
        param in ("sigma", "S")
        and not func.startswith("beta_t")
        and isinstance(value, float)
        and value < 0
    ):
        # beta_bar / theorems check both at once: "sigma and S must be in [0, inf), got sigma=..."
        return rf"^sigma and S must be in \[0, inf\), got .*\b{param}=-1\.0"
    return rf"^{re.escape(param)} must be"


BAD_CASES = [
    pytest.param(func, param, value, id=f"{func}-{param}={value!r}")
    for func, (f, _) in BASELINES.items()
    for param in inspect.signature(f).parameters
    if param in BAD_VALUES
    for value in BAD_VALUES[param]
]


@pytest.mark.parametrize(("func", "param", "value"), BAD_CASES)
def test_bad_input_raises_naming_parameter(func: str, param: str, value: Any) -> None:
    f, kwargs = BASELINES[func]
    f(**kwargs)  # the baseline is valid
    bad = dict(kwargs, **{param: value})
    with pytest.raises(ValueError, match=_message_pattern(func, param, value)):
        f(**bad)


def test_every_public_function_is_covered_by_bad_input_cases() -> None:
    public = {
        name
        for name in bd.__all__
        if callable(getattr(bd, name)) and not isinstance(getattr(bd, name), type)
    }
    assert public == set(BASELINES)
    covered = {case.values[0] for case in BAD_CASES}
    assert covered == public
    # each of the generic parameters appears in at least one function
    params = {case.values[1] for case in BAD_CASES}
    for p in ("epsilon", "delta", "alpha", "n", "d", "k", "B", "gap"):
        assert p in params


def test_wishart_unshifted_bounds_tiny_k_raises_mentioning_k() -> None:
    # k = d + 1 = 3 passes the k >= d+1 check but √(mk) = √33 ≈ 5.74 < b8 ≈ 7.05 (Claim 19)
    with pytest.raises(ValueError, match=r"^k too small"):
        bd.wishart_unshifted_bounds(2, 11, 3, L_TILDE, 1000, 0.001)
    with pytest.raises(ValueError, match=r"^k too small"):
        bd.wishart_shifted_bounds(2, 11, 3, L_TILDE, 1000, 0.001)
    # Eq. (4) is only meaningful under the same precondition, so wishart_shift raises too
    with pytest.raises(ValueError, match=r"^k too small"):
        bd.wishart_shift(2, 11, 3, L_TILDE, 1000, 0.001)


def test_wishart_k_boundary_of_claim_19() -> None:
    # smallest k with √(mk) > b8 works, the one below raises
    m, d, n, alpha = 11, 2, 1000, 0.001
    b8 = math.sqrt(d) + math.sqrt(2.0 * math.log(8.0 * n / alpha))
    k_ok = math.floor(b8**2 / m) + 1  # m k_ok > b8²
    assert math.sqrt(m * k_ok) > b8 >= math.sqrt(m * (k_ok - 1))
    assert bd.wishart_unshifted_bounds(d, m, k_ok, L_TILDE, n, alpha).rho_min > 0.0
    with pytest.raises(ValueError, match=r"^k too small"):
        bd.wishart_unshifted_bounds(d, m, k_ok - 1, L_TILDE, n, alpha)


def test_wishart_k_epsilon_too_large_for_theorem_23() -> None:
    with pytest.raises(ValueError, match=r"epsilon"):
        bd.wishart_degrees_of_freedom(2, 11, 100.0, 0.1)
    # boundary: ε0 = ε / sqrt(8 m ln(2/δ)) < 1  ⇔  ε < sqrt(8 m ln(2/δ)) = sqrt(88 ln 20) ≈ 16.236
    eps_max = math.sqrt(8.0 * 11 * math.log(2.0 / 0.1))
    bd.wishart_degrees_of_freedom(2, 11, eps_max * (1.0 - 1e-9), 0.1)
    with pytest.raises(ValueError, match=r"^epsilon too large for Theorem 23"):
        bd.wishart_degrees_of_freedom(2, 11, eps_max * (1.0 + 1e-9), 0.1)


def test_invalid_gamma_mode_raises() -> None:
    with pytest.raises(ValueError, match=r"^gamma_mode"):
        bd.wishart_shifted_bounds(
            2,
            _M_TINY,
            _K_TINY,
            L_TILDE,
            1000,
            0.001,
            gamma_mode="loose",  # type: ignore[arg-type]
        )


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"rho_min": 0.0, "rho_max": 1.0, "gamma": 0.0, "shift": 0.0}, r"^rho_min must"),
        ({"rho_min": -1.0, "rho_max": 1.0, "gamma": 0.0, "shift": 0.0}, r"^rho_min must"),
        ({"rho_min": 2.0, "rho_max": 1.0, "gamma": 0.0, "shift": 0.0}, r"^rho_max must"),
        ({"rho_min": 1.0, "rho_max": NAN, "gamma": 0.0, "shift": 0.0}, r"^rho_max must"),
        ({"rho_min": 1.0, "rho_max": 2.0, "gamma": -0.1, "shift": 0.0}, r"^gamma must"),
        ({"rho_min": 1.0, "rho_max": 2.0, "gamma": NAN, "shift": 0.0}, r"^gamma must"),
        ({"rho_min": 1.0, "rho_max": 2.0, "gamma": 0.0, "shift": INF}, r"^shift must"),
    ],
)
def test_regularizer_bounds_validation(kwargs: dict[str, float], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        RegularizerBounds(**kwargs)


def test_wishart_k_delta0_at_least_inv_e_raises() -> None:
    # Theorem 23 needs δ0 = δ/(2m) < 1/e.  With n = 1 (m = 1) this fails for δ > 2/e ≈ 0.7358.
    assert bd.tree_depth(1) == 1
    bd.wishart_degrees_of_freedom(2, 1, 1.0, 0.7)  # δ0 = 0.35 < 1/e ≈ 0.3679
    with pytest.raises(ValueError, match=r"^delta too large for Theorem 23"):
        bd.wishart_degrees_of_freedom(2, 1, 1.0, 0.8)  # δ0 = 0.4 >= 1/e
    bd.wishart_degrees_of_freedom(2, 2, 1.0, 0.99)  # m = 2: δ0 = δ/4 < 1/4 always fine


def test_tight_gamma_when_shift_is_negative() -> None:
    # d = 50, n = 1000, ε = 15, δ = 0.1: m = 11, k = 274 and Eq. (4) gives c < 0, where Claim 20
    # does not apply; the tight γ' must then be γ √(ρ_max/ρ'_max) (H − cI ⪰ (1 − c/ρ_max) H).
    d, n, eps, delta, alpha = 50, 1000, 15.0, 0.1, 1e-3
    m = bd.tree_depth(n)
    k = bd.wishart_degrees_of_freedom(d, m, eps, delta)
    assert (m, k) == (11, 274)
    unshifted = bd.wishart_unshifted_bounds(d, m, k, L_TILDE, n, alpha)
    with pytest.warns(UserWarning, match="adds regularisation"):
        tight = bd.wishart_shifted_bounds(d, m, k, L_TILDE, n, alpha, gamma_mode="tight")
    assert tight.shift > 0.0  # -c > 0
    expected = unshifted.gamma * math.sqrt(unshifted.rho_max / tight.rho_max)
    assert tight.gamma == pytest.approx(expected, rel=1e-12)
    assert tight.gamma < unshifted.gamma  # extra regularisation only shrinks ‖h‖_{H^-1}
