"""Sajed & Sheffet's private multi-armed algorithms as regret references: DP Successive
Elimination (Algorithm 3, ``β = 1/T``, Sec. 5) or the DP-UCB baseline of Sec. 5, run on one
reward table at a given ε (:func:`reference_regret`), and the default environment of the
comparison (:data:`DEFAULT_MEANS`).  The comparison itself, a third-party policy against one of
them on the same tables, is the multi-armed kind of ``privonline check``
(:mod:`audit.kinds.multi_armed`, :mod:`audit.methods.regret`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np

from reference._typing import FloatArray
from reference.sajed_sheffet.bandits import DPSuccessiveElimination
from reference.validation import check_choice

__all__ = ["DEFAULT_MEANS", "MULTI_ARMED_REFERENCES", "MultiArmedReference", "reference_regret"]

MultiArmedReference: TypeAlias = Literal["dp_se", "dp_ucb"]
MULTI_ARMED_REFERENCES: tuple[MultiArmedReference, ...] = ("dp_se", "dp_ucb")
"""The private multi-armed algorithms of Sajed & Sheffet a candidate is compared with: DP-SE
(Algorithm 3) or the DP-UCB baseline of Sec. 5 (ε per arm's tree)."""

DEFAULT_MEANS = (0.75, 0.5, 0.5, 0.5, 0.5)
"""Bernoulli means of the default environment: one best arm, gap 0.25 (in the spirit of the
paper's instances, Sec. 5)."""


def reference_regret(
    rewards: FloatArray,
    means: FloatArray,
    epsilon: float,
    reference: MultiArmedReference,
    rng: np.random.Generator,
) -> float:
    """The pseudo-regret of ``reference`` at ``epsilon`` on one reward table ``(T, K)`` whose arms
    have ``means``: DP-SE with ``β = 1/T``, or DP-UCB, compiled (the reference class's choices bit
    for bit), each drawing its noise from ``rng``."""
    check_choice("reference", reference, MULTI_ARMED_REFERENCES)
    if reference == "dp_ucb":
        from reference.engine.compiled import dpucb_table_compiled  # numba: only when used

        return float(dpucb_table_compiled(rewards, means, epsilon, rng).final_regret[0])
    horizon, k = rewards.shape
    gaps = float(means.max()) - means
    learner = DPSuccessiveElimination(k, epsilon, 1.0 / horizon, rng)
    regret = 0.0
    for day in range(horizon):
        arm = learner.select_arm()
        learner.update(arm, float(rewards[day, arm]))
        regret += float(gaps[arm])
    return regret
