"""Run today's black-box event audit on every classic benchmark case and write the table.

``python -m audit.benchmarks.run --n 100000 --seed 2026 --out results/benchmarks/classic`` writes
``report.json`` (``schema_version``) and ``report.md`` atomically; each finished case is kept in
``<out>/cases/`` so an interrupted run resumes.  Each case draws from its own seed,
``seed_for(seed, case name)``, so adding or removing cases leaves the others unchanged.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import inspect
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

import audit.methods.black_box as black_box
from audit.benchmarks.classic import (
    CASES,
    MECHANISMS,
    BenchmarkCase,
    BenchmarkMechanism,
    exact_epsilon,
    oracle_epsilon,
)
from audit.familywise import Holm
from audit.methods.pairs import search_pairs
from audit.protocols import NeighbouringPair
from audit.reproduce.common import CellStore
from audit.results import (
    SCHEMA_VERSION,
    PrivacyAuditResult,
    package_versions,
    produced_by,
    produced_by_line,
)
from reference.files import atomic_write_text, prepare_output_dir, write_json
from reference.rng import check_seed, seed_for
from reference.validation import (
    check_in_range,
    check_int_at_least,
    float_in,
    size_at_least,
)

__all__ = [
    "SCREEN_CONFIDENCE",
    "SCREEN_FRACTION",
    "SEARCH_TOP",
    "TARGET_FRACTION",
    "BenchmarkRow",
    "BenchmarkTable",
    "SearchRow",
    "main",
    "run_benchmark",
    "run_search",
    "select_cases",
]

TARGET_FRACTION = 0.9
"""An incorrect mechanism's bound should reach this fraction of DP-Sniper's published one."""

SEARCH_TOP = 2
"""How many screened patterns per mechanism the pair search audits afresh and judges."""

SCREEN_FRACTION = 0.25
"""The screening budget of the pair search per pattern, as a fraction of ``n``."""

SCREEN_CONFIDENCE = 0.5
"""The screening audits' confidence: a bound near the estimate ranks small effects by size."""


@dataclass(frozen=True)
class BenchmarkRow:
    """One audited case.

    ``pair_violates`` is ``exact ε > claimed ε`` (``None`` when the exact ε is unknown);
    ``outcome`` is ``caught`` / ``missed`` (the pair violates the claim), ``false alarm`` /
    ``pass`` (it does not), or ``violation`` / ``no violation`` when the exact ε is unknown.
    ``oracle`` is the ``ε_LB`` of the best event for this pair at its expected counts, at this
    sample size and confidence (:func:`audit.benchmarks.classic.oracle_epsilon`; ``None`` without
    a law): what an audit that knew the law would typically report; any audit's bound exceeds it
    only by chance;
    ``verdict`` is the audit's three-way verdict (``VIOLATION``, ``pass``, ``inconclusive``).
    """

    name: str
    mechanism: str
    pattern: str
    correct: bool
    claimed_epsilon: float
    exact_epsilon: float | None
    published_dp_sniper: float | None
    published_statdp: float | None
    oracle: float | None
    epsilon_lower_bound: float
    violation: bool
    verdict: str
    detectable_epsilon: float
    p_value: float
    pair_violates: bool | None
    outcome: str
    seed: int
    seconds: float


@dataclass(frozen=True)
class SearchRow:
    """One mechanism audited through the pair search (:func:`audit.methods.pairs.search_pairs`):
    every selected pattern screened on ``SCREEN_FRACTION · n`` draws at ``SCREEN_CONFIDENCE``, the
    ``SEARCH_TOP`` best audited afresh on ``n`` and judged together by Holm at
    ``1 − confidence``.  ``outcome`` is ``caught`` / ``missed``
    for an incorrect mechanism, ``false alarm`` / ``pass`` for a correct one."""

    mechanism: str
    correct: bool
    candidates: int
    chosen: tuple[str, ...]
    epsilon_lower_bounds: tuple[float, ...]
    p_values: tuple[float, ...]
    rejected: tuple[bool, ...]
    violation: bool
    outcome: str
    seconds: float


