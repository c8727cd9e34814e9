"""Every confidence width ``β``, truncation level ``b``, oversampling ``q`` and group count ``k``.

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.
Each function computes one printed formula (theory preset).  The practical presets
(the paper reports no values, Sec. 5: "order-wise similar") are separate functions whose names say
``practical`` or ``ref7``; both are kept.  Symbol renames: ``eps`` = privacy ϵ,
``eps_nys`` = Nyström accuracy ε, ``k_rep`` = MoMA group count ``k``.

Proof note: ``proofs_notes/zhou_tan/alg3_moma_thm4_cor1.md``.
"""

from __future__ import annotations

import math
from typing import Literal

from reference.validation import (
    check_choice,
    check_delta,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_positive,
)

__all__ = [
    "ata_beta_next",
    "ata_trunc_level",
    "first_beta_approx",
    "igp_ucb_beta",
    "ldp_tgp_beta",
    "moma_beta_next",
    "moma_k_rep",
    "moma_n_epochs",
    "moma_radius",
    "nystrom_q",
    "practical_k_rep",
    "practical_nystrom_q",
    "ref7_ata_schedule",
    "ref7_tgp_schedule",
    "rho_nys",
    "subweibull_tgp_beta",
    "subweibull_trunc_level",
    "tgp_nonprivate_beta",
    "tgp_nonprivate_trunc_level",
    "tgp_practical_beta",
    "tgp_trunc_level",
]


def _alpha(alpha: float) -> float:
    return check_in_range("alpha", alpha, 0.0, 1.0, low_open=True, high_open=False)


def _failure(delta: float) -> float:
    # δ ∈ (0, 1] in Theorems 2–4.
    return check_in_range("delta", delta, 0.0, 1.0, low_open=True, high_open=False)


def rho_nys(eps_nys: float) -> float:
    """``ρ = (1+ε)/(1−ε)`` (Thm 2, Thm 4), ``ε ∈ (0, 1)``."""
    e = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    return (1.0 + e) / (1.0 - e)


def first_beta_approx(B: float, eps_nys: float) -> float:
    """``B(1 + 1/√(1−ε))``: the data-free part of ATA/MoMA widths, used as ``β_1``."""
    return check_positive("B", B) * (
        1.0 + 1.0 / math.sqrt(1.0 - check_in_range("eps_nys", eps_nys, 0.0, 1.0))
    )


def nystrom_q(T: int, delta: float, eps_nys: float, log_const: float = 4.0) -> float:
    """``q = 6ρ ln(4T/δ)/ε²`` (Thm 2, Thm 4, Cor. 1).

    ``log_const = 2`` gives Lemma 8's printed ``ln(2T/δ)``.
    """
    T_ = check_int_at_least("T", T, 1)
    d = _failure(delta)
    e = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    c = check_positive("log_const", log_const)
    return 6.0 * rho_nys(e) * math.log(c * T_ / d) / (e * e)


def practical_nystrom_q(T: int, eps_nys: float) -> float:
    """Practical preset ``q = ln(T)/ε²`` (code of reference [7]), ``T ≥ 2``."""
    T_ = check_int_at_least("T", T, 2)
    e = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    return math.log(T_) / (e * e)


# --------------------------------------------------------------------------------------------
# LDP-ATA-GP-UCB (Alg. 1, Thm 2)


def ata_trunc_level(
    m: int, T: int, delta: float, v: float, t: int = 1, alpha: float = 1.0
) -> float:
    """``b_t = (v/ln(4 m_t T/δ))^{1/(1+α)} t^{(1−α)/(2(1+α))}``; at ``α = 1``: ``√(v/ln(4m_tT/δ))`` (Thm 2).

    The α = 1 form is verbatim (Theorem 2); general α is reconstructed from [7].
    ``m = 0`` is treated as ``m = 1`` inside the log (spec guard).
    """
    mm = max(check_int_at_least("m", m, 0), 1)
    T_ = check_int_at_least("T", T, 1)
    t_ = check_int_at_least("t", t, 1)
    a = _alpha(alpha)
    vv = check_positive("v", v)
    lg = math.log(4.0 * mm * T_ / _failure(delta))
    return float((vv / lg) ** (1.0 / (1.0 + a)) * t_ ** ((1.0 - a) / (2.0 * (1.0 + a))))


