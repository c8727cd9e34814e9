"""Tests of ``reference.sajed_sheffet.bounds``: every theorem, lemma and corollary of Sajed & Sheffet
(Fact 2.1, Thm 3.1, Cor. 3.2, Thm 3.3, Thm 3.4, Lemma 3.5, Cor. 3.6, Thm 4.1, Lemma 4.2, Thm 4.3,
Thm 4.4 and the cited bounds).

Checks: hand computations; numbers derivable independently (t_U ≈ 3.5e6 and
τ_E = 65536 for (μ, α, β, ε) = (0.1, 0.5, 0.05, 1)); the proofs' own steps as numerical invariants
(hypothesis): Thm 3.3's sufficient condition at ``1000(t₀ + t₁ + t₂)``, the Lemma 3.5 chain of
Thm 3.4 giving ``√β``, Lemma 4.2's explicit bound against the epoch schedule, ``Δ*`` solving its
equation and the case split of Thm 4.4's proof; monotonicity in ε, α, β; Fact 2.1 and its erratum;
input validation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reference.sajed_sheffet import bounds as bd
from reference.sajed_sheffet import constants as cs

PROPS = settings(deadline=None, max_examples=60, derandomize=True, database=None)
REL = 1e-12

# ------------------------------------------------------------------------------------------------
# Sec. 2
# ------------------------------------------------------------------------------------------------


def test_tails_by_hand() -> None:
    assert bd.laplace_tail(2.0, 4.0) == pytest.approx(math.exp(-0.5), rel=REL)
    assert bd.hoeffding_tail(0.1, 100, 2.0) == pytest.approx(2.0 * math.exp(-2 * 0.01 * 100 / 4.0))


@PROPS
@given(a=st.floats(1.001, 1e4), b=st.floats(1e-6, 0.0624), u=st.floats(1.0001, 100.0))
def test_fact21_second_claim(a: float, b: float, u: float) -> None:
    """Fact 2.1: f(x) = log(a log x)/x < b for every x > x₁ = 2 log(a log(1/b))/b."""
    _, x1 = bd.fact21_thresholds(a, b)
    assert bd.fact21_function(x1 * u, a) < b


@PROPS
@given(beta=st.floats(1e-6, 0.08), b=st.floats(1e-6, 0.0624), frac=st.floats(1e-6, 0.9999))
def test_fact21_first_claim_where_used(beta: float, b: float, frac: float) -> None:
    """Fact 2.1's first claim with a = 4/(β ln 2) ≥ 72 (its use in Thm 3.3): f(x) > b on (e, x₀)."""
    a = 4.0 / (beta * math.log(2.0))
    x0, _ = bd.fact21_thresholds(a, b)
    x = math.e + frac * (x0 - math.e)
    assert x > math.e
    assert bd.fact21_function(x, a) > b


def test_fact21_first_claim_fails_for_a_near_one() -> None:
    """ERR-02: a = 1.01, b = 0.01: f(x) < b at some e < x < x₀ (f → 0 as x ↓ e^{1/a} ...)."""
    a, b = 1.01, 0.01
    x0, _ = bd.fact21_thresholds(a, b)
    xs = np.linspace(math.e * 1.0001, x0 * 0.9999, 20001)
    ratios = [bd.fact21_function(float(x), a) / b for x in xs]
    assert min(ratios) < 0.4  # spec: ≈ 0.37
    # f is not monotone on (e, ∞) either: it first increases
    assert bd.fact21_function(math.e * 1.5, a) > bd.fact21_function(math.e * 1.0001, a)


# ------------------------------------------------------------------------------------------------
# Thm 3.1 / Cor. 3.2
# ------------------------------------------------------------------------------------------------


