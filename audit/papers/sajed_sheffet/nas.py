"""Privacy and accuracy audits of the private stopping rules of Sajed & Sheffet, Sec. 3.

Algorithm 1 (DP-NAS) and Algorithm 2 (DP exponential NAS) are pure ε-DP (Thm 3.1, Cor. 3.2) with
output ``(τ, μ̂)`` or "not halted".  Pairs P-NAS-1 and P-NAS-4 (:func:`nas_sign_flip_pair`); closed-form
calculators :func:`halting_time_log_pmf` and :func:`nas_closed_form_epsilon`; black-box audits of the
halting time and of the release noise (:mod:`audit.papers.sajed_sheffet.nas_sampled`, with the
accuracy events); broken variants :data:`NAS_VARIANTS`.  Entry point and DP-SE:
:mod:`audit.papers.sajed_sheffet.battery`.

Proof note: ``proofs_notes/audit/sajed_sheffet.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import optimize

from audit.methods.closed_form import closed_form_result
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.sajed_sheffet.constants import (
    dp_exp_nas_c,
    dp_exp_nas_h,
    dp_nas_c,
    dp_nas_h,
)
from reference.sajed_sheffet.stopping import (
    svt_query_value,
)
from reference.validation import (
    check_alpha,
    check_array,
    check_bool,
    check_choice,
    check_epsilon,
    check_finite,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_nonnegative,
    check_positive,
    check_size,
)

__all__ = [
    "CLOSED_FORM_TOLERANCE",
    "NAS_VARIANTS",
    "ClosedFormNAS",
    "NASConfig",
    "NASVariant",
    "check_claims",
    "closed_form_audit_result",
    "halting_time_log_pmf",
    "max_abs_log_ratio",
    "nas_closed_form_audit",
    "nas_closed_form_epsilon",
    "nas_query_values",
    "nas_sign_flip_pair",
    "nas_worst_case_pair",
]

CLOSED_FORM_TOLERANCE = 1e-4
"""Slack of the closed-form audits: violation iff ``ε_closed_form > ε_claim + 1e-4`` (not 1e-6:
the numerical integration of :func:`halting_time_log_pmf` is accurate to ≈ 1e-5 in log ratios
(the tests compare 100 and 400 grid points per noise scale), so 1e-4 is the honest tolerance)."""

Rule = Literal["every_step", "exponential"]


# --------------------------------------------------------------------------------------------
# DP-NAS / DP exponential NAS: configurations and variants
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class NASConfig:
    """Parameters of one audited stopping rule (``α = 0.5``, ``β = 0.1``, ``R = 1``).

    ``cap`` is ``t_max`` (Algorithm 1, ``rule="every_step"``) or ``k_max`` (Algorithm 2).
    """

    rule: Rule = "exponential"
    epsilon: float = 1.0
    alpha: float = 0.5
    beta: float = 0.1
    range_R: float = 1.0
    cap: int = 12

    def __post_init__(self) -> None:
        check_choice("rule", self.rule, ("every_step", "exponential"))
        check_epsilon(self.epsilon)
        check_alpha(self.alpha)
        check_alpha(self.beta, "beta")
        check_positive("range_R", self.range_R)
        check_int_at_least("cap", self.cap, 1)

    @property
    def check_times(self) -> tuple[int, ...]:
        """``t_j``: ``1..t_max`` (Alg. 1) or ``2, 4, …, 2^k_max`` (Alg. 2; ``t = 1`` is never checked)."""
        if self.rule == "every_step":
            return tuple(range(1, self.cap + 1))
        return tuple(2**k for k in range(1, self.cap + 1))

    @property
    def stream_length(self) -> int:
        """Samples read when the rule does not halt before its cap."""
        return self.check_times[-1]


@dataclass(frozen=True)
class NASVariant:
    """An implementation of Algorithm 1/2, correct or deliberately broken.

    Noise scales are multiples of ``R/ε`` (paper: ``σ₁ = σ₂ = 12R/ε``, ``σ₃ = 4R/ε``, Algorithm 1, line 1);
    ``fresh_A=False`` reuses one ``A`` at every check; ``release_scale = 0`` forgets ``L``;
    ``drop_c=True`` drops ``c_t`` from the threshold (an accuracy bug).
    """

    name: str
    sigma1: float = 12.0
    sigma2: float = 12.0
    release_scale: float = 4.0
    fresh_A: bool = True
    drop_c: bool = False

    def __post_init__(self) -> None:
        check_positive("sigma1", self.sigma1)
        check_positive("sigma2", self.sigma2)
        check_nonnegative("release_scale", self.release_scale)  # 0: L forgotten (a bug variant)
        check_bool("fresh_A", self.fresh_A)
        check_bool("drop_c", self.drop_c)

    def scales(self, config: NASConfig) -> tuple[float, float, float]:
        """``(σ₁, σ₂, σ₃)`` in the units of the data."""
        check_instance("config", config, NASConfig)
        unit = config.range_R / config.epsilon
        return self.sigma1 * unit, self.sigma2 * unit, self.release_scale * unit


NAS_VARIANTS: dict[str, NASVariant] = {
    "correct": NASVariant("correct"),
    "A_drawn_once": NASVariant("A_drawn_once", fresh_A=False),
    "noise_12R_to_4R": NASVariant("noise_12R_to_4R", sigma1=4.0, sigma2=4.0),
    "L_forgotten": NASVariant("L_forgotten", release_scale=0.0),
    "c_dropped": NASVariant("c_dropped", drop_c=True),
}
"""The correct DP-NAS and its broken variants (privacy bugs, and ``c_dropped`` for accuracy)."""


def _check_config(config: object) -> NASConfig:
    return check_instance("config", config, NASConfig)


def _check_variant(variant: object) -> NASVariant:
    return check_instance("variant", variant, NASVariant)


def check_claims(claims: Sequence[PrivacyClaim]) -> list[PrivacyClaim]:
    """A non-empty sequence of :class:`~audit.protocols.PrivacyClaim` (an audit against no claim
    would return an empty verdict)."""
    if isinstance(claims, str | bytes) or not isinstance(claims, Sequence):
        raise ValueError(f"claims must be a sequence of PrivacyClaim, got {claims!r:.80}")
    if len(claims) == 0:
        raise ValueError("claims must hold at least one PrivacyClaim")
    return [check_instance(f"claims[{i}]", c, PrivacyClaim) for i, c in enumerate(claims)]


def _check_pair(pair: object) -> NeighbouringPair[FloatArray]:
    checked: NeighbouringPair[FloatArray] = check_instance("pair", pair, NeighbouringPair)
    return checked


def _stream(name: str, stream: FloatArray, config: NASConfig) -> FloatArray:
    """A fixed input stream: 1-D, finite, at least the cap's length, samples in ``[−R, R]``."""
    x = check_array(name, stream, ndim=1)
    if x.size < config.stream_length:
        raise ValueError(f"{name} must have at least {config.stream_length} samples, got {x.size}")
    if np.any(np.abs(x) > config.range_R):
        raise ValueError(f"{name}: samples must lie in [-R, R] with R = {config.range_R}")
    return x


