"""The paper registry: every command that iterates papers does so through it, so adding a paper is
one package plus one registry line.  A toy paper registered here is picked up by
``privonline reproduce`` and ``privonline audit papers`` without any other edit."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import audit.papers as registry
from audit.cli import main as cli_main
from audit.papers import PAPERS, Paper, by_name

TOY_BATTERY = '''
"""A toy paper's battery: one correct test and one broken variant, caught."""
from __future__ import annotations

import time

import numpy as np

from audit.cases import AuditCase, AuditResult
from audit.methods.binomial import RunAuditResult


def _ratio(name: str, value: float, seed: int) -> list[AuditResult]:
    return [
        RunAuditResult.from_ratios(
            name, {"x": np.full(50, value)}, 0.05, confidence=0.95, seed=seed,
            started=time.perf_counter(),
        )
    ]


def papers_cases(seed: int, quick: bool) -> list[AuditCase]:
    return [
        AuditCase("toy/correct", "correct", lambda s: _ratio("toy/correct", 0.5, seed)),
        AuditCase("toy/broken", "broken", lambda s: _ratio("toy/broken", 2.0, seed), "toy_bug"),
    ]
'''

TOY_REPRODUCE = '''
"""A toy paper's reproductions."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.reproduce.experiment import Experiment
from audit.reproduce.report import ExperimentReport, Figure


@dataclass(frozen=True)
class ToyConfig:
    runs: int = 2

    @classmethod
    def paper(cls) -> ToyConfig:
        return cls(runs=10)


def draw(plt: Any) -> Any:
    fig, _ = plt.subplots()
    return fig


def run(config: ToyConfig, out: Path) -> ExperimentReport:
    return ExperimentReport(
        "toy_figure", "toy_paper", {"runs": config.runs}, Figure(draw), ("# toy",),
        payload={"runs": config.runs}, layout=("runs", "checks"),
    )


EXPERIMENTS = (
    Experiment("toy_figure", "a toy figure", ToyConfig, run,
               lambda r: [f"ran {r.payload['runs']} runs"]),
)
'''


def test_registry_lists_every_paper_package_once() -> None:
    ids = [p.id for p in PAPERS]
    assert len(ids) == len(set(ids))
    root = Path(registry.__file__).parent
    packages = sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file())
    assert sorted(ids) == packages
    reference_root = Path(__file__).resolve().parents[2] / "reference"
    for paper in PAPERS:
        assert (reference_root / paper.id / "__init__.py").is_file(), paper.id
        assert by_name(paper.cli_name) is paper and by_name(paper.id) is paper
        assert paper.experiments, paper.id


def test_unknown_paper_names_the_choices() -> None:
    with pytest.raises(ValueError, match="paper must be one of shariff-sheffet, sajed-sheffet"):
        by_name("nope")
    with pytest.raises(ValueError, match="lower-case Python identifier"):
        Paper("Not-An-Id", "x", "y")


@pytest.fixture
def toy_paper(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Paper]:
    package = tmp_path / "toy_paper_audits"
    package.mkdir()
    (package / "__init__.py").write_text('"""Toy paper."""\n')
    (package / "battery.py").write_text(textwrap.dedent(TOY_BATTERY))
    (package / "reproduce.py").write_text(textwrap.dedent(TOY_REPRODUCE))
    monkeypatch.syspath_prepend(str(tmp_path))
    paper = Paper("toy_paper", "Toy & Paper (2026)", "A toy", package="toy_paper_audits")
    monkeypatch.setattr(registry, "PAPERS", (*PAPERS, paper))
    yield paper
    for name in [m for m in sys.modules if m.startswith("toy_paper_audits")]:
        del sys.modules[name]


def test_a_registered_toy_paper_is_reproduced(
    toy_paper: Paper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert cli_main(["reproduce", "toy-paper", "toy_figure", "--runs", "3", "--out", str(out)]) == 0
    assert "toy_figure ran 3 runs" in capsys.readouterr().out
    assert json.loads((out / "toy_paper" / "toy_figure.json").read_text())["runs"] == 3
    assert [e.name for e in toy_paper.experiments] == ["toy_figure"]


def test_a_registered_toy_paper_joins_the_papers_battery(
    toy_paper: Paper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the real papers' batteries are not the subject here: run only the toy paper's
    monkeypatch.setattr(registry, "PAPERS", (PAPERS[0], toy_paper))
    out = tmp_path / "out"
    assert cli_main(["audit", "papers", "--quick", "--out", str(out)]) == 0
    report = json.loads((out / "papers.json").read_text())
    assert report["bugs"] == [{"paper": "Toy & Paper (2026)", "bug": "toy_bug", "caught": True}]
    assert report["false_alarms"] == [] and report["verdict"] == "pass"


REPO = Path(__file__).resolve().parents[2]


def test_docs_navigation_readme_and_notes_follow_the_registry() -> None:
    """The docs' "Papers" section lists the registry's papers, in order, under their labels; the
    README layout names every paper folder; every paper has proof notes and an API page."""
    nav = (REPO / "proofs_notes" / "mkdocs.yml").read_text(encoding="utf-8")
    section = nav.split("  - Papers:\n", 1)[1].split("\n  - ", 1)[0]
    entries = [line.strip().removeprefix("- ") for line in section.splitlines() if line.strip()]
    assert entries == [f"{p.label}: papers/{p.id}.md" for p in PAPERS]
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    row = next(line for line in readme.splitlines() if line.startswith("| `audit/papers/` |"))
    for paper in PAPERS:
        assert f"`{paper.id}/`" in row, paper.id
        assert (REPO / "proofs_notes" / paper.id).is_dir(), paper.id
        assert (REPO / "proofs_notes" / "site_src" / "api" / f"{paper.id}.md").is_file(), paper.id


def test_command_line_help_lists_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli_main(["reproduce", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for paper in PAPERS:
        assert paper.cli_name in text.replace("- ", "-"), paper.cli_name
