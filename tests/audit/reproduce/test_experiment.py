"""The one command line of the reproductions (:func:`audit.reproduce.command.main`): outputs in
a per-paper folder, ``--runs``/``--n``/``--executor``/``--set`` routed to the experiments that take
them, exit codes 0/1/2; and the one executor (:func:`audit.reproduce.common.run_tasks`)."""

from __future__ import annotations

import dataclasses
import json
import math
import re
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

from audit.papers import PAPERS, Paper
from audit.reproduce.command import main
from audit.reproduce.common import run_tasks
from audit.reproduce.experiment import Experiment, config_overrides
from audit.reproduce.report import ExperimentReport

TOY = '''
"""Two toy experiments: one gated and one reported."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.reproduce.experiment import Experiment, failed_checks
from audit.reproduce.report import Check, ExperimentReport, Figure


@dataclass(frozen=True)
class Config:
    runs: int = 2
    n: int = 10
    holds: bool = True

    @classmethod
    def paper(cls) -> Config:
        return cls(runs=50, n=1000)


def draw(plt: Any) -> Any:
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    return fig


def run(config: Config, out: Path, executor: str = "none") -> ExperimentReport:
    (out / "seen.txt").write_text("run")
    return ExperimentReport(
        "toy",
        "toy_repro",
        {"runs": config.runs, "n": config.n},
        Figure(draw),
        ("# toy", "", f"executor {executor}"),
        checks=(Check("c", config.holds, gate=True),),
        payload={"executor": executor},
    )


def summary(report: ExperimentReport) -> list[str]:
    c = report.config
    return [f"config {[c['runs'], c['n']]} executor {report.payload['executor']}"]


EXPERIMENTS = (
    Experiment("gated", "a gated toy", Config, run, summary, horizon_field="n",
               gate=failed_checks),
    Experiment("parallel", "a parallel toy", Config, run, summary, parallel=True),
)
'''


