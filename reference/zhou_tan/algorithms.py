"""GP-UCB, (LDP-)TGP-UCB (Alg. 2), (LDP-)ATA-GP-UCB (Alg. 1) and (LDP-)MoMA-GP-UCB (Alg. 3).

Zhou & Tan (AAAI 2021).  The LDP and non-private versions are the *same* learner: privacy lives in
the :class:`~reference.zhou_tan.environment.Curator`, and only the constants (``v``, ``c``) differ.
The ``make_*`` factories build the theory schedules (Theorems 2, 3, 4, Cor. 1) or the practical
presets of [7]'s code.  Finite domain with Gram matrix ``K``; argmax ties broken at random;
``σ̃_0(x) = √k(x,x)`` (printed ``k(x,x)``, Algorithm 1, line 2; Algorithm 3, line 2) and a scalar
``β`` (printed ``β_t(x)``, Algorithm 1, line 4; Algorithm 3, line 5).

Proof note: ``proofs_notes/zhou_tan/alg1_ldp_ata_thm2.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_bool,
    check_callable,
    check_choice,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_nonnegative,
    check_positive,
    check_psd,
)
from reference.zhou_tan.gp import FiniteDomainGP
from reference.zhou_tan.kernels import certified_gamma_upper
from reference.zhou_tan.mechanism import (
    LDPParams,
    ldp_noise_second_moment,
    ldp_reward_second_moment,
)
from reference.zhou_tan.nystrom import (
    DedupeMode,
    NystromResult,
    _posterior_variance,
    approx_posterior,
    nystrom_embedding,
)
from reference.zhou_tan.robust import (
    MedianKind,
    feature_adaptive_truncated_theta,
    median_of_means_select,
    ridge_thetas,
    truncate,
)
from reference.zhou_tan.schedules import (
    ata_beta_next,
    ata_trunc_level,
    first_beta_approx,
    igp_ucb_beta,
    ldp_tgp_beta,
    moma_beta_next,
    moma_k_rep,
    nystrom_q,
    practical_k_rep,
    practical_nystrom_q,
    ref7_ata_schedule,
    ref7_tgp_schedule,
    subweibull_tgp_beta,
    subweibull_trunc_level,
    tgp_nonprivate_beta,
    tgp_practical_beta,
    tgp_trunc_level,
)

__all__ = [
    "ATAGPUCB",
    "GPUCB",
    "TGPUCB",
    "MoMAGPUCB",
    "Preset",
    "make_ata_gp_ucb",
    "make_gp_ucb",
    "make_ldp_ata_gp_ucb",
    "make_ldp_moma_gp_ucb",
    "make_ldp_tgp_ucb",
    "make_moma_gp_ucb",
    "make_subweibull_tgp_ucb",
    "make_tgp_ucb_nonprivate",
    "ucb_argmax",
]

Preset = Literal["theory", "practical"]

_PRESETS = ("theory", "practical")
_DEDUPE_MODES = ("per_index_then_set", "per_distinct_arm")
_MEDIAN_KINDS = ("numpy", "lower", "upper")


def _check_delta(delta: float) -> float:
    """``δ ∈ (0, 1]``, checked whatever the preset (an unused argument is never silently
    ignored)."""
    return check_in_range("delta", delta, 0.0, 1.0, low_open=True, high_open=False)


def ucb_argmax(
    mean: FloatArray, sd: FloatArray, beta: float, rng: np.random.Generator | SeedLike
) -> int:
    """``argmax_x μ(x) + β σ(x)`` with ties broken uniformly at random."""
    rng = as_generator(rng)
    mean = check_nonempty("mean", check_array("mean", mean, ndim=1), what="arm")
    sd = check_array("sd", sd, shape=mean.shape)
    if np.any(sd < 0.0):
        raise ValueError("sd must hold standard deviations (>= 0)")
    beta = check_nonnegative("beta", beta)
    score = mean + beta * sd
    best = np.flatnonzero(score >= np.max(score))
    return int(best[0]) if best.size == 1 else int(rng.choice(best))


def _gram(K: FloatArray) -> FloatArray:
    Kd = check_array("K", K, ndim=2)
    check_psd("K", Kd, atol=1e-8)
    return Kd.copy()


def _gamma_before(K: FloatArray, T: int, lam: float) -> Callable[[int], float]:
    """``t ↦ γ̄_{t−1}`` (``0`` at ``t = 1``) from the certified bounds ``γ̄_1 .. γ̄_T`` of
    :func:`certified_gamma_upper`; a round past ``T + 1`` is refused naming ``T`` (the bounds
    were computed for that horizon only)."""
    gbar = certified_gamma_upper(_gram(K), check_int_at_least("T", T, 1), lam)

    def gamma(t: int) -> float:
        if t - 2 >= gbar.size:
            raise ValueError(
                f"round {t} is past the horizon T = {gbar.size} the confidence widths were "
                "built for: build the policy with T at least the number of rounds it plays"
            )
        return 0.0 if t == 1 else float(gbar[t - 2])

    return gamma


def _check_arm(arm: int, arms: int) -> int:
    """An arm index in ``[0, arms)`` (never counted from the end)."""
    a = check_int_at_least("arm", arm, 0)
    if a >= arms:
        raise ValueError(f"arm must be an arm index in [0, {arms}), got {arm!r}")
    return a


def _single_reward(rewards: FloatArray) -> float:
    r = check_array("rewards", rewards, ndim=1)
    if r.size != 1:
        raise ValueError(f"rewards must hold the one reward of the query, got {r.size}")
    return float(r[0])


# --------------------------------------------------------------------------------------------
# GP-UCB (non-private baseline) and TGP-UCB / LDP-TGP-UCB (Alg. 2)


class GPUCB:
    """GP-UCB on raw (untruncated) rewards: exact posterior, ``x_t = argmax μ_{t−1} + β_t σ_{t−1}``.

    ``beta(t)`` returns ``β_t``.  The non-private sub-Gaussian baseline (references [6, 23]).
    """

    def __init__(
        self,
        K: FloatArray,
        lam: float,
        beta: Callable[[int], float],
        rng: np.random.Generator | SeedLike,
    ) -> None:
        rng = as_generator(rng)
        self.gp = FiniteDomainGP(_gram(K), lam)
        self.beta = check_callable("beta", beta)
        self._rng = rng
        self.t = 0
        self.betas: list[float] = []

    def next_query(self) -> tuple[int, int]:
        b = float(self.beta(self.t + 1))
        self.betas.append(b)
        return ucb_argmax(self.gp.mean, np.sqrt(self.gp.var), b, self._rng), 1

    def observe(self, arm: int, rewards: FloatArray) -> None:
        self.gp.update(arm, self._transform(self.t + 1, _single_reward(rewards)))
        self.t += 1

    def _transform(self, t: int, y: float) -> float:
        return y


class TGPUCB(GPUCB):
    """TGP-UCB: ``ŷ_t = ȳ_t 1{|ȳ_t| ≤ b_t}`` (each reward truncated once, Alg. 2, line 8), exact GP.

    ``trunc_level(t)`` returns ``b_t``; ``beta(t)`` returns ``β_t``.  With the Alg. 2 schedules
    (:func:`make_ldp_tgp_ucb`) this is LDP-TGP-UCB; with [7]'s (:func:`make_tgp_ucb_nonprivate`)
    the non-private TGP-UCB.  ``n_truncated`` counts rewards set to 0.
    """

    def __init__(
        self,
        K: FloatArray,
        lam: float,
        trunc_level: Callable[[int], float],
        beta: Callable[[int], float],
        rng: np.random.Generator | SeedLike,
    ) -> None:
        rng = as_generator(rng)
        check_callable("trunc_level", trunc_level)
        super().__init__(K, lam, beta, rng)
        self.trunc_level = trunc_level
        self.n_truncated = 0

    def _transform(self, t: int, y: float) -> float:
        out = float(truncate(np.asarray([y]), self.trunc_level(t))[0])
        if out != y:
            self.n_truncated += 1
        return out


def make_gp_ucb(
    K: FloatArray,
    lam: float,
    B: float,
    R: float,
    delta: float,
    T: int,
    rng: np.random.Generator | SeedLike,
) -> GPUCB:
    """GP-UCB with the IGP-UCB width of [6] and a certified ``γ̄`` (:func:`certified_gamma_upper`)."""
    rng = as_generator(rng)
    igp_ucb_beta(1, B, R, 0.0, delta)  # checks B, R and delta now, not at the first round
    gamma = _gamma_before(K, T, lam)

    def beta(t: int) -> float:
        return igp_ucb_beta(t, B, R, gamma(t), delta)

    return GPUCB(K, lam, beta, rng)


def make_ldp_tgp_ucb(
    K: FloatArray,
    params: LDPParams,
    lam: float,
    delta: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    beta_scale: float = 1.0,
    preset: Preset = "theory",
) -> TGPUCB:
    """LDP-TGP-UCB; ``ȳ_t`` from CTL(ϵ) has second moment ``≤ K = B² + R² + 2𝓛²`` (Algorithm 2, line 2).

    Both presets truncate at the paper's ``b_t = B + R + 𝓛 ln t`` (Algorithm 2, lines 4 and 8;
    Sec. 4.3: CTL outputs are sub-exponential, so ``ln t`` suffices where [7] needs ``t^{1/4}``
    for finite variance).  ``"theory"`` (default): ``β_1 = B`` and for ``t ≥ 2`` ``β_t`` of
    Algorithm 2, line 5, ``γ_{t−1}`` replaced by the certified ``γ̄_{t−1}``.  ``"practical"``:
    ``β_t = B + b_t √(ln t)/√λ`` (:func:`~reference.zhou_tan.schedules.tgp_practical_beta`),
    the template of [7]'s code that the practical ATA and MoMA presets use, so that the three
    algorithms can be compared on equal footing; ``δ`` and ``γ̄`` are then not used.  Why a
    practical preset: the theory widths are unusable at experiment scale (``β_1000 ≈ 254`` at
    ϵ = 1 with ``γ = 5``, versus ``B = 1``), and the paper reports no constants ("order-wise
    similar", Sec. 5).  ``beta_scale`` multiplies every ``β_t`` in both presets.
    """
    rng = as_generator(rng)
    check_instance("params", params, LDPParams)
    check_choice("preset", preset, _PRESETS)
    _check_delta(delta)
    scale = check_positive("beta_scale", beta_scale)
    lap = params.lap_scale
    K2 = ldp_reward_second_moment(params.B, params.R, params.eps)
    if preset == "theory":
        gamma = _gamma_before(K, T, lam)

        def trunc(t: int) -> float:
            return tgp_trunc_level(t, params.B, params.R, lap)

        def beta(t: int) -> float:
            if t == 1:
                return scale * params.B
            return scale * ldp_tgp_beta(t, params.B, params.R, lap, lam, delta, gamma(t), K2)

    elif preset == "practical":
        check_int_at_least("T", T, 1)
        lam_ = check_positive("lam", lam)

        def trunc(t: int) -> float:
            return tgp_trunc_level(t, params.B, params.R, lap)

        def beta(t: int) -> float:
            return scale * tgp_practical_beta(t, trunc(t), params.B, lam_)

    else:
        raise ValueError(f"preset must be 'theory' or 'practical', got {preset!r}")
    return TGPUCB(K, lam, trunc, beta, rng)


def make_tgp_ucb_nonprivate(
    K: FloatArray,
    v: float,
    B: float,
    lam: float,
    rng: np.random.Generator | SeedLike,
    alpha: float = 1.0,
    beta_scale: float = 1.0,
    *,
    preset: Preset = "practical",
    delta: float | None = None,
    T: int | None = None,
) -> TGPUCB:
    """Non-private TGP-UCB of [7]: truncation at [7]'s ``b_t = v^{1/(1+α)} t^{1/(2(1+α))}``.

    ``"practical"`` (default): the ``β_t`` of [7]'s code (:func:`ref7_tgp_schedule`), divided by
    ``√λ`` because [7] applies it to ``√(σ²/λ)``; ``ln 1 = 0`` makes ``β_1 = B``.  ``"theory"``:
    the width derived with Thm 3's template
    (:func:`~reference.zhou_tan.schedules.tgp_nonprivate_beta`, certified ``γ̄`` of ``K`` up to
    ``T``, failure probability ``delta``; both required), ``β_1 = B``.  ``beta_scale``
    multiplies every ``β``.
    """
    rng = as_generator(rng)
    check_choice("preset", preset, _PRESETS)
    scale = check_positive("beta_scale", beta_scale)
    ref7_tgp_schedule(1, v, alpha, B, lam)  # checks v, alpha, B and lam now

    def trunc(t: int) -> float:
        return ref7_tgp_schedule(t, v, alpha, B, lam)[0]

    if preset == "practical":
        if delta is not None or T is not None:
            raise ValueError("delta and T are used only by preset='theory'; do not pass them")

        def beta(t: int) -> float:
            return scale * ref7_tgp_schedule(t, v, alpha, B, lam)[1] / math.sqrt(lam)

    else:
        if delta is None or T is None:
            raise ValueError("preset='theory' needs delta and T (the certified γ̄ runs up to T)")
        delta_ = _check_delta(delta)
        gamma = _gamma_before(K, T, lam)

        def beta(t: int) -> float:
            if t == 1:
                return scale * B
            return scale * tgp_nonprivate_beta(t, v, alpha, B, lam, delta_, gamma(t))

    return TGPUCB(K, lam, trunc, beta, rng)


def make_subweibull_tgp_ucb(
    K: FloatArray,
    B: float,
    signal_bound: float,
    tail: tuple[float, float, float],
    K2: float,
    lam: float,
    delta: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    beta_scale: float = 1.0,
) -> TGPUCB:
    """TGP-UCB for sub-Weibull reward noise (Sec. 4.3, remark after Eq. 6: "the truncation trick
    gives Õ(γ_T√T) for sub-Weibull noise with ``b_t = O((ln t)^θ)``").

    ``tail = (a, b, θ)``: ``P(|η| ≥ x) ≤ a exp(−b x^{1/θ})`` for all ``x > 0`` (Eq. 6);
    ``signal_bound ≥ max|f|``; ``K2 ≥ E[y²]``; ``B`` bounds the RKHS norm.  Truncation at
    :func:`~reference.zhou_tan.schedules.subweibull_trunc_level`, width
    :func:`~reference.zhou_tan.schedules.subweibull_tgp_beta` with the certified ``γ̄`` of ``K``
    up to ``T``; ``β_1 = B``.  With Laplace tails ``(1, 1/𝓛, 1)``, ``signal_bound = B + R`` and
    ``K2 = B² + R² + 2𝓛²`` it is LDP-TGP-UCB's theory preset (:func:`make_ldp_tgp_ucb`).
    """
    rng = as_generator(rng)
    if not isinstance(tail, tuple) or len(tail) != 3:
        raise ValueError(f"tail must be a tuple (a, b, theta), got {tail!r}")
    a, b, theta = tail
    _check_delta(delta)
    scale = check_positive("beta_scale", beta_scale)
    subweibull_trunc_level(1, signal_bound, a, b, theta)  # checks the tail now
    subweibull_tgp_beta(2, B, signal_bound, a, b, theta, lam, delta, 0.0, K2)
    gamma = _gamma_before(K, T, lam)

    def trunc(t: int) -> float:
        return subweibull_trunc_level(t, signal_bound, a, b, theta)

    def beta(t: int) -> float:
        if t == 1:
            return scale * B
        return scale * subweibull_tgp_beta(
            t, B, signal_bound, a, b, theta, lam, delta, gamma(t), K2
        )

    return TGPUCB(K, lam, trunc, beta, rng)


# --------------------------------------------------------------------------------------------
# ATA-GP-UCB / LDP-ATA-GP-UCB (Alg. 1)


class ATAGPUCB:
    """Alg. 1: Nyström features each round, feature-adaptive truncation, UCB.

    ``trunc_level(t, m)`` returns ``b_t``; ``beta_next(t, m)`` returns ``β_{t+1}``; ``beta_1`` is
    the first width.  ``per_sample_threshold=False`` (default) truncates every past product with
    the current ``b_t``; ``True`` uses each sample's own ``b_τ`` as printed in Algorithm 1, line 10.
    Cost ``O(t m_t + m_t³)`` per round (the whole history is re-truncated each round).
    """

    def __init__(
        self,
        K: FloatArray,
        lam: float,
        q: float,
        trunc_level: Callable[[int, int], float],
        beta_next: Callable[[int, int], float],
        beta_1: float,
        rng: np.random.Generator | SeedLike,
        dedupe_mode: DedupeMode = "per_index_then_set",
        per_sample_threshold: bool = False,
    ) -> None:
        rng = as_generator(rng)
        self.K = _gram(K)
        self.kdiag = np.diag(self.K).copy()
        self.lam = check_positive("lam", lam)
        self.q = check_positive("q", q)
        self.trunc_level = check_callable("trunc_level", trunc_level)
        self.beta_next = check_callable("beta_next", beta_next)
        self.beta = check_positive("beta_1", beta_1)
        self.dedupe_mode: DedupeMode = check_choice("dedupe_mode", dedupe_mode, _DEDUPE_MODES)
        self.per_sample_threshold = check_bool("per_sample_threshold", per_sample_threshold)
        self._rng_ties, self._rng_nys = rng.spawn(2)
        n = self.K.shape[0]
        self.mean = np.zeros(n)
        self.var = self.kdiag.copy()
        self.arms: list[int] = []
        self.rewards: list[float] = []
        self.levels: list[float] = []
        self.m_hist: list[int] = []
        self.betas: list[float] = []
        self.n_truncated = 0
        self._ny: NystromResult | None = None

    def next_query(self) -> tuple[int, int]:
        self.betas.append(self.beta)
        return ucb_argmax(self.mean, np.sqrt(self.var), self.beta, self._rng_ties), 1

    def observe(self, arm: int, rewards: FloatArray) -> None:
        self.arms.append(_check_arm(arm, self.K.shape[0]))
        self.rewards.append(_single_reward(rewards))
        t = len(self.arms)
        hist = np.asarray(self.arms, dtype=np.int64)
        sig_prev = np.sqrt(self.var[hist])
        ny = nystrom_embedding(
            self.K, hist, sig_prev, self.q, self._rng_nys, self.dedupe_mode, self._ny
        )
        self._ny = ny
        m = ny.m
        b_t = float(self.trunc_level(t, m))
        self.levels.append(b_t)
        self.m_hist.append(m)
        b: float | FloatArray = np.asarray(self.levels) if self.per_sample_threshold else b_t
        Phi = ny.features[:, hist].T
        theta, V, n_trunc = feature_adaptive_truncated_theta(
            Phi, np.asarray(self.rewards), self.lam, b
        )
        self.n_truncated = n_trunc
        self.mean = ny.features.T @ theta if m > 0 else np.zeros_like(self.kdiag)
        # σ̃² of approx_posterior, from the same Ṽ (Alg. 1, line 8) instead of forming it twice
        self.var = _posterior_variance(ny.features, V, self.kdiag, self.lam)
        self.beta = float(self.beta_next(t, m))


def make_ata_gp_ucb(
    K: FloatArray,
    v: float,
    B: float,
    lam: float,
    delta: float,
    eps_nys: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    preset: Preset = "theory",
    alpha: float = 1.0,
    beta_scale: float = 1.0,
    dedupe_mode: DedupeMode = "per_index_then_set",
) -> ATAGPUCB:
    """ATA-GP-UCB with moment bound ``v ≥ E[|r|^{1+α} | ℱ]`` of the rewards it receives.

    ``"theory"``: ``q``, ``b_t``, ``β_{t+1}`` of Thm 2 (general α from [7]).
    ``"practical"``: ``q = ln T/ε²`` and the ``(b_t, β_t)`` of [7]'s code, ``β/√λ``.
    ``β_1 = B(1 + 1/√(1−ε))``.  ``beta_scale`` multiplies every ``β``.
    """
    rng = as_generator(rng)
    check_choice("preset", preset, _PRESETS)
    check_positive("v", v)
    check_in_range("alpha", alpha, 0.0, 1.0, low_open=True, high_open=False)
    check_positive("lam", lam)
    _check_delta(delta)
    check_choice("dedupe_mode", dedupe_mode, _DEDUPE_MODES)
    scale = check_positive("beta_scale", beta_scale)
    beta_1 = scale * first_beta_approx(B, eps_nys)
    if preset == "theory":
        q = nystrom_q(T, delta, eps_nys)

        def trunc(t: int, m: int) -> float:
            return ata_trunc_level(m, T, delta, v, t, alpha)

        def beta_next(t: int, m: int) -> float:
            return scale * ata_beta_next(m, T, delta, v, lam, B, eps_nys, t, alpha)

    elif preset == "practical":
        q = practical_nystrom_q(T, eps_nys)

        def trunc(t: int, m: int) -> float:
            return ref7_ata_schedule(t, m, T, v, alpha, B, lam)[0]

        def beta_next(t: int, m: int) -> float:
            return scale * ref7_ata_schedule(t + 1, m, T, v, alpha, B, lam)[1] / math.sqrt(lam)

    else:
        raise ValueError(f"preset must be 'theory' or 'practical', got {preset!r}")
    return ATAGPUCB(K, lam, q, trunc, beta_next, beta_1, rng, dedupe_mode)


def make_ldp_ata_gp_ucb(
    K: FloatArray,
    params: LDPParams,
    lam: float,
    delta: float,
    eps_nys: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    preset: Preset = "theory",
    beta_scale: float = 1.0,
) -> ATAGPUCB:
    """LDP-ATA-GP-UCB: :func:`make_ata_gp_ucb` with ``α = 1``, ``v = B² + R² + 8(B+R)²/ϵ²`` (Thm 2)."""
    rng = as_generator(rng)
    check_instance("params", params, LDPParams)
    v = ldp_reward_second_moment(params.B, params.R, params.eps)
    return make_ata_gp_ucb(K, v, params.B, lam, delta, eps_nys, T, rng, preset, 1.0, beta_scale)


# --------------------------------------------------------------------------------------------
# MoMA-GP-UCB / LDP-MoMA-GP-UCB (Alg. 3)


class MoMAGPUCB:
    """Alg. 3: epochs of ``k`` plays of one point, Nyström per epoch, median of means.

    ``beta_next(n, m)`` returns ``β_{n+1}``.  After ``N = ⌊T/k⌋`` epochs the ``T − Nk`` leftover
    rounds (unspecified by the paper) play ``argmax μ̃_N + β_{N+1}σ̃_N`` without
    updating.  ``next_query`` returns ``(arm, k)`` during epochs and ``(arm, T − Nk)`` afterwards.
    """

    def __init__(
        self,
        K: FloatArray,
        lam: float,
        q: float,
        k_rep: int,
        T: int,
        beta_next: Callable[[int, int], float],
        beta_1: float,
        rng: np.random.Generator | SeedLike,
        median_kind: MedianKind = "numpy",
        dedupe_mode: DedupeMode = "per_index_then_set",
    ) -> None:
        rng = as_generator(rng)
        self.K = _gram(K)
        self.kdiag = np.diag(self.K).copy()
        self.lam = check_positive("lam", lam)
        self.q = check_positive("q", q)
        self.k_rep = check_int_at_least("k_rep", k_rep, 2)
        self.T = check_int_at_least("T", T, 1)
        self.n_epochs = self.T // self.k_rep
        self.beta_next = check_callable("beta_next", beta_next)
        self.beta = check_positive("beta_1", beta_1)
        self.median_kind: MedianKind = check_choice("median_kind", median_kind, _MEDIAN_KINDS)
        self.dedupe_mode: DedupeMode = check_choice("dedupe_mode", dedupe_mode, _DEDUPE_MODES)
        self._rng_ties, self._rng_nys = rng.spawn(2)
        n = self.K.shape[0]
        self.mean = np.zeros(n)
        self.var = self.kdiag.copy()
        self.arms: list[int] = []
        self.Y: list[FloatArray] = []
        self.m_hist: list[int] = []
        self.k_star_hist: list[int] = []
        self.betas: list[float] = []
        self.leftover_played = 0

    def next_query(self) -> tuple[int, int]:
        arm = ucb_argmax(self.mean, np.sqrt(self.var), self.beta, self._rng_ties)
        if len(self.arms) < self.n_epochs:
            self.betas.append(self.beta)
            return arm, self.k_rep
        return arm, max(self.T - self.n_epochs * self.k_rep - self.leftover_played, 1)

    def observe(self, arm: int, rewards: FloatArray) -> None:
        r = check_array("rewards", rewards, ndim=1)
        if len(self.arms) >= self.n_epochs:
            self.leftover_played += int(r.size)  # leftover rounds: no update
            return
        if r.size != self.k_rep:
            raise ValueError(f"an epoch needs exactly k_rep={self.k_rep} rewards, got {r.size}")
        self.arms.append(_check_arm(arm, self.K.shape[0]))
        self.Y.append(r.copy())
        n = len(self.arms)
        hist = np.asarray(self.arms, dtype=np.int64)
        ny = nystrom_embedding(
            self.K, hist, np.sqrt(self.var[hist]), self.q, self._rng_nys, self.dedupe_mode
        )
        m = ny.m
        self.m_hist.append(m)
        if m == 0:
            self.mean = np.zeros_like(self.kdiag)
            self.var = self.kdiag.copy()
            self.k_star_hist.append(0)
        else:
            Phi = ny.features[:, hist].T
            thetas, V = ridge_thetas(Phi, np.vstack(self.Y), self.lam)
            k_star, _ = median_of_means_select(thetas, V, self.median_kind)
            self.k_star_hist.append(k_star)
            self.mean = ny.features.T @ thetas[:, k_star]
            _, self.var = approx_posterior(ny.features, hist, self.kdiag, self.lam)
        self.beta = float(self.beta_next(n, m))


def make_moma_gp_ucb(
    K: FloatArray,
    c: float,
    B: float,
    lam: float,
    delta: float,
    eps_nys: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    preset: Preset = "theory",
    alpha: float = 1.0,
    beta_scale: float = 1.0,
    k_rep_const: float = 24.0,
    median_kind: MedianKind = "numpy",
) -> MoMAGPUCB:
    """MoMA-GP-UCB with noise moment bound ``c ≥ E[|η|^{1+α} | ℱ]`` (Thm 4).

    ``"theory"``: ``q = 6ρ ln(4T/δ)/ε²``, ``k = ⌈k_rep_const · ln(4eT/δ)⌉`` (paper: 24; 72 makes
    Lemma 11 correct), ``β_{n+1} = B(1+1/√(1−ε)) + 3γ/√λ``.  ``"practical"``: ``q = ln T/ε²``,
    ``k = ⌈ln(4eT/δ)⌉``, same ``β``.  ``beta_scale`` multiplies every ``β``.
    """
    rng = as_generator(rng)
    check_choice("preset", preset, _PRESETS)
    _check_delta(delta)
    check_positive("k_rep_const", k_rep_const)
    check_choice("median_kind", median_kind, _MEDIAN_KINDS)
    moma_beta_next(1, 0, c, B, eps_nys, lam, alpha)  # checks c, B, eps_nys, lam and alpha now
    scale = check_positive("beta_scale", beta_scale)
    if preset == "theory":
        q = nystrom_q(T, delta, eps_nys)
        k_rep = moma_k_rep(T, delta, const=k_rep_const)
    elif preset == "practical":
        q = practical_nystrom_q(T, eps_nys)
        k_rep = practical_k_rep(T, delta)
    else:
        raise ValueError(f"preset must be 'theory' or 'practical', got {preset!r}")

    def beta_next(n: int, m: int) -> float:
        return scale * moma_beta_next(n, m, c, B, eps_nys, lam, alpha)

    beta_1 = scale * first_beta_approx(B, eps_nys)
    return MoMAGPUCB(K, lam, q, k_rep, T, beta_next, beta_1, rng, median_kind)


def make_ldp_moma_gp_ucb(
    K: FloatArray,
    params: LDPParams,
    lam: float,
    delta: float,
    eps_nys: float,
    T: int,
    rng: np.random.Generator | SeedLike,
    preset: Preset = "theory",
    beta_scale: float = 1.0,
    k_rep_const: float = 24.0,
) -> MoMAGPUCB:
    """LDP-MoMA-GP-UCB (Cor. 1): ``α = 1``, ``c = R² + 8(B+R)²/ϵ²``."""
    rng = as_generator(rng)
    check_instance("params", params, LDPParams)
    c = ldp_noise_second_moment(params.B, params.R, params.eps)
    return make_moma_gp_ucb(
        K, c, params.B, lam, delta, eps_nys, T, rng, preset, 1.0, beta_scale, k_rep_const
    )
