"""Privacy audit of an online learner on neighbouring loss sequences (Agarwal & Singh Sec. 2).

Two loss sequences that differ in one round ``t`` (Definition 2.1) are fed many times to an
:class:`~audit.protocols.OnlinePolicy` with a fresh mechanism seed; the adversary sees the points
published on rounds ``t + 1 .. n`` (``x_t`` uses ``l_1 .. l_{t−1}`` only) and the black-box event
audit (:mod:`audit.methods.black_box`) bounds ε from them.  :func:`online_streams` builds the
candidate pairs a check searches (the worst-case replacement of the loss set, and one coordinate
at its extremes, at several rounds); :func:`check_points` is what every run's points must satisfy.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import get_args

import numpy as np

from audit.methods.black_box import event_audit_from_samples
from audit.protocols import (
    NeighbouringPair,
    OnlinePolicy,
    PrivacyClaim,
    _float_array,
    check_one_day_claim,
)
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.agarwal_singh.environments import worst_case_replacement
from reference.agarwal_singh.sets import LossSet, LossSetKind
from reference.rng import as_generator, as_seed_sequence, check_seed
from reference.validation import check_in_range, check_int_at_least

__all__ = [
    "ONLINE_PATTERNS",
    "check_points",
    "collect_points",
    "online_stream_audit",
    "online_streams",
]

ONLINE_PATTERNS = ("worst case", "one coordinate")
"""What changes in round ``t`` between the two sequences of a pair of :func:`online_streams`."""


def _loss_set(loss_set: LossSetKind | LossSet, dim: int) -> LossSet:
    """``loss_set`` as a :class:`LossSet` of dimension ``dim`` (a kind name or a loss set)."""
    kinds = get_args(LossSetKind)
    if isinstance(loss_set, LossSet):
        if loss_set.dim != dim:
            raise ValueError(
                f"loss_set must have dimension dim = {dim}, got a loss set of dimension "
                f"{loss_set.dim}"
            )
        return loss_set
    if isinstance(loss_set, str) and loss_set in kinds:
        return LossSet(loss_set, dim)
    raise ValueError(f"loss_set must be one of {kinds} or a LossSet, got {loss_set!r:.80}")


def _draw_inside(loss_set: LossSet, n: int, rng: np.random.Generator) -> FloatArray:
    """``n`` loss vectors inside ``loss_set``: uniform on the box ``[0, r]^N`` or the cube
    ``[−r, r]^N``; for the ℓ₂ and ℓ₁ balls a uniform direction of the cube scaled to a uniform
    fraction of the radius."""
    dim, r = loss_set.dim, loss_set.r
    if loss_set.kind == "box01":
        return r * rng.random((n, dim))
    u = rng.uniform(-1.0, 1.0, (n, dim))
    if loss_set.kind == "linf_ball":
        return r * u
    order = 2 if loss_set.kind == "l2_ball" else 1
    norms = np.maximum(np.linalg.norm(u, ord=order, axis=1, keepdims=True), 1e-12)
    return np.asarray(r * rng.random((n, 1)) * u / norms, dtype=np.float64)


def _first_coordinate_range(loss_set: LossSet, row: FloatArray) -> tuple[float, float]:
    """The largest and smallest first coordinate of a loss in ``loss_set`` whose other coordinates
    are those of ``row``."""
    r = loss_set.r
    if loss_set.kind == "box01":
        return r, 0.0
    if loss_set.kind == "linf_ball":
        return r, -r
    rest = row[1:]
    if loss_set.kind == "l2_ball":
        top = math.sqrt(max(r * r - float(rest @ rest), 0.0))
    else:
        top = max(r - float(np.abs(rest).sum()), 0.0)
    return top, -top


def online_streams(
    n: int,
    dim: int,
    *,
    loss_set: LossSetKind | LossSet = "box01",
    days: tuple[int, ...] | None = None,
    seed: int = 0,
) -> list[NeighbouringPair[FloatArray]]:
    """Candidate neighbouring loss sequences ``(n, dim)`` (Agarwal & Singh Definition 2.1: they
    differ in one round's loss vector), one pair per round ``t`` in ``days`` (default ``1`` and
    ``n // 2``) and pattern:

    * ``"worst case"``: round ``t``'s losses are the pair of
      :func:`~reference.agarwal_singh.environments.worst_case_replacement` (ℓ₁ distance
      ``Δ₁(Y)``; for ``[0, 1]^N``: all ones against all zeros);
    * ``"one coordinate"``: round ``t``'s base loss with its first coordinate at its largest and
      at its smallest value in ``Y`` (the other coordinates kept).

    The other rounds are base losses drawn inside ``loss_set`` (a kind of
    :class:`~reference.agarwal_singh.sets.LossSet`, radius 1, or a loss set of dimension ``dim``)
    from ``seed``, identical in both sequences.  Each pair's ``description`` is
    ``"<pattern> at day <t>"`` (names the search seeds follow).
    """
    n = check_int_at_least("n", n, 3)
    dim = check_int_at_least("dim", dim, 2)
    ys = _loss_set(loss_set, dim)
    days = (1, n // 2) if days is None else tuple(days)
    if not days:
        raise ValueError(f"days must be a non-empty tuple of integers in [1, {n - 1}], got ()")
    for t in days:
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 1 <= t < n:
            raise ValueError(f"days must be integers in [1, n - 1] = [1, {n - 1}], got {days}")
    base = _draw_inside(ys, n, as_generator(seed, "seed"))
    high, low = worst_case_replacement(ys)
    pairs = []
    for t in dict.fromkeys(int(d) for d in days):
        worst, worst_prime = base.copy(), base.copy()
        worst[t - 1], worst_prime[t - 1] = high, low
        one, one_prime = base.copy(), base.copy()
        one[t - 1, 0], one_prime[t - 1, 0] = _first_coordinate_range(ys, base[t - 1])
        for pattern, x, x_prime in (
            ("worst case", worst, worst_prime),
            ("one coordinate", one, one_prime),
        ):
            pairs.append(NeighbouringPair(x, x_prime, "t_neighbouring", f"{pattern} at day {t}"))
    return pairs


def check_points(points: object, n: int, dim: int, name: str) -> FloatArray:
    """The points an :class:`~audit.protocols.OnlinePolicy` published on one run, as a float array.

    Required: one point per round (shape ``(n, dim)``), numeric, every entry finite; nothing is
    clipped or repaired.  ``name`` says which run it is (e.g. ``"the points P() returned on run
    3"``) and opens the ``ValueError``.
    """
    arr = _float_array(points, name, f"a numeric array of shape ({n}, {dim}), one point per round")
    if arr.shape != (n, dim):
        raise ValueError(
            f"{name} must have shape ({n}, {dim}), one point per round, got {arr.shape}"
        )
    bad = ~np.isfinite(arr)
    if bad.any():
        first = int(np.flatnonzero(bad.any(axis=1))[0])
        raise ValueError(
            f"{name} contain {int(bad.sum())} non-finite values (NaN or infinite; the first in "
            f"round {first + 1}); an audit needs finite points"
        )
    return arr


def _check_sequences(
    losses: object, losses_prime: object, t: int
) -> tuple[FloatArray, FloatArray, int]:
    """Two finite ``(n, N)`` loss sequences that differ in round ``t`` at most, and ``t``."""
    arrays = []
    for label, value in (("losses", losses), ("losses_prime", losses_prime)):
        try:
            arr = np.asarray(value, dtype=np.float64)
        except (TypeError, ValueError) as err:
            raise ValueError(f"{label} must be a numeric array (n, N), got {err}") from err
        if arr.ndim != 2 or arr.shape[1] < 1:
            raise ValueError(
                f"{label} must have shape (n, N), one loss vector per round, got {arr.shape}"
            )
        if not np.isfinite(arr).all():
            raise ValueError(f"{label} must be finite")
        arrays.append(arr)
    x, x_prime = arrays
    if x.shape != x_prime.shape:
        raise ValueError(
            f"losses and losses_prime must have the same shape, got {x.shape} and {x_prime.shape}"
        )
    n = x.shape[0]
    t = check_int_at_least("t", t, 1)
    if t >= n:
        raise ValueError(
            f"t must be in [1, n - 1] = [1, {n - 1}] so that later rounds exist, got {t}"
        )
    differ = [
        day + 1 for day in range(n) if day + 1 != t and not np.array_equal(x[day], x_prime[day])
    ]
    if differ:
        raise ValueError(
            f"losses and losses_prime must be t-neighbours (t={t}) but differ in round {differ[0]}"
        )
    return x, x_prime, t


def _observed(
    policy: OnlinePolicy, losses: FloatArray, t: int, seeds: list[np.random.SeedSequence]
) -> FloatArray:
    n, dim = losses.shape
    rows = []
    for run, child in enumerate(seeds, start=1):
        points = check_points(
            policy.play(losses.copy(), np.random.default_rng(child)),
            n,
            dim,
            f"the points {policy!r} returned on run {run}",
        )
        rows.append(points[t:].ravel())  # rounds t+1..n (0-based index t onwards)
    return np.asarray(rows, dtype=np.float64)


def collect_points(
    policy: OnlinePolicy,
    losses: FloatArray,
    losses_prime: FloatArray,
    t: int,
    *,
    runs: int,
    seed: int,
) -> tuple[FloatArray, FloatArray]:
    """``runs`` observations (the points of rounds ``t + 1 .. n``, flattened) on each sequence,
    mechanism generators from the children of ``seed`` (``SeedSequence.spawn``: the first ``runs``
    for ``losses``, the next ``runs`` for ``losses_prime``).  Checks that the sequences are finite
    t-neighbours of one shape and every run's points (:func:`check_points`); the policy gets a
    copy of the losses."""
    runs = check_int_at_least("runs", runs, 4)
    seed = check_seed(seed)
    x, x_prime, t = _check_sequences(losses, losses_prime, t)
    children = as_seed_sequence(seed).spawn(2 * runs)
    return _observed(policy, x, t, children[:runs]), _observed(policy, x_prime, t, children[runs:])


def online_stream_audit(
    policy: OnlinePolicy,
    losses: FloatArray,
    losses_prime: FloatArray,
    t: int,
    claim: PrivacyClaim,
    *,
    runs: int,
    seed: int,
    name: str = "online stream",
    features: Callable[[FloatArray], FloatArray] | None = None,
    confidence: float = 0.95,
) -> PrivacyAuditResult:
    """Black-box audit of an online learner: ``runs`` plays on each sequence
    (:func:`collect_points`), observing the points of rounds ``t + 1 .. n`` flattened (or their
    ``features``), then :func:`~audit.methods.black_box.event_audit_from_samples`.  ``claim``
    must be made under the ``"t_neighbouring"`` relation (Definition 2.1).

    Every run's points are checked before any statistic is computed (:func:`check_points`):
    shape ``(n, N)``, numeric and finite; ``ValueError`` names the run and the round.
    """
    t0 = time.perf_counter()
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_one_day_claim(claim, "loss sequences")
    out_s, out_sp = collect_points(policy, losses, losses_prime, t, runs=runs, seed=seed)
    return event_audit_from_samples(
        out_s,
        out_sp,
        claim,
        name=name,
        mechanism=repr(policy),
        features=features,
        confidence=confidence,
        seed=check_seed(seed),
        started=t0,
    )
