"""The exact (white-box) audit: closed forms, reduced Wishart laws, and the sampled test."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from audit.mechanisms import (
    GaussianMechanism,
    NodeViewMechanism,
    SymmetricGaussianMatrixMechanism,
    WishartMechanism,
    gaussian_mu,
)
from audit.methods.white_box import (
    privacy_loss_audit,
    white_box_audit,
    wishart_add_remove_losses,
    wishart_replacement_losses,
)
from audit.protocols import NeighbouringPair, PrivacyClaim
from reference.accounting import gaussian_delta, gaussian_epsilon

KS_LEVEL = 1e-3


def _brute_force_losses(
    k: int, p: int, v: np.ndarray, v_prime: np.ndarray | None, size: int, seed: int
) -> np.ndarray:
    """L_{P‖Q} from the full Wishart densities (scipy logpdf), P with row v, Q with v' (or none)."""
    mech = WishartMechanism(p, k, 2.0)
    g = np.outer(v, v)
    g_prime = np.zeros((p, p)) if v_prime is None else np.outer(v_prime, v_prime)
    out = mech.sample(g, np.random.default_rng(seed), size)
    own, other = mech.log_density(g, out), mech.log_density(g_prime, out)
    return np.where(np.isfinite(other), own - other, np.inf)


def test_wishart_add_remove_reduction_matches_brute_force_and_catches_a_wrong_exponent() -> None:
    # Exact Wishart privacy loss: L = −a ln(1 + r/X) + r/2, X ~ χ²_{k−p+1}, a = (k−p−1)/2.  p = 3, k = 20.
    k, p, size = 20, 3, 20000
    v = np.array([1.0, 0.0, 1.0])  # ‖v‖² = 2 = scale ⇒ r = 1
    brute = _brute_force_losses(k, p, v, None, size, seed=201)
    reduced = wishart_add_remove_losses(np.random.default_rng(202), size, k=k, p=p, r=1.0)
    assert stats.ks_2samp(brute, reduced).pvalue > KS_LEVEL
    a_wrong = (k - p) / 2  # a off by 1/2: a plausible slip
    x = np.random.default_rng(203).chisquare(k - p + 1, size=size)
    wrong = -a_wrong * np.log1p(1.0 / x) + 0.5
    assert stats.ks_2samp(brute, wrong).pvalue < 1e-6


def test_wishart_replacement_reduction_matches_brute_force() -> None:
    k, p, size = 20, 3, 20000
    v, w = np.array([1.0, 0.0, 1.0]), np.array([-1.0, 0.0, 1.0])  # orthogonal, norm² = 2
    brute = _brute_force_losses(k, p, v, w, size, seed=204)
    reduced = wishart_replacement_losses(np.random.default_rng(205), size, k=k, p=p)
    finite_b, finite_r = brute[np.isfinite(brute)], reduced[np.isfinite(reduced)]
    assert stats.ks_2samp(finite_b, finite_r).pvalue > KS_LEVEL
    # the 2×2 Bartlett sampler inside agrees with scipy's Wishart sampler
    ti = stats.wishart(df=k - p + 2, scale=np.eye(2)).rvs(size=size, random_state=206)
    t = np.linalg.inv(ti)
    det = (1 + t[:, 0, 0]) * (1 - t[:, 1, 1]) + t[:, 0, 1] * t[:, 1, 0]
    via_scipy = -(k - p - 1) / 2 * np.log(det[det > 0])
    assert stats.ks_2samp(finite_r, via_scipy).pvalue > KS_LEVEL


def test_impossible_outputs_give_infinite_loss_at_the_exact_rate() -> None:
    # removing a row: O − G' − vvᵀ must stay positive definite; it fails iff X ≤ r, X ~ χ²_{k−p+1}
    k, p, size = 5, 3, 40000
    losses = wishart_add_remove_losses(
        np.random.default_rng(207), size, k=k, p=p, r=1.0, direction="remove"
    )
    rate = float(np.mean(np.isinf(losses)))
    expected = stats.chi2(k - p + 1).cdf(1.0)
    assert abs(rate - expected) < 5 * math.sqrt(expected * (1 - expected) / size)
    # such outputs make pure DP impossible: the audit rejects ε-DP for any ε
    result = privacy_loss_audit(
        np.zeros(size), losses, PrivacyClaim(5.0, 0.0), name="remove", mechanism="wishart k=5"
    )
    assert result.violation
    assert result.details["infinite_loss_fraction_q"] == pytest.approx(rate)


