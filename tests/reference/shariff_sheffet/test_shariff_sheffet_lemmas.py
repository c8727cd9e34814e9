"""Lemma 21 (generic LinUCB regret) and Lemma 22 (elliptical potential) of Shariff & Sheffet,
App. B: the three sides of Lemma 22 in order on random sequences and a worked example, the
determinant identity behind it, the printed typo's bound caught, and Lemma 21 (with its pointwise
step, Eq. (6)) along a seeded non-private run of Algorithm 1 on App. D.  Corollaries 10 and 12
(Sec. 4.1, 4.2) against Theorem 5 with Propositions 9 and 11 plugged in.  Deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.shariff_sheffet import PrivacyParameters, ProblemConstants
from reference.shariff_sheffet.bounds import (
    cor10_regret_order,
    cor12_regret_order,
    lemma21_regret_bound,
    lemma22_elliptical_potential,
    regret_bound_thm5,
)
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.regularizers import Variant, regularizer_spec
from reference.shariff_sheffet.simulation import make_policy

RTOL = 1e-12  # the sides are sums of logs of positive numbers: relative rounding only


def test_lemma22_worked_example_in_one_dimension() -> None:
    """d = 1, U_1 = 1, x = (1, 1): U = 1, 2, 3; norms 1 and 1/2; both bounds are 2 ln 3 (AM-GM
    is tight in one dimension)."""
    got = lemma22_elliptical_potential(np.array([[1.0], [1.0]]), np.array([[1.0]]))
    np.testing.assert_allclose(got.squared_norms, [1.0, 0.5], rtol=RTOL)
    assert got.potential == pytest.approx(1.5, rel=RTOL)
    assert got.log_det_bound == pytest.approx(2.0 * math.log(3.0), rel=RTOL)
    assert got.trace_bound == pytest.approx(2.0 * math.log(3.0), rel=RTOL)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    n=st.integers(1, 40),
    d=st.integers(1, 5),
    scale=st.sampled_from([0.01, 0.3, 1.0, 5.0]),
    rho=st.sampled_from([0.05, 1.0, 20.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_lemma22_sides_are_in_order(n: int, d: int, scale: float, rho: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    X = scale * rng.standard_normal((n, d))
    A = rng.standard_normal((d, d))
    U1 = A @ A.T + rho * np.eye(d)
    got = lemma22_elliptical_potential(X, U1)
    assert got.potential <= got.log_det_bound * (1.0 + RTOL)
    assert got.log_det_bound <= got.trace_bound * (1.0 + RTOL) + 1e-12
    # det U_{t+1} = det U_t (1 + ‖x_t‖²_{U_t⁻¹}): the log-det side is the sum of log1p's
    assert got.log_det_bound == pytest.approx(2.0 * np.sum(np.log1p(got.squared_norms)), rel=1e-9)


def test_lemma22_as_printed_is_violated() -> None:
    """The printed ``2 log(det U_n / det U_n)`` is 0, below any positive potential: the reading
    ``det U_{n+1} / det U_1`` is the one that holds."""
    got = lemma22_elliptical_potential(np.eye(3), np.eye(3))
    assert got.potential == pytest.approx(3.0, rel=RTOL)
    printed = 2.0 * math.log(1.0)
    assert got.potential > printed and got.log_det_bound >= got.potential


@pytest.mark.parametrize(
    ("actions", "U1", "message"),
    [
        (np.zeros((0, 2)), np.eye(2), "actions must have shape"),
        (np.ones((2, 2)), -np.eye(2), "positive definite"),
        (np.ones((2, 2)), np.array([[1.0, 2.0], [0.0, 1.0]]), "symmetric"),
        (np.ones((2, 2)), np.eye(3), "U1"),
        (np.array([[np.nan, 1.0]]), np.eye(2), "actions"),
    ],
)
def test_lemma22_rejects_bad_input(actions: np.ndarray, U1: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        lemma22_elliptical_potential(actions, U1)


def test_lemma21_holds_along_a_nonprivate_run() -> None:
    """Algorithm 1 without privacy (``V_t = ρI + Σ x xᵀ``) on App. D, d = 3, K = 9, Δ = 0.1,
    n = 400: every confidence set contains θ* on this seed, every round obeys Eq. (6)'s
    ``r_t ≤ 2β_t‖x_t‖_{V_t⁻¹}`` and ``r_t ≤ 2``, and the run's regret is below Lemma 21's bound
    (and that below Theorem 5's proof form via Lemma 22 with ``U_1 = ρI``)."""
    d, K, n, alpha = 3, 9, 400, 0.05
    constants = ProblemConstants(d=d)
    policy = make_policy("nonprivate", constants, n, alpha, np.random.default_rng(1))
    env = LinearGapEnvironment(d, K, 0.1, np.random.default_rng(2))
    V = np.eye(d)  # ρ = 1
    xs, regrets, betas = [], [], []
    for _ in range(n):
        round_t = env.next_round()
        index = policy.select(round_t.arms)
        assert policy.last is not None
        x = round_t.arms[index]
        beta = policy.last.beta
        error = policy.last.theta_tilde - env.theta
        assert math.sqrt(error @ V @ error) <= beta  # θ* ∈ ℰ_t
        r = round_t.pseudo_regret(index)
        width = math.sqrt(x @ np.linalg.solve(V, x))
        assert r <= 2.0 * beta * width + 1e-12 and r <= 2.0 + 1e-12
        policy.update(x, float(round_t.rewards[index]))
        V = V + np.outer(x, x)
        xs.append(x)
        regrets.append(r)
        betas.append(beta)
    lemma22 = lemma22_elliptical_potential(np.array(xs), np.eye(d))
    bound = lemma21_regret_bound(max(1.0, *betas), n, lemma22.potential)
    assert sum(regrets) <= bound
    assert bound <= lemma21_regret_bound(max(1.0, *betas), n, min(n, lemma22.log_det_bound))
    assert sum(regrets) > 0.0  # the run has something to bound


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.5, 10, 1.0), "beta_bar_n"),
        ((2.0, 0, 1.0), "n"),
        ((2.0, 10, -1.0), "potential"),
        ((2.0, 10, 11.0), "potential"),
        ((math.nan, 10, 1.0), "beta_bar_n"),
    ],
)
def test_lemma21_rejects_bad_input(args: tuple[float, int, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        lemma21_regret_bound(*args)


def test_lemma21_by_hand() -> None:
    assert lemma21_regret_bound(2.0, 25, 4.0) == pytest.approx(2.0 * math.sqrt(400.0), rel=RTOL)


# ------------------------------------------------------------------------------------------------
# Corollaries 10 and 12: Theorem 5 with Propositions 9 / 11 against the stated orders
# ------------------------------------------------------------------------------------------------

_FAR = (10**96, 10**150)  # beyond any run: where the orders' log factors separate


def _thm5_over_order(
    variant: Variant, n: int, d: int, eps: float, delta: float, order: Callable[..., float]
) -> float:
    constants = ProblemConstants(d=d)
    alpha = 1.0 / n
    _, bounds = regularizer_spec(variant, constants, n, alpha, PrivacyParameters(eps, delta))
    c = constants
    thm5 = regret_bound_thm5(n, d, c.L, c.S, c.B, c.sigma, alpha, bounds)
    L_tilde = math.sqrt(c.L**2 + c.B_tilde**2)
    return thm5 / order(n, d, eps, delta, alpha, sigma=c.sigma, S=c.S, L_tilde=L_tilde, B=c.B)


def _log_log_slope(
    variant: Variant, d: int, eps: float, delta: float, order: Callable[..., float]
) -> float:
    """Slope of ln(Thm 5 / order) on ln ln n between the two far horizons: 0 when the order
    captures the bound's growth, positive when the bound outgrows it."""
    lo, hi = (_thm5_over_order(variant, n, d, eps, delta, order) for n in _FAR)
    return math.log(hi / lo) / math.log(math.log(_FAR[1]) / math.log(_FAR[0]))


SETTINGS = [(2, 1.0, 0.1), (5, 1.0, 0.1), (5, 0.01, 1e-6), (20, 0.1, 0.01)]


@pytest.mark.parametrize(("d", "eps", "delta"), SETTINGS)
def test_cor12_captures_theorem5_with_prop11(d: int, eps: float, delta: float) -> None:
    """Theorem 5 over Corollary 12's order flattens out (slope ≤ 0.06 in ln ln n at n ≈ 10¹²⁰):
    the corollary is the theorem with Proposition 11 plugged in."""
    assert _log_log_slope("gaussian", d, eps, delta, cor12_regret_order) < 0.06


@pytest.mark.parametrize(("d", "eps", "delta"), SETTINGS)
def test_cor10_as_printed_misses_a_log_factor(d: int, eps: float, delta: float) -> None:
    """Theorem 5 over Corollary 10's printed order keeps growing (slope ≥ 0.28 in ln ln n; the
    missing factor is (log n)^{1/4}), while over the order derived with k growing in m it flattens
    (slope ≤ 0.15, the rest is ln ln n inside k)."""
    printed = _log_log_slope("wishart", d, eps, delta, cor10_regret_order)
    derived = _log_log_slope("wishart", d, eps, delta, partial(cor10_regret_order, form="derived"))
    assert printed >= 0.28 and derived <= 0.15


def test_corollary_orders_by_hand_and_gap_form() -> None:
    n, d, eps, delta, alpha = 10**6, 4, 0.5, 0.1, 1e-6
    log_n = math.log(n)
    bracket12 = (d * log_n + math.log(1 / alpha)) + math.sqrt(2.0) * log_n * math.sqrt(
        d * (2.0 + math.log(n / alpha)) * math.log(1 / delta) / eps
    )
    assert cor12_regret_order(n, d, eps, delta, alpha) == pytest.approx(
        math.sqrt(n) * bracket12, rel=1e-12
    )
    assert cor12_regret_order(n, d, eps, delta, alpha, gap=0.1) == pytest.approx(
        bracket12**2 / 0.1, rel=1e-12
    )
    head = log_n**0.75 * (math.sqrt(2.0) + eps**-0.5 * math.log(1 / delta) ** 0.25)
    bracket10 = (math.log(1 / alpha) + d * log_n) + math.sqrt(2.0) * 2.0 * head * (
        math.sqrt(2.0) + math.log(n / alpha) ** 0.25
    )
    assert cor10_regret_order(n, d, eps, delta, alpha) == pytest.approx(
        math.sqrt(n) * bracket10, rel=1e-12
    )
    with pytest.raises(ValueError, match="form"):
        cor10_regret_order(n, d, eps, delta, alpha, form="tight")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="gap"):
        cor12_regret_order(n, d, eps, delta, alpha, gap=0.0)
