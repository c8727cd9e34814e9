"""The power of ``privonline check`` on a zoo of third-party policies with known answers.

:data:`CASES` names each policy (target, extra check arguments, the bug or ``""``, and whether the
check should find a violation or pass); :func:`run_zoo` runs :func:`audit.check.main` on each case
for seeds ``0 .. S − 1`` and keeps every (case, seed) outcome atomically in ``<out>/cells`` (a rerun
resumes); :func:`write_zoo` writes ``policy_zoo.json`` and ``policy_zoo.md``: per case the exit-code
tally and the power (exit 1 for a bug, exit 0 for a correct policy) with a 95% Clopper–Pearson
interval.  A case whose check kind or target is not available (:func:`available`) is listed and
skipped.  ``python -m audit.benchmarks.policy_zoo --help``.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import inspect
import io
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from tqdm import tqdm

import audit.kinds as kinds
import audit.kinds.base as kinds_base
from audit import check, targets
from audit.reproduce.common import CellStore
from audit.results import SCHEMA_VERSION, package_versions, produced_by, produced_by_line
from audit.stats import clopper_pearson
from reference.files import atomic_write_text, prepare_output_dir, read_json, write_json
from reference.validation import check_int_at_least

__all__ = [
    "CASES",
    "ROOT",
    "ZooCase",
    "ZooRow",
    "available",
    "main",
    "run_zoo",
    "select_cases",
    "write_zoo",
]

ROOT = Path(__file__).resolve().parents[2]
"""The folder holding the ``examples`` package (passed to the check as ``--path``)."""

Expected = Literal["violation", "pass"]

LINEAR = ("--epsilon", "1", "--delta", "0.1")
MULTI_ARMED = ("--kind", "multi_armed", "--epsilon", "1", "--delta", "0")


@dataclass(frozen=True)
class ZooCase:
    """One policy of the zoo: ``privonline check TARGET *args`` should end in ``expected``.

    ``kind`` is the check's ``--kind`` (``linear`` when absent from ``args``); ``bug`` says what is
    wrong (``""``: a correct policy); ``note`` what else the check may honestly say."""

    name: str
    target: str
    args: tuple[str, ...]
    expected: Expected
    bug: str = ""
    note: str = ""

    @property
    def kind(self) -> str:
        """The ``--kind`` the case's check runs with."""
        args = list(self.args)
        return args[args.index("--kind") + 1] if "--kind" in args else "linear"


