"""Zhou & Tan (AAAI 2021) reproductions, shared parts: the panels of Fig. 2 and Fig. 3, the presets
(Sec. 5.1; T-23), the configurations, and the problems, policies and cells the experiments run.
Overview in :mod:`audit.papers.zhou_tan.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_zhou_tan.md``.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from tqdm.auto import tqdm

from reference._typing import FloatArray
from reference.rng import child_seeds, named_generators
from reference.validation import check_int_at_least
from reference.zhou_tan.algorithms import (
    make_ata_gp_ucb,
    make_ldp_ata_gp_ucb,
    make_ldp_moma_gp_ucb,
    make_ldp_tgp_ucb,
    make_moma_gp_ucb,
    make_tgp_ucb_nonprivate,
)
from reference.zhou_tan.datasets import (
    DataProblem,
    EmpiricalRowEnvironment,
    light_sensor_problem,
    light_sensor_standin,
    stock_price_standin,
    stock_problem,
)
from reference.zhou_tan.environment import (
    Curator,
    FiniteArmEnvironment,
    Policy,
    StudentTNoise,
    UniformNoise,
    run_trial,
    sample_rkhs_function,
)
from reference.zhou_tan.kernels import matern_kernel, se_kernel, unit_grid
from reference.zhou_tan.mechanism import ConvertToLaplace, LDPParams

__all__ = [
    "ALGORITHM_LABELS",
    "FIG2_PANELS",
    "FIG3_PANELS",
    "FOOTING_LABELS",
    "AlgorithmName",
    "DatasetName",
    "Fig2Config",
    "Fig3Config",
    "Footing",
    "Panel",
    "Presets",
    "ScalingConfig",
    "product_grid",
]


DatasetName = Literal["synthetic_se", "synthetic_matern", "light", "stock"]
AlgorithmName = Literal["tgp", "ata", "moma"]
Footing = Literal["theory", "practical"]

ALGORITHM_LABELS: dict[str, tuple[str, str]] = {
    "tgp": ("LDP-TGP-UCB", "TGP-UCB"),
    "ata": ("LDP-ATA-GP-UCB", "ATA-GP-UCB"),
    "moma": ("LDP-MoMA-GP-UCB", "MoMA-GP-UCB"),
}
"""(private, non-private) display names of each algorithm key."""

FOOTING_LABELS: dict[str, str] = {
    "theory": "every width, truncation level, q and k from the theorems (Thm 2, 3, 4, Cor. 1; "
    "non-private TGP-UCB: Thm 3's template on [7]'s truncation)",
    "practical": "the practical presets: [7]'s code template β = B + b_t√(ln t)/√λ with each "
    "algorithm's own truncation (TGP: the paper's B + R + 𝓛 ln t under LDP, [7]'s v^{1/2} t^{1/4} "
    "without), q = ln T/ε², MoMA k = ⌈ln(4eT/δ)⌉",
}
"""What each footing sets (the same for every algorithm of a footing)."""

CELL_VERSION = 2
"""Bumped whenever the computation of a cell changes, so old cells are refused."""


@dataclass(frozen=True)
class Panel:
    """One panel of a figure: dataset and privacy level (``eps=None``: non-private)."""

    label: str
    dataset: DatasetName
    eps: float | None

    def title(self) -> str:
        privacy = "non-private" if self.eps is None else f"LDP ϵ = {self.eps:g}"
        return f"({self.label}) {privacy}, {self.dataset}"


FIG2_PANELS: tuple[Panel, ...] = (
    Panel("2a", "synthetic_matern", 1.0),
    Panel("2b", "light", 0.5),
    Panel("2c", "stock", 1.0),
    Panel("2d", "synthetic_se", None),
    Panel("2e", "light", None),
    Panel("2f", "stock", None),
)
"""Fig. 2 (Sec. 5.2)."""

FIG3_PANELS: tuple[Panel, ...] = (
    Panel("3a", "synthetic_se", 1.0),
    Panel("3b", "light", 1.0),
    Panel("3c", "stock", 0.5),
)
"""Fig. 3 (App. E)."""


@dataclass(frozen=True)
class Presets:
    """Constants the paper does not report (T-23) and the Sec. 5.1 settings."""

    lam: float = 1.0
    delta: float = 0.05
    eps_nys: float = 0.1
    grid_points: int = 100
    n_support: int = 100
    lengthscale: float = 0.2
    nu: float = 2.5
    noise_bound: float = 1.0
    student_df: float = 3.0


@dataclass(frozen=True)
class Fig2Config:
    """Fig. 2: reduced scale by default (``T = 300``, 5 trials); :meth:`paper` gives T = 1000, 10 trials.

    Every algorithm runs once per footing (``"theory"``, ``"practical"``: :data:`FOOTING_LABELS`),
    so the three are compared with the same kind of constants; trials share their seeds across
    algorithms and footings (common random numbers).
    """

    T: int = 300
    trials: int = 5
    panels: tuple[Panel, ...] = FIG2_PANELS
    algorithms: tuple[AlgorithmName, ...] = ("tgp", "ata", "moma")
    footings: tuple[Footing, ...] = ("theory", "practical")
    presets: Presets = field(default_factory=Presets)
    seed: int = 20212
    data_seed: int = 20210

    @classmethod
    def paper(cls) -> Fig2Config:
        """The paper's sizes: 10 trials (Sec. 5), ``T = 1000`` (reference [7]'s code)."""
        return cls(T=1000, trials=10)


@dataclass(frozen=True)
class Fig3Config(Fig2Config):
    """Fig. 3 (App. E): the three LDP panels; same presets and scales as :class:`Fig2Config`."""

    panels: tuple[Panel, ...] = FIG3_PANELS
    seed: int = 20213

    @classmethod
    def paper(cls) -> Fig3Config:
        return cls(T=1000, trials=10)


@dataclass(frozen=True)
class ScalingConfig:
    """Regret scaling in ``T`` and ``ϵ`` on one fixed synthetic SE objective.

    The objective ``f`` is drawn once from ``seed`` (so ``B`` and the theorems' forms are fixed);
    replicates differ in noise, privacy and algorithm randomness.  The ``T`` fit uses checkpoints
    of the ``eps_for_T`` runs; the ``ϵ`` fit uses final regrets over ``eps_grid``.

    The dimension fit runs ``dim_algorithm`` at ``ϵ = eps_for_T`` on the product grids
    ``unit_grid(side)^d`` for ``(d, side)`` in ``zip(dims, dim_sides)`` (default 64 points each),
    same kernel, one objective per ``d`` drawn by the Sec. 5.1 generator and rescaled to
    ``max|f| = B`` of the main objective; ``dims = ()`` skips it.

    ``footing_of`` gives each algorithm's footing: TGP on its theory widths (Theorem 3's
    schedule is anytime), ATA and MoMA on the practical ones (their theory ``k`` leaves MoMA one
    epoch at these horizons).
    """

    T: int = 300
    replicates: int = 6
    eps_grid: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0)
    eps_for_T: float = 1.0
    first_checkpoint: int = 20
    checkpoints: int = 10
    algorithms: tuple[AlgorithmName, ...] = ("tgp", "ata", "moma")
    footing_of: dict[str, Footing] = field(
        default_factory=lambda: {"tgp": "theory", "ata": "practical", "moma": "practical"}
    )
    dims: tuple[int, ...] = (1, 2, 3)
    dim_sides: tuple[int, ...] = (64, 8, 4)
    dim_algorithm: AlgorithmName = "tgp"
    presets: Presets = field(default_factory=Presets)
    confidence: float = 0.95
    seed: int = 20219

    @classmethod
    def paper(cls) -> ScalingConfig:
        """Not a paper experiment; "paper scale" = the paper's ``T = 1000`` and 10 replicates."""
        return cls(T=1000, replicates=10)


