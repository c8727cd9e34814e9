"""Environments of Shariff & Sheffet App. D (experiments D.1-D.3).

Common setting (App. D): ``θ*`` is a uniformly random unit vector; every round a fresh decision set
of ``K`` unit-norm actions: one optimal action drawn uniformly from
``{x : ‖x‖ = 1, ⟨x, θ*⟩ = 0.75}`` and ``K − 1`` sub-optimal actions drawn independently and
uniformly from ``{x : ‖x‖ = 1, ⟨x, θ*⟩ ∈ [−0.75, 0.75 − Δ]}`` (gap ``Δ = 0.1``, or ``Δ = 0`` for
"no structured gap").  Rewards are ``±1`` with mean ``⟨x, θ*⟩`` (D.1 also uses ``mean + N(0, 1)``).

Exact sampler (spec §5.1): with an orthogonal ``Q`` mapping ``e_1`` to ``θ*``, an action is
``x = Q (h, √(1 − h²) w)`` with head ``h = ⟨x, θ*⟩`` and ``w`` uniform on the unit sphere of
``R^{d−1}``.  For ``x`` uniform on the sphere, ``(1 + h)/2 ~ Beta((d−1)/2, (d−1)/2)``, so a head
drawn from that Beta law truncated to the band, combined with an independent uniform ``w``, is
exactly uniform on the band.

Rewards are realised as a *reward table* over all ``K`` arms before the action is chosen
(one common uniform ``u_t`` for ``±1`` rewards), so that an input stream is well defined for the
privacy definitions (t-neighbours) and independent of the policy's randomness.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
from scipy import stats

from reference._typing import FloatArray
from reference.validation import check_array, check_finite, check_in_range, check_int_at_least

__all__ = [
    "DecisionRound",
    "LinearGapEnvironment",
    "RewardModel",
    "gaussian_reward_table",
    "rademacher_reward_table",
    "rotation_to",
    "sample_band_heads",
    "sample_gap_arms",
    "sample_unit_vector",
]

RewardModel: TypeAlias = Literal["rademacher", "gaussian"]

OPTIMAL_MEAN = 0.75
"""Mean reward of the optimal action in App. D."""

LOWEST_MEAN = -0.75
"""Lower end of the band of sub-optimal means in App. D."""


def sample_unit_vector(rng: np.random.Generator, d: int) -> FloatArray:
    """A uniformly random unit vector of ``R^d`` (``g/‖g‖``, ``g ~ N(0, I_d)``): ``θ*`` in App. D."""
    d = check_int_at_least("d", d, 1)
    g = rng.standard_normal(d)
    while float(np.linalg.norm(g)) == 0.0:  # pragma: no cover - probability zero
        g = rng.standard_normal(d)
    return g / np.linalg.norm(g)


def rotation_to(theta: FloatArray) -> FloatArray:
    """An orthogonal ``Q`` (``d×d``) whose first column is ``θ/‖θ‖``, i.e. ``Q e_1 = θ/‖θ‖``.

    Householder QR of ``θ`` as a ``d×1`` matrix, with the sign fixed so that ``Q e_1`` points along
    ``θ`` (not against it).
    """
    v = check_array("theta", theta, ndim=1)
    largest = float(np.max(np.abs(v))) if v.size else 0.0
    if largest == 0.0:
        raise ValueError("theta must be a non-zero vector")
    v = v / largest  # rescale first so that tiny vectors do not underflow in the QR
    q, r = np.linalg.qr(v.reshape(-1, 1), mode="complete")
    return np.asarray(q * (1.0 if r[0, 0] > 0 else -1.0), dtype=np.float64)


def sample_band_heads(
    rng: np.random.Generator, d: int, size: int, low: float, high: float
) -> FloatArray:
    """``size`` heads ``h = ⟨x, θ*⟩`` of points uniform on ``{x ∈ S^{d−1} : h ∈ [low, high]}``.

    ``(1 + h)/2 ~ Beta((d−1)/2, (d−1)/2)`` truncated to ``[(1 + low)/2, (1 + high)/2]``, sampled by
    inverse CDF.  Requires ``d ≥ 2`` and ``−1 ≤ low < high ≤ 1``.
    """
    d = check_int_at_least("d", d, 2)
    size = check_int_at_least("size", size, 0)
    low = check_in_range("low", low, -1.0, 1.0, low_open=False, high_open=True)
    high = check_in_range("high", high, low, 1.0, low_open=True, high_open=False)
    law = stats.beta((d - 1) / 2.0, (d - 1) / 2.0)
    lo_cdf, hi_cdf = law.cdf((1.0 + low) / 2.0), law.cdf((1.0 + high) / 2.0)
    u = rng.uniform(lo_cdf, hi_cdf, size=size)
    heads = 2.0 * np.asarray(law.ppf(u), dtype=np.float64) - 1.0
    return np.clip(heads, low, high)  # guards ppf rounding at the band ends only


def sample_gap_arms(
    rng: np.random.Generator,
    rotation: FloatArray,
    num_arms: int,
    gap: float,
    *,
    optimal_mean: float = OPTIMAL_MEAN,
    lowest_mean: float = LOWEST_MEAN,
) -> tuple[FloatArray, FloatArray]:
    """One decision set of App. D: ``(arms (K, d), means (K,))``, with ``θ* = rotation[:, 0]``.

    A uniformly random index holds the optimal arm (head ``optimal_mean``); the other ``K − 1`` arms
    have heads uniform on the band ``[lowest_mean, optimal_mean − gap]``.  All arms have unit norm.
    """
    Q = check_array("rotation", rotation, ndim=2)
    d = Q.shape[0]
    if Q.shape != (d, d) or d < 2:
        raise ValueError(f"rotation must be a square d×d matrix with d >= 2, got shape {Q.shape}")
    num_arms = check_int_at_least("num_arms", num_arms, 1)
    optimal_mean = check_in_range("optimal_mean", optimal_mean, -1.0, 1.0, high_open=False)
    gap = check_finite("gap", gap)
    if not 0.0 <= gap < optimal_mean - lowest_mean:
        raise ValueError(
            f"gap must be in [0, {optimal_mean - lowest_mean}) (band [lowest_mean, "
            f"optimal_mean - gap] non-empty), got {gap}"
        )
    heads = sample_band_heads(rng, d, num_arms - 1, lowest_mean, optimal_mean - gap)
    best = int(rng.integers(num_arms))
    heads = np.insert(heads, best, optimal_mean)
    tails = rng.standard_normal((num_arms, d - 1))
    tails /= np.linalg.norm(tails, axis=1, keepdims=True)
    aligned = np.column_stack([heads, np.sqrt(1.0 - heads**2)[:, None] * tails])
    arms = aligned @ Q.T
    return arms, heads.copy()


def rademacher_reward_table(rng: np.random.Generator, means: FloatArray) -> FloatArray:
    """``±1`` rewards for every arm with ``E[y] = mean`` from one common ``u ~ U[−1, 1]``.

    ``y_a = +1`` if ``u < mean_a`` else ``−1``, so ``P(y_a = +1) = (1 + mean_a)/2``.
    """
    mu = check_array("means", means, ndim=1)
    if np.any(np.abs(mu) > 1.0):
        raise ValueError("means must lie in [-1, 1] for ±1 rewards")
    u = rng.uniform(-1.0, 1.0)
    return np.where(u < mu, 1.0, -1.0)


def gaussian_reward_table(
    rng: np.random.Generator, means: FloatArray, sigma: float = 1.0
) -> FloatArray:
    """Rewards ``mean_a + σ z`` for every arm with one common ``z ~ N(0, 1)`` (App. D.1)."""
    mu = check_array("means", means, ndim=1)
    sigma = check_in_range("sigma", sigma, 0.0, math.inf, low_open=False)
    return mu + sigma * rng.standard_normal()


@dataclass(frozen=True)
class DecisionRound:
    """One round's input: the decision set, the arms' mean rewards and their realised rewards."""

    arms: FloatArray
    means: FloatArray
    rewards: FloatArray

    def pseudo_regret(self, index: int) -> float:
        """``max_{x ∈ D_t} ⟨θ*, x⟩ − ⟨θ*, x_index⟩`` (the per-round pseudo-regret of Sec. 2)."""
        return float(np.max(self.means) - self.means[index])


class LinearGapEnvironment:
    """The synthetic environment of App. D with a fixed ``θ*`` and fresh decision sets each round.

    Args:
        d: dimension (``≥ 2``).
        num_arms: ``K`` (App. D uses ``K = d²``).
        gap: ``Δ ∈ [0, 1.5)`` (``0.1`` in D.1, ``{0, 0.1}`` in D.2).
        rng: generator for ``θ*``, the decision sets and the rewards.
        reward_model: ``"rademacher"`` (``±1``) or ``"gaussian"`` (``mean + N(0, 1)``).
    """

    def __init__(
        self,
        d: int,
        num_arms: int,
        gap: float,
        rng: np.random.Generator,
        *,
        reward_model: RewardModel = "rademacher",
    ) -> None:
        self.d = check_int_at_least("d", d, 2)
        self.num_arms = check_int_at_least("num_arms", num_arms, 1)
        self.gap = check_finite("gap", gap)
        if reward_model not in ("rademacher", "gaussian"):
            raise ValueError(
                f"reward_model must be 'rademacher' or 'gaussian', got {reward_model!r}"
            )
        self.reward_model: RewardModel = reward_model
        # validate before drawing anything, so bad input never advances the caller's generator
        if not 0.0 <= self.gap < OPTIMAL_MEAN - LOWEST_MEAN:
            raise ValueError(f"gap must be in [0, {OPTIMAL_MEAN - LOWEST_MEAN}), got {gap}")
        self._rng = rng
        self.theta = sample_unit_vector(rng, self.d)
        self.rotation = rotation_to(self.theta)

    def next_round(self) -> DecisionRound:
        """Draw the next decision set and its reward table."""
        arms, means = sample_gap_arms(self._rng, self.rotation, self.num_arms, self.gap)
        if self.reward_model == "rademacher":
            rewards = rademacher_reward_table(self._rng, means)
        else:
            rewards = gaussian_reward_table(self._rng, means)
        return DecisionRound(arms=arms, means=means, rewards=rewards)
