"""Every theorem, corollary and lemma of Agarwal & Singh as a function: parameters and bounds.

Statements as printed (Secs. 3-4, Apps. A-D); Lemma 3.3 is in :mod:`reference.agarwal_singh.aggregation`.
Noise scales come in two calibrations: ``"strict"`` (default; replace-one sensitivity, the diameter
``Δ``, composed over the exact number of noisy quantities: the claimed ε of Definition 2.1) and
``"paper"`` (the printed radius scale, ε-DP only at the returned ``eps_effective``).  Regret bounds
come as ``*_paper`` (the printed expression) and ``*_certified`` (the paper's proof with its gaps
repaired).  Natural logarithms.  Each result has its own note in ``proofs_notes/agarwal_singh/``;
the link below is the note of Algorithm 1 and Theorems 3.1 and 3.4.

Proof note: ``proofs_notes/agarwal_singh/alg1_thm31_thm34_ftrl.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, get_args

import numpy as np
from scipy import optimize, special

from reference._typing import FloatArray
from reference.accounting.gaussian import gaussian_delta
from reference.agarwal_singh.aggregation import (
    Calibration,
    LogBase,
    ReleaseView,
    laplace_scale_tree,
    laplace_tree_node_max_loss,
    nodes_per_leaf,
    noise_draws_per_release,
)
from reference.agarwal_singh.sets import (
    DecisionSet,
    LossSet,
    NegativeEntropySimplex,
    Regularizer,
    SquaredNormBall,
    SquaredNormCube,
    default_learning_rate,
)
from reference.noise import NodeNoise
from reference.rng import SeedLike, as_generator
from reference.tree import dyadic_decomposition
from reference.validation import (
    check_alpha,
    check_array,
    check_choice,
    check_delta,
    check_epsilon,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "BLOParameters",
    "Cor32Parameters",
    "Instance",
    "MABParameters",
    "cor32_parameters",
    "cor32_rate_paper",
    "cor32_regret_bound",
    "factC1_bound",
    "factC1_tail_probability",
    "factC1_threshold",
    "gaussian_output_level_sensitivity",
    "gaussian_tree_node_delta",
    "lemma42_effective_epsilon",
    "lemma42_laplace_scale",
    "lemma43_cross_term",
    "lemma44_condition_holds",
    "lemma44_regret_bound",
    "noise_width_monte_carlo",
    "noise_width_upper_bound",
    "table1_general_regret_bound",
    "thm31_laplace_scale",
    "thm31_regret_bound",
    "thm34_regret_bound_certified",
    "thm34_regret_bound_paper",
    "thm35_regret_bound_certified",
    "thm35_regret_bound_paper",
    "thm35_sigma",
    "thm35_sigma_strict",
    "thm41_parameters",
    "thm41_rate_paper",
    "thm41_regret_bound_proof_consistent",
    "thm41_regret_expression_paper",
    "thm45_parameters",
    "thm45_rate_paper",
    "thm45_regret_bound_certified",
    "thm45_regret_expression_paper",
    "thmA1_min_sigma",
]

Instance = Literal["experts", "sphere", "cube"]


# --------------------------------------------------------------------------------------------
# Theorems 3.1 and 3.4 (private FTRL)
# --------------------------------------------------------------------------------------------


def thm34_regret_bound_paper(D_R: float, G2_sum: float, D_Dprime: float) -> float:
    """Thm 3.4 as printed: ``√(D_R Σ_t G_t²) + D_{D'}``.

    ``G_t² = max_{x∈X} (‖l_t‖*_{∇²R(x)})²``, ``D_{D'} = E_{Z~D'}[max_X <Z,x> − min_X <Z,x>]``.  The
    leading constant 1 does not follow from the proof's steps; use
    :func:`thm34_regret_bound_certified` for checks.
    """
    D_R = check_positive("D_R", D_R)
    G2_sum = check_in_range("G2_sum", G2_sum, 0.0, math.inf, low_open=False)
    D_Dprime = check_in_range("D_Dprime", D_Dprime, 0.0, math.inf, low_open=False)
    return math.sqrt(D_R * G2_sum) + D_Dprime


def thm34_regret_bound_certified(D_R: float, G2_sum: float, eta: float, D_Dprime: float) -> float:
    """Explicit Thm 3.4 bound ``D_R/η + 2η Σ_t G_t² + D_{D'}``.

    From the proof: eq. (1) (one-shot noise, Sec. 3.1), FTL-BTL (eq. (2)-(3)) gives
    ``D_R/η + D_Z`` plus the stability sum, and the standard FTRL stability bound
    ``l_t(x̂_t) − l_t(x̂_{t+1}) ≤ 2η G_t²`` (Hazan 2016 Thm 5.2; for negative entropy valid when
    ``η ‖l_t‖_∞ ≤ 1``).  At ``η* = √(D_R/(2ΣG²))`` it equals ``2√(2 D_R ΣG²) + D_{D'}``.
    """
    D_R = check_positive("D_R", D_R)
    G2_sum = check_in_range("G2_sum", G2_sum, 0.0, math.inf, low_open=False)
    eta = check_positive("eta", eta)
    D_Dprime = check_in_range("D_Dprime", D_Dprime, 0.0, math.inf, low_open=False)
    return D_R / eta + 2.0 * eta * G2_sum + D_Dprime


def _check_loss_set(loss_set: object) -> None:
    if not isinstance(loss_set, LossSet):
        raise ValueError(f"loss_set must be a LossSet, got {loss_set!r:.80}")


def thm31_laplace_scale(
    epsilon: float,
    T: int,
    loss_set: LossSet,
    *,
    calibration: Calibration = "strict",
    log_base: LogBase = "e",
    view: ReleaseView = "actions",
) -> float:
    """Node scale ``λ`` for Thm 3.1: paper ``‖Y‖₁ log T/ε``; strict ``Δ₁(Y)·h/ε`` (default)."""
    _check_loss_set(loss_set)
    check_choice("calibration", calibration, get_args(Calibration))
    return laplace_scale_tree(
        epsilon,
        T,
        Y_l1_radius=loss_set.norm_radius(1),
        Y_l1_diameter=loss_set.diameter(1),
        mode=calibration,
        log_base=log_base,
        view=view,
    )


def thm31_regret_bound(D_R: float, G2_sum: float, D_Lap: float) -> float:
    """Thm 3.1: ``√(D_R Σ_t G_t²) + D_Lap`` -- Thm 3.4 with ``D = Lap^N(λ)``
    (``D_Lap`` = ``D_{D'}`` for that law).  Paper form; see :func:`thm34_regret_bound_certified`."""
    D_Lap = check_in_range("D_Lap", D_Lap, 0.0, math.inf, low_open=False)
    return thm34_regret_bound_paper(D_R, G2_sum, D_Lap)


def noise_width_upper_bound(instance: Instance, N: int, K: int, scale: float) -> float:
    """Closed-form upper bounds on ``D_{D'}`` for ``D = Lap^N(λ)``.

    ``Z`` is the sum of ``K`` i.i.d. ``Lap^N(λ)`` vectors.
    * experts (simplex): ``E[max_i Z_i − min_i Z_i] ≤ 2 E max_i |Z_i| ≤ 2Kλ H_N``
      (``H_N`` harmonic number = ``E max`` of ``N`` standard exponentials = ``E max_i |Lap(1)_i|``);
    * sphere (unit ball): ``2 E‖Z‖₂ ≤ 2√(E‖Z‖₂²) = 2λ√(2KN)``;
    * cube (unit cube): ``2 E‖Z‖₁ = 2N E|W| ≤ 2Nλ√(2K)``.
    """
    check_choice("instance", instance, get_args(Instance))
    N = check_size("N", N, 1)
    K = check_size("K", K, 1)
    scale = check_positive("scale", scale)
    if instance == "experts":
        harmonic = sum(1.0 / i for i in range(1, N + 1))
        return 2.0 * K * scale * harmonic
    if instance == "sphere":
        return 2.0 * scale * math.sqrt(2.0 * K * N)
    if instance == "cube":
        return 2.0 * N * scale * math.sqrt(2.0 * K)
    raise ValueError(f"instance must be 'experts', 'sphere' or 'cube', got {instance!r}")


def noise_width_monte_carlo(
    decision_set: DecisionSet,
    noise: NodeNoise,
    K: int,
    rng: np.random.Generator | SeedLike,
    n: int = 10_000,
    alpha: float = 1e-3,
) -> tuple[float, float]:
    """Monte-Carlo ``D_{D'} = E[h_X(Z) + h_X(−Z)]`` (``Z`` = sum of ``K`` node draws): returns
    ``(mean, one-sided (1−α) normal-approximation upper confidence bound)``.  ``noise.shape == (N,)``."""
    rng = as_generator(rng)
    check_instance("decision_set", decision_set, DecisionSet)
    check_instance("noise", noise, NodeNoise)
    if noise.shape != (decision_set.dim,):
        raise ValueError(f"noise.shape must be ({decision_set.dim},), got {noise.shape}")
    K = check_size("K", K, 1)
    n = check_size("n", n, 2, item_bytes=8 * decision_set.dim, what="a noise draw")
    alpha = check_alpha(alpha)
    draws = np.stack([noise.sample_sum(rng, K) for _ in range(n)])
    widths = decision_set.support(draws) + decision_set.support(-draws)
    mean = float(widths.mean())
    sem = float(widths.std(ddof=1)) / math.sqrt(n)
    return mean, mean + float(special.ndtri(1.0 - alpha)) * sem


# --------------------------------------------------------------------------------------------
# Corollary 3.2 (three instances)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cor32Parameters:
    """Everything fixed before the run for one Cor. 3.2 instance (all data-independent).

    Attributes:
        instance: ``"experts" | "sphere" | "cube"``.
        regularizer: ``R`` with its decision set.
        loss_set: ``Y``.
        lam: Laplace node scale ``λ``.
        K: draws per release.
        h: used nodes per leaf for the protected view.
        eta: learning rate ``η* = √(D_R/(2TG²))``.
        G2: ``sup_{l∈Y} G²`` (declared bound).
        eps_effective: exact node-level ε of ``λ`` (``= ε`` for strict; larger for paper).
        calibration: ``"strict"`` or ``"paper"``.
    """

    instance: Instance
    regularizer: Regularizer
    loss_set: LossSet
    lam: float
    K: int
    h: int
    eta: float
    G2: float
    eps_effective: float
    calibration: Calibration


def cor32_parameters(
    instance: Instance,
    N: int,
    T: int,
    epsilon: float,
    *,
    calibration: Calibration = "strict",
    log_base: LogBase = "e",
    view: ReleaseView = "actions",
    experts_losses: Literal["linf_ball", "box01"] = "linf_ball",
) -> Cor32Parameters:
    """Cor. 3.2 parameters.

    * experts: ``X = Δ_N``, ``R = Σ x_i log x_i``, ``Y = {‖l‖_∞ ≤ 1}`` (or ``[0,1]^N``); paper
      ``λ = N log T/ε``; ``G² = 1``, ``D_R = ln N``;
    * sphere: unit ball, ``R = ‖x‖²``, ``Y = {‖l‖₂ ≤ 1}``; paper ``λ = √N log T/ε``; ``G² = 1/2``,
      ``D_R = 1``;
    * cube: ``‖x‖_∞ ≤ 1``, ``R = ‖x‖²``, ``Y = {‖l‖₁ ≤ 1}``; paper ``λ = log T/ε``; ``G² = 1/2``,
      ``D_R = N``.
    Strict: ``λ = Δ₁(Y)·h/ε`` with ``Δ₁ = 2N, 2√N, 2`` (``N`` for ``[0,1]^N`` experts).
    """
    check_choice("instance", instance, get_args(Instance))
    check_choice("calibration", calibration, get_args(Calibration))
    N = check_int_at_least("N", N, 2 if instance == "experts" else 1)
    reg: Regularizer
    if instance == "experts":
        reg = NegativeEntropySimplex(N)
        loss_set = LossSet(experts_losses, N)
        G2 = 1.0
    elif instance == "sphere":
        reg = SquaredNormBall(N)
        loss_set = LossSet("l2_ball", N)
        G2 = 0.5
    elif instance == "cube":
        reg = SquaredNormCube(N)
        loss_set = LossSet("l1_ball", N)
        G2 = 0.5
    else:
        raise ValueError(f"instance must be 'experts', 'sphere' or 'cube', got {instance!r}")
    lam = thm31_laplace_scale(
        epsilon, T, loss_set, calibration=calibration, log_base=log_base, view=view
    )
    return Cor32Parameters(
        instance=instance,
        regularizer=reg,
        loss_set=loss_set,
        lam=lam,
        K=noise_draws_per_release(T),
        h=nodes_per_leaf(T, view),
        eta=default_learning_rate(reg.D_R, T, G2),
        G2=G2,
        eps_effective=laplace_tree_node_max_loss(lam, T, loss_set.diameter(1), view)
        if nodes_per_leaf(T, view) > 0
        else 0.0,
        calibration=calibration,
    )


def cor32_regret_bound(params: Cor32Parameters, T: int) -> float:
    """Certified Cor. 3.2 bound ``D_R/η + 2ηTG² + D̄_{D'}`` with ``D̄_{D'}`` the closed form of
    :func:`noise_width_upper_bound`: ``2√(2T D_R G²)`` + noise term at ``η*``."""
    check_instance("params", params, Cor32Parameters)
    T = check_int_at_least("T", T, 1)
    width = noise_width_upper_bound(
        params.instance, params.regularizer.decision_set.dim, params.K, params.lam
    )
    return thm34_regret_bound_certified(params.regularizer.D_R, T * params.G2, params.eta, width)


def table1_general_regret_bound(
    T: int,
    epsilon: float,
    *,
    N: int,
    D_R: float,
    G2: float,
    loss_l1_diameter: float,
    decision_linf_radius: float,
    view: ReleaseView = "actions",
) -> float:
    """Table 1's "general OLO" row made explicit (the paper suppresses the constants of ``X``, ``Y``).

    Algorithm 1 on a decision set ``X ⊂ ℝ^N`` with ``max_X ‖x‖_∞ ≤ r`` (``decision_linf_radius``), a
    regularizer of range ``D_R`` and ``G² ≥ sup G_t²``, losses of ``ℓ₁`` diameter
    ``Δ₁(Y) = sup ‖l − l'‖₁`` (``loss_l1_diameter``), strict ``λ = Δ₁ h/ε`` (``h`` used nodes per
    leaf) and ``η* = √(D_R/(2TG²))``: by Thm 3.4's certified form the regret is at most
    ``2√(2 D_R G² T) + 2 r N λ √(2K)`` (``K`` draws per release; ``max_X⟨Z,x⟩ − min_X⟨Z,x⟩ ≤
    2r‖Z‖₁`` and ``E‖Z‖₁ ≤ Nλ√(2K)``), i.e. ``O(√T + log^{3/2}T/ε)`` inside the row's
    ``O(√T + log²T/ε)``.  On the cube (``r = 1``) it equals :func:`cor32_regret_bound`; on the
    sphere it is looser (its width uses ``‖Z‖₂``); on the simplex it is sharper than Cor. 3.2's
    experts width for small ``N`` (which sums the ``K`` draws' maxima) and looser for large ``N``."""
    T = check_int_at_least("T", T, 2)
    eps = check_epsilon(epsilon)
    N = check_int_at_least("N", N, 1)
    D_R = check_positive("D_R", D_R)
    G2 = check_positive("G2", G2)
    diameter = check_positive("loss_l1_diameter", loss_l1_diameter)
    radius = check_positive("decision_linf_radius", decision_linf_radius)
    lam = diameter * nodes_per_leaf(T, view) / eps
    width = 2.0 * radius * N * lam * math.sqrt(2.0 * noise_draws_per_release(T))
    eta = default_learning_rate(D_R, T, G2)
    return thm34_regret_bound_certified(D_R, T * G2, eta, width)


def cor32_rate_paper(instance: Instance, N: int, T: int, epsilon: float) -> float:
    """The O(·) expressions of Cor. 3.2 with constant 1 (informational):
    experts ``√(T ln N) + N ln²T ln N/ε``, sphere ``√T + N ln²T/ε``, cube ``√(NT) + N ln²T/ε``."""
    check_choice("instance", instance, get_args(Instance))
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 2)
    epsilon = check_epsilon(epsilon)
    lt = math.log(T)
    if instance == "experts":
        return math.sqrt(T * math.log(N)) + N * lt**2 * math.log(N) / epsilon
    if instance == "sphere":
        return math.sqrt(T) + N * lt**2 / epsilon
    if instance == "cube":
        return math.sqrt(N * T) + N * lt**2 / epsilon
    raise ValueError(f"instance must be 'experts', 'sphere' or 'cube', got {instance!r}")


# --------------------------------------------------------------------------------------------
# Theorem 3.5 and Theorem A.1 (private FTPL, Gaussian)
# --------------------------------------------------------------------------------------------


def gaussian_tree_node_delta(
    epsilon: float, *, sigma: float, T: int, Y_l2_diameter: float, view: ReleaseView = "actions"
) -> float:
    """Exact node-level ``δ(ε)`` of the Gaussian tree: the used nodes containing one leaf form a
    Gaussian mechanism with ℓ₂ sensitivity ``√h·Δ₂(Y)`` and noise ``σ``, so ``δ(ε)`` is
    :func:`reference.accounting.gaussian.gaussian_delta` at ``μ = √h·Δ₂(Y)/σ``."""
    check_choice("view", view, get_args(ReleaseView))
    sigma = check_positive("sigma", sigma)
    Y_l2_diameter = check_positive("Y_l2_diameter", Y_l2_diameter)
    h = nodes_per_leaf(T, view)
    if h == 0:
        return 0.0
    return gaussian_delta(epsilon, mu=math.sqrt(h) * Y_l2_diameter / sigma)


def gaussian_output_level_sensitivity(
    T: int, Y_l2_diameter: float, sigma: float, view: ReleaseView = "actions"
) -> tuple[float, int]:
    """Exact output-level Gaussian sensitivity ``Δ_eff`` of the padded tree and its worst ``t₀``,
    for one coordinate direction (``N = 1`` or a change along one axis).

    The releases ``(L̃_t)_{t∈R}`` (``R = 1..T−1`` for ``view="actions"`` -- ``L̃_0`` carries no data --
    and ``1..T`` for ``"prefix_sums"``) are jointly ``N(μ, σ²Σ)`` with ``Σ = AAᵀ + diag(r_t)``, ``A``
    the release-by-node incidence of the dyadic sets ``S_t`` and ``r_t`` the fresh padding counts.
    Changing ``l_{t₀}`` by ``Δ₂`` shifts the mean by ``d = Δ₂·1[t ≥ t₀]``; the mechanism is then a
    Gaussian mechanism with ``μ = √(dᵀΣ⁻¹d)/σ`` (the Mahalanobis distance).  Maximised over ``t₀``
    with one inverse: ``dᵀΣ⁻¹d = Δ₂² Σ_{i,j ≥ t₀} (Σ⁻¹)_{ij}``.  Never larger than the node-level
    ``√h Δ₂/σ`` (post-processing).  Returns ``(Δ_eff, t₀)``; ``(0, 1)`` if no release carries data.
    """
    check_choice("view", view, get_args(ReleaseView))
    T = check_size("T", T, 1, item_bytes=8, power=2, what="the releases' covariance")
    Y_l2_diameter = check_positive("Y_l2_diameter", Y_l2_diameter)
    sigma = check_positive("sigma", sigma)
    if view == "actions":
        times = list(range(1, T))
    elif view == "prefix_sums":
        times = list(range(1, T + 1))
    else:
        raise ValueError(f"view must be 'actions' or 'prefix_sums', got {view!r}")
    if not times:
        return 0.0, 1
    K = noise_draws_per_release(T)
    nodes = sorted({node for t in times for node in dyadic_decomposition(t)})
    column = {node: i for i, node in enumerate(nodes)}
    A = np.zeros((len(times), len(nodes)))
    for row, t in enumerate(times):
        for node in dyadic_decomposition(t):
            A[row, column[node]] = 1.0
    pads = [K - len(dyadic_decomposition(t)) for t in times]
    inverse = np.linalg.inv(A @ A.T + np.diag(pads))
    # suffix sums over both axes: q[k] = sum_{i, j >= k} inverse[i, j]
    suffix = np.cumsum(np.cumsum(inverse[::-1, ::-1], axis=0), axis=1)[::-1, ::-1]
    quadratic = np.diag(suffix)
    k = int(np.argmax(quadratic))
    return Y_l2_diameter * math.sqrt(float(quadratic[k])) / sigma, times[k]


def thmA1_min_sigma(epsilon: float, delta: float, T: int, Y_l2: float) -> float:
    """Thm A.1: the smallest admissible ``σ = (‖Y‖₂/ε) log T log(log T/δ)`` (natural logs;
    ``T ≥ 3`` so that both logs are positive)."""
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    T = check_int_at_least("T", T, 3)
    Y_l2 = check_positive("Y_l2", Y_l2)
    return Y_l2 / epsilon * math.log(T) * math.log(math.log(T) / delta)


def thm35_sigma(epsilon: float, delta: float, T: int, N: int, Y_l2: float) -> float:
    """Thm 3.5: ``σ = max{ ‖Y‖₂ √(T/(√N log T)), (√N/ε) log T log(log T/δ) }``.

    The privacy branch uses ``√N`` where Thm A.1 needs ``‖Y‖₂``; when ``‖Y‖₂ > √N`` the
    returned σ can be below :func:`thmA1_min_sigma`.  The guarantee is (ε, δ)-DP, not ε-DP.
    """
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    T = check_int_at_least("T", T, 3)
    N = check_int_at_least("N", N, 1)
    Y_l2 = check_positive("Y_l2", Y_l2)
    lt = math.log(T)
    regret_branch = Y_l2 * math.sqrt(T / (math.sqrt(N) * lt))
    privacy_branch = math.sqrt(N) / epsilon * lt * math.log(lt / delta)
    return max(regret_branch, privacy_branch)


def thm35_sigma_strict(
    epsilon: float,
    delta: float,
    T: int,
    N: int,
    Y_l2_radius: float,
    Y_l2_diameter: float,
    view: ReleaseView = "actions",
) -> float:
    """Strict Thm 3.5 σ: ``max{‖Y‖₂√(T/(√N ln T)), σ_priv}`` with ``σ_priv`` the smallest σ whose
    exact node-level ``δ(ε)`` (:func:`gaussian_tree_node_delta`) is ``≤ δ``."""
    check_choice("view", view, get_args(ReleaseView))
    epsilon = check_epsilon(epsilon)
    delta = check_delta(delta)
    T = check_int_at_least("T", T, 3)
    N = check_int_at_least("N", N, 1)
    Y_l2_radius = check_positive("Y_l2_radius", Y_l2_radius)
    Y_l2_diameter = check_positive("Y_l2_diameter", Y_l2_diameter)
    regret_branch = Y_l2_radius * math.sqrt(T / (math.sqrt(N) * math.log(T)))
    h = max(nodes_per_leaf(T, view), 1)
    sensitivity = math.sqrt(h) * Y_l2_diameter
    # δ(ε) increases with μ = sensitivity/σ; find μ* with δ(ε, μ*) = δ.
    upper = 1.0
    while gaussian_delta(epsilon, mu=upper) < delta:
        upper *= 2.0
    mu_star = optimize.brentq(
        lambda mu: gaussian_delta(epsilon, mu=mu) - delta, 1e-12, upper, xtol=1e-14
    )
    return max(regret_branch, sensitivity / float(mu_star))


def thm35_regret_bound_paper(sigma: float, N: int, T: int, X_l2: float, Y_l2: float) -> float:
    """App. A: ``σ√(N log T)‖X‖₂ + T‖X‖₂‖Y‖₂²/(2σ√(log T))`` (natural log)."""
    sigma = check_positive("sigma", sigma)
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 2)
    X_l2 = check_positive("X_l2", X_l2)
    Y_l2 = check_positive("Y_l2", Y_l2)
    lt = math.log(T)
    return sigma * math.sqrt(N * lt) * X_l2 + T * X_l2 * Y_l2**2 / (2.0 * sigma * math.sqrt(lt))


def thm35_regret_bound_certified(sigma: float, N: int, T: int, X_l2: float, Y_l2: float) -> float:
    """The same Gaussian-smoothing bound with the *actual* perturbation std ``σ_eff = σ√K``
    (``L̃_{t−1} − Σ_{s<t} l_s ~ N(0, Kσ²I)``, Thm A.1): ``σ_eff √N ‖X‖₂ + T‖X‖₂‖Y‖₂²/(2σ_eff)``.

    Derivation (Abernethy et al. 2014; one-shot argument of eq. (1)): over-estimation
    ``σ_eff E max_X <u,x> ≤ σ_eff ‖X‖₂ E‖u‖₂ ≤ σ_eff ‖X‖₂ √N``, divergence per round
    ``≤ ‖l_t‖₂² ‖X‖₂ √(2/π)/(2σ_eff)`` (the Gaussian-smoothed support function has Hessian norm
    ``≤ ‖X‖₂ √(2/π)/σ_eff``).
    """
    sigma = check_positive("sigma", sigma)
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 1)
    X_l2 = check_positive("X_l2", X_l2)
    Y_l2 = check_positive("Y_l2", Y_l2)
    sigma_eff = sigma * math.sqrt(noise_draws_per_release(T))
    return sigma_eff * math.sqrt(N) * X_l2 + T * X_l2 * Y_l2**2 / (2.0 * sigma_eff)


# --------------------------------------------------------------------------------------------
# Lemma 4.2 (privacy of the reduction), Lemma 4.3, Lemma 4.4, Fact C.1
# --------------------------------------------------------------------------------------------


def lemma42_laplace_scale(
    epsilon: float, B: float, Delta_B: float, calibration: Calibration = "strict"
) -> float:
    """Lemma 4.2: paper ``λ = B/ε`` with ``B ≥ max |<l, x̃_t>|/‖x̃_t‖_∞``; strict (default)
    ``λ = Δ_B/ε`` with ``Δ_B = sup |<l − l', x̃>|/‖x̃‖_∞ ≤ 2B`` the replace-one sensitivity.

    The forwarded scalar is ``<l^Fict_t + Z_t, x̃_t>`` with ``l^Fict_t`` supported on one coordinate
    of size ``<l_t, x̃_t>/x̃_{t,i*}`` (Sec. 4), a Laplace mechanism of ℓ₁ sensitivity ``≤ Δ_B``.
    """
    check_choice("calibration", calibration, get_args(Calibration))
    epsilon = check_epsilon(epsilon)
    B = check_positive("B", B)
    Delta_B = check_positive("Delta_B", Delta_B)
    if Delta_B > 2.0 * B * (1.0 + 1e-12):
        raise ValueError(f"Delta_B must be <= 2B = {2.0 * B}, got {Delta_B}")
    if calibration == "strict":
        return Delta_B / epsilon
    if calibration == "paper":
        return B / epsilon
    raise ValueError(f"calibration must be 'strict' or 'paper', got {calibration!r}")


def lemma42_effective_epsilon(scale: float, Delta_B: float) -> float:
    """Exact privacy of Alg. 4 with ``Lap^N(λ)`` noise: ``Δ_B/λ`` (attained for vertex actions)."""
    return check_positive("Delta_B", Delta_B) / check_positive("scale", scale)


def lemma43_cross_term(noise: FloatArray, actions: FloatArray, comparator: FloatArray) -> float:
    """``Σ_t <Z_t, x̃_t − x*>``: true-loss regret minus noisy-loss regret of one run (App. B).

    Lemma 4.3: for independent zero-mean ``Z_t`` (``x̃_t`` independent of ``Z_t``) its
    expectation is 0, so the expected regret on ``l_t`` equals that on ``l̃_t = l_t + Z_t``.
    ``noise`` and ``actions`` have shape ``(T, N)``, ``comparator`` ``(N,)``.
    """
    noise = check_array("noise", noise, ndim=2)
    actions = check_array("actions", actions, shape=noise.shape)
    comparator = check_array("comparator", comparator, shape=(noise.shape[1],))
    return float(np.sum(noise * (actions - comparator)))


def lemma44_regret_bound(
    gamma: float, T: int, N: int, eta: float, second_moment_sum: float
) -> float:
    """Lemma 4.4: ``2γT + log N/η + η E[Σ_t Σ_i p_t(i) <e_i, l̂_t>²]``.

    Valid when ``η|<e_i, l̂_t>| ≤ 1`` for all ``i, t`` (:func:`lemma44_condition_holds`).
    ``second_moment_sum`` is the expectation term; with ``l̂_t = (y_t/p_t(i_t))e_{i_t}`` it is
    ``Σ_t Σ_i y_{t,i}² ≤ T N max|y|²``.
    """
    gamma = check_in_range("gamma", gamma, 0.0, 1.0, high_open=False)
    T = check_int_at_least("T", T, 1)
    N = check_int_at_least("N", N, 2)
    eta = check_positive("eta", eta)
    second_moment_sum = check_in_range(
        "second_moment_sum", second_moment_sum, 0.0, math.inf, low_open=False
    )
    return 2.0 * gamma * T + math.log(N) / eta + eta * second_moment_sum


def lemma44_condition_holds(eta: float, gamma: float, N: int, feedback_bound: float) -> bool:
    """``η|l̂_t(i)| ≤ 1`` for uniform ``μ``: ``p_t(i) ≥ γ/N`` so ``|l̂_t(i)| ≤ N|y|/γ``; holds if
    ``η N feedback_bound ≤ γ`` (proof of Thm 4.1)."""
    eta = check_positive("eta", eta)
    gamma = check_in_range("gamma", gamma, 0.0, 1.0, high_open=False)
    N = check_int_at_least("N", N, 2)
    feedback_bound = check_positive("feedback_bound", feedback_bound)
    return eta * N * feedback_bound <= gamma


def factC1_threshold(scale: float, N: int, T: int) -> float:
    """Fact C.1: the threshold ``√10 λ log(NT)`` on ``‖Z‖_∞`` (natural log)."""
    scale = check_positive("scale", scale)
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 1)
    return math.sqrt(10.0) * scale * math.log(N * T)


def factC1_tail_probability(N: int, T: int) -> float:
    """Exact ``P(‖Z‖_∞ ≥ √10 λ ln(NT))`` for ``Z ~ Lap^N(λ)``: ``1 − (1 − (NT)^{−√10})^N``
    (independent coordinates, ``P(|Z_i| ≥ a) = e^{−a/λ}``); scale-free."""
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 1)
    p = (N * T) ** (-math.sqrt(10.0))
    return -math.expm1(N * math.log1p(-p)) if p < 1 else 1.0


