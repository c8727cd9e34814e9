"""Agarwal & Singh (ICML 2017) audit cases, part 2: the bandit reduction (Algorithm 4, Lemma 4.2),
around a canary inner learner and around the real EXP2 learner (Algorithm 5), actions, black box,
with the broken variant that reuses its noise.  Overview in :mod:`audit.papers.agarwal_singh.battery`.

Proof note: ``proofs_notes/audit/agarwal_singh.md``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from audit.papers.agarwal_singh.cases import (
    DELTA_STAR,
    AgarwalSinghAuditConfig,
    AgarwalSinghCase,
    LaplaceVariant,
    Sampler,
    _config,
    _laplace_cases,
    _neighbour_samplers,
)
from audit.protocols import PrivacyClaim
from reference._typing import FloatArray
from reference.accounting import laplace_epsilon
from reference.agarwal_singh.bandits import BanditLearner, EXP2Exploration, PrivateBanditReduction
from reference.agarwal_singh.theorems import lemma42_laplace_scale
from reference.noise import LaplaceNoise
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_bool,
    check_finite,
    check_int_at_least,
    check_nonempty,
)

__all__ = [
    "CanaryLearner",
    "DenseCanaryLearner",
    "ReusedNoiseReduction",
    "dense_canary_cases",
    "exp2_reduction_arms",
    "exp2_reduction_cases",
    "reduction_canary_cases",
]


# --------------------------------------------------------------------------------------------
# The bandit reduction (Algorithm 4) with a canary inner learner
# --------------------------------------------------------------------------------------------


class _FeedbackBits:
    """The canaries' schedule: round ``t₀ + 2`` publishes ``1{y_{t₀} > c}``, round ``t₀ + 3``
    publishes ``1{y_{t₀} > y_{t₀+1}}``; every other round publishes 1 (the default action)."""

    def __init__(self, t0: int, threshold: float) -> None:
        self.t0 = check_int_at_least("t0", t0, 1)
        self.threshold = check_finite("threshold", threshold)
        self._round = 0
        self._feedback: dict[int, float] = {}

    def next_round(self) -> bool:
        """Advance one round; whether this round plays the default action."""
        self._round += 1
        if self._round == self.t0 + 2:
            return self._feedback[self.t0] > self.threshold
        if self._round == self.t0 + 3:
            return self._feedback[self.t0] > self._feedback[self.t0 + 1]
        return True

    def record(self, feedback: float) -> None:
        self._feedback[self._round] = check_finite("feedback", feedback)


class CanaryLearner:
    """A (non-private) inner bandit learner that writes its feedback into its later actions.

    Lemma 4.2 holds for *every* inner learner, so the reduction around this one must be
    ``Δ_B/λ``-DP.  Rounds ``1..t₀+1``: arm 0.  Round ``t₀ + 2``: arm 0 iff ``y_{t₀} > c``.
    Round ``t₀ + 3``: arm 0 iff ``y_{t₀} > y_{t₀+1}``.  Then arm 0.  With ``l_{t₀}(0) = ±1`` and
    ``c = 1`` the first bit has ``P = 1/2`` vs ``e^{−2/λ}/2`` (ratio exactly ``e^{Δ_B/λ}``); the
    second bit is deterministic when the reduction reuses its noise (``y_{t₀} − y_{t₀+1} = ±1``).
    """

    def __init__(self, N: int, t0: int, threshold: float) -> None:
        self.N = check_int_at_least("N", N, 2)
        self._bits = _FeedbackBits(t0, threshold)

    @property
    def dim(self) -> int:
        return self.N

    def act(self) -> FloatArray:
        action = np.zeros(self.N)
        action[0 if self._bits.next_round() else 1] = 1.0
        return action

    def update(self, feedback: float) -> None:
        self._bits.record(feedback)

    def sampling_distribution(self) -> FloatArray | None:
        return None


class ReusedNoiseReduction(PrivateBanditReduction):
    """Broken Algorithm 4: the first ``Z`` is reused in every round instead of a fresh draw."""

    def __init__(
        self, inner: BanditLearner, noise: LaplaceNoise, rng: np.random.Generator | SeedLike
    ) -> None:
        rng = as_generator(rng)
        super().__init__(inner, noise, rng)
        self._Z: FloatArray = noise.sample(rng)

    def update(self, feedback: float) -> None:
        if self._action is None:
            raise RuntimeError("update() needs a pending action: call act() first")
        forwarded = check_finite("feedback", feedback) + float(self._Z @ self._action)
        self._action = None
        self.inner.update(forwarded)


def _reduction_arms(
    losses: FloatArray,
    scale: float,
    reuse: bool,
    inner: Callable[[int], BanditLearner],
    rng: np.random.Generator | SeedLike,
    size: int,
    view: Callable[[FloatArray], float] | None = None,
) -> FloatArray:
    """``size`` runs of Algorithm 4 (``Lap^N(scale)`` noise; ``reuse``: :class:`ReusedNoiseReduction`,
    one ``Z`` for every round) around a fresh ``inner(N)`` learner per run: ``view`` of each
    played action (default: the arm, ``argmax``), shape ``(size, T)``."""
    rng = as_generator(rng)
    losses = check_nonempty("losses", check_array("losses", losses, ndim=2), what="round")
    reuse = check_bool("reuse", reuse)
    size = check_int_at_least("size", size, 1)
    T, N = losses.shape
    out = np.empty((size, T))
    noise = LaplaceNoise((N,), scale)
    for r in range(size):
        learner = inner(N)
        reduction = (
            ReusedNoiseReduction(learner, noise, rng)
            if reuse
            else PrivateBanditReduction(learner, noise, rng)
        )
        for t in range(T):
            action = reduction.act()
            out[r, t] = float(np.argmax(action)) if view is None else view(action)
            reduction.update(float(losses[t] @ action))
    return out


def _canary_arms(
    losses: FloatArray, scale: float, reuse: bool, rng: np.random.Generator, size: int
) -> FloatArray:
    """``size`` runs of Algorithm 4 around :class:`CanaryLearner`: played arms, ``(size, T)``."""
    return _reduction_arms(losses, scale, reuse, lambda N: CanaryLearner(N, 1, 1.0), rng, size)


_ReductionArms = Callable[[FloatArray, float, bool, np.random.Generator, int], FloatArray]
"""``arms(losses, scale, reuse, rng, size)``: released arms of Algorithm 4 around some learner."""


def _reduction_cases(
    config: AgarwalSinghAuditConfig,
    losses: FloatArray,
    variants: list[LaplaceVariant],
    arms: _ReductionArms,
    learner_label: str,
    losses_prime: FloatArray | None = None,
    delta_b: float = 2.0,
) -> list[AgarwalSinghCase]:
    """Black-box cases of Algorithm 4 on the neighbours ``losses`` vs ``losses_prime`` (default:
    ``losses`` with ``l_1(0)`` negated, MAB losses in ``[−1, 1]``, ``Δ_B = 2``), one per
    ``(name, description, role, λ, reuse)``; the case's pure ε is ``Δ_B/λ``; claims: printed pure
    ``ε`` (Lemma 4.2) and the exact one Laplace mechanism with ``ε₀ = Δ_B/λ_strict = ε`` at
    ``δ*``."""
    eps = config.epsilon
    if losses_prime is None:
        losses_prime = losses.copy()
        losses_prime[0, 0] = -losses[0, 0]
    exact = PrivacyClaim(
        laplace_epsilon(DELTA_STAR, epsilon_0=eps),
        DELTA_STAR,
        "replace_one",
        f"exact at δ={DELTA_STAR:g}",
    )

    def samplers(scale: float, reuse: bool) -> tuple[Sampler, Sampler]:
        def draw(data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
            return arms(data, scale, reuse, rng, size)

        return _neighbour_samplers(draw, losses, losses_prime)

    return _laplace_cases(
        config,
        variants,
        sensitivity=delta_b,
        exact=exact,
        prefix=f"bandit reduction (Alg. 4) + {learner_label}, ",
        samplers=samplers,
    )


def reduction_canary_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of Algorithm 4 around :class:`CanaryLearner`; MAB, ``N = 2``,
    losses in ``[−1, 1]`` (``B = ‖Y‖_∞ = 1``, ``Δ_B = 2``); ``l_1(0) = ±1``.

    Strict ``λ = Δ_B/ε``; paper ``λ = B/ε`` (``ε_eff = 2ε``).  The exact guarantee of the correct
    reduction is one Laplace mechanism with ``ε₀ = Δ_B/λ = ε`` (Lemma 4.2).  Plus the paper's
    ``λ`` on losses in ``[0, 1]`` (``l_1(0) = 1`` vs ``0``, ``Δ_B = B = 1``), where it is correct
    and tight (``reduction_paper_01``)."""
    _config(config)
    eps = config.epsilon
    strict = lemma42_laplace_scale(eps, 1.0, 2.0, "strict")
    paper = lemma42_laplace_scale(eps, 1.0, 2.0, "paper")
    losses = np.zeros((4, 2))
    losses[0, 0] = 1.0
    variants: list[LaplaceVariant] = [
        ("reduction_strict", f"λ = Δ_B/ε = {strict:.4g}", "correct", strict, False),
        ("reduction_paper", f"paper λ = B/ε = {paper:.4g}", "paper", paper, False),
        ("reduction_noise_x0.5", "noise too small: λ/2", "broken", strict / 2.0, False),
        ("reduction_noise_reused", "Z drawn once and reused", "broken", strict, True),
    ]
    cases = _reduction_cases(config, losses, variants, _canary_arms, "canary, MAB [−1,1] losses")
    # Losses in [0, 1] (Theorem 4.1's range): Δ_B = B = 1, so the paper's λ = B/ε is exact here;
    # l_1(0) = 1 vs 0 makes the canary's first bit 1/2 vs e^{−ε}/2 (tight at ε).
    paper01 = lemma42_laplace_scale(eps, 1.0, 1.0, "paper")
    variants01: list[LaplaceVariant] = [
        ("reduction_paper_01", f"[0,1] losses, paper λ = B/ε = {paper01:.4g}", "correct",
         paper01, False),
    ]  # fmt: skip
    prime01 = losses.copy()
    prime01[0, 0] = 0.0
    cases += _reduction_cases(
        config, losses, variants01, _canary_arms, "canary, MAB [0,1] losses", prime01, 1.0
    )
    return cases


