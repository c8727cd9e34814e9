"""The audit batteries of the other papers, run together (``privonline audit papers``).

Runs the batteries of :mod:`audit.papers.sajed_sheffet.battery`, :mod:`audit.papers.zhou_tan.battery`
and :mod:`audit.papers.agarwal_singh.battery` with fixed seeds and reports two verdicts:
**false alarms** (privacy tests of correct mechanisms as one Holm family across papers at
``family_alpha``; their accuracy tests at their own levels) and **power** (every broken variant
rejected at its own level against the exact guarantee of the correct mechanism; the printed
claim's verdict is reported too).  Exit code 1 if a correct mechanism is rejected or a broken one
is missed.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import audit.papers as registry
from audit.cases import AuditResult, bugs_caught
from audit.familywise import Holm
from audit.methods.binomial import RunAuditResult
from audit.results import SCHEMA_VERSION, PrivacyAuditResult, to_jsonable
from reference.files import atomic_write_text, write_json
from reference.rng import seed_for

__all__ = ["PaperRow", "PapersReport", "run_paper_audits"]


@dataclass(frozen=True)
class PaperRow:
    """One audit of one paper's battery.

    Attributes:
        paper: which paper.
        name: the test's name.
        kind: ``"privacy"`` or ``"accuracy"``.
        bug: the deliberately broken variant this test runs (``None`` for a correct mechanism).
        counts_for_power: for a broken variant, whether this test's rejection catches the bug (a
            privacy test against the *exact* claim, or an accuracy test); a test against the
            printed claim, or on a pair where the bug is invisible, is reported only.
        rejected: the test's own verdict at its level (Holm-adjusted for correct privacy tests).
        p_value: raw p-value (privacy tests), else ``None``.
        detail: the claim, or the failure count, for the report.
    """

    paper: str
    name: str
    kind: str
    bug: str | None
    counts_for_power: bool
    rejected: bool
    p_value: float | None
    detail: str

    @property
    def broken(self) -> bool:
        """A deliberately broken variant."""
        return self.bug is not None


@dataclass
class PapersReport:
    """All rows, with the family-wise settings and the runtime."""

    rows: list[PaperRow]
    family_alpha: float
    runtime_seconds: float
    seeds: dict[str, int] = field(default_factory=dict)

    @property
    def false_alarms(self) -> list[str]:
        """Correct mechanisms rejected."""
        return [f"{r.paper}: {r.name}" for r in self.rows if not r.broken and r.rejected]

    def bugs(self) -> dict[tuple[str, str], bool]:
        """Every broken variant ``(paper, bug)`` and whether one of its power tests rejected."""
        return bugs_caught(self.rows, lambda row, bug: (row.paper, bug))

    @property
    def missed(self) -> list[str]:
        """Broken variants none of whose power tests rejected."""
        return [f"{paper}: {bug}" for (paper, bug), hit in self.bugs().items() if not hit]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report."""
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "paper_batteries",
            "family_wise": {"method": "holm", "alpha": self.family_alpha},
            "verdict": "pass" if not (self.false_alarms or self.missed) else "FAIL",
            "false_alarms": self.false_alarms,
            "missed": self.missed,
            "bugs": [
                {"paper": paper, "bug": bug, "caught": hit}
                for (paper, bug), hit in self.bugs().items()
            ],
            "rows": to_jsonable(self.rows),
            "seeds": self.seeds,
            "runtime_seconds": self.runtime_seconds,
        }

    def markdown(self) -> str:
        """Per paper: counts, then every row."""
        lines = ["# privonline audits of the other papers", ""]
        verdict = "pass" if not (self.false_alarms or self.missed) else "**FAIL**"
        lines.append(
            f"Verdict: {verdict}. Correct-mechanism privacy tests: one Holm family at "
            f"α = {self.family_alpha}; broken variants must be rejected against the exact claim. "
            f"Runtime {self.runtime_seconds:.0f} s."
        )
        for paper in dict.fromkeys(r.paper for r in self.rows):
            rows = [r for r in self.rows if r.paper == paper]
            correct = [r for r in rows if not r.broken]
            bugs = {bug: hit for (pp, bug), hit in self.bugs().items() if pp == paper}
            lines += [
                "",
                f"## {paper}",
                "",
                f"Correct mechanisms: {sum(not r.rejected for r in correct)}/{len(correct)} tests "
                f"pass; broken variants caught: {sum(bugs.values())}/{len(bugs)} "
                f"({', '.join(f'{b}: ' + ('caught' if h else '**missed**') for b, h in bugs.items())}).",
                "",
                "| test | kind | bug | verdict | counts for power | p | detail |",
                "|---|---|---|---|---|---|---|",
            ]
            for r in rows:
                verdict_row = "rejected" if r.rejected else "pass"
                if r.bug is None and r.rejected:
                    verdict_row = "**rejected (false alarm)**"
                p = "–" if r.p_value is None else f"{r.p_value:.3g}"
                power = "–" if r.bug is None else ("yes" if r.counts_for_power else "reported")
                lines.append(
                    f"| {r.name} | {r.kind} | {r.bug or '–'} | {verdict_row} | {power} | {p} | "
                    f"{r.detail} |"
                )
        return "\n".join(lines) + "\n"

    def write(self, out: Path) -> None:
        """Write ``papers.json`` and ``papers.md`` into ``out``."""
        out.mkdir(parents=True, exist_ok=True)
        write_json(out / "papers.json", self.to_dict(), indent=2)
        atomic_write_text(out / "papers.md", self.markdown())


def _privacy_detail(r: PrivacyAuditResult) -> str:
    return (
        f"claim ({r.claim.epsilon:.4g}, {r.claim.delta:.3g}) {r.claim.label}; "
        f"ε_LB {r.epsilon_lower_bound:.4g}"
    )


def _accuracy_detail(r: RunAuditResult) -> str:
    return f"{r.failures}/{r.runs} failing (nominal {r.nominal_failure_rate:.3g})"


def run_paper_audits(
    *, seed: int = 2026, family_alpha: float = 0.05, quick: bool = False
) -> PapersReport:
    """Run every available paper battery (module docstring); ``quick`` uses smaller samples."""
    t0 = time.perf_counter()
    papers = [p for p in registry.PAPERS if p.in_papers_battery]
    seeds = {paper.id: seed_for(seed, paper.id) for paper in papers}  # seeds follow names
    collected: list[tuple[str, AuditResult, str | None, bool]] = []
    for paper in papers:
        for result, bug, power in paper.tagged_results(seeds[paper.id], quick):
            collected.append((paper.label, result, bug, power))
    correct_privacy = [
        (j, r)
        for j, (_, r, bug, _) in enumerate(collected)
        if bug is None and isinstance(r, PrivacyAuditResult)
    ]
    reject = Holm(family_alpha).reject([r.p_value for _, r in correct_privacy])
    holm = {j: rej for (j, _), rej in zip(correct_privacy, reject, strict=True)}
    rows = [
        PaperRow(
            paper=paper,
            name=r.name,
            kind="privacy" if isinstance(r, PrivacyAuditResult) else "accuracy",
            bug=bug,
            counts_for_power=power,
            rejected=holm.get(j, bool(r.violation)),
            p_value=float(r.p_value) if isinstance(r, PrivacyAuditResult) else None,
            detail=_privacy_detail(r) if isinstance(r, PrivacyAuditResult) else _accuracy_detail(r),
        )
        for j, (paper, r, bug, power) in enumerate(collected)
    ]
    return PapersReport(
        rows=rows,
        family_alpha=family_alpha,
        runtime_seconds=time.perf_counter() - t0,
        seeds=seeds,
    )
