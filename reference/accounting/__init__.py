"""Exact privacy accounting: Gaussian-DP profiles, and rigorous privacy-loss-distribution (PLD)
accountants for the Wishart and Laplace tree mechanisms.

**Gaussian.**  A Gaussian mechanism whose two neighbouring output laws are ``N(0, 1)`` and
``N(μ, 1)`` after whitening is ``μ``-GDP, and its exact privacy profile is (Dong, Roth & Su 2019,
Cor. 2.13; Balle & Wang 2018, Thm 8)::

    δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).

Composing mechanisms that are ``μ_i``-GDP gives ``√(Σ μ_i²)``-GDP exactly (Dong, Roth & Su,
Cor. 3.3).

**χ² location experiments.**  Testing ``P: X + s`` against ``Q: X`` with ``X ~ χ²_ν`` (``ν ≥ 2``,
so the density is log-concave) has privacy losses that are monotone functions of ``X``:
``L_{P‖Q} = (ν/2 − 1) ln(X/(X + s)) + s/2`` ("add") and
``L_{Q‖P} = (ν/2 − 1) ln(X/(X − s)) − s/2`` for ``X > s``, ``+∞`` otherwise ("remove").  Their
exact CDFs are χ² CDFs at transformed points, so a PLD can be discretised with every bin's mass
exact (:func:`chi2_location_pld`).  Log-concavity gives a monotone likelihood ratio, so the
Neyman–Pearson tests are thresholds and the experiment gets *less* private as ``s`` grows.

**Wishart tree** (Shariff & Sheffet Sec. 4.1; proofs_notes
``shariff_sheffet/tight_wishart.md``).  A node releases ``G + N``, ``N ~ W_p(L̃² I, k)``; a
round's row ``v`` (``‖v‖ ≤ L̃``) enters ``nodes`` used nodes with independent noise.

* *add/remove*: the loss depends on ``N`` only through ``L̃² vᵀ(G + N)⁻¹v``, which is ``1/(X + r)``
  under ``P`` and ``1/X`` under ``Q`` with ``X ~ χ²_{k−p+1}``, ``r = ‖v‖²/L̃²``: exactly the χ²
  location experiment with ``ν = k − p + 1``, ``s = r ≤ 1``; worst case ``r = 1``.
* *replace-one* (t-neighbours): the loss law depends on ``D = vvᵀ − v'v'ᵀ`` only, whose
  eigenvalues are ``L̃²λ ≥ 0 ≥ −L̃²μ`` with ``λ, μ ≤ 1`` (Weyl).  Reducing to the 2×2 Wishart
  ``W ~ W₂(I, k − p + 2)`` (Muirhead Thm 3.2.11) and its Bartlett factors
  ``u ~ χ²_{ν+1}, w ~ χ²_ν, z ~ N(0, 1)``:
  ``L = −a ln[(1 + λ/u)(1 − μ/w) + λz²/(uw)] + (λ − μ)/2`` with ``a = (k − p − 1)/2``.  Dropping
  ``λz²/(uw) ≥ 0`` and using ``−a ln(1 + λ/u) ≤ −(a + ½) ln(1 + λ/u) + ½ ln(1 + 1/u₀)`` for
  ``u ≥ u₀``, the composed loss is at most the loss of the *genuine* product experiment
  ``[Add_{ν+1}(λ) ⊗ Remove_ν(μ)]^{⊗nodes}`` plus ``nodes·½ ln(1 + 1/u₀)``, except on an event of
  probability ``≤ nodes·F_{χ²_{ν+1}}(u₀)``.  The product experiment is least private at
  ``λ = μ = 1`` (monotone likelihood ratio, and composition preserves the Blackwell order), so

      δ(ε) ≤ δ_G(ε − nodes·½ ln(1 + 1/u₀)) + nodes·F_{χ²_{ν+1}}(u₀)     for every pair,

  with ``G = [Add_{ν+1} ⊗ Remove_ν]^{⊗nodes}`` computed by ``dp_accounting`` with pessimistic
  discretisation (:func:`wishart_tree_delta`).  The symmetric argument with the other Bartlett
  ordering gives a *lower* bound on the exact ``δ(ε)`` of the worst pair (orthogonal rows of norm
  ``L̃``; :func:`wishart_tree_delta_lower`), so the accountant's slack is measured, not guessed.

**Laplace trees** (Agarwal & Singh Lemma 3.3): a datum enters ``nodes`` nodes, each a Laplace
mechanism of privacy ``ε₀ = Δ₁/b``; :func:`laplace_tree_epsilon` composes their exact PLDs
(``dp_accounting``, pessimistic).

These functions are shared by the tight calibrations of the reference
(:mod:`reference.shariff_sheffet.tight`) and by the audits' exact claims (:mod:`audit.methods.white_box`).
"""

