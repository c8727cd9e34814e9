"""A third-party-style private LinUCB, written apart from privonline's reference.

Algorithm 1 of Shariff & Sheffet with the Gaussian tree mechanism (Sec. 4.2), implemented
independently in plain numpy: its own tree over the ``(d+1)×(d+1)`` Gram matrices of rows
``(x, y)``, node noise drawn once per node, every release padded to ``m`` noise terms, the shift
``2Υ`` and Proposition 4's ``β_t``.  Only the paper's constants are taken from privonline.
It satisfies :class:`audit.protocols.StreamPolicy`, so ``privonline check`` can audit it::

    privonline check examples.good_policy:policy --path . --epsilon 1 --delta 0.1

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    gaussian_bounds_for_sigma,
    gaussian_noise_std,
)


class GaussianTreeLinUCB:
    """Joint-DP LinUCB with Gaussian tree noise (``L = B̃ = S = σ = 1``)."""

    def __init__(self, epsilon: float = 1.0, delta: float = 0.1) -> None:
        self.epsilon, self.delta = epsilon, delta

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon}, delta={self.delta})"

    def calibration(self, n: int, d: int, m: int) -> tuple[float, RegularizerBounds]:
        """Node-noise scale (Sec. 4.2) and Proposition 11's bounds at that scale."""
        sigma = gaussian_noise_std(m, math.sqrt(2.0), self.epsilon, self.delta)
        return sigma, gaussian_bounds_for_sigma(d, m, sigma, max(n, 2), 1.0 / max(n, 2))

    def _symmetric_noise(self, rng: np.random.Generator, p: int, scale: float) -> Any:
        z = rng.normal(0.0, scale, size=(p, p))
        return (z + z.T) / math.sqrt(2.0)

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        n = len(decision_sets)
        d = int(np.asarray(decision_sets[0]).shape[1])
        p, alpha = d + 1, 1.0 / max(n, 2)
        m = 1 + (n - 1).bit_length()
        sigma, bounds = self.calibration(n, d, m)
        gram = np.zeros((p, p))
        node_noise: dict[int, Any] = {}  # level -> noise of the latest complete node
        actions = np.zeros(n, dtype=np.int64)
        for s in range(n):  # release of the first s rows, then row s + 1 arrives
            levels = [j for j in range(s.bit_length()) if (s >> j) & 1]
            noise = sum((node_noise[j] for j in levels), np.zeros((p, p)))
            noise = noise + self._symmetric_noise(rng, p, sigma * math.sqrt(m - len(levels)))
            released = gram + noise
            V = released[:d, :d] + bounds.shift * np.eye(d)
            lam, Q = np.linalg.eigh(V)
            lam = np.maximum(lam, bounds.rho_min)
            theta = Q @ ((Q.T @ released[:d, d]) / lam)
            log_det = float(np.sum(np.log(lam)))
            radicand = 2 * math.log(2 / alpha) + log_det - d * math.log(bounds.rho_min)
            beta = math.sqrt(max(radicand, 0.0)) + math.sqrt(bounds.rho_max) + bounds.gamma
            arms = np.asarray(decision_sets[s], dtype=np.float64)
            width = np.sqrt(np.sum((arms @ Q) ** 2 / lam, axis=1))
            index = int(np.argmax(arms @ theta + beta * width))
            actions[s] = index
            row = np.append(arms[index], float(reward_tables[s][index]))
            gram = gram + np.outer(row, row)
            leaf = s + 1  # node noise is drawn once, when the node completes
            for j in range(m):
                if leaf % (2**j) == 0:
                    node_noise[j] = self._symmetric_noise(rng, p, sigma)
        return actions


policy = GaussianTreeLinUCB()
