"""Constants of the algorithms of Sajed & Sheffet (ICML 2019), one function per pseudocode number.

The NAS Hoeffding radius (Sec. 3), the noise scales, radii ``h_t`` and shifts ``c_t`` of
Algorithms 1 and 2, the epoch schedule of Algorithm 3, and the DP-UCB width (a reconstruction).
Conventions (Sec. 2): ``log`` is natural; ``Lap(b)`` has density ``exp(-|x|/b)/(2b)``; ``range_R``
is the half-width ``R`` of the sample support; ``rounds_R_e`` is the epoch budget ``R_e`` of
Algorithm 3.  ``epsilon = math.inf`` gives the non-private limit where stated; every other bad
input raises :class:`ValueError`.

Proof note: ``proofs_notes/sajed_sheffet/alg3_dp_se_thm41.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from reference.tree import tree_depth
from reference.validation import (
    check_alpha,
    check_choice,
    check_epsilon,
    check_int_at_least,
    check_positive,
    check_size,
)

__all__ = [
    "DPNASNoiseScales",
    "EpochParameters",
    "check_epsilon_or_inf",
    "dp_exp_nas_c",
    "dp_exp_nas_h",
    "dp_exp_nas_threshold",
    "dp_nas_c",
    "dp_nas_h",
    "dp_nas_noise_scales",
    "dp_nas_threshold",
    "dpse_elimination_threshold",
    "dpse_epoch_gap",
    "dpse_epoch_parameters",
    "dpse_rounds",
    "dpucb_confidence_width",
    "dpucb_tree_epsilon",
    "hoeffding_radius",
    "nas_h",
]


def check_epsilon_or_inf(value: float, name: str = "epsilon") -> float:
    """Privacy parameter ε in ``(0, inf]``; ``math.inf`` selects the non-private limit."""
    if isinstance(value, int | float) and not isinstance(value, bool) and value == math.inf:
        return math.inf
    return check_epsilon(value, name)


def _check_beta(beta: float) -> float:
    return check_alpha(beta, "beta")


# --------------------------------------------------------------------------------------------
# Hoeffding (Sec. 2) and the non-private NAS rule (Sec. 3)
# --------------------------------------------------------------------------------------------


def hoeffding_radius(t: int, width: float, failure: float) -> float:
    """Radius ``a`` with ``2 exp(-2 a² t / w²) = failure``, i.e. ``a = w √(log(2/failure) / (2t))``.

    Hoeffding's inequality as stated in Sec. 2 for i.i.d. variables in an interval of
    length ``w`` (the paper calls the length ``R``; for the stopping-rule support ``[-R, R]`` the
    length is ``2R``): ``Pr[|X̄_t − μ| ≥ a] ≤ 2 exp(−2a²t/w²)``.
    """
    t = check_int_at_least("t", t, 1)
    w = check_positive("width", width)
    q = check_alpha(failure, "failure")
    return w * math.sqrt(math.log(2.0 / q) / (2.0 * t))


def nas_h(t: int, range_R: float, beta: float) -> float:
    """Confidence radius of the non-private NAS rule: ``h_t = R √((2/t) log(4t²/β))``.

    Sec. 3: "``h_t`` … derived by the Hoeffding bound with confidence ``1 − β/2t²`` for
    ``t`` i.i.d. random samples bounded in magnitude by ``R``".  The paper does not write the formula;
    Hoeffding with interval length ``2R`` and failure ``β/(2t²)`` gives it:
    ``2R √(log(4t²/β)/(2t)) = R √((2/t) log(4t²/β))``.  The union bound over ``t`` costs
    ``Σ_t β/(2t²) = β π²/12 ≤ β``.
    """
    t = check_int_at_least("t", t, 1)
    R = check_positive("range_R", range_R)
    b = _check_beta(beta)
    return R * math.sqrt((2.0 / t) * math.log(4.0 * t * t / b))


# --------------------------------------------------------------------------------------------
# Algorithm 1 (DP-NAS) and Algorithm 2 (DP exponential NAS)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DPNASNoiseScales:
    """Laplace scales of Algorithms 1 and 2, line 1: ``σ₁ = σ₂ = 12R/ε``, ``σ₃ = 4R/ε``.

    ``sigma1`` is the scale of the threshold noise ``B`` (drawn once), ``sigma2`` of the query noise
    ``A_t`` (fresh at every check), ``sigma3`` of the release noise ``L`` (drawn once, after halting).
    """

    sigma1: float
    sigma2: float
    sigma3: float


def dp_nas_noise_scales(range_R: float, epsilon: float) -> DPNASNoiseScales:
    """``(σ₁, σ₂, σ₃) = (12R/ε, 12R/ε, 4R/ε)`` (Algorithm 1/2 line 1, Algorithm 2, line 1).

    Origin (proof of Thm 3.1): the SVT on sum queries of sensitivity ``2R`` with budget ε/2
    uses ``Lap(3 · (2/ε) · 2R) = Lap(12R/ε)`` for threshold and query noise; the Laplace mechanism on
    the sum with budget ε/2 uses ``Lap((2/ε) · 2R) = Lap(4R/ε)``, i.e. ``L/t`` on the mean.
    """
    R = check_positive("range_R", range_R)
    eps = check_epsilon(epsilon)
    return DPNASNoiseScales(12.0 * R / eps, 12.0 * R / eps, 4.0 * R / eps)


def dp_nas_h(t: int, range_R: float, beta: float) -> float:
    """``h_t = R √((2/t) log(16t²/β))`` (Algorithm 1 line 8).

    Hoeffding with length ``2R`` gives ``Pr[|X̄_t − μ| > h_t] ≤ β/(8t²)``; summed over ``t`` with the
    paper's ``Σ t⁻² ≤ 2`` this is ``≤ β/4`` (proof of Thm 3.1).
    """
    t = check_int_at_least("t", t, 1)
    R = check_positive("range_R", range_R)
    b = _check_beta(beta)
    return R * math.sqrt((2.0 / t) * math.log(16.0 * t * t / b))


def dp_nas_c(t: int, range_R: float, epsilon: float, alpha: float, beta: float) -> float:
    """``c_t = σ₁ log(4/β) + σ₂ log(8t²/β) + (σ₃/α) log(4/β)`` (Algorithm 1 line 9).

    A data-independent shift of the SVT threshold; on the good event of Thm 3.1
    ``c_t ≥ |B| + |A_t| + |L|/α`` for every ``t`` (Sec. 3).
    """
    t = check_int_at_least("t", t, 1)
    a = check_alpha(alpha)
    b = _check_beta(beta)
    s = dp_nas_noise_scales(range_R, epsilon)
    return (
        s.sigma1 * math.log(4.0 / b)
        + s.sigma2 * math.log(8.0 * t * t / b)
        + (s.sigma3 / a) * math.log(4.0 / b)
    )


def dp_nas_threshold(t: int, range_R: float, epsilon: float, alpha: float, beta: float) -> float:
    """Noiseless halting threshold of Algorithm 1 on the mean: ``h_t (1 + 1/α) + c_t/t`` (line 10).

    Algorithm 1 halts at ``t`` iff ``|X̄_t| ≥ h_t(1 + 1/α) + (c_t + B + A_t)/t``; this is the right-hand
    side with ``B = A_t = 0`` (the golden table includes it).
    """
    a = check_alpha(alpha)
    return dp_nas_h(t, range_R, beta) * (1.0 + 1.0 / a) + dp_nas_c(
        t, range_R, epsilon, alpha, beta
    ) / float(t)


def dp_exp_nas_h(t: int, k: int, range_R: float, beta: float) -> float:
    """``h_t = R √((2/t) log(16k²/β))`` at the ``k``-th check ``t = 2^k`` (Algorithm 2 line 12).

    The log uses the check index ``k`` (union bound over checks, ``Pr ≤ β/(8k²)`` per check); the
    paper indexes the quantity by ``t`` although it depends on ``k``.  ``t`` is a
    separate argument so that the formula can be evaluated off the schedule; Algorithm 2 only uses
    ``t = 2^k``.
    """
    t = check_int_at_least("t", t, 1)
    k = check_int_at_least("k", k, 1)
    R = check_positive("range_R", range_R)
    b = _check_beta(beta)
    return R * math.sqrt((2.0 / t) * math.log(16.0 * k * k / b))


def dp_exp_nas_c(k: int, range_R: float, epsilon: float, alpha: float, beta: float) -> float:
    """``c = σ₁ log(4/β) + σ₂ log(8k²/β) + (σ₃/α) log(4/β)`` at check ``k`` (Algorithm 2 line 11)."""
    k = check_int_at_least("k", k, 1)
    a = check_alpha(alpha)
    b = _check_beta(beta)
    s = dp_nas_noise_scales(range_R, epsilon)
    return (
        s.sigma1 * math.log(4.0 / b)
        + s.sigma2 * math.log(8.0 * k * k / b)
        + (s.sigma3 / a) * math.log(4.0 / b)
    )


def dp_exp_nas_threshold(
    k: int, range_R: float, epsilon: float, alpha: float, beta: float
) -> float:
    """Noiseless halting threshold of Algorithm 2 at ``t = 2^k``: ``h(1 + 1/α) + c/t`` (line 13)."""
    a = check_alpha(alpha)
    k = check_int_at_least("k", k, 1)
    if k > 53:  # the check's sample count t = 2^k, a size (reference.validation.check_size)
        raise ValueError(f"k must be at most 53 (t = 2**k samples at most 2**53), got {k}")
    t = 2**k
    return dp_exp_nas_h(t, k, range_R, beta) * (1.0 + 1.0 / a) + dp_exp_nas_c(
        k, range_R, epsilon, alpha, beta
    ) / float(t)


# --------------------------------------------------------------------------------------------
# Algorithm 3 (DP Successive Elimination)
# --------------------------------------------------------------------------------------------


def dpse_epoch_gap(epoch: int) -> float:
    """``Δ_e = 2^(−epoch)`` (Algorithm 3 line 7): the gap epoch ``e`` is set to eliminate."""
    e = check_int_at_least("epoch", epoch, 1)
    return 2.0 ** (-e)


def dpse_rounds(n_viable: int, epoch: int, beta: float, epsilon: float) -> float:
    """Real-valued round budget ``R_e`` (Algorithm 3 line 8).

    ``R_e = max(32 log(8|S|e²/β)/Δ_e², 8 log(4|S|e²/β)/(ε Δ_e)) + 1`` with ``|S|`` the number of
    viable arms at the start of the epoch.  ``epsilon = inf`` drops the privacy term (non-private SE).
    """
    return dpse_epoch_parameters(n_viable, epoch, beta, epsilon).rounds_R_e


@dataclass(frozen=True)
class EpochParameters:
    """Every number Algorithm 3 computes for one epoch.

    Attributes:
        epoch: ``e`` (1-based).
        n_viable: ``|S|`` at the start of the epoch (``S`` does not change inside an epoch).
        gap: ``Δ_e = 2^(−e)`` (line 7).
        hoeffding_term: ``32 log(8|S|e²/β)/Δ_e²`` (first argument of the max in line 8).
        privacy_term: ``8 log(4|S|e²/β)/(ε Δ_e)`` (second argument; ``0`` when ``ε = inf``).
        rounds_R_e: ``R_e = max(…) + 1`` (line 8), a real number.
        rounds: ``r_e = ⌈R_e⌉``, the number of rounds the ``while r < R_e`` loop of lines 9-14 runs;
            each round pulls every viable arm once.
        h: ``h_e = √(log(8|S|e²/β)/(2R_e))`` (line 15; uses ``R_e``, not ``r_e``).
        c: ``c_e = log(4|S|e²/β)/(R_e ε)`` (line 16; ``0`` when ``ε = inf``).
        threshold: ``2h_e + 2c_e``: arm ``j`` is removed iff ``μ̃_max − μ̃_j > threshold`` (line 20).
        noise_scale: Laplace scale added to each mean in line 17: ``1/(ε r_e)`` (``noise_on="r"``,
            the pseudocode) or ``1/(ε R_e)`` (``noise_on="R_e"``, the proof of Thm 4.1); ``0`` when
            ``ε = inf``.
    """

    epoch: int
    n_viable: int
    gap: float
    hoeffding_term: float
    privacy_term: float
    rounds_R_e: float
    rounds: int
    h: float
    c: float
    threshold: float
    noise_scale: float


def dpse_epoch_parameters(
    n_viable: int, epoch: int, beta: float, epsilon: float, *, noise_on: str = "r"
) -> EpochParameters:
    """The parameters of epoch ``epoch`` of Algorithm 3 with ``|S| = n_viable`` (lines 7-17).

    Args:
        n_viable: ``|S| ≥ 1`` (Algorithm 3 only runs an epoch with ``|S| ≥ 2``; ``1`` is allowed so
            that the formulas can be tabulated).
        epoch: ``e ≥ 1``.
        beta: confidence ``β ∈ (0, 1)``.
        epsilon: ``ε ∈ (0, inf]``; ``inf`` gives non-private Successive Elimination.
        noise_on: ``"r"`` (line 17 literally: ``Lap(1/(ε r))`` with the final round count
            ``r = r_e``; exact sensitivity of a mean of ``r_e`` rewards in ``[0, 1]`` is ``1/r_e``, so
            this is exactly ε-DP) or ``"R_e"`` (the proof of Thm 4.1: ``Lap(1/(ε R_e))``,
            slightly more noise).
    """
    check_choice("noise_on", noise_on, ("r", "R_e"))
    S = check_size("n_viable", n_viable, 1)
    e = check_int_at_least("epoch", epoch, 1)
    b = _check_beta(beta)
    eps = check_epsilon_or_inf(epsilon)
    check_choice("noise_on", noise_on, ("r", "R_e"))
    gap = dpse_epoch_gap(e)
    log8 = math.log(8.0 * S * e * e / b)
    log4 = math.log(4.0 * S * e * e / b)
    squared, scaled = gap * gap, eps * gap  # 0 where they underflow: an infinite budget below
    hoeffding_term = 32.0 * log8 / squared if squared > 0.0 else math.inf
    privacy_term = 0.0 if eps == math.inf else 8.0 * log4 / scaled if scaled > 0.0 else math.inf
    rounds_R_e = max(hoeffding_term, privacy_term) + 1.0
    if not math.isfinite(rounds_R_e):  # a round count, a size (reference.validation.check_size)
        raise ValueError(
            f"epoch={e} and epsilon={eps} give an infinite round budget R_e in float64: epoch "
            "must be smaller or epsilon larger"
        )
    rounds = math.ceil(rounds_R_e)
    h = math.sqrt(log8 / (2.0 * rounds_R_e))
    c = 0.0 if eps == math.inf else log4 / (rounds_R_e * eps)
    if eps == math.inf:
        noise_scale = 0.0
    else:
        noise_scale = 1.0 / (eps * (rounds if noise_on == "r" else rounds_R_e))
    return EpochParameters(
        epoch=e,
        n_viable=S,
        gap=gap,
        hoeffding_term=hoeffding_term,
        privacy_term=privacy_term,
        rounds_R_e=rounds_R_e,
        rounds=rounds,
        h=h,
        c=c,
        threshold=2.0 * h + 2.0 * c,
        noise_scale=noise_scale,
    )


def dpse_elimination_threshold(n_viable: int, epoch: int, beta: float, epsilon: float) -> float:
    """``2h_e + 2c_e`` (Algorithm 3 line 20)."""
    return dpse_epoch_parameters(n_viable, epoch, beta, epsilon).threshold


# --------------------------------------------------------------------------------------------
# DP-UCB baseline (Sec. 1 and Sec. 5; a reconstruction)
# --------------------------------------------------------------------------------------------


def dpucb_tree_epsilon(epsilon: float, K: int, calibration: str) -> float:
    """Privacy budget of each per-arm tree of the DP-UCB baseline.

    * ``"per_tree"``: ``ε`` per tree.  Sufficient for event-level ε-DP: a reward enters exactly one
      arm's tree (the pulled arm's), the trees hold disjoint data, so parallel composition gives ε
      for the whole transcript (arm choices are post-processing of the tree releases).  The paper's
      own description of the mechanism (Sec. 1: nodes ``Lap(log₂(T)/ε)``) is this choice.
    * ``"split"``: ``ε/K`` per tree (sequential composition over ``K`` trees).  Also ε-DP, but
      ``K`` times more noise than needed.
    """
    eps = check_epsilon(epsilon)
    K = check_int_at_least("K", K, 1)
    check_choice("calibration", calibration, ("per_tree", "split"))
    if calibration == "per_tree":
        return eps
    if calibration == "split":
        return eps / K
    raise ValueError(f"calibration must be 'per_tree' or 'split', got {calibration!r}")


def dpucb_confidence_width(K: int, T: int, epsilon_tree: float, beta_u: float) -> float:
    """Bound ``γ`` on the noise of every prefix release of every per-arm tree (w.p. ``≥ 1 − β_u``).

    Reconstruction (the paper gives no constants).  A release is a sum of at most
    ``m = tree_depth(T)`` independent ``Lap(b)`` node noises, ``b = m/ε_tree``.  Chan, Shi & Song
    (2011), Cor. 2.9: for a sum ``Y`` of independent ``Lap(b_i)`` and ``δ ∈ (0, 1)``,
    ``Pr[|Y| > ν √(8 log(2/δ))] ≤ δ`` with ``ν = max(√(Σ b_i²), max_i b_i √(log(2/δ)))``.  With
    ``Σ b_i² ≤ m b²`` and a union bound over the ``K T`` releases (``δ = β_u/(KT)``):
    ``γ = b · max(√m, √ℓ) · √(8ℓ)``, ``ℓ = log(2KT/β_u)``.
    """
    K = check_int_at_least("K", K, 1)
    T = check_int_at_least("T", T, 1)
    eps_tree = check_epsilon(epsilon_tree, "epsilon_tree")
    bu = check_alpha(beta_u, "beta_u")
    m = tree_depth(T)
    b = m / eps_tree
    ell = math.log(2.0 * K * T / bu)
    return b * max(math.sqrt(m), math.sqrt(ell)) * math.sqrt(8.0 * ell)
