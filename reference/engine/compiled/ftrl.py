"""Agarwal & Singh as compiled loops: private FTRL with the padded tree on the experts simplex
(Algorithms 1–2, Cor. 3.2; E4) and the private reduction over EXP2 (Algorithms 4–5, Thm 4.1; E7).

:func:`run_ftrl_compiled` gives group ``g`` exactly ``PrivateFTRL`` with ``LaplaceNoise((G, N), λ)``
and ``rng = seeds[g]`` (``G = runs_per_seed``); :func:`run_exp2_compiled` gives replicate ``r`` the
reference reduction on the ``arms``/``reduction`` streams of ``seeds[r]``.  Both draw the
reference's numbers, by numba, from its own generators in its order, so points (to rounding) and
arms equal the reference's.  ``O(N)`` work per round besides Algorithm 2's padding draws; memory
``O(N log T)`` unless ``trace=True``.  The bandit part is described in
``alg4_lemma42_reduction.md`` beside this note.

Proof note: ``proofs_notes/agarwal_singh/alg1_thm31_thm34_ftrl.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.agarwal_singh.aggregation import Calibration, noise_draws_per_release
from reference.agarwal_singh.sets import LossSet
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.engine.compiled._parallel import compiled, resolve_workers, run_chunked
from reference.engine.compiled.linucb import CHUNK_ROUNDS
from reference.rng import (
    NoiseStreams,
    SeedLike,
    as_generator,
    as_seed_sequence,
    named_generators,
)
from reference.sajed_sheffet.constants import check_epsilon_or_inf
from reference.tree import tree_depth
from reference.validation import (
    check_array,
    check_bool,
    check_choice,
    check_instance,
    check_int_array,
    check_positive,
    check_size,
)

__all__ = [
    "EXP2BatchResult",
    "ExpertsInstance",
    "FTRLBatchResult",
    "FTRLRegularizer",
    "MABInstance",
    "run_exp2_compiled",
    "run_ftrl_compiled",
    "run_ftrl_losses_compiled",
]

ExpertsInstance: TypeAlias = Literal["minimax", "gap", "ftl_trap"]
"""E4's deterministic experts sequences (``audit.papers.agarwal_singh.repro_ftrl``)."""
MABInstance: TypeAlias = Literal["constant_gap", "switching"]
"""E7's deterministic bandit sequences (``audit.papers.agarwal_singh.repro_bandits``)."""

_SWITCH_GAP = 0.1
"""Gap of E7's switching instance (best arm ``0.5 − 0.1`` on each of three segments)."""


# --------------------------------------------------------------------------------------------
# Shared compiled pieces
# --------------------------------------------------------------------------------------------


@compiled
def _pairwise_block(a: FloatArray, lo: int, n: int) -> float:
    """numpy's pairwise summation of ``a[lo:lo+n]`` for ``n ≤ 128`` (eight accumulators)."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[lo + i]
        return res
    r = np.empty(8)
    for j in range(8):
        r[j] = a[lo + j]
    i = 8
    while i < n - (n % 8):
        for j in range(8):
            r[j] += a[lo + i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[lo + i]
        i += 1
    return float(res)


@compiled
def _pairwise_sum(a: FloatArray, lo: int, n: int) -> float:
    """``a[lo:lo+n].sum()`` in numpy's order: halves (rounded to multiples of 8) down to blocks of
    at most 128, added back in post-order (an explicit stack: numba does not cache recursion)."""
    if n <= 128:
        return _pairwise_block(a, lo, n)
    starts = np.empty(64, dtype=np.int64)
    sizes = np.empty(64, dtype=np.int64)
    stages = np.empty(64, dtype=np.int64)
    partial = np.empty(64)
    top, done = 0, 0
    starts[0], sizes[0], stages[0] = lo, n, 0
    while top >= 0:
        first, size = starts[top], sizes[top]
        if size <= 128:
            partial[done] = _pairwise_block(a, first, size)
            done += 1
            top -= 1
            continue
        half = size // 2
        half -= half % 8
        if stages[top] == 0:
            stages[top] = 1
            top += 1
            starts[top], sizes[top], stages[top] = first, half, 0
        elif stages[top] == 1:
            stages[top] = 2
            top += 1
            starts[top], sizes[top], stages[top] = first + half, size - half, 0
        else:
            partial[done - 2] = partial[done - 2] + partial[done - 1]
            done -= 1
            top -= 1
    return float(partial[0])


@compiled
def _exp_weights(logits: FloatArray, N: int, out: FloatArray) -> None:
    """``out`` ← ``w / w.sum()`` with ``w = exp(logits − max logits)`` (max-subtraction)."""
    top = logits[0]
    for i in range(1, N):
        top = max(top, logits[i])
    for i in range(N):
        out[i] = math.exp(logits[i] - top)
    total = _pairwise_sum(out, 0, N)
    for i in range(N):
        out[i] = out[i] / total


@compiled
def _accumulate(sums: FloatArray, k: int, value: float) -> None:
    """``sums[0, k] += value`` with Neumaier's compensation kept in ``sums[1, k]`` (running sums
    over ``T`` rounds stay exact to rounding, as the reference's pairwise sums are)."""
    s = sums[0, k]
    t = s + value
    if abs(s) >= abs(value):
        sums[1, k] += (s - t) + value
    else:
        sums[1, k] += (value - t) + s
    sums[0, k] = t


