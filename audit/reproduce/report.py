"""The typed report of one reproduction (:class:`ExperimentReport`) and its one renderer
(:func:`write_report`): ``<name>.json`` (with ``schema_version``), ``<name>.md`` and ``<name>.png``,
each written atomically through :mod:`reference.files`.  matplotlib is imported (Agg backend) only
inside the renderer, so importing an experiment does not import it.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from audit.results import SCHEMA_VERSION, produced_by, produced_by_line
from reference.files import atomic_savefig, atomic_write_text, write_json

__all__ = ["Check", "ExperimentReport", "Figure", "Table", "write_report"]


@dataclass(frozen=True)
class Check:
    """One claim of the paper checked by an experiment.

    Attributes:
        claim: the claim, in words.
        holds: whether it holds here.
        gate: whether a failure fails the exit code (``None``: the experiment gates nothing, and
            the JSON records no ``gate``).
        details: further JSON-ready fields recorded after ``claim``, ``holds`` and ``gate``.
    """

    claim: str
    holds: bool
    gate: bool | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Check:
        """The check a record ``{"claim", "holds", "gate", ...}`` states, its further fields (in
        their order) as ``details``: the inverse of :meth:`to_dict` for a gated or reported
        check."""
        details = {k: v for k, v in record.items() if k not in ("claim", "holds", "gate")}
        return cls(record["claim"], record["holds"], record["gate"], details)

    def to_dict(self) -> dict[str, Any]:
        """The JSON record: ``claim``, ``holds``, ``gate`` (unless ``None``), then ``details``."""
        record: dict[str, Any] = {"claim": self.claim, "holds": self.holds}
        if self.gate is not None:
            record["gate"] = self.gate
        return {**record, **self.details}


@dataclass(frozen=True)
class Table:
    """A Markdown table: its header cells and its rows of already formatted cells."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.header):
                raise ValueError(
                    f"rows must have {len(self.header)} cells like the header, got {len(row)}"
                )

    def lines(self) -> list[str]:
        """The Markdown lines: header, separator, one line per row."""
        return [
            "| " + " | ".join(self.header) + " |",
            "|" + "---|" * len(self.header),
            *("| " + " | ".join(row) + " |" for row in self.rows),
        ]


@dataclass(frozen=True)
class Figure:
    """A figure: ``draw(pyplot)`` builds and returns a matplotlib figure, saved at ``dpi``."""

    draw: Callable[[Any], Any]
    dpi: int = 110


@dataclass(frozen=True)
class ExperimentReport:
    """What one reproduction found, ready for :func:`write_report`.

    Attributes:
        name: the experiment's name: its outputs are ``<name>.{json,md,png}``.
        paper: the paper id (``audit.papers.Paper.id``).
        config: the configuration, JSON-ready.
        checks: the paper's claims checked (:class:`Check`).
        fits: the scaling fits, JSON-ready records.
        body: the Markdown report, line by line, tables as :class:`Table`.
        figure: draws ``<name>.png``.
        payload: the rest of the JSON content, in its order.
        label: the JSON's ``experiment`` field (default: ``name``).
        layout: the order of the JSON's fields after ``schema_version``, ``experiment`` and
            ``config``: every key of ``payload``, ``"checks"`` / ``"fits"`` when not empty, and
            either of them when empty to record an empty list (default: ``payload`` then
            ``checks`` and ``fits`` if not empty).
        json_indent: the JSON's indentation.
    """

    name: str
    paper: str
    config: Mapping[str, Any]
    figure: Figure
    body: tuple[str | Table, ...]
    checks: tuple[Check, ...] = ()
    fits: tuple[Mapping[str, Any], ...] = ()
    payload: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""
    layout: tuple[str, ...] = ()
    json_indent: int = 1

    def __post_init__(self) -> None:
        if not self.name.isidentifier():
            raise ValueError(f"name must be a Python identifier, got {self.name!r}")
        if {"checks", "fits"} & set(self.payload):
            raise ValueError("payload must not hold 'checks' or 'fits' (they are typed fields)")
        typed = [k for k, v in (("checks", self.checks), ("fits", self.fits)) if v]
        if self.layout and (
            len(set(self.layout)) != len(self.layout)
            or not {*self.payload, *typed} <= set(self.layout) <= {*self.payload, "checks", "fits"}
        ):
            raise ValueError(
                f"layout must order the payload keys, {typed} and optionally the other of "
                f"'checks' / 'fits', each once, got {list(self.layout)}"
            )

    @property
    def tables(self) -> list[Table]:
        """The Markdown tables of :attr:`body`."""
        return [block for block in self.body if isinstance(block, Table)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON document of ``<name>.json``."""
        typed: dict[str, Any] = {
            "checks": [c.to_dict() for c in self.checks],
            "fits": [dict(f) for f in self.fits],
        }
        order: Sequence[str] = self.layout or [
            *self.payload,
            *(k for k in ("checks", "fits") if typed[k]),
        ]
        document: dict[str, Any] = {
            "schema_version": SCHEMA_VERSION,
            "produced_by": produced_by(),
            "experiment": self.label or self.name,
            "config": self.config,
        }
        for key in order:
            document[key] = typed[key] if key in typed else self.payload[key]
        return document

    def markdown(self) -> str:
        """The text of ``<name>.md``: the body, its title line first, then the line naming the
        privonline version and revision that produced it."""
        lines: list[str] = []
        for block in self.body:
            lines.extend(block.lines() if isinstance(block, Table) else [block])
        at = 1 if lines and lines[0].startswith("#") else 0
        lines[at:at] = [*([""] if at else []), produced_by_line(), *([] if at else [""])]
        return "\n".join(lines) + "\n"

    def failed_checks(self) -> bool:
        """Whether a gated check failed."""
        return any(c.gate and not c.holds for c in self.checks)


def write_report(report: ExperimentReport, out_dir: Path) -> None:
    """Write ``<name>.json``, ``<name>.png`` and ``<name>.md`` of ``report`` into ``out_dir``,
    each atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    write_json(out_dir / f"{report.name}.json", report.to_dict(), indent=report.json_indent)
    fig = report.figure.draw(plt)
    try:
        atomic_savefig(fig, out_dir / f"{report.name}.png", dpi=report.figure.dpi)
    finally:
        plt.close(fig)
    atomic_write_text(out_dir / f"{report.name}.md", report.markdown())
