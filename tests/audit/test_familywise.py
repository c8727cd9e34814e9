"""Holm's step-down procedure (audit/familywise.py) against statsmodels' reference implementation."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from statsmodels.stats.multitest import multipletests

from audit.familywise import Holm


@given(
    pvalues=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=12),
    alpha=st.floats(0.001, 0.5),
)
def test_holm_matches_statsmodels(pvalues: list[float], alpha: float) -> None:
    decision = Holm(alpha).decide(pvalues)
    floored = np.maximum(np.asarray(pvalues), 1e-300)
    reject, adjusted, _, _ = multipletests(floored, alpha=alpha, method="holm")
    assert decision.reject == [bool(r) for r in reject]
    assert decision.adjusted == [float(p) for p in adjusted]


def test_holm_on_ties_and_an_empty_family() -> None:
    assert Holm(0.05).decide([0.01, 0.01, 0.5]).reject == [True, True, False]
    assert Holm(0.05).decide([]).reject == []
