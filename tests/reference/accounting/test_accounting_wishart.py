"""The Wishart-tree accountant of ``reference.accounting.wishart`` and the χ² location experiments
of ``reference.accounting.chi2`` it composes.

Independent checks: the χ² location loss CDFs against a root-finding inversion of the loss; the
add/remove accountant against the exact ``δ(ε)`` by quadrature; the replace-one upper and lower
bounds around a Monte-Carlo estimate of the exact ``δ(ε)`` (the audit's closed-form loss sampler,
with a 1e-6-level empirical-Bernstein interval).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from audit.methods.white_box import wishart_add_remove_losses, wishart_replacement_losses
from audit.stats import empirical_bernstein_bounds, hockey_stick_summands
from reference.accounting import (
    chi2_location_loss_cdf,
    wishart_tree_delta,
    wishart_tree_delta_lower,
    wishart_tree_epsilon,
)

# --------------------------------------------------------------------------------------------
# χ² location experiments
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("direction", ["add", "remove"])
@pytest.mark.parametrize("df", [5, 40, 3000])
def test_location_cdf_matches_root_finding_inversion(direction: str, df: int) -> None:
    c = df / 2 - 1
    sign = 1.0 if direction == "add" else -1.0

    def loss(x: float) -> float:
        return -c * math.log1p(sign / x) + sign / 2

    quantiles = np.asarray(stats.chi2.ppf([0.01, 0.2, 0.5, 0.8, 0.99], df), dtype=float)
    xs = [float(x) for x in quantiles if x > 1.01]
    ells = np.array([loss(x) for x in xs])
    below, above = chi2_location_loss_cdf(ells, df, direction)  # type: ignore[arg-type]
    low_end = 1e-12 if direction == "add" else 1.0 + 1e-12
    for ell, b, a in zip(ells.tolist(), below.tolist(), above.tolist(), strict=True):
        root = optimize.brentq(lambda x, e=ell: loss(x) - e, low_end, 1e7, xtol=1e-13)
        expected = stats.chi2.cdf(root, df) if direction == "add" else stats.chi2.sf(root, df)
        assert b == pytest.approx(expected, rel=1e-7)
        assert a + b == pytest.approx(1.0, abs=1e-12)


def test_location_cdf_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"^df must be"):
        chi2_location_loss_cdf(np.zeros(1), 2, "add")
    with pytest.raises(ValueError, match=r"^direction must be"):
        chi2_location_loss_cdf(np.zeros(1), 5, "sideways")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# The Wishart tree
# --------------------------------------------------------------------------------------------


def _exact_add_remove_delta(eps: float, k: int, p: int) -> float:
    """δ(ε) of one Wishart node under add/remove by quadrature over X ~ χ²_{k−p+1}."""
    nu, a = k - p + 1, (k - p - 1) / 2

    def hockey(loss: float) -> float:
        return max(0.0, 1.0 - math.exp(eps - loss))

    add = integrate.quad(
        lambda x: hockey(-a * math.log1p(1 / x) + 0.5) * stats.chi2.pdf(x, nu), 0, np.inf
    )[0]
    remove = (
        stats.chi2.cdf(1.0, nu)
        + integrate.quad(
            lambda x: hockey(-a * math.log1p(-1 / x) - 0.5) * stats.chi2.pdf(x, nu), 1.0, np.inf
        )[0]
    )
    return max(add, remove)


@pytest.mark.parametrize(("k", "eps"), [(12, 0.1), (12, 0.5), (60, 0.05)])
def test_add_remove_accountant_is_an_upper_bound_within_discretisation(k: int, eps: float) -> None:
    exact = _exact_add_remove_delta(eps, k, 3)
    upper = wishart_tree_delta(eps, k=k, p=3, nodes=1, relation="add_remove")
    assert exact <= upper <= exact + 1e-3


def _mc_delta_interval(losses: np.ndarray, eps: float) -> tuple[float, float]:
    bounds = empirical_bernstein_bounds(hockey_stick_summands(losses, eps), 1e-6)
    return bounds.lower, bounds.upper


def test_replace_one_bounds_bracket_the_exact_delta() -> None:
    # k = 37, d = 5, 17 nodes: the D.2 tight setting at n = 1e5.  200k composed losses; each
    # inequality fails with probability <= 1e-6.
    k, p, nodes = 37, 6, 17
    rng = np.random.default_rng(11)
    losses = sum(wishart_replacement_losses(rng, 200_000, k=k, p=p) for _ in range(nodes))
    for eps in (0.0, 0.5, 1.0):
        low, high = _mc_delta_interval(np.asarray(losses), eps)
        assert wishart_tree_delta_lower(eps, k=k, p=p, nodes=nodes) <= high
        assert wishart_tree_delta(eps, k=k, p=p, nodes=nodes) >= low


def test_add_remove_accountant_matches_monte_carlo_of_both_directions() -> None:
    k, p, nodes = 37, 6, 17
    rng = np.random.default_rng(12)
    for eps in (0.0, 0.5):
        upper = wishart_tree_delta(eps, k=k, p=p, nodes=nodes, relation="add_remove")
        worst = 0.0
        for direction in ("add", "remove"):
            losses = sum(
                wishart_add_remove_losses(rng, 200_000, k=k, p=p, direction=direction)
                for _ in range(nodes)
            )
            low, high = _mc_delta_interval(np.asarray(losses), eps)
            assert low <= upper
            worst = max(worst, high)
        assert upper <= worst + 2e-3  # exact up to the 17e-4 pessimism of the grid


def test_accountant_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"^k must be"):
        wishart_tree_delta(1.0, k=4, p=3, nodes=2)
    with pytest.raises(ValueError, match=r"^relation must be"):
        wishart_tree_delta(1.0, k=40, p=3, nodes=2, relation="swap")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^delta must be"):
        wishart_tree_epsilon(0.0, k=40, p=3, nodes=2)
    with pytest.raises(ValueError, match=r"^epsilon must be"):
        wishart_tree_delta(-1.0, k=40, p=3, nodes=2)
