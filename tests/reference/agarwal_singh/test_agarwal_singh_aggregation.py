"""Tests of Algorithm 2 / Lemma 3.3 (reference/agarwal_singh/aggregation.py).

Counts are checked against independent enumeration (bit arithmetic written here, not the tree's
helpers); the law of ``Z_t`` against numerical quadrature and exact binomial / chi-square tests.
Every Monte-Carlo test uses a fixed seed and rejects at p < 1e-6 (false-positive rate <= 1e-6
per test, Bonferroni-corrected where several p-values are combined).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from reference._typing import FloatArray
from reference.agarwal_singh.aggregation import (
    TreeBasedAggregation,
    laplace_scale_tree,
    laplace_scale_tree_paper,
    laplace_scale_tree_strict,
    laplace_sum_chernoff_sf,
    laplace_sum_ppf,
    laplace_sum_sf,
    laplace_tree_node_max_loss,
    lemma33_uniform_error_bound,
    log_T,
    nodes_per_leaf,
    noise_draws_per_release,
    padding_count,
    prefix_noise_shared_draws,
    prefix_noise_variance,
)
from reference.noise import GaussianVectorNoise, LaplaceNoise, RandomSource, ZeroNoise

P_REJECT = 1e-6


def _popcount(t: int) -> int:
    return bin(t).count("1")


def _intervals(t: int) -> set[tuple[int, int]]:
    """Dyadic decomposition of [1, t] as leaf intervals, by peeling the highest bit."""
    out: set[tuple[int, int]] = set()
    start = 1
    for j in reversed(range(t.bit_length())):
        if t & (1 << j):
            out.add((start, start + 2**j - 1))
            start += 2**j
    return out


def _h_enumerated(leaf: int, releases: range) -> int:
    used: set[tuple[int, int]] = set()
    for s in releases:
        used |= _intervals(s)
    return sum(1 for a, b in used if a <= leaf <= b)


# --------------------------------------------------------------------------------------------
# K, r_t, h
# --------------------------------------------------------------------------------------------


def test_K_matches_spec_vector_and_smallest_power_of_two() -> None:
    # K = max(1, ceil(log2 T)): T=1->1, 2->1, 3->2, 8->3, 16->4, 17->5, 1024->10, 1025->11
    expected = {1: 1, 2: 1, 3: 2, 8: 3, 16: 4, 17: 5, 1024: 10, 1025: 11}
    assert {T: noise_draws_per_release(T) for T in expected} == expected
    for T in range(2, 3000):
        k = 0
        while 2**k < T:
            k += 1
        assert noise_draws_per_release(T) == k


def test_base_two_is_forced_first_failure_of_natural_log_at_7() -> None:
    # with ceil(ln T), some t <= T has popcount(t) > ceil(ln T), first at T = 7
    failing = [
        T for T in range(2, 200) if math.ceil(math.log(T)) < max(_popcount(t) for t in range(T + 1))
    ]
    assert failing[:3] == [7, 15, 16]
    for T in range(1, 2049):
        assert max(_popcount(t) for t in range(T + 1)) <= noise_draws_per_release(T)


def test_padding_count_tops_up_to_K() -> None:
    for T in (1, 2, 3, 7, 8, 16, 17, 100):
        K = noise_draws_per_release(T)
        for t in range(T + 1):
            assert padding_count(t, T) == K - _popcount(t) >= 0
    with pytest.raises(ValueError, match=r"t must be in \[0, T\]"):
        padding_count(9, 8)


def test_nodes_per_leaf_spec_table_and_enumeration() -> None:
    # padded vs unpadded node counts: T=16: 4/5; T=17: 5/5; T=64: 6/7; T=100: 7/7; T=1024: 10/11; T=4096: 12/13
    table = {16: (4, 5), 17: (5, 5), 64: (6, 7), 100: (7, 7), 1024: (10, 11), 4096: (12, 13)}
    for T, (h_act, h_pre) in table.items():
        assert nodes_per_leaf(T, "actions") == h_act
        assert nodes_per_leaf(T, "prefix_sums") == h_pre
    for T in range(1, 70):
        worst_act = max(_h_enumerated(leaf, range(T)) for leaf in range(1, T + 1))
        worst_pre = max(_h_enumerated(leaf, range(1, T + 1)) for leaf in range(1, T + 1))
        assert nodes_per_leaf(T, "actions") == worst_act
        assert nodes_per_leaf(T, "prefix_sums") == worst_pre
    with pytest.raises(ValueError, match="view must be"):
        nodes_per_leaf(8, "nodes")  # type: ignore[arg-type]


def test_prefix_noise_shared_draws_spec_pairs() -> None:
    # (2,3): 1; (5,7): 1; (4,8): 0; (12,14): 2
    pairs = {(2, 3): 1, (5, 7): 1, (4, 8): 0, (12, 14): 2}
    for (s, t), shared in pairs.items():
        assert prefix_noise_shared_draws(s, t) == shared
        assert len(_intervals(s) & _intervals(t)) == shared


# --------------------------------------------------------------------------------------------
# The padded tree: exactness, node reuse, padding
# --------------------------------------------------------------------------------------------


class CountingNoise:
    """Every node draw is a distinct one-hot vector; padding draws add to a last 'pad' slot."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.node_draws = 0

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.slots + 1,)

    def sample(self, rng: RandomSource) -> FloatArray:
        out = np.zeros(self.slots + 1)
        out[self.node_draws] = 1.0
        self.node_draws += 1
        return out

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:
        out = np.zeros(self.slots + 1)
        out[self.slots] = float(j)
        return out


