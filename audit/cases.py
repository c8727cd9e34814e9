"""Audit cases, one runner, and what their verdicts count for.

An :class:`AuditCase` is one mechanism with a role (``"correct"``, ``"paper_calibration"``: the
paper's own calibration, possibly an erratum, or ``"broken"``: a planted bug) and its tester.
:func:`run_cases` seeds every case from its *name* (:func:`reference.rng.named_seed`), corrects the
privacy tests of correct cases as one family with an explicit :class:`~audit.familywise.FamilyWise`
strategy, and judges every other test at its own level.  A bug counts as caught only by a test of
the *exact* claim or by an accuracy test, never by the printed claim alone.

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeAlias, TypeVar

import numpy as np

from audit.familywise import FamilyWise
from audit.methods.binomial import RunAuditResult
from audit.results import SCHEMA_VERSION, PrivacyAuditResult, produced_by, to_jsonable
from reference.rng import SeedLike, as_seed_sequence, named_seed, seed_for
from reference.validation import check_callable, check_choice

__all__ = [
    "ROLES",
    "AuditCase",
    "AuditResult",
    "CaseReport",
    "CaseRow",
    "Role",
    "bugs_caught",
    "case_seed",
    "caught_by_exact_or_accuracy",
    "run_case_groups",
    "run_cases",
]

AuditResult: TypeAlias = PrivacyAuditResult | RunAuditResult
"""The result of one test: a privacy test or a binomial (accuracy) test."""

Role: TypeAlias = Literal["correct", "paper_calibration", "broken"]
ROLES: tuple[Role, ...] = ("correct", "paper_calibration", "broken")


def caught_by_exact_or_accuracy(result: AuditResult, bug: str | None) -> bool:
    """Whether rejecting ``result`` catches ``bug``: an accuracy test, or a privacy test of the
    exact claim (its label starts with ``"exact"``); never for a correct mechanism."""
    if bug is None:
        return False
    return not isinstance(result, PrivacyAuditResult) or result.claim.label.startswith("exact")


class JudgedRow(Protocol):
    """A judged test: the bug it runs, whether it counts for power, and its final verdict."""

    @property
    def bug(self) -> str | None:
        """The bug or erratum the test runs (``None`` for a correct mechanism)."""

    @property
    def counts_for_power(self) -> bool:
        """Whether its rejection catches the bug."""

    @property
    def rejected(self) -> bool:
        """Its final verdict."""


RowT = TypeVar("RowT", bound=JudgedRow)
KeyT = TypeVar("KeyT")


def bugs_caught(rows: Sequence[RowT], key: Callable[[RowT, str], KeyT]) -> dict[KeyT, bool]:
    """Every bug, keyed by ``key(row, bug)`` in order of first appearance, and whether one of its
    power tests (``counts_for_power``) rejected."""
    caught: dict[KeyT, bool] = {}
    for r in rows:
        if r.bug is not None:
            k = key(r, r.bug)
            caught[k] = caught.get(k, False) or (r.counts_for_power and r.rejected)
    return caught


@dataclass(frozen=True)
class AuditCase:
    """One mechanism under audit and its tester.

    Attributes:
        name: unique within a run; the case's seed is derived from it.
        role: ``"correct"``, ``"paper_calibration"`` or ``"broken"``.
        run: the tester: given the case's seed, it draws and returns its test results.
        bug: the planted bug (``"broken"``) or the erratum (``"paper_calibration"``); ``None`` for
            a correct mechanism.
        counts_for_power: whether a result's rejection catches the bug (default
            :func:`caught_by_exact_or_accuracy`).
    """

    name: str
    role: Role
    run: Callable[[np.random.SeedSequence], Sequence[AuditResult]]
    bug: str | None = None
    counts_for_power: Callable[[AuditResult, str | None], bool] = caught_by_exact_or_accuracy

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        check_choice("role", self.role, ROLES)
        check_callable("run", self.run)
        if (self.role == "correct") != (self.bug is None):
            raise ValueError(
                f"case {self.name!r}: bug must be None for a correct case and name the bug or "
                f"erratum otherwise (role {self.role!r}, bug {self.bug!r})"
            )


@dataclass(frozen=True)
class CaseRow:
    """One test of one case, with its final verdict.

    ``rejected`` is the family-wise verdict for the privacy tests of correct cases and the test's
    own verdict otherwise; ``in_family`` says which, and ``adjusted_p_value`` is the strategy's
    adjusted p-value of a family member (``None`` outside the family).
    """

    case: str
    role: Role
    bug: str | None
    name: str
    kind: Literal["privacy", "accuracy"]
    p_value: float | None
    rejected: bool
    in_family: bool
    counts_for_power: bool
    result: AuditResult = field(repr=False)
    adjusted_p_value: float | None = None


@dataclass
class CaseReport:
    """Every row of a run, the strategy, the root seed and the runtime."""

    rows: list[CaseRow]
    strategy: FamilyWise
    seed: int | None
    runtime_seconds: float

    @property
    def false_alarms(self) -> list[str]:
        """Tests of correct cases that were rejected."""
        return [f"{r.case}: {r.name}" for r in self.rows if r.role == "correct" and r.rejected]

    def bugs(self) -> dict[str, bool]:
        """Every bug or erratum and whether one of its power tests rejected."""
        return bugs_caught(self.rows, lambda _, bug: bug)

    @property
    def missed(self) -> list[str]:
        """Bugs none of whose power tests rejected."""
        return [bug for bug, hit in self.bugs().items() if not hit]

    @property
    def verdict(self) -> Literal["pass", "FAIL"]:
        """``"pass"`` when no correct case is rejected and every bug is caught."""
        return "FAIL" if self.false_alarms or self.missed else "pass"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report (``schema_version``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "kind": "audit_cases",
            "family_wise": {"method": self.strategy.method, "alpha": self.strategy.alpha},
            "verdict": self.verdict,
            "false_alarms": self.false_alarms,
            "missed": self.missed,
            "bugs": [{"bug": b, "caught": hit} for b, hit in self.bugs().items()],
            "rows": [{k: v for k, v in to_jsonable(r).items() if k != "result"} for r in self.rows],
            "results": [to_jsonable(r.result) for r in self.rows],
            "seed": self.seed,
            "runtime_seconds": self.runtime_seconds,
        }


def case_seed(seed: np.random.SeedSequence) -> int:
    """The integer seed a case passes to a tester that takes an ``int``: the first word of its
    :class:`~numpy.random.SeedSequence`, so ``case_seed(named_seed(root, name))`` equals
    :func:`reference.rng.seed_for` ``(root, name)``."""
    if not isinstance(seed, np.random.SeedSequence):
        raise ValueError(f"seed must be a numpy SeedSequence, got {seed!r:.80}")
    return int(seed.generate_state(1)[0])


def _draw(
    cases: Sequence[AuditCase], root: np.random.SeedSequence
) -> list[tuple[AuditCase, AuditResult]]:
    names = [c.name for c in cases]
    if len(set(names)) != len(names):
        raise ValueError(f"case names must be distinct, got {names}")
    drawn: list[tuple[AuditCase, AuditResult]] = []
    for case in cases:
        results = list(case.run(named_seed(root, case.name)))
        for r in results:
            if not isinstance(r, PrivacyAuditResult | RunAuditResult):
                raise ValueError(f"case {case.name!r} returned {r!r:.80}, not an audit result")
        drawn += [(case, r) for r in results]
    return drawn


def _check_strategy(strategy: object) -> FamilyWise:
    if not isinstance(strategy, FamilyWise):
        raise ValueError(
            f"strategy must be a FamilyWise strategy (Holm, Bonferroni, PerTest), got {strategy!r:.80}"
        )
    return strategy


def _judge(
    drawn: list[tuple[AuditCase, AuditResult]], verdicts: dict[int, tuple[bool, float]]
) -> list[CaseRow]:
    return [
        CaseRow(
            case=case.name,
            role=case.role,
            bug=case.bug,
            name=r.name,
            kind="privacy" if isinstance(r, PrivacyAuditResult) else "accuracy",
            p_value=float(r.p_value) if isinstance(r, PrivacyAuditResult) else None,
            rejected=verdicts[j][0] if j in verdicts else bool(r.violation),
            in_family=j in verdicts,
            counts_for_power=case.bug is not None and case.counts_for_power(r, case.bug),
            result=r,
            adjusted_p_value=verdicts[j][1] if j in verdicts else None,
        )
        for j, (case, r) in enumerate(drawn)
    ]


def _family(drawn: Sequence[tuple[AuditCase, AuditResult]]) -> list[tuple[int, float]]:
    """Indices and p-values of the privacy tests of correct cases."""
    return [
        (j, float(r.p_value))
        for j, (case, r) in enumerate(drawn)
        if case.role == "correct" and isinstance(r, PrivacyAuditResult)
    ]


def _entropy(root: np.random.SeedSequence) -> int | None:
    entropy = root.entropy
    return entropy if isinstance(entropy, int) else None


def run_cases(cases: Sequence[AuditCase], *, seed: SeedLike, strategy: FamilyWise) -> CaseReport:
    """Run every case with its name-derived seed and judge the results (module docstring)."""
    return run_case_groups({"": cases}, seed=seed, strategy=strategy, group_seeds=False)[""]


def run_case_groups(
    groups: Mapping[str, Sequence[AuditCase]],
    *,
    seed: SeedLike,
    strategy: FamilyWise,
    group_seeds: bool = True,
) -> dict[str, CaseReport]:
    """Run several named groups of cases (e.g. one per paper) as one family: group ``g``'s root
    seed is :func:`reference.rng.seed_for` ``(seed, g)`` (``group_seeds``; else ``seed`` itself),
    each case's seed is named from that root, and the privacy tests of correct cases of *every*
    group are corrected together by ``strategy``.  One :class:`CaseReport` per group, in order."""
    t0 = time.perf_counter()
    root = as_seed_sequence(seed)
    strategy = _check_strategy(strategy)
    drawn: dict[str, list[tuple[AuditCase, AuditResult]]] = {}
    roots: dict[str, np.random.SeedSequence] = {}
    for group, cases in groups.items():
        roots[group] = as_seed_sequence(seed_for(root, group)) if group_seeds else root
        drawn[group] = _draw(cases, roots[group])
    keyed = [(g, j, p) for g, rows in drawn.items() for j, p in _family(rows)]
    decision = strategy.decide([p for _, _, p in keyed])
    verdicts: dict[str, dict[int, tuple[bool, float]]] = {g: {} for g in drawn}
    for (g, j, _), rej, adj in zip(keyed, decision.reject, decision.adjusted, strict=True):
        verdicts[g][j] = (bool(rej), float(adj))
    runtime = time.perf_counter() - t0
    return {
        g: CaseReport(
            _judge(rows, verdicts[g]),
            strategy,
            _entropy(roots[g]),
            runtime,
        )
        for g, rows in drawn.items()
    }
