"""Golden vectors: the randomised parts, their samplers (one replicate each) and their summaries
(moments and quantiles with Monte-Carlo standard errors).

The check is described in the proof note (golden vectors, "randomised summaries").

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from audit.tools.golden.codec import JSON, Params
from audit.tools.golden.compare import DEFAULT_RTOL, SUMMARY_ATOL, SUMMARY_REASON
from reference import tree
from reference._typing import FloatArray
from reference.agarwal_singh import aggregation as as_agg
from reference.noise import LaplaceNoise, WishartNoise
from reference.rng import as_seed_sequence
from reference.sajed_sheffet.stopping import SampleStream, TwoPointDistribution, dp_nas
from reference.zhou_tan import mechanism as zt_mech

__all__ = [
    "QUANTILES",
    "GoldenSummary",
    "Sampler",
    "summaries",
    "summarize_samples",
]


QUANTILES = (0.1, 0.5, 0.9)


Sampler: TypeAlias = Callable[[Params, np.random.Generator], dict[str, float]]


@dataclass(frozen=True)
class GoldenSummary:
    """A randomised part summarised at fixed parameters.

    ``sampler(parameters, rng)`` draws one replicate and returns its scalar statistics by name;
    ``continuous`` names the statistics that also get quantiles (discrete ones get moments only,
    since their quantiles have no useful standard error).  ``rtol``, ``atol`` and ``reason`` are the
    tolerance of the same-seed check (module docstring, "randomised summaries").
    """

    paper: str
    name: str
    module: str
    sampler: Sampler
    parameters: Params
    samples: int
    seed: int
    check_seed: int
    continuous: tuple[str, ...] = ()
    rtol: float = DEFAULT_RTOL
    atol: float = SUMMARY_ATOL
    reason: str = SUMMARY_REASON

    @property
    def tolerance(self) -> dict[str, JSON]:
        """The tolerance of the same-seed check as written in the golden file."""
        return {"rtol": self.rtol, "atol": self.atol, "reason": self.reason}


# ------------------------------------------------------------------------------------------------
# Randomised parts: samplers (one replicate each) and their summaries
# ------------------------------------------------------------------------------------------------


def _sample_tree_release_noise(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Noise of the release after ``count`` zero leaves of a Laplace :class:`~reference.tree.TreeAggregator`,
    padded (``pad="fresh"``: ``m`` terms) and bare (``pad="none"``: ``popcount(count)`` terms)."""
    out: dict[str, float] = {}
    for pad, child in zip(("fresh", "none"), rng.spawn(2), strict=True):
        agg = tree.TreeAggregator(
            params["n"],
            LaplaceNoise((1,), params["scale"]),
            child,
            pad=pad,  # type: ignore[arg-type]
        )
        for _ in range(params["count"]):
            agg.insert(np.zeros(1))
        out[f"noise_{pad}"] = float(agg.release().noise[0])
    return out


