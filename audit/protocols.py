"""The plug-in API: what a mechanism, a neighbouring pair and a privacy claim are.

Anything that satisfies these :class:`typing.Protocol` s can be audited; nothing needs to inherit
from a privonline class.  A black-box mechanism has ``sample(data, rng, size)`` returning ``size``
independent outputs stacked along axis 0; a white-box one also has ``log_density(data, outputs)``
(``-inf`` where impossible, against a base measure that does not depend on ``data``).  The
``check_*`` functions at the end of this module check what an audit accepts (finite outputs of one
shape, ``size`` rows, no NaN log-density, integer arm indices in range, a claim of the pair's own
relation) and refuse with a ``ValueError`` naming the side (``x`` or ``x'``).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import (
    Any,
    Generic,
    Literal,
    Protocol,
    TypeAlias,
    TypeVar,
    get_args,
    runtime_checkable,
)

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.validation import check_finite, check_in_range

__all__ = [
    "DensityMechanism",
    "Mechanism",
    "NeighbourRelation",
    "NeighbouringPair",
    "OnlinePolicy",
    "PrivacyClaim",
    "ReleasingPolicy",
    "StreamPolicy",
    "check_actions",
    "check_claim_matches_pair",
    "check_log_densities",
    "check_one_day_claim",
    "check_outputs",
    "check_same_output_space",
]

NeighbourRelation: TypeAlias = Literal["add_remove", "replace_one", "t_neighbouring"]
"""The neighbouring relation a claim is made under: add or remove one record; replace one record;
or t-neighbouring streams (Shariff & Sheffet Sec. 2: the data of one day ``t`` replaced)."""

DataT = TypeVar("DataT")
DataT_contra = TypeVar("DataT_contra", contravariant=True)


@runtime_checkable
class Mechanism(Protocol[DataT_contra]):
    """A randomised algorithm, seen from outside."""

    def sample(self, data: DataT_contra, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` independent outputs on input ``data``, stacked along axis 0."""
        ...


@runtime_checkable
class DensityMechanism(Mechanism[DataT_contra], Protocol[DataT_contra]):
    """A mechanism whose output density the auditor may read (white box)."""

    def log_density(self, data: DataT_contra, outputs: FloatArray) -> FloatArray:
        """``log p_data(o)`` for each output ``o`` (shape ``(size,)``); ``-inf`` off the support."""
        ...


@runtime_checkable
class StreamPolicy(Protocol):
    """A bandit algorithm run on a whole input stream (for joint-DP audits).

    ``run`` consumes a fixed stream (decision sets ``(n, K, d)`` and reward tables ``(n, K)``) and
    returns the index of the action it took on each day (shape ``(n,)``, integer values in
    ``[0, K_t)``; the audits check this with :func:`check_actions`).
    """

    def run(
        self, decision_sets: FloatArray, reward_tables: FloatArray, rng: np.random.Generator
    ) -> np.ndarray[Any, np.dtype[np.int64]]:
        """Actions taken on each day."""
        ...


@runtime_checkable
class OnlinePolicy(Protocol):
    """An online linear learner run on a whole loss sequence (Agarwal & Singh Sec. 2).

    ``play`` receives an oblivious loss sequence ``(n, N)`` and returns the point ``x_t`` it
    published on each round (shape ``(n, N)``, finite).  ``x_t`` may depend only on the losses of
    rounds before ``t``: all of ``l_s`` (full information), or only ``<l_s, x_s>`` (bandit
    feedback; the learner is trusted to read no more).  Neighbouring sequences differ in one
    round's loss vector (Definition 2.1); the adversary sees every published point.
    """

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        """The published points ``x_1 .. x_n``."""
        ...


@runtime_checkable
class ReleasingPolicy(Protocol):
    """A policy that also exposes what it *releases* (optional, for the release-level audit).

    ``release_mechanism()`` returns a :class:`Mechanism` (a :class:`DensityMechanism` to be
    audited in white box) whose ``data`` is the stream of records the policy feeds its private
    aggregator, an array ``(n, m)`` with one record per day, and whose ``sample`` returns every
    value the aggregator releases over the ``n`` days (e.g. a tree's noisy node sums), one row per
    draw.  Records are the rows ``(x, y)``, ``‖x‖₂ ≤ 1``, ``|y| ≤ 1`` (``m = d + 1``) for a linear
    contextual policy, and the loss vectors ``l ∈ Y`` (``m = N``) for an online learner.  The
    policy's actions are post-processing of these releases, so a violation here is a violation of
    the policy's claim, and tree-level bugs show here first.  A mechanism that releases nothing
    before some day may state the record-stream length it needs as an ``int`` attribute ``days``
    (e.g. the end of DP-SE's first epoch); the check then builds record streams of that length.
    """

    def release_mechanism(self) -> Mechanism[FloatArray]:
        """The aggregator as a mechanism on record streams."""
        ...


