"""Agarwal & Singh (ICML 2017) experiment ``ftrl`` (E4): private FTRL, Algorithm 1
(Thm 3.1 / 3.4, Cor. 3.2), regret against ``T``, ``ε`` and ``N`` with the non-private baseline.
Overview in :mod:`audit.papers.agarwal_singh.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np

from audit.papers.agarwal_singh.repro_common import (
    _FULL_INFO_CODES,
    CUBE_BIAS,
    INF,
    SPHERE_DRIFT,
    FullInfoConfig,
    FullInfoInstance,
    FullInfoSet,
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
from audit.reproduce.common import CellStore
from audit.reproduce.report import ExperimentReport, Figure
from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import Calibration
from reference.agarwal_singh.environments import (
    cube_signed_basis,
    experts_minimax,
    ftl_trap,
    mab_constant_gap,
    sphere_drift,
)
from reference.agarwal_singh.theorems import (
    Cor32Parameters,
    cor32_parameters,
    cor32_rate_paper,
    cor32_regret_bound,
    thm34_regret_bound_certified,
)
from reference.engine.compiled import run_ftrl_compiled, run_ftrl_losses_compiled
from reference.engine.compiled.ftrl import FTRLRegularizer
from reference.rng import child_seeds
from reference.validation import check_int_at_least

__all__ = [
    "ftrl_cell",
    "ftrl_set_cell",
    "full_info_losses",
    "reproduce_ftrl",
    "set_losses",
]


# --------------------------------------------------------------------------------------------
# E4: private FTRL (Thm 3.1 / 3.4, Cor. 3.2)
# --------------------------------------------------------------------------------------------


def full_info_losses(instance: FullInfoInstance, N: int, T: int) -> FloatArray:
    """The oblivious loss sequence ``(T, N)`` of a full-information instance (all in ``[0,1]^N``).

    ``minimax``: :func:`~reference.agarwal_singh.environments.experts_minimax`;
    ``gap``: constant ``(0.3, 0.5, …, 0.5)`` (deterministic version of the ε-window test's Bernoulli
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
    """E4's loss model of Cor. 3.2's ``sphere`` / ``cube`` instance, ``(T, N)``:
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
    """Certified bound: Cor. 3.2's ``D_R/η + 2ηTG² + D̄_{D'}``; ``D_{D'} = 0`` at
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


def _ftrl_record(
    regret: FloatArray,
    p: Cor32Parameters,
    N: int,
    T: int,
    epsilon: float,
    calibration: Calibration,
    decision_set: FullInfoSet,
) -> dict[str, Any]:
    """A cell's record: the final ``regret`` of its replicates, Cor. 3.2's ``λ`` (0 at
    ``ε = ∞``) and ``η`` of ``p``, the certified bound and the paper's rate."""
    return {
        "regret": regret.tolist(),
        "lam": 0.0 if math.isinf(epsilon) else p.lam,
        "eta": p.eta,
        "bound_certified": _ftrl_bound(N, T, epsilon, calibration, decision_set),
        "rate_paper": _ftrl_rate(N, T, epsilon, decision_set),
    }


def _ftrl_regret(
    losses: FloatArray,
    epsilon: float,
    runs: int,
    calibration: Calibration,
    seed: np.random.SeedSequence,
    decision_set: FullInfoSet,
) -> dict[str, Any]:
    """Algorithm 1 with Cor. 3.2's parameters on ``losses`` ``(T, N)``: the regret of ``runs``
    replicates (the Laplace noise's leading axis, one generator ``seed``), its ``λ``, ``η``,
    certified bound and paper rate.  At ``ε = ∞`` the learner is deterministic given the sequence:
    run once, repeated.  Run on the compiled engine
    (:func:`reference.engine.compiled.run_ftrl_losses_compiled`, the reference's points on these
    draws: ``tests/reference/test_compiled_ftrl.py``)."""
    T, N = losses.shape
    p = _ftrl_parameters(N, T, epsilon, calibration, decision_set)
    regularizer = {"experts": "entropy", "sphere": "ball", "cube": "cube"}[decision_set]
    result = run_ftrl_losses_compiled(
        cast(FTRLRegularizer, regularizer),
        losses=losses,
        eta=p.eta,
        lam=None if math.isinf(epsilon) else p.lam,
        seeds=[seed],
        runs_per_seed=runs,
        loss_set=p.loss_set,
    )
    return _ftrl_record(result.regret[:, -1], p, N, T, epsilon, calibration, decision_set)


def ftrl_cell(
    instance: FullInfoInstance,
    N: int,
    T: int,
    epsilon: float,
    runs: int,
    calibration: Calibration,
    seed: np.random.SeedSequence,
) -> dict[str, Any]:
    """Regret of Algorithm 1 on one instance, ``runs`` replicates drawn from one generator.

    The replicates are the leading axis of the Laplace node noise ``(runs, N)`` (one generator,
    ``seed``), run on the compiled engine (:func:`reference.engine.compiled.run_ftrl_compiled`,
    which makes the reference's choices on these draws: ``tests/reference/test_compiled_ftrl.py``).
    At ``ε = ∞`` the learner is deterministic on a fixed sequence, so it runs once and its regret
    is repeated.
    """
    p = _ftrl_parameters(N, T, epsilon, calibration, "experts")
    compiled = run_ftrl_compiled(
        instance,
        N=N,
        T=T,
        epsilon=epsilon,
        seeds=[seed],
        runs_per_seed=runs,
        calibration=calibration,
        checkpoints=[T],
    )
    return _ftrl_record(compiled.regret[:, -1], p, N, T, epsilon, calibration, "experts")


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
    return _ftrl_regret(losses, epsilon, runs, calibration, tree_seed, decision_set)


# --------------------------------------------------------------------------------------------
# ftrl
# --------------------------------------------------------------------------------------------


def reproduce_ftrl(config: FullInfoConfig, out: Path) -> ExperimentReport:
    """Run E4, cells into ``out``: the report of ``ftrl.{json,png,md}``."""
    check_int_at_least("runs", config.runs, 2)  # standard errors and replicate-clustered fits
    out.mkdir(parents=True, exist_ok=True)
    if len(config.horizons) < 2 or len(config.dims) < 2:
        raise ValueError("horizons and dims must have at least two values (fits)")
    uses_sets = "sphere" in config.decision_sets or "cube" in config.decision_sets
    if uses_sets and (len(config.set_horizons) < 2 or len(config.set_dims) < 2):
        raise ValueError("set_horizons and set_dims must have at least two values (fits)")
    name = "ftrl"
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

    results: dict[str, Any] = {}
    fits: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    for instance, dset, set_horizons, set_dims in groups:
        result, group_fits, group_checks = _ftrl_group(
            config, instance, dset, set_horizons, set_dims, cell
        )
        fits += group_fits
        checks += group_checks
        results[instance] = result
    bar.close()
    return _report(
        name,
        config,
        results,
        fits,
        checks,
        (cells.computed, cells.reused),
        Figure(lambda plt: _ftrl_plot(plt, config, results)),
        _ftrl_markdown(config, results, fits, checks),
    )


def _ftrl_group(
    config: FullInfoConfig,
    instance: str,
    dset: FullInfoSet,
    set_horizons: tuple[int, ...],
    set_dims: tuple[int, ...],
    cell: Callable[[str, FullInfoSet, int, int, float], dict[str, Any]],
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """E4 on one instance or decision set: its regret rows, "privacy for free" and bound checks,
    and its fits in ``T``, ``1/ε`` and ``N``; returns ``(result, fits, checks)``."""
    finite = [e for e in config.epsilons if not math.isinf(e)]
    fits: list[dict[str, Any]] = []
    checks: list[dict[str, Any]] = []
    horizons = np.array(set_horizons, dtype=np.float64)
    grid = {
        e: [cell(instance, dset, config.dim, T, e) for T in set_horizons] for e in config.epsilons
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
    result = {
        "decision_set": dset,
        "horizons": list(set_horizons),
        "rows": rows,
        "gap_over_sqrt_T": free,
        "dims": _dim_rows(set_dims, dims),
    }
    return result, fits, checks


def _dim_rows(dims: Sequence[int], cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One summary row per dimension: ``N``, mean, s.e. and the cell's parameters and forms."""
    rows = []
    for N, c in zip(dims, cells, strict=True):
        mean, se = _mean_se(c["regret"])
        rows.append({"N": N, "mean": mean, "se": se, **_cell_info(c)})
    return rows


def _cell_info(c: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in c.items() if k not in ("regret", "realised_regret", "played_regret")}


def _ftrl_plot(plt: Any, config: FullInfoConfig, results: dict[str, Any]) -> Any:
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
    return fig


def _ftrl_markdown(
    config: FullInfoConfig,
    results: dict[str, Any],
    fits: list[dict[str, Any]],
    checks: list[dict[str, Any]],
) -> list[str]:
    lines = [
        "# E4: private FTRL (Agarwal & Singh Alg. 1, Thm 3.1/3.4, Cor. 3.2 experts/sphere/cube)",
        "",
        f"The paper has no experiments; this is E4 {_scale_words(config)}: "
        f"N = {config.dim}, T ∈ {list(config.horizons)}, ε ∈ {[_eps_key(e) for e in config.epsilons]}, "
        f"{config.runs} runs per cell, {config.calibration} Laplace calibration (λ = N·h/ε for "
        "losses in [0,1]^N), η = √(ln N/(2T)). Full size of E4: T up to 2^20, 200 runs, N ∈ {2, 8, 32}; "
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
        "one-shot noise d of the ε-window test) into the √T phase -- the level check (regret ≤ certified "
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
