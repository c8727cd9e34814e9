"""What a kind of target declares for ``privonline check``, and the audit the policy kinds share.

A :class:`Kind` states its ``--kind`` name, the protocol its targets satisfy, its claim's label,
default horizon, regret references and options; it supplies the candidate neighbouring inputs
(:meth:`Kind.candidates`), the audit of one pair (:meth:`Kind.tester`), its release records and
the regret comparison (:meth:`Kind.regret`).  :meth:`Kind.audit` runs the searched privacy audit
(:func:`audit.methods.pairs.searched_audit`: screening, Holm), the release audit and the regret,
reporting each result through a :class:`CheckRun`; the target runs wrapped (:class:`SeededGlobals`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
import random
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np

from audit.methods.designs import Collector, SampleCache, design_stream_audit, stream_samples
from audit.methods.pairs import Tester
from audit.methods.release import RecordKind, release_audit, release_mechanism, release_streams
from audit.methods.staged import staged_audit
from audit.protocols import (
    DensityMechanism,
    Mechanism,
    NeighbouringPair,
    OnlinePolicy,
    PrivacyClaim,
    StreamPolicy,
)
from audit.results import PrivacyAuditResult, to_jsonable
from audit.watchdog import Watch
from reference.agarwal_singh.sets import LossSetKind
from reference.validation import check_choice

__all__ = [
    "DEFAULT_BUDGET",
    "STREAM_TOP",
    "CheckRun",
    "CheckSettings",
    "Kind",
    "RegretResult",
    "SeededGlobals",
    "SeededGlobalsDensity",
    "SeededGlobalsMechanism",
    "SeededGlobalsOnline",
    "StreamKind",
    "calling",
    "choose",
    "design_tester",
    "stated_claim",
    "with_seeded_globals",
]

STREAM_TOP = 2
"""How many screened candidate pairs the policy check audits afresh and judges."""

DEFAULT_BUDGET = 120.0
"""Seconds the stages of a policy's privacy audit may take by default (``--budget``): stages of
doubling runs are added until a violation, the promised power, or this budget
(:func:`audit.methods.staged.staged_audit`)."""


@dataclass(frozen=True)
class CheckSettings:
    """The numbers and options of one check, checked (``run_check`` documents each).

    ``reference`` is the regret reference the kind resolved, ``reward_range`` a linear policy's
    reward rescaling, ``loss_set`` an online learner's ``Y`` (resolved from the target in the
    child when the user gave none), ``budget`` the seconds the privacy stages may take and
    ``max_stages`` how many may run (a budget makes the number of stages depend on the machine;
    a report records it, and the same seed with that many stages and no time limit gives the same
    report), ``actions_only`` whether a policy's releases are ignored (an outside observer's
    view), ``anchored_levels`` the tree levels of the anchored designs a linear policy's audit
    adds (:func:`audit.methods.designs.reused_noise_design`)."""

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
    reference: str | None = None
    reward_range: tuple[float, float] | None = None
    loss_set: LossSetKind | None = None
    budget: float = DEFAULT_BUDGET
    actions_only: bool = False
    max_stages: int = 8
    anchored_levels: tuple[int, ...] = ()

    def but(self, **changes: Any) -> CheckSettings:
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


class RegretResult(Protocol):
    """What every kind's regret comparison returns (the report reads these)."""

    @property
    def passed(self) -> bool:
        """The utility verdict: not worse than the reference (and the kind's other checks)."""
        ...

    @property
    def candidate_mean(self) -> float:
        """Mean final regret of the candidate."""
        ...

    @property
    def reference_mean(self) -> float:
        """Mean final regret of the reference on the same environments."""
        ...


_C = TypeVar("_C", bound=str)


def choose(name: str, value: object, choices: tuple[_C, ...]) -> _C:
    """The element of ``choices`` equal to ``value`` (``ValueError`` naming ``name`` if none)."""
    check_choice(name, value, choices)
    return next(choice for choice in choices if choice == value)


def calling(watch: Watch | None, label: str) -> AbstractContextManager[None]:
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
        with calling(self.watch, "__repr__()"):
            return repr(self.inner)


