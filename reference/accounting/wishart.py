"""A rigorous PLD accountant for the Wishart tree of Shariff & Sheffet (Sec. 4.1).

A node releases ``G + N``, ``N ~ W_p(L̃² I, k)``; a round's row enters ``nodes`` used nodes.
Add/remove is exactly a χ² location experiment with ``ν = k − p + 1`` per node; replace-one is
bounded above by ``[Add_{ν+1} ⊗ Remove_ν]^{⊗nodes}`` (Bartlett factors of a 2×2 Wishart) and
below by the other Bartlett ordering, so the accountant's slack is measured, not guessed.

Proof note: ``proofs_notes/shariff_sheffet/tight_wishart.md``.
"""

from __future__ import annotations

import functools
import math
from typing import Literal, TypeAlias

from dp_accounting.pld import privacy_loss_distribution as pld

from reference.accounting.chi2 import LocationDirection, _location_coefficient, chi2_location_pld
from reference.accounting.grid import DEFAULT_INTERVAL
from reference.validation import (
    check_choice,
    check_delta,
    check_in_range,
    check_positive,
    check_size,
)

__all__ = [
    "REPLACEMENT_CELLS",
    "WishartRelation",
    "wishart_tree_delta",
    "wishart_tree_delta_lower",
    "wishart_tree_epsilon",
    "wishart_tree_epsilon_lower",
    "wishart_tree_meets",
]

WishartRelation: TypeAlias = Literal["replace_one", "add_remove"]


def _check_wishart(k: int, p: int, nodes: int, interval: float) -> tuple[int, int, int]:
    p = check_size("p", p, 1)
    k = check_size("k", k, p + 2)
    nodes = check_size("nodes", nodes, 1)  # each node's χ² loss is composed in memory
    check_positive("interval", interval)
    return k, p, nodes


REPLACEMENT_CELLS: tuple[float, ...] = (0.0, 0.05, 0.15, 0.3, 0.5, 0.7, 0.85, 0.95, 0.99, 1.0)
"""Cells ``[λ_i, λ_{i+1}]`` of the added row's squared norm (in units of ``L̃²``) over which the
replace-one accountant takes its supremum (wide cells only cost tightness where δ is small)."""


@functools.lru_cache(maxsize=256)
def _wishart_composed(
    k: int, p: int, nodes: int, kind: str, interval: float
) -> pld.PrivacyLossDistribution:
    """Composed per-node PLDs, ``ν = k − p + 1``, ``a = ν/2 − 1``:

    * ``"add"`` / ``"remove"``: the genuine χ²_ν location experiment (add/remove relation);
    * ``"cell:i"``: replace-one upper bound on cell ``i`` of :data:`REPLACEMENT_CELLS`:
      ``max_{λ ∈ cell}(−a ln(1 + λ/u) + λ/2)`` (convex in ``λ``, so the max is at an end) with
      ``u ~ χ²_{ν+1}``, plus the genuine remove loss at ``μ = 1`` (``w ~ χ²_ν``), pessimistic;
    * ``"lower"``: replace-one lower bound for ``λ = μ = 1``: genuine add on ``χ²_ν`` plus the
      remove *form* with coefficient ``a`` on ``u' ~ χ²_{ν+1}``, optimistic.
    """
    nu = k - p + 1
    a = _location_coefficient(nu)
    if kind in ("add", "remove"):
        direction: LocationDirection = "add" if kind == "add" else "remove"
        node = chi2_location_pld(nu, direction, interval=interval)
    elif kind.startswith("cell:"):
        i = int(kind.split(":")[1])
        low, high = REPLACEMENT_CELLS[i], REPLACEMENT_CELLS[i + 1]
        node = chi2_location_pld(
            nu + 1, "add", shift=high, other_shift=low, coefficient=a, interval=interval
        ).compose(chi2_location_pld(nu, "remove", interval=interval))
    elif kind == "lower":
        node = chi2_location_pld(nu, "add", interval=interval, pessimistic=False).compose(
            chi2_location_pld(nu + 1, "remove", coefficient=a, interval=interval, pessimistic=False)
        )
    else:  # pragma: no cover - internal
        raise ValueError(kind)
    return node if nodes == 1 else node.self_compose(nodes)


