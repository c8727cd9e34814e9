"""Zhou & Tan (AAAI 2021) privacy cases: CTL(ϵ) (Curator 1, Lemma 1) and its deliberately broken
variants, neighbouring pairs and claims; the closed-form, white-box and black-box audits of the
randomiser, and the end-to-end audit of the learner's transcript (LDP-TGP-UCB, Alg. 2).
Overview in :mod:`audit.papers.zhou_tan.battery`.

Proof note: ``proofs_notes/audit/zhou_tan.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy import stats

from audit.methods.black_box import event_audit, event_audit_from_samples
from audit.methods.closed_form import closed_form_result
from audit.methods.white_box import density_privacy_losses
from audit.papers.shariff_sheffet.cases import DELTA_STAR, LossCase
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray, IntArray
from reference.accounting import laplace_delta, laplace_epsilon
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
    check_size,
)
from reference.zhou_tan.algorithms import (
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
    run_trial,
    sample_rkhs_function,
)
from reference.zhou_tan.kernels import se_kernel, unit_grid
from reference.zhou_tan.mechanism import ConvertToLaplace, LDPParams, clip_reward, ctl_privatize

__all__ = [
    "BROKEN_NAMES",
    "MOMA_TRANSCRIPT_K",
    "CTLRandomiser",
    "LearnerName",
    "LearnerVariant",
    "ctl_black_box_audits",
    "ctl_claims",
    "ctl_closed_form_audit",
    "ctl_closed_form_epsilon",
    "ctl_loss_case",
    "ctl_variants",
    "ctl_white_box_audits",
    "learner_arm_transcripts",
    "learner_transcript_audit",
    "student_t_pair",
    "worst_case_pair",
]


CTLVariantName = Literal["correct", "wrong_sensitivity", "missing_clipping"]
LearnerVariant = Literal["ctl", "raw_rewards"]
LearnerName = Literal["tgp", "ata", "moma"]
_LEARNERS = ("tgp", "ata", "moma")
MOMA_TRANSCRIPT_K = 2
"""MoMA's group size in the transcript audit: ``rounds = 8`` rewards make 4 epochs, so three
decisions follow user 1's reward (the paper's ``k = ⌈24 ln(4eT/δ)⌉`` exceeds any short run)."""
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
        """``c(y)``: the clipped reward, or ``y`` itself without clipping (``y`` any real)."""
        y = check_finite("y", y)
        if not self.params.clip:
            return y
        return float(clip_reward(np.array([y]), self.params.B, self.params.R)[0])

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        x = check_array("data", data, shape=(1,))
        y = np.full(check_size("size", size, 1, item_bytes=8, what="an output"), float(x[0]))
        return ctl_privatize(y, self.params, rng).reshape(size, 1)

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        x = check_array("data", data, shape=(1,))
        z = check_array("outputs", outputs)
        if z.ndim != 2 or z.shape[1] != 1:  # what sample returns
            raise ValueError(f"outputs must have shape (size, 1), got {z.shape}")
        z = z[:, 0]
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
    """``y = B + R`` vs ``y' = −(B + R)``: the worst case over the paper's reward range (Sec. 2)."""
    _params(params)
    b = params.reward_bound
    return NeighbouringPair(np.array([b]), np.array([-b]), "replace_one", "y = B+R vs y' = -(B+R)")


def student_t_pair(
    params: LDPParams, df: float = 3.0, quantile: float = 0.999
) -> NeighbouringPair[FloatArray]:
    """Two raw rewards of the heavy-tailed model ``y = f(x) + η``, ``η ~ Student-t(df)`` (Sec. 5.1,
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


def ctl_closed_form_epsilon(randomiser: CTLRandomiser, pair: NeighbouringPair[FloatArray]) -> float:
    """``μ = |c(y) − c(y')|/𝓛``: the pure ε in closed form (maximal privacy loss) of the randomiser on ``pair``."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    c1 = randomiser.centre(float(pair.x[0]))
    c2 = randomiser.centre(float(pair.x_prime[0]))
    return abs(c1 - c2) / randomiser.params.lap_scale


def ctl_claims(params: LDPParams) -> tuple[PrivacyClaim, PrivacyClaim]:
    """``(printed, exact)``: pure ``ϵ`` (Lemma 1) and ``(ϵ + 2 ln(1 − δ*), δ*)``, the exact
    guarantee of the correct randomiser at ``δ* = 10⁻³`` (:func:`reference.accounting.laplace.laplace_epsilon`)."""
    _params(params)
    printed = PrivacyClaim(params.eps, 0.0, "replace_one", "printed pure ϵ (Lemma 1)")
    exact = PrivacyClaim(
        laplace_epsilon(DELTA_STAR, epsilon_0=params.eps),
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
    """Closed-form verdict from the randomiser's Laplace model: ``δ(ε_claim) = laplace_delta(ε_claim, epsilon_0=μ)``
    with ``μ`` = :func:`ctl_closed_form_epsilon`; a violation iff it exceeds ``δ_claim`` (no sampling,
    no error probability; ``epsilon_lower_bound`` is the exact ``ε(δ_claim)``)."""
    _randomiser(randomiser)
    _ctl_pair(pair)
    check_instance("claim", claim, PrivacyClaim)
    t0 = time.perf_counter()
    mu = ctl_closed_form_epsilon(randomiser, pair)
    delta_exact = laplace_delta(claim.epsilon, epsilon_0=mu) if mu > 0 else 0.0
    eps_exact = laplace_epsilon(claim.delta, epsilon_0=mu) if mu > 0 else 0.0
    violation = delta_exact > claim.delta + 1e-12
    return closed_form_result(
        claim,
        name=name,
        mechanism=repr(randomiser),
        violation=violation,
        exact_epsilon=eps_exact,
        started=t0,
        details={
            "pair": pair.description,
            "max_privacy_loss": mu,
            "closed_form_delta_at_claim": delta_exact,
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
    check_size("samples", samples, 1, item_bytes=8, what="an output")
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
    check_size("samples", samples, 1, item_bytes=8, what="an output")
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
    make_policy: Callable[[], Policy]


def _learner_setup(
    params: LDPParams, rounds: int, seed: int, beta_scale: float, learner: LearnerName
) -> _LearnerSetup:
    """The fixed problem and a factory of fresh learners whose own randomness (ties, Nyström) is
    the same stream ``[seed, 2]`` in every run and for both inputs."""
    rng = as_generator(seed, "seed")
    X = unit_grid(8)
    K = se_kernel(X, X, 0.25)
    fn = sample_rkhs_function(K, 4, rng)
    scaled = fn.values * min(1.0, params.B / max(fn.rkhs_norm, 1e-12))  # ‖f‖_ℋ ≤ B
    noise = UniformNoise(params.R).sample(rounds, rng)
    lam, delta, eps_nys = 1.0, 0.05, 0.5
    make_policy: Callable[[], Policy]
    if learner == "tgp":
        base = make_ldp_tgp_ucb(K, params, lam, delta, rounds + 1, rng, beta_scale=beta_scale)

        def make_policy() -> Policy:
            return TGPUCB(K, lam, base.trunc_level, base.beta, np.random.default_rng([seed, 2]))

    elif learner == "ata":

        def make_policy() -> Policy:
            return make_ldp_ata_gp_ucb(
                K, params, lam, delta, eps_nys, rounds, np.random.default_rng([seed, 2]),
                "theory", beta_scale,
            )  # fmt: skip

    elif learner == "moma":
        shape = make_ldp_moma_gp_ucb(
            K, params, lam, delta, eps_nys, rounds, rng, "theory", beta_scale
        )

        def make_policy() -> Policy:
            return MoMAGPUCB(
                K, lam, shape.q, MOMA_TRANSCRIPT_K, rounds, shape.beta_next, shape.beta,
                np.random.default_rng([seed, 2]),
            )  # fmt: skip

    else:
        raise ValueError(f"learner must be one of {list(_LEARNERS)}, got {learner!r}")
    return _LearnerSetup(K, scaled, params.B, noise, make_policy)


def learner_arm_transcripts(
    params: LDPParams,
    variant: LearnerVariant,
    first_reward: float,
    *,
    runs: int,
    rounds: int,
    seed: int,
    beta_scale: float = 0.03,
    learner: LearnerName = "tgp",
) -> IntArray:
    """Arms chosen by an LDP learner over ``rounds`` rounds, ``runs`` times: shape ``(runs, rounds)``.

    ``learner``: ``"tgp"`` LDP-TGP-UCB (Alg. 2), ``"ata"`` LDP-ATA-GP-UCB (Alg. 1, Thm 2's ``q``,
    ``b_t``, ``β``), ``"moma"`` LDP-MoMA-GP-UCB (Alg. 3, Cor. 1's ``q`` and ``β`` with groups of
    ``k =`` :data:`MOMA_TRANSCRIPT_K`); ``ε_nys = 0.5``, ``λ = 1``, ``δ = 0.05``.

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
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    rounds = check_size("rounds", rounds, 2, item_bytes=8, what="a round's value")
    check_choice("learner", learner, _LEARNERS)
    if learner == "moma" and rounds < 2 * MOMA_TRANSCRIPT_K:
        raise ValueError(
            f"rounds must be >= {2 * MOMA_TRANSCRIPT_K} for learner='moma' (a decision after "
            f"user 1's reward needs two epochs of k = {MOMA_TRANSCRIPT_K}), got {rounds}"
        )
    setup = _learner_setup(params, rounds, seed, beta_scale, learner)
    side = 0 if first_reward >= 0 else 1  # independent Laplace streams for the two inputs
    curator_seeds = np.random.SeedSequence([seed, 1, side]).spawn(runs)
    out = np.empty((runs, rounds), dtype=np.int64)
    for r in range(runs):
        env = _FixedStreamEnvironment(setup.f, first_reward, setup.later_noise)
        policy = setup.make_policy()
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
    learner: LearnerName = "tgp",
) -> list[PrivacyAuditResult]:
    """Black-box audit of the learner's arm sequence on user 1's worst-case pair
    ``B + R`` vs ``−(B + R)`` against ``(printed, exact)`` (post-processing of CTL, P6), for
    LDP-TGP-UCB, LDP-ATA-GP-UCB or LDP-MoMA-GP-UCB (:func:`learner_arm_transcripts`)."""
    _params(params)
    check_choice("variant", variant, ("ctl", "raw_rewards"))
    check_in_range("confidence", confidence, 0.0, 1.0)
    b = params.reward_bound
    arms_p, arms_q = (
        learner_arm_transcripts(
            params, variant, first, runs=runs, rounds=rounds, seed=seed, learner=learner
        )
        for first in (b, -b)
    )
    label = {"tgp": "LDP-TGP-UCB", "ata": "LDP-ATA-GP-UCB", "moma": "LDP-MoMA-GP-UCB"}[learner]
    results = []
    for claim in ctl_claims(params):
        res = event_audit_from_samples(
            arms_p.astype(np.float64),
            arms_q.astype(np.float64),
            claim,
            name=f"learner_{variant} arms vs {claim.label}"
            if learner == "tgp"
            else f"learner_{learner}_{variant} arms vs {claim.label}",
            mechanism=f"{label} (β×0.03), {rounds} rounds, curator {variant}",
            confidence=confidence,
            seed=seed,
        )
        res.details["broken"] = variant != "ctl"
        results.append(res)
    return results