def factC1_bound(T: int) -> float:
    """Fact C.1's claimed bound ``1/T²``."""
    T = check_int_at_least("T", T, 1)
    return 1.0 / T**2


# --------------------------------------------------------------------------------------------
# Theorem 4.1 (private adversarial MAB)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MABParameters:
    """Thm 4.1 parameters.

    Attributes:
        lam: Laplace scale ``λ`` of the reduction.
        eta, gamma: EXP2 learning rate and mixing coefficient (``μ`` uniform).
        condition_ratio: ``ηN(1 + 4λ ln NT)/γ`` -- the proof needs ``≤ 1``.
        eps_effective: exact privacy ``Δ_B/λ``.
        calibration, preset: which choices produced them.
    """

    lam: float
    eta: float
    gamma: float
    condition_ratio: float
    eps_effective: float
    calibration: Calibration
    preset: Literal["paper", "proof_consistent"]


def thm41_parameters(
    N: int,
    T: int,
    epsilon: float,
    *,
    preset: Literal["paper", "proof_consistent"] = "proof_consistent",
    calibration: Calibration = "strict",
    loss_range: Literal["01", "sym"] = "01",
) -> MABParameters:
    """Thm 4.1 parameters for ``‖l_t‖_∞ ≤ 1``.

    ``λ``: paper ``1/ε`` (``B = 1``); strict ``Δ_B/ε`` with ``Δ_B = 1`` for ``[0,1]`` losses and
    ``2`` for ``[−1,1]`` losses.  ``preset="paper"``:
    ``η = √(ln N/(2NT(1 + 2λ² ln NT)))``, ``γ = ηN√(1 + 2λ² ln NT)`` -- violates the proof's
    condition ``ηN(1 + 4λ ln NT) ≤ γ``.  ``preset="proof_consistent"`` (default):
    ``c_Z = 4λ ln NT``, ``C = 2(1 + 10λ² ln² NT) + 2(1 + c_Z)``, ``η = √(ln N/(TNC))``,
    ``γ = ηN(1 + c_Z)``; raises if ``γ > 1`` (``T`` too small).
    """
    check_choice("preset", preset, ("paper", "proof_consistent"))
    check_choice("calibration", calibration, get_args(Calibration))
    check_choice("loss_range", loss_range, ("01", "sym"))
    N = check_int_at_least("N", N, 2)
    T = check_int_at_least("T", T, 1)
    epsilon = check_epsilon(epsilon)
    check_choice("loss_range", loss_range, ("01", "sym"))
    Delta_B = 1.0 if loss_range == "01" else 2.0
    lam = lemma42_laplace_scale(epsilon, 1.0, Delta_B, calibration)
    log_nt = math.log(N * T)
    if preset == "paper":
        factor = 1.0 + 2.0 * lam**2 * log_nt
        eta = math.sqrt(math.log(N) / (2.0 * N * T * factor))
        gamma = eta * N * math.sqrt(factor)
    elif preset == "proof_consistent":
        c_Z = 4.0 * lam * log_nt
        C = 2.0 * (1.0 + 10.0 * lam**2 * log_nt**2) + 2.0 * (1.0 + c_Z)
        eta = math.sqrt(math.log(N) / (T * N * C))
        gamma = eta * N * (1.0 + c_Z)
    else:
        raise ValueError(f"preset must be 'paper' or 'proof_consistent', got {preset!r}")
    if not 0.0 < gamma <= 1.0:
        raise ValueError(
            f"gamma = {gamma:.4g} must be in (0, 1]: T = {T} is too small for N = {N}, "
            f"epsilon = {epsilon}"
        )
    return MABParameters(
        lam=lam,
        eta=eta,
        gamma=gamma,
        condition_ratio=eta * N * (1.0 + 4.0 * lam * log_nt) / gamma,
        eps_effective=lemma42_effective_epsilon(lam, Delta_B),
        calibration=calibration,
        preset=preset,
    )


