"""Stopping rules of Sajed & Sheffet, Sec. 3, and the two-arm test of Sec. 4.

:func:`nas` (non-private NAS, Domingo et al. 2002: halt at the first ``t`` with
``|X̄_t| ≥ h_t (1/α + 1)``), :func:`dp_nas` (Algorithm 1, a check at every ``t``),
:func:`dp_exp_nas` (Algorithm 2, checks at ``t = 2^k``), :func:`two_arm_test` (Sec. 4: Algorithm 2
on reward differences with ``α = 1/2``).  Noise: ``B`` once before the first sample, ``A`` fresh at
every check, ``L`` once after halting.  The check is the sum form of the proof of Thm 3.1
(:func:`svt_query_value`).  Every rule takes a public, data-independent cap and may end with
``halted=False``.

Proof note: ``proofs_notes/sajed_sheffet/nas_rule.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator
from reference.sajed_sheffet.constants import (
    dp_exp_nas_c,
    dp_exp_nas_h,
    dp_nas_c,
    dp_nas_h,
    dp_nas_noise_scales,
    nas_h,
)
from reference.validation import (
    check_alpha,
    check_array,
    check_bool,
    check_callable,
    check_choice,
    check_epsilon,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_nonnegative,
    check_positive,
    check_size,
)

__all__ = [
    "SampleDistribution",
    "SampleSource",
    "SampleStream",
    "StoppingResult",
    "StoppingTrace",
    "TwoArmTestResult",
    "TwoPointDistribution",
    "UniformDistribution",
    "dp_exp_nas",
    "dp_nas",
    "nas",
    "svt_query_value",
    "two_arm_test",
]


# --------------------------------------------------------------------------------------------
# Sample streams
# --------------------------------------------------------------------------------------------


@runtime_checkable
class SampleDistribution(Protocol):
    """A distribution that draws i.i.d. samples with a caller-supplied generator."""

    def sample(self, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` i.i.d. draws (shape ``(size,)``)."""
        ...


class TwoPointDistribution:
    """The two-point law on ``{−R, R}`` with mean ``μ``: ``Pr[R] = 1/2 + μ/(2R)``.

    The distribution ``P`` of the proof of Thm 3.4; it has the largest variance
    (``R² − μ²``) of all laws on ``[−R, R]`` with mean ``μ``.
    """

    def __init__(self, range_R: float, mu: float) -> None:
        self.range_R = check_positive("range_R", range_R)
        self.mu = check_in_range(
            "mu", mu, -self.range_R, self.range_R, low_open=False, high_open=False
        )

    @property
    def p_plus(self) -> float:
        """``Pr[X = R] = 1/2 + μ/(2R)``."""
        return 0.5 + self.mu / (2.0 * self.range_R)

    def sample(self, rng: np.random.Generator | SeedLike, size: int) -> FloatArray:
        rng = as_generator(rng)
        n = check_size("size", size, 0, item_bytes=8, what="a draw")
        plus = rng.random(n) < self.p_plus
        return np.where(plus, self.range_R, -self.range_R).astype(np.float64)

    def __repr__(self) -> str:
        return f"TwoPointDistribution(range_R={self.range_R!r}, mu={self.mu!r})"


class UniformDistribution:
    """Uniform on ``[low, high]`` (mean ``(low + high)/2``)."""

    def __init__(self, low: float, high: float) -> None:
        self.low = check_finite("low", low)
        self.high = check_finite("high", high)
        if not self.high > self.low:
            raise ValueError(f"high must be > low={self.low}, got {high!r}")

    @property
    def mean(self) -> float:
        return 0.5 * (self.low + self.high)

    def sample(self, rng: np.random.Generator | SeedLike, size: int) -> FloatArray:
        rng = as_generator(rng)
        n = check_size("size", size, 0, item_bytes=8, what="a draw")
        return rng.uniform(self.low, self.high, size=n)

    def __repr__(self) -> str:
        return f"UniformDistribution(low={self.low!r}, high={self.high!r})"


