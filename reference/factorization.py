"""Continual counting by factorization of the prefix-sum matrix, in memory independent of ``n``.

The prefix sums ``A x`` of a stream are released as ``B(Cx + z)`` with ``A = BC``, ``C`` lower
triangular and ``z`` i.i.d. Gaussian: a row's change moves ``Cx`` by a column of ``C`` (the
sensitivity), release ``t`` carries noise ``(Bz)_t`` (the error).  :class:`BLT` is a buffered
linear Toeplitz ``C`` (Dvijotham, McMahan, Pillutla, Steinke & Thakurta 2024), whose noise
:class:`BLTNoiseStream` generates with ``k`` buffers; :func:`optimal_blt` fits one to a horizon;
:func:`sqrt_factorization` is the square root ``C = B = A^{1/2}`` (Henzinger et al. 2023).

Proof note: ``proofs_notes/shariff_sheffet/factorized_regularizer.md``.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, special

from reference._typing import FloatArray
from reference.noise import NodeNoise
from reference.rng import NoiseStreams, SeedLike, as_generator
from reference.validation import (
    check_array,
    check_instance,
    check_int_at_least,
    check_size,
)

__all__ = [
    "BLT",
    "BLTNoiseStream",
    "FactorizationCost",
    "optimal_blt",
    "sqrt_coefficients",
    "sqrt_factorization",
]

_CHUNK = 1 << 20


@dataclass(frozen=True)
class FactorizationCost:
    """What a factorization costs at horizon ``n``, per unit of input norm and of noise scale.

    Attributes:
        n: the horizon (number of inputs, and of releases).
        sensitivity: the largest column norm of ``C`` (the first, for a Toeplitz ``C``).
        error: the largest row norm of ``B = A C⁻¹`` (the last row: the norms grow with ``t``).
    """

    n: int
    sensitivity: float
    error: float

    @property
    def loss(self) -> float:
        """``sensitivity · error``: the standard deviation of the worst release at unit privacy
        (``μ = 1`` GDP) and unit input norm; the binary tree's is ``√((m − 1)·m)``."""
        return self.sensitivity * self.error


def sqrt_coefficients(count: int) -> FloatArray:
    """The first ``count`` coefficients ``c_k = C(2k, k)/4^k`` of ``(1 − x)^{−1/2}``: the
    Toeplitz square root of the prefix-sum matrix (``c ∗ c = 1``)."""
    count = check_size("count", count, 1, item_bytes=8, what="a coefficient")
    return _sqrt_coefficients(0, count)


def _sqrt_coefficients(start: int, stop: int) -> FloatArray:
    k = np.arange(start, stop, dtype=np.float64)
    return np.asarray(
        np.exp(special.gammaln(k + 0.5) - special.gammaln(k + 1.0)) / math.sqrt(math.pi),
        dtype=np.float64,
    )


def sqrt_factorization(n: int) -> FactorizationCost:
    """Cost of the square-root factorization ``C = B = A^{1/2}`` at horizon ``n`` (its memory
    grows with ``n``: the reference point :func:`optimal_blt` approaches).  Summed in chunks;
    ``n`` is at most what the factorization itself must hold, ``n`` coefficients of ``C``
    (:func:`~reference.validation.check_size`)."""
    n = check_size("n", n, 1, item_bytes=8, what="a coefficient of C")
    total = 0.0
    for start in range(0, n, _CHUNK):
        c = _sqrt_coefficients(start, min(n, start + _CHUNK))
        total += float(np.sum(c * c))
    norm = math.sqrt(total)
    return FactorizationCost(n=n, sensitivity=norm, error=norm)


def _geometric_sum(
    q: FloatArray, log_abs_q: FloatArray, one_minus_q: FloatArray, count: int
) -> FloatArray:
    """``Σ_{j<count} q^j = (1 − q^count)/(1 − q)`` elementwise for ``|q| < 1``, also near 1
    (``log|q|`` and ``1 − q`` are passed in, computed without cancellation by the caller)."""
    power = np.sign(q) ** (count % 2) * np.exp(count * log_abs_q)  # q^count
    near_one = -np.expm1(count * log_abs_q)  # 1 − q^count for q > 0, without cancellation
    return np.asarray(np.where(q > 0.0, near_one, 1.0 - power) / one_minus_q)


