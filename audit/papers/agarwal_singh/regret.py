"""Agarwal & Singh's private online learners as regret references, at a given ε.

Full information: Algorithm 1 with negative entropy on the simplex over the Laplace tree
calibrated for ``[0, 1]^N`` (Thm 3.1, Cor. 3.2, strict calibration; :func:`reference_full_points`);
bandit feedback: Algorithm 4 over EXP2 with uniform exploration (Algorithm 5, Thm 4.1's
proof-consistent parameters; :func:`reference_bandit_points`); the regret of Sec. 2,
``Σ_t <l_t, x_t> − min_i Σ_t l_t(i)`` (:func:`realised_regret`), on Bernoulli losses with one best
expert (:func:`online_means`).  The comparison of a third-party learner with them is the online
kinds of ``privonline check`` (:mod:`audit.kinds.online`, :mod:`audit.methods.regret`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

import numpy as np

from reference._typing import FloatArray
from reference.agarwal_singh.bandits import EXP2Exploration, PrivateBanditReduction, run_bandit
from reference.agarwal_singh.full_info import PrivateFTRL, run_full_info
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.noise import LaplaceNoise
from reference.validation import check_int_at_least

__all__ = [
    "BEST_MEAN",
    "OTHER_MEAN",
    "Feedback",
    "online_means",
    "realised_regret",
    "reference_bandit_points",
    "reference_full_points",
]

Feedback: TypeAlias = Literal["full", "bandit"]
"""What the learner observes: every loss vector (full information), or its own loss only."""

BEST_MEAN = 0.25
"""Bernoulli mean of the best expert's loss in the default environment."""

OTHER_MEAN = 0.5
"""Bernoulli mean of every other expert's loss (gap 0.25)."""


def online_means(dim: int) -> tuple[float, ...]:
    """The environment's loss means: :data:`BEST_MEAN` for expert 1, :data:`OTHER_MEAN` after."""
    dim = check_int_at_least("dim", dim, 2)
    return (BEST_MEAN,) + (OTHER_MEAN,) * (dim - 1)


def realised_regret(points: FloatArray, losses: FloatArray) -> float:
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
