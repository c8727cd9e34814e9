"""Linear contextual policies (Shariff & Sheffet): an :class:`~audit.protocols.StreamPolicy` audited
on designs whose later choices reveal day 1's record (:mod:`audit.methods.designs`), released rows ``(x, y)``, and its regret
compared with Algorithm 1 on App. D environments (:func:`~audit.papers.shariff_sheffet.regret.\
regret_regression_check`: Wilcoxon, Theorem 5 containment, scaling).  A pure-ε claim is compared
with the non-private Algorithm 1 (the paper's private one needs ``δ > 0``).  ``--reward-range``
rescales the rewards the policy sees (:class:`RescaledRewards`).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from audit.kinds.base import CheckSettings, StreamKind, choose
from audit.methods.designs import linear_designs, reused_noise_design
from audit.papers.shariff_sheffet.regret import RegressionCheckResult, regret_regression_check
from audit.protocols import DensityMechanism, NeighbouringPair, PrivacyClaim
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.regularizers import (
    VARIANTS,
    PrivacyParameters,
    ProblemConstants,
    regularizer_spec,
)

__all__ = [
    "FIRST_ROUND",
    "KIND",
    "LinearKind",
    "RescaledRecords",
    "RescaledRecordsDensity",
    "RescaledRewards",
]

FIRST_ROUND = 16
"""The first round at which the regret is read for the scaling fit (so ``n`` must exceed it)."""


class RescaledRewards:
    """A policy that expects rewards in ``[low, high]``: each reward table of the audit's
    ``[−1, 1]`` streams is mapped affinely, ``r ↦ low + (r + 1)(high − low)/2``, before the wrapped
    ``run`` sees it (``--reward-range``).  The map is one-to-one, so neighbouring streams stay
    neighbouring and the claim is unchanged."""

    def __init__(self, inner: Any, low: float, high: float) -> None:
        if not (math.isfinite(low) and math.isfinite(high) and low < high):
            raise ValueError(f"reward range must be finite with low < high, got [{low}, {high}]")
        self.inner, self.low, self.high = inner, float(low), float(high)

    def run(self, decision_sets: Any, reward_tables: Any, rng: np.random.Generator) -> Any:
        """The wrapped policy's ``run`` on the rescaled reward tables."""
        scale = (self.high - self.low) / 2.0
        tables = tuple(self.low + (np.asarray(r, dtype=np.float64) + 1.0) * scale
                       for r in reward_tables)  # fmt: skip
        return self.inner.run(decision_sets, tables, rng)

    def __repr__(self) -> str:
        return f"{self.inner!r} (rewards rescaled to [{self.low:g}, {self.high:g}])"


class RescaledRecords:
    """:class:`RescaledRewards` for a release mechanism: the reward column (the last) of the
    audit's linear records ``(x, y)``, ``y ∈ [−1, 1]``, mapped affinely to ``[low, high]``."""

    def __init__(self, inner: Any, low: float, high: float) -> None:
        self.inner, self.low, self.high = inner, float(low), float(high)

    def _map(self, data: Any) -> Any:
        out = np.array(data, dtype=np.float64)
        out[:, -1] = self.low + (out[:, -1] + 1.0) * (self.high - self.low) / 2.0
        return out

    def sample(self, data: Any, rng: np.random.Generator, size: int) -> Any:
        """The wrapped mechanism's ``sample`` on the rescaled records."""
        return self.inner.sample(self._map(data), rng, size)

    def __repr__(self) -> str:
        return f"{self.inner!r} (rewards rescaled to [{self.low:g}, {self.high:g}])"


class RescaledRecordsDensity(RescaledRecords):
    """:class:`RescaledRecords` that keeps the wrapped mechanism's ``log_density``."""

    def log_density(self, data: Any, outputs: Any) -> Any:
        """The wrapped mechanism's ``log_density`` on the rescaled records."""
        return self.inner.log_density(self._map(data), outputs)


