"""Constants and bounds of Shariff & Sheffet, "Differentially Private Contextual Linear Bandits".

One function per equation or proposition of the paper (NeurIPS 2018): ``k`` and ``c`` (Sec. 4.1,
Eq. 4), Prop. 9, Prop. 11, ``β_t`` (Prop. 4), Theorems 5 and 6, Claim 14, Cor. 15.  Logarithms are
natural except in the tree depth ``m`` (base 2); ``L_tilde`` (``L̃``) bounds the Euclidean norm of
one row ``(x_t, y_t)``.  Every function raises :class:`ValueError` naming a bad parameter and its
allowed range.  Each result has its own note in ``proofs_notes/shariff_sheffet/``; the link below
is the Prop. 9 note.

Proof note: ``proofs_notes/shariff_sheffet/prop9_wishart_bounds.md``.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.tree import tree_depth
from reference.validation import (
    check_alpha,
    check_array,
    check_choice,
    check_delta,
    check_epsilon,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
    check_symmetric,
)

__all__ = [
    "EllipticalPotential",
    "RegularizerBounds",
    "beta_bar",
    "beta_t",
    "beta_t_batch",
    "claim13_daily_regret_bound",
    "claim13_regret_lower_bound",
    "claim14_min_pulls",
    "cor10_regret_order",
    "cor12_regret_order",
    "cor15_regret_lower_bound",
    "gaussian_bounds",
    "gaussian_bounds_for_release_std",
    "gaussian_bounds_for_sigma",
    "gaussian_node_privacy",
    "gaussian_noise_std",
    "gaussian_operator_norm_bound",
    "gaussian_operator_norm_bound_closed_form",
    "lemma21_regret_bound",
    "lemma22_elliptical_potential",
    "nonprivate_bounds",
    "regret_bound_thm5",
    "regret_bound_thm6",
    "reshifted_bounds",
    "tree_depth",
    "wishart_degrees_of_freedom",
    "wishart_node_privacy",
    "wishart_shift",
    "wishart_shifted_bounds",
    "wishart_unshifted_bounds",
]


@dataclass(frozen=True)
class RegularizerBounds:
    """Accuracy bounds of Definition 3 plus the shift applied to the regularizer.

    With probability ``>= 1 - α/2n`` per round: ``ρ_min I ⪯ H_t ⪯ ρ_max I`` and
    ``‖h_t‖_{H_t^{-1}} ≤ γ``.  ``shift`` is the multiple of the identity added once to every
    released top-left block (``-c`` for the shifted Wishart, ``+2Υ`` for the Gaussian, ``ρ`` for the
    non-private ridge, ``0`` for the unshifted Wishart).
    """

    rho_min: float
    rho_max: float
    gamma: float
    shift: float

    def __post_init__(self) -> None:
        check_positive("rho_min", self.rho_min)
        check_positive("rho_max", self.rho_max)
        if self.rho_max < self.rho_min:
            raise ValueError(
                f"rho_max must be >= rho_min={self.rho_min}, got rho_max={self.rho_max}"
            )
        check_finite("gamma", self.gamma)
        if self.gamma < 0:
            raise ValueError(f"gamma must be in [0, inf), got {self.gamma}")
        check_finite("shift", self.shift)


# --------------------------------------------------------------------------------------------
# Per-node privacy parameters (Sec. 4 and App. A.2)
# --------------------------------------------------------------------------------------------


def wishart_node_privacy(epsilon: float, delta: float, m: int) -> tuple[float, float]:
    """Per-node ``(ε₀, δ₀) = (ε / √(8 m ln(2/δ)), δ / (2m))`` for the Wishart tree.

    Sec. 4 and App. A.2: with these per-node parameters advanced composition over the
    ``m`` nodes containing a leaf (with ``δ' = δ/2``) gives ``(ε, δ)`` for the whole tree.
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    m = check_int_at_least("m", m, 1)
    return eps / math.sqrt(8.0 * m * math.log(2.0 / dlt)), dlt / (2.0 * m)


def gaussian_node_privacy(epsilon: float, delta: float, m: int) -> tuple[float, float]:
    """Per-node ``(ε₀, δ₀) = (ε / √(8 m ln(2/δ)), δ / 2)`` for the Gaussian tree (Sec. 4.2).

    Note ``δ/2``, not ``δ/2m``: the paper composes Gaussian nodes with zero-concentrated DP
    (footnote 5); see proofs_notes R-GDELTA.
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    m = check_int_at_least("m", m, 1)
    return eps / math.sqrt(8.0 * m * math.log(2.0 / dlt)), dlt / 2.0


# --------------------------------------------------------------------------------------------
# Wishart mechanism (Sec. 4.1, Eq. 4, Proposition 9)
# --------------------------------------------------------------------------------------------


def wishart_degrees_of_freedom(d: int, m: int, epsilon: float, delta: float) -> int:
    """Per-node Wishart degrees of freedom ``k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉`` (Sec. 4.1).

    Obtained from Theorem 8 (``k₀ ≥ d + 1 + 28 ε₀⁻² ln(4/δ₀)``) with the per-node parameters of
    :func:`wishart_node_privacy`.  Theorem 23 requires ``ε₀ < 1`` and ``δ₀ < 1/e``; a call whose
    per-node parameters violate this raises, because the privacy theorem would not apply.
    """
    d = check_int_at_least("d", d, 1)
    eps0, delta0 = wishart_node_privacy(epsilon, delta, m)
    if eps0 >= 1.0:
        raise ValueError(
            "epsilon too large for Theorem 23: the per-node epsilon_0 = epsilon/sqrt(8 m ln(2/delta))"
            f" must be in (0, 1), got {eps0} (epsilon={epsilon}, m={m}, delta={delta})"
        )
    if delta0 >= 1.0 / math.e:  # reachable only for m = 1 and delta > 2/e
        raise ValueError(
            "delta too large for Theorem 23: the per-node delta_0 = delta/(2m) must be < 1/e, "
            f"got {delta0} (delta={delta}, m={m})"
        )
    radicand = 224.0 * m * math.log(8.0 * m / delta) * math.log(2.0 / delta) / epsilon / epsilon
    if not math.isfinite(radicand):  # epsilon**2 underflows (epsilon = 1e-300)
        raise ValueError(
            f"epsilon must be large enough for a finite number of degrees of freedom "
            f"224 m ln(8m/delta) ln(2/delta) / epsilon**2, got epsilon={epsilon}"
        )
    return d + 1 + math.ceil(radicand)


def _wishart_deviation(d: int, n: int, alpha: float, failure_factor: int) -> float:
    """``√d + √(2 ln(failure_factor · n / α))`` (the deviation terms of Prop. 9 / Claims 17, 19)."""
    return math.sqrt(d) + math.sqrt(2.0 * math.log(failure_factor * n / alpha))


def _check_wishart_inputs(
    d: int, m: int, k: int, L_tilde: float, n: int, alpha: float
) -> tuple[int, int, int, float, int, float]:
    d = check_size("d", d, 1)
    m = check_int_at_least("m", m, 1)
    k = check_int_at_least("k", k, d + 1)
    L_tilde = check_positive("L_tilde", L_tilde)
    n = check_int_at_least("n", n, 1)
    alpha = check_alpha(alpha)
    return d, m, k, L_tilde, n, alpha


def wishart_unshifted_bounds(
    d: int, m: int, k: int, L_tilde: float, n: int, alpha: float
) -> RegularizerBounds:
    """Proposition 9, unshifted: ``(α/2n)``-accurate ``ρ_min, ρ_max, γ`` for the Wishart tree.

    With ``a = √(mk)`` and ``b₈ = √d + √(2 ln(8n/α))``, ``b₂ = √d + √(2 ln(2n/α))``:
    ``ρ_min = L̃² (a − b₈)²``, ``ρ_max = L̃² (a + b₈)²``, ``γ = L̃ b₂``; shift ``0``.

    Requires ``a > b₈`` (the precondition of Claim 19); raises otherwise.  Assumes every release
    carries exactly ``m`` node noises (``H_t ~ W_d(L̃² I, mk)``; R-PAD).
    """
    d, m, k, L_tilde, n, alpha = _check_wishart_inputs(d, m, k, L_tilde, n, alpha)
    a = math.sqrt(m * k)
    b8 = _wishart_deviation(d, n, alpha, 8)
    b2 = _wishart_deviation(d, n, alpha, 2)
    if a <= b8:
        raise ValueError(
            "k too small for Proposition 9 / Claim 19: need sqrt(m k) > sqrt(d) + "
            f"sqrt(2 ln(8n/alpha)) = {b8}, got sqrt(m k) = {a}"
        )
    return RegularizerBounds(
        rho_min=L_tilde**2 * (a - b8) ** 2,
        rho_max=L_tilde**2 * (a + b8) ** 2,
        gamma=L_tilde * b2,
        shift=0.0,
    )


def wishart_shift(d: int, m: int, k: int, L_tilde: float, n: int, alpha: float) -> float:
    """The Wishart shift ``c`` of Eq. (4).

    ``c = L̃² (√(mk) − √d − √(2 ln(8n/α)))² − 4 L̃² √(mk) (√d + √(2 ln(8n/α)))``; the regularizer
    becomes ``H'_t = H_t − cI``.  ``c`` is chosen so that ``ρ'_min = ρ_min − c = ρ_max − ρ_min``
    (App. C).  ``c`` is positive only when ``√(mk) > (3 + 2√2) b₈``; otherwise the "shift" adds
    regularisation (allowed, but then it is not what the paper intends).
    """
    d, m, k, L_tilde, n, alpha = _check_wishart_inputs(d, m, k, L_tilde, n, alpha)
    a = math.sqrt(m * k)
    b8 = _wishart_deviation(d, n, alpha, 8)
    if a <= b8:
        raise ValueError(
            "k too small for Eq. (4) / Proposition 9: need sqrt(m k) > sqrt(d) + "
            f"sqrt(2 ln(8n/alpha)) = {b8}, got sqrt(m k) = {a}"
        )
    return L_tilde**2 * (a - b8) ** 2 - 4.0 * L_tilde**2 * a * b8


def wishart_shifted_bounds(
    d: int,
    m: int,
    k: int,
    L_tilde: float,
    n: int,
    alpha: float,
    *,
    gamma_mode: Literal["paper", "tight"] = "paper",
) -> RegularizerBounds:
    """Proposition 9, shifted (``H'_t = H_t − cI``): ``ρ'_min, ρ'_max, γ'`` and shift ``−c``.

    ``ρ'_min = 4 L̃² √(mk) b₈``, ``ρ'_max = 8 L̃² √(mk) b₈``, ``γ' = L̃ √(√(mk) b₂)`` (paper).
    ``gamma_mode="tight"`` returns the intermediate bound of the proof, ``γ √(ρ_min / ρ'_min)``
    (Claim 20, valid for ``c ≥ 0``), which is at most ``γ'/2`` (proofs_notes R-GAMMA-W).  When
    ``c < 0`` (``√(mk) < (3 + 2√2) b₈``) the "shift" adds regularisation and Claim 20 does not
    apply; the tight bound is then ``γ √(ρ_max / ρ'_max)`` (from ``H − cI ⪰ (1 − c/ρ_max) H``), and a
    :class:`UserWarning` says that the paper's intended regime is not met.
    """
    check_choice("gamma_mode", gamma_mode, ("paper", "tight"))
    unshifted = wishart_unshifted_bounds(d, m, k, L_tilde, n, alpha)
    a = math.sqrt(m * k)
    b8 = _wishart_deviation(d, n, alpha, 8)
    b2 = _wishart_deviation(d, n, alpha, 2)
    c = wishart_shift(d, m, k, L_tilde, n, alpha)
    if c <= 0.0:
        warnings.warn(
            f"Eq. (4) shift c = {c} <= 0 (sqrt(m k) < (3 + 2 sqrt 2)(sqrt d + sqrt(2 ln(8n/alpha)))):"
            " subtracting cI adds regularisation instead of removing it",
            UserWarning,
            stacklevel=2,
        )
    rho_min = 4.0 * L_tilde**2 * a * b8
    rho_max = 8.0 * L_tilde**2 * a * b8
    if gamma_mode == "paper":
        gamma = L_tilde * math.sqrt(a * b2)
    elif gamma_mode == "tight":
        ratio = unshifted.rho_min / rho_min if c >= 0.0 else unshifted.rho_max / rho_max
        gamma = unshifted.gamma * math.sqrt(ratio)
    else:
        raise ValueError(f"gamma_mode must be 'paper' or 'tight', got {gamma_mode!r}")
    return RegularizerBounds(rho_min=rho_min, rho_max=rho_max, gamma=gamma, shift=-c)


# --------------------------------------------------------------------------------------------
# Gaussian mechanism (Sec. 4.2, Proposition 11)
# --------------------------------------------------------------------------------------------


def gaussian_noise_std(m: int, L_tilde: float, epsilon: float, delta: float) -> float:
    """``σ_noise = √(16 m L̃⁴ ln(4/δ)² / ε²) = 4 √m L̃² ln(4/δ) / ε`` (Sec. 4.2).

    The per-entry standard deviation of ``Z'`` before symmetrisation ``Z = (Z' + Z'^T)/√2``.
    """
    m = check_int_at_least("m", m, 1)
    L_tilde = check_positive("L_tilde", L_tilde)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    return math.sqrt(16.0 * m * L_tilde**4 * math.log(4.0 / dlt) ** 2 / eps**2)


def gaussian_operator_norm_bound(sigma_noise: float, m: int, d: int, n: int, alpha: float) -> float:
    """``Υ = σ_noise √(2m) (4√d + 2 ln(2n/α))`` (Sec. 4.2, first form).

    High-probability bound on the operator norm of the top-left ``d×d`` block of ``N_t``.
    """
    sigma_noise = check_positive("sigma_noise", sigma_noise)
    m = check_int_at_least("m", m, 1)
    d = check_int_at_least("d", d, 1)
    n = check_int_at_least("n", n, 1)
    alpha = check_alpha(alpha)
    return sigma_noise * math.sqrt(2.0 * m) * (4.0 * math.sqrt(d) + 2.0 * math.log(2.0 * n / alpha))


def gaussian_operator_norm_bound_closed_form(
    m: int, L_tilde: float, epsilon: float, delta: float, d: int, n: int, alpha: float
) -> float:
    """``Υ = √32 · m · L̃² ln(4/δ) (4√d + 2 ln(2n/α)) / ε`` (Sec. 4.2, second form).

    Identical to :func:`gaussian_operator_norm_bound` at ``σ_noise`` of :func:`gaussian_noise_std`.
    """
    m = check_int_at_least("m", m, 1)
    L_tilde = check_positive("L_tilde", L_tilde)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    d = check_int_at_least("d", d, 1)
    n = check_int_at_least("n", n, 1)
    alpha = check_alpha(alpha)
    return (
        math.sqrt(32.0)
        * m
        * L_tilde**2
        * math.log(4.0 / dlt)
        * (4.0 * math.sqrt(d) + 2.0 * math.log(2.0 * n / alpha))
        / eps
    )


def gaussian_bounds(
    d: int, m: int, L_tilde: float, epsilon: float, delta: float, n: int, alpha: float
) -> RegularizerBounds:
    """Proposition 11: ``ρ_min = Υ``, ``ρ_max = 3Υ``, ``γ = σ_noise √(m/Υ) (√d + √(2 ln(2n/α)))``.

    The shift is ``+2Υ``.  The paper's simplified upper bound on ``γ`` (Sec. 4.2) is not used: it
    does not hold for all parameters (proofs_notes R-GAMMA-G).
    """
    sigma_noise = gaussian_noise_std(m, L_tilde, epsilon, delta)
    return gaussian_bounds_for_sigma(d, m, sigma_noise, n, alpha)


def gaussian_bounds_for_sigma(
    d: int, m: int, sigma_noise: float, n: int, alpha: float
) -> RegularizerBounds:
    """Proposition 11 for any node-noise scale ``σ_noise`` (its proof uses only the noise law).

    :func:`gaussian_bounds` is this at the paper's ``σ_noise``; the tight calibration
    (:mod:`reference.shariff_sheffet.tight`) uses it at the smallest ``σ_noise`` that meets the
    privacy target.
    """
    upsilon = gaussian_operator_norm_bound(sigma_noise, m, d, n, alpha)
    gamma = (
        sigma_noise
        * math.sqrt(m / upsilon)
        * (math.sqrt(d) + math.sqrt(2.0 * math.log(2.0 * n / alpha)))
    )
    return RegularizerBounds(
        rho_min=upsilon, rho_max=3.0 * upsilon, gamma=gamma, shift=2.0 * upsilon
    )


def gaussian_bounds_for_release_std(
    d: int, release_std: float, n: int, alpha: float
) -> RegularizerBounds:
    """Proposition 11 for any release whose noise is one symmetric Gaussian matrix of off-diagonal
    standard deviation ``release_std`` (diagonal ``√2·release_std``): the tree's is ``σ_noise √m``.

    Prop. 11's proof reads only that law: ``Υ = release_std·√2·(4√d + 2 ln(2n/α))``, shift ``2Υ``,
    ``ρ_min = Υ``, ``ρ_max = 3Υ``, ``γ = release_std·(√d + √(2 ln(2n/α)))/√Υ``.  Used by the
    factorized sources (:mod:`reference.shariff_sheffet.factorized`).
    """
    d = check_int_at_least("d", d, 1)
    release_std = check_positive("release_std", release_std)
    n = check_int_at_least("n", n, 1)
    alpha = check_alpha(alpha)
    log_term = math.log(2.0 * n / alpha)
    upsilon = release_std * math.sqrt(2.0) * (4.0 * math.sqrt(d) + 2.0 * log_term)
    gamma = release_std * (math.sqrt(d) + math.sqrt(2.0 * log_term)) / math.sqrt(upsilon)
    return RegularizerBounds(
        rho_min=upsilon, rho_max=3.0 * upsilon, gamma=gamma, shift=2.0 * upsilon
    )


def reshifted_bounds(
    base: RegularizerBounds, target_rho_min: float, mechanism: Literal["wishart", "gaussian"]
) -> RegularizerBounds:
    """The bounds after moving the shift so that ``ρ_min`` becomes ``target_rho_min`` (App. D.3).

    Generic shift (from the authors' code, made rigorous): with
    ``Δs = ρ*_min − ρ⁰_min`` the shift and ``ρ_max`` move by ``Δs``.  ``γ``:

    * Gaussian (base: Prop. 11): ``γ⁰ √(ρ⁰_min/ρ*_min)``, valid for any target because
      ``‖h‖_{H⁻¹} ≤ ‖h‖/√λ_min(H)`` and Prop. 11's ``γ⁰`` is ``σ√m(…)/√Υ``;
    * Wishart (base: the *unshifted* Prop. 9 bounds): for ``Δs ≤ 0``, Claim 20 with
      ``c = −Δs`` gives ``γ⁰ √(ρ⁰_min/ρ*_min)``; for ``Δs > 0``, ``H + Δs I ⪰ (1 + Δs/ρ⁰_max) H``
      on ``H ⪯ ρ⁰_max I`` gives ``γ⁰ √(ρ⁰_max/(ρ⁰_max + Δs))`` (the authors use the first form in
      both cases; the two differ by the factor ``√(ρ⁰_max/ρ⁰_min) ≈ 1.01``).
    """
    check_instance("base", base, RegularizerBounds)
    target = check_positive("target_rho_min", target_rho_min)
    check_choice("mechanism", mechanism, ("wishart", "gaussian"))
    delta_s = target - base.rho_min
    if mechanism == "wishart" and delta_s > 0:
        gamma = base.gamma * math.sqrt(base.rho_max / (base.rho_max + delta_s))
    else:
        gamma = base.gamma * math.sqrt(base.rho_min / target)
    return RegularizerBounds(
        rho_min=target, rho_max=base.rho_max + delta_s, gamma=gamma, shift=base.shift + delta_s
    )


def nonprivate_bounds(rho: float = 1.0) -> RegularizerBounds:
    """Non-private ridge regularizer ``H_t = ρI``, ``h_t = 0``: ``ρ_min = ρ_max = ρ``, ``γ = 0``."""
    rho = check_positive("rho", rho)
    return RegularizerBounds(rho_min=rho, rho_max=rho, gamma=0.0, shift=rho)


# --------------------------------------------------------------------------------------------
# Proposition 4 and Theorems 5, 6
# --------------------------------------------------------------------------------------------


def _check_bounds(bounds: object) -> None:
    if not isinstance(bounds, RegularizerBounds):
        raise ValueError(f"bounds must be a RegularizerBounds, got {bounds!r:.80}")


def beta_t(
    log_det_V: float, d: int, sigma: float, alpha: float, S: float, bounds: RegularizerBounds
) -> float:
    """Proposition 4: ``β_t = σ √(2 ln(2/α) + ln det V_t − d ln ρ_min) + S √ρ_max + γ``.

    ``log_det_V`` is the natural log-determinant of ``V_t``.  The radicand is clamped at 0 (R-RAD):
    on the accuracy event ``V_t ⪰ ρ_min I`` it is at least ``2 ln(2/α) > 0``, so the clamp only
    matters off that event.
    """
    _check_bounds(bounds)
    log_det_V = check_finite("log_det_V", log_det_V)
    return float(beta_t_batch(np.array([log_det_V]), d, sigma, alpha, S, bounds)[0])


def beta_t_batch(
    log_det_V: FloatArray, d: int, sigma: float, alpha: float, S: float, bounds: RegularizerBounds
) -> FloatArray:
    """:func:`beta_t` for an array of log-determinants (one per replicate; the engine's path)."""
    _check_bounds(bounds)
    log_det_V = check_array("log_det_V", log_det_V)
    d = check_int_at_least("d", d, 1)
    sigma = check_finite("sigma", sigma)
    if sigma < 0:
        raise ValueError(f"sigma must be in [0, inf), got {sigma}")
    alpha = check_alpha(alpha)
    S = check_finite("S", S)
    if S < 0:
        raise ValueError(f"S must be in [0, inf), got {S}")
    radicand = 2.0 * math.log(2.0 / alpha) + log_det_V - d * math.log(bounds.rho_min)
    return np.asarray(
        sigma * np.sqrt(np.maximum(0.0, radicand)) + S * math.sqrt(bounds.rho_max) + bounds.gamma,
        dtype=np.float64,
    )


def beta_bar(
    t: int, d: int, L: float, sigma: float, alpha: float, S: float, bounds: RegularizerBounds
) -> float:
    """Proposition 4's upper bound ``β̄_t`` (Assumption 1, ``‖x‖ ≤ L``).

    ``β̄_t = σ √(2 ln(2/α) + d ln(ρ_max/ρ_min + t L²/(d ρ_min))) + S √ρ_max + γ``; the theorems use
    ``β̄_n``.  (The main text prints ``nL²``, the appendix ``tL²``; both are valid, R-P4.)
    """
    _check_bounds(bounds)
    t = check_int_at_least("t", t, 0)
    d = check_int_at_least("d", d, 1)
    L = check_positive("L", L)
    sigma = check_finite("sigma", sigma)
    alpha = check_alpha(alpha)
    S = check_finite("S", S)
    if sigma < 0 or S < 0:
        raise ValueError(f"sigma and S must be in [0, inf), got sigma={sigma}, S={S}")
    radicand = 2.0 * math.log(2.0 / alpha) + d * math.log(
        bounds.rho_max / bounds.rho_min + t * L**2 / (d * bounds.rho_min)
    )
    return sigma * math.sqrt(radicand) + S * math.sqrt(bounds.rho_max) + bounds.gamma


def _theorem_bracket(
    n: int, d: int, L: float, S: float, sigma: float, alpha: float, bounds: RegularizerBounds
) -> float:
    """The bracket shared by Eqs. (2) and (3)."""
    n = check_int_at_least("n", n, 1)
    d = check_int_at_least("d", d, 1)
    L = check_positive("L", L)
    S = check_finite("S", S)
    sigma = check_finite("sigma", sigma)
    alpha = check_alpha(alpha)
    if sigma < 0 or S < 0:
        raise ValueError(f"sigma and S must be in [0, inf), got sigma={sigma}, S={S}")
    ratio = n * L**2 / (d * bounds.rho_min)
    sigma_term = sigma * (
        2.0 * math.log(2.0 / alpha) + d * math.log(bounds.rho_max / bounds.rho_min + ratio)
    )
    noise_term = (S * math.sqrt(bounds.rho_max) + bounds.gamma) * math.sqrt(d * math.log1p(ratio))
    return sigma_term + noise_term


def _check_reward_bound(B: float) -> float:
    """Assumption 2 with Remark 2: the mean-reward bound ``B`` is at least 1."""
    B = check_finite("B", B)
    if B < 1.0:
        raise ValueError(f"B must be in [1, inf) (Assumption 2, Remark 2), got {B}")
    return B


def regret_bound_thm5(
    n: int,
    d: int,
    L: float,
    S: float,
    B: float,
    sigma: float,
    alpha: float,
    bounds: RegularizerBounds,
) -> float:
    """Theorem 5, Eq. (2): the pseudo-regret bound holding with probability ``>= 1 − α``.

    ``R̂_n ≤ B √(8n) [σ(2 ln(2/α) + d ln(ρ_max/ρ_min + nL²/(dρ_min)))
    + (S √ρ_max + γ) √(d ln(1 + nL²/(dρ_min)))]``.  Requires ``B ≥ 1`` (Assumption 2).
    """
    _check_bounds(bounds)
    B = _check_reward_bound(B)
    bracket = _theorem_bracket(n, d, L, S, sigma, alpha, bounds)  # validates n first
    return B * math.sqrt(8.0 * n) * bracket


def regret_bound_thm6(
    n: int,
    d: int,
    L: float,
    S: float,
    B: float,
    sigma: float,
    alpha: float,
    bounds: RegularizerBounds,
    gap: float,
) -> float:
    """Theorem 6, Eq. (3): the gap-dependent bound ``(8B/Δ)[…]²`` (same bracket as Eq. (2)).

    ``gap`` is the reward gap ``Δ > 0`` between optimal and sub-optimal actions in every ``D_t``.
    The paper's ``B`` factor is kept as printed (for ``B = 1``, the only case used, it is exact;
    proofs_notes R-THM6B).
    """
    _check_bounds(bounds)
    B = _check_reward_bound(B)
    gap = check_positive("gap", gap)
    return 8.0 * B / gap * _theorem_bracket(n, d, L, S, sigma, alpha, bounds) ** 2


# --------------------------------------------------------------------------------------------
# Corollaries 10 and 12: the regret orders of the two private instantiations
# --------------------------------------------------------------------------------------------


def _corollary_inputs(
    n: int, d: int, epsilon: float, delta: float, alpha: float, sigma: float, S: float,
    L_tilde: float, B: float, gap: float | None,
) -> tuple[int, int, float, float, float, float, float, float, float, float | None]:  # fmt: skip
    n = check_int_at_least("n", n, 2)
    d = check_int_at_least("d", d, 1)
    eps, dlt, a = check_epsilon(epsilon), check_delta(delta), check_alpha(alpha)
    sigma, S = check_finite("sigma", sigma), check_finite("S", S)
    if sigma < 0 or S < 0:
        raise ValueError(f"sigma and S must be in [0, inf), got sigma={sigma}, S={S}")
    L_tilde = check_positive("L_tilde", L_tilde)
    B = _check_reward_bound(B)
    g = None if gap is None else check_positive("gap", gap)
    return n, d, eps, dlt, a, sigma, S, L_tilde, B, g


def _corollary_order(bracket: float, n: int, B: float, gap: float | None) -> float:
    """``B√n·[…]`` (general) or ``(B/Δ)[…]²`` (gap-dependent), as both corollaries state."""
    return B * math.sqrt(n) * bracket if gap is None else B / gap * bracket**2


def cor10_regret_order(
    n: int,
    d: int,
    epsilon: float,
    delta: float,
    alpha: float,
    *,
    sigma: float = 1.0,
    S: float = 1.0,
    L_tilde: float = math.sqrt(2.0),
    B: float = 1.0,
    gap: float | None = None,
    form: Literal["printed", "derived"] = "printed",
) -> float:
    """Corollary 10 (Sec. 4.1): the regret order of Algorithm 1 with the shifted Wishart tree,
    constants dropped.

    ``"printed"``: ``B√n [σ(log(1/α) + d log n) + S L̃ √d log(n)^{3/4} (d^{1/4} +
    ε^{−1/2} log(1/δ)^{1/4}) (d^{1/4} + log(n/α)^{1/4})]`` (with ``gap``: ``(B/Δ)[…]²``).
    ``"derived"``: what Theorem 5 with Proposition 9 gives once the per-node degrees of freedom
    ``k = d + 1 + ⌈224 m ε⁻² ln(8m/δ) ln(2/δ)⌉`` (Sec. 4.1) are kept growing with ``m ≈ log₂ n``:
    ``(mk)^{1/4} ≈ (md)^{1/4} + √m (ln(2/δ) ln(8m/δ))^{1/4}/√ε``, so the private term is
    ``S L̃ √d (d^{1/4} log(n)^{3/4} + log(n) ε^{−1/2} (ln(2/δ) ln(8m/δ))^{1/4})
    (d^{1/4} + log(n/α)^{1/4})`` with ``m = 1 + ⌈log₂ n⌉``.  The printed order drops the ``m``
    inside ``k``: Theorem 5's bound over it grows like ``(log n)^{1/4}`` (proof note
    ``wishart_mechanism.md``).
    """
    n, d, eps, dlt, a, sigma, S, L_tilde, B, g = _corollary_inputs(
        n, d, epsilon, delta, alpha, sigma, S, L_tilde, B, gap
    )
    check_choice("form", form, ("printed", "derived"))
    log_n = math.log(n)
    tail = d**0.25 + math.log(n / a) ** 0.25
    if form == "printed":
        head = log_n**0.75 * (d**0.25 + eps**-0.5 * math.log(1.0 / dlt) ** 0.25)
    else:
        m = tree_depth(n)
        private = (math.log(2.0 / dlt) * math.log(8.0 * m / dlt)) ** 0.25 / math.sqrt(eps)
        head = d**0.25 * log_n**0.75 + log_n * private
    bracket = sigma * (math.log(1.0 / a) + d * log_n) + S * L_tilde * math.sqrt(d) * head * tail
    return _corollary_order(bracket, n, B, g)


def cor12_regret_order(
    n: int,
    d: int,
    epsilon: float,
    delta: float,
    alpha: float,
    *,
    sigma: float = 1.0,
    S: float = 1.0,
    L_tilde: float = math.sqrt(2.0),
    B: float = 1.0,
    gap: float | None = None,
) -> float:
    """Corollary 12 (Sec. 4.2): the regret order of Algorithm 1 with the Gaussian tree, constants
    dropped: ``B√n (σ(d log n + log(1/α)) + S L̃ log(n) √(d(√d + ln(n/α)) ln(1/δ)/ε))`` (with
    ``gap``: ``(B/Δ)(…)²``; the printed ``L̄`` read as ``L̃``).  Theorem 5 with Proposition 11
    over it tends to a constant (proof note ``gaussian_mechanism.md``)."""
    n, d, eps, dlt, a, sigma, S, L_tilde, B, g = _corollary_inputs(
        n, d, epsilon, delta, alpha, sigma, S, L_tilde, B, gap
    )
    log_n = math.log(n)
    private = log_n * math.sqrt(d * (math.sqrt(d) + math.log(n / a)) * math.log(1.0 / dlt) / eps)
    bracket = sigma * (d * log_n + math.log(1.0 / a)) + S * L_tilde * private
    return _corollary_order(bracket, n, B, g)


# --------------------------------------------------------------------------------------------
# Lemma 21 (generic LinUCB regret) and Lemma 22 (elliptical potential), App. B
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EllipticalPotential:
    """The three sides of Lemma 22 for one sequence: ``potential ≤ log_det_bound ≤ trace_bound``.

    Attributes:
        potential: ``Σ_t min{1, ‖x_t‖²_{U_t⁻¹}}``.
        log_det_bound: ``2 ln(det U_{n+1} / det U_1)``.
        trace_bound: ``2d ln((tr U_1 + nL²) / (d det(U_1)^{1/d}))`` with ``L = max_t ‖x_t‖``.
        squared_norms: ``‖x_t‖²_{U_t⁻¹}`` for ``t = 1..n``.
    """

    potential: float
    log_det_bound: float
    trace_bound: float
    squared_norms: FloatArray


def lemma22_elliptical_potential(actions: FloatArray, U1: FloatArray) -> EllipticalPotential:
    """Lemma 22 (App. B) along the sequence ``x_1..x_n`` (rows of ``actions``) from ``U_1 ≻ 0``.

    ``U_{t+1} = U_t + x_t x_tᵀ``; then ``Σ_t min{1, ‖x_t‖²_{U_t⁻¹}} ≤ 2 ln(det U_{n+1}/det U_1)
    ≤ 2d ln((tr U_1 + nL²)/(d det(U_1)^{1/d}))`` (the printed ``det U_n / det U_n`` read as
    ``det U_{n+1} / det U_1``, R-L22).  ``‖x_t‖²_{U_t⁻¹}`` is computed by a Cholesky solve of each
    ``U_t``, ``ln det`` by ``slogdet``; the first inequality holds term by term because ``min{1, u}
    ≤ 2 ln(1 + u)`` and ``det U_{t+1} = det U_t (1 + ‖x_t‖²_{U_t⁻¹})``.  With ``U_1 = ρ_min I`` and
    the actions of Algorithm 1 this is the step from Lemma 21 to Theorems 5 and 6.
    """
    X = check_array("actions", actions, ndim=2)
    n, d = X.shape
    if n < 1 or d < 1:
        raise ValueError(f"actions must have shape (n, d) with n, d >= 1, got {X.shape}")
    U = check_array("U1", U1, shape=(d, d))
    check_symmetric("U1", U)
    sign, log_det_1 = np.linalg.slogdet(U)
    if sign <= 0 or np.linalg.eigvalsh(U)[0] <= 0.0:
        raise ValueError("U1 must be positive definite (U_1 ≻ 0, Lemma 22)")
    trace_1 = float(np.trace(U))
    squared = np.empty(n)
    current = U.copy()
    for t in range(n):
        factor = np.linalg.cholesky(current)
        y = np.linalg.solve(factor, X[t])
        squared[t] = float(y @ y)
        current = current + np.outer(X[t], X[t])
    _, log_det_n1 = np.linalg.slogdet(current)
    L2 = float(np.max(np.sum(X * X, axis=1)))
    trace_bound = 2.0 * d * (math.log(trace_1 + n * L2) - math.log(d) - log_det_1 / d)
    return EllipticalPotential(
        potential=float(np.sum(np.minimum(1.0, squared))),
        log_det_bound=2.0 * float(log_det_n1 - log_det_1),
        trace_bound=trace_bound,
        squared_norms=squared,
    )


def lemma21_regret_bound(beta_bar_n: float, n: int, potential: float) -> float:
    """Lemma 21 (App. B): ``R̂_n ≤ β̄_n √(4n Σ_t min{1, ‖x_t‖²_{V_t⁻¹}})`` when every confidence
    set contains ``θ*`` (``B = 1``; the printed ``‖x_t‖²_{V_t}`` and ``4nβ_n²`` read as
    ``‖x_t‖²_{V_t⁻¹}`` and ``β̄_n``, R-L21).

    ``beta_bar_n`` must be at least ``max{β_1, …, β_n, 1}``: the lemma's hidden hypothesis
    ``β̄_n ≥ 1`` is what makes ``r_t ≤ 2 ≤ 2β̄_n``.  ``potential`` is the sum, e.g.
    :attr:`EllipticalPotential.potential` with ``U_1 = V_1`` for a ridge regularizer.
    """
    beta_bar_n = check_finite("beta_bar_n", beta_bar_n)
    if beta_bar_n < 1.0:
        raise ValueError(
            f"beta_bar_n must be in [1, inf) (Lemma 21 needs β̄_n ≥ 1), got {beta_bar_n}"
        )
    n = check_int_at_least("n", n, 1)
    potential = check_finite("potential", potential)
    if not 0.0 <= potential <= n:
        raise ValueError(
            f"potential must be in [0, n] = [0, {n}] (a sum of n terms in [0, 1]), got {potential}"
        )
    return beta_bar_n * math.sqrt(4.0 * n * potential)


# --------------------------------------------------------------------------------------------
# Lower bounds (Claim 14, Corollary 15)
# --------------------------------------------------------------------------------------------


def claim13_daily_regret_bound(epsilon: float, delta: float, p: float) -> float:
    """Claim 13 (App. C), one day: the expected pseudo-regret of an ``(ε, δ)``-DP algorithm (standard
    DP under continual observation) on the two-context instance with a uniformly random context,
    when it plays ``a¹`` with probability ``p`` under context ``c¹``:
    ``≥ (1 − p) + e^{−ε}(p − δ) = 1 − (1 − e^{−ε})p − e^{−ε}δ`` (the corrected right-hand side,
    R-C13; the printed one has ``a²`` and ``δ`` without ``e^{−ε}``)."""
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    p = check_in_range("p", p, 0.0, 1.0, low_open=False, high_open=False)
    return 1.0 - (1.0 - math.exp(-eps)) * p - math.exp(-eps) * dlt


def claim13_regret_lower_bound(n: int, epsilon: float, delta: float) -> float:
    """Claim 13 (App. C): any ``(ε, δ)``-DP algorithm for the contextual bandit problem has expected
    pseudo-regret at least ``n e^{−ε}(1 − δ)`` against the uniformly random two-context adversary
    (the daily bound is smallest at ``p = 1``).  For ``ε < ln 2`` and ``δ < 1/4`` this exceeds the
    claim's ``n/4`` (it is ``> 3n/8``): linear regret, the reason the paper uses joint DP."""
    n = check_int_at_least("n", n, 1)
    return n * claim13_daily_regret_bound(epsilon, delta, 1.0)


def claim14_min_pulls(n: int, epsilon: float, gap: float) -> float:
    """Claim 14: an ε-DP MAB algorithm with regret ``≤ n^{3/4}`` pulls an arm of gap ``Δ_a`` at least
    ``ln(n) / (100 ε Δ_a)`` times with probability ``≥ 1/2`` (for sufficiently large ``n``)."""
    n = check_int_at_least("n", n, 2)
    eps = check_epsilon(epsilon)
    gap = check_positive("gap", gap)
    return math.log(n) / (100.0 * eps * gap)


def cor15_regret_lower_bound(num_arms: int, n: int, epsilon: float) -> float:
    """Corollary 15: expected pseudo-regret of any ε-DP MAB algorithm is at least
    ``(k − 1) ln(n) / (200 ε)`` (``Σ_{a≠a¹} Δ_a · ln(n)/(100 ε Δ_a) · 1/2``)."""
    k = check_int_at_least("num_arms", num_arms, 2)
    n = check_int_at_least("n", n, 2)
    eps = check_epsilon(epsilon)
    return (k - 1) * math.log(n) / (200.0 * eps)
