"""Third-party-style multi-armed policies for ``privonline check --kind multi_armed``.

``PrivateSuccessiveElimination`` is DP Successive Elimination (Sajed & Sheffet Algorithm 3) written
apart from privonline's reference in plain numpy, ε-DP for one changed reward; ``UCB1`` is the
non-private UCB of their Sec. 2 (it reads every reward exactly, so one changed reward changes later
choices).  Both satisfy :class:`audit.protocols.StreamPolicy` with one-hot arms and rewards in
``{0, 1}``::

    privonline check examples.multi_armed:PrivateSuccessiveElimination --kind multi_armed \\
        --path . --epsilon 1 --delta 0
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


class PrivateSuccessiveElimination:
    """Algorithm 3: epochs ``e = 1, 2, …`` with ``Δ_e = 2^{−e}``; every surviving arm is pulled
    ``R_e = max(32 log(8|S|e²/β)/Δ_e², 8 log(4|S|e²/β)/(εΔ_e)) + 1`` times (rounded up) from
    fresh statistics; its mean gets fresh ``Lap(1/(ε R_e))`` noise; arms more than
    ``2h_e + 2c_e`` below the best noisy mean are dropped (``β = 1/T``)."""

    def __init__(self, epsilon: float = 1.0) -> None:
        if not epsilon > 0.0:
            raise ValueError(f"epsilon must be > 0, got {epsilon}")
        self.epsilon = float(epsilon)

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> np.ndarray:
        horizon, k = len(decision_sets), len(decision_sets[0])
        beta, eps = 1.0 / horizon, self.epsilon
        alive = list(range(k))
        actions: list[int] = []
        epoch = 0
        while len(actions) < horizon:
            if len(alive) == 1:
                actions += [alive[0]] * (horizon - len(actions))
                break
            epoch += 1
            gap = 2.0**-epoch
            size = len(alive)
            log_a = math.log(8 * size * epoch**2 / beta)
            log_b = math.log(4 * size * epoch**2 / beta)
            rounds = math.ceil(max(32 * log_a / gap**2, 8 * log_b / (eps * gap)) + 1)
            sums = np.zeros(size)
            for _ in range(rounds):
                for j, arm in enumerate(alive):
                    if len(actions) == horizon:
                        return np.array(actions)
                    actions.append(arm)
                    sums[j] += float(reward_tables[len(actions) - 1][arm])
            noisy = sums / rounds + rng.laplace(0.0, 1.0 / (eps * rounds), size)
            h = math.sqrt(log_a / (2 * rounds))
            c = log_b / (rounds * eps)
            best = noisy.max()
            alive = [a for a, m in zip(alive, noisy, strict=True) if best - m <= 2 * h + 2 * c]
        return np.array(actions[:horizon])


class UCB1:
    """Non-private UCB1: each arm once, then ``argmax μ̄_a + √(2 log t / n_a)``."""

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> np.ndarray:
        k = len(decision_sets[0])
        pulls, sums = np.zeros(k), np.zeros(k)
        actions = []
        for day, rewards in enumerate(reward_tables, start=1):
            if np.any(pulls == 0):
                arm = int(np.argmin(pulls))
            else:
                arm = int(np.argmax(sums / pulls + np.sqrt(2 * math.log(day) / pulls)))
            pulls[arm] += 1
            sums[arm] += float(rewards[arm])
            actions.append(arm)
        return np.array(actions)
