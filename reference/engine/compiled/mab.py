"""DP-SE and DP-UCB of Sajed & Sheffet (Algorithm 3, Sec. 5) as one compiled loop per replicate.

:func:`dpse_bernoulli_compiled` and :func:`dpucb_bernoulli_compiled` take the arguments of the numpy
engine's :func:`~reference.engine.mab.dpse_bernoulli_batch` and
:func:`~reference.engine.mab.dpucb_bernoulli_batch` (plus ``workers``) and return its results, bit
for bit: replicate ``r`` draws from the generators the numpy engine builds from ``seeds[r]``, in
the same order (numba draws from a numpy ``Generator`` as numpy does).  DP-UCB does ``O(K)`` work
per round (the tree's release is continued from the unchanged higher levels); memory is
``O(K log T)`` per replicate unless ``trace=True``.  Stream order and regret arithmetic: the note.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from numba import typed

from reference._typing import FloatArray, IntArray
from reference.engine.compiled._parallel import compiled, resolve_workers, run_chunked
from reference.engine.mab import (
    Calibration,
    DPSEBatchResult,
    DPUCBBatchResult,
    _checkpoints,
    _dpucb_generators,
    _dpucb_setup,
    _means_rows,
    _rows,
    _seeds,
)
from reference.rng import SeedLike, as_generator
from reference.sajed_sheffet.constants import dpse_epoch_parameters
from reference.validation import (
    check_alpha,
    check_array,
    check_bool,
    check_choice,
    check_int_at_least,
)

__all__ = [
    "CHUNK_ROUNDS",
    "dpse_bernoulli_compiled",
    "dpucb_bernoulli_compiled",
    "dpucb_table_compiled",
]

CHUNK_ROUNDS = 1 << 16
"""Rounds per call of the compiled DP-UCB loop: progress is reported between calls; results do not
depend on it (read at call time)."""

# DP-UCB integer state: rounds done, next checkpoint
_DONE, _NEXT = range(2)
_NO_TABLE = np.zeros((0, 1))


# --------------------------------------------------------------------------------------------
# DP-SE (Algorithm 3) on Bernoulli arms
# --------------------------------------------------------------------------------------------


@compiled
def _dpse_run(
    mu: FloatArray,
    T: int,
    E: int,
    rounds: IntArray,
    threshold: FloatArray,
    noise_scale: FloatArray,
    rng: np.random.Generator,
    pulls: IntArray,
    elim_round: IntArray,
    elim_epoch: IntArray,
    viable_at: IntArray,
    after: IntArray,
    t_end: IntArray,
) -> int:
    """One replicate of :func:`~reference.engine.mab.dpse_bernoulli_batch`; returns the number
    ``c`` of completed epochs.

    ``rounds[s, e]`` etc. are the parameters of epoch ``e ≤ E`` with ``|S| = s``; any later epoch
    is truncated (``E`` is chosen so).  Records ``viable_at[j]`` (``S`` after ``j`` epochs, ``j ≤ c``),
    ``after[j − 1]`` (pulls after epoch ``j ≥ 1``) and ``t_end[j]`` (round after ``j`` epochs).
    """
    K = mu.size
    viable = np.ones(K, dtype=np.bool_)
    size = K
    mubar = np.empty(K)
    noisy = np.empty(K)
    t = 0
    epoch = 0
    for k in range(K):
        viable_at[0, k] = 1
    t_end[0] = 0
    while size > 1 and t < T:
        epoch += 1
        length = rounds[size, epoch] * size if epoch <= E else T + 1
        if t + length > T:  # truncated: the remaining pulls round-robin over S, nothing released
            rest = T - t
            extra = rest % size
            for k in range(K):
                if viable[k]:
                    pulls[k] += rest // size + (1 if extra > 0 else 0)
                    extra -= 1
            return epoch - 1
        r_e = rounds[size, epoch]
        for k in range(K):  # the |S| binomial epoch sums, ascending arms
            if viable[k]:
                mubar[k] = float(rng.binomial(r_e, mu[k])) / r_e
        scale = noise_scale[size, epoch]
        top = -math.inf
        for k in range(K):  # then the |S| Laplace noises (line 17)
            if viable[k]:
                noisy[k] = mubar[k] + rng.laplace(0.0, scale) if scale > 0.0 else mubar[k]
                top = max(top, noisy[k])
        t += length
        for k in range(K):
            if viable[k]:
                pulls[k] += r_e
        for k in range(K):  # lines 18-20
            if viable[k] and top - noisy[k] > threshold[size, epoch]:
                viable[k] = False
                size -= 1
                elim_round[k] = t
                elim_epoch[k] = epoch
        for k in range(K):
            viable_at[epoch, k] = 1 if viable[k] else 0
            after[epoch - 1, k] = pulls[k]
        t_end[epoch] = t
    if t < T:  # the last viable arm in all remaining rounds (line 22)
        for k in range(K):
            if viable[k]:
                pulls[k] += T - t
                break
    return epoch


@compiled
def _dpse_regret(
    marks: IntArray,
    T: int,
    c: int,
    gaps: FloatArray,
    viable_at: IntArray,
    t_end: IntArray,
    base: FloatArray,
    out: FloatArray,
) -> None:
    """Regret at the checkpoints of one replicate: on segment ``j`` (rounds ``t_end[j]+1 ..``, the
    next epoch or ``T``) the pulls go round-robin over ``S = viable_at[j]``, so the regret is the
    numpy engine's ``base + ⌊o/|S|⌋·Σ_S Δ + prefix[o mod |S|]`` with ``o`` the offset."""
    K = gaps.size
    prefix = np.empty(K + 1)
    for j in range(c + 1):
        start = t_end[j]
        stop = t_end[j + 1] if j < c else T
        if start >= stop:
            continue
        prefix[0] = 0.0
        size = 0
        for k in range(K):  # np.cumsum over the gaps of S (sequential)
            if viable_at[j, k]:
                prefix[size + 1] = prefix[size] + gaps[k]
                size += 1
        for i in range(marks.size):
            if start < marks[i] <= stop:
                offset = marks[i] - start
                out[i] = base[j] + (offset // size) * prefix[size] + prefix[offset % size]


def _epoch_tables(
    K: int, T: int, beta: float, epsilon: float, noise_on: Literal["r", "R_e"]
) -> tuple[int, IntArray, FloatArray, FloatArray]:
    """``E`` and the epoch parameters ``rounds, threshold, noise_scale`` indexed ``[|S|, e]`` for
    ``2 ≤ |S| ≤ K`` and ``1 ≤ e ≤ E``, ``E`` the first epoch with ``2 r_e > T``: every later epoch
    (``r_e`` grows with ``e`` and ``|S|``) has ``|S| r_e > T`` rounds and is truncated."""
    E = 0
    while True:
        E += 1
        if 2 * dpse_epoch_parameters(2, E, beta, epsilon, noise_on=noise_on).rounds > T:
            break
    rounds = np.zeros((K + 1, E + 1), dtype=np.int64)
    threshold = np.zeros((K + 1, E + 1))
    scale = np.zeros((K + 1, E + 1))
    for s in range(2, K + 1):
        for e in range(1, E + 1):
            p = dpse_epoch_parameters(s, e, beta, epsilon, noise_on=noise_on)
            rounds[s, e], threshold[s, e], scale[s, e] = p.rounds, p.threshold, p.noise_scale
    return E, rounds, threshold, scale


def dpse_bernoulli_compiled(
    means: FloatArray | Sequence[float],
    T: int,
    epsilon: FloatArray | Sequence[float] | float,
    beta: float,
    seeds: Sequence[np.random.SeedSequence],
    *,
    noise_on: Literal["r", "R_e"] = "r",
    checkpoints: Sequence[int] | IntArray | None = None,
    workers: int | None = None,
) -> DPSEBatchResult:
    """Algorithm 3 on Bernoulli arms for ``R = len(seeds)`` replicates, each one compiled loop.

    Arguments and result as :func:`reference.engine.mab.dpse_bernoulli_batch` (equal to it bit for
    bit), plus ``workers``: threads running replicates at once (default: the cores this process may
    use).  Work ``O(#epochs · K)`` per replicate; memory ``O(K log T)``.
    """
    R = _seeds(seeds)
    mu = _means_rows(means, R)
    K = int(mu.shape[1])
    T = check_int_at_least("T", T, 1)
    eps = _rows("epsilon", epsilon, R, allow_inf=True)
    b = check_alpha(beta, "beta")
    check_choice("noise_on", noise_on, ("r", "R_e"))
    marks = _checkpoints(checkpoints, T)
    workers = resolve_workers(workers)
    tables = {e: _epoch_tables(K, T, b, e, noise_on) for e in sorted(set(eps.tolist()))}
    E_max = max(table[0] for table in tables.values())
    gaps = mu.max(axis=1, keepdims=True) - mu
    pulls = np.zeros((R, K), dtype=np.int64)
    elim_round = np.full((R, K), -1, dtype=np.int64)
    elim_epoch = np.full((R, K), -1, dtype=np.int64)
    epochs = np.zeros(R, dtype=np.int64)
    viable_at = np.zeros((R, E_max + 1, K), dtype=np.int64)
    after = np.zeros((R, E_max, K), dtype=np.int64)
    t_end = np.zeros((R, E_max + 2), dtype=np.int64)

    def replicate(r: int, _first: int, _last: int) -> bool:
        rng = np.random.default_rng(seeds[r])
        E, rounds, threshold, scale = tables[float(eps[r])]
        epochs[r] = _dpse_run(mu[r], T, E, rounds, threshold, scale, rng, pulls[r],
                              elim_round[r], elim_epoch[r], viable_at[r], after[r], t_end[r])  # fmt: skip
        return True

    # one call per replicate: its work is O(#epochs · K), not one step per round
    run_chunked(R, 1, workers=workers, chunk=1, progress=False, step=replicate)
    # the regret at each epoch's start: the numpy engine's einsum, row by row on the same operands
    base = np.zeros((R, E_max + 1))
    done = np.arange(E_max)[None, :] < epochs[:, None]
    rows, cols = np.nonzero(done)
    if rows.size:
        base[rows, cols + 1] = np.einsum(
            "rk,rk->r", gaps[rows], after[rows, cols].astype(np.float64)
        )
    regret = np.zeros((R, marks.size))
    final = np.empty(R)
    for r in range(R):
        _dpse_regret(marks, T, int(epochs[r]), gaps[r], viable_at[r], t_end[r], base[r], regret[r])
        final[r] = float(np.dot(gaps[r], pulls[r]))
    regret[:, -1] = final if marks[-1] == T else regret[:, -1]
    return DPSEBatchResult(pulls, elim_round, elim_epoch, epochs, marks, regret, final)


# --------------------------------------------------------------------------------------------
# DP-UCB (Sec. 5 baseline, reconstruction) on Bernoulli arms
# --------------------------------------------------------------------------------------------


@compiled
def _dpucb_rounds(
    first: int,
    last: int,
    K: int,
    m: int,
    mu: FloatArray,
    gaps: FloatArray,
    scale: float,
    gamma: float,
    environment: np.random.Generator,
    table: FloatArray,
    trees: Any,
    marks: IntArray,
    trace: bool,
    counts: IntArray,
    sums: FloatArray,
    partial: FloatArray,
    mean_term: FloatArray,
    width_term: FloatArray,
    n_float: FloatArray,
    regret: FloatArray,
    state: IntArray,
    recorded: FloatArray,
    arms: IntArray,
) -> None:
    """Rounds ``first .. last`` (1-based) of one replicate of
    :func:`~reference.engine.mab.dpucb_bernoulli_batch`; the state lives in the arrays passed in
    (``partial[a, j]``: the sum, highest level first, of the noises of arm ``a``'s nodes at the set
    bits ``≥ j`` of its count, ``partial[a, m] = 0``; ``regret[0]``: the cumulative regret), so
    consecutive calls continue one run.  Rewards: ``table[t − 1, arm]`` when ``table`` has rows,
    else a Bernoulli(``mu[arm]``) draw from ``environment``."""
    for t in range(first, last + 1):
        if t <= K:
            arm = t - 1
        else:  # argmax (Ŝ/n + √(2 log t / n)) + γ/n, ties to the lowest index
            two_log = 2.0 * math.log(t)
            arm = 0
            top = -math.inf
            for a in range(K):
                value = (mean_term[a] + math.sqrt(two_log / n_float[a])) + width_term[a]
                if value > top:
                    top = value
                    arm = a
        if table.shape[0] > 0:
            reward = table[t - 1, arm]
        else:
            reward = 1.0 if environment.random() < mu[arm] else 0.0
        count = counts[arm] + 1
        counts[arm] = count
        total = sums[arm] + reward
        sums[arm] = total
        # leaf `count` completes the nodes of levels 0..ctz(count): one Laplace draw each, level 0
        # first; the set bits above ctz(count) are unchanged, the one at ctz(count) is new
        # (count ≤ T ≤ 2^(m−1), so ctz(count) < m)
        low = 0
        while (count >> low) & 1 == 0:
            low += 1
        tree = trees[arm]
        noise = 0.0
        for _ in range(low + 1):  # levels 0..low, level 0 first
            noise = tree.laplace(0.0, scale)
        acc = partial[arm, low + 1] + noise
        for level in range(low + 1):
            partial[arm, level] = acc
        release = total + acc
        n_new = float(count)
        n_float[arm] = n_new
        mean_term[arm] = release / n_new
        width_term[arm] = gamma / n_new
        regret[0] = regret[0] + gaps[arm]
        if trace:
            arms[t - 1] = arm
        while state[_NEXT] < marks.size and marks[state[_NEXT]] == t:
            recorded[state[_NEXT]] = regret[0]
            state[_NEXT] += 1
    state[_DONE] = last


def dpucb_bernoulli_compiled(
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
    workers: int | None = None,
    progress: bool = False,
    width_factor: float = 1.0,
) -> DPUCBBatchResult:
    """The DP-UCB baseline for ``R = len(seeds)`` replicates, each one compiled loop.

    Arguments and result as :func:`reference.engine.mab.dpucb_bernoulli_batch` (equal to it bit for
    bit), plus ``workers`` (threads running replicates at once; default: the cores this process may
    use) and ``progress`` (a tqdm bar of replicate-rounds).  Per round ``O(K)`` work; memory
    ``O(K log T)`` per replicate unless ``trace=True``.  The first call in a process compiles the
    loop (or loads it from numba's on-disk cache).
    """
    setup = _dpucb_setup(
        means, T, epsilon, seeds, calibration, beta_u, checkpoints, trace, rounds, width_factor
    )
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    R, K, stop, m, marks = setup.R, setup.K, setup.stop, setup.m, setup.checkpoints
    gaps = setup.means.max(axis=1, keepdims=True) - setup.means
    regret = np.zeros((R, marks.size))
    totals = np.zeros((R, 1))
    counts = np.zeros((R, K), dtype=np.int64)
    states = np.zeros((R, 2), dtype=np.int64)
    arms = np.zeros((R, stop if setup.trace else 0), dtype=np.int64)
    # each replicate's environment and its arms' tree streams (a numba typed list), built once
    generators = [
        (environment, typed.List(trees))
        for environment, trees in (_dpucb_generators(seeds[r], K) for r in range(R))
    ]
    sums, partial = np.zeros((R, K)), np.zeros((R, K, m + 1))
    mean_term, width_term, n_float = np.zeros((R, K)), np.zeros((R, K)), np.ones((R, K))

    def step(r: int, first: int, last: int) -> bool:
        environment, trees = generators[r]
        _dpucb_rounds(first, last, K, m, setup.means[r], gaps[r], float(setup.scale[r]),
                      float(setup.gamma[r]), environment, _NO_TABLE, trees, marks,
                      setup.trace, counts[r], sums[r], partial[r], mean_term[r], width_term[r],
                      n_float[r], totals[r], states[r], regret[r], arms[r])  # fmt: skip
        return True

    run_chunked(R, stop, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    return DPUCBBatchResult(
        counts, marks, regret, regret[:, -1].copy(), setup.gamma, arms if setup.trace else None
    )


def dpucb_table_compiled(
    rewards: FloatArray,
    means: FloatArray | Sequence[float],
    epsilon: float,
    rng: np.random.Generator | SeedLike,
    *,
    calibration: Calibration = "per_tree",
    beta_u: float | None = None,
) -> DPUCBBatchResult:
    """The DP-UCB baseline on a given reward table, one compiled loop, making the choices of
    :class:`~reference.sajed_sheffet.bandits.DPUCB` (``pad="none"``) driven round by round.

    ``rewards[t − 1, a]`` (shape ``(T, K)``, values in ``[0, 1]``) is what arm ``a`` pays on round
    ``t``; ``DPUCB(K, T, epsilon, rng, calibration=..., beta_u=...)`` then
    ``select_arm``/``update(arm, rewards[t − 1, arm])`` for ``t = 1 .. T`` pulls the arms of
    ``result.arms[0]``, bit for bit: the ``K`` trees' Laplace streams are split from ``rng`` as the
    class splits them (``rng`` is advanced the same way; a seed is converted as the class converts
    it).  ``result.final_regret[0]`` is the pseudo-regret ``Σ_t (max(means) − means[arm_t])``,
    summed in round order.
    """
    rng = as_generator(rng)
    table = check_array("rewards", rewards, ndim=2)
    if table.shape[1] < 1 or table.shape[0] < max(2, table.shape[1]):
        raise ValueError(
            "rewards must have at least 2 rows (rounds) and as many as it has columns (arms), "
            f"got shape {table.shape}"
        )
    if np.any(table < 0.0) or np.any(table > 1.0):
        raise ValueError(
            f"rewards must be in [0, 1], got values from {table.min()!r} to {table.max()!r}"
        )
    T, K = table.shape
    setup = _dpucb_setup(
        means, T, epsilon, [np.random.SeedSequence(0)], calibration, beta_u, None, True, None
    )
    if setup.K != K:
        raise ValueError(f"means must have one value per column of rewards ({K}), got {setup.K}")
    children = rng.spawn(3 * K)  # = K successive NoiseStreams.split (3 each), as DPUCB's trees
    trees = typed.List([children[3 * a + 2] for a in range(K)])
    mu = setup.means[0]
    gaps = mu.max() - mu
    marks = setup.checkpoints
    counts, totals, state = np.zeros(K, dtype=np.int64), np.zeros(1), np.zeros(2, dtype=np.int64)
    regret, arms = np.zeros(marks.size), np.zeros(T, dtype=np.int64)
    _dpucb_rounds(1, T, K, setup.m, mu, gaps, float(setup.scale[0]), float(setup.gamma[0]),
                  np.random.default_rng(0), np.ascontiguousarray(table), trees, marks, True,
                  counts, np.zeros(K), np.zeros((K, setup.m + 1)), np.zeros(K), np.zeros(K),
                  np.ones(K), totals, state, regret, arms)  # fmt: skip
    return DPUCBBatchResult(
        counts[None, :], marks, regret[None, :], totals.copy(), setup.gamma, arms[None, :]
    )
