"""Zhou & Tan (AAAI 2021) correctness audits as binomial failure counts: the confidence events of
LDP-TGP-UCB (Eq. (21), Alg. 2, Thm 3), LDP-ATA-GP-UCB (Thm 2, Alg. 1) and LDP-MoMA-GP-UCB (Thm 4,
Cor. 1, Alg. 3), Lemma 8 (Nyström), Lemma 9.2, Lemma 10, Lemma 11 and median-of-means selection,
and the power of these tests.  Overview in :mod:`audit.papers.zhou_tan.battery`.

Proof note: ``proofs_notes/audit/zhou_tan.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from typing import TypeAlias

import numpy as np
from scipy import stats

from audit.methods.binomial import RunAuditResult, ratio_quantiles
from audit.papers.zhou_tan.cases import (
    Lemma11Bound,
    Lemma92Variant,
    MomaWidthVariant,
    NystromVariant,
    RadiusVariant,
    Selection,
    WidthVariant,
    _params,
)
from audit.stats import clopper_pearson
from reference._typing import FloatArray, IntArray
from reference.rng import check_seed
from reference.validation import (
    check_choice,
    check_in_range,
    check_int_at_least,
    check_size,
)
from reference.zhou_tan.algorithms import (
    ATAGPUCB,
    TGPUCB,
    MoMAGPUCB,
    make_ldp_ata_gp_ucb,
    make_ldp_moma_gp_ucb,
    make_ldp_tgp_ucb,
)
from reference.zhou_tan.environment import (
    Curator,
    FiniteArmEnvironment,
    Policy,
    UniformNoise,
    sample_rkhs_function,
)
from reference.zhou_tan.gp import finite_feature_map, lemma5_posterior_variance
from reference.zhou_tan.kernels import certified_gamma_upper, se_kernel, unit_grid
from reference.zhou_tan.mechanism import (
    ConvertToLaplace,
    LDPParams,
    ctl_privatize,
    ldp_noise_second_moment,
)
from reference.zhou_tan.nystrom import (
    NystromResult,
    approx_posterior,
    dictionary_accuracy,
    nystrom_embedding,
)
from reference.zhou_tan.robust import median_of_means_select, ridge_thetas
from reference.zhou_tan.schedules import (
    first_beta_approx,
    igp_ucb_beta,
    moma_radius,
    nystrom_q,
    practical_nystrom_q,
    rho_nys,
)

__all__ = [
    "ata_confidence_event_audit",
    "binomial_power",
    "critical_failure_count",
    "lemma10_radius_audit",
    "lemma11_count_audit",
    "lemma92_variance_ratio_audit",
    "mom_selection_audit",
    "moma_confidence_event_audit",
    "nystrom_lemma8_audit",
    "tgp_confidence_event_audit",
]


# --------------------------------------------------------------------------------------------
# Binomial failure-count tests: power
# --------------------------------------------------------------------------------------------


def critical_failure_count(trials: int, nominal: float, confidence: float) -> int:
    """Smallest failure count ``c`` whose one-sided Clopper–Pearson lower bound (level
    ``1 − confidence``) exceeds ``nominal`` (``trials + 1`` if none): the rejection threshold of
    :meth:`audit.methods.binomial.RunAuditResult.from_ratios`."""
    nominal = check_in_range("nominal", nominal, 0.0, 1.0, low_open=False)
    trials = check_int_at_least("trials", trials, 1)
    beta = 1.0 - check_in_range("confidence", confidence, 0.0, 1.0)
    lo, hi = 0, trials + 1
    while lo < hi:  # CP lower bound is increasing in c
        mid = (lo + hi) // 2
        if clopper_pearson(mid, trials, beta)[0] > nominal:
            hi = mid
        else:
            lo = mid + 1
    return lo


def binomial_power(trials: int, failure_rate: float, nominal: float, confidence: float) -> float:
    """``P(Bin(trials, failure_rate) ≥ c*)``: the probability that a failure-count audit rejects
    ``nominal`` when the true failure rate is ``failure_rate`` (exact, ``scipy.stats.binom``)."""
    c = critical_failure_count(trials, nominal, confidence)
    p = check_in_range("failure_rate", failure_rate, 0.0, 1.0, low_open=False, high_open=False)
    return float(stats.binom.sf(c - 1, trials, p))


# --------------------------------------------------------------------------------------------
# Correctness: the LDP-TGP-UCB confidence event (Eq. 21), Lemma 10, Lemma 11
# --------------------------------------------------------------------------------------------


_Band: TypeAlias = Callable[[int], tuple[FloatArray, FloatArray]]
"""``band(t)``: the centre and half-width of a learner's confidence band after its ``t``-th step."""


