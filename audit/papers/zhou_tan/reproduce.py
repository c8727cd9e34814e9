"""Reproductions of Zhou & Tan's experiments (Sec. 5, App. E) and regret scaling fits.

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.
Proof note: ``proofs_notes/audit/reproduce_zhou_tan.md``.

* **fig2** (Fig. 2, Sec. 5.2): (a) LDP, ϵ = 1, synthetic Matérn; (b) LDP, ϵ = 0.5, light
  sensors; (c) LDP, ϵ = 1, stocks; (d)–(f) non-private heavy-tailed (Student-t(3) noise /
  empirical rows) on synthetic SE, light sensors, stocks.
* **fig3** (Fig. 3, App. E): LDP, synthetic SE ϵ = 1, light ϵ = 1, stocks ϵ = 0.5.
* **scaling**: cumulative regret of LDP-TGP-UCB, LDP-ATA-GP-UCB and LDP-MoMA-GP-UCB against the
  forms of Theorem 3, Theorem 2 and Corollary 1 (``reference.zhou_tan.bounds``, with ``γ_t``
  replaced by the certified ``γ̄_t``), in ``T`` (checkpoints along the runs) and in ``ϵ``
  (final regret over an ``ϵ`` grid); OLS of ``ln R`` on ``ln form``, clustered by replicate
  (:func:`audit.methods.scaling.fit_against_form`).  Also LDP-TGP-UCB's final regret vs the dimension
  ``d ∈ {1, 2, 3}`` on product grids of 64 points (``64¹ = 8² = 4³``) against Theorem 3's form,
  where ``d`` enters only through the kernel's ``γ̄_T`` (the objectives are rescaled to one ``B``).

Settings (Sec. 5.1): 100-point grid on ``[0, 1]``, ``f = Σ_{i≤100} a_i k(·, x_i)``
redrawn every trial, SE / Matérn-2.5 kernels with ``l = 0.2``, ``B = max|f|``; LDP noise
``U[−1, 1]`` (``R = 1``); non-private noise Student-t(3) (``v = B² + 3``, ``c = 3``).  The two
real datasets are replaced by the seeded stand-ins of :mod:`reference.zhou_tan.datasets` (nothing
is downloaded); they go through the paper's pipeline (``f`` = column means, ``B = max f``,
empirical-covariance kernel, ``R``, ``v``, ``c`` from the data).  The paper reports no T, δ, λ or
β constants ("order-wise similar to those recommended by the theorems", Sec. 5); the presets are
those of the proof note (T-23): ``T = 1000``, ``λ = 1``, ``δ = 0.05``, ``ε_nys = 0.1``, practical ``q`` and
``k`` for ATA and MoMA; LDP-TGP-UCB uses Alg. 2's theory widths (the reference has no other).
``moma_theory`` adds LDP-MoMA-GP-UCB with the theory ``k = ⌈24 ln(4eT/δ)⌉`` as an ablation.

Every (panel, algorithm) or (algorithm, ϵ) cell is written to ``out/<name>_cells/`` as it finishes,
with its configuration; a rerun reuses finished cells and refuses cells computed under another
configuration.  Seeds: one config seed → :func:`reference.rng.child_seeds` per panel and trial →
named streams (objective, environment, privacy, algorithm), shared by all algorithms of a panel
(common random numbers).
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
