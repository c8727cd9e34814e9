"""How much of a policy's leak its choices can show: the action-level ε of each zoo policy.

For every policy of the zoo (:data:`audit.benchmarks.policy_zoo.CASES`) and every design its check
searches (:mod:`audit.methods.designs`), many runs on each stream give a lower confidence bound on
the ε of what the adversary sees (the event audit at 95%) and, for transcripts of choices, a
plug-in estimate (the best event of the first one to four informative days, events of mass at
least 1%).  A bug whose action-level ε is below 1.5 times its claim is beyond an actions-only check
whatever its mechanism leaks.  Each (case, design) is kept in ``<out>/cells``; ``python -m
audit.benchmarks.action_level --help``.

Proof note: ``proofs_notes/audit/revealing_designs.md``.
"""

from __future__ import annotations

import argparse
import functools
import math
import shlex
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, get_args

import numpy as np
from tqdm import tqdm

from audit.benchmarks.policy_zoo import CASES, ROOT, ZooCase
from audit.methods.black_box import event_audit_from_samples
from audit.methods.designs import (
    DESIGN_SCORES,
    AnchoredPair,
    anchored_features,
    choice_features,
    informative_days,
    linear_designs,
    multi_armed_designs,
    online_designs,
    point_features,
    reused_noise_design,
    stream_samples,
)
from audit.methods.online import collect_points
from audit.methods.stream import Stream, collect_transcripts, differing_day
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.reproduce.common import CellStore
from audit.results import SCHEMA_VERSION, package_versions, produced_by, produced_by_line
from audit.targets import load_target
from reference.agarwal_singh.sets import LossSetKind
from reference.files import atomic_write_text, prepare_output_dir, write_json
from reference.rng import seed_for
from reference.validation import check_int_at_least

__all__ = ["case_claim", "counts_by_side", "main", "plugin_epsilon", "run_action_level"]

PLUGIN_PREFIX = 4
"""Informative days the plug-in estimate looks at (more days: more distinct transcripts than runs
can count)."""

PLUGIN_MASS = 0.01
"""Least probability, under the second stream, of an event the plug-in estimate considers."""


def case_claim(case: ZooCase) -> PrivacyClaim:
    """The claim of a zoo case's check (its ``--epsilon`` and ``--delta``)."""
    args = list(case.args)
    return PrivacyClaim(
        float(args[args.index("--epsilon") + 1]),
        float(args[args.index("--delta") + 1]),
        "t_neighbouring",
    )


def plugin_epsilon(a: np.ndarray, b: np.ndarray, delta: float, min_mass: float) -> float:
    """The largest ``ln((P(S) − δ)/P'(S))`` over events ``S`` that are unions of distinct rows
    (sorted by their count ratio), in both directions, with ``P'(S) ≥ min_mass``: a plug-in
    estimate of the ε of the rows' law at ``δ`` (biased upward by the choice of ``S``)."""
    rows_a = Counter(map(tuple, np.asarray(a).tolist()))
    rows_b = Counter(map(tuple, np.asarray(b).tolist()))
    keys = set(rows_a) | set(rows_b)
    best = -math.inf
    for first, second, n_first, n_second in (
        (rows_a, rows_b, len(a), len(b)),
        (rows_b, rows_a, len(b), len(a)),
    ):
        order = sorted(keys, key=lambda k: -(first[k] + 0.5) / (second[k] + 0.5))
        p = q = 0.0
        for key in order:
            p += first[key] / n_first
            q += second[key] / n_second
            if q >= min_mass and p > delta:
                best = max(best, math.log((p - delta) / q))
    return best


def _designs(
    case: ZooCase, target: Any, anchored: Sequence[int] = ()
) -> list[NeighbouringPair[Any]]:
    if case.kind == "linear":
        return [*linear_designs(), *(reused_noise_design(levels) for levels in anchored)]
    if case.kind == "multi_armed":
        return list(multi_armed_designs())
    stated = getattr(target, "loss_set", "box01")
    kinds: tuple[LossSetKind, ...] = get_args(LossSetKind)
    return list(online_designs(next((k for k in kinds if k == stated), "box01")))


