"""Algorithm 2 (TreeBasedAgg) of Agarwal & Singh and Lemma 3.3: padded tree aggregation of losses.

Agarwal & Singh (ICML 2017): Algorithm 2, Lemma 3.3, Theorem A.1, Algorithm 1, lines 2-3.  The
binary mechanism is :class:`reference.tree.TreeAggregator` with ``pad="none"``; every released
prefix then gets ``r_t = ⌈log T⌉ − |S_t|`` fresh draws of the node law (Algorithm 2, lines 4–6), so
its noise is the sum of exactly ``K = max(1, ⌈log₂ T⌉)`` i.i.d. draws (Lemma 3.3 "Distribution").
Logs inside the Laplace scale ``λ = ‖Y‖₁ log T / ε`` are configurable (``log_base``).

Proof note: ``proofs_notes/agarwal_singh/alg2_lemma33_tree.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias, get_args

import numpy as np
from scipy import optimize, special, stats

from reference._typing import FloatArray
from reference.accounting.laplace import laplace_tree_epsilon_0_for
from reference.noise import NodeNoise
from reference.rng import SeedLike, as_generator
from reference.tree import Node, TreeAggregator, dyadic_decomposition, nodes_used_by_leaf
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
    "Calibration",
    "LogBase",
    "PaddedRelease",
    "ReleaseView",
    "TreeBasedAggregation",
    "laplace_scale_tree",
    "laplace_scale_tree_paper",
    "laplace_scale_tree_strict",
    "laplace_scale_tree_tight",
    "laplace_sum_chernoff_sf",
    "laplace_sum_ppf",
    "laplace_sum_sf",
    "laplace_tree_node_max_loss",
    "lemma33_uniform_error_bound",
    "log_T",
    "nodes_per_leaf",
    "noise_draws_per_release",
    "padding_count",
    "prefix_noise_shared_draws",
    "prefix_noise_variance",
]

LogBase: TypeAlias = Literal["e", "2"]
"""Base of the ``log T`` in the paper's Laplace scale (the paper gives none)."""

Calibration: TypeAlias = Literal["strict", "paper"]
"""``"strict"``: replace-one (diameter) sensitivity and exact node count; ``"paper"``: as printed."""

ReleaseView: TypeAlias = Literal["actions", "prefix_sums"]
"""What is protected: the actions ``x_1..x_T`` (they use ``L̃_0..L̃_{T−1}``) or ``L̃_1..L̃_T``."""


# --------------------------------------------------------------------------------------------
# Counting: K, r_t, h
# --------------------------------------------------------------------------------------------


def noise_draws_per_release(T: int) -> int:
    """``K = max(1, ⌈log₂ T⌉)``: the number of i.i.d. ``D`` draws in every released ``L̃_t``.

    Paper: ``⌈log T⌉`` in Alg. 1, lines 2–3, Alg. 2, line 4, Lemma 3.3.  Exact
    integer arithmetic (``⌈log₂ T⌉ = (T − 1).bit_length()``); ``max(1, ·)`` repairs ``T = 1`` where
    ``⌈log 1⌉ = 0`` would make ``L̃_0`` noise-free.
    """
    T = check_int_at_least("T", T, 1)
    return max(1, (T - 1).bit_length())


def padding_count(t: int, T: int) -> int:
    """``r_t = K − |S_t|`` (Alg. 2, line 4), with ``|S_t| = popcount(t)`` nodes in the prefix.

    Defined for ``0 ≤ t ≤ T``; never negative because ``popcount(t) ≤ ⌈log₂ T⌉`` for ``t ≤ T``
    (``t < 2^K`` unless ``t = T = 2^K``, whose popcount is 1).
    """
    T = check_int_at_least("T", T, 1)
    t = check_int_at_least("t", t, 0)
    if t > T:
        raise ValueError(f"t must be in [0, T] = [0, {T}], got {t}")
    r = noise_draws_per_release(T) - len(dyadic_decomposition(t))
    if r < 0:  # pragma: no cover - impossible by the argument above
        raise RuntimeError(f"negative padding count r_{t} = {r}")
    return r


