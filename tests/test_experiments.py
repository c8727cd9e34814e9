"""Smoke tests of the experiment runner and the ``privonline`` command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from audit.cli import main as privonline_main
from reference.experiments import main as experiments_main

TINY = ["--n", "40", "--d", "2", "--runs", "2", "--no-progress"]


def test_runner_writes_report_and_resumes_without_recomputing(tmp_path: Path) -> None:
    out = tmp_path / "exp"
    assert experiments_main([*TINY, "--out", str(out)]) == 0
    report = json.loads((out / "results.json").read_text())
    assert report["schema_version"] == 1
    assert set(report["results"]) == {"nonprivate", "gaussian", "wishart", "wishart_unshifted"}
    assert report["constants"]["m"] == 7  # 1 + ceil(log2 40) = 1 + 6
    assert (out / "regret.png").stat().st_size > 0
    assert report["resumed_runs"] == 0
    # a second invocation loads every finished run and reproduces the same numbers
    assert experiments_main([*TINY, "--out", str(out)]) == 0
    again = json.loads((out / "results.json").read_text())
    assert again["resumed_runs"] == 8
    assert again["results"] == report["results"]
    # a run file from another configuration is not reused
    assert experiments_main([*TINY, "--seed", "1", "--out", str(out)]) == 0
    assert json.loads((out / "results.json").read_text())["resumed_runs"] == 0


def test_runner_engines_agree_and_mix(tmp_path: Path) -> None:
    # The batch engine and the reference give the same curves; half the runs from one and half
    # from the other (an interrupted run resumed with the other engine) give the same report.
    batch, ref = tmp_path / "batch", tmp_path / "ref"
    assert experiments_main([*TINY, "--runs", "3", "--out", str(batch)]) == 0
    assert experiments_main([*TINY, "--runs", "3", "--engine", "reference", "--out", str(ref)]) == 0
    a = json.loads((batch / "results.json").read_text())["results"]
    b = json.loads((ref / "results.json").read_text())["results"]
    for variant in a:
        assert a[variant]["final_regrets"] == pytest.approx(b[variant]["final_regrets"], rel=1e-12)
        assert a[variant]["mean_curve"] == pytest.approx(b[variant]["mean_curve"], rel=1e-12)
    (batch / "runs" / "wishart_0001.json").unlink()
    assert (
        experiments_main([*TINY, "--runs", "3", "--engine", "reference", "--out", str(batch)]) == 0
    )
    mixed = json.loads((batch / "results.json").read_text())
    assert mixed["resumed_runs"] == 11
    assert mixed["results"]["wishart"]["final_regrets"] == pytest.approx(
        b["wishart"]["final_regrets"], rel=1e-12
    )


def test_cli_help_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        privonline_main(["--help"])
    assert exc.value.code == 0
    assert "experiment" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        privonline_main(["experiment", "--help"])
    assert exc.value.code == 0
    assert "--epsilon" in capsys.readouterr().out
    code = privonline_main(["experiment", *TINY, "--epsilon", "-1", "--out", str(tmp_path)])
    assert code == 2
    assert "epsilon must be in (0, inf)" in capsys.readouterr().err
