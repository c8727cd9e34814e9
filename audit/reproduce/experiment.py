"""One experiment of a paper's reproductions (:class:`Experiment`) and the one command line that
runs a paper's experiments (:func:`main`, ``privonline reproduce PAPER``).

A paper's ``reproduce.py`` declares ``EXPERIMENTS: tuple[Experiment, ...]``; :func:`main` builds
the parser from them, checks the arguments and the output folder before any work, runs the chosen
experiments into ``<out>/<paper id>/``, writes each report there with the one renderer
(:func:`audit.reproduce.report.write_report`), prints their summaries and returns the exit code
(0 ok, 1 a gated check failed, 2 bad arguments).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import subprocess
import sys
import textwrap
import time
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from audit.reproduce.report import ExperimentReport, write_report
from audit.results import SCHEMA_VERSION, package_versions, to_jsonable
from reference.files import prepare_output_dir, write_json
from reference.validation import (
    size_at_least,
)

if TYPE_CHECKING:
    from audit.papers import Paper

__all__ = [
    "EXECUTOR_HELP",
    "Experiment",
    "check_lines",
    "config_overrides",
    "executor_argument",
    "failed_checks",
    "main",
    "provenance",
]

EXECUTOR_HELP = "'serial', 'processes' (default) or a Dask scheduler address ('tcp://host:8786')"


def failed_checks(report: ExperimentReport) -> bool:
    """Whether a gated check of ``report.checks`` (``gate`` and not ``holds``) failed."""
    return report.failed_checks()


def check_lines(report: ExperimentReport) -> list[str]:
    """A console line per check of ``report.checks``: its claim and whether it holds."""
    return [f"{c.claim}: {'holds' if c.holds else 'does not hold'}" for c in report.checks]


@dataclass(frozen=True)
class Experiment:
    """One reproduction of a paper.

    Attributes:
        name: its name on the command line and of its outputs ``<name>.{json,md,png}`` (no paper
            prefix: the outputs go to a per-paper folder).
        description: one line, shown in ``--help``.
        config: its configuration dataclass: ``config()`` is the reduced scale, ``config.paper()``
            the paper's.
        run: ``run(config, out)`` (or ``run(config, out, executor=...)`` when ``parallel``) runs it
            (its cells go under ``out``) and returns its report, which :meth:`execute` writes.
        summary: the console lines of a report.
        runs_field: the config field ``--runs`` sets (``None``: the option does not apply).
        horizon_field: the config field ``--n`` sets (``None``: the option does not apply).
        parallel: ``run`` takes the ``executor`` (``serial``, ``processes`` or a Dask address).
        gate: ``gate(report)`` is true when a failed check must fail the exit code (``None``:
            every check is reported only).
    """

    name: str
    description: str
    config: type[Any]
    run: Callable[..., ExperimentReport]
    summary: Callable[[ExperimentReport], list[str]]
    runs_field: str | None = "runs"
    horizon_field: str | None = None
    parallel: bool = False
    gate: Callable[[ExperimentReport], bool] | None = None

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"name must be a Python identifier, got {self.name!r}")
        if not dataclasses.is_dataclass(self.config) or not hasattr(self.config, "paper"):
            raise ValueError(f"config must be a dataclass with paper(), got {self.config!r}")
        fields = {f.name for f in dataclasses.fields(self.config)}
        for option, field in (
            ("runs_field", self.runs_field),
            ("horizon_field", self.horizon_field),
        ):
            if field is not None and field not in fields:
                raise ValueError(
                    f"{option} must be a field of {self.config.__name__}, got {field!r}"
                )

    def make_config(
        self,
        *,
        paper_scale: bool,
        runs: int | None,
        n: int | None,
        settings: Sequence[str] = (),
    ) -> Any:
        """The configuration at the chosen scale with the ``--runs`` / ``--n`` overrides, then the
        ``--set FIELD=VALUE`` ones that name a field of this configuration
        (:func:`config_overrides`)."""
        config = self.config.paper() if paper_scale else self.config()
        overrides = {
            field: value
            for field, value in ((self.runs_field, runs), (self.horizon_field, n))
            if field is not None and value is not None
        }
        overrides |= config_overrides(self.config, settings, only_known=True)
        return dataclasses.replace(config, **overrides)

    def execute(self, config: Any, out: Path, executor: str) -> ExperimentReport:
        """Run it into ``out`` (the executor only if it parallelises) and write its report there
        (:func:`audit.reproduce.report.write_report`)."""
        if self.parallel:
            report = self.run(config, out, executor=executor)
        else:
            report = self.run(config, out)
        write_report(report, out)
        return report


def _convert(field: str, kind: Any, text: str) -> Any:
    """``text`` as a value of the annotation ``kind``: ``int``, ``float``, ``bool``, ``str``, a
    ``Literal`` or a ``tuple[X, ...]`` (comma-separated)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if any(typing.get_origin(a) is tuple for a in args):
            raise ValueError(f"--set {field}: this field cannot be set from the command line")
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if not parts:
            raise ValueError(f"--set {field} must list at least one value, got {text!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(field, args[0], p) for p in parts)
        if len(parts) != len(args):
            raise ValueError(f"--set {field} must list {len(args)} values, got {text!r}")
        return tuple(_convert(field, a, p) for a, p in zip(args, parts, strict=True))
    if origin is typing.Literal:
        if text not in args:
            raise ValueError(
                f"--set {field} must be one of {', '.join(map(str, args))}, got {text!r}"
            )
        return text
    if origin in (typing.Union, types.UnionType):
        raise ValueError(f"--set {field}: this field cannot be set from the command line")
    try:
        if kind is bool:
            if text.lower() not in ("true", "false"):
                raise ValueError(text)
            return text.lower() == "true"
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        wanted = {bool: "true or false", int: "an integer", float: "a real number"}[kind]
        raise ValueError(f"--set {field} must be {wanted}, got {text!r}") from None
    if kind is str:
        return text
    raise ValueError(f"--set {field}: this field cannot be set from the command line")


def config_overrides(
    config: type[Any], settings: Sequence[str], *, only_known: bool = False
) -> dict[str, Any]:
    """The ``--set FIELD=VALUE`` settings as typed values of the dataclass ``config``'s fields
    (tuples comma-separated: ``--set gaps=0,0.1``); a value that does not parse raises
    ``ValueError`` naming the field and the type.  ``only_known``: settings naming no field of
    ``config`` are skipped (they may be another experiment's); otherwise they raise."""
    hints = typing.get_type_hints(config)
    out: dict[str, Any] = {}
    for setting in settings:
        field, sep, text = setting.partition("=")
        field = field.strip()
        if not sep or not field:
            raise ValueError(f"--set must be FIELD=VALUE, got {setting!r}")
        if field not in hints:
            if only_known:
                continue
            raise ValueError(
                f"--set {field}: not a field of {config.__name__} (fields: {', '.join(hints)})"
            )
        out[field] = _convert(field, hints[field], text.strip())
    return out


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
    import audit.papers as registry  # the registry imports this module's users

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


def _source_revision() -> str:
    """``git describe --always --dirty`` of the checkout holding this package, or ``"unknown"``
    (an installed copy, or no git)."""
    root = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


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
        "source_revision": _source_revision(),
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