CASES: tuple[ZooCase, ...] = (
    # linear contextual (Shariff & Sheffet)
    ZooCase("good_policy", "examples.good_policy:policy", LINEAR, "pass"),
    ZooCase("buggy_policy", "examples.buggy_policy:policy", LINEAR, "violation",
            "privacy switch ignored: no noise"),
    ZooCase("laplace_tree", "examples.linear_zoo:laplace_tree",
            ("--epsilon", "1", "--delta", "0"), "violation",
            "Laplace tree ignores the Gram sensitivity (ε = 3 at d = 1, ≈ 4.65 at d = 2)",
            "a pure-ε linear claim has only the non-private reference: regret may fail (exit 3)"),
    ZooCase("non_symmetrised", "examples.linear_zoo:non_symmetrised",
            ("--epsilon", "1", "--delta", "0"), "violation",
            "Laplace noise matrix not symmetrised, averaged after (ε = 1.53 at d = 2, 1.68 at d = 3)",
            "what its actions show is below 1.5 times the claim (action_level.md)"),
    ZooCase("noise_reused", "examples.linear_zoo:noise_reused", LINEAR, "violation",
            "one noise matrix reused for every node (ε = ∞)"),
    ZooCase("delta_mismatch", "examples.linear_zoo:delta_mismatch", LINEAR, "violation",
            "tight σ at δ = 0.5, states 0.1 (ε ≈ 3.7 at δ = 0.1)"),
    ZooCase("non_private", "examples.linear_zoo:non_private", LINEAR, "violation",
            "no noise at all (ε = ∞)"),
    ZooCase("gaussian_tree", "examples.linear_zoo:gaussian_tree", LINEAR, "pass"),
    # multi-armed (Sajed & Sheffet)
    ZooCase("ucb1", "examples.multi_armed:UCB1", MULTI_ARMED, "violation",
            "non-private UCB1 (ε = ∞)"),
    ZooCase("dp_se", "examples.multi_armed:PrivateSuccessiveElimination", MULTI_ARMED, "pass", "",
            "its first 8130 actions are a fixed round robin: only its release (the epoch-1 noisy "
            "means, white box) can show anything"),
    ZooCase("dp_ucb", "examples.multi_armed_zoo:dp_ucb", (*MULTI_ARMED, "--reference", "dp_ucb"),
            "pass"),
    ZooCase("wrong_split_dp_ucb", "examples.multi_armed_zoo:wrong_split_dp_ucb", MULTI_ARMED,
            "violation", "ε per tree node, not ε/levels (ε ≈ levels)"),
    ZooCase("noise_reused_dp_ucb", "examples.multi_armed_zoo:noise_reused_dp_ucb", MULTI_ARMED,
            "violation", "one Laplace draw per arm reused for every node (ε = ∞)"),
    ZooCase("reused_rewards_dpse", "examples.multi_armed_zoo:reused_rewards_dpse", MULTI_ARMED,
            "violation", "DP-SE reuses rewards across epochs (ε × ended epochs)",
            "no epoch ends twice within the check's horizons: out of its reach"),
    # online learning (Agarwal & Singh): pure ε on loss sequences in the learner's loss set
    ZooCase("tree_ftrl_experts", "examples.online:TreeFTRLExperts",
            ("--kind", "online_full", "--epsilon", "1", "--delta", "0"), "pass"),
    ZooCase("radius_tree_ftrl", "examples.online:RadiusTreeFTRL",
            ("--kind", "online_full", "--epsilon", "1", "--delta", "0"), "violation",
            "tree noise for the radius ‖Y‖₁ of [−1, 1]^N, not its diameter (ε = 2)"),
    ZooCase("private_exp3", "examples.online:PrivateEXP3",
            ("--kind", "online_bandit", "--epsilon", "1", "--delta", "0"), "pass"),
    # the papers' reference algorithms themselves (privonline's reference code)
    ZooCase("ref_algorithm1", "examples.references:algorithm1", LINEAR, "pass"),
    ZooCase("ref_dp_se", "examples.references:dp_se", MULTI_ARMED, "pass"),
    ZooCase("ref_dp_ucb", "examples.references:dp_ucb", (*MULTI_ARMED, "--reference", "dp_ucb"),
            "pass"),
    ZooCase("ref_private_ftrl", "examples.references:private_ftrl",
            ("--kind", "online_full", "--epsilon", "1", "--delta", "0"), "pass"),
    ZooCase("ref_private_bandit", "examples.references:private_bandit",
            ("--kind", "online_bandit", "--epsilon", "1", "--delta", "0"), "pass"),
)  # fmt: skip
"""Every case, in report order."""


def available(case: ZooCase, paths: Sequence[str] = (str(ROOT),)) -> str | None:
    """Why ``case`` cannot run yet (its ``--kind`` unknown to the check, or its target missing),
    or ``None`` if it can."""
    if case.kind not in kinds.names():
        return f"the check has no --kind {case.kind} yet"
    try:
        targets.load_object(case.target, paths)
    except ValueError as err:
        return str(err)
    return None


def select_cases(
    names: Sequence[str] | None, paths: Sequence[str] = (str(ROOT),)
) -> tuple[list[ZooCase], list[tuple[ZooCase, str]]]:
    """The cases to run and the unavailable cases skipped, with the reason: by default every
    available case; ``names`` selects cases by name (an unknown or unavailable name is a
    ``ValueError``; nothing is then listed as skipped)."""
    known = {c.name: c for c in CASES}
    if names is None:
        status = [(c, available(c, paths)) for c in CASES]
        return [c for c, why in status if why is None], [(c, w) for c, w in status if w is not None]
    unknown = [n for n in names if n not in known]
    if unknown or not names:
        raise ValueError(f"cases must name cases of the zoo {sorted(known)}, got {list(names)}")
    chosen = [known[n] for n in dict.fromkeys(names)]
    for case in chosen:
        why = available(case, paths)
        if why is not None:
            raise ValueError(f"case {case.name!r} cannot run yet: {why}")
    return chosen, []


def _source_stamp(*modules: Any) -> str:
    """A digest of modules' source: cells computed by other code are refused, not mixed."""
    source = "".join(inspect.getsource(module) for module in modules)
    return hashlib.sha256(source.encode()).hexdigest()[:16]


