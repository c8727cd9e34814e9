"""Benchmarks: the compiled and numpy engines against the plain reference, in one run.

``privonline bench`` (or ``nox -s bench``) measures, on this machine and in one process, the
replicate-rounds per second of the compiled engine (:func:`reference.engine.compiled.run_gap_compiled`,
all cores), the numpy engine (:func:`reference.engine.run_gap_batch`), the reference and a plain
numpy batch loop at ``(d, K) ∈ {(5, 25), (10, 100), (20, 400)}`` and their ratios, the compiled
loop's first-call cost, where each engine's time goes, peak memory, the projected paper-scale D.2
time, (when ``mabwiser`` is installed) MABWiser's ``LinUCB``, and the compiled tree mechanism and
DP-NAS against their numpy and reference paths.  Speed is measured here, never in unit tests.
Results go to ``bench.json``.

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

import numpy as np

from audit.results import SCHEMA_VERSION, produced_by
from reference.engine import run_gap_batch
from reference.engine.compiled import linucb as compiled_linucb
from reference.engine.compiled import run_gap_compiled
from reference.engine.compiled.stopping import DPNASBatchResult, dp_nas_two_point_compiled
from reference.engine.compiled.tree import tree_noise_compiled
from reference.engine.tree import BatchedTreeNoise
from reference.files import prepare_output_dir, write_json
from reference.noise import WishartNoise
from reference.rng import as_generator, child_seeds
from reference.sajed_sheffet.stopping import SampleStream, TwoPointDistribution, dp_nas
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.linucb import AccuracyEventWarning
from reference.shariff_sheffet.regularizers import PrivacyParameters, Variant
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.tree import TreeAggregator
from reference.validation import (
    int_at_least,
    size_at_least,
)

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


def compiled_first_call() -> dict[str, Any]:
    """Seconds of the first (tiny) compiled run in this process, and whether numba compiled the
    loop or loaded it from its on-disk cache."""
    start = time.perf_counter()
    run_gap_compiled("wishart", d=2, num_arms=2, gap=0.1, n=2, seeds=[0], privacy=PRIVACY)
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "source": "cache" if compiled_linucb.loaded_from_cache() else "compiled",
    }


def compiled_rate(
    variant: Variant, d: int, K: int, replicates: int, rounds: int, seed: int
) -> float:
    """Replicate-rounds per second of the compiled engine on every core (after warm-up)."""
    seeds = child_seeds(seed, 0, replicates)
    seconds = _timed(
        lambda: run_gap_compiled(
            variant, d=d, num_arms=K, gap=0.1, n=rounds, seeds=seeds, privacy=_privacy(variant)
        )
    )
    return replicates * rounds / seconds


def compiled_profile(rounds: int, seed: int) -> dict[str, float]:
    """Share of a compiled Gaussian-tree replicate's time (d=5, K=25, one thread) spent drawing the
    environment, drawing tree noise, and in Algorithm 1's own work (from timing differences: a
    compiled loop cannot be profiled per line)."""

    def seconds(variant: Variant) -> float:
        return _timed(
            lambda: run_gap_compiled(
                variant,
                d=5,
                num_arms=25,
                gap=0.1,
                n=rounds,
                seeds=[seed],
                privacy=_privacy(variant),
                workers=1,
            )
        )

    total, nonprivate = seconds("gaussian"), seconds("nonprivate")
    environment = compiled_linucb.environment_seconds(5, 25, 0.1, rounds, seed)
    parts = {
        "environment draws": environment,
        "tree-noise draws and releases": max(0.0, total - nonprivate),
        "Algorithm 1 (guard, Cholesky, solves, UCB, update)": max(0.0, nonprivate - environment),
    }
    whole = sum(parts.values())
    return {name: part / whole for name, part in parts.items()}


def plain_numpy_rate(d: int, K: int, replicates: int, rounds: int, seed: int) -> float:
    """Replicate-rounds per second of a plain numpy batch loop: non-private ridge LinUCB over
    ``replicates`` at once (``np.linalg.cholesky``/``solve`` per round, arms drawn beforehand and
    not timed) -- what numpy alone gives without the engines' structure."""
    rng = as_generator(seed, "seed")
    arms = rng.standard_normal((rounds, replicates, K, d))
    arms /= np.linalg.norm(arms, axis=-1, keepdims=True)
    rewards = np.where(rng.uniform(size=(rounds, replicates, K)) < 0.5, 1.0, -1.0)
    rows = np.arange(replicates)

    def loop() -> None:
        V = np.tile(np.eye(d), (replicates, 1, 1))
        u = np.zeros((replicates, d))
        for t in range(rounds):
            X = arms[t]
            L = np.linalg.cholesky(V)
            theta = np.linalg.solve(V, u[:, :, None])[:, :, 0]
            white = np.linalg.solve(L[:, None], X[..., None])[..., 0]
            beta = np.sqrt(
                2.0 * np.log(2.0 * (t + 1)) + 2.0 * np.log(np.diagonal(L, 0, 1, 2)).sum(1)
            )
            index = np.argmax(X @ theta[:, :, None] + beta[:, None, None] * np.linalg.norm(
                white, axis=-1, keepdims=True), axis=1)[:, 0]  # fmt: skip
            x = X[rows, index]
            V += x[:, :, None] * x[:, None, :]
            u += rewards[t, rows, index][:, None] * x

    return replicates * rounds / _timed(loop)


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


