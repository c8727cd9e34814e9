"""``privonline check``: audit a third-party implementation against a claim (and the reference).

The target is a **mechanism** with a neighbouring pair (``--pair``; white box with a density,
else black box) or a **policy** of a :data:`POLICY_KINDS` kind (linear contextual, multi-armed,
online learner): its outputs audited over searched neighbouring streams (Holm over the judged
ones), its releases too if it exposes them (:class:`~audit.protocols.ReleasingPolicy`), and its
regret compared with the papers' matching reference.  Privacy and utility get separate
verdicts; the exit codes are :data:`EXIT_CODES` (2: usage error).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args

import matplotlib
import numpy as np
from tqdm import tqdm

matplotlib.use("Agg")
import matplotlib.pyplot as plt

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
from audit.results import SCHEMA_VERSION, PrivacyAuditResult, to_jsonable
from reference._typing import FloatArray
from reference.agarwal_singh.sets import LossSetKind
from reference.files import atomic_savefig, atomic_write_text, prepare_output_dir, write_json
from reference.rng import check_seed
from reference.shariff_sheffet.regularizers import VARIANTS, PrivacyParameters
from reference.validation import check_choice, float_in, int_at_least

LOSS_SET_KINDS: tuple[LossSetKind, ...] = get_args(LossSetKind)

__all__ = [
    "DEFAULT_HORIZONS",
    "EXIT_CODES",
    "POLICY_KINDS",
    "STREAM_TOP",
    "CheckReport",
    "RescaledRecords",
    "RescaledRecordsDensity",
    "RescaledRewards",
    "SeededGlobals",
    "SeededGlobalsDensity",
    "SeededGlobalsMechanism",
    "SeededGlobalsOnline",
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

Verdict = Literal["pass", "PRIVACY VIOLATION", "UTILITY FAILURE", "CRASHED", "inconclusive"]

EXIT_CODES: dict[Verdict, int] = {
    "pass": 0,
    "PRIVACY VIOLATION": 1,
    "UTILITY FAILURE": 3,
    "CRASHED": 4,
    "inconclusive": 5,
}
"""The exit code of each overall verdict (2 is a usage error: the check could not start)."""


def _seed_globals(rng: np.random.Generator) -> None:
    """Seed Python's and numpy's global generators from ``rng`` (for code that uses them)."""
    np.random.seed(int(rng.integers(2**32)))  # noqa: NPY002 -- the legacy global is the point
    random.seed(int(rng.integers(2**63)))


class SeededGlobals:
    """A policy run with Python's and numpy's *global* generators seeded from the ``rng`` each
    ``run`` receives: implementations that draw from ``numpy.random.*`` or ``random`` instead of
    the generator they are given become reproducible (same seed, same report) and their runs
    independent (each run's seeds are spawned apart).  The global state is changed, as the
    wrapped code expects."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The wrapped policy's ``run`` after seeding the global generators from ``rng``."""
        _seed_globals(rng)
        return self.inner.run(decision_sets, reward_tables, rng)

    def __repr__(self) -> str:
        return repr(self.inner)


class SeededGlobalsOnline:
    """:class:`SeededGlobals` for an online learner: ``play`` after seeding the global
    generators from ``rng``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def play(self, losses: Any, rng: np.random.Generator) -> Any:
        """The wrapped learner's ``play`` after seeding the global generators from ``rng``."""
        _seed_globals(rng)
        return self.inner.play(losses, rng)

    def __repr__(self) -> str:
        return repr(self.inner)


class SeededGlobalsMechanism:
    """:class:`SeededGlobals` for a mechanism: ``sample`` after seeding the global generators."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        """The wrapped mechanism's ``sample`` after seeding the global generators from ``rng``."""
        _seed_globals(rng)
        return self.inner.sample(data, rng, size)

    def __repr__(self) -> str:
        return repr(self.inner)


class SeededGlobalsDensity(SeededGlobalsMechanism):
    """:class:`SeededGlobalsMechanism` that keeps the wrapped mechanism's ``log_density``."""

    def log_density(self, data: Any, outputs: Any) -> Any:
        """The wrapped mechanism's ``log_density``."""
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


def _with_seeded_globals(target: Any) -> Any:
    if isinstance(target, StreamPolicy):
        return SeededGlobals(target)
    if isinstance(target, OnlinePolicy):
        return SeededGlobalsOnline(target)
    if isinstance(target, DensityMechanism):
        return SeededGlobalsDensity(target)
    return SeededGlobalsMechanism(target)


def load_object(spec: str, paths: Sequence[str] = ()) -> Any:
    """Import ``module:attribute`` after prepending ``paths`` to ``sys.path``."""
    if spec.count(":") != 1:
        raise ValueError(f"target must be 'module:attribute', got {spec!r}")
    module_name, attribute = spec.split(":")
    for path in reversed(list(paths)):
        if path not in sys.path:
            sys.path.insert(0, path)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"target module {module_name!r} cannot be imported: {error}") from error
    if not hasattr(module, attribute):
        raise ValueError(f"target module {module_name!r} has no attribute {attribute!r}")
    return getattr(module, attribute)


