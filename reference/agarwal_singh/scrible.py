"""SCRiBLe (Abernethy, Hazan & Rakhlin 2008/2012), the inner learner of Agarwal & Singh's Thm 4.5.

The paper uses SCRiBLe as a black box (Thm 4.5; Thm D.1 = Abernethy et al. 2012 Thm 5.1,
App. D); the code follows Abernethy et al.: play a point on the Dikin ellipsoid of a
self-concordant barrier around ``x_t``, estimate ``l̂_t`` from the received scalar, and take a
FTRL step.  Barriers: the unit ball (``−ln(1 − ‖x‖²)``, ν = 1) and the cube ``[−1, 1]^N``
(``−Σ ln(1 − x_i²)``, ν = 2N) in closed form; a polytope ``{Ax ≤ b}`` (``−Σ ln(b_j − a_jᵀx)``,
ν = m) by damped Newton.  Inside
:class:`~reference.agarwal_singh.bandits.PrivateBanditReduction` the published action is ``y_t``.

Proof note: ``proofs_notes/agarwal_singh/thm45_scrible_blo.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np
from scipy import optimize

from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_finite,
    check_instance,
    check_int_at_least,
    check_nonnegative,
    check_positive,
)

__all__ = ["BallBarrier", "Barrier", "CubeBarrier", "PolytopeBarrier", "SCRiBLe", "dikin_axes"]


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

    def ftrl_argmin(
        self, theta: FloatArray, eta: float, start: FloatArray | None = None
    ) -> FloatArray:
        """``argmin_{x∈int X} ( η<θ, x> + R(x) )``; an iterative step may begin at the interior
        point ``start`` (closed forms check it and do not need it)."""
        ...

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        """Whether ``x`` lies in the closed set."""
        ...


def _radial_step(g: FloatArray, eta: float) -> FloatArray:
    """``ρ = (√(1 + η²g²) − 1)/(ηg)`` (``0`` at ``g = 0``): the root in ``[0, 1)`` of
    ``ηg(1 − ρ²) = 2ρ``, written as ``ηg/(√(1 + η²g²) + 1)`` to avoid cancellation."""
    return np.asarray(eta * g / (np.sqrt(1.0 + (eta * g) ** 2) + 1.0), dtype=np.float64)


def _check_start(start: FloatArray | None, barrier: Barrier) -> FloatArray | None:
    """``start`` of ``ftrl_argmin``: ``None``, or a finite point of shape ``(N,)`` strictly inside
    the set (``R(start) < ∞``), whether or not the barrier's step uses it."""
    if start is None:
        return None
    x0 = check_array("start", start, shape=(barrier.dim,))
    if not math.isfinite(barrier.value(x0)):
        raise ValueError("start must be strictly inside the set (a finite barrier value)")
    return x0


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

    def ftrl_argmin(
        self, theta: FloatArray, eta: float, start: FloatArray | None = None
    ) -> FloatArray:
        """``x = −(θ/‖θ‖) ρ(η‖θ‖)`` from ``ηθ + 2x/(1 − ‖x‖²) = 0`` (``start`` is checked, not
        needed)."""
        theta = check_array("theta", theta, shape=(self.dim,))
        _check_start(start, self)
        eta = check_positive("eta", eta)
        g = float(np.linalg.norm(theta))
        if g == 0.0:
            return np.zeros(self.dim)
        return np.asarray(-theta / g * float(_radial_step(np.asarray(g), eta)), dtype=np.float64)

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        tol = check_nonnegative("tol", tol)
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

    def ftrl_argmin(
        self, theta: FloatArray, eta: float, start: FloatArray | None = None
    ) -> FloatArray:
        """Separable: ``x_i = −sign(θ_i) ρ(η|θ_i|)`` (``start`` is checked, not needed)."""
        theta = check_array("theta", theta, shape=(self.dim,))
        _check_start(start, self)
        eta = check_positive("eta", eta)
        return np.asarray(-np.sign(theta) * _radial_step(np.abs(theta), eta), dtype=np.float64)

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        tol = check_nonnegative("tol", tol)
        return bool(np.all(np.abs(check_array("x", x, shape=(self.dim,))) <= 1.0 + tol))


