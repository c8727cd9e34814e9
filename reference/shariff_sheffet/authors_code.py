"""The constants of the authors' code for Shariff & Sheffet's App. D experiments.

The paper's App. D figures were made with the authors' Julia code
(``roshanshariff/PrivateBandits.jl`` at ``49417f1``), whose constants differ from the printed ones: ``k`` (advanced composition with
``δ' = δ/(m+1)`` and a floor), ``α = 1/(2n)`` with noise bounds at ``α/2^⌈log₂ n⌉`` per release,
the shifted Wishart's ``γ`` of Claim 20, and the Opt variants (the shift minimising the first line
of Theorem 5's proof).  None changes privacy (more noise, or public constants).  The authors' tree
is a separate switch (:class:`reference.tree.PanPrivateTree`).

Proof note: ``proofs_notes/shariff_sheffet/authors_code.md``.
"""

from __future__ import annotations

import math
from typing import Literal

from scipy.optimize import minimize_scalar

from reference.shariff_sheffet.bounds import RegularizerBounds, gaussian_noise_std
from reference.tree import tree_depth
from reference.validation import (
    check_alpha,
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
    "AUTHORS_COMMIT",
    "AUTHORS_REPOSITORY",
    "OptMechanism",
    "authors_alpha",
    "authors_base_bounds",
    "authors_d3_rho_grid",
    "authors_gaussian_bounds",
    "authors_node_privacy",
    "authors_opt_rho_min",
    "authors_regret_objective",
    "authors_release_alpha",
    "authors_rho_range",
    "authors_shifted",
    "authors_wishart_degrees_of_freedom",
    "authors_wishart_shifted_bounds",
    "authors_wishart_unshifted_bounds",
]

AUTHORS_REPOSITORY = "roshanshariff/PrivateBandits.jl"
"""The authors' public repository (Julia)."""
AUTHORS_COMMIT = "49417f1"
"""The commit whose ``src/`` every function here transcribes (equal to the one of the D.2 runs,
``dd68d41``, in every algorithmic respect)."""
AUTHORS_REWARD_MEAN_BOUND = 0.75
"""``B`` in the authors' regret objective: ``EnvParams(maxrewardmean=0.75)`` of ``experiment2.jl``.
A constant factor of the objective, so it does not move the Opt shift (the paper's Assumption 2
asks ``B ≥ 1``)."""

OptMechanism = Literal["gaussian", "wishart"]


def authors_node_privacy(epsilon: float, delta: float, m: int) -> tuple[float, float]:
    """Per-node ``(ε₀, δ₀)`` of the authors' Wishart tree: advanced composition with ``δ' = δ/(m+1)``.

    ``advanced_composition(m, dp; δfail=δ/(m+1))`` (``src/DifferentialPrivacy.jl``, called by
    ``WishartMechanism`` when ``m > 1``): ``ε₀ = ε/√(8m ln((m+1)/δ))``, ``δ₀ = (δ − δ')/m = δ/(m+1)``.
    With ``m = 1`` no composition is made: ``(ε, δ)``.  The paper (Sec. 4, App. A.2) splits
    ``δ' = δ/2``.
    """
    eps = check_epsilon(epsilon)
    dlt = check_delta(delta)
    m = check_int_at_least("m", m, 1)
    if m == 1:
        return eps, dlt
    fail = dlt / (m + 1)
    return eps / math.sqrt(8.0 * m * math.log(1.0 / fail)), (dlt - fail) / m


def authors_wishart_degrees_of_freedom(d: int, m: int, epsilon: float, delta: float) -> int:
    """The authors' ``k = (d+1) + ⌊28 ln(4/δ₀)/ε₀²⌋`` at :func:`authors_node_privacy`'s ``(ε₀, δ₀)``.

    ``WishartMechanism(dp; m)`` with ``dp.dim = d + 1`` (``make_strategy``): Sheffet's Theorem 23
    as the paper's App. C states it (``k ≥ p + ⌊14/ε² · 2 log(4/δ)⌋``).  Theorem 23 needs
    ``ε₀ < 1`` and ``δ₀ < 1/e``; a call outside raises (the authors' code does not check).
    At ``d = 5, m = 27, ε = 1, δ = 0.1`` this is 239,278 (the paper's Sec. 4.1 formula: 139,115).
    """
    d = check_int_at_least("d", d, 1)
    eps0, delta0 = authors_node_privacy(epsilon, delta, m)
    if eps0 >= 1.0:
        raise ValueError(
            "epsilon too large for Theorem 23: the authors' per-node epsilon_0 = "
            f"epsilon/sqrt(8 m ln((m+1)/delta)) must be in (0, 1), got {eps0} "
            f"(epsilon={epsilon}, m={m}, delta={delta})"
        )
    if delta0 >= 1.0 / math.e:
        raise ValueError(
            "delta too large for Theorem 23: the authors' per-node delta_0 = delta/(m+1) "
            f"must be < 1/e, got {delta0} (delta={delta}, m={m})"
        )
    dof = 28.0 * math.log(4.0 / delta0) / eps0**2
    if not math.isfinite(dof):
        raise ValueError(
            f"epsilon must be large enough for a finite number of degrees of freedom, got "
            f"epsilon={epsilon}"
        )
    return d + 1 + math.floor(dof)


