"""``privonline check`` on hostile targets and arguments: a target that crashes at import, hangs,
prints, returns NaN or ends its process; bad arguments of ``run_check`` and bad flags.

Each target is a tiny module written to ``tmp_path``; the checks run at the smallest sizes."""

from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path
from typing import Any

import pytest

from audit import check, targets
from audit.protocols import PrivacyClaim

REPO = str(Path(__file__).resolve().parents[2])  # the folder that holds the examples package
TINY = ["--stream-runs", "40", "--runs", "2", "--n", "40", "--budget", "10"]
STREAMS = PrivacyClaim(1.0, 0.1, "t_neighbouring")

RANDOM_POLICY = """
    import numpy as np

    class RandomPolicy:
        def run(self, decision_sets, reward_tables, rng):
            return rng.integers(0, [len(arms) for arms in decision_sets])
"""


def _write(tmp_path: Path, name: str, body: str) -> str:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body))
    return str(tmp_path)


def _report(out: Path) -> dict[str, Any]:
    report: dict[str, Any] = json.loads((out / "check.json").read_text())
    return report


def _check(tmp_path: Path, target: str, *extra: str, delta: str = "0.1") -> tuple[int, Path]:
    out = tmp_path / "out"
    argv = [target, "--path", str(tmp_path), "--epsilon", "1", "--delta", delta, *TINY, *extra]
    return check.main([*argv, "--out", str(out)]), out


# ------------------------------------------------------------------------------------------------
# A target whose module (or constructor) raises: exit 4, the traceback in the report
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "found"),
    [
        ("raise RuntimeError('no GPU found at import')\n", "RuntimeError: no GPU found at import"),
        ("def broken(:\n    pass\n", "SyntaxError"),
        ("import a_dependency_that_is_not_installed\n", "a_dependency_that_is_not_installed"),
        ("import sys\nsys.exit(3)\n", "SystemExit"),
    ],
    ids=["runtime_error", "syntax_error", "missing_dependency", "sys_exit"],
)
def test_a_target_module_that_raises_at_import_is_a_crash_with_its_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str, found: str
) -> None:
    _write(tmp_path, "raising_module", body)
    code, out = _check(tmp_path, "raising_module:policy")
    assert code == 4
    report = _report(out)
    assert report["verdict"] == "CRASHED" and report["privacy"] is None
    assert "Traceback" in report["crash"] and found in report["crash"]
    assert "## The target crashed" in (out / "check.md").read_text()
    assert "error: the target failed while it was checked" in capsys.readouterr().err


def test_load_object_names_an_import_crash_as_the_targets_failure(tmp_path: Path) -> None:
    _write(tmp_path, "syntax_error_module", "def broken(:\n")
    with pytest.raises(targets.TargetError, match="raised while it was imported") as info:
        targets.load_object("syntax_error_module:x", [str(tmp_path)])
    assert "SyntaxError" in info.value.traceback and isinstance(info.value, ValueError)


def test_a_constructor_that_raises_is_a_crash_and_a_crashing_pair_module_too(
    tmp_path: Path,
) -> None:
    body = (
        RANDOM_POLICY
        + """
    class NeedsHardware(RandomPolicy):
        def __init__(self):
            raise RuntimeError("no hardware")
    """
    )
    _write(tmp_path, "constructing", body)
    code, out = _check(tmp_path, "constructing:NeedsHardware")
    assert code == 4 and "RuntimeError: no hardware" in _report(out)["crash"]
    # a mechanism's claim takes the pair's relation: unknown when the pair's module crashes
    _write(tmp_path, "crashing_pair", "raise ValueError('bad pair module')\n")
    code, out = _check(tmp_path, "crashing_pair:mechanism", "--pair", "crashing_pair:pair")
    report = _report(out)
    assert code == 4 and report["claim"] is None
    assert "ValueError: bad pair module" in report["crash"]


# ------------------------------------------------------------------------------------------------
# Time limits: a hanging target ends by its limit, exit 4, the partial report written
# ------------------------------------------------------------------------------------------------

