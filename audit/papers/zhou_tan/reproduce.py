"""Reproductions of Zhou & Tan's experiments (Sec. 5, App. E) and regret scaling fits.

**fig2** (Fig. 2, Sec. 5.2: panels (a)–(c) LDP, (d)–(f) non-private heavy-tailed), **fig3**
(Fig. 3, App. E: LDP) and **scaling** (regret of LDP-TGP-UCB, LDP-ATA-GP-UCB and LDP-MoMA-GP-UCB
against the forms of Theorem 3, Theorem 2 and Corollary 1 in ``T``, ``ϵ`` and the dimension).
Settings follow Sec. 5.1; the two real datasets are replaced by the seeded stand-ins of
:mod:`reference.zhou_tan.datasets`, and the presets the paper does not report are those of the
note (T-23).  Every cell is written to ``<out>/zhou_tan/<name>_cells/`` with its configuration and reused
by a rerun; seeds are named streams from :func:`reference.rng.child_seeds` (common random numbers).

Proof note: ``proofs_notes/audit/reproduce_zhou_tan.md``.
"""

from __future__ import annotations

from audit.papers.zhou_tan.repro_common import Fig2Config, Fig3Config, ScalingConfig
from audit.papers.zhou_tan.repro_figures import reproduce_fig2, reproduce_fig3
from audit.papers.zhou_tan.repro_scaling import reproduce_scaling
from audit.reproduce.experiment import Experiment, check_lines
from audit.reproduce.report import ExperimentReport

__all__ = ["EXPERIMENTS"]


def _scaling_summary(report: ExperimentReport) -> list[str]:
    return [
        f"{fit['name']}: slope {fit['slope']:.2f} [{fit['ci_low']:.2f}, {fit['ci_high']:.2f}] "
        f"{'consistent' if fit['consistent'] else 'inconsistent'}"
        for fit in report.fits
    ]


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "fig2",
        "Fig. 2 (Sec. 5.2): LDP panels (a)-(c) and non-private heavy-tailed panels (d)-(f)",
        Fig2Config,
        reproduce_fig2,
        check_lines,
        runs_field="trials",
    ),
    Experiment(
        "fig3",
        "Fig. 3 (App. E): LDP on synthetic SE, light sensors and stocks",
        Fig3Config,
        reproduce_fig3,
        check_lines,
        runs_field="trials",
    ),
    Experiment(
        "scaling",
        "regret of the LDP algorithms against Thm 2, Thm 3 and Cor. 1 in T, ϵ and d",
        ScalingConfig,
        reproduce_scaling,
        _scaling_summary,
        runs_field="replicates",
    ),
)
"""The experiments of ``privonline reproduce zhou-tan`` (the paper's claims are reported, not
gated)."""
