"""Regularizer sources for Algorithm 1: where ``(V_t, ũ_t) = (G_t + H_t, u_t + h_t)`` come from.

Shariff & Sheffet Sec. 4: privatising ``M_t = Σ_{s<t} v_s v_sᵀ`` (rows ``v_s = (x_s, y_s)``) with
the tree mechanism makes Algorithm 1 jointly DP (Claim 7); ``V_t`` is the top-left ``d×d`` block of
the release plus ``shift·I`` and ``ũ_t`` the first ``d`` entries of its last column.
:class:`ExactStatistics` is non-private ridge (``H_t = ρI``, ``h_t = 0``), :class:`TreeStatistics`
the private tree release, :class:`FactorizedStatistics` (beyond the paper) a factorization
mechanism's; :func:`make_regularizer` builds the paper's four variants and the factorized one.

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeAlias, runtime_checkable

import numpy as np

from reference._typing import FloatArray
from reference.factorization import BLT, BLTNoiseStream, optimal_blt
from reference.noise import NodeNoise, SymmetricGaussianNoise, WishartNoise
from reference.rng import SeedLike, as_generator
from reference.shariff_sheffet.authors_code import (
    authors_alpha,
    authors_base_bounds,
    authors_opt_rho_min,
    authors_release_alpha,
    authors_shifted,
    authors_wishart_degrees_of_freedom,
    authors_wishart_shifted_bounds,
)
from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    gaussian_bounds,
    gaussian_noise_std,
    nonprivate_bounds,
    reshifted_bounds,
    wishart_degrees_of_freedom,
    wishart_shifted_bounds,
    wishart_unshifted_bounds,
)
from reference.shariff_sheffet.factorized import (
    _strategy,
    factorized_bounds,
    factorized_noise_std,
    released_steps,
)
from reference.shariff_sheffet.tight import (
    gaussian_tight_bounds,
    gaussian_tight_noise_std,
    wishart_tight_bounds,
    wishart_tight_degrees_of_freedom,
)
from reference.tree import (
    PadMode,
    PanPrivateTree,
    TreeAggregator,
    TreeMode,
    check_tree_mode,
    tree_depth,
)
from reference.validation import (
    check_alpha,
    check_array,
    check_choice,
    check_delta,
    check_epsilon,
    check_finite,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "CALIBRATIONS",
    "OPT_VARIANTS",
    "SOURCES",
    "VARIANTS",
    "Calibration",
    "ExactStatistics",
    "FactorizedStatistics",
    "PrivacyParameters",
    "ProblemConstants",
    "Regularizer",
    "TreeStatistics",
    "Variant",
    "check_tree",
    "default_alpha",
    "gaussian_node_noise",
    "make_factorized_regularizer",
    "make_regularizer",
    "regularizer_spec",
    "rows_within_norm",
    "tree_rewards",
    "wishart_node_noise",
]

Variant: TypeAlias = Literal[
    "nonprivate",
    "gaussian",
    "wishart",
    "wishart_unshifted",
    "factorized",
    "gaussian_opt",
    "wishart_opt",
]
Calibration: TypeAlias = Literal["paper", "tight", "authors_code"]
"""Noise calibration and constants: the paper's (Sec. 4), the least noise by exact accounting
(``"tight"``), or the constants of the authors' code that made App. D's figures
(``"authors_code"``, :mod:`reference.shariff_sheffet.authors_code`)."""
CALIBRATIONS: tuple[Calibration, ...] = ("paper", "tight", "authors_code")
VARIANTS: tuple[Variant, ...] = ("nonprivate", "gaussian", "wishart", "wishart_unshifted")
"""The paper's four regularizer sources (App. D.2)."""
OPT_VARIANTS: tuple[Variant, ...] = ("gaussian_opt", "wishart_opt")
"""The authors' code's ``GaussianOpt`` and ``WishartOpt`` (``calibration="authors_code"`` only)."""
SOURCES: tuple[Variant, ...] = (*VARIANTS, "factorized", *OPT_VARIANTS)
"""Every source :func:`make_regularizer` builds: the paper's four; beyond the paper, the
factorized source (:mod:`reference.shariff_sheffet.factorized`; ``calibration="tight"`` only); and
the authors' code's Opt variants (``calibration="authors_code"`` only)."""