from __future__ import annotations

import functools
import math
from typing import Literal, TypeAlias

import numpy as np
from dp_accounting.pld import privacy_loss_distribution as pld
from scipy import optimize, special, stats

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_bool,
    check_choice,
    check_delta,
    check_in_range,
    check_int_at_least,
    check_positive,
)

__all__ = [
    "DEFAULT_INTERVAL",
    "REPLACEMENT_CELLS",
    "LocationDirection",
    "WishartRelation",
    "chi2_location_loss_cdf",
    "chi2_location_pld",
    "gaussian_dp_delta",
    "gaussian_dp_epsilon",
    "gaussian_dp_mu",
    "laplace_tree_delta",
    "laplace_tree_epsilon",
    "laplace_tree_node_epsilon",
    "wishart_tree_delta",
    "wishart_tree_delta_lower",
    "wishart_tree_epsilon",
    "wishart_tree_epsilon_lower",
    "wishart_tree_meets",
]

LocationDirection: TypeAlias = Literal["add", "remove"]
WishartRelation: TypeAlias = Literal["replace_one", "add_remove"]

DEFAULT_INTERVAL = 1e-4
"""Default width of the privacy-loss grid of the PLD accountants (each node's loss is rounded
*up* to it, so a composition of ``h`` nodes is pessimistic by at most ``h·10⁻⁴`` in ε)."""

_TAIL = 1e-13  # loss-grid range: the χ² quantiles at this level (mass beyond goes to +∞)
_MAX_BINS = 300_000


def gaussian_dp_delta(mu: float, epsilon: float) -> float:
    """Exact ``δ(ε)`` of a ``μ``-GDP mechanism, computed in log space for stability."""
    mu = check_positive("mu", mu)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    first = special.ndtr(-eps / mu + mu / 2.0)
    second = math.exp(eps + float(special.log_ndtr(-eps / mu - mu / 2.0)))
    return max(0.0, float(first) - second)


def gaussian_dp_epsilon(mu: float, delta: float) -> float:
    """The smallest ``ε ≥ 0`` with ``gaussian_dp_delta(μ, ε) ≤ δ`` (0 if ``δ(0) ≤ δ``)."""
    mu = check_positive("mu", mu)
    delta = check_in_range("delta", delta, 0.0, 1.0)
    if gaussian_dp_delta(mu, 0.0) <= delta:
        return 0.0
    upper = 1.0
    while gaussian_dp_delta(mu, upper) > delta:
        upper *= 2.0
    return float(
        optimize.brentq(lambda e: gaussian_dp_delta(mu, e) - delta, 0.0, upper, xtol=1e-12)
    )


def gaussian_dp_mu(epsilon: float, delta: float) -> float:
    """The largest ``μ`` whose mechanism is ``(ε, δ)``-DP: ``δ(ε; μ) ≤ δ`` (``δ`` increases in ``μ``).

    Returned rounded *down* (the bisection keeps a feasible lower end), so a mechanism calibrated to
    it meets ``(ε, δ)``.
    """
    eps = check_positive("epsilon", epsilon)
    dlt = check_delta(delta)
    low, high = 1e-6, 1.0
    while gaussian_dp_delta(high, eps) <= dlt:
        low, high = high, 2.0 * high
    if gaussian_dp_delta(low, eps) > dlt:  # pragma: no cover - δ(ε; 1e-6) is ~0
        raise ValueError(f"no mu >= 1e-6 meets (epsilon, delta) = ({eps}, {dlt})")
    for _ in range(200):
        mid = 0.5 * (low + high)
        if gaussian_dp_delta(mid, eps) <= dlt:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * high:
            break
    return low


