"""A hostile-input sweep of the public API and the command line (run by
``tests/test_hostile_inputs.py``).

Every public name (``__all__``) of ``reference`` and of the audit modules in :data:`AUDIT_MODULES`
is called with exactly one argument replaced by a hostile value, starting from a known-good
*baseline* call.  Seven families of cases:

* **registry**: every function of the golden-vector registry (:func:`audit.tools.golden.registry`; every
  public bound and constant of the four papers), at the first valid point of its grid;
* **api**: every other public function and class, at its baseline in :data:`BASELINES` (small
  sizes, so each call takes milliseconds); a public name without a baseline must have a reason in
  :data:`NOT_CALLED` (protocols, exceptions, records the library returns);
* **rng**: every public function or method of ``reference`` with an ``rng`` argument (found in the
  source), with hostile generators; the one seed rule (:func:`reference.rng.as_generator`) runs
  first, so the other arguments are placeholders;
* **seed**: the public ``seed`` arguments of the modules outside the api family;
* **method**: every public method with arguments of every public class the api family builds, on
  a fresh baseline instance (built from the class's api baseline, in a state where the method may
  be called, e.g. after ``act()``) with the arguments in :func:`method_baselines`; a method
  without one must have a reason in :data:`NOT_CALLED_METHODS`; a step of a run with a horizon
  (:data:`HORIZONS`) is also called once past it;
* **size**: every integer argument of the registry, api and method baselines (seeds aside) at
  the absurd size :data:`SIZE` ``= 10**18``;
* **cli**: every command of ``privonline`` but ``check`` (:data:`NOT_SWEPT_COMMANDS`), with one
  hostile argument each (:func:`cli_arguments`: an unknown flag, an unknown choice, a file as a
  folder, NaN, ``inf``, ``-1``, text, a fraction, ``10**18``), taken from the commands' own
  ``argparse`` parsers so that a new flag is swept without a new line here.

The size and cli families run in a separate worker process (:class:`Isolated`), one case at a
time, each within :data:`CASE_SECONDS`: a call that does not answer by then is a ``hang`` (the
worker and everything it started are killed, and a new worker takes the next case), so an
endless loop, even inside compiled code, shows as an outcome instead of stopping the sweep.  The
worker's address space is capped a few GiB above its start-up size, so an allocation without
bound fails at once with a ``MemoryError`` instead of paging the shared machine, and it runs in a
temporary folder, so a command that wrongly runs writes nothing into the checkout.

The hostile values depend on the kind of the baseline value (:func:`hostile_values`): numbers get
NaN, ±inf, ``-1``, ``0``, ``None``, a string, ``True`` and an empty array (integers also ``2.5``);
arrays get a NaN, ``inf`` or ``-inf`` entry, ``None``, a string, ``True``, an empty array (no
rows) and a wrong shape (an extra axis), integer arrays also a negative and a fractional entry;
option strings, flags, callables, objects and lists get ``None`` and a string (option strings also
``1``, lists also ``[]``); generators and seeds get ``None``, ``-1``, ``1.5``, ``True``, a string
and a legacy ``RandomState``.

Each outcome is classified: ``clear`` (a ``ValueError`` whose message names the argument as a
word), ``type-clear`` (a ``TypeError`` naming it), ``unclear`` / ``type-unclear`` (one that does
not name it), ``raw:<Exception>`` (an exception of another class escaped), ``nan-output`` (NaN in
the result), ``warning`` (a numpy or Python warning), ``accepted`` (a finite result: right only for
values the function documents as valid, listed in ``tests/test_hostile_inputs.py`` with the reason).
In the size family a finite result within the time limit is right too (a closed-form bound at
``n = 10**18``, or a description that only records the size); only a clear refusal or such a
result passes, and ``hang`` and ``crash:<code>`` (the worker died) are further wrong outcomes.  A
command of the cli family passes only with ``clear``: exit code 2, a message on stderr naming the
flag, and no traceback (``unclear``: the message does not name it; ``traceback``; ``exit <code>``:
another exit code, e.g. the command ran).

``python tests/hostile.py`` prints the counts by family, category and outcome;
``python tests/hostile.py OUTCOME...`` also lists the cases with those outcomes.
"""

from __future__ import annotations

import ast
import atexit
import importlib
import inspect
import math
import re
import shutil
import sys
import tempfile
import types
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]

AUDIT_MODULES = (
    "audit.methods.binomial",
    "audit.methods.scaling",
    "audit.papers.shariff_sheffet.regret",
    "audit.papers.shariff_sheffet.accuracy",
    "audit.papers.shariff_sheffet.theorems",
    "audit.papers.sajed_sheffet.battery",
    "audit.papers.sajed_sheffet.nas",
    "audit.papers.sajed_sheffet.nas_sampled",
    "audit.papers.zhou_tan.battery",
    "audit.papers.zhou_tan.cases",
    "audit.papers.zhou_tan.accuracy",
    "audit.papers.agarwal_singh.battery",
    "audit.papers.agarwal_singh.cases",
    "audit.papers.agarwal_singh.reduction",
    "audit.papers.agarwal_singh.gaussian",
    "audit.papers.agarwal_singh.accuracy",
    "audit.tools.golden.third_party",
    "audit.testing",
)
"""The audit modules whose public API the api family sweeps (the others have their own sweeps)."""

OTHER_OWNERS = (
    "reference.files",
    "reference.rng",
    "reference.experiments",
    "reference.engine.blocks",
)
"""Modules of ``reference`` swept elsewhere (file writing, the seed rule itself, the experiment
runner and the block runner: ``tests/reference/test_primitives_io_rng.py``, ``tests/reference/test_experiments.py``,
``tests/reference/test_engine.py``)."""

STRING = "hostile"
"""The hostile string (a word no parameter is named after, so an echo of it never counts)."""

HOSTILE: dict[str, Callable[[], Any]] = {
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "-inf": lambda: -math.inf,
    "None": lambda: None,
    "string": lambda: STRING,
    "negative": lambda: -1,
    "zero": lambda: 0,
    "bool": lambda: True,
    "empty array": lambda: np.zeros(0),
}
"""Hostile scalars of the registry family (and of the api family's real-number arguments)."""

HOSTILE_RNG: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "negative": lambda: -1,
    "float": lambda: 1.5,
    "bool": lambda: True,
    "string": lambda: STRING,
    "RandomState": lambda: np.random.RandomState(0),
}
"""Hostile generators and seeds."""


@dataclass(frozen=True)
class Case:
    """One hostile call and what it got."""

    family: str
    function: str
    parameter: str
    category: str
    outcome: str
    detail: str


def names(message: str, parameter: str) -> bool:
    """Whether ``message`` names ``parameter`` as a word (``T`` is not named by ``T_max`` or by
    ``config.T``)."""
    return re.search(rf"(?<![\w.]){re.escape(parameter)}(?!\w)", message) is not None


def _has_nan(value: Any, depth: int = 0) -> bool:
    if depth > 3:
        return False
    if isinstance(value, float):
        return math.isnan(value)
    if isinstance(value, np.ndarray):
        return value.dtype.kind in "fc" and bool(np.isnan(value).any())
    if isinstance(value, list | tuple):
        return any(_has_nan(v, depth + 1) for v in value)
    fields = getattr(value, "__dataclass_fields__", None)
    if fields is not None:
        return any(_has_nan(getattr(value, f), depth + 1) for f in fields)
    return False


def classify(call: Callable[[], Any], parameter: str) -> tuple[str, str]:
    """Run ``call`` and classify its outcome for a hostile ``parameter``."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = call()
    except ValueError as err:
        return ("clear" if names(str(err), parameter) else "unclear"), str(err)[:160]
    except TypeError as err:
        return ("type-clear" if names(str(err), parameter) else "type-unclear"), str(err)[:160]
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


# ------------------------------------------------------------------------------------------------
# Family "registry": the golden registry
# ------------------------------------------------------------------------------------------------


def registry_cases() -> Iterator[Case]:
    """The golden registry's functions (module docstring)."""
    from audit.tools import golden

    for entry in golden.registry():
        baseline = None
        for params in entry.grid:
            kwargs = entry.prepare(dict(params)) if entry.prepare else dict(params)
            if _silent(partial(entry.func, **kwargs)):
                baseline = kwargs
                break
        if baseline is None:
            yield Case("registry", entry.key, "-", "-", "no valid baseline", "")
            continue
        for parameter in baseline:
            for category, make in HOSTILE.items():
                kwargs = dict(baseline)
                kwargs[parameter] = make()
                outcome, detail = classify(partial(entry.func, **kwargs), parameter)
                yield Case("registry", entry.key, parameter, category, outcome, detail)


# ------------------------------------------------------------------------------------------------
# Family "api": every other public name, from a baseline call
# ------------------------------------------------------------------------------------------------


def _kind(value: Any, parameter: str = "") -> str:
    if isinstance(value, np.random.Generator | np.random.SeedSequence):
        return "rng"
    if parameter == "seed" and isinstance(value, int):
        return "rng"
    if isinstance(value, bool | np.bool_):
        return "flag"
    if isinstance(value, int | np.integer):
        return "int"
    if isinstance(value, float | np.floating):
        return "real"
    if isinstance(value, str):
        return "option"
    if isinstance(value, np.ndarray):
        return "int array" if value.dtype.kind in "iu" else "array"
    if (
        isinstance(value, list | tuple)
        and value
        and all(
            isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)
            for v in value
        )
    ):
        return "int array" if all(isinstance(v, int | np.integer) for v in value) else "array"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, types.FunctionType | types.MethodType | partial):
        return "callable"
    return "object"


def _with_entry(arr: Any, entry: float) -> Any:
    out = np.array(arr, dtype=np.float64)
    out.flat[0] = entry
    return out


def hostile_values(value: Any, parameter: str = "") -> dict[str, Callable[[], Any]]:
    """The hostile replacements of an argument ``parameter`` whose valid baseline value is
    ``value`` (a ``seed`` gets the hostile generators)."""
    kind = _kind(value, parameter)
    if kind == "rng":
        return HOSTILE_RNG
    if kind == "real":
        return {**HOSTILE, "negative": lambda: -1.0, "zero": lambda: 0.0}
    if kind == "int":
        return {**HOSTILE, "float": lambda: 2.5}
    if kind in ("array", "int array"):
        arr = np.asarray(value)
        out: dict[str, Callable[[], Any]] = {
            "nan": lambda: _with_entry(arr, math.nan),
            "inf": lambda: _with_entry(arr, math.inf),
            "-inf": lambda: _with_entry(arr, -math.inf),
            "None": lambda: None,
            "string": lambda: STRING,
            "bool": lambda: True,
            "empty array": lambda: np.zeros((0, *arr.shape[1:]), dtype=arr.dtype),
            "wrong shape": lambda: arr[..., None].copy(),
        }
        if kind == "int array":
            out["negative"] = lambda: _with_entry(arr, -1.0).astype(arr.dtype)
            out["float"] = lambda: _with_entry(arr, float(arr.flat[0]) + 0.5)
        return out
    if kind == "option":
        return {"None": lambda: None, "string": lambda: STRING, "int": lambda: 1}
    if kind == "list":
        return {"None": lambda: None, "string": lambda: STRING, "empty array": lambda: []}
    return {"None": lambda: None, "string": lambda: STRING}


@dataclass(frozen=True)
class Baseline:
    """A known-good call: ``kwargs()`` builds fresh arguments (new generators every time)."""

    kwargs: Callable[[], dict[str, Any]]
    nan_output: str = ""
    """Why NaN in the result is documented (e.g. "no estimate" of a run that did not halt)."""


_TMP: list[Path] = []


def _tmp() -> Path:
    if not _TMP:
        _TMP.append(Path(tempfile.mkdtemp(prefix="hostile-")))
        atexit.register(shutil.rmtree, _TMP[0], True)
    return _TMP[0]


