"""A budget, not a fixed run count: a searched audit repeated in stages of growing size.

Stage ``k`` runs :func:`audit.methods.pairs.searched_audit` on ``start·growth^k`` fresh draws per
input at family-wise level ``α/2^{k+1}`` (α-spending: whatever decides to go on, the chance that
any stage rejects a true claim is below ``α``).  It stops at a violation; for power (a ``"pass"``
whose power statement meets ``target·max(ε_claim, 0.05)`` with no suggestive screening evidence);
or when the budget cannot fit the next stage.  The result carries the adjusted p-value
``min_k 2^{k+1} p_k``, every stage's summary and what ended it.

Proof note: ``proofs_notes/audit/revealing_designs.md``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal, TypeAlias, TypeVar

from audit.methods.pairs import Tester, searched_audit
from audit.protocols import NeighbouringPair
from audit.results import PrivacyAuditResult
from reference.rng import SeedLike, seed_for
from reference.validation import check_finite, check_in_range, check_int_at_least

__all__ = ["ENDINGS", "PASS_TARGET", "Ending", "staged_audit"]

DataT = TypeVar("DataT")

Ending: TypeAlias = Literal["violation", "power", "budget", "stages"]
ENDINGS: tuple[Ending, ...] = ("violation", "power", "budget", "stages")
"""What ended a staged audit (module docstring)."""

PASS_TARGET = 1.5
"""The violation a pass promises to catch: ``PASS_TARGET`` times the claimed ε, with probability
``≥ 0.95`` on the audited event."""

SUGGESTIVE = 0.5
"""A screening bound above ``SUGGESTIVE · ε_claim`` is evidence worth more draws: the procedure
does not stop for power while any candidate's screening reaches it."""


def _alpha(alpha: float, stage: int) -> float:
    return alpha / 2.0 ** (stage + 1)


def _screened(result: PrivacyAuditResult) -> float:
    search = result.details.get("search", {})
    values = [float(v) for v in search.get("screened", {}).values()]
    return max(values) if values else -math.inf


def staged_audit(
    candidates: Sequence[NeighbouringPair[DataT]],
    tester_at: Callable[[float], Tester[DataT]],
    *,
    start: int,
    seed: SeedLike,
    confidence: float,
    top: int,
    name: str,
    epsilon: float,
    budget_seconds: float,
    growth: int = 2,
    max_stages: int = 8,
    min_stages: int = 1,
    target: float = PASS_TARGET,
    progress: Any = None,
    clock: Callable[[], float] = time.monotonic,
    announce: Callable[[int, int, int], None] | None = None,
    on_stage: Callable[[int, PrivacyAuditResult], None] | None = None,
) -> PrivacyAuditResult:
    """Run the stages of the module docstring and return the deciding stage's audit.

    ``tester_at(level)`` is the tester at that confidence (as for
    :func:`~audit.methods.pairs.searched_audit`); ``start`` the draws per input of stage 0;
    ``epsilon`` the claimed ε (for the power target and the evidence rule); ``budget_seconds`` the
    wall time the stages may take (``math.inf``: no limit; at least stage 0 always runs);
    ``progress`` a tqdm-like bar advanced once per audit; ``announce(k, runs, audits)`` is called
    before stage ``k`` (its draws per input and how many audits it runs); ``min_stages`` the stages that run before a stop for power (a leak whose events are
    rare shows only with more draws, while the first stage's power statement may already meet
    the target); ``on_stage(k, result)`` is called after every stage (e.g. to keep partial results).
    """
    check_in_range("confidence", confidence, 0.0, 1.0)
    start = check_int_at_least("start", start, 4)
    growth = check_int_at_least("growth", growth, 2)
    max_stages = check_int_at_least("max_stages", max_stages, 1)
    min_stages = check_int_at_least("min_stages", min_stages, 1)
    if min_stages > max_stages:
        raise ValueError(
            f"min_stages must be in [1, max_stages] = [1, {max_stages}], got {min_stages}"
        )
    epsilon = check_finite("epsilon", epsilon)
    target = check_finite("target", target)
    if target < 1.0:
        raise ValueError(f"target must be in [1, inf), got {target}")
    if not (budget_seconds > 0.0):  # NaN fails too
        raise ValueError(f"budget_seconds must be in (0, inf], got {budget_seconds}")
    alpha = 1.0 - confidence
    began = clock()
    summaries: list[dict[str, Any]] = []
    adjusted = 1.0
    result: PrivacyAuditResult | None = None
    ended: Ending = "stages"
    last_seconds = 0.0
    for stage in range(max_stages):
        runs = start * growth**stage
        if stage > 0:
            left = budget_seconds - (clock() - began)
            if last_seconds * growth > left:
                ended = "budget"
                break
        if announce is not None:
            announce(stage, runs, len(candidates) + min(top, len(candidates)))
        level = 1.0 - _alpha(alpha, stage)
        started = clock()
        result = searched_audit(
            candidates,
            tester_at,
            samples=runs,
            seed=seed_for(seed, f"stage {stage}"),
            confidence=level,
            top=top,
            name=name,
            progress=progress,
        )
        last_seconds = clock() - started
        adjusted = min(adjusted, min(1.0, 2.0 ** (stage + 1) * result.p_value))
        summaries.append(
            {
                "stage": stage,
                "runs": runs,
                "alpha": 1.0 - level,
                "violation": result.violation,
                "epsilon_lower_bound": result.epsilon_lower_bound,
                "detectable_epsilon": result.detectable_epsilon,
                "detectable_delta": result.detectable_delta,
                "p_value": result.p_value,
                "best_screening_bound": _screened(result),
                "audited": result.name,
                "seconds": last_seconds,
            }
        )
        if on_stage is not None:
            on_stage(stage, result)
        if result.violation:
            ended = "violation"
            break
        power = result.detectable_epsilon
        if (
            stage + 1 >= min_stages
            and power is not None
            and power <= target * max(epsilon, 0.05)
            and _screened(result) < SUGGESTIVE * epsilon
        ):
            ended = "power"
            break
    assert result is not None  # stage 0 always runs
    details = dict(result.details)
    details["stages"] = summaries
    details["ended_by"] = ended
    details["procedure"] = (
        f"{len(summaries)} stage(s) of {start}·{growth}^k draws per input, stage k at family-wise "
        f"level α/2^(k+1), α = {alpha:g}; ended by {ended}"
    )
    return dataclasses.replace(
        result,
        p_value=adjusted,
        details=details,
        pass_factor=target,
        runtime_seconds=clock() - began,
    )
