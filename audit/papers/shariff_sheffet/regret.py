"""Regret audits against Theorems 5 and 6 of Shariff & Sheffet.

:func:`regret_containment_audit` (Theorem 5, Eq. 2; Theorem 6, Eq. 3: runs above the bound are
``Bin(R, q')``, ``q' ≤ α``, one-sided Clopper–Pearson); :func:`regret_scaling_in_n`,
:func:`regret_scaling_in_dimension` and :func:`regret_scaling_in_privacy` (fits against the
theorem's own bound, consistent unless the slope ``b ≤ 1`` is rejected); :func:`cor15_floor_check`
and :func:`claim14_pull_check` (Corollary 15, Claim 14: floors for ε-DP MAB algorithms);
:func:`regret_regression_check` (a third-party :class:`~audit.protocols.StreamPolicy` against the
reference, by the comparisons of :mod:`audit.methods.regret`).  All runs use
:func:`reference.engine.run_gap_batch`.

Proof note: ``proofs_notes/audit/regret.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from audit.methods.binomial import RunAuditResult
from audit.methods.regret import (
    paired_wilcoxon,
    regret_containment,
    regret_rounds,
    regret_scaling,
)
from audit.methods.scaling import ScalingFit, fit_mean_against_form
from audit.protocols import StreamPolicy, check_actions
from audit.stats import REGRET_MARGIN, clopper_pearson_upper
from reference._typing import FloatArray, IntArray
from reference.engine import BatchResult, run_gap_batch
from reference.rng import child_seeds, named_generators
from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    claim14_min_pulls,
    cor15_regret_lower_bound,
    regret_bound_thm5,
    regret_bound_thm6,
)
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    Calibration,
    PrivacyParameters,
    ProblemConstants,
    Variant,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import STREAMS
from reference.validation import (
    check_alpha,
    check_array,
    check_callable,
    check_choice,
    check_delta,
    check_in_range,
    check_instance,
    check_int_array,
    check_nonnegative,
    check_size,
)

__all__ = [
    "FloorCheck",
    "PullFloorCheck",
    "RegressionCheckResult",
    "claim14_pull_check",
    "cor15_floor_check",
    "regret_containment_audit",
    "regret_regression_check",
    "regret_scaling_in_dimension",
    "regret_scaling_in_n",
    "regret_scaling_in_privacy",
    "theorem_bound",
]

Theorem = Literal["thm5", "thm6"]
THEOREMS: tuple[Theorem, ...] = ("thm5", "thm6")


def _confidence(confidence: float) -> float:
    return check_in_range("confidence", confidence, 0.0, 1.0)


def _check_policy(policy: object) -> None:
    if not callable(getattr(policy, "run", None)):
        raise ValueError(
            "policy must be a StreamPolicy (an object with a method "
            f"run(decision_sets, reward_tables, rng)), got {policy!r:.80}"
        )


def _run_seeds(seed: int, runs: int) -> list[np.random.SeedSequence]:
    """The seeds of ``runs`` (at least 2) replicates: ``child_seeds(seed, 0, runs)``."""
    return child_seeds(seed, 0, check_size("runs", runs, 2, item_bytes=8, what="a run's result"))


def _theorem_setup(
    variant: Variant,
    d: int,
    n: int,
    privacy: PrivacyParameters | None,
    calibration: Calibration = "paper",
) -> tuple[float, ProblemConstants, RegularizerBounds]:
    """``(α, constants, bounds)`` of the theorems at horizon ``n``: ``α = 1/n``, the App. D
    constants at ``d`` and ``variant``'s regularizer bounds."""
    alpha = 1.0 / n
    constants = ProblemConstants(d=d)
    _, bounds = regularizer_spec(variant, constants, n, alpha, privacy, calibration=calibration)
    return alpha, constants, bounds


def theorem_bound(
    theorem: Theorem,
    n: int,
    constants: ProblemConstants,
    alpha: float,
    bounds: RegularizerBounds,
    gap: float = 0.0,
) -> float:
    """Eq. (2) (``"thm5"``) or Eq. (3) (``"thm6"``, needs ``gap > 0``) at horizon ``n``.

    ``gap`` is checked (``>= 0``) whichever theorem reads it."""
    check_choice("theorem", theorem, THEOREMS)
    c = check_instance("constants", constants, ProblemConstants)
    check_nonnegative("gap", gap)
    if theorem == "thm5":
        return regret_bound_thm5(n, c.d, c.L, c.S, c.B, c.sigma, alpha, bounds)
    if theorem == "thm6":
        return regret_bound_thm6(n, c.d, c.L, c.S, c.B, c.sigma, alpha, bounds, gap)
    raise ValueError(f"theorem must be 'thm5' or 'thm6', got {theorem!r}")


