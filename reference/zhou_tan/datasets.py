"""The real-data settings of Sec. 5.1 (light sensors, stock prices) and seeded offline stand-ins.

The paper's two datasets (Sec. 5.1) are not shipped (no licence) and nothing is downloaded:
:func:`light_sensor_standin` and :func:`stock_price_standin` generate data of the same shape by
seeded processes; :func:`load_light_sensor_mat` and :func:`load_stock_csv` read the real files;
:func:`light_sensor_problem` and :func:`stock_problem` build the paper's setting (Sec. 5.1);
:class:`EmpiricalRowEnvironment` draws a reward as a random data row at the played arm's column
(the protocol of the code of the paper's reference [7]).

Proof note: ``proofs_notes/zhou_tan/datasets.md``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.io

from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_nonnegative,
    check_positive,
    check_size,
)
from reference.zhou_tan.environment import FiniteArmEnvironment
from reference.zhou_tan.kernels import se_kernel

__all__ = [
    "DataProblem",
    "EmpiricalRowEnvironment",
    "empirical_covariance_kernel",
    "light_sensor_problem",
    "light_sensor_standin",
    "load_light_sensor_mat",
    "load_stock_csv",
    "stock_price_standin",
    "stock_problem",
]

LIGHT_SENSORS = 41
"""Number of sensors (arms) of the light-sensor data (Sec. 5.1)."""
LIGHT_TRAIN_ROWS = 601
"""Train samples of the light-sensor data (Sec. 5.1)."""
LIGHT_TEST_ROWS = 192
"""Test samples of the light-sensor data (Sec. 5.1)."""
STOCKS = 29
"""Number of stocks (arms) of the stock data (Sec. 5.1)."""
STOCK_DAYS = 823
"""Trading days 2016-01-04 .. 2019-04-10 in the file of reference [7]'s code."""


def empirical_covariance_kernel(samples: FloatArray) -> FloatArray:
    """Kernel of the real-data experiments (Sec. 5.1): covariance of the standardised columns.

    Each column (arm) is centred and divided by its sample standard deviation (``ddof = 1``), then
    ``np.cov(rowvar=False)`` is taken, so the result is the sample correlation matrix: symmetric,
    positive semi-definite, with unit diagonal (``k(x, x) = 1``, the paper's bounded-variance
    assumption, Sec. 2).  Needs at least two rows and no constant column.
    """
    X = check_array("samples", samples, ndim=2)
    if X.shape[0] < 2:
        raise ValueError(f"samples must have at least 2 rows, got {X.shape[0]}")
    sd = X.std(axis=0, ddof=1)
    if np.any(sd <= 0.0):
        raise ValueError("samples must have no constant column (standard deviation 0)")
    Z = (X - X.mean(axis=0)) / sd
    K = np.asarray(np.cov(Z, rowvar=False), dtype=np.float64)
    K = 0.5 * (K + K.T)
    np.fill_diagonal(K, 1.0)  # exact 1 (it is 1 up to rounding by construction)
    return K


@dataclass(frozen=True)
class DataProblem:
    """A finite-arm problem built from data as in Sec. 5.1.

    Attributes:
        name: ``"light"`` or ``"stock"``.
        f: mean reward per arm (column means of ``reward_rows``), shape ``(n_arms,)``.
        K: kernel, the empirical covariance of the standardised kernel samples, ``(n_arms, n_arms)``.
        reward_rows: the rows a reward is drawn from, ``(n_rows, n_arms)``.
        B: ``max f`` (Sec. 5.1: "with B set as its maximum"; data-dependent).
        R: ``max |reward_rows − f|`` (the largest noise).
        v: mean of the squared rewards (``E|y|²``, ``α = 1``), used by the non-private ATA/TGP.
        c: mean of the squared noise (``E|η|²``), used by the non-private MoMA.
    """

    name: str
    f: FloatArray
    K: FloatArray
    reward_rows: FloatArray
    B: float
    R: float
    v: float
    c: float

    def __post_init__(self) -> None:
        f = check_nonempty("f", check_array("f", self.f, ndim=1), what="arm")
        n = f.size
        check_array("K", self.K, shape=(n, n))
        rows = check_array("reward_rows", self.reward_rows, ndim=2)
        if rows.shape[1] != n or rows.shape[0] == 0:
            raise ValueError(
                f"reward_rows must have shape (rows >= 1, {n}) (one column per arm of f), "
                f"got {rows.shape}"
            )
        check_positive("B", self.B)
        check_nonnegative("R", self.R)
        check_nonnegative("v", self.v)
        check_nonnegative("c", self.c)

    @property
    def n_arms(self) -> int:
        return int(self.f.size)


def _rows(name: str, value: FloatArray, minimum: int) -> FloatArray:
    """A data table ``(rows, arms)`` with at least ``minimum`` rows."""
    table = check_array(name, value, ndim=2)
    if table.shape[0] < minimum:
        raise ValueError(f"{name} must have at least {minimum} rows, got shape {table.shape}")
    return table


