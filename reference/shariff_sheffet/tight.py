"""Tight calibration of the Gaussian tree: the paper's ``(ε, δ)`` with the least noise (issue 7).

The paper calibrates each node of the Gaussian tree separately (Sec. 4.2, l. 203:
``σ_noise = 4√m L̃² ln(4/δ)/ε``) and composes the nodes with a loose bound.  The exact guarantee is
much stronger (the D.2 tree is about ``(0.22, 10⁻⁵)``-DP at the paper's ``σ_noise``; spec §3.6).
Exact accounting:

1. **Node.** Replacing one round's row ``v`` by ``v'`` (t-neighbours, ``‖v‖, ‖v'‖ ≤ L̃``) changes a
   node's sum by ``D = vvᵀ − v'v'ᵀ``.  The symmetrised Gaussian node noise ``(Z' + Z'ᵀ)/√2`` has
   independent upper-triangle entries (variance ``σ²`` off the diagonal, ``2σ²`` on it), so the node
   is ``μ_node``-GDP with ``μ_node² = ‖D‖_F² / (2σ²)`` (:func:`audit.mechanisms.gaussian_mu`), and
   ``‖D‖_F² = ‖v‖⁴ + ‖v'‖⁴ − 2(vᵀv')² ≤ 2L̃⁴``, so ``μ_node ≤ L̃²/σ`` (equality for orthogonal
   rows of norm ``L̃``).
2. **Tree.** A round's row enters the nodes on its leaf's path; only those summed by some release
   matter (the rest are never output), at most ``m − 1`` of them
   (:func:`reference.tree.nodes_used_by_leaf`, leaf 1 is the worst case).  Every release is a
   post-processing of the noisy node sums plus independent padding, and GDP composes exactly:
   the whole transcript of releases is ``√(m − 1)·L̃²/σ``-GDP.
3. **Calibration.** The smallest ``σ`` meeting ``(ε, δ)`` is ``√(m − 1)·L̃²/μ*`` with ``μ*`` the largest
   ``μ`` such that the ``μ``-GDP profile has ``δ(ε) ≤ δ`` (:func:`reference.accounting.gaussian_dp_mu`).

The accuracy bounds follow from Proposition 11 at the new ``σ`` (its proof uses only the noise
law: :func:`~reference.shariff_sheffet.bounds.gaussian_bounds_for_sigma`), and Algorithm 1 runs
unchanged (joint DP by Claim 7).  proofs_notes: ``shariff_sheffet/tight_gaussian.md``.
"""

from __future__ import annotations

import math

from reference.accounting import gaussian_dp_mu
from reference.shariff_sheffet.bounds import RegularizerBounds, gaussian_bounds_for_sigma
from reference.tree import nodes_used_by_leaf, tree_depth
from reference.validation import check_alpha, check_int_at_least, check_positive

__all__ = [
    "gaussian_tight_bounds",
    "gaussian_tight_noise_std",
    "gaussian_tree_mu",
    "gaussian_tree_used_nodes",
]


def gaussian_tree_used_nodes(n: int) -> int:
    """Most nodes any one round's row enters among those some release sums: ``m − 1`` (leaf 1) for
    ``n ≥ 2``, and 1 for ``n = 1`` (the single leaf is released by nobody but we count it)."""
    n = check_int_at_least("n", n, 1)
    return max(1, len(nodes_used_by_leaf(1, n)))


def gaussian_tree_mu(sigma_noise: float, n: int, L_tilde: float) -> float:
    """Exact GDP parameter ``μ = √(used nodes) · L̃² / σ_noise`` of the Gaussian tree's releases."""
    sigma_noise = check_positive("sigma_noise", sigma_noise)
    L_tilde = check_positive("L_tilde", L_tilde)
    return math.sqrt(gaussian_tree_used_nodes(n)) * L_tilde**2 / sigma_noise


def gaussian_tight_noise_std(n: int, L_tilde: float, epsilon: float, delta: float) -> float:
    """The smallest ``σ_noise`` whose tree is ``(ε, δ)``-DP under t-neighbours (module docstring)."""
    L_tilde = check_positive("L_tilde", L_tilde)
    mu = gaussian_dp_mu(epsilon, delta)
    return math.sqrt(gaussian_tree_used_nodes(n)) * L_tilde**2 / mu


def gaussian_tight_bounds(
    d: int, n: int, L_tilde: float, epsilon: float, delta: float, alpha: float
) -> RegularizerBounds:
    """Proposition 11 at :func:`gaussian_tight_noise_std` (shift ``+2Υ``, ``m = 1 + ⌈log₂ n⌉``)."""
    alpha = check_alpha(alpha)
    sigma = gaussian_tight_noise_std(n, L_tilde, epsilon, delta)
    return gaussian_bounds_for_sigma(d, tree_depth(n), sigma, n, alpha)
