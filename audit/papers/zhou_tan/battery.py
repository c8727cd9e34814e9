"""Privacy and correctness audits of the Zhou & Tan reference (``reference/zhou_tan``).

Paper: ``/work/shared/seeds/002_073f5552147145e6.txt`` (``l. N`` = line N); spec:
``/work/shared/specs/002_ldp_bayesian_optimization.md`` §4 (audit plan P1–P8, MC1, MC3).
Proof note: ``proofs_notes/audit/zhou_tan.md``.

Privacy (pure ϵ-LDP of CTL(ϵ), Curator 1, l. 126–133, and of the learner's transcript):

* :func:`ctl_closed_form_audit` -- the exact privacy curve of a (possibly broken) randomiser on a
  pair of raw rewards: two Laplace laws ``μ = |c(y) − c(y')|/𝓛`` apart (``c`` = the clip map, or
  the identity if clipping is missing), ``δ(ε) = max(0, 1 − e^{(ε − μ)/2})``
  (:func:`audit.methods.white_box.laplace_delta`).
* :func:`ctl_white_box_audits` -- sampled privacy losses of the *reference* randomiser
  (:func:`reference.zhou_tan.mechanism.ctl_privatize`) read through its Laplace density, tested by
  :func:`audit.methods.white_box.privacy_loss_audit` (the engine of :class:`audit.papers.shariff_sheffet.cases.LossCase`).
* :func:`ctl_black_box_audits` -- the event audit (:func:`audit.methods.black_box.event_audit`,
  Clopper–Pearson) on the reference randomiser's outputs only.
* :func:`learner_transcript_audit` -- end to end: LDP-TGP-UCB run through the reference
  :class:`~reference.zhou_tan.environment.Curator` on two reward streams that differ only in user 1's
  raw reward (``B + R`` vs ``−(B + R)``); black-box event audit on the arms the learner chooses.

Every privacy test is run against two claims: the printed pure ``ϵ`` (Lemma 1) and the exact
guarantee of the correct mechanism at ``δ* = 10⁻³`` (``ε*(δ*) = ϵ + 2 ln(1 − δ*)``, tight for
Laplace, so the correct mechanism has *no* slack at ``δ = 0``).  A bug counts as caught when the exact
claim is rejected.  Broken randomisers (built from the reference with mis-set parameters):

* ``wrong_sensitivity`` -- scale ``(B+R)/ϵ`` instead of ``2(B+R)/ϵ`` (sensitivity taken as ``B+R``);
* ``missing_clipping`` -- Curator 1 verbatim (``clip=False``) fed a Student-t reward (l. 340: the
  heavy-tailed experiments), whose support is ``ℝ``, so Lemma 1's ``|y| ≤ B+R`` fails;
* learner ``raw_rewards`` -- the learner fed raw rewards (curator bypassed).

Correctness (spec §4.2 MC1, MC2, MC3):

* :func:`tgp_confidence_event_audit` -- Eq. (21) for LDP-TGP-UCB (Alg. 2, Thm 3):
  ``|f − μ̂_t| ≤ β_{t+1}σ_t`` for all ``t ≤ T`` and ``x`` w.p. ``≥ 1 − δ``; broken: the
  IGP-UCB width of [6] for the raw noise ``R`` (the Laplace noise forgotten in ``β``).
* :func:`ata_confidence_event_audit` -- Thm 2 for LDP-ATA-GP-UCB (Alg. 1):
  ``|f − μ̃_t| ≤ β_{t+1}σ̃_t`` for all ``t ≤ T`` and ``x`` w.p. ``≥ 1 − δ``, built like the TGP
  audit; broken: the same IGP-UCB width (the Laplace noise forgotten in ``β``).
* :func:`nystrom_lemma8_audit` -- Lemma 8 (l. 722–726): the Nyström dictionary of Alg. 4 is
  ε-accurate and ``m_n ≤ 6ρ(1+1/λ)qγ_n`` for all ``n ≤ N`` w.p. ``≥ 1 − δ`` at
  ``q = 6ρ ln(2T/δ)/ε²``; broken: ``q = ln T/ε²`` of [7]'s code (too few dictionary points).
* :func:`moma_confidence_event_audit` -- Thm 4 / Cor. 1 for LDP-MoMA-GP-UCB (Alg. 3), the final
  event of the proof (Eqs. 10/22, spec MC3 (iv)): ``|f − μ̃_n| ≤ β_{n+1}σ̃_n`` for all epochs
  ``n ≤ N`` and ``x`` w.p. ``≥ 1 − δ``; broken: ``β_{n+1} = B(1 + 1/√(1−ε))`` (the robust
  radius ``3γ/√λ`` forgotten).
* :func:`lemma92_variance_ratio_audit` -- Lemma 9.2 (spec MC3 (v)): ``σ̃_n ≤ ρσ_n`` for all ``x``
  on the ε-accuracy event (a deterministic implication), and for all ``n ≤ N`` w.p. ``≥ 1 − δ``
  at Lemma 8's ``q``; broken: ``q = 1`` (too few dictionary points), for which the unconditional
  claim is rejected.
* :func:`lemma10_radius_audit` -- Lemma 10 (l. 744–769): one ridge estimator leaves the radius
  ``γ = (9mc)^{1/2}`` w.p. ``≤ 19/81``; broken: ``c`` without the Laplace variance.
* :func:`lemma11_count_audit` -- Lemma 11's Hoeffding step (l. 785) with the corrected constant
  ``e^{−k/72}`` (passes) and the printed ``e^{−k/24}`` (rejected: spec T-9).
* :func:`mom_selection_audit` -- Lemma 11's conclusion through
  :func:`~reference.zhou_tan.robust.median_of_means_select`; broken: ``argmax`` instead of
  ``argmin`` of the median distances.

:func:`run_zhou_tan_battery` runs all of it and returns the results.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from audit.cases import Tagged, caught_by_exact_or_accuracy
from audit.methods.binomial import RunAuditResult, ratio_quantiles
from audit.methods.black_box import event_audit, event_audit_from_samples
from audit.methods.white_box import density_privacy_losses, laplace_delta, laplace_epsilon
from audit.papers.shariff_sheffet.cases import DELTA_STAR, LossCase
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import PrivacyAuditResult
from audit.stats import clopper_pearson
from reference._typing import FloatArray, IntArray
from reference.rng import as_generator, as_seed_sequence, check_seed
from reference.validation import (
    check_array,
    check_bool,
    check_choice,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_positive,
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
    UniformNoise,
    run_trial,
    sample_rkhs_function,
)
from reference.zhou_tan.gp import finite_feature_map, lemma5_posterior_variance
from reference.zhou_tan.kernels import certified_gamma_upper, se_kernel, unit_grid
from reference.zhou_tan.mechanism import (
    ConvertToLaplace,
    LDPParams,
    clip_reward,
    ctl_privatize,
    ldp_noise_second_moment,
)
from reference.zhou_tan.nystrom import approx_posterior, dictionary_accuracy, nystrom_embedding
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
    "BROKEN_NAMES",
    "CTLRandomiser",
    "ZhouTanConfig",
    "ata_confidence_event_audit",
    "binomial_power",
    "critical_failure_count",
    "ctl_black_box_audits",
    "ctl_claims",
    "ctl_closed_form_audit",
    "ctl_loss_case",
    "ctl_variants",
    "ctl_white_box_audits",
    "exact_ctl_epsilon",
    "learner_arm_transcripts",
    "learner_transcript_audit",
    "lemma10_radius_audit",
    "lemma11_count_audit",
    "lemma92_variance_ratio_audit",
    "mom_selection_audit",
    "moma_confidence_event_audit",
    "nystrom_lemma8_audit",
    "run_zhou_tan_battery",
    "student_t_pair",
    "tagged_results",
    "tgp_confidence_event_audit",
    "worst_case_pair",
]

CTLVariantName = Literal["correct", "wrong_sensitivity", "missing_clipping"]
LearnerVariant = Literal["ctl", "raw_rewards"]
WidthVariant = Literal["theory", "width_ignores_laplace"]
RadiusVariant = Literal["paper", "c_without_laplace"]
Lemma11Bound = Literal["corrected", "paper"]
Selection = Literal["argmin", "argmax"]
NystromVariant = Literal["theory_q", "q_ref7_too_few"]
MomaWidthVariant = Literal["theory", "width_drops_radius"]
Lemma92Variant = Literal["theory_q", "q_one"]

BROKEN_NAMES = (
    "wrong_sensitivity",
    "missing_clipping",
    "raw_rewards",
    "width_ignores_laplace",
    "c_without_laplace",
    "lemma11_paper_constant",
    "mom_argmax",
    "q_ref7_too_few",
    "width_drops_radius",
    "q_one_unconditional",
)
"""Substrings of the names of the results of deliberately broken cases (expected: violation)."""


@dataclass(frozen=True)
class ZhouTanConfig:
    """Parameters of the battery: LDP parameters ``(ϵ, B, R)`` (Sec. 5.1, l. 340: ``B = R = 1``),
    sample sizes, seeds and the confidence ``1 − β`` of every single test."""

    eps: float = 1.0
    B: float = 1.0
    R: float = 1.0
    confidence: float = 0.999
    mechanism_samples: int = 200_000
    learner_runs: int = 1000
    learner_rounds: int = 4
    confidence_runs: int = 100
    confidence_rounds: int = 40
    ata_runs: int = 100
    ata_rounds: int = 40
    eps_nys: float = 0.5
    nystrom_runs: int = 50
    nystrom_rounds: int = 300
    nystrom_delta: float = 0.2
    lemma10_estimators: int = 4000
    lemma11_runs: int = 20_000
    lemma11_k: int = 100
    lemma11_p: float = 0.249
    mom_runs: int = 300
    moma_runs: int = 40
    moma_rounds: int = 3000
    moma_eps: float = 0.5
    lemma92_runs: int = 50
    lemma92_rounds: int = 100
    seed: int = 20261123
    student_t_df: float = 3.0
    student_t_quantile: float = 0.999

    def __post_init__(self) -> None:
        LDPParams(self.eps, self.B, self.R)  # checks eps, B and R
        check_in_range("confidence", self.confidence, 0.0, 1.0)
        for count in (
            "mechanism_samples", "learner_runs", "confidence_runs", "ata_runs", "nystrom_runs",
            "lemma10_estimators", "lemma11_runs", "mom_runs", "moma_runs", "lemma92_runs",
        ):  # fmt: skip
            check_int_at_least(count, getattr(self, count), 1)
        for rounds in (
            "learner_rounds", "confidence_rounds", "ata_rounds", "nystrom_rounds", "moma_rounds",
            "lemma92_rounds",
        ):  # fmt: skip
            check_int_at_least(rounds, getattr(self, rounds), 2)
        check_in_range("eps_nys", self.eps_nys, 0.0, 1.0)
        check_positive("moma_eps", self.moma_eps)  # the LDP epsilon of the MoMA audit
        check_in_range("nystrom_delta", self.nystrom_delta, 0.0, 1.0)
        check_int_at_least("lemma11_k", self.lemma11_k, 2)
        check_in_range("lemma11_p", self.lemma11_p, 0.0, 0.25)
        check_seed(self.seed, "seed")
        check_positive("student_t_df", self.student_t_df)
        check_in_range("student_t_quantile", self.student_t_quantile, 0.5, 1.0)

    @property
    def params(self) -> LDPParams:
        """The correct CTL parameters (clipping on)."""
        return LDPParams(self.eps, self.B, self.R)


# --------------------------------------------------------------------------------------------
# The randomiser under audit, its broken variants, pairs and claims
# --------------------------------------------------------------------------------------------


class CTLRandomiser:
    """A CTL(ϵ) randomiser on one raw reward (``data`` = array of shape ``(1,)``), as a
    :class:`audit.protocols.DensityMechanism`.

    ``sample`` calls the reference :func:`~reference.zhou_tan.mechanism.ctl_privatize` with
    ``params`` (so the implementation is what is sampled); ``log_density`` is the Laplace law with
    scale ``params.lap_scale`` around the clipped input (around the raw input if
    ``params.clip = False``), the law ``ctl_privatize`` documents.  The output is ``(size, 1)``.
    """

    def __init__(self, name: str, params: LDPParams, *, broken: bool, description: str) -> None:
        self.name = name
        self.params = _params(params)
        self.broken = check_bool("broken", broken)
        self.description = description

    def centre(self, y: float) -> float:
        """``c(y)``: the clipped reward, or ``y`` itself without clipping."""
        if not self.params.clip:
            return float(y)
        return float(clip_reward(np.array([y]), self.params.B, self.params.R)[0])

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        x = check_array("data", data, shape=(1,))
        y = np.full(check_int_at_least("size", size, 1), float(x[0]))
        return ctl_privatize(y, self.params, rng).reshape(size, 1)

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        x = check_array("data", data, shape=(1,))
        z = np.asarray(outputs, dtype=np.float64).reshape(-1)
        b = self.params.lap_scale
        return np.asarray(-np.abs(z - self.centre(float(x[0]))) / b - math.log(2.0 * b))

    def __repr__(self) -> str:
        return f"CTLRandomiser({self.name}: {self.description})"


def _params(params: object) -> LDPParams:
    return check_instance("params", params, LDPParams)


def _randomiser(randomiser: object) -> CTLRandomiser:
    return check_instance("randomiser", randomiser, CTLRandomiser)


def _ctl_pair(pair: object) -> NeighbouringPair[FloatArray]:
    """A pair of single raw rewards (``x``, ``x'`` of shape ``(1,)``)."""
    checked: NeighbouringPair[FloatArray] = check_instance("pair", pair, NeighbouringPair)
    check_array("pair.x", checked.x, shape=(1,))
    check_array("pair.x_prime", checked.x_prime, shape=(1,))
    return checked


def ctl_variants(params: LDPParams) -> list[CTLRandomiser]:
    """The correct randomiser and the two broken ones, all through the reference ``ctl_privatize``.

    * ``correct``: ``LDPParams(ϵ, B, R)`` -- ``clip(y) + Laplace(2(B+R)/ϵ)``;
    * ``wrong_sensitivity``: ``LDPParams(2ϵ, B, R)`` -- scale ``(B+R)/ϵ`` (sensitivity ``B+R``);
    * ``missing_clipping``: ``LDPParams(ϵ, B, R, clip=False)`` -- Curator 1 verbatim.
    """
    _params(params)
    eps, B, R = params.eps, params.B, params.R
    return [
        CTLRandomiser(
            "correct", LDPParams(eps, B, R), broken=False, description="clip + Laplace(2(B+R)/ϵ)"
        ),
        CTLRandomiser(
            "wrong_sensitivity",
            LDPParams(2.0 * eps, B, R),
            broken=True,
            description="clip + Laplace((B+R)/ϵ): sensitivity B+R instead of 2(B+R)",
        ),
        CTLRandomiser(
            "missing_clipping",
            LDPParams(eps, B, R, clip=False),
            broken=True,
            description="Laplace(2(B+R)/ϵ), no clipping (Curator 1 verbatim)",
        ),
    ]


def worst_case_pair(params: LDPParams) -> NeighbouringPair[FloatArray]:
    """``y = B + R`` vs ``y' = −(B + R)``: the worst case over the paper's reward range (spec §1.6)."""
    _params(params)
    b = params.reward_bound
    return NeighbouringPair(np.array([b]), np.array([-b]), "replace_one", "y = B+R vs y' = -(B+R)")


def student_t_pair(
    params: LDPParams, df: float = 3.0, quantile: float = 0.999
) -> NeighbouringPair[FloatArray]:
    """Two raw rewards of the heavy-tailed model ``y = f(x) + η``, ``η ~ Student-t(df)`` (l. 340,
    ``df = 3``): ``y = B + t_q`` and ``y' = −(B + t_q)`` with ``t_q`` the ``quantile`` of
    ``t(df)`` (``t_{0.999}(3) = 10.21``).  Both have positive density under the model, so LDP must
    cover them; they lie outside ``[−(B+R), B+R]`` when ``t_q > R``."""
    _params(params)
    tq = float(
        stats.t.ppf(check_in_range("quantile", quantile, 0.5, 1.0), check_positive("df", df))
    )
    y = params.B + tq
    return NeighbouringPair(
        np.array([y]), np.array([-y]), "replace_one", f"Student-t({df:g}) rewards ±(B + {tq:.4g})"
    )


def exact_ctl_epsilon(randomiser: CTLRandomiser, pair: NeighbouringPair[FloatArray]) -> float:
    """``μ = |c(y) − c(y')|/𝓛``: the exact pure ε (maximal privacy loss) of the randomiser on ``pair``."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    c1 = randomiser.centre(float(pair.x[0]))
    c2 = randomiser.centre(float(pair.x_prime[0]))
    return abs(c1 - c2) / randomiser.params.lap_scale


def ctl_claims(params: LDPParams) -> tuple[PrivacyClaim, PrivacyClaim]:
    """``(printed, exact)``: pure ``ϵ`` (Lemma 1) and ``(ϵ + 2 ln(1 − δ*), δ*)``, the exact
    guarantee of the correct randomiser at ``δ* = 10⁻³`` (:func:`audit.methods.white_box.laplace_epsilon`)."""
    _params(params)
    printed = PrivacyClaim(params.eps, 0.0, "replace_one", "printed pure ϵ (Lemma 1)")
    exact = PrivacyClaim(
        laplace_epsilon(params.eps, DELTA_STAR),
        DELTA_STAR,
        "replace_one",
        f"exact at δ={DELTA_STAR:g}",
    )
    return printed, exact


# --------------------------------------------------------------------------------------------
# White box: closed form and sampled privacy loss; black box: events
# --------------------------------------------------------------------------------------------


def _pair_tag(pair_name: str) -> str:
    return f" {pair_name}" if pair_name else ""


def ctl_closed_form_audit(
    randomiser: CTLRandomiser, pair: NeighbouringPair[FloatArray], claim: PrivacyClaim, *, name: str
) -> PrivacyAuditResult:
    """Exact verdict from the randomiser's Laplace model: ``δ(ε_claim) = laplace_delta(μ, ε_claim)``
    with ``μ`` = :func:`exact_ctl_epsilon`; a violation iff it exceeds ``δ_claim`` (no sampling,
    no error probability; ``epsilon_lower_bound`` is the exact ``ε(δ_claim)``)."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    check_instance("claim", claim, PrivacyClaim)
    t0 = time.perf_counter()
    mu = exact_ctl_epsilon(randomiser, pair)
    delta_exact = laplace_delta(mu, claim.epsilon) if mu > 0 else 0.0
    eps_exact = laplace_epsilon(mu, claim.delta) if mu > 0 else 0.0
    violation = delta_exact > claim.delta + 1e-12
    return PrivacyAuditResult(
        name=name,
        mechanism=repr(randomiser),
        method="closed_form",
        claim=claim,
        violation=violation,
        p_value=0.0 if violation else 1.0,
        confidence=1.0,
        epsilon_lower_bound=eps_exact,
        delta_at_claim=None,
        curve=(),
        samples=0,
        seed=None,
        runtime_seconds=time.perf_counter() - t0,
        details={
            "pair": pair.description,
            "max_privacy_loss": mu,
            "exact_delta_at_claim": delta_exact,
            "broken": randomiser.broken,
        },
    )


def ctl_loss_case(
    randomiser: CTLRandomiser,
    pair: NeighbouringPair[FloatArray],
    params: LDPParams,
    *,
    pair_name: str = "",
) -> LossCase:
    """The randomiser's privacy losses on ``pair`` as an :class:`audit.papers.shariff_sheffet.cases.LossCase` (outputs from
    the reference sampler, loss from the Laplace density; :func:`audit.methods.white_box.density_privacy_losses`).

    A non-empty ``pair_name`` goes into the case name (``"ctl_<randomiser> <pair_name> white box"``),
    so audits of one randomiser on different pairs have distinct names."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    _params(params)

    def loss_p(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(randomiser, pair.x, pair.x_prime, rng, size)

    def loss_q(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(randomiser, pair.x_prime, pair.x, rng, size)

    printed, exact = ctl_claims(params)
    return LossCase(
        name=f"ctl_{randomiser.name}{_pair_tag(pair_name)} white box",
        description=f"{randomiser!r} on {pair.description}",
        broken=randomiser.broken,
        loss_p=loss_p,
        loss_q=loss_q,
        printed=printed,
        exact=exact,
        tags=("zhou_tan", "laplace"),
    )


def ctl_white_box_audits(
    randomiser: CTLRandomiser,
    pair: NeighbouringPair[FloatArray],
    params: LDPParams,
    *,
    samples: int,
    seed: int,
    confidence: float,
    pair_name: str = "",
) -> list[PrivacyAuditResult]:
    """Sampled white-box audit (empirical-Bernstein hockey stick) against ``(printed, exact)``.

    Results are named ``"ctl_<randomiser> <pair_name> white box vs <claim>"`` (see
    :func:`ctl_loss_case`)."""
    check_int_at_least("samples", samples, 1)
    check_in_range("confidence", confidence, 0.0, 1.0)
    as_seed_sequence(seed, "seed")
    case = ctl_loss_case(randomiser, pair, params, pair_name=pair_name)
    return case.audit_claims(
        [case.printed, case.exact], samples=samples, seed=seed, confidence=confidence
    )


def ctl_black_box_audits(
    randomiser: CTLRandomiser,
    pair: NeighbouringPair[FloatArray],
    params: LDPParams,
    *,
    samples: int,
    seed: int,
    confidence: float,
    pair_name: str = "",
) -> list[PrivacyAuditResult]:
    """Black-box event audit (Clopper–Pearson, split sample) against ``(printed, exact)``; one
    sample per claim (independent streams spawned from ``seed``).  Results are named
    ``"ctl_<randomiser> <pair_name> black box vs <claim>"``."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    check_int_at_least("samples", samples, 1)
    check_in_range("confidence", confidence, 0.0, 1.0)
    printed, exact = ctl_claims(params)
    seeds = as_seed_sequence(seed).generate_state(2)
    return [
        event_audit(
            randomiser,
            pair,
            claim,
            samples=samples,
            seed=int(s),
            name=f"ctl_{randomiser.name}{_pair_tag(pair_name)} black box vs {claim.label}",
            confidence=confidence,
        )
        for claim, s in zip((printed, exact), seeds, strict=True)
    ]


# --------------------------------------------------------------------------------------------
# End to end: the learner's chosen arms on neighbouring reward streams
# --------------------------------------------------------------------------------------------


class _FixedStreamEnvironment(FiniteArmEnvironment):
    """Raw rewards of a fixed stream: user 1 gives ``first_reward``; user ``t ≥ 2`` gives
    ``f(x_t) + later_noise[t − 2]`` (fixed noise, so the two streams differ only in user 1)."""

    def __init__(self, f: FloatArray, first_reward: float, later_noise: FloatArray) -> None:
        super().__init__(f, UniformNoise(1.0), np.random.default_rng(0))
        self.first_reward = float(first_reward)
        self.later_noise = check_array("later_noise", later_noise, ndim=1)
        self.users = 0

    def pull(self, arm: int, n: int) -> FloatArray:
        a = check_int_at_least("arm", arm, 0)
        if a >= self.n_arms:
            raise ValueError(f"arm must be in [0, {self.n_arms - 1}], got {arm!r}")
        out = np.empty(check_int_at_least("n", n, 0))
        for i in range(out.size):
            u = self.users + i
            out[i] = self.first_reward if u == 0 else self.f[a] + self.later_noise[u - 1]
        self.users += out.size
        return out


@dataclass(frozen=True)
class _LearnerSetup:
    K: FloatArray
    f: FloatArray
    B: float
    later_noise: FloatArray
    trunc_level: Callable[[int], float]
    beta: Callable[[int], float]


def _learner_setup(params: LDPParams, rounds: int, seed: int, beta_scale: float) -> _LearnerSetup:
    rng = as_generator(seed, "seed")
    X = unit_grid(8)
    K = se_kernel(X, X, 0.25)
    fn = sample_rkhs_function(K, 4, rng)
    scaled = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))  # ‖f‖_ℋ ≤ B
    noise = UniformNoise(params.R).sample(rounds, rng)
    base = make_ldp_tgp_ucb(K, params, 1.0, 0.05, rounds + 1, rng, beta_scale=beta_scale)
    return _LearnerSetup(K, scaled, params.B, noise, base.trunc_level, base.beta)