def nas_worst_case_pair(config: NASConfig) -> NeighbouringPair[FloatArray]:
    """P-NAS-1: ``x = (R, …, R)`` and ``x'`` with ``X'_1 = −R``, of the cap's length.

    Every prefix sum from ``t = 2`` on moves by ``2R`` (the sensitivity of ``q_t``) in the same
    direction, and so does the release location ``X_{1:τ}``.
    """
    n = _check_config(config).stream_length
    x = np.full(n, config.range_R)
    x_prime = x.copy()
    x_prime[0] = -config.range_R
    return NeighbouringPair(x, x_prime, "replace_one", "P-NAS-1")


def nas_sign_flip_pair(
    config: NASConfig, check_index: int, margin: float = 1.0
) -> NeighbouringPair[FloatArray]:
    """P-NAS-4 (ours): query shifts of *both* signs, which exposes reused query noise.

    ``x = (−R, −R, v, v, …)`` and ``x'`` with ``X'_1 = +R``: ``|X_{1:t}|`` is ``2R`` larger under
    ``x`` at ``t = 2`` and ``2R`` smaller wherever ``X_{1:t} ≥ 0``.  ``v ∈ [0, R]`` is solved
    (:func:`scipy.optimize.brentq`) so that under ``x`` the query at ``check_index`` exceeds the
    largest query at ``t ≤ 2`` by ``margin`` while the checks in between stay below it.  With one ``A`` reused, ``τ = t_{j*}`` iff
    ``A + B ∈ (max_{i<j*} q_i, q_{j*}]``, an interval of length ``margin`` under ``x`` and
    ``margin + 4R`` under ``x'``: the loss is ``≈ ln((margin + 4R)/margin)`` whatever the noise scale
    (``ln 5 = 1.609`` at ``margin = R``).  Fresh noise keeps it near ``2R/σ₁``.
    """
    _check_config(config)
    j = check_int_at_least("check_index", check_index, 1)
    if j >= len(config.check_times):
        raise ValueError(f"check_index must be < {len(config.check_times)}, got {check_index}")
    m = check_positive("margin", margin)
    R = config.range_R

    def streams(v: float) -> tuple[FloatArray, FloatArray]:
        x = np.full(config.stream_length, v)
        x[:2] = -R
        x_prime = x.copy()
        x_prime[0] = R
        return x, x_prime

    early = sum(1 for t in config.check_times if t <= 2)  # checks before the stream turns

    def gap(v: float) -> float:
        _, q = nas_query_values(streams(v)[0], config)
        return float(q[j] - q[:early].max() - m)

    if j < early or gap(0.0) * gap(R) > 0.0:
        raise ValueError(f"no v in [0, R] puts check {check_index} at margin {margin}")
    v = float(optimize.brentq(gap, 0.0, R, xtol=1e-12))
    x, x_prime = streams(v)
    _, q = nas_query_values(x, config)
    if q[early:j].size and q[early:j].max() >= q[:early].max():
        raise ValueError(f"a check before {check_index} already exceeds the early queries")
    return NeighbouringPair(x, x_prime, "replace_one", f"P-NAS-4(j={j}, v={v:.6g})")


