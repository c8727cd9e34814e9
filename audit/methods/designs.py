"""Stream designs on which a policy's later choices reveal the changed record.

Each later choice becomes a threshold of the noisy statistic the changed record moves: linear
contextual streams offer two copies of the record on day ``t`` and the opposite arms ``±w`` with
reward 0 afterwards (:func:`linear_design`: the bonus cancels, the choice is ``sign⟨w, θ̂⟩``);
multi-armed streams tie the arms' sums but for the changed reward (:func:`multi_armed_design`);
online sequences move the coordinates' differences as much as ``Y`` allows (:func:`online_design`).
Short horizons first (a tree's budget split over fewer levels).  :func:`design_stream_audit` and
:func:`design_online_audit` audit one pair on the choices of the informative days.

Proof note: ``proofs_notes/audit/revealing_designs.md``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

import numpy as np

from audit.methods.black_box import ScoreKind, event_audit_from_samples
from audit.methods.online import collect_points
from audit.methods.stream import Stream, _check_horizon, collect_transcripts, differing_day
from audit.protocols import (
    NeighbouringPair,
    OnlinePolicy,
    PrivacyClaim,
    StreamPolicy,
    check_one_day_claim,
)
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray, IntArray
from reference.agarwal_singh.sets import LossSet, LossSetKind
from reference.rng import check_seed
from reference.validation import check_choice, check_in_range, check_int_at_least

__all__ = [
    "DESIGN_SCORES",
    "LINEAR_GRID",
    "LINEAR_HORIZONS",
    "LINEAR_RECORDS",
    "MULTI_ARMED_HORIZONS",
    "ONLINE_HORIZONS",
    "ONLINE_PATTERNS",
    "AnchoredPair",
    "Collector",
    "LinearRecord",
    "OnlinePattern",
    "SampleCache",
    "Samples",
    "anchored_features",
    "choice_features",
    "design_online_audit",
    "design_stream_audit",
    "differing_round",
    "informative_days",
    "linear_design",
    "linear_designs",
    "multi_armed_design",
    "multi_armed_designs",
    "online_design",
    "online_designs",
    "online_samples",
    "point_features",
    "reused_noise_design",
    "stream_samples",
]

LinearRecord: TypeAlias = Literal["reward", "context", "both", "row"]
LINEAR_RECORDS: tuple[LinearRecord, ...] = get_args(LinearRecord)
"""Day ``t``'s record pair: ``"reward"`` ``(e₁, 1)`` vs ``(e₁, −1)``; ``"context"`` ``(e₁, 1)``
vs ``(−e₁, 1)``; ``"both"`` ``(e₁, 1)`` vs ``(e₂, −1)``; ``"row"`` ``(e₁, 1)`` vs ``(0, 0)``."""

LINEAR_HORIZONS = (2, 4, 8, 16)
"""Horizons of the linear designs a check searches (day ``t = 1``)."""

MULTI_ARMED_HORIZONS = (6, 8, 12, 24)
"""Horizons of the multi-armed designs a check searches."""

ONLINE_HORIZONS = (2, 4, 8)
"""Horizons of the online designs a check searches."""

OnlinePattern: TypeAlias = Literal["split", "one coordinate"]
ONLINE_PATTERNS: tuple[OnlinePattern, ...] = get_args(OnlinePattern)
"""Round ``t``'s loss pair: ``"split"`` half the coordinates at the top of ``Y`` and half at the
bottom against the reverse; ``"one coordinate"`` the first coordinate at its top against its
bottom (the others 0)."""


DESIGN_SCORES: tuple[ScoreKind, ...] = ("prefix_likelihood_ratio", "linear")
"""The scores the event audit of a design tries on a transcript of choices: the empirical
likelihood ratio of its first days (the cleanest looks at the changed record) and of whole
transcripts, and a linear score pooling the days."""


def linear_design(n: int, t: int = 1, record: LinearRecord = "reward", *, d: int = 2) -> (
    NeighbouringPair[Stream]
):  # fmt: skip
    """The linear contextual design of the module docstring: ``n`` days of two arms in ``R^d``,
    day ``t``'s record pair ``record`` (:data:`LINEAR_RECORDS`), relation ``"t_neighbouring"``.
    Its ``description`` is ``"<record> at day <t> of <n>, d = <d>"``."""
    n, t = _check_horizon(n, t)
    check_choice("record", record, LINEAR_RECORDS)
    d = check_int_at_least("d", d, 2)
    e1, e2 = np.eye(d)[0], np.eye(d)[1]
    zero = np.zeros(d)
    x, y, x_p, y_p = {
        "reward": (e1, 1.0, e1, -1.0),
        "context": (e1, 1.0, -e1, 1.0),
        "both": (e1, 1.0, e2, -1.0),
        "row": (e1, 1.0, zero, 0.0),
    }[record]
    w = (e1 + e2) / math.sqrt(2.0) if record == "both" else e1
    empty, observe = np.stack([zero, zero]), np.stack([w, -w])
    sets, sets_p, rewards, rewards_p = [], [], [], []
    for day in range(1, n + 1):
        if day == t:
            sets.append(np.stack([x, x]))
            sets_p.append(np.stack([x_p, x_p]))
            rewards.append(np.full(2, y))
            rewards_p.append(np.full(2, y_p))
            continue
        arms = empty if day < t else observe
        sets.append(arms)
        sets_p.append(arms)
        rewards.append(np.zeros(2))
        rewards_p.append(np.zeros(2))
    return NeighbouringPair(
        Stream(tuple(sets), tuple(rewards)),
        Stream(tuple(sets_p), tuple(rewards_p)),
        "t_neighbouring",
        f"{record} at day {t} of {n}, d = {d}",
    )


LINEAR_GRID: tuple[tuple[LinearRecord, tuple[int, ...]], ...] = (
    ("reward", (2, 4, 8, 16)),
    ("row", (2, 8)),
    ("both", (4, 16)),
)
"""The linear designs a check searches: each record pair at day 1 of these horizons.  The reward
pair at every horizon of :data:`LINEAR_HORIZONS` (a tree's levels one by one); the others at a
short and a long one.  ``"context"`` is left out: a policy that keeps the Gram matrix of its rows
sees exactly the change of ``"reward"`` (``vvᵀ`` is the same for ``(−e₁, 1)`` and ``(e₁, −1)``)."""


def linear_designs(
    grid: Sequence[tuple[LinearRecord, Sequence[int]]] = LINEAR_GRID, *, d: int = 2
) -> list[NeighbouringPair[Stream]]:
    """:func:`linear_design` at day 1 for every record pair and horizon of ``grid``."""
    if not grid or any(not horizons for _, horizons in grid):
        raise ValueError("grid must be a non-empty sequence of (record, non-empty horizons)")
    return [linear_design(n, 1, r, d=d) for r, horizons in grid for n in dict.fromkeys(horizons)]


@dataclass(frozen=True)
class AnchoredPair(NeighbouringPair[Stream]):
    """A design whose *anchored* day pairs read the same tree noise on both sides of day ``t``.

    ``anchors`` holds 1-based ``(before, after)`` days, ``before < t < after``, whose releases
    have nodes of the same count (``popcount`` of the release index); on ``x`` each pair's
    statistics along ``w`` are equal, on ``x_prime`` the later one is 2 lower.  Its transcripts
    are the actions of every day but ``t`` (:func:`stream_samples` draws them so)."""

    t: int = 0
    anchors: tuple[tuple[int, int], ...] = ()


def _triangle(r: int, amplitude: int) -> int:
    """``0, −1, …, −amplitude, …, −1, 0, −1, …``: a path with unit steps that returns to 0."""
    x = r % (2 * amplitude)
    return -(x if x <= amplitude else 2 * amplitude - x)


def reused_noise_design(levels: int, *, d: int = 2) -> AnchoredPair:
    """The anchored design: catches noise reused across a tree's releases from choices alone
    (Shariff & Sheffet Sec. 4's tree mechanism draws every node's noise independently; a policy
    that reuses one draw breaks Definition 1 in a way its choices can show).

    A tree of ``2^levels`` leaves; the stream has ``3q`` days, ``q = 2^(levels − 2)``, so a policy
    sizes its tree exactly as for ``2^levels``.  With 0-based release indices ``s`` (day ``s + 1``
    reads the rows of days ``1 .. s``): the ``"reward"`` record pair on release index ``2q``;
    release ``q + r`` (before it) and ``2q + r`` (after it) have the same ``popcount`` for
    ``r = 1 .. q − 1``: the anchors.  Every other day offers ``+w`` and ``−w`` (``w = e₁``) with
    rewards ``ρ`` and ``−ρ``, ``|ρ| ≤ 1``, so either choice adds ``wwᵀ`` to ``V`` and ``ρw`` to
    ``u``; the ``ρ`` move ``⟨w, u⟩`` along a triangle path over the anchors' releases, repeated
    one lower after the record (2 lower on ``x'``, whose record has reward −1).  A policy whose
    releases carry one noise draw scaled by a function of ``popcount`` chooses ``sign(⟨w, u⟩ + N)``
    with the same ``N`` on both days of an anchor: never different on ``x``, different on ``x'``
    when ``N`` lies in a band of width 2 under the anchor's threshold."""
    levels = check_int_at_least("levels", levels, 4)
    d = check_int_at_least("d", d, 2)
    q = 2 ** (levels - 2)
    t0, amplitude = 2 * q, q // 2
    start = amplitude / 2.0
    target = {}
    for r in range(1, q):
        target[q + r] = start + _triangle(r, amplitude)
        target[t0 + r] = start + _triangle(r, amplitude) - 1.0
    path = 0.0  # ⟨w, u⟩ over the rows before the current release, the record's row left out
    rewards = np.zeros(3 * q)
    for s in range(3 * q):
        if s == t0:
            continue
        upcoming = [k for k in target if k > s]  # head for the next release with a target
        goal = target[min(upcoming)] if upcoming else path
        rewards[s] = min(1.0, max(-1.0, goal - path))
        path += rewards[s]
        if s + 1 in target and not math.isclose(path, target[s + 1], abs_tol=1e-12):
            raise AssertionError(f"release {s + 1} missed its target")  # pragma: no cover
    w = np.eye(d)[0]
    sets, sets_p, tables, tables_p = [], [], [], []
    for s in range(3 * q):
        if s == t0:
            sets += [np.stack([w, w])]
            sets_p += [np.stack([w, w])]
            tables += [np.full(2, 1.0)]
            tables_p += [np.full(2, -1.0)]
            continue
        arms, table = np.stack([w, -w]), np.array([rewards[s], -rewards[s]])
        sets += [arms]
        sets_p += [arms]
        tables += [table]
        tables_p += [table]
    return AnchoredPair(
        Stream(tuple(sets), tuple(tables)),
        Stream(tuple(sets_p), tuple(tables_p)),
        "t_neighbouring",
        f"reused-noise anchors, {3 * q} days (a tree of {2**levels} leaves), d = {d}",
        t0 + 1,
        tuple((q + r + 1, t0 + r + 1) for r in range(1, q)),
    )


def anchored_features(design: AnchoredPair) -> Callable[[FloatArray], FloatArray]:
    """Feature of a transcript of every day but ``t``: how many anchors' two choices differ."""
    t = design.t

    def column(day: int) -> int:
        return day - 1 if day < t else day - 2

    before = np.array([column(b) for b, _ in design.anchors], dtype=np.int64)
    after = np.array([column(a) for _, a in design.anchors], dtype=np.int64)

    def features(actions: FloatArray) -> FloatArray:
        arr = np.asarray(actions, dtype=np.float64)
        differ = np.asarray(arr[:, before] != arr[:, after], dtype=np.float64)
        return np.asarray(differ.sum(axis=1, keepdims=True), dtype=np.float64)

    return features


def multi_armed_design(n: int, t: int = 1, num_arms: int = 2) -> NeighbouringPair[Stream]:
    """The multi-armed design of the module docstring: ``n`` days of the ``num_arms`` one-hot
    arms, every reward 0 but day ``t``'s (1 on every arm against 0).  ``description``:
    ``"rewards at day <t> of <n>, K = <num_arms>"``."""
    n, t = _check_horizon(n, t)
    num_arms = check_int_at_least("num_arms", num_arms, 2)
    arms = np.eye(num_arms)
    zeros = [np.zeros(num_arms) for _ in range(n)]
    ones = list(zeros)
    ones[t - 1] = np.ones(num_arms)
    sets = tuple(arms for _ in range(n))
    return NeighbouringPair(
        Stream(sets, tuple(ones)),
        Stream(sets, tuple(zeros)),
        "t_neighbouring",
        f"rewards at day {t} of {n}, K = {num_arms}",
    )


def multi_armed_designs(
    horizons: Sequence[int] = MULTI_ARMED_HORIZONS, arm_counts: Sequence[int] = (2, 5)
) -> list[NeighbouringPair[Stream]]:
    """:func:`multi_armed_design` at day 1 for every horizon with two arms, and at the longest
    horizon for every other number of arms in ``arm_counts``."""
    if not horizons or not arm_counts:
        raise ValueError("horizons and arm_counts must be non-empty")
    counts = list(dict.fromkeys(arm_counts))
    pairs = [multi_armed_design(n, 1, counts[0]) for n in dict.fromkeys(horizons)]
    pairs += [multi_armed_design(max(horizons), 1, k) for k in counts[1:]]
    return pairs


def _split_pair(loss_set: LossSet, pattern: OnlinePattern) -> tuple[FloatArray, FloatArray]:
    """Round ``t``'s pair of losses in ``loss_set`` (:data:`ONLINE_PATTERNS`)."""
    dim, r = loss_set.dim, loss_set.r
    if pattern == "one coordinate":
        top = np.zeros(dim)
        top[0] = r
        bottom = np.zeros(dim)
        if loss_set.kind != "box01":
            bottom[0] = -r
        return top, bottom
    signs = np.where(np.arange(dim) % 2 == 0, 1.0, -1.0)
    if loss_set.kind == "box01":
        high = np.where(signs > 0, r, 0.0)
        return high, np.where(signs > 0, 0.0, r)
    scale = {"linf_ball": 1.0, "l2_ball": 1.0 / math.sqrt(dim), "l1_ball": 1.0 / dim}[loss_set.kind]
    return r * scale * signs, -r * scale * signs


def online_design(
    n: int,
    dim: int,
    *,
    loss_set: LossSetKind = "box01",
    t: int = 1,
    pattern: OnlinePattern = "split",
) -> NeighbouringPair[FloatArray]:
    """The online design of the module docstring: ``(n, dim)`` loss sequences, 0 everywhere but
    round ``t`` (the pair ``pattern`` in ``loss_set``, radius 1, :data:`ONLINE_PATTERNS`).  For
    ``box01`` the other rounds are 0, the bottom of ``[0, 1]^N``.  ``description``:
    ``"<pattern> at day <t> of <n>, N = <dim>"``."""
    n, t = _check_horizon(n, t)
    dim = check_int_at_least("dim", dim, 2)
    check_choice("pattern", pattern, ONLINE_PATTERNS)
    ys = LossSet(check_choice("loss_set", loss_set, get_args(LossSetKind)), dim)
    top, bottom = _split_pair(ys, pattern)
    losses = np.zeros((n, dim))
    losses_p = np.zeros((n, dim))
    losses[t - 1], losses_p[t - 1] = top, bottom
    return NeighbouringPair(
        losses, losses_p, "t_neighbouring", f"{pattern} at day {t} of {n}, N = {dim}"
    )


def online_designs(
    loss_set: LossSetKind = "box01",
    horizons: Sequence[int] = ONLINE_HORIZONS,
    dims: Sequence[int] = (2, 5),
) -> list[NeighbouringPair[FloatArray]]:
    """:func:`online_design` at round 1: the ``"split"`` pattern for every horizon with the
    first dimension in ``dims``, and at the shortest horizon for the other dimensions and the
    ``"one coordinate"`` pattern."""
    if not horizons or not dims:
        raise ValueError("horizons and dims must be non-empty")
    dims = list(dict.fromkeys(dims))
    shortest = min(horizons)
    pairs = [online_design(n, dims[0], loss_set=loss_set) for n in dict.fromkeys(horizons)]
    pairs += [online_design(shortest, k, loss_set=loss_set) for k in dims[1:]]
    pairs.append(online_design(shortest, dims[-1], loss_set=loss_set, pattern="one coordinate"))
    return pairs


def informative_days(stream: Stream, t: int) -> IntArray:
    """The days after ``t`` (1-based) on which ``stream`` offers at least two different arms:
    the only days whose choice can depend on anything (a choice between identical arms is the
    same record whatever the index)."""
    t = check_int_at_least("t", t, 1)
    days = [
        day
        for day in range(t + 1, stream.n + 1)
        if len(np.unique(stream.decision_sets[day - 1], axis=0)) > 1
    ]
    return np.asarray(days, dtype=np.int64)


def choice_features(days: IntArray, t: int) -> Callable[[FloatArray], FloatArray]:
    """Features of a transcript of the actions of days ``t + 1 .. n``: the action on each of
    ``days`` (1-based, after ``t``), one column each."""
    columns = np.asarray(days, dtype=np.int64) - t - 1
    if columns.size == 0 or (columns < 0).any():
        raise ValueError(f"days must be non-empty and after t = {t}, got {days.tolist()}")

    def features(actions: FloatArray) -> FloatArray:
        return np.asarray(np.asarray(actions, dtype=np.float64)[:, columns], dtype=np.float64)

    return features


def point_features(dim: int) -> Callable[[FloatArray], FloatArray]:
    """Features of the points an online learner published on the later rounds (flattened, ``dim``
    coordinates a round): the points themselves and, per round, the centred logarithms of their
    coordinates (``log max(x_i, 10⁻³⁰⁰)`` minus the round's mean), which are linear in the noisy
    cumulative losses for exponential weights.  Defined point by point, so the same map applies
    to every output whatever the sample."""
    dim = check_int_at_least("dim", dim, 1)

    def features(points: FloatArray) -> FloatArray:
        arr = np.asarray(points, dtype=np.float64)
        rounds = arr.reshape(len(arr), -1, dim)
        logs = np.log(np.maximum(rounds, 1e-300))
        logs -= logs.mean(axis=2, keepdims=True)
        return np.column_stack([arr.reshape(len(arr), -1), logs.reshape(len(arr), -1)])

    return features


Samples = tuple[FloatArray, FloatArray]
"""What one pair's runs produced: the outputs on ``x`` and on ``x'`` (transcripts or points)."""

Collector = Callable[[NeighbouringPair[Any], int, int], Samples]
"""``collect(pair, runs, seed)``: the runs of one pair (e.g. a cache in front of
:func:`stream_samples` or :func:`online_samples`)."""


def stream_samples(
    policy: StreamPolicy, pair: NeighbouringPair[Stream], runs: int, seed: int
) -> Samples:
    """``runs`` transcripts (the actions of the days after the changed one) on each stream of
    ``pair`` (:func:`audit.methods.stream.collect_transcripts`: mechanism seeds spawned from
    ``seed``, every run's actions checked)."""
    t = differing_day(pair.x, pair.x_prime)
    anchored = isinstance(pair, AnchoredPair)
    return collect_transcripts(
        policy, pair.x, pair.x_prime, t, runs=runs, seed=seed, earlier_days=anchored
    )


def _audit_samples(
    samples: Samples,
    claim: PrivacyClaim,
    *,
    features: Callable[[FloatArray], FloatArray],
    score: ScoreKind | tuple[ScoreKind, ...],
    confidence: float,
    name: str,
    mechanism: str,
    seed: int,
    started: float,
) -> PrivacyAuditResult:
    """The event audit of one pair's runs (the two samples), on ``features``."""
    out, out_prime = samples
    return event_audit_from_samples(
        out, out_prime, claim, name=name, mechanism=mechanism, features=features,
        confidence=confidence, score=score, seed=check_seed(seed), started=started,
    )  # fmt: skip


def design_stream_audit(
    policy: StreamPolicy,
    pair: NeighbouringPair[Stream],
    claim: PrivacyClaim,
    *,
    runs: int,
    seed: int,
    confidence: float,
    name: str,
    collect: Collector | None = None,
) -> PrivacyAuditResult:
    """The event audit of ``policy`` on one design (or any t-neighbouring stream pair): ``runs``
    runs on each stream (:func:`stream_samples`, or ``collect``), the features the actions on the
    informative days of ``pair.x`` (:func:`informative_days`, :func:`choice_features`), or on
    every later day if none is informative; on an :class:`AnchoredPair`, the number of anchors
    whose two choices differ (:func:`anchored_features`)."""
    t0 = time.perf_counter()
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_one_day_claim(claim, "streams")
    t = differing_day(pair.x, pair.x_prime)
    samples = (collect or functools.partial(stream_samples, policy))(pair, runs, seed)
    features: Callable[[FloatArray], FloatArray]
    score: ScoreKind | tuple[ScoreKind, ...]
    if isinstance(pair, AnchoredPair):
        features, score = anchored_features(pair), "feature"
    else:
        days = informative_days(pair.x, t)
        if days.size == 0:
            days = np.arange(t + 1, pair.x.n + 1)
        features, score = choice_features(days, t), DESIGN_SCORES
    return _audit_samples(
        samples, claim, features=features, score=score, confidence=confidence, name=name,
        mechanism=repr(policy), seed=seed, started=t0,
    )  # fmt: skip


def differing_round(losses: FloatArray, losses_prime: FloatArray) -> int:
    """The one round (1-based) in which two loss sequences differ; ``ValueError`` naming the
    rounds when they differ in none or in several."""
    rounds = np.flatnonzero(np.any(np.asarray(losses) != np.asarray(losses_prime), axis=1))
    if len(rounds) != 1:
        raise ValueError(f"neighbouring loss sequences differ in exactly one round, these in "
                         f"{(rounds + 1).tolist()}")  # fmt: skip
    return int(rounds[0]) + 1


def online_samples(
    policy: OnlinePolicy, pair: NeighbouringPair[FloatArray], runs: int, seed: int
) -> Samples:
    """``runs`` plays on each loss sequence of ``pair`` (:func:`audit.methods.online.
    collect_points`: the points of the rounds after the changed one, flattened, every run's
    points checked)."""
    t = differing_round(pair.x, pair.x_prime)
    return collect_points(policy, pair.x, pair.x_prime, t, runs=runs, seed=seed)


def design_online_audit(
    policy: OnlinePolicy,
    pair: NeighbouringPair[FloatArray],
    claim: PrivacyClaim,
    *,
    runs: int,
    seed: int,
    confidence: float,
    name: str,
    collect: Collector | None = None,
) -> PrivacyAuditResult:
    """The event audit of an online learner on one design (or any pair of loss sequences that
    differ in one round): ``runs`` plays on each (:func:`online_samples`, or ``collect``), the
    features :func:`point_features` of the points published after the changed round."""
    t0 = time.perf_counter()
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_one_day_claim(claim, "loss sequences")
    samples = (collect or functools.partial(online_samples, policy))(pair, runs, seed)
    return _audit_samples(
        samples, claim, features=point_features(np.asarray(pair.x).shape[1]), score="auto",
        confidence=confidence, name=name, mechanism=repr(policy), seed=seed, started=t0,
    )  # fmt: skip


class SampleCache:
    """A :data:`Collector` that keeps every pair's runs by (description, runs, seed): audits of
    the same designs at another claim (e.g. the target's stated calibration) reuse them, and
    the same seeds give the same runs, so nothing differs but the statistics."""

    def __init__(self, collect: Collector) -> None:
        self._collect = collect
        self._kept: dict[tuple[str, int, int], Samples] = {}

    def __call__(self, pair: NeighbouringPair[Any], runs: int, seed: int) -> Samples:
        key = (pair.description, runs, seed)
        if key not in self._kept:
            self._kept[key] = self._collect(pair, runs, seed)
        return self._kept[key]

    def clear(self) -> None:
        """Forget every kept run."""
        self._kept.clear()