@PROPS
@given(R=st.floats(0.01, 100.0), eps=st.floats(1e-3, 1e3))
def test_thm31_privacy_account(R: float, eps: float) -> None:
    """SVT: 2R/(12R/ε) + 2·2R/(12R/ε) = ε/6 + ε/3 = ε/2; release: 2R/(4R/ε) = ε/2; total ε."""
    acc = bd.thm31_privacy_account(R, eps)
    assert acc.svt == pytest.approx(eps / 2.0, rel=1e-12)
    assert acc.release == pytest.approx(eps / 2.0, rel=1e-12)
    assert acc.total == pytest.approx(eps, rel=1e-12)
    # the paper's SVT recipe Lap(3 GS/ε) for threshold and queries costs exactly ε
    assert bd.svt_privacy_loss(2.0, 6.0 / eps, 6.0 / eps) == pytest.approx(eps, rel=1e-12)


def test_thm31_failure_budget_by_hand() -> None:
    fb = bd.thm31_failure_budget(0.1)
    # Σ_t 0.1/(8t²) = 0.1 π²/48
    assert fb.hoeffding == pytest.approx(0.1 * math.pi**2 / 48.0, rel=REL)
    assert fb.query == fb.hoeffding
    assert fb.threshold == fb.release == pytest.approx(0.025)
    assert fb.total == pytest.approx(0.1 * (0.5 + math.pi**2 / 24.0), rel=REL)
    assert fb.total <= fb.paper_total == 0.1
    assert bd.cor32_failure_budget(0.1) == fb
    # partial sums of the per-check terms approach the closed form
    partial = sum(0.1 / (8.0 * t * t) for t in range(1, 200001))
    assert partial == pytest.approx(fb.hoeffding, rel=1e-5)


# ------------------------------------------------------------------------------------------------
# Thm 3.3
# ------------------------------------------------------------------------------------------------


def test_thm33_by_hand_and_spec_values() -> None:
    R, mu, alpha, beta, eps = 1.0, 0.1, 0.5, 0.05, 1.0
    inner = 20.0 * math.log(20.0)  # (1/β) log(R/(α|μ|)) = 20 log 20
    t0 = math.log(inner) / (0.25 * 0.01)
    t1 = math.log(inner) / 0.1
    t2 = math.log(20.0) / 0.05
    assert bd.thm33_terms(R, mu, alpha, beta, eps) == pytest.approx((t0, t1, t2), rel=REL)
    t_U = bd.thm33_halting_bound(R, mu, alpha, beta, eps)
    assert t_U == pytest.approx(2000.0 * (t0 + t1 + t2), rel=REL)
    assert t_U == pytest.approx(3.5e6, rel=0.01)  # spec ACC-NAS-3: t_U = 3.5e6
    assert bd.good_event_halting_time(R, mu, alpha, beta, eps) == 65536  # spec: τ_E = 65536
    assert bd.thm33_halting_bound(R, -mu, alpha, beta, eps) == t_U


def test_thm33_inner_log_erratum() -> None:
    """ERR-06: (1/β) log(R/(α|μ|)) ≤ 1 for α|μ| close to R."""
    # α = 0.99, μ = 0.999, β = 0.08: log(1/(0.98901)) = 0.01105, /0.08 = 0.138 < 1
    with pytest.raises(ValueError, match="void"):
        bd.thm33_terms(1.0, 0.999, 0.99, 0.08, 1.0)
    t0, t1, _ = bd.thm33_terms(1.0, 0.999, 0.99, 0.08, 1.0, inner_log="clamped")
    assert t0 == pytest.approx(1.0 / (0.99**2 * 0.999**2), rel=REL)  # log(e) = 1
    assert t1 == pytest.approx(1.0 / 0.999, rel=REL)


