"""Tests of ``reference.shariff_sheffet.environments`` (Shariff & Sheffet App. D).

App. D: θ* uniform on the unit sphere; every round one optimal unit action with
``⟨x, θ*⟩ = 0.75`` and ``K − 1`` sub-optimal unit actions uniform on
``{x : ‖x‖ = 1, ⟨x, θ*⟩ ∈ [−0.75, 0.75 − Δ]}``; ±1 rewards with mean ``⟨x, θ*⟩`` (D.1 also
``mean + N(0, 1)``).  App. D: head ``h = 2b − 1`` with ``b ~ Beta((d−1)/2, (d−1)/2)`` truncated
to the band, tail uniform on the sphere of ``R^{d−1}``; reward tables from one common ``u_t``.

Every stochastic test uses a fixed seed ``np.random.default_rng(<int>)`` and states its sample
size, statistic and threshold.  Distributional tests compare with CDFs written out in closed form
here (not with the Beta law the code uses).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray
from scipy import stats

from reference.shariff_sheffet import environments as env
from reference.shariff_sheffet.environments import LinearGapEnvironment

FloatArray = NDArray[np.float64]

PROPS = settings(deadline=None, max_examples=40, derandomize=True, database=None)

OPT = 0.75
LOW = -0.75


# ------------------------------------------------------------------------------------------------
# θ* and the rotation Q
# ------------------------------------------------------------------------------------------------


@PROPS
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 50))
def test_sample_unit_vector_has_unit_norm(seed: int, d: int) -> None:
    v = env.sample_unit_vector(np.random.default_rng(seed), d)
    assert v.shape == (d,)
    assert abs(float(np.linalg.norm(v)) - 1.0) <= 1e-12


def test_sample_unit_vector_is_centred_and_isotropic() -> None:
    # N = 20000 draws, d = 3: each coordinate has mean 0 and variance 1/3 (uniform on S²);
    # every coordinate mean within 5 s.e. = 5 sqrt(1/(3N)), every second moment within 5 s.e.
    # (Var(v_i²) = E v_i⁴ − 1/9 = 1/5 − 1/9 = 4/45).
    rng = np.random.default_rng(20240611)
    n, d = 20000, 3
    v = np.array([env.sample_unit_vector(rng, d) for _ in range(n)])
    assert np.all(np.abs(v.mean(axis=0)) <= 5.0 * math.sqrt(1.0 / (3.0 * n)))
    assert np.all(np.abs((v**2).mean(axis=0) - 1.0 / 3.0) <= 5.0 * math.sqrt(4.0 / 45.0 / n))


theta_vectors = st.integers(1, 10).flatmap(
    lambda d: st.lists(
        st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False), min_size=d, max_size=d
    )
)


@PROPS
@given(values=theta_vectors)
def test_rotation_to_is_orthogonal_with_first_column_theta(values: list[float]) -> None:
    theta = np.array(values, dtype=np.float64)
    norm = float(np.linalg.norm(theta))
    assume(norm >= 1e-6)  # θ = 0 is rejected (test_sampler_bad_input)
    Q = env.rotation_to(theta)
    d = theta.size
    assert Q.shape == (d, d)
    assert np.allclose(Q.T @ Q, np.eye(d), rtol=0.0, atol=1e-12)
    assert np.allclose(Q @ Q.T, np.eye(d), rtol=0.0, atol=1e-12)
    assert np.allclose(Q[:, 0], theta / norm, rtol=0.0, atol=1e-12)  # Q e1 = θ/‖θ‖, not −θ/‖θ‖


def test_rotation_to_sign_convention_for_negative_first_coordinate() -> None:
    # QR's R[0, 0] is negative here for numpy's Householder convention; the code must flip Q.
    theta = np.array([-3.0, 4.0])
    Q = env.rotation_to(theta)
    assert np.allclose(Q[:, 0], [-0.6, 0.8], rtol=0.0, atol=1e-15)
    assert Q[:, 0] @ theta == pytest.approx(5.0, rel=1e-14)


# ------------------------------------------------------------------------------------------------
# One decision set: structure
# ------------------------------------------------------------------------------------------------


@PROPS
@given(
    seed=st.integers(0, 2**32 - 1),
    d=st.integers(2, 8),
    num_arms=st.integers(1, 30),
    gap=st.floats(0.0, 1.49),
)
def test_sample_gap_arms_structure(seed: int, d: int, num_arms: int, gap: float) -> None:
    rng = np.random.default_rng(seed)
    theta = env.sample_unit_vector(rng, d)
    Q = env.rotation_to(theta)
    arms, means = env.sample_gap_arms(rng, Q, num_arms, gap)
    assert arms.shape == (num_arms, d)
    assert means.shape == (num_arms,)
    # all arms unit norm (L = 1)
    assert np.allclose(np.linalg.norm(arms, axis=1), 1.0, rtol=0.0, atol=1e-12)
    # means are the arms' projections on θ*
    assert np.allclose(arms @ theta, means, rtol=0.0, atol=1e-12)
    # exactly one optimal arm, with mean 0.75; all others in the band [−0.75, 0.75 − Δ]
    best = np.flatnonzero(means == OPT)
    assert best.size == 1
    others = np.delete(means, best[0])
    assert np.all(others >= LOW)
    assert np.all(others <= OPT - gap)
    if gap > 0.0:
        assert np.all(others < OPT)  # the gap Δ separates the optimal arm from every other arm
        assert np.all(means[best[0]] - others >= gap)


def test_optimal_arm_index_is_uniform() -> None:
    # R = 2000 decision sets with K = 5 arms; chi-square goodness-of-fit of the optimal index
    # against the uniform law on {0..4} (expected 400 per cell); pass if p > 1e-3.
    rng = np.random.default_rng(5150)
    Q = env.rotation_to(env.sample_unit_vector(rng, 4))
    counts = np.zeros(5, dtype=np.int64)
    for _ in range(2000):
        _, means = env.sample_gap_arms(rng, Q, 5, 0.1)
        counts[int(np.argmax(means))] += 1
    assert counts.sum() == 2000
    assert stats.chisquare(counts).pvalue > 1e-3
    # sanity of the statistic: a biased index (always last) is rejected
    assert stats.chisquare(np.array([0, 0, 0, 0, 2000])).pvalue < 1e-12


# ------------------------------------------------------------------------------------------------
# Heads: the exact truncated law (closed-form CDFs)
# ------------------------------------------------------------------------------------------------


def _beta22_cdf(x: FloatArray) -> FloatArray:
    """CDF of Beta(2, 2): ∫₀ˣ 6t(1−t) dt = 3x² − 2x³ (the head law (1+h)/2 for d = 5)."""
    return np.asarray(3.0 * x**2 - 2.0 * x**3, dtype=np.float64)


def _arcsine_cdf(x: FloatArray) -> FloatArray:
    """CDF of Beta(1/2, 1/2): (2/π) arcsin(√x) (the head law for d = 2, h = cos φ)."""
    return np.asarray(2.0 / math.pi * np.arcsin(np.sqrt(x)), dtype=np.float64)


def _uniform01_cdf(x: FloatArray) -> FloatArray:
    """CDF of Beta(1, 1) (d = 3: Archimedes' hat-box theorem, h is uniform)."""
    return np.asarray(x, dtype=np.float64)


BASE_CDFS = {2: _arcsine_cdf, 3: _uniform01_cdf, 5: _beta22_cdf}


def _truncated_head_cdf(d: int, low: float, high: float, h: FloatArray) -> FloatArray:
    """CDF of h = 2B − 1, B ~ Beta((d−1)/2, (d−1)/2) truncated to [(1+low)/2, (1+high)/2]."""
    G = BASE_CDFS[d]
    lo = G(np.array([(1.0 + low) / 2.0]))[0]
    hi = G(np.array([(1.0 + high) / 2.0]))[0]
    x = (1.0 + np.clip(h, low, high)) / 2.0
    return np.asarray((G(x) - lo) / (hi - lo), dtype=np.float64)


def _cdf_fn(d: int, low: float, high: float) -> Callable[[Any], Any]:
    """The truncated head CDF as a callable for scipy.stats.kstest (which passes an array)."""

    def cdf(h: Any) -> Any:
        return _truncated_head_cdf(d, low, high, np.asarray(h, dtype=np.float64))

    return cdf


def _uniform_band_cdf(low: float, high: float, h: FloatArray) -> FloatArray:
    return np.asarray((np.clip(h, low, high) - low) / (high - low), dtype=np.float64)


# KS design for d = 5, band [−0.75, 0.65] (Δ = 0.1):
#   N = 10000 sub-optimal heads (400 decision sets of K = 26 arms: 25 sub-optimal arms each).
#   Correct sampler: pass if the KS p-value > 1e-3, i.e. a false-positive rate of 1e-3 for a
#   random seed (the seed is fixed, so the outcome is deterministic).
#   Broken sampler (heads uniform on the band, not Beta-weighted): the two CDFs differ by
#   D = sup|F_unif − F_trunc| ≈ 0.0525 (at h ≈ −0.41, computed in the test).  By the DKW–Massart
#   inequality, with probability >= 0.99 the broken sample's empirical CDF is within
#   sqrt(ln(200)/(2N)) ≈ 0.0163 of F_unif, so its KS statistic against F_trunc is >= 0.0525 −
#   0.0163 = 0.0362, whose p-value is <= 2 exp(−2 N 0.0362²) ≈ 8e-12 < 1e-6.  So N = 10000 gives
#   power >= 0.99 to reject the broken sampler at p < 1e-6 (N >= 6783 would suffice; a
#   simulation with 300 seeds while writing this test rejected in 300/300, max p = 1.5e-14).
KS_N = 10000
KS_D = 5
KS_GAP = 0.1


def _suboptimal_heads(seed: int, d: int, gap: float, rounds: int, num_arms: int) -> FloatArray:
    rng = np.random.default_rng(seed)
    Q = env.rotation_to(env.sample_unit_vector(rng, d))
    out = []
    for _ in range(rounds):
        _, means = env.sample_gap_arms(rng, Q, num_arms, gap)
        out.append(np.delete(means, int(np.argmax(means))))
    return np.concatenate(out)


def test_ks_power_design_is_valid() -> None:
    grid = np.linspace(LOW, OPT - KS_GAP, 200001)
    d_sup = float(
        np.max(
            np.abs(
                _uniform_band_cdf(LOW, OPT - KS_GAP, grid)
                - _truncated_head_cdf(KS_D, LOW, OPT - KS_GAP, grid)
            )
        )
    )
    assert abs(d_sup - 0.0525) <= 5e-4
    dkw_99 = math.sqrt(math.log(200.0) / (2.0 * KS_N))  # 0.99 DKW band of the broken sample
    worst_stat = d_sup - dkw_99
    assert 2.0 * math.exp(-2.0 * KS_N * worst_stat**2) < 1e-6  # p-value bound at power 0.99


def test_suboptimal_heads_follow_truncated_beta_law_d5() -> None:
    heads = _suboptimal_heads(seed=8675309, d=KS_D, gap=KS_GAP, rounds=400, num_arms=26)
    assert heads.size == KS_N
    res = stats.kstest(heads, _cdf_fn(KS_D, LOW, OPT - KS_GAP))
    assert res.pvalue > 1e-3


def test_ks_catches_uniform_heads_broken_variant() -> None:
    # The broken sampler: heads uniform on [−0.75, 0.65] with the same N and a fixed seed.
    broken = np.random.default_rng(8675309).uniform(LOW, OPT - KS_GAP, size=KS_N)
    res = stats.kstest(broken, _cdf_fn(KS_D, LOW, OPT - KS_GAP))
    assert res.pvalue < 1e-6


@pytest.mark.parametrize(
    ("d", "low", "high", "seed"),
    [
        (2, -0.75, 0.65, 11),
        (2, -0.75, 0.75, 12),
        (3, -0.75, 0.65, 13),
        (3, -0.2, 0.9, 14),
        (5, -0.75, 0.75, 15),
        (5, 0.5, 0.95, 16),
    ],
)
def test_sample_band_heads_exact_law(d: int, low: float, high: float, seed: int) -> None:
    # N = 10000 heads; KS against the closed-form truncated CDF; pass if p > 1e-3.
    heads = env.sample_band_heads(np.random.default_rng(seed), d, 10000, low, high)
    assert heads.shape == (10000,)
    assert np.all((heads >= low) & (heads <= high))
    res = stats.kstest(heads, _cdf_fn(d, low, high))
    assert res.pvalue > 1e-3


def test_sample_band_heads_size_zero() -> None:
    out = env.sample_band_heads(np.random.default_rng(0), 4, 0, -0.75, 0.65)
    assert out.shape == (0,)


# ------------------------------------------------------------------------------------------------
# Tails: the direction orthogonal to θ* is uniform
# ------------------------------------------------------------------------------------------------


def test_tail_directions_are_uniform_d3() -> None:
    # d = 3: 200 decision sets × 50 arms = N = 10000 tails w ∈ S¹ (recovered as the last d − 1
    # coordinates of Qᵀx, divided by sqrt(1 − h²)).  Uniform on S¹: E w = 0 (Var w_i = 1/2) and
    # E w wᵀ = I/2 (Var w_i² = Var w_1 w_2 = 1/8).  Each statistic within 5 standard errors.
    rng = np.random.default_rng(4242)
    d = 3
    Q = env.rotation_to(env.sample_unit_vector(rng, d))
    tails = []
    for _ in range(200):
        arms, means = env.sample_gap_arms(rng, Q, 50, KS_GAP)
        aligned = arms @ Q  # Qᵀ x as rows
        assert np.allclose(aligned[:, 0], means, rtol=0.0, atol=1e-12)
        tails.append(aligned[:, 1:] / np.sqrt(1.0 - means**2)[:, None])
    w = np.concatenate(tails)
    n = w.shape[0]
    assert n == 10000
    assert np.allclose(np.linalg.norm(w, axis=1), 1.0, rtol=0.0, atol=1e-9)
    se_mean = math.sqrt(0.5 / n)
    assert np.all(np.abs(w.mean(axis=0)) <= 5.0 * se_mean)
    se_second = math.sqrt(0.125 / n)
    second = (w.T @ w) / n
    assert np.all(np.abs(second - 0.5 * np.eye(2)) <= 5.0 * se_second)


def test_tail_mean_check_catches_a_biased_direction() -> None:
    # The statistic above has power: a tail confined to a half-circle (w_2 >= 0) fails it.
    rng = np.random.default_rng(4243)
    g = rng.standard_normal((10000, 2))
    w = g / np.linalg.norm(g, axis=1, keepdims=True)
    w[:, 1] = np.abs(w[:, 1])
    assert np.abs(w.mean(axis=0)).max() > 5.0 * math.sqrt(0.5 / 10000)


# ------------------------------------------------------------------------------------------------
# Reward tables
# ------------------------------------------------------------------------------------------------

TABLE_MEANS = np.array([-0.9, -0.3, 0.0, 0.4, 0.65, 0.75])


def _monotone_coupled(tables: FloatArray, means: FloatArray) -> bool:
    """Whenever a lower-mean arm gets +1, every higher-mean arm gets +1 (per draw)."""
    order = np.argsort(means, kind="stable")
    sorted_tables = tables[:, order]
    return bool(np.all(np.diff(sorted_tables, axis=1) >= 0.0))


def test_rademacher_table_values_and_means() -> None:
    # N = 20000 tables; y_a ∈ {−1, +1}; E y_a = μ_a, s.e. sqrt((1 − μ_a²)/N); pass within 5 s.e.
    rng = np.random.default_rng(777)
    n = 20000
    tables = np.array([env.rademacher_reward_table(rng, TABLE_MEANS) for _ in range(n)])
    assert tables.shape == (n, TABLE_MEANS.size)
    assert set(np.unique(tables).tolist()) == {-1.0, 1.0}
    se = np.sqrt((1.0 - TABLE_MEANS**2) / n)
    assert np.all(np.abs(tables.mean(axis=0) - TABLE_MEANS) <= 5.0 * se)


def test_rademacher_table_is_monotone_coupling() -> None:
    # One common u per table: higher-mean arms get +1 whenever lower-mean arms do.
    rng = np.random.default_rng(778)
    means = np.array([0.3, -0.5, 0.75, 0.3, -0.1])  # unsorted, with a tie
    tables = np.array([env.rademacher_reward_table(rng, means) for _ in range(5000)])
    assert _monotone_coupled(tables, means)
    assert np.all(tables[:, 0] == tables[:, 3])  # equal means ⇒ equal rewards
    # the check has power: independent ±1 draws with the same marginals are not coupled
    indep = np.where(rng.uniform(-1.0, 1.0, size=tables.shape) < means, 1.0, -1.0)
    assert not _monotone_coupled(indep, means)


def test_rademacher_table_extreme_means() -> None:
    rng = np.random.default_rng(779)
    tables = np.array([env.rademacher_reward_table(rng, np.array([-1.0, 1.0])) for _ in range(500)])
    assert np.all(tables[:, 0] == -1.0)  # P(u < −1) = 0
    assert np.all(tables[:, 1] == 1.0)  # P(u < 1) = 1


def test_gaussian_table_is_mean_plus_common_standard_normal() -> None:
    # N = 20000 tables; z = y − μ must be identical across arms in a table; z ~ N(0, 1) by KS
    # (p > 1e-3); its mean within 5 s.e. = 5/sqrt(N) of 0.
    rng = np.random.default_rng(31337)
    n = 20000
    tables = np.array([env.gaussian_reward_table(rng, TABLE_MEANS) for _ in range(n)])
    z = tables - TABLE_MEANS
    assert np.all(np.ptp(z, axis=1) <= 1e-12)
    z0 = z[:, 0]
    assert abs(float(z0.mean())) <= 5.0 / math.sqrt(n)
    assert stats.kstest(z0, "norm").pvalue > 1e-3
    # σ scales the common noise
    rng2 = np.random.default_rng(31338)
    z2 = np.array([env.gaussian_reward_table(rng2, TABLE_MEANS, 2.0) for _ in range(n)])[:, 0]
    assert stats.kstest((z2 - TABLE_MEANS[0]) / 2.0, "norm").pvalue > 1e-3
    # σ = 0 gives the means exactly
    assert np.array_equal(env.gaussian_reward_table(rng2, TABLE_MEANS, 0.0), TABLE_MEANS)


# ------------------------------------------------------------------------------------------------
# LinearGapEnvironment
# ------------------------------------------------------------------------------------------------


def _rounds(seed: int, n: int, **kwargs: Any) -> list[env.DecisionRound]:
    e = LinearGapEnvironment(rng=np.random.default_rng(seed), **kwargs)
    return [e.next_round() for _ in range(n)]


@pytest.mark.parametrize("reward_model", ["rademacher", "gaussian"])
def test_environment_reproducible_with_same_seed(reward_model: str) -> None:
    kw: dict[str, Any] = {"d": 4, "num_arms": 16, "gap": 0.1, "reward_model": reward_model}
    a = _rounds(2024, 30, **kw)
    b = _rounds(2024, 30, **kw)
    for ra, rb in zip(a, b, strict=True):
        assert np.array_equal(ra.arms, rb.arms)
        assert np.array_equal(ra.means, rb.means)
        assert np.array_equal(ra.rewards, rb.rewards)
    c = _rounds(2025, 30, **kw)
    assert not np.array_equal(a[0].arms, c[0].arms)
    e1 = LinearGapEnvironment(4, 16, 0.1, np.random.default_rng(2024))
    e2 = LinearGapEnvironment(4, 16, 0.1, np.random.default_rng(2024))
    assert np.array_equal(e1.theta, e2.theta)


@pytest.mark.parametrize("reward_model", ["rademacher", "gaussian"])
def test_environment_rounds_are_consistent(reward_model: str) -> None:
    e = LinearGapEnvironment(
        5, 25, 0.1, np.random.default_rng(99), reward_model=cast(Any, reward_model)
    )
    assert abs(float(np.linalg.norm(e.theta)) - 1.0) <= 1e-12
    assert np.allclose(e.rotation[:, 0], e.theta, rtol=0.0, atol=1e-12)
    for _ in range(50):
        r = e.next_round()
        assert r.arms.shape == (25, 5)
        assert np.allclose(np.linalg.norm(r.arms, axis=1), 1.0, rtol=0.0, atol=1e-12)
        assert np.allclose(r.arms @ e.theta, r.means, rtol=0.0, atol=1e-12)
        best = int(np.argmax(r.means))
        assert r.means[best] == OPT
        assert np.sum(r.means == OPT) == 1
        assert r.pseudo_regret(best) == 0.0
        worst = int(np.argmin(r.means))
        assert r.pseudo_regret(worst) == pytest.approx(OPT - r.means[worst], abs=0.0)
        assert all(r.pseudo_regret(i) >= 0.1 for i in range(25) if i != best)
        if reward_model == "rademacher":
            assert set(np.unique(r.rewards).tolist()) <= {-1.0, 1.0}
            assert _monotone_coupled(r.rewards[None, :], r.means)
        else:
            assert np.ptp(r.rewards - r.means) <= 1e-12


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"d": 1}, r"^d must"),
        ({"d": 0}, r"^d must"),
        ({"d": 3.0}, r"^d must"),
        ({"num_arms": 0}, r"^num_arms must"),
        ({"gap": -0.1}, r"^gap must"),
        ({"gap": 1.5}, r"^gap must"),
        ({"gap": 2.0}, r"^gap must"),
        ({"gap": float("nan")}, r"^gap must"),
        ({"gap": float("inf")}, r"^gap must"),
        ({"reward_model": "bernoulli"}, r"^reward_model must"),
    ],
)
def test_environment_bad_input(kwargs: dict[str, Any], pattern: str) -> None:
    base: dict[str, Any] = {"d": 3, "num_arms": 9, "gap": 0.1}
    LinearGapEnvironment(rng=np.random.default_rng(0), **base)  # the baseline is valid
    with pytest.raises(ValueError, match=pattern):
        LinearGapEnvironment(rng=np.random.default_rng(0), **dict(base, **kwargs))


