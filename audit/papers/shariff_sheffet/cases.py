"""Audit cases for the Shariff & Sheffet mechanisms: correct calibrations and a zoo of bugs.

Every case is a neighbouring pair at the worst case of the paper's relation (Sec. 1.1: ``v = (e₁, 1)``
replaced by ``v' = (−e₁, 1)``, or added/removed) and a sampler of the privacy loss of the tree's
*node-level view* (the used nodes containing leaf 1, :func:`reference.tree.nodes_used_by_leaf`),
which bounds the billboard and the actions.  Each case carries the ``printed`` claim (the paper's
``(ε, δ)``) and the ``exact`` guarantee of the correct mechanism at ``δ* = 1e-3``; a bug counts as
caught when the audit rejects the exact claim.

Proof note: ``proofs_notes/audit/zoo_and_battery.md``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from audit.mechanisms import (
    LaplaceMechanism,
    NodeViewMechanism,
    SymmetricGaussianMatrixMechanism,
    gaussian_mu,
)
from audit.methods.white_box import (
    compose_losses,
    density_privacy_losses,
    privacy_loss_audit,
    wishart_add_remove_losses,
    wishart_replacement_losses,
)
from audit.protocols import DensityMechanism, PrivacyClaim
from audit.results import PrivacyAuditResult
from audit.stats import empirical_bernstein_bounds, hockey_stick_summands
from reference._typing import FloatArray
from reference.accounting import gaussian_epsilon, laplace_epsilon
from reference.factorization import BLT, BLTNoiseStream, optimal_blt
from reference.noise import RandomSource
from reference.rng import NoiseStreams, as_seed_sequence
from reference.shariff_sheffet.bounds import (
    gaussian_node_privacy,
    gaussian_noise_std,
    wishart_degrees_of_freedom,
    wishart_node_privacy,
)
from reference.shariff_sheffet.factorized import factorized_noise_std
from reference.tree import nodes_used_by_leaf, tree_depth

__all__ = [
    "DELTA_STAR",
    "FACTORIZED_STEPS",
    "LossCase",
    "TreeConfig",
    "factorized_case",
    "factorized_cases",
    "gaussian_tree_case",
    "laplace_case",
    "privacy_zoo",
    "wishart_epsilon_bound",
    "wishart_tree_case",
]

DELTA_STAR = 1e-3
"""The δ at which the exact guarantee of each correct mechanism is audited."""

LossSampler = Callable[[np.random.Generator, int], FloatArray]


@dataclass(frozen=True)
class TreeConfig:
    """A Shariff & Sheffet configuration (default: a "tiny" one, n = 1000, d = 2)."""

    n: int = 1000
    d: int = 2
    epsilon: float = 1.0
    delta: float = 0.1
    L: float = 1.0
    B_tilde: float = 1.0
    leaf: int = 1

    @property
    def m(self) -> int:
        """Tree depth ``1 + ⌈log₂ n⌉``."""
        return tree_depth(self.n)

    @property
    def p(self) -> int:
        """Matrix dimension ``d + 1``."""
        return self.d + 1

    @property
    def L_tilde(self) -> float:
        """Row-norm bound ``√(L² + B̃²)``."""
        return math.sqrt(self.L**2 + self.B_tilde**2)

    @property
    def used_nodes(self) -> int:
        """Number of used nodes containing the audited leaf (``m − 1`` for leaf 1)."""
        return len(nodes_used_by_leaf(self.leaf, self.n))

    @property
    def k(self) -> int:
        """The paper's per-node Wishart degrees of freedom."""
        return wishart_degrees_of_freedom(self.d, self.m, self.epsilon, self.delta)

    @property
    def sigma(self) -> float:
        """The paper's ``σ_noise``."""
        return gaussian_noise_std(self.m, self.L_tilde, self.epsilon, self.delta)

    def replacement_difference(self) -> tuple[FloatArray, FloatArray]:
        """``(vvᵀ, v'v'ᵀ)`` for ``v = (L e₁, B̃)``, ``v' = (−L e₁, B̃)`` (orthogonal iff L = B̃)."""
        v = np.zeros(self.p)
        v[0], v[-1] = self.L, self.B_tilde
        w = v.copy()
        w[0] = -self.L
        return np.outer(v, v), np.outer(w, w)