def ata_beta_next(
    m: int,
    T: int,
    delta: float,
    v: float,
    lam: float,
    B: float,
    eps_nys: float,
    t: int = 1,
    alpha: float = 1.0,
) -> float:
    """``β_{t+1} = B(1+1/√(1−ε)) + (4/√λ)√m v^{1/(1+α)} ln(4mT/δ)^{α/(1+α)} t^{(1−α)/(2(1+α))}``.

    At ``α = 1`` this is Thm 2 verbatim: ``B(1+1/√(1−ε)) + 4√(ln(4m_tT/δ) v m_t/λ)``.
    With ``m = 0`` the second term is 0 (no features).
    """
    mm = check_int_at_least("m", m, 0)
    T_ = check_int_at_least("T", T, 1)
    t_ = check_int_at_least("t", t, 1)
    a = _alpha(alpha)
    vv = check_positive("v", v)
    lam_ = check_positive("lam", lam)
    base = first_beta_approx(B, eps_nys)
    if mm == 0:
        return base
    lg = math.log(4.0 * mm * T_ / _failure(delta))
    return float(
        base
        + (4.0 / math.sqrt(lam_))
        * math.sqrt(mm)
        * vv ** (1.0 / (1.0 + a))
        * lg ** (a / (1.0 + a))
        * t_ ** ((1.0 - a) / (2.0 * (1.0 + a)))
    )


def ref7_ata_schedule(
    t: int, m: int, T: int, v: float, alpha: float, B: float, lam: float
) -> tuple[float, float]:
    """Practical ``(b_t, β_t)`` of the code of reference [7], not of this paper.

    ``b_t = t^{(1−α)/(2(1+α))}(v/ln((m+1)T))^{1/(1+α)}``,
    ``β_t = B√λ + √m v^{1/(1+α)} ln((m+1)T)^{α/(1+α)} t^{(1−α)/(2(1+α))}``.
    [7] applies the bonus as ``β √(σ̃²/λ)``; here it is returned for use with ``σ̃`` directly, so the
    caller multiplies by ``1/√λ`` (a no-op at the preset ``λ = 1``).
    """
    t_ = check_int_at_least("t", t, 1)
    mm = check_int_at_least("m", m, 0)
    T_ = check_int_at_least("T", T, 2)
    a = _alpha(alpha)
    vv = check_positive("v", v)
    lam_ = check_positive("lam", lam)
    lg = math.log((mm + 1) * T_)
    tp = t_ ** ((1.0 - a) / (2.0 * (1.0 + a)))
    b = tp * (vv / lg) ** (1.0 / (1.0 + a))
    beta = (
        check_positive("B", B) * math.sqrt(lam_)
        + math.sqrt(mm) * vv ** (1.0 / (1.0 + a)) * lg ** (a / (1.0 + a)) * tp
    )
    return b, beta


# --------------------------------------------------------------------------------------------
# LDP-TGP-UCB (Alg. 2, Thm 3) and the non-private TGP-UCB of [7]


def tgp_trunc_level(t: int, B: float, R: float, lap_scale: float) -> float:
    """``b_t = B + R + 𝓛 ln t`` (Alg. 2, lines 4 and 8; proof Sec. 4.3).  ``b_1 = B + R``.

    Chosen so that ``P(|L| > 𝓛 ln t) = 1/t``.
    """
    t_ = check_int_at_least("t", t, 1)
    R_ = check_finite("R", R)
    if R_ < 0:
        raise ValueError(f"R must be in [0, inf), got {R!r}")
    return check_positive("B", B) + R_ + check_positive("lap_scale", lap_scale) * math.log(t_)