def regret_containment_audit(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    runs: int,
    seed: int,
    privacy: PrivacyParameters | None = None,
    alpha: float | None = None,
    theorem: Theorem = "thm5",
    confidence: float = 0.95,
    name: str | None = None,
    claimed_bound: float | None = None,
) -> RunAuditResult:
    """Theorem 5 (or 6) over ``runs`` independent App. D runs of ``variant`` (module docstring).

    ``claimed_bound`` audits another value in place of Eq. (2)/(3) at ``n`` (e.g. a bound as
    another implementation computes it).  The theorems' bounds are loose: for ``n`` below about
    ``10⁴`` Eq. (2) exceeds the largest possible regret, so the audit has power against wrong
    bounds (constants, missing factors) rather than against bad policies at small ``n``.
    """
    t0 = time.perf_counter()
    n = check_size("n", n, 2, item_bytes=8, what="a round's value")
    alpha = check_alpha(1.0 / n if alpha is None else alpha)
    confidence = _confidence(confidence)
    check_choice("theorem", theorem, THEOREMS)
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    constants = ProblemConstants(d=d)
    _, bounds = regularizer_spec(variant, constants, n, alpha, privacy)
    bound = (
        theorem_bound(theorem, n, constants, alpha, bounds, gap)
        if claimed_bound is None
        else check_in_range("claimed_bound", claimed_bound, 0.0, math.inf)
    )
    final = _batch(
        variant, d, num_arms, gap, n, child_seeds(seed, 0, runs), privacy, alpha=alpha,
        checkpoints=[n],
    ).final_regret  # fmt: skip
    return regret_containment(
        name or f"{theorem}_containment_{variant}", f"regret / {theorem} bound", final, bound,
        alpha=alpha, confidence=confidence, seed=seed, started=t0,
    )  # fmt: skip


def _theorem_form(
    theorem: Theorem,
    rounds: IntArray,
    constants: ProblemConstants,
    alpha: float,
    bounds: RegularizerBounds,
    gap: float,
) -> tuple[FloatArray, str]:
    """The theorem's bound at each round (same ``α`` and bounds) and its stated exponent in ``n``."""
    form = np.array([theorem_bound(theorem, int(t), constants, alpha, bounds, gap) for t in rounds])
    return form, "1/2 (times log factors)" if theorem == "thm5" else "0 (log^2 n)"


def _batch(
    variant: Variant,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    seeds: list[np.random.SeedSequence],
    privacy: PrivacyParameters | None,
    *,
    alpha: float,
    checkpoints: Sequence[int] | IntArray,
    calibration: Calibration = "paper",
) -> BatchResult:
    """The App. D runs of ``seeds`` of ``variant`` (horizon ``n``), regret read at
    ``checkpoints``."""
    return run_gap_batch(
        variant, d=d, num_arms=num_arms, gap=gap, n=n, seeds=seeds, privacy=privacy, alpha=alpha,
        checkpoints=checkpoints, calibration=calibration,
    )  # fmt: skip


def _final_regrets(
    variant: Variant,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    seeds: list[np.random.SeedSequence],
    privacy: PrivacyParameters | None,
    *,
    calibration: Calibration = "paper",
) -> FloatArray:
    """Final pseudo-regret of the App. D runs of ``seeds`` (horizon ``n``, ``α = 1/n``)."""
    return _batch(
        variant, d, num_arms, gap, n, seeds, privacy, alpha=1.0 / n, checkpoints=[n],
        calibration=calibration,
    ).final_regret  # fmt: skip


