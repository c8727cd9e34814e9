"""Golden vectors against a third-party function: :func:`golden_compare` calls it on every stored
case of an entry (arguments by name, optionally renamed) and compares what it returns with the
stored output by the entry's own tolerance (:func:`~audit.tools.golden.compare.compare_values`);
``privonline golden compare MODULE:FUNCTION --entry NAME`` (:func:`main`) prints the report.

Only deterministic entries are compared: a randomised summary is refused (its statistics are of
privonline's own sampler and random stream).  Schema, rename direction and exit codes: the note.

Proof note: ``proofs_notes/audit/golden_schema.md``.
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import json
import sys
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from audit.results import SCHEMA_VERSION
from audit.tools.golden.cli import PAPERS, VECTORS_DIR
from audit.tools.golden.codec import JSON, Params, decode_value, encode_value
from audit.tools.golden.compare import case_tolerance, compare_values
from reference.files import write_json
from reference.validation import check_callable

__all__ = [
    "CaseCrash",
    "CaseMismatch",
    "GoldenComparison",
    "build_parser",
    "entry_names",
    "golden_compare",
    "main",
]

_SHOWN_IN_SUMMARY = 3


@dataclass(frozen=True)
class CaseMismatch:
    """A case on which the function's result disagrees with the stored output.

    ``parameters`` are the case's stored (golden) parameters and ``arguments`` the keyword
    arguments the function got (renamed); ``expected`` and ``got`` are encoded as in the golden
    files; ``rtol``/``atol`` the case's tolerance and ``tolerance_reason`` why it departs from the
    default (empty when it does not); ``reasons`` say where and by how much the two differ.
    """

    case: int
    parameters: Params
    arguments: Params
    expected: JSON
    got: JSON
    rtol: float
    atol: float
    tolerance_reason: str
    reasons: tuple[str, ...]

    def __str__(self) -> str:
        tolerance = f"rtol={self.rtol!r}, atol={self.atol!r}"
        if self.tolerance_reason:
            tolerance += f" ({self.tolerance_reason})"
        return "\n".join(
            [
                f"case {self.case} {_compact(self.arguments)}",
                f"  expected  {_compact(self.expected, 300)}",
                f"  got       {_compact(self.got, 300)}",
                f"  tolerance {tolerance}",
                *(f"  reason    {reason}" for reason in self.reasons),
            ]
        )


@dataclass(frozen=True)
class CaseCrash:
    """A case on which the function raised where a value was expected: ``error`` is the
    exception's last line, ``traceback`` the whole of it."""

    case: int
    parameters: Params
    arguments: Params
    expected: JSON
    error: str
    traceback: str

    def __str__(self) -> str:
        return (
            f"case {self.case} {_compact(self.arguments)}: the function raised {self.error} "
            f"where {_compact(self.expected, 120)} was expected"
        )


