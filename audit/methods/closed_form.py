"""Closed-form audits: the verdict read off a mechanism's exact output law, with no sampling.

When the privacy loss of a neighbouring pair is known exactly (a Laplace randomiser, the halting
time of a stopping rule computed by quadrature), a claim is checked by comparing the exact
``ε(δ_claim)`` (or ``δ(ε_claim)``) with it: the result has ``p_value`` 0 or 1, ``confidence`` 1 and
``epsilon_lower_bound`` equal to the exact ``ε``.  There is no error probability beyond the
numerical tolerance the caller states.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import time
from typing import Any

from audit.protocols import PrivacyClaim
from audit.results import PrivacyAuditResult

__all__ = ["closed_form_result"]


def closed_form_result(
    claim: PrivacyClaim,
    *,
    name: str,
    mechanism: str,
    violation: bool,
    exact_epsilon: float,
    started: float,
    details: dict[str, Any],
) -> PrivacyAuditResult:
    """The :class:`~audit.results.PrivacyAuditResult` of a closed-form check of ``claim``:
    ``violation`` decided by the caller from the exact law, ``exact_epsilon`` the exact ``ε`` at
    the claim's ``δ``, ``started`` the :func:`time.perf_counter` value when the check began."""
    return PrivacyAuditResult(
        name=name,
        mechanism=mechanism,
        method="closed_form",
        claim=claim,
        violation=violation,
        p_value=0.0 if violation else 1.0,
        confidence=1.0,
        epsilon_lower_bound=exact_epsilon,
        delta_at_claim=None,
        curve=(),
        samples=0,
        seed=None,
        runtime_seconds=time.perf_counter() - started,
        details=details,
    )