def _g(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


@cache
def _kernel() -> np.ndarray[Any, Any]:
    return np.array([[1.0, 0.5, 0.2], [0.5, 1.0, 0.5], [0.2, 0.5, 1.0]])


def _ldp() -> Any:
    from reference.zhou_tan.mechanism import LDPParams

    return LDPParams(1.0, 1.0, 1.0)


def _constants() -> Any:
    from reference.shariff_sheffet.regularizers import ProblemConstants

    return ProblemConstants(d=2)


def _privacy() -> Any:
    from reference.shariff_sheffet.regularizers import PrivacyParameters

    return PrivacyParameters(1.0, 0.1)


def _bounds() -> Any:
    from reference.shariff_sheffet.bounds import RegularizerBounds

    return RegularizerBounds(1.0, 2.0, 1.0, 0.0)


def _nas_config() -> Any:
    from audit.papers.sajed_sheffet.nas import NASConfig

    return NASConfig(rule="exponential", cap=3)


def _nas_variant() -> Any:
    from audit.papers.sajed_sheffet.nas import NASVariant

    return NASVariant("correct")


def _nas_pair() -> Any:
    from audit.papers.sajed_sheffet.nas import nas_worst_case_pair

    return nas_worst_case_pair(_nas_config())


def _se_config() -> Any:
    from audit.papers.sajed_sheffet.battery import DPSEConfig

    return DPSEConfig()


def _se_variant() -> Any:
    from audit.papers.sajed_sheffet.battery import DPSEVariant

    return DPSEVariant("correct")


def _pure_claims() -> list[Any]:
    from audit.protocols import PrivacyClaim

    return [PrivacyClaim(1.0, 0.0)]


def _as_config() -> Any:
    from audit.papers.agarwal_singh.cases import AgarwalSinghAuditConfig

    return AgarwalSinghAuditConfig(
        white_box_samples=200,
        black_box_samples=200,
        bandit_samples=200,
        exp2_samples=200,
        accuracy_runs=10,
    )


def _ss_config() -> Any:
    from audit.papers.sajed_sheffet.battery import SajedSheffetConfig

    return SajedSheffetConfig(seed=1, samples=200, accuracy_runs=2, black_box=False)


def _zt_config() -> Any:
    from audit.papers.zhou_tan.battery import ZhouTanConfig

    return ZhouTanConfig(
        mechanism_samples=200,
        learner_runs=20,
        learner_rounds=2,
        confidence_runs=2,
        confidence_rounds=3,
        ata_runs=2,
        ata_rounds=3,
        nystrom_runs=2,
        nystrom_rounds=3,
        lemma10_estimators=5,
        lemma11_runs=5,
        lemma11_k=5,
        mom_runs=5,
        moma_runs=2,
        moma_rounds=3,
        lemma92_runs=2,
        lemma92_rounds=3,
    )


def _ctl() -> Any:
    from audit.papers.zhou_tan.cases import ctl_variants

    return ctl_variants(_ldp())[0]


def _ctl_pair() -> Any:
    from audit.papers.zhou_tan.cases import worst_case_pair

    return worst_case_pair(_ldp())


def _stream_policy() -> Any:
    from audit.methods.stream import Algorithm1Policy
    from reference.shariff_sheffet import ProblemConstants, make_policy

    return Algorithm1Policy(
        lambda n, rng: make_policy("nonprivate", ProblemConstants(d=2), n, 1.0 / n, rng, None), "x"
    )


def _ucb1() -> Any:
    from reference.sajed_sheffet.bandits import UCB1

    return UCB1(2)


def _bandit_env() -> Any:
    from reference.sajed_sheffet.bandits import BanditEnvironment

    return BanditEnvironment([0.6, 0.4], _g(1))


def _linucb() -> Any:
    from reference.shariff_sheffet.simulation import make_policy

    return make_policy("nonprivate", _constants(), 4, 0.25, _g(2))


def _gap_env() -> Any:
    from reference.shariff_sheffet.environments import LinearGapEnvironment

    return LinearGapEnvironment(2, 3, 0.1, _g(3))


def _tree() -> Any:
    from reference.noise import ZeroNoise
    from reference.tree import TreeAggregator

    return TreeAggregator(4, ZeroNoise((3, 3)), _g(4))


def _zt_env() -> Any:
    from reference.zhou_tan.environment import FiniteArmEnvironment, UniformNoise

    return FiniteArmEnvironment(np.array([0.1, 0.5, 0.3]), UniformNoise(0.5), _g(5))


def _gpucb() -> Any:
    from reference.zhou_tan.algorithms import make_gp_ucb

    return make_gp_ucb(_kernel(), 1.0, 1.0, 1.0, 0.1, 4, _g(6))


def _problem() -> Any:
    from reference.zhou_tan.datasets import DataProblem

    rows = np.array([[1.0, 2.0], [2.0, 1.5], [3.0, 2.5]])
    return DataProblem("t", rows.mean(axis=0), np.eye(2), rows, 3.0, 1.5, 1.0, 1.0)


def _nystrom() -> Any:
    from reference.zhou_tan.nystrom import nystrom_embedding

    return nystrom_embedding(_kernel(), np.array([0, 1]), np.ones(2), 1e9, _g(7))


def _ftrl() -> Any:
    from reference.agarwal_singh.full_info import PrivateFTRL
    from reference.agarwal_singh.sets import NegativeEntropySimplex
    from reference.noise import ZeroNoise

    return PrivateFTRL(NegativeEntropySimplex(2), 0.5, ZeroNoise((2,)), 4, _g(8))


def _exp2() -> Any:
    from reference.agarwal_singh.bandits import EXP2Exploration

    return EXP2Exploration(2, 0.3, 0.2, _g(9))


def _cor32() -> Any:
    from reference.agarwal_singh.theorems import cor32_parameters

    return cor32_parameters("experts", 2, 4, 1.0)


def _light_mat() -> Path:
    import scipy.io

    path = _tmp() / "light.mat"
    if not path.exists():
        train = np.arange(12.0).reshape(4, 3) + np.array([0.0, 0.3, 0.1])
        data = {"train": {"sensordata": train}, "test": {"sensordata": train[:2] + 0.5}}
        scipy.io.savemat(str(path), {"data": data})
    return path


def _stock_csv() -> Path:
    path = _tmp() / "stock.csv"
    if not path.exists():
        path.write_text("Date,A,B\n2016-01-04,1.0,2.0\n2016-01-05,1.5,2.5\n2016-01-06,1.2,2.1\n")
    return path


def _b(*, _nan_output: str = "", **kwargs: Any) -> Baseline:
    """A baseline whose arguments are built afresh at each call: a value that is a function of
    this module (a ``lambda`` or a ``_maker``) is called for it."""

    def build() -> dict[str, Any]:
        return {
            k: (v() if isinstance(v, types.FunctionType) and v.__module__ == __name__ else v)
            for k, v in kwargs.items()
        }

    return Baseline(build, _nan_output)


def _baselines() -> dict[str, Baseline]:
    A = np.array
    out: dict[str, Baseline] = {}

    # reference.accounting ------------------------------------------------------------------
    m = "reference.accounting.chi2:"
    out |= {
        m + "chi2_location_loss_cdf": _b(
            losses=A([0.0, 0.5]), df=4, direction="add", shift=1.0, coefficient=0.5
        ),
        m + "chi2_location_pld": _b(
            df=4, direction="add", shift=1.0, interval=0.01, pessimistic=True
        ),
    }
    m = "reference.accounting.laplace:"
    out |= {
        m + "laplace_delta": _b(epsilon=0.3, epsilon_0=0.5),
        m + "laplace_epsilon": _b(delta=0.01, epsilon_0=0.5),
        m + "laplace_composition_epsilon": _b(delta=0.001, epsilon_0=0.25, nodes=4),
        m + "laplace_tree_delta": _b(epsilon=1.0, epsilon_0=0.5, nodes=2, interval=0.01),
        m + "laplace_tree_epsilon": _b(delta=0.01, epsilon_0=0.5, nodes=2, interval=0.01),
        m + "laplace_tree_epsilon_0_for": _b(epsilon=1.0, delta=0.01, nodes=2, interval=0.01),
    }
    m = "reference.accounting.wishart:"
    out |= {
        m + "wishart_tree_delta": _b(
            epsilon=1.0, k=40, p=2, nodes=2, relation="replace_one", interval=0.01
        ),
        m + "wishart_tree_delta_lower": _b(epsilon=1.0, k=40, p=2, nodes=2, interval=0.01),
        m + "wishart_tree_epsilon": _b(
            delta=0.01, k=40, p=2, nodes=2, relation="replace_one", interval=0.01
        ),
        m + "wishart_tree_epsilon_lower": _b(delta=0.01, k=40, p=2, nodes=2, interval=0.01),
        m + "wishart_tree_meets": _b(
            epsilon=1.0, delta=0.1, k=40, p=2, nodes=2, relation="replace_one", interval=0.01
        ),
    }

    # reference.noise, reference.tree -------------------------------------------------------
    m = "reference.noise:"
    out |= {
        m + "GaussianVectorNoise": _b(shape=(2,), sigma=1.0),
        m + "LaplaceNoise": _b(shape=(2,), scale=1.0),
        m + "SymmetricGaussianNoise": _b(dim=2, sigma=1.0),
        m + "WishartNoise": _b(dim=2, degrees_of_freedom=3, scale=1.0),
        m + "ZeroNoise": _b(shape=(2,)),
        m + "bartlett_chi2_df": _b(dim=2, degrees_of_freedom=3.0),
        m + "bartlett_wishart": _b(chi2=A([1.0, 2.0]), normals=A([0.5]), scale=1.0),
        m + "symmetrize": _b(z_prime=A([[1.0, 2.0], [0.0, 1.0]])),
    }
    out["reference.tree:TreeAggregator"] = _b(
        n=4,
        noise=lambda: __import__("reference.noise").noise.ZeroNoise((2,)),
        rng=lambda: _g(),
        pad="fresh",
    )
    out["reference.tree:PanPrivateTree"] = _b(
        n=4, noise=lambda: __import__("reference.noise").noise.ZeroNoise((2,)), rng=lambda: _g()
    )
    out["reference.tree:check_tree_mode"] = _b(tree="pan_private", pad="fresh")

    # reference.agarwal_singh ------------------------------------------------------------------
    from reference.agarwal_singh.sets import Cube, L2Ball, LossSet, NegativeEntropySimplex, Simplex
    from reference.noise import LaplaceNoise, ZeroNoise

    m = "reference.agarwal_singh.aggregation:"
    out |= {
        m + "TreeBasedAggregation": _b(T=4, noise=ZeroNoise((2,)), rng=lambda: _g(), pad=True),
        m + "laplace_scale_tree_tight": _b(
            epsilon=1.0, delta=0.01, T=4, Y_l1_diameter=2.0, view="actions"
        ),
    }
    m = "reference.agarwal_singh.bandits:"
    out |= {
        m + "EXP2Exploration": _b(N=2, eta=0.3, gamma=0.2, rng=lambda: _g(), mu=A([0.5, 0.5])),
        m + "PrivateBanditReduction": _b(
            inner=_exp2, noise=LaplaceNoise((2,), 1.0), rng=lambda: _g(), record=False
        ),
        m + "run_bandit": _b(learner=_exp2, losses=A([[0.1, 0.9], [0.2, 0.8]])),
    }
    m = "reference.agarwal_singh.environments:"
    out |= {
        m + "best_fixed_action": _b(losses=A([[0.1, 0.9], [0.2, 0.8]]), decision_set=Simplex(2)),
        m + "cube_signed_basis": _b(N=2, T=3, bias=0.1, rng=lambda: _g()),
        m + "experts_bernoulli": _b(means=A([0.3, 0.5]), T=3, rng=lambda: _g()),
        m + "experts_minimax": _b(N=2, T=8),
        m + "ftl_trap": _b(T=4),
        m + "mab_constant_gap": _b(N=2, T=3, best=0.1, other=0.5),
        m + "mab_switching": _b(N=2, T=4, gap=0.2, switches=[2]),
        m + "pseudo_regret_mab": _b(
            probs=A([[0.5, 0.5], [0.4, 0.6]]), losses=A([[0.1, 0.9], [0.2, 0.8]])
        ),
        m + "regret_full_info": _b(
            actions=A([[1.0, 0.0], [0.0, 1.0]]),
            losses=A([[0.1, 0.9], [0.2, 0.8]]),
            decision_set=Simplex(2),
        ),
        m + "single_change_neighbours": _b(
            base=A([[0.1, 0.9], [0.2, 0.8]]), t0=1, replacement=A([0.5, 0.5])
        ),
        m + "sphere_drift": _b(N=2, T=3, drift=0.2, rng=lambda: _g()),
        m + "worst_case_replacement": _b(loss_set=LossSet("l2_ball", 2)),
    }
    m = "reference.agarwal_singh.full_info:"
    out |= {
        m + "OneShotFTRL": _b(
            regularizer=NegativeEntropySimplex(2),
            eta=0.5,
            noise=ZeroNoise((2,)),
            T=4,
            rng=lambda: _g(),
        ),
        m + "PrivateFTPL": _b(
            decision_set=Cube(2),
            noise=ZeroNoise((2,)),
            T=4,
            rng=lambda: _g(),
            pad=True,
            loss_set=LossSet("linf_ball", 2),
        ),
        m + "PrivateFTRL": _b(
            regularizer=NegativeEntropySimplex(2),
            eta=0.5,
            noise=ZeroNoise((2,)),
            T=4,
            rng=lambda: _g(),
            pad=True,
            loss_set=LossSet("box01", 2),
        ),
        m + "run_full_info": _b(learner=_ftrl, losses=A([[0.1, 0.9], [0.2, 0.8]])),
    }
    from reference.agarwal_singh.scrible import BallBarrier

    m = "reference.agarwal_singh.scrible:"
    out |= {
        m + "BallBarrier": _b(dim=2),
        m + "CubeBarrier": _b(dim=2),
        m + "PolytopeBarrier": _b(
            A=A([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), b=A([1.0, 1.0, 1.0]), newton_tol=1e-10
        ),
        m + "SCRiBLe": _b(barrier=BallBarrier(2), eta=0.3, rng=lambda: _g()),
        m + "dikin_axes": _b(barrier=BallBarrier(2), x=A([0.3, -0.2])),
    }
    m = "reference.agarwal_singh.sets:"
    out |= {
        m + "Cube": _b(dim=2, w=1.0),
        m + "L2Ball": _b(dim=2, r=1.0),
        m + "LossSet": _b(kind="l2_ball", dim=2, r=1.0),
        m + "NegativeEntropySimplex": _b(dim=2),
        m + "Simplex": _b(dim=2),
        m + "SquaredNormBall": _b(dim=2, r=1.0),
        m + "SquaredNormCube": _b(dim=2, w=1.0),
        m + "default_learning_rate": _b(D_R=1.0, T=4, G2=1.0),
    }
    m = "reference.agarwal_singh.theorems:"
    out |= {
        m + "cor32_regret_bound": _b(params=_cor32, T=4),
        m + "table1_general_regret_bound": _b(
            T=16,
            epsilon=1.0,
            N=2,
            D_R=2.0,
            G2=0.5,
            loss_l1_diameter=2.0,
            decision_linf_radius=1.0,
            view="actions",
        ),
        m + "noise_width_monte_carlo": _b(
            decision_set=L2Ball(2),
            noise=LaplaceNoise((2,), 1.0),
            K=2,
            rng=lambda: _g(),
            n=10,
            alpha=0.01,
        ),
    }
    m = "reference.engine.compiled.ftrl:"
    out |= {
        m + "run_ftrl_compiled": _b(
            instance="gap",
            N=2,
            T=4,
            epsilon=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            runs_per_seed=2,
            calibration="strict",
            checkpoints=[2, 4],
            trace=False,
            progress=False,
            workers=1,
        ),
        m + "run_ftrl_losses_compiled": _b(
            regularizer="ball",
            losses=A([[0.25, 0.0], [0.0, -0.25], [0.5, 0.25]]),
            eta=0.1,
            lam=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            runs_per_seed=2,
            loss_set=None,
            checkpoints=[1, 3],
            trace=False,
            progress=False,
            workers=1,
        ),
        m + "run_exp2_compiled": _b(
            instance="constant_gap",
            N=2,
            T=16,
            epsilon=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            preset="paper",
            calibration="strict",
            checkpoints=[2, 16],
            trace=False,
            progress=False,
            workers=1,
        ),
    }
    m = "reference.engine.compiled.scrible:"
    out |= {
        m + "run_scrible_compiled": _b(
            decision_set="ball",
            losses=A([[0.25, 0.0], [0.0, -0.25], [0.5, 0.25]]),
            eta=0.1,
            lam=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            checkpoints=[1, 3],
            trace=False,
            progress=False,
            workers=1,
        ),
    }

    # reference.engine ---------------------------------------------------------------------------
    from reference.noise import SymmetricGaussianNoise
    from reference.rng import NoiseStreams

    m = "reference.engine.linucb:"
    out |= {
        m + "default_checkpoints": _b(n=100, per_decade=5),
        m + "run_gap_batch": _b(
            variant="gaussian",
            d=2,
            num_arms=3,
            gap=0.1,
            n=4,
            seeds=lambda: [np.random.SeedSequence(1)],
            privacy=_privacy,
            alpha=0.25,
            reward_model="rademacher",
            constants=_constants,
            checkpoints=[2, 4],
            trace=False,
            rho=1.0,
            gamma_mode="paper",
            pd_policy="repair",
            reward_policy="raise",
            block_rounds=2,
            progress=False,
            tree="dyadic",
        ),
    }
    gap_args: dict[str, Any] = {
        "d": 2,
        "num_arms": 3,
        "n": 4,
        "seeds": lambda: [np.random.SeedSequence(1)],
        "privacy": _privacy,
        "alpha": 0.25,
        "constants": _constants,
        "checkpoints": [2, 4],
        "rho": 1.0,
        "gamma_mode": "paper",
        "pd_policy": "repair",
        "reward_policy": "raise",
    }
    out[m + "gap_setup"] = _b(
        variant="gaussian", calibration="paper", target_rho_min=None, tree="dyadic", **gap_args
    )
    m = "reference.engine.compiled.linucb:"
    out |= {
        m + "run_gap_compiled": _b(
            variant="gaussian",
            gap=0.1,
            reward_model="rademacher",
            trace=False,
            progress=False,
            workers=1,
            tree="dyadic",
            **gap_args,
        ),
        m + "environment_seconds": _b(d=2, num_arms=3, gap=0.1, n=4, seed=1),
        m + "loaded_from_cache": _b(),
    }
    m = "reference.engine.tree:"
    out |= {
        m + "BatchedTreeNoise": _b(
            n=4,
            noise=SymmetricGaussianNoise(2, 1.0),
            rngs=lambda: [_g(1), _g(2)],
            pad="fresh",
            block_rounds=2,
        ),
        m + "BatchedPanPrivateNoise": _b(
            n=4,
            noise=SymmetricGaussianNoise(2, 1.0),
            rngs=lambda: [_g(1), _g(2)],
            block_rounds=2,
        ),
        m + "draw_noise_sums": _b(
            noise=SymmetricGaussianNoise(2, 1.0),
            streams=lambda: [NoiseStreams.split(_g(1))],
            terms=A([1]),
        ),
    }

    # reference.sajed_sheffet ------------------------------------------------------------------
    from reference.sajed_sheffet.stopping import SampleStream, UniformDistribution

    m = "reference.sajed_sheffet.bandits:"
    out |= {
        m + "DPUCB": _b(
            K=2, T=4, epsilon=1.0, rng=lambda: _g(), calibration="per_tree", beta_u=0.1, pad="none"
        ),
        m + "UCB1": _b(K=2),
        m + "BanditEnvironment": _b(
            means=A([0.6, 0.4]), rng=lambda: _g(), reward="beta", concentration=2.0
        ),
        m + "DPSuccessiveElimination": _b(
            K=2, epsilon=1.0, beta=0.1, rng=lambda: _g(), noise_on="r"
        ),
        m + "GuessAndDoubleDPSE": _b(
            K=2, epsilon=1.0, rng=lambda: _g(), initial_guess=8, noise_on="r"
        ),
        m + "dpse_eliminate": _b(noisy_means=A([0.9, 0.1]), threshold=0.5),
        m + "pseudo_regret_trajectories": _b(
            make_policy=lambda: (
                lambda k, rng: __import__(
                    "reference.sajed_sheffet.bandits"
                ).sajed_sheffet.bandits.UCB1(k)
            ),
            means=A([0.6, 0.4]),
            T=4,
            runs=2,
            seed=3,
            reward="bernoulli",
        ),
        m + "run_policy": _b(policy=_ucb1, env=_bandit_env, T=4),
        m + "simulate_dpse_bernoulli": _b(
            means=A([0.6, 0.4]), T=8, epsilon=1.0, beta=0.1, rng=lambda: _g(), noise_on="r"
        ),
        m + "successive_elimination": _b(K=2, beta=0.1),
    }
    m = "reference.sajed_sheffet.constants:"
    out[m + "check_epsilon_or_inf"] = _b(value=1.0, name="value")
    m = "reference.engine.mab:"
    out |= {
        m + "dpse_bernoulli_batch": _b(
            means=A([0.6, 0.4]),
            T=8,
            epsilon=1.0,
            beta=0.1,
            seeds=lambda: [np.random.SeedSequence(1)],
            noise_on="r",
            checkpoints=[4, 8],
        ),
        m + "dpucb_bernoulli_batch": _b(
            means=A([0.6, 0.4]),
            T=8,
            epsilon=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            calibration="per_tree",
            beta_u=0.1,
            checkpoints=[4, 8],
            trace=False,
            rounds=8,
        ),
        m + "regret_checkpoints": _b(T=100, per_decade=5, linear=10),
        m + "section5_means": _b(instance="C1", K=3),
    }
    m = "reference.engine.compiled.mab:"
    out |= {
        m + "dpse_bernoulli_compiled": _b(
            means=A([0.6, 0.4]),
            T=8,
            epsilon=1.0,
            beta=0.1,
            seeds=lambda: [np.random.SeedSequence(1)],
            noise_on="r",
            checkpoints=[4, 8],
            workers=1,
        ),
        m + "dpucb_bernoulli_compiled": _b(
            means=A([0.6, 0.4]),
            T=8,
            epsilon=1.0,
            seeds=lambda: [np.random.SeedSequence(1)],
            calibration="per_tree",
            beta_u=0.1,
            checkpoints=[4, 8],
            trace=False,
            rounds=8,
            workers=1,
            progress=False,
        ),
        m + "dpucb_table_compiled": _b(
            rewards=A([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]),
            means=A([0.6, 0.4]),
            epsilon=1.0,
            rng=lambda: _g(),
            calibration="per_tree",
            beta_u=0.1,
        ),
    }
    out["reference.engine.compiled.tree:tree_noise_compiled"] = _b(
        n=9,
        noise=lambda: __import__("reference.noise").noise.WishartNoise(2, 3, 1.0),
        rngs=lambda: [_g(1), _g(2)],
        pad="fresh",
        counts=[0, 4, 8],
        workers=1,
        progress=False,
        tree="dyadic",
    )
    out["reference.engine.compiled.stopping:dp_nas_two_point_compiled"] = _b(
        range_R=1.0,
        mu=0.5,
        alpha=0.5,
        beta=0.1,
        epsilon=10.0,
        rngs=lambda: [(_g(1), _g(2))],
        t_max=20_000,
        workers=1,
        _nan_output="the estimate of a run that did not halt is NaN (documented; read `halted`)",
    )
    m = "reference.sajed_sheffet.stopping:"
    out |= {
        m + "SampleStream": _b(draw_block=lambda: lambda n: np.zeros(n)),
        m + "TwoPointDistribution": _b(range_R=1.0, mu=0.5),
        m + "UniformDistribution": _b(low=-1.0, high=1.0),
        m + "dp_exp_nas": _b(
            source=lambda: SampleStream.from_distribution(UniformDistribution(0.5, 1.0), _g(1)),
            range_R=1.0,
            alpha=0.5,
            beta=0.1,
            epsilon=1.0,
            rng=lambda: _g(),
            k_max=3,
            record=True,
        ),
        m + "dp_nas": _b(
            source=lambda: SampleStream.from_distribution(UniformDistribution(0.5, 1.0), _g(1)),
            range_R=1.0,
            alpha=0.5,
            beta=0.1,
            epsilon=1.0,
            rng=lambda: _g(),
            t_max=4,
            record=True,
        ),
        m + "nas": _b(
            source=lambda: SampleStream.from_distribution(UniformDistribution(0.5, 1.0), _g(1)),
            range_R=1.0,
            alpha=0.5,
            beta=0.1,
            t_max=4,
            record=False,
        ),
        m + "svt_query_value": _b(prefix_sum=1.0, t=2, h=0.5, c=0.1, alpha=0.5),
        m + "two_arm_test": _b(
            pull=lambda: lambda arm: 1.0 if arm == 0 else 0.0,
            epsilon=1.0,
            beta=0.1,
            rng=lambda: _g(),
            k_max=3,
            alpha=0.5,
            rule="exponential",
        ),
    }

    # reference.shariff_sheffet ------------------------------------------------------------------
    from reference.shariff_sheffet.bounds import RegularizerBounds

    m = "reference.shariff_sheffet.bounds:"
    corollary: dict[str, Any] = {
        "n": 1000, "d": 2, "epsilon": 1.0, "delta": 0.1, "alpha": 0.01, "sigma": 1.0, "S": 1.0,
        "L_tilde": 1.5, "B": 1.0, "gap": 0.1,
    }  # fmt: skip
    out |= {
        m + "RegularizerBounds": _b(rho_min=1.0, rho_max=2.0, gamma=1.0, shift=0.0),
        m + "reshifted_bounds": _b(
            base=RegularizerBounds(1.0, 2.0, 1.0, 0.0), target_rho_min=1.5, mechanism="gaussian"
        ),
        m + "lemma22_elliptical_potential": _b(actions=A([[1.0, 0.0], [0.5, 0.5]]), U1=np.eye(2)),
        m + "lemma21_regret_bound": _b(beta_bar_n=2.0, n=10, potential=1.0),
        m + "claim13_daily_regret_bound": _b(epsilon=0.5, delta=0.1, p=0.5),
        m + "claim13_regret_lower_bound": _b(n=100, epsilon=0.5, delta=0.1),
        m + "cor10_regret_order": _b(**corollary, form="derived"),
        m + "cor12_regret_order": _b(**corollary),
    }
    m = "reference.shariff_sheffet.authors_code:"
    base = RegularizerBounds(4.0, 9.0, 1.0, 0.0)
    d2_setting: dict[str, Any] = {"d": 2, "n": 64, "L_tilde": 1.5, "epsilon": 1.0, "delta": 0.1}
    out |= {
        m + "authors_alpha": _b(n=10),
        m + "authors_release_alpha": _b(alpha=0.05, n=10),
        m + "authors_node_privacy": _b(epsilon=1.0, delta=0.1, m=4),
        m + "authors_wishart_degrees_of_freedom": _b(d=2, m=4, epsilon=1.0, delta=0.1),
        m + "authors_wishart_unshifted_bounds": _b(
            d=2, m=4, k=2000, L_tilde=1.5, alpha_release=1e-3
        ),
        m + "authors_wishart_shifted_bounds": _b(d=2, m=4, k=2000, L_tilde=1.5, alpha_release=1e-3),
        m + "authors_gaussian_bounds": _b(d=2, m=4, sigma_noise=2.0, alpha_release=1e-3),
        m + "authors_shifted": _b(base=base, target_rho_min=5.0),
        m + "authors_base_bounds": _b(mechanism="gaussian", **d2_setting, alpha_release=1e-3),
        m + "authors_regret_objective": _b(
            bounds=base, n=100, d=2, alpha=0.01, L=1.0, S=1.0, sigma=1.0, B=0.75
        ),
        m + "authors_opt_rho_min": _b(mechanism="gaussian", **d2_setting, L=1.0, S=1.0, sigma=1.0),
        m + "authors_d3_rho_grid": _b(**d2_setting, points=8),
        m + "authors_rho_range": _b(**d2_setting),
    }
    m = "reference.shariff_sheffet.regularizers:"
    out |= {m + "default_alpha": _b(variant="wishart", n=10, calibration="authors_code")}
    m = "reference.shariff_sheffet.environments:"
    rot = np.eye(2)
    out |= {
        m + "BandArmSampler": _b(rng=lambda: _g(), d=2, low=0.1, high=0.5),
        m + "LinearGapEnvironment": _b(
            d=2, num_arms=3, gap=0.1, rng=lambda: _g(), reward_model="rademacher"
        ),
        m + "assemble_gap_arms": _b(
            band=A([[0.3, 0.1], [0.2, 0.4]]),
            optimal_tails=A([1.0]),
            positions=A(1),
            optimal_mean=0.75,
        ),
        m + "gaussian_reward_table": _b(rng=lambda: _g(), means=A([0.1, 0.5]), sigma=1.0),
        m + "optimal_positions": _b(uniforms=A([0.3, 0.6]), num_arms=3),
        m + "rademacher_reward_table": _b(rng=lambda: _g(), means=A([0.1, 0.5])),
        m + "rademacher_rewards": _b(uniforms=A([0.3, 0.6]), means=A([[0.1, 0.5], [0.2, 0.3]])),
        m + "rotation_to": _b(theta=A([0.6, 0.8])),
        m + "sample_band_heads": _b(rng=lambda: _g(), d=2, size=3, low=0.1, high=0.5),
        m + "sample_gap_arms": _b(
            rng=lambda: _g(),
            rotation=rot,
            num_arms=3,
            gap=0.1,
            optimal_mean=0.75,
            lowest_mean=-0.75,
        ),
        m + "sample_unit_vector": _b(rng=lambda: _g(), d=2),
        m + "unit_rows": _b(g=A([[3.0, 4.0], [1.0, 0.0]])),
    }
    m = "reference.factorization:"
    out |= {
        m + "BLT": _b(theta=A([0.5, 0.9]), omega=A([0.2, 0.1])),
        m + "BLTNoiseStream": _b(
            blt=lambda: __import__("reference.factorization").factorization.BLT(A([0.5]), A([0.2])),
            law=lambda: __import__("reference.noise").noise.ZeroNoise((2,)),
            rng=lambda: _g(),
        ),
        m + "optimal_blt": _b(n=16, buffers=1),
        m + "sqrt_coefficients": _b(count=4),
        m + "sqrt_factorization": _b(n=4),
    }
    m = "reference.shariff_sheffet.factorized:"
    _blt = lambda: __import__("reference.factorization").factorization.BLT(A([0.5]), A([0.2]))  # noqa: E731
    out |= {
        "reference.shariff_sheffet.regularizers:FactorizedStatistics": _b(
            constants=_constants,
            blt=_blt,
            sigma_noise=1.0,
            bounds=_bounds,
            rng=lambda: _g(),
            n=4,
            reward_policy="raise",
        ),
        m + "factorized_bounds": _b(
            d=2, n=4, L_tilde=1.5, epsilon=1.0, delta=0.1, alpha=0.25, blt=_blt
        ),
        m + "factorized_mu": _b(sigma_noise=1.0, n=4, L_tilde=1.5, blt=_blt),
        m + "factorized_noise_std": _b(n=4, L_tilde=1.5, epsilon=1.0, delta=0.1, blt=_blt),
        "reference.shariff_sheffet.regularizers:make_factorized_regularizer": _b(
            constants=_constants,
            n=4,
            alpha=0.25,
            rng=lambda: _g(),
            privacy=_privacy,
            blt=_blt,
            reward_policy="raise",
        ),
        m + "released_steps": _b(n=4),
    }
    m = "reference.shariff_sheffet.linucb:"
    out |= {
        m + "LinUCB": _b(
            regularizer=lambda: __import__(
                "reference.shariff_sheffet.regularizers"
            ).shariff_sheffet.regularizers.ExactStatistics(_constants()),
            constants=_constants,
            alpha=0.1,
            pd_policy="repair",
        ),
        m + "ucb_argmax": _b(ucb=A([0.1, 0.5, 0.2])),
    }
    m = "reference.shariff_sheffet.regularizers:"
    out |= {
        m + "ExactStatistics": _b(constants=_constants, rho=1.0),
        m + "PrivacyParameters": _b(epsilon=1.0, delta=0.1),
        m + "ProblemConstants": _b(d=2, L=1.0, S=1.0, B=1.0, sigma=1.0, B_tilde=1.0),
        m + "TreeStatistics": _b(
            constants=_constants, tree=_tree, bounds=_bounds, reward_policy="raise"
        ),
        m + "gaussian_node_noise": _b(d=2, sigma_noise=1.0),
        m + "make_regularizer": _b(
            variant="gaussian",
            constants=_constants,
            n=4,
            alpha=0.25,
            rng=lambda: _g(),
            privacy=_privacy,
            rho=1.0,
            gamma_mode="paper",
            pad="fresh",
            reward_policy="raise",
            calibration="paper",
            target_rho_min=None,
            tree="dyadic",
        ),
        m + "regularizer_spec": _b(
            variant="gaussian",
            constants=_constants,
            n=4,
            alpha=0.25,
            privacy=_privacy,
            rho=1.0,
            gamma_mode="paper",
            pad="fresh",
            calibration="paper",
        ),
        m + "check_tree": _b(variant="gaussian", tree="pan_private", pad="fresh"),
        m + "rows_within_norm": _b(rows=A([[0.3, 0.4], [0.1, 0.2]]), L_tilde=1.0),
        m + "tree_rewards": _b(y=A([0.5, -0.5]), b_tilde=1.0, policy="raise"),
        m + "wishart_node_noise": _b(d=2, k=4, L_tilde=1.0),
    }
    m = "reference.shariff_sheffet.simulation:"
    out |= {
        m + "make_policy": _b(
            variant="gaussian",
            constants=_constants,
            n=4,
            alpha=0.25,
            rng=lambda: _g(),
            privacy=_privacy,
            rho=1.0,
            gamma_mode="paper",
            pd_policy="repair",
            calibration="paper",
            tree="dyadic",
        ),
        m + "run_episode": _b(policy=_linucb, environment=_gap_env, n=4, progress=False),
        m + "run_gap_experiment": _b(
            variant="gaussian",
            d=2,
            num_arms=3,
            gap=0.1,
            n=4,
            seed=5,
            privacy=_privacy,
            alpha=0.25,
            reward_model="rademacher",
            constants=_constants,
            progress=False,
            calibration="paper",
            tree="dyadic",
        ),
    }
    m = "reference.shariff_sheffet.tight:"
    out |= {
        m + "wishart_calibration_interval": _b(epsilon=1.0, nodes=2),
        m + "wishart_tight_bounds": _b(
            d=2,
            n=4,
            L_tilde=1.5,
            epsilon=1.0,
            delta=0.1,
            alpha=0.25,
            shifted=True,
            gamma_mode="paper",
        ),
        m + "wishart_tight_degrees_of_freedom": _b(
            d=2, n=4, epsilon=1.0, delta=0.1, relation="replace_one"
        ),
    }

    # reference.validation ----------------------------------------------------------------------
    m = "reference.validation:"
    out |= {
        m + "check_alpha": _b(value=0.5, name="value"),
        m + "check_array": _b(name="value", value=A([1.0, 2.0]), ndim=1, shape=(2,)),
        m + "check_bool": _b(name="value", value=True),
        m + "check_callable": _b(name="value", value=len),
        m + "check_index_array": _b(name="value", value=A([0, 1]), size=2, ndim=1, shape=(2,)),
        m + "check_instance": _b(name="value", value=(1, 2), kind=tuple),
        m + "check_int_array": _b(
            name="value", value=A([1, 2]), minimum=1, below=3, ndim=1, shape=(2,)
        ),
        m + "check_nonempty": _b(name="value", value=A([1.0]), what="entry"),
        m + "check_shape": _b(name="shape", shape=(2, 3)),
        m + "check_choice": _b(name="value", value="a", choices=("a", "b")),
        m + "check_delta": _b(value=0.5, name="value"),
        m + "check_epsilon": _b(value=0.5, name="value"),
        m + "check_finite": _b(name="value", value=0.5),
        m + "check_in_range": _b(
            name="value", value=0.5, low=0.0, high=1.0, low_open=True, high_open=True
        ),
        m + "check_int_at_least": _b(name="value", value=2, minimum=1),
        m + "check_nonnegative": _b(name="value", value=0.5),
        m + "check_positive": _b(name="value", value=0.5),
        m + "check_psd": _b(name="matrix", matrix=A([[2.0, 1.0], [1.0, 2.0]]), atol=1e-10),
        m + "check_size": _b(name="value", value=4, minimum=1, item_bytes=8, what="x", power=1),
        m + "memory_bytes": _b(),
        m + "size_at_least": _b(minimum=1),
        m + "check_row_norms": _b(name="rows", rows=A([[0.6, 0.8]]), bound=1.0, rtol=1e-9),
        m + "check_symmetric": _b(name="matrix", matrix=A([[2.0, 1.0], [1.0, 2.0]]), atol=1e-10),
        m + "float_in": _b(low=0.0, high=1.0, low_open=True, high_open=True),
        m + "int_at_least": _b(minimum=1),
    }

    # reference.zhou_tan -------------------------------------------------------------------------
    m = "reference.zhou_tan.algorithms:"
    K = _kernel()
    out |= {
        m + "ATAGPUCB": _b(
            K=K,
            lam=1.0,
            q=1e9,
            trunc_level=lambda: lambda n, m: 2.0,
            beta_next=lambda: lambda n, m: 2.0,
            beta_1=2.0,
            rng=lambda: _g(),
            dedupe_mode="per_index_then_set",
            per_sample_threshold=False,
        ),
        m + "GPUCB": _b(K=K, lam=1.0, beta=lambda: lambda t: 2.0, rng=lambda: _g()),
        m + "TGPUCB": _b(
            K=K,
            lam=1.0,
            trunc_level=lambda: lambda t: 2.0,
            beta=lambda: lambda t: 2.0,
            rng=lambda: _g(),
        ),
        m + "MoMAGPUCB": _b(
            K=K,
            lam=1.0,
            q=1e9,
            k_rep=3,
            T=4,
            beta_next=lambda: lambda n, m: 2.0,
            beta_1=2.0,
            rng=lambda: _g(),
            median_kind="numpy",
            dedupe_mode="per_index_then_set",
        ),
        m + "make_ata_gp_ucb": _b(
            K=K,
            v=1.0,
            B=1.0,
            lam=1.0,
            delta=0.1,
            eps_nys=0.5,
            T=4,
            rng=lambda: _g(),
            preset="theory",
            alpha=1.0,
            beta_scale=1.0,
            dedupe_mode="per_index_then_set",
        ),
        m + "make_gp_ucb": _b(K=K, lam=1.0, B=1.0, R=1.0, delta=0.1, T=4, rng=lambda: _g()),
        m + "make_ldp_ata_gp_ucb": _b(
            K=K,
            params=_ldp,
            lam=1.0,
            delta=0.1,
            eps_nys=0.5,
            T=4,
            rng=lambda: _g(),
            preset="theory",
            beta_scale=1.0,
        ),
        m + "make_ldp_moma_gp_ucb": _b(
            K=K,
            params=_ldp,
            lam=1.0,
            delta=0.1,
            eps_nys=0.5,
            T=4,
            rng=lambda: _g(),
            preset="theory",
            beta_scale=1.0,
            k_rep_const=24.0,
        ),
        m + "make_ldp_tgp_ucb": _b(
            K=K,
            params=_ldp,
            lam=1.0,
            delta=0.1,
            T=4,
            rng=lambda: _g(),
            beta_scale=1.0,
            preset="theory",
        ),
        m + "make_moma_gp_ucb": _b(
            K=K,
            c=1.0,
            B=1.0,
            lam=1.0,
            delta=0.1,
            eps_nys=0.5,
            T=4,
            rng=lambda: _g(),
            preset="theory",
            alpha=1.0,
            beta_scale=1.0,
            k_rep_const=24.0,
            median_kind="numpy",
        ),
        m + "make_subweibull_tgp_ucb": _b(
            K=K,
            B=1.0,
            signal_bound=1.0,
            tail=(2.0, 0.5, 0.5),
            K2=2.0,
            lam=1.0,
            delta=0.1,
            T=4,
            rng=lambda: _g(),
            beta_scale=1.0,
        ),
        m + "make_tgp_ucb_nonprivate": _b(
            K=K, v=1.0, B=1.0, lam=1.0, rng=lambda: _g(), alpha=1.0, beta_scale=1.0
        ),
        m + "ucb_argmax": _b(
            mean=A([0.1, 0.5, 0.2]), sd=A([0.1, 0.1, 0.3]), beta=2.0, rng=lambda: _g()
        ),
    }
    m = "reference.zhou_tan.bounds:"
    out |= {
        m + "bump_fourier_h": _b(x=A([[0.1, 0.2]]), d=2),
        m + "bump_fourier_h_radial": _b(r=A([0.1, 0.5]), d=3),
        m + "bump_zeta_certificate": _b(d=1, grid_step=0.01),
        m + "lemma91_error_bound": _b(
            B=1.0, eps_nys=0.5, sigma_tilde=A([0.1, 0.2]), estimation_error=0.3, lam=1.0
        ),
        m + "lower_bound_bump_g": _b(x=A([[0.1, 0.2]]), Delta=0.5, w=1.0, d=2),
        m + "lower_bound_width_matern_numeric": _b(B=1.0, Delta=0.1, nu=2.5, d=1, c_matern=1.0),
    }
    m = "reference.zhou_tan.datasets:"
    rows = A([[1.0, 2.0], [2.0, 1.5], [3.0, 2.5]])
    out |= {
        m + "DataProblem": _b(
            name="t", f=rows.mean(axis=0), K=np.eye(2), reward_rows=rows, B=3.0, R=1.5, v=1.0, c=1.0
        ),
        m + "EmpiricalRowEnvironment": _b(problem=_problem, rng=lambda: _g()),
        m + "empirical_covariance_kernel": _b(samples=rows),
        m + "light_sensor_problem": _b(train=rows, test=rows + 0.5),
        m + "light_sensor_standin": _b(
            rng=lambda: _g(), n_sensors=3, n_train=4, n_test=3, noise_scale=60.0
        ),
        m + "load_light_sensor_mat": _b(path=_light_mat),
        m + "load_stock_csv": _b(path=_stock_csv),
        m + "stock_price_standin": _b(
            rng=lambda: _g(), n_stocks=2, n_days=4, factor_vol=0.01, idio_vol=(0.01, 0.015)
        ),
        m + "stock_problem": _b(prices=rows),
    }
    from reference.zhou_tan.environment import UniformNoise

    m = "reference.zhou_tan.environment:"
    out |= {
        m + "Curator": _b(mechanism=lambda: lambda y: y),
        m + "FiniteArmEnvironment": _b(
            f=A([0.1, 0.5, 0.3]), noise=UniformNoise(0.5), rng=lambda: _g()
        ),
        m + "StudentTNoise": _b(df=3.0),
        m + "SubWeibullGaussianNoise": _b(sigma=1.0),
        m + "UniformNoise": _b(R=0.5),
        m + "run_trial": _b(
            env=_zt_env,
            policy=_gpucb,
            curator=lambda: __import__(
                "reference.zhou_tan.environment"
            ).zhou_tan.environment.Curator(None),
            T=3,
        ),
        m + "sample_rkhs_function": _b(K=K, n_support=2, rng=lambda: _g()),
    }
    m = "reference.zhou_tan.gp:"
    out |= {
        m + "FiniteDomainGP": _b(K=K, lam=1.0, refresh_every=5),
        m + "finite_feature_map": _b(K=K),
        m + "gp_posterior": _b(
            K_tt=K[:2, :2], K_tx=K[:2, :], kxx_diag=np.diag(K).copy(), y=A([0.1, 0.2]), lam=1.0
        ),
        m + "gp_posterior_on_domain": _b(K=K, arms=A([0, 2]), y=A([0.1, 0.2]), lam=1.0),
        m + "lemma5_posterior_variance": _b(K_root=np.linalg.cholesky(K), arms=A([0, 2]), lam=1.0),
    }
    m = "reference.zhou_tan.mechanism:"
    out |= {
        m + "ConvertToLaplace": _b(params=_ldp, rng=lambda: _g()),
        m + "LDPParams": _b(eps=1.0, B=1.0, R=1.0, clip=True),
        m + "clip_reward": _b(y=A([0.5, 3.0]), B=1.0, R=1.0),
        m + "ctl_privatize": _b(y=A([0.5, 3.0]), params=_ldp, rng=lambda: _g()),
        m + "laplace_privacy_loss": _b(z=A([0.0, 1.0]), y=0.5, y_prime=-0.5, lap_scale=2.0),
        m + "laplace_tail_probability": _b(threshold=1.0, lap_scale=2.0),
        m + "max_privacy_loss": _b(y=0.5, y_prime=-0.5, params=_ldp),
        m + "paper_unbounded_noise_claim": _b(eps=1.0, delta=0.05),
        m + "subweibull_noise_bound": _b(a=1.0, b=1.0, theta=0.5, T=4, delta=0.1),
    }
    m = "reference.zhou_tan.nystrom:"
    out |= {
        m + "approx_posterior": _b(
            features=lambda: _nystrom().features,
            hist_arms=A([0, 1]),
            K_diag=np.diag(K).copy(),
            lam=1.0,
        ),
        m + "dictionary_accuracy": _b(
            K_root=np.linalg.cholesky(K), hist_arms=A([0, 1]), result=_nystrom, lam=1.0
        ),
        m + "nystrom_embedding": _b(
            K=K,
            hist_arms=A([0, 1]),
            sigma_prev_hist=A([1.0, 1.0]),
            q=1e9,
            rng=lambda: _g(),
            dedupe_mode="per_index_then_set",
        ),
        m + "psd_pinv_sqrt": _b(A=K, rtol=1e-10),
    }
    Phi = A([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    m = "reference.zhou_tan.robust:"
    out |= {
        m + "ata_rows": _b(Phi_hist=Phi, lam=1.0),
        m + "feature_adaptive_truncated_theta": _b(
            Phi_hist=Phi, r_hist=A([0.1, 0.2, 0.3]), lam=1.0, b=2.0
        ),
        m + "median_of_means_select": _b(
            thetas=A([[0.1, 0.2, 0.3], [0.2, 0.1, 0.3]]), V=np.eye(2), median_kind="numpy"
        ),
        m + "ridge_thetas": _b(Phi_hist=Phi, Y=A([[0.1, 0.2], [0.3, 0.2], [0.1, 0.0]]), lam=1.0),
        m + "truncate": _b(y=A([0.5, 3.0]), b=2.0),
    }

    # audit.papers.shariff_sheffet.regret, audit.papers.shariff_sheffet.accuracy, audit.papers.shariff_sheffet.theorems ------------------------------------
    setting: dict[str, Any] = {"d": 2, "num_arms": 3, "gap": 0.1}
    m = "audit.papers.shariff_sheffet.regret:"
    xs = A([10.0, 20.0, 40.0])
    out |= {
        m + "cor15_floor_check": _b(
            regrets=A([5.0, 6.0, 7.0]), num_arms=2, n=100, epsilon=1.0, confidence=0.99, name="f"
        ),
        m + "claim14_pull_check": _b(
            pulls=A([50.0, 60.0, 70.0]), n=10**6, epsilon=1.0, gap=0.5, confidence=0.99, name="f"
        ),
        "audit.methods.scaling:fit_against_form": _b(
            name="f",
            x=xs,
            form=np.sqrt(xs),
            regrets=A([[1.0, 1.5, 2.0], [1.1, 1.4, 2.1]]),
            theorem_exponent="1/2",
            confidence=0.95,
        ),
        "audit.methods.scaling:fit_mean_against_form": _b(
            name="f",
            x=xs,
            form=np.sqrt(xs),
            values=A([[1.0, 1.5, 2.0], [1.1, 1.4, 2.1]]),
            theorem_exponent="1/2",
            confidence=0.95,
        ),
        m + "regret_containment_audit": _b(
            variant="gaussian",
            **setting,
            n=8,
            runs=2,
            seed=1,
            privacy=_privacy,
            alpha=0.125,
            theorem="thm5",
            confidence=0.95,
            name="c",
            claimed_bound=1e6,
        ),
        m + "regret_regression_check": _b(
            policy=_stream_policy,
            reference="nonprivate",
            **setting,
            n=16,
            runs=3,
            seed=1,
            privacy=_privacy,
            theorem="thm5",
            points=3,
            first=4,
            confidence=0.99,
            name="r",
        ),
        m + "regret_scaling_in_dimension": _b(
            variant="nonprivate",
            dims=[2, 3, 4],
            num_arms=3,
            gap=0.1,
            n=8,
            runs=2,
            seed=1,
            privacy=_privacy,
            theorem="thm5",
            calibration="paper",
            confidence=0.95,
        ),
        m + "regret_scaling_in_n": _b(
            variant="gaussian",
            **setting,
            n=32,
            runs=2,
            seed=1,
            privacy=_privacy,
            theorem="thm5",
            points=3,
            first=8,
            confidence=0.95,
            calibration="paper",
        ),
        m + "regret_scaling_in_privacy": _b(
            variant="gaussian",
            epsilons=[0.5, 1.0, 2.0],
            **setting,
            n=8,
            runs=2,
            seed=1,
            delta=0.1,
            calibration="paper",
            confidence=0.95,
            mechanism_epsilon=lambda: lambda e: e,
        ),
        m + "theorem_bound": _b(
            theorem="thm5", n=8, constants=_constants, alpha=0.125, bounds=_bounds, gap=0.1
        ),
    }
    H = A([[2.0, 0.5], [0.5, 1.5]])
    m = "audit.papers.shariff_sheffet.accuracy:"
    out |= {
        m + "definition3_ratios": _b(
            lam_min=A([1.0, 1.2]), lam_max=A([1.5, 1.8]), h_norm=A([0.5, 0.3]), bounds=_bounds
        ),
        "audit.methods.binomial:ratio_quantiles": _b(x=A([0.5, 0.6, 0.7])),
        "audit.methods.binomial:check_ratios": _b(
            name="value", value=A([0.5, 0.6, 0.7]), allow_inf=True, ndim=1
        ),
        m + "regularizer_accuracy_audit": _b(
            noise=SymmetricGaussianNoise(3, 0.1),
            m=2,
            d=2,
            bounds=_bounds,
            nominal_failure_rate=0.1,
            releases=5,
            seed=1,
            name="a",
            confidence=0.95,
            shift=1.0,
        ),
        m + "regularizer_extremes": _b(H=H, h=A([0.1, 0.2])),
        m + "regularizer_extremes_batch": _b(H=H[None], h=A([[0.1, 0.2]])),
    }
    m = "audit.papers.shariff_sheffet.theorems:"
    out |= {
        m + "TreeSourceSpec": _b(d=2, noise=SymmetricGaussianNoise(3, 0.1), shift=1.0, pad="fresh"),
        m + "claim18_coverage": _b(rows=5, d=2, alpha=0.1, reps=5, seed=1),
        m + "claim19_coverage": _b(d=2, k=30, alpha=0.1, reps=5, seed=1, deviation_scale=1.0),
        m + "confidence_ellipsoid_audit": _b(
            variant="gaussian",
            **setting,
            n=8,
            alpha=0.125,
            runs=2,
            seed=1,
            privacy=_privacy,
            constants=_constants,
            confidence=0.95,
        ),
        m + "laurent_massart_tail": _b(d=2, alpha=0.1),
        m + "proof_failure_rate": _b(variant="gaussian", alpha=0.1, ellipsoid=False),
        m + "regularizer_run_audit": _b(
            source=lambda: importlib.import_module(
                "audit.papers.shariff_sheffet.theorems"
            ).TreeSourceSpec(d=2, noise=SymmetricGaussianNoise(3, 0.1), shift=1.0),
            claimed=_bounds,
            n=4,
            nominal_failure_rate=0.1,
            runs=2,
            seed=1,
            name="r",
            confidence=0.95,
            engine="batch",
        ),
    }

    # audit.papers.sajed_sheffet.battery, audit.papers.sajed_sheffet.nas -------------------------------------------
    m = "audit.papers.sajed_sheffet.battery:"
    out |= {
        m + "DPSEConfig": _b(epsilon=1.0, beta=0.5, arm1_sum=384),
        m + "DPSEVariant": _b(name="v", scale_factor=1.0, noise_on="r", shared_noise=False),
        m + "dpse_accuracy_audit": _b(
            means=A([0.6, 0.4]), epsilon=1.0, beta=0.1, T=8, runs=2, seed=1, confidence=0.95
        ),
        m + "dpse_blackbox_audit": _b(
            config=_se_config,
            variant=_se_variant,
            claims=_pure_claims,
            samples=200,
            seed=1,
            confidence=0.95,
        ),
        m + "dpse_closed_form_audit": _b(
            config=_se_config, variant=_se_variant, claims=_pure_claims
        ),
        m + "dpse_closed_form_epsilon": _b(config=_se_config, variant=_se_variant),
        m + "dpse_sample_outcomes": _b(
            config=_se_config, variant=_se_variant, arm1_sum=384, rng=lambda: _g(), size=10
        ),
        m + "dpse_two_arm_log_pmf": _b(config=_se_config, variant=_se_variant, arm1_sum=384),
        m + "laplace_difference_log_tail": _b(y=0.5, scale=1.0),
        m + "SajedSheffetConfig": _b(
            seed=1, samples=200, family_alpha=0.05, accuracy_runs=2, black_box=False
        ),
        m + "cases": _b(config=_ss_config),
        m + "run_sajed_sheffet_battery": _b(config=_ss_config, strategy=None),
    }
    m = "audit.papers.sajed_sheffet.nas:"
    out |= {
        m + "ClosedFormNAS": _b(
            log_pmf=A([-0.5, -1.0]),
            log_pmf_prime=A([-0.6, -0.9]),
            halting_epsilon=0.2,
            epsilon=0.3,
            prefix_shift=A([1.0]),
        ),
        m + "NASConfig": _b(
            rule="exponential", epsilon=1.0, alpha=0.5, beta=0.1, range_R=1.0, cap=3
        ),
        m + "NASVariant": _b(
            name="v", sigma1=12.0, sigma2=12.0, release_scale=4.0, fresh_A=True, drop_c=False
        ),
        m + "check_claims": _b(claims=_pure_claims),
        m + "closed_form_audit_result": _b(
            closed_form_epsilon=0.5,
            claim=lambda: _pure_claims()[0],
            name="e",
            mechanism="m",
            started=0.0,
        ),
        m + "halting_time_log_pmf": _b(
            query_values=A([0.5, 1.0]),
            sigma1=12.0,
            sigma2=12.0,
            fresh_A=True,
            points_per_scale=5,
            width=20.0,
        ),
        m + "max_abs_log_ratio": _b(lp=A([-0.5, -1.0]), lq=A([-0.6, -0.9]), extra=A([0.0, 0.0])),
        "audit.papers.sajed_sheffet.nas_sampled:nas_accuracy_audit": _b(
            config=_nas_config, mu=0.5, runs=2, seed=1, variant=_nas_variant, confidence=0.95
        ),
        "audit.papers.sajed_sheffet.nas_sampled:nas_blackbox_audit": _b(
            config=_nas_config,
            variant=_nas_variant,
            claims=_pure_claims,
            pair=_nas_pair,
            samples=200,
            seed=1,
            view="halting",
            confidence=0.95,
        ),
        m + "nas_closed_form_audit": _b(
            config=_nas_config,
            variant=_nas_variant,
            claims=_pure_claims,
            pair=_nas_pair,
            part="output",
        ),
        m + "nas_closed_form_epsilon": _b(
            x=lambda: _nas_pair().x,
            x_prime=lambda: _nas_pair().x_prime,
            config=_nas_config,
            variant=_nas_variant,
            points_per_scale=5,
        ),
        m + "nas_query_values": _b(stream=lambda: _nas_pair().x, config=_nas_config, drop_c=False),
        "audit.papers.sajed_sheffet.nas_sampled:nas_sample_outputs": _b(
            _nan_output="the estimate of a run that did not halt is NaN (documented)",
            stream=lambda: _nas_pair().x,
            config=_nas_config,
            variant=_nas_variant,
            rng=lambda: _g(),
            size=10,
        ),
        m + "nas_sign_flip_pair": _b(
            config=lambda: importlib.import_module("audit.papers.sajed_sheffet.nas").NASConfig(
                rule="exponential", cap=9, alpha=0.9, beta=0.9
            ),
            check_index=7,
            margin=1.0,
        ),
        "audit.papers.sajed_sheffet.nas_sampled:nas_threshold_noise_calibration": _b(
            config=_nas_config, runs=5, seed=1, scale_factor=1.0
        ),
        m + "nas_worst_case_pair": _b(config=_nas_config),
    }

    # audit.papers.zhou_tan.battery -------------------------------------------------------------------------
    m = "audit.papers.zhou_tan.battery:"
    common: dict[str, Any] = {"seed": 1, "confidence": 0.95}
    out |= {
        "audit.papers.zhou_tan.cases:CTLRandomiser": _b(
            name="c", params=_ldp, broken=False, description="d"
        ),
        m + "ZhouTanConfig": _b(eps=1.0, B=1.0, R=1.0, confidence=0.999, mechanism_samples=200),
        "audit.papers.zhou_tan.accuracy:ata_confidence_event_audit": _b(
            params=_ldp, variant="theory", runs=2, rounds=3, **common, delta=0.05, eps_nys=0.5
        ),
        "audit.papers.zhou_tan.accuracy:binomial_power": _b(
            trials=10, failure_rate=0.3, nominal=0.1, confidence=0.95
        ),
        "audit.papers.zhou_tan.accuracy:critical_failure_count": _b(
            trials=10, nominal=0.1, confidence=0.95
        ),
        "audit.papers.zhou_tan.cases:ctl_black_box_audits": _b(
            randomiser=_ctl, pair=_ctl_pair, params=_ldp, samples=200, **common, pair_name="p"
        ),
        "audit.papers.zhou_tan.cases:ctl_claims": _b(params=_ldp),
        "audit.papers.zhou_tan.cases:ctl_closed_form_audit": _b(
            randomiser=_ctl, pair=_ctl_pair, claim=lambda: _pure_claims()[0], name="c"
        ),
        "audit.papers.zhou_tan.cases:ctl_loss_case": _b(
            randomiser=_ctl, pair=_ctl_pair, params=_ldp, pair_name="p"
        ),
        "audit.papers.zhou_tan.cases:ctl_variants": _b(params=_ldp),
        "audit.papers.zhou_tan.cases:ctl_white_box_audits": _b(
            randomiser=_ctl, pair=_ctl_pair, params=_ldp, samples=200, **common, pair_name="p"
        ),
        "audit.papers.zhou_tan.cases:ctl_closed_form_epsilon": _b(randomiser=_ctl, pair=_ctl_pair),
        "audit.papers.zhou_tan.cases:learner_arm_transcripts": _b(
            params=_ldp, variant="ctl", first_reward=0.5, runs=2, rounds=2, seed=1, beta_scale=0.03
        ),
        "audit.papers.zhou_tan.cases:learner_transcript_audit": _b(
            params=_ldp, variant="ctl", runs=20, rounds=2, **common
        ),
        "audit.papers.zhou_tan.accuracy:lemma10_radius_audit": _b(
            params=_ldp, variant="paper", estimators=5, **common
        ),
        "audit.papers.zhou_tan.accuracy:lemma11_count_audit": _b(
            params=_ldp, bound="corrected", k=5, p=0.2, runs=5, **common
        ),
        "audit.papers.zhou_tan.accuracy:lemma92_variance_ratio_audit": _b(
            variant="theory_q", runs=2, rounds=3, **common, eps_nys=0.5, delta=0.2, n_arms=3
        ),
        "audit.papers.zhou_tan.accuracy:mom_selection_audit": _b(
            params=_ldp, selection="argmin", k=3, p=0.2, runs=5, **common
        ),
        "audit.papers.zhou_tan.accuracy:moma_confidence_event_audit": _b(
            params=_ldp, variant="theory", runs=2, rounds=3, **common, delta=0.05, eps_nys=0.5
        ),
        "audit.papers.zhou_tan.accuracy:nystrom_lemma8_audit": _b(
            variant="theory_q", runs=2, rounds=3, **common, eps_nys=0.5, delta=0.2, n_arms=3
        ),
        m + "cases": _b(config=_zt_config),
        m + "run_zhou_tan_battery": _b(config=_zt_config, strategy=None),
        "audit.papers.zhou_tan.cases:student_t_pair": _b(params=_ldp, df=3.0, quantile=0.999),
        "audit.papers.zhou_tan.accuracy:tgp_confidence_event_audit": _b(
            params=_ldp, variant="theory", runs=2, rounds=3, **common, delta=0.05
        ),
        "audit.papers.zhou_tan.cases:worst_case_pair": _b(params=_ldp),
    }

    # audit.papers.agarwal_singh.battery --------------------------------------------------------------------
    m = "audit.papers.agarwal_singh.battery:"
    out |= {
        "audit.papers.agarwal_singh.cases:AgarwalSinghAuditConfig": _b(
            epsilon=1.0, T=8, gaussian_delta=1e-5, white_box_samples=200
        ),
        "audit.papers.agarwal_singh.reduction:CanaryLearner": _b(N=2, t0=1, threshold=1.0),
        "audit.papers.agarwal_singh.reduction:DenseCanaryLearner": _b(
            x=np.ones(2), t0=1, threshold=1.0
        ),
        "audit.papers.agarwal_singh.reduction:dense_canary_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.gaussian:GaussianReleaseView": _b(T=4, sigma=1.0),
        "audit.papers.agarwal_singh.gaussian:OneShotFTPL": _b(
            decision_set=Cube(2), noise=ZeroNoise((2,)), T=4, rng=lambda: _g()
        ),
        "audit.papers.agarwal_singh.reduction:ReusedNoiseReduction": _b(
            inner=_exp2, noise=LaplaceNoise((2,), 1.0), rng=lambda: _g()
        ),
        "audit.papers.agarwal_singh.cases:ReusedNoiseTree": _b(
            T=4, noise=ZeroNoise((2,)), rng=lambda: _g()
        ),
        "audit.papers.agarwal_singh.accuracy:accuracy_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.reduction:exp2_reduction_arms": _b(
            losses=A([[0.1, 0.9], [0.2, 0.8]]),
            scale=1.0,
            reuse=False,
            eta=0.3,
            gamma=0.2,
            rng=lambda: _g(),
            size=5,
        ),
        "audit.papers.agarwal_singh.reduction:exp2_reduction_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.gaussian:ftpl_action_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.cases:ftrl_action_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.gaussian:gaussian_release_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.accuracy:node_count_audit": _b(
            T=4, factory="reference", name="n"
        ),
        m + "privacy_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.reduction:reduction_canary_cases": _b(config=_as_config),
        m + "cases": _b(config=_as_config, include_broken=False, names=["tree_strict_node_view"]),
        m + "run_agarwal_singh_battery": _b(
            config=_as_config, include_broken=False, names=["tree_strict_node_view"], strategy=None
        ),
        m + "run_agarwal_singh_power": _b(
            config=_as_config, reps=1, seed=1, names=["tree_strict_node_view"]
        ),
        "audit.papers.agarwal_singh.accuracy:tree_error_audit": _b(
            T=4,
            N=2,
            scale=1.0,
            beta=0.2,
            runs=5,
            seed=1,
            claimed_scale=1.0,
            factory="reference",
            name="t",
            confidence=0.95,
        ),
        "audit.papers.agarwal_singh.cases:tree_node_view_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.cases:tree_release_cases": _b(config=_as_config),
        "audit.papers.agarwal_singh.cases:tree_release_samples": _b(
            losses=A([0.5, -0.5, 0.25]),
            noise_of_size=lambda: lambda n: ZeroNoise((n,)),
            rng=lambda: _g(),
            size=3,
        ),
    }

    # audit.tools.golden.third_party, audit.testing: a third-party function against golden cases
    from reference.tree import tree_depth

    golden: dict[str, Any] = {"function": tree_depth, "entry": "tree_depth", "rename": {"n": "n"}}
    out |= {
        "audit.tools.golden.third_party:golden_compare": _b(**golden),
        "audit.tools.golden.third_party:entry_names": _b(),
        "audit.testing:assert_golden": _b(**golden),
    }
    return out


BASELINES_CACHE: dict[str, Baseline] = {}


def baselines() -> dict[str, Baseline]:
    """Every baseline of the api family, keyed ``module:name``."""
    if not BASELINES_CACHE:
        BASELINES_CACHE.update(_baselines())
    return BASELINES_CACHE


_PROTOCOL = "a typing.Protocol (an interface users implement, not a function to call)"
_RECORD = "a result record the library returns (frozen dataclass); its inputs are checked by the function that builds it"
_EXCEPTION = "an exception class"
_TAGGED = (
    "the registry's entry point of a whole paper battery at full or quick size; its seed and sizes "
    "are checked by the configuration it builds, which is swept"
)

NOT_CALLED: dict[str, str] = {
    "reference.factorization:FactorizationCost": (
        "a record the library returns (BLT.cost, sqrt_factorization), never built from user input"
    ),
    "reference.engine.compiled._parallel:compiled": (
        "the decorator the compiled engines apply to their own loops at import; no user input"
    ),
    "reference.engine.compiled._parallel:inlined": (
        "the decorator the compiled engines apply to the pieces of their loops; no user input"
    ),
    "reference.engine.compiled._parallel:resolve_workers": (
        "the compiled engines' check of `workers`, swept through every engine's `workers`"
    ),
    "reference.engine.compiled._parallel:run_chunked": (
        "the compiled engines' threaded driver, called only with an engine's checked sizes"
    ),
    "reference.engine.tasks:GapBatchTask": (
        "a picklable task record for reference.engine.blocks.run_blocks: its fields are checked by "
        "run_gap_batch (swept) when a block runs, before any block or manifest is written"
    ),
    **{
        f"audit.papers.{paper}.battery:papers_cases": _TAGGED
        for paper in ("sajed_sheffet", "zhou_tan", "agarwal_singh")
    },
    **{
        name: _PROTOCOL
        for name in (
            "reference.agarwal_singh.bandits:BanditLearner",
            "reference.agarwal_singh.full_info:FullInfoLearner",
            "reference.agarwal_singh.scrible:Barrier",
            "reference.agarwal_singh.sets:DecisionSet",
            "reference.agarwal_singh.sets:Regularizer",
            "reference.noise:NodeNoise",
            "reference.sajed_sheffet.bandits:Policy",
            "reference.sajed_sheffet.stopping:SampleDistribution",
            "reference.shariff_sheffet.regularizers:Regularizer",
            "reference.zhou_tan.environment:NoiseModel",
            "reference.zhou_tan.environment:Policy",
            "audit.papers.agarwal_singh.cases:ReleaseSource",
        )
    },
    **{
        name: _RECORD
        for name in (
            "reference.agarwal_singh.aggregation:PaddedRelease",
            "reference.agarwal_singh.bandits:BanditRun",
            "reference.agarwal_singh.bandits:ReductionTrace",
            "reference.agarwal_singh.full_info:FullInfoRun",
            "reference.agarwal_singh.theorems:BLOParameters",
            "reference.agarwal_singh.theorems:Cor32Parameters",
            "reference.agarwal_singh.theorems:MABParameters",
            "reference.engine.compiled.ftrl:EXP2BatchResult",
            "reference.engine.compiled.ftrl:FTRLBatchResult",
            "reference.engine.compiled.scrible:SCRiBLeBatchResult",
            "reference.engine.compiled.stopping:DPNASBatchResult",
            "reference.shariff_sheffet.bounds:EllipticalPotential",
            "reference.engine.linucb:BatchResult",
            "reference.engine.linucb:GapSetup",
            "reference.sajed_sheffet.bandits:DPSERun",
            "reference.sajed_sheffet.bandits:EpochRecord",
            "reference.sajed_sheffet.bandits:RunResult",
            "reference.sajed_sheffet.bounds:FailureBudget",
            "reference.sajed_sheffet.bounds:PrivacyAccount",
            "reference.sajed_sheffet.constants:DPNASNoiseScales",
            "reference.sajed_sheffet.constants:EpochParameters",
            "reference.engine.mab:DPSEBatchResult",
            "reference.engine.mab:DPUCBBatchResult",
            "reference.sajed_sheffet.stopping:StoppingResult",
            "reference.sajed_sheffet.stopping:StoppingTrace",
            "reference.sajed_sheffet.stopping:TwoArmTestResult",
            "reference.shariff_sheffet.environments:DecisionRound",
            "reference.shariff_sheffet.environments:RoundBlock",
            "reference.shariff_sheffet.linucb:RoundDiagnostics",
            "reference.shariff_sheffet.simulation:EpisodeResult",
            "reference.tree:Release",
            "reference.zhou_tan.bounds:BumpZetaCertificate",
            "reference.zhou_tan.environment:RKHSFunction",
            "reference.zhou_tan.environment:TrialResult",
            "reference.zhou_tan.nystrom:NystromResult",
            "audit.papers.shariff_sheffet.regret:FloorCheck",
            "audit.papers.shariff_sheffet.regret:PullFloorCheck",
            "audit.papers.shariff_sheffet.regret:RegressionCheckResult",
            "audit.methods.scaling:ScalingFit",
            "audit.methods.binomial:RunAuditResult",
            "audit.papers.agarwal_singh.cases:AgarwalSinghCase",
            "audit.papers.agarwal_singh.battery:PowerRow",
            "audit.tools.golden.third_party:CaseCrash",
            "audit.tools.golden.third_party:CaseMismatch",
            "audit.tools.golden.third_party:GoldenComparison",
        )
    },
    "audit.tools.golden.third_party:main": (
        "the command line privonline golden compare: each usage error (exit 2) is tested in "
        "tests/audit/tools/test_golden_compare.py"
    ),
    "audit.tools.golden.third_party:build_parser": (
        "builds the command line's argparse parser (any prog is a valid program name)"
    ),
    "audit.testing:assert_check_passes": (
        "runs audit.check.run_check with the caller's arguments, unchanged: they are swept by "
        "tests/audit/test_check_hostile.py"
    ),
    "reference.shariff_sheffet.linucb:AccuracyEventError": _EXCEPTION,
    "reference.shariff_sheffet.linucb:AccuracyEventWarning": _EXCEPTION,
}
"""Public names the api family does not call, each with its reason."""


LABELS = ("name", "description", "pair_name", "label", "theorem_exponent")
"""Free-text labels copied into a result or a report (any string is valid): not swept."""

_VALIDATOR = (
    "set by the calling function, not by a user (the message names it); checking it on every call "
    "would slow every check -- the checked value is swept"
)
_ARGPARSE = "an argparse type factory's bound, set in the code of the command line, not by a user"

NOT_SWEPT: dict[tuple[str, str], str] = {
    **{("audit.methods.binomial:check_ratios", p): _VALIDATOR for p in ("allow_inf", "ndim")},
    **{
        (f"reference.validation:{f}", p): _VALIDATOR
        for f, params in {
            "check_alpha": (),
            "check_array": ("ndim", "shape"),
            "check_bool": (),
            "check_callable": (),
            "check_index_array": ("size", "ndim", "shape"),
            "check_instance": ("kind",),
            "check_int_array": ("minimum", "below", "ndim", "shape"),
            "check_nonempty": ("what",),
            "check_shape": (),
            "check_choice": ("choices",),
            "check_delta": (),
            "check_epsilon": (),
            "check_finite": (),
            "check_in_range": ("low", "high", "low_open", "high_open"),
            "check_int_at_least": ("minimum",),
            "check_nonnegative": (),
            "check_positive": (),
            "check_psd": ("atol",),
            "check_size": ("minimum", "item_bytes", "what", "power"),
            "check_row_norms": ("bound", "rtol"),
            "check_symmetric": ("atol",),
        }.items()
        for p in params
    },
    ("reference.sajed_sheffet.constants:check_epsilon_or_inf", "name"): _VALIDATOR,
    **{
        ("reference.validation:float_in", p): _ARGPARSE
        for p in ("low", "high", "low_open", "high_open")
    },
    ("reference.validation:int_at_least", "minimum"): _ARGPARSE,
    ("reference.validation:size_at_least", "minimum"): _ARGPARSE,
    ("audit.papers.sajed_sheffet.nas:closed_form_audit_result", "mechanism"): (
        "a free-text description of the mechanism copied into the result"
    ),
}
"""Parameters of a baseline that the api family does not sweep, each with its reason."""

_DEFAULT_BATTERY = (
    "None is the documented default configuration: the full-size battery (minutes), not called "
    "here (the small configuration is swept)"
)
NOT_CALLED_CASES: dict[tuple[str, str, str], str] = {
    ("audit.papers.zhou_tan.battery:run_zhou_tan_battery", "config", "None"): _DEFAULT_BATTERY,
    (
        "audit.papers.sajed_sheffet.battery:run_sajed_sheffet_battery",
        "config",
        "None",
    ): _DEFAULT_BATTERY,
    (
        "audit.papers.agarwal_singh.battery:run_agarwal_singh_battery",
        "config",
        "None",
    ): _DEFAULT_BATTERY,
    (
        "audit.papers.agarwal_singh.battery:run_agarwal_singh_power",
        "config",
        "None",
    ): _DEFAULT_BATTERY,
    ("audit.papers.agarwal_singh.battery:run_agarwal_singh_power", "names", "None"): (
        "None is the documented 'every case' (the power of each of the 20 cases is slow even at "
        "the small configuration); a list of names is swept"
    ),
    ("audit.papers.agarwal_singh.accuracy:accuracy_cases", "config", "None"): _DEFAULT_BATTERY,
    ("audit.papers.agarwal_singh.battery:privacy_cases", "config", "None"): _DEFAULT_BATTERY,
}
"""Hostile cases that are documented as valid and too slow to call: counted, not called."""


def public_names() -> list[str]:
    """``module:name`` of every public name defined in a swept module (``__all__``)."""
    import pkgutil

    import reference

    modules = [m.name for m in pkgutil.walk_packages(reference.__path__, "reference.")]
    out = []
    for module_name in [*modules, *AUDIT_MODULES]:
        if module_name in OTHER_OWNERS:
            continue
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if getattr(obj, "__module__", None) == module_name and callable(obj):
                out.append(f"{module_name}:{name}")
    return out


def _resolve(label: str) -> Callable[..., Any]:
    module_name, name = label.split(":")
    obj: Callable[..., Any] = getattr(importlib.import_module(module_name), name)
    return obj


def _call(
    func: Callable[..., Any],
    spec: Baseline,
    parameter: str | None,
    make: Callable[[], Any] | None,
) -> Any:
    """``func`` at its baseline, with ``parameter`` replaced by ``make()`` (fresh arguments)."""
    kwargs = spec.kwargs()
    if parameter is not None and make is not None:
        kwargs[parameter] = make()
    return func(**kwargs)


def api_cases(only: str | None = None) -> Iterator[Case]:
    """The api family (module docstring); ``only`` restricts it to labels containing that text."""
    from audit.tools import golden

    registered = {e.key for e in golden.registry()}
    table = baselines()
    for label in public_names():
        if label in registered or label in NOT_CALLED or (only and only not in label):
            continue
        spec = table.get(label)
        if spec is None:
            yield Case("api", label, "-", "-", "no baseline", "")
            continue
        func = _resolve(label)
        outcome, detail = classify(partial(_call, func, spec, None, None), "-")
        if outcome == "nan-output" and spec.nan_output:
            outcome = "accepted"
        if outcome != "accepted":
            yield Case("api", label, "-", "-", f"baseline fails: {outcome}", detail)
            continue
        for parameter, value in spec.kwargs().items():
            if (label, parameter) in NOT_SWEPT or parameter in LABELS:
                continue
            for category, make in hostile_values(value, parameter).items():
                if (label, parameter, category) in NOT_CALLED_CASES:
                    yield Case("api", label, parameter, category, "not called", "documented")
                    continue
                call = partial(_call, func, spec, parameter, make)
                outcome, detail = classify(call, parameter)
                if outcome == "nan-output" and spec.nan_output:
                    outcome = "accepted"
                yield Case("api", label, parameter, category, outcome, detail)


# ------------------------------------------------------------------------------------------------
# Family "rng": every rng argument of reference (methods included)
# ------------------------------------------------------------------------------------------------


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


# ------------------------------------------------------------------------------------------------
# Family "seed": public seeds of the modules outside the api family
# ------------------------------------------------------------------------------------------------


def _seed_calls() -> dict[str, Callable[[Any], Any]]:
    from audit.mechanisms import GaussianMechanism
    from audit.methods.black_box import event_audit
    from audit.methods.stream import collect_transcripts, worst_case_streams
    from audit.methods.white_box import white_box_audit
    from audit.protocols import NeighbouringPair, PrivacyClaim
    from reference.engine.blocks import run_blocks
    from reference.engine.tasks import GapBatchTask
    from reference.rng import child_seeds, named_generators, spawn_generators

    pair = NeighbouringPair(np.zeros(1), np.ones(1))
    claim = PrivacyClaim(1.0, 1e-3)
    mech = GaussianMechanism(sigma=1.0)
    s, sp = worst_case_streams(4, 1)
    policy = _stream_policy()
    return {
        "reference.rng:child_seeds": lambda v: child_seeds(v, 0, 2),
        "reference.rng:spawn_generators": lambda v: spawn_generators(v, 2),
        "reference.rng:named_generators": lambda v: named_generators(v, ["a"]),
        "reference.engine.blocks:run_blocks": lambda v: run_blocks(
            GapBatchTask("nonprivate", 2, 4, 0.1, 5),
            seed=v,
            replicates=1,
            block_size=1,
            executor="serial",
        ),
        "audit.methods.white_box:white_box_audit": lambda v: white_box_audit(
            mech, pair, claim, samples=10, seed=v
        ),
        "audit.methods.black_box:event_audit": lambda v: event_audit(
            mech, pair, claim, samples=10, seed=v
        ),
        "audit.methods.stream:collect_transcripts": lambda v: collect_transcripts(
            policy, s, sp, 1, runs=4, seed=v
        ),
        "audit.methods.stream:worst_case_streams": lambda v: worst_case_streams(4, 1, seed=v),
    }


def seed_cases() -> Iterator[Case]:
    """The public seeds outside the api family (module docstring)."""
    for label, call in _seed_calls().items():
        for category, make in HOSTILE_RNG.items():
            outcome, detail = classify(partial(call, make()), "seed")
            yield Case("seed", label, "seed", category, outcome, detail)


# ------------------------------------------------------------------------------------------------
# Family "method": the public methods of the public classes, from a baseline instance
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MethodBaseline:
    """A known-good method call: ``build()`` returns a fresh instance, in a state where the method
    may be called, and fresh arguments."""

    build: Callable[[], tuple[Any, dict[str, Any]]]
    nan_output: str = ""


def instance(label: str) -> Any:
    """A fresh instance of the public class ``label`` (``module:Class``), built from its api
    baseline."""
    return _call(_resolve(label), baselines()[label], None, None)


def _mb(
    owner: str,
    *,
    _prepare: Callable[[Any], object] | None = None,
    _instance: Callable[[], Any] | None = None,
    **kwargs: Any,
) -> MethodBaseline:
    """A method baseline on an instance of ``owner`` (``module:Class``, built from its api baseline
    unless ``_instance`` builds it), after ``_prepare(instance)`` (e.g. ``act()`` before
    ``update``); arguments as in :func:`_b`."""

    def build() -> tuple[Any, dict[str, Any]]:
        obj = _instance() if _instance is not None else instance(owner)
        if _prepare is not None:
            _prepare(obj)
        return obj, _b(**kwargs).kwargs()

    return MethodBaseline(build)


def _scrible_estimate() -> tuple[Any, dict[str, Any]]:
    learner = instance("reference.agarwal_singh.scrible:SCRiBLe")
    learner.act()
    k, s, eigvals, eigvecs = learner._pending
    return learner, {"feedback": 0.5, "k": k, "s": s, "eigvals": eigvals, "eigvecs": eigvecs}


def _method_baselines() -> dict[str, MethodBaseline]:
    A = np.array
    out: dict[str, MethodBaseline] = {}
    act: Callable[[Any], object] = lambda learner: learner.act()  # noqa: E731
    loss, x2 = A([0.1, 0.2]), A([0.3, 0.4])

    m = "reference.agarwal_singh."
    out[m + "aggregation:TreeBasedAggregation.step"] = _mb(
        m + "aggregation:TreeBasedAggregation", loss=loss
    )
    for owner in ("bandits:EXP2Exploration", "bandits:PrivateBanditReduction"):
        out[f"{m}{owner}.update"] = _mb(m + owner, _prepare=act, feedback=0.5)
    out[m + "bandits:EXP2Exploration.estimate"] = _mb(
        m + "bandits:EXP2Exploration", _prepare=act, feedback=0.5
    )
    for owner in ("full_info:OneShotFTRL", "full_info:PrivateFTRL"):
        out[f"{m}{owner}.observe"] = _mb(m + owner, loss=loss)
    out[m + "full_info:PrivateFTPL.observe"] = _mb(m + "full_info:PrivateFTPL", loss=-loss)
    for owner in ("scrible:BallBarrier", "scrible:CubeBarrier", "scrible:PolytopeBarrier"):
        c = m + owner
        out |= {
            f"{c}.contains": _mb(c, x=loss, tol=1e-12),
            f"{c}.ftrl_argmin": _mb(c, theta=loss, eta=0.5, start=A([0.0, 0.0])),
            f"{c}.grad": _mb(c, x=loss),
            f"{c}.hess": _mb(c, x=loss),
            f"{c}.value": _mb(c, x=loss),
        }
    out[m + "scrible:SCRiBLe.estimate"] = MethodBaseline(_scrible_estimate)
    out[m + "scrible:SCRiBLe.update"] = _mb(m + "scrible:SCRiBLe", _prepare=act, feedback=0.5)
    for owner in ("sets:Cube", "sets:L2Ball", "sets:Simplex"):
        c = m + owner
        out |= {
            f"{c}.contains": _mb(c, x=A([0.5, 0.5]), tol=1e-9),
            f"{c}.linear_argmin": _mb(c, c=loss),
            f"{c}.radius": _mb(c, p=2.0),
            f"{c}.support": _mb(c, c=loss),
        }
    c = m + "sets:LossSet"
    out |= {
        f"{c}.contains": _mb(c, losses=loss, tol=1e-9),
        f"{c}.diameter": _mb(c, p=2.0),
        f"{c}.norm_radius": _mb(c, p=2.0),
    }
    for owner in ("sets:NegativeEntropySimplex", "sets:SquaredNormBall", "sets:SquaredNormCube"):
        c = m + owner
        out |= {
            f"{c}.argmin": _mb(c, theta=loss, eta=0.5),
            f"{c}.dual_local_norm_sq": _mb(c, loss=loss),
            f"{c}.value": _mb(c, x=A([0.5, 0.5])),
        }

    c = "reference.factorization:BLT"
    out |= {
        f"{c}.coefficients": _mb(c, count=4),
        f"{c}.cost": _mb(c, n=4),
        f"{c}.error": _mb(c, n=4),
        f"{c}.inverse_coefficients": _mb(c, count=4),
        f"{c}.sensitivity": _mb(c, n=4),
    }
    for noise in ("GaussianVectorNoise", "LaplaceNoise", "SymmetricGaussianNoise", "WishartNoise"):
        out[f"reference.noise:{noise}.sample_sum"] = _mb(
            f"reference.noise:{noise}", rng=lambda: _g(), j=2
        )
    out["reference.noise:ZeroNoise.sample_sum"] = _mb(
        "reference.noise:ZeroNoise", rng=lambda: _g(), j=2
    )
    for noise in (
        "GaussianVectorNoise",
        "LaplaceNoise",
        "SymmetricGaussianNoise",
        "WishartNoise",
        "ZeroNoise",
    ):
        out[f"reference.noise:{noise}.sample"] = _mb(f"reference.noise:{noise}", rng=lambda: _g())

    m = "reference.sajed_sheffet."
    for owner in ("bandits:DPUCB", "bandits:UCB1"):
        out[f"{m}{owner}.update"] = _mb(m + owner, arm=1, reward=0.5)
    for owner in ("bandits:DPSuccessiveElimination", "bandits:GuessAndDoubleDPSE"):
        out[f"{m}{owner}.update"] = _mb(
            m + owner, _prepare=lambda p: p.select_arm(), arm=0, reward=0.5
        )
    c = m + "bandits:BanditEnvironment"
    out |= {
        f"{c}.pseudo_regret": _mb(c, pulls=A([1, 1])),
        f"{c}.pull": _mb(c, arm=1),
        f"{c}.pull_many": _mb(c, arm=1, n=3),
    }
    c = m + "stopping:SampleStream"
    out |= {
        f"{c}.from_callable": _mb(c, draw=lambda: lambda: 0.5),
        f"{c}.from_distribution": _mb(
            c,
            distribution=lambda: importlib.import_module(
                "reference.sajed_sheffet.stopping"
            ).UniformDistribution(0.0, 1.0),
            rng=lambda: _g(),
        ),
        f"{c}.from_values": _mb(c, values=A([0.1, 0.2])),
        f"{c}.take": _mb(c, n=2),
    }
    for owner in ("stopping:TwoPointDistribution", "stopping:UniformDistribution"):
        out[f"{m}{owner}.sample"] = _mb(m + owner, rng=lambda: _g(), size=3)

    m = "reference.shariff_sheffet."
    out[m + "environments:BandArmSampler.draw"] = _mb(m + "environments:BandArmSampler", count=3)
    out[m + "environments:LinearGapEnvironment.draw_block"] = _mb(
        m + "environments:LinearGapEnvironment", rounds=2
    )
    for owner in (
        "regularizers:FactorizedStatistics",
        "linucb:LinUCB",
        "regularizers:ExactStatistics",
        "regularizers:TreeStatistics",
    ):
        out[f"{m}{owner}.update"] = _mb(m + owner, x=x2, y=0.5)
    out[m + "linucb:LinUCB.select"] = _mb(m + "linucb:LinUCB", arms=A([[0.3, 0.4], [0.5, 0.1]]))
    out["reference.tree:TreeAggregator.insert"] = _mb("reference.tree:TreeAggregator", item=loss)
    out["reference.tree:PanPrivateTree.insert"] = _mb("reference.tree:PanPrivateTree", item=loss)

    m = "reference.zhou_tan."
    for owner in ("ATAGPUCB", "GPUCB", "TGPUCB"):
        out[f"{m}algorithms:{owner}.observe"] = _mb(
            f"{m}algorithms:{owner}", _prepare=lambda p: p.next_query(), arm=1, rewards=A([0.5])
        )
    out[m + "algorithms:MoMAGPUCB.observe"] = _mb(
        m + "algorithms:MoMAGPUCB",
        _prepare=lambda p: p.next_query(),
        arm=1,
        rewards=A([0.5, 0.4, 0.6]),
    )
    out[m + "datasets:EmpiricalRowEnvironment.pull"] = _mb(
        m + "datasets:EmpiricalRowEnvironment", arm=1, n=2
    )
    out[m + "environment:Curator.respond"] = _mb(m + "environment:Curator", env=_zt_env, arm=1, n=2)
    out[m + "environment:FiniteArmEnvironment.pull"] = _mb(
        m + "environment:FiniteArmEnvironment", arm=1, n=2
    )
    for owner in ("StudentTNoise", "SubWeibullGaussianNoise", "UniformNoise"):
        out[f"{m}environment:{owner}.sample"] = _mb(
            f"{m}environment:{owner}", n=3, rng=lambda: _g()
        )
    out[m + "gp:FiniteDomainGP.update"] = _mb(m + "gp:FiniteDomainGP", arm=1, y=0.5)

    out["audit.papers.shariff_sheffet.theorems:TreeSourceSpec.of_variant"] = _mb(
        "audit.papers.shariff_sheffet.theorems:TreeSourceSpec",
        variant="gaussian",
        constants=_constants,
        n=4,
        alpha=0.25,
        privacy=_privacy,
    )
    out["audit.papers.sajed_sheffet.battery:DPSEVariant.noise_scale"] = _mb(
        "audit.papers.sajed_sheffet.battery:DPSEVariant", config=_se_config
    )
    out["audit.papers.sajed_sheffet.nas:NASVariant.scales"] = _mb(
        "audit.papers.sajed_sheffet.nas:NASVariant", config=_nas_config
    )
    c = "audit.papers.zhou_tan.cases:CTLRandomiser"
    out |= {
        f"{c}.centre": _mb(c, y=0.5),
        f"{c}.log_density": _mb(c, data=A([0.5]), outputs=A([[0.1], [0.2]])),
        f"{c}.sample": _mb(c, data=A([0.5]), rng=lambda: _g(), size=3),
    }
    m = "audit.papers.agarwal_singh."
    out[m + "cases:ReusedNoiseTree.step"] = _mb(m + "cases:ReusedNoiseTree", loss=loss)
    for owner in (
        "reduction:CanaryLearner",
        "reduction:DenseCanaryLearner",
        "reduction:ReusedNoiseReduction",
    ):
        out[f"{m}{owner}.update"] = _mb(m + owner, _prepare=act, feedback=0.5)
    c = m + "gaussian:GaussianReleaseView"
    data, other = A([0.1, 0.2, 0.3, 0.4]), A([0.1, 0.2, 0.3, -0.4])
    out |= {
        f"{c}.log_density": _mb(c, data=data, outputs=lambda: np.ones((3, 5))),
        f"{c}.mean": _mb(c, data=data),
        f"{c}.mu": _mb(c, data=data, other=other),
        f"{c}.sample": _mb(c, data=data, rng=lambda: _g(), size=3),
    }
    out[m + "gaussian:OneShotFTPL.observe"] = _mb(m + "gaussian:OneShotFTPL", loss=-loss)
    return out


METHOD_BASELINES_CACHE: dict[str, MethodBaseline] = {}


def method_baselines() -> dict[str, MethodBaseline]:
    """Every baseline of the method family, keyed ``module:Class.method``."""
    if not METHOD_BASELINES_CACHE:
        METHOD_BASELINES_CACHE.update(_method_baselines())
    return METHOD_BASELINES_CACHE


def public_methods() -> list[str]:
    """``module:Class.method`` of every public method with at least one argument, of every public
    class the api family calls (defined in this package; protocols and records are not called)."""
    out = []
    for label in public_names():
        cls = _resolve(label)
        if not inspect.isclass(cls) or label in NOT_CALLED:
            continue
        for name, member in inspect.getmembers(cls):
            if name.startswith("_") or not inspect.isfunction(member) | inspect.ismethod(member):
                continue
            if not (getattr(member, "__module__", "") or "").startswith(("reference", "audit")):
                continue
            params = [p for p in inspect.signature(member).parameters if p not in ("self", "cls")]
            if params:
                out.append(f"{label}.{name}")
    return out


def _call_method(
    label: str, spec: MethodBaseline, parameter: str | None, make: Callable[[], Any] | None
) -> Any:
    """The method ``label`` of a fresh baseline instance, with ``parameter`` replaced by
    ``make()``."""
    obj, kwargs = spec.build()
    if parameter is not None and make is not None:
        kwargs[parameter] = make()
    return getattr(obj, label.rsplit(".", 1)[1])(**kwargs)


HORIZONS: dict[str, str] = {
    "reference.agarwal_singh.aggregation:TreeBasedAggregation.step": "T",
    "reference.agarwal_singh.full_info:OneShotFTRL.observe": "T",
    "reference.agarwal_singh.full_info:PrivateFTPL.observe": "T",
    "reference.agarwal_singh.full_info:PrivateFTRL.observe": "T",
    "reference.sajed_sheffet.bandits:DPUCB.update": "T",
    "reference.shariff_sheffet.regularizers:FactorizedStatistics.update": "n",
    "reference.shariff_sheffet.regularizers:TreeStatistics.update": "n",
    "reference.tree:TreeAggregator.insert": "n",
    "reference.tree:PanPrivateTree.insert": "n",
    "audit.papers.agarwal_singh.cases:ReusedNoiseTree.step": "T",
    "audit.papers.agarwal_singh.gaussian:OneShotFTPL.observe": "T",
}
"""Methods that take one step of a run with a horizon, and the parameter naming it (every
baseline's horizon is 4): their fifth call is the ``past horizon`` case of the method family."""


def _past_horizon(label: str, spec: MethodBaseline, steps: int = 4) -> Any:
    """The method ``label`` called once more than the horizon ``steps`` allows, on one instance."""
    obj, _ = spec.build()
    method = getattr(obj, label.rsplit(".", 1)[1])
    for _ in range(steps):
        method(**spec.build()[1])
    return method(**spec.build()[1])


def method_cases(only: str | None = None) -> Iterator[Case]:
    """The method family (module docstring); ``only`` restricts it to labels containing that
    text."""
    table = method_baselines()
    for label in public_methods():
        if label in NOT_CALLED_METHODS or (only and only not in label):
            continue
        spec = table.get(label)
        if spec is None:
            yield Case("method", label, "-", "-", "no baseline", "")
            continue
        outcome, detail = classify(partial(_call_method, label, spec, None, None), "-")
        if outcome == "nan-output" and spec.nan_output:
            outcome = "accepted"
        if outcome != "accepted":
            yield Case("method", label, "-", "-", f"baseline fails: {outcome}", detail)
            continue
        for parameter, value in spec.build()[1].items():
            for category, make in hostile_values(value, parameter).items():
                call = partial(_call_method, label, spec, parameter, make)
                outcome, detail = classify(call, parameter)
                if outcome == "nan-output" and spec.nan_output:
                    outcome = "accepted"
                yield Case("method", label, parameter, category, outcome, detail)
        if label in HORIZONS:
            outcome, detail = classify(partial(_past_horizon, label, spec), HORIZONS[label])
            yield Case("method", label, HORIZONS[label], "past horizon", outcome, detail)


NOT_CALLED_METHODS: dict[str, str] = {}
"""Public methods the method family does not call, each with its reason."""


# ------------------------------------------------------------------------------------------------
# Isolated cases: a worker process with a time limit per case (families "size" and "cli")
# ------------------------------------------------------------------------------------------------

CASE_SECONDS = 20.0
"""Time limit of one isolated case: a call that has not answered by then is a ``hang``."""

_STARTUP_SECONDS = 300.0
_HEADROOM_BYTES = 4 * 2**30


def _limit_memory() -> None:
    """Cap the worker's address space at its size after start-up plus 4 GiB, so that a case that
    allocates without bound gets a ``MemoryError`` at once instead of paging the shared machine."""
    try:
        import resource

        status = Path("/proc/self/status").read_text(encoding="ascii")
    except (ImportError, OSError):
        return
    found = re.search(r"^VmSize:\s+(\d+) kB", status, re.MULTILINE)
    if found is not None:
        cap = int(found.group(1)) * 1024 + _HEADROOM_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))


def _worker(conn: Any, folder: str) -> None:
    """Answer ``(family, ...)`` requests with ``(outcome, detail)`` until ``None`` arrives; runs in
    its own session (so a case's child processes are killed with it) and in ``folder`` (so a
    command that runs writes nothing into the checkout).  Everything the cases use is imported
    and built before the first case, so that the time limit measures the case alone."""
    import os

    os.setsid()
    os.chdir(folder)
    sys.path.insert(0, str(REPO))
    from audit.tools import golden

    # warm up (imports, tables, parsers) before the memory cap, so that no case pays for them
    golden.registry()
    baselines()
    method_baselines()
    cli_commands()
    _limit_memory()
    conn.send("ready")
    while (request := conn.recv()) is not None:
        try:
            answer = _ISOLATED[request[0]](*request[1:])
        except BaseException as err:  # the sweep's own failure: reported, never hidden
            answer = (f"raw:{type(err).__name__}", f"in the sweep itself: {err}"[:160])
        conn.send(answer)


class Isolated:
    """A worker process (:func:`_worker`) that runs one case at a time within ``limit`` seconds:
    a case that does not answer in time is a ``hang`` (the worker's whole session is killed and a
    new worker started), one whose worker dies is ``crash:<exit code>``.  Signals cannot stop a
    loop inside compiled code, a process can always be killed: this is how an endless loop is
    detected without stopping the sweep."""

    def __init__(self, limit: float = CASE_SECONDS) -> None:
        self.limit = limit
        self._proc: Any = None
        self._conn: Any = None

    def _start(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._proc = context.Process(target=_worker, args=(child, str(_tmp())), daemon=True)
        self._proc.start()
        child.close()
        if not self._conn.poll(_STARTUP_SECONDS) or self._conn.recv() != "ready":
            self._kill()
            raise RuntimeError("the isolated worker did not start")

    def _kill(self) -> None:
        import os
        import signal

        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self._proc.kill()
            self._proc.join()
        self._proc = self._conn = None

    def run(self, request: tuple[Any, ...]) -> tuple[str, str]:
        """The outcome of one request (see :func:`_worker`)."""
        if self._proc is None:
            self._start()
        self._conn.send(request)
        if not self._conn.poll(self.limit):
            self._kill()
            return "hang", f"no answer within {self.limit:g} s"
        try:
            answer: tuple[str, str] = self._conn.recv()
        except EOFError:
            code = self._proc.exitcode if self._proc is not None else None
            self._kill()
            return f"crash:{code}", "the worker process died"
        return answer

    def close(self) -> None:
        """Stop the worker."""
        if self._proc is not None:
            self._conn.send(None)
            self._proc.join(10)
            self._kill()

    def __enter__(self) -> Isolated:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------------------------------------
# Family "size": absurd sizes (isolated)
# ------------------------------------------------------------------------------------------------

SIZE = 10**18
"""The absurd size: more items than any machine can hold, more steps than any run can take."""


@cache
def _registry_baseline(key: str) -> tuple[Callable[..., Any], dict[str, Any]] | None:
    """The registry function ``key`` and its baseline (the first valid point of its grid; the
    caller copies the arguments before changing one)."""
    from audit.tools import golden

    for entry in golden.registry():
        if entry.key != key:
            continue
        for params in entry.grid:
            kwargs = entry.prepare(dict(params)) if entry.prepare else dict(params)
            if _silent(partial(entry.func, **kwargs)):
                return entry.func, kwargs
    return None


def _size_call(kind: str, label: str, parameter: str) -> Callable[[], Any]:
    """The call of ``label`` (of family ``kind``) at its baseline with ``parameter = SIZE``."""
    make: Callable[[], Any] = lambda: SIZE  # noqa: E731
    if kind == "registry":
        found = _registry_baseline(label)
        assert found is not None
        func, kwargs = found
        return partial(func, **{**kwargs, parameter: SIZE})
    if kind == "api":
        return partial(_call, _resolve(label), baselines()[label], parameter, make)
    return partial(_call_method, label, method_baselines()[label], parameter, make)


def _size_case(kind: str, label: str, parameter: str) -> tuple[str, str]:
    return classify(_size_call(kind, label, parameter), parameter)


def size_targets() -> list[tuple[str, str, str]]:
    """``(family, label, parameter)`` of every integer argument of the registry, api and method
    baselines (seeds and the parameters the api family leaves out aside)."""
    from audit.tools import golden

    out: list[tuple[str, str, str]] = []
    for entry in golden.registry():
        found = _registry_baseline(entry.key)
        if found is not None:
            out += [("registry", entry.key, p) for p, v in found[1].items() if _kind(v, p) == "int"]
    for label, spec in baselines().items():
        if label in NOT_CALLED or label not in public_names():
            continue
        out += [
            ("api", label, p)
            for p, v in spec.kwargs().items()
            if _kind(v, p) == "int" and (label, p) not in NOT_SWEPT and p not in LABELS
        ]
    for label, mspec in method_baselines().items():
        out += [("method", label, p) for p, v in mspec.build()[1].items() if _kind(v, p) == "int"]
    return out


def size_cases(runner: Isolated | None = None) -> Iterator[Case]:
    """The size family: every integer argument at :data:`SIZE`, each case in ``runner`` (a fresh
    :class:`Isolated` by default) within its time limit."""
    with Isolated() if runner is None else nullcontext(runner) as worker:
        for kind, label, parameter in size_targets():
            outcome, detail = worker.run(("size", kind, label, parameter))
            yield Case("size", label, parameter, "10**18", outcome, detail)


# ------------------------------------------------------------------------------------------------
# Family "cli": every command of the command line but `check` (isolated)
# ------------------------------------------------------------------------------------------------

NOT_SWEPT_COMMANDS = {("check",): "privonline check has its own tests (tests/audit/test_check.py)"}
"""Commands the cli family leaves out, each with its reason."""


class _ParsedError(Exception):
    def __init__(self, parser: Any) -> None:
        self.parser = parser


def _capture_parser(argv: list[str]) -> Any:
    """The ``argparse`` parser that ``privonline ARGV`` parses its options with (caught at its
    ``parse_args``, so nothing runs)."""
    import argparse

    from audit.cli import main

    def caught(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> Any:
        raise _ParsedError(self)

    original = argparse.ArgumentParser.parse_args
    argparse.ArgumentParser.parse_args = caught  # type: ignore[method-assign]
    try:
        main([*argv, "--help"])
    except _ParsedError as found:
        return found.parser
    finally:
        argparse.ArgumentParser.parse_args = original  # type: ignore[method-assign]
    raise AssertionError(f"privonline {' '.join(argv)} parsed no options")


def cli_commands() -> dict[tuple[str, ...], Any]:
    """Every command (its argv prefix) and its parser: ``audit privacy|zoo|papers|benchmark``,
    ``experiment``, ``bench``, ``golden``, ``reproduce`` and ``reproduce PAPER`` for every
    paper (``check`` aside: :data:`NOT_SWEPT_COMMANDS`)."""
    import argparse

    import audit.papers as registry

    out: dict[tuple[str, ...], Any] = {}
    audit_parser = _capture_parser(["audit", "privacy"])
    for action in audit_parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if name != "benchmark":
                    out[("audit", name)] = sub
    out[("audit", "benchmark")] = _capture_parser(["audit", "benchmark"])
    for command in ("experiment", "bench", "golden"):
        out[(command,)] = _capture_parser([command])
    out[("reproduce",)] = _capture_parser(["reproduce"])
    for paper in registry.PAPERS:
        out[("reproduce", paper.cli_name)] = _capture_parser(["reproduce", paper.cli_name])
    return out


def _file() -> str:
    path = _tmp() / "a-file"
    path.write_text("not a folder\n", encoding="utf-8")
    return str(path)


def cli_arguments(parser: Any) -> list[tuple[str, str, list[str]]]:
    """``(parameter, category, argv)`` of the hostile arguments of one parser: an unknown flag; a
    positional's unknown value; for each option taking a value, a wrong value by its type (an
    option's unknown choice; a file where a folder is expected; NaN, ``inf``, ``-1`` and text for
    a number; ``-1``, ``2.5``, NaN, text and ``10**18`` (seeds aside) for an integer)."""
    out: list[tuple[str, str, list[str]]] = [("no-such-flag", "unknown flag", ["--no-such-flag"])]
    for action in parser._actions:
        if action.nargs == 0 or action.dest == "help":
            continue
        if not action.option_strings:
            if action.nargs in ("*", "+", None):
                out.append((action.dest, "string", [STRING]))
            continue
        flag = action.option_strings[-1]
        name = getattr(action.type, "__name__", "")
        values: dict[str, str]
        if action.choices is not None:
            values = {"string": STRING}
        elif action.type is Path:
            values = {"file": _file()}
        elif action.type is int or name.startswith("integer"):
            values = {"negative": "-1", "float": "2.5", "nan": "nan", "string": STRING}
            if action.dest != "seed":
                values["huge"] = str(SIZE)
        elif action.type is float or name == "number":
            values = {"nan": "nan", "inf": "inf", "negative": "-1", "string": STRING}
        else:
            values = {"string": STRING}
        out += [(flag.lstrip("-"), k, [f"{flag}={v}"]) for k, v in values.items()]
    return out


def _cli_case(argv: list[str], parameter: str) -> tuple[str, str]:
    """``privonline ARGV`` in this process, output captured: ``clear`` if it exits with code 2, a
    message naming ``parameter`` and no traceback; ``unclear`` if the message does not name it;
    ``traceback`` if one is printed; ``exit <code>`` for another code; ``raw:<Exception>`` if an
    exception escapes."""
    import contextlib
    import io

    from audit.cli import main

    out, err = io.StringIO(), io.StringIO()
    try:
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("ignore")
            code = main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException as error:
        return f"raw:{type(error).__name__}", str(error)[:160]
    message = err.getvalue().strip()
    if "Traceback (most recent call last)" in out.getvalue() + message:
        return "traceback", message[-160:]
    if code != 2:
        return f"exit {code}", (message or out.getvalue().strip())[-160:]
    return ("clear" if names(message, parameter) else "unclear"), message[-160:]


def cli_targets() -> list[tuple[str, str, str, list[str]]]:
    """``(command, parameter, category, argv)`` of the cli family (:func:`cli_arguments` for
    every command of :func:`cli_commands`, and an unknown command)."""
    out = [
        ("", "COMMAND", "string", [STRING]),
        ("audit", "AUDIT", "string", ["audit", STRING]),
    ]
    for prefix, parser in cli_commands().items():
        out += [
            (" ".join(prefix), parameter, category, [*prefix, *argv])
            for parameter, category, argv in cli_arguments(parser)
        ]
    return out


def cli_cases(runner: Isolated | None = None) -> Iterator[Case]:
    """The cli family: every hostile argument of every command, each case in ``runner`` (a fresh
    :class:`Isolated` by default) within its time limit; nothing may run (a command that does
    runs into the limit)."""
    with Isolated() if runner is None else nullcontext(runner) as worker:
        for command, parameter, category, argv in cli_targets():
            outcome, detail = worker.run(("cli", argv, parameter))
            yield Case("cli", f"privonline {command}", parameter, category, outcome, detail)


_ISOLATED: dict[str, Callable[..., tuple[str, str]]] = {"size": _size_case, "cli": _cli_case}


# ------------------------------------------------------------------------------------------------
# The sweep and its summary
# ------------------------------------------------------------------------------------------------


def sweep() -> list[Case]:
    """Every case of the four families."""
    with Isolated() as worker:
        return [
            *registry_cases(),
            *api_cases(),
            *method_cases(),
            *rng_cases(),
            *seed_cases(),
            *size_cases(worker),
            *cli_cases(worker),
        ]


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
    sys.path.insert(0, str(REPO))
    found = sweep()
    print(summary(found))
    wanted = sys.argv[1:]
    for c in found:
        if any(c.outcome.startswith(w) for w in wanted):
            print(f"{c.function}({c.parameter}={c.category}): {c.outcome}: {c.detail}")