def thm41_regret_bound_proof_consistent(N: int, T: int, scale: float) -> float:
    """Certified ``E[Regret] ≤ 2√(TN ln N · C) + 2``, ``C = 2(1 + 10λ² ln² NT) + 2(1 + 4λ ln NT)``,
    valid for the ``proof_consistent`` parameters of :func:`thm41_parameters`.

    The paper's chain (Sec. 4.1) under ``F̄``: ``ln N/η + η Σ N‖l̃_t‖_∞² + 2Tγ`` with
    ``‖l̃_t‖_∞² ≤ 2(1 + 10λ² ln² NT)`` and ``γ = ηN(1 + c_Z)`` gives ``ln N/η + ηTNC``; minimised by
    ``η = √(ln N/(TNC))``.  Bad event ``F`` (Fact C.1): ``P(F) ≤ 1/T`` times regret ``≤ 2T``.
    """
    N = check_int_at_least("N", N, 2)
    T = check_int_at_least("T", T, 1)
    scale = check_positive("scale", scale)
    log_nt = math.log(N * T)
    C = 2.0 * (1.0 + 10.0 * scale**2 * log_nt**2) + 2.0 * (1.0 + 4.0 * scale * log_nt)
    return 2.0 * math.sqrt(T * N * math.log(N) * C) + 2.0


