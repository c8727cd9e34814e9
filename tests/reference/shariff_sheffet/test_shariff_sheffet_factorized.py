"""The factorized regularizer source (:mod:`reference.shariff_sheffet.factorized`).

Its calibration must meet ``(ε, δ)`` exactly by the GDP curve, its bounds must be Prop. 11's at the
worst release's standard deviation (equal to the tree's formula where the laws coincide), its
releases must be the exact prefix plus the stream's noise, and Definition 3's event must hold.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from reference.accounting import gaussian_delta, gaussian_mu_for
from reference.factorization import BLT, optimal_blt
from reference.shariff_sheffet.bounds import (
    gaussian_bounds_for_release_std,
    gaussian_bounds_for_sigma,
)
from reference.shariff_sheffet.factorized import (
    factorized_bounds,
    factorized_mu,
    factorized_noise_std,
    released_steps,
)
from reference.shariff_sheffet.linucb import LinUCB
from reference.shariff_sheffet.regularizers import (
    FactorizedStatistics,
    PrivacyParameters,
    ProblemConstants,
    make_factorized_regularizer,
    regularizer_spec,
)
from reference.tree import tree_depth

CONSTANTS = ProblemConstants(d=3)
PRIVACY = PrivacyParameters(1.0, 0.1)


def test_release_std_bounds_are_the_trees_at_sigma_root_m() -> None:
    d, m, sigma, n, alpha = 5, 27, 0.7, 5 * 10**7, 2e-8
    ours = gaussian_bounds_for_release_std(d, sigma * math.sqrt(m), n, alpha)
    tree = gaussian_bounds_for_sigma(d, m, sigma, n, alpha)
    for field in ("rho_min", "rho_max", "gamma", "shift"):
        assert getattr(ours, field) == pytest.approx(getattr(tree, field), rel=1e-12)


@pytest.mark.parametrize("n", [2, 100, 10**5])
def test_calibration_meets_the_target_exactly(n: int) -> None:
    blt = optimal_blt(max(n - 1, 2), 3)
    sigma = factorized_noise_std(n, CONSTANTS.L_tilde, 1.0, 0.1, blt)
    mu = factorized_mu(sigma, n, CONSTANTS.L_tilde, blt)
    assert mu == pytest.approx(gaussian_mu_for(1.0, 0.1), rel=1e-12)
    assert gaussian_delta(1.0, mu=mu) <= 0.1 + 1e-12
    assert released_steps(n) == n - 1


def test_bounds_use_the_worst_release() -> None:
    n, alpha = 1000, 1e-3
    blt = optimal_blt(n - 1)
    sigma = factorized_noise_std(n, CONSTANTS.L_tilde, 1.0, 0.1, blt)
    bounds = factorized_bounds(3, n, CONSTANTS.L_tilde, 1.0, 0.1, alpha, blt)
    expected = gaussian_bounds_for_release_std(3, sigma * blt.error(n - 1), n, alpha)
    assert bounds == expected


def test_less_noise_than_the_tight_tree_at_the_papers_horizon() -> None:
    n = 5 * 10**7
    alpha = 1.0 / n
    ours = factorized_bounds(5, n, math.sqrt(2.0), 1.0, 0.1, alpha)
    _, tree = regularizer_spec(
        "gaussian", ProblemConstants(d=5), n, alpha, PRIVACY, calibration="tight"
    )
    assert 3.5 < tree.rho_min / ours.rho_min < 4.5
    assert tree_depth(n) == 27


def test_releases_are_the_prefix_plus_the_stream() -> None:
    n = 50
    source = make_factorized_regularizer(CONSTANTS, n, 0.01, np.random.default_rng(1), PRIVACY)
    V, u = source.current()
    np.testing.assert_array_equal(V, source.bounds.shift * np.eye(3))
    np.testing.assert_array_equal(u, np.zeros(3))
    rng = np.random.default_rng(2)
    gram = np.zeros((4, 4))
    for _ in range(n - 1):
        x = rng.standard_normal(3)
        x /= np.linalg.norm(x)
        y = float(rng.uniform(-1, 1))
        source.update(x, y)
        v = np.append(x, y)
        gram += np.outer(v, v)
        V, u = source.current()
        H, h = source.regularizer()
        np.testing.assert_allclose(V - H, gram[:3, :3], atol=1e-9)
        np.testing.assert_allclose(u - h, gram[:3, 3], atol=1e-9)
    assert source.noise.count == n - 1
    source.update(np.zeros(3), 0.0)  # round n's row: allowed, as the tree's leaf n
    with pytest.raises(ValueError, match="n=50"):
        source.update(np.zeros(3), 0.0)


def test_definition3_event_holds_over_seeds() -> None:
    """Every release of 40 runs lies in the event at ``α = 0.05`` (the bound is loose: its
    failure rate is far below ``α``)."""
    n, alpha = 64, 0.05
    for seed in range(40):
        source = make_factorized_regularizer(
            CONSTANTS, n, alpha, np.random.default_rng(seed), PRIVACY
        )
        b = source.bounds
        for _ in range(n - 1):
            source.noise.advance()
            H, h = source.regularizer()
            eig = np.linalg.eigvalsh(H)
            assert b.rho_min <= eig[0] and eig[-1] <= b.rho_max
            assert math.sqrt(float(h @ np.linalg.solve(H, h))) <= b.gamma


def test_same_seed_same_decisions() -> None:
    def run(seed: int) -> list[int]:
        source = make_factorized_regularizer(
            CONSTANTS, 30, 0.1, np.random.default_rng(seed), PRIVACY
        )
        policy = LinUCB(source, CONSTANTS, 0.1)
        arms_rng = np.random.default_rng(7)
        chosen = []
        for _ in range(30):
            arms = arms_rng.standard_normal((4, 3))
            arms /= np.linalg.norm(arms, axis=1, keepdims=True)
            index = policy.select(arms)
            policy.update(arms[index], float(arms_rng.uniform(-1, 1)))
            chosen.append(index)
        return chosen

    assert run(3) == run(3)


def test_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match="n"):
        released_steps(1)
    with pytest.raises(ValueError, match="blt"):
        factorized_noise_std(10, 1.0, 1.0, 0.1, "blt")  # type: ignore[arg-type]
    source = make_factorized_regularizer(
        CONSTANTS,
        10,
        0.1,
        np.random.default_rng(0),
        PRIVACY,
        blt=BLT(np.array([0.5]), np.array([0.3])),
    )
    assert isinstance(source, FactorizedStatistics)
    with pytest.raises(ValueError, match="y"):
        source.update(np.zeros(3), 2.0)
    with pytest.raises(ValueError, match="x"):
        source.update(np.ones(3), 0.0)
