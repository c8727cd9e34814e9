"""Node-noise laws for the tree-based aggregation mechanism.

A node-noise law is anything satisfying :class:`NodeNoise`: it knows the shape of one noise draw,
can sample one draw, and can sample the *sum* of ``j`` independent draws (used to pad a release to
exactly ``m`` noise terms, Shariff & Sheffet spec §2.4 [R-PAD]).

Laws implemented here:

* :class:`WishartNoise` -- ``W_p(scale·I, k)``, Shariff & Sheffet Sec. 4.1 / Thm 8.
* :class:`SymmetricGaussianNoise` -- ``Z = (Z' + Z'^T)/√2`` with ``Z'_ij ~ N(0, σ²)`` i.i.d.,
  Shariff & Sheffet Sec. 4.2.
* :class:`GaussianVectorNoise`, :class:`LaplaceNoise` -- i.i.d. entries of any shape (Agarwal & Singh
  Alg. 2/3 use these on loss vectors).
* :class:`ZeroNoise` -- no noise; turns the tree into an exact prefix-sum structure (tests).
"""

from __future__ import annotations

import math
from typing import Protocol, runtime_checkable

import numpy as np
from scipy import stats

from reference._typing import FloatArray
from reference.validation import check_int_at_least, check_positive

__all__ = [
    "GaussianVectorNoise",
    "LaplaceNoise",
    "NodeNoise",
    "SymmetricGaussianNoise",
    "WishartNoise",
    "ZeroNoise",
]


