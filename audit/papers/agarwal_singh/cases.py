"""Agarwal & Singh (ICML 2017) audit cases, part 1: the configuration, the exact guarantees of the
correct mechanisms, the tree (Algorithm 2, Lemma 3.3: node view, white box; released prefix sums,
black box) and private FTRL (Algorithm 1, Thm 3.1: actions, black box), with their broken variants.
Overview in :mod:`audit.papers.agarwal_singh.battery`.

Proof note: ``proofs_notes/audit/agarwal_singh.md``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeAlias, TypeVar, runtime_checkable

import numpy as np

from audit.mechanisms import LaplaceMechanism
from audit.methods.black_box import event_audit_from_samples
from audit.methods.white_box import density_privacy_losses, privacy_loss_audit
from audit.protocols import DensityMechanism, PrivacyClaim
from audit.results import PrivacyAuditResult
from reference._typing import FloatArray
from reference.accounting import laplace_composition_epsilon
from reference.agarwal_singh.aggregation import (
    PaddedRelease,
    TreeBasedAggregation,
    check_broadcast_loss,
    laplace_scale_tree_paper,
    laplace_scale_tree_strict,
    log_T,
    nodes_per_leaf,
    noise_draws_per_release,
)
from reference.agarwal_singh.full_info import OneShotFTRL, PrivateFTRL, run_full_info
from reference.agarwal_singh.sets import NegativeEntropySimplex
from reference.noise import LaplaceNoise, NodeNoise
from reference.rng import SeedLike, as_generator, as_seed_sequence
from reference.validation import (
    check_array,
    check_callable,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_nonempty,
    check_positive,
    check_size,
)

__all__ = [
    "DELTA_STAR",
    "AgarwalSinghAuditConfig",
    "AgarwalSinghCase",
    "ReleaseSource",
    "ReusedNoiseTree",
    "ftrl_action_cases",
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
    where Thm A.1 needs ``‖Y‖₂`` (App. A), so ``r = 4 > √N = 1`` makes the paper preset fail.
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


def _pure(epsilon: float, label: str) -> PrivacyClaim:
    return PrivacyClaim(epsilon, 0.0, "replace_one", label)


def _exact_laplace_claim(epsilon: float, nodes: int) -> PrivacyClaim:
    """The correct strict mechanism: ``nodes`` Laplace nodes each ``ε/nodes``-DP, claimed at
    :func:`reference.accounting.laplace.laplace_composition_epsilon` (exact for one node, the
    pessimistic PLD otherwise, so the claim holds for the correct mechanism)."""
    eps_star = laplace_composition_epsilon(DELTA_STAR, epsilon_0=epsilon / nodes, nodes=nodes)
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


DataT = TypeVar("DataT")


def _neighbour_samplers(
    draw: Callable[[DataT, np.random.Generator, int], FloatArray], x: DataT, x_prime: DataT
) -> tuple[Sampler, Sampler]:
    """``(draw_p, draw_q)``: ``draw`` on the neighbouring inputs ``x`` and ``x'``."""

    def draw_p(rng: np.random.Generator, size: int) -> FloatArray:
        return draw(x, rng, size)

    def draw_q(rng: np.random.Generator, size: int) -> FloatArray:
        return draw(x_prime, rng, size)

    return draw_p, draw_q


