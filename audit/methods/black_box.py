"""Black-box event audit: a lower confidence bound on ε from event frequencies.

In the spirit of DP-Sniper (Bichsel et al. 2021) and StatDP (Ding et al. 2018): split the outputs
under both inputs into a selection and an evaluation part; on the selection part learn a score
(the output, a count likelihood ratio of the output or of its binned columns, a product-law
ratio, a linear discriminant, or a classifier's log-odds) and choose a threshold event
``S`` and a direction by its predicted bound; on the evaluation part, with one-sided Clopper–Pearson
bounds ``P̲`` and ``P̄'`` at level ``β/2`` each, ``ε_LB = ln((P̲ − δ) / P̄')`` is a ``1 − β`` lower
confidence bound on the ε of any valid ``(ε, δ)`` claim.  Violation iff ``ε_LB > ε_claim``; the
p-value is the smallest such ``β``; ``detectable_epsilon`` states the test's power.

Proof note: ``proofs_notes/audit/black_box_event.md``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, TypeVar, get_args

import numpy as np
from scipy import stats

from audit.protocols import (
    Mechanism,
    NeighbouringPair,
    PrivacyClaim,
    check_claim_matches_pair,
    check_outputs,
    check_same_output_space,
)
from audit.results import POWER, PrivacyAuditResult
from audit.stats import clopper_pearson, clopper_pearson_lower, clopper_pearson_upper
from reference._typing import FloatArray, IntArray
from reference.rng import check_seed
from reference.validation import (
    check_choice,
    check_in_range,
    check_instance,
    check_int_at_least,
)

__all__ = [
    "SCORE_KINDS",
    "EventCounts",
    "ScoreKind",
    "detectable_epsilon",
    "epsilon_lower_bound",
    "event_audit",
    "event_audit_from_samples",
]

DataT = TypeVar("DataT")
Features = Callable[[FloatArray], FloatArray]
ScoreKind: TypeAlias = Literal[
    "auto",
    "feature",
    "likelihood_ratio",
    "prefix_likelihood_ratio",
    "binned_likelihood_ratio",
    "naive_bayes",
    "linear",
    "classifier",
]
SCORE_KINDS: tuple[ScoreKind, ...] = get_args(ScoreKind)
SELECTION_LEVEL = 0.25
"""One-sided level of the choosing data's bounds when events are ranked (a mild shrinkage of each
event's frequencies toward what its sample size can support)."""
POWER_SELECTION_LEVEL = 0.05
"""One-sided level of the choosing data's interval for the ``x'`` count when events are ranked by
predicted power: the power statement must hold at both ends of this wider interval, because a
score and threshold fitted on the choosing data bias its counts beyond a milder interval."""


@dataclass(frozen=True)
class EventCounts:
    """Evaluation-split counts of the chosen event under the two inputs."""

    count: int
    trials: int
    count_prime: int
    trials_prime: int

    def __post_init__(self) -> None:
        for side in ("", "_prime"):
            trials = check_int_at_least(f"trials{side}", getattr(self, f"trials{side}"), 1)
            count = check_int_at_least(f"count{side}", getattr(self, f"count{side}"), 0)
            if count > trials:
                raise ValueError(f"count{side} must be in [0, trials{side}={trials}], got {count}")


def epsilon_lower_bound(counts: EventCounts, delta: float, beta: float) -> float:
    """``ln((P̲ − δ)/P̄')`` with one-sided Clopper–Pearson bounds at level ``β/2`` each.

    ``-inf`` when ``P̲ ≤ δ`` (no evidence against any ε).  ``delta`` in ``[0, 1)``, ``beta`` in
    ``(0, 1)``; the counts are checked when :class:`EventCounts` is built.
    """
    check_instance("counts", counts, EventCounts)
    delta = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    beta = check_in_range("beta", beta, 0.0, 1.0)
    p_low, _ = clopper_pearson(counts.count, counts.trials, beta / 2.0)
    _, q_high = clopper_pearson(counts.count_prime, counts.trials_prime, beta / 2.0)
    if p_low <= delta:
        return -math.inf
    return math.log((p_low - delta) / q_high)


