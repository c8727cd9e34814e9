"""The classic benchmark mechanisms as vectorised samplers (the :class:`audit.protocols.Mechanism` API).

Each ``sample(data, rng, size)`` returns ``size`` independent outputs stacked along axis 0, with all
randomness from ``rng``. Sparse-vector outputs encode ⊤ as 1, ⊥ as 0 and "not answered" (after the
cutoff) as -1; the numeric variants return a ``(size, 2, n)`` stack of those codes and the released
values (0 where nothing is released). The mechanisms DP-Sniper added to StatDP's (Bichsel et al.,
IEEE S&P 2021, Sec. VI) follow its parameters: :class:`TruncatedGeometric`, :class:`Rappor` (and its
one-time form), :class:`LaplaceParallel`, :class:`SVT34Parallel` and :class:`PrefixSum`.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_finite,
    check_in_range,
    check_int_array,
    check_int_at_least,
    check_positive,
)

__all__ = [
    "LaplaceMechanism",
    "LaplaceParallel",
    "NoisyHistogram",
    "NumericalSparseVector",
    "PrefixSum",
    "Rappor",
    "ReportNoisyMax",
    "SVT34Parallel",
    "SparseVector",
    "TruncatedGeometric",
    "lyu_svt",
    "murmur3_32",
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


def _single_integer(data: object, size: int) -> int:
    """The one integer entry of ``data`` (a whole number; fractions, NaN and inf are refused)."""
    check_int_at_least("size", size, 1)
    return int(check_int_array("data", data, None, shape=(1,))[0])


@dataclass(frozen=True)
class TruncatedGeometric:
    """Balcer & Vadhan's GeoSample ("Differential Privacy on Finite Computers", ITCS 2018,
    Alg. 4.8) as DP-Sniper runs it (``TruncatedGeometricMechanism``: ε = 0.1, n = 5).

    A count ``c ∈ {0, …, n}`` is released as ``z`` with probability proportional to
    ``α^{|z − c|}``, ``α = 2^k/(2^k + 1)``, the two tails folded onto ``0`` and ``n``. It is sampled
    exactly, as on a finite computer: an integer ``u`` uniform on ``{1, …, d}``,
    ``d = (2^{k+1} + 1)(2^k + 1)^{n−1}``, and the least ``z`` with ``F(z) ≥ u`` for the integer
    CDF numerators ``F`` of the algorithm's Step 2 (:meth:`cdf_numerators`).
    ``k = ⌈ln(2/ε)⌉`` with the natural logarithm, as DP-Sniper's code has it (``k = 3`` at
    ``ε = 0.1``): by Balcer & Vadhan's Thm 4.7 the mechanism is then ``ln(1 + 2^{−k})``-DP,
    ``ln(9/8) ≈ 0.118``, above the ε it is run with. Output shape ``(size,)``.
    """

    epsilon: float = 0.1
    n: int = 5

    def __post_init__(self) -> None:
        check_in_range("epsilon", self.epsilon, 0.0, 2.0)  # k ≥ 1
        check_int_at_least("n", self.n, 1)
        if self.denominator >= 2**62:
            raise ValueError(
                f"epsilon and n must keep d = (2^(k+1) + 1)(2^k + 1)^(n-1) below 2**62 "
                f"(k = ceil(ln(2/epsilon))), got epsilon={self.epsilon!r}, n={self.n!r}"
            )

    @property
    def k(self) -> int:
        """``⌈ln(2/ε)⌉``."""
        return math.ceil(math.log(2.0 / self.epsilon))

    @property
    def denominator(self) -> int:
        """``d = (2^{k+1} + 1)(2^k + 1)^{n−1}``."""
        k, n = self.k, self.n
        return int((2 ** (k + 1) + 1) * (2**k + 1) ** (n - 1))

    def cdf_numerators(self, count: int) -> list[int]:
        """``F(0), …, F(n)`` of Step 2 for the count ``c``: ``P(z ≤ j) = F(j)/d``."""
        c = check_int_at_least("count", count, 0)
        if c > self.n:
            raise ValueError(f"count must be in [0, {self.n}], got {count!r}")
        k, n, d = self.k, self.n, self.denominator
        below = [2 ** (k * (c - z)) * (2**k + 1) ** (n - (c - z)) for z in range(c)]
        above = [d - 2 ** (k * (z - c + 1)) * (2**k + 1) ** (n - 1 - (z - c)) for z in range(c, n)]
        return [*below, *above, d]

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` releases of the count ``data[0]`` (an integer in ``[0, n]``)."""
        c = _single_integer(data, size)
        if not 0 <= c <= self.n:
            raise ValueError(f"data must hold a count in [0, {self.n}], got {c}")
        cdf = np.array(self.cdf_numerators(c), dtype=np.int64)
        u = rng.integers(1, self.denominator + 1, size=size, dtype=np.int64)
        return np.searchsorted(cdf, u, side="left").astype(np.float64)


