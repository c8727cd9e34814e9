"""Running Algorithm 1 on an environment and accounting its pseudo-regret (Sec. 2, App. D).

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from tqdm.auto import tqdm

from reference._typing import FloatArray, IntArray
from reference.rng import SeedLike, as_generator, named_generators
from reference.shariff_sheffet.environments import LinearGapEnvironment, RewardModel
from reference.shariff_sheffet.linucb import LinUCB, PDPolicy
from reference.shariff_sheffet.regularizers import (
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    default_alpha,
    make_regularizer,
)
from reference.tree import TreeMode
from reference.validation import (
    check_alpha,
    check_bool,
    check_instance,
    check_int_at_least,
    check_size,
)

__all__ = ["EpisodeResult", "make_policy", "run_episode", "run_gap_experiment"]

STREAMS = ("environment", "mechanism")
"""Named random streams of one run, spawned from the run's seed in this order."""


@dataclass(frozen=True)
class EpisodeResult:
    """Trajectory of one run.

    Attributes:
        cumulative_regret: ``R̂_t`` for ``t = 1..n`` (shape ``(n,)``).
        actions: index of the chosen arm each round (shape ``(n,)``).
        betas: ``β_t`` each round (shape ``(n,)``).
        repairs: number of rounds whose ``V_t`` was repaired (outside the accuracy event).
    """

    cumulative_regret: FloatArray
    actions: IntArray
    betas: FloatArray
    repairs: int


_ROUND_BYTES = 24
"""What :func:`run_episode` stores per round: the regret, the action and ``β_t``."""


def make_policy(
    variant: Variant,
    constants: ProblemConstants,
    n: int,
    alpha: float,
    rng: np.random.Generator | SeedLike,
    privacy: PrivacyParameters | None = None,
    *,
    rho: float = 1.0,
    gamma_mode: Literal["paper", "tight"] = "paper",
    pd_policy: PDPolicy = "repair",
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
    tree: TreeMode = "dyadic",
) -> LinUCB:
    """Algorithm 1 with the named regularizer source (see :func:`make_regularizer`, which also
    documents ``tree``)."""
    rng = as_generator(rng)
    regularizer = make_regularizer(
        variant,
        constants,
        n,
        alpha,
        rng,
        privacy,
        rho=rho,
        gamma_mode=gamma_mode,
        calibration=calibration,
        target_rho_min=target_rho_min,
        tree=tree,
    )
    return LinUCB(regularizer, constants, alpha, pd_policy=pd_policy)


def run_episode(
    policy: LinUCB, environment: LinearGapEnvironment, n: int, *, progress: bool = False
) -> EpisodeResult:
    """Run ``policy`` for ``n`` rounds on ``environment`` and record its pseudo-regret."""
    check_instance("policy", policy, LinUCB)
    check_instance("environment", environment, LinearGapEnvironment)
    n = check_size("n", n, 1, item_bytes=_ROUND_BYTES, what="a round's regret, action and beta")
    progress = check_bool("progress", progress)
    regret = np.zeros(n)
    actions = np.zeros(n, dtype=np.int64)
    betas = np.zeros(n)
    for t in tqdm(range(n), disable=not progress, leave=False, desc="rounds"):
        round_t = environment.next_round()
        index = policy.select(round_t.arms)
        policy.update(round_t.arms[index], float(round_t.rewards[index]))
        regret[t] = round_t.pseudo_regret(index)
        actions[t] = index
        betas[t] = policy.last.beta if policy.last is not None else np.nan
    return EpisodeResult(
        cumulative_regret=np.cumsum(regret), actions=actions, betas=betas, repairs=policy.repairs
    )


def run_gap_experiment(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    seed: int | np.random.SeedSequence,
    privacy: PrivacyParameters | None,
    alpha: float | None = None,
    reward_model: RewardModel = "rademacher",
    constants: ProblemConstants | None = None,
    progress: bool = False,
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
    tree: TreeMode = "dyadic",
) -> EpisodeResult:
    """One run of App. D: ``θ*``, arms and rewards from the ``"environment"`` stream of ``seed``,
    mechanism noise from its ``"mechanism"`` stream (so every variant sees the same environment).

    ``alpha`` defaults to the paper's ``1/n`` (the authors' ``1/(2n)`` for a private variant under
    ``calibration="authors_code"``, :func:`~reference.shariff_sheffet.regularizers.default_alpha`);
    ``constants`` to ``L = S = B = σ = B̃ = 1``; ``tree`` as in
    :func:`~reference.shariff_sheffet.regularizers.make_regularizer`.
    """
    n = check_size("n", n, 1, item_bytes=_ROUND_BYTES, what="a round's regret, action and beta")
    d = check_int_at_least("d", d, 2)
    if alpha is None:
        alpha = default_alpha(variant, n, calibration)
    alpha = check_alpha(alpha)
    progress = check_bool("progress", progress)
    streams = named_generators(seed, STREAMS)
    consts = (
        check_instance("constants", constants, ProblemConstants)
        if constants is not None
        else ProblemConstants(d=d)
    )
    if consts.d != d:
        raise ValueError(f"constants.d={consts.d} does not match d={d}")
    env = LinearGapEnvironment(d, num_arms, gap, streams["environment"], reward_model=reward_model)
    policy = make_policy(
        variant,
        consts,
        n,
        alpha,
        streams["mechanism"],
        privacy,
        calibration=calibration,
        target_rho_min=target_rho_min,
        tree=tree,
    )
    return run_episode(policy, env, n, progress=progress)
