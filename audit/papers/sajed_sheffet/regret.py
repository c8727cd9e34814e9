"""Regret of a third-party multi-armed policy against Sajed & Sheffet's DP-SE or DP-UCB.

The candidate and DP Successive Elimination (Algorithm 3, ``β = 1/T``, Sec. 5) or the DP-UCB
baseline of Sec. 5, at the claimed ε, see the same Bernoulli reward tables; a paired one-sided Wilcoxon signed-rank test says whether the candidate's
pseudo-regret is larger.  The candidate runs as a :class:`~audit.protocols.StreamPolicy`: every
day's decision set is the ``K`` one-hot arms, the reward table that day's ``K`` rewards in
``{0, 1}``.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np

from audit.protocols import StreamPolicy, check_actions
from audit.stats import REGRET_MARGIN, paired_wilcoxon_greater
from reference._typing import FloatArray
from reference.rng import check_seed, child_seeds, named_generators
from reference.sajed_sheffet.bandits import DPSuccessiveElimination
from reference.validation import check_array, check_choice, check_in_range, check_int_at_least

__all__ = [
    "DEFAULT_MEANS",
    "MULTI_ARMED_REFERENCES",
    "MultiArmedReference",
    "MultiArmedRegretResult",
    "multi_armed_regret_check",
]

MultiArmedReference: TypeAlias = Literal["dp_se", "dp_ucb"]
MULTI_ARMED_REFERENCES: tuple[MultiArmedReference, ...] = ("dp_se", "dp_ucb")
"""The private multi-armed algorithms of Sajed & Sheffet a candidate is compared with: DP-SE
(Algorithm 3) or the DP-UCB baseline of Sec. 5 (ε per arm's tree)."""

DEFAULT_MEANS = (0.75, 0.5, 0.5, 0.5, 0.5)
"""Bernoulli means of the default environment: one best arm, gap 0.25 (in the spirit of the
paper's instances, Sec. 5)."""


@dataclass(frozen=True)
class MultiArmedRegretResult:
    """A multi-armed policy against DP-SE on the same reward tables.

    ``wilcoxon_pvalue`` is the one-sided paired signed-rank p-value of "the candidate's regret is
    larger than ``1 + margin`` times the reference's" (:data:`audit.stats.REGRET_MARGIN`); ``worse`` is ``wilcoxon_pvalue < 1 − confidence``; ``passed`` is ``not worse``.
    """

    name: str
    runs: int
    horizon: int
    means: tuple[float, ...]
    epsilon: float
    candidate_mean: float
    reference_mean: float
    wilcoxon_pvalue: float
    worse: bool
    confidence: float
    reference: MultiArmedReference = "dp_se"
    margin: float = REGRET_MARGIN

    @property
    def passed(self) -> bool:
        """Not worse than the reference."""
        return not self.worse


def multi_armed_regret_check(
    policy: StreamPolicy,
    *,
    epsilon: float,
    means: Sequence[float] = DEFAULT_MEANS,
    horizon: int = 20_000,
    runs: int = 30,
    seed: int = 2026,
    confidence: float = 0.99,
    name: str = "multi-armed regret",
    reference: MultiArmedReference = "dp_se",
    margin: float = REGRET_MARGIN,
) -> MultiArmedRegretResult:
    """``runs`` paired runs of ``policy`` and DP-SE at ``epsilon`` (``β = 1/horizon``): run ``i``
    draws its rewards, the candidate's and the reference's generators from the ``i``-th child of
    ``seed`` (names ``"environment"``, ``"candidate"``, ``"reference"``).  ``reference``:
    DP-SE (default) or DP-UCB (:data:`MULTI_ARMED_REFERENCES`), to compare like with like.  Every run's actions are
    checked (:func:`audit.protocols.check_actions`)."""
    epsilon = check_in_range("epsilon", epsilon, 0.0, math.inf)
    mu = check_array("means", means, ndim=1)
    if mu.size < 2 or np.any(mu < 0.0) or np.any(mu > 1.0):
        raise ValueError(f"means must be at least 2 values in [0, 1], got {mu.tolist()}")
    horizon = check_int_at_least("horizon", horizon, 2)
    runs = check_int_at_least("runs", runs, 2)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_choice("reference", reference, MULTI_ARMED_REFERENCES)
    margin = check_in_range("margin", margin, 0.0, math.inf, low_open=False)
    k = int(mu.size)
    gaps = float(mu.max()) - mu
    arms: tuple[FloatArray, ...] = tuple(np.eye(k) for _ in range(horizon))
    candidate = np.empty(runs)
    baseline = np.empty(runs)
    for i, child in enumerate(child_seeds(seed, 0, runs)):
        gens = named_generators(child, ("environment", "candidate", "reference"))
        rewards = (gens["environment"].random((horizon, k)) < mu).astype(np.float64)
        actions = check_actions(
            policy.run(arms, tuple(rewards), gens["candidate"]),  # type: ignore[arg-type]
            arms,
            f"the actions {policy!r} returned on run {i + 1}",
        )
        candidate[i] = float(gaps[actions].sum())
        if reference == "dp_ucb":  # DPUCB's choices on this table, bit for bit, compiled
            from reference.engine.compiled import dpucb_table_compiled  # numba: only when used

            baseline[i] = float(
                dpucb_table_compiled(rewards, mu, epsilon, gens["reference"]).final_regret[0]
            )
            continue
        learner = DPSuccessiveElimination(k, epsilon, 1.0 / horizon, gens["reference"])
        regret = 0.0
        for day in range(horizon):
            arm = learner.select_arm()
            learner.update(arm, float(rewards[day, arm]))
            regret += float(gaps[arm])
        baseline[i] = regret
    difference = candidate - (1.0 + margin) * baseline
    pvalue = paired_wilcoxon_greater(difference)
    return MultiArmedRegretResult(
        name=name,
        runs=runs,
        horizon=horizon,
        means=tuple(float(m) for m in mu),
        epsilon=epsilon,
        candidate_mean=float(candidate.mean()),
        reference_mean=float(baseline.mean()),
        wilcoxon_pvalue=pvalue,
        worse=pvalue < 1.0 - confidence,
        confidence=confidence,
        reference=reference,
        margin=margin,
    )