class SeededGlobals(_Seeded):
    """A policy run with Python's and numpy's *global* generators seeded from the ``rng`` each
    ``run`` receives: implementations that draw from ``numpy.random.*`` or ``random`` instead of
    the generator they are given become reproducible (same seed, same report) and their runs
    independent (each run's seeds are spawned apart).  The global state is changed, as the
    wrapped code expects.  ``watch``: each call is marked on it (the per-call time limit)."""

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The wrapped policy's ``run`` after seeding the global generators from ``rng``."""
        with calling(self.watch, "run()"):
            _seed_globals(rng)
            return self.inner.run(decision_sets, reward_tables, rng)


class SeededGlobalsOnline(_Seeded):
    """:class:`SeededGlobals` for an online learner: ``play`` after seeding the global
    generators from ``rng``."""

    def play(self, losses: Any, rng: np.random.Generator) -> Any:
        """The wrapped learner's ``play`` after seeding the global generators from ``rng``."""
        with calling(self.watch, "play()"):
            _seed_globals(rng)
            return self.inner.play(losses, rng)


class SeededGlobalsMechanism(_Seeded):
    """:class:`SeededGlobals` for a mechanism: ``sample`` after seeding the global generators."""

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        """The wrapped mechanism's ``sample`` after seeding the global generators from ``rng``."""
        with calling(self.watch, "sample()"):
            _seed_globals(rng)
            return self.inner.sample(data, rng, size)


class SeededGlobalsDensity(SeededGlobalsMechanism):
    """:class:`SeededGlobalsMechanism` that keeps the wrapped mechanism's ``log_density``."""

    def log_density(self, data: Any, outputs: Any) -> Any:
        """The wrapped mechanism's ``log_density``."""
        with calling(self.watch, "log_density()"):
            return self.inner.log_density(data, outputs)


def with_seeded_globals(
    target: Any, watch: Watch | None = None, protocol: type[Any] | None = None
) -> Any:
    """``target`` in the :class:`SeededGlobals` wrapper of ``protocol`` (default: the first of
    ``StreamPolicy``, ``OnlinePolicy``, ``Mechanism`` that it satisfies)."""
    if protocol is StreamPolicy or (protocol is None and isinstance(target, StreamPolicy)):
        return SeededGlobals(target, watch)
    if protocol is OnlinePolicy or (protocol is None and isinstance(target, OnlinePolicy)):
        return SeededGlobalsOnline(target, watch)
    if isinstance(target, DensityMechanism):
        return SeededGlobalsDensity(target, watch)
    return SeededGlobalsMechanism(target, watch)


class CheckRun:
    """One check seen from inside the child process: the target's spec, its pair (a mechanism's),
    and the :class:`~audit.watchdog.Watch` that every result, stage and step of progress goes
    through (``update`` advances the progress bar, as tqdm's)."""

    def __init__(self, target: str, watch: Watch, pair: NeighbouringPair[Any] | None = None):
        self.target, self.watch, self.pair = target, watch, pair
        self.what, self.done = "", 0

    def send(self, what: str, value: Any) -> None:
        """Report a result (``"privacy"``, ``"release"``, ``"regret"``) or a fact of the check."""
        self.watch.send((what, value))

    def calling(self, label: str) -> AbstractContextManager[None]:
        """The code inside is one call of the target."""
        return self.watch.calling(label)

    def stage(self, text: str) -> None:
        """What the check is doing (named in a report a time limit ends)."""
        self.watch.send(("stage", text))

    def describe(self, what: str, more: int) -> None:
        """A new stage of the progress bar, with ``more`` steps to come."""
        self.what = what
        self.watch.send(("progress", what, more))
        self.stage(what)

    def update(self, count: int = 1) -> None:
        """``count`` steps done."""
        self.done += count
        self.watch.send(("progress", None, count))

    def staged(self, tester_at: Callable[[float], Tester[Any]]) -> Callable[[float], Tester[Any]]:
        """``tester_at`` whose audits each announce the pair they audit."""

        def at(level: float) -> Tester[Any]:
            tester = tester_at(level)

            def run(pair: NeighbouringPair[Any], size: int, seed: int) -> PrivacyAuditResult:
                self.stage(f"{self.what}: {pair.description}")
                return tester(pair, size, seed)

            return run

        return at


def design_tester(
    audit: Callable[..., PrivacyAuditResult],
    policy: Any,
    claim: PrivacyClaim,
    name: str,
    collect: Collector | None = None,
) -> Callable[[float], Tester[Any]]:
    """``tester_at(level)`` running ``audit`` (:func:`audit.methods.designs.design_stream_audit`
    or :func:`~audit.methods.designs.design_online_audit`) on one pair, its runs drawn through
    ``collect`` (e.g. a :class:`~audit.methods.designs.SampleCache`), named
    ``"<name>: <the pair's description>"``."""

    def tester_at(level: float) -> Tester[Any]:
        def tester(pair: NeighbouringPair[Any], samples: int, s: int) -> PrivacyAuditResult:
            return audit(
                policy, pair, claim, runs=samples, seed=s, confidence=level,
                name=f"{name}: {pair.description}", collect=collect,
            )  # fmt: skip

        return tester

    return tester_at