def nas_query_values(
    stream: FloatArray, config: NASConfig, *, drop_c: bool = False
) -> tuple[FloatArray, FloatArray]:
    """``(X_{1:t_j}, q_j)`` at every check of a fixed stream, from the reference's constants.

    ``q_j = |X_{1:t_j}| − t_j h (1 + 1/α) − c`` (:func:`reference.sajed_sheffet.stopping.svt_query_value`,
    proof of Thm 3.1) with ``h, c`` from :mod:`reference.sajed_sheffet.constants` (Alg. 1 lines
    8-9; Alg. 2 lines 11-12 with ``k = j``).  The rule halts at the first check with
    ``q_j ≥ A_j + B``.
    """
    return _query_values("stream", stream, config, drop_c=drop_c)


def _query_values(
    name: str, stream: FloatArray, config: NASConfig, *, drop_c: bool = False
) -> tuple[FloatArray, FloatArray]:
    _check_config(config)
    check_bool("drop_c", drop_c)
    x = _stream(name, stream, config)
    sums = np.cumsum(x)
    R, a, b, eps = config.range_R, config.alpha, config.beta, config.epsilon
    prefix = np.empty(len(config.check_times))
    q = np.empty(len(config.check_times))
    for j, t in enumerate(config.check_times):
        if config.rule == "every_step":
            h, c = dp_nas_h(t, R, b), dp_nas_c(t, R, eps, a, b)
        else:
            h, c = dp_exp_nas_h(t, j + 1, R, b), dp_exp_nas_c(j + 1, R, eps, a, b)
        prefix[j] = sums[t - 1]
        q[j] = svt_query_value(float(prefix[j]), t, h, 0.0 if drop_c else c, a)
    return prefix, q


# --------------------------------------------------------------------------------------------
# Exact halting-time law
# --------------------------------------------------------------------------------------------


def _laplace_log_cdf(x: FloatArray, scale: float) -> FloatArray:
    """``ln F(x)`` of ``Lap(scale)``: ``ln ½ + x/b`` for ``x < 0``, ``ln(1 − ½e^{−x/b})`` otherwise."""
    z = np.asarray(x, dtype=np.float64) / scale
    return np.where(
        z < 0.0, math.log(0.5) + np.minimum(z, 0.0), np.log1p(-0.5 * np.exp(-np.abs(z)))
    )


def _laplace_log_sf(x: FloatArray, scale: float) -> FloatArray:
    """``ln(1 − F(x))`` of ``Lap(scale)`` (symmetry: ``ln F(−x)``)."""
    return _laplace_log_cdf(-np.asarray(x, dtype=np.float64), scale)