def nodes_per_leaf(T: int, view: ReleaseView = "actions") -> int:
    """``h``: the largest number of *used* tree nodes containing one leaf.

    A change of ``l_{t₀}`` moves exactly these node values, so the node-level privacy loss
    composes over ``h`` Laplace mechanisms.  Leaf 1 is the worst case (checked by enumeration in
    the tests).  ``view="actions"``: releases ``L̃_0..L̃_{T−1}`` (what the actions ``x_1..x_T`` use,
    Def. 2.1 / Remark 2.2), ``h = ⌈log₂ T⌉`` (0 for ``T = 1``); ``view="prefix_sums"``: releases
    ``L̃_1..L̃_T`` (the object of Lemma 3.3), ``h = ⌊log₂ T⌋ + 1``.
    Computed with :func:`reference.tree.nodes_used_by_leaf`.
    """
    check_choice("view", view, get_args(ReleaseView))
    T = check_int_at_least("T", T, 1)
    if view == "actions":
        return len(nodes_used_by_leaf(1, T))
    if view == "prefix_sums":
        return len(nodes_used_by_leaf(1, T + 1))
    raise ValueError(f"view must be 'actions' or 'prefix_sums', got {view!r}")


# --------------------------------------------------------------------------------------------
# Laplace calibration of the tree (Thm 3.1, Lemma 3.3, Cor. 3.2)
# --------------------------------------------------------------------------------------------


def log_T(T: int, base: LogBase = "e") -> float:
    """``log T`` in the given base (``"e"``: natural log, ``"2"``: base 2) -- the paper's ``log T``."""
    check_choice("base", base, get_args(LogBase))
    T = check_int_at_least("T", T, 1)
    if base == "e":
        return math.log(T)
    if base == "2":
        return math.log2(T)
    raise ValueError(f"log_base must be 'e' or '2', got {base!r}")


def laplace_scale_tree_paper(
    epsilon: float, T: int, Y_l1_radius: float, log_base: LogBase = "e"
) -> float:
    """The paper's node scale ``λ = ‖Y‖₁ log T / ε`` (Thm 3.1, Lemma 3.3).

    ``‖Y‖₁ = max_{l∈Y} ‖l‖₁`` is the *radius* of the loss set.  This is not a sufficient
    calibration for Definition 2.1 (replace-one) when ``Y`` is symmetric: the privacy
    actually achieved is :func:`laplace_tree_node_max_loss` of the returned scale.  Requires
    ``T ≥ 2`` (``log 1 = 0``).
    """
    check_choice("log_base", log_base, get_args(LogBase))
    epsilon = check_epsilon(epsilon)
    T = check_int_at_least("T", T, 2)
    Y_l1_radius = check_positive("Y_l1_radius", Y_l1_radius)
    return Y_l1_radius * log_T(T, log_base) / epsilon


def laplace_scale_tree_strict(
    epsilon: float, T: int, Y_l1_diameter: float, view: ReleaseView = "actions"
) -> float:
    """The replace-one calibration ``λ = Δ₁(Y) · max(h, 1) / ε``.

    ``Δ₁(Y) = sup_{l,l'∈Y} ‖l − l'‖₁`` and ``h = nodes_per_leaf(T, view)``: the vector of used noisy
    node values is a product of ``h`` Laplace mechanisms in the changed leaf, each with ℓ₁
    sensitivity ``≤ Δ₁``, so it is ``h·Δ₁/λ = ε``-DP; releases and actions are post-processing
    (padding is data-independent).
    """
    check_choice("view", view, get_args(ReleaseView))
    epsilon = check_epsilon(epsilon)
    T = check_int_at_least("T", T, 1)
    Y_l1_diameter = check_positive("Y_l1_diameter", Y_l1_diameter)
    return Y_l1_diameter * max(nodes_per_leaf(T, view), 1) / epsilon