@dataclass(frozen=True, eq=False)
class BLT:
    """A buffered linear Toeplitz strategy ``C``: ``c_0 = 1``, ``c_j = Σ_i ω_i θ_i^{j−1}`` (``j ≥ 1``).

    ``θ_i ∈ (0, 1)`` and ``ω_i > 0`` make every ``c_j`` positive and decreasing, so the first column
    of ``C`` is its longest and the sensitivity is ``‖c_{0..n−1}‖``.  ``C⁻¹`` is again Toeplitz:
    ``r_0 = 1``, ``r_j = −ωᵀ M^{j−1} 1`` with ``M = diag θ − 1ωᵀ`` (rank-one inversion of the
    generating function), whose eigenvalues are real (they interlace the ``θ_i``).

    Args:
        theta: the buffer decays, each in ``(0, 1)``.
        omega: the buffer weights, each ``> 0``; as many as ``theta``.
    """

    theta: FloatArray
    omega: FloatArray

    def __post_init__(self) -> None:
        theta = check_array("theta", self.theta, ndim=1)
        if theta.size == 0:
            raise ValueError("theta must hold at least one buffer, got 0")
        omega = check_array("omega", self.omega, shape=(theta.size,))
        if np.any(theta <= 0.0) or np.any(theta >= 1.0):
            raise ValueError(f"theta must lie in (0, 1), got {theta.tolist()}")
        if np.any(omega <= 0.0):
            raise ValueError(f"omega must be > 0, got {omega.tolist()}")
        object.__setattr__(self, "theta", theta.copy())
        object.__setattr__(self, "omega", omega.copy())

    @property
    def buffers(self) -> int:
        """Number of buffers ``k`` (memory of the noise stream: ``k + 1`` arrays)."""
        return int(self.theta.size)

    def coefficients(self, count: int) -> FloatArray:
        """``c_0 .. c_{count−1}`` of ``C``."""
        count = check_size("count", count, 1, item_bytes=8 * (self.buffers + 1), what="a term")
        j = np.arange(count - 1, dtype=np.float64)
        c = np.ones(count)
        c[1:] = (self.omega[:, None] * self.theta[:, None] ** j[None, :]).sum(axis=0)
        return c

    def inverse_coefficients(self, count: int) -> FloatArray:
        """``r_0 .. r_{count−1}`` of ``C⁻¹`` by the recurrence ``s ← M s`` (``O(count·k)``)."""
        count = check_size("count", count, 1, item_bytes=8, what="a coefficient")
        r = np.ones(count)
        s = np.ones(self.buffers)
        for j in range(1, count):
            r[j] = -float(self.omega @ s)
            s = self.theta * s - self.omega @ s
        return r

    def _one_minus_theta_products(self) -> tuple[FloatArray, FloatArray]:
        """``log(θ_iθ_l)`` and ``1 − θ_iθ_l`` without cancellation near 1."""
        gap = 1.0 - self.theta  # exact for θ ≥ 1/2 (Sterbenz)
        log_theta = np.where(self.theta > 0.5, np.log1p(-np.minimum(gap, 0.5)), np.log(self.theta))
        one_minus = gap[:, None] + gap[None, :] - gap[:, None] * gap[None, :]
        return log_theta[:, None] + log_theta[None, :], one_minus

    def sensitivity(self, n: int) -> float:
        """``‖c_{0..n−1}‖ = √(1 + Σ_{i,l} ω_iω_l Σ_{j<n−1} (θ_iθ_l)^j)``, closed form."""
        n = check_int_at_least("n", n, 1)
        log_q, one_minus_q = self._one_minus_theta_products()
        pairs = _geometric_sum(np.outer(self.theta, self.theta), log_q, one_minus_q, n - 1)
        return math.sqrt(1.0 + float(self.omega @ pairs @ self.omega))

    def _inverse_modes(self) -> tuple[FloatArray, FloatArray]:
        """Eigenvalues ``λ_i`` of ``M`` and weights ``a_i`` with ``r_j = −Σ_i a_i λ_i^{j−1}``."""
        M = np.diag(self.theta) - np.outer(np.ones(self.buffers), self.omega)
        lam, V = np.linalg.eig(M)
        a = (self.omega @ V) * np.linalg.solve(V, np.ones(self.buffers))
        if np.max(np.abs(lam.imag)) > 1e-9 or np.max(np.abs(a.imag)) > 1e-9 * max(
            1.0, float(np.max(np.abs(a)))
        ):  # pragma: no cover - excluded by the interlacing argument (class docstring)
            raise ArithmeticError(f"complex modes of C⁻¹ for {self!r}")
        return np.asarray(lam.real, dtype=np.float64), np.asarray(a.real, dtype=np.float64)

    def error(self, n: int) -> float:
        """``‖row_n(A C⁻¹)‖ = √(Σ_{j<n} S_j²)`` with ``S_j = Σ_{k≤j} r_k``, closed form.

        ``S_j = s_∞ + Σ_i b_i λ_i^j`` with ``b_i = a_i/(1 − λ_i)`` and ``s_∞ = 1 − Σ_i b_i``
        (``= 1/C(1) > 0``, so the error grows like ``√n · s_∞`` for large ``n``).
        """
        n = check_int_at_least("n", n, 1)
        lam, a = self._inverse_modes()
        if np.any(np.abs(lam) >= 1.0):
            return math.inf
        one_minus = 1.0 - lam
        b = a / one_minus
        s_inf = 1.0 - float(b.sum())
        with np.errstate(divide="ignore"):  # λ = 0: log 0 = −inf, and Σ_j 0^j = 1 below
            log_abs = np.log(np.abs(lam))
        single = _geometric_sum(lam, log_abs, one_minus, n)  # Σ_j λ_i^j
        pairs = _geometric_sum(  # Σ_j (λ_iλ_l)^j
            lam[:, None] * lam[None, :],
            log_abs[:, None] + log_abs[None, :],
            one_minus[:, None] + one_minus[None, :] - one_minus[:, None] * one_minus[None, :],
            n,
        )
        total = n * s_inf**2 + 2.0 * s_inf * float(b @ single) + float(b @ pairs @ b)
        return math.sqrt(max(total, 0.0))

    def cost(self, n: int) -> FactorizationCost:
        """:class:`FactorizationCost` of this strategy at horizon ``n``."""
        return FactorizationCost(n=n, sensitivity=self.sensitivity(n), error=self.error(n))

    def __repr__(self) -> str:
        return f"BLT(theta={self.theta.tolist()!r}, omega={self.omega.tolist()!r})"


