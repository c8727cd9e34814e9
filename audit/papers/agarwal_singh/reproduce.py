"""Experiments for Agarwal & Singh (ICML 2017): the regret experiments E4, E5, E7 and E9.

The paper has **no experiments**; E1-E9 are the implementation's proposal, the privacy ones
(E1-E3, E6, E8) being the audits of :mod:`audit.papers.agarwal_singh.battery`.  Here: ``ftrl``
(E4; Thm 3.1/3.4, Cor. 3.2), ``ftpl`` (E5; Thm 3.5, Alg. 3), ``mab`` (E7; Thm 4.1, Alg. 4 +
Alg. 5), ``blo`` (E9; Thm 4.5, Alg. 4 + SCRiBLe) and ``eps_window`` (the ε-window and
privacy-term tests), at a reduced scale by default, on oblivious loss sequences (Sec. 2) with the
reference learners, fitted against the theorems' own forms
(:func:`audit.methods.scaling.fit_against_form`).  Cells are written to ``<out>/agarwal_singh/<name>_cells/``,
reused on rerun and refused if their parameters differ; seeds follow names.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

from audit.papers.agarwal_singh.repro_bandits import (
    reproduce_blo,
    reproduce_ftpl,
    reproduce_mab,
)
from audit.papers.agarwal_singh.repro_common import BLOConfig, FTPLConfig, FullInfoConfig, MABConfig
from audit.papers.agarwal_singh.repro_eps_window import EpsWindowConfig, reproduce_eps_window
from audit.papers.agarwal_singh.repro_ftrl import reproduce_ftrl
from audit.reproduce.experiment import Experiment, check_lines, failed_checks
from audit.reproduce.report import ExperimentReport

__all__ = ["EXPERIMENTS"]


def _summary(report: ExperimentReport) -> list[str]:
    """A line per fitted exponent (or slope against a window) and per check."""
    lines: list[str] = []
    for fit in report.fits:
        if fit["fitted"] and "slope" in fit:  # eps_window: slope against a window
            low, high = fit["ci"]
            lines.append(
                f"{fit['name']}: slope {fit['slope']:.3f} [{low:.3f}, {high:.3f}] "
                f"(window [{fit['window'][0]:g}, {fit['window'][1]:g}])"
            )
        elif fit["fitted"]:
            low, high = fit["exponent_ci"]
            lines.append(
                f"{fit['name']}: exponent {fit['exponent']:.3f} [{low:.3f}, {high:.3f}] "
                f"(stated {fit['stated_exponent']:g})"
            )
    return lines + check_lines(report)


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "ftrl",
        "E4 (Thm 3.1/3.4, Cor. 3.2): private FTRL (Alg. 1) on the simplex, sphere and cube vs T, ε, N",
        FullInfoConfig,
        reproduce_ftrl,
        _summary,
        gate=failed_checks,
    ),
    Experiment(
        "ftpl",
        "E5 (Thm 3.5): FTPL (Alg. 3) with Gaussian tree noise on the ball and the cube",
        FTPLConfig,
        reproduce_ftpl,
        _summary,
        gate=failed_checks,
    ),
    Experiment(
        "mab",
        "E7 (Thm 4.1): EXP2 (Alg. 5) behind the Laplace reduction (Alg. 4), constant gap",
        MABConfig,
        reproduce_mab,
        _summary,
        gate=failed_checks,
    ),
    Experiment(
        "blo",
        "E9 (Thm 4.5): SCRiBLe behind the reduction (Alg. 4) on the ball and the cube",
        BLOConfig,
        reproduce_blo,
        _summary,
        gate=failed_checks,
    ),
    Experiment(
        "eps_window",
        "the 1/ε law of Alg. 1's privacy term inside its window, and Cor. 3.2's D_{D'}(T, N)",
        EpsWindowConfig,
        reproduce_eps_window,
        _summary,
        gate=failed_checks,
    ),
)
"""The experiments of ``privonline reproduce agarwal-singh`` (outputs ``<name>.{json,png,md}``)."""