class SampleStream:
    """The input stream ``X_1, X_2, …`` of a stopping rule.

    Build it from a zero-argument callable returning one sample per call (:meth:`from_callable`), or
    from a :class:`SampleDistribution` plus the generator that drives it (:meth:`from_distribution`;
    samples are then drawn in blocks, which is what makes Algorithm 2 cheap at ``t = 2^20``).
    The stream counts the samples it has handed out in :attr:`consumed`.
    """

    def __init__(self, draw_block: Callable[[int], FloatArray]) -> None:
        self._draw_block = check_callable("draw_block", draw_block)
        self.consumed = 0

    @classmethod
    def from_callable(cls, draw: Callable[[], float]) -> SampleStream:
        """A stream whose ``t``-th sample is the ``t``-th return value of ``draw()``."""
        check_callable("draw", draw)

        def block(n: int) -> FloatArray:
            return np.array([float(draw()) for _ in range(n)], dtype=np.float64)

        return cls(block)

    @classmethod
    def from_distribution(
        cls, distribution: SampleDistribution, rng: np.random.Generator | SeedLike
    ) -> SampleStream:
        """I.i.d. samples of ``distribution`` drawn with ``rng`` (the data generator)."""
        rng = as_generator(rng)
        check_instance("distribution", distribution, SampleDistribution)

        def block(n: int) -> FloatArray:
            return np.asarray(distribution.sample(rng, n), dtype=np.float64).reshape(n)

        return cls(block)

    @classmethod
    def from_values(cls, values: FloatArray) -> SampleStream:
        """A fixed finite stream (audits) of the finite samples ``values`` (a non-empty 1-D
        array); asking for more than ``len(values)`` samples raises."""
        data = check_nonempty("values", check_array("values", values, ndim=1), what="sample")
        data = data.copy()
        position = [0]

        def block(n: int) -> FloatArray:
            start = position[0]
            if start + n > data.size:
                raise ValueError(
                    f"fixed stream of length {data.size} exhausted (asked for sample {start + n})"
                )
            position[0] = start + n
            return data[start : start + n].copy()

        return cls(block)

    def take(self, n: int) -> FloatArray:
        """The next ``n`` samples (shape ``(n,)``; ``n = 0``: none)."""
        n = check_size("n", n, 0, item_bytes=8, what="a sample")
        out = self._draw_block(n)
        if out.shape != (n,):
            raise ValueError(f"sample source returned shape {out.shape}, expected ({n},)")
        self.consumed += n
        return out


SampleSource = SampleStream | Callable[[], float]
"""What a stopping rule accepts: a :class:`SampleStream` or a zero-argument callable."""


def _as_stream(source: SampleSource) -> SampleStream:
    if isinstance(source, SampleStream):
        return source
    if callable(source):
        return SampleStream.from_callable(source)
    raise ValueError(f"source must be a SampleStream or a callable, got {source!r}")


def _checked_block(stream: SampleStream, n: int, range_R: float) -> FloatArray:
    """Take ``n`` samples and require each to lie in the support ``[−R, R]`` (never clipped)."""
    block = stream.take(n)
    if not np.all(np.isfinite(block)):
        raise ValueError("source returned a non-finite sample (NaN or inf)")
    if np.any(np.abs(block) > range_R):
        worst = float(np.max(np.abs(block)))
        raise ValueError(
            f"samples of source must lie in [-R, R] = [-{range_R}, {range_R}], got |x| = {worst}"
        )
    return block


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoppingTrace:
    """White-box record of one run (``record=True``); recording never changes the random draws.

    Attributes:
        B: the threshold noise (``nan`` for the non-private rule).
        A: query noise at each check, in order (empty for the non-private rule).
        check_times: ``t`` of each check (Alg. 1: ``1, 2, …``; Alg. 2: ``2, 4, 8, …``).
        prefix_sums: ``X_{1:t}`` at each check.
        h: ``h_t`` at each check.
        c: ``c_t`` at each check (``0`` for the non-private rule).
        query_values: ``q_t = |X_{1:t}| − t h_t (1 + 1/α) − c_t`` at each check.
        L: the release noise, or ``None`` if the rule did not halt (or is non-private).
    """

    B: float
    A: tuple[float, ...]
    check_times: tuple[int, ...]
    prefix_sums: tuple[float, ...]
    h: tuple[float, ...]
    c: tuple[float, ...]
    query_values: tuple[float, ...]
    L: float | None


