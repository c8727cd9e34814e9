"""Experiments for Agarwal & Singh (ICML 2017) -- the spec's minimal experiment set (issue 10).

The paper (seed ``/work/shared/seeds/004_a21566fafc49b886.txt``) has **no experiments**; spec
``/work/shared/specs/004_private_online_learning.md`` §6.2 proposes E1-E9.  The privacy experiments
(E1-E3, E6, E8) are the audits of :mod:`audit.papers.agarwal_singh.battery`; this module reproduces the regret
experiments E4, E5, E7 and E9 at a reduced scale (minutes) by default and at the spec's sizes with
:meth:`~FullInfoConfig.paper` etc.  Every loss sequence is a fixed array built before the learner
runs (oblivious adversary, spec §1.6); every learner is the reference implementation
(:mod:`reference.agarwal_singh`), vectorised over replicates where the reference allows it (the
replicate axis of the tree noise of Algorithm 1).

* ``as_ftrl`` (E4; Thm 3.1/3.4, Cor. 3.2 experts): Algorithm 1 with negative entropy on the simplex,
  strict Laplace calibration, ``η* = √(ln N/(2T))``, losses in ``[0,1]^N``.  Instances: the
  deterministic minimax-type sequence ``(1/2 − √(ln N/T), 1/2, …)`` (spec §5.3(a)), a deterministic
  constant gap ``(0.3, 0.5, …)`` (the deterministic analogue of spec §5.3(b)) and, optionally, the
  follow-the-leader trap.  ``decision_sets`` adds Cor. 3.2's sphere and cube instances (``R = ‖x‖²``)
  with spec E4's loss models (sphere drift ``0.2u + 0.8ξ_t``; cube ``s_t e_{j_t}``) on a smaller
  grid.  Regret vs ``T`` per ``ε`` with the non-private baseline (the same FTRL,
  noise ``≡ 0``); "privacy for free" (Thm 3.1: regret ``O(√T) + Õ(1/ε)``) shown as the gap to the
  baseline divided by ``√T`` shrinking with ``T``; fits against Cor. 3.2's certified bound and the
  paper's rate in ``T``, ``1/ε`` and ``N``.
* ``as_ftpl`` (E5; Thm 3.5, Alg. 3): FTPL with Gaussian tree noise, strict σ (exact Gaussian
  accounting, δ = 10⁻⁵), on the unit ball (sphere drift losses) and the cube (E4's signed-basis
  losses); baseline = σ's regret branch alone.
* ``as_mab`` (E7; Thm 4.1, Alg. 4 + Alg. 5): EXP2 with uniform exploration behind the Laplace
  reduction, deterministic constant gap ``(0.1, 0.5, …)`` (spec §5.4), paper preset of ``η, γ``
  (the preset the spec's scaling pilot uses; ``λ = 1/ε`` is the strict scale for ``[0,1]`` losses).
  Pseudo-regret ``Σ_t <p_t, l_t> − min_i Σ_t l_t(i)``.
* ``as_blo`` (E9; Thm 4.5, Alg. 4 + SCRiBLe): unit ball (``ν = 1``) and cube (``ν = 2N``,
  ``‖X‖₂ = √N``), losses
  ``l_t = u/2 + s_t e_{j_t}/2`` (``u = 1/N``, ``‖l_t‖₁ ≤ 1``, ``M = 1``), strict ``λ = 2/ε``, clipped
  ``η``.  Regret of the FTRL centres ``Σ_t <l_t, x_t> − min_{‖x‖≤1} <Σ_t l_t, x>`` (same expectation
  as the played points since ``E[y_t | x_t] = x_t``, lower variance; spec §5.5).
* ``as_eps_window`` (spec §5.3(b)-(c); :class:`EpsWindowConfig`): (b) the ``1/ε`` law of the
  privacy term of Alg. 1 (experts ``N = 2``, Bernoulli gap 0.2, paired excess ``R̂(ε) − R̂(∞)``)
  inside its window ``5/η ≤ E[d₊] ≤ TΔ/4`` at ``T = 2^18`` (gated: slope in ``[−1.2, −0.8]``), with
  the spec's two counter-examples outside it (smoothing, saturation; reported); (c) Monte Carlo
  ``D_{D'}(T, N)`` of Cor. 3.2's three instances, slopes on ``ln ln T`` and ``ln N`` against the
  spec's windows (gated).

Scaling fits (statsmodels, via :func:`audit.methods.scaling.fit_against_form`): ``ln R̂`` on ``ln f`` with
``f`` the theorem's own bound/rate (built with :mod:`reference.agarwal_singh.theorems`), replicates
as data, cluster-robust CIs; the fit is consistent unless the slope is significantly above 1.  The
bare exponent of the scaled variable (with its CI) is compared with the theorem's stated exponent.
The brief of issue 10 mentions ``T^{2/3}``/``T^{3/4}`` rates for the bandit theorems; the paper and
:mod:`~reference.agarwal_singh.theorems` state ``√(T log T)``-type rates (Thm 4.1 l. 251, Thm 4.5
l. 371) -- ``T^{2/3}`` is the *previous* best (Table 2) and is reported only for comparison.

Results survive interruption: each cell ``(instance, N, T, ε)`` is written to
``out/<name>_cells/<key>.json`` with the parameters that determine it, reused on rerun, and refused
(``ValueError``) if its stored parameters differ.  Seeds: one config seed; a cell's seed is the
:class:`numpy.random.SeedSequence` child ``(experiment, instance, N, T)`` (independent of ``ε``:
common random numbers across ``ε``), replicates are its children (:func:`reference.rng.child_seeds`).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias, cast

import matplotlib

from audit.results import SCHEMA_VERSION
from reference.files import atomic_savefig, atomic_write_text, write_json

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from tqdm.auto import tqdm

from audit.methods.scaling import fit_against_form, fit_mean_against_form
from audit.reproduce.common import CellStore, reproduction_parser, selected_experiments
from audit.results import to_jsonable
from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import Calibration
from reference.agarwal_singh.bandits import EXP2Exploration, PrivateBanditReduction, run_bandit
from reference.agarwal_singh.environments import (
    cube_signed_basis,
    experts_bernoulli,
    experts_minimax,
    ftl_trap,
    mab_constant_gap,
    mab_switching,
    regret_full_info,
    sphere_drift,
)
from reference.agarwal_singh.full_info import PrivateFTPL, PrivateFTRL, run_full_info
from reference.agarwal_singh.scrible import BallBarrier, CubeBarrier, SCRiBLe
from reference.agarwal_singh.sets import Cube, L2Ball, LossSet
from reference.agarwal_singh.theorems import (
    Cor32Parameters,
    cor32_parameters,
    cor32_rate_paper,
    cor32_regret_bound,
    lemma44_regret_bound,
    noise_width_monte_carlo,
    noise_width_upper_bound,
    thm34_regret_bound_certified,
    thm35_regret_bound_certified,
    thm35_regret_bound_paper,
    thm35_sigma_strict,
    thm41_parameters,
    thm41_rate_paper,
    thm41_regret_bound_proof_consistent,
    thm41_regret_expression_paper,
    thm45_parameters,
    thm45_rate_paper,
    thm45_regret_bound_certified,
)
from reference.noise import GaussianVectorNoise, LaplaceNoise, ZeroNoise
from reference.rng import as_generator, child_seeds, named_generators
from reference.validation import check_int_at_least

__all__ = [
    "CUBE_BIAS",
    "EPS_SLOPE_WINDOW",
    "EXPERIMENTS",
    "LNLNT_SLOPE_WINDOW",
    "N_SLOPE_WINDOWS",
    "SPHERE_DRIFT",
    "BLOConfig",
    "EpsWindowConfig",
    "FTPLConfig",
    "FullInfoConfig",
    "MABConfig",
    "blo_cell",
    "blo_constants",
    "blo_losses",
    "blo_nonprivate_eta",
    "build_parser",
    "cell_seed",
    "eps_window_bounds",
    "eps_window_cell",
    "eps_window_fit",
    "ftpl_cell",
    "ftpl_sigma",
    "ftrl_cell",
    "ftrl_set_cell",
    "full_info_losses",
    "mab_cell",
    "mab_losses",
    "mab_nonprivate_parameters",
    "main",
    "noise_width_cell",
    "predicted_excess",
    "reproduce_as_blo",
    "reproduce_as_eps_window",
    "reproduce_as_ftpl",
    "reproduce_as_ftrl",
    "reproduce_as_mab",
    "scaling_fits",
    "set_losses",
    "window_verdict",
]

EXPERIMENTS = ("as_ftrl", "as_ftpl", "as_mab", "as_blo", "as_eps_window")
"""Experiment names (positional arguments of :func:`main`; output files ``<name>.{json,png,md}``)."""

FullInfoInstance: TypeAlias = Literal["minimax", "gap", "ftl_trap"]
FullInfoSet: TypeAlias = Literal["experts", "sphere", "cube"]
"""Cor. 3.2's decision sets: simplex (negative entropy), unit ball and unit cube (``‖x‖²``)."""
BanditSet: TypeAlias = Literal["ball", "cube"]
"""Decision sets of E5 (FTPL) and E9 (SCRiBLe): the unit ℓ₂ ball and the cube ``[−1, 1]^N``."""
MABInstance: TypeAlias = Literal["constant_gap", "switching"]
_FULL_INFO_CODES: dict[str, int] = {"minimax": 0, "gap": 1, "ftl_trap": 2, "sphere": 3, "cube": 4}
_BANDIT_SET_CODES: dict[str, int] = {"ball": 0, "cube": 1}
SPHERE_DRIFT = 0.2
"""Spec E4/E5 sphere losses ``l_t = 0.2u + 0.8ξ_t``."""
CUBE_BIAS = 0.1
"""Spec E4/E5 cube losses ``l_t = s_t e_{j_t}``, ``P(s_t = +1) = 0.5 + 0.1·(−1)^{j_t}``."""
_MAB_CODES: dict[str, int] = {"constant_gap": 0, "switching": 1}
_EXPERIMENT_CODES: dict[str, int] = {
    "as_ftrl": 1,
    "as_mab": 2,
    "as_blo": 3,
    "as_ftpl": 4,
    "as_eps_window": 5,
}
INF = math.inf


# --------------------------------------------------------------------------------------------
# Configurations
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FullInfoConfig:
    """E4 (Thm 3.1/3.4, Cor. 3.2 experts): private FTRL vs ``T``, ``ε``, ``N``.

    The ``T`` curves use ``N = dim``; the ``ε`` fit uses the curves at the largest horizon; the
    ``N`` fit uses ``dims`` at ``dim_T`` and ``dim_epsilon``.  ``math.inf`` in ``epsilons`` is the
    non-private baseline.  Reduced default: ``T ≤ 2^16``, 8 runs.

    ``decision_sets``: ``"experts"`` runs ``instances`` on the simplex; ``"sphere"`` (unit ball,
    losses ``0.2u + 0.8ξ_t``) and ``"cube"`` (``l_t = s_t e_{j_t}``) run Cor. 3.2's other two
    instances with the spec's loss models on ``set_horizons`` / ``set_dims`` (reduced default
    ``T ≤ 2^14``, ``N ≤ 8``: their FTRL step costs ≈ 4× the simplex's; the paper config uses the
    experts grids).
    """

    instances: tuple[FullInfoInstance, ...] = ("minimax", "gap")
    dim: int = 2
    horizons: tuple[int, ...] = (2**8, 2**10, 2**12, 2**14, 2**16)
    epsilons: tuple[float, ...] = (0.1, 0.3, 1.0, 3.0, INF)
    dims: tuple[int, ...] = (2, 4, 8, 16)
    dim_T: int = 2**12
    dim_epsilon: float = 1.0
    runs: int = 8
    calibration: Calibration = "strict"
    seed: int = 20174
    decision_sets: tuple[FullInfoSet, ...] = ("experts", "sphere", "cube")
    set_horizons: tuple[int, ...] = (2**8, 2**10, 2**12, 2**14)
    set_dims: tuple[int, ...] = (2, 4, 8)

    @classmethod
    def paper(cls) -> FullInfoConfig:
        """Spec E4's sizes: ``T = 2^10..2^20``, ``ε ∈ {0.01, …, 10, ∞}``, ``N ∈ {2, 8, 32}``,
        200 runs (``R_env·R_alg = 10·20``; the instances here are deterministic)."""
        return cls(
            horizons=tuple(2**k for k in range(10, 21, 2)),
            epsilons=(0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, INF),
            dims=(2, 8, 32),
            dim_T=2**16,
            runs=200,
            set_horizons=tuple(2**k for k in range(10, 21, 2)),
            set_dims=(2, 8, 32),
        )


