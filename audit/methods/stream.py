"""Joint-DP audit of a bandit algorithm on t-neighbouring streams (Shariff & Sheffet Def. 1).

Two fixed streams that differ only on day ``t`` are fed many times to the policy with a fresh
mechanism seed; the adversary sees the actions of days ``t + 1 .. n`` (day ``t``'s own action is
not protected, Remark 1), and the black-box event audit (:mod:`audit.methods.black_box`) bounds ε
from them.  The claim is the exact curve of the tree's node-level view
(:mod:`audit.papers.shariff_sheffet.cases`), of which the actions are post-processing.
:func:`worst_case_streams` builds the worst-case streams (``d = 2``, rows ``v = (e₁, 1)`` and
``v' = (−e₁, 1)`` on day ``t``); :func:`neighbouring_streams` the candidates a check searches
(a day's contexts, rewards or both, at several days).

Proof note: ``proofs_notes/audit/stream_joint_dp.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from audit.methods.black_box import event_audit_from_samples
from audit.protocols import (
    NeighbouringPair,
    PrivacyClaim,
    StreamPolicy,
    check_actions,
    check_one_day_claim,
)
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray, IntArray
from reference.rng import as_generator, as_seed_sequence, check_seed
from reference.shariff_sheffet.linucb import LinUCB
from reference.validation import (
    check_array,
    check_in_range,
    check_int_at_least,
)

__all__ = [
    "STREAM_KINDS",
    "Algorithm1Policy",
    "Stream",
    "action_count_features",
    "collect_transcripts",
    "differing_day",
    "multi_armed_streams",
    "neighbouring_streams",
    "stream_audit",
    "worst_case_streams",
]

STREAM_KINDS = ("contexts", "rewards", "both")
"""What changes on day ``t`` between two candidate streams of :func:`neighbouring_streams`."""


@dataclass(frozen=True)
class Stream:
    """A fixed input stream: per-day decision sets ``(K_t, d)`` and reward tables ``(K_t,)``."""

    decision_sets: tuple[FloatArray, ...]
    reward_tables: tuple[FloatArray, ...]

    def __post_init__(self) -> None:
        for name in ("decision_sets", "reward_tables"):
            value = getattr(self, name)
            if not isinstance(value, tuple | list):
                raise ValueError(f"{name} must be a tuple of per-day arrays, got {value!r:.80}")
        if len(self.decision_sets) != len(self.reward_tables):
            raise ValueError("decision_sets and reward_tables must have one entry per day")
        for day, (arms, rewards) in enumerate(
            zip(self.decision_sets, self.reward_tables, strict=True), start=1
        ):
            arms = check_array(f"decision_sets[{day - 1}]", arms)
            rewards = check_array(f"reward_tables[{day - 1}]", rewards)
            if arms.ndim != 2 or rewards.shape != (arms.shape[0],):
                raise ValueError(
                    f"day {day}: decision_sets[{day - 1}] must have shape (K, d) and "
                    f"reward_tables[{day - 1}] shape (K,), got {arms.shape} and {rewards.shape}"
                )

    @property
    def n(self) -> int:
        """Number of days."""
        return len(self.decision_sets)


def _check_horizon(n: int, t: int, purpose: str = "later days exist") -> tuple[int, int]:
    """``(n, t)`` checked: at least 2 days and ``t ∈ [1, n − 1]``, so that ``purpose`` (the
    ``ValueError`` says it)."""
    n = check_int_at_least("n", n, 2)
    t = check_int_at_least("t", t, 1)
    if t >= n:
        raise ValueError(f"t must be in [1, n - 1] = [1, {n - 1}] so that {purpose}, got {t}")
    return n, t


def worst_case_streams(n: int, t: int, *, seed: int = 0) -> tuple[Stream, Stream]:
    """The t-neighbouring pair of the module docstring, ``d = 2``, ``L = B̃ = 1``.

    Reward tables of the other days are fixed ``±1`` draws (from ``seed``) with means
    ``⟨θ, x⟩``, ``θ = (0.6, 0.3)``; they are identical in both streams.
    """
    n, t = _check_horizon(n, t)
    rng = as_generator(seed, "seed")
    c = 1.0 / math.sqrt(2.0)
    arms = np.array([[c, c], [c, -c]])
    means = arms @ np.array([0.6, 0.3])
    days_s: list[FloatArray] = []
    days_sp: list[FloatArray] = []
    rewards: list[FloatArray] = []
    for day in range(1, n + 1):
        if day == t:
            days_s.append(np.array([[1.0, 0.0]]))
            days_sp.append(np.array([[-1.0, 0.0]]))
            rewards.append(np.array([1.0]))
        else:
            u = rng.uniform(-1.0, 1.0)
            days_s.append(arms)
            days_sp.append(arms)
            rewards.append(np.where(u < means, 1.0, -1.0))
    return Stream(tuple(days_s), tuple(rewards)), Stream(tuple(days_sp), tuple(rewards))


def neighbouring_streams(
    n: int,
    *,
    days: tuple[int, ...] | None = None,
    kinds: tuple[str, ...] = STREAM_KINDS,
    seed: int = 0,
) -> list[NeighbouringPair[Stream]]:
    """Candidate t-neighbouring stream pairs (Shariff & Sheffet Definition 1: streams that differ
    on one day), one per day ``t`` in ``days`` (default ``1`` and ``n // 2``) and kind:

    * ``"contexts"``: :func:`worst_case_streams` (day ``t``'s only arm is ``e₁`` or ``−e₁``, reward
      1 on both);
    * ``"rewards"``: the same two arms on every day; day ``t``'s rewards are ``+1`` on both arms or
      ``−1`` on both (a multi-armed policy reads rewards only, so only this can show its leak);
    * ``"both"``: day ``t``'s arm and its reward both change (``e₁`` with ``+1``, ``−e₁`` with
      ``−1``).

    The other days are those of :func:`worst_case_streams` with ``seed``.  Each pair's
    ``description`` is ``"<kind> at day <t>"`` (names the search seeds follow).
    """
    n = check_int_at_least("n", n, 3)
    days = (1, n // 2) if days is None else tuple(days)
    unknown = [k for k in kinds if k not in STREAM_KINDS]
    if unknown or not kinds:
        raise ValueError(f"kinds must be a non-empty subset of {STREAM_KINDS}, got {kinds}")
    for t in days:
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 1 <= t < n:
            raise ValueError(f"days must be integers in [1, n - 1] = [1, {n - 1}], got {days}")
    pairs = []
    for t in dict.fromkeys(days):
        base, base_prime = worst_case_streams(n, int(t), seed=seed)
        arms = base.decision_sets[0 if t != 1 else 1]
        for kind in kinds:
            sets, sets_p = list(base.decision_sets), list(base_prime.decision_sets)
            rewards, rewards_p = list(base.reward_tables), list(base_prime.reward_tables)
            if kind == "rewards":
                sets[t - 1] = sets_p[t - 1] = arms
                rewards[t - 1], rewards_p[t - 1] = np.ones(len(arms)), -np.ones(len(arms))
            elif kind == "both":
                rewards_p[t - 1] = -rewards[t - 1]
            pairs.append(
                NeighbouringPair(
                    Stream(tuple(sets), tuple(rewards)),
                    Stream(tuple(sets_p), tuple(rewards_p)),
                    "t_neighbouring",
                    f"{kind} at day {t}",
                )
            )
    return pairs


def multi_armed_streams(
    n: int, num_arms: int = 2, *, days: tuple[int, ...] | None = None, seed: int = 0
) -> list[NeighbouringPair[Stream]]:
    """Candidate t-neighbouring pairs for a multi-armed policy, which reads rewards only: every
    day's decision set is the ``num_arms`` one-hot arms and its rewards lie in ``{0, 1}``
    (Bernoulli draws from ``seed`` with means from 0.7 down to 0.3); day ``t``'s rewards are 1 on
    every arm in one stream and 0 in the other (the event-level neighbours of Sajed & Sheffet
    Sec. 2: one reward changed).  One pair per day in ``days`` (default ``1`` and ``n // 2``),
    described ``"rewards at day <t>"``."""
    n = check_int_at_least("n", n, 3)
    num_arms = check_int_at_least("num_arms", num_arms, 2)
    days = (1, n // 2) if days is None else tuple(days)
    rng = as_generator(seed, "seed")
    means = np.linspace(0.7, 0.3, num_arms)
    arms = np.eye(num_arms)
    rewards = [(rng.random(num_arms) < means).astype(np.float64) for _ in range(n)]
    pairs = []
    for t in days:
        if isinstance(t, bool) or not isinstance(t, int | np.integer) or not 1 <= t < n:
            raise ValueError(f"days must be integers in [1, n - 1] = [1, {n - 1}], got {days}")
    for t in dict.fromkeys(int(d) for d in days):
        ones, zeros = list(rewards), list(rewards)
        ones[t - 1], zeros[t - 1] = np.ones(num_arms), np.zeros(num_arms)
        sets = tuple(arms for _ in range(n))
        pairs.append(
            NeighbouringPair(
                Stream(sets, tuple(ones)),
                Stream(sets, tuple(zeros)),
                "t_neighbouring",
                f"rewards at day {t}",
            )
        )
    return pairs


def differing_day(stream: Stream, stream_prime: Stream) -> int:
    """The one day (1-based) on which two streams differ; ``ValueError`` if none or several."""
    if stream.n != stream_prime.n:
        raise ValueError("the two streams must have the same number of days")
    days = [
        day + 1
        for day in range(stream.n)
        if not (
            np.array_equal(stream.decision_sets[day], stream_prime.decision_sets[day])
            and np.array_equal(stream.reward_tables[day], stream_prime.reward_tables[day])
        )
    ]
    if len(days) != 1:
        raise ValueError(f"t-neighbouring streams differ on exactly one day, these on {days}")
    return days[0]


class Algorithm1Policy:
    """Algorithm 1 as a :class:`~audit.protocols.StreamPolicy`: a fresh :class:`LinUCB` per run.

    ``factory(n, rng)`` builds the policy for a horizon ``n`` with mechanism generator ``rng``
    (e.g. ``lambda n, rng: make_policy("gaussian", constants, n, 1/n, rng, privacy)``).
    """

    def __init__(self, factory: Callable[[int, np.random.Generator], LinUCB], label: str) -> None:
        self.factory = factory
        self.label = label

    def run(
        self, decision_sets: FloatArray, reward_tables: FloatArray, rng: np.random.Generator
    ) -> IntArray:
        n = len(decision_sets)
        policy = self.factory(n, rng)
        actions = np.zeros(n, dtype=np.int64)
        for day, (arms, rewards) in enumerate(zip(decision_sets, reward_tables, strict=True)):
            index = policy.select(arms)
            policy.update(arms[index], float(rewards[index]))
            actions[day] = index
        return actions

    def __repr__(self) -> str:
        return f"Algorithm1Policy({self.label})"


def action_count_features(num_arms: int) -> Callable[[FloatArray], FloatArray]:
    """Features of a transcript of later actions: how often each arm index was chosen, and the
    first later action (shape ``(runs, num_arms + 1)``)."""
    num_arms = check_int_at_least("num_arms", num_arms, 1)

    def features(actions: FloatArray) -> FloatArray:
        a = np.asarray(actions, dtype=np.int64)
        counts = np.stack([(a == k).sum(axis=1) for k in range(num_arms)], axis=1)
        return np.column_stack([counts, a[:, 0]]).astype(np.float64)

    return features


def _transcripts(
    policy: StreamPolicy,
    stream: Stream,
    t: int,
    seeds: list[np.random.SeedSequence],
    earlier_days: bool = False,
) -> FloatArray:
    rows = []
    for run, child in enumerate(seeds, start=1):
        actions = check_actions(
            policy.run(
                stream.decision_sets,  # type: ignore[arg-type]
                stream.reward_tables,  # type: ignore[arg-type]
                np.random.default_rng(child),
            ),
            stream.decision_sets,
            f"the actions {policy!r} returned on run {run}",
        )
        # days t+1..n (0-based index t onwards), after days 1..t-1 if asked
        rows.append(
            np.concatenate([actions[: t - 1], actions[t:]]) if earlier_days else actions[t:]
        )
    return np.asarray(rows, dtype=np.float64)


def collect_transcripts(
    policy: StreamPolicy,
    stream: Stream,
    stream_prime: Stream,
    t: int,
    *,
    runs: int,
    seed: int,
    earlier_days: bool = False,
) -> tuple[FloatArray, FloatArray]:
    """``runs`` transcripts (actions of days ``t + 1 .. n``; with ``earlier_days`` of every day but
    ``t``, days ``1 .. t − 1`` first, all that joint DP lets the adversary see) on each stream,
    mechanism seeds spawned from ``seed``; checks that the streams are t-neighbours and that every
    run returns one valid arm index per day (:func:`audit.protocols.check_actions`)."""
    runs = check_int_at_least("runs", runs, 4)
    seed = check_seed(seed)
    t = check_int_at_least("t", t, 1)
    if t >= stream.n:
        raise ValueError(f"t must be in [1, n - 1] = [1, {stream.n - 1}], got {t}")
    if stream.n != stream_prime.n:
        raise ValueError("the two streams must have the same number of days")
    for day in range(stream.n):
        if day + 1 != t and not (
            np.array_equal(stream.decision_sets[day], stream_prime.decision_sets[day])
            and np.array_equal(stream.reward_tables[day], stream_prime.reward_tables[day])
        ):
            raise ValueError(f"streams must be t-neighbours (t={t}) but differ on day {day + 1}")
    children = as_seed_sequence(seed).spawn(2 * runs)
    return _transcripts(policy, stream, t, children[:runs], earlier_days), _transcripts(
        policy, stream_prime, t, children[runs:], earlier_days
    )


def stream_audit(
    policy: StreamPolicy,
    stream: Stream,
    stream_prime: Stream,
    t: int,
    claim: PrivacyClaim,
    *,
    runs: int,
    seed: int,
    name: str = "stream",
    features: Callable[[FloatArray], FloatArray] | None = None,
    confidence: float = 0.95,
) -> PrivacyAuditResult:
    """Black-box joint-DP audit: ``runs`` runs on each stream (mechanism seeds spawned from
    ``seed``), observing the actions of days ``t + 1 .. n``.  ``claim`` must be made under the
    ``"t_neighbouring"`` relation (Definition 1).

    Every run's actions are checked before any statistic is computed
    (:func:`audit.protocols.check_actions`): shape ``(n,)``, integer values (an integer dtype, or
    floats that are all exact integers; fractions, NaN, infinities, booleans refused), each in
    ``[0, K_t)`` for the ``K_t`` arms of its day.  ``ValueError`` names the run and the day.
    """
    t0 = time.perf_counter()
    check_in_range("confidence", confidence, 0.0, 1.0)
    check_one_day_claim(claim, "streams")
    out_s, out_sp = collect_transcripts(policy, stream, stream_prime, t, runs=runs, seed=seed)
    num_arms = max(int(a.shape[0]) for a in stream.decision_sets)
    return event_audit_from_samples(
        out_s,
        out_sp,
        claim,
        name=name,
        mechanism=repr(policy),
        features=features if features is not None else action_count_features(num_arms),
        confidence=confidence,
        seed=check_seed(seed),
        started=t0,
    )