def tree_rates(n: int, reference_n: int, replicates: int, seed: int) -> dict[str, float]:
    """Releases per second of the tree mechanism alone (Wishart, ``p = 6``, as at ``d = 5``): the
    compiled tree over ``n`` rounds, the numpy engine and the reference over ``reference_n``."""
    noise = WishartNoise(6, 8, 1.0)
    seeds = child_seeds(seed, 0, replicates)
    tree_noise_compiled(2, noise, [0])  # load the compiled loop outside the timing
    compiled = _timed(lambda: tree_noise_compiled(n, noise, list(seeds), counts=[n - 1]))
    engine_seeds = child_seeds(seed, 0, replicates)

    def engine() -> None:
        tree = BatchedTreeNoise(reference_n, noise, [as_generator(s) for s in engine_seeds])
        for t in range(reference_n):
            tree.release_noise()
            if t < reference_n - 1:
                tree.insert()

    def reference() -> None:
        tree = TreeAggregator(reference_n, noise, as_generator(seeds[0]))
        zero = np.zeros((6, 6))
        for t in range(reference_n):
            tree.release()
            if t < reference_n - 1:
                tree.insert(zero)

    return {
        "compiled_replicate_releases_per_s": replicates * n / compiled,
        "engine_replicate_releases_per_s": replicates * reference_n / _timed(engine),
        "reference_releases_per_s": reference_n / _timed(reference),
    }


def dp_nas_rates(runs: int, reference_steps: int, seed: int) -> dict[str, float]:
    """Steps per second of Sajed & Sheffet's DP-NAS (Algorithm 1) on the two-point law (``R = 1``,
    ``μ = 0.5``, ``α = 0.5``, ``β = 0.05``, ``ε = 0.025``: halting near 3·10⁴): the compiled loop
    on one thread and the reference ``dp_nas`` (capped at ``reference_steps``, it does not halt)."""
    pairs: list[tuple[np.random.SeedSequence, np.random.SeedSequence]] = []
    for run in child_seeds(seed, 0, runs):
        data_seed, noise_seed = child_seeds(run, 0, 2)
        pairs.append((data_seed, noise_seed))
    result: list[DPNASBatchResult] = []
    alpha, beta, eps = 0.5, 0.05, 0.025
    dp_nas_two_point_compiled(1.0, 0.5, alpha=alpha, beta=beta, epsilon=eps, rngs=[(0, 1)], t_max=1)
    compiled = _timed(
        lambda: result.append(
            dp_nas_two_point_compiled(
                1.0, 0.5, alpha=alpha, beta=beta, epsilon=eps, rngs=pairs, t_max=10**8, workers=1
            )
        )
    )
    data, noise = child_seeds(seed, 0, 2)
    stream = SampleStream.from_distribution(TwoPointDistribution(1.0, 0.5), as_generator(data))
    reference = _timed(
        lambda: dp_nas(
            stream,
            range_R=1.0,
            alpha=alpha,
            beta=beta,
            epsilon=eps,
            rng=noise,
            t_max=reference_steps,
        )
    )
    return {
        "compiled_steps_per_s_one_thread": float(result[0].samples_used.sum()) / compiled,
        "reference_steps_per_s": reference_steps / reference,
    }


