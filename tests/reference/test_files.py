"""Files survive crashes and concurrent runs, across every command (:mod:`reference.files`).

* No module of ``reference`` or ``audit`` writes a file except through :mod:`reference.files`
  (atomic: unique temporary name, ``fsync``, ``os.replace``).
* Every command refuses a bad flag (exit 2, the message names the flag) and checks its ``--out``
  folder (exit 2, ``error: --out ...``) before any computation.
* Every JSON report of every command is strict JSON with a ``schema_version``.
* Three processes running cell-store and block users on one folder all succeed and leave exactly
  what one run leaves.
* A damaged freshness lock is refused with instructions.
"""

from __future__ import annotations

import ast
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import audit.papers.agarwal_singh.repro_bandits as ags_bandits
import audit.papers.agarwal_singh.repro_common as ags_common
import audit.papers.agarwal_singh.repro_eps_window as ags_eps_window
import audit.papers.agarwal_singh.repro_ftrl as ags_ftrl
import audit.papers.sajed_sheffet.repro_cells as ss_cells
import audit.papers.sajed_sheffet.repro_sec5 as ss_sec5
import audit.papers.sajed_sheffet.repro_stopping as ss_stopping
import audit.papers.sajed_sheffet.repro_stopping_times as ss_stopping_times
import audit.papers.sajed_sheffet.repro_thm43 as ss_thm43
import audit.papers.shariff_sheffet.reproduce as shs
import audit.papers.zhou_tan.repro_common as zt_common
import audit.papers.zhou_tan.repro_figures as zt_figures
import audit.papers.zhou_tan.repro_scaling as zt_scaling
from audit.cli import main as privonline_main
from audit.reproduce.report import ExperimentReport, write_report
from audit.results import SCHEMA_VERSION as AUDIT_SCHEMA
from reference.experiments import SCHEMA_VERSION as EXPERIMENT_SCHEMA

REPO = Path(__file__).resolve().parents[2]
EXAMPLES_ROOT = str(REPO)  # the folder that holds the examples package
INF = math.inf


# ------------------------------------------------------------------------------------------------
# Every writer goes through reference.files
# ------------------------------------------------------------------------------------------------

# Calls that write, move or replace a file (``x.write_text(...)``, ``fig.savefig(...)``,
# ``np.savez(...)``, ``json.dump(...)``, ``os.replace(...)``, ...).
_WRITERS = {
    "write_text", "write_bytes", "savefig", "savez", "savez_compressed", "save", "savetxt",
    "tofile", "to_csv", "to_json", "dump",
}  # fmt: skip
_FILE_OPS = {"replace", "rename", "copy", "copyfile", "copy2", "move"}


def _open_mode(call: ast.Call) -> str:
    for kw in call.keywords:
        if kw.arg == "mode" and isinstance(kw.value, ast.Constant):
            return str(kw.value.value)
    position = 1 if isinstance(call.func, ast.Name) else 0  # open(path, mode) / path.open(mode)
    mode = call.args[position] if len(call.args) > position else None
    return str(mode.value) if isinstance(mode, ast.Constant) else "r"


def direct_writes(source: str) -> list[str]:
    """The calls in ``source`` that write a file without :mod:`reference.files`."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        base = ast.unparse(func)
        if (
            name in _WRITERS
            or (name == "open" and any(c in _open_mode(node) for c in "wax+"))
            or (name in _FILE_OPS and base.startswith(("os.", "shutil.")))
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)[:80]}")
    return found


def test_the_writer_guard_sees_every_kind_of_direct_write() -> None:
    plain = """