def _replacement_kinds() -> list[str]:
    # top cell first: it is the binding one, so a failing check stops early
    return [f"cell:{i}" for i in reversed(range(len(REPLACEMENT_CELLS) - 1))]


def _relation_kinds(relation: str) -> list[str]:
    check_choice("relation", relation, ("replace_one", "add_remove"))
    if relation == "add_remove":
        return ["add", "remove"]
    if relation == "replace_one":
        return _replacement_kinds()
    raise ValueError(f"relation must be 'replace_one' or 'add_remove', got {relation!r}")


def wishart_tree_delta(
    epsilon: float,
    *,
    k: int,
    p: int,
    nodes: int,
    relation: WishartRelation = "replace_one",
    interval: float = DEFAULT_INTERVAL,
) -> float:
    """A rigorous upper bound on ``δ(ε)`` of the Wishart tree, over every neighbouring pair.

    ``nodes`` used nodes each add ``W_p(L̃² I, k)`` noise (``p = d + 1``); rows have norm ``≤ L̃``.
    ``relation="add_remove"``: exact χ² location experiments (worst of the two directions),
    discretised pessimistically.  ``"replace_one"``: the proof note's upper bound
    ``δ(ε) ≤ δ_G(ε − nodes·½ ln(1 + 1/u₀)) + nodes·F_{χ²_{ν+1}}(u₀)``, the maximum over the cells
    of :data:`REPLACEMENT_CELLS`.
    """
    k, p, nodes = _check_wishart(k, p, nodes, interval)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    kinds = _relation_kinds(relation)
    return max(
        float(_wishart_composed(k, p, nodes, kind, interval).get_delta_for_epsilon(eps))
        for kind in kinds
    )


def wishart_tree_epsilon(
    delta: float,
    *,
    k: int,
    p: int,
    nodes: int,
    relation: WishartRelation = "replace_one",
    interval: float = DEFAULT_INTERVAL,
) -> float:
    """An ``ε`` such that the Wishart tree is ``(ε, δ)``-DP: the largest per-cell (or
    per-direction) ``ε(δ)`` of the pessimistic PLDs of :func:`wishart_tree_delta`."""
    k, p, nodes = _check_wishart(k, p, nodes, interval)
    dlt = check_delta(delta)
    kinds = _relation_kinds(relation)
    return max(
        float(_wishart_composed(k, p, nodes, kind, interval).get_epsilon_for_delta(dlt))
        for kind in kinds
    )


def wishart_tree_meets(
    epsilon: float,
    delta: float,
    *,
    k: int,
    p: int,
    nodes: int,
    relation: WishartRelation = "replace_one",
    interval: float = DEFAULT_INTERVAL,
) -> bool:
    """Whether the accountant certifies ``(ε, δ)`` for the tree (stops at the first failing cell)."""
    k, p, nodes = _check_wishart(k, p, nodes, interval)
    eps = check_positive("epsilon", epsilon)
    dlt = check_delta(delta)
    kinds = _relation_kinds(relation)
    return all(
        float(_wishart_composed(k, p, nodes, kind, interval).get_delta_for_epsilon(eps)) <= dlt
        for kind in kinds
    )


def wishart_tree_delta_lower(
    epsilon: float, *, k: int, p: int, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """A rigorous *lower* bound on the exact ``δ(ε)`` of the worst replace-one pair (orthogonal
    rows of norm ``L̃``): the other Bartlett ordering, optimistic discretisation."""
    k, p, nodes = _check_wishart(k, p, nodes, interval)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    return float(_wishart_composed(k, p, nodes, "lower", interval).get_delta_for_epsilon(eps))


def wishart_tree_epsilon_lower(
    delta: float, *, k: int, p: int, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """A rigorous lower bound on the exact ``ε(δ)`` of the worst replace-one pair."""
    k, p, nodes = _check_wishart(k, p, nodes, interval)
    dlt = check_delta(delta)
    return float(_wishart_composed(k, p, nodes, "lower", interval).get_epsilon_for_delta(dlt))