@dataclass(frozen=True)
class LossCase:
    """Privacy-loss samplers for one (possibly broken) mechanism and its two claims."""

    name: str
    description: str
    broken: bool
    loss_p: LossSampler
    loss_q: LossSampler
    printed: PrivacyClaim
    exact: PrivacyClaim
    tags: tuple[str, ...] = field(default_factory=tuple)

    def audit_claims(
        self,
        claims: Sequence[PrivacyClaim],
        *,
        samples: int,
        seed: int,
        confidence: float,
        curve: bool = True,
    ) -> list[PrivacyAuditResult]:
        """Draw the privacy losses once (streams spawned from ``seed``) and run
        :func:`audit.methods.white_box.privacy_loss_audit` against each claim."""
        rng_p, rng_q = (np.random.default_rng(s) for s in as_seed_sequence(seed).spawn(2))
        loss_p, loss_q = self.loss_p(rng_p, samples), self.loss_q(rng_q, samples)
        return [
            privacy_loss_audit(
                loss_p,
                loss_q,
                claim,
                name=f"{self.name} vs {claim.label}",
                mechanism=self.description,
                confidence=confidence,
                epsilons=None if curve else np.array([claim.epsilon]),
                seed=seed,
            )
            for claim in claims
        ]

    def audit(
        self, claim: PrivacyClaim, *, samples: int, seed: int, confidence: float, curve: bool = True
    ) -> PrivacyAuditResult:
        """:meth:`audit_claims` for a single claim."""
        return self.audit_claims(
            [claim], samples=samples, seed=seed, confidence=confidence, curve=curve
        )[0]


def _density_sampler(
    mechanism: DensityMechanism[FloatArray], data: FloatArray, other: FloatArray
) -> LossSampler:
    """Privacy-loss draws of a white-box mechanism (:func:`audit.methods.white_box.density_privacy_losses`)."""

    def draw(rng: np.random.Generator, size: int) -> FloatArray:
        return density_privacy_losses(mechanism, data, other, rng, size)

    return draw


# --------------------------------------------------------------------------------------------
# Gaussian tree
# --------------------------------------------------------------------------------------------


def gaussian_tree_case(
    config: TreeConfig,
    *,
    name: str,
    description: str,
    sigma: float | None = None,
    nodes: int | None = None,
    broken: bool = False,
    per_node: bool = False,
    exact_sigma: float | None = None,
) -> LossCase:
    """The symmetrised-Gaussian tree (or one node, ``per_node=True``) under replacement.

    Losses are computed from the exact density of the node-level view
    (:class:`audit.mechanisms.NodeViewMechanism`) on outputs drawn from the mechanism with noise
    ``sigma`` (default: the paper's ``σ_noise``).  The exact claim is the correct mechanism's
    μ-GDP curve at ``δ*``: ``μ = √h · ‖D‖_F / (√2 σ_correct)``, where the correct mechanism's
    noise ``σ_correct`` is ``exact_sigma`` (default: the paper's ``σ_noise``; the tight
    calibration passes its own).
    """
    used = 1 if per_node else (config.used_nodes if nodes is None else nodes)
    actual_sigma = config.sigma if sigma is None else sigma
    x, x_prime = config.replacement_difference()
    mechanism = NodeViewMechanism(SymmetricGaussianMatrixMechanism(config.p, actual_sigma), used)

    correct_used = 1 if per_node else config.used_nodes
    correct_sigma = config.sigma if exact_sigma is None else exact_sigma
    mu = math.sqrt(correct_used) * gaussian_mu(x - x_prime, correct_sigma)
    if per_node:
        eps0, delta0 = gaussian_node_privacy(config.epsilon, config.delta, config.m)
        printed = PrivacyClaim(eps0, delta0, "replace_one", "printed per-node (ε₀, δ₀)")
    else:
        printed = PrivacyClaim(config.epsilon, config.delta, "replace_one", "printed (ε, δ)")
    exact = PrivacyClaim(
        gaussian_epsilon(DELTA_STAR, mu=mu), DELTA_STAR, "replace_one", f"exact at δ={DELTA_STAR:g}"
    )
    return LossCase(
        name=name,
        description=description,
        broken=broken,
        loss_p=_density_sampler(mechanism, x, x_prime),
        loss_q=_density_sampler(mechanism, x_prime, x),
        printed=printed,
        exact=exact,
        tags=("gaussian", "node" if per_node else "tree"),
    )


