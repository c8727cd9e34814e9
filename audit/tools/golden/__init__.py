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
          "function": "gaussian_delta", ...,
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
  are of this kind (:attr:`GoldenFunction.small_values`), and ``tests/audit/tools/test_golden.py`` requires
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

``tests/audit/tools/test_golden.py`` recomputes every file under other OpenBLAS kernels, without numpy's SIMD
paths, and with every libm, scipy.special and LAPACK result moved by a few ulp (stand-ins for
another machine), and requires every entry to hold there too.

Randomised summaries (``"summaries"``).  One entry per randomised part::

    {
      "name": "tree_release_noise",
      "module": "reference.tree",               # the code under test
      "sampler": "audit.tools.golden.randomised._sample_tree_release_noise",
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

from audit.tools.golden.cli import (
    PAPERS,
    SCHEMA_VERSION,
    VECTORS_DIR,
    build_paper,
    build_vectors,
    check_paper,
    check_vectors,
    dumps,
    main,
    registry,
    schema_errors,
)
from audit.tools.golden.codec import decode_value, encode_value
from audit.tools.golden.compare import (
    DEFAULT_ATOL,
    DEFAULT_RTOL,
    DIFFERENCE_REASON,
    DIFFERENCE_RTOL,
    ROUNDOFF_ATOL,
    ROUNDOFF_REASON,
    SIGMA_LIMIT,
    SOLVER_REASON,
    SOLVER_RTOL,
    SUMMARY_ATOL,
    SUMMARY_REASON,
    Mismatch,
    Tolerance,
    compare_values,
    output_paths,
)
from audit.tools.golden.entries import GoldenFunction, case_atol, evaluate_case
from audit.tools.golden.randomised import QUANTILES, GoldenSummary, summaries, summarize_samples

__all__ = [
    "DEFAULT_ATOL",
    "DEFAULT_RTOL",
    "DIFFERENCE_REASON",
    "DIFFERENCE_RTOL",
    "PAPERS",
    "QUANTILES",
    "ROUNDOFF_ATOL",
    "ROUNDOFF_REASON",
    "SCHEMA_VERSION",
    "SIGMA_LIMIT",
    "SOLVER_REASON",
    "SOLVER_RTOL",
    "SUMMARY_ATOL",
    "SUMMARY_REASON",
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
