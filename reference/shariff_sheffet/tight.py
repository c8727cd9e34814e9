"""Tight calibration of the Gaussian and Wishart trees: the paper's ``(ε, δ)`` with the least noise.

* Gaussian tree (Sec. 4.2, App. A.1-A.2): the transcript is exactly ``√(m − 1)·L̃²/σ``-GDP, so the
  least ``σ`` is ``√(m − 1)·L̃²/μ*``; the bounds are Prop. 11 at that ``σ``
  (:func:`~reference.shariff_sheffet.bounds.gaussian_bounds_for_sigma`).
* Wishart tree (Sec. 4.1, Thm 8): :func:`wishart_tight_degrees_of_freedom` is the least ``k``
  certified by :func:`reference.accounting.wishart_tree_delta`; Prop. 9's bounds hold at it under
  Claim 19, with shift 0 when the Eq. (4) shift would be negative (:func:`wishart_tight_bounds`;
  the Wishart note ``tight_wishart.md`` beside the one below has the details).

Proof note: ``proofs_notes/shariff_sheffet/tight_gaussian.md``.
"""

from __future__ import annotations

import functools
import math
from typing import Literal

from reference.accounting import (
    DEFAULT_INTERVAL,
    WishartRelation,
    gaussian_mu_for,
    wishart_tree_meets,
)
from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    gaussian_bounds_for_sigma,
    wishart_degrees_of_freedom,
    wishart_shift,
    wishart_shifted_bounds,
    wishart_unshifted_bounds,
)
from reference.tree import nodes_used_by_leaf, tree_depth
from reference.validation import (
    check_alpha,
    check_bool,
    check_choice,
    check_delta,
    check_epsilon,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "gaussian_tight_bounds",
    "gaussian_tight_noise_std",
    "gaussian_tree_mu",
    "gaussian_tree_used_nodes",
    "wishart_calibration_interval",
    "wishart_tight_bounds",
    "wishart_tight_degrees_of_freedom",
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
    mu = gaussian_mu_for(epsilon, delta)
    return math.sqrt(gaussian_tree_used_nodes(n)) * L_tilde**2 / mu


def gaussian_tight_bounds(
    d: int, n: int, L_tilde: float, epsilon: float, delta: float, alpha: float
) -> RegularizerBounds:
    """Proposition 11 at :func:`gaussian_tight_noise_std` (shift ``+2Υ``, ``m = 1 + ⌈log₂ n⌉``)."""
    alpha = check_alpha(alpha)
    sigma = gaussian_tight_noise_std(n, L_tilde, epsilon, delta)
    return gaussian_bounds_for_sigma(d, tree_depth(n), sigma, n, alpha)


def wishart_calibration_interval(epsilon: float, nodes: int) -> float:
    """Loss-grid width of the calibrator: ``ε/(100·nodes)`` clipped to ``[10⁻⁴, 10⁻³]``, so the
    grid's pessimism (at most ``nodes·interval`` in ε) costs at most 1% of the target ε."""
    epsilon = check_epsilon(epsilon)
    nodes = check_int_at_least("nodes", nodes, 1)
    return min(1e-3, max(DEFAULT_INTERVAL, epsilon / (100.0 * nodes)))


@functools.lru_cache(maxsize=128)
def _wishart_tight_k(d: int, n: int, epsilon: float, delta: float, relation: str) -> int:
    p, nodes = d + 1, gaussian_tree_used_nodes(n)
    high = wishart_degrees_of_freedom(d, tree_depth(n), epsilon, delta)
    interval = wishart_calibration_interval(epsilon, nodes)

    def meets(k: int) -> bool:
        return wishart_tree_meets(
            epsilon,
            delta,
            k=k,
            p=p,
            nodes=nodes,
            relation=relation,  # type: ignore[arg-type]
            interval=interval,
        )

    while not meets(high):  # pragma: no cover - the paper's k is certified in every tested setting
        high *= 2
    low = p + 1  # infeasible by convention (the accountant needs k ≥ p + 2)
    while high - low > 1:
        mid = (low + high) // 2
        if meets(mid):
            high = mid
        else:
            low = mid
    return high


def wishart_tight_degrees_of_freedom(
    d: int, n: int, epsilon: float, delta: float, relation: WishartRelation = "replace_one"
) -> int:
    """The smallest ``k`` whose Wishart tree the accountant certifies ``(ε, δ)``-DP.

    Bisection between ``p + 2`` and the paper's ``k`` (``p = d + 1``), keeping a certified upper
    end, so the returned ``k`` is certified even if the certified set were not an interval (it
    is, up to discretisation: ``W(k + 1) = W(k) + ggᵀ`` is a post-processing).  The loss grid is
    :func:`wishart_calibration_interval`.  Takes seconds; cached per process.
    """
    d = check_size("d", d, 1)
    n = check_int_at_least("n", n, 1)
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    check_choice("relation", relation, ("replace_one", "add_remove"))
    return _wishart_tight_k(d, n, eps, dlt, relation)


def wishart_tight_bounds(
    d: int,
    n: int,
    L_tilde: float,
    epsilon: float,
    delta: float,
    alpha: float,
    *,
    shifted: bool,
    gamma_mode: Literal["paper", "tight"] = "paper",
) -> RegularizerBounds:
    """Proposition 9 at :func:`wishart_tight_degrees_of_freedom` (``m = 1 + ⌈log₂ n⌉``).

    ``shifted=True`` uses the Eq. (4) shift when it is positive and the unshifted bounds (shift 0)
    otherwise (module docstring); raises if Claim 19's ``√(mk) > √d + √(2 ln(8n/α))`` fails.
    """
    check_size("d", d, 1)
    alpha = check_alpha(alpha)
    L_tilde = check_positive("L_tilde", L_tilde)
    shifted = check_bool("shifted", shifted)
    check_choice("gamma_mode", gamma_mode, ("paper", "tight"))
    k = wishart_tight_degrees_of_freedom(d, n, epsilon, delta)
    m = tree_depth(n)
    if shifted and wishart_shift(d, m, k, L_tilde, n, alpha) > 0.0:
        return wishart_shifted_bounds(d, m, k, L_tilde, n, alpha, gamma_mode=gamma_mode)
    return wishart_unshifted_bounds(d, m, k, L_tilde, n, alpha)