def detectable_epsilon(counts: EventCounts, claim: PrivacyClaim, beta: float) -> float:
    """The power statement of the event test: the smallest ``ε`` such that, were the audited
    event's probability under ``x`` equal to ``e^ε · q + δ_claim`` (``q`` its observed frequency
    under ``x'``; its Clopper–Pearson upper bound when that count is 0), the evaluation would
    reject with probability ``≥ POWER``.  The power is split evenly: the count under ``x'`` stays
    below its ``√POWER`` quantile and the count under ``x`` reaches the rejection region, each with
    probability ``≥ √POWER``.  ``inf`` when no count under ``x`` could reject."""
    beta = check_in_range("beta", beta, 0.0, 1.0)
    n, n_prime = counts.trials, counts.trials_prime
    each = math.sqrt(POWER)
    q = counts.count_prime / n_prime
    if counts.count_prime == 0:
        q = clopper_pearson(0, n_prime, beta / 2.0)[1]
    c_prime = int(stats.binom.ppf(each, n_prime, q))
    _, q_high = clopper_pearson(min(c_prime, n_prime), n_prime, beta / 2.0)
    need = claim.delta + math.exp(claim.epsilon) * q_high  # reject iff P̲ > need
    if need >= 1.0:
        return math.inf

    def low(c: int) -> float:  # the Clopper–Pearson lower bound, increasing in c
        return float(clopper_pearson_lower(np.array([float(c)]), n, beta / 2.0)[0])

    if low(n) <= need:
        return math.inf
    lo, hi = 0, n  # low(lo) <= need < low(hi), with low(0) = 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if low(mid) <= need else (lo, mid)
    # smallest p with P(Bin(n, p) ≥ c*) ≥ √POWER: P(Bin(n, p) ≥ c) = I_p(c, n − c + 1)
    p_star = float(stats.beta.ppf(each, hi, n - hi + 1.0))
    return math.log((p_star - claim.delta) / q)


def _pvalue(counts: EventCounts, claim: PrivacyClaim) -> float:
    """Smallest ``β`` with ``ε_LB(β) > ε_claim`` (1 if none), by bisection on ``log β``."""
    hi = 1.0 - 1e-12
    if epsilon_lower_bound(counts, claim.delta, hi) <= claim.epsilon:
        return 1.0
    lo_log, hi_log = math.log(1e-300), math.log(hi)
    if epsilon_lower_bound(counts, claim.delta, 1e-300) > claim.epsilon:
        return 1e-300
    for _ in range(60):
        mid = (lo_log + hi_log) / 2.0
        if epsilon_lower_bound(counts, claim.delta, math.exp(mid)) > claim.epsilon:
            hi_log = mid
        else:
            lo_log = mid
    return math.exp(hi_log)


def _row_keys(f: FloatArray) -> np.ndarray[Any, Any]:
    """Each row of ``f`` as one opaque key, so rows can be counted and looked up vectorised."""
    f = np.ascontiguousarray(f, dtype=np.float64) + 0.0  # +0.0: one key for -0.0 and 0.0
    return f.view(np.dtype((np.void, f.dtype.itemsize * f.shape[1]))).ravel()


@dataclass(frozen=True)
class _Score:
    """A one-dimensional score of output features, and what it is called in the report."""

    name: str
    apply: Callable[[FloatArray], FloatArray]
    learned: bool


def _identity_score() -> _Score:
    return _Score("feature", lambda f: f[:, 0], learned=False)


def _likelihood_ratio_score(train_p: FloatArray, train_q: FloatArray) -> _Score:
    """The empirical log-likelihood ratio of each distinct output row, ``ln((c_P + ½)/(c_Q + ½))``
    normalised by the sample sizes (0 for rows unseen in training): the Neyman–Pearson statistic
    estimated from counts, as DP-Sniper's score for discrete outputs."""
    keys = np.concatenate([_row_keys(train_p), _row_keys(train_q)])
    rows, inverse = np.unique(keys, return_inverse=True)
    inverse = inverse.ravel()
    c_p = np.bincount(inverse[: len(train_p)], minlength=len(rows))
    c_q = np.bincount(inverse[len(train_p) :], minlength=len(rows))
    llr = np.log((c_p + 0.5) / (c_q + 0.5)) - math.log((len(train_p) + 0.5) / (len(train_q) + 0.5))

    def apply(f: FloatArray) -> FloatArray:
        k = _row_keys(f)
        pos = np.minimum(np.searchsorted(rows, k), len(rows) - 1)
        return np.where(rows[pos] == k, llr[pos], 0.0)

    return _Score("likelihood_ratio", apply, learned=True)


PREFIX_LENGTHS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)
"""Column prefixes the ``"prefix_likelihood_ratio"`` score tries (those shorter than the output)."""