def authors_alpha(n: int) -> float:
    """The authors' ``α = 1/(2n)`` of the private variants (``make_alg``; NonPrivate keeps ``1/n``).

    The paper's App. D: ``α = 1/n`` for every variant.
    """
    n = check_int_at_least("n", n, 1)
    return 1.0 / (2.0 * n)


def authors_release_alpha(alpha: float, n: int) -> float:
    """The per-release failure probability ``α' = α / 2^⌈log₂ n⌉`` of the authors' noise bounds.

    ``regparams(s::ComposedStrategy; α) = regparams(noisedist(s); α = α/horizon(s), …)``, where
    the tree stores ``horizon = nextpow(2, n) = 2^(m−1)``.  The paper's Definition 3 asks
    ``(α/2n)``-accurate bounds.
    """
    alpha = check_alpha(alpha)
    m = tree_depth(check_int_at_least("n", n, 1))
    return alpha / 2.0 ** (m - 1)


def _check_common(
    d: int, m: int, L_tilde: float, alpha_release: float
) -> tuple[int, int, float, float]:
    return (
        check_size("d", d, 1),
        check_int_at_least("m", m, 1),
        check_positive("L_tilde", L_tilde),
        check_alpha(alpha_release, "alpha_release"),
    )


def authors_wishart_unshifted_bounds(
    d: int, m: int, k: int, L_tilde: float, alpha_release: float
) -> RegularizerBounds:
    """``regparams(::WishartMechanism)``: ``ρ_min = L̃²(√(mk) − Δ)²``, ``ρ_max = L̃²(√(mk) + Δ)²``,
    ``γ = L̃(√d + √(2 ln(1/α')))``, shift 0, with ``Δ = √d + √(2 ln(4/α'))``.

    Prop. 9's unshifted bounds with ``ln(4/α')``, ``ln(1/α')`` for ``ln(8n/α)``, ``ln(2n/α)``.
    Requires ``√(mk) > Δ`` (Claim 19); raises otherwise.
    """
    d, m, L_tilde, alpha_release = _check_common(d, m, L_tilde, alpha_release)
    k = check_int_at_least("k", k, d + 1)
    a = math.sqrt(m * k)
    dev = math.sqrt(d) + math.sqrt(2.0 * math.log(4.0 / alpha_release))
    if a <= dev:
        raise ValueError(
            f"k too small for Claim 19: need sqrt(m k) > sqrt(d) + sqrt(2 ln(4/alpha')) = {dev}, "
            f"got sqrt(m k) = {a}"
        )
    return RegularizerBounds(
        rho_min=L_tilde**2 * (a - dev) ** 2,
        rho_max=L_tilde**2 * (a + dev) ** 2,
        gamma=L_tilde * (math.sqrt(d) + math.sqrt(2.0 * math.log(1.0 / alpha_release))),
        shift=0.0,
    )


def authors_shifted(base: RegularizerBounds, target_rho_min: float) -> RegularizerBounds:
    """``regparams(::Shifted)``: move the shift so that ``ρ_min`` is ``target_rho_min``.

    With ``Δs = ρ* − ρ⁰_min``: ``ρ_max = ρ⁰_max + Δs``, shift ``= shift⁰ + Δs`` and
    ``γ = γ⁰ √(ρ⁰_min/ρ*)`` in both directions.  For ``Δs > 0`` on a Wishart base that ``γ`` is not
    covered by Claim 20 (privonline's rigorous form is
    :func:`~reference.shariff_sheffet.bounds.reshifted_bounds`; the two differ by at most
    ``√(ρ⁰_max/ρ⁰_min)``).
    """
    check_instance("base", base, RegularizerBounds)
    target = check_positive("target_rho_min", target_rho_min)
    delta_s = target - base.rho_min
    return RegularizerBounds(
        rho_min=target,
        rho_max=target + (base.rho_max - base.rho_min),  # = ρ⁰_max + Δs, and ≥ ρ* in floats
        gamma=base.gamma * math.sqrt(base.rho_min / target),
        shift=base.shift + delta_s,
    )


