"""Run today's black-box event audit on every classic benchmark case and write the table.

``python -m audit.benchmarks.run --n 100000 --seed 2026 --out results/benchmarks/classic`` writes
``report.json`` (``schema_version``) and ``report.md`` atomically. Each case draws from its own
seed, ``seed_for(seed, case name)``, so adding or removing cases leaves the others unchanged.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import math
import platform
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.benchmarks.classic import CASES, MECHANISMS, BenchmarkCase, exact_epsilon
from audit.methods.black_box import event_audit
from audit.results import SCHEMA_VERSION
from reference.files import atomic_write_text, prepare_output_dir, write_json
from reference.rng import check_seed, seed_for
from reference.validation import check_in_range, check_int_at_least

__all__ = ["BenchmarkRow", "BenchmarkTable", "main", "run_benchmark", "select_cases"]


@dataclass(frozen=True)
class BenchmarkRow:
    """One audited case.

    ``pair_violates`` is ``exact ε > claimed ε`` (``None`` when the exact ε is unknown);
    ``outcome`` is ``caught`` / ``missed`` (the pair violates the claim), ``false alarm`` /
    ``pass`` (it does not), or ``violation`` / ``no violation`` when the exact ε is unknown.
    """

    name: str
    mechanism: str
    pattern: str
    correct: bool
    claimed_epsilon: float
    exact_epsilon: float | None
    published_dp_sniper: float | None
    published_statdp: float | None
    epsilon_lower_bound: float
    violation: bool
    p_value: float
    pair_violates: bool | None
    outcome: str
    seed: int
    seconds: float


@dataclass(frozen=True)
class BenchmarkTable:
    """The benchmark run: settings, versions and one row per case."""

    n: int
    seed: int
    confidence: float
    versions: dict[str, str]
    rows: tuple[BenchmarkRow, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report (``schema_version``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "benchmark": "classic",
            "n_per_side": self.n,
            "seed": self.seed,
            "confidence": self.confidence,
            "versions": self.versions,
            "rows": list(self.rows),
        }

    def markdown(self) -> str:
        """The table (one row per case) and a per-mechanism summary, as Markdown."""
        out = [
            f"# Classic benchmark: black-box event audit, n = {self.n} per side, "
            f"seed {self.seed}, confidence {self.confidence}",
            "",
            "| case | correct | claimed ε | exact ε | DP-Sniper | StatDP | our ε_LB | verdict | outcome | s |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in self.rows:
            out.append(
                f"| {r.name} | {'yes' if r.correct else 'no'} | {r.claimed_epsilon:g} | "
                f"{_fmt(r.exact_epsilon)} | {_fmt(r.published_dp_sniper)} | "
                f"{_fmt(r.published_statdp)} | {_fmt(r.epsilon_lower_bound)} | "
                f"{'violation' if r.violation else 'pass'} | {r.outcome} | {r.seconds:.1f} |"
            )
        out += [
            "",
            "Per mechanism (maximum over its pairs; the published bounds are each tool's maximum "
            "over the pairs it searched):",
            "",
            "| mechanism | correct | max exact ε | DP-Sniper | StatDP | our max ε_LB | caught |",
            "|---|---|---|---|---|---|---|",
        ]
        for name in dict.fromkeys(r.mechanism for r in self.rows):
            rows = [r for r in self.rows if r.mechanism == name]
            exact = [r.exact_epsilon for r in rows if r.exact_epsilon is not None]
            first = rows[0]
            out.append(
                f"| {name} | {'yes' if first.correct else 'no'} | "
                f"{_fmt(max(exact)) if len(exact) == len(rows) else '—'} | "
                f"{_fmt(first.published_dp_sniper)} | {_fmt(first.published_statdp)} | "
                f"{_fmt(max(r.epsilon_lower_bound for r in rows))} | "
                f"{sum(r.violation for r in rows)}/{len(rows)} |"
            )
        return "\n".join(out) + "\n"


def _fmt(value: float | None) -> str:
    if value is None:
        return "—"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.4f}"


def _outcome(violation: bool, pair_violates: bool | None) -> str:
    if pair_violates is None:
        return "violation" if violation else "no violation"
    if pair_violates:
        return "caught" if violation else "missed"
    return "false alarm" if violation else "pass"


def select_cases(names: Sequence[str] | None) -> list[BenchmarkCase]:
    """The cases named (a case ``"<mechanism>/<pattern>"`` or a whole mechanism), in registry
    order; all of them for ``None``. An unknown name is a ``ValueError`` listing the choices."""
    if names is None:
        return list(CASES.values())
    unknown = [n for n in names if n not in CASES and n not in MECHANISMS]
    if unknown:
        raise ValueError(
            f"cases must name benchmark cases or mechanisms, got unknown {unknown}; "
            f"mechanisms: {sorted(MECHANISMS)}"
        )
    wanted = set(names)
    return [c for c in CASES.values() if c.name in wanted or c.bench.name in wanted]


def _versions() -> dict[str, str]:
    versions = {"python": platform.python_version()}
    for package in ("numpy", "scipy"):
        versions[package] = importlib.metadata.version(package)
    return versions


def run_benchmark(
    n: int,
    seed: int,
    cases: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
) -> BenchmarkTable:
    """Run :func:`audit.methods.black_box.event_audit` with ``n`` samples per side on every
    selected case against its mechanism's claim; each case's seed is ``seed_for(seed, name)``."""
    n = check_int_at_least("n", n, 4)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    rows = []
    for case in select_cases(cases):
        case_seed = seed_for(seed, case.name)
        t0 = time.perf_counter()
        result = event_audit(
            case.bench.mechanism,
            case.pair,
            case.claim,
            samples=n,
            seed=case_seed,
            name=case.name,
            features=case.bench.features,
            confidence=confidence,
        )
        seconds = time.perf_counter() - t0
        exact = exact_epsilon(case.name)
        pair_violates = None if exact is None else exact > case.claim.epsilon
        rows.append(
            BenchmarkRow(
                name=case.name,
                mechanism=case.bench.name,
                pattern=case.pattern,
                correct=case.correct,
                claimed_epsilon=case.claim.epsilon,
                exact_epsilon=exact,
                published_dp_sniper=case.bench.published.dp_sniper,
                published_statdp=case.bench.published.statdp,
                epsilon_lower_bound=result.epsilon_lower_bound,
                violation=result.violation,
                p_value=result.p_value,
                pair_violates=pair_violates,
                outcome=_outcome(result.violation, pair_violates),
                seed=case_seed,
                seconds=seconds,
            )
        )
    return BenchmarkTable(n, seed, confidence, _versions(), tuple(rows))


def write_table(table: BenchmarkTable, out: Path) -> None:
    """``out/report.json`` and ``out/report.md``, each written atomically."""
    write_json(out / "report.json", table.to_dict())
    atomic_write_text(out / "report.md", table.markdown())


def main(argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Command line: ``python -m audit.benchmarks.run --help``."""
    parser = argparse.ArgumentParser(
        prog=prog or "python -m audit.benchmarks.run",
        description="Run today's black-box event audit on the classic DP-auditing benchmark "
        "(StatDP / DP-Sniper mechanisms on StatDP's input patterns) and write report.json and "
        "report.md.",
    )
    parser.add_argument("--n", type=int, default=100_000, help="samples per side (default 10^5)")
    parser.add_argument("--seed", type=int, default=2026, help="root seed (default 2026)")
    parser.add_argument(
        "--out", type=Path, default=Path("results/benchmarks/classic"), help="output folder"
    )
    parser.add_argument(
        "--cases",
        default=None,
        help="comma-separated cases (<mechanism>/<pattern>) or mechanisms; default all",
    )
    parser.add_argument("--confidence", type=float, default=0.95, help="default 0.95")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    args = parser.parse_args(argv)
    if args.list:
        for case in CASES.values():
            print(case.name)
        return 0
    names = None if args.cases is None else [c.strip() for c in args.cases.split(",") if c.strip()]
    try:
        select_cases(names)
        check_int_at_least("--n", args.n, 4)
        check_seed(args.seed, "--seed")
        out = prepare_output_dir(args.out)
    except ValueError as err:
        parser.error(str(err))
    table = run_benchmark(args.n, args.seed, names, confidence=args.confidence)
    write_table(table, out)
    print(table.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
