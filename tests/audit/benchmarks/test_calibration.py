"""The calibration runner (audit/benchmarks/calibration.py): every scenario runs, seeds follow
names, finished scenarios are reused, bad arguments are refused, and a miscalibrated tester is
caught by the same rate-vs-nominal reading."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from audit.benchmarks.calibration import (
    ALPHA,
    PAIR,
    SCENARIOS,
    Prepared,
    RandomizedResponse,
    Scenario,
    main,
    repeat_seed,
    run_calibration,
)
from audit.mechanisms import LaplaceMechanism
from audit.methods.black_box import EventCounts, event_audit
from audit.protocols import PrivacyClaim
from audit.results import POWER, SCHEMA_VERSION, PrivacyAuditResult
from reference.files import DamagedFileWarning
from reference.rng import seed_for

READINGS = {
    "false_alarm": {"ABOVE nominal", "below nominal", "consistent with nominal"},
    "power": {"BELOW promise", "above promise", "consistent with promise"},
}


def _recorder(name: str, seen: list[int], statements: list[int] | None = None) -> Scenario:
    """A scenario whose trials record their seeds and reject on odd seeds."""

    def build(seed: int) -> Prepared:
        if statements is not None:
            statements.append(seed)

        def trial(s: int) -> bool:
            seen.append(s)
            return s % 2 == 1

        return Prepared(trial, {"statement": seed})

    return Scenario(name, "false_alarm", "test", "recorder", "none", True, "1", ALPHA, build)


def _fixed(trial: Callable[[int], bool]) -> Callable[[int], Prepared]:
    return lambda _seed: Prepared(trial)


def test_every_scenario_runs_and_gives_sane_rows(tmp_path: Path) -> None:
    report = run_calibration(tmp_path, repeats=2, power_repeats=2, seed=3, progress=False)
    assert [r.scenario for r in report.rows] == list(SCENARIOS)
    for row in report.rows:
        assert row.repeats == 2 and 0 <= row.rejections <= 2
        assert row.ci_low <= row.rate <= row.ci_high and row.rate == row.rejections / 2
        assert row.nominal == (ALPHA if row.kind == "false_alarm" else POWER)
        assert row.reading in READINGS[row.kind]
        assert (tmp_path / f"{row.scenario.replace('/', '__')}.json").is_file()
        if row.kind == "power":  # every first audit gave a finite statement and a mechanism
            values = row.details.get("values", [row.details.get("value")])
            assert len(values) == (2 if row.scenario.endswith("/fresh") else 1)
            assert all(math.isfinite(v) and v > 0 for v in values)
            assert not row.details["leaking"].startswith("none")
    stored = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert stored["schema_version"] == SCHEMA_VERSION and stored["seed"] == 3
    assert {"python", "numpy", "scipy"} <= set(stored["versions"])
    markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "False-alarm rate" in markdown and "Power coverage" in markdown
    # the event-level scenario shares its first audit (and statement) with the mechanism one
    rows = {r.scenario: r for r in report.rows}
    for name in ("power/black_box/laplace", "power/billboard/correct_tree"):
        assert rows[name].details["value"] == rows[f"{name}/event"].details["value"]


def test_seeds_follow_scenario_names_and_repeats(tmp_path: Path) -> None:
    seen_a: list[int] = []
    seen_b: list[int] = []
    statements: list[int] = []
    registry = {"a": _recorder("a", seen_a), "b": _recorder("b", seen_b, statements)}
    both = run_calibration(tmp_path / "both", repeats=4, seed=9, registry=registry, progress=False)
    assert seen_b == [repeat_seed(9, "b", i) for i in range(4)]
    assert repeat_seed(9, "b", 2) == seed_for(9, "b/2")
    assert statements == [seed_for(9, "b/statement")]
    seen_b.clear()
    alone = run_calibration(
        tmp_path / "alone", repeats=4, seed=9, scenarios=["b"], registry=registry, progress=False
    )
    assert seen_b == [repeat_seed(9, "b", i) for i in range(4)]  # not moved by dropping "a"
    assert alone.rows[0].rejections == both.rows[1].rejections


def test_finished_scenarios_are_reused_and_others_recomputed(tmp_path: Path) -> None:
    seen: list[int] = []
    registry = {"a": _recorder("a", seen)}
    first = run_calibration(tmp_path, repeats=3, seed=1, registry=registry, progress=False)
    assert len(seen) == 3
    again = run_calibration(tmp_path, repeats=3, seed=1, registry=registry, progress=False)
    assert len(seen) == 3 and again.rows == first.rows  # identical settings: skipped
    run_calibration(tmp_path, repeats=5, seed=1, registry=registry, progress=False)
    assert len(seen) == 8  # other settings: recomputed
    (tmp_path / "a.json").write_text('{"settings": ', encoding="utf-8")  # an interrupted write
    with pytest.warns(DamagedFileWarning):
        run_calibration(tmp_path, repeats=5, seed=1, registry=registry, progress=False)
    assert len(seen) == 13


def test_bad_arguments_name_the_parameter(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="repeats"):
        run_calibration(tmp_path, repeats=0, progress=False)
    with pytest.raises(ValueError, match="power_repeats"):
        run_calibration(tmp_path, power_repeats=-1, progress=False)
    with pytest.raises(ValueError, match="seed"):
        run_calibration(tmp_path, seed=-1, progress=False)
    with pytest.raises(ValueError, match="scenarios"):
        run_calibration(tmp_path, scenarios=["no/such"], progress=False)
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match="out"):
        run_calibration(tmp_path / "file", scenarios=["binomial/at_rate"], progress=False)
    with pytest.raises(ValueError, match="epsilon"):
        RandomizedResponse(0.0)
    with pytest.raises(SystemExit):
        main(["--repeats", "0", "--out", str(tmp_path)])


def test_command_line_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as help_exit:
        main(["--help"])
    assert help_exit.value.code == 0
    out = tmp_path / "cli"
    args = ["--repeats", "3", "--seed", "4", "--out", str(out), "--quiet"]
    assert main([*args, "--scenarios", "binomial/at_rate,scaling/log_ols"]) == 0
    assert "binomial/at_rate" in capsys.readouterr().out
    assert {p.name for p in out.iterdir()} == {
        "binomial__at_rate.json",
        "scaling__log_ols.json",
        "report.json",
        "report.md",
    }


def test_randomized_response_keeps_the_bit_with_its_exact_probability() -> None:
    draws = RandomizedResponse(1.0).sample(np.ones(1), np.random.default_rng(0), 200_000)
    assert set(np.unique(draws)) == {0.0, 1.0}
    assert abs(draws.mean() - math.e / (1 + math.e)) < 0.005  # ~5 standard errors


def test_a_miscalibrated_black_box_is_caught_by_the_rate_check(tmp_path: Path) -> None:
    # Known-bad case for the calibration itself: the black box with its Clopper–Pearson bounds
    # replaced by plug-in frequencies, ε̂ = ln(p̂/p̂') on the event it evaluated (half-count
    # corrected), against Laplace(1)'s exact ε = 1.  ε̂ scatters around the event's true ratio,
    # which is e¹ for every tail event, so it rejects about half the time; with 40 repeats the
    # 95% CP interval of the rate lies far above α = 0.05.  The honest tester on the same
    # mechanism stays at or below nominal.
    claim = PrivacyClaim(1.0, 0.0)

    def audit(seed: int) -> PrivacyAuditResult:
        return event_audit(LaplaceMechanism(1.0), PAIR, claim, samples=1000, seed=seed)

    def plug_in(seed: int) -> bool:
        counts: EventCounts = audit(seed).details["counts"]
        p = (counts.count + 0.5) / (counts.trials + 1.0)
        q = (counts.count_prime + 0.5) / (counts.trials_prime + 1.0)
        return math.log(p / q) > claim.epsilon

    def honest(seed: int) -> bool:
        return audit(seed).violation

    registry = {
        name: Scenario(
            name, "false_alarm", name, "Laplace(1)", "ε = 1", True, "1000", ALPHA, _fixed(trial)
        )
        for name, trial in (("honest", honest), ("plug_in", plug_in))
    }
    report = run_calibration(tmp_path, repeats=40, seed=2026, registry=registry, progress=False)
    rows = {r.scenario: r for r in report.rows}
    assert rows["plug_in"].reading == "ABOVE nominal"
    assert rows["plug_in"].ci_low > 4 * ALPHA
    assert rows["honest"].reading != "ABOVE nominal"
