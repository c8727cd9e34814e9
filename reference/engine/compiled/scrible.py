"""SCRiBLe behind Agarwal & Singh's private reduction as a compiled loop (Algorithm 4 + SCRiBLe,
Thm 4.5; E9): one replicate per loop, on the unit ball or the cube ``[−1, 1]^N``.

:func:`run_scrible_compiled` gives replicate ``r`` the reference run on ``seeds[r]``: the same
closed-form Dikin axes (:func:`reference.agarwal_singh.scrible.dikin_axes`), the same ``(k_t, s_t)``
and ``Z_t`` draws from the same generators in the same order, so the axes and signs are the
reference's and the points equal its points to rounding.  ``O(N)`` work per round; memory
``O(N)`` per replicate unless ``trace=True``.
Proof note: ``proofs_notes/agarwal_singh/thm45_scrible_blo.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.engine.compiled._parallel import compiled, resolve_workers, run_chunked
from reference.engine.compiled.ftrl import (
    _BALL,
    _CUBE,
    _accumulate,
    _check_checkpoints,
    _check_losses,
    _check_seeds,
    _comparator,
)
from reference.engine.compiled.linucb import CHUNK_ROUNDS
from reference.rng import SeedLike, as_seed_sequence, named_generators
from reference.validation import check_bool, check_choice, check_positive

__all__ = ["SCRiBLeBatchResult", "SCRiBLeSet", "run_scrible_compiled"]

SCRiBLeSet: TypeAlias = Literal["ball", "cube"]
"""The decision sets with a closed-form barrier: ``BallBarrier`` (ν = 1) and ``CubeBarrier``
(ν = 2N)."""


@compiled
def _radial(g: float, eta: float) -> float:
    """``ρ(ηg) = ηg/(√(1 + (ηg)²) + 1)`` as ``reference.agarwal_singh.scrible._radial_step``."""
    return eta * g / (math.sqrt(1.0 + (eta * g) ** 2) + 1.0)


@compiled
def _axis(
    ball: bool, x: FloatArray, r2: float, k: int, N: int, direction: FloatArray, w: FloatArray
) -> float:
    """Axis ``k`` of ``dikin_axes(barrier, x)`` into ``direction``; returns its ``λ_k``.  On the
    ball ``r2 = ‖x‖²`` (the caller's) and ``w`` is scratch of length ``N``."""
    if not ball:
        for i in range(N):
            direction[i] = 0.0
        direction[k] = 1.0
        xk = float(x[k])
        return 2.0 * (1.0 + xk**2) / (1.0 - xk**2) ** 2
    gap = 1.0 - r2
    if r2 == 0.0:
        for i in range(N):
            direction[i] = 0.0
        direction[k] = 1.0
        return 2.0 / gap
    norm = math.sqrt(r2)
    for i in range(N):
        w[i] = x[i] / norm
    w[0] += 1.0 if w[0] >= 0.0 else -1.0
    ww = 0.0
    for i in range(N):
        ww += w[i] * w[i]
    c = 2.0 / ww
    for i in range(N):
        direction[i] = (1.0 if i == k else 0.0) - c * (w[i] * w[k])
    if k == 0:
        return 2.0 / gap + 4.0 * r2 / gap**2
    return 2.0 / gap


@compiled
def _ftrl_argmin(ball: bool, theta: FloatArray, eta: float, N: int, x: FloatArray) -> None:
    """``argmin η<θ, x> + R(x)`` in closed form (``BallBarrier`` / ``CubeBarrier.ftrl_argmin``)."""
    if ball:
        g2 = 0.0
        for i in range(N):
            g2 += theta[i] * theta[i]
        g = math.sqrt(g2)
        if g == 0.0:
            for i in range(N):
                x[i] = 0.0
            return
        rho = _radial(g, eta)
        for i in range(N):
            x[i] = -theta[i] / g * rho
        return
    for i in range(N):
        a = abs(theta[i])
        sign = 1.0 if theta[i] > 0.0 else (-1.0 if theta[i] < 0.0 else 0.0)
        x[i] = -sign * _radial(a, eta)


@compiled
def _scrible_rounds(
    first: int,
    last: int,
    N: int,
    ball: bool,
    eta: float,
    private: bool,
    scale: float,
    losses: FloatArray,
    learner_rng: np.random.Generator,
    reduction_rng: np.random.Generator,
    theta: FloatArray,
    center: FloatArray,
    total: FloatArray,
    sums: FloatArray,
    marks: IntArray,
    state: IntArray,
    recorded: FloatArray,
    trace: bool,
    centres: FloatArray,
    played: FloatArray,
) -> None:
    """Rounds ``first .. last`` (1-based) of one replicate.

    State lives in the arrays passed in, so consecutive calls continue one run: ``theta``,
    ``center`` (``x_t``), ``total`` (``Σ_{s≤t} l_s``, compensated), ``sums`` (``[Σ <x_s, l_s>,
    Σ <y_s, l_s>]``, compensated), ``state[0]`` (the next checkpoint) and ``state[1]`` (the round
    whose centre was found on the boundary, else 0; the loop stops there)."""
    direction = np.empty(N)
    y = np.empty(N)
    w = np.empty(N)
    kind = _BALL if ball else _CUBE
    for t in range(first, last + 1):
        loss = losses[t - 1]
        # SCRiBLe.act refuses a centre on the boundary in floating point (R(x_t) = +inf)
        inside = True
        r2 = 0.0
        if ball:
            for i in range(N):
                r2 += center[i] * center[i]
            inside = 1.0 - r2 > 0.0
        else:
            for i in range(N):
                inside = inside and 1.0 - center[i] ** 2 > 0.0
        if not inside:
            state[1] = t
            return
        # SCRiBLe.act: k uniform, s = ±1 fair, y_t = x_t + s e_k / √λ_k
        k = int(learner_rng.integers(0, N))
        s = 1.0 if learner_rng.random() < 0.5 else -1.0
        lam_k = _axis(ball, center, r2, k, N, direction, w)
        root = math.sqrt(lam_k)
        for i in range(N):
            y[i] = center[i] + s * direction[i] / root
        value = 0.0
        incurred = 0.0
        for i in range(N):
            value += loss[i] * y[i]
            incurred += center[i] * loss[i]
        # Alg. 4, lines 3-5: forward <l_t, y_t> + <Z_t, y_t>, Z_t ~ Lap^N(λ) drawn whole
        forwarded = value
        if private:
            noisy = 0.0
            for i in range(N):
                noisy += reduction_rng.laplace(0.0, scale) * y[i]
            forwarded = value + noisy
        if trace:
            for i in range(N):
                centres[t - 1, i] = center[i]
                played[t - 1, i] = y[i]
        # SCRiBLe.update: θ += N f s √λ_k e_k; x_{t+1} = argmin η<θ, x> + R(x)
        coef = N * forwarded * s * root
        for i in range(N):
            theta[i] = theta[i] + coef * direction[i]
        _ftrl_argmin(ball, theta, eta, N, center)
        _accumulate(sums, 0, incurred)
        _accumulate(sums, 1, value)
        for i in range(N):
            _accumulate(total, i, loss[i])
        while state[0] < marks.size and marks[state[0]] == t:
            best = _comparator(kind, total, N)  # −‖L‖₂ on the ball, −‖L‖₁ on the cube
            recorded[0, state[0]] = (sums[0, 0] + sums[1, 0]) - best
            recorded[1, state[0]] = (sums[0, 1] + sums[1, 1]) - best
            state[0] += 1


@dataclass(frozen=True)
class SCRiBLeBatchResult:
    """Result of :func:`run_scrible_compiled`.

    Attributes:
        checkpoints: ``(C,)`` rounds at which the regrets are recorded.
        centre_regret: ``(R, C)`` ``Σ_{s≤t} <l_s, x_s> − min_{x∈X} <Σ_{s≤t} l_s, x>`` of the FTRL
            centres ``x_s`` (not published; E9's ``regret``).
        played_regret: ``(R, C)`` the same for the played points ``y_s``.
        centres: ``(R, T, N)`` the centres when ``trace=True``, else None.
        played: ``(R, T, N)`` the played points when ``trace=True``, else None.
    """

    checkpoints: IntArray
    centre_regret: FloatArray
    played_regret: FloatArray
    centres: FloatArray | None
    played: FloatArray | None


def run_scrible_compiled(
    decision_set: SCRiBLeSet,
    *,
    losses: FloatArray,
    eta: float,
    lam: float | None,
    seeds: Sequence[SeedLike],
    checkpoints: Sequence[int] | IntArray | None = None,
    trace: bool = False,
    progress: bool = False,
    workers: int | None = None,
) -> SCRiBLeBatchResult:
    """SCRiBLe on ``decision_set``, behind Algorithm 4 when ``lam`` is given, on the oblivious
    sequence ``losses``.

    Replicate ``r`` is the reference run with ``seeds[r]``: streams
    ``named_generators(seeds[r], ("learner", "reduction"))``, ``SCRiBLe(barrier, eta, learner)``
    (``BallBarrier(N)`` or ``CubeBarrier(N)``) wrapped in
    ``PrivateBanditReduction(…, LaplaceNoise((N,), lam), reduction)``, fed ``<l_t, y_t>`` each
    round.  ``lam=None`` runs SCRiBLe alone (the non-private baseline; the ``reduction`` stream
    is not used).

    Args:
        decision_set: ``"ball"`` (unit ℓ₂ ball) or ``"cube"`` (``[−1, 1]^N``).
        losses: ``(T, N)`` finite losses, ``T ≥ 1``, ``N ≥ 1``.
        eta: SCRiBLe's step ``η > 0`` (Thm 4.5: ``thm45_parameters``).
        lam: the reduction's Laplace scale ``λ > 0``, or None.
        seeds: one seed per replicate (integer ``≥ 0`` or ``SeedSequence``).
        checkpoints: rounds at which to record the regrets (default ``(T,)``).
        trace: keep the centres and played points (memory ``2·R·T·N``).
        progress: show a progress bar.
        workers: threads running replicates at once (default: the cores this process may use).

    Raises:
        ValueError: naming the parameter, for any argument out of its range.
        RuntimeError: a centre reached the boundary in floating point, as the reference raises.
    """
    check_choice("decision_set", decision_set, get_args(SCRiBLeSet))
    losses = _check_losses(losses, 1)
    T, N = losses.shape
    eta = check_positive("eta", eta)
    private = lam is not None
    scale = check_positive("lam", lam) if lam is not None else 0.0
    _check_seeds(seeds)
    marks = _check_checkpoints(checkpoints, T)
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    workers = resolve_workers(workers)
    ball = decision_set == "ball"
    R, C = len(seeds), int(marks.size)
    streams = [
        named_generators(as_seed_sequence(seed, f"seeds[{r}]"), ("learner", "reduction"))
        for r, seed in enumerate(seeds)
    ]
    theta = np.zeros((R, N))
    center = np.zeros((R, N))  # the analytic centre of both barriers
    totals = np.zeros((R, 2, N))
    sums = np.zeros((R, 2, 2))
    states = np.zeros((R, 2), dtype=np.int64)
    recorded = np.zeros((R, 2, C))
    centres = np.zeros((R, T if trace else 0, N))
    played = np.zeros((R, T if trace else 0, N))

    def step(r: int, first: int, last: int) -> bool:
        _scrible_rounds(first, last, N, ball, eta, private, scale, losses,
                        streams[r]["learner"], streams[r]["reduction"], theta[r], center[r],
                        totals[r], sums[r], marks, states[r], recorded[r], trace, centres[r],
                        played[r])  # fmt: skip
        return bool(states[r, 1] == 0)

    run_chunked(R, T, workers=workers, chunk=CHUNK_ROUNDS, progress=progress, step=step)
    failed = np.flatnonzero(states[:, 1])
    if failed.size:
        r = int(failed[0])
        raise RuntimeError(
            "SCRiBLe's centre reached the boundary of the set in floating point (the Hessian "
            "of the barrier is infinite there): the accumulated estimates are too large for "
            f"this eta and noise scale (replicate {r}, round {int(states[r, 1])})"
        )
    return SCRiBLeBatchResult(
        checkpoints=marks,
        centre_regret=recorded[:, 0, :].copy(),
        played_regret=recorded[:, 1, :].copy(),
        centres=centres if trace else None,
        played=played if trace else None,
    )
