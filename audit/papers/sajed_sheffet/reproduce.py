"""Reproductions of Sajed & Sheffet Sec. 5 and of Theorem 4.3's scaling (ICML 2019).

Three experiments, each writing ``<name>.json``, ``<name>.png`` and ``<name>.md`` into ``out``:

* **ss_sec5** -- the paper's experiments (Sec. 5): Bernoulli instances C1-C4
  (:func:`~reference.engine.mab.section5_means`), ``K ∈ {3, 5, 10, 20}``,
  ``ε ∈ {0.1, 0.25, 0.5, 1}``, ``β = 1/T``, DP-SE (Algorithm 3) against the DP-UCB baseline in both
  calibrations (``ε`` per tree -- the correct one -- and ``ε/K`` per tree).  Regret vs ``t`` (DP-SE
  piecewise linear, DP-UCB smooth), the final-regret table and the DP-UCB/DP-SE ratio per setting
  beside the paper's "we outperform DP-UCB by at least 5 times" (Sec. 5).  Paper: ``T = 5·10⁷``,
  30 runs.  Reduced default: ``T = 5·10⁵``, 5 runs (DP-UCB has no fast path: it is a round-by-round
  loop; :func:`~reference.engine.mab.dpucb_bernoulli_batch` runs about 10⁶
  replicate-rounds per second on one core, so the paper's grid, 1.9·10¹¹ replicate-rounds, takes
  about a day on two cores); DP-SE is also run at the paper's ``T`` with 30 runs (its fast path costs milliseconds) and compared
  with the spec's regression table.
* **ss_thm43** -- Theorem 4.3 and its proof: DP-SE's regret against the theorem's own form.  A
  two-term OLS ``regret ≈ c₁ Σ_{a≠a*} log T/Δ_a + c₂ K log T/ε`` over the whole grid (settings whose
  every suboptimal arm was eliminated: "for sufficiently large T"), HC3 CIs; and one-variable fits
  (:func:`audit.methods.scaling.fit_against_form`) of ``ln regret`` on ``ln f`` against ``log T``, ``K`` and
  ``1/ε``, with ``f`` the proof's form ``Σ_a log(TK log(1/Δ_a))(1/Δ_a + 1/ε)`` and its final
  simplification ``Σ_a 3 log T/Δ_a + 3 log T (K − 1)/ε``.  DP-SE is cheap at any ``T``, so the reduced
  and paper scales differ only in the number of runs.
* **ss_stopping** -- Theorem 3.3: halting time of DP-NAS (Algorithm 1, via the exact
  fast path :func:`dp_nas_two_point_halting_time`) and DP exponential NAS (Algorithm 2,
  ``stopping.dp_exp_nas`` itself) on the two-point law, over grids of ``1/α``, ``1/ε`` and ``R``;
  :func:`audit.methods.scaling.fit_against_form` of ``ln τ`` against Thm 3.3's ``t_U`` and the proof's
  ``τ_E`` (both from ``bounds.py``), a binomial test of ``Pr[τ > bound] ≤ β``, and a planted rule
  with noise ``∝ 1/ε²`` that both tests must flag.  Reduced: 10 runs per point; ``.paper()``: 30.

Every cell (``ss_sec5``: one per ``(K, algorithm)``; ``ss_thm43``: one per ``K``; ``ss_stopping``:
one per rule, variant and grid) is written to
``out/<name>_cells/`` as soon as it is finished, with its configuration; a rerun reuses finished
cells and refuses cells whose configuration differs.  Seeds derive from the config seed through
``SeedSequence(seed, spawn_key=(algorithm, instance, K, ε))`` and
:func:`~reference.rng.child_seeds` (one child per run): the same seed gives the same result.
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
