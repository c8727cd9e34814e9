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

Every (panel, algorithm) or (algorithm, ϵ) cell is written to ``<out>/zhou_tan/<name>_cells/`` as it finishes,
with its configuration; a rerun reuses finished cells and refuses cells computed under another
configuration.  Seeds: one config seed → :func:`reference.rng.child_seeds` per panel and trial →
named streams (objective, environment, privacy, algorithm), shared by all algorithms of a panel
(common random numbers).
"""

from __future__ import annotations

from audit.papers.zhou_tan.repro_common import Fig2Config, Fig3Config, ScalingConfig
from audit.papers.zhou_tan.repro_figures import reproduce_fig2, reproduce_fig3
from audit.papers.zhou_tan.repro_scaling import reproduce_scaling
from audit.reproduce.experiment import Experiment, Report, check_lines

__all__ = ["EXPERIMENTS"]


def _scaling_summary(report: Report) -> list[str]:
    return [
        f"{fit['name']}: slope {fit['slope']:.2f} [{fit['ci_low']:.2f}, {fit['ci_high']:.2f}] "
        f"{'consistent' if fit['consistent'] else 'inconsistent'}"
        for fit in report["fits"]
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