@dataclass(frozen=True)
class GoldenComparison:
    """The outcome of :func:`golden_compare`: ``cases`` compared, of which the ``mismatches``
    disagree and the ``crashes`` raised; ``entry`` is the golden ``module:function`` and ``paper``
    its file, ``rename`` the ``(theirs, ours)`` pairs."""

    function: str
    entry: str
    paper: str
    rename: tuple[tuple[str, str], ...]
    cases: int
    mismatches: tuple[CaseMismatch, ...]
    crashes: tuple[CaseCrash, ...]

    @property
    def agree(self) -> bool:
        """Whether every case agrees (no mismatch, no crash)."""
        return not self.mismatches and not self.crashes

    @property
    def agreeing(self) -> int:
        """The number of cases that agree."""
        return self.cases - len(self.mismatches) - len(self.crashes)

    @property
    def exit_code(self) -> int:
        """``privonline golden compare``'s exit code: 4 if the function raised, else 1 on a
        mismatch, else 0."""
        return 4 if self.crashes else 1 if self.mismatches else 0

    def summary(self) -> str:
        """The line "N of M cases agree" (with what was compared), then the first few mismatches
        and crashes, one line each."""
        renamed = ", ".join(f"{theirs}={ours}" for theirs, ours in self.rename)
        lines = [
            f"{self.function} against the golden cases of {self.entry} ({self.paper}.json"
            + (f", renamed {renamed}" if renamed else "")
            + f"): {self.agreeing} of {self.cases} cases agree"
        ]
        if self.crashes:
            lines.append(f"{len(self.crashes)} case(s) raised; first: {self.crashes[0]}")
        for m in self.mismatches[:_SHOWN_IN_SUMMARY]:
            lines.append(f"case {m.case} {_compact(m.arguments)}: {'; '.join(m.reasons)}")
        if len(self.mismatches) > _SHOWN_IN_SUMMARY:
            lines.append(f"... and {len(self.mismatches) - _SHOWN_IN_SUMMARY} more mismatch(es)")
        return "\n".join(lines)

    def report(self) -> str:
        """The full report: every mismatch (arguments, expected, got, tolerance, reasons), every
        crash (the first with its traceback), then the summary line."""
        lines = [str(m) for m in self.mismatches]
        for i, crash in enumerate(self.crashes):
            lines.append(str(crash))
            if i == 0:
                lines.append(crash.traceback.rstrip())
        lines.append(self.summary().splitlines()[0])
        return "\n".join(lines)

    def to_dict(self) -> dict[str, JSON]:
        """JSON-ready report (``--json``)."""
        return {
            "schema_version": SCHEMA_VERSION,
            "kind": "golden_comparison",
            "function": self.function,
            "entry": self.entry,
            "paper": self.paper,
            "rename": dict(self.rename),
            "cases": self.cases,
            "agreeing": self.agreeing,
            "exit_code": self.exit_code,
            "mismatches": [vars(m) | {"reasons": list(m.reasons)} for m in self.mismatches],
            "crashes": [vars(c) for c in self.crashes],
        }


def _compact(value: JSON, limit: int = 0) -> str:
    text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    return text if not limit or len(text) <= limit else text[: limit - 3] + "..."


# ------------------------------------------------------------------------------------------------
# The stored entries
# ------------------------------------------------------------------------------------------------


@cache
def _documents() -> tuple[dict[str, JSON], ...]:
    """The package's golden files (read once; never handed out)."""
    return tuple(json.loads((VECTORS_DIR / f"{p}.json").read_text("utf-8")) for p in PAPERS)


def entry_names() -> tuple[tuple[str, str, int, tuple[str, ...]], ...]:
    """``(paper, module:function, number of cases, parameter names)`` of every deterministic
    golden entry, in the order of the files."""
    return tuple(
        (doc["paper"], f"{fn['module']}:{fn['function']}", len(fn["cases"]), _parameters(fn))
        for doc in _documents()
        for fn in doc["functions"]
    )


def _parameters(fn: Mapping[str, JSON]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(name for case in fn["cases"] for name in case["parameters"]))


