"""A hostile-input sweep of the public API (run by ``tests/test_hostile_inputs.py``).

Three families of cases, each a call with exactly one argument replaced by a hostile value:

* **deterministic functions**: every function of the golden-vector registry
  (:func:`audit.golden.registry`; every public bound and constant of the four papers), called at
  the first valid point of its grid, with each argument in turn replaced by NaN, ±inf, ``None``, a
  string, ``-1``, ``0``, ``True`` and an empty array;
* **random functions**: every public function or method of ``reference`` with an ``rng`` argument
  (found in the source), called with ``rng`` = ``None``, ``-1``, ``1.5``, ``True`` and a legacy
  ``RandomState``; the one seed rule (:func:`reference.rng.as_generator`) runs first, so the other
  arguments are placeholders;
* **seeds**: the public functions that take a ``seed``, with ``None``, ``-1``, ``1.5`` and ``True``.

Each outcome is classified: ``clear`` (a ``ValueError`` naming the argument), ``type-clear`` (a
``TypeError`` naming it), ``unclear`` (an error that does not name it), ``raw:<Exception>`` (an
exception of another class escaped), ``nan-output`` (NaN in the result), ``warning`` (a numpy or
Python warning), ``accepted`` (a finite result: right only for values the function documents as
valid, listed in ``tests/test_hostile_inputs.py`` with the reason).

``python tests/hostile.py`` prints the counts by family, category and outcome.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import math
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]

HOSTILE: dict[str, Callable[[], Any]] = {
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "-inf": lambda: -math.inf,
    "None": lambda: None,
    "string": lambda: "x",
    "negative": lambda: -1,
    "zero": lambda: 0,
    "bool": lambda: True,
    "empty array": lambda: np.zeros(0),
}
HOSTILE_RNG: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "negative": lambda: -1,
    "float": lambda: 1.5,
    "bool": lambda: True,
    "RandomState": lambda: np.random.RandomState(0),
}


@dataclass(frozen=True)
class Case:
    """One hostile call and what it got."""

    family: str
    function: str
    parameter: str
    category: str
    outcome: str
    detail: str


def _has_nan(value: Any) -> bool:
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and bool(np.isnan(value).any())
    if isinstance(value, list | tuple):
        return any(_has_nan(v) for v in value)
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return any(_has_nan(getattr(value, f)) for f in fields)
    return False


def classify(call: Callable[[], Any], parameter: str) -> tuple[str, str]:
    """Run ``call`` and classify its outcome for a hostile ``parameter``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = call()
    except ValueError as err:
        return ("clear" if parameter in str(err) else "unclear"), str(err)[:160]
    except TypeError as err:
        return ("type-clear" if parameter in str(err) else "type-unclear"), str(err)[:160]
    except Warning as w:
        return "warning", f"{type(w).__name__}: {w}"[:160]
    except Exception as err:
        return f"raw:{type(err).__name__}", str(err)[:160]
    return ("nan-output" if _has_nan(out) else "accepted"), repr(out)[:80]


def _silent(call: Callable[[], Any]) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except Exception:
        return False
    return True


def deterministic_cases() -> Iterator[Case]:
    """The golden registry's functions (module docstring)."""
    from audit import golden

    for entry in golden.registry():
        baseline = None
        for params in entry.grid:
            kwargs = entry.prepare(dict(params)) if entry.prepare else dict(params)
            if _silent(partial(entry.func, **kwargs)):
                baseline = kwargs
                break
        if baseline is None:
            yield Case("deterministic", entry.key, "-", "-", "no valid grid point", "")
            continue
        for parameter in baseline:
            for category, make in HOSTILE.items():
                kwargs = dict(baseline)
                kwargs[parameter] = make()
                outcome, detail = classify(partial(entry.func, **kwargs), parameter)
                yield Case("deterministic", entry.key, parameter, category, outcome, detail)


