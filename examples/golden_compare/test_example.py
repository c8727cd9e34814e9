"""The one-line pytest assertions of :mod:`audit.testing`, as another project's CI would write them
(``pytest examples/golden_compare``; the project's suite runs these tests from
``tests/audit/tools/test_golden_compare.py``).

Proof note: ``proofs_notes/audit/golden_schema.md``.
"""

from __future__ import annotations

import pytest

from audit.check import PairClaim
from audit.testing import assert_check_passes, assert_golden
from examples.golden_compare.wishart import degrees_of_freedom, degrees_of_freedom_off_by_one

RENAME = {"eps": "epsilon"}  # our parameter eps is the golden entry's epsilon
MECHANISM = {"claim": PairClaim(1.0, 1e-5), "pair": "examples.mechanisms:pair", "samples": 20_000}


def test_our_degrees_of_freedom_match_the_golden_vectors() -> None:
    assert_golden(degrees_of_freedom, "wishart_degrees_of_freedom", rename=RENAME)


def test_the_off_by_one_is_caught() -> None:
    with pytest.raises(AssertionError, match=r"integer \d+ where \d+ expected"):
        assert_golden(degrees_of_freedom_off_by_one, "wishart_degrees_of_freedom", rename=RENAME)


def test_our_mechanism_passes_privonline_check() -> None:
    assert_check_passes("examples.mechanisms:good", **MECHANISM)


def test_a_quarter_of_the_noise_fails_privonline_check() -> None:
    with pytest.raises(AssertionError, match="PRIVACY VIOLATION"):
        assert_check_passes("examples.mechanisms:buggy", **MECHANISM)