# --------------------------------------------------------------------------------------------
# χ² location experiments: exact loss CDFs and their discretised PLDs
# --------------------------------------------------------------------------------------------


def _location_coefficient(df: int) -> float:
    return df / 2.0 - 1.0


def _add_threshold(ell: FloatArray, s: float, c: float) -> FloatArray:
    """``x`` with ``−c ln(1 + s/x) + s/2 = ℓ`` (``+∞`` for ``ℓ ≥ s/2``; for ``s = 0`` the loss is 0)."""
    if s == 0.0:
        return np.where(ell >= 0.0, np.inf, 0.0)
    out = np.full(ell.shape, np.inf)
    inside = ell < s / 2.0
    out[inside] = s / np.expm1((s / 2.0 - ell[inside]) / c)
    return out


def chi2_location_loss_cdf(
    losses: FloatArray,
    df: int,
    direction: LocationDirection,
    shift: float = 1.0,
    *,
    coefficient: float | None = None,
    other_shift: float | None = None,
) -> tuple[FloatArray, FloatArray]:
    """``(P(L ≤ ℓ), P(L > ℓ))`` at each ``ℓ`` for the χ² location experiment ``X + s`` vs ``X``.

    ``X ~ χ²_df`` (``df ≥ 3``), ``c = df/2 − 1`` unless ``coefficient`` is given:

    * ``"add"``: ``L = −c ln(1 + s/X) + s/2`` (increasing in ``X``, ``< s/2``), so
      ``P(L ≤ ℓ) = F(s / expm1((s/2 − ℓ)/c))`` for ``ℓ < s/2``; with ``other_shift = s'`` the loss
      is ``max(L_s, L_{s'})`` (still increasing in ``X``: the smaller threshold wins);
    * ``"remove"``: ``L = −c ln(1 − s/X) − s/2`` for ``X > s`` (decreasing, ``> −s/2``) and ``+∞``
      for ``X ≤ s``, so ``P(L ≤ ℓ) = S(s / (−expm1(−(ℓ + s/2)/c)))`` for ``ℓ > −s/2``.

    A ``coefficient`` other than ``df/2 − 1`` gives the loss *form* on another χ² law (the Bartlett
    factors of the Wishart replace-one bounds).  Both probabilities are returned, each from the
    χ² CDF or survival function that is accurate in its own tail.
    """
    df, s, c, s2 = _check_location(df, direction, shift, coefficient, other_shift)
    ell = check_array("losses", losses)
    if direction == "add":
        x = _add_threshold(ell, s, c)
        if s2 is not None:
            x = np.minimum(x, _add_threshold(ell, s2, c))
        return stats.chi2.cdf(x, df), stats.chi2.sf(x, df)
    if direction == "remove":
        below = np.zeros_like(ell)
        above = np.ones_like(ell)
        inside = ell > -s / 2.0
        y = s / -np.expm1(-(ell[inside] + s / 2.0) / c)
        below[inside] = stats.chi2.sf(y, df)
        above[inside] = stats.chi2.cdf(y, df)
        return below, above
    raise ValueError(f"direction must be 'add' or 'remove', got {direction!r}")