def _check_relation(relation: object) -> None:
    if not isinstance(relation, str) or relation not in get_args(NeighbourRelation):
        raise ValueError(
            f"relation must be 'add_remove', 'replace_one' or 't_neighbouring', got {relation!r:.80}"
        )


@dataclass(frozen=True)
class PrivacyClaim:
    """A claimed guarantee ``(ε, δ)`` (pure ε-DP when ``δ = 0``) under a neighbouring relation.

    ``P[M(x) ∈ S] ≤ e^ε P[M(x') ∈ S] + δ`` for every event ``S`` and both orders of every pair
    of neighbours ``(x, x')``.
    """

    epsilon: float
    delta: float
    relation: NeighbourRelation = "replace_one"
    label: str = ""

    def __post_init__(self) -> None:
        eps = check_finite("epsilon", self.epsilon)
        if eps < 0.0:
            raise ValueError(f"epsilon must be in [0, inf), got {self.epsilon}")
        check_in_range("delta", self.delta, 0.0, 1.0, low_open=False)
        _check_relation(self.relation)

    def bound(self, p_prime: float) -> float:
        """The largest ``P[S]`` the claim allows when ``P'[S] = p_prime``."""
        return min(1.0, math.exp(self.epsilon) * p_prime + self.delta)


@dataclass(frozen=True)
class NeighbouringPair(Generic[DataT]):
    """Two neighbouring inputs ``x`` and ``x'`` and the relation that makes them neighbours."""

    x: DataT
    x_prime: DataT
    relation: NeighbourRelation = "replace_one"
    description: str = ""

    def __post_init__(self) -> None:
        _check_relation(self.relation)


# ------------------------------------------------------------------------------------------------
# What an audit accepts from the code under test (checked before any statistic is computed)
# ------------------------------------------------------------------------------------------------


def check_claim_matches_pair(claim: PrivacyClaim, pair: NeighbouringPair[Any]) -> None:
    """A claim is tested on a pair of neighbours *under the claim's own relation*: refuse a pair
    whose relation differs (auditing a replace-one claim on add/remove neighbours, or the reverse,
    tests a different guarantee than the one claimed)."""
    if claim.relation != pair.relation:
        raise ValueError(
            f"claim.relation must equal pair.relation: the claim is made under "
            f"{claim.relation!r} but the pair are {pair.relation!r} neighbours"
        )


def check_one_day_claim(claim: PrivacyClaim, inputs: str) -> None:
    """A claim about ``inputs`` that differ on one day (streams, loss sequences, record streams)
    must be made under ``"t_neighbouring"``: ``ValueError`` otherwise, naming ``claim.relation``."""
    if claim.relation != "t_neighbouring":
        raise ValueError(
            f"claim.relation must be 't_neighbouring' for {inputs} that differ on one day, "
            f"got {claim.relation!r}"
        )


def _count_nonfinite(arr: np.ndarray[Any, Any]) -> str:
    """``"3 NaN values"``, ``"2 +inf values"`` or ``"3 NaN and 1 +inf and 1 -inf values"``."""
    nan = int(np.isnan(arr).sum())
    pos = int((arr == np.inf).sum())
    neg = int((arr == -np.inf).sum())
    parts = [
        f"{nan} NaN" if nan else "",
        f"{pos} +inf" if pos else "",
        f"{neg} -inf" if neg else "",
    ]
    return " and ".join(part for part in parts if part) + " values"


def _float_array(value: object, name: str, expected: str) -> FloatArray:
    """``value`` as a float64 array (no copy when it already is one); when numpy cannot convert it,
    a ``ValueError`` ``"<name> must be <expected>, got <type> (<numpy's reason>)"``.  The first
    step of every ``check_*`` here and of the audits' own input checks."""
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be {expected}, got {type(value).__name__} ({err})") from err


