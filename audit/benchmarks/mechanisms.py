"""The classic benchmark mechanisms as vectorised samplers (the :class:`audit.protocols.Mechanism` API).

Each ``sample(data, rng, size)`` returns ``size`` independent outputs stacked along axis 0, with all
randomness from ``rng``. Sparse-vector outputs encode ⊤ as 1, ⊥ as 0 and "not answered" (after the
cutoff) as -1; the numeric variants return a ``(size, 2, n)`` stack of those codes and the released
values (0 where nothing is released).
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.validation import check_array, check_int_at_least, check_positive

__all__ = [
    "LaplaceMechanism",
    "NoisyHistogram",
    "NumericalSparseVector",
    "ReportNoisyMax",
    "SparseVector",
    "lyu_svt",
]

NoiseLaw = Literal["laplace", "exponential"]

TOP, BOTTOM, ABORTED = 1.0, 0.0, -1.0
"""Sparse-vector output codes: ⊤ (above the noisy threshold), ⊥ (below), not answered."""


def _queries(data: object, size: int) -> FloatArray:
    check_int_at_least("size", size, 1)
    return check_array("data", data, ndim=1)


def _noise(
    rng: np.random.Generator, law: NoiseLaw, scale: float, shape: tuple[int, ...]
) -> FloatArray:
    if law == "laplace":
        return rng.laplace(0.0, scale, size=shape)
    return rng.exponential(scale, size=shape)


@dataclass(frozen=True)
class LaplaceMechanism:
    """``x₀ + Lap(1/ε)`` on a one-entry input (Dwork et al. 2006; DP-Sniper's ``LaplaceMechanism``,
    ε = 0.1). Output shape ``(size,)``."""

    epsilon: float = 0.1

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` draws of ``data[0] + Lap(1/ε)``."""
        x = _queries(data, size)
        return np.asarray(x[0] + rng.laplace(0.0, 1.0 / self.epsilon, size=size), dtype=np.float64)


@dataclass(frozen=True)
class NoisyHistogram:
    """Every bin plus independent Laplace noise (StatDP Alg. 9 and 10; DP-Sniper ``NoisyHist1/2``).

    ``scale_rule="one_over_epsilon"`` is the correct ``Lap(1/ε)`` (StatDP Alg. 9);
    ``scale_rule="epsilon"`` is StatDP's incorrect Alg. 10, which draws ``Lap(ε)``. Output shape
    ``(size, d)``: the whole noisy histogram (StatDP releases the first bin only).
    """

    epsilon: float = 0.1
    scale_rule: Literal["one_over_epsilon", "epsilon"] = "one_over_epsilon"

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)
        if self.scale_rule not in ("one_over_epsilon", "epsilon"):
            raise ValueError(
                f"scale_rule must be 'one_over_epsilon' or 'epsilon', got {self.scale_rule!r}"
            )

    @property
    def scale(self) -> float:
        """The Laplace scale actually drawn."""
        return 1.0 / self.epsilon if self.scale_rule == "one_over_epsilon" else self.epsilon

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` noisy histograms."""
        x = _queries(data, size)
        return x[None, :] + rng.laplace(0.0, self.scale, size=(size, x.size))


@dataclass(frozen=True)
class ReportNoisyMax:
    """Report noisy max with scale ``2/ε`` noise on every query (StatDP Alg. 5–8).

    ``noise`` is Laplace (Alg. 5, 7) or exponential (Alg. 6, 8); ``report="index"`` returns the
    argmax (Alg. 5, 6: ε-DP), ``report="value"`` the maximal noisy value itself (Alg. 7, 8: the
    incorrect variants). Output shape ``(size,)``.
    """

    epsilon: float = 0.1
    noise: NoiseLaw = "laplace"
    report: Literal["index", "value"] = "index"

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)
        if self.noise not in ("laplace", "exponential"):
            raise ValueError(f"noise must be 'laplace' or 'exponential', got {self.noise!r}")
        if self.report not in ("index", "value"):
            raise ValueError(f"report must be 'index' or 'value', got {self.report!r}")

    @property
    def scale(self) -> float:
        """The noise scale ``2/ε``."""
        return 2.0 / self.epsilon

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` reports."""
        x = _queries(data, size)
        noisy = x[None, :] + _noise(rng, self.noise, self.scale, (size, x.size))
        if self.report == "index":
            return np.asarray(np.argmax(noisy, axis=1), dtype=np.float64)
        return np.asarray(np.max(noisy, axis=1), dtype=np.float64)


@dataclass(frozen=True)
class SparseVector:
    """The sparse vector technique in the six forms of Lyu, Su & Li (VLDB 2017), Algorithms 1–6.

    A noisy threshold ``T + ρ``, ``ρ ~ Lap(rho_scale)``; query ``i`` is ⊤ iff
    ``x_i + ν_i ≥ T + ρ`` with ``ν_i ~ Lap(nu_scale)`` (no query noise when ``nu_scale == 0``).
    With ``cutoff`` the run stops after ``c`` ⊤ (the rest is -1); ``resample_rho`` draws a fresh
    ``ρ`` after each ⊤ (Alg. 2); ``numeric`` releases ``x_i + ν_i`` for a ⊤ (Alg. 3), and the output
    is then ``(size, 2, n)`` (codes, values), else ``(size, n)`` codes. :func:`lyu_svt` builds the
    six algorithms from ``(ε, c, T)``.
    """

    epsilon: float
    c: int
    threshold: float
    rho_scale: float
    nu_scale: float
    cutoff: bool = True
    resample_rho: bool = False
    numeric: bool = False

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)
        check_int_at_least("c", self.c, 1)
        check_positive("rho_scale", self.rho_scale)
        if self.nu_scale != 0.0:
            check_positive("nu_scale", self.nu_scale)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` runs over the queries ``data``."""
        x = _queries(data, size)
        n = x.size
        rho = rng.laplace(0.0, self.rho_scale, size=size)
        nu = (
            rng.laplace(0.0, self.nu_scale, size=(size, n))
            if self.nu_scale > 0.0
            else np.zeros((size, n))
        )
        noisy = x[None, :] + nu
        codes = np.empty((size, n))
        count = np.zeros(size, dtype=np.int64)
        for i in range(n):
            live = count < self.c if self.cutoff else np.ones(size, dtype=bool)
            above = noisy[:, i] >= self.threshold + rho
            codes[:, i] = np.where(live, np.where(above, TOP, BOTTOM), ABORTED)
            hit = live & above
            count += hit
            if self.resample_rho:
                fresh = rng.laplace(0.0, self.rho_scale, size=size)
                rho = np.where(hit, fresh, rho)
        if not self.numeric:
            return codes
        values = np.where(codes == TOP, noisy, 0.0)
        return np.stack([codes, values], axis=1)