def regret_scaling_in_dimension(
    variant: Variant,
    *,
    dims: Sequence[int],
    num_arms: int,
    gap: float,
    n: int,
    runs: int,
    seed: int,
    privacy: PrivacyParameters | None = None,
    theorem: Theorem = "thm5",
    calibration: Calibration = "paper",
    confidence: float = 0.95,
) -> ScalingFit:
    """Final regret of ``runs`` runs (horizon ``n``, ``α = 1/n``) at each ``d`` in ``dims``, fitted
    against Eq. (2)/(3) at that ``d`` (replicate ``r`` uses the same seed at every ``d``).

    The theorems' bounds grow with ``d`` only through ``β_n`` and ``√(d ln(1 + nL²/(dρ_min)))``,
    and at reachable ``n`` the ``ln(2/α)`` term inside ``β_n`` dominates, so the exact bounds are
    much flatter in ``d`` than the regret of the burn-in phase (App. D.1 reports regret ``∝ d²``):
    read the slope as "how much faster than the bound regret grows over this range"
    (proofs_notes/audit/regret.md), with containment as the theorem's actual guarantee.
    """
    n = check_size("n", n, 2, item_bytes=8, what="a round's value")
    grid = sorted({int(d) for d in check_int_array("dims", dims, 2, ndim=1)})
    if len(grid) < 2:
        raise ValueError(f"dims must hold at least two distinct values >= 2, got {list(dims)}")
    confidence = _confidence(confidence)
    check_choice("theorem", theorem, THEOREMS)
    alpha = 1.0 / n
    seeds = _run_seeds(seed, runs)
    regrets = np.empty((len(seeds), len(grid)))
    form = np.empty(len(grid))
    for j, d in enumerate(grid):
        constants = ProblemConstants(d=d)
        _, bounds = regularizer_spec(variant, constants, n, alpha, privacy, calibration=calibration)
        form[j] = theorem_bound(theorem, n, constants, alpha, bounds, gap)
        regrets[:, j] = _final_regrets(
            variant, d, num_arms, gap, n, seeds, privacy, calibration=calibration
        )
    return regret_scaling(
        f"regret vs d, {variant}, against {theorem}",
        np.asarray(grid, dtype=np.int64),
        form,
        regrets,
        exponent="d (Thm 5) / d^2 (Thm 6), up to log factors",
        confidence=confidence,
    )


def regret_scaling_in_privacy(
    variant: Variant,
    *,
    epsilons: Sequence[float],
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    runs: int,
    seed: int,
    delta: float = 0.1,
    calibration: Calibration = "paper",
    confidence: float = 0.95,
    mechanism_epsilon: Callable[[float], float] | None = None,
) -> ScalingFit:
    """The private excess regret over a grid of ``ε`` against the theorem's private term.

    Replicate ``r`` runs the non-private variant and ``variant`` at every ``ε`` on the same seed
    (horizon ``n``, ``α = 1/n``); the excess is the paired difference of final regrets.  The
    theorems depend on ``(ε, δ)`` only through the regularizer bounds, and their private term is
    ``(S√ρ_max + γ)`` in ``β_n``: the form is ``ρ_max(ε)`` under Theorem 6 (``gap > 0``; ``β_n²``)
    and ``√ρ_max(ε)`` under Theorem 5 (``gap = 0``).  ``bare_power_exponent`` is the exponent in
    ``1/ε``.

    ``mechanism_epsilon`` maps the claimed ``ε`` to the one the mechanism is actually calibrated
    with (default: the same): a way to plant a noise scale that grows faster than the claim as
    ``ε`` shrinks (e.g. ``lambda e: e**2``), which the fit must flag.
    """
    if variant == "nonprivate":
        raise ValueError("variant must be a private variant (the excess is over 'nonprivate')")
    check_choice("variant", variant, ("gaussian", "wishart", "wishart_unshifted"))
    n = check_size("n", n, 2, item_bytes=8, what="a round's value")
    eps_values = check_array("epsilons", epsilons, ndim=1)
    if np.any(eps_values <= 0.0):
        raise ValueError(f"epsilons must all be in (0, inf), got {eps_values.tolist()}")
    grid = sorted({float(e) for e in eps_values})
    if len(grid) < 2:
        raise ValueError(f"epsilons must hold at least two distinct values > 0, got {epsilons}")
    check_delta(delta)
    confidence = _confidence(confidence)
    to_mechanism = (
        (lambda e: e)
        if mechanism_epsilon is None
        else check_callable("mechanism_epsilon", mechanism_epsilon)
    )
    alpha = 1.0 / n
    seeds = _run_seeds(seed, runs)
    baseline = _final_regrets("nonprivate", d, num_arms, gap, n, seeds, None)
    constants = ProblemConstants(d=d)
    power = 1.0 if gap > 0 else 0.5
    excess = np.empty((len(seeds), len(grid)))
    form = np.empty(len(grid))
    for j, epsilon in enumerate(grid):
        claimed = PrivacyParameters(epsilon, delta)
        _, bounds = regularizer_spec(variant, constants, n, alpha, claimed, calibration=calibration)
        form[j] = bounds.rho_max**power
        actual = PrivacyParameters(to_mechanism(epsilon), delta)
        excess[:, j] = (
            _final_regrets(variant, d, num_arms, gap, n, seeds, actual, calibration=calibration)
            - baseline
        )
    theorem = "thm6 (rho_max)" if gap > 0 else "thm5 (sqrt rho_max)"
    return fit_mean_against_form(
        f"private excess regret vs epsilon, {variant} ({calibration}), against {theorem}",
        1.0 / np.asarray(grid),
        form,
        excess,
        theorem_exponent="1/eps (Thm 6, Cor 10/12 gap forms)"
        if gap > 0
        else "eps^(-1/2) (Thm 5, Cor 10/12)",
        confidence=confidence,
    )