@PROPS
@given(
    mu=st.floats(1e-4, 0.99),
    alpha=st.floats(0.01, 0.99),
    beta=st.floats(1e-12, 0.08),
    eps=st.floats(1e-3, 1e3),
)
def test_thm33_proof_sufficient_condition(mu: float, alpha: float, beta: float, eps: float) -> None:
    """At the first t = 2^k ≥ 1000(t₀ + t₁ + t₂) the proof's stronger condition holds:
    |μ| ≥ 3h/α + 48R log(8k²/β)/(εt) + 4R log(4/β)/(αεt); hence τ_E ≤ t_U."""
    R = 1.0
    assume((1.0 / beta) * math.log(R / (alpha * mu)) > 1.0)
    t0, t1, t2 = bd.thm33_terms(R, mu, alpha, beta, eps)
    k = max(1, math.ceil(math.log2(1000.0 * (t0 + t1 + t2))))
    t = 2**k
    h = cs.dp_exp_nas_h(t, k, R, beta)
    rhs = 3.0 * h / alpha + 48.0 * R * math.log(8 * k * k / beta) / (eps * t)
    rhs += 4.0 * R * math.log(4.0 / beta) / (alpha * eps * t)
    assert mu >= rhs
    assert bd.good_event_halting_time(R, mu, alpha, beta, eps) <= bd.thm33_halting_bound(
        R, mu, alpha, beta, eps
    )


@PROPS
@given(
    mu=st.floats(1e-3, 0.99),
    alpha=st.floats(0.01, 0.99),
    beta=st.floats(1e-9, 0.5),
    eps=st.floats(1e-2, 1e2),
)
def test_good_event_halting_time_is_the_first_qualifying_check(
    mu: float, alpha: float, beta: float, eps: float
) -> None:
    """τ_E for Alg. 1 (bisection) is the first t satisfying the condition; for Alg. 2 the first
    power of two (its log terms use k = log₂ t, so it can be earlier than Alg. 1's)."""
    R = 1.0
    s = cs.dp_nas_noise_scales(R, eps)
    base = s.sigma1 * math.log(4 / beta)

    def ok1(t: int) -> bool:
        h = cs.dp_nas_h(t, R, beta)
        noise = base + s.sigma2 * math.log(8 * t * t / beta)
        return mu - h >= h * (1 + 1 / alpha) + (cs.dp_nas_c(t, R, eps, alpha, beta) + noise) / t

    def ok2(k: int) -> bool:
        t = 1 << k
        h = cs.dp_exp_nas_h(t, k, R, beta)
        noise = base + s.sigma2 * math.log(8 * k * k / beta)
        return mu - h >= h * (1 + 1 / alpha) + (cs.dp_exp_nas_c(k, R, eps, alpha, beta) + noise) / t

    tau1 = bd.good_event_halting_time(R, mu, alpha, beta, eps, variant="every_step")
    assert ok1(tau1)
    assert tau1 == 1 or not ok1(tau1 - 1)
    tau2 = bd.good_event_halting_time(R, mu, alpha, beta, eps)
    k2 = tau2.bit_length() - 1
    assert tau2 == 2**k2 and k2 >= 1
    assert ok2(k2)
    assert all(not ok2(k) for k in range(1, k2))


@PROPS
@given(
    e1=st.floats(1e-3, 1e3),
    e2=st.floats(1e-3, 1e3),
    a1=st.floats(0.01, 0.9),
    a2=st.floats(0.01, 0.9),
    mu=st.floats(1e-3, 0.5),
)
def test_thm33_monotone(e1: float, e2: float, a1: float, a2: float, mu: float) -> None:
    lo_e, hi_e = sorted((e1, e2))
    lo_a, hi_a = sorted((a1, a2))
    f = bd.thm33_halting_bound
    assert f(1.0, mu, 0.5, 0.05, hi_e) <= f(1.0, mu, 0.5, 0.05, lo_e)
    assert f(1.0, mu, hi_a, 0.05, 1.0) <= f(1.0, mu, lo_a, 0.05, 1.0)
    g = bd.good_event_halting_time
    assert g(1.0, mu, 0.5, 0.05, hi_e) <= g(1.0, mu, 0.5, 0.05, lo_e)


# ------------------------------------------------------------------------------------------------
# Thm 3.4, Lemma 3.5, Cor. 3.6 and the cited bounds
# ------------------------------------------------------------------------------------------------