def test_white_box_audit_passes_the_exact_claim_and_rejects_too_little_noise() -> None:
    pair = NeighbouringPair(np.zeros(1), np.ones(1))
    exact = PrivacyClaim(gaussian_epsilon(1e-3, mu=1.0), 1e-3)  # σ = 1, Δ = 1 ⇒ μ = 1
    good = white_box_audit(GaussianMechanism(1.0), pair, exact, samples=200_000, seed=208)
    assert not good.violation
    assert good.delta_at_claim is not None
    assert good.delta_at_claim.delta_lower <= 1e-3 <= good.delta_at_claim.delta_upper
    bad = white_box_audit(GaussianMechanism(0.7), pair, exact, samples=200_000, seed=208)
    assert bad.violation and bad.p_value < 1e-6
    assert bad.epsilon_lower_bound > exact.epsilon


def test_node_view_white_box_estimate_matches_the_closed_form_curve() -> None:
    p, sigma, nodes = 3, 1.5, 4
    v, w = np.array([1.0, 0.0, 1.0]), np.array([-1.0, 0.0, 1.0])
    x, xp = np.outer(v, v), np.outer(w, w)
    mu = math.sqrt(nodes) * gaussian_mu(x - xp, sigma)  # ‖D‖_F = 2√2 ⇒ μ_node = 2/σ
    assert mu == pytest.approx(math.sqrt(nodes) * 2.0 / sigma)
    mech = NodeViewMechanism(SymmetricGaussianMatrixMechanism(p, sigma), nodes)
    claim = PrivacyClaim(1.0, 0.5)
    result = white_box_audit(mech, NeighbouringPair(x, xp), claim, samples=100_000, seed=209)
    assert result.delta_at_claim is not None
    assert result.delta_at_claim.delta_lower <= gaussian_delta(1.0, mu=mu)
    assert gaussian_delta(1.0, mu=mu) <= result.delta_at_claim.delta_upper


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="direction must be"):
        wishart_add_remove_losses(np.random.default_rng(0), 5, k=10, p=3, direction="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="k must be an integer >= 4"):
        wishart_replacement_losses(np.random.default_rng(0), 5, k=3, p=3)
    with pytest.raises(ValueError, match="delta must be in"):
        PrivacyClaim(1.0, 1.0)
    with pytest.raises(ValueError, match="relation must be"):
        PrivacyClaim(1.0, 0.1, "swap")  # type: ignore[arg-type]


def test_infinite_loss_mass_above_delta_gives_an_infinite_lower_bound() -> None:
    # 5 % of outputs are impossible under x' (as for a sparse vector that leaks its count): no
    # finite ε is valid at δ = 10⁻³, and the audit says ε_LB = ∞, not a grid value
    rng = np.random.default_rng(210)
    losses_p = np.where(rng.uniform(size=50_000) < 0.05, np.inf, rng.normal(0.0, 0.1, 50_000))
    losses_q = rng.normal(0.0, 0.1, 50_000)
    result = privacy_loss_audit(
        losses_p, losses_q, PrivacyClaim(1.0, 1e-3), name="leak", mechanism="leak"
    )
    assert result.violation and result.epsilon_lower_bound == math.inf
    # below δ the same mass is no evidence against a finite ε
    tiny = np.where(rng.uniform(size=50_000) < 1e-4, np.inf, rng.normal(0.0, 0.1, 50_000))
    ok = privacy_loss_audit(tiny, losses_q, PrivacyClaim(1.0, 0.01), name="ok", mechanism="ok")
    assert ok.epsilon_lower_bound < math.inf


def test_white_box_power_statement_covers_a_slightly_leakier_gaussian() -> None:
    # the stated detectable δ(ε_claim) at 2·10⁴ samples: a Gaussian mechanism with exactly that
    # δ(ε_claim) is rejected in at least 28 of 30 audits (coverage ≥ 0.95 is the promise)
    from scipy.optimize import brentq

    pair = NeighbouringPair(np.zeros(1), np.ones(1))
    claim = PrivacyClaim(gaussian_epsilon(1e-3, mu=1.0), 1e-3)
    good = white_box_audit(GaussianMechanism(1.0), pair, claim, samples=20_000, seed=211)
    assert good.verdict == "pass" and good.detectable_delta is not None
    mu = brentq(lambda m: gaussian_delta(claim.epsilon, mu=m) - good.detectable_delta, 1.0, 10.0)
    hits = sum(
        white_box_audit(GaussianMechanism(1.0 / mu), pair, claim, samples=20_000, seed=s).violation
        for s in range(300, 330)
    )
    assert hits >= 28


class VectorLaplace:
    """``x + Lap(b)^m``: pure ``‖x − x'‖₁/b``-DP, with its exact density."""

    def __init__(self, b: float) -> None:
        self.b = b

    def sample(self, data: np.ndarray, rng: np.random.Generator, size: int) -> np.ndarray:
        return np.asarray(data) + rng.laplace(0.0, self.b, size=(size, len(data)))

    def log_density(self, data: np.ndarray, outputs: np.ndarray) -> np.ndarray:
        z = np.abs(np.asarray(outputs) - np.asarray(data)) / self.b
        return np.asarray(-z.sum(axis=1) - len(data) * math.log(2 * self.b), dtype=np.float64)


def test_a_pure_claim_is_refuted_exactly_by_one_loss_above_epsilon() -> None:
    # true pure ε = 2 (ℓ₁ distance 10 over 5 coordinates, b = 5) against a claimed 1: the mean of
    # the hockey-stick summands is small (the loss is a sum of 5 terms, rarely near 2), but any
    # drawn loss above 1 refutes a pure claim with certainty
    pair = NeighbouringPair(np.ones(5), -np.ones(5))
    claim = PrivacyClaim(1.0, 0.0)
    result = white_box_audit(VectorLaplace(5.0), pair, claim, samples=400, seed=2)
    assert result.violation and result.p_value == 0.0
    assert 1.0 < result.epsilon_lower_bound <= 2.0 + 1e-9
    assert result.details["losses_above_pure_claim"] > 0
    # the correct scale (pure ε = 1): no drawn loss exceeds 1, however many are drawn
    exact = white_box_audit(VectorLaplace(10.0), pair, claim, samples=200_000, seed=2)
    assert not exact.violation and exact.details["losses_above_pure_claim"] == 0
    assert exact.epsilon_lower_bound <= 1.0 + 1e-9


def _gaussian_losses(mu: float, size: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Privacy losses of the Gaussian mechanism with mean difference ``mu`` (unit noise): under
    either input ``L ~ N(μ²/2, μ²)``."""
    rng = np.random.default_rng(seed)
    return (mu * rng.standard_normal(size) + mu**2 / 2, mu * rng.standard_normal(size) + mu**2 / 2)


def test_the_tilted_family_of_a_gaussian_is_the_gaussians() -> None:
    from audit.methods.white_box import _tilted_delta
    from reference.accounting import gaussian_delta

    lp, lq = _gaussian_losses(0.5, 200_000, 3)
    for lam in (0.5, 1.0, 1.6, 2.5):
        curve = _tilted_delta(lp, lq, lam)
        assert curve is not None
        for eps in (0.0, 0.5, 1.0):
            assert curve(eps) == pytest.approx(gaussian_delta(eps, mu=0.5 * lam), abs=4e-3)
    equal = _tilted_delta(lp, lq, 0.0)  # λ = 0: two equal laws, δ = 0 up to sampling error
    assert equal is not None and equal(0.0) == pytest.approx(0.0, abs=1e-3)


@pytest.mark.parametrize("delta", [1e-5, 1e-3, 0.1, 0.5])
def test_the_epsilon_power_statement_is_exact_for_the_gaussian_at_any_delta(delta: float) -> None:
    """The ε-form names the Gaussian the δ-form catches: ``μ'`` with ``δ_μ'(ε_claim) =
    detectable_delta``, stated as ``ε_μ'(δ_claim)`` -- at small δ (where shifting the audited
    curve sideways overstated the power) and at large δ (where it gave ∞)."""
    from reference.accounting import gaussian_delta, gaussian_epsilon

    lp, lq = _gaussian_losses(0.45, 20_000, 1)
    claim = PrivacyClaim(1.0, delta)
    result = privacy_loss_audit(lp, lq, claim, name="g", mechanism="g", confidence=0.95)
    target = result.detectable_delta
    assert target is not None and result.detectable_epsilon is not None
    lo, hi = 1e-6, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gaussian_delta(1.0, mu=mid) < target else (lo, mid)
    exact = gaussian_epsilon(delta, mu=hi)
    assert result.detectable_epsilon == pytest.approx(exact, rel=0.05)
    assert math.isfinite(result.detectable_epsilon)


def test_no_finite_epsilon_statement_for_identical_laws_or_infinite_losses() -> None:
    zero = np.zeros(1000)
    result = privacy_loss_audit(zero, zero, PrivacyClaim(1.0, 0.1), name="z", mechanism="z")
    assert result.detectable_epsilon == math.inf
    lp = np.append(np.full(999, 0.1), np.inf)
    result = privacy_loss_audit(lp, zero, PrivacyClaim(1.0, 0.1), name="i", mechanism="i")
    assert result.detectable_epsilon == math.inf
