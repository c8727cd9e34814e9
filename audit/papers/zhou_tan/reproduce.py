"""Reproductions of Zhou & Tan's experiments (Sec. 5, App. E) and regret scaling fits.

**fig2** (Fig. 2, Sec. 5.2: panels (a)–(c) LDP, (d)–(f) non-private heavy-tailed), **fig3**
(Fig. 3, App. E: LDP) and **scaling** (regret of LDP-TGP-UCB, LDP-ATA-GP-UCB and LDP-MoMA-GP-UCB
against the forms of Theorem 3, Theorem 2 and Corollary 1 in ``T``, ``ϵ`` and the dimension).
Settings follow Sec. 5.1; the two real datasets are replaced by the seeded stand-ins of
:mod:`reference.zhou_tan.datasets`, and the presets the paper does not report are those of the
note (T-23).  Every cell is written to ``out/<name>_cells/`` with its configuration and reused by a
rerun; seeds are named streams from :func:`reference.rng.child_seeds` (common random numbers).

Proof note: ``proofs_notes/audit/reproduce_zhou_tan.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence

from audit.papers.zhou_tan.repro_common import Fig2Config, Fig3Config, ScalingConfig
from audit.papers.zhou_tan.repro_figures import _reproduce_figure
from audit.papers.zhou_tan.repro_scaling import reproduce_scaling
from audit.reproduce.common import reproduction_parser, selected_experiments

__all__ = [
    "build_parser",
    "main",
]


# --------------------------------------------------------------------------------------------
# Command line

EXPERIMENTS = ("fig2", "fig3", "scaling")


def build_parser(prog: str = "privonline reproduce") -> argparse.ArgumentParser:
    """The command-line interface of the Zhou & Tan reproductions."""
    return reproduction_parser(
        prog,
        "Reproduce Zhou & Tan Fig. 2, Fig. 3 and the regret scaling fits (reduced scale by "
        "default); writes JSON, PNG and a Markdown comparison per experiment.",
        EXPERIMENTS,
        paper_scale_help="the paper's sizes (T = 1000)",
        runs_help="trials / replicates per cell (default: per config)",
    )


def main(argv: Sequence[str] | None = None, prog: str = "privonline reproduce") -> int:
    """Entry point; exit code 2 on bad arguments (the paper's claims are reported, not gated)."""
    args = build_parser(prog).parse_args(argv)
    experiments = selected_experiments(args, EXPERIMENTS)
    if experiments is None:
        return 2
    try:
        for exp in experiments:
            if exp in ("fig2", "fig3"):
                cls = Fig2Config if exp == "fig2" else Fig3Config
                fig = cls.paper() if args.paper_scale else cls()
                if args.runs is not None:
                    fig = dataclasses.replace(fig, trials=args.runs)
                report = _reproduce_figure(f"zhou_tan_{exp}", fig, args.out)
                for check in report["checks"]:
                    print(
                        f"{exp} {check['claim']}: {'holds' if check['holds'] else 'does not hold'}"
                    )
            else:
                sc = ScalingConfig.paper() if args.paper_scale else ScalingConfig()
                if args.runs is not None:
                    sc = dataclasses.replace(sc, replicates=args.runs)
                report = reproduce_scaling(sc, args.out)
                for fit in report["fits"]:
                    verdict = "consistent" if fit["consistent"] else "inconsistent"
                    print(
                        f"scaling {fit['name']}: slope {fit['slope']:.2f} "
                        f"[{fit['ci_low']:.2f}, {fit['ci_high']:.2f}] {verdict}"
                    )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}/zhou_tan_*.{{json,png,md}}")
    return 0
