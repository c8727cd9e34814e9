"""Input validation used by every public function.

Each check raises :class:`ValueError` whose message names the offending parameter, the allowed
range and the value received.  Nothing here modifies its input: a check either returns the value
(converted to the documented type) or raises.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from reference._typing import FloatArray

_T = TypeVar("_T")

__all__ = [
    "check_alpha",
    "check_array",
    "check_choice",
    "check_delta",
    "check_epsilon",
    "check_finite",
    "check_in_range",
    "check_int_at_least",
    "check_nonnegative",
    "check_positive",
    "check_psd",
    "check_row_norms",
    "check_symmetric",
    "float_in",
    "int_at_least",
]


def check_finite(name: str, value: float) -> float:
    """Return ``value`` as a float, or raise if it is NaN, infinite or not a real number."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    out = float(value)
    if not math.isfinite(out):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return out


def check_positive(name: str, value: float) -> float:
    """Require ``value`` in (0, inf)."""
    out = check_finite(name, value)
    if out <= 0.0:
        raise ValueError(f"{name} must be in (0, inf), got {value!r}")
    return out


def check_nonnegative(name: str, value: float) -> float:
    """Require ``value`` in [0, inf)."""
    out = check_finite(name, value)
    if out < 0.0:
        raise ValueError(f"{name} must be in [0, inf), got {value!r}")
    return out


def check_in_range(
    name: str,
    value: float,
    low: float,
    high: float,
    *,
    low_open: bool = True,
    high_open: bool = True,
) -> float:
    """Require ``value`` in the interval between ``low`` and ``high`` (open or closed ends)."""
    out = check_finite(name, value)
    below = out <= low if low_open else out < low
    above = out >= high if high_open else out > high
    if below or above:
        lb = "(" if low_open else "["
        rb = ")" if high_open else "]"
        raise ValueError(f"{name} must be in {lb}{low}, {high}{rb}, got {value!r}")
    return out


def check_epsilon(value: float, name: str = "epsilon") -> float:
    """Privacy parameter ε: must lie in (0, inf)."""
    return check_positive(name, value)


def check_delta(value: float, name: str = "delta") -> float:
    """Privacy parameter δ: must lie in (0, 1)."""
    return check_in_range(name, value, 0.0, 1.0)


def check_alpha(value: float, name: str = "alpha") -> float:
    """Confidence / failure probability α: must lie in (0, 1)."""
    return check_in_range(name, value, 0.0, 1.0)


def check_int_at_least(name: str, value: int | np.integer[Any], minimum: int) -> int:
    """Require an integer (not a bool) ``value >= minimum``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_array(
    name: str,
    value: object,
    *,
    ndim: int | None = None,
    shape: Sequence[int | None] | None = None,
) -> FloatArray:
    """Convert ``value`` to a float64 array, requiring finite entries and the given shape.

    ``shape`` may contain ``None`` for "any length" along an axis.  The input is not modified; the
    returned array may share memory with it.
    """
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be an array of real numbers, got {value!r:.80}") from err
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {arr.shape}")
    if shape is not None:
        expected = tuple(shape)
        if arr.ndim != len(expected) or any(
            e is not None and a != e for a, e in zip(arr.shape, expected, strict=True)
        ):
            pretty = "(" + ", ".join("any" if e is None else str(e) for e in expected) + ")"
            raise ValueError(f"{name} must have shape {pretty}, got shape {arr.shape}")
    if isinstance(value, bool) or (isinstance(value, np.ndarray) and value.dtype == np.bool_):
        raise ValueError(f"{name} must be an array of real numbers, got booleans")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
    return arr


def check_row_norms(name: str, rows: FloatArray, bound: float, *, rtol: float = 1e-9) -> None:
    """Require every row of ``rows`` (shape ``(K, d)``) to have Euclidean norm <= ``bound``.

    A relative tolerance ``rtol`` absorbs floating-point rounding of vectors normalised to the
    bound; it is never used to accept a genuinely larger vector.
    """
    norms = np.linalg.norm(rows, axis=-1)
    worst = float(np.max(norms)) if norms.size else 0.0
    if worst > bound * (1.0 + rtol):
        raise ValueError(
            f"{name}: every row must have Euclidean norm <= {bound} (Assumption 1), "
            f"got a row of norm {worst}"
        )


def check_symmetric(name: str, matrix: FloatArray, *, atol: float = 1e-10) -> None:
    """Require a square, symmetric matrix (up to ``atol`` relative to its largest entry)."""
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {matrix.shape}")
    scale = max(1.0, float(np.max(np.abs(matrix))) if matrix.size else 0.0)
    if not np.allclose(matrix, matrix.T, atol=atol * scale, rtol=0.0):
        raise ValueError(f"{name} must be symmetric")


def check_psd(name: str, matrix: FloatArray, *, atol: float = 1e-10) -> None:
    """Require a symmetric positive semi-definite matrix (smallest eigenvalue >= -atol·scale)."""
    check_symmetric(name, matrix, atol=atol)
    scale = max(1.0, float(np.max(np.abs(matrix))) if matrix.size else 0.0)
    lam_min = float(np.linalg.eigvalsh(matrix)[0]) if matrix.size else 0.0
    if lam_min < -atol * scale:
        raise ValueError(
            f"{name} must be positive semi-definite, got smallest eigenvalue {lam_min}"
        )


# ------------------------------------------------------------------------------------------------
# Command-line argument types: argparse names the flag in the message ("argument --runs: ...") and
# exits with code 2 before any computation starts.
# ------------------------------------------------------------------------------------------------


def int_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type=`` for an integer ``>= minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"must be an integer >= {minimum}, got {text!r}"
            ) from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be an integer >= {minimum}, got {value}")
        return value

    parse.__name__ = f"integer >= {minimum}"
    return parse


def float_in(
    low: float, high: float, *, low_open: bool = True, high_open: bool = True
) -> Callable[[str], float]:
    """An argparse ``type=`` for a finite float in the interval between ``low`` and ``high``."""

    def parse(text: str) -> float:
        try:
            return check_in_range(
                "value", float(text), low, high, low_open=low_open, high_open=high_open
            )
        except ValueError as err:
            lb = "(" if low_open else "["
            rb = ")" if high_open else "]"
            raise argparse.ArgumentTypeError(
                f"must be a number in {lb}{low}, {high}{rb}, got {text!r}"
            ) from err

    parse.__name__ = "number"
    return parse


def check_choice(name: str, value: _T, choices: Sequence[object]) -> _T:
    """Require ``value`` to be one of ``choices`` (compared as plain Python values, so an array or
    another unhashable object gets this message, not numpy's "truth value is ambiguous")."""
    try:
        ok = not isinstance(value, np.ndarray | list | dict | set | bool) and any(
            isinstance(value, str) == isinstance(c, str) and bool(value == c) for c in choices
        )
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value