@pytest.mark.parametrize("T", [1, 2, 3, 7, 8, 16, 17, 100])
def test_zero_noise_gives_exact_prefix_sums(T: int) -> None:
    rng = np.random.default_rng(0)
    losses = rng.uniform(-1, 1, size=(T, 3))
    agg = TreeBasedAggregation(T, ZeroNoise((3,)), rng)
    np.testing.assert_array_equal(agg.release().value, np.zeros(3))
    for t in range(T):
        out = agg.step(losses[t])
        np.testing.assert_allclose(out.value, losses[: t + 1].sum(axis=0), rtol=1e-12, atol=1e-12)
    mats = rng.uniform(-1, 1, size=(T, 2, 2))
    agg2 = TreeBasedAggregation(T, ZeroNoise((2, 2)), rng)
    for t in range(T):
        np.testing.assert_allclose(agg2.step(mats[t]).value, mats[: t + 1].sum(axis=0), atol=1e-12)


@pytest.mark.parametrize("T", [1, 5, 16, 17, 37])
def test_every_release_has_K_draws_and_nodes_are_reused(T: int) -> None:
    noise = CountingNoise(4 * T)
    agg = TreeBasedAggregation(T, noise, np.random.default_rng(1))
    K = noise_draws_per_release(T)
    first_seen: dict[tuple[int, int], int] = {}
    releases = [agg.release()] + [agg.step(np.zeros(4 * T + 1)) for _ in range(T)]
    for t, rel in enumerate(releases):
        assert rel.t == t
        node_part = rel.noise[:-1]
        assert set(np.unique(node_part)) <= {0.0, 1.0}
        assert int(node_part.sum()) == _popcount(t)
        assert rel.noise[-1] == K - _popcount(t) == rel.pad_terms
        assert rel.noise_terms == K
        # the draw used for interval I is the same in every release that uses I
        tags = sorted(int(i) for i in np.flatnonzero(node_part))
        intervals = sorted(_intervals(t))
        assert len(tags) == len(intervals)
        for (level, index), tag in zip(
            sorted(rel.nodes, key=lambda n: (n[1] - 1) * 2 ** n[0]), tags, strict=True
        ):
            interval = ((index - 1) * 2**level + 1, index * 2**level)
            assert first_seen.setdefault(interval, tag) == tag
    # repeated release() returns the same object (padding drawn once per t)
    assert agg.release() is releases[-1]


def test_no_padding_releases_popcount_draws() -> None:
    T = 16
    noise = CountingNoise(64)
    agg = TreeBasedAggregation(T, noise, np.random.default_rng(2), pad=False)
    assert agg.release().noise_terms == 0
    for t in range(1, T + 1):
        rel = agg.step(np.zeros(65))
        assert rel.noise_terms == _popcount(t) and rel.pad_terms == 0


def test_same_seed_same_releases_and_loss_broadcast_over_replicates() -> None:
    def run(seed: int) -> FloatArray:
        agg = TreeBasedAggregation(9, LaplaceNoise((5, 2), 1.3), np.random.default_rng(seed))
        return np.stack([agg.step(np.array([1.0, -1.0])).value for _ in range(9)])

    np.testing.assert_array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))
    rel = run(3)
    assert rel.shape == (9, 5, 2)


