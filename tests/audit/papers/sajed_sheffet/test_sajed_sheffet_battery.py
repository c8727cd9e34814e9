"""Privacy and accuracy audits of Sajed & Sheffet (``audit/papers/sajed_sheffet/battery.py``).

Known-good mechanisms pass; every broken variant is caught.  Exact audits are deterministic (no
false alarms, power 1).  Monte-Carlo checks use exact binomial tests at level 1e-6 (false-positive
rate ≤ 1e-6 each) or the event audit at ``β = 0.05`` with a fixed seed (deterministic; the measured
false-alarm rate and power are in ``proofs_notes/audit/sajed_sheffet.md``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from audit.papers.sajed_sheffet.battery import (
    DPSE_VARIANTS,
    NAS_VARIANTS,
    DPSEConfig,
    NASConfig,
    SajedSheffetConfig,
    dpse_accuracy_audit,
    dpse_blackbox_audit,
    dpse_closed_form_epsilon,
    dpse_sample_outcomes,
    dpse_two_arm_log_pmf,
    halting_time_log_pmf,
    laplace_difference_log_tail,
    nas_accuracy_audit,
    nas_blackbox_audit,
    nas_closed_form_audit,
    nas_closed_form_epsilon,
    nas_query_values,
    nas_sample_outputs,
    nas_sign_flip_pair,
    nas_threshold_noise_calibration,
    nas_worst_case_pair,
    run_sajed_sheffet_battery,
)
from audit.protocols import NeighbouringPair, PrivacyClaim
from reference._typing import FloatArray
from reference.sajed_sheffet.bandits import DPSuccessiveElimination, dpse_eliminate
from reference.sajed_sheffet.stopping import SampleStream, dp_exp_nas

LEVEL = 1e-6  # level of every exact binomial consistency test
NAS1 = NASConfig(rule="exponential", cap=12)
NAS4 = NASConfig(rule="exponential", cap=9, alpha=0.9, beta=0.9)
SE = DPSEConfig()


def _claims(printed: float, exact: float) -> list[PrivacyClaim]:
    return [PrivacyClaim(printed, 0.0, label="printed"), PrivacyClaim(exact, 0.0, label="exact")]


# ------------------------------------------------------------------------------------------
# The exact calculators against independent derivations
# ------------------------------------------------------------------------------------------


def test_single_check_pmf_matches_the_closed_form_of_a_laplace_sum() -> None:
    # one check: P[τ = 1] = P[A + B ≤ q]; A + B has the law of A − B, whose upper tail is
    # (2 + y/b) e^{−y/b}/4 (density (1 + |z|/b) e^{−|z|/b}/(4b)), checked here against quad
    b = 3.0
    for q in (-20.0, -2.0, 0.5, 7.0):
        log_pmf = halting_time_log_pmf(np.array([q]), b, b)
        closed = math.log1p(-math.exp(laplace_difference_log_tail(q, b)))
        assert log_pmf[0] == pytest.approx(closed, abs=1e-5)
        assert special.logsumexp(log_pmf) == pytest.approx(0.0, abs=1e-5)
        # P[A − B > q] = ∫ f_B(u) P[A > q + u] du
        tail = integrate.quad(
            lambda u, q=q: math.exp(-abs(u) / b) / (2 * b) * stats.laplace.sf(q + u, scale=b),
            -80 * b,
            80 * b,
            points=[-q, 0.0],
            limit=200,
        )[0]
        assert math.exp(laplace_difference_log_tail(q, b)) == pytest.approx(tail, rel=1e-7)


def test_reused_noise_pmf_is_the_increment_of_the_laplace_sum_cdf() -> None:
    # A drawn once: τ ≤ t_j iff A + B ≤ max_{i≤j} q_i, so P[τ ≤ t_j] = F_{A+B}(running max)
    q = np.array([-5.0, -9.0, -1.0, 4.0, 2.0, 6.0])
    b = 2.0
    log_pmf = halting_time_log_pmf(q, b, b, fresh_A=False)
    cdf = np.cumsum(np.exp(log_pmf[:-1]))
    expected = [1.0 - math.exp(laplace_difference_log_tail(m, b)) for m in np.maximum.accumulate(q)]
    np.testing.assert_allclose(cdf, expected, rtol=3e-5)  # trapezoid error ≈ 1e-5
    assert log_pmf[1] == -math.inf and log_pmf[4] == -math.inf  # never a new maximum


def test_halting_pmf_is_grid_stable_and_normalised() -> None:
    pair = nas_worst_case_pair(NAS1)
    coarse = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS1, points_per_scale=100)
    fine = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS1, points_per_scale=400)
    assert special.logsumexp(coarse.log_pmf) == pytest.approx(0.0, abs=1e-4)
    finite = np.isfinite(coarse.log_pmf)
    np.testing.assert_allclose(
        (coarse.log_pmf - coarse.log_pmf_prime)[finite],
        (fine.log_pmf - fine.log_pmf_prime)[finite],
        atol=1e-5,
    )


def test_exact_pmf_matches_the_reference_implementation() -> None:
    # 3000 runs of reference.dp_exp_nas on P-NAS-1 (x): each outcome count is Bin(3000, p_exact);
    # two-sided exact binomial tests, Bonferroni over outcomes, each at LEVEL
    pair = nas_worst_case_pair(NAS1)
    log_pmf = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS1).log_pmf
    rng = np.random.default_rng(11)
    runs = 3000
    times = []
    for _ in range(runs):
        res = dp_exp_nas(
            SampleStream.from_values(pair.x),
            range_R=1.0,
            alpha=NAS1.alpha,
            beta=NAS1.beta,
            epsilon=NAS1.epsilon,
            rng=rng,
            k_max=NAS1.cap,
        )
        times.append(res.halting_time or 0)
    outcomes = [*NAS1.check_times, 0]
    for t, lp in zip(outcomes, log_pmf, strict=True):
        count = sum(1 for s in times if s == t)
        assert stats.binomtest(count, runs, math.exp(lp)).pvalue > LEVEL / len(outcomes)


def test_vectorised_sampler_has_the_exact_law() -> None:
    rng = np.random.default_rng(5)
    pair = nas_sign_flip_pair(NAS4, 7)
    for variant in (NAS_VARIANTS["correct"], NAS_VARIANTS["A_drawn_once"]):
        exact = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS4, variant)
        out = nas_sample_outputs(pair.x_prime, NAS4, variant, rng, 100_000)
        for t, lp in zip([*NAS4.check_times, 0], exact.log_pmf_prime, strict=True):
            count = int(np.sum(out[:, 0] == t))
            assert stats.binomtest(count, len(out), math.exp(lp)).pvalue > LEVEL / 10


def test_not_halted_loss_is_the_threshold_noise_shift() -> None:
    # not halting on x' is not halting on x with B + 2R in place of B (every query moves by 2R),
    # and f_B(b − 2R)/f_B(b) = e^{2R/σ₁} for b > 2R, where the mass sits: loss → −2R/σ₁ = −ε/6
    pair = nas_worst_case_pair(NAS1)
    exact = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS1)
    assert exact.log_pmf[-1] - exact.log_pmf_prime[-1] == pytest.approx(-1.0 / 6.0, abs=1e-4)
    # the whole output: halting part plus the release's 2R/σ₃ = ε/2
    assert exact.epsilon == pytest.approx(exact.halting_epsilon + 0.5, abs=1e-9)
    assert exact.halting_epsilon <= NAS1.epsilon / 2.0


def test_dpse_pmf_matches_the_reference_policy() -> None:
    # the reference DPSuccessiveElimination on fixed epoch-1 rewards (arm 0 all 1, arm 1 sum s)
    r, s = SE.rounds, SE.arm1_sum
    log_pmf = dpse_two_arm_log_pmf(SE, DPSE_VARIANTS["correct"], s)
    rng = np.random.default_rng(3)
    rewards = [np.ones(r), np.r_[np.ones(s), np.zeros(r - s)]]
    runs, none = 300, 0
    for _ in range(runs):
        policy = DPSuccessiveElimination(2, SE.epsilon, SE.beta, rng)
        for t in range(r):
            for arm in (0, 1):
                policy.update(policy.select_arm(), float(rewards[arm][t]))
        none += not policy.records[0].eliminated
    assert stats.binomtest(none, runs, math.exp(log_pmf[0])).pvalue > LEVEL
    # the vectorised sampler applies dpse_eliminate's rule
    out = dpse_sample_outcomes(SE, DPSE_VARIANTS["correct"], s, np.random.default_rng(4), 200)
    noisy = np.random.default_rng(4).laplace(0.0, 1.0 / r, (200, 2)) + np.array([1.0, s / r])
    expect = [0.0 if not (e := dpse_eliminate(m, SE.threshold)) else 1.0 + e[0] for m in noisy]
    np.testing.assert_array_equal(out, expect)


# ------------------------------------------------------------------------------------------
# Privacy audits: known-good passes, broken variants caught
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "pair"),
    [
        (NAS1, nas_worst_case_pair(NAS1)),
        (NAS4, nas_sign_flip_pair(NAS4, 7)),
        (
            NASConfig(rule="every_step", cap=64),
            nas_worst_case_pair(NASConfig("every_step", cap=64)),
        ),
    ],
)
def test_closed_form_nas_audits(config: NASConfig, pair: NeighbouringPair[FloatArray]) -> None:
    correct = nas_closed_form_epsilon(pair.x, pair.x_prime, config)
    out = _claims(config.epsilon, correct.epsilon)
    halt = _claims(config.epsilon / 2.0, correct.halting_epsilon)
    ok = nas_closed_form_audit(config, NAS_VARIANTS["correct"], out, pair)
    ok += nas_closed_form_audit(config, NAS_VARIANTS["correct"], halt, pair, part="halting")
    assert not any(r.violation for r in ok)
    # smaller noise (12R/ε → 4R/ε): the halting loss triples; caught against the exact claim
    small = nas_closed_form_audit(
        config, NAS_VARIANTS["noise_12R_to_4R"], halt, pair, part="halting"
    )
    assert small[1].violation
    assert small[1].epsilon_lower_bound == pytest.approx(3 * correct.halting_epsilon, rel=0.1)
    # release noise forgotten: the release is deterministic and moves by 2R -> infinite loss
    forgot = nas_closed_form_audit(config, NAS_VARIANTS["L_forgotten"], out, pair)
    assert all(r.violation and r.epsilon_lower_bound == math.inf for r in forgot)


def test_reused_query_noise_is_caught_on_the_sign_flip_pair() -> None:
    # on P-NAS-1 every query moves the same way and reuse is harmless; on P-NAS-4 the loss is
    # ln((m + 4R)/m) = ln 5 at m = R whatever the noise scale (docstring of nas_sign_flip_pair)
    pair = nas_sign_flip_pair(NAS4, 7)
    exact = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS4, NAS_VARIANTS["A_drawn_once"])
    assert exact.halting_epsilon == pytest.approx(math.log(5.0), abs=0.01)
    correct = nas_closed_form_epsilon(pair.x, pair.x_prime, NAS4)
    res = nas_closed_form_audit(
        NAS4,
        NAS_VARIANTS["A_drawn_once"],
        _claims(0.5, correct.halting_epsilon),
        pair,
        part="halting",
        closed_form=exact,
    )
    assert all(r.violation for r in res)
    alg1 = NASConfig(rule="every_step", cap=401, alpha=0.9, beta=0.9)
    flip = nas_sign_flip_pair(alg1, 400, 0.25)
    assert nas_closed_form_epsilon(
        flip.x, flip.x_prime, alg1, NAS_VARIANTS["A_drawn_once"]
    ).epsilon == (math.inf)


def test_black_box_nas_passes_correct_and_catches_reuse_and_forgotten_release() -> None:
    pair4 = nas_sign_flip_pair(NAS4, 7)
    c4 = nas_closed_form_epsilon(pair4.x, pair4.x_prime, NAS4)
    halt = _claims(0.5, c4.halting_epsilon)
    good = nas_blackbox_audit(NAS4, NAS_VARIANTS["correct"], halt, pair4, samples=30_000, seed=1)
    assert not any(r.violation for r in good)
    bad = nas_blackbox_audit(
        NAS4, NAS_VARIANTS["A_drawn_once"], halt, pair4, samples=30_000, seed=1
    )
    assert all(r.violation for r in bad)
    pair1 = nas_worst_case_pair(NAS1)
    c1 = nas_closed_form_epsilon(pair1.x, pair1.x_prime, NAS1)
    out = _claims(1.0, c1.epsilon)
    kw = {"samples": 20_000, "seed": 2, "view": "release"}
    good = nas_blackbox_audit(NAS1, NAS_VARIANTS["correct"], out, pair1, **kw)  # type: ignore[arg-type]
    assert not any(r.violation for r in good)
    bad = nas_blackbox_audit(NAS1, NAS_VARIANTS["L_forgotten"], out, pair1, **kw)  # type: ignore[arg-type]
    assert all(r.violation for r in bad)


def test_dpse_closed_form_and_black_box() -> None:
    exact = dpse_closed_form_epsilon(SE, DPSE_VARIANTS["correct"])
    assert exact <= SE.epsilon
    # the far tail of the difference of Laplaces: G(y)/G(y + εb) → e^ε
    assert exact > 0.95 * SE.epsilon
    claims = _claims(SE.epsilon, exact)
    # noise on R_e (proof of Thm 4.1): more noise, still private
    assert dpse_closed_form_epsilon(SE, DPSE_VARIANTS["noise_on_R_e"]) <= exact
    for name in ("noise_third", "shared_noise"):
        assert dpse_closed_form_epsilon(SE, DPSE_VARIANTS[name]) > SE.epsilon
    good = dpse_blackbox_audit(SE, DPSE_VARIANTS["correct"], claims, samples=20_000, seed=7)
    assert not any(r.violation for r in good)
    for name in ("noise_third", "shared_noise"):
        bad = dpse_blackbox_audit(SE, DPSE_VARIANTS[name], claims, samples=20_000, seed=7)
        assert all(r.violation for r in bad)


# ------------------------------------------------------------------------------------------
# Accuracy
# ------------------------------------------------------------------------------------------


def test_accuracy_of_the_reference_rules_and_a_dropped_threshold_term() -> None:
    good = nas_accuracy_audit(NAS1, 0.5, runs=200, seed=8)
    assert not good.violation and good.nominal_failure_rate == NAS1.beta
    # without c_t the rule halts on noise at t = 2 w.p. 0.28 (exact pmf) and fails w.p. ≈ 0.36
    # (725/2000 runs), far above β = 0.1; with 200 runs the CP lower bound exceeds β once there are
    # ≥ 28 failures: power 1 − 5e-13
    bad = nas_accuracy_audit(NAS1, 0.5, runs=200, seed=9, variant=NAS_VARIANTS["c_dropped"])
    assert bad.violation
    se = dpse_accuracy_audit(
        [0.9, 0.4, 0.65, 0.775, 0.8375], epsilon=1.0, beta=0.5, T=10**6, runs=100, seed=10
    )
    assert not se.violation


def test_threshold_noise_calibration_event() -> None:
    # Pr[|B| > σ₁ ln(4/β)] = β/4 exactly (Laplace tail e^{−x/σ₁}); B read from the reference trace
    _, _, p, pvalue = nas_threshold_noise_calibration(NAS1, runs=6000, seed=12)
    assert p == NAS1.beta / 4 and pvalue > LEVEL
    # B at a third of its scale: the event has probability (β/4)³ ≈ 1.6e-5, count ≈ 0 vs 150
    *_, bad = nas_threshold_noise_calibration(NAS1, runs=6000, seed=12, scale_factor=1 / 3)
    assert bad < LEVEL


def test_query_values_follow_the_reference_sum_form() -> None:
    pair = nas_worst_case_pair(NAS1)
    sums, q = nas_query_values(pair.x, NAS1)
    np.testing.assert_array_equal(sums, np.asarray(NAS1.check_times, dtype=float))
    _, q_prime = nas_query_values(pair.x_prime, NAS1)
    np.testing.assert_allclose(q - q_prime, 2.0)  # every check is at t ≥ 2 (Alg. 2)
    with pytest.raises(ValueError, match="at least"):
        nas_query_values(pair.x[:10], NAS1)


def test_battery_structure_and_family_wise_control() -> None:
    report = run_sajed_sheffet_battery(SajedSheffetConfig(accuracy_runs=30, black_box=False))
    assert report.false_alarms == [] and report.verdict == "pass"
    assert all(r.in_family for r in report.rows if r.role == "correct" and r.kind == "privacy")
    caught = {
        r.bug for r in report.rows if r.rejected and r.counts_for_power and r.kind == "privacy"
    }
    assert caught == {
        "dp_nas/A_drawn_once",
        "dp_nas/noise_12R_to_4R",
        "dp_nas/L_forgotten",
        "dpse/noise_third",
        "dpse/shared_noise",
    }
    # a NAS bug is judged on Alg. 1 and Alg. 2 (one case, both rules)
    rules = {r.name.split("/")[0] for r in report.rows if r.bug == "dp_nas/L_forgotten"}
    assert rules == {"dp_nas", "dp_exp_nas"}
    accuracy = [r for r in report.rows if r.kind == "accuracy"]
    assert [(r.rejected, r.bug) for r in accuracy] == [
        (False, None),
        (True, "dp_exp_nas/c_dropped"),
        (False, None),
    ]
