"""``privonline check``: audit a third-party implementation against a claim (and the reference).

The target is a **mechanism** with a neighbouring pair (``--pair``; white box with a density,
else black box) or a **policy** of a :data:`POLICY_KINDS` kind (linear contextual, multi-armed,
online learner): its outputs audited over searched neighbouring streams (Holm over the judged
ones), its releases too if it exposes them (:class:`~audit.protocols.ReleasingPolicy`), and its
regret compared with the papers' matching reference.  The target runs in a child process under
time limits, its prints captured (:mod:`audit.watchdog`).  Privacy and utility get separate
verdicts; the exit codes are :data:`~audit.check_report.EXIT_CODES` (2: usage error).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import pickle
import random
import sys
import time
import traceback
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, cast, get_args

import numpy as np
from tqdm import tqdm

from audit.check_report import CheckReport
from audit.methods.black_box import event_audit
from audit.methods.online import online_stream_audit, online_streams
from audit.methods.pairs import Tester, searched_audit
from audit.methods.release import RecordKind, release_audit, release_mechanism
from audit.methods.stream import (
    Stream,
    differing_day,
    multi_armed_streams,
    neighbouring_streams,
    stream_audit,
)
from audit.methods.white_box import white_box_audit
from audit.papers.agarwal_singh.regret import OnlineRegretResult, online_regret_check
from audit.papers.sajed_sheffet.regret import (
    DEFAULT_MEANS,
    MULTI_ARMED_REFERENCES,
    MultiArmedRegretResult,
    multi_armed_regret_check,
)
from audit.papers.shariff_sheffet.regret import (
    RegressionCheckResult,
    regret_regression_check,
)
from audit.protocols import (
    DensityMechanism,
    Mechanism,
    NeighbouringPair,
    NeighbourRelation,
    OnlinePolicy,
    PrivacyClaim,
    StreamPolicy,
    check_claim_matches_pair,
)
from audit.results import PrivacyAuditResult
from audit.watchdog import (
    Watch,
    WatchOutcome,
    run_in_process,
    run_watched,
)
from reference._typing import FloatArray
from reference.agarwal_singh.sets import LossSetKind
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.files import prepare_output_dir
from reference.rng import check_seed
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    PrivacyParameters,
    ProblemConstants,
    regularizer_spec,
)
from reference.validation import (
    check_bool,
    check_choice,
    check_in_range,
    check_int_at_least,
    check_positive,
    float_in,
    int_at_least,
)

LOSS_SET_KINDS: tuple[LossSetKind, ...] = get_args(LossSetKind)

__all__ = [
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_HORIZONS",
    "POLICY_KINDS",
    "STREAM_TOP",
    "PairClaim",
    "RescaledRecords",
    "RescaledRecordsDensity",
    "RescaledRewards",
    "SeededGlobals",
    "SeededGlobalsDensity",
    "SeededGlobalsMechanism",
    "SeededGlobalsOnline",
    "TargetError",
    "build_parser",
    "load_object",
    "load_pair",
    "load_target",
    "main",
    "online_search_audit",
    "run_check",
    "stated_calibration",
    "stream_search_audit",
]


PolicyKind = Literal["linear", "multi_armed", "online_full", "online_bandit"]
POLICY_KINDS: tuple[PolicyKind, ...] = ("linear", "multi_armed", "online_full", "online_bandit")
"""Kinds of policy ``privonline check`` knows: linear contextual (Shariff & Sheffet; streams that
change a day's contexts, rewards or both; regret against Algorithm 1), multi-armed (Sajed &
Sheffet; streams that change a day's rewards, in ``{0, 1}``; regret against DP-SE), and online
learners with full information or bandit feedback (Agarwal & Singh, an
:class:`~audit.protocols.OnlinePolicy`; sequences that change one round's loss vector in ``Y``;
regret against their Algorithm 1, or Algorithm 4 over EXP2)."""

DEFAULT_HORIZONS: dict[PolicyKind, int] = {
    "linear": 300,
    "multi_armed": 20_000,
    "online_full": 2000,
    "online_bandit": 2000,
}
"""Horizon of the regret runs of each kind when ``--n`` is not given."""

ONLINE_DIM = 5
"""Dimension ``N`` (experts, arms) of the online learners' loss vectors in the check."""

LINEAR_FIRST_ROUND = 16
"""The first round at which a linear policy's regret is read for the scaling fit (so ``n`` must
exceed it)."""

DEFAULT_CALL_TIMEOUT = 600.0
"""Seconds one call of the target (an import, a construction, one ``run``/``play``/``sample``)
may take by default before the check stops it (``--call-timeout``)."""


def _calling(watch: Watch | None, label: str) -> AbstractContextManager[None]:
    """``watch.calling(label)``: the code inside is one call of the target (time-limited)."""
    return contextlib.nullcontext() if watch is None else watch.calling(label)


def _seed_globals(rng: np.random.Generator) -> None:
    """Seed Python's and numpy's global generators from ``rng`` (for code that uses them)."""
    np.random.seed(int(rng.integers(2**32)))  # noqa: NPY002 -- the legacy global is the point
    random.seed(int(rng.integers(2**63)))


class _Seeded:
    """A wrapped target: every call into it is marked on ``watch`` (:mod:`audit.watchdog`)."""

    def __init__(self, inner: Any, watch: Watch | None = None) -> None:
        self.inner, self.watch = inner, watch

    def __repr__(self) -> str:
        with _calling(self.watch, "__repr__()"):
            return repr(self.inner)


class SeededGlobals(_Seeded):
    """A policy run with Python's and numpy's *global* generators seeded from the ``rng`` each
    ``run`` receives: implementations that draw from ``numpy.random.*`` or ``random`` instead of
    the generator they are given become reproducible (same seed, same report) and their runs
    independent (each run's seeds are spawned apart).  The global state is changed, as the
    wrapped code expects.  ``watch``: each call is marked on it (the per-call time limit)."""

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The wrapped policy's ``run`` after seeding the global generators from ``rng``."""
        with _calling(self.watch, "run()"):
            _seed_globals(rng)
            return self.inner.run(decision_sets, reward_tables, rng)


class SeededGlobalsOnline(_Seeded):
    """:class:`SeededGlobals` for an online learner: ``play`` after seeding the global
    generators from ``rng``."""

    def play(self, losses: Any, rng: np.random.Generator) -> Any:
        """The wrapped learner's ``play`` after seeding the global generators from ``rng``."""
        with _calling(self.watch, "play()"):
            _seed_globals(rng)
            return self.inner.play(losses, rng)


class SeededGlobalsMechanism(_Seeded):
    """:class:`SeededGlobals` for a mechanism: ``sample`` after seeding the global generators."""

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        """The wrapped mechanism's ``sample`` after seeding the global generators from ``rng``."""
        with _calling(self.watch, "sample()"):
            _seed_globals(rng)
            return self.inner.sample(data, rng, size)


class SeededGlobalsDensity(SeededGlobalsMechanism):
    """:class:`SeededGlobalsMechanism` that keeps the wrapped mechanism's ``log_density``."""

    def log_density(self, data: Any, outputs: Any) -> Any:
        """The wrapped mechanism's ``log_density``."""
        with _calling(self.watch, "log_density()"):
            return self.inner.log_density(data, outputs)


class RescaledRewards:
    """A policy that expects rewards in ``[low, high]``: each reward table of the audit's
    ``[−1, 1]`` streams is mapped affinely, ``r ↦ low + (r + 1)(high − low)/2``, before the wrapped
    ``run`` sees it (``--reward-range``).  The map is one-to-one, so neighbouring streams stay
    neighbouring and the claim is unchanged."""

    def __init__(self, inner: Any, low: float, high: float) -> None:
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"reward range must be finite with low < high, got [{low}, {high}]")
        self.inner, self.low, self.high = inner, float(low), float(high)

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The wrapped policy's ``run`` on the rescaled reward tables."""
        scale = (self.high - self.low) / 2.0
        tables = tuple(self.low + (np.asarray(r, dtype=np.float64) + 1.0) * scale
                       for r in reward_tables)  # fmt: skip
        return self.inner.run(decision_sets, tables, rng)

    def __repr__(self) -> str:
        return f"{self.inner!r} (rewards rescaled to [{self.low:g}, {self.high:g}])"


