"""The classic DP-auditing benchmark: StatDP's and DP-Sniper's mechanisms on StatDP's input patterns.

One :class:`BenchmarkCase` per (mechanism, neighbouring pair), in the registry :data:`CASES` keyed
``"<mechanism>/<pattern>"``. Each records the claimed ε (0.1, DP-Sniper's setting), whether the
mechanism is correct, the exact ε of its pair where it is computable (else ``None`` and why), and
the lower bounds DP-Sniper and StatDP reported for the mechanism (DP-Sniper's evaluation, 2·10⁸
samples, confidence 0.9).
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from audit.benchmarks.exact import (
    bloom_report_laws,
    discrete_epsilon,
    laplace_loss_binned_laws,
    noisy_max_index_law,
    noisy_max_value_binned_laws,
    noisy_max_value_epsilon,
    oracle_event_bound,
    svt_answers_law,
    svt_bits_law,
    svt_first_above_law,
    svt_no_query_noise_law,
    svt_released_value_binned_laws,
    svt_released_value_epsilon,
    svt_released_value_ratio_range,
    truncated_geometric_law,
)
from audit.benchmarks.mechanisms import (
    BOTTOM,
    TOP,
    LaplaceMechanism,
    LaplaceParallel,
    NoisyHistogram,
    NumericalSparseVector,
    PrefixSum,
    Rappor,
    ReportNoisyMax,
    SparseVector,
    SVT34Parallel,
    TruncatedGeometric,
    lyu_svt,
)
from audit.protocols import Mechanism, NeighbouringPair, PrivacyClaim
from reference._typing import FloatArray

__all__ = [
    "CASES",
    "CLAIMED_EPSILON",
    "MECHANISMS",
    "PATTERNS",
    "BenchmarkCase",
    "BenchmarkMechanism",
    "Published",
    "exact_epsilon",
    "numeric_svt_features",
    "oracle_epsilon",
    "statdp_pairs",
    "svt34_features",
]

CLAIMED_EPSILON = 0.1
"""The ε every benchmark mechanism claims (DP-Sniper's and StatDP's setting)."""

Features = Callable[[FloatArray], FloatArray]
ExactRule = Callable[[FloatArray, FloatArray], float]
LawRule = Callable[[FloatArray, FloatArray], tuple[FloatArray, FloatArray]]


def _first_half(d: int, a: float, b: float) -> FloatArray:
    return np.array([a] * (d // 2) + [b] * (d - d // 2))


PATTERNS: dict[str, Callable[[int], tuple[FloatArray, FloatArray]]] = {
    "one_above": lambda d: (np.ones(d), np.array([2.0] + [1.0] * (d - 1))),
    "one_below": lambda d: (np.ones(d), np.array([0.0] + [1.0] * (d - 1))),
    "one_above_rest_below": lambda d: (np.ones(d), np.array([2.0] + [0.0] * (d - 1))),
    "one_below_rest_above": lambda d: (np.ones(d), np.array([0.0] + [2.0] * (d - 1))),
    "half_half": lambda d: (np.ones(d), _first_half(d, 2.0, 0.0)),
    "all_above": lambda d: (np.ones(d), np.full(d, 2.0)),
    "all_below": lambda d: (np.ones(d), np.zeros(d)),
    "x_shape": lambda d: (_first_half(d, 1.0, 0.0), _first_half(d, 0.0, 1.0)),
}
"""StatDP's input patterns (Ding et al. CCS 2018, the database categories of its input generator,
Table 1): ``(x, x')`` of ``d`` queries, each query moving by at most 1. The first two change one
query only. The names say where ``x'`` lies against ``x`` (StatDP's own naming; DP-Sniper's
pattern generator swaps the comments of the first two).
"""

SINGLE_ENTRY = ("one_above", "one_below")


def statdp_pairs(d: int, patterns: tuple[str, ...]) -> dict[str, NeighbouringPair[FloatArray]]:
    """The named StatDP patterns of ``d`` queries as replace-one neighbouring pairs."""
    pairs = {}
    for name in patterns:
        x, x_prime = PATTERNS[name](d)
        pairs[name] = NeighbouringPair(x, x_prime, "replace_one", f"StatDP pattern {name}")
    return pairs


@dataclass(frozen=True)
class Published:
    """Lower bounds on ε reported for a mechanism (the maximum over the pairs each tool searched).

    ``dp_sniper``: DD-Search with logistic regression; ``statdp``: StatDP as run in the same
    evaluation (DP-Sniper Sec. VI; released reference results of its authors). ``None`` where the
    tool reports nothing for the mechanism.
    """

    dp_sniper: float | None
    statdp: float | None
    note: str = ""


@dataclass(frozen=True)
class BenchmarkMechanism:
    """One benchmark mechanism: the sampler, its claim, whether it keeps it, where it comes from."""

    name: str
    mechanism: Mechanism[FloatArray]
    correct: bool
    true_privacy: str
    citation: str
    dimension: int
    patterns: tuple[str, ...]
    published: Published
    exact: ExactRule | None
    exact_note: str
    features: Features | None = None
    law: LawRule | None = None
    """``(ln P, ln P')`` on common outcomes: the exact discrete law of the output, or the exact
    law of a sufficient one-dimensional statistic on fine bins; ``None`` where not computed."""

    @property
    def claim(self) -> PrivacyClaim:
        """Pure ``CLAIMED_EPSILON``-DP under replace-one (each query moves by at most 1)."""
        return PrivacyClaim(CLAIMED_EPSILON, 0.0, "replace_one", f"{self.name} claims ε = 0.1")


@dataclass(frozen=True)
class BenchmarkCase:
    """One (mechanism, neighbouring pair) of the benchmark."""

    name: str
    pattern: str
    bench: BenchmarkMechanism
    pair: NeighbouringPair[FloatArray] = field(repr=False)

    @property
    def claim(self) -> PrivacyClaim:
        """The mechanism's claim."""
        return self.bench.claim

    @property
    def correct(self) -> bool:
        """Whether the mechanism keeps its claim (on every pair)."""
        return self.bench.correct


@functools.cache
def exact_epsilon(name: str) -> float | None:
    """The exact ε of case ``name``'s pair (``None`` when its mechanism has no exact rule: the
    reason is the mechanism's ``exact_note``). Cached: some laws take a second to integrate."""
    case = CASES[name]
    rule = case.bench.exact
    return None if rule is None else rule(case.pair.x, case.pair.x_prime)


@functools.cache
def oracle_epsilon(
    name: str, n: int, confidence: float = 0.95, selection_fraction: float = 0.5
) -> float | None:
    """The ``ε_LB`` an event audit that knew case ``name``'s law would typically report with ``n``
    samples per side (:func:`audit.benchmarks.exact.oracle_event_bound` on the evaluation split
    the black box keeps, ``n − ⌊n · selection_fraction⌋``); ``None`` where the case has no law."""
    case = CASES[name]
    rule = case.bench.law
    if rule is None:
        return None
    log_p, log_q = rule(case.pair.x, case.pair.x_prime)
    n_eval = n - int(n * selection_fraction)
    return oracle_event_bound(log_p, log_q, n_eval, 1.0 - confidence)


# ------------------------------------------------------------------------------------------------
# exact rules and laws
# ------------------------------------------------------------------------------------------------


def _l1_over(scale: float) -> ExactRule:
    return lambda x, xp: float(np.sum(np.abs(np.asarray(x) - np.asarray(xp)))) / scale


def _from_law(law: LawRule) -> ExactRule:
    return lambda x, xp: discrete_epsilon(*law(x, xp))


def _changed_entry_law(scale: float) -> LawRule:
    """Laplace noise of ``scale`` on every entry: the one changed entry is sufficient (the others
    have the same law under both inputs), so its binned Laplace law is the pair's law."""

    def law(x: FloatArray, xp: FloatArray) -> tuple[FloatArray, FloatArray]:
        changed = np.flatnonzero(np.asarray(x) != np.asarray(xp))
        if changed.size != 1:
            raise ValueError(f"the pair must change exactly one entry, got {changed.size}")
        i = int(changed[0])
        return noisy_max_value_binned_laws(x[i : i + 1], xp[i : i + 1], scale, "laplace")

    return law


def _noisy_max_index_law(m: ReportNoisyMax) -> LawRule:
    return lambda x, xp: (
        noisy_max_index_law(x, m.scale, m.noise),
        noisy_max_index_law(xp, m.scale, m.noise),
    )


def _noisy_max_value_law(m: ReportNoisyMax) -> LawRule:
    return lambda x, xp: noisy_max_value_binned_laws(x, xp, m.scale, m.noise)


def _noisy_max_value(m: ReportNoisyMax) -> ExactRule:
    return lambda x, xp: noisy_max_value_epsilon(x, xp, m.scale, m.noise)


def _first_above_law(m: SparseVector) -> LawRule:
    return lambda x, xp: (
        svt_first_above_law(x, m.threshold, m.rho_scale, m.nu_scale),
        svt_first_above_law(xp, m.threshold, m.rho_scale, m.nu_scale),
    )


def _bits_law(m: SparseVector) -> LawRule:
    def law(x: FloatArray, xp: FloatArray) -> tuple[FloatArray, FloatArray]:
        _, p = svt_bits_law(x, m.threshold, m.rho_scale, m.nu_scale)
        _, q = svt_bits_law(xp, m.threshold, m.rho_scale, m.nu_scale)
        return p, q

    return law


def _no_query_noise_law(m: SparseVector) -> LawRule:
    def law(x: FloatArray, xp: FloatArray) -> tuple[FloatArray, FloatArray]:
        p = svt_no_query_noise_law(x, m.threshold, m.rho_scale)
        q = svt_no_query_noise_law(xp, m.threshold, m.rho_scale)
        keys = sorted(set(p) | set(q))
        return (
            np.array([p.get(k, -math.inf) for k in keys]),
            np.array([q.get(k, -math.inf) for k in keys]),
        )

    return law


def _released_value_law(m: SparseVector) -> LawRule:
    return lambda x, xp: svt_released_value_binned_laws(x, xp, m.threshold, m.rho_scale, m.nu_scale)


def _released_value(m: SparseVector) -> ExactRule:
    return lambda x, xp: svt_released_value_epsilon(x, xp, m.threshold, m.rho_scale, m.nu_scale)


def _entry(x: FloatArray) -> int:
    """The one integer entry of a single-value input (a count, a RAPPOR value)."""
    return int(np.asarray(x)[0])


def _truncated_geometric_law(m: TruncatedGeometric) -> LawRule:
    return lambda x, xp: (
        truncated_geometric_law(_entry(x), m.n, m.k),
        truncated_geometric_law(_entry(xp), m.n, m.k),
    )


def _rappor_law(m: Rappor) -> LawRule:
    return lambda x, xp: bloom_report_laws(
        m.bloom_bits(_entry(x)), m.bloom_bits(_entry(xp)), *m.one_probabilities
    )


def _laplace_loss_law(scale: float, copies: int = 1) -> LawRule:
    """Independent Laplace noise of ``scale`` on every entry (each input entry in ``copies``
    copies): the exact law of the binned privacy loss (``laplace_loss_binned_laws``)."""
    return lambda x, xp: laplace_loss_binned_laws(
        np.repeat(x, copies), np.repeat(xp, copies), scale
    )


def _repeated_l1_over(scale: float, copies: int) -> ExactRule:
    return lambda x, xp: _l1_over(scale)(np.repeat(x, copies), np.repeat(xp, copies))


def _svt34(m: SVT34Parallel) -> ExactRule:
    """The two parts are independent, so the pair's log-ratio is the sum of theirs: the larger of
    ``sup₃ + sup₄`` and ``−(inf₃ + inf₄)`` (Alg. 3's range from its released-value density, Alg. 4's
    from its answer law)."""
    alg3, alg4 = m.parts

    def rule(x: FloatArray, xp: FloatArray) -> float:
        lo3, hi3 = svt_released_value_ratio_range(
            x, xp, alg3.threshold, alg3.rho_scale, alg3.nu_scale, alg3.c
        )
        _, p4 = svt_answers_law(x, alg4.threshold, alg4.rho_scale, alg4.nu_scale, alg4.c)
        _, q4 = svt_answers_law(xp, alg4.threshold, alg4.rho_scale, alg4.nu_scale, alg4.c)
        gap = p4 - q4
        return max(hi3 + float(gap.max()), -(lo3 + float(gap.min())))

    return rule


def numeric_svt_features(outputs: FloatArray) -> FloatArray:
    """Features of a numeric sparse-vector output ``(size, 2, n)``: the ⊤ and ⊥ indicators and the
    released values, ``(size, 3n)`` (the flag encoding DP-Sniper feeds its classifier)."""
    out = np.asarray(outputs, dtype=np.float64)
    codes, values = out[:, 0, :], out[:, 1, :]
    return np.hstack([(codes == TOP) * 1.0, (codes == BOTTOM) * 1.0, values])


def svt34_features(outputs: FloatArray) -> FloatArray:
    """Features of an :class:`SVT34Parallel` output ``(size, 3, n)``: Algorithm 3's
    (:func:`numeric_svt_features`) and Algorithm 4's ⊤ and ⊥ indicators, ``(size, 5n)``."""
    out = np.asarray(outputs, dtype=np.float64)
    codes = out[:, 2, :]
    return np.hstack(
        [numeric_svt_features(out[:, :2, :]), (codes == TOP) * 1.0, (codes == BOTTOM) * 1.0]
    )


# ------------------------------------------------------------------------------------------------
# the mechanisms
# ------------------------------------------------------------------------------------------------

_NO_EXACT_NUMERIC = (
    "answers with released values drawn with fresh noise and c = 2: the exact ε needs the joint "
    "law of two released values (a two-dimensional supremum), not computed here"
)
_QUAD = "composite Gauss–Legendre quadrature of the answer law"
_SVT34 = (
    "sum of the parts' log-ratios: Alg. 4's answer law (quadrature over its 56 answer vectors) and "
    "Alg. 3's released-value density, whose two-value supremum reduces to one dimension (the "
    "shared threshold enters through the smaller value only)"
)
_ALL = tuple(PATTERNS)


def _mechanisms() -> dict[str, BenchmarkMechanism]:
    eps = CLAIMED_EPSILON
    rnm = {
        1: ReportNoisyMax(eps, "laplace", "index"),
        2: ReportNoisyMax(eps, "exponential", "index"),
        3: ReportNoisyMax(eps, "laplace", "value"),
        4: ReportNoisyMax(eps, "exponential", "value"),
    }
    svt = {k: lyu_svt(k, eps, c=1, threshold=0.5 if k == 1 else 1.0) for k in (1, 2, 3, 4, 5, 6)}
    hist1, hist2 = NoisyHistogram(eps), NoisyHistogram(eps, "epsilon")
    geo, rappor, one_time = (
        TruncatedGeometric(eps, 5),
        Rappor(),
        Rappor(f=0.95, instantaneous=False),
    )
    parallel, prefix, svt34 = LaplaceParallel(20, eps / 20), PrefixSum(eps), SVT34Parallel(eps)
    entries = [
        BenchmarkMechanism(
            "LaplaceMechanism", LaplaceMechanism(eps), True, "ε-DP",
            "Dwork, McSherry, Nissim, Smith (TCC 2006); DP-Sniper's LaplaceMechanism",
            1, SINGLE_ENTRY, Published(0.0968, 0.0998),
            _l1_over(1.0 / eps), "closed form |x − x'|·ε",
            law=_changed_entry_law(1.0 / eps),
        ),
        BenchmarkMechanism(
            "NoisyHist1", hist1, True, "ε-DP",
            "StatDP (Ding et al. CCS 2018) Alg. 9, histogram with Lap(1/ε)",
            5, SINGLE_ENTRY, Published(0.0978, 0.0828),
            _l1_over(hist1.scale), "closed form ‖x − x'‖₁/scale",
            law=_changed_entry_law(hist1.scale),
        ),
        BenchmarkMechanism(
            "NoisyHist2", hist2, False, "‖x − x'‖₁/ε-DP: 100ε = 10 on one changed bin",
            "StatDP (Ding et al. CCS 2018) Alg. 10, histogram with Lap(ε) (incorrect)",
            5, SINGLE_ENTRY, Published(4.6020, 9.7169),
            _l1_over(hist2.scale), "closed form ‖x − x'‖₁/scale",
            law=_changed_entry_law(hist2.scale),
        ),
        BenchmarkMechanism(
            "ReportNoisyMax1", rnm[1], True, "ε-DP",
            "StatDP (Ding et al. CCS 2018) Alg. 5, noisy max index, Lap(2/ε)",
            5, _ALL, Published(0.0923, 0.0920),
            _from_law(_noisy_max_index_law(rnm[1])), _QUAD, law=_noisy_max_index_law(rnm[1]),
        ),
        BenchmarkMechanism(
            "ReportNoisyMax2", rnm[2], True, "ε-DP",
            "StatDP (Ding et al. CCS 2018) Alg. 6, noisy max index, Exp(2/ε)",
            5, _ALL, Published(0.0975, 0.0996),
            _from_law(_noisy_max_index_law(rnm[2])), _QUAD, law=_noisy_max_index_law(rnm[2]),
        ),
        BenchmarkMechanism(
            "ReportNoisyMax3", rnm[3], False, "not ε-DP: releases the noisy maximum (up to d·ε/2)",
            "StatDP (Ding et al. CCS 2018) Alg. 7, noisy max value, Lap(2/ε) (incorrect)",
            5, _ALL, Published(0.2478, 0.1991), _noisy_max_value(rnm[3]),
            "supremum of the log density ratio of the maximum, on a log-space grid",
            law=_noisy_max_value_law(rnm[3]),
        ),
        BenchmarkMechanism(
            "ReportNoisyMax4", rnm[4], False, "∞-DP: the law of the maximum starts at max x",
            "StatDP (Ding et al. CCS 2018) Alg. 8, noisy max value, Exp(2/ε) (incorrect)",
            5, _ALL, Published(0.3463, 0.1960), _noisy_max_value(rnm[4]),
            "support rule at max x (inf), else supremum on a grid",
            law=_noisy_max_value_law(rnm[4]),
        ),
        BenchmarkMechanism(
            "SVT1", svt[1], True, "ε-DP",
            "Lyu, Su, Li (VLDB 2017) Alg. 1 (StatDP's SVT), c = 1, T = 0.5",
            10, _ALL, Published(0.0858, 0.0298),
            _from_law(_first_above_law(svt[1])), _QUAD, law=_first_above_law(svt[1]),
        ),
        BenchmarkMechanism(
            "SVT2", svt[2], True, "ε-DP",
            "Lyu, Su, Li (VLDB 2017) Alg. 2 (Dwork–Roth), c = 1, T = 1",
            10, _ALL, Published(0.0859, 0.0316), _from_law(_first_above_law(svt[2])),
            _QUAD + " (with c = 1 the fresh threshold noise after a ⊤ is never used)",
            law=_first_above_law(svt[2]),
        ),
        BenchmarkMechanism(
            "SVT3", svt[3], False, "∞-DP over unboundedly many queries (Lyu et al.)",
            "Lyu, Su, Li (VLDB 2017) Alg. 3 (StatDP's iSVT 4), c = 1, T = 1 (incorrect)",
            10, _ALL, Published(0.1716, 0.0231), _released_value(svt[3]),
            "quadrature of the (answer, released value) density on a grid of values; with c = 1 "
            "and n = 10 queries it is finite (up to 0.5): Lyu's ∞ is over unboundedly many "
            "queries",
            numeric_svt_features,
            law=_released_value_law(svt[3]),
        ),
        BenchmarkMechanism(
            "SVT4", svt[4], False, "((1 + 6c)/4)ε-DP = 0.175 at c = 1 (Lyu et al.)",
            "Lyu, Su, Li (VLDB 2017) Alg. 4 (StatDP's iSVT 3), c = 1, T = 1 (incorrect)",
            10, _ALL, Published(0.1687, 0.1709),
            _from_law(_first_above_law(svt[4])), _QUAD, law=_first_above_law(svt[4]),
        ),
        BenchmarkMechanism(
            "SVT5", svt[5], False, "∞-DP (no query noise)",
            "Lyu, Su, Li (VLDB 2017) Alg. 5 (StatDP's iSVT 1), T = 1 (incorrect)",
            10, _ALL,
            Published(1.7612, 14.3143, "StatDP's run used ε = 0.05 for this mechanism"),
            _from_law(_no_query_noise_law(svt[5])),
            "exact: answer vectors are intervals of ρ (Laplace CDF)",
            law=_no_query_noise_law(svt[5]),
        ),
        BenchmarkMechanism(
            "SVT6", svt[6], False, "∞-DP over unboundedly many queries (no cutoff)",
            "Lyu, Su, Li (VLDB 2017) Alg. 6 (StatDP's iSVT 2), T = 1 (incorrect)",
            10, _ALL, Published(0.2720, 0.3220), _from_law(_bits_law(svt[6])),
            _QUAD + " over all 2¹⁰ answer vectors", law=_bits_law(svt[6]),
        ),
        BenchmarkMechanism(
            "NumericalSVT", NumericalSparseVector(eps, 2, 1.0), True, "ε-DP",
            "Wang, Ding, Wang, Kifer, Zhang (PLDI 2019) Numerical SVT, c = 2, T = 1",
            10, _ALL, Published(0.0343, None, "not in StatDP's runs"), None, _NO_EXACT_NUMERIC,
            numeric_svt_features,
        ),
        BenchmarkMechanism(
            "TruncatedGeometric", geo, False,
            "ln(1 + 2⁻ᵏ)-DP, k = ⌈ln(2/ε)⌉ = 3: ln(9/8) ≈ 0.1178 (Balcer & Vadhan Thm 4.7)",
            "Balcer, Vadhan (ITCS 2018) Alg. 4.8 GeoSample, n = 5, k as DP-Sniper codes it",
            1, SINGLE_ENTRY, Published(0.1156, 0.1159),
            _from_law(_truncated_geometric_law(geo)),
            "exact: two-sided geometric law, tails folded onto 0 and n (closed form)",
            law=_truncated_geometric_law(geo),
        ),
        BenchmarkMechanism(
            "Rappor", rappor, False,
            "one report: h·ln(q*(1 − p*)/(p*(1 − q*))) ≈ 0.400 at h = 4 (Erlingsson et al. "
            "Sec. 4, ε₁); here the filters of 1 and 0 differ in 6 bits, of 1 and 2 in 5",
            "Erlingsson, Pihur, Korolova (CCS 2014) RAPPOR steps 1–3, h = 4, k = 20, f = 0.75, "
            "p = 0.45, q = 0.55",
            1, SINGLE_ENTRY, Published(0.2930, 0.2416),
            _from_law(_rappor_law(rappor)),
            "exact: enumeration of the bits where the two Bloom filters differ",
            law=_rappor_law(rappor),
        ),
        BenchmarkMechanism(
            "OneTimeRappor", one_time, False,
            "2h·ln((1 − f/2)/(f/2)) ≈ 0.801 at h = 4 (Erlingsson et al. Sec. 4, ε∞); here the "
            "filters of 1 and 0 differ in 6 bits, of 1 and 2 in 5",
            "Erlingsson, Pihur, Korolova (CCS 2014) RAPPOR steps 1–2 (permanent response), h = 4, "
            "k = 20, f = 0.95",
            1, SINGLE_ENTRY, Published(0.5978, 0.4706),
            _from_law(_rappor_law(one_time)),
            "exact: enumeration of the bits where the two Bloom filters differ",
            law=_rappor_law(one_time),
        ),
        BenchmarkMechanism(
            "LaplaceParallel", parallel, True, "ε-DP (20 copies at ε/20, composition)",
            "20 Laplace mechanisms at ε/20 = 0.005 on one entry (DP-Sniper's LaplaceParallel)",
            1, SINGLE_ENTRY, Published(0.0350, 0.0126),
            _repeated_l1_over(parallel.scale, parallel.copies),
            "closed form 20·|x − x'|·ε/20", law=_laplace_loss_law(parallel.scale, parallel.copies),
        ),
        BenchmarkMechanism(
            "SVT34Parallel", svt34, False,
            "∞-DP over unboundedly many queries (its Alg. 3 part; Alg. 4 alone is "
            "((1 + 6c)/4)ε = 0.325 at c = 2)",
            "Lyu, Su, Li (VLDB 2017) Alg. 3 and Alg. 4 side by side, each ε = 0.1, c = 2, T = 1 "
            "(DP-Sniper's SVT34Parallel)",
            10, _ALL, Published(0.2610, 0.1371), _svt34(svt34), _SVT34, svt34_features,
        ),
        BenchmarkMechanism(
            "PrefixSum", prefix, False,
            "‖x − x'‖₁·ε-DP: ε when one query moves, up to d·ε = 1 when all do",
            "Wang, Ding, Wang, Kifer, Zhang (PLDI 2019) PrefixSum, Lap(1/ε) on every query",
            10, _ALL, Published(0.5040, 0.3516),
            _l1_over(prefix.scale), "closed form ‖x − x'‖₁/scale (prefix sums are a bijection)",
            law=_laplace_loss_law(prefix.scale),
        ),
    ]  # fmt: skip
    return {m.name: m for m in entries}


MECHANISMS: dict[str, BenchmarkMechanism] = _mechanisms()
"""The benchmark mechanisms by name (DP-Sniper's names)."""

CASES: dict[str, BenchmarkCase] = {
    f"{m.name}/{pattern}": BenchmarkCase(f"{m.name}/{pattern}", pattern, m, pair)
    for m in MECHANISMS.values()
    for pattern, pair in statdp_pairs(m.dimension, m.patterns).items()
}
"""Every (mechanism, StatDP pattern) case, keyed ``"<mechanism>/<pattern>"``."""