def _seed_confidence(seed: int, confidence: float) -> tuple[int, float]:
    """The checked ``(seed, confidence)`` of an audit (the one seed rule; ``confidence`` in
    ``(0, 1)``)."""
    return check_seed(seed, "seed"), check_in_range("confidence", confidence, 0.0, 1.0)


def _run_settings(
    seed: int, confidence: float, delta: float, runs: int, rounds: int, eps_nys: float | None = None
) -> tuple[int, float, int, int]:
    """The checked ``(seed, confidence, runs, rounds)`` of a run-based audit (``delta`` and, when
    given, ``eps_nys`` checked in ``(0, 1)``; at least 1 run of at least 2 rounds)."""
    seed, confidence = _seed_confidence(seed, confidence)
    check_in_range("delta", delta, 0.0, 1.0)
    if eps_nys is not None:
        check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    return (
        seed,
        confidence,
        check_size("runs", runs, 1, item_bytes=8, what="a run's result"),
        check_size("rounds", rounds, 2, item_bytes=8, what="a round's value"),
    )


def _worst_confidence_ratios(
    params: LDPParams,
    K: FloatArray,
    entropy: list[int],
    runs: int,
    learner: Callable[[np.random.Generator], tuple[Policy, int, _Band]],
) -> FloatArray:
    """Per run, ``max_{t,x} |f(x) − centre_t(x)| / width_t(x)`` of a confidence event (``∞`` where
    the width is 0 and the error is not, 0 where both are).

    Each run (``SeedSequence(entropy).spawn(runs)``, each split into the objective's, the
    environment's, the learner's and the randomiser's generators): a fresh objective (Sec. 5.1
    generator, ``a_i ~ U[−1, 1]``, scaled to ``‖f‖_ℋ ≤ B``) on the kernel ``K``, ``η ~ U[−R, R]``,
    rewards through the reference CTL(ϵ); ``learner(generator)`` gives the policy, its number of
    steps and its band, read after each ``observe``."""
    ratios = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence(entropy).spawn(runs)):
        g_f, g_env, g_pol, g_ctl = (np.random.default_rng(s) for s in ss.spawn(4))
        fn = sample_rkhs_function(K, 4, g_f)
        f = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))
        env = FiniteArmEnvironment(f, UniformNoise(params.R), g_env)
        policy, steps, band = learner(g_pol)
        curator = Curator(ConvertToLaplace(params, g_ctl))
        worst = 0.0
        for t in range(1, steps + 1):
            arm, n = policy.next_query()
            policy.observe(arm, curator.respond(env, arm, n))
            centre, width = band(t)
            err = np.abs(f - centre)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(width > 0, err / width, np.where(err > 0, np.inf, 0.0))
            worst = max(worst, float(np.max(ratio)))
        ratios[r] = worst
    return ratios


def _event_kernel() -> FloatArray:
    """The kernel of the confidence-event audits: SE, ℓ = 0.25, on 8 grid points."""
    X = unit_grid(8)
    return se_kernel(X, X, 0.25)


def _confidence_event_result(
    name: str,
    label: str,
    params: LDPParams,
    K: FloatArray,
    entropy: list[int],
    learner: Callable[[np.random.Generator], tuple[Policy, int, _Band]],
    *,
    runs: int,
    delta: float,
    confidence: float,
    seed: int,
    started: float,
) -> RunAuditResult:
    """A confidence-event audit: the runs' :func:`_worst_confidence_ratios` (entropy ``entropy``)
    as a failure count against the nominal rate ``delta``."""
    ratios = _worst_confidence_ratios(params, K, entropy, runs, learner)
    return RunAuditResult.from_ratios(
        name,
        {label: ratios},
        check_in_range("delta", delta, 0.0, 1.0),
        confidence=confidence,
        seed=seed,
        started=started,
    )


def _approximate_band(policy: ATAGPUCB | MoMAGPUCB) -> tuple[FloatArray, FloatArray]:
    """``(μ̃, β σ̃)`` of an approximate-posterior learner, as it stands after an ``observe``."""
    return policy.mean, policy.beta * np.sqrt(np.maximum(policy.var, 0.0))


