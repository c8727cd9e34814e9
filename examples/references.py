"""The papers' reference algorithms as ``privonline check`` targets (they must pass it).

``algorithm1`` (Shariff & Sheffet Algorithm 1, Gaussian tree, Sec. 4.2, at ``(1, 0.1)``), ``dp_se`` and ``dp_ucb``
(Sajed & Sheffet Algorithm 3 and the DP-UCB baseline of Sec. 5), ``private_ftrl`` and
``private_bandit`` (Agarwal & Singh Algorithm 1 with the Cor. 3.2 experts instance, and Algorithm
4 over EXP2, Thm 4.1), each wrapping privonline's reference code::

    privonline check examples.references:dp_se --kind multi_armed --path . --epsilon 1 --delta 0
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from audit.methods.stream import Algorithm1Policy
from audit.papers.agarwal_singh.regret import reference_bandit_points, reference_full_points
from examples.multi_armed import EpochOneMeans
from reference.sajed_sheffet.bandits import DPUCB, DPSuccessiveElimination
from reference.shariff_sheffet import PrivacyParameters, ProblemConstants, make_policy


class ReferenceAlgorithm1:
    """Algorithm 1 with the paper's Gaussian tree at ``(ε, δ)`` as a ``StreamPolicy``, its
    dimension ``d`` read from the decision sets (``L = S = B̃ = 1``, ``α = 1/n``)."""

    def __init__(self, epsilon: float = 1.0, delta: float = 0.1) -> None:
        self.epsilon, self.delta = epsilon, delta

    def __repr__(self) -> str:
        return f"ReferenceAlgorithm1(epsilon={self.epsilon}, delta={self.delta})"

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The reference's actions on the stream."""
        d = int(np.asarray(decision_sets[0]).shape[1])
        privacy = PrivacyParameters(self.epsilon, self.delta)
        policy = Algorithm1Policy(
            lambda n, g: make_policy("gaussian", ProblemConstants(d=d), n, 1.0 / n, g, privacy),
            repr(self),
        )
        return policy.run(decision_sets, reward_tables, rng)


class ReferenceMultiArmed:
    """A reference multi-armed learner (``"dp_se"`` or ``"dp_ucb"``) as a ``StreamPolicy``:
    one-hot arms, ``β = 1/T``; DP-SE also exposes its first release (``EpochOneMeans``, whose
    epoch length is checked against the reference's ``dpse_rounds`` in the tests)."""

    def __init__(self, algorithm: str, epsilon: float = 1.0, arms: int = 5) -> None:
        if algorithm not in ("dp_se", "dp_ucb"):
            raise ValueError(f"algorithm must be 'dp_se' or 'dp_ucb', got {algorithm!r}")
        self.algorithm, self.epsilon, self.delta, self.arms = algorithm, epsilon, 0.0, arms

    def __repr__(self) -> str:
        return f"ReferenceMultiArmed({self.algorithm!r}, epsilon={self.epsilon})"

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The reference's pulls on the stream."""
        horizon, k = len(decision_sets), len(decision_sets[0])
        learner: DPSuccessiveElimination | DPUCB = (
            DPSuccessiveElimination(k, self.epsilon, 1.0 / horizon, rng)
            if self.algorithm == "dp_se"
            else DPUCB(k, horizon, self.epsilon, rng)
        )
        actions = np.zeros(horizon, dtype=np.int64)
        for day in range(horizon):
            actions[day] = learner.select_arm()
            learner.update(int(actions[day]), float(reward_tables[day][actions[day]]))
        return actions


class ReferenceDPSE(ReferenceMultiArmed):
    """:class:`ReferenceMultiArmed` DP-SE, with ``release_mechanism()``."""

    def __init__(self, epsilon: float = 1.0, arms: int = 5) -> None:
        super().__init__("dp_se", epsilon, arms)

    def release_mechanism(self) -> EpochOneMeans:
        """The noisy means released at the end of epoch 1."""
        return EpochOneMeans(self.epsilon, self.arms)


class ReferenceOnline:
    """Agarwal & Singh's private learner as an ``OnlinePolicy`` on losses in ``[0, 1]^N``:
    Algorithm 1 (``"full"``) or Algorithm 4 over EXP2 (``"bandit"``), strict calibration."""

    def __init__(self, feedback: str, epsilon: float = 1.0) -> None:
        if feedback not in ("full", "bandit"):
            raise ValueError(f"feedback must be 'full' or 'bandit', got {feedback!r}")
        self.feedback, self.epsilon, self.delta, self.loss_set = feedback, epsilon, 0.0, "box01"

    def __repr__(self) -> str:
        return f"ReferenceOnline({self.feedback!r}, epsilon={self.epsilon})"

    def play(self, losses: Any, rng: np.random.Generator) -> Any:
        """The reference's published points on the loss sequence."""
        table = np.asarray(losses, dtype=np.float64)
        if self.feedback == "full":
            return reference_full_points(table, self.epsilon, rng)
        arms, reduction = rng.spawn(2)
        return reference_bandit_points(table, self.epsilon, arms, reduction)


algorithm1 = ReferenceAlgorithm1()
dp_se = ReferenceDPSE()
dp_ucb = ReferenceMultiArmed("dp_ucb")
private_ftrl = ReferenceOnline("full")
private_bandit = ReferenceOnline("bandit")