def ldp_tgp_beta(
    t: int,
    B: float,
    R: float,
    lap_scale: float,
    lam: float,
    delta: float,
    gamma_prev: float,
    K2: float,
) -> float:
    """``β_t = B + (2√2/√λ) b_{t−1} √(γ_{t−1} + ln(1/δ)) + (1/√λ)√(K(ln(t−1) + 1))`` (Alg. 2, line 5).

    ``t ≥ 2`` (at ``t = 1`` the formula needs ``ln 0``; ``β_1 = B`` is set, done by the
    caller).  ``gamma_prev`` must be a *certified upper bound* of ``γ_{t−1}`` for Theorem 3 to apply
    (:func:`reference.zhou_tan.kernels.certified_gamma_upper`); ``K2 = B² + R² + 2𝓛²``.
    """
    t_ = check_int_at_least("t", t, 2)
    lam_ = check_positive("lam", lam)
    d = _failure(delta)
    g = check_finite("gamma_prev", gamma_prev)
    if g < 0:
        raise ValueError(f"gamma_prev must be in [0, inf), got {gamma_prev!r}")
    K2_ = check_positive("K2", K2)
    b_prev = tgp_trunc_level(t_ - 1, B, R, lap_scale)
    return (
        B
        + (2.0 * math.sqrt(2.0) / math.sqrt(lam_)) * b_prev * math.sqrt(g + math.log(1.0 / d))
        + math.sqrt(K2_ * (math.log(t_ - 1) + 1.0)) / math.sqrt(lam_)
    )


def tgp_nonprivate_trunc_level(t: int, v: float, alpha: float = 1.0) -> float:
    """``b_t = v^{1/(1+α)} t^{1/(2(1+α))}`` (TGP-UCB of [7]; ``Θ(t^{1/4})`` at ``α = 1``, Sec. 4.3)."""
    t_ = check_int_at_least("t", t, 1)
    a = _alpha(alpha)
    return float(check_positive("v", v) ** (1.0 / (1.0 + a)) * t_ ** (1.0 / (2.0 * (1.0 + a))))


def ref7_tgp_schedule(t: int, v: float, alpha: float, B: float, lam: float) -> tuple[float, float]:
    """Practical ``(b_t, β_t)`` of the code of [7] for TGP-UCB, not of this paper.

    ``b_t = v^{1/(1+α)} t^{1/(2(1+α))}``, ``β_t = B√λ + v^{1/(1+α)} t^{1/(2(1+α))} √(ln t)``.
    """
    b = tgp_nonprivate_trunc_level(t, v, alpha)
    beta = check_positive("B", B) * math.sqrt(check_positive("lam", lam)) + b * math.sqrt(
        math.log(t)
    )
    return b, beta


def tgp_practical_beta(t: int, b_t: float, B: float, lam: float) -> float:
    """Practical ``β_t = B + b_t √(ln t)/√λ``: [7]'s code template ``B√λ + b_t√(ln t)`` (divided by
    ``√λ``, see :func:`ref7_tgp_schedule`) with the learner's own truncation level ``b_t``.

    LDP-TGP-UCB's practical preset passes the paper's ``b_t = B + R + 𝓛 ln t``
    (:func:`tgp_trunc_level`): the shape of Alg. 2, line 5 with ``γ_t`` replaced by ``ln t`` and
    the constants dropped.  ``β_1 = B``.
    """
    t_ = check_int_at_least("t", t, 1)
    b = check_positive("b_t", b_t)
    return check_positive("B", B) + b * math.sqrt(math.log(t_)) / math.sqrt(
        check_positive("lam", lam)
    )


def tgp_nonprivate_beta(
    t: int,
    v: float,
    alpha: float,
    B: float,
    lam: float,
    delta: float,
    gamma_prev: float,
) -> float:
    """Theory width of non-private TGP-UCB, derived with the template of Thm 3 (not printed in the
    paper, which only cites [7]): for ``t ≥ 2``

        ``β_t = B + (1/√λ)[2√2 b_{t−1} √(γ_{t−1} + ln(1/δ)) + √(1+α) v^{1/(1+α)} (t−1)^{1/(2(1+α))}]``

    with ``b_{t−1}`` = :func:`tgp_nonprivate_trunc_level`.  The last term bounds
    ``√(Σ_{τ<t} (v/b_τ^α)²)``, the truncation bias ``|E[ŷ_τ − y_τ | ℱ]| ≤ v/b_τ^α`` collected as in
    Thm 3's proof, with ``Σ_{τ≤s} τ^{−α/(1+α)} ≤ (1+α) s^{1/(1+α)}``.
    ``β_1 = B`` is set by the caller.  ``gamma_prev`` must be a certified upper bound of ``γ_{t−1}``.
    """
    t_ = check_int_at_least("t", t, 2)
    a = _alpha(alpha)
    b_prev = tgp_nonprivate_trunc_level(t_ - 1, v, a)
    g = check_finite("gamma_prev", gamma_prev)
    if g < 0:
        raise ValueError(f"gamma_prev must be in [0, inf), got {gamma_prev!r}")
    bias = float(
        math.sqrt(1.0 + a)
        * check_positive("v", v) ** (1.0 / (1.0 + a))
        * float(t_ - 1) ** (1.0 / (2.0 * (1.0 + a)))
    )
    spread = 2.0 * math.sqrt(2.0) * b_prev * math.sqrt(g + math.log(1.0 / _failure(delta)))
    return check_positive("B", B) + (spread + bias) / math.sqrt(check_positive("lam", lam))


