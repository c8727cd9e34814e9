"""``privonline golden compare`` and :func:`audit.golden_compare`: a third-party function against the
golden cases of an entry (exit codes 0, 1, 2, 4; rename; hostile results), and the pytest
one-liners of :mod:`audit.testing` (the worked example of ``examples/golden_compare``)."""

from __future__ import annotations

import dataclasses
import json
import math
import textwrap
from collections import namedtuple
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import audit
from audit.cli import main as privonline
from audit.results import SCHEMA_VERSION
from audit.testing import assert_golden
from audit.tools.golden.third_party import GoldenComparison, entry_names, golden_compare
from examples.golden_compare import test_example as example
from reference import tree
from reference.shariff_sheffet import bounds

REPO = str(Path(__file__).resolve().parents[3])
WISHART = "examples.golden_compare.wishart"
BASE = ["--entry", "wishart_degrees_of_freedom", "--path", REPO]
DOF = [*BASE, "--rename", "eps=epsilon"]


def _compare(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``privonline golden compare ARGV``: exit code (argparse's own errors exit), stdout, stderr."""
    try:
        code = privonline(["golden", "compare", *argv])
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _module(tmp_path: Path, name: str, body: str) -> None:
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(body), encoding="utf-8")


# ------------------------------------------------------------------------------------------------
# The worked example, through the command line and through pytest
# ------------------------------------------------------------------------------------------------


def test_the_correct_example_agrees_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _compare(capsys, f"{WISHART}:degrees_of_freedom", *DOF)
    assert code == 0
    assert out.strip().endswith("98 of 98 cases agree")
    assert "renamed eps=epsilon" in out


def test_the_off_by_one_example_is_caught_exit_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "compare.json"
    code, out, _ = _compare(
        capsys, f"{WISHART}:degrees_of_freedom_off_by_one", *DOF, "--json", str(report)
    )
    assert code == 1
    # the five invalid inputs are refused as privonline refuses them; every valid case is one short
    assert out.strip().endswith("5 of 98 cases agree")
    first = out.split("\ncase ")[0]
    assert first.startswith('case 0 {"d": 1, "m": 2, "eps": 0.001, "delta": 1e-10}')
    assert "expected  274137087334" in first and "got       274137087333" in first
    assert "tolerance rtol=1e-12, atol=0.0" in first
    assert "integer 274137087333 where 274137087334 expected" in first
    stored = json.loads(report.read_text(encoding="utf-8"))
    assert stored["kind"] == "golden_comparison" and stored["schema_version"] == SCHEMA_VERSION
    assert (stored["cases"], stored["agreeing"], stored["exit_code"]) == (98, 5, 1)
    assert stored["rename"] == {"eps": "epsilon"}
    assert stored["mismatches"][0]["arguments"]["eps"] == 0.001


def test_the_example_pytest_assertions_run_in_the_suite() -> None:
    example.test_our_degrees_of_freedom_match_the_golden_vectors()
    example.test_the_off_by_one_is_caught()
    example.test_our_mechanism_passes_privonline_check()
    example.test_a_quarter_of_the_noise_fails_privonline_check()


def test_assert_golden_fails_with_the_summary() -> None:
    assert assert_golden(tree.tree_depth, "tree_depth").agree
    with pytest.raises(AssertionError) as caught:
        assert_golden(lambda n: 1, "reference.tree:tree_depth")
    message = str(caught.value)
    assert message.splitlines()[0].endswith("cases agree")
    assert 'case 1 {"n": 2}: output: integer 1 where 2 expected' in message
    assert "more mismatch(es)" in message


def test_privonline_golden_without_a_subcommand_still_checks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert privonline(["golden", "--paper", "tree"]) == 0
    assert "0 mismatch(es)" in capsys.readouterr().out


# ------------------------------------------------------------------------------------------------
# Usage errors (exit 2) and a crashing function (exit 4)
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([f"{WISHART}:degrees_of_freedom", "--entry", "wishart_degrees_of_fredom", "--path", REPO],
         "did you mean wishart_degrees_of_freedom"),
        (["no_colon", "--entry", "tree_depth"], "MODULE:FUNCTION must be 'module:attribute'"),
        (["examples.no_such_module:f", "--entry", "tree_depth", "--path", REPO],
         "cannot be imported"),
        ([f"{WISHART}:no_such_function", *DOF], "has no attribute 'no_such_function'"),
        ([f"{WISHART}:__doc__", *DOF], "is not callable"),
        ([f"{WISHART}:degrees_of_freedom", *BASE, "--rename", "eps=epsilonn"],
         "'epsilonn' names no parameter of reference.shariff_sheffet.bounds:"
         "wishart_degrees_of_freedom (its parameters: d, m, epsilon, delta)"),
        ([f"{WISHART}:degrees_of_freedom", *DOF, "--rename", "k=d"],
         "the function has no parameter 'k'"),
        ([f"{WISHART}:degrees_of_freedom", *BASE], "cannot take the arguments of "
         "reference.shariff_sheffet.bounds:"
         "wishart_degrees_of_freedom (d, m, epsilon, delta)"),
        ([f"{WISHART}:degrees_of_freedom", *DOF, "--rename", "eps"], "must be THEIRS=OURS"),
        ([f"{WISHART}:degrees_of_freedom", *DOF, "--rename", "delta=epsilon"],
         "gives one parameter of reference.shariff_sheffet.bounds:wishart_degrees_of_freedom two "
         "names"),
        ([f"{WISHART}:degrees_of_freedom", *DOF, "--rename", "eps=delta"],
         "--rename names a parameter of the function twice"),
        ([f"{WISHART}:degrees_of_freedom", "--entry", "wishart_node_noise", "--path", REPO],
         "is a randomised summary"),
        ([f"{WISHART}:degrees_of_freedom"], "--entry NAME are required"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = _compare(capsys, *argv)
    assert code == 2 and not out
    assert message in err
    assert "Traceback" not in err


def test_a_function_that_raises_exits_4_with_the_traceback_and_the_case(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _module(
        tmp_path,
        "raising",
        """
        def depth(n):
            if n == 1000:
                raise RuntimeError("no tree that large")
            return 0
        """,
    )
    code, out, _ = _compare(
        capsys, "raising:depth", "--entry", "tree_depth", "--path", str(tmp_path)
    )
    assert code == 4
    assert 'case 8 {"n": 1000}: the function raised RuntimeError: no tree that large' in out
    assert "Traceback (most recent call last)" in out and 'raising.py", line 4' in out


def test_a_module_that_raises_at_import_exits_4(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _module(tmp_path, "broken", "raise RuntimeError('half-installed')\n")
    code, _, err = _compare(capsys, "broken:f", "--entry", "tree_depth", "--path", str(tmp_path))
    assert code == 4
    assert "RuntimeError: half-installed" in err and "Traceback" in err


def test_list_names_every_entry_with_its_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _compare(capsys, "--list")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == len(entry_names()) > 150
    assert any(
        "wishart_degrees_of_freedom" in line and "(d, m, epsilon, delta)" in line for line in lines
    )


# ------------------------------------------------------------------------------------------------
# The Python API: results in another form, hostile results, bad arguments
# ------------------------------------------------------------------------------------------------


def test_the_api_is_exported_and_its_result_is_a_frozen_record() -> None:
    assert audit.golden_compare is golden_compare and "golden_compare" in audit.__all__
    result = audit.golden_compare(bounds.wishart_degrees_of_freedom, "wishart_degrees_of_freedom")
    assert isinstance(result, GoldenComparison) and result.agree and result.exit_code == 0
    assert (result.cases, result.agreeing, result.mismatches, result.crashes) == (98, 98, (), ())
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.cases = 0  # type: ignore[misc]


def test_rename_maps_the_functions_names_onto_the_entrys() -> None:
    def depth(size: int) -> int:
        return tree.tree_depth(size)

    assert golden_compare(depth, "tree_depth", rename={"size": "n"}).agree
    assert golden_compare(depth, "tree_depth", rename={"size": "n"}).rename == (("size", "n"),)


def test_a_result_in_another_form_agrees() -> None:
    # privonline returns a RegularizerBounds dataclass; a dict, a named tuple or another class
    # with the same fields is the same result
    # a field beyond privonline's ("note") is ignored
    Bounds = namedtuple("Bounds", ["rho_min", "rho_max", "gamma", "shift", "note"])

    def as_dict(rho: float) -> dict[str, float]:
        return dataclasses.asdict(bounds.nonprivate_bounds(rho))

    def as_tuple(rho: float) -> Any:
        return Bounds(**dataclasses.asdict(bounds.nonprivate_bounds(rho)), note="mine")

    assert golden_compare(as_dict, "nonprivate_bounds").agree
    assert golden_compare(as_tuple, "nonprivate_bounds").agree
    # an array returned as a list
    assert golden_compare(lambda **kw: bounds.beta_t_batch(
        **(kw | {"bounds": bounds.RegularizerBounds(**kw["bounds"])})).tolist(),
        "beta_t_batch").agree  # fmt: skip


def test_hostile_results_are_mismatches_with_their_reason() -> None:
    def nan(**kwargs: Any) -> float:
        return math.nan

    shift = golden_compare(nan, "wishart_shift")
    valid = [m for m in shift.mismatches if not isinstance(m.expected, dict)]
    assert valid and all("output: NaN where" in m.reasons[0] for m in valid)
    assert valid[0].reasons[0].endswith(f"NaN where {valid[0].expected!r} expected")

    def slightly_off(**kwargs: Any) -> float:
        return bounds.wishart_shift(**kwargs) * (1.0 + 3e-2)

    off = golden_compare(slightly_off, "wishart_shift")
    assert "relative error 3.0e-02 > rtol 1e-12" in off.mismatches[0].reasons[0]

    def short(**kwargs: Any) -> Any:
        return np.append(bounds.beta_t_batch(**kwargs | {
            "bounds": bounds.RegularizerBounds(**kwargs["bounds"])}), 1.0)  # fmt: skip

    shape = golden_compare(short, "beta_t_batch")
    assert shape.mismatches[0].reasons == ("output: shape (5,) != expected (4,)",)
    assert shape.summary().splitlines()[0].endswith("0 of 12 cases agree")


def test_errors_must_be_raised_where_privonline_raises_them() -> None:
    def accepts_everything(n: Any) -> int:
        return 1

    def wrong_class(n: Any) -> int:
        if not isinstance(n, int) or n < 1:
            raise TypeError("bad n")
        return tree.tree_depth(n)

    lenient = golden_compare(accepts_everything, "tree_depth")
    refused = [m for m in lenient.mismatches if "where ValueError is raised" in m.reasons[0]]
    assert {m.parameters["n"] for m in refused} == {0, -1, 2.5}
    typed = golden_compare(wrong_class, "tree_depth")
    assert len(typed.mismatches) == 3 and not typed.crashes
    assert typed.mismatches[0].reasons[0].startswith("raised TypeError: bad n where ValueError")


def test_a_raising_function_is_a_crash_per_case_not_an_exception() -> None:
    def raises(n: Any) -> int:
        raise ZeroDivisionError("oops")

    result = golden_compare(raises, "tree_depth")
    # where privonline raises ValueError, ZeroDivisionError is a mismatch; elsewhere a crash
    assert result.exit_code == 4 and len(result.crashes) + len(result.mismatches) == 18
    assert result.crashes[0].error == "ZeroDivisionError: oops"
    assert "Traceback" in result.crashes[0].traceback
    assert "raised" in result.summary()


def test_warnings_of_the_function_are_not_errors() -> None:
    import warnings

    def warns(n: Any) -> int:
        warnings.warn("slow", RuntimeWarning, stacklevel=1)
        return tree.tree_depth(n)

    assert golden_compare(warns, "tree_depth").agree  # under -W error::RuntimeWarning too


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"function": None}, "function"),
        ({"function": "tree_depth"}, "function"),
        ({"entry": None}, "entry"),
        ({"entry": "no_such_entry"}, "entry"),
        ({"entry": "tree_release_noise"}, "randomised summary"),
        ({"rename": "n=n"}, "rename"),
        ({"rename": {"n": 1}}, "rename"),
        ({"rename": {"n": "size"}}, "rename"),
        ({"rename": {"1x": "n"}}, "rename"),
    ],
)
def test_bad_arguments_are_value_errors_naming_them(kwargs: dict[str, Any], named: str) -> None:
    call: dict[str, Any] = {"function": tree.tree_depth, "entry": "tree_depth"} | kwargs
    with pytest.raises(ValueError, match=named):
        golden_compare(**call)