# --------------------------------------------------------------------------------------------
# Private FTRL on the experts simplex (Algorithms 1 and 2, Cor. 3.2)
# --------------------------------------------------------------------------------------------


@compiled
def _expert_loss(t: int, N: int, first: float, other: float, trap: bool, out: FloatArray) -> None:
    """``l_t`` (``t`` 0-based) of an experts instance: ``(first, other, …)``, or ``ftl_trap``."""
    if trap:
        if t == 0:
            out[0], out[1] = 0.5, 0.0
        elif t % 2 == 1:
            out[0], out[1] = 0.0, 1.0
        else:
            out[0], out[1] = 1.0, 0.0
        return
    out[0] = first
    for i in range(1, N):
        out[i] = other


@compiled
def _release(
    count: int,
    K: int,
    G: int,
    N: int,
    scale: float,
    noisy: bool,
    pad_rng: np.random.Generator,
    total: FloatArray,
    cum: FloatArray,
    pad: FloatArray,
    out: FloatArray,
) -> None:
    """``out`` ← ``L̃_count`` of every replicate of the group (Algorithm 2, lines 3–7): the stored
    node noise of the dyadic prefix (``cum`` at its lowest set bit) plus ``r = K − popcount``
    padding vectors drawn as ``laplace(size=(r, G, N))`` and summed over the first axis."""
    if not noisy:
        for g in range(G):
            for i in range(N):
                out[g, i] = total[0, i] + total[1, i]
        return
    r = K
    c = count
    while c:
        r -= c & 1
        c >>= 1
    for k in range(r):
        for g in range(G):
            for i in range(N):
                draw = pad_rng.laplace(0.0, scale)
                pad[g, i] = draw if k == 0 else pad[g, i] + draw
    low = -1
    if count > 0:
        low = 0
        while not (count >> low) & 1:
            low += 1
    for g in range(G):
        for i in range(N):
            base = cum[low, g, i] if low >= 0 else 0.0
            noise = base + pad[g, i] if r > 0 else base
            out[g, i] = ((total[0, i] + total[1, i]) + base) + (noise - base)


_ENTROPY, _BALL, _CUBE = 0, 1, 2
"""Regularizer kinds: ``NegativeEntropySimplex``, ``SquaredNormBall`` (``r = 1``) and
``SquaredNormCube`` (``w = 1``) of :mod:`reference.agarwal_singh.sets` (Cor. 3.2)."""


@compiled
def _ftrl_point(
    kind: int, eta: float, theta: FloatArray, g: int, N: int, work: FloatArray, x: FloatArray
) -> None:
    """``x`` ← ``argmin_{x∈X} η<x, θ_g> + R(x)`` as the regularizer's ``argmin`` computes it:
    exponential weights; ``u = −ηθ/2`` scaled into the unit ball; or clipped to ``[−1, 1]``."""
    if kind == _ENTROPY:
        for i in range(N):
            work[i] = -eta * theta[g, i]
        _exp_weights(work, N, x)
        return
    norm2 = 0.0
    for i in range(N):
        x[i] = -eta * theta[g, i] / 2.0
        norm2 += x[i] * x[i]
    if kind == _BALL:
        norm = math.sqrt(norm2)
        factor = min(1.0, 1.0 / norm) if norm > 0.0 else 1.0
        for i in range(N):
            x[i] = x[i] * factor
        return
    for i in range(N):
        x[i] = min(max(x[i], -1.0), 1.0)


