"""Agarwal & Singh (ICML 2017) accuracy audits: the maximal release error of the tree against the
high-probability bound of Lemma 3.3, as a binomial count of failing runs, and the number of noise
draws per release (Lemma 3.3, "Distribution").

Proof note: ``proofs_notes/audit/agarwal_singh.md``.
"""

from __future__ import annotations

import math
import time
from typing import Literal

import numpy as np

from audit.methods.binomial import RunAuditResult
from audit.papers.agarwal_singh.cases import AgarwalSinghAuditConfig, _config_or_default
from reference.agarwal_singh.aggregation import (
    TreeBasedAggregation,
    laplace_scale_tree_strict,
    lemma33_uniform_error_bound,
    noise_draws_per_release,
)
from reference.noise import LaplaceNoise
from reference.rng import as_generator
from reference.tree import TreeAggregator, dyadic_decomposition
from reference.validation import (
    check_choice,
    check_in_range,
    check_positive,
    check_size,
)

__all__ = [
    "accuracy_cases",
    "node_count_audit",
    "tree_error_audit",
]


# --------------------------------------------------------------------------------------------
# Accuracy: Lemma 3.3's error bound and the node counts
# --------------------------------------------------------------------------------------------


def tree_error_audit(
    *,
    T: int,
    N: int,
    scale: float,
    beta: float,
    runs: int,
    seed: int,
    claimed_scale: float | None = None,
    factory: Literal["reference", "shared_tree_fresh_padding"] = "reference",
    name: str = "tree_error_lemma33",
    confidence: float = 0.95,
) -> RunAuditResult:
    """``max_{0≤t≤T} ‖Z_t‖_∞`` of ``runs`` independent trees against the bound ``b`` of
    :func:`lemma33_uniform_error_bound` (exact quantile, union over ``N·(T+1)`` scalars) with
    ``P(max > b) ≤ β``.

    A run fails when its maximal error exceeds ``b``; under Lemma 3.3 failures are ``Bin(runs, q)``
    with ``q ≤ β``, so the one-sided Clopper–Pearson test of :class:`RunAuditResult` (an exact
    binomial test) rejects with probability ``≤ 1 − confidence``.  ``claimed_scale`` is the ``λ``
    the bound is computed for (default ``scale``): a larger actual ``scale`` is a "noise too large"
    bug.  ``factory="shared_tree_fresh_padding"`` releases the shared
    :class:`reference.tree.TreeAggregator` with ``pad="fresh"``, which pads to ``1 + ⌈log₂ T⌉``
    draws, one more than Lemma 3.3's ``K``."""
    t0 = time.perf_counter()
    T = check_size("T", T, 1, item_bytes=8, what="a round's value")
    N = check_size("N", N, 1, item_bytes=8, what="a coordinate")
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    beta = check_in_range("beta", beta, 0.0, 1.0)
    scale = check_positive("scale", scale)
    if claimed_scale is not None:
        check_positive("claimed_scale", claimed_scale)
    check_choice("factory", factory, ("reference", "shared_tree_fresh_padding"))
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    bound = lemma33_uniform_error_bound(
        node_law="laplace",
        scale=scale if claimed_scale is None else claimed_scale,
        T=T,
        N=N,
        releases=T + 1,
        beta=beta,
    )
    rng = as_generator(seed, "seed")
    noise = LaplaceNoise((runs, N), scale)
    worst = np.zeros(runs)
    if factory == "reference":
        tree = TreeBasedAggregation(T, noise, rng)
        worst = np.max(np.abs(tree.release().noise), axis=1)
        for _ in range(T):
            worst = np.maximum(worst, np.max(np.abs(tree.step(np.zeros(N)).noise), axis=1))
    elif factory == "shared_tree_fresh_padding":
        shared = TreeAggregator(T, noise, rng, pad="fresh")
        worst = np.max(np.abs(shared.release().noise), axis=1)
        for _ in range(T):
            shared.insert(np.zeros((runs, N)))
            worst = np.maximum(worst, np.max(np.abs(shared.release().noise), axis=1))
    else:
        raise ValueError(
            f"factory must be 'reference' or 'shared_tree_fresh_padding', got {factory!r}"
        )
    return RunAuditResult.from_ratios(
        name,
        {"max_t ||Z_t||_inf / b": worst / bound},
        beta,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def node_count_audit(
    T: int,
    *,
    factory: Literal["reference", "unpadded", "shared_tree_fresh_padding"] = "reference",
    name: str = "tree_node_counts",
) -> RunAuditResult:
    """Deterministic check of Lemma 3.3 "Distribution": every release ``L̃_0..L̃_T`` carries exactly
    ``K = ⌈log₂ T⌉`` noise draws (``PaddedRelease.noise_terms``), and the nodes it reuses are its
    dyadic decomposition.  Each release is a trial; it fails when ``noise_terms ≠ K`` or its node
    set is wrong (ratio ``max(n/K, K/n)``, ``∞`` for a wrong node set).  Nominal failure rate 0.
    ``"unpadded"``: ``pad=False``; ``"shared_tree_fresh_padding"``: the shared tree's
    ``pad="fresh"`` (``1 + ⌈log₂ T⌉`` draws)."""
    t0 = time.perf_counter()
    T = check_size("T", T, 1, item_bytes=8, what="a round's value")
    check_choice("factory", factory, ("reference", "unpadded", "shared_tree_fresh_padding"))
    K = noise_draws_per_release(T)
    noise = LaplaceNoise((1,), 1.0)
    rng = np.random.default_rng(0)
    counts: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
    if factory == "shared_tree_fresh_padding":
        shared = TreeAggregator(T, noise, rng, pad="fresh")
        for t in range(T + 1):
            if t:
                shared.insert(np.zeros(1))
            rel = shared.release()
            counts.append((rel.count, rel.nodes, rel.noise_terms))
    elif factory in ("reference", "unpadded"):
        tree = TreeBasedAggregation(T, noise, rng, pad=factory == "reference")
        releases = [tree.release()] + [tree.step(np.zeros(1)) for _ in range(T)]
        counts = [(rel.t, rel.nodes, rel.noise_terms) for rel in releases]
    else:
        raise ValueError(f"unknown factory {factory!r}")
    ratios = np.array(
        [
            max(n / K, K / n) if n > 0 and nodes == dyadic_decomposition(t) else math.inf
            for t, nodes, n in counts
        ]
    )
    return RunAuditResult.from_ratios(
        name, {"noise_terms vs K": ratios}, 0.0, confidence=0.95, seed=0, started=t0
    )


def accuracy_cases(config: AgarwalSinghAuditConfig | None = None) -> list[RunAuditResult]:
    """The accuracy battery on the correct tree: Lemma 3.3's error bound (``N = 2``, strict λ of
    the prefix-sum view) and the node counts."""
    c = _config_or_default(config)
    scale = laplace_scale_tree_strict(c.epsilon, c.T, 2.0, "prefix_sums")
    return [
        tree_error_audit(
            T=c.T,
            N=2,
            scale=scale,
            beta=c.accuracy_beta,
            runs=c.accuracy_runs,
            seed=c.seed,
            confidence=c.confidence,
        ),
        node_count_audit(c.T),
    ]
