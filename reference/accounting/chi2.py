"""χ² location experiments ``X + s`` against ``X``, ``X ~ χ²_ν``: exact privacy-loss CDFs and
their discretised privacy-loss distributions (PLDs), every bin's mass exact.

``ν ≥ 2`` makes the density log-concave, so the losses are monotone in ``X`` (their CDFs are χ²
CDFs at transformed points) and the experiment gets less private as ``s`` grows.  The Wishart
tree accountant (:mod:`reference.accounting.wishart`) composes these.

Proof note: ``proofs_notes/shariff_sheffet/tight_wishart.md``.
"""

from __future__ import annotations

import functools
import math
from typing import Literal, TypeAlias

import numpy as np
from dp_accounting.pld import privacy_loss_distribution as pld
from scipy import stats

from reference._typing import FloatArray
from reference.accounting.grid import DEFAULT_INTERVAL
from reference.validation import (
    check_array,
    check_bool,
    check_choice,
    check_in_range,
    check_int_at_least,
    check_positive,
)

__all__ = [
    "LocationDirection",
    "chi2_location_loss_cdf",
    "chi2_location_pld",
]

LocationDirection: TypeAlias = Literal["add", "remove"]

_TAIL = 1e-13  # loss-grid range: the χ² quantiles at this level (mass beyond goes to +∞)
_MAX_BINS = 300_000


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
