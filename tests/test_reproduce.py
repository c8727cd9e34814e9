"""Smoke tests of the App. D reproductions (tiny sizes; the documented reduced scale runs in
``nox -s reproduce``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.cli import main as privonline_main
from audit.reproduce import D1Config, D2Config, reproduce_d1, reproduce_d2


def test_d1_writes_fit_plot_and_comparison(tmp_path: Path) -> None:
    config = D1Config(n=150, dims=(3, 5), runs=3, block_size=2, reward_models=("rademacher",))
    report = reproduce_d1(config, tmp_path, executor="serial")
    fit = report["results"]["rademacher"]["fit"]
    assert fit["ci_low"] <= fit["slope"] <= fit["ci_high"]
    assert len(report["results"]["rademacher"]["final_regret"]["5"]) == 3
    assert (tmp_path / "d1.png").stat().st_size > 0
    assert "roughly 2" in (tmp_path / "d1.md").read_text()
    assert json.loads((tmp_path / "d1.json").read_text())["experiment"] == "D.1"


def test_d2_checks_and_resume(tmp_path: Path) -> None:
    config = D2Config(n=200, d=3, gaps=(0.0,), runs=2, block_size=1)
    report = reproduce_d2(config, tmp_path, executor="serial")
    cell = report["results"]["0.0"]
    assert set(cell) == {"nonprivate", "gaussian", "wishart", "wishart_unshifted", "gaussian_tight"}
    gates = [c for c in report["checks"] if c["gate"]]
    assert gates and all(c["holds"] for c in gates)  # NonPrivate smallest, even at n = 200
    # a second invocation loads every finished block and reproduces the numbers exactly
    again = reproduce_d2(config, tmp_path, executor="serial")
    assert again["results"] == report["results"]


def test_reproduce_cli_rejects_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert privonline_main(["reproduce", "d4"]) == 2
    assert "experiments must be among d1, d2" in capsys.readouterr().err
    assert privonline_main(["reproduce", "--runs", "1"]) == 2
    assert "runs must be >= 2" in capsys.readouterr().err
