"""Theorems, lemmas and corollaries of Sajed & Sheffet as functions, one per stated result.

Sec. 2: Laplace and Hoeffding tails, Fact 2.1.  Sec. 3: Thm 3.1 / Cor. 3.2 accounting, Thm 3.3
(halting time), Thm 3.4 / Lemma 3.5 / Cor. 3.6 (private lower bounds, Sec. 3.1) and the cited
bounds.  Sec. 4: Thm 4.1, Lemma 4.2, Thm 4.3, Thm 4.4 and the compared lower bounds.  Sec. 1:
claims on the tree-based mechanism.  Big-O results return the expression inside the O(·) with
constant 1 (``*_order``).  Each result has its own note in ``proofs_notes/sajed_sheffet/``
(errata resolutions there); the link below is the lower-bounds note.

Proof note: ``proofs_notes/sajed_sheffet/thm34_lower_bounds.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.sajed_sheffet.constants import (
    check_epsilon_or_inf,
    dp_exp_nas_c,
    dp_exp_nas_h,
    dp_nas_c,
    dp_nas_h,
    dp_nas_noise_scales,
    dpse_epoch_parameters,
)
from reference.tree import tree_depth
from reference.validation import (
    check_alpha,
    check_array,
    check_choice,
    check_epsilon,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "FailureBudget",
    "PrivacyAccount",
    "cor32_failure_budget",
    "cor36_sample_complexity_lower_bound",
    "dagum_sample_complexity_lower_bound",
    "domingo_nas_sample_complexity_order",
    "dpucb_added_regret_order",
    "fact21_function",
    "fact21_thresholds",
    "good_event_halting_time",
    "hoeffding_tail",
    "lai_robbins_regret_order",
    "laplace_mechanism_privacy_loss",
    "laplace_tail",
    "lemma35_group_privacy_factor",
    "lemma42_elimination_epoch",
    "lemma42_failure_probability",
    "lemma42_proof_pull_bound",
    "lemma42_pull_bound",
    "minimax_regret_lower_bound_order",
    "mnih_nas_sample_complexity_order",
    "private_regret_lower_bound_order",
    "section31_assumption_holds",
    "svt_privacy_loss",
    "thm31_failure_budget",
    "thm31_privacy_account",
    "thm33_halting_bound",
    "thm33_terms",
    "thm34_exceedance_probability",
    "thm34_sample_size",
    "thm34_two_point_laws",
    "thm41_privacy_loss",
    "thm43_regret_bound",
    "thm43_regret_bound_paper_form",
    "thm44_critical_gap",
    "thm44_critical_gap_order",
    "thm44_minimax_regret_bound",
    "thm44_minimax_regret_order",
    "thm44_per_arm_regret_bound",
    "tree_release_noise_variance",
    "ucb_minimax_regret_order",
]


def _mu_checked(mu: float, range_R: float) -> float:
    m = check_in_range("mu", mu, -range_R, range_R, low_open=False, high_open=False)
    if m == 0.0:
        raise ValueError("mu must be non-zero (the stopping rule need not halt when mu = 0)")
    return m


# --------------------------------------------------------------------------------------------
# Sec. 2: concentration facts and Fact 2.1
# --------------------------------------------------------------------------------------------


def laplace_tail(tau: float, scale: float) -> float:
    """``Pr[|X| > τ] = e^{−τ/λ}`` for ``X ~ Lap(λ)``, ``τ ≥ 0`` (Sec. 2)."""
    t = check_finite("tau", tau)
    if t < 0.0:
        raise ValueError(f"tau must be in [0, inf), got {tau!r}")
    return math.exp(-t / check_positive("scale", scale))


def hoeffding_tail(deviation: float, t: int, width: float) -> float:
    """Hoeffding (Sec. 2): ``Pr[|X̄_t − μ| ≥ a] ≤ 2 exp(−2a²t/w²)``, ``w`` the interval length.

    The paper calls the length ``R``; for the support ``[−R, R]`` of a stopping rule ``w = 2R``.
    """
    a = check_positive("deviation", deviation)
    t = check_int_at_least("t", t, 1)
    w = check_positive("width", width)
    return 2.0 * math.exp(-2.0 * a * a * t / (w * w))


def fact21_function(x: float, a: float) -> float:
    """``f(x) = log(a log x)/x`` of Fact 2.1, for ``x > 1`` and ``a > 0``."""
    xv = check_in_range("x", x, 1.0, math.inf)
    av = check_positive("a", a)
    return math.log(av * math.log(xv)) / xv


def fact21_thresholds(a: float, b: float) -> tuple[float, float]:
    """``(x₀, x₁) = (log(a log(1/b))/b, 2 log(a log(1/b))/b)`` of Fact 2.1.

    Fact 2.1: for ``a > 1`` and ``0 < b < 1/16``, ``f(x) > b`` for ``e < x < x₀`` and ``f(x) < b`` for
    ``x > x₁``.  The second claim holds; the first (and the claimed monotonicity of ``f`` on
    ``(e, ∞)``) fails for ``a`` close to 1, e.g. ``a = 1.01, b = 0.01``.  Its only use
    (proof of Thm 3.3, ``log(4 log₂(t)/β) = log(a log t)``) has ``a = 4/(β ln 2) ≥ 72`` for
    ``β ≤ 0.08``, where it holds.
    """
    av = check_in_range("a", a, 1.0, math.inf)
    bv = check_in_range("b", b, 0.0, 1.0 / 16.0)
    x0 = math.log(av * math.log(1.0 / bv)) / bv
    return x0, 2.0 * x0


# --------------------------------------------------------------------------------------------
# Sec. 3: Theorem 3.1 and Corollary 3.2
# --------------------------------------------------------------------------------------------


def svt_privacy_loss(sensitivity: float, threshold_scale: float, query_scale: float) -> float:
    """Privacy loss ``Δ/b₁ + 2Δ/b₂`` of the sparse vector technique halting at one query.

    Standard AboveThreshold accounting (Dwork & Roth 2014, Thm 3.23): threshold noise ``Lap(b₁)``
    drawn once, fresh query noise ``Lap(b₂)``, queries of sensitivity ``Δ``.  The paper's recipe
    ``b₁ = b₂ = 3Δ/ε`` (Sec. 2) gives exactly ``ε``.
    """
    d = check_positive("sensitivity", sensitivity)
    return d / check_positive("threshold_scale", threshold_scale) + 2.0 * d / check_positive(
        "query_scale", query_scale
    )


def laplace_mechanism_privacy_loss(sensitivity: float, scale: float) -> float:
    """Privacy loss ``Δ/b`` of the Laplace mechanism ``f + Lap(b)`` with ``GS(f) = Δ`` (Sec. 2)."""
    return check_positive("sensitivity", sensitivity) / check_positive("scale", scale)


@dataclass(frozen=True)
class PrivacyAccount:
    """Privacy loss of Algorithm 1/2 by part (proof of Thm 3.1)."""

    svt: float
    release: float

    @property
    def total(self) -> float:
        """``svt + release`` (basic composition)."""
        return self.svt + self.release


def thm31_privacy_account(range_R: float, epsilon: float) -> PrivacyAccount:
    """Theorem 3.1 (privacy part, Sec. 3): Algorithms 1 and 2 are ε-DP.

    The halting decisions are an SVT on sum queries ``q_t`` of sensitivity ``2R`` with
    ``b₁ = σ₁ = 12R/ε`` and ``b₂ = σ₂ = 12R/ε``: loss ``2R/σ₁ + 4R/σ₂ = ε/2``.  The release
    ``X̄_t + L/t`` is the Laplace mechanism on the sum ``X_{1:t}`` (sensitivity ``2R``) with scale
    ``σ₃ = 4R/ε``: loss ``ε/2``.  Total ``ε``.  The same account holds for Algorithm 2 (Cor. 3.2).
    """
    R = check_positive("range_R", range_R)
    s = dp_nas_noise_scales(R, check_epsilon(epsilon))
    return PrivacyAccount(
        svt=svt_privacy_loss(2.0 * R, s.sigma1, s.sigma2),
        release=laplace_mechanism_privacy_loss(2.0 * R, s.sigma3),
    )


@dataclass(frozen=True)
class FailureBudget:
    """Union-bound failure probabilities of the four parts of a good event.

    For Thm 3.1 / Cor. 3.2: (i) Hoeffding at every check, (ii) threshold noise ``|B|``, (iii) query
    noise ``|A|`` at every check, (iv) release noise ``|L|``.  ``paper_total`` is the paper's bound
    (each part ``≤ β/4`` using ``Σ t⁻² ≤ 2``); ``total`` uses ``Σ t⁻² = π²/6``.
    """

    hoeffding: float
    threshold: float
    query: float
    release: float
    paper_total: float

    @property
    def total(self) -> float:
        return self.hoeffding + self.threshold + self.query + self.release


def thm31_failure_budget(beta: float) -> FailureBudget:
    """Failure probability of the good event of Thm 3.1.

    Per check ``t``: Hoeffding ``Pr[|X̄_t − μ| > h_t] ≤ β/(8t²)`` and ``Pr[|A_t| > σ₂ log(8t²/β)] =
    β/(8t²)``; summed over ``t ≥ 1``: ``βπ²/48`` each.  ``Pr[|B| > σ₁ log(4/β)] = β/4`` and
    ``Pr[|L| > σ₃ log(4/β)] = β/4``.  Total ``β(1/2 + π²/24) ≈ 0.911β ≤ β``.
    """
    b = check_alpha(beta, "beta")
    per_check = b * math.pi**2 / 48.0
    return FailureBudget(per_check, b / 4.0, per_check, b / 4.0, b)


def cor32_failure_budget(beta: float) -> FailureBudget:
    """Failure probability of the event ``E`` of Cor. 3.2: as Thm 3.1 with checks ``k ≥ 1``.

    Per check ``k`` (at ``t = 2^k``) the Hoeffding and query parts are ``β/(8k²)``, so the sums are the
    same as in :func:`thm31_failure_budget`.
    """
    return thm31_failure_budget(beta)


# --------------------------------------------------------------------------------------------
# Sec. 3: Theorem 3.3 (halting time of Algorithm 2)
# --------------------------------------------------------------------------------------------


def thm33_terms(
    range_R: float,
    mu: float,
    alpha: float,
    beta: float,
    epsilon: float,
    *,
    inner_log: Literal["paper", "clamped"] = "paper",
) -> tuple[float, float, float]:
    """``(t₀, t₁, t₂)`` of Theorem 3.3.

    ``t₀ = R² log((1/β) log(R/(α|μ|)))/(α²μ²)``, ``t₁ = R log((1/β) log(R/(α|μ|)))/(ε|μ|)``,
    ``t₂ = R log(1/β)/(εα|μ|)``.

    The inner argument ``(1/β) log(R/(α|μ|))`` can be ``≤ 1`` (e.g. ``α|μ|`` close to ``R``), making
    ``t₀, t₁ ≤ 0``.  ``inner_log="paper"`` raises in that case; ``"clamped"`` uses
    ``log(max(e, ·))`` (the convention of the project's reported tables).
    """
    check_choice("inner_log", inner_log, ("paper", "clamped"))
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_in_range("beta", beta, 0.0, 0.08, high_open=False)
    eps = check_epsilon(epsilon)
    inner = (1.0 / b) * math.log(R / (a * m))
    if inner_log == "paper":
        if inner <= 1.0:
            raise ValueError(
                "Thm 3.3 is void here: (1/beta) log(R/(alpha |mu|)) must be > 1, got "
                f"{inner!r}; use inner_log='clamped'"
            )
        lg = math.log(inner)
    elif inner_log == "clamped":
        lg = math.log(max(math.e, inner))
    else:
        raise ValueError(f"inner_log must be 'paper' or 'clamped', got {inner_log!r}")
    t0 = R * R * lg / (a * a * m * m)
    t1 = R * lg / (eps * m)
    t2 = R * math.log(1.0 / b) / (eps * a * m)
    return t0, t1, t2


def thm33_halting_bound(
    range_R: float,
    mu: float,
    alpha: float,
    beta: float,
    epsilon: float,
    *,
    inner_log: Literal["paper", "clamped"] = "paper",
) -> float:
    """Theorem 3.3: for ``β ≤ 0.08``, ``μ ≠ 0``, w.p. ``≥ 1 − β`` Algorithm 2 halts by
    ``t_U = 2000(t₀ + t₁ + t₂)``."""
    check_choice("inner_log", inner_log, ("paper", "clamped"))
    return 2000.0 * sum(thm33_terms(range_R, mu, alpha, beta, epsilon, inner_log=inner_log))


def _halts_under_event(
    t: int, k: int, R: float, m: float, a: float, b: float, eps: float, variant: str
) -> bool:
    """On the event ``E``: ``|X̄_t| ≥ |μ| − h`` and ``B + A ≤ σ₁ log(4/β) + σ₂ log(8k²/β)``, so the
    halting test of line 10/13 certainly passes if ``|μ| − h ≥ h(1 + 1/α) + (c + σ₁ log(4/β) +
    σ₂ log(8k²/β))/t`` (``k = t`` for Algorithm 1)."""
    s = dp_nas_noise_scales(R, eps)
    if variant == "every_step":
        h, c = dp_nas_h(t, R, b), dp_nas_c(t, R, eps, a, b)
        noise = s.sigma1 * math.log(4.0 / b) + s.sigma2 * math.log(8.0 * t * t / b)
    else:
        h, c = dp_exp_nas_h(t, k, R, b), dp_exp_nas_c(k, R, eps, a, b)
        noise = s.sigma1 * math.log(4.0 / b) + s.sigma2 * math.log(8.0 * k * k / b)
    return m - h >= h * (1.0 + 1.0 / a) + (c + noise) / t


def good_event_halting_time(
    range_R: float,
    mu: float,
    alpha: float,
    beta: float,
    epsilon: float,
    *,
    variant: Literal["exponential", "every_step"] = "exponential",
    t_limit: int = 2**62,
) -> int:
    """First check time by which Algorithm 2 (or 1) certainly halts on the event of Cor. 3.2 (Thm 3.1).

    The tighter bound inside the proof of Thm 3.3 (``τ_E``): the first check
    ``t`` (``2^k`` for Algorithm 2, every ``t`` for Algorithm 1) with
    ``|μ| − h_t ≥ h_t(1 + 1/α) + (c_t + σ₁ log(4/β) + σ₂ log(8k²/β))/t``.  Hence
    ``Pr[halting time > τ_E] ≤ β`` for any ``β ∈ (0, 1)`` and ``μ ≠ 0``.  For Algorithm 1 the right-hand
    side is decreasing in ``t`` (``log(16t²/β)/t`` and ``(const + σ₂ log(8t²/β))/t`` decrease because
    ``16/β > e²``), so the first such ``t`` is found by doubling and bisection.  Raises if no check up
    to ``t_limit`` qualifies.
    """
    check_choice("variant", variant, ("exponential", "every_step"))
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    eps = check_epsilon(epsilon)
    t_limit = check_int_at_least("t_limit", t_limit, 2)
    if variant == "exponential":
        k = 1
        while 2**k <= t_limit:
            if _halts_under_event(2**k, k, R, m, a, b, eps, variant):
                return int(2**k)
            k += 1
        raise ValueError(f"no check up to t_limit={t_limit} satisfies the condition")
    if variant != "every_step":
        raise ValueError(f"variant must be 'exponential' or 'every_step', got {variant!r}")
    hi = 1
    while not _halts_under_event(hi, hi, R, m, a, b, eps, variant):
        hi *= 2
        if hi > t_limit:
            raise ValueError(f"no check up to t_limit={t_limit} satisfies the condition")
    lo = hi // 2  # fails (or is 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _halts_under_event(mid, mid, R, m, a, b, eps, variant):
            hi = mid
        else:
            lo = mid
    return hi


# --------------------------------------------------------------------------------------------
# Sec. 3.1: lower bounds and the cited non-private bounds
# --------------------------------------------------------------------------------------------


def thm34_sample_size(
    range_R: float, mu: float, alpha: float, beta: float, epsilon: float
) -> float:
    """``n = R log(1/β)/(12 α |μ| ε)`` of the proof of Theorem 3.4.

    Theorem 3.4: any ε-DP ``(α, β)``-stopping rule needs ``Ω(R log(1/β)/(εα|μ|))`` samples;
    the proof shows that on the two-point law ``P`` (:func:`thm34_two_point_laws`) it reads strictly
    more than ``n`` samples with probability ``> 1/4`` (for ``α < 1``, ``β < 1/4``).  ``n`` is real;
    a sample count ``> n`` means ``> ⌊n⌋``.
    """
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_in_range("beta", beta, 0.0, 0.25)
    eps = check_epsilon(epsilon)
    return R * math.log(1.0 / b) / (12.0 * a * m * eps)


def thm34_two_point_laws(range_R: float, mu: float, alpha: float) -> tuple[float, float, float]:
    """``(Pr_P[R], sup Pr_Q[R], sup d_TV(P, Q))`` of the proof of Theorem 3.4.

    ``P`` on ``{−R, R}`` with ``Pr_P[R] = 1/2 + μ/(2R)`` (mean ``μ > 0``); ``Q`` likewise with mean
    ``μ'`` infinitesimally below ``(1 − α)μ/(1 + α)``; ``d_TV = (μ − μ')/(2R)``, whose supremum is
    ``αμ/(R(1 + α)) < αμ/R``.  (``μ > 0`` without loss of generality: use ``−X`` otherwise.)
    """
    R = check_positive("range_R", range_R)
    m = _mu_checked(mu, R)
    if m < 0.0:
        raise ValueError(f"mu must be in (0, R] (use -X for negative means), got {mu!r}")
    a = check_alpha(alpha)
    mu_prime = (1.0 - a) / (1.0 + a) * m
    return 0.5 + m / (2.0 * R), 0.5 + mu_prime / (2.0 * R), (m - mu_prime) / (2.0 * R)


def lemma35_group_privacy_factor(epsilon: float, n: float, tv_distance: float) -> float:
    """``exp(6 ε n d_TV(D, D'))`` of Lemma 3.5 (Karwa & Vadhan 2018, Lemma 6.1, as quoted).

    For ε-DP ``M`` and ``n`` i.i.d. samples from ``D`` resp. ``D'``: ``Pr[M(S) ∈ O] ≤ factor ·
    Pr[M(S') ∈ O]``.  (Quoted, not re-derived here.)  Returns ``inf`` when the factor
    exceeds the float range (the bound is then vacuous).
    """
    eps = check_epsilon(epsilon)
    nv = check_finite("n", n)
    if nv < 0.0:
        raise ValueError(f"n must be in [0, inf), got {n!r}")
    tv = check_in_range("tv_distance", tv_distance, 0.0, 1.0, low_open=False, high_open=False)
    try:
        return math.exp(6.0 * eps * nv * tv)
    except OverflowError:
        return math.inf


def thm34_exceedance_probability(
    beta: float, *, form: Literal["paper", "proof_chain"] = "paper"
) -> float:
    """Lower bound on ``Pr_P[more than n samples]`` in Theorem 3.4's proof (Sec. 3.1).

    The chain gives ``Pr_P[E] ≤ β e^{6εn·αμ/R} = β/√β = √β`` (``E``: halts within ``n`` samples with a
    correct answer) and ``Pr_P[halts within n, wrong] ≤ β``, so ``Pr_P[> n samples] ≥ 1 − √β − β``
    (``form="proof_chain"``).  The paper then weakens ``√β < 1/2`` to get ``> 1 − (1/2 + β) > 1/4``
    (``form="paper"`` returns ``1/4``).  Requires ``β < 1/4``.
    """
    check_choice("form", form, ("paper", "proof_chain"))
    b = check_in_range("beta", beta, 0.0, 0.25)
    if form == "paper":
        return 0.25
    if form == "proof_chain":
        return 1.0 - math.sqrt(b) - b
    raise ValueError(f"form must be 'paper' or 'proof_chain', got {form!r}")


def cor36_sample_complexity_lower_bound(
    range_R: float, mu: float, alpha: float, beta: float, epsilon: float
) -> float:
    """Corollary 3.6: ``Ω(R² log(1/β)/(α²μ²) + R log(1/β)/(εα|μ|))`` (expression, constant 1).

    Dagum et al.'s non-private bound (for the two-point law, variance ``Θ(R²)``) plus Theorem 3.4.
    """
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    eps = check_epsilon(epsilon)
    lg = math.log(1.0 / b)
    return R * R * lg / (a * a * m * m) + R * lg / (eps * a * m)


def dagum_sample_complexity_lower_bound(
    range_R: float, variance: float, mu: float, alpha: float, beta: float
) -> float:
    """Dagum et al. (2000), as cited (Sec. 3.1): ``Ω(max{σ², Rα|μ|} log(1/β)/(α²μ²))`` (constant 1)."""
    R = check_positive("range_R", range_R)
    v = check_finite("variance", variance)
    if v < 0.0:
        raise ValueError(f"variance must be in [0, inf), got {variance!r}")
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    return max(v, R * a * m) * math.log(1.0 / b) / (a * a * m * m)


def domingo_nas_sample_complexity_order(
    range_R: float, mu: float, alpha: float, beta: float
) -> float:
    """NAS (Domingo et al. 2002), as cited (Sec. 1): ``O(R²/(α²μ²) · log(R/(βα|μ|)))`` (constant 1)."""
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    return R * R / (a * a * m * m) * math.log(R / (b * a * m))


def mnih_nas_sample_complexity_order(range_R: float, mu: float, alpha: float, beta: float) -> float:
    """Mnih et al. (2008), as cited (Sec. 1): ``O(R²/(α²μ²)(log(1/β) + log log(R/(α|μ|))))`` (constant 1).

    (Sec. 6, prints the sum with a misplaced parenthesis.)  ``log log`` is
    negative when ``R/(α|μ|) < e``; the expression is returned as is.
    """
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    return R * R / (a * a * m * m) * (math.log(1.0 / b) + math.log(math.log(R / (a * m))))


def section31_assumption_holds(range_R: float, mu: float, alpha: float, beta: float) -> bool:
    """``log(R/(α|μ|)) ≤ 1/β``: under it Thm 3.3 matches Cor. 3.6 up to constants (§3.1 Discussion)."""
    R = check_positive("range_R", range_R)
    m = abs(_mu_checked(mu, R))
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    return math.log(R / (a * m)) <= 1.0 / b


# --------------------------------------------------------------------------------------------
# Sec. 4: Theorem 4.1, Lemma 4.2, Theorems 4.3 and 4.4
# --------------------------------------------------------------------------------------------


def thm41_privacy_loss(
    n_viable: int, epoch: int, beta: float, epsilon: float, *, noise_on: Literal["r", "R_e"] = "r"
) -> float:
    """Theorem 4.1: privacy loss of one epoch of Algorithm 3 (and so of the algorithm).

    A reward enters one arm's mean in one epoch; that mean is over ``r_e = ⌈R_e⌉`` rewards in
    ``[0, 1]``, so its sensitivity is ``1/r_e`` (the proof writes ``≤ 1/R_e``).  The Laplace mechanism
    with scale ``1/(ε r_e)`` (``noise_on="r"``) has loss exactly ``ε``; with ``1/(ε R_e)``
    (``noise_on="R_e"``) the loss is ``ε R_e/r_e ≤ ε``.  Parallel composition over epochs and arms and
    post-processing (eliminations, epoch lengths) give ε-DP for the whole transcript.
    """
    check_choice("noise_on", noise_on, ("r", "R_e"))
    eps = check_epsilon(epsilon)
    p = dpse_epoch_parameters(n_viable, epoch, beta, eps, noise_on=noise_on)
    return laplace_mechanism_privacy_loss(1.0 / p.rounds, p.noise_scale)


def lemma42_elimination_epoch(gap: float) -> int:
    """``e(a)``: the first epoch with ``Δ_a ≥ Δ_e = 2^{−e}``, i.e. ``⌈log₂(1/Δ_a)⌉`` (at least 1), Sec. 4.

    Lemma 4.2's proof: on its event, arm ``a`` is eliminated by the end of epoch ``e(a)`` (if still
    viable).  ``e(a) ≤ log₂(2/Δ_a)`` (the paper writes ``<``).
    """
    g = check_in_range("gap", gap, 0.0, 1.0, high_open=False)
    e = 1
    while 2.0 ** (-e) > g:
        e += 1
    return e


def lemma42_failure_probability(beta: float) -> float:
    """``Pr[not E] ≤ Σ_e β/(2e²) = βπ²/12`` for the event ``E = ∩_e E_e`` of Lemma 4.2.

    Per epoch and viable arm: Hoeffding ``Pr[|μ_a − μ̄_a| > h_e] ≤ β/(4|S|e²)`` and the Laplace tail
    ``Pr[|μ̃_a − μ̄_a| > c_e] ≤ β/(4|S|e²)``.  The paper writes ``E = ∪_e E_e`` (must be ``∩``, spec
    ERR-12) and bounds ``Σ e⁻² ≤ 2`` to get ``≥ 1 − β``.
    """
    b = check_alpha(beta, "beta")
    return b * math.pi**2 / 12.0


def lemma42_pull_bound(
    K: int, gap: float, beta: float, epsilon: float, *, T: int | None = None
) -> float:
    """Lemma 4.2 (explicit form at the end of the proof, Sec. 4): on its event (prob. ``≥ 1 − β``)
    Algorithm 3 pulls a suboptimal arm with gap ``Δ_a`` at most
    ``log(K log(2/Δ_a)/β) · (1024/Δ_a² + 96/(εΔ_a))`` times (and at most ``T`` if ``T`` is given).

    ``epsilon = inf`` drops the privacy term (non-private SE).  The proof's step
    ``R_e ≤ R_{e+1}/2`` can fail when ``|S|`` shrinks; the bound itself is checked
    against :func:`lemma42_proof_pull_bound` (the schedule at ``|S| = K``) in the tests.
    """
    K = check_int_at_least("K", K, 2)
    g = check_in_range("gap", gap, 0.0, 1.0, high_open=False)
    b = check_alpha(beta, "beta")
    eps = check_epsilon_or_inf(epsilon)
    private = 0.0 if eps == math.inf else 96.0 / (eps * g)
    bound = math.log(K * math.log(2.0 / g) / b) * (1024.0 / (g * g) + private)
    if T is not None:
        bound = min(float(check_int_at_least("T", T, 1)), bound)
    return bound


def lemma42_proof_pull_bound(K: int, gap: float, beta: float, epsilon: float) -> int:
    """Pulls of a suboptimal arm on Lemma 4.2's event: at most ``Σ_{e ≤ e(a)} r_e``.

    Every epoch ``e ≤ e(a)`` pulls each viable arm ``r_e = ⌈R_e⌉`` times, and ``R_e`` is increasing in
    ``|S|``; so with the schedule evaluated at ``|S| = K`` this is an upper bound whatever arms are
    eliminated (the resolution adopted here, replacing the proof's ``2R_{e(a)}``).
    """
    K = check_size("K", K, 2)
    e_a = lemma42_elimination_epoch(gap)
    return sum(dpse_epoch_parameters(K, e, beta, epsilon).rounds for e in range(1, e_a + 1))


def _gaps_checked(gaps: FloatArray | Sequence[float]) -> FloatArray:
    g = check_array("gaps", gaps, ndim=1)
    if g.size < 2:
        raise ValueError("gaps must list every arm (K >= 2), including the best arm's 0")
    if np.any(g < 0.0) or np.any(g > 1.0):
        raise ValueError(f"gaps must lie in [0, 1], got {g.tolist()}")
    if not np.any(g == 0.0):
        raise ValueError("gaps must contain a 0 (the best arm)")
    return g


def thm43_regret_bound(gaps: FloatArray | Sequence[float], T: int, epsilon: float) -> float:
    """Theorem 4.3 with Lemma 4.2's explicit constants (ERR-15/16), ``β = 1/T``:

    ``E[Reg_T] ≤ 1 + Σ_{a: Δ_a > 0} min{TΔ_a, log(K T log(2/Δ_a)) (1024/Δ_a + 96/ε)}``.

    The ``1`` bounds the failure event (probability ``≤ 1/T``, regret ``≤ T``); the ``min`` with
    ``TΔ_a`` is Lemma 4.2's trivial bound.  ``gaps`` lists all ``K`` arms (the best has gap 0).
    """
    g = _gaps_checked(gaps)
    K = int(g.size)
    T = check_int_at_least("T", T, K)
    eps = check_epsilon_or_inf(epsilon)
    total = 1.0
    for d in g[g > 0.0]:
        dv = float(d)
        private = 0.0 if eps == math.inf else 96.0 / eps
        lemma = math.log(K * T * math.log(2.0 / dv)) * (1024.0 / dv + private)
        total += min(T * dv, lemma)
    return total


def thm43_regret_bound_paper_form(
    gaps: FloatArray | Sequence[float], T: int, epsilon: float
) -> float:
    """The last line of Theorem 4.3's proof (Sec. 4): ``Σ_{a ≠ a*} 3 log(T)/Δ_a + 3 log(T)(K − 1)/ε``.

    The constants of Lemma 4.2 are dropped: this is the shape of the
    ``O(Σ log(T)/Δ_a + K log(T)/ε)`` statement, not a numeric upper bound.
    """
    g = _gaps_checked(gaps)
    K = int(g.size)
    T = check_int_at_least("T", T, K)
    eps = check_epsilon_or_inf(epsilon)
    lt = math.log(T)
    pos = g[g > 0.0]
    private = 0.0 if eps == math.inf else 3.0 * lt * (K - 1) / eps
    return float(np.sum(3.0 * lt / pos)) + private


def thm44_per_arm_regret_bound(gap: float, T: int, epsilon: float, C: float = 1.0) -> float:
    """``min{Δ_a T, 2C log(T)(1/Δ_a + 1/ε)}`` (proof of Theorem 4.4): regret from one arm."""
    g = check_in_range("gap", gap, 0.0, 1.0, high_open=False)
    T = check_int_at_least("T", T, 2)
    eps = check_epsilon(epsilon)
    c = check_positive("C", C)
    return min(g * T, 2.0 * c * math.log(T) * (1.0 / g + 1.0 / eps))


def thm44_critical_gap(T: int, K: int, epsilon: float, C: float = 1.0) -> float:
    """``Δ*`` solving ``Δ* T/K = 2C log(T)(1/Δ* + 1/ε)`` (proof of Theorem 4.4).

    The paper calls the closed form "hairy"; it is the positive root of the quadratic
    ``(T/K)Δ² − (2C log T/ε)Δ − 2C log T = 0``:
    ``Δ* = (K/(2T)) [2C log T/ε + √(4C² log²T/ε² + 8C T log T/K)]``.
    """
    T = check_int_at_least("T", T, 2)
    K = check_int_at_least("K", K, 2)
    eps = check_epsilon(epsilon)
    c = check_positive("C", C)
    lt = math.log(T)
    return (K / (2.0 * T)) * (
        2.0 * c * lt / eps + math.sqrt(4.0 * c * c * lt * lt / (eps * eps) + 8.0 * c * T * lt / K)
    )


def thm44_critical_gap_order(T: int, K: int, epsilon: float) -> float:
    """``max{√(K log(T)/T), K log(T)/(εT)}``: ``Δ* = Θ(·)`` (Sec. 4)."""
    T = check_int_at_least("T", T, 2)
    K = check_int_at_least("K", K, 2)
    eps = check_epsilon(epsilon)
    lt = math.log(T)
    return max(math.sqrt(K * lt / T), K * lt / (eps * T))


def thm44_minimax_regret_bound(T: int, K: int, epsilon: float, C: float = 1.0) -> float:
    """``2Δ*T``: the bound the proof of Theorem 4.4 derives for any gaps (Sec. 4)."""
    return 2.0 * thm44_critical_gap(T, K, epsilon, C) * T


def thm44_minimax_regret_order(T: int, K: int, epsilon: float) -> float:
    """Theorem 4.4: ``O(√(TK log T) + K log(T)/ε)`` (expression, constant 1)."""
    T = check_int_at_least("T", T, 2)
    K = check_int_at_least("K", K, 2)
    eps = check_epsilon(epsilon)
    return math.sqrt(T * K * math.log(T)) + K * math.log(T) / eps


def lai_robbins_regret_order(gaps: FloatArray | Sequence[float], T: int) -> float:
    """Lai & Robbins (1985), as cited (Sec. 2): ``Ω(Σ_{a ≠ a*} log(T)/Δ_a)`` for consistent algorithms."""
    g = _gaps_checked(gaps)
    T = check_int_at_least("T", T, 2)
    return float(np.sum(math.log(T) / g[g > 0.0]))


def private_regret_lower_bound_order(K: int, T: int, epsilon: float) -> float:
    """Shariff & Sheffet (2018), as cited (Sec. 1, Sec. 4): ε-DP MAB needs ``Ω(K log(T)/ε)`` added regret."""
    K = check_int_at_least("K", K, 2)
    T = check_int_at_least("T", T, 2)
    return K * math.log(T) / check_epsilon(epsilon)


def minimax_regret_lower_bound_order(K: int, T: int) -> float:
    """Auer et al. (2002), as cited (Sec. 2, Sec. 4): minimax regret ``Ω(√(KT))``."""
    K = check_int_at_least("K", K, 2)
    T = check_int_at_least("T", T, 1)
    return math.sqrt(K * T)


def ucb_minimax_regret_order(K: int, T: int) -> float:
    """UCB's minimax regret ``O(√(KT log T))`` (Sec. 2), attained with all gaps ``√(K log(T)/T)``."""
    K = check_int_at_least("K", K, 2)
    T = check_int_at_least("T", T, 2)
    return math.sqrt(K * T * math.log(T))


# --------------------------------------------------------------------------------------------
# Sec. 1: the tree-based mechanism behind DP-UCB
# --------------------------------------------------------------------------------------------


def tree_release_noise_variance(count: int, T: int, epsilon: float) -> float:
    """Variance of the noise of one prefix release of a per-arm tree of :class:`~.bandits.DPUCB`.

    The release at count ``s`` sums ``popcount(s)`` independent ``Lap(m/ε)`` node noises
    (``m = tree_depth(T)``, no padding), so the variance is ``popcount(s) · 2m²/ε²``; at most
    ``2m³/ε²``.  Sec. 1: with ``log₂T`` nodes of ``Lap(log₂(T)/ε)`` the variance is
    ``Θ(log³(T)/ε²)``.
    """
    s = check_int_at_least("count", count, 0)
    T = check_int_at_least("T", T, 1)
    if s > T:
        raise ValueError(f"count must be in [0, T] = [0, {T}], got {count!r}")
    eps = check_epsilon(epsilon)
    m = tree_depth(T)
    return bin(s).count("1") * 2.0 * (m / eps) ** 2


def dpucb_added_regret_order(K: int, T: int, epsilon: float) -> float:
    """Added regret of DP-UCB per the paper's account of its analyses (Sec. 1): ``O(K log^{2.5}(T)/ε)``."""
    K = check_int_at_least("K", K, 2)
    T = check_int_at_least("T", T, 2)
    return float(K * math.log(T) ** 2.5 / check_epsilon(epsilon))
