"""Node-noise laws for the tree-based aggregation mechanism (anything satisfying :class:`NodeNoise`).

:class:`WishartNoise` (Shariff & Sheffet Sec. 4.1, Thm 8), :class:`SymmetricGaussianNoise`
(Sec. 4.2), :class:`GaussianVectorNoise` and :class:`LaplaceNoise` (Agarwal & Singh Alg. 2/3),
:class:`ZeroNoise` (tests).  ``sample_sum`` draws the sum of ``j`` draws, used to pad a release to
exactly ``m`` noise terms (Sec. 4, App. A.2).  Draws come from a :class:`numpy.random.Generator`
or from block-stable :class:`~reference.rng.NoiseStreams`; :func:`bartlett_wishart` and
:func:`symmetrize` are shared with :mod:`reference.engine`.

Proof note: ``proofs_notes/shariff_sheffet/wishart_mechanism.md``.
"""

from __future__ import annotations

import math
from typing import Protocol, TypeAlias, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.rng import NoiseStreams
from reference.validation import (
    check_array,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_shape,
    check_size,
)

__all__ = [
    "GaussianVectorNoise",
    "LaplaceNoise",
    "NodeNoise",
    "RandomSource",
    "SymmetricGaussianNoise",
    "WishartNoise",
    "ZeroNoise",
    "bartlett_chi2_df",
    "bartlett_wishart",
    "symmetrize",
]

RandomSource: TypeAlias = np.random.Generator | NoiseStreams
"""Where a noise law draws from: one generator, or one generator per primitive draw."""


def bartlett_chi2_df(dim: int, degrees_of_freedom: float) -> FloatArray:
    """Degrees of freedom ``k, k − 1, …, k − p + 1`` of the Bartlett diagonal of ``W_p(·, k)``
    (``p = dim >= 1``, ``k = degrees_of_freedom >= p`` as for :class:`WishartNoise`)."""
    dim = check_size("dim", dim, 1, item_bytes=8, what="a degree of freedom")
    k = check_in_range("degrees_of_freedom", degrees_of_freedom, dim, math.inf, low_open=False)
    return k - np.arange(dim, dtype=np.float64)


def bartlett_wishart(chi2: FloatArray, normals: FloatArray, scale: float) -> FloatArray:
    """Wishart draws ``W = scale · A Aᵀ`` from their Bartlett primitives (batched over leading axes).

    Bartlett decomposition (as in :data:`scipy.stats.wishart`): for ``W_p(scale·I, k)``, ``A`` is
    lower triangular with ``A_ii = √c_i``, ``c_i ~ χ²(k − i)`` (:func:`bartlett_chi2_df`), and
    independent ``N(0, 1)`` entries below the diagonal, filled in the row-major order of
    ``numpy.tril_indices(p, -1)``.

    Args:
        chi2: shape ``(..., p)``, the diagonal chi-square draws.
        normals: shape ``(..., p(p−1)/2)``, the below-diagonal normal draws.
        scale: the scalar ``s`` of ``V = s·I``, ``> 0``.
    """
    chi2 = check_array("chi2", chi2)
    normals = check_array("normals", normals)
    scale = check_positive("scale", scale)
    if chi2.ndim == 0 or chi2.shape[-1] == 0:
        raise ValueError(f"chi2 must have shape (..., p) with p >= 1, got shape {chi2.shape}")
    if np.any(chi2 < 0.0):
        raise ValueError("chi2 must hold chi-square draws (>= 0), got a negative entry")
    p = chi2.shape[-1]
    if normals.shape != (*chi2.shape[:-1], p * (p - 1) // 2):
        raise ValueError(
            f"normals must have shape {(*chi2.shape[:-1], p * (p - 1) // 2)} to match chi2 of "
            f"shape {chi2.shape}, got {normals.shape}"
        )
    factor = np.zeros((*chi2.shape, p))
    diagonal = np.arange(p)
    factor[..., diagonal, diagonal] = np.sqrt(chi2)
    rows, cols = np.tril_indices(p, -1)
    factor[..., rows, cols] = normals
    return np.asarray(scale * (factor @ np.swapaxes(factor, -1, -2)), dtype=np.float64)


def symmetrize(z_prime: FloatArray) -> FloatArray:
    """``(Z' + Z'ᵀ)/√2`` over the last two axes (Shariff & Sheffet Sec. 4.2), batched."""
    z_prime = check_array("z_prime", z_prime)
    if z_prime.ndim < 2 or z_prime.shape[-1] != z_prime.shape[-2] or z_prime.shape[-1] == 0:
        raise ValueError(
            f"z_prime must have shape (..., p, p) with p >= 1, got shape {z_prime.shape}"
        )
    return np.asarray((z_prime + np.swapaxes(z_prime, -1, -2)) / math.sqrt(2.0), dtype=np.float64)


@runtime_checkable
class NodeNoise(Protocol):
    """The law of the noise added to one tree node."""

    @property
    def shape(self) -> tuple[int, ...]:
        """Shape of one draw (equal to the shape of the items being summed)."""
        ...

    def sample(self, rng: RandomSource) -> FloatArray:
        """One draw from the node-noise law."""
        ...

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        """One draw from the law of the sum of ``j`` independent node-noise draws (``j = 0``: zeros)."""
        ...


class WishartNoise:
    """Wishart node noise ``W_p(scale · I_p, k)`` (Shariff & Sheffet, Sec. 4.1, Theorem 8).

    ``W_p(V, k)`` is the law of ``Z^T Z`` for ``Z ∈ R^{k×p}`` with i.i.d. ``N(0, V)`` rows.  In the
    paper ``scale = L̃²`` (the text's ``W_{d+1}(L̃ I, k)`` is a typo, see proofs_notes R-SCALE).
    Sums of independent draws with a common scale are Wishart with the degrees of freedom added
    (paper footnote 3), which is how :meth:`sample_sum` draws them.

    Sampling uses the Bartlett decomposition of :data:`scipy.stats.wishart` (cost independent of
    ``k``), assembled by :func:`bartlett_wishart` from chi-square draws of the ``gamma`` stream and
    normal draws of the ``normal`` stream; ``tests/reference/test_noise.py`` checks the law against
    :data:`scipy.stats.wishart`.

    Args:
        dim: matrix dimension ``p`` (``d + 1`` in the paper), ``>= 1``.
        degrees_of_freedom: ``k >= p`` (the density exists only for ``k >= p``).
        scale: the scalar ``s`` in ``V = s·I``; ``> 0``.
    """

    def __init__(self, dim: int, degrees_of_freedom: int, scale: float) -> None:
        self.dim = check_size("dim", dim, 1, item_bytes=8, power=2, what="a matrix entry")
        self.degrees_of_freedom = check_int_at_least(
            "degrees_of_freedom", degrees_of_freedom, self.dim
        )
        self.scale = check_positive("scale", scale)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.dim, self.dim)

    def _draw(self, rng: RandomSource, df: int) -> FloatArray:
        streams = NoiseStreams.of(rng)
        p = self.dim
        # normals before chi-squares: with one shared generator this is scipy's own draw order
        normals = streams.normal.standard_normal(p * (p - 1) // 2)
        chi2 = streams.gamma.chisquare(bartlett_chi2_df(p, float(df)))
        return bartlett_wishart(chi2, normals, self.scale)

    def sample(self, rng: RandomSource) -> FloatArray:
        return self._draw(rng, self.degrees_of_freedom)

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
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
        self.dim = check_size("dim", dim, 1, item_bytes=8, power=2, what="a matrix entry")
        self.sigma = check_positive("sigma", sigma)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.dim, self.dim)

    def _draw(self, rng: RandomSource, sigma: float) -> FloatArray:
        z_prime = sigma * NoiseStreams.of(rng).normal.standard_normal(self.shape)
        return symmetrize(z_prime)

    def sample(self, rng: RandomSource) -> FloatArray:
        return self._draw(rng, self.sigma)

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        if j == 0:
            return np.zeros(self.shape)
        return self._draw(rng, self.sigma * math.sqrt(j))

    def __repr__(self) -> str:
        return f"SymmetricGaussianNoise(dim={self.dim}, sigma={self.sigma!r})"