@dataclass(frozen=True)
class StoppingResult:
    """Outcome of a stopping rule.

    Attributes:
        halted: whether the rule halted before its cap.
        halting_time: ``t*`` (samples consumed when halting), public; ``None`` if not halted.
        estimate: the released ``μ̂`` (``X̄_{t*} + L/t*`` for the private rules), ``None`` if not halted.
        samples_used: samples consumed (``t*``, or the cap if not halted).
        checks: number of halting checks evaluated.
        trace: white-box record, or ``None``.
    """

    halted: bool
    halting_time: int | None
    estimate: float | None
    samples_used: int
    checks: int
    trace: StoppingTrace | None


def svt_query_value(prefix_sum: float, t: int, h: float, c: float, alpha: float) -> float:
    """``q_t = |X_{1:t}| − t h_t (1/α + 1) − c_t`` (proof of Thm 3.1).

    The SVT halts at the first check with ``q_t ≥ A_t + B``.  ``q_t`` has sensitivity ``≤ 2R`` in the
    stream (one sample moves ``X_{1:t}`` by at most ``2R``); ``h, c`` are data independent.
    """
    s = check_finite("prefix_sum", prefix_sum)
    t = check_int_at_least("t", t, 1)
    a = check_alpha(alpha)
    return abs(s) - t * check_positive("h", h) * (1.0 / a + 1.0) - check_nonnegative("c", c)


def _trace(
    B: float,
    A: list[float],
    times: list[int],
    sums: list[float],
    hs: list[float],
    cs: list[float],
    qs: list[float],
    L: float | None,
) -> StoppingTrace:
    return StoppingTrace(B, tuple(A), tuple(times), tuple(sums), tuple(hs), tuple(cs), tuple(qs), L)


# --------------------------------------------------------------------------------------------
# NAS (non-private) -- Sec. 3
# --------------------------------------------------------------------------------------------


def nas(
    source: SampleSource,
    *,
    range_R: float,
    alpha: float,
    beta: float,
    t_max: int,
    record: bool = False,
) -> StoppingResult:
    """Non-private NAS (Sec. 3): halt at the first ``t`` with ``|X̄_t| ≥ h_t(1/α + 1)``.

    ``h_t`` is :func:`~reference.sajed_sheffet.constants.nas_h`.  Releases ``X̄_t``.  With probability
    ``≥ 1 − β`` every ``|X̄_t − μ| ≤ h_t`` and then the release satisfies
    ``|X̄_t − μ| ≤ h_t ≤ α(|X̄_t| − h_t) ≤ α|μ|`` (Sec. 3).  Deterministic given the stream.
    """
    R = check_positive("range_R", range_R)
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    t_max = check_int_at_least("t_max", t_max, 1)
    record = check_bool("record", record)
    stream = _as_stream(source)
    total = 0.0
    times: list[int] = []
    sums: list[float] = []
    hs: list[float] = []
    qs: list[float] = []
    for t in range(1, t_max + 1):
        total += float(_checked_block(stream, 1, R)[0])
        h = nas_h(t, R, b)
        q = svt_query_value(total, t, h, 0.0, a)
        if record:
            times.append(t)
            sums.append(total)
            hs.append(h)
            qs.append(q)
        if q >= 0.0:
            trace = _trace(math.nan, [], times, sums, hs, [0.0] * len(times), qs, None)
            return StoppingResult(True, t, total / t, t, t, trace if record else None)
    trace = _trace(math.nan, [], times, sums, hs, [0.0] * len(times), qs, None)
    return StoppingResult(False, None, None, t_max, t_max, trace if record else None)


# --------------------------------------------------------------------------------------------
# Algorithm 1 (DP-NAS) and Algorithm 2 (DP exponential NAS)
# --------------------------------------------------------------------------------------------


