"""Kernels and information gain of Zhou & Tan, "Local Differential Privacy for Bayesian Optimization".

* Squared exponential and Matérn kernels (Sec. 2); ``B_ν`` is the modified Bessel function
  ``K_ν`` (computed with the scaled ``scipy.special.kve``), and ``k = 1`` at ``s = 0``.
* Maximum information gain ``γ_t = max_{|A|=t} ½ ln det(I_t + λ⁻¹K_A)`` (Sec. 2), its rates from
  Srinivas et al., and two certified upper bounds on a finite domain (greedy over ``1 − 1/e``;
  spectral ``½ Σ_i ln(1 + t μ_i/λ)``).
Points are ``(n, d)`` arrays; a kernel returns the ``(n_X, n_Y)`` cross-Gram matrix.  Logarithms
are natural; citations use the paper's own numbering.

Proof note: ``proofs_notes/zhou_tan/kernels_information_gain.md``.
"""

from __future__ import annotations

import math
from typing import Literal, get_args

import numpy as np
from scipy import special

from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_choice,
    check_positive,
    check_psd,
    check_size,
)

__all__ = [
    "KernelName",
    "certified_gamma_upper",
    "gamma_rate",
    "greedy_info_gain_curve",
    "information_gain",
    "linear_kernel",
    "matern_closed_form",
    "matern_kernel",
    "pairwise_distances",
    "se_kernel",
    "spectral_info_gain_bound",
    "unit_grid",
]

KernelName = Literal["se", "matern", "linear"]


def _points(name: str, X: object) -> FloatArray:
    return check_array(name, X, ndim=2)


def unit_grid(n_points: int = 100) -> FloatArray:
    """The synthetic domain of Sec. 5.1: ``[0, 1]`` discretised into ``n_points`` points.

    The paper does not say where the points sit; following the code of its reference [7] (typo
    T-25) they are ``{1/n, 2/n, …, 1}`` (for ``n = 100``: ``0.01, …, 1.00``).  Shape ``(n, 1)``.
    """
    n = check_size("n_points", n_points, 1, item_bytes=8, what="a point")
    return (np.arange(1, n + 1, dtype=np.float64) / n).reshape(n, 1)


def pairwise_distances(X: FloatArray, Y: FloatArray) -> FloatArray:
    """Euclidean distances ``s = ‖x − x'‖₂`` between the rows of ``X`` and ``Y`` (Sec. 2)."""
    Xa = _points("X", X)
    Ya = _points("Y", Y)
    if Xa.shape[1] != Ya.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of columns, got {Xa.shape[1]} and {Ya.shape[1]}"
        )
    diff = Xa[:, None, :] - Ya[None, :, :]
    return np.asarray(np.sqrt(np.sum(diff * diff, axis=-1)), dtype=np.float64)


def se_kernel(X: FloatArray, Y: FloatArray, lengthscale: float) -> FloatArray:
    """Squared exponential kernel ``k_SE(x, x') = exp(−s²/(2l²))`` (Sec. 2)."""
    ell = check_positive("lengthscale", lengthscale)
    s = pairwise_distances(X, Y)
    return np.asarray(np.exp(-(s * s) / (2.0 * ell * ell)), dtype=np.float64)


def matern_kernel(X: FloatArray, Y: FloatArray, lengthscale: float, nu: float) -> FloatArray:
    """Matérn kernel ``(2^{1−ν}/Γ(ν)) z^ν K_ν(z)``, ``z = s√(2ν)/l`` (Sec. 2), for any ``ν > 0``.

    ``K_ν`` is ``scipy.special.kv``; the code evaluates
    ``exp((1−ν) ln 2 − ln Γ(ν) + ν ln z − z) · kve(ν, z)`` (``kve(ν, z) = K_ν(z) e^z``), which is
    the same number without overflow.  At ``z = 0`` the kernel is its limit ``1``.
    """
    ell = check_positive("lengthscale", lengthscale)
    nu_ = check_positive("nu", nu)
    s = pairwise_distances(X, Y)
    z = s * math.sqrt(2.0 * nu_) / ell
    out = np.ones_like(z)
    pos = z > 0.0
    zp = z[pos]
    log_pref = (1.0 - nu_) * math.log(2.0) - float(special.gammaln(nu_))
    kve = special.kve(nu_, zp)
    finite = np.isfinite(kve)
    # K_ν(z) ~ Γ(ν)2^{ν−1} z^{−ν} overflows only for tiny z (for ν ≤ 40: z < 1e-8), where the
    # kernel is 1 − O(z^{2 min(ν,1)}), i.e. 1 to double precision; larger overflows are refused.
    if np.any(~finite & (zp >= 1e-8)):
        raise ValueError(
            f"K_nu(z) overflows for nu={nu!r} at a distance where the kernel is not 1; "
            "use a smaller nu (the kernel is then numerically the SE kernel)"
        )
    vals = np.ones_like(zp)
    vals[finite] = np.exp(log_pref + nu_ * np.log(zp[finite]) - zp[finite]) * kve[finite]
    out[pos] = vals
    return out


