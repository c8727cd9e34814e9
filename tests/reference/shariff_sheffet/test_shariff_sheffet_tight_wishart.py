"""The tight Wishart and Laplace-tree calibrations (the accountants themselves are tested in
``tests/reference/accounting/``).

Checks: independently computed Gaussian-approximation numbers inside the certified bracket; the calibrated ``k`` certified and ``k − 1`` not; the white-box audit
confirming the tight tree and catching it with four times fewer degrees of freedom.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from audit.papers.shariff_sheffet.cases import DELTA_STAR, TreeConfig, wishart_tree_case
from reference.accounting import (
    laplace_tree_epsilon,
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
# The paper's calibration
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# Tight calibration
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
