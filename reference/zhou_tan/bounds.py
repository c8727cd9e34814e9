"""Theorems and lemmas of Zhou & Tan as functions: lower bounds, regret bounds, proof lemmas.

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.
``O(·)``/``Ω(·)`` statements return the expression *inside* the bracket (for scaling checks, not
numeric guarantees); the explicit results (Lemma 7's explicit form, the regret certificate,
Lemma 10's failure bound, Lemma 11's Hoeffding bounds, Eq. 12 and Lemma 4) are exact numbers.
``eps`` = privacy ϵ, ``eps_nys`` = Nyström accuracy ε, ``ζ = e^ϵ − 1``.  Each result has its own
note in ``proofs_notes/zhou_tan/``; the link below is the lower-bounds note.

Proof note: ``proofs_notes/zhou_tan/thm1_lower_bounds.md``.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from scipy import integrate, optimize, special, stats

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_choice,
    check_epsilon,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_nonnegative,
    check_positive,
    check_size,
)
from reference.zhou_tan.kernels import KernelName, gamma_rate
from reference.zhou_tan.mechanism import ldp_reward_second_moment
from reference.zhou_tan.schedules import rho_nys

__all__ = [
    "BumpZetaCertificate",
    "bump_fourier_h",
    "bump_fourier_h_radial",
    "bump_h0",
    "bump_zeta",
    "bump_zeta_certificate",
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
    "lemma91_error_bound",
    "lower_bound_bump_g",
    "lower_bound_delta_max",
    "lower_bound_function_count",
    "lower_bound_matern",
    "lower_bound_reward_law",
    "lower_bound_se",
    "lower_bound_width_matern",
    "lower_bound_width_matern_numeric",
    "lower_bound_width_se",
    "lower_bound_width_se_numeric",
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
    """``ζ = e^ϵ − 1`` (Thm 1).  Renamed ``zeta_priv`` (``ζ`` is reused in App. A.1)."""
    return math.expm1(check_epsilon(eps, "eps"))


# --------------------------------------------------------------------------------------------
# Theorem 1 (lower bounds) and the App. A construction


def lower_bound_se(T: float, eps: float, v: float, B: float, d: int, alpha: float = 1.0) -> float:
    """Bracket of Thm 1, SE kernel: ``v^{1/(1+α)} T^{1/(1+α)} ζ^{−2α/(1+α)} (ln(B^{(1+α)/α}Tζ²/v^{1/α}))^{dα/(2+2α)}``.

    Requires the logarithm's argument ``> 1``.
    """
    T_ = check_positive("T", T)
    z = zeta_priv(eps)
    vv = check_positive("v", v)
    B_ = check_positive("B", B)
    d_ = check_size("d", d, 1)
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
    """Bracket of Thm 1, Matérn (derived in App. A.4).

    ``v^{ν/D} T^{(ν+dα)/D} ζ̃ B^{dα/D}`` with ``D = ν(1+α) + dα`` and
    ``ζ̃ = ζ^{−2α/(1+α) + 2dα²/((1+α)D)}``.  At ``α = 1`` the ζ exponent is ``−2ν/(2ν+d)``.
    """
    T_ = check_positive("T", T)
    z = zeta_priv(eps)
    vv = check_positive("v", v)
    B_ = check_positive("B", B)
    d_ = check_size("d", d, 1)
    nu_ = check_positive("nu", nu)
    a = _alpha(alpha)
    D = nu_ * (1.0 + a) + d_ * a
    z_exp = -2.0 * a / (1.0 + a) + 2.0 * d_ * a * a / ((1.0 + a) * D)
    return float(vv ** (nu_ / D) * T_ ** ((nu_ + d_ * a) / D) * z**z_exp * B_ ** (d_ * a / D))


def eq18_lower_bound(T: float, M: float, eps: float, v: float, alpha: float = 1.0) -> float:
    """Eq. (18): ``v^{1/(1+α)} T^{1/(1+α)} M^{α/(1+α)} (e^ϵ−1)^{−2α/(1+α)}``, if ``M ≤ 2C²(e^ϵ−1)²T``."""
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
    """Largest gap of App. A.4: ``Δ ≤ ½ (min{½, M/(4C²(e^ϵ−1)²T)})^{α/(1+α)} v^{1/(1+α)}`` gives ``E[R_T] ≥ TΔ``."""
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
    """App. A.1, SE: ``w = 2ζπl / √(ln(B(2πl²)^{d/4} h(0)/(2Δ)))``.

    ``h0 = h(0)`` and ``zeta_bump`` (``ζ``: ``h(x) < h(0)/2`` for ``‖x‖_∞ > ζ``) are absolute
    constants of the bump function ``H(z) = exp(−1/(1 − ‖z‖²))1{‖z‖ ≤ 1}`` that the paper does not
    evaluate; the caller supplies them.  Valid when ``Δ/B`` is small (log argument ``> 1``).
    """
    ell = check_positive("lengthscale", lengthscale)
    d_ = check_size("d", d, 1)
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
    """App. A.1, Matérn: ``w = 2ζ (2Δ (8π²)^{(ν+d/2)/2} / (B c^{−1/2} h(0)))^{1/ν}``.

    ``c_matern`` is the paper's unnamed absolute constant ``c``; ``h0``, ``zeta_bump`` as in
    :func:`lower_bound_width_se`.
    """
    nu_ = check_positive("nu", nu)
    d_ = check_size("d", d, 1)
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
    """Number ``M`` of shifted bumps in ``[0,1]^d`` with step ``w`` (App. A.1).

    ``"paper"``: ``⌊(1/w)^d⌋`` as printed; ``"grid"``: ``⌊1/w⌋^d``, the number of grid points with
    step ``w`` per axis.  They differ when ``1/w`` is not an integer and ``d ≥ 2``.
    """
    check_choice("convention", convention, ("paper", "grid"))
    ww = check_in_range("w", w, 0.0, 1.0, low_open=True, high_open=False)
    d_ = check_size("d", d, 1)
    if convention == "paper":
        return math.floor((1.0 / ww) ** d_)
    if convention == "grid":
        return int(math.floor(1.0 / ww) ** d_)
    raise ValueError(f"convention must be 'paper' or 'grid', got {convention!r}")


def lower_bound_reward_law(
    f_value: float, Delta: float, v: float, alpha: float = 1.0
) -> tuple[float, float]:
    """Eq. (12): ``y = sgn(f)(v/2Δ)^{1/α}`` w.p. ``(2Δ/v)^{1/α}|f|``, else ``0``.

    Returns ``(value, probability)``.  Then ``E[y] = f`` and ``E|y|^{1+α} = v|f|/(2Δ) ≤ v`` when
    ``|f| ≤ 2Δ``; the probability is ``≤ 1`` when ``Δ ≤ ½v^{1/(1+α)}`` (App. A.2).  Raises if the
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
    """Lemma 3: ``E_m[N_j] ≤ E_0[N_j] + T √(Σ_{j'} E_0[N_{j'}] D_m^{j'})`` for every region ``j``.

    ``E0_counts[j] = E_0[N_j]`` (expected visits to region ``j`` under ``f_0 ≡ 0``), ``D_m[j]`` the
    per-region KL bound ``D_m^j`` (Eq. 14).  Returns the right-hand side for every ``j``.
    """
    T_ = check_int_at_least("T", T, 1)
    n0 = check_array("E0_counts", E0_counts, ndim=1)
    D = check_array("D_m", D_m, ndim=1)
    if D.size != n0.size:
        raise ValueError(
            f"E0_counts and D_m must have one entry per region each, got {n0.size} and {D.size}"
        )
    if np.any(n0 < 0) or np.any(D < 0):
        raise ValueError("E0_counts and D_m must be >= 0")
    return np.asarray(n0 + T_ * math.sqrt(float(n0 @ D)), dtype=np.float64)