def _blt_from(params: FloatArray) -> BLT:
    k = params.size // 2
    return BLT(theta=np.exp(-np.exp(params[:k])), omega=np.exp(params[k:]))


@functools.lru_cache(maxsize=32)
def _optimal_blt(n: int, buffers: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    # start: θ_i = 1 − n^{−i/k}, ω_i ∝ √(1 − θ_i) (a quadrature of (1 − x)^{−1/2}'s Beta integral)
    gaps = np.array([float(n) ** (-(i + 1) / buffers) for i in range(buffers)])
    weights = np.sqrt(gaps) * math.log(n + 1.0) / (math.pi * buffers)
    start = np.concatenate([np.log(-np.log1p(-np.minimum(gaps, 0.5))), np.log(weights)])

    def objective(params: FloatArray) -> float:
        try:
            with np.errstate(all="ignore"):  # decays rounding to 0 or 1 are infeasible, not errors
                loss = _blt_from(params).cost(n).loss
        except (ValueError, ArithmeticError, np.linalg.LinAlgError):
            return math.inf
        return math.log(loss) if math.isfinite(loss) and loss > 0 else math.inf

    first = optimize.minimize(objective, start, method="L-BFGS-B")
    polished = optimize.minimize(
        objective,
        first.x,
        method="Nelder-Mead",
        options={"adaptive": True, "maxfev": 400 * buffers, "xatol": 1e-8, "fatol": 1e-12},
    )
    chosen = polished.x if polished.fun <= first.fun else first.x
    blt = _blt_from(np.asarray(chosen))
    return tuple(blt.theta.tolist()), tuple(blt.omega.tolist())


def optimal_blt(n: int, buffers: int = 6) -> BLT:
    """A BLT minimising ``sensitivity · error`` at horizon ``n`` (the worst release's noise).

    Deterministic (L-BFGS-B from a fixed start on ``(log(−log θ), log ω)``, then adaptive
    Nelder-Mead; under a second), cached per process.  Its :meth:`BLT.cost` is what the
    calibration uses, whatever the optimiser reached; :func:`sqrt_factorization` is the
    near-optimal reference it is compared with.
    """
    n = check_size("n", n, 2)  # beyond 2**53 the decays 1 - 1/n round to 1
    buffers = check_size("buffers", buffers, 1, item_bytes=8, power=2, what="a pair of buffers")
    theta, omega = _optimal_blt(n, buffers)
    return BLT(theta=np.array(theta), omega=np.array(omega))


class BLTNoiseStream:
    """The noise ``N_t = (A C⁻¹ z)_t`` of a :class:`BLT` mechanism, one input at a time.

    ``w = C⁻¹ z`` solves ``C w = z``: ``w_t = z_t − Σ_i ω_i u_{i,t}`` with buffers
    ``u_{i,t+1} = θ_i u_{i,t} + w_t``; ``N_t = N_{t−1} + w_t``.  Memory: ``k + 1`` arrays of the
    item shape, whatever the horizon.  Before any input, :attr:`total` is zero.

    Args:
        blt: the strategy.
        law: the law of each ``z_t`` (e.g. symmetric Gaussian matrices), drawn once per input.
        rng: generator of the ``z_t`` (split into block-stable streams as the tree's noise).
    """

    def __init__(self, blt: BLT, law: NodeNoise, rng: np.random.Generator | SeedLike) -> None:
        generator = as_generator(rng)
        self.blt = check_instance("blt", blt, BLT)
        self.law = check_instance("law", law, NodeNoise)
        self._streams = NoiseStreams.split(generator)
        shape = tuple(law.shape)
        self._buffers = np.zeros((blt.buffers, *shape))
        self._total = np.zeros(shape)
        self.count = 0

    @property
    def total(self) -> FloatArray:
        """``N_t`` after the ``t = count`` inputs so far (a copy)."""
        return self._total.copy()

    def advance(self) -> FloatArray:
        """Draw ``z_{t+1}``, move to ``N_{t+1}`` and return it (a copy)."""
        z = self.law.sample(self._streams)
        omega, theta = self.blt.omega, self.blt.theta
        acc = omega[0] * self._buffers[0]
        for i in range(1, self.blt.buffers):  # Σ_i ω_i U_i in a fixed order (the compiled one's)
            acc = acc + omega[i] * self._buffers[i]
        w = z - acc
        self._buffers = theta.reshape((-1,) + (1,) * z.ndim) * self._buffers + w
        self._total = self._total + w
        self.count += 1
        return self.total