def rng_targets() -> list[tuple[str, str, str | None]]:
    """``(module, function, class)`` of every public function or method of ``reference`` with an
    argument named ``rng`` annotated as a generator (protocol stubs excluded)."""
    out: list[tuple[str, str, str | None]] = []
    for path in sorted((REPO / "reference").rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes: list[tuple[str | None, list[ast.stmt]]] = [(None, tree.body)]
        scopes += [(n.name, n.body) for n in tree.body if isinstance(n, ast.ClassDef)]
        for owner, body in scopes:
            if owner is not None and owner.startswith("_"):
                continue
            for node in body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                if node.name.startswith("_") and node.name != "__init__":
                    continue
                args = {a.arg: a for a in node.args.args + node.args.kwonlyargs}
                rng = args.get("rng")
                if rng is None or rng.annotation is None:
                    continue
                if "Generator" not in ast.unparse(rng.annotation) and "RandomSource" not in (
                    ast.unparse(rng.annotation)
                ):
                    continue
                stub = isinstance(node.body[-1], ast.Expr) and isinstance(
                    getattr(node.body[-1], "value", None), ast.Constant
                )
                if stub and len(node.body) <= 2 and node.body[-1].value.value is Ellipsis:  # type: ignore[attr-defined]
                    continue
                if module == "reference.rng":
                    continue
                out.append((module, node.name, owner))
    return out


def _placeholder_call(func: Callable[..., Any], rng: Any, self_obj: Any = None) -> Any:
    sig = inspect.signature(func)
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for name, param in sig.parameters.items():
        if name == "self":
            args.append(self_obj)
            continue
        value = rng if name == "rng" else PLACEHOLDERS.get(name)
        if param.kind is inspect.Parameter.KEYWORD_ONLY:
            kwargs[name] = value
        elif param.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
            continue
        else:
            args.append(value)
    return func(*args, **kwargs)


PLACEHOLDERS: dict[str, Any] = {"j": 1}
"""Valid values of the arguments that a method checks before it draws (so the draw is reached)."""


def _instances() -> dict[str, Callable[[], Any]]:
    from reference import noise

    return {
        "WishartNoise": lambda: noise.WishartNoise(2, 3, 1.0),
        "SymmetricGaussianNoise": lambda: noise.SymmetricGaussianNoise(2, 1.0),
        "GaussianVectorNoise": lambda: noise.GaussianVectorNoise((2,), 1.0),
        "LaplaceNoise": lambda: noise.LaplaceNoise((2,), 1.0),
        "ZeroNoise": lambda: noise.ZeroNoise((2,)),
    }


def rng_cases() -> Iterator[Case]:
    """Every ``rng`` argument of ``reference`` (module docstring)."""
    for module_name, name, owner in rng_targets():
        module = importlib.import_module(module_name)
        label = f"{module_name}:{owner + '.' if owner else ''}{name}"
        if owner is None:
            func = getattr(module, name)
            target = None
        else:
            cls = getattr(module, owner)
            func = getattr(cls, name)
            make = _instances().get(owner)
            target = make() if make is not None and name != "__init__" else object.__new__(cls)
        for category, make in HOSTILE_RNG.items():
            call = partial(_placeholder_call, func, make(), target)
            outcome, detail = classify(call, "rng")
            yield Case("rng", label, "rng", category, outcome, detail)


def _seed_calls() -> dict[str, Callable[[Any], Any]]:
    from audit.blackbox import event_audit
    from audit.exact import white_box_audit
    from audit.mechanisms import GaussianMechanism
    from audit.protocols import NeighbouringPair, PrivacyClaim
    from audit.stream import Algorithm1Policy, collect_transcripts, worst_case_streams
    from reference.engine.blocks import GapBatchTask, run_blocks
    from reference.rng import child_seeds, named_generators, spawn_generators
    from reference.sajed_sheffet.bandits import pseudo_regret_trajectories
    from reference.shariff_sheffet import ProblemConstants, make_policy
    from reference.shariff_sheffet.simulation import run_gap_experiment

    pair = NeighbouringPair(np.zeros(1), np.ones(1))
    claim = PrivacyClaim(1.0, 1e-3)
    mech = GaussianMechanism(sigma=1.0)
    s, sp = worst_case_streams(4, 1)
    policy = Algorithm1Policy(
        lambda n, rng: make_policy("nonprivate", ProblemConstants(d=2), n, 1.0 / n, rng, None), "x"
    )
    return {
        "reference.rng:child_seeds": lambda v: child_seeds(v, 0, 2),
        "reference.rng:spawn_generators": lambda v: spawn_generators(v, 2),
        "reference.rng:named_generators": lambda v: named_generators(v, ["a"]),
        "reference.shariff_sheffet.simulation:run_gap_experiment": lambda v: run_gap_experiment(
            "nonprivate", d=2, num_arms=4, gap=0.1, n=5, seed=v, privacy=None
        ),
        "reference.sajed_sheffet.bandits:pseudo_regret_trajectories": lambda v: (
            pseudo_regret_trajectories(lambda k, rng: None, [0.5, 0.4], 5, runs=2, seed=v)  # type: ignore[arg-type, return-value]
        ),
        "reference.engine.blocks:run_blocks": lambda v: run_blocks(
            GapBatchTask("nonprivate", 2, 4, 0.1, 5),
            seed=v,
            replicates=1,
            block_size=1,
            executor="serial",
        ),
        "audit.exact:white_box_audit": lambda v: white_box_audit(
            mech, pair, claim, samples=10, seed=v
        ),
        "audit.blackbox:event_audit": lambda v: event_audit(mech, pair, claim, samples=10, seed=v),
        "audit.stream:collect_transcripts": lambda v: collect_transcripts(
            policy, s, sp, 1, runs=4, seed=v
        ),
        "audit.stream:worst_case_streams": lambda v: worst_case_streams(4, 1, seed=v),
    }


def seed_cases() -> Iterator[Case]:
    """The public functions that take a ``seed`` (module docstring)."""
    hostile = {k: HOSTILE_RNG[k] for k in ("None", "negative", "float", "bool")}
    for label, call in _seed_calls().items():
        for category, make in hostile.items():
            outcome, detail = classify(partial(call, make()), "seed")
            yield Case("seed", label, "seed", category, outcome, detail)


def sweep() -> list[Case]:
    """Every case of the three families."""
    return [*deterministic_cases(), *rng_cases(), *seed_cases()]


def summary(cases: list[Case]) -> str:
    """Counts by family and outcome, and by category and outcome."""
    lines = [f"{len(cases)} hostile calls"]
    by_family = Counter((c.family, c.outcome) for c in cases)
    for family in dict.fromkeys(c.family for c in cases):
        functions = len({c.function for c in cases if c.family == family})
        counts = ", ".join(f"{o}: {n}" for (f, o), n in sorted(by_family.items()) if f == family)
        lines.append(f"  {family} ({functions} functions): {counts}")
    by_category = Counter((c.category, c.outcome) for c in cases)
    for category in dict.fromkeys(c.category for c in cases):
        counts = ", ".join(
            f"{o}: {n}" for (k, o), n in sorted(by_category.items()) if k == category
        )
        lines.append(f"    {category}: {counts}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(sweep()))