def test_aggregation_validation() -> None:
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="T must be an integer >= 1"):
        TreeBasedAggregation(0, ZeroNoise((1,)), rng)
    agg = TreeBasedAggregation(1, ZeroNoise((2,)), rng)
    agg.step(np.ones(2))
    with pytest.raises(ValueError, match="at most T=1"):
        agg.step(np.ones(2))
    with pytest.raises(ValueError, match="finite"):
        TreeBasedAggregation(2, ZeroNoise((2,)), rng).step(np.array([np.nan, 0.0]))


# --------------------------------------------------------------------------------------------
# Calibration
# --------------------------------------------------------------------------------------------


def test_paper_calibration_node_epsilon_matches_spec_table() -> None:
    # eps = 1, symmetric Y with ||Y||_1 = 1 (Delta_1 = 2): cell = h * 2 / log T
    table_ln = {16: (2.89, 3.61), 17: (3.53, 3.53), 64: (2.89, 3.37), 1024: (2.89, 3.17)}
    table_log2 = {16: (2.00, 2.50), 17: (2.45, 2.45), 64: (2.00, 2.33), 1024: (2.00, 2.20)}
    for base, table in (("e", table_ln), ("2", table_log2)):
        for T, (e_act, e_pre) in table.items():
            lam = laplace_scale_tree_paper(1.0, T, 1.0, base)  # type: ignore[arg-type]
            assert lam == pytest.approx(math.log(T) if base == "e" else math.log2(T))
            assert laplace_tree_node_max_loss(lam, T, 2.0, "actions") == pytest.approx(
                e_act, abs=6e-3
            )
            assert laplace_tree_node_max_loss(lam, T, 2.0, "prefix_sums") == pytest.approx(
                e_pre, abs=6e-3
            )
            # [0,1] losses (Delta_1 = ||Y||_1 = 1): half
            assert laplace_tree_node_max_loss(lam, T, 1.0, "actions") == pytest.approx(
                e_act / 2, abs=4e-3
            )


@given(
    eps=st.floats(0.01, 10.0),
    T=st.integers(1, 5000),
    diam=st.floats(0.1, 10.0),
    view=st.sampled_from(["actions", "prefix_sums"]),
)
@settings(max_examples=60)
def test_strict_calibration_gives_exactly_epsilon(
    eps: float, T: int, diam: float, view: str
) -> None:
    lam = laplace_scale_tree_strict(eps, T, diam, view)  # type: ignore[arg-type]
    h = nodes_per_leaf(T, view)  # type: ignore[arg-type]
    if h > 0:
        assert laplace_tree_node_max_loss(lam, T, diam, view) == pytest.approx(eps, rel=1e-12)  # type: ignore[arg-type]
    else:
        assert lam == pytest.approx(diam / eps)


def test_calibration_dispatch_and_validation() -> None:
    strict = laplace_scale_tree(1.0, 16, Y_l1_radius=1.0, Y_l1_diameter=2.0)
    assert strict == laplace_scale_tree_strict(1.0, 16, 2.0)
    paper = laplace_scale_tree(1.0, 16, Y_l1_radius=1.0, Y_l1_diameter=2.0, mode="paper")
    assert paper == laplace_scale_tree_paper(1.0, 16, 1.0)
    with pytest.raises(ValueError, match="mode must be"):
        laplace_scale_tree(1.0, 16, Y_l1_radius=1.0, Y_l1_diameter=2.0, mode="loose")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="T must be an integer >= 2"):
        laplace_scale_tree_paper(1.0, 1, 1.0)
    with pytest.raises(ValueError, match="epsilon must be in"):
        laplace_scale_tree_strict(0.0, 16, 2.0)
    with pytest.raises(ValueError, match="base must be one of"):
        log_T(8, "10")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Law of Z_t (Lemma 3.3 "Distribution")
# --------------------------------------------------------------------------------------------


def _sf_by_quadrature(a: float, K: int, scale: float) -> float:
    """P(G1 - G2 > a), G_i ~ Gamma(K, scale): integral of P(G1 > a + g) f_{G2}(g)."""
    gamma = stats.gamma(K, scale=scale)
    lower = max(0.0, -a)
    value, _ = integrate.quad(lambda g: gamma.sf(a + g) * gamma.pdf(g), lower, np.inf, limit=200)
    return float(value) + (float(gamma.cdf(lower)) if lower > 0 else 0.0)