def _run_one(case: ZooCase, seed: int, extra: Sequence[str], path: str) -> dict[str, Any]:
    """One ``privonline check`` of ``case`` at ``seed``: exit code and the report's numbers."""
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        argv = [case.target, *case.args, *extra, "--path", path, "--seed", str(seed),
                "--out", folder]  # fmt: skip
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = check.main(argv)
        report_path = Path(folder) / "check.json"
        report = read_json(report_path) if report_path.exists() else None
    privacy = None if report is None else report["privacy"]
    release = None if report is None else report.get("release")
    return {
        "exit_code": code,
        "verdict": "usage error" if report is None else report["verdict"],
        "privacy_verdict": None if report is None else report["privacy_verdict"],
        "utility_verdict": None if report is None else report["utility_verdict"],
        "epsilon_lower_bound": None if privacy is None else privacy["epsilon_lower_bound"],
        "detectable_epsilon": None if privacy is None else privacy["detectable_epsilon"],
        "p_value": None if privacy is None else privacy["p_value"],
        "actions_verdict": None if privacy is None else privacy["verdict"],
        "release_verdict": None if release is None else release["verdict"],
        "release_epsilon_lower_bound": None if release is None else release["epsilon_lower_bound"],
        "seconds": time.perf_counter() - t0,
    }


def _rate(hits: int, n: int) -> tuple[float, float, float]:
    """``hits / n`` and its two-sided 95% Clopper–Pearson interval."""
    low, high = clopper_pearson(hits, n, 0.025)
    return hits / n, low, high


def _number(value: Any) -> float | None:
    """A stored number (``"inf"`` strings included) as a float, ``None`` if absent."""
    return None if value is None else float(value)


