"""Measured false-alarm rates of every tester, and the measured coverage of its power statement.

:data:`SCENARIOS` (:mod:`audit.benchmarks.calibration_scenarios`) pairs each tester with a tight
correct mechanism (its exact guarantee is the claim) and a nominal level; :func:`run_calibration`
repeats each scenario with seeds by name (``seed_for(seed, "<scenario>/<repeat>")``) and states
the rejection rate with a 95% Clopper–Pearson interval.  Power scenarios audit a mechanism that
leaks exactly the ``detectable_epsilon`` / ``detectable_delta`` a first audit stated, against the
original claim.
``python -m audit.benchmarks.calibration --help``: resumable, one JSON file per scenario.
Proof note: ``proofs_notes/audit/calibration.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from audit.benchmarks.calibration_scenarios import (
    ALPHA,
    PAIR,
    SCENARIOS,
    Kind,
    Prepared,
    RandomizedResponse,
    Scenario,
)
from audit.results import SCHEMA_VERSION, package_versions, produced_by, produced_by_line
from audit.stats import clopper_pearson
from reference.files import (
    DamagedFileError,
    atomic_write_text,
    prepare_output_dir,
    read_json,
    warn_damaged,
    write_json,
)
from reference.rng import check_seed, seed_for
from reference.validation import check_int_at_least

__all__ = [
    "ALPHA",
    "PAIR",
    "SCENARIOS",
    "CalibrationReport",
    "CalibrationRow",
    "Prepared",
    "RandomizedResponse",
    "Scenario",
    "main",
    "repeat_seed",
    "run_calibration",
    "select_scenarios",
]

INTERVAL_BETA = 0.025
"""Each side of the reported two-sided 95% Clopper–Pearson interval of a measured rate."""


# --------------------------------------------------------------------------------------------
# Runner
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationRow:
    """The measured rejection rate of one scenario.

    ``reading`` compares the 95% Clopper–Pearson interval ``[ci_low, ci_high]`` of ``rate`` with
    ``nominal``: for false alarms ``"ABOVE nominal"`` (``ci_low > nominal``: a bug),
    ``"below nominal"`` (``ci_high < nominal``: conservative) or ``"consistent with nominal"``;
    for power ``"BELOW promise"`` (``ci_high < nominal``), ``"above promise"`` or
    ``"consistent with promise"``.
    """

    scenario: str
    kind: Kind
    tester: str
    mechanism: str
    claim: str
    tight: bool
    samples: str
    nominal: float
    repeats: int
    rejections: int
    rate: float
    ci_low: float
    ci_high: float
    reading: str
    seed: int
    seconds: float
    details: dict[str, Any]


def repeat_seed(seed: int, scenario: str, repeat: int) -> int:
    """The seed of repeat ``repeat`` of ``scenario``: ``seed_for(seed, "<scenario>/<repeat>")``."""
    return seed_for(seed, f"{scenario}/{repeat}")


def _reading(kind: Kind, nominal: float, low: float, high: float) -> str:
    if kind == "false_alarm":
        if low > nominal:
            return "ABOVE nominal"
        return "below nominal" if high < nominal else "consistent with nominal"
    if high < nominal:
        return "BELOW promise"
    return "above promise" if low > nominal else "consistent with promise"


def _settings(scenario: Scenario, repeats: int, seed: int) -> dict[str, Any]:
    """What a stored scenario file must match to be reused."""
    fields = {k: v for k, v in asdict(scenario).items() if k != "build"}
    return {**fields, "repeats": repeats, "seed": seed, "schema_version": SCHEMA_VERSION}


def _file(out: Path, name: str) -> Path:
    return out / f"{name.replace('/', '__')}.json"


def _stored_row(path: Path, settings: dict[str, Any]) -> CalibrationRow | None:
    """The row stored at ``path`` if it was computed with exactly ``settings``."""
    if not path.exists():
        return None
    try:
        stored = read_json(path)
    except DamagedFileError as err:
        warn_damaged(err)
        return None
    if not isinstance(stored, dict) or stored.get("settings") != settings:
        return None
    row = stored.get("row")
    return CalibrationRow(**row) if isinstance(row, dict) else None


def select_scenarios(
    names: Sequence[str] | None, registry: Mapping[str, Scenario] | None = None
) -> list[Scenario]:
    """The scenarios named (or every one for ``None``), in registry order; an unknown name is a
    ``ValueError`` naming ``scenarios`` and listing the choices."""
    registry = SCENARIOS if registry is None else registry
    if names is None:
        return list(registry.values())
    unknown = [n for n in names if n not in registry]
    if unknown or not names:
        raise ValueError(
            f"scenarios must name calibration scenarios, got {unknown or list(names)}; "
            f"choices: {sorted(registry)}"
        )
    wanted = set(names)
    return [s for s in registry.values() if s.name in wanted]


@dataclass(frozen=True)
class CalibrationReport:
    """A calibration run: settings, versions and one row per scenario."""

    seed: int
    repeats: int
    power_repeats: int
    versions: dict[str, str]
    date: str
    rows: tuple[CalibrationRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report (``schema_version``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "benchmark": "calibration",
            "seed": self.seed,
            "repeats": self.repeats,
            "power_repeats": self.power_repeats,
            "interval": "two-sided 95% Clopper–Pearson",
            "date": self.date,
            "versions": self.versions,
            "rows": [asdict(r) for r in self.rows],
        }

    def markdown(self) -> str:
        """Two Markdown tables: false-alarm rates against ``α``, power coverage against 0.95."""
        out = [
            f"# Calibration: seed {self.seed}, {self.repeats} repeats per false-alarm scenario, "
            f"{self.power_repeats} per power scenario ({self.date})",
            "",
            produced_by_line(),
            "",
            "## False-alarm rate (claim holds) vs nominal α",
            "",
            "| scenario | tester | tight | samples per run | rejections | rate | 95% CP | "
            "nominal α | reading |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for r in self.rows:
            if r.kind == "false_alarm":
                out.append(
                    f"| {r.scenario} | {r.tester} | {'yes' if r.tight else 'no'} | {r.samples} "
                    f"| {r.rejections}/{r.repeats} | {r.rate:.4f} | [{r.ci_low:.4f}, "
                    f"{r.ci_high:.4f}] | {r.nominal:g} | {r.reading} |"
                )
        out += [
            "",
            "## Power coverage: a mechanism leaking exactly the stated amount vs the promised 0.95",
            "",
            "| scenario | statement of the first audit | leaking mechanism | rejections | rate | "
            "95% CP | promised | reading |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in self.rows:
            if r.kind == "power":
                d = r.details
                out.append(
                    f"| {r.scenario} | {_statement_text(d)} | {d.get('leaking')} | "
                    f"{r.rejections}/{r.repeats} | {r.rate:.4f} | [{r.ci_low:.4f}, "
                    f"{r.ci_high:.4f}] | ≥ {r.nominal:g} | {r.reading} |"
                )
        return "\n".join(out) + "\n"


def _statement_text(details: dict[str, Any]) -> str:
    if "values" in details:  # a statement per repeat (JSON stores infinities as strings)
        v = np.asarray([float(x) for x in details["values"]])
        if v.size == 0:
            return str(details["stated"])
        return (
            f"{details['stated']}: median {np.median(v):.4g}, range [{v.min():.4g}, {v.max():.4g}]"
        )
    return (
        f"{details.get('stated')} = {_fmt(details.get('value'))} ({details.get('first_verdict')})"
    )


def _fmt(value: Any) -> str:
    if isinstance(value, float | int) and not isinstance(value, bool):
        return f"{value:.4g}"
    return str(value)


def _run_scenario(
    scenario: Scenario, repeats: int, seed: int, bar: tqdm[Any] | None
) -> CalibrationRow:
    t0 = time.perf_counter()
    key = scenario.statement_key or scenario.name
    prepared = scenario.build(seed_for(seed, f"{key}/statement"))
    rejections = 0
    for repeat in range(repeats):
        rejections += bool(prepared.trial(repeat_seed(seed, scenario.name, repeat)))
        if bar is not None:
            bar.update(1)
    low, high = clopper_pearson(rejections, repeats, INTERVAL_BETA)
    return CalibrationRow(
        scenario=scenario.name,
        kind=scenario.kind,
        tester=scenario.tester,
        mechanism=scenario.mechanism,
        claim=scenario.claim,
        tight=scenario.tight,
        samples=scenario.samples,
        nominal=scenario.nominal,
        repeats=repeats,
        rejections=rejections,
        rate=rejections / repeats,
        ci_low=low,
        ci_high=high,
        reading=_reading(scenario.kind, scenario.nominal, low, high),
        seed=seed,
        seconds=time.perf_counter() - t0,
        details=prepared.details,
    )


def run_calibration(
    out: Path,
    *,
    repeats: int = 500,
    power_repeats: int = 200,
    seed: int = 2026,
    scenarios: Sequence[str] | None = None,
    registry: Mapping[str, Scenario] | None = None,
    progress: bool = True,
) -> CalibrationReport:
    """Run every selected scenario ``repeats`` times (``power_repeats`` for power scenarios) and
    write ``out/<scenario>.json`` per scenario as it finishes, then ``report.json`` and
    ``report.md``, all atomically.  A scenario whose file holds identical settings is not rerun.

    Checked before anything runs (``ValueError`` naming the parameter): ``repeats`` and
    ``power_repeats`` are integers ``≥ 1``, ``seed`` follows the one seed rule, ``scenarios``
    names registered scenarios, ``out`` is a writable folder.
    """
    repeats = check_int_at_least("repeats", repeats, 1)
    power_repeats = check_int_at_least("power_repeats", power_repeats, 1)
    seed = check_seed(seed)
    chosen = select_scenarios(scenarios, registry)
    out = prepare_output_dir(Path(out), "out")
    plan = []
    for s in chosen:
        r = repeats if s.kind == "false_alarm" else power_repeats
        settings = _settings(s, r, seed)
        plan.append((s, r, settings, _stored_row(_file(out, s.name), settings)))
    todo = sum(r for _s, r, _settings_, row in plan if row is None)
    bar = tqdm(total=todo, unit="run", disable=not progress, file=sys.stderr, smoothing=0.05)
    rows = []
    try:
        for s, r, settings, row in plan:
            if row is None:
                bar.set_description(s.name)
                row = _run_scenario(s, r, seed, bar)
                write_json(_file(out, s.name), {"settings": settings, "row": asdict(row)})
            rows.append(row)
    finally:
        bar.close()
    report = CalibrationReport(
        seed=seed,
        repeats=repeats,
        power_repeats=power_repeats,
        versions=package_versions(),
        date=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        rows=tuple(rows),
    )
    write_json(out / "report.json", report.to_dict())
    atomic_write_text(out / "report.md", report.markdown())
    return report


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Command line: ``python -m audit.benchmarks.calibration --help``."""
    parser = argparse.ArgumentParser(
        prog=prog or "python -m audit.benchmarks.calibration",
        description="Measure the false-alarm rate of every tester on tight correct mechanisms "
        "and the coverage of the power statements; writes one JSON per scenario (resumable), "
        "report.json and report.md.",
    )
    parser.add_argument("--repeats", type=int, default=500, help="repeats per false-alarm "
                        "scenario (default 500)")  # fmt: skip
    parser.add_argument("--power-repeats", type=int, default=200, help="repeats per power "
                        "scenario (default 200)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=2026, help="root seed (default 2026)")
    parser.add_argument("--out", type=Path, default=Path("results/calibration"),
                        help="output folder (default results/calibration)")  # fmt: skip
    parser.add_argument("--scenarios", default=None, help="comma-separated scenario names "
                        "(default: all; see --list)")  # fmt: skip
    parser.add_argument("--list", action="store_true", help="list the scenarios and exit")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.list:
        for s in SCENARIOS.values():
            print(f"{s.name}  [{s.kind}] {s.tester} on {s.mechanism}, claim {s.claim}")
        return 0
    names = None
    if args.scenarios is not None:
        names = [c.strip() for c in args.scenarios.split(",") if c.strip()]
    try:
        check_int_at_least("--repeats", args.repeats, 1)
        check_int_at_least("--power-repeats", args.power_repeats, 1)
        check_seed(args.seed, "--seed")
        select_scenarios(names)
        prepare_output_dir(args.out)
    except ValueError as err:
        parser.error(str(err))
    report = run_calibration(
        args.out,
        repeats=args.repeats,
        power_repeats=args.power_repeats,
        seed=args.seed,
        scenarios=names,
        progress=not args.quiet,
    )
    print(report.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
