"""The Gaussian curves of ``reference.accounting.gaussian``: the exact ``δ(ε)`` against Google's PLD
accountant and the direct formula, ``ε(δ)`` inverting it, and the calibration ``gaussian_mu_for``
as the largest feasible ``μ``."""

from __future__ import annotations

import math

import pytest
from dp_accounting.pld import privacy_loss_distribution as pld
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from reference.accounting import gaussian_delta, gaussian_epsilon, gaussian_mu_for


@pytest.mark.parametrize("mu", [0.1, 0.5, 1.0, 2.0])
def test_gaussian_curve_matches_dp_accounting(mu: float) -> None:
    # independent implementation: Google's PLD accountant (pessimistic discretisation 1e-4)
    accountant = pld.from_gaussian_mechanism(
        standard_deviation=1.0 / mu, sensitivity=1.0, value_discretization_interval=1e-4
    )
    for eps in (0.0, 0.1, 0.5, 1.0, 2.0):
        assert gaussian_delta(eps, mu=mu) == pytest.approx(
            accountant.get_delta_for_epsilon(eps), rel=1e-3, abs=1e-9
        )
    for delta in (1e-2, 1e-5):
        eps = gaussian_epsilon(delta, mu=mu)
        assert gaussian_delta(eps, mu=mu) == pytest.approx(delta, rel=1e-8)


@given(eps=st.floats(0.0, 10.0), mu=st.floats(0.01, 20.0))
@settings(max_examples=80)
def test_gaussian_delta_matches_the_direct_formula(eps: float, mu: float) -> None:
    # Balle & Wang 2018, Thm 8, evaluated without log space
    direct = stats.norm.cdf(mu / 2 - eps / mu) - math.exp(eps) * stats.norm.cdf(-mu / 2 - eps / mu)
    assert gaussian_delta(eps, mu=mu) == pytest.approx(max(0.0, direct), abs=1e-12)


@settings(max_examples=40)
@given(eps=st.floats(0.05, 5.0), log_delta=st.floats(-12.0, -0.5))
def test_gaussian_mu_for_is_the_largest_feasible_mu(eps: float, log_delta: float) -> None:
    delta = 10.0**log_delta
    mu = gaussian_mu_for(eps, delta)
    assert gaussian_delta(eps, mu=mu) <= delta
    assert gaussian_delta(eps, mu=mu * (1 + 1e-9)) > delta * (1 - 1e-6)
    assert gaussian_epsilon(delta, mu=mu) == pytest.approx(eps, rel=1e-6, abs=1e-9)


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match=r"mu must be in \(0, inf\)"):
        gaussian_delta(1.0, mu=0.0)
    with pytest.raises(ValueError, match="epsilon must be in"):
        gaussian_delta(-1.0, mu=1.0)
    with pytest.raises(ValueError, match="delta must be in"):
        gaussian_epsilon(0.0, mu=1.0)