def _check_location(
    df: int,
    direction: LocationDirection,
    shift: float,
    coefficient: float | None,
    other_shift: float | None,
) -> tuple[int, float, float, float | None]:
    """``(df, s, c, s')`` of a χ² location experiment, checked (``s > 0`` for ``"remove"``,
    ``s ≥ 0`` for ``"add"``; ``other_shift`` only with ``"add"``)."""
    df = check_int_at_least("df", df, 3)
    check_choice("direction", direction, ("add", "remove"))
    s = check_in_range("shift", shift, 0.0, math.inf, low_open=direction == "remove")
    c = (
        _location_coefficient(df)
        if coefficient is None
        else check_positive("coefficient", coefficient)
    )
    s2 = None
    if other_shift is not None:
        if direction != "add":
            raise ValueError("other_shift applies to direction 'add' only")
        s2 = check_in_range("other_shift", other_shift, 0.0, math.inf, low_open=False)
    return df, s, c, s2


def _loss_at(x: float, direction: LocationDirection, s: float, c: float) -> float:
    if direction == "add":
        return -c * math.log1p(s / x) + s / 2.0
    return math.inf if x <= s else -c * math.log1p(-s / x) - s / 2.0


def chi2_location_pld(
    df: int,
    direction: LocationDirection,
    *,
    shift: float = 1.0,
    interval: float = DEFAULT_INTERVAL,
    pessimistic: bool = True,
    coefficient: float | None = None,
    other_shift: float | None = None,
) -> pld.PrivacyLossDistribution:
    """The privacy-loss distribution of one χ² location experiment (or loss form, see
    :func:`chi2_location_loss_cdf`), discretised with exact bin masses on the grid
    ``interval·ℤ``.

    ``pessimistic=True`` rounds every loss *up* to the grid and sends the mass above the grid's
    top (the ``1 − 10⁻¹³`` quantile of ``X``, or ``3·10⁵`` bins) to ``+∞``: every ``δ(ε)`` computed
    from it, alone or composed, is an upper bound on the exact one.  ``pessimistic=False`` rounds
    *down* and drops the mass below the grid: a lower bound (used only to measure the slack).
    The result is a symmetric ``dp_accounting`` PLD for the single direction ``direction``.
    Arguments are checked before the (cached) computation.
    """
    _check_location(df, direction, shift, coefficient, other_shift)
    check_positive("interval", interval)
    check_bool("pessimistic", pessimistic)
    return _chi2_location_pld(
        df,
        direction,
        shift=shift,
        interval=interval,
        pessimistic=pessimistic,
        coefficient=coefficient,
        other_shift=other_shift,
    )


@functools.lru_cache(maxsize=512)
def _chi2_location_pld(
    df: int,
    direction: LocationDirection,
    *,
    shift: float,
    interval: float,
    pessimistic: bool,
    coefficient: float | None,
    other_shift: float | None,
) -> pld.PrivacyLossDistribution:
    c = _location_coefficient(df) if coefficient is None else coefficient
    x_low = float(stats.chi2.ppf(_TAIL, df))
    x_high = float(stats.chi2.isf(_TAIL, df))
    shifts = [shift] if other_shift is None else [shift, other_shift]
    ends = [_loss_at(x, direction, s, c) for x in (x_low, x_high) for s in shifts]
    lo_loss = min(min(ends), 0.0) if other_shift is not None else min(ends)
    hi_loss = max(ends)
    if not math.isfinite(hi_loss) or hi_loss - lo_loss > _MAX_BINS * interval:
        hi_loss = lo_loss + _MAX_BINS * interval
    if pessimistic:
        first, last = math.ceil(lo_loss / interval), math.ceil(hi_loss / interval)
    else:
        first, last = math.floor(lo_loss / interval), math.floor(hi_loss / interval)
    last = max(last, first + 1)
    edges = np.arange(first, last + 1, dtype=float) * interval
    below, above = chi2_location_loss_cdf(
        edges, df, direction, shift, coefficient=c, other_shift=other_shift
    )
    # mass of each cell (e_{j-1}, e_j], from whichever tail is accurate
    use_below = below[1:] <= 0.5
    cells = np.maximum(np.where(use_below, below[1:] - below[:-1], above[:-1] - above[1:]), 0.0)
    masses: dict[int, float] = {}
    if pessimistic:
        # the cell (e_{j-1}, e_j] is rounded up to index first + j; all mass ≤ e_0 to index first
        masses[first] = float(below[0])
        for j in np.flatnonzero(cells):
            masses[first + int(j) + 1] = float(cells[j])
        infinity = float(above[-1])
    else:
        # the cell (e_{j-1}, e_j] is rounded down to index first + j − 1; mass ≤ e_0 is dropped;
        # finite mass above the top goes to the top index; only the true +∞ atom stays infinite
        for j in np.flatnonzero(cells):
            masses[first + int(j)] = float(cells[j])
        atom = float(stats.chi2.cdf(shift, df)) if direction == "remove" else 0.0
        masses[last] = masses.get(last, 0.0) + max(0.0, float(above[-1]) - atom)
        infinity = atom
    masses = {i: m for i, m in masses.items() if m > 0.0}
    return pld.PrivacyLossDistribution.create_from_rounded_probability(
        masses, infinity, interval, pessimistic_estimate=pessimistic
    )


