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
    discrete_epsilon,
    noisy_max_index_law,
    noisy_max_value_binned_laws,
    noisy_max_value_epsilon,
    oracle_event_bound,
    svt_bits_law,
    svt_first_above_law,
    svt_no_query_noise_law,
    svt_released_value_binned_laws,
    svt_released_value_epsilon,
)
from audit.benchmarks.mechanisms import (
    BOTTOM,
    TOP,
    LaplaceMechanism,
    NoisyHistogram,
    NumericalSparseVector,
    ReportNoisyMax,
    SparseVector,
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


def numeric_svt_features(outputs: FloatArray) -> FloatArray:
    """Features of a numeric sparse-vector output ``(size, 2, n)``: the ⊤ and ⊥ indicators and the
    released values, ``(size, 3n)`` (the flag encoding DP-Sniper feeds its classifier)."""
    out = np.asarray(outputs, dtype=np.float64)
    codes, values = out[:, 0, :], out[:, 1, :]
    return np.hstack([(codes == TOP) * 1.0, (codes == BOTTOM) * 1.0, values])


# ------------------------------------------------------------------------------------------------
# the mechanisms
# ------------------------------------------------------------------------------------------------

_NO_EXACT_NUMERIC = (
    "answers with released values drawn with fresh noise and c = 2: the exact ε needs the joint "
    "law of two released values (a two-dimensional supremum), not computed here"
)
_QUAD = "composite Gauss–Legendre quadrature of the answer law"
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