def thm41_regret_expression_paper(N: int, T: int, eta: float, gamma: float, scale: float) -> float:
    """The paper's penultimate line (Sec. 4.1): ``ln N/η + 2ηTN(1 + λ² ln² NT) + 2Tγ`` plus the
    bad-event term 1 (Sec. 4.1).  Informational: its precondition fails for the paper preset."""
    N = check_int_at_least("N", N, 2)
    T = check_int_at_least("T", T, 1)
    eta = check_positive("eta", eta)
    gamma = check_in_range("gamma", gamma, 0.0, 1.0, high_open=False)
    scale = check_positive("scale", scale)
    log_nt = math.log(N * T)
    return (
        math.log(N) / eta + 2.0 * eta * T * N * (1.0 + scale**2 * log_nt**2) + 2.0 * T * gamma + 1.0
    )


def thm41_rate_paper(N: int, T: int, epsilon: float) -> float:
    """Thm 4.1's stated rate ``√(NT log T log N)/ε`` with constant 1 (the last step of the
    proof is wrong, the proof-consistent rate has ``log(NT)`` in place of ``√(log T)``)."""
    N = check_int_at_least("N", N, 2)
    T = check_int_at_least("T", T, 2)
    epsilon = check_epsilon(epsilon)
    return math.sqrt(N * T * math.log(T) * math.log(N)) / epsilon


