"""Release-level audit: a policy's private aggregator audited as a mechanism on record streams.

A policy that exposes its aggregator (:class:`~audit.protocols.ReleasingPolicy`) is audited on
the stream of records the aggregator receives, changed on one day: white box when the
aggregator declares its law, black box otherwise.  The actions are post-processing of the
releases, so a violation here is a violation of the policy's claim; tree-level bugs (a wrong
sensitivity, noise reused across nodes) show here with far fewer runs than in the actions.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any, Literal, TypeAlias

import numpy as np

from audit.methods.black_box import event_audit
from audit.methods.online import online_streams
from audit.methods.pairs import Tester, searched_audit
from audit.methods.white_box import white_box_audit
from audit.protocols import (
    DensityMechanism,
    Mechanism,
    NeighbouringPair,
    PrivacyClaim,
    ReleasingPolicy,
    check_one_day_claim,
)
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.agarwal_singh.sets import LossSetKind
from reference.rng import as_generator
from reference.validation import check_choice, check_in_range, check_instance, check_size

__all__ = ["RECORD_KINDS", "RecordKind", "release_audit", "release_mechanism", "release_streams"]

RecordKind: TypeAlias = Literal["linear", "multi_armed", "online"]
RECORD_KINDS: tuple[RecordKind, ...] = ("linear", "multi_armed", "online")
"""What a day's record is: a linear contextual row ``(x, y)`` with ``‖x‖₂ ≤ 1``, ``|y| ≤ 1``
(Shariff & Sheffet Sec. 4: the row the tree sums as ``vvᵀ``); a multi-armed reward in
``[0, 1]`` in the pulled arm's coordinate; an online learner's loss vector in its loss set ``Y``
(Agarwal & Singh Sec. 2)."""


def _check_days(days: object, n: int) -> tuple[int, ...]:
    if not isinstance(days, tuple | list) or not days:
        raise ValueError(f"days must hold at least one day in [1, n] = [1, {n}], got {days}")
    for t in days:
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 1 <= t <= n:
            raise ValueError(f"days must be integers in [1, n] = [1, {n}], got {days}")
    return tuple(dict.fromkeys(int(t) for t in days))


def _patterns(kind: RecordKind, m: int) -> dict[str, tuple[FloatArray, FloatArray]]:
    """The records of day ``t`` in the two streams, per pattern name."""
    e1 = np.zeros(m)
    e1[0] = 1.0
    zero = np.zeros(m)
    if kind == "linear":
        d = m - 1
        with_reward = np.append(np.zeros(d), 1.0)
        plus, minus = e1 + with_reward, -e1 + with_reward  # orthogonal rows of norm √2
        full = np.append(np.full(d, 1.0 / math.sqrt(d)), 1.0)  # the largest ‖v‖₁ = √d + 1
        flipped = e1 - with_reward
        return {
            "opposite contexts": (plus, minus),
            "full row vs zero row": (full, zero),
            "reward flipped": (plus, flipped),
        }
    return {"reward 1 vs 0": (e1, zero)}


def release_streams(
    kind: RecordKind,
    n: int,
    m: int,
    *,
    days: tuple[int, ...] | None = None,
    seed: int = 0,
    loss_set: LossSetKind = "box01",
) -> list[NeighbouringPair[FloatArray]]:
    """Candidate record streams ``(n, m)`` that differ on one day (relation ``"t_neighbouring"``),
    one per day in ``days`` (default ``1`` and ``n // 2``) and per pattern of the kind:

    * ``"linear"`` (``m = d + 1 ≥ 2``): ``(e₁, 1)`` vs ``(−e₁, 1)`` (orthogonal rows: the largest
      Frobenius change of ``vvᵀ``), ``(1/√d, …, 1/√d, 1)`` vs the zero row (the largest ℓ₁
      change), and ``(e₁, 1)`` vs ``(e₁, −1)`` (the reward alone);
    * ``"multi_armed"`` (``m = K``): reward 1 vs 0 on arm 1;
    * ``"online"`` (``m = N``): the loss sequences of
      :func:`audit.methods.online.online_streams` in ``loss_set`` (the worst-case replacement of
      Agarwal & Singh's ``Y``, and one coordinate at its extremes).

    The other days' records are drawn from ``seed`` inside the domain and shared by both streams.
    Each pair's ``description`` is ``"<pattern> at day <t>"``.
    """
    check_choice("kind", kind, RECORD_KINDS)
    m = check_size("m", m, 2, item_bytes=8, what="a record's entry")
    n = check_size("n", n, 2, item_bytes=8 * m, what="a day's record")
    days = _check_days((1, n // 2) if days is None else days, n)
    if kind == "online":
        return online_streams(max(n, 3), m, loss_set=loss_set, days=days, seed=seed)
    rng = as_generator(seed, "seed")
    if kind == "linear":
        x = rng.normal(size=(n, m - 1))
        x /= np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1.0)
        base = np.column_stack([x, rng.choice([-1.0, 1.0], size=n)])
    else:
        base = np.zeros((n, m))
        base[np.arange(n), rng.integers(m, size=n)] = rng.integers(2, size=n)
    pairs = []
    for t in days:
        for pattern, (row, row_prime) in _patterns(kind, m).items():
            x_s, x_sp = base.copy(), base.copy()
            x_s[t - 1], x_sp[t - 1] = row, row_prime
            pairs.append(NeighbouringPair(x_s, x_sp, "t_neighbouring", f"{pattern} at day {t}"))
    return pairs


def release_mechanism(policy: object) -> Mechanism[FloatArray] | None:
    """The aggregator a :class:`~audit.protocols.ReleasingPolicy` exposes (read through a
    wrapper's ``inner``), or ``None``; ``ValueError`` if ``release_mechanism()`` returns something
    that is not a :class:`~audit.protocols.Mechanism`."""
    inner: Any = policy
    while not isinstance(inner, ReleasingPolicy) and hasattr(inner, "inner"):
        inner = inner.inner
    if not isinstance(inner, ReleasingPolicy):
        return None
    mechanism = inner.release_mechanism()
    if not isinstance(mechanism, Mechanism):
        raise ValueError(
            f"{inner!r}.release_mechanism() must return an audit.protocols.Mechanism "
            f"(sample(data, rng, size)), got {type(mechanism).__name__}"
        )
    return mechanism


def release_audit(
    mechanism: Mechanism[FloatArray],
    kind: RecordKind,
    claim: PrivacyClaim,
    *,
    n: int,
    m: int,
    samples: int,
    seed: int,
    confidence: float,
    top: int = 2,
    name: str = "release",
    loss_set: LossSetKind = "box01",
    progress: Any = None,
) -> PrivacyAuditResult:
    """The searched audit (:func:`audit.methods.pairs.searched_audit`) of ``mechanism`` over
    :func:`release_streams`: white box (:func:`audit.methods.white_box.white_box_audit`) if it
    is a :class:`~audit.protocols.DensityMechanism`, else the black-box event audit.  ``claim``
    must be made under ``"t_neighbouring"``; ``loss_set`` is an online learner's ``Y``.
    ``progress``: a tqdm bar advanced once per audit."""
    check_instance("mechanism", mechanism, Mechanism)
    check_instance("claim", claim, PrivacyClaim)
    check_one_day_claim(claim, "record streams")
    check_in_range("confidence", confidence, 0.0, 1.0)
    candidates = release_streams(kind, n, m, seed=seed, loss_set=loss_set)
    white = isinstance(mechanism, DensityMechanism)

    def tester_at(level: float) -> Tester[FloatArray]:
        def tester(pair: NeighbouringPair[FloatArray], size: int, s: int) -> PrivacyAuditResult:
            label = f"{name}: {pair.description}"
            if isinstance(mechanism, DensityMechanism):
                return white_box_audit(mechanism, pair, claim, samples=size, seed=s, name=label,
                                       confidence=level)  # fmt: skip
            return event_audit(mechanism, pair, claim, samples=size, seed=s, name=label,
                               confidence=level)  # fmt: skip

        return tester

    return searched_audit(
        candidates,
        tester_at,
        samples=samples,
        seed=seed,
        confidence=confidence,
        top=min(top, len(candidates)),
        name=f"{name} ({'white' if white else 'black'} box)",
        progress=progress,
    )