def load_target(
    spec: str, paths: Sequence[str] = (), kwargs: dict[str, Any] | None = None
) -> StreamPolicy | OnlinePolicy | Mechanism[Any]:
    """The policy or mechanism named ``module:attribute``; a class or factory is called first,
    with ``kwargs`` (``--target-kwargs``).  A class is always instantiated: the class object
    itself has the protocol's methods as plain functions, so it would pass a runtime protocol
    check.  ``kwargs`` for a target that is already an instance is a ``ValueError``."""
    target: Any = load_object(spec, paths)
    kwargs = {} if kwargs is None else dict(kwargs)
    if isinstance(target, type) or (
        not isinstance(target, StreamPolicy | OnlinePolicy | Mechanism) and callable(target)
    ):
        try:
            target = target(**kwargs)
        except TypeError as err:
            given = f"with --target-kwargs {json.dumps(kwargs)}" if kwargs else "with no arguments"
            raise ValueError(
                f"target {spec!r} cannot be constructed {given}: {err}; pass its constructor "
                "arguments as a JSON object with --target-kwargs"
            ) from err
    elif kwargs:
        raise ValueError(
            f"target {spec!r} is already an instance: --target-kwargs applies only to a class "
            "or factory"
        )
    if not isinstance(target, StreamPolicy | OnlinePolicy | Mechanism):
        raise ValueError(
            f"target {spec!r} must satisfy audit.protocols.StreamPolicy (run(decision_sets, "
            "reward_tables, rng) -> actions), audit.protocols.OnlinePolicy (play(losses, rng) -> "
            "points) or audit.protocols.Mechanism (sample(data, rng, size))"
        )
    return target


def load_pair(spec: str, paths: Sequence[str] = ()) -> NeighbouringPair[Any]:
    """The :class:`~audit.protocols.NeighbouringPair` named ``module:attribute``."""
    pair = load_object(spec, paths)
    if not isinstance(pair, NeighbouringPair):
        raise ValueError(f"pair {spec!r} must be an audit.protocols.NeighbouringPair")
    return pair