@dataclass(frozen=True)
class ProblemConstants:
    """The constants of Assumptions 1-6 (Sec. 3).

    Attributes:
        d: dimension of actions and of ``θ*``.
        L: bound on every action's norm, ``‖x‖ ≤ L`` (Assumption 1).
        S: bound on ``‖θ*‖`` (Assumption 3).
        B: bound on mean rewards, ``|⟨θ*, x⟩| ≤ B``, with ``B ≥ 1`` (Assumption 2).
        sigma: sub-Gaussian parameter of the reward noise (Assumption 5).
        B_tilde: bound on rewards, ``|y| ≤ B̃`` (used for privacy, Assumption 6).
    """

    d: int
    L: float = 1.0
    S: float = 1.0
    B: float = 1.0
    sigma: float = 1.0
    B_tilde: float = 1.0

    def __post_init__(self) -> None:
        check_size("d", self.d, 1, item_bytes=8, power=2, what="an entry of a Gram matrix")
        check_positive("L", self.L)
        check_positive("S", self.S)
        if check_finite("B", self.B) < 1.0:
            raise ValueError(f"B must be in [1, inf) (Assumption 2), got {self.B}")
        check_positive("sigma", self.sigma)
        check_positive("B_tilde", self.B_tilde)

    @property
    def L_tilde(self) -> float:
        """``L̃ = √(L² + B̃²)``, the bound on ``‖(x_t, y_t)‖`` (Assumption 6)."""
        return math.sqrt(self.L**2 + self.B_tilde**2)


@dataclass(frozen=True)
class PrivacyParameters:
    """The target ``(ε, δ)`` of joint differential privacy, ``ε > 0``, ``δ ∈ (0, 1)``."""

    epsilon: float
    delta: float

    def __post_init__(self) -> None:
        check_epsilon(self.epsilon)
        check_delta(self.delta)


@runtime_checkable
class Regularizer(Protocol):
    """A source of the regularized statistics that Algorithm 1 reads each round."""

    @property
    def d(self) -> int:
        """Dimension of the actions."""
        ...

    @property
    def bounds(self) -> RegularizerBounds:
        """The ``(α/2n)``-accurate ``ρ_min, ρ_max, γ`` valid for this source (Definition 3)."""
        ...

    def current(self) -> tuple[FloatArray, FloatArray]:
        """``(V_t, ũ_t)`` for the upcoming round (lines 4 of Algorithm 1)."""
        ...

    def update(self, x: FloatArray, y: float) -> None:
        """Record the chosen action ``x_t`` and its reward ``y_t`` (line 9 of Algorithm 1)."""
        ...


def _check_action_and_reward(x: FloatArray, y: float, d: int, L: float) -> tuple[FloatArray, float]:
    x_arr = check_array("x", x, shape=(d,))
    norm = float(np.linalg.norm(x_arr))
    if norm > L * (1.0 + 1e-9):
        raise ValueError(f"x must have Euclidean norm <= L={L} (Assumption 1), got {norm}")
    return x_arr, check_finite("y", y)


class _Source:
    """The ``d`` and the Definition 3 ``bounds`` every source reports."""

    constants: ProblemConstants
    _bounds: RegularizerBounds

    @property
    def d(self) -> int:
        return self.constants.d

    @property
    def bounds(self) -> RegularizerBounds:
        return self._bounds


class ExactStatistics(_Source):
    """Non-private statistics: ``V_t = G_t + ρI``, ``ũ_t = u_t`` (Sec. 2; experiments use ρ = 1)."""

    def __init__(self, constants: ProblemConstants, rho: float = 1.0) -> None:
        self.constants = check_instance("constants", constants, ProblemConstants)
        self._bounds = nonprivate_bounds(rho)
        self._gram = np.zeros((constants.d, constants.d))
        self._u = np.zeros(constants.d)

    def current(self) -> tuple[FloatArray, FloatArray]:
        return self._gram + self._bounds.shift * np.eye(self.d), self._u.copy()

    def update(self, x: FloatArray, y: float) -> None:
        x_arr, y_val = _check_action_and_reward(x, y, self.d, self.constants.L)
        self._gram = self._gram + np.outer(x_arr, x_arr)
        self._u = self._u + x_arr * y_val


