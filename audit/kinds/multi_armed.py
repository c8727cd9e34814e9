"""Multi-armed policies (Sajed & Sheffet): an :class:`~audit.protocols.StreamPolicy` whose decision
sets are the ``K`` one-hot arms and whose rewards lie in ``{0, 1}``, audited on streams that change
one day's rewards (the event-level neighbours of Sec. 2); its regret compared on the same
Bernoulli reward tables with DP-SE (Algorithm 3, ``β = 1/T``) or the DP-UCB baseline of Sec. 5 at
the claimed ε (:func:`multi_armed_regret_check`, paired runs of :mod:`audit.methods.regret`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from audit.kinds.base import CheckSettings, StreamKind, choose
from audit.methods.designs import multi_armed_designs
from audit.methods.regret import PairedRegretResult, paired_result, paired_runs
from audit.papers.sajed_sheffet.regret import (
    DEFAULT_MEANS,
    MULTI_ARMED_REFERENCES,
    MultiArmedReference,
    reference_regret,
)
from audit.protocols import NeighbouringPair, PrivacyClaim, StreamPolicy, check_actions
from audit.stats import REGRET_MARGIN
from reference._typing import FloatArray
from reference.rng import check_seed
from reference.validation import check_array, check_choice, check_in_range, check_int_at_least

__all__ = ["KIND", "MultiArmedKind", "MultiArmedRegretResult", "multi_armed_regret_check"]


@dataclass(frozen=True)
class MultiArmedRegretResult(PairedRegretResult):
    """A multi-armed policy against DP-SE (or DP-UCB, ``reference``) on the same reward tables
    (:class:`~audit.methods.regret.PairedRegretResult`, at ``margin``)."""

    reference: MultiArmedReference = "dp_se"
    margin: float = REGRET_MARGIN


def multi_armed_regret_check(
    policy: StreamPolicy,
    *,
    epsilon: float,
    means: Sequence[float] = DEFAULT_MEANS,
    horizon: int = 20_000,
    runs: int = 30,
    seed: int = 2026,
    confidence: float = 0.99,
    name: str = "multi-armed regret",
    reference: MultiArmedReference = "dp_se",
    margin: float = REGRET_MARGIN,
) -> MultiArmedRegretResult:
    """``runs`` paired runs of ``policy`` and the ``reference`` at ``epsilon`` (module docstring):
    run ``i`` draws its Bernoulli rewards with ``means``, the candidate's and the reference's
    generators from the ``i``-th child of ``seed`` (names ``"environment"``, ``"candidate"``,
    ``"reference"``; :func:`audit.methods.regret.paired_runs`).  Every run's actions are checked
    (:func:`audit.protocols.check_actions`)."""
    epsilon = check_in_range("epsilon", epsilon, 0.0, math.inf)
    mu = check_array("means", means, ndim=1)
    if mu.size < 2 or np.any(mu < 0.0) or np.any(mu > 1.0):
        raise ValueError(f"means must be at least 2 values in [0, 1], got {mu.tolist()}")
    horizon = check_int_at_least("horizon", horizon, 2)
    runs = check_int_at_least("runs", runs, 2)
    seed = check_seed(seed)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_choice("reference", reference, MULTI_ARMED_REFERENCES)
    margin = check_in_range("margin", margin, 0.0, math.inf, low_open=False)
    k = int(mu.size)
    gaps = float(mu.max()) - mu
    arms: tuple[FloatArray, ...] = tuple(np.eye(k) for _ in range(horizon))

    def run(i: int, gens: dict[str, np.random.Generator]) -> tuple[float, float]:
        rewards = (gens["environment"].random((horizon, k)) < mu).astype(np.float64)
        actions = check_actions(
            policy.run(arms, tuple(rewards), gens["candidate"]),  # type: ignore[arg-type]
            arms,
            f"the actions {policy!r} returned on run {i + 1}",
        )
        baseline = reference_regret(rewards, mu, epsilon, reference, gens["reference"])
        return float(gaps[actions].sum()), baseline

    candidate, baseline = paired_runs(
        run, runs=runs, seed=seed, streams=("environment", "candidate", "reference")
    )
    return paired_result(
        MultiArmedRegretResult, candidate, baseline, name=name, horizon=horizon,
        means=tuple(float(m) for m in mu), epsilon=epsilon, confidence=confidence, margin=margin,
        reference=reference,
    )  # fmt: skip


class MultiArmedKind(StreamKind):
    """The multi-armed kind (module docstring)."""

    name = "multi_armed"
    help = (
        "a multi-armed policy: one-hot arms, rewards in {0, 1} (regret vs Sajed & Sheffet's "
        "DP-SE, or DP-UCB)"
    )
    default_horizon = 20_000
    claim_source = "event-level DP, one reward changed, Sajed & Sheffet Sec. 2"
    references = MULTI_ARMED_REFERENCES
    default_reference = "dp_se"
    reference_text = "Sajed & Sheffet's DP-SE or DP-UCB at the claimed ε"
    record_kind = "multi_armed"
    record_width = len(DEFAULT_MEANS)

    def check_reference(
        self, reference: object, claim: PrivacyClaim, settings: CheckSettings
    ) -> tuple[str | None, str | None]:
        """DP-SE by default, or DP-UCB; both need ``ε > 0``."""
        default = self.default_reference
        armed = choose(
            "reference", default if reference is None else reference, MULTI_ARMED_REFERENCES
        )
        check_in_range("epsilon", claim.epsilon, 0.0, math.inf)
        return str(armed), None

    def candidates(self, settings: CheckSettings, seed: int) -> list[NeighbouringPair[Any]]:
        """The multi-armed designs (:func:`audit.methods.designs.multi_armed_designs`: every
        reward 0 but day 1's, 6 to 24 days, 2 and 5 arms)."""
        return list(multi_armed_designs(arm_counts=(2, len(DEFAULT_MEANS))))

    def regret(
        self, policy: Any, claim: PrivacyClaim, settings: CheckSettings, *, seed: int, name: str
    ) -> MultiArmedRegretResult:
        """:func:`multi_armed_regret_check` against ``settings.reference``."""
        armed = choose("reference", settings.reference, MULTI_ARMED_REFERENCES)
        return multi_armed_regret_check(
            policy, epsilon=claim.epsilon, horizon=settings.n, runs=settings.runs, seed=seed,
            confidence=settings.confidence, name=f"{name} vs {armed}", reference=armed,
        )  # fmt: skip

    def regret_rows(self, result: Any) -> list[str]:
        """The paired comparison."""
        r: MultiArmedRegretResult = result
        return [
            f"| regret vs {'DP-SE' if r.reference == 'dp_se' else 'DP-UCB'} at ε = "
            f"{r.epsilon:g} ({r.runs} paired runs, T = {r.horizon}) | "
            f"candidate {r.candidate_mean:.1f}, reference {r.reference_mean:.1f}, Wilcoxon p = "
            f"{r.wilcoxon_pvalue:.3g} | {'**WORSE**' if r.worse else 'pass'} |"
        ]


KIND = MultiArmedKind()
