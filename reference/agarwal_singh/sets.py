"""Decision sets, loss sets and FTRL regularisers of Agarwal & Singh (Sec. 2, Cor. 3.2).

Paper: the three instances of Sec. 2 (experts on the simplex with ``‖l‖_∞ ≤ 1``, Euclidean ball
with ``‖l‖₂ ≤ 1``, cube ``‖x‖_∞ ≤ 1`` with ``‖l‖₁ ≤ 1``); norms ``‖Y‖_p``, ``‖X‖_p``, ``M`` in Sec. 2;
Corollary 3.2 regularisers in Sec. 3.

Every set method is batched over leading axes: a vector argument has shape ``(..., N)``.

Proof note: ``proofs_notes/agarwal_singh/cor32_instances.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_choice,
    check_int_at_least,
    check_nonnegative,
    check_positive,
)

__all__ = [
    "Cube",
    "DecisionSet",
    "L2Ball",
    "LossSet",
    "LossSetKind",
    "NegativeEntropySimplex",
    "Regularizer",
    "Simplex",
    "SquaredNormBall",
    "SquaredNormCube",
    "default_learning_rate",
]


def _check_order(p: float) -> None:
    """The norm order ``p``: 1, 2 or inf (a bool, an array or anything else is refused)."""
    try:
        ok = not isinstance(p, bool | np.bool_ | np.ndarray | str) and p in (1, 2, math.inf)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"p must be 1, 2 or inf, got {p!r:.80}")


def _vectors(name: str, value: FloatArray, dim: int) -> FloatArray:
    arr = check_array(name, value)
    if arr.ndim < 1 or arr.shape[-1] != dim:
        raise ValueError(f"{name} must have shape (..., {dim}), got shape {arr.shape}")
    return arr


# --------------------------------------------------------------------------------------------
# Decision sets X
# --------------------------------------------------------------------------------------------


@runtime_checkable
class DecisionSet(Protocol):
    """A compact convex decision set ``X ⊂ R^N`` with a linear oracle and support function."""

    @property
    def dim(self) -> int:
        """Dimension ``N``."""
        ...

    def linear_argmin(self, c: FloatArray) -> FloatArray:
        """``argmin_{x∈X} <c, x>`` (FTPL's oracle, Alg. 3, line 5); ties to the lowest index."""
        ...

    def support(self, c: FloatArray) -> FloatArray:
        """Support function ``h_X(c) = max_{x∈X} <c, x>``."""
        ...

    def radius(self, p: float) -> float:
        """``‖X‖_p = max_{x∈X} ‖x‖_p`` (Sec. 2), ``p ∈ {1, 2, inf}``."""
        ...

    def contains(self, x: FloatArray, tol: float = 1e-9) -> bool:
        """Whether every row of ``x`` lies in ``X`` up to ``tol``."""
        ...


@dataclass(frozen=True)
class Simplex:
    """The probability simplex ``Δ_N = {x ≥ 0, Σ x_i = 1}`` (experts, Sec. 2)."""

    dim: int

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)

    def linear_argmin(self, c: FloatArray) -> FloatArray:
        c = _vectors("c", c, self.dim)
        out = np.zeros(c.shape)
        np.put_along_axis(out, np.argmin(c, axis=-1)[..., None], 1.0, axis=-1)
        return out

    def support(self, c: FloatArray) -> FloatArray:
        return np.asarray(np.max(_vectors("c", c, self.dim), axis=-1), dtype=np.float64)

    def radius(self, p: float) -> float:
        _check_order(p)
        return 1.0

    def contains(self, x: FloatArray, tol: float = 1e-9) -> bool:
        x = _vectors("x", x, self.dim)
        tol = check_nonnegative("tol", tol)
        return bool(np.all(x >= -tol) and np.all(np.abs(x.sum(axis=-1) - 1.0) <= tol))


