"""Black-box event audit: a lower confidence bound on ε from event frequencies.

In the spirit of DP-Sniper (Bichsel et al. 2021) and StatDP (Ding et al. 2018): split the outputs
under both inputs into a selection and an evaluation part; on the selection part choose a threshold
event ``S`` on a one-dimensional score and a direction; on the evaluation part, with one-sided
Clopper–Pearson bounds ``P̲`` and ``P̄'`` at level ``β/2`` each, ``ε_LB = ln((P̲ − δ) / P̄')`` is a
``1 − β`` lower confidence bound on the ε of any valid ``(ε, δ)`` claim.  The verdict is a
violation iff ``ε_LB > ε_claim``; the p-value is the smallest such ``β`` (bisection).

Proof note: ``proofs_notes/audit/black_box_event.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from audit.protocols import (
    Mechanism,
    NeighbouringPair,
    PrivacyClaim,
    check_claim_matches_pair,
    check_outputs,
    check_same_output_space,
)
from audit.results import PrivacyAuditResult
from audit.stats import clopper_pearson
from reference._typing import FloatArray
from reference.rng import check_seed
from reference.validation import check_in_range, check_int_at_least

__all__ = ["EventCounts", "epsilon_lower_bound", "event_audit", "event_audit_from_samples"]

DataT = TypeVar("DataT")
Features = Callable[[FloatArray], FloatArray]


@dataclass(frozen=True)
class EventCounts:
    """Evaluation-split counts of the chosen event under the two inputs."""

    count: int
    trials: int
    count_prime: int
    trials_prime: int


def epsilon_lower_bound(counts: EventCounts, delta: float, beta: float) -> float:
    """``ln((P̲ − δ)/P̄')`` with one-sided Clopper–Pearson bounds at level ``β/2`` each.

    ``-inf`` when ``P̲ ≤ δ`` (no evidence against any ε).
    """
    p_low, _ = clopper_pearson(counts.count, counts.trials, beta / 2.0)
    _, q_high = clopper_pearson(counts.count_prime, counts.trials_prime, beta / 2.0)
    if p_low <= delta:
        return -math.inf
    return math.log((p_low - delta) / q_high)


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


def _score_function(sel_p: FloatArray, sel_q: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """A one-dimensional score learned on the selection split only.

    * one feature: the feature itself;
    * discrete outputs (few distinct feature rows): the empirical log-likelihood ratio of each
      distinct row, ``ln((c_P + ½)/(c_Q + ½))`` (0 for rows unseen in selection) -- the
      Neyman–Pearson statistic estimated from counts, as in DP-Sniper;
    * otherwise: Fisher's linear discriminant ``(Σ + λI)⁻¹(μ_P − μ_Q)`` on standardised features.
    """
    if sel_p.shape[1] == 1:
        return lambda f: f[:, 0]
    both = np.vstack([sel_p, sel_q])
    rows, inverse = np.unique(both, axis=0, return_inverse=True)
    if len(rows) <= max(10, len(both) // 5):
        inverse = inverse.ravel()
        c_p = np.bincount(inverse[: len(sel_p)], minlength=len(rows))
        c_q = np.bincount(inverse[len(sel_p) :], minlength=len(rows))
        llr = np.log((c_p + 0.5) / (c_q + 0.5)) - math.log((len(sel_p) + 0.5) / (len(sel_q) + 0.5))
        table = {row.tobytes(): float(v) for row, v in zip(rows, llr, strict=True)}
        return lambda f: np.array([table.get(np.ascontiguousarray(r).tobytes(), 0.0) for r in f])
    mean, sd = both.mean(axis=0), both.std(axis=0)
    sd[sd == 0.0] = 1.0
    zp, zq = (sel_p - mean) / sd, (sel_q - mean) / sd
    pooled = np.cov(np.vstack([zp - zp.mean(axis=0), zq - zq.mean(axis=0)]).T).reshape(
        both.shape[1], both.shape[1]
    )
    w = np.linalg.solve(pooled + 1e-6 * np.eye(both.shape[1]), zp.mean(axis=0) - zq.mean(axis=0))
    return lambda f: ((f - mean) / sd) @ w


def _plugin_epsilon(a: FloatArray, n_a: int, b: FloatArray, n_b: int, delta: float) -> FloatArray:
    """Plug-in ``ln((p − δ)/p')`` with a half-count correction, used only for selection."""
    p = (a + 0.5) / (n_a + 1.0)
    q = (b + 0.5) / (n_b + 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(p > delta, np.log(np.maximum(p - delta, 1e-300) / q), -np.inf)


def _select_event(
    score_p: FloatArray, score_q: FloatArray, delta: float, thresholds: int
) -> tuple[float, bool, bool]:
    """Pick ``(τ, upper, swap)``: event ``score > τ`` (``upper``) or ``≤ τ``, and direction, with
    the largest plug-in ε over ``thresholds`` quantiles of the pooled selection scores."""
    pooled = np.concatenate([score_p, score_q])
    taus = np.unique(np.quantile(pooled, np.linspace(0.0, 1.0, thresholds + 2)[1:-1]))
    sp, sq = np.sort(score_p), np.sort(score_q)
    above_p = (sp.size - np.searchsorted(sp, taus, side="right")).astype(np.float64)
    above_q = (sq.size - np.searchsorted(sq, taus, side="right")).astype(np.float64)
    candidates = {
        (True, False): _plugin_epsilon(above_p, sp.size, above_q, sq.size, delta),
        (False, False): _plugin_epsilon(
            sp.size - above_p, sp.size, sq.size - above_q, sq.size, delta
        ),
        (True, True): _plugin_epsilon(above_q, sq.size, above_p, sp.size, delta),
        (False, True): _plugin_epsilon(
            sq.size - above_q, sq.size, sp.size - above_p, sp.size, delta
        ),
    }
    (upper, swap), values = max(candidates.items(), key=lambda kv: float(np.max(kv[1])))
    return float(taus[int(np.argmax(values))]), upper, swap


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
    score = _score_function(fp[:cut_p], fq[:cut_q])
    tau, upper, swap = _select_event(score(fp[:cut_p]), score(fq[:cut_q]), claim.delta, thresholds)

    def in_event(f: FloatArray) -> int:
        s = score(f)
        return int(np.sum(s > tau) if upper else np.sum(s <= tau))

    ep, eq = fp[cut_p:], fq[cut_q:]
    cp, cq = in_event(ep), in_event(eq)
    counts = (
        EventCounts(cq, len(eq), cp, len(ep)) if swap else EventCounts(cp, len(ep), cq, len(eq))
    )
    beta = 1.0 - confidence
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
        details={
            "event": f"score {'>' if upper else '<='} {tau:.6g}",
            "direction": "x' vs x" if swap else "x vs x'",
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
    samples = check_int_at_least("samples", samples, 4)
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("selection_fraction", selection_fraction, 0.0, 1.0)
    check_int_at_least("thresholds", thresholds, 1)
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
        seed=seed,
        started=t0,
    )