def regret_scaling_in_n(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    runs: int,
    seed: int,
    privacy: PrivacyParameters | None = None,
    theorem: Theorem = "thm5",
    points: int = 12,
    first: int = 32,
    confidence: float = 0.95,
    calibration: Calibration = "paper",
) -> ScalingFit:
    """Cumulative regret at ``points`` log-spaced rounds ``t ∈ [first, n]`` of runs with horizon
    ``n`` (``α = 1/n``), fitted against the theorem's bound at each ``t`` (same ``α`` and bounds)."""
    ts = regret_rounds(n, first, points)
    confidence = _confidence(confidence)
    check_choice("theorem", theorem, THEOREMS)
    alpha, constants, bounds = _theorem_setup(variant, d, n, privacy, calibration)
    seeds = _run_seeds(seed, runs)
    batch = _batch(
        variant, d, num_arms, gap, n, seeds, privacy, alpha=alpha, checkpoints=ts,
        calibration=calibration,
    )  # fmt: skip
    form, exponent = _theorem_form(theorem, ts, constants, alpha, bounds, gap)
    return regret_scaling(
        f"regret vs n, {variant}, against {theorem}", ts, form, batch.cumulative_regret,
        exponent=exponent, confidence=confidence,
    )  # fmt: skip


@dataclass(frozen=True)
class RegressionCheckResult:
    """A third-party policy against the reference on the same environments.

    Attributes:
        name: label of the check.
        runs: paired runs.
        candidate_mean, reference_mean: mean final regret.
        wilcoxon_pvalue: one-sided paired signed-rank p-value of "candidate regret is larger than
            ``1 + margin`` times the reference's" (:data:`audit.stats.REGRET_MARGIN`).
        worse: ``wilcoxon_pvalue < 1 − confidence``.
        candidate_containment: Theorem-5/6 containment audit of the candidate's regrets.
        candidate_scaling, reference_scaling: regret along the runs fitted against the theorem.
        passed: not worse, containment not violated, and scaling consistent wherever the
            reference's own scaling is (:attr:`scaling_gated`).
    """

    name: str
    runs: int
    candidate_mean: float
    reference_mean: float
    wilcoxon_pvalue: float
    worse: bool
    confidence: float
    candidate_containment: RunAuditResult
    candidate_scaling: ScalingFit
    reference_scaling: ScalingFit
    margin: float = REGRET_MARGIN

    @property
    def scaling_gated(self) -> bool:
        """The scaling verdict counts only where the reference's own regret is consistent with the
        theorem's form at this horizon (past the private variants' linear phase)."""
        return self.reference_scaling.consistent

    @property
    def passed(self) -> bool:
        """Overall verdict: not worse, containment holds, and (where gated) scaling consistent."""
        scaling_ok = self.candidate_scaling.consistent or not self.scaling_gated
        return not self.worse and not self.candidate_containment.violation and scaling_ok


def candidate_regrets(
    policy: StreamPolicy,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    seeds: list[np.random.SeedSequence],
    checkpoints: IntArray,
) -> FloatArray:
    """Cumulative pseudo-regret of ``policy`` at ``checkpoints`` (shape ``(runs, C)``) on the App. D
    runs of ``seeds``: environment from each seed's ``"environment"`` stream (as the reference),
    the policy's randomness from its ``"mechanism"`` stream."""
    out = np.empty((len(seeds), checkpoints.size))
    for r, seed in enumerate(seeds):
        streams = named_generators(seed, STREAMS)
        block = LinearGapEnvironment(d, num_arms, gap, streams["environment"]).draw_block(n)
        actions = check_actions(
            policy.run(block.arms, block.rewards, streams["mechanism"]),
            block.arms,
            f"the actions {policy!r} returned on run {r + 1}",
        )
        chosen = block.means[np.arange(n), actions]
        out[r] = np.cumsum(block.means.max(axis=1) - chosen)[checkpoints - 1]
    return out


