"""A zoo of third-party-style private multi-armed policies (Sajed & Sheffet), plain numpy.

One correct policy (:class:`DPUCB`, the Sec. 5 DP-UCB baseline: per-arm tree counters with Laplace
noise) and three planted bugs (:class:`WrongSplitDPUCB`, :class:`NoiseReusedDPUCB`,
:class:`ReusedRewardsDPSE`).  Each is an :class:`audit.protocols.StreamPolicy` for one-hot arms
and rewards in ``{0, 1}``; the DP-UCBs are :class:`audit.protocols.ReleasingPolicy` too, on the
``(n, K)`` records "day's reward in the pulled arm's coordinate, 0 elsewhere"::

    privonline check examples.multi_armed_zoo:dp_ucb --kind multi_armed --path . \\
        --epsilon 1 --delta 0
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from reference._typing import FloatArray

from .zoo_trees import LaplaceNodeSums, SharedNoiseNodeSums, decomposition, levels, released_nodes

__all__ = [
    "DPUCB",
    "NoiseReusedDPUCB",
    "ReusedRewardsDPSE",
    "WrongSplitDPUCB",
    "dp_ucb",
    "noise_reused_dp_ucb",
    "reused_rewards_dpse",
    "wrong_split_dp_ucb",
]


def _identity(records: FloatArray) -> FloatArray:
    return records


def _check_epsilon(epsilon: float) -> float:
    if not (isinstance(epsilon, int | float) and math.isfinite(epsilon) and epsilon > 0.0):
        raise ValueError(f"epsilon must be in (0, inf), got {epsilon!r}")
    return float(epsilon)


class DPUCB:
    """Correct DP-UCB (Sajed & Sheffet Sec. 1 and 5, after Mishra & Thakurta and Tossou &
    Dimitrakakis): arm ``a`` keeps a binary tree counter over the days, its leaf ``t`` the day's
    reward if ``a`` was pulled, else 0; every node gets ``Lap(levels/ε)``, drawn once, ``levels =
    (n − 1).bit_length()`` the released nodes a day enters.  Day ``t ≤ K`` pulls arm ``t``; then
    ``argmax Ŝ_a/n_a + √(2 log t/n_a) + γ/n_a`` with ``γ = b·max(√levels, √ℓ)·√(8ℓ)``, ``b`` the
    node scale, ``ℓ = log(2Kn/β)``, ``β = 1/n`` (Chan, Shi & Song Cor. 2.9 over ``Kn`` releases).

    ε-DP for one changed reward: it enters ``levels`` nodes of one arm's tree (the pulled arm is
    fixed by the past), each moved by at most 1.  ``release_mechanism()``: the exact Laplace
    density of every arm's released node sums (node-major, ``K`` values per node).
    """

    def __init__(self, epsilon: float = 1.0) -> None:
        self.epsilon, self.delta = _check_epsilon(epsilon), 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon})"

    def node_scale(self, n: int) -> float:
        """Laplace scale of every node: ``levels/ε``."""
        return levels(n) / self.epsilon

    def width(self, n: int, k: int) -> float:
        """``γ``: bound on every release's noise, w.p. ``1 − 1/n`` (class docstring)."""
        ell = math.log(2.0 * k * n * n)
        return self.node_scale(n) * max(math.sqrt(levels(n)), math.sqrt(ell)) * math.sqrt(8 * ell)

    def node_noise(self, rng: np.random.Generator, k: int, n: int) -> Callable[[], FloatArray]:
        """A run's source of node noise: each call draws one node's noise for the ``k`` trees."""
        scale = self.node_scale(n)
        return lambda: rng.laplace(0.0, scale, size=k)

    def release_mechanism(self) -> LaplaceNodeSums:
        """Every arm's released node sums with independent ``Lap(node_scale)`` noise (white box)."""
        return LaplaceNodeSums(
            _identity, lambda n, m: self.node_scale(n), f"{self!r}.release_mechanism()"
        )

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        n, k = len(decision_sets), len(decision_sets[0])
        gamma = self.width(n, k)
        sums, pulls = np.zeros(k), np.zeros(k)
        noise_of: dict[tuple[int, int], FloatArray] = {}  # drawn once per node, when first used
        draw = self.node_noise(rng, k, n)
        actions = np.zeros(n, dtype=np.int64)
        for s in range(n):  # the release of days 1..s, then day s + 1's choice
            if s < k:
                arm = s
            else:
                noise = np.zeros(k)
                for block in decomposition(s):
                    if block not in noise_of:
                        noise_of[block] = draw()
                    noise = noise + noise_of[block]
                index = (sums + noise) / pulls + np.sqrt(2 * math.log(s + 1) / pulls)
                arm = int(np.argmax(index + gamma / pulls))
            actions[s] = arm
            pulls[arm] += 1
            sums[arm] += float(reward_tables[s][arm])
        return actions


