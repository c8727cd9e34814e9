"""Tests of ``reference.zhou_tan.mechanism``: CTL(ϵ) (Curator 1, Sec. 4.1), Lemma 1, §4.5.

* exact Laplace privacy loss (closed form vs the densities of ``scipy.stats.laplace``);
* the exact ``δ(ϵ)`` of unclipped inputs (``reference.accounting.laplace``, tested against
  numerical integration in ``tests/reference/accounting/``) tends to 1 (§4.5);
* range of the clipping and determinism of the randomiser;
* Monte-Carlo checks with exact binomial tests (``scipy.stats.binomtest``); each test rejects only
  at p-value ``< 1e-6`` (false-positive rate ``≤ 1e-6`` per test; the seeds are fixed anyway);
* the key step of Thm 3's proof, ``E[η̂_τ|ℱ]² ≤ K/τ``, by numerical integration (Sec. 4.3).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from reference.accounting import laplace_delta
from reference.zhou_tan import mechanism as mc

PROPS = settings(max_examples=40, deadline=None)
P_REJECT = 1e-6


def test_laplace_scale_and_moments() -> None:
    assert mc.laplace_scale(1.0, 1.0, 1.0) == 4.0
    assert mc.laplace_scale(2.0, 0.5, 0.5) == pytest.approx(10.0)
    # v = K = B² + R² + 2𝓛² = B² + R² + 8(B+R)²/ϵ² (Thm 2, Alg. 2).
    for B, R, eps in [(1.0, 1.0, 1.0), (0.3, 2.0, 0.25), (4.37, 1.0, 1.0)]:
        v = mc.ldp_reward_second_moment(B, R, eps)
        assert v == pytest.approx(B**2 + R**2 + 8 * (B + R) ** 2 / eps**2, rel=1e-14)
        assert mc.ldp_noise_second_moment(B, R, eps) == pytest.approx(v - B**2, rel=1e-14)
    assert mc.ldp_reward_second_moment(1, 1, 1) == 34.0


def test_parameter_validation() -> None:
    with pytest.raises(ValueError, match="eps"):
        mc.LDPParams(0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="B"):
        mc.LDPParams(1.0, -1.0, 1.0)
    with pytest.raises(ValueError, match="R"):
        mc.LDPParams(1.0, 1.0, -0.1)


@given(
    y=st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=30),
    B=st.floats(0.1, 5),
    R=st.floats(0, 5),
)
@PROPS
def test_clip_range_and_identity_inside(y: list[float], B: float, R: float) -> None:
    arr = np.asarray(y)
    c = mc.clip_reward(arr, B, R)
    assert np.all(np.abs(c) <= B + R)
    inside = np.abs(arr) <= B + R
    assert np.array_equal(c[inside], arr[inside])


def test_ctl_adds_noise_to_clipped_input_and_is_deterministic() -> None:
    p = mc.LDPParams(1.0, 1.0, 1.0)
    y = np.array([100.0, -100.0, 0.5])
    a = mc.ctl_privatize(y, p, np.random.default_rng(5))
    b = mc.ctl_privatize(y, p, np.random.default_rng(5))
    assert np.array_equal(a, b)
    noise = np.random.default_rng(5).laplace(0.0, 4.0, size=3)
    assert np.allclose(a, np.array([2.0, -2.0, 0.5]) + noise)
    unclipped = mc.ctl_privatize(
        y, mc.LDPParams(1.0, 1.0, 1.0, clip=False), np.random.default_rng(5)
    )
    assert np.allclose(unclipped, y + noise)


def test_convert_to_laplace_counts_calls() -> None:
    ctl = mc.ConvertToLaplace(mc.LDPParams(1.0, 1.0, 1.0), np.random.default_rng(0))
    ctl(np.zeros(7))
    ctl(np.zeros(3))
    assert ctl.n_calls == 10


# --------------------------------------------------------------------------------------------
# Privacy loss (Lemma 1)


@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0, 3.0])
def test_privacy_loss_matches_density_ratio_and_is_bounded(eps: float) -> None:
    p = mc.LDPParams(eps, 1.0, 1.0)
    b = p.lap_scale
    z = np.linspace(-30, 30, 2001)
    y, yp = 2.0, -2.0
    loss = mc.laplace_privacy_loss(z, y, yp, b)
    ratio = stats.laplace.logpdf(z, loc=y, scale=b) - stats.laplace.logpdf(z, loc=yp, scale=b)
    assert np.allclose(loss, ratio, atol=1e-12)
    assert np.max(np.abs(loss)) <= eps + 1e-12
    assert mc.max_privacy_loss(2.0, -2.0, p) == pytest.approx(eps, rel=1e-15)


def test_clipping_bounds_the_loss_for_any_real_inputs() -> None:
    """P5: y = 3(B+R) vs y' = −(B+R) has loss 2ϵ unclipped, ϵ clipped."""
    eps = 1.0
    clipped = mc.LDPParams(eps, 1.0, 1.0)
    raw = mc.LDPParams(eps, 1.0, 1.0, clip=False)
    assert mc.max_privacy_loss(6.0, -2.0, clipped) == pytest.approx(eps)
    assert mc.max_privacy_loss(6.0, -2.0, raw) == pytest.approx(2 * eps)
    assert mc.max_privacy_loss(1e9, -1e9, clipped) == pytest.approx(eps)