class GaussianVectorNoise:
    """I.i.d. ``N(0, σ²)`` entries in an array of the given shape."""

    def __init__(self, shape: tuple[int, ...], sigma: float) -> None:
        self._shape = check_shape("shape", shape)
        self.sigma = check_positive("sigma", sigma)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: RandomSource) -> FloatArray:
        return self.sigma * NoiseStreams.of(rng).normal.standard_normal(self._shape)

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        check_int_at_least("j", j, 0)
        if j == 0:
            return np.zeros(self._shape)
        return self.sigma * math.sqrt(j) * NoiseStreams.of(rng).normal.standard_normal(self._shape)

    def __repr__(self) -> str:
        return f"GaussianVectorNoise(shape={self._shape}, sigma={self.sigma!r})"


class LaplaceNoise:
    """I.i.d. ``Laplace(0, b)`` entries (density ``exp(-|x|/b)/(2b)``) in an array of the given shape.

    The sum of ``j`` Laplace draws has no closed-form sampler in numpy, so :meth:`sample_sum` draws
    ``j`` independent arrays and adds them.
    """

    def __init__(self, shape: tuple[int, ...], scale: float) -> None:
        self._shape = check_shape("shape", shape)
        self.scale = check_positive("scale", scale)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: RandomSource) -> FloatArray:
        return NoiseStreams.of(rng).laplace.laplace(0.0, self.scale, size=self._shape)

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        check_size("j", j, 0, item_bytes=8 * math.prod(self._shape), what="a draw")
        draws = NoiseStreams.of(rng).laplace.laplace(0.0, self.scale, size=(j, *self._shape))
        return np.asarray(draws.sum(axis=0), dtype=np.float64)

    def __repr__(self) -> str:
        return f"LaplaceNoise(shape={self._shape}, scale={self.scale!r})"


class ZeroNoise:
    """No noise: every draw is an array of zeros (the tree then returns exact prefix sums)."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        self._shape = check_shape("shape", shape)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    def sample(self, rng: RandomSource) -> FloatArray:
        NoiseStreams.of(rng)  # no draw, but the generator is checked like every other law's
        return np.zeros(self._shape)

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        NoiseStreams.of(rng)
        check_int_at_least("j", j, 0)
        return np.zeros(self._shape)

    def __repr__(self) -> str:
        return f"ZeroNoise(shape={self._shape})"