def lemma4_delta_max(v: float, alpha: float = 1.0) -> float:
    """Lemma 4's condition: ``Δ ≤ ½ (½)^{α/(1+α)} v^{1/(1+α)}`` (then ``p ≤ ½`` in Eq. 12)."""
    a = _alpha(alpha)
    return float(0.5 * 0.5 ** (a / (1.0 + a)) * check_positive("v", v) ** (1.0 / (1.0 + a)))


def lemma4_kl_bound(eps: float, Delta: float, v: float, v_mj: float, alpha: float = 1.0) -> float:
    """Lemma 4: ``D_m^j ≤ 8(e^ϵ−1)² 2^{(1+α)/α} (Δ/v)^{1/α} v_m^j``."""
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
    """App. A.4: ``D_kl(P̃_0(·|x) ‖ P̃_m(·|x)) ≤ 2 (2Δ/v)^{1/α} |f(x)|`` (valid when ``p ≤ ½``, Lemma 4)."""
    a = _alpha(alpha)
    return float(
        2.0
        * (2.0 * check_positive("Delta", Delta) / check_positive("v", v)) ** (1.0 / a)
        * check_nonnegative("f_abs", f_abs)
    )


def duchi_symmetric_kl_bound(eps: float, tv: float) -> float:
    """Duchi et al. [9] Thm 1: ``D(M₁‖M₂) + D(M₂‖M₁) ≤ 4(e^ϵ−1)² ‖P₁ − P₂‖²_TV``.

    ``tv`` is the total-variation distance in the sup-over-events convention (``∈ [0, 1]``).
    """
    z = zeta_priv(eps)
    t = check_in_range("tv", tv, 0.0, 1.0, low_open=False, high_open=False)
    return 4.0 * z * z * t * t