def test_unbounded_claim_fails_without_clipping() -> None:
    """§4.5: (ϵ, δ) claimed; the exact δ for distant unclipped inputs exceeds any δ < 1."""
    eps, delta = mc.paper_unbounded_noise_claim(1.0, 0.05)
    lap = mc.laplace_scale(1.0, 1.0, eps)
    # inside the range (Δ = 2(B+R), so ε₀ = Δ/𝓛 = ϵ up to rounding): pure ϵ
    assert laplace_delta(eps, epsilon_0=2.0 * 2.0 / lap) == pytest.approx(0.0, abs=1e-15)
    far = [laplace_delta(eps, epsilon_0=dist / lap) for dist in (10.0, 40.0, 200.0)]
    assert far[0] < far[1] < far[2] and far[-1] > 0.99 > delta
    assert far[0] > delta


def test_subweibull_noise_bound_solves_union_bound() -> None:
    a, b, theta, T, delta = 2.0, 0.5, 0.5, 1000, 0.05
    R = mc.subweibull_noise_bound(a, b, theta, T, delta)
    assert T * a * math.exp(-b * R ** (1 / theta)) == pytest.approx(delta, rel=1e-12)
    with pytest.raises(ValueError, match="delta"):
        mc.subweibull_noise_bound(a, b, theta, T, 1.5)


# --------------------------------------------------------------------------------------------
# Monte Carlo (exact binomial tests)


def test_tight_event_probabilities_monte_carlo() -> None:
    """P[ȳ ≥ B+R | y = B+R] = ½ and P[ȳ ≥ B+R | y = −(B+R)] = ½e^{−ϵ}."""
    p = mc.LDPParams(1.0, 1.0, 1.0)
    n = 200_000
    rng = np.random.default_rng(2026)
    hi = mc.ctl_privatize(np.full(n, 2.0), p, rng)
    lo = mc.ctl_privatize(np.full(n, -2.0), p, rng)
    k_hi = int(np.sum(hi >= 2.0))
    k_lo = int(np.sum(lo >= 2.0))
    assert stats.binomtest(k_hi, n, 0.5).pvalue > P_REJECT
    assert stats.binomtest(k_lo, n, 0.5 * math.exp(-1.0)).pvalue > P_REJECT
    # Power: the same counts are incompatible with a mechanism at half the scale (loss 2ϵ).
    assert stats.binomtest(k_lo, n, 0.5 * math.exp(-2.0)).pvalue < P_REJECT


def test_laplace_tail_frequency() -> None:
    """P(|L| > 𝓛 ln τ) = 1/τ (Sec. 4.3)."""
    p = mc.LDPParams(0.5, 1.0, 1.0)
    n = 100_000
    noise = mc.ctl_privatize(np.zeros(n), p, np.random.default_rng(9))
    for tau in (2, 10, 100):
        thr = p.lap_scale * math.log(tau)
        assert mc.laplace_tail_probability(thr, p.lap_scale) == pytest.approx(1 / tau)
        k = int(np.sum(np.abs(noise) > thr))
        assert stats.binomtest(k, n, 1 / tau).pvalue > P_REJECT


def test_noise_variance_scales_as_eps_minus_two() -> None:
    """Var(ȳ − y) = 2𝓛² = 8(B+R)²/ϵ²; sample variance inside a 6-s.e. band (chi-square approx)."""
    n = 200_000
    for eps in (0.25, 1.0, 4.0):
        p = mc.LDPParams(eps, 1.0, 1.0)
        x = mc.ctl_privatize(np.zeros(n), p, np.random.default_rng(int(eps * 100)))
        var = 2 * p.lap_scale**2
        # Var of the sample variance for Laplace: (μ4 − σ⁴)/n with μ4 = 24 b⁴ = 6σ⁴.
        se = math.sqrt(5.0 / n) * var
        assert abs(float(np.mean(x * x)) - var) < 6 * se


@pytest.mark.parametrize("y", [-2.0, -0.7, 0.0, 1.3, 2.0])
@pytest.mark.parametrize("tau", [1, 2, 5, 50])
def test_thm3_bias_step(y: float, tau: int) -> None:
    """E[ŷ_τ − y]² ≤ E[ȳ²] P(|L| > 𝓛 ln τ) ≤ K/τ (Thm 3 proof, Sec. 4.3), by quadrature.

    ``ŷ = ȳ 1{|ȳ| ≤ b_τ}``, ``ȳ = y + L`` with ``|y| ≤ B + R``, ``b_τ = B + R + 𝓛 ln τ``.
    """
    B, R, eps = 1.0, 1.0, 1.0
    lap = mc.laplace_scale(B, R, eps)
    b = B + R + lap * math.log(tau)

    def dens(z: float) -> float:
        return float(stats.laplace.pdf(z, loc=y, scale=lap))

    bias_lo, _ = integrate.quad(lambda z: z * dens(z), -np.inf, -b)
    bias_hi, _ = integrate.quad(lambda z: z * dens(z), b, np.inf)
    bias = -(bias_lo + bias_hi)  # E[ŷ] − y = −E[ȳ 1{|ȳ| > b}]
    K = mc.ldp_reward_second_moment(B, R, eps)
    assert bias**2 <= K / tau + 1e-12
