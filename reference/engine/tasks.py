"""The block task of the App. D reproductions: :class:`GapBatchTask` runs a block of replicates
of Algorithm 1 on the compiled engine (:func:`reference.engine.compiled.run_gap_compiled`) or the
numpy one (:func:`reference.engine.linucb.run_gap_batch`).

Apart from both engines because it chooses between them (the compiled engine builds on the numpy
one's setup and result).

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.engine.compiled import run_gap_compiled
from reference.engine.linucb import BatchResult, run_gap_batch
from reference.shariff_sheffet.environments import RewardModel
from reference.shariff_sheffet.regularizers import Calibration, PrivacyParameters, Variant
from reference.tree import TreeMode
from reference.validation import check_choice

__all__ = ["GapBatchTask"]


@dataclass(frozen=True)
class GapBatchTask:
    """A block of App. D runs of one variant, a :class:`~reference.engine.blocks.BlockTask`.

    ``engine="compiled"`` runs the block with
    :func:`reference.engine.compiled.run_gap_compiled` (replicates on every core's thread),
    ``"numpy"`` with :func:`run_gap_batch`; both make the reference's decisions on the same seeds,
    and their regrets agree to rounding.  ``tree`` is the tree releasing the prefix sums
    (``"dyadic"``, the paper's, or ``"pan_private"``, the authors' code's: see
    :func:`~reference.shariff_sheffet.regularizers.make_regularizer`); like every field it is part
    of the task's description in a block folder's manifest.  Returns ``{"cumulative_regret": (B, C), "repairs": (B,),
    "checkpoints": (B, C)}``.
    """

    variant: Variant
    d: int
    num_arms: int
    gap: float
    n: int
    epsilon: float | None = None
    delta: float | None = None
    alpha: float | None = None
    checkpoints: tuple[int, ...] | None = None
    reward_model: RewardModel = "rademacher"
    calibration: Calibration = "paper"
    target_rho_min: float | None = None
    engine: Literal["compiled", "numpy"] = "compiled"
    tree: TreeMode = "dyadic"

    def __call__(self, seeds: Sequence[np.random.SeedSequence]) -> dict[str, FloatArray]:
        check_choice("engine", self.engine, ("compiled", "numpy"))
        privacy = (
            None
            if self.epsilon is None or self.delta is None
            else PrivacyParameters(self.epsilon, self.delta)
        )
        run: Callable[..., BatchResult] = run_gap_batch
        if self.engine == "compiled":
            run = run_gap_compiled
        result = run(
            self.variant,
            d=self.d,
            num_arms=self.num_arms,
            gap=self.gap,
            n=self.n,
            seeds=list(seeds),
            privacy=privacy,
            alpha=self.alpha,
            checkpoints=None if self.checkpoints is None else list(self.checkpoints),
            reward_model=self.reward_model,
            calibration=self.calibration,
            target_rho_min=self.target_rho_min,
            tree=self.tree,
        )
        B = len(seeds)
        return {
            "cumulative_regret": result.cumulative_regret,
            "repairs": result.repairs.astype(np.float64),
            "checkpoints": np.tile(result.checkpoints.astype(np.float64), (B, 1)),
        }
