"""The naming rule of ``reference.accounting`` (its module docstring): every ``<law>_delta``
gives ``δ(ε)`` and takes ``epsilon`` first, every ``<law>_epsilon`` gives ``ε(δ)`` and takes
``delta`` first (a ``_lower`` suffix marks a lower bound of the same curve); the law's parameters
are keyword-only, so an argument order from before the rule cannot be passed silently."""

from __future__ import annotations

import inspect
import re

import reference.accounting as accounting

_CURVE = re.compile(r"_(?P<kind>delta|epsilon)(?:_lower)?$")
_FIRST = {"delta": "epsilon", "epsilon": "delta"}


def _curves() -> dict[str, str]:
    """``name → "delta" | "epsilon"`` for every curve exported by ``reference.accounting``."""
    out = {}
    for name in accounting.__all__:
        match = _CURVE.search(name)
        if match is not None and callable(getattr(accounting, name)):
            out[name] = match["kind"]
    return out


def test_every_curve_takes_the_privacy_parameter_first_and_the_law_by_keyword() -> None:
    curves = _curves()
    assert {"gaussian_delta", "gaussian_epsilon", "laplace_delta", "laplace_epsilon"} <= set(curves)
    assert {"wishart_tree_delta", "wishart_tree_epsilon", "laplace_tree_epsilon"} <= set(curves)
    for name, kind in curves.items():
        params = list(inspect.signature(getattr(accounting, name)).parameters.values())
        assert params[0].name == _FIRST[kind], f"{name} must take {_FIRST[kind]!r} first"
        assert params[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, name
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:]), (
            f"{name}: the law's parameters must be keyword-only"
        )


def test_no_other_exported_function_looks_like_a_curve() -> None:
    # calibrations return a law parameter for (ε, δ): <law>_<parameter>_for(epsilon, delta, ...)
    for name in accounting.__all__:
        obj = getattr(accounting, name)
        if not inspect.isfunction(obj) or name in _curves():
            continue
        assert "_delta" not in name and not name.endswith("_epsilon"), name
        if name.endswith("_for"):
            params = list(inspect.signature(obj).parameters)
            assert params[:2] == ["epsilon", "delta"], name


def test_the_curves_live_in_the_law_modules() -> None:
    for name in _curves():
        module = getattr(accounting, name).__module__
        assert module.startswith("reference.accounting."), (name, module)
        assert module != "reference.accounting", name
