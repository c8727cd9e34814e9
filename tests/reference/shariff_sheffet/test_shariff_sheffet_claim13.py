"""Claim 13 of Shariff & Sheffet (App. C): standard DP forces linear regret.

The two-context instance of the proof (arms ``a¹, a²``; context ``c¹`` pays ``+1`` for ``a¹`` and
``−1`` for ``a²``, ``c²`` the reverse; a wrong pull costs 2; the context is uniform each day).
Randomized response on the day's context is exactly ε-DP in the standard sense, and its per-day
regret ``2/(1 + e^ε)`` stays above the claim's floor ``e^{−ε}(1 − δ)``; policies that leak more (RR
at ``3ε``, the non-private greedy) fall below it, so no ``(ε, δ)``-DP algorithm can behave like
them.  The corrected proof expression (R-C13) and the constants of the proof note.  Deterministic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.shariff_sheffet.bounds import claim13_daily_regret_bound, claim13_regret_lower_bound


def _rr_daily_regret(epsilon: float) -> float:
    """Exact per-day regret of randomized response: the right arm w.p. e^ε/(1 + e^ε)."""
    return 2.0 / (1.0 + math.exp(epsilon))


def _rr_privacy_loss(epsilon: float) -> float:
    """Exact standard-DP ε of randomized response on one day's context (neighbours differ there)."""
    q = math.exp(epsilon) / (1.0 + math.exp(epsilon))
    return math.log(q / (1.0 - q))


def test_constants_of_the_proof_note_and_the_corrected_expression() -> None:
    assert claim13_daily_regret_bound(0.5, 0.1, 1.0) == pytest.approx(
        math.exp(-0.5) * 0.9, rel=1e-12
    )
    assert claim13_daily_regret_bound(0.5, 0.1, 1.0) == pytest.approx(0.546, abs=5e-4)
    assert claim13_daily_regret_bound(math.log(2.0), 0.25, 1.0) == pytest.approx(0.375, rel=1e-12)
    # the printed right-hand side 1 + (e^{-ε} − 1)P[a²|S] − δ is 0.9 at p = P[a¹|S] = 1 (R-C13)
    printed = 1.0 + (math.exp(-0.5) - 1.0) * 0.0 - 0.1
    assert printed == pytest.approx(0.9) and printed > claim13_daily_regret_bound(0.5, 0.1, 1.0)
    # the daily bound decreases in p, so the whole-run bound takes p = 1
    ps = np.linspace(0.0, 1.0, 11)
    values = [claim13_daily_regret_bound(0.3, 0.05, float(p)) for p in ps]
    assert np.all(np.diff(values) < 0)
    assert claim13_regret_lower_bound(1000, 0.3, 0.05) == pytest.approx(
        1000 * values[-1], rel=1e-12
    )


@pytest.mark.parametrize("epsilon", [0.05, 0.2, 0.5, math.log(2.0) - 1e-9])
@pytest.mark.parametrize("delta", [0.0 + 1e-12, 0.1, 0.25 - 1e-9])
def test_regret_above_n_over_4_in_the_claims_range(epsilon: float, delta: float) -> None:
    n = 10_000
    assert claim13_regret_lower_bound(n, epsilon, delta) > n / 4


@pytest.mark.parametrize("epsilon", [0.1, 0.3, 0.6])
def test_randomized_response_is_above_the_floor_and_leakier_policies_below(epsilon: float) -> None:
    """RR at ε is exactly ε-DP and above the floor; RR at 3ε (3ε-DP, claimed ε) and the greedy
    policy (not DP at all) are below it, i.e. they cannot be (ε, δ = 0.01)-DP."""
    floor = claim13_daily_regret_bound(epsilon, 0.01, 1.0)
    assert _rr_privacy_loss(epsilon) == pytest.approx(epsilon, rel=1e-12)
    assert _rr_daily_regret(epsilon) >= floor
    assert _rr_daily_regret(3.0 * epsilon) < floor
    assert floor > 0.0  # greedy: regret 0 < floor


def test_simulated_randomized_response_run_meets_the_bound() -> None:
    """10⁵ days of RR at ε = 0.5 on the two-context instance (uniform contexts, seeded): the
    realised regret is within 4 standard errors of n·2/(1 + e^ε) and above n·e^{−ε}(1 − δ) (δ → 0:
    RR is pure ε-DP)."""
    rng = np.random.default_rng(13)
    n, epsilon = 100_000, 0.5
    contexts = rng.integers(0, 2, size=n)  # 0: c¹ (a¹ right), 1: c² (a² right)
    right = rng.random(n) < math.exp(epsilon) / (1.0 + math.exp(epsilon))
    actions = np.where(right, contexts, 1 - contexts)
    regret = 2.0 * float(np.sum(actions != contexts))
    expected = n * _rr_daily_regret(epsilon)
    q = 1.0 / (1.0 + math.exp(epsilon))
    assert abs(regret - expected) <= 4.0 * 2.0 * math.sqrt(n * q * (1 - q))
    assert regret >= claim13_regret_lower_bound(n, epsilon, 1e-9)


@pytest.mark.parametrize(
    ("args", "message"),
    [((0.0, 0.1, 0.5), "epsilon"), ((0.5, 1.0, 0.5), "delta"), ((0.5, 0.1, 1.5), "p"),
     ((0.5, 0.1, math.nan), "p")],
)  # fmt: skip
def test_claim13_rejects_bad_input(args: tuple[float, float, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        claim13_daily_regret_bound(*args)
    with pytest.raises(ValueError, match="n"):
        claim13_regret_lower_bound(0, 0.5, 0.1)