@dataclass(frozen=True)
class L2Ball:
    """The Euclidean ball ``{‖x‖₂ ≤ r}`` ("OLO over the sphere", Sec. 2; ``r = 1`` there)."""

    dim: int
    r: float = 1.0

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)
        check_positive("r", self.r)

    def linear_argmin(self, c: FloatArray) -> FloatArray:
        """``−r c/‖c‖₂`` (``0``, a minimiser, if ``c = 0``)."""
        c = _vectors("c", c, self.dim)
        norm = np.linalg.norm(c, axis=-1, keepdims=True)
        safe = np.where(norm > 0, norm, 1.0)
        return np.where(norm > 0, -self.r * c / safe, 0.0)

    def support(self, c: FloatArray) -> FloatArray:
        return np.asarray(self.r * np.linalg.norm(_vectors("c", c, self.dim), axis=-1))

    def radius(self, p: float) -> float:
        _check_order(p)
        if p == 1:
            return self.r * math.sqrt(self.dim)
        if p in (2, math.inf):
            return self.r
        raise ValueError(f"p must be 1, 2 or inf, got {p!r}")

    def contains(self, x: FloatArray, tol: float = 1e-9) -> bool:
        x = _vectors("x", x, self.dim)
        tol = check_nonnegative("tol", tol)
        return bool(np.all(np.linalg.norm(x, axis=-1) <= self.r + tol))


@dataclass(frozen=True)
class Cube:
    """The cube ``{‖x‖_∞ ≤ w}`` ("OLO over the cube", Sec. 2; ``w = 1`` there)."""

    dim: int
    w: float = 1.0

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)
        check_positive("w", self.w)

    def linear_argmin(self, c: FloatArray) -> FloatArray:
        """``−w sign(c)`` per coordinate (``0`` where ``c_i = 0``)."""
        c = _vectors("c", c, self.dim)
        return np.asarray(-self.w * np.sign(c), dtype=np.float64)

    def support(self, c: FloatArray) -> FloatArray:
        return np.asarray(self.w * np.sum(np.abs(_vectors("c", c, self.dim)), axis=-1))

    def radius(self, p: float) -> float:
        _check_order(p)
        if p == 1:
            return self.w * self.dim
        if p == 2:
            return self.w * math.sqrt(self.dim)
        if p == math.inf:
            return self.w
        raise ValueError(f"p must be 1, 2 or inf, got {p!r}")

    def contains(self, x: FloatArray, tol: float = 1e-9) -> bool:
        x = _vectors("x", x, self.dim)
        tol = check_nonnegative("tol", tol)
        return bool(np.all(np.abs(x) <= self.w + tol))


# --------------------------------------------------------------------------------------------
# Loss sets Y
# --------------------------------------------------------------------------------------------

LossSetKind: TypeAlias = Literal["linf_ball", "l2_ball", "l1_ball", "box01"]


