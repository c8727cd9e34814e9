"""Golden vectors: the registry's types (:class:`GoldenFunction`), evaluation of a case, and the
grid helpers and axes shared by the papers' entries (``audit/papers/<paper>/golden.py``).

The schema is described in the proof note (golden vectors).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special

from audit.tools.golden.codec import JSON, Params, decode_value, encode_value
from audit.tools.golden.compare import (
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    DIFFERENCE_RTOL,
    Tolerance,
    _check_tolerance_numbers,
)
from reference._typing import FloatArray

__all__ = [
    "GoldenFunction",
    "case_atol",
    "evaluate_case",
]


def _module_name(obj: Callable[..., object]) -> str:
    """Import path of the module defining ``obj`` (``audit.tools.golden`` also under ``python -m``)."""
    module = str(obj.__module__)
    return "audit.tools.golden" if module == "__main__" else module


@dataclass(frozen=True)
class GoldenFunction:
    """A deterministic function and its parameter grid.

    Attributes:
        paper: the golden file it belongs to (one of :data:`PAPERS`).
        func: the callable; called as ``func(**prepare(parameters))``.
        grid: keyword-argument dicts (JSON-encodable values, numpy arrays allowed).
        prepare: adapter turning JSON parameters into call arguments (objects built from their
            fields); identity when ``None``.
        rtol, atol: float tolerance of the comparison (module docstring, "the tolerance rule").
        reason: why the entry departs from the default tolerance (required when it does).
        outputs: tolerance of particular output paths (``"output[0]"``, ``"output.fields.rounds"``),
            overriding ``rtol``/``atol`` there: the outputs that are zero in exact arithmetic.
        case_atol: absolute tolerance of one case from its parameters (the size of the terms whose
            difference the output is); written into each case as ``"atol"`` when positive.
        small_values: why the function's zero or round-off-sized outputs that no ``atol`` covers
            are exact on every platform (made by construction or without cancellation); required
            of every function that stores such an output (``tests/audit/tools/test_golden.py``).
    """

    paper: str
    func: Callable[..., object]
    grid: tuple[Params, ...]
    prepare: Callable[[Params], Params] | None = None
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    reason: str = ""
    outputs: Mapping[str, Tolerance] = field(default_factory=dict)
    case_atol: Callable[[Params], float] | None = None
    small_values: str = ""

    def __post_init__(self) -> None:
        _check_tolerance_numbers(self.key, self.rtol, self.atol)
        if (
            self.atol > 0.0 or self.rtol != DEFAULT_RTOL or self.case_atol is not None
        ) and not self.reason:
            raise ValueError(
                f"{self.key}: a tolerance other than the default needs a stated reason"
            )

    @property
    def tolerance(self) -> dict[str, JSON]:
        """The entry's tolerance as written in the golden file."""
        out: dict[str, JSON] = {"rtol": self.rtol, "atol": self.atol}
        if self.reason:
            out["reason"] = self.reason
        if self.outputs:
            out["outputs"] = {path: rule.as_json() for path, rule in sorted(self.outputs.items())}
        return out

    @property
    def name(self) -> str:
        """Qualified name of the function inside its module."""
        return str(self.func.__qualname__)

    @property
    def module(self) -> str:
        """Import path of the module that defines the function."""
        return _module_name(self.func)

    @property
    def key(self) -> str:
        """``module:name``, unique across the registry."""
        return f"{self.module}:{self.name}"


def object_parameter(name: str, cls: Callable[..., object]) -> Callable[[Params], Params]:
    """The adapter of an entry whose parameter ``name`` is an object: the JSON object of its fields
    becomes ``cls(**fields)`` before the call (e.g. ``object_parameter("bounds",
    RegularizerBounds)``)."""

    def prepare(kwargs: Params) -> Params:
        return {**kwargs, name: cls(**kwargs[name])}

    prepare.__doc__ = (
        f"Adapter: the ``{name}`` parameter is a JSON object of ``{cls.__name__}`` fields."
    )
    return prepare


def evaluate_case(entry: GoldenFunction, parameters: Params) -> tuple[JSON, list[str]]:
    """Call ``entry`` on encoded ``parameters``; return the encoded outcome and warning names."""
    kwargs = {k: decode_value(v) for k, v in parameters.items()}
    if entry.prepare is not None:
        kwargs = entry.prepare(kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            output: JSON = encode_value(entry.func(**kwargs))
        except (ValueError, TypeError, ZeroDivisionError, OverflowError) as err:
            output = {"raises": type(err).__name__, "message": str(err)}
    names = sorted({w.category.__name__ for w in caught})
    return output, names


# ------------------------------------------------------------------------------------------------
# Grid helpers and adapters
# ------------------------------------------------------------------------------------------------


def _product(**axes: Sequence[Any]) -> list[Params]:
    """Cartesian product of the axes, as keyword dicts (last axis varying fastest)."""
    keys = list(axes)
    return [dict(zip(keys, combo, strict=True)) for combo in itertools.product(*axes.values())]


def _grid(*parts: Params | list[Params]) -> tuple[Params, ...]:
    out: list[Params] = []
    for part in parts:
        out.extend(part if isinstance(part, list) else [part])
    return tuple(out)


def _arr(values: Sequence[Any]) -> FloatArray:
    return np.asarray(values, dtype=np.float64)


def _gaussian_delta_atol(mu: float, epsilon: float) -> float:
    """:data:`DIFFERENCE_RTOL` × ``Φ(μ/2 − ε/μ)``, the larger term of the exact Gaussian-mechanism
    ``δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)`` (Balle & Wang 2018, Thm 8)."""
    return DIFFERENCE_RTOL * float(special.ndtr(mu / 2.0 - epsilon / mu))


# Why the zero or tiny outputs of a function are exact on every platform (GoldenFunction.small_values)
_UNDERFLOW = "tail probabilities exp(-x) without cancellation; 0.0 where exp underflows"
_ZERO_FACTOR = "0.0 from a zero factor (a zero input or count) or a literal 0.0: exact"
_POSITIVE_TERMS = "products, quotients and sums of positive terms: no cancellation"
_BOTH_UNDERFLOW = "0.0 where both terms underflow (Phi(mu/2 - eps/mu) < 1e-308): exact"
_EPS = (1e-3, 0.1, 1.0, 10.0)
_DELTA = (1e-10, 0.1)
_D = (1, 5, 256)


def case_atol(entry: GoldenFunction, parameters: Params) -> float | None:
    """The absolute tolerance ``entry`` states for the case with encoded ``parameters`` (``None``:
    the case states none, the function's applies)."""
    if entry.case_atol is None:
        return None
    kwargs = {k: decode_value(v) for k, v in parameters.items()}
    try:
        value = float(entry.case_atol(kwargs))
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        return None  # an invalid input: the case records the error it raises
    if not math.isfinite(value) or value < 0.0:
        raise ValueError(f"{entry.key}: case atol must be finite and >= 0, got {value!r}")
    return value if value > 0.0 else None