def lyu_svt(
    algorithm: int, epsilon: float = 0.1, c: int = 1, threshold: float = 1.0
) -> SparseVector:
    """Lyu, Su & Li (VLDB 2017) Algorithm ``algorithm`` (1–6) with budget ``ε``, cutoff ``c``, ``T``.

    ================  =========  ===========  ==========  ================================
    Algorithm         ε₁         ρ scale      ν scale     other
    ================  =========  ===========  ==========  ================================
    1 (theirs)        ε/2        1/ε₁         2c/ε₂       stop after c ⊤
    2 (Dwork–Roth)    ε/2        c/ε₁         2c/ε₂       fresh ρ after each ⊤; stop after c
    3 (Roth)          ε/2        1/ε₁         c/ε₂        releases x_i + ν_i for ⊤; stop after c
    4 (Lee–Clifton)   ε/4        1/ε₁         1/ε₂        stop after c ⊤
    5 (Stoddard)      ε/2        1/ε₁         none        no cutoff
    6 (Chen)          ε/2        1/ε₁         1/ε₂        no cutoff
    ================  =========  ===========  ==========  ================================

    with ``ε₂ = ε − ε₁``. StatDP's ``SVT`` and ``iSVT 1–4`` are Algorithms 1, 5, 6, 4 and 3.
    """
    check_int_at_least("c", c, 1)
    eps = check_positive("epsilon", epsilon)
    if algorithm == 1:
        e1 = eps / 2.0
        return SparseVector(eps, c, threshold, 1.0 / e1, 2.0 * c / (eps - e1))
    if algorithm == 2:
        e1 = eps / 2.0
        return SparseVector(eps, c, threshold, c / e1, 2.0 * c / (eps - e1), resample_rho=True)
    if algorithm == 3:
        e1 = eps / 2.0
        return SparseVector(eps, c, threshold, 1.0 / e1, c / (eps - e1), numeric=True)
    if algorithm == 4:
        e1 = eps / 4.0
        return SparseVector(eps, c, threshold, 1.0 / e1, 1.0 / (eps - e1))
    if algorithm == 5:
        e1 = eps / 2.0
        return SparseVector(eps, c, threshold, 1.0 / e1, 0.0, cutoff=False)
    if algorithm == 6:
        e1 = eps / 2.0
        return SparseVector(eps, c, threshold, 1.0 / e1, 1.0 / (eps - e1), cutoff=False)
    raise ValueError(f"algorithm must be in {{1, ..., 6}}, got {algorithm!r}")


@dataclass(frozen=True)
class NumericalSparseVector:
    """Numerical SVT (Wang, Ding, Wang, Kifer, Zhang, PLDI 2019; DP-Sniper's ``NumericalSVT``).

    Threshold ``T + ρ₁``, ``ρ₁ ~ Lap(3/ε)``; query ``i`` is ⊤ iff ``x_i + ρ₂ᵢ ≥ T + ρ₁`` with
    ``ρ₂ᵢ ~ Lap(6c/ε)``, and a ⊤ releases the fresh ``x_i + ρ₃ᵢ``, ``ρ₃ᵢ ~ Lap(3c/ε)``; stop after
    ``c`` ⊤. ε-DP. Output ``(size, 2, n)``: codes (1, 0, -1) and released values (0 if none).
    """

    epsilon: float = 0.1
    c: int = 2
    threshold: float = 1.0

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)
        check_int_at_least("c", self.c, 1)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` runs over the queries ``data``."""
        x = _queries(data, size)
        n = x.size
        rho1 = rng.laplace(0.0, 3.0 / self.epsilon, size=(size, 1))
        rho2 = rng.laplace(0.0, 6.0 * self.c / self.epsilon, size=(size, n))
        rho3 = rng.laplace(0.0, 3.0 * self.c / self.epsilon, size=(size, n))
        above = x[None, :] + rho2 >= self.threshold + rho1
        before: np.ndarray = np.cumsum(above, axis=1) - above  # ⊤ among the earlier queries
        live = before < self.c
        codes = np.where(live, np.where(above, TOP, BOTTOM), ABORTED)
        values = np.where(codes == TOP, x[None, :] + rho3, 0.0)
        return np.stack([codes, values], axis=1)