def stated_claim(claim: PrivacyClaim, stated: dict[str, float] | None) -> PrivacyClaim | None:
    """The claim of the calibration a target states (its ``epsilon`` and ``delta`` attributes,
    each defaulting to the claim's), under the claim's relation, if it differs from ``claim``;
    else ``None``."""
    if not stated:
        return None
    epsilon = stated.get("epsilon", claim.epsilon)
    delta = stated.get("delta", claim.delta)
    if math.isclose(epsilon, claim.epsilon) and math.isclose(delta, claim.delta):
        return None
    if not (0.0 <= epsilon < math.inf and 0.0 <= delta <= 1.0):
        return None  # a stated value no claim can carry: reported in the calibration note only
    return PrivacyClaim(
        epsilon,
        delta,
        claim.relation,
        f"the calibration the target states ({epsilon:g}, {delta:g})",
    )


class Kind:
    """A kind of target of ``privonline check`` (module docstring); the subclasses in
    :mod:`audit.kinds` set the class attributes and the methods their kind needs."""

    name: ClassVar[str]
    """Its ``--kind`` on the command line."""
    help: ClassVar[str]
    """One line for ``--kind``'s help: what it is and what its regret is compared with."""
    protocol: ClassVar[type[Any]]
    """The runtime-checkable protocol its targets satisfy."""
    protocol_text: ClassVar[str]
    """The protocol, named for a message (``"an audit.protocols.StreamPolicy (...)"``)."""
    default_horizon: ClassVar[int | None] = None
    """Horizon of its regret runs when ``--n`` is not given (``None``: no regret)."""
    claim_source: ClassVar[str] = ""
    """What its claim means, for the claim's label (a kind that ``takes_pair`` has the pair's)."""
    takes_pair: ClassVar[bool] = False
    """Audited on a neighbouring pair named by ``--pair`` (a mechanism), not on streams."""
    references: ClassVar[tuple[str, ...]] = ()
    """The ``--reference`` values it accepts; empty: its reference is fixed."""
    default_reference: ClassVar[str | None] = None
    """The reference when ``--reference`` is not given (:meth:`check_reference` may say why it
    chose another)."""
    reference_text: ClassVar[str] = ""
    """What its regret is compared with, in words."""
    options: ClassVar[frozenset[str]] = frozenset()
    """The optional arguments it takes among ``reward_range`` and ``loss_set``."""
    record_kind: ClassVar[RecordKind | None] = None
    """What a day's record is for the release audit (:mod:`audit.methods.release`)."""
    record_width: ClassVar[int] = 0
    """The width ``m`` of those records."""
    privacy_label: ClassVar[str] = "joint DP"
    """What the privacy audit's name calls the claim."""
    min_stages: ClassVar[int] = 3
    """Stages of the privacy audit that run before it may stop for power (a leak whose events
    are rare shows only with more runs)."""

    def __repr__(self) -> str:
        return f"<kind {self.name}>"

    @property
    def suggestion(self) -> str:
        """How to ask for this kind on the command line."""
        return f"--kind {self.name}"

    # ---- before anything runs (the parent process) ----------------------------------------

    def check_reference(
        self, reference: object, claim: PrivacyClaim, settings: CheckSettings
    ) -> tuple[str | None, str | None]:
        """The regret reference (``reference``, or the default), with a note saying why when the
        user did not choose it; every argument of the comparison is checked here, so that none
        fails after the privacy audit has run.  ``ValueError`` naming the argument."""
        if reference is not None:
            raise ValueError(
                f"reference (--reference) is fixed for {self.name}: {self.reference_text}; drop "
                "--reference"
            )
        return None, None

    # ---- in the child process ------------------------------------------------------------

    def check_target(self, target: Any, spec: str, kinds: Sequence[Kind] = ()) -> None:
        """``ValueError`` if ``target`` does not satisfy :attr:`protocol`, naming those of
        ``kinds`` (the registry's, passed in by its caller) whose protocol it satisfies."""
        if isinstance(target, self.protocol):
            return
        fits = [k for k in kinds if isinstance(target, k.protocol)]
        what = f" is {fits[0].protocol_text}" if fits else " satisfies no kind's protocol"
        hint = f": pass {' or '.join(k.suggestion for k in fits)}" if fits else ""
        raise ValueError(
            f"kind {self.name!r} needs {self.protocol_text}, but target {spec!r}{what}{hint}"
        )

    def seeded(self, target: Any, watch: Watch) -> Any:
        """The target in the :class:`SeededGlobals` wrapper of :attr:`protocol`, its calls marked
        on ``watch`` (a kind of another protocol runs its target as it is, unless it overrides
        this)."""
        if self.protocol not in (StreamPolicy, OnlinePolicy, Mechanism):
            return target
        return with_seeded_globals(target, watch, self.protocol)

    def wrap(self, target: Any, settings: CheckSettings) -> Any:
        """The seeded target as the audits run it (e.g. its rewards rescaled)."""
        return target

    def resolve(self, target: Any, settings: CheckSettings) -> CheckSettings:
        """The settings completed from what the target states (e.g. its loss set)."""
        return settings

    def candidates(self, settings: CheckSettings, seed: int) -> list[NeighbouringPair[Any]]:
        """The candidate neighbouring inputs its privacy audit searches."""
        raise NotImplementedError(f"kind {self.name!r} has no candidate streams")

    sampler: ClassVar[Callable[[Any, NeighbouringPair[Any], int, int], Any] | None] = None
    """``sampler(policy, pair, runs, seed)``: the runs of one candidate pair (e.g.
    :func:`audit.methods.designs.stream_samples`), for :meth:`collector`; ``None``: the kind's
    :meth:`tester` draws its own."""
    design_audit: ClassVar[Callable[..., PrivacyAuditResult] | None] = None
    """The audit of one pair on those runs (e.g.
    :func:`audit.methods.designs.design_stream_audit`), for the default :meth:`tester`."""

    def collector(self, policy: Any) -> Collector | None:
        """How the runs of one candidate pair are drawn (``collect(pair, runs, seed)``, from
        :attr:`sampler`), for a kind whose :meth:`tester` takes ``collect``: the check then keeps
        the runs (:class:`~audit.methods.designs.SampleCache`) and audits them against a second
        claim (the stated calibration) without running the target again.  ``None`` (no
        :attr:`sampler`): the tester draws its own runs."""
        sampler = type(self).sampler
        return None if sampler is None else functools.partial(sampler, policy)

    def tester(
        self,
        policy: Any,
        claim: PrivacyClaim,
        settings: CheckSettings,
        name: str,
        collect: Collector | None = None,
    ) -> Callable[[float], Tester[Any]]:
        """``tester_at(level)``: the audit of one candidate pair at confidence ``level``
        (:attr:`design_audit`), its runs drawn through ``collect``."""
        audit = type(self).design_audit
        if audit is None:
            raise NotImplementedError(f"kind {self.name!r} has no stream audit")
        return design_tester(audit, policy, claim, name, collect)

    def release_input(self, aggregator: Any, settings: CheckSettings) -> Any:
        """The aggregator as its release audit runs it (before the seeded wrapper)."""
        return aggregator

    def regret(
        self, policy: Any, claim: PrivacyClaim, settings: CheckSettings, *, seed: int, name: str
    ) -> RegretResult:
        """The regret comparison with the reference (``settings.reference``)."""
        raise NotImplementedError(f"kind {self.name!r} has no regret comparison")

    # ---- the report -------------------------------------------------------------------------

    def regret_rows(self, result: Any) -> list[str]:
        """The rows of ``check.md``'s table that show ``result``."""
        raise NotImplementedError(f"kind {self.name!r} has no regret comparison")

    def regret_json(self, result: Any) -> dict[str, Any]:
        """``result`` in ``check.json`` (its fields and ``passed``)."""
        out: dict[str, Any] = to_jsonable(result)
        out["passed"] = result.passed
        return out

    # ---- the audit ---------------------------------------------------------------------------

    def audit(
        self,
        target: Any,
        claim: PrivacyClaim,
        settings: CheckSettings,
        run: CheckRun,
        stated: dict[str, float] | None = None,
    ) -> None:
        """Audit a policy: its outputs over the candidate designs in stages
        (:func:`audit.methods.staged.staged_audit`: Holm over the judged ones in each stage,
        α-spending across stages, until a violation, the promised power or
        ``settings.budget``), its releases if it exposes them and ``settings.actions_only`` is
        not set (the two families then split ``1 − confidence``), then its regret.  When the
        target ``stated`` a calibration other than the claim, the same audits run against it too
        (on the same runs) and are reported beside; the verdict follows the claim.  Each result
        is sent as soon as it is found."""
        aggregator = None
        if not settings.actions_only:
            with run.calling("release_mechanism()"):
                aggregator = release_mechanism(target)
        # with a release audit, the two families share the error budget (Bonferroni)
        level = settings.confidence
        if aggregator is not None:
            level = 1.0 - (1.0 - settings.confidence) / 2.0
        other = stated_claim(claim, stated)
        collect = self.collector(target)
        cache = None if collect is None else SampleCache(collect)
        run.send("privacy", self._staged(target, claim, settings, run, level, cache, ""))
        if other is not None:
            suffix = " at the stated calibration"
            run.send("stated_privacy",
                     self._staged(target, other, settings, run, level, cache, suffix))  # fmt: skip
        if cache is not None:
            cache.clear()
        if aggregator is not None:
            run.send("release", self._release_audit(aggregator, claim, settings, level, run))
            if other is not None:
                run.send("stated_release",
                         self._release_audit(aggregator, other, settings, level, run))  # fmt: skip
        run.describe("utility: regret vs reference", 0)
        regret = self.regret(target, claim, settings, seed=settings.seed + 1, name=run.target)
        run.send("regret", regret)
        run.update(1)

    def _staged(
        self,
        target: Any,
        claim: PrivacyClaim,
        settings: CheckSettings,
        run: CheckRun,
        level: float,
        cache: Collector | None,
        suffix: str,
    ) -> PrivacyAuditResult:
        """The staged audit of the target's outputs over :meth:`candidates` against ``claim``."""
        candidates = self.candidates(settings, settings.seed)
        name = f"{run.target} {self.privacy_label}{suffix}"
        tester = (
            self.tester(target, claim, settings, name)
            if cache is None
            else self.tester(target, claim, settings, name, cache)
        )

        def announce(stage: int, runs: int, audits: int) -> None:
            run.describe(f"privacy{suffix}: stage {stage + 1}, {runs} runs per stream", audits)

        return staged_audit(
            candidates, run.staged(tester),
            start=settings.stream_runs, seed=settings.seed, confidence=level, top=STREAM_TOP,
            name=name, epsilon=claim.epsilon, budget_seconds=settings.budget,
            min_stages=min(self.min_stages, settings.max_stages), max_stages=settings.max_stages,
            progress=run, announce=announce,
        )  # fmt: skip

    def _release_audit(
        self,
        aggregator: Any,
        claim: PrivacyClaim,
        settings: CheckSettings,
        level: float,
        run: CheckRun,
    ) -> PrivacyAuditResult:
        """The release-level audit of the aggregator a policy exposes, on record streams of the
        length it states (an ``int`` attribute ``days``), else ``settings.stream_n``."""
        assert self.record_kind is not None
        with run.calling("reading the release mechanism's days attribute"):
            stated = getattr(aggregator, "days", None)  # the aggregator's own, not a wrapper's
        aggregator = self.release_input(aggregator, settings)
        n = (
            stated
            if isinstance(stated, int) and not isinstance(stated, bool)
            else settings.stream_n
        )
        loss_set: LossSetKind = settings.loss_set or "box01"
        pairs = release_streams(self.record_kind, n, self.record_width, loss_set=loss_set)
        run.describe("privacy: release audits", len(pairs) + STREAM_TOP)
        return release_audit(
            with_seeded_globals(aggregator, run.watch), self.record_kind, claim, n=n,
            m=self.record_width, samples=settings.release_samples, seed=settings.seed,
            confidence=level, top=STREAM_TOP, name=f"{run.target} releases", loss_set=loss_set,
            progress=run,
        )  # fmt: skip


class StreamKind(Kind):
    """A kind whose targets are bandit policies (:class:`~audit.protocols.StreamPolicy`), audited
    on pairs of streams through the actions of the days after the one they differ on
    (:func:`audit.methods.designs.design_stream_audit`)."""

    protocol = StreamPolicy
    protocol_text = (
        "an audit.protocols.StreamPolicy (run(decision_sets, reward_tables, rng) -> actions)"
    )
    sampler = stream_samples
    design_audit = design_stream_audit
