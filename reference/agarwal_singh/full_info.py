"""Full-information learners of Agarwal & Singh: private FTRL (Alg. 1), its one-shot-noise analysis
twin (proof of Thm 3.4), private FTPL (Alg. 3), and a runner.

Paper: Algorithm 1, proof of Thm 3.4 (one-shot twin and eq. (1), Sec. 3.1), Algorithm 3,
Theorem 3.5.

All learners see the losses only through :class:`~reference.agarwal_singh.aggregation.
TreeBasedAggregation` (input privacy + post-processing, Sec. 3.1).  Guarantees are for an *oblivious*
adversary: the loss sequence is fixed before the run; the runner takes it as an array.
Leading axes of ``noise.shape`` before the last (the loss dimension ``N``) are independent replicates.

Proof note: ``proofs_notes/agarwal_singh/alg1_thm31_thm34_ftrl.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import TreeBasedAggregation, noise_draws_per_release
from reference.agarwal_singh.environments import regret_full_info
from reference.agarwal_singh.sets import DecisionSet, LossSet, Regularizer
from reference.noise import NodeNoise
from reference.rng import SeedLike, as_generator
from reference.validation import check_array, check_instance, check_int_at_least, check_positive

__all__ = [
    "FullInfoLearner",
    "FullInfoRun",
    "OneShotFTRL",
    "PrivateFTPL",
    "PrivateFTRL",
    "run_full_info",
]


@runtime_checkable
class FullInfoLearner(Protocol):
    """A full-information online learner: publish ``x_t``, then observe ``l_t``."""

    @property
    def decision_set(self) -> DecisionSet:
        """The decision set ``X``."""
        ...

    def act(self) -> FloatArray:
        """The action ``x_t`` of the current round, shape ``(..., N)``."""
        ...

    def observe(self, loss: FloatArray) -> None:
        """Receive the full loss vector ``l_t`` (shape ``(N,)``)."""
        ...


def _check_noise_dim(noise: NodeNoise, dim: int) -> None:
    check_instance("noise", noise, NodeNoise)
    if len(noise.shape) < 1 or noise.shape[-1] != dim:
        raise ValueError(f"noise.shape must end with the dimension N={dim}, got {noise.shape}")


def _check_loss_set(loss_set: LossSet | None) -> LossSet | None:
    return None if loss_set is None else check_instance("loss_set", loss_set, LossSet)


def _check_loss(loss: FloatArray, dim: int, loss_set: LossSet | None) -> FloatArray:
    """``l_t`` of shape ``(N,)``; if a loss set is declared, ``l_t ∈ Y`` is required (the privacy
    calibration assumes it) -- a loss outside ``Y`` raises, it is never clipped."""
    out = check_array("loss", loss, shape=(dim,))
    if loss_set is not None and not loss_set.contains(out):
        raise ValueError(f"loss must lie in the declared loss set {loss_set}, got {out}")
    return out


class PrivateFTRL:
    """Algorithm 1 (FTRL template for OLO).

    ``x_t = argmin_{x∈X} ( η<x, L̃_{t−1}> + R(x) )`` with ``L̃_{t−1}`` the output of Algorithm 2
    (``L̃_0`` a sum of ``K`` fresh draws, Algorithm 1, lines 2–3).  ``η`` must be data-independent; see
    :func:`~reference.agarwal_singh.sets.default_learning_rate`.  With Laplace node noise calibrated
    by :func:`~reference.agarwal_singh.aggregation.laplace_scale_tree` the actions are ε-DP
    (Thm 3.1; strict calibration, see the proof note).

    Args:
        regularizer: ``R`` with its decision set (Cor. 3.2 instances in :mod:`.sets`).
        eta: learning rate ``η > 0``.
        noise: node law ``D``; ``noise.shape[-1] = N``.
        T: horizon.
        rng: generator for all node and padding draws.
        pad: Alg. 2 padding (default True).
        loss_set: the declared ``Y``; if given, every observed loss must lie in it (else ValueError).
    """

    def __init__(
        self,
        regularizer: Regularizer,
        eta: float,
        noise: NodeNoise,
        T: int,
        rng: np.random.Generator | SeedLike,
        *,
        pad: bool = True,
        loss_set: LossSet | None = None,
    ) -> None:
        rng = as_generator(rng)
        self.regularizer = check_instance("regularizer", regularizer, Regularizer)
        self.eta = check_positive("eta", eta)
        _check_noise_dim(noise, regularizer.decision_set.dim)
        self.loss_set = _check_loss_set(loss_set)
        self.aggregator = TreeBasedAggregation(T, noise, rng, pad=pad)

    @property
    def decision_set(self) -> DecisionSet:
        return self.regularizer.decision_set

    @property
    def T(self) -> int:
        """The horizon: at most ``T`` losses are observed."""
        return self.aggregator.T

    def act(self) -> FloatArray:
        """``x_t`` from ``L̃_{t−1}`` (Alg. 1, line 5)."""
        return self.regularizer.argmin(self.aggregator.release().value, self.eta)

    def observe(self, loss: FloatArray) -> None:
        """Alg. 1, lines 6–7: feed ``l_t`` to the tree."""
        self.aggregator.step(_check_loss(loss, self.decision_set.dim, self.loss_set))


class OneShotFTRL:
    """The analysis twin of the proof of Thm 3.4 -- **not private**, audits only.

    ``Z ~ D'`` (the sum of ``K`` i.i.d. node draws) is drawn once at construction, and
    ``x̂_t = argmin_{x∈X} ( η<x, Z + Σ_{s<t} l_s> + R(x) )``.  The paper writes ``Z ~ D`` and
    ``Σ_i l_i``; ``D'`` and ``s < t`` are what eq. (1) needs.  For oblivious losses
    ``x̂_t`` and the ``x_t`` of :class:`PrivateFTRL` (with padding) have the same law for every ``t``,
    hence the same expected loss (eq. (1)).
    """

    def __init__(
        self,
        regularizer: Regularizer,
        eta: float,
        noise: NodeNoise,
        T: int,
        rng: np.random.Generator | SeedLike,
    ) -> None:
        rng = as_generator(rng)
        self.regularizer = check_instance("regularizer", regularizer, Regularizer)
        self.eta = check_positive("eta", eta)
        _check_noise_dim(noise, regularizer.decision_set.dim)
        self.T = check_int_at_least("T", T, 1)
        self.Z = noise.sample_sum(rng, noise_draws_per_release(self.T))
        self._cumulative = np.zeros(noise.shape)
        self._observed = 0

    @property
    def decision_set(self) -> DecisionSet:
        return self.regularizer.decision_set

    def act(self) -> FloatArray:
        return self.regularizer.argmin(self.Z + self._cumulative, self.eta)

    def observe(self, loss: FloatArray) -> None:
        checked = _check_loss(loss, self.decision_set.dim, None)
        if self._observed >= self.T:
            raise ValueError(
                f"at most T={self.T} losses can be observed (the horizon), got loss {self.T + 1}"
            )
        self._cumulative = self._cumulative + checked
        self._observed += 1


class PrivateFTPL:
    """Algorithm 3 (FTPL template for OLO): ``x_t = argmin_{x∈X} <x, L̃_{t−1}>``.

    No regulariser, no ``η``: the tree noise (Gaussian ``N(0, σ²I)`` in Thm 3.5) is the
    perturbation; ``L̃_{t−1} − Σ_{s<t} l_s ~ N(0, Kσ² I)``.  Ties in the linear oracle have
    probability 0 under Gaussian noise and go to the lowest index.  ``loss_set`` as in
    :class:`PrivateFTRL`.
    """

    def __init__(
        self,
        decision_set: DecisionSet,
        noise: NodeNoise,
        T: int,
        rng: np.random.Generator | SeedLike,
        *,
        pad: bool = True,
        loss_set: LossSet | None = None,
    ) -> None:
        rng = as_generator(rng)
        check_instance("decision_set", decision_set, DecisionSet)
        _check_noise_dim(noise, decision_set.dim)
        self._decision_set = decision_set
        self.loss_set = _check_loss_set(loss_set)
        self.aggregator = TreeBasedAggregation(T, noise, rng, pad=pad)

    @property
    def decision_set(self) -> DecisionSet:
        return self._decision_set

    @property
    def T(self) -> int:
        """The horizon: at most ``T`` losses are observed."""
        return self.aggregator.T

    def act(self) -> FloatArray:
        return self._decision_set.linear_argmin(self.aggregator.release().value)

    def observe(self, loss: FloatArray) -> None:
        self.aggregator.step(_check_loss(loss, self._decision_set.dim, self.loss_set))


@dataclass(frozen=True)
class FullInfoRun:
    """Result of :func:`run_full_info`.

    Attributes:
        actions: ``(T, ..., N)`` published actions ``x_1..x_T`` (replicate axes in the middle).
        incurred: ``(T, ...)`` losses ``<l_t, x_t>`` (regret accounting; not a privacy output).
        regret: ``(...)`` realised regret ``Σ_t <l_t, x_t> − min_{x∈X} Σ_t <l_t, x>`` per replicate.
    """

    actions: FloatArray
    incurred: FloatArray
    regret: FloatArray


def run_full_info(learner: FullInfoLearner, losses: FloatArray) -> FullInfoRun:
    """Play an oblivious loss sequence ``losses`` (shape ``(T, N)``) against ``learner``.

    Round ``t``: ``x_t = learner.act()``, suffer ``<l_t, x_t>``, ``learner.observe(l_t)``
    (Alg. 1, lines 4–8).  Regret is against the best fixed action in hindsight (Sec. 2).  A
    learner with a horizon ``T`` (an ``int`` attribute, as the learners here have) takes at most
    ``T`` rounds.
    """
    dim = check_instance("learner", learner, FullInfoLearner).decision_set.dim
    losses = check_array("losses", losses, shape=(None, dim))
    if losses.shape[0] < 1:
        raise ValueError("losses must contain at least one round")
    horizon = getattr(learner, "T", None)
    if isinstance(horizon, int) and losses.shape[0] > horizon:
        raise ValueError(
            f"losses must have at most T={horizon} rounds (the learner's horizon), got "
            f"{losses.shape[0]}"
        )
    actions = []
    for loss in losses:
        actions.append(learner.act())
        learner.observe(loss)
    stacked = np.stack(actions)
    incurred = np.einsum("t...n,tn->t...", stacked, losses)
    regret = regret_full_info(stacked, losses, learner.decision_set)
    return FullInfoRun(actions=stacked, incurred=incurred, regret=regret)
