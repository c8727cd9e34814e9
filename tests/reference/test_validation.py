"""Tests of the shared validation helpers and RNG conventions."""

from __future__ import annotations

import argparse
import math

import numpy as np
import pytest

from reference import validation
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
    check_size,
    check_symmetric,
    size_at_least,
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


def test_flags_callables_instances_and_shapes_are_checked_not_coerced() -> None:
    from reference.validation import check_bool, check_callable, check_instance, check_shape

    assert check_bool("pad", np.bool_(True)) is True
    for bad in (None, "no", 1, 0.0):  # truthy or falsy, never read as a flag
        with pytest.raises(ValueError, match=r"^pad must be True or False"):
            check_bool("pad", bad)
    assert check_callable("f", len) is len
    with pytest.raises(ValueError, match=r"^f must be callable"):
        check_callable("f", "len")
    assert check_instance("x", 1.0, float) == 1.0
    with pytest.raises(ValueError, match=r"^x must be a int or float, got 'a'"):
        check_instance("x", "a", (int, float))
    assert check_shape("shape", [2, 3]) == (2, 3)
    for bad_shape in (None, np.zeros(2), (2, 0), (2.5,)):
        with pytest.raises(ValueError, match=r"^shape"):
            check_shape("shape", bad_shape)


def test_integer_and_index_arrays_are_never_rounded_or_wrapped() -> None:
    from reference.validation import check_index_array, check_int_array, check_nonempty

    out = check_int_array("marks", [1.0, 4], 1, ndim=1)
    assert out.dtype == np.int64 and out.tolist() == [1, 4]
    with pytest.raises(ValueError, match=r"^marks must hold integers, got a fractional"):
        check_int_array("marks", [1.5], 1)
    with pytest.raises(ValueError, match=r"^marks must hold integers >= 1"):
        check_int_array("marks", [0], 1)
    with pytest.raises(ValueError, match=r"^marks must hold integers below"):
        check_int_array("marks", [1e30], 1)
    assert check_index_array("arms", [0, 2], 3).tolist() == [0, 2]
    with pytest.raises(ValueError, match=r"^arms must hold integers >= 0"):  # numpy: the last arm
        check_index_array("arms", [-1], 3)
    with pytest.raises(ValueError, match=r"^arms must hold integers < 3"):
        check_index_array("arms", [3], 3)
    with pytest.raises(ValueError, match=r"^arms must contain only finite values"):
        check_index_array("arms", [math.nan], 3)
    with pytest.raises(ValueError, match=r"^means must have at least one arm"):
        check_nonempty("means", np.zeros(0), what="arm")


def test_matrix_and_row_checks_refuse_non_finite_input() -> None:
    from reference.validation import check_psd, check_row_norms, check_symmetric

    with pytest.raises(ValueError, match=r"^rows must contain only finite values"):
        check_row_norms("rows", np.array([[math.nan, 0.0]]), 1.0)  # NaN norms compared False
    with pytest.raises(ValueError, match=r"^H must be an array of real numbers"):
        check_symmetric("H", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^H must contain only finite values"):
        check_psd("H", np.array([[math.inf, 0.0], [0.0, 1.0]]))


def test_check_size_refuses_sizes_beyond_float64_counts_or_memory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert check_size("n", 10, 1) == 10
    assert check_size("n", 2**53, 1) == 2**53
    with pytest.raises(ValueError, match=r"^n must be at most 2\*\*53"):
        check_size("n", 2**53 + 1, 1)
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1"):
        check_size("n", 0, 1)
    monkeypatch.setattr(validation, "memory_bytes", lambda: 8 * 1000)
    assert check_size("n", 1000, 1, item_bytes=8, what="a float") == 1000
    with pytest.raises(
        ValueError, match=r"^n must be at most 1000: n items of 8 bytes \(a float\)"
    ):
        check_size("n", 1001, 1, item_bytes=8, what="a float")
    assert check_size("d", 31, 1, item_bytes=8, what="an entry", power=2) == 31
    with pytest.raises(ValueError, match=r"^d must be at most 31: d\*\*2 items"):
        check_size("d", 32, 1, item_bytes=8, what="an entry", power=2)


def test_memory_bytes_is_the_physical_memory_or_the_documented_default() -> None:
    assert validation.memory_bytes() >= 2**20


def test_size_flags_refuse_absurd_sizes_when_parsed() -> None:
    parse = size_at_least(2)
    assert parse("2") == 2
    assert parse(str(2**53)) == 2**53
    for bad in ("1", "2.5", "nan"):
        with pytest.raises(argparse.ArgumentTypeError, match=r"must be an integer >= 2"):
            parse(bad)
    with pytest.raises(argparse.ArgumentTypeError, match=r"must be an integer in \[2, 2\*\*53"):
        parse(str(10**18))