def laplace_scale_tree_tight(
    epsilon: float, delta: float, T: int, Y_l1_diameter: float, view: ReleaseView = "actions"
) -> float:
    """The least Laplace node scale whose tree is ``(ε, δ)``-DP under replace-one.

    ``λ = Δ₁(Y)/ε₀`` with ``ε₀`` the largest per-node privacy whose ``h``-fold composition meets
    ``(ε, δ)`` by the pessimistic PLD accountant
    (:func:`reference.accounting.laplace.laplace_tree_epsilon_0_for`; one-coordinate changes, see
    proofs_notes ``shariff_sheffet/tight_wishart.md``).  At ``δ = 0`` this is
    :func:`laplace_scale_tree_strict`; the paper's Laplace algorithms claim pure ε, so ``δ > 0``
    is a different (weaker) guarantee chosen by the user.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_in_range("delta", delta, 0.0, 1.0, low_open=False, high_open=True)
    T = check_int_at_least("T", T, 1)
    Y_l1_diameter = check_positive("Y_l1_diameter", Y_l1_diameter)
    h = max(nodes_per_leaf(T, view), 1)
    return Y_l1_diameter / laplace_tree_epsilon_0_for(epsilon, delta, nodes=h)


def laplace_scale_tree(
    epsilon: float,
    T: int,
    *,
    Y_l1_radius: float,
    Y_l1_diameter: float,
    mode: Calibration = "strict",
    log_base: LogBase = "e",
    view: ReleaseView = "actions",
) -> float:
    """Node Laplace scale for Algorithm 2, ``mode="strict"`` (default) or ``"paper"``.

    The default is ``"strict"`` because Definition 2.1 is replace-one: neighbouring
    sequences may replace ``l_{t₀}`` by any ``l'_{t₀} ∈ Y``, so the sensitivity is the diameter
    ``Δ₁(Y)``, twice the radius ``‖Y‖₁`` the paper uses for every symmetric ``Y`` of Table 1, and
    the composition is over the exact node count ``h``, not the real number ``log T``.
    """
    check_choice("mode", mode, get_args(Calibration))
    # both are validated whichever mode reads them: an invalid argument is never silently ignored
    check_positive("Y_l1_radius", Y_l1_radius)
    check_positive("Y_l1_diameter", Y_l1_diameter)
    if mode == "strict":
        return laplace_scale_tree_strict(epsilon, T, Y_l1_diameter, view)
    if mode == "paper":
        return laplace_scale_tree_paper(epsilon, T, Y_l1_radius, log_base)
    raise ValueError(f"mode must be 'strict' or 'paper', got {mode!r}")


def laplace_tree_node_max_loss(
    scale: float, T: int, Y_l1_diameter: float, view: ReleaseView = "actions"
) -> float:
    """Exact node-level maximum privacy loss ``ε_node = h · Δ₁(Y) / λ`` of the tree: its pure ε,
    the ``δ = 0`` end of :func:`reference.accounting.laplace.laplace_tree_epsilon` at
    ``ε₀ = Δ₁(Y)/λ`` and ``h`` nodes (computed as ``h·Δ₁/λ``, which is 0 when no node is used).

    Tight: for ``t₀ = 1`` and neighbours at ℓ₁ distance ``Δ₁`` the event "every used node above
    its mean" has probability ratio exactly ``e^{ε_node}``.
    """
    check_choice("view", view, get_args(ReleaseView))
    scale = check_positive("scale", scale)
    Y_l1_diameter = check_positive("Y_l1_diameter", Y_l1_diameter)
    return nodes_per_leaf(T, view) * Y_l1_diameter / scale


# --------------------------------------------------------------------------------------------
# Lemma 3.3 "Distribution": Z_t ~ sum of K i.i.d. node draws
# --------------------------------------------------------------------------------------------


def prefix_noise_variance(node_variance: float, T: int) -> float:
    """Per-coordinate variance of ``Z_t`` for every ``t ∈ [0, T]``: ``K · Var(D)``.

    Laplace(λ): ``Var(D) = 2λ²``; Gaussian ``N(0, σ²)``: ``σ²`` (Thm A.1).
    """
    node_variance = check_positive("node_variance", node_variance)
    return noise_draws_per_release(T) * node_variance


def prefix_noise_shared_draws(s: int, t: int) -> int:
    """Number of node draws shared by ``Z_s`` and ``Z_t`` for ``s ≠ t``: ``|S_s ∩ S_t|``.

    Padding draws are fresh, so ``Cov(Z_s, Z_t) = |S_s ∩ S_t| · Cov(D)``; for
    ``s = t`` use :func:`prefix_noise_variance` instead (this returns ``popcount(t)`` then).
    """
    s = check_int_at_least("s", s, 0)
    t = check_int_at_least("t", t, 0)
    return len(set(dyadic_decomposition(s)) & set(dyadic_decomposition(t)))


def laplace_sum_sf(a: float, K: int, scale: float) -> float:
    """Exact ``P(W > a)`` for ``W`` the sum of ``K`` i.i.d. ``Laplace(0, scale)`` draws.

    ``W = G₁ − G₂`` with ``G_i ~ Gamma(K, scale)`` independent; integrating the density
    ``f(y) = e^{−y} Σ_{j<K} C(K−1+j, j) y^{K−1−j} / ((K−1−j)! 2^{K+j})`` (unit scale, ``y ≥ 0``)
    gives, for ``a ≥ 0``,

        P(W > a) = Σ_{j=0}^{K−1} C(K−1+j, j) 2^{−(K+j)} Q(K − j, a/scale),

    ``Q`` the regularised upper incomplete gamma function; ``P(W > a) = 1 − P(W > −a)`` for
    ``a < 0`` (symmetry).  At ``a = 0`` the sum is 1/2.  Weights in log space (no overflow).
    """
    a = check_finite("a", a)
    K = check_size("K", K, 1)
    scale = check_positive("scale", scale)
    if a < 0:
        return 1.0 - laplace_sum_sf(-a, K, scale)
    x = a / scale
    total = 0.0
    for j in range(K):
        log_weight = (
            special.gammaln(K + j)
            - special.gammaln(j + 1)
            - special.gammaln(K)
            - (K + j) * math.log(2.0)
        )
        total += math.exp(log_weight) * float(special.gammaincc(K - j, x))
    return total


def laplace_sum_ppf(q: float, K: int, scale: float) -> float:
    """The ``q``-quantile of the sum of ``K`` i.i.d. ``Laplace(0, scale)`` draws (inverse of
    :func:`laplace_sum_sf` by Brent's method, absolute tolerance ``1e-12·scale``)."""
    q = check_alpha(q, "q")
    K = check_size("K", K, 1)
    scale = check_positive("scale", scale)
    if q == 0.5:
        return 0.0
    if q < 0.5:
        return -laplace_sum_ppf(1.0 - q, K, scale)
    tail = 1.0 - q
    upper = scale
    while laplace_sum_sf(upper, K, scale) > tail:
        upper *= 2.0
    root = optimize.brentq(
        lambda a: laplace_sum_sf(a, K, scale) - tail, 0.0, upper, xtol=1e-12 * scale
    )
    return float(root)


def laplace_sum_chernoff_sf(a: float, K: int, scale: float) -> float:
    """Chernoff bound ``P(W > a) ≤ (1 − s²λ²)^{−K} e^{−sa}`` at its optimum.

    The Laplace m.g.f. is ``1/(1 − s²λ²)`` for ``|s| < 1/λ``; minimising over ``s`` gives
    ``s = (√(K² + a²/λ²) − K)/a``.  Returns 1 for ``a ≤ 0``.
    """
    a = check_finite("a", a)
    K = check_size("K", K, 1)
    scale = check_positive("scale", scale)
    if a <= 0:
        return 1.0
    s = (math.sqrt(K**2 + (a / scale) ** 2) - K) / a
    log_bound = -K * math.log1p(-((s * scale) ** 2)) - s * a
    return min(1.0, math.exp(log_bound))


def lemma33_uniform_error_bound(
    *,
    node_law: Literal["laplace", "gaussian"],
    scale: float,
    T: int,
    N: int,
    releases: int,
    beta: float,
    method: Literal["exact", "chernoff", "chan_shi_song", "union"] = "exact",
) -> float:
    """A bound ``b`` with ``P(max_{t ≤ releases} ‖Z_t‖_∞ > b) ≤ β``.

    By Lemma 3.3 (Laplace) / Thm A.1 (Gaussian) every coordinate of every ``Z_t`` has
    the law of ``W``, the sum of ``K = ⌈log₂ T⌉`` i.i.d. node draws; a union bound over the ``N``
    coordinates and ``releases`` releases puts ``β' = β/(N·releases)`` on each scalar, split evenly
    between the two tails: ``b = F_W^{−1}(1 − β'/2)``.  ``method="exact"`` uses the exact law
    (:func:`laplace_sum_ppf`; Gaussian: ``σ√K Φ^{−1}(1 − β'/2)``); ``"chernoff"`` (Laplace only)
    uses the smallest ``a`` with :func:`laplace_sum_chernoff_sf` ``≤ β'/2`` (looser, closed-form
    tails); ``"chan_shi_song"`` (Laplace) the sum bound of Chan, Shi and Song (2011, Cor. 2.9),
    ``b = λ max(√K, √ln(2/β'))·√(8 ln(2/β'))`` with ``β' = β/(N·releases)``; ``"union"`` (Laplace)
    the crude bound over every scalar draw, ``b = Kλ ln(D/β)`` with ``D = N(2T + K·releases)`` an
    upper count of the draws (``≤ 2T`` node values, ``≤ K`` padding draws per release): every draw
    is within ``λ ln(D/β)`` with probability ``≥ 1 − β``.  ``scale`` is the Laplace ``λ`` or the
    Gaussian ``σ`` of one node.
    """
    check_choice("node_law", node_law, ("laplace", "gaussian"))
    check_choice("method", method, ("exact", "chernoff", "chan_shi_song", "union"))
    scale = check_positive("scale", scale)
    K = noise_draws_per_release(T)
    N = check_size("N", N, 1)
    releases = check_size("releases", releases, 1)
    beta = check_alpha(beta, "beta")
    per_tail = beta / (N * releases) / 2.0
    if node_law == "gaussian":
        if method != "exact":
            raise ValueError(f"method must be 'exact' for node_law='gaussian', got {method!r}")
        return float(scale * math.sqrt(K) * stats.norm.isf(per_tail))
    if node_law != "laplace":
        raise ValueError(f"node_law must be 'laplace' or 'gaussian', got {node_law!r}")
    if method == "exact":
        return laplace_sum_ppf(1.0 - per_tail, K, scale)
    if method == "chan_shi_song":
        log_term = math.log(2.0 / (2.0 * per_tail))  # ln(2/β'), β' = 2·per_tail
        return float(scale * max(math.sqrt(K), math.sqrt(log_term)) * math.sqrt(8.0 * log_term))
    if method == "union":
        draws = N * (2 * check_int_at_least("T", T, 1) + K * releases)
        return float(K * scale * math.log(draws / beta))
    if method == "chernoff":
        upper = scale
        while laplace_sum_chernoff_sf(upper, K, scale) > per_tail:
            upper *= 2.0
        root = optimize.brentq(
            lambda a: laplace_sum_chernoff_sf(a, K, scale) - per_tail,
            upper / 2.0,
            upper,
            xtol=1e-12 * scale,
        )
        return float(root)
    raise ValueError(f"method must be 'exact' or 'chernoff', got {method!r}")


# --------------------------------------------------------------------------------------------
# Algorithm 2: the padded tree
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PaddedRelease:
    """One output ``L̃_t`` of Algorithm 2 (or ``L̃_0`` of Alg. 1, lines 2–3).

    Attributes:
        t: the number of losses summed.
        value: ``L̃_t``.
        noise: ``Z_t = L̃_t − Σ_{s≤t} l_s`` (audits only; not a privacy output).
        nodes: the dyadic nodes ``S_t`` whose stored noise is reused.
        pad_terms: ``r_t``, the number of fresh padding draws (``0`` when padding is off).
    """

    t: int
    value: FloatArray
    noise: FloatArray
    nodes: tuple[Node, ...]
    pad_terms: int

    @property
    def noise_terms(self) -> int:
        """Number of ``D`` draws in ``noise``: ``K`` with padding, ``popcount(t)`` without."""
        return len(self.nodes) + self.pad_terms


def check_broadcast_loss(loss: object, shape: tuple[int, ...]) -> FloatArray:
    """A finite loss ``loss`` broadcast to ``shape`` (a tree's item shape, replicate axes first):
    its own shape must be a non-empty trailing part of ``shape``; ``ValueError`` naming ``loss``
    otherwise."""
    arr = check_array("loss", loss)
    if arr.ndim == 0 or arr.ndim > len(shape) or arr.shape != shape[len(shape) - arr.ndim :]:
        raise ValueError(
            f"loss must have shape {shape[-1:]} (or a trailing part of {shape}), got {arr.shape}"
        )
    return np.broadcast_to(arr, shape)


class TreeBasedAggregation:
    """Algorithm 2, ``TreeBasedAgg(l_t, B, t, D, T)``, with Alg. 1's ``L̃_0``.

    ``B`` is a :class:`reference.tree.TreeAggregator` of horizon ``T`` with ``pad="none"``
    (``PrivateSum``: node noise drawn once at completion and reused).  Each release adds
    ``r_t = K − popcount(t)`` fresh draws of ``D`` (Alg. 2, lines 4–6) when ``pad`` is True, so that
    ``Z_t`` is a sum of exactly ``K`` i.i.d. draws (Lemma 3.3).  ``pad=False`` gives the standard
    binary mechanism (``L̃_0 = 0``); the one-shot argument of Thm 3.4 (eq. (1)) then does not
    apply.

    Leading axes of ``noise.shape`` beyond the loss dimension act as independent replicates (the
    tree treats every entry alike), which vectorises Monte-Carlo runs.

    Args:
        T: horizon (``≥ 1``), fixes ``K``.
        noise: node law ``D`` (:class:`~reference.noise.LaplaceNoise`,
            :class:`~reference.noise.GaussianVectorNoise`, ...).
        rng: the generator for node and padding draws (the tree draws node noise from its
            :class:`~reference.rng.NoiseStreams` children; padding draws come from ``rng``'s own
            stream, independent of those children).
        pad: Alg. 2, lines 4–6 padding (default True).
    """

    def __init__(
        self, T: int, noise: NodeNoise, rng: np.random.Generator | SeedLike, *, pad: bool = True
    ) -> None:
        rng = as_generator(rng)
        self.T = check_int_at_least("T", T, 1)
        self.K = noise_draws_per_release(self.T)
        self.noise = check_instance("noise", noise, NodeNoise)
        self.pad = check_bool("pad", pad)
        self._rng = rng
        self._tree = TreeAggregator(self.T, noise, rng, pad="none")
        self._release: PaddedRelease | None = None

    @property
    def t(self) -> int:
        """Number of losses aggregated so far."""
        return self._tree.count

    def release(self) -> PaddedRelease:
        """``L̃_t`` for the current ``t`` (``t = 0``: Alg. 1, lines 2–3, a sum of ``K`` fresh draws).

        Computed once per ``t`` (its padding drawn once) and returned again until the next
        :meth:`step`.
        """
        if self._release is not None:
            return self._release
        base = self._tree.release()
        pad_terms = padding_count(base.count, self.T) if self.pad else 0
        noise = base.noise
        if pad_terms > 0:
            noise = noise + self.noise.sample_sum(self._rng, pad_terms)
        self._release = PaddedRelease(
            t=base.count,
            value=base.value + (noise - base.noise),
            noise=noise,
            nodes=base.nodes,
            pad_terms=pad_terms,
        )
        return self._release

    def step(self, loss: FloatArray) -> PaddedRelease:
        """Aggregate ``l_t`` (the next leaf) and return ``L̃_t`` (Alg. 1, line 7 / Alg. 3, line 7).

        ``loss`` is broadcast to ``noise.shape`` (one loss vector shared by all replicates): its
        shape is a trailing part of ``noise.shape``, e.g. ``(N,)``.  At most ``T`` steps.
        """
        item = check_broadcast_loss(loss, self._tree.shape)
        if self.t >= self.T:
            raise ValueError(
                f"at most T={self.T} losses can be aggregated (the horizon), got loss {self.T + 1}"
            )
        self._tree.insert(item)
        self._release = None
        return self.release()

    def exact_prefix(self) -> FloatArray:
        """``Σ_{s≤t} l_s`` (tests and audits only)."""
        return self._tree.exact_prefix()
