"""Distribution checks of the node-noise samplers (reference/noise.py).

Each check uses a fixed seed and states its false-alarm rate; each comes with a deliberately
broken sampler that the same check rejects.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from reference._typing import FloatArray
from reference.noise import (
    GaussianVectorNoise,
    LaplaceNoise,
    NodeNoise,
    SymmetricGaussianNoise,
    WishartNoise,
    ZeroNoise,
)

KS_LEVEL = 1e-3  # per-test false-alarm rate of the KS checks below


def _draws(noise: NodeNoise, reps: int, seed: int) -> FloatArray:
    rng = np.random.default_rng(seed)
    return np.stack([noise.sample(rng) for _ in range(reps)])


def test_all_laws_satisfy_the_protocol() -> None:
    laws: list[object] = [
        WishartNoise(3, 5, 2.0),
        SymmetricGaussianNoise(3, 1.0),
        GaussianVectorNoise((4,), 1.0),
        LaplaceNoise((4,), 1.0),
        ZeroNoise((2, 2)),
    ]
    for law in laws:
        assert isinstance(law, NodeNoise)


def test_wishart_mean_is_k_scale_identity() -> None:
    # E[W] = k·s·I, Var(W_ii) = 2k s², Var(W_ij) = k s² (i != j).  N = 4000 draws; each of the 9
    # entry means is accepted within 5 standard errors (false alarm < 6e-7 per entry).
    p, k, s, reps = 3, 10, 2.0, 4000
    draws = _draws(WishartNoise(p, k, s), reps, seed=11)
    mean = draws.mean(axis=0)
    sd = np.where(np.eye(p) == 1, math.sqrt(2 * k) * s, math.sqrt(k) * s)
    z = (mean - k * s * np.eye(p)) / (sd / math.sqrt(reps))
    assert np.all(np.abs(z) < 5)


def test_wishart_diagonal_is_scaled_chi_square_and_wrong_scale_is_caught() -> None:
    # W_ii / s ~ χ²_k exactly.  KS at level 1e-3 on 2000 draws.  A sampler that uses L̃ instead of
    # L̃² (scale √s instead of s, the paper's Sec. 4.1 typo) shifts the mean by a factor √2: rejected.
    p, k, s, reps = 3, 12, 2.0, 2000
    good = _draws(WishartNoise(p, k, s), reps, seed=12)[:, 0, 0] / s
    assert stats.kstest(good, stats.chi2(k).cdf).pvalue > KS_LEVEL
    broken = _draws(WishartNoise(p, k, math.sqrt(s)), reps, seed=12)[:, 0, 0] / s
    assert stats.kstest(broken, stats.chi2(k).cdf).pvalue < 1e-6


def test_wishart_sample_sum_equals_sum_of_draws_in_law() -> None:
    # sum of j draws of W_p(sI, k) is W_p(sI, jk) (paper footnote 3): two-sample KS on the trace
    law = WishartNoise(2, 4, 1.5)
    rng = np.random.default_rng(13)
    reps, j = 2000, 3
    summed = np.array([sum(np.trace(law.sample(rng)) for _ in range(j)) for _ in range(reps)])
    direct = np.array([np.trace(law.sample_sum(rng, j)) for _ in range(reps)])
    assert stats.ks_2samp(summed, direct).pvalue > KS_LEVEL
    # exact law of the trace: s·χ²_{p·jk}
    assert stats.kstest(direct / 1.5, stats.chi2(2 * j * 4).cdf).pvalue > KS_LEVEL
    np.testing.assert_array_equal(law.sample_sum(rng, 0), np.zeros((2, 2)))


def test_wishart_explicit_gram_matches_sampler_for_small_k() -> None:
    # W = ZᵀZ with k i.i.d. N(0, sI) rows: two-sample KS on the smallest eigenvalue
    p, k, s, reps = 3, 5, 2.0, 2000
    rng = np.random.default_rng(14)
    explicit = np.empty(reps)
    for r in range(reps):
        z = rng.normal(0.0, math.sqrt(s), size=(k, p))
        explicit[r] = np.linalg.eigvalsh(z.T @ z)[0]
    sampled = np.array([np.linalg.eigvalsh(w)[0] for w in _draws(WishartNoise(p, k, s), reps, 15)])
    assert stats.ks_2samp(explicit, sampled).pvalue > KS_LEVEL


def test_symmetric_gaussian_entry_laws_and_missing_sqrt2_is_caught() -> None:
    # off-diagonal ~ N(0, σ²), diagonal ~ N(0, 2σ²) (paper footnote 4); KS at 1e-3, 3000 draws.
    sigma, reps = 1.7, 3000
    draws = _draws(SymmetricGaussianNoise(3, sigma), reps, seed=16)
    assert np.array_equal(draws, np.transpose(draws, (0, 2, 1)))  # exactly symmetric
    assert stats.kstest(draws[:, 0, 1], stats.norm(0, sigma).cdf).pvalue > KS_LEVEL
    assert stats.kstest(draws[:, 2, 2], stats.norm(0, math.sqrt(2) * sigma).cdf).pvalue > KS_LEVEL
    # broken symmetrisation Z' + Z'ᵀ (no 1/√2): off-diagonal variance 2σ², rejected
    broken = draws * math.sqrt(2)
    assert stats.kstest(broken[:, 0, 1], stats.norm(0, sigma).cdf).pvalue < 1e-6
    # upper-triangle coordinates uncorrelated: |r| < 5/√N for the pair (0,1), (0,2)
    r = np.corrcoef(draws[:, 0, 1], draws[:, 0, 2])[0, 1]
    assert abs(r) < 5 / math.sqrt(reps)


def test_symmetric_gaussian_sample_sum_scales_variance() -> None:
    law = SymmetricGaussianNoise(2, 1.0)
    rng = np.random.default_rng(17)
    sums = np.stack([law.sample_sum(rng, 4) for _ in range(3000)])
    assert stats.kstest(sums[:, 0, 1], stats.norm(0, 2.0).cdf).pvalue > KS_LEVEL


def test_vector_laws() -> None:
    rng = np.random.default_rng(18)
    lap = np.stack([LaplaceNoise((2,), 0.5).sample(rng) for _ in range(3000)])
    assert stats.kstest(lap[:, 0], stats.laplace(0, 0.5).cdf).pvalue > KS_LEVEL
    lap_sum = np.stack([LaplaceNoise((1,), 0.5).sample_sum(rng, 2) for _ in range(3000)])
    assert abs(lap_sum.var() / (2 * 2 * 0.25) - 1) < 0.15  # Var = j·2b²
    gauss = np.stack([GaussianVectorNoise((3,), 2.0).sample_sum(rng, 4) for _ in range(3000)])
    assert stats.kstest(gauss[:, 1], stats.norm(0, 4.0).cdf).pvalue > KS_LEVEL
    np.testing.assert_array_equal(ZeroNoise((2,)).sample_sum(rng, 3), np.zeros(2))


def test_bad_parameters_are_rejected() -> None:
    with pytest.raises(ValueError, match="degrees_of_freedom must be an integer >= 3"):
        WishartNoise(3, 2, 1.0)
    with pytest.raises(ValueError, match=r"scale must be in \(0, inf\)"):
        WishartNoise(3, 5, 0.0)
    with pytest.raises(ValueError, match="sigma must be finite"):
        SymmetricGaussianNoise(3, float("nan"))
    with pytest.raises(ValueError, match="dim must be an integer >= 1"):
        SymmetricGaussianNoise(0, 1.0)
    with pytest.raises(ValueError, match=r"shape\[0\] must be an integer >= 1"):
        LaplaceNoise((0,), 1.0)
    with pytest.raises(ValueError, match="j must be an integer >= 0"):
        GaussianVectorNoise((2,), 1.0).sample_sum(np.random.default_rng(0), -1)


@pytest.mark.parametrize(("dim", "df", "scale"), [(2, 2, 1.0), (4, 10, 2.5), (6, 139115, 2.0)])
def test_wishart_draw_is_scipys_draw_from_a_shared_generator(
    dim: int, df: int, scale: float
) -> None:
    # With one generator for every primitive, the Bartlett assembly consumes the stream in
    # scipy.stats.wishart's order, so the two draws agree to rounding, draw for draw.
    for seed in range(5):
        ours = WishartNoise(dim, df, scale).sample(np.random.default_rng(seed))
        theirs = stats.wishart(df=df, scale=scale * np.eye(dim)).rvs(
            random_state=np.random.default_rng(seed)
        )
        np.testing.assert_allclose(ours, np.reshape(theirs, (dim, dim)), rtol=1e-12)


def test_noise_streams_make_draws_block_stable() -> None:
    # Separate generators per primitive: a block of draws equals the same draws one by one.
    from reference.engine import draw_noise_sums
    from reference.rng import NoiseStreams

    law = WishartNoise(3, 9, 1.5)
    one_by_one = NoiseStreams.split(np.random.default_rng(3))
    expected = np.stack([law.sample_sum(one_by_one, j) for j in (1, 4, 1, 2)])
    block = draw_noise_sums(
        law, [NoiseStreams.split(np.random.default_rng(3))], np.array([1, 4, 1, 2])
    )
    np.testing.assert_allclose(block[0], expected, rtol=1e-13)