def regret_regression_check(
    policy: StreamPolicy,
    reference: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    runs: int,
    seed: int,
    privacy: PrivacyParameters | None = None,
    theorem: Theorem = "thm5",
    points: int = 10,
    first: int = 16,
    confidence: float = 0.99,
    name: str = "regression_check",
    margin: float = REGRET_MARGIN,
) -> RegressionCheckResult:
    """Compare ``policy`` with the reference ``variant`` on ``runs`` paired App. D runs (horizon
    ``n``, ``α = 1/n``): paired Wilcoxon on final regret, containment (Thm 5/6) and the scaling fit
    along the runs for both.  The scaling verdict is meaningful where the reference's regret is
    sublinear at this horizon (the non-private variant; see proofs_notes/audit/regret.md)."""
    t0 = time.perf_counter()
    _check_policy(policy)
    check_choice("reference", reference, VARIANTS)
    marks = regret_rounds(n, first, points)
    confidence = _confidence(confidence)
    check_choice("theorem", theorem, THEOREMS)
    seeds = _run_seeds(seed, runs)
    alpha, constants, bounds = _theorem_setup(reference, d, n, privacy)
    candidate = candidate_regrets(
        policy, d=d, num_arms=num_arms, gap=gap, n=n, seeds=seeds, checkpoints=marks
    )
    ref = _batch(
        reference, d, num_arms, gap, n, seeds, privacy, alpha=alpha, checkpoints=marks
    ).cumulative_regret
    margin = check_in_range("margin", margin, 0.0, math.inf, low_open=False)
    pvalue, worse = paired_wilcoxon(
        candidate[:, -1], ref[:, -1], confidence=confidence, margin=margin
    )
    form, exponent = _theorem_form(theorem, marks, constants, alpha, bounds, gap)

    def scaling(label: str, regrets: FloatArray) -> ScalingFit:
        return regret_scaling(
            f"{name}: {label} regret vs n against {theorem}", marks, form, regrets,
            exponent=exponent, confidence=confidence,
        )  # fmt: skip

    containment = regret_containment(
        f"{name}: {theorem} containment", f"regret / {theorem} bound", candidate[:, -1], form[-1],
        alpha=alpha, confidence=confidence, seed=seed, started=t0,
    )  # fmt: skip
    return RegressionCheckResult(
        name=name,
        runs=len(seeds),
        candidate_mean=float(candidate[:, -1].mean()),
        reference_mean=float(ref[:, -1].mean()),
        wilcoxon_pvalue=pvalue,
        worse=worse,
        confidence=confidence,
        candidate_containment=containment,
        candidate_scaling=scaling("candidate", candidate),
        reference_scaling=scaling("reference", ref),
        margin=margin,
    )


@dataclass(frozen=True)
class FloorCheck:
    """Corollary 15 as a floor: an ε-DP MAB algorithm's expected pseudo-regret is at least
    ``(K − 1) ln n / (200 ε)``.

    Attributes:
        name: label.
        lower_bound: the corollary's value.
        mean_regret: mean over runs; ratio: ``mean_regret / lower_bound``.
        pvalue_below: one-sided t-test p-value of "the expected regret is below the bound".
        violation: ``pvalue_below < 1 − confidence`` (the algorithm beats a lower bound that holds
            for every ε-DP algorithm: it is not ε-DP, or it uses information it should not have).
    """

    name: str
    runs: int
    lower_bound: float
    mean_regret: float
    ratio: float
    pvalue_below: float
    violation: bool
    confidence: float


@dataclass(frozen=True)
class PullFloorCheck:
    """Claim 14 as a floor: an ε-DP MAB algorithm with regret ``≤ n^{3/4}`` pulls an arm of gap
    ``Δ_a`` at least ``t_a = ln(n)/(100 ε Δ_a)`` times with probability ``≥ 1/2``.

    Attributes:
        name: label; runs: independent runs.
        min_pulls: ``t_a`` (``claim14_min_pulls``).
        fraction_at_least: share of runs that pulled the arm ``≥ t_a`` times.
        upper_bound: one-sided Clopper–Pearson upper bound on ``P[pulls ≥ t_a]`` at ``confidence``.
        violation: ``upper_bound < 1/2`` (the algorithm pulls the arm less often than any ε-DP
            algorithm of that regret must: it is not ε-DP, or it reads what it should not).
        smallest_detectable: the smallest true probability a violation needs: with these runs a
            true ``P[pulls ≥ t_a]`` at or below it is reported as a violation with probability
            ``≥ 1/2`` (the power statement of a pass; ``0`` when no outcome could violate).
    """

    name: str
    runs: int
    min_pulls: float
    fraction_at_least: float
    upper_bound: float
    violation: bool
    smallest_detectable: float
    confidence: float