@compiled
def _comparator(kind: int, total: FloatArray, N: int) -> float:
    """``min_{x∈X} <L, x>`` for the compensated running sum ``L`` in ``total``: ``min_i L_i`` on
    the simplex, ``−‖L‖₂`` on the unit ball, ``−‖L‖₁`` on the cube."""
    best = total[0, 0] + total[1, 0]
    acc = 0.0
    for i in range(N):
        L = total[0, i] + total[1, i]
        if kind == _ENTROPY:
            best = min(best, L)
        else:
            acc += L * L if kind == _BALL else abs(L)
    if kind == _ENTROPY:
        return float(best)
    return -math.sqrt(acc) if kind == _BALL else -acc


@compiled
def _ftrl_rounds(
    first: int,
    last: int,
    T: int,
    N: int,
    G: int,
    K: int,
    m: int,
    eta: float,
    scale: float,
    noisy: bool,
    loss_first: float,
    loss_other: float,
    trap: bool,
    losses: FloatArray,
    kind: int,
    pad_rng: np.random.Generator,
    node_rng: np.random.Generator,
    total: FloatArray,
    cum: FloatArray,
    theta: FloatArray,
    incurred: FloatArray,
    marks: IntArray,
    state: IntArray,
    recorded: FloatArray,
    trace: bool,
    actions: FloatArray,
) -> None:
    """Rounds ``first .. last`` (1-based) of one group of ``G`` replicates sharing a generator.

    ``l_t`` is ``losses[t − 1]``, or the experts instance (``loss_first``, ``loss_other``,
    ``trap``) when ``losses`` has no rows; ``kind`` is the regularizer (``_ENTROPY``, ``_BALL``,
    ``_CUBE``).  State lives in the arrays passed in, so consecutive calls continue one run: ``total``
    (``Σ_{s≤t} l_s`` and its compensation), ``cum[j]`` (the node noise summed from the highest set
    bit of ``t`` down to bit ``j``), ``theta`` (``L̃_t``), ``incurred`` (``Σ <l_s, x_s>`` and its
    compensation), ``state[0]`` (the next checkpoint)."""
    loss = np.empty(N)
    logits = np.empty(N)
    x = np.empty(N)
    pad = np.empty((G, N))
    if first == 1:  # Alg. 1, lines 2-3: L̃_0, K fresh draws
        _release(0, K, G, N, scale, noisy, pad_rng, total, cum, pad, theta)
    given = losses.shape[0] > 0
    for t in range(first, last + 1):
        if given:
            for i in range(N):
                loss[i] = losses[t - 1, i]
        else:
            _expert_loss(t - 1, N, loss_first, loss_other, trap, loss)
        for g in range(G):
            # Alg. 1, line 5: x_t = argmin <x, η L̃_{t−1}> + R(x)
            _ftrl_point(kind, eta, theta, g, N, logits, x)
            acc = 0.0
            for i in range(N):
                acc += loss[i] * x[i]
            _accumulate(incurred, g, acc)
            if trace:
                for i in range(N):
                    actions[g, t - 1, i] = x[i]
        # Alg. 1, line 7: l_t enters the tree; the nodes ending at leaf t draw their noise
        for i in range(N):
            _accumulate(total, i, loss[i])
        if noisy:
            # nodes (j, t/2^j) complete for j <= tz(t); only j = tz(t) has an odd index, i.e. is
            # in a dyadic prefix (the others are drawn, as the reference draws them, and unused)
            low = 0
            while not (t >> low) & 1:
                low += 1
            above = low + 1
            while above < m and not (t >> above) & 1:
                above += 1
            for level in range(min(low, m - 1) + 1):
                for g in range(G):
                    for i in range(N):
                        draw = node_rng.laplace(0.0, scale)
                        if level == low:
                            cum[level, g, i] = cum[above, g, i] + draw if above < m else draw
        _release(t, K, G, N, scale, noisy, pad_rng, total, cum, pad, theta)
        while state[0] < marks.size and marks[state[0]] == t:
            best = _comparator(kind, total, N)
            for g in range(G):
                recorded[g, state[0]] = (incurred[0, g] + incurred[1, g]) - best
            state[0] += 1