def tgp_confidence_event_audit(
    params: LDPParams,
    variant: WidthVariant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
    delta: float = 0.05,
) -> RunAuditResult:
    """Eq. (21) / Thm 3 for LDP-TGP-UCB: the event ``|f(x) − μ̂_t(x)| ≤ β_{t+1}σ_t(x)`` for all
    ``t ≤ rounds`` and ``x`` fails in at most a fraction ``δ`` of runs.

    Each run: a fresh objective ``f`` (Sec. 5.1: ``a_i ~ U[−1, 1]``, scaled to ``‖f‖_ℋ ≤ B``) on
    8 grid points (SE, ℓ = 0.25), ``η ~ U[−R, R]``, rewards through the reference CTL(ϵ),
    ``λ = 1``.  ``"theory"``: Alg. 2's ``b_t`` and ``β_t`` (:func:`make_ldp_tgp_ucb`).
    ``"width_ignores_laplace"``: the same learner with the IGP-UCB width
    ``B + R√(2(γ̄ + 1 + ln 1/δ))`` of [6] for ``R``-bounded noise (the privacy noise forgotten).
    Slack ratio: ``max_{t,x} |f − μ̂_t|/(β_{t+1}σ_t)``.
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("variant", variant, ("theory", "width_ignores_laplace"))
    seed, confidence, runs, rounds = _run_settings(seed, confidence, delta, runs, rounds)
    K = _event_kernel()
    gbar = certified_gamma_upper(K, rounds + 1, 1.0)

    def learner(g_pol: np.random.Generator) -> tuple[Policy, int, _Band]:
        base = make_ldp_tgp_ucb(K, params, 1.0, delta, rounds + 1, g_pol)
        if variant == "theory":
            beta = base.beta
        elif variant == "width_ignores_laplace":

            def beta(t: int) -> float:
                g = 0.0 if t == 1 else float(gbar[t - 2])
                return igp_ucb_beta(t, params.B, params.R, g, delta)

        else:
            raise ValueError(
                f"variant must be 'theory' or 'width_ignores_laplace', got {variant!r}"
            )
        policy = TGPUCB(K, 1.0, base.trunc_level, beta, g_pol)

        def band(t: int) -> tuple[FloatArray, FloatArray]:
            return policy.gp.mean, beta(t + 1) * np.sqrt(np.maximum(policy.gp.var, 0.0))

        return policy, rounds, band

    return _confidence_event_result(
        f"tgp_confidence_event_{variant}",
        "max_t,x |f - mu_t| / (beta_{t+1} sigma_t)",
        params, K, [seed, 3], learner,
        runs=runs, delta=delta, confidence=confidence, seed=seed, started=t0,
    )  # fmt: skip


def ata_confidence_event_audit(
    params: LDPParams,
    variant: WidthVariant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
    delta: float = 0.05,
    eps_nys: float = 0.5,
) -> RunAuditResult:
    """Thm 2 for LDP-ATA-GP-UCB (Alg. 1): the event ``|f(x) − μ̃_t(x)| ≤ β_{t+1}σ̃_t(x)`` for all
    ``t ≤ rounds`` and ``x`` fails in at most a fraction ``δ`` of runs (MC2; the event
    of [7]'s proof that Thm 2 inherits, Nyström failure included).

    Built exactly as :func:`tgp_confidence_event_audit`: per run a fresh objective (Sec. 5.1
    generator, ``‖f‖_ℋ ≤ B``) on 8 grid points (SE, ℓ = 0.25), ``η ~ U[−R, R]``, rewards through
    the reference CTL(ϵ), ``λ = 1``.  ``"theory"``: :func:`make_ldp_ata_gp_ucb` (Thm 2's ``q``,
    ``b_t``, ``β_{t+1}`` with ``v = B² + R² + 8(B+R)²/ϵ²``, ``ε = eps_nys``).
    ``"width_ignores_laplace"``: the same learner (same ``q`` and ``b_t``) with the IGP-UCB width
    ``β_{t+1} = B + R√(2(γ̄_t + 1 + ln 1/δ))`` of [6] for ``R``-bounded noise (the privacy noise
    forgotten in the width).  ``μ̃_t``, ``σ̃_t`` and ``β_{t+1}`` are read from the reference
    :class:`ATAGPUCB` after each ``observe``.  Slack ratio: ``max_{t,x} |f − μ̃_t|/(β_{t+1}σ̃_t)``.
    """
    t0 = time.perf_counter()
    _params(params)
    seed, confidence, runs, rounds = _run_settings(seed, confidence, delta, runs, rounds, eps_nys)
    check_choice("variant", variant, ("theory", "width_ignores_laplace"))
    K = _event_kernel()
    gbar = certified_gamma_upper(K, rounds + 1, 1.0)

    def learner(g_pol: np.random.Generator) -> tuple[Policy, int, _Band]:
        base = make_ldp_ata_gp_ucb(K, params, 1.0, delta, eps_nys, rounds, g_pol)
        if variant == "theory":
            beta_next = base.beta_next
        else:

            def beta_next(t: int, m: int) -> float:
                return igp_ucb_beta(t + 1, params.B, params.R, float(gbar[t - 1]), delta)

        policy = ATAGPUCB(
            K, 1.0, base.q, base.trunc_level, beta_next, base.beta, g_pol, base.dedupe_mode
        )
        return policy, rounds, lambda _t: _approximate_band(policy)  # β_{t+1} σ̃_t

    return _confidence_event_result(
        f"ata_confidence_event_{variant}",
        "max_t,x |f - mu~_t| / (beta_{t+1} sigma~_t)",
        params, K, [seed, 8], learner,
        runs=runs, delta=delta, confidence=confidence, seed=seed, started=t0,
    )  # fmt: skip


def _lemma10_design(seed: int) -> tuple[FloatArray, int]:
    """A fixed design: 12 epoch points on a 30-point SE grid, full-rank Nyström dictionary."""
    rng = np.random.default_rng([seed, 4])
    X = unit_grid(30)
    K = se_kernel(X, X, 0.1)
    arms = rng.integers(0, 30, size=12)
    res = nystrom_embedding(K, arms, np.ones(12), 1e12, rng)
    return np.asarray(res.features[:, arms].T, dtype=np.float64), int(res.m)


def lemma10_radius_audit(
    params: LDPParams,
    variant: RadiusVariant,
    *,
    estimators: int,
    seed: int,
    confidence: float,
) -> RunAuditResult:
    """Lemma 10 (App. D.3), fixed design: ``P(‖Ṽ⁻¹Φ̃ᵀf − θ̃_j‖_Ṽ > γ) ≤ 19/81`` per estimator.

    LDP-MoMA noise ``η + L``: the reference CTL applied to ``η ~ U[−R, R]`` (the reward with
    ``f = 0``; the error ``θ̃_j − Ṽ⁻¹Φ̃ᵀf`` does not depend on ``f``), ``α = 1``,
    ``γ = (9 m c)^{1/2}`` (:func:`moma_radius`).
    ``"paper"``: Cor. 1's ``c = R² + 8(B+R)²/ϵ²``; ``"c_without_laplace"``: ``c = R²`` (the
    privacy noise forgotten).  Failures over ``estimators`` independent estimators ~ ``Bin``.
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("variant", variant, ("paper", "c_without_laplace"))
    seed, confidence = _seed_confidence(seed, confidence)
    estimators = check_size("estimators", estimators, 1, item_bytes=8, what="an estimator")
    Phi, m = _lemma10_design(seed)
    n = Phi.shape[0]
    if variant == "paper":
        c = ldp_noise_second_moment(params.B, params.R, params.eps)
    elif variant == "c_without_laplace":
        c = params.R**2
    else:
        raise ValueError(f"variant must be 'paper' or 'c_without_laplace', got {variant!r}")
    gamma = moma_radius(n, m, c)
    rng = np.random.default_rng([seed, 5])
    raw = UniformNoise(params.R).sample(n * estimators, rng).reshape(n, estimators)
    noise = ctl_privatize(raw, params, rng)  # η + L (|η| ≤ R, so clipping is a no-op)
    theta, V = ridge_thetas(Phi, noise, 1.0)  # θ̃_j − Ṽ⁻¹Φ̃ᵀf = Ṽ⁻¹Φ̃ᵀ(η_j + L_j)
    dist = np.sqrt(np.einsum("ij,ik,kj->j", theta, V, theta))
    return RunAuditResult.from_ratios(
        f"lemma10_radius_{variant}",
        {"||theta_j - theta*||_V / gamma": dist / gamma},
        19.0 / 81.0,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def _lemma11_errors(
    params: LDPParams, k: int, runs: int, seed: int
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(Θ, V, errors)`` for ``runs`` epochs of ``k`` estimators at one design point ``φ = 1``.

    ``ȳ = f + L`` from the reference CTL (``f = 0.5``, ``η ≡ 0``); ridge with ``λ = 1``:
    ``θ̃_j = ȳ_j/2``, ``V = 2``, so ``‖θ̃_j − θ*‖_V = |L_j|/√2``.  ``errors`` has shape ``(runs, k)``.
    """
    f = 0.5
    rng = np.random.default_rng([seed, 6])
    y = ctl_privatize(np.full((1, k * runs), f), params, rng)
    theta, V = ridge_thetas(np.ones((1, 1)), y, 1.0)
    theta_star = f / 2.0
    errors = np.abs(theta[0] - theta_star) * math.sqrt(float(V[0, 0]))
    return theta, V, errors.reshape(runs, k)


def _lemma11_radius(params: LDPParams, p: float) -> float:
    """``γ`` with ``P(|L|/√2 > γ) = p`` exactly: ``γ = 𝓛 ln(1/p)/√2`` (``|L| ~ Exp(mean 𝓛)``)."""
    return params.lap_scale * math.log(1.0 / p) / math.sqrt(2.0)


def lemma11_count_audit(
    params: LDPParams,
    bound: Lemma11Bound,
    *,
    k: int,
    p: float,
    runs: int,
    seed: int,
    confidence: float,
) -> RunAuditResult:
    """Lemma 11's Hoeffding step (App. D.3): ``P(Σ_j b_j ≥ k/3) ≤ e^{−k/72}`` (corrected, T-9)
    or ``e^{−k/24}`` (printed), for ``b_j = 1{‖θ̃_j − θ*‖_V > γ}`` independent with ``P(b_j) = p < 1/4``.

    ``γ`` is set so that ``P(b_j = 1) = p`` exactly (:func:`_lemma11_radius`).  A run fails when
    ``Σ_j b_j ≥ ⌈k/3⌉``; the ratio reported is ``Σ_j b_j/(⌈k/3⌉ − ½)`` (``> 1`` iff failure).
    At ``k = 100``, ``p = 0.249``: exact tail ``P(Bin(100, 0.249) ≥ 34) = 0.0261`` vs
    ``e^{−100/24} = 0.0155`` (printed, false) and ``e^{−100/72} = 0.249`` (corrected).
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("bound", bound, ("corrected", "paper"))
    seed, confidence = _seed_confidence(seed, confidence)
    k = check_size("k", k, 1, item_bytes=8, what="a term")
    p = check_in_range("p", p, 0.0, 0.25)
    _, _, errors = _lemma11_errors(
        params, k, check_size("runs", runs, 1, item_bytes=8, what="a run's result"), seed
    )
    count = np.sum(errors > _lemma11_radius(params, p), axis=1)
    nominal = math.exp(-k / 72.0) if bound == "corrected" else math.exp(-k / 24.0)
    name = "lemma11_corrected_constant" if bound == "corrected" else "lemma11_paper_constant"
    return RunAuditResult.from_ratios(
        name,
        {"sum_j b_j / (ceil(k/3) - 1/2)": count / (math.ceil(k / 3.0) - 0.5)},
        nominal,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def mom_selection_audit(
    params: LDPParams,
    selection: Selection,
    *,
    k: int,
    p: float,
    runs: int,
    seed: int,
    confidence: float,
) -> RunAuditResult:
    """Lemma 11's conclusion: ``‖θ* − θ̃_{k*}‖_V ≤ 3γ`` except w.p. ``≤ e^{−k/72}`` (corrected).

    ``k*`` is chosen by the reference :func:`median_of_means_select` (``"argmin"``, Alg. 3, line 12) or
    by the broken rule ``argmax_j r_j`` (``"argmax"``: the estimator farthest from the others).
    Same epochs as :func:`lemma11_count_audit` (first ``runs`` of them).
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("selection", selection, ("argmin", "argmax"))
    seed, confidence = _seed_confidence(seed, confidence)
    k = check_size("k", k, 2, item_bytes=8, what="a term")
    theta, V, errors = _lemma11_errors(
        params, k, check_size("runs", runs, 1, item_bytes=8, what="a run's result"), seed
    )
    gamma = _lemma11_radius(params, check_in_range("p", p, 0.0, 0.25))
    chosen = np.empty(runs)
    th = theta.reshape(1, runs, k)
    for r in range(runs):
        k_star, r_med = median_of_means_select(th[:, r, :], V)
        if selection == "argmax":
            k_star = int(np.argmax(r_med))
        elif selection != "argmin":
            raise ValueError(f"selection must be 'argmin' or 'argmax', got {selection!r}")
        chosen[r] = errors[r, k_star]
    return RunAuditResult.from_ratios(
        f"mom_selection_{selection}" if selection == "argmin" else "mom_argmax_selection",
        {"||theta_k* - theta*||_V / (3 gamma)": chosen / (3.0 * gamma)},
        math.exp(-k / 72.0),
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def _nystrom_grid(n_arms: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(K, K^{1/2}, diag K)`` on ``n_arms`` grid points (SE, ℓ = 0.25)."""
    X = unit_grid(check_size("n_arms", n_arms, 1, item_bytes=8, what="an arm"))
    K = se_kernel(X, X, 0.25)
    return K, finite_feature_map(K), np.diag(K).copy()


def _nystrom_chain(
    K: FloatArray, kdiag: FloatArray, q: float, rounds: int, ss: np.random.SeedSequence
) -> Iterator[tuple[int, IntArray, NystromResult, FloatArray]]:
    """One run of Alg. 4's chain: ``N = rounds`` history points drawn uniformly (a fixed design)
    and, for ``n = 1..N``, the embedding of the first ``n`` with per-index weights from
    ``σ̃_{n−1}`` (``σ̃_0² = k(x, x)``), then ``σ̃_n²``; yields ``(n, history, embedding, σ̃_n²)``
    (``ss`` splits into the history's and the embeddings' generators)."""
    g_arms, g_nys = (np.random.default_rng(s) for s in ss.spawn(2))
    arms = g_arms.integers(0, K.shape[0], size=rounds)
    var = kdiag.copy()  # σ̃_0² = k(x, x)
    for n in range(1, rounds + 1):
        hist = arms[:n]
        res = nystrom_embedding(K, hist, np.sqrt(var[hist]), q, g_nys)
        _, var = approx_posterior(res.features, hist, kdiag, 1.0)
        yield n, hist, res, var


def nystrom_lemma8_audit(
    variant: NystromVariant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
    eps_nys: float = 0.5,
    delta: float = 0.2,
    n_arms: int = 3,
) -> RunAuditResult:
    """Lemma 8 (App. D.3): with ``q = 6ρ ln(2T/δ)/ε²``, ``P[∩_{n≤N}(E_{1,n} ∩ E_{2,n})] ≥ 1 − δ``,
    ``E_{1,n}`` = the dictionary is ε-accurate (Definition 2), ``E_{2,n}`` =
    ``m_n ≤ 6ρ(1 + 1/λ) q γ_n`` (printed ``γ_t``, T-12).

    Each run: ``N = T = rounds`` history points drawn uniformly (a fixed, non-adaptive design, a
    special case of the lemma's adaptive one) from ``n_arms`` grid points (SE, ℓ = 0.25), ``λ = 1``.
    The reference chain of Alg. 4: at each ``n`` the embedding
    (:func:`~reference.zhou_tan.nystrom.nystrom_embedding`, per index ``p_i = min{q σ̃²_{n−1}(x_i), 1}``)
    uses ``σ̃_{n−1}`` from the previous embedding's
    :func:`~reference.zhou_tan.nystrom.approx_posterior`; accuracy is read by
    :func:`~reference.zhou_tan.nystrom.dictionary_accuracy` (extreme generalised eigenvalues of
    ``(V_𝒟, V)`` with exact features ``K^{1/2}`` and per-index weights ``1/p_i``), at every ``n``.
    ``γ_n`` is replaced by the certified upper bound ``γ̄_n`` (so ``E_{2,n}`` is checked against a
    larger bound).  ``"theory_q"``: Lemma 8's ``q`` (``log_const = 2``, the smallest of the paper's
    two); ``"q_ref7_too_few"``: ``q = ln T/ε²`` of the code of [7] (the practical preset),
    too few dictionary points for ε-accuracy.  A run fails when any of
    ``(1 − min_n λ_min)/ε``, ``(max_n λ_max − 1)/ε``, ``max_n m_n/(6ρ(1+1/λ)qγ̄_n)`` exceeds 1.
    """
    t0 = time.perf_counter()
    check_choice("variant", variant, ("theory_q", "q_ref7_too_few"))
    seed, confidence, runs, rounds = _run_settings(seed, confidence, delta, runs, rounds, eps_nys)
    eps = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    if variant == "theory_q":
        q = nystrom_q(rounds, delta, eps, log_const=2.0)
    elif variant == "q_ref7_too_few":
        q = practical_nystrom_q(rounds, eps)
    else:
        raise ValueError(f"variant must be 'theory_q' or 'q_ref7_too_few', got {variant!r}")
    K, root, kdiag = _nystrom_grid(n_arms)
    m_bound = 6.0 * rho_nys(eps) * 2.0 * q * certified_gamma_upper(K, rounds, 1.0)  # λ = 1
    low = np.empty(runs)
    high = np.empty(runs)
    size = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 9]).spawn(runs)):
        lo_min, hi_max, m_ratio = 1.0, 1.0, 0.0
        for n, hist, res, _ in _nystrom_chain(K, kdiag, q, rounds, ss):
            lo, hi = dictionary_accuracy(root, hist, res, 1.0)
            lo_min, hi_max = min(lo_min, lo), max(hi_max, hi)
            m_ratio = max(m_ratio, res.m / float(m_bound[n - 1]))
        low[r], high[r], size[r] = (1.0 - lo_min) / eps, (hi_max - 1.0) / eps, m_ratio
    return RunAuditResult.from_ratios(
        f"nystrom_lemma8_{variant}",
        {
            "(1 - min_n lambda_min(V_D, V)) / eps": low,
            "(max_n lambda_max(V_D, V) - 1) / eps": high,
            "max_n m_n / (6 rho (1 + 1/lam) q gamma_n)": size,
        },
        check_in_range("delta", delta, 0.0, 1.0),
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def moma_confidence_event_audit(
    params: LDPParams,
    variant: MomaWidthVariant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
    delta: float = 0.05,
    eps_nys: float = 0.5,
) -> RunAuditResult:
    """Thm 4 / Cor. 1 for LDP-MoMA-GP-UCB (Alg. 3): the final event of the proof (Eqs. 10/22,
    Sec. 4.4; MC3 (iv)) ``|f(x) − μ̃_n(x)| ≤ β_{n+1}σ̃_n(x)`` for all epochs ``n ≤ N`` and
    all ``x`` fails in at most a fraction ``δ`` of runs (Nyström and median-of-means failures
    included).

    Built exactly as :func:`tgp_confidence_event_audit`: per run a fresh objective (Sec. 5.1
    generator, ``‖f‖_ℋ ≤ B``) on 8 grid points (SE, ℓ = 0.25), ``η ~ U[−R, R]``, rewards through
    the reference CTL(ϵ), ``λ = 1``, ``T = rounds`` (``N = ⌊T/k⌋`` epochs, the ``T − Nk`` leftover
    rounds do not update and are not audited).  ``"theory"``: :func:`make_ldp_moma_gp_ucb` (Thm 4's
    ``q = 6ρ ln(4T/δ)/ε²``, ``k = ⌈24 ln(4eT/δ)⌉`` and ``β_{n+1} = B(1 + 1/√(1−ε)) + 3γ/√λ``,
    ``γ = (9 m_n c)^{1/2}``, Cor. 1's ``c = R² + 8(B+R)²/ϵ²``).  ``"width_drops_radius"``: the same
    learner (same ``q``, ``k``, ``β_1``) with ``β_{n+1} = B(1 + 1/√(1−ε))``, the robust radius, the
    only noise term of the width, forgotten.  ``μ̃_n``, ``σ̃_n`` and ``β_{n+1}`` are read from the
    reference :class:`MoMAGPUCB` after each epoch's ``observe``.
    Slack ratio: ``max_{n,x} |f − μ̃_n|/(β_{n+1}σ̃_n)``.
    """
    t0 = time.perf_counter()
    _params(params)
    seed, confidence, runs, rounds = _run_settings(seed, confidence, delta, runs, rounds, eps_nys)
    check_choice("variant", variant, ("theory", "width_drops_radius"))
    K = _event_kernel()
    b_known = first_beta_approx(params.B, eps_nys)  # B(1 + 1/√(1−ε))

    def beta_no_radius(n: int, m: int) -> float:
        return b_known

    def learner(g_pol: np.random.Generator) -> tuple[Policy, int, _Band]:
        base = make_ldp_moma_gp_ucb(K, params, 1.0, delta, eps_nys, rounds, g_pol)
        beta_next = base.beta_next if variant == "theory" else beta_no_radius
        policy = MoMAGPUCB(
            K,
            1.0,
            base.q,
            base.k_rep,
            rounds,
            beta_next,
            base.beta,
            g_pol,
            base.median_kind,
            base.dedupe_mode,
        )
        return policy, policy.n_epochs, lambda _n: _approximate_band(policy)  # β_{n+1} σ̃_n

    return _confidence_event_result(
        f"moma_confidence_event_{variant}",
        "max_n,x |f - mu~_n| / (beta_{n+1} sigma~_n)",
        params, K, [seed, 11], learner,
        runs=runs, delta=delta, confidence=confidence, seed=seed, started=t0,
    )  # fmt: skip


def lemma92_variance_ratio_audit(
    variant: Lemma92Variant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
    eps_nys: float = 0.5,
    delta: float = 0.2,
    n_arms: int = 3,
) -> list[RunAuditResult]:
    """Lemma 9.2 (App. D.3; MC3 (v)): on ``E_{1,n}`` (the dictionary is ε-accurate),
    ``σ̃_n(x) ≤ ρσ_n(x)`` for every ``x``, ``ρ = (1+ε)/(1−ε)``.

    The chain of :func:`nystrom_lemma8_audit` (``N = T = rounds`` history points drawn uniformly
    from ``n_arms`` SE grid points, ℓ = 0.25, ``λ = 1``; at each ``n`` the reference
    :func:`~reference.zhou_tan.nystrom.nystrom_embedding` with ``σ̃_{n−1}`` from the previous
    :func:`~reference.zhou_tan.nystrom.approx_posterior`).  ``σ̃_n`` is ``approx_posterior``'s, the
    exact ``σ_n`` is Eq. (4) through :func:`~reference.zhou_tan.gp.lemma5_posterior_variance`, and
    ``E_{1,n}`` is read by :func:`~reference.zhou_tan.nystrom.dictionary_accuracy`.

    Two results per variant:

    * ``lemma92_<variant>_on_accurate``: the lemma itself, a deterministic implication, so its
      nominal failure rate is 0: a run fails when ``σ̃_n(x) > ρσ_n(x)`` at some ``n`` where the
      dictionary is ε-accurate.  Known good for every ``q``.
    * ``lemma92_<variant>_unconditional``: Lemma 8 + 9.2: ``σ̃_n ≤ ρσ_n`` for all ``n ≤ N``, ``x``
      w.p. ``≥ 1 − δ``.  ``"theory_q"``: Lemma 8's ``q = 6ρ ln(2T/δ)/ε²`` (known good);
      ``"q_one"``: ``q = 1`` (MC3 (i): far too few dictionary points; broken).

    ``slack`` also reports (no bound attached) the per-run minimum of ``σ̃_n/σ_n`` over ``n, x``
    and the fraction of steps ``n`` on which ``E_{1,n}`` holds.
    """
    t0 = time.perf_counter()
    check_choice("variant", variant, ("theory_q", "q_one"))
    seed, confidence, runs, rounds = _run_settings(seed, confidence, delta, runs, rounds, eps_nys)
    eps = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    if variant == "theory_q":
        q = nystrom_q(rounds, delta, eps, log_const=2.0)
    elif variant == "q_one":
        q = 1.0
    else:
        raise ValueError(f"variant must be 'theory_q' or 'q_one', got {variant!r}")
    rho = rho_nys(eps)
    K, root, kdiag = _nystrom_grid(n_arms)
    uncond = np.empty(runs)
    on_acc = np.empty(runs)
    low_ratio = np.empty(runs)
    frac_acc = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 12]).spawn(runs)):
        worst, worst_acc, lowest, n_acc = 0.0, 0.0, np.inf, 0
        for _, hist, res, var in _nystrom_chain(K, kdiag, q, rounds, ss):
            exact = lemma5_posterior_variance(root, hist, 1.0)
            ratio = np.sqrt(var / exact)  # σ_n² ≥ λ/(n + λ) > 0 on a finite domain
            lo, hi = dictionary_accuracy(root, hist, res, 1.0)
            worst = max(worst, float(np.max(ratio)) / rho)
            lowest = min(lowest, float(np.min(ratio)))
            if 1.0 - eps <= lo and hi <= 1.0 + eps:
                n_acc += 1
                worst_acc = max(worst_acc, float(np.max(ratio)) / rho)
        uncond[r], on_acc[r], low_ratio[r], frac_acc[r] = worst, worst_acc, lowest, n_acc / rounds
    out = [
        RunAuditResult.from_ratios(
            f"lemma92_{variant}_on_accurate",
            {"max_{n in E_1n},x sigma~_n / (rho sigma_n)": on_acc},
            0.0,
            confidence=confidence,
            seed=seed,
            started=t0,
        ),
        RunAuditResult.from_ratios(
            f"lemma92_{variant}_unconditional",
            {"max_n,x sigma~_n / (rho sigma_n)": uncond},
            check_in_range("delta", delta, 0.0, 1.0),
            confidence=confidence,
            seed=seed,
            started=t0,
        ),
    ]
    for res_ in out:
        res_.slack["min_n,x sigma~_n / sigma_n (reported, no bound)"] = ratio_quantiles(low_ratio)
        res_.slack["fraction of n with E_1n (reported, no bound)"] = ratio_quantiles(frac_acc)
    return out