@dataclass
class CheckReport:
    """Everything ``privonline check`` found, with separate privacy and utility verdicts.

    ``privacy`` is the audit of the policy's actions (or of the mechanism); ``release`` the audit
    of what a :class:`~audit.protocols.ReleasingPolicy` releases, if it exposes that.  ``privacy``
    is ``None`` only when the target crashed before its privacy audit finished; ``crash`` is then
    the traceback of what it raised (or of the check that refused its outputs, e.g. NaN actions).
    """

    target: str
    claim: PrivacyClaim
    privacy: PrivacyAuditResult | None
    regret: RegressionCheckResult | MultiArmedRegretResult | OnlineRegretResult | None
    runtime_seconds: float
    crash: str | None = None
    stated: dict[str, float] | None = None
    release: PrivacyAuditResult | None = None

    @property
    def calibration_note(self) -> str | None:
        """How the claim compares with the calibration the target states (its ``epsilon`` and
        ``delta`` attributes, :func:`stated_calibration`); ``None`` if it states none."""
        if not self.stated:
            return None
        claimed = {"epsilon": self.claim.epsilon, "delta": self.claim.delta}
        differ = {k: v for k, v in self.stated.items() if not math.isclose(v, claimed[k])}
        stated = ", ".join(f"{k} = {v:g}" for k, v in self.stated.items())
        if not differ:
            return f"the claim matches the calibration the target states ({stated})"
        return (
            f"the claim differs from the calibration the target states ({stated}): the audit "
            "tests the claim as given; build the target for it with --target-kwargs, or claim "
            "what it states"
        )

    @property
    def privacy_verdict(self) -> Literal["VIOLATION", "pass", "inconclusive"] | None:
        """The verdict of the privacy audits together: ``"VIOLATION"`` if either rejected the
        claim, else ``"pass"`` if either had the power a pass promises
        (:attr:`~audit.results.PrivacyAuditResult.verdict`), else ``"inconclusive"``."""
        audits = [a for a in (self.privacy, self.release) if a is not None]
        if not audits:
            return None
        if any(a.violation for a in audits):
            return "VIOLATION"
        return "pass" if any(a.verdict == "pass" for a in audits) else "inconclusive"

    @property
    def utility_verdict(self) -> Literal["pass", "FAIL"] | None:
        """The regret comparison's verdict (``None`` for a mechanism, or if it never ran)."""
        if self.regret is None:
            return None
        return "pass" if self.regret.passed else "FAIL"

    @property
    def verdict(self) -> Verdict:
        """The overall verdict, in this order: a privacy violation found stands even if the
        target crashed later; then a crash; then a utility failure; then ``"inconclusive"`` when
        the privacy audit could not have caught a violation of the size a pass promises."""
        if self.privacy_verdict == "VIOLATION":
            return "PRIVACY VIOLATION"
        if self.crash is not None or self.privacy is None:
            return "CRASHED"
        if self.utility_verdict == "FAIL":
            return "UTILITY FAILURE"
        return "inconclusive" if self.privacy_verdict == "inconclusive" else "pass"

    @property
    def exit_code(self) -> int:
        """:data:`EXIT_CODES` of :attr:`verdict`."""
        return EXIT_CODES[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report."""
        regret: Any = None
        if self.regret is not None:
            regret = to_jsonable(self.regret)
            regret["passed"] = self.regret.passed
            if isinstance(self.regret, RegressionCheckResult):
                regret["scaling_gated"] = self.regret.scaling_gated
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "third_party_check",
            "target": self.target,
            "claim": to_jsonable(self.claim),
            "verdict": self.verdict,
            "exit_code": self.exit_code,
            "privacy_verdict": self.privacy_verdict,
            "utility_verdict": self.utility_verdict,
            "privacy": None if self.privacy is None else self.privacy.to_dict(),
            "release": None if self.release is None else self.release.to_dict(),
            "regret": regret,
            "crash": self.crash,
            "stated_calibration": self.stated,
            "calibration_note": self.calibration_note,
            "golden": "not applicable to an implementation object (`privonline golden` checks "
            "the formulas)",
            "runtime_seconds": self.runtime_seconds,
        }

    def markdown(self) -> str:
        """A short human-readable report."""
        p, rel = self.privacy, self.release
        lines = [
            f"# privonline check: `{self.target}`",
            "",
            f"Verdict: **{self.verdict}** (exit code {self.exit_code}; "
            f"{self.runtime_seconds:.0f} s).",
            "",
            *([f"Claim: {self.claim.label}.", ""] if self.claim.label else []),
            *([f"Calibration: {self.calibration_note}.", ""] if self.calibration_note else []),
            "| check | result | verdict |",
            "|---|---|---|",
        ]
        for audit, what in ((p, "privacy"), (rel, "release-level privacy")):
            if audit is None:
                continue
            power = (
                f", would catch ε ≥ {audit.detectable_epsilon:.3g}"
                if audit.detectable_epsilon is not None
                else f", would catch δ(ε_claim) ≥ {audit.detectable_delta:.3g}"
                if audit.detectable_delta is not None
                else ""
            )
            lines.append(
                f"| {audit.method.replace('_', ' ')} {what} vs claim ({self.claim.epsilon:g}, "
                f"{self.claim.delta:g}), {self.claim.relation} | ε lower bound "
                f"{audit.epsilon_lower_bound:.3g}, p = {audit.p_value:.3g}{power} | "
                f"{'**VIOLATION**' if audit.violation else audit.verdict} |"
            )
        r = self.regret
        if isinstance(r, OnlineRegretResult):
            reference = "Algorithm 1" if r.feedback == "full" else "Algorithm 4 over EXP2"
            lines.append(
                f"| regret vs Agarwal & Singh's {reference} at ε = {r.epsilon:g} ({r.runs} paired "
                f"runs, T = {r.horizon}) | candidate {r.candidate_mean:.1f}, reference "
                f"{r.reference_mean:.1f}, Wilcoxon p = {r.wilcoxon_pvalue:.3g} | "
                f"{'**WORSE**' if r.worse else 'pass'} |"
            )
        elif isinstance(r, MultiArmedRegretResult):
            lines.append(
                f"| regret vs {'DP-SE' if r.reference == 'dp_se' else 'DP-UCB'} at ε = "
                f"{r.epsilon:g} ({r.runs} paired runs, T = {r.horizon}) | "
                f"candidate {r.candidate_mean:.1f}, reference {r.reference_mean:.1f}, Wilcoxon p = "
                f"{r.wilcoxon_pvalue:.3g} | {'**WORSE**' if r.worse else 'pass'} |"
            )
        elif r is not None:
            lines += [
                f"| regret vs reference ({r.runs} paired runs) | candidate {r.candidate_mean:.1f}, "
                f"reference {r.reference_mean:.1f}, Wilcoxon p = {r.wilcoxon_pvalue:.3g} | "
                f"{'**WORSE**' if r.worse else 'pass'} |",
                f"| Theorem 5 containment | {r.candidate_containment.failures}/"
                f"{r.candidate_containment.runs} runs above | "
                f"{'**VIOLATION**' if r.candidate_containment.violation else 'pass'} |",
                f"| scaling vs Theorem 5's form | slope {r.candidate_scaling.slope:.2f} "
                f"[{r.candidate_scaling.ci_low:.2f}, {r.candidate_scaling.ci_high:.2f}] "
                f"(reference {r.reference_scaling.slope:.2f}) | {_scaling_verdict(r)} |",
            ]
        lines += [
            "",
            "Golden vectors do not apply to an implementation object (`privonline golden` checks "
            "the formulas).",
            "",
        ]
        if r is not None:
            lines += ["![regret](check.png)", ""]
        for audit, what in ((p, "Streams"), (rel, "Record streams (release level)")):
            search = None if audit is None else audit.details.get("search")
            if search is None:
                continue
            judged = "; ".join(
                f"{j['candidate']}: ε_LB {j['epsilon_lower_bound']:.3g}, {j['verdict']}"
                for j in search["judged"]
            )
            lines += [
                f"{what} searched: {', '.join(search['screened'])}; judged ({search['family']}): "
                f"{judged}.",
                "",
            ]
        if self.crash is not None:
            lines += ["## The target crashed", "", "```", self.crash.rstrip(), "```", ""]
        return "\n".join(lines)

    def write(self, out: Path) -> None:
        """Write ``check.json``, ``check.md`` and ``check.png`` into ``out``."""
        prepare_output_dir(out)
        write_json(out / "check.json", self.to_dict())
        atomic_write_text(out / "check.md", self.markdown())
        if self.regret is None:
            return
        fig, ax = plt.subplots(figsize=(4.5, 3.5))
        labels = ["candidate", "reference"]
        ax.bar(labels, [self.regret.candidate_mean, self.regret.reference_mean])
        ax.set_ylabel("mean final regret")
        ax.set_title("regret on the same environments")
        fig.tight_layout()
        atomic_savefig(fig, out / "check.png", dpi=110)
        plt.close(fig)


def _scaling_verdict(r: RegressionCheckResult) -> str:
    if not r.scaling_gated:
        return "reported (the reference is pre-asymptotic at this horizon)"
    return "pass" if r.candidate_scaling.consistent else "**INCONSISTENT**"


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


def _one_of(name: str, value: str, choices: tuple[_C, ...]) -> _C:
    """The element of ``choices`` equal to ``value`` (``ValueError`` naming ``name`` if none)."""
    for choice in choices:
        if choice == value:
            return choice
    raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")


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


def run_check(
    target: str,
    claim: PrivacyClaim,
    *,
    paths: Sequence[str] = (),
    target_kwargs: dict[str, Any] | None = None,
    kind: PolicyKind = "linear",
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
) -> CheckReport:
    """Run every check of the module docstring on ``target``.

    For a mechanism, ``claim`` must be made under the relation of ``pair`` (the command line builds
    it so); for a policy, under ``"t_neighbouring"``, and no ``pair`` is taken (the policy runs on
    the worst-case t-neighbouring streams).  A mismatch is a ``ValueError``: the claim is never
    rewritten.  The target always runs with its global generators seeded (:class:`SeededGlobals`);
    ``reward_range`` rescales a linear policy's rewards (:class:`RescaledRewards`).  A policy
    that exposes its releases (:class:`~audit.protocols.ReleasingPolicy`) is also audited at the
    release level (:func:`audit.methods.release.release_audit`, ``release_samples`` draws per
    record stream); the stream and release families then split ``1 − confidence`` evenly.  An
    online learner (``kind`` ``"online_full"`` or ``"online_bandit"``) is audited on loss
    sequences in ``loss_set`` (default: the ``loss_set`` the target states, else ``"box01"``).
    Errors in the arguments (loading, building the target, the claim) raise
    ``ValueError`` before anything runs; an exception raised while the target runs (by its code,
    or by the checks of what it returned) ends the check with :attr:`CheckReport.crash` set and the
    results found so far kept.
    """
    t0 = time.perf_counter()
    seed = check_seed(seed)
    if kind not in POLICY_KINDS:
        raise ValueError(f"kind must be one of {POLICY_KINDS}, got {kind!r}")
    if kind == "linear":
        linear_reference = _one_of("reference", reference or "gaussian", VARIANTS)
        reference = linear_reference
    elif kind == "multi_armed":
        armed_reference = _one_of("reference", reference or "dp_se", MULTI_ARMED_REFERENCES)
        reference = armed_reference
    elif reference is not None:
        raise ValueError(
            f"reference (--reference) is fixed for {kind}: Agarwal & Singh's Algorithm 1 (full "
            "information) or Algorithm 4 over EXP2 (bandit); drop --reference"
        )
    if kind == "linear" and claim.delta == 0.0 and reference != "nonprivate":
        raise ValueError(
            "a pure-ε claim (delta 0) for a linear contextual policy has no private reference in "
            "the papers (Shariff & Sheffet's Algorithm 1 needs δ > 0): pass --reference "
            "nonprivate, or --kind multi_armed for a multi-armed policy (compared with DP-SE)"
        )
    policy = _with_seeded_globals(load_target(target, paths, target_kwargs))
    stated = stated_calibration(policy)
    online = kind in ("online_full", "online_bandit")
    if reward_range is not None:
        if not isinstance(policy, StreamPolicy) or kind != "linear":
            raise ValueError("reward_range (--reward-range) applies to linear policies only")
        policy = RescaledRewards(policy, *reward_range)
    if isinstance(policy, StreamPolicy | OnlinePolicy) and pair is not None:
        raise ValueError(
            f"pair (--pair) is for mechanisms only: target {target!r} is a policy, audited on "
            "the t-neighbouring streams of its kind; drop --pair"
        )
    if isinstance(policy, StreamPolicy) and online:
        raise ValueError(
            f"kind {kind!r} needs an audit.protocols.OnlinePolicy (play(losses, rng) -> points), "
            f"but target {target!r} is a bandit policy (run(decision_sets, reward_tables, rng)): "
            "pass --kind linear or multi_armed"
        )
    if isinstance(policy, OnlinePolicy) and not online:
        raise ValueError(
            f"target {target!r} is an online learner (audit.protocols.OnlinePolicy): pass --kind "
            "online_full or online_bandit"
        )
    if loss_set is not None and not online:
        raise ValueError("loss_set (--loss-set) applies to online learners only")
    losses: LossSetKind = _loss_set_of(policy, loss_set)
    if not isinstance(policy, StreamPolicy | OnlinePolicy):
        if pair is None:
            raise ValueError("pair must name a NeighbouringPair (module:attribute) for a mechanism")
        neighbours = load_pair(pair, paths)
        check_claim_matches_pair(claim, neighbours)
        try:
            if isinstance(policy, DensityMechanism):
                result = white_box_audit(
                    policy, neighbours, claim, samples=samples, seed=seed,
                    name=f"{target} white box", confidence=confidence,
                )  # fmt: skip
            else:
                result = event_audit(
                    policy, neighbours, claim, samples=samples, seed=seed,
                    name=f"{target} black box", confidence=confidence,
                )  # fmt: skip
        except Exception:  # the target's own failure, reported with its traceback
            return CheckReport(
                target, claim, None, None, time.perf_counter() - t0, traceback.format_exc(), stated
            )
        return CheckReport(target, claim, result, None, time.perf_counter() - t0, None, stated)
    privacy: PrivacyAuditResult | None = None
    release: PrivacyAuditResult | None = None
    regret: RegressionCheckResult | MultiArmedRegretResult | OnlineRegretResult | None = None

    def report(crash: str | None) -> CheckReport:
        return CheckReport(
            target, claim, privacy, regret, time.perf_counter() - t0, crash, stated, release
        )

    record_kind: RecordKind = (
        "online" if online else "linear" if kind == "linear" else "multi_armed"
    )
    # candidate streams screened, the best audited; the same for the records if the policy
    # exposes its releases; then the regret
    screened = {"linear": 6, "multi_armed": 2, "online": 4}[record_kind]
    records = {"linear": 6, "multi_armed": 2, "online": 4}[record_kind]
    bar = tqdm(total=0, desc="privacy: stream audits", unit="audit", disable=not progress)
    try:
        aggregator = release_mechanism(policy)
        # with a release audit, the two families share the error budget (Bonferroni)
        level = confidence if aggregator is None else 1.0 - (1.0 - confidence) / 2.0
        bar.total = screened + STREAM_TOP + 1
        if aggregator is not None:
            bar.total += records + STREAM_TOP
        bar.refresh()
        if isinstance(policy, OnlinePolicy):
            privacy = online_search_audit(
                policy, claim, n=stream_n, runs=stream_runs, seed=seed, confidence=level,
                name=f"{target} DP", loss_set=losses, progress=bar,
            )  # fmt: skip
        else:
            privacy = stream_search_audit(
                policy, claim, n=stream_n, runs=stream_runs, seed=seed, confidence=level,
                name=f"{target} joint DP", kind=kind, progress=bar,
            )  # fmt: skip
        if aggregator is not None:
            bar.set_description("privacy: release audits")
            if reward_range is not None:
                wrap = (
                    RescaledRecordsDensity
                    if isinstance(aggregator, DensityMechanism)
                    else RescaledRecords
                )
                aggregator = wrap(aggregator, *reward_range)
            stated_days = getattr(aggregator, "days", None)
            release = release_audit(
                _with_seeded_globals(aggregator),
                record_kind,
                claim,
                n=stated_days
                if isinstance(stated_days, int) and not isinstance(stated_days, bool)
                else stream_n,
                m={"linear": 3, "multi_armed": len(DEFAULT_MEANS), "online": ONLINE_DIM}[
                    record_kind
                ],
                samples=release_samples,
                seed=seed,
                confidence=level,
                top=STREAM_TOP,
                name=f"{target} releases",
                loss_set=losses,
                progress=bar,
            )
        bar.set_description("utility: regret vs reference")
        if isinstance(policy, OnlinePolicy):
            regret = online_regret_check(
                policy,
                feedback="full" if kind == "online_full" else "bandit",
                epsilon=claim.epsilon,
                dim=ONLINE_DIM,
                horizon=n,
                runs=runs,
                seed=seed + 1,
                confidence=confidence,
            )
        elif kind == "multi_armed":
            regret = multi_armed_regret_check(
                policy,
                epsilon=claim.epsilon,
                horizon=n,
                runs=runs,
                seed=seed + 1,
                confidence=confidence,
                name=f"{target} vs {armed_reference}",
                reference=armed_reference,
            )
        else:
            regret = regret_regression_check(
                policy,
                linear_reference,
                d=d,
                num_arms=num_arms,
                gap=gap,
                n=n,
                runs=runs,
                seed=seed + 1,
                privacy=None
                if reference == "nonprivate"
                else PrivacyParameters(claim.epsilon, claim.delta),
                confidence=confidence,
                name=f"{target} vs reference {reference}",
            )
        bar.update(1)
    except Exception:  # the target's own failure, reported with its traceback
        bar.close()
        return report(traceback.format_exc())
    bar.close()
    return report(None)


def build_parser(prog: str = "privonline check") -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Audit a third-party implementation (module:attribute): a bandit policy "
        "(audit.protocols.StreamPolicy) for a claimed joint-DP (ε, δ) and against the reference's "
        "regret, or a mechanism (audit.protocols.Mechanism, with --pair) for a claimed (ε, δ). "
        "Writes check.json, check.md (and check.png). Exit codes: 0 the claims hold, 1 privacy "
        "violation, 2 usage error (nothing ran), 3 utility (regret) failure only, 4 the target "
        "crashed (its traceback is in the report), 5 inconclusive (nothing failed, but the privacy "
        "audit lacked the power a pass promises: raise --samples or --stream-runs).",
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
        "for a linear policy (default gaussian), dp_se or dp_ucb for a multi-armed one (default "
        "dp_se); an online learner is compared with Agarwal & Singh's algorithm",
    )
    parser.add_argument(
        "--path", action="append", default=[], help="directory to prepend to sys.path (repeatable)"
    )
    parser.add_argument(
        "--kind",
        choices=POLICY_KINDS,
        default="linear",
        help="policy kind: linear contextual (regret vs Algorithm 1); multi_armed (rewards in "
        "{0, 1}, one-hot arms, regret vs DP-SE; pure-ε claims allowed); online_full or "
        "online_bandit (an OnlinePolicy on loss sequences in --loss-set, regret vs Agarwal & "
        "Singh's Algorithm 1 or Algorithm 4; pure-ε claims allowed) (default %(default)s)",
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


def main(argv: Sequence[str] | None = None, prog: str = "privonline check") -> int:
    """Entry point; returns the exit code of :data:`EXIT_CODES` (2 on a usage error)."""
    args = build_parser(prog).parse_args(argv)
    try:
        target_kwargs = _target_kwargs(args.target_kwargs)
        reward_range = _reward_range(args.reward_range)
        # The command line builds the claim itself, under the relation the neighbours are given
        # under (the pair's for a mechanism, t-neighbouring streams -- Definition 1 of Shariff &
        # Sheffet -- for a policy), and says so in the claim's label, which the report shows.
        if args.pair is None:
            relation: NeighbourRelation = "t_neighbouring"
            source = {
                "linear": "joint DP on t-neighbouring streams, Shariff & Sheffet Definition 1",
                "multi_armed": "event-level DP, one reward changed, Sajed & Sheffet Sec. 2",
                "online_full": "one round's loss vector changed, Agarwal & Singh Definition 2.1",
                "online_bandit": "one round's loss vector changed, Agarwal & Singh Definition 2.1",
            }[args.kind]
        else:
            relation = load_pair(args.pair, args.path).relation
            source = f"the relation of --pair {args.pair}"
        claim = PrivacyClaim(
            args.epsilon, args.delta, relation, f"claimed (ε, δ) under {relation!r} ({source})"
        )
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
            n=args.n if args.n is not None else DEFAULT_HORIZONS[args.kind],
            loss_set=args.loss_set,
            runs=args.runs,
            stream_runs=args.stream_runs,
            release_samples=args.release_samples,
            seed=args.seed,
            progress=sys.stderr.isatty(),
        )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    report.write(args.out)
    print(report.markdown())
    if report.crash is not None:
        last = report.crash.strip().splitlines()[-1]
        print(f"error: the target failed while it was checked: {last}", file=sys.stderr)
    print(f"report: {args.out / 'check.md'}")
    return report.exit_code