class WrongSplitDPUCB(DPUCB):
    """BUG: :class:`DPUCB` with each tree node given the whole ε (``Lap(1/ε)``) instead of
    ``ε/levels`` (``Lap(levels/ε)``).

    A reward enters ``levels`` nodes of its arm's tree, so it costs ``levels·ε``: really ε ≈ 3
    for a claimed 1 at ``n = 8`` (``levels = 3``), ≈ 4 at ``n = 16`` and ≈ 15 at ``n = 20000``
    (the tree mechanism's budget is split across the ``log T`` levels a leaf enters: Sajed &
    Sheffet Sec. 1, nodes ``Lap(log₂(T)/ε)``).  ``release_mechanism()``: exact density.
    """

    def node_scale(self, n: int) -> float:
        """``1/ε`` (the bug: no split over the levels)."""
        return 1.0 / self.epsilon


class NoiseReusedDPUCB(DPUCB):
    """BUG: :class:`DPUCB` with one Laplace draw per arm, reused for every node of that arm's
    tree, so every release of arm ``a``'s counter carries ``popcount(s)`` copies of one ``η_a``.

    Node ``[1]`` minus node ``[3]`` of arm ``a``'s tree is then noise free, ``r_1 − r_3`` in
    ``a``'s coordinate: day 1's reward shows exactly, no finite ε (``δ = 1``) once ``n ≥ 4`` (the
    tree mechanism's node noise must be independent, Sajed & Sheffet Sec. 1).  The author believes it independent;
    ``release_mechanism()`` is black box only (every arm's released node sums, node-major).
    """

    def node_noise(self, rng: np.random.Generator, k: int, n: int) -> Callable[[], FloatArray]:
        """The bug: one draw per run (when first needed), returned for every node."""
        scale = self.node_scale(n)
        shared: list[FloatArray] = []

        def draw() -> FloatArray:
            if not shared:
                shared.append(rng.laplace(0.0, scale, size=k))
            return shared[0]

        return draw

    def release_mechanism(self) -> SharedNoiseNodeSums:  # type: ignore[override]
        """Every arm's released node sums, all carrying that arm's one shared draw."""
        return SharedNoiseNodeSums(
            _identity,
            lambda rng, size, q: rng.laplace(0.0, 1.0, size=(size, q)),
            lambda n: [[node] for node in released_nodes(n)],
            lambda n: np.full(len(released_nodes(n)), self.node_scale(n)),
            f"{self!r}.release_mechanism()",
        )


class ReusedRewardsDPSE:
    """BUG: DP Successive Elimination (Sajed & Sheffet Algorithm 3) whose epoch-``e`` mean of an
    arm is its *cumulative* mean over all its pulls so far, with ``Lap(1/(ε N_e))`` noise (``N_e``
    its pulls so far) and ``h_e``, ``c_e`` at ``N_e``: each epoch is budgeted ε as if its data
    were fresh.

    Algorithm 3 resets the statistics every epoch (line 4) so that each reward is used in one
    epoch's release only (Thm 4.1's privacy argument); here a reward of epoch 1 enters every later
    release of its arm: ε per epoch, composed over the ``E`` ended epochs the arm survives, really
    ``E·ε`` (``E`` up to about ``log₂(1/Δ)``).  Epochs are long (``R_1 ≈ 1700`` rounds at
    ``T = 20000``), so ``E ≥ 2`` needs ``T ≳ 2·10⁴`` (``K = 2``) or ``≳ 5·10⁴`` (``K = 5``, all
    arms alive): on a short stream no epoch ends and the actions are a fixed round robin.
    """

    def __init__(self, epsilon: float = 1.0) -> None:
        self.epsilon, self.delta = _check_epsilon(epsilon), 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon})"

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        horizon, k = len(decision_sets), len(decision_sets[0])
        beta, eps = 1.0 / horizon, self.epsilon
        alive = list(range(k))
        sums, pulls = np.zeros(k), np.zeros(k)  # the bug: never reset between epochs
        actions: list[int] = []
        epoch = 0
        while len(actions) < horizon and len(alive) > 1:
            epoch += 1
            gap, size = 2.0**-epoch, len(alive)
            log_a = math.log(8 * size * epoch**2 / beta)
            log_b = math.log(4 * size * epoch**2 / beta)
            rounds = math.ceil(max(32 * log_a / gap**2, 8 * log_b / (eps * gap)) + 1)
            for _ in range(rounds):
                for arm in alive:
                    if len(actions) == horizon:
                        return np.array(actions, dtype=np.int64)
                    sums[arm] += float(reward_tables[len(actions)][arm])
                    pulls[arm] += 1
                    actions.append(arm)
            counts = pulls[alive]
            noisy = sums[alive] / counts + rng.laplace(0.0, 1.0, size) / (eps * counts)
            slack = 2 * np.sqrt(log_a / (2 * counts)) + 2 * log_b / (counts * eps)
            alive = [a for a, m, w in zip(alive, noisy, slack, strict=True) if noisy.max() - m <= w]
        actions += [alive[0]] * (horizon - len(actions))
        return np.array(actions, dtype=np.int64)


dp_ucb = DPUCB()
wrong_split_dp_ucb = WrongSplitDPUCB()
noise_reused_dp_ucb = NoiseReusedDPUCB()
reused_rewards_dpse = ReusedRewardsDPSE()