(out / "a.json").write_text(json.dumps(report))
fig.savefig(out / "a.png")
np.savez(path, **arrays)
with open(path, "w") as f: json.dump(x, f)
with path.open("wb") as f: pass
os.replace(tmp, path)
"""
    assert len(direct_writes(plain)) == 7
    assert direct_writes('open(path).read()\npath.read_text()\n"a".replace("a", "b")') == []


def test_every_file_is_written_through_reference_files() -> None:
    offenders = {
        str(path.relative_to(REPO)): hits
        for path in sorted([*REPO.glob("reference/**/*.py"), *REPO.glob("audit/**/*.py")])
        if path.relative_to(REPO).as_posix() != "reference/files.py"
        and (hits := direct_writes(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}


# ------------------------------------------------------------------------------------------------
# Every command: bad flags and bad output folders are refused before any work
# ------------------------------------------------------------------------------------------------

CHECK = ["check", "examples.good_policy:policy", "--path", EXAMPLES_ROOT, "--epsilon", "1",
         "--delta", "0.1"]  # fmt: skip
REPRODUCE = {
    "reproduce": ["reproduce"],
    "reproduce zhou-tan": ["reproduce", "zhou-tan"],
    "reproduce agarwal-singh": ["reproduce", "agarwal-singh"],
    "reproduce sajed-sheffet": ["reproduce", "sajed-sheffet"],
}
BAD_FLAGS: list[tuple[list[str], str, str]] = [
    *[(["experiment"], "--runs", v) for v in ("1", "0", "-1", "x")],
    (["experiment"], "--n", "1"),
    (["experiment"], "--seed", "-1"),
    (["experiment"], "--gap", "nan"),
    (["experiment"], "--epsilon", "inf"),
    (["experiment"], "--delta", "1"),
    (["audit", "privacy"], "--samples", "0"),
    (["audit", "privacy"], "--stream-runs", "0"),
    (["audit", "privacy"], "--seed", "-1"),
    (["audit", "privacy"], "--alpha", "nan"),
    (["audit", "zoo"], "--reps", "0"),
    (["audit", "zoo"], "--samples", "-5"),
    (["audit", "zoo"], "--seed", "1.5"),
    (["audit", "papers"], "--seed", "-1"),
    (["audit", "papers"], "--alpha", "1"),
    (["bench"], "--replicates", "0"),
    (["bench"], "--rounds", "-1"),
    (["bench"], "--reference-rounds", "0"),
    (["bench"], "--single-rounds", "0"),
    (["bench"], "--seed", "-1"),
    *[(CHECK, "--runs", v) for v in ("1", "0", "-1")],
    (CHECK, "--n", "0"),
    (CHECK, "--samples", "0"),
    (CHECK, "--stream-runs", "0"),
    (CHECK, "--seed", "-2"),
    *[(argv, "--runs", v) for argv in REPRODUCE.values() for v in ("1", "0", "-1")],
    (REPRODUCE["reproduce"], "--n", "0"),
    (REPRODUCE["reproduce"], "--executor", "threads"),
    (REPRODUCE["reproduce sajed-sheffet"], "--executor", "threads"),
]


@pytest.mark.parametrize(
    ("command", "flag", "value"),
    BAD_FLAGS,
    ids=[f"{' '.join(c[:2])} {f} {v}" for c, f, v in BAD_FLAGS],
)
def test_every_command_refuses_a_bad_flag_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], flag: str, value: str
) -> None:
    out = tmp_path / "never"
    with pytest.raises(SystemExit) as exc:
        privonline_main([*command, flag, value, "--out", str(out)])
    assert exc.value.code == 2
    assert f"argument {flag}: must be" in capsys.readouterr().err
    assert not out.exists()


def test_the_quick_battery_refuses_too_few_samples_before_creating_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never"
    assert privonline_main(["audit", "privacy", "--samples", "500", "--quick", "--out", str(out)])
    assert "error: --samples must be >= 1000 with --quick" in capsys.readouterr().err
    assert not out.exists()


# (argv before --out, the functions that do the work: none may run)
COMMANDS: dict[str, tuple[list[str], list[str]]] = {
    "experiment": (["experiment"], ["reference.experiments.run_experiment"]),
    "audit privacy": (
        ["audit", "privacy"],
        ["audit.papers.shariff_sheffet.battery.run_privacy_battery"],
    ),
    "audit zoo": (
        ["audit", "zoo"],
        [
            "audit.papers.shariff_sheffet.zoo.run_zoo",
            "audit.papers.shariff_sheffet.zoo.run_billboard_zoo",
        ],
    ),
    "audit papers": (["audit", "papers"], ["audit.papers.combined.run_paper_audits"]),
    "bench": (["bench"], ["audit.tools.bench.run_benchmarks"]),
    "check": (CHECK, ["audit.check.run_check"]),
    # every paper's experiments run through Experiment.execute (audit.reproduce.command.main)
    **{
        name: (argv, ["audit.reproduce.experiment.Experiment.execute"])
        for name, argv in REPRODUCE.items()
    },
}


def _must_not_run(*args: object, **kwargs: object) -> Any:
    raise AssertionError("computation started before the output folder was checked")


@pytest.mark.parametrize("name", list(COMMANDS))
@pytest.mark.parametrize(
    ("where", "message"),
    [("file", "error: --out must be a folder"), ("under_file", "error: --out must be a writable")],
)
def test_every_command_checks_its_output_folder_before_any_work(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    where: str,
    message: str,
) -> None:
    argv, work = COMMANDS[name]
    for target in work:
        monkeypatch.setattr(target, _must_not_run)
    file = tmp_path / "a_file"
    file.write_text("not a folder")
    out = file if where == "file" else file / "sub"
    assert privonline_main([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(out) in err
    assert file.read_text() == "not a folder"


@pytest.mark.skipif(
    sys.platform == "win32" or os.geteuid() == 0, reason="permissions do not bind this user"
)
def test_a_read_only_output_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:  # pragma: no cover - CI runs as root in some containers
    monkeypatch.setattr("audit.tools.bench.run_benchmarks", _must_not_run)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    try:
        assert privonline_main(["bench", "--out", str(locked)]) == 2
        assert "error: --out must be a writable folder" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


# ------------------------------------------------------------------------------------------------
# Every JSON report is strict JSON with a schema_version
# ------------------------------------------------------------------------------------------------


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"non-standard JSON token {token}")


def strict_json(path: Path) -> Any:
    """``path`` parsed as strict JSON (``NaN``, ``Infinity`` and ``-Infinity`` refused)."""
    return json.loads(path.read_text(encoding="utf-8"), parse_constant=_refuse_constant)


def test_strict_json_refuses_non_finite_tokens(tmp_path: Path) -> None:
    for token in ("NaN", "Infinity", "-Infinity"):
        (tmp_path / "r.json").write_text(f'{{"schema_version": 1, "x": {token}}}')
        with pytest.raises(ValueError, match="non-standard JSON token"):
            strict_json(tmp_path / "r.json")


def _check_reports(out: Path) -> list[str]:
    """Parse every JSON file under ``out`` strictly; every report (a JSON file directly in
    ``out``, not a cell, run, block manifest or folder record) must carry ``schema_version``."""
    reports = []
    for path in sorted(out.rglob("*.json")):
        payload = strict_json(path)
        if path.parent == out and path.name != "config.json":
            assert isinstance(payload, dict), path
            assert payload.get("schema_version") in (EXPERIMENT_SCHEMA, AUDIT_SCHEMA), path
            reports.append(path.name)
    return reports


def _cli(*argv: str) -> Callable[[Path], None]:
    def run(out: Path) -> None:
        assert privonline_main([*argv, "--out", str(out)]) in (0, 1, 3, 5)  # 5: inconclusive

    return run


def _zoo(out: Path) -> None:
    assert (
        privonline_main(["audit", "zoo", "--reps", "1", "--samples", "200", "--out", str(out)]) == 0
    )


ZT_PANEL = zt_common.Panel("2d", "synthetic_se", None)
AS_GRID: dict[str, Any] = {"horizons": (16, 32), "epsilons": (1.0, INF), "dims": (2, 3),
                           "dim_T": 16, "runs": 2}  # fmt: skip
REPORTS: dict[str, tuple[Callable[[Path], object], list[str]]] = {
    "experiment": (
        _cli("experiment", "--n", "40", "--d", "2", "--runs", "2", "--no-progress"),
        ["results.json"],
    ),
    "bench": (
        _cli(
            "bench",
            "--replicates",
            "2",
            "--rounds",
            "3",
            "--reference-rounds",
            "2",
            "--single-rounds",
            "3",
        ),
        ["bench.json"],
    ),
    "audit zoo": (_zoo, ["zoo.json"]),
    "check policy": (
        _cli(*CHECK, "--n", "20", "--runs", "2", "--stream-runs", "8"),
        ["check.json"],
    ),
    "check mechanism": (
        _cli(
            "check",
            "examples.mechanisms:good",
            "--pair",
            "examples.mechanisms:pair",
            "--path",
            EXAMPLES_ROOT,
            "--epsilon",
            "1",
            "--delta",
            "1e-5",
            "--samples",
            "200",
        ),
        ["check.json"],
    ),
    "reproduce d1": (
        lambda out: shs.reproduce_d1(
            shs.D1Config(n=60, dims=(2, 3), runs=2, block_size=2, reward_models=("rademacher",)),
            out,
            executor="serial",
        ),
        ["d1.json"],
    ),
    "reproduce d3": (
        lambda out: shs.reproduce_d3(
            shs.D3Config(n=60, d=2, gaps=(0.1,), grid=(0.0, 1.0), runs=2, block_size=2),
            out,
            executor="serial",
        ),
        ["d3.json"],
    ),
    "reproduce scaling": (
        lambda out: shs.reproduce_scaling(
            shs.ScalingConfig(
                n=100,
                d=2,
                num_arms=4,
                dims=(2, 3),
                epsilons=(1.0, 4.0),
                gaps=(0.1,),
                privacy_cells=(("gaussian", "paper"),),
                runs=2,
            ),
            out,
        ),
        ["scaling.json"],
    ),
    "reproduce zhou-tan fig2": (
        lambda out: zt_figures.reproduce_fig2(
            zt_common.Fig2Config(T=20, trials=2, panels=(ZT_PANEL,), algorithms=("tgp", "moma")),
            out,
        ),
        ["fig2.json"],
    ),
    "reproduce zhou-tan fig3": (
        lambda out: zt_figures.reproduce_fig3(
            zt_common.Fig3Config(T=20, trials=2, algorithms=("tgp", "moma")), out
        ),
        ["fig3.json"],
    ),
    "reproduce zhou-tan scaling": (
        lambda out: zt_scaling.reproduce_scaling(
            zt_common.ScalingConfig(
                T=30,
                replicates=2,
                eps_grid=(0.5, 1.0, 2.0),
                first_checkpoint=5,
                checkpoints=4,
                algorithms=("tgp",),
            ),
            out,
        ),
        ["scaling.json"],
    ),
    "reproduce agarwal-singh ftrl": (
        lambda out: ags_ftrl.reproduce_ftrl(
            ags_common.FullInfoConfig(**AS_GRID, set_horizons=(16, 32), set_dims=(2, 3)), out
        ),
        ["ftrl.json"],
    ),
    "reproduce agarwal-singh ftpl": (
        lambda out: ags_bandits.reproduce_ftpl(ags_common.FTPLConfig(**AS_GRID), out),
        ["ftpl.json"],
    ),
    "reproduce agarwal-singh mab": (
        lambda out: ags_bandits.reproduce_mab(ags_common.MABConfig(**AS_GRID), out),
        ["mab.json"],
    ),
    "reproduce agarwal-singh blo": (
        lambda out: ags_bandits.reproduce_blo(ags_common.BLOConfig(**AS_GRID), out),
        ["blo.json"],
    ),
    "reproduce agarwal-singh eps_window": (
        lambda out: ags_eps_window.reproduce_eps_window(
            ags_eps_window.EpsWindowConfig(
                horizon=64,
                epsilons=(0.5, 1.0),
                counter_horizon=32,
                smoothing_epsilons=(1.0, 2.0),
                saturation_epsilons=(0.25, 0.5),
                runs=2,
                noise_horizons=(16, 32),
                noise_dim=2,
                noise_dims=(2, 3),
                noise_dim_T=16,
                noise_draws=8,
                noise_batches=2,
            ),
            out,
        ),
        ["eps_window.json"],
    ),
    "reproduce sajed-sheffet sec5": (
        lambda out: ss_sec5.reproduce_sec5(
            ss_cells.Sec5Config(
                T=300,
                runs=2,
                instances=("C1",),
                Ks=(3,),
                epsilons=(1.0,),
                dpse_paper_T=0,
                prefix_rounds=0,
                seed=1,
            ),
            out,
            executor="serial",
        ),
        ["sec5.json"],
    ),
    "reproduce sajed-sheffet thm43": (
        lambda out: ss_thm43.reproduce_thm43(
            ss_cells.Thm43Config(
                Ts=(10**4, 10**5),
                runs=2,
                instances=("C1", "C2"),
                Ks=(3, 5),
                epsilons=(0.5, 1.0),
                fit_T=10**5,
                fit_K=3,
                fit_epsilon=1.0,
                seed=2,
            ),
            out,
            executor="serial",
        ),
        ["thm43.json"],
    ),
    "reproduce sajed-sheffet stopping": (
        lambda out: ss_stopping.reproduce_stopping(
            ss_stopping_times.StoppingConfig(
                alpha=0.5,
                epsilon=0.2,
                alphas=(0.1, 0.5),
                epsilons=(0.1, 0.2),
                ranges=(1.0, 2.0),
                runs=2,
                seed=3,
            ),
            out,
            executor="serial",
        ),
        ["stopping.json"],
    ),
}


@pytest.mark.parametrize("name", list(REPORTS))
def test_every_json_report_is_strict_and_versioned(tmp_path: Path, name: str) -> None:
    """Small versions of every command's reports (``privonline audit privacy`` and ``reproduce
    d2``: their own tests, which take longer).  ``inf``/``nan`` values are written as strings."""
    run, expected = REPORTS[name]
    out = tmp_path / "out"
    result = run(out)
    if isinstance(result, ExperimentReport):  # a reproduction: written by the one renderer
        write_report(result, out)
    assert set(expected) <= set(_check_reports(out))


# ------------------------------------------------------------------------------------------------
# Three runs on one folder
# ------------------------------------------------------------------------------------------------

_WORKER = """
import os, sys, time, warnings
from pathlib import Path
from audit.papers.shariff_sheffet.reproduce import D1Config, reproduce_d1
from audit.papers.agarwal_singh.repro_common import MABConfig
from audit.papers.agarwal_singh.repro_bandits import reproduce_mab
from audit.papers.sajed_sheffet.repro_cells import Sec5Config
from audit.papers.sajed_sheffet.repro_sec5 import reproduce_sec5
from audit.reproduce.report import write_report