def claim14_pull_check(
    pulls: IntArray,
    *,
    n: int,
    epsilon: float,
    gap: float,
    confidence: float = 0.99,
    name: str = "claim14_pulls",
) -> PullFloorCheck:
    """Test the pull counts of one sub-optimal arm over independent runs of an algorithm claimed
    ε-DP against Claim 14 (Sec. 5): ``P[pulls ≥ ln(n)/(100 ε Δ_a)] ≥ 1/2``.

    A violation is a one-sided Clopper–Pearson upper bound on that probability below 1/2.  The
    claim holds for sufficiently large ``n`` (its proof needs ``n^{0.19} ≥ 4/Δ_a``, checked) and
    for algorithms with regret ``≤ n^{3/4}``, which the caller vouches for; its constant 1/100
    makes it a coarse floor, catching an algorithm that is far from ε-DP (e.g. a non-private one
    claiming a small ε) rather than a small miscalibration."""
    counts = check_array("pulls", pulls, ndim=1)
    if counts.size < 2:
        raise ValueError("pulls must be a 1-dimensional array of at least 2 runs")
    if np.any(counts < 0) or np.any(counts != np.floor(counts)):
        raise ValueError("pulls must be non-negative whole numbers (pull counts)")
    confidence = _confidence(confidence)
    n = check_size("n", n, 2, item_bytes=8, what="a round's value")
    gap = check_in_range("gap", gap, 0.0, 2.0, high_open=False)
    if n**0.19 < 4.0 / gap:
        raise ValueError(
            f"n must satisfy n^0.19 >= 4/gap (Claim 14's 'sufficiently large n'), got n={n}, "
            f"gap={gap}: need n >= {math.ceil((4.0 / gap) ** (1 / 0.19))}"
        )
    threshold = claim14_min_pulls(n, epsilon, gap)
    runs = int(counts.size)
    hits = int(np.sum(counts >= threshold))
    # one-sided Clopper-Pearson upper bounds at every possible count: a count violates when its
    # bound is below 1/2; the power statement is the median of Beta(c* + 1, runs - c*) for the
    # largest violating count c* (P[Bin(runs, p) <= c*] >= 1/2 for p at or below it)
    uppers = clopper_pearson_upper(np.arange(runs + 1.0), runs, 1.0 - confidence)
    violating = np.flatnonzero(uppers < 0.5)
    detectable = float(clopper_pearson_upper(violating[-1], runs, 0.5)) if violating.size else 0.0
    upper = float(uppers[hits])
    return PullFloorCheck(
        name=name,
        runs=runs,
        min_pulls=threshold,
        fraction_at_least=hits / runs,
        upper_bound=upper,
        violation=upper < 0.5,
        smallest_detectable=detectable,
        confidence=confidence,
    )


def cor15_floor_check(
    regrets: FloatArray,
    *,
    num_arms: int,
    n: int,
    epsilon: float,
    confidence: float = 0.99,
    name: str = "cor15_floor",
) -> FloorCheck:
    """Test the final pseudo-regrets of ``runs`` independent runs of an ε-DP ``K``-armed bandit
    algorithm against Corollary 15 (``cor15_regret_lower_bound``).  The corollary is asymptotic
    and its constant ``1/200`` is small, so this catches only gross failures: an algorithm whose
    regret is below what *any* ε-DP algorithm must pay (e.g. one that reads the true means)."""
    values = check_array("regrets", regrets, ndim=1)  # NaN or inf refused: no verdict from them
    if values.size < 2:
        raise ValueError("regrets must be a 1-dimensional array of at least 2 runs")
    confidence = _confidence(confidence)
    bound = cor15_regret_lower_bound(num_arms, n, epsilon)
    mean = float(values.mean())
    if float(values.std(ddof=1)) == 0.0:
        pvalue = 0.0 if mean < bound else 1.0
    else:
        pvalue = float(stats.ttest_1samp(values, bound, alternative="less").pvalue)
    return FloorCheck(
        name=name,
        runs=int(values.size),
        lower_bound=bound,
        mean_regret=mean,
        ratio=mean / bound,
        pvalue_below=pvalue,
        violation=pvalue < 1.0 - confidence,
        confidence=confidence,
    )
