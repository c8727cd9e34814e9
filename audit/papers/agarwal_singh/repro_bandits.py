"""Agarwal & Singh (ICML 2017) experiments ``ftpl`` (E5; Thm 3.5, Algorithm 3), ``mab``
(E7; Thm 4.1, Algorithms 4 and 5) and ``blo`` (E9; Thm 4.5, Algorithm 4 with SCRiBLe).
Overview in :mod:`audit.papers.agarwal_singh.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, TypeAlias, TypeVar

import numpy as np
from tqdm.auto import tqdm

from audit.papers.agarwal_singh.repro_common import (
    _BANDIT_SET_CODES,
    _MAB_CODES,
    CUBE_BIAS,
    INF,
    SPHERE_DRIFT,
    BanditSet,
    BLOConfig,
    FTPLConfig,
    MABConfig,
    MABInstance,
    _check_lines,
    _curve_axes,
    _eps_key,
    _fit_lines,
    _mean_se,
    _progress,
    _regret_matrix,
    _report,
    _scale_words,
    cell_seed,
    scaling_fits,
)
from audit.papers.agarwal_singh.repro_ftrl import _cell_info, _dim_rows
from audit.reproduce.common import CellStore
from audit.reproduce.report import ExperimentReport, Figure
from reference._typing import FloatArray
from reference.agarwal_singh.environments import (
    cube_signed_basis,
    mab_constant_gap,
    mab_switching,
    sphere_drift,
)
from reference.agarwal_singh.full_info import PrivateFTPL, run_full_info
from reference.agarwal_singh.sets import Cube, L2Ball, LossSet
from reference.agarwal_singh.theorems import (
    lemma44_regret_bound,
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
from reference.engine.compiled import run_exp2_compiled, run_scrible_compiled
from reference.noise import GaussianVectorNoise
from reference.rng import child_seeds
from reference.validation import check_int_at_least

__all__ = [
    "blo_cell",
    "blo_constants",
    "blo_losses",
    "blo_nonprivate_eta",
    "ftpl_cell",
    "ftpl_sigma",
    "mab_cell",
    "mab_losses",
    "mab_nonprivate_parameters",
    "reproduce_blo",
    "reproduce_ftpl",
    "reproduce_mab",
]


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
    with E5's sphere drift losses ``l_t = 0.2u + 0.8ξ_t`` (``Y = {‖l‖₂ ≤ 1}``), or on the cube
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
    """Thm 3.5's rate with constant 1 (``‖Y‖₂ = 1``):
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
    """``constant_gap``: ``(0.1, 0.5, …)``; ``switching``: gap 0.1, best arm changing
    at ``T/3`` and ``2T/3`` (E7)."""
    if instance == "constant_gap":
        return mab_constant_gap(N, T, best=0.1, other=0.5)
    if instance == "switching":
        return mab_switching(N, T, gap=0.1, switches=(T // 3, 2 * T // 3))
    raise ValueError(f"instance must be 'constant_gap' or 'switching', got {instance!r}")


def mab_nonprivate_parameters(N: int, T: int) -> tuple[float, float]:
    """Thm 4.1's ``η = √(ln N/(2NT(1 + 2λ² ln NT)))`` and ``γ = ηN√(1 + 2λ² ln NT)`` at ``λ = 0``
    (the non-private baseline: same formulas, no noise): ``(√(ln N/(2NT)), ηN)``."""
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
    with an ``arms`` stream for EXP2 and a ``reduction`` stream for ``Z_t``), run on the compiled
    engine (:func:`reference.engine.compiled.run_exp2_compiled`, which plays the reference's arms
    on these streams: ``tests/reference/test_compiled_ftrl.py``)."""
    compiled = run_exp2_compiled(
        instance,
        N=N,
        T=T,
        epsilon=epsilon,
        seeds=child_seeds(seed, 0, runs),
        preset=preset,
        checkpoints=[T],
    )
    lam = (
        0.0
        if math.isinf(epsilon)
        else thm41_parameters(N, T, epsilon, preset=preset, calibration="strict").lam
    )
    return {
        "regret": compiled.pseudo_regret[:, -1].tolist(),
        "realised_regret": compiled.regret[:, -1].tolist(),
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
    """E9: ``l_t = u/2 + s_t e_{j_t}/2`` with ``u = (1/N, …)`` (``‖u‖₁ = 1``), ``j_t`` uniform,
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
    uses child ``r`` of the ``runs`` child with streams ``learner`` and ``reduction``, run on the
    compiled engine (:func:`reference.engine.compiled.run_scrible_compiled`, which makes the
    reference's choices on these streams: ``tests/reference/test_compiled_scrible.py``).  Reports
    the regret of the FTRL centres ``x_t`` (the estimator) and of the played points ``y_t``.
    """
    env_seed, runs_seed = child_seeds(seed, 0, 2)
    losses = blo_losses(N, T, np.random.default_rng(env_seed))
    nu, x_l2 = blo_constants(decision_set, N)
    eta, lam, clipped = blo_nonprivate_eta(N, T, decision_set), 0.0, False
    if not math.isinf(epsilon):
        p = thm45_parameters(N, T, epsilon, nu=nu, M=_BLO_M, X_l2=x_l2, Y_l1=_BLO_Y_L1)
        eta, lam, clipped = p.eta, p.lam, p.clipped
    result = run_scrible_compiled(
        decision_set,
        losses=losses,
        eta=eta,
        lam=None if math.isinf(epsilon) else lam,
        seeds=child_seeds(runs_seed, 0, runs),
    )
    centre_regret = result.centre_regret[:, -1].tolist()
    played_regret = result.played_regret[:, -1].tolist()
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
# mab and blo (same layout)
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
    cells: CellStore,
) -> ExperimentReport:
    """Tables, fits, checks and plot (the report) shared by ``ftpl``, ``mab`` and ``blo``."""
    horizons = np.array(config.horizons, dtype=np.float64)
    finite = [e for e in config.epsilons if not math.isinf(e)]
    fits: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    lines = [f"# {title}", "", *intro, ""]
    lines += [
        "| instance | T | ε | regret (mean ± s.e.) | non-private | ratio | paper rate |",
        "|---|---|---|---|---|---|---|",
    ]
    for group, (grid, dims) in groups.items():
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
        "exploration/noise-dominated phase; the design pilots show the local T-slope falling "
        "towards 1/2 only for T ≳ 2^16). The slope against a theorem form is 1 when regret grows "
        "like the form; it exceeds 1 when the regret stays far below a loose form that is a sum "
        "of terms with different rates (compare the regret and rate columns), which says "
        "nothing about the bound's validity -- the level checks below are the gates.",
    ]
    if name != "ftpl":
        lines += [
            "",
            "Previous best rates (Table 2) grow like T^{2/3}; T fits whose whole CI lies below "
            "2/3: " + (", ".join(below_prev) if below_prev else "none") + ".",
        ]
    lines += ["", "## Checks", ""]
    lines += _check_lines(checks)
    return _report(
        name,
        config,
        results,
        fits,
        checks,
        (cells.computed, cells.reused),
        Figure(lambda plt: _bandit_plot(plt, name, config, groups, results)),
        lines,
    )


def _bandit_plot(
    plt: Any,
    name: str,
    config: MABConfig | BLOConfig | FTPLConfig,
    groups: dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]],
    results: dict[str, Any],
) -> Any:
    """Per instance: regret vs ``T`` per ``ε``, vs ``1/ε`` at the largest ``T``, vs ``N``."""
    finite = [e for e in config.epsilons if not math.isinf(e)]
    fig, axes = plt.subplots(len(groups), 3, figsize=(15, 4 * len(groups)), squeeze=False)
    for k, (group, (grid, dims)) in enumerate(groups.items()):
        rows = results[group]["rows"]
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
    return fig


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


def _group_cells(
    config: FTPLConfig | MABConfig | BLOConfig, cell: Callable[[int, int, float], dict[str, Any]]
) -> tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]:
    """The cells of one instance or decision set, ``cell(N, T, ε)``: every ``(ε, T)`` at
    ``N = config.dim`` (by ``ε``, then ``T``), then every ``N`` at ``(config.dim_T,
    config.dim_epsilon)``."""
    grid = {e: [cell(config.dim, T, e) for T in config.horizons] for e in config.epsilons}
    dims = [cell(N, config.dim_T, config.dim_epsilon) for N in config.dims]
    return grid, dims


_Groups: TypeAlias = dict[str, tuple[dict[float, list[dict[str, Any]]], list[dict[str, Any]]]]
"""Per instance or decision set, :func:`_group_cells`' ``(grid by ε, dims)``."""

GroupT = TypeVar("GroupT", bound=str)


def _grouped_cells(
    config: FTPLConfig | MABConfig | BLOConfig,
    name: str,
    cells: CellStore,
    groups: Sequence[GroupT],
    codes: dict[str, int],
    spec: Callable[[GroupT, int, int, float], dict[str, Any]],
    compute: Callable[[GroupT, int, int, float, np.random.SeedSequence], dict[str, Any]],
) -> _Groups:
    """:func:`_group_cells` of every group in turn (instances or decision sets), each cell
    ``(group, N, T, ε)`` stored as ``{group}_N{N}_T{T}_eps{ε}`` of configuration
    ``spec(group, N, T, ε)`` and computed as ``compute(group, N, T, ε, seed)`` with the seed of
    ``(name, codes[group], N, T)``."""

    def cell(group: GroupT, N: int, T: int, eps: float) -> dict[str, Any]:
        cell_spec = spec(group, N, T, eps)
        seed = cell_seed(config.seed, name, codes[group], N, T)
        return cells.json(
            f"{group}_N{N}_T{T}_eps{_eps_key(eps)}",
            cell_spec,
            lambda: compute(group, N, T, eps, seed),
        )

    return {group: _group_cells(config, functools.partial(cell, group)) for group in groups}


def reproduce_ftpl(config: FTPLConfig, out: Path) -> ExperimentReport:
    """Run E5 (Thm 3.5), cells into ``out``: the report of ``ftpl.{json,png,md}``."""
    name = "ftpl"
    cells, bar = _bandit_set_cells(config, out, name)

    def spec(dset: BanditSet, N: int, T: int, eps: float) -> dict[str, Any]:
        return {
            "N": N, "T": T, "epsilon": eps, "delta": config.delta, "runs": config.runs,
            "seed": config.seed, "set": dset,
        }  # fmt: skip

    def compute(
        dset: BanditSet, N: int, T: int, eps: float, seed: np.random.SeedSequence
    ) -> dict[str, Any]:
        return ftpl_cell(N, T, eps, config.delta, config.runs, seed, dset)

    groups = _grouped_cells(
        config, name, cells, config.decision_sets, _BANDIT_SET_CODES, spec, compute
    )
    checks: list[dict[str, Any]] = []
    for dset in config.decision_sets:
        grid = groups[dset][0]
        checks += [
            {
                "claim": f"{dset}, ε = {e:g}: mean regret ≤ certified Thm 3.5 bound (Gaussian "
                "smoothing with σ_eff = σ√K) at every T",
                "holds": all(_mean_se(c["regret"])[0] <= c["bound_certified"] for c in cs),
                "gate": True,
            }
            for e, cs in grid.items()
        ]
        for e, ratio in _private_over_nonprivate(grid, config.epsilons):
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
        f"The paper has no experiments; this is E5 {_scale_words(config)}: "
        f"FTPL (Alg. 3) on {' and '.join(config.decision_sets)} with Gaussian tree noise, strict "
        "σ = max(regret branch, "
        f"exact-GDP privacy branch) at δ = {config.delta:g} (replace-one Δ₂ = 2), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, ball: sphere drift losses l_t = 0.2u + 0.8ξ_t (‖X‖₂ = ‖Y‖₂ = 1); cube [−1, 1]^N: "
        f"l_t = s_t e_(j_t), P(s_t = +1) = 0.5 + {CUBE_BIAS:g}·(−1)^(j_t) (Y = unit ℓ₁ ball: same "
        "‖Y‖₂ = 1 and Δ₂ = 2, so the same σ; ‖X‖₂ = √N in the bound and rate); one sequence per "
        "(N, T); 'non-private' = the regret branch of σ alone. Full size of E5: T up to 2^18. Stated N "
        "exponent of the privacy term N‖X‖₂: 1 (ball), 1.5 (cube).",
        "",
        "Paper (Thm 3.5): regret O(N^{1/4}‖X‖₂‖Y‖₂√T + (N‖X‖₂/ε) log^{1.5}T log(log T/δ)), "
        "(ε, δ)-DP (the paper says ε-DP).",
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
        cells,
    )


def _private_over_nonprivate(
    grid: dict[float, list[dict[str, Any]]], epsilons: Sequence[float]
) -> list[tuple[float, list[float]]]:
    """For each finite ``ε`` of ``epsilons``, the mean regret of the ``ε`` cells over that of the
    non-private (``ε = ∞``) cells at every horizon; none when ``grid`` has no ``ε = ∞`` cells."""
    if INF not in grid:
        return []
    return [
        (
            e,
            [
                _mean_se(p["regret"])[0] / _mean_se(q["regret"])[0]
                for p, q in zip(grid[e], grid[INF], strict=True)
            ],
        )
        for e in epsilons
        if not math.isinf(e)
    ]


def reproduce_mab(config: MABConfig, out: Path) -> ExperimentReport:
    """Run E7 (Thm 4.1), cells into ``out``: the report of ``mab.{json,png,md}``."""
    check_int_at_least("runs", config.runs, 2)  # standard errors and replicate-clustered fits
    out.mkdir(parents=True, exist_ok=True)
    if len(config.horizons) < 2 or len(config.dims) < 2:
        raise ValueError("horizons and dims must have at least two values (fits)")
    name = "mab"
    total = len(config.instances) * (len(config.horizons) * len(config.epsilons) + len(config.dims))
    bar = _progress(total, name)
    cells = CellStore(out / f"{name}_cells", bar)

    def spec(instance: MABInstance, N: int, T: int, eps: float) -> dict[str, Any]:
        return {
            "instance": instance, "N": N, "T": T, "epsilon": eps, "runs": config.runs,
            "preset": config.preset, "seed": config.seed,
        }  # fmt: skip

    def compute(
        instance: MABInstance, N: int, T: int, eps: float, seed: np.random.SeedSequence
    ) -> dict[str, Any]:
        return mab_cell(instance, N, T, eps, config.runs, config.preset, seed)

    groups = _grouped_cells(config, name, cells, config.instances, _MAB_CODES, spec, compute)
    checks: list[dict[str, Any]] = []
    for instance in config.instances:
        grid = groups[instance][0]
        for e, r in _private_over_nonprivate(grid, config.epsilons):
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
        f"The paper has no experiments; this is E7 {_scale_words(config)}: "
        f"EXP2 with uniform exploration behind the Laplace reduction (Alg. 4 + Alg. 5), {config.preset} "
        f"preset of η, γ, λ = 1/ε (= Δ_B/ε for [0,1] losses, strict), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, deterministic constant gap (0.1, 0.5, …). Full size of E7: N ∈ {2, 10, 50}, "
        "T up to 2^20, 100 runs. Regret = pseudo-regret Σ<p_t, l_t> − min_i Σ l_t(i); 'ratio' = "
        "private / non-private (same η, γ formulas with λ = 0).",
        "",
        "Paper (Thm 4.1): regret O(√(NT log T log N)/ε); the bound its proof gives (Sec. 4.1) "
        "has log(NT) in place of √(log T). The design pilot (paper preset, ε = 1, N = 2): "
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
        cells,
    )