from reference.files import DamagedFileWarning

warnings.simplefilter("error", DamagedFileWarning)  # a half-written file read by a sibling
out, sync, count = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
(sync / str(os.getpid())).touch()
deadline = time.monotonic() + 120
while len(list(sync.iterdir())) < count and time.monotonic() < deadline:
    time.sleep(0.01)  # start together, so the runs write the same files at the same time
write_report(reproduce_d1(D1Config(n=60, dims=(2, 3), runs=3, block_size=1,
                                   reward_models=("rademacher",)), out, executor="serial"), out)
write_report(reproduce_mab(MABConfig(horizons=(16, 32), epsilons=(1.0, float("inf")),
                                     dims=(2, 3), dim_T=16, runs=2), out), out)
write_report(reproduce_sec5(Sec5Config(T=300, runs=2, instances=("C1", "C2"), Ks=(3,),
                                       epsilons=(1.0,), dpse_paper_T=0, prefix_rounds=0, seed=1),
                            out, executor="serial"), out)
"""
# counts of computed / reused cells differ between runs by design
_VOLATILE = {"cells_computed", "cells_reused", "cells", "runtime_seconds"}


def _contents(out: Path) -> dict[str, Any]:
    """Every file under ``out`` (PNG figures aside), comparable across runs."""
    found: dict[str, Any] = {}
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        key = path.relative_to(out).as_posix()
        if path.suffix == ".json":
            payload = strict_json(path)
            if isinstance(payload, dict) and path.parent == out:
                payload = {k: v for k, v in payload.items() if k not in _VOLATILE}
            found[key] = payload
        elif path.suffix == ".npz":
            with np.load(path) as data:  # the zip stores write times: compare the arrays
                found[key] = {k: data[k].tolist() for k in data.files}
        elif path.suffix != ".png":
            found[key] = path.read_bytes()
    return found


def test_three_runs_on_one_folder_all_succeed_and_lose_nothing(tmp_path: Path) -> None:
    """Block files and their manifest (D.1), JSON cells (Agarwal & Singh) and ``.npz`` cells
    (Sajed & Sheffet), written by three processes at once into one folder."""
    shared, single = tmp_path / "shared", tmp_path / "single"
    for sync in (tmp_path / "sync3", tmp_path / "sync1"):
        sync.mkdir()
    cmd = [sys.executable, "-c", _WORKER]
    procs = [
        subprocess.Popen(
            [*cmd, str(shared), str(tmp_path / "sync3"), "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    outputs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], [err[-2000:] for _, err in outputs]
    done = subprocess.run(
        [*cmd, str(single), str(tmp_path / "sync1"), "1"], capture_output=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert not list(shared.rglob("*.tmp"))
    got, want = _contents(shared), _contents(single)
    assert sorted(got) == sorted(want)
    assert got == want
    assert {"d1.json", "mab.json", "sec5.json"} <= set(got)


# ------------------------------------------------------------------------------------------------
# The freshness lock
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", [b"", b'{"proofs_notes/tree.md": {"ref', b"\x00garbage"])
def test_a_damaged_freshness_lock_is_refused_with_instructions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: bytes
) -> None:
    from audit.tools.freshness import LOCK_PATH, FreshnessError, load_lock, main

    (tmp_path / LOCK_PATH).parent.mkdir(parents=True)
    (tmp_path / LOCK_PATH).write_bytes(damage)
    with pytest.raises(FreshnessError, match=r"freshness\.json is damaged .*git checkout"):
        load_lock(tmp_path)
    assert main(["--root", str(tmp_path)]) == 2
    assert "freshness.json is damaged" in capsys.readouterr().err


# ------------------------------------------------------------------------------------------------
# nox -s docs writes where the README says
# ------------------------------------------------------------------------------------------------


def test_the_docs_session_builds_into_results_docs_at_the_project_root(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """mkdocs resolves a relative ``-d`` against the config file's folder (``proofs_notes/``), so
    the session must pass an absolute path; the noxfile is run with a stand-in ``nox`` module."""
    import importlib.util
    import types

    fake = types.ModuleType("nox")
    fake.options = types.SimpleNamespace()  # type: ignore[attr-defined]
    fake.Session = object  # type: ignore[attr-defined]
    fake.session = lambda **kwargs: lambda function: function  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "nox", fake)
    spec = importlib.util.spec_from_file_location("privonline_noxfile", REPO / "noxfile.py")
    assert spec is not None and spec.loader is not None
    noxfile = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(noxfile)
    calls: list[tuple[str, ...]] = []
    session = types.SimpleNamespace(
        install=lambda *args: None, run=lambda *args, **kw: calls.append(args), posargs=[]
    )
    noxfile.docs(session)
    (args,) = [c for c in calls if c[:2] == ("mkdocs", "build")]
    site = Path(args[args.index("-d") + 1])
    assert site.is_absolute() and site == REPO / "results" / "docs"
