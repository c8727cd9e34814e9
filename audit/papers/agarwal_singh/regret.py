"""Regret of a third-party online learner against Agarwal & Singh's private algorithm at its ε.

The candidate (an :class:`~audit.protocols.OnlinePolicy`) and the reference see the same
Bernoulli losses in ``[0, 1]^N`` (one best expert); full information: Algorithm 1 with negative
entropy on the simplex over the Laplace tree calibrated for ``[0, 1]^N`` (Thm 3.1, Cor. 3.2,
strict calibration); bandit feedback: Algorithm 4 over EXP2 with uniform exploration (Algorithm 5,
Thm 4.1's proof-consistent parameters).  Both regrets are ``Σ_t <l_t, x_t> − min_i Σ_t l_t(i)``;
a paired one-sided Wilcoxon signed-rank test says whether the candidate's is larger.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np

from audit.methods.online import check_points
from audit.protocols import OnlinePolicy
from audit.stats import REGRET_MARGIN, paired_wilcoxon_greater
from reference._typing import FloatArray
from reference.agarwal_singh.bandits import EXP2Exploration, PrivateBanditReduction, run_bandit
from reference.agarwal_singh.environments import experts_bernoulli
from reference.agarwal_singh.full_info import PrivateFTRL, run_full_info
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.noise import LaplaceNoise
from reference.rng import check_seed, child_seeds, named_generators
from reference.validation import check_choice, check_in_range, check_int_at_least

__all__ = [
    "BEST_MEAN",
    "OTHER_MEAN",
    "OnlineRegretResult",
    "online_means",
    "online_regret_check",
    "reference_bandit_points",
    "reference_full_points",
]

Feedback = Literal["full", "bandit"]

BEST_MEAN = 0.25
"""Bernoulli mean of the best expert's loss in the default environment."""

OTHER_MEAN = 0.5
"""Bernoulli mean of every other expert's loss (gap 0.25)."""


def online_means(dim: int) -> tuple[float, ...]:
    """The environment's loss means: :data:`BEST_MEAN` for expert 1, :data:`OTHER_MEAN` after."""
    dim = check_int_at_least("dim", dim, 2)
    return (BEST_MEAN,) + (OTHER_MEAN,) * (dim - 1)


@dataclass(frozen=True)
class OnlineRegretResult:
    """An online learner against Agarwal & Singh's private learner on the same losses.

    ``wilcoxon_pvalue`` is the one-sided paired signed-rank p-value of "the candidate's regret is
    larger than ``1 + margin`` times the reference's" (:data:`audit.stats.REGRET_MARGIN`); ``worse`` is ``wilcoxon_pvalue < 1 − confidence``; ``passed`` is ``not worse``.
    ``feedback`` is ``"full"`` (reference: Algorithm 1) or ``"bandit"`` (Algorithm 4).
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
    feedback: Feedback
    margin: float = REGRET_MARGIN

    @property
    def passed(self) -> bool:
        """Not worse than the reference."""
        return not self.worse


def _regret(points: FloatArray, losses: FloatArray) -> float:
    """Realised regret ``Σ_t <l_t, x_t> − min_i Σ_t l_t(i)`` (Sec. 2, best fixed expert)."""
    return float(np.einsum("tn,tn->", points, losses) - losses.sum(axis=0).min())


def reference_full_points(
    losses: FloatArray, epsilon: float, rng: np.random.Generator
) -> FloatArray:
    """Algorithm 1, Cor. 3.2 experts on ``Y = [0, 1]^N``, strict Laplace calibration."""
    horizon, dim = losses.shape
    p = cor32_parameters(
        "experts", dim, horizon, epsilon, calibration="strict", experts_losses="box01"
    )
    noise = LaplaceNoise((dim,), p.lam)
    learner = PrivateFTRL(p.regularizer, p.eta, noise, horizon, rng, loss_set=p.loss_set)
    return run_full_info(learner, losses).actions


def reference_bandit_points(
    losses: FloatArray, epsilon: float, arms: np.random.Generator, reduction: np.random.Generator
) -> FloatArray:
    """Algorithm 4 over Algorithm 5 (EXP2, uniform exploration), Thm 4.1's proof-consistent
    parameters with the strict ``λ = Δ_B/ε``, ``Δ_B = 1`` for ``[0, 1]`` losses."""
    horizon, dim = losses.shape
    p = thm41_parameters(dim, horizon, epsilon, preset="proof_consistent", calibration="strict")
    inner = EXP2Exploration(dim, p.eta, p.gamma, arms)
    learner = PrivateBanditReduction(inner, LaplaceNoise((dim,), p.lam), reduction)
    return run_bandit(learner, losses).actions


def online_regret_check(
    policy: OnlinePolicy,
    *,
    feedback: Feedback,
    epsilon: float,
    dim: int = 5,
    horizon: int = 2000,
    runs: int = 30,
    seed: int = 2026,
    confidence: float = 0.99,
    name: str | None = None,
    margin: float = REGRET_MARGIN,
) -> OnlineRegretResult:
    """``runs`` paired runs of ``policy`` and the reference at ``epsilon`` (module docstring): run
    ``i`` draws its losses (:func:`~reference.agarwal_singh.environments.experts_bernoulli` with
    :func:`online_means`), the candidate's and the reference's generators from the ``i``-th child
    of ``seed`` (names ``"environment"``, ``"candidate"``, ``"reference"``, ``"reduction"``; the
    last drives Algorithm 4's noise).  Every run's points are checked (:func:`check_points`).
    ``name`` defaults to ``"online <feedback> regret"``."""
    check_choice("feedback", feedback, ("full", "bandit"))
    epsilon = check_in_range("epsilon", epsilon, 0.0, math.inf)
    dim = check_int_at_least("dim", dim, 2)
    horizon = check_int_at_least("horizon", horizon, 2)
    runs = check_int_at_least("runs", runs, 2)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    margin = check_in_range("margin", margin, 0.0, math.inf, low_open=False)
    means = online_means(dim)
    if feedback == "bandit":  # refuse a horizon too short for Thm 4.1 before any run
        thm41_parameters(dim, horizon, epsilon, preset="proof_consistent", calibration="strict")
    candidate = np.empty(runs)
    reference = np.empty(runs)
    for i, child in enumerate(child_seeds(seed, 0, runs)):
        gens = named_generators(child, ("environment", "candidate", "reference", "reduction"))
        losses = experts_bernoulli(np.array(means), horizon, gens["environment"])
        points = check_points(
            policy.play(losses.copy(), gens["candidate"]),
            horizon,
            dim,
            f"the points {policy!r} returned on run {i + 1}",
        )
        candidate[i] = _regret(points, losses)
        if feedback == "full":
            actions = reference_full_points(losses, epsilon, gens["reference"])
        else:
            actions = reference_bandit_points(losses, epsilon, gens["reference"], gens["reduction"])
        reference[i] = _regret(actions, losses)
    pvalue = paired_wilcoxon_greater(candidate - (1.0 + margin) * reference)
    return OnlineRegretResult(
        name=f"online {feedback} regret" if name is None else name,
        runs=runs,
        horizon=horizon,
        means=means,
        epsilon=epsilon,
        candidate_mean=float(candidate.mean()),
        reference_mean=float(reference.mean()),
        wilcoxon_pvalue=pvalue,
        worse=pvalue < 1.0 - confidence,
        confidence=confidence,
        feedback=feedback,
        margin=margin,
    )