def _one(case: ZooCase, pair: NeighbouringPair[Any], runs: int, seed: int) -> dict[str, Any]:
    """The bound and the plug-in estimate of one (case, design)."""
    target = load_target(case.target, [str(ROOT)])
    claim = case_claim(case)
    score: Any = DESIGN_SCORES if not case.kind.startswith("online") else "auto"
    if isinstance(pair, AnchoredPair):
        out, out_p = stream_samples(target, pair, runs, seed)
        features = anchored_features(pair)
        plugin = plugin_epsilon(features(out), features(out_p), claim.delta, PLUGIN_MASS)
        score = "feature"
    elif case.kind.startswith("online"):
        t = int(np.flatnonzero(np.any(pair.x != pair.x_prime, axis=1))[0]) + 1
        out, out_p = collect_points(target, pair.x, pair.x_prime, t, runs=runs, seed=seed)
        features = point_features(np.asarray(pair.x).shape[1])
        plugin = None
    else:
        x: Stream = pair.x
        t = differing_day(x, pair.x_prime)
        out, out_p = collect_transcripts(target, x, pair.x_prime, t, runs=runs, seed=seed)
        days = informative_days(x, t)
        features = choice_features(days if days.size else np.arange(t + 1, x.n + 1), t)
        first = features(out)[:, :PLUGIN_PREFIX]
        plugin = plugin_epsilon(first, features(out_p)[:, :PLUGIN_PREFIX], claim.delta, PLUGIN_MASS)
    result = event_audit_from_samples(
        out, out_p, claim, name=pair.description, mechanism=case.target, features=features,
        confidence=0.95, seed=seed, score=score,
    )  # fmt: skip
    counts = result.details["counts"]
    return {
        "epsilon_lower_bound": result.epsilon_lower_bound,
        "plugin_epsilon": plugin,
        "event": f"{result.details['event']} ({result.details['direction']})",
        "event_counts": [counts.count, counts.trials, counts.count_prime, counts.trials_prime],
        "detectable_epsilon": result.detectable_epsilon,
    }


