"""What the two online kinds share (:mod:`audit.kinds.online_full`, :mod:`audit.kinds.online_bandit`):
an :class:`~audit.protocols.OnlinePolicy` audited on loss sequences that differ in one round's
loss vector within the loss set ``Y`` (Agarwal & Singh Definition 2.1), its tree releases on loss
vectors, and its regret compared on the same Bernoulli losses with Agarwal & Singh's private
learner at the claimed ε (:func:`online_regret_check`, paired runs of :mod:`audit.methods.regret`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar, get_args

import numpy as np

from audit.kinds.base import CheckSettings, Kind
from audit.methods.designs import (
    ONLINE_HORIZONS,
    design_online_audit,
    differing_round,
    online_designs,
    online_samples,
)
from audit.methods.online import check_points
from audit.methods.regret import PairedRegretResult, paired_result, paired_runs
from audit.papers.agarwal_singh.regret import (
    Feedback,
    online_means,
    realised_regret,
    reference_bandit_points,
    reference_full_points,
)
from audit.protocols import NeighbouringPair, OnlinePolicy, PrivacyClaim
from audit.stats import REGRET_MARGIN
from reference.agarwal_singh.environments import experts_bernoulli
from reference.agarwal_singh.sets import LossSetKind
from reference.agarwal_singh.theorems import cor32_parameters, thm41_parameters
from reference.rng import check_seed
from reference.validation import check_choice, check_in_range, check_int_at_least

__all__ = [
    "DIM",
    "LOSS_SET_KINDS",
    "OnlineKind",
    "OnlineRegretResult",
    "differing_round",
    "online_regret_check",
]

DIM = 5
"""Dimension ``N`` (experts, arms) of the online learners' loss vectors in the check."""

LOSS_SET_KINDS: tuple[LossSetKind, ...] = get_args(LossSetKind)
"""The loss sets ``Y`` an online learner's claim may be made for."""


@dataclass(frozen=True)
class OnlineRegretResult(PairedRegretResult):
    """An online learner against Agarwal & Singh's private learner on the same losses
    (:class:`~audit.methods.regret.PairedRegretResult`, at ``margin``); ``feedback`` is
    ``"full"`` (reference: Algorithm 1) or ``"bandit"`` (Algorithm 4)."""

    feedback: Feedback
    margin: float = REGRET_MARGIN