def authors_wishart_shifted_bounds(
    d: int, m: int, k: int, L_tilde: float, alpha_release: float
) -> RegularizerBounds:
    """``regparams(::ShiftedWishart)``: the unshifted bounds re-shifted to ``ρ*_min = 4L̃²√(mk)Δ``.

    The target is Eq. (4)'s ``ρ'_min`` at the authors' ``Δ = √d + √(2 ln(4/α'))``, so
    ``ρ'_max = 2ρ'_min``; the shift is ``−c``; ``γ`` is Claim 20's ``γ₀ √(ρ₀_min/ρ'_min)``
    (:func:`authors_shifted`), not the printed ``γ' = L̃√(√(mk)(√d + √(2 ln(2n/α))))``.
    """
    unshifted = authors_wishart_unshifted_bounds(d, m, k, L_tilde, alpha_release)
    dev = math.sqrt(d) + math.sqrt(2.0 * math.log(4.0 / alpha_release))
    return authors_shifted(unshifted, 4.0 * L_tilde**2 * math.sqrt(m * k) * dev)


def authors_gaussian_bounds(
    d: int, m: int, sigma_noise: float, alpha_release: float
) -> RegularizerBounds:
    """``regparams(::GaussianMechanism)``: ``Υ = σ√(2m)(4√d + 2 ln(1/α'))``, ``ρ = (Υ, 3Υ)``,
    shift ``2Υ``, ``γ = √m σ (√d + √(2 ln(1/α')))/√Υ``.

    Prop. 11 with ``ln(1/α')`` for ``ln(2n/α)``; the node noise ``σ_noise = 4√m L̃² ln(4/δ)/ε`` is
    the paper's (Sec. 4.2, :func:`~reference.shariff_sheffet.bounds.gaussian_noise_std`).
    """
    d = check_int_at_least("d", d, 1)
    m = check_int_at_least("m", m, 1)
    sigma = check_positive("sigma_noise", sigma_noise)
    log_term = math.log(1.0 / check_alpha(alpha_release, "alpha_release"))
    upsilon = sigma * math.sqrt(2.0 * m) * (4.0 * math.sqrt(d) + 2.0 * log_term)
    gamma = math.sqrt(m) * sigma * (math.sqrt(d) + math.sqrt(2.0 * log_term)) / math.sqrt(upsilon)
    return RegularizerBounds(
        rho_min=upsilon, rho_max=3.0 * upsilon, gamma=gamma, shift=2.0 * upsilon
    )


def authors_base_bounds(
    mechanism: OptMechanism,
    d: int,
    n: int,
    L_tilde: float,
    epsilon: float,
    delta: float,
    alpha_release: float,
) -> RegularizerBounds:
    """The bounds the authors re-shift from: the Gaussian's own (Prop. 11 form, shift ``2Υ``) or
    the *unshifted* Wishart's, at the authors' ``k`` and per-release ``α'``."""
    check_choice("mechanism", mechanism, ("gaussian", "wishart"))
    m = tree_depth(check_int_at_least("n", n, 1))
    if mechanism == "gaussian":
        sigma = gaussian_noise_std(m, L_tilde, epsilon, delta)
        return authors_gaussian_bounds(d, m, sigma, alpha_release)
    k = authors_wishart_degrees_of_freedom(d, m, epsilon, delta)
    return authors_wishart_unshifted_bounds(d, m, k, L_tilde, alpha_release)


def authors_regret_objective(
    bounds: RegularizerBounds,
    n: int,
    d: int,
    alpha: float,
    *,
    L: float = 1.0,
    S: float = 1.0,
    sigma: float = 1.0,
    B: float = AUTHORS_REWARD_MEAN_BOUND,
) -> float:
    """``regret_bound(env, reg, n, α)`` at ``Δ = 0`` (``src/LinearBandits.jl``), the Opt objective.

    ``B β̄ √(8 d n ln(1 + nL²/(dρ_min)))`` with
    ``β̄ = σ√(2 ln(2/α) + d ln(ρ_max/ρ_min + nL²/(dρ_min))) + S√ρ_max + γ``: the first inequality of
    the proof of Theorem 5 (Lemmas 21, 22 with ``U = ρ_min I``), not Eq. (2).
    """
    check_instance("bounds", bounds, RegularizerBounds)
    n = check_int_at_least("n", n, 1)
    d = check_int_at_least("d", d, 1)
    alpha = check_alpha(alpha)
    L, S, sigma, B = (
        check_positive(name, v) for name, v in (("L", L), ("S", S), ("sigma", sigma), ("B", B))
    )
    rmin, rmax = bounds.rho_min, bounds.rho_max
    growth = n * L**2 / (d * rmin)
    beta = (
        sigma * math.sqrt(2.0 * math.log(2.0 / alpha) + d * math.log(rmax / rmin + growth))
        + S * math.sqrt(rmax)
        + bounds.gamma
    )
    return B * beta * math.sqrt(n * 8.0 * d * math.log1p(growth))


