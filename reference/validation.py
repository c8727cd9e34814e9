"""Input validation used by every public function.

Each check raises :class:`ValueError` whose message names the offending parameter, the allowed
range and the value received.  Nothing here modifies its input: a check either returns the value
(converted to the documented type) or raises.

Proof note: ``proofs_notes/audit/files_and_seeds.md``.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from reference._typing import FloatArray

_T = TypeVar("_T")

__all__ = [
    "check_alpha",
    "check_array",
    "check_bool",
    "check_callable",
    "check_choice",
    "check_delta",
    "check_epsilon",
    "check_finite",
    "check_in_range",
    "check_index_array",
    "check_instance",
    "check_int_array",
    "check_int_at_least",
    "check_nonempty",
    "check_nonnegative",
    "check_positive",
    "check_psd",
    "check_row_norms",
    "check_shape",
    "check_size",
    "check_symmetric",
    "float_in",
    "int_at_least",
    "memory_bytes",
    "size_at_least",
]

DEFAULT_MEMORY_BYTES = 2**40
"""The memory cap of :func:`check_size` where the machine's physical memory cannot be read
(1 TiB)."""


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


def memory_bytes() -> int:
    """This machine's physical memory in bytes (``os.sysconf``), or :data:`DEFAULT_MEMORY_BYTES`
    where the platform does not report it: the cap of :func:`check_size`."""
    try:
        pages, page_size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return DEFAULT_MEMORY_BYTES
    return pages * page_size if pages > 0 and page_size > 0 else DEFAULT_MEMORY_BYTES


MAX_COUNT = 2**53
"""The largest size :func:`check_size` accepts: every count up to ``2**53`` is exact in float64
(``t + 1 != t``), which the algorithms' arithmetic on rounds, samples and horizons needs."""