def check_outputs(
    outputs: object, size: int | None, name: str, *, finite: bool = True
) -> FloatArray:
    """Mechanism outputs (or features) as a float array with ``size`` rows, every entry finite.

    ``size=None`` accepts any positive number of rows (samples drawn by the caller).  A NaN or
    infinite output is refused: no event frequency or density computed from it means anything,
    and silently dropping it would change the law being audited.  ``name`` says which side it is
    (e.g. ``"outputs under x'"``).  ``finite=False`` checks the shape only, for raw outputs that a
    feature map turns into what is audited (a mechanism may encode "no release" as NaN if its
    feature map handles it; the features are then checked).
    """
    arr = _float_array(outputs, name, "a numeric array of outputs stacked along axis 0")
    if arr.ndim == 0:
        raise ValueError(f"{name} must stack outputs along axis 0, got a scalar")
    if size is None and arr.shape[0] == 0:
        raise ValueError(f"{name} must hold at least one output, got an array of shape {arr.shape}")
    if size is not None and arr.shape[0] != size:
        raise ValueError(
            f"{name} must stack {size} outputs along axis 0, got an array of shape {arr.shape}"
        )
    if finite and not np.isfinite(arr).all():
        raise ValueError(f"{name} contain {_count_nonfinite(arr)}; an audit needs finite outputs")
    return arr


def check_same_output_space(
    outputs: FloatArray, outputs_prime: FloatArray, name: str, name_prime: str
) -> None:
    """Outputs under ``x`` and ``x'`` must be of one shape per output (one output space): an event
    or a density compares the two laws on the same outputs, so ``(size, 1)`` against
    ``(size, 2)`` is refused rather than read through a common first column."""
    if outputs.shape[1:] != outputs_prime.shape[1:]:
        raise ValueError(
            f"{name} and {name_prime} must have the same shape per output (one output space), "
            f"got {outputs.shape[1:]} and {outputs_prime.shape[1:]} "
            f"(arrays of shape {outputs.shape} and {outputs_prime.shape})"
        )


def check_log_densities(
    values: object, size: int, name: str, *, generating: bool, other: str = "the other input"
) -> FloatArray:
    """``log_density`` of a :class:`DensityMechanism` at ``size`` outputs, as a float array.

    Required: shape ``(size,)`` and no NaN.  Under the input that generated the outputs
    (``generating=True``) every value must be finite (an output is possible under the law it was
    drawn from); under the other input ``-inf`` is allowed (the output is impossible there, a
    privacy loss of ``+inf``) but ``+inf`` is not.  ``other`` names that input in the message.
    """
    arr = _float_array(values, name, f"a numeric array of shape ({size},)")
    if arr.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), one value per output, got {arr.shape}")
    if generating and not np.isfinite(arr).all():
        raise ValueError(
            f"{name} contain {_count_nonfinite(arr)}; the density of the input that generated "
            "the outputs must be finite on them"
        )
    bad = np.isnan(arr) | (arr == np.inf)
    if bad.any():
        raise ValueError(
            f"{name} contain {_count_nonfinite(arr[bad])}; allowed: finite values, "
            f"or -inf where an output is impossible under {other}"
        )
    return arr


def check_actions(
    actions: object, decision_sets: Sequence[Any] | FloatArray, name: str
) -> IntArray:
    """The action indices a :class:`StreamPolicy` returned for one run, as ``int64``.

    Required: one action per day (shape ``(n,)``); integer values -- an integer dtype, or a float
    dtype whose values are all exact integers (``2.0`` is arm 2); booleans, strings, objects,
    NaN, infinities and fractions are refused -- and day ``t``'s action in ``[0, K_t)`` for its
    ``K_t`` arms.  Nothing is rounded, truncated or wrapped.
    """
    n = len(decision_sets)
    try:
        arr = np.asarray(actions)
    except ValueError as err:  # ragged nested sequences
        raise ValueError(
            f"{name} must be an array of shape ({n},), one action per day: {err}"
        ) from err
    if arr.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), one action per day, got {arr.shape}")
    if arr.dtype == np.bool_ or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(f"{name} must be integer arm indices, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} contain {_count_nonfinite(arr)}; actions are arm indices")
        fractional = np.flatnonzero(arr != np.round(arr))
        if fractional.size:
            day = int(fractional[0])
            raise ValueError(
                f"{name} must be integer arm indices, got non-integer values ({fractional.size} "
                f"of {n}; day {day + 1}: {float(arr[day])!r})"
            )
    sizes = np.array([len(arms) for arms in decision_sets], dtype=np.int64)
    # compared in the returned dtype, before any cast (a huge float or uint must not wrap around)
    bad = np.flatnonzero((arr < 0) | (arr >= sizes))
    if bad.size:
        day = int(bad[0])
        raise ValueError(
            f"{name}: the action of day {day + 1} must be in [0, {int(sizes[day])}) (the arms of "
            f"that day), got {arr[day].item()!r}; {bad.size} of {n} actions are out of range"
        )
    return arr.astype(np.int64)
