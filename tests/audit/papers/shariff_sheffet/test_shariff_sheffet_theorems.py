"""Accuracy audits against the theorems (audit/papers/shariff_sheffet/theorems.py): the correct sources pass, the
deliberately broken ones (per-node shift, no padding, k instead of mk; a wrong S) are caught.

Binomial tests at confidence 0.95: a correct source is rejected with probability ≤ 0.05 by
construction; observed failures are 0 in every correct case below (the bounds are conservative),
and the broken cases fail in every run, far from the boundary.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from audit.papers.shariff_sheffet.theorems import (
    TreeSourceSpec,
    claim18_coverage,
    claim19_coverage,
    confidence_ellipsoid_audit,
    laurent_massart_tail,
    proof_failure_rate,
    regularizer_run_audit,
)
from reference.noise import LaplaceNoise, SymmetricGaussianNoise, ZeroNoise
from reference.shariff_sheffet import (
    PrivacyParameters,
    ProblemConstants,
    RegularizerBounds,
    TreeStatistics,
    Variant,
    make_regularizer,
    wishart_degrees_of_freedom,
    wishart_shifted_bounds,
    wishart_unshifted_bounds,
)
from reference.shariff_sheffet.bounds import gaussian_bounds_for_sigma
from reference.shariff_sheffet.regularizers import wishart_node_noise
from reference.shariff_sheffet.tight import gaussian_tight_noise_std
from reference.tree import PadMode, TreeAggregator, tree_depth

N, ALPHA, D = 32, 0.5, 2  # α = 0.5 makes the per-run failure rates testable
CONSTANTS = ProblemConstants(d=D)
PRIVACY = PrivacyParameters(1.0, 0.1)
M = tree_depth(N)
K = wishart_degrees_of_freedom(D, M, 1.0, 0.1)


def _tree_source(variant: Variant, rng: np.random.Generator) -> TreeStatistics:
    source = make_regularizer(variant, CONSTANTS, N, ALPHA, rng, PRIVACY)
    assert isinstance(source, TreeStatistics)
    return source


@pytest.mark.parametrize("variant", ["wishart", "wishart_unshifted", "gaussian"])
def test_tight_regularizers_meet_definition_3_over_whole_runs(variant: Variant) -> None:
    # The tight calibrations keep Prop. 9 / Prop. 11 (recomputed at the calibrated k or σ)
    def tight_source(rng: np.random.Generator) -> TreeStatistics:
        source = make_regularizer(variant, CONSTANTS, N, ALPHA, rng, PRIVACY, calibration="tight")
        assert isinstance(source, TreeStatistics)
        return source

    claimed = tight_source(np.random.default_rng(0)).bounds
    paper = make_regularizer(variant, CONSTANTS, N, ALPHA, np.random.default_rng(0), PRIVACY)
    assert claimed.rho_max < paper.bounds.rho_max  # far less noise than the paper's calibration
    result = regularizer_run_audit(
        tight_source, claimed, N, proof_failure_rate(variant, ALPHA), runs=30, seed=3
    )
    assert not result.violation and result.failures == 0
    assert all(q[2] <= 1.0 for q in result.slack.values())


@pytest.mark.parametrize("variant", ["wishart", "wishart_unshifted", "gaussian"])
def test_correct_regularizers_meet_definition_3_over_whole_runs(variant: Variant) -> None:
    claimed = make_regularizer(
        variant, CONSTANTS, N, ALPHA, np.random.default_rng(0), PRIVACY
    ).bounds
    result = regularizer_run_audit(
        lambda rng: _tree_source(variant, rng),
        claimed,
        N,
        proof_failure_rate(variant, ALPHA),
        runs=30,
        seed=1,
    )
    assert not result.violation and result.failures == 0
    # slack is reported as ratios to the bounds, all <= 1 on the event
    assert all(q[2] <= 1.0 for q in result.slack.values())


def _shifted_tree(rng: np.random.Generator, *, shift_factor: float, pad: str) -> TreeStatistics:
    bounds = wishart_shifted_bounds(D, M, K, CONSTANTS.L_tilde, N, ALPHA)
    tree = TreeAggregator(N, wishart_node_noise(D, K, CONSTANTS.L_tilde), rng, pad=pad)  # type: ignore[arg-type]
    applied = RegularizerBounds(
        bounds.rho_min, bounds.rho_max, bounds.gamma, shift_factor * bounds.shift
    )
    return TreeStatistics(CONSTANTS, tree, applied)


def test_run_audit_engine_runs_other_laws_on_the_numpy_engine() -> None:
    """A law the compiled tree does not take (zero noise) runs on ``BatchedTreeNoise``: the same
    numbers as the reference trees.  A law whose matrices are not symmetric (Laplace entries) is
    no regularizer: its ``H`` is refused (Definition 3 bounds eigenvalues of a symmetric ``H``; the
    eigen-solver would read one triangle only)."""
    spec = TreeSourceSpec(d=D, noise=ZeroNoise((D + 1, D + 1)), shift=1.0)
    claimed = make_regularizer(
        "wishart", CONSTANTS, N, ALPHA, np.random.default_rng(0), PRIVACY
    ).bounds
    batch = regularizer_run_audit(spec, claimed, N, 0.1, runs=4, seed=3)
    plain = regularizer_run_audit(spec, claimed, N, 0.1, runs=4, seed=3, engine="reference")
    assert plain.failures == batch.failures
    for key, quantiles in batch.slack.items():
        assert plain.slack[key] == pytest.approx(quantiles, rel=1e-9)
    asymmetric = TreeSourceSpec(d=D, noise=LaplaceNoise((D + 1, D + 1), 0.05), shift=1.0)
    for engine in ("batch", "reference"):
        with pytest.raises(ValueError, match=r"^H must be symmetric"):
            regularizer_run_audit(asymmetric, claimed, N, 0.1, runs=4, seed=3, engine=engine)


@pytest.mark.parametrize(
    ("name", "shift_factor", "pad"),
    [("U1 shift applied per node (m times)", float(M), "fresh"), ("U2 no padding", 1.0, "none")],
)
def test_broken_shifted_wishart_trees_are_caught(name: str, shift_factor: float, pad: str) -> None:
    claimed = wishart_shifted_bounds(D, M, K, CONSTANTS.L_tilde, N, ALPHA)
    result = regularizer_run_audit(
        lambda rng: _shifted_tree(rng, shift_factor=shift_factor, pad=pad),
        claimed,
        N,
        proof_failure_rate("wishart", ALPHA),
        runs=20,
        seed=2,
        name=name,
    )
    assert result.violation and result.failures == 20


def test_tight_bounds_for_a_too_small_sigma_are_caught() -> None:
    # a tight Gaussian tree whose Prop. 11 bounds and shift were computed at σ/3 (e.g. the μ of one
    # node instead of the composition over m − 1 nodes) while its nodes carry the calibrated σ
    sigma = gaussian_tight_noise_std(N, CONSTANTS.L_tilde, PRIVACY.epsilon, PRIVACY.delta)
    wrong = gaussian_bounds_for_sigma(D, M, sigma / 3.0, N, ALPHA)
    spec = TreeSourceSpec(d=D, noise=SymmetricGaussianNoise(D + 1, sigma), shift=wrong.shift)
    result = regularizer_run_audit(
        spec, wrong, N, proof_failure_rate("gaussian", ALPHA), runs=20, seed=4
    )
    assert result.violation and result.failures == 20


def test_bounds_computed_with_k_instead_of_mk_are_caught() -> None:
    # U4: Prop. 9 evaluated with m = 1 (k degrees of freedom instead of mk)
    wrong = wishart_unshifted_bounds(D, 1, K, CONSTANTS.L_tilde, N, ALPHA)
    result = regularizer_run_audit(
        lambda rng: _tree_source("wishart_unshifted", rng),
        wrong,
        N,
        proof_failure_rate("wishart_unshifted", ALPHA),
        runs=20,
        seed=3,
    )
    assert result.violation and result.failures == 20


@pytest.mark.parametrize("variant", ["nonprivate", "gaussian", "wishart"])
def test_confidence_ellipsoid_holds_and_a_wrong_S_breaks_it(variant: Variant) -> None:
    kwargs = {"d": 2, "num_arms": 4, "gap": 0.1, "n": 60, "alpha": 0.1, "runs": 15, "seed": 3}
    good = confidence_ellipsoid_audit(variant, privacy=PRIVACY, **kwargs)  # type: ignore[arg-type]
    assert not good.violation and good.failures == 0
    assert good.slack["max_t ||theta_tilde_t - theta*||_{V_t} / beta_t"][2] < 1.0
    if variant != "nonprivate":  # S √ρ_max dominates β_t for the private variants
        bad = confidence_ellipsoid_audit(
            variant,
            privacy=PRIVACY,
            constants=ProblemConstants(d=2, S=0.01),
            **kwargs,  # type: ignore[arg-type]
        )
        assert bad.violation and bad.failures == 15


@pytest.mark.parametrize("d", [1, 2, 5, 20, 100])
@pytest.mark.parametrize("alpha", [0.1, 1e-3, 1e-6])
def test_claim17_laurent_massart_tails_exactly(d: int, alpha: float) -> None:
    upper, lower, weak = laurent_massart_tail(d, alpha)
    assert upper <= alpha and lower <= alpha and weak <= alpha
    # and the bound is not vacuous: the weak form is within a factor 1000 of α for α = 0.1
    if alpha == 0.1:
        assert weak > alpha / 1000


def test_claims_18_and_19_by_monte_carlo_and_a_too_narrow_interval_is_caught() -> None:
    # 2000 reps at α = 0.1: a CP lower bound above α would reject; a correct claim passes
    for failures, reps in (
        claim18_coverage(100, 5, 0.1, reps=2000, seed=1),
        claim19_coverage(5, 200, 0.1, reps=2000, seed=2),
    ):
        assert stats.binomtest(failures, reps, 0.1, alternative="greater").pvalue > 0.01
    failures, reps = claim19_coverage(5, 200, 0.1, reps=2000, seed=2, deviation_scale=0.5)
    assert stats.binomtest(failures, reps, 0.1, alternative="greater").pvalue < 1e-6
    with pytest.raises(ValueError, match="Claim 19 needs"):
        claim19_coverage(5, 6, 0.1, reps=10, seed=0)


def test_proof_failure_rates() -> None:
    assert proof_failure_rate("wishart", 0.4) == pytest.approx(0.3)
    assert proof_failure_rate("gaussian", 0.4, ellipsoid=True) == pytest.approx(0.6)
    assert proof_failure_rate("nonprivate", 0.4, ellipsoid=True) == pytest.approx(0.2)
    assert math.isclose(proof_failure_rate("wishart_unshifted", 0.5), 0.375)


# ------------------------------------------------------------------------------------------------
# The engine path of the run audit: same streams, same verdicts as the reference path
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["wishart", "gaussian"])
def test_run_audit_engine_equals_reference_and_factory_paths(variant: Variant) -> None:
    spec = TreeSourceSpec.of_variant(variant, CONSTANTS, N, ALPHA, PRIVACY)
    claimed = make_regularizer(
        variant, CONSTANTS, N, ALPHA, np.random.default_rng(0), PRIVACY
    ).bounds
    q = proof_failure_rate(variant, ALPHA)
    batch = regularizer_run_audit(spec, claimed, N, q, runs=6, seed=11)
    plain = regularizer_run_audit(spec, claimed, N, q, runs=6, seed=11, engine="reference")
    factory = regularizer_run_audit(
        lambda rng: _tree_source(variant, rng), claimed, N, q, runs=6, seed=11
    )
    for other in (plain, factory):
        assert other.failures == batch.failures
        for key, quantiles in batch.slack.items():
            assert other.slack[key] == pytest.approx(quantiles, rel=1e-9)


@pytest.mark.parametrize(
    ("name", "shift_factor", "pad"),
    [("U1 shift applied per node (m times)", float(M), "fresh"), ("U2 no padding", 1.0, "none")],
)
def test_broken_shifted_wishart_specs_are_caught_by_the_engine(
    name: str, shift_factor: float, pad: PadMode
) -> None:
    claimed = wishart_shifted_bounds(D, M, K, CONSTANTS.L_tilde, N, ALPHA)
    spec = TreeSourceSpec(
        D, wishart_node_noise(D, K, CONSTANTS.L_tilde), shift_factor * claimed.shift, pad
    )
    result = regularizer_run_audit(
        spec, claimed, N, proof_failure_rate("wishart", ALPHA), runs=20, seed=2, name=name
    )
    assert result.violation and result.failures == 20


def test_run_audit_spec_needs_a_private_variant_and_a_known_engine() -> None:
    with pytest.raises(ValueError, match=r"^variant must be a private variant"):
        TreeSourceSpec.of_variant("nonprivate", CONSTANTS, N, ALPHA, PRIVACY)
    spec = TreeSourceSpec.of_variant("wishart", CONSTANTS, N, ALPHA, PRIVACY)
    claimed = wishart_shifted_bounds(D, M, K, CONSTANTS.L_tilde, N, ALPHA)
    with pytest.raises(ValueError, match=r"^engine must be"):
        regularizer_run_audit(spec, claimed, N, 0.1, runs=1, seed=0, engine="gpu")  # type: ignore[arg-type]