def authors_opt_rho_min(
    mechanism: OptMechanism,
    d: int,
    n: int,
    L_tilde: float,
    epsilon: float,
    delta: float,
    *,
    L: float = 1.0,
    S: float = 1.0,
    sigma: float = 1.0,
) -> float:
    """The ``ρ*_min`` of the authors' ``OptShifted{Mechanism}(env, n)`` (GaussianOpt, WishartOpt).

    As ``OptShifted`` does: ``α = 1/(2n)``, bounds at ``α/n`` (not the run's ``α/2^⌈log₂ n⌉``),
    the objective :func:`authors_regret_objective` of :func:`authors_shifted` of the base bounds
    (:func:`authors_base_bounds`) minimised over ``log ρ* ∈ [0, 2 ln ρ⁰_min]`` by Brent's method
    (Optim.jl's univariate default; here :func:`scipy.optimize.minimize_scalar`, bounded, to
    ``xatol = 1e-10``).  At the D.2 setting: 71,629.3 (Gaussian), 207,393 (Wishart), the values the
    authors' notebook prints.  The run then evaluates the re-shifted bounds at its own ``α'``.
    """
    check_choice("mechanism", mechanism, ("gaussian", "wishart"))
    n = check_int_at_least("n", n, 1)
    alpha = authors_alpha(n)
    base = authors_base_bounds(mechanism, d, n, L_tilde, epsilon, delta, alpha / n)
    high = math.log(max(1.0, base.rho_min**2))
    if high <= 0.0:
        raise ValueError(
            f"the base rho_min must exceed 1 for the authors' search interval, got {base.rho_min}"
        )

    def objective(log_rho: float) -> float:
        shifted = authors_shifted(base, math.exp(log_rho))
        return authors_regret_objective(shifted, n, d, alpha, L=L, S=S, sigma=sigma)

    result = minimize_scalar(
        objective, bounds=(0.0, high), method="bounded", options={"xatol": 1e-10}
    )
    if not result.success:  # pragma: no cover - the objective is smooth on a bounded interval
        raise RuntimeError(f"the Opt shift search did not converge: {result.message}")
    return float(math.exp(check_finite("log rho*", float(result.x))))


def authors_d3_rho_grid(
    d: int, n: int, L_tilde: float, epsilon: float, delta: float, *, points: int = 8
) -> tuple[float, ...]:
    """The ``ρ_min`` grid of the authors' ``experiment3.jl`` (App. D.3).

    ``lo, hi`` are the smallest and largest ``ρ_min`` of the five mechanisms (Gaussian,
    GaussianOpt, Wishart, WishartUnshifted, WishartOpt) at ``α = 1/(2n)``, and the grid is
    ``exp((1−c) ln lo + c ln hi)`` for ``c = (i − 2)/(points − 3)``, ``i = 1..points`` (so
    ``c = −0.2, 0, …, 1.2`` for 8 points).  At the D.2 setting: ``2.539·10⁴ … 3.614·10⁷``.
    """
    points = check_size("points", points, 4, item_bytes=8, what="a grid point")
    low, high = authors_rho_range(d, n, L_tilde, epsilon, delta)
    lo, hi = math.log(low), math.log(high)
    return tuple(
        math.exp((1.0 - c) * lo + c * hi)
        for c in ((i - 2) / (points - 3) for i in range(1, points + 1))
    )


def authors_rho_range(
    d: int, n: int, L_tilde: float, epsilon: float, delta: float
) -> tuple[float, float]:
    """The smallest and largest ``ρ_min`` of the authors' five mechanisms (Gaussian, GaussianOpt,
    Wishart, WishartUnshifted, WishartOpt) at ``α = 1/(2n)``: the ``c = 0`` and ``c = 1`` ends of
    ``experiment3.jl``'s grid (:func:`authors_d3_rho_grid`)."""
    n = check_int_at_least("n", n, 1)
    m = tree_depth(n)
    released = authors_release_alpha(authors_alpha(n), n)
    values = [
        authors_base_bounds("gaussian", d, n, L_tilde, epsilon, delta, released).rho_min,
        authors_base_bounds("wishart", d, n, L_tilde, epsilon, delta, released).rho_min,
    ]
    k = authors_wishart_degrees_of_freedom(d, m, epsilon, delta)
    values.append(authors_wishart_shifted_bounds(d, m, k, L_tilde, released).rho_min)
    values += [
        authors_opt_rho_min(mech, d, n, L_tilde, epsilon, delta) for mech in ("gaussian", "wishart")
    ]
    return min(values), max(values)
