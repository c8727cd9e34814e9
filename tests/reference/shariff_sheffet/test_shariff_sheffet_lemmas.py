"""Lemma 21 (generic LinUCB regret) and Lemma 22 (elliptical potential) of Shariff & Sheffet,
App. B: the three sides of Lemma 22 in order on random sequences and a worked example, the
determinant identity behind it, the printed typo's bound caught, and Lemma 21 (with its pointwise
step, Eq. (6)) along a seeded non-private run of Algorithm 1 on App. D.  Deterministic.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.shariff_sheffet import ProblemConstants
from reference.shariff_sheffet.bounds import lemma21_regret_bound, lemma22_elliptical_potential
from reference.shariff_sheffet.environments import LinearGapEnvironment
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