HANGING = (
    RANDOM_POLICY
    + """
    import time

    class HangsInRegret(RandomPolicy):
        # behaves on the audit's designs (2 to 16 days), hangs on the regret runs (40 days)
        def run(self, decision_sets, reward_tables, rng):
            if len(decision_sets) > 16:
                time.sleep(3600)
            return super().run(decision_sets, reward_tables, rng)

    class Slow(RandomPolicy):
        def run(self, decision_sets, reward_tables, rng):
            time.sleep(0.05)
            return super().run(decision_sets, reward_tables, rng)
"""
)


def test_a_target_that_hangs_is_stopped_by_the_per_call_limit_and_the_audit_so_far_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "hanging", HANGING)
    code, out = _check(tmp_path, "hanging:HangsInRegret", "--call-timeout", "2")
    assert code == 4
    report = _report(out)
    assert report["verdict"] == "CRASHED" and report["privacy"] is not None  # kept
    assert report["regret"] is None
    limit = report["limit"]
    assert limit["limit"] == "call_timeout" and limit["seconds"] == 2.0
    assert limit["call"] == "run()" and limit["call_seconds"] > 2.0
    assert "regret" in limit["stage"] and "--call-timeout" in report["crash"]
    assert "## Stopped by a time limit" in (out / "check.md").read_text()
    assert "error: the target was stopped" in capsys.readouterr().err


def test_the_overall_limit_stops_a_slow_target(tmp_path: Path) -> None:
    _write(tmp_path, "slow", HANGING)
    code, out = _check(tmp_path, "slow:Slow", "--timeout", "3")
    assert code == 4
    limit = _report(out)["limit"]
    assert limit["limit"] == "timeout" and limit["seconds"] == 3.0


def test_a_module_that_hangs_at_import_is_stopped(tmp_path: Path) -> None:
    _write(tmp_path, "hangs_at_import", "import time\ntime.sleep(3600)\n")
    report = check.run_check(
        "hangs_at_import:policy", STREAMS, paths=[str(tmp_path)], call_timeout=1.0
    )
    assert report.exit_code == 4 and report.limit is not None
    assert report.limit["call"] == "import of module 'hangs_at_import'"


def test_a_target_that_ends_its_process_is_a_crash(tmp_path: Path) -> None:
    body = (
        RANDOM_POLICY
        + """
    import os

    class Exits(RandomPolicy):
        def run(self, decision_sets, reward_tables, rng):
            os._exit(3)
    """
    )
    _write(tmp_path, "exiting", body)
    code, out = _check(tmp_path, "exiting:Exits")
    assert code == 4
    assert "ended unexpectedly (exit code 3)" in _report(out)["crash"]


# ------------------------------------------------------------------------------------------------
# What the target prints goes into the report, never to stdout
# ------------------------------------------------------------------------------------------------

PRINTING = (
    RANDOM_POLICY
    + """
    import os
    import sys

    import numpy as np

    print("imported: hello from the target")

    class Chatty(RandomPolicy):
        said = False

        def run(self, decision_sets, reward_tables, rng):
            if not self.said:  # once: the run count must not matter here
                print("python-level print")
                os.write(1, b"fd-level write\\n")
                print("to stderr", file=sys.stderr)
                self.said = True
            return super().run(decision_sets, reward_tables, rng)

    class ChattyNaN(RandomPolicy):
        def run(self, decision_sets, reward_tables, rng):
            print("about to return NaN")
            return np.full(len(decision_sets), np.nan)

    class Flood(RandomPolicy):
        def run(self, decision_sets, reward_tables, rng):
            print("x" * 100_000)
            return super().run(decision_sets, reward_tables, rng)
"""
)


def test_what_the_target_prints_is_in_the_report_not_on_stdout(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "printing", PRINTING)
    code, out = _check(tmp_path, "printing:Chatty")
    assert code in (0, 3, 5)  # a policy that ignores its data: pass, or short of power or regret
    output = _report(out)["target_output"]
    for line in ("imported: hello", "python-level print", "fd-level write", "to stderr"):
        assert line in output["text"]
    assert not output["truncated"] and output["size"] == len(output["text"].encode())
    # stdout carries the report only (whose last section quotes the target), stderr nothing of it
    printed, markdown = capfd.readouterr(), (out / "check.md").read_text()
    assert printed.out == f"{markdown}\nreport: {out / 'check.md'}\n"
    assert "## What the target printed" in markdown
    assert "print" not in printed.err and "write" not in printed.err


