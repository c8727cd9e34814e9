"""Shariff & Sheffet App. D.1 (``privonline reproduce shariff-sheffet d1``): non-private LinUCB,
final regret vs ``d`` (``K = d²``, ``Δ = 0.1``), the paper's Figs. 2 and 3, and the pooled slope of
``log R̂_n`` on ``log d`` against the paper's "roughly 2" (:data:`SLOPE_BAND`).  Overview in
:mod:`audit.papers.shariff_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import statsmodels.api as sm

from audit.papers.shariff_sheffet.repro_common import app_d_report
from audit.reproduce.report import Check, ExperimentReport
from reference._typing import FloatArray
from reference.engine.blocks import run_blocks
from reference.engine.linucb import default_checkpoints
from reference.engine.tasks import GapBatchTask
from reference.shariff_sheffet.environments import RewardModel

__all__ = ["SLOPE_BAND", "D1Config", "reproduce_d1"]


@dataclass(frozen=True)
class D1Config:
    """App. D.1: non-private regret vs dimension (reduced scale by default)."""

    n: int = 10_000
    dims: tuple[int, ...] = (4, 6, 8, 11, 16)
    runs: int = 8
    gap: float = 0.1
    reward_models: tuple[RewardModel, ...] = ("rademacher", "gaussian")
    seed: int = 20181
    block_size: int = 8

    @classmethod
    def paper(cls) -> D1Config:
        """The paper's D.1: n = 10⁵, d ∈ [4, 64]; the 17 dimensions ``round(2^(2 + i/4))`` and 100
        runs per reward model come from the authors' code (the paper gives neither)."""
        dims = tuple(sorted({round(2 ** (2 + i / 4)) for i in range(17)}))
        return cls(n=100_000, dims=dims, runs=100)


SLOPE_BAND = (1.5, 2.5)
"""How D.1's "roughly 2" is read: a slope of ``log R̂_n`` on ``log d`` in this band."""


def _slope_verdict(fit: dict[str, float]) -> str:
    """``holds`` when the slope's 95% interval lies in :data:`SLOPE_BAND`, ``fails`` when it is
    disjoint from it, ``needs more runs`` otherwise."""
    low, high = fit["ci_low"], fit["ci_high"]
    if SLOPE_BAND[0] <= low and high <= SLOPE_BAND[1]:
        return "holds"
    return "fails" if high < SLOPE_BAND[0] or low > SLOPE_BAND[1] else "needs more runs"


def _pooled_slope(x: FloatArray, y: FloatArray) -> dict[str, float]:
    """OLS of ``log₂ y`` on ``log₂ x`` with HC3 standard errors: slope and its 95% CI."""
    fit = sm.OLS(np.log2(y), sm.add_constant(np.log2(x))).fit(cov_type="HC3")
    low, high = fit.conf_int(alpha=0.05)[1]
    return {"slope": float(fit.params[1]), "ci_low": float(low), "ci_high": float(high)}


def reproduce_d1(config: D1Config, out: Path, *, executor: str = "processes") -> ExperimentReport:
    """Run D.1 (runs into ``out``): the report of ``d1.json``, ``.png`` and ``.md``."""
    out.mkdir(parents=True, exist_ok=True)
    marks = default_checkpoints(config.n, per_decade=10)  # Fig. 2: regret over time per d
    results: dict[str, Any] = {}
    for model in config.reward_models:
        finals: dict[int, list[float]] = {}
        curves: dict[int, list[float]] = {}
        for d in config.dims:
            task = GapBatchTask(
                "nonprivate", d=d, num_arms=d * d, gap=config.gap, n=config.n,
                checkpoints=tuple(int(t) for t in marks), reward_model=model,
            )  # fmt: skip
            arrays = run_blocks(
                task,
                seed=config.seed + d,
                replicates=config.runs,
                block_size=config.block_size,
                executor=executor,
                out_dir=out / "runs" / f"d1_{model}_d{d}",
            )
            finals[d] = arrays["cumulative_regret"][:, -1].tolist()
            curves[d] = arrays["cumulative_regret"].mean(axis=0).tolist()
        x = np.repeat(np.array(config.dims, dtype=np.float64), config.runs)
        y = np.concatenate([finals[d] for d in config.dims])
        results[model] = {
            "final_regret": {str(d): v for d, v in finals.items()},
            "mean_final_regret": {str(d): float(np.mean(v)) for d, v in finals.items()},
            "mean_curve": {str(d): v for d, v in curves.items()},
            "fit": _pooled_slope(x, y),
        }
    payload: dict[str, Any] = {
        "checkpoints": marks.tolist(),
        "results": results,
    }

    def draw(plt: Any) -> Any:
        models = list(results)
        fig, axes = plt.subplots(1, len(models) + 1, figsize=(5 * (len(models) + 1), 4))
        colours = plt.cm.viridis(np.linspace(0.0, 0.95, len(config.dims)))
        for panel, label in zip(axes[:-1], models, strict=True):  # the paper's Fig. 2
            for colour, d in zip(colours, config.dims, strict=True):
                curve = results[label]["mean_curve"][str(d)]
                panel.plot(marks, curve, color=colour, label=f"d = {d}")
            panel.set_xlabel("t")
            panel.set_ylabel("mean pseudo-regret")
            panel.set_title(f"Fig. 2: regret over time, {label} rewards")
            panel.legend(fontsize=6, ncol=2)
        ax = axes[-1]  # the paper's Fig. 3
        for label, res in results.items():
            ds = np.array(config.dims, dtype=np.float64)
            means = np.array([res["mean_final_regret"][str(d)] for d in config.dims])
            ax.loglog(ds, means, "o-", base=2, label=f"{label} (slope {res['fit']['slope']:.2f})")
        ax.set_xlabel("d")
        ax.set_ylabel(f"final regret at n = {config.n}")
        ax.set_title("Fig. 3: final regret vs dimension")
        ax.legend()
        fig.tight_layout()
        return fig

    checks = [
        Check(
            f"{label}: the slope of log R̂_n on log d is roughly 2",
            SLOPE_BAND[0] <= res["fit"]["slope"] <= SLOPE_BAND[1],
            gate=False,
            details={"verdict": _slope_verdict(res["fit"]), "band": list(SLOPE_BAND)},
        )
        for label, res in results.items()
    ]
    lines = [
        "# D.1 reproduction: non-private regret vs d",
        "",
        f"n = {config.n}, d ∈ {list(config.dims)}, K = d², Δ = {config.gap}, {config.runs} runs "
        f"per point. Paper: n = 10⁵, d ∈ [4, 64], slope of log R̂_n vs log d 'roughly 2' (the "
        "authors' code: 17 dimensions, 100 runs per reward model; the paper gives neither).",
        "",
        "| rewards | fitted slope | 95% CI | paper | verdict |",
        "|---|---|---|---|---|",
    ]
    for (label, res), check in zip(results.items(), checks, strict=True):
        f = res["fit"]
        lines.append(
            f"| {label} | {f['slope']:.2f} | [{f['ci_low']:.2f}, {f['ci_high']:.2f}] | ≈ 2 | "
            f"**{check.details['verdict']}** |"
        )
    lines += [
        "",
        f"'Roughly 2' is read as a slope in [{SLOPE_BAND[0]}, {SLOPE_BAND[1]}]: the claim holds "
        "when the slope's 95% interval lies inside that band, fails when it misses it, and needs "
        "more runs otherwise.",
    ]
    return app_d_report("d1", "D.1", config, draw, lines, checks=checks, payload=payload)
