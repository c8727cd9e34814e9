"""Accuracy audits against the theorems of Shariff & Sheffet.

:func:`regularizer_run_audit` (Definition 3 over whole runs of the tree: Prop. 9 / Prop. 11 for
all ``t ≤ n``), :func:`confidence_ellipsoid_audit` (Definition 2 / Proposition 4:
``‖θ̃_t − θ*‖_{V_t} ≤ β_t`` for all ``t`` over runs of Algorithm 1), and
:func:`laurent_massart_tail`, :func:`claim18_coverage`, :func:`claim19_coverage` (Claims 17–19).
Every run-level test is a one-sided Clopper–Pearson test of the failing runs against the nominal
rate ``q``, which follows the proofs' union bounds (resolution R-ACCT): per run ``3α/4`` for the
Wishart bounds, ``α`` for the Gaussian ones, and ``α/2`` plus those for the ellipsoid.

Proof note: ``proofs_notes/audit/theorem_accuracy.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
from scipy import stats

from audit.methods.binomial import RunAuditResult
from audit.papers.shariff_sheffet.accuracy import (
    _definition3_result,
    regularizer_extremes,
    regularizer_extremes_batch,
)
from reference.engine.compiled.tree import tree_noise_compiled
from reference.engine.tree import BatchedTreeNoise
from reference.noise import NodeNoise, SymmetricGaussianNoise, WishartNoise
from reference.rng import as_generator, check_seed, child_seeds
from reference.shariff_sheffet.bounds import RegularizerBounds
from reference.shariff_sheffet.environments import LinearGapEnvironment
from reference.shariff_sheffet.regularizers import (
    SOURCES,
    Calibration,
    FactorizedStatistics,
    PrivacyParameters,
    ProblemConstants,
    TreeStatistics,
    Variant,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import make_policy
from reference.tree import PadMode, TreeAggregator
from reference.validation import (
    check_alpha,
    check_bool,
    check_callable,
    check_choice,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "TreeSourceSpec",
    "claim18_coverage",
    "claim19_coverage",
    "confidence_ellipsoid_audit",
    "laurent_massart_tail",
    "proof_failure_rate",
    "regularizer_run_audit",
]


def proof_failure_rate(variant: Variant, alpha: float, *, ellipsoid: bool = False) -> float:
    """The per-run failure probability the paper's proofs actually guarantee (R-ACCT).

    Regularizer event: Wishart variants ``3α/4`` (``n·(α/4n + α/2n)``), Gaussian ``α``
    (``n·(α/2n + α/2n)``), non-private 0.  The ellipsoid adds ``α/2`` (self-normalised bound).
    """
    check_choice("variant", variant, SOURCES)
    alpha = check_alpha(alpha)
    ellipsoid = check_bool("ellipsoid", ellipsoid)
    regularizer = {
        "nonprivate": 0.0,
        "gaussian": alpha,
        "wishart": 0.75 * alpha,
        "wishart_unshifted": 0.75 * alpha,
        "factorized": alpha,  # Prop. 11's two α/2n events per round, as the Gaussian tree
    }[variant]
    return min(1.0, regularizer + (alpha / 2.0 if ellipsoid else 0.0))


@dataclass(frozen=True)
class TreeSourceSpec:
    """A tree regularizer source given by its parts: what the engine can run for many replicates.

    Attributes:
        d: action dimension (the tree items are ``(d+1)×(d+1)``).
        noise: the node-noise law.
        shift: the multiple of the identity added to every released ``H_t``.
        pad: the tree's padding mode.
    """

    d: int
    noise: NodeNoise
    shift: float
    pad: PadMode = "fresh"

    def __post_init__(self) -> None:
        d = check_size("d", self.d, 1, item_bytes=8, power=2, what="a matrix entry")
        check_instance("noise", self.noise, NodeNoise)
        if tuple(self.noise.shape) != (d + 1, d + 1):
            raise ValueError(
                f"noise.shape must be (d + 1, d + 1) = {(d + 1, d + 1)}, got {self.noise.shape}"
            )
        check_finite("shift", self.shift)
        check_choice("pad", self.pad, ("fresh", "none"))

    @classmethod
    def of_variant(
        cls,
        variant: Variant,
        constants: ProblemConstants,
        n: int,
        alpha: float,
        privacy: PrivacyParameters,
    ) -> TreeSourceSpec:
        """The source :func:`~reference.shariff_sheffet.regularizers.make_regularizer` builds."""
        noise, bounds = regularizer_spec(variant, constants, n, alpha, privacy)
        if noise is None:
            raise ValueError(f"variant must be a private variant, got {variant!r}")
        return cls(d=constants.d, noise=noise, shift=bounds.shift)


PrivateSource: TypeAlias = TreeStatistics | FactorizedStatistics
"""A private regularizer source whose ``(H_t, h_t)`` an audit can read."""


def _run_extremes_reference(
    source_factory: Callable[[np.random.Generator], PrivateSource],
    n: int,
    seeds: list[np.random.SeedSequence],
) -> np.ndarray:
    extremes = np.empty((len(seeds), 3))  # min_t λ_min(H_t), max_t λ_max(H_t), max_t ‖h_t‖
    for r, child in enumerate(seeds):
        source = source_factory(np.random.default_rng(child))
        lo, hi, gam = math.inf, 0.0, 0.0
        for t in range(1, n + 1):
            lam_min, lam_max, h_norm = regularizer_extremes(*source.regularizer())
            lo, hi, gam = min(lo, lam_min), max(hi, lam_max), max(gam, h_norm)
            if t < n:  # a zero row: H_t, h_t depend on the noise only
                source.update(np.zeros(source.d), 0.0)
        extremes[r] = lo, hi, gam
    return extremes


def _run_extremes_batch(
    spec: TreeSourceSpec, n: int, seeds: list[np.random.SeedSequence]
) -> np.ndarray:
    """The extremes of every run from the compiled tree's release noise (Wishart and symmetric
    Gaussian laws; others on the numpy engine), replicates in blocks of ``≤ 2²²`` noise entries."""
    d, p = spec.d, spec.d + 1
    if not isinstance(spec.noise, WishartNoise | SymmetricGaussianNoise):
        return _run_extremes_numpy(spec, n, seeds)
    block = max(1, (1 << 22) // (n * p * p))
    parts = []
    for first in range(0, len(seeds), block):
        rngs = [np.random.default_rng(child) for child in seeds[first : first + block]]
        noise = tree_noise_compiled(n, spec.noise, rngs, pad=spec.pad).reshape(-1, p, p)
        lam_min, lam_max, h_norm = regularizer_extremes_batch(
            noise[:, :d, :d] + spec.shift * np.eye(d), noise[:, :d, d]
        )
        parts.append(
            np.column_stack(
                [
                    lam_min.reshape(len(rngs), n).min(axis=1),
                    lam_max.reshape(len(rngs), n).max(axis=1),
                    h_norm.reshape(len(rngs), n).max(axis=1),
                ]
            )
        )
    return np.concatenate(parts)


def _run_extremes_numpy(
    spec: TreeSourceSpec, n: int, seeds: list[np.random.SeedSequence]
) -> np.ndarray:
    d = spec.d
    tree = BatchedTreeNoise(
        n, spec.noise, [np.random.default_rng(child) for child in seeds], pad=spec.pad
    )
    lo, hi, gam = np.full(len(seeds), np.inf), np.zeros(len(seeds)), np.zeros(len(seeds))
    for t in range(1, n + 1):
        noise = tree.release_noise()
        lam_min, lam_max, h_norm = regularizer_extremes_batch(
            noise[:, :d, :d] + spec.shift * np.eye(d), noise[:, :d, d]
        )
        lo, hi, gam = np.minimum(lo, lam_min), np.maximum(hi, lam_max), np.maximum(gam, h_norm)
        if t < n:
            tree.insert()
    return np.column_stack([lo, hi, gam])


def regularizer_run_audit(
    source: Callable[[np.random.Generator], PrivateSource] | TreeSourceSpec,
    claimed: RegularizerBounds,
    n: int,
    nominal_failure_rate: float,
    *,
    runs: int,
    seed: int,
    name: str = "regularizer_run",
    confidence: float = 0.95,
    engine: Literal["batch", "reference"] = "batch",
) -> RunAuditResult:
    """Definition 3 over whole runs: ``runs`` independent sources (generators spawned from
    ``seed``), each released at every round ``t = 1..n`` (data-free: ``H_t, h_t`` depend only on
    the noise), checked against ``claimed``.

    ``source`` is either a :class:`TreeSourceSpec` -- run by the engine
    (the compiled tree :func:`~reference.engine.compiled.tree.tree_noise_compiled` for Wishart and
    symmetric Gaussian noise, else :class:`~reference.engine.tree.BatchedTreeNoise`; default) or, with ``engine="reference"``, by
    reference trees; both read the same streams -- or a factory ``source(rng)`` building any
    :class:`~reference.shariff_sheffet.regularizers.TreeStatistics` or
    :class:`~reference.shariff_sheffet.regularizers.FactorizedStatistics` (always run on the
    reference; each round adds a zero row).
    The source's own shift is what is applied, so a source whose shift differs from the claim's
    (e.g. applied per node) is audited as it is.
    """
    t0 = time.perf_counter()
    if not isinstance(source, TreeSourceSpec):
        check_callable("source", source)
    check_instance("claimed", claimed, RegularizerBounds)
    n = check_size("n", n, 1, item_bytes=8, what="a round's value")
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    q = check_in_range("nominal_failure_rate", nominal_failure_rate, 0.0, 1.0, low_open=False)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_choice("engine", engine, ("batch", "reference"))
    seeds = child_seeds(seed, 0, runs)
    if isinstance(source, TreeSourceSpec):
        if engine == "batch":
            extremes = _run_extremes_batch(source, n, seeds)
        else:
            spec = source

            def factory(rng: np.random.Generator) -> TreeStatistics:
                tree = TreeAggregator(n, spec.noise, rng, pad=spec.pad)
                applied = RegularizerBounds(
                    claimed.rho_min, claimed.rho_max, claimed.gamma, spec.shift
                )
                return TreeStatistics(ProblemConstants(d=spec.d), tree, applied)

            extremes = _run_extremes_reference(factory, n, seeds)
    else:
        extremes = _run_extremes_reference(source, n, seeds)
    labels = (
        "rho_min / min_t lambda_min(H_t)",
        "max_t lambda_max(H_t) / rho_max",
        "max_t ||h_t||_{H_t^-1} / gamma",
    )
    return _definition3_result(name, extremes, claimed, labels, q, confidence, seed, t0)


def confidence_ellipsoid_audit(
    variant: Variant,
    *,
    d: int,
    num_arms: int,
    gap: float,
    n: int,
    alpha: float,
    runs: int,
    seed: int,
    privacy: PrivacyParameters | None = None,
    constants: ProblemConstants | None = None,
    confidence: float = 0.95,
    calibration: Calibration = "paper",
) -> RunAuditResult:
    """Definition 2 / Proposition 4 over ``runs`` runs of Algorithm 1 on the App. D environment:
    a run fails when ``‖θ̃_t − θ*‖_{V_t} > β_t`` for some ``t ≤ n``; nominal rate
    :func:`proof_failure_rate` with ``ellipsoid=True``.  Slack: quantiles of
    ``max_t ‖θ̃_t − θ*‖_{V_t} / β_t``.  ``constants`` are what the algorithm is told (default
    ``L = S = B = σ = B̃ = 1``, true for the environment); passing wrong ones audits a
    misconfigured algorithm.  ``calibration`` as in
    :func:`~reference.shariff_sheffet.regularizers.make_regularizer` (``"tight"`` for the
    factorized source)."""
    t0 = time.perf_counter()
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    n = check_size("n", n, 1, item_bytes=8, what="a round's value")
    alpha = check_alpha(alpha)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    constants = (
        check_instance("constants", constants, ProblemConstants)
        if constants is not None
        else ProblemConstants(d=d)
    )
    nominal = proof_failure_rate(variant, alpha, ellipsoid=True)
    ratios = np.empty(runs)
    # child_seeds = SeedSequence(seed).spawn(runs), without advancing a SeedSequence argument
    for r, child in enumerate(child_seeds(seed, 0, runs)):
        env_seed, mech_seed = child.spawn(2)
        env = LinearGapEnvironment(d, num_arms, gap, np.random.default_rng(env_seed))
        policy = make_policy(
            variant,
            constants,
            n,
            alpha,
            np.random.default_rng(mech_seed),
            privacy,
            calibration=calibration,
        )
        worst = 0.0
        for _ in range(n):
            round_t = env.next_round()
            index = policy.select(round_t.arms)
            last = policy.last
            if last is None:  # pragma: no cover - select always sets it
                raise RuntimeError("policy.select did not record its diagnostics")
            V, _ = policy.regularizer.current()
            diff = last.theta_tilde - env.theta
            worst = max(worst, math.sqrt(max(float(diff @ V @ diff), 0.0)) / last.beta)
            policy.update(round_t.arms[index], float(round_t.rewards[index]))
        ratios[r] = worst
    return RunAuditResult.from_ratios(
        f"confidence_ellipsoid_{variant}",
        {"max_t ||theta_tilde_t - theta*||_{V_t} / beta_t": ratios},
        nominal,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def laurent_massart_tail(d: int, alpha: float) -> tuple[float, float, float]:
    """Claim 17 evaluated exactly with the χ² law: ``(P[U ≥ upper], P[U ≤ lower], P[U >
    (√d + √(2 ln(1/α)))²])`` for ``U ~ χ²_d``, with ``upper = d + 2√(d ln(1/α)) + 2 ln(1/α)`` and
    ``lower = d − 2√(d ln(1/α))``.  Claim 17 says each is at most ``α``."""
    d = check_size("d", d, 1, item_bytes=8, power=2, what="a matrix entry")
    alpha = check_alpha(alpha)
    ell = math.log(1.0 / alpha)
    law = stats.chi2(d)
    upper = d + 2.0 * math.sqrt(d * ell) + 2.0 * ell
    lower = d - 2.0 * math.sqrt(d * ell)
    weak = (math.sqrt(d) + math.sqrt(2.0 * ell)) ** 2
    return float(law.sf(upper)), float(law.cdf(lower)) if lower > 0 else 0.0, float(law.sf(weak))


def claim18_coverage(rows: int, d: int, alpha: float, *, reps: int, seed: int) -> tuple[int, int]:
    """Claim 18 by Monte Carlo: failures of ``σ_min, σ_max ∈ √rows ± (√d + √(2 ln(2/α)))`` for
    ``A ∈ R^{rows×d}`` with i.i.d. N(0, 1) entries; returns ``(failures, reps)``."""
    rng = as_generator(seed, "seed")
    rows = check_size("rows", rows, 1, item_bytes=8, what="a row")
    d = check_size("d", d, 1, item_bytes=8, power=2, what="a matrix entry")
    dev = math.sqrt(d) + math.sqrt(2.0 * math.log(2.0 / check_alpha(alpha)))
    failures = 0
    for _ in range(check_size("reps", reps, 1, item_bytes=8, what="a repetition's result")):
        s = np.linalg.svd(rng.standard_normal((rows, d)), compute_uv=False)
        failures += int(s[-1] < math.sqrt(rows) - dev or s[0] > math.sqrt(rows) + dev)
    return failures, reps


def claim19_coverage(
    d: int, k: int, alpha: float, *, reps: int, seed: int, deviation_scale: float = 1.0
) -> tuple[int, int]:
    """Claim 19 by Monte Carlo: failures of "every eigenvalue of ``W ~ W_d(I, k)`` lies in
    ``(√k ± s(√d + √(2 ln(2/α))))²``" with ``s = deviation_scale`` (1 for the claim; smaller
    values give a deliberately too-narrow interval); returns ``(failures, reps)``."""
    d = check_size("d", d, 1, item_bytes=8, power=2, what="a matrix entry")
    k = check_int_at_least("k", k, d)
    alpha = check_alpha(alpha)
    reps = check_size("reps", reps, 1, item_bytes=8, what="a repetition's result")
    seed = check_seed(seed, "seed")  # seeds scipy's wishart sampler as it always has
    deviation_scale = check_positive("deviation_scale", deviation_scale)
    dev = deviation_scale * (math.sqrt(d) + math.sqrt(2.0 * math.log(2.0 / alpha)))
    if math.sqrt(k) <= dev:
        raise ValueError(f"Claim 19 needs sqrt(k) > sqrt(d) + sqrt(2 ln(2/alpha)) = {dev}")
    draws = stats.wishart(df=k, scale=np.eye(d)).rvs(
        size=check_size("reps", reps, 1, item_bytes=8, what="a repetition's result"),
        random_state=seed,
    )
    lam = np.linalg.eigvalsh(np.asarray(draws).reshape(reps, d, d))
    bad = (lam[:, 0] < (math.sqrt(k) - dev) ** 2) | (lam[:, -1] > (math.sqrt(k) + dev) ** 2)
    return int(bad.sum()), reps
