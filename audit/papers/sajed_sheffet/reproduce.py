"""Reproductions of Sajed & Sheffet Sec. 5 and of Theorem 4.3's scaling (ICML 2019).

Three experiments, each reported in ``<out>/sajed_sheffet/<name>.{json,png,md}``:
**sec5** (Sec. 5: DP-SE, Algorithm 3, against DP-UCB in both calibrations on C1-C4, beside the
paper's "at least 5 times"), **thm43** (DP-SE's regret against Theorem 4.3's own form) and
**stopping** (halting times of Algorithms 1 and 2 against Theorem 3.3, with a planted rule with
noise ``∝ 1/ε²``).  Every cell is written to ``<name>_cells/`` there with its configuration as
soon as it is finished and reused by a rerun; seeds derive from the config seed by name
(:func:`~reference.rng.child_seeds`), so the same seed gives the same result.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

from audit.papers.sajed_sheffet.repro_cells import Sec5Config, Thm43Config
from audit.papers.sajed_sheffet.repro_sec5 import reproduce_sec5
from audit.papers.sajed_sheffet.repro_stopping import reproduce_stopping
from audit.papers.sajed_sheffet.repro_stopping_times import StoppingConfig
from audit.papers.sajed_sheffet.repro_thm43 import reproduce_thm43
from audit.reproduce.experiment import Experiment
from audit.reproduce.report import ExperimentReport

__all__ = ["EXPERIMENTS"]


def _sec5_summary(report: ExperimentReport) -> list[str]:
    return [
        f"DP-UCB({cal}) / DP-SE: min {s['min_ratio']:.2f}, median {s['median_ratio']:.2f}; "
        f"≥ 5× in {s['settings_at_least_5x']}/{s['settings']}"
        for cal, s in report.payload["summary"].items()
    ]


def _thm43_summary(report: ExperimentReport) -> list[str]:
    lin = report.payload["linear_fit"]
    verdict = "consistent" if lin["consistent"] else "inconsistent"
    lines = [
        f"two-term fit: c1 = {lin['c1']:.1f} {lin['c1_ci']}, c2 = {lin['c2']:.2f} "
        f"{lin['c2_ci']} ({verdict})"
    ]
    for name, f in report.payload["scaling_fits"].items():
        lines.append(f"{name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]")
    return lines


def _stopping_summary(report: ExperimentReport) -> list[str]:
    lines = []
    for name, f in report.payload["scaling_fits"].items():
        zero = " (zero-width CI)" if f["zero_width_ci"] else ""
        lines.append(
            f"{name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]{zero}, "
            f"bare exponent {f['bare_power_exponent']:.3f}, "
            f"{'consistent' if f['consistent'] else 'inconsistent'}"
        )
    s = report.payload["summary"]
    lines.append(
        f"rules: {s['correct_consistent']}/{s['correct_fits']} correct fits consistent; planted "
        f"(noise ∝ 1/ε²) flagged in {s['planted_flagged']}/{s['planted_fits']}; bound exceeded "
        f"(level 0.05) in {s['bound_violations']}"
    )
    return lines


EXPERIMENTS: tuple[Experiment, ...] = (
    Experiment(
        "sec5",
        "Sec. 5: DP-SE (Alg. 3) vs DP-UCB on C1-C4, K ∈ {3, 5, 10, 20}, four ε (paper: ≥ 5×)",
        Sec5Config,
        reproduce_sec5,
        _sec5_summary,
        parallel=True,
    ),
    Experiment(
        "thm43",
        "Thm 4.3: DP-SE's regret against the theorem's form in log T, K and 1/ε",
        Thm43Config,
        reproduce_thm43,
        _thm43_summary,
        parallel=True,
    ),
    Experiment(
        "stopping",
        "Thm 3.3: halting times of DP-NAS (Alg. 1) and exponential DP-NAS (Alg. 2) vs 1/α, 1/ε, R",
        StoppingConfig,
        reproduce_stopping,
        _stopping_summary,
        parallel=True,
    ),
)
"""The experiments of ``privonline reproduce sajed-sheffet`` (reported, not gated)."""
