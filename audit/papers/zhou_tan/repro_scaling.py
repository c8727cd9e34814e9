"""Zhou & Tan (AAAI 2021) experiment ``scaling``: regret of LDP-TGP-UCB, LDP-ATA-GP-UCB and
LDP-MoMA-GP-UCB against the forms of Theorem 3, Theorem 2 and Corollary 1, in ``T``, ``ϵ`` and the
dimension.  Overview in :mod:`audit.papers.zhou_tan.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_zhou_tan.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from audit.methods.scaling import ScalingFit, fit_against_form
from audit.papers.zhou_tan.repro_common import (
    ALGORITHM_LABELS,
    CELL_VERSION,
    FOOTING_LABELS,
    AlgorithmName,
    Panel,
    ScalingConfig,
    _grid_kernel,
    _progress,
    _run_cell,
    product_grid,
)
from audit.reproduce.common import CellStore
from audit.reproduce.report import ExperimentReport, Figure, Table
from audit.results import to_jsonable
from reference._typing import FloatArray, IntArray
from reference.rng import child_seeds
from reference.validation import check_epsilon, check_int_at_least
from reference.zhou_tan.bounds import cor1_regret_expr, thm2_regret_expr, thm3_regret_expr
from reference.zhou_tan.environment import sample_rkhs_function
from reference.zhou_tan.kernels import certified_gamma_upper, se_kernel

__all__ = [
    "eps_log_axis",
    "reproduce_scaling",
    "theorem_form",
]


# --------------------------------------------------------------------------------------------
# Scaling fits


def theorem_form(
    algorithm: AlgorithmName,
    T: IntArray | FloatArray,
    gamma: FloatArray,
    B: float,
    R: float,
    eps: float,
    eps_nys: float,
    delta: float,
) -> FloatArray:
    """The regret form of the theorem behind ``algorithm`` at each horizon ``T[j]`` with ``γ[j]``.

    ``tgp``: Theorem 3 (:func:`~reference.zhou_tan.bounds.thm3_regret_expr`);
    ``ata``: Theorem 2 (:func:`~reference.zhou_tan.bounds.thm2_regret_expr`);
    ``moma``: Corollary 1 (:func:`~reference.zhou_tan.bounds.cor1_regret_expr`).
    These are the brackets of the ``O(·)`` statements (no constants); ``γ`` should be the
    certified ``γ̄_t`` of the kernel (:func:`~reference.zhou_tan.kernels.certified_gamma_upper`).
    """
    Ts = np.asarray(T, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    if Ts.shape != g.shape or Ts.ndim != 1:
        raise ValueError(f"T and gamma must be 1-D of equal length, got {Ts.shape} and {g.shape}")
    if algorithm == "tgp":
        vals = [thm3_regret_expr(t, gg, B, R, eps, delta) for t, gg in zip(Ts, g, strict=True)]
    elif algorithm == "ata":
        vals = [
            thm2_regret_expr(t, gg, B, R, eps, eps_nys, delta) for t, gg in zip(Ts, g, strict=True)
        ]
    elif algorithm == "moma":
        vals = [
            cor1_regret_expr(t, gg, B, R, eps, eps_nys, delta) for t, gg in zip(Ts, g, strict=True)
        ]
    else:
        raise ValueError(f"algorithm must be one of {sorted(ALGORITHM_LABELS)}, got {algorithm!r}")
    return np.asarray(vals, dtype=np.float64)


_THEOREM = {"tgp": "Thm 3", "ata": "Thm 2", "moma": "Cor. 1"}


def _label(config: ScalingConfig, alg: str) -> str:
    return f"{ALGORITHM_LABELS[alg][0]} ({config.footing_of[alg]})"


def _cell_config(
    experiment: str,
    config: ScalingConfig,
    alg: str,
    eps: float,
    T: int,
    reps: int,
    **extra: Any,
) -> dict[str, Any]:
    """What identifies a scaling cell (its store checks it): the experiment, cell version,
    algorithm and its footing, ``ϵ``, ``T``, replicates, then ``extra``, the presets and seed."""
    return {
        "experiment": experiment,
        "version": CELL_VERSION,
        "algorithm": alg,
        "footing": config.footing_of[alg],
        "eps": eps,
        "T": T,
        "replicates": reps,
        **extra,
        "presets": config.presets,
        "seed": config.seed,
    }


def reproduce_scaling(config: ScalingConfig, out: Path) -> ExperimentReport:
    """Regret vs ``T`` and vs ``ϵ`` fitted against the theorems' forms: the report of
    ``scaling.*``; cells go into ``out``."""
    name = "scaling"
    T = check_int_at_least("T", config.T, 2)
    reps = check_int_at_least("replicates", config.replicates, 2)
    eps_grid = tuple(check_epsilon(e, "eps_grid") for e in config.eps_grid)
    if len(set(eps_grid)) < 2:
        raise ValueError(f"eps_grid must have at least two distinct values, got {eps_grid}")
    if config.eps_for_T not in eps_grid:
        raise ValueError(f"eps_for_T must be in eps_grid={eps_grid}, got {config.eps_for_T!r}")
    first = check_int_at_least("first_checkpoint", config.first_checkpoint, 2)
    if first >= T:
        raise ValueError(f"first_checkpoint must be < T={T}, got {first}")
    if len(config.dims) != len(config.dim_sides) or (config.dims and len(set(config.dims)) < 2):
        raise ValueError(
            "dims and dim_sides must have equal length and dims at least two distinct values "
            f"(or both be empty), got {config.dims} and {config.dim_sides}"
        )
    needed = {*config.algorithms, *((config.dim_algorithm,) if config.dims else ())}
    for alg in sorted(needed):
        if config.footing_of.get(alg) not in FOOTING_LABELS:
            raise ValueError(
                f"footing_of must give every algorithm run ({sorted(needed)}) one of "
                f"{sorted(FOOTING_LABELS)}, got {config.footing_of!r}"
            )
    out.mkdir(parents=True, exist_ok=True)
    store = CellStore(out / f"{name}_cells")
    presets = config.presets
    K = _grid_kernel("synthetic_se", presets)
    objective_seed, runs_seed = child_seeds(config.seed, 0, 2)
    f = sample_rkhs_function(K, presets.n_support, np.random.default_rng(objective_seed)).values
    B = float(np.max(np.abs(f)))
    R = presets.noise_bound
    gbar = certified_gamma_upper(K, T, presets.lam)
    rep_seeds = child_seeds(runs_seed, 0, reps)
    jobs = [(a, e) for a in config.algorithms for e in eps_grid]
    finals: dict[str, FloatArray] = {}
    at_eps_for_T: dict[str, FloatArray] = {}
    for alg, eps in _progress(jobs, name, len(jobs)):
        panel = Panel("scaling", "synthetic_se", eps)
        cell_config = _cell_config(name, config, alg, eps, T, reps)

        def compute(alg: AlgorithmName = alg, panel: Panel = panel) -> dict[str, FloatArray]:
            return _run_cell(
                panel, alg, config.footing_of[alg], T, rep_seeds, presets, K, None, fixed_f=f
            )

        arrays = store.arrays(f"{alg}_eps{eps:g}", cell_config, compute)
        curves = arrays["cum_regret"]
        finals.setdefault(alg, np.empty((reps, len(eps_grid))))[:, eps_grid.index(eps)] = curves[
            :, -1
        ]
        if eps == config.eps_for_T:
            at_eps_for_T[alg] = curves
    ts = np.unique(np.geomspace(first, T, config.checkpoints).round().astype(np.int64))
    fits: list[ScalingFit] = []
    for alg in config.algorithms:
        form_t = theorem_form(
            alg, ts, gbar[ts - 1], B, R, config.eps_for_T, presets.eps_nys, presets.delta
        )
        fits.append(
            fit_against_form(
                f"regret vs T, {_label(config, alg)}, against {_THEOREM[alg]}",
                ts.astype(np.float64),
                form_t,
                np.maximum(at_eps_for_T[alg][:, ts - 1], 1e-12),
                theorem_exponent="1/2 in T (times γ_T and log factors)",
                confidence=config.confidence,
            )
        )
        form_e = np.array(
            [
                theorem_form(
                    alg,
                    np.array([T]),
                    gbar[T - 1 : T],
                    B,
                    R,
                    e,
                    presets.eps_nys,
                    presets.delta,
                )[0]
                for e in eps_grid
            ]
        )
        fits.append(
            fit_against_form(
                f"regret vs 1/ϵ, {_label(config, alg)}, against {_THEOREM[alg]}",
                1.0 / np.asarray(eps_grid),
                form_e,
                np.maximum(finals[alg], 1e-12),
                theorem_exponent="1 in 1/ϵ (ϵ ≲ 1)",
                confidence=config.confidence,
            )
        )
    dimension = _dimension_fit(config, store, B, R, runs_seed, reps, fits)
    payload: dict[str, Any] = {
        "B": B,
        "R": R,
        "gamma_bar_T": float(gbar[-1]),
        "dimension": dimension,
        "uniform_regret": T * float(np.max(f) - np.mean(f)),
        "checkpoints": ts.tolist(),
        "final_regret": {a: v.tolist() for a, v in finals.items()},
        "cells": {"computed": store.computed, "reused": store.reused},
    }
    return ExperimentReport(
        name,
        "zhou_tan",
        to_jsonable(config),
        Figure(lambda plt: _plot_scaling(plt, config, eps_grid, finals, at_eps_for_T)),
        _scaling_markdown(config, payload, fits),
        fits=tuple(to_jsonable(fit) for fit in fits),
        payload=payload,
        layout=(*(k for k in payload if k != "cells"), "fits", "cells"),
    )


def _dimension_fit(
    config: ScalingConfig,
    store: CellStore,
    B: float,
    R: float,
    runs_seed: np.random.SeedSequence,
    reps: int,
    fits: list[ScalingFit],
) -> dict[str, Any]:
    """Final regret of ``config.dim_algorithm`` vs ``d`` on the product grids, fitted against the
    theorem's form at ``T`` with the grid kernel's ``γ̄_T`` (appended to ``fits``).

    Objective ``d``: the Sec. 5.1 generator on the ``d``-grid (seeds: children ``2, 3, …`` of
    ``config.seed``; children 0 and 1 are the main objective and the replicate streams),
    rescaled so that ``max|f| = B`` (the main objective's), so that the form depends on ``d``
    only through ``γ̄_T``.  The replicate streams are those of the ``T`` and ``ϵ`` runs.
    """
    if not config.dims:
        return {}
    T, presets, eps, alg = config.T, config.presets, config.eps_for_T, config.dim_algorithm
    obj_seeds = child_seeds(config.seed, 2, 2 + len(config.dims))
    rep_seeds = child_seeds(runs_seed, 0, reps)
    finals = np.empty((reps, len(config.dims)))
    gammas, uniform, ranks = [], [], []
    for j, (d, side) in enumerate(zip(config.dims, config.dim_sides, strict=True)):
        X = product_grid(side, d)
        K = se_kernel(X, X, presets.lengthscale)
        raw = sample_rkhs_function(K, presets.n_support, np.random.default_rng(obj_seeds[j]))
        f = raw.values * (B / max(raw.sup_norm, 1e-12))
        gammas.append(float(certified_gamma_upper(K, T, presets.lam)[-1]))
        uniform.append(T * float(np.max(f) - np.mean(f)))
        ranks.append(int(np.sum(np.linalg.eigvalsh(K) > 1e-3)))
        panel = Panel("scaling_dim", "synthetic_se", eps)
        cell_config = _cell_config("scaling_dim", config, alg, eps, T, reps, dim=d, side=side, B=B)

        def compute(
            K: FloatArray = K, f: FloatArray = f, panel: Panel = panel
        ) -> dict[str, FloatArray]:
            return _run_cell(
                panel, alg, config.footing_of[alg], T, rep_seeds, presets, K, None, fixed_f=f
            )

        finals[:, j] = store.arrays(f"{alg}_dim{d}_eps{eps:g}", cell_config, compute)["cum_regret"][
            :, -1
        ]
    form = np.array(
        [
            theorem_form(alg, np.array([T]), np.array([g]), B, R, eps, presets.eps_nys,
                         presets.delta)[0]
            for g in gammas
        ]
    )  # fmt: skip
    fits.append(
        fit_against_form(
            f"regret vs d, {_label(config, alg)}, against {_THEOREM[alg]}",
            np.asarray(config.dims, dtype=np.float64),
            form,
            np.maximum(finals, 1e-12),
            theorem_exponent="1 in the form (d enters through γ̄_T only)",
            confidence=config.confidence,
        )
    )
    return {
        "algorithm": alg,
        "eps": eps,
        "dims": list(config.dims),
        "sides": list(config.dim_sides),
        "points": [side**d for d, side in zip(config.dims, config.dim_sides, strict=True)],
        "gamma_bar_T": gammas,
        "kernel_rank_1e-3": ranks,
        "form": form.tolist(),
        "uniform_regret": uniform,
        "final_regret": finals.tolist(),
    }


def eps_log_axis(ax: Any, eps_grid: Sequence[float]) -> None:
    """Log ``ϵ`` axis whose only tick labels are the grid values (``0.25``, ``0.5``, ...).

    Matplotlib's default log axis labels minor ticks (``3×10⁻¹``, ``4×10⁻¹``, ...) when the range
    spans less than about a decade, and those labels overlap; here the major ticks sit exactly on
    ``eps_grid``, minor ticks are unlabelled and the labels are rotated 45°.
    """
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullFormatter

    grid = sorted(float(e) for e in eps_grid)
    ax.set_xscale("log")
    ax.xaxis.set_major_locator(FixedLocator(grid))
    ax.xaxis.set_major_formatter(FixedFormatter([f"{e:g}" for e in grid]))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.tick_params(axis="x", which="major", labelrotation=45, labelsize=8)
    ax.set_xlim(grid[0] / 1.3, grid[-1] * 1.3)


def _plot_scaling(
    plt: Any,
    config: ScalingConfig,
    eps_grid: tuple[float, ...],
    finals: dict[str, FloatArray],
    curves: dict[str, FloatArray],
) -> Any:
    fig, (ax_t, ax_e) = plt.subplots(1, 2, figsize=(9, 3.6))
    t = np.arange(1, config.T + 1)
    for alg, c in curves.items():
        mean = c.mean(axis=0)
        se = c.std(axis=0, ddof=1) / math.sqrt(c.shape[0])
        ax_t.loglog(t, mean, label=_label(config, alg))
        ax_t.fill_between(t, np.maximum(mean - se, 1e-3), mean + se, alpha=0.2)
    ax_t.set_xlabel("t")
    ax_t.set_ylabel("cumulative regret")
    ax_t.set_title(f"regret vs t (ϵ = {config.eps_for_T:g})", fontsize=9)
    ax_t.legend(fontsize=7)
    for alg, v in finals.items():
        mean = v.mean(axis=0)
        se = v.std(axis=0, ddof=1) / math.sqrt(v.shape[0])
        ax_e.errorbar(eps_grid, mean, yerr=se, marker="o", label=_label(config, alg))
    eps_log_axis(ax_e, eps_grid)
    ax_e.set_yscale("log")
    ax_e.set_xlabel("ϵ")
    ax_e.set_ylabel(f"regret at T = {config.T}")
    ax_e.set_title("final regret vs ϵ", fontsize=9)
    ax_e.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _scaling_markdown(
    config: ScalingConfig, report: dict[str, Any], fits: list[ScalingFit]
) -> tuple[str | Table, ...]:
    lines: list[str | Table] = [
        "# Zhou & Tan regret scaling against Theorems 2, 3 and Corollary 1",
        "",
        f"One synthetic SE objective (B = {report['B']:.3f}, R = {report['R']}), T = {config.T}, "
        f"{config.replicates} replicates, ϵ ∈ {list(config.eps_grid)}; γ_T replaced by the certified "
        f"γ̄_t (γ̄_T = {report['gamma_bar_T']:.2f}). Uniform play would have regret "
        f"{report['uniform_regret']:.1f} at T. OLS of ln R on ln(form), clustered by replicate; "
        "slope 1 = regret grows like the theorem's form; 'consistent' = the one-sided test of "
        f"slope ≤ 1 does not reject at level {1 - config.confidence:.2f}. The paper reports no "
        "scaling experiment; these fits are reported as diagnostics. Footings: "
        + ", ".join(f"{ALGORITHM_LABELS[a][0]} {config.footing_of[a]}" for a in config.algorithms)
        + " (the theory k of MoMA leaves it one epoch at these horizons).",
        "",
        Table(
            ("fit", "slope", "95% CI", "bare power exponent", "verdict"),
            tuple(
                (
                    fit.name,
                    f"{fit.slope:.3f}",
                    f"[{fit.ci_low:.3f}, {fit.ci_high:.3f}]",
                    f"{fit.bare_power_exponent:.3f}",
                    "consistent" if fit.consistent else "inconsistent",
                )
                for fit in fits
            ),
        ),
    ]
    dim = report.get("dimension") or {}
    if dim:
        lines += [
            "",
            f"Dimension fit ({dim['algorithm']}, ϵ = {dim['eps']:g}, T = {config.T}): product grids "
            "with the same SE kernel, objectives rescaled to max|f| = B, so that Theorem 3's form "
            "depends on d only through γ̄_T.",
            "",
        ]
        means = np.asarray(dim["final_regret"]).mean(axis=0)
        lines.append(
            Table(
                ("d", "grid", "γ̄_T", "form", "mean final regret", "uniform play"),
                tuple(
                    (
                        str(d),
                        f"{dim['sides'][j]}^{d} = {dim['points'][j]}",
                        f"{dim['gamma_bar_T'][j]:.2f}",
                        f"{dim['form'][j]:.0f}",
                        f"{means[j]:.1f}",
                        f"{dim['uniform_regret'][j]:.1f}",
                    )
                    for j, d in enumerate(dim["dims"])
                ),
            )
        )
    lines += [
        "",
        f"Mean final regret at T = {config.T} (uniform play: {report['uniform_regret']:.1f}):",
        "",
        Table(
            ("algorithm", *(f"ϵ = {e:g}" for e in config.eps_grid)),
            tuple(
                (
                    _label(config, alg),
                    *(f"{m:.1f}" for m in np.asarray(values).mean(axis=0)),
                )
                for alg, values in report["final_regret"].items()
            ),
        ),
    ]
    lines += [
        "",
        "The theorems are O(·) upper bounds: a slope below 1 (regret growing more slowly than the "
        "form) is consistent; a slope significantly above 1 would be growth beyond the form. At "
        "small T the regret of the LDP learners is near-linear (near uniform play, large widths), "
        "and the form's own local exponent in T (√T times growing γ̄_t and logs) is close to 1, "
        "so the T fits test little; the ϵ fits are capped by linear regret at small ϵ.",
    ]
    return tuple(lines)