def test_thm34_by_hand() -> None:
    # R = 2, μ = 0.5, α = 0.25, β = 0.01, ε = 0.5: n = 2 log(100)/(12 · 0.25 · 0.5 · 0.5)
    assert bd.thm34_sample_size(2.0, 0.5, 0.25, 0.01, 0.5) == pytest.approx(
        2.0 * math.log(100.0) / 0.75, rel=REL
    )
    pP, pQ, tv = bd.thm34_two_point_laws(2.0, 0.5, 0.25)
    assert pP == pytest.approx(0.5 + 0.5 / 4.0)
    # μ' → (0.75/1.25) · 0.5 = 0.3
    assert pQ == pytest.approx(0.5 + 0.3 / 4.0)
    assert tv == pytest.approx(pP - pQ) == pytest.approx(0.2 / 4.0)
    assert tv == pytest.approx(0.25 * 0.5 / (2.0 * 1.25)) and tv < 0.25 * 0.5 / 2.0


@PROPS
@given(
    R=st.floats(0.1, 10.0),
    frac=st.floats(1e-3, 1.0),
    alpha=st.floats(0.01, 0.99),
    beta=st.floats(1e-9, 0.2499),
    eps=st.floats(1e-3, 1e3),
)
def test_thm34_proof_chain(R: float, frac: float, alpha: float, beta: float, eps: float) -> None:
    """β · e^{6εn·αμ/R} = √β < 1/2, and 1 − √β − β > 1/4 (proof of Thm 3.4)."""
    mu = frac * R
    n = bd.thm34_sample_size(R, mu, alpha, beta, eps)
    _, _, tv = bd.thm34_two_point_laws(R, mu, alpha)
    assert tv < alpha * mu / R
    chain = beta * bd.lemma35_group_privacy_factor(eps, n, alpha * mu / R)
    assert chain == pytest.approx(math.sqrt(beta), rel=1e-9)
    assert beta * bd.lemma35_group_privacy_factor(eps, n, tv) <= chain
    assert chain < 0.5
    assert bd.thm34_exceedance_probability(beta, form="proof_chain") > 0.25
    assert bd.thm34_exceedance_probability(beta) == 0.25


@PROPS
@given(
    mu=st.floats(1e-3, 0.99),
    e1=st.floats(1e-3, 1e3),
    e2=st.floats(1e-3, 1e3),
    a1=st.floats(0.01, 0.99),
    a2=st.floats(0.01, 0.99),
)
def test_lower_bounds_monotone_and_consistent(
    mu: float, e1: float, e2: float, a1: float, a2: float
) -> None:
    lo_e, hi_e = sorted((e1, e2))
    lo_a, hi_a = sorted((a1, a2))
    n = bd.thm34_sample_size
    assert n(1.0, mu, 0.5, 0.1, hi_e) <= n(1.0, mu, 0.5, 0.1, lo_e)
    assert n(1.0, mu, hi_a, 0.1, 1.0) <= n(1.0, mu, lo_a, 0.1, 1.0)
    # Cor. 3.6 = Dagum (variance R² − μ² ≥ Rα|μ| here? use max) + 12 n
    cor = bd.cor36_sample_complexity_lower_bound(1.0, mu, 0.5, 0.1, 1.0)
    assert cor == pytest.approx(
        math.log(10.0) / (0.25 * mu * mu) + 12.0 * n(1.0, mu, 0.5, 0.1, 1.0), rel=1e-12
    )
    # Thm 3.3's upper bound dominates the lower bound's private part (both are valid statements)
    assert bd.thm33_halting_bound(1.0, mu, 0.5, 0.05, 1.0, inner_log="clamped") >= n(
        1.0, mu, 0.5, 0.05, 1.0
    )