@dataclass(frozen=True)
class MABConfig:
    """E7 (Thm 4.1): private EXP2 vs ``T``, ``ε``, ``N`` (reduced default: ``T ≤ 2^16``, 6 runs)."""

    instances: tuple[MABInstance, ...] = ("constant_gap",)
    dim: int = 2
    horizons: tuple[int, ...] = (2**10, 2**12, 2**14, 2**16)
    epsilons: tuple[float, ...] = (0.5, 1.0, 2.0, INF)
    dims: tuple[int, ...] = (2, 4, 8)
    dim_T: int = 2**14
    dim_epsilon: float = 1.0
    runs: int = 6
    preset: Literal["paper", "proof_consistent"] = "paper"
    seed: int = 20177

    @classmethod
    def paper(cls) -> MABConfig:
        """Spec E7's sizes: ``N ∈ {2, 10, 50}``, ``T = 2^12..2^20``, ``ε ∈ {0.25, …, 4, ∞}``,
        100 runs (``R_env·R_alg = 5·20``), both instances."""
        return cls(
            instances=("constant_gap", "switching"),
            horizons=tuple(2**k for k in range(12, 21, 2)),
            epsilons=(0.25, 0.5, 1.0, 2.0, 4.0, INF),
            dims=(2, 10, 50),
            dim_T=2**18,
            runs=100,
        )


@dataclass(frozen=True)
class BLOConfig:
    """E9 (Thm 4.5): private SCRiBLe vs ``T``, ``ε``, ``N`` on the unit ball (``BallBarrier``,
    ``ν = 1``) and the cube ``[−1, 1]^N`` (``CubeBarrier``, ``ν = 2N``, ``‖X‖₂ = √N``), the same
    grid for both (reduced default: ``T ≤ 2^14``, 4 runs)."""

    dim: int = 2
    horizons: tuple[int, ...] = (2**10, 2**12, 2**14)
    epsilons: tuple[float, ...] = (0.5, 1.0, 2.0, INF)
    dims: tuple[int, ...] = (2, 4, 8)
    dim_T: int = 2**12
    dim_epsilon: float = 1.0
    runs: int = 4
    seed: int = 20179
    decision_sets: tuple[BanditSet, ...] = ("ball", "cube")

    @classmethod
    def paper(cls) -> BLOConfig:
        """Spec E9's sizes: ``T = 2^12..2^20``, ``ε ∈ {0.5, 1, 2, 4, ∞}``, ``N ∈ {2, 4, 8}``."""
        return cls(
            horizons=tuple(2**k for k in range(12, 21, 2)),
            epsilons=(0.5, 1.0, 2.0, 4.0, INF),
            dim_T=2**16,
            runs=20,
        )


@dataclass(frozen=True)
class FTPLConfig:
    """E5 (Thm 3.5): private FTPL (Alg. 3, Gaussian tree noise) vs ``T``, ``ε``, ``N`` on the unit
    ball (sphere drift losses) and the cube ``[−1, 1]^N`` (signed-basis losses), the same grid for
    both (reduced default: ``T ≤ 2^14``, 8 runs).  ``ε = ∞`` is the regret branch of σ alone."""

    dim: int = 2
    horizons: tuple[int, ...] = (2**8, 2**10, 2**12, 2**14)
    epsilons: tuple[float, ...] = (0.1, 1.0, 10.0, INF)
    dims: tuple[int, ...] = (2, 8, 32)
    dim_T: int = 2**12
    dim_epsilon: float = 1.0
    delta: float = 1e-5
    runs: int = 8
    seed: int = 20175
    decision_sets: tuple[BanditSet, ...] = ("ball", "cube")

    @classmethod
    def paper(cls) -> FTPLConfig:
        """Spec E5's sizes: ``T = 2^10..2^18``, ``ε ∈ {0.1, 1, 10}``, ``N ∈ {2, 8, 32}``."""
        return cls(horizons=tuple(2**k for k in range(10, 19, 2)), dim_T=2**16, runs=100)


# --------------------------------------------------------------------------------------------
# Seeds and resumable cells
# --------------------------------------------------------------------------------------------


def cell_seed(seed: int, experiment: str, instance: int, N: int, T: int) -> np.random.SeedSequence:
    """The cell's seed: child ``(experiment, instance, N, T)`` of ``SeedSequence(seed)``.

    Equal to nesting :func:`reference.rng.child_seeds` four times; it does not depend on ``ε``, so
    every ``ε`` of a cell row sees the same random numbers (paired comparison with the baseline).
    """
    key = (_EXPERIMENT_CODES[experiment], instance, N, T)
    root = np.random.SeedSequence(check_int_at_least("seed", seed, 0))
    return np.random.SeedSequence(root.entropy, spawn_key=key)


def _eps_key(epsilon: float) -> str:
    return "inf" if math.isinf(epsilon) else f"{epsilon:g}"


def _progress(total: int, name: str) -> tqdm[Any]:
    return tqdm(total=total, desc=name, disable=not sys.stderr.isatty(), leave=False)


# --------------------------------------------------------------------------------------------
# E4: private FTRL (Thm 3.1 / 3.4, Cor. 3.2)
# --------------------------------------------------------------------------------------------


def full_info_losses(instance: FullInfoInstance, N: int, T: int) -> FloatArray:
    """The oblivious loss sequence ``(T, N)`` of a full-information instance (all in ``[0,1]^N``).

    ``minimax``: :func:`~reference.agarwal_singh.environments.experts_minimax` (spec §5.3(a));
    ``gap``: constant ``(0.3, 0.5, …, 0.5)`` (deterministic version of spec §5.3(b)'s Bernoulli
    gap 0.2); ``ftl_trap``: :func:`~reference.agarwal_singh.environments.ftl_trap` (``N = 2``).
    """
    if instance == "minimax":
        return experts_minimax(N, T)
    if instance == "gap":
        return mab_constant_gap(N, T, best=0.3, other=0.5)
    if instance == "ftl_trap":
        if N != 2:
            raise ValueError(f"the ftl_trap instance needs N = 2, got {N}")
        return ftl_trap(T)
    raise ValueError(f"instance must be 'minimax', 'gap' or 'ftl_trap', got {instance!r}")


def set_losses(decision_set: FullInfoSet, N: int, T: int, rng: np.random.Generator) -> FloatArray:
    """Spec E4's loss model of Cor. 3.2's ``sphere`` / ``cube`` instance, ``(T, N)``:
    ``sphere_drift(0.2)`` (``l_t = 0.2u + 0.8ξ_t``, ``‖l_t‖₂ ≤ 1``) and
    ``cube_signed_basis(0.1)`` (``l_t = s_t e_{j_t}``, ``‖l_t‖₁ = 1``), drawn from ``rng``."""
    if decision_set == "sphere":
        return sphere_drift(N, T, SPHERE_DRIFT, rng)
    if decision_set == "cube":
        return cube_signed_basis(N, T, CUBE_BIAS, rng)
    raise ValueError(f"decision_set must be 'sphere' or 'cube', got {decision_set!r}")


def _ftrl_parameters(
    N: int,
    T: int,
    epsilon: float,
    calibration: Calibration,
    decision_set: FullInfoSet = "experts",
) -> Cor32Parameters:
    """Cor. 3.2 parameters: experts with ``Y = [0,1]^N`` (``Δ₁ = N``), sphere with
    ``Y = {‖l‖₂ ≤ 1}`` (``Δ₁ = 2√N``), cube with ``Y = {‖l‖₁ ≤ 1}`` (``Δ₁ = 2``); ``ε = ∞`` keeps
    ``η`` (which does not depend on ``ε``)."""
    eps = 1.0 if math.isinf(epsilon) else epsilon
    if decision_set == "experts":
        return cor32_parameters(
            "experts", N, T, eps, calibration=calibration, experts_losses="box01"
        )
    return cor32_parameters(decision_set, N, T, eps, calibration=calibration)


def _ftrl_bound(
    N: int,
    T: int,
    epsilon: float,
    calibration: Calibration,
    decision_set: FullInfoSet = "experts",
) -> float:
    """Certified bound (spec §3.2): Cor. 3.2's ``D_R/η + 2ηTG² + D̄_{D'}``; ``D_{D'} = 0`` at
    ``ε = ∞`` (``2√(2T D_R G²)``: experts ``2√(2T ln N)``, sphere ``2√T``, cube ``2√(NT)``)."""
    p = _ftrl_parameters(N, T, epsilon, calibration, decision_set)
    if math.isinf(epsilon):
        return thm34_regret_bound_certified(p.regularizer.D_R, T * p.G2, p.eta, 0.0)
    return cor32_regret_bound(p, T)


def _ftrl_rate(N: int, T: int, epsilon: float, decision_set: FullInfoSet = "experts") -> float:
    """The paper's Cor. 3.2 rate (constant 1); its non-private part at ``ε = ∞``
    (``√(T ln N)``, ``√T``, ``√(NT)``)."""
    if math.isinf(epsilon):
        factor = {"experts": math.log(N), "sphere": 1.0, "cube": float(N)}[decision_set]
        return math.sqrt(T * factor)
    return cor32_rate_paper(decision_set, N, T, epsilon)


def _ftrl_regret(
    losses: FloatArray,
    epsilon: float,
    runs: int,
    calibration: Calibration,
    rng: np.random.Generator,
    decision_set: FullInfoSet,
) -> dict[str, Any]:
    """Algorithm 1 with Cor. 3.2's parameters on ``losses`` ``(T, N)``: the regret of ``runs``
    replicates (the Laplace noise's leading axis), its ``λ``, ``η``, certified bound and paper
    rate.  At ``ε = ∞`` the learner is deterministic given the sequence: run once, repeated."""
    T, N = losses.shape
    p = _ftrl_parameters(N, T, epsilon, calibration, decision_set)
    if math.isinf(epsilon):
        learner = PrivateFTRL(p.regularizer, p.eta, ZeroNoise((1, N)), T, rng, loss_set=p.loss_set)
        regret = np.repeat(run_full_info(learner, losses).regret, runs)
    else:
        noise = LaplaceNoise((runs, N), p.lam)
        learner = PrivateFTRL(p.regularizer, p.eta, noise, T, rng, loss_set=p.loss_set)
        regret = run_full_info(learner, losses).regret
    return {
        "regret": regret.tolist(),
        "lam": 0.0 if math.isinf(epsilon) else p.lam,
        "eta": p.eta,
        "bound_certified": _ftrl_bound(N, T, epsilon, calibration, decision_set),
        "rate_paper": _ftrl_rate(N, T, epsilon, decision_set),
    }


