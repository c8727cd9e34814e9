"""Sajed & Sheffet (ICML 2019) experiment ``thm43``: DP-SE's regret (Algorithm 3) against
Theorem 4.3's own form (two-term OLS and one-variable fits in ``log T``, ``K`` and ``1/ε``).
Overview in :mod:`audit.papers.sajed_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import statsmodels.api as sm

from audit.methods.scaling import ScalingFit, fit_against_form
from audit.papers.sajed_sheffet.repro_cells import (
    CellSpec,
    SpecCellStore,
    Thm43Config,
    _report,
    _split_rows,
)
from audit.reproduce.report import ExperimentReport
from audit.results import to_jsonable
from reference._typing import FloatArray
from reference.engine.mab import Instance, section5_means
from reference.sajed_sheffet.bounds import thm43_regret_bound_paper_form
from reference.validation import check_int_at_least

__all__ = [
    "reproduce_thm43",
    "thm43_linear_fit",
    "thm43_proof_form",
]


# --------------------------------------------------------------------------------------------
# thm43: scaling of DP-SE against Theorem 4.3's form
# --------------------------------------------------------------------------------------------


def thm43_proof_form(gaps: FloatArray | Sequence[float], T: int, epsilon: float) -> float:
    """The proof of Theorem 4.3 (its equality step): ``Σ_{a≠a*} log(T K log(1/Δ_a)) (1/Δ_a + 1/ε)``.

    The form before the simplification ``log(TK log(1/Δ_a)) ≤ 3 log T`` of its last step; unlike it, it
    keeps the ``log K`` of Lemma 4.2's ``log(K log(1/Δ)/β)``.  Needs ``0 < Δ_a < 1``.
    """
    g = np.asarray(gaps, dtype=np.float64)
    pos = g[g > 0.0]
    if pos.size == 0 or np.any(pos >= 1.0):
        raise ValueError("gaps must contain suboptimal gaps in (0, 1)")
    K = int(g.size)
    terms = np.log(T * K * np.log(1.0 / pos)) * (1.0 / pos + 1.0 / epsilon)
    return float(np.sum(terms))


def thm43_linear_fit(
    x_gap: FloatArray, x_privacy: FloatArray, regret: FloatArray, confidence: float = 0.95
) -> dict[str, Any]:
    """OLS ``regret = c₁ x_gap + c₂ x_privacy`` (no intercept), HC3 CIs.

    ``x_gap = Σ_{a≠a*} log T/Δ_a`` and ``x_privacy = K log T/ε`` per run (Theorem 4.3).
    Theorem 4.3 is an upper bound with Lemma 4.2's explicit constants carried through its proof
    (``log(TK log(1/Δ)) ≤ 3 log T``): ``c₁ ≤ 3·1024``, ``c₂ ≤ 3·96``.  The fit is *consistent*
    unless a lower confidence limit exceeds its constant (evidence of more regret than the bound
    allows); ``positive`` reports whether both coefficients are significantly above 0 (both terms
    of the form are visible in the data).
    """
    design = np.column_stack([x_gap, x_privacy])
    fit = sm.OLS(np.asarray(regret, dtype=np.float64), design).fit(cov_type="HC3")
    ci = fit.conf_int(alpha=1.0 - confidence)
    c1, c2 = (float(v) for v in fit.params)
    (l1, h1), (l2, h2) = ((float(a), float(b)) for a, b in ci)
    consistent = l1 <= 3 * 1024 and l2 <= 3 * 96
    return {
        "c1": c1,
        "c1_ci": [l1, h1],
        "c2": c2,
        "c2_ci": [l2, h2],
        "r_squared": float(fit.rsquared),
        "observations": int(design.shape[0]),
        "consistent": bool(consistent),
        "positive": bool(l1 > 0.0 and l2 > 0.0),
    }


def _thm43_specs(config: Thm43Config) -> list[CellSpec]:
    specs: list[CellSpec] = []
    settings = tuple((i, e) for i in config.instances for e in config.epsilons)
    for T in config.Ts:
        for K in config.Ks:
            specs.append(
                CellSpec(
                    f"dpse_T{T}_K{K}",
                    "dpse",
                    T,
                    K,
                    settings,
                    config.runs,
                    config.seed,
                    "thm43",
                    checkpoints=False,
                )
            )
    return specs


def _fit_dict(fit: ScalingFit) -> dict[str, Any]:
    return dict(to_jsonable(fit))


def reproduce_thm43(
    config: Thm43Config, out: Path, *, executor: str = "serial"
) -> ExperimentReport:
    """Run the Theorem 4.3 scaling fits (cells into ``out``): the report of ``thm43.json``,
    ``.png`` and ``.md``."""
    check_int_at_least("runs", config.runs, 2)
    if len(config.Ts) < 2 or len(config.Ks) < 2 or len(config.epsilons) < 2:
        raise ValueError("Ts, Ks and epsilons need at least two values each for the fits")
    for name, value, allowed in (
        ("fit_T", config.fit_T, config.Ts),
        ("fit_K", config.fit_K, config.Ks),
        ("fit_epsilon", config.fit_epsilon, config.epsilons),
    ):
        if value not in allowed:
            raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
    out.mkdir(parents=True, exist_ok=True)
    store = SpecCellStore(out / "thm43_cells")
    cells = store.run(_thm43_specs(config), executor)
    n_set = len(config.instances) * len(config.epsilons)
    finals: dict[tuple[int, int, Instance, float], FloatArray] = {}
    finished: dict[tuple[int, int, Instance, float], bool] = {}
    for T in config.Ts:
        for K in config.Ks:
            arrays = cells[f"dpse_T{T}_K{K}"]
            runs = _split_rows(arrays["final"], n_set, config.runs)
            done = _split_rows(arrays["all_eliminated"], n_set, config.runs)
            for j, (instance, eps) in enumerate(
                (i, e) for i in config.instances for e in config.epsilons
            ):
                finals[(T, K, instance, eps)] = runs[j]
                finished[(T, K, instance, eps)] = bool(np.all(done[j] == 1.0))
    # Two-term fit over the settings in the asymptotic regime (every suboptimal arm eliminated).
    xg: list[float] = []
    xp: list[float] = []
    y: list[float] = []
    excluded: list[str] = []
    for (T, K, instance, eps), values in finals.items():
        if not finished[(T, K, instance, eps)]:
            excluded.append(f"{instance}/K={K}/ε={eps}/T={T}")
            continue
        gaps = 0.75 - section5_means(instance, K)
        x_gap = float(np.sum(math.log(T) / gaps[gaps > 0]))
        x_priv = K * math.log(T) / eps
        xg += [x_gap] * values.size
        xp += [x_priv] * values.size
        y += values.tolist()
    linear = thm43_linear_fit(np.array(xg), np.array(xp), np.array(y))
    linear["excluded_unfinished_settings"] = excluded
    # One-variable fits against the theorem's form.
    fits: dict[str, dict[str, Any]] = {}
    variables: list[tuple[str, Instance, list[tuple[int, int, float]], FloatArray]] = [
        (
            "log T",
            config.instance_T,
            [(T, config.fit_K, config.fit_epsilon) for T in config.Ts],
            np.array(config.Ts, dtype=np.float64),
        ),
        (
            "K",
            config.instance_K,
            [(config.fit_T, K, config.fit_epsilon) for K in config.Ks],
            np.array(config.Ks, dtype=np.float64),
        ),
        (
            "1/ε",
            config.instance_epsilon,
            [(config.fit_T, config.fit_K, e) for e in config.epsilons],
            1.0 / np.array(config.epsilons),
        ),
    ]
    forms: dict[str, Callable[[FloatArray, int, float], float]] = {
        "proof": thm43_proof_form,
        "paper": thm43_regret_bound_paper_form,
    }
    points: dict[str, Any] = {}
    for label, instance, grid, x in variables:
        regrets = np.column_stack([finals[(T, K, instance, e)] for T, K, e in grid])
        points[label] = {
            "instance": instance,
            "points": [list(p) for p in grid],
            "mean_regret": regrets.mean(axis=0).tolist(),
        }
        for form_name, form_fn in forms.items():
            form = np.array([form_fn(0.75 - section5_means(instance, K), T, e) for T, K, e in grid])
            fit = fit_against_form(
                f"DP-SE regret vs {label} ({instance}) against Thm 4.3 {form_name}",
                x,
                form,
                regrets,
                theorem_exponent="1 (regret = O(form))",
            )
            fits[f"{label} / {form_name}"] = _fit_dict(fit)
            points[label][f"form_{form_name}"] = form.tolist()
    payload: dict[str, Any] = {
        "linear_fit": linear,
        "scaling_fits": fits,
        "points": points,
    }
    return _report(
        "thm43", config, payload, store, lambda plt: _thm43_plot(plt, points), _thm43_markdown
    )


def _thm43_plot(plt: Any, points: dict[str, Any]) -> Any:
    fig, axes = plt.subplots(1, len(points), figsize=(4.5 * len(points), 3.8), squeeze=False)
    for ax, (label, p) in zip(axes[0], points.items(), strict=True):
        form = np.array(p["form_proof"])
        mean = np.array(p["mean_regret"])
        ax.loglog(form, mean, "o-", label="DP-SE mean regret")
        ax.loglog(form, form * mean[0] / form[0], "k:", label="∝ Thm 4.3 proof form")
        ax.set_xlabel(f"Thm 4.3 proof form, varying {label}")
        ax.set_ylabel("regret")
        ax.set_title(f"{p['instance']}: regret vs {label}")
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _thm43_markdown(config: Thm43Config, report: dict[str, Any]) -> tuple[str, ...]:
    lin = report["linear_fit"]
    lines = [
        "# Theorem 4.3 scaling of DP-SE (Sajed & Sheffet, Theorem 4.3 and its proof)",
        "",
        f"DP-SE (Bernoulli fast path), β = 1/T, T ∈ {list(config.Ts)}, K ∈ {list(config.Ks)}, "
        f"ε ∈ {list(config.epsilons)}, instances {', '.join(config.instances)}, {config.runs} runs "
        "per setting (the paper runs 30 at T = 5·10⁷ and fits nothing: Thm 4.3 is a big-O "
        "statement).",
        "",
        "## Two-term fit: regret ≈ c₁ Σ_{a≠a*} log T/Δ_a + c₂ K log T/ε (OLS, HC3, no intercept)",
        "",
        "| c₁ [95% CI] | c₂ [95% CI] | R² | runs | settings excluded (not finished by T) | verdict |",
        "|---|---|---|---|---|---|",
        f"| {lin['c1']:.1f} [{lin['c1_ci'][0]:.1f}, {lin['c1_ci'][1]:.1f}] | {lin['c2']:.2f} "
        f"[{lin['c2_ci'][0]:.2f}, {lin['c2_ci'][1]:.2f}] | {lin['r_squared']:.3f} | "
        f"{lin['observations']} | {len(lin['excluded_unfinished_settings'])} | "
        f"{'consistent' if lin['consistent'] else 'inconsistent'} |",
        "",
        "Consistent: neither lower confidence limit exceeds Lemma 4.2's explicit constant carried "
        "through the proof of Theorem 4.3 (c₁ ≤ 3072, c₂ ≤ 288). "
        + (
            "Both terms are significantly positive."
            if lin["positive"]
            else "Not both terms are significantly positive."
        ),
        "",
        "## One-variable fits: ln regret = a + b ln f (clustered by replicate; b ≤ 1 is consistent)",
        "",
        "f = the proof's form Σ log(TK log(1/Δ_a))(1/Δ_a + 1/ε) ('proof'), or its final "
        "simplification ('paper') Σ 3 log T/Δ_a + 3 log T (K − 1)/ε.",
        "",
        "| scaled variable / form | slope b [95% CI] | bare exponent | verdict |",
        "|---|---|---|---|",
    ]
    for name, f in report["scaling_fits"].items():
        lines.append(
            f"| {name} | {f['slope']:.3f} [{f['ci_low']:.3f}, {f['ci_high']:.3f}] | "
            f"{f['bare_power_exponent']:.3f} | {'consistent' if f['consistent'] else 'inconsistent'} |"
        )
    return tuple(lines)