def learner_arm_transcripts(
    params: LDPParams,
    variant: LearnerVariant,
    first_reward: float,
    *,
    runs: int,
    rounds: int,
    seed: int,
    beta_scale: float = 0.03,
) -> IntArray:
    """Arms chosen by LDP-TGP-UCB (Alg. 2) over ``rounds`` rounds, ``runs`` times: shape ``(runs, rounds)``.

    Everything but the curator's Laplace draws is fixed across runs *and across the two inputs*
    (objective, later users' noise, tie-breaking stream, all from ``seed``): the LDP guarantee for
    user 1 holds conditionally on all of it.  The Laplace streams of the two inputs
    (``first_reward ≥ 0`` or ``< 0``) are independent.  ``variant``:
    ``"ctl"`` routes rewards through ``Curator(ConvertToLaplace(params, rng))`` (reference);
    ``"raw_rewards"`` through ``Curator(None)`` (the bug: the learner sees raw rewards).
    ``beta_scale`` shrinks ``β`` so the arms depend on the rewards (privacy holds for any ``β``).
    """
    _params(params)
    check_choice("variant", variant, ("ctl", "raw_rewards"))
    first_reward = check_finite("first_reward", first_reward)
    seed = check_seed(seed, "seed")
    check_positive("beta_scale", beta_scale)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    setup = _learner_setup(params, rounds, seed, beta_scale)
    side = 0 if first_reward >= 0 else 1  # independent Laplace streams for the two inputs
    curator_seeds = np.random.SeedSequence([seed, 1, side]).spawn(runs)
    out = np.empty((runs, rounds), dtype=np.int64)
    for r in range(runs):
        env = _FixedStreamEnvironment(setup.f, first_reward, setup.later_noise)
        policy = TGPUCB(
            setup.K, 1.0, setup.trunc_level, setup.beta, np.random.default_rng([seed, 2])
        )
        if variant == "ctl":
            curator = Curator(ConvertToLaplace(params, np.random.default_rng(curator_seeds[r])))
        elif variant == "raw_rewards":
            curator = Curator(None)
        else:
            raise ValueError(f"variant must be 'ctl' or 'raw_rewards', got {variant!r}")
        out[r] = run_trial(env, policy, curator, rounds).arms
    return out