def dp_nas(
    source: SampleSource,
    *,
    range_R: float,
    alpha: float,
    beta: float,
    epsilon: float,
    rng: np.random.Generator | SeedLike,
    t_max: int,
    record: bool = False,
) -> StoppingResult:
    """Algorithm 1, DP-NAS: an ε-DP ``(α, β)``-stopping rule (Thm 3.1).

    ```
    1  σ₁ ← 12R/ε, σ₂ ← 12R/ε, σ₃ ← 4R/ε
    2  B ~ Lap(σ₁)                                   -- once
    4  repeat  t ← t + 1
    6      A_t ~ Lap(σ₂)                             -- fresh every t
    7      get X_t, update X̄_t
    8      h_t ← R √((2/t) log(16t²/β))
    9      c_t ← σ₁ log(4/β) + σ₂ log(8t²/β) + (σ₃/α) log(4/β)
    10 until |X̄_t| ≥ h_t(1 + 1/α) + (c_t + B + A_t)/t
    11 L ~ Lap(σ₃)                                   -- once, after halting
    12 return X̄_t + L/t
    ```

    Random draws from ``rng`` in this order: ``B``, then ``A_1, A_2, …`` (one per ``t``), then ``L``
    if halted.  Samples must lie in ``[−R, R]`` (checked, never clipped).

    Args:
        source: the sample stream (:class:`SampleStream` or zero-argument callable).
        range_R: ``R > 0``, the known support ``[−R, R]``.
        alpha: multiplicative accuracy ``α ∈ (0, 1)``.
        beta: failure probability ``β ∈ (0, 1)``.
        epsilon: privacy ``ε > 0``.
        rng: generator of the mechanism noise ``B, A_t, L``.
        t_max: data-independent cap on ``t``; at the cap the rule returns ``halted=False``.
        record: keep a :class:`StoppingTrace`.
    """
    rng = as_generator(rng)
    R = check_positive("range_R", range_R)
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    eps = check_epsilon(epsilon)
    t_max = check_int_at_least("t_max", t_max, 1)
    record = check_bool("record", record)
    stream = _as_stream(source)
    scales = dp_nas_noise_scales(R, eps)
    B = float(rng.laplace(0.0, scales.sigma1))
    total = 0.0
    A_list: list[float] = []
    times: list[int] = []
    sums: list[float] = []
    hs: list[float] = []
    cs: list[float] = []
    qs: list[float] = []
    for t in range(1, t_max + 1):
        A = float(rng.laplace(0.0, scales.sigma2))
        total += float(_checked_block(stream, 1, R)[0])
        h = dp_nas_h(t, R, b)
        c = dp_nas_c(t, R, eps, a, b)
        q = svt_query_value(total, t, h, c, a)
        if record:
            A_list.append(A)
            times.append(t)
            sums.append(total)
            hs.append(h)
            cs.append(c)
            qs.append(q)
        if q >= A + B:
            L = float(rng.laplace(0.0, scales.sigma3))
            trace = _trace(B, A_list, times, sums, hs, cs, qs, L)
            return StoppingResult(True, t, total / t + L / t, t, t, trace if record else None)
    trace = _trace(B, A_list, times, sums, hs, cs, qs, None)
    return StoppingResult(False, None, None, t_max, t_max, trace if record else None)


def dp_exp_nas(
    source: SampleSource,
    *,
    range_R: float,
    alpha: float,
    beta: float,
    epsilon: float,
    rng: np.random.Generator | SeedLike,
    k_max: int,
    record: bool = False,
) -> StoppingResult:
    """Algorithm 2, DP exponential NAS: an ε-DP ``(α, β)``-stopping rule (Cor. 3.2).

    ```
    1  σ₁ ← 12R/ε, σ₂ ← 12R/ε, σ₃ ← 4R/ε
    2  B ~ Lap(σ₁)                                   -- once
    4  repeat  k ← k + 1
    6      repeat t ← t + 1, sample X_t, update X̄_t  until t = 2^k
    10     A ~ Lap(σ₂)                               -- fresh at every check k
    11     c ← σ₁ log(4/β) + σ₂ log(8k²/β) + (σ₃/α) log(4/β)
    12     h ← R √((2/t) log(16k²/β))
    13 until |X̄_t| ≥ h(1 + 1/α) + (c + B + A)/t
    14 L ~ Lap(σ₃)                                   -- once, after halting
    15 return X̄_t + L/t
    ```

    The first check is at ``t = 2`` (``k = 1``); ``t = 1`` is never checked.  Random
    draws from ``rng``: ``B``, then one ``A`` per check, then ``L`` if halted.  ``k_max ≥ 1`` caps
    the number of checks (so at most ``2^k_max`` samples are read).
    """
    rng = as_generator(rng)
    R = check_positive("range_R", range_R)
    a = check_alpha(alpha)
    b = check_alpha(beta, "beta")
    eps = check_epsilon(epsilon)
    record = check_bool("record", record)
    k_max = check_int_at_least("k_max", k_max, 1)
    stream = _as_stream(source)
    scales = dp_nas_noise_scales(R, eps)
    B = float(rng.laplace(0.0, scales.sigma1))
    total = 0.0
    t = 0
    A_list: list[float] = []
    times: list[int] = []
    sums: list[float] = []
    hs: list[float] = []
    cs: list[float] = []
    qs: list[float] = []
    for k in range(1, k_max + 1):
        block = _checked_block(stream, 2**k - t, R)
        total += float(np.sum(block))
        t = 2**k
        A = float(rng.laplace(0.0, scales.sigma2))
        c = dp_exp_nas_c(k, R, eps, a, b)
        h = dp_exp_nas_h(t, k, R, b)
        q = svt_query_value(total, t, h, c, a)
        if record:
            A_list.append(A)
            times.append(t)
            sums.append(total)
            hs.append(h)
            cs.append(c)
            qs.append(q)
        if q >= A + B:
            L = float(rng.laplace(0.0, scales.sigma3))
            trace = _trace(B, A_list, times, sums, hs, cs, qs, L)
            return StoppingResult(True, t, total / t + L / t, t, k, trace if record else None)
    trace = _trace(B, A_list, times, sums, hs, cs, qs, None)
    return StoppingResult(False, None, None, t, k_max, trace if record else None)