# --------------------------------------------------------------------------------------------
# Theorem 4.5 (private bandit linear optimisation) -- parameters and bounds only
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BLOParameters:
    """Thm 4.5 parameters.

    Attributes:
        lam: Laplace scale.
        eta: the step used (``min(eta_paper, eta_max)`` for ``preset="clipped"``).
        eta_paper: ``√(ν ln T/(2N²T(M² + λ²N‖X‖₂²)))`` (Theorem 4.5).
        eta_max: ``1/(4N(M + L))`` required by the proof (App. D).
        L: ``4λ‖X‖₂√N ln NT``.
        clipped: whether ``eta < eta_paper``.
        condition_holds: ``eta ≤ eta_max``.
        eps_effective: ``Δ_B/λ``.
    """

    lam: float
    eta: float
    eta_paper: float
    eta_max: float
    L: float
    clipped: bool
    condition_holds: bool
    eps_effective: float


def thm45_parameters(
    N: int,
    T: int,
    epsilon: float,
    *,
    nu: float,
    M: float,
    X_l2: float,
    Y_l1: float,
    preset: Literal["paper", "clipped"] = "clipped",
    calibration: Calibration = "strict",
    Delta_B: float | None = None,
) -> BLOParameters:
    """Thm 4.5: ``λ`` paper ``‖Y‖₁/ε`` (Hölder, App. D), strict ``Δ_B/ε``
    (``Δ_B`` defaults to ``2‖Y‖₁``, its bound for a symmetric ``Y``); step ``η`` as printed, and
    ``preset="clipped"`` (default) ``η = min(η_paper, η_max)`` since ``η ≤ 1/(4N(M+L))`` holds only
    for large ``T``."""
    check_choice("preset", preset, ("paper", "clipped"))
    check_choice("calibration", calibration, get_args(Calibration))
    N = check_size("N", N, 1)
    T = check_size("T", T, 2)
    nu = check_positive("nu", nu)
    M = check_positive("M", M)
    X_l2 = check_positive("X_l2", X_l2)
    Y_l1 = check_positive("Y_l1", Y_l1)
    Delta = 2.0 * Y_l1 if Delta_B is None else check_positive("Delta_B", Delta_B)
    lam = lemma42_laplace_scale(epsilon, Y_l1, Delta, calibration)
    eta_paper = math.sqrt(nu * math.log(T) / (2.0 * N**2 * T * (M**2 + lam**2 * N * X_l2**2)))
    L = 4.0 * lam * X_l2 * math.sqrt(N) * math.log(N * T)
    eta_max = 1.0 / (4.0 * N * (M + L))
    if preset == "paper":
        eta = eta_paper
    elif preset == "clipped":
        eta = min(eta_paper, eta_max)
    else:
        raise ValueError(f"preset must be 'paper' or 'clipped', got {preset!r}")
    return BLOParameters(
        lam=lam,
        eta=eta,
        eta_paper=eta_paper,
        eta_max=eta_max,
        L=L,
        clipped=eta < eta_paper,
        condition_holds=eta <= eta_max,
        eps_effective=lemma42_effective_epsilon(lam, Delta),
    )