def test_cited_nonprivate_bounds_by_hand() -> None:
    R, mu, a, b = 1.0, 0.1, 0.5, 0.01
    assert bd.dagum_sample_complexity_lower_bound(R, 0.99, mu, a, b) == pytest.approx(
        0.99 * math.log(100.0) / (0.25 * 0.01), rel=REL
    )
    assert bd.domingo_nas_sample_complexity_order(R, mu, a, b) == pytest.approx(
        math.log(1.0 / (0.01 * 0.05)) / (0.25 * 0.01), rel=REL
    )
    assert bd.mnih_nas_sample_complexity_order(R, mu, a, b) == pytest.approx(
        (math.log(100.0) + math.log(math.log(20.0))) / (0.25 * 0.01), rel=REL
    )
    assert bd.section31_assumption_holds(R, mu, a, b)  # log 20 ≈ 3 ≤ 100
    assert not bd.section31_assumption_holds(R, 1e-30, 0.5, 0.5)  # log(2e30) ≈ 69.8 > 2


# ------------------------------------------------------------------------------------------------
# Sec. 4
# ------------------------------------------------------------------------------------------------


@PROPS
@given(
    S=st.integers(2, 100), e=st.integers(1, 12), beta=st.floats(1e-9, 0.9), eps=st.floats(1e-3, 1e3)
)
def test_thm41_privacy_loss(S: int, e: int, beta: float, eps: float) -> None:
    assert bd.thm41_privacy_loss(S, e, beta, eps) == pytest.approx(eps, rel=1e-12)
    loose = bd.thm41_privacy_loss(S, e, beta, eps, noise_on="R_e")
    p = cs.dpse_epoch_parameters(S, e, beta, eps)
    assert loose == pytest.approx(eps * p.rounds_R_e / p.rounds, rel=1e-12)
    assert loose <= eps


def test_lemma42_elimination_epoch_by_hand() -> None:
    # e(a) = first e with Δ_a ≥ 2^-e
    assert bd.lemma42_elimination_epoch(1.0) == 1
    assert bd.lemma42_elimination_epoch(0.5) == 1
    assert bd.lemma42_elimination_epoch(0.3) == 2
    assert bd.lemma42_elimination_epoch(0.05) == 5  # 2^-5 = 0.03125 ≤ 0.05 < 0.0625
    for g in (1.0, 0.7, 0.3, 0.05, 1e-3):
        assert bd.lemma42_elimination_epoch(g) <= math.log2(2.0 / g)
    assert bd.lemma42_failure_probability(0.12) == pytest.approx(0.12 * math.pi**2 / 12.0)


def test_lemma42_bound_by_hand() -> None:
    # K = 5, Δ = 0.05, β = 1/(5e7), ε = 0.25: log(5 log(40) · 5e7) (1024/0.0025 + 96/0.0125)
    val = math.log(5.0 * math.log(40.0) * 5e7) * (1024.0 / 0.0025 + 96.0 / 0.0125)
    assert bd.lemma42_pull_bound(5, 0.05, 1.0 / 5e7, 0.25) == pytest.approx(val, rel=REL)
    assert bd.lemma42_pull_bound(5, 0.05, 1.0 / 5e7, 0.25, T=1000) == 1000.0
    nonpriv = math.log(5.0 * math.log(40.0) * 5e7) * 1024.0 / 0.0025
    assert bd.lemma42_pull_bound(5, 0.05, 1.0 / 5e7, math.inf) == pytest.approx(nonpriv, rel=REL)
    # C1/K=5: r_1 + ... + r_5 at |S| = 5
    by_hand = sum(cs.dpse_epoch_parameters(5, e, 1.0 / 5e7, 0.25).rounds for e in range(1, 6))
    assert bd.lemma42_proof_pull_bound(5, 0.05, 1.0 / 5e7, 0.25) == by_hand


