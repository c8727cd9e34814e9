"""The local randomiser CTL(ϵ) ("Convert-to-Laplace", Curator 1) of Zhou & Tan, and its privacy.

* Curator 1 (Sec. 4.1): ``ȳ_t = y_t + L``, ``L ~ Laplace(𝓛)``, ``𝓛 = 2(B+R)/ϵ``.
* Lemma 1 (proof App. B): CTL(ϵ) is ϵ-LDP because ``|y_t| ≤ B + R``.
* §4.5 (unbounded sub-Weibull noise, ``R = K₁ ln(T/δ)^θ``): the paper's ``(ϵ, δ)``-LDP claim is
  not a worst-case guarantee; clipping to ``[−(B+R), B+R]`` (``clip=True``, the default) makes the
  mechanism pure ϵ-LDP for every real input; ``clip=False`` is the paper's unclipped form.
Not hardened: ``numpy``'s textbook Laplace sampler leaks through low-order bits (Mironov 2012).

Proof note: ``proofs_notes/zhou_tan/ctl_lemma1.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from reference._typing import FloatArray
from reference.noise import LaplaceNoise
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_bool,
    check_delta,
    check_epsilon,
    check_finite,
    check_instance,
    check_int_at_least,
    check_positive,
)

__all__ = [
    "ConvertToLaplace",
    "LDPParams",
    "clip_reward",
    "ctl_privatize",
    "laplace_privacy_loss",
    "laplace_scale",
    "laplace_tail_probability",
    "ldp_noise_second_moment",
    "ldp_reward_second_moment",
    "max_privacy_loss",
    "paper_unbounded_noise_claim",
    "subweibull_noise_bound",
]


def laplace_scale(B: float, R: float, eps: float) -> float:
    """``𝓛 = 2(B + R)/ϵ`` (Curator 1, Sec. 4.1).  ``2(B+R)`` is the width of the reward range."""
    B_ = check_positive("B", B)
    R_ = check_finite("R", R)
    if R_ < 0:
        raise ValueError(f"R must be in [0, inf), got {R!r}")
    return 2.0 * (B_ + R_) / check_epsilon(eps, "eps")


@dataclass(frozen=True)
class LDPParams:
    """Public, data-independent parameters of CTL(ϵ): ``B`` (‖f‖ bound), ``R`` (noise bound), ``ϵ``."""

    eps: float
    B: float
    R: float
    clip: bool = True

    def __post_init__(self) -> None:
        laplace_scale(self.B, self.R, self.eps)  # validates all three
        check_bool("clip", self.clip)

    @property
    def lap_scale(self) -> float:
        """``𝓛 = 2(B+R)/ϵ``."""
        return laplace_scale(self.B, self.R, self.eps)

    @property
    def reward_bound(self) -> float:
        """``B + R``: ``|y_t| ≤ B + R`` under the paper's assumptions (App. B)."""
        return self.B + self.R


def clip_reward(y: FloatArray, B: float, R: float) -> FloatArray:
    """``min(max(y, −(B+R)), B+R)``: a no-op when ``|y| ≤ B+R`` (the paper's assumption, Sec. 2).

    Not in the paper; added so that the ϵ-LDP guarantee holds for every real input.
    """
    bound = laplace_scale(B, R, 1.0) / 2.0
    arr = check_array("y", y)
    return np.asarray(np.clip(arr, -bound, bound), dtype=np.float64)


def ctl_privatize(
    y: FloatArray, params: LDPParams, rng: np.random.Generator | SeedLike
) -> FloatArray:
    """CTL(ϵ) applied independently to each entry of ``y`` (one user-reward per entry).

    ``ȳ = clip(y) + L`` with ``L ~ Laplace(0, 𝓛)`` drawn by :class:`reference.noise.LaplaceNoise`.
    With ``params.clip = False`` this is the paper's Curator 1 verbatim (ϵ-LDP only if every input
    already lies in ``[−(B+R), B+R]``).
    """
    rng = as_generator(rng)
    check_instance("params", params, LDPParams)
    arr = check_array("y", y)
    x = clip_reward(arr, params.B, params.R) if params.clip else arr
    if x.size == 0:
        return x.copy()
    noise = LaplaceNoise(x.shape if x.ndim else (1,), params.lap_scale).sample(rng)
    return np.asarray(x + noise.reshape(x.shape), dtype=np.float64)


class ConvertToLaplace:
    """Stateful wrapper of :func:`ctl_privatize` that counts calls (one call per user-reward).

    The count is the composition bookkeeping of local DP: in MoMA each of the ``k`` plays of an
    epoch is a separate user, so the total must equal ``T``.
    """

    def __init__(self, params: LDPParams, rng: np.random.Generator | SeedLike) -> None:
        rng = as_generator(rng)
        self.params = check_instance("params", params, LDPParams)
        self._rng = rng
        self.n_calls = 0

    def __call__(self, y: FloatArray) -> FloatArray:
        out = ctl_privatize(y, self.params, self._rng)
        self.n_calls += int(np.asarray(y).size)
        return out


# --------------------------------------------------------------------------------------------
# Privacy loss of the Laplace mechanism (Lemma 1 and App. B)