def _density_samplers(
    mechanism: DensityMechanism[DataT], x: DataT, x_prime: DataT
) -> tuple[Sampler, Sampler]:
    """White-box ``(draw_p, draw_q)``: privacy-loss samples ``log p_x/p_x'`` under ``x`` and
    ``log p_x'/p_x`` under ``x'`` (:func:`~audit.methods.white_box.density_privacy_losses`)."""

    def draw_p(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(mechanism, x, x_prime, rng, size)

    def draw_q(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(mechanism, x_prime, x, rng, size)

    return draw_p, draw_q


def _case(
    name: str,
    description: str,
    role: Role,
    method: Literal["white_box", "black_box"],
    samplers: tuple[Sampler, Sampler],
    claims: tuple[PrivacyClaim, PrivacyClaim],
    case_epsilon: float,
    violations: tuple[bool, bool],
    features: Features | None = None,
) -> AgarwalSinghCase:
    """An :class:`AgarwalSinghCase` from its ``(draw_p, draw_q)``, ``(printed, exact)`` claims and
    the ``(printed, exact)`` violations the exact accountant predicts."""
    (draw_p, draw_q), (printed, exact) = samplers, claims
    return AgarwalSinghCase(
        name=name,
        description=description,
        role=role,
        method=method,
        draw_p=draw_p,
        draw_q=draw_q,
        printed=printed,
        exact=exact,
        case_epsilon=case_epsilon,
        expected_printed_violation=violations[0],
        expected_exact_violation=violations[1],
        features=features,
    )


LaplaceVariant: TypeAlias = tuple[str, str, Role, float, bool]
"""``(name, description, role, λ, reuse)``: one Laplace-noise variant of a mechanism."""


def _laplace_cases(
    config: AgarwalSinghAuditConfig,
    variants: Sequence[LaplaceVariant],
    *,
    sensitivity: float,
    exact: PrivacyClaim,
    prefix: str,
    samplers: Callable[[float, bool], tuple[Sampler, Sampler]],
    method: Literal["white_box", "black_box"] = "black_box",
    features: Features | None = None,
) -> list[AgarwalSinghCase]:
    """One case per Laplace variant ``(name, description, role, λ, reuse)`` of a mechanism of
    sensitivity ``Δ`` (description ``prefix + description``, draws ``samplers(λ, reuse)``): pure
    ``ε = Δ/λ`` (``∞`` with reused noise).  Claims: the printed pure ``ε`` of ``config``, violated
    when the noise is reused or ``Δ/λ > ε``, and ``exact`` (the strict calibration's), violated by
    every role but ``correct``."""
    epsilon = config.epsilon
    claims = (_pure(epsilon, "printed pure ε"), exact)
    return [
        _case(
            name,
            prefix + description,
            role,
            method,
            samplers(scale, reuse),
            claims,
            math.inf if reuse else sensitivity / scale,
            (reuse or sensitivity / scale > epsilon + 1e-12, role != "correct"),
            features,
        )
        for name, description, role, scale, reuse in variants
    ]


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
    exact = _exact_laplace_claim(config.epsilon, h)
    variants = [
        (f"{v.name}_node_view", v.description, v.role, v.scale, v.reuse)
        for v in _tree_variants(config)
        if not v.reuse
    ]
    return _laplace_cases(
        config,
        variants,
        sensitivity=h * 2.0,
        exact=exact,
        prefix=f"Laplace tree, node view of leaf 1 (h = {h} nodes), ",
        method="white_box",
        samplers=lambda scale, _: _density_samplers(LaplaceMechanism(scale), x, x_prime),
    )


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
        """Add ``l_t`` (shape: a trailing part of ``noise.shape``) and release; at most ``T``
        steps."""
        item = check_broadcast_loss(loss, self._prefix.shape)
        if self._t >= self.T:
            raise ValueError(
                f"at most T={self.T} losses can be aggregated (the horizon), got loss {self.T + 1}"
            )
        self._prefix = self._prefix + item
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
    size = check_size("size", size, 1, item_bytes=8, what="an output")
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
    exact = _exact_laplace_claim(config.epsilon, h)

    def samplers(scale: float, reuse: bool) -> tuple[Sampler, Sampler]:
        factory = _reused_tree if reuse else _reference_tree

        def noise_of_size(size: int) -> NodeNoise:
            return LaplaceNoise((size,), scale)

        def draw(data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
            return tree_release_samples(data, noise_of_size, rng, size, factory=factory)

        return _neighbour_samplers(draw, x, x_prime)

    variants = [
        (f"{v.name}_releases", v.description, v.role, v.scale, v.reuse)
        for v in _tree_variants(config)
    ]
    return _laplace_cases(
        config,
        variants,
        sensitivity=h * 2.0,
        exact=exact,
        prefix="Laplace tree (Alg. 2), releases L̃_0..L̃_T, ",
        samplers=samplers,
    )


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
    variants: list[LaplaceVariant] = [
        ("ftrl_strict", f"λ = Δ₁h/ε = {strict:.4g}", "correct", strict, False),
        ("ftrl_paper_ln", f"paper λ = ‖Y‖₁ ln T/ε = {paper:.4g}", "paper", paper, False),
        ("ftrl_noise_reused", "one-shot twin (noise drawn once, Thm 3.4)", "broken", strict, True),
    ]
    exact = _exact_laplace_claim(eps, h)

    def samplers(scale: float, reuse: bool) -> tuple[Sampler, Sampler]:
        def draw(data: FloatArray, rng: np.random.Generator, size: int) -> FloatArray:
            noise = LaplaceNoise((size, 2), scale)
            learner: PrivateFTRL | OneShotFTRL = (
                OneShotFTRL(regularizer, eta, noise, T, rng)
                if reuse
                else PrivateFTRL(regularizer, eta, noise, T, rng)
            )
            actions = run_full_info(learner, data).actions  # (T, size, 2)
            return np.asarray(np.moveaxis(actions, 0, 1), dtype=np.float64)

        return _neighbour_samplers(draw, losses, losses_prime)

    return _laplace_cases(
        config,
        variants,
        sensitivity=h * 4.0,
        exact=exact,
        prefix=f"private FTRL (Alg. 1), experts N = 2, η = {eta:g}, actions, ",
        samplers=samplers,
        features=_ftrl_logits,
    )