def test_environment_gap_range_boundary() -> None:
    LinearGapEnvironment(3, 9, 0.0, np.random.default_rng(1))  # Δ = 0: no structured gap (D.2)
    LinearGapEnvironment(3, 9, 1.4999, np.random.default_rng(1)).next_round()
    with pytest.raises(ValueError, match=r"^gap must"):
        LinearGapEnvironment(3, 9, 1.5, np.random.default_rng(1))


# ------------------------------------------------------------------------------------------------
# Bad input to the samplers
# ------------------------------------------------------------------------------------------------


def _q(d: int) -> FloatArray:
    return env.rotation_to(env.sample_unit_vector(np.random.default_rng(3), d))


@pytest.mark.parametrize(
    ("call", "pattern"),
    [
        (lambda r: env.sample_unit_vector(r, 0), r"^d must"),
        (lambda r: env.rotation_to(np.zeros(3)), r"^theta must"),
        (lambda r: env.rotation_to(np.ones((2, 2))), r"^theta must"),
        (lambda r: env.rotation_to(np.array([1.0, np.nan])), r"^theta must"),
        (lambda r: env.sample_band_heads(r, 1, 5, -0.5, 0.5), r"^d must"),
        (lambda r: env.sample_band_heads(r, 3, -1, -0.5, 0.5), r"^size must"),
        (lambda r: env.sample_band_heads(r, 3, 5, -1.5, 0.5), r"^low must"),
        (lambda r: env.sample_band_heads(r, 3, 5, 1.0, 1.0), r"^low must"),
        (lambda r: env.sample_band_heads(r, 3, 5, 0.5, 0.5), r"^high must"),
        (lambda r: env.sample_band_heads(r, 3, 5, 0.5, 1.5), r"^high must"),
        (lambda r: env.sample_gap_arms(r, _q(3), 0, 0.1), r"^num_arms must"),
        (lambda r: env.sample_gap_arms(r, _q(3), 5, -0.1), r"^gap must"),
        (lambda r: env.sample_gap_arms(r, _q(3), 5, 1.5), r"^gap must"),
        (lambda r: env.sample_gap_arms(r, _q(3), 5, float("nan")), r"^gap must"),
        (lambda r: env.sample_gap_arms(r, _q(3)[:, :2], 5, 0.1), r"^rotation must"),
        (lambda r: env.sample_gap_arms(r, np.ones((1, 1)), 5, 0.1), r"^rotation must"),
        (lambda r: env.sample_gap_arms(r, np.ones(3), 5, 0.1), r"^rotation must"),
        (lambda r: env.sample_gap_arms(r, _q(3), 5, 0.1, optimal_mean=1.5), r"^optimal_mean must"),
        (lambda r: env.rademacher_reward_table(r, np.array([0.2, 1.5])), r"^means must"),
        (lambda r: env.rademacher_reward_table(r, np.array([0.2, np.nan])), r"^means must"),
        (lambda r: env.rademacher_reward_table(r, np.zeros((2, 2))), r"^means must"),
        (lambda r: env.gaussian_reward_table(r, np.zeros(2), -1.0), r"^sigma must"),
        (lambda r: env.gaussian_reward_table(r, np.array([np.inf]), 1.0), r"^means must"),
    ],
)
def test_sampler_bad_input(call: Any, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        call(np.random.default_rng(0))