RewardPolicy: TypeAlias = Literal["raise", "clip"]


class _PrivateGramSource(_Source):
    """What the private sources share: the row ``v = (x_t, y_t)`` they privatise (checked,
    clipped under R-CLIP, within ``L̃``), and ``(V_t, ũ_t)`` or ``(H_t, h_t)`` read from one
    release of ``M + N`` (a subclass gives :meth:`_release`)."""

    reward_policy: RewardPolicy
    clip_events: int

    def _release(self) -> tuple[FloatArray, FloatArray]:  # pragma: no cover - abstract
        """One release: its value ``M + N`` and its noise ``N``."""
        raise NotImplementedError

    def current(self) -> tuple[FloatArray, FloatArray]:
        d = self.d
        released = self._release()[0]
        V = released[:d, :d] + self._bounds.shift * np.eye(d)
        u_tilde = released[:d, d].copy()
        return V, u_tilde

    def regularizer(self) -> tuple[FloatArray, FloatArray]:
        """``(H_t, h_t)`` of the current release: ``N_t[:d,:d] + shift·I`` and ``N_t[:d, d]`` (audits)."""
        d = self.d
        noise = self._release()[1]
        return noise[:d, :d] + self._bounds.shift * np.eye(d), noise[:d, d].copy()

    def _row(self, x: FloatArray, y: float) -> FloatArray:
        """The row ``v`` that enters the Gram stream (counting a clip in :attr:`clip_events`)."""
        x_arr, y_val = _check_action_and_reward(x, y, self.d, self.constants.L)
        rewards, clipped = tree_rewards(
            np.array([y_val]), self.constants.B_tilde, self.reward_policy
        )
        self.clip_events += int(clipped[0])
        return rows_within_norm(np.append(x_arr, rewards[0]), self.constants.L_tilde)


class TreeStatistics(_PrivateGramSource):
    """Private statistics from the tree release of ``M_t + N_t`` (Sec. 4).

    Each update inserts the leaf ``v vᵀ`` with ``v = (x_t, y_t) ∈ R^{d+1}``.  Privacy needs
    ``‖v‖ ≤ L̃`` (Assumption 6).  Actions above ``L`` always raise.  Rewards outside ``[−B̃, B̃]``
    raise under ``reward_policy="raise"`` (default); ``reward_policy="clip"`` clips them to
    ``[−B̃, B̃]`` before they enter the tree (resolution R-CLIP; not in the paper, which assumes
    bounded rewards -- it protects privacy but biases the estimate), counting each clip in
    :attr:`clip_events`.

    Args:
        constants: the problem constants (``d``, ``L``, ``B̃``).
        tree: a :class:`~reference.tree.TreeAggregator` (the paper's tree) or a
            :class:`~reference.tree.PanPrivateTree` (the authors' code) over ``(d+1)×(d+1)`` items.
        bounds: the accuracy bounds of this noise law and shift (they include the shift).
        reward_policy: ``"raise"`` or ``"clip"``, see above.
    """

    def __init__(
        self,
        constants: ProblemConstants,
        tree: TreeAggregator | PanPrivateTree,
        bounds: RegularizerBounds,
        *,
        reward_policy: RewardPolicy = "raise",
    ) -> None:
        check_instance("constants", constants, ProblemConstants)
        check_instance("tree", tree, (TreeAggregator, PanPrivateTree))
        check_instance("bounds", bounds, RegularizerBounds)
        p = constants.d + 1
        if tree.shape != (p, p):
            raise ValueError(f"tree items must have shape ({p}, {p}), got {tree.shape}")
        check_choice("reward_policy", reward_policy, ("raise", "clip"))
        self.constants = constants
        self.tree = tree
        self._bounds = bounds
        self.reward_policy = reward_policy
        self.clip_events = 0

    def _release(self) -> tuple[FloatArray, FloatArray]:
        release = self.tree.release()
        return release.value, release.noise

    def update(self, x: FloatArray, y: float) -> None:
        row = self._row(x, y)
        self.tree.insert(np.outer(row, row))


