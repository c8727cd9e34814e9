"""Experiments for Agarwal & Singh (ICML 2017) -- the spec's minimal experiment set.

The paper has **no experiments**; the implementation spec proposes E1-E9 (proof note
``proofs_notes/audit/reproduce_agarwal_singh.md``).  The privacy experiments
(E1-E3, E6, E8) are the audits of :mod:`audit.papers.agarwal_singh.battery`; this module reproduces the regret
experiments E4, E5, E7 and E9 at a reduced scale (minutes) by default and at the spec's sizes with
:meth:`~FullInfoConfig.paper` etc.  Every loss sequence is a fixed array built before the learner
runs (oblivious adversary, Sec. 2); every learner is the reference implementation
(:mod:`reference.agarwal_singh`), vectorised over replicates where the reference allows it (the
replicate axis of the tree noise of Algorithm 1).

* ``ftrl`` (E4; Thm 3.1/3.4, Cor. 3.2 experts): Algorithm 1 with negative entropy on the
  simplex, strict Laplace calibration, ``η* = √(ln N/(2T))``, losses in ``[0,1]^N``.  Instances: the
  deterministic minimax-type sequence ``(1/2 − √(ln N/T), 1/2, …)``, a deterministic constant gap
  ``(0.3, 0.5, …)`` (the deterministic analogue of the ε-window test's Bernoulli gap) and,
  optionally, the follow-the-leader trap.  ``decision_sets`` adds Cor. 3.2's sphere and cube
  instances (``R = ‖x‖²``) with E4's loss models (sphere drift ``0.2u + 0.8ξ_t``; cube
  ``s_t e_{j_t}``) on a smaller grid.  Regret vs ``T`` per ``ε`` with the non-private baseline (the
  same FTRL, noise ``≡ 0``); "privacy for free" (Thm 3.1: regret ``O(√T) + Õ(1/ε)``) shown as the
  gap to the baseline divided by ``√T`` shrinking with ``T``; fits against Cor. 3.2's certified
  bound and the paper's rate in ``T``, ``1/ε`` and ``N``.
* ``ftpl`` (E5; Thm 3.5, Alg. 3): FTPL with Gaussian tree noise, strict σ (exact Gaussian
  accounting, δ = 10⁻⁵), on the unit ball (sphere drift losses) and the cube (E4's signed-basis
  losses); baseline = σ's regret branch alone.
* ``mab`` (E7; Thm 4.1, Alg. 4 + Alg. 5): EXP2 with uniform exploration behind the Laplace
  reduction, deterministic constant gap ``(0.1, 0.5, …)``, paper preset of ``η, γ``
  (the preset the spec's scaling pilot uses; ``λ = 1/ε`` is the strict scale for ``[0,1]`` losses).
  Pseudo-regret ``Σ_t <p_t, l_t> − min_i Σ_t l_t(i)``.
* ``blo`` (E9; Thm 4.5, Alg. 4 + SCRiBLe): unit ball (``ν = 1``) and cube (``ν = 2N``,
  ``‖X‖₂ = √N``), losses
  ``l_t = u/2 + s_t e_{j_t}/2`` (``u = 1/N``, ``‖l_t‖₁ ≤ 1``, ``M = 1``), strict ``λ = 2/ε``, clipped
  ``η``.  Regret of the FTRL centres ``Σ_t <l_t, x_t> − min_{‖x‖≤1} <Σ_t l_t, x>`` (same expectation
  as the played points since ``E[y_t | x_t] = x_t``, lower variance).
* ``eps_window`` (the ε-window and privacy-term tests; :class:`EpsWindowConfig`): (b) the
  ``1/ε`` law of the privacy term of Alg. 1 (experts ``N = 2``, Bernoulli gap 0.2, paired excess
  ``R̂(ε) − R̂(∞)``) inside its window ``5/η ≤ E[d₊] ≤ TΔ/4`` at ``T = 2^18`` (gated: slope in
  ``[−1.2, −0.8]``), with the spec's two counter-examples outside it (smoothing, saturation;
  reported); (c) Monte Carlo ``D_{D'}(T, N)`` of Cor. 3.2's three instances, slopes on ``ln ln T``
  and ``ln N`` against the spec's windows (gated).

Scaling fits (statsmodels, via :func:`audit.methods.scaling.fit_against_form`): ``ln R̂`` on ``ln f`` with
``f`` the theorem's own bound/rate (built with :mod:`reference.agarwal_singh.theorems`), replicates
as data, cluster-robust CIs; the fit is consistent unless the slope is significantly above 1.  The
bare exponent of the scaled variable (with its CI) is compared with the theorem's stated exponent.
``T^{2/3}``/``T^{3/4}`` rates are sometimes quoted for the bandit theorems; the paper and
:mod:`~reference.agarwal_singh.theorems` state ``√(T log T)``-type rates (Thm 4.1, Thm 4.5)
-- ``T^{2/3}`` is the *previous* best (Table 2) and is reported only for comparison.

Results survive interruption: each cell ``(instance, N, T, ε)`` is written to
``<out>/agarwal_singh/<name>_cells/<key>.json`` with the parameters that determine it, reused on rerun, and refused
(``ValueError``) if its stored parameters differ.  Seeds: one config seed; a cell's seed is the
:class:`numpy.random.SeedSequence` child ``(experiment, instance, N, T)`` (independent of ``ε``:
common random numbers across ``ε``), replicates are its children (:func:`reference.rng.child_seeds`).
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
from audit.reproduce.experiment import Experiment, Report, check_lines, failed_checks

__all__ = ["EXPERIMENTS"]


def _summary(report: Report) -> list[str]:
    """A line per fitted exponent (or slope against a window) and per check."""
    lines: list[str] = []
    for fit in report["fits"]:
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