# --------------------------------------------------------------------------------------------
# The Wishart tree (Shariff & Sheffet Sec. 4.1)
# --------------------------------------------------------------------------------------------


def _check_wishart(k: int, p: int, nodes: int, interval: float) -> tuple[int, int, int]:
    p = check_int_at_least("p", p, 1)
    k = check_int_at_least("k", k, p + 2)
    nodes = check_int_at_least("nodes", nodes, 1)
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
    discretised pessimistically.  ``"replace_one"``: the bound of the module docstring, the
    maximum over the cells of :data:`REPLACEMENT_CELLS`.
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


# --------------------------------------------------------------------------------------------
# Laplace trees (Agarwal & Singh Lemma 3.3)
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _laplace_composed(epsilon_0: float, nodes: int, interval: float) -> pld.PrivacyLossDistribution:
    node = pld.from_laplace_mechanism(
        parameter=1.0 / epsilon_0, sensitivity=1.0, value_discretization_interval=interval
    )
    return node if nodes == 1 else node.self_compose(nodes)


def laplace_tree_delta(
    epsilon: float, *, epsilon_0: float, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """Upper bound on ``δ(ε)`` of ``nodes`` Laplace mechanisms each ``ε₀ = Δ₁/b``-DP, with the
    change on one coordinate (``dp_accounting``'s pessimistic Laplace PLD, composed)."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    nodes = check_int_at_least("nodes", nodes, 1)
    eps = check_in_range("epsilon", epsilon, 0.0, math.inf, low_open=False)
    check_positive("interval", interval)
    if eps >= nodes * eps0:
        return 0.0
    return float(_laplace_composed(eps0, nodes, interval).get_delta_for_epsilon(eps))


def laplace_tree_epsilon(
    delta: float, *, epsilon_0: float, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """``ε(δ)`` of ``nodes`` Laplace mechanisms each ``ε₀``-DP: ``nodes·ε₀`` at ``δ = 0`` (exact);
    otherwise the pessimistic PLD's ``ε``, an upper bound on the exact one, capped at ``nodes·ε₀``."""
    eps0 = check_positive("epsilon_0", epsilon_0)
    nodes = check_int_at_least("nodes", nodes, 1)
    dlt = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    check_positive("interval", interval)
    if dlt == 0.0:
        return nodes * eps0
    eps = float(_laplace_composed(eps0, nodes, interval).get_epsilon_for_delta(dlt))
    return min(eps, nodes * eps0)


def laplace_tree_node_epsilon(
    epsilon: float, delta: float, *, nodes: int, interval: float = DEFAULT_INTERVAL
) -> float:
    """The largest per-node ``ε₀`` whose ``nodes``-fold composition is ``(ε, δ)``-DP by
    :func:`laplace_tree_epsilon` (``ε/nodes`` at ``δ = 0``); bisection keeping a feasible end."""
    eps = check_positive("epsilon", epsilon)
    nodes = check_int_at_least("nodes", nodes, 1)
    dlt = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    check_positive("interval", interval)
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