class FactorizedStatistics(_PrivateGramSource):
    """Private statistics ``M_{t−1} + N_{t−1}`` with ``N`` from a
    :class:`~reference.factorization.BLTNoiseStream` (calibration:
    :mod:`reference.shariff_sheffet.factorized`).

    The same contract as :class:`~reference.shariff_sheffet.regularizers.TreeStatistics`: rows
    ``v = (x_t, y_t)`` with ``‖x‖ ≤ L`` and ``|y| ≤ B̃`` (or clipped, R-CLIP), ``V_t`` the top-left
    block plus ``shift·I``, at most ``n`` rows (the horizon the privacy and the bounds were
    computed for; the tree refuses a leaf beyond it too).  Round 1 reads the empty prefix,
    noise-free (``H_1 = shift·I``).

    Args:
        constants: the problem constants.
        blt: the strategy.
        sigma_noise: per-entry scale of each ``z_t = (Z' + Z'ᵀ)/√2``.
        bounds: the accuracy bounds (they include the shift).
        rng: generator of the ``z_t``.
        n: the horizon, ``≥ 2``.
        reward_policy: ``"raise"`` or ``"clip"``.
    """

    def __init__(
        self,
        constants: ProblemConstants,
        blt: BLT,
        sigma_noise: float,
        bounds: RegularizerBounds,
        rng: np.random.Generator | SeedLike,
        *,
        n: int,
        reward_policy: RewardPolicy = "raise",
    ) -> None:
        generator = as_generator(rng)
        self.n = check_int_at_least("n", n, 2)
        self.constants = check_instance("constants", constants, ProblemConstants)
        check_instance("bounds", bounds, RegularizerBounds)
        check_choice("reward_policy", reward_policy, ("raise", "clip"))
        law = gaussian_node_noise(constants.d, check_positive("sigma_noise", sigma_noise))
        self.noise = BLTNoiseStream(check_instance("blt", blt, BLT), law, generator)
        self._bounds = bounds
        self._gram = np.zeros((constants.d + 1, constants.d + 1))
        self.reward_policy = reward_policy
        self.clip_events = 0

    def _release(self) -> tuple[FloatArray, FloatArray]:
        noise = self.noise.total
        return self._gram + noise, noise

    def update(self, x: FloatArray, y: float) -> None:
        if self.noise.count >= self.n:
            raise ValueError(f"cannot record more than n={self.n} rounds (the source's horizon)")
        row = self._row(x, y)
        self._gram = self._gram + np.outer(row, row)
        self.noise.advance()


def tree_rewards(
    y: FloatArray, b_tilde: float, policy: RewardPolicy
) -> tuple[FloatArray, np.ndarray[Any, np.dtype[np.bool_]]]:
    """Rewards as they enter the tree, and which were clipped (batched over any shape).

    Privacy needs ``|y| ≤ B̃`` (Assumption 6): ``policy="raise"`` raises on a reward outside
    ``[−B̃, B̃]``; ``"clip"`` clips it (resolution R-CLIP; not in the paper).  Shared by
    :class:`TreeStatistics` and the engine.
    """
    y = check_array("y", y)
    b_tilde = check_positive("b_tilde", b_tilde)
    check_choice("policy", policy, ("raise", "clip"))
    outside = np.abs(y) > b_tilde
    if outside.any() and policy == "raise":
        raise ValueError(
            f"y must be in [-B_tilde, B_tilde] = [{-b_tilde}, {b_tilde}] (Assumption 6), "
            f"got {float(y[outside][0])}; pass reward_policy='clip' to clip rewards (R-CLIP)"
        )
    return np.clip(y, -b_tilde, b_tilde), outside


def rows_within_norm(rows: FloatArray, L_tilde: float) -> FloatArray:
    """Rows ``v = (x, y)`` (last axis) rescaled to norm ``L̃`` where they exceed it.

    Reachable only within the ``1e-9`` rounding tolerance of the norm checks; the rescaled row
    provably meets Assumption 6 (Theorem 8's hypothesis).  R-CLIP float safety, shared by
    :class:`TreeStatistics` and the engine.
    """
    rows = check_array("rows", rows)
    if rows.ndim == 0 or rows.shape[-1] == 0:
        raise ValueError(f"rows must have shape (..., d + 1) with d + 1 >= 1, got {rows.shape}")
    L_tilde = check_positive("L_tilde", L_tilde)
    norm = np.sqrt(np.sum(rows * rows, axis=-1, keepdims=True))
    factor = L_tilde / np.maximum(norm, L_tilde)  # exactly 1 within the norm (zero rows too)
    return np.asarray(rows * factor, dtype=np.float64)