# --------------------------------------------------------------------------------------------
# Wishart tree
# --------------------------------------------------------------------------------------------


def _wishart_sampler(k: int, p: int, r: float, nodes: int) -> LossSampler:
    def draw(rng: np.random.Generator, size: int) -> FloatArray:
        return compose_losses(
            lambda g, s: wishart_replacement_losses(g, s, k=k, p=p, r=r), nodes, rng, size
        )

    return draw


def wishart_epsilon_bound(
    k: int,
    p: int,
    nodes: int,
    *,
    delta: float = DELTA_STAR,
    samples: int = 1_000_000,
    seed: int = 7,
    confidence_loss: float = 1e-3,
) -> float:
    """A conservative ε for the correct Wishart view at ``δ``, valid with probability
    ``≥ 1 − confidence_loss``.

    Two independent reference samples of the replacement loss composed over ``nodes`` nodes:

    1. on sample A, bisection finds a candidate ``ε_c`` whose empirical-Bernstein upper bound on
       ``δ(ε)`` is at most ``δ`` (any search is allowed here: A only *proposes*);
    2. on sample B, the candidates ``ε_c·1.05^j`` (``j = 0, 1, …``, fixed by A alone) are checked
       in turn with the level-``confidence_loss/2^{j+1}`` upper bound; the first that passes is
       returned.  By a union bound over ``j`` every check made holds with probability
       ``≥ 1 − confidence_loss``, so the returned ε satisfies ``δ(ε) ≤ δ`` with that probability.

    Audits of the correct mechanism against the resulting claim are therefore sound up to an
    extra ``confidence_loss`` of false-alarm probability.
    """
    rng_a, rng_b = (np.random.default_rng(s) for s in as_seed_sequence(seed).spawn(2))
    sampler = _wishart_sampler(k, p, 1.0, nodes)
    proposal = sampler(rng_a, samples)

    def upper(losses: FloatArray, eps: float, level: float) -> float:
        return empirical_bernstein_bounds(hockey_stick_summands(losses, eps), level).upper

    if upper(proposal, 0.0, confidence_loss) <= delta:
        candidate = 0.0
    else:
        lo, hi = 0.0, max(float(np.quantile(proposal, 0.99999)), 1e-6)
        while upper(proposal, hi, confidence_loss) > delta:
            hi *= 2.0
        for _ in range(40):
            mid = (lo + hi) / 2.0
            lo, hi = (lo, mid) if upper(proposal, mid, confidence_loss) <= delta else (mid, hi)
        candidate = hi
    check = sampler(rng_b, samples)
    for j in range(60):
        eps = candidate * 1.05**j if candidate > 0 else (0.0 if j == 0 else 1e-6 * 2.0**j)
        if upper(check, eps, confidence_loss / 2.0 ** (j + 1)) <= delta:
            return float(eps)
    raise RuntimeError("wishart_epsilon_bound: no candidate confirmed; increase samples")


def wishart_tree_case(
    config: TreeConfig,
    *,
    name: str,
    description: str,
    k: int | None = None,
    scale: float | None = None,
    broken: bool = False,
    per_node: bool = False,
    exact_epsilon: float | None = None,
) -> LossCase:
    """The Wishart tree (or one node) under orthogonal replacement, from the closed-form law of the
    privacy loss (:func:`audit.methods.white_box.wishart_replacement_losses`).

    ``k`` and ``scale`` are the (possibly broken) mechanism's; the normalised squared row norm is
    ``r = L̃²/scale``.  The exact claim is that of the correct mechanism (paper ``k``, scale ``L̃²``).
    """
    used = 1 if per_node else config.used_nodes
    actual_k = config.k if k is None else k
    actual_scale = config.L_tilde**2 if scale is None else scale
    r = config.L_tilde**2 / actual_scale
    if per_node:
        eps0, delta0 = wishart_node_privacy(config.epsilon, config.delta, config.m)
        printed = PrivacyClaim(eps0, delta0, "replace_one", "printed per-node (ε₀, δ₀)")
    else:
        printed = PrivacyClaim(config.epsilon, config.delta, "replace_one", "printed (ε, δ)")
    eps_star = (
        wishart_epsilon_bound(config.k, config.p, used) if exact_epsilon is None else exact_epsilon
    )
    exact = PrivacyClaim(eps_star, DELTA_STAR, "replace_one", f"exact at δ={DELTA_STAR:g}")
    sampler = _wishart_sampler(actual_k, config.p, r, used)
    return LossCase(
        name=name,
        description=description,
        broken=broken,
        loss_p=sampler,
        loss_q=sampler,
        printed=printed,
        exact=exact,
        tags=("wishart", "node" if per_node else "tree"),
    )