def ftrl_cell(
    instance: FullInfoInstance,
    N: int,
    T: int,
    epsilon: float,
    runs: int,
    calibration: Calibration,
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Regret of Algorithm 1 on one instance, ``runs`` replicates in one vectorised run.

    The replicates are the leading axis of the Laplace node noise ``(runs, N)`` (one generator,
    ``seed``).  At ``ε = ∞`` the learner is deterministic on a fixed sequence (``ZeroNoise``), so it
    runs once and its regret is repeated.
    """
    losses = full_info_losses(instance, N, T)
    return _ftrl_regret(losses, epsilon, runs, calibration, as_generator(seed, "seed"), "experts")


def ftrl_set_cell(
    decision_set: FullInfoSet,
    N: int,
    T: int,
    epsilon: float,
    runs: int,
    calibration: Calibration,
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Regret of Algorithm 1 on Cor. 3.2's ``sphere`` or ``cube`` instance (``R = ‖x‖²``), one
    loss sequence per cell (:func:`set_losses` with the ``env`` child of ``seed``, shared by every
    ``ε``), ``runs`` replicates on the Laplace noise's leading axis (``tree`` child).  At
    ``ε = ∞`` the learner is deterministic given the sequence: run once, regret repeated."""
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    losses = set_losses(decision_set, N, T, np.random.default_rng(env_seed))
    rng = np.random.default_rng(tree_seed)
    return _ftrl_regret(losses, epsilon, runs, calibration, rng, decision_set)


# --------------------------------------------------------------------------------------------
# E5: private FTPL (Thm 3.5)
# --------------------------------------------------------------------------------------------


def ftpl_sigma(N: int, T: int, epsilon: float, delta: float) -> float:
    """Strict Thm 3.5 σ for the unit ball and ``Y = {‖l‖₂ ≤ 1}`` (``Δ₂ = 2``):
    :func:`~reference.agarwal_singh.theorems.thm35_sigma_strict`; at ``ε = ∞`` its regret branch
    ``‖Y‖₂√(T/(√N ln T))`` alone (the non-private FTPL of the same analysis)."""
    if math.isinf(epsilon):
        return math.sqrt(T / (math.sqrt(N) * math.log(T)))
    return thm35_sigma_strict(epsilon, delta, T, N, 1.0, 2.0)


def ftpl_cell(
    N: int,
    T: int,
    epsilon: float,
    delta: float,
    runs: int,
    seed: np.random.SeedSequence,
    decision_set: BanditSet = "ball",
) -> dict[str, Any]:
    """Regret of Algorithm 3 (Gaussian node noise ``σ`` of :func:`ftpl_sigma`) on the unit ball
    with spec E5's sphere drift losses ``l_t = 0.2u + 0.8ξ_t`` (``Y = {‖l‖₂ ≤ 1}``), or on the cube
    ``[−1, 1]^N`` with E4's signed-basis losses (``Y = {‖l‖₁ ≤ 1}``: the same ``‖Y‖₂ = 1`` and
    ``Δ₂ = 2``, so the same σ; ``‖X‖₂ = √N`` in the bound).  One sequence per cell (the ``env``
    child of ``seed``); replicates on the noise's leading axis (``tree`` child)."""
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    env = np.random.default_rng(env_seed)
    region: L2Ball | Cube
    if decision_set == "ball":
        losses = sphere_drift(N, T, SPHERE_DRIFT, env)
        region, loss_set, x_l2 = L2Ball(N), LossSet("l2_ball", N), 1.0
    elif decision_set == "cube":
        losses = cube_signed_basis(N, T, CUBE_BIAS, env)
        region, loss_set, x_l2 = Cube(N), LossSet("l1_ball", N), math.sqrt(N)
    else:
        raise ValueError(f"decision_set must be 'ball' or 'cube', got {decision_set!r}")
    sigma = ftpl_sigma(N, T, epsilon, delta)
    learner = PrivateFTPL(
        region,
        GaussianVectorNoise((runs, N), sigma),
        T,
        np.random.default_rng(tree_seed),
        loss_set=loss_set,
    )
    run = run_full_info(learner, losses)
    return {
        "regret": run.regret.tolist(),
        "sigma": sigma,
        "bound_certified": thm35_regret_bound_certified(sigma, N, T, x_l2, 1.0),
        "bound_paper": thm35_regret_bound_paper(sigma, N, T, x_l2, 1.0),
        "rate_paper": _ftpl_rate(N, T, epsilon, delta, x_l2),
    }


def _ftpl_rate(N: int, T: int, epsilon: float, delta: float, x_l2: float = 1.0) -> float:
    """Thm 3.5's rate with constant 1 (l. 236-237, ``‖Y‖₂ = 1``):
    ``‖X‖₂(N^{1/4}√T + (N/ε) ln^{1.5}T ln(ln T/δ))``; its first term at ``ε = ∞``."""
    lt = math.log(T)
    first = math.sqrt(math.sqrt(N)) * math.sqrt(T)
    if math.isinf(epsilon):
        return x_l2 * first
    return x_l2 * (first + N / epsilon * lt * math.sqrt(lt) * math.log(lt / delta))


# --------------------------------------------------------------------------------------------
# E7: private MAB (Thm 4.1)
# --------------------------------------------------------------------------------------------


def mab_losses(instance: MABInstance, N: int, T: int) -> FloatArray:
    """``constant_gap``: ``(0.1, 0.5, …)`` (spec §5.4); ``switching``: gap 0.1, best arm changing
    at ``T/3`` and ``2T/3`` (spec E7)."""
    if instance == "constant_gap":
        return mab_constant_gap(N, T, best=0.1, other=0.5)
    if instance == "switching":
        return mab_switching(N, T, gap=0.1, switches=(T // 3, 2 * T // 3))
    raise ValueError(f"instance must be 'constant_gap' or 'switching', got {instance!r}")


def mab_nonprivate_parameters(N: int, T: int) -> tuple[float, float]:
    """Thm 4.1's ``η = √(ln N/(2NT(1 + 2λ² ln NT)))`` and ``γ = ηN√(1 + 2λ² ln NT)`` at ``λ = 0``
    (the non-private baseline of spec §6.2: same formulas, no noise): ``(√(ln N/(2NT)), ηN)``."""
    N = check_int_at_least("N", N, 2)
    T = check_int_at_least("T", T, 1)
    eta = math.sqrt(math.log(N) / (2.0 * N * T))
    return eta, eta * N


def _mab_forms(
    N: int, T: int, epsilon: float, preset: Literal["paper", "proof_consistent"]
) -> dict[str, float]:
    """Theorem forms at one point: the paper's rate and the proof-consistent bound (Thm 4.1);
    at ``ε = ∞`` Lemma 4.4's bound for the non-private parameters (``Σ_i y_i² ≤ N``)."""
    if math.isinf(epsilon):
        eta, gamma = mab_nonprivate_parameters(N, T)
        bound = lemma44_regret_bound(gamma, T, N, eta, float(T * N))
        return {"rate_paper": bound, "bound_proof_consistent": bound, "expression_paper": bound}
    p = thm41_parameters(N, T, epsilon, preset=preset, calibration="strict")
    return {
        "rate_paper": thm41_rate_paper(N, T, epsilon),
        "bound_proof_consistent": thm41_regret_bound_proof_consistent(N, T, p.lam),
        "expression_paper": thm41_regret_expression_paper(N, T, p.eta, p.gamma, p.lam),
    }


def mab_cell(
    instance: MABInstance,
    N: int,
    T: int,
    epsilon: float,
    runs: int,
    preset: Literal["paper", "proof_consistent"],
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Pseudo-regret of Alg. 4 + Alg. 5 (Thm 4.1), ``runs`` replicates (children of ``seed``, each
    with an ``arms`` stream for EXP2 and a ``reduction`` stream for ``Z_t``)."""
    losses = mab_losses(instance, N, T)
    pseudo: list[float] = []
    realised: list[float] = []
    lam = 0.0
    for child in child_seeds(seed, 0, runs):
        streams = named_generators(child, ("arms", "reduction"))
        learner: EXP2Exploration | PrivateBanditReduction
        if math.isinf(epsilon):
            eta, gamma = mab_nonprivate_parameters(N, T)
            learner = EXP2Exploration(N, eta, gamma, streams["arms"])
        else:
            p = thm41_parameters(N, T, epsilon, preset=preset, calibration="strict")
            lam = p.lam
            inner = EXP2Exploration(N, p.eta, p.gamma, streams["arms"])
            learner = PrivateBanditReduction(inner, LaplaceNoise((N,), p.lam), streams["reduction"])
        run = run_bandit(learner, losses)
        if run.pseudo_regret is None:  # pragma: no cover - EXP2 always reports p_t
            raise RuntimeError("EXP2 did not report its sampling distributions")
        pseudo.append(run.pseudo_regret)
        realised.append(run.regret)
    return {
        "regret": pseudo,
        "realised_regret": realised,
        "lam": lam,
        **_mab_forms(N, T, epsilon, preset),
    }


# --------------------------------------------------------------------------------------------
# E9: private BLO with SCRiBLe (Thm 4.5)
# --------------------------------------------------------------------------------------------

_BLO_NU, _BLO_M, _BLO_X_L2, _BLO_Y_L1 = 1.0, 1.0, 1.0, 1.0


def blo_constants(decision_set: BanditSet, N: int) -> tuple[float, float]:
    """``(ν, ‖X‖₂)`` of Thm 4.5 for the decision set: ball ``(1, 1)``; cube ``(2N, √N)`` (the
    barrier ``−Σ ln(1 − x_i²)``).  ``M = ‖Y‖₁ = 1`` on both (``|<l, x>| ≤ ‖l‖₁‖x‖_∞ ≤ 1``)."""
    N = check_int_at_least("N", N, 1)
    if decision_set == "ball":
        return _BLO_NU, _BLO_X_L2
    if decision_set == "cube":
        return 2.0 * N, math.sqrt(N)
    raise ValueError(f"decision_set must be 'ball' or 'cube', got {decision_set!r}")


def blo_losses(N: int, T: int, rng: np.random.Generator) -> FloatArray:
    """Spec E9: ``l_t = u/2 + s_t e_{j_t}/2`` with ``u = (1/N, …)`` (``‖u‖₁ = 1``), ``j_t`` uniform,
    ``s_t = ±1`` fair; ``‖l_t‖₁ ≤ 1`` (``Y`` = unit ℓ₁ ball) and ``|<l_t, x>| ≤ 1 = M`` on the ball."""
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 1)
    j = rng.integers(0, N, size=T)
    s = np.where(rng.random(T) < 0.5, 1.0, -1.0)
    losses = np.full((T, N), 0.5 / N)
    losses[np.arange(T), j] += 0.5 * s
    return losses


def blo_nonprivate_eta(N: int, T: int, decision_set: BanditSet = "ball") -> float:
    """Thm 4.5's step at ``λ = 0``, clipped like :func:`thm45_parameters`:
    ``min(√(ν ln T/(2N²TM²)), 1/(4NM))`` (``L = 0`` without noise; ``ν`` of the set)."""
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 2)
    nu, _ = blo_constants(decision_set, N)
    eta_paper = math.sqrt(nu * math.log(T) / (2.0 * N**2 * T * _BLO_M**2))
    return min(eta_paper, 1.0 / (4.0 * N * _BLO_M))


def _blo_forms(
    N: int, T: int, epsilon: float, decision_set: BanditSet = "ball"
) -> dict[str, float | None]:
    """Thm 4.5's rate (constant 1) and certified bound with the set's ``ν, ‖X‖₂``; at ``ε = ∞``
    the rate's ``λ → 0`` limit ``√(T ln T)·√(N²νM²)`` and no certified bound (None; also where
    ``η > 1/(4N(M+L))``)."""
    nu, x_l2 = blo_constants(decision_set, N)
    if math.isinf(epsilon):
        rate = math.sqrt(T * math.log(T)) * math.sqrt(N**2 * nu * _BLO_M**2)
        return {"rate_paper": rate, "bound_certified": None}
    p = thm45_parameters(N, T, epsilon, nu=nu, M=_BLO_M, X_l2=x_l2, Y_l1=_BLO_Y_L1)
    rate = thm45_rate_paper(N, T, epsilon, nu=nu, M=_BLO_M, X_l2=x_l2, Y_l1=_BLO_Y_L1)
    bound = (
        thm45_regret_bound_certified(N, T, nu, _BLO_M, x_l2, p.lam, p.eta)
        if p.condition_holds
        else None
    )
    return {"rate_paper": rate, "bound_certified": bound}


def blo_cell(
    N: int,
    T: int,
    epsilon: float,
    runs: int,
    seed: np.random.SeedSequence,
    decision_set: BanditSet = "ball",
) -> dict[str, Any]:
    """Regret of Alg. 4 + SCRiBLe on the unit ball (``BallBarrier``) or the cube
    (``CubeBarrier``) (Thm 4.5), ``runs`` replicates.

    One loss sequence per cell (the ``env`` child of ``seed``, shared by all ``ε``); replicate ``r``
    uses child ``r`` of the ``runs`` child with streams ``learner`` and ``reduction``.  Reports the
    regret of the FTRL centres ``x_t`` (the estimator) and of the played points ``y_t``.
    """
    env_seed, runs_seed = child_seeds(seed, 0, 2)
    losses = blo_losses(N, T, np.random.default_rng(env_seed))
    nu, x_l2 = blo_constants(decision_set, N)
    region: L2Ball | Cube = L2Ball(N) if decision_set == "ball" else Cube(N)
    centre_regret: list[float] = []
    played_regret: list[float] = []
    eta, lam, clipped = blo_nonprivate_eta(N, T, decision_set), 0.0, False
    if not math.isinf(epsilon):
        p = thm45_parameters(N, T, epsilon, nu=nu, M=_BLO_M, X_l2=x_l2, Y_l1=_BLO_Y_L1)
        eta, lam, clipped = p.eta, p.lam, p.clipped
    for child in child_seeds(runs_seed, 0, runs):
        streams = named_generators(child, ("learner", "reduction"))
        barrier = BallBarrier(N) if decision_set == "ball" else CubeBarrier(N)
        inner = SCRiBLe(barrier, eta, streams["learner"])
        learner: SCRiBLe | PrivateBanditReduction = inner
        if not math.isinf(epsilon):
            learner = PrivateBanditReduction(inner, LaplaceNoise((N,), lam), streams["reduction"])
        centres = np.empty((T, N))
        played = np.empty((T, N))
        for t, loss in enumerate(losses):
            centres[t] = inner.center
            played[t] = learner.act()
            learner.update(float(loss @ played[t]))
        centre_regret.append(float(regret_full_info(centres, losses, region)))
        played_regret.append(float(regret_full_info(played, losses, region)))
    return {
        "regret": centre_regret,
        "played_regret": played_regret,
        "lam": lam,
        "eta": eta,
        "clipped": clipped,
        "nu": nu,
        **_blo_forms(N, T, epsilon, decision_set),
    }


# --------------------------------------------------------------------------------------------
# Fits
# --------------------------------------------------------------------------------------------


_TOL = 1e-6
"""Tolerance on exponent comparisons (deterministic runs give zero-width CIs, e.g. 0.4999999)."""


def scaling_fits(
    name: str,
    x: FloatArray,
    forms: dict[str, FloatArray],
    regrets: FloatArray,
    *,
    stated_exponent: float,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Fits of ``regrets`` ``(R, J)`` at points ``x`` ``(J,)``: one :func:`fit_against_form` per
    theorem form in ``forms`` (slope 1 = grows like the form; consistent unless significantly
    above 1), and the bare exponent of ``x`` with its CI (``fit_against_form`` with ``form = x``),
    compared with the theorem's stated exponent: ``consistent`` iff the lower confidence limit is
    at most the stated exponent (no evidence of faster growth), ``matches`` iff the CI contains it
    (both up to ``1e-6``).

    Returns ``{"fitted": False, "reason": …}`` when a regret is not positive (logs are fitted).
    """
    x = np.asarray(x, dtype=np.float64)
    regrets = np.asarray(regrets, dtype=np.float64)
    if np.any(regrets <= 0) or not np.all(np.isfinite(regrets)):
        return {"name": name, "fitted": False, "reason": "non-positive regret in the data"}
    bare = fit_against_form(
        name, x, x, regrets, theorem_exponent=f"{stated_exponent:g}", confidence=confidence
    )
    out: dict[str, Any] = {
        "name": name,
        "fitted": True,
        "x": x.tolist(),
        "mean_regret": regrets.mean(axis=0).tolist(),
        "exponent": bare.slope,
        "exponent_ci": [bare.ci_low, bare.ci_high],
        "stated_exponent": stated_exponent,
        "exponent_consistent": bare.ci_low <= stated_exponent + _TOL,
        "exponent_matches": bare.ci_low - _TOL <= stated_exponent <= bare.ci_high + _TOL,
        "forms": {},
    }
    for form_name, form in forms.items():
        fit = fit_against_form(
            f"{name} vs {form_name}",
            x,
            np.asarray(form, dtype=np.float64),
            regrets,
            theorem_exponent=f"{stated_exponent:g}",
            confidence=confidence,
        )
        out["forms"][form_name] = to_jsonable(fit)
    return out


def _regret_matrix(cells: list[dict[str, Any]]) -> FloatArray:
    """``(R, J)``: replicate ``r`` of cell ``j``."""
    return np.array([c["regret"] for c in cells], dtype=np.float64).T


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    arr = np.asarray(values, dtype=np.float64)
    se = float(arr.std(ddof=1) / math.sqrt(arr.size)) if arr.size > 1 else 0.0
    return float(arr.mean()), se


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


def _fit_lines(fits: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| fit | exponent [95% CI] | stated | verdict | slope vs theorem form [95% CI] | consistent |",
        "|---|---|---|---|---|---|",
    ]
    for f in fits:
        if not f["fitted"]:
            lines.append(f"| {f['name']} | not fitted ({f['reason']}) | | | | |")
            continue
        low, high = f["exponent_ci"]
        verdict = (
            "CI contains it"
            if f["exponent_matches"]
            else ("below" if f["exponent_consistent"] else "above")
        )
        forms = "; ".join(
            f"{k}: {v['slope']:.2f} [{v['ci_low']:.2f}, {v['ci_high']:.2f}]"
            for k, v in f["forms"].items()
        )
        consistent = ", ".join(
            f"{k}: {'yes' if v['consistent'] else 'NO'}" for k, v in f["forms"].items()
        )
        lines.append(
            f"| {f['name']} | {f['exponent']:.3f} [{low:.3f}, {high:.3f}] | "
            f"{f['stated_exponent']:g} | {verdict} | {forms} | {consistent} |"
        )
    return lines


def _check_lines(checks: list[dict[str, Any]]) -> list[str]:
    lines = ["| claim | here | gate |", "|---|---|---|"]
    for c in checks:
        here = "holds" if c["holds"] else "does not hold"
        lines.append(f"| {c['claim']} | {here} | {'gate' if c['gate'] else 'reported'} |")
    return lines


def _write(out: Path, name: str, report: dict[str, Any], lines: list[str]) -> None:
    write_json(out / f"{name}.json", {"schema_version": SCHEMA_VERSION, **report}, indent=2)
    atomic_write_text(out / f"{name}.md", "\n".join(lines) + "\n")


def _curve_axes(
    ax: Any, horizons: Sequence[int], curves: dict[str, list[tuple[float, float]]], title: str
) -> None:
    for label, points in curves.items():
        mean = np.array([m for m, _ in points])
        se = np.array([s for _, s in points])
        style = "k--" if label == "ε = inf" else "o-"
        ax.errorbar(horizons, mean, yerr=se, fmt=style, capsize=2, label=label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("T")
    ax.set_ylabel("regret (mean ± s.e.)")
    ax.set_title(title)
    ax.legend(fontsize=7)


# --------------------------------------------------------------------------------------------
# as_ftrl
# --------------------------------------------------------------------------------------------


def reproduce_as_ftrl(config: FullInfoConfig, out: Path) -> dict[str, Any]:
    """Run E4 and write ``as_ftrl.json``, ``as_ftrl.png`` and ``as_ftrl.md`` into ``out``."""
    check_int_at_least("runs", config.runs, 2)  # standard errors and replicate-clustered fits
    out.mkdir(parents=True, exist_ok=True)
    if len(config.horizons) < 2 or len(config.dims) < 2:
        raise ValueError("horizons and dims must have at least two values (fits)")
    uses_sets = "sphere" in config.decision_sets or "cube" in config.decision_sets
    if uses_sets and (len(config.set_horizons) < 2 or len(config.set_dims) < 2):
        raise ValueError("set_horizons and set_dims must have at least two values (fits)")
    name = "as_ftrl"
    # (group, decision set, horizons, dims): the experts instances, then the sphere and cube
    groups: list[tuple[str, FullInfoSet, tuple[int, ...], tuple[int, ...]]] = []
    if "experts" in config.decision_sets:
        groups += [(i, "experts", config.horizons, config.dims) for i in config.instances]
    groups += [
        (s, s, config.set_horizons, config.set_dims)
        for s in ("sphere", "cube")
        if s in config.decision_sets
    ]
    total = sum(len(h) * len(config.epsilons) + len(d) for _, _, h, d in groups)
    bar = _progress(total, name)
    cells = CellStore(out / f"{name}_cells", bar)

    def cell(group: str, dset: FullInfoSet, N: int, T: int, eps: float) -> dict[str, Any]:
        spec = {
            "instance": group, "N": N, "T": T, "epsilon": eps, "runs": config.runs,
            "calibration": config.calibration, "seed": config.seed,
        }  # fmt: skip
        seed = cell_seed(config.seed, name, _FULL_INFO_CODES[group], N, T)
        if dset != "experts":
            spec["losses"] = {"sphere": SPHERE_DRIFT, "cube": CUBE_BIAS}[dset]

        def compute() -> dict[str, Any]:
            if dset == "experts":
                instance = cast(FullInfoInstance, group)
                return ftrl_cell(instance, N, T, eps, config.runs, config.calibration, seed)
            return ftrl_set_cell(dset, N, T, eps, config.runs, config.calibration, seed)

        return cells.json(f"{group}_N{N}_T{T}_eps{_eps_key(eps)}", spec, compute)

    finite = [e for e in config.epsilons if not math.isinf(e)]
    results: dict[str, Any] = {}
    fits: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    for instance, dset, set_horizons, set_dims in groups:
        horizons = np.array(set_horizons, dtype=np.float64)
        grid = {
            e: [cell(instance, dset, config.dim, T, e) for T in set_horizons]
            for e in config.epsilons
        }
        dims = [cell(instance, dset, N, config.dim_T, config.dim_epsilon) for N in set_dims]
        rows = []
        for e, cs in grid.items():
            for T, c in zip(set_horizons, cs, strict=True):
                mean, se = _mean_se(c["regret"])
                rows.append({"epsilon": e, "T": T, "mean": mean, "se": se, **_cell_info(c)})
        base = (
            {T: _mean_se(c["regret"])[0] for T, c in zip(set_horizons, grid[INF], strict=True)}
            if INF in grid
            else {}
        )
        free: dict[str, list[float]] = {}
        if base:
            for e in finite:
                free[_eps_key(e)] = [
                    (_mean_se(c["regret"])[0] - base[T]) / math.sqrt(T)
                    for T, c in zip(set_horizons, grid[e], strict=True)
                ]
                ratios = free[_eps_key(e)]
                last_mean, last_se = _mean_se(grid[e][-1]["regret"])
                checks.append(
                    {
                        "claim": f"{instance}, ε = {e:g}: privacy for free (Thm 3.1) -- "
                        "(regret − non-private)/√T at the largest T is below its maximum over "
                        "smaller T, or the gap is within 2 s.e. of 0",
                        "holds": ratios[-1] < max(ratios[:-1])
                        or abs(last_mean - base[set_horizons[-1]]) <= 2.0 * last_se,
                        "gate": False,
                    }
                )
        for e, cs in grid.items():
            over = [_mean_se(c["regret"])[0] > c["bound_certified"] for c in cs]
            checks.append(
                {
                    "claim": f"{instance}, ε = {e:g}: mean regret ≤ certified Thm 3.4 / Cor. 3.2 "
                    "bound at every T",
                    "holds": not any(over),
                    "gate": True,
                }
            )
            fits.append(
                scaling_fits(
                    f"{instance} ε={e:g}: regret vs T",
                    horizons,
                    {
                        "nonprivate_part": np.array(
                            [
                                _ftrl_bound(config.dim, T, INF, config.calibration, dset)
                                for T in set_horizons
                            ]
                        ),
                        "cor32_certified": np.array([c["bound_certified"] for c in cs]),
                    },
                    _regret_matrix(cs),
                    stated_exponent=0.5,
                )
            )
        if len(finite) >= 2:
            at_max = [grid[e][-1] for e in finite]
            fits.append(
                scaling_fits(
                    f"{instance} T={set_horizons[-1]}: regret vs 1/ε",
                    1.0 / np.array(finite),
                    {
                        "cor32_certified": np.array([c["bound_certified"] for c in at_max]),
                        "cor32_rate_paper": np.array([c["rate_paper"] for c in at_max]),
                    },
                    _regret_matrix(at_max),
                    stated_exponent=1.0,
                )
            )
        fits.append(
            scaling_fits(
                f"{instance} T={config.dim_T} ε={config.dim_epsilon:g}: regret vs N",
                np.array(set_dims, dtype=np.float64),
                {
                    "cor32_certified": np.array([c["bound_certified"] for c in dims]),
                    "cor32_rate_paper": np.array([c["rate_paper"] for c in dims]),
                },
                _regret_matrix(dims),
                stated_exponent=1.0,
            )
        )
        results[instance] = {
            "decision_set": dset,
            "horizons": list(set_horizons),
            "rows": rows,
            "gap_over_sqrt_T": free,
            "dims": _dim_rows(set_dims, dims),
        }
    bar.close()
    report = {
        "experiment": name,
        "config": to_jsonable(config),
        "results": results,
        "fits": fits,
        "checks": checks,
        "cells_computed": cells.computed,
        "cells_reused": cells.reused,
    }
    _ftrl_plot(config, results, out / f"{name}.png")
    _write(out, name, report, _ftrl_markdown(config, results, fits, checks))
    return report


def _dim_rows(dims: Sequence[int], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary row per dimension: ``N``, mean, s.e. and the cell's parameters and forms."""
    rows = []
    for N, c in zip(dims, cells, strict=True):
        mean, se = _mean_se(c["regret"])
        rows.append({"N": N, "mean": mean, "se": se, **_cell_info(c)})
    return rows


def _cell_info(c: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k not in ("regret", "realised_regret", "played_regret")}


def _ftrl_plot(config: FullInfoConfig, results: dict[str, Any], path: Path) -> None:
    n = len(results)
    fig, axes = plt.subplots(2, n, figsize=(5 * n, 8), squeeze=False)
    for k, (instance, res) in enumerate(results.items()):
        horizons = res["horizons"]
        curves: dict[str, list[tuple[float, float]]] = {}
        for row in res["rows"]:
            curves.setdefault(f"ε = {_eps_key(row['epsilon'])}", []).append(
                (row["mean"], row["se"])
            )
        _curve_axes(axes[0][k], horizons, curves, f"E4 {instance}: private FTRL (Alg. 1)")
        for e, ratios in res["gap_over_sqrt_T"].items():
            axes[1][k].plot(horizons, ratios, "o-", label=f"ε = {e}")
        axes[1][k].axhline(0.0, color="k", lw=0.5)
        axes[1][k].set_xscale("log", base=2)
        axes[1][k].set_xlabel("T")
        axes[1][k].set_ylabel("(regret − non-private) / √T")
        axes[1][k].set_title("privacy for free: gap / √T → 0 (Thm 3.1)")
        axes[1][k].legend(fontsize=7)
    fig.tight_layout()
    atomic_savefig(fig, path, dpi=110)
    plt.close(fig)


def _ftrl_markdown(
    config: FullInfoConfig,
    results: dict[str, Any],
    fits: list[dict[str, Any]],
    checks: list[dict[str, Any]],
) -> list[str]:
    lines = [
        "# E4: private FTRL (Agarwal & Singh Alg. 1, Thm 3.1/3.4, Cor. 3.2 experts/sphere/cube)",
        "",
        "The paper has no experiments (spec §6.1); this is spec §6.2's E4 at a reduced scale: "
        f"N = {config.dim}, T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, "
        f"{config.runs} runs per cell, {config.calibration} Laplace calibration (λ = N·h/ε for "
        "losses in [0,1]^N), η = √(ln N/(2T)). Spec E4: T up to 2^20, 200 runs, N ∈ {2, 8, 32}; "
        "the instances here are deterministic, so the runs differ only by the tree noise.",
        "",
        f"Sphere and cube (Cor. 3.2's other instances, R = ‖x‖², {config.calibration} λ (strict: "
        "λ = Δ₁(Y)·h/ε with "
        "Δ₁ = 2√N for Y = {‖l‖₂ ≤ 1} and 2 for Y = {‖l‖₁ ≤ 1}, η* = √(D_R/(2TG²)) with "
        "D_R = 1 resp. N, G² = 1/2)): "
        + (
            f"T ∈ {list(config.set_horizons)}, N ∈ {list(config.set_dims)} for the N fit "
            "(reduced further than the experts grid: their FTRL step is ≈ 4× dearer); losses "
            f"sphere l_t = {SPHERE_DRIFT:g}u + {1 - SPHERE_DRIFT:g}ξ_t (ξ_t uniform on the sphere), "
            f"cube l_t = s_t e_(j_t), j_t uniform, P(s_t = +1) = 0.5 + {CUBE_BIAS:g}·(−1)^(j_t); one "
            "sequence per (N, T), shared by every ε. Non-private part of the certified bound: "
            "2√T (sphere), 2√(NT) (cube)."
            if {"sphere", "cube"} & set(config.decision_sets)
            else "not run (decision_sets)."
        ),
        "",
        "Paper (Thm 3.1): regret ≤ √(D_R Σ G_t²) + D_{D'} = O(√T) + Õ(1/ε) — the privacy cost is "
        "additive, so (regret − non-private)/√T → 0 ('privacy for free' once √T ≫ log²T/ε).",
        "",
        "| instance | T | ε | regret (mean ± s.e.) | non-private | (gap)/√T | certified bound |",
        "|---|---|---|---|---|---|---|",
    ]
    for instance, res in results.items():
        base = {r["T"]: r["mean"] for r in res["rows"] if math.isinf(r["epsilon"])}
        for r in res["rows"]:
            if math.isinf(r["epsilon"]):
                continue
            b = base.get(r["T"], math.nan)
            lines.append(
                f"| {instance} | {r['T']} | {r['epsilon']:g} | {r['mean']:.1f} ± {r['se']:.1f} | "
                f"{b:.1f} | {(r['mean'] - b) / math.sqrt(r['T']):.3f} | "
                f"{r['bound_certified']:.0f} |"
            )
    lines += ["", "Regret vs N (T = " + str(config.dim_T) + f", ε = {config.dim_epsilon:g}):", ""]
    lines += ["| instance | N | regret (mean ± s.e.) | certified bound |", "|---|---|---|---|"]
    for instance, res in results.items():
        for d in res["dims"]:
            lines.append(
                f"| {instance} | {d['N']} | {d['mean']:.1f} ± {d['se']:.1f} | "
                f"{d['bound_certified']:.0f} |"
            )
    lines += ["", "## Scaling fits (OLS on logs, replicates clustered; statsmodels)", ""]
    lines += _fit_lines(fits)
    lines += [
        "",
        "How to read the fits. 'exponent' is the slope of ln R̂ on ln x with its 95% CI; "
        "'stated' is the theorem's exponent: T^{1/2} (the non-private part; the privacy part is "
        "polylog in T), 1/ε for the privacy part, N^1 up to logs for the privacy part of the "
        "experts bound (N ln N log²T/ε). 'below' is consistent with an O(·) bound (the privacy "
        "term is free, or the non-private floor flattens the 1/ε fit); 'above' at these horizons "
        "is the pre-asymptotic bend from the privacy-dominated phase (regret ≈ min(d₊, TΔ) for a "
        "one-shot noise d, spec §5.3(b)) into the √T phase -- the level check (regret ≤ certified "
        "bound) is the gate. The slope against a theorem form is 1 when regret grows like the "
        "form. Against 'nonprivate_part' (2√(2T ln N), the T-carrying term of Thm 3.4) it tests "
        "privacy for free; against the complete certified bound it is above 1 whenever the "
        "regret stays far below the bound's privacy term D̄_{D'} ∝ λ√K ∝ log^{1.5}T/ε (compare "
        "the regret and bound columns): a slope test against a loose sum of terms with "
        "different rates says nothing about the bound's validity (proof note).",
        "",
        "## Checks",
        "",
    ]
    lines += _check_lines(checks)
    return lines


# --------------------------------------------------------------------------------------------
# as_mab and as_blo (same layout)
# --------------------------------------------------------------------------------------------


def _bandit_report(
    name: str,
    title: str,
    config: MABConfig | BLOConfig | FTPLConfig,
    groups: dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]],
    forms: tuple[str, ...],
    stated: tuple[float, float, float] | dict[str, tuple[float, float, float]],
    intro: list[str],
    checks: list[dict[str, Any]],
    out: Path,
    cells: CellStore,
) -> dict[str, Any]:
    """Tables, fits, plot and files shared by ``as_ftpl``, ``as_mab`` and ``as_blo``."""
    horizons = np.array(config.horizons, dtype=np.float64)
    finite = [e for e in config.epsilons if not math.isinf(e)]
    fits: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    lines = [f"# {title}", "", *intro, ""]
    lines += [
        "| instance | T | ε | regret (mean ± s.e.) | non-private | ratio | paper rate |",
        "|---|---|---|---|---|---|---|",
    ]
    fig, axes = plt.subplots(len(groups), 3, figsize=(15, 4 * len(groups)), squeeze=False)
    for k, (group, (grid, dims)) in enumerate(groups.items()):
        exps = stated[group] if isinstance(stated, dict) else stated
        rows = []
        base = (
            {T: _mean_se(c["regret"])[0] for T, c in zip(config.horizons, grid[INF], strict=True)}
            if INF in grid
            else {}
        )
        for e, cs in grid.items():
            for T, c in zip(config.horizons, cs, strict=True):
                mean, se = _mean_se(c["regret"])
                rows.append({"epsilon": e, "T": T, "mean": mean, "se": se, **_cell_info(c)})
                if not math.isinf(e):
                    b = base.get(T, math.nan)
                    lines.append(
                        f"| {group} | {T} | {e:g} | {mean:.1f} ± {se:.1f} | {b:.1f} | "
                        f"{mean / b:.2f} | {c['rate_paper']:.0f} |"
                    )
            fits.append(
                scaling_fits(
                    f"{group} ε={e:g}: regret vs T",
                    horizons,
                    {f: np.array([c[f] for c in cs]) for f in forms},
                    _regret_matrix(cs),
                    stated_exponent=exps[0],
                )
            )
        if len(finite) >= 2:
            at_max = [grid[e][-1] for e in finite]
            fits.append(
                scaling_fits(
                    f"{group} T={config.horizons[-1]}: regret vs 1/ε",
                    1.0 / np.array(finite),
                    {f: np.array([c[f] for c in at_max]) for f in forms},
                    _regret_matrix(at_max),
                    stated_exponent=exps[1],
                )
            )
        fits.append(
            scaling_fits(
                f"{group} T={config.dim_T} ε={config.dim_epsilon:g}: regret vs N",
                np.array(config.dims, dtype=np.float64),
                {f: np.array([c[f] for c in dims]) for f in forms},
                _regret_matrix(dims),
                stated_exponent=exps[2],
            )
        )
        results[group] = {
            "rows": rows,
            "dims": _dim_rows(config.dims, dims),
        }
        curves: dict[str, list[tuple[float, float]]] = {}
        for row in rows:
            curves.setdefault(f"ε = {_eps_key(row['epsilon'])}", []).append(
                (row["mean"], row["se"])
            )
        _curve_axes(axes[k][0], config.horizons, curves, f"{name} {group}: regret vs T")
        if len(finite) >= 1:
            at_max_stats = [_mean_se(grid[e][-1]["regret"]) for e in finite]
            axes[k][1].errorbar(
                1.0 / np.array(finite),
                [m for m, _ in at_max_stats],
                yerr=[s for _, s in at_max_stats],
                fmt="o-",
                capsize=2,
            )
            axes[k][1].set_xscale("log")
            axes[k][1].set_yscale("log")
            axes[k][1].set_xlabel("1/ε")
            axes[k][1].set_title(f"T = {config.horizons[-1]}")
        dim_stats = [_mean_se(c["regret"]) for c in dims]
        axes[k][2].errorbar(
            config.dims, [m for m, _ in dim_stats], yerr=[s for _, s in dim_stats], fmt="o-",
            capsize=2,
        )  # fmt: skip
        axes[k][2].set_xscale("log", base=2)
        axes[k][2].set_yscale("log")
        axes[k][2].set_xlabel("N")
        axes[k][2].set_title(f"T = {config.dim_T}, ε = {config.dim_epsilon:g}")
    fig.tight_layout()
    atomic_savefig(fig, out / f"{name}.png", dpi=110)
    plt.close(fig)
    lines += ["", "Regret vs N:", "", "| instance | N | regret (mean ± s.e.) |", "|---|---|---|"]
    for group, res in results.items():
        for d in res["dims"]:
            lines.append(f"| {group} | {d['N']} | {d['mean']:.1f} ± {d['se']:.1f} |")
    lines += ["", "## Scaling fits (OLS on logs, replicates clustered; statsmodels)", ""]
    lines += _fit_lines(fits)
    below_prev = [
        f["name"]
        for f in fits
        if f["fitted"] and "vs T" in f["name"] and f["exponent_ci"][1] < 2.0 / 3.0
    ]
    lines += [
        "",
        "How to read the fits: 'exponent' is the slope of ln R̂ on ln x with its 95% CI, "
        "compared with the theorem's stated exponent ('below' is consistent with an O(·) bound). "
        "'above' in T at these horizons is pre-asymptotic (the learner is still in its "
        "exploration/noise-dominated phase; the spec's pilots show the local T-slope falling "
        "towards 1/2 only for T ≳ 2^16). The slope against a theorem form is 1 when regret grows "
        "like the form; it exceeds 1 when the regret stays far below a loose form that is a sum "
        "of terms with different rates (compare the regret and rate columns), which says "
        "nothing about the bound's validity -- the level checks below are the gates.",
    ]
    if name != "as_ftpl":
        lines += [
            "",
            "Previous best rates (Table 2) grow like T^{2/3}; T fits whose whole CI lies below "
            "2/3: " + (", ".join(below_prev) if below_prev else "none") + ".",
        ]
    lines += ["", "## Checks", ""]
    lines += _check_lines(checks)
    report = {
        "experiment": name,
        "config": to_jsonable(config),
        "results": results,
        "fits": fits,
        "checks": checks,
        "cells_computed": cells.computed,
        "cells_reused": cells.reused,
    }
    _write(out, name, report, lines)
    return report


def _bandit_set_cells(
    config: FTPLConfig | BLOConfig, out: Path, name: str
) -> tuple[CellStore, tqdm[Any]]:
    """Check an E5/E9 grid (two or more horizons and dims, at least one decision set) and open its
    cell store under ``out`` with a progress bar over every cell (closed by the caller)."""
    check_int_at_least("runs", config.runs, 2)  # standard errors and replicate-clustered fits
    out.mkdir(parents=True, exist_ok=True)
    if len(config.horizons) < 2 or len(config.dims) < 2:
        raise ValueError("horizons and dims must have at least two values (fits)")
    if not config.decision_sets:
        raise ValueError("decision_sets must name at least one of 'ball', 'cube'")
    total = len(config.decision_sets) * (
        len(config.horizons) * len(config.epsilons) + len(config.dims)
    )
    bar = _progress(total, name)
    return CellStore(out / f"{name}_cells", bar), bar


def reproduce_as_ftpl(config: FTPLConfig, out: Path) -> dict[str, Any]:
    """Run E5 (Thm 3.5) and write ``as_ftpl.json``, ``as_ftpl.png`` and ``as_ftpl.md`` into ``out``."""
    name = "as_ftpl"
    cells, bar = _bandit_set_cells(config, out, name)

    def cell(dset: BanditSet, N: int, T: int, eps: float) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "N": N, "T": T, "epsilon": eps, "delta": config.delta, "runs": config.runs,
            "seed": config.seed,
        }  # fmt: skip
        spec["set"] = dset
        seed = cell_seed(config.seed, name, _BANDIT_SET_CODES[dset], N, T)
        return cells.json(
            f"{dset}_N{N}_T{T}_eps{_eps_key(eps)}",
            spec,
            lambda: ftpl_cell(N, T, eps, config.delta, config.runs, seed, dset),
        )

    groups: dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]] = {}
    checks: list[dict[str, Any]] = []
    for dset in config.decision_sets:
        grid = {e: [cell(dset, config.dim, T, e) for T in config.horizons] for e in config.epsilons}
        dims = [cell(dset, N, config.dim_T, config.dim_epsilon) for N in config.dims]
        groups[dset] = (grid, dims)
        checks += [
            {
                "claim": f"{dset}, ε = {e:g}: mean regret ≤ certified Thm 3.5 bound (Gaussian "
                "smoothing with σ_eff = σ√K) at every T",
                "holds": all(_mean_se(c["regret"])[0] <= c["bound_certified"] for c in cs),
                "gate": True,
            }
            for e, cs in grid.items()
        ]
        if INF in grid:
            for e in config.epsilons:
                if math.isinf(e):
                    continue
                ratio = [
                    _mean_se(p["regret"])[0] / _mean_se(q["regret"])[0]
                    for p, q in zip(grid[e], grid[INF], strict=True)
                ]
                checks.append(
                    {
                        "claim": f"{dset}, ε = {e:g}: private / non-private regret at the largest "
                        "T is at most its maximum over smaller T (privacy for free: σ's regret "
                        "branch takes over as T grows)",
                        "holds": ratio[-1] <= max(ratio[:-1]) + 1e-12,
                        "gate": False,
                    }
                )
    bar.close()
    intro = [
        "The paper has no experiments (spec §6.1); this is spec §6.2's E5 at a reduced scale: "
        f"FTPL (Alg. 3) on {' and '.join(config.decision_sets)} with Gaussian tree noise, strict "
        "σ = max(regret branch, "
        f"exact-GDP privacy branch) at δ = {config.delta:g} (replace-one Δ₂ = 2), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, ball: sphere drift losses l_t = 0.2u + 0.8ξ_t (‖X‖₂ = ‖Y‖₂ = 1); cube [−1, 1]^N: "
        f"l_t = s_t e_(j_t), P(s_t = +1) = 0.5 + {CUBE_BIAS:g}·(−1)^(j_t) (Y = unit ℓ₁ ball: same "
        "‖Y‖₂ = 1 and Δ₂ = 2, so the same σ; ‖X‖₂ = √N in the bound and rate); one sequence per "
        "(N, T); 'non-private' = the regret branch of σ alone. Spec E5: T up to 2^18. Stated N "
        "exponent of the privacy term N‖X‖₂: 1 (ball), 1.5 (cube).",
        "",
        "Paper (Thm 3.5): regret O(N^{1/4}‖X‖₂‖Y‖₂√T + (N‖X‖₂/ε) log^{1.5}T log(log T/δ)), "
        "(ε, δ)-DP (the paper says ε-DP, [A13]).",
    ]
    return _bandit_report(
        name,
        "E5: private FTPL (Agarwal & Singh Thm 3.5)",
        config,
        groups,
        ("rate_paper", "bound_certified"),
        {"ball": (0.5, 1.0, 1.0), "cube": (0.5, 1.0, 1.5)},
        intro,
        checks,
        out,
        cells,
    )