def wishart_node_noise(d: int, k: int, L_tilde: float) -> WishartNoise:
    """Node noise ``W_{d+1}(L̃² I, k)`` (Sec. 4.1; the text's ``L̃ I`` is a typo, R-SCALE)."""
    d = check_size("d", d, 1, item_bytes=8, power=2, what="a matrix entry")
    k = check_int_at_least("k", k, d + 1)
    return WishartNoise(
        dim=d + 1, degrees_of_freedom=k, scale=check_positive("L_tilde", L_tilde) ** 2
    )


def gaussian_node_noise(d: int, sigma_noise: float) -> SymmetricGaussianNoise:
    """Node noise ``(Z' + Z'ᵀ)/√2``, ``Z' ∈ R^{(d+1)×(d+1)}`` i.i.d. ``N(0, σ_noise²)`` (Sec. 4.2)."""
    d = check_size("d", d, 1, item_bytes=8, power=2, what="a matrix entry")
    return SymmetricGaussianNoise(dim=d + 1, sigma=check_positive("sigma_noise", sigma_noise))


def make_regularizer(
    variant: Variant,
    constants: ProblemConstants,
    n: int,
    alpha: float,
    rng: np.random.Generator | SeedLike,
    privacy: PrivacyParameters | None = None,
    *,
    rho: float = 1.0,
    gamma_mode: Literal["paper", "tight"] = "paper",
    pad: PadMode = "fresh",
    reward_policy: RewardPolicy = "raise",
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
    tree: TreeMode = "dyadic",
) -> Regularizer:
    """Build one of the paper's four regularizer sources (App. D.2), or the factorized one.

    Args:
        variant: ``"nonprivate"`` (``H = ρI``), ``"gaussian"`` (Sec. 4.2, shift ``+2Υ``),
            ``"wishart"`` (Sec. 4.1, shift ``−c`` of Eq. 4), ``"wishart_unshifted"``, or, beyond
            the paper, ``"factorized"`` (:func:`make_factorized_regularizer`
            at ``n``; needs ``calibration="tight"``), or the authors' code's ``"gaussian_opt"``
            and ``"wishart_opt"`` (needs ``calibration="authors_code"``).
        constants: problem constants (``L̃`` is taken from them).
        n: horizon; fixes the tree depth ``m = 1 + ⌈log₂ n⌉``.
        alpha: failure probability ``α ∈ (0, 1)`` of the accuracy bounds.
        rng: generator for all mechanism noise (unused by ``"nonprivate"``).
        privacy: ``(ε, δ)``; required for the private variants.
        rho: ridge parameter of ``"nonprivate"``.
        gamma_mode: ``"paper"`` or ``"tight"`` ``γ'`` for ``"wishart"``.
        calibration: ``"paper"`` (Sec. 4) or ``"tight"``: the least noise meeting the same
            ``(ε, δ)`` by exact accounting (:mod:`reference.shariff_sheffet.tight`): the smallest
            ``σ_noise`` (Gaussian, exact GDP) or ``k`` (Wishart, certified by the PLD accountant;
            the shifted variant falls back to shift 0 when Eq. (4)'s ``c`` would be negative);
            or ``"authors_code"``: the ``k``, per-release ``α'``, ``γ`` and re-shift of the
            authors' code (:mod:`reference.shariff_sheffet.authors_code`; ``gamma_mode`` is not
            read: the authors' shifted ``γ`` is Claim 20's intermediate bound).
        target_rho_min: move the shift so that ``ρ_min`` is this value (App. D.3):
            the Gaussian variant re-shifts its own bounds, the Wishart variants the unshifted ones
            (:func:`~reference.shariff_sheffet.bounds.reshifted_bounds`).
        pad: tree padding; the Wishart variants require ``"fresh"`` (R-PAD).
        reward_policy: what the private variants do with ``|y| > B̃``.
        tree: ``"dyadic"`` (default; :class:`~reference.tree.TreeAggregator`, the paper's tree)
            or ``"pan_private"`` (:class:`~reference.tree.PanPrivateTree`, the tree of the
            authors' code: exactly ``m`` draws in every release, so it needs ``pad="fresh"``,
            the default; ``pad`` is otherwise unused).  The factorized source has no tree
            (``"dyadic"`` only); ``"nonprivate"`` checks and ignores it.
    """
    rng = as_generator(rng)
    check_tree(variant, tree, pad)
    noise, bounds = regularizer_spec(
        variant,
        constants,
        n,
        alpha,
        privacy,
        rho=rho,
        gamma_mode=gamma_mode,
        pad=pad,
        calibration=calibration,
        target_rho_min=target_rho_min,
    )
    if noise is None:
        return ExactStatistics(constants, rho)
    if variant == "factorized":
        assert isinstance(noise, SymmetricGaussianNoise)
        blt = optimal_blt(max(released_steps(n), 2))
        return FactorizedStatistics(
            constants, blt, noise.sigma, bounds, rng, n=n, reward_policy=reward_policy
        )
    aggregator: TreeAggregator | PanPrivateTree = (
        PanPrivateTree(n, noise, rng)
        if tree == "pan_private"
        else TreeAggregator(n, noise, rng, pad=pad)
    )
    return TreeStatistics(constants, aggregator, bounds, reward_policy=reward_policy)