@pytest.fixture
def toy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Paper]:
    package = tmp_path / "toy_repro_audits"
    package.mkdir()
    (package / "__init__.py").write_text('"""Toy."""\n')
    (package / "reproduce.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield Paper("toy_repro", "Toy (2026)", "A toy", package="toy_repro_audits")
    for name in [m for m in sys.modules if m.startswith("toy_repro_audits")]:
        del sys.modules[name]


def test_outputs_go_to_the_paper_folder_and_options_reach_their_fields(
    toy: Paper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["--runs", "3", "--n", "7", "--executor", "serial", "--out", str(out)]
    assert main(toy, ["gated", *argv], "p") == 0
    assert "gated config [3, 7] executor none" in capsys.readouterr().out  # run(config, out)
    assert (out / "toy_repro" / "seen.txt").is_file()
    for ext in ("json", "md", "png"):  # written by the one renderer, not by the run
        assert (out / "toy_repro" / f"toy.{ext}").stat().st_size > 0
    # what made it: the command, the configuration, the revision, the versions
    record = json.loads((out / "toy_repro" / "toy.provenance.json").read_text())
    assert record["command"] == "privonline reproduce toy-repro gated " + " ".join(argv)
    assert record["config"] == {"runs": 3, "n": 7, "holds": True}
    assert record["executor"] == "serial" and record["seconds"] >= 0
    assert {"numpy", "numba", "privonline", "python"} <= record["versions"].keys()
    assert record["source_revision"]
    assert main(toy, ["parallel", *argv], "p") == 0
    # --n is only the gated experiment's field; the parallel one is given the executor
    assert "parallel config [3, 10] executor serial" in capsys.readouterr().out
    assert main(toy, ["--paper-scale", "--out", str(out)], "p") == 0
    printed = capsys.readouterr().out
    assert "gated config [50, 1000]" in printed and "parallel config [50, 1000]" in printed


def test_a_failed_gate_fails_the_exit_code(
    toy: Paper, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = toy.module("reproduce")

    @dataclass(frozen=True)
    class Failing(module.Config):  # type: ignore[misc,name-defined]
        holds: bool = False

    failing = tuple(dataclasses.replace(e, config=Failing) for e in module.EXPERIMENTS)
    monkeypatch.setattr(module, "EXPERIMENTS", failing)
    assert main(toy, ["parallel", "--out", str(tmp_path)], "p") == 0  # reported only
    assert main(toy, ["gated", "--out", str(tmp_path)], "p") == 1


@dataclass(frozen=True)
class _Fixed:
    runs: int = 2

    @classmethod
    def paper(cls) -> _Fixed:
        return cls()


def test_bad_arguments_exit_2_before_any_work(
    toy: Paper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "file"
    afile.write_text("")
    assert main(toy, ["nope", "--out", str(tmp_path)], "p") == 2
    assert "experiments must be among gated, parallel, got ['nope']" in capsys.readouterr().err
    assert main(toy, ["--out", str(afile)], "p") == 2
    assert "--out must be a folder" in capsys.readouterr().err
    for bad in (["--executor", "threads"], ["--runs", "1"], ["--n", "1"]):
        with pytest.raises(SystemExit) as exc:
            main(toy, [*bad, "--out", str(tmp_path / "never")], "p")
        assert exc.value.code == 2
    assert not (tmp_path / "never").exists()


def test_help_describes_every_experiment_and_paper(
    toy: Paper, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(toy, ["--help"], "privonline reproduce toy-repro")
    assert exc.value.code == 0
    text = capsys.readouterr().out
    assert "a gated toy" in text and "a parallel toy" in text
    assert "<out>/toy_repro" in text and "gated: runs" in text
    for paper in PAPERS:
        assert paper.cli_name in text


def _no_run(config: _Fixed, out: Path) -> ExperimentReport:
    raise AssertionError("not run")


def _no_summary(report: ExperimentReport) -> list[str]:
    return []


def test_experiment_refuses_fields_its_config_lacks() -> None:
    with pytest.raises(ValueError, match="runs_field must be a field of _Fixed, got 'trials'"):
        Experiment("x", "x", _Fixed, _no_run, _no_summary, runs_field="trials")
    with pytest.raises(ValueError, match="name must be a Python identifier"):
        Experiment("a-b", "x", _Fixed, _no_run, _no_summary)


@pytest.mark.parametrize("executor", ["serial", "processes"])
def test_run_tasks_gives_the_same_results_on_every_executor(executor: str) -> None:
    got: dict[int, int] = {}
    run_tasks(math.factorial, [3, 5, 7], executor, got.__setitem__)
    assert got == {3: 6, 5: 120, 7: 5040}
    with pytest.raises(ValueError, match="executor must be 'serial', 'processes' or a Dask"):
        run_tasks(math.factorial, [3, 5], "threads", got.__setitem__)


def test_run_tasks_on_a_dask_cluster_gives_the_same_results() -> None:
    from dask.distributed import LocalCluster

    got: dict[int, int] = {}
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster:  # type: ignore[no-untyped-call]
        run_tasks(math.factorial, [3, 5, 7], cluster.scheduler_address, got.__setitem__)
    assert got == {3: 6, 5: 120, 7: 5040}


@dataclass(frozen=True)
class _Typed:
    runs: int = 2
    gaps: tuple[float, ...] = (0.0,)
    means: tuple[float, float] = (0.5, 0.5)
    kinds: tuple[Literal["a", "b"], ...] = ("a",)
    flag: bool = False
    name: str = "x"
    nested: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def paper(cls) -> _Typed:
        return cls()


def test_set_parses_each_field_by_its_type() -> None:
    got = config_overrides(
        _Typed,
        ["runs=5", "gaps=0, 0.1", "means=0.6,0.4", "kinds=b,a", "flag=True", "name=y z"],
    )
    assert got == {
        "runs": 5,
        "gaps": (0.0, 0.1),
        "means": (0.6, 0.4),
        "kinds": ("b", "a"),
        "flag": True,
        "name": "y z",
    }
    assert config_overrides(_Typed, ["other=1"], only_known=True) == {}


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("runs", "--set must be FIELD=VALUE"),
        ("runs=2.5", "--set runs must be an integer, got '2.5'"),
        ("gaps=", "--set gaps must list at least one value"),
        ("gaps=0,x", "--set gaps must be a real number, got 'x'"),
        ("means=0.5", "--set means must list 2 values"),
        ("kinds=c", "--set kinds must be one of a, b, got 'c'"),
        ("flag=1", "--set flag must be true or false"),
        ("nested=1", "--set nested: this field cannot be set"),
        ("other=1", "--set other: not a field of _Typed"),
    ],
)
def test_set_refuses_what_does_not_parse(setting: str, message: str) -> None:
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        config_overrides(_Typed, [setting])


def test_set_reaches_the_config_and_its_provenance(
    toy: Paper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["gated", "--set", "n=12", "--set", "runs=4", "--out", str(out)]
    assert main(toy, argv, "p") == 0
    assert "gated config [4, 12]" in capsys.readouterr().out
    record = json.loads((out / "toy_repro" / "toy.provenance.json").read_text())
    assert record["config"]["n"] == 12 and "--set n=12" in record["command"]
    # a field no chosen experiment has, or a bad value: exit 2 before any work
    for bad in (["--set", "nope=1"], ["--set", "n=x"]):
        assert main(toy, ["gated", *bad, "--out", str(tmp_path / "never")], "p") == 2
        assert "--set" in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


def test_console_lines_lead_with_a_checks_verdict() -> None:
    """A check whose mean reading holds but whose interval needs more runs is printed with its
    verdict first: a close mean is never printed as "holds"."""
    from audit.reproduce.experiment import check_lines
    from audit.reproduce.report import Check, Figure

    report = ExperimentReport(
        name="toy",
        paper="toy",
        config={},
        figure=Figure(lambda plt: None),
        body=(),
        checks=(
            Check("A below B", True, False, {"verdict": "needs more runs"}),
            Check("C below D", False, True),
        ),
    )
    assert check_lines(report) == [
        "A below B: needs more runs (on the means: holds)",
        "C below D: does not hold",
    ]
