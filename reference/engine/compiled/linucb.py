"""Algorithm 1 of Shariff & Sheffet on App. D as one compiled loop per replicate.

:func:`run_gap_compiled` takes the arguments of :func:`reference.engine.run_gap_batch` and returns
its :class:`~reference.engine.BatchResult`.  Replicate ``r`` reads the streams of
:func:`~reference.shariff_sheffet.simulation.run_gap_experiment` with ``seeds[r]`` in the
reference's order, so its actions equal the reference's.  Per round: one node added to a kept
partial sum (``O(1)`` new nodes on average; the factorized source's BLT step instead), ``V_t``
factorised once (``d³/6``), one triangular solve per arm (a BLAS product for large ``d``).

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.engine.compiled._parallel import compiled, inlined, resolve_workers, run_chunked
from reference.engine.compiled.tree import (
    _DYADIC,
    _GAUSSIAN,
    _NONE,
    _PAN_PRIVATE,
    _WISHART,
    _insert_leaf,
    _pan_private_insert,
    _pan_private_release,
    _release_noise,
)
from reference.engine.linucb import BatchResult, gap_setup
from reference.factorization import optimal_blt
from reference.noise import SymmetricGaussianNoise, WishartNoise
from reference.rng import NoiseStreams, check_seed, named_generators
from reference.shariff_sheffet.environments import (
    LOWEST_MEAN,
    OPTIMAL_MEAN,
    LinearGapEnvironment,
    RewardModel,
)
from reference.shariff_sheffet.factorized import released_steps
from reference.shariff_sheffet.linucb import (
    UCB_TIE_RTOL,
    AccuracyEventError,
    AccuracyEventWarning,
    PDPolicy,
)
from reference.shariff_sheffet.regularizers import (
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    RewardPolicy,
    Variant,
)
from reference.shariff_sheffet.simulation import STREAMS
from reference.tree import TreeMode, tree_depth
from reference.validation import (
    check_bool,
    check_size,
)

__all__ = [
    "CHUNK_ROUNDS",
    "environment_seconds",
    "loaded_from_cache",
    "run_gap_compiled",
]

CHUNK_ROUNDS = 1 << 14
"""Rounds per call of the compiled loop: progress is reported (and a failure elsewhere noticed)
between calls; results do not depend on it."""

BLAS_FROM_D = 9
"""From this dimension on, the rotation of the arms and ``L⁻¹x`` for every arm are matrix products
(BLAS); below, loops (a ``d×d`` BLAS call costs more than the loop)."""

_OK, _ACCURACY_EVENT, _REWARD_OUTSIDE, _ARM_NORM = 0, 1, 2, 3  # loop status
# integer state: next checkpoint, repairs, clips, status, round of the status, first repair round
_NEXT, _REPAIRS, _CLIPS, _STATUS, _STATUS_ROUND, _FIRST_REPAIR = range(6)


@compiled
def _cholesky(A: FloatArray, d: int, less: float, L: FloatArray) -> bool:
    """``L`` ← the Cholesky factor of ``A[:d, :d] − less·I``; ``False`` if that is not positive
    definite (a pivot ``≤ 0`` or NaN, where LAPACK's ``potrf`` fails)."""
    for j in range(d):
        s = A[j, j] - less
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if not s > 0.0:
            return False
        root = math.sqrt(s)
        L[j, j] = root
        for i in range(j + 1, d):
            v = A[i, j]
            for k in range(j):
                v -= L[i, k] * L[j, k]
            L[i, j] = v / root
    return True


@compiled
def _guarded_cholesky(V: FloatArray, d: int, rho_min: float, repair: bool, L: FloatArray) -> int:
    """``L`` ← the Cholesky factor of ``V`` after the PD guard of
    :class:`~reference.shariff_sheffet.linucb.LinUCB` (the numpy engine's ``_guarded_cholesky``):
    ``0`` if ``λ_min(V) ≥ ρ_min(1 − 10⁻⁹)``; else ``1`` with ``V`` repaired in place (eigenvalues
    raised to ``ρ_min``), or ``−1`` (nothing factorised) when ``repair`` is false."""
    threshold = rho_min * (1.0 - 1e-9)
    outcome = 0
    if not _cholesky(V, d, threshold, L):
        lam, Q = np.linalg.eigh(V[:d, :d])
        if lam[0] < threshold:
            if not repair:
                return -1
            outcome = 1
            for a in range(d):
                for b in range(d):
                    acc = 0.0
                    for c in range(d):
                        acc += Q[a, c] * max(lam[c], rho_min) * Q[b, c]
                    V[a, b] = acc
    _cholesky(V, d, 0.0, L)
    return outcome


@compiled
def _forward(L: FloatArray, d: int, b: FloatArray, y: FloatArray) -> None:
    """``y`` ← ``L⁻¹ b``."""
    for i in range(d):
        acc = b[i]
        for j in range(i):
            acc -= L[i, j] * y[j]
        y[i] = acc / L[i, i]


@compiled
def _draw_round(
    d: int,
    K: int,
    low: float,
    high: float,
    rotation: FloatArray,
    rotation_t: FloatArray,
    gaussian_rewards: bool,
    candidates: np.random.Generator,
    optimal: np.random.Generator,
    position: np.random.Generator,
    reward_stream: np.random.Generator,
    g: FloatArray,
    aligned: FloatArray,
    arms: FloatArray,
    means: FloatArray,
    rewards: FloatArray,
) -> None:
    """One decision set of :class:`~reference.shariff_sheffet.environments.LinearGapEnvironment`
    (band arms by rejection), its means and its reward table."""
    optimal_at = -1
    u = position.uniform(0.0, 1.0)
    optimal_at = min(int(u * K), K - 1)
    # the K − 1 band arms: Gaussian rows normalised, kept when their head lies in the band
    filled = 0
    while filled < K - 1:
        s = 0.0
        for i in range(d):
            g[i] = candidates.standard_normal()
            s += g[i] * g[i]
        norm = math.sqrt(s)
        head = g[0] / norm
        if low <= head <= high:
            slot = filled if filled < optimal_at else filled + 1
            for i in range(d):
                aligned[slot, i] = g[i] / norm
            filled += 1
    s = 0.0
    for i in range(d - 1):
        g[i] = optimal.standard_normal()
        s += g[i] * g[i]
    norm = math.sqrt(s)
    tail = math.sqrt(1.0 - OPTIMAL_MEAN**2)
    aligned[optimal_at, 0] = OPTIMAL_MEAN
    for i in range(d - 1):
        aligned[optimal_at, i + 1] = tail * (g[i] / norm)
    if gaussian_rewards:
        z = reward_stream.standard_normal()
        for k in range(K):
            means[k] = aligned[k, 0]
            rewards[k] = means[k] + z
    else:
        v = reward_stream.uniform(-1.0, 1.0)
        for k in range(K):
            means[k] = aligned[k, 0]
            rewards[k] = 1.0 if v < means[k] else -1.0
    if d >= BLAS_FROM_D:
        np.dot(aligned, rotation_t, arms)
        return
    for k in range(K):
        for i in range(d):
            acc = 0.0
            for j in range(d):
                acc += aligned[k, j] * rotation[i, j]
            arms[k, i] = acc


_BLT = 3
"""Noise kind of the factorized source: a BLT stream instead of a tree (``partial`` holds its
``k`` buffers, then the running total)."""


@compiled
def _blt_advance(
    p: int,
    scale: float,
    theta: FloatArray,
    omega: FloatArray,
    normal: np.random.Generator,
    state: FloatArray,
    z: FloatArray,
) -> None:
    """One input of :class:`~reference.factorization.BLTNoiseStream`, in its order of operations:
    ``z = (Z' + Z'ᵀ)/√2`` (row-major draws), ``w = z − Σ_i ω_i U_i`` (``i`` ascending),
    ``U_i ← θ_i U_i + w``, total ``← total + w``."""
    k = theta.size
    for a in range(p):
        for b in range(p):
            z[a, b] = scale * normal.standard_normal()
    root2 = math.sqrt(2.0)
    for a in range(p):  # the state stays symmetric: each (a, b), b ≥ a, is computed once
        for b in range(a, p):
            acc = omega[0] * state[0, a, b]
            for i in range(1, k):
                acc = acc + omega[i] * state[i, a, b]
            w = (z[a, b] + z[b, a]) / root2 - acc
            for i in range(k):
                value = theta[i] * state[i, a, b] + w
                state[i, a, b] = value
                state[i, b, a] = value
            total = state[k, a, b] + w
            state[k, a, b] = total
            state[k, b, a] = total


@inlined
def _statistics(
    count: int,
    d: int,
    kind: int,
    tree_mode: int,
    m: int,
    noise_scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    blt_theta: FloatArray,
    shift: float,
    gram: FloatArray,
    partial: FloatArray,
    pad: FloatArray,
    scratch: FloatArray,
    released: FloatArray,
    V: FloatArray,
    u: FloatArray,
) -> None:
    """Lines 4-5 of Algorithm 1: ``released`` ← the release of the prefix ``s = count`` (the nodes
    of its dyadic decomposition, highest level first, then the fresh pad; or the pan-private
    tree's ``N[leafpos]``; or the BLT stream's total; or nothing, non-private), ``V`` ← its
    top-left block ``+ shift·I``, ``u`` ← ``ũ_t``."""
    p = d + 1
    if kind == _NONE:
        for a in range(p):
            for b in range(p):
                released[a, b] = gram[a, b]
    elif kind == _BLT:
        k = blt_theta.size
        for a in range(p):
            for b in range(p):
                released[a, b] = gram[a, b] + partial[k, a, b]
    else:
        if tree_mode == _PAN_PRIVATE:
            _pan_private_release(count, m, p, partial, released)
        else:
            _release_noise(count, m, kind, p, noise_scale, dof, True, normal, gamma, partial,
                           pad, scratch, released)  # fmt: skip
        for a in range(p):
            for b in range(p):
                released[a, b] = gram[a, b] + released[a, b]
    for a in range(d):
        for b in range(d):
            V[a, b] = released[a, b] + (shift if a == b else 0.0)
        u[a] = released[a, d]


@inlined
def _select_arm(
    L: FloatArray,
    d: int,
    K: int,
    arms: FloatArray,
    u: FloatArray,
    beta: float,
    y: FloatArray,
    theta: FloatArray,
    unit: FloatArray,
    white: FloatArray,
    inverse_t: FloatArray,
    whites: FloatArray,
    ucb: FloatArray,
) -> int:
    """Line 7 of Algorithm 1: ``θ̃ = L⁻ᵀ L⁻¹ ũ``, ``‖x‖_{V⁻¹} = ‖L⁻¹ x‖`` and the index of the
    largest ``⟨x, θ̃⟩ + β‖x‖_{V⁻¹}``, ties (within ``UCB_TIE_RTOL``) to the lowest index."""
    _forward(L, d, u, y)
    for i in range(d - 1, -1, -1):
        acc = y[i]
        for j in range(i + 1, d):
            acc -= L[j, i] * theta[j]
        theta[i] = acc / L[i, i]
    top = -math.inf
    if d >= BLAS_FROM_D:  # W = L⁻¹ once, then every L⁻¹x as one product X Wᵀ
        for c in range(d):
            for i in range(d):
                unit[i] = 1.0 if i == c else 0.0
            _forward(L, d, unit, white)
            for i in range(d):
                inverse_t[c, i] = white[i]
        np.dot(arms, inverse_t, whites)
    for k in range(K):
        if d < BLAS_FROM_D:
            _forward(L, d, arms[k], white)
        else:
            for i in range(d):
                white[i] = whites[k, i]
        width = 0.0
        dot = 0.0
        for i in range(d):
            width += white[i] * white[i]
            dot += arms[k, i] * theta[i]
        ucb[k] = dot + beta * math.sqrt(width)
        top = max(top, ucb[k])
    tolerance = UCB_TIE_RTOL * max(1.0, abs(top))
    index = 0
    while ucb[index] < top - tolerance:
        index += 1
    return index


@inlined
def _enter_row(
    t: int,
    count: int,
    index: int,
    reward: float,
    d: int,
    kind: int,
    tree_mode: int,
    m: int,
    noise_scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    blt_theta: FloatArray,
    blt_omega: FloatArray,
    b_tilde: float,
    l_tilde: float,
    clip: bool,
    arms: FloatArray,
    v: FloatArray,
    gram: FloatArray,
    partial: FloatArray,
    node: FloatArray,
    scratch: FloatArray,
    regret: FloatArray,
    state: IntArray,
) -> bool:
    """Lines 8-9 of Algorithm 1: the row ``v = (x, y)`` of arm ``index`` enters the prefix and
    (private) the tree stores its completed nodes (the pan-private tree: the draws of insertion
    ``(count + 1) mod 2^{m−1}``) or the BLT stream advances; ``False``, with the
    status set, when a reward outside ``[−B̃, B̃]`` is refused."""
    p = d + 1
    for i in range(d):
        v[i] = arms[index, i]
    v[d] = reward
    if kind != _NONE:
        if abs(reward) > b_tilde:
            if not clip:
                state[_STATUS], state[_STATUS_ROUND] = _REWARD_OUTSIDE, t
                regret[1] = reward
                return False
            state[_CLIPS] += 1
            v[d] = min(max(reward, -b_tilde), b_tilde)
        s = 0.0
        for i in range(p):
            s += v[i] * v[i]
        norm = math.sqrt(s)
        if norm > l_tilde:
            for i in range(p):
                v[i] = v[i] * (l_tilde / norm)
        if kind == _BLT:
            _blt_advance(p, noise_scale, blt_theta, blt_omega, normal, partial, node)
        elif tree_mode == _PAN_PRIVATE:
            _pan_private_insert((count + 1) & ((1 << (m - 1)) - 1), m, kind, p, noise_scale,
                                dof, normal, gamma, partial, node, scratch)  # fmt: skip
        else:
            _insert_leaf(count + 1, m, kind, p, noise_scale, dof, normal, gamma, partial,
                         node, scratch)  # fmt: skip
    for a in range(p):
        for b in range(p):
            gram[a, b] += v[a] * v[b]
    return True


@compiled
def _run_rounds(
    first: int,
    last: int,
    d: int,
    K: int,
    low: float,
    high: float,
    rotation: FloatArray,
    gaussian_rewards: bool,
    candidates: np.random.Generator,
    optimal: np.random.Generator,
    position: np.random.Generator,
    reward_stream: np.random.Generator,
    kind: int,
    tree_mode: int,
    noise_scale: float,
    dof: float,
    normal: np.random.Generator,
    gamma: np.random.Generator,
    m: int,
    blt_theta: FloatArray,
    blt_omega: FloatArray,
    shift: float,
    rho_min: float,
    repair: bool,
    beta_sigma: float,
    beta_log_terms: float,
    beta_rho_min_term: float,
    beta_offset: float,
    beta_gamma: float,
    arm_norm: float,
    b_tilde: float,
    l_tilde: float,
    clip: bool,
    marks: IntArray,
    trace: bool,
    gram: FloatArray,
    partial: FloatArray,
    regret: FloatArray,
    state: IntArray,
    recorded: FloatArray,
    actions: IntArray,
    betas: FloatArray,
) -> None:
    """Rounds ``first .. last`` (1-based) of one replicate.

    Every piece of state lives in the arrays passed in, so consecutive calls continue one run:
    ``gram`` the exact prefix of ``v vᵀ``; ``partial[j]``, for each set bit ``j`` of the current
    count, the sum of its dyadic nodes of levels ``≥ j`` (highest first), or the pan-private
    tree's ``N[1..m]`` (its ``m`` initial draws made in round 1 only); ``regret`` is
    ``[R̂_t, last reward outside [−B̃, B̃]]``; ``state`` the integer counters above."""
    p = d + 1
    g = np.empty(d)
    aligned = np.empty((K, d))
    arms = np.empty((K, d))
    means = np.empty(K)
    rewards = np.empty(K)
    released = np.zeros((p, p))
    pad = np.empty((p, p))
    node = np.empty((p, p))
    scratch = np.empty((p, p))
    V = np.empty((d, d))
    u = np.empty(d)
    L = np.zeros((d, d))
    y = np.empty(d)
    theta = np.empty(d)
    white = np.empty(d)
    unit = np.empty(d)
    inverse_t = np.empty((d, d))  # (L⁻¹)ᵀ, for d ≥ BLAS_FROM_D
    whites = np.empty((K, d) if d >= BLAS_FROM_D else (0, d))
    rotation_t = np.ascontiguousarray(rotation.T)
    ucb = np.empty(K)
    v = np.empty(p)
    for t in range(first, last + 1):
        _draw_round(d, K, low, high, rotation, rotation_t, gaussian_rewards, candidates, optimal,
                    position, reward_stream, g, aligned, arms, means, rewards)  # fmt: skip
        best_mean = means[0]
        for k in range(K):
            s = 0.0
            for i in range(d):
                s += arms[k, i] * arms[k, i]
            if math.sqrt(s) > arm_norm * (1.0 + 1e-9):
                state[_STATUS], state[_STATUS_ROUND] = _ARM_NORM, t
                return
            best_mean = max(best_mean, means[k])
        # line 4-5: the release of the prefix s = t − 1, and V_t, ũ_t
        count = t - 1
        if t == 1 and tree_mode == _PAN_PRIVATE and kind != _NONE:  # (never the BLT: gap_setup)
            # the pan-private tree's empty noisy leaf: its m draws, once (a later chunk has t > 1)
            _pan_private_insert(0, m, kind, p, noise_scale, dof, normal, gamma, partial, node,
                                scratch)  # fmt: skip
        _statistics(count, d, kind, tree_mode, m, noise_scale, dof, normal, gamma, blt_theta,
                    shift, gram, partial, pad, scratch, released, V, u)  # fmt: skip
        # the PD guard of LinUCB: repair (or refuse) a V_t outside the accuracy event
        guard = _guarded_cholesky(V, d, rho_min, repair, L)
        if guard < 0:
            state[_STATUS], state[_STATUS_ROUND] = _ACCURACY_EVENT, t
            return
        if guard > 0:
            state[_REPAIRS] += 1
            if state[_FIRST_REPAIR] == 0:
                state[_FIRST_REPAIR] = t
        log_det = 0.0
        for i in range(d):
            log_det += math.log(L[i, i])
        log_det *= 2.0
        radicand = beta_log_terms + log_det - beta_rho_min_term
        beta = beta_sigma * math.sqrt(max(0.0, radicand)) + beta_offset + beta_gamma
        # line 7: the arm of the largest UCB
        index = _select_arm(L, d, K, arms, u, beta, y, theta, unit, white, inverse_t, whites, ucb)
        reward = rewards[index]
        regret[0] += best_mean - means[index]
        # line 8-9: the new row v = (x, y) enters the prefix
        if not _enter_row(t, count, index, reward, d, kind, tree_mode, m, noise_scale, dof,
                          normal, gamma, blt_theta, blt_omega, b_tilde, l_tilde, clip, arms, v,
                          gram, partial, node, scratch, regret, state):  # fmt: skip
            return
        if trace:
            actions[t - 1] = index
            betas[t - 1] = beta
        while state[_NEXT] < marks.size and marks[state[_NEXT]] == t:
            recorded[state[_NEXT]] = regret[0]
            state[_NEXT] += 1


@compiled
def _environment_rounds(
    n: int,
    d: int,
    K: int,
    low: float,
    high: float,
    rotation: FloatArray,
    gaussian_rewards: bool,
    candidates: np.random.Generator,
    optimal: np.random.Generator,
    position: np.random.Generator,
    reward_stream: np.random.Generator,
) -> float:
    """``n`` rounds of the environment alone (what the benchmark charges to it); returns the sum
    of the optimal means so that nothing is optimised away."""
    g = np.empty(d)
    aligned = np.empty((K, d))
    arms = np.empty((K, d))
    means = np.empty(K)
    rewards = np.empty(K)
    rotation_t = np.ascontiguousarray(rotation.T)
    total = 0.0
    for _ in range(n):
        _draw_round(d, K, low, high, rotation, rotation_t, gaussian_rewards, candidates, optimal,
                    position, reward_stream, g, aligned, arms, means, rewards)  # fmt: skip
        total += means.max()
    return total


def _rejection_environment(
    streams: dict[str, np.random.Generator],
    d: int,
    num_arms: int,
    gap: float,
    reward_model: RewardModel = "rademacher",
) -> LinearGapEnvironment:
    """The App. D environment of a replicate's streams; refused where its band arms are drawn by
    inverse CDF, which the compiled loop does not do."""
    env = LinearGapEnvironment(d, num_arms, gap, streams["environment"], reward_model=reward_model)
    if env._band.method != "rejection":
        raise ValueError(
            f"gap={gap}: the band of sub-optimal means [{LOWEST_MEAN}, {OPTIMAL_MEAN - gap}] "
            "holds less than a quarter of the sphere, where arms are drawn by inverse CDF; "
            "the compiled engine draws by rejection only: use run_gap_batch"
        )
    return env


def loaded_from_cache() -> bool:
    """Whether numba loaded this process's compiled loop from its on-disk cache (``False``: it
    compiled it, or the loop has not run yet)."""
    dispatcher: Any = _run_rounds
    return bool(sum(dispatcher.stats.cache_hits.values()))


def environment_seconds(d: int, num_arms: int, gap: float, n: int, seed: int) -> float:
    """Seconds taken by ``n`` rounds of the App. D environment alone in the compiled loop (after
    a warm-up call): the benchmark's measure of the environment's share of a run."""
    n = check_size("n", n, 1)
    d = check_size("d", d, 2, item_bytes=8, power=2, what="an entry of the rotation")
    num_arms = check_size("num_arms", num_arms, 1, item_bytes=8 * d, what="an arm")
    env = _rejection_environment(named_generators(check_seed(seed), STREAMS), d, num_arms, gap)
    band = env._band
    args = (d, num_arms, band.low, band.high, env.rotation, False, band._candidates, env._optimal,
            env._position, env._rewards)  # fmt: skip
    _environment_rounds(1, *args)
    start = time.perf_counter()
    _environment_rounds(n, *args)
    return time.perf_counter() - start


def run_gap_compiled(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    seeds: Sequence[int | np.random.SeedSequence],
    privacy: PrivacyParameters | None,
    alpha: float | None = None,
    reward_model: RewardModel = "rademacher",
    constants: ProblemConstants | None = None,
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    rho: float = 1.0,
    gamma_mode: Literal["paper", "tight"] = "paper",
    pd_policy: PDPolicy = "repair",
    reward_policy: RewardPolicy = "raise",
    progress: bool = False,
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
    workers: int | None = None,
    tree: TreeMode = "dyadic",
) -> BatchResult:
    """``R = len(seeds)`` runs of App. D, replicate ``r`` equal to ``run_gap_experiment(seed=seeds[r])``.

    Arguments as in :func:`reference.engine.run_gap_batch` (``block_rounds`` has no meaning here;
    ``tree="pan_private"`` runs :class:`~reference.tree.PanPrivateTree` in the loop),
    plus ``workers``: threads running replicates at once (default: the cores this process may use).
    Memory is ``O(d² log n + K d)`` per replicate, independent of ``n`` unless ``trace=True``.
    The first call in a process compiles the loop (or loads it from numba's on-disk cache).

    Raises:
        ValueError: as :func:`~reference.engine.run_gap_batch`; also for a band of sub-optimal
            means narrower than a quarter of the sphere (``gap`` near ``1.5``), whose arms the
            reference draws by inverse CDF (use ``run_gap_batch`` there).
    """
    setup = gap_setup(
        variant,
        d=d,
        num_arms=num_arms,
        n=n,
        seeds=seeds,
        privacy=privacy,
        alpha=alpha,
        constants=constants,
        checkpoints=checkpoints,
        rho=rho,
        gamma_mode=gamma_mode,
        pd_policy=pd_policy,
        reward_policy=reward_policy,
        calibration=calibration,
        target_rho_min=target_rho_min,
        tree=tree,
    )
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    n, d, K, consts, bounds, noise = (
        setup.n,
        setup.d,
        setup.num_arms,
        setup.constants,
        setup.bounds,
        setup.noise,
    )
    theta = omega = np.ones(1)  # read by the factorized source only
    if noise is None:
        kind, noise_scale, dof = _NONE, 0.0, 0.0
    elif variant == "factorized":
        assert isinstance(noise, SymmetricGaussianNoise)
        blt = optimal_blt(max(released_steps(n), 2))  # the reference's strategy
        kind, noise_scale, dof = _BLT, noise.sigma, 0.0
        theta, omega = blt.theta, blt.omega
    elif isinstance(noise, WishartNoise):
        kind, noise_scale, dof = _WISHART, noise.scale, float(noise.degrees_of_freedom)
    elif isinstance(noise, SymmetricGaussianNoise):
        kind, noise_scale, dof = _GAUSSIAN, noise.sigma, 0.0
    else:  # pragma: no cover - regularizer_spec gives only these laws
        raise TypeError(f"no compiled sampler for {type(noise).__name__}")
    tree_mode = _PAN_PRIVATE if setup.tree == "pan_private" else _DYADIC
    marks = setup.checkpoints
    R, C, m = len(seeds), int(marks.size), tree_depth(n)
    envs, mechanisms = [], []
    for seed in seeds:
        streams = named_generators(seed, STREAMS)
        envs.append(_rejection_environment(streams, d, K, gap, reward_model))
        mechanisms.append(NoiseStreams.split(streams["mechanism"]))
    recorded = np.zeros((R, C))
    values = np.zeros((R, 2))  # R̂_t and the last reward outside [−B̃, B̃]
    states = np.zeros((R, 6), dtype=np.int64)
    actions = np.zeros((R, n if trace else 0), dtype=np.int64)
    betas = np.zeros((R, n if trace else 0))
    radicand_log = 2.0 * math.log(2.0 / setup.alpha)
    constants_of_beta = (
        consts.sigma,
        radicand_log,
        d * math.log(bounds.rho_min),
        consts.S * math.sqrt(bounds.rho_max),
        bounds.gamma,
    )
    grams = np.zeros((R, d + 1, d + 1))
    partials = np.zeros((R, max(m, theta.size + 1), d + 1, d + 1))

    def step(r: int, first: int, last: int) -> bool:
        env, mech, band = envs[r], mechanisms[r], envs[r]._band
        _run_rounds(first, last, d, K, band.low, band.high, env.rotation,
                    env.reward_model == "gaussian", band._candidates, env._optimal,
                    env._position, env._rewards, kind, tree_mode, noise_scale, dof, mech.normal,
                    mech.gamma, m, theta, omega, bounds.shift, bounds.rho_min,
                    pd_policy == "repair", *constants_of_beta, consts.L, consts.B_tilde, consts.L_tilde,
                    reward_policy == "clip", marks, trace, grams[r], partials[r], values[r],
                    states[r], recorded[r], actions[r], betas[r])  # fmt: skip
        return bool(states[r, _STATUS] == _OK)

    run_chunked(R, n, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    failed = np.flatnonzero(states[:, _STATUS] != _OK)
    if failed.size:
        r = int(failed[np.argmin(states[failed, _STATUS_ROUND])])
        t, status = int(states[r, _STATUS_ROUND]), int(states[r, _STATUS])
        if status == _ACCURACY_EVENT:
            raise AccuracyEventError(
                f"round {t}: replicate {r}: lambda_min(V_t) < rho_min = {bounds.rho_min}"
            )
        if status == _REWARD_OUTSIDE:
            b = consts.B_tilde
            raise ValueError(
                f"y must be in [-B_tilde, B_tilde] = [{-b}, {b}] (Assumption 6), got "
                f"{float(values[r, 1])}; pass reward_policy='clip' to clip rewards (R-CLIP)"
            )
        raise ValueError(f"arms must have Euclidean norm <= L={consts.L} (Assumption 1)")
    repaired = states[:, _REPAIRS] > 0
    if repaired.any():
        first_round = int(states[repaired, _FIRST_REPAIR].min())
        warnings.warn(
            f"round {first_round}: lambda_min(V_t) < rho_min = {bounds.rho_min} in "
            f"{int(repaired.sum())} replicate(s); eigenvalues raised to rho_min "
            "(outside the accuracy event of Definition 3)",
            AccuracyEventWarning,
            stacklevel=2,
        )
    return BatchResult(
        checkpoints=marks,
        cumulative_regret=recorded,
        repairs=states[:, _REPAIRS].copy(),
        clip_events=states[:, _CLIPS].copy(),
        actions=actions if trace else None,
        betas=betas if trace else None,
    )