def matern_closed_form(X: FloatArray, Y: FloatArray, lengthscale: float, nu: float) -> FloatArray:
    """Closed forms of the Matérn kernel for ``ν ∈ {1/2, 3/2, 5/2}``.

    ``ν = 1/2``: ``exp(−s/l)``; ``ν = 3/2``: ``(1 + √3 s/l) exp(−√3 s/l)``;
    ``ν = 5/2``: ``(1 + √5 s/l + 5s²/(3l²)) exp(−√5 s/l)`` (the experiments' kernel, Sec. 5.1).
    """
    ell = check_positive("lengthscale", lengthscale)
    check_choice("nu", nu, (0.5, 1.5, 2.5))
    r = pairwise_distances(X, Y) / ell
    if nu == 0.5:
        return np.asarray(np.exp(-r), dtype=np.float64)
    if nu == 1.5:
        a = math.sqrt(3.0) * r
        return np.asarray((1.0 + a) * np.exp(-a), dtype=np.float64)
    if nu == 2.5:
        a = math.sqrt(5.0) * r
        return np.asarray((1.0 + a + a * a / 3.0) * np.exp(-a), dtype=np.float64)
    raise ValueError(f"nu must be one of 0.5, 1.5, 2.5 for the closed form, got {nu!r}")


def linear_kernel(X: FloatArray, Y: FloatArray) -> FloatArray:
    """Linear kernel ``k(x, x') = xᵀx'`` (named only in the ``γ_t`` rates, Sec. 2)."""
    Xa = _points("X", X)
    Ya = _points("Y", Y)
    if Xa.shape[1] != Ya.shape[1]:
        raise ValueError(
            f"X and Y must have the same number of columns, got {Xa.shape[1]} and {Ya.shape[1]}"
        )
    return np.asarray(Xa @ Ya.T, dtype=np.float64)


# --------------------------------------------------------------------------------------------
# Maximum information gain γ_t (Sec. 2)


def gamma_rate(T: float, kernel: KernelName, d: int, nu: float | None = None) -> float:
    """The order of ``γ_T`` quoted in Sec. 2 from Srinivas et al. [23], *without constants*.

    ``se``: ``(ln T)^{d+1}``; ``matern``: ``T^{d(d+1)/(2ν + d(d+1))} ln T``; ``linear``: ``d ln T``.
    Valid for compact convex ``𝒟 ⊂ ℝ^d``; only orders (use them in scaling checks, not in β).
    Requires ``T > 1`` so that ``ln T > 0``.  Returns ``inf`` when the order exceeds the float
    range (e.g. ``(ln 10¹²)^{257}``).
    """
    check_choice("kernel", kernel, get_args(KernelName))
    T_ = check_positive("T", T)
    if T_ <= 1.0:
        raise ValueError(f"T must be in (1, inf), got {T!r}")
    d_ = check_size("d", d, 1)
    if nu is not None:  # refused when invalid even where the kernel does not use it
        check_positive("nu", nu)
    lt = math.log(T_)
    if kernel == "se":
        try:
            return lt ** (d_ + 1)
        except OverflowError:
            return math.inf
    if kernel == "linear":
        return d_ * lt
    if kernel == "matern":
        if nu is None:
            raise ValueError("nu must be given for the Matérn rate")
        nu_ = check_positive("nu", nu)
        e = d_ * (d_ + 1) / (2.0 * nu_ + d_ * (d_ + 1))
        return float(T_**e * lt)
    raise ValueError(f"kernel must be 'se', 'matern' or 'linear', got {kernel!r}")


