"""Reproductions of Sajed & Sheffet Sec. 5 and of Theorem 4.3's scaling (ICML 2019).

Three experiments, each writing ``<name>.json``, ``<name>.png`` and ``<name>.md`` into ``out``:
**ss_sec5** (Sec. 5: DP-SE, Algorithm 3, against DP-UCB in both calibrations on C1-C4, beside the
paper's "at least 5 times"), **ss_thm43** (DP-SE's regret against Theorem 4.3's own form) and
**ss_stopping** (halting times of Algorithms 1 and 2 against Theorem 3.3, with a planted rule with
noise ``∝ 1/ε²``).  Every cell is written to ``out/<name>_cells/`` with its configuration as soon
as it is finished and reused by a rerun; seeds derive from the config seed by name
(:func:`~reference.rng.child_seeds`), so the same seed gives the same result.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

from audit.papers.sajed_sheffet.repro_cells import Sec5Config, Thm43Config
from audit.papers.sajed_sheffet.repro_sec5 import reproduce_ss_sec5
from audit.papers.sajed_sheffet.repro_stopping import reproduce_ss_stopping
from audit.papers.sajed_sheffet.repro_stopping_times import StoppingConfig
from audit.papers.sajed_sheffet.repro_thm43 import reproduce_ss_thm43
from audit.reproduce.common import reproduction_parser, selected_experiments
from reference.validation import int_at_least

__all__ = [
    "EXPERIMENTS",
    "build_parser",
    "main",
]


EXPERIMENTS = ("ss_sec5", "ss_thm43", "ss_stopping")


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def build_parser(prog: str = "privonline reproduce") -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = reproduction_parser(
        prog,
        "Reproduce Sajed & Sheffet Sec. 5 (DP-SE vs DP-UCB), Thm 4.3's scaling and the stopping "
        "rules' scaling against Thm 3.3 (reduced scale by default); writes JSON, PNG and a "
        "Markdown comparison per experiment.",
        EXPERIMENTS,
        runs_help="runs per setting (default: config)",
    )
    parser.add_argument(
        "--workers", type=int_at_least(1), default=2, help="processes over cells (default 2)"
    )
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "privonline reproduce") -> int:
    """Entry point; exit code 2 on bad arguments."""
    args = build_parser(prog).parse_args(argv)
    experiments = selected_experiments(args, EXPERIMENTS)
    if experiments is None:
        return 2
    overrides: dict[str, Any] = {} if args.runs is None else {"runs": args.runs}
    try:
        if "ss_sec5" in experiments:
            sec5 = Sec5Config.paper() if args.paper_scale else Sec5Config()
            report = reproduce_ss_sec5(
                dataclasses.replace(sec5, **overrides), args.out, workers=args.workers
            )
            for cal, s in report["summary"].items():
                print(
                    f"Sec. 5 DP-UCB({cal}) / DP-SE: min {s['min_ratio']:.2f}, median "
                    f"{s['median_ratio']:.2f}; ≥ 5× in {s['settings_at_least_5x']}/{s['settings']}"
                )
        if "ss_thm43" in experiments:
            thm = Thm43Config.paper() if args.paper_scale else Thm43Config()
            report = reproduce_ss_thm43(
                dataclasses.replace(thm, **overrides), args.out, workers=args.workers
            )
            lin = report["linear_fit"]
            print(
                f"Thm 4.3 two-term fit: c1 = {lin['c1']:.1f} {lin['c1_ci']}, "
                f"c2 = {lin['c2']:.2f} {lin['c2_ci']} ({'consistent' if lin['consistent'] else 'inconsistent'})"
            )
            for name, f in report["scaling_fits"].items():
                print(
                    f"Thm 4.3 {name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]"
                )
        if "ss_stopping" in experiments:
            stop = StoppingConfig.paper() if args.paper_scale else StoppingConfig()
            report = reproduce_ss_stopping(
                dataclasses.replace(stop, **overrides), args.out, workers=args.workers
            )
            for name, f in report["scaling_fits"].items():
                zero = " (zero-width CI)" if f["zero_width_ci"] else ""
                print(
                    f"Stopping {name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, "
                    f"{f['ci_high']:.3f}]{zero}, bare exponent {f['bare_power_exponent']:.3f}, "
                    f"{'consistent' if f['consistent'] else 'inconsistent'}"
                )
            s = report["summary"]
            print(
                f"Stopping rules: {s['correct_consistent']}/{s['correct_fits']} correct fits "
                f"consistent; planted (noise ∝ 1/ε²) flagged in {s['planted_flagged']}/"
                f"{s['planted_fits']}; bound exceeded (level 0.05) in {s['bound_violations']}"
            )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/ss_*.{{json,png,md}}")
    return 0
