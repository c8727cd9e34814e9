"""Built-in white-box mechanisms (they satisfy :class:`audit.protocols.DensityMechanism`).

* :class:`GaussianMechanism`, :class:`LaplaceMechanism` -- additive noise on a real vector.
* :class:`SymmetricGaussianMatrixMechanism` -- ``G + (Z' + Z'ᵀ)/√2`` (Shariff & Sheffet Sec. 4.2).
* :class:`WishartMechanism` -- ``G + W``, ``W ~ W_p(sI, k)`` (Shariff & Sheffet Sec. 4.1, Thm 8).
* :class:`NodeViewMechanism` -- the tree's node-level view (Shariff & Sheffet App. A.2): the
  ``nodes`` tree nodes containing one user's leaf, each represented by that user's contribution.
They take their parameters from :mod:`reference.noise` and draw the same laws (vectorised, or via
:data:`scipy.stats.wishart`), without calling the reference samplers.

Proof note: ``proofs_notes/audit/exact_privacy_curves.md``.
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from scipy import stats

from reference._typing import FloatArray
from reference.noise import SymmetricGaussianNoise, WishartNoise
from reference.validation import check_array, check_int_at_least, check_positive

__all__ = [
    "GaussianMechanism",
    "LaplaceMechanism",
    "MatrixMechanism",
    "NodeViewMechanism",
    "SymmetricGaussianMatrixMechanism",
    "WishartMechanism",
    "gaussian_mu",
]


class GaussianMechanism:
    """``x + N(0, σ² I)`` on a real vector ``x`` (the query answer)."""

    def __init__(self, sigma: float) -> None:
        self.sigma = check_positive("sigma", sigma)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        x = check_array("data", data, ndim=1)
        return x + rng.normal(0.0, self.sigma, size=(size, x.size))

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        x = check_array("data", data, ndim=1)
        z = (np.asarray(outputs) - x) / self.sigma
        return np.asarray(-0.5 * np.sum(z**2, axis=1), dtype=np.float64)

    def __repr__(self) -> str:
        return f"GaussianMechanism(sigma={self.sigma:.6g})"


class LaplaceMechanism:
    """``x + Laplace(0, b)`` i.i.d. on each coordinate of a real vector ``x``."""

    def __init__(self, scale: float) -> None:
        self.scale = check_positive("scale", scale)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        x = check_array("data", data, ndim=1)
        return x + rng.laplace(0.0, self.scale, size=(size, x.size))

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        x = check_array("data", data, ndim=1)
        return np.asarray(-np.sum(np.abs(np.asarray(outputs) - x), axis=1) / self.scale)

    def __repr__(self) -> str:
        return f"LaplaceMechanism(scale={self.scale:.6g})"


class MatrixMechanism(Protocol):
    """A mechanism on symmetric matrices (data = a ``p×p`` matrix)."""

    @property
    def dim(self) -> int:
        """The matrix dimension ``p``."""
        ...

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """Outputs of shape ``(size, p, p)``."""
        ...

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        """Log-densities of shape ``(size,)``."""
        ...


def _check_matrix(data: FloatArray, p: int) -> FloatArray:
    return check_array("data", data, shape=(p, p))


class SymmetricGaussianMatrixMechanism:
    """``G + Z``, ``Z = (Z' + Z'ᵀ)/√2``, ``Z'_ij ~ N(0, σ²)`` (Shariff & Sheffet Sec. 4.2).

    Density on the upper triangle: off-diagonal ``N(0, σ²)`` and diagonal ``N(0, 2σ²)``,
    independent; the log-density drops constants that do not depend on the data.
    """

    def __init__(self, dim: int, sigma: float) -> None:
        self.noise = SymmetricGaussianNoise(dim, sigma)

    @property
    def dim(self) -> int:
        return self.noise.dim

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        g = _check_matrix(data, self.dim)
        # the law of SymmetricGaussianNoise.sample, drawn for the whole batch at once
        z_prime = rng.normal(0.0, self.noise.sigma, size=(size, self.dim, self.dim))
        return g + (z_prime + np.transpose(z_prime, (0, 2, 1))) / math.sqrt(2.0)

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        g = _check_matrix(data, self.dim)
        z = np.asarray(outputs) - g
        asym = float(np.max(np.abs(z - np.transpose(z, (0, 2, 1))))) if z.size else 0.0
        if asym > 1e-9 * (1.0 + float(np.max(np.abs(z)))):
            raise ValueError("outputs must be symmetric matrices (the mechanism's support)")
        # Σ_{i<j} z_ij²/(2σ²) + Σ_i z_ii²/(4σ²) = ‖Z‖_F² / (4σ²) for symmetric Z
        return np.asarray(-np.einsum("sij,sij->s", z, z) / (4.0 * self.noise.sigma**2))

    def __repr__(self) -> str:
        return f"SymmetricGaussianMatrixMechanism(dim={self.dim}, sigma={self.noise.sigma:.6g})"


class WishartMechanism:
    """``G + W``, ``W ~ W_p(sI, k)`` (Shariff & Sheffet Sec. 4.1; Sheffet 2015).

    The log-density is :meth:`scipy.stats.wishart.logpdf` of ``O − G``, and ``−∞`` when ``O − G``
    is not positive definite (an output impossible under ``G``).
    """

    def __init__(self, dim: int, degrees_of_freedom: int, scale: float) -> None:
        self.noise = WishartNoise(dim, degrees_of_freedom, scale)

    @property
    def dim(self) -> int:
        return self.noise.dim

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        g = _check_matrix(data, self.dim)
        law = stats.wishart(
            df=self.noise.degrees_of_freedom, scale=self.noise.scale * np.eye(self.dim)
        )
        draws = np.asarray(law.rvs(size=size, random_state=rng), dtype=np.float64)
        return g + draws.reshape(size, self.dim, self.dim)

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        g = _check_matrix(data, self.dim)
        w = np.asarray(outputs) - g
        w = (w + np.transpose(w, (0, 2, 1))) / 2.0
        out = np.full(w.shape[0], -np.inf)
        pd = np.linalg.eigvalsh(w)[:, 0] > 0.0
        if np.any(pd):
            law = stats.wishart(
                df=self.noise.degrees_of_freedom, scale=self.noise.scale * np.eye(self.dim)
            )
            # scipy expects the matrices stacked along the last axis
            out[pd] = np.atleast_1d(law.logpdf(np.moveaxis(w[pd], 0, -1)))
        return out

    def __repr__(self) -> str:
        n = self.noise
        return f"WishartMechanism(dim={n.dim}, degrees_of_freedom={n.degrees_of_freedom}, scale={n.scale:.6g})"


class NodeViewMechanism:
    """The ``nodes`` tree nodes containing one user's leaf, each released through ``node``.

    Data is the user's contribution ``vvᵀ`` (a ``p×p`` matrix, see the module docstring); the
    output stacks the ``nodes`` node releases, shape ``(size, nodes, p, p)``; the log-density is the
    sum over nodes (the node noises are independent).
    """

    def __init__(self, node: MatrixMechanism, nodes: int) -> None:
        self.node = node
        self.nodes = check_int_at_least("nodes", nodes, 1)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        return np.stack([self.node.sample(data, rng, size) for _ in range(self.nodes)], axis=1)

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        out = np.asarray(outputs)
        total = np.zeros(out.shape[0])
        for j in range(self.nodes):
            total = total + self.node.log_density(data, out[:, j])
        return total

    def __repr__(self) -> str:
        return f"NodeViewMechanism({self.node!r}, nodes={self.nodes})"


def gaussian_mu(difference: FloatArray, sigma: float) -> float:
    """``μ`` of the symmetrised Gaussian matrix mechanism for a data difference ``D``:
    ``μ² = Σ_{i<j} D_ij²/σ² + Σ_i D_ii²/(2σ²) = ‖D‖_F² / (2σ²)``."""
    d = check_array("difference", difference, ndim=2)
    return math.sqrt(float(np.sum(d**2)) / (2.0 * check_positive("sigma", sigma) ** 2))
