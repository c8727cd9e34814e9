"""Tests of the shared validation helpers and RNG conventions."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.rng import as_seed_sequence, named_generators, spawn_generators
from reference.validation import (
    check_alpha,
    check_array,
    check_delta,
    check_epsilon,
    check_in_range,
    check_int_at_least,
    check_psd,
    check_row_norms,
    check_symmetric,
)


@pytest.mark.parametrize("bad", [0.0, -1.0, math.nan, math.inf, True, "1"])
def test_epsilon_rejects_non_positive_and_non_finite(bad: object) -> None:
    with pytest.raises(ValueError, match="epsilon must be"):
        check_epsilon(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, math.nan])
def test_delta_and_alpha_must_be_in_open_unit_interval(bad: float) -> None:
    with pytest.raises(ValueError, match=r"delta must be in \(0.0, 1.0\)|delta must be finite"):
        check_delta(bad)
    with pytest.raises(ValueError, match=r"alpha must be in \(0.0, 1.0\)|alpha must be finite"):
        check_alpha(bad)


def test_valid_values_pass_through_unchanged() -> None:
    assert check_epsilon(0.5) == 0.5
    assert check_delta(1e-9) == 1e-9
    assert check_in_range("x", 1.0, 0.0, 1.0, high_open=False) == 1.0
    assert check_int_at_least("n", np.int64(3), 1) == 3
    arr = np.array([1.0, 2.0])
    out = check_array("a", arr, shape=(2,))
    np.testing.assert_array_equal(out, arr)


def test_integer_checks_reject_bools_floats_and_small_values() -> None:
    for bad in (True, 2.0, 0):
        with pytest.raises(ValueError, match="n must be an integer >= 1"):
            check_int_at_least("n", bad, 1)  # type: ignore[arg-type]


def test_array_checks_name_the_parameter_and_shape() -> None:
    with pytest.raises(ValueError, match=r"m must have shape \(any, 3\), got shape \(2, 2\)"):
        check_array("m", np.zeros((2, 2)), shape=(None, 3))
    with pytest.raises(ValueError, match="v must be a 1-dimensional array"):
        check_array("v", np.zeros((2, 2)), ndim=1)
    with pytest.raises(ValueError, match="v must contain only finite values"):
        check_array("v", [1.0, math.nan])


def test_norm_symmetry_and_psd_checks() -> None:
    check_row_norms("arms", np.array([[0.6, 0.8]]), 1.0)  # norm exactly 1 (to rounding) passes
    with pytest.raises(ValueError, match=r"arms: every row must have Euclidean norm <= 1\.0"):
        check_row_norms("arms", np.array([[0.6, 0.8001]]), 1.0)
    with pytest.raises(ValueError, match="H must be symmetric"):
        check_symmetric("H", np.array([[1.0, 2.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="H must be a square matrix"):
        check_symmetric("H", np.zeros((2, 3)))
    check_psd("H", np.array([[2.0, 1.0], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="H must be positive semi-definite"):
        check_psd("H", np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_spawned_streams_are_reproducible_and_independent() -> None:
    a = [g.random() for g in spawn_generators(7, 3)]
    b = [g.random() for g in spawn_generators(np.random.SeedSequence(7), 3)]
    assert a == b and len(set(a)) == 3
    named = named_generators(7, ["environment", "mechanism"])
    again = named_generators(7, ["environment", "mechanism"])
    assert named["mechanism"].random() == again["mechanism"].random()
    with pytest.raises(ValueError, match="names must be distinct"):
        named_generators(7, ["a", "a"])
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        as_seed_sequence(-1)


def test_child_seeds_are_stateless_spawned_children() -> None:
    from reference.rng import child_seeds

    root = np.random.SeedSequence(11)
    expected = [c.generate_state(2).tolist() for c in np.random.SeedSequence(11).spawn(5)]
    for _ in range(2):  # reusing the same SeedSequence object gives the same children again
        assert [c.generate_state(2).tolist() for c in child_seeds(root, 0, 5)] == expected
    assert [c.generate_state(2).tolist() for c in child_seeds(root, 2, 4)] == expected[2:4]
    a = named_generators(root, ["environment", "mechanism"])["environment"].random()
    b = named_generators(root, ["environment", "mechanism"])["environment"].random()
    assert a == b
    with pytest.raises(ValueError, match=r"^stop must be >= first"):
        child_seeds(root, 3, 2)
