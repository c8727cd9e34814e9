"""The staged audit: a searched audit repeated on growing fresh draws under α-spending
(audit/methods/staged.py)."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pytest

from audit.methods.pairs import Tester
from audit.methods.staged import PASS_TARGET, staged_audit
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import PrivacyAuditResult

CLAIM = PrivacyClaim(1.0, 0.0, "t_neighbouring")
PAIRS = [NeighbouringPair(np.zeros(1), np.ones(1), "t_neighbouring", f"c{i}") for i in range(3)]


def _result(p: float, detectable: float, bound: float, level: float) -> PrivacyAuditResult:
    return PrivacyAuditResult(
        name="fake", mechanism="m", method="black_box", claim=CLAIM, violation=p <= 1 - level,
        p_value=p, confidence=level, epsilon_lower_bound=bound, delta_at_claim=None, curve=(),
        samples=1, seed=0, runtime_seconds=0.0, detectable_epsilon=detectable,
    )  # fmt: skip


def _tester(
    plan: Callable[[int, int], tuple[float, float, float]], calls: list[tuple[int, float]]
) -> Callable[[float], Tester[np.ndarray]]:
    """A fake tester: ``plan(samples, candidate index)`` gives (p-value, power statement, bound)."""

    def tester_at(level: float) -> Tester[np.ndarray]:
        def tester(
            pair: NeighbouringPair[np.ndarray], samples: int, seed: int
        ) -> PrivacyAuditResult:
            calls.append((samples, level))
            p, detectable, bound = plan(samples, int(pair.description[1:]))
            return _result(p, detectable, bound, level)

        return tester

    return tester_at


def _run(plan: Callable[[int, int], tuple[float, float, float]], **kwargs: object) -> tuple[
    PrivacyAuditResult, list[tuple[int, float]]
]:  # fmt: skip
    calls: list[tuple[int, float]] = []
    settings: dict[str, object] = dict(
        start=100, seed=1, confidence=0.95, top=2, name="staged", epsilon=1.0,
        budget_seconds=math.inf, max_stages=5,
    )  # fmt: skip
    settings.update(kwargs)
    result = staged_audit(PAIRS, _tester(plan, calls), **settings)  # type: ignore[arg-type]
    return result, calls


def test_a_violation_at_stage_k_is_judged_at_the_spent_level() -> None:
    # stage k has 100·2^k draws; the leak shows from 400 on with p = 1e-4 on candidate 0
    result, calls = _run(lambda n, i: (1e-4 if n >= 400 and i == 0 else 0.5, 3.0, 0.0))
    stages = result.details["stages"]
    assert result.details["ended_by"] == "violation" and len(stages) == 3
    assert [s["alpha"] for s in stages] == pytest.approx([0.025, 0.0125, 0.00625])
    # judged audits run at Holm's first-step level of the stage's alpha (top 2)
    judged = sorted({level for n, level in calls if level != 0.5})
    assert judged == pytest.approx([1 - 0.025 / 2, 1 - 0.0125 / 2, 1 - 0.00625 / 2])
    # adjusted p-value: 2^(k+1) times the stage's Holm-adjusted p (2 · 1e-4)
    assert result.p_value == pytest.approx(8 * 2e-4)
    assert result.violation and result.verdict == "VIOLATION"


def test_a_stage_rejects_only_below_its_share_of_alpha() -> None:
    # p = 0.02 (Holm: 0.04) would reject at alpha = 0.05, but no stage has that much: stage k
    # has 0.05/2^(k+1) (Holm's first step 0.0125 at stage 0)
    result, _ = _run(lambda n, i: (0.02 if i == 0 else 0.9, 3.0, 0.0), max_stages=3)
    assert not result.violation and result.details["ended_by"] == "stages"
    assert result.p_value == pytest.approx(2 * 0.04)


def test_power_stops_only_without_suggestive_evidence_and_after_min_stages() -> None:
    # power statement 1.2 <= 1.5: stops at stage 0 if screening shows nothing
    result, _ = _run(lambda n, i: (0.9, 1.2, -1.0))
    assert result.details["ended_by"] == "power" and len(result.details["stages"]) == 1
    assert result.verdict == "pass" and result.pass_factor == PASS_TARGET
    # screening bound 0.8 >= 0.5·ε is suggestive: goes on to the last stage
    result, _ = _run(lambda n, i: (0.9, 1.2, 0.8))
    assert result.details["ended_by"] == "stages" and len(result.details["stages"]) == 5
    # min_stages holds the stop for power back
    result, _ = _run(lambda n, i: (0.9, 1.2, -1.0), min_stages=3)
    assert len(result.details["stages"]) == 3


def test_a_pass_needs_the_promised_power() -> None:
    # power statement 1.8: a "pass" under the default factor 2, but not the staged promise 1.5
    result, _ = _run(lambda n, i: (0.9, 1.8, -1.0), max_stages=2)
    assert result.details["ended_by"] == "stages" and result.verdict == "inconclusive"


def test_the_budget_ends_the_stages_before_one_that_cannot_finish() -> None:
    now = [0.0]

    def clock() -> float:
        return now[0]

    def plan(n: int, i: int) -> tuple[float, float, float]:
        now[0] += n / 100.0  # every audit takes draws/100 seconds
        return 0.9, 3.0, 0.0

    result, _ = _run(plan, budget_seconds=30.0, clock=clock)
    stages = result.details["stages"]
    # stage 0 takes 3·0.25 + 2·1 = 2.75 s, stage 1 5.5 s, stage 2 11 s (19.25 s in all); stage 3
    # would take 22 s more, beyond the 30 s budget
    assert [s["runs"] for s in stages] == [100, 200, 400]
    assert result.details["ended_by"] == "budget" and result.verdict == "inconclusive"


def test_arguments_are_checked() -> None:
    for kwargs, word in (
        ({"start": 2}, "start"),
        ({"growth": 1}, "growth"),
        ({"budget_seconds": 0.0}, "budget_seconds"),
        ({"budget_seconds": math.nan}, "budget_seconds"),
        ({"target": 0.5}, "target"),
        ({"min_stages": 9}, "min_stages"),
        ({"confidence": 1.5}, "confidence"),
    ):
        with pytest.raises(ValueError, match=word):
            _run(lambda n, i: (0.9, 1.2, -1.0), **kwargs)


def test_false_alarm_rate_of_the_stages_is_below_alpha() -> None:
    """Under the claim every stage's p-values are uniform; the procedure, run to its last stage,
    rejects in at most α of 2000 simulated checks (nominal 0.05; Σ α_k = 0.05·(1 − 2^-5))."""
    rng = np.random.default_rng(2026)
    rejections = 0
    for _ in range(2000):
        result, _ = _run(lambda n, i: (float(rng.random()), 3.0, 0.0))
        rejections += result.violation
    # upper end of a 99.9% binomial band around the nominal 0.05 at 2000 trials
    assert rejections / 2000 <= 0.05 + 3.3 * math.sqrt(0.05 * 0.95 / 2000)
