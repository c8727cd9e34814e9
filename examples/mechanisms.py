"""Third-party-style mechanisms for ``privonline check`` (worked examples, see README).

``GaussianCount`` releases a count plus Gaussian noise calibrated for ``(ε, δ) = (1, 10⁻⁵)`` with
the classical bound ``σ = Δ √(2 ln(1.25/δ)) / ε`` (Dwork & Roth, Thm A.1), and exposes its density
(white box).  ``QuarterNoiseCount`` has the planted bug ``σ/4``.  ``pair`` is the worst-case
neighbouring pair (sensitivity ``Δ = 1``).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from audit.protocols import NeighbouringPair

SIGMA = math.sqrt(2.0 * math.log(1.25 / 1e-5))


class GaussianCount:
    """``x + N(0, σ²)`` on a scalar count (shape ``(1,)``)."""

    sigma = SIGMA

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        return np.asarray(data, dtype=np.float64) + rng.normal(0.0, self.sigma, size=(size, 1))

    def log_density(self, data: Any, outputs: Any) -> Any:
        z = (np.asarray(outputs) - np.asarray(data, dtype=np.float64)) / self.sigma
        return -0.5 * np.sum(z**2, axis=1)


class QuarterNoiseCount(GaussianCount):
    """Planted bug: the noise is four times too small."""

    sigma = SIGMA / 4.0


good = GaussianCount()
buggy = QuarterNoiseCount()
pair = NeighbouringPair(np.array([0.0]), np.array([1.0]), "replace_one", "counts 0 and 1")
