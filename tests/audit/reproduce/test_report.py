"""The typed report of a reproduction and its one renderer (:mod:`audit.reproduce.report`): the
JSON's fields and their order, the Markdown tables, refused layouts, the three files, and that
importing the papers' experiments does not import matplotlib (only the renderer does)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from audit.papers import PAPERS
from audit.reproduce.report import Check, ExperimentReport, Figure, Table, write_report
from audit.results import SCHEMA_VERSION, produced_by_line


def _draw(plt: Any) -> Any:
    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    return fig


def _report(**changes: Any) -> ExperimentReport:
    fields: dict[str, Any] = {
        "name": "toy",
        "paper": "toy_paper",
        "config": {"runs": 2},
        "figure": Figure(_draw, dpi=50),
        "body": ("# Toy", "", Table(("a", "b"), (("1", "2"),)), "", "end"),
        "checks": (Check("c", True, details={"x": 1}), Check("d", False, gate=True)),
        "fits": ({"name": "f", "slope": 1.0},),
        "payload": {"results": [1, 2], "cells": {"computed": 1}},
    }
    fields.update(changes)
    return ExperimentReport(**fields)


def test_json_fields_follow_the_layout() -> None:
    default = _report().to_dict()
    assert list(default) == [
        "schema_version", "produced_by", "experiment", "config", "results", "cells", "checks", "fits"
    ]  # fmt: skip
    assert default["schema_version"] == SCHEMA_VERSION and default["experiment"] == "toy"
    assert set(default["produced_by"]) == {"privonline", "revision"}
    assert default["checks"] == [
        {"claim": "c", "holds": True, "x": 1},  # gate None: not recorded
        {"claim": "d", "holds": False, "gate": True},
    ]
    laid = _report(layout=("results", "checks", "fits", "cells"), label="T.1").to_dict()
    assert list(laid)[4:] == ["results", "checks", "fits", "cells"] and laid["experiment"] == "T.1"
    empty = _report(checks=(), fits=(), layout=("results", "checks", "cells")).to_dict()
    assert empty["checks"] == [] and "fits" not in empty


def test_failed_checks_reads_the_gated_checks() -> None:
    assert _report().failed_checks()
    assert not _report(checks=(Check("c", False), Check("d", True, gate=True))).failed_checks()


def test_bad_reports_are_refused() -> None:
    with pytest.raises(ValueError, match="layout must order"):
        _report(layout=("results", "checks", "fits"))  # "cells" missing
    with pytest.raises(ValueError, match="layout must order"):
        _report(layout=("results", "cells", "checks", "fits", "other"))
    with pytest.raises(ValueError, match="payload must not hold"):
        _report(checks=(), payload={"checks": []})
    with pytest.raises(ValueError, match="name must be a Python identifier"):
        _report(name="a-b")
    with pytest.raises(ValueError, match="rows must have 2 cells"):
        Table(("a", "b"), (("1",),))


def test_write_report_writes_json_md_png(tmp_path: Path) -> None:
    report = _report()
    write_report(report, tmp_path)
    assert json.loads((tmp_path / "toy.json").read_text()) == report.to_dict()
    made = produced_by_line()
    expected = f"# Toy\n\n{made}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nend\n"
    assert (tmp_path / "toy.md").read_text() == expected
    assert (tmp_path / "toy.png").read_bytes().startswith(b"\x89PNG")
    assert report.tables == [Table(("a", "b"), (("1", "2"),))]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toy.json", "toy.md", "toy.png"]


def test_importing_every_papers_experiments_does_not_import_matplotlib() -> None:
    modules = [f"{paper.package}.reproduce" for paper in PAPERS]
    assert len(modules) == 4
    code = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    assert module.EXPERIMENTS, name\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_markdown_names_the_version_and_revision_after_the_title() -> None:
    lines = _report(body=("# Title", "text")).markdown().splitlines()
    assert lines[:4] == ["# Title", "", produced_by_line(), "text"]
    assert "privonline" in lines[2] and "revision" in lines[2]
    untitled = _report(body=("text",)).markdown().splitlines()
    assert untitled[:3] == [produced_by_line(), "", "text"]