class PolytopeBarrier:
    """``R(x) = −Σ_j ln(b_j − a_jᵀx)`` on the polytope ``X = {x : Ax ≤ b}``, ``ν = m``.

    ``X`` must be bounded and have an interior point; both are checked by linear programs at
    construction, and a clear error names ``A``/``b`` otherwise.  ``∇R = Aᵀ(1/s)`` and
    ``∇²R = Aᵀ diag(1/s²) A`` with slacks ``s = b − Ax``.  The analytic centre and the FTRL step
    have no closed form: both are found by damped Newton (``x ← x − (1 + λ)⁻¹ H⁻¹g``, which stays
    strictly inside for a self-concordant ``R``), stopping at Newton decrement ``λ < newton_tol``.
    The step starts from ``start`` when given (SCRiBLe passes the previous centre) and from the
    analytic centre otherwise.  On the cube (``A = [I; −I]``, ``b = 1``) it is
    :class:`CubeBarrier` term by term.

    Args:
        A: constraint matrix, shape ``(m, N)``, rows non-zero.
        b: right-hand sides, shape ``(m,)``.
        newton_tol: stop at Newton decrement below this (``0 < newton_tol < 1``).
        max_newton_steps: raise ``RuntimeError`` if Newton has not stopped after this many steps.
    """

    def __init__(
        self,
        A: FloatArray,
        b: FloatArray,
        *,
        newton_tol: float = 1e-10,
        max_newton_steps: int = 1000,
    ) -> None:
        A = np.array(check_array("A", A, ndim=2), dtype=np.float64)
        m, n = A.shape
        if n < 1:
            raise ValueError(f"A must have at least one column, got shape {A.shape}")
        if m < n + 1:
            raise ValueError(
                f"A must have at least N + 1 = {n + 1} rows for a bounded polytope, got {m}"
            )
        b = np.array(check_array("b", b, shape=(m,)), dtype=np.float64)
        row_norms = np.linalg.norm(A, axis=1)
        if np.any(row_norms == 0.0):
            raise ValueError(f"A must have non-zero rows, rows {np.flatnonzero(row_norms == 0.0)}")
        self.newton_tol = check_positive("newton_tol", newton_tol)
        if self.newton_tol >= 1.0:
            raise ValueError(f"newton_tol must be in (0, 1), got {newton_tol!r}")
        self.max_newton_steps = check_int_at_least("max_newton_steps", max_newton_steps, 1)
        A.setflags(write=False)
        b.setflags(write=False)
        self.A = A
        self.b = b
        self._check_bounded()
        self._center = self._newton(np.zeros(n), 0.0, self._chebyshev_center(row_norms))

    @property
    def dim(self) -> int:
        return int(self.A.shape[1])

    @property
    def nu(self) -> float:
        return float(self.A.shape[0])

    def _check_bounded(self) -> None:
        n = self.dim
        for i in range(n):
            for sign in (1.0, -1.0):
                c = np.zeros(n)
                c[i] = sign
                res = optimize.linprog(c, A_ub=self.A, b_ub=self.b, bounds=(None, None))
                if res.status == 2:
                    raise ValueError(
                        "A, b must describe a non-empty polytope: Ax <= b is infeasible"
                    )
                if res.status == 3:
                    raise ValueError(
                        f"A, b must describe a bounded polytope: x[{i}] is unbounded "
                        f"{'below' if sign > 0 else 'above'} on Ax <= b"
                    )
                if res.status != 0:
                    raise RuntimeError(f"linprog failed checking boundedness: {res.message}")

    def _chebyshev_center(self, row_norms: FloatArray) -> FloatArray:
        """Centre of the largest inscribed ball, ``max r`` s.t. ``a_jᵀx + ‖a_j‖ r ≤ b_j``."""
        n = self.dim
        c = np.zeros(n + 1)
        c[-1] = -1.0
        res = optimize.linprog(
            c,
            A_ub=np.column_stack([self.A, row_norms]),
            b_ub=self.b,
            bounds=[(None, None)] * n + [(0.0, None)],
        )
        if res.status != 0:
            raise RuntimeError(f"linprog failed finding an interior point: {res.message}")
        solution = np.asarray(res.x, dtype=np.float64)
        x, r = solution[:n], float(solution[-1])
        if not r > 0.0 or not np.all(self.b - self.A @ x > 0.0):
            raise ValueError(
                "A, b must describe a full-dimensional polytope (an interior point is needed "
                f"for a barrier): the largest inscribed ball has radius {r:.3g}"
            )
        return np.asarray(x, dtype=np.float64)

    def _slacks(self, x: FloatArray) -> FloatArray:
        return np.asarray(self.b - self.A @ x, dtype=np.float64)

    def _newton(self, theta: FloatArray, eta: float, x: FloatArray) -> FloatArray:
        """Damped Newton on ``η<θ, x> + R(x)`` from the interior point ``x``."""
        for _ in range(self.max_newton_steps):
            s = self._slacks(x)
            g = eta * theta + self.A.T @ (1.0 / s)
            scaled = self.A / s[:, None]
            step = np.linalg.solve(scaled.T @ scaled, g)
            decrement = math.sqrt(max(float(g @ step), 0.0))
            if decrement < self.newton_tol:
                return np.asarray(x, dtype=np.float64)
            x = x - step / (1.0 + decrement)
            if not np.all(self._slacks(x) > 0.0):  # cannot happen in exact arithmetic
                raise RuntimeError("damped Newton left the polytope's interior (rounding)")
        raise RuntimeError(
            f"damped Newton did not reach decrement {self.newton_tol:g} in "
            f"{self.max_newton_steps} steps (raise max_newton_steps)"
        )

    def value(self, x: FloatArray) -> float:
        s = self._slacks(check_array("x", x, shape=(self.dim,)))
        return float(-np.sum(np.log(s))) if np.all(s > 0) else math.inf

    def grad(self, x: FloatArray) -> FloatArray:
        s = self._slacks(check_array("x", x, shape=(self.dim,)))
        return np.asarray(self.A.T @ (1.0 / s), dtype=np.float64)

    def hess(self, x: FloatArray) -> FloatArray:
        s = self._slacks(check_array("x", x, shape=(self.dim,)))
        scaled = self.A / s[:, None]
        return np.asarray(scaled.T @ scaled, dtype=np.float64)

    def analytic_center(self) -> FloatArray:
        return self._center.copy()

    def ftrl_argmin(
        self, theta: FloatArray, eta: float, start: FloatArray | None = None
    ) -> FloatArray:
        """Damped Newton from ``start`` (default: the analytic centre), which must be interior."""
        theta = check_array("theta", theta, shape=(self.dim,))
        eta = check_positive("eta", eta)
        x0 = _check_start(start, self)
        return self._newton(theta, eta, self._center if x0 is None else x0)

    def contains(self, x: FloatArray, tol: float = 1e-12) -> bool:
        tol = check_nonnegative("tol", tol)
        return bool(np.all(self._slacks(check_array("x", x, shape=(self.dim,))) >= -tol))