def _problem(name: str, kernel_samples: FloatArray, reward_rows: FloatArray) -> DataProblem:
    rows = check_array("reward_rows", reward_rows, ndim=2)
    K = empirical_covariance_kernel(kernel_samples)
    if K.shape[0] != rows.shape[1]:
        raise ValueError(
            f"kernel samples and reward rows must have the same columns, got {K.shape[0]} "
            f"and {rows.shape[1]}"
        )
    f = rows.mean(axis=0)
    noise = rows - f
    B = check_positive("B (max of the column means)", float(np.max(f)))
    return DataProblem(
        name=name,
        f=np.asarray(f, dtype=np.float64),
        K=K,
        reward_rows=rows.copy(),
        B=B,
        R=float(np.max(np.abs(noise))),
        v=float(np.mean(rows * rows)),
        c=float(np.mean(noise * noise)),
    )


def light_sensor_problem(train: FloatArray, test: FloatArray) -> DataProblem:
    """Light-sensor setting (Sec. 5.1): ``f`` and rewards from ``test``, kernel from ``train``.

    "f is set as empirical average of the test samples, with B set as its maximum, and k is set as
    the empirical covariance of the normalized train samples.  The noise is estimated by taking the
    difference between the test samples and its empirical mean ... R is set as the maximum ... v as
    the empirical mean of the squared readings of test samples, and c ... the empirical mean of the
    squared noise."
    """
    return _problem("light", _rows("train", train, 2), _rows("test", test, 1))


def stock_problem(prices: FloatArray) -> DataProblem:
    """Stock setting (Sec. 5.1): ``f`` = mean price, kernel from the same (standardised) prices.

    Rewards are the price of the played stock on a uniformly random day (reference [7]'s code).
    """
    p = _rows("prices", prices, 2)
    return _problem("stock", p, p)


class _DataRowsOnly:
    """Placeholder noise model: an :class:`EmpiricalRowEnvironment` draws whole data values."""

    def sample(self, n: int, rng: np.random.Generator) -> FloatArray:
        raise RuntimeError("rewards of an EmpiricalRowEnvironment come from its data rows")


class EmpiricalRowEnvironment(FiniteArmEnvironment):
    """Rewards drawn from data: ``y = reward_rows[r, arm]`` with ``r`` uniform over the rows.

    The mean reward of an arm is its column mean ``f`` (so regret, Eq. 2, uses ``f``); the noise
    ``y − f(arm)`` is bounded by the problem's ``R``.  This is the protocol of reference [7]'s code,
    which the paper follows (Sec. 5.1).
    """

    def __init__(self, problem: DataProblem, rng: np.random.Generator | SeedLike) -> None:
        rng = as_generator(rng)
        check_instance("problem", problem, DataProblem)
        super().__init__(problem.f, _DataRowsOnly(), rng)
        self.rows = check_array("reward_rows", problem.reward_rows, ndim=2).copy()
        if self.rows.shape[1] != self.n_arms:
            raise ValueError(
                f"reward_rows must have {self.n_arms} columns, got {self.rows.shape[1]}"
            )

    def pull(self, arm: int, n: int) -> FloatArray:
        """``n`` rewards of ``arm``, each from an independent uniformly random row."""
        a = check_int_at_least("arm", arm, 0)
        if a >= self.n_arms:
            raise ValueError(f"arm must be in [0, {self.n_arms - 1}], got {arm!r}")
        r = self._rng.integers(
            0, self.rows.shape[0], size=check_size("n", n, 0, item_bytes=8, what="a reward")
        )
        return np.asarray(self.rows[r, a], dtype=np.float64)


def _sym_sqrt(S: FloatArray) -> FloatArray:
    w, U = np.linalg.eigh(S)
    return np.asarray((U * np.sqrt(np.clip(w, 0.0, None))) @ U.T, dtype=np.float64)


def light_sensor_standin(
    rng: np.random.Generator | SeedLike,
    n_sensors: int = LIGHT_SENSORS,
    n_train: int = LIGHT_TRAIN_ROWS,
    n_test: int = LIGHT_TEST_ROWS,
    noise_scale: float = 60.0,
) -> tuple[FloatArray, FloatArray]:
    """Seeded stand-in for the light-sensor data: ``(train, test)`` readings.

    Process (``noise_scale`` is our choice; the paper gives no noise scale):

    1. ``n_sensors`` locations uniform in ``[0, 1]²``;
    2. latent mean ``μ = 300 + 150 g`` with ``g`` one draw of a GP with SE kernel, ``l = 0.3``;
    3. each row ``r``: ``reading = μ + Σ^{1/2} z_r`` with ``Σ = noise_scale² · k_SE(l = 0.25)`` over
       the locations and ``z_r`` i.i.d. Student-t(3) entries (heavy tails, as [7] reports for the
        real data, Sec. 5.1), clipped at 0 (light readings are non-negative);
    4. the first ``n_train`` rows are the train split, the next ``n_test`` the test split.
    """
    rng = as_generator(rng)
    m = check_size("n_sensors", n_sensors, 2, item_bytes=8, power=2, what="a covariance entry")
    n_tr = check_size("n_train", n_train, 2, item_bytes=8 * m, what="a reading of every sensor")
    n_te = check_size("n_test", n_test, 2, item_bytes=8 * m, what="a reading of every sensor")
    scale = check_positive("noise_scale", noise_scale)
    loc = rng.uniform(0.0, 1.0, size=(m, 2))
    g = _sym_sqrt(se_kernel(loc, loc, 0.3)) @ rng.standard_normal(m)
    mu = 300.0 + 150.0 * g
    root = _sym_sqrt(scale * scale * se_kernel(loc, loc, 0.25))
    z = rng.standard_t(3.0, size=(n_tr + n_te, m))
    readings = np.maximum(mu + z @ root, 0.0)  # root is symmetric: row r is (root @ z_r)ᵀ
    return readings[:n_tr].copy(), readings[n_tr:].copy()