def check_tree(variant: Variant, tree: TreeMode, pad: PadMode = "fresh") -> TreeMode:
    """:func:`~reference.tree.check_tree_mode`, and ``"dyadic"`` for the factorized source (it has
    no tree); return ``tree``."""
    check_choice("variant", variant, SOURCES)
    check_tree_mode(tree, pad)
    if tree != "dyadic" and variant == "factorized":
        raise ValueError(
            "tree must be 'dyadic' for variant 'factorized' (its noise comes from a "
            f"factorization, not a tree), got tree={tree!r}"
        )
    return tree


def regularizer_spec(
    variant: Variant,
    constants: ProblemConstants,
    n: int,
    alpha: float,
    privacy: PrivacyParameters | None = None,
    *,
    rho: float = 1.0,
    gamma_mode: Literal["paper", "tight"] = "paper",
    pad: PadMode = "fresh",
    calibration: Calibration = "paper",
    target_rho_min: float | None = None,
) -> tuple[NodeNoise | None, RegularizerBounds]:
    """The node-noise law (``None`` for ``"nonprivate"``) and the bounds of a variant.

    For ``"factorized"`` the law is that of each ``z_t`` of the factorization mechanism and the
    bounds are :func:`~reference.shariff_sheffet.factorized.factorized_bounds`.

    What :func:`make_regularizer` builds its source from; the engine
    (:mod:`reference.engine`) reads the same law and bounds.  Arguments as there; every argument
    is checked, also those the variant does not read (``rho`` of a private variant...).
    """
    check_choice("variant", variant, SOURCES)
    check_instance("constants", constants, ProblemConstants)
    n = check_int_at_least("n", n, 1)
    alpha = check_alpha(alpha)
    if privacy is not None:
        check_instance("privacy", privacy, PrivacyParameters)
    check_positive("rho", rho)
    check_choice("gamma_mode", gamma_mode, ("paper", "tight"))
    check_choice("pad", pad, ("fresh", "none"))
    check_choice("calibration", calibration, CALIBRATIONS)
    if target_rho_min is not None:
        check_positive("target_rho_min", target_rho_min)
    if variant in OPT_VARIANTS and calibration != "authors_code":
        raise ValueError(
            f"variant {variant!r} exists only in the authors' code: it needs "
            f"calibration='authors_code', got calibration={calibration!r}"
        )
    if calibration == "authors_code" and variant != "nonprivate":
        return _authors_spec(variant, constants, n, alpha, privacy, pad, target_rho_min)
    if target_rho_min is not None:
        if variant == "nonprivate":
            raise ValueError("target_rho_min applies to the private variants only")
        base_variant: Variant = (
            variant if variant in ("gaussian", "factorized") else "wishart_unshifted"
        )
        noise, base = regularizer_spec(
            base_variant, constants, n, alpha, privacy, pad=pad, calibration=calibration
        )
        mechanism: Literal["wishart", "gaussian"] = (
            "gaussian" if variant in ("gaussian", "factorized") else "wishart"
        )
        return noise, reshifted_bounds(base, target_rho_min, mechanism)
    if variant == "nonprivate":
        return None, nonprivate_bounds(rho)
    if privacy is None:
        raise ValueError(f"privacy (epsilon, delta) is required for variant {variant!r}")
    d, L_tilde, m = constants.d, constants.L_tilde, tree_depth(n)
    if variant == "factorized":
        return _factorized_spec(constants, n, alpha, privacy, calibration)
    if calibration == "tight" and variant == "gaussian":
        sigma = gaussian_tight_noise_std(n, L_tilde, privacy.epsilon, privacy.delta)
        tight = gaussian_tight_bounds(d, n, L_tilde, privacy.epsilon, privacy.delta, alpha)
        return gaussian_node_noise(d, sigma), tight
    if variant == "gaussian":
        noise = gaussian_node_noise(
            d, gaussian_noise_std(m, L_tilde, privacy.epsilon, privacy.delta)
        )
        return noise, gaussian_bounds(d, m, L_tilde, privacy.epsilon, privacy.delta, n, alpha)
    if pad != "fresh":
        raise ValueError(
            "pad must be 'fresh' for the Wishart variants: Proposition 9 needs exactly m "
            f"node noises in every release (R-PAD), got pad={pad!r}"
        )
    if calibration == "tight":
        k = wishart_tight_degrees_of_freedom(d, n, privacy.epsilon, privacy.delta)
        bounds = wishart_tight_bounds(
            d,
            n,
            L_tilde,
            privacy.epsilon,
            privacy.delta,
            alpha,
            shifted=variant == "wishart",
            gamma_mode=gamma_mode,
        )
        return wishart_node_noise(d, k, L_tilde), bounds
    k = wishart_degrees_of_freedom(d, m, privacy.epsilon, privacy.delta)
    wishart = wishart_node_noise(d, k, L_tilde)
    if variant == "wishart":
        return wishart, wishart_shifted_bounds(d, m, k, L_tilde, n, alpha, gamma_mode=gamma_mode)
    return wishart, wishart_unshifted_bounds(d, m, k, L_tilde, n, alpha)