# --------------------------------------------------------------------------------------------
# Problems and policies


@dataclass(frozen=True)
class _Instance:
    """One trial's problem: kernel, true ``f``, environment, and the constants the algorithms use."""

    K: FloatArray
    f: FloatArray
    env: FiniteArmEnvironment
    B: float
    R: float
    v: float
    c: float


def product_grid(side: int, d: int) -> FloatArray:
    """``unit_grid(side)^d``: the ``side^d`` points of ``{1/side, …, 1}^d`` (the Sec. 5.1 grid's
    convention in each coordinate), shape ``(side^d, d)``, the last coordinate varying fastest."""
    coords = unit_grid(check_int_at_least("side", side, 1))[:, 0]
    pts = list(itertools.product(coords, repeat=check_int_at_least("d", d, 1)))
    return np.asarray(pts, dtype=np.float64).reshape(-1, d)


def _grid_kernel(dataset: DatasetName, presets: Presets) -> FloatArray:
    X = unit_grid(presets.grid_points)
    if dataset == "synthetic_se":
        return se_kernel(X, X, presets.lengthscale)
    if dataset == "synthetic_matern":
        return matern_kernel(X, X, presets.lengthscale, presets.nu)
    raise ValueError(f"not a synthetic dataset: {dataset!r}")


def _data_problem(dataset: DatasetName, data_seed: int) -> DataProblem:
    """The stand-in dataset (fixed across trials, as a real dataset is)."""
    seeds = child_seeds(data_seed, 0, 2)
    if dataset == "light":
        train, test = light_sensor_standin(np.random.default_rng(seeds[0]))
        return light_sensor_problem(train, test)
    if dataset == "stock":
        return stock_problem(stock_price_standin(np.random.default_rng(seeds[1])))
    raise ValueError(f"not a data set: {dataset!r}")


