"""Tests of ``reference.sajed_sheffet.constants`` (Sajed & Sheffet, Algorithms 1-3 and DP-UCB).

Sources: the paper (Alg. 1, Alg. 2, Alg. 3) and golden tables computed independently of this code
(for Algorithms 1-3).

Checks: hand computations with :mod:`math`; independently computed golden values (``rel = 1e-6``); the
Hoeffding/Laplace identities the proofs rely on; the inequalities ``h_e < Δ_e/8``, ``c_e < Δ_e/8``
of Lemma 4.2's proof; monotonicity (hypothesis); input validation.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.sajed_sheffet import constants as cs
from reference.tree import tree_depth

PROPS = settings(deadline=None, max_examples=60, derandomize=True, database=None)
REL = 1e-12

# ------------------------------------------------------------------------------------------------
# Algorithm 1 and 2 constants
# ------------------------------------------------------------------------------------------------


def test_noise_scales_by_hand() -> None:
    s = cs.dp_nas_noise_scales(2.0, 0.5)
    # σ1 = σ2 = 12R/ε = 24/0.5 = 48, σ3 = 4R/ε = 16
    assert (s.sigma1, s.sigma2, s.sigma3) == pytest.approx((48.0, 48.0, 16.0), rel=REL)


def test_dp_nas_t1_by_hand() -> None:
    # R = 1, ε = 1, α = 0.5, β = 0.05:  h_1 = √(2 log(16/0.05)) = √(2 log 320)
    h1 = math.sqrt(2.0 * math.log(320.0))
    assert cs.dp_nas_h(1, 1.0, 0.05) == pytest.approx(h1, rel=REL)
    # c_1 = 12 log(80) + 12 log(8/0.05 = 160) + (4/0.5) log(80) = 20 log 80 + 12 log 160
    c1 = 20.0 * math.log(80.0) + 12.0 * math.log(160.0)
    assert cs.dp_nas_c(1, 1.0, 1.0, 0.5, 0.05) == pytest.approx(c1, rel=REL)
    assert cs.dp_nas_threshold(1, 1.0, 1.0, 0.5, 0.05) == pytest.approx(3.0 * h1 + c1, rel=REL)


# golden table, Algorithm 1: t, h_t, c_t, noiseless threshold (R=1, ε=1, α=0.5, β=0.05)
A1_GOLDEN = [
    (1, 3.396563, 148.542618, 158.732308),
    (2, 2.674811, 165.178151, 90.613509),
    (10, 1.440381, 203.804661, 24.701610),
    (100, 0.547333, 259.066703, 4.232666),
    (1000, 0.197908, 314.328745, 0.908053),
]

# golden table, Algorithm 2: k, h, c, noiseless threshold at t = 2^k
A2_GOLDEN = [
    (1, 2.401733, 148.542618, 81.476508),
    (2, 1.891377, 165.178151, 46.968669),
    (5, 0.749466, 187.169128, 8.097434),
    (10, 0.142340, 203.804661, 0.626049),
    (15, 0.026127, 213.535823, 0.084899),
    (20, 0.004736, 220.440193, 0.014418),
]


@pytest.mark.parametrize(("t", "h", "c", "thr"), A1_GOLDEN)
def test_dp_nas_golden(t: int, h: float, c: float, thr: float) -> None:
    # the golden values have 6 decimals: agree to half a unit in the last place
    assert cs.dp_nas_h(t, 1.0, 0.05) == pytest.approx(h, abs=5.1e-7)
    assert cs.dp_nas_c(t, 1.0, 1.0, 0.5, 0.05) == pytest.approx(c, abs=5.1e-7)
    assert cs.dp_nas_threshold(t, 1.0, 1.0, 0.5, 0.05) == pytest.approx(thr, abs=5.1e-7)


@pytest.mark.parametrize(("k", "h", "c", "thr"), A2_GOLDEN)
def test_dp_exp_nas_golden(k: int, h: float, c: float, thr: float) -> None:
    assert cs.dp_exp_nas_h(2**k, k, 1.0, 0.05) == pytest.approx(h, abs=5.1e-7)
    assert cs.dp_exp_nas_c(k, 1.0, 1.0, 0.5, 0.05) == pytest.approx(c, abs=5.1e-7)
    assert cs.dp_exp_nas_threshold(k, 1.0, 1.0, 0.5, 0.05) == pytest.approx(thr, abs=5.1e-7)


@PROPS
@given(
    t=st.integers(1, 10**7),
    R=st.floats(0.01, 100.0),
    beta=st.floats(1e-12, 0.99),
)
def test_hoeffding_levels_of_the_radii(t: int, R: float, beta: float) -> None:
    """ERR-01: the radii are Hoeffding radii for interval length 2R at the stated levels."""

    def level(h: float) -> float:  # 2 exp(-2 h² t / (2R)²)
        return 2.0 * math.exp(-2.0 * h * h * t / (2.0 * R) ** 2)

    assert level(cs.nas_h(t, R, beta)) == pytest.approx(beta / (2.0 * t * t), rel=1e-9)
    assert level(cs.dp_nas_h(t, R, beta)) == pytest.approx(beta / (8.0 * t * t), rel=1e-9)
    k = max(1, t.bit_length() - 1)
    assert level(cs.dp_exp_nas_h(t, k, R, beta)) == pytest.approx(beta / (8.0 * k * k), rel=1e-9)
    assert cs.hoeffding_radius(t, 2.0 * R, beta / (2.0 * t * t)) == pytest.approx(
        cs.nas_h(t, R, beta), rel=1e-12
    )


@PROPS
@given(
    t=st.integers(1, 10**6),
    eps=st.floats(1e-3, 1e3),
    alpha=st.floats(0.01, 0.99),
    beta=st.floats(1e-9, 0.99),
)
def test_c_t_covers_the_laplace_quantiles(t: int, eps: float, alpha: float, beta: float) -> None:
    """c_t = σ1 log(4/β) + σ2 log(8t²/β) + (σ3/α) log(4/β): the three Laplace tail quantiles."""
    s = cs.dp_nas_noise_scales(1.0, eps)
    # Laplace tail Pr[|X| > τ] = exp(-τ/λ) -> the β/4, β/(8t²), β/4 quantiles
    qB = -s.sigma1 * math.log(0.25 * beta)
    qA = -s.sigma2 * math.log(beta / (8.0 * t * t))
    qL = -s.sigma3 * math.log(0.25 * beta)
    assert cs.dp_nas_c(t, 1.0, eps, alpha, beta) == pytest.approx(qB + qA + qL / alpha, rel=1e-9)


@PROPS
@given(
    t=st.integers(1, 10**6),
    eps1=st.floats(1e-3, 1e3),
    eps2=st.floats(1e-3, 1e3),
    a1=st.floats(0.01, 0.99),
    a2=st.floats(0.01, 0.99),
)
def test_threshold_monotone_in_epsilon_and_alpha(
    t: int, eps1: float, eps2: float, a1: float, a2: float
) -> None:
    lo_e, hi_e = sorted((eps1, eps2))
    lo_a, hi_a = sorted((a1, a2))
    assert cs.dp_nas_threshold(t, 1.0, hi_e, 0.5, 0.1) <= cs.dp_nas_threshold(
        t, 1.0, lo_e, 0.5, 0.1
    )
    assert cs.dp_nas_threshold(t, 1.0, 1.0, hi_a, 0.1) <= cs.dp_nas_threshold(
        t, 1.0, 1.0, lo_a, 0.1
    )
    assert cs.dp_nas_c(t, 1.0, hi_e, 0.5, 0.1) <= cs.dp_nas_c(t, 1.0, lo_e, 0.5, 0.1)


# ------------------------------------------------------------------------------------------------
# Algorithm 3 epoch schedule
# ------------------------------------------------------------------------------------------------

# Algorithm 3 worked table, K=5 (|S|=5), ε=0.25, β=1/(5e7): e, term1, term2, R_e, r_e, h_e, c_e, 2h+2c
A3_GOLDEN = [
    (1, 2741.301, 1326.289, 2742.301, 2743, 0.062489, 0.030228, 0.185432),
    (2, 11674.986, 2830.024, 11675.986, 11676, 0.031249, 0.007574, 0.077646),
    (3, 48360.730, 5867.646, 48361.730, 48362, 0.015625, 0.001896, 0.035041),
    (4, 198156.302, 12029.878, 198157.302, 198158, 0.007812, 0.000474, 0.016574),
]


@pytest.mark.parametrize(("e", "t1", "t2", "Re", "re", "h", "c", "thr"), A3_GOLDEN)
def test_dpse_epoch_golden(
    e: int, t1: float, t2: float, Re: float, re: int, h: float, c: float, thr: float
) -> None:
    p = cs.dpse_epoch_parameters(5, e, 1.0 / 5e7, 0.25)
    assert p.hoeffding_term == pytest.approx(t1, abs=1e-3)
    assert p.privacy_term == pytest.approx(t2, abs=1e-3)
    assert p.rounds_R_e == pytest.approx(Re, abs=1e-3)
    assert p.rounds == re
    assert p.h == pytest.approx(h, abs=1e-6)
    assert p.c == pytest.approx(c, abs=1e-6)
    assert p.threshold == pytest.approx(thr, abs=1e-6)
    assert p.noise_scale == pytest.approx(1.0 / (0.25 * re), rel=REL)


def test_dpse_epoch_k2_by_hand_and_golden() -> None:
    # K=2, ε=1, β=0.5, epoch 1: Δ=1/2, term1 = 32 log(8·2·1/0.5)/0.25 = 128 log 32,
    # term2 = 8 log(4·2/0.5)/(1·0.5) = 16 log 16; R_1 = 128 log 32 + 1 = 444.6142
    p = cs.dpse_epoch_parameters(2, 1, 0.5, 1.0)
    assert p.hoeffding_term == pytest.approx(128.0 * math.log(32.0), rel=REL)
    assert p.privacy_term == pytest.approx(16.0 * math.log(16.0), rel=REL)
    assert p.rounds_R_e == pytest.approx(444.6142, abs=1e-4)
    assert p.rounds == 445
    assert p.h == pytest.approx(math.sqrt(math.log(32.0) / (2.0 * p.rounds_R_e)), rel=REL)
    assert p.h == pytest.approx(0.062430, abs=1e-6)
    assert p.c == pytest.approx(0.006236, abs=1e-6)
    assert p.threshold == pytest.approx(0.137331, abs=1e-6)
    assert p.noise_scale == pytest.approx(0.0022472, abs=1e-7)
    p2 = cs.dpse_epoch_parameters(2, 2, 0.5, 1.0)
    assert p2.rounds_R_e == pytest.approx(2485.2395, abs=1e-4)
    assert p2.rounds == 2486
    assert p2.threshold == pytest.approx(0.065834, abs=1e-6)


def test_noise_on_R_e_uses_the_real_round_budget() -> None:
    p = cs.dpse_epoch_parameters(2, 1, 0.5, 1.0, noise_on="R_e")
    assert p.noise_scale == pytest.approx(1.0 / p.rounds_R_e, rel=REL)
    assert p.noise_scale > cs.dpse_epoch_parameters(2, 1, 0.5, 1.0).noise_scale


def test_non_private_limit() -> None:
    p = cs.dpse_epoch_parameters(3, 2, 0.1, math.inf)
    assert p.privacy_term == 0.0
    assert p.c == 0.0
    assert p.noise_scale == 0.0
    assert p.rounds_R_e == pytest.approx(32.0 * math.log(8 * 3 * 4 / 0.1) / 0.25**2 + 1.0, rel=REL)
    assert p.threshold == pytest.approx(2.0 * p.h, rel=REL)


@PROPS
@given(
    S=st.integers(1, 1000),
    e=st.integers(1, 15),
    beta=st.floats(1e-15, 0.99),
    eps=st.floats(1e-4, 1e4),
)
def test_lemma42_h_and_c_below_gap_over_8(S: int, e: int, beta: float, eps: float) -> None:
    """Proof of Lemma 4.2: R_e makes h_e < Δ_e/8 and c_e < Δ_e/8.

    Strict because of the ``+1`` in R_e; for epochs so late that ``R_e > 2^53`` the ``+1`` is lost in
    floating point and equality can occur (hence ``e ≤ 15`` here: ``R_e < 10^13``).
    """
    p = cs.dpse_epoch_parameters(S, e, beta, eps)
    assert p.h < p.gap / 8.0
    assert p.c < p.gap / 8.0
    assert p.threshold < p.gap / 2.0
    assert p.rounds == math.ceil(p.rounds_R_e)
    assert p.rounds >= p.rounds_R_e


@PROPS
@given(
    S=st.integers(1, 1000),
    e=st.integers(1, 40),
    beta=st.floats(1e-15, 0.99),
    eps=st.floats(1e-4, 1e4),
)
def test_rounds_double_at_constant_viable_set(S: int, e: int, beta: float, eps: float) -> None:
    """R_e ≤ R_{e+1}/2 when |S| does not change (the doubling step of Lemma 4.2's proof)."""
    now = cs.dpse_epoch_parameters(S, e, beta, eps)
    nxt = cs.dpse_epoch_parameters(S, e + 1, beta, eps)
    assert now.rounds_R_e <= nxt.rounds_R_e / 2.0


def test_rounds_doubling_fails_when_the_viable_set_shrinks() -> None:
    """ERR-14: R_e ≤ R_{e+1}/2 can fail when |S| shrinks.

    Privacy-dominated epochs (small ε): R_1(|S|=K) ≈ 16 log(4K/β)/ε and R_2(|S|=2) ≈ 32 log(32/β)/ε,
    so the doubling fails iff 4K > 32, i.e. K > 8.  (The worked example K = 5 -> 2 does *not* fail.)
    """
    # K = 10 -> 2, ε = 1e-3, β = 0.1, by hand:
    #   R_1 = 8 log(4·10/0.1)/(1e-3 · 0.5) + 1 = 16000 log 400 + 1
    #   R_2 = 8 log(4·2·4/0.1)/(1e-3 · 0.25) + 1 = 32000 log 320 + 1
    r1 = cs.dpse_rounds(10, 1, 0.1, 1e-3)
    r2 = cs.dpse_rounds(2, 2, 0.1, 1e-3)
    assert r1 == pytest.approx(16000.0 * math.log(400.0) + 1.0, rel=REL)
    assert r2 == pytest.approx(32000.0 * math.log(320.0) + 1.0, rel=REL)
    assert r1 > r2 / 2.0
    # the worked example (K = 5 -> 2) keeps the doubling: 16000 log 200 + 1 <= (32000 log 320 + 1)/2
    assert cs.dpse_rounds(5, 1, 0.1, 1e-3) <= r2 / 2.0


@PROPS
@given(
    S1=st.integers(1, 200),
    S2=st.integers(1, 200),
    e=st.integers(1, 20),
    b1=st.floats(1e-12, 0.99),
    b2=st.floats(1e-12, 0.99),
    eps1=st.floats(1e-4, 1e4),
    eps2=st.floats(1e-4, 1e4),
)
def test_epoch_schedule_monotonicity(
    S1: int, S2: int, e: int, b1: float, b2: float, eps1: float, eps2: float
) -> None:
    lo_s, hi_s = sorted((S1, S2))
    lo_b, hi_b = sorted((b1, b2))
    lo_e, hi_e = sorted((eps1, eps2))
    assert cs.dpse_rounds(lo_s, e, 0.1, 1.0) <= cs.dpse_rounds(hi_s, e, 0.1, 1.0)
    assert cs.dpse_rounds(3, e, hi_b, 1.0) <= cs.dpse_rounds(3, e, lo_b, 1.0)
    assert cs.dpse_rounds(3, e, 0.1, hi_e) <= cs.dpse_rounds(3, e, 0.1, lo_e)
    assert cs.dpse_rounds(3, e, 0.1, math.inf) <= cs.dpse_rounds(3, e, 0.1, hi_e)


@PROPS
@given(S=st.integers(1, 100), e=st.integers(1, 30), beta=st.floats(1e-12, 0.99))
def test_privacy_dominated_regime(S: int, e: int, beta: float) -> None:
    """term2 > term1 iff ε < Δ_e log(4|S|e²/β) / (4 log(8|S|e²/β))."""
    gap = 2.0**-e
    eps_star = gap * math.log(4 * S * e * e / beta) / (4.0 * math.log(8 * S * e * e / beta))
    below = cs.dpse_epoch_parameters(S, e, beta, eps_star * 0.999)
    above = cs.dpse_epoch_parameters(S, e, beta, eps_star * 1.001)
    assert below.privacy_term > below.hoeffding_term
    assert above.privacy_term < above.hoeffding_term


# ------------------------------------------------------------------------------------------------
# DP-UCB
# ------------------------------------------------------------------------------------------------


def test_dpucb_tree_epsilon() -> None:
    assert cs.dpucb_tree_epsilon(0.5, 5, "per_tree") == 0.5
    assert cs.dpucb_tree_epsilon(0.5, 5, "split") == pytest.approx(0.1, rel=REL)
    with pytest.raises(ValueError, match="calibration"):
        cs.dpucb_tree_epsilon(0.5, 5, "both")


def test_dpucb_width_by_hand() -> None:
    # K=5, T=5e7, ε=0.25, β_u=1/T:  m = 1 + ⌈log2 5e7⌉ = 1 + 26 = 27, b = 27/0.25 = 108,
    # ℓ = log(2·5·5e7·5e7) = log(2.5e16); γ = b · max(√27, √ℓ) · √(8ℓ)
    T = 50_000_000
    assert 2**25 < T <= 2**26
    m = 27
    assert tree_depth(T) == m
    ell = math.log(2.0 * 5 * T * T)
    gamma = 108.0 * max(math.sqrt(27.0), math.sqrt(ell)) * math.sqrt(8.0 * ell)
    assert cs.dpucb_confidence_width(5, T, 0.25, 1.0 / T) == pytest.approx(gamma, rel=REL)
    # The earlier ≈ 11,107 used L = ⌊log2 T⌋ + 1 = 26 levels; γ scales linearly in the levels.
    assert gamma * 26.0 / 27.0 == pytest.approx(11107.0, rel=1e-3)


# ------------------------------------------------------------------------------------------------
# Validation
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: cs.nas_h(0, 1.0, 0.1), "t"),
        (lambda: cs.nas_h(1, -1.0, 0.1), "range_R"),
        (lambda: cs.nas_h(1, 1.0, 1.0), "beta"),
        (lambda: cs.dp_nas_c(1, 1.0, 0.0, 0.5, 0.1), "epsilon"),
        (lambda: cs.dp_nas_c(1, 1.0, 1.0, 1.0, 0.1), "alpha"),
        (lambda: cs.dp_nas_noise_scales(1.0, math.inf), "epsilon"),
        (lambda: cs.dp_exp_nas_h(2, 0, 1.0, 0.1), "k"),
        (lambda: cs.dp_exp_nas_c(0, 1.0, 1.0, 0.5, 0.1), "k"),
        (lambda: cs.dpse_epoch_parameters(0, 1, 0.1, 1.0), "n_viable"),
        (lambda: cs.dpse_epoch_parameters(2, 0, 0.1, 1.0), "epoch"),
        (lambda: cs.dpse_epoch_parameters(2, 1, 0.0, 1.0), "beta"),
        (lambda: cs.dpse_epoch_parameters(2, 1, 0.1, -1.0), "epsilon"),
        (lambda: cs.dpse_epoch_parameters(2, 1, 0.1, float("nan")), "epsilon"),
        (lambda: cs.dpse_epoch_parameters(2, 1, 0.1, 1.0, noise_on="R"), "noise_on"),
        (lambda: cs.dpucb_confidence_width(5, 0, 1.0, 0.1), "T"),
        (lambda: cs.dpucb_confidence_width(5, 10, 1.0, 2.0), "beta_u"),
        (lambda: cs.hoeffding_radius(1, 0.0, 0.1), "width"),
    ],
)
def test_validation(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=name):
        call()
