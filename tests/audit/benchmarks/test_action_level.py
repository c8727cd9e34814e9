"""The action-level benchmark (audit/benchmarks/action_level.py) on a tiny run."""

from __future__ import annotations

import json
from pathlib import Path

from audit.benchmarks.action_level import main, run_action_level
from audit.benchmarks.policy_zoo import CASES


def test_anchored_designs_join_the_linear_cases_and_resume(tmp_path: Path) -> None:
    """``anchored`` adds the reused-noise design to a linear case's designs, with the chosen
    event and its counts; a second run reads every cell instead of recomputing it."""
    case = next(c for c in CASES if c.name == "noise_reused")
    rows = run_action_level([case], runs=8, seed=1, out=tmp_path, anchored=(4,))
    designs = rows[0]["designs"]
    name = "reused-noise anchors, 12 days (a tree of 16 leaves), d = 2"
    assert name in designs and len(designs[name]["event_counts"]) == 4
    cells = sorted((tmp_path / "cells").iterdir())
    stamps = [p.stat().st_mtime_ns for p in cells]
    assert run_action_level([case], runs=8, seed=1, out=tmp_path, anchored=(4,)) == rows
    assert [p.stat().st_mtime_ns for p in cells] == stamps


def test_the_command_writes_the_anchored_table(tmp_path: Path) -> None:
    out = tmp_path / "out"
    argv = ["--runs", "8", "--cases", "noise_reused", "--anchored", "4", "--out", str(out)]
    assert main(argv) == 0
    report = json.loads((out / "action_level.json").read_text())
    assert report["schema_version"] and report["cases"][0]["case"] == "noise_reused"
    assert "Anchored designs" in (out / "action_level.md").read_text()
