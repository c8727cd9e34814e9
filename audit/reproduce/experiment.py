"""One experiment of a paper's reproductions (:class:`Experiment`): its configuration at the
reduced or the paper's scale with the command line's overrides (:func:`config_overrides`), its run
and its report, written by the one renderer (:func:`audit.reproduce.report.write_report`).

A paper's ``reproduce.py`` declares ``EXPERIMENTS: tuple[Experiment, ...]``; the command line that
runs them is :mod:`audit.reproduce.command`.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.reproduce.report import ExperimentReport, write_report

__all__ = [
    "Experiment",
    "check_lines",
    "config_overrides",
    "failed_checks",
]


def failed_checks(report: ExperimentReport) -> bool:
    """Whether a gated check of ``report.checks`` (``gate`` and not ``holds``) failed."""
    return report.failed_checks()


def check_lines(report: ExperimentReport) -> list[str]:
    """A console line per check of ``report.checks``: its claim and whether it holds; a check
    with a statistical ``verdict`` (holds, fails, needs more runs) leads with it, and the point
    reading ("on the means") follows, so that a close mean is never printed as a verdict."""
    lines = []
    for c in report.checks:
        on_means = "holds" if c.holds else "does not hold"
        verdict = c.details.get("verdict")
        if isinstance(verdict, str):
            lines.append(f"{c.claim}: {verdict} (on the means: {on_means})")
        else:
            lines.append(f"{c.claim}: {on_means}")
    return lines


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
