"""Shariff & Sheffet Fig. 1 (App. D): one decision set of the experiments, drawn in ``R³``.

``privonline reproduce shariff-sheffet fig1``: ``K = 1000`` unit actions around ``θ* =
(1, 1, 1)/√3`` with gap ``Δ = 0.1`` (one optimal action at ``⟨x, θ*⟩ = 0.75``, the rest uniform on
the band ``[−0.75, 0.65]``), drawn by the environment's sampler
(:func:`reference.shariff_sheffet.environments.sample_gap_arms`), with the band and norms checked.

Proof note: ``proofs_notes/shariff_sheffet/environments_appendix_d.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from audit.reproduce.report import Check, ExperimentReport, Figure
from audit.results import to_jsonable
from reference.rng import check_seed
from reference.shariff_sheffet.environments import (
    LOWEST_MEAN,
    OPTIMAL_MEAN,
    rotation_to,
    sample_gap_arms,
)
from reference.validation import check_int_at_least

__all__ = ["Fig1Config", "reproduce_fig1"]


@dataclass(frozen=True)
class Fig1Config:
    """Fig. 1: one decision set in ``R³`` (an illustration: the same at every scale).

    Attributes:
        num_arms: ``K`` (the paper's 1000).
        gap: ``Δ`` (the paper's 0.1).
        theta: ``θ*`` before normalisation (the figure's ``(1, 1, 1)``, from the authors' notebook).
        seed: the draw's seed.
    """

    num_arms: int = 1000
    gap: float = 0.1
    theta: tuple[float, float, float] = (1.0, 1.0, 1.0)
    seed: int = 20180

    @classmethod
    def paper(cls) -> Fig1Config:
        """The paper's Fig. 1 (the default)."""
        return cls()


def reproduce_fig1(config: Fig1Config, out: Path) -> ExperimentReport:
    """Draw the decision set and check it: the figure, ``fig1.json`` (arms and means) and ``.md``."""
    del out  # one draw, no cells
    K = check_int_at_least("num_arms", config.num_arms, 2)
    theta = np.asarray(config.theta, dtype=np.float64)
    if theta.shape != (3,) or not np.all(np.isfinite(theta)) or not np.any(theta != 0.0):
        raise ValueError(f"theta must be a non-zero finite 3-vector, got {config.theta!r}")
    theta = theta / np.linalg.norm(theta)
    arms, means = sample_gap_arms(
        np.random.default_rng(check_seed(config.seed)), rotation_to(theta), K, config.gap
    )
    optimal = int(np.argmax(means))
    others = np.delete(means, optimal)
    norms = np.linalg.norm(arms, axis=1)
    checks = (
        Check(
            "every action has unit norm (L = 1)",
            bool(np.all(np.abs(norms - 1.0) <= 1e-12)),
            gate=True,
        ),
        Check(
            f"one optimal action with mean ⟨x, θ*⟩ = {OPTIMAL_MEAN}",
            abs(means[optimal] - OPTIMAL_MEAN) <= 1e-12
            and int(np.sum(means > OPTIMAL_MEAN - config.gap)) == 1,
            gate=True,
        ),
        Check(
            f"the other {K - 1} means lie in [{LOWEST_MEAN}, {OPTIMAL_MEAN - config.gap}] (gap Δ)",
            bool(np.all(others >= LOWEST_MEAN) and np.all(others <= OPTIMAL_MEAN - config.gap)),
            gate=True,
        ),
        Check(
            "means are the projections on θ*",
            bool(np.max(np.abs(arms @ theta - means)) <= 1e-12),
            gate=True,
        ),
    )
    payload: dict[str, Any] = {
        "theta_star": theta.tolist(),
        "optimal_index": optimal,
        "means": means.tolist(),
        "arms": arms.tolist(),
        "band_observed": [float(others.min()), float(others.max())],
    }

    def draw(plt: Any) -> Any:
        fig = plt.figure(figsize=(5.5, 5))
        ax = fig.add_subplot(projection="3d")
        rest = np.delete(arms, optimal, axis=0)
        ax.scatter(*rest.T, s=4, c=np.delete(means, optimal), cmap="viridis", alpha=0.7)
        ax.scatter(*arms[optimal], s=80, c="red", marker="*", label="optimal action")
        ax.quiver(0, 0, 0, *theta, color="black", linewidth=2, label="θ*")
        ax.set_title(f"Fig. 1: a decision set in R³, K = {K}, Δ = {config.gap}")
        ax.legend(loc="upper left", fontsize=8)
        fig.tight_layout()
        return fig

    lines = (
        "# Fig. 1 reproduction: a decision set of App. D in R³",
        "",
        f"K = {K} unit actions, θ* = {tuple(round(v, 4) for v in theta)}, Δ = {config.gap}: one "
        f"optimal action at ⟨x, θ*⟩ = {OPTIMAL_MEAN}, the others uniform on the band "
        f"[{LOWEST_MEAN}, {OPTIMAL_MEAN - config.gap}] (observed "
        f"[{others.min():.3f}, {others.max():.3f}]). The paper's figure is an illustration; this "
        "one checks the sampler's band and norms.",
        "",
        *(f"* {c.claim}: {'holds' if c.holds else 'FAILS'}" for c in checks),
    )
    return ExperimentReport(
        "fig1",
        "shariff_sheffet",
        to_jsonable(config),
        Figure(draw, dpi=110),
        lines,
        checks=checks,
        payload=payload,
        label="Fig. 1",
    )