def laplace_privacy_loss(z: FloatArray, y: float, y_prime: float, lap_scale: float) -> FloatArray:
    """Privacy loss ``ℓ(z) = ln(p_y(z)/p_{y'}(z)) = (|z − y'| − |z − y|)/𝓛`` of output ``z``."""
    b = check_positive("lap_scale", lap_scale)
    zz = check_array("z", z)
    y_ = check_finite("y", y)
    yp = check_finite("y_prime", y_prime)
    return np.asarray((np.abs(zz - yp) - np.abs(zz - y_)) / b, dtype=np.float64)


def max_privacy_loss(y: float, y_prime: float, params: LDPParams) -> float:
    """``sup_z ℓ(z) = |c(y) − c(y')|/𝓛`` with ``c`` the clipping map (identity if ``clip=False``).

    With clipping this is at most ``2(B+R)/𝓛 = ϵ`` for every pair of real inputs (Lemma 1 made
    unconditional); without clipping it is ``|y − y'|/𝓛``, unbounded over ``ℝ``.
    """
    y_ = check_finite("y", y)
    yp = check_finite("y_prime", y_prime)
    check_instance("params", params, LDPParams)
    if params.clip:
        bound = params.reward_bound
        y_ = min(max(y_, -bound), bound)
        yp = min(max(yp, -bound), bound)
    return abs(y_ - yp) / params.lap_scale


def laplace_tail_probability(threshold: float, lap_scale: float) -> float:
    """``P(|L| > x) = exp(−x/𝓛)`` for ``L ~ Laplace(𝓛)``; at ``x = 𝓛 ln τ`` this is ``1/τ`` (Sec. 4.3)."""
    x = check_finite("threshold", threshold)
    if x < 0:
        raise ValueError(f"threshold must be in [0, inf), got {threshold!r}")
    return math.exp(-x / check_positive("lap_scale", lap_scale))


def ldp_reward_second_moment(B: float, R: float, eps: float) -> float:
    """``v = B² + R² + 8(B+R)²/ϵ²`` (Thm 2) = ``K = B² + R² + 2𝓛²`` (Alg. 2).

    A bound on ``E[ȳ_t² | ℱ_{t−1}]``: ``E[ȳ²] = f² + E[η²] + 2𝓛² ≤ B² + R² + 2𝓛²`` (App. C;
    the cross terms vanish because ``E[η | ℱ] = 0`` and ``L`` is independent with mean 0).
    """
    lap = laplace_scale(B, R, eps)
    return B * B + R * R + 2.0 * lap * lap


def ldp_noise_second_moment(B: float, R: float, eps: float) -> float:
    """``c = R² + 8(B+R)²/ϵ²`` (Cor. 1): bound on ``E[(η + L)²]``, i.e. ``α = 1``."""
    lap = laplace_scale(B, R, eps)
    return R * R + 2.0 * lap * lap


# --------------------------------------------------------------------------------------------
# §4.5: unbounded (sub-Weibull) noise


def subweibull_noise_bound(a: float, b: float, theta: float, T: int, delta: float) -> float:
    """``R = (ln(aT/δ)/b)^θ``: ``P(∃t ≤ T: |η_t| > R) ≤ δ`` for i.i.d. ``η`` with tail Eq. (6).

    Eq. (6): ``P(|X| ≥ x) ≤ a exp(−b x^{1/θ})``.  A union bound over ``T`` rounds gives
    ``T a exp(−b R^{1/θ}) = δ``.  This is the explicit form of the paper's ``K₁ ln(T/δ)^θ``
    (Sec. 4.5) [derived]; it requires ``aT/δ > 1``.
    """
    a_ = check_positive("a", a)
    b_ = check_positive("b", b)
    th = check_positive("theta", theta)
    T_ = check_int_at_least("T", T, 1)
    d_ = check_delta(delta, "delta")
    arg = a_ * T_ / d_
    if arg <= 1.0:
        raise ValueError(f"a*T/delta must be in (1, inf), got {arg!r}")
    return float((math.log(arg) / b_) ** th)


def paper_unbounded_noise_claim(eps: float, delta: float) -> tuple[float, float]:
    """The ``(ϵ, δ)`` that §4.5 *claims* for CTL(ϵ) with ``R = K₁ ln(T/δ)^θ`` and no clipping.

    Returned as the paper states it, for documentation.  It does **not** hold as an LDP guarantee:
    Definition 1 quantifies over *all* input pairs, and for inputs ``y, y'`` with
    ``|y − y'| = Δ`` the exact ``δ`` is :func:`reference.accounting.laplace.laplace_delta`
    ``(ϵ, epsilon_0=Δ/𝓛)``, which tends to 1.  The failure event ``{∃t: |η_t| > R}`` of
    probability ``≤ δ`` is a statement about the data distribution, not about neighbouring inputs.
    Clipping (``LDPParams.clip = True``) makes the mechanism pure ϵ-LDP; the probability-``δ``
    event then only biases the clipped rewards.
    """
    return check_epsilon(eps, "eps"), check_delta(delta, "delta")