def reproduce_as_mab(config: MABConfig, out: Path) -> dict[str, Any]:
    """Run E7 (Thm 4.1) and write ``as_mab.json``, ``as_mab.png`` and ``as_mab.md`` into ``out``."""
    check_int_at_least("runs", config.runs, 2)  # standard errors and replicate-clustered fits
    out.mkdir(parents=True, exist_ok=True)
    if len(config.horizons) < 2 or len(config.dims) < 2:
        raise ValueError("horizons and dims must have at least two values (fits)")
    name = "as_mab"
    total = len(config.instances) * (len(config.horizons) * len(config.epsilons) + len(config.dims))
    bar = _progress(total, name)
    cells = CellStore(out / f"{name}_cells", bar)

    def cell(instance: MABInstance, N: int, T: int, eps: float) -> dict[str, Any]:
        spec = {
            "instance": instance, "N": N, "T": T, "epsilon": eps, "runs": config.runs,
            "preset": config.preset, "seed": config.seed,
        }  # fmt: skip
        seed = cell_seed(config.seed, name, _MAB_CODES[instance], N, T)
        return cells.json(
            f"{instance}_N{N}_T{T}_eps{_eps_key(eps)}",
            spec,
            lambda: mab_cell(instance, N, T, eps, config.runs, config.preset, seed),
        )

    groups: dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]] = {}
    checks: list[dict[str, Any]] = []
    for instance in config.instances:
        grid = {
            e: [cell(instance, config.dim, T, e) for T in config.horizons] for e in config.epsilons
        }
        dims = [cell(instance, N, config.dim_T, config.dim_epsilon) for N in config.dims]
        groups[instance] = (grid, dims)
        if INF in grid:
            for e in config.epsilons:
                if math.isinf(e):
                    continue
                r = [
                    _mean_se(p["regret"])[0] / _mean_se(q["regret"])[0]
                    for p, q in zip(grid[e], grid[INF], strict=True)
                ]
                checks.append(
                    {
                        "claim": f"{instance}, ε = {e:g}: private regret above non-private at every T "
                        "(no additive separation for bandits, paper §5 open problem)",
                        "holds": min(r) > 1.0,
                        "gate": False,
                    }
                )
    bar.close()
    intro = [
        "The paper has no experiments (spec §6.1); this is spec §6.2's E7 at a reduced scale: "
        f"EXP2 with uniform exploration behind the Laplace reduction (Alg. 4 + Alg. 5), {config.preset} "
        f"preset of η, γ, λ = 1/ε (= Δ_B/ε for [0,1] losses, strict), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, deterministic constant gap (0.1, 0.5, …) (spec §5.4). Spec E7: N ∈ {2, 10, 50}, "
        "T up to 2^20, 100 runs. Regret = pseudo-regret Σ<p_t, l_t> − min_i Σ l_t(i); 'ratio' = "
        "private / non-private (same η, γ formulas with λ = 0).",
        "",
        "Paper (Thm 4.1): regret O(√(NT log T log N)/ε); the proof-consistent bound (spec [A23]) "
        "has log(NT) in place of √(log T). Spec §5.4 pilot (paper preset, ε = 1, N = 2): "
        "R̂ = 419, 1006, 2187, 4669 at T = 2^12, 2^14, 2^16, 2^18 (±15%).",
    ]
    return _bandit_report(
        name,
        "E7: private adversarial MAB (Agarwal & Singh Thm 4.1)",
        config,
        groups,
        ("rate_paper", "bound_proof_consistent"),
        (0.5, 1.0, 0.5),
        intro,
        checks,
        out,
        cells,
    )