def jiang_style_wishart_case(config: TreeConfig) -> LossCase:
    """A "Wishart mechanism" calibrated without Sheffet's bound: ``k = p + 1`` degrees of freedom
    and scale ``L̃²``, claimed pure ``ε``-DP under add/remove (as in Jiang, Xie & Zhang 2016).

    It is not DP for any ε: removing a row gives an output impossible under the other input
    (``L = +∞``) whenever ``X ≤ r`` with ``X ~ χ²₂`` -- probability ``1 − e^{−1/2} ≈ 0.39``.
    """
    k, p = config.p + 1, config.p

    def add(rng: np.random.Generator, size: int) -> FloatArray:
        return wishart_add_remove_losses(rng, size, k=k, p=p, r=1.0, direction="add")

    def remove(rng: np.random.Generator, size: int) -> FloatArray:
        return wishart_add_remove_losses(rng, size, k=k, p=p, r=1.0, direction="remove")

    claim = PrivacyClaim(config.epsilon, 0.0, "add_remove", "printed pure ε")
    return LossCase(
        name="wishart_without_sheffet_bound",
        description=f"Wishart node W_{p}(L̃² I, k={k}) claimed pure ε={config.epsilon}-DP",
        broken=True,
        loss_p=add,
        loss_q=remove,
        printed=claim,
        exact=claim,
        tags=("wishart", "node"),
    )


# --------------------------------------------------------------------------------------------
# Laplace (vector counting query, the node mechanism of Agarwal & Singh's tree)
# --------------------------------------------------------------------------------------------


def laplace_case(
    *,
    name: str,
    epsilon: float = 1.0,
    sensitivity: float = 1.0,
    used_sensitivity: float = 1.0,
    broken: bool = False,
) -> LossCase:
    """Laplace mechanism on a 1-d query of L1 sensitivity ``sensitivity``, scale
    ``used_sensitivity/ε`` (a wrong sensitivity is a bug).  Exact curve of the correct version:
    ``δ(ε') = max(0, 1 − e^{(ε' − ε)/2})``; audited at pure ``ε`` (δ = 0) and at ``δ*``."""
    mechanism = LaplaceMechanism(used_sensitivity / epsilon)
    x, x_prime = np.zeros(1), np.full(1, sensitivity)

    return LossCase(
        name=name,
        description=repr(mechanism) + f" on a query of sensitivity {sensitivity:g}",
        broken=broken,
        loss_p=_density_sampler(mechanism, x, x_prime),
        loss_q=_density_sampler(mechanism, x_prime, x),
        printed=PrivacyClaim(epsilon, 0.0, "replace_one", "printed pure ε"),
        exact=PrivacyClaim(
            laplace_epsilon(DELTA_STAR, epsilon_0=epsilon),
            DELTA_STAR,
            "replace_one",
            f"exact at δ={DELTA_STAR:g}",
        ),
        tags=("laplace",),
    )


# --------------------------------------------------------------------------------------------
# Factorized source (beyond the paper)
# --------------------------------------------------------------------------------------------

FACTORIZED_STEPS = 15
"""Releases in the white box of the factorized source: the transcript ``CX + Z`` of ``15`` rows
(the mechanics do not depend on the horizon; the cost grows with it)."""

_FACTORIZED_CHUNK = 50_000


class _BatchedSymmetricLaw:
    """``size`` independent symmetric Gaussian matrices per draw, or one draw repeated
    (``reuse=True``: the broken stream that reuses its noise across releases)."""

    def __init__(self, size: int, p: int, sigma: float, reuse: bool) -> None:
        self.shape = (size, p, p)
        self.sigma, self.reuse = sigma, reuse
        self._drawn: FloatArray | None = None

    def sample(self, rng: RandomSource) -> FloatArray:
        if self.reuse and self._drawn is not None:
            return self._drawn
        z = self.sigma * NoiseStreams.of(rng).normal.standard_normal(self.shape)
        self._drawn = (z + np.swapaxes(z, -1, -2)) / math.sqrt(2.0)
        return self._drawn

    def sample_sum(self, rng: RandomSource, j: int) -> FloatArray:  # pragma: no cover - unused
        raise NotImplementedError("the factorized stream draws one z per input")


