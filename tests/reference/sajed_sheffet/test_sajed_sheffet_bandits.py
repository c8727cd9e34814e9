"""Tests of ``reference.sajed_sheffet.bandits``: environment, DP-SE (Algorithm 3), its non-private
limit, the Bernoulli fast path, guess-and-double, UCB1, DP-UCB and the run loop (Sajed & Sheffet,
Sec. 4-5).

Checks:

* DP-SE's epoch schedule and pull sequence against ``dpse_epoch_parameters`` and by hand; the reset
  of the statistics at every epoch; the elimination rule; noise freshness (by replaying the
  generator); the ``ε = inf`` limit; horizon truncation;
* regression values that are derivable independently: C1/K=5 (hand computation
  ``(r_1 + r_2 + r_3) · 0.05 · 4``) and C2/C3/C4 cells whose outcome is the noiseless trajectory
  (an independent few-line predictor written here);
* the step-by-step policy against the fast path (identical on an easy instance, same law by
  Fisher's exact test on a random one); determinism for a fixed seed;
* Monte-Carlo checks with exact binomial tests (false-positive rate ≤ 1e-6 per test): the Laplace
  tail of Lemma 4.2's event is exact (``Pr[|μ̃ − μ̄| > c_e] = exp(−c_e ε r_e)``), Lemma 4.2's
  elimination and pull-count claims, best-arm identification;
* UCB1's index by hand; DP-UCB's calibration (ε vs ε/K per tree), node noise drawn once, its
  Laplace law; input validation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest, fisher_exact

from reference.sajed_sheffet import bounds as bd
from reference.sajed_sheffet import constants as cs
from reference.sajed_sheffet.bandits import (
    DPUCB,
    UCB1,
    BanditEnvironment,
    DPSuccessiveElimination,
    GuessAndDoubleDPSE,
    Policy,
    dpse_eliminate,
    pseudo_regret_trajectories,
    run_policy,
    simulate_dpse_bernoulli,
    successive_elimination,
)
from reference.tree import tree_depth

FPR = 1e-6
T_PAPER = 50_000_000


def instance(name: str, K: int) -> list[float]:
    """Sec. 5 instances: C1 equal gaps, C2 linear, C3 convex, C4 concave quadratic."""
    i = np.arange(1, K + 1, dtype=np.float64)
    means: np.ndarray
    if name == "C1":
        return [0.75] + [0.7] * (K - 1)
    if name == "C2":
        means = 0.75 - 0.5 * (i - 1) / (K - 1)
    elif name == "C3":
        means = 0.5 / (K - 1) ** 2 * (i - K) ** 2 + 0.25
    else:
        means = -0.5 / (K - 1) ** 2 * (i - 1) ** 2 + 0.75
    return [float(m) for m in means]


def test_instances_match_the_paper() -> None:
    # Sec. 5: the K = 5 means are printed in the paper
    assert instance("C2", 5) == pytest.approx([0.75, 0.625, 0.5, 0.375, 0.25])
    assert instance("C3", 5) == pytest.approx([0.75, 0.53125, 0.375, 0.28125, 0.25])
    assert instance("C4", 5) == pytest.approx([0.75, 0.71875, 0.625, 0.46875, 0.25])


def drive(policy: Policy, table: list[list[float]], T: int) -> list[int]:
    """Run ``policy`` for ``T`` rounds where the n-th pull of arm a returns ``table[a][n]``."""
    used = [0] * len(table)
    arms = []
    for _ in range(T):
        a = policy.select_arm()
        arms.append(a)
        policy.update(a, table[a][used[a]])
        used[a] += 1
    return arms


# ------------------------------------------------------------------------------------------------
# Environment and run loop
# ------------------------------------------------------------------------------------------------


def test_environment() -> None:
    env = BanditEnvironment([0.2, 0.9, 0.5], np.random.default_rng(0))
    assert env.K == 3
    assert env.gaps.tolist() == pytest.approx([0.7, 0.0, 0.4])
    x = env.pull_many(1, 5000)
    assert set(np.unique(x).tolist()) <= {0.0, 1.0}
    assert env.pseudo_regret([1, 5, 2]) == pytest.approx(0.7 + 0.8)
    b = BanditEnvironment([0.3, 0.6], np.random.default_rng(1), reward="beta", concentration=3.0)
    y = b.pull_many(0, 20000)
    assert np.all((y >= 0.0) & (y <= 1.0))
    # Beta(0.9, 2.1): sd = sqrt(0.3·0.7/4) ≈ 0.229; the mean is within 6 sd/sqrt(n)
    assert abs(float(np.mean(y)) - 0.3) < 6.0 * math.sqrt(0.21 / 4.0) / math.sqrt(20000)
    for bad in ([1.2, 0.1], [], [[0.1]]):
        with pytest.raises(ValueError, match="means"):
            BanditEnvironment(bad, np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="beta rewards"):
        BanditEnvironment([0.0, 0.5], np.random.default_rng(0), reward="beta")
    with pytest.raises(ValueError, match="arm"):
        env.pull(3)


def test_run_policy_trajectory() -> None:
    env = BanditEnvironment([0.8, 0.3, 0.5], np.random.default_rng(4))
    res = run_policy(UCB1(3), env, 500)
    assert res.pulls.sum() == 500
    assert np.array_equal(res.pulls, np.bincount(res.arms, minlength=3))
    assert np.allclose(res.regret, np.cumsum(np.array([0.0, 0.5, 0.3])[res.arms]))
    assert res.pseudo_regret == pytest.approx(0.5 * res.pulls[1] + 0.3 * res.pulls[2])
    assert np.all(np.diff(res.regret) >= 0.0)


def test_pseudo_regret_trajectories_deterministic() -> None:
    def make(K: int, rng: np.random.Generator) -> Policy:
        return DPSuccessiveElimination(K, 1.0, 0.1, rng)

    a = pseudo_regret_trajectories(make, [0.9, 0.1], 3000, runs=3, seed=5)
    b = pseudo_regret_trajectories(make, [0.9, 0.1], 3000, runs=3, seed=5)
    assert a.shape == (3, 3000)
    assert np.array_equal(a, b)
    # DP-SE on (0.9, 0.1): the gap 0.8 is far above epoch 1's threshold (≈ 0.14), so arm 1 is
    # eliminated after epoch 1 (2 r_1 = 1302 ≤ 3000 rounds): regret 0.8 · r_1, then flat
    r1 = cs.dpse_epoch_parameters(2, 1, 0.1, 1.0).rounds
    assert np.allclose(a[:, -1], 0.8 * r1)


# ------------------------------------------------------------------------------------------------
# DP-SE: schedule, reset, elimination, noise
# ------------------------------------------------------------------------------------------------


def test_dpse_eliminate_rule() -> None:
    # μ̃ = (0.5, 0.3, 0.45, 0.39), threshold 0.1: μ̃_max − μ̃_j = (0, 0.2, 0.05, 0.11) -> remove 1, 3
    assert dpse_eliminate(np.array([0.5, 0.3, 0.45, 0.39]), 0.1) == (1, 3)
    assert dpse_eliminate(np.array([0.5, 0.4]), 0.1) == ()  # difference exactly 0.1: not > 0.1
    assert dpse_eliminate(np.array([0.2]), 0.0) == ()
    with pytest.raises(ValueError, match="threshold"):
        dpse_eliminate(np.array([0.5, 0.4]), -0.1)


def test_dpse_schedule_reset_and_noise_replay() -> None:
    """Round-robin over S in ascending order, r_e = ⌈R_e⌉ rounds, fresh statistics every epoch,
    one Laplace vector of scale 1/(ε r_e) per epoch (replayed from the seed)."""
    K, eps, beta, seed = 4, 0.5, 0.2, 17
    # arm 1 always 0 (gap 1/2 ≥ Δ_1: eliminated in epoch 1); arms 0, 2, 3 alternate 1, 0 / 1, 0 /
    # 0, 1 (epoch means within 1/r_e of 1/2), so they are never separated and the run goes through
    # several epochs.
    n = 10**6
    table = [[1.0, 0.0] * (n // 2), [0.0] * n, [1.0, 0.0] * (n // 2), [0.0, 1.0] * (n // 2)]
    pol = DPSuccessiveElimination(K, eps, beta, np.random.default_rng(seed))
    p1 = cs.dpse_epoch_parameters(4, 1, beta, eps)
    T = 4 * p1.rounds + 200_000
    arms = drive(pol, table, T)
    # epoch 1: the pull sequence is (0, 1, 2, 3) repeated r_1 times
    assert arms[: 4 * p1.rounds] == [0, 1, 2, 3] * p1.rounds
    replay = np.random.default_rng(seed)
    t_end = 0
    for e, rec in enumerate(pol.records, start=1):
        S = len(rec.viable)
        assert rec.params == cs.dpse_epoch_parameters(S, e, beta, eps)
        t_end += rec.params.rounds * S
        assert rec.t_end == t_end
        assert rec.params.noise_scale == pytest.approx(1.0 / (eps * rec.params.rounds))
        noise = replay.laplace(0.0, rec.params.noise_scale, size=S)
        assert np.array_equal(rec.noisy_means, rec.empirical_means + noise)
        # reset: the means are over this epoch's rewards only (pull counts within the table)
        for j, a in enumerate(rec.viable):
            start = sum(r.params.rounds for r in pol.records[: e - 1] if a in r.viable)
            rewards = table[a][start : start + rec.params.rounds]
            assert rec.empirical_means[j] == pytest.approx(float(np.mean(rewards)), abs=1e-12)
        # the elimination rule applied to the recorded noisy means
        removed = tuple(
            rec.viable[j] for j in dpse_eliminate(rec.noisy_means, rec.params.threshold)
        )
        assert rec.eliminated == removed
    assert len(pol.records) >= 3
    assert pol.records[0].eliminated == (1,)
    assert pol.viable == (0, 2, 3)


def test_dpse_non_private_limit_is_deterministic() -> None:
    # means 2/3, 1/4, 3/5 (periodic tables)
    table = [
        [1.0, 0.0, 1.0] * 20000,
        [0.0, 1.0, 0.0, 0.0] * 15000,
        [1.0, 0.0, 1.0, 0.0, 1.0] * 8000,
    ]
    a = successive_elimination(3, 0.1)
    b = successive_elimination(3, 0.1)
    arms_a, arms_b = drive(a, table, 40000), drive(b, table, 40000)
    assert arms_a == arms_b
    for rec in a.records:
        assert np.array_equal(rec.noisy_means, rec.empirical_means)
        assert rec.params.c == 0.0 and rec.params.privacy_term == 0.0
    # By hand: epoch 1, R_1 = 32 log(8·3/0.1)/0.25 + 1 = 128 log 240 + 1, threshold
    # 2h_1 = 2 √(log 240/(2 R_1)) ≈ 0.125: separates 1/4 from 2/3 (0.417) but not 3/5 (0.067).
    # Epoch 2 (|S| = 2): R_2 = 512 log(640) + 1, 2h_2 ≈ 0.0625 < 2/3 − 3/5: arm 2 goes.
    R1 = 128.0 * math.log(240.0) + 1.0
    assert 2.0 * math.sqrt(math.log(240.0) / (2.0 * R1)) == pytest.approx(
        a.records[0].params.threshold
    )
    R2 = 512.0 * math.log(640.0) + 1.0
    assert 2.0 * math.sqrt(math.log(640.0) / (2.0 * R2)) == pytest.approx(
        a.records[1].params.threshold
    )
    assert a.records[0].eliminated == (1,)
    assert a.records[1].eliminated == (2,)
    assert a.finished and a.viable == (0,)


def test_dpse_huge_epsilon_agrees_with_non_private_limit() -> None:
    table = [
        [1.0, 0.0, 1.0] * 20000,
        [0.0, 1.0, 0.0, 0.0] * 15000,
        [1.0, 0.0, 1.0, 0.0, 1.0] * 8000,
    ]
    se = successive_elimination(3, 0.1)
    dp = DPSuccessiveElimination(3, 1e12, 0.1, np.random.default_rng(0))
    assert drive(se, table, 40000) == drive(dp, table, 40000)


def test_dpse_policy_validation() -> None:
    with pytest.raises(ValueError, match="K"):
        DPSuccessiveElimination(1, 1.0, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="rng"):
        DPSuccessiveElimination(2, 1.0, 0.1, None)
    with pytest.raises(ValueError, match="beta"):
        DPSuccessiveElimination(2, 1.0, 1.0, np.random.default_rng(0))
    pol = DPSuccessiveElimination(2, 1.0, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="selected arm"):
        pol.update(1, 0.5)
    with pytest.raises(ValueError, match="reward"):
        pol.update(0, 1.5)


def test_step_by_step_matches_fast_path_on_an_easy_instance() -> None:
    """(0.9, 0.5, 0.1), ε = 1, β = 0.1: both eliminate arms 1, 2 after epoch 1 (gaps 0.4, 0.8 far
    above the threshold 2h_1 + 2c_1 ≈ 0.13; failure probability < 1e-9), so the pulls agree."""
    means, eps, beta, T = [0.9, 0.5, 0.1], 1.0, 0.1, 20_000
    p1 = cs.dpse_epoch_parameters(3, 1, beta, eps)
    assert p1.threshold < 0.14
    env = BanditEnvironment(means, np.random.default_rng(1))
    step = run_policy(DPSuccessiveElimination(3, eps, beta, np.random.default_rng(2)), env, T)
    fast = simulate_dpse_bernoulli(means, T, eps, beta, np.random.default_rng(3))
    expected = [T - 2 * p1.rounds, p1.rounds, p1.rounds]
    assert step.pulls.tolist() == expected == fast.pulls.tolist()
    assert fast.elimination_epoch.tolist() == [-1, 1, 1]
    assert fast.pseudo_regret == pytest.approx(step.pseudo_regret)
    assert [t for t, _ in fast.breakpoints] == [3 * p1.rounds, T]
    assert [r for _, r in fast.breakpoints] == pytest.approx([1.2 * p1.rounds] * 2)


def test_fast_path_truncates_at_the_horizon() -> None:
    means = [0.5, 0.5, 0.5]  # never separated: the horizon ends inside an epoch
    p1 = cs.dpse_epoch_parameters(3, 1, 0.1, 1.0)
    T = 3 * p1.rounds + 7
    run = simulate_dpse_bernoulli(means, T, 1.0, 0.1, np.random.default_rng(0))
    assert run.pulls.sum() == T
    if not run.records[0].eliminated:
        # 7 leftover pulls, round-robin in order: (3, 2, 2)
        assert run.pulls.tolist() == [p1.rounds + 3, p1.rounds + 2, p1.rounds + 2]


def test_fast_path_determinism() -> None:
    a = simulate_dpse_bernoulli(instance("C2", 10), 10**7, 0.1, 1e-7, np.random.default_rng(9))
    b = simulate_dpse_bernoulli(instance("C2", 10), 10**7, 0.1, 1e-7, np.random.default_rng(9))
    assert np.array_equal(a.pulls, b.pulls) and a.pseudo_regret == b.pseudo_regret


# ------------------------------------------------------------------------------------------------
# Regression values (T = 5e7, β = 1/T)
# ------------------------------------------------------------------------------------------------


def _rounds_by_hand(S: int, e: int, eps: float, beta: float) -> int:
    gap = 2.0**-e
    term1 = 32.0 * math.log(8 * S * e * e / beta) / gap**2
    term2 = 8.0 * math.log(4 * S * e * e / beta) / (eps * gap)
    return math.ceil(max(term1, term2) + 1.0)


@pytest.mark.parametrize(("eps", "expected"), [(0.25, 12556.2), (1.0, 12556.2), (0.1, 12671.0)])
def test_regression_c1_k5(eps: float, expected: float) -> None:
    """C1/K=5: all four 0.05-gap arms survive epochs 1-2 (thresholds 0.185, 0.078 > 0.05) and are
    eliminated in epoch 3 (threshold 0.035 < 0.05), so the regret is (r_1 + r_2 + r_3) · 0.05 · 4."""
    beta = 1.0 / T_PAPER
    by_hand = sum(_rounds_by_hand(5, e, eps, beta) for e in (1, 2, 3)) * 0.05 * 4
    assert by_hand == pytest.approx(expected, rel=1e-9)  # spec: 12556.2 and 12671
    assert expected <= bd.thm43_regret_bound([0.0] + [0.05] * 4, T_PAPER, eps)  # Thm 4.3 holds
    for seed in range(3):
        run = simulate_dpse_bernoulli(instance("C1", 5), T_PAPER, eps, beta, np.random.default_rng(seed))  # fmt: skip
        assert run.pseudo_regret == pytest.approx(expected, rel=1e-9)
        assert run.elimination_epoch.tolist() == [-1, 3, 3, 3, 3]


def _noiseless_regret(means: list[float], eps: float, beta: float, T: int) -> float:
    """Independent predictor: Algorithm 3 with μ̃ = μ exactly."""
    mu = np.array(means)
    S, e, t = list(range(len(mu))), 0, 0
    pulls = np.zeros(len(mu))
    while len(S) > 1:
        e += 1
        n, gap = len(S), 2.0**-e
        l8, l4 = math.log(8 * n * e * e / beta), math.log(4 * n * e * e / beta)
        R = max(32 * l8 / gap**2, 8 * l4 / (eps * gap)) + 1
        thr = 2 * math.sqrt(l8 / (2 * R)) + 2 * l4 / (R * eps)
        pulls[S] += math.ceil(R)
        t += math.ceil(R) * n
        top = max(mu[S])
        S = [a for a in S if top - mu[a] <= thr]
    pulls[S[0]] += T - t
    return float(np.dot(mu.max() - mu, pulls))


@pytest.mark.parametrize(
    ("name", "K", "eps", "spec_value"),
    [("C2", 3, 0.25, 2008), ("C3", 5, 0.25, 4286), ("C4", 3, 0.1, 3423), ("C4", 3, 0.25, 3074)],
)
def test_regression_deterministic_cells(name: str, K: int, eps: float, spec_value: int) -> None:
    """Cells with sd 0 in the regression table: the run equals the noiseless trajectory."""
    beta = 1.0 / T_PAPER
    predicted = _noiseless_regret(instance(name, K), eps, beta, T_PAPER)
    assert predicted == pytest.approx(spec_value, abs=0.5)
    for seed in range(3):
        run = simulate_dpse_bernoulli(instance(name, K), T_PAPER, eps, beta, np.random.default_rng(seed))  # fmt: skip
        assert run.pseudo_regret == pytest.approx(predicted, rel=1e-9)


# ------------------------------------------------------------------------------------------------
# Monte Carlo: Lemma 4.2's event and claims
# ------------------------------------------------------------------------------------------------


def test_laplace_tail_of_lemma42_event_is_exact() -> None:
    """ACC-SE-5: Pr[|μ̃_a − μ̄_a| > c_e] = exp(−c_e ε r_e) = (β/(4|S|e²))^{r_e/R_e}, exactly."""
    means, eps, beta = [0.6, 0.5, 0.4], 1.0, 0.9
    p1 = cs.dpse_epoch_parameters(3, 1, beta, eps)
    prob = math.exp(-p1.c * eps * p1.rounds)
    assert prob == pytest.approx((beta / 12.0) ** (p1.rounds / p1.rounds_R_e), rel=1e-12)
    rng = np.random.default_rng(11)
    n, hits = 3000, 0
    for _ in range(n):
        run = simulate_dpse_bernoulli(means, 3 * p1.rounds, eps, beta, rng)
        rec = run.records[0]
        hits += int(np.sum(np.abs(rec.noisy_means - rec.empirical_means) > p1.c))
    assert binomtest(hits, 3 * n, prob).pvalue > FPR


def test_lemma42_claims_monte_carlo() -> None:
    """Lemma 4.2 (β = 0.5): w.p. ≥ 1 − β, a* is never eliminated, every viable arm with
    Δ_a ≥ 2^−e is eliminated in epoch e, pulls ≤ the explicit bound; the run identifies a*."""
    means = [0.9, 0.4, 0.65, 0.775, 0.8375]  # gaps 0.5, 0.25, 0.125, 0.0625 (spec ACC-SE-6)
    gaps = 0.9 - np.array(means)
    eps, beta, T = 1.0, 0.5, 2_000_000
    rng = np.random.default_rng(12)
    runs, fails = 300, 0
    for _ in range(runs):
        run = simulate_dpse_bernoulli(means, T, eps, beta, rng)
        bad = run.elimination_epoch[0] != -1
        for rec in run.records:
            for a in rec.viable:
                if gaps[a] >= rec.params.gap and a not in rec.eliminated:
                    bad = True
        for a in range(1, 5):
            bad |= run.pulls[a] > bd.lemma42_pull_bound(5, float(gaps[a]), beta, eps)
        fails += bool(bad)
    assert binomtest(fails, runs, beta, alternative="greater").pvalue > FPR


# ------------------------------------------------------------------------------------------------
# Guess-and-double
# ------------------------------------------------------------------------------------------------


def test_guess_and_double_phases() -> None:
    pol = GuessAndDoubleDPSE(2, 1.0, np.random.default_rng(0), initial_guess=1000)
    env = BanditEnvironment([0.9, 0.1], np.random.default_rng(1))
    run_policy(pol, env, 1000 + 2000 + 4000 + 5)
    assert len(pol.phases) == 4
    assert pol.phase == 3 and pol.phase_length == 8000
    for p, inst in enumerate(pol.phases):
        assert inst.beta == pytest.approx(1.0 / (1000 * 2**p))
    assert [inst.t for inst in pol.phases] == [1000, 2000, 4000, 5]
    # each phase is a fresh instance starting from epoch 1 with all arms viable
    assert pol.phases[3].epoch == 1 and pol.phases[3].viable == (0, 1)
    with pytest.raises(ValueError, match="initial_guess"):
        GuessAndDoubleDPSE(2, 1.0, None, initial_guess=1)


# ------------------------------------------------------------------------------------------------
# UCB1 and DP-UCB
# ------------------------------------------------------------------------------------------------


def test_ucb1_index_by_hand() -> None:
    pol = UCB1(2)
    table = [[1.0, 0.0, 1.0, 1.0], [0.0, 1.0, 1.0, 1.0]]
    arms = drive(pol, table, 3)
    assert arms[:2] == [0, 1]
    # after rounds 1-2 (one pull each: means 1, 0) round 3 picks arm 0 (index 1 + sqrt(2 log 3))
    assert arms[2] == 0
    # round 4: arm 0 has mean 1/2 over 2 pulls, arm 1 mean 0 over 1 pull;
    # B_0 = 0.5 + sqrt(2 log 4 / 2), B_1 = 0 + sqrt(2 log 4)
    idx = pol.index()
    assert idx.tolist() == pytest.approx([0.5 + math.sqrt(math.log(4.0)), math.sqrt(2 * math.log(4.0))])  # fmt: skip
    # 0.5 + √(log 4) = 1.6774 > √(2 log 4) = 1.6651: arm 0 again
    assert pol.select_arm() == int(np.argmax(idx)) == 0
    # ties go to the lowest index
    tie = UCB1(3)
    drive(tie, [[0.5] * 5] * 3, 3)
    assert tie.select_arm() == 0


def test_dpucb_calibration_and_width() -> None:
    K, T, eps = 4, 1000, 0.5
    per = DPUCB(K, T, eps, np.random.default_rng(0))
    split = DPUCB(K, T, eps, np.random.default_rng(0), calibration="split")
    m = tree_depth(T)
    assert m == 1 + 10
    assert per.epsilon_tree == eps and split.epsilon_tree == pytest.approx(eps / K)
    assert per.node_scale == pytest.approx(m / eps)
    assert split.node_scale == pytest.approx(K * m / eps)
    assert per.gamma == pytest.approx(cs.dpucb_confidence_width(K, T, eps, 1.0 / T))
    assert split.gamma == pytest.approx(K * per.gamma)
    assert per.trees[0].noise.scale == pytest.approx(m / eps)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="calibration"):
        DPUCB(K, T, eps, np.random.default_rng(0), calibration="none")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="T"):
        DPUCB(K, 3, eps, np.random.default_rng(0))


def test_dpucb_node_noise_law_and_drawn_once() -> None:
    """After one pull of arm 0 the release is reward + one Lap(m/ε) node noise: Pr[|noise| > m/ε ·
    log 4] = 1/4 exactly (two-sided binomial test); repeated releases return the same noise."""
    K, T, eps = 2, 64, 1.0
    m = tree_depth(T)
    rng = np.random.default_rng(21)
    n, hits = 3000, 0
    for _ in range(n):
        pol = DPUCB(K, T, eps, rng)
        pol.update(0, 1.0)
        noise = pol.noisy_sums()[0] - 1.0
        assert pol.noisy_sums()[0] - 1.0 == noise  # node noise drawn once, reused
        hits += abs(noise) > (m / eps) * math.log(4.0)
    assert binomtest(hits, n, 0.25).pvalue > FPR


def test_dpucb_runs_and_is_deterministic() -> None:
    def go() -> np.ndarray:
        env = BanditEnvironment([0.9, 0.2], np.random.default_rng(3))
        return run_policy(DPUCB(2, 600, 1.0, np.random.default_rng(4)), env, 600).arms

    a, b = go(), go()
    assert np.array_equal(a, b)
    assert a[:2].tolist() == [0, 1]


def test_step_by_step_and_fast_path_agree_in_distribution() -> None:
    """Arm 1's gap 0.138 sits at epoch 1's threshold (K = 3, ε = 1, β = 0.5), so it is eliminated
    in epoch 1 or 2 at random.  The step-by-step policy and the binomial fast path must give the same
    law: Fisher's exact test, false-positive rate 1e-6."""
    means, eps, beta = [0.8, 0.662, 0.3], 1.0, 0.5
    p1 = cs.dpse_epoch_parameters(3, 1, beta, eps)
    p2 = cs.dpse_epoch_parameters(2, 2, beta, eps)
    assert abs((0.8 - 0.662) - p1.threshold) < 0.01
    T = 3 * p1.rounds + 2 * p2.rounds
    n_step, n_fast = 80, 4000
    env_rng, pol_rng = np.random.default_rng(31), np.random.default_rng(32)
    step_first = 0
    for _ in range(n_step):
        pol = DPSuccessiveElimination(3, eps, beta, pol_rng)
        run_policy(pol, BanditEnvironment(means, env_rng), T)
        step_first += 1 in pol.records[0].eliminated
    rng = np.random.default_rng(33)
    fast_first = sum(
        int(simulate_dpse_bernoulli(means, T, eps, beta, rng).elimination_epoch[1] == 1)
        for _ in range(n_fast)
    )
    assert 0.2 < fast_first / n_fast < 0.8  # the test has power: a genuinely random outcome
    table = np.array([[step_first, n_step - step_first], [fast_first, n_fast - fast_first]])
    assert fisher_exact(table).pvalue > FPR