def _log_cdf_difference(upper: FloatArray, lower: FloatArray, scale: float) -> FloatArray:
    """``ln(F(upper) − F(lower))`` for ``Lap(scale)`` (``−∞`` where ``upper ≤ lower``), stable in both
    tails: ``ln F(u) + ln(1 − e^{ln F(l) − ln F(u)})`` below the median, the survival form above."""
    u = np.asarray(upper, dtype=np.float64)
    lo = np.asarray(lower, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        fu, fl = _laplace_log_cdf(u, scale), _laplace_log_cdf(lo, scale)
        su, sl = _laplace_log_sf(u, scale), _laplace_log_sf(lo, scale)
        left = fu + np.log(-np.expm1(np.minimum(fl - fu, 0.0)))
        right = sl + np.log(-np.expm1(np.minimum(su - sl, 0.0)))
        out = np.where(u <= 0.0, left, right)
    return np.where(u > lo, out, -np.inf)


def _log_integral(log_values: FloatArray, step: float) -> float:
    """``ln ∫ e^{g(b)} db`` by the trapezoid rule on an equispaced grid, in log space
    (``ln Σ w_i e^{g_i}`` shifted by ``max g``, as :func:`scipy.special.logsumexp` does)."""
    g = np.asarray(log_values, dtype=np.float64)
    top = float(np.max(g))
    if top == -math.inf:
        return -math.inf
    shifted = np.exp(g - top)
    total = float(np.sum(shifted)) - 0.5 * float(shifted[0] + shifted[-1])
    return top + math.log(step * total)


def halting_time_log_pmf(
    query_values: FloatArray,
    sigma1: float,
    sigma2: float,
    *,
    fresh_A: bool = True,
    points_per_scale: int = 100,
    width: float = 60.0,
) -> FloatArray:
    """``ln P[τ = t_j]`` for every check ``j`` and, last, ``ln P[not halted at the cap]``.

    The sparse-vector halting rule of Algorithms 1-2 in sum form (proof of Thm 3.1): ``B ~ Lap(σ₁)`` once,
    halt at the first ``j`` with ``q_j ≥ A_j + B``.  Integration over ``b``: fresh
    ``A_j ~ Lap(σ₂)``: ``∫ f_B(b) Π_{i<j}(1 − F_A(q_i − b)) F_A(q_j − b) db``; reused ``A``
    (``fresh_A=False``): ``∫ f_B(b) (F_A(q_j − b) − F_A(max_{i<j} q_i − b))₊ db``.

    Numerics: trapezoid rule in log space on ``b ∈ [min q − width·σ₁, max q + width·σ₁]`` with
    ``points_per_scale`` points per ``min(σ₁, σ₂)``.  The integrands are ``exp`` of piecewise-linear
    functions, so the relative error of each probability is ``O((1/points_per_scale)²)``
    (≈ 1e-5 at the default) plus the ``e^{−width}`` tail.  The probabilities sum to one
    (``logsumexp`` of the result ≈ 0; checked by the tests).
    """
    q = check_nonempty("query_values", check_array("query_values", query_values, ndim=1))
    fresh_A = check_bool("fresh_A", fresh_A)
    s1 = check_positive("sigma1", sigma1)
    s2 = check_positive("sigma2", sigma2)
    n_per = check_size("points_per_scale", points_per_scale, 4, item_bytes=8, what="a point")
    w = check_positive("width", width)
    step = min(s1, s2) / n_per
    lo, hi = float(q.min()) - w * s1, float(q.max()) + w * s1
    grid = np.linspace(lo, hi, math.ceil((hi - lo) / step) + 1)
    step = float(grid[1] - grid[0])
    log_fb = -np.abs(grid) / s1 - math.log(2.0 * s1)
    out = np.empty(q.size + 1)
    if fresh_A:
        survive = log_fb.copy()  # ln f_B(b) + Σ_{i<j} ln(1 − F_A(q_i − b))
        for j, qj in enumerate(q):
            z = (qj - grid) / s2
            near = np.log1p(-0.5 * np.exp(-np.abs(z)))  # ln of the larger of F, 1 − F
            far = math.log(0.5) - np.abs(z)  # ln of the smaller
            below = z < 0.0
            out[j] = _log_integral(survive + np.where(below, far, near), step)  # ln F_A(z σ₂)
            survive += np.where(below, near, far)  # ln(1 − F_A(z σ₂))
        out[-1] = _log_integral(survive, step)
    else:
        running_max = -math.inf
        for j, qj in enumerate(q):
            if running_max == -math.inf:
                term = _laplace_log_cdf(qj - grid, s2)
            else:
                term = _log_cdf_difference(qj - grid, running_max - grid, s2)
            out[j] = _log_integral(log_fb + term, step)
            running_max = max(running_max, float(qj))
        out[-1] = _log_integral(log_fb + _laplace_log_sf(running_max - grid, s2), step)
    return out


@dataclass(frozen=True)
class ClosedFormNAS:
    """Closed-form output law of a stopping rule on a neighbouring pair.

    Attributes:
        log_pmf, log_pmf_prime: ``ln P[τ = t_j]`` (and "not halted", last) under ``x`` and ``x'``.
        halting_epsilon: ``max |ln(p/p')|`` over outcomes of the halting time alone.
        epsilon: pure ε (closed form) of the whole output ``(τ, μ̂)`` (module docstring).
        prefix_shift: ``|X_{1:t_j} − X'_{1:t_j}|`` at each check.
    """

    log_pmf: FloatArray
    log_pmf_prime: FloatArray
    halting_epsilon: float
    epsilon: float
    prefix_shift: FloatArray

    def __post_init__(self) -> None:
        lp = _log_probabilities("log_pmf", self.log_pmf)
        lq = _log_probabilities("log_pmf_prime", self.log_pmf_prime)
        if lq.shape != lp.shape:
            raise ValueError(
                f"log_pmf_prime must have the shape of log_pmf {lp.shape}, got {lq.shape}"
            )
        _epsilon_value("halting_epsilon", self.halting_epsilon)
        _epsilon_value("epsilon", self.epsilon)
        shift = check_array("prefix_shift", self.prefix_shift, shape=(lp.size - 1,))
        if np.any(shift < 0.0):
            raise ValueError("prefix_shift must hold distances (>= 0)")


def _log_probabilities(name: str, value: FloatArray, sign: float = 1.0) -> FloatArray:
    """A non-empty 1-D array of log-probabilities: ``-inf`` (impossible) allowed, NaN and
    ``+inf`` refused (``sign=-1``: the mirror, a non-negative array where ``+inf`` is allowed)."""
    if isinstance(value, bool | np.bool_ | str | bytes) or value is None:
        raise ValueError(f"{name} must be an array of log-probabilities, got {value!r:.80}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"{name} must be an array of log-probabilities, got {value!r:.80}"
        ) from err
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-dimensional array, got shape {arr.shape}")
    if np.any(np.isnan(arr)) or np.any(sign * arr == np.inf):
        if sign < 0:
            raise ValueError(f"{name} must not contain NaN or -inf (+inf allowed)")
        raise ValueError(f"{name} must not contain NaN or +inf (-inf: an impossible outcome)")
    return arr


def _epsilon_value(name: str, value: float) -> float:
    """An exact privacy loss: ``[0, inf]`` (``inf`` where exactly one side is impossible)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a real number in [0, inf], got {value!r:.80}")
    if math.isnan(value) or value < 0.0:
        raise ValueError(f"{name} must be in [0, inf], got {value!r}")
    return float(value)


def max_abs_log_ratio(lp: FloatArray, lq: FloatArray, extra: FloatArray) -> float:
    """``max`` over outcomes of ``|lp − lq| + extra`` (``∞`` where exactly one side is impossible).

    ``lp``, ``lq``: log-probabilities (``-inf`` allowed); ``extra``: non-negative, ``+inf`` allowed;
    all 1-D of one length."""
    lp = _log_probabilities("lp", lp)
    lq = _log_probabilities("lq", lq)
    extra = _log_probabilities("extra", extra, sign=-1.0)
    if not lp.shape == lq.shape == extra.shape:
        raise ValueError(
            f"lp, lq and extra must have one shape, got {lp.shape}, {lq.shape} and {extra.shape}"
        )
    if np.any(extra < 0.0):
        raise ValueError("extra must be >= 0 (+inf allowed)")
    worst = 0.0
    for a, b, e in zip(lp, lq, extra, strict=True):
        if a == -math.inf and b == -math.inf:
            continue
        if a == -math.inf or b == -math.inf:
            return math.inf
        worst = max(worst, abs(float(a) - float(b)) + float(e))
    return worst


def nas_closed_form_epsilon(
    x: FloatArray,
    x_prime: FloatArray,
    config: NASConfig,
    variant: NASVariant = NAS_VARIANTS["correct"],
    *,
    points_per_scale: int = 100,
) -> ClosedFormNAS:
    """Pure ε, in closed form, of ``(τ, μ̂)`` of ``variant`` on the streams ``x, x'`` (module docstring).

    The release ``μ̂ = X̄_τ + L/τ`` given ``τ = t`` is Laplace with location ``X_{1:t}/t`` and scale
    ``σ₃/t`` (Alg. 1 lines 11-12), so its log-density ratio ranges over
    ``[−Δ_t/σ₃, Δ_t/σ₃]`` with ``Δ_t = |X_{1:t} − X'_{1:t}|`` (sup attained on a half-line); the
    joint supremum adds it to ``|ln(p_t/p'_t)|``.  Without ``L`` the release is deterministic and the
    loss is ``∞`` wherever ``Δ_t > 0``.
    """
    _check_config(config)
    s1, s2, s3 = _check_variant(variant).scales(config)
    sums, q = _query_values("x", x, config, drop_c=variant.drop_c)
    sums_p, q_p = _query_values("x_prime", x_prime, config, drop_c=variant.drop_c)
    lp = halting_time_log_pmf(q, s1, s2, fresh_A=variant.fresh_A, points_per_scale=points_per_scale)
    lq = halting_time_log_pmf(
        q_p, s1, s2, fresh_A=variant.fresh_A, points_per_scale=points_per_scale
    )
    shift = np.abs(sums - sums_p)
    release = shift / s3 if s3 > 0.0 else np.where(shift > 0.0, math.inf, 0.0)
    extra = np.append(release, 0.0)
    zeros = np.zeros_like(extra)
    return ClosedFormNAS(
        log_pmf=lp,
        log_pmf_prime=lq,
        halting_epsilon=max_abs_log_ratio(lp, lq, zeros),
        epsilon=max_abs_log_ratio(lp, lq, extra),
        prefix_shift=shift,
    )


def closed_form_audit_result(
    closed_form_epsilon: float,
    claim: PrivacyClaim,
    *,
    name: str,
    mechanism: str,
    started: float,
) -> PrivacyAuditResult:
    """A ``closed_form`` result: violation iff
    ``closed_form_epsilon > claim.epsilon + CLOSED_FORM_TOLERANCE``.

    Pure ε-DP (``δ = 0``) on a pair is ``max_o |ln p(o)/p'(o)| ≤ ε`` (singletons suffice for
    discrete outputs).  No sampling, so the p-value is 0 or 1.
    """
    closed_form_epsilon = _epsilon_value("closed_form_epsilon", closed_form_epsilon)
    check_instance("claim", claim, PrivacyClaim)
    started = check_finite("started", started)
    if claim.delta != 0.0:
        raise ValueError(
            f"closed-form audits here are for pure ε-DP (delta = 0), got {claim.delta}"
        )
    violation = closed_form_epsilon > claim.epsilon + CLOSED_FORM_TOLERANCE
    return closed_form_result(
        claim,
        name=name,
        mechanism=mechanism,
        violation=violation,
        exact_epsilon=closed_form_epsilon,  # audit.methods.closed_form's name for it
        started=started,
        details={"closed_form_epsilon": closed_form_epsilon, "tolerance": CLOSED_FORM_TOLERANCE},
    )


def nas_closed_form_audit(
    config: NASConfig,
    variant: NASVariant,
    claims: Sequence[PrivacyClaim],
    pair: NeighbouringPair[FloatArray],
    *,
    part: Literal["output", "halting"] = "output",
    closed_form: ClosedFormNAS | None = None,
) -> list[PrivacyAuditResult]:
    """Closed-form audits of ``variant`` on ``pair`` against each claim: ``part="output"`` (``(τ, μ̂)``)
    or ``"halting"`` (the halting time alone, the ε/2 sparse-vector part of the proof of Thm 3.1).  ``closed_form``
    may pass a precomputed :func:`nas_closed_form_epsilon` of this variant and pair."""
    t0 = time.perf_counter()
    _check_config(config)
    _check_variant(variant)
    claims = check_claims(claims)
    pair = _check_pair(pair)
    check_choice("part", part, ("output", "halting"))
    if closed_form is not None:
        check_instance("closed_form", closed_form, ClosedFormNAS)
    if closed_form is None:
        closed_form = nas_closed_form_epsilon(pair.x, pair.x_prime, config, variant)
    value = closed_form.epsilon if part == "output" else closed_form.halting_epsilon
    return [
        closed_form_audit_result(
            value,
            claim,
            name=f"{_rule_name(config)}/{variant.name}/{pair.description}/closed_form_{part} "
            f"vs {claim.label}",
            mechanism=f"{_rule_name(config)} {variant.name}, {pair.description}, {config}",
            started=t0,
        )
        for claim in claims
    ]


def _rule_name(config: NASConfig) -> str:
    return "dp_nas" if config.rule == "every_step" else "dp_exp_nas"