def dikin_axes(barrier: Barrier, x: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Eigenpairs ``(λ_k, e_k)`` of ``∇²R(x)`` (eigenvectors are the columns): the axes of the
    Dikin ellipsoid along which SCRiBLe perturbs (the inner learner of Thm 4.5; App. D, Thm D.1).

    Any orthonormal eigenbasis serves SCRiBLe (the one-point estimator is unbiased for each), so the
    ball and the cube use their closed forms, which fix the basis where ``∇²R`` has a repeated
    eigenvalue (a LAPACK eigensolver picks it by rounding) and can be computed the same way by a
    compiled loop:

    * cube: ``∇²R = diag(2(1 + x_i²)/(1 − x_i²)²)``, axis ``k`` is the coordinate ``e_k``;
    * ball: ``∇²R = 2I/g + 4xxᵀ/g²`` (``g = 1 − ‖x‖²``): axis 0 is radial, ``±x/‖x‖`` with
      ``λ = 2/g + 4‖x‖²/g²``, and axes ``1..N−1`` are the other columns of the Householder
      reflection ``I − 2wwᵀ/‖w‖²``, ``w = x/‖x‖ + sign(x_0)e_0`` (``sign(0) = +1``), with
      ``λ = 2/g``; at ``x = 0`` the coordinate axes with ``λ = 2``;
    * any other barrier: ``numpy.linalg.eigh`` of :meth:`Barrier.hess` (ascending eigenvalues).
    """
    check_instance("barrier", barrier, Barrier)
    x = check_array("x", x, shape=(barrier.dim,))
    if not math.isfinite(barrier.value(x)):
        raise ValueError("x must be strictly inside the set (a finite barrier value)")
    n = barrier.dim
    if isinstance(barrier, CubeBarrier):
        return np.asarray(2.0 * (1.0 + x**2) / (1.0 - x**2) ** 2, dtype=np.float64), np.eye(n)
    if isinstance(barrier, BallBarrier):
        r2 = float(x @ x)
        gap = 1.0 - r2
        eigvals = np.full(n, 2.0 / gap)
        if r2 == 0.0:
            return eigvals, np.eye(n)
        eigvals[0] = 2.0 / gap + 4.0 * r2 / gap**2
        w = x / math.sqrt(r2)
        w[0] += 1.0 if w[0] >= 0.0 else -1.0
        eigvecs = np.eye(n) - (2.0 / float(w @ w)) * np.outer(w, w)
        return eigvals, np.asarray(eigvecs, dtype=np.float64)
    eigvals, eigvecs = np.linalg.eigh(barrier.hess(x))
    return np.asarray(eigvals, dtype=np.float64), np.asarray(eigvecs, dtype=np.float64)


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
        """Eigenpairs ``(λ_k, e_k)`` of ``∇²R(x_t)`` (eigenvectors are the columns), by
        :func:`dikin_axes`."""
        return dikin_axes(self.barrier, self._center)

    def act(self) -> FloatArray:
        """Play ``y_t = x_t + s_t λ_k^{−1/2} e_k`` with ``k`` uniform, ``s = ±1`` fair."""
        if self._pending is not None:
            raise RuntimeError("act() called twice without update()")
        if not math.isfinite(self.barrier.value(self._center)):
            raise RuntimeError(
                "SCRiBLe's centre reached the boundary of the set in floating point (the Hessian "
                "of the barrier is infinite there): the accumulated estimates are too large for "
                "this eta and noise scale"
            )
        eigvals, eigvecs = self.perturbation_basis()
        k = int(self._rng.integers(self.dim))
        s = 1.0 if self._rng.random() < 0.5 else -1.0
        direction = eigvecs[:, k]
        self._pending = (k, s, eigvals, eigvecs)
        return np.asarray(self._center + s * direction / math.sqrt(eigvals[k]), dtype=np.float64)

    def estimate(
        self, feedback: float, k: int, s: float, eigvals: FloatArray, eigvecs: FloatArray
    ) -> FloatArray:
        """The one-point estimate ``l̂ = N f s λ_k^{1/2} e_k`` of the action played along axis
        ``k`` (in ``[0, N)``) with sign ``s = ±1`` of the Dikin ellipsoid with eigenvalues
        ``eigvals > 0`` (shape ``(N,)``) and eigenvectors the columns of ``eigvecs``
        (``(N, N)``), as :meth:`act` drew them."""
        f = check_finite("feedback", feedback)
        k = check_int_at_least("k", k, 0)
        if k >= self.dim:
            raise ValueError(f"k must be an axis in [0, {self.dim}), got {k}")
        if check_finite("s", s) not in (-1.0, 1.0):
            raise ValueError(f"s must be -1 or 1, got {s!r}")
        eigvals = check_array("eigvals", eigvals, shape=(self.dim,))
        if np.any(eigvals <= 0.0):
            raise ValueError("eigvals must be positive (a Hessian of the barrier)")
        eigvecs = check_array("eigvecs", eigvecs, shape=(self.dim, self.dim))
        return np.asarray(
            self.dim * f * s * math.sqrt(eigvals[k]) * eigvecs[:, k], dtype=np.float64
        )

    def update(self, feedback: float) -> None:
        """Add ``l̂_t`` to ``θ`` and move to ``x_{t+1} = argmin η<θ, x> + R(x)``."""
        if self._pending is None:
            raise RuntimeError("update() needs a pending action: call act() first")
        k, s, eigvals, eigvecs = self._pending
        self._theta = self._theta + self.estimate(feedback, k, s, eigvals, eigvecs)
        self._center = self.barrier.ftrl_argmin(self._theta, self.eta, start=self._center)
        self._pending = None

    def sampling_distribution(self) -> FloatArray | None:
        return None
