"""Billboard view of the tree mechanism: every released prefix, audited as a whole.

An implementation that redraws a node's noise each time a release uses it is invisible to the
node-level view and visible only in the sequence of releases ``P(0), …, P(n−1)``, the "billboard"
Algorithm 1 reads (Shariff & Sheffet Claim 7).  For the *correct* tree on a stream that is zero but
at leaf ``t`` the releases are linear-Gaussian, so the billboard is ``μ``-GDP with
``μ² = Δᵀ Σ⁻¹ Δ`` (:func:`correct_billboard_mu`): the exact guarantee the black-box audit of an
implementation's releases is run against.  Replicates are one tree over items of shape ``(R,)``.

Proof note: ``proofs_notes/audit/billboard.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from audit.methods.black_box import event_audit_from_samples
from audit.methods.stream import _check_horizon
from audit.protocols import PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.accounting import gaussian_epsilon
from reference.noise import GaussianVectorNoise
from reference.rng import check_seed
from reference.tree import Release, TreeAggregator, dyadic_decomposition, tree_depth
from reference.validation import (
    check_finite,
    check_in_range,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "RedrawingTree",
    "TreeFactory",
    "billboard_audit",
    "billboard_releases",
    "correct_billboard_mu",
]

DELTA_STAR = 1e-3

TreeFactory = Callable[[int, GaussianVectorNoise, np.random.Generator], TreeAggregator]


def correct_billboard_mu(n: int, t: int, difference: float, sigma: float) -> float:
    """``μ`` of the billboard ``(P(0), …, P(n−1))`` of a correct padded tree with scalar items.

    ``Σ[s, s'] = σ² · |𝒮(s) ∩ 𝒮(s')| + σ² (m − popcount(s)) 1[s = s']`` with ``𝒮(s)`` the dyadic
    decomposition; ``Δ_s = difference · 1[s ≥ t]``; ``μ² = Δᵀ Σ⁻¹ Δ``.
    """
    n = check_size("n", n, 1, item_bytes=8, power=2, what="the releases' covariance")
    t = check_int_at_least("t", t, 1)
    difference = check_finite("difference", difference)
    sigma = check_positive("sigma", sigma)
    m = tree_depth(n)
    sets = [set(dyadic_decomposition(s)) for s in range(n)]
    cov = np.array([[len(a & b) for b in sets] for a in sets], dtype=np.float64)
    cov += np.diag([m - len(a) for a in sets])
    delta = difference * (np.arange(n) >= t).astype(np.float64)
    return math.sqrt(float(delta @ np.linalg.solve(sigma**2 * cov, delta)))


def billboard_releases(
    factory: TreeFactory,
    n: int,
    t: int,
    value: float,
    *,
    replicates: int,
    sigma: float,
    rng: np.random.Generator,
) -> FloatArray:
    """Releases ``P(0..n−1)`` of ``replicates`` independent scalar trees built by ``factory``, on
    the stream that is zero except ``value`` at leaf ``t``; shape ``(replicates, n)``."""
    n = check_int_at_least("n", n, 1)
    replicates = check_int_at_least("replicates", replicates, 1)
    tree = factory(n, GaussianVectorNoise((replicates,), sigma), rng)
    out = np.empty((replicates, n))
    for s in range(n):
        out[:, s] = tree.release().value
        if s + 1 < n:
            tree.insert(np.full(replicates, value if s + 1 == t else 0.0))
    return out


class RedrawingTree(TreeAggregator):
    """A deliberately broken tree: every release redraws the noise of the nodes it uses, so repeated
    releases give fresh, independent looks at the same node sums (the bug "node noise redrawn each
    time a node is used")."""

    def release(self) -> Release:
        for level in range(self.m):
            if self._node_noise[level] is not None:
                self._node_noise[level] = self.noise.sample(self._streams)
        self._release = None
        return super().release()


def billboard_audit(
    factory: TreeFactory,
    *,
    n: int = 256,
    t: int = 1,
    mu: float = 0.5,
    replicates: int = 10_000,
    seed: int,
    name: str = "billboard",
    confidence: float = 0.95,
) -> PrivacyAuditResult:
    """Black-box audit of the releases of the trees built by ``factory`` against the exact
    billboard guarantee of a *correct* tree, scaled so that it is ``μ``-GDP; claim at δ* = 1e-3.

    The pair is ``x = +Δ/2`` versus ``x' = −Δ/2`` at leaf ``t`` with ``Δ`` chosen so that the correct
    billboard has the given ``μ`` (σ = 1).  ``t`` must be in ``[1, n − 1]`` (a later release
    must contain leaf ``t``), ``seed`` follows the one seed rule (:func:`reference.rng.check_seed`);
    both are checked before anything is simulated.
    """
    n, t = _check_horizon(n, t, "a release contains leaf t")
    replicates = check_int_at_least("replicates", replicates, 2)
    check_in_range("confidence", confidence, 0.0, 1.0)
    seed = check_seed(seed)
    difference = mu / correct_billboard_mu(n, t, 1.0, 1.0)
    claim = PrivacyClaim(
        gaussian_epsilon(DELTA_STAR, mu=mu),
        DELTA_STAR,
        "t_neighbouring",
        "exact billboard at δ=0.001",
    )
    rng_p, rng_q = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    out_p = billboard_releases(
        factory, n, t, difference / 2, replicates=replicates, sigma=1.0, rng=rng_p
    )
    out_q = billboard_releases(
        factory, n, t, -difference / 2, replicates=replicates, sigma=1.0, rng=rng_q
    )
    # Two features: the average of the releases that contain leaf t (the sufficient statistic when
    # releases are independent) and the GLS statistic Δᵀ Σ⁻¹ P of the correct model (sufficient for
    # a correct tree); the event is learned on the selection split from these.
    weights = _gls_weights(n, t)
    later = np.arange(n) >= t

    def features(releases: FloatArray) -> FloatArray:
        return np.column_stack([releases[:, later].mean(axis=1), releases @ weights])

    return event_audit_from_samples(
        out_p,
        out_q,
        claim,
        name=f"{name} vs {claim.label}",
        mechanism=name,
        features=features,
        confidence=confidence,
        seed=seed,
    )


def _gls_weights(n: int, t: int) -> FloatArray:
    m = tree_depth(n)
    sets = [set(dyadic_decomposition(s)) for s in range(n)]
    cov = np.array([[len(a & b) for b in sets] for a in sets], dtype=np.float64)
    cov += np.diag([m - len(a) for a in sets])
    delta = (np.arange(n) >= t).astype(np.float64)
    return np.asarray(np.linalg.solve(cov, delta), dtype=np.float64)