class RescaledRecords:
    """:class:`RescaledRewards` for a release mechanism: the reward column (the last) of the
    audit's linear records ``(x, y)``, ``y ∈ [−1, 1]``, mapped affinely to ``[low, high]``."""

    def __init__(self, inner: Any, low: float, high: float) -> None:
        self.inner, self.low, self.high = inner, float(low), float(high)

    def _map(self, data: Any) -> Any:
        out = np.array(data, dtype=np.float64)
        out[:, -1] = self.low + (out[:, -1] + 1.0) * (self.high - self.low) / 2.0
        return out

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        """The wrapped mechanism's ``sample`` on the rescaled records."""
        return self.inner.sample(self._map(data), rng, size)

    def __repr__(self) -> str:
        return f"{self.inner!r} (rewards rescaled to [{self.low:g}, {self.high:g}])"


class RescaledRecordsDensity(RescaledRecords):
    """:class:`RescaledRecords` that keeps the wrapped mechanism's ``log_density``."""

    def log_density(self, data: Any, outputs: Any) -> Any:
        """The wrapped mechanism's ``log_density`` on the rescaled records."""
        return self.inner.log_density(self._map(data), outputs)


def stated_calibration(target: Any) -> dict[str, float] | None:
    """The ``epsilon`` and ``delta`` a target states as numeric attributes (either or both), or
    ``None``; a wrapper's inner target is read through."""
    inner = getattr(target, "inner", target)
    found = {}
    for key in ("epsilon", "delta"):
        value = getattr(inner, key, None)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            found[key] = float(value)
    return found or None


def _with_seeded_globals(target: Any, watch: Watch | None = None) -> Any:
    if isinstance(target, StreamPolicy):
        return SeededGlobals(target, watch)
    if isinstance(target, OnlinePolicy):
        return SeededGlobalsOnline(target, watch)
    if isinstance(target, DensityMechanism):
        return SeededGlobalsDensity(target, watch)
    return SeededGlobalsMechanism(target, watch)


class TargetError(ValueError):
    """The target's own code raised while it was imported or built (a ``SyntaxError`` in its
    module, an exception at import or in its constructor): its failure, not the user's;
    ``privonline check`` reports it with exit code 4 and :attr:`traceback` in the report."""

    def __init__(self, message: str, traceback_text: str) -> None:
        super().__init__(message)
        self.traceback = traceback_text


