"""Experiments for Agarwal & Singh (ICML 2017): the regret experiments E4, E5, E7 and E9.

The paper has **no experiments**; E1-E9 are the implementation's proposal, the privacy ones
(E1-E3, E6, E8) being the audits of :mod:`audit.papers.agarwal_singh.battery`.  Here: ``as_ftrl``
(E4; Thm 3.1/3.4, Cor. 3.2), ``as_ftpl`` (E5; Thm 3.5, Alg. 3), ``as_mab`` (E7; Thm 4.1, Alg. 4 +
Alg. 5), ``as_blo`` (E9; Thm 4.5, Alg. 4 + SCRiBLe) and ``as_eps_window`` (the ε-window and
privacy-term tests), at a reduced scale by default, on oblivious loss sequences (Sec. 2) with the
reference learners, fitted against the theorems' own forms
(:func:`audit.methods.scaling.fit_against_form`).  Cells are written to ``out/<name>_cells/``,
reused on rerun and refused if their parameters differ; seeds follow names.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence
from typing import Any

from audit.papers.agarwal_singh.repro_bandits import (
    reproduce_as_blo,
    reproduce_as_ftpl,
    reproduce_as_mab,
)
from audit.papers.agarwal_singh.repro_common import BLOConfig, FTPLConfig, FullInfoConfig, MABConfig
from audit.papers.agarwal_singh.repro_eps_window import EpsWindowConfig, reproduce_as_eps_window
from audit.papers.agarwal_singh.repro_ftrl import reproduce_as_ftrl
from audit.reproduce.common import reproduction_parser, selected_experiments

__all__ = [
    "EXPERIMENTS",
    "build_parser",
    "main",
]


EXPERIMENTS = ("as_ftrl", "as_ftpl", "as_mab", "as_blo", "as_eps_window")
"""Experiment names (positional arguments of :func:`main`; output files ``<name>.{json,png,md}``)."""


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def build_parser(prog: str = "privonline reproduce") -> argparse.ArgumentParser:
    """The command-line interface (experiments ``as_ftrl``, ``as_ftpl``, ``as_mab``, ``as_blo``,
    ``as_eps_window``)."""
    return reproduction_parser(
        prog,
        "Agarwal & Singh (ICML 2017) regret experiments E4, E5, E7, E9 of the implementation spec "
        "and its ε-window and privacy-term tests (reduced scale by default); writes JSON, PNG and a "
        "Markdown comparison per experiment.",
        EXPERIMENTS,
        paper_scale_help="the spec's sizes (hours)",
    )


def main(argv: Sequence[str] | None = None, prog: str = "privonline reproduce") -> int:
    """Entry point; exit code 1 if a gate fails, 2 on bad arguments."""
    args = build_parser(prog).parse_args(argv)
    experiments = selected_experiments(args, EXPERIMENTS)
    if experiments is None:
        return 2
    overrides: dict[str, Any] = {} if args.runs is None else {"runs": args.runs}
    failed = False
    try:
        for name in experiments:
            report: dict[str, Any]
            if name == "as_ftrl":
                ftrl = FullInfoConfig.paper() if args.paper_scale else FullInfoConfig()
                report = reproduce_as_ftrl(dataclasses.replace(ftrl, **overrides), args.out)
            elif name == "as_ftpl":
                ftpl = FTPLConfig.paper() if args.paper_scale else FTPLConfig()
                report = reproduce_as_ftpl(dataclasses.replace(ftpl, **overrides), args.out)
            elif name == "as_mab":
                mab = MABConfig.paper() if args.paper_scale else MABConfig()
                report = reproduce_as_mab(dataclasses.replace(mab, **overrides), args.out)
            elif name == "as_blo":
                blo = BLOConfig.paper() if args.paper_scale else BLOConfig()
                report = reproduce_as_blo(dataclasses.replace(blo, **overrides), args.out)
            else:
                window = EpsWindowConfig.paper() if args.paper_scale else EpsWindowConfig()
                report = reproduce_as_eps_window(dataclasses.replace(window, **overrides), args.out)
            for fit in report["fits"]:
                if fit["fitted"] and "slope" in fit:  # as_eps_window: slope against a window
                    low, high = fit["ci"]
                    print(
                        f"{name} {fit['name']}: slope {fit['slope']:.3f} [{low:.3f}, {high:.3f}] "
                        f"(window [{fit['window'][0]:g}, {fit['window'][1]:g}])"
                    )
                elif fit["fitted"]:
                    low, high = fit["exponent_ci"]
                    print(
                        f"{name} {fit['name']}: exponent {fit['exponent']:.3f} "
                        f"[{low:.3f}, {high:.3f}] (stated {fit['stated_exponent']:g})"
                    )
            for check in report["checks"]:
                print(f"{name} {check['claim']}: {'holds' if check['holds'] else 'does not hold'}")
                failed |= check["gate"] and not check["holds"]
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/{{{','.join(experiments)}}}.{{json,png,md}}")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
