"""Factorization mechanisms for continual counting (:mod:`reference.factorization`).

The closed forms of a BLT's sensitivity and error are checked against the matrices they describe
(``A = BC`` built explicitly) and against the coefficient recurrences at horizons up to
``2·10⁵``; the noise stream against ``(A C⁻¹ z)_t`` for known ``z``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import linalg

from reference.factorization import (
    BLT,
    BLTNoiseStream,
    optimal_blt,
    sqrt_coefficients,
    sqrt_factorization,
)
from reference.noise import RandomSource
from reference.tree import tree_depth

EXAMPLE = BLT(theta=np.array([0.9, 0.5, 0.99]), omega=np.array([0.1, 0.2, 0.01]))


def _matrices(blt: BLT, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    C = linalg.toeplitz(blt.coefficients(n), np.zeros(n))
    A = np.tril(np.ones((n, n)))
    B = A @ linalg.toeplitz(blt.inverse_coefficients(n), np.zeros(n))
    return A, B, C


def test_sqrt_coefficients_square_to_the_prefix_sum() -> None:
    c = sqrt_coefficients(200)
    np.testing.assert_allclose(c[:3], [1.0, 0.5, 0.375], rtol=1e-14)
    np.testing.assert_allclose(np.convolve(c, c)[:200], np.ones(200), rtol=1e-12)


@pytest.mark.parametrize("n", [1, 2, 1000, (1 << 20) + 3])
def test_sqrt_factorization_cost_is_the_coefficient_norm(n: int) -> None:
    cost = sqrt_factorization(n)
    c = sqrt_coefficients(n)
    assert cost.sensitivity == cost.error
    assert cost.loss == pytest.approx(float(np.sum(c * c)), rel=1e-10)


def test_blt_inverse_is_the_inverse() -> None:
    n = 300
    A, B, C = _matrices(EXAMPLE, n)
    np.testing.assert_allclose(B @ C, A, atol=1e-10)


def test_blt_cost_is_the_matrix_norms() -> None:
    n = 257
    _, B, C = _matrices(EXAMPLE, n)
    columns = np.linalg.norm(C, axis=0)
    rows = np.linalg.norm(B, axis=1)
    assert np.argmax(columns) == 0 and np.all(np.diff(rows) >= 0)
    assert EXAMPLE.sensitivity(n) == pytest.approx(columns[0], rel=1e-12)
    assert EXAMPLE.error(n) == pytest.approx(rows[-1], rel=1e-10)


@settings(max_examples=40, deadline=None)
@given(
    gaps=st.lists(st.floats(1e-7, 0.9), min_size=1, max_size=4, unique=True),
    weights=st.lists(st.floats(1e-4, 0.5), min_size=4, max_size=4),
    n=st.integers(2, 400),
)
def test_closed_forms_match_direct_sums(gaps: list[float], weights: list[float], n: int) -> None:
    k = len(gaps)
    blt = BLT(theta=1.0 - np.array(gaps), omega=np.array(weights[:k]) * np.array(gaps) ** 0.5)
    c = blt.coefficients(n)
    partial = np.cumsum(blt.inverse_coefficients(n))
    assert blt.sensitivity(n) == pytest.approx(math.sqrt(float(c @ c)), rel=1e-9)
    assert blt.error(n) == pytest.approx(math.sqrt(float(partial @ partial)), rel=1e-7)


@pytest.mark.parametrize("n", [10**3, 2 * 10**5])
def test_optimal_blt_closed_forms_match_its_recurrences(n: int) -> None:
    """At the optimiser's strategies (decays within ``1/n`` of 1), over long horizons."""
    blt = optimal_blt(n)
    c = blt.coefficients(n)
    partial = np.cumsum(blt.inverse_coefficients(n))
    assert blt.sensitivity(n) == pytest.approx(math.sqrt(float(c @ c)), rel=1e-9)
    assert blt.error(n) == pytest.approx(math.sqrt(float(partial @ partial)), rel=1e-7)


@pytest.mark.parametrize("n", [10**3, 10**5, 5 * 10**7])
def test_optimal_blt_is_near_the_square_root_and_far_below_the_tree(n: int) -> None:
    loss = optimal_blt(n).cost(n).loss
    reference = sqrt_factorization(n).loss
    m = tree_depth(n)
    assert reference <= loss <= 1.01 * reference
    assert loss < math.sqrt(m * (m - 1)) / 3.0


def test_optimal_blt_is_deterministic_and_validated() -> None:
    a, b = optimal_blt(1000, 3), optimal_blt(1000, 3)
    assert a.theta.tolist() == b.theta.tolist() and a.omega.tolist() == b.omega.tolist()
    with pytest.raises(ValueError, match="buffers"):
        optimal_blt(1000, 0)
    with pytest.raises(ValueError, match="theta"):
        BLT(theta=np.array([1.0]), omega=np.array([0.1]))
    with pytest.raises(ValueError, match="omega"):
        BLT(theta=np.array([0.5]), omega=np.array([0.0]))
    with pytest.raises(ValueError, match="omega"):
        BLT(theta=np.array([0.5]), omega=np.array([0.1, 0.2]))


class _Scripted:
    """A noise law returning scripted draws (to compare the stream with ``A C⁻¹ z``)."""

    shape = (2,)

    def __init__(self, draws: np.ndarray) -> None:
        self.draws = iter(draws)

    def sample(self, rng: RandomSource) -> np.ndarray:
        return np.array(next(self.draws))

    def sample_sum(self, rng: RandomSource, j: int) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError


def test_noise_stream_is_the_factorized_noise() -> None:
    n = 64
    z = np.random.default_rng(3).standard_normal((n, 2))
    stream = BLTNoiseStream(EXAMPLE, _Scripted(z), np.random.default_rng(0))
    assert np.all(stream.total == 0.0)
    totals = np.array([stream.advance() for _ in range(n)])
    _, B, _ = _matrices(EXAMPLE, n)
    np.testing.assert_allclose(totals, B @ z, atol=1e-12)
    assert stream.count == n
