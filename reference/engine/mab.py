"""DP-SE and DP-UCB for ``R`` replicates at once (optimized path of :mod:`reference.sajed_sheffet.bandits`).

Sajed & Sheffet, Sec. 4-5: Algorithm 3 (DP-SE) and the DP-UCB baseline of Sec. 5 on the Bernoulli
instances C1-C4.  :func:`dpse_bernoulli_batch` and :func:`dpucb_bernoulli_batch` give replicate
``r`` exactly the reference's result on ``seeds[r]`` (same pulls, eliminations and regret, draw for
draw), whatever other replicates share the batch, so blocks can run anywhere
(:mod:`reference.engine.blocks`).

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, cast, get_args

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.rng import as_seed_sequence, named_generators
from reference.sajed_sheffet.constants import (
    EpochParameters,
    check_epsilon_or_inf,
    dpse_epoch_parameters,
    dpucb_confidence_width,
    dpucb_tree_epsilon,
)
from reference.tree import tree_depth
from reference.validation import (
    check_alpha,
    check_array,
    check_bool,
    check_choice,
    check_int_array,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "INSTANCES",
    "Calibration",
    "DPSEBatchResult",
    "DPUCBBatchResult",
    "Instance",
    "dpse_bernoulli_batch",
    "dpucb_bernoulli_batch",
    "regret_checkpoints",
    "section5_means",
]

Instance = Literal["C1", "C2", "C3", "C4"]
Calibration = Literal["per_tree", "split"]
INSTANCES: tuple[Instance, ...] = ("C1", "C2", "C3", "C4")

_NOISE_BLOCK = 512
"""Node noises drawn ahead per (replicate, arm) tree; any value gives the same results."""
_REWARD_BLOCK = 4096
"""Rounds of uniforms drawn ahead per replicate; any value gives the same results."""


def section5_means(instance: Instance, K: int) -> FloatArray:
    """The arm means of the paper's instances (Sec. 5), best arm first.

    * C1: ``{0.75, 0.7, …, 0.7}`` (``K − 1`` copies of 0.7, all gaps 0.05);
    * C2: ``μ_i = 0.75 − 0.5 (i − 1)/(K − 1)`` (gaps decrease linearly from 0.75 to 0.25);
    * C3: ``μ_i = a (i − K)² + c`` convex with ``μ_1 = 0.75``, ``μ_K = 0.25``: ``a = 0.5/(K − 1)²``,
      ``c = 0.25``;
    * C4: ``μ_i = a (i − 1)² + c`` concave with ``μ_1 = 0.75``, ``μ_K = 0.25``: ``a = −0.5/(K − 1)²``,
      ``c = 0.75``.
    """
    K = check_size("K", K, 2, item_bytes=8, what="an arm's mean")
    i = np.arange(1, K + 1, dtype=np.float64)
    if instance == "C1":
        return np.array([0.75] + [0.7] * (K - 1), dtype=np.float64)
    if instance == "C2":
        return np.asarray(0.75 - 0.5 * (i - 1.0) / (K - 1), dtype=np.float64)
    if instance == "C3":
        return np.asarray(0.5 / (K - 1) ** 2 * (i - K) ** 2 + 0.25, dtype=np.float64)
    if instance == "C4":
        return np.asarray(-0.5 / (K - 1) ** 2 * (i - 1.0) ** 2 + 0.75, dtype=np.float64)
    raise ValueError(f"instance must be one of {INSTANCES}, got {instance!r}")


def regret_checkpoints(T: int, per_decade: int = 10, linear: int = 100) -> IntArray:
    """Rounds at which regret curves are kept: ``per_decade`` log-spaced points per decade from 1
    and ``linear`` equally spaced points up to ``T`` (for linear-axis plots), always ending at ``T``."""
    T = check_size("T", T, 1)
    per_decade = check_size("per_decade", per_decade, 1, item_bytes=8, what="a checkpoint")
    linear = check_size("linear", linear, 1, item_bytes=8, what="a checkpoint")
    decades = math.log10(T)
    log_points = np.round(np.logspace(0.0, decades, 1 + math.ceil(per_decade * decades)))
    lin_points = np.round(np.linspace(T / linear, T, linear))
    points = np.concatenate((log_points, lin_points, [T])).astype(np.int64)
    return np.unique(points[(points >= 1) & (points <= T)])


def _rows(
    name: str, value: FloatArray | Sequence[float] | float, R: int, *, allow_inf: bool = False
) -> FloatArray:
    if isinstance(value, bool | np.bool_ | str | bytes) or value is None:
        raise ValueError(f"{name} must be a number or an array of numbers, got {value!r:.80}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"{name} must be a number or an array of numbers, got {value!r:.80}"
        ) from err
    if arr.ndim == 0:
        arr = np.full(R, float(arr))
    if arr.shape != (R,):
        raise ValueError(f"{name} must be a scalar or have shape ({R},), got shape {arr.shape}")
    for v in arr:
        if allow_inf:
            check_epsilon_or_inf(float(v), name)
        elif not (math.isfinite(float(v)) and v > 0.0):
            raise ValueError(f"{name} must be in (0, inf), got {float(v)!r}")
    return arr


def _means_rows(means: FloatArray | Sequence[float], R: int) -> FloatArray:
    mu = check_array("means", means)
    if mu.ndim == 1:
        mu = np.tile(mu, (R, 1))
    mu = check_array("means", mu, ndim=2)
    if mu.shape[0] != R:
        raise ValueError(f"means must have shape (K,) or ({R}, K), got {mu.shape}")
    check_int_at_least("K (means.shape[-1])", int(mu.shape[1]), 2)
    if np.any(mu < 0.0) or np.any(mu > 1.0):
        raise ValueError("means must lie in [0, 1]")
    return mu


def _checkpoints(checkpoints: Sequence[int] | IntArray | None, T: int, last: str = "T") -> IntArray:
    if checkpoints is None:
        return np.array([T], dtype=np.int64)
    marks = check_int_array("checkpoints", checkpoints, 1, ndim=1)
    if marks.size == 0:
        raise ValueError("checkpoints must be a non-empty 1-d sequence of rounds")
    if np.any(marks > T) or np.any(np.diff(marks) <= 0):
        raise ValueError(f"checkpoints must be strictly increasing rounds in [1, {last}={T}]")
    return marks


def _seeds(seeds: Sequence[np.random.SeedSequence]) -> int:
    """``R = len(seeds)`` after checking every seed by the one seed rule."""
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence):
        raise ValueError(
            f"seeds must be a sequence of seeds (one per replicate), got {seeds!r:.80}"
        )
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one seed (one per replicate)")
    for i, seed in enumerate(seeds):
        as_seed_sequence(seed, f"seeds[{i}]")
    return len(seeds)


# --------------------------------------------------------------------------------------------
# DP-SE (Algorithm 3) on Bernoulli arms
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DPSEBatchResult:
    """``R`` runs of DP-SE (:func:`dpse_bernoulli_batch`).

    Attributes:
        pulls: pulls per arm, shape ``(R, K)`` (rows sum to ``T``).
        elimination_round, elimination_epoch: per arm, ``-1`` if never eliminated (shape ``(R, K)``).
        epochs_completed: completed epochs per replicate (shape ``(R,)``).
        checkpoints: the rounds ``t`` of ``regret`` (shape ``(C,)``).
        regret: cumulative pseudo-regret ``Σ_{s ≤ t} Δ_{a_s}`` at each checkpoint (shape ``(R, C)``);
            exact: the pull order inside an epoch is round-robin over ``S`` in ascending order.
        final_regret: ``Σ_a Δ_a pulls_a`` (shape ``(R,)``), computed as the reference does.
    """

    pulls: IntArray
    elimination_round: IntArray
    elimination_epoch: IntArray
    epochs_completed: IntArray
    checkpoints: IntArray
    regret: FloatArray
    final_regret: FloatArray


def _segment_regret(
    marks: IntArray, start: int, stop: int, base: float, order_gaps: FloatArray
) -> tuple[IntArray, FloatArray]:
    """Regret at the checkpoints in ``(start, stop]`` of a round-robin segment over ``order_gaps``."""
    sel = np.flatnonzero((marks > start) & (marks <= stop))
    offset = marks[sel] - start
    size = order_gaps.size
    prefix = np.concatenate(([0.0], np.cumsum(order_gaps)))
    values = base + (offset // size) * prefix[-1] + prefix[offset % size]
    return sel, np.asarray(values, dtype=np.float64)


def dpse_bernoulli_batch(
    means: FloatArray | Sequence[float],
    T: int,
    epsilon: FloatArray | Sequence[float] | float,
    beta: float,
    seeds: Sequence[np.random.SeedSequence],
    *,
    noise_on: Literal["r", "R_e"] = "r",
    checkpoints: Sequence[int] | IntArray | None = None,
) -> DPSEBatchResult:
    """Algorithm 3 on Bernoulli arms for ``R = len(seeds)`` replicates in lock-step epochs.

    Replicate ``r`` is :func:`~.bandits.simulate_dpse_bernoulli` ``(means[r], T, epsilon[r], beta,
    default_rng(seeds[r]))`` (module docstring): per epoch ``e`` its ``|S|`` binomial epoch sums
    ``Binomial(r_e, μ_i)`` and then its ``|S|`` Laplace noises ``Lap(noise_scale_e)``; an epoch that
    would overrun ``T`` is truncated (round-robin, no release).

    Args:
        means: ``(K,)`` (all replicates) or ``(R, K)`` (one row per replicate), in ``[0, 1]``.
        T: horizon ``≥ 1``.
        epsilon: ``ε ∈ (0, inf]``, a scalar or one per replicate.
        beta: ``β ∈ (0, 1)`` (the paper: ``1/T``, Sec. 5).
        seeds: one seed per replicate.
        noise_on: ``"r"`` (line 17) or ``"R_e"`` (proof of Thm 4.1).
        checkpoints: rounds at which to report the cumulative regret (default: ``T`` only).
    """
    R = _seeds(seeds)
    mu = _means_rows(means, R)
    K = int(mu.shape[1])
    T = check_int_at_least("T", T, 1)
    eps = _rows("epsilon", epsilon, R, allow_inf=True)
    b = check_alpha(beta, "beta")
    check_choice("noise_on", noise_on, ("r", "R_e"))
    marks = _checkpoints(checkpoints, T)
    rngs = [np.random.default_rng(s) for s in seeds]
    gaps = mu.max(axis=1, keepdims=True) - mu
    viable = np.ones((R, K), dtype=bool)
    pulls = np.zeros((R, K), dtype=np.int64)
    elim_round = np.full((R, K), -1, dtype=np.int64)
    elim_epoch = np.full((R, K), -1, dtype=np.int64)
    epochs = np.zeros(R, dtype=np.int64)
    t = np.zeros(R, dtype=np.int64)
    regret = np.zeros((R, marks.size))
    base = np.zeros(R)  # cumulative regret at round t[r]
    running = np.ones(R, dtype=bool)  # |S| > 1 and t < T
    cache: dict[tuple[int, int, float], EpochParameters] = {}
    epoch = 0
    while np.any(running):
        epoch += 1
        sizes = viable.sum(axis=1)
        params: list[EpochParameters | None] = [None] * R
        length = np.zeros(R, dtype=np.int64)
        rounds = np.zeros(R, dtype=np.int64)
        for r in np.flatnonzero(running):
            key = (int(sizes[r]), epoch, float(eps[r]))
            if key not in cache:
                cache[key] = dpse_epoch_parameters(key[0], epoch, b, key[2], noise_on=noise_on)
            params[r] = cache[key]
            rounds[r] = cache[key].rounds
            length[r] = cache[key].rounds * sizes[r]
        complete = running & (t + length <= T)
        truncated = running & ~complete
        # Regret inside this epoch (round-robin over S in ascending order) at the checkpoints.
        for r in np.flatnonzero(running):
            stop = min(int(t[r] + length[r]), T)
            sel, values = _segment_regret(
                marks, int(t[r]), stop, float(base[r]), gaps[r, viable[r]]
            )
            regret[r, sel] = values
        # Truncated epochs: the remaining T − t pulls go round-robin over S (no release).
        for r in np.flatnonzero(truncated):
            idx = np.flatnonzero(viable[r])
            rest = T - int(t[r])
            pulls[r, idx] += rest // idx.size
            pulls[r, idx[: rest % idx.size]] += 1
            t[r] = T
        # Completed epochs: the epoch sums, the Laplace noises, the elimination rule (Algorithm 3, lines 17–20).
        mubar = np.zeros((R, K))
        noisy = np.full((R, K), -np.inf)
        for r in np.flatnonzero(complete):
            p = params[r]
            assert p is not None
            idx = np.flatnonzero(viable[r])
            m = rngs[r].binomial(p.rounds, mu[r, idx]).astype(np.float64) / p.rounds
            mubar[r, idx] = m
            if p.noise_scale > 0.0:
                noisy[r, idx] = m + rngs[r].laplace(0.0, p.noise_scale, size=idx.size)
            else:
                noisy[r, idx] = m
        threshold = np.array([p.threshold if p is not None else np.inf for p in params])
        top = np.where(complete, noisy.max(axis=1), 0.0)[:, None]  # finite: no inf − inf
        removed = complete[:, None] & viable & (top - noisy > threshold[:, None])
        pulls += np.where(complete[:, None] & viable, rounds[:, None], 0)
        t = np.where(complete, t + length, t)
        epochs += complete
        elim_round = np.where(removed, t[:, None], elim_round)
        elim_epoch = np.where(removed, epoch, elim_epoch)
        base = np.where(complete, np.einsum("rk,rk->r", gaps, pulls.astype(np.float64)), base)
        viable &= ~removed
        running = complete & (viable.sum(axis=1) > 1) & (t < T)
    # The last viable arm is pulled in all remaining rounds (line 22).
    final = np.empty(R)
    for row in range(R):
        if t[row] < T:
            last = np.flatnonzero(viable[row])
            sel, values = _segment_regret(marks, int(t[row]), T, float(base[row]), gaps[row, last])
            regret[row, sel] = values
            pulls[row, last[0]] += T - int(t[row])
        final[row] = float(np.dot(gaps[row], pulls[row]))
    regret[:, -1] = final if marks[-1] == T else regret[:, -1]
    return DPSEBatchResult(pulls, elim_round, elim_epoch, epochs, marks, regret, final)


# --------------------------------------------------------------------------------------------
# DP-UCB (Sec. 5 baseline, reconstruction) on Bernoulli arms
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DPUCBBatchResult:
    """``R`` runs of DP-UCB (:func:`dpucb_bernoulli_batch`).

    Attributes:
        pulls: pulls per arm, shape ``(R, K)``.
        checkpoints: rounds of ``regret`` (shape ``(C,)``).
        regret: cumulative pseudo-regret at each checkpoint (shape ``(R, C)``), accumulated round by
            round in the reference's order (``numpy.cumsum`` of ``Δ_{a_t}``).
        final_regret: ``regret`` at the last round simulated (``T``, or ``rounds``), shape ``(R,)``.
        gamma: the confidence width ``γ`` of each replicate (shape ``(R,)``).
        arms: the arm of every round (shape ``(R, T)``) when ``trace=True``, else ``None``.
    """

    pulls: IntArray
    checkpoints: IntArray
    regret: FloatArray
    final_regret: FloatArray
    gamma: FloatArray
    arms: IntArray | None


class _BlockStream:
    """Draws of one kind from per-row generators, drawn ``block`` at a time and served in order."""

    def __init__(
        self, gens: list[np.random.Generator], block: int, scale: FloatArray | None
    ) -> None:
        self.gens = gens
        self.block = block
        self.scale = scale
        self.buf = np.zeros((len(gens), block))
        self.pos = np.full(len(gens), block, dtype=np.int64)

    def refill(self, rows: IntArray) -> None:
        """Keep the unread draws of ``rows`` and top their buffers up from their generators."""
        for r in rows:
            keep = self.buf[r, self.pos[r] :].copy()
            fresh = self.block - keep.size
            if self.scale is None:
                new = self.gens[r].random(fresh)
            else:
                new = self.gens[r].laplace(0.0, float(self.scale[r]), size=fresh)
            self.buf[r, : keep.size] = keep
            self.buf[r, keep.size :] = new
            self.pos[r] = 0


class _DPUCBSetup(NamedTuple):
    """The checked arguments of a DP-UCB batch and what they fix (shared with the compiled engine)."""

    R: int
    K: int
    T: int
    stop: int  # rounds simulated
    m: int  # tree depth
    means: FloatArray  # (R, K)
    checkpoints: IntArray
    scale: FloatArray  # Laplace node scale m/ε_tree per replicate
    gamma: FloatArray  # confidence width γ per replicate
    trace: bool


def _dpucb_setup(
    means: FloatArray | Sequence[float],
    T: int,
    epsilon: FloatArray | Sequence[float] | float,
    seeds: Sequence[np.random.SeedSequence],
    calibration: Calibration | Sequence[Calibration],
    beta_u: float | None,
    checkpoints: Sequence[int] | IntArray | None,
    trace: bool,
    rounds: int | None,
    width_factor: float = 1.0,
) -> _DPUCBSetup:
    """Check the arguments of :func:`dpucb_bernoulli_batch` (its docstring) and derive ``m``, the
    node scales and ``γ`` per replicate."""
    factor = check_positive("width_factor", width_factor)
    R = _seeds(seeds)
    mu = _means_rows(means, R)
    K = int(mu.shape[1])
    T = check_int_at_least("T", T, K)
    eps = _rows("epsilon", epsilon, R)
    if isinstance(calibration, str):
        calibrations: list[Calibration] = [calibration] * R
    elif isinstance(calibration, Sequence):
        calibrations = list(cast(Sequence[Calibration], calibration))
    else:
        raise ValueError(
            f"calibration must be 'per_tree', 'split' or a sequence of them, got {calibration!r:.80}"
        )
    if len(calibrations) != R:
        raise ValueError(f"calibration must be one value or {R} values, got {len(calibrations)}")
    for i, c in enumerate(calibrations):
        check_choice(
            f"calibration[{i}]" if len(calibrations) > 1 else "calibration",
            c,
            get_args(Calibration),
        )
    trace = check_bool("trace", trace)
    bu = check_alpha(1.0 / T if beta_u is None else beta_u, "beta_u")
    stop = T if rounds is None else check_int_at_least("rounds", rounds, 1)
    if stop > T:
        raise ValueError(f"rounds must be in [1, T={T}], got {rounds}")
    marks = _checkpoints(checkpoints, stop, "T" if rounds is None else "rounds")
    m = tree_depth(T)
    eps_tree = np.array(
        [dpucb_tree_epsilon(float(e), K, c) for e, c in zip(eps, calibrations, strict=True)]
    )
    scale = m / eps_tree  # the reference's ``levels / epsilon_tree``, row by row
    gamma = factor * np.array([dpucb_confidence_width(K, T, float(e), bu) for e in eps_tree])
    return _DPUCBSetup(R, K, T, stop, m, mu, marks, scale, gamma, trace)


def _dpucb_generators(
    seed: np.random.SeedSequence, K: int
) -> tuple[np.random.Generator, list[np.random.Generator]]:
    """The streams of one replicate as :func:`~.bandits.pseudo_regret_trajectories` splits them:
    the environment's (one uniform per round) and the ``K`` trees' Laplace streams, tree ``a``'s the
    ``laplace`` stream of the ``a``-th :class:`~reference.rng.NoiseStreams` split of the policy's."""
    gens = named_generators(seed, ("environment", "policy"))
    children = gens["policy"].spawn(3 * K)  # = K successive NoiseStreams.split (3 each)
    return gens["environment"], [children[3 * a + 2] for a in range(K)]