@PROPS
@given(
    K=st.integers(2, 1000),
    gap=st.floats(1e-3, 1.0),
    beta=st.floats(1e-8, 0.5),
    eps=st.floats(1e-3, 10.0),
)
def test_lemma42_explicit_bound_covers_the_schedule(
    K: int, gap: float, beta: float, eps: float
) -> None:
    """ERR-14 resolution: Σ_{e ≤ e(a)} r_e (|S| = K) ≤ the explicit bound of Lemma 4.2."""
    assert bd.lemma42_proof_pull_bound(K, gap, beta, eps) <= bd.lemma42_pull_bound(
        K, gap, beta, eps
    )


@PROPS
@given(
    K1=st.integers(2, 100),
    K2=st.integers(2, 100),
    e1=st.floats(1e-3, 1e3),
    e2=st.floats(1e-3, 1e3),
    gap=st.floats(1e-3, 1.0),
)
def test_lemma42_monotone(K1: int, K2: int, e1: float, e2: float, gap: float) -> None:
    lo_k, hi_k = sorted((K1, K2))
    lo_e, hi_e = sorted((e1, e2))
    f = bd.lemma42_pull_bound
    assert f(lo_k, gap, 0.1, 1.0) <= f(hi_k, gap, 0.1, 1.0)
    assert f(5, gap, 0.1, hi_e) <= f(5, gap, 0.1, lo_e)
    gaps = [0.0, gap, min(1.0, 2 * gap)]
    assert bd.thm43_regret_bound(gaps, 10**6, hi_e) <= bd.thm43_regret_bound(gaps, 10**6, lo_e)


def test_thm43_by_hand() -> None:
    gaps = [0.0, 0.05, 0.5]
    T, eps = 10**6, 0.5

    def term(d: float) -> float:
        return min(T * d, math.log(3 * T * math.log(2 / d)) * (1024 / d + 96 / eps))

    assert bd.thm43_regret_bound(gaps, T, eps) == pytest.approx(1 + term(0.05) + term(0.5), rel=REL)
    paper = 3 * math.log(T) / 0.05 + 3 * math.log(T) / 0.5 + 3 * math.log(T) * 2 / eps
    assert bd.thm43_regret_bound_paper_form(gaps, T, eps) == pytest.approx(paper, rel=REL)
    with pytest.raises(ValueError, match="0"):
        bd.thm43_regret_bound([0.1, 0.2], T, eps)


@PROPS
@given(
    T=st.integers(10, 10**12),
    K=st.integers(2, 1000),
    eps=st.floats(1e-3, 1e3),
    C=st.floats(0.01, 100.0),
)
def test_thm44_critical_gap(T: int, K: int, eps: float, C: float) -> None:
    """Δ* solves Δ T/K = 2C log(T)(1/Δ + 1/ε); with C = 1, order ≤ Δ* ≤ 4·order."""
    assume(K <= T)
    d = bd.thm44_critical_gap(T, K, eps, C)
    lhs, rhs = d * T / K, 2 * C * math.log(T) * (1 / d + 1 / eps)
    assert lhs == pytest.approx(rhs, rel=1e-9)
    d1 = bd.thm44_critical_gap(T, K, eps, 1.0)
    order = bd.thm44_critical_gap_order(T, K, eps)
    assert order <= d1 * (1 + 1e-12)
    assert d1 <= 4.0 * order
    assert bd.thm44_minimax_regret_bound(T, K, eps, C) == pytest.approx(2 * d * T, rel=REL)


@PROPS
@given(
    T=st.integers(10**3, 10**9),
    gaps=st.lists(st.floats(1e-9, 1.0), min_size=1, max_size=30),
    eps=st.floats(1e-3, 1e3),
    C=st.floats(0.1, 10.0),
)
def test_thm44_case_split(T: int, gaps: list[float], eps: float, C: float) -> None:
    """Proof of Thm 4.4: the arms with Δ_a > Δ* contribute ≤ Σ 2C log T (1/Δ_a + 1/ε) ≤ Δ* T; the
    others ≤ Δ* T (T pulls of regret ≤ Δ* each); total ≤ 2Δ* T."""
    K = len(gaps) + 1
    assume(K <= T)
    d = bd.thm44_critical_gap(T, K, eps, C)
    large = [g for g in gaps if g > d]
    cost = sum(2 * C * math.log(T) * (1 / g + 1 / eps) for g in large)
    assert cost <= d * T * (1 + 1e-9)
    per_arm = sum(bd.thm44_per_arm_regret_bound(g, T, eps, C) for g in large)
    assert per_arm <= d * T * (1 + 1e-9)