def test_a_target_returning_nan_crashes_with_what_it_printed(tmp_path: Path) -> None:
    _write(tmp_path, "printing_nan", PRINTING)
    code, out = _check(tmp_path, "printing_nan:ChattyNaN")
    report = _report(out)
    assert code == 4 and "NaN" in report["crash"]
    assert "about to return NaN" in report["target_output"]["text"]


def test_a_flood_of_output_is_cut_to_its_head_and_tail(tmp_path: Path) -> None:
    _write(tmp_path, "flooding", PRINTING)
    report = check.run_check(
        "flooding:Flood", STREAMS, paths=[str(tmp_path)], stream_runs=4, runs=2, n=20
    )
    assert report.target_output is not None and report.target_output.truncated
    assert report.target_output.size > 1_000_000
    assert "bytes left out" in report.target_output.text
    assert len(report.target_output.text) < 11_000


# ------------------------------------------------------------------------------------------------
# Pure-ε claims: a mechanism runs
# ------------------------------------------------------------------------------------------------

LAPLACE = """
    import numpy as np
    from audit.protocols import NeighbouringPair

    class LaplaceCount:
        def __repr__(self):  # the default repr holds a memory address, which differs per process
            return "LaplaceCount()"

        def sample(self, data, rng, size):
            return float(np.sum(data)) + rng.laplace(0.0, 1.0, size=(size, 1))

        def log_density(self, data, outputs):
            return -np.abs(outputs[:, 0] - float(np.sum(data)))

    laplace = LaplaceCount()
    pair = NeighbouringPair(np.array([1.0]), np.array([0.0]), "replace_one", "counts 1 and 0")
"""


def test_a_pure_epsilon_mechanism_is_checked(tmp_path: Path) -> None:
    _write(tmp_path, "pure", LAPLACE)
    argv = ["pure:laplace", "--pair", "pure:pair", "--path", str(tmp_path), "--epsilon", "1"]
    argv += ["--delta", "0", "--samples", "20000", "--out", str(tmp_path / "out")]
    assert check.main(argv) == 0
    report = _report(tmp_path / "out")
    assert report["claim"]["delta"] == 0.0 and report["privacy"]["method"] == "white_box"


def test_results_do_not_depend_on_the_watchdog(tmp_path: Path) -> None:
    # the same check in a child process and here: the same report but for its timings
    def without_times(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: without_times(v) for k, v in value.items()
                    if k not in ("runtime_seconds", "seconds")}  # fmt: skip
        return [without_times(v) for v in value] if isinstance(value, list) else value

    _write(tmp_path, "pure_twice", LAPLACE)
    reports = []
    for isolate in (True, False):
        # a time budget makes the number of stages depend on the machine: fix it
        common: dict[str, Any] = {"paths": [REPO], "stream_runs": 40, "runs": 2, "n": 40,
                                  "max_stages": 2, "budget": 1e6}  # fmt: skip
        limits: dict[str, Any] = {} if isolate else {"timeout": None, "call_timeout": None}
        policy = check.run_check(
            "examples.good_policy:policy", STREAMS, isolate=isolate, **common, **limits
        )
        mechanism = check.run_check(
            "pure_twice:laplace", check.PairClaim(1.0, 0.0), paths=[str(tmp_path)],
            pair="pure_twice:pair", samples=2000, isolate=isolate, **limits,
        )  # fmt: skip
        reports.append([without_times(r.to_dict()) for r in (policy, mechanism)])
    assert reports[0] == reports[1]


# ------------------------------------------------------------------------------------------------
# Bad arguments of run_check: a ValueError naming the argument before anything runs
# ------------------------------------------------------------------------------------------------


def _must_not_run(*args: object, **kwargs: object) -> Any:
    raise AssertionError("the check started before its arguments were checked")