# --------------------------------------------------------------------------------------------
# The bump function h of App. A.1 and its constants h(0), ζ_bump
#
# Fourier convention: ``F(ξ) = ∫ f(x) e^{−2πi⟨x,ξ⟩} dx``, ``f(x) = ∫ F(ξ) e^{+2πi⟨x,ξ⟩} dξ``
# (ordinary frequency, unitary, no 2π factors in front).  The paper (App. A.1) only says "inverse
# Fourier transform"; its width formulas (App. A.1, taken from [20] = Scarlett et al. 2017) fix the
# convention: the SE width ``2ζπl/√(ln(B(2πl²)^{d/4}h(0)/(2Δ)))`` comes from
# ``‖g‖²_ℋ = ∫|G(ξ)|²/K(ξ)dξ`` with the SE spectral density ``K(ξ) = (2πl²)^{d/2}e^{−2π²l²‖ξ‖²}``,
# and the Matérn ``(8π²)^{(ν+d/2)/2}`` from ``K(ξ) ∝ (2ν/l² + 4π²‖ξ‖²)^{−(ν+d/2)}``; both are the
# transforms of the kernels in this convention only (the angular one has ``e^{−l²‖ω‖²/2}`` and no
# ``π`` in the width).  In this convention ``h(0) = ∫H`` and ``∫|h|² = ∫|H|²`` (Parseval).


def _bump_H_radial(rho: float) -> float:
    """``H`` at ``‖z‖ = rho``: ``exp(−1/(1 − rho²))`` for ``rho < 1``, else ``0`` (App. A.1)."""
    u = 1.0 - rho * rho
    return math.exp(-1.0 / u) if u > 0.0 else 0.0


def _bessel_ratio(nu: float, z: float) -> float:
    """``Λ_ν(z) = J_ν(z)/z^ν``, continuous at ``z = 0`` (``Λ_ν(0) = 1/(2^ν Γ(ν+1))``)."""
    lam0 = 1.0 / (math.pow(2.0, nu) * math.gamma(nu + 1.0))
    if z < 1e-4:  # two-term series, relative error O(z⁴) < 1e-16
        return lam0 * (1.0 - z * z / (4.0 * (nu + 1.0)))
    return float(special.jv(nu, z)) / math.pow(z, nu)


