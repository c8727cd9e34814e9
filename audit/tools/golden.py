"""Golden vectors: versioned, language-neutral records of what every deterministic function returns.

For each paper (``shariff_sheffet``, ``sajed_sheffet``, ``zhou_tan``, ``agarwal_singh``,
and ``tree`` for the shared tree mechanism of :mod:`reference.tree`) the file
``audit/tools/golden_vectors/<paper>.json`` records, for every registered function, its output on a grid
of parameters that includes extreme values (``n`` up to ``10¹²``, ``d`` up to 256, ``ε`` down to
``10⁻³``) and invalid inputs, whose expected outcome is the error they raise.  It also records
reference summaries (moments and quantiles with their Monte-Carlo standard errors) of a few
randomised parts at fixed parameters and seeds.  :func:`build_vectors` (``--rebuild``) regenerates
the files from the code; :func:`check_vectors` (the default) recomputes everything and returns the
disagreements, so a change in a result is always deliberate and visible in the diff of the files.

Schema (``schema_version`` 2)
=============================

One JSON object per file::

    {
      "schema_version": 2,
      "paper": "tree",
      "generator": "audit.tools.golden",
      "default_tolerance": {"rtol": 1e-12, "atol": 0.0},
      "functions": [
        {
          "function": "tree_depth",             # qualified name inside the module
          "module": "reference.tree",           # import path of the module that defines it
          "tolerance": {"rtol": 1e-12, "atol": 0.0},
          "cases": [
            {"parameters": {"n": 1000}, "output": 11},
            {"parameters": {"n": 0}, "output": {"raises": "ValueError", "message": "..."}},
            {"parameters": {...}, "output": ..., "warnings": ["UserWarning"]}
          ]
        },
        {
          "function": "lemma6_residuals", ...,
          "tolerance": {"rtol": 1e-12, "atol": 0.0, "outputs": {
              "output[0]": {"rtol": 1e-12, "atol": 1e-12, "reason": "zero in exact arithmetic: ..."},
              "output[1]": {...}}},
          "cases": [...]
        },
        {
          "function": "gaussian_dp_delta", ...,
          "tolerance": {"rtol": 1e-12, "atol": 0.0, "reason": "a difference of two close terms: ..."},
          "cases": [{"parameters": {"mu": 0.1, "epsilon": 1.0}, "output": 1.23e-25, "atol": 1.26e-33}]
        }
      ],
      "summaries": [ ... randomised parts, below ... ]
    }

``parameters`` are the keyword arguments of the call, encoded like outputs.  A function whose
inputs are objects (a :class:`~reference.shariff_sheffet.bounds.RegularizerBounds`, a
:class:`~reference.agarwal_singh.sets.LossSet`) receives them as JSON objects of their fields, turned
into the object by the entry's documented adapter before the call.

Value encoding (outputs and parameters):

* ``null``, booleans, strings and integers (arbitrary precision) are themselves;
* a finite float is a JSON number written with ``repr`` (Python's ``json`` writes
  ``float.__repr__``, the shortest string that round-trips exactly), always with a ``.`` or an
  exponent so that it reads back as a float, never as an integer;
* a non-finite float is ``{"float": "inf" | "-inf" | "nan"}`` (JSON has no literal for them, and
  the files are strict JSON);
* a tuple or list is a JSON array;
* a numpy array is ``{"ndarray": <nested arrays>, "dtype": "float64", "shape": [...]}``;
* a dataclass instance is ``{"dataclass": "<class name>", "fields": {<name>: <value>}}``;
* a raised exception is ``{"raises": "<exception class name>", "message": "<text>"}``; only the
  class is compared (messages are for readers and may be reworded freely);
* warnings emitted by the call are listed by category name in the case's ``"warnings"`` (absent
  when there are none) and must match exactly.

Comparison: the tolerance rule
==============================

Booleans, strings, exception classes, warning lists and the structure must match exactly, and so
must integers unless their output rule says ``"integers": true`` (below).  Each number of an
output has a *path* (``output``, ``output[0]``, ``output.fields.rounds``, ``output.ndarray[1][2]``,
as in the mismatch messages) and is compared with

    ``|actual − expected| ≤ atol + rtol·|expected|``

where ``(rtol, atol)`` are, in this order of precedence:

1. the rule of its path in the function's ``tolerance.outputs`` (``{"rtol", "atol", "reason"}``
   and optionally ``"integers": true``), when there is one;
2. otherwise ``rtol`` of the function's ``tolerance`` and the case's own ``"atol"`` if the case
   states one;
3. otherwise ``rtol`` and ``atol`` of the function's ``tolerance``.

``nan`` matches only ``nan`` and ``±inf`` only itself, whatever the tolerance.  Every tolerance
other than the default (``rtol = 1e-12``, ``atol = 0``) states its ``reason`` in the file.  The
check also requires the tolerances in a file to be the registry's (a loosened file is reported), and
every path rule to name an output that exists.

Not bit-exact, because ``log``, ``exp``, ``pow`` of the platform's libm, BLAS/LAPACK (products,
solves, eigenvalues), numpy's SIMD loops and scipy's special functions may differ in their last
bits across platforms and builds.  Five classes of output; the reason of the rule says which:

* **ordinary values**: ``rtol = 1e-12`` (:data:`DEFAULT_RTOL`, ~4500 ulp: far above such
  differences and far below any deliberate change of a formula), ``atol = 0``.  This covers zeros
  made by construction (a product with a zero factor, a branch, a literal ``0.0``, an ``exp`` that
  underflows, ``log 1``, ``x − x``), which are ``0.0`` on every IEEE platform, and tiny values
  computed without cancellation (tail probabilities such as ``10⁻⁴⁴``, ``2⁻⁴⁰``), whose relative
  error stays at the ulp level.  The registry records, per function, why its zero or tiny outputs
  are of this kind (:attr:`GoldenFunction.small_values`), and ``tests/test_golden.py`` requires
  every stored zero or round-off-sized number to be either so reviewed or under an ``atol``;
* **zero in exact arithmetic, computed through cancellation** (the residuals of an identity, such
  as Lemma 6 of Zhou & Tan): their round-off is ``~10⁻¹⁶`` with no stable relative size (``7.8e-16``
  on one BLAS kernel, ``8.3e-16`` on another, ``0.0`` on a third), so the rule of each such output
  path states ``atol = 1e-12`` (:data:`ROUNDOFF_ATOL`), the bound the identity is checked to;
* **differences of two close terms** (``δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)`` of a Gaussian
  mechanism, clamped at 0): the round-off is relative to the larger term, not to the difference, so
  each case states ``atol = 1e-10 × Φ(μ/2 − ε/μ)`` (:data:`DIFFERENCE_RTOL` times the term; the
  exponent ``ε + log Φ(·)`` reaches ``−630`` and makes the ``e^…`` term's own relative error
  ``~10⁻¹²``).  A tiny ``δ`` (``10⁻²⁷⁷``) is thereby still pinned to several digits;
* **roots of an equation solved numerically** (bisection, Brent's method, adaptive quadrature,
  and what is computed from such a root): the result is known to the solver's tolerance (up to
  ``5·10⁻¹¹`` relative here) and moves by the conditioning of the equation times the round-off
  of the function solved (up to ``2·10⁻¹¹`` measured), so ``rtol = 1e-9`` (:data:`SOLVER_RTOL`);
* **integers made from a float** beyond ``2⁵³`` (``r_e = ⌈R_e⌉`` of DP-SE with ``R_e ≈ 10²⁷``):
  exact as integers but carrying the float's round-off, so their path rule says
  ``"integers": true`` and they are compared by the float rule above.

``tests/test_golden.py`` recomputes every file under other OpenBLAS kernels, without numpy's SIMD
paths, and with every libm, scipy.special and LAPACK result moved by a few ulp (stand-ins for
another machine), and requires every entry to hold there too.

Randomised summaries (``"summaries"``).  One entry per randomised part::

    {
      "name": "tree_release_noise",
      "module": "reference.tree",               # the code under test
      "sampler": "audit.tools.golden._sample_tree_release_noise",
      "parameters": {...},                      # fixed parameters of the sampler
      "samples": 2000, "seed": 11, "check_seed": 1011, "sigma_limit": 5.0,
      "tolerance": {"rtol": 1e-12, "atol": 1e-12, "reason": "..."},   # of the same-seed check
      "statistics": {
        "<statistic>": {
          "mean": {"value": ..., "se": ...},
          "variance": {"value": ..., "se": ...},
          "q0.1": {"value": ..., "se": ...}, "q0.5": ..., "q0.9": ...   # continuous statistics only
        }
      }
    }

The sampler draws ``samples`` independent replicates from ``numpy.random.default_rng(seed)`` (one
child generator per replicate, spawned from ``SeedSequence(seed)``).  Standard errors: mean
``s/√n``; variance ``√((m₄ − s⁴)/n)``; ``p``-quantile the distribution-free order-statistic
interval ``(x₍ₖ₊₎ − x₍ₖ₋₎)/4`` with ``k± = np ± 2√(np(1 − p))`` (a ±2-standard-error binomial
band, wide enough for a stable estimate).
The check is twofold:

1. **same seed, exact**: the summary recomputed from ``seed`` equals the stored one by the tolerance
   rule with the summary's ``tolerance`` (``rtol = 1e-12`` and ``atol = 1e-12``: a mean or median
   of zero-mean noise is a sum of draws of size ~1 that nearly cancel, so its round-off is
   absolute, ``~10⁻¹⁶`` per draw, and its relative size unbounded), so a change of the random
   stream layout (order or number of draws), which moves every statistic by about a standard
   error, is visible too;
2. **fresh seed, statistical**: the summary recomputed from ``check_seed`` (an independent stream)
   agrees with the stored one within ``sigma_limit = 5`` combined standard errors
   ``√(se_stored² + se_fresh²)``.  Under the normal approximation each comparison raises a false
   alarm with probability ``2(1 − Φ(5)) ≈ 5.7·10⁻⁷`` (about ``2.5·10⁻⁵`` for the 44 statistics
   of all files together); since the seeds are fixed, the check is moreover deterministic.  A failure
   of (1) with (2) passing means "same law, different stream"; a failure of (2) means "the law
   changed".

Command line: ``python -m audit.tools.golden`` checks (exit 1 on a mismatch), ``--rebuild`` writes.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import math
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
from scipy import special

from reference import accounting, tree
from reference._typing import FloatArray
from reference.agarwal_singh import aggregation as as_agg
from reference.agarwal_singh import theorems as as_thm
from reference.agarwal_singh.sets import LossSet
from reference.files import DamagedFileError, atomic_write_text, read_json
from reference.noise import LaplaceNoise, WishartNoise
from reference.rng import as_seed_sequence
from reference.sajed_sheffet import bounds as ss_bounds
from reference.sajed_sheffet import constants as ss_const
from reference.sajed_sheffet.stopping import SampleStream, TwoPointDistribution, dp_nas
from reference.shariff_sheffet import bounds as sh_bounds
from reference.shariff_sheffet import tight as sh_tight
from reference.shariff_sheffet.bounds import RegularizerBounds
from reference.zhou_tan import bounds as zt_bounds
from reference.zhou_tan import kernels as zt_kernels
from reference.zhou_tan import mechanism as zt_mech
from reference.zhou_tan import schedules as zt_sched

__all__ = [
    "DEFAULT_ATOL",
    "DEFAULT_RTOL",
    "DIFFERENCE_RTOL",
    "PAPERS",
    "ROUNDOFF_ATOL",
    "SCHEMA_VERSION",
    "SIGMA_LIMIT",
    "SOLVER_RTOL",
    "SUMMARY_ATOL",
    "VECTORS_DIR",
    "GoldenFunction",
    "GoldenSummary",
    "Mismatch",
    "Tolerance",
    "build_paper",
    "build_vectors",
    "case_atol",
    "check_paper",
    "check_vectors",
    "compare_values",
    "decode_value",
    "dumps",
    "encode_value",
    "evaluate_case",
    "main",
    "output_paths",
    "registry",
    "schema_errors",
    "summaries",
    "summarize_samples",
]

SCHEMA_VERSION = 2
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
QUANTILES = (0.1, 0.5, 0.9)
PAPERS = ("shariff_sheffet", "sajed_sheffet", "zhou_tan", "agarwal_singh", "tree")
VECTORS_DIR = Path(__file__).resolve().parent / "golden_vectors"

Params: TypeAlias = dict[str, Any]
JSON: TypeAlias = Any


def _module_name(obj: Callable[..., object]) -> str:
    """Import path of the module defining ``obj`` (``audit.tools.golden`` also under ``python -m``)."""
    module = str(obj.__module__)
    return "audit.tools.golden" if module == "__main__" else module


# ------------------------------------------------------------------------------------------------
# Registry types
# ------------------------------------------------------------------------------------------------


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
            of every function that stores such an output (``tests/test_golden.py``).
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


Sampler: TypeAlias = Callable[[Params, np.random.Generator], dict[str, float]]


@dataclass(frozen=True)
class GoldenSummary:
    """A randomised part summarised at fixed parameters.

    ``sampler(parameters, rng)`` draws one replicate and returns its scalar statistics by name;
    ``continuous`` names the statistics that also get quantiles (discrete ones get moments only,
    since their quantiles have no useful standard error).  ``rtol``, ``atol`` and ``reason`` are the
    tolerance of the same-seed check (module docstring, "randomised summaries").
    """

    paper: str
    name: str
    module: str
    sampler: Sampler
    parameters: Params
    samples: int
    seed: int
    check_seed: int
    continuous: tuple[str, ...] = ()
    rtol: float = DEFAULT_RTOL
    atol: float = SUMMARY_ATOL
    reason: str = SUMMARY_REASON

    @property
    def tolerance(self) -> dict[str, JSON]:
        """The tolerance of the same-seed check as written in the golden file."""
        return {"rtol": self.rtol, "atol": self.atol, "reason": self.reason}


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


# ------------------------------------------------------------------------------------------------
# Encoding and comparison
# ------------------------------------------------------------------------------------------------


def encode_value(value: object) -> JSON:
    """Encode ``value`` as JSON data following the module's schema (exceptions excluded)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        x = float(value)
        if math.isfinite(x):
            return x
        return {"float": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}
    if isinstance(value, np.ndarray):
        return {
            "ndarray": [encode_value(v) for v in value.tolist()]
            if value.ndim
            else encode_value(value.item()),
            "dtype": str(value.dtype),
            "shape": list(value.shape),
        }
    if isinstance(value, list | tuple):
        return [encode_value(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "dataclass": type(value).__name__,
            "fields": {
                f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)
            },
        }
    if isinstance(value, Mapping):
        return {"mapping": {str(k): encode_value(v) for k, v in value.items()}}
    raise TypeError(f"cannot encode {type(value).__name__} in a golden vector: {value!r}")


