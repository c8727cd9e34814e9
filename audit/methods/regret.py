"""Regret comparisons: a candidate's regret against a reference's on the same environments.

:func:`paired_runs` runs both on ``runs`` environments, run ``i`` with generators named from the
``i``-th child of one seed (the environment's shared, each side's own); :func:`paired_wilcoxon` is
the non-inferiority test of the paired final regrets (one-sided Wilcoxon on
``R_cand − (1 + margin)·R_ref``, :data:`audit.stats.REGRET_MARGIN`); :func:`regret_containment`
counts the runs above a bound (binomial test); :func:`regret_scaling` fits regret (e.g. at the
rounds of :func:`regret_rounds`) against a theorem's form.  The papers supply references
and bounds (:mod:`audit.papers`), the policy kinds the environments (:mod:`audit.kinds`).
Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import numpy as np

from audit.methods.binomial import RunAuditResult
from audit.methods.scaling import ScalingFit, fit_against_form
from audit.stats import REGRET_MARGIN, paired_wilcoxon_greater
from reference._typing import FloatArray, IntArray
from reference.rng import child_seeds, named_generators
from reference.validation import check_int_at_least, check_size

__all__ = [
    "PairedRegretResult",
    "RunPair",
    "paired_result",
    "paired_runs",
    "paired_wilcoxon",
    "regret_containment",
    "regret_rounds",
    "regret_scaling",
]

RunPair = Callable[[int, dict[str, np.random.Generator]], tuple[float, float]]
"""``run(i, generators)``: the candidate's and the reference's final regret on run ``i``, whose
environment and sides draw from the named ``generators``."""


@dataclass(frozen=True)
class PairedRegretResult:
    """A candidate's final regret against a reference's over ``runs`` paired runs of horizon
    ``horizon`` (environment ``means``, the reference at ``epsilon``).

    ``wilcoxon_pvalue`` is the one-sided paired signed-rank p-value of "the candidate's regret is
    larger than ``1 + margin`` times the reference's" (:func:`paired_wilcoxon`); ``worse`` is
    ``wilcoxon_pvalue < 1 − confidence``; ``passed`` is ``not worse``.  A kind's result adds what
    names its reference (and the margin).
    """

    name: str
    runs: int
    horizon: int
    means: tuple[float, ...]
    epsilon: float
    candidate_mean: float
    reference_mean: float
    wilcoxon_pvalue: float
    worse: bool
    confidence: float

    @property
    def passed(self) -> bool:
        """Not worse than the reference."""
        return not self.worse


def paired_runs(
    run: RunPair, *, runs: int, seed: int, streams: Sequence[str]
) -> tuple[FloatArray, FloatArray]:
    """The candidate's and the reference's final regrets over ``runs`` paired runs: run ``i``
    gets the generators ``streams`` of the ``i``-th child of ``seed``
    (:func:`reference.rng.named_generators`), so both sides see one environment."""
    candidate, reference = np.empty(runs), np.empty(runs)
    for i, child in enumerate(child_seeds(seed, 0, runs)):
        candidate[i], reference[i] = run(i, named_generators(child, tuple(streams)))
    return candidate, reference


def paired_wilcoxon(
    candidate: FloatArray,
    reference: FloatArray,
    *,
    confidence: float,
    margin: float = REGRET_MARGIN,
) -> tuple[float, bool]:
    """The one-sided paired signed-rank p-value of "the candidate's regret is larger than
    ``1 + margin`` times the reference's", and whether it is below ``1 − confidence`` (worse)."""
    pvalue = paired_wilcoxon_greater(candidate - (1.0 + margin) * reference)
    return pvalue, pvalue < 1.0 - confidence


R = TypeVar("R", bound=PairedRegretResult)


def paired_result(
    result: type[R],
    candidate: FloatArray,
    reference: FloatArray,
    /,
    *,
    name: str,
    horizon: int,
    means: tuple[float, ...],
    epsilon: float,
    confidence: float,
    margin: float = REGRET_MARGIN,
    **extra: Any,
) -> R:
    """The paired final regrets compared (:func:`paired_wilcoxon`) at ``margin``, as a
    ``result``: a subclass of :class:`PairedRegretResult` with a ``margin`` field and its own
    fields in ``extra`` (which may name one ``reference``: the first three arguments are
    positional)."""
    pvalue, worse = paired_wilcoxon(candidate, reference, confidence=confidence, margin=margin)
    build: Any = result  # a subclass: its own fields (margin among them) follow the shared ones
    return cast(R, build(
        name=name, runs=len(candidate), horizon=horizon, means=means, epsilon=epsilon,
        candidate_mean=float(candidate.mean()), reference_mean=float(reference.mean()),
        wilcoxon_pvalue=pvalue, worse=worse, confidence=confidence, margin=margin, **extra,
    ))  # fmt: skip


def regret_rounds(n: int, first: int, points: int) -> IntArray:
    """``points`` log-spaced rounds in ``[first, n]`` (distinct integers) at which cumulative
    regret is read for a scaling fit; ``first < n``."""
    n = check_size("n", n, 2, item_bytes=8, what="a round's value")
    first = check_int_at_least("first", first, 1)
    if first >= n:
        raise ValueError(f"first must be < n={n}, got {first}")
    return np.unique(
        np.geomspace(
            first, n, check_size("points", points, 2, item_bytes=8, what="a point")
        ).astype(np.int64)
    )


def regret_containment(
    name: str,
    label: str,
    final: FloatArray,
    bound: float,
    *,
    alpha: float,
    confidence: float,
    seed: int,
    started: float,
) -> RunAuditResult:
    """The runs whose final regret exceeds ``bound``, against a theorem that allows a share of
    at most ``alpha`` (one-sided Clopper–Pearson, :class:`~audit.methods.binomial.RunAuditResult`;
    ``label`` names the ratio ``regret / bound``)."""
    return RunAuditResult.from_ratios(
        name, {label: final / bound}, alpha, confidence=confidence, seed=seed, started=started
    )


def regret_scaling(
    name: str,
    x: IntArray | FloatArray,
    form: FloatArray,
    regrets: FloatArray,
    *,
    exponent: str,
    confidence: float,
) -> ScalingFit:
    """Regret at the points ``x`` (rounds, or dimensions; ``regrets`` of shape ``(runs, len(x))``)
    fitted against a theorem's bound ``form`` at the same points
    (:func:`audit.methods.scaling.fit_against_form`; regrets floored at ``1e-12`` for the
    logarithm)."""
    return fit_against_form(
        name,
        np.asarray(x, dtype=np.float64),
        form,
        np.maximum(regrets, 1e-12),
        theorem_exponent=exponent,
        confidence=confidence,
    )
