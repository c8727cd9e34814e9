"""The Laplace curves of ``reference.accounting.laplace``: the closed form against Google's PLD
accountant and against quadrature of the hockey-stick divergence, the tree accountant and its
calibration, and the composition used by the audits' exact claims (valid and nearly tight by
Monte Carlo, empirical-Bernstein bounds at ``10⁻⁶``)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from scipy import integrate, stats

from audit.mechanisms import LaplaceMechanism
from audit.methods.white_box import density_privacy_losses
from audit.stats import empirical_bernstein_bounds, hockey_stick_summands
from reference.accounting import (
    laplace_composition_epsilon,
    laplace_delta,
    laplace_epsilon,
    laplace_tree_delta,
    laplace_tree_epsilon,
    laplace_tree_epsilon_0_for,
)

DELTA_STAR = 1e-3


@pytest.mark.parametrize("eps0", [0.5, 1.0, 3.0])
def test_laplace_curve_matches_dp_accounting(eps0: float) -> None:
    accountant = pld.from_laplace_mechanism(
        parameter=1.0 / eps0, sensitivity=1.0, value_discretization_interval=1e-5
    )
    for eps in (0.0, eps0 / 4, eps0 / 2, 0.9 * eps0, eps0, 2 * eps0):
        assert laplace_delta(eps, epsilon_0=eps0) == pytest.approx(
            accountant.get_delta_for_epsilon(eps), rel=1e-4, abs=1e-9
        )
    assert laplace_epsilon(0.0, epsilon_0=eps0) == pytest.approx(eps0)
    assert laplace_delta(laplace_epsilon(0.01, epsilon_0=eps0), epsilon_0=eps0) == pytest.approx(
        0.01, rel=1e-9
    )


def _hockey_stick(mu: float, eps: float) -> float:
    """∫ (p_0(z) − e^ε p_μ(z))₊ dz for unit-scale Laplace densities, by quadrature."""

    def integrand(z: float) -> float:
        return max(
            stats.laplace.pdf(z, 0.0, 1.0) - math.exp(eps) * stats.laplace.pdf(z, mu, 1.0), 0.0
        )

    pts = [0.0, mu, (mu - eps) / 2]
    a, _ = integrate.quad(integrand, -60.0, 60.0 + mu, points=pts, limit=400)
    return float(a)


@pytest.mark.parametrize(
    ("mu", "eps"), [(1.0, 0.5), (2.0, 1.0), (5.0, 1.0), (1.0, 1.0), (0.5, 2.0), (20.0, 1.0)]
)
def test_laplace_delta_matches_integration(mu: float, eps: float) -> None:
    # centres Δ = 3μ apart, scale 3: ε₀ = Δ/b = μ
    got = laplace_delta(eps, epsilon_0=mu * 3.0 / 3.0)
    assert got == pytest.approx(_hockey_stick(mu, eps), abs=1e-8)


def test_laplace_tree_accountant() -> None:
    assert laplace_tree_epsilon(0.0, epsilon_0=0.1, nodes=10) == pytest.approx(1.0)
    assert laplace_tree_delta(1.0, epsilon_0=0.1, nodes=10) == 0.0
    # composition at δ > 0 is far below the pure bound; the calibrated ε₀ meets the target
    eps0 = laplace_tree_epsilon_0_for(1.0, 1e-3, nodes=10)
    assert eps0 > 0.1 * 1.25
    assert laplace_tree_epsilon(1e-3, epsilon_0=eps0, nodes=10) <= 1.0
    assert laplace_tree_epsilon(1e-3, epsilon_0=eps0 * 1.01, nodes=10) > 1.0
    assert laplace_tree_epsilon_0_for(1.0, 0.0, nodes=10) == pytest.approx(0.1)


def test_laplace_composition_epsilon_closed_forms() -> None:
    assert laplace_composition_epsilon(0.0, epsilon_0=0.25, nodes=4) == 1.0
    assert laplace_composition_epsilon(1e-3, epsilon_0=0.7, nodes=1) == laplace_epsilon(
        1e-3, epsilon_0=0.7
    )
    # several nodes: the tree accountant
    assert laplace_composition_epsilon(1e-3, epsilon_0=0.1, nodes=10) == laplace_tree_epsilon(
        1e-3, epsilon_0=0.1, nodes=10
    )
    # composition of h mechanisms of ε₀ = ε/h: between the single-mechanism value and hε₀
    eps = laplace_composition_epsilon(DELTA_STAR, epsilon_0=0.25, nodes=4)
    assert laplace_epsilon(DELTA_STAR, epsilon_0=0.25) < eps < 1.0


def test_laplace_composition_epsilon_is_valid_and_nearly_tight_by_monte_carlo() -> None:
    # exact δ(ε) of 4 Laplace nodes (ε₀ = 1/4) estimated from 10⁶ exact privacy losses, with
    # empirical-Bernstein bounds at 10⁻⁶: the claim (ε*, δ*) holds, and ε* − 0.02 would not
    h, eps0 = 4, 0.25
    eps_star = laplace_composition_epsilon(DELTA_STAR, epsilon_0=eps0, nodes=h)
    mech = LaplaceMechanism(2.0 / eps0)
    rng = np.random.default_rng(3)
    losses = density_privacy_losses(mech, np.ones(h), -np.ones(h), rng, 1_000_000)
    at_claim = empirical_bernstein_bounds(hockey_stick_summands(losses, eps_star), 1e-6)
    below = empirical_bernstein_bounds(hockey_stick_summands(losses, eps_star - 0.02), 1e-6)
    assert at_claim.lower <= DELTA_STAR
    assert below.lower > DELTA_STAR


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="epsilon must be in"):
        laplace_delta(-1.0, epsilon_0=1.0)
    with pytest.raises(ValueError, match="epsilon_0 must be in"):
        laplace_epsilon(0.1, epsilon_0=0.0)
    with pytest.raises(ValueError, match="nodes must be"):
        laplace_composition_epsilon(0.1, epsilon_0=1.0, nodes=0)
