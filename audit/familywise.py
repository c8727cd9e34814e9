"""Family-wise error control: how the verdicts of a family of tests are corrected together.

A battery passes its strategy explicitly (as jax_privacy's threshold strategies are passed), so a
report always says how its false-alarm rate is controlled.  Every strategy controls the probability
of rejecting *any* true claim of the family at ``alpha``: :class:`Holm` (step-down, uniformly more
powerful than :class:`Bonferroni`, no assumption on the dependence of the tests; Holm 1979),
:class:`Bonferroni`, and :class:`PerTest` (no correction: each test at ``alpha`` on its own, for
families of one test or reports that state per-test levels).  p-values of 0 are floored at
:data:`P_FLOOR` in this one place.

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np

from reference.validation import check_in_range

__all__ = [
    "P_FLOOR",
    "Bonferroni",
    "Decision",
    "FamilyWise",
    "Holm",
    "PerTest",
    "check_pvalues",
]

P_FLOOR = 1e-300
"""Smallest p-value passed to a correction (an exact 0 would make the adjusted p-values 0)."""


def check_pvalues(pvalues: Sequence[float]) -> np.ndarray:
    """``pvalues`` as a float array, each in ``[0, 1]`` (NaN refused: no verdict from NaN), floored
    at :data:`P_FLOOR`."""
    values = np.asarray(list(pvalues), dtype=np.float64)
    if values.ndim != 1:
        raise ValueError(f"pvalues must be a sequence of numbers, got shape {values.shape}")
    bad = [float(p) for p in values if not (0.0 <= p <= 1.0)]  # NaN fails both comparisons
    if bad:
        raise ValueError(f"pvalues must lie in [0, 1], got {bad[:5]}")
    return np.maximum(values, P_FLOOR)


@dataclass(frozen=True)
class Decision:
    """The verdicts on a family: ``reject[i]`` iff ``adjusted[i] ≤ α``."""

    reject: list[bool]
    adjusted: list[float]


@runtime_checkable
class FamilyWise(Protocol):
    """A family-wise strategy: ``decide(pvalues)`` gives one verdict and one adjusted p-value per
    test, ``reject(pvalues)`` the verdicts alone."""

    @property
    def method(self) -> str:
        """Its name in reports."""

    @property
    def alpha(self) -> float:
        """The family-wise error rate it controls."""

    def decide(self, pvalues: Sequence[float]) -> Decision:
        """Verdicts and adjusted p-values of the family."""

    def reject(self, pvalues: Sequence[float]) -> list[bool]:
        """Which tests of the family are rejected."""


@dataclass(frozen=True)
class _Strategy:
    alpha: float = 0.05

    def __post_init__(self) -> None:
        check_in_range("alpha", self.alpha, 0.0, 1.0)

    def as_dict(self) -> dict[str, float | str]:
        """How reports record the strategy."""
        return {"method": self.method, "alpha": self.alpha}

    @property
    def method(self) -> str:
        """Its name in reports (each strategy names itself)."""
        raise NotImplementedError

    def decide(self, pvalues: Sequence[float]) -> Decision:
        """Verdicts and adjusted p-values (each strategy defines them)."""
        raise NotImplementedError

    def reject(self, pvalues: Sequence[float]) -> list[bool]:
        """Which tests of the family are rejected."""
        return self.decide(pvalues).reject


@dataclass(frozen=True)
class Holm(_Strategy):
    """Holm's step-down procedure.

    Computed here rather than by :func:`statsmodels.stats.multitest.multipletests`, whose Holm
    branch runs a full ``gc.collect()`` on every call (about 0.2 s in a process holding many
    objects), which dominated audits that correct many small families; the two agree exactly
    (``tests/audit/test_familywise.py``)."""

    @property
    def method(self) -> Literal["holm"]:
        """``"holm"``."""
        return "holm"

    def decide(self, pvalues: Sequence[float]) -> Decision:
        """Reject ``p_(i)`` while ``p_(i) ≤ α / (m − i + 1)`` in increasing order."""
        values = check_pvalues(pvalues)
        if values.size == 0:
            return Decision([], [])
        order = np.argsort(values, kind="stable")
        steps = values.size - np.arange(values.size)  # m, m - 1, ..., 1
        adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(values[order] * steps))
        accepted = np.flatnonzero(values[order] > self.alpha / steps)
        first = accepted[0] if accepted.size else values.size
        reject, adjusted = np.zeros(values.size, dtype=bool), np.empty(values.size)
        reject[order[:first]] = True
        adjusted[order] = adjusted_sorted
        return Decision([bool(r) for r in reject], [float(p) for p in adjusted])


@dataclass(frozen=True)
class Bonferroni(_Strategy):
    """Each of ``m`` tests at ``α / m``."""

    @property
    def method(self) -> Literal["bonferroni"]:
        """``"bonferroni"``."""
        return "bonferroni"

    def decide(self, pvalues: Sequence[float]) -> Decision:
        """Reject ``p ≤ α / m``; adjusted ``min(1, m·p)``."""
        values = check_pvalues(pvalues)
        return Decision(
            [bool(p <= self.alpha / values.size) for p in values],
            [float(min(1.0, p * values.size)) for p in values],
        )


@dataclass(frozen=True)
class PerTest(_Strategy):
    """No correction: each test at ``α`` (the family-wise rate is then up to ``m·α``)."""

    @property
    def method(self) -> Literal["per_test"]:
        """``"per_test"``."""
        return "per_test"

    def decide(self, pvalues: Sequence[float]) -> Decision:
        """Reject ``p ≤ α``; the p-values are not adjusted."""
        values = check_pvalues(pvalues)
        return Decision([bool(p <= self.alpha) for p in values], [float(p) for p in values])
