"""The calibration scenarios of :mod:`audit.benchmarks.calibration`: each tester on a tight correct
mechanism against its exact guarantee (false alarms), and on a mechanism leaking exactly what a
first audit stated (power), in the registry :data:`SCENARIOS`.

Proof note: ``proofs_notes/audit/calibration.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np
from scipy import optimize

from audit.benchmarks.mechanisms import ReportNoisyMax
from audit.familywise import Holm
from audit.mechanisms import GaussianMechanism, LaplaceMechanism
from audit.methods.billboard import DELTA_STAR, TreeFactory, billboard_audit
from audit.methods.binomial import RunAuditResult
from audit.methods.black_box import EventCounts, epsilon_lower_bound, event_audit
from audit.methods.designs import design_online_audit, online_design
from audit.methods.pairs import search_pairs, statdp_patterns
from audit.methods.scaling import fit_against_form, fit_mean_against_form
from audit.methods.staged import PASS_TARGET
from audit.methods.stream import Algorithm1Policy, stream_audit, worst_case_streams
from audit.methods.white_box import white_box_audit
from audit.protocols import NeighbouringPair, PrivacyClaim
from audit.results import INCONCLUSIVE_FACTOR, POWER, PrivacyAuditResult
from audit.stats import clopper_pearson
from reference._typing import FloatArray
from reference.accounting import gaussian_delta, gaussian_epsilon, gaussian_mu_for
from reference.noise import GaussianVectorNoise
from reference.rng import seed_for
from reference.shariff_sheffet import PrivacyParameters, ProblemConstants, make_policy
from reference.tree import TreeAggregator

__all__ = [
    "ALPHA",
    "PAIR",
    "SCENARIOS",
    "Kind",
    "Prepared",
    "RandomizedResponse",
    "Scenario",
    "Trial",
]

ALPHA = 0.05
"""The nominal false-alarm level of every scenario (``confidence = 0.95``; Holm at 0.05)."""

Kind = Literal["false_alarm", "power"]
Trial = Callable[[int], bool]
"""One independent run of a scenario: ``trial(seed)`` is ``True`` iff the tester rejected."""

PAIR = NeighbouringPair(np.zeros(1), np.ones(1))
"""The scalar pair ``0`` versus ``1`` (sensitivity 1) of the additive-noise scenarios."""


@dataclass(frozen=True)
class Prepared:
    """A scenario ready to repeat: its trial and what the setup measured (power statements)."""

    trial: Trial
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """One calibration scenario: a tester run on one mechanism against one claim.

    ``kind="false_alarm"``: the claim holds (``tight`` says whether it holds with equality), so
    the rejection rate must be at most ``nominal``.  ``kind="power"``: ``build`` runs a first audit
    of the tight mechanism and returns trials of a mechanism leaking exactly the stated amount, so
    the rejection rate should be at least ``nominal = POWER``.  ``build(seed)`` gets
    ``seed_for(root, "<statement_key or name>/statement")`` (scenarios with one ``statement_key``
    share their first audit); every field but ``build`` is part of the resume identity.
    """

    name: str
    kind: Kind
    tester: str
    mechanism: str
    claim: str
    tight: bool
    samples: str
    nominal: float
    build: Callable[[int], Prepared]
    statement_key: str = ""


class RandomizedResponse:
    """Binary randomized response: the input bit ``data[0]`` is kept with probability
    ``e^ε/(1 + e^ε)`` and flipped otherwise, so the exact guarantee is pure ``ε``-DP (the event
    ``{output = data[0]}`` has likelihood ratio ``e^ε``).  Output shape ``(size,)``."""

    def __init__(self, epsilon: float) -> None:
        if not (math.isfinite(epsilon) and epsilon > 0.0):
            raise ValueError(f"epsilon must be finite and > 0, got {epsilon!r}")
        self.epsilon = float(epsilon)

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        """``size`` reports of the bit ``data[0]``."""
        bit = float(np.asarray(data, dtype=np.float64).ravel()[0])
        keep = rng.uniform(size=size) < math.exp(self.epsilon) / (1.0 + math.exp(self.epsilon))
        return np.where(keep, bit, 1.0 - bit)

    def __repr__(self) -> str:
        return f"RandomizedResponse(epsilon={self.epsilon:.6g})"


# --------------------------------------------------------------------------------------------
# Sizes: the whole run (500 null and 200 power repeats) took 15 minutes on one shared core
# --------------------------------------------------------------------------------------------

BLACK_BOX_SAMPLES = 20_000
WHITE_BOX_SAMPLES = 20_000
GAUSSIAN_DELTA = 1e-2
BILLBOARD_N, BILLBOARD_MU, BILLBOARD_REPLICATES = 64, 0.5, 10_000
BINOMIAL_TRIALS, BINOMIAL_RATE = 1000, 0.01
SCALING_REPLICATES, SCALING_X = 20, (100.0, 200.0, 400.0, 800.0, 1600.0)
PAIRS_EPSILON, PAIRS_SCREEN, PAIRS_SAMPLES, PAIRS_TOP = 1.0, 2000, 10_000, 2
STREAM_N, STREAM_RUNS = 16, 200
STREAM_PRIVACY = PrivacyParameters(1.0, 0.1)


def _audit_trial(audit: Callable[[int], PrivacyAuditResult]) -> Trial:
    return lambda seed: audit(seed).violation


def _constant(trial: Trial) -> Callable[[int], Prepared]:
    return lambda _seed: Prepared(trial)


# black box ------------------------------------------------------------------------------------

LAPLACE_CLAIM = PrivacyClaim(1.0, 0.0, label="exact ε of Laplace(1)")
RR_CLAIM = PrivacyClaim(1.0, 0.0, label="exact ε of randomized response")
GAUSS_CLAIM = PrivacyClaim(
    gaussian_epsilon(GAUSSIAN_DELTA, mu=1.0), GAUSSIAN_DELTA, label="exact ε(δ) of N(0, 1)"
)


def _black_box(mechanism: Any, claim: PrivacyClaim) -> Callable[[int], PrivacyAuditResult]:
    def audit(seed: int) -> PrivacyAuditResult:
        return event_audit(mechanism, PAIR, claim, samples=BLACK_BOX_SAMPLES, seed=seed)

    return audit


def _statement(first: PrivacyAuditResult) -> dict[str, Any]:
    stated = first.detectable_epsilon
    assert stated is not None
    counts: EventCounts = first.details["counts"]
    return {
        "stated": "detectable_epsilon",
        "value": stated,
        "first_verdict": first.verdict,
        "event": first.details["event"],
        "counts": counts,
    }


def _mechanism_power(
    first_audit: Callable[[int], PrivacyAuditResult],
    leaking: Callable[[float], tuple[Callable[[int], PrivacyAuditResult], str]],
) -> Callable[[int], Prepared]:
    """The mechanism-level reading of a black-box power statement: a first audit states
    ``detectable_epsilon = D``; ``leaking(D)`` gives audits (of a mechanism whose exact ε at the
    claimed δ is ``D``, against the original claim, each choosing its own event) and a label."""

    def build(seed: int) -> Prepared:
        details = _statement(first_audit(seed))
        if not math.isfinite(details["value"]):
            return Prepared(lambda _s: False, {**details, "leaking": "none (no finite statement)"})
        audit, label = leaking(details["value"])
        return Prepared(_audit_trial(audit), {**details, "leaking": label})

    return build


def _event_power(first_audit: Callable[[int], PrivacyAuditResult]) -> Callable[[int], Prepared]:
    """The black-box power statement exactly as stated: on the event the first audit evaluated,
    with ``n, n'`` its evaluation sizes and ``q`` its frequency under ``x'`` (the Clopper–Pearson
    upper bound when that count is 0, as :func:`audit.methods.black_box.detectable_epsilon`), the
    counts are ``Bin(n, e^D q + δ)`` and ``Bin(n', q)``; a trial rejects iff
    :func:`audit.methods.black_box.epsilon_lower_bound` of those counts exceeds ``ε_claim``."""

    def build(seed: int) -> Prepared:
        first = first_audit(seed)
        details = _statement(first)
        stated, counts = details["value"], details["counts"]
        claim, beta = first.claim, 1.0 - first.confidence
        if not math.isfinite(stated):
            return Prepared(lambda _s: False, {**details, "leaking": "none (no finite statement)"})
        n, n_prime = counts.trials, counts.trials_prime
        q = counts.count_prime / n_prime
        if counts.count_prime == 0:
            q = clopper_pearson(0, n_prime, beta / 2.0)[1]
        p = min(1.0, math.exp(stated) * q + claim.delta)

        def trial(s: int) -> bool:
            rng = np.random.default_rng(s)
            drawn = EventCounts(int(rng.binomial(n, p)), n, int(rng.binomial(n_prime, q)), n_prime)
            return epsilon_lower_bound(drawn, claim.delta, beta) > claim.epsilon

        label = f"audited event with P = e^D q + δ = {p:.6g}, P' = q = {q:.6g}"
        return Prepared(trial, {**details, "leaking": label})

    return build


# white box ------------------------------------------------------------------------------------

WB_LAPLACE_CLAIM = PrivacyClaim(1.0, 0.0, label="exact ε of Laplace(1)")
WB_GAUSS_CLAIM = GAUSS_CLAIM


def _white_box(mechanism: Any, claim: PrivacyClaim) -> Callable[[int], PrivacyAuditResult]:
    def audit(seed: int) -> PrivacyAuditResult:
        return white_box_audit(mechanism, PAIR, claim, samples=WHITE_BOX_SAMPLES, seed=seed)

    return audit


def _laplace_leaking_delta(epsilon: float, delta: float) -> LaplaceMechanism:
    """The Laplace mechanism whose exact ``δ(ε)`` is ``delta``: ``δ = 1 − e^{(ε − ε₀)/2}``
    (:func:`reference.accounting.laplace_delta`) gives ``ε₀ = ε − 2 ln(1 − δ)``."""
    return LaplaceMechanism(1.0 / (epsilon - 2.0 * math.log1p(-delta)))


def _gaussian_leaking_delta(epsilon: float, delta: float) -> GaussianMechanism:
    """The Gaussian mechanism (sensitivity 1) whose exact ``δ(ε)`` is ``delta`` (``δ`` increases
    in ``μ``; Brent's method on :func:`reference.accounting.gaussian_delta`)."""
    high = 1.0
    while gaussian_delta(epsilon, mu=high) < delta:
        high *= 2.0
    mu = optimize.brentq(lambda m: gaussian_delta(epsilon, mu=m) - delta, 1e-6, high, xtol=1e-13)
    return GaussianMechanism(1.0 / float(mu))


def _white_box_power(
    tight: Any, claim: PrivacyClaim, leaking: Callable[[float, float], Any]
) -> Callable[[int], Prepared]:
    """A first audit of ``tight`` states ``detectable_delta = d``; the trials audit
    ``leaking(ε_claim, d)`` (exact ``δ(ε_claim) = d``) against ``claim``."""

    def build(seed: int) -> Prepared:
        first = _white_box(tight, claim)(seed)
        stated = first.detectable_delta
        assert stated is not None
        details = {"stated": "detectable_delta", "value": stated, "first_verdict": first.verdict}
        if stated >= 1.0:
            return Prepared(lambda _s: False, {**details, "leaking": "none (no statement < 1)"})
        mech = leaking(claim.epsilon, stated)
        return Prepared(_audit_trial(_white_box(mech, claim)), {**details, "leaking": repr(mech)})

    return build


CLASSICAL_MU = 1.0 / math.sqrt(2.0 * math.log(1.25 / 0.1))
"""The Gaussian mechanism built for ``(1, 0.1)`` by the classical calibration
``σ = √(2 ln(1.25/δ))/ε`` (Dwork & Roth Thm A.1): ``μ = 1/σ = 0.445``."""

CLASSICAL_SMALL_DELTA = PrivacyClaim(
    1.0, 1e-5, label="(1, 1e-5), not the (1, 0.1) it was built for"
)
CLASSICAL_LARGE_DELTA = PrivacyClaim(1.0, 0.5, label="(1, 0.5), a large δ")


def _white_box_epsilon_power(tight: Any, claim: PrivacyClaim) -> Callable[[int], Prepared]:
    """A first audit of ``tight`` states ``detectable_epsilon = X`` (the ε-form, the tilted
    family's member at the claim's δ); the trials audit the Gaussian mechanism whose exact
    ``ε(δ_claim)`` is ``X`` (:func:`reference.accounting.gaussian_mu_for`) against ``claim``."""

    def build(seed: int) -> Prepared:
        first = _white_box(tight, claim)(seed)
        stated = first.detectable_epsilon
        assert stated is not None
        details = {"stated": "detectable_epsilon", "value": stated, "first_verdict": first.verdict}
        if not math.isfinite(stated):
            return Prepared(lambda _s: False, {**details, "leaking": "none (no finite statement)"})
        mech = GaussianMechanism(1.0 / gaussian_mu_for(stated, claim.delta))
        return Prepared(_audit_trial(_white_box(mech, claim)), {**details, "leaking": repr(mech)})

    return build


def _design(learner: Any, claim: PrivacyClaim) -> Callable[[int], PrivacyAuditResult]:
    """The design audit of ``learner`` on the two-round split design against ``claim``."""

    def audit(seed: int) -> PrivacyAuditResult:
        return design_online_audit(
            learner, DESIGN_PAIR, claim, runs=DESIGN_RUNS, seed=seed,
            confidence=1.0 - ALPHA, name="design",
        )  # fmt: skip

    return audit


def _design_tight_learner(seed: int) -> bool:
    """The design audit of a correct tree learner on the two-round split design, against its
    exact pure ε: :class:`DesignLearner` releases ``x ∝ exp(−η L̃)`` of one Laplace-noised
    loss, so its points show ``L̃₁ − L̃₂`` and the claim is tight in the tails."""
    return _design(DesignLearner(), DESIGN_CLAIM)(seed).violation


def _design_gaussian_learner(seed: int) -> bool:
    """The design audit of :class:`GaussianDesignLearner` at ``μ = 0.5`` against its exact
    ``(ε(δ), δ)`` at ``δ = 10⁻²``."""
    return _design(GaussianDesignLearner(DESIGN_MU), DESIGN_GAUSS_CLAIM)(seed).violation


class DesignLearner:
    """A one-node tree learner on ``[0, 1]^N``: round 1's loss plus ``Lap(Δ₁/ε)`` noise per
    coordinate (``Δ₁ = N``, the ℓ₁ diameter), published through exponential weights from
    round 2 on; exactly ``ε``-DP for one changed loss, tight on the split pair."""

    def __init__(self, epsilon: float = 1.0) -> None:
        self.epsilon = epsilon

    def _noise(self, dim: int, rng: np.random.Generator) -> FloatArray:
        """The node's noise: ``Lap(dim/ε)`` per coordinate."""
        return rng.laplace(0.0, dim / self.epsilon, dim)

    def play(self, losses: FloatArray, rng: np.random.Generator) -> FloatArray:
        """The points: uniform on round 1, then ``∝ exp(−(l₁ + noise))``."""
        n, dim = losses.shape
        points = np.full((n, dim), 1.0 / dim)
        noisy = losses[0] + self._noise(dim, rng)
        weights = np.exp(-(noisy - noisy.min()))
        points[1:] = weights / weights.sum()
        return points

    def __repr__(self) -> str:
        return f"DesignLearner(epsilon={self.epsilon})"


class GaussianDesignLearner(DesignLearner):
    """:class:`DesignLearner` with ``N(0, σ²)`` noise per coordinate, ``σ = √2/μ``: on the split
    design (round 1's loss ``(1, 0)`` or ``(0, 1)``, ``N = 2``) its points are a one-to-one
    function of ``L̃₁ − L̃₂ = ±1 + N(0, 2σ²)``, so it is exactly ``μ``-GDP there, with the
    exact curve ``ε(δ; μ)``."""

    def __init__(self, mu: float = 1.0) -> None:
        super().__init__(mu)
        self.mu = mu

    def _noise(self, dim: int, rng: np.random.Generator) -> FloatArray:
        """The node's noise: ``N(0, 2/μ²)`` per coordinate."""
        return rng.normal(0.0, math.sqrt(2.0) / self.mu, dim)

    def __repr__(self) -> str:
        return f"GaussianDesignLearner(mu={self.mu:.6g})"


DESIGN_RUNS = 2000
DESIGN_PAIR = online_design(2, 2)
DESIGN_CLAIM = PrivacyClaim(1.0, 0.0, "t_neighbouring", "exact ε of DesignLearner(1)")
DESIGN_MU = 0.5
"""The design's Gaussian learner: at ``μ = 1`` its 2000 runs often show no event with a finite
power statement at ``δ = 10⁻²`` (the claim's ε, 2.32, is reached only far in the tails)."""
DESIGN_GAUSS_CLAIM = PrivacyClaim(
    gaussian_epsilon(GAUSSIAN_DELTA, mu=DESIGN_MU), GAUSSIAN_DELTA, "t_neighbouring",
    "exact (ε(δ), δ) of GaussianDesignLearner(0.5)",
)  # fmt: skip


# billboard ------------------------------------------------------------------------------------


def _noisier_tree(sigma: float) -> TreeFactory:
    """Correct trees whose node noise has standard deviation ``sigma`` instead of the audit's 1."""

    def factory(n: int, noise: GaussianVectorNoise, rng: np.random.Generator) -> TreeAggregator:
        return TreeAggregator(n, GaussianVectorNoise(noise.shape, sigma), rng)

    return factory


def _billboard(factory: TreeFactory) -> Callable[[int], PrivacyAuditResult]:
    def audit(seed: int) -> PrivacyAuditResult:
        return billboard_audit(
            factory, n=BILLBOARD_N, mu=BILLBOARD_MU, replicates=BILLBOARD_REPLICATES, seed=seed
        )

    return audit


def _billboard_leaking(stated: float) -> tuple[Callable[[int], PrivacyAuditResult], str]:
    """Correct trees with node noise ``σ = μ/μ'``, ``ε(δ*; μ') = D``: their billboard is exactly
    ``μ'``-GDP, audited against the ``μ``-GDP claim."""
    mu_leak = gaussian_mu_for(stated, DELTA_STAR)
    sigma = BILLBOARD_MU / mu_leak
    label = f"correct tree, node σ = {sigma:.6g} (μ' = {mu_leak:.6g})"
    return _billboard(_noisier_tree(sigma)), label


def _at_pass_factor(
    audit: Callable[[int], PrivacyAuditResult], epsilon: float, label: str
) -> Callable[[int], Prepared]:
    """Audits of a mechanism whose exact ε at the claimed δ is ``epsilon =
    INCONCLUSIVE_FACTOR · max(ε_claim, 0.05)``: the mechanism-level reading of a ``"pass"``
    (``proofs_notes/audit/black_box_event.md``, "would have caught a mechanism twice as leaky")."""
    details = {"stated": "pass factor", "value": epsilon, "first_verdict": "—", "leaking": label}
    return lambda _seed: Prepared(_audit_trial(audit), details)


def _fresh(build: Callable[[int], Prepared], leaking: str) -> Callable[[int], Prepared]:
    """A power scenario with its statement re-derived in every repeat: repeat seed ``s`` runs the
    first audit at ``seed_for(s, "statement")`` and the trial at ``s``, so the rate averages the
    coverage over the law of the statements (each repeat's stated value is kept in
    ``details["values"]``)."""

    def make(_seed: int) -> Prepared:
        values: list[float] = []

        def trial(s: int) -> bool:
            prepared = build(seed_for(s, "statement"))
            values.append(float(prepared.details["value"]))
            return prepared.trial(s)

        details = {"stated": "re-derived in each repeat", "values": values, "leaking": leaking}
        return Prepared(trial, details)

    return make


# binomial, scaling ------------------------------------------------------------------------------


def _binomial(seed: int) -> bool:
    """``BINOMIAL_TRIALS`` trials whose ratio to the bound exceeds 1 with probability exactly
    ``BINOMIAL_RATE`` (``U/(1 − q)``, ``U`` uniform), audited against the rate ``q``."""
    rng = np.random.default_rng(seed)
    ratios = rng.uniform(size=BINOMIAL_TRIALS) / (1.0 - BINOMIAL_RATE)
    result = RunAuditResult.from_ratios(
        "binomial at its rate",
        {"u": ratios},
        BINOMIAL_RATE,
        confidence=1.0 - ALPHA,
        seed=seed,
        started=time.perf_counter(),
    )
    return result.violation


def _scaling_form() -> tuple[FloatArray, FloatArray]:
    x = np.asarray(SCALING_X)
    return x, np.sqrt(x) * np.log(x)


def _scaling_log_ols(seed: int) -> bool:
    """``R̂[r, j] = form[j] · exp(a_r + e_rj)``, ``a_r ~ N(0, 0.2²)``, ``e_rj ~ N(0, 0.3²)``:
    the slope of ``ln R̂`` on ``ln form`` is exactly 1."""
    rng = np.random.default_rng(seed)
    x, form = _scaling_form()
    a = rng.normal(0.0, 0.2, size=(SCALING_REPLICATES, 1))
    e = rng.normal(0.0, 0.3, size=(SCALING_REPLICATES, x.size))
    fit = fit_against_form("slope 1", x, form, form * np.exp(a + e), theorem_exponent="1")
    return not fit.consistent


def _scaling_log_link(seed: int) -> bool:
    """``v[r, j] = form[j] · (1 + u_r + e_rj)``, ``u_r ~ N(0, 0.1²)``, ``e_rj ~ N(0, 0.3²)``:
    ``E v = form``, slope exactly 1 in the log-link model."""
    rng = np.random.default_rng(seed)
    x, form = _scaling_form()
    u = rng.normal(0.0, 0.1, size=(SCALING_REPLICATES, 1))
    e = rng.normal(0.0, 0.3, size=(SCALING_REPLICATES, x.size))
    fit = fit_mean_against_form("slope 1", x, form, form * (1.0 + u + e), theorem_exponent="1")
    return not fit.consistent


# pairs, stream ---------------------------------------------------------------------------------

RNM = ReportNoisyMax(PAIRS_EPSILON, "exponential", "index")
RNM_CLAIM = PrivacyClaim(PAIRS_EPSILON, 0.0, label="ε of report noisy max (exponential noise)")


def _pairs(seed: int) -> bool:
    def tester(pair: NeighbouringPair[FloatArray], n: int, s: int) -> PrivacyAuditResult:
        return event_audit(RNM, pair, RNM_CLAIM, samples=n, seed=s)

    result = search_pairs(
        statdp_patterns(5),
        tester,
        screen_samples=PAIRS_SCREEN,
        samples=PAIRS_SAMPLES,
        seed=seed,
        top=PAIRS_TOP,
        strategy=Holm(ALPHA),
    )
    return result.violation


STREAM_CLAIM = PrivacyClaim(
    STREAM_PRIVACY.epsilon, STREAM_PRIVACY.delta, "t_neighbouring", "Algorithm 1's (ε, δ)"
)
_STREAM_CONSTANTS = ProblemConstants(d=2)
_STREAMS = worst_case_streams(STREAM_N, 1)
_PRIVATE_POLICY = Algorithm1Policy(
    lambda n, rng: make_policy("gaussian", _STREAM_CONSTANTS, n, 1 / n, rng, STREAM_PRIVACY),
    "gaussian",
)


def _stream(seed: int) -> bool:
    s, s_prime = _STREAMS
    return stream_audit(
        _PRIVATE_POLICY, s, s_prime, 1, STREAM_CLAIM, runs=STREAM_RUNS, seed=seed
    ).violation


# registry ---------------------------------------------------------------------------------------

_BB = f"{BLACK_BOX_SAMPLES} per side"
_WB = f"{WHITE_BOX_SAMPLES} losses per side"
_BILL = f"{BILLBOARD_REPLICATES} trees per side (n = {BILLBOARD_N}, μ = {BILLBOARD_MU})"
_BB_T, _WB_T = "black_box.event_audit", "white_box.white_box_audit"


def _black_box_power_pair(
    name: str,
    tight: Any,
    claim: PrivacyClaim,
    claim_text: str,
    leaking_text: str,
    leaking: Callable[[float], Any],
) -> tuple[Scenario, Scenario]:
    """The mechanism-level and the event-level (exact statement) power scenarios of the black-box
    statement on ``tight``; both use the same first audit.  ``leaking(D)`` is the mechanism whose
    exact ε at ``claim.delta`` is ``D``."""
    key = f"power/black_box/{name}"
    first_audit = _black_box(tight, claim)

    def leaking_audit(d: float) -> tuple[Callable[[int], PrivacyAuditResult], str]:
        mechanism = leaking(d)
        return _black_box(mechanism, claim), repr(mechanism)

    return (
        Scenario(key, "power", _BB_T, leaking_text, claim_text, True, _BB, POWER,
                 _mechanism_power(first_audit, leaking_audit)),
        Scenario(f"{key}/event", "power", f"{_BB_T} (evaluation)",
                 "the audited event at P = e^D q + δ", claim_text, True, _BB, POWER,
                 _event_power(first_audit), statement_key=key),
    )  # fmt: skip


def _registry() -> dict[str, Scenario]:
    lap, rr, gauss = LaplaceMechanism(1.0), RandomizedResponse(1.0), GaussianMechanism(1.0)
    gauss_claim = f"(ε(δ), δ) = ({GAUSS_CLAIM.epsilon:.6g}, {GAUSS_CLAIM.delta:g})"
    bill_claim = f"μ = {BILLBOARD_MU} GDP at δ* = {DELTA_STAR:g}"
    design_gauss = f"(ε(δ), δ) = ({DESIGN_GAUSS_CLAIM.epsilon:.6g}, {GAUSSIAN_DELTA:g})"
    # learners whose exact ε is the staged audit's promised factor times the claim's
    design_lap = DesignLearner(PASS_TARGET)
    design_gauss_leak = GaussianDesignLearner(
        gaussian_mu_for(PASS_TARGET * DESIGN_GAUSS_CLAIM.epsilon, GAUSSIAN_DELTA)
    )
    # mechanisms whose exact ε is INCONCLUSIVE_FACTOR times the claim's (claims ε ≥ 0.05 here)
    lap_twice = LaplaceMechanism(1.0 / (INCONCLUSIVE_FACTOR * LAPLACE_CLAIM.epsilon))
    twice_gauss = INCONCLUSIVE_FACTOR * GAUSS_CLAIM.epsilon
    gauss_twice = GaussianMechanism(1.0 / gaussian_mu_for(twice_gauss, GAUSSIAN_DELTA))
    twice_bill = INCONCLUSIVE_FACTOR * gaussian_epsilon(DELTA_STAR, mu=BILLBOARD_MU)
    bill_sigma = BILLBOARD_MU / gaussian_mu_for(twice_bill, DELTA_STAR)
    items = [
        Scenario("black_box/laplace", "false_alarm", _BB_T, repr(lap), "ε = 1, δ = 0", True,
                 _BB, ALPHA, _constant(_audit_trial(_black_box(lap, LAPLACE_CLAIM)))),
        Scenario("black_box/randomized_response", "false_alarm", _BB_T, repr(rr),
                 "ε = 1, δ = 0", True, _BB, ALPHA,
                 _constant(_audit_trial(_black_box(rr, RR_CLAIM)))),
        Scenario("black_box/gaussian_delta", "false_alarm", _BB_T, repr(gauss), gauss_claim,
                 True, _BB, ALPHA, _constant(_audit_trial(_black_box(gauss, GAUSS_CLAIM)))),
        Scenario("white_box/laplace", "false_alarm", _WB_T, repr(lap), "ε = 1, δ = 0", True,
                 _WB, ALPHA, _constant(_audit_trial(_white_box(lap, WB_LAPLACE_CLAIM)))),
        Scenario("white_box/gaussian", "false_alarm", _WB_T, repr(gauss), gauss_claim, True,
                 _WB, ALPHA, _constant(_audit_trial(_white_box(gauss, WB_GAUSS_CLAIM)))),
        Scenario("billboard/correct_tree", "false_alarm", "billboard.billboard_audit",
                 "correct TreeAggregator, σ = 1", bill_claim, True, _BILL, ALPHA,
                 _constant(_audit_trial(_billboard(TreeAggregator)))),
        Scenario("binomial/at_rate", "false_alarm", "binomial.RunAuditResult.from_ratios",
                 f"failures ~ Bin({BINOMIAL_TRIALS}, {BINOMIAL_RATE})",
                 f"failure rate ≤ {BINOMIAL_RATE}", True, f"{BINOMIAL_TRIALS} trials", ALPHA,
                 _constant(_binomial)),
        Scenario("scaling/log_ols", "false_alarm", "scaling.fit_against_form",
                 "log-normal regrets, slope exactly 1, replicate effect", "slope ≤ 1", True,
                 f"{SCALING_REPLICATES} replicates × {len(SCALING_X)} points", ALPHA,
                 _constant(_scaling_log_ols)),
        Scenario("scaling/log_link", "false_alarm", "scaling.fit_mean_against_form",
                 "additive-noise values, mean slope exactly 1, replicate effect", "slope ≤ 1",
                 True, f"{SCALING_REPLICATES} replicates × {len(SCALING_X)} points", ALPHA,
                 _constant(_scaling_log_link)),
        Scenario("pairs/report_noisy_max", "false_alarm", "pairs.search_pairs (Holm)",
                 repr(RNM), "ε = 1, δ = 0 (exact on 'one below rest above')", True,
                 f"8 StatDP pairs screened on {PAIRS_SCREEN}, top {PAIRS_TOP} on {PAIRS_SAMPLES}",
                 ALPHA, _constant(_pairs)),
        Scenario("design/tight_learner", "false_alarm", "designs.design_online_audit",
                 "DesignLearner(1): one Laplace node seen through exponential weights",
                 "ε = 1, δ = 0 (tight in the tails)", True,
                 f"{DESIGN_RUNS} runs per sequence, split design, n = 2, N = 2", ALPHA,
                 _constant(_design_tight_learner)),
        Scenario("design/gaussian_learner", "false_alarm", "designs.design_online_audit",
                 "GaussianDesignLearner(0.5): one Gaussian node seen through exponential weights",
                 design_gauss, True,
                 f"{DESIGN_RUNS} runs per sequence, split design, n = 2, N = 2", ALPHA,
                 _constant(_design_gaussian_learner)),
        Scenario("power/design/laplace_learner", "power", "designs.design_online_audit",
                 "DesignLearner(D): exact pure ε = D", "ε = 1, δ = 0", True,
                 f"{DESIGN_RUNS} runs per sequence", POWER,
                 _mechanism_power(_design(DesignLearner(), DESIGN_CLAIM),
                                  lambda d: (_design(DesignLearner(d), DESIGN_CLAIM),
                                             repr(DesignLearner(d))))),
        Scenario("power/design/gaussian_learner", "power", "designs.design_online_audit",
                 "GaussianDesignLearner(μ'), ε(δ; μ') = D", design_gauss, True,
                 f"{DESIGN_RUNS} runs per sequence", POWER,
                 _mechanism_power(_design(GaussianDesignLearner(DESIGN_MU), DESIGN_GAUSS_CLAIM),
                                  lambda d: (_design(GaussianDesignLearner(
                                      gaussian_mu_for(d, GAUSSIAN_DELTA)), DESIGN_GAUSS_CLAIM),
                                      repr(GaussianDesignLearner(
                                          gaussian_mu_for(d, GAUSSIAN_DELTA)))))),
        Scenario("pass_factor/design/laplace_learner", "power", "designs.design_online_audit",
                 repr(design_lap), "ε = 1, δ = 0", True, f"{DESIGN_RUNS} runs per sequence",
                 POWER, _at_pass_factor(_design(design_lap, DESIGN_CLAIM), PASS_TARGET,
                                        repr(design_lap))),
        Scenario("pass_factor/design/gaussian_learner", "power", "designs.design_online_audit",
                 repr(design_gauss_leak), design_gauss, True, f"{DESIGN_RUNS} runs per sequence",
                 POWER, _at_pass_factor(_design(design_gauss_leak, DESIGN_GAUSS_CLAIM),
                                        PASS_TARGET * DESIGN_GAUSS_CLAIM.epsilon,
                                        repr(design_gauss_leak))),
        Scenario("stream/private_policy", "false_alarm", "stream.stream_audit",
                 f"Algorithm 1, Gaussian tree, n = {STREAM_N}, t = 1",
                 "(ε, δ) = (1, 0.1): an upper bound, not tight", False,
                 f"{STREAM_RUNS} runs per stream", ALPHA, _constant(_stream)),
        *_black_box_power_pair("laplace", lap, LAPLACE_CLAIM, "ε = 1, δ = 0",
                               "Laplace(1/D)", lambda d: LaplaceMechanism(1.0 / d)),
        *_black_box_power_pair("randomized_response", rr, RR_CLAIM, "ε = 1, δ = 0",
                               "RandomizedResponse(D)", RandomizedResponse),
        *_black_box_power_pair("gaussian_delta", gauss, GAUSS_CLAIM, gauss_claim,
                               "N(0, 1/μ'²), ε(δ; μ') = D",
                               lambda d: GaussianMechanism(
                                   1.0 / gaussian_mu_for(d, GAUSSIAN_DELTA))),
        Scenario("power/white_box/laplace", "power", _WB_T, "Laplace with δ(1) = d",
                 "ε = 1, δ = 0", True, _WB, POWER,
                 _white_box_power(lap, WB_LAPLACE_CLAIM, _laplace_leaking_delta)),
        Scenario("power/white_box/gaussian", "power", _WB_T, "N(0, 1/μ'²) with δ(ε; μ') = d",
                 gauss_claim, True, _WB, POWER,
                 _white_box_power(gauss, WB_GAUSS_CLAIM, _gaussian_leaking_delta)),
        Scenario("power/white_box/gaussian/epsilon", "power", _WB_T,
                 "N(0, 1/μ'²) with ε(δ_claim; μ') = X", gauss_claim, True, _WB, POWER,
                 _white_box_epsilon_power(gauss, WB_GAUSS_CLAIM)),
        Scenario("power/white_box/gaussian/epsilon_small_delta", "power", _WB_T,
                 "N(0, 1/μ'²) with ε(δ_claim; μ') = X", "(1, 1e-5) on μ = 0.445 (built for "
                 "(1, 0.1))", True, _WB, POWER,
                 _white_box_epsilon_power(GaussianMechanism(1.0 / CLASSICAL_MU),
                                          CLASSICAL_SMALL_DELTA)),
        Scenario("power/white_box/gaussian/epsilon_large_delta", "power", _WB_T,
                 "N(0, 1/μ'²) with ε(δ_claim; μ') = X", "(1, 0.5) on μ = 0.445", True, _WB, POWER,
                 _white_box_epsilon_power(GaussianMechanism(1.0 / CLASSICAL_MU),
                                          CLASSICAL_LARGE_DELTA)),
        Scenario("power/billboard/correct_tree", "power", "billboard.billboard_audit",
                 "correct tree with node σ = μ/μ', ε(δ*; μ') = D", bill_claim, True, _BILL,
                 POWER, _mechanism_power(_billboard(TreeAggregator), _billboard_leaking)),
        Scenario("power/billboard/correct_tree/event", "power",
                 "billboard.billboard_audit (evaluation)", "the audited event at P = e^D q + δ*",
                 bill_claim, True, _BILL, POWER, _event_power(_billboard(TreeAggregator)),
                 statement_key="power/billboard/correct_tree"),
        Scenario("pass_factor/black_box/laplace", "power", _BB_T, repr(lap_twice),
                 "ε = 1, δ = 0", True, _BB, POWER,
                 _at_pass_factor(_black_box(lap_twice, LAPLACE_CLAIM), 1.0 / lap_twice.scale,
                                 repr(lap_twice))),
        Scenario("pass_factor/black_box/gaussian_delta", "power", _BB_T, repr(gauss_twice),
                 gauss_claim, True, _BB, POWER,
                 _at_pass_factor(_black_box(gauss_twice, GAUSS_CLAIM), twice_gauss,
                                 repr(gauss_twice))),
        Scenario("pass_factor/billboard/correct_tree", "power", "billboard.billboard_audit",
                 f"correct tree with node σ = {bill_sigma:.6g}", bill_claim, True, _BILL,
                 POWER, _at_pass_factor(_billboard(_noisier_tree(bill_sigma)), twice_bill,
                                        f"correct tree, node σ = {bill_sigma:.6g}")),
    ]  # fmt: skip
    fresh = [
        replace(s, name=f"{s.name}/fresh", samples=f"{s.samples}; statement per repeat",
                build=_fresh(s.build, s.mechanism), statement_key="")
        for s in items
        if s.name.startswith("power/")
    ]  # fmt: skip
    return {s.name: s for s in [*items, *fresh]}


SCENARIOS: dict[str, Scenario] = _registry()
"""Every calibration scenario by name, false-alarm scenarios first."""