def run_action_level(
    cases: Sequence[ZooCase],
    runs: int,
    seed: int,
    out: Path,
    progress: bool = False,
    anchored: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """Every (case, design), kept in ``out/cells``; one row per case with the best design.
    ``anchored``: tree levels of :func:`audit.methods.designs.reused_noise_design` added to the
    linear cases' designs (``()``: only the designs the check searches)."""
    runs = check_int_at_least("runs", runs, 4)
    targets = {c.name: load_target(c.target, [str(ROOT)]) for c in cases}
    jobs = [(c, p) for c in cases for p in _designs(c, targets[c.name], anchored)]
    bar = tqdm(total=len(jobs), desc="action-level ε", unit="design", disable=not progress)
    store = CellStore(out / "cells", bar)
    rows = []
    for case in cases:
        found = {}
        for c, design in jobs:
            if c is not case:
                continue
            name = design.description
            s = seed_for(seed, f"{case.name}/{name}")
            config = {"case": case.name, "design": name, "runs": runs, "seed": s}
            key = f"{case.name}__{name}".replace(" ", "_").replace(",", "")
            for char in "=()":
                key = key.replace(char, "")
            found[name] = store.json(key, config, functools.partial(_one, case, design, runs, s))
        for value in found.values():  # strict JSON keeps ±inf as strings
            value["epsilon_lower_bound"] = float(value["epsilon_lower_bound"])
            if value.get("detectable_epsilon") is not None:
                value["detectable_epsilon"] = float(value["detectable_epsilon"])
            if value["plugin_epsilon"] is not None:
                value["plugin_epsilon"] = float(value["plugin_epsilon"])
        best = max(found, key=lambda k: float(found[k]["epsilon_lower_bound"]))
        plugins = [v["plugin_epsilon"] for v in found.values() if v["plugin_epsilon"] is not None]
        rows.append(
            {
                "case": case.name,
                "claim": [case_claim(case).epsilon, case_claim(case).delta],
                "bug": case.bug,
                "best_design": best,
                "epsilon_lower_bound": found[best]["epsilon_lower_bound"],
                "plugin_epsilon": max(plugins) if plugins else None,
                "designs": found,
            }
        )
    bar.close()
    return rows


def counts_by_side(design: dict[str, Any]) -> tuple[str, str]:
    """``("k/n on x", "k/n on x'")`` of one design's stored event counts (they follow the
    event's direction, ``"(x' vs x)"`` putting ``x'`` first)."""
    c = design.get("event_counts") or [0, 0, 0, 0]
    first, second = f"{c[0]}/{c[1]}", f"{c[2]}/{c[3]}"
    swapped = str(design.get("event", "")).endswith("(x' vs x)")
    return (second, first) if swapped else (first, second)


def _fmt(value: float | None) -> str:
    return "–" if value is None else f"{value:.3g}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m audit.benchmarks.action_level --runs 20000 --out DIR [--cases a,b]``."""
    parser = argparse.ArgumentParser(
        prog="python -m audit.benchmarks.action_level",
        description="The action-level ε of every zoo policy on the designs its check searches: "
        "a 95% lower bound (event audit) and a plug-in estimate; writes action_level.json/.md; "
        "finished (case, design) cells are kept in OUT/cells, so a rerun resumes.",
    )
    parser.add_argument("--runs", type=int, default=20_000, help="runs per stream (default 20000)")
    parser.add_argument("--seed", type=int, default=2026, help="root seed (default 2026)")
    parser.add_argument("--cases", default=None, help="comma-separated zoo case names")
    parser.add_argument("--out", type=Path, default=Path("results/benchmarks/action_level"))
    parser.add_argument(
        "--anchored", default="",
        help="comma-separated tree levels (≥ 4) of the reused-noise anchored design to add to the "
        "linear cases' designs (3·2^(levels−2) days each; default: none)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    try:
        known = {c.name: c for c in CASES}
        names = list(known) if args.cases is None else args.cases.split(",")
        unknown = [n for n in names if n not in known]
        if unknown:
            raise ValueError(f"cases must name zoo cases {sorted(known)}, got {unknown}")
        out = prepare_output_dir(args.out)
        check_int_at_least("--runs", args.runs, 4)
        anchored = [check_int_at_least("--anchored", int(v), 4)
                    for v in args.anchored.split(",") if v.strip()]  # fmt: skip
    except ValueError as err:
        parser.error(str(err))
    rows = run_action_level([known[n] for n in names], args.runs, args.seed, out,
                            progress=sys.stderr.isatty(), anchored=anchored)  # fmt: skip
    command = "python -m audit.benchmarks.action_level " + shlex.join(
        sys.argv[1:] if argv is None else list(argv)
    )
    write_json(out / "action_level.json", {"schema_version": SCHEMA_VERSION,
               "produced_by": produced_by(), "kind": "action_level", "command": command, "versions": package_versions(),
               "runs": args.runs, "seed": args.seed, "cases": rows})  # fmt: skip
    lines = [
        "# Action-level ε of the zoo's policies",
        "",
        produced_by_line(),
        "",
        f"`{command}`: {args.runs} runs per stream on every design of the case's kind.",
        "",
        "| case | claim (ε, δ) | bug | best design | ε lower bound (95%) | plug-in ε |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| {r['case']} | ({r['claim'][0]:g}, {r['claim'][1]:g}) | "
                     f"{r['bug'] or 'correct'} | {r['best_design']} | "
                     f"{_fmt(r['epsilon_lower_bound'])} | {_fmt(r['plugin_epsilon'])} |")  # fmt: skip
    anchored_rows = [(r["case"], name, v) for r in rows for name, v in r["designs"].items()
                     if name.startswith("reused-noise anchors")]  # fmt: skip
    if anchored_rows:
        lines += ["", "Anchored designs (`reused_noise_design`; the chosen event's counts on the "
                  "evaluation half; the plug-in ε only counts events of mass ≥ 1% on both sides):",
                  "", "| case | design | event | on x | on x' | ε lower bound (95%) | plug-in ε |",
                  "|---|---|---|---|---|---|---|"]  # fmt: skip
        for case_name, name, v in anchored_rows:
            on_x, on_xp = counts_by_side(v)
            lines.append(f"| {case_name} | {name} | {v.get('event', '–')} | {on_x} | {on_xp} | "
                         f"{_fmt(v['epsilon_lower_bound'])} | {_fmt(v['plugin_epsilon'])} |")  # fmt: skip
    atomic_write_text(out / "action_level.md", "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
