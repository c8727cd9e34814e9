"""Exact privacy curves of the Laplace mechanism, alone and composed over tree nodes.

One mechanism of privacy ``ε₀ = Δ/b`` (sensitivity ``Δ``, scale ``b``) has the closed form
``δ(ε) = max(0, 1 − e^{(ε − ε₀)/2})``; ``nodes`` of them (a datum in ``nodes`` tree nodes,
Agarwal & Singh Lemma 3.3) compose by ``dp_accounting``'s pessimistic PLD.

The Laplace-tree composition is argued in the tight Wishart note (Laplace trees).
Proof note: ``proofs_notes/audit/exact_privacy_curves.md``.
"""

from __future__ import annotations

import functools
import math

from dp_accounting.pld import privacy_loss_distribution as pld

from reference.accounting.grid import DEFAULT_INTERVAL
from reference.validation import (
    check_in_range,
    check_positive,
    check_size,
)

__all__ = [
    "laplace_composition_epsilon",
    "laplace_delta",
    "laplace_epsilon",
    "laplace_tree_delta",
    "laplace_tree_epsilon",
    "laplace_tree_epsilon_0_for",
]


def laplace_delta(epsilon: float, *, epsilon_0: float) -> float:
    """Exact ``δ(ε)`` of the Laplace mechanism with ``ε₀ = Δ/b``: ``max(0, 1 − e^{(ε − ε₀)/2})``."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    return max(0.0, -math.expm1((eps - eps0) / 2.0))


def laplace_epsilon(delta: float, *, epsilon_0: float) -> float:
    """The smallest ``ε ≥ 0`` with ``laplace_delta(ε, epsilon_0=ε₀) ≤ δ``:
    ``max(0, ε₀ + 2 ln(1 − δ))``."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    delta = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    return max(0.0, eps0 + 2.0 * math.log1p(-delta))


@functools.lru_cache(maxsize=256)
def _laplace_composed(epsilon_0: float, nodes: int, interval: float) -> pld.PrivacyLossDistribution:
    node = pld.from_laplace_mechanism(
        parameter=1.0 / epsilon_0, sensitivity=1.0, value_discretization_interval=interval
    )
    return node if nodes == 1 else node.self_compose(nodes)


def _check_nodes(nodes: int, epsilon_0: float, interval: float) -> int:
    """``nodes`` whose composed privacy-loss distribution fits in memory: one node's losses span
    ``[−ε₀, ε₀]``, ``2ε₀/interval + 1`` points, and composing adds the spans."""
    points = math.ceil(2.0 * epsilon_0 / interval) + 1 if math.isfinite(epsilon_0 / interval) else 0
    if points <= 0:
        return check_size("nodes", nodes, 1)
    return check_size(
        "nodes", nodes, 1, item_bytes=8 * points, what="a node's span of the privacy-loss grid"
    )


def laplace_tree_delta(
    epsilon: float, *, epsilon_0: float, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """Upper bound on ``δ(ε)`` of ``nodes`` Laplace mechanisms each ``ε₀ = Δ₁/b``-DP, with the
    change on one coordinate (``dp_accounting``'s pessimistic Laplace PLD, composed)."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    interval = check_positive("interval", interval)
    nodes = _check_nodes(nodes, eps0, interval)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    if eps >= nodes * eps0:
        return 0.0
    return float(_laplace_composed(eps0, nodes, interval).get_delta_for_epsilon(eps))


def laplace_tree_epsilon(
    delta: float, *, epsilon_0: float, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """``ε(δ)`` of ``nodes`` Laplace mechanisms each ``ε₀``-DP: ``nodes·ε₀`` at ``δ = 0`` (exact);
    otherwise the pessimistic PLD's ``ε``, an upper bound on the exact one, capped at ``nodes·ε₀``."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    interval = check_positive("interval", interval)
    nodes = _check_nodes(nodes, eps0, interval)
    dlt = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    if dlt == 0.0:
        return nodes * eps0
    eps = float(_laplace_composed(eps0, nodes, interval).get_epsilon_for_delta(dlt))
    return min(eps, nodes * eps0)


def laplace_composition_epsilon(delta: float, *, epsilon_0: float, nodes: int) -> float:
    """``ε(δ)`` of ``nodes`` independent Laplace mechanisms, each ``ε₀``-DP, as tight as known.

    ``nodes = 1`` and ``δ > 0``: the closed form :func:`laplace_epsilon` (exact).  Otherwise
    :func:`laplace_tree_epsilon` (pessimistic PLD, interval ``10⁻⁴``), which upper-bounds the
    exact ``ε(δ)``, so a claim built from it holds for the correct mechanism; ``δ = 0`` gives
    ``nodes·ε₀``.
    """
    eps0 = check_positive("epsilon_0", epsilon_0)
    nodes = _check_nodes(nodes, eps0, DEFAULT_INTERVAL)
    delta = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    if nodes == 1 and delta > 0.0:
        return laplace_epsilon(delta, epsilon_0=eps0)
    return laplace_tree_epsilon(delta, epsilon_0=eps0, nodes=nodes)


def laplace_tree_epsilon_0_for(
    epsilon: float, delta: float, *, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """The largest per-node ``ε₀`` whose ``nodes``-fold composition is ``(ε, δ)``-DP by
    :func:`laplace_tree_epsilon` (``ε/nodes`` at ``δ = 0``); bisection keeping a feasible end."""
    eps = check_positive("epsilon", epsilon)
    interval = check_positive("interval", interval)
    nodes = _check_nodes(nodes, eps, interval)  # every feasible ε₀ is at most ε
    dlt = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    low = eps / nodes  # feasible: pure composition
    if dlt == 0.0:
        return low
    high = 2.0 * low
    while laplace_tree_epsilon(dlt, epsilon_0=high, nodes=nodes, interval=interval) <= eps:
        low, high = high, 2.0 * high
    for _ in range(40):
        mid = 0.5 * (low + high)
        if laplace_tree_epsilon(dlt, epsilon_0=mid, nodes=nodes, interval=interval) <= eps:
            low = mid
        else:
            high = mid
        if high - low <= 1e-6 * low:
            break
    return low