def check_size(
    name: str,
    value: int | np.integer[Any],
    minimum: int,
    *,
    item_bytes: int = 0,
    what: str = "",
    power: int = 1,
) -> int:
    """An integer size ``minimum <= value <= 2**53`` (:data:`MAX_COUNT`) whose storage fits in
    this machine: when ``item_bytes > 0``, ``value**power`` items of ``item_bytes`` bytes each
    (``what`` says what an item is, e.g. ``"a round's regret, action and beta"``) must not exceed
    the physical memory (:func:`memory_bytes`).

    The memory bound is a necessary condition, not a sufficient one: a size below it can still
    need more memory than is free.  It turns an absurd size (``n = 10**18``) into a
    ``ValueError`` naming the argument and the limit before anything is allocated or looped over,
    instead of a ``MemoryError``, a loop that never ends, or counts that float64 cannot tell
    apart.  The caps say what can be represented and held, not how long a run may take: a loop
    over ``2**50`` rounds passes them and is the caller's choice.
    """
    value = check_int_at_least(name, value, minimum)
    if value > MAX_COUNT:
        raise ValueError(
            f"{name} must be at most 2**53 = {MAX_COUNT} (larger counts are not exact in "
            f"float64), got {value}"
        )
    if power not in (1, 2):
        raise ValueError(f"power must be 1 or 2, got {power!r}")
    if item_bytes > 0:
        memory = memory_bytes()
        limit = math.isqrt(memory // item_bytes) if power == 2 else memory // item_bytes
        if value > limit:
            items = name if power == 1 else f"{name}**2"
            raise ValueError(
                f"{name} must be at most {limit}: {items} items of {item_bytes} bytes ({what}) "
                f"would exceed this machine's {memory / 2**30:.3g} GiB of memory, got {value}"
            )
    return value


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
    if value is None:  # np.asarray(None, float) is NaN: say what is wrong
        raise ValueError(f"{name} must be an array of real numbers, got None")
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


def check_nonempty(name: str, value: FloatArray, *, what: str = "entry") -> FloatArray:
    """Require at least one ``what`` along the first axis of the array ``value`` (an empty input
    has no statistic, no arm, no round...)."""
    value = np.asarray(value)
    if value.ndim == 0 or value.shape[0] == 0:
        raise ValueError(f"{name} must have at least one {what}, got shape {value.shape}")
    return value


def check_int_array(
    name: str,
    value: object,
    minimum: int | None,
    *,
    below: int | None = None,
    ndim: int | None = None,
    shape: Sequence[int | None] | None = None,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Convert ``value`` to an int64 array of integers ``>= minimum`` (if given) and ``< below``
    (if given).

    Floats are accepted only when they are whole numbers (``2.0``); fractional, NaN, infinite and
    boolean entries are refused, never rounded.
    """
    arr = check_array(name, value, ndim=ndim, shape=shape)
    if not np.all(arr == np.floor(arr)):
        raise ValueError(f"{name} must hold integers, got a fractional entry")
    if arr.size and float(np.max(np.abs(arr))) >= 2.0**62:
        raise ValueError(f"{name} must hold integers below 2**62 in magnitude")
    if minimum is not None and arr.size and arr.min() < minimum:
        raise ValueError(f"{name} must hold integers >= {minimum}, got {arr.min():g}")
    if below is not None and arr.size and arr.max() >= below:
        raise ValueError(f"{name} must hold integers < {below}, got {arr.max():g}")
    return arr.astype(np.int64)


def check_index_array(
    name: str,
    value: object,
    size: int,
    *,
    ndim: int | None = None,
    shape: Sequence[int | None] | None = None,
) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Indices in ``[0, size)`` (arms, rows...) as an int64 array (:func:`check_int_array`):
    negative indices, which numpy would silently count from the end, are refused."""
    return check_int_array(name, value, 0, below=size, ndim=ndim, shape=shape)


def check_bool(name: str, value: object) -> bool:
    """Require a boolean flag (``True``/``False`` or a numpy bool); ``None``, strings and numbers
    are refused rather than read by their truth value."""
    if not isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be True or False, got {value!r:.80}")
    return bool(value)


def check_callable(name: str, value: _T) -> _T:
    """Require a callable (a function, a method, a class...)."""
    if not callable(value):
        raise ValueError(f"{name} must be callable, got {value!r:.80}")
    return value


def check_instance(name: str, value: object, kind: type[_T] | tuple[type[Any], ...]) -> _T:
    """Require ``isinstance(value, kind)`` (a runtime-checkable protocol checks that the methods
    exist); the message names the argument and the expected type."""
    if not isinstance(value, kind):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        expected = " or ".join(k.__name__ for k in kinds)
        raise ValueError(f"{name} must be a {expected}, got {value!r:.80}")
    return value


def check_shape(name: str, shape: object) -> tuple[int, ...]:
    """Require an array shape: a tuple (or list) of integers ``>= 1`` whose float64 array fits in
    memory (:func:`memory_bytes`)."""
    if not isinstance(shape, tuple | list):
        raise ValueError(f"{name} must be a tuple of integers >= 1, got {shape!r:.80}")
    out = tuple(check_int_at_least(f"{name}[{axis}]", size, 1) for axis, size in enumerate(shape))
    entries = math.prod(out)
    if entries * 8 > memory_bytes():
        raise ValueError(
            f"{name} must describe an array that fits in memory: {entries} float64 entries "
            f"exceed this machine's {memory_bytes() / 2**30:.3g} GiB"
        )
    return out


def check_row_norms(name: str, rows: FloatArray, bound: float, *, rtol: float = 1e-9) -> None:
    """Require every row of ``rows`` (shape ``(K, d)``) to have Euclidean norm <= ``bound``.

    A relative tolerance ``rtol`` absorbs floating-point rounding of vectors normalised to the
    bound; it is never used to accept a genuinely larger vector.
    """
    rows = check_array(name, rows)
    if rows.ndim == 0:
        raise ValueError(f"{name} must have rows (at least 1 dimension), got a scalar")
    norms = np.linalg.norm(rows, axis=-1)
    worst = float(np.max(norms)) if norms.size else 0.0
    if worst > bound * (1.0 + rtol):
        raise ValueError(
            f"{name}: every row must have Euclidean norm <= {bound} (Assumption 1), "
            f"got a row of norm {worst}"
        )


def check_symmetric(name: str, matrix: FloatArray, *, atol: float = 1e-10) -> None:
    """Require a square, symmetric matrix (up to ``atol`` relative to its largest entry)."""
    matrix = check_array(name, matrix)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {matrix.shape}")
    scale = max(1.0, float(np.max(np.abs(matrix))) if matrix.size else 0.0)
    if not np.allclose(matrix, matrix.T, atol=atol * scale, rtol=0.0):
        raise ValueError(f"{name} must be symmetric")


def check_psd(name: str, matrix: FloatArray, *, atol: float = 1e-10) -> None:
    """Require a symmetric positive semi-definite matrix (smallest eigenvalue >= -atol·scale)."""
    matrix = check_array(name, matrix)
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


def size_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type=`` for a size: an integer in ``[minimum, 2**53]`` (:func:`check_size`;
    an absurd ``--n 10**18`` is refused when the options are parsed, before anything runs)."""

    at_least = int_at_least(minimum)

    def parse(text: str) -> int:
        value = at_least(text)
        if value > MAX_COUNT:
            raise argparse.ArgumentTypeError(
                f"must be an integer in [{minimum}, 2**53 = {MAX_COUNT}], got {value}"
            )
        return value

    parse.__name__ = f"integer in [{minimum}, 2**53]"
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
