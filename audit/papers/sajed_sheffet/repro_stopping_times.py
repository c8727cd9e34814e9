"""Sajed & Sheffet (ICML 2019) Theorem 3.3: halting times of DP-NAS (Algorithm 1, on the compiled
engine) and DP exponential NAS (Algorithm 2) on the two-point law, the theorem's forms, and the
planted rule with noise ``∝ 1/ε²``; the configuration and cells of ``stopping``.
Overview in :mod:`audit.papers.sajed_sheffet.reproduce`.

Proof note: ``proofs_notes/audit/reproduce_sajed_sheffet.md``.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from reference._typing import FloatArray
from reference.engine.compiled.stopping import dp_nas_two_point_compiled
from reference.rng import check_seed, child_seeds
from reference.sajed_sheffet.bounds import good_event_halting_time, thm33_halting_bound
from reference.sajed_sheffet.stopping import SampleStream, TwoPointDistribution, dp_exp_nas

__all__ = [
    "STOPPING_RULES",
    "STOPPING_VARIABLES",
    "STOPPING_VARIANTS",
    "StoppingConfig",
    "stopping_forms",
    "stopping_seeds",
    "stopping_times",
]


# --------------------------------------------------------------------------------------------
# stopping: stopping time of Algorithms 1 and 2 against Theorem 3.3's forms
# --------------------------------------------------------------------------------------------

STOPPING_VARIABLES = ("1/α", "1/ε", "R")
"""The scaled variables of ``stopping`` (one grid each, the others at the base point)."""
STOPPING_RULES = ("alg1", "alg2")
STOPPING_VARIANTS = ("correct", "planted_eps2")
_STOPPING_KEY = 4  # spawn-key slot after _ALGORITHMS' ids
THM33_STATED_RATES = {
    "1/α": "t_U ∝ α⁻² log log(1/α) (t₀, non-private) + α⁻¹ (t₂, private)",
    "1/ε": "t_U ∝ ε⁻¹ (t₁ + t₂) + an ε-free t₀",
    "R": "t_U ∝ R² log log R (t₀) + R log log R (t₁) + R (t₂)",
}


@dataclass(frozen=True)
class StoppingConfig:
    """Stopping time of DP-NAS (Algorithm 1) and DP exponential NAS (Algorithm 2) over ``α``, ``ε``, ``R``.

    Samples: the two-point law on ``{−R, R}`` with mean ``μ`` (the maximal-variance law of the
    proof of Thm 3.4, and of the project's regression values).  ``μ`` stays fixed while ``R``
    varies, so the ``R`` grid scales ``R/|μ|`` (the rules are scale invariant: ``(R, μ) → (cR, cμ)``
    leaves the halting time's law unchanged).

    Attributes:
        mu: the sample mean ``μ`` (fixed).
        beta: failure probability (Thm 3.3 needs ``β ≤ 0.08``).
        alpha, epsilon, range_R: the base point; each grid varies one of them.
        alphas, epsilons, ranges: the grids (the base value must be in each grid).
        runs: replicates per point (paired: the same data and noise seeds for both rules and both
            variants).
        t_max: cap of Algorithm 1 (``k_max = ⌈log₂ t_max⌉`` for Algorithm 2); a run that does not
            halt by the cap is an error (the grid is chosen so that every run halts).
        seed: root seed.
    """

    mu: float = 0.5
    beta: float = 0.05
    alpha: float = 0.5
    epsilon: float = 0.05
    range_R: float = 1.0
    alphas: tuple[float, ...] = (0.1, 0.25, 0.5, 0.8)
    epsilons: tuple[float, ...] = (0.0125, 0.025, 0.05, 0.1, 0.2)
    ranges: tuple[float, ...] = (1.0, 2.0, 4.0, 8.0)
    runs: int = 10
    t_max: int = 2**26
    seed: int = 2021

    @classmethod
    def paper(cls) -> StoppingConfig:
        """The larger variant: 30 runs per point (the paper runs no stopping-rule experiment)."""
        return cls(runs=30)

    def points(self, variable: str) -> list[tuple[float, float, float]]:
        """``(R, α, ε)`` along the grid of ``variable``."""
        if variable == "1/α":
            return [(self.range_R, a, self.epsilon) for a in self.alphas]
        if variable == "1/ε":
            return [(self.range_R, self.alpha, e) for e in self.epsilons]
        if variable == "R":
            return [(r, self.alpha, self.epsilon) for r in self.ranges]
        raise ValueError(f"variable must be one of {STOPPING_VARIABLES}, got {variable!r}")


def stopping_seeds(
    seed: int, range_R: float, mu: float, alpha: float, epsilon: float, runs: int
) -> list[tuple[np.random.SeedSequence, np.random.SeedSequence]]:
    """Per run, the ``(data, noise)`` seed pair of one point.

    The point's sequence is ``SeedSequence(seed, spawn_key=(4, round(10⁶R), round(10⁶μ),
    round(10⁶α), round(10⁶ε)))``; run ``i`` is its child ``i``, split into children 0 (data) and 1
    (mechanism noise).  Both rules and both variants see the same pairs (paired comparison).
    """
    key = tuple(round(1e6 * v) for v in (range_R, mu, alpha, epsilon))
    point = np.random.SeedSequence(check_seed(seed), spawn_key=(_STOPPING_KEY, *key))
    pairs = []
    for run in child_seeds(point, 0, runs):
        data, noise = child_seeds(run, 0, 2)
        pairs.append((data, noise))
    return pairs


def _planted_epsilon(epsilon: float, variant: str) -> float:
    """The ``ε`` the rule is run with: ``ε`` (correct) or ``ε²`` (planted: every noise scale and
    the shift ``c_t`` grow like ``1/ε²`` instead of ``1/ε``)."""
    if variant == "correct":
        return epsilon
    if variant == "planted_eps2":
        return epsilon * epsilon
    raise ValueError(f"variant must be one of {STOPPING_VARIANTS}, got {variant!r}")


def stopping_times(
    rule: str,
    variant: str,
    range_R: float,
    mu: float,
    alpha: float,
    beta: float,
    epsilon: float,
    seeds: Sequence[tuple[np.random.SeedSequence, np.random.SeedSequence]],
    t_max: int,
) -> FloatArray:
    """Halting times of one point, one per ``(data, noise)`` seed pair; raises if a run does not halt.

    ``rule="alg2"`` calls :func:`reference.sajed_sheffet.stopping.dp_exp_nas` itself (block
    sampling makes it cheap, ``k_max = ⌈log₂ t_max⌉``); ``"alg1"`` uses the compiled
    :func:`~reference.engine.compiled.stopping.dp_nas_two_point_compiled` (equal to ``dp_nas``,
    whose ~100 µs per step makes the ``ε``-grid, ``τ`` up to 10⁵, too slow).
    """
    eps = _planted_epsilon(epsilon, variant)
    if rule not in STOPPING_RULES:
        raise ValueError(f"rule must be one of {STOPPING_RULES}, got {rule!r}")
    halted = np.ones(len(seeds), dtype=np.bool_)
    out = np.empty(len(seeds))
    if rule == "alg1":  # one thread: cells already run one per process
        res1 = dp_nas_two_point_compiled(
            range_R, mu, alpha=alpha, beta=beta, epsilon=eps, rngs=seeds, t_max=t_max, workers=1
        )
        halted, out = res1.halted, res1.samples_used.astype(np.float64)
    else:
        k_max = max(1, math.ceil(math.log2(t_max)))
        for i, (data_seed, noise_seed) in enumerate(seeds):
            data_rng = np.random.default_rng(data_seed)
            stream = SampleStream.from_distribution(TwoPointDistribution(range_R, mu), data_rng)
            res2 = dp_exp_nas(
                stream,
                range_R=range_R,
                alpha=alpha,
                beta=beta,
                epsilon=eps,
                rng=np.random.default_rng(noise_seed),
                k_max=k_max,
            )
            halted[i] = res2.halted
            out[i] = res2.samples_used
    if not halted.all():
        raise ValueError(
            f"{rule}/{variant} did not halt by the cap at R={range_R}, α={alpha}, ε={epsilon}; "
            "raise t_max"
        )
    return out


def stopping_forms(
    rule: str, range_R: float, mu: float, alpha: float, beta: float, epsilon: float
) -> dict[str, float]:
    """The bounds a rule's halting time is fitted against (all from ``bounds.py``).

    * ``thm33``: :func:`~reference.sajed_sheffet.bounds.thm33_halting_bound`, Theorem 3.3's
      ``t_U = 2000(t₀ + t₁ + t₂)`` (stated for Algorithm 2; the paper states no halting-time bound
      for Algorithm 1, whose checks at every ``t`` only change ``log log`` into ``log`` factors).
    * ``tau_E``: :func:`~reference.sajed_sheffet.bounds.good_event_halting_time`, the first check
      at which the rule certainly halts on the proof's event (R-4, derived), with the rule's
      own check schedule (``every_step`` for Algorithm 1).
    """
    variant: Literal["exponential", "every_step"] = (
        "every_step" if rule == "alg1" else "exponential"
    )
    return {
        "thm33": thm33_halting_bound(range_R, mu, alpha, beta, epsilon),
        "tau_E": float(good_event_halting_time(range_R, mu, alpha, beta, epsilon, variant=variant)),
    }


@dataclass(frozen=True)
class StoppingCell:
    """One resumable unit of ``stopping``: one rule, one variant, one grid (``runs × points``)."""

    name: str
    rule: str
    variant: str
    variable: str
    points: tuple[tuple[float, float, float], ...]  # (R, α, ε)
    mu: float
    beta: float
    runs: int
    t_max: int
    seed: int

    def describe(self) -> dict[str, Any]:
        """The configuration stored with the cell (compared on reuse)."""
        described: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(self)))
        return described


def _compute_stopping_cell(spec: StoppingCell) -> dict[str, FloatArray]:
    columns = [
        stopping_times(
            spec.rule,
            spec.variant,
            R,
            spec.mu,
            a,
            spec.beta,
            e,
            stopping_seeds(spec.seed, R, spec.mu, a, e, spec.runs),
            spec.t_max,
        )
        for R, a, e in spec.points
    ]
    return {"halting_time": np.column_stack(columns)}
