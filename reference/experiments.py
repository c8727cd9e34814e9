"""Experiment runner: Algorithm 1 with its four regularizer sources on the App. D environment.

Run ``python -m reference.experiments --help`` (or ``privonline experiment --help``).  The default
is a *reduced* App. D.2 (``d = 5``, ``K = 25``, ``Δ = 0.1``, ``ε = 1``, ``δ = 0.1``, ``α = 1/n``,
but ``n = 2000`` rounds and 3 runs; ``privonline reproduce d2`` runs the paper's curves).  Runs are
written atomically to ``<out>/runs/`` and resumed; another configuration in ``<out>/config.json``
is refused.  Outputs: ``<out>/results.json`` and ``<out>/regret.png``.

Proof note: ``proofs_notes/shariff_sheffet/environments_appendix_d.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from tqdm.auto import tqdm

from reference._typing import FloatArray
from reference.engine import run_gap_batch
from reference.files import (
    DamagedFileError,
    atomic_savefig,
    prepare_output_dir,
    produced_by,
    read_json,
    record_or_refuse,
    warn_damaged,
    write_json,
)
from reference.rng import check_seed, child_seeds
from reference.shariff_sheffet.bounds import wishart_degrees_of_freedom
from reference.shariff_sheffet.environments import LOWEST_MEAN, OPTIMAL_MEAN
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.tree import tree_depth
from reference.validation import (
    check_in_range,
    check_size,
    float_in,
    int_at_least,
    size_at_least,
)

__all__ = ["ExperimentConfig", "build_parser", "main", "run_experiment"]

SCHEMA_VERSION = 1
MAX_GAP = OPTIMAL_MEAN - LOWEST_MEAN
"""The gap must lie in ``[0, MAX_GAP)``: the App. D environment's means span ``[-0.75, 0.75]``."""


@dataclasses.dataclass(frozen=True)
class ExperimentConfig:
    """Configuration of one invocation (all fields are written to the JSON report)."""

    n: int = 2000
    d: int = 5
    num_arms: int = 25
    gap: float = 0.1
    runs: int = 3
    epsilon: float = 1.0
    delta: float = 0.1
    seed: int = 20181203
    variants: tuple[Variant, ...] = VARIANTS
    checkpoints: int = 200

    def __post_init__(self) -> None:
        # Everything a run needs is checked here, before the folder is claimed for this
        # configuration: an invalid one must never own a folder (a corrected rerun would be refused).
        check_size("n", self.n, 2)
        # the App. D environment needs d >= 2; each replicate holds (d + 1) x (d + 1) matrices
        check_size("d", self.d, 2, item_bytes=8, power=2, what="an entry of a Gram matrix")
        check_size("num_arms", self.num_arms, 1, item_bytes=8 * self.d, what="an arm")
        check_in_range("gap", self.gap, 0, MAX_GAP, low_open=False)
        PrivacyParameters(self.epsilon, self.delta)  # epsilon in (0, inf), delta in (0, 1)
        check_size("runs", self.runs, 2)  # a standard error needs two runs
        check_seed(self.seed)
        check_size("checkpoints", self.checkpoints, 1)
        if not self.variants or len(set(self.variants)) != len(self.variants):
            raise ValueError(f"variants must be distinct and non-empty, got {self.variants!r}")
        unknown = [v for v in self.variants if v not in VARIANTS]
        if unknown:
            raise ValueError(f"variants must be among {VARIANTS}, got {unknown}")

    def run_configuration(self) -> dict[str, Any]:
        """What determines the result of one run (everything but ``runs`` and ``variants``)."""
        out = dataclasses.asdict(self)
        del out["runs"], out["variants"]
        return out

    def key(self) -> str:
        """A short hash of :meth:`run_configuration` (stored in every run file)."""
        payload = json.dumps(self.run_configuration(), sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]


def _bounds_summary(config: ExperimentConfig) -> dict[str, dict[str, float]]:
    """``ρ_min, ρ_max, γ, shift`` of every variant at this configuration."""
    constants = ProblemConstants(d=config.d)
    privacy = PrivacyParameters(config.epsilon, config.delta)
    return {
        variant: dataclasses.asdict(
            regularizer_spec(variant, constants, config.n, 1.0 / config.n, privacy)[1]
        )
        for variant in config.variants
    }


