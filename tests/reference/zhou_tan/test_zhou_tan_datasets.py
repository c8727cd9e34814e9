"""Tests of the real-data pipeline and stand-ins of Zhou & Tan Sec. 5.1.

Checked against independent derivations: ``np.corrcoef`` for the kernel, hand computations of
``f``, ``B``, ``R``, ``v``, ``c`` on a small table, the documented generative processes (shapes,
non-negativity, daily volatility), ``scipy.io.savemat`` / CSV round trips for the loaders, and an
exact binomial test for the uniform row draws of the environment.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import scipy.io
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.zhou_tan.algorithms import make_ldp_moma_gp_ucb
from reference.zhou_tan.datasets import (
    DataProblem,
    EmpiricalRowEnvironment,
    empirical_covariance_kernel,
    light_sensor_problem,
    light_sensor_standin,
    load_light_sensor_mat,
    load_stock_csv,
    stock_price_standin,
    stock_problem,
)
from reference.zhou_tan.environment import Curator, run_trial
from reference.zhou_tan.mechanism import ConvertToLaplace, LDPParams


@pytest.fixture(scope="module")
def light() -> DataProblem:
    train, test = light_sensor_standin(np.random.default_rng(11))
    return light_sensor_problem(train, test)


@pytest.fixture(scope="module")
def stock() -> DataProblem:
    return stock_problem(stock_price_standin(np.random.default_rng(12)))


def test_standins_have_the_papers_shapes() -> None:
    train, test = light_sensor_standin(np.random.default_rng(0))
    assert train.shape == (601, 41) and test.shape == (192, 41)  # Sec. 5.1
    assert np.all(train >= 0.0) and np.all(test >= 0.0)  # clipped at 0
    prices = stock_price_standin(np.random.default_rng(0))
    assert prices.shape == (823, 29)  # Sec. 5.1; 823 trading days
    assert np.all(prices > 0.0)


def test_standins_are_seeded() -> None:
    a = light_sensor_standin(np.random.default_rng(5))
    b = light_sensor_standin(np.random.default_rng(5))
    c = light_sensor_standin(np.random.default_rng(6))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not np.array_equal(a[0], c[0])
    assert np.array_equal(
        stock_price_standin(np.random.default_rng(5)), stock_price_standin(np.random.default_rng(5))
    )


def test_stock_standin_daily_volatility_is_one_to_two_percent() -> None:
    # stand-in design: total daily volatility ≈ 1–2 %.  Per stock, Var(log return) = β²σ_F² + s² with
    # σ_F = 0.01, β ∈ [0.5, 1.5], s ∈ [0.01, 0.015]: the sd lies in [0.011, 0.0212]; with 822
    # returns of a unit-variance t(3) law the sample sd is within ±35 % of it.
    prices = stock_price_standin(np.random.default_rng(3))
    sd = np.diff(np.log(prices), axis=0).std(axis=0, ddof=1)
    assert np.all(sd > 0.011 * 0.65) and np.all(sd < 0.0212 * 1.35)
    assert 0.01 < float(np.median(sd)) < 0.02


def test_light_standin_latent_mean_level() -> None:
    # μ = 300 + 150 g with g ~ N(0, 1) marginally; noise is zero-mean (t(3)) before clipping, so the
    # column means are near 300 on average over sensors (41 correlated draws: loose bound).
    train, test = light_sensor_standin(np.random.default_rng(4))
    grand = float(np.vstack([train, test]).mean())
    assert 100.0 < grand < 500.0


def test_kernel_is_the_correlation_matrix() -> None:
    X = np.random.default_rng(1).standard_normal((50, 6)) * np.arange(1, 7) + 3.0
    K = empirical_covariance_kernel(X)
    np.testing.assert_allclose(K, np.corrcoef(X, rowvar=False), atol=1e-12)
    assert np.array_equal(np.diag(K), np.ones(6))


@pytest.mark.parametrize("which", ["light", "stock"])
def test_problem_kernel_is_psd_with_unit_diagonal(
    which: str, light: DataProblem, stock: DataProblem
) -> None:
    p = light if which == "light" else stock
    assert np.array_equal(np.diag(p.K), np.ones(p.n_arms))
    assert np.allclose(p.K, p.K.T)
    assert float(np.linalg.eigvalsh(p.K)[0]) > -1e-10


@pytest.mark.parametrize("which", ["light", "stock"])
def test_rewards_lie_in_the_ldp_input_range(
    which: str, light: DataProblem, stock: DataProblem
) -> None:
    p = light if which == "light" else stock
    assert np.all(np.abs(p.reward_rows) <= p.B + p.R + 1e-9)  # CTL's clip is then a no-op
    env = EmpiricalRowEnvironment(p, np.random.default_rng(0))
    y = np.concatenate([env.pull(a, 50) for a in range(p.n_arms)])
    assert np.all(np.abs(y) <= p.B + p.R + 1e-9)


def test_pipeline_constants_by_hand() -> None:
    train = np.array([[1.0, 2.0], [3.0, 1.0], [2.0, 4.0]])
    test = np.array([[2.0, 6.0], [4.0, 2.0]])
    p = light_sensor_problem(train, test)
    np.testing.assert_allclose(p.f, [3.0, 4.0])  # column means of the test rows
    assert p.B == 4.0  # max f
    assert p.R == 2.0  # noise rows [[-1, 2], [1, -2]]
    assert p.v == pytest.approx((4 + 36 + 16 + 4) / 4)  # mean squared reading
    assert p.c == pytest.approx((1 + 4 + 1 + 4) / 4)  # mean squared noise
    r = np.corrcoef(train[:, 0], train[:, 1])[0, 1]  # kernel from the *train* rows
    np.testing.assert_allclose(p.K, [[1.0, r], [r, 1.0]], atol=1e-12)
    s = stock_problem(test * 10.0)
    np.testing.assert_allclose(s.f, [30.0, 40.0])
    np.testing.assert_allclose(s.K, np.corrcoef(test, rowvar=False), atol=1e-12)


def test_environment_draws_rows_uniformly() -> None:
    # column 0 holds the row index; P(row 0) = 1/4 per draw.  Two-sided exact binomial test at
    # 1e-6 (false-alarm rate 1e-6).
    rows = np.column_stack([np.arange(4.0), np.arange(4.0) + 10.0])
    p = DataProblem("t", rows.mean(axis=0), np.eye(2), rows, 11.5, 1.5, 1.0, 1.0)
    env = EmpiricalRowEnvironment(p, np.random.default_rng(2))
    y = env.pull(0, 4000)
    assert set(np.unique(y)) <= {0.0, 1.0, 2.0, 3.0}
    assert stats.binomtest(int(np.sum(y == 0.0)), 4000, 0.25).pvalue > 1e-6
    assert np.all(np.isin(env.pull(1, 100), rows[:, 1]))


def test_ldp_run_on_data_uses_one_ctl_call_per_round(stock: DataProblem) -> None:
    params = LDPParams(1.0, stock.B, stock.R)
    policy = make_ldp_moma_gp_ucb(
        stock.K, params, 1.0, 0.05, 0.1, 80, np.random.default_rng(0), "practical"
    )
    mech = ConvertToLaplace(params, np.random.default_rng(1))
    env = EmpiricalRowEnvironment(stock, np.random.default_rng(2))
    res = run_trial(env, policy, Curator(mech), 80)
    assert mech.n_calls == 80 and res.arms.size == 80
    gap = float(np.max(stock.f)) - stock.f
    np.testing.assert_allclose(res.cum_regret[-1], gap[res.arms].sum())


def test_loaders_round_trip(tmp_path: Path) -> None:
    rng = np.random.default_rng(9)
    train, test = rng.uniform(0, 500, (7, 3)), rng.uniform(0, 500, (4, 3))
    mat = tmp_path / "iw.mat"
    scipy.io.savemat(mat, {"data": {"train": {"sensordata": train}, "test": {"sensordata": test}}})
    tr, te = load_light_sensor_mat(mat)
    np.testing.assert_array_equal(tr, train)
    np.testing.assert_array_equal(te, test)
    prices = rng.uniform(20, 300, (5, 3))
    csv = tmp_path / "fin.csv"
    body = "\n".join(
        f"2016-01-0{i + 4}," + ",".join(repr(float(v)) for v in row) for i, row in enumerate(prices)
    )
    csv.write_text("Date,AAA,BBB,CCC\n" + body + "\n")
    np.testing.assert_allclose(load_stock_csv(csv), prices, rtol=1e-15)


def test_bad_inputs_raise() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="n_sensors"):
        light_sensor_standin(rng, n_sensors=1)
    with pytest.raises(ValueError, match="noise_scale"):
        light_sensor_standin(rng, noise_scale=0.0)
    with pytest.raises(ValueError, match="idio_vol"):
        stock_price_standin(rng, idio_vol=(0.02, 0.01))
    with pytest.raises(ValueError, match="constant column"):
        empirical_covariance_kernel(np.ones((5, 2)))
    with pytest.raises(ValueError, match="same columns"):
        light_sensor_problem(np.eye(3), np.ones((2, 2)))
    with pytest.raises(ValueError, match="B"):
        stock_problem(-np.abs(rng.standard_normal((4, 2))) - 1.0)
    p = stock_problem(rng.uniform(1, 2, (4, 2)))
    with pytest.raises(ValueError, match="arm"):
        EmpiricalRowEnvironment(p, rng).pull(2, 1)


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(3, 30), cols=st.integers(2, 6), seed=st.integers(0, 2**31 - 1))
def test_kernel_properties_for_any_table(rows: int, cols: int, seed: int) -> None:
    X = np.random.default_rng(seed).standard_normal((rows, cols))
    K = empirical_covariance_kernel(X)
    assert np.array_equal(np.diag(K), np.ones(cols))
    assert np.all(np.abs(K) <= 1.0 + 1e-12)
    assert float(np.linalg.eigvalsh(K)[0]) > -1e-10