def test_order_expressions_by_hand() -> None:
    T, K, eps = 10**6, 5, 0.5
    lt = math.log(T)
    assert bd.thm44_minimax_regret_order(T, K, eps) == pytest.approx(
        math.sqrt(T * K * lt) + K * lt / eps
    )
    assert bd.lai_robbins_regret_order([0.0, 0.1, 0.5], T) == pytest.approx(lt / 0.1 + lt / 0.5)
    assert bd.private_regret_lower_bound_order(K, T, eps) == pytest.approx(K * lt / eps)
    assert bd.minimax_regret_lower_bound_order(K, T) == pytest.approx(math.sqrt(K * T))
    assert bd.ucb_minimax_regret_order(K, T) == pytest.approx(math.sqrt(K * T * lt))
    assert bd.dpucb_added_regret_order(K, T, eps) == pytest.approx(K * lt**2.5 / eps)


def test_tree_release_noise_variance_by_hand() -> None:
    # T = 1000: m = 11 levels; count 6 = 110b uses 2 nodes of Lap(11/ε): variance 2 · 2 · 121/ε²
    assert bd.tree_release_noise_variance(6, 1000, 0.5) == pytest.approx(2 * 2 * 121 / 0.25)
    assert bd.tree_release_noise_variance(0, 1000, 0.5) == 0.0
    worst = max(bd.tree_release_noise_variance(s, 1000, 1.0) for s in range(1001))
    assert worst == pytest.approx(9 * 2 * 121)  # 511 = 111111111b: 9 nodes
    assert worst <= 2 * 11**3


# ------------------------------------------------------------------------------------------------
# Validation
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: bd.thm33_terms(1.0, 0.0, 0.5, 0.05, 1.0), "mu"),
        (lambda: bd.thm33_terms(1.0, 1.5, 0.5, 0.05, 1.0), "mu"),
        (lambda: bd.thm33_terms(1.0, 0.1, 0.5, 0.1, 1.0), "beta"),
        (lambda: bd.thm33_terms(1.0, 0.1, 0.5, 0.05, 1.0, inner_log="x"), "inner_log"),  # type: ignore[arg-type]
        (lambda: bd.thm34_sample_size(1.0, 0.1, 0.5, 0.3, 1.0), "beta"),
        (lambda: bd.thm34_two_point_laws(1.0, -0.1, 0.5), "mu"),
        (lambda: bd.lemma35_group_privacy_factor(1.0, 5.0, 1.5), "tv_distance"),
        (lambda: bd.lemma42_pull_bound(1, 0.1, 0.1, 1.0), "K"),
        (lambda: bd.lemma42_pull_bound(2, 0.0, 0.1, 1.0), "gap"),
        (lambda: bd.lemma42_elimination_epoch(1.5), "gap"),
        (lambda: bd.thm43_regret_bound([0.0, 1.5], 100, 1.0), "gaps"),
        (lambda: bd.thm44_critical_gap(1, 2, 1.0), "T"),
        (lambda: bd.fact21_thresholds(1.0, 0.01), "a"),
        (lambda: bd.fact21_thresholds(2.0, 0.1), "b"),
        (lambda: bd.good_event_halting_time(1.0, 0.1, 0.5, 0.05, 1.0, variant="x"), "variant"),  # type: ignore[arg-type]
        (lambda: bd.good_event_halting_time(1.0, 1e-3, 0.5, 0.05, 1.0, t_limit=4), "t_limit"),
        (lambda: bd.tree_release_noise_variance(5, 4, 1.0), "count"),
    ],
)
def test_validation(call: object, name: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=name):
        call()
