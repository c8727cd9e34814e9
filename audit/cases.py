"""Audit cases and what their verdicts count for.

A battery runs each case's tests and tags every result with the deliberately broken variant it
runs (``None`` for a correct mechanism) and whether its rejection counts as catching that bug
(:data:`Tagged`).  A bug counts as caught by a test of the *exact* claim (the guarantee the correct
mechanism has), never by a test of the printed claim alone, or by an accuracy test
(:func:`caught_by_exact_or_accuracy`).  Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

from typing import TypeAlias

from audit.methods.binomial import RunAuditResult
from audit.results import PrivacyAuditResult

__all__ = ["AuditResult", "Tagged", "caught_by_exact_or_accuracy"]

AuditResult: TypeAlias = PrivacyAuditResult | RunAuditResult
"""The result of one test: a privacy test or a binomial (accuracy) test."""

Tagged: TypeAlias = tuple[AuditResult, str | None, bool]
"""A result, the broken variant it runs (``None``: a correct mechanism), and whether its rejection
counts as catching that variant."""


def caught_by_exact_or_accuracy(result: AuditResult, bug: str | None) -> bool:
    """Whether rejecting ``result`` catches ``bug``: an accuracy test, or a privacy test of the
    exact claim (its label starts with ``"exact"``); never for a correct mechanism."""
    if bug is None:
        return False
    return not isinstance(result, PrivacyAuditResult) or result.claim.label.startswith("exact")