@dataclass(frozen=True)
class FTRLBatchResult:
    """Result of :func:`run_ftrl_compiled`.

    Attributes:
        checkpoints: ``(C,)`` rounds at which the regret is recorded.
        regret: ``(R, C)`` realised regret ``Σ_{s≤t} <l_s, x_s> − min_i Σ_{s≤t} l_s(i)``,
            replicate ``r = g·runs_per_seed + j`` (group ``g``, noise row ``j``).
        actions: ``(R, T, N)`` the points ``x_t`` when ``trace=True``, else None.
    """

    checkpoints: IntArray
    regret: FloatArray
    actions: FloatArray | None


def _check_seeds(seeds: Sequence[SeedLike]) -> list[np.random.Generator]:
    """One generator per seed (``default_rng`` of an integer ``≥ 0`` or of a copy of a
    ``SeedSequence``, so that the caller's is not advanced by the tree's ``spawn``)."""
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence):
        raise ValueError(f"seeds must be a sequence of seeds, got {seeds!r:.80}")
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one seed")
    out = []
    for i, seed in enumerate(seeds):
        if isinstance(seed, np.random.Generator):
            raise ValueError(
                f"seeds[{i}] must be an integer >= 0 or a numpy SeedSequence, got a Generator "
                "(its state would be consumed)"
            )
        if isinstance(seed, np.random.SeedSequence):  # a copy: spawning children counts them
            seed = np.random.SeedSequence(
                seed.entropy,
                spawn_key=seed.spawn_key,
                pool_size=seed.pool_size,
                n_children_spawned=seed.n_children_spawned,
            )
        out.append(as_generator(seed, f"seeds[{i}]"))
    return out


def _check_losses(losses: FloatArray, least: int) -> FloatArray:
    """A finite oblivious sequence ``(T, N)``, ``T ≥ 1``, ``N ≥ least``, as a C-contiguous copy."""
    out = np.ascontiguousarray(check_array("losses", losses, ndim=2), dtype=np.float64)
    if out.shape[0] < 1 or out.shape[1] < least:
        raise ValueError(
            f"losses must have shape (T, N) with T >= 1 and N >= {least}, got {out.shape}"
        )
    return out


def _check_checkpoints(checkpoints: Sequence[int] | IntArray | None, T: int) -> IntArray:
    if checkpoints is None:
        return np.array([T], dtype=np.int64)
    if isinstance(checkpoints, str | bytes):
        raise ValueError(f"checkpoints must be a sequence of rounds, got {checkpoints!r:.80}")
    marks = check_int_array("checkpoints", checkpoints, 1, ndim=1)
    if marks.size == 0 or np.any(marks > T) or np.any(np.diff(marks) <= 0):
        raise ValueError(
            f"checkpoints must be a non-empty strictly increasing sequence of rounds in "
            f"[1, T] = [1, {T}], got {marks.tolist()}"
        )
    return marks.astype(np.int64)