@dataclass(frozen=True)
class BenchmarkTable:
    """The benchmark run: settings, versions, one row per case and one search row per mechanism."""

    n: int
    seed: int
    confidence: float
    versions: dict[str, str]
    rows: tuple[BenchmarkRow, ...]
    search: tuple[SearchRow, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready report (``schema_version``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "benchmark": "classic",
            "n_per_side": self.n,
            "seed": self.seed,
            "confidence": self.confidence,
            "versions": self.versions,
            "rows": list(self.rows),
            "mechanisms": self.summaries(),
            "search": list(self.search),
        }

    def markdown(self) -> str:
        """The table (one row per case) and a per-mechanism summary, as Markdown."""
        out = [
            f"# Classic benchmark: black-box event audit, n = {self.n} per side, "
            f"seed {self.seed}, confidence {self.confidence}",
            "",
            produced_by_line(),
            "",
            "| case | correct | exact ε | oracle | DP-Sniper | our ε_LB | detectable ε | verdict "
            "| outcome | s |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in self.rows:
            out.append(
                f"| {r.name} | {'yes' if r.correct else 'no'} | {_fmt(r.exact_epsilon)} | "
                f"{_fmt(r.oracle)} | {_fmt(r.published_dp_sniper)} | "
                f"{_fmt(r.epsilon_lower_bound)} | {_fmt(r.detectable_epsilon)} | {r.verdict} | "
                f"{r.outcome} | {r.seconds:.1f} |"
            )
        out += [
            "",
            "Per mechanism (maximum over its pairs; the published bounds are each tool's maximum "
            'over the pairs it searched, at confidence 0.9 with 2·10⁸ samples). "target" is '
            '0.9 × DP-Sniper\'s bound for an incorrect mechanism; "oracle" is the bound of the best '
            "event at its expected counts, at this n and confidence (what an audit that knew the "
            "law would typically report).",
            "",
            "| mechanism | correct | max exact ε | max oracle | DP-Sniper | target | our max ε_LB "
            "| met | caught |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for summary in self.summaries():
            out.append(
                f"| {summary['mechanism']} | {'yes' if summary['correct'] else 'no'} | "
                f"{_fmt(summary['max_exact'])} | {_fmt(summary['max_oracle'])} | "
                f"{_fmt(summary['dp_sniper'])} | {_fmt(summary['target'])} | "
                f"{_fmt(summary['max_lower_bound'])} | {summary['met']} | "
                f"{summary['caught']}/{summary['cases']} |"
            )
        if self.search:
            out += [
                "",
                "Pair search per mechanism: every pattern screened on "
                f"{int(self.n * SCREEN_FRACTION)} draws (confidence {SCREEN_CONFIDENCE:g}), the "
                f"best {SEARCH_TOP} audited afresh on {self.n} and judged together (Holm at "
                f"{1.0 - self.confidence:g}): a verdict per mechanism with the family-wise error "
                "controlled over every pattern tried.",
                "",
                "| mechanism | correct | patterns | audited | ε_LB | Holm verdict | outcome | s |",
                "|---|---|---|---|---|---|---|---|",
            ]
            for row in self.search:
                bounds = ", ".join(_fmt(b) for b in row.epsilon_lower_bounds)
                out.append(
                    f"| {row.mechanism} | {'yes' if row.correct else 'no'} | {row.candidates} | "
                    f"{', '.join(row.chosen)} | {bounds} | "
                    f"{'VIOLATION' if row.violation else 'not rejected'} | {row.outcome} | "
                    f"{row.seconds:.1f} |"
                )
        return "\n".join(out) + "\n"

    def summaries(self) -> list[dict[str, Any]]:
        """One summary per mechanism: the maxima over its pairs, DP-Sniper's bound, the target
        ``0.9 ×`` that bound (incorrect mechanisms only) and whether it is ``met`` (``"yes"``,
        ``"no"``, or ``"no (oracle below target)"`` when even the oracle event would fall short)."""
        found = []
        for name in dict.fromkeys(r.mechanism for r in self.rows):
            rows = [r for r in self.rows if r.mechanism == name]
            exact = [r.exact_epsilon for r in rows if r.exact_epsilon is not None]
            oracles = [r.oracle for r in rows if r.oracle is not None]
            best = max(r.epsilon_lower_bound for r in rows)
            first = rows[0]
            target = (
                None
                if first.correct or first.published_dp_sniper is None
                else TARGET_FRACTION * first.published_dp_sniper
            )
            max_oracle = max(oracles) if len(oracles) == len(rows) else None
            met = (
                "—"
                if target is None
                else "yes"
                if best >= target
                else "no (oracle below target)"
                if max_oracle is not None and max_oracle < target
                else "no"
            )
            found.append(
                {
                    "mechanism": name,
                    "correct": first.correct,
                    "cases": len(rows),
                    "caught": sum(r.violation for r in rows),
                    "max_exact": max(exact) if len(exact) == len(rows) else None,
                    "max_oracle": max_oracle,
                    "dp_sniper": first.published_dp_sniper,
                    "target": target,
                    "max_lower_bound": best,
                    "met": met,
                }
            )
        return found


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


def _black_box_stamp() -> str:
    """A digest of the black box's source: cells audited by other code are refused, not mixed."""
    return hashlib.sha256(inspect.getsource(black_box).encode()).hexdigest()[:16]


def _audit(
    bench: BenchmarkMechanism,
    pair: NeighbouringPair[Any],
    samples: int,
    seed: int,
    confidence: float,
    name: str,
) -> PrivacyAuditResult:
    """The black box on one pair of ``bench`` against its claim (every audit of the benchmark)."""
    return black_box.event_audit(
        bench.mechanism,
        pair,
        bench.claim,
        samples=samples,
        seed=seed,
        name=name,
        features=bench.features,
        confidence=confidence,
    )


def _stored_or_computed(
    cells: CellStore | None,
    bar: Any,
    key: str,
    config: dict[str, Any],
    compute: Callable[[], dict[str, Any]],
) -> dict[str, Any]:
    """``compute()``, or its stored cell when ``cells`` keeps one under ``config``."""
    if cells is None:
        found = compute()
        bar.update(1)
        return found
    return cells.json(key, config, compute)


def _audit_case(case: BenchmarkCase, n: int, seed: int, confidence: float) -> dict[str, Any]:
    t0 = time.perf_counter()
    result = _audit(case.bench, case.pair, n, seed, confidence, case.name)
    return {
        "epsilon_lower_bound": result.epsilon_lower_bound,
        "violation": result.violation,
        "verdict": result.verdict,
        "detectable_epsilon": result.detectable_epsilon,
        "p_value": result.p_value,
        "event": result.details["event"],
        "seconds": time.perf_counter() - t0,
    }


def run_benchmark(
    n: int,
    seed: int,
    cases: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
    store: Path | None = None,
    progress: bool = False,
) -> BenchmarkTable:
    """Run :func:`audit.methods.black_box.event_audit` with ``n`` samples per side on every
    selected case against its mechanism's claim; each case's seed is ``seed_for(seed, name)``.

    ``store``: a folder keeping each finished case (atomically), reused by a rerun with the same
    settings and black box, so an interrupted run resumes; a case stored under other settings is
    refused (``ValueError``).  ``progress`` shows a bar with a time estimate."""
    n = check_int_at_least("n", n, 4)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    selected = select_cases(cases)
    bar = tqdm(selected, desc="benchmark cases", unit="case", disable=not progress)
    cells = None if store is None else CellStore(store, bar)
    stamp = _black_box_stamp()
    rows = []
    for case in selected:
        case_seed = seed_for(seed, case.name)
        config = {"case": case.name, "n": n, "seed": case_seed, "confidence": confidence,
                  "black_box": stamp}  # fmt: skip
        found = _stored_or_computed(
            cells,
            bar,
            case.name.replace("/", "__"),
            config,
            lambda case=case, s=case_seed: _audit_case(case, n, s, confidence),  # type: ignore[misc]
        )
        exact = exact_epsilon(case.name)
        pair_violates = None if exact is None else exact > case.claim.epsilon
        violation = bool(found["violation"])
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
                oracle=oracle_epsilon(case.name, n, confidence),
                epsilon_lower_bound=float(found["epsilon_lower_bound"]),
                violation=violation,
                verdict=str(found["verdict"]),
                detectable_epsilon=float(found["detectable_epsilon"]),
                p_value=float(found["p_value"]),
                pair_violates=pair_violates,
                outcome=_outcome(violation, pair_violates),
                seed=case_seed,
                seconds=float(found["seconds"]),
            )
        )
    bar.close()
    return BenchmarkTable(n, seed, confidence, package_versions(), tuple(rows))


def _search_mechanism(
    cases: Sequence[BenchmarkCase], n: int, seed: int, confidence: float
) -> dict[str, Any]:
    t0 = time.perf_counter()
    bench = cases[0].bench

    def tester_at(level: float) -> Any:
        return lambda pair, samples, s: _audit(bench, pair, samples, s, level, bench.name)

    found = search_pairs(
        [c.pair for c in cases],
        tester_at(confidence),
        screen_samples=max(4, int(n * SCREEN_FRACTION)),
        samples=n,
        seed=seed,
        top=min(SEARCH_TOP, len(cases)),
        strategy=Holm(1.0 - confidence),
        screen_tester=tester_at(SCREEN_CONFIDENCE),
    )
    return {
        "chosen": [cases[i].pattern for i in found.chosen],
        "epsilon_lower_bounds": [r.epsilon_lower_bound for r in found.audits],
        "p_values": [r.p_value for r in found.audits],
        "rejected": list(found.rejected),
        "seconds": time.perf_counter() - t0,
    }


def run_search(
    n: int,
    seed: int,
    cases: Sequence[str] | None = None,
    *,
    confidence: float = 0.95,
    store: Path | None = None,
    progress: bool = False,
) -> tuple[SearchRow, ...]:
    """The pair search on every mechanism with a selected case (over its selected patterns);
    each mechanism's seed is ``seed_for(seed, "search/<mechanism>")``; ``store`` and
    ``progress`` as in :func:`run_benchmark`."""
    n = check_int_at_least("n", n, 40)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    groups: dict[str, list[BenchmarkCase]] = {}
    for case in select_cases(cases):
        groups.setdefault(case.bench.name, []).append(case)
    bar = tqdm(groups, desc="pair search", unit="mechanism", disable=not progress)
    cells = None if store is None else CellStore(store, bar)
    stamp = _black_box_stamp()
    rows = []
    for name, members in groups.items():
        mech_seed = seed_for(seed, f"search/{name}")
        config = {"search": name, "patterns": [c.pattern for c in members], "n": n,
                  "seed": mech_seed, "confidence": confidence, "black_box": stamp,
                  "screen": [SCREEN_FRACTION, SCREEN_CONFIDENCE, SEARCH_TOP]}  # fmt: skip
        found = _stored_or_computed(
            cells,
            bar,
            f"search__{name}",
            config,
            lambda m=members, s=mech_seed: _search_mechanism(m, n, s, confidence),  # type: ignore[misc]
        )
        violation = any(bool(r) for r in found["rejected"])
        correct = members[0].correct
        rows.append(
            SearchRow(
                mechanism=name,
                correct=correct,
                candidates=len(members),
                chosen=tuple(str(c) for c in found["chosen"]),
                epsilon_lower_bounds=tuple(float(v) for v in found["epsilon_lower_bounds"]),
                p_values=tuple(float(v) for v in found["p_values"]),
                rejected=tuple(bool(r) for r in found["rejected"]),
                violation=violation,
                outcome=_outcome(violation, not correct),
                seconds=float(found["seconds"]),
            )
        )
    bar.close()
    return tuple(rows)


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
        "report.md; finished cases are kept in OUT/cases, so a rerun resumes. Exit code 1 if a "
        "pair that keeps its claim is rejected (a false alarm).",
    )
    parser.add_argument(
        "--n", type=size_at_least(40), default=100_000, help="samples per side (default 10^5)"
    )
    parser.add_argument("--seed", type=int, default=2026, help="root seed (default 2026)")
    parser.add_argument(
        "--out", type=Path, default=Path("results/benchmarks/classic"), help="output folder"
    )
    parser.add_argument(
        "--cases",
        default=None,
        help="comma-separated cases (<mechanism>/<pattern>) or mechanisms; default all",
    )
    parser.add_argument(
        "--confidence", type=float_in(0.0, 1.0), default=0.95, help="in (0, 1) (default 0.95)"
    )
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument(
        "--no-search",
        action="store_true",
        help="skip the per-mechanism pair search (Holm over the best screened patterns)",
    )
    args = parser.parse_args(argv)
    if args.list:
        for case in CASES.values():
            print(case.name)
        return 0
    names = None if args.cases is None else [c.strip() for c in args.cases.split(",") if c.strip()]
    try:
        select_cases(names)
        check_seed(args.seed, "--seed")
        out = prepare_output_dir(args.out)
    except ValueError as err:
        parser.error(str(err))
    table = run_benchmark(
        args.n,
        args.seed,
        names,
        confidence=args.confidence,
        store=out / "cases",
        progress=sys.stderr.isatty(),
    )
    if not args.no_search:
        search = run_search(
            args.n,
            args.seed,
            names,
            confidence=args.confidence,
            store=out / "cases",
            progress=sys.stderr.isatty(),
        )
        table = dataclasses.replace(table, search=search)
    write_table(table, out)
    print(table.markdown())
    alarms = [r.name for r in table.rows if r.outcome == "false alarm"]
    alarms += [f"{r.mechanism} (pair search)" for r in table.search if r.outcome == "false alarm"]
    for name in alarms:
        print(f"FALSE ALARM: {name}")
    print(f"report: {out / 'report.md'}")
    return 1 if alarms else 0


if __name__ == "__main__":
    sys.exit(main())