@runtime_checkable
class NodeNoise(Protocol):
    """The law of the noise added to one tree node."""

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of one draw (equal to the shape of the items being summed)."""
        ...

    def sample(self, rng: np.random.Generator) -> FloatArray:
        """One draw from the node-noise law."""
        ...

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        """One draw from the law of the sum of ``j`` independent node-noise draws (``j = 0``: zeros)."""
        ...


class WishartNoise:
    """Wishart node noise ``W_p(scale · I_p, k)`` (Shariff & Sheffet, Sec. 4.1, Theorem 8).

    ``W_p(V, k)`` is the law of ``Z^T Z`` for ``Z ∈ R^{k×p}`` with i.i.d. ``N(0, V)`` rows.  In the
    paper ``scale = L̃²`` (the text's ``W_{d+1}(L̃ I, k)`` is a typo, see proofs_notes R-SCALE).
    Sums of independent draws with a common scale are Wishart with the degrees of freedom added
    (paper footnote 3), which is how :meth:`sample_sum` draws them.

    Sampling uses :data:`scipy.stats.wishart` (Bartlett decomposition, cost independent of ``k``).

    Args:
        dim: matrix dimension ``p`` (``d + 1`` in the paper), ``>= 1``.
        degrees_of_freedom: ``k >= p`` (the density exists only for ``k >= p``).
        scale: the scalar ``s`` in ``V = s·I``; ``> 0``.
    """

    def __init__(self, dim: int, degrees_of_freedom: int, scale: float) -> None:
        self.dim = check_int_at_least("dim", dim, 1)
        self.degrees_of_freedom = check_int_at_least(
            "degrees_of_freedom", degrees_of_freedom, self.dim
        )
        self.scale = check_positive("scale", scale)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.dim, self.dim)

    def _draw(self, rng: np.random.Generator, df: int) -> FloatArray:
        law = stats.wishart(df=df, scale=self.scale * np.eye(self.dim))
        draw = np.asarray(law.rvs(random_state=rng), dtype=np.float64)
        return draw.reshape(self.dim, self.dim)

    def sample(self, rng: np.random.Generator) -> FloatArray:
        return self._draw(rng, self.degrees_of_freedom)

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        if j == 0:
            return np.zeros(self.shape)
        return self._draw(rng, j * self.degrees_of_freedom)

    def __repr__(self) -> str:
        return f"WishartNoise(dim={self.dim}, degrees_of_freedom={self.degrees_of_freedom}, scale={self.scale!r})"


class SymmetricGaussianNoise:
    """Symmetrised Gaussian matrix noise (Shariff & Sheffet, Sec. 4.2).

    Sample ``Z' ∈ R^{p×p}`` with i.i.d. ``N(0, σ²)`` entries and return ``Z = (Z' + Z'^T)/√2``.
    Off-diagonal entries of ``Z`` have variance ``σ²`` and diagonal entries ``2σ²`` (paper
    footnote 4); the upper-triangle entries are independent.  The sum of ``j`` independent draws
    has the same law with ``σ² → jσ²``.

    Args:
        dim: matrix dimension ``p``, ``>= 1``.
        sigma: the per-entry standard deviation ``σ_noise`` of ``Z'``; ``> 0``.
    """

    def __init__(self, dim: int, sigma: float) -> None:
        self.dim = check_int_at_least("dim", dim, 1)
        self.sigma = check_positive("sigma", sigma)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.dim, self.dim)

    def _draw(self, rng: np.random.Generator, sigma: float) -> FloatArray:
        z_prime = rng.normal(0.0, sigma, size=self.shape)
        return (z_prime + z_prime.T) / math.sqrt(2.0)

    def sample(self, rng: np.random.Generator) -> FloatArray:
        return self._draw(rng, self.sigma)

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        if j == 0:
            return np.zeros(self.shape)
        return self._draw(rng, self.sigma * math.sqrt(j))

    def __repr__(self) -> str:
        return f"SymmetricGaussianNoise(dim={self.dim}, sigma={self.sigma!r})"


class GaussianVectorNoise:
    """I.i.d. ``N(0, σ²)`` entries in an array of the given shape."""

    def __init__(self, shape: tuple[int, ...], sigma: float) -> None:
        for axis, size in enumerate(shape):
            check_int_at_least(f"shape[{axis}]", size, 1)
        self._shape = tuple(int(s) for s in shape)
        self.sigma = check_positive("sigma", sigma)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: np.random.Generator) -> FloatArray:
        return rng.normal(0.0, self.sigma, size=self._shape)

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        if j == 0:
            return np.zeros(self._shape)
        return rng.normal(0.0, self.sigma * math.sqrt(j), size=self._shape)

    def __repr__(self) -> str:
        return f"GaussianVectorNoise(shape={self._shape}, sigma={self.sigma!r})"


class LaplaceNoise:
    """I.i.d. ``Laplace(0, b)`` entries (density ``exp(-|x|/b)/(2b)``) in an array of the given shape.

    The sum of ``j`` Laplace draws has no closed-form sampler in numpy, so :meth:`sample_sum` draws
    ``j`` independent arrays and adds them.
    """

    def __init__(self, shape: tuple[int, ...], scale: float) -> None:
        for axis, size in enumerate(shape):
            check_int_at_least(f"shape[{axis}]", size, 1)
        self._shape = tuple(int(s) for s in shape)
        self.scale = check_positive("scale", scale)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: np.random.Generator) -> FloatArray:
        return rng.laplace(0.0, self.scale, size=self._shape)

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        draws = rng.laplace(0.0, self.scale, size=(j, *self._shape))
        return np.asarray(draws.sum(axis=0), dtype=np.float64)

    def __repr__(self) -> str:
        return f"LaplaceNoise(shape={self._shape}, scale={self.scale!r})"


class ZeroNoise:
    """No noise: every draw is an array of zeros (the tree then returns exact prefix sums)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        for axis, size in enumerate(shape):
            check_int_at_least(f"shape[{axis}]", size, 1)
        self._shape = tuple(int(s) for s in shape)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: np.random.Generator) -> FloatArray:
        return np.zeros(self._shape)

    def sample_sum(self, rng: np.random.Generator, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        return np.zeros(self._shape)

    def __repr__(self) -> str:
        return f"ZeroNoise(shape={self._shape})"