def thm45_regret_bound_certified(
    N: int, T: int, nu: float, M: float, X_l2: float, scale: float, eta: float
) -> float:
    """Certified ``E[Regret] ≤ 4ηTN²C₄₅ + ν ln T/η + 2(M + L) + 2M``,
    ``C₄₅ = M² + 10λ²N ln²(NT)‖X‖₂²``, ``L = 4λ‖X‖₂√N ln NT``.

    Only valid when ``η ≤ 1/(4N(M + L))`` (the precondition of Thm D.1 on the noisy losses);
    raises ``ValueError`` otherwise.
    """
    N = check_size("N", N, 1)
    T = check_size("T", T, 2)
    nu = check_positive("nu", nu)
    M = check_positive("M", M)
    X_l2 = check_positive("X_l2", X_l2)
    scale = check_positive("scale", scale)
    eta = check_positive("eta", eta)
    log_nt = math.log(N * T)
    L = 4.0 * scale * X_l2 * math.sqrt(N) * log_nt
    if eta > 1.0 / (4.0 * N * (M + L)):
        raise ValueError(
            f"eta must be <= 1/(4N(M+L)) = {1.0 / (4.0 * N * (M + L)):.6g} for the bound, got {eta}"
        )
    C45 = M**2 + 10.0 * scale**2 * N * log_nt**2 * X_l2**2
    return 4.0 * eta * T * N**2 * C45 + nu * math.log(T) / eta + 2.0 * (M + L) + 2.0 * M