# --------------------------------------------------------------------------------------------
# Two-arm test (Sec. 4)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwoArmTestResult:
    """Outcome of :func:`two_arm_test`.

    Attributes:
        better_arm: ``0`` or ``1`` (index of the arm declared better), ``None`` if the rule did not halt.
        pulls_per_arm: pulls of each arm (each difference sample pulls both arms once).
        stopping: the underlying stopping-rule result (on ``X_t = r_{0,t} − r_{1,t}``, ``R = 1``).
    """

    better_arm: int | None
    pulls_per_arm: int
    stopping: StoppingResult


def two_arm_test(
    pull: Callable[[int], float],
    *,
    epsilon: float,
    beta: float,
    rng: np.random.Generator | SeedLike,
    k_max: int,
    alpha: float = 0.5,
    rule: Literal["exponential", "every_step"] = "exponential",
) -> TwoArmTestResult:
    """Private test of which of two arms has the larger mean (Sec. 4).

    The paper: "in the special case where we have K = 2 arms, we can straight-forwardly use the
    private stopping-rule to assess the mean of the difference between the arms up to a constant α
    (say α = 0.5)".  Reading: feed ``X_t = r_{0,t} − r_{1,t} ∈ [−1, 1]`` (``R = 1``; rewards
    in ``[0, 1]``) to Algorithm 2 (``rule="exponential"``, default) or Algorithm 1
    (``rule="every_step"``); at halting declare arm 0 better iff ``μ̂ > 0``.  On the event of
    Cor. 3.2, ``|μ̂ − μ| ≤ α|μ| < |μ|`` so ``sign(μ̂) = sign(μ₀ − μ₁)``: correct w.p. ``≥ 1 − β``
    (conditioned on halting; with equal means it should not halt).  Privacy: one reward changes one
    ``X_t`` by at most ``1 ≤ 2R``, so the rule's ε-DP carries over.

    Args:
        pull: ``pull(arm)`` returns a reward in ``[0, 1]`` of arm ``0`` or ``1`` (checked).
        k_max: cap, as in :func:`dp_exp_nas` (for ``rule="every_step"`` the cap is ``t_max = 2^k_max``).
    """
    rng = as_generator(rng)
    check_callable("pull", pull)
    eps = check_epsilon(epsilon)
    b = check_alpha(beta, "beta")
    a = check_alpha(alpha)
    k_max = check_int_at_least("k_max", k_max, 1)
    check_choice("rule", rule, ("exponential", "every_step"))

    def reward(arm: int) -> float:
        r = check_finite("reward", pull(arm))
        if not 0.0 <= r <= 1.0:
            raise ValueError(f"rewards must lie in [0, 1], got {r!r} from arm {arm}")
        return r

    def difference() -> float:
        return reward(0) - reward(1)

    stream = SampleStream.from_callable(difference)
    if rule == "exponential":
        res = dp_exp_nas(stream, range_R=1.0, alpha=a, beta=b, epsilon=eps, rng=rng, k_max=k_max)
    else:
        res = dp_nas(stream, range_R=1.0, alpha=a, beta=b, epsilon=eps, rng=rng, t_max=2**k_max)
    if not res.halted or res.estimate is None:
        return TwoArmTestResult(None, stream.consumed, res)
    return TwoArmTestResult(0 if res.estimate > 0.0 else 1, stream.consumed, res)
