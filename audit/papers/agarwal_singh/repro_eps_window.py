"""Agarwal & Singh (ICML 2017) experiment ``eps_window``: the ε-window test (the ``1/ε`` law
of the privacy term of Algorithm 1 inside its window, Thm 3.1) and the privacy-term test
(``D_{D'}(T, N)`` of Cor. 3.2).  Overview in :mod:`audit.papers.agarwal_singh.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

import numpy as np

from audit.methods.scaling import fit_against_form, fit_mean_against_form
from audit.papers.agarwal_singh.repro_common import (
    INF,
    _check_lines,
    _eps_key,
    _mean_se,
    _progress,
    _report,
    cell_seed,
)
from audit.papers.agarwal_singh.repro_ftrl import _ftrl_parameters, _ftrl_regret
from audit.reproduce.common import CellStore
from audit.reproduce.report import ExperimentReport, Figure
from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import Calibration
from reference.agarwal_singh.environments import experts_bernoulli
from reference.agarwal_singh.theorems import (
    cor32_parameters,
    noise_width_monte_carlo,
    noise_width_upper_bound,
)
from reference.noise import LaplaceNoise
from reference.rng import as_generator, child_seeds
from reference.validation import check_int_at_least

__all__ = [
    "EPS_SLOPE_WINDOW",
    "LNLNT_SLOPE_WINDOW",
    "N_SLOPE_WINDOWS",
    "EpsWindowConfig",
    "eps_window_bounds",
    "eps_window_cell",
    "eps_window_fit",
    "noise_width_cell",
    "predicted_excess",
    "reproduce_eps_window",
    "window_verdict",
]


# --------------------------------------------------------------------------------------------
# eps_window: ε-exponent inside its window (b) and D_{D'} in T and N (c)
# --------------------------------------------------------------------------------------------

NoiseSet: TypeAlias = Literal["experts", "sphere", "cube"]
_NOISE_SET_CODES: dict[str, int] = {"experts": 1000, "sphere": 1001, "cube": 1002}

EPS_SLOPE_WINDOW = (-1.2, -0.8)
"""(b): pass window of the slope of ``ln(R̂(ε) − R̂(∞))`` on ``ln ε`` inside its window."""
LNLNT_SLOPE_WINDOW = (1.35, 1.65)
"""(c): pass window of the slope of ``ln D̂_{D'}`` on ``ln ln T`` (expected 1.5)."""
N_SLOPE_WINDOWS: dict[str, tuple[float, float]] = {
    "experts": (1.3, 1.6),
    "sphere": (0.9, 1.15),
    "cube": (0.9, 1.15),
}
"""(c): pass windows of the slope of ``ln D̂_{D'}`` on ``ln N`` (N = 2..32, T = 2^16)."""

_PILOT_WINDOW_EXCESS = {0.005: 14414.0, 0.0075: 10790.0, 0.01: 7917.0, 0.015: 5250.0}
_PILOT_SLOPES = {"window": -0.93, "smoothing": -1.38, "saturation": -0.70}
_PILOT_NOISE = {
    "T_slope": {"experts": 1.498, "sphere": 1.502, "cube": 1.509},
    "N_slope": {"experts": 1.461, "sphere": 1.040, "cube": 1.001},
    "D_N8_T65536": {"experts": 1436.0, "sphere": 973.0, "cube": 796.0},
}
"""The design pilot values for (b)-(c) (paper-ln preset, ±15% reference values, not paper numbers)."""


@dataclass(frozen=True)
class EpsWindowConfig:
    """(b): the ``1/ε`` law of the privacy term holds only inside a window; (c): the
    ``T``- and ``N``-dependence of the privacy term ``D_{D'}`` of Thm 3.4.

    (b) Experts ``N = 2``, i.i.d. losses ``l_t(i) ~ Bern(means[i])`` (gap ``Δ = 0.2``; one fixed
    sequence per ``(sequence, T)``, shared by every ``ε``), Algorithm 1 with ``η* = √(ln 2/(2T))``;
    the excess ``R̂(ε) − R̂(∞)`` is paired (same sequence; the non-private run is deterministic given
    it).  ``(horizon, epsilons)`` is the experiment's design inside the window ``5/η ≤ E[d₊] ≤ TΔ/4``;
    ``smoothing_epsilons`` / ``saturation_epsilons`` at ``counter_horizon`` are its two
    counter-examples (reported, not gated).  (c) Monte Carlo ``D_{D'} = E[h_X(Z) + h_X(−Z)]`` with
    the reference sampler (:func:`~reference.agarwal_singh.theorems.noise_width_monte_carlo`),
    ``noise_draws`` draws split in ``noise_batches`` batches (the replicates of the fit).

    ``calibration = "paper"`` (``λ = ‖Y‖₁ ln T/ε``) is the preset of the design pilots, so the
    numbers compare with them; the strict ``λ = Δ₁(Y)·h/ε`` is a fixed multiple of it at powers of
    two (``h = log₂ T``), which moves the window in ``ε`` but leaves every slope unchanged.
    Reduced default: the experiment's design with 200 runs on one sequence (the runs share the
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
        """E4's ``R_env·R_alg = 10·20`` runs, denser counter-example grids, 1e5 draws."""
        return cls(
            runs=20,
            sequences=10,
            smoothing_epsilons=(0.03, 0.05, 0.1, 0.2, 0.3),
            saturation_epsilons=(0.01, 0.015, 0.02, 0.03),
            noise_draws=100_000,
        )


def eps_window_bounds(T: int, gap: float) -> tuple[float, float]:
    """The window of the ε-window test for ``E[d₊]``: ``(5/η, TΔ/4)`` with ``η = √(ln 2/(2T))``."""
    eta = math.sqrt(math.log(2.0) / (2.0 * check_int_at_least("T", T, 2)))
    return 5.0 / eta, T * gap / 4.0


def predicted_excess(lam: float, K: int) -> float:
    """``E[d₊] = 2λ√K/√(2π)`` (normal approximation of ``d = Z(2) − Z(1)``, a sum of
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
    to the factor ``λ ∝ 1/ε``).  At ``ε = ∞`` the run is deterministic and repeated.  Run as E4's
    cells are (:func:`audit.papers.agarwal_singh.repro_ftrl._ftrl_regret`, on the compiled
    engine)."""
    env_seed, tree_seed = child_seeds(seed, 0, 2)
    losses = experts_bernoulli(
        np.asarray(means, dtype=np.float64), T, np.random.default_rng(env_seed)
    )
    p = _ftrl_parameters(2, T, epsilon, calibration)
    regret = _ftrl_regret(losses, epsilon, runs, calibration, tree_seed, "experts")["regret"]
    lam = 0.0 if math.isinf(epsilon) else p.lam
    return {
        "regret": regret,
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
    """The experiment's rule for scaling fits: pass iff the slope's CI overlaps the stated window; the
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


def reproduce_eps_window(config: EpsWindowConfig, out: Path) -> ExperimentReport:
    """Run the ε-window (b) and privacy-term (c) tests, cells into ``out``: the report of
    ``eps_window.{json,png,md}``."""
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
    name = "eps_window"
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
        result, fit, check = _window_regime(config, regime, T, epsilons, gap, run_cell)
        fits.append(fit)
        results["regimes"][regime] = result
        checks.append(check)
    for noise_set in config.noise_sets:
        result, noise_fits, noise_checks = _privacy_term(config, noise_set, width_cell)
        fits += noise_fits
        checks += noise_checks
        results["noise"][noise_set] = result
    bar.close()
    return _report(
        name,
        config,
        results,
        fits,
        checks,
        (cells.computed, cells.reused),
        Figure(lambda plt: _eps_window_plot(plt, config, results, fits)),
        _eps_window_markdown(config, results, fits, checks),
    )


def _window_regime(
    config: EpsWindowConfig,
    regime: str,
    T: int,
    epsilons: tuple[float, ...],
    gap: float,
    run_cell: Callable[[int, int, float], dict[str, Any]],
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Test (b) in one regime: the paired excesses over ``R̂(∞)`` at every ``ε`` of the regime,
    their fit against the ``1/ε`` law, and its check (a gate in the window, a counter-example
    outside it); returns ``(result, fit, check)``."""
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
    result = {
        "T": T, "window_low": low_w, "window_high": high_w, "gap": gap, "rows": rows,
    }  # fmt: skip
    if regime == "window":
        check = {
            "claim": f"ε-window (T = {T}, ε ∈ {list(epsilons)}): slope of "
            "ln(R̂(ε) − R̂(∞)) on ln ε has its 95% CI overlapping [−1.2, −0.8]",
            "holds": bool(fit["fitted"] and fit["passes"]),
            "gate": True,
        }
    else:
        check = {
            "claim": f"ε-window counter-example '{regime}' (T = {T}, ε ∈ {list(epsilons)}): "
            "the design's pass rule rejects the 1/ε law there (the slope's 95% CI misses "
            "[−1.2, −0.8]): the window matters",
            "holds": bool(fit["fitted"] and not fit["passes"]),
            "gate": False,
        }
    return result, fit, check


def _privacy_term(
    config: EpsWindowConfig,
    noise_set: NoiseSet,
    width_cell: Callable[[NoiseSet, int, int], dict[str, Any]],
) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Test (c) on one decision set: the widths ``D̂_{D'}`` vs ``T`` and vs ``N``, their fits
    against the windows and the checks; returns ``(result, fits, checks)``."""
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
    checks = []
    for f, what in ((t_fit, "ln ln T"), (n_fit, "ln N")):
        checks.append(
            {
                "claim": f"privacy term {noise_set}: slope of ln D̂_D' on {what} has its 95% CI "
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

    return {"by_T": summary(by_T), "by_N": summary(by_N)}, [t_fit, n_fit], checks


def _eps_window_plot(
    plt: Any, config: EpsWindowConfig, results: dict[str, Any], fits: list[dict[str, Any]]
) -> Any:
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
    axes[0].set_title("ε-window: 1/ε only inside 5/η ≤ E[d₊] ≤ TΔ/4")
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
        f"privacy term: D_D' vs ln T (N = {config.noise_dim}, ε = {config.noise_epsilon:g})"
    )
    axes[1].legend(fontsize=7)
    axes[2].set_xscale("log", base=2)
    axes[2].set_yscale("log")
    axes[2].set_xlabel("N")
    axes[2].set_title(f"privacy term: D_D' vs N (T = {config.noise_dim_T})")
    axes[2].legend(fontsize=7)
    fig.tight_layout()
    return fig


def _verdict_cell(f: dict[str, Any]) -> str:
    if not f["fitted"]:
        return f"not fitted ({f['reason']})"
    low, high = f["ci"]
    where = "inside" if f["ci_inside_window"] else ("overlaps" if f["passes"] else "outside")
    return (
        f"{f['slope']:.3f} [{low:.3f}, {high:.3f}] | [{f['window'][0]:g}, {f['window'][1]:g}] | "
        f"CI {where} | {f['pilot_slope']:g}"
    )


def _fit_table(fits: Iterable[dict[str, Any]]) -> list[str]:
    """The Markdown table of ``fits``: slope with its CI, window, verdict, the spec's pilot."""
    return [
        "| fit | slope [95% CI] | window | verdict | spec pilot |",
        "|---|---|---|---|---|",
        *(f"| {f['name']} | {_verdict_cell(f)} |" for f in fits),
    ]


def _eps_window_markdown(
    config: EpsWindowConfig,
    results: dict[str, Any],
    fits: list[dict[str, Any]],
    checks: list[dict[str, Any]],
) -> list[str]:
    lo_m, hi_m = config.means
    lines = [
        "# The 1/ε window of the privacy term, and D_{D'} in T and N",
        "",
        "The paper has no experiments. Thm 3.1 says the privacy cost of Algorithm 1 is "
        "an additive Õ(1/ε) term. The ε-window test checks its ε-exponent where it is visible: experts "
        f"N = 2, i.i.d. losses Bern({lo_m:g}) vs Bern({hi_m:g}) (gap Δ = {hi_m - lo_m:g}), "
        f"{config.calibration} Laplace calibration (λ = 2 ln T/ε: the preset of the design pilots), "
        f"η = √(ln 2/(2T)), {config.runs} runs × {config.sequences} loss sequence(s); "
        "excess = R̂(ε) − R̂(∞) paired on the same sequence. The one-shot noise d = Z(2) − Z(1) makes "
        "FTRL follow the wrong expert until tΔ ≈ d, so excess ≈ E[min(d₊, TΔ)] with "
        "E[d₊] = 2λ√K/√(2π) ∝ 1/ε — but only inside the window 5/η ≤ E[d₊] ≤ TΔ/4: below it the "
        "softmax smooths the noise (excess ∝ η·E[d²], slope → −2), above it the excess saturates "
        "at ≈ TΔ (slope → 0).",
        "",
        "Pass criterion (the experiment's rule for scaling fits): the slope of ln(excess) on ln ε over the "
        f"design (spec: T = 2^18, ε ∈ {{0.005, 0.0075, 0.01, 0.015}}; here T = {config.horizon}, "
        f"ε ∈ {list(config.epsilons)}) has its 95% CI overlapping [−1.2, −0.8]. The fit is statsmodels' log-link GLM on the paired excesses "
        "(`audit.methods.scaling.fit_mean_against_form`, runs as clusters): single excesses can be "
        "negative. The two counter-examples of the design (T = 2^16, smoothing ε ∈ {0.03, …, 0.3}, "
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
    lines += ["", *_fit_table(f for f in fits if "regime" in f)]
    outside = [
        f"ε = {r['epsilon']:g}" for r in results["regimes"]["window"]["rows"] if not r["in_window"]
    ]
    lines += [
        "",
        "Reading: design points whose predicted E[d₊] lies outside the window: "
        + (", ".join(outside) if outside else "none")
        + " (in the experiment's design ε = 0.005 is above TΔ/4, so its smallest ε bends the curve "
        "towards saturation; the design pilot slope over the four points is −0.93). In the "
        "smoothing regime the excess falls faster than 1/ε (η·E[d²] ∝ 1/ε²), in the saturation "
        "regime slower (the cap TΔ): a 1/ε fit outside the window is not a test of Thm 3.1.",
        "",
        "## The privacy term D_{D'} of the bound in T and N",
        "",
        "The regret excess is not monotone in T (privacy for free), so this experiment tests the bound's "
        "privacy term instead: D_{D'} = E[h_X(Z) + h_X(−Z)] by Monte Carlo with the reference "
        f"sampler, {config.noise_draws} draws in {config.noise_batches} batches (the replicates of "
        f"the fit), Cor. 3.2's λ ({config.calibration}), ε = {config.noise_epsilon:g}. Expected: "
        "D_{D'} ∝ λ√K ⇒ slope 1.5 on ln ln T (paper envelope log²T: 2); N-slopes ≈ 1.46 (experts: "
        "λ ∝ N times the growth of E[max − min]), 1.04 (sphere), 1.00 (cube).",
        "",
        *_fit_table(f for f in fits if "regime" not in f),
    ]
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