def _decode_nested(data: JSON) -> Any:
    if isinstance(data, list):
        return [_decode_nested(v) for v in data]
    return decode_value(data)


def decode_value(data: JSON) -> Any:
    """Inverse of :func:`encode_value` for parameters (dataclasses stay field dicts)."""
    if isinstance(data, list):
        return [decode_value(v) for v in data]
    if isinstance(data, dict):
        if "float" in data:
            return float(data["float"])
        if "ndarray" in data:
            return np.asarray(_decode_nested(data["ndarray"]), dtype=data["dtype"]).reshape(
                data["shape"]
            )
        if "mapping" in data:
            return {k: decode_value(v) for k, v in data["mapping"].items()}
        return {k: decode_value(v) for k, v in data.items()}
    return data


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
            out.append(f"{path}: expected {expected!r}, got {actual!r}")
        elif not _numbers_match(e_float, a_float, rtol, atol):
            rel = abs(a_float - e_float) / abs(e_float) if e_float else math.inf
            out.append(
                f"{path}: expected {e_float!r}, got {a_float!r} (relative difference {rel:.3g}, "
                f"tolerance rtol={rtol!r}, atol={atol!r})"
            )
        return
    if integers and _is_int(expected) and _is_int(actual):
        if not _numbers_match(expected, actual, rtol, atol):
            out.append(
                f"{path}: expected {expected!r}, got {actual!r} (integer made from a float, "
                f"tolerance rtol={rtol!r}, atol={atol!r})"
            )
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        if "raises" in expected or "raises" in actual:
            if expected.get("raises") != actual.get("raises"):
                out.append(f"{path}: expected {_describe(expected)}, got {_describe(actual)}")
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
        out.append(f"{path}: expected {_describe(expected)}, got {_describe(actual)}")


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
    text = json.dumps(data)
    return text if len(text) <= 200 else text[:197] + "..."


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


def _with_bounds(kwargs: Params) -> Params:
    """Adapter: the ``bounds`` parameter is a JSON object of :class:`RegularizerBounds` fields."""
    out = dict(kwargs)
    out["bounds"] = RegularizerBounds(**kwargs["bounds"])
    return out


def _with_loss_set(kwargs: Params) -> Params:
    """Adapter: the ``loss_set`` parameter is a JSON object of :class:`LossSet` fields."""
    out = dict(kwargs)
    out["loss_set"] = LossSet(**kwargs["loss_set"])
    return out


def _arr(values: Sequence[Any]) -> FloatArray:
    return np.asarray(values, dtype=np.float64)


def _gaussian_delta_atol(mu: float, epsilon: float) -> float:
    """:data:`DIFFERENCE_RTOL` × ``Φ(μ/2 − ε/μ)``, the larger term of the exact Gaussian-mechanism
    ``δ(ε) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)`` (Balle & Wang 2018, Thm 8)."""
    return DIFFERENCE_RTOL * float(special.ndtr(mu / 2.0 - epsilon / mu))


def _gdp_delta_atol(kwargs: Params) -> float:
    """Case tolerance of ``gaussian_dp_delta(mu, epsilon)``."""
    return _gaussian_delta_atol(kwargs["mu"], kwargs["epsilon"])


def _tree_node_delta_atol(kwargs: Params) -> float:
    """Case tolerance of ``tree_node_delta_gaussian``: its ``μ = √h Δ₂/σ`` (0 when no node is used,
    where the output is a literal 0)."""
    h = as_agg.nodes_per_leaf(kwargs["T"], kwargs["view"])
    if h == 0:
        return 0.0
    mu = math.sqrt(h) * kwargs["Y_l2_diameter"] / kwargs["sigma"]
    return _gaussian_delta_atol(mu, kwargs["epsilon"])


# Why the zero or tiny outputs of a function are exact on every platform (GoldenFunction.small_values)
_UNDERFLOW = "tail probabilities exp(-x) without cancellation; 0.0 where exp underflows"
_ZERO_FACTOR = "0.0 from a zero factor (a zero input or count) or a literal 0.0: exact"
_POSITIVE_TERMS = "products, quotients and sums of positive terms: no cancellation"
_BOTH_UNDERFLOW = "0.0 where both terms underflow (Phi(mu/2 - eps/mu) < 1e-308): exact"


_LN_256 = 5.545177444479562
"""``ln 256`` as stored in the files (``math.log(256)`` may differ in its last bit across libms)."""

# Tree depths of the horizons used by the grids, hard-coded (m = 1 + ceil(log2 n)) so that the
# grids do not depend on the code under test.
_N_M = ((2, 2), (1000, 11), (10**5, 18), (10**12, 41))
_EPS = (1e-3, 0.1, 1.0, 10.0)
_DELTA = (1e-10, 0.1)
_D = (1, 5, 256)

_BOUNDS = (
    {"rho_min": 1.0, "rho_max": 1.0, "gamma": 0.0, "shift": 1.0},
    {"rho_min": 4.0, "rho_max": 12.0, "gamma": 2.5, "shift": 8.0},
    {"rho_min": 1e6, "rho_max": 3e6, "gamma": 30.0, "shift": 2e6},
)


# ------------------------------------------------------------------------------------------------
# The registry, paper by paper
# ------------------------------------------------------------------------------------------------


def _tree_entries() -> list[GoldenFunction]:
    p = "tree"
    big = (0, 1, 2, 3, 4, 5, 7, 8, 9, 1000, 2**20, 2**20 + 1, 10**12, 2**53 - 1, 2**53, 2**53 + 1)
    return [
        GoldenFunction(p, tree.tree_depth, _grid(_product(n=(*big[1:], 0, -1, 2.5)))),
        GoldenFunction(
            p,
            tree.node_leaf_range,
            _grid(_product(node=([0, 1], [1, 3], [3, 2], [39, 1], [40, 909], [0, 0], [-1, 1]))),
        ),
        # "tree node sets per t": the dyadic decomposition of every prefix s = 0..33, and extremes
        GoldenFunction(
            p,
            tree.dyadic_decomposition,
            _grid(_product(s=(*range(34), 255, 256, 2**40 - 1, 10**12, -1))),
        ),
        GoldenFunction(
            p,
            tree.nodes_containing_leaf,
            _grid(
                _product(leaf=(1, 5, 8, 9), m=(1, 4, 5)),
                _product(leaf=(1, 10**12 - 1, 10**12, 2**40), m=(41,)),
                {"leaf": 0, "m": 4},
                {"leaf": 1, "m": 0},
            ),
        ),
        GoldenFunction(
            p,
            tree.nodes_used_by_leaf,
            _grid(
                _product(leaf=(1, 2, 3, 5, 8), n=(1, 2, 8, 9, 16)),
                _product(leaf=(1, 2, 5 * 10**11, 10**12 - 1, 10**12), n=(10**12,)),
                {"leaf": 0, "n": 8},
                {"leaf": 1, "n": 0},
            ),
        ),
    ]


