"""The one command line of the reproductions, ``privonline reproduce PAPER`` (:func:`main`).

:func:`main` builds the parser from a paper's ``EXPERIMENTS``
(:class:`~audit.reproduce.experiment.Experiment`), checks the arguments and the output folder
before any work, runs the chosen experiments into ``<out>/<paper id>/``, writes each report there with the one renderer
(:func:`audit.reproduce.report.write_report`) beside its provenance, prints their summaries and
returns the exit code (0 ok, 1 a gated check failed, 2 bad arguments).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import textwrap
import time
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import audit.papers as registry
from audit.papers import Paper
from audit.reproduce.experiment import Experiment
from audit.results import SCHEMA_VERSION, package_versions, source_revision, to_jsonable
from reference.files import prepare_output_dir, write_json
from reference.validation import size_at_least

__all__ = ["EXECUTOR_HELP", "executor_argument", "main", "provenance"]

EXECUTOR_HELP = "'serial', 'processes' (default) or a Dask scheduler address ('tcp://host:8786')"


def executor_argument(text: str) -> str:
    """An argparse ``type=`` for ``--executor``: ``serial``, ``processes`` or a Dask scheduler
    address (``scheme://host:port``), checked before any work starts."""
    if text in ("serial", "processes") or "://" in text:
        return text
    raise argparse.ArgumentTypeError(
        "must be 'serial', 'processes' or a Dask scheduler address such as "
        f"'tcp://host:8786', got {text!r}"
    )


def _parser(paper: Paper, experiments: Sequence[Experiment], prog: str) -> argparse.ArgumentParser:
    listing = "\n".join(f"  {e.name:<12} {e.description}" for e in experiments)
    parser = argparse.ArgumentParser(
        prog=prog,
        description=textwrap.fill(
            f"Reproduce {paper.label}, {paper.title!r} (reduced scale by default); writes "
            f"<out>/{paper.id}/<experiment>.{{json,md,png}}."
        )
        + f"\n\nexperiments:\n{listing}",
        epilog="'privonline reproduce PAPER --help' for every paper ("
        + ", ".join(p.cli_name for p in registry.PAPERS)
        + "); 'privonline reproduce all' runs them all, each into <out>/<paper id>.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "experiments",
        nargs="*",
        metavar="{" + ",".join(e.name for e in experiments) + "}",
        help="which experiments (default: all)",
    )
    parser.add_argument("--paper-scale", action="store_true", help="the paper's sizes (long)")
    runs = [f"{e.name}: {e.runs_field}" for e in experiments if e.runs_field]
    parser.add_argument(
        "--runs",
        type=size_at_least(2),
        default=None,
        help=f"runs per cell, at least 2 (default: per config; sets {', '.join(runs)})",
    )
    horizons = [e.name for e in experiments if e.horizon_field]
    if horizons:
        parser.add_argument(
            "--n",
            type=size_at_least(2),
            default=None,
            help=f"horizon (default: per config; {', '.join(horizons)})",
        )
    parser.add_argument(
        "--set",
        dest="settings",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="set a configuration field of every chosen experiment that has it, after "
        "--paper-scale/--runs/--n (tuples comma-separated, e.g. --set gaps=0,0.1); repeatable; "
        "the report's configuration and provenance record it",
    )
    parser.add_argument(
        "--executor",
        type=executor_argument,
        default="processes",
        help=f"where cells run: {EXECUTOR_HELP}; results do not depend on it (used by "
        f"{', '.join(e.name for e in experiments if e.parallel) or 'none of these experiments'})",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("results/reproduce"),
        help=f"output folder (default results/reproduce; this paper writes into <out>/{paper.id})",
    )
    return parser


def provenance(
    paper: Paper, argv: Sequence[str] | None, config: Any, executor: str
) -> dict[str, Any]:
    """What made a reproduction's report: the command, the full configuration (seed included),
    the source revision, the package versions and the machine; written beside each report as
    ``<experiment>.provenance.json`` so that a committed summary says how to make it again."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    return {
        "schema_version": SCHEMA_VERSION,
        "command": " ".join(["privonline", "reproduce", paper.cli_name, *arguments]),
        "config": to_jsonable(config),
        "executor": executor,
        "source_revision": source_revision(),
        "versions": package_versions(),
        "machine": {
            "platform": platform.platform(),
            "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1,
        },
    }


def main(
    paper: Paper, argv: Sequence[str] | None = None, prog: str = "privonline reproduce"
) -> int:
    """``privonline reproduce PAPER [EXPERIMENT ...]``: run ``paper``'s experiments; exit code 1 if a
    gated check fails, 2 on bad arguments (argparse exits with 2 itself on a malformed option)."""
    experiments: tuple[Experiment, ...] = paper.experiments
    args = _parser(paper, experiments, prog).parse_args(argv)
    by_name = {e.name: e for e in experiments}
    chosen = list(dict.fromkeys(args.experiments or by_name))
    unknown = sorted(set(chosen) - set(by_name))
    if unknown:
        print(
            f"error: experiments must be among {', '.join(by_name)}, got {unknown}", file=sys.stderr
        )
        return 2
    n = getattr(args, "n", None)
    failed = False
    try:
        for setting in args.settings:  # each must name a field of some chosen experiment
            field = setting.partition("=")[0].strip()
            if not any(field in typing.get_type_hints(by_name[name].config) for name in chosen):
                raise ValueError(f"--set {field}: not a configuration field of {', '.join(chosen)}")
        configs = [
            by_name[name].make_config(
                paper_scale=args.paper_scale, runs=args.runs, n=n, settings=args.settings
            )
            for name in chosen
        ]
        prepare_output_dir(args.out)
        out = prepare_output_dir(args.out / paper.id)
        for name, config in zip(chosen, configs, strict=True):
            experiment = by_name[name]
            started, clock = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), time.monotonic()
            report = experiment.execute(config, out, args.executor)
            record = provenance(paper, argv, config, args.executor)
            record |= {"started_utc": started, "seconds": time.monotonic() - clock}
            write_json(out / f"{report.name}.provenance.json", record, indent=2)
            for line in experiment.summary(report):
                print(f"{name} {line}")
            failed |= experiment.gate is not None and experiment.gate(report)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {out}/{{{','.join(chosen)}}}.{{json,md,png,provenance.json}}")
    return 1 if failed else 0
