"""``privonline check``: audit a third-party implementation against a claim (and the reference).

The target, named ``module:attribute`` (:mod:`audit.targets`), is of a kind of :mod:`audit.kinds`:
a **mechanism** audited on its neighbouring pair (``--pair``), or a **policy** (linear contextual,
multi-armed, online learner) whose outputs are audited over searched neighbouring streams, its
releases too if it exposes them, and its regret compared with the papers' matching reference.
:func:`run_check` checks every argument, then runs the kind's audit in a child process under
time limits, the target's prints captured (:mod:`audit.watchdog`); the report is
:class:`~audit.check_report.CheckReport` (exit codes :data:`~audit.check_report.EXIT_CODES`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, get_args

from tqdm import tqdm

import audit.kinds as registry
from audit.check_report import CheckReport
from audit.kinds.base import DEFAULT_BUDGET, CheckRun, CheckSettings, Kind, calling
from audit.protocols import (
    NeighbouringPair,
    NeighbourRelation,
    PrivacyClaim,
    check_claim_matches_pair,
)
from audit.results import PrivacyAuditResult
from audit.targets import (
    TargetError,
    check_paths,
    load_pair,
    load_target,
    split_spec,
    stated_calibration,
)
from audit.watchdog import Watch, WatchOutcome, run_in_process, run_watched
from reference.agarwal_singh.sets import LossSetKind
from reference.files import prepare_output_dir
from reference.rng import check_seed
from reference.validation import (
    check_bool,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_size,
    float_in,
    int_at_least,
)

__all__ = ["DEFAULT_CALL_TIMEOUT", "PairClaim", "build_parser", "main", "run_check"]

DEFAULT_CALL_TIMEOUT = 600.0
"""Seconds one call of the target (an import, a construction, one ``run``/``play``/``sample``)
may take by default before the check stops it (``--call-timeout``)."""

OPTIONS = {"reward_range": "--reward-range", "loss_set": "--loss-set"}
"""The optional arguments only some kinds take (:attr:`audit.kinds.base.Kind.options`)."""


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
class _CheckJob:
    """The body of a check, run in the child process (or here): it loads the target itself,
    checks it is of its kind, and runs the kind's audit, which sends each result as it is found
    (:mod:`audit.watchdog` events)."""

    target: str
    claim: PrivacyClaim | PairClaim
    paths: tuple[str, ...]
    target_kwargs: dict[str, Any] | None
    kind: Kind
    pair: str | None
    settings: CheckSettings
    kinds: tuple[str, ...]

    def __call__(self, watch: Watch) -> None:
        registry.KINDS = self.kinds  # the caller's registry, in the child process too
        watch.send(("stage", "loading the target"))
        try:
            claim, neighbours = self._claim(watch)
            raw = load_target(self.target, self.paths, self.target_kwargs, watch)
            with calling(watch, f"protocol check of {self.target!r}"):
                self.kind.check_target(raw, self.target, registry.registered())
            seeded = self.kind.seeded(raw, watch)
            with calling(watch, "reading its epsilon, delta and loss_set attributes"):
                stated = stated_calibration(seeded)
                watch.send(("stated", stated))
                settings = self.kind.resolve(seeded, self.settings)
            target = self.kind.wrap(seeded, settings)
        except TargetError as err:
            watch.send(("crash", err.traceback))
            return
        except ValueError as err:
            watch.send(("usage", str(err)))
            return
        try:
            self.kind.audit(
                target, claim, settings, CheckRun(self.target, watch, neighbours), stated
            )
        except (Exception, SystemExit):  # the target's own failure, reported with its traceback
            watch.send(("crash", traceback.format_exc()))

    def _claim(self, watch: Watch) -> tuple[PrivacyClaim, NeighbouringPair[Any] | None]:
        """The claim (under the pair's relation, for a kind that takes a pair) and the pair."""
        claim, neighbours = self.claim, None
        if self.pair is not None:
            neighbours = load_pair(self.pair, self.paths, watch)
            if isinstance(claim, PairClaim):
                claim = claim.under(neighbours.relation, self.pair)
            check_claim_matches_pair(claim, neighbours)
        assert isinstance(claim, PrivacyClaim)
        watch.send(("claim", claim))
        return claim, neighbours


class _Collector:
    """The parent's side of a check: the events of :class:`_CheckJob`, and the progress bar."""

    def __init__(self, claim: PrivacyClaim | None, progress: bool) -> None:
        self.claim = claim
        self.privacy: PrivacyAuditResult | None = None
        self.release: PrivacyAuditResult | None = None
        self.stated_privacy: PrivacyAuditResult | None = None
        self.stated_release: PrivacyAuditResult | None = None
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
        elif what in (
            "claim", "privacy", "release", "regret", "stated", "crash", "usage", "stated_privacy",
            "stated_release",
        ):  # fmt: skip
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


def _check_kind(
    kind: Kind, claim: PrivacyClaim | PairClaim, pair: str | None, settings: CheckSettings
) -> tuple[CheckSettings, str | None]:
    """The kind's own checks of the claim, the pair and its options, before anything runs: the
    settings with the reference resolved, and the note saying why when the user did not choose
    it."""
    takers = [k.name for k in registry.registered() if k.takes_pair]
    if kind.takes_pair and pair is None:
        raise ValueError(
            f"pair must name a NeighbouringPair (module:attribute) for --kind {kind.name}"
        )
    if not kind.takes_pair and pair is not None:
        raise ValueError(
            f"pair (--pair) applies to --kind {', '.join(takers)} only, not to --kind {kind.name}"
        )
    for option, flag in OPTIONS.items():
        if getattr(settings, option) is not None and option not in kind.options:
            users = [k.name for k in registry.registered() if option in k.options]
            raise ValueError(f"{option} ({flag}) applies to --kind {', '.join(users)} only")
    if not kind.takes_pair:
        if not isinstance(claim, PrivacyClaim) or claim.relation != "t_neighbouring":
            raise ValueError(
                "claim.relation must be 't_neighbouring' for a policy (audited on streams that "
                f"differ on one day), got {getattr(claim, 'relation', claim)!r:.80}"
            )
        reference, note = kind.check_reference(settings.reference, claim, settings)
        return settings.but(reference=reference), note
    # the pair's relation is known once it is loaded; the kind's reference does not read it
    kind.check_reference(settings.reference, PrivacyClaim(claim.epsilon, claim.delta), settings)
    return settings, None


def run_check(
    target: str,
    claim: PrivacyClaim | PairClaim,
    *,
    paths: Sequence[str] = (),
    target_kwargs: dict[str, Any] | None = None,
    kind: str | None = None,
    reward_range: tuple[float, float] | None = None,
    reference: str | None = None,
    d: int = 3,
    num_arms: int = 9,
    gap: float = 0.1,
    n: int | None = None,
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
    budget: float = DEFAULT_BUDGET,
    actions_only: bool = False,
    max_stages: int = 8,
    anchored_levels: Sequence[int] = (),
) -> CheckReport:
    """Run every check of ``kind`` (a name of :mod:`audit.kinds`) on ``target``.

    ``kind`` defaults to ``"mechanism"`` with a ``pair`` (``module:attribute`` of a
    :class:`~audit.protocols.NeighbouringPair`; ``samples`` outputs per input), whose relation the
    claim must be made under (or be a :class:`PairClaim`, which takes it), and to ``"linear"``
    without one; a policy's claim is made under ``"t_neighbouring"``.  A mismatch is a
    ``ValueError``: the claim is never rewritten.  A policy's outputs are audited on the designs of
    its kind (:mod:`audit.methods.designs`) in stages of ``stream_runs``, then twice, four times
    ... as many runs per stream until a violation, the promised power or ``budget`` seconds
    (:func:`audit.methods.staged.staged_audit`, at most ``max_stages``; with the same seed and
    stages the same report, whatever the machine); one that exposes its releases
    (:class:`~audit.protocols.ReleasingPolicy`) also at the release level (``release_samples``
    draws per record stream of ``stream_n`` days, unless ``actions_only``), the two families
    splitting ``1 − confidence`` evenly; a target whose ``epsilon``/``delta`` attributes state
    another calibration than the claim is audited against both, reported side by side (the
    verdict follows the claim); its regret is
    compared with ``reference`` on ``runs`` paired runs of horizon ``n`` (default: the kind's
    :attr:`~audit.kinds.base.Kind.default_horizon`; a linear policy: App. D
    environments of dimension ``d`` with ``num_arms`` arms and gap ``gap``; with a pure-ε claim
    and no ``reference``, the non-private Algorithm 1, said in
    :attr:`~audit.check_report.CheckReport.reference_note`).  ``anchored_levels`` adds to a
    linear policy's designs the anchored design for noise reused across a tree's releases, one per
    tree level in ``[4, 14]`` (:func:`audit.methods.designs.reused_noise_design`; long streams,
    so slow).  ``reward_range`` rescales a linear
    policy's rewards; an online learner is audited on loss sequences in ``loss_set`` (default:
    the ``loss_set`` the target states, else ``"box01"``).  The target always runs with its
    global generators seeded (:class:`~audit.kinds.base.SeededGlobals`).

    Every argument is checked before anything runs (``ValueError`` naming it); so are loading
    and building the target and its kind, in the child, before any audit (``ValueError`` too).
    The check runs in a child process (``isolate``) that is stopped when it exceeds ``timeout``
    seconds, or one call of the target ``call_timeout`` seconds (``None``: no limit; both need
    ``isolate``); what the target prints is kept in the report's ``target_output``.  An
    exception raised while the target is imported or runs (by its code, or by the checks of what
    it returned), or a limit, ends the check with the report's ``crash`` set and the results
    found so far kept.  The results do not depend on ``isolate``.
    """
    t0 = time.perf_counter()
    split_spec("target", target)
    paths = check_paths(paths)
    if pair is not None:
        split_spec("pair", pair)
    chosen = registry.default(pair is not None) if kind is None else registry.by_name(kind)
    if not isinstance(claim, PrivacyClaim | PairClaim):
        raise ValueError(f"claim must be an audit.protocols.PrivacyClaim, got {claim!r:.80}")
    settings = CheckSettings(
        n=check_size(
            "n",
            chosen.default_horizon or 2 if n is None else n,
            2,
            item_bytes=8,
            what="a round's regret",
        ),
        runs=check_size("runs", runs, 2, item_bytes=8, what="a run's regret"),
        stream_n=check_int_at_least("stream_n", stream_n, 3),
        stream_runs=check_size("stream_runs", stream_runs, 4, item_bytes=8, what="a run"),
        seed=check_seed(seed),
        confidence=check_in_range("confidence", confidence, 0.0, 1.0),
        samples=check_size("samples", samples, 4, item_bytes=8, what="an output"),
        release_samples=check_size(
            "release_samples", release_samples, 4, item_bytes=8, what="a release"
        ),
        d=check_int_at_least("d", d, 2),
        num_arms=check_int_at_least("num_arms", num_arms, 1),
        gap=check_in_range("gap", gap, 0.0, math.inf, low_open=False),
        reference=reference,
        reward_range=_check_reward_range(reward_range),
        loss_set=loss_set,
        budget=check_positive("budget", budget),
        actions_only=check_bool("actions_only", actions_only),
        max_stages=check_int_at_least("max_stages", max_stages, 1),
        anchored_levels=_check_anchored_levels(anchored_levels, chosen.name),
    )
    target_kwargs = _check_target_kwargs(target_kwargs)
    check_bool("progress", progress)
    check_bool("isolate", isolate)
    timeout = _check_limit("timeout", timeout)
    call_timeout = _check_limit("call_timeout", call_timeout)
    if not isolate and (timeout is not None or call_timeout is not None):
        raise ValueError(
            "timeout and call_timeout need isolate=True (a limit ends the check's child "
            "process): pass timeout=None and call_timeout=None to run in this process"
        )
    if isinstance(claim, PairClaim) and pair is None:
        raise ValueError("claim: a PairClaim takes the relation of a pair; pass pair (--pair)")
    settings, note = _check_kind(chosen, claim, pair, settings)
    job = _CheckJob(target, claim, paths, target_kwargs, chosen, pair, settings, registry.KINDS)
    report = _run(job, timeout, call_timeout, isolate, progress)
    report.runtime_seconds, report.reference_note = time.perf_counter() - t0, note
    return report


def _run(
    job: _CheckJob,
    timeout: float | None,
    call_timeout: float | None,
    isolate: bool,
    progress: bool,
) -> CheckReport:
    """Run ``job`` (in a child process if ``isolate``) and build its report."""
    collect = _Collector(job.claim if isinstance(job.claim, PrivacyClaim) else None, progress)
    try:
        if isolate:
            preload = ("audit.check", *registry.KINDS)
            outcome = run_watched(job, timeout=timeout, call_timeout=call_timeout,
                                  on_event=collect, preload=preload)  # fmt: skip
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
        job.target, collect.claim, collect.privacy, collect.regret, 0.0, crash, collect.stated,
        collect.release, outcome.output, limit, None, job.kind, collect.stated_privacy,
        collect.stated_release,
    )  # fmt: skip