def _shariff_sheffet_entries() -> list[GoldenFunction]:
    p = "shariff_sheffet"
    node_privacy = _grid(
        _product(epsilon=_EPS, delta=_DELTA, m=(1, 2, 41)),
        {"epsilon": 0.0, "delta": 0.1, "m": 2},
        {"epsilon": 1.0, "delta": 1.0, "m": 2},
        {"epsilon": 1.0, "delta": 0.1, "m": 0},
    )
    dof = _grid(
        [
            {"d": d, "m": m, "epsilon": e, "delta": dl}
            for d in _D
            for _n, m in _N_M
            for e in _EPS
            for dl in _DELTA
        ],
        {"d": 0, "m": 2, "epsilon": 1.0, "delta": 0.1},
        {"d": 5, "m": 1, "epsilon": 1.0, "delta": 0.9},
    )
    # (d, n, m, k): k from tiny (Claim 19 fails) to the size of the paper's configurations
    wishart = _grid(
        [
            {"d": d, "m": m, "k": k, "L_tilde": L, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for k in (d + 1, 10**4, 10**7, 10**12)
            for L in (1.0, math.sqrt(2.0))
        ],
        {"d": 5, "m": 11, "k": 5, "L_tilde": 1.0, "n": 1000, "alpha": 0.001},
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 0.0, "n": 1000, "alpha": 0.001},
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 1.0, "n": 1000, "alpha": 1.0},
    )
    wishart_shifted = _grid(
        [dict(case, gamma_mode=mode) for case in wishart for mode in ("paper", "tight")],
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 1.0, "n": 1000, "alpha": 0.001, "gamma_mode": "x"},
    )
    gauss_std = _grid(
        _product(m=(1, 11, 41), L_tilde=(1.0, math.sqrt(2.0)), epsilon=_EPS, delta=_DELTA),
        {"m": 0, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1},
        {"m": 2, "L_tilde": -1.0, "epsilon": 1.0, "delta": 0.1},
    )
    upsilon = _grid(
        [
            {"sigma_noise": s, "m": m, "d": d, "n": n, "alpha": 1.0 / n}
            for s in (1e-3, 1.0, 1e4)
            for n, m in _N_M
            for d in _D
        ],
        {"sigma_noise": 0.0, "m": 2, "d": 1, "n": 2, "alpha": 0.5},
    )
    closed = _grid(
        [
            {"m": m, "L_tilde": 1.0, "epsilon": e, "delta": 0.1, "d": d, "n": n, "alpha": 1.0 / n}
            for n, m in _N_M
            for e in _EPS
            for d in _D
        ],
        {"m": 2, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "d": 0, "n": 2, "alpha": 0.5},
    )
    gauss_bounds = _grid(
        [
            {"d": d, "m": m, "L_tilde": L, "epsilon": e, "delta": dl, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for L in (1.0, math.sqrt(2.0))
            for e in (1e-3, 1.0)
            for dl in _DELTA
        ],
        {"d": 5, "m": 11, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "n": 1000, "alpha": 0.0},
    )
    gauss_sigma = _grid(
        [
            {"d": d, "m": m, "sigma_noise": s, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for s in (1e-3, 1.0, 1e4)
        ],
    )
    beta_common = _product(
        d=(1, 5, 256), sigma=(0.0, 1.0), alpha=(1e-12, 0.05), S=(1.0,), bounds=_BOUNDS
    )
    beta_t_grid = _grid(
        [dict(c, log_det_V=v) for c in beta_common for v in (-5.0, 0.0, 50.0, 3000.0)],
        {
            "log_det_V": math.inf,
            "d": 5,
            "sigma": 1.0,
            "alpha": 0.05,
            "S": 1.0,
            "bounds": _BOUNDS[0],
        },
        {"log_det_V": 1.0, "d": 5, "sigma": -1.0, "alpha": 0.05, "S": 1.0, "bounds": _BOUNDS[0]},
    )
    beta_batch_grid = _grid(
        [dict(c, log_det_V=_arr([-5.0, 0.0, 50.0, 3000.0])) for c in beta_common[:12]],
    )
    beta_bar_grid = _grid(
        [dict(c, t=t, L=1.0) for c in beta_common for t in (0, 1000, 10**12)],
        {"t": -1, "d": 5, "L": 1.0, "sigma": 1.0, "alpha": 0.05, "S": 1.0, "bounds": _BOUNDS[0]},
    )
    thm5_grid = _grid(
        [
            {
                "n": n,
                "d": d,
                "L": 1.0,
                "S": 1.0,
                "B": 1.0,
                "sigma": 1.0,
                "alpha": 1.0 / n,
                "bounds": b,
            }
            for n, _m in _N_M
            for d in _D
            for b in _BOUNDS
        ],
        {
            "n": 1000,
            "d": 5,
            "L": 1.0,
            "S": 1.0,
            "B": 0.5,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": _BOUNDS[0],
        },
    )
    thm6_grid = _grid(
        [dict(c, gap=g) for c in thm5_grid[:-1] for g in (1e-3, 0.1)],
        {
            "n": 1000,
            "d": 5,
            "L": 1.0,
            "S": 1.0,
            "B": 1.0,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": _BOUNDS[0],
            "gap": 0.0,
        },
    )
    lower = _grid(
        _product(n=(2, 1000, 10**12), epsilon=_EPS, gap=(1e-3, 0.5)),
        {"n": 1, "epsilon": 1.0, "gap": 0.1},
    )
    cor15 = _grid(
        _product(num_arms=(2, 10, 256), n=(2, 1000, 10**12), epsilon=_EPS),
        {"num_arms": 1, "n": 1000, "epsilon": 1.0},
    )
    used = _grid(_product(n=(1, 2, 3, 8, 9, 1000, 10**5, 10**12)), {"n": 0})
    tree_mu = _grid(
        _product(
            sigma_noise=(1e-3, 1.0, 100.0), n=(1, 2, 1000, 10**12), L_tilde=(1.0, math.sqrt(2.0))
        )
    )
    tight_std = _grid(
        _product(n=(2, 1000, 10**12), L_tilde=(1.0, math.sqrt(2.0)), epsilon=_EPS, delta=_DELTA)
    )
    tight_bounds = _grid(
        [
            {"d": d, "n": n, "L_tilde": 1.0, "epsilon": e, "delta": 0.1, "alpha": 1.0 / n}
            for d in _D
            for n, _m in _N_M
            for e in _EPS
        ],
        {"d": 5, "n": 1000, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "alpha": 1.5},
    )
    gdp_delta = _grid(
        _product(
            mu=(1e-3, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0), epsilon=(0.0, 1e-3, 0.1, 1.0, 5.0, 10.0)
        ),
        {"mu": 0.0, "epsilon": 1.0},
        {"mu": 1.0, "epsilon": -1.0},
    )
    gdp_eps = _grid(
        _product(mu=(0.01, 0.5, 1.0, 2.0, 5.0), delta=(1e-10, 1e-5, 0.1, 0.5)),
        {"mu": 1.0, "delta": 0.0},
    )
    gdp_mu = _grid(
        _product(epsilon=_EPS, delta=(1e-10, 1e-5, 0.1)),
        {"epsilon": 0.0, "delta": 0.1},
    )
    return [
        GoldenFunction(p, sh_bounds.wishart_node_privacy, node_privacy),
        GoldenFunction(p, sh_bounds.gaussian_node_privacy, node_privacy),
        GoldenFunction(p, sh_bounds.wishart_degrees_of_freedom, dof),
        GoldenFunction(
            p,
            sh_bounds.wishart_unshifted_bounds,
            wishart,
            small_values="shift is a literal 0.0; gamma is small only next to rho (no cancellation)",
        ),
        GoldenFunction(p, sh_bounds.wishart_shift, wishart),
        GoldenFunction(p, sh_bounds.wishart_shifted_bounds, wishart_shifted),
        GoldenFunction(p, sh_bounds.gaussian_noise_std, gauss_std),
        GoldenFunction(p, sh_bounds.gaussian_operator_norm_bound, upsilon),
        GoldenFunction(p, sh_bounds.gaussian_operator_norm_bound_closed_form, closed),
        GoldenFunction(p, sh_bounds.gaussian_bounds, gauss_bounds),
        GoldenFunction(p, sh_bounds.gaussian_bounds_for_sigma, gauss_sigma),
        GoldenFunction(
            p,
            sh_bounds.nonprivate_bounds,
            _grid(_product(rho=(1e-3, 1.0, 1e6, 0.0, math.inf))),
            small_values="gamma is a literal 0.0",
        ),
        GoldenFunction(p, sh_bounds.beta_t, beta_t_grid, prepare=_with_bounds),
        GoldenFunction(p, sh_bounds.beta_t_batch, beta_batch_grid, prepare=_with_bounds),
        GoldenFunction(p, sh_bounds.beta_bar, beta_bar_grid, prepare=_with_bounds),
        GoldenFunction(p, sh_bounds.regret_bound_thm5, thm5_grid, prepare=_with_bounds),
        GoldenFunction(p, sh_bounds.regret_bound_thm6, thm6_grid, prepare=_with_bounds),
        GoldenFunction(p, sh_bounds.claim14_min_pulls, lower),
        GoldenFunction(p, sh_bounds.cor15_regret_lower_bound, cor15),
        GoldenFunction(p, sh_tight.gaussian_tree_used_nodes, used),
        GoldenFunction(p, sh_tight.gaussian_tree_mu, tree_mu),
        # sigma = sqrt(h) L~^2 / mu with mu = gaussian_dp_mu (bisection); the bounds use that sigma
        GoldenFunction(
            p,
            sh_tight.gaussian_tight_noise_std,
            tight_std,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            sh_tight.gaussian_tight_bounds,
            tight_bounds,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            accounting.gaussian_dp_delta,
            gdp_delta,
            reason=DIFFERENCE_REASON,
            case_atol=_gdp_delta_atol,
            small_values=_BOTH_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            accounting.gaussian_dp_epsilon,
            gdp_eps,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
            small_values="0.0 is the branch delta(0) <= delta (margins >= 23% of delta here)",
        ),
        GoldenFunction(
            p, accounting.gaussian_dp_mu, gdp_mu, rtol=SOLVER_RTOL, reason=SOLVER_REASON
        ),
    ]


def _sajed_sheffet_entries() -> list[GoldenFunction]:
    p = "sajed_sheffet"
    eps_inf = (*_EPS, math.inf)
    nas = _grid(
        _product(t=(1, 10, 10**6, 10**12), range_R=(1.0, 256.0), beta=(1e-10, 0.1)),
        {"t": 0, "range_R": 1.0, "beta": 0.1},
        {"t": 1, "range_R": 1.0, "beta": 1.0},
    )
    dpnas = _grid(
        _product(
            t=(1, 10**6, 10**12), range_R=(1.0,), epsilon=_EPS, alpha=(1e-3, 0.1), beta=(1e-10, 0.1)
        ),
        {"t": 1, "range_R": 1.0, "epsilon": 1.0, "alpha": 1.0, "beta": 0.1},
    )
    exp_h = _grid(
        _product(t=(1, 2**20), k=(1, 20, 40), range_R=(1.0, 256.0), beta=(1e-10, 0.1)),
        {"t": 1, "k": 0, "range_R": 1.0, "beta": 0.1},
    )
    exp_c = _grid(
        _product(k=(1, 20, 40), range_R=(1.0,), epsilon=_EPS, alpha=(1e-3, 0.1), beta=(1e-10, 0.1)),
        {"k": 1, "range_R": 0.0, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1},
    )
    dpse = _grid(
        _product(n_viable=(1, 2, 256), epoch=(1, 10, 40), beta=(1e-10, 0.1), epsilon=eps_inf),
        {"n_viable": 0, "epoch": 1, "beta": 0.1, "epsilon": 1.0},
        {"n_viable": 2, "epoch": 0, "beta": 0.1, "epsilon": 1.0},
    )
    dpse_params = _grid(
        [dict(c, noise_on=mode) for c in dpse[:-2] for mode in ("r", "R_e")],
        {"n_viable": 2, "epoch": 1, "beta": 0.1, "epsilon": 1.0, "noise_on": "x"},
    )
    thm33 = _product(
        range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1), beta=(1e-10, 0.05), epsilon=_EPS
    )
    thm33_modes = _grid(
        [dict(c, inner_log=mode) for c in thm33 for mode in ("paper", "clamped")],
        {
            "range_R": 1.0,
            "mu": 2.0,
            "alpha": 0.1,
            "beta": 0.1,
            "epsilon": 1.0,
            "inner_log": "paper",
        },
    )
    halting = _grid(
        [
            dict(c, variant=v)
            for c in _product(
                range_R=(1.0,), mu=(0.1, 1.0), alpha=(0.1, 0.5), beta=(0.1,), epsilon=(0.1, 1.0)
            )
            for v in ("exponential", "every_step")
        ],
    )
    mu_grid = _grid(
        _product(range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1), beta=(1e-10, 0.1)),
        {"range_R": 1.0, "mu": 0.0, "alpha": 0.1, "beta": 0.1},
    )
    gaps = ([0.0, 0.5], [0.0, 0.1, 0.2, 0.5], [0.0] + [1e-3] * 8 + [0.9], [0.5], [0.1, 0.2])
    thm43 = _grid(
        _product(gaps=gaps, T=(1000, 10**12), epsilon=_EPS),
        {"gaps": [-0.1], "T": 1000, "epsilon": 1.0},
    )
    minimax = _grid(
        _product(T=(1000, 10**12), K=(2, 256), epsilon=_EPS),
        {"T": 1000, "K": 0, "epsilon": 1.0},
    )
    kt = _grid(_product(K=(2, 256), T=(1000, 10**12)), {"K": 2, "T": 0})
    kte = _grid(
        _product(K=(2, 256), T=(1000, 10**12), epsilon=_EPS), {"K": 2, "T": 1000, "epsilon": 0.0}
    )
    return [
        GoldenFunction(
            p,
            ss_const.hoeffding_radius,
            _grid(
                _product(t=(1, 1000, 10**12), width=(1.0, 2.0), failure=(1e-10, 0.1)),
                {"t": 0, "width": 1.0, "failure": 0.1},
            ),
        ),
        GoldenFunction(p, ss_const.nas_h, nas),
        GoldenFunction(
            p,
            ss_const.dp_nas_noise_scales,
            _grid(_product(range_R=(1.0, 256.0), epsilon=_EPS), {"range_R": 1.0, "epsilon": 0.0}),
        ),
        GoldenFunction(p, ss_const.dp_nas_h, nas),
        GoldenFunction(p, ss_const.dp_nas_c, dpnas),
        GoldenFunction(p, ss_const.dp_nas_threshold, dpnas),
        GoldenFunction(p, ss_const.dp_exp_nas_h, exp_h),
        GoldenFunction(p, ss_const.dp_exp_nas_c, exp_c),
        GoldenFunction(p, ss_const.dp_exp_nas_threshold, exp_c),
        GoldenFunction(
            p,
            ss_const.dpse_epoch_gap,
            _grid(_product(epoch=(1, 2, 10, 40, 0))),
            small_values="2**-epoch: exact powers of two",
        ),
        GoldenFunction(p, ss_const.dpse_rounds, dpse),
        GoldenFunction(
            p,
            ss_const.dpse_epoch_parameters,
            dpse_params,
            outputs={
                "output.fields.rounds": Tolerance(integers=True, reason=FLOAT_INTEGER_REASON),
            },
            small_values=(
                "privacy_term, c and noise_scale are literal 0.0 for epsilon = inf; gap = 2**-e "
                "exact; h, c and the threshold are products and quotients of positive terms"
            ),
        ),
        GoldenFunction(
            p,
            ss_const.dpse_elimination_threshold,
            dpse,
            small_values="2h + 2c: a sum of positive terms (no cancellation)",
        ),
        GoldenFunction(
            p,
            ss_const.dpucb_tree_epsilon,
            _grid(
                _product(epsilon=_EPS, K=(1, 256), calibration=("per_tree", "split")),
                {"epsilon": 1.0, "K": 2, "calibration": "x"},
            ),
        ),
        GoldenFunction(
            p,
            ss_const.dpucb_confidence_width,
            _grid(
                _product(K=(1, 256), T=(1, 1000, 10**12), epsilon_tree=_EPS, beta_u=(1e-10, 0.1)),
                {"K": 2, "T": 1000, "epsilon_tree": 1.0, "beta_u": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.laplace_tail,
            _grid(_product(tau=(0.0, 1.0, 50.0), scale=(1e-3, 1.0)), {"tau": 1.0, "scale": 0.0}),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            ss_bounds.hoeffding_tail,
            _grid(_product(deviation=(0.01, 0.5), t=(1, 1000, 10**12), width=(1.0, 2.0))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            ss_bounds.fact21_function,
            _grid(_product(x=(1.5, 10.0, 1e12), a=(0.5, 1.0, 100.0)), {"x": 1.0, "a": 1.0}),
        ),
        GoldenFunction(
            p,
            ss_bounds.fact21_thresholds,
            _grid(
                _product(a=(1.5, 10.0, 100.0, 1e6), b=(1e-6, 0.01, 0.06)),
                {"a": 1.0, "b": 0.01},
                {"a": 10.0, "b": 0.1},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.svt_privacy_loss,
            _grid(
                _product(
                    sensitivity=(1.0, 2.0), threshold_scale=(1.0, 12.0), query_scale=(1.0, 12.0)
                )
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.laplace_mechanism_privacy_loss,
            _grid(
                _product(sensitivity=(1.0, 2.0), scale=(1e-3, 4.0)),
                {"sensitivity": 1.0, "scale": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.thm31_privacy_account,
            _grid(_product(range_R=(1.0, 256.0), epsilon=_EPS)),
        ),
        GoldenFunction(p, ss_bounds.thm31_failure_budget, _grid(_product(beta=(1e-10, 0.1, 0.0)))),
        GoldenFunction(p, ss_bounds.cor32_failure_budget, _grid(_product(beta=(1e-10, 0.1, 0.0)))),
        GoldenFunction(p, ss_bounds.thm33_terms, thm33_modes),
        GoldenFunction(p, ss_bounds.thm33_halting_bound, thm33_modes),
        GoldenFunction(p, ss_bounds.good_event_halting_time, halting),
        GoldenFunction(p, ss_bounds.thm34_sample_size, _grid(thm33)),
        GoldenFunction(
            p,
            ss_bounds.thm34_two_point_laws,
            _grid(_product(range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1))),
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma35_group_privacy_factor,
            _grid(_product(epsilon=_EPS, n=(1.0, 1e6), tv_distance=(1e-6, 0.1))),
        ),
        GoldenFunction(
            p,
            ss_bounds.thm34_exceedance_probability,
            _grid(_product(beta=(1e-10, 0.1), form=("paper", "proof_chain"))),
        ),
        GoldenFunction(p, ss_bounds.cor36_sample_complexity_lower_bound, _grid(thm33)),
        GoldenFunction(
            p,
            ss_bounds.dagum_sample_complexity_lower_bound,
            _grid(
                _product(
                    range_R=(1.0,), variance=(0.0, 0.25), mu=(1e-3, 0.5), alpha=(0.1,), beta=(0.1,)
                )
            ),
        ),
        GoldenFunction(p, ss_bounds.domingo_nas_sample_complexity_order, mu_grid),
        GoldenFunction(p, ss_bounds.mnih_nas_sample_complexity_order, mu_grid),
        GoldenFunction(p, ss_bounds.section31_assumption_holds, mu_grid),
        GoldenFunction(p, ss_bounds.thm41_privacy_loss, dpse_params),
        GoldenFunction(
            p,
            ss_bounds.lemma42_elimination_epoch,
            _grid(_product(gap=(1e-3, 0.1, 0.5, 1.0, 0.0))),
        ),
        GoldenFunction(
            p, ss_bounds.lemma42_failure_probability, _grid(_product(beta=(1e-10, 0.1, 1.0)))
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma42_pull_bound,
            _grid(
                _product(K=(2, 256), gap=(1e-3, 0.5), beta=(1e-10, 0.1), epsilon=_EPS),
                {"K": 2, "gap": 0.1, "beta": 0.1, "epsilon": 1.0, "T": 1000},
                {"K": 2, "gap": 0.1, "beta": 0.1, "epsilon": 1.0, "T": 10**12},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma42_proof_pull_bound,
            _grid(_product(K=(2, 256), gap=(1e-3, 0.5), beta=(1e-10, 0.1), epsilon=_EPS)),
        ),
        GoldenFunction(p, ss_bounds.thm43_regret_bound, thm43),
        GoldenFunction(p, ss_bounds.thm43_regret_bound_paper_form, thm43),
        GoldenFunction(
            p,
            ss_bounds.thm44_per_arm_regret_bound,
            _grid(_product(gap=(1e-3, 0.5), T=(1000, 10**12), epsilon=_EPS, C=(1.0, 2.0))),
        ),
        GoldenFunction(p, ss_bounds.thm44_critical_gap, minimax),
        GoldenFunction(p, ss_bounds.thm44_critical_gap_order, minimax),
        GoldenFunction(p, ss_bounds.thm44_minimax_regret_bound, minimax),
        GoldenFunction(p, ss_bounds.thm44_minimax_regret_order, minimax),
        GoldenFunction(
            p,
            ss_bounds.lai_robbins_regret_order,
            _grid(_product(gaps=gaps, T=(1000, 10**12))),
        ),
        GoldenFunction(p, ss_bounds.private_regret_lower_bound_order, kte),
        GoldenFunction(p, ss_bounds.minimax_regret_lower_bound_order, kt),
        GoldenFunction(p, ss_bounds.ucb_minimax_regret_order, kt),
        GoldenFunction(
            p,
            ss_bounds.tree_release_noise_variance,
            _grid(
                _product(count=(0, 1, 5, 1000), T=(1000, 10**12), epsilon=_EPS),
                {"count": 1001, "T": 1000, "epsilon": 1.0},
            ),
            small_values="popcount(0) = 0 times the node variance: exact",
        ),
        GoldenFunction(p, ss_bounds.dpucb_added_regret_order, kte),
    ]


# Fixed points for the kernels: a 5-point grid of [0, 1] and 4 points of [0, 1]^2.
_X1 = [[0.0], [0.25], [0.5], [0.75], [1.0]]
_X2 = [[0.0, 0.0], [0.1, 0.9], [0.5, 0.5], [1.0, 0.3]]
_GRAM = [
    [1.0, 0.8, 0.3, 0.05],
    [0.8, 1.0, 0.6, 0.2],
    [0.3, 0.6, 1.0, 0.7],
    [0.05, 0.2, 0.7, 1.0],
]


def _zhou_tan_entries() -> list[GoldenFunction]:
    p = "zhou_tan"
    T_axis = (10.0, 1e4, 1e12)
    rates = _grid(
        [
            {"T": T, "kernel": k, "d": d, "nu": nu}
            for T in T_axis
            for d in (1, 5, 256)
            for k, nu in (("se", None), ("linear", None), ("matern", 0.5), ("matern", 2.5))
        ],
        {"T": 1.0, "kernel": "se", "d": 1, "nu": None},
        {"T": 10.0, "kernel": "matern", "d": 1, "nu": None},
        {"T": 10.0, "kernel": "x", "d": 1, "nu": None},
    )
    regret_exprs = _product(
        T=T_axis, gamma_T=(1.0, 100.0), B=(1.0,), R=(1.0,), eps=_EPS, eps_nys=(0.5,), delta=(0.01,)
    )
    no_nys = [{k: v for k, v in c.items() if k != "eps_nys"} for c in regret_exprs]
    with_rate = _grid(
        [
            {
                "algorithm": a,
                "T": T,
                "kernel": k,
                "d": d,
                "B": 1.0,
                "R": 1.0,
                "eps": e,
                "delta": 0.01,
                "nu": nu,
            }
            for a in ("ldp_ata", "ldp_tgp", "moma", "ldp_moma")
            for T in (1e4, 1e12)
            for k, d, nu in (
                ("se", 1, None),
                ("se", 5, None),
                ("matern", 2, 2.5),
                ("linear", 256, None),
            )
            for e in (1e-3, 1.0)
        ],
    )
    lower_se = _grid(
        _product(T=T_axis, eps=_EPS, v=(1.0, 4.0), B=(1.0,), d=(1, 5, 256), alpha=(0.5, 1.0)),
        {"T": 1e4, "eps": 1.0, "v": 1.0, "B": 1.0, "d": 0},
    )
    lower_matern = _grid(
        [dict(c, nu=nu) for c in lower_se[:-1] if c["alpha"] == 1.0 for nu in (0.5, 2.5)]
    )
    return [
        GoldenFunction(p, zt_bounds.zeta_priv, _grid(_product(eps=(*_EPS, 0.0)))),
        GoldenFunction(
            p,
            zt_mech.laplace_scale,
            _grid(
                _product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS), {"B": 1.0, "R": -1.0, "eps": 1.0}
            ),
        ),
        GoldenFunction(
            p,
            zt_mech.ldp_reward_second_moment,
            _grid(_product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS)),
        ),
        GoldenFunction(
            p,
            zt_mech.ldp_noise_second_moment,
            _grid(_product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS)),
        ),
        GoldenFunction(p, zt_bounds.lower_bound_se, lower_se),
        GoldenFunction(p, zt_bounds.lower_bound_matern, lower_matern),
        GoldenFunction(
            p,
            zt_bounds.eq18_lower_bound,
            _grid(_product(T=T_axis, M=(1.0, 100.0), eps=_EPS, v=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_delta_max,
            _grid(
                _product(M=(1.0, 100.0), C=(1.0,), eps=_EPS, T=T_axis, v=(1.0,), alpha=(0.5, 1.0))
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_se,
            _grid(
                _product(
                    B=(1.0,),
                    Delta=(1e-3, 0.1),
                    lengthscale=(0.1, 1.0),
                    d=(1, 5, 256),
                    h0=(1.0,),
                    zeta_bump=(0.5,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_matern,
            _grid(
                _product(
                    B=(1.0,),
                    Delta=(1e-3, 0.1),
                    nu=(0.5, 2.5),
                    d=(1, 5, 256),
                    h0=(1.0,),
                    zeta_bump=(0.5,),
                    c_matern=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.bump_h0,
            _grid(_product(d=(1, 2, 3)), {"d": 0}),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            zt_bounds.bump_zeta,
            _grid(_product(d=(1, 2, 3))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_se_numeric,
            _grid(_product(B=(1.0,), Delta=(1e-3, 0.1), lengthscale=(0.1, 1.0), d=(1, 2))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # uses h(0) and zeta_bump, from quadrature and Brent's method
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_function_count,
            _grid(
                _product(w=(0.1, 0.5, 1.0, 2.0), d=(1, 5), convention=("paper", "grid")),
                {"w": 0.0, "d": 1},
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_reward_law,
            _grid(_product(f_value=(-0.5, 0.0, 0.01), Delta=(0.01,), v=(1.0,), alpha=(0.5, 1.0))),
            small_values="f = 0: a literal 0.0 value and a zero factor |f| in the probability",
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma3_count_bound,
            _grid(
                {
                    "T": 1000,
                    "E0_counts": _arr([100.0, 300.0, 600.0]),
                    "D_m": _arr([0.0, 1e-3, 0.01]),
                }
            ),
        ),
        GoldenFunction(
            p, zt_bounds.lemma4_delta_max, _grid(_product(v=(1.0, 4.0), alpha=(0.5, 1.0)))
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma4_kl_bound,
            _grid(_product(eps=_EPS, Delta=(1e-3, 0.1), v=(1.0,), v_mj=(0.0, 0.5), alpha=(1.0,))),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(
            p,
            zt_bounds.nonprivate_two_point_kl,
            _grid(_product(p=(0.0, 1e-3, 0.25, 0.5))),
            small_values="-log1p(-0.0) = 0.0 exactly (IEEE 754 / C99 Annex F)",
        ),
        GoldenFunction(
            p,
            zt_bounds.nonprivate_two_point_kl_bound,
            _grid(_product(Delta=(1e-3, 0.1), v=(1.0,), f_abs=(0.01, 0.1), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.duchi_symmetric_kl_bound,
            _grid(_product(eps=_EPS, tv=(0.0, 0.1, 1.0))),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(p, zt_bounds.thm2_regret_expr, _grid(regret_exprs)),
        GoldenFunction(p, zt_bounds.thm3_regret_expr, _grid(no_nys)),
        GoldenFunction(
            p,
            zt_bounds.thm3_confidence_terms,
            _grid(
                _product(
                    t=(1, 1000, 10**12),
                    B=(1.0,),
                    R=(1.0,),
                    lap_scale=(1.0, 1e3),
                    K2=(1.0,),
                    gamma_t=(1.0, 100.0),
                    delta=(0.01,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.thm4_regret_expr,
            _grid(
                _product(
                    T=T_axis,
                    gamma_T=(1.0, 100.0),
                    B=(1.0,),
                    c=(1.0,),
                    eps_nys=(0.5,),
                    delta=(0.01,),
                    alpha=(0.5, 1.0),
                )
            ),
        ),
        GoldenFunction(p, zt_bounds.cor1_regret_expr, _grid(regret_exprs)),
        GoldenFunction(p, zt_bounds.regret_upper_bound_with_rate, with_rate),
        GoldenFunction(
            p,
            zt_bounds.lemma6_residuals,
            _grid(_product(A=(_arr(_GRAM), np.eye(3)), lam=(0.1, 1.0))),
            # Eq. 19 and corrected Eq. 20 residuals are 0 in exact arithmetic; the printed
            # Eq. 20 residual (output[2]) is not 0 and keeps the ordinary relative tolerance.
            outputs={
                "output[0]": Tolerance(atol=ROUNDOFF_ATOL, reason=ROUNDOFF_REASON),
                "output[1]": Tolerance(atol=ROUNDOFF_ATOL, reason=ROUNDOFF_REASON),
            },
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma7_sum_sigma_sq_bound,
            _grid(_product(gamma_T=(1.0, 100.0), lam=(0.1, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma7_sum_sigma_bound,
            _grid(_product(T=(1000, 10**12), gamma_T=(1.0, 100.0), lam=(0.1, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.regret_certificate,
            _grid(_product(beta_T=(1.0, 50.0), T=(1000, 10**12), gamma_T=(1.0, 100.0), lam=(1.0,))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma8_dictionary_size_bound,
            _grid(_product(eps_nys=(0.1, 0.5), lam=(1.0,), q=(10.0, 1e4), gamma_n=(1.0, 100.0))),
        ),
        GoldenFunction(
            p, zt_bounds.lemma9_sigma_ratio_bound, _grid(_product(eps_nys=(0.1, 0.5, 0.99, 1.0)))
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma10_failure_bound,
            _grid(_product(m=(1, 10, 1000), n=(10, 10**6), c=(1.0, 10.0), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_hoeffding_bound,
            _grid(_product(k=(1, 24, 1000), version=("paper", "corrected"))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_exact_tail,
            _grid(_product(k=(1, 24, 1000), p=(0.1, 0.25))),
            small_values="a binomial upper tail from scipy (summed without cancellation)",
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_union_failure,
            _grid(_product(k=(1, 24, 1000), n_epochs=(1, 100), version=("paper", "corrected"))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(p, zt_sched.rho_nys, _grid(_product(eps_nys=(0.1, 0.5, 1.0)))),
        GoldenFunction(
            p,
            zt_sched.first_beta_approx,
            _grid(_product(B=(1.0, 10.0), eps_nys=(0.1, 0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.nystrom_q,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01), eps_nys=(0.1, 0.5))),
        ),
        GoldenFunction(
            p,
            zt_sched.practical_nystrom_q,
            _grid(_product(T=(10, 10**4, 10**12), eps_nys=(0.1, 0.5))),
        ),
        GoldenFunction(
            p,
            zt_sched.ata_trunc_level,
            _grid(
                _product(
                    m=(1, 100),
                    T=(1000, 10**12),
                    delta=(0.01,),
                    v=(1.0,),
                    t=(1, 1000),
                    alpha=(0.5, 1.0),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.ata_beta_next,
            _grid(
                _product(
                    m=(1, 100),
                    T=(1000, 10**12),
                    delta=(0.01,),
                    v=(1.0,),
                    lam=(1.0,),
                    B=(1.0,),
                    eps_nys=(0.5,),
                    t=(1, 1000),
                    alpha=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.ref7_ata_schedule,
            _grid(
                _product(
                    t=(1, 1000),
                    m=(1, 100),
                    T=(1000, 10**12),
                    v=(1.0,),
                    alpha=(1.0,),
                    B=(1.0,),
                    lam=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_trunc_level,
            _grid(_product(t=(1, 1000, 10**12), B=(1.0,), R=(1.0,), lap_scale=(1.0, 1e3))),
        ),
        GoldenFunction(
            p,
            zt_sched.ldp_tgp_beta,
            _grid(
                _product(
                    t=(1, 1000, 10**12),
                    B=(1.0,),
                    R=(1.0,),
                    lap_scale=(1.0, 1e3),
                    lam=(1.0,),
                    delta=(0.01,),
                    gamma_prev=(1.0, 100.0),
                    K2=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_nonprivate_trunc_level,
            _grid(_product(t=(1, 1000, 10**12), v=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.ref7_tgp_schedule,
            _grid(_product(t=(1, 1000, 10**12), v=(1.0,), alpha=(0.5, 1.0), B=(1.0,), lam=(1.0,))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_k_rep,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01)), {"T": 10, "delta": 0.0}),
        ),
        GoldenFunction(
            p,
            zt_sched.practical_k_rep,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_n_epochs,
            _grid(_product(T=(10, 10**4, 10**12), k_rep=(1, 24, 1000))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_radius,
            _grid(_product(n=(1, 100, 10**6), m=(1, 100), c=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_beta_next,
            _grid(
                _product(
                    n=(1, 100),
                    m=(1, 100),
                    c=(1.0,),
                    B=(1.0,),
                    eps_nys=(0.5,),
                    lam=(1.0,),
                    alpha=(1.0,),
                    lam_factor=("proof", "statement"),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.igp_ucb_beta,
            _grid(
                _product(
                    t=(1, 1000, 10**12), B=(1.0,), R=(1.0,), gamma_prev=(1.0, 100.0), delta=(0.01,)
                )
            ),
        ),
        GoldenFunction(p, zt_kernels.unit_grid, _grid(_product(n_points=(1, 2, 5, 0)))),
        GoldenFunction(
            p,
            zt_kernels.pairwise_distances,
            _grid({"X": _arr(_X1), "Y": _arr(_X1)}, {"X": _arr(_X2), "Y": _arr(_X2[:2])}),
            small_values="the diagonal is sqrt(sum((x - x)**2)) with x - x = 0.0 exactly",
        ),
        GoldenFunction(
            p,
            zt_kernels.se_kernel,
            _grid(
                _product(X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0)),
                _product(X=(_arr(_X2),), Y=(_arr(_X2),), lengthscale=(0.5,)),
                {"X": _arr(_X1), "Y": _arr(_X1), "lengthscale": 0.0},
            ),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            zt_kernels.matern_kernel,
            _grid(
                _product(
                    X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0), nu=(0.5, 1.5, 2.5, 0.7)
                ),
                _product(X=(_arr(_X2),), Y=(_arr(_X2),), lengthscale=(0.5,), nu=(2.5,)),
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.matern_closed_form,
            _grid(
                _product(
                    X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0), nu=(0.5, 1.5, 2.5, 0.7)
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.linear_kernel,
            _grid({"X": _arr(_X1), "Y": _arr(_X1)}, {"X": _arr(_X2), "Y": _arr(_X2)}),
            small_values="x.y with x or y = 0: every product 0.0, exact in any BLAS",
        ),
        GoldenFunction(p, zt_kernels.gamma_rate, rates),
        GoldenFunction(
            p,
            zt_kernels.information_gain,
            _grid(
                _product(K_A=(_arr(_GRAM), np.eye(3)), lam=(0.01, 1.0)),
                {"K_A": _arr(_GRAM), "lam": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.greedy_info_gain_curve,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_kernels.spectral_info_gain_bound,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_kernels.certified_gamma_upper,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
    ]


def cor32_regret_bound_at(
    instance: as_thm.Instance, N: int, T: int, epsilon: float, calibration: as_agg.Calibration
) -> float:
    """Adapter: :func:`reference.agarwal_singh.theorems.cor32_regret_bound` at the parameters of
    :func:`~reference.agarwal_singh.theorems.cor32_parameters` (its input is an object)."""
    params = as_thm.cor32_parameters(instance, N, T, epsilon, calibration=calibration)
    return as_thm.cor32_regret_bound(params, T)


def _agarwal_singh_entries() -> list[GoldenFunction]:
    p = "agarwal_singh"
    T_axis = (1, 2, 1000, 10**12)
    tree_eps = _grid(
        _product(
            epsilon=_EPS, T=T_axis, Y_l1_diameter=(2.0, 512.0), view=("actions", "prefix_sums")
        ),
        {"epsilon": 1.0, "T": 0, "Y_l1_diameter": 2.0, "view": "actions"},
        {"epsilon": 1.0, "T": 8, "Y_l1_diameter": 2.0, "view": "x"},
    )
    instances = [
        {"instance": i, "N": N, "T": T, "epsilon": e}
        for i in ("experts", "sphere", "cube")
        for N in (2, 256)
        for T in (1000, 10**12)
        for e in _EPS
    ]
    mab = _product(N=(2, 256), T=(1000, 10**12), epsilon=_EPS)
    blo = _product(N=(2, 256), T=(1000, 10**12), epsilon=(1e-3, 1.0))
    blo_shape = {"nu": 1.0, "M": 1.0, "X_l2": 1.0, "Y_l1": 1.0}
    return [
        GoldenFunction(
            p, as_agg.noise_draws_per_release, _grid(_product(T=(*T_axis, 3, 4, 5, 2**40, 0)))
        ),
        GoldenFunction(
            p,
            as_agg.padding_count,
            _grid(
                _product(t=(0, 1, 3, 7, 8), T=(8, 9)),
                _product(t=(0, 10**12 - 1, 10**12), T=(10**12,)),
                {"t": 9, "T": 8},
            ),
        ),
        GoldenFunction(
            p,
            as_agg.nodes_per_leaf,
            _grid(
                _product(T=(*T_axis, 3, 8, 9), view=("actions", "prefix_sums")),
                {"T": 8, "view": "x"},
            ),
        ),
        GoldenFunction(
            p,
            as_agg.log_T,
            _grid(_product(T=T_axis, base=("e", "2")), {"T": 8, "base": "10"}),
            small_values="log(1) = log2(1) = +0.0 exactly (IEEE 754 / C99 Annex F)",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_scale_tree_paper,
            _grid(_product(epsilon=_EPS, T=T_axis, Y_l1_radius=(1.0, 256.0), log_base=("e", "2"))),
        ),
        GoldenFunction(p, as_agg.laplace_scale_tree_strict, tree_eps[:-2]),
        GoldenFunction(
            p,
            as_agg.laplace_scale_tree,
            _grid(
                [
                    {
                        "epsilon": e,
                        "T": T,
                        "Y_l1_radius": 256.0,
                        "Y_l1_diameter": 512.0,
                        "mode": mode,
                    }
                    for e in _EPS
                    for T in T_axis
                    for mode in ("strict", "paper")
                ],
            ),
        ),
        GoldenFunction(
            p,
            as_agg.tree_node_epsilon_laplace,
            _grid(
                [
                    dict({k: v for k, v in c.items() if k != "epsilon"}, scale=s)
                    for c in tree_eps[:-2:4]
                    for s in (1.0, 100.0)
                ],
            ),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(
            p,
            as_agg.prefix_noise_variance,
            _grid(_product(node_variance=(1.0, 2e6), T=T_axis)),
        ),
        GoldenFunction(
            p,
            as_agg.prefix_noise_shared_draws,
            _grid(_product(s=(0, 1, 5, 8), t=(1, 6, 8, 10**12)), {"s": -1, "t": 1}),
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_sf,
            _grid(_product(a=(0.0, 1.0, 10.0, 100.0), K=(1, 2, 10, 40), scale=(1.0,))),
            small_values="a sum of positive terms w_j Q(K - j, a): tiny tails without cancellation",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_ppf,
            _grid(_product(q=(1e-10, 0.1, 0.5), K=(1, 2, 10), scale=(1.0,))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
            small_values="0.0 is the branch q = 0.5 (the median of a symmetric law)",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_chernoff_sf,
            _grid(_product(a=(1.0, 10.0, 100.0), K=(1, 2, 10, 40), scale=(1.0,))),
            small_values="exp of the Chernoff exponent: tiny tails without cancellation",
        ),
        GoldenFunction(
            p,
            as_agg.lemma33_uniform_error_bound,
            _grid(
                _product(
                    node_law=("laplace", "gaussian"),
                    scale=(1.0,),
                    T=(1000, 10**12),
                    N=(2, 256),
                    releases=(1000,),
                    beta=(1e-10, 0.1),
                    method=("exact", "chernoff"),
                )
            ),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # the Laplace quantile by Brent's method
        ),
        GoldenFunction(
            p,
            as_thm.thm34_regret_bound_paper,
            # D_R = ln 256 written as a literal: a grid must not depend on the platform's libm
            _grid(_product(D_R=(1.0, _LN_256), G2_sum=(1000.0, 1e12), D_Dprime=(0.0, 10.0))),
        ),
        GoldenFunction(
            p,
            as_thm.thm34_regret_bound_certified,
            _grid(
                _product(D_R=(1.0,), G2_sum=(1000.0, 1e12), eta=(1e-6, 0.1), D_Dprime=(0.0, 10.0))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.thm31_laplace_scale,
            _grid(
                [
                    {
                        "epsilon": e,
                        "T": T,
                        "loss_set": {"kind": k, "dim": N, "r": 1.0},
                        "calibration": c,
                    }
                    for e in _EPS
                    for T in (1000, 10**12)
                    for k in ("linf_ball", "l2_ball", "l1_ball", "box01")
                    for N in (2, 256)
                    for c in ("strict", "paper")
                ]
            ),
            prepare=_with_loss_set,
        ),
        GoldenFunction(
            p,
            as_thm.thm31_regret_bound,
            _grid(_product(D_R=(1.0,), G2_sum=(1000.0, 1e12), D_Lap=(0.0, 10.0))),
        ),
        GoldenFunction(
            p,
            as_thm.noise_width_upper_bound,
            _grid(
                _product(
                    instance=("experts", "sphere", "cube"), N=(2, 256), K=(1, 40), scale=(1.0, 1e4)
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.cor32_parameters,
            _grid(
                [dict(c, calibration=cal) for c in instances for cal in ("strict", "paper")],
                {"instance": "x", "N": 2, "T": 1000, "epsilon": 1.0},
            ),
            small_values="eta is small next to the other fields only: " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            cor32_regret_bound_at,
            _grid([dict(c, calibration=cal) for c in instances for cal in ("strict", "paper")]),
        ),
        GoldenFunction(p, as_thm.cor32_rate_paper, _grid(instances)),
        GoldenFunction(
            p,
            as_thm.gaussian_mechanism_delta,
            _grid(_product(epsilon=(0.0, 1e-3, 1.0, 10.0), mu=(0.1, 1.0, 5.0))),
            reason=DIFFERENCE_REASON,
            case_atol=lambda kw: _gaussian_delta_atol(kw["mu"], kw["epsilon"]),
            small_values=_BOTH_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            as_thm.tree_node_delta_gaussian,
            _grid(
                _product(
                    sigma=(1.0, 100.0),
                    epsilon=(1e-3, 1.0),
                    T=(2, 1000, 10**12),
                    Y_l2_diameter=(2.0,),
                    view=("actions", "prefix_sums"),
                )
            ),
            reason=DIFFERENCE_REASON,
            case_atol=_tree_node_delta_atol,
            small_values="0.0 is the branch h = 0 (no node carries the leaf), or "
            + _BOTH_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            as_thm.gaussian_output_level_sensitivity,
            _grid(
                _product(
                    T=(1, 2, 8, 64, 256),
                    Y_l2_diameter=(2.0,),
                    sigma=(1.0, 100.0),
                    view=("actions", "prefix_sums"),
                )
            ),
            small_values="(0.0, 1) is the branch of a tree with no release carrying data",
        ),
        GoldenFunction(
            p,
            as_thm.thmA1_min_sigma,
            _grid(_product(epsilon=_EPS, delta=_DELTA, T=(1000, 10**12), Y_l2=(1.0,))),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_sigma,
            _grid(_product(epsilon=_EPS, delta=_DELTA, T=(1000, 10**12), N=(2, 256), Y_l2=(1.0,))),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_sigma_strict,
            _grid(
                _product(
                    epsilon=(1e-3, 1.0),
                    delta=_DELTA,
                    T=(1000, 10**12),
                    N=(2, 256),
                    Y_l2_radius=(1.0,),
                    Y_l2_diameter=(2.0,),
                    view=("actions", "prefix_sums"),
                )
            ),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # sensitivity / mu*, mu* by Brent's method
        ),
        GoldenFunction(
            p,
            as_thm.thm35_regret_bound_paper,
            _grid(
                _product(sigma=(1.0, 1e4), N=(2, 256), T=(1000, 10**12), X_l2=(1.0,), Y_l2=(1.0,))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_regret_bound_certified,
            _grid(
                _product(sigma=(1.0, 1e4), N=(2, 256), T=(1000, 10**12), X_l2=(1.0,), Y_l2=(1.0,))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma42_laplace_scale,
            _grid(
                _product(
                    epsilon=_EPS, B=(1.0, 2.0), Delta_B=(1.0, 2.0), calibration=("strict", "paper")
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma42_effective_epsilon,
            _grid(_product(scale=(1e-3, 1.0, 1e3), Delta_B=(1.0, 2.0))),
        ),
        GoldenFunction(
            p,
            as_thm.lemma43_cross_term,
            _grid(
                {
                    "noise": _arr([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]]),
                    "actions": _arr([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]),
                    "comparator": _arr([0.0, 1.0]),
                }
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma44_regret_bound,
            _grid(
                _product(
                    gamma=(0.01, 0.5),
                    T=(1000, 10**12),
                    N=(2, 256),
                    eta=(1e-4, 0.1),
                    second_moment_sum=(10.0, 1e6),
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma44_condition_holds,
            _grid(
                _product(
                    eta=(1e-4, 0.1), gamma=(0.01, 0.5), N=(2, 256), feedback_bound=(1.0, 100.0)
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.factC1_threshold,
            _grid(_product(scale=(1.0, 1e3), N=(2, 256), T=(1000, 10**12))),
        ),
        GoldenFunction(
            p,
            as_thm.factC1_tail_probability,
            _grid(_product(N=(2, 256), T=(1000, 10**12))),
            small_values="-expm1(N log1p(-p)): the tail computed without cancellation",
        ),
        GoldenFunction(
            p,
            as_thm.factC1_bound,
            _grid(_product(T=(1, 1000, 10**12, 0))),
            small_values="1/T**2: " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm41_parameters,
            _grid(
                [
                    dict(c, preset=pr, calibration=cal, loss_range=lr)
                    for c in mab
                    for pr in ("paper", "proof_consistent")
                    for cal in ("strict", "paper")
                    for lr in ("01", "sym")
                    if c["epsilon"] in (1e-3, 1.0)
                    or (pr, cal, lr) == ("proof_consistent", "strict", "01")
                ]
            ),
            small_values="eta = sqrt(log N/(N T ...)): " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm41_regret_bound_proof_consistent,
            _grid(_product(N=(2, 256), T=(1000, 10**12), scale=(1.0, 1e3))),
        ),
        GoldenFunction(
            p,
            as_thm.thm41_regret_expression_paper,
            _grid(
                _product(
                    N=(2, 256), T=(1000, 10**12), eta=(1e-4,), gamma=(0.01, 0.5), scale=(1.0, 1e3)
                )
            ),
        ),
        GoldenFunction(p, as_thm.thm41_rate_paper, _grid(mab)),
        GoldenFunction(
            p,
            as_thm.thm45_parameters,
            _grid(
                [
                    dict(c, **blo_shape, preset=pr, calibration=cal)
                    for c in blo
                    for pr in ("paper", "clipped")
                    for cal in ("strict", "paper")
                ]
            ),
            small_values="eta = sqrt(nu log T/(2 N^2 T ...)): " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm45_regret_bound_certified,
            _grid(
                _product(
                    N=(2, 256),
                    T=(1000, 10**12),
                    nu=(1.0,),
                    M=(1.0,),
                    X_l2=(1.0,),
                    scale=(1.0, 1e3),
                    eta=(1e-10, 1e-7, 0.1),
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.thm45_regret_expression_paper,
            _grid(
                _product(
                    N=(2, 256),
                    T=(1000, 10**12),
                    nu=(1.0,),
                    M=(1.0,),
                    X_l2=(1.0,),
                    scale=(1.0, 1e3),
                    eta=(1e-4, 0.1),
                )
            ),
        ),
        GoldenFunction(p, as_thm.thm45_rate_paper, _grid([dict(c, **blo_shape) for c in blo])),
    ]


def registry() -> tuple[GoldenFunction, ...]:
    """Every golden function, paper by paper (the order of the files)."""
    return (
        *_shariff_sheffet_entries(),
        *_sajed_sheffet_entries(),
        *_zhou_tan_entries(),
        *_agarwal_singh_entries(),
        *_tree_entries(),
    )


# ------------------------------------------------------------------------------------------------
# Randomised parts: samplers (one replicate each) and their summaries
# ------------------------------------------------------------------------------------------------


def _sample_tree_release_noise(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Noise of the release after ``count`` zero leaves of a Laplace :class:`~reference.tree.TreeAggregator`,
    padded (``pad="fresh"``: ``m`` terms) and bare (``pad="none"``: ``popcount(count)`` terms)."""
    out: dict[str, float] = {}
    for pad, child in zip(("fresh", "none"), rng.spawn(2), strict=True):
        agg = tree.TreeAggregator(
            params["n"],
            LaplaceNoise((1,), params["scale"]),
            child,
            pad=pad,  # type: ignore[arg-type]
        )
        for _ in range(params["count"]):
            agg.insert(np.zeros(1))
        out[f"noise_{pad}"] = float(agg.release().noise[0])
    return out


def _sample_wishart_node_noise(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Extreme eigenvalues and trace of one Wishart node noise ``W_p(scale·I, k)`` (Sec. 4.1)."""
    noise = WishartNoise(params["dim"], params["degrees_of_freedom"], params["scale"])
    draw = noise.sample(rng)
    eigenvalues = np.linalg.eigvalsh(draw)
    return {
        "lambda_min": float(eigenvalues[0]),
        "lambda_max": float(eigenvalues[-1]),
        "trace": float(np.trace(draw)),
    }


def _sample_dp_nas(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Halting time and estimate of DP-NAS (Sajed & Sheffet Alg. 1) on the two-point law of mean ``μ``."""
    data_rng, noise_rng = rng.spawn(2)
    source = SampleStream.from_distribution(
        TwoPointDistribution(params["range_R"], params["mu"]), data_rng
    )
    result = dp_nas(
        source,
        range_R=params["range_R"],
        alpha=params["alpha"],
        beta=params["beta"],
        epsilon=params["epsilon"],
        rng=noise_rng,
        t_max=params["t_max"],
    )
    if result.halting_time is None or result.estimate is None:
        return {"halted": 0.0, "halting_time": float(params["t_max"]), "estimate": math.nan}
    return {"halted": 1.0, "halting_time": float(result.halting_time), "estimate": result.estimate}


def _sample_padded_aggregation(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Noise of ``L̃_t`` after ``t`` zero losses of Agarwal & Singh's padded TreeBasedAgg (Alg. 2)."""
    agg = as_agg.TreeBasedAggregation(params["T"], LaplaceNoise((1,), params["scale"]), rng)
    release = agg.release()
    for _ in range(params["t"]):
        release = agg.step(np.zeros(1))
    return {"noise": float(release.noise[0])}


def _sample_ctl(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """One CTL(ϵ) privatised reward (Zhou & Tan, Curator 1) of the fixed reward ``y``."""
    ldp = zt_mech.LDPParams(eps=params["eps"], B=params["B"], R=params["R"])
    return {"reward": float(zt_mech.ctl_privatize(np.array([params["y"]]), ldp, rng)[0])}


def summaries() -> tuple[GoldenSummary, ...]:
    """The randomised parts summarised in the golden files (small samples: < 5 s in total)."""
    return (
        GoldenSummary(
            "shariff_sheffet",
            "wishart_node_noise",
            "reference.noise",
            _sample_wishart_node_noise,
            {"dim": 3, "degrees_of_freedom": 10, "scale": 2.0},
            samples=2000,
            seed=20261,
            check_seed=120261,
            continuous=("lambda_min", "lambda_max", "trace"),
        ),
        GoldenSummary(
            "sajed_sheffet",
            "dp_nas_halting",
            "reference.sajed_sheffet.stopping",
            _sample_dp_nas,
            {
                "range_R": 1.0,
                "mu": 0.9,
                "alpha": 0.5,
                "beta": 0.05,
                "epsilon": 10.0,
                "t_max": 100_000,
            },
            samples=40,
            seed=20262,
            check_seed=120262,
            continuous=("estimate",),
        ),
        GoldenSummary(
            "zhou_tan",
            "ctl_privatized_reward",
            "reference.zhou_tan.mechanism",
            _sample_ctl,
            {"y": 0.3, "eps": 1.0, "B": 1.0, "R": 0.5},
            samples=2000,
            seed=20263,
            check_seed=120263,
            continuous=("reward",),
        ),
        GoldenSummary(
            "agarwal_singh",
            "padded_aggregation_noise",
            "reference.agarwal_singh.aggregation",
            _sample_padded_aggregation,
            {"T": 8, "t": 5, "scale": 1.0},
            samples=1000,
            seed=20264,
            check_seed=120264,
            continuous=("noise",),
        ),
        GoldenSummary(
            "tree",
            "tree_release_noise",
            "reference.tree",
            _sample_tree_release_noise,
            {"n": 8, "count": 5, "scale": 1.0},
            samples=1000,
            seed=20265,
            check_seed=120265,
            continuous=("noise_fresh", "noise_none"),
        ),
    )


def _quantile_with_se(sorted_x: FloatArray, q: float) -> tuple[float, float]:
    """``q``-quantile and its order-statistic standard error ``(x₍ₖ₊₎ − x₍ₖ₋₎)/4``, ``k± = nq ± 2√(nq(1−q))``.

    The binomial count of samples below the ``q``-quantile has standard deviation ``√(nq(1−q))``,
    so ``[x₍ₖ₋₎, x₍ₖ₊₎]`` is a ±2-standard-error band of the quantile (distribution-free).
    """
    n = sorted_x.size
    value = float(np.quantile(sorted_x, q))
    half = 2.0 * math.sqrt(n * q * (1.0 - q))
    lo = min(max(math.floor(n * q - half), 0), n - 1)
    hi = min(max(math.ceil(n * q + half), 0), n - 1)
    return value, float(sorted_x[hi] - sorted_x[lo]) / 4.0


def summarize_samples(x: FloatArray, *, quantiles: bool) -> dict[str, dict[str, float]]:
    """Mean, variance (and quantiles :data:`QUANTILES`) of ``x`` with Monte-Carlo standard errors."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n < 2:
        raise ValueError(f"need at least 2 samples, got {n}")
    mean = float(np.mean(x))
    var = float(np.var(x, ddof=1))
    m4 = float(np.mean((x - mean) ** 4))
    out = {
        "mean": {"value": mean, "se": math.sqrt(var / n)},
        "variance": {"value": var, "se": math.sqrt(max(m4 - var**2, 0.0) / n)},
    }
    if quantiles:
        sorted_x = np.sort(x)
        for q in QUANTILES:
            value, se = _quantile_with_se(sorted_x, q)
            out[f"q{q}"] = {"value": value, "se": se}
    return out


def _run_summary(entry: GoldenSummary, seed: int) -> dict[str, dict[str, dict[str, float]]]:
    children = as_seed_sequence(seed).spawn(entry.samples)
    draws = [entry.sampler(entry.parameters, np.random.default_rng(c)) for c in children]
    names = list(draws[0])
    return {
        name: summarize_samples(
            np.array([d[name] for d in draws]), quantiles=name in entry.continuous
        )
        for name in names
    }


# ------------------------------------------------------------------------------------------------
# Build and check
# ------------------------------------------------------------------------------------------------


def _encode_params(params: Params) -> Params:
    return {k: encode_value(v) for k, v in params.items()}


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


def _case_record(entry: GoldenFunction, params: Params) -> dict[str, JSON]:
    encoded = _encode_params(params)
    output, caught = evaluate_case(entry, encoded)
    record: dict[str, JSON] = {"parameters": encoded, "output": output}
    if caught:
        record["warnings"] = caught
    atol = case_atol(entry, encoded)
    if atol is not None and not (isinstance(output, dict) and "raises" in output):
        record["atol"] = atol
    return record


def build_paper(paper: str) -> dict[str, JSON]:
    """The golden document of ``paper`` computed from the current code."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {PAPERS}, got {paper!r}")
    functions = [
        {
            "function": entry.name,
            "module": entry.module,
            "tolerance": entry.tolerance,
            "cases": [_case_record(entry, params) for params in entry.grid],
        }
        for entry in registry()
        if entry.paper == paper
    ]
    summary_records = [
        {
            "name": s.name,
            "module": s.module,
            "sampler": f"{_module_name(s.sampler)}.{s.sampler.__qualname__}",
            "parameters": _encode_params(s.parameters),
            "samples": s.samples,
            "seed": s.seed,
            "check_seed": s.check_seed,
            "sigma_limit": SIGMA_LIMIT,
            "tolerance": s.tolerance,
            "statistics": _run_summary(s, s.seed),
        }
        for s in summaries()
        if s.paper == paper
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "paper": paper,
        "generator": "audit.tools.golden",
        "default_tolerance": {"rtol": DEFAULT_RTOL, "atol": DEFAULT_ATOL},
        "functions": functions,
        "summaries": summary_records,
    }


def _compact(value: JSON) -> str:
    return json.dumps(value, allow_nan=False, ensure_ascii=False, separators=(", ", ": "))


def dumps(document: dict[str, JSON]) -> str:
    """Serialise a golden document: one case per line (readable diffs), no NaN literals.

    ``json.loads(dumps(doc)) == doc``; floats are written by ``float.__repr__`` (exact round trip).
    """
    lines = ["{"]
    for key, value in document.items():
        if key not in ("functions", "summaries"):
            lines.append(f" {_compact(key)}: {_compact(value)},")
    lines.append(' "functions": [')
    functions = document["functions"]
    for i, fn in enumerate(functions):
        lines.append("  {")
        for key, value in fn.items():
            if key != "cases":
                lines.append(f"   {_compact(key)}: {_compact(value)},")
        lines.append('   "cases": [')
        cases = fn["cases"]
        lines.extend(
            f"    {_compact(case)}{',' if j < len(cases) - 1 else ''}"
            for j, case in enumerate(cases)
        )
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(functions) - 1 else ""))
    lines.append(" ],")
    summary_text = json.dumps(
        document["summaries"], indent=1, allow_nan=False, ensure_ascii=False
    ).replace("\n", "\n ")
    lines.append(f' "summaries": {summary_text}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def build_vectors(directory: Path = VECTORS_DIR, papers: Sequence[str] = PAPERS) -> list[Path]:
    """Write ``<directory>/<paper>.json`` for every paper; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for paper in papers:
        path = directory / f"{paper}.json"
        atomic_write_text(path, dumps(build_paper(paper)))
        written.append(path)
    return written


def _number_ok(value: JSON) -> bool:
    return (
        isinstance(value, float | int)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _tolerance_errors(where: str, tol: JSON, *, allowed: set[str]) -> list[str]:
    """Problems of a tolerance object ``{rtol, atol[, reason]…}`` (keys beyond ``allowed`` refused)."""
    if not isinstance(tol, dict) or not {"rtol", "atol"} <= set(tol) <= allowed:
        keys = ", ".join(sorted(allowed - {"rtol", "atol"}))
        return [f"{where} must be {{rtol, atol[, {keys}]}}, got {tol!r}"]
    errors = [
        f"{where}.{k} must be a finite number >= 0, got {tol[k]!r}"
        for k in ("rtol", "atol")
        if not _number_ok(tol[k])
    ]
    if "reason" in tol and not (isinstance(tol["reason"], str) and tol["reason"]):
        errors.append(f"{where}.reason must be a non-empty string")
    if "integers" in tol and tol["integers"] is not True:
        errors.append(f"{where}.integers must be true when present")
    return errors


def schema_errors(document: JSON) -> list[str]:
    """Structural problems of a golden document (empty when it follows the schema)."""
    errors: list[str] = []
    if not isinstance(document, dict):
        return ["document is not a JSON object"]
    if document.get("schema_version") != SCHEMA_VERSION:
        errors.append(
            f"schema_version must be {SCHEMA_VERSION}, got {document.get('schema_version')!r}"
        )
    for key in ("paper", "default_tolerance", "functions", "summaries"):
        if key not in document:
            errors.append(f"missing key {key!r}")
    for i, fn in enumerate(document.get("functions", [])):
        for key in ("function", "module", "tolerance", "cases"):
            if key not in fn:
                errors.append(f"functions[{i}] misses {key!r}")
        tol = fn.get("tolerance", {})
        where = f"functions[{i}].tolerance"
        tol_errors = _tolerance_errors(where, tol, allowed={"rtol", "atol", "reason", "outputs"})
        errors.extend(tol_errors)
        if not tol_errors:
            default = tol["rtol"] == DEFAULT_RTOL and tol["atol"] == DEFAULT_ATOL
            stated_per_case = any("atol" in case for case in fn.get("cases", []))
            if (not default or stated_per_case) and not tol.get("reason"):
                errors.append(f"{where} departs from the default without a reason")
            rules = tol.get("outputs", {})
            if not isinstance(rules, dict) or ("outputs" in tol and not rules):
                errors.append(f"{where}.outputs must be a non-empty object of output paths")
            else:
                for path, rule in rules.items():
                    rule_where = f"{where}.outputs[{path!r}]"
                    allowed = {"rtol", "atol", "reason", "integers"}
                    errors.extend(_tolerance_errors(rule_where, rule, allowed=allowed))
                    if isinstance(rule, dict) and not rule.get("reason"):
                        errors.append(f"{rule_where} has no reason")
        for j, case in enumerate(fn.get("cases", [])):
            if set(case) - {"parameters", "output", "warnings", "atol"} or not {
                "parameters",
                "output",
            } <= set(case):
                errors.append(f"functions[{i}].cases[{j}] has keys {sorted(case)}")
            if "atol" in case and not (_number_ok(case["atol"]) and case["atol"] > 0):
                errors.append(
                    f"functions[{i}].cases[{j}].atol must be a finite number > 0, "
                    f"got {case['atol']!r}"
                )
    for i, s in enumerate(document.get("summaries", [])):
        for key in (
            "name",
            "module",
            "parameters",
            "samples",
            "seed",
            "check_seed",
            "sigma_limit",
            "tolerance",
            "statistics",
        ):
            if key not in s:
                errors.append(f"summaries[{i}] misses {key!r}")
        if "tolerance" in s:
            tol = s["tolerance"]
            where = f"summaries[{i}].tolerance"
            tol_errors = _tolerance_errors(where, tol, allowed={"rtol", "atol", "reason"})
            errors.extend(tol_errors)
            if not tol_errors and tol["atol"] > 0 and not tol.get("reason"):
                errors.append(f"{where} has atol > 0 without a reason")
    return errors


def _check_function(paper: str, entry: GoldenFunction, stored: dict[str, JSON]) -> list[Mismatch]:
    out: list[Mismatch] = []
    cases = stored["cases"]
    expected_params = [_encode_params(p) for p in entry.grid]
    stored_params = [c["parameters"] for c in cases]
    if stored_params != expected_params:
        out.append(
            Mismatch(paper, entry.key, None, "parameter grid differs from the registry (rebuild)")
        )
    tol = stored["tolerance"]
    if tol != entry.tolerance:
        out.append(
            Mismatch(
                paper,
                entry.key,
                None,
                f"tolerance {tol} differs from the registry's {entry.tolerance} (rebuild)",
            )
        )
    rules: dict[str, JSON] = tol.get("outputs", {})
    unmatched = set(rules) - {p for case in cases for p in output_paths(case["output"])}
    if unmatched:
        out.append(
            Mismatch(
                paper,
                entry.key,
                None,
                f"tolerance.outputs names paths that no case has: {sorted(unmatched)}",
            )
        )
    rtol = float(tol["rtol"])
    for i, case in enumerate(cases):
        atol = float(case.get("atol", tol["atol"]))
        output, caught = evaluate_case(entry, case["parameters"])
        diffs = compare_values(case["output"], output, rtol=rtol, atol=atol, outputs=rules)
        if case.get("warnings", []) != caught:
            diffs.append(f"warnings: expected {case.get('warnings', [])}, got {caught}")
        raised = isinstance(case["output"], dict) and "raises" in case["output"]
        registry_atol = None if raised else case_atol(entry, case["parameters"])
        # the case's atol is computed from its parameters with scipy: equal to within round-off
        if ("atol" in case or registry_atol is not None) and (
            registry_atol is None
            or not _numbers_match(float(case.get("atol", 0.0)), registry_atol, 1e-6, 0.0)
        ):
            diffs.append(
                f"atol: the case states {case.get('atol')!r}, the registry "
                f"{registry_atol!r} (rebuild)"
            )
        if diffs:
            out.append(Mismatch(paper, entry.key, i, "; ".join(diffs), case["parameters"]))
    return out


def _check_summary(paper: str, entry: GoldenSummary, stored: dict[str, JSON]) -> list[Mismatch]:
    out: list[Mismatch] = []
    name = f"summary {entry.name}"
    if stored["parameters"] != _encode_params(entry.parameters) or (
        stored["samples"],
        stored["seed"],
        stored["check_seed"],
    ) != (entry.samples, entry.seed, entry.check_seed):
        out.append(
            Mismatch(paper, name, None, "summary settings differ from the registry (rebuild)")
        )
        return out
    tol = stored["tolerance"]
    if tol != entry.tolerance:
        out.append(
            Mismatch(
                paper,
                name,
                None,
                f"tolerance {tol} differs from the registry's {entry.tolerance} (rebuild)",
            )
        )
    same = _run_summary(entry, entry.seed)
    diffs = compare_values(
        stored["statistics"],
        same,
        rtol=float(tol["rtol"]),
        atol=float(tol["atol"]),
        root="statistics",
    )
    if diffs:
        out.append(Mismatch(paper, name, None, "same seed, different summary: " + "; ".join(diffs)))
    fresh = _run_summary(entry, entry.check_seed)
    limit = float(stored["sigma_limit"])
    for stat, moments in stored["statistics"].items():
        for moment, rec in moments.items():
            new = fresh.get(stat, {}).get(moment)
            if new is None:
                out.append(Mismatch(paper, name, None, f"{stat}.{moment} missing in a fresh run"))
                continue
            se = math.hypot(rec["se"], new["se"])
            if not abs(new["value"] - rec["value"]) <= limit * se:
                out.append(
                    Mismatch(
                        paper,
                        name,
                        None,
                        f"fresh seed {entry.check_seed}: {stat}.{moment} = {new['value']!r} vs stored "
                        f"{rec['value']!r}, beyond {limit} standard errors ({se!r})",
                    )
                )
    return out


def check_paper(paper: str, directory: Path = VECTORS_DIR) -> list[Mismatch]:
    """Recompute ``paper``'s golden file in ``directory``; return the disagreements."""
    path = directory / f"{paper}.json"
    if not path.exists():
        return [Mismatch(paper, str(path), None, "golden file missing (run with --rebuild)")]
    try:
        document = read_json(path)
    except DamagedFileError as err:
        return [Mismatch(paper, str(path), None, str(err))]
    errors = schema_errors(document)
    if errors:
        return [Mismatch(paper, str(path), None, "schema: " + e) for e in errors]
    out: list[Mismatch] = []
    stored_fns = {f"{f['module']}:{f['function']}": f for f in document["functions"]}
    entries = [e for e in registry() if e.paper == paper]
    for entry in entries:
        if entry.key not in stored_fns:
            out.append(Mismatch(paper, entry.key, None, "not in the golden file (rebuild)"))
            continue
        out.extend(_check_function(paper, entry, stored_fns[entry.key]))
    for key in sorted(set(stored_fns) - {e.key for e in entries}):
        out.append(Mismatch(paper, key, None, "in the golden file but no longer registered"))
    stored_sums = {s["name"]: s for s in document["summaries"]}
    sums = [s for s in summaries() if s.paper == paper]
    for s in sums:
        if s.name not in stored_sums:
            out.append(Mismatch(paper, f"summary {s.name}", None, "not in the golden file"))
            continue
        out.extend(_check_summary(paper, s, stored_sums[s.name]))
    for name in sorted(set(stored_sums) - {s.name for s in sums}):
        out.append(
            Mismatch(paper, f"summary {name}", None, "in the golden file but no longer registered")
        )
    return out


def check_vectors(directory: Path = VECTORS_DIR, papers: Sequence[str] = PAPERS) -> list[Mismatch]:
    """:func:`check_paper` for every paper."""
    return [m for paper in papers for m in check_paper(paper, directory)]


def main(argv: Sequence[str] | None = None) -> int:
    """``privonline golden [--rebuild] [--dir DIR] [--paper P ...]``: exit 1 on a mismatch."""
    parser = argparse.ArgumentParser(
        prog="privonline golden",
        description="Check (default) or rebuild (--rebuild) the golden vectors of every paper.",
    )
    parser.add_argument("--rebuild", action="store_true", help="rewrite the files from the code")
    parser.add_argument(
        "--dir", type=Path, default=VECTORS_DIR, help="golden folder (default: the package's)"
    )
    parser.add_argument(
        "--paper", action="append", choices=PAPERS, help="restrict to a paper (repeatable)"
    )
    args = parser.parse_args(argv)
    papers = tuple(args.paper or PAPERS)
    if args.rebuild:
        for path in build_vectors(args.dir, papers):
            print(f"wrote {path}")
        return 0
    mismatches = check_vectors(args.dir, papers)
    for m in mismatches:
        print(m, file=sys.stderr)
    total = sum(len(e.grid) for e in registry() if e.paper in papers)
    print(
        f"golden vectors: {total} cases, {sum(s.paper in papers for s in summaries())} summaries, "
        f"{len(mismatches)} mismatch(es)"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    raise SystemExit(main())
