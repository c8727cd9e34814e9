"""Golden vectors: versioned, language-neutral records of what every deterministic function returns.

``audit/tools/golden_vectors/<paper>.json`` (schema 2, described in the note) records each
registered function's output on a grid with extreme and invalid inputs, and seeded summaries of
randomised parts; ``--rebuild`` writes the files, the default check recomputes and compares.
Each number is compared by ``|actual − expected| ≤ atol + rtol·|expected|`` with, in order:
1. the rule of its path in the function's ``tolerance.outputs``, when there is one;
2. otherwise ``rtol`` of the function's ``tolerance`` and the case's own ``"atol"`` if stated;
3. otherwise ``rtol`` and ``atol`` of the function's ``tolerance`` (default ``1e-12`` and ``0``).

Proof note: ``proofs_notes/audit/README.md``.
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