# --------------------------------------------------------------------------------------------
# Lemma 4.2 for a general decision set: a dense canary on the cube
# --------------------------------------------------------------------------------------------


class DenseCanaryLearner:
    """A (non-private) BLO inner learner on a symmetric set ``X`` that plays ``x`` or ``−x``.

    Like :class:`CanaryLearner` but with a point ``x`` that need not be a vertex of the simplex:
    rounds ``1..t₀+1`` play ``x``; round ``t₀ + 2`` plays ``x`` iff ``y_{t₀} > c``; round ``t₀ + 3``
    plays ``x`` iff ``y_{t₀} > y_{t₀+1}``; then ``x``.  With ``x = (1, …, 1)`` on the cube the
    forwarded scalar carries ``<Z, x> = Σ_i Z_i`` (Algorithm 4's noise on a dense action) and
    ``|<l, x>| = ‖l‖₁‖x‖_∞`` (the Hölder step of Lemma 4.2 for general ``X`` is tight).
    """

    def __init__(self, x: FloatArray, t0: int, threshold: float) -> None:
        self.x = check_nonempty("x", check_array("x", x, ndim=1), what="coordinate")
        self._bits = _FeedbackBits(t0, threshold)

    @property
    def dim(self) -> int:
        return int(self.x.size)

    def act(self) -> FloatArray:
        sign = 1.0 if self._bits.next_round() else -1.0
        return np.asarray(sign * self.x, dtype=np.float64)

    def update(self, feedback: float) -> None:
        self._bits.record(feedback)

    def sampling_distribution(self) -> FloatArray | None:
        return None