def _authors_spec(
    variant: Variant,
    constants: ProblemConstants,
    n: int,
    alpha: float,
    privacy: PrivacyParameters | None,
    pad: PadMode,
    target_rho_min: float | None,
) -> tuple[NodeNoise, RegularizerBounds]:
    """The node noise and bounds of ``variant`` with the constants of the authors' code.

    ``alpha`` is the confidence parameter of ``β_t`` (the authors': ``1/(2n)``,
    :func:`default_alpha`); the noise bounds are evaluated at the per-release
    :func:`~reference.shariff_sheffet.authors_code.authors_release_alpha`.
    """
    if variant == "factorized":
        raise ValueError(
            "calibration 'authors_code' has no factorized source (the authors' code has none); "
            "use calibration='tight' for variant 'factorized'"
        )
    if privacy is None:
        raise ValueError(f"privacy (epsilon, delta) is required for variant {variant!r}")
    if target_rho_min is not None and variant in OPT_VARIANTS:
        raise ValueError(
            f"target_rho_min fixes the shift, and variant {variant!r} chooses its own: pass "
            "variant 'gaussian' or 'wishart' with target_rho_min"
        )
    d, L_tilde, m = constants.d, constants.L_tilde, tree_depth(n)
    eps, dlt = privacy.epsilon, privacy.delta
    released = authors_release_alpha(alpha, n)
    mechanism: Literal["gaussian", "wishart"] = (
        "gaussian" if variant in ("gaussian", "gaussian_opt") else "wishart"
    )
    if mechanism == "gaussian":
        noise: NodeNoise = gaussian_node_noise(d, gaussian_noise_std(m, L_tilde, eps, dlt))
    else:
        if pad != "fresh":
            raise ValueError(
                "pad must be 'fresh' for the Wishart variants: Proposition 9 needs exactly m "
                f"node noises in every release (R-PAD), got pad={pad!r}"
            )
        noise = wishart_node_noise(d, authors_wishart_degrees_of_freedom(d, m, eps, dlt), L_tilde)
    base = authors_base_bounds(mechanism, d, n, L_tilde, eps, dlt, released)
    if target_rho_min is not None:
        return noise, authors_shifted(base, target_rho_min)
    if variant == "wishart":
        assert isinstance(noise, WishartNoise)
        k = noise.degrees_of_freedom
        return noise, authors_wishart_shifted_bounds(d, m, k, L_tilde, released)
    if variant in OPT_VARIANTS:
        target = authors_opt_rho_min(
            mechanism,
            d,
            n,
            L_tilde,
            eps,
            dlt,
            L=constants.L,
            S=constants.S,
            sigma=constants.sigma,
        )
        return noise, authors_shifted(base, target)
    return noise, base


