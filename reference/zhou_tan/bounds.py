"""Theorems and lemmas of Zhou & Tan as functions: lower bounds, regret bounds, proof lemmas.

Paper: ``/work/shared/seeds/002_073f5552147145e6.txt`` (``l. N`` = line N).  Spec §3.

``O(·)``/``Ω(·)`` statements are returned as the expression *inside* the bracket, with no hidden
constant (spec §3.10): use them for scaling checks (exponents), not as numeric guarantees.  The
explicit, constant-carrying results (Lemma 7's explicit form, the regret certificate, Lemma 10's
failure bound, Lemma 11's Hoeffding bounds, Eq. 12 and Lemma 4 of the lower-bound construction) are
exact numbers.  ``eps`` = privacy ϵ, ``eps_nys`` = Nyström accuracy ε, ``ζ = e^ϵ − 1``.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from scipy import stats

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_epsilon,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_positive,
)
from reference.zhou_tan.kernels import KernelName, gamma_rate
from reference.zhou_tan.mechanism import ldp_reward_second_moment
from reference.zhou_tan.schedules import rho_nys

__all__ = [
    "cor1_regret_expr",
    "duchi_symmetric_kl_bound",
    "eq18_lower_bound",
    "lemma3_count_bound",
    "lemma4_delta_max",
    "lemma4_kl_bound",
    "lemma6_residuals",
    "lemma7_sum_sigma_bound",
    "lemma7_sum_sigma_sq_bound",
    "lemma8_dictionary_size_bound",
    "lemma9_sigma_ratio_bound",
    "lemma10_failure_bound",
    "lemma11_exact_tail",
    "lemma11_hoeffding_bound",
    "lemma11_union_failure",
    "lower_bound_delta_max",
    "lower_bound_function_count",
    "lower_bound_matern",
    "lower_bound_reward_law",
    "lower_bound_se",
    "lower_bound_width_matern",
    "lower_bound_width_se",
    "nonprivate_two_point_kl",
    "nonprivate_two_point_kl_bound",
    "regret_certificate",
    "regret_upper_bound_with_rate",
    "thm2_regret_expr",
    "thm3_confidence_terms",
    "thm3_regret_expr",
    "thm4_regret_expr",
    "zeta_priv",
]


def _alpha(alpha: float) -> float:
    return check_in_range("alpha", alpha, 0.0, 1.0, low_open=True, high_open=False)


def _failure(delta: float) -> float:
    return check_in_range("delta", delta, 0.0, 1.0, low_open=True, high_open=False)


def _gamma(gamma_T: float) -> float:
    return check_positive("gamma_T", gamma_T)


def zeta_priv(eps: float) -> float:
    """``ζ = e^ϵ − 1`` (Thm 1, l. 94).  Renamed ``zeta_priv`` (``ζ`` is reused in App. A.1)."""
    return math.expm1(check_epsilon(eps, "eps"))


# --------------------------------------------------------------------------------------------
# Theorem 1 (lower bounds, l. 90–96) and the App. A construction


def lower_bound_se(T: float, eps: float, v: float, B: float, d: int, alpha: float = 1.0) -> float:
    """Bracket of Thm 1, SE kernel (l. 94): ``v^{1/(1+α)} T^{1/(1+α)} ζ^{−2α/(1+α)} (ln(B^{(1+α)/α}Tζ²/v^{1/α}))^{dα/(2+2α)}``.

    Requires the logarithm's argument ``> 1``.
    """
    T_ = check_positive("T", T)
    z = zeta_priv(eps)
    vv = check_positive("v", v)
    B_ = check_positive("B", B)
    d_ = check_int_at_least("d", d, 1)
    a = _alpha(alpha)
    arg = B_ ** ((1.0 + a) / a) * T_ * z * z / vv ** (1.0 / a)
    if arg <= 1.0:
        raise ValueError(f"B^((1+α)/α) T ζ² / v^(1/α) must be in (1, inf), got {arg!r}")
    return float(
        vv ** (1.0 / (1.0 + a))
        * T_ ** (1.0 / (1.0 + a))
        * z ** (-2.0 * a / (1.0 + a))
        * math.log(arg) ** (d_ * a / (2.0 + 2.0 * a))
    )


def lower_bound_matern(
    T: float, eps: float, v: float, B: float, d: int, nu: float, alpha: float = 1.0
) -> float:
    """Bracket of Thm 1, Matérn (l. 96, derived at l. 586).

    ``v^{ν/D} T^{(ν+dα)/D} ζ̃ B^{dα/D}`` with ``D = ν(1+α) + dα`` and
    ``ζ̃ = ζ^{−2α/(1+α) + 2dα²/((1+α)D)}``.  At ``α = 1`` the ζ exponent is ``−2ν/(2ν+d)`` (spec T-20).
    """
    T_ = check_positive("T", T)
    z = zeta_priv(eps)
    vv = check_positive("v", v)
    B_ = check_positive("B", B)
    d_ = check_int_at_least("d", d, 1)
    nu_ = check_positive("nu", nu)
    a = _alpha(alpha)
    D = nu_ * (1.0 + a) + d_ * a
    z_exp = -2.0 * a / (1.0 + a) + 2.0 * d_ * a * a / ((1.0 + a) * D)
    return float(vv ** (nu_ / D) * T_ ** ((nu_ + d_ * a) / D) * z**z_exp * B_ ** (d_ * a / D))


def eq18_lower_bound(T: float, M: float, eps: float, v: float, alpha: float = 1.0) -> float:
    """Eq. (18) (l. 553): ``v^{1/(1+α)} T^{1/(1+α)} M^{α/(1+α)} (e^ϵ−1)^{−2α/(1+α)}``, if ``M ≤ 2C²(e^ϵ−1)²T``."""
    a = _alpha(alpha)
    return float(
        check_positive("v", v) ** (1.0 / (1.0 + a))
        * check_positive("T", T) ** (1.0 / (1.0 + a))
        * check_positive("M", M) ** (a / (1.0 + a))
        * zeta_priv(eps) ** (-2.0 * a / (1.0 + a))
    )


def lower_bound_delta_max(
    M: float, C: float, eps: float, T: float, v: float, alpha: float = 1.0
) -> float:
    """Largest gap of l. 549: ``Δ ≤ ½ (min{½, M/(4C²(e^ϵ−1)²T)})^{α/(1+α)} v^{1/(1+α)}`` gives ``E[R_T] ≥ TΔ``."""
    a = _alpha(alpha)
    z = zeta_priv(eps)
    ratio = check_positive("M", M) / (
        4.0 * check_positive("C", C) ** 2 * z * z * check_positive("T", T)
    )
    return float(
        0.5 * min(0.5, ratio) ** (a / (1.0 + a)) * check_positive("v", v) ** (1.0 / (1.0 + a))
    )


def lower_bound_width_se(
    B: float, Delta: float, lengthscale: float, d: int, h0: float, zeta_bump: float
) -> float:
    """App. A.1 (l. 426), SE: ``w = 2ζπl / √(ln(B(2πl²)^{d/4} h(0)/(2Δ)))``.

    ``h0 = h(0)`` and ``zeta_bump`` (``ζ``: ``h(x) < h(0)/2`` for ``‖x‖_∞ > ζ``) are absolute
    constants of the bump function ``H(z) = exp(−1/(1 − ‖z‖²))1{‖z‖ ≤ 1}`` that the paper does not
    evaluate; the caller supplies them.  Valid when ``Δ/B`` is small (log argument ``> 1``).
    """
    ell = check_positive("lengthscale", lengthscale)
    d_ = check_int_at_least("d", d, 1)
    arg = (
        check_positive("B", B)
        * (2.0 * math.pi * ell * ell) ** (d_ / 4.0)
        * check_positive("h0", h0)
        / (2.0 * check_positive("Delta", Delta))
    )
    if arg <= 1.0:
        raise ValueError(f"B(2πl²)^(d/4)h(0)/(2Δ) must be in (1, inf) (Δ/B small), got {arg!r}")
    return 2.0 * check_positive("zeta_bump", zeta_bump) * math.pi * ell / math.sqrt(math.log(arg))


def lower_bound_width_matern(
    B: float, Delta: float, nu: float, d: int, h0: float, zeta_bump: float, c_matern: float
) -> float:
    """App. A.1 (l. 426), Matérn: ``w = 2ζ (2Δ (8π²)^{(ν+d/2)/2} / (B c^{−1/2} h(0)))^{1/ν}``.

    ``c_matern`` is the paper's unnamed absolute constant ``c``; ``h0``, ``zeta_bump`` as in
    :func:`lower_bound_width_se`.
    """
    nu_ = check_positive("nu", nu)
    d_ = check_int_at_least("d", d, 1)
    inner = (
        2.0
        * check_positive("Delta", Delta)
        * (8.0 * math.pi**2) ** ((nu_ + d_ / 2.0) / 2.0)
        / (
            check_positive("B", B)
            * check_positive("c_matern", c_matern) ** -0.5
            * check_positive("h0", h0)
        )
    )
    return float(2.0 * check_positive("zeta_bump", zeta_bump) * inner ** (1.0 / nu_))


def lower_bound_function_count(
    w: float, d: int, convention: Literal["paper", "grid"] = "paper"
) -> int:
    """Number ``M`` of shifted bumps in ``[0,1]^d`` with step ``w`` (App. A.1, l. 420/428).

    ``"paper"``: ``⌊(1/w)^d⌋`` as printed; ``"grid"``: ``⌊1/w⌋^d``, the number of grid points with
    step ``w`` per axis (spec T-22).  They differ when ``1/w`` is not an integer and ``d ≥ 2``.
    """
    ww = check_in_range("w", w, 0.0, 1.0, low_open=True, high_open=False)
    d_ = check_int_at_least("d", d, 1)
    if convention == "paper":
        return math.floor((1.0 / ww) ** d_)
    if convention == "grid":
        return int(math.floor(1.0 / ww) ** d_)
    raise ValueError(f"convention must be 'paper' or 'grid', got {convention!r}")


def lower_bound_reward_law(
    f_value: float, Delta: float, v: float, alpha: float = 1.0
) -> tuple[float, float]:
    """Eq. (12) (l. 440): ``y = sgn(f)(v/2Δ)^{1/α}`` w.p. ``(2Δ/v)^{1/α}|f|``, else ``0``.

    Returns ``(value, probability)``.  Then ``E[y] = f`` and ``E|y|^{1+α} = v|f|/(2Δ) ≤ v`` when
    ``|f| ≤ 2Δ``; the probability is ``≤ 1`` when ``Δ ≤ ½v^{1/(1+α)}`` (l. 442).  Raises if the
    probability exceeds 1.
    """
    f = check_finite("f_value", f_value)
    D = check_positive("Delta", Delta)
    vv = check_positive("v", v)
    a = _alpha(alpha)
    mag = (vv / (2.0 * D)) ** (1.0 / a)
    prob = (2.0 * D / vv) ** (1.0 / a) * abs(f)
    if prob > 1.0 + 1e-12:
        raise ValueError(f"(2Δ/v)^(1/α)|f| must be <= 1 (Eq. 12), got {prob!r}")
    return math.copysign(mag, f) if f != 0 else 0.0, min(prob, 1.0)


def lemma3_count_bound(T: int, E0_counts: FloatArray, D_m: FloatArray) -> FloatArray:
    """Lemma 3 (l. 477): ``E_m[N_j] ≤ E_0[N_j] + T √(Σ_{j'} E_0[N_{j'}] D_m^{j'})`` for every region ``j``.

    ``E0_counts[j] = E_0[N_j]`` (expected visits to region ``j`` under ``f_0 ≡ 0``), ``D_m[j]`` the
    per-region KL bound ``D_m^j`` (Eq. 14).  Returns the right-hand side for every ``j``.
    """
    T_ = check_int_at_least("T", T, 1)
    n0 = check_array("E0_counts", E0_counts, ndim=1)
    D = check_array("D_m", D_m, shape=(n0.size,))
    if np.any(n0 < 0) or np.any(D < 0):
        raise ValueError("E0_counts and D_m must be >= 0")
    return np.asarray(n0 + T_ * math.sqrt(float(n0 @ D)), dtype=np.float64)


def lemma4_delta_max(v: float, alpha: float = 1.0) -> float:
    """Lemma 4's condition (l. 497): ``Δ ≤ ½ (½)^{α/(1+α)} v^{1/(1+α)}`` (then ``p ≤ ½`` in Eq. 12)."""
    a = _alpha(alpha)
    return float(0.5 * 0.5 ** (a / (1.0 + a)) * check_positive("v", v) ** (1.0 / (1.0 + a)))


def lemma4_kl_bound(eps: float, Delta: float, v: float, v_mj: float, alpha: float = 1.0) -> float:
    """Lemma 4 (l. 499): ``D_m^j ≤ 8(e^ϵ−1)² 2^{(1+α)/α} (Δ/v)^{1/α} v_m^j``."""
    a = _alpha(alpha)
    z = zeta_priv(eps)
    vm = check_finite("v_mj", v_mj)
    if vm < 0:
        raise ValueError(f"v_mj must be in [0, inf), got {v_mj!r}")
    return float(
        8.0
        * z
        * z
        * 2.0 ** ((1.0 + a) / a)
        * (check_positive("Delta", Delta) / check_positive("v", v)) ** (1.0 / a)
        * vm
    )


def nonprivate_two_point_kl(p: float) -> float:
    """``D_kl(P̃_0 ‖ P̃_m) = −ln(1 − p)``: ``P̃_0 = δ_0`` vs Eq. (12) with nonzero-probability ``p``."""
    pp = check_in_range("p", p, 0.0, 1.0, low_open=False, high_open=True)
    return -math.log1p(-pp)


def nonprivate_two_point_kl_bound(
    Delta: float, v: float, f_abs: float, alpha: float = 1.0
) -> float:
    """l. 509: ``D_kl(P̃_0(·|x) ‖ P̃_m(·|x)) ≤ 2 (2Δ/v)^{1/α} |f(x)|`` (valid when ``p ≤ ½``, Lemma 4)."""
    a = _alpha(alpha)
    return float(
        2.0
        * (2.0 * check_positive("Delta", Delta) / check_positive("v", v)) ** (1.0 / a)
        * abs(check_finite("f_abs", f_abs))
    )


def duchi_symmetric_kl_bound(eps: float, tv: float) -> float:
    """Duchi et al. [9] Thm 1 (l. 106): ``D(M₁‖M₂) + D(M₂‖M₁) ≤ 4(e^ϵ−1)² ‖P₁ − P₂‖²_TV``.

    ``tv`` is the total-variation distance in the sup-over-events convention (``∈ [0, 1]``).
    """
    z = zeta_priv(eps)
    t = check_in_range("tv", tv, 0.0, 1.0, low_open=False, high_open=False)
    return 4.0 * z * z * t * t


# --------------------------------------------------------------------------------------------
# Upper bounds: Theorems 2, 3, 4 and Corollary 1 (brackets of the O(·) statements)


def thm2_regret_expr(
    T: float, gamma_T: float, B: float, R: float, eps: float, eps_nys: float, delta: float
) -> float:
    """Thm 2 (l. 167): ``ρ̂B√(Tγ_T) + (ρ/ε²) γ_T √T √(v ln(T/δ) ln(γ_T T ln(T/δ)/δ))``, ``ρ̂ = ρ(1 + 1/√(1−ε))``."""
    T_ = check_positive("T", T)
    g = _gamma(gamma_T)
    d = _failure(delta)
    rho = rho_nys(eps_nys)
    rho_hat = rho * (1.0 + 1.0 / math.sqrt(1.0 - eps_nys))
    v = ldp_reward_second_moment(B, R, eps)
    lt = math.log(T_ / d)
    return rho_hat * B * math.sqrt(T_ * g) + (rho / eps_nys**2) * g * math.sqrt(T_) * math.sqrt(
        v * lt * math.log(g * T_ * lt / d)
    )


def thm3_regret_expr(
    T: float, gamma_T: float, B: float, R: float, eps: float, delta: float
) -> float:
    """Thm 3 (l. 204): ``ϑ√(ln T · γ_T T) + ϑ√T ln T √(γ_T(γ_T + ln(1/δ)))``, ``ϑ = (B+R)/ϵ``.

    Drops ϵ-independent terms (meaningful for ``ϵ ≲ 1``; spec T-21).  ``T > 1``.
    """
    T_ = check_positive("T", T)
    if T_ <= 1:
        raise ValueError(f"T must be in (1, inf), got {T!r}")
    g = _gamma(gamma_T)
    d = _failure(delta)
    th = (check_positive("B", B) + check_finite("R", R)) / check_epsilon(eps, "eps")
    lt = math.log(T_)
    return th * math.sqrt(lt * g * T_) + th * math.sqrt(T_) * lt * math.sqrt(
        g * (g + math.log(1.0 / d))
    )


def thm3_confidence_terms(
    t: int, B: float, R: float, lap_scale: float, K2: float, gamma_t: float, delta: float
) -> tuple[float, float]:
    """The two terms of Eq. (5) bounded in Thm 3's proof (l. 230, 238): ``(𝒯₁, 𝒯₂)`` bounds.

    ``𝒯₁ ≤ 2b_t √(2(γ_t + ln(1/δ)))`` (self-normalised, ``|ξ| ≤ 2b_t``) and
    ``𝒯₂ ≤ √(K(ln t + 1))`` (from ``E[η̂_τ|ℱ]² ≤ K/τ`` and ``Σ_{τ≤t} 1/τ ≤ ln t + 1``).
    ``β_{t+1} = B + (𝒯₁ + 𝒯₂)/√λ`` (l. 242).
    """
    t_ = check_int_at_least("t", t, 1)
    b = (
        check_positive("B", B)
        + check_finite("R", R)
        + check_positive("lap_scale", lap_scale) * math.log(t_)
    )
    g = check_finite("gamma_t", gamma_t)
    t1 = 2.0 * b * math.sqrt(2.0 * (g + math.log(1.0 / _failure(delta))))
    t2 = math.sqrt(check_positive("K2", K2) * (math.log(t_) + 1.0))
    return t1, t2


def thm4_regret_expr(
    T: float, gamma_T: float, B: float, c: float, eps_nys: float, delta: float, alpha: float = 1.0
) -> float:
    """Thm 4 (l. 264): ``B̂√(γ_T T ln(T/δ)) + Z ln(T/δ) c^{1/(1+α)} T^{1/(1+α)} γ_T^{(3+α)/(2(1+α))}``.

    ``B̂ = ρB(1 + 1/√(1−ε))``, ``Z = (ρ^{3+α}/ε²)^{1/(1+α)}``.
    """
    T_ = check_positive("T", T)
    g = _gamma(gamma_T)
    d = _failure(delta)
    a = _alpha(alpha)
    rho = rho_nys(eps_nys)
    B_hat = rho * check_positive("B", B) * (1.0 + 1.0 / math.sqrt(1.0 - eps_nys))
    Z = (rho ** (3.0 + a) / eps_nys**2) ** (1.0 / (1.0 + a))
    lt = math.log(T_ / d)
    return float(
        B_hat * math.sqrt(g * T_ * lt)
        + Z
        * lt
        * check_positive("c", c) ** (1.0 / (1.0 + a))
        * T_ ** (1.0 / (1.0 + a))
        * g ** ((3.0 + a) / (2.0 * (1.0 + a)))
    )


def cor1_regret_expr(
    T: float, gamma_T: float, B: float, R: float, eps: float, eps_nys: float, delta: float
) -> float:
    """Cor. 1 (l. 326): ``B̂√(γ_T T ln(T/δ)) + Z ln(T/δ) ((B+R)/ϵ) γ_T √T`` with ``α = 1``: ``Z = ρ²/ε``."""
    T_ = check_positive("T", T)
    g = _gamma(gamma_T)
    d = _failure(delta)
    rho = rho_nys(eps_nys)
    B_ = check_positive("B", B)
    B_hat = rho * B_ * (1.0 + 1.0 / math.sqrt(1.0 - eps_nys))
    Z = rho * rho / eps_nys
    lt = math.log(T_ / d)
    return B_hat * math.sqrt(g * T_ * lt) + Z * lt * (B_ + check_finite("R", R)) / check_epsilon(
        eps, "eps"
    ) * g * math.sqrt(T_)


def regret_upper_bound_with_rate(
    algorithm: Literal["ldp_ata", "ldp_tgp", "moma", "ldp_moma"],
    T: float,
    kernel: KernelName,
    d: int,
    B: float,
    R: float,
    eps: float,
    delta: float,
    eps_nys: float = 0.5,
    c: float = 1.0,
    alpha: float = 1.0,
    nu: float | None = None,
) -> float:
    """The bracket of Thm 2/3/4/Cor. 1 with ``γ_T`` replaced by the kernel's rate (l. 84, no constants)."""
    g = gamma_rate(T, kernel, d, nu)
    if algorithm == "ldp_ata":
        return thm2_regret_expr(T, g, B, R, eps, eps_nys, delta)
    if algorithm == "ldp_tgp":
        return thm3_regret_expr(T, g, B, R, eps, delta)
    if algorithm == "moma":
        return thm4_regret_expr(T, g, B, c, eps_nys, delta, alpha)
    if algorithm == "ldp_moma":
        return cor1_regret_expr(T, g, B, R, eps, eps_nys, delta)
    raise ValueError(
        f"algorithm must be 'ldp_ata', 'ldp_tgp', 'moma' or 'ldp_moma', got {algorithm!r}"
    )


# --------------------------------------------------------------------------------------------
# Appendix D lemmas


def lemma6_residuals(A: FloatArray, lam: float) -> tuple[float, float, float]:
    """Max-abs residuals of Lemma 6 (l. 618–624) for a finite ``t × p`` matrix ``A``.

    Returns ``(Eq. 19, Eq. 20 corrected, Eq. 20 as printed)``:
    (19) ``(AᵀA + λI)⁻¹Aᵀ = Aᵀ(AAᵀ + λI)⁻¹``;
    (20) ``I − Aᵀ(AAᵀ + λI)⁻¹A = λ(AᵀA + λI)⁻¹``.  The printed Eq. (20) lacks the inverse
    (``I − Aᵀ(AAᵀ + λI)A``, spec T-14); its residual is not 0 in general.
    """
    Ad = check_array("A", A, ndim=2)
    lam_ = check_positive("lam", lam)
    t, p = Ad.shape
    inner_t = Ad @ Ad.T + lam_ * np.eye(t)
    inner_p = Ad.T @ Ad + lam_ * np.eye(p)
    r19 = np.linalg.solve(inner_p, Ad.T) - Ad.T @ np.linalg.inv(inner_t)
    r20 = np.eye(p) - Ad.T @ np.linalg.solve(inner_t, Ad) - lam_ * np.linalg.inv(inner_p)
    r20p = np.eye(p) - Ad.T @ inner_t @ Ad - lam_ * np.linalg.inv(inner_p)
    return float(np.max(np.abs(r19))), float(np.max(np.abs(r20))), float(np.max(np.abs(r20p)))


def lemma7_sum_sigma_sq_bound(gamma_T: float, lam: float) -> float:
    """``Σ_t σ²_{t−1}(x_t) ≤ 2γ_T/ln(1 + 1/λ)`` when ``k(x,x) ≤ 1`` [explicit form of Lemma 7, spec §3.8].

    Because ``u ≤ (1/λ)/ln(1+1/λ) · ln(1+u)`` for ``u = σ²/λ ∈ [0, 1/λ]`` (concavity) and
    ``½Σ ln(1 + σ²_{t−1}(x_t)/λ) = ½ ln det(I + K_T/λ) ≤ γ_T``.
    """
    return 2.0 * check_finite("gamma_T", gamma_T) / math.log1p(1.0 / check_positive("lam", lam))


def lemma7_sum_sigma_bound(T: int, gamma_T: float, lam: float) -> float:
    """Lemma 7 (l. 632), explicit: ``Σ_{t=1}^T σ_{t−1}(x_t) ≤ √(2Tγ_T/ln(1+1/λ))`` (Cauchy–Schwarz)."""
    T_ = check_int_at_least("T", T, 1)
    return math.sqrt(T_ * lemma7_sum_sigma_sq_bound(gamma_T, lam))


def regret_certificate(beta_T: float, T: int, gamma_T: float, lam: float) -> float:
    """``R_T ≤ 2β_T √(2Tγ_T/ln(1+1/λ))`` on the confidence event (l. 685–691; spec §3.10).

    From ``r_t ≤ 2β_t σ_{t−1}(x_t)`` with ``β_t`` non-decreasing and Lemma 7's explicit form.
    """
    return 2.0 * check_positive("beta_T", beta_T) * lemma7_sum_sigma_bound(T, gamma_T, lam)


def lemma8_dictionary_size_bound(eps_nys: float, lam: float, q: float, gamma_n: float) -> float:
    """Lemma 8's event ``E_{2,n}`` (l. 724): ``m_n ≤ 6ρ(1 + 1/λ) q γ_n``."""
    return (
        6.0
        * rho_nys(eps_nys)
        * (1.0 + 1.0 / check_positive("lam", lam))
        * check_positive("q", q)
        * check_finite("gamma_n", gamma_n)
    )


def lemma9_sigma_ratio_bound(eps_nys: float) -> float:
    """Lemma 9.2 (l. 740): on the ε-accuracy event ``E_{1,n}``, ``σ̃_n(x) ≤ ρσ_n(x)``, ``ρ = (1+ε)/(1−ε)``."""
    return rho_nys(eps_nys)


def lemma10_failure_bound(
    m: int, n: int, c: float, alpha: float = 1.0, radius: float | None = None
) -> float:
    """Lemma 10's bound on ``P(‖Ṽ⁻¹Φ̃ᵀf − θ̃_j‖_Ṽ > γ)`` (proof l. 761–767).

    ``𝒯₁ + 𝒯₂ ≤ 2 m c n^{(1−α)/2}/γ^{1+α} + m (c n^{(1−α)/2}/γ^{1+α})²``.  With the paper's
    ``γ = (9mc)^{1/(1+α)} n^{(1−α)/(2(1+α))}`` (default ``radius=None``) this is
    ``2/9 + 1/(81m) ≤ 19/81 < 1/4``.
    """
    mm = check_int_at_least("m", m, 1)
    n_ = check_int_at_least("n", n, 1)
    a = _alpha(alpha)
    cc = check_positive("c", c)
    if radius is None:
        g = (9.0 * mm * cc) ** (1.0 / (1.0 + a)) * n_ ** ((1.0 - a) / (2.0 * (1.0 + a)))
    else:
        g = check_positive("radius", radius)
    u = cc * n_ ** ((1.0 - a) / 2.0) / g ** (1.0 + a)
    return float(2.0 * mm * u + mm * u * u)


def lemma11_hoeffding_bound(k: int, version: Literal["paper", "corrected"] = "paper") -> float:
    """Bound on ``P(Σ_j b_j ≥ k/3)`` for ``b_j`` independent with ``p_j < 1/4`` (Lemma 11, l. 779).

    ``"paper"``: ``e^{−k/24}`` as printed.  ``"corrected"``: Hoeffding for a deviation ``k/12`` of
    a sum of ``k`` variables in ``[0,1]`` gives ``exp(−2(k/12)²/k) = e^{−k/72}`` (spec T-9).  The
    printed bound is *false*: see :func:`lemma11_exact_tail`.
    """
    kk = check_int_at_least("k", k, 1)
    if version == "paper":
        return math.exp(-kk / 24.0)
    if version == "corrected":
        return math.exp(-kk / 72.0)
    raise ValueError(f"version must be 'paper' or 'corrected', got {version!r}")


def lemma11_exact_tail(k: int, p: float = 0.25) -> float:
    """``P(Bin(k, p) ≥ k/3)`` exactly (``scipy.stats.binom``): the quantity Lemma 11 bounds at ``p = 1/4``."""
    kk = check_int_at_least("k", k, 1)
    pp = check_in_range("p", p, 0.0, 1.0, low_open=False, high_open=False)
    return float(stats.binom.sf(math.ceil(kk / 3.0) - 1, kk, pp))


def lemma11_union_failure(
    k: int, n_epochs: int, version: Literal["paper", "corrected"] = "paper"
) -> float:
    """Union bound over the ``N`` epochs of Lemma 11: ``N · bound(k)`` (l. 785)."""
    return check_int_at_least("n_epochs", n_epochs, 0) * lemma11_hoeffding_bound(k, version)
