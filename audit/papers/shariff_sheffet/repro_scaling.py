"""Scaling fits of the private variants of Shariff & Sheffet's Algorithm 1 (not in the paper;
``privonline reproduce shariff-sheffet scaling``): the private excess regret vs ``ε``, ``d`` and
``n`` against the forms of Theorems 5 and 6 (:mod:`audit.papers.shariff_sheffet.regret`), with a
planted ``ε²`` calibration that must be flagged.  Overview in
:mod:`audit.papers.shariff_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from audit.methods.scaling import ScalingFit
from audit.papers.shariff_sheffet.regret import (
    regret_scaling_in_dimension,
    regret_scaling_in_n,
    regret_scaling_in_privacy,
)
from audit.papers.shariff_sheffet.repro_common import app_d_report
from audit.reproduce.common import CellStore
from audit.reproduce.report import ExperimentReport
from reference.shariff_sheffet.regularizers import (
    Calibration,
    PrivacyParameters,
    Variant,
)

__all__ = ["ScalingConfig", "reproduce_scaling"]


@dataclass(frozen=True)
class ScalingConfig:
    """Theorem-form scaling fits of the private variants (module docstring, **scaling**)."""

    n: int = 20_000
    d: int = 3
    num_arms: int = 9
    dims: tuple[int, ...] = (2, 3, 4, 6, 8)
    epsilons: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
    delta: float = 0.1
    gaps: tuple[float, ...] = (0.1, 0.0)
    privacy_cells: tuple[tuple[Variant, Calibration], ...] = (
        ("gaussian", "paper"),
        ("gaussian", "tight"),
        ("wishart", "tight"),
    )
    runs: int = 12
    confidence: float = 0.99
    seed: int = 20184

    @classmethod
    def paper(cls) -> ScalingConfig:
        """A larger run: n = 2·10⁵, 30 runs (the paper has no such experiment)."""
        return cls(n=200_000, runs=30)


def _squared(epsilon: float) -> float:
    """The planted bug of the scaling experiment: the mechanism calibrated with ``ε²``."""
    return epsilon * epsilon


def reproduce_scaling(config: ScalingConfig, out: Path) -> ExperimentReport:
    """Run the scaling fits (cells into ``out``): the report of ``scaling.json``, ``.png``, ``.md``.

    Gated (``gate`` in the JSON): the private excess vs ``ε`` for ``Δ > 0`` must be consistent with
    Theorem 6's private term ``∝ ρ_max`` for the correct calibrations and inconsistent for the
    planted ``ε²`` calibration.  Reported: ``Δ = 0`` against Theorem 5's ``√ρ_max``, and the fits
    in ``d`` and ``n``."""
    out.mkdir(parents=True, exist_ok=True)
    c = config
    cells = CellStore(out / "scaling_cells")
    rows: list[dict[str, Any]] = []
    seeds = iter(np.random.SeedSequence(c.seed).generate_state(64).tolist())

    def add(key: str, kind: str, gate: str, fit: Callable[..., ScalingFit], **kw: Any) -> None:
        seed = next(seeds)  # drawn in a fixed order, so a cached cell keeps its seed
        kw |= {"num_arms": c.num_arms, "n": c.n, "runs": c.runs, "confidence": c.confidence}
        result = cells.json(key, c, lambda: fit(seed=seed, **kw))
        rows.append({"key": key, "kind": kind, "gate": gate, "seed": seed, **result})

    for gap in c.gaps:
        for variant, cal in c.privacy_cells:
            add(f"eps_{variant}_{cal}_gap{gap}", "epsilon", "consistent" if gap > 0 else "report",
                regret_scaling_in_privacy, variant=variant, epsilons=c.epsilons, d=c.d, gap=gap,
                delta=c.delta, calibration=cal)  # fmt: skip
    # planted on the tight calibration: paper-calibrated noise at ε² saturates (linear phase)
    add(f"eps_gaussian_tight_gap{c.gaps[0]}_planted_eps_squared", "epsilon", "inconsistent",
        regret_scaling_in_privacy, variant="gaussian", epsilons=c.epsilons, d=c.d, gap=c.gaps[0],
        delta=c.delta, calibration="tight", mechanism_epsilon=_squared)  # fmt: skip
    privacy = PrivacyParameters(1.0, c.delta)
    for variant, cal in (("nonprivate", "paper"), ("gaussian", "tight")):
        level = None if variant == "nonprivate" else privacy
        add(f"d_{variant}_{cal}", "dimension", "report", regret_scaling_in_dimension,
            variant=variant, dims=c.dims, gap=c.gaps[0], theorem="thm6", privacy=level,
            calibration=cal)  # fmt: skip
        add(f"n_{variant}_{cal}", "horizon", "report", regret_scaling_in_n, variant=variant,
            d=c.d, gap=c.gaps[0], theorem="thm6", privacy=level, calibration=cal)  # fmt: skip
    for row in rows:
        row["holds"] = {
            "consistent": row["consistent"],
            "inconsistent": not row["consistent"],
            "report": True,
        }[row["gate"]]
    payload: dict[str, Any] = {}

    def draw(plt: Any) -> Any:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for row in rows:
            if row["kind"] != "epsilon":
                continue
            ax = axes[0] if row["gate"] != "report" else axes[1]
            ax.loglog(
                row["form"],
                row["mean_values"],
                "o-",
                label=f"{row['key']} (b = {row['slope']:.2f})",
            )
        titles = ("Δ > 0 against ρ_max (Thm 6)", "Δ = 0 against √ρ_max (Thm 5)")
        for ax, title in zip(axes, titles, strict=True):
            ax.set_xlabel("theorem's private term")
            ax.set_ylabel("mean private excess regret")
            ax.set_title(title)
            if ax.lines:
                ax.legend(fontsize=6)
        fig.tight_layout()
        return fig

    lines = [
        "# Scaling fits of the private variants against the theorems' forms",
        "",
        f"n = {c.n}, d = {c.d} (d ∈ {list(c.dims)} for the d fits), K = {c.num_arms}, "
        f"ε ∈ {list(c.epsilons)}, δ = {c.delta}, {c.runs} runs per point, level {c.confidence}. "
        "Slope b of the fit against the form (b ≤ 1: no faster growth than the theorem allows); "
        "bare: exponent in the variable itself (1/ε, d or n). See proofs_notes/audit/regret.md.",
        "",
        "| fit | b | CI | p(b > 1) | bare exponent | theorem's exponent | gate | holds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['key']} | {row['slope']:.2f} | [{row['ci_low']:.2f}, {row['ci_high']:.2f}] | "
            f"{row['pvalue_above_one']:.2g} | {row['bare_power_exponent']:.2f} | "
            f"{row['theorem_exponent']} | {row['gate']} | {'yes' if row['holds'] else 'NO'} |"
        )
    return app_d_report(
        "scaling", "scaling", c, draw, lines, fits=rows, payload=payload, layout=("fits",)
    )