@pytest.mark.parametrize("K", [1, 2, 3, 5, 10, 20])
def test_laplace_sum_sf_matches_quadrature(K: int) -> None:
    for a in (-7.0, -1.0, 0.0, 0.3, 2.0, 5.0, 15.0):
        assert laplace_sum_sf(a, K, 1.5) == pytest.approx(_sf_by_quadrature(a, K, 1.5), abs=1e-9)
    assert laplace_sum_sf(0.0, K, 1.0) == pytest.approx(0.5, abs=1e-14)


def test_laplace_sum_sf_single_draw_closed_form_and_ppf_inverse() -> None:
    for a in (0.0, 0.5, 3.0):
        assert laplace_sum_sf(a, 1, 2.0) == pytest.approx(math.exp(-a / 2.0) / 2.0, rel=1e-13)
    for K in (1, 4, 11):
        for q in (0.01, 0.3, 0.5, 0.9, 1 - 1e-8):
            x = laplace_sum_ppf(q, K, 0.7)
            assert 1.0 - laplace_sum_sf(x, K, 0.7) == pytest.approx(q, abs=1e-10)


@given(a=st.floats(0.01, 60.0), K=st.integers(1, 30))
@settings(max_examples=80)
def test_chernoff_bound_dominates_exact_tail(a: float, K: int) -> None:
    assert laplace_sum_chernoff_sf(a, K, 1.0) >= laplace_sum_sf(a, K, 1.0) * (1 - 1e-9)


def _prefix_noise_replicates(
    T: int, noise_scale: float, R: int, seed: int, *, pad: bool, law: str
) -> FloatArray:
    """Z_0..Z_T of R independent one-dimensional trees (the replicate axis is the noise shape)."""
    noise = (
        LaplaceNoise((R,), noise_scale)
        if law == "laplace"
        else GaussianVectorNoise((R,), noise_scale)
    )
    agg = TreeBasedAggregation(T, noise, np.random.default_rng(seed), pad=pad)
    out = [agg.release().noise]
    for _ in range(T):
        out.append(agg.step(np.zeros(R)).noise)
    return np.stack(out)


def test_marginal_of_every_Z_t_is_sum_of_K_laplace_exact_binomial() -> None:
    T, lam, R = 16, 1.5, 40_000
    K = noise_draws_per_release(T)
    Z = _prefix_noise_replicates(T, lam, R, seed=11, pad=True, law="laplace")
    a = lam * math.sqrt(K)
    p_exact = laplace_sum_sf(a, K, lam)
    pvalues = [stats.binomtest(int((Z[t] > a).sum()), R, p_exact).pvalue for t in range(T + 1)]
    assert min(pvalues) > P_REJECT / (T + 1)


def test_without_padding_the_marginals_differ_negative_control() -> None:
    # Same test must reject when padding is off: Z_1 is then a single Laplace draw (popcount 1).
    T, lam, R = 16, 1.5, 40_000
    K = noise_draws_per_release(T)
    Z = _prefix_noise_replicates(T, lam, R, seed=12, pad=False, law="laplace")
    a = lam * math.sqrt(K)
    p_exact = laplace_sum_sf(a, K, lam)
    assert stats.binomtest(int((Z[1] > a).sum()), R, p_exact).pvalue < P_REJECT


def test_gaussian_differences_have_variance_from_shared_nodes_exact_chi_square() -> None:
    # Var(Z_s - Z_t) = sigma^2 (2K - 2|S_s cap S_t|); sum of squared standardised differences ~ chi2(R)
    T, sigma, R = 37, 0.8, 20_000
    K = noise_draws_per_release(T)
    Z = _prefix_noise_replicates(T, sigma, R, seed=13, pad=True, law="gaussian")
    pairs = [(2, 3), (5, 7), (4, 8), (12, 14), (0, 37), (16, 32)]
    pvalues = []
    for s, t in pairs:
        var = sigma**2 * (2 * K - 2 * prefix_noise_shared_draws(s, t))
        statistic = float(((Z[s] - Z[t]) ** 2).sum() / var)
        cdf = float(stats.chi2.cdf(statistic, R))
        pvalues.append(2 * min(cdf, 1 - cdf))
    # marginal variance K sigma^2 (Thm A.1)
    statistic = float((Z[20] ** 2).sum() / prefix_noise_variance(sigma**2, T))
    cdf = float(stats.chi2.cdf(statistic, R))
    pvalues.append(2 * min(cdf, 1 - cdf))
    assert min(pvalues) > P_REJECT / len(pvalues)


