"""One-line pytest assertions for other projects' CI: :func:`assert_golden` (a function against
the golden cases of an entry, :func:`~audit.tools.golden.third_party.golden_compare`) and
:func:`assert_check_passes` (``privonline check`` through :func:`audit.check.run_check`); each
raises ``AssertionError`` whose message is the report's summary.

Proof note: ``proofs_notes/audit/golden_schema.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from audit.check import run_check
from audit.check_report import CheckReport
from audit.tools.golden.third_party import GoldenComparison, golden_compare

__all__ = ["assert_check_passes", "assert_golden"]


def assert_golden(
    function: Callable[..., object], entry: str, rename: Mapping[str, str] | None = None
) -> GoldenComparison:
    """``golden_compare(function, entry, rename)``; ``AssertionError`` with its
    :meth:`~audit.tools.golden.third_party.GoldenComparison.summary` unless every case agrees.
    A bad argument is a ``ValueError`` (not an assertion: the test itself is wrong)."""
    comparison = golden_compare(function, entry, rename)
    if not comparison.agree:
        raise AssertionError(comparison.summary())
    return comparison


def assert_check_passes(target: str, **check_args: Any) -> CheckReport:
    """``run_check(target, **check_args)`` (a ``claim`` among them); ``AssertionError`` with the
    report's :meth:`~audit.check_report.CheckReport.summary` unless its verdict is ``"pass"``
    (an inconclusive check fails too: it could not have caught a violation)."""
    report = run_check(target, **check_args)
    if report.verdict != "pass":
        raise AssertionError(report.summary())
    return report