def run_ftrl_compiled(
    instance: ExpertsInstance,
    *,
    N: int,
    T: int,
    epsilon: float,
    seeds: Sequence[SeedLike],
    runs_per_seed: int = 1,
    calibration: Calibration = "strict",
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    progress: bool = False,
    workers: int | None = None,
) -> FTRLBatchResult:
    """Private FTRL (Algorithm 1 with Algorithm 2's padded tree) on E4's experts ``instance``.

    Parameters are Cor. 3.2's for the simplex with ``Y = [0, 1]^N``
    (:func:`~reference.agarwal_singh.theorems.cor32_parameters` with ``experts_losses="box01"``;
    ``η`` does not depend on ``ε``, taken at ``ε = 1`` when ``ε = ∞``).  Group ``g`` is the
    reference run ``run_full_info(PrivateFTRL(NegativeEntropySimplex(N), η, LaplaceNoise((G, N),
    λ), T, seeds[g], loss_set=Y), losses)`` with ``G = runs_per_seed``; at ``ε = ∞`` the noise is
    :class:`~reference.noise.ZeroNoise`, every replicate is the same deterministic run, computed
    once.

    Args:
        instance: ``"minimax"`` (:func:`~reference.agarwal_singh.environments.experts_minimax`,
            ``T ≥ 4 ln N``), ``"gap"`` (``(0.3, 0.5, …)``) or ``"ftl_trap"`` (``N = 2``).
        N: number of experts (``≥ 2``).
        T: horizon (``≥ 1``; ``≥ 2`` for ``calibration="paper"``).
        epsilon: ``ε ∈ (0, ∞]``.
        seeds: one seed per group (integer ``≥ 0`` or ``SeedSequence``).
        runs_per_seed: replicates per group, the leading axis of its Laplace noise.
        calibration: ``"strict"`` or ``"paper"`` Laplace scale (Thm 3.1).
        checkpoints: rounds at which to record the regret (default ``(T,)``).
        trace: keep the points ``x_t`` (memory ``R·T·N``).
        progress: show a progress bar.
        workers: threads running groups at once (default: the cores this process may use).

    Raises:
        ValueError: naming the parameter, for any argument out of its range.
    """
    check_choice("instance", instance, get_args(ExpertsInstance))
    N = check_size("N", N, 2, item_bytes=8, what="a loss entry")
    T = check_size("T", T, 1)
    epsilon = check_epsilon_or_inf(epsilon)
    generators = _check_seeds(seeds)
    G = check_size("runs_per_seed", runs_per_seed, 1, item_bytes=8 * N, what="a replicate's noise")
    check_choice("calibration", calibration, get_args(Calibration))
    marks = _check_checkpoints(checkpoints, T)
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    trap = instance == "ftl_trap"
    loss_first, loss_other = 0.3, 0.5
    if instance == "minimax":
        gap = math.sqrt(math.log(N) / T)
        if gap > 0.5:
            raise ValueError(f"T must be >= 4 ln N = {4 * math.log(N):.3f}, got {T}")
        loss_first = 0.5 - gap
    elif trap and N != 2:
        raise ValueError(f"N must be 2 for the ftl_trap instance, got {N}")
    params = cor32_parameters(
        "experts",
        N,
        T,
        1.0 if math.isinf(epsilon) else epsilon,
        calibration=calibration,
        experts_losses="box01",
    )
    return _run_ftrl(_ENTROPY, np.zeros((0, N)), (loss_first, loss_other, trap), N, T,
                     params.eta, None if math.isinf(epsilon) else params.lam, generators, G,
                     marks, trace, progress, workers)  # fmt: skip


FTRLRegularizer: TypeAlias = Literal["entropy", "ball", "cube"]
"""Cor. 3.2's regularizers: ``NegativeEntropySimplex(N)`` (experts), ``SquaredNormBall(N)`` (unit
ball) and ``SquaredNormCube(N)`` (cube ``[−1, 1]^N``)."""

_KINDS: dict[str, int] = {"entropy": _ENTROPY, "ball": _BALL, "cube": _CUBE}


def run_ftrl_losses_compiled(
    regularizer: FTRLRegularizer,
    *,
    losses: FloatArray,
    eta: float,
    lam: float | None,
    seeds: Sequence[SeedLike],
    runs_per_seed: int = 1,
    loss_set: LossSet | None = None,
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    progress: bool = False,
    workers: int | None = None,
) -> FTRLBatchResult:
    """Private FTRL (Algorithm 1 with Algorithm 2's padded tree) on an oblivious sequence.

    Group ``g`` is the reference run ``run_full_info(PrivateFTRL(R, η, LaplaceNoise((G, N), λ), T,
    seeds[g], loss_set=loss_set), losses)`` with ``G = runs_per_seed`` and ``R`` the
    ``regularizer``; ``lam=None`` is :class:`~reference.noise.ZeroNoise`, every replicate the same
    deterministic run, computed once.  ``λ`` must be calibrated for the loss set (Thm 3.1,
    :func:`~reference.agarwal_singh.theorems.cor32_parameters`); declared, every loss is checked
    to lie in it, as ``PrivateFTRL`` checks.

    Args:
        regularizer: ``"entropy"`` (the simplex), ``"ball"`` (``‖x‖²`` on the unit ball) or
            ``"cube"`` (``‖x‖²`` on ``[−1, 1]^N``).
        losses: ``(T, N)`` finite losses, ``T ≥ 1``, ``N ≥ 1`` (``≥ 2`` on the simplex).
        eta: learning rate ``η > 0``.
        lam: Laplace scale ``λ > 0`` of the tree's nodes, or None.
        seeds: one seed per group (integer ``≥ 0`` or ``SeedSequence``).
        runs_per_seed: replicates per group, the leading axis of its Laplace noise.
        loss_set: the declared ``Y`` (``LossSet`` of dimension ``N``), or None.
        checkpoints: rounds at which to record the regret (default ``(T,)``).
        trace: keep the points ``x_t`` (memory ``R·T·N``).
        progress: show a progress bar.
        workers: threads running groups at once (default: the cores this process may use).

    Raises:
        ValueError: naming the parameter, for any argument out of its range, and for a loss
            outside ``loss_set``.
    """
    check_choice("regularizer", regularizer, get_args(FTRLRegularizer))
    losses = _check_losses(losses, 2 if regularizer == "entropy" else 1)
    T, N = losses.shape
    if loss_set is not None:
        check_instance("loss_set", loss_set, LossSet)
        if loss_set.dim != N:
            raise ValueError(f"loss_set must have dimension N = {N}, got {loss_set.dim}")
        if not loss_set.contains(losses):
            raise ValueError(f"losses must lie in the declared loss set {loss_set}")
    eta = check_positive("eta", eta)
    scale = check_positive("lam", lam) if lam is not None else None
    generators = _check_seeds(seeds)
    G = check_size("runs_per_seed", runs_per_seed, 1, item_bytes=8 * N, what="a replicate's noise")
    marks = _check_checkpoints(checkpoints, T)
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    return _run_ftrl(_KINDS[regularizer], losses, (0.0, 0.0, False), N, T, eta, scale,
                     generators, G, marks, trace, progress, workers)  # fmt: skip


