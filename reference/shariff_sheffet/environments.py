"""Environments of Shariff & Sheffet App. D (experiments D.1-D.3).

``θ*`` is a uniformly random unit vector; every round ``K`` unit-norm actions: one optimal with
``⟨x, θ*⟩ = 0.75`` and ``K − 1`` uniform on ``⟨x, θ*⟩ ∈ [−0.75, 0.75 − Δ]`` (``Δ = 0.1``, or 0).
Rewards are ``±1`` with mean ``⟨x, θ*⟩`` (D.1 also ``mean + N(0, 1)``).  The band samplers are
exact (:func:`sample_band_heads`, :class:`BandArmSampler`), and rewards are realised as a table
over all arms before the action is chosen, so an input stream is well defined for t-neighbours.

Proof note: ``proofs_notes/shariff_sheffet/environments_appendix_d.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
from scipy import stats

from reference._typing import FloatArray, IntArray
from reference.rng import SeedLike, as_generator, split_generator
from reference.validation import (
    check_array,
    check_choice,
    check_finite,
    check_in_range,
    check_int_array,
    check_int_at_least,
    check_nonempty,
    check_size,
)

__all__ = [
    "ENVIRONMENT_STREAMS",
    "BandArmSampler",
    "DecisionRound",
    "LinearGapEnvironment",
    "RewardModel",
    "RoundBlock",
    "assemble_gap_arms",
    "gaussian_reward_table",
    "optimal_positions",
    "rademacher_reward_table",
    "rademacher_rewards",
    "rotation_to",
    "sample_band_heads",
    "sample_gap_arms",
    "sample_unit_vector",
    "unit_rows",
]

RewardModel: TypeAlias = Literal["rademacher", "gaussian"]

OPTIMAL_MEAN = 0.75
"""Mean reward of the optimal action in App. D."""

LOWEST_MEAN = -0.75
"""Lower end of the band of sub-optimal means in App. D."""


def sample_unit_vector(rng: np.random.Generator | SeedLike, d: int) -> FloatArray:
    """A uniformly random unit vector of ``R^d`` (``g/‖g‖``, ``g ~ N(0, I_d)``): ``θ*`` in App. D."""
    rng = as_generator(rng)
    d = check_size("d", d, 1, item_bytes=8, what="a coordinate")
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
    rng: np.random.Generator | SeedLike, d: int, size: int, low: float, high: float
) -> FloatArray:
    """``size`` heads ``h = ⟨x, θ*⟩`` of points uniform on ``{x ∈ S^{d−1} : h ∈ [low, high]}``.

    ``(1 + h)/2 ~ Beta((d−1)/2, (d−1)/2)`` truncated to ``[(1 + low)/2, (1 + high)/2]``, sampled by
    inverse CDF.  Requires ``d ≥ 2`` and ``−1 ≤ low < high ≤ 1``.
    """
    rng = as_generator(rng)
    d = check_int_at_least("d", d, 2)
    size = check_size("size", size, 0, item_bytes=8 * d, what="a head of d coordinates")
    low = check_in_range("low", low, -1.0, 1.0, low_open=False, high_open=True)
    high = check_in_range("high", high, low, 1.0, low_open=True, high_open=False)
    law = stats.beta((d - 1) / 2.0, (d - 1) / 2.0)
    lo_cdf, hi_cdf = law.cdf((1.0 + low) / 2.0), law.cdf((1.0 + high) / 2.0)
    u = rng.uniform(lo_cdf, hi_cdf, size=size)
    heads = 2.0 * np.asarray(law.ppf(u), dtype=np.float64) - 1.0
    return np.clip(heads, low, high)  # guards ppf rounding at the band ends only


def assemble_gap_arms(
    band: FloatArray, optimal_tails: FloatArray, positions: IntArray, optimal_mean: float
) -> FloatArray:
    """Decision sets in ``θ*``-aligned coordinates, batched over leading axes.

    Args:
        band: shape ``(..., K − 1, d)``, the sub-optimal unit actions (first coordinate = head).
        optimal_tails: shape ``(..., d − 1)``, unit vectors: the optimal action is
            ``(optimal_mean, √(1 − optimal_mean²) · tail)``.
        positions: shape ``(...)``, the index in ``0..K−1`` at which the optimal action is inserted
            (the sub-optimal actions keep their order around it).

    Returns:
        shape ``(..., K, d)``; rotate by ``Q`` (``arms = aligned @ Qᵀ``) to get the actions.
    """
    band = check_array("band", band)
    if band.ndim < 2 or band.shape[-1] == 0:
        raise ValueError(f"band must have shape (..., K - 1, d) with d >= 1, got {band.shape}")
    *lead, k_minus_1, d = band.shape
    optimal_tails = check_array("optimal_tails", optimal_tails)
    if optimal_tails.shape != (*lead, d - 1):
        raise ValueError(
            f"optimal_tails must have shape {(*lead, d - 1)} to match band of shape {band.shape}, "
            f"got {optimal_tails.shape}"
        )
    positions = check_int_array("positions", positions, 0, shape=tuple(lead))
    if positions.size and positions.max() > k_minus_1:
        raise ValueError(
            f"positions must be < K = {k_minus_1 + 1} (band holds K - 1 = {k_minus_1} arms), "
            f"got {positions.max()}"
        )
    optimal_mean = check_in_range(
        "optimal_mean", optimal_mean, -1.0, 1.0, low_open=False, high_open=False
    )
    num_arms = k_minus_1 + 1
    optimal = np.concatenate(
        [
            np.full((*lead, 1), optimal_mean),
            math.sqrt(1.0 - optimal_mean**2) * optimal_tails,
        ],
        axis=-1,
    )
    slot = np.arange(num_arms)
    is_optimal = slot == positions[..., None]  # (..., K)
    source = slot - (slot > positions[..., None])  # band row feeding each slot
    source = np.clip(source, 0, max(k_minus_1 - 1, 0))
    gathered = (
        np.take_along_axis(band, source[..., None], axis=-2)
        if k_minus_1 > 0
        else np.zeros((*lead, num_arms, d))
    )
    return np.where(is_optimal[..., None], optimal[..., None, :], gathered)


def optimal_positions(uniforms: FloatArray, num_arms: int) -> IntArray:
    """Uniform index ``⌊u·K⌋ ∈ {0..K−1}`` from ``u ~ U[0, 1)`` (block-stable, unlike ``integers``)."""
    uniforms = check_array("uniforms", uniforms)
    if np.any(uniforms < 0.0) or np.any(uniforms >= 1.0):
        raise ValueError("uniforms must lie in [0, 1)")
    num_arms = check_int_at_least("num_arms", num_arms, 1)
    return np.minimum((uniforms * num_arms).astype(np.int64), num_arms - 1)


def unit_rows(g: FloatArray) -> FloatArray:
    """Each row of ``g`` divided by its Euclidean norm (uniform directions from Gaussian rows)."""
    g = check_array("g", g)
    if g.ndim == 0:
        raise ValueError("g must have rows (at least 1 dimension), got a scalar")
    norms = np.sqrt(np.sum(g * g, axis=-1, keepdims=True))
    if np.any(norms == 0.0):
        raise ValueError("g must have no zero row (its direction is undefined)")
    return np.asarray(g / norms, dtype=np.float64)


class BandArmSampler:
    """Unit vectors uniform on the band ``{x ∈ S^{d−1} : x_1 ∈ [low, high]}`` (``θ*``-aligned).

    Block-stable (:mod:`reference.rng`): ``draw(a)`` then ``draw(b)`` returns the same vectors as
    ``draw(a + b)``, so the engine's block draws reproduce the reference's per-round draws.  Two
    exact methods, fixed at construction:

    * ``"rejection"``: Gaussian rows ``g ~ N(0, I_d)``, normalised (uniform on the sphere), kept when
      their head lies in the band; accepted vectors are buffered, so the sequence does not depend on
      how many are requested at a time.  Used when the band holds at least a quarter of the sphere
      (every App. D band: ``[−0.75, 0.75 − Δ]``).
    * ``"inverse_cdf"``: heads by :func:`sample_band_heads` and tails uniform on ``S^{d−2}``; used
      for narrow bands, where rejection would waste most draws.

    Args:
        rng: split into the children ``candidates``, ``heads``, ``tails``.
        d: dimension ``≥ 2``.
        low, high: the band, ``−1 ≤ low < high ≤ 1``.
    """

    def __init__(
        self, rng: np.random.Generator | SeedLike, d: int, low: float, high: float
    ) -> None:
        rng = as_generator(rng)
        self.d = check_int_at_least("d", d, 2)
        self.low = check_in_range("low", low, -1.0, 1.0, low_open=False, high_open=True)
        self.high = check_in_range("high", high, self.low, 1.0, low_open=True, high_open=False)
        law = stats.beta((d - 1) / 2.0, (d - 1) / 2.0)
        self.band_mass = float(law.cdf((1.0 + self.high) / 2.0) - law.cdf((1.0 + self.low) / 2.0))
        self.method: Literal["rejection", "inverse_cdf"] = (
            "rejection" if self.band_mass >= 0.25 else "inverse_cdf"
        )
        streams = split_generator(rng, ("candidates", "heads", "tails"))
        self._candidates, self._heads, self._tails = (
            streams["candidates"],
            streams["heads"],
            streams["tails"],
        )
        self._buffer = np.zeros((0, d))

    def draw(self, count: int) -> FloatArray:
        """The next ``count`` band vectors, shape ``(count, d)``."""
        count = check_size("count", count, 0, item_bytes=8 * self.d, what="an arm")
        if self.method == "inverse_cdf":
            heads = sample_band_heads(self._heads, self.d, count, self.low, self.high)
            tails = unit_rows(self._tails.standard_normal((count, self.d - 1)))
            return np.column_stack([heads, np.sqrt(1.0 - heads**2)[:, None] * tails])
        chunks = [self._buffer]
        have = self._buffer.shape[0]
        while have < count:
            block = int(1.2 * (count - have) / self.band_mass) + 16
            x = unit_rows(self._candidates.standard_normal((block, self.d)))
            kept = x[(x[:, 0] >= self.low) & (x[:, 0] <= self.high)]
            chunks.append(kept)
            have += kept.shape[0]
        pool = np.concatenate(chunks)
        self._buffer = pool[count:]
        return pool[:count]


def sample_gap_arms(
    rng: np.random.Generator | SeedLike,
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
    One-off draw from a single generator (heads by inverse CDF); :class:`LinearGapEnvironment`
    draws the same law from block-stable streams.
    """
    rng = as_generator(rng)
    Q = check_array("rotation", rotation, ndim=2)
    d = Q.shape[0]
    if Q.shape != (d, d) or d < 2:
        raise ValueError(f"rotation must be a square d×d matrix with d >= 2, got shape {Q.shape}")
    num_arms = check_size("num_arms", num_arms, 1, item_bytes=8 * d, what="an arm")
    optimal_mean = check_in_range("optimal_mean", optimal_mean, -1.0, 1.0, high_open=False)
    lowest_mean = check_in_range("lowest_mean", lowest_mean, -1.0, optimal_mean, low_open=False)
    gap = check_finite("gap", gap)
    if not 0.0 <= gap < optimal_mean - lowest_mean:
        raise ValueError(
            f"gap must be in [0, {optimal_mean - lowest_mean}) (band [lowest_mean, "
            f"optimal_mean - gap] non-empty), got {gap}"
        )
    heads = sample_band_heads(rng, d, num_arms - 1, lowest_mean, optimal_mean - gap)
    tails = unit_rows(rng.standard_normal((num_arms, d - 1)))
    band = np.column_stack([heads, np.sqrt(1.0 - heads**2)[:, None] * tails[1:]])
    position = optimal_positions(rng.uniform(size=1), num_arms)
    aligned = assemble_gap_arms(band, tails[0], position[0], optimal_mean)
    return aligned @ Q.T, aligned[:, 0].copy()