def dpucb_bernoulli_batch(
    means: FloatArray | Sequence[float],
    T: int,
    epsilon: FloatArray | Sequence[float] | float,
    seeds: Sequence[np.random.SeedSequence],
    *,
    calibration: Calibration | Sequence[Calibration] = "per_tree",
    beta_u: float | None = None,
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    rounds: int | None = None,
    width_factor: float = 1.0,
) -> DPUCBBatchResult:
    """The DP-UCB baseline (:class:`~.bandits.DPUCB`, ``pad="none"``) for ``R = len(seeds)`` replicates.

    Round ``t ≤ K`` pulls arm ``t``; afterwards ``argmax_a Ŝ_a/n_a + √(2 log(t)/n_a) + γ/n_a``
    (ties to the lowest index), ``Ŝ_a`` the release of arm ``a``'s tree (node noise
    ``Lap(m/ε_tree)`` drawn once per node, ``m = tree_depth(T)``; the release at count ``n`` sums
    the nodes of the set bits of ``n``, highest level first, as :class:`~reference.tree.TreeAggregator`
    does, so the floating-point sums agree exactly).  Rewards are Bernoulli: ``u_t < μ_{a_t}`` with
    ``u_t`` the round's uniform (:class:`~.bandits.BanditEnvironment`).

    Args:
        means: ``(K,)`` or ``(R, K)``.
        T: horizon (known to the algorithm: it fixes ``m`` and ``γ``), ``≥ K``.
        epsilon: ``ε > 0``, scalar or one per replicate.
        seeds: one seed per replicate (split as in :func:`~.bandits.pseudo_regret_trajectories`).
        calibration: ``"per_tree"`` (``ε`` per tree) or ``"split"`` (``ε/K``), or one per replicate.
        beta_u: failure level of ``γ`` (default ``1/T``).
        checkpoints: rounds at which to keep the cumulative regret (default ``T`` only).
        trace: also return every round's arm (memory ``R·rounds``).
        rounds: simulate only rounds ``1..rounds`` of the horizon-``T`` run (default ``T``); the
            algorithm still knows ``T`` (tree depth, ``γ``), so this is an exact prefix of the full
            run and its cumulative regret a lower bound on the full run's (regret never decreases).
        width_factor: ``γ`` times this (``> 0``, finite; default 1), as
            :class:`~.bandits.DPUCB`'s ``width_factor``: the width-sensitivity runs of Sec. 5.
    """
    setup = _dpucb_setup(
        means, T, epsilon, seeds, calibration, beta_u, checkpoints, trace, rounds, width_factor
    )
    R, K, T, stop, m = setup.R, setup.K, setup.T, setup.stop, setup.m
    mu, marks, scale, gamma = setup.means, setup.checkpoints, setup.scale, setup.gamma
    trace = setup.trace
    env_gens: list[np.random.Generator] = []
    tree_gens: list[np.random.Generator] = []  # row r * K + a: tree a's Laplace stream
    for seed in seeds:
        environment, trees = _dpucb_generators(seed, K)
        env_gens.append(environment)
        tree_gens.extend(trees)
    rewards = _BlockStream(env_gens, _REWARD_BLOCK, None)
    noise = _BlockStream(tree_gens, _NOISE_BLOCK, np.repeat(scale, K))
    gaps = (mu.max(axis=1, keepdims=True) - mu).ravel()
    mu_flat = mu.ravel()
    rows = np.arange(R)
    levels = np.arange(m)
    # Per (replicate, arm), flattened to ``r·K + a``; the index of round t is
    # ``(Ŝ/n + √(2 log t/n)) + γ/n`` with ``Ŝ/n`` and ``γ/n`` cached (they change only when the
    # arm is pulled; the same elementwise divisions as the reference, so the same bits).
    counts = np.zeros(R * K, dtype=np.int64)
    n_float = np.ones(R * K)  # counts as floats (placeholder 1 before the first pull)
    sums = np.zeros(R * K)  # exact reward sums (integers): the data part of every release
    node_noise = np.zeros((R * K, m))  # latest complete node's noise per level
    mean_term = np.zeros(R * K)  # Ŝ_a / n_a
    width_term = np.zeros(R * K)  # γ / n_a
    gamma_flat = np.repeat(gamma, K)
    cumulative = np.zeros(R)
    regret = np.zeros((R, marks.size))
    arms_trace = np.zeros((R, stop), dtype=np.int64) if trace else None
    next_mark = 0
    for t in range(1, stop + 1):
        if t <= K:
            arm = np.full(R, t - 1, dtype=np.int64)
        else:
            bonus = np.sqrt(2.0 * math.log(t) / n_float)
            index = (mean_term + bonus + width_term).reshape(R, K)
            arm = np.argmax(index, axis=1)
        flat = rows * K + arm
        # Reward of round t: one uniform of the environment stream.
        if rewards.pos[0] >= rewards.block:
            rewards.refill(rows)
        reward = (rewards.buf[:, rewards.pos[0]] < mu_flat[flat]).astype(np.float64)
        rewards.pos += 1
        # Insert leaf n into tree (r, arm_r): the nodes at levels j with 2^j | n complete now
        # (levels 0..ctz(n), a prefix), each with the next draw of that tree's Laplace stream.
        count = counts[flat] + 1
        counts[flat] = count
        total = sums[flat] + reward
        sums[flat] = total
        short = np.flatnonzero(noise.pos[flat] + m > noise.block)
        if short.size:
            noise.refill(flat[short])
        start = noise.pos[flat]
        complete = (count[:, None] & ((1 << levels) - 1)[None, :]) == 0
        fresh = noise.buf[flat[:, None], start[:, None] + levels[None, :]]
        noise.pos[flat] = start + complete.sum(axis=1)
        nodes = np.where(complete, fresh, node_noise[flat])
        node_noise[flat] = nodes
        # Release at count n: node noises of the set bits of n, highest level first.
        bits = ((count[:, None] >> levels[None, :]) & 1).astype(bool)
        used = np.where(bits, nodes, 0.0)[:, ::-1]
        release = total + np.add.accumulate(used, axis=1)[:, -1]
        n_new = count.astype(np.float64)
        n_float[flat] = n_new
        mean_term[flat] = release / n_new
        width_term[flat] = gamma_flat[flat] / n_new
        cumulative = cumulative + gaps[flat]
        if arms_trace is not None:
            arms_trace[:, t - 1] = arm
        if next_mark < marks.size and marks[next_mark] == t:
            regret[:, next_mark] = cumulative
            next_mark += 1
    pulls = counts.reshape(R, K)
    return DPUCBBatchResult(pulls, marks, regret, regret[:, -1].copy(), gamma, arms_trace)