def _run_ftrl(
    kind: int,
    losses: FloatArray,
    instance: tuple[float, float, bool],
    N: int,
    T: int,
    eta: float,
    scale: float | None,
    generators: list[np.random.Generator],
    G: int,
    marks: IntArray,
    trace: bool,
    progress: bool,
    workers: int,
) -> FTRLBatchResult:
    """The groups of :func:`run_ftrl_compiled` / :func:`run_ftrl_losses_compiled` on threads."""
    noisy = scale is not None
    K, m = noise_draws_per_release(T), tree_depth(T)
    groups = len(generators) if noisy else 1
    rows = G if noisy else 1
    C = int(marks.size)
    recorded = np.zeros((groups, rows, C))
    actions = np.zeros((groups, rows, T if trace else 0, N))
    pad_rngs, node_rngs = [], []
    for rng in generators[:groups]:
        pad_rngs.append(rng)
        node_rngs.append(NoiseStreams.split(rng).laplace)  # as TreeAggregator does
    totals = np.zeros((groups, 2, N))
    cums = np.zeros((groups, m, rows, N))
    thetas = np.zeros((groups, rows, N))
    incurred = np.zeros((groups, 2, rows))
    states = np.zeros((groups, 1), dtype=np.int64)
    loss_first, loss_other, trap = instance
    lam = 0.0 if scale is None else scale

    def step(g: int, first: int, last: int) -> bool:
        _ftrl_rounds(first, last, T, N, rows, K, m, eta, lam, noisy, loss_first, loss_other,
                     trap, losses, kind, pad_rngs[g], node_rngs[g], totals[g], cums[g],
                     thetas[g], incurred[g], marks, states[g], recorded[g], trace,
                     actions[g])  # fmt: skip
        return True

    run_chunked(groups, T, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    R = len(generators) * G
    regret = recorded.reshape(groups * rows, C)
    points = actions.reshape(groups * rows, T if trace else 0, N)
    if not noisy:
        regret = np.repeat(regret, R, axis=0)
        points = np.repeat(points, R, axis=0)
    return FTRLBatchResult(
        checkpoints=marks, regret=regret, actions=np.ascontiguousarray(points) if trace else None
    )


# --------------------------------------------------------------------------------------------
# The private bandit reduction over EXP2 (Algorithms 4 and 5, Thm 4.1)
# --------------------------------------------------------------------------------------------


@compiled
def _mab_loss(
    t: int, N: int, best: float, other: float, switch1: int, switch2: int, out: FloatArray
) -> None:
    """``l_t`` (``t`` 0-based): ``other`` everywhere but ``best`` at the segment's best arm
    (segment ``k`` of ``[0, switch1), [switch1, switch2), [switch2, T)``, arm ``k mod N``)."""
    segment = 0 if t < switch1 else (1 if t < switch2 else 2)
    arm = segment % N
    for i in range(N):
        out[i] = best if i == arm else other


@compiled
def _exp2_rounds(
    first: int,
    last: int,
    N: int,
    eta: float,
    gamma: float,
    private: bool,
    scale: float,
    best: float,
    other: float,
    switch1: int,
    switch2: int,
    arms_rng: np.random.Generator,
    reduction_rng: np.random.Generator,
    log_weights: FloatArray,
    total: FloatArray,
    sums: FloatArray,
    marks: IntArray,
    state: IntArray,
    recorded: FloatArray,
    trace: bool,
    arms: IntArray,
    probs: FloatArray,
) -> None:
    """Rounds ``first .. last`` (1-based) of one replicate.

    State lives in the arrays passed in, so consecutive calls continue one run: ``log_weights``,
    ``total`` (``Σ_{s≤t} l_s``), ``sums`` (``[Σ <p_s, l_s>, Σ l_s(i_s)]``; row 1 holds the
    compensations of both) and ``state[0]`` (the next checkpoint)."""
    loss = np.empty(N)
    q = np.empty(N)
    p = np.empty(N)
    cdf = np.empty(N)
    mu = 1.0 / N
    for t in range(first, last + 1):
        _mab_loss(t - 1, N, best, other, switch1, switch2, loss)
        # Alg. 5, line 3: p_t = (1 − γ) q_t + γ μ; i_t ~ p_t as Generator.choice draws it
        _exp_weights(log_weights, N, q)
        for i in range(N):
            p[i] = (1.0 - gamma) * q[i] + gamma * mu
        acc = 0.0
        for i in range(N):
            acc += p[i]
            cdf[i] = acc
        for i in range(N):
            cdf[i] = cdf[i] / acc
        u = arms_rng.random()
        arm = 0
        while arm < N and cdf[arm] <= u:
            arm += 1
        # Alg. 4, lines 3-5: <l_t, x̃_t>, plus <Z_t, x̃_t> with Z_t ~ Lap^N(λ) drawn whole
        value = loss[arm]
        forwarded = value
        if private:
            for i in range(N):
                z = reduction_rng.laplace(0.0, scale)
                if i == arm:
                    forwarded = value + z
        # Alg. 5, lines 4-5: l̂_t = (y_t / p_t(i_t)) e_{i_t}; exponential weights, max-subtracted
        log_weights[arm] = log_weights[arm] - eta * (forwarded / p[arm])
        top = log_weights[0]
        for i in range(1, N):
            top = max(top, log_weights[i])
        for i in range(N):
            log_weights[i] -= top
        expected = 0.0
        for i in range(N):
            expected += p[i] * loss[i]
            _accumulate(total, i, loss[i])
        _accumulate(sums, 0, expected)
        _accumulate(sums, 1, value)
        if trace:
            arms[t - 1] = arm
            for i in range(N):
                probs[t - 1, i] = p[i]
        while state[0] < marks.size and marks[state[0]] == t:
            low = _comparator(_ENTROPY, total, N)  # min_i Σ l_s(i)
            recorded[0, state[0]] = (sums[0, 0] + sums[1, 0]) - low
            recorded[1, state[0]] = (sums[0, 1] + sums[1, 1]) - low
            state[0] += 1


@dataclass(frozen=True)
class EXP2BatchResult:
    """Result of :func:`run_exp2_compiled`.

    Attributes:
        checkpoints: ``(C,)`` rounds at which the regret is recorded.
        pseudo_regret: ``(R, C)`` ``Σ_{s≤t} <p_s, l_s> − min_i Σ_{s≤t} l_s(i)`` (E7's ``regret``).
        regret: ``(R, C)`` realised ``Σ_{s≤t} l_s(i_s) − min_i Σ_{s≤t} l_s(i)``.
        arms: ``(R, T)`` played arms when ``trace=True``, else None.
        probs: ``(R, T, N)`` sampling distributions ``p_t`` when ``trace=True``, else None.
    """

    checkpoints: IntArray
    pseudo_regret: FloatArray
    regret: FloatArray
    arms: IntArray | None
    probs: FloatArray | None


def run_exp2_compiled(
    instance: MABInstance,
    *,
    N: int,
    T: int,
    epsilon: float,
    seeds: Sequence[SeedLike],
    preset: Literal["paper", "proof_consistent"] = "paper",
    calibration: Calibration = "strict",
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    progress: bool = False,
    workers: int | None = None,
) -> EXP2BatchResult:
    """Algorithm 4 over EXP2 with uniform exploration (Algorithm 5) on E7's ``instance``.

    Replicate ``r`` is the reference run of E7's cell with ``seeds[r]``: streams
    ``named_generators(seeds[r], ("arms", "reduction"))``, ``EXP2Exploration(N, η, γ, arms)``
    wrapped in ``PrivateBanditReduction(…, LaplaceNoise((N,), λ), reduction)`` with
    :func:`~reference.agarwal_singh.theorems.thm41_parameters` (``preset``, ``calibration``),
    played by :func:`~reference.agarwal_singh.bandits.run_bandit`.  At ``ε = ∞`` EXP2 alone with
    Thm 4.1's parameters at ``λ = 0``: ``η = √(ln N/(2NT))``, ``γ = ηN``.

    Args:
        instance: ``"constant_gap"`` (``(0.1, 0.5, …)``) or ``"switching"`` (gap 0.1, best arm
            ``k mod N`` on the ``k``-th third, switches at ``⌊T/3⌋`` and ``⌊2T/3⌋``; ``T ≥ 3``).
        N: number of arms (``≥ 2``).
        T: horizon (``≥ 1``), large enough that ``γ ≤ 1``.
        epsilon: ``ε ∈ (0, ∞]``.
        seeds: one seed per replicate (integer ``≥ 0`` or ``SeedSequence``).
        preset, calibration: as :func:`~reference.agarwal_singh.theorems.thm41_parameters`.
        checkpoints: rounds at which to record the regrets (default ``(T,)``).
        trace: keep the arms and the distributions ``p_t`` (memory ``R·T·N``).
        progress: show a progress bar.
        workers: threads running replicates at once (default: the cores this process may use).

    Raises:
        ValueError: naming the parameter, for any argument out of its range.
    """
    check_choice("instance", instance, get_args(MABInstance))
    N = check_size("N", N, 2, item_bytes=8, what="an arm's weight")
    T = check_size("T", T, 1)
    epsilon = check_epsilon_or_inf(epsilon)
    check_choice("preset", preset, ("paper", "proof_consistent"))
    check_choice("calibration", calibration, get_args(Calibration))
    _check_seeds(seeds)
    marks = _check_checkpoints(checkpoints, T)
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    switch1 = switch2 = T
    if instance == "switching":
        if T < 3:
            raise ValueError(f"T must be >= 3 for the switching instance, got {T}")
        switch1, switch2 = T // 3, 2 * T // 3
    private = not math.isinf(epsilon)
    if private:
        p = thm41_parameters(N, T, epsilon, preset=preset, calibration=calibration)
        eta, gamma, scale = p.eta, p.gamma, p.lam
    else:
        eta = math.sqrt(math.log(N) / (2.0 * N * T))
        gamma, scale = eta * N, 0.0
        if not 0.0 < gamma <= 1.0:
            raise ValueError(
                f"gamma = {gamma:.4g} must be in (0, 1]: T = {T} is too small for N = {N}"
            )
    best = 0.1 if instance == "constant_gap" else 0.5 - _SWITCH_GAP
    R, C = len(seeds), int(marks.size)
    streams = [
        named_generators(as_seed_sequence(seed, f"seeds[{r}]"), ("arms", "reduction"))
        for r, seed in enumerate(seeds)
    ]
    log_weights = np.zeros((R, N))
    totals = np.zeros((R, 2, N))
    sums = np.zeros((R, 2, 2))
    states = np.zeros((R, 1), dtype=np.int64)
    recorded = np.zeros((R, 2, C))
    arms = np.zeros((R, T if trace else 0), dtype=np.int64)
    probs = np.zeros((R, T if trace else 0, N))

    def step(r: int, first: int, last: int) -> bool:
        _exp2_rounds(first, last, N, eta, gamma, private, scale, best, 0.5, switch1, switch2,
                     streams[r]["arms"], streams[r]["reduction"], log_weights[r], totals[r],
                     sums[r], marks, states[r], recorded[r], trace, arms[r], probs[r])  # fmt: skip
        return True

    run_chunked(R, T, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    return EXP2BatchResult(
        checkpoints=marks,
        pseudo_regret=recorded[:, 0, :].copy(),
        regret=recorded[:, 1, :].copy(),
        arms=arms if trace else None,
        probs=probs if trace else None,
    )