def dense_canary_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of Algorithm 4 around :class:`DenseCanaryLearner` on the cube
    ``[−1, 1]²`` (BLO, Thm 4.5's setting) with ``x = (1, 1)`` and ``Y`` the unit ℓ₁ ball
    (``B = ‖Y‖₁ = 1``, ``Δ_B = 2‖Y‖₁ = 2``); neighbours ``l_1 = ±(1/2, 1/2)``, so the
    forwarded scalar is ``±1 + Z_1 + Z_2``.  The view is the sign of ``<x̃_t, x>`` per round.

    Strict ``λ = Δ_B/ε`` is ε-DP (the vector ``l + Z`` is a Laplace mechanism of ℓ₁ sensitivity
    ``Δ_B``, and the scalar is its post-processing); the paper's ``λ = ‖Y‖₁/ε`` gives pure
    ``2ε``; its threshold event at ``c = 1`` has ratio ``(1/2)/P(Z_1 + Z_2 > 2)``, which at ``ε = 1``
    is ``e^{1.31}`` (``P = e^{−2}``), so the black box can see it."""
    _config(config)
    eps = config.epsilon
    strict = lemma42_laplace_scale(eps, 1.0, 2.0, "strict")
    paper = lemma42_laplace_scale(eps, 1.0, 2.0, "paper")
    x = np.ones(2)
    losses = np.zeros((4, 2))
    losses[0] = 0.5
    losses_prime = losses.copy()
    losses_prime[0] = -0.5

    def view(action: FloatArray) -> float:
        return float(action @ x > 0.0)

    def arms(
        ls: FloatArray, scale: float, reuse: bool, rng: np.random.Generator, size: int
    ) -> FloatArray:
        return _reduction_arms(
            ls, scale, reuse, lambda N: DenseCanaryLearner(x, 1, 1.0), rng, size, view
        )

    variants: list[LaplaceVariant] = [
        ("reduction_cube_strict", f"λ = Δ_B/ε = {strict:.4g}", "correct", strict, False),
        ("reduction_cube_paper", f"paper λ = ‖Y‖₁/ε = {paper:.4g}", "paper", paper, False),
        ("reduction_cube_noise_reused", "Z drawn once and reused", "broken", strict, True),
    ]
    return _reduction_cases(
        config, losses, variants, arms, "dense canary, cube [−1,1]², unit ℓ₁ losses",
        losses_prime, 2.0,
    )  # fmt: skip


# --------------------------------------------------------------------------------------------
# The bandit reduction (Algorithm 4) around the real EXP2 learner (Algorithm 5), black box
# --------------------------------------------------------------------------------------------


def exp2_reduction_arms(
    losses: FloatArray,
    scale: float,
    reuse: bool,
    eta: float,
    gamma: float,
    rng: np.random.Generator | SeedLike,
    size: int,
) -> FloatArray:
    """``size`` runs of Algorithm 4 around :class:`~reference.agarwal_singh.bandits.EXP2Exploration`
    (Alg. 5, uniform exploration ``μ``) with ``Lap^N(scale)`` noise: the released arms, shape
    ``(size, T)``.  ``reuse``: :class:`ReusedNoiseReduction` (one ``Z`` for every round).  The
    learner's coins and the reduction's noise share ``rng`` (both data-independent)."""
    rng = as_generator(rng)
    return _reduction_arms(
        losses, scale, reuse, lambda N: EXP2Exploration(N, eta, gamma, rng), rng, size
    )


def exp2_reduction_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of Algorithm 4 around the *real* inner learner of Thm 4.1, EXP2 with
    uniform exploration (Alg. 5); MAB, ``N = 2``, losses in ``[−1, 1]`` (``B = 1``, ``Δ_B = 2``),
    ``T = 3``; neighbours ``l_1(0) = +1`` vs ``−1``; ``l_2(0) = 1``, every other loss 0.

    ``η = config.exp2_eta`` (20) and ``γ = config.exp2_gamma`` (0.01) make EXP2 nearly greedy:
    after round 1 it keeps arm ``i_1`` iff the forwarded ``y_1 = l_1(i_1) + Z_1(i_1)`` is below 0,
    so the released arms carry ``1{y_1 > 0}`` (and, through round 3, more of ``y_1``).  Lemma 4.2
    is claimed for every inner learner, hence for Alg. 5 at every ``(η, γ)``; Thm 4.1's own
    ``(η, γ)`` at ``T = 3`` (``η ≈ 0.06``) leave almost no trace of ``y_1`` in the actions.

    Claims: printed pure ``ε`` (Lemma 4.2) and the canary cases' exact claim
    ``laplace_epsilon(δ*, epsilon_0=Δ_B/λ_strict = ε)``.  That claim is valid for the real learner: the
    released arms are a randomised function (EXP2's coins) of the forwarded scalars, and given the
    common history only ``y_{t₀}`` has a data-dependent law, a Laplace mechanism with shift
    ``|l_{t₀}(i) − l'_{t₀}(i)| ≤ Δ_B``; so the transcript's privacy profile is dominated by that
    of one ``Δ_B/λ`` Laplace mechanism and the actions are post-processing of the transcript.
    Strict ``λ = Δ_B/ε``; paper ``λ = B/ε`` (``ε_eff = 2ε``; ``λ/2`` of the strict scale is the
    same mechanism, so it is not a separate case); broken: ``Z`` drawn once and reused
    (:class:`ReusedNoiseReduction`).  With one ``Z`` and arm 0 played twice, EXP2 (nearly
    greedy) keeps arm 0 in round 2 iff ``Z(0) < −l_1(0)`` and leaves it in round 3 iff
    ``Z(0) > −(2l_1(0) + l_2(0)/p_2(0))/(2 + 1/p_2(0))``: the arm sequence ``(0, 0, 1)`` needs
    ``l_1(0) < l_2(0)``, so under ``l_1(0) = +1`` it occurs only through exploration or the
    soft-max's slack, under ``−1`` with probability ``≈ (e^{−1/6} − e^{−1/2})/4 ≈ 0.06``."""
    _config(config)
    eps, eta, gamma = config.epsilon, config.exp2_eta, config.exp2_gamma
    strict = lemma42_laplace_scale(eps, 1.0, 2.0, "strict")
    paper = lemma42_laplace_scale(eps, 1.0, 2.0, "paper")
    T = 3
    losses = np.zeros((T, 2))
    losses[0, 0] = 1.0
    losses[1, 0] = 1.0
    variants: list[LaplaceVariant] = [
        ("reduction_exp2_strict", f"λ = Δ_B/ε = {strict:.4g}", "correct", strict, False),
        ("reduction_exp2_paper", f"paper λ = B/ε = {paper:.4g}", "paper", paper, False),
        ("reduction_exp2_noise_reused", "Z drawn once and reused", "broken", strict, True),
    ]

    def arms(
        losses: FloatArray, scale: float, reuse: bool, rng: np.random.Generator, size: int
    ) -> FloatArray:
        return exp2_reduction_arms(losses, scale, reuse, eta, gamma, rng, size)

    label = f"EXP2 (Alg. 5, η = {eta:g}, γ = {gamma:g}), MAB [−1,1] losses, T = {T}"
    return _reduction_cases(config, losses, variants, arms, label)