def reproduce_as_blo(config: BLOConfig, out: Path) -> dict[str, Any]:
    """Run E9 (Thm 4.5) and write ``as_blo.json``, ``as_blo.png`` and ``as_blo.md`` into ``out``."""
    name = "as_blo"
    cells, bar = _bandit_set_cells(config, out, name)

    def cell(dset: BanditSet, N: int, T: int, eps: float) -> dict[str, Any]:
        spec: dict[str, Any] = {
            "N": N, "T": T, "epsilon": eps, "runs": config.runs, "seed": config.seed,
        }  # fmt: skip
        spec["set"] = dset
        seed = cell_seed(config.seed, name, _BANDIT_SET_CODES[dset], N, T)
        return cells.json(
            f"{dset}_N{N}_T{T}_eps{_eps_key(eps)}",
            spec,
            lambda: blo_cell(N, T, eps, config.runs, seed, dset),
        )

    groups: dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]] = {}
    checks: list[dict[str, Any]] = []
    for dset in config.decision_sets:
        grid = {e: [cell(dset, config.dim, T, e) for T in config.horizons] for e in config.epsilons}
        dims = [cell(dset, N, config.dim_T, config.dim_epsilon) for N in config.dims]
        groups[dset] = (grid, dims)
        for e, cs in grid.items():
            with_bound = [c for c in cs if c.get("bound_certified") is not None]
            if with_bound:
                checks.append(
                    {
                        "claim": f"{dset}, ε = {e:g}: mean regret ≤ certified Thm 4.5 bound "
                        "(spec §3.10) where η ≤ 1/(4N(M+L))",
                        "holds": all(
                            _mean_se(c["regret"])[0] <= c["bound_certified"] for c in with_bound
                        ),
                        "gate": True,
                    }
                )
    bar.close()
    intro = [
        "The paper has no experiments (spec §6.1); this is spec §6.2's E9 at a reduced scale: "
        f"SCRiBLe on {' and '.join(config.decision_sets)} (ball: ν = 1, ‖X‖₂ = 1; cube "
        "[−1, 1]^N: ν = 2N, ‖X‖₂ = √N; M = ‖Y‖₁ = 1 on both) behind the Laplace reduction, "
        "strict λ = 2‖Y‖₁/ε, "
        f"η = min(paper η, 1/(4N(M+L))) (clipped, [A25]), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, losses l_t = u/2 + s_t e_{j_t}/2 (one sequence per (N, T)). Regret of the FTRL "
        "centres (spec §5.5 estimator); the same losses on both sets. Spec E9: T up to 2^20, "
        "N ∈ {2, 4, 8}. Stated N exponent: the envelope N^{3/2}√ν (ball 1.5, cube 2).",
        "",
        "Paper (Thm 4.5): regret O(√(T log T)·√(N²ν(M² + N‖X‖²‖Y‖₁²/ε²))). Spec §5.5 pilot "
        "(N = 2, ε = 1, 8 runs): R̂ = 839, 1571, 2650 at T = 2^12, 2^14, 2^16 (slope 0.415, "
        "η clipped throughout).",
    ]
    return _bandit_report(
        name,
        "E9: private bandit linear optimisation (Agarwal & Singh Thm 4.5)",
        config,
        groups,
        ("rate_paper",),
        {"ball": (0.5, 1.0, 1.5), "cube": (0.5, 1.0, 2.0)},
        intro,
        checks,
        out,
        cells,
    )