def thm45_regret_expression_paper(
    N: int, T: int, nu: float, M: float, X_l2: float, scale: float, eta: float
) -> float:
    """App. D's last explicit line: ``2ηTN²(M² + λ²N‖X‖₂²) + ν ln T/η +
    8λ‖X‖₂√N ln(NT) + 2M`` (informational; drops a factor 2 and eq. (11)'s ``10 ln² NT``)."""
    N = check_size("N", N, 1)
    T = check_size("T", T, 2)
    nu = check_positive("nu", nu)
    M = check_positive("M", M)
    X_l2 = check_positive("X_l2", X_l2)
    scale = check_positive("scale", scale)
    eta = check_positive("eta", eta)
    log_nt = math.log(N * T)
    return (
        2.0 * eta * T * N**2 * (M**2 + scale**2 * N * X_l2**2)
        + nu * math.log(T) / eta
        + 8.0 * scale * X_l2 * math.sqrt(N) * log_nt
        + 2.0 * M
    )


def thm45_rate_paper(
    N: int, T: int, epsilon: float, *, nu: float, M: float, X_l2: float, Y_l1: float
) -> float:
    """Thm 4.5's stated rate with constant 1:
    ``√(T ln T) √(N²ν(M² + N‖X‖₂²‖Y‖₁²/ε²))``."""
    N = check_int_at_least("N", N, 1)
    T = check_int_at_least("T", T, 2)
    epsilon = check_epsilon(epsilon)
    nu = check_positive("nu", nu)
    M = check_positive("M", M)
    X_l2 = check_positive("X_l2", X_l2)
    Y_l1 = check_positive("Y_l1", Y_l1)
    return math.sqrt(T * math.log(T)) * math.sqrt(
        N**2 * nu * (M**2 + N * X_l2**2 * Y_l1**2 / epsilon**2)
    )
