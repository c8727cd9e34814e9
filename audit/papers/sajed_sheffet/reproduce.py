"""Reproductions of Sajed & Sheffet Sec. 5 and of Theorem 4.3's scaling (ICML 2019).

Three experiments, each writing ``<name>.json``, ``<name>.png`` and ``<name>.md`` into
``<out>/sajed_sheffet``:

* **sec5** -- the paper's experiments (Sec. 5): Bernoulli instances C1-C4
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
* **thm43** -- Theorem 4.3 and its proof: DP-SE's regret against the theorem's own form.  A
  two-term OLS ``regret ≈ c₁ Σ_{a≠a*} log T/Δ_a + c₂ K log T/ε`` over the whole grid (settings whose
  every suboptimal arm was eliminated: "for sufficiently large T"), HC3 CIs; and one-variable fits
  (:func:`audit.methods.scaling.fit_against_form`) of ``ln regret`` on ``ln f`` against ``log T``, ``K`` and
  ``1/ε``, with ``f`` the proof's form ``Σ_a log(TK log(1/Δ_a))(1/Δ_a + 1/ε)`` and its final
  simplification ``Σ_a 3 log T/Δ_a + 3 log T (K − 1)/ε``.  DP-SE is cheap at any ``T``, so the reduced
  and paper scales differ only in the number of runs.
* **stopping** -- Theorem 3.3: halting time of DP-NAS (Algorithm 1, via the exact
  fast path :func:`dp_nas_two_point_halting_time`) and DP exponential NAS (Algorithm 2,
  ``stopping.dp_exp_nas`` itself) on the two-point law, over grids of ``1/α``, ``1/ε`` and ``R``;
  :func:`audit.methods.scaling.fit_against_form` of ``ln τ`` against Thm 3.3's ``t_U`` and the proof's
  ``τ_E`` (both from ``bounds.py``), a binomial test of ``Pr[τ > bound] ≤ β``, and a planted rule
  with noise ``∝ 1/ε²`` that both tests must flag.  Reduced: 10 runs per point; ``.paper()``: 30.

Every cell (``sec5``: one per ``(K, algorithm)``; ``thm43``: one per ``K``; ``stopping``:
one per rule, variant and grid) is written to
``<out>/sajed_sheffet/<name>_cells/`` as soon as it is finished, with its configuration; a rerun reuses finished
cells and refuses cells whose configuration differs.  Seeds derive from the config seed through
``SeedSequence(seed, spawn_key=(algorithm, instance, K, ε))`` and
:func:`~reference.rng.child_seeds` (one child per run): the same seed gives the same result.
"""

from __future__ import annotations

from audit.papers.sajed_sheffet.repro_cells import Sec5Config, Thm43Config
from audit.papers.sajed_sheffet.repro_sec5 import reproduce_sec5
from audit.papers.sajed_sheffet.repro_stopping import reproduce_stopping
from audit.papers.sajed_sheffet.repro_stopping_times import StoppingConfig
from audit.papers.sajed_sheffet.repro_thm43 import reproduce_thm43
from audit.reproduce.experiment import Experiment, Report

__all__ = ["EXPERIMENTS"]


def _sec5_summary(report: Report) -> list[str]:
    return [
        f"DP-UCB({cal}) / DP-SE: min {s['min_ratio']:.2f}, median {s['median_ratio']:.2f}; "
        f"≥ 5× in {s['settings_at_least_5x']}/{s['settings']}"
        for cal, s in report["summary"].items()
    ]


def _thm43_summary(report: Report) -> list[str]:
    lin = report["linear_fit"]
    verdict = "consistent" if lin["consistent"] else "inconsistent"
    lines = [
        f"two-term fit: c1 = {lin['c1']:.1f} {lin['c1_ci']}, c2 = {lin['c2']:.2f} "
        f"{lin['c2_ci']} ({verdict})"
    ]
    for name, f in report["scaling_fits"].items():
        lines.append(f"{name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]")
    return lines


def _stopping_summary(report: Report) -> list[str]:
    lines = []
    for name, f in report["scaling_fits"].items():
        zero = " (zero-width CI)" if f["zero_width_ci"] else ""
        lines.append(
            f"{name}: slope {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}]{zero}, "
            f"bare exponent {f['bare_power_exponent']:.3f}, "
            f"{'consistent' if f['consistent'] else 'inconsistent'}"
        )
    s = report["summary"]
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