def _prefix_scores(train_p: FloatArray, train_q: FloatArray) -> list[_Score]:
    """:func:`_likelihood_ratio_score` of the first ``j`` columns for every ``j`` of
    :data:`PREFIX_LENGTHS` below the number of columns, and of all of them: for outputs that are
    sequences of discrete choices (a policy's actions, day by day), the early columns of a
    transcript take few values, so their counts are well estimated where the whole rows are
    mostly unique."""
    width = train_p.shape[1]
    scores = []
    for j in [*(j for j in PREFIX_LENGTHS if j < width), width]:
        inner = _likelihood_ratio_score(train_p[:, :j], train_q[:, :j])

        def apply(f: FloatArray, j: int = j, inner: _Score = inner) -> FloatArray:
            return inner.apply(f[:, :j])

        scores.append(_Score(f"prefix_likelihood_ratio[{j}]", apply, learned=True))
    return scores


def _classifier_score(train_p: FloatArray, train_q: FloatArray, seed: int) -> _Score:
    """The log-odds of a gradient-boosted tree classifier (scikit-learn's
    ``HistGradientBoostingClassifier``) trained to tell outputs under ``x`` from outputs under
    ``x'``: a learned likelihood-ratio estimate (DP-Sniper's approach) that handles several,
    mixed discrete and continuous, columns and non-monotone ratios."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=100, early_stopping=False, random_state=seed % 2**32
    )
    features = np.vstack([train_p, train_q])
    labels = np.concatenate([np.ones(len(train_p)), np.zeros(len(train_q))])
    model.fit(features, labels)

    def apply(f: FloatArray) -> FloatArray:
        return np.asarray(model.decision_function(f), dtype=np.float64)

    return _Score("classifier", apply, learned=True)


def _linear_score(train_p: FloatArray, train_q: FloatArray) -> _Score:
    """Fisher's linear discriminant ``(Σ + 10⁻⁶I)⁻¹(μ_P − μ_Q)`` on features standardised with the
    training moments: the likelihood-ratio direction for Gaussian shifts, cheap at any size."""
    both = np.vstack([train_p, train_q])
    mean, sd = both.mean(axis=0), both.std(axis=0)
    sd[sd == 0.0] = 1.0
    zp, zq = (train_p - mean) / sd, (train_q - mean) / sd
    pooled = np.cov(np.vstack([zp - zp.mean(axis=0), zq - zq.mean(axis=0)]).T).reshape(
        both.shape[1], both.shape[1]
    )
    w = np.linalg.solve(pooled + 1e-6 * np.eye(both.shape[1]), zp.mean(axis=0) - zq.mean(axis=0))
    return _Score("linear", lambda f: ((f - mean) / sd) @ w, learned=True)


BIN_COUNTS = (4, 16, 64)
"""Bins per continuous column the structured scores (``"binned_likelihood_ratio"``,
``"naive_bayes"``) try, each a score of its own chosen on the selection split."""


def _column_coder(column: FloatArray, bins: int) -> Callable[[FloatArray], IntArray]:
    """Codes for one output column, fitted on training values: a column with at most
    ``max(10, bins)`` distinct values keeps them (one code each; an unseen value gets its own
    code), otherwise each atom (a value holding at least ``1/(2·bins)`` of the rows: a flag, "no
    release", a clipped end) keeps its own code and the other values fall into ``bins`` bins at
    their quantiles."""
    values, counts = np.unique(column, return_counts=True)
    discrete = len(values) <= max(10, bins)
    if discrete:
        atoms, edges = values, np.empty(0)
    else:
        atoms = values[counts >= len(column) / (2.0 * bins)]
        rest = column[~np.isin(column, atoms)]
        edges = (
            np.unique(np.quantile(rest, np.linspace(0.0, 1.0, bins + 1)[1:-1]))
            if rest.size
            else np.empty(0)
        )
    n_atoms = len(atoms)

    def code(f: FloatArray) -> IntArray:
        pos = np.minimum(np.searchsorted(atoms, f), max(n_atoms - 1, 0))
        is_atom = (atoms[pos] == f) if n_atoms else np.zeros(f.shape, dtype=bool)
        if discrete:
            return np.where(is_atom, pos, n_atoms).astype(np.int64)  # n_atoms: unseen
        return np.where(is_atom, pos, n_atoms + np.searchsorted(edges, f)).astype(np.int64)

    return code


def _coders(train: FloatArray, bins: int) -> Callable[[FloatArray], IntArray]:
    """:func:`_column_coder` of every column: outputs to a ``(size, columns)`` array of codes."""
    coders = [_column_coder(train[:, j], bins) for j in range(train.shape[1])]

    def codes(f: FloatArray) -> IntArray:
        return np.stack([c(f[:, j]) for j, c in enumerate(coders)], axis=1)

    return codes


def _binned_scores(train_p: FloatArray, train_q: FloatArray) -> list[_Score]:
    """For each bin count of :data:`BIN_COUNTS`, :func:`_likelihood_ratio_score` of the outputs'
    codes (:func:`_column_coder`: discrete columns and atoms as they are, continuous values in
    quantile bins): the Neyman–Pearson statistic of the binned law, for outputs that mix flags
    and released values, where a threshold on one learned score misses events such as "flag ⊤ at
    query i with a released value in its lower tail"."""
    scores = []
    both = np.vstack([train_p, train_q])
    for bins in BIN_COUNTS:
        codes = _coders(both, bins)
        inner = _likelihood_ratio_score(
            codes(train_p).astype(np.float64), codes(train_q).astype(np.float64)
        )

        def apply(f: FloatArray, codes: Any = codes, inner: _Score = inner) -> FloatArray:
            return inner.apply(codes(f).astype(np.float64))

        scores.append(_Score(f"binned_likelihood_ratio[{bins}]", apply, learned=True))
    return scores


def _naive_bayes_scores(train_p: FloatArray, train_q: FloatArray) -> list[_Score]:
    """For each bin count of :data:`BIN_COUNTS`, the sum over columns of each column's
    log-likelihood ratio of its code, ``Σ_j ln((c_P,j + ½)/(c_Q,j + ½))`` normalised by the
    sample sizes: the Neyman–Pearson statistic when the columns are independent under each input
    (a product law, e.g. values released with independent noise), estimated with counts per
    column rather than per output, so it stays well estimated when whole outputs are unique."""
    scores = []
    both = np.vstack([train_p, train_q])
    shift = math.log((len(train_p) + 0.5) / (len(train_q) + 0.5))
    for bins in BIN_COUNTS:
        codes = _coders(both, bins)
        cp, cq = codes(train_p), codes(train_q)
        size = int(max(cp.max(initial=0), cq.max(initial=0))) + 2
        tables = [
            np.log(
                (np.bincount(cp[:, j], minlength=size) + 0.5)
                / (np.bincount(cq[:, j], minlength=size) + 0.5)
            )
            - shift
            for j in range(cp.shape[1])
        ]

        def apply(f: FloatArray, codes: Any = codes, tables: Any = tables) -> FloatArray:
            c = codes(f)
            total = np.zeros(len(f))
            for j, table in enumerate(tables):
                inside = c[:, j] < len(table)
                total += np.where(inside, table[np.minimum(c[:, j], len(table) - 1)], 0.0)
            return total

        scores.append(_Score(f"naive_bayes[{bins}]", apply, learned=True))
    return scores


def _discrete_columns(sel_p: FloatArray, sel_q: FloatArray) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Which columns take few distinct values (at most ``max(10, n/5)`` over both samples)."""
    both = np.vstack([sel_p, sel_q])
    limit = max(10, len(both) // 5)
    return np.array([len(np.unique(both[:, j])) <= limit for j in range(both.shape[1])])


def _is_discrete(sel_p: FloatArray, sel_q: FloatArray) -> bool:
    """Few distinct output rows: at most ``max(10, n/5)`` over the pooled selection split."""
    both = np.concatenate([_row_keys(sel_p), _row_keys(sel_q)])
    return len(np.unique(both)) <= max(10, len(both) // 5)


def _candidate_thresholds(pooled: FloatArray, thresholds: int, min_count: int) -> FloatArray:
    """Thresholds ``τ`` for the events ``{score > τ}`` and ``{score ≤ τ}``: ``thresholds``
    evenly spaced quantiles of the pooled scores, plus order statistics at geometrically spaced
    ranks ``min_count·1.2^j`` from both tails (events down to ``min_count`` pooled outputs, so
    tail events are reachable at every sample size), plus every distinct score when there are at
    most 2,000 of them."""
    s = np.sort(pooled)
    m = len(s)
    ranks = np.unique(np.round(min_count * 1.2 ** np.arange(0, 200)).astype(np.int64))
    ranks = ranks[ranks < m // 2]
    idx = np.concatenate([ranks, m - 1 - ranks])
    grid = np.quantile(s, np.linspace(0.0, 1.0, thresholds + 2)[1:-1])
    distinct = np.unique(s)
    extra = distinct if len(distinct) <= 2000 else np.empty(0)
    return np.unique(np.concatenate([s[idx], grid, extra]))


def _plugin_epsilon(a: FloatArray, n_a: int, b: FloatArray, n_b: int, delta: float) -> FloatArray:
    """Plug-in ``ln((p − δ)/p')`` with a half-count correction (breaks ties in selection)."""
    p = (a + 0.5) / (n_a + 1.0)
    q = (b + 0.5) / (n_b + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > delta, np.log(np.maximum(p - delta, 1e-300) / q), -np.inf)


@dataclass(frozen=True)
class _Event:
    """``{score > τ}`` (``upper``) or ``{score ≤ τ}``, compared as ``x`` vs ``x'`` or swapped,
    with the lower confidence bound on ε it reached on the data that chose it and the power
    statement (:func:`detectable_epsilon`) its frequencies there predict."""

    score: _Score
    tau: float
    upper: bool
    swap: bool
    selection_bound: float
    predicted_detectable: float = math.inf

    def count(self, f: FloatArray) -> int:
        s = self.score.apply(f)
        return int(np.sum(s > self.tau) if self.upper else np.sum(s <= self.tau))


@functools.lru_cache(maxsize=64)
def _detectable_grid(
    epsilon: float, delta: float, beta: float, n: int, n_prime: int
) -> tuple[IntArray, FloatArray]:
    grid = np.unique(np.round(np.geomspace(1.0, n_prime, 48)).astype(np.int64))
    grid = np.concatenate([[0], grid])
    claim = PrivacyClaim(epsilon, delta)
    values = np.array([detectable_epsilon(EventCounts(0, n, int(c), n_prime), claim, beta)
                       for c in grid])  # fmt: skip
    return grid, np.where(np.isfinite(values), values, 1e300)


def _detectable_by_count(
    claim: PrivacyClaim, beta: float, eval_sizes: tuple[int, int], swap: bool
) -> Callable[[FloatArray], FloatArray]:
    """:func:`detectable_epsilon` as a function of the predicted evaluation count under the
    ``x'`` role (``eval_sizes`` swapped when ``swap``), interpolated in ``ln(1 + count)`` between
    exact values at 48 geometrically spaced counts (cheap enough to rank every candidate event)."""
    n, n_prime = (eval_sizes[1], eval_sizes[0]) if swap else eval_sizes
    grid, values = _detectable_grid(claim.epsilon, claim.delta, beta, n, n_prime)

    def at(counts: FloatArray) -> FloatArray:
        out = np.interp(np.log1p(counts), np.log1p(grid.astype(np.float64)), values)
        return np.where(out >= 1e299, math.inf, out)

    return at


def _best_event(
    score: _Score,
    choose_p: FloatArray,
    choose_q: FloatArray,
    claim: PrivacyClaim,
    beta: float,
    thresholds: int,
    min_count: int,
    eval_sizes: tuple[int, int],
) -> tuple[_Event, _Event]:
    """The threshold event whose evaluation is predicted to give the largest ``ε_LB``: with the
    choosing data's frequencies ``p̂, p̂'`` (half-count corrected) standing in for the evaluation
    counts, ``ln((P̲ − δ)/P̄')`` with Clopper–Pearson bounds at level ``β/2`` and the evaluation
    split's sizes.  Unlike the plug-in ratio this charges a small event for the width of its
    evaluation bounds, so tiny tail events whose ratio is large by chance (the winner's curse)
    lose to large events of nearly the same ratio.

    Also returns the event whose predicted power statement (:func:`detectable_epsilon` at the
    predicted evaluation counts, the worse of its values at the two ends of the count's
    selection interval) is smallest: the event to audit when the data show no evidence
    (:func:`_select_event`), so that a test that does not reject can still say what it would have
    caught."""
    delta = claim.delta
    sp, sq = np.sort(score.apply(choose_p)), np.sort(score.apply(choose_q))
    taus = _candidate_thresholds(np.concatenate([sp, sq]), thresholds, min_count)
    above_p = (sp.size - np.searchsorted(sp, taus, side="right")).astype(np.float64)
    above_q = (sq.size - np.searchsorted(sq, taus, side="right")).astype(np.float64)
    options = [(upper, swap) for upper in (True, False) for swap in (False, True)]
    bounds, plugs, powers = [], [], []
    for upper, swap in options:
        a = above_p if upper else sp.size - above_p
        b = above_q if upper else sq.size - above_q
        (ka, na, ea), (kb, nb, eb) = (
            ((b, sq.size, eval_sizes[1]), (a, sp.size, eval_sizes[0]))
            if swap
            else ((a, sp.size, eval_sizes[0]), (b, sq.size, eval_sizes[1]))
        )
        # predicted evaluation counts: the choosing data's own confidence bounds, so an event is
        # charged for its uncertainty twice (on the choosing data and at evaluation)
        pa = clopper_pearson_lower(ka, na, SELECTION_LEVEL) * ea
        pb = clopper_pearson_upper(kb, nb, SELECTION_LEVEL) * eb
        low = clopper_pearson_lower(pa, ea, beta / 2.0) - delta
        high = clopper_pearson_upper(pb, eb, beta / 2.0)
        bounds.append(np.where(low > 0.0, np.log(np.maximum(low, 1e-300) / high), -np.inf))
        plugs.append(_plugin_epsilon(ka, na, kb, nb, delta))  # breaks ties, e.g. no evidence
        # the power statement at either end of the x' count's wider selection interval (the worse
        # one): an event whose statement holds only at its point estimate is not preferred
        detectable = _detectable_by_count(claim, beta, eval_sizes, swap)
        pb_low = clopper_pearson_lower(kb, nb, POWER_SELECTION_LEVEL) * eb
        pb_high = clopper_pearson_upper(kb, nb, POWER_SELECTION_LEVEL) * eb
        powers.append(np.maximum(detectable(pb_low), detectable(pb_high)))
    bound, plug, power = np.concatenate(bounds), np.concatenate(plugs), np.concatenate(powers)

    def event(j: int) -> _Event:
        upper, swap = options[j // len(taus)]
        tau = float(taus[j % len(taus)])
        return _Event(score, tau, upper, swap, float(bound[j]), float(power[j]))

    return event(int(np.lexsort((plug, bound))[-1])), event(int(np.lexsort((-bound, power))[0]))


def _check_score(score: object) -> None:
    """``score`` is a kind of :data:`SCORE_KINDS`, or a non-empty tuple of kinds other than
    ``"auto"`` (each tried on the selection split, the best event kept)."""
    if isinstance(score, tuple):
        if not score or any(k == "auto" or k not in SCORE_KINDS for k in score):
            raise ValueError(
                f"score must be one of {SCORE_KINDS} or a non-empty tuple of them without "
                f"'auto', got {score!r}"
            )
        return
    check_choice("score", score, SCORE_KINDS)


def _select_event(
    fp: FloatArray,
    fq: FloatArray,
    *,
    score: ScoreKind | tuple[ScoreKind, ...],
    claim: PrivacyClaim,
    beta: float,
    thresholds: int,
    min_count: int,
    seed: int,
    eval_sizes: tuple[int, int],
) -> tuple[_Event, Literal["evidence", "power"]]:
    """Choose the event on the selection split alone (so the evaluation stays valid whatever this
    does).  Learned scores are trained on the first half of the selection split and their
    threshold chosen on the second half; a fixed score uses the whole split.

    The event with the largest predicted bound is audited when that bound is positive (the
    selection data show some event more likely under one input than the other, beyond ``δ``).
    Otherwise there is no evidence to follow, and the event audited is the one with the smallest
    predicted power statement (``"power"``): its evaluation then says what violation the test
    would have caught, rather than auditing the whole output space, where nothing can be caught."""
    kinds: list[ScoreKind]
    if score == "auto":
        discrete = _is_discrete(fp, fq)
        if discrete and fp.shape[1] == 1:
            kinds = ["feature", "likelihood_ratio"]
        elif discrete:
            # the count ratio needs every output seen often; a linear score pools what the
            # outputs share (columns moving together, as sparse-vector answers do)
            kinds = ["likelihood_ratio", "linear"]
        elif fp.shape[1] == 1:
            kinds = ["feature", "binned_likelihood_ratio"]  # the ratio may not be monotone
        elif _discrete_columns(fp, fq).any():
            # mixed discrete and continuous columns (flags and released values): a learned
            # log-odds, the binned law's count ratio, and its per-column (product-law) form
            kinds = ["classifier", "binned_likelihood_ratio", "naive_bayes"]
        else:
            kinds = ["linear"]
    else:
        kinds = list(score) if isinstance(score, tuple) else [score]
    if "feature" in kinds and fp.shape[1] != 1:
        raise ValueError(
            f"score='feature' needs one feature column, got {fp.shape[1]}; use 'classifier' or "
            "'likelihood_ratio', or pass features mapping outputs to one column"
        )
    half_p, half_q = len(fp) // 2, len(fq) // 2
    events = []
    for kind in kinds:
        if kind == "feature":
            events.append(
                _best_event(
                    _identity_score(), fp, fq, claim, beta, thresholds, min_count, eval_sizes
                )
            )
            continue
        if min(half_p, half_q, len(fp) - half_p, len(fq) - half_q) < 1:
            raise ValueError(f"score={kind!r} needs at least 4 selection samples per side")
        train_p, train_q = fp[:half_p], fq[:half_q]
        family = {
            "prefix_likelihood_ratio": _prefix_scores,
            "binned_likelihood_ratio": _binned_scores,
            "naive_bayes": _naive_bayes_scores,
        }.get(kind)
        if family is not None:
            events += [
                _best_event(
                    each, fp[half_p:], fq[half_q:], claim, beta, thresholds, min_count, eval_sizes
                )
                for each in family(train_p, train_q)
            ]
            continue
        learned = (
            _likelihood_ratio_score(train_p, train_q)
            if kind == "likelihood_ratio"
            else _linear_score(train_p, train_q)
            if kind == "linear"
            else _classifier_score(train_p, train_q, seed)
        )
        events.append(
            _best_event(
                learned, fp[half_p:], fq[half_q:], claim, beta, thresholds, min_count, eval_sizes
            )
        )
    evidence = max((e for e, _ in events), key=lambda e: e.selection_bound)
    if evidence.selection_bound > 0.0:
        return evidence, "evidence"
    power = min((p for _, p in events), key=lambda e: e.predicted_detectable)
    if not math.isfinite(power.predicted_detectable):
        return evidence, "evidence"
    return power, "power"


def event_audit_from_samples(
    outputs: FloatArray,
    outputs_prime: FloatArray,
    claim: PrivacyClaim,
    *,
    name: str,
    mechanism: str,
    features: Features | None = None,
    confidence: float = 0.95,
    selection_fraction: float = 0.5,
    thresholds: int = 200,
    min_count: int = 30,
    score: ScoreKind | tuple[ScoreKind, ...] = "auto",
    seed: int | None = None,
    started: float | None = None,
) -> PrivacyAuditResult:
    """The event audit on given i.i.d. output samples under ``x`` and ``x'`` (module docstring).

    ``features`` maps a stack of outputs to ``(size,)`` or ``(size, f)`` features (default: the
    flattened outputs).  The first ``selection_fraction`` of each sample selects the event, the rest
    evaluates it.  The two samples may differ in size (each side's Clopper–Pearson bound uses its
    own count; the report records the smaller).

    Checked before anything is computed (``ValueError`` naming the side, :mod:`audit.protocols`):
    both samples are numeric with at least one output and the same shape per output; without
    ``features`` every output is finite; with ``features`` the raw outputs may hold NaN (e.g. "no
    release", which the feature map handles) but the features must be finite, one row per output
    and the same number of columns on both sides.

    ``seed`` only labels the report here: the caller drew the samples.  ``None`` records that
    they were drawn without a recorded seed; otherwise it follows the one seed rule
    (:func:`reference.rng.check_seed`).
    """
    t0 = time.perf_counter() if started is None else started
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    selection_fraction = check_in_range("selection_fraction", selection_fraction, 0.0, 1.0)
    thresholds = check_int_at_least("thresholds", thresholds, 1)
    min_count = check_int_at_least("min_count", min_count, 1)
    _check_score(score)
    if seed is not None:
        seed = check_seed(seed)
    raw = features is None
    out_p = check_outputs(outputs, None, "outputs under x", finite=raw)
    out_q = check_outputs(outputs_prime, None, "outputs under x'", finite=raw)
    check_same_output_space(out_p, out_q, "outputs under x", "outputs under x'")
    if features is None:
        fp, fq = out_p.reshape(len(out_p), -1), out_q.reshape(len(out_q), -1)
    else:
        fp = check_outputs(features(np.asarray(outputs)), len(out_p), "features under x")
        fq = check_outputs(features(np.asarray(outputs_prime)), len(out_q), "features under x'")
        fp, fq = fp.reshape(len(fp), -1), fq.reshape(len(fq), -1)
        check_same_output_space(fp, fq, "features under x", "features under x'")
    cut_p = int(len(fp) * selection_fraction)
    cut_q = int(len(fq) * selection_fraction)
    if min(cut_p, cut_q, len(fp) - cut_p, len(fq) - cut_q) < 1:
        raise ValueError("need at least one selection and one evaluation sample on each side")
    beta = 1.0 - confidence
    event, chosen_for = _select_event(
        fp[:cut_p],
        fq[:cut_q],
        score=score,
        claim=claim,
        beta=beta,
        thresholds=thresholds,
        min_count=min_count,
        seed=0 if seed is None else seed,
        eval_sizes=(len(fp) - cut_p, len(fq) - cut_q),
    )
    ep, eq = fp[cut_p:], fq[cut_q:]
    cp, cq = event.count(ep), event.count(eq)
    counts = (
        EventCounts(cq, len(eq), cp, len(ep))
        if event.swap
        else EventCounts(cp, len(ep), cq, len(eq))
    )
    eps_lb = epsilon_lower_bound(counts, claim.delta, beta)
    p_lo, p_hi = clopper_pearson(counts.count, counts.trials, beta / 2.0)
    q_lo, q_hi = clopper_pearson(counts.count_prime, counts.trials_prime, beta / 2.0)
    return PrivacyAuditResult(
        name=name,
        mechanism=mechanism,
        method="black_box",
        claim=claim,
        violation=eps_lb > claim.epsilon,
        p_value=_pvalue(counts, claim),
        confidence=confidence,
        epsilon_lower_bound=eps_lb,
        delta_at_claim=None,
        curve=(),
        samples=int(min(len(fp), len(fq))),
        seed=seed,
        runtime_seconds=time.perf_counter() - t0,
        detectable_epsilon=detectable_epsilon(counts, claim, beta),
        details={
            "event": f"{event.score.name} {'>' if event.upper else '<='} {event.tau:.6g}",
            "direction": "x' vs x" if event.swap else "x vs x'",
            "selection_bound": event.selection_bound,
            "chosen_for": chosen_for,
            "counts": counts,
            "p_interval": (p_lo, p_hi),
            "p_prime_interval": (q_lo, q_hi),
            "selection_fraction": selection_fraction,
        },
    )


def event_audit(
    mechanism: Mechanism[DataT],
    pair: NeighbouringPair[DataT],
    claim: PrivacyClaim,
    *,
    samples: int,
    seed: int,
    name: str = "black_box",
    features: Features | None = None,
    confidence: float = 0.95,
    selection_fraction: float = 0.5,
    thresholds: int = 200,
    min_count: int = 30,
    score: ScoreKind | tuple[ScoreKind, ...] = "auto",
) -> PrivacyAuditResult:
    """Draw ``samples`` outputs under each input of ``pair`` (independent streams spawned from
    ``seed``) and run :func:`event_audit_from_samples`.

    Checked before anything is drawn: ``claim`` is made under ``pair``'s relation, ``seed``
    follows the one seed rule (:func:`reference.rng.check_seed`) and the tuning arguments are in
    range.  Checked before any statistic: each ``sample`` call returns ``samples`` outputs, of one
    shape per output on both inputs, and what is audited (the outputs, or their ``features``) is
    finite (``ValueError`` naming the side otherwise).
    """
    t0 = time.perf_counter()
    check_instance("mechanism", mechanism, Mechanism)
    samples = check_int_at_least("samples", samples, 4)
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("selection_fraction", selection_fraction, 0.0, 1.0)
    check_int_at_least("thresholds", thresholds, 1)
    check_int_at_least("min_count", min_count, 1)
    _check_score(score)
    check_claim_matches_pair(claim, pair)
    seed = check_seed(seed)
    rng_p, rng_q = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    # the row counts here; finiteness of what is audited in event_audit_from_samples
    outputs = check_outputs(
        mechanism.sample(pair.x, rng_p, samples), samples, "outputs under x", finite=False
    )
    outputs_prime = check_outputs(
        mechanism.sample(pair.x_prime, rng_q, samples), samples, "outputs under x'", finite=False
    )
    return event_audit_from_samples(
        outputs,
        outputs_prime,
        claim,
        name=name,
        mechanism=repr(mechanism),
        features=features,
        confidence=confidence,
        selection_fraction=selection_fraction,
        thresholds=thresholds,
        min_count=min_count,
        score=score,
        seed=seed,
        started=t0,
    )