def _factorized_sampler(
    blt: BLT, steps: int, sigma: float, difference: FloatArray, reuse: bool
) -> LossSampler:
    """Exact privacy losses of the factorized source's transcript, on outputs of its stream.

    Runs :class:`~reference.factorization.BLTNoiseStream` (``size`` streams at once), recovers the
    transcript noise ``ẑ = C·diff(N)`` from the releases (projected on ``D``, all the loss reads),
    and evaluates the exact log-density
    ratio of the implementation's law: i.i.d. ``z_t`` give ``Σ_t c_{t−1}⟨ẑ_t, D⟩ + c²_{t−1}‖D‖²/2``
    (whitened); a reused ``z`` makes the other input's transcript impossible (``+inf``).
    """
    c = blt.coefficients(steps)
    whitened = 1.0 / (2.0 * sigma**2)  # ⟨A, B⟩_w = Σ_ab A_ab B_ab / (2σ²) for symmetric A, B

    def draw(rng: np.random.Generator, size: int) -> FloatArray:
        out = np.empty(size)
        p = difference.shape[0]
        norm2 = float(np.sum(difference**2)) * whitened
        for start in range(0, size, _FACTORIZED_CHUNK):
            m = min(_FACTORIZED_CHUNK, size - start)
            stream = BLTNoiseStream(blt, _BatchedSymmetricLaw(m, p, sigma, reuse), rng)
            previous = np.zeros((m, p, p))
            buffers = np.zeros((blt.buffers, m))
            first: FloatArray | None = None
            loss = np.zeros(m)
            for t in range(steps):
                total = stream.advance()
                # ⟨ẑ_t, D⟩_w with ẑ = C·diff(N): C is linear, so it acts on the projections
                w = np.einsum("sab,ab->s", total - previous, difference) * whitened
                previous = total
                z_hat = w + blt.omega @ buffers
                buffers = blt.theta[:, None] * buffers + w
                if reuse:
                    first = z_hat if first is None else first
                    if not np.allclose(z_hat, first, rtol=1e-8, atol=1e-8 * math.sqrt(norm2)):
                        raise ArithmeticError("the stream did not reuse its noise")
                else:
                    loss += c[t] * z_hat + 0.5 * c[t] ** 2 * norm2
            out[start : start + m] = math.inf if reuse and steps > 1 else loss
        return out

    return draw


def factorized_case(
    config: TreeConfig,
    *,
    name: str,
    description: str,
    steps: int = FACTORIZED_STEPS,
    sigma: float | None = None,
    reuse_noise: bool = False,
    broken: bool = False,
) -> LossCase:
    """The factorized source's transcript under replacement of round 1's row (white box).

    The correct mechanism is calibrated to ``config``'s ``(ε, δ)`` at ``steps + 1`` rounds
    (:func:`~reference.shariff_sheffet.factorized.factorized_noise_std`); ``sigma`` overrides the
    noise the implementation uses, ``reuse_noise`` makes it draw one ``z`` for every release.
    The exact claim is the correct mechanism's ``μ``-GDP curve at ``δ*``,
    ``μ = ‖c_{0..steps−1}‖ · ‖D‖_F/(√2 σ)``.
    """
    blt = optimal_blt(max(steps, 2))
    correct = factorized_noise_std(steps + 1, config.L_tilde, config.epsilon, config.delta, blt)
    actual = correct if sigma is None else sigma
    x, x_prime = config.replacement_difference()
    mu = blt.sensitivity(steps) * gaussian_mu(x - x_prime, correct)
    return LossCase(
        name=name,
        description=description,
        broken=broken,
        loss_p=_factorized_sampler(blt, steps, actual, x - x_prime, reuse_noise),
        loss_q=_factorized_sampler(blt, steps, actual, x_prime - x, reuse_noise),
        printed=PrivacyClaim(config.epsilon, config.delta, "replace_one", "target (ε, δ)"),
        exact=PrivacyClaim(
            gaussian_epsilon(DELTA_STAR, mu=mu),
            DELTA_STAR,
            "replace_one",
            f"exact at δ={DELTA_STAR:g}",
        ),
        tags=("gaussian", "factorized"),
    )