def subweibull_trunc_level(t: int, signal_bound: float, a: float, b: float, theta: float) -> float:
    """``b_t = s + (ln⁺(a t)/b)^θ`` for noise ``η ~ subW(θ)`` with tails
    ``P(|η| ≥ x) ≤ a exp(−b x^{1/θ})`` (Eq. 6) and ``|f| ≤ s`` (``signal_bound``).

    The truncation trick of Sec. 4.3 for sub-Weibull noise (remark after Eq. 6; the paper gives
    no constants): the level is chosen so that ``P(|η| > b_t − s) ≤ 1/t``, as
    ``B + R + 𝓛 ln t`` is for CTL's Laplace noise (``θ = 1``, ``a = 1``, ``b = 1/𝓛``,
    ``s = B + R`` gives exactly :func:`tgp_trunc_level`).  ``ln⁺ = max(ln, 0)``.
    """
    t_ = check_int_at_least("t", t, 1)
    s = check_finite("signal_bound", signal_bound)
    if s < 0:
        raise ValueError(f"signal_bound must be in [0, inf), got {signal_bound!r}")
    a_ = check_positive("a", a)
    b_ = check_positive("b", b)
    th = check_positive("theta", theta)
    return s + float((max(math.log(a_ * t_), 0.0) / b_) ** th)


def subweibull_tgp_beta(
    t: int,
    B: float,
    signal_bound: float,
    a: float,
    b: float,
    theta: float,
    lam: float,
    delta: float,
    gamma_prev: float,
    K2: float,
) -> float:
    """``β_t`` of TGP-UCB under sub-Weibull noise: Algorithm 2, line 5 with the level
    :func:`subweibull_trunc_level` in place of ``B + R + 𝓛 ln t``, ``t ≥ 2``:

        ``β_t = B + (2√2/√λ) b_{t−1} √(γ_{t−1} + ln(1/δ)) + (1/√λ) √(K(ln(t−1) + 1))``.

    Thm 3's proof (Sec. 4.3) goes through unchanged: step 3 needs ``|ŷ| ≤ b_τ``, step 4 needs
    ``P(|y_τ| > b_τ) ≤ 1/τ`` and ``E[y²] ≤ K`` (``K2``, a bound on the second moment of the
    rewards).  ``β_1 = B`` is set by the caller.
    """
    t_ = check_int_at_least("t", t, 2)
    b_prev = subweibull_trunc_level(t_ - 1, signal_bound, a, b, theta)
    g = check_finite("gamma_prev", gamma_prev)
    if g < 0:
        raise ValueError(f"gamma_prev must be in [0, inf), got {gamma_prev!r}")
    lam_ = check_positive("lam", lam)
    K2_ = check_positive("K2", K2)
    return (
        check_positive("B", B)
        + (2.0 * math.sqrt(2.0) / math.sqrt(lam_))
        * b_prev
        * math.sqrt(g + math.log(1.0 / _failure(delta)))
        + math.sqrt(K2_ * (math.log(t_ - 1) + 1.0)) / math.sqrt(lam_)
    )


# --------------------------------------------------------------------------------------------
# MoMA-GP-UCB (Alg. 3, Thm 4, Cor. 1)