def _split_spec(name: str, spec: object) -> tuple[str, str]:
    """``(module, attribute)`` of a ``module:attribute`` spec; ``ValueError`` naming ``name``."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise ValueError(f"{name} must be 'module:attribute', got {spec!r}")
    module_name, attribute = spec.split(":")
    if not all(part.isidentifier() for part in module_name.split(".")) or not (
        attribute.isidentifier()
    ):
        raise ValueError(
            f"{name} must be 'module:attribute' with a dotted module name and an identifier, "
            f"got {spec!r}"
        )
    return module_name, attribute


def _check_paths(paths: object) -> tuple[str, ...]:
    """``paths`` as a tuple of folder names (a bare string is refused, not split into letters)."""
    if isinstance(paths, str | bytes) or not isinstance(paths, Sequence):
        raise ValueError(f"paths must be a sequence of folder names, got {paths!r:.80}")
    for path in paths:
        if not isinstance(path, str):
            raise ValueError(f"paths must hold folder names (str), got {path!r:.80}")
    return tuple(paths)


def _module_missing(error: ModuleNotFoundError, module_name: str) -> bool:
    """Whether ``error`` says the named module itself (or a package on its path) does not exist,
    rather than something its code imports."""
    parts = module_name.split(".")
    return error.name in {".".join(parts[: i + 1]) for i in range(len(parts))}


def load_object(spec: str, paths: Sequence[str] = (), watch: Watch | None = None) -> Any:
    """Import ``module:attribute`` after prepending ``paths`` to ``sys.path``.

    A module that does not exist, or has no such attribute, is a ``ValueError``; any exception
    its code raises while it is imported (``SyntaxError``, ``RuntimeError``, ``SystemExit``, a
    module *it* imports missing) is a :class:`TargetError` carrying the traceback.  ``watch``
    marks the import as one call of the target."""
    module_name, attribute = _split_spec("target", spec)
    for path in reversed(_check_paths(paths)):
        if path not in sys.path:
            sys.path.insert(0, path)
    try:
        with _calling(watch, f"import of module {module_name!r}"):
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if not _module_missing(error, module_name):
            raise TargetError(
                f"target module {module_name!r} raised while it was imported: {error}",
                traceback.format_exc(),
            ) from error
        raise ValueError(f"target module {module_name!r} cannot be imported: {error}") from error
    except (Exception, SystemExit) as error:
        raise TargetError(
            f"target module {module_name!r} raised while it was imported: "
            f"{type(error).__name__}: {error}",
            traceback.format_exc(),
        ) from error
    with _calling(watch, f"lookup of {attribute!r} in module {module_name!r}"):
        if not hasattr(module, attribute):
            raise ValueError(f"target module {module_name!r} has no attribute {attribute!r}")
        return getattr(module, attribute)


def _is_target(value: Any) -> bool:
    return isinstance(value, StreamPolicy | OnlinePolicy | Mechanism)


def load_target(
    spec: str,
    paths: Sequence[str] = (),
    kwargs: dict[str, Any] | None = None,
    watch: Watch | None = None,
) -> StreamPolicy | OnlinePolicy | Mechanism[Any]:
    """The policy or mechanism named ``module:attribute``; a class or factory is called first,
    with ``kwargs`` (``--target-kwargs``).  A class is always instantiated: the class object
    itself has the protocol's methods as plain functions, so it would pass a runtime protocol
    check.  ``kwargs`` for a target that is already an instance is a ``ValueError``; an exception
    other than ``TypeError`` (wrong arguments) raised by the constructor is a
    :class:`TargetError`."""
    target: Any = load_object(spec, paths, watch)
    kwargs = {} if kwargs is None else dict(kwargs)
    with _calling(watch, f"protocol check of {spec!r}"):
        build = isinstance(target, type) or (not _is_target(target) and callable(target))
    if build:
        try:
            with _calling(watch, f"construction of {spec!r}"):
                target = target(**kwargs)
        except TypeError as err:
            given = f"with --target-kwargs {json.dumps(kwargs)}" if kwargs else "with no arguments"
            raise ValueError(
                f"target {spec!r} cannot be constructed {given}: {err}; pass its constructor "
                "arguments as a JSON object with --target-kwargs"
            ) from err
        except (Exception, SystemExit) as err:
            raise TargetError(
                f"target {spec!r} raised while it was constructed: {type(err).__name__}: {err}",
                traceback.format_exc(),
            ) from err
    elif kwargs:
        raise ValueError(
            f"target {spec!r} is already an instance: --target-kwargs applies only to a class "
            "or factory"
        )
    with _calling(watch, f"protocol check of {spec!r}"):
        satisfied = _is_target(target)
    if not satisfied:
        raise ValueError(
            f"target {spec!r} must satisfy audit.protocols.StreamPolicy (run(decision_sets, "
            "reward_tables, rng) -> actions), audit.protocols.OnlinePolicy (play(losses, rng) -> "
            "points) or audit.protocols.Mechanism (sample(data, rng, size))"
        )
    return cast(StreamPolicy | OnlinePolicy | Mechanism[Any], target)


def load_pair(
    spec: str, paths: Sequence[str] = (), watch: Watch | None = None
) -> NeighbouringPair[Any]:
    """The :class:`~audit.protocols.NeighbouringPair` named ``module:attribute``."""
    _split_spec("pair", spec)
    pair = load_object(spec, paths, watch)
    if not isinstance(pair, NeighbouringPair):
        raise ValueError(f"pair {spec!r} must be an audit.protocols.NeighbouringPair")
    return pair


@dataclass(frozen=True)
class PairClaim:
    """A claimed ``(ε, δ)`` under the neighbouring relation of the pair it is audited on (what
    the command line claims for a mechanism): the check builds the
    :class:`~audit.protocols.PrivacyClaim` once it has loaded the pair, labelled with it."""

    epsilon: float
    delta: float

    def __post_init__(self) -> None:
        PrivacyClaim(self.epsilon, self.delta)  # the same checks of epsilon and delta

    def under(self, relation: NeighbourRelation, pair: str) -> PrivacyClaim:
        """The claim under ``relation``, the relation of the pair ``pair`` (its spec)."""
        label = f"claimed (ε, δ) under {relation!r} (the relation of --pair {pair})"
        return PrivacyClaim(self.epsilon, self.delta, relation, label)


STREAM_TOP = 2
"""How many screened candidate stream pairs the policy check audits afresh and judges."""


def stream_search_audit(
    policy: StreamPolicy,
    claim: PrivacyClaim,
    *,
    n: int,
    runs: int,
    seed: int,
    confidence: float,
    name: str,
    kind: PolicyKind = "linear",
    progress: Any = None,
) -> PrivacyAuditResult:
    """The joint-DP audit over the candidate streams of the policy's kind
    (:func:`audit.methods.stream.neighbouring_streams`: a day's contexts, rewards or both;
    :func:`~audit.methods.stream.multi_armed_streams`: a day's rewards; at days 1 and ``n // 2``),
    searched and judged as one family (:func:`audit.methods.pairs.searched_audit`: screened on
    ``runs // 4`` runs, the :data:`STREAM_TOP` best audited afresh on ``runs``, Holm at
    ``1 − confidence``).  ``progress``: a tqdm bar advanced once per stream audit, or ``None``."""

    def tester_at(level: float) -> Tester[Stream]:
        def tester(pair: NeighbouringPair[Stream], samples: int, s: int) -> PrivacyAuditResult:
            return stream_audit(
                policy, pair.x, pair.x_prime, differing_day(pair.x, pair.x_prime), claim,
                runs=samples, seed=s, name=f"{name}: {pair.description}", confidence=level,
            )  # fmt: skip

        return tester

    candidates = (
        neighbouring_streams(n, seed=seed)
        if kind == "linear"
        else multi_armed_streams(n, len(DEFAULT_MEANS), seed=seed)
    )
    return searched_audit(
        candidates,
        tester_at,
        samples=runs,
        seed=seed,
        confidence=confidence,
        top=STREAM_TOP,
        name=name,
        progress=progress,
    )


_C = TypeVar("_C", bound=str)


def _one_of(name: str, value: object, choices: tuple[_C, ...]) -> _C:
    """The element of ``choices`` equal to ``value`` (``ValueError`` naming ``name`` if none)."""
    check_choice(name, value, choices)
    return next(choice for choice in choices if choice == value)


def _differing_round(losses: FloatArray, losses_prime: FloatArray) -> int:
    """The one round (1-based) in which two loss sequences differ."""
    rounds = np.flatnonzero(np.any(np.asarray(losses) != np.asarray(losses_prime), axis=1))
    if len(rounds) != 1:
        raise ValueError(f"neighbouring loss sequences differ in exactly one round, these in "
                         f"{(rounds + 1).tolist()}")  # fmt: skip
    return int(rounds[0]) + 1


def online_search_audit(
    policy: OnlinePolicy,
    claim: PrivacyClaim,
    *,
    n: int,
    runs: int,
    seed: int,
    confidence: float,
    name: str,
    loss_set: LossSetKind = "box01",
    progress: Any = None,
) -> PrivacyAuditResult:
    """:func:`stream_search_audit` for an online learner: the candidate loss sequences of
    :func:`audit.methods.online.online_streams` in ``loss_set`` (``N =`` :data:`ONLINE_DIM`;
    the worst-case replacement and one coordinate, at rounds 1 and ``n // 2``), each audited on
    the points published after the changed round (:func:`~audit.methods.online.online_stream_audit`)."""

    def tester_at(level: float) -> Tester[FloatArray]:
        def tester(pair: NeighbouringPair[FloatArray], samples: int, s: int) -> PrivacyAuditResult:
            return online_stream_audit(
                policy, pair.x, pair.x_prime, _differing_round(pair.x, pair.x_prime), claim,
                runs=samples, seed=s, name=f"{name}: {pair.description}", confidence=level,
            )  # fmt: skip

        return tester

    return searched_audit(
        online_streams(n, ONLINE_DIM, loss_set=loss_set, seed=seed),
        tester_at,
        samples=runs,
        seed=seed,
        confidence=confidence,
        top=STREAM_TOP,
        name=name,
        progress=progress,
    )


def _loss_set_of(policy: Any, loss_set: LossSetKind | None) -> LossSetKind:
    """``loss_set`` if given, else the loss set the target states (a ``loss_set`` attribute
    naming a kind of :class:`~reference.agarwal_singh.sets.LossSet`), else ``"box01"``."""
    if loss_set is not None:
        return check_choice("loss_set", loss_set, LOSS_SET_KINDS)
    stated = getattr(getattr(policy, "inner", policy), "loss_set", None)
    for kind in LOSS_SET_KINDS:
        if stated == kind:
            return kind
    return "box01"


def _check_claim(claim: object, pair: str | None) -> PrivacyClaim | PairClaim:
    """The claim, under the relation it must be audited under (before anything runs)."""
    if isinstance(claim, PairClaim):
        if pair is None:
            raise ValueError("claim: a PairClaim takes the relation of a pair; pass pair (--pair)")
        return claim
    if not isinstance(claim, PrivacyClaim):
        raise ValueError(f"claim must be an audit.protocols.PrivacyClaim, got {claim!r:.80}")
    if pair is None and claim.relation != "t_neighbouring":
        raise ValueError(
            "claim.relation must be 't_neighbouring' for a policy (audited on streams that differ "
            f"on one day), got {claim.relation!r}"
        )
    return claim


def _check_reward_range(reward_range: object) -> tuple[float, float] | None:
    if reward_range is None:
        return None
    if isinstance(reward_range, str) or not isinstance(reward_range, Sequence):
        raise ValueError(f"reward_range must be a pair (low, high), got {reward_range!r:.80}")
    if len(reward_range) != 2:
        raise ValueError(f"reward_range must be a pair (low, high), got {reward_range!r:.80}")
    low, high = (check_in_range("reward_range", v, -math.inf, math.inf) for v in reward_range)
    if not low < high:
        raise ValueError(f"reward_range must have low < high, got ({low:g}, {high:g})")
    return low, high


def _check_target_kwargs(kwargs: object) -> dict[str, Any] | None:
    if kwargs is None:
        return None
    if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
        raise ValueError(
            f"target_kwargs must be a dict of keyword arguments (str keys), got {kwargs!r:.80}"
        )
    try:
        pickle.dumps(kwargs)
    except Exception as err:  # the child process receives them pickled
        raise ValueError(
            f"target_kwargs must be picklable values, got {kwargs!r:.80}: {err}"
        ) from err
    return dict(kwargs)


def _check_limit(name: str, value: object) -> float | None:
    return None if value is None else check_positive(name, value)  # type: ignore[arg-type]


@dataclass(frozen=True)
class _Settings:
    """The numbers of a check, checked (:func:`run_check` documents each)."""

    n: int
    runs: int
    stream_n: int
    stream_runs: int
    seed: int
    confidence: float
    samples: int
    release_samples: int
    d: int
    num_arms: int
    gap: float


def _check_reference(
    kind: PolicyKind, reference: object, claim: PrivacyClaim, s: _Settings
) -> tuple[str | None, str | None]:
    """The regret reference of ``kind`` (and why, when chosen for the user), every argument of
    its comparison checked now, so that none fails after the privacy audit has run."""
    if kind == "linear":
        note = None
        if reference is None and claim.delta == 0.0:
            reference, note = (
                "nonprivate",
                (
                    "the non-private Algorithm 1 of Shariff & Sheffet: the claim is pure ε (δ = 0) "
                    "and the paper's private Algorithm 1 needs δ > 0, so the regret is compared with "
                    "the non-private one"
                ),
            )
        variant = _one_of("reference", "gaussian" if reference is None else reference, VARIANTS)
        if variant != "nonprivate" and claim.delta == 0.0:
            raise ValueError(
                f"reference {variant!r} needs δ > 0 (Shariff & Sheffet's private Algorithm 1), "
                "but the claim is pure ε (delta 0): drop --reference to compare with the "
                "non-private Algorithm 1"
            )
        if s.n <= LINEAR_FIRST_ROUND:
            raise ValueError(
                f"n must be an integer > {LINEAR_FIRST_ROUND} for a linear policy (its regret is "
                f"read from round {LINEAR_FIRST_ROUND} on), got {s.n}"
            )
        LinearGapEnvironment(s.d, s.num_arms, s.gap, np.random.default_rng(0))
        privacy = None if variant == "nonprivate" else PrivacyParameters(claim.epsilon, claim.delta)
        regularizer_spec(variant, ProblemConstants(d=s.d), s.n, 1.0 / s.n, privacy)
        return variant, note
    if kind == "multi_armed":
        armed = _one_of("reference", "dp_se" if reference is None else reference,
                        MULTI_ARMED_REFERENCES)  # fmt: skip
        check_in_range("epsilon", claim.epsilon, 0.0, math.inf)
        return armed, None
    if reference is not None:
        raise ValueError(
            f"reference (--reference) is fixed for {kind}: Agarwal & Singh's Algorithm 1 (full "
            "information) or Algorithm 4 over EXP2 (bandit); drop --reference"
        )
    check_in_range("epsilon", claim.epsilon, 0.0, math.inf)
    if kind == "online_full":
        cor32_parameters("experts", ONLINE_DIM, s.n, claim.epsilon, calibration="strict",
                         experts_losses="box01")  # fmt: skip
    else:
        thm41_parameters(ONLINE_DIM, s.n, claim.epsilon, preset="proof_consistent",
                         calibration="strict")  # fmt: skip
    return None, None


class _Progress:
    """What the child reports of its progress: the parent moves its bar (``update`` as tqdm's)."""

    def __init__(self, watch: Watch) -> None:
        self.watch, self.done, self.what = watch, 0, ""

    def describe(self, what: str, more: int) -> None:
        self.what = what
        self.watch.send(("progress", what, more))
        self.watch.send(("stage", what))

    def update(self, count: int = 1) -> None:
        self.done += count
        self.watch.send(("progress", None, count))
        self.watch.send(("stage", f"{self.what} ({self.done} audits done)"))


@dataclass(frozen=True)
class _CheckJob:
    """The body of a check, run in the child process (or here): it loads the target itself,
    audits it and sends each result as it is found (:mod:`audit.watchdog` events)."""

    target: str
    claim: PrivacyClaim | PairClaim
    paths: tuple[str, ...]
    target_kwargs: dict[str, Any] | None
    kind: PolicyKind | None
    reward_range: tuple[float, float] | None
    reference: str | None
    pair: str | None
    loss_set: LossSetKind | None
    settings: _Settings

    def __call__(self, watch: Watch) -> None:
        watch.send(("stage", "loading the target"))
        try:
            claim, target, neighbours, losses = self._load(watch)
        except TargetError as err:
            watch.send(("crash", err.traceback))
            return
        except ValueError as err:
            watch.send(("usage", str(err)))
            return
        try:
            if neighbours is not None:
                self._audit_mechanism(target, neighbours, claim, watch)
            else:
                self._audit_policy(target, claim, losses, watch)
        except (Exception, SystemExit):  # the target's own failure, reported with its traceback
            watch.send(("crash", traceback.format_exc()))

    def _load(
        self, watch: Watch
    ) -> tuple[PrivacyClaim, Any, NeighbouringPair[Any] | None, LossSetKind]:
        """The claim, the wrapped target, the mechanism's pair (``None`` for a policy) and an
        online learner's loss set."""
        claim, neighbours = self.claim, None
        if self.pair is not None:
            neighbours = load_pair(self.pair, self.paths, watch)
            if isinstance(claim, PairClaim):
                claim = claim.under(neighbours.relation, self.pair)
            check_claim_matches_pair(claim, neighbours)
        assert isinstance(claim, PrivacyClaim)
        watch.send(("claim", claim))
        raw = load_target(self.target, self.paths, self.target_kwargs, watch)
        policy = _with_seeded_globals(raw, watch)
        with _calling(watch, "reading its epsilon, delta and loss_set attributes"):
            watch.send(("stated", stated_calibration(policy)))
            losses = _loss_set_of(policy, self.loss_set)
        online = self.kind in ("online_full", "online_bandit")
        if isinstance(policy, SeededGlobals | SeededGlobalsOnline) and self.pair is not None:
            raise ValueError(
                f"pair (--pair) is for mechanisms only: target {self.target!r} is a policy, "
                "audited on the t-neighbouring streams of its kind; drop --pair"
            )
        if isinstance(policy, SeededGlobals) and online:
            raise ValueError(
                f"kind {self.kind!r} needs an audit.protocols.OnlinePolicy (play(losses, rng) -> "
                f"points), but target {self.target!r} is a bandit policy (run(decision_sets, "
                "reward_tables, rng)): pass --kind linear or multi_armed"
            )
        if isinstance(policy, SeededGlobalsOnline) and not online:
            raise ValueError(
                f"target {self.target!r} is an online learner (audit.protocols.OnlinePolicy): "
                "pass --kind online_full or online_bandit"
            )
        if isinstance(policy, SeededGlobalsMechanism) and self.pair is None:
            raise ValueError("pair must name a NeighbouringPair (module:attribute) for a mechanism")
        if self.reward_range is not None and isinstance(policy, SeededGlobals):
            policy = RescaledRewards(policy, *self.reward_range)
        return claim, policy, neighbours, losses

    def _audit_mechanism(
        self, mechanism: Any, neighbours: NeighbouringPair[Any], claim: PrivacyClaim, watch: Watch
    ) -> None:
        s = self.settings
        watch.send(("stage", "privacy: the mechanism on its pair"))
        audit = white_box_audit if isinstance(mechanism, DensityMechanism) else event_audit
        box = "white box" if isinstance(mechanism, DensityMechanism) else "black box"
        result = audit(
            mechanism, neighbours, claim, samples=s.samples, seed=s.seed,
            name=f"{self.target} {box}", confidence=s.confidence,
        )  # fmt: skip
        watch.send(("privacy", result))

    def _audit_policy(
        self, policy: Any, claim: PrivacyClaim, losses: LossSetKind, watch: Watch
    ) -> None:
        s, kind = self.settings, self.kind
        assert kind is not None
        online = kind in ("online_full", "online_bandit")
        record_kind: RecordKind = (
            "online" if online else "linear" if kind == "linear" else "multi_armed"
        )
        # candidate streams screened, the best audited; the same for the records if the policy
        # exposes its releases; then the regret
        screened = {"linear": 6, "multi_armed": 2, "online": 4}[record_kind]
        records = {"linear": 6, "multi_armed": 2, "online": 4}[record_kind]
        bar = _Progress(watch)
        with _calling(watch, "release_mechanism()"):
            aggregator = release_mechanism(policy)
        # with a release audit, the two families share the error budget (Bonferroni)
        level = s.confidence if aggregator is None else 1.0 - (1.0 - s.confidence) / 2.0
        more = 0 if aggregator is None else records + STREAM_TOP
        bar.describe("privacy: stream audits", screened + STREAM_TOP + 1 + more)
        if online:
            privacy = online_search_audit(
                policy, claim, n=s.stream_n, runs=s.stream_runs, seed=s.seed, confidence=level,
                name=f"{self.target} DP", loss_set=losses, progress=bar,
            )  # fmt: skip
        else:
            privacy = stream_search_audit(
                policy, claim, n=s.stream_n, runs=s.stream_runs, seed=s.seed, confidence=level,
                name=f"{self.target} joint DP", kind=kind, progress=bar,
            )  # fmt: skip
        watch.send(("privacy", privacy))
        if aggregator is not None:
            bar.describe("privacy: release audits", 0)
            self._audit_release(aggregator, record_kind, claim, level, losses, bar, watch)
        bar.describe("utility: regret vs reference", 0)
        watch.send(("regret", self._regret(policy, claim)))
        bar.update(1)

    def _audit_release(
        self,
        aggregator: Any,
        record_kind: RecordKind,
        claim: PrivacyClaim,
        level: float,
        losses: LossSetKind,
        bar: _Progress,
        watch: Watch,
    ) -> None:
        s = self.settings
        if self.reward_range is not None:
            wrap = (
                RescaledRecordsDensity
                if isinstance(aggregator, DensityMechanism)
                else RescaledRecords
            )
            aggregator = wrap(aggregator, *self.reward_range)
        with _calling(watch, "reading the release mechanism's days attribute"):
            stated_days = getattr(aggregator, "days", None)
        release = release_audit(
            _with_seeded_globals(aggregator, watch),
            record_kind,
            claim,
            n=stated_days
            if isinstance(stated_days, int) and not isinstance(stated_days, bool)
            else s.stream_n,
            m={"linear": 3, "multi_armed": len(DEFAULT_MEANS), "online": ONLINE_DIM}[record_kind],
            samples=s.release_samples,
            seed=s.seed,
            confidence=level,
            top=STREAM_TOP,
            name=f"{self.target} releases",
            loss_set=losses,
            progress=bar,
        )
        watch.send(("release", release))

    def _regret(
        self, policy: Any, claim: PrivacyClaim
    ) -> RegressionCheckResult | MultiArmedRegretResult | OnlineRegretResult:
        s, kind = self.settings, self.kind
        if kind in ("online_full", "online_bandit"):
            return online_regret_check(
                policy,
                feedback="full" if kind == "online_full" else "bandit",
                epsilon=claim.epsilon,
                dim=ONLINE_DIM,
                horizon=s.n,
                runs=s.runs,
                seed=s.seed + 1,
                confidence=s.confidence,
            )
        if kind == "multi_armed":
            armed = _one_of("reference", self.reference, MULTI_ARMED_REFERENCES)
            return multi_armed_regret_check(
                policy,
                epsilon=claim.epsilon,
                horizon=s.n,
                runs=s.runs,
                seed=s.seed + 1,
                confidence=s.confidence,
                name=f"{self.target} vs {armed}",
                reference=armed,
            )
        variant = _one_of("reference", self.reference, VARIANTS)
        return regret_regression_check(
            policy,
            variant,
            d=s.d,
            num_arms=s.num_arms,
            gap=s.gap,
            n=s.n,
            runs=s.runs,
            seed=s.seed + 1,
            privacy=None
            if variant == "nonprivate"
            else PrivacyParameters(claim.epsilon, claim.delta),
            confidence=s.confidence,
            name=f"{self.target} vs reference {variant}",
        )


class _Collector:
    """The parent's side of a check: the events of :class:`_CheckJob`, and the progress bar."""

    def __init__(self, claim: PrivacyClaim | None, progress: bool) -> None:
        self.claim = claim
        self.privacy: PrivacyAuditResult | None = None
        self.release: PrivacyAuditResult | None = None
        self.regret: Any = None
        self.stated: dict[str, float] | None = None
        self.crash: str | None = None
        self.usage: str | None = None
        self.stage = "starting"
        self.bar = tqdm(total=0, desc="privacy: stream audits", unit="audit", disable=not progress)

    def __call__(self, event: tuple[Any, ...]) -> None:
        what, *rest = event
        if what == "progress":
            description, count = rest
            if description is not None:
                self.bar.set_description(description)
                self.bar.total += count
                self.bar.refresh()
            else:
                self.bar.update(count)
        elif what == "stage":
            self.stage = rest[0]
        elif what in ("claim", "privacy", "release", "regret", "stated", "crash", "usage"):
            setattr(self, what, rest[0])
        else:  # pragma: no cover -- a bug of the check itself
            raise ValueError(f"unknown check event {what!r}")


def _limit_report(
    outcome: WatchOutcome, stage: str, timeout: float | None, call_timeout: float | None
) -> tuple[str, dict[str, Any] | None]:
    """What ended a check that did not finish: the report's crash text, and the limit that
    stopped it (``None`` if none did)."""
    running = ""
    if outcome.call is not None:
        running = f" while the target's call {outcome.call} had run {outcome.call_seconds:.1f} s"
    if outcome.ended == "error":
        return str(outcome.error), None
    if outcome.ended == "died":
        return (
            f"the check's process ended unexpectedly (exit code {outcome.exitcode}){running} "
            f"(stage: {stage}): the target ended it, or crashed in compiled code"
        ), None
    if outcome.ended == "timeout":
        seconds, what = timeout, f"the check exceeded its time limit of {timeout:g} s (--timeout)"
    else:
        seconds, running = call_timeout, ""
        what = (
            f"its call {outcome.call} ran longer than the per-call time limit of "
            f"{call_timeout:g} s (--call-timeout)"
        )
    limit = {"limit": outcome.ended, "seconds": seconds, "call": outcome.call,
             "call_seconds": outcome.call_seconds, "stage": stage}  # fmt: skip
    return f"privonline check stopped the target: {what}{running} (stage: {stage})", limit


def run_check(
    target: str,
    claim: PrivacyClaim | PairClaim,
    *,
    paths: Sequence[str] = (),
    target_kwargs: dict[str, Any] | None = None,
    kind: PolicyKind | None = None,
    reward_range: tuple[float, float] | None = None,
    reference: str | None = None,
    d: int = 3,
    num_arms: int = 9,
    gap: float = 0.1,
    n: int = 300,
    runs: int = 30,
    stream_n: int = 16,
    stream_runs: int = 1000,
    seed: int = 2026,
    confidence: float = 0.99,
    pair: str | None = None,
    samples: int = 200_000,
    release_samples: int = 20_000,
    loss_set: LossSetKind | None = None,
    progress: bool = False,
    timeout: float | None = None,
    call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
    isolate: bool = True,
) -> CheckReport:
    """Run every check of the module docstring on ``target``.

    A **mechanism** comes with ``pair`` (``module:attribute`` of a
    :class:`~audit.protocols.NeighbouringPair`; ``samples`` outputs per input) and ``claim``
    must be made under the pair's relation (or be a :class:`PairClaim`, which takes it); a
    **policy** of ``kind`` (default ``"linear"``) takes no ``pair`` and its claim is made under
    ``"t_neighbouring"``.  A mismatch is a ``ValueError``: the claim is never rewritten.  The
    policy's outputs are audited on ``stream_runs`` runs per candidate stream of ``stream_n``
    days; a policy that exposes its releases (:class:`~audit.protocols.ReleasingPolicy`) is also
    audited at the release level (``release_samples`` draws per record stream), the two families
    splitting ``1 − confidence`` evenly; its regret is compared with ``reference`` on ``runs``
    paired runs of horizon ``n`` (a linear policy: App. D environments of dimension ``d`` with
    ``num_arms`` arms and gap ``gap``; with a pure-ε claim and no ``reference``, the non-private
    Algorithm 1, said in :attr:`CheckReport.reference_note`).  ``reward_range`` rescales a linear
    policy's rewards (:class:`RescaledRewards`); an online learner is audited on loss sequences in
    ``loss_set`` (default: the ``loss_set`` the target states, else ``"box01"``).  The target
    always runs with its global generators seeded (:class:`SeededGlobals`).

    Every argument is checked before anything runs (``ValueError`` naming it); so are loading
    and building the target and its kind, in the child, before any audit (``ValueError`` too).
    The check runs in a child process (``isolate``) that is stopped when it exceeds ``timeout``
    seconds, or one call of the target ``call_timeout`` seconds (``None``: no limit; both need
    ``isolate``); what the target prints is kept in :attr:`CheckReport.target_output`.  An
    exception raised while the target is imported or runs (by its code, or by the checks of what
    it returned), or a limit, ends the check with :attr:`CheckReport.crash` set and the results
    found so far kept.  The results do not depend on ``isolate``.
    """
    t0 = time.perf_counter()
    _split_spec("target", target)
    paths = _check_paths(paths)
    if pair is not None:
        _split_spec("pair", pair)
    claim = _check_claim(claim, pair)
    settings = _Settings(
        n=check_int_at_least("n", n, 2),
        runs=check_int_at_least("runs", runs, 2),
        stream_n=check_int_at_least("stream_n", stream_n, 3),
        stream_runs=check_int_at_least("stream_runs", stream_runs, 4),
        seed=check_seed(seed),
        confidence=check_in_range("confidence", confidence, 0.0, 1.0),
        samples=check_int_at_least("samples", samples, 4),
        release_samples=check_int_at_least("release_samples", release_samples, 4),
        d=check_int_at_least("d", d, 2),
        num_arms=check_int_at_least("num_arms", num_arms, 1),
        gap=check_in_range("gap", gap, 0.0, math.inf, low_open=False),
    )
    target_kwargs = _check_target_kwargs(target_kwargs)
    reward_range = _check_reward_range(reward_range)
    check_bool("progress", progress)
    check_bool("isolate", isolate)
    timeout, call_timeout = (
        _check_limit("timeout", timeout),
        _check_limit("call_timeout", call_timeout),
    )
    if not isolate and (timeout is not None or call_timeout is not None):
        raise ValueError(
            "timeout and call_timeout need isolate=True (a limit ends the check's child "
            "process): pass timeout=None and call_timeout=None to run in this process"
        )
    note = None
    if pair is not None:
        for name, value in (("kind", kind), ("reference", reference),
                            ("reward_range", reward_range), ("loss_set", loss_set)):  # fmt: skip
            if value is not None:
                raise ValueError(f"{name} applies to policies only, not to a mechanism (--pair)")
    else:
        kind = _one_of("kind", "linear" if kind is None else kind, POLICY_KINDS)
        assert isinstance(claim, PrivacyClaim)
        reference, note = _check_reference(kind, reference, claim, settings)
        if reward_range is not None and kind != "linear":
            raise ValueError("reward_range (--reward-range) applies to linear policies only")
        if loss_set is not None:
            if kind not in ("online_full", "online_bandit"):
                raise ValueError("loss_set (--loss-set) applies to online learners only")
            check_choice("loss_set", loss_set, LOSS_SET_KINDS)
    job = _CheckJob(target, claim, paths, target_kwargs, kind, reward_range, reference, pair,
                    loss_set, settings)  # fmt: skip
    collect = _Collector(claim if isinstance(claim, PrivacyClaim) else None, progress)
    try:
        if isolate:
            outcome = run_watched(job, timeout=timeout, call_timeout=call_timeout,
                                  on_event=collect, preload=("audit.check",))  # fmt: skip
        else:
            outcome = run_in_process(job, on_event=collect)
    finally:
        collect.bar.close()
    if collect.usage is not None:
        raise ValueError(collect.usage)
    crash, limit = collect.crash, None
    if outcome.ended != "finished" and crash is None:
        crash, limit = _limit_report(outcome, collect.stage, timeout, call_timeout)
    return CheckReport(
        target, collect.claim, collect.privacy, collect.regret, time.perf_counter() - t0, crash,
        collect.stated, collect.release, outcome.output, limit, note,
    )  # fmt: skip


def build_parser(prog: str = "privonline check") -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Audit a third-party implementation (module:attribute): a bandit policy "
        "(audit.protocols.StreamPolicy) for a claimed joint-DP (ε, δ) and against the reference's "
        "regret, or a mechanism (audit.protocols.Mechanism, with --pair) for a claimed (ε, δ). "
        "Writes check.json, check.md (and check.png); what the target prints goes into the "
        "report. Exit codes: 0 the claims hold, 1 privacy violation, 2 usage error (nothing ran), "
        "3 utility (regret) failure only, 4 the target crashed or was stopped by a time limit "
        "(the traceback or the limit is in the report), 5 inconclusive (nothing failed, but the "
        "privacy audit lacked the power a pass promises: raise --samples or --stream-runs).",
    )
    parser.add_argument(
        "target", help="module:attribute of the policy or mechanism (or of a factory)"
    )
    parser.add_argument(
        "--target-kwargs",
        default=None,
        metavar="JSON",
        help="constructor arguments of a class or factory target, as a JSON object, e.g. "
        "'{\"horizon\": 300}'",
    )
    parser.add_argument(
        "--pair", default=None, help="module:attribute of a NeighbouringPair (mechanisms only)"
    )
    parser.add_argument(
        "--samples",
        type=int_at_least(4),
        default=200_000,
        help="outputs per input (mechanisms only)",
    )
    parser.add_argument(
        "--epsilon", type=float_in(0.0, math.inf, low_open=False), required=True, help="claimed ε"
    )
    parser.add_argument(
        "--delta", type=float_in(0.0, 1.0, low_open=False), required=True, help="claimed δ"
    )
    parser.add_argument(
        "--reference",
        choices=(*VARIANTS, *MULTI_ARMED_REFERENCES),
        default=None,
        help="reference of the regret comparison: a variant of Shariff & Sheffet's Algorithm 1 "
        "for a linear policy (default gaussian; nonprivate for a pure-ε claim), dp_se or dp_ucb for a multi-armed one (default "
        "dp_se); an online learner is compared with Agarwal & Singh's algorithm",
    )
    parser.add_argument(
        "--path", action="append", default=[], help="directory to prepend to sys.path (repeatable)"
    )
    parser.add_argument(
        "--kind",
        choices=POLICY_KINDS,
        default=None,
        help="policy kind: linear contextual (the default; regret vs Algorithm 1, or the "
        "non-private Algorithm 1 for a pure-ε claim); multi_armed (rewards in {0, 1}, one-hot "
        "arms, regret vs DP-SE); online_full or online_bandit (an OnlinePolicy on loss sequences "
        "in --loss-set, regret vs Agarwal & Singh's Algorithm 1 or Algorithm 4); not for a "
        "mechanism (--pair)",
    )
    parser.add_argument(
        "--loss-set",
        choices=LOSS_SET_KINDS,
        default=None,
        help="loss set Y of an online learner's claim (its neighbouring sequences change one "
        "round's loss within Y); default: the target's own loss_set attribute, else box01 "
        "([0, 1]^N)",
    )
    parser.add_argument(
        "--reward-range",
        default=None,
        metavar="LOW,HIGH",
        help="rescale the rewards a linear policy sees from [-1, 1] to [LOW, HIGH], e.g. 0,1",
    )
    parser.add_argument(
        "--n",
        type=int_at_least(2),
        default=None,
        help="horizon of the regret runs (default 300 linear, 20000 multi-armed, 2000 online)",
    )
    parser.add_argument(
        "--runs", type=int_at_least(2), default=30, help="paired regret runs (at least 2)"
    )
    parser.add_argument(
        "--stream-runs", type=int_at_least(4), default=1000, help="runs per stream (privacy)"
    )
    parser.add_argument(
        "--release-samples",
        type=int_at_least(4),
        default=20_000,
        help="draws per record stream for the release-level audit of a policy that exposes "
        "release_mechanism() (audit.protocols.ReleasingPolicy) (default %(default)s)",
    )
    parser.add_argument(
        "--seed", type=int_at_least(0), default=2026, help="root seed (default %(default)s)"
    )
    parser.add_argument(
        "--timeout",
        type=float_in(0.0, math.inf),
        default=None,
        metavar="SECONDS",
        help="stop the whole check after SECONDS (exit 4, the partial report written; default: "
        "no limit)",
    )
    parser.add_argument(
        "--call-timeout",
        type=float_in(0.0, math.inf),
        default=DEFAULT_CALL_TIMEOUT,
        metavar="SECONDS",
        help="stop the check when one call of the target (its import, construction, one run, "
        "play or sample) runs longer than SECONDS (exit 4, the partial report written; default "
        "%(default)g)",
    )
    parser.add_argument("--out", type=Path, default=Path("results/check"), help="report folder")
    return parser


def _target_kwargs(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"--target-kwargs must be a JSON object, got {text!r}: {err}") from err
    if not isinstance(value, dict):
        raise ValueError(f"--target-kwargs must be a JSON object, got {text!r}")
    return value


def _reward_range(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    parts = text.split(",")
    try:
        low, high = (float(p) for p in parts)
    except ValueError as err:
        raise ValueError(f"--reward-range must be LOW,HIGH (two numbers), got {text!r}") from err
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise ValueError(f"--reward-range must be finite with LOW < HIGH, got {text!r}")
    return low, high


CLAIM_SOURCES: dict[PolicyKind, str] = {
    "linear": "joint DP on t-neighbouring streams, Shariff & Sheffet Definition 1",
    "multi_armed": "event-level DP, one reward changed, Sajed & Sheffet Sec. 2",
    "online_full": "one round's loss vector changed, Agarwal & Singh Definition 2.1",
    "online_bandit": "one round's loss vector changed, Agarwal & Singh Definition 2.1",
}
"""What a policy kind's claim means, in the claim's label."""


def main(argv: Sequence[str] | None = None, prog: str = "privonline check") -> int:
    """Entry point; returns the exit code of :data:`~audit.check_report.EXIT_CODES` (2 on a usage error)."""
    args = build_parser(prog).parse_args(argv)
    try:
        target_kwargs = _target_kwargs(args.target_kwargs)
        reward_range = _reward_range(args.reward_range)
        # The command line builds the claim itself, under the relation the neighbours are given
        # under (the pair's for a mechanism, taken once the pair is loaded; t-neighbouring streams
        # -- Definition 1 of Shariff & Sheffet -- for a policy), and says so in the claim's label,
        # which the report shows.
        claim: PrivacyClaim | PairClaim
        if args.pair is None:
            kind: PolicyKind = args.kind or "linear"
            claim = PrivacyClaim(
                args.epsilon,
                args.delta,
                "t_neighbouring",
                f"claimed (ε, δ) under 't_neighbouring' ({CLAIM_SOURCES[kind]})",
            )
        else:
            claim = PairClaim(args.epsilon, args.delta)
        prepare_output_dir(args.out)
        report = run_check(
            args.target,
            claim,
            paths=args.path,
            target_kwargs=target_kwargs,
            kind=args.kind,
            reward_range=reward_range,
            pair=args.pair,
            samples=args.samples,
            reference=args.reference,
            n=args.n if args.n is not None else DEFAULT_HORIZONS[args.kind or "linear"],
            loss_set=args.loss_set,
            runs=args.runs,
            stream_runs=args.stream_runs,
            release_samples=args.release_samples,
            seed=args.seed,
            progress=sys.stderr.isatty(),
            timeout=args.timeout,
            call_timeout=args.call_timeout,
        )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    report.write(args.out)
    print(report.markdown())
    if report.crash is not None:
        last = report.crash.strip().splitlines()[-1]
        what = "was stopped" if report.limit is not None else "failed while it was checked"
        print(f"error: the target {what}: {last}", file=sys.stderr)
    print(f"report: {args.out / 'check.md'}")
    return report.exit_code
