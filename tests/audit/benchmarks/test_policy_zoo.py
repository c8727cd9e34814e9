"""The policy-zoo runner: a small run (2 seeds of 2 cases, cheap checks) writes its report and
cells, a rerun reuses the cells, other arguments are refused, and unavailable cases are skipped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import audit.kinds as kinds
from audit.benchmarks import policy_zoo
from audit.benchmarks.policy_zoo import CASES, ZooCase, ZooRow, available, main, select_cases

CHEAP = ["--check-args", "--stream-runs 20 --runs 2 --n 40"]


def test_two_seeds_of_two_cases_write_the_report_and_a_rerun_resumes(tmp_path: Path) -> None:
    argv = ["--seeds", "2", "--cases", "non_private,dp_se", *CHEAP, "--out", str(tmp_path)]
    assert main(argv) == 0
    report = json.loads((tmp_path / "policy_zoo.json").read_text())
    assert report["schema_version"] and report["kind"] == "policy_zoo"
    assert "--seeds 2" in report["command"] and "numpy" in report["versions"]
    assert [c["case"] for c in report["cases"]] == ["non_private", "dp_se"]
    for case in report["cases"]:
        assert sum(case["exit_codes"].values()) == 2 and len(case["runs"]) == 2
        assert 0.0 <= case["power_ci95"][0] <= case["power"] <= case["power_ci95"][1] <= 1.0
        assert {r["seed"] for r in case["runs"]} == {0, 1}
        assert all(r["exit_code"] in (0, 1, 3, 4, 5) for r in case["runs"])
    table = (tmp_path / "policy_zoo.md").read_text()
    assert "| non_private | linear | no noise at all" in table and "power [95% CI]" in table
    assert "| dp_se | multi_armed | correct | pass |" in table
    cells = sorted((tmp_path / "cells").glob("*.json"))
    assert [c.name for c in cells] == [
        "dp_se__seed0.json", "dp_se__seed1.json", "non_private__seed0.json",
        "non_private__seed1.json",
    ]  # fmt: skip
    config = json.loads(cells[0].read_text())["config"]
    assert config["seed"] == 0 and {"check", "target_source"} <= set(config)  # code digests
    stamps = [c.stat().st_mtime_ns for c in cells]
    assert main(argv) == 0  # every cell reused, nothing recomputed
    assert [c.stat().st_mtime_ns for c in cells] == stamps
    again = json.loads((tmp_path / "policy_zoo.json").read_text())
    assert again["cases"] == report["cases"]
    other = ["--seeds", "1", "--cases", "dp_se", "--check-args", "--stream-runs 24 --runs 2 --n 40"]
    with pytest.raises(SystemExit) as refused:  # a cell stored under other arguments
        main([*other, "--out", str(tmp_path)])
    assert refused.value.code == 2


def test_the_case_list_holds_every_example_and_the_references() -> None:
    targets = {c.target for c in CASES}
    for target in (
        "examples.good_policy:policy",
        "examples.buggy_policy:policy",
        "examples.multi_armed:UCB1",
        "examples.multi_armed:PrivateSuccessiveElimination",
        "examples.online:TreeFTRLExperts",
        "examples.online:RadiusTreeFTRL",
        "examples.online:PrivateEXP3",
        "examples.references:algorithm1",
        "examples.references:dp_se",
        "examples.references:private_ftrl",
    ):
        assert target in targets
    for case in CASES:
        if case.kind == "multi_armed":
            assert case.args[case.args.index("--delta") + 1] == "0"
    chosen, skipped = select_cases(None)
    assert {c.name for c in chosen} | {c.name for c, _ in skipped} == {c.name for c in CASES}
    for case, why in skipped:
        assert available(case) == why
        with pytest.raises(ValueError, match="cannot run yet"):
            select_cases([case.name])


def test_a_kind_the_check_lacks_is_skipped_with_the_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kinds, "KINDS", ("audit.kinds.linear",))
    chosen, skipped = policy_zoo.select_cases(None)
    assert all(c.kind == "linear" for c in chosen)
    reasons = {c.name: why for c, why in skipped}
    assert reasons["dp_ucb"] == "the check has no --kind multi_armed yet"
    with pytest.raises(SystemExit) as unknown:
        main(["--cases", "no_such_case"])
    assert unknown.value.code == 2


def test_power_counts_the_expected_exit_code_with_a_clopper_pearson_interval() -> None:
    bug = ZooCase("b", "m:x", (), "violation", "a bug")
    runs = tuple({"exit_code": c, "seconds": 1.0, "epsilon_lower_bound": "inf",
                  "detectable_epsilon": None} for c in (1, 1, 5))  # fmt: skip
    row = ZooRow(bug, runs)
    assert row.tally == {1: 2, 5: 1} and row.hits == 2
    power, low, high = row.power
    assert power == pytest.approx(2 / 3) and 0.0 < low < power < high < 1.0
    assert row.median("epsilon_lower_bound") == float("inf")
    assert row.median("detectable_epsilon") is None
    assert row.false_alarms is None
    correct = ZooRow(ZooCase("c", "m:x", (), "pass"), runs)
    assert correct.hits == 0 and correct.power[0] == 0.0
    alarms = correct.false_alarms
    assert alarms is not None and alarms[0] == pytest.approx(2 / 3)


def test_help_describes_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "--seeds" in capsys.readouterr().out