# --------------------------------------------------------------------------------------------
# as_eps_window: spec §5.3(b) (ε-exponent inside its window) and §5.3(c) (D_{D'} in T and N)
# --------------------------------------------------------------------------------------------

NoiseSet: TypeAlias = Literal["experts", "sphere", "cube"]
_NOISE_SET_CODES: dict[str, int] = {"experts": 1000, "sphere": 1001, "cube": 1002}

EPS_SLOPE_WINDOW = (-1.2, -0.8)
"""Spec §5.3(b): pass window of the slope of ``ln(R̂(ε) − R̂(∞))`` on ``ln ε`` inside its window."""
LNLNT_SLOPE_WINDOW = (1.35, 1.65)
"""Spec §5.3(c): pass window of the slope of ``ln D̂_{D'}`` on ``ln ln T`` (expected 1.5)."""
N_SLOPE_WINDOWS: dict[str, tuple[float, float]] = {
    "experts": (1.3, 1.6),
    "sphere": (0.9, 1.15),
    "cube": (0.9, 1.15),
}
"""Spec §5.3(c): pass windows of the slope of ``ln D̂_{D'}`` on ``ln N`` (N = 2..32, T = 2^16)."""

_PILOT_WINDOW_EXCESS = {0.005: 14414.0, 0.0075: 10790.0, 0.01: 7917.0, 0.015: 5250.0}
_PILOT_SLOPES = {"window": -0.93, "smoothing": -1.38, "saturation": -0.70}
_PILOT_NOISE = {
    "T_slope": {"experts": 1.498, "sphere": 1.502, "cube": 1.509},
    "N_slope": {"experts": 1.461, "sphere": 1.040, "cube": 1.001},
    "D_N8_T65536": {"experts": 1436.0, "sphere": 973.0, "cube": 796.0},
}
"""Spec §5.3(b)-(c) pilot values (paper-ln preset, ±15% reference values, not paper numbers)."""