@pytest.mark.parametrize(
    ("changes", "name"),
    [
        ({"runs": 0}, "runs"),
        ({"n": 0}, "n"),
        ({"stream_runs": 0}, "stream_runs"),
        ({"stream_n": 2}, "stream_n"),
        ({"samples": 0}, "samples"),
        ({"release_samples": 0}, "release_samples"),
        ({"confidence": 2.0}, "confidence"),
        ({"confidence": math.nan}, "confidence"),
        ({"claim": PrivacyClaim(1.0, 0.1, "replace_one")}, "claim.relation"),
        ({"claim": "epsilon 1"}, "claim"),
        ({"reward_range": (1.0, 0.0)}, "reward_range"),
        ({"reward_range": (math.nan, 1.0)}, "reward_range"),
        ({"reward_range": "0,1"}, "reward_range"),
        ({"target_kwargs": [1, 2]}, "target_kwargs"),
        ({"target_kwargs": {1: 2}}, "target_kwargs"),
        ({"paths": "examples"}, "paths"),
        ({"d": 1}, "d"),
        ({"gap": math.nan}, "gap"),
        ({"gap": 1.5}, "gap"),
        ({"n": 10}, "n"),
        ({"progress": "yes"}, "progress"),
        ({"timeout": 0.0}, "timeout"),
        ({"call_timeout": math.inf}, "call_timeout"),
        ({"isolate": False}, "isolate"),
        ({"kind": "online_bandit", "n": 3}, "T"),
        ({"kind": "multi_armed", "claim": PrivacyClaim(0.0, 0.0, "t_neighbouring")}, "epsilon"),
        ({"pair": "examples.mechanisms:pair", "kind": "linear"}, "kind"),
        ({"pair": "examples.mechanisms:pair", "reference": "gaussian"}, "reference"),
        ({"loss_set": "box01"}, "loss_set"),
        ({"anchored_levels": [3]}, "anchored_levels"),
        ({"anchored_levels": [15]}, "anchored_levels"),
        ({"anchored_levels": [10**18]}, "anchored_levels"),
        ({"anchored_levels": [5.5]}, "anchored_levels"),
        ({"anchored_levels": "11"}, "anchored_levels"),
        ({"anchored_levels": [5], "kind": "multi_armed"}, "anchored_levels"),
        ({"anchored_levels": [5, 5]}, "anchored_levels"),
    ],
)
def test_run_check_refuses_bad_arguments_before_anything_runs(
    monkeypatch: pytest.MonkeyPatch, changes: dict[str, Any], name: str
) -> None:
    for work in ("load_target", "run_watched", "run_in_process"):
        monkeypatch.setattr(check, work, _must_not_run, raising=False)
    arguments: dict[str, Any] = {"claim": STREAMS, "paths": [REPO], **changes}
    claim = arguments.pop("claim")
    with pytest.raises(ValueError, match=name):
        check.run_check("examples.good_policy:policy", claim, **arguments)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--timeout", "0"], "argument --timeout:"),
        (["--timeout", "nan"], "argument --timeout:"),
        (["--call-timeout", "-1"], "argument --call-timeout:"),
        (["--call-timeout", "soon"], "argument --call-timeout:"),
    ],
)
def test_bad_limit_flags_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    base = ["examples.good_policy:policy", "--path", REPO, "--epsilon", "1", "--delta", "0.1"]
    with pytest.raises(SystemExit) as exc:
        check.main([*base, *argv, "--out", str(tmp_path / "never")])
    assert exc.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "never").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--kind", "multi_armed"], "pair (--pair) applies to --kind mechanism only"),
        (["--reference", "gaussian"], "reference (--reference) is fixed for mechanism"),
    ],
)
def test_policy_flags_for_a_mechanism_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    base = ["examples.mechanisms:good", "--pair", "examples.mechanisms:pair", "--path", REPO]
    base += ["--epsilon", "1", "--delta", "1e-5", "--samples", "2000"]
    assert check.main([*base, *argv, "--out", str(tmp_path / "out")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out" / "check.json").exists()


@pytest.mark.parametrize("name", ["n", "runs", "stream_runs", "samples", "release_samples"])
def test_absurd_sizes_are_refused_before_anything_runs(name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name} must be at most 2\*\*53"):
        sizes: dict[str, Any] = {name: 10**18}
        check.run_check("examples.good_policy:policy", STREAMS, paths=[REPO], **sizes)