def default_alpha(variant: Variant, n: int, calibration: Calibration = "paper") -> float:
    """The failure probability ``α`` of a run when the caller gives none.

    The paper's App. D: ``α = 1/n`` for every variant.  The authors' code (``make_alg``) gives the
    private variants ``α = 1/(2n)`` and the non-private one ``1/n``; ``calibration="authors_code"``
    follows it.  A given ``α`` is never replaced.
    """
    check_choice("variant", variant, SOURCES)
    n = check_int_at_least("n", n, 1)
    check_choice("calibration", calibration, CALIBRATIONS)
    if n < 2:
        raise ValueError(f"alpha = 1/n needs n >= 2, got n={n}; pass alpha explicitly")
    if calibration == "authors_code" and variant != "nonprivate":
        return authors_alpha(n)
    return 1.0 / n


def _factorized_spec(
    constants: ProblemConstants,
    n: int,
    alpha: float,
    privacy: PrivacyParameters,
    calibration: Calibration,
) -> tuple[NodeNoise, RegularizerBounds]:
    if calibration != "tight":
        raise ValueError(
            "calibration must be 'tight' for variant 'factorized' (it is calibrated by exact "
            f"accounting; the paper has no calibration for it), got {calibration!r}"
        )
    if n < 2:
        raise ValueError(f"n must be >= 2 for variant 'factorized', got {n}")
    released_steps(n)  # n <= 2**53, the horizons a strategy can be fitted to
    blt = optimal_blt(max(released_steps(n), 2))
    L_tilde, eps, dlt = constants.L_tilde, privacy.epsilon, privacy.delta
    sigma = factorized_noise_std(n, L_tilde, eps, dlt, blt)
    bounds = factorized_bounds(constants.d, n, L_tilde, eps, dlt, alpha, blt)
    return gaussian_node_noise(constants.d, sigma), bounds


def make_factorized_regularizer(
    constants: ProblemConstants,
    n: int,
    alpha: float,
    rng: np.random.Generator | SeedLike,
    privacy: PrivacyParameters,
    *,
    blt: BLT | None = None,
    reward_policy: RewardPolicy = "raise",
) -> FactorizedStatistics:
    """The factorized source at the least noise meeting ``privacy`` (module docstring).

    Args:
        constants: problem constants (``L̃`` from them).
        n: horizon, ``≥ 2``.
        alpha: failure probability of the accuracy bounds, in ``(0, 1)``.
        rng: generator of the mechanism noise.
        privacy: the target ``(ε, δ)``.
        blt: the strategy; default :func:`~reference.factorization.optimal_blt` at ``n − 1``.
        reward_policy: what to do with ``|y| > B̃``.
    """
    generator = as_generator(rng)
    check_instance("constants", constants, ProblemConstants)
    check_instance("privacy", privacy, PrivacyParameters)
    blt = _strategy(n, blt)
    sigma = factorized_noise_std(n, constants.L_tilde, privacy.epsilon, privacy.delta, blt)
    bounds = factorized_bounds(
        constants.d, n, constants.L_tilde, privacy.epsilon, privacy.delta, alpha, blt
    )
    return FactorizedStatistics(
        constants, blt, sigma, bounds, generator, n=n, reward_policy=reward_policy
    )