@dataclass(frozen=True)
class EpsWindowConfig:
    """Spec §5.3(b): the ``1/ε`` law of the privacy term holds only inside a window; §5.3(c): the
    ``T``- and ``N``-dependence of the privacy term ``D_{D'}`` of Thm 3.4.

    (b) Experts ``N = 2``, i.i.d. losses ``l_t(i) ~ Bern(means[i])`` (gap ``Δ = 0.2``; one fixed
    sequence per ``(sequence, T)``, shared by every ``ε``), Algorithm 1 with ``η* = √(ln 2/(2T))``;
    the excess ``R̂(ε) − R̂(∞)`` is paired (same sequence; the non-private run is deterministic given
    it).  ``(horizon, epsilons)`` is the spec's design inside the window ``5/η ≤ E[d₊] ≤ TΔ/4``;
    ``smoothing_epsilons`` / ``saturation_epsilons`` at ``counter_horizon`` are its two
    counter-examples (reported, not gated).  (c) Monte Carlo ``D_{D'} = E[h_X(Z) + h_X(−Z)]`` with
    the reference sampler (:func:`~reference.agarwal_singh.theorems.noise_width_monte_carlo`),
    ``noise_draws`` draws split in ``noise_batches`` batches (the replicates of the fit).

    ``calibration = "paper"`` (``λ = ‖Y‖₁ ln T/ε``) is the preset of the spec's pilots, so the
    numbers compare with them; the strict ``λ = Δ₁(Y)·h/ε`` is a fixed multiple of it at powers of
    two (``h = log₂ T``), which moves the window in ``ε`` but leaves every slope unchanged.
    Reduced default: the spec's design with 200 runs on one sequence (the runs share the
    learner's vectorised loop, so they cost little; the horizon sets the time).
    """

    horizon: int = 2**18
    epsilons: tuple[float, ...] = (0.005, 0.0075, 0.01, 0.015)
    counter_horizon: int = 2**16
    smoothing_epsilons: tuple[float, ...] = (0.03, 0.1, 0.3)
    saturation_epsilons: tuple[float, ...] = (0.01, 0.0173, 0.03)
    means: tuple[float, float] = (0.3, 0.5)
    runs: int = 200
    sequences: int = 1
    calibration: Calibration = "paper"
    noise_sets: tuple[NoiseSet, ...] = ("experts", "sphere", "cube")
    noise_horizons: tuple[int, ...] = tuple(2**k for k in range(10, 21))
    noise_dim: int = 8
    noise_dims: tuple[int, ...] = (2, 4, 8, 16, 32)
    noise_dim_T: int = 2**16
    noise_epsilon: float = 1.0
    noise_draws: int = 20_000
    noise_batches: int = 20
    seed: int = 20178

    @classmethod
    def paper(cls) -> EpsWindowConfig:
        """Spec E4's ``R_env·R_alg = 10·20`` runs, denser counter-example grids, 1e5 draws."""
        return cls(
            runs=20,
            sequences=10,
            smoothing_epsilons=(0.03, 0.05, 0.1, 0.2, 0.3),
            saturation_epsilons=(0.01, 0.015, 0.02, 0.03),
            noise_draws=100_000,
        )


def eps_window_bounds(T: int, gap: float) -> tuple[float, float]:
    """The window of spec §5.3(b) for ``E[d₊]``: ``(5/η, TΔ/4)`` with ``η = √(ln 2/(2T))``."""
    eta = math.sqrt(math.log(2.0) / (2.0 * check_int_at_least("T", T, 2)))
    return 5.0 / eta, T * gap / 4.0


def predicted_excess(lam: float, K: int) -> float:
    """``E[d₊] = 2λ√K/√(2π)`` (spec §5.3(b); normal approximation of ``d = Z(2) − Z(1)``, a sum of
    ``2K`` i.i.d. ``Lap(λ)``)."""
    return 2.0 * lam * math.sqrt(K) / math.sqrt(2.0 * math.pi)