def _check_horizon(feedback: Feedback, dim: int, horizon: int, epsilon: float) -> None:
    """Refuse what the reference cannot run at (a horizon too short for Thm 4.1's parameters)."""
    if feedback == "bandit":
        thm41_parameters(dim, horizon, epsilon, preset="proof_consistent", calibration="strict")
    else:
        cor32_parameters("experts", dim, horizon, epsilon, calibration="strict",
                         experts_losses="box01")  # fmt: skip


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
    :func:`~audit.papers.agarwal_singh.regret.online_means`), the candidate's and the reference's
    generators from the ``i``-th child of ``seed`` (names ``"environment"``, ``"candidate"``,
    ``"reference"``, ``"reduction"``; the last drives Algorithm 4's noise).  Every run's points are
    checked (:func:`~audit.methods.online.check_points`).  ``name`` defaults to
    ``"online <feedback> regret"``."""
    check_choice("feedback", feedback, ("full", "bandit"))
    epsilon = check_in_range("epsilon", epsilon, 0.0, math.inf)
    dim = check_int_at_least("dim", dim, 2)
    horizon = check_int_at_least("horizon", horizon, 2)
    runs = check_int_at_least("runs", runs, 2)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    margin = check_in_range("margin", margin, 0.0, math.inf, low_open=False)
    means = online_means(dim)
    _check_horizon(feedback, dim, horizon, epsilon)  # before any run

    def run(i: int, gens: dict[str, np.random.Generator]) -> tuple[float, float]:
        losses = experts_bernoulli(np.array(means), horizon, gens["environment"])
        points = check_points(
            policy.play(losses.copy(), gens["candidate"]),
            horizon,
            dim,
            f"the points {policy!r} returned on run {i + 1}",
        )
        if feedback == "full":
            actions = reference_full_points(losses, epsilon, gens["reference"])
        else:
            actions = reference_bandit_points(losses, epsilon, gens["reference"], gens["reduction"])
        return realised_regret(points, losses), realised_regret(actions, losses)

    streams = ("environment", "candidate", "reference", "reduction")
    candidate, reference = paired_runs(run, runs=runs, seed=seed, streams=streams)
    return paired_result(
        OnlineRegretResult, candidate, reference, name=f"online {feedback} regret" if name is None
        else name, horizon=horizon, means=means, epsilon=epsilon, confidence=confidence,
        margin=margin, feedback=feedback,
    )  # fmt: skip


class OnlineKind(Kind):
    """An online learner with :attr:`feedback` (module docstring)."""

    feedback: ClassVar[Feedback]
    design_horizons: ClassVar[tuple[int, ...]] = ONLINE_HORIZONS
    """The rounds of the privacy designs (the shortest also for ``N =`` :data:`DIM`)."""
    protocol = OnlinePolicy
    protocol_text = "an audit.protocols.OnlinePolicy (play(losses, rng) -> points)"
    sampler = online_samples
    design_audit = design_online_audit
    default_horizon = 2000
    claim_source = "one round's loss vector changed, Agarwal & Singh Definition 2.1"
    options = frozenset({"loss_set"})
    record_kind = "online"
    record_width = DIM
    privacy_label = "DP"

    def check_reference(
        self, reference: object, claim: PrivacyClaim, settings: CheckSettings
    ) -> tuple[str | None, str | None]:
        """The reference is fixed; ``ε > 0``, the horizon and ``loss_set`` are checked."""
        super().check_reference(reference, claim, settings)
        if settings.loss_set is not None:
            check_choice("loss_set", settings.loss_set, LOSS_SET_KINDS)
        check_in_range("epsilon", claim.epsilon, 0.0, math.inf)
        _check_horizon(self.feedback, DIM, settings.n, claim.epsilon)
        return None, None

    def resolve(self, target: Any, settings: CheckSettings) -> CheckSettings:
        """``loss_set`` as given, else the loss set the target states (a ``loss_set`` attribute
        naming a kind of :class:`~reference.agarwal_singh.sets.LossSet`), else ``"box01"``."""
        if settings.loss_set is not None:
            return settings
        stated = getattr(getattr(target, "inner", target), "loss_set", None)
        found = next((kind for kind in LOSS_SET_KINDS if stated == kind), "box01")
        return settings.but(loss_set=found)

    def candidates(self, settings: CheckSettings, seed: int) -> list[NeighbouringPair[Any]]:
        """The online designs in the loss set (:func:`audit.methods.designs.online_designs`:
        every loss 0 but round 1's split loss, :attr:`design_horizons` rounds, ``N = 2`` and
        :data:`DIM`)."""
        loss_set: LossSetKind = settings.loss_set or "box01"
        return list(online_designs(loss_set, self.design_horizons, dims=(2, DIM)))

    def regret(
        self, policy: Any, claim: PrivacyClaim, settings: CheckSettings, *, seed: int, name: str
    ) -> OnlineRegretResult:
        """:func:`online_regret_check` with :attr:`feedback`."""
        return online_regret_check(
            policy, feedback=self.feedback, epsilon=claim.epsilon, dim=DIM, horizon=settings.n,
            runs=settings.runs, seed=seed, confidence=settings.confidence,
        )  # fmt: skip

    def regret_rows(self, result: Any) -> list[str]:
        """The paired comparison."""
        r: OnlineRegretResult = result
        reference = "Algorithm 1" if r.feedback == "full" else "Algorithm 4 over EXP2"
        return [
            f"| regret vs Agarwal & Singh's {reference} at ε = {r.epsilon:g} ({r.runs} paired "
            f"runs, T = {r.horizon}) | candidate {r.candidate_mean:.1f}, reference "
            f"{r.reference_mean:.1f}, Wilcoxon p = {r.wilcoxon_pvalue:.3g} | "
            f"{'**WORSE**' if r.worse else 'pass'} |"
        ]