def run_benchmarks(
    *,
    replicates: int = 256,
    rounds: int = 256,
    reference_rounds: int = 100,
    single_rounds: int = 2000,
    compiled_rounds: int = 20000,
    seed: int = 7,
) -> dict[str, Any]:
    """Every measurement of the module docstring; returns the JSON-ready report."""
    first_call = compiled_first_call()  # before anything else loads the compiled loop
    workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    rows: list[dict[str, Any]] = []
    for d, K in BENCH_SHAPES:
        plain = plain_numpy_rate(d, K, max(16, replicates * 25 // K), max(16, rounds // 4), seed)
        for variant in BENCH_VARIANTS:
            reps = max(16, replicates * 25 // K) if K > 25 else replicates
            engine = engine_rate(variant, d, K, reps, rounds, seed)
            ref = reference_rate(variant, d, K, reference_rounds, seed)
            c_rounds = max(1, compiled_rounds * 25 // K)
            compiled = compiled_rate(variant, d, K, 4 * workers, c_rounds, seed)
            rows.append(
                {
                    "d": d,
                    "K": K,
                    "variant": variant,
                    "replicates": reps,
                    "rounds": rounds,
                    "compiled_replicates": 4 * workers,
                    "compiled_rounds": c_rounds,
                    "compiled_replicate_rounds_per_s": compiled,
                    "engine_replicate_rounds_per_s": engine,
                    "reference_rounds_per_s": ref,
                    "plain_numpy_replicate_rounds_per_s": plain,
                    "speedup": engine / ref,
                    "compiled_over_engine": compiled / engine,
                    "compiled_over_reference": compiled / ref,
                    "compiled_over_plain_numpy": compiled / plain,
                    "engine_peak_memory_mb": engine_peak_memory(variant, d, K, reps, 32) / 2**20,
                }
            )
    variants: tuple[Variant, ...] = ("nonprivate", "wishart", "gaussian", "wishart_unshifted")
    single = {variant: engine_rate(variant, 5, 25, 1, single_rounds, seed) for variant in variants}
    compiled_d5 = {
        variant: compiled_rate(variant, 5, 25, 4 * workers, compiled_rounds, seed)
        for variant in variants
    }
    projected_hours = sum(PAPER_D2_ROUNDS / rate for rate in single.values()) / 3600.0
    compiled_hours = sum(PAPER_D2_ROUNDS / rate for rate in compiled_d5.values()) / 3600.0
    peer = mabwiser_rate(5, 25, min(300, rounds), seed)
    ours_nonprivate_single = single["nonprivate"]
    return {
        "schema_version": SCHEMA_VERSION,
        "produced_by": produced_by(),
        "machine": {"cpus": os.cpu_count() or 1, "workers": workers},
        "compiled_first_call": first_call,
        "rates": rows,
        "profile_wishart_d5_K25": engine_profile("wishart", 5, 25, replicates, rounds),
        "compiled_profile_gaussian_d5_K25": compiled_profile(compiled_rounds, seed),
        "single_replicate_rounds_per_s_d5_K25": single,
        "compiled_replicate_rounds_per_s_d5_K25": compiled_d5,
        "paper_d2_projection_hours": projected_hours,
        "compiled_paper_d2_projection_hours": compiled_hours,
        "mabwiser_linucb_rounds_per_s_d5_K25": peer,
        "engine_single_over_mabwiser": None if peer is None else ours_nonprivate_single / peer,
        "compiled_over_mabwiser": None if peer is None else compiled_d5["nonprivate"] / peer,
        "tree_wishart_p6": tree_rates(1 << 16, 1 << 10, 4 * workers, seed),
        "dp_nas_two_point": dp_nas_rates(20, 2000, seed),
    }


def format_table(report: dict[str, Any]) -> str:
    """The Markdown table printed by the command line."""
    workers = report["machine"]["workers"]
    first = report["compiled_first_call"]
    lines = [
        f"Compiled engine on {workers} thread(s); first call {first['seconds']:.1f} s "
        f"({'loaded from numba cache' if first['source'] == 'cache' else 'compiled'}).",
        "",
        "| d | K | variant | compiled rep-rounds/s | numpy engine | reference rounds/s | "
        "plain numpy loop | compiled / engine | compiled / reference | compiled / plain | "
        "engine peak MB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in report["rates"]:
        lines.append(
            f"| {row['d']} | {row['K']} | {row['variant']} | "
            f"{row['compiled_replicate_rounds_per_s']:,.0f} | "
            f"{row['engine_replicate_rounds_per_s']:,.0f} | {row['reference_rounds_per_s']:,.0f} | "
            f"{row['plain_numpy_replicate_rounds_per_s']:,.0f} | "
            f"{row['compiled_over_engine']:.1f}× | {row['compiled_over_reference']:.0f}× | "
            f"{row['compiled_over_plain_numpy']:.1f}× | {row['engine_peak_memory_mb']:.1f} |"
        )
    lines.append("")
    lines.append("Where the compiled loop's time goes (Gaussian tree, d=5, K=25, one thread):")
    for name, share in report["compiled_profile_gaussian_d5_K25"].items():
        lines.append(f"- {name}: {100 * share:.0f}%")
    lines.append("")
    lines.append("Where the numpy engine's time goes (Wishart, d=5, K=25):")
    for name, share in report["profile_wishart_d5_K25"].items():
        lines.append(f"- {name}: {100 * share:.0f}%")
    single = report["single_replicate_rounds_per_s_d5_K25"]
    compiled = report["compiled_replicate_rounds_per_s_d5_K25"]
    lines.append("")
    lines.append(
        "d=5, K=25, compiled on all threads: "
        + ", ".join(f"{k} {v:,.0f} rep-rounds/s" for k, v in compiled.items())
        + "; numpy engine, single replicate: "
        + ", ".join(f"{k} {v:,.0f} rounds/s" for k, v in single.items())
        + ". Paper-scale D.2 (n=5e7, one run of each of the four variants) projected at "
        f"{report['compiled_paper_d2_projection_hours']:.2f} h compiled, "
        f"{report['paper_d2_projection_hours']:.1f} h with the numpy engine."
    )
    peer = report["mabwiser_linucb_rounds_per_s_d5_K25"]
    if peer is None:
        lines.append("MABWiser not installed: no peer comparison (nox -s bench installs it).")
    else:
        lines.append(
            f"MABWiser LinUCB online (d=5, K=25): {peer:,.0f} rounds/s; the compiled engine "
            f"(non-private) is {report['compiled_over_mabwiser']:,.0f}× that, the numpy engine's "
            f"single replicate {report['engine_single_over_mabwiser']:.1f}×."
        )
    tree, nas = report["tree_wishart_p6"], report["dp_nas_two_point"]
    lines.append("")
    lines.append(
        "Tree mechanism alone (Wishart, p = 6): compiled "
        f"{tree['compiled_replicate_releases_per_s']:,.0f} replicate-releases/s, numpy engine "
        f"{tree['engine_replicate_releases_per_s']:,.0f}, reference "
        f"{tree['reference_releases_per_s']:,.0f} releases/s. DP-NAS (Algorithm 1, two-point law): "
        f"compiled {nas['compiled_steps_per_s_one_thread']:,.0f} steps/s on one thread, reference "
        f"{nas['reference_steps_per_s']:,.0f} steps/s."
    )
    return "\n".join(lines)


def build_parser(prog: str = "privonline bench") -> argparse.ArgumentParser:
    """The command-line interface."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Benchmark the compiled and numpy engines against the reference and a plain "
        "numpy loop (ratios measured in one run) and write bench.json.",
    )
    sizes = (  # the run sizes, each a whole number >= 1
        ("--replicates", 256, "engine replicates at K=25"),
        ("--rounds", 256, "engine rounds"),
        ("--reference-rounds", 100, "reference rounds"),
        ("--single-rounds", 2000, "rounds of the single-replicate runs behind the D.2 projection"),
        ("--compiled-rounds", 20000, "compiled engine rounds at K=25, scaled by 25/K"),
    )
    for flag, default, what in sizes:
        parser.add_argument(
            flag, type=size_at_least(1), default=default, help=f"{what} (default %(default)s)"
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
        compiled_rounds=args.compiled_rounds,
        seed=args.seed,
    )
    write_json(args.out / "bench.json", report, indent=2)
    print(format_table(report))
    print(f"\nwrote {args.out / 'bench.json'}")
    return 0
