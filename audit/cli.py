"""The ``privonline`` command line.

* ``privonline audit privacy|papers|zoo|benchmark`` -- the batteries (exit code 1 on a
  violation), the bug zoo, the classic DP-auditing benchmark (:mod:`audit.benchmarks.run`).
* ``privonline experiment`` -- the experiment runner of :mod:`reference.experiments`;
  ``privonline bench`` -- engine vs reference benchmarks (:mod:`audit.tools.bench`).
* ``privonline reproduce [PAPER|all]`` -- a paper's reproductions (the ``EXPERIMENTS`` of
  ``audit.papers.<paper>.reproduce``, run by :func:`audit.reproduce.command.main`).
* ``privonline check`` -- audit a third-party policy (:mod:`audit.check`); ``privonline golden
  [compare]`` -- check or ``--rebuild`` the golden vectors, or compare a function with them.

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import audit.papers as registry
from audit.reproduce.command import main as reproduce
from reference import experiments
from reference.files import dumps_json, prepare_output_dir, write_json
from reference.validation import float_in, int_at_least, size_at_least

__all__ = ["main"]


def _run_reproduce(argv: Sequence[str]) -> int:
    """``privonline reproduce [PAPER] ...``: the paper's experiments (Shariff & Sheffet's when
    ``PAPER`` is left out), each paper into ``<out>/<paper id>/``; ``all`` runs every paper's with
    the same options."""
    names = {name: p for p in registry.PAPERS for name in (p.cli_name, p.id)}
    if argv and argv[0] == "all":
        options = list(argv[1:])
        codes = [
            reproduce(p, options, f"privonline reproduce {p.cli_name}") for p in registry.PAPERS
        ]
        return max(codes, default=0)
    if argv and argv[0] in names:
        paper = names[argv[0]]
        return reproduce(paper, list(argv[1:]), f"privonline reproduce {paper.cli_name}")
    return reproduce(registry.by_name("shariff_sheffet"), list(argv), "privonline reproduce")


def _audit_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="privonline audit",
        description="Empirical privacy audits of the reference mechanisms.",
    )
    sub = parser.add_subparsers(dest="audit_command", required=True, metavar="AUDIT")
    privacy = sub.add_parser(
        "privacy",
        help="run the default privacy battery (node mechanisms, tree, Algorithm 1 end to end)",
        description=(
            "Audit the Shariff & Sheffet mechanisms against the printed claims and the exact "
            "guarantees of the correct mechanisms, with Holm family-wise control. Exit code 1 "
            "if any test is rejected."
        ),
    )
    privacy.add_argument(
        "--out",
        type=Path,
        default=Path("results/audit"),
        help="report folder (default %(default)s)",
    )
    privacy.add_argument(
        "--seed", type=int_at_least(0), default=2026, help="root seed (default %(default)s)"
    )
    privacy.add_argument(
        "--samples",
        type=size_at_least(100),
        default=200_000,
        help="privacy-loss / output samples per side (default %(default)s)",
    )
    privacy.add_argument(
        "--stream-runs",
        type=size_at_least(4),
        default=1000,
        help="runs of Algorithm 1 per stream (default %(default)s)",
    )
    privacy.add_argument(
        "--alpha",
        type=float_in(0.0, 1.0),
        default=0.05,
        help="family-wise error rate (default %(default)s)",
    )
    privacy.add_argument(
        "--quick", action="store_true", help="a 10x smaller budget (smoke test; less power)"
    )
    privacy.add_argument("--json", action="store_true", help="print the JSON report to stdout")
    privacy.add_argument("--no-progress", action="store_true", help="hide progress bars")
    sub.add_parser(
        "benchmark",
        add_help=False,
        help="the classic DP-auditing benchmark (StatDP / DP-Sniper mechanisms): "
        "'privonline audit benchmark --help'",
    )
    zoo = sub.add_parser(
        "zoo",
        help="measure power and false alarms on deliberately broken mechanisms",
        description="Audit each zoo mechanism REPS times and report rejection rates.",
    )
    zoo.add_argument(
        "--reps",
        type=size_at_least(1),
        default=60,
        help="repetitions per case (default %(default)s)",
    )
    zoo.add_argument(
        "--samples",
        type=size_at_least(4),
        default=100_000,
        help="privacy-loss samples per side (default %(default)s)",
    )
    zoo.add_argument(
        "--seed", type=int_at_least(0), default=11, help="root seed (default %(default)s)"
    )
    zoo.add_argument(
        "--out",
        type=Path,
        default=Path("results/audit"),
        help="folder for zoo.json (default %(default)s)",
    )
    zoo.add_argument("--json", action="store_true", help="print the JSON rows to stdout")
    papers = sub.add_parser(
        "papers",
        help="the audit batteries of the other papers (Sajed & Sheffet, Zhou & Tan, ...)",
        description=(
            "Run every other paper's battery: correct mechanisms (one Holm family for the privacy "
            "tests) and deliberately broken variants (each must be caught against the exact "
            "claim). Exit code 1 on a false alarm or a missed bug."
        ),
    )
    papers.add_argument(
        "--seed", type=int_at_least(0), default=2026, help="root seed (default %(default)s)"
    )
    papers.add_argument(
        "--alpha",
        type=float_in(0.0, 1.0),
        default=0.05,
        help="family-wise error rate (default %(default)s)",
    )
    papers.add_argument("--quick", action="store_true", help="smaller samples (less power)")
    papers.add_argument(
        "--out",
        type=Path,
        default=Path("results/audit"),
        help="folder for papers.json and papers.md (default %(default)s)",
    )
    return parser


def _run_audit(argv: Sequence[str]) -> int:
    from audit.papers.shariff_sheffet.battery import BatteryConfig, run_privacy_battery
    from audit.papers.shariff_sheffet.zoo import run_billboard_zoo, run_zoo
    from audit.results import SCHEMA_VERSION, produced_by, to_jsonable

    if argv and argv[0] == "benchmark":
        from audit.benchmarks import run

        return run.main(list(argv[1:]), prog="privonline audit benchmark")
    args = _audit_parser().parse_args(argv)
    config: BatteryConfig | None = None
    if args.audit_command == "privacy":  # every flag is checked before the folder and any work
        scale = 10 if args.quick else 1
        if args.samples // scale < 100:
            print(
                f"error: --samples must be >= {100 * scale} with --quick, got {args.samples}",
                file=sys.stderr,
            )
            return 2
        try:
            config = BatteryConfig(
                white_box_samples=args.samples // scale,
                black_box_samples=args.samples // scale,
                stream_runs=max(4, args.stream_runs // scale),
                accuracy_runs=max(3, 30 // scale),
                family_alpha=args.alpha,
                seed=args.seed,
            )
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    try:
        prepare_output_dir(args.out)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.audit_command == "papers":
        from audit.papers.combined import run_paper_audits

        papers_report = run_paper_audits(seed=args.seed, family_alpha=args.alpha, quick=args.quick)
        papers_report.write(args.out)
        bugs = papers_report.bugs()
        print(
            f"{sum(1 for _, r in papers_report.rows if r.role == 'correct')} tests of correct "
            "mechanisms, "
            f"{len(papers_report.false_alarms)} false alarms; {sum(bugs.values())}/{len(bugs)} "
            f"broken variants caught"
        )
        for missed in papers_report.missed:
            print(f"MISSED: {missed}")
        for alarm in papers_report.false_alarms:
            print(f"FALSE ALARM: {alarm}")
        print(f"report: {args.out / 'papers.md'}")
        return 1 if (papers_report.false_alarms or papers_report.missed) else 0
    if config is not None:
        report = run_privacy_battery(config, progress=not args.no_progress)
        report.write(args.out)
        if args.json:
            print(dumps_json(report.to_dict()))
        else:
            print(report.summary_table())
            print()
            print(report.slack_markdown())
            print()
            print(report.accuracy_markdown())
            print(f"\nreport: {args.out / 'report.md'}  (JSON: {args.out / 'report.json'})")
            print(f"verdict: {'VIOLATION' if report.violations else 'pass'}")
        return 1 if report.violations else 0
    rows = run_zoo(reps=args.reps, samples=args.samples, seed=args.seed, progress=True)
    rows += run_billboard_zoo(reps=args.reps, seed=args.seed + 1, progress=True)
    payload = {
        "schema_version": SCHEMA_VERSION,
        "produced_by": produced_by(),
        "kind": "bug_zoo",
        "reps": args.reps,
        "samples": args.samples,
        "seed": args.seed,
        "rows": to_jsonable(rows),
    }
    write_json(args.out / "zoo.json", payload, indent=2)
    if args.json:
        print(dumps_json(payload))
    else:
        print(
            "| case | broken | rejected (exact claim) | rate 95% CP bounds | rejected (printed) |"
        )
        print("|---|---|---|---|---|")
        for r in rows:
            printed = "–" if r.rejected_printed is None else f"{r.rejected_printed}/{r.reps}"
            print(
                f"| {r.name} | {r.broken} | {r.rejected_exact}/{r.reps} | "
                f"[{r.rate_exact_lower:.3f}, {r.rate_exact_upper:.3f}] | {printed} |"
            )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``privonline`` console script; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="privonline",
        description="Verified reference implementations of DP online learning, and their audits.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "audit",
        help="privacy audits: 'privonline audit privacy|papers|zoo|benchmark --help'",
        add_help=False,
    )
    sub.add_parser(
        "experiment",
        help="run Algorithm 1 of Shariff & Sheffet on the App. D environment",
        add_help=False,
    )
    sub.add_parser(
        "bench",
        help="benchmark the engine against the reference (writes bench.json)",
        add_help=False,
    )
    sub.add_parser(
        "golden",
        help="check (default) or --rebuild the golden vectors; 'privonline golden compare --help': "
        "compare a third-party function with them",
        add_help=False,
    )
    sub.add_parser(
        "check",
        help="audit a third-party bandit policy (module:attribute) for a claim and against the "
        "reference",
        add_help=False,
    )
    sub.add_parser(
        "reproduce",
        help="reproduce a paper's experiments (reduced scale by default): 'privonline reproduce "
        "PAPER --help' for PAPER in all, " + ", ".join(p.cli_name for p in registry.PAPERS),
        add_help=False,
    )
    if not args or args[0] not in sub.choices:
        parser.parse_args(args)  # prints help (exit 0) or an error (exit 2)
        parser.print_help()
        return 2
    command, rest = args[0], args[1:]
    if command == "audit":
        return _run_audit(rest)
    if command == "golden":
        from audit.tools import golden

        if rest and rest[0] == "compare":
            from audit.tools.golden import third_party

            return third_party.main(rest[1:])
        return golden.main(rest)
    if command == "check":
        from audit import check

        return check.main(rest)
    if command == "reproduce":
        return _run_reproduce(rest)
    if command == "bench":
        from audit.tools import bench

        return bench.main(rest)
    return experiments.main(rest, prog="privonline experiment")


if __name__ == "__main__":
    raise SystemExit(main())
