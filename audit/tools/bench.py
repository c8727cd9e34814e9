"""Benchmarks: the replicate-vectorised engine against the plain reference, in one run.

``privonline bench`` (or ``nox -s bench``) measures, on this machine and in one process, the
replicate-rounds per second of :func:`reference.engine.run_gap_batch` and of the reference at
``(d, K) ∈ {(5, 25), (10, 100), (20, 400)}`` and their ratio, the engine's peak memory and time
profile, the projected time of the paper-scale D.2 run, and (when ``mabwiser`` is installed) a
peer comparison with MABWiser's ``LinUCB``.  Speed is measured here and never asserted in unit
tests.  Results go to ``bench.json``.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reference.engine import run_gap_batch
from reference.files import prepare_output_dir, write_json
from reference.rng import as_generator, child_seeds
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.linucb import AccuracyEventWarning
from reference.shariff_sheffet.regularizers import PrivacyParameters, Variant
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.validation import int_at_least

__all__ = ["BENCH_SHAPES", "BENCH_VARIANTS", "build_parser", "main", "run_benchmarks"]

BENCH_SHAPES: tuple[tuple[int, int], ...] = ((5, 25), (10, 100), (20, 400))
BENCH_VARIANTS: tuple[Variant, ...] = ("nonprivate", "wishart", "gaussian")
PRIVACY = PrivacyParameters(epsilon=1.0, delta=0.1)
PAPER_D2_ROUNDS = 50_000_000

_COMPONENTS: dict[str, tuple[str, ...]] = {
    "environment draws": ("draw_block",),
    "tree-noise draws": ("_draw_block",),
    "PD guard + Cholesky": ("_guarded_cholesky",),
    "triangular solves": ("_forward_substitution", "_back_substitution"),
}


def _privacy(variant: Variant) -> PrivacyParameters | None:
    return None if variant == "nonprivate" else PRIVACY


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccuracyEventWarning)
        call()
    return time.perf_counter() - start


def engine_rate(variant: Variant, d: int, K: int, replicates: int, rounds: int, seed: int) -> float:
    """Replicate-rounds per second of the engine."""
    seeds = child_seeds(seed, 0, replicates)
    seconds = _timed(
        lambda: run_gap_batch(
            variant, d=d, num_arms=K, gap=0.1, n=rounds, seeds=seeds, privacy=_privacy(variant)
        )
    )
    return replicates * rounds / seconds


def reference_rate(variant: Variant, d: int, K: int, rounds: int, seed: int) -> float:
    """Rounds per second of one reference run."""
    seconds = _timed(
        lambda: run_gap_experiment(
            variant, d=d, num_arms=K, gap=0.1, n=rounds, seed=seed, privacy=_privacy(variant)
        )
    )
    return rounds / seconds


def engine_peak_memory(variant: Variant, d: int, K: int, replicates: int, rounds: int) -> int:
    """Peak bytes traced by :mod:`tracemalloc` during one engine run."""
    tracemalloc.start()
    try:
        run_gap_batch(
            variant,
            d=d,
            num_arms=K,
            gap=0.1,
            n=rounds,
            seeds=child_seeds(1, 0, replicates),
            privacy=_privacy(variant),
        )
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def engine_profile(
    variant: Variant, d: int, K: int, replicates: int, rounds: int
) -> dict[str, float]:
    """Share of the engine's time per component (cumulative :mod:`cProfile` times)."""
    profiler = cProfile.Profile()
    seeds = child_seeds(2, 0, replicates)
    profiler.enable()
    run_gap_batch(
        variant, d=d, num_arms=K, gap=0.1, n=rounds, seeds=seeds, privacy=_privacy(variant)
    )
    profiler.disable()
    stats = pstats.Stats(profiler)
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]
    total = max(row[3] for key, row in table.items() if key[2] == "run_gap_batch")
    shares = {
        name: sum(row[3] for key, row in table.items() if key[2] in functions) / total
        for name, functions in _COMPONENTS.items()
    }
    shares["rest of the round (array arithmetic, Python)"] = max(0.0, 1.0 - sum(shares.values()))
    return shares


def mabwiser_rate(d: int, K: int, rounds: int, seed: int) -> float | None:
    """Rounds per second of MABWiser's LinUCB driven online, or ``None`` if not installed."""
    try:
        from mabwiser.mab import MAB, LearningPolicy
    except ImportError:
        return None
    env = LinearGapEnvironment(d, K, 0.1, as_generator(seed, "seed"))
    block = env.draw_block(rounds + 1)
    mab = MAB(
        arms=list(range(K)),
        learning_policy=LearningPolicy.LinUCB(alpha=1.0, l2_lambda=1.0),
        seed=seed,
    )
    mab.fit(decisions=[0], rewards=[float(block.rewards[0, 0])], contexts=block.arms[0, :1])

    def loop() -> None:
        for t in range(1, rounds + 1):
            context = block.arms[t, :1]
            arm = int(mab.predict(contexts=context))
            mab.partial_fit(
                decisions=[arm], rewards=[float(block.rewards[t, arm])], contexts=context
            )

    return rounds / _timed(loop)


