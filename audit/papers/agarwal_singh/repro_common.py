"""Agarwal & Singh (ICML 2017) reproductions, shared parts: the configurations of E4, E5, E7, E9,
cell seeds, the scaling fits against the theorems' forms (Thm 3.1/3.4, Cor. 3.2,
Thm 3.5, Thm 4.1, Thm 4.5) and the report helpers.
Overview in :mod:`audit.papers.agarwal_singh.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_agarwal_singh.md``.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

import numpy as np
from tqdm.auto import tqdm

from audit.methods.scaling import fit_against_form
from audit.reproduce.report import Check, ExperimentReport, Figure
from audit.results import to_jsonable
from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import Calibration
from reference.validation import check_int_at_least

__all__ = [
    "CUBE_BIAS",
    "SPHERE_DRIFT",
    "BLOConfig",
    "FTPLConfig",
    "FullInfoConfig",
    "MABConfig",
    "cell_seed",
    "scaling_fits",
]


FullInfoInstance: TypeAlias = Literal["minimax", "gap", "ftl_trap"]
FullInfoSet: TypeAlias = Literal["experts", "sphere", "cube"]
"""Cor. 3.2's decision sets: simplex (negative entropy), unit ball and unit cube (``‖x‖²``)."""
BanditSet: TypeAlias = Literal["ball", "cube"]
"""Decision sets of E5 (FTPL) and E9 (SCRiBLe): the unit ℓ₂ ball and the cube ``[−1, 1]^N``."""
MABInstance: TypeAlias = Literal["constant_gap", "switching"]
_FULL_INFO_CODES: dict[str, int] = {"minimax": 0, "gap": 1, "ftl_trap": 2, "sphere": 3, "cube": 4}
_BANDIT_SET_CODES: dict[str, int] = {"ball": 0, "cube": 1}
SPHERE_DRIFT = 0.2
"""E4/E5 sphere losses ``l_t = 0.2u + 0.8ξ_t``."""
CUBE_BIAS = 0.1
"""E4/E5 cube losses ``l_t = s_t e_{j_t}``, ``P(s_t = +1) = 0.5 + 0.1·(−1)^{j_t}``."""
_MAB_CODES: dict[str, int] = {"constant_gap": 0, "switching": 1}
_EXPERIMENT_CODES: dict[str, int] = {
    "ftrl": 1,
    "mab": 2,
    "blo": 3,
    "ftpl": 4,
    "eps_window": 5,
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
    instances with the experiment set's loss models on ``set_horizons`` / ``set_dims`` (reduced default
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
        """Full sizes of E4: ``T = 2^10..2^20``, ``ε ∈ {0.01, …, 10, ∞}``, ``N ∈ {2, 8, 32}``,
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
        """Full sizes of E7: ``N ∈ {2, 10, 50}``, ``T = 2^12..2^20``, ``ε ∈ {0.25, …, 4, ∞}``,
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
        """Full sizes of E9: ``T = 2^12..2^20``, ``ε ∈ {0.5, 1, 2, 4, ∞}``, ``N ∈ {2, 4, 8}``,
        100 runs (E7's ``R_env·R_alg = 5·20``; here one loss sequence per cell, 100 learner
        seeds on the compiled engine)."""
        return cls(
            horizons=tuple(2**k for k in range(12, 21, 2)),
            epsilons=(0.5, 1.0, 2.0, 4.0, INF),
            dim_T=2**16,
            runs=100,
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
        """Full sizes of E5: ``T = 2^10..2^18``, ``ε ∈ {0.1, 1, 10}``, ``N ∈ {2, 8, 32}``."""
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


def _scale_words(config: Any) -> str:
    """How a report names its scale: the full sizes of its ``.paper()`` configuration, or reduced."""
    return "at its full sizes" if config == type(config).paper() else "at a reduced scale"


def _eps_key(epsilon: float) -> str:
    return "inf" if math.isinf(epsilon) else f"{epsilon:g}"


def _progress(total: int, name: str) -> tqdm[Any]:
    return tqdm(total=total, desc=name, disable=not sys.stderr.isatty(), leave=False)


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


def _report(
    name: str,
    config: Any,
    results: dict[str, Any],
    fits: list[dict[str, Any]],
    checks: list[dict[str, Any]],
    cells: tuple[int, int],
    figure: Figure,
    lines: list[str],
) -> ExperimentReport:
    """The report of every experiment here: JSON ``results``, ``fits``, ``checks`` (``claim``,
    ``holds``, ``gate``, then any further fields) and the computed / reused cell counts."""
    return ExperimentReport(
        name,
        "agarwal_singh",
        to_jsonable(config),
        figure,
        tuple(lines),
        checks=tuple(Check.from_record(c) for c in checks),
        fits=tuple(fits),
        payload={"results": results, "cells_computed": cells[0], "cells_reused": cells[1]},
        layout=("results", "fits", "checks", "cells_computed", "cells_reused"),
        json_indent=2,
    )


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