def learner_transcript_audit(
    params: LDPParams,
    variant: LearnerVariant,
    *,
    runs: int,
    rounds: int,
    seed: int,
    confidence: float,
) -> list[PrivacyAuditResult]:
    """Black-box audit of the learner's arm sequence on user 1's worst-case pair
    ``B + R`` vs ``−(B + R)`` against ``(printed, exact)`` (post-processing of CTL, spec P6)."""
    _params(params)
    check_choice("variant", variant, ("ctl", "raw_rewards"))
    check_in_range("confidence", confidence, 0.0, 1.0)
    b = params.reward_bound
    arms_p = learner_arm_transcripts(params, variant, b, runs=runs, rounds=rounds, seed=seed)
    arms_q = learner_arm_transcripts(params, variant, -b, runs=runs, rounds=rounds, seed=seed)
    results = []
    for claim in ctl_claims(params):
        res = event_audit_from_samples(
            arms_p.astype(np.float64),
            arms_q.astype(np.float64),
            claim,
            name=f"learner_{variant} arms vs {claim.label}",
            mechanism=f"LDP-TGP-UCB (β×0.03), {rounds} rounds, curator {variant}",
            confidence=confidence,
            seed=seed,
        )
        res.details["broken"] = variant != "ctl"
        results.append(res)
    return results


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
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("delta", delta, 0.0, 1.0)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    X = unit_grid(8)
    K = se_kernel(X, X, 0.25)
    gbar = certified_gamma_upper(K, rounds + 1, 1.0)
    ratios = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 3]).spawn(runs)):
        g_f, g_env, g_pol, g_ctl = (np.random.default_rng(s) for s in ss.spawn(4))
        fn = sample_rkhs_function(K, 4, g_f)
        f = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))
        env = FiniteArmEnvironment(f, UniformNoise(params.R), g_env)
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
        curator = Curator(ConvertToLaplace(params, g_ctl))
        worst = 0.0
        for t in range(1, rounds + 1):
            arm, n = policy.next_query()
            policy.observe(arm, curator.respond(env, arm, n))
            width = beta(t + 1) * np.sqrt(np.maximum(policy.gp.var, 0.0))
            err = np.abs(f - policy.gp.mean)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(width > 0, err / width, np.where(err > 0, np.inf, 0.0))
            worst = max(worst, float(np.max(ratio)))
        ratios[r] = worst
    name = f"tgp_confidence_event_{variant}"
    return RunAuditResult.from_ratios(
        name,
        {"max_t,x |f - mu_t| / (beta_{t+1} sigma_t)": ratios},
        check_in_range("delta", delta, 0.0, 1.0),
        confidence=confidence,
        seed=seed,
        started=t0,
    )


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
    ``t ≤ rounds`` and ``x`` fails in at most a fraction ``δ`` of runs (spec §3.3, MC2; the event
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
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("delta", delta, 0.0, 1.0)
    check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    check_choice("variant", variant, ("theory", "width_ignores_laplace"))
    X = unit_grid(8)
    K = se_kernel(X, X, 0.25)
    gbar = certified_gamma_upper(K, rounds + 1, 1.0)
    ratios = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 8]).spawn(runs)):
        g_f, g_env, g_pol, g_ctl = (np.random.default_rng(s) for s in ss.spawn(4))
        fn = sample_rkhs_function(K, 4, g_f)
        f = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))
        env = FiniteArmEnvironment(f, UniformNoise(params.R), g_env)
        base = make_ldp_ata_gp_ucb(K, params, 1.0, delta, eps_nys, rounds, g_pol)
        if variant == "theory":
            beta_next = base.beta_next
        else:

            def beta_next(t: int, m: int) -> float:
                return igp_ucb_beta(t + 1, params.B, params.R, float(gbar[t - 1]), delta)

        policy = ATAGPUCB(
            K, 1.0, base.q, base.trunc_level, beta_next, base.beta, g_pol, base.dedupe_mode
        )
        curator = Curator(ConvertToLaplace(params, g_ctl))
        worst = 0.0
        for _ in range(rounds):
            arm, n = policy.next_query()
            policy.observe(arm, curator.respond(env, arm, n))
            width = policy.beta * np.sqrt(np.maximum(policy.var, 0.0))  # β_{t+1} σ̃_t
            err = np.abs(f - policy.mean)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(width > 0, err / width, np.where(err > 0, np.inf, 0.0))
            worst = max(worst, float(np.max(ratio)))
        ratios[r] = worst
    return RunAuditResult.from_ratios(
        f"ata_confidence_event_{variant}",
        {"max_t,x |f - mu~_t| / (beta_{t+1} sigma~_t)": ratios},
        check_in_range("delta", delta, 0.0, 1.0),
        confidence=confidence,
        seed=seed,
        started=t0,
    )


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
    """Lemma 10 (l. 744–769), fixed design: ``P(‖Ṽ⁻¹Φ̃ᵀf − θ̃_j‖_Ṽ > γ) ≤ 19/81`` per estimator.

    LDP-MoMA noise ``η + L``: the reference CTL applied to ``η ~ U[−R, R]`` (the reward with
    ``f = 0``; the error ``θ̃_j − Ṽ⁻¹Φ̃ᵀf`` does not depend on ``f``), ``α = 1``,
    ``γ = (9 m c)^{1/2}`` (:func:`moma_radius`).
    ``"paper"``: Cor. 1's ``c = R² + 8(B+R)²/ϵ²``; ``"c_without_laplace"``: ``c = R²`` (the
    privacy noise forgotten).  Failures over ``estimators`` independent estimators ~ ``Bin``.
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("variant", variant, ("paper", "c_without_laplace"))
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    estimators = check_int_at_least("estimators", estimators, 1)
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
    """Lemma 11's Hoeffding step (l. 785): ``P(Σ_j b_j ≥ k/3) ≤ e^{−k/72}`` (corrected, spec T-9)
    or ``e^{−k/24}`` (printed), for ``b_j = 1{‖θ̃_j − θ*‖_V > γ}`` independent with ``P(b_j) = p < 1/4``.

    ``γ`` is set so that ``P(b_j = 1) = p`` exactly (:func:`_lemma11_radius`).  A run fails when
    ``Σ_j b_j ≥ ⌈k/3⌉``; the ratio reported is ``Σ_j b_j/(⌈k/3⌉ − ½)`` (``> 1`` iff failure).
    At ``k = 100``, ``p = 0.249``: exact tail ``P(Bin(100, 0.249) ≥ 34) = 0.0261`` vs
    ``e^{−100/24} = 0.0155`` (printed, false) and ``e^{−100/72} = 0.249`` (corrected).
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("bound", bound, ("corrected", "paper"))
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    k = check_int_at_least("k", k, 1)
    p = check_in_range("p", p, 0.0, 0.25)
    _, _, errors = _lemma11_errors(params, k, check_int_at_least("runs", runs, 1), seed)
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

    ``k*`` is chosen by the reference :func:`median_of_means_select` (``"argmin"``, Alg. 3 l. 12) or
    by the broken rule ``argmax_j r_j`` (``"argmax"``: the estimator farthest from the others).
    Same epochs as :func:`lemma11_count_audit` (first ``runs`` of them).
    """
    t0 = time.perf_counter()
    _params(params)
    check_choice("selection", selection, ("argmin", "argmax"))
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    k = check_int_at_least("k", k, 2)
    theta, V, errors = _lemma11_errors(params, k, check_int_at_least("runs", runs, 1), seed)
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
    """Lemma 8 (l. 722–726): with ``q = 6ρ ln(2T/δ)/ε²``, ``P[∩_{n≤N}(E_{1,n} ∩ E_{2,n})] ≥ 1 − δ``,
    ``E_{1,n}`` = the dictionary is ε-accurate (Definition 2, l. 712–718), ``E_{2,n}`` =
    ``m_n ≤ 6ρ(1 + 1/λ) q γ_n`` (printed ``γ_t``, spec T-12).

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
    two); ``"q_ref7_too_few"``: ``q = ln T/ε²`` of the code of [7] (spec §2.7 practical preset),
    too few dictionary points for ε-accuracy.  A run fails when any of
    ``(1 − min_n λ_min)/ε``, ``(max_n λ_max − 1)/ε``, ``max_n m_n/(6ρ(1+1/λ)qγ̄_n)`` exceeds 1.
    """
    t0 = time.perf_counter()
    check_choice("variant", variant, ("theory_q", "q_ref7_too_few"))
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("delta", delta, 0.0, 1.0)
    check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    eps = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    if variant == "theory_q":
        q = nystrom_q(rounds, delta, eps, log_const=2.0)
    elif variant == "q_ref7_too_few":
        q = practical_nystrom_q(rounds, eps)
    else:
        raise ValueError(f"variant must be 'theory_q' or 'q_ref7_too_few', got {variant!r}")
    X = unit_grid(check_int_at_least("n_arms", n_arms, 1))
    K = se_kernel(X, X, 0.25)
    root = finite_feature_map(K)
    kdiag = np.diag(K).copy()
    m_bound = 6.0 * rho_nys(eps) * 2.0 * q * certified_gamma_upper(K, rounds, 1.0)  # λ = 1
    low = np.empty(runs)
    high = np.empty(runs)
    size = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 9]).spawn(runs)):
        g_arms, g_nys = (np.random.default_rng(s) for s in ss.spawn(2))
        arms = g_arms.integers(0, K.shape[0], size=rounds)
        var = kdiag.copy()  # σ̃_0² = k(x, x)
        lo_min, hi_max, m_ratio = 1.0, 1.0, 0.0
        for n in range(1, rounds + 1):
            hist = arms[:n]
            res = nystrom_embedding(K, hist, np.sqrt(var[hist]), q, g_nys)
            lo, hi = dictionary_accuracy(root, hist, res, 1.0)
            lo_min, hi_max = min(lo_min, lo), max(hi_max, hi)
            m_ratio = max(m_ratio, res.m / float(m_bound[n - 1]))
            _, var = approx_posterior(res.features, hist, kdiag, 1.0)
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
    l. 297–301; spec MC3 (iv)) ``|f(x) − μ̃_n(x)| ≤ β_{n+1}σ̃_n(x)`` for all epochs ``n ≤ N`` and
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
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("delta", delta, 0.0, 1.0)
    check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    check_choice("variant", variant, ("theory", "width_drops_radius"))
    X = unit_grid(8)
    K = se_kernel(X, X, 0.25)
    b_known = first_beta_approx(params.B, eps_nys)  # B(1 + 1/√(1−ε))

    def beta_no_radius(n: int, m: int) -> float:
        return b_known

    ratios = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 11]).spawn(runs)):
        g_f, g_env, g_pol, g_ctl = (np.random.default_rng(s) for s in ss.spawn(4))
        fn = sample_rkhs_function(K, 4, g_f)
        f = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))
        env = FiniteArmEnvironment(f, UniformNoise(params.R), g_env)
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
        curator = Curator(ConvertToLaplace(params, g_ctl))
        worst = 0.0
        for _ in range(policy.n_epochs):
            arm, k = policy.next_query()
            policy.observe(arm, curator.respond(env, arm, k))
            width = policy.beta * np.sqrt(np.maximum(policy.var, 0.0))  # β_{n+1} σ̃_n
            err = np.abs(f - policy.mean)
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = np.where(width > 0, err / width, np.where(err > 0, np.inf, 0.0))
            worst = max(worst, float(np.max(ratio)))
        ratios[r] = worst
    return RunAuditResult.from_ratios(
        f"moma_confidence_event_{variant}",
        {"max_n,x |f - mu~_n| / (beta_{n+1} sigma~_n)": ratios},
        check_in_range("delta", delta, 0.0, 1.0),
        confidence=confidence,
        seed=seed,
        started=t0,
    )


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
    """Lemma 9.2 (l. 730–740; spec MC3 (v)): on ``E_{1,n}`` (the dictionary is ε-accurate),
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
      ``"q_one"``: ``q = 1`` (spec MC3 (i): far too few dictionary points; broken).

    ``slack`` also reports (no bound attached) the per-run minimum of ``σ̃_n/σ_n`` over ``n, x``
    and the fraction of steps ``n`` on which ``E_{1,n}`` holds.
    """
    t0 = time.perf_counter()
    check_choice("variant", variant, ("theory_q", "q_one"))
    seed = check_seed(seed, "seed")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    check_in_range("delta", delta, 0.0, 1.0)
    check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    runs = check_int_at_least("runs", runs, 1)
    rounds = check_int_at_least("rounds", rounds, 2)
    eps = check_in_range("eps_nys", eps_nys, 0.0, 1.0)
    if variant == "theory_q":
        q = nystrom_q(rounds, delta, eps, log_const=2.0)
    elif variant == "q_one":
        q = 1.0
    else:
        raise ValueError(f"variant must be 'theory_q' or 'q_one', got {variant!r}")
    rho = rho_nys(eps)
    X = unit_grid(check_int_at_least("n_arms", n_arms, 1))
    K = se_kernel(X, X, 0.25)
    root = finite_feature_map(K)
    kdiag = np.diag(K).copy()
    uncond = np.empty(runs)
    on_acc = np.empty(runs)
    low_ratio = np.empty(runs)
    frac_acc = np.empty(runs)
    for r, ss in enumerate(np.random.SeedSequence([seed, 12]).spawn(runs)):
        g_arms, g_nys = (np.random.default_rng(s) for s in ss.spawn(2))
        arms = g_arms.integers(0, K.shape[0], size=rounds)
        var = kdiag.copy()  # σ̃_0² = k(x, x)
        worst, worst_acc, lowest, n_acc = 0.0, 0.0, np.inf, 0
        for n in range(1, rounds + 1):
            hist = arms[:n]
            res = nystrom_embedding(K, hist, np.sqrt(var[hist]), q, g_nys)
            _, var = approx_posterior(res.features, hist, kdiag, 1.0)
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


# --------------------------------------------------------------------------------------------
# The battery
# --------------------------------------------------------------------------------------------


def run_zhou_tan_battery(
    config: ZhouTanConfig | None = None,
) -> list[PrivacyAuditResult | RunAuditResult]:
    """Every Zhou & Tan audit, correct cases and broken ones, in a fixed order.

    Privacy results (:class:`PrivacyAuditResult`) carry ``details["broken"]``; a result whose name
    contains one of :data:`BROKEN_NAMES` is a deliberately broken case (expected: violation of the
    exact claim), every other one is expected to pass.  No family-wise correction is applied here:
    each test is at level ``1 − config.confidence``; the caller may apply Holm over the p-values.
    """
    c = ZhouTanConfig() if config is None else check_instance("config", config, ZhouTanConfig)
    params = c.params
    out: list[PrivacyAuditResult | RunAuditResult] = []
    seeds = iter(np.random.SeedSequence(c.seed).generate_state(32))
    printed, exact = ctl_claims(params)
    pairs: Sequence[tuple[str, NeighbouringPair[FloatArray]]] = (
        ("worst_case", worst_case_pair(params)),
        ("student_t", student_t_pair(params, c.student_t_df, c.student_t_quantile)),
    )
    for rand in ctl_variants(params):
        for pair_name, pair in pairs:
            if rand.name == "missing_clipping" and pair_name == "worst_case":
                continue  # clipping is a no-op inside the range
            for claim in (printed, exact):
                out.append(
                    ctl_closed_form_audit(
                        rand,
                        pair,
                        claim,
                        name=f"ctl_{rand.name} {pair_name} exact vs {claim.label}",
                    )
                )
            for res in ctl_white_box_audits(
                rand,
                pair,
                params,
                samples=c.mechanism_samples,
                seed=int(next(seeds)),
                confidence=c.confidence,
                pair_name=pair_name,
            ) + ctl_black_box_audits(
                rand,
                pair,
                params,
                samples=c.mechanism_samples,
                seed=int(next(seeds)),
                confidence=c.confidence,
                pair_name=pair_name,
            ):
                res.details["broken"] = rand.broken
                res.details["pair"] = pair.description
                out.append(res)
    for variant in ("ctl", "raw_rewards"):
        out.extend(
            learner_transcript_audit(
                params,
                variant,
                runs=c.learner_runs,
                rounds=c.learner_rounds,
                seed=int(next(seeds)),
                confidence=c.confidence,
            )
        )
    for width in ("theory", "width_ignores_laplace"):
        out.append(
            tgp_confidence_event_audit(
                params,
                width,
                runs=c.confidence_runs,
                rounds=c.confidence_rounds,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    ata_widths: tuple[WidthVariant, ...] = ("theory", "width_ignores_laplace")
    for ata_width in ata_widths:
        out.append(
            ata_confidence_event_audit(
                params,
                ata_width,
                runs=c.ata_runs,
                rounds=c.ata_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
            )
        )
    nys_variants: tuple[NystromVariant, ...] = ("theory_q", "q_ref7_too_few")
    for nys in nys_variants:
        out.append(
            nystrom_lemma8_audit(
                nys,
                runs=c.nystrom_runs,
                rounds=c.nystrom_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
                delta=c.nystrom_delta,
            )
        )
    moma_widths: tuple[MomaWidthVariant, ...] = ("theory", "width_drops_radius")
    for moma_width in moma_widths:
        out.append(
            moma_confidence_event_audit(
                LDPParams(c.moma_eps, c.B, c.R),
                moma_width,
                runs=c.moma_runs,
                rounds=c.moma_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
            )
        )
    l92_variants: tuple[Lemma92Variant, ...] = ("theory_q", "q_one")
    for l92 in l92_variants:
        out.extend(
            lemma92_variance_ratio_audit(
                l92,
                runs=c.lemma92_runs,
                rounds=c.lemma92_rounds,
                seed=c.seed,
                confidence=c.confidence,
                eps_nys=c.eps_nys,
                delta=c.nystrom_delta,
            )
        )
    for radius in ("paper", "c_without_laplace"):
        out.append(
            lemma10_radius_audit(
                params,
                radius,
                estimators=c.lemma10_estimators,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    for bound in ("corrected", "paper"):
        out.append(
            lemma11_count_audit(
                params,
                bound,
                k=c.lemma11_k,
                p=c.lemma11_p,
                runs=c.lemma11_runs,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    for selection in ("argmin", "argmax"):
        out.append(
            mom_selection_audit(
                params,
                selection,
                k=c.lemma11_k,
                p=c.lemma11_p,
                runs=c.mom_runs,
                seed=c.seed,
                confidence=c.confidence,
            )
        )
    return out


def tagged_results(seed: int, quick: bool) -> list[Tagged]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers`): every result,
    tagged with the broken variant named in it (:data:`BROKEN_NAMES`) and whether its rejection
    catches it."""
    config = ZhouTanConfig(seed=seed, mechanism_samples=50_000 if quick else 200_000)
    out: list[Tagged] = []
    for r in run_zhou_tan_battery(config):
        bug = next((b for b in BROKEN_NAMES if b in r.name), None)
        out.append((r, bug, caught_by_exact_or_accuracy(r, bug)))
    return out