def _find_entry(entry: object) -> tuple[str, dict[str, JSON]]:
    """``(paper, stored function record)`` of ``entry`` (``function`` or ``module:function``)."""
    if not isinstance(entry, str):
        raise ValueError(f"entry must be the name of a golden entry (a str), got {entry!r:.80}")
    found, summaries = [], []
    for doc in _documents():
        for fn in doc["functions"]:
            if entry in (fn["function"], f"{fn['module']}:{fn['function']}"):
                found.append((doc["paper"], fn))
        summaries += [(doc["paper"], s) for s in doc["summaries"] if s["name"] == entry]
    if len(found) == 1:
        return found[0]
    if found:
        keys = ", ".join(f"{fn['module']}:{fn['function']}" for _, fn in found)
        raise ValueError(f"entry {entry!r} is ambiguous: name one of {keys}")
    if summaries:
        paper, s = summaries[0]
        raise ValueError(
            f"entry {entry!r} is a randomised summary of {paper}.json, not a function's cases: its "
            f"statistics are those of privonline's own sampler ({s['sampler']}) drawing from "
            "generators spawned from a fixed SeedSequence, and a third-party implementation draws "
            "its own random stream, so neither its same-seed check nor its sampler applies to "
            "your function; golden compare takes the deterministic entries "
            "(privonline golden compare --list)"
        )
    names = [key.split(":")[1] for _, key, _, _ in entry_names()]
    close = difflib.get_close_matches(entry.split(":")[-1], names, n=5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(
        f"entry {entry!r} names no golden entry{hint} (privonline golden compare --list lists "
        f"all {len(names)})"
    )


def _call_names(
    rename: object, parameters: tuple[str, ...], entry: str
) -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    """``{golden parameter: the function's parameter name}`` under ``rename`` (the function's
    name -> the golden name), and the checked ``(theirs, ours)`` pairs."""
    if rename is None:
        rename = {}
    if not isinstance(rename, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in rename.items()
    ):
        raise ValueError(
            "rename must map the function's parameter names to the entry's (a dict of str to "
            f"str), got {rename!r:.80}"
        )
    pairs = tuple(rename.items())
    for theirs, ours in pairs:
        if not theirs.isidentifier():
            raise ValueError(f"rename: {theirs!r} is not a parameter name (an identifier)")
        if ours not in parameters:
            raise ValueError(
                f"rename {theirs}={ours}: {ours!r} names no parameter of {entry} (its "
                f"parameters: {', '.join(parameters)})"
            )
    ours_seen = [ours for _, ours in pairs]
    if len(set(ours_seen)) != len(ours_seen):
        raise ValueError(f"rename gives one parameter of {entry} two names: {dict(pairs)}")
    names = {p: p for p in parameters} | {ours: theirs for theirs, ours in pairs}
    taken = [n for n in names.values()]
    if len(set(taken)) != len(taken):
        raise ValueError(
            f"rename: two parameters of {entry} would both be passed as one argument "
            f"({', '.join(f'{ours} as {theirs}' for ours, theirs in names.items())}); rename "
            "the other one too"
        )
    return names, pairs


def _check_signature(
    function: Callable[..., object],
    fn: Mapping[str, JSON],
    names: Mapping[str, str],
    pairs: tuple[tuple[str, str], ...],
) -> None:
    """Refuse a function whose signature cannot take the entry's arguments (when it has one)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return  # no signature (some builtins): a wrong call shows as a crash of its case
    params = signature.parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    for theirs, ours in pairs:
        if not takes_any and theirs not in params:
            raise ValueError(
                f"rename {theirs}={ours}: the function has no parameter {theirs!r} (its "
                f"signature: {signature})"
            )
    for keys in dict.fromkeys(tuple(case["parameters"]) for case in fn["cases"]):
        try:
            signature.bind(**{names[k]: None for k in keys})
        except TypeError as err:
            raise ValueError(
                f"function {_name(function)}{signature} cannot take the arguments of "
                f"{fn['module']}:{fn['function']} ({', '.join(names[k] for k in keys)}): {err}; "
                "map its parameter names with rename={theirs: ours} (--rename THEIRS=OURS)"
            ) from err


def _name(function: Callable[..., object]) -> str:
    module = getattr(function, "__module__", None)
    name = getattr(function, "__qualname__", None) or repr(function)
    return f"{module}:{name}" if module else str(name)


# ------------------------------------------------------------------------------------------------
# Comparing one case
# ------------------------------------------------------------------------------------------------


def _conform(expected: JSON, value: object) -> JSON:
    """``value`` encoded in the form of the encoded ``expected`` where the two differ only in
    form: a dataclass, named tuple, object or mapping with the expected fields for a dataclass
    (fields beyond them ignored), an array-like for an array (its dtype width aside), an integer
    for a float, a 0-d array for a scalar, any sequence for a list; the values themselves are
    never changed."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and not _is_record(expected, "ndarray"):
        value = value.item()
    if _is_record(expected, "dataclass"):
        fields = expected["fields"]
        try:
            found = {k: _field(value, k) for k in fields}
        except (KeyError, AttributeError, TypeError):
            return encode_value(value)
        conformed = {k: _conform(fields[k], v) for k, v in found.items()}
        return {"dataclass": expected["dataclass"], "fields": conformed}
    if _is_record(expected, "mapping") and isinstance(value, Mapping):
        stored = expected["mapping"]
        return {"mapping": {str(k): _conform(stored.get(str(k)), v) for k, v in value.items()}}
    if _is_record(expected, "ndarray") and isinstance(value, np.ndarray | list | tuple):
        try:
            array = np.asarray(value)
        except ValueError:
            return encode_value(value)
        want = np.dtype(expected["dtype"])
        if array.dtype.kind in "iu" and want.kind == "f":
            array = array.astype(np.float64)
        encoded: dict[str, JSON] = encode_value(array)
        if array.dtype.kind == want.kind or {array.dtype.kind, want.kind} <= {"i", "u"}:
            encoded["dtype"] = expected["dtype"]
        return encoded
    if isinstance(expected, list) and isinstance(value, list | tuple | np.ndarray):
        items = list(value)
        if len(items) == len(expected):
            return [_conform(e, v) for e, v in zip(expected, items, strict=True)]
        return encode_value(items)
    if _is_float(expected) and isinstance(value, int | np.integer) and not isinstance(value, bool):
        return encode_value(float(value))
    return encode_value(value)


def _field(value: object, name: str) -> object:
    return value[name] if isinstance(value, Mapping) else getattr(value, name)


def _is_record(data: JSON, key: str) -> bool:
    return isinstance(data, dict) and key in data


def _is_float(data: JSON) -> bool:
    return isinstance(data, float) or (isinstance(data, dict) and set(data) == {"float"})


def _is_error(data: JSON) -> bool:
    return isinstance(data, dict) and "raises" in data


def _call(function: Callable[..., object], kwargs: Params) -> tuple[object, BaseException | None]:
    """``function(**kwargs)`` with its warnings kept out of the caller's filters (a warning is
    not compared: it would otherwise be an error under ``-W error``)."""
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            return function(**kwargs), None
        except (Exception, SystemExit) as err:
            return None, err


def golden_compare(
    function: Callable[..., object],
    entry: str,
    rename: Mapping[str, str] | None = None,
) -> GoldenComparison:
    """Compare ``function`` with the golden cases of ``entry`` (a golden function's name, e.g.
    ``"wishart_degrees_of_freedom"``, or ``module:function``; ``privonline golden compare --list``).

    Each case's stored parameters are decoded (floats, integers, numpy arrays; an object parameter
    is a ``dict`` of its fields) and passed by name, the function's parameter ``theirs`` getting the
    golden parameter ``ours`` for every ``theirs: ours`` of ``rename``.  A returned value is
    compared with the stored output by the entry's tolerance (the rule of ``privonline golden``);
    where the case stores an error, the function must raise that exception class (or a subclass).
    Raising where a value is stored is a crash of that case.  A bad ``function``, ``entry`` or
    ``rename`` (naming no parameter, or a signature that cannot take the entry's arguments) is a
    ``ValueError`` naming it, raised before any call.
    """
    check_callable("function", function)
    paper, fn = _find_entry(entry)
    key = f"{fn['module']}:{fn['function']}"
    names, pairs = _call_names(rename, _parameters(fn), key)
    _check_signature(function, fn, names, pairs)
    tolerance = fn["tolerance"]
    reason = str(tolerance.get("reason", ""))
    mismatches: list[CaseMismatch] = []
    crashes: list[CaseCrash] = []
    for i, case in enumerate(fn["cases"]):
        parameters, expected = case["parameters"], case["output"]
        arguments = {names[k]: v for k, v in parameters.items()}
        value, error = _call(function, {k: decode_value(v) for k, v in arguments.items()})
        got: JSON
        if error is not None and not _is_error(expected):
            text = traceback.format_exception(error)
            crashes.append(
                CaseCrash(i, parameters, arguments, expected, text[-1].strip(), "".join(text))
            )
            continue
        rtol, atol, rules = case_tolerance(tolerance, case)
        if error is not None:
            got = {"raises": type(error).__name__, "message": str(error)}
            classes = {c.__name__ for c in type(error).__mro__}
            reasons = [] if expected["raises"] in classes else [
                f"raised {type(error).__name__}: {error} where {expected['raises']} expected"
            ]  # fmt: skip
        elif _is_error(expected):
            got = _encoded(value)
            reasons = [
                f"returned {_compact(got, 120)} where {expected['raises']} is raised "
                f"({expected['message']})"
            ]
        else:
            got = _encoded(value, expected)
            reasons = compare_values(expected, got, rtol=rtol, atol=atol, outputs=rules)
        if reasons:
            mismatches.append(
                CaseMismatch(
                    i, parameters, arguments, expected, got, rtol, atol, reason, tuple(reasons)
                )
            )
    return GoldenComparison(
        _name(function), key, paper, pairs, len(fn["cases"]), tuple(mismatches), tuple(crashes)
    )


def _encoded(value: object, expected: JSON = None) -> JSON:
    """``value`` encoded (:func:`_conform`d to ``expected`` when given); a value the schema cannot
    encode becomes ``{"unencodable": <type>, "message": ...}``, which matches no output."""
    try:
        return encode_value(value) if expected is None else _conform(expected, value)
    except TypeError as err:
        return {"unencodable": type(value).__name__, "message": str(err)}


# ------------------------------------------------------------------------------------------------
# Command line
# ------------------------------------------------------------------------------------------------


def _rename_pair(text: str) -> tuple[str, str]:
    theirs, sep, ours = text.partition("=")
    if not sep or not theirs or not ours:
        raise argparse.ArgumentTypeError(
            f"must be THEIRS=OURS (the function's parameter name = the entry's), got {text!r}"
        )
    return theirs, ours


def build_parser(prog: str = "privonline golden compare") -> argparse.ArgumentParser:
    """The options of ``privonline golden compare``."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=(
            "Call a third-party function on every golden case of an entry (arguments by name) "
            "and compare its results with the stored outputs by the entry's tolerance. Exit "
            "code 0: every case agrees; 1: a mismatch; 2: a usage error; 4: the function raised."
        ),
    )
    parser.add_argument(
        "function", nargs="?", metavar="MODULE:FUNCTION", help="the function to compare"
    )
    parser.add_argument("--entry", metavar="NAME", help="the golden entry (see --list)")
    parser.add_argument(
        "--rename",
        action="append",
        type=_rename_pair,
        default=[],
        metavar="THEIRS=OURS",
        help="the function's parameter THEIRS gets the entry's parameter OURS (repeatable)",
    )
    parser.add_argument(
        "--path",
        action="append",
        default=[],
        metavar="DIR",
        help="a folder to import MODULE from (repeatable)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the report as JSON")
    parser.add_argument(
        "--list", action="store_true", help="list the entries and their parameters, and exit"
    )
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "privonline golden compare") -> int:
    """``privonline golden compare MODULE:FUNCTION --entry NAME [--rename THEIRS=OURS ...]
    [--path DIR ...] [--json OUT]``; ``--list`` lists the entries.  Returns the exit code
    (:attr:`GoldenComparison.exit_code`, 2 on a usage error)."""
    from audit.targets import TargetError, load_object, split_spec

    parser = build_parser(prog)
    args = parser.parse_args(argv)
    if args.list:
        for paper, key, cases, parameters in entry_names():
            print(f"{paper:16} {key.split(':')[1]:44} {cases:4} cases  ({', '.join(parameters)})")
        return 0
    if args.function is None or args.entry is None:
        parser.error("MODULE:FUNCTION and --entry NAME are required (or --list)")
    theirs = [t for t, _ in args.rename]
    if len(set(theirs)) != len(theirs):
        parser.error(f"--rename names a parameter of the function twice: {theirs}")
    if args.json is not None and args.json.is_dir():
        parser.error(f"--json must be a file to write, got the folder {str(args.json)!r}")
    try:
        split_spec("MODULE:FUNCTION", args.function)
        function = load_object(args.function, args.path)
        if not callable(function):
            raise ValueError(f"MODULE:FUNCTION {args.function!r} is not callable")
        comparison = golden_compare(function, args.entry, dict(args.rename))
    except TargetError as err:
        print(err.traceback.rstrip(), file=sys.stderr)
        print(f"error: {err}", file=sys.stderr)
        return 4
    except ValueError as err:
        print(f"error: {str(err).replace('rename=', '--rename ')}", file=sys.stderr)
        return 2
    print(comparison.report())
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        write_json(args.json, comparison.to_dict())
    return comparison.exit_code
