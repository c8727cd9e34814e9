"""The privacy battery end to end (a small budget) and the ``privonline audit`` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.cli import main
from audit.papers.shariff_sheffet.battery import BatteryConfig, run_privacy_battery
from audit.results import SCHEMA_VERSION


def _refuse_constant(token: str) -> None:
    raise ValueError(f"non-standard JSON token {token}")  # the report must be strict JSON


def test_small_battery_passes_and_writes_a_report(tmp_path: Path) -> None:
    config = BatteryConfig(
        white_box_samples=20_000, black_box_samples=20_000, stream_runs=40, accuracy_runs=6
    )
    report = run_privacy_battery(config, progress=False)
    assert report.violations == []
    names = [r.name for r in report.results]
    assert any(n.startswith("wishart_tree vs exact") for n in names)
    assert any(n.startswith("algorithm1_wishart_stream") for n in names)
    # Holm-adjusted p-values are never below the raw ones
    assert all(
        a >= r.p_value - 1e-15 for a, r in zip(report.holm_pvalues, report.results, strict=True)
    )
    # the verdicts come from the case runner: every privacy test in one Holm family
    privacy = [r for r in report.cases.rows if r.kind == "privacy"]
    assert len(privacy) == len(report.results) and all(r.in_family for r in privacy)
    assert report.cases.verdict == "pass" and report.cases.strategy.method == "holm"
    report.write(tmp_path)
    payload = json.loads((tmp_path / "report.json").read_text(), parse_constant=_refuse_constant)
    assert payload["schema_version"] == SCHEMA_VERSION and payload["verdict"] == "pass"
    assert payload["family_wise"] == {"method": "holm", "alpha": 0.05}
    assert (tmp_path / "privacy_curves.png").stat().st_size > 0
    accuracy = {row["name"]: row for row in payload["accuracy"]}
    assert "definition3_run_wishart" in accuracy and "confidence_ellipsoid_gaussian" in accuracy
    assert {"definition3_run_factorized", "confidence_ellipsoid_factorized"} <= set(accuracy)
    assert all(not row["violation"] for row in accuracy.values())
    assert {f"thm5_containment_{v}" for v in ("nonprivate", "gaussian", "wishart")} <= set(accuracy)
    in_n, in_epsilon = payload["regret_scaling"]
    assert in_n["consistent"] and in_n["slope"] < 1.0
    assert in_epsilon["consistent"] and in_epsilon["name"].startswith("private excess regret")
    assert "INCONSISTENT" not in (tmp_path / "report.md").read_text()
    slack = {(row["mechanism"], row["n"], row["delta"]): row for row in payload["slack"]}
    # at the printed δ = 0.1 the exact ε of the Gaussian tree is 0: the calibration is loose
    assert slack[("gaussian tree", 1000, 0.1)]["exact_epsilon"] == 0.0


def test_cli_help_and_bad_input(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["audit", "privacy", "--help"])
    assert exc.value.code == 0
    assert "--quick" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        main(["audit", "privacy", "--alpha", "2", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "argument --alpha: must be a number in (0.0, 1.0)" in capsys.readouterr().err
    assert main(["audit", "privacy", "--samples", "500", "--quick", "--out", str(tmp_path)]) == 2
    assert "--samples must be >= 1000 with --quick" in capsys.readouterr().err
    file = tmp_path / "file"
    file.write_text("")
    assert main(["audit", "zoo", "--out", str(file)]) == 2
    assert "--out must be a folder" in capsys.readouterr().err
