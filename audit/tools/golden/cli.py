"""Golden vectors: the registry (:func:`registry`, the papers' entries in the order of the files),
building and checking the files, and the command line ``privonline golden``.

The schema is described in the proof note (golden vectors).

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import audit.papers as paper_registry
from audit.tools.golden.codec import JSON, Params, encode_value
from audit.tools.golden.compare import (
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    SIGMA_LIMIT,
    Mismatch,
    _numbers_match,
    case_tolerance,
    compare_values,
    output_paths,
)
from audit.tools.golden.entries import GoldenFunction, _module_name, case_atol, evaluate_case
from audit.tools.golden.randomised import GoldenSummary, _run_summary, summaries
from reference.files import (
    DamagedFileError,
    atomic_write_text,
    prepare_output_dir,
    read_json,
)

__all__ = [
    "PAPERS",
    "SCHEMA_VERSION",
    "VECTORS_DIR",
    "build_paper",
    "build_vectors",
    "check_paper",
    "check_vectors",
    "dumps",
    "main",
    "registry",
    "schema_errors",
]


SCHEMA_VERSION = 2
PAPERS = (*(paper.id for paper in paper_registry.PAPERS), "tree")
"""The golden files: one per paper of the registry (:mod:`audit.papers`), in its order, and
``tree`` for the shared tree mechanism of :mod:`reference.tree`."""
VECTORS_DIR = Path(__file__).resolve().parent.parent / "golden_vectors"


def registry() -> tuple[GoldenFunction, ...]:
    """Every golden function, paper by paper (the order of the files): the entries of each
    registered paper's ``golden.py`` (``<paper>_entries()``; a paper may have none), then the
    shared tree's."""
    # imported here: each paper's entries module imports this package (audit.tools.golden.entries)
    from audit.tools.golden.tree import tree_entries

    out: list[GoldenFunction] = []
    for paper in paper_registry.PAPERS:
        if importlib.util.find_spec(f"{paper.package}.golden") is None:
            continue
        out += getattr(paper.module("golden"), f"{paper.id}_entries")()
    return (*out, *tree_entries())


# ------------------------------------------------------------------------------------------------
# Build and check
# ------------------------------------------------------------------------------------------------


def _encode_params(params: Params) -> Params:
    return {k: encode_value(v) for k, v in params.items()}


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


def _tolerance_mismatch(paper: str, name: str, stored: JSON, registry: JSON) -> list[Mismatch]:
    """The mismatch of an entry whose stored tolerance is not the registry's (none if equal)."""
    if stored == registry:
        return []
    return [
        Mismatch(
            paper,
            name,
            None,
            f"tolerance {stored} differs from the registry's {registry} (rebuild)",
        )
    ]


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
    out += _tolerance_mismatch(paper, entry.key, tol, entry.tolerance)
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
    for i, case in enumerate(cases):
        rtol, atol, rules = case_tolerance(tol, case)
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
    out += _tolerance_mismatch(paper, name, tol, entry.tolerance)
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
        epilog="privonline golden compare MODULE:FUNCTION --entry NAME compares a third-party "
        "function with an entry's cases ('privonline golden compare --help').",
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
    try:  # a file is no golden folder: refused before anything is read or written
        if args.rebuild:
            prepare_output_dir(args.dir, "--dir")
        elif not args.dir.is_dir():
            raise ValueError(f"--dir must be a folder of golden vectors, got {str(args.dir)!r}")
    except ValueError as err:
        parser.error(str(err))
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