def _bump_h_scalar(r: float, d: int) -> float:
    """Hankel form of ``h(x) = ∫_{ℝ^d} H(ξ)e^{2πi⟨x,ξ⟩}dξ`` at ``‖x‖ = r`` (see bump_fourier_h_radial)."""
    nu = d / 2.0 - 1.0
    two_pi_r = 2.0 * math.pi * r

    def integrand(rho: float) -> float:
        return _bump_H_radial(rho) * _bessel_ratio(nu, two_pi_r * rho) * rho ** (d - 1)

    # About r oscillations of the Bessel factor on [0, 1]: one quad per ~8 of them.
    edges = np.linspace(0.0, 1.0, 2 + int(r // 8.0))
    total = 0.0
    for a, b in itertools.pairwise(edges):
        val, _ = integrate.quad(integrand, a, b, limit=200, epsabs=1e-14, epsrel=1e-12)
        total += val
    return math.pow(2.0 * math.pi, d / 2.0) * total


def bump_fourier_h_radial(r: FloatArray | float, d: int) -> FloatArray:
    """``h`` of App. A.1 as a function of the radius ``r = ‖x‖₂ ≥ 0`` (vectorised).

    ``h`` is the inverse Fourier transform of the radial bump ``H(z) = exp(−1/(1 − ‖z‖²))1{‖z‖ ≤ 1}``
    on ``ℝ^d``, in the convention ``h(x) = ∫ H(ξ)e^{2πi⟨x,ξ⟩}dξ`` (why: see the comment above this
    section; it makes ``h(0) = ∫H``).  For a radial ``H`` this is the Hankel transform
    ``h(r) = 2π r^{1−d/2} ∫₀¹ H(ρ) J_{d/2−1}(2πrρ) ρ^{d/2} dρ``
    ``     = (2π)^{d/2} ∫₀¹ H(ρ) Λ(2πrρ) ρ^{d−1} dρ``,  ``Λ(z) = J_{d/2−1}(z)/z^{d/2−1}``,
    computed with ``scipy.special.jv`` and ``scipy.integrate.quad`` (absolute error ``~1e-13``).
    ``h`` is real, even, ``|h| ≤ h(0)`` (``H ≥ 0``), and ``|h(r)| ≤ ‖ΔH‖₁/(4π²r²)``.
    Returns an array of the shape of ``r``.  Cost grows like ``1 + r/8`` quadratures per radius.
    """
    d_ = check_size("d", d, 1)
    rr = check_array("r", r)
    if np.any(rr < 0):
        raise ValueError("r must be in [0, inf) (a radius)")
    uniq, inverse = np.unique(rr, return_inverse=True)
    vals = np.array([_bump_h_scalar(float(u), d_) for u in uniq], dtype=np.float64)
    return np.asarray(vals[inverse].reshape(rr.shape), dtype=np.float64)


def bump_fourier_h(x: FloatArray, d: int) -> FloatArray:
    """``h(x)`` of App. A.1 at points ``x`` of shape ``(..., d)``; returns shape ``(...)``.

    ``h`` is radial, so ``h(x) = bump_fourier_h_radial(‖x‖₂, d)`` (same Fourier convention).
    """
    d_ = check_size("d", d, 1)
    xx = check_array("x", x)
    if xx.ndim < 1 or xx.shape[-1] != d_:
        raise ValueError(f"x must have shape (..., {d_}) (points of R^d), got shape {xx.shape}")
    return bump_fourier_h_radial(np.linalg.norm(xx, axis=-1), d_)


def _sphere_area(d: int) -> float:
    """Surface area ``2π^{d/2}/Γ(d/2)`` of the unit sphere in ``ℝ^d`` (``= 2`` for ``d = 1``)."""
    return 2.0 * math.pow(math.pi, d / 2.0) / math.gamma(d / 2.0)


def _radial_integral(f: Callable[[float], float], d: int, points: Sequence[float] = ()) -> float:
    """``∫_{‖ξ‖≤1} f(‖ξ‖) dξ = |S^{d−1}| ∫₀¹ f(ρ)ρ^{d−1}dρ``."""
    val, _ = integrate.quad(
        lambda rho: f(rho) * rho ** (d - 1),
        0.0,
        1.0,
        points=list(points) or None,
        limit=200,
        epsabs=1e-14,
        epsrel=1e-12,
    )
    return _sphere_area(d) * val


@functools.lru_cache(maxsize=64)
def _bump_h0_cached(d: int) -> float:
    return _bump_h_scalar(0.0, d)


def bump_h0(d: int) -> float:
    """``h(0) = ∫_{ℝ^d} H(z)dz = |S^{d−1}| ∫₀¹ e^{−1/(1−ρ²)} ρ^{d−1} dρ`` (App. A.1).

    The maximum of ``h`` (``H ≥ 0``); enters the widths of App. A.1 and ``g`` of App. A.1.
    """
    return _bump_h0_cached(check_size("d", d, 1))


@dataclass(frozen=True)
class BumpZetaCertificate:
    """How :func:`bump_zeta` certifies ``ζ_bump`` for dimension ``d`` (all radii Euclidean).

    * ``zeta``: the last radius where ``h(r) = h(0)/2``; ``h(r) < h(0)/2`` for every ``r > zeta``.
    * ``h0``: ``h(0)``.
    * ``tail_radius``: ``√(‖ΔH‖₁/(4π²·h(0)/2))``; for ``r > tail_radius`` the bound
      ``|h(r)| ≤ ‖ΔH‖₁/(4π²r²)`` (two integrations by parts in ``ξ``) gives ``|h| < h(0)/2``.
    * ``laplacian_l1``: ``‖ΔH‖₁``.
    * ``curvature_bound``: ``M₂ = (4π²/d)∫‖ξ‖²H(ξ)dξ ≥ |d²h(r e)/dr²|`` along any line.
    * ``grid_step``: the step ``s`` of the grid on ``[0, tail_radius]``.
    * ``bracket``: the grid cell ``[r_i, r_{i+1}]`` holding ``zeta`` (``h`` strictly decreasing on it).
    * ``min_margin``: ``min`` over the later cells of ``h(0)/2 − max(h(r_k), h(r_{k+1})) − M₂s²/8``,
      a lower bound on ``h(0)/2 − h`` on ``[r_{i+1}, tail_radius]``; positive.
    """

    d: int
    zeta: float
    h0: float
    tail_radius: float
    laplacian_l1: float
    curvature_bound: float
    grid_step: float
    bracket: tuple[float, float]
    min_margin: float


def _bump_laplacian_radial(rho: float, d: int) -> float:
    """``ΔH`` at ``‖z‖ = rho``: ``H·(4ρ²/u⁴ − 8ρ²/u³ − 2d/u²)``, ``u = 1 − ρ²``."""
    u = 1.0 - rho * rho
    if u <= 0.0:
        return 0.0
    return math.exp(-1.0 / u) * (4.0 * rho * rho / u**4 - 8.0 * rho * rho / u**3 - 2.0 * d / u**2)


@functools.lru_cache(maxsize=64)
def _bump_zeta_cached(d: int, grid_step: float) -> BumpZetaCertificate:
    h0 = _bump_h0_cached(d)
    half = 0.5 * h0
    # ΔH changes sign where 4 − 12u + (8 − 2d)u² = 0 (u = 1 − ρ²); give those ρ to quad.
    a2 = 8.0 - 2.0 * d
    us = [4.0 / 12.0] if a2 == 0.0 else [float(u.real) for u in np.roots([a2, -12.0, 4.0])]
    kinks = sorted(math.sqrt(1.0 - u) for u in us if 0.0 < u < 1.0)
    lap_l1 = _radial_integral(lambda rho: abs(_bump_laplacian_radial(rho, d)), d, kinks)
    # 1.001: slack for the ~1e-12 quadrature error of ‖ΔH‖₁ and h(0).
    tail = 1.001 * math.sqrt(lap_l1 / (4.0 * math.pi**2 * half))
    m2 = 4.0 * math.pi**2 / d * _radial_integral(lambda rho: _bump_H_radial(rho) * rho * rho, d)
    n_cells = math.ceil(tail / grid_step)
    grid = grid_step * np.arange(n_cells + 1, dtype=np.float64)
    vals = np.array([_bump_h_scalar(float(r), d) for r in grid])
    above = np.flatnonzero(vals >= half)
    i = int(above[-1])  # vals[0] = h0 >= half, and vals[n_cells] < half (tail bound)
    if i >= n_cells:
        raise RuntimeError(f"bump_zeta: no crossing found on [0, {tail}] (d={d})")
    slope = (vals[i + 1] - vals[i]) / grid_step
    if slope + m2 * grid_step >= 0.0:
        raise RuntimeError(f"bump_zeta: h not certified decreasing on the bracket (d={d})")
    later = np.maximum(vals[i + 1 : -1], vals[i + 2 :])
    slack = m2 * grid_step**2 / 8.0
    margin = float(np.min(half - later - slack)) if later.size else math.inf
    if not margin > 1e-10:
        raise RuntimeError(f"bump_zeta: grid certificate failed (margin {margin}, d={d})")
    a, b = float(grid[i]), float(grid[i + 1])
    zeta = float(
        optimize.brentq(lambda r: _bump_h_scalar(r, d) - half, a, b, xtol=1e-14, rtol=1e-14)
    )
    return BumpZetaCertificate(d, zeta, h0, tail, lap_l1, m2, grid_step, (a, b), margin)


def bump_zeta_certificate(d: int, grid_step: float = 1e-3) -> BumpZetaCertificate:
    """Compute ``ζ_bump`` (App. A.1) with the evidence that it is the last crossing.

    Steps: (1) for ``r > R = √(2‖ΔH‖₁/(4π²h(0)))``, ``|h(r)| ≤ ‖ΔH‖₁/(4π²r²) < h(0)/2``, since
    ``(2π‖x‖)²h(x) = −∫ΔH(ξ)e^{2πi⟨x,ξ⟩}dξ``; (2) on the grid ``r_k = k·s`` of ``[0, R]``, take the
    last ``i`` with ``h(r_i) ≥ h(0)/2``; (3) every later cell has ``max(h(r_k), h(r_{k+1})) + M₂s²/8
    < h(0)/2`` (linear interpolation error with ``|h''| ≤ M₂``), so ``h < h(0)/2`` on
    ``[r_{i+1}, ∞)``; (4) on ``[r_i, r_{i+1}]`` the secant slope plus ``M₂s`` is ``< 0``, so ``h`` is
    strictly decreasing there and ``scipy.optimize.brentq`` finds its unique ``h(0)/2`` crossing.
    Raises ``RuntimeError`` if a step cannot be certified.  Cached per ``(d, grid_step)``.
    """
    d_ = check_size("d", d, 1)
    s = check_in_range("grid_step", grid_step, 0.0, 0.1, low_open=True, high_open=False)
    return _bump_zeta_cached(d_, s)


def bump_zeta(d: int) -> float:
    """``ζ_bump`` of App. A.1: the smallest ``ζ`` with ``h(x) < h(0)/2`` whenever ``‖x‖_∞ > ζ``.

    Computed as the Euclidean radius ``r* = sup{r : h(r) ≥ h(0)/2}`` (the last crossing, see
    :func:`bump_zeta_certificate`).  Why this is the paper's ``ζ``: if ``‖x‖_∞ > r*`` then
    ``‖x‖₂ ≥ ‖x‖_∞ > r*``, so ``h(x) < h(0)/2``; and it cannot be smaller, because the axis points
    ``x = r·e₁`` have ``‖x‖_∞ = ‖x‖₂ = r``, so ``{‖x‖_∞ > ζ}`` contains every radius ``r > ζ``.
    (The ``√d`` between the norms matters only for points with ``‖x‖_∞ ≤ ζ``, where nothing is
    required.)  At ``r*`` itself ``h = h(0)/2``, so the strict inequality of App. A.1 holds beyond it.
    """
    return bump_zeta_certificate(d).zeta


def lower_bound_bump_g(x: FloatArray, Delta: float, w: float, d: int) -> FloatArray:
    """``g(x) = (2Δ/h(0)) h(2xζ/w)`` (App. A.1) at points ``x`` of shape ``(..., d)``.

    ``g(0) = 2Δ``, ``|g| ≤ 2Δ``, and ``g(x) < Δ`` when ``‖x‖_∞ > w/2`` (``ζ`` = :func:`bump_zeta`).
    """
    D = check_positive("Delta", Delta)
    ww = check_positive("w", w)
    d_ = check_size("d", d, 1)
    xx = check_array("x", x)
    scale = 2.0 * bump_zeta(d_) / ww
    return np.asarray(2.0 * D / bump_h0(d_) * bump_fourier_h(scale * xx, d_), dtype=np.float64)


def lower_bound_width_se_numeric(B: float, Delta: float, lengthscale: float, d: int) -> float:
    """:func:`lower_bound_width_se` with ``h0 = bump_h0(d)`` and ``zeta_bump = bump_zeta(d)``."""
    d_ = check_size("d", d, 1)
    return lower_bound_width_se(B, Delta, lengthscale, d_, bump_h0(d_), bump_zeta(d_))


def lower_bound_width_matern_numeric(
    B: float, Delta: float, nu: float, d: int, c_matern: float
) -> float:
    """:func:`lower_bound_width_matern` with ``h0 = bump_h0(d)``, ``zeta_bump = bump_zeta(d)``.

    ``c_matern`` (the paper's unnamed constant ``c``, App. A.1) stays an input.
    """
    d_ = check_size("d", d, 1)
    return lower_bound_width_matern(B, Delta, nu, d_, bump_h0(d_), bump_zeta(d_), c_matern)


# --------------------------------------------------------------------------------------------
# Upper bounds: Theorems 2, 3, 4 and Corollary 1 (brackets of the O(·) statements)


def thm2_regret_expr(
    T: float, gamma_T: float, B: float, R: float, eps: float, eps_nys: float, delta: float
) -> float:
    """Thm 2: ``ρ̂B√(Tγ_T) + (ρ/ε²) γ_T √T √(v ln(T/δ) ln(γ_T T ln(T/δ)/δ))``, ``ρ̂ = ρ(1 + 1/√(1−ε))``."""
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
    """Thm 3: ``ϑ√(ln T · γ_T T) + ϑ√T ln T √(γ_T(γ_T + ln(1/δ)))``, ``ϑ = (B+R)/ϵ``.

    Drops ϵ-independent terms (meaningful for ``ϵ ≲ 1``).  ``T > 1``.
    """
    T_ = check_positive("T", T)
    if T_ <= 1:
        raise ValueError(f"T must be in (1, inf), got {T!r}")
    g = _gamma(gamma_T)
    d = _failure(delta)
    th = (check_positive("B", B) + check_nonnegative("R", R)) / check_epsilon(eps, "eps")
    lt = math.log(T_)
    return th * math.sqrt(lt * g * T_) + th * math.sqrt(T_) * lt * math.sqrt(
        g * (g + math.log(1.0 / d))
    )


def thm3_confidence_terms(
    t: int, B: float, R: float, lap_scale: float, K2: float, gamma_t: float, delta: float
) -> tuple[float, float]:
    """The two terms of Eq. (5) bounded in Thm 3's proof (Sec. 4.3): ``(𝒯₁, 𝒯₂)`` bounds.

    ``𝒯₁ ≤ 2b_t √(2(γ_t + ln(1/δ)))`` (self-normalised, ``|ξ| ≤ 2b_t``) and
    ``𝒯₂ ≤ √(K(ln t + 1))`` (from ``E[η̂_τ|ℱ]² ≤ K/τ`` and ``Σ_{τ≤t} 1/τ ≤ ln t + 1``).
    ``β_{t+1} = B + (𝒯₁ + 𝒯₂)/√λ`` (Sec. 4.3).
    """
    t_ = check_int_at_least("t", t, 1)
    b = (
        check_positive("B", B)
        + check_nonnegative("R", R)
        + check_positive("lap_scale", lap_scale) * math.log(t_)
    )
    g = check_nonnegative("gamma_t", gamma_t)
    t1 = 2.0 * b * math.sqrt(2.0 * (g + math.log(1.0 / _failure(delta))))
    t2 = math.sqrt(check_positive("K2", K2) * (math.log(t_) + 1.0))
    return t1, t2


def thm4_regret_expr(
    T: float, gamma_T: float, B: float, c: float, eps_nys: float, delta: float, alpha: float = 1.0
) -> float:
    """Thm 4: ``B̂√(γ_T T ln(T/δ)) + Z ln(T/δ) c^{1/(1+α)} T^{1/(1+α)} γ_T^{(3+α)/(2(1+α))}``.

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
    """Cor. 1: ``B̂√(γ_T T ln(T/δ)) + Z ln(T/δ) ((B+R)/ϵ) γ_T √T`` with ``α = 1``: ``Z = ρ²/ε``."""
    T_ = check_positive("T", T)
    g = _gamma(gamma_T)
    d = _failure(delta)
    rho = rho_nys(eps_nys)
    B_ = check_positive("B", B)
    B_hat = rho * B_ * (1.0 + 1.0 / math.sqrt(1.0 - eps_nys))
    Z = rho * rho / eps_nys
    lt = math.log(T_ / d)
    return B_hat * math.sqrt(g * T_ * lt) + Z * lt * (
        B_ + check_nonnegative("R", R)
    ) / check_epsilon(eps, "eps") * g * math.sqrt(T_)


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
    """The bracket of Thm 2/3/4/Cor. 1 with ``γ_T`` replaced by the kernel's rate (Sec. 2, no constants)."""
    check_choice("algorithm", algorithm, ("ldp_ata", "ldp_tgp", "moma", "ldp_moma"))
    check_choice("kernel", kernel, get_args(KernelName))
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
    """Max-abs residuals of Lemma 6 for a finite ``t × p`` matrix ``A``.

    Returns ``(Eq. 19, Eq. 20 corrected, Eq. 20 as printed)``:
    (19) ``(AᵀA + λI)⁻¹Aᵀ = Aᵀ(AAᵀ + λI)⁻¹``;
    (20) ``I − Aᵀ(AAᵀ + λI)⁻¹A = λ(AᵀA + λI)⁻¹``.  The printed Eq. (20) lacks the inverse
    (``I − Aᵀ(AAᵀ + λI)A``); its residual is not 0 in general.
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
    """``Σ_t σ²_{t−1}(x_t) ≤ 2γ_T/ln(1 + 1/λ)`` when ``k(x,x) ≤ 1`` [explicit form of Lemma 7, derived].

    Because ``u ≤ (1/λ)/ln(1+1/λ) · ln(1+u)`` for ``u = σ²/λ ∈ [0, 1/λ]`` (concavity) and
    ``½Σ ln(1 + σ²_{t−1}(x_t)/λ) = ½ ln det(I + K_T/λ) ≤ γ_T``.
    """
    return (
        2.0 * check_nonnegative("gamma_T", gamma_T) / math.log1p(1.0 / check_positive("lam", lam))
    )


def lemma7_sum_sigma_bound(T: int, gamma_T: float, lam: float) -> float:
    """Lemma 7, explicit: ``Σ_{t=1}^T σ_{t−1}(x_t) ≤ √(2Tγ_T/ln(1+1/λ))`` (Cauchy–Schwarz)."""
    T_ = check_int_at_least("T", T, 1)
    return math.sqrt(T_ * lemma7_sum_sigma_sq_bound(gamma_T, lam))


def regret_certificate(beta_T: float, T: int, gamma_T: float, lam: float) -> float:
    """``R_T ≤ 2β_T √(2Tγ_T/ln(1+1/λ))`` on the confidence event (App. D.2).

    From ``r_t ≤ 2β_t σ_{t−1}(x_t)`` with ``β_t`` non-decreasing and Lemma 7's explicit form.
    """
    return 2.0 * check_positive("beta_T", beta_T) * lemma7_sum_sigma_bound(T, gamma_T, lam)


def lemma8_dictionary_size_bound(eps_nys: float, lam: float, q: float, gamma_n: float) -> float:
    """Lemma 8's event ``E_{2,n}``: ``m_n ≤ 6ρ(1 + 1/λ) q γ_n``."""
    return (
        6.0
        * rho_nys(eps_nys)
        * (1.0 + 1.0 / check_positive("lam", lam))
        * check_positive("q", q)
        * check_nonnegative("gamma_n", gamma_n)
    )


def lemma91_error_bound(
    B: float, eps_nys: float, sigma_tilde: FloatArray, estimation_error: float, lam: float
) -> FloatArray:
    """Lemma 9.1 (App. D.3): on an ε-accurate dictionary, for any ``θ̃``,
    ``|f(x) − φ̃(x)ᵀθ̃| ≤ (B(1 + 1/√(1−ε)) + λ^{−1/2}‖Ṽ⁻¹Φ̃ᵀf_n − θ̃‖_Ṽ) σ̃(x)`` with ``‖f‖_ℋ ≤ B``;
    ``estimation_error`` is the ``Ṽ``-norm and ``sigma_tilde`` the approximate posterior standard
    deviations (:func:`reference.zhou_tan.nystrom.approx_posterior`).  Returns the bound per arm."""
    B_ = check_positive("B", B)
    eps = check_in_range("eps_nys", eps_nys, 0.0, 1.0, low_open=False)
    sig = check_array("sigma_tilde", sigma_tilde, ndim=1)
    if sig.size == 0 or np.any(sig < 0):
        raise ValueError("sigma_tilde must be a non-empty array of standard deviations (>= 0)")
    est = check_nonnegative("estimation_error", estimation_error)
    lam_ = check_positive("lam", lam)
    coefficient = B_ * (1.0 + 1.0 / math.sqrt(1.0 - eps)) + est / math.sqrt(lam_)
    return np.asarray(coefficient * sig, dtype=np.float64)


def lemma9_sigma_ratio_bound(eps_nys: float) -> float:
    """Lemma 9.2: on the ε-accuracy event ``E_{1,n}``, ``σ̃_n(x) ≤ ρσ_n(x)``, ``ρ = (1+ε)/(1−ε)``."""
    return rho_nys(eps_nys)


def lemma10_failure_bound(
    m: int, n: int, c: float, alpha: float = 1.0, radius: float | None = None
) -> float:
    """Lemma 10's bound on ``P(‖Ṽ⁻¹Φ̃ᵀf − θ̃_j‖_Ṽ > γ)`` (proof App. D.3).

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
    """Bound on ``P(Σ_j b_j ≥ k/3)`` for ``b_j`` independent with ``p_j < 1/4`` (Lemma 11).

    ``"paper"``: ``e^{−k/24}`` as printed.  ``"corrected"``: Hoeffding for a deviation ``k/12`` of
    a sum of ``k`` variables in ``[0,1]`` gives ``exp(−2(k/12)²/k) = e^{−k/72}``.  The
    printed bound is *false*: see :func:`lemma11_exact_tail`.
    """
    check_choice("version", version, ("paper", "corrected"))
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
    """Union bound over the ``N`` epochs of Lemma 11: ``N · bound(k)`` (App. D.3)."""
    check_choice("version", version, ("paper", "corrected"))
    return check_int_at_least("n_epochs", n_epochs, 0) * lemma11_hoeffding_bound(k, version)
