"""Privacy and accuracy audits of the Agarwal & Singh reference (issue 10, audit part).

Source: Agarwal & Singh, "The Price of Differential Privacy for Online Learning" (ICML 2017), seed
``/work/shared/seeds/004_a21566fafc49b886.txt``; spec ``/work/shared/specs/004_private_online_learning.md``
§5.2-§5.4 (audit plan); reference ``reference/agarwal_singh/``; proof note
``proofs_notes/audit/agarwal_singh.md``.

Neighbours are those of Definition 2.1 (l. 82): *replace-one* at the same time index, here the
worst case ``t₀ = 1`` (leaf 1 lies in the most used tree nodes, ``nodes_per_leaf``) with the two
losses at maximal ℓ₁ (ℓ₂) distance.  Every mechanism is audited against two claims:

* ``printed`` -- the paper's claim: pure ``ε``-DP (Lemma 3.3 l. 162-168, Thm 3.1 l. 97-108,
  Lemma 4.2 l. 279-281) or ``(ε, δ)`` (Thm A.1 l. 402-414 / Thm 3.5 l. 233-239, [A13]);
* ``exact`` -- the guarantee the *correct* (strict) mechanism actually has at ``δ* = 10⁻³``:
  the ``h``-fold composition of Laplace mechanisms (privacy-loss distribution of
  ``dp_accounting``, pessimistic, so an upper bound on the exact ε) or the exact Gaussian-DP curve
  (:func:`audit.methods.white_box.gaussian_epsilon` of the Mahalanobis sensitivity of the padded tree).

A bug counts as caught when the exact claim is rejected; both verdicts are reported.

Audits (all reuse :mod:`audit.methods.white_box` / :mod:`audit.methods.black_box`; nothing is re-implemented):

* **Tree, node view, white box** (Laplace): the used nodes containing leaf 1 are ``h`` independent
  Laplace mechanisms, so the exact privacy loss is the sum over those nodes of
  ``(|v_j − μ'_j| − |v_j − μ_j|)/λ`` (:class:`audit.mechanisms.LaplaceMechanism` on the
  ``h``-vector of node values).  The released prefix sums (a linear image of the node noises plus
  independent padding) and the actions are post-processing of this view, and for the prefix-sum
  view the bound is attained in the tails (spec §5.2.3), so its exact pure ε is ``h·Δ₁/λ``.
* **Tree, released prefix sums, black box**: ``L̃_0..L̃_T`` of the reference
  :class:`~reference.agarwal_singh.aggregation.TreeBasedAggregation` (density of a padded sum of
  Laplaces not in closed form).  Catches noise reused across releases, which the node view
  cannot see.
* **Private FTRL on the simplex, actions, black box**: Algorithm 1 with negative entropy, ``N = 2``
  experts, ``Y = [−1, 1]²`` (``‖Y‖₁ = 2``, ``Δ₁ = 4``).
* **Bandit reduction (Algorithm 4), actions, black box**: a canary inner learner (any inner learner
  is allowed by Lemma 4.2) that publishes one bit of the forwarded scalar of round ``t₀`` and one
  bit of the difference of the scalars of rounds ``t₀`` and ``t₀ + 1``, MAB losses in ``[−1, 1]``
  (``B = 1``, ``Δ_B = 2``).
* **Bandit reduction around the real learner, actions, black box**: Algorithm 4 wrapping EXP2
  with uniform exploration (Algorithm 5) at an aggressive ``(η, γ)``, same losses and ``Δ_B``;
  the canary's exact claim holds for it (the arms are post-processing of the privatised
  feedback, :func:`exp2_reduction_cases`).
* **Gaussian tree (Thm A.1 / Thm 3.5, FTPL's input), releases, white box**: ``L̃_0..L̃_T`` are
  jointly Gaussian; the exact privacy loss is computed from the density of the release vector.
* **Private FTPL (Algorithm 3, Thm 3.5), actions, black box**: ``X = [−1, 1]`` (``N = 1``), so
  ``x_t = −sign(L̃_{t−1})``; the exact claim is the exact GDP curve of ``L̃_1..L̃_{T−1}`` (the
  reference accountant :func:`~reference.agarwal_singh.theorems.gaussian_output_level_sensitivity`,
  actions view), of which the actions are post-processing.

Broken variants: noise reused across releases (the one-shot twin of Thm 3.4's proof; for FTPL
:class:`OneShotFTPL`; for the reduction :class:`ReusedNoiseReduction`), wrong node count (``log T`` or the actions-view ``h`` for the prefix-sum
view), noise too small.

Family-wise control: Holm (:func:`statsmodels.stats.multitest.multipletests`) over every
privacy test of :func:`run_agarwal_singh_battery`; each test runs at confidence ``1 − α``.

Accuracy: the maximal release error ``max_t ‖Z_t‖_∞`` against the high-probability bound of
Lemma 3.3 (:func:`~reference.agarwal_singh.aggregation.lemma33_uniform_error_bound`), as a
binomial count of failing runs (:class:`audit.methods.binomial.RunAuditResult`), and the number of noise
draws in every release (``K`` by Lemma 3.3 "Distribution").
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, runtime_checkable

import numpy as np
from statsmodels.stats.multitest import multipletests

from audit.cases import Tagged
from audit.mechanisms import LaplaceMechanism
from audit.methods.binomial import RunAuditResult
from audit.methods.black_box import event_audit_from_samples
from audit.methods.white_box import (
    density_privacy_losses,
    gaussian_delta,
    gaussian_epsilon,
    laplace_epsilon,
    privacy_loss_audit,
)
from audit.protocols import PrivacyClaim
from audit.results import PrivacyAuditResult
from audit.stats import clopper_pearson
from reference._typing import FloatArray
from reference.accounting import laplace_tree_epsilon
from reference.agarwal_singh.aggregation import (
    PaddedRelease,
    TreeBasedAggregation,
    laplace_scale_tree_paper,
    laplace_scale_tree_strict,
    lemma33_uniform_error_bound,
    log_T,
    nodes_per_leaf,
    noise_draws_per_release,
    padding_count,
)
from reference.agarwal_singh.bandits import (
    BanditLearner,
    EXP2Exploration,
    PrivateBanditReduction,
)
from reference.agarwal_singh.full_info import (
    OneShotFTRL,
    PrivateFTPL,
    PrivateFTRL,
    run_full_info,
)
from reference.agarwal_singh.sets import Cube, DecisionSet, NegativeEntropySimplex
from reference.agarwal_singh.theorems import (
    gaussian_output_level_sensitivity,
    lemma42_laplace_scale,
    thm35_sigma,
    thm35_sigma_strict,
)
from reference.noise import GaussianVectorNoise, LaplaceNoise, NodeNoise
from reference.rng import SeedLike, as_generator, as_seed_sequence, child_seeds
from reference.tree import TreeAggregator, dyadic_decomposition
from reference.validation import (
    check_array,
    check_bool,
    check_callable,
    check_choice,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_positive,
)

__all__ = [
    "DELTA_STAR",
    "AgarwalSinghAuditConfig",
    "AgarwalSinghCase",
    "AgarwalSinghReport",
    "CanaryLearner",
    "GaussianReleaseView",
    "OneShotFTPL",
    "PowerRow",
    "ReleaseSource",
    "ReusedNoiseReduction",
    "ReusedNoiseTree",
    "accuracy_cases",
    "composed_laplace_epsilon",
    "exp2_reduction_arms",
    "exp2_reduction_cases",
    "ftpl_action_cases",
    "ftrl_action_cases",
    "gaussian_release_cases",
    "node_count_audit",
    "privacy_cases",
    "reduction_canary_cases",
    "run_agarwal_singh_battery",
    "run_agarwal_singh_power",
    "tagged_results",
    "tree_error_audit",
    "tree_node_view_cases",
    "tree_release_cases",
    "tree_release_samples",
]

DELTA_STAR = 1e-3
"""The δ at which the exact guarantee of each correct mechanism is audited."""

Role: TypeAlias = Literal["correct", "paper", "broken"]
"""``correct``: strict calibration; ``paper``: the paper's printed calibration (expected to fail its
claim where the notes say so); ``broken``: a deliberately wrong implementation."""

Sampler = Callable[[np.random.Generator, int], FloatArray]
Features = Callable[[FloatArray], FloatArray]
TreeFactory = Callable[[int, NodeNoise, np.random.Generator], "ReleaseSource"]


@dataclass(frozen=True)
class AgarwalSinghAuditConfig:
    """Setting and budget of the battery (defaults: about 30 s on one core).

    ``T = 8``: ``K = ⌈log₂ 8⌉ = 3`` noise draws per release, ``h = 4`` used nodes contain leaf 1 in
    the prefix-sum view ``L̃_1..L̃_8`` and ``h = 3`` in the actions view ``L̃_0..L̃_7``.
    ``gaussian_Y_radius``: ``Y = [−r, r]`` for the Gaussian tree; the paper's Thm 3.5 σ uses ``√N``
    where Thm A.1 needs ``‖Y‖₂`` ([A14]), so ``r = 4 > √N = 1`` makes the paper preset fail.
    ``exp2_eta``, ``exp2_gamma``: the (η, γ) of the EXP2 learner inside Algorithm 4
    (:func:`exp2_reduction_cases`); ``exp2_samples``: runs per side of those cases.
    """

    epsilon: float = 1.0
    T: int = 8
    gaussian_delta: float = 1e-5
    gaussian_Y_radius: float = 1.0
    eta: float = 0.05
    white_box_samples: int = 50_000
    black_box_samples: int = 200_000
    bandit_samples: int = 20_000
    exp2_samples: int = 6_000
    exp2_eta: float = 20.0
    exp2_gamma: float = 0.01
    accuracy_runs: int = 4000
    accuracy_beta: float = 0.2
    confidence: float = 0.95
    family_alpha: float = 0.05
    seed: int = 2026

    def __post_init__(self) -> None:
        check_positive("epsilon", self.epsilon)
        check_int_at_least("T", self.T, 4)
        check_in_range("gaussian_delta", self.gaussian_delta, 0.0, 1.0)
        check_positive("gaussian_Y_radius", self.gaussian_Y_radius)
        check_positive("eta", self.eta)
        check_int_at_least("white_box_samples", self.white_box_samples, 100)
        check_int_at_least("black_box_samples", self.black_box_samples, 100)
        check_int_at_least("bandit_samples", self.bandit_samples, 100)
        check_int_at_least("exp2_samples", self.exp2_samples, 100)
        check_positive("exp2_eta", self.exp2_eta)
        check_in_range("exp2_gamma", self.exp2_gamma, 0.0, 1.0, high_open=False)
        check_int_at_least("accuracy_runs", self.accuracy_runs, 10)
        check_in_range("accuracy_beta", self.accuracy_beta, 0.0, 1.0)
        check_in_range("confidence", self.confidence, 0.0, 1.0)
        check_in_range("family_alpha", self.family_alpha, 0.0, 1.0)


# --------------------------------------------------------------------------------------------
# Exact guarantees of the correct mechanisms
# --------------------------------------------------------------------------------------------


def composed_laplace_epsilon(epsilon_0: float, nodes: int, delta: float = DELTA_STAR) -> float:
    """``ε(δ)`` of ``nodes`` independent Laplace mechanisms, each ``ε₀ = Δ/λ``-DP.

    ``nodes = 1``: the closed form :func:`audit.methods.white_box.laplace_epsilon`.  Otherwise the composed
    privacy-loss distribution (:func:`reference.accounting.laplace_tree_epsilon`: ``dp_accounting``,
    pessimistic discretisation, interval ``10⁻⁴``), which upper-bounds the exact ``δ(ε)`` -- so the
    returned ε is at least the exact one and a claim built from it holds for the correct
    mechanism.  ``δ = 0`` gives ``nodes·ε₀``.
    """
    eps0 = check_positive("epsilon_0", epsilon_0)
    nodes = check_int_at_least("nodes", nodes, 1)
    delta = check_in_range("delta", delta, 0.0, 1.0, low_open=False)
    if nodes == 1 and delta > 0.0:
        return laplace_epsilon(eps0, delta)
    return laplace_tree_epsilon(delta, epsilon_0=eps0, nodes=nodes)


def _pure(epsilon: float, label: str) -> PrivacyClaim:
    return PrivacyClaim(epsilon, 0.0, "replace_one", label)


def _exact_laplace_claim(epsilon: float, nodes: int) -> PrivacyClaim:
    """The correct strict mechanism: ``nodes`` Laplace nodes each ``ε/nodes``-DP."""
    eps_star = composed_laplace_epsilon(epsilon / nodes, nodes, DELTA_STAR)
    return PrivacyClaim(eps_star, DELTA_STAR, "replace_one", f"exact at δ={DELTA_STAR:g}")


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgarwalSinghCase:
    """One mechanism (correct, paper-calibrated or broken), how to sample it, and its two claims.

    Attributes:
        method: ``"white_box"`` (``draw_*`` return privacy-loss samples under ``x`` and ``x'``)
            or ``"black_box"`` (``draw_*`` return outputs; ``features`` maps them to scores).
        case_epsilon: the case's own exact pure ε (``inf`` for reused noise or Gaussian noise).
        expected_printed_violation, expected_exact_violation: whether the case's exact privacy
            curve violates each claim (so a perfect audit would reject it).
    """

    name: str
    description: str
    role: Role
    method: Literal["white_box", "black_box"]
    draw_p: Sampler
    draw_q: Sampler
    printed: PrivacyClaim
    exact: PrivacyClaim
    case_epsilon: float
    expected_printed_violation: bool
    expected_exact_violation: bool
    features: Features | None = None

    @property
    def broken(self) -> bool:
        return self.role == "broken"

    def expected_violation(self, claim: PrivacyClaim) -> bool:
        """What the exact accountant predicts for ``claim`` (the printed or the exact one)."""
        if claim == self.printed:
            return self.expected_printed_violation
        if claim == self.exact:
            return self.expected_exact_violation
        raise ValueError(f"claim must be the case's printed or exact claim, got {claim}")

    def audit_claims(
        self,
        claims: Sequence[PrivacyClaim],
        *,
        samples: int,
        seed: int,
        confidence: float,
    ) -> list[PrivacyAuditResult]:
        """Draw once under each input (independent streams spawned from ``seed``) and test each
        claim (:func:`audit.methods.white_box.privacy_loss_audit` or
        :func:`audit.methods.black_box.event_audit_from_samples`)."""
        t0 = time.perf_counter()
        rng_p, rng_q = (np.random.default_rng(s) for s in as_seed_sequence(seed).spawn(2))
        a, b = self.draw_p(rng_p, samples), self.draw_q(rng_q, samples)
        out: list[PrivacyAuditResult] = []
        for claim in claims:
            name = f"{self.name} vs {claim.label}"
            if self.method == "white_box":
                result = privacy_loss_audit(
                    a,
                    b,
                    claim,
                    name=name,
                    mechanism=self.description,
                    confidence=confidence,
                    epsilons=np.array([claim.epsilon]),
                    seed=seed,
                    started=t0,
                )
            else:
                result = event_audit_from_samples(
                    a,
                    b,
                    claim,
                    name=name,
                    mechanism=self.description,
                    features=self.features,
                    confidence=confidence,
                    seed=seed,
                    started=t0,
                )
            details = dict(result.details)
            details.update(role=self.role, case_epsilon=self.case_epsilon)
            out.append(dataclasses.replace(result, details=details))
        return out


# --------------------------------------------------------------------------------------------
# The tree: node view (white box) and released prefix sums (black box)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _LaplaceTreeVariant:
    name: str
    description: str
    role: Role
    scale: float
    reuse: bool = False


def _tree_variants(config: AgarwalSinghAuditConfig) -> list[_LaplaceTreeVariant]:
    """``N = 1``, ``Y = [−1, 1]`` (radius ``‖Y‖₁ = 1``, diameter ``Δ₁ = 2``), prefix-sum view."""
    eps, T = config.epsilon, config.T
    strict = laplace_scale_tree_strict(eps, T, 2.0, "prefix_sums")
    actions_h = laplace_scale_tree_strict(eps, T, 2.0, "actions")
    return [
        _LaplaceTreeVariant("tree_strict", f"λ = Δ₁h/ε = {strict:.4g}", "correct", strict),
        _LaplaceTreeVariant(
            "tree_paper_ln",
            f"paper λ = ‖Y‖₁ ln T/ε = {laplace_scale_tree_paper(eps, T, 1.0, 'e'):.4g}",
            "paper",
            laplace_scale_tree_paper(eps, T, 1.0, "e"),
        ),
        _LaplaceTreeVariant(
            "tree_paper_log2",
            f"paper λ = ‖Y‖₁ log₂ T/ε = {laplace_scale_tree_paper(eps, T, 1.0, '2'):.4g}",
            "paper",
            laplace_scale_tree_paper(eps, T, 1.0, "2"),
        ),
        _LaplaceTreeVariant(
            "tree_nodes_lnT",
            "wrong node count: λ = Δ₁ ln T/ε (real log T instead of the node count h)",
            "broken",
            2.0 * log_T(T, "e") / eps,
        ),
        _LaplaceTreeVariant(
            "tree_nodes_actions_h",
            "wrong node count: h of the actions view (⌈log₂ T⌉) used for the prefix-sum view",
            "broken",
            actions_h,
        ),
        _LaplaceTreeVariant("tree_noise_x0.5", "noise too small: λ/2", "broken", strict / 2.0),
        _LaplaceTreeVariant(
            "tree_noise_reused",
            "noise reused across releases: one Z ~ D' for every L̃_t (Thm 3.4's one-shot twin)",
            "broken",
            strict,
            reuse=True,
        ),
    ]


def _config(config: object) -> AgarwalSinghAuditConfig:
    return check_instance("config", config, AgarwalSinghAuditConfig)


def _config_or_default(config: AgarwalSinghAuditConfig | None) -> AgarwalSinghAuditConfig:
    return AgarwalSinghAuditConfig() if config is None else _config(config)


def tree_node_view_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """White-box node view of the Laplace tree (module docstring); ``x = +1``, ``x' = −1`` in
    leaf 1, so each of the ``h`` used nodes containing it moves by ``Δ₁ = 2``.

    The reused-noise variant has no node-level density (its releases are singular), so it is
    audited only in the black-box release view."""
    _config(config)
    h = nodes_per_leaf(config.T, "prefix_sums")
    x, x_prime = np.ones(h), -np.ones(h)
    printed = _pure(config.epsilon, "printed pure ε")
    exact = _exact_laplace_claim(config.epsilon, h)
    cases = []
    for v in _tree_variants(config):
        if v.reuse:
            continue
        mechanism = LaplaceMechanism(v.scale)

        def draw_p(
            rng: np.random.Generator, size: int, m: LaplaceMechanism = mechanism
        ) -> FloatArray:
            return density_privacy_losses(m, x, x_prime, rng, size)

        def draw_q(
            rng: np.random.Generator, size: int, m: LaplaceMechanism = mechanism
        ) -> FloatArray:
            return density_privacy_losses(m, x_prime, x, rng, size)

        cases.append(
            AgarwalSinghCase(
                name=f"{v.name}_node_view",
                description=f"Laplace tree, node view of leaf 1 (h = {h} nodes), {v.description}",
                role=v.role,
                method="white_box",
                draw_p=draw_p,
                draw_q=draw_q,
                printed=printed,
                exact=exact,
                case_epsilon=h * 2.0 / v.scale,
                expected_printed_violation=h * 2.0 / v.scale > config.epsilon + 1e-12,
                expected_exact_violation=v.role != "correct",
            )
        )
    return cases


@runtime_checkable
class ReleaseSource(Protocol):
    """What the release-view samplers need from a tree: ``release()`` and ``step(loss)``."""

    def release(self) -> PaddedRelease:
        """``L̃_t`` for the current ``t``."""
        ...

    def step(self, loss: FloatArray) -> PaddedRelease:
        """Aggregate the next loss and return the new release."""
        ...


class ReusedNoiseTree:
    """Broken Algorithm 2: one ``Z ~ D'`` (sum of ``K`` node draws) drawn once and added to every
    release, ``L̃_t = Σ_{s≤t} l_s + Z``.

    Every marginal is exactly right (Lemma 3.3 "Distribution" holds, and so does eq. (1)), which
    is why Thm 3.4's proof may use it; but ``L̃_t − L̃_{t−1} = l_t`` is released exactly, so it is
    not DP for any ε (``ε = ∞``)."""

    def __init__(self, T: int, noise: NodeNoise, rng: np.random.Generator | SeedLike) -> None:
        rng = as_generator(rng)
        self.T = check_int_at_least("T", T, 1)
        check_instance("noise", noise, NodeNoise)
        self.K = noise_draws_per_release(self.T)
        self._Z = noise.sample_sum(rng, self.K)
        self._prefix = np.zeros(noise.shape)
        self._t = 0

    def release(self) -> PaddedRelease:
        return PaddedRelease(
            t=self._t, value=self._prefix + self._Z, noise=self._Z, nodes=(), pad_terms=self.K
        )

    def step(self, loss: FloatArray) -> PaddedRelease:
        self._prefix = self._prefix + np.asarray(loss, dtype=np.float64)
        self._t += 1
        return self.release()


def _reference_tree(T: int, noise: NodeNoise, rng: np.random.Generator) -> ReleaseSource:
    return TreeBasedAggregation(T, noise, rng)


def _reused_tree(T: int, noise: NodeNoise, rng: np.random.Generator) -> ReleaseSource:
    return ReusedNoiseTree(T, noise, rng)


def tree_release_samples(
    losses: FloatArray,
    noise_of_size: Callable[[int], NodeNoise],
    rng: np.random.Generator | SeedLike,
    size: int,
    *,
    factory: TreeFactory = _reference_tree,
) -> FloatArray:
    """``size`` independent runs of a tree on the scalar stream ``losses`` (shape ``(T,)``):
    releases ``L̃_0..L̃_T``, shape ``(size, T + 1)``.

    The runs are the replicate axis of one tree over items of shape ``(size,)`` (i.i.d. node
    noise per entry, so ``size`` independent scalar trees)."""
    rng = as_generator(rng)
    losses = check_nonempty("losses", check_array("losses", losses, ndim=1), what="round")
    check_callable("noise_of_size", noise_of_size)
    size = check_int_at_least("size", size, 1)
    check_callable("factory", factory)
    T = losses.shape[0]
    tree = factory(T, noise_of_size(size), rng)
    out = np.empty((size, T + 1))
    out[:, 0] = tree.release().value
    for t in range(T):
        out[:, t + 1] = tree.step(np.full(size, losses[t])).value
    return out


def _leaf_one_pair(T: int, value: float) -> tuple[FloatArray, FloatArray]:
    x = np.zeros(T)
    x_prime = np.zeros(T)
    x[0], x_prime[0] = value, -value
    return x, x_prime


def tree_release_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box release view ``L̃_0..L̃_T`` of the reference Laplace tree (``l_1 = ±1``)."""
    _config(config)
    x, x_prime = _leaf_one_pair(config.T, 1.0)
    h = nodes_per_leaf(config.T, "prefix_sums")
    printed = _pure(config.epsilon, "printed pure ε")
    exact = _exact_laplace_claim(config.epsilon, h)
    cases = []
    for v in _tree_variants(config):
        factory = _reused_tree if v.reuse else _reference_tree

        def noise_of_size(size: int, scale: float = v.scale) -> NodeNoise:
            return LaplaceNoise((size,), scale)

        def draw_p(
            rng: np.random.Generator,
            size: int,
            f: TreeFactory = factory,
            n: Callable[[int], NodeNoise] = noise_of_size,
        ) -> FloatArray:
            return tree_release_samples(x, n, rng, size, factory=f)

        def draw_q(
            rng: np.random.Generator,
            size: int,
            f: TreeFactory = factory,
            n: Callable[[int], NodeNoise] = noise_of_size,
        ) -> FloatArray:
            return tree_release_samples(x_prime, n, rng, size, factory=f)

        cases.append(
            AgarwalSinghCase(
                name=f"{v.name}_releases",
                description=f"Laplace tree (Alg. 2), releases L̃_0..L̃_T, {v.description}",
                role=v.role,
                method="black_box",
                draw_p=draw_p,
                draw_q=draw_q,
                printed=printed,
                exact=exact,
                case_epsilon=math.inf if v.reuse else h * 2.0 / v.scale,
                expected_printed_violation=v.reuse or h * 2.0 / v.scale > config.epsilon + 1e-12,
                expected_exact_violation=v.role != "correct",
            )
        )
    return cases


# --------------------------------------------------------------------------------------------
# Private FTRL on the simplex (Algorithm 1): the action sequence
# --------------------------------------------------------------------------------------------


def _ftrl_logits(actions: FloatArray) -> FloatArray:
    """``ln x_t(1) − ln x_t(2) = η(θ₂ − θ₁)`` for every round: an invertible image of the actions
    of exponential weights with two experts (post-processing, so no loss of information)."""
    a = np.asarray(actions, dtype=np.float64)
    return np.asarray(np.log(a[..., 0]) - np.log(a[..., 1]), dtype=np.float64)


def ftrl_action_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of private FTRL with negative entropy on ``Δ₂`` (Cor. 3.2 experts).

    ``Y = [−1, 1]²``: radius ``‖Y‖₁ = 2``, diameter ``Δ₁ = 4``; neighbours ``l_1 = (1, −1)`` vs
    ``(−1, 1)``, every other loss 0.  The actions use ``L̃_0..L̃_{T−1}``: ``h = ⌈log₂ T⌉`` nodes.
    Strict ``λ = 4h/ε``, paper ``λ = 2 ln T/ε``; reused noise = :class:`OneShotFTRL`.
    The exact pure ε of every case is ``4h/λ`` (node view; the action view attains it in the
    tails, since each node's noise difference ``n₂ − n₁`` has log-density slope ``→ 1/λ``)."""
    _config(config)
    eps, T, eta = config.epsilon, config.T, config.eta
    h = nodes_per_leaf(T, "actions")
    strict = laplace_scale_tree_strict(eps, T, 4.0, "actions")
    paper = laplace_scale_tree_paper(eps, T, 2.0, "e")
    losses = np.zeros((T, 2))
    losses[0] = (1.0, -1.0)
    losses_prime = -losses
    regularizer = NegativeEntropySimplex(2)
    variants: list[tuple[str, str, Role, float, bool]] = [
        ("ftrl_strict", f"λ = Δ₁h/ε = {strict:.4g}", "correct", strict, False),
        ("ftrl_paper_ln", f"paper λ = ‖Y‖₁ ln T/ε = {paper:.4g}", "paper", paper, False),
        ("ftrl_noise_reused", "one-shot twin (noise drawn once, Thm 3.4)", "broken", strict, True),
    ]
    printed = _pure(eps, "printed pure ε")
    exact = _exact_laplace_claim(eps, h)
    cases = []
    for name, description, role, scale, reuse in variants:

        def draw(
            rng: np.random.Generator,
            size: int,
            data: FloatArray,
            scale: float = scale,
            reuse: bool = reuse,
        ) -> FloatArray:
            noise = LaplaceNoise((size, 2), scale)
            learner: PrivateFTRL | OneShotFTRL = (
                OneShotFTRL(regularizer, eta, noise, T, rng)
                if reuse
                else PrivateFTRL(regularizer, eta, noise, T, rng)
            )
            actions = run_full_info(learner, data).actions  # (T, size, 2)
            return np.asarray(np.moveaxis(actions, 0, 1), dtype=np.float64)

        def draw_p(
            rng: np.random.Generator, size: int, d: Callable[..., FloatArray] = draw
        ) -> FloatArray:
            return d(rng, size, losses)

        def draw_q(
            rng: np.random.Generator, size: int, d: Callable[..., FloatArray] = draw
        ) -> FloatArray:
            return d(rng, size, losses_prime)

        cases.append(
            AgarwalSinghCase(
                name=name,
                description=f"private FTRL (Alg. 1), experts N = 2, η = {eta:g}, actions, {description}",
                role=role,
                method="black_box",
                draw_p=draw_p,
                draw_q=draw_q,
                printed=printed,
                exact=exact,
                case_epsilon=math.inf if reuse else h * 4.0 / scale,
                expected_printed_violation=reuse or h * 4.0 / scale > eps + 1e-12,
                expected_exact_violation=role != "correct",
                features=_ftrl_logits,
            )
        )
    return cases


# --------------------------------------------------------------------------------------------
# The bandit reduction (Algorithm 4) with a canary inner learner
# --------------------------------------------------------------------------------------------


class CanaryLearner:
    """A (non-private) inner bandit learner that writes its feedback into its later actions.

    Lemma 4.2 holds for *every* inner learner, so the reduction around this one must be
    ``Δ_B/λ``-DP.  Rounds ``1..t₀+1``: arm 0.  Round ``t₀ + 2``: arm 0 iff ``y_{t₀} > c``.
    Round ``t₀ + 3``: arm 0 iff ``y_{t₀} > y_{t₀+1}``.  Then arm 0.  With ``l_{t₀}(0) = ±1`` and
    ``c = 1`` the first bit has ``P = 1/2`` vs ``e^{−2/λ}/2`` (ratio exactly ``e^{Δ_B/λ}``); the
    second bit is deterministic when the reduction reuses its noise (``y_{t₀} − y_{t₀+1} = ±1``).
    """

    def __init__(self, N: int, t0: int, threshold: float) -> None:
        self.N = check_int_at_least("N", N, 2)
        self.t0 = check_int_at_least("t0", t0, 1)
        self.threshold = check_finite("threshold", threshold)
        self._round = 0
        self._feedback: dict[int, float] = {}

    @property
    def dim(self) -> int:
        return self.N

    def act(self) -> FloatArray:
        self._round += 1
        arm = 0
        if self._round == self.t0 + 2:
            arm = 0 if self._feedback[self.t0] > self.threshold else 1
        elif self._round == self.t0 + 3:
            arm = 0 if self._feedback[self.t0] > self._feedback[self.t0 + 1] else 1
        action = np.zeros(self.N)
        action[arm] = 1.0
        return action

    def update(self, feedback: float) -> None:
        self._feedback[self._round] = float(feedback)

    def sampling_distribution(self) -> FloatArray | None:
        return None


class ReusedNoiseReduction(PrivateBanditReduction):
    """Broken Algorithm 4: the first ``Z`` is reused in every round instead of a fresh draw."""

    def __init__(
        self, inner: BanditLearner, noise: LaplaceNoise, rng: np.random.Generator | SeedLike
    ) -> None:
        rng = as_generator(rng)
        super().__init__(inner, noise, rng)
        self._Z: FloatArray = noise.sample(rng)

    def update(self, feedback: float) -> None:
        if self._action is None:
            raise RuntimeError("update() needs a pending action: call act() first")
        forwarded = float(feedback) + float(self._Z @ self._action)
        self._action = None
        self.inner.update(forwarded)


def _reduction_arms(
    losses: FloatArray,
    scale: float,
    reuse: bool,
    inner: Callable[[int], BanditLearner],
    rng: np.random.Generator | SeedLike,
    size: int,
) -> FloatArray:
    """``size`` runs of Algorithm 4 (``Lap^N(scale)`` noise; ``reuse``: :class:`ReusedNoiseReduction`,
    one ``Z`` for every round) around a fresh ``inner(N)`` learner per run: the played arms,
    shape ``(size, T)``."""
    rng = as_generator(rng)
    losses = check_nonempty("losses", check_array("losses", losses, ndim=2), what="round")
    reuse = check_bool("reuse", reuse)
    size = check_int_at_least("size", size, 1)
    T, N = losses.shape
    out = np.empty((size, T))
    noise = LaplaceNoise((N,), scale)
    for r in range(size):
        learner = inner(N)
        reduction = (
            ReusedNoiseReduction(learner, noise, rng)
            if reuse
            else PrivateBanditReduction(learner, noise, rng)
        )
        for t in range(T):
            action = reduction.act()
            out[r, t] = float(np.argmax(action))
            reduction.update(float(losses[t] @ action))
    return out


def _canary_arms(
    losses: FloatArray, scale: float, reuse: bool, rng: np.random.Generator, size: int
) -> FloatArray:
    """``size`` runs of Algorithm 4 around :class:`CanaryLearner`: played arms, ``(size, T)``."""
    return _reduction_arms(losses, scale, reuse, lambda N: CanaryLearner(N, 1, 1.0), rng, size)


_ReductionArms = Callable[[FloatArray, float, bool, np.random.Generator, int], FloatArray]
"""``arms(losses, scale, reuse, rng, size)``: released arms of Algorithm 4 around some learner."""


def _reduction_cases(
    config: AgarwalSinghAuditConfig,
    losses: FloatArray,
    variants: list[tuple[str, str, Role, float, bool]],
    arms: _ReductionArms,
    learner_label: str,
) -> list[AgarwalSinghCase]:
    """Black-box cases of Algorithm 4 on the neighbours ``losses`` vs ``losses`` with ``l_1(0)``
    negated (MAB, losses in ``[−1, 1]``, ``Δ_B = 2``), one per ``(name, description, role, λ,
    reuse)``; claims: printed pure ``ε`` (Lemma 4.2) and the exact one Laplace mechanism with
    ``ε₀ = Δ_B/λ_strict = ε`` at ``δ*``."""
    eps = config.epsilon
    losses_prime = losses.copy()
    losses_prime[0, 0] = -losses[0, 0]
    printed = _pure(eps, "printed pure ε")
    exact = PrivacyClaim(
        laplace_epsilon(eps, DELTA_STAR), DELTA_STAR, "replace_one", f"exact at δ={DELTA_STAR:g}"
    )
    cases = []
    for name, description, role, scale, reuse in variants:

        def draw_p(
            rng: np.random.Generator, size: int, s: float = scale, r: bool = reuse
        ) -> FloatArray:
            return arms(losses, s, r, rng, size)

        def draw_q(
            rng: np.random.Generator, size: int, s: float = scale, r: bool = reuse
        ) -> FloatArray:
            return arms(losses_prime, s, r, rng, size)

        cases.append(
            AgarwalSinghCase(
                name=name,
                description=f"bandit reduction (Alg. 4) + {learner_label}, {description}",
                role=role,
                method="black_box",
                draw_p=draw_p,
                draw_q=draw_q,
                printed=printed,
                exact=exact,
                case_epsilon=math.inf if reuse else 2.0 / scale,
                expected_printed_violation=reuse or 2.0 / scale > eps + 1e-12,
                expected_exact_violation=role != "correct",
            )
        )
    return cases


def reduction_canary_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of Algorithm 4 around :class:`CanaryLearner`; MAB, ``N = 2``,
    losses in ``[−1, 1]`` (``B = ‖Y‖_∞ = 1``, ``Δ_B = 2``, [A19], [A20]); ``l_1(0) = ±1``.

    Strict ``λ = Δ_B/ε``; paper ``λ = B/ε`` (``ε_eff = 2ε``).  The exact guarantee of the correct
    reduction is one Laplace mechanism with ``ε₀ = Δ_B/λ = ε`` (Lemma 4.2)."""
    _config(config)
    eps = config.epsilon
    strict = lemma42_laplace_scale(eps, 1.0, 2.0, "strict")
    paper = lemma42_laplace_scale(eps, 1.0, 2.0, "paper")
    losses = np.zeros((4, 2))
    losses[0, 0] = 1.0
    variants: list[tuple[str, str, Role, float, bool]] = [
        ("reduction_strict", f"λ = Δ_B/ε = {strict:.4g}", "correct", strict, False),
        ("reduction_paper", f"paper λ = B/ε = {paper:.4g}", "paper", paper, False),
        ("reduction_noise_x0.5", "noise too small: λ/2", "broken", strict / 2.0, False),
        ("reduction_noise_reused", "Z drawn once and reused", "broken", strict, True),
    ]
    return _reduction_cases(config, losses, variants, _canary_arms, "canary, MAB [−1,1] losses")


# --------------------------------------------------------------------------------------------
# Gaussian tree (Thm A.1 / Thm 3.5): the release vector, white box
# --------------------------------------------------------------------------------------------


def _release_covariance(T: int) -> FloatArray:
    """Covariance (in units of the node variance) of ``Z_0..Z_T`` of the padded tree:
    ``|S_s ∩ S_t|`` off the diagonal (shared nodes; padding is fresh) and ``K`` on it."""
    K = noise_draws_per_release(T)
    sets = [set(dyadic_decomposition(t)) for t in range(T + 1)]
    cov = np.array([[len(a & b) for b in sets] for a in sets], dtype=np.float64)
    np.fill_diagonal(cov, [len(s) + padding_count(t, T) for t, s in enumerate(sets)])
    if not np.allclose(np.diag(cov), K):  # pragma: no cover - Lemma 3.3 "Distribution"
        raise RuntimeError("every release must carry exactly K draws")
    return cov


class GaussianReleaseView:
    """The releases ``L̃_0..L̃_T`` of the padded tree with ``N(0, σ²)`` nodes (``N = 1``), sampled
    by running the reference :class:`TreeBasedAggregation`; white box.

    Data is the scalar loss stream (shape ``(T,)``); the log-density is that of
    ``N(prefix(data), σ²C)`` with ``C`` from :func:`_release_covariance` (constants dropped), so the
    privacy loss of a shift ``d`` of the mean is ``N(μ²/2, μ²)`` with ``μ² = dᵀ(σ²C)⁻¹d``."""

    def __init__(self, T: int, sigma: float) -> None:
        self.T = check_int_at_least("T", T, 1)
        self.sigma = check_positive("sigma", sigma)
        self._precision = np.linalg.inv(self.sigma**2 * _release_covariance(self.T))

    @staticmethod
    def mean(data: FloatArray) -> FloatArray:
        return np.concatenate([[0.0], np.cumsum(np.asarray(data, dtype=np.float64))])

    def sample(self, data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
        return tree_release_samples(
            data, lambda n: GaussianVectorNoise((n,), self.sigma), rng, size
        )

    def log_density(self, data: FloatArray, outputs: FloatArray) -> FloatArray:
        z = np.asarray(outputs, dtype=np.float64) - self.mean(data)
        return np.asarray(-0.5 * np.einsum("si,ij,sj->s", z, self._precision, z))

    def mu(self, data: FloatArray, other: FloatArray) -> float:
        """``μ = ‖mean(data) − mean(other)‖`` in the precision metric (exact GDP parameter)."""
        d = self.mean(data) - self.mean(other)
        return math.sqrt(float(d @ self._precision @ d))

    def __repr__(self) -> str:
        return f"GaussianReleaseView(T={self.T}, sigma={self.sigma:.6g})"


def _gaussian_case(
    config: AgarwalSinghAuditConfig,
    *,
    name: str,
    description: str,
    role: Role,
    radius: float,
    sigma: float,
    reference_sigma: float,
) -> AgarwalSinghCase:
    """One white-box Gaussian release case on ``Y = [−r, r]``, ``l_1 = ±r``.  The exact claim is
    the exact GDP curve of the mechanism with ``reference_sigma`` at ``δ*``."""
    eps, delta, T = config.epsilon, config.gaussian_delta, config.T
    x, x_prime = _leaf_one_pair(T, radius)
    view = GaussianReleaseView(T, sigma)
    mu = view.mu(x, x_prime)
    mu_reference = GaussianReleaseView(T, reference_sigma).mu(x, x_prime)
    printed = PrivacyClaim(eps, delta, "replace_one", "printed (ε, δ)")
    exact = PrivacyClaim(
        gaussian_epsilon(mu_reference, DELTA_STAR),
        DELTA_STAR,
        "replace_one",
        f"exact at δ={DELTA_STAR:g}",
    )

    def draw_p(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(view, x, x_prime, rng, size)

    def draw_q(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(view, x_prime, x, rng, size)

    return AgarwalSinghCase(
        name=name,
        description=f"Gaussian tree (Thm A.1), releases L̃_0..L̃_T, Y = [−{radius:g}, {radius:g}], "
        f"{description}, μ = {mu:.4g}",
        role=role,
        method="white_box",
        draw_p=draw_p,
        draw_q=draw_q,
        printed=printed,
        exact=exact,
        case_epsilon=math.inf,
        expected_printed_violation=gaussian_delta(mu, eps) > delta,
        expected_exact_violation=gaussian_delta(mu, exact.epsilon) > DELTA_STAR * (1 + 1e-9),
    )


def gaussian_release_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """White-box release view of the Gaussian tree (the input of FTPL, Alg. 3), ``N = 1``.

    Claims: printed ``(ε, δ)`` (Thm 3.5, [A13]) and the exact ``(ε*(δ*), δ*)`` from the exact
    μ-GDP curve.  ``strict`` σ: the smallest σ whose *node-level* Gaussian mechanism meets
    ``(ε, δ)`` (:func:`~reference.agarwal_singh.theorems.thm35_sigma_strict`, prefix-sum view).
    Broken variants are audited against the strict version's exact claim; the paper presets
    (Thm 3.5 σ) against their own exact curve: on ``Y = [−r, r]`` with ``r`` =
    ``config.gaussian_Y_radius`` (default 1) the paper σ is conservative; on ``Y = [−4, 4]``
    (``‖Y‖₂ = 4 > √N``, [A14]) it fails its printed ``(ε, δ)``."""
    _config(config)
    eps, delta, T, r = config.epsilon, config.gaussian_delta, config.T, config.gaussian_Y_radius
    strict = thm35_sigma_strict(eps, delta, T, 1, r, 2.0 * r, view="prefix_sums")
    strict_actions_h = thm35_sigma_strict(eps, delta, T, 1, r, 2.0 * r, view="actions")
    paper = thm35_sigma(eps, delta, T, 1, r)
    big = 4.0
    paper_big = thm35_sigma(eps, delta, T, 1, big)
    return [
        _gaussian_case(
            config,
            name="gaussian_tree_strict",
            description=f"strict σ = {strict:.4g}",
            role="correct",
            radius=r,
            sigma=strict,
            reference_sigma=strict,
        ),
        _gaussian_case(
            config,
            name="gaussian_tree_paper",
            description=f"paper σ (Thm 3.5) = {paper:.4g}",
            role="paper",
            radius=r,
            sigma=paper,
            reference_sigma=paper,
        ),
        _gaussian_case(
            config,
            name="gaussian_tree_paper_Y4",
            description=f"paper σ (Thm 3.5, √N in place of ‖Y‖₂ = 4) = {paper_big:.4g}",
            role="paper",
            radius=big,
            sigma=paper_big,
            reference_sigma=paper_big,
        ),
        _gaussian_case(
            config,
            name="gaussian_tree_noise_x0.5",
            description="noise too small: σ/2",
            role="broken",
            radius=r,
            sigma=strict / 2.0,
            reference_sigma=strict,
        ),
        _gaussian_case(
            config,
            name="gaussian_tree_nodes_actions_h",
            description="wrong node count: σ for the actions view's h on the prefix-sum view",
            role="broken",
            radius=r,
            sigma=strict_actions_h,
            reference_sigma=strict,
        ),
    ]


# --------------------------------------------------------------------------------------------
# Private FTPL (Algorithm 3, Thm 3.5): the action sequence, black box
# --------------------------------------------------------------------------------------------


class OneShotFTPL:
    """Broken Algorithm 3: FTPL on :class:`ReusedNoiseTree` (one ``Z`` for every release).

    Every ``L̃_t`` has the right marginal ``N(Σ_{s≤t} l_s, Kσ²)``, but ``L̃_1 − L̃_0 = l_1``: with
    ``X = [−1, 1]`` the actions ``x_1 = −sign(Z)`` and ``x_2 = −sign(Z + l_1)`` differ only when
    ``Z`` lies between ``0`` and ``−l_1``, so that event has probability 0 under one input and
    about ``|l_1|/(σ√(2πK))`` under the other (``ε = ∞`` at every ``δ`` below it)."""

    def __init__(
        self,
        decision_set: DecisionSet,
        noise: NodeNoise,
        T: int,
        rng: np.random.Generator | SeedLike,
    ) -> None:
        rng = as_generator(rng)
        self._decision_set = check_instance("decision_set", decision_set, DecisionSet)
        self.aggregator = ReusedNoiseTree(T, noise, rng)

    @property
    def decision_set(self) -> DecisionSet:
        return self._decision_set

    def act(self) -> FloatArray:
        return self._decision_set.linear_argmin(self.aggregator.release().value)

    def observe(self, loss: FloatArray) -> None:
        self.aggregator.step(np.asarray(loss, dtype=np.float64))


def _ftpl_actions(
    losses: FloatArray, sigma: float, reuse: bool, rng: np.random.Generator, size: int
) -> FloatArray:
    """``size`` runs of Algorithm 3 on ``X = [−1, 1]`` (``N = 1``) with ``N(0, σ²)`` node noise
    (the replicate axis of one learner): actions ``x_1..x_T``, shape ``(size, T)``, entries ``±1``."""
    T = losses.shape[0]
    noise = GaussianVectorNoise((size, 1), sigma)
    learner: PrivateFTPL | OneShotFTPL = (
        OneShotFTPL(Cube(1), noise, T, rng) if reuse else PrivateFTPL(Cube(1), noise, T, rng)
    )
    actions = run_full_info(learner, losses).actions  # (T, size, 1)
    return np.ascontiguousarray(np.moveaxis(actions[..., 0], 0, 1), dtype=np.float64)


def ftpl_action_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of private FTPL (Alg. 3) with Gaussian nodes (Thm 3.5), ``N = 1``.

    ``X = [−1, 1]``, ``Y = [−r, r]`` (``r = config.gaussian_Y_radius``, ``Δ₂ = 2r``); neighbours
    ``l_1 = +r`` vs ``−r``, every other loss 0 (the sign threshold of every ``L̃_t`` then sits at
    the midpoint of the two means).  The actions ``x_t = −sign(L̃_{t−1})`` are scored by the
    black-box audit's default for discrete outputs (empirical log-likelihood ratio of the whole
    sign vector, learned on the selection half).

    Claims: printed ``(ε, δ)`` (Thm 3.5, [A13]) and the exact ``(ε*(δ*), δ*)`` of the exact μ-GDP
    curve of ``L̃_1..L̃_{T−1}`` (:func:`gaussian_output_level_sensitivity`, actions view; ``L̃_0``
    carries no data) with the strict σ of the actions view
    (:func:`~reference.agarwal_singh.theorems.thm35_sigma_strict`).  The actions are
    post-processing of those releases, so the exact claim holds for the correct learner.  The paper
    σ is audited against its own exact curve, the broken variants against the strict one."""
    _config(config)
    eps, delta, T, r = config.epsilon, config.gaussian_delta, config.T, config.gaussian_Y_radius
    strict = thm35_sigma_strict(eps, delta, T, 1, r, 2.0 * r, view="actions")
    paper = thm35_sigma(eps, delta, T, 1, r)
    losses = np.zeros((T, 1))
    losses[0, 0] = r
    losses_prime = -losses

    def mu_of(sigma: float) -> float:
        return gaussian_output_level_sensitivity(T, 2.0 * r, sigma, "actions")[0]

    variants: list[tuple[str, str, Role, float, float, bool]] = [
        ("ftpl_strict", f"strict σ = {strict:.4g}", "correct", strict, strict, False),
        ("ftpl_paper", f"paper σ (Thm 3.5) = {paper:.4g}", "paper", paper, paper, False),
        ("ftpl_noise_x0.5", "noise too small: σ/2", "broken", strict / 2.0, strict, False),
        (
            "ftpl_noise_reused",
            "one Z reused by every release (OneShotFTPL)",
            "broken",
            strict,
            strict,
            True,
        ),
    ]
    printed = PrivacyClaim(eps, delta, "replace_one", "printed (ε, δ)")
    cases = []
    for name, description, role, sigma, reference_sigma, reuse in variants:
        exact = PrivacyClaim(
            gaussian_epsilon(mu_of(reference_sigma), DELTA_STAR),
            DELTA_STAR,
            "replace_one",
            f"exact at δ={DELTA_STAR:g}",
        )
        mu = math.inf if reuse else mu_of(sigma)

        def draw_p(
            rng: np.random.Generator, size: int, s: float = sigma, u: bool = reuse
        ) -> FloatArray:
            return _ftpl_actions(losses, s, u, rng, size)

        def draw_q(
            rng: np.random.Generator, size: int, s: float = sigma, u: bool = reuse
        ) -> FloatArray:
            return _ftpl_actions(losses_prime, s, u, rng, size)

        cases.append(
            AgarwalSinghCase(
                name=name,
                description=f"private FTPL (Alg. 3), X = [−1, 1], Y = [−{r:g}, {r:g}], actions, "
                f"{description}, μ = {mu:.4g}",
                role=role,
                method="black_box",
                draw_p=draw_p,
                draw_q=draw_q,
                printed=printed,
                exact=exact,
                case_epsilon=math.inf,
                expected_printed_violation=reuse or gaussian_delta(mu, eps) > delta,
                expected_exact_violation=reuse
                or gaussian_delta(mu, exact.epsilon) > DELTA_STAR * (1 + 1e-9),
            )
        )
    return cases


# --------------------------------------------------------------------------------------------
# The bandit reduction (Algorithm 4) around the real EXP2 learner (Algorithm 5), black box
# --------------------------------------------------------------------------------------------


def exp2_reduction_arms(
    losses: FloatArray,
    scale: float,
    reuse: bool,
    eta: float,
    gamma: float,
    rng: np.random.Generator | SeedLike,
    size: int,
) -> FloatArray:
    """``size`` runs of Algorithm 4 around :class:`~reference.agarwal_singh.bandits.EXP2Exploration`
    (Alg. 5, uniform exploration ``μ``) with ``Lap^N(scale)`` noise: the released arms, shape
    ``(size, T)``.  ``reuse``: :class:`ReusedNoiseReduction` (one ``Z`` for every round).  The
    learner's coins and the reduction's noise share ``rng`` (both data-independent)."""
    rng = as_generator(rng)
    return _reduction_arms(
        losses, scale, reuse, lambda N: EXP2Exploration(N, eta, gamma, rng), rng, size
    )


def exp2_reduction_cases(config: AgarwalSinghAuditConfig) -> list[AgarwalSinghCase]:
    """Black-box action view of Algorithm 4 around the *real* inner learner of Thm 4.1, EXP2 with
    uniform exploration (Alg. 5); MAB, ``N = 2``, losses in ``[−1, 1]`` (``B = 1``, ``Δ_B = 2``),
    ``T = 3``; neighbours ``l_1(0) = +1`` vs ``−1``; ``l_2(0) = 1``, every other loss 0.

    ``η = config.exp2_eta`` (20) and ``γ = config.exp2_gamma`` (0.01) make EXP2 nearly greedy:
    after round 1 it keeps arm ``i_1`` iff the forwarded ``y_1 = l_1(i_1) + Z_1(i_1)`` is below 0,
    so the released arms carry ``1{y_1 > 0}`` (and, through round 3, more of ``y_1``).  Lemma 4.2
    is claimed for every inner learner, hence for Alg. 5 at every ``(η, γ)``; Thm 4.1's own
    ``(η, γ)`` at ``T = 3`` (``η ≈ 0.06``) leave almost no trace of ``y_1`` in the actions.

    Claims: printed pure ``ε`` (Lemma 4.2) and the canary cases' exact claim
    ``laplace_epsilon(Δ_B/λ_strict = ε, δ*)``.  That claim is valid for the real learner: the
    released arms are a randomised function (EXP2's coins) of the forwarded scalars, and given the
    common history only ``y_{t₀}`` has a data-dependent law, a Laplace mechanism with shift
    ``|l_{t₀}(i) − l'_{t₀}(i)| ≤ Δ_B``; so the transcript's privacy profile is dominated by that
    of one ``Δ_B/λ`` Laplace mechanism and the actions are post-processing of the transcript.
    Strict ``λ = Δ_B/ε``; paper ``λ = B/ε`` (``ε_eff = 2ε``; ``λ/2`` of the strict scale is the
    same mechanism, so it is not a separate case); broken: ``Z`` drawn once and reused
    (:class:`ReusedNoiseReduction`).  With one ``Z`` and arm 0 played twice, EXP2 (nearly
    greedy) keeps arm 0 in round 2 iff ``Z(0) < −l_1(0)`` and leaves it in round 3 iff
    ``Z(0) > −(2l_1(0) + l_2(0)/p_2(0))/(2 + 1/p_2(0))``: the arm sequence ``(0, 0, 1)`` needs
    ``l_1(0) < l_2(0)``, so under ``l_1(0) = +1`` it occurs only through exploration or the
    soft-max's slack, under ``−1`` with probability ``≈ (e^{−1/6} − e^{−1/2})/4 ≈ 0.06``."""
    _config(config)
    eps, eta, gamma = config.epsilon, config.exp2_eta, config.exp2_gamma
    strict = lemma42_laplace_scale(eps, 1.0, 2.0, "strict")
    paper = lemma42_laplace_scale(eps, 1.0, 2.0, "paper")
    T = 3
    losses = np.zeros((T, 2))
    losses[0, 0] = 1.0
    losses[1, 0] = 1.0
    variants: list[tuple[str, str, Role, float, bool]] = [
        ("reduction_exp2_strict", f"λ = Δ_B/ε = {strict:.4g}", "correct", strict, False),
        ("reduction_exp2_paper", f"paper λ = B/ε = {paper:.4g}", "paper", paper, False),
        ("reduction_exp2_noise_reused", "Z drawn once and reused", "broken", strict, True),
    ]

    def arms(
        losses: FloatArray, scale: float, reuse: bool, rng: np.random.Generator, size: int
    ) -> FloatArray:
        return exp2_reduction_arms(losses, scale, reuse, eta, gamma, rng, size)

    label = f"EXP2 (Alg. 5, η = {eta:g}, γ = {gamma:g}), MAB [−1,1] losses, T = {T}"
    return _reduction_cases(config, losses, variants, arms, label)


def privacy_cases(config: AgarwalSinghAuditConfig | None = None) -> list[AgarwalSinghCase]:
    """Every case, in a fixed order: tree node view, tree releases, FTRL actions, reduction
    canary, Gaussian tree, FTPL actions, reduction around EXP2 (each new group appended last so
    that the battery's and the power runs' per-case seeds of the earlier cases do not move)."""
    c = _config_or_default(config)
    return (
        tree_node_view_cases(c)
        + tree_release_cases(c)
        + ftrl_action_cases(c)
        + reduction_canary_cases(c)
        + gaussian_release_cases(c)
        + ftpl_action_cases(c)
        + exp2_reduction_cases(c)
    )


def _samples_for(case: AgarwalSinghCase, config: AgarwalSinghAuditConfig) -> int:
    if case.method == "white_box":
        return config.white_box_samples
    if case.name.startswith("reduction_exp2"):
        return config.exp2_samples
    if case.name.startswith("reduction"):
        return config.bandit_samples
    return config.black_box_samples


# --------------------------------------------------------------------------------------------
# Accuracy: Lemma 3.3's error bound and the node counts
# --------------------------------------------------------------------------------------------


def tree_error_audit(
    *,
    T: int,
    N: int,
    scale: float,
    beta: float,
    runs: int,
    seed: int,
    claimed_scale: float | None = None,
    factory: Literal["reference", "shared_tree_fresh_padding"] = "reference",
    name: str = "tree_error_lemma33",
    confidence: float = 0.95,
) -> RunAuditResult:
    """``max_{0≤t≤T} ‖Z_t‖_∞`` of ``runs`` independent trees against the bound ``b`` of
    :func:`lemma33_uniform_error_bound` (exact quantile, union over ``N·(T+1)`` scalars) with
    ``P(max > b) ≤ β``.

    A run fails when its maximal error exceeds ``b``; under Lemma 3.3 failures are ``Bin(runs, q)``
    with ``q ≤ β``, so the one-sided Clopper–Pearson test of :class:`RunAuditResult` (an exact
    binomial test) rejects with probability ``≤ 1 − confidence``.  ``claimed_scale`` is the ``λ``
    the bound is computed for (default ``scale``): a larger actual ``scale`` is a "noise too large"
    bug.  ``factory="shared_tree_fresh_padding"`` releases the shared
    :class:`reference.tree.TreeAggregator` with ``pad="fresh"``, which pads to ``1 + ⌈log₂ T⌉``
    draws, one more than Lemma 3.3's ``K``."""
    t0 = time.perf_counter()
    T = check_int_at_least("T", T, 1)
    N = check_int_at_least("N", N, 1)
    runs = check_int_at_least("runs", runs, 1)
    beta = check_in_range("beta", beta, 0.0, 1.0)
    scale = check_positive("scale", scale)
    if claimed_scale is not None:
        check_positive("claimed_scale", claimed_scale)
    check_choice("factory", factory, ("reference", "shared_tree_fresh_padding"))
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    bound = lemma33_uniform_error_bound(
        node_law="laplace",
        scale=scale if claimed_scale is None else claimed_scale,
        T=T,
        N=N,
        releases=T + 1,
        beta=beta,
    )
    rng = as_generator(seed, "seed")
    noise = LaplaceNoise((runs, N), scale)
    worst = np.zeros(runs)
    if factory == "reference":
        tree = TreeBasedAggregation(T, noise, rng)
        worst = np.max(np.abs(tree.release().noise), axis=1)
        for _ in range(T):
            worst = np.maximum(worst, np.max(np.abs(tree.step(np.zeros(N)).noise), axis=1))
    elif factory == "shared_tree_fresh_padding":
        shared = TreeAggregator(T, noise, rng, pad="fresh")
        worst = np.max(np.abs(shared.release().noise), axis=1)
        for _ in range(T):
            shared.insert(np.zeros((runs, N)))
            worst = np.maximum(worst, np.max(np.abs(shared.release().noise), axis=1))
    else:
        raise ValueError(
            f"factory must be 'reference' or 'shared_tree_fresh_padding', got {factory!r}"
        )
    return RunAuditResult.from_ratios(
        name,
        {"max_t ||Z_t||_inf / b": worst / bound},
        beta,
        confidence=confidence,
        seed=seed,
        started=t0,
    )


def node_count_audit(
    T: int,
    *,
    factory: Literal["reference", "unpadded", "shared_tree_fresh_padding"] = "reference",
    name: str = "tree_node_counts",
) -> RunAuditResult:
    """Deterministic check of Lemma 3.3 "Distribution": every release ``L̃_0..L̃_T`` carries exactly
    ``K = ⌈log₂ T⌉`` noise draws (``PaddedRelease.noise_terms``), and the nodes it reuses are its
    dyadic decomposition.  Each release is a trial; it fails when ``noise_terms ≠ K`` or its node
    set is wrong (ratio ``max(n/K, K/n)``, ``∞`` for a wrong node set).  Nominal failure rate 0.
    ``"unpadded"``: ``pad=False``; ``"shared_tree_fresh_padding"``: the shared tree's
    ``pad="fresh"`` (``1 + ⌈log₂ T⌉`` draws)."""
    t0 = time.perf_counter()
    T = check_int_at_least("T", T, 1)
    check_choice("factory", factory, ("reference", "unpadded", "shared_tree_fresh_padding"))
    K = noise_draws_per_release(T)
    noise = LaplaceNoise((1,), 1.0)
    rng = np.random.default_rng(0)
    counts: list[tuple[int, tuple[tuple[int, int], ...], int]] = []
    if factory == "shared_tree_fresh_padding":
        shared = TreeAggregator(T, noise, rng, pad="fresh")
        for t in range(T + 1):
            if t:
                shared.insert(np.zeros(1))
            rel = shared.release()
            counts.append((rel.count, rel.nodes, rel.noise_terms))
    elif factory in ("reference", "unpadded"):
        tree = TreeBasedAggregation(T, noise, rng, pad=factory == "reference")
        releases = [tree.release()] + [tree.step(np.zeros(1)) for _ in range(T)]
        counts = [(rel.t, rel.nodes, rel.noise_terms) for rel in releases]
    else:
        raise ValueError(f"unknown factory {factory!r}")
    ratios = np.array(
        [
            max(n / K, K / n) if n > 0 and nodes == dyadic_decomposition(t) else math.inf
            for t, nodes, n in counts
        ]
    )
    return RunAuditResult.from_ratios(
        name, {"noise_terms vs K": ratios}, 0.0, confidence=0.95, seed=0, started=t0
    )


def accuracy_cases(config: AgarwalSinghAuditConfig | None = None) -> list[RunAuditResult]:
    """The accuracy battery on the correct tree: Lemma 3.3's error bound (``N = 2``, strict λ of
    the prefix-sum view) and the node counts."""
    c = _config_or_default(config)
    scale = laplace_scale_tree_strict(c.epsilon, c.T, 2.0, "prefix_sums")
    return [
        tree_error_audit(
            T=c.T,
            N=2,
            scale=scale,
            beta=c.accuracy_beta,
            runs=c.accuracy_runs,
            seed=c.seed,
            confidence=c.confidence,
        ),
        node_count_audit(c.T),
    ]


# --------------------------------------------------------------------------------------------
# Battery and power
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgarwalSinghReport:
    """Results of :func:`run_agarwal_singh_battery`.

    ``results[i].details`` carries ``holm_p_value`` and ``family_violation`` (Holm over all
    privacy tests at ``config.family_alpha``); ``expected_violation`` is ``True`` exactly for the
    paper-calibrated cases whose printed claim fails by the exact accountant."""

    config: AgarwalSinghAuditConfig
    results: list[PrivacyAuditResult]
    accuracy: list[RunAuditResult]
    runtime_seconds: float

    @property
    def family_violations(self) -> list[str]:
        return [r.name for r in self.results if r.details["family_violation"]]

    @property
    def missed(self) -> list[str]:
        """Tests the exact accountant predicts to fail that were not rejected (lack of power)."""
        return [
            r.name
            for r in self.results
            if r.details["expected_violation"] and not r.details["family_violation"]
        ]

    @property
    def unexpected(self) -> list[str]:
        """Tests whose family-wise verdict differs from the exact accountant's prediction where
        the prediction is certain (correct cases must pass; see ``expected_violation``)."""
        return [
            r.name
            for r in self.results
            if r.details["family_violation"] and not r.details["expected_violation"]
        ] + [a.name for a in self.accuracy if a.violation]


def _check_names(names: Sequence[str] | None, cases: Sequence[AgarwalSinghCase]) -> None:
    """``names`` is ``None`` (every case) or a non-empty sequence of known case names: an unknown
    or misspelt name is refused rather than silently skipped."""
    if names is None:
        return
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise ValueError(f"names must be a sequence of case names, got {names!r:.80}")
    if len(names) == 0:
        raise ValueError("names must hold at least one case name (None runs every case)")
    known = [k.name for k in cases]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"names must be case names among {known}, got unknown {unknown}")


def run_agarwal_singh_battery(
    config: AgarwalSinghAuditConfig | None = None,
    *,
    include_broken: bool = False,
    names: Sequence[str] | None = None,
) -> AgarwalSinghReport:
    """Audit the correct and the paper-calibrated mechanisms against their printed and exact
    claims, apply Holm's correction over all privacy tests, and run the accuracy audits.

    The paper-calibrated Laplace cases are *expected* to be rejected against the printed pure ε
    (their exact ε is ``h·Δ₁/λ > ε``, [A5], [A19]); ``report.unexpected`` lists only surprises.
    ``include_broken`` adds the deliberately broken variants (power demonstration); ``names``
    restricts the battery to the named cases (Holm is then over that sub-family)."""
    t0 = time.perf_counter()
    c = _config_or_default(config)
    include_broken = check_bool("include_broken", include_broken)
    every = privacy_cases(c)
    _check_names(names, every)
    cases = [
        k for k in every if (include_broken or not k.broken) and (names is None or k.name in names)
    ]
    seeds = np.random.SeedSequence(c.seed).generate_state(len(cases))
    raw: list[tuple[AgarwalSinghCase, PrivacyAuditResult]] = []
    for case, s in zip(cases, seeds, strict=True):
        claims = [case.printed, case.exact]
        results = case.audit_claims(
            claims,
            samples=_samples_for(case, c),
            seed=int(s),
            confidence=1.0 - c.family_alpha,
        )
        raw.extend((case, r) for r in results)
    pvalues = [r.p_value for _, r in raw]
    reject, adjusted, _, _ = multipletests(pvalues, alpha=c.family_alpha, method="holm")
    final = []
    for (case, r), rej, p_adj in zip(raw, reject, adjusted, strict=True):
        details = dict(r.details)
        details.update(
            holm_p_value=float(p_adj),
            family_violation=bool(rej),
            expected_violation=case.expected_violation(r.claim),
        )
        final.append(dataclasses.replace(r, details=details))
    return AgarwalSinghReport(
        config=c,
        results=final,
        accuracy=accuracy_cases(c),
        runtime_seconds=time.perf_counter() - t0,
    )


@dataclass(frozen=True)
class PowerRow:
    """Rejections of one case's exact and printed claims over ``reps`` independent audits, with
    one-sided 95% Clopper–Pearson bounds on the exact-claim rejection rate (power for broken cases,
    false-alarm rate for correct ones)."""

    name: str
    role: Role
    method: str
    reps: int
    rejected_exact: int
    rejected_printed: int
    rate_exact_lower: float
    rate_exact_upper: float


def run_agarwal_singh_power(
    config: AgarwalSinghAuditConfig | None = None,
    *,
    reps: int = 60,
    seed: int = 13,
    names: Sequence[str] | None = None,
) -> list[PowerRow]:
    """Audit every case (or those in ``names``) ``reps`` times with independent seeds."""
    c = _config_or_default(config)
    reps = check_int_at_least("reps", reps, 1)
    as_seed_sequence(seed, "seed")
    every = privacy_cases(c)
    _check_names(names, every)
    cases = [k for k in every if names is None or k.name in names]
    rows = []
    # child_seeds = SeedSequence(seed).spawn(len(cases)), without advancing a SeedSequence argument
    for case, child in zip(cases, child_seeds(seed, 0, len(cases)), strict=True):
        hits_exact = hits_printed = 0
        for s in child.generate_state(reps):
            exact, printed = case.audit_claims(
                [case.exact, case.printed],
                samples=_samples_for(case, c),
                seed=int(s),
                confidence=c.confidence,
            )
            hits_exact += int(exact.violation)
            hits_printed += int(printed.violation)
        low, high = clopper_pearson(hits_exact, reps, 0.05)
        rows.append(
            PowerRow(case.name, case.role, case.method, reps, hits_exact, hits_printed, low, high)
        )
    return rows


def tagged_results(seed: int, quick: bool) -> list[Tagged]:
    """The battery as ``privonline audit papers`` runs it (:mod:`audit.papers`): every result,
    tagged with its case's bug; one bug has several views (white-box node view, black-box
    releases) and is judged across them."""
    sizes = (
        # black-box samples stay at 200k: below that the paper-FTRL erratum loses its power
        {"white_box_samples": 20_000, "bandit_samples": 5_000} if quick else {}
    )
    report = run_agarwal_singh_battery(
        AgarwalSinghAuditConfig(seed=seed, **sizes), include_broken=True
    )
    out: list[Tagged] = []
    for r in report.results:
        case = r.name.split(" vs ")[0].removesuffix("_node_view").removesuffix("_releases")
        role, predicted = r.details["role"], bool(r.details["expected_violation"])
        if role == "broken":
            out.append((r, case, predicted))
        elif role == "paper" and predicted:
            # the paper's own calibration, which its printed claim does not cover
            out.append((r, f"{case} (paper calibration, erratum)", True))
        else:
            out.append((r, None, False))
    out += [(a, None, False) for a in report.accuracy]
    return out