def eps_window_cell(
    T: int,
    epsilon: float,
    means: tuple[float, float],
    runs: int,
    calibration: Calibration,
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Regret of Algorithm 1 (experts ``N = 2``, ``Y = [0,1]²``) on one Bernoulli sequence (the
    ``env`` child of ``seed``), ``runs`` replicates on the tree noise's leading axis (``tree``
    child; ``LaplaceNoise`` scales one standard draw by ``λ``, so all ``ε`` see the same draws up
    to the factor ``λ ∝ 1/ε``).  At ``ε = ∞`` the run is deterministic and repeated."""
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    losses = experts_bernoulli(
        np.asarray(means, dtype=np.float64), T, np.random.default_rng(env_seed)
    )
    p = _ftrl_parameters(2, T, epsilon, calibration)
    rng = np.random.default_rng(tree_seed)
    if math.isinf(epsilon):
        learner = PrivateFTRL(p.regularizer, p.eta, ZeroNoise((1, 2)), T, rng, loss_set=p.loss_set)
        regret = np.repeat(run_full_info(learner, losses).regret, runs)
    else:
        noise = LaplaceNoise((runs, 2), p.lam)
        learner = PrivateFTRL(p.regularizer, p.eta, noise, T, rng, loss_set=p.loss_set)
        regret = run_full_info(learner, losses).regret
    lam = 0.0 if math.isinf(epsilon) else p.lam
    return {
        "regret": regret.tolist(),
        "lam": lam,
        "eta": p.eta,
        "K": p.K,
        "realised_gap": float(losses[:, 1].sum() - losses[:, 0].sum()) / T,
        "predicted_excess": predicted_excess(lam, p.K),
    }


def noise_width_cell(
    noise_set: NoiseSet,
    N: int,
    T: int,
    epsilon: float,
    calibration: Calibration,
    draws: int,
    batches: int,
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Monte Carlo ``D_{D'}`` of Cor. 3.2's instance ``noise_set`` (its ``λ``, ``K`` and decision
    set, Laplace node law): ``batches`` batch means of ``draws // batches`` draws each, by
    :func:`~reference.agarwal_singh.theorems.noise_width_monte_carlo` (one generator, ``seed``)."""
    batches = check_int_at_least("batches", batches, 2)
    per = check_int_at_least("draws // batches", draws // batches, 2)
    p = cor32_parameters(noise_set, N, T, epsilon, calibration=calibration)
    rng = as_generator(seed, "seed")
    noise = LaplaceNoise((N,), p.lam)
    widths = [
        noise_width_monte_carlo(p.regularizer.decision_set, noise, p.K, rng, n=per)[0]
        for _ in range(batches)
    ]
    return {
        "widths": widths,
        "lam": p.lam,
        "K": p.K,
        "bound_closed_form": noise_width_upper_bound(noise_set, N, p.K, p.lam),
    }


def window_verdict(
    slope: float, low: float, high: float, window: tuple[float, float]
) -> dict[str, Any]:
    """Spec §5.1's rule for scaling fits: pass iff the slope's CI overlaps the stated window; the
    point estimate's position and whether the whole CI lies inside are reported as well."""
    lo_w, hi_w = window
    return {
        "slope": slope,
        "ci": [low, high],
        "window": list(window),
        "point_in_window": lo_w <= slope <= hi_w,
        "ci_inside_window": lo_w <= low and high <= hi_w,
        "passes": low <= hi_w and high >= lo_w,
    }


def eps_window_fit(
    name: str,
    epsilons: Sequence[float],
    excess: FloatArray,
    window: tuple[float, float] = EPS_SLOPE_WINDOW,
    confidence: float = 0.95,
) -> dict[str, Any]:
    """Slope of ``ln E[excess]`` on ``ln ε`` from paired excesses ``(R, J)`` (single runs may be
    negative): :func:`audit.methods.scaling.fit_mean_against_form` (log-link GLM, clustered by run) with
    ``form = ε``, and :func:`window_verdict` against ``window``.  A point whose mean excess is not
    positive makes the fit ``{"fitted": False, …}``."""
    eps = np.asarray(epsilons, dtype=np.float64)
    try:
        fit = fit_mean_against_form(
            name, eps, eps, np.asarray(excess, dtype=np.float64), theorem_exponent="-1",
            confidence=confidence,
        )  # fmt: skip
    except ValueError as err:
        return {"name": name, "fitted": False, "reason": str(err)}
    return {
        "name": name,
        "fitted": True,
        "epsilons": eps.tolist(),
        "mean_excess": list(fit.mean_values),
        "runs": fit.replicates,
        **window_verdict(fit.slope, fit.ci_low, fit.ci_high, window),
    }


def _noise_fit(
    name: str, x: FloatArray, widths: FloatArray, window: tuple[float, float]
) -> dict[str, Any]:
    """Slope of ``ln D̂`` on ``ln x`` (batches as replicates) with its verdict against ``window``."""
    fit = fit_against_form(name, x, x, widths, theorem_exponent="window")
    return {
        "name": name,
        "fitted": True,
        **window_verdict(fit.slope, fit.ci_low, fit.ci_high, window),
    }


def reproduce_as_eps_window(config: EpsWindowConfig, out: Path) -> dict[str, Any]:
    """Run spec §5.3(b)-(c) and write ``as_eps_window.{json,png,md}`` into ``out``."""
    check_int_at_least("runs", config.runs, 2)  # standard errors of the widths
    out.mkdir(parents=True, exist_ok=True)
    for label, grid in (
        ("epsilons", config.epsilons),
        ("smoothing_epsilons", config.smoothing_epsilons),
        ("saturation_epsilons", config.saturation_epsilons),
        ("noise_horizons", config.noise_horizons),
        ("noise_dims", config.noise_dims),
    ):
        if len(set(grid)) < 2:
            raise ValueError(f"{label} must hold at least two distinct values (fits)")
    name = "as_eps_window"
    regimes: dict[str, tuple[int, tuple[float, ...]]] = {
        "window": (config.horizon, config.epsilons),
        "smoothing": (config.counter_horizon, config.smoothing_epsilons),
        "saturation": (config.counter_horizon, config.saturation_epsilons),
    }
    run_cells = config.sequences * sum(len(e) + 1 for _, e in regimes.values())
    noise_cells = len(config.noise_sets) * (len(config.noise_horizons) + len(config.noise_dims))
    bar = _progress(run_cells + noise_cells, name)
    cells = CellStore(out / f"{name}_cells", bar)
    gap = config.means[1] - config.means[0]

    def run_cell(sequence: int, T: int, eps: float) -> dict[str, Any]:
        spec = {
            "sequence": sequence, "T": T, "epsilon": eps, "means": config.means,
            "runs": config.runs, "calibration": config.calibration, "seed": config.seed,
        }  # fmt: skip
        seed = cell_seed(config.seed, name, sequence, 2, T)
        return cells.json(
            f"bern_seq{sequence}_T{T}_eps{_eps_key(eps)}",
            spec,
            lambda: eps_window_cell(T, eps, config.means, config.runs, config.calibration, seed),
        )

    def width_cell(noise_set: NoiseSet, N: int, T: int) -> dict[str, Any]:
        spec = {
            "set": noise_set, "N": N, "T": T, "epsilon": config.noise_epsilon,
            "calibration": config.calibration, "draws": config.noise_draws,
            "batches": config.noise_batches, "seed": config.seed,
        }  # fmt: skip
        seed = cell_seed(config.seed, name, _NOISE_SET_CODES[noise_set], N, T)
        return cells.json(
            f"width_{noise_set}_N{N}_T{T}",
            spec,
            lambda: noise_width_cell(
                noise_set, N, T, config.noise_epsilon, config.calibration, config.noise_draws,
                config.noise_batches, seed,
            ),
        )  # fmt: skip

    results: dict[str, Any] = {"regimes": {}, "noise": {}}
    fits: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    for regime, (T, epsilons) in regimes.items():
        low_w, high_w = eps_window_bounds(T, gap)
        columns: list[FloatArray] = []
        rows = []
        for eps in epsilons:
            paired = []
            for s in range(config.sequences):
                base = np.asarray(run_cell(s, T, INF)["regret"], dtype=np.float64)
                paired.append(np.asarray(run_cell(s, T, eps)["regret"]) - base)
            excess = np.concatenate(paired)
            columns.append(excess)
            c = run_cell(0, T, eps)
            mean, se = _mean_se(excess.tolist())
            rows.append(
                {
                    "epsilon": eps,
                    "T": T,
                    "excess_mean": mean,
                    "excess_se": se,
                    "lam": c["lam"],
                    "K": c["K"],
                    "predicted_excess": c["predicted_excess"],
                    "in_window": low_w <= c["predicted_excess"] <= high_w,
                    "pilot_excess": _PILOT_WINDOW_EXCESS.get(eps) if regime == "window" else None,
                }
            )
        fit = eps_window_fit(f"{regime} T={T}: excess vs ε", epsilons, np.column_stack(columns))
        fit["regime"] = regime
        fit["pilot_slope"] = _PILOT_SLOPES[regime]
        fits.append(fit)
        results["regimes"][regime] = {
            "T": T, "window_low": low_w, "window_high": high_w, "gap": gap, "rows": rows,
        }  # fmt: skip
        if regime == "window":
            checks.append(
                {
                    "claim": f"§5.3(b) window (T = {T}, ε ∈ {list(epsilons)}): slope of "
                    "ln(R̂(ε) − R̂(∞)) on ln ε has its 95% CI overlapping [−1.2, −0.8]",
                    "holds": bool(fit["fitted"] and fit["passes"]),
                    "gate": True,
                }
            )
        else:
            checks.append(
                {
                    "claim": f"§5.3(b) counter-example '{regime}' (T = {T}, ε ∈ {list(epsilons)}): "
                    "slope outside [−1.2, −0.8] (the window matters)",
                    "holds": bool(fit["fitted"] and not fit["point_in_window"]),
                    "gate": False,
                }
            )
    for noise_set in config.noise_sets:
        by_T = [width_cell(noise_set, config.noise_dim, T) for T in config.noise_horizons]
        by_N = [width_cell(noise_set, N, config.noise_dim_T) for N in config.noise_dims]
        log_T = np.log(np.array(config.noise_horizons, dtype=np.float64))
        t_fit = _noise_fit(
            f"{noise_set} N={config.noise_dim}: D_D' vs ln T",
            log_T,
            np.array([c["widths"] for c in by_T]).T,
            LNLNT_SLOPE_WINDOW,
        )
        n_fit = _noise_fit(
            f"{noise_set} T={config.noise_dim_T}: D_D' vs N",
            np.array(config.noise_dims, dtype=np.float64),
            np.array([c["widths"] for c in by_N]).T,
            N_SLOPE_WINDOWS[noise_set],
        )
        t_fit["pilot_slope"] = _PILOT_NOISE["T_slope"][noise_set]
        n_fit["pilot_slope"] = _PILOT_NOISE["N_slope"][noise_set]
        fits += [t_fit, n_fit]
        for f, what in ((t_fit, "ln ln T"), (n_fit, "ln N")):
            checks.append(
                {
                    "claim": f"§5.3(c) {noise_set}: slope of ln D̂_D' on {what} has its 95% CI "
                    f"overlapping [{f['window'][0]:g}, {f['window'][1]:g}]",
                    "holds": bool(f["passes"]),
                    "gate": True,
                }
            )

        def summary(cs: list[dict[str, Any]]) -> list[dict[str, float]]:
            return [
                {"mean": float(np.mean(c["widths"])),
                 "se": float(np.std(c["widths"], ddof=1) / math.sqrt(len(c["widths"]))),
                 "lam": c["lam"], "K": c["K"], "bound_closed_form": c["bound_closed_form"]}
                for c in cs
            ]  # fmt: skip

        results["noise"][noise_set] = {"by_T": summary(by_T), "by_N": summary(by_N)}
    bar.close()
    report = {
        "experiment": name,
        "config": to_jsonable(config),
        "results": results,
        "fits": fits,
        "checks": checks,
        "cells_computed": cells.computed,
        "cells_reused": cells.reused,
    }
    _eps_window_plot(config, results, fits, out / f"{name}.png")
    _write(out, name, report, _eps_window_markdown(config, results, fits, checks))
    return report


def _eps_window_plot(
    config: EpsWindowConfig, results: dict[str, Any], fits: list[dict[str, Any]], path: Path
) -> None:
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    slopes = {f["regime"]: f for f in fits if "regime" in f}
    for regime, res in results["regimes"].items():
        eps = np.array([r["epsilon"] for r in res["rows"]])
        mean = np.array([r["excess_mean"] for r in res["rows"]])
        se = np.array([r["excess_se"] for r in res["rows"]])
        f = slopes[regime]
        label = f"{regime} (T = 2^{int(math.log2(res['T']))})"
        if f["fitted"]:
            label += f": slope {f['slope']:.2f}"
        line = axes[0].errorbar(
            eps, np.maximum(mean, 1e-9), yerr=se, fmt="o-", capsize=2, label=label
        )
        pred = [r["predicted_excess"] for r in res["rows"]]
        axes[0].plot(eps, pred, "--", color=line[0].get_color(), lw=0.8)
    axes[0].set_xscale("log")
    axes[0].set_yscale("log")
    axes[0].set_xlabel("ε")
    axes[0].set_ylabel("R̂(ε) − R̂(∞) (mean ± s.e.); dashed: E[d₊]")
    axes[0].set_title("§5.3(b): 1/ε only inside 5/η ≤ E[d₊] ≤ TΔ/4")
    axes[0].legend(fontsize=7)
    for noise_set, res in results["noise"].items():
        T = np.array(config.noise_horizons, dtype=np.float64)
        axes[1].errorbar(
            np.log(T), [r["mean"] for r in res["by_T"]], yerr=[r["se"] for r in res["by_T"]],
            fmt="o-", capsize=2, label=noise_set,
        )  # fmt: skip
        axes[2].errorbar(
            config.noise_dims, [r["mean"] for r in res["by_N"]],
            yerr=[r["se"] for r in res["by_N"]], fmt="o-", capsize=2, label=noise_set,
        )  # fmt: skip
    axes[1].set_xscale("log")
    axes[1].set_yscale("log")
    axes[1].set_xlabel("ln T")
    axes[1].set_ylabel("D̂_D' (Monte Carlo)")
    axes[1].set_title(
        f"§5.3(c): D_D' vs ln T (N = {config.noise_dim}, ε = {config.noise_epsilon:g})"
    )
    axes[1].legend(fontsize=7)
    axes[2].set_xscale("log", base=2)
    axes[2].set_yscale("log")
    axes[2].set_xlabel("N")
    axes[2].set_title(f"§5.3(c): D_D' vs N (T = {config.noise_dim_T})")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    atomic_savefig(fig, path, dpi=110)
    plt.close(fig)


def _verdict_cell(f: dict[str, Any]) -> str:
    if not f["fitted"]:
        return f"not fitted ({f['reason']})"
    low, high = f["ci"]
    where = "inside" if f["ci_inside_window"] else ("overlaps" if f["passes"] else "outside")
    return (
        f"{f['slope']:.3f} [{low:.3f}, {high:.3f}] | [{f['window'][0]:g}, {f['window'][1]:g}] | "
        f"CI {where} | {f['pilot_slope']:g}"
    )


def _eps_window_markdown(
    config: EpsWindowConfig,
    results: dict[str, Any],
    fits: list[dict[str, Any]],
    checks: list[dict[str, Any]],
) -> list[str]:
    lo_m, hi_m = config.means
    lines = [
        "# Spec §5.3(b)-(c): the 1/ε window of the privacy term, and D_{D'} in T and N",
        "",
        "The paper has no experiments (spec §6.1). Thm 3.1 says the privacy cost of Algorithm 1 is "
        "an additive Õ(1/ε) term. Spec §5.3(b) tests its ε-exponent where it can be seen: experts "
        f"N = 2, i.i.d. losses Bern({lo_m:g}) vs Bern({hi_m:g}) (gap Δ = {hi_m - lo_m:g}), "
        f"{config.calibration} Laplace calibration (λ = 2 ln T/ε: the preset of the spec's pilots), "
        f"η = √(ln 2/(2T)), {config.runs} runs × {config.sequences} loss sequence(s); "
        "excess = R̂(ε) − R̂(∞) paired on the same sequence. The one-shot noise d = Z(2) − Z(1) makes "
        "FTRL follow the wrong expert until tΔ ≈ d, so excess ≈ E[min(d₊, TΔ)] with "
        "E[d₊] = 2λ√K/√(2π) ∝ 1/ε — but only inside the window 5/η ≤ E[d₊] ≤ TΔ/4: below it the "
        "softmax smooths the noise (excess ∝ η·E[d²], slope → −2), above it the excess saturates "
        "at ≈ TΔ (slope → 0).",
        "",
        "Pass criterion (spec §5.3(b) with §5.1's rule): the slope of ln(excess) on ln ε over the "
        f"design (spec: T = 2^18, ε ∈ {{0.005, 0.0075, 0.01, 0.015}}; here T = {config.horizon}, "
        f"ε ∈ {list(config.epsilons)}) has its 95% CI overlapping [−1.2, −0.8]. The fit is statsmodels' log-link GLM on the paired excesses "
        "(`audit.methods.scaling.fit_mean_against_form`, runs as clusters): single excesses can be "
        "negative. The two counter-examples of the spec (T = 2^16, smoothing ε ∈ {0.03, …, 0.3}, "
        f"saturation ε ∈ {{0.01, …, 0.03}}; here T = {config.counter_horizon}) are run to show the "
        "window matters; they are reported, not gated.",
        "",
        "| regime | T | window for E[d₊] | ε | λ | E[d₊] predicted | in window | excess (mean ± s.e.) "
        "| spec pilot |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for regime, res in results["regimes"].items():
        for r in res["rows"]:
            pilot = "" if r["pilot_excess"] is None else f"{r['pilot_excess']:.0f}"
            lines.append(
                f"| {regime} | 2^{int(math.log2(res['T']))} | [{res['window_low']:.0f}, "
                f"{res['window_high']:.0f}] | {r['epsilon']:g} | {r['lam']:.0f} | "
                f"{r['predicted_excess']:.0f} | {'yes' if r['in_window'] else 'no'} | "
                f"{r['excess_mean']:.0f} ± {r['excess_se']:.0f} | {pilot} |"
            )
    lines += [
        "",
        "| fit | slope [95% CI] | window | verdict | spec pilot |",
        "|---|---|---|---|---|",
    ]
    for f in fits:
        if "regime" in f:
            lines.append(f"| {f['name']} | {_verdict_cell(f)} |")
    outside = [
        f"ε = {r['epsilon']:g}" for r in results["regimes"]["window"]["rows"] if not r["in_window"]
    ]
    lines += [
        "",
        "Reading: design points whose predicted E[d₊] lies outside the window: "
        + (", ".join(outside) if outside else "none")
        + " (in the spec's design ε = 0.005 is above TΔ/4, so its smallest ε bends the curve "
        "towards saturation; the spec's pilot slope over the four points is −0.93). In the "
        "smoothing regime the excess falls faster than 1/ε (η·E[d²] ∝ 1/ε²), in the saturation "
        "regime slower (the cap TΔ): a 1/ε fit outside the window is not a test of Thm 3.1.",
        "",
        "## §5.3(c): the privacy term D_{D'} of the bound in T and N",
        "",
        "The regret excess is not monotone in T (privacy for free), so the spec tests the bound's "
        "privacy term instead: D_{D'} = E[h_X(Z) + h_X(−Z)] by Monte Carlo with the reference "
        f"sampler, {config.noise_draws} draws in {config.noise_batches} batches (the replicates of "
        f"the fit), Cor. 3.2's λ ({config.calibration}), ε = {config.noise_epsilon:g}. Expected: "
        "D_{D'} ∝ λ√K ⇒ slope 1.5 on ln ln T (paper envelope log²T: 2); N-slopes ≈ 1.46 (experts: "
        "λ ∝ N times the growth of E[max − min]), 1.04 (sphere), 1.00 (cube).",
        "",
        "| fit | slope [95% CI] | window | verdict | spec pilot |",
        "|---|---|---|---|---|",
    ]
    for f in fits:
        if "regime" not in f:
            lines.append(f"| {f['name']} | {_verdict_cell(f)} |")
    lines += ["", "| set | T | N | D̂_D' (mean ± s.e.) | closed-form bound | spec pilot |"]
    lines += ["|---|---|---|---|---|---|"]
    for noise_set, res in results["noise"].items():
        for T, r in zip(config.noise_horizons, res["by_T"], strict=True):
            pilot = (
                f"{_PILOT_NOISE['D_N8_T65536'][noise_set]:.0f}"
                if (T, config.noise_dim, config.noise_epsilon) == (2**16, 8, 1.0)
                and config.calibration == "paper"
                else ""
            )
            lines.append(
                f"| {noise_set} | 2^{int(math.log2(T))} | {config.noise_dim} | "
                f"{r['mean']:.1f} ± {r['se']:.1f} | {r['bound_closed_form']:.0f} | {pilot} |"
            )
        for N, r in zip(config.noise_dims, res["by_N"], strict=True):
            if config.noise_dim == N and config.noise_dim_T in config.noise_horizons:
                continue  # the same cell as the T row above
            lines.append(
                f"| {noise_set} | 2^{int(math.log2(config.noise_dim_T))} | {N} | "
                f"{r['mean']:.1f} ± {r['se']:.1f} | {r['bound_closed_form']:.0f} | |"
            )
    lines += ["", "## Checks", ""]
    lines += _check_lines(checks)
    return lines


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def build_parser(prog: str = "privonline reproduce") -> argparse.ArgumentParser:
    """The command-line interface (experiments ``as_ftrl``, ``as_ftpl``, ``as_mab``, ``as_blo``,
    ``as_eps_window``)."""
    return reproduction_parser(
        prog,
        "Agarwal & Singh (ICML 2017) regret experiments E4, E5, E7, E9 of spec 004 and the "
        "scaling tests of its §5.3(b)-(c) (reduced scale by default); writes JSON, PNG and a "
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