def stock_price_standin(
    rng: np.random.Generator | SeedLike,
    n_stocks: int = STOCKS,
    n_days: int = STOCK_DAYS,
    factor_vol: float = 0.01,
    idio_vol: tuple[float, float] = (0.01, 0.015),
) -> FloatArray:
    """Seeded stand-in for the stock prices: a ``(n_days, n_stocks)`` price matrix.

    One-factor model with heavy tails: ``ln P_{t+1,i} = ln P_{t,i} + μ_i + β_i F_t + s_i e_{t,i}``
    with ``F_t``, ``e_{t,i}`` i.i.d. Student-t(3) divided by ``√3`` (unit variance) so that
    ``F_t`` has daily volatility ``factor_vol`` and ``s_i ~ U[idio_vol]``; ``β_i ~ U[0.5, 1.5]``,
    drifts ``μ_i ~ U[−2·10⁻⁴, 8·10⁻⁴]`` per day (our choice), start prices ``U[20, 300]``.
    The total daily volatility is then about 1–2 %.
    """
    rng = as_generator(rng)
    m = check_size("n_stocks", n_stocks, 2, item_bytes=8, power=2, what="a covariance entry")
    n = check_size("n_days", n_days, 2, item_bytes=8 * m, what="a day's prices")
    fv = check_positive("factor_vol", factor_vol)
    if not isinstance(idio_vol, tuple | list) or len(idio_vol) != 2:
        raise ValueError(f"idio_vol must be a pair (low, high), got {idio_vol!r:.80}")
    lo, hi = (check_positive("idio_vol", v) for v in idio_vol)
    if lo > hi:
        raise ValueError(f"idio_vol must be (low, high) with low <= high, got {idio_vol!r}")
    start = rng.uniform(20.0, 300.0, size=m)
    beta = rng.uniform(0.5, 1.5, size=m)
    drift = rng.uniform(-2e-4, 8e-4, size=m)
    s = rng.uniform(lo, hi, size=m)
    F = fv * rng.standard_t(3.0, size=n - 1) / np.sqrt(3.0)
    e = rng.standard_t(3.0, size=(n - 1, m)) / np.sqrt(3.0)
    steps = drift + np.outer(F, beta) + s * e
    log_p = np.log(start) + np.vstack([np.zeros((1, m)), np.cumsum(steps, axis=0)])
    return np.asarray(np.exp(log_p), dtype=np.float64)


def _path(path: Path) -> Path:
    """A file path (``str`` or path-like); a missing file raises ``FileNotFoundError`` naming it."""
    if isinstance(path, bytes) or not isinstance(path, str | os.PathLike):
        raise ValueError(f"path must be a file path, got {path!r:.80}")
    return Path(path)


def load_light_sensor_mat(path: Path) -> tuple[FloatArray, FloatArray]:
    """``(train, test)`` from the MATLAB file of reference [7] (``data.train.sensordata``, ``data.test.sensordata``).

    Optional: only for users who have the file; nothing is downloaded.
    """
    mat = scipy.io.loadmat(str(_path(path)), squeeze_me=True, struct_as_record=False)
    if "data" not in mat:
        raise ValueError(f"{path} has no 'data' struct")
    data = mat["data"]
    train = np.asarray(data.train.sensordata, dtype=np.float64)
    test = np.asarray(data.test.sensordata, dtype=np.float64)
    return check_array("train", train, ndim=2), check_array("test", test, ndim=2)


def load_stock_csv(path: Path) -> FloatArray:
    """Prices ``(n_days, n_stocks)`` from a CSV with a header row and a leading date column.

    The layout of reference [7]'s ``fin.csv`` (Date + 29 tickers).  Optional; nothing is downloaded.
    """
    raw = np.genfromtxt(str(_path(path)), delimiter=",", skip_header=1, dtype=np.float64)
    table = check_array("prices", np.atleast_2d(raw)[:, 1:], ndim=2)
    return table