def reproduce_blo(config: BLOConfig, out: Path) -> ExperimentReport:
    """Run E9 (Thm 4.5), cells into ``out``: the report of ``blo.{json,png,md}``."""
    name = "blo"
    cells, bar = _bandit_set_cells(config, out, name)

    def spec(dset: BanditSet, N: int, T: int, eps: float) -> dict[str, Any]:
        return {
            "N": N, "T": T, "epsilon": eps, "runs": config.runs, "seed": config.seed, "set": dset,
        }  # fmt: skip

    def compute(
        dset: BanditSet, N: int, T: int, eps: float, seed: np.random.SeedSequence
    ) -> dict[str, Any]:
        return blo_cell(N, T, eps, config.runs, seed, dset)

    groups = _grouped_cells(
        config, name, cells, config.decision_sets, _BANDIT_SET_CODES, spec, compute
    )
    checks: list[dict[str, Any]] = []
    for dset in config.decision_sets:
        grid = groups[dset][0]
        for e, cs in grid.items():
            with_bound = [c for c in cs if c.get("bound_certified") is not None]
            if with_bound:
                checks.append(
                    {
                        "claim": f"{dset}, ε = {e:g}: mean regret ≤ certified Thm 4.5 bound "
                        "(Theorem D.1, App. D) where η ≤ 1/(4N(M+L))",
                        "holds": all(
                            _mean_se(c["regret"])[0] <= c["bound_certified"] for c in with_bound
                        ),
                        "gate": True,
                    }
                )
    bar.close()
    intro = [
        f"The paper has no experiments; this is E9 {_scale_words(config)}: "
        f"SCRiBLe on {' and '.join(config.decision_sets)} (ball: ν = 1, ‖X‖₂ = 1; cube "
        "[−1, 1]^N: ν = 2N, ‖X‖₂ = √N; M = ‖Y‖₁ = 1 on both) behind the Laplace reduction, "
        "strict λ = 2‖Y‖₁/ε, "
        f"η = min(paper η, 1/(4N(M+L))) (clipped), N = {config.dim}, "
        f"T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, {config.runs} "
        "runs, losses l_t = u/2 + s_t e_{j_t}/2 (one sequence per (N, T)). Regret of the FTRL "
        "centres (same expectation, less variance); same losses on both sets. Full size of E9: T up to 2^20, "
        "N ∈ {2, 4, 8}. Stated N exponent: the envelope N^{3/2}√ν (ball 1.5, cube 2).",
        "",
        "Paper (Thm 4.5): regret O(√(T log T)·√(N²ν(M² + N‖X‖²‖Y‖₁²/ε²))). The design pilot "
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
        cells,
    )