@dataclass(frozen=True)
class LossSet:
    """A loss set ``Y ⊂ R^N``: a centred ℓ_p ball of radius ``r`` or the box ``[0, r]^N``.

    ``norm_radius(p) = ‖Y‖_p`` (the paper's quantity, Sec. 2) and ``diameter(p) = Δ_p(Y) =
    sup_{l,l'∈Y} ‖l − l'‖_p`` (the replace-one sensitivity).  For the three
    balls ``Δ_p = 2‖Y‖_p``; for ``box01`` ``Δ_p = ‖Y‖_p``.  ``coordinate_range`` is the bandit
    sensitivity ``Δ_B`` when actions are simplex vertices.
    """

    kind: LossSetKind
    dim: int
    r: float = 1.0

    def __post_init__(self) -> None:
        check_choice("kind", self.kind, ("linf_ball", "l2_ball", "l1_ball", "box01"))
        check_int_at_least("dim", self.dim, 1)
        check_positive("r", self.r)

    def norm_radius(self, p: float) -> float:
        """``‖Y‖_p = max_{l∈Y} ‖l‖_p`` for ``p ∈ {1, 2, inf}``."""
        n, r = self.dim, self.r
        table: dict[str, dict[float, float]] = {
            "linf_ball": {1: n * r, 2: math.sqrt(n) * r, math.inf: r},
            "box01": {1: n * r, 2: math.sqrt(n) * r, math.inf: r},
            "l2_ball": {1: math.sqrt(n) * r, 2: r, math.inf: r},
            "l1_ball": {1: r, 2: r, math.inf: r},
        }
        _check_order(p)
        return table[self.kind][p]

    def diameter(self, p: float) -> float:
        """``Δ_p(Y) = sup_{l,l'∈Y} ‖l − l'‖_p`` for ``p ∈ {1, 2, inf}``."""
        radius = self.norm_radius(p)
        return radius if self.kind == "box01" else 2.0 * radius

    @property
    def coordinate_range(self) -> float:
        """``sup_{l,l'∈Y} |l_i − l'_i|`` (same for every ``i``): ``r`` for ``box01``, else ``2r``."""
        return self.r if self.kind == "box01" else 2.0 * self.r

    def contains(self, losses: FloatArray, tol: float = 1e-9) -> bool:
        """Whether every row of ``losses`` lies in ``Y`` up to ``tol``."""
        x = _vectors("losses", losses, self.dim)
        tol = check_nonnegative("tol", tol)
        if self.kind == "box01":
            return bool(np.all(x >= -tol) and np.all(x <= self.r + tol))
        order = {"linf_ball": np.inf, "l2_ball": 2, "l1_ball": 1}[self.kind]
        return bool(np.all(np.linalg.norm(x, ord=order, axis=-1) <= self.r + tol))


# --------------------------------------------------------------------------------------------
# Regularisers with closed-form FTRL steps (Cor. 3.2)
# --------------------------------------------------------------------------------------------


@runtime_checkable
class Regularizer(Protocol):
    """An FTRL regulariser ``R`` on a decision set, with the closed-form step of Alg. 1, line 5."""

    @property
    def decision_set(self) -> DecisionSet:
        """The decision set ``X``."""
        ...

    @property
    def D_R(self) -> float:
        """``D_R = max_X R − min_X R`` (Thm 3.1)."""
        ...

    def argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        """``argmin_{x∈X} ( η<x, θ> + R(x) )`` (Alg. 1, line 5), batched over leading axes."""
        ...

    def value(self, x: FloatArray) -> FloatArray:
        """``R(x)``."""
        ...

    def dual_local_norm_sq(self, loss: FloatArray) -> FloatArray:
        """``G² = max_{x∈X} (‖l‖*_{∇²R(x)})²`` for one loss (Thm 3.1)."""
        ...


@dataclass(frozen=True)
class NegativeEntropySimplex:
    """``R(x) = Σ_i x_i log x_i`` on the simplex (Cor. 3.2.1).

    Step: ``x_i ∝ exp(−η θ_i)`` (exponential weights), computed with max-subtraction.
    ``D_R = ln N``; ``∇²R(x) = diag(1/x_i)``, so ``(‖l‖*)² = Σ_i x_i l_i² ≤ ‖l‖_∞²`` with equality at
    a vertex: ``G² = ‖l‖_∞²``.
    """

    dim: int

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)

    @property
    def decision_set(self) -> Simplex:
        return Simplex(self.dim)

    @property
    def D_R(self) -> float:
        return math.log(self.dim)

    def argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        theta = _vectors("theta", theta, self.dim)
        eta = check_positive("eta", eta)
        logits = -eta * theta
        logits = logits - np.max(logits, axis=-1, keepdims=True)
        weights = np.exp(logits)
        return np.asarray(weights / np.sum(weights, axis=-1, keepdims=True), dtype=np.float64)

    def value(self, x: FloatArray) -> FloatArray:
        x = _vectors("x", x, self.dim)
        safe = np.where(x > 0, x, 1.0)
        return np.asarray(np.sum(np.where(x > 0, x * np.log(safe), 0.0), axis=-1))

    def dual_local_norm_sq(self, loss: FloatArray) -> FloatArray:
        loss = _vectors("loss", loss, self.dim)
        return np.asarray(np.max(np.abs(loss), axis=-1) ** 2)