def rademacher_rewards(uniforms: FloatArray, means: FloatArray) -> FloatArray:
    """``y_a = +1`` if ``u < mean_a`` else ``−1``, one common ``u ~ U[−1, 1]`` per decision set.

    Batched: ``uniforms`` has shape ``(...)`` and ``means`` ``(..., K)``;
    ``P(y_a = +1) = (1 + mean_a)/2``, so ``E[y_a] = mean_a``.
    """
    uniforms = check_array("uniforms", uniforms)
    means = check_array("means", means)
    if means.ndim == 0 or means.shape[:-1] != uniforms.shape:
        raise ValueError(
            f"means must have shape (..., K) with (...) = uniforms.shape {uniforms.shape}, "
            f"got {means.shape}"
        )
    if np.any(np.abs(uniforms) > 1.0) or np.any(np.abs(means) > 1.0):
        raise ValueError("uniforms and means must lie in [-1, 1] for ±1 rewards")
    return np.where(uniforms[..., None] < means, 1.0, -1.0)


def rademacher_reward_table(rng: np.random.Generator | SeedLike, means: FloatArray) -> FloatArray:
    """``±1`` rewards for every arm with ``E[y] = mean`` from one common ``u ~ U[−1, 1]``.

    ``y_a = +1`` if ``u < mean_a`` else ``−1``, so ``P(y_a = +1) = (1 + mean_a)/2``.
    """
    rng = as_generator(rng)
    mu = check_nonempty("means", check_array("means", means, ndim=1), what="arm")
    if np.any(np.abs(mu) > 1.0):
        raise ValueError("means must lie in [-1, 1] for ±1 rewards")
    return rademacher_rewards(np.asarray(rng.uniform(-1.0, 1.0)), mu)