def _run_path(out: Path, variant: str, run: int) -> Path:
    return out / "runs" / f"{variant}_{run:04d}.json"


def _load_run(path: Path, key: str) -> dict[str, Any] | None:
    """A finished run, ``None`` if absent or damaged (recomputed with a warning naming it); a run
    of another configuration is refused, never overwritten."""
    if not path.exists():
        return None
    try:
        stored: dict[str, Any] = read_json(path)
        if not isinstance(stored, dict) or "curve" not in stored:
            raise DamagedFileError(path, "not a run record")
    except DamagedFileError as err:
        warn_damaged(err)
        return None
    if stored.get("config_key") != key:
        raise ValueError(
            f"{path} holds a run of another configuration (config_key "
            f"{stored.get('config_key')!r}, now {key!r}); use a fresh --out folder"
        )
    return stored


def run_experiment(
    config: ExperimentConfig,
    out: Path,
    *,
    progress: bool = True,
    engine: Literal["batch", "reference"] = "batch",
) -> dict[str, Any]:
    """Run every (variant, run) pair, writing each finished run and finally the report.

    ``engine="batch"`` (default) runs the missing runs of a variant together with
    :func:`reference.engine.run_gap_batch`; ``engine="reference"`` runs them one by one with
    :func:`~reference.shariff_sheffet.simulation.run_gap_experiment`.  Both make the same decisions
    (``tests/reference/test_engine.py``), so a run directory may mix them.
    """
    if engine not in ("batch", "reference"):
        raise ValueError(f"engine must be 'batch' or 'reference', got {engine!r}")
    bounds_summary = _bounds_summary(config)  # validates ε, δ, n, d before any run
    prepare_output_dir(out, "out")
    record_or_refuse(out / "config.json", config.run_configuration(), holds="runs")
    (out / "runs").mkdir(exist_ok=True)
    key = config.key()
    privacy = PrivacyParameters(config.epsilon, config.delta)
    run_seeds = child_seeds(config.seed, 0, config.runs)
    grid = np.unique(np.linspace(1, config.n, min(config.checkpoints, config.n)).astype(np.int64))
    records: dict[str, list[dict[str, Any]]] = {v: [] for v in config.variants}
    resumed = 0

    def store(variant: str, run: int, curve: FloatArray, repairs: int) -> dict[str, Any]:
        record = {
            "config_key": key,
            "variant": variant,
            "run": run,
            "final_regret": float(curve[-1]),
            "curve": [float(c) for c in curve],
            "repairs": int(repairs),
        }
        write_json(_run_path(out, variant, run), record, indent=None)
        return record

    for variant in tqdm(config.variants, disable=not progress, desc="variants"):
        found = {run: _load_run(_run_path(out, variant, run), key) for run in range(config.runs)}
        missing = [run for run, rec in found.items() if rec is None]
        resumed += config.runs - len(missing)
        if missing and engine == "batch":
            batch = run_gap_batch(
                variant,
                d=config.d,
                num_arms=config.num_arms,
                gap=config.gap,
                n=config.n,
                seeds=[run_seeds[run] for run in missing],
                privacy=privacy,
                checkpoints=grid,
                progress=progress,
            )
            for row, run in enumerate(missing):
                found[run] = store(
                    variant, run, batch.cumulative_regret[row], int(batch.repairs[row])
                )
        for run in missing if engine == "reference" else []:
            result = run_gap_experiment(
                variant,
                d=config.d,
                num_arms=config.num_arms,
                gap=config.gap,
                n=config.n,
                seed=run_seeds[run],
                privacy=privacy,
            )
            found[run] = store(variant, run, result.cumulative_regret[grid - 1], result.repairs)
        records[variant] = [rec for rec in found.values() if rec is not None]

    summary: dict[str, Any] = {}
    for variant, recs in records.items():
        finals = np.array([r["final_regret"] for r in recs])
        curves = np.array([r["curve"] for r in recs])
        summary[variant] = {
            "final_regret_mean": float(finals.mean()),
            "final_regret_se": float(finals.std(ddof=1) / math.sqrt(len(finals))),
            "final_regrets": finals.tolist(),
            "mean_curve": curves.mean(axis=0).tolist(),
            "repairs": int(sum(r["repairs"] for r in recs)),
        }
    m = tree_depth(config.n)
    report: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "produced_by": produced_by(),
        "experiment": "shariff_sheffet_gap_reduced",
        "config": dataclasses.asdict(config),
        "config_key": key,
        "constants": {
            "m": m,
            "k": wishart_degrees_of_freedom(config.d, m, config.epsilon, config.delta),
            "alpha": 1.0 / config.n,
            "bounds": bounds_summary,
        },
        "checkpoints": grid.tolist(),
        "results": summary,
        "resumed_runs": resumed,
    }
    write_json(out / "results.json", report)
    _plot(report, out / "regret.png")
    return report


