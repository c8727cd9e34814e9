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


def epoch_rounds(epsilon: float, arms: int, epoch: int, horizon: int) -> int:
    """``R_e``: how often each of ``arms`` surviving arms is pulled in epoch ``e`` (Algorithm 3,
    ``β = 1/T``)."""
    gap = 2.0**-epoch
    log_a = math.log(8 * arms * epoch**2 * horizon)
    log_b = math.log(4 * arms * epoch**2 * horizon)
    return math.ceil(max(32 * log_a / gap**2, 8 * log_b / (epsilon * gap)) + 1)


class EpochOneMeans:
    """DP-SE's first release as a mechanism on record streams (``audit.protocols.ReleasingPolicy``):
    on a stream of exactly :attr:`days` days (the end of epoch 1 when the horizon is ``days``:
    ``days = K·R_1``), arm ``a`` is pulled on days ``a + 1, a + 1 + K, …``; its release is the mean
    of the rewards of those days plus ``Lap(1/(ε R_1))`` (white box: the exact density).  Record
    row ``t`` holds the day's reward in the pulled arm's coordinate."""

    def __init__(self, epsilon: float, arms: int) -> None:
        self.epsilon, self.arms = epsilon, arms
        days = arms
        while days != arms * epoch_rounds(epsilon, arms, 1, days):  # the fixed point T = K·R_1(T)
            days = arms * epoch_rounds(epsilon, arms, 1, days)
        self.days, self.rounds = days, days // arms

    def __repr__(self) -> str:
        return f"EpochOneMeans(epsilon={self.epsilon}, arms={self.arms}, days={self.days})"

    def _means(self, data: Any) -> np.ndarray:
        records = np.asarray(data, dtype=np.float64)
        if records.shape != (self.days, self.arms):
            raise ValueError(f"records must have shape ({self.days}, {self.arms}), got "
                             f"{records.shape}")  # fmt: skip
        pulled = records[np.arange(self.days), np.arange(self.days) % self.arms]
        return np.asarray(pulled.reshape(self.rounds, self.arms).mean(axis=0), dtype=np.float64)

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` draws of the ``K`` noisy epoch-1 means."""
        scale = 1.0 / (self.epsilon * self.rounds)
        return self._means(data) + rng.laplace(0.0, scale, size=(size, self.arms))

    def log_density(self, data: Any, outputs: np.ndarray) -> np.ndarray:
        """The exact Laplace log-density of the noisy means."""
        scale = 1.0 / (self.epsilon * self.rounds)
        z = np.abs(np.asarray(outputs, dtype=np.float64) - self._means(data))
        return np.asarray(-(z / scale).sum(axis=1) - self.arms * math.log(2 * scale))


class PrivateSuccessiveElimination:
    """Algorithm 3: epochs ``e = 1, 2, …`` with ``Δ_e = 2^{−e}``; every surviving arm is pulled
    ``R_e = max(32 log(8|S|e²/β)/Δ_e², 8 log(4|S|e²/β)/(εΔ_e)) + 1`` times (rounded up) from
    fresh statistics; its mean gets fresh ``Lap(1/(ε R_e))`` noise; arms more than
    ``2h_e + 2c_e`` below the best noisy mean are dropped (``β = 1/T``).

    Its first ``K·R_1`` actions are a fixed round robin, so no audit of its actions over a short
    stream can say anything; ``release_mechanism()`` exposes its first release (:class:`EpochOneMeans`,
    for the ``K = 5`` arms of ``privonline check --kind multi_armed``)."""

    def __init__(self, epsilon: float = 1.0, arms: int = 5) -> None:
        if not epsilon > 0.0:
            raise ValueError(f"epsilon must be > 0, got {epsilon}")
        self.epsilon, self.arms = float(epsilon), int(arms)

    def release_mechanism(self) -> EpochOneMeans:
        """The noisy means released at the end of epoch 1 (:class:`EpochOneMeans`)."""
        return EpochOneMeans(self.epsilon, self.arms)

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
            size = len(alive)
            log_a = math.log(8 * size * epoch**2 / beta)
            log_b = math.log(4 * size * epoch**2 / beta)
            rounds = epoch_rounds(eps, size, epoch, horizon)
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