def gaussian_reward_table(
    rng: np.random.Generator | SeedLike, means: FloatArray, sigma: float = 1.0
) -> FloatArray:
    """Rewards ``mean_a + σ z`` for every arm with one common ``z ~ N(0, 1)`` (App. D.1)."""
    rng = as_generator(rng)
    mu = check_nonempty("means", check_array("means", means, ndim=1), what="arm")
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


ENVIRONMENT_STREAMS = ("theta", "band", "optimal", "position", "rewards")
"""Children of the environment generator, one per random role (block-stable, :mod:`reference.rng`)."""


@dataclass(frozen=True)
class RoundBlock:
    """``T`` consecutive rounds: arms ``(T, K, d)``, means ``(T, K)``, reward tables ``(T, K)``."""

    arms: FloatArray
    means: FloatArray
    rewards: FloatArray


class LinearGapEnvironment:
    """The synthetic environment of App. D with a fixed ``θ*`` and fresh decision sets each round.

    Args:
        d: dimension (``≥ 2``).
        num_arms: ``K`` (App. D uses ``K = d²``).
        gap: ``Δ ∈ [0, 1.5)`` (``0.1`` in D.1, ``{0, 0.1}`` in D.2).
        rng: split into :data:`ENVIRONMENT_STREAMS`: ``θ*``, the band arms
            (:class:`BandArmSampler`), the optimal arm's tail, its position, and the reward tables.
        reward_model: ``"rademacher"`` (``±1``) or ``"gaussian"`` (``mean + N(0, 1)``).

    Every role has its own stream, so :meth:`draw_block` of ``T`` rounds equals ``T`` calls of
    :meth:`next_round` (the engine draws blocks; the reference draws rounds).
    """

    def __init__(
        self,
        d: int,
        num_arms: int,
        gap: float,
        rng: np.random.Generator | SeedLike,
        *,
        reward_model: RewardModel = "rademacher",
    ) -> None:
        rng = as_generator(rng)
        self.d = check_size("d", d, 2, item_bytes=8, power=2, what="an entry of the rotation")
        self.num_arms = check_size("num_arms", num_arms, 1, item_bytes=8 * self.d, what="an arm")
        self.gap = check_finite("gap", gap)
        check_choice("reward_model", reward_model, ("rademacher", "gaussian"))
        self.reward_model: RewardModel = reward_model
        # validate before drawing anything, so bad input never advances the caller's generator
        if not 0.0 <= self.gap < OPTIMAL_MEAN - LOWEST_MEAN:
            raise ValueError(f"gap must be in [0, {OPTIMAL_MEAN - LOWEST_MEAN}), got {gap}")
        streams = split_generator(rng, ENVIRONMENT_STREAMS)
        self.theta = sample_unit_vector(streams["theta"], self.d)
        self.rotation = rotation_to(self.theta)
        self._band = BandArmSampler(streams["band"], self.d, LOWEST_MEAN, OPTIMAL_MEAN - self.gap)
        self._optimal = streams["optimal"]
        self._position = streams["position"]
        self._rewards = streams["rewards"]

    def draw_block(self, rounds: int) -> RoundBlock:
        """The next ``rounds`` decision sets and reward tables."""
        T = check_size(
            "rounds", rounds, 0, item_bytes=8 * self.num_arms * (self.d + 2), what="a round's arms"
        )
        K, d = self.num_arms, self.d
        band = self._band.draw(T * (K - 1)).reshape(T, K - 1, d)
        tails = unit_rows(self._optimal.standard_normal((T, d - 1)))
        positions = optimal_positions(self._position.uniform(size=T), K)
        aligned = assemble_gap_arms(band, tails, positions, OPTIMAL_MEAN)
        means = aligned[..., 0].copy()
        if self.reward_model == "rademacher":
            rewards = rademacher_rewards(self._rewards.uniform(-1.0, 1.0, size=T), means)
        else:
            rewards = means + self._rewards.standard_normal(T)[:, None]
        return RoundBlock(arms=aligned @ self.rotation.T, means=means, rewards=rewards)

    def next_round(self) -> DecisionRound:
        """Draw the next decision set and its reward table."""
        block = self.draw_block(1)
        return DecisionRound(arms=block.arms[0], means=block.means[0], rewards=block.rewards[0])