def information_gain(K_A: FloatArray, lam: float) -> float:
    """``½ ln det(I_t + λ⁻¹ K_A)`` for the Gram matrix ``K_A`` of a (multi)set ``A`` (Sec. 2)."""
    lam_ = check_positive("lam", lam)
    K = check_array("K_A", K_A, ndim=2)
    check_psd("K_A", K, atol=1e-8)
    t = K.shape[0]
    sign, logdet = np.linalg.slogdet(np.eye(t) + K / lam_)
    if sign <= 0:
        raise ValueError("I + K_A/lam must be positive definite")
    return 0.5 * float(logdet)


def greedy_info_gain_curve(K: FloatArray, T: int, lam: float) -> FloatArray:
    """Greedy information gain ``G_1, …, G_T`` on a finite domain with Gram matrix ``K``.

    Step ``s`` picks the point of largest current posterior variance ``σ²_{s−1}`` (repeats allowed,
    ties to the lowest index) and adds ``½ ln(1 + σ²_{s−1}(x_s)/λ)``.  By the chain rule of
    ``½ ln det`` this is the information gain of the chosen sequence, so ``G_t ≤ γ_t``; by
    monotone submodularity (Nemhauser et al.) ``γ_t ≤ G_t/(1 − 1/e)``.  The posterior covariance is
    updated by the rank-1 formula ``Σ ← Σ − a aᵀ/(λ + Σ_ii)``, ``a = Σ[:, i]``.
    """
    Kd = check_array("K", K, ndim=2)
    check_psd("K", Kd, atol=1e-8)
    T_ = check_size("T", T, 1, item_bytes=8, what="a round's information gain")
    lam_ = check_positive("lam", lam)
    Sigma = Kd.copy()
    out = np.empty(T_, dtype=np.float64)
    total = 0.0
    for s in range(T_):
        var = np.clip(np.diag(Sigma), 0.0, None)
        i = int(np.argmax(var))
        total += 0.5 * math.log1p(float(var[i]) / lam_)
        out[s] = total
        a = Sigma[:, i].copy()
        Sigma -= np.outer(a, a) / (lam_ + float(Sigma[i, i]))
    return out


def spectral_info_gain_bound(K: FloatArray, T: int, lam: float) -> FloatArray:
    """``½ Σ_i ln(1 + t μ_i/λ)`` for ``t = 1..T``, ``μ_i`` the eigenvalues of ``K``.

    Upper bound on ``γ_t`` over multisets of a finite domain: with counts ``C = diag(c)``,
    ``det(I_t + K_A/λ) = det(I_n + K^{1/2} C K^{1/2}/λ)`` and ``C ⪯ t I``.
    """
    Kd = check_array("K", K, ndim=2)
    check_psd("K", Kd, atol=1e-8)
    T_ = check_size("T", T, 1, item_bytes=8 * Kd.shape[0], what="a round's eigenvalue terms")
    lam_ = check_positive("lam", lam)
    mu = np.clip(np.linalg.eigvalsh(Kd), 0.0, None)
    t = np.arange(1, T_ + 1, dtype=np.float64)
    return np.asarray(0.5 * np.log1p(np.outer(t, mu) / lam_).sum(axis=1), dtype=np.float64)


def certified_gamma_upper(K: FloatArray, T: int, lam: float) -> FloatArray:
    """``γ̄_t = min(G_t/(1 − 1/e), spectral_t)`` for ``t = 1..T``: a certified upper bound on ``γ_t``.

    This is what the algorithms use wherever the paper needs ``γ_t`` (e.g. ``β_t`` of
    LDP-TGP-UCB, Algorithm 2, line 5), so that the coverage guarantee of Theorem 3 applies.
    """
    greedy = greedy_info_gain_curve(K, T, lam) / (1.0 - math.exp(-1.0))
    return np.minimum(greedy, spectral_info_gain_bound(K, T, lam))
