"""The Wishart and Laplace PLD accountants and the tight Wishart calibration.

Independent checks: the χ² location loss CDFs against a root-finding inversion of the loss; the
add/remove accountant against the exact ``δ(ε)`` by quadrature; the replace-one upper and lower
bounds around a Monte-Carlo estimate of the exact ``δ(ε)`` (the audit's closed-form loss sampler,
with a 1e-6-level empirical-Bernstein interval); the spec's Gaussian-approximation numbers inside
the certified bracket; the calibrated ``k`` certified and ``k − 1`` not; the white-box audit
confirming the tight tree and catching it with four times fewer degrees of freedom.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, optimize, stats

from audit.methods.white_box import wishart_add_remove_losses, wishart_replacement_losses
from audit.papers.agarwal_singh.cases import composed_laplace_epsilon
from audit.papers.shariff_sheffet.cases import DELTA_STAR, TreeConfig, wishart_tree_case
from audit.stats import empirical_bernstein_bounds, hockey_stick_summands
from reference.accounting import (
    chi2_location_loss_cdf,
    laplace_tree_delta,
    laplace_tree_epsilon,
    laplace_tree_node_epsilon,
    wishart_tree_delta,
    wishart_tree_delta_lower,
    wishart_tree_epsilon,
    wishart_tree_epsilon_lower,
    wishart_tree_meets,
)
from reference.agarwal_singh.aggregation import (
    laplace_scale_tree_strict,
    laplace_scale_tree_tight,
    nodes_per_leaf,
)
from reference.engine import run_gap_batch
from reference.shariff_sheffet.bounds import wishart_degrees_of_freedom, wishart_unshifted_bounds
from reference.shariff_sheffet.regularizers import (
    PrivacyParameters,
    ProblemConstants,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.shariff_sheffet.tight import (
    gaussian_tree_used_nodes,
    wishart_calibration_interval,
    wishart_tight_bounds,
    wishart_tight_degrees_of_freedom,
)
from reference.tree import tree_depth

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


@pytest.mark.parametrize(
    ("n", "d", "k"), [(1000, 2, 50049), (10**5, 5, 87848), (5 * 10**7, 5, 139115)]
)
def test_paper_calibration_slack_brackets_the_specs_gaussian_approximation(
    n: int, d: int, k: int
) -> None:
    # Exact accounting: the Wishart trees of the paper are about (0.039-0.040, 1e-5)-DP
    assert wishart_degrees_of_freedom(d, tree_depth(n), 1.0, 0.1) == k
    nodes = gaussian_tree_used_nodes(n)
    lower = wishart_tree_epsilon_lower(1e-5, k=k, p=d + 1, nodes=nodes)
    upper = wishart_tree_epsilon(1e-5, k=k, p=d + 1, nodes=nodes)
    assert lower <= 0.039 <= 0.040 <= upper
    assert upper - lower < 0.006


def test_accountant_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"^k must be"):
        wishart_tree_delta(1.0, k=4, p=3, nodes=2)
    with pytest.raises(ValueError, match=r"^relation must be"):
        wishart_tree_delta(1.0, k=40, p=3, nodes=2, relation="swap")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^delta must be"):
        wishart_tree_epsilon(0.0, k=40, p=3, nodes=2)
    with pytest.raises(ValueError, match=r"^epsilon must be"):
        wishart_tree_delta(-1.0, k=40, p=3, nodes=2)


# --------------------------------------------------------------------------------------------
# Calibration
# --------------------------------------------------------------------------------------------


def test_tight_k_is_the_smallest_certified_and_far_below_the_papers() -> None:
    config = TreeConfig()  # n = 1000, d = 2
    k = wishart_tight_degrees_of_freedom(config.d, config.n, 1.0, 0.1)
    p, nodes = config.p, config.used_nodes
    grid = wishart_calibration_interval(1.0, nodes)
    assert wishart_tree_meets(1.0, 0.1, k=k, p=p, nodes=nodes, interval=grid)
    assert not wishart_tree_meets(1.0, 0.1, k=k - 1, p=p, nodes=nodes, interval=grid)
    assert wishart_tree_delta(1.0, k=k, p=p, nodes=nodes) <= 0.1  # the finer default grid too
    assert config.k / k > 1000
    # the lower bound shows the true minimum is not far below (a factor < 3)
    assert wishart_tree_delta_lower(1.0, k=k // 3, p=p, nodes=nodes) > 0.1


def test_tight_bounds_fall_back_to_unshifted_when_eq4_shift_is_negative() -> None:
    d, n, alpha = 2, 1000, 1e-3
    k = wishart_tight_degrees_of_freedom(d, n, 1.0, 0.1)
    bounds = wishart_tight_bounds(d, n, math.sqrt(2), 1.0, 0.1, alpha, shifted=True)
    assert bounds == wishart_unshifted_bounds(d, tree_depth(n), k, math.sqrt(2), n, alpha)
    assert bounds.shift == 0.0


def test_tight_wishart_variant_runs_in_the_engine_like_the_reference() -> None:
    privacy = PrivacyParameters(1.0, 0.1)
    kw = {"d": 3, "num_arms": 9, "gap": 0.1, "n": 80, "privacy": privacy, "calibration": "tight"}
    for variant in ("wishart", "wishart_unshifted"):
        batch = run_gap_batch(variant, seeds=[1, 2], trace=True, **kw)  # type: ignore[arg-type]
        assert batch.actions is not None
        for r, seed in enumerate([1, 2]):
            ref = run_gap_experiment(variant, seed=seed, **kw)  # type: ignore[arg-type]
            np.testing.assert_array_equal(batch.actions[r], ref.actions)
    noise, _ = regularizer_spec(
        "wishart", ProblemConstants(d=3), 80, 0.1, privacy, calibration="tight"
    )
    assert noise is not None


@pytest.mark.parametrize(("divisor", "rejected"), [(1, False), (4, True)])
def test_white_box_audit_confirms_the_tight_wishart_tree(divisor: int, rejected: bool) -> None:
    # The correct tight tree against the accountant's certified ε at δ* and against the printed
    # (1, 0.1) (now nearly tight); with k/4 both are rejected.  200k losses per side; level 1e-3
    # (the false-positive rate of the pass case).
    config = TreeConfig()
    k = wishart_tight_degrees_of_freedom(config.d, config.n, 1.0, 0.1)
    certified = wishart_tree_epsilon(DELTA_STAR, k=k, p=config.p, nodes=config.used_nodes)
    case = wishart_tree_case(
        config,
        name="tight_wishart",
        description="tight Wishart tree",
        k=max(config.p + 2, k // divisor),
        exact_epsilon=certified,
    )
    results = case.audit_claims(
        [case.printed, case.exact], samples=200_000, seed=6, confidence=0.999
    )
    assert [r.violation for r in results] == [rejected, rejected]


# --------------------------------------------------------------------------------------------
# Laplace trees
# --------------------------------------------------------------------------------------------


def test_laplace_tree_accountant() -> None:
    assert laplace_tree_epsilon(0.0, epsilon_0=0.1, nodes=10) == pytest.approx(1.0)
    assert laplace_tree_delta(1.0, epsilon_0=0.1, nodes=10) == 0.0
    # the audit's accountant delegates to this one
    assert composed_laplace_epsilon(0.1, 10, 1e-3) == laplace_tree_epsilon(
        1e-3, epsilon_0=0.1, nodes=10
    )
    # composition at δ > 0 is far below the pure bound; the calibrated ε₀ meets the target
    eps0 = laplace_tree_node_epsilon(1.0, 1e-3, nodes=10)
    assert eps0 > 0.1 * 1.25
    assert laplace_tree_epsilon(1e-3, epsilon_0=eps0, nodes=10) <= 1.0
    assert laplace_tree_epsilon(1e-3, epsilon_0=eps0 * 1.01, nodes=10) > 1.0
    assert laplace_tree_node_epsilon(1.0, 0.0, nodes=10) == pytest.approx(0.1)


def test_laplace_tight_tree_scale_is_strict_at_pure_dp_and_smaller_with_delta() -> None:
    T, diameter = 1000, 4.0
    strict = laplace_scale_tree_strict(1.0, T, diameter)
    assert laplace_scale_tree_tight(1.0, 0.0, T, diameter) == pytest.approx(strict)
    tight = laplace_scale_tree_tight(1.0, 1e-3, T, diameter)
    h = nodes_per_leaf(T)
    assert tight < strict / 1.25
    assert laplace_tree_epsilon(1e-3, epsilon_0=diameter / tight, nodes=h) <= 1.0
    with pytest.raises(ValueError, match=r"^delta must be"):
        laplace_scale_tree_tight(1.0, 1.0, T, diameter)