def moma_k_rep(T: int, delta: float, const: float = 24.0, log_mult: float = 4.0) -> int:
    """``k = ⌈const · ln(log_mult · e · T/δ)⌉``; paper: ``⌈24 ln(4eT/δ)⌉`` (Alg. 3, line 3, Thm 4).

    ``const = 72`` is the value for which Lemma 11's Hoeffding step is correct (see
    :func:`reference.zhou_tan.bounds.lemma11_hoeffding_bound`).  ``log_mult ∈ {1, 2}`` gives the
    proofs' ``ln(eT/δ)`` (Sec. 4.4, Lemma 11) and ``ln(2eT/δ)`` variants.
    """
    T_ = check_int_at_least("T", T, 1)
    d = _failure(delta)
    c = check_positive("const", const)
    lm = check_positive("log_mult", log_mult)
    return math.ceil(c * math.log(lm * math.e * T_ / d))


def practical_k_rep(T: int, delta: float) -> int:
    """Practical preset ``⌈ln(4eT/δ)⌉`` (the constant 24 dropped)."""
    return moma_k_rep(T, delta, const=1.0)


def moma_n_epochs(T: int, k_rep: int) -> int:
    """``N = ⌊T/k⌋`` (Alg. 3, line 3).  The ``T − Nk`` leftover rounds are unspecified."""
    return check_int_at_least("T", T, 1) // check_int_at_least("k_rep", k_rep, 1)


def moma_radius(n: int, m: int, c: float, alpha: float = 1.0) -> float:
    """``γ = (9 m_n c)^{1/(1+α)} n^{(1−α)/(2(1+α))}`` (Lemma 10; Thm 4)."""
    n_ = check_int_at_least("n", n, 1)
    mm = check_int_at_least("m", m, 0)
    a = _alpha(alpha)
    return float(
        (9.0 * mm * check_positive("c", c)) ** (1.0 / (1.0 + a))
        * n_ ** ((1.0 - a) / (2.0 * (1.0 + a)))
    )


def moma_beta_next(
    n: int,
    m: int,
    c: float,
    B: float,
    eps_nys: float,
    lam: float,
    alpha: float = 1.0,
    lam_factor: Literal["proof", "statement"] = "proof",
) -> float:
    """``β_{n+1} = B(1 + 1/√(1−ε)) + 3γ/√λ`` (proof Eqs. 10/22, Sec. 4.4) with ``γ`` = :func:`moma_radius`.

    ``lam_factor="statement"`` drops the ``1/√λ`` as printed in Thm 4 / Cor. 1 (typo
    T-10, ``proofs_notes/zhou_tan/alg3_moma_thm4_cor1.md``).  Both agree at ``λ = 1``.  Cor. 1 (LDP) uses ``c = R² + 8(B+R)²/ϵ²`` and ``α = 1``.
    """
    check_choice("lam_factor", lam_factor, ("proof", "statement"))
    lam_ = check_positive("lam", lam)
    g = moma_radius(n, m, c, alpha)
    if lam_factor == "proof":
        g = g / math.sqrt(lam_)
    elif lam_factor != "statement":
        raise ValueError(f"lam_factor must be 'proof' or 'statement', got {lam_factor!r}")
    return first_beta_approx(B, eps_nys) + 3.0 * g


# --------------------------------------------------------------------------------------------
# Non-private GP-UCB baseline (reference [6], not a result of this paper)


def igp_ucb_beta(t: int, B: float, R: float, gamma_prev: float, delta: float) -> float:
    """``β_t = B + R√(2(γ_{t−1} + 1 + ln(1/δ)))``: IGP-UCB of Chowdhury & Gopalan [6] (their Thm 2).

    For ``R``-sub-Gaussian noise and regulariser ``λ = 1 + η`` with ``η = 2/T`` in [6].  Included
    only as the non-private sub-Gaussian baseline; the Zhou & Tan paper itself quotes it only
    through its citations (Sec. 1.1).  ``t ≥ 1``.
    """
    check_int_at_least("t", t, 1)
    g = check_finite("gamma_prev", gamma_prev)
    if g < 0:
        raise ValueError(f"gamma_prev must be in [0, inf), got {gamma_prev!r}")
    R_ = check_finite("R", R)
    if R_ < 0:
        raise ValueError(f"R must be in [0, inf), got {R!r}")
    return check_positive("B", B) + R_ * math.sqrt(
        2.0 * (g + 1.0 + math.log(1.0 / check_delta(delta)))
    )