def _add_seconds(
    parser: argparse.ArgumentParser, flag: str, default: float | None, text: str
) -> None:
    """A time option of the check: ``SECONDS``, a finite number > 0, or ``default``."""
    parser.add_argument(
        flag, type=float_in(0.0, math.inf), default=default, metavar="SECONDS", help=text
    )


def build_parser(prog: str = "privonline check") -> argparse.ArgumentParser:
    """The command-line interface (``--kind`` and its defaults from :mod:`audit.kinds`)."""
    kinds = registry.registered()
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Audit a third-party implementation (module:attribute) of a --kind: a policy "
        "(e.g. an audit.protocols.StreamPolicy) for a claimed (ε, δ) on neighbouring streams and "
        "against the reference's regret, or a mechanism (audit.protocols.Mechanism, with --pair) "
        "for a claimed (ε, δ) on its pair. "
        "Writes check.json, check.md (and check.png); what the target prints goes into the "
        "report. Exit codes: 0 the claims hold, 1 privacy violation, 2 usage error (nothing ran), "
        "3 utility (regret) failure only, 4 the target crashed or was stopped by a time limit "
        "(the traceback or the limit is in the report), 5 inconclusive (nothing failed, but the "
        "privacy audit lacked the power a pass promises: raise --budget, --samples or "
        "--stream-runs). A target that states another calibration (its epsilon and delta "
        "attributes) than the claim is audited against both; the exit code follows the claim.",
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
        choices=tuple(dict.fromkeys(r for k in kinds for r in k.references)),
        default=None,
        help="reference of the regret comparison: "
        + "; ".join(
            f"{k.name}: {', '.join(k.references)} (default {k.default_reference})"
            for k in kinds
            if k.references
        )
        + "; a pure-ε linear claim is compared with nonprivate",
    )
    parser.add_argument(
        "--path", action="append", default=[], help="directory to prepend to sys.path (repeatable)"
    )
    parser.add_argument(
        "--kind",
        choices=tuple(k.name for k in kinds),
        default=None,
        help="kind of target: "
        + "; ".join(f"{k.name}, {k.help}" for k in kinds)
        + f" (default: {registry.default(False).name}, or {registry.default(True).name} with "
        "--pair)",
    )
    parser.add_argument(
        "--loss-set",
        choices=get_args(LossSetKind),
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
        help="horizon of the regret runs (default: "
        + ", ".join(f"{k.default_horizon} {k.name}" for k in kinds if k.default_horizon)
        + ")",
    )
    parser.add_argument(
        "--runs", type=int_at_least(2), default=30, help="paired regret runs (at least 2)"
    )
    parser.add_argument(
        "--stream-runs",
        type=int_at_least(4),
        default=1000,
        help="runs per stream in the first stage of a policy's privacy audit; each further stage "
        "doubles them (default %(default)s)",
    )
    _add_seconds(
        parser,
        "--budget",
        DEFAULT_BUDGET,
        "time the stages of a policy's privacy audit may take: stages are added until a "
        "violation, a pass at the promised power (1.5 times the claimed ε caught with "
        "probability 0.95 on the audited event), or this budget (default %(default)g)",
    )
    parser.add_argument(
        "--max-stages",
        type=int_at_least(1),
        default=8,
        help="most stages of a policy's privacy audit (default %(default)s); a report records "
        "how many ran, and the same seed with that many stages and a large --budget repeats it",
    )
    parser.add_argument(
        "--actions-only",
        action="store_true",
        help="audit a policy from its choices (or points) alone, as an outside observer: ignore "
        "the release_mechanism() it may expose",
    )
    parser.add_argument(
        "--anchored-levels",
        default="",
        metavar="L[,L...]",
        help="add to a linear policy's designs the anchored design for noise reused across a "
        "tree's releases, one per tree level L in [4, 14] (3·2^(L−2) days each: slow; L = 11 "
        "shows the reused-noise LinUCB of the zoo from its actions; default: none)",
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
    _add_seconds(
        parser,
        "--timeout",
        None,
        "stop the whole check after SECONDS (exit 4, the partial report written; default: "
        "no limit)",
    )
    _add_seconds(
        parser,
        "--call-timeout",
        DEFAULT_CALL_TIMEOUT,
        "stop the check when one call of the target (its import, construction, one run, "
        "play or sample) runs longer than SECONDS (exit 4, the partial report written; default "
        "%(default)g)",
    )
    parser.add_argument("--out", type=Path, default=Path("results/check"), help="report folder")
    return parser


MAX_ANCHORED_LEVELS = 14
"""Largest tree of an anchored design (``2^14`` leaves, a stream of 12288 days)."""


def _check_anchored_levels(levels: Sequence[int], kind: str) -> tuple[int, ...]:
    """``anchored_levels`` checked: integers in ``[4, MAX_ANCHORED_LEVELS]``, for a linear policy."""
    if isinstance(levels, str) or not isinstance(levels, Sequence):
        raise ValueError(f"anchored_levels must be a sequence of integers, got {levels!r:.80}")
    out = tuple(check_int_at_least("anchored_levels", v, 4) for v in levels)
    if any(v > MAX_ANCHORED_LEVELS for v in out):
        raise ValueError(
            f"anchored_levels must be integers in [4, {MAX_ANCHORED_LEVELS}], got {list(out)}"
        )
    if len(set(out)) != len(out):
        raise ValueError(f"anchored_levels must not repeat a level, got {list(out)}")
    if out and kind != "linear":
        raise ValueError(
            f"anchored_levels applies to linear policies (--kind linear), not to kind {kind!r}"
        )
    return out


def _anchored_levels(text: str) -> list[int]:
    try:
        return [int(v) for v in text.split(",") if v.strip()]
    except ValueError as err:
        raise ValueError(
            f"--anchored-levels must be comma-separated integers in [4, {MAX_ANCHORED_LEVELS}], "
            f"got {text!r}"
        ) from err


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


def main(argv: Sequence[str] | None = None, prog: str = "privonline check") -> int:
    """Entry point; returns the exit code of :data:`~audit.check_report.EXIT_CODES` (2 on a usage
    error)."""
    args = build_parser(prog).parse_args(argv)
    try:
        target_kwargs = _target_kwargs(args.target_kwargs)
        reward_range = _reward_range(args.reward_range)
        kind = (
            registry.default(args.pair is not None)
            if args.kind is None
            else (registry.by_name(args.kind))
        )
        # The command line builds the claim itself, under the relation the neighbours are given
        # under (a pair's, taken once the pair is loaded; t-neighbouring inputs -- Definition 1
        # of Shariff & Sheffet -- for a policy), and says so in the claim's label, which the
        # report shows.
        claim: PrivacyClaim | PairClaim = PairClaim(args.epsilon, args.delta)
        if not kind.takes_pair:
            label = f"claimed (ε, δ) under 't_neighbouring' ({kind.claim_source})"
            claim = PrivacyClaim(args.epsilon, args.delta, "t_neighbouring", label)
        prepare_output_dir(args.out)
        report = run_check(
            args.target,
            claim,
            paths=args.path,
            target_kwargs=target_kwargs,
            kind=kind.name,
            reward_range=reward_range,
            pair=args.pair,
            samples=args.samples,
            reference=args.reference,
            n=args.n,
            loss_set=args.loss_set,
            runs=args.runs,
            stream_runs=args.stream_runs,
            release_samples=args.release_samples,
            seed=args.seed,
            progress=sys.stderr.isatty(),
            timeout=args.timeout,
            call_timeout=args.call_timeout,
            budget=args.budget,
            actions_only=args.actions_only,
            max_stages=args.max_stages,
            anchored_levels=_anchored_levels(args.anchored_levels),
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