def test_uniform_error_bound_single_release_is_exact_quantile() -> None:
    # N = 1, one release: P(|Z_t| > b) = beta exactly for the exact method.
    T, lam, R, beta = 32, 1.0, 50_000, 0.05
    b = lemma33_uniform_error_bound(node_law="laplace", scale=lam, T=T, N=1, releases=1, beta=beta)
    assert 2 * laplace_sum_sf(b, noise_draws_per_release(T), lam) == pytest.approx(beta, rel=1e-9)
    Z = _prefix_noise_replicates(T, lam, R, seed=14, pad=True, law="laplace")
    assert stats.binomtest(int((np.abs(Z[9]) > b).sum()), R, beta).pvalue > P_REJECT
    chern = lemma33_uniform_error_bound(
        node_law="laplace", scale=lam, T=T, N=1, releases=1, beta=beta, method="chernoff"
    )
    assert chern > b
    gauss = lemma33_uniform_error_bound(
        node_law="gaussian", scale=2.0, T=T, N=1, releases=1, beta=beta
    )
    assert gauss == pytest.approx(2.0 * math.sqrt(5) * stats.norm.isf(beta / 2), rel=1e-12)


def test_uniform_error_bound_closed_forms_by_hand() -> None:
    """Chan–Shi–Song (2011, Cor. 2.9) at K = 5, β' = 0.01: 14.99λ (the value found when the bound was first checked);
    the crude union over all D = N(2T + K·releases) scalar draws: Kλ ln(D/β)."""
    css = lemma33_uniform_error_bound(
        node_law="laplace", scale=2.0, T=32, N=1, releases=1, beta=0.01, method="chan_shi_song"
    )
    log_term = math.log(2 / 0.01)
    assert css == pytest.approx(2.0 * math.sqrt(log_term) * math.sqrt(8 * log_term), rel=1e-12)
    assert css / 2.0 == pytest.approx(14.99, abs=0.01)
    union = lemma33_uniform_error_bound(
        node_law="laplace", scale=2.0, T=32, N=3, releases=33, beta=0.01, method="union"
    )
    assert union == pytest.approx(5 * 2.0 * math.log(3 * (64 + 5 * 33) / 0.01), rel=1e-12)
    with pytest.raises(ValueError, match="method must be 'exact'"):
        lemma33_uniform_error_bound(
            node_law="gaussian", scale=1.0, T=8, N=1, releases=1, beta=0.1, method="union"
        )


def test_uniform_error_bound_holds_over_all_releases() -> None:
    # P(max_{t <= T} |Z_t| > b) <= beta (union bound over T+1 releases): one-sided exact test.
    T, lam, R, beta = 31, 1.0, 20_000, 0.1
    b = lemma33_uniform_error_bound(
        node_law="laplace", scale=lam, T=T, N=1, releases=T + 1, beta=beta
    )
    Z = _prefix_noise_replicates(T, lam, R, seed=15, pad=True, law="laplace")
    violations = int((np.abs(Z).max(axis=0) > b).sum())
    assert stats.binomtest(violations, R, beta, alternative="greater").pvalue > P_REJECT
    # the looser closed forms hold too, and are looser in the order Chernoff < Chan–Shi–Song < union
    looser = {
        method: lemma33_uniform_error_bound(
            node_law="laplace", scale=lam, T=T, N=1, releases=T + 1, beta=beta, method=method
        )
        for method in ("chernoff", "chan_shi_song", "union")
    }
    assert b < looser["chernoff"] < looser["chan_shi_song"] < looser["union"]
    for bound in looser.values():
        assert int((np.abs(Z).max(axis=0) > bound).sum()) <= violations
    with pytest.raises(ValueError, match="node_law must be"):
        lemma33_uniform_error_bound(node_law="cauchy", scale=1, T=4, N=1, releases=1, beta=0.1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="beta must be in"):
        lemma33_uniform_error_bound(node_law="laplace", scale=1, T=4, N=1, releases=1, beta=1.0)
