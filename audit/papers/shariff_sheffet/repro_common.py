"""What the App. D reproductions of Shariff & Sheffet share (D.1-D.3 and the scaling fits): their
report's form (:func:`app_d_report`) and their row of figure panels (:func:`panel_row`).
Overview in :mod:`audit.papers.shariff_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from audit.reproduce.report import Check, ExperimentReport, Figure
from audit.results import to_jsonable

__all__ = ["app_d_report", "panel_row"]


def app_d_report(
    name: str,
    label: str,
    config: Any,
    draw: Callable[[Any], Any],
    lines: Sequence[str],
    *,
    payload: Mapping[str, Any],
    checks: Sequence[Check] = (),
    fits: Sequence[Mapping[str, Any]] = (),
    layout: tuple[str, ...] = (),
) -> ExperimentReport:
    """The report of an App. D reproduction ``<name>.{json,md,png}``: the JSON ``experiment``
    is ``label``, indented by 2; the figure ``draw`` at 120 dpi."""
    return ExperimentReport(
        name,
        "shariff_sheffet",
        to_jsonable(config),
        Figure(draw, dpi=120),
        tuple(lines),
        checks=tuple(checks),
        fits=tuple(fits),
        payload=payload,
        label=label,
        layout=layout,
        json_indent=2,
    )


def panel_row(plt: Any, count: int) -> tuple[Any, Any]:
    """A figure of ``count`` panels side by side, 5 × 4 inches each: the figure and its axes."""
    fig, axes = plt.subplots(1, count, figsize=(5 * count, 4), squeeze=False)
    return fig, axes[0]
