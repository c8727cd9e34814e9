"""Smoke tests of the experiment runner and the ``privonline`` command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from audit.cli import main as privonline_main
from reference.experiments import ExperimentConfig
from reference.experiments import main as experiments_main
from reference.files import DamagedFileWarning

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
    # another configuration is refused on this folder: its finished runs are never overwritten
    before = {p.name: p.read_bytes() for p in (out / "runs").iterdir()}
    assert experiments_main([*TINY, "--seed", "1", "--out", str(out)]) == 2
    assert {p.name: p.read_bytes() for p in (out / "runs").iterdir()} == before
    # more runs, or fewer variants, on the same configuration reuse what is there
    assert experiments_main([*TINY, "--runs", "3", "--out", str(out)]) == 0
    assert json.loads((out / "results.json").read_text())["resumed_runs"] == 8


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
    with pytest.raises(SystemExit) as exc:
        privonline_main(["experiment", *TINY, "--epsilon", "-1", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "argument --epsilon: must be a number in (0, inf), got '-1'" in capsys.readouterr().err


def test_another_configuration_is_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "exp"
    assert experiments_main([*TINY, "--variants", "nonprivate", "--out", str(out)]) == 0
    assert experiments_main([*TINY, "--gap", "0.2", "--out", str(out)]) == 2
    assert "holds runs of another configuration" in capsys.readouterr().err


@pytest.mark.parametrize("damage", [b"", b'{"config_key": "abc", "cur', b"\x00garbage"])
def test_a_damaged_run_file_is_named_and_recomputed(tmp_path: Path, damage: bytes) -> None:
    out = tmp_path / "exp"
    args = [*TINY, "--variants", "gaussian", "--out", str(out)]
    assert experiments_main(args) == 0
    first = json.loads((out / "results.json").read_text())["results"]
    (out / "runs" / "gaussian_0001.json").write_bytes(damage)
    with pytest.warns(DamagedFileWarning, match="gaussian_0001.json"):
        assert experiments_main(args) == 0
    again = json.loads((out / "results.json").read_text())
    assert again["resumed_runs"] == 1 and again["results"] == first


@pytest.mark.parametrize("damage", [b"", b'{"n": 4', b"\x00garbage"])
def test_a_damaged_configuration_record_is_refused_with_instructions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    out = tmp_path / "exp"
    args = [*TINY, "--variants", "gaussian", "--out", str(out)]
    assert experiments_main(args) == 0
    (out / "config.json").write_bytes(damage)
    assert experiments_main(args) == 2
    err = capsys.readouterr().err
    assert "config.json is damaged" in err and "fresh --out" in err
    # never blocked for good: once the record is deleted as the message says, the run files
    # (each stamped with its configuration) are reused
    (out / "config.json").unlink()
    assert experiments_main(args) == 0
    assert json.loads((out / "results.json").read_text())["resumed_runs"] == 2


@pytest.mark.parametrize(
    ("flag", "value"), [("--runs", "1"), ("--runs", "0"), ("--runs", "-3"), ("--seed", "-1"),
                        ("--n", "0"), ("--runs", "two"), ("--d", "1"), ("--num-arms", "0"),
                        ("--gap", "1.5"), ("--gap", "-0.1"), ("--gap", "nan"),
                        ("--epsilon", "0"), ("--epsilon", "inf"), ("--epsilon", "nan"),
                        ("--delta", "0"), ("--delta", "1"), ("--delta", "nan")]
)  # fmt: skip
def test_bad_flags_are_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str
) -> None:
    out = tmp_path / "never"
    with pytest.raises(SystemExit) as exc:
        experiments_main([*TINY, flag, value, "--out", str(out)])
    assert exc.value.code == 2
    assert f"argument {flag}" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [("gap", 1.5, r"gap must be in \[0, 1\.5\)"), ("d", 1, "d must be an integer >= 2"),
     ("epsilon", float("nan"), "epsilon must be finite"), ("delta", 1.0, r"delta must be in")],
)  # fmt: skip
def test_an_invalid_configuration_is_refused_before_its_folder_is_claimed(
    field: str, value: object, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        ExperimentConfig(**{field: value})  # type: ignore[arg-type]


def test_an_invalid_configuration_never_claims_the_folder(tmp_path: Path) -> None:
    # --gap 1.5 used to be recorded in config.json before the first run failed on it, so the
    # corrected rerun was refused as "another configuration".
    out = tmp_path / "exp"
    with pytest.raises(SystemExit):
        experiments_main([*TINY, "--variants", "nonprivate", "--gap", "1.5", "--out", str(out)])
    assert not out.exists()
    assert experiments_main([*TINY, "--variants", "nonprivate", "--out", str(out)]) == 0


def test_an_output_path_that_is_a_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    assert experiments_main([*TINY, "--out", str(file)]) == 2
    assert "--out must be a folder" in capsys.readouterr().err


def test_concurrent_runs_on_one_folder_lose_nothing(tmp_path: Path) -> None:
    """Three processes on one --out (they used to collide on a shared temporary name)."""
    out = tmp_path / "shared"
    cmd = [sys.executable, "-m", "reference.experiments", *TINY, "--runs", "4", "--out", str(out)]
    procs = [
        subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(3)
    ]
    results = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [r[1][-2000:] for r in results]
    single = tmp_path / "single"
    assert experiments_main([*TINY, "--runs", "4", "--out", str(single)]) == 0
    shared_report = json.loads((out / "results.json").read_text())
    single_report = json.loads((single / "results.json").read_text())
    assert shared_report["results"] == single_report["results"]
    assert sorted(p.name for p in (out / "runs").iterdir()) == sorted(
        p.name for p in (single / "runs").iterdir()
    )
    assert not list(out.rglob("*.tmp"))
