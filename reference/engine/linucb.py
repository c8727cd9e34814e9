"""Algorithm 1 of Shariff & Sheffet for ``R`` replicates at once (optimized path).

:func:`run_gap_batch` runs ``R`` independent copies of
:func:`reference.shariff_sheffet.simulation.run_gap_experiment` on arrays of shape ``(R, …)``;
replicate ``r`` reads the same random streams as the reference run with ``seeds[r]``, so its
actions equal the reference's and its regret agrees to rounding (``tests/reference/test_engine.py``).
Memory does not grow with ``n``: cumulative regret is kept at ``checkpoints`` only, unless
``trace=True``.

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from tqdm.auto import tqdm

from reference._typing import FloatArray, IntArray
from reference.engine.tree import BatchedPanPrivateNoise, BatchedTreeNoise
from reference.noise import NodeNoise
from reference.rng import as_seed_sequence, named_generators
from reference.shariff_sheffet.bounds import RegularizerBounds, beta_t_batch
from reference.shariff_sheffet.environments import LinearGapEnvironment, RewardModel
from reference.shariff_sheffet.linucb import (
    AccuracyEventError,
    AccuracyEventWarning,
    PDPolicy,
    ucb_argmax,
)
from reference.shariff_sheffet.regularizers import (
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    RewardPolicy,
    Variant,
    check_tree,
    default_alpha,
    regularizer_spec,
    rows_within_norm,
    tree_rewards,
)
from reference.shariff_sheffet.simulation import STREAMS
from reference.tree import TreeMode
from reference.validation import (
    check_alpha,
    check_bool,
    check_choice,
    check_instance,
    check_int_array,
    check_int_at_least,
    check_size,
)

__all__ = [
    "BatchResult",
    "GapSetup",
    "default_checkpoints",
    "gap_setup",
    "run_gap_batch",
]

_SUBSTITUTION_MAX_D = 8
"""Up to this dimension the triangular solves are ``d²`` vectorised steps; above, BLAS matmuls."""


@dataclass(frozen=True)
class BatchResult:
    """Summaries of ``R`` runs of Algorithm 1.

    Attributes:
        checkpoints: the rounds ``t`` (1-based, increasing, ending at ``n``) at which the cumulative
            regret was recorded.
        cumulative_regret: ``R̂_t`` at each checkpoint, shape ``(R, C)``.
        repairs: rounds whose ``V_t`` was repaired (outside the accuracy event), shape ``(R,)``.
        clip_events: rewards clipped to ``[−B̃, B̃]`` (``reward_policy="clip"``), shape ``(R,)``.
        actions: chosen arm per round, ``(R, n)``, only with ``trace=True``.
        betas: ``β_t`` per round, ``(R, n)``, only with ``trace=True``.
    """

    checkpoints: IntArray
    cumulative_regret: FloatArray
    repairs: IntArray
    clip_events: IntArray
    actions: IntArray | None = None
    betas: FloatArray | None = None

    @property
    def final_regret(self) -> FloatArray:
        """``R̂_n`` per replicate."""
        return np.asarray(self.cumulative_regret[:, -1], dtype=np.float64)


def default_checkpoints(n: int, per_decade: int = 20) -> IntArray:
    """About ``per_decade`` log-spaced rounds per decade from 1 to ``n``, always including ``n``."""
    n = check_size("n", n, 1)
    per_decade = check_size("per_decade", per_decade, 1, item_bytes=8, what="a checkpoint")
    grid = np.unique(np.round(np.logspace(0, math.log10(n), int(per_decade * math.log10(n)) + 2)))
    return np.unique(np.append(grid.astype(np.int64), n))


def _guarded_cholesky(
    V: FloatArray, rho_min: float, pd_policy: PDPolicy, round_t: int
) -> tuple[FloatArray, np.ndarray]:
    """Cholesky factors ``L`` (``V = LLᵀ``) after the PD guard, and the mask of repaired replicates.

    Same guard as :class:`~reference.shariff_sheffet.linucb.LinUCB`: a replicate whose ``V_t`` has
    an eigenvalue below ``ρ_min(1 − 10⁻⁹)`` is repaired (eigenvalues raised to ``ρ_min``, i.e.
    ``V ← Q max(Λ, ρ_min) Qᵀ``) or raises :class:`AccuracyEventError`.
    """
    d = V.shape[-1]
    threshold = rho_min * (1.0 - 1e-9)
    try:
        np.linalg.cholesky(V - threshold * np.eye(d))
        repaired = np.zeros(V.shape[0], dtype=bool)
    except np.linalg.LinAlgError:
        repaired = np.linalg.eigvalsh(V)[:, 0] < threshold
    if repaired.any():
        if pd_policy == "raise":
            first = int(np.flatnonzero(repaired)[0])
            raise AccuracyEventError(
                f"round {round_t}: replicate {first}: lambda_min(V_t) < rho_min = {rho_min}"
            )
        lam, Q = np.linalg.eigh(V[repaired])
        V = V.copy()
        V[repaired] = (Q * np.maximum(lam, rho_min)[:, None, :]) @ np.swapaxes(Q, 1, 2)
    return np.asarray(np.linalg.cholesky(V), dtype=np.float64), repaired


def _forward_substitution(L: FloatArray, B: FloatArray) -> FloatArray:
    """``L⁻¹ b`` for every row ``b`` of ``B`` (shape ``(R, K, d)``), ``L`` lower triangular ``(R, d, d)``.

    Vectorised over replicates and rows: ``d`` steps of ``y_i = (b_i − Σ_{j<i} L_ij y_j) / L_ii``.
    """
    Y = np.empty_like(B)
    for i in range(L.shape[-1]):
        acc = B[..., i].copy()
        for j in range(i):
            acc -= Y[..., j] * L[:, None, i, j]
        Y[..., i] = acc / L[:, None, i, i]
    return Y


def _back_substitution(L: FloatArray, z: FloatArray) -> FloatArray:
    """``L⁻ᵀ z`` for ``z`` of shape ``(R, d)``: ``d`` steps of back substitution with ``Lᵀ``."""
    d = L.shape[-1]
    x = np.empty_like(z)
    for i in reversed(range(d)):
        acc = z[:, i].copy()
        for j in range(i + 1, d):
            acc -= L[:, j, i] * x[:, j]
        x[:, i] = acc / L[:, i, i]
    return x


@dataclass(frozen=True)
class GapSetup:
    """The validated arguments of an App. D batch, shared by every engine of Algorithm 1.

    Attributes:
        n, d, num_arms: horizon, dimension and ``K``.
        alpha: the failure probability (:func:`~reference.shariff_sheffet.regularizers.default_alpha`
            unless given).
        constants: the problem constants (``d`` checked).
        checkpoints: the rounds at which the cumulative regret is recorded.
        noise: the tree's node-noise law (``None`` for the non-private ridge).
        bounds: ``ρ_min, ρ_max, γ`` and the shift of the regularizer.
        tree: the tree releasing the prefix sums, ``"dyadic"`` or ``"pan_private"``
            (:func:`~reference.shariff_sheffet.regularizers.make_regularizer`).
    """

    n: int
    d: int
    num_arms: int
    alpha: float
    constants: ProblemConstants
    checkpoints: IntArray
    noise: NodeNoise | None
    bounds: RegularizerBounds
    tree: TreeMode = "dyadic"


def gap_setup(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    n: int,
    seeds: Sequence[int | np.random.SeedSequence],
    privacy: PrivacyParameters | None,
    alpha: float | None,
    constants: ProblemConstants | None,
    checkpoints: Sequence[int] | IntArray | None,
    rho: float,
    gamma_mode: Literal["paper", "tight"],
    pd_policy: PDPolicy,
    reward_policy: RewardPolicy,
    calibration: Calibration,
    target_rho_min: float | None,
    tree: TreeMode = "dyadic",
) -> GapSetup:
    """Check the arguments of :func:`run_gap_batch` (named in every error) and derive the noise
    law and bounds of ``variant``; the compiled engine takes the same arguments."""
    n = check_size("n", n, 1)
    d = check_size("d", d, 2, item_bytes=8, power=2, what="an entry of a Gram matrix")
    num_arms = check_size("num_arms", num_arms, 1, item_bytes=8 * d, what="an arm")
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence):
        raise ValueError(
            f"seeds must be a sequence of seeds (one per replicate), got {seeds!r:.80}"
        )
    if len(seeds) == 0:
        raise ValueError("seeds must hold at least one seed (one per replicate)")
    for i, seed in enumerate(seeds):
        as_seed_sequence(seed, f"seeds[{i}]")
    if alpha is None:
        alpha = default_alpha(variant, n, calibration)
    alpha = check_alpha(alpha)
    check_choice("pd_policy", pd_policy, ("repair", "raise"))
    check_choice("reward_policy", reward_policy, ("raise", "clip"))
    check_tree(variant, tree)
    consts = (
        check_instance("constants", constants, ProblemConstants)
        if constants is not None
        else ProblemConstants(d=d)
    )
    if consts.d != d:
        raise ValueError(f"constants.d={consts.d} does not match d={d}")
    marks = (
        default_checkpoints(n)
        if checkpoints is None
        else check_int_array("checkpoints", checkpoints, None, ndim=1)
    )
    if marks.ndim != 1 or marks.size == 0 or np.any(np.diff(marks) <= 0):
        raise ValueError("checkpoints must be a non-empty strictly increasing sequence of rounds")
    if marks[0] < 1 or marks[-1] > n:
        raise ValueError(f"checkpoints must lie in [1, n] = [1, {n}], got {marks.tolist()}")
    noise, bounds = regularizer_spec(
        variant,
        consts,
        n,
        alpha,
        privacy,
        rho=rho,
        gamma_mode=gamma_mode,
        calibration=calibration,
        target_rho_min=target_rho_min,
    )
    return GapSetup(n, d, num_arms, alpha, consts, marks.astype(np.int64), noise, bounds, tree)


def run_gap_batch(
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
    block_rounds: int | None = None,
    progress: bool = False,
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
    tree: TreeMode = "dyadic",
) -> BatchResult:
    """``R = len(seeds)`` runs of App. D, replicate ``r`` equal to ``run_gap_experiment(seed=seeds[r])``.

    Arguments as in :func:`reference.shariff_sheffet.simulation.run_gap_experiment` (``tree``
    too: ``"pan_private"`` runs :class:`~reference.engine.tree.BatchedPanPrivateNoise`), plus
    ``checkpoints`` (rounds at which to record the cumulative regret; default
    :func:`default_checkpoints`), ``trace`` (keep per-round actions and ``β_t``), the regularizer
    options of :func:`~reference.shariff_sheffet.regularizers.make_regularizer`, and
    ``block_rounds`` (rounds of environment and noise drawn at once; results do not depend on it;
    default: as many as keep the block's decision sets near 32 MB, at most 256).
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
    n, d, num_arms = setup.n, setup.d, setup.num_arms
    if variant == "factorized":
        raise ValueError(
            "variant 'factorized' runs on the reference (run_gap_experiment) and the compiled "
            "engine (reference.engine.compiled.run_gap_compiled), not on the numpy engine"
        )
    trace = check_bool("trace", trace)
    progress = check_bool("progress", progress)
    if block_rounds is None:
        block_rounds = max(1, min(256, 4_000_000 // (len(seeds) * num_arms * d)))
    block_rounds = check_int_at_least("block_rounds", block_rounds, 1)
    noise, bounds, consts, alpha, marks = (
        setup.noise,
        setup.bounds,
        setup.constants,
        setup.alpha,
        setup.checkpoints,
    )

    streams = [named_generators(seed, STREAMS) for seed in seeds]
    envs = [
        LinearGapEnvironment(d, num_arms, gap, s["environment"], reward_model=reward_model)
        for s in streams
    ]
    mechanisms = [s["mechanism"] for s in streams]
    batched: BatchedTreeNoise | BatchedPanPrivateNoise | None = None
    if noise is not None and setup.tree == "pan_private":
        batched = BatchedPanPrivateNoise(n, noise, mechanisms, block_rounds=block_rounds)
    elif noise is not None:
        batched = BatchedTreeNoise(n, noise, mechanisms, block_rounds=block_rounds)
    return _run(
        envs,
        batched,
        bounds,
        consts,
        n,
        alpha,
        marks,
        trace,
        pd_policy,
        reward_policy,
        block_rounds,
        progress,
    )


def _run(
    envs: list[LinearGapEnvironment],
    tree: BatchedTreeNoise | BatchedPanPrivateNoise | None,
    bounds: RegularizerBounds,
    consts: ProblemConstants,
    n: int,
    alpha: float,
    marks: IntArray,
    trace: bool,
    pd_policy: PDPolicy,
    reward_policy: RewardPolicy,
    block_rounds: int,
    progress: bool,
) -> BatchResult:
    R, d = len(envs), consts.d
    p = d + 1
    rows = np.arange(R)
    eye = np.eye(d)
    gram = np.zeros((R, p, p))  # exact prefix of v vᵀ, v = (x, y): G in [:d,:d], u in [:d, d]
    regret = np.zeros(R)
    recorded = np.zeros((R, marks.size))
    repairs = np.zeros(R, dtype=np.int64)
    clips = np.zeros(R, dtype=np.int64)
    actions = np.zeros((R, n), dtype=np.int64) if trace else None
    betas = np.zeros((R, n)) if trace else None
    next_mark = 0
    warned = False
    with tqdm(total=n, disable=not progress, desc="rounds", leave=False) as bar:
        for first in range(0, n, block_rounds):
            size = min(block_rounds, n - first)
            blocks = [env.draw_block(size) for env in envs]
            arms = np.stack([b.arms for b in blocks])  # (R, T, K, d)
            means = np.stack([b.means for b in blocks])
            rewards = np.stack([b.rewards for b in blocks])
            norms = np.sqrt(np.sum(arms * arms, axis=-1))
            if np.any(norms > consts.L * (1.0 + 1e-9)):
                raise ValueError(f"arms must have Euclidean norm <= L={consts.L} (Assumption 1)")
            best = means.max(axis=-1)
            for b in range(size):
                t = first + b + 1
                if tree is None:
                    V = gram[:, :d, :d] + bounds.shift * eye
                    u = gram[:, :d, d].copy()
                else:
                    released = gram + tree.release_noise()
                    V = released[:, :d, :d] + bounds.shift * eye
                    u = released[:, :d, d].copy()
                L, repaired = _guarded_cholesky(V, bounds.rho_min, pd_policy, t)
                if repaired.any():
                    repairs += repaired
                    if not warned:
                        warnings.warn(
                            f"round {t}: lambda_min(V_t) < rho_min = {bounds.rho_min} in "
                            f"{int(repaired.sum())} replicate(s); eigenvalues raised to rho_min "
                            "(outside the accuracy event of Definition 3)",
                            AccuracyEventWarning,
                            stacklevel=3,
                        )
                        warned = True
                log_det = 2.0 * np.sum(np.log(np.diagonal(L, axis1=1, axis2=2)), axis=1)
                beta = beta_t_batch(log_det, d, consts.sigma, alpha, consts.S, bounds)
                # θ̃ = V⁻¹ũ = L⁻ᵀ L⁻¹ ũ and ‖x‖_{V⁻¹} = ‖L⁻¹ x‖
                X = arms[:, b]  # (R, K, d)
                if d <= _SUBSTITUTION_MAX_D:  # d² vectorised steps beat a batched inverse
                    theta = _back_substitution(L, _forward_substitution(L, u[:, None, :])[:, 0, :])
                    white = _forward_substitution(L, X)
                else:  # BLAS: W = L⁻¹ once, then X Wᵀ
                    W = np.linalg.inv(L)
                    white = np.matmul(X, np.swapaxes(W, 1, 2))
                    theta = np.matmul(np.swapaxes(W, 1, 2), np.matmul(W, u[:, :, None]))[:, :, 0]
                width = np.sqrt(np.einsum("rkd,rkd->rk", white, white))
                ucb = np.einsum("rkd,rd->rk", X, theta) + beta[:, None] * width
                index = ucb_argmax(ucb)
                x = X[rows, index]
                y = rewards[rows, b, index]
                regret += best[:, b] - means[rows, b, index]
                if tree is None:
                    v = np.concatenate([x, y[:, None]], axis=1)
                else:
                    y, clipped = tree_rewards(y, consts.B_tilde, reward_policy)
                    clips += clipped
                    v = rows_within_norm(np.concatenate([x, y[:, None]], axis=1), consts.L_tilde)
                    tree.insert()
                gram += v[:, :, None] * v[:, None, :]
                if trace:
                    assert actions is not None and betas is not None
                    actions[:, t - 1] = index
                    betas[:, t - 1] = beta
                while next_mark < marks.size and marks[next_mark] == t:
                    recorded[:, next_mark] = regret
                    next_mark += 1
            bar.update(size)
    return BatchResult(
        checkpoints=marks.astype(np.int64),
        cumulative_regret=recorded,
        repairs=repairs,
        clip_events=clips,
        actions=actions,
        betas=betas,
    )