@dataclass(frozen=True)
class SquaredNormBall:
    """``R(x) = ‖x‖₂²`` on the ball ``‖x‖₂ ≤ r`` (Cor. 3.2.2).

    Step: ``u = −ηθ/2`` projected on the ball, ``x = u·min(1, r/‖u‖₂)``.  ``D_R = r²``;
    ``∇²R = 2I`` so ``G² = ‖l‖₂²/2``.
    """

    dim: int
    r: float = 1.0

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)
        check_positive("r", self.r)

    @property
    def decision_set(self) -> L2Ball:
        return L2Ball(self.dim, self.r)

    @property
    def D_R(self) -> float:
        return self.r**2

    def argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        theta = _vectors("theta", theta, self.dim)
        eta = check_positive("eta", eta)
        u = -eta * theta / 2.0
        norm = np.linalg.norm(u, axis=-1, keepdims=True)
        factor = np.minimum(1.0, self.r / np.where(norm > 0, norm, 1.0))
        return np.asarray(u * factor, dtype=np.float64)

    def value(self, x: FloatArray) -> FloatArray:
        return np.asarray(np.sum(_vectors("x", x, self.dim) ** 2, axis=-1))

    def dual_local_norm_sq(self, loss: FloatArray) -> FloatArray:
        return np.asarray(np.sum(_vectors("loss", loss, self.dim) ** 2, axis=-1) / 2.0)


@dataclass(frozen=True)
class SquaredNormCube:
    """``R(x) = ‖x‖₂²`` on the cube ``‖x‖_∞ ≤ w`` (Cor. 3.2.3).

    Step: ``x = clip(−ηθ/2, −w, w)`` coordinate-wise (the objective is separable).
    ``D_R = N w²``; ``G² = ‖l‖₂²/2``.
    """

    dim: int
    w: float = 1.0

    def __post_init__(self) -> None:
        check_int_at_least("dim", self.dim, 1)
        check_positive("w", self.w)

    @property
    def decision_set(self) -> Cube:
        return Cube(self.dim, self.w)

    @property
    def D_R(self) -> float:
        return self.dim * self.w**2

    def argmin(self, theta: FloatArray, eta: float) -> FloatArray:
        theta = _vectors("theta", theta, self.dim)
        eta = check_positive("eta", eta)
        return np.asarray(np.clip(-eta * theta / 2.0, -self.w, self.w), dtype=np.float64)

    def value(self, x: FloatArray) -> FloatArray:
        return np.asarray(np.sum(_vectors("x", x, self.dim) ** 2, axis=-1))

    def dual_local_norm_sq(self, loss: FloatArray) -> FloatArray:
        return np.asarray(np.sum(_vectors("loss", loss, self.dim) ** 2, axis=-1) / 2.0)


def default_learning_rate(D_R: float, T: int, G2: float) -> float:
    """``η* = √(D_R / (2 T G²))`` with ``G²`` a *declared* bound on ``max_t G_t²``.

    The paper never fixes ``η`` (Alg. 1 uses it; Thm 3.1 omits it).  This choice minimises the
    certified bound ``D_R/η + 2ηTG²`` (Thm 3.4).  It must be computed from declared
    constants, never from the realised losses (that would leak them).
    """
    D_R = check_positive("D_R", D_R)
    T = check_int_at_least("T", T, 1)
    G2 = check_positive("G2", G2)
    return math.sqrt(D_R / (2.0 * T * G2))
