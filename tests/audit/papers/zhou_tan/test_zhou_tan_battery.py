"""Tests of ``audit/papers/zhou_tan/battery.py``: the Zhou & Tan privacy and correctness audits.

Every Monte-Carlo audit here runs at confidence ``0.999``: a correct case is rejected with
probability ``≤ 10⁻³`` per test (Clopper–Pearson / empirical Bernstein; exact binomial for the
failure-count audits), and seeds are fixed, so the verdicts are deterministic.  Measured power of
each broken case (``proofs_notes/audit/zhou_tan.md``): 40/40 black-box rejections over
independent seeds (Clopper–Pearson 95% lower bound 0.928; smallest ε lower bound 1.22 against the
exact claim 0.998) for every broken randomiser and for the raw-reward learner; white-box and
closed-form power is 1 in effect (true δ ≥ 0.39 against a claimed 10⁻³); the failure-count
audits have exact power ``≥ 0.99`` (:func:`binomial_power`, checked below).  Independent references: closed forms by hand, ``scipy.integrate.quad`` of the hockey-stick
integrand, ``scipy.stats`` (Laplace, Student-t, binomial).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, stats

from audit.cases import CaseReport
from audit.methods.binomial import RunAuditResult
from audit.papers.zhou_tan.accuracy import (
    ata_confidence_event_audit,
    binomial_power,
    critical_failure_count,
    lemma11_count_audit,
    lemma92_variance_ratio_audit,
    moma_confidence_event_audit,
    nystrom_lemma8_audit,
    tgp_confidence_event_audit,
)
from audit.papers.zhou_tan.battery import ZhouTanConfig, run_zhou_tan_battery
from audit.papers.zhou_tan.cases import (
    BROKEN_NAMES,
    ctl_claims,
    ctl_closed_form_audit,
    ctl_closed_form_epsilon,
    ctl_variants,
    student_t_pair,
    worst_case_pair,
)
from audit.results import PrivacyAuditResult
from audit.stats import clopper_pearson
from reference.zhou_tan.gp import gp_posterior_on_domain
from reference.zhou_tan.kernels import se_kernel, unit_grid
from reference.zhou_tan.mechanism import LDPParams
from reference.zhou_tan.nystrom import approx_posterior, nystrom_embedding
from reference.zhou_tan.schedules import nystrom_q, rho_nys

P_REJECT = 1e-6
PARAMS = LDPParams(1.0, 1.0, 1.0)


def _hockey_stick_quad(c1: float, c2: float, scale: float, eps: float) -> float:
    """``∫ (p₁ − e^ε p₂)₊`` for two Laplace laws, by quadrature (independent of audit.methods.white_box)."""
    p1, p2 = stats.laplace(c1, scale), stats.laplace(c2, scale)

    def integrand(z: float) -> float:
        return max(0.0, float(p1.pdf(z) - math.exp(eps) * p2.pdf(z)))

    lo, hi = min(c1, c2) - 60 * scale, max(c1, c2) + 60 * scale
    kinks = [c1, c2, (c1 + c2 + eps * scale) / 2, (c1 + c2 - eps * scale) / 2]  # where ℓ = ±ε
    value, _ = integrate.quad(integrand, lo, hi, points=kinks, limit=400, epsabs=1e-13)
    return float(value)


def test_exact_epsilon_of_each_variant_by_hand() -> None:
    """μ = |c(y) − c(y')|/𝓛: ϵ (correct), 2ϵ (scale (B+R)/ϵ), 2(B + t_q)/𝓛 (no clipping, Student-t)."""
    correct, wrong, unclipped = ctl_variants(PARAMS)
    worst = worst_case_pair(PARAMS)
    heavy = student_t_pair(PARAMS, 3.0, 0.999)
    tq = stats.t.ppf(0.999, 3)
    assert tq == pytest.approx(10.2145, abs=1e-4)
    assert ctl_closed_form_epsilon(correct, worst) == pytest.approx(1.0, abs=1e-12)
    assert ctl_closed_form_epsilon(correct, heavy) == pytest.approx(1.0, abs=1e-12)  # clipped
    assert ctl_closed_form_epsilon(wrong, worst) == pytest.approx(2.0, abs=1e-12)
    assert ctl_closed_form_epsilon(unclipped, worst) == pytest.approx(
        1.0, abs=1e-12
    )  # no-op inside
    assert ctl_closed_form_epsilon(unclipped, heavy) == pytest.approx(2 * (1 + tq) / 4.0, rel=1e-12)


@pytest.mark.parametrize("which", [0, 1, 2])
def test_closed_form_audit_matches_quadrature(which: int) -> None:
    """The closed-form verdict equals the hockey-stick integral of the two Laplace densities."""
    rand = ctl_variants(PARAMS)[which]
    pair = student_t_pair(PARAMS)
    printed, exact = ctl_claims(PARAMS)
    assert exact.epsilon == pytest.approx(1.0 + 2.0 * math.log(1.0 - 1e-3), rel=1e-12)
    c1, c2 = rand.centre(float(pair.x[0])), rand.centre(float(pair.x_prime[0]))
    for claim in (printed, exact):
        res = ctl_closed_form_audit(rand, pair, claim, name="t")
        quad = _hockey_stick_quad(c1, c2, rand.params.lap_scale, claim.epsilon)
        assert res.details["closed_form_delta_at_claim"] == pytest.approx(quad, abs=1e-7)
        assert res.violation == (quad > claim.delta + 1e-7)
        assert res.violation == rand.broken


@pytest.mark.parametrize("which", [0, 1, 2])
def test_randomiser_density_describes_the_reference_sampler(which: int) -> None:
    """The white box reads the Laplace density; it must be the law ``ctl_privatize`` draws from
    (KS test against scipy.stats.laplace, rejecting at p < 1e-6)."""
    rand = ctl_variants(PARAMS)[which]
    for y in (0.3, 2.0, 7.5, -11.0):
        out = rand.sample(np.array([y]), np.random.default_rng(11), 20_000)[:, 0]
        law = stats.laplace(rand.centre(y), rand.params.lap_scale)
        assert stats.kstest(out, law.cdf).pvalue > P_REJECT
        z = np.array([[0.1], [5.0]])
        assert np.allclose(rand.log_density(np.array([y]), z), law.logpdf(z[:, 0]))


def test_critical_count_and_power_against_brute_force() -> None:
    """c* = first count whose CP lower bound exceeds the nominal rate; power = binomial tail."""
    for trials, nominal, conf in ((100, 0.05, 0.999), (400, 0.2, 0.95), (30, 0.01, 0.99)):
        beta = 1.0 - conf
        brute = next(
            c
            for c in range(trials + 2)
            if c > trials or clopper_pearson(c, trials, beta)[0] > nominal
        )
        assert critical_failure_count(trials, nominal, conf) == brute
        p = min(1.0, 3 * nominal)
        tail = sum(stats.binom.pmf(j, trials, p) for j in range(brute, trials + 1))
        assert binomial_power(trials, p, nominal, conf) == pytest.approx(tail, rel=1e-9, abs=1e-15)


def test_lemma11_paper_constant_rejected_with_power() -> None:
    """Lemma 11 (App. D.3): with b_j ~ Bernoulli(0.249) (p < 1/4, Lemma 11's premise), P(Σb ≥ k/3) at k = 100
    is 0.0261 > e^{−100/24} = 0.0155.  The audit of 20 000 epochs (through the reference CTL and
    ridge estimators) rejects the printed constant and keeps the corrected e^{−k/72}; exact power
    at the true rate ≥ 0.99, false-alarm probability of the corrected claim ≤ 10⁻³."""
    tail = float(stats.binom.sf(33, 100, 0.249))
    assert tail == pytest.approx(0.0261, abs=5e-4)
    assert binomial_power(20_000, tail, math.exp(-100 / 24), 0.999) >= 0.99
    kw: dict[str, float | int] = {
        "k": 100,
        "p": 0.249,
        "runs": 20_000,
        "seed": 3,
        "confidence": 0.999,
    }
    paper = lemma11_count_audit(PARAMS, "paper", **kw)  # type: ignore[arg-type]
    corrected = lemma11_count_audit(PARAMS, "corrected", **kw)  # type: ignore[arg-type]
    assert paper.violation and not corrected.violation
    # the Monte-Carlo rate agrees with the exact binomial tail (two-sided exact test)
    assert stats.binomtest(paper.failures, paper.runs, tail).pvalue > P_REJECT


def test_invalid_variants_raise() -> None:
    with pytest.raises(ValueError, match="variant"):
        tgp_confidence_event_audit(
            PARAMS,
            "nope",  # type: ignore[arg-type]
            runs=1,
            rounds=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match="variant"):
        ata_confidence_event_audit(
            PARAMS,
            "nope",  # type: ignore[arg-type]
            runs=1,
            rounds=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match="variant"):
        nystrom_lemma8_audit(
            "nope",  # type: ignore[arg-type]
            runs=1,
            rounds=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match="variant"):
        moma_confidence_event_audit(
            PARAMS,
            "nope",  # type: ignore[arg-type]
            runs=1,
            rounds=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match="variant"):
        lemma92_variance_ratio_audit(
            "nope",  # type: ignore[arg-type]
            runs=1,
            rounds=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match="quantile"):
        student_t_pair(PARAMS, 3.0, 1.5)


@pytest.fixture(scope="module")
def report() -> CaseReport:
    return run_zhou_tan_battery(ZhouTanConfig())


@pytest.fixture(scope="module")
def battery(report: CaseReport) -> list[PrivacyAuditResult | RunAuditResult]:
    return [r.result for r in report.rows]


def test_battery_cases_name_their_bugs(report: CaseReport) -> None:
    """Every broken case names its bug on the case (no result name is parsed); the runner's
    verdict: no false alarm (Holm over the correct privacy tests) and every bug caught."""
    for row in report.rows:
        assert (row.bug is not None) == _is_broken(row.name), row.name
        assert row.bug is None or row.bug in row.name, row.name
    assert report.false_alarms == [] and report.missed == [] and report.verdict == "pass"
    assert len(report.bugs()) == 12


def _is_broken(name: str) -> bool:
    return any(b in name for b in BROKEN_NAMES)


def test_battery_known_good_pass_and_every_broken_case_caught(
    battery: list[PrivacyAuditResult | RunAuditResult],
) -> None:
    """Every correct case passes (each test's false-alarm probability ≤ 10⁻³) and every broken
    case is rejected, including against the exact claim (ϵ + 2 ln(1 − 10⁻³), 10⁻³)."""
    assert len(battery) == 60
    broken_exact = 0
    for res in battery:
        expected = _is_broken(res.name)
        assert res.violation == expected, res.name
        if isinstance(res, PrivacyAuditResult):
            assert res.details["broken"] == expected
            if expected and res.claim.delta > 0:
                broken_exact += 1
    # 3 broken randomiser cases × 3 methods + the raw-reward TGP, ATA and MoMA learners, each
    # against the exact claim
    assert broken_exact == 12


def test_battery_names_are_distinct(battery: list[PrivacyAuditResult | RunAuditResult]) -> None:
    """Every result has its own name (the cross-paper report keys rows by name): the CTL white-
    and black-box rows name their neighbouring pair, like the closed-form rows."""
    names = [r.name for r in battery]
    assert len(set(names)) == len(names)
    for kind in ("white box", "black box"):
        for pair_name in ("worst_case", "student_t"):
            assert f"ctl_correct {pair_name} {kind} vs exact at δ=0.001" in names


def test_battery_numbers(battery: list[PrivacyAuditResult | RunAuditResult]) -> None:
    """Bounds are consistent with the exact guarantees: a correct case's ε lower bound never
    exceeds its exact ε; a broken black-box case's bound lies between ϵ and its exact ε."""
    by_name = {r.name: r for r in battery}
    for res in battery:
        if not isinstance(res, PrivacyAuditResult) or res.method == "closed_form":
            continue
        if not res.details["broken"]:
            assert res.epsilon_lower_bound <= 1.0
    for pair_name in ("worst_case", "student_t"):
        bb = by_name[f"ctl_wrong_sensitivity {pair_name} black box vs exact at δ=0.001"]
        assert isinstance(bb, PrivacyAuditResult)
        assert 1.0 < bb.epsilon_lower_bound <= 2.0
    width = by_name["tgp_confidence_event_width_ignores_laplace"]
    assert isinstance(width, RunAuditResult)
    # power of the confidence-event audit at the observed lower bound of the failure rate
    assert binomial_power(width.runs, width.failure_rate_lower, 0.05, 0.999) >= 0.99
    theory = by_name["tgp_confidence_event_theory"]
    assert isinstance(theory, RunAuditResult)
    assert theory.slack["max_t,x |f - mu_t| / (beta_{t+1} sigma_t)"][2] < 1.0


def test_ata_confidence_event_numbers(battery: list[PrivacyAuditResult | RunAuditResult]) -> None:
    """Thm 2 event of LDP-ATA-GP-UCB (100 runs, T = 40, δ = 0.05, confidence 0.999): the theory
    width passes with every run far inside the band (99% slack quantile < 1); the IGP-UCB width
    that forgets the Laplace noise is rejected, and the exact power of the failure-count test at the
    observed Clopper–Pearson lower bound of its failure rate is ≥ 0.99 (c* = 14 of 100)."""
    by_name = {r.name: r for r in battery}
    theory = by_name["ata_confidence_event_theory"]
    broken = by_name["ata_confidence_event_width_ignores_laplace"]
    assert isinstance(theory, RunAuditResult) and isinstance(broken, RunAuditResult)
    key = "max_t,x |f - mu~_t| / (beta_{t+1} sigma~_t)"
    assert not theory.violation and theory.slack[key][2] < 1.0
    assert broken.violation and broken.runs == 100
    assert critical_failure_count(100, 0.05, 0.999) == 14
    assert binomial_power(broken.runs, broken.failure_rate_lower, 0.05, 0.999) >= 0.99


def test_nystrom_lemma8_numbers(battery: list[PrivacyAuditResult | RunAuditResult]) -> None:
    """Lemma 8 (50 runs of N = T = 300 on 3 SE arms, ε = 0.5, δ = 0.2, confidence 0.999).

    Theory ``q = 6ρ ln(2T/δ)/ε² = 576.5``: since ``σ̃²_{n−1} ≥ 1/(n + 1)``, every ``p_i = 1``
    here, so ``V_𝒟 = V`` (extreme eigenvalue ratios equal 1 to rounding) and ``m_n`` is far below
    its bound.  The ``q = ln T/ε² = 22.8`` of [7]'s code breaks ε-accuracy and is rejected; exact
    power at the observed Clopper–Pearson lower bound ≥ 0.99 (``c* = 20`` of 50)."""
    by_name = {r.name: r for r in battery}
    theory = by_name["nystrom_lemma8_theory_q"]
    broken = by_name["nystrom_lemma8_q_ref7_too_few"]
    assert isinstance(theory, RunAuditResult) and isinstance(broken, RunAuditResult)
    assert not theory.violation and theory.failures == 0
    for key in ("(1 - min_n lambda_min(V_D, V)) / eps", "(max_n lambda_max(V_D, V) - 1) / eps"):
        assert abs(theory.slack[key][2]) < 1e-9
    assert theory.slack["max_n m_n / (6 rho (1 + 1/lam) q gamma_n)"][2] < 1e-3
    assert nystrom_q(300, 0.2, 0.5, log_const=2.0) == pytest.approx(72 * math.log(3000))
    assert broken.violation and broken.runs == 50
    assert critical_failure_count(50, 0.2, 0.999) == 20
    assert binomial_power(broken.runs, broken.failure_rate_lower, 0.2, 0.999) >= 0.99


def test_nystrom_variance_with_full_dictionary_is_exact_and_exceeds_it_otherwise() -> None:
    """The identity behind the known-good Lemma 9.2 case, against Eq. (4) by Cholesky
    (``gp_posterior_on_domain``, independent of the Nyström code): with every played arm in the
    dictionary (``q`` huge, all ``p_i = 1``), ``σ̃_n = σ_n`` to rounding; with ``p_i = 0.01``
    (``q = 1``, ``σ̃_{n−1} = 0.1``) the arm played 30 times can be left out and ``σ̃_n/σ_n``
    exceeds ``ρ = 3`` (up to 8.2 at ``q = 1``)."""
    X = unit_grid(3)
    K = se_kernel(X, X, 0.25)
    kdiag = np.diag(K).copy()
    hist = np.array([0, 1] + [2] * 30)
    _, exact = gp_posterior_on_domain(K, hist, np.zeros(hist.size), 1.0)
    full = nystrom_embedding(K, hist, np.ones(hist.size), 1e9, np.random.default_rng(0))
    assert full.m == 3
    _, var_full = approx_posterior(full.features, hist, kdiag, 1.0)
    np.testing.assert_allclose(var_full, exact, rtol=1e-9)
    ratios = []
    for s in range(20):
        res = nystrom_embedding(K, hist, np.full(hist.size, 0.1), 1.0, np.random.default_rng(s))
        _, var = approx_posterior(res.features, hist, kdiag, 1.0)
        ratios.append(float(np.max(np.sqrt(var / exact))))
    assert max(ratios) > rho_nys(0.5)  # some dictionary misses a played arm


def test_moma_confidence_event_numbers(
    battery: list[PrivacyAuditResult | RunAuditResult],
) -> None:
    """Final event of LDP-MoMA-GP-UCB (Eqs. 10/22; 40 runs of T = 3000, i.e. k = 322 and N = 9
    epochs, ϵ = 0.5, ε = 0.5, δ = 0.05, confidence 0.999): the theory width passes with every run
    far inside the band (99% slack quantile < 0.1); the width without the robust radius 3γ/√λ is
    rejected, and the exact power at the observed Clopper–Pearson lower bound of its failure rate
    is ≥ 0.99 (c* = 8 of 40)."""
    by_name = {r.name: r for r in battery}
    theory = by_name["moma_confidence_event_theory"]
    broken = by_name["moma_confidence_event_width_drops_radius"]
    assert isinstance(theory, RunAuditResult) and isinstance(broken, RunAuditResult)
    key = "max_n,x |f - mu~_n| / (beta_{n+1} sigma~_n)"
    assert not theory.violation and theory.failures == 0 and theory.slack[key][2] < 0.1
    assert broken.violation and broken.runs == 40 and broken.slack[key][1] > 1.0
    assert critical_failure_count(40, 0.05, 0.999) == 8
    assert binomial_power(broken.runs, broken.failure_rate_lower, 0.05, 0.999) >= 0.99


def test_lemma92_numbers(battery: list[PrivacyAuditResult | RunAuditResult]) -> None:
    """Lemma 9.2 (50 runs of N = T = 100 on 3 SE arms, ε = 0.5 so ρ = 3, δ = 0.2).

    Theory ``q``: the dictionary holds every played arm, so ``σ̃_n = σ_n`` (ratio ``1/ρ`` to
    rounding) and every step is ε-accurate.  ``q = 1``: on the ε-accurate steps the lemma holds
    (0 failures, nominal rate 0) although ``σ̃_n ≠ σ_n`` there (max ratio ``> 1.2``, so the check
    is not vacuous); unconditionally ``σ̃_n > ρσ_n`` in most runs, and the claim "``≤ δ``" is
    rejected with exact power ≥ 0.99 at the observed lower bound (``c* = 20`` of 50)."""
    by_name = {r.name: r for r in battery}
    rho = rho_nys(0.5)
    results: dict[str, RunAuditResult] = {}
    for name in (
        "theory_q_on_accurate",
        "theory_q_unconditional",
        "q_one_on_accurate",
        "q_one_unconditional",
    ):
        res = by_name[f"lemma92_{name}"]
        assert isinstance(res, RunAuditResult) and res.runs == 50
        results[name] = res
    acc_key = "max_{n in E_1n},x sigma~_n / (rho sigma_n)"
    all_key = "max_n,x sigma~_n / (rho sigma_n)"
    frac_key = "fraction of n with E_1n (reported, no bound)"
    good = results["theory_q_unconditional"]
    assert not good.violation and good.failures == 0
    assert abs(good.slack[all_key][2] - 1.0 / rho) < 1e-9
    assert good.slack[frac_key][0] == 1.0
    cond = results["q_one_on_accurate"]
    assert not cond.violation and cond.failures == 0 and cond.nominal_failure_rate == 0.0
    assert cond.slack[acc_key][2] * rho > 1.2 and cond.slack[frac_key][1] > 0.0
    bad = results["q_one_unconditional"]
    assert bad.violation and bad.slack[all_key][1] > 1.0
    assert critical_failure_count(50, 0.2, 0.999) == 20
    assert binomial_power(bad.runs, bad.failure_rate_lower, 0.2, 0.999) >= 0.99
