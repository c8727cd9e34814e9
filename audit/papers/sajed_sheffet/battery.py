"""Privacy and accuracy audits of Sajed & Sheffet (ICML 2019): DP-SE and the battery.

Holds the DP-SE audits and :func:`run_sajed_sheffet_battery`; the stopping-rule audits live in
:mod:`audit.papers.sajed_sheffet.nas` and ``.nas_sampled`` and are re-exported here.  Audited:
Algorithms 1 and 2 (Sec. 3; pure ε-DP, Thm 3.1, Cor. 3.2) and Algorithm 3, DP-SE (Sec. 4; pure
ε-DP, Thm 4.1), by closed-form calculators (:func:`halting_time_log_pmf`, :func:`nas_closed_form_epsilon`,
:func:`dpse_two_arm_log_pmf`) and black-box audits, against the printed claim and the exact ε of
the correct mechanism; broken variants in :data:`NAS_VARIANTS` and :data:`DPSE_VARIANTS`; accuracy
events by binomial tests.  :func:`cases` are run by :func:`audit.cases.run_cases` (Holm).

Proof note: ``proofs_notes/audit/sajed_sheffet.md``.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from audit.cases import AuditCase, AuditResult, CaseReport, Role, case_seed, run_cases
from audit.familywise import FamilyWise, Holm
from audit.methods.binomial import RunAuditResult
from audit.methods.black_box import Features, event_audit_from_samples
from audit.papers.sajed_sheffet.nas import (
    CLOSED_FORM_TOLERANCE,
    NAS_VARIANTS,
    ClosedFormNAS,
    NASConfig,
    NASVariant,
    check_claims,
    closed_form_audit_result,
    halting_time_log_pmf,
    max_abs_log_ratio,
    nas_closed_form_audit,
    nas_closed_form_epsilon,
    nas_query_values,
    nas_sign_flip_pair,
    nas_worst_case_pair,
)
from audit.papers.sajed_sheffet.nas_sampled import (
    nas_accuracy_audit,
    nas_blackbox_audit,
    nas_sample_outputs,
    nas_threshold_noise_calibration,
)
from audit.protocols import PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.rng import (
    SeedLike,
    as_generator,
    check_seed,
    child_seeds,
)
from reference.sajed_sheffet.bandits import simulate_dpse_bernoulli
from reference.sajed_sheffet.constants import dpse_epoch_parameters
from reference.validation import (
    check_alpha,
    check_array,
    check_bool,
    check_choice,
    check_epsilon,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "CLOSED_FORM_TOLERANCE",
    "DPSE_VARIANTS",
    "NAS_VARIANTS",
    "ClosedFormNAS",
    "DPSEConfig",
    "DPSEVariant",
    "NASConfig",
    "NASVariant",
    "SajedSheffetConfig",
    "cases",
    "closed_form_audit_result",
    "dpse_accuracy_audit",
    "dpse_blackbox_audit",
    "dpse_closed_form_audit",
    "dpse_closed_form_epsilon",
    "dpse_sample_outcomes",
    "dpse_two_arm_log_pmf",
    "halting_time_log_pmf",
    "laplace_difference_log_tail",
    "max_abs_log_ratio",
    "nas_accuracy_audit",
    "nas_blackbox_audit",
    "nas_closed_form_audit",
    "nas_closed_form_epsilon",
    "nas_query_values",
    "nas_sample_outputs",
    "nas_sign_flip_pair",
    "nas_threshold_noise_calibration",
    "nas_worst_case_pair",
    "papers_cases",
    "run_sajed_sheffet_battery",
]


# --------------------------------------------------------------------------------------------
# DP-SE (Algorithm 3): two arms, one epoch
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DPSEConfig:
    """P-SE-1: two arms, ``β = 1/2``, ``ε = 1``; epoch-1 sums ``r`` (arm 0) and ``s``
    (arm 1, ``x``) versus ``s − 1`` (``x'``).

    Default ``s = 384``: ``r = 445``, ``θ = 0.137331`` and ``(r − s)/r ≤ θ < (r − s + 1)/r``, so the
    noiseless decision flips between the neighbours (a shared-noise bug is then deterministic and
    distinguishable) and the "no elimination" outcome is likely under both (black-box power).
    """

    epsilon: float = 1.0
    beta: float = 0.5
    arm1_sum: int = 384

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon)
        check_alpha(self.beta, "beta")
        check_int_at_least("arm1_sum", self.arm1_sum, 1)

    @property
    def rounds(self) -> int:
        """``r_1 = ⌈R_1⌉`` for ``|S| = 2`` (Alg. 3 line 8)."""
        return dpse_epoch_parameters(2, 1, self.beta, self.epsilon).rounds

    @property
    def threshold(self) -> float:
        """``2h_1 + 2c_1`` (Alg. 3 line 20)."""
        return dpse_epoch_parameters(2, 1, self.beta, self.epsilon).threshold


@dataclass(frozen=True)
class DPSEVariant:
    """Algorithm 3's epoch-end release, correct or broken: the Laplace scale is
    ``scale_factor/(ε·n)`` with ``n = r_e`` (``noise_on="r"``, line 17) or ``R_e``; ``shared_noise``
    adds one Laplace draw to every arm (noise reused instead of independent)."""

    name: str
    scale_factor: float = 1.0
    noise_on: Literal["r", "R_e"] = "r"
    shared_noise: bool = False

    def __post_init__(self) -> None:
        check_positive("scale_factor", self.scale_factor)
        check_choice("noise_on", self.noise_on, ("r", "R_e"))
        check_bool("shared_noise", self.shared_noise)

    def noise_scale(self, config: DPSEConfig) -> float:
        check_instance("config", config, DPSEConfig)
        params = dpse_epoch_parameters(2, 1, config.beta, config.epsilon, noise_on=self.noise_on)
        return self.scale_factor * params.noise_scale


DPSE_VARIANTS: dict[str, DPSEVariant] = {
    "correct": DPSEVariant("correct"),
    "noise_on_R_e": DPSEVariant("noise_on_R_e", noise_on="R_e"),
    "noise_third": DPSEVariant("noise_third", scale_factor=1.0 / 3.0),
    "shared_noise": DPSEVariant("shared_noise", shared_noise=True),
}
"""Correct DP-SE, the proof's ``Lap(1/(εR_e))`` (proof of Thm 4.1, more noise: not a bug), and two bugs."""


def laplace_difference_log_tail(y: float, scale: float) -> float:
    """``ln P[N₁ − N₂ > y]`` for independent ``N₁, N₂ ~ Lap(b)``: the density of the difference is
    ``(1 + |z|/b) e^{−|z|/b}/(4b)``, so ``P[· > y] = (2 + y/b) e^{−y/b}/4`` for ``y ≥ 0`` and
    ``1 − (2 − y/b) e^{y/b}/4`` for ``y < 0``."""
    b = check_positive("scale", scale)
    z = check_finite("y", y) / b
    if z >= 0.0:
        return math.log((2.0 + z) / 4.0) - z
    return math.log1p(-(2.0 - z) * math.exp(z) / 4.0)


def dpse_two_arm_log_pmf(config: DPSEConfig, variant: DPSEVariant, arm1_sum: int) -> FloatArray:
    """``ln P`` of the epoch-1 outcomes ``(none, remove arm 0, remove arm 1)`` of Algorithm 3 with
    two arms (lines 17-20): arm ``j`` is removed iff ``μ̃_max − μ̃_j > θ``; with ``D = μ̄₀ − μ̄₁``,
    ``P[remove 1] = G(θ − D)`` and ``P[remove 0] = G(θ + D)``.  Shared noise: the
    difference is noiseless and the outcome deterministic.

    ``arm1_sum`` is arm 1's epoch-1 reward sum, an integer in ``[0, r₁]``."""
    _check_case(config, variant)
    r = config.rounds
    arm1_sum = _check_sum(arm1_sum, r)
    theta = config.threshold
    d = (r - arm1_sum) / r
    if variant.shared_noise:
        pmf = np.array([float(abs(d) <= theta), float(-d > theta), float(d > theta)])
        with np.errstate(divide="ignore"):
            logs: FloatArray = np.log(pmf)
        return logs
    b = variant.noise_scale(config)
    rm1 = laplace_difference_log_tail(theta - d, b)
    rm0 = laplace_difference_log_tail(theta + d, b)
    removed = math.exp(rm1) + math.exp(rm0)
    # ``P[none]`` below the rounding of ``1 − P[remove]``: the interval form, in log space
    none = math.log1p(-removed) if removed < 1.0 else _log_interval(-theta - d, theta - d, b)
    return np.array([none, rm0, rm1])


def _log_interval(low: float, high: float, scale: float) -> float:
    """``ln P[low < N₁ − N₂ ≤ high]`` for an interval on one side of 0 (``low ≥ 0`` or
    ``high ≤ 0``), from the tails of :func:`laplace_difference_log_tail` (symmetric law)."""
    if high <= 0.0:
        low, high = -high, -low
    near, far = laplace_difference_log_tail(low, scale), laplace_difference_log_tail(high, scale)
    if far >= near:
        return -math.inf
    return near + math.log1p(-math.exp(far - near))


def _check_case(config: object, variant: object) -> None:
    check_instance("config", config, DPSEConfig)
    check_instance("variant", variant, DPSEVariant)


def _check_sum(arm1_sum: int, rounds: int) -> int:
    s = check_int_at_least("arm1_sum", arm1_sum, 0)
    if s > rounds:
        raise ValueError(f"arm1_sum must be in [0, r_1] = [0, {rounds}] (a reward sum), got {s}")
    return s


def dpse_closed_form_epsilon(config: DPSEConfig, variant: DPSEVariant) -> float:
    """Pure ε, in closed form, of DP-SE's pulled-arm sequence on P-SE-1 (the ratio of epoch 1's outcome; later
    epochs see identical data)."""
    _check_case(config, variant)
    lp = dpse_two_arm_log_pmf(config, variant, config.arm1_sum)
    lq = dpse_two_arm_log_pmf(config, variant, config.arm1_sum - 1)
    return max_abs_log_ratio(lp, lq, np.zeros(3))


def dpse_closed_form_audit(
    config: DPSEConfig, variant: DPSEVariant, claims: Sequence[PrivacyClaim]
) -> list[PrivacyAuditResult]:
    """Closed-form audits of DP-SE's epoch-1 elimination decision on P-SE-1 against each claim."""
    t0 = time.perf_counter()
    _check_case(config, variant)
    claims = check_claims(claims)
    value = dpse_closed_form_epsilon(config, variant)
    return [
        closed_form_audit_result(
            value,
            claim,
            name=f"dpse/{variant.name}/closed_form vs {claim.label}",
            mechanism=f"DP-SE {variant.name}, P-SE-1, {config}",
            started=t0,
        )
        for claim in claims
    ]


def dpse_sample_outcomes(
    config: DPSEConfig,
    variant: DPSEVariant,
    arm1_sum: int,
    rng: np.random.Generator | SeedLike,
    size: int,
) -> FloatArray:
    """``size`` epoch-1 outcomes (0 none, 1 remove arm 0, 2 remove arm 1) of two-arm DP-SE.

    Vectorised form of :func:`reference.sajed_sheffet.bandits.dpse_eliminate` (the tests check
    that both agree, and that the reference policy's pulled-arm sequences follow
    :func:`dpse_two_arm_log_pmf`); the released
    pulled-arm sequence over ``T = 2r₁ + 2`` rounds is a bijective image of this outcome
    (``(…, 0, 0)``, ``(…, 1, 1)``, ``(…, 0, 1)``).
    """
    rng = as_generator(rng)
    _check_case(config, variant)
    size = check_int_at_least("size", size, 1)
    r = config.rounds
    means = np.array([1.0, _check_sum(arm1_sum, r) / r])
    b = variant.noise_scale(config)
    noise = rng.laplace(0.0, b, (size, 1 if variant.shared_noise else 2))
    noisy = means[None, :] + noise
    removed = noisy.max(axis=1, keepdims=True) - noisy > config.threshold  # lines 19-20
    return np.where(removed[:, 0], 1.0, np.where(removed[:, 1], 2.0, 0.0))


def dpse_blackbox_audit(
    config: DPSEConfig,
    variant: DPSEVariant,
    claims: Sequence[PrivacyClaim],
    *,
    samples: int,
    seed: int,
    confidence: float = 0.95,
) -> list[PrivacyAuditResult]:
    """Event audit of the pulled-arm sequence (epoch-1 outcome) on P-SE-1."""
    _check_case(config, variant)
    claims = check_claims(claims)
    samples = check_size("samples", samples, 1, item_bytes=8, what="an output")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    # child_seeds = SeedSequence(seed).spawn(2), without advancing a SeedSequence argument
    rng_p, rng_q = (np.random.default_rng(s) for s in child_seeds(seed, 0, 2))
    out_p = dpse_sample_outcomes(config, variant, config.arm1_sum, rng_p, samples)
    out_q = dpse_sample_outcomes(config, variant, config.arm1_sum - 1, rng_q, samples)
    onehot: Features = lambda o: np.stack([o == 0, o == 1, o == 2], axis=1).astype(np.float64)  # noqa: E731
    return [
        event_audit_from_samples(
            out_p,
            out_q,
            claim,
            name=f"dpse/{variant.name}/black_box_arms vs {claim.label}",
            mechanism=f"DP-SE {variant.name}, P-SE-1",
            features=onehot,
            confidence=confidence,
            seed=seed,
        )
        for claim in claims
    ]


def dpse_accuracy_audit(
    means: Sequence[float],
    *,
    epsilon: float,
    beta: float,
    T: int,
    runs: int,
    seed: int,
    confidence: float = 0.95,
) -> RunAuditResult:
    """ACC-SE-1 (proof of Lemma 4.2: on the good event the best arm is never
    eliminated): ``Pr[the best arm is ever eliminated] ≤ β`` over
    ``runs`` runs of :func:`reference.sajed_sheffet.bandits.simulate_dpse_bernoulli` (unique best
    arm).  Ratio ``1{best eliminated}·2`` (``> 1`` iff failed)."""
    t0 = time.perf_counter()
    mu = check_array("means", means, ndim=1)
    if mu.size < 2:
        raise ValueError(f"means must hold at least 2 arms, got {mu.size}")
    best = int(np.argmax(mu))
    rng = as_generator(seed, "seed")
    runs = check_size("runs", runs, 1, item_bytes=8, what="a run's result")
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    failed = np.zeros(runs)
    for i in range(runs):
        run = simulate_dpse_bernoulli(mu, T, epsilon, beta, rng)
        failed[i] = 2.0 if run.elimination_epoch[best] >= 0 else 0.0
    return RunAuditResult.from_ratios(
        "dpse/reference/best_arm_kept",
        {"2 * 1{best arm eliminated}": failed},
        beta,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


# --------------------------------------------------------------------------------------------
# The battery
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SajedSheffetConfig:
    """Budget of the battery: root ``seed``, black-box ``samples`` per side, ``family_alpha``
    (every single test runs at confidence ``1 − family_alpha``), accuracy ``accuracy_runs``, and
    whether the black-box audits run."""

    seed: int = 2026
    samples: int = 200_000
    family_alpha: float = 0.05
    accuracy_runs: int = 400
    black_box: bool = True

    def __post_init__(self) -> None:
        check_seed(self.seed)
        check_size("samples", self.samples, 1, item_bytes=8, what="an output")
        check_in_range("family_alpha", self.family_alpha, 0.0, 1.0)
        check_int_at_least("accuracy_runs", self.accuracy_runs, 1)
        check_bool("black_box", self.black_box)


def _claims(printed: float, exact: float, label: str) -> tuple[PrivacyClaim, PrivacyClaim]:
    return (
        PrivacyClaim(printed, 0.0, label=f"printed {label}"),
        PrivacyClaim(exact, 0.0, label="exact (correct mechanism)"),
    )


def cases(config: SajedSheffetConfig | None = None) -> list[AuditCase]:
    """Every Sajed & Sheffet audit (module docstring) as an :class:`~audit.cases.AuditCase`:
    DP-NAS (Alg. 1 and Alg. 2 on their pairs) and DP-SE, correct and broken, then the accuracy
    audits.  A NAS variant's case covers both stopping rules (its bug is one planted bug)."""
    c = (
        SajedSheffetConfig()
        if config is None
        else check_instance("config", config, SajedSheffetConfig)
    )
    conf = 1.0 - c.family_alpha
    nas1 = NASConfig(rule="exponential", cap=12)
    nas4 = NASConfig(rule="exponential", cap=9, alpha=0.9, beta=0.9)
    alg1 = NASConfig(rule="every_step", cap=64)
    alg1_flip = NASConfig(rule="every_step", cap=401, alpha=0.9, beta=0.9)
    setups = [  # (configuration, pair, run the black-box audits)
        (nas1, nas_worst_case_pair(nas1), True),
        (nas4, nas_sign_flip_pair(nas4, 7), True),
        (alg1, nas_worst_case_pair(alg1), False),
        (alg1_flip, nas_sign_flip_pair(alg1_flip, 400, 0.25), False),
    ]
    se = DPSEConfig()
    se_claims = _claims(se.epsilon, dpse_closed_form_epsilon(se, DPSE_VARIANTS["correct"]), "eps")

    claims = []
    for cfg, pair, _ in setups:
        correct = nas_closed_form_epsilon(pair.x, pair.x_prime, cfg)
        claims.append(
            (
                _claims(cfg.epsilon, correct.epsilon, "eps"),
                _claims(cfg.epsilon / 2.0, correct.halting_epsilon, "eps/2"),
            )
        )

    def nas_tests(seed: np.random.SeedSequence, v: NASVariant) -> list[AuditResult]:
        s = case_seed(seed)  # = seed_for(c.seed, case name): seeds follow names
        res: list[AuditResult] = []
        for k, ((cfg, pair, sampled), (out_claims, halt_claims)) in enumerate(
            zip(setups, claims, strict=True)
        ):
            form = nas_closed_form_epsilon(pair.x, pair.x_prime, cfg, v)
            res += nas_closed_form_audit(cfg, v, out_claims, pair, closed_form=form)
            res += nas_closed_form_audit(
                cfg, v, halt_claims, pair, part="halting", closed_form=form
            )
            if not (sampled and c.black_box):
                continue
            res += nas_blackbox_audit(
                cfg, v, halt_claims, pair, samples=c.samples, seed=s + 2 * k, confidence=conf
            )
            if k == 0:
                res += nas_blackbox_audit(
                    cfg,
                    v,
                    out_claims,
                    pair,
                    samples=c.samples,
                    seed=s + 1,
                    view="release",
                    confidence=conf,
                )
        return res

    def se_tests(seed: np.random.SeedSequence, v: DPSEVariant) -> list[AuditResult]:
        res: list[AuditResult] = list(dpse_closed_form_audit(se, v, se_claims))
        if c.black_box:
            res += dpse_blackbox_audit(
                se, v, se_claims, samples=c.samples, seed=case_seed(seed), confidence=conf
            )
        return res

    def nas_case(name: str, role: Role) -> AuditCase:
        bug = None if role == "correct" else f"dp_nas/{name}"
        run = functools.partial(nas_tests, v=NAS_VARIANTS[name])
        return AuditCase(f"dp_nas/{name}", role, run, bug)

    def se_case(name: str, role: Role) -> AuditCase:
        bug = None if role == "correct" else f"dpse/{name}"
        return AuditCase(
            f"dp_se/{name}", role, functools.partial(se_tests, v=DPSE_VARIANTS[name]), bug
        )

    def nas_accuracy(seed: np.random.SeedSequence, v: NASVariant | None) -> list[AuditResult]:
        return [
            nas_accuracy_audit(
                nas1, 0.5, runs=c.accuracy_runs, seed=case_seed(seed), variant=v, confidence=conf
            )
        ]

    def se_accuracy(seed: np.random.SeedSequence) -> list[AuditResult]:
        return [
            dpse_accuracy_audit(
                [0.9, 0.4, 0.65, 0.775, 0.8375],
                epsilon=1.0,
                beta=0.5,
                T=10**6,
                runs=c.accuracy_runs,
                seed=case_seed(seed),
                confidence=conf,
            )
        ]

    return [
        nas_case("correct", "correct"),
        se_case("correct", "correct"),
        se_case("noise_on_R_e", "correct"),  # more noise (proof of Thm 4.1): not a bug
        *(nas_case(n, "broken") for n in ("A_drawn_once", "noise_12R_to_4R", "L_forgotten")),
        *(se_case(n, "broken") for n in ("noise_third", "shared_noise")),
        AuditCase(
            "accuracy/dp_nas",
            "correct",
            functools.partial(nas_accuracy, v=None),  # the reference implementation
        ),
        AuditCase(
            "accuracy/dp_nas_c_dropped",
            "broken",
            functools.partial(nas_accuracy, v=NAS_VARIANTS["c_dropped"]),
            "dp_exp_nas/c_dropped",
        ),
        AuditCase("accuracy/dp_se", "correct", se_accuracy),
    ]


def run_sajed_sheffet_battery(
    config: SajedSheffetConfig | None = None, *, strategy: FamilyWise | None = None
) -> CaseReport:
    """Run :func:`cases` with :func:`audit.cases.run_cases` from ``config.seed``.

    Every mechanism is tested against its printed claim and the exact ε of the correct mechanism on
    the worst-case pair.  ``strategy`` (default Holm at ``config.family_alpha``) over the
    correct-mechanism privacy tests bounds the family-wise false-alarm rate (closed-form tests have
    p-values 0/1 and cannot raise false alarms); broken variants are judged at their own level.
    """
    c = (
        SajedSheffetConfig()
        if config is None
        else check_instance("config", config, SajedSheffetConfig)
    )
    strategy = Holm(c.family_alpha) if strategy is None else strategy
    return run_cases(cases(c), seed=c.seed, strategy=strategy)


def papers_cases(seed: int, quick: bool) -> list[AuditCase]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers.combined`) for the
    root ``seed``; ``quick`` uses smaller samples."""
    return cases(
        SajedSheffetConfig(
            seed=seed, samples=40_000 if quick else 200_000, accuracy_runs=100 if quick else 400
        )
    )
