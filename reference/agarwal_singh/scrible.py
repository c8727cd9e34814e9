"""SCRiBLe (Abernethy, Hazan & Rakhlin 2008/2012), the inner learner of Agarwal & Singh's Thm 4.5.

The paper uses SCRiBLe as a black box (Thm 4.5; Thm D.1 = Abernethy et al. 2012 Thm 5.1,
App. D); the code follows Abernethy et al.: play a point on the Dikin ellipsoid of a
self-concordant barrier around ``x_t``, estimate ``l̂_t`` from the received scalar, and take a
closed-form FTRL step.  Barriers: the unit ball (``−ln(1 − ‖x‖²)``, ν = 1) and the cube
``[−1, 1]^N`` (``−Σ ln(1 − x_i²)``, ν = 2N).  Inside
:class:`~reference.agarwal_singh.bandits.PrivateBanditReduction` the published action is ``y_t``.

Proof note: ``proofs_notes/agarwal_singh/thm45_scrible_blo.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_finite,
    check_instance,
    check_int_at_least,
    check_positive,
)

__all__ = ["BallBarrier", "Barrier", "CubeBarrier", "SCRiBLe"]


@runtime_checkable
class Barrier(Protocol):
    """A ν-self-concordant barrier on a full-dimensional compact convex set with a closed-form step."""

    @property
    def dim(self) -> int:
        """Dimension ``N``."""
        ...

    @property
    def nu(self) -> float:
        """Self-concordance parameter ``ν``."""
        ...

    def value(self, x: FloatArray) -> float:
        """``R(x)`` (``+inf`` outside the interior)."""
        ...

    def grad(self, x: FloatArray) -> FloatArray:
        """``∇R(x)``."""
        ...

    def hess(self, x: FloatArray) -> FloatArray:
        """``∇²R(x)``."""
        ...

    def analytic_center(self) -> FloatArray:
        """``argmin R``."""
        ...

    def ftrl_argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        """``argmin_{x∈int X} ( η<θ, x> + R(x) )``."""
        ...

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        """Whether ``x`` lies in the closed set."""
        ...


def _radial_step(g: FloatArray, eta: float) -> FloatArray:
    """``ρ = (√(1 + η²g²) − 1)/(ηg)`` (``0`` at ``g = 0``): the root in ``[0, 1)`` of
    ``ηg(1 − ρ²) = 2ρ``, written as ``ηg/(√(1 + η²g²) + 1)`` to avoid cancellation."""
    return np.asarray(eta * g / (np.sqrt(1.0 + (eta * g) ** 2) + 1.0), dtype=np.float64)


@dataclass(frozen=True)
class BallBarrier:
    """``R(x) = −ln(1 − ‖x‖₂²)`` on the unit ball, ``ν = 1``."""

    dim: int

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)

    @property
    def nu(self) -> float:
        return 1.0

    def value(self, x: FloatArray) -> float:
        gap = 1.0 - float(np.sum(check_array("x", x, shape=(self.dim,)) ** 2))
        return -math.log(gap) if gap > 0 else math.inf

    def grad(self, x: FloatArray) -> FloatArray:
        x = check_array("x", x, shape=(self.dim,))
        return np.asarray(2.0 * x / (1.0 - x @ x), dtype=np.float64)

    def hess(self, x: FloatArray) -> FloatArray:
        x = check_array("x", x, shape=(self.dim,))
        gap = 1.0 - float(x @ x)
        return np.asarray(2.0 * np.eye(self.dim) / gap + 4.0 * np.outer(x, x) / gap**2)

    def analytic_center(self) -> FloatArray:
        return np.zeros(self.dim)

    def ftrl_argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        """``x = −(θ/‖θ‖) ρ(η‖θ‖)`` from ``ηθ + 2x/(1 − ‖x‖²) = 0``."""
        theta = check_array("theta", theta, shape=(self.dim,))
        eta = check_positive("eta", eta)
        g = float(np.linalg.norm(theta))
        if g == 0.0:
            return np.zeros(self.dim)
        return np.asarray(-theta / g * float(_radial_step(np.asarray(g), eta)), dtype=np.float64)

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        return bool(np.linalg.norm(check_array("x", x, shape=(self.dim,))) <= 1.0 + tol)


@dataclass(frozen=True)
class CubeBarrier:
    """``R(x) = −Σ_i ln(1 − x_i²)`` on ``[−1, 1]^N``, ``ν = 2N`` (two log barriers per coordinate)."""

    dim: int

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)

    @property
    def nu(self) -> float:
        return 2.0 * self.dim

    def value(self, x: FloatArray) -> float:
        gaps = 1.0 - check_array("x", x, shape=(self.dim,)) ** 2
        return float(-np.sum(np.log(gaps))) if np.all(gaps > 0) else math.inf

    def grad(self, x: FloatArray) -> FloatArray:
        x = check_array("x", x, shape=(self.dim,))
        return np.asarray(2.0 * x / (1.0 - x**2), dtype=np.float64)

    def hess(self, x: FloatArray) -> FloatArray:
        x = check_array("x", x, shape=(self.dim,))
        return np.asarray(np.diag(2.0 * (1.0 + x**2) / (1.0 - x**2) ** 2))

    def analytic_center(self) -> FloatArray:
        return np.zeros(self.dim)

    def ftrl_argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        """Separable: ``x_i = −sign(θ_i) ρ(η|θ_i|)``."""
        theta = check_array("theta", theta, shape=(self.dim,))
        eta = check_positive("eta", eta)
        return np.asarray(-np.sign(theta) * _radial_step(np.abs(theta), eta), dtype=np.float64)

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        return bool(np.all(np.abs(check_array("x", x, shape=(self.dim,))) <= 1.0 + tol))


class SCRiBLe:
    """SCRiBLe bandit linear optimisation, a :class:`~reference.agarwal_singh.bandits.
    BanditLearner`.

    Args:
        barrier: the ν-self-concordant barrier ``R`` (defines ``X``).
        eta: step ``η > 0`` (Thm 4.5: :func:`~reference.agarwal_singh.theorems.thm45_parameters`).
        rng: generator for ``(k_t, s_t)``.
    """

    def __init__(self, barrier: Barrier, eta: float, rng: np.random.Generator | SeedLike) -> None:
        rng = as_generator(rng)
        self.barrier = check_instance("barrier", barrier, Barrier)
        self.eta = check_positive("eta", eta)
        self._rng = rng
        self._theta = np.zeros(barrier.dim)
        self._center = barrier.analytic_center()
        self._pending: tuple[int, float, FloatArray, FloatArray] | None = None

    @property
    def dim(self) -> int:
        return self.barrier.dim

    @property
    def center(self) -> FloatArray:
        """The current FTRL point ``x_t`` (not published: the played point is ``y_t``)."""
        return self._center.copy()

    def perturbation_basis(self) -> tuple[FloatArray, FloatArray]:
        """Eigenpairs ``(λ_k, e_k)`` of ``∇²R(x_t)`` (eigenvectors are the columns)."""
        eigvals, eigvecs = np.linalg.eigh(self.barrier.hess(self._center))
        return np.asarray(eigvals, dtype=np.float64), np.asarray(eigvecs, dtype=np.float64)

    def act(self) -> FloatArray:
        """Play ``y_t = x_t + s_t λ_k^{−1/2} e_k`` with ``k`` uniform, ``s = ±1`` fair."""
        if self._pending is not None:
            raise RuntimeError("act() called twice without update()")
        eigvals, eigvecs = self.perturbation_basis()
        k = int(self._rng.integers(self.dim))
        s = 1.0 if self._rng.random() < 0.5 else -1.0
        direction = eigvecs[:, k]
        self._pending = (k, s, eigvals, eigvecs)
        return np.asarray(self._center + s * direction / math.sqrt(eigvals[k]), dtype=np.float64)

    def estimate(
        self, feedback: float, k: int, s: float, eigvals: FloatArray, eigvecs: FloatArray
    ) -> FloatArray:
        """The one-point estimate ``l̂ = N f s λ_k^{1/2} e_k``."""
        f = check_finite("feedback", feedback)
        return np.asarray(
            self.dim * f * s * math.sqrt(eigvals[k]) * eigvecs[:, k], dtype=np.float64
        )

    def update(self, feedback: float) -> None:
        """Add ``l̂_t`` to ``θ`` and move to ``x_{t+1} = argmin η<θ, x> + R(x)``."""
        if self._pending is None:
            raise RuntimeError("update() needs a pending action: call act() first")
        k, s, eigvals, eigvecs = self._pending
        self._theta = self._theta + self.estimate(feedback, k, s, eigvals, eigvecs)
        self._center = self.barrier.ftrl_argmin(self._theta, self.eta)
        self._pending = None

    def sampling_distribution(self) -> FloatArray | None:
        return None