def murmur3_32(data: bytes, seed: int = 0) -> int:
    """MurmurHash3 x86 32-bit of ``data`` (Appleby's reference), as a signed 32-bit integer: the
    value of the ``mmh3.hash`` DP-Sniper's RAPPOR uses for its Bloom filter."""
    mask = 0xFFFFFFFF
    c1, c2 = 0xCC9E2D51, 0x1B873593
    h = seed & mask
    tail = len(data) - len(data) % 4
    for i in range(0, tail, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
        h = ((h << 13) | (h >> 19)) & mask
        h = (h * 5 + 0xE6546B64) & mask
    if len(data) > tail:
        k = int.from_bytes(data[tail:], "little")
        k = (k * c1) & mask
        k = ((k << 15) | (k >> 17)) & mask
        h ^= (k * c2) & mask
    h ^= len(data)
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & mask
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & mask
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h


@dataclass(frozen=True)
class Rappor:
    """RAPPOR's report of one value (Erlingsson, Pihur, Korolova, "RAPPOR: Randomized Aggregatable
    Privacy-Preserving Ordinal Response", CCS 2014, Sec. 3, steps 1–3), as DP-Sniper runs it
    (``Rappor``: ``h = 4`` hashes, a ``k = 20``-bit Bloom filter, ``f = 0.75``, ``p = 0.45``,
    ``q = 0.55``; ``OneTimeRappor``: steps 1–2 with ``f = 0.95``).

    Step 1 sets the Bloom-filter bits ``murmur3_32(str(v), seed=i) mod k`` for ``i < h``
    (DP-Sniper's hashes: MurmurHash3 of the decimal string, the signed value reduced as Python's
    ``%`` does); step 2, the permanent randomized response, sets each bit to 1 with probability
    ``f/2``, to 0 with probability ``f/2`` and keeps it otherwise; step 3, the instantaneous
    randomized response, reports 1 with probability ``q`` for a 1 and ``p`` for a 0.
    ``instantaneous=False`` stops after step 2. Every draw takes a fresh permanent response (one
    report per draw, as in DP-Sniper). The input is one integer; output ``(size, k)`` bits.
    """

    n_hashes: int = 4
    filter_size: int = 20
    f: float = 0.75
    p: float = 0.45
    q: float = 0.55
    instantaneous: bool = True

    def __post_init__(self) -> None:
        check_int_at_least("n_hashes", self.n_hashes, 1)
        check_int_at_least("filter_size", self.filter_size, 1)
        for name in ("f", "p", "q"):
            check_in_range(name, getattr(self, name), 0.0, 1.0, low_open=False, high_open=False)
        if not isinstance(self.instantaneous, bool):
            raise ValueError(f"instantaneous must be True or False, got {self.instantaneous!r}")

    def bloom_bits(self, value: int) -> FloatArray:
        """Step 1: the Bloom filter of ``value``, shape ``(filter_size,)`` of 0/1."""
        bits = np.zeros(self.filter_size)
        for i in range(self.n_hashes):
            bits[murmur3_32(str(int(value)).encode(), seed=i) % self.filter_size] = 1.0
        return bits

    @property
    def one_probabilities(self) -> tuple[float, float]:
        """``(P[report 1 | Bloom bit 1], P[report 1 | Bloom bit 0])`` of one bit after steps 2–3
        (Erlingsson et al.'s ``q*`` and ``p*``; ``1 − f/2`` and ``f/2`` without step 3)."""
        set_, unset = 1.0 - self.f / 2.0, self.f / 2.0
        if not self.instantaneous:
            return set_, unset
        return (
            set_ * self.q + (1.0 - set_) * self.p,
            unset * self.q + (1.0 - unset) * self.p,
        )

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` reports of the value ``data[0]``."""
        bits = np.broadcast_to(
            self.bloom_bits(_single_integer(data, size)), (size, self.filter_size)
        )
        u = rng.random((size, self.filter_size))
        permanent = np.where(u < self.f / 2.0, 1.0, np.where(u < self.f, 0.0, bits))
        if not self.instantaneous:
            return permanent
        one = np.where(permanent == 1.0, self.q, self.p)
        return (rng.random((size, self.filter_size)) < one).astype(np.float64)


@dataclass(frozen=True)
class LaplaceParallel:
    """``copies`` independent Laplace mechanisms on one entry, each ``x₀ + Lap(1/ε_c)`` (DP-Sniper's
    ``LaplaceParallel``: 20 copies at ``ε_c = 0.005``). ``copies·ε_c``-DP by composition (Dwork,
    McSherry, Nissim, Smith, TCC 2006): 0.1. Output shape ``(size, copies)``."""

    copies: int = 20
    epsilon_per_copy: float = 0.005

    def __post_init__(self) -> None:
        check_int_at_least("copies", self.copies, 1)
        check_positive("epsilon_per_copy", self.epsilon_per_copy)

    @property
    def scale(self) -> float:
        """Each copy's Laplace scale ``1/ε_c``."""
        return 1.0 / self.epsilon_per_copy

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` rows of ``copies`` noisy copies of ``data[0]``."""
        x = check_array("data", data, shape=(1,))
        check_int_at_least("size", size, 1)
        return np.asarray(x[0] + rng.laplace(0.0, self.scale, size=(size, self.copies)))


@dataclass(frozen=True)
class PrefixSum:
    """The prefix sums of the noisy queries, ``y_i = Σ_{j ≤ i} (x_j + η_j)``, ``η_j ~ Lap(1/ε)``
    (Wang, Ding, Wang, Kifer, Zhang, "Proving Differential Privacy with Shadow Execution",
    PLDI 2019; DP-Sniper's ``PrefixSum``, ε = 0.1). A bijective post-processing of the noisy
    queries, hence ``‖x − x'‖₁·ε``-DP: ε-DP when one query moves by at most 1, but ``d·ε`` when
    every query may (the benchmark's neighbourhood). Output shape ``(size, d)``."""

    epsilon: float = 0.1

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)

    @property
    def scale(self) -> float:
        """The Laplace scale ``1/ε``."""
        return 1.0 / self.epsilon

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` rows of prefix sums."""
        x = _queries(data, size)
        return np.cumsum(x[None, :] + rng.laplace(0.0, self.scale, size=(size, x.size)), axis=1)


@dataclass(frozen=True)
class SVT34Parallel:
    """Lyu, Su & Li's Algorithms 3 and 4 (:func:`lyu_svt`) run on the same queries with independent
    noise (DP-Sniper's ``SVT34Parallel``: ε = 0.1 for each, ``c = 2``, ``T = 1``). Output
    ``(size, 3, n)``: Algorithm 3's codes and released values, then Algorithm 4's codes."""

    epsilon: float = 0.1
    c: int = 2
    threshold: float = 1.0
    parts: tuple[SparseVector, SparseVector] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        check_finite("threshold", self.threshold)
        parts = (
            lyu_svt(3, self.epsilon, self.c, self.threshold),
            lyu_svt(4, self.epsilon, self.c, self.threshold),
        )
        object.__setattr__(self, "parts", parts)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` runs of both algorithms (Algorithm 3's noise drawn first)."""
        numeric = self.parts[0].sample(data, rng, size)
        codes = self.parts[1].sample(data, rng, size)
        return np.concatenate([numeric, codes[:, None, :]], axis=1)