@dataclass(frozen=True)
class ZooRow:
    """One case's outcomes over the seeds."""

    case: ZooCase
    runs: tuple[dict[str, Any], ...]

    @property
    def tally(self) -> dict[int, int]:
        """How many seeds ended in each exit code."""
        codes = [int(r["exit_code"]) for r in self.runs]
        return {code: codes.count(code) for code in sorted(set(codes))}

    @property
    def hits(self) -> int:
        """Seeds that ended as expected: exit 1 for a bug, exit 0 for a correct policy."""
        return self.tally.get(1 if self.case.expected == "violation" else 0, 0)

    @property
    def power(self) -> tuple[float, float, float]:
        """The fraction :attr:`hits` and its two-sided 95% Clopper–Pearson interval."""
        return _rate(self.hits, len(self.runs))

    @property
    def false_alarms(self) -> tuple[float, float, float] | None:
        """For a correct policy, the fraction of seeds ending in exit 1 with its interval."""
        if self.case.expected == "violation":
            return None
        return _rate(self.tally.get(1, 0), len(self.runs))

    def count(self, key: str, value: Any) -> int:
        """Seeds whose stored ``key`` equals ``value``."""
        return sum(1 for r in self.runs if r.get(key) == value)

    def median(self, key: str) -> float | None:
        """Median of a stored number over the seeds that have it."""
        values = [v for v in (_number(r[key]) for r in self.runs) if v is not None]
        return statistics.median(values) if values else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready row."""
        power, low, high = self.power
        return {
            "case": self.case.name,
            "target": self.case.target,
            "args": list(self.case.args),
            "kind": self.case.kind,
            "bug": self.case.bug,
            "note": self.case.note,
            "expected": self.case.expected,
            "exit_codes": {str(k): v for k, v in self.tally.items()},
            "power": power,
            "power_ci95": [low, high],
            "false_alarms": None if self.false_alarms is None else list(self.false_alarms),
            "median_epsilon_lower_bound": self.median("epsilon_lower_bound"),
            "median_detectable_epsilon": self.median("detectable_epsilon"),
            "actions_violations": self.count("actions_verdict", "VIOLATION"),
            "release_violations": self.count("release_verdict", "VIOLATION"),
            "median_release_epsilon_lower_bound": self.median("release_epsilon_lower_bound"),
            "mean_seconds": statistics.fmean(float(r["seconds"]) for r in self.runs),
            "runs": list(self.runs),
        }


def run_zoo(
    cases: Sequence[ZooCase],
    seeds: int,
    *,
    extra: Sequence[str] = (),
    path: str = str(ROOT),
    store: Path | None = None,
    progress: bool = False,
    shard: tuple[int, int] = (0, 1),
) -> list[ZooRow]:
    """:func:`audit.check.main` on every case for seeds ``0 .. seeds − 1`` (``extra`` appended to
    every check's arguments).  ``store``: a folder keeping each finished (case, seed) atomically,
    reused by a rerun with the same arguments, check and target source (a cell stored under others
    is refused).  ``shard = (k, m)`` computes only the cells whose position (cases in order, seeds
    within) is ``k`` modulo ``m`` and returns no rows: ``m`` processes on one store share the
    work, and a last run without a shard reads every cell back."""
    seeds = check_int_at_least("seeds", seeds, 1)
    part, parts = shard
    if not (isinstance(parts, int) and isinstance(part, int) and parts >= 1 and 0 <= part < parts):
        raise ValueError(f"shard must be (k, m) with 0 <= k < m, got {shard!r}")
    if parts > 1 and store is None:
        raise ValueError("shard needs store: the shards' cells meet there")
    bar = tqdm(total=len(cases) * seeds, desc="policy zoo checks", unit="check",
               disable=not progress)  # fmt: skip
    cells = None if store is None else CellStore(store, bar)
    rows = []
    # the check, and every kind's audit it dispatches to
    audits = ("audit.methods.designs", "audit.methods.staged", "audit.methods.black_box")
    check_stamp = _source_stamp(
        check, kinds_base, *map(importlib.import_module, (*kinds.KINDS, *audits))
    )
    position = -1
    for case in cases:
        targets.load_object(case.target, [path])  # imports the target's module
        target_stamp = _source_stamp(sys.modules[case.target.split(":")[0]])
        runs = []
        for seed in range(seeds):
            position += 1
            if parts > 1 and position % parts != part:
                continue
            config = {"case": case.name, "target": case.target, "args": list(case.args),
                      "extra": list(extra), "seed": seed, "check": check_stamp,
                      "target_source": target_stamp}  # fmt: skip
            if cells is None:
                found = _run_one(case, seed, extra, path)
                bar.update(1)
            else:
                found = cells.json(
                    f"{case.name}__seed{seed}",
                    config,
                    lambda case=case, seed=seed: _run_one(case, seed, extra, path),  # type: ignore[misc]
                )
            runs.append({"seed": seed, **found})
        if parts == 1:
            rows.append(ZooRow(case, tuple(runs)))
    bar.close()
    return rows


def _interval(rate: tuple[float, float, float]) -> str:
    return f"{rate[0]:.2f} [{rate[1]:.2f}, {rate[2]:.2f}]"


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def markdown(rows: Sequence[ZooRow], seeds: int, command: str, skipped: Sequence[Any]) -> str:
    """The power table."""
    lines = [
        "# privonline check on the policy zoo",
        "",
        produced_by_line(),
        "",
        f"`{command}`: {seeds} seeds (0 .. {seeds - 1}) per case.  Power: the fraction of seeds "
        "ending in exit 1 (privacy violation) for a bug, exit 0 (pass) for a correct policy, with "
        "a 95% Clopper–Pearson interval; false alarms: exit 1 for a correct policy.  Exit codes: 0 pass, 1 privacy violation, 2 usage "
        "error, 3 utility failure only, 4 crashed, 5 inconclusive.",
        "",
        "| case | kind | bug | expected | exit codes | power [95% CI] | false alarms [95% CI] | "
        "actions: violations; median ε_LB, detectable ε | releases: violations; median ε_LB | "
        "mean s |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        tally = ", ".join(f"{code}: {count}" for code, count in row.tally.items())
        alarms = "–" if row.false_alarms is None else _interval(row.false_alarms)
        lines.append(
            f"| {row.case.name} | {row.case.kind} | {row.case.bug or 'correct'} | "
            f"{row.case.expected} | {tally} | {_interval(row.power)} | {alarms} | "
            f"{row.count('actions_verdict', 'VIOLATION')}; "
            f"{_fmt(row.median('epsilon_lower_bound'))}, "
            f"{_fmt(row.median('detectable_epsilon'))} | "
            + (
                f"{row.count('release_verdict', 'VIOLATION')}; "
                f"{_fmt(row.median('release_epsilon_lower_bound'))} | "
                if any(r.get("release_verdict") is not None for r in row.runs)
                else "– | "
            )
            + f"{statistics.fmean(float(r['seconds']) for r in row.runs):.1f} |"
        )
    notes = [f"* {row.case.name}: {row.case.note}." for row in rows if row.case.note]
    if notes:
        lines += ["", "Notes:", "", *notes]
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"{c.name} ({why})" for c, why in skipped) + "."]
    return "\n".join(lines) + "\n"


def write_zoo(
    rows: Sequence[ZooRow], seeds: int, command: str, skipped: Sequence[Any], out: Path
) -> None:
    """``out/policy_zoo.json`` (``schema_version``, ``command``, ``versions``) and
    ``out/policy_zoo.md``, each written atomically."""
    write_json(
        out / "policy_zoo.json",
        {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "kind": "policy_zoo",
            "command": command,
            "versions": package_versions(),
            "seeds": seeds,
            "cases": [row.to_dict() for row in rows],
            "skipped": [{"case": c.name, "reason": why} for c, why in skipped],
        },
    )
    atomic_write_text(out / "policy_zoo.md", markdown(rows, seeds, command, skipped))


def _shard(text: str) -> tuple[int, int]:
    """``"K/M"`` as ``(K, M)`` with ``0 <= K < M``."""
    try:
        part, parts = (int(x) for x in text.split("/"))
    except ValueError as err:
        raise ValueError(f"--shard must be K/M (two integers), got {text!r}") from err
    if not (parts >= 1 and 0 <= part < parts):
        raise ValueError(f"--shard must be K/M with 0 <= K < M, got {text!r}")
    return part, parts


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Command line: ``python -m audit.benchmarks.policy_zoo --help``."""
    prog = prog or "python -m audit.benchmarks.policy_zoo"
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run `privonline check` on every case of the policy zoo (third-party "
        "policies with planted bugs, and correct ones) for seeds 0..S-1 and write "
        "policy_zoo.json and policy_zoo.md (exit-code tally and power per case). Each finished "
        "(case, seed) is kept in OUT/cells, so a rerun resumes. Cases whose check kind or target "
        "does not exist yet are skipped.",
    )
    parser.add_argument("--seeds", type=int, default=50, help="seeds 0..S-1 (default 50)")
    parser.add_argument(
        "--cases", default=None, help="comma-separated case names (default: every available case)"
    )
    parser.add_argument(
        "--check-args",
        default="",
        metavar="ARGS",
        help="extra arguments for every check, e.g. '--stream-runs 200 --runs 10'",
    )
    parser.add_argument("--path", default=str(ROOT), help="folder holding the examples package")
    parser.add_argument(
        "--out", type=Path, default=Path("results/benchmarks/policy_zoo"), help="output folder"
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument(
        "--shard",
        default="0/1",
        metavar="K/M",
        help="compute only every M-th cell from the K-th (0-based) into OUT/cells, and write no "
        "report: run M shards side by side, then once without --shard to write the report from "
        "the cells (default 0/1: everything)",
    )
    args = parser.parse_args(argv)
    if args.list:
        for case in CASES:
            why = available(case, (args.path,))
            print(f"{case.name}\t{case.target}\t{case.expected}\t{why or 'available'}")
        return 0
    names = None if args.cases is None else [c.strip() for c in args.cases.split(",") if c.strip()]
    try:
        check_int_at_least("--seeds", args.seeds, 1)
        cases, skipped = select_cases(names, (args.path,))
        extra = shlex.split(args.check_args)
        out = prepare_output_dir(args.out)
        shard = _shard(args.shard)
    except ValueError as err:
        parser.error(str(err))
    command = f"{prog} {shlex.join(sys.argv[1:] if argv is None else argv)}".strip()
    try:
        rows = run_zoo(cases, args.seeds, extra=extra, path=args.path, store=out / "cells",
                       shard=shard,
                       progress=sys.stderr.isatty())  # fmt: skip
    except ValueError as err:  # a cell stored under other arguments
        parser.error(str(err))
    if shard[1] > 1:
        print(f"shard {shard[0]}/{shard[1]} done: its cells are in {out / 'cells'}")
        return 0
    write_zoo(rows, args.seeds, command, skipped, out)
    print(markdown(rows, args.seeds, command, skipped))
    print(f"report: {out / 'policy_zoo.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
