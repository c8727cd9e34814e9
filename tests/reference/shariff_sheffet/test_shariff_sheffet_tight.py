"""Tight calibration of the Gaussian tree (Gaussian part).

The paper's slack measured by the exact curve (``reference.accounting``, tested in
``tests/reference/accounting/``) must match the audit's node-level case, the calibrated noise
must meet the target exactly, the white-box audit must confirm the tight tree at its target and
reject it with less noise, and the engine must run the tight variant like the reference.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from audit.papers.shariff_sheffet.cases import TreeConfig, gaussian_tree_case
from reference.accounting import gaussian_delta, gaussian_epsilon
from reference.engine import run_gap_batch
from reference.shariff_sheffet.bounds import gaussian_bounds, gaussian_noise_std
from reference.shariff_sheffet.regularizers import (
    PrivacyParameters,
    ProblemConstants,
    regularizer_spec,
)
from reference.shariff_sheffet.simulation import run_gap_experiment
from reference.shariff_sheffet.tight import (
    gaussian_tight_bounds,
    gaussian_tight_noise_std,
    gaussian_tree_mu,
    gaussian_tree_used_nodes,
)
from reference.tree import tree_depth

D2_N, SQRT2 = 5 * 10**7, math.sqrt(2.0)


def test_used_nodes_are_m_minus_one() -> None:
    assert gaussian_tree_used_nodes(D2_N) == tree_depth(D2_N) - 1 == 26
    assert gaussian_tree_used_nodes(1) == 1 and gaussian_tree_used_nodes(2) == 1


def test_paper_calibration_slack_matches_the_audits_exact_curve() -> None:
    # At the paper's σ_noise the D.2 Gaussian tree is about (0.22, 1e-5)-DP; the
    # audit's zoo computes the same μ from the node-level view, independently.
    sigma = gaussian_noise_std(tree_depth(D2_N), SQRT2, 1.0, 0.1)
    mu = gaussian_tree_mu(sigma, D2_N, SQRT2)
    assert gaussian_epsilon(1e-5, mu=mu) == pytest.approx(0.218, abs=0.002)
    case = gaussian_tree_case(TreeConfig(n=D2_N, d=5), name="d2", description="D.2 tree")
    assert case.exact.epsilon == pytest.approx(gaussian_epsilon(1e-3, mu=mu), rel=1e-9)


def test_tight_noise_meets_the_target_exactly_and_is_far_below_the_papers() -> None:
    sigma = gaussian_tight_noise_std(D2_N, SQRT2, 1.0, 0.1)
    assert gaussian_delta(1.0, mu=gaussian_tree_mu(sigma, D2_N, SQRT2)) == pytest.approx(
        0.1, rel=1e-9
    )
    paper = gaussian_noise_std(tree_depth(D2_N), SQRT2, 1.0, 0.1)
    assert sigma == pytest.approx(11.0738, rel=1e-4) and paper / sigma > 13
    tight = gaussian_tight_bounds(5, D2_N, SQRT2, 1.0, 0.1, 1 / D2_N)
    printed = gaussian_bounds(5, tree_depth(D2_N), SQRT2, 1.0, 0.1, D2_N, 1 / D2_N)
    assert tight.rho_min == pytest.approx(printed.rho_min * sigma / paper, rel=1e-12)  # Υ ∝ σ


@pytest.mark.parametrize(("factor", "rejected"), [(1.0, False), (1 / 1.5, True)])
def test_white_box_audit_confirms_the_tight_tree_at_its_target(
    factor: float, rejected: bool
) -> None:
    # tiny config (n = 1000, d = 2): the target (1, 0.1) is now tight, so the printed claim has no
    # slack left; 1.5× less noise violates it (true δ(1) ≈ 0.7).  200k losses per side; the test
    # level is 1e-3 (false-positive rate of the pass case).
    config = TreeConfig()
    sigma = gaussian_tight_noise_std(config.n, config.L_tilde, config.epsilon, config.delta)
    case = gaussian_tree_case(
        config,
        name="tight",
        description="tight Gaussian tree",
        sigma=sigma * factor,
        exact_sigma=sigma,
    )
    results = case.audit_claims(
        [case.printed, case.exact], samples=200_000, seed=5, confidence=0.999
    )
    assert [r.violation for r in results] == [rejected, rejected]


def test_tight_variant_runs_in_the_engine_like_the_reference() -> None:
    privacy = PrivacyParameters(1.0, 0.1)
    kw = {"d": 3, "num_arms": 9, "gap": 0.1, "n": 80, "privacy": privacy, "calibration": "tight"}
    batch = run_gap_batch("gaussian", seeds=[1, 2], trace=True, **kw)  # type: ignore[arg-type]
    assert batch.actions is not None
    for r, seed in enumerate([1, 2]):
        ref = run_gap_experiment("gaussian", seed=seed, **kw)  # type: ignore[arg-type]
        np.testing.assert_array_equal(batch.actions[r], ref.actions)
    with pytest.raises(ValueError, match=r"^calibration must be"):
        regularizer_spec("gaussian", ProblemConstants(d=3), 80, 0.1, privacy, calibration="x")  # type: ignore[arg-type]


def test_tight_calibration_lowers_regret() -> None:
    # n = 3000, d = 3: 4 paired runs; the tight tree's ρ_min is 14x smaller, regret far lower
    kw = {"d": 3, "num_arms": 9, "gap": 0.1, "n": 3000, "seeds": [0, 1, 2, 3]}
    privacy = PrivacyParameters(1.0, 0.1)
    paper = run_gap_batch("gaussian", privacy=privacy, **kw).final_regret  # type: ignore[arg-type]
    tight = run_gap_batch("gaussian", privacy=privacy, calibration="tight", **kw).final_regret  # type: ignore[arg-type]
    assert np.all(tight < paper)
