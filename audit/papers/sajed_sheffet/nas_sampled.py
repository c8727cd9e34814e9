"""Sampled audits of the private stopping rules of Sajed & Sheffet, Sec. 3 (Algorithms 1 and 2):
the vectorised sampler of ``(τ, μ̂)``, black-box event audits of the halting time and of the
release noise, the accuracy event ``±α|μ|`` (Thm 3.1 / Cor. 3.2) and the calibration event
``Pr[|B| > σ₁ ln(4/β)] = β/4`` (proof of Thm 3.1).  Configurations, pairs and the exact laws:
:mod:`audit.papers.sajed_sheffet.nas`.

Proof note: ``proofs_notes/audit/sajed_sheffet.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Literal

import numpy as np
from scipy import stats

from audit.methods.binomial import RunAuditResult
from audit.methods.black_box import Features, event_audit_from_samples
from audit.papers.sajed_sheffet.nas import (
    NASConfig,
    NASVariant,
    _check_config,
    _check_pair,
    _check_variant,
    _rule_name,
    check_claims,
    nas_query_values,
)
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.rng import SeedLike, as_generator, child_seeds
from reference.sajed_sheffet.constants import dp_nas_noise_scales
from reference.sajed_sheffet.stopping import (
    SampleStream,
    TwoPointDistribution,
    dp_exp_nas,
    dp_nas,
)
from reference.validation import (
    check_choice,
    check_in_range,
    check_positive,
    check_size,
)

__all__ = [
    "nas_accuracy_audit",
    "nas_blackbox_audit",
    "nas_sample_outputs",
    "nas_threshold_noise_calibration",
]


# --------------------------------------------------------------------------------------------
# DP-NAS: vectorised sampler (black box) and audits
# --------------------------------------------------------------------------------------------


def nas_sample_outputs(
    stream: FloatArray,
    config: NASConfig,
    variant: NASVariant,
    rng: np.random.Generator | SeedLike,
    size: int,
) -> FloatArray:
    """``size`` independent outputs ``(τ, μ̂)`` of ``variant`` on a fixed stream (shape ``(size, 2)``;
    ``τ = 0`` and ``μ̂ = nan`` when not halted).

    Vectorised over runs; the same law as :func:`reference.sajed_sheffet.stopping.dp_nas` /
    :func:`~reference.sajed_sheffet.stopping.dp_exp_nas` for the correct variant (checked against the
    reference and the exact pmf in the tests), with the noise drawn in a different order.
    """
    rng = as_generator(rng)
    size = check_size("size", size, 1, item_bytes=8, what="an output")
    _check_config(config)
    s1, s2, s3 = _check_variant(variant).scales(config)
    sums, q = nas_query_values(stream, config, drop_c=variant.drop_c)
    B = rng.laplace(0.0, s1, size)
    A = rng.laplace(0.0, s2, (size, q.size if variant.fresh_A else 1))
    halt = q[None, :] >= A + B[:, None]
    halted = halt.any(axis=1)
    first = np.argmax(halt, axis=1)
    L = rng.laplace(0.0, s3, size) if s3 > 0.0 else np.zeros(size)
    times = np.asarray(config.check_times, dtype=np.float64)
    out = np.empty((size, 2))
    out[:, 0] = np.where(halted, times[first], 0.0)
    out[:, 1] = np.where(halted, (sums[first] + L) / times[first], np.nan)
    return out


def _halting_feature(config: NASConfig) -> Features:
    """One-hot of the outcome (check index, or "not halted"): a discrete feature, so the event
    audit scores it by the count log-likelihood ratio (any union of halting times)."""
    times = np.asarray(config.check_times, dtype=np.float64)

    def feature(outputs: FloatArray) -> FloatArray:
        tau = np.asarray(outputs, dtype=np.float64)[:, 0]
        cols = np.append(times, 0.0)
        onehot: FloatArray = (tau[:, None] == cols[None, :]).astype(np.float64)
        return onehot

    return feature


def _release_feature(x_prime: FloatArray, config: NASConfig) -> Features:
    """``τ μ̂ − X'_{1:τ}`` (``L`` under ``x'``, ``L + Δ_τ`` under ``x``; ``−∞`` if not halted), the
    Neyman-Pearson statistic of the release half (the event ``{μ̂ ≥ X̄'_τ}``)."""
    sums_p, _ = nas_query_values(x_prime, config)
    times = np.asarray(config.check_times, dtype=np.float64)

    def feature(outputs: FloatArray) -> FloatArray:
        o = np.asarray(outputs, dtype=np.float64)
        halted = o[:, 0] > 0
        j = np.searchsorted(times, np.where(halted, o[:, 0], times[0]))
        # not halted: a finite sentinel below every halted value (L is far smaller than 1e9)
        return np.where(halted, o[:, 0] * np.nan_to_num(o[:, 1]) - sums_p[j], -1e9)

    return feature


def nas_blackbox_audit(
    config: NASConfig,
    variant: NASVariant,
    claims: Sequence[PrivacyClaim],
    pair: NeighbouringPair[FloatArray],
    *,
    samples: int,
    seed: int,
    view: Literal["halting", "release"] = "halting",
    confidence: float = 0.95,
) -> list[PrivacyAuditResult]:
    """Event audits of ``variant`` on ``pair`` from ``samples`` runs per side.

    ``view="halting"``: the released halting time (one-hot feature); ``view="release"``: the
    release noise seen through ``τ μ̂ − X'_{1:τ}``.  The same samples are tested against each claim.
    """
    _check_config(config)
    _check_variant(variant)
    claims = check_claims(claims)
    pair = _check_pair(pair)
    samples = check_size("samples", samples, 1, item_bytes=8, what="an output")
    check_choice("view", view, ("halting", "release"))
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    # child_seeds = SeedSequence(seed).spawn(2), without advancing a SeedSequence argument
    rng_p, rng_q = (np.random.default_rng(s) for s in child_seeds(seed, 0, 2))
    out_p = nas_sample_outputs(pair.x, config, variant, rng_p, samples)
    out_q = nas_sample_outputs(pair.x_prime, config, variant, rng_q, samples)
    feature = (
        _halting_feature(config) if view == "halting" else _release_feature(pair.x_prime, config)
    )
    return [
        event_audit_from_samples(
            out_p,
            out_q,
            claim,
            name=f"{_rule_name(config)}/{variant.name}/{pair.description}/black_box_{view} "
            f"vs {claim.label}",
            mechanism=f"{_rule_name(config)} {variant.name}, {pair.description}",
            features=feature,
            confidence=confidence,
            thresholds=1000,
            seed=seed,
        )
        for claim in claims
    ]


# --------------------------------------------------------------------------------------------
# DP-NAS accuracy and calibration
# --------------------------------------------------------------------------------------------


def _reference_run(
    config: NASConfig, mu: float, rng: np.random.Generator, data_rng: np.random.Generator
) -> tuple[bool, float | None, float]:
    """One run of the reference rule on two-point data with mean ``μ``: ``(halted, μ̂, B)``."""
    stream = SampleStream.from_distribution(TwoPointDistribution(config.range_R, mu), data_rng)
    common = {
        "range_R": config.range_R,
        "alpha": config.alpha,
        "beta": config.beta,
        "epsilon": config.epsilon,
        "rng": rng,
        "record": True,
    }
    if config.rule == "every_step":
        res = dp_nas(stream, t_max=config.cap, **common)  # type: ignore[arg-type]
    else:
        res = dp_exp_nas(stream, k_max=config.cap, **common)  # type: ignore[arg-type]
    assert res.trace is not None
    return res.halted, res.estimate, res.trace.B


def nas_accuracy_audit(
    config: NASConfig,
    mu: float,
    *,
    runs: int,
    seed: int,
    variant: NASVariant | None = None,
    confidence: float = 0.95,
) -> RunAuditResult:
    """``Pr[halted ∧ |μ̂ − μ| > α|μ|] ≤ β`` (Thm 3.1 / Cor. 3.2, ACC-NAS-1) over ``runs`` runs on the
    two-point law on ``{−R, R}`` with mean ``μ ≠ 0`` (the largest variance, proof of Thm 3.4).

    ``variant=None`` runs the reference implementation; a :class:`NASVariant` runs
    :func:`nas_sample_outputs` on one data stream per run.  Violation iff the one-sided
    Clopper-Pearson lower bound on the failure rate exceeds ``β`` (false alarm ``≤ 1 − confidence``).
    The slack ratio is ``|μ̂ − μ|/(α|μ|)`` (0 when not halted).
    """
    t0 = time.perf_counter()
    _check_config(config)
    if variant is not None:
        _check_variant(variant)
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    mu = check_in_range("mu", mu, -config.range_R, config.range_R)
    if mu == 0.0:
        raise ValueError("mu must be non-zero for the accuracy event")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    children = child_seeds(seed, 0, runs)  # = SeedSequence(seed).spawn(runs), statelessly
    ratio = np.zeros(runs)
    law = TwoPointDistribution(config.range_R, mu)
    for i, child in enumerate(children):
        noise_rng, data_rng = (np.random.default_rng(s) for s in child.spawn(2))
        if variant is None:
            halted, est, _ = _reference_run(config, mu, noise_rng, data_rng)
        else:
            data = law.sample(data_rng, config.stream_length)
            out = nas_sample_outputs(data, config, variant, noise_rng, 1)[0]
            halted, est = bool(out[0] > 0), float(out[1])
        if halted and est is not None:
            ratio[i] = abs(est - mu) / (config.alpha * abs(mu))
    name = f"{_rule_name(config)}/{'reference' if variant is None else variant.name}/accuracy"
    return RunAuditResult.from_ratios(
        name,
        {"|mu_hat - mu| / (alpha |mu|)": ratio},
        config.beta,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def nas_threshold_noise_calibration(
    config: NASConfig, *, runs: int, seed: int, scale_factor: float = 1.0
) -> tuple[int, int, float, float]:
    """Calibration event with an exactly known probability (ACC-NAS-4, proof of Thm 3.1):
    ``Pr[|B| > σ₁ ln(4/β)] = e^{−ln(4/β)} = β/4`` for ``B ~ Lap(σ₁)`` (the paper's bound in the
    proof of Thm 3.1 is an equality).

    ``B`` is read from the reference's trace (``scale_factor = 1``); ``scale_factor ≠ 1`` multiplies
    the recorded ``B`` (a stand-in for an implementation drawing ``B`` at a wrong scale).  Returns
    ``(count, runs, β/4, two-sided exact binomial p-value)`` (:func:`scipy.stats.binomtest`).
    """
    _check_config(config)
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    scale_factor = check_positive("scale_factor", scale_factor)
    sigma1 = dp_nas_noise_scales(config.range_R, config.epsilon).sigma1
    bound = sigma1 * math.log(4.0 / config.beta)
    rng = as_generator(seed, "seed")
    count = 0
    for _ in range(runs):
        # a data-free check: the first check is drawn after B, so a one-check cap suffices
        res = dp_nas(
            SampleStream.from_values(np.zeros(1)),
            range_R=config.range_R,
            alpha=config.alpha,
            beta=config.beta,
            epsilon=config.epsilon,
            rng=rng,
            t_max=1,
            record=True,
        )
        assert res.trace is not None
        count += int(abs(res.trace.B * scale_factor) > bound)
    p = config.beta / 4.0
    return count, runs, p, float(stats.binomtest(count, runs, p).pvalue)