def factorized_cases(config: TreeConfig) -> list[LossCase]:
    """The factorized source, correct and with its two classic bugs: noise calibrated to the
    wrong factor's sensitivity (``‖C⁻¹ e_1‖`` instead of ``‖C e_1‖``) and one ``z`` reused for
    every release."""
    steps = FACTORIZED_STEPS
    blt = optimal_blt(steps)
    correct = factorized_noise_std(steps + 1, config.L_tilde, config.epsilon, config.delta, blt)
    inverse = blt.inverse_coefficients(steps)
    wrong = correct * float(np.linalg.norm(inverse)) / blt.sensitivity(steps)
    return [
        factorized_case(config, name="factorized", description="factorized source, exact σ"),
        factorized_case(
            config,
            name="factorized_wrong_factor",
            description="factorized source, σ from the sensitivity of C⁻¹ instead of C",
            sigma=wrong,
            broken=True,
        ),
        factorized_case(
            config,
            name="factorized_reused_noise",
            description="factorized source, one z reused for every release",
            reuse_noise=True,
            broken=True,
        ),
    ]


# --------------------------------------------------------------------------------------------
# The zoo
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Zoo:
    config: TreeConfig

    @cached_property
    def wishart_exact(self) -> float:
        return wishart_epsilon_bound(self.config.k, self.config.p, self.config.used_nodes)

    def cases(self) -> list[LossCase]:
        c = self.config
        wx = self.wishart_exact
        sigma_undivided = gaussian_noise_std(1, c.L_tilde, c.epsilon, c.delta)
        k_undivided = c.d + 1 + math.ceil(28.0 / c.epsilon**2 * math.log(4.0 / c.delta))
        k_quarter = c.d + 1 + math.ceil((c.k - c.d - 1) / 4)
        return [
            gaussian_tree_case(c, name="gaussian_tree", description="Gaussian tree, paper σ_noise"),
            gaussian_tree_case(
                c,
                name="gaussian_tree_noise_x0.5",
                description="Gaussian tree, σ_noise × 0.5",
                sigma=0.5 * c.sigma,
                broken=True,
            ),
            gaussian_tree_case(
                c,
                name="gaussian_tree_noise_x0.7",
                description="Gaussian tree, σ_noise × 0.7",
                sigma=0.7 * c.sigma,
                broken=True,
            ),
            gaussian_tree_case(
                c,
                name="gaussian_tree_budget_not_split",
                description="Gaussian tree, σ_noise computed with m = 1 (per-node budget not divided)",
                sigma=sigma_undivided,
                broken=True,
            ),
            wishart_tree_case(
                c,
                name="wishart_tree",
                description=f"Wishart tree, paper k = {c.k}",
                exact_epsilon=wx,
            ),
            wishart_tree_case(
                c,
                name="wishart_tree_scale_Ltilde",
                description="Wishart tree, scale L̃ instead of L̃² (Sec. 4.1 typo taken literally)",
                scale=c.L_tilde,
                broken=True,
                exact_epsilon=wx,
            ),
            wishart_tree_case(
                c,
                name="wishart_tree_k_quarter",
                description=f"Wishart tree, too few degrees of freedom (k = {k_quarter})",
                k=k_quarter,
                broken=True,
                exact_epsilon=wx,
            ),
            wishart_tree_case(
                c,
                name="wishart_tree_budget_not_split",
                description=f"Wishart tree, k from Theorem 8 at the whole (ε, δ) (k = {k_undivided})",
                k=k_undivided,
                broken=True,
                exact_epsilon=wx,
            ),
            jiang_style_wishart_case(c),
            laplace_case(name="laplace"),
            laplace_case(name="laplace_wrong_sensitivity", used_sensitivity=0.5, broken=True),
            *factorized_cases(c),
        ]


def privacy_zoo(config: TreeConfig | None = None) -> list[LossCase]:
    """The correct mechanisms and the deliberately broken ones, in a fixed order."""
    return _Zoo(TreeConfig() if config is None else config).cases()
