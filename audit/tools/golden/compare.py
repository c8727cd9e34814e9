"""Golden vectors: the tolerance rule, :func:`compare_values` and :class:`Mismatch`.

The rule is stated in :mod:`audit.tools.golden` and, with its five classes of output, in the proof
note (golden vectors).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from audit.tools.golden.codec import JSON, Params

__all__ = [
    "DEFAULT_ATOL",
    "DEFAULT_RTOL",
    "DIFFERENCE_REASON",
    "DIFFERENCE_RTOL",
    "FLOAT_INTEGER_REASON",
    "ROUNDOFF_ATOL",
    "ROUNDOFF_REASON",
    "SIGMA_LIMIT",
    "SOLVER_REASON",
    "SOLVER_RTOL",
    "SUMMARY_ATOL",
    "SUMMARY_REASON",
    "Mismatch",
    "Tolerance",
    "case_tolerance",
    "compare_values",
    "output_paths",
]


DEFAULT_RTOL = 1e-12
"""Relative tolerance of ordinary values (module docstring, "the tolerance rule")."""
DEFAULT_ATOL = 0.0
ROUNDOFF_ATOL = 1e-12
"""Absolute tolerance of outputs that are zero in exact arithmetic (residuals of an identity)."""
ROUNDOFF_REASON = (
    "zero in exact arithmetic, computed through cancellation: round-off residual of size ~1e-16 "
    "with no stable relative size, compared absolutely"
)
DIFFERENCE_RTOL = 1e-10
"""Per-case absolute tolerance of a difference of two close terms, relative to the larger term."""
DIFFERENCE_REASON = (
    "a difference of two close terms, Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), clamped at 0: "
    "its round-off is relative to the first term, so each case states atol = 1e-10 x that term"
)
SOLVER_RTOL = 1e-9
"""Relative tolerance of the root of an equation solved numerically (and of what uses it)."""
SOLVER_REASON = (
    "the root of an equation solved numerically (bisection, Brent's method or adaptive quadrature), "
    "or computed from one: known to the solver's tolerance (<= 5e-11 relative) and moved by the "
    "conditioning of the equation times the round-off of the function solved"
)
FLOAT_INTEGER_REASON = (
    "an integer ceil(R_e) of a float R_e beyond 2**53: it carries the float's round-off, so it is "
    "compared by the float rule"
)
SUMMARY_ATOL = 1e-12
"""Absolute tolerance of the same-seed check of a randomised summary."""
SUMMARY_REASON = (
    "sums of random draws of size ~1: a mean or median of zero-mean noise nearly cancels, so its "
    "round-off is absolute"
)
SIGMA_LIMIT = 5.0


def _check_tolerance_numbers(where: str, rtol: float, atol: float) -> None:
    for name, value in (("rtol", rtol), ("atol", atol)):
        if (
            isinstance(value, bool)
            or not isinstance(value, float | int)
            or not math.isfinite(value)
            or value < 0
        ):
            raise ValueError(f"{where}: {name} must be a finite number >= 0, got {value!r}")


@dataclass(frozen=True)
class Tolerance:
    """The tolerance of one output path of a function (module docstring, "the tolerance rule").

    Attributes:
        rtol, atol: the output matches when ``|actual − expected| ≤ atol + rtol·|expected|``.
        reason: why the path departs from the default tolerance (required).
        integers: compare integers at this path by the same rule (integers made from a float
            beyond ``2⁵³``); by default integers must be equal.
    """

    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    reason: str = ""
    integers: bool = False

    def __post_init__(self) -> None:
        _check_tolerance_numbers("tolerance", self.rtol, self.atol)
        if not self.reason:
            raise ValueError("an output's own tolerance needs a stated reason")

    def as_json(self) -> dict[str, JSON]:
        """The rule as written in a golden file."""
        out: dict[str, JSON] = {"rtol": self.rtol, "atol": self.atol, "reason": self.reason}
        if self.integers:
            out["integers"] = True
        return out


@dataclass(frozen=True)
class Mismatch:
    """One disagreement between a golden file and the code."""

    paper: str
    entry: str
    case: int | None
    detail: str
    parameters: Params = field(default_factory=dict)

    def __str__(self) -> str:
        where = f"{self.paper}: {self.entry}" + ("" if self.case is None else f" case {self.case}")
        params = f" {json.dumps(self.parameters)}" if self.parameters else ""
        return f"{where}{params}: {self.detail}"


def _float_of(data: JSON) -> float | None:
    if isinstance(data, float):
        return data
    if isinstance(data, dict) and set(data) == {"float"}:
        return float(data["float"])
    return None


def _numbers_match(expected: float | int, actual: float | int, rtol: float, atol: float) -> bool:
    """The tolerance rule: ``|actual − expected| ≤ atol + rtol·|expected|``; NaN only matches NaN
    and ±inf only itself.  Integers are subtracted exactly (no rounding beyond ``2⁵³``)."""
    if isinstance(expected, int) and isinstance(actual, int):
        return abs(actual - expected) <= atol + rtol * abs(expected)
    e, a = float(expected), float(actual)
    if math.isnan(e) or math.isnan(a):
        return math.isnan(e) and math.isnan(a)
    if math.isinf(e) or math.isinf(a):
        return e == a
    return abs(a - e) <= atol + rtol * abs(e)


def case_tolerance(
    tolerance: Mapping[str, JSON], case: Mapping[str, JSON]
) -> tuple[float, float, dict[str, JSON]]:
    """``(rtol, atol, outputs)`` of one stored case of a function whose golden ``tolerance`` is
    given: the function's ``rtol``, the case's own ``"atol"`` if it states one (else the
    function's) and the function's per-path rules, as :func:`compare_values` takes them (module
    docstring, "the tolerance rule")."""
    return (
        float(tolerance["rtol"]),
        float(case.get("atol", tolerance["atol"])),
        dict(tolerance.get("outputs", {})),
    )


def _rule_of(data: JSON) -> tuple[float, float, bool]:
    rule = data if isinstance(data, dict) else {}
    return (
        float(rule.get("rtol", DEFAULT_RTOL)),
        float(rule.get("atol", DEFAULT_ATOL)),
        rule.get("integers") is True,
    )


def compare_values(
    expected: JSON,
    actual: JSON,
    *,
    rtol: float = DEFAULT_RTOL,
    atol: float = DEFAULT_ATOL,
    outputs: Mapping[str, JSON] | None = None,
    root: str = "output",
) -> list[str]:
    """Differences between two encoded values (empty when they match); paths name the place.

    ``rtol`` and ``atol`` apply to every number except at the paths that ``outputs`` (a function's
    ``tolerance.outputs``: path → ``{"rtol", "atol", "reason"[, "integers"]}``) gives a rule of
    their own (module docstring, "the tolerance rule").  ``root`` is the name of the top-level
    path.
    """
    out: list[str] = []
    _compare(expected, actual, (rtol, atol), outputs or {}, root, out)
    return out


def _compare(
    expected: JSON,
    actual: JSON,
    tol: tuple[float, float],
    rules: Mapping[str, JSON],
    path: str,
    out: list[str],
) -> None:
    rtol, atol = tol
    integers = False
    if path in rules:
        rtol, atol, integers = _rule_of(rules[path])
    e_float, a_float = _float_of(expected), _float_of(actual)
    if e_float is not None or a_float is not None:
        if e_float is None or a_float is None:
            out.append(f"{path}: {_describe(actual)} where {_describe(expected)} expected")
        elif not _numbers_match(e_float, a_float, rtol, atol):
            out.append(f"{path}: {_float_difference(e_float, a_float, rtol, atol)}")
        return
    if integers and _is_int(expected) and _is_int(actual):
        if not _numbers_match(expected, actual, rtol, atol):
            out.append(
                f"{path}: {actual!r} where {expected!r} expected (integer made from a float, "
                f"tolerance rtol={rtol!r}, atol={atol!r})"
            )
        return
    if _is_int(expected) and _is_int(actual):
        if expected != actual:
            out.append(
                f"{path}: integer {actual!r} where {expected!r} expected (integers compare exactly)"
            )
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        if "raises" in expected or "raises" in actual:
            if expected.get("raises") != actual.get("raises"):
                out.append(f"{path}: {_describe(actual)} where {_describe(expected)} expected")
            return
        if "ndarray" in expected and "ndarray" in actual and expected["shape"] != actual["shape"]:
            e_shape, a_shape = tuple(expected["shape"]), tuple(actual["shape"])
            out.append(f"{path}: shape {a_shape} != expected {e_shape}")
            return
        if set(expected) != set(actual):
            out.append(f"{path}: expected keys {sorted(expected)}, got {sorted(actual)}")
            return
        for key in expected:
            _compare(expected[key], actual[key], tol, rules, f"{path}.{key}", out)
        return
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(f"{path}: expected length {len(expected)}, got {len(actual)}")
            return
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            _compare(e, a, tol, rules, f"{path}[{i}]", out)
        return
    if type(expected) is not type(actual) or expected != actual:
        out.append(f"{path}: {_describe(actual)} where {_describe(expected)} expected")


def _number_text(x: float) -> str:
    return "NaN" if math.isnan(x) else repr(x)


def _float_difference(e: float, a: float, rtol: float, atol: float) -> str:
    """Why ``a`` fails the tolerance rule against ``e`` (the numbers do not match)."""
    if math.isnan(e) or math.isnan(a) or math.isinf(e) or math.isinf(a):
        return f"{_number_text(a)} where {_number_text(e)} expected"
    diff = abs(a - e)
    if atol == 0.0 and e != 0.0:
        return f"{a!r} where {e!r} expected: relative error {diff / abs(e):.1e} > rtol {rtol:g}"
    return (
        f"{a!r} where {e!r} expected: |difference| {diff:.1e} > atol + rtol·|expected| = "
        f"{atol + rtol * abs(e):.1e} (atol {atol:g}, rtol {rtol:g})"
    )


def _is_int(data: JSON) -> bool:
    return isinstance(data, int) and not isinstance(data, bool)


def output_paths(value: JSON, path: str = "output") -> list[str]:
    """Paths of the numbers (floats and integers) of an encoded value, in the comparator's naming."""
    if _float_of(value) is not None or _is_int(value):
        return [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in output_paths(v, f"{path}[{i}]")]
    if isinstance(value, dict) and "raises" not in value:
        return [p for k, v in value.items() for p in output_paths(v, f"{path}.{k}")]
    return []


def _describe(data: JSON) -> str:
    if isinstance(data, dict) and "raises" in data:
        return f"raises {data['raises']}"
    number = _float_of(data)
    if number is not None:
        return _number_text(number)
    text = json.dumps(data)
    return text if len(text) <= 200 else text[:197] + "..."
