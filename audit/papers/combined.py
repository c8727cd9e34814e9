"""The audit batteries of the other papers, run together (``privonline audit papers``).

Every registered paper's :class:`~audit.cases.AuditCase` list runs through one runner
(:func:`audit.cases.run_case_groups`, seeds named by paper and case), one
:class:`~audit.cases.CaseReport` per paper, with two verdicts: **false alarms** (privacy tests of
correct mechanisms as one Holm family across papers at ``family_alpha``) and **power** (every
broken variant rejected against the exact guarantee of the correct mechanism; the printed claim's
verdict is reported too).  Exit code 1 if a correct mechanism is rejected or a broken one is missed.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import audit.papers as registry
from audit.cases import CaseReport, CaseRow, run_case_groups
from audit.familywise import FamilyWise, Holm
from audit.methods.binomial import RunAuditResult
from audit.results import SCHEMA_VERSION, PrivacyAuditResult, produced_by, produced_by_line
from reference.files import atomic_write_text, write_json
from reference.rng import seed_for

__all__ = ["PapersReport", "run_paper_audits"]


@dataclass
class PapersReport:
    """Every paper's :class:`~audit.cases.CaseReport` (keyed by the paper's label; one family of
    correct-mechanism privacy tests across them), the strategy and the runtime."""

    reports: dict[str, CaseReport]
    strategy: FamilyWise
    runtime_seconds: float
    seeds: dict[str, int]

    @property
    def rows(self) -> list[tuple[str, CaseRow]]:
        """Every row with its paper's label."""
        return [(paper, r) for paper, report in self.reports.items() for r in report.rows]

    @property
    def false_alarms(self) -> list[str]:
        """Tests of correct mechanisms rejected."""
        return [f"{paper}: {a}" for paper, rep in self.reports.items() for a in rep.false_alarms]

    def bugs(self) -> dict[tuple[str, str], bool]:
        """Every bug ``(paper, bug)`` and whether one of its power tests rejected."""
        return {
            (paper, bug): hit
            for paper, rep in self.reports.items()
            for bug, hit in rep.bugs().items()
        }

    @property
    def missed(self) -> list[str]:
        """Bugs none of whose power tests rejected."""
        return [f"{paper}: {bug}" for (paper, bug), hit in self.bugs().items() if not hit]

    @property
    def verdict(self) -> str:
        """``"pass"`` when no correct mechanism is rejected and every bug is caught."""
        return "FAIL" if self.false_alarms or self.missed else "pass"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report: the verdicts, then every paper's case report."""
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "kind": "paper_batteries",
            "family_wise": {"method": self.strategy.method, "alpha": self.strategy.alpha},
            "verdict": self.verdict,
            "false_alarms": self.false_alarms,
            "missed": self.missed,
            "bugs": [
                {"paper": paper, "bug": bug, "caught": hit}
                for (paper, bug), hit in self.bugs().items()
            ],
            "papers": {paper: rep.to_dict() for paper, rep in self.reports.items()},
            "seeds": self.seeds,
            "runtime_seconds": self.runtime_seconds,
        }

    def markdown(self) -> str:
        """Per paper: counts, then every row."""
        lines = ["# privonline audits of the other papers", "", produced_by_line(), ""]
        verdict = "pass" if self.verdict == "pass" else "**FAIL**"
        lines.append(
            f"Verdict: {verdict}. Correct-mechanism privacy tests: one {self.strategy.method} "
            f"family at α = {self.strategy.alpha}; broken variants must be rejected against the "
            f"exact claim. Runtime {self.runtime_seconds:.0f} s."
        )
        for paper, report in self.reports.items():
            correct = [r for r in report.rows if r.role == "correct"]
            bugs = report.bugs()
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
            for r in report.rows:
                verdict_row = "rejected" if r.rejected else "pass"
                if r.bug is None and r.rejected:
                    verdict_row = "**rejected (false alarm)**"
                p = "–" if r.p_value is None else f"{r.p_value:.3g}"
                power = "–" if r.bug is None else ("yes" if r.counts_for_power else "reported")
                lines.append(
                    f"| {r.name} | {r.kind} | {r.bug or '–'} | {verdict_row} | {power} | {p} | "
                    f"{_detail(r)} |"
                )
        return "\n".join(lines) + "\n"

    def write(self, out: Path) -> None:
        """Write ``papers.json`` and ``papers.md`` into ``out``."""
        out.mkdir(parents=True, exist_ok=True)
        write_json(out / "papers.json", self.to_dict(), indent=2)
        atomic_write_text(out / "papers.md", self.markdown())


def _detail(row: CaseRow) -> str:
    r = row.result
    if isinstance(r, PrivacyAuditResult):
        return (
            f"claim ({r.claim.epsilon:.4g}, {r.claim.delta:.3g}) {r.claim.label}; "
            f"ε_LB {r.epsilon_lower_bound:.4g}"
        )
    assert isinstance(r, RunAuditResult)
    return f"{r.failures}/{r.runs} failing (nominal {r.nominal_failure_rate:.3g})"


def run_paper_audits(
    *, seed: int = 2026, family_alpha: float = 0.05, quick: bool = False
) -> PapersReport:
    """Run every available paper's cases (module docstring) with
    :func:`audit.cases.run_case_groups`: paper ``p``'s root seed is ``seed_for(seed, p)``; the
    privacy tests of correct cases of all papers form one Holm family at ``family_alpha``;
    ``quick`` uses smaller samples."""
    papers = [p for p in registry.PAPERS if p.in_papers_battery]
    seeds = {paper.id: seed_for(seed, paper.id) for paper in papers}  # seeds follow names
    strategy = Holm(family_alpha)
    reports = run_case_groups(
        {paper.id: paper.papers_cases(seeds[paper.id], quick) for paper in papers},
        seed=seed,
        strategy=strategy,
    )
    runtime = max((r.runtime_seconds for r in reports.values()), default=0.0)
    return PapersReport(
        reports={paper.label: reports[paper.id] for paper in papers},
        strategy=strategy,
        runtime_seconds=runtime,
        seeds=seeds,
    )