def _instance(
    panel: Panel,
    presets: Presets,
    K_grid: FloatArray | None,
    problem: DataProblem | None,
    gens: dict[str, np.random.Generator],
    fixed_f: FloatArray | None = None,
) -> _Instance:
    private = panel.eps is not None
    if problem is not None:
        env: FiniteArmEnvironment = EmpiricalRowEnvironment(problem, gens["environment"])
        return _Instance(problem.K, problem.f, env, problem.B, problem.R, problem.v, problem.c)
    assert K_grid is not None
    if fixed_f is None:
        f = sample_rkhs_function(K_grid, presets.n_support, gens["objective"]).values
    else:
        f = fixed_f
    B = float(np.max(np.abs(f)))  # Sec. 5.1: B = max_x |f(x)| (sup norm, T-24)
    if private:
        R = presets.noise_bound
        env = FiniteArmEnvironment(f, UniformNoise(R), gens["environment"])
        # v, c unused: the LDP factories derive them from (B, R, ϵ) (Thm 2, Cor. 1)
        return _Instance(K_grid, f, env, B, R, math.nan, math.nan)
    df = presets.student_df
    env = FiniteArmEnvironment(f, StudentTNoise(df), gens["environment"])
    var = df / (df - 2.0)  # Student-t(3): variance 3, so v = B² + 3, c = 3 (Sec. 5.1)
    return _Instance(K_grid, f, env, B, math.inf, B * B + var, var)


def _policy(
    algorithm: AlgorithmName,
    footing: Footing,
    inst: _Instance,
    eps: float | None,
    T: int,
    presets: Presets,
    rng: np.random.Generator,
) -> Policy:
    lam, delta, eps_nys = presets.lam, presets.delta, presets.eps_nys
    if footing not in FOOTING_LABELS:
        raise ValueError(f"footing must be one of {sorted(FOOTING_LABELS)}, got {footing!r}")
    if eps is not None:
        params = LDPParams(eps, inst.B, inst.R)
        if algorithm == "tgp":
            return make_ldp_tgp_ucb(inst.K, params, lam, delta, T, rng, preset=footing)
        if algorithm == "ata":
            return make_ldp_ata_gp_ucb(inst.K, params, lam, delta, eps_nys, T, rng, footing)
        if algorithm == "moma":
            return make_ldp_moma_gp_ucb(inst.K, params, lam, delta, eps_nys, T, rng, footing)
    else:
        if algorithm == "tgp":
            if footing == "theory":
                return make_tgp_ucb_nonprivate(
                    inst.K, inst.v, inst.B, lam, rng, preset="theory", delta=delta, T=T
                )
            return make_tgp_ucb_nonprivate(inst.K, inst.v, inst.B, lam, rng)
        if algorithm == "ata":
            return make_ata_gp_ucb(inst.K, inst.v, inst.B, lam, delta, eps_nys, T, rng, footing)
        if algorithm == "moma":
            return make_moma_gp_ucb(inst.K, inst.c, inst.B, lam, delta, eps_nys, T, rng, footing)
    raise ValueError(f"algorithm must be one of {sorted(ALGORITHM_LABELS)}, got {algorithm!r}")


def _run_cell(
    panel: Panel,
    algorithm: AlgorithmName,
    footing: Footing,
    T: int,
    trial_seeds: Sequence[np.random.SeedSequence],
    presets: Presets,
    K_grid: FloatArray | None,
    problem: DataProblem | None,
    fixed_f: FloatArray | None = None,
) -> dict[str, FloatArray]:
    """Cumulative regret of ``algorithm`` on ``footing`` over the given trials (one row per trial)."""
    curves = np.empty((len(trial_seeds), T))
    uniform = np.empty(len(trial_seeds))
    Bs = np.empty(len(trial_seeds))
    lap = np.empty(len(trial_seeds))
    for i, seed in enumerate(trial_seeds):
        gens = named_generators(seed, ["objective", "environment", "privacy", "algorithm"])
        inst = _instance(panel, presets, K_grid, problem, gens, fixed_f)
        policy = _policy(algorithm, footing, inst, panel.eps, T, presets, gens["algorithm"])
        mechanism = None
        if panel.eps is not None:
            params = LDPParams(panel.eps, inst.B, inst.R)
            mechanism = ConvertToLaplace(params, gens["privacy"])
            lap[i] = params.lap_scale
        else:
            lap[i] = 0.0
        result = run_trial(inst.env, policy, Curator(mechanism), T)
        curves[i] = result.cum_regret
        uniform[i] = T * (float(np.max(inst.f)) - float(np.mean(inst.f)))
        Bs[i] = inst.B
    return {"cum_regret": curves, "uniform_regret": uniform, "B": Bs, "lap_scale": lap}


def _progress(iterable: Any, desc: str, total: int) -> Any:
    return tqdm(iterable, desc=desc, total=total, disable=not sys.stderr.isatty())