def _plot(report: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    grid = np.array(report["checkpoints"])
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for variant, res in report["results"].items():
        ax.plot(grid, res["mean_curve"], label=variant)
    cfg = report["config"]
    ax.set_xlabel("round t")
    ax.set_ylabel("mean cumulative pseudo-regret")
    ax.set_title(
        f"Algorithm 1, d={cfg['d']}, K={cfg['num_arms']}, Δ={cfg['gap']}, "
        f"ε={cfg['epsilon']}, δ={cfg['delta']}, {cfg['runs']} runs"
    )
    ax.legend()
    fig.tight_layout()
    atomic_savefig(fig, path, dpi=120)
    plt.close(fig)


def build_parser(prog: str = "python -m reference.experiments") -> argparse.ArgumentParser:
    """The command-line interface (``--help`` documents every option and its default)."""
    defaults = ExperimentConfig()
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Run Algorithm 1 of Shariff & Sheffet (NonPrivate, Gaussian, Wishart, "
            "WishartUnshifted) on the App. D environment and write results.json + regret.png. "
            "Defaults are a reduced App. D.2 (paper: n=5e7, 35 runs)."
        ),
    )
    parser.add_argument(
        "--n", type=size_at_least(2), default=defaults.n, help="horizon (default %(default)s)"
    )
    parser.add_argument(
        "--d", type=size_at_least(2), default=defaults.d, help="dimension (default %(default)s)"
    )
    parser.add_argument(
        "--num-arms", type=size_at_least(1), default=None, help="arms per round K (default d**2)"
    )
    parser.add_argument(
        "--gap",
        type=float_in(0, MAX_GAP, low_open=False),
        default=defaults.gap,
        help=f"reward gap Δ in [0, {MAX_GAP}) (default %(default)s)",
    )
    parser.add_argument(
        "--runs",
        type=size_at_least(2),
        default=defaults.runs,
        help="independent runs, at least 2 for a standard error (default %(default)s)",
    )
    parser.add_argument(
        "--epsilon",
        type=float_in(0, math.inf),
        default=defaults.epsilon,
        help="ε > 0 (default %(default)s)",
    )
    parser.add_argument(
        "--delta",
        type=float_in(0, 1),
        default=defaults.delta,
        help="δ in (0, 1) (default %(default)s)",
    )
    parser.add_argument(
        "--seed",
        type=int_at_least(0),
        default=defaults.seed,
        help="root seed (default %(default)s)",
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        choices=VARIANTS,
        default=list(defaults.variants),
        help="variants to run (default: all four)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("results/experiment"),
        help="output folder (default %(default)s)",
    )
    parser.add_argument(
        "--engine",
        choices=("batch", "reference"),
        default="batch",
        help="replicate-vectorised engine or the plain reference (same decisions; "
        "default %(default)s)",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide progress bars")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m reference.experiments") -> int:
    """Entry point; returns the process exit code."""
    args = build_parser(prog).parse_args(argv)
    try:
        config = ExperimentConfig(
            n=args.n,
            d=args.d,
            num_arms=args.num_arms if args.num_arms is not None else args.d**2,
            gap=args.gap,
            runs=args.runs,
            epsilon=args.epsilon,
            delta=args.delta,
            seed=args.seed,
            variants=tuple(args.variants),
        )
        prepare_output_dir(args.out)  # before any computation
        report = run_experiment(config, args.out, progress=not args.no_progress, engine=args.engine)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out / 'results.json'} and {args.out / 'regret.png'}")
    print(f"{'variant':<20} {'final regret (mean ± s.e.)':>30}")
    for variant, res in report["results"].items():
        print(f"{variant:<20} {res['final_regret_mean']:>18.1f} ± {res['final_regret_se']:<9.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