class LinearKind(StreamKind):
    """The linear contextual kind (module docstring)."""

    name = "linear"
    help = (
        "a linear contextual policy (regret vs Shariff & Sheffet's Algorithm 1, or the "
        "non-private Algorithm 1 for a pure-ε claim)"
    )
    default_horizon = 300
    claim_source = "joint DP on t-neighbouring streams, Shariff & Sheffet Definition 1"
    references = VARIANTS
    default_reference = "gaussian"
    reference_text = "Shariff & Sheffet's Algorithm 1 on App. D environments"
    options = frozenset({"reward_range"})
    record_kind = "linear"
    record_width = 3
    min_stages = 2  # its runs cost the most; its designs show a leak in the first stages

    def check_reference(
        self, reference: object, claim: PrivacyClaim, settings: CheckSettings
    ) -> tuple[str | None, str | None]:
        """``gaussian`` by default; for a pure-ε claim the non-private Algorithm 1 (said in the
        note), and a private variant asked for is refused; ``n``, ``d``, ``num_arms``, ``gap`` and
        the privacy parameters are checked against Algorithm 1's."""
        note = None
        if reference is None and claim.delta == 0.0:
            reference, note = (
                "nonprivate",
                (
                    "the non-private Algorithm 1 of Shariff & Sheffet: the claim is pure ε (δ = 0) "
                    "and the paper's private Algorithm 1 needs δ > 0, so the regret is compared with "
                    "the non-private one"
                ),
            )
        default = self.default_reference
        variant = choose("reference", default if reference is None else reference, VARIANTS)
        if variant != "nonprivate" and claim.delta == 0.0:
            raise ValueError(
                f"reference {variant!r} needs δ > 0 (Shariff & Sheffet's private Algorithm 1), "
                "but the claim is pure ε (delta 0): drop --reference to compare with the "
                "non-private Algorithm 1"
            )
        s = settings
        if s.n <= FIRST_ROUND:
            raise ValueError(
                f"n must be an integer > {FIRST_ROUND} for a linear policy (its regret is read "
                f"from round {FIRST_ROUND} on), got {s.n}"
            )
        LinearGapEnvironment(s.d, s.num_arms, s.gap, np.random.default_rng(0))
        privacy = None if variant == "nonprivate" else PrivacyParameters(claim.epsilon, claim.delta)
        regularizer_spec(variant, ProblemConstants(d=s.d), s.n, 1.0 / s.n, privacy)
        return str(variant), note

    def wrap(self, target: Any, settings: CheckSettings) -> Any:
        """The seeded policy, its rewards rescaled to ``settings.reward_range`` if given."""
        if settings.reward_range is None:
            return target
        return RescaledRewards(target, *settings.reward_range)

    def candidates(self, settings: CheckSettings, seed: int) -> list[NeighbouringPair[Any]]:
        """The linear designs (:func:`audit.methods.designs.linear_designs`: day 1's record
        at the corners of the record domain, then opposite arms, 2 to 16 days)."""
        anchored = [reused_noise_design(levels) for levels in settings.anchored_levels]
        return [*linear_designs(), *anchored]

    def release_input(self, aggregator: Any, settings: CheckSettings) -> Any:
        """The aggregator, its records' rewards rescaled to ``settings.reward_range`` if given."""
        if settings.reward_range is None:
            return aggregator
        wrap = (
            RescaledRecordsDensity if isinstance(aggregator, DensityMechanism) else RescaledRecords
        )
        return wrap(aggregator, *settings.reward_range)

    def regret(
        self, policy: Any, claim: PrivacyClaim, settings: CheckSettings, *, seed: int, name: str
    ) -> RegressionCheckResult:
        """:func:`~audit.papers.shariff_sheffet.regret.regret_regression_check` against
        ``settings.reference``."""
        variant = choose("reference", settings.reference, VARIANTS)
        s = settings
        return regret_regression_check(
            policy, variant, d=s.d, num_arms=s.num_arms, gap=s.gap, n=s.n, runs=s.runs, seed=seed,
            privacy=None if variant == "nonprivate" else PrivacyParameters(claim.epsilon, claim.delta),
            first=FIRST_ROUND, confidence=s.confidence, name=f"{name} vs reference {variant}",
        )  # fmt: skip

    def regret_rows(self, result: Any) -> list[str]:
        """Wilcoxon, Theorem 5 containment and the scaling fit."""
        r: RegressionCheckResult = result
        return [
            f"| regret vs reference ({r.runs} paired runs) | candidate {r.candidate_mean:.1f}, "
            f"reference {r.reference_mean:.1f}, Wilcoxon p = {r.wilcoxon_pvalue:.3g} | "
            f"{'**WORSE**' if r.worse else 'pass'} |",
            f"| Theorem 5 containment | {r.candidate_containment.failures}/"
            f"{r.candidate_containment.runs} runs above | "
            f"{'**VIOLATION**' if r.candidate_containment.violation else 'pass'} |",
            f"| scaling vs Theorem 5's form | slope {r.candidate_scaling.slope:.2f} "
            f"[{r.candidate_scaling.ci_low:.2f}, {r.candidate_scaling.ci_high:.2f}] "
            f"(reference {r.reference_scaling.slope:.2f}) | {_scaling_verdict(r)} |",
        ]

    def regret_json(self, result: Any) -> dict[str, Any]:
        """Its fields, ``passed`` and ``scaling_gated``."""
        out = super().regret_json(result)
        out["scaling_gated"] = result.scaling_gated
        return out


def _scaling_verdict(r: RegressionCheckResult) -> str:
    if not r.scaling_gated:
        return "reported (the reference is pre-asymptotic at this horizon)"
    return "pass" if r.candidate_scaling.consistent else "**INCONSISTENT**"


KIND = LinearKind()