def _sample_wishart_node_noise(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Extreme eigenvalues and trace of one Wishart node noise ``W_p(scale·I, k)`` (Sec. 4.1)."""
    noise = WishartNoise(params["dim"], params["degrees_of_freedom"], params["scale"])
    draw = noise.sample(rng)
    eigenvalues = np.linalg.eigvalsh(draw)
    return {
        "lambda_min": float(eigenvalues[0]),
        "lambda_max": float(eigenvalues[-1]),
        "trace": float(np.trace(draw)),
    }


def _sample_dp_nas(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Halting time and estimate of DP-NAS (Sajed & Sheffet Alg. 1) on the two-point law of mean ``μ``."""
    data_rng, noise_rng = rng.spawn(2)
    source = SampleStream.from_distribution(
        TwoPointDistribution(params["range_R"], params["mu"]), data_rng
    )
    result = dp_nas(
        source,
        range_R=params["range_R"],
        alpha=params["alpha"],
        beta=params["beta"],
        epsilon=params["epsilon"],
        rng=noise_rng,
        t_max=params["t_max"],
    )
    if result.halting_time is None or result.estimate is None:
        return {"halted": 0.0, "halting_time": float(params["t_max"]), "estimate": math.nan}
    return {"halted": 1.0, "halting_time": float(result.halting_time), "estimate": result.estimate}


def _sample_padded_aggregation(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """Noise of ``L̃_t`` after ``t`` zero losses of Agarwal & Singh's padded TreeBasedAgg (Alg. 2)."""
    agg = as_agg.TreeBasedAggregation(params["T"], LaplaceNoise((1,), params["scale"]), rng)
    release = agg.release()
    for _ in range(params["t"]):
        release = agg.step(np.zeros(1))
    return {"noise": float(release.noise[0])}


def _sample_ctl(params: Params, rng: np.random.Generator) -> dict[str, float]:
    """One CTL(ϵ) privatised reward (Zhou & Tan, Curator 1) of the fixed reward ``y``."""
    ldp = zt_mech.LDPParams(eps=params["eps"], B=params["B"], R=params["R"])
    return {"reward": float(zt_mech.ctl_privatize(np.array([params["y"]]), ldp, rng)[0])}


def summaries() -> tuple[GoldenSummary, ...]:
    """The randomised parts summarised in the golden files (small samples: < 5 s in total)."""
    return (
        GoldenSummary(
            "shariff_sheffet",
            "wishart_node_noise",
            "reference.noise",
            _sample_wishart_node_noise,
            {"dim": 3, "degrees_of_freedom": 10, "scale": 2.0},
            samples=2000,
            seed=20261,
            check_seed=120261,
            continuous=("lambda_min", "lambda_max", "trace"),
        ),
        GoldenSummary(
            "sajed_sheffet",
            "dp_nas_halting",
            "reference.sajed_sheffet.stopping",
            _sample_dp_nas,
            {
                "range_R": 1.0,
                "mu": 0.9,
                "alpha": 0.5,
                "beta": 0.05,
                "epsilon": 10.0,
                "t_max": 100_000,
            },
            samples=40,
            seed=20262,
            check_seed=120262,
            continuous=("estimate",),
        ),
        GoldenSummary(
            "zhou_tan",
            "ctl_privatized_reward",
            "reference.zhou_tan.mechanism",
            _sample_ctl,
            {"y": 0.3, "eps": 1.0, "B": 1.0, "R": 0.5},
            samples=2000,
            seed=20263,
            check_seed=120263,
            continuous=("reward",),
        ),
        GoldenSummary(
            "agarwal_singh",
            "padded_aggregation_noise",
            "reference.agarwal_singh.aggregation",
            _sample_padded_aggregation,
            {"T": 8, "t": 5, "scale": 1.0},
            samples=1000,
            seed=20264,
            check_seed=120264,
            continuous=("noise",),
        ),
        GoldenSummary(
            "tree",
            "tree_release_noise",
            "reference.tree",
            _sample_tree_release_noise,
            {"n": 8, "count": 5, "scale": 1.0},
            samples=1000,
            seed=20265,
            check_seed=120265,
            continuous=("noise_fresh", "noise_none"),
        ),
    )


def _quantile_with_se(sorted_x: FloatArray, q: float) -> tuple[float, float]:
    """``q``-quantile and its order-statistic standard error ``(x₍ₖ₊₎ − x₍ₖ₋₎)/4``, ``k± = nq ± 2√(nq(1−q))``.

    The binomial count of samples below the ``q``-quantile has standard deviation ``√(nq(1−q))``,
    so ``[x₍ₖ₋₎, x₍ₖ₊₎]`` is a ±2-standard-error band of the quantile (distribution-free).
    """
    n = sorted_x.size
    value = float(np.quantile(sorted_x, q))
    half = 2.0 * math.sqrt(n * q * (1.0 - q))
    lo = min(max(math.floor(n * q - half), 0), n - 1)
    hi = min(max(math.ceil(n * q + half), 0), n - 1)
    return value, float(sorted_x[hi] - sorted_x[lo]) / 4.0


def summarize_samples(x: FloatArray, *, quantiles: bool) -> dict[str, dict[str, float]]:
    """Mean, variance (and quantiles :data:`QUANTILES`) of ``x`` with Monte-Carlo standard errors."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n < 2:
        raise ValueError(f"need at least 2 samples, got {n}")
    mean = float(np.mean(x))
    var = float(np.var(x, ddof=1))
    m4 = float(np.mean((x - mean) ** 4))
    out = {
        "mean": {"value": mean, "se": math.sqrt(var / n)},
        "variance": {"value": var, "se": math.sqrt(max(m4 - var**2, 0.0) / n)},
    }
    if quantiles:
        sorted_x = np.sort(x)
        for q in QUANTILES:
            value, se = _quantile_with_se(sorted_x, q)
            out[f"q{q}"] = {"value": value, "se": se}
    return out


def _run_summary(entry: GoldenSummary, seed: int) -> dict[str, dict[str, dict[str, float]]]:
    children = as_seed_sequence(seed).spawn(entry.samples)
    draws = [entry.sampler(entry.parameters, np.random.default_rng(c)) for c in children]
    names = list(draws[0])
    return {
        name: summarize_samples(
            np.array([d[name] for d in draws]), quantiles=name in entry.continuous
        )
        for name in names
    }