def run_benchmarks(
    *,
    replicates: int = 256,
    rounds: int = 256,
    reference_rounds: int = 100,
    single_rounds: int = 2000,
    seed: int = 7,
) -> dict[str, Any]:
    """Every measurement of the module docstring; returns the JSON-ready report."""
    rows: list[dict[str, Any]] = []
    for d, K in BENCH_SHAPES:
        for variant in BENCH_VARIANTS:
            reps = max(16, replicates * 25 // K) if K > 25 else replicates
            engine = engine_rate(variant, d, K, reps, rounds, seed)
            ref = reference_rate(variant, d, K, reference_rounds, seed)
            rows.append(
                {
                    "d": d,
                    "K": K,
                    "variant": variant,
                    "replicates": reps,
                    "rounds": rounds,
                    "engine_replicate_rounds_per_s": engine,
                    "reference_rounds_per_s": ref,
                    "speedup": engine / ref,
                    "engine_peak_memory_mb": engine_peak_memory(variant, d, K, reps, 32) / 2**20,
                }
            )
    single = {
        variant: engine_rate(variant, 5, 25, 1, single_rounds, seed)
        for variant in ("nonprivate", "wishart", "gaussian", "wishart_unshifted")
    }
    projected_hours = sum(PAPER_D2_ROUNDS / rate for rate in single.values()) / 3600.0
    peer = mabwiser_rate(5, 25, min(300, rounds), seed)
    ours_nonprivate_single = single["nonprivate"]
    return {
        "schema_version": 1,
        "machine": {"cpus": os.cpu_count() or 1},
        "rates": rows,
        "profile_wishart_d5_K25": engine_profile("wishart", 5, 25, replicates, rounds),
        "single_replicate_rounds_per_s_d5_K25": single,
        "paper_d2_projection_hours": projected_hours,
        "mabwiser_linucb_rounds_per_s_d5_K25": peer,
        "engine_single_over_mabwiser": None if peer is None else ours_nonprivate_single / peer,
    }


def format_table(report: dict[str, Any]) -> str:
    """The Markdown table printed by the command line."""
    lines = [
        "| d | K | variant | engine rep-rounds/s | reference rounds/s | speed-up | engine peak MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["rates"]:
        lines.append(
            f"| {row['d']} | {row['K']} | {row['variant']} | "
            f"{row['engine_replicate_rounds_per_s']:,.0f} | {row['reference_rounds_per_s']:,.0f} | "
            f"{row['speedup']:.0f}× | {row['engine_peak_memory_mb']:.1f} |"
        )
    lines.append("")
    lines.append("Where the engine's time goes (Wishart, d=5, K=25):")
    for name, share in report["profile_wishart_d5_K25"].items():
        lines.append(f"- {name}: {100 * share:.0f}%")
    single = report["single_replicate_rounds_per_s_d5_K25"]
    lines.append("")
    lines.append(
        "Single replicate (d=5, K=25): "
        + ", ".join(f"{k} {v:,.0f} rounds/s" for k, v in single.items())
        + f"; paper-scale D.2 (n=5e7, four variants) projected at "
        f"{report['paper_d2_projection_hours']:.1f} h."
    )
    peer = report["mabwiser_linucb_rounds_per_s_d5_K25"]
    if peer is None:
        lines.append("MABWiser not installed: no peer comparison (nox -s bench installs it).")
    else:
        lines.append(
            f"MABWiser LinUCB online (d=5, K=25): {peer:,.0f} rounds/s; engine single replicate "
            f"non-private is {report['engine_single_over_mabwiser']:.1f}× that."
        )
    return "\n".join(lines)


def build_parser(prog: str = "privonline bench") -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Benchmark the replicate-vectorised engine against the reference "
        "(ratios measured in one run) and write bench.json.",
    )
    parser.add_argument(
        "--replicates",
        type=int_at_least(1),
        default=256,
        help="engine replicates at K=25 (default %(default)s)",
    )
    parser.add_argument(
        "--rounds", type=int_at_least(1), default=256, help="engine rounds (default %(default)s)"
    )
    parser.add_argument(
        "--reference-rounds",
        type=int_at_least(1),
        default=100,
        help="reference rounds (default %(default)s)",
    )
    parser.add_argument(
        "--single-rounds",
        type=int_at_least(1),
        default=2000,
        help="rounds of the single-replicate runs behind the D.2 projection (default %(default)s)",
    )
    parser.add_argument(
        "--seed", type=int_at_least(0), default=7, help="root seed (default %(default)s)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("results/bench"),
        help="output folder (default %(default)s)",
    )
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "privonline bench") -> int:
    """Entry point; returns the exit code."""
    args = build_parser(prog).parse_args(argv)
    try:
        prepare_output_dir(args.out)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    report = run_benchmarks(
        replicates=args.replicates,
        rounds=args.rounds,
        reference_rounds=args.reference_rounds,
        single_rounds=args.single_rounds,
        seed=args.seed,
    )
    write_json(args.out / "bench.json", report, indent=2)
    print(format_table(report))
    print(f"\nwrote {args.out / 'bench.json'}")
    return 0
