"""The cross-paper audit runner (``privonline audit papers``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from audit.cases import CaseReport, CaseRow, Role
from audit.cli import main as privonline_main
from audit.familywise import Holm
from audit.methods.binomial import RunAuditResult
from audit.papers.combined import PapersReport, run_paper_audits


def test_quick_paper_batteries_pass_and_catch_every_bug(tmp_path: Path) -> None:
    report = run_paper_audits(seed=7, quick=True)
    assert report.false_alarms == [] and report.missed == []
    bugs = report.bugs()
    assert len(bugs) >= 30 and all(bugs.values())
    papers = {paper for paper, _ in report.rows}
    assert papers == {
        "Sajed & Sheffet (ICML 2019)",
        "Zhou & Tan (AAAI 2021)",
        "Agarwal & Singh (ICML 2017)",
    }
    # the paper's own Laplace calibrations miss their printed claim under replace-one
    assert bugs[("Agarwal & Singh (ICML 2017)", "tree_paper_ln (paper calibration, erratum)")]
    report.write(tmp_path)
    payload = json.loads((tmp_path / "papers.json").read_text())
    assert payload["verdict"] == "pass" and payload["family_wise"]["method"] == "holm"
    assert "broken variants caught" in (tmp_path / "papers.md").read_text()
    # one family across papers: every paper's report records the same strategy
    assert {rep.strategy for rep in report.reports.values()} == {Holm(0.05)}


def _row(name: str, bug: str | None, *, power: bool, rejected: bool) -> CaseRow:
    ratios = {"x": np.full(10, 0.5)}
    result = RunAuditResult.from_ratios(name, ratios, 0.05, confidence=0.95, seed=0, started=0.0)
    role: Role = "correct" if bug is None else "broken"
    return CaseRow(name, role, bug, name, "accuracy", None, rejected, False, power, result)


def test_false_alarms_and_missed_bugs_are_reported() -> None:
    rows = [
        _row("correct vs printed", None, power=False, rejected=True),  # false alarm
        _row("bug A vs printed", "A", power=False, rejected=True),  # printed only: not a catch
        _row("bug A vs exact", "A", power=True, rejected=False),
        _row("bug B, invisible pair", "B", power=True, rejected=False),
        _row("bug B, good pair", "B", power=True, rejected=True),
    ]
    report = PapersReport(
        reports={"P": CaseReport(rows, Holm(0.05), 0, 0.0)},
        strategy=Holm(0.05),
        runtime_seconds=0.0,
        seeds={},
    )
    assert report.false_alarms == ["P: correct vs printed: correct vs printed"]
    assert report.missed == ["P: A"]
    assert report.bugs() == {("P", "A"): False, ("P", "B"): True}
    assert "**rejected (false alarm)**" in report.markdown()
    assert "A: **missed**" in report.markdown()


def test_cli_rejects_a_bad_alpha(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        privonline_main(["audit", "papers", "--alpha", "1.5"])
    assert exc.value.code == 2
    assert "argument --alpha: must be a number in (0.0, 1.0)" in capsys.readouterr().err
