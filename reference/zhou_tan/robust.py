"""Robust estimators: raw truncation (Alg. 2), feature-adaptive truncation (Alg. 1), median of means (Alg. 3).

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.
All functions are pure.

Proof note: ``proofs_notes/zhou_tan/alg1_ldp_ata_thm2.md``.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import linalg

from reference._typing import FloatArray
from reference.validation import check_array, check_choice, check_positive

__all__ = [
    "MedianKind",
    "ata_rows",
    "feature_adaptive_truncated_theta",
    "median_of_means_select",
    "ridge_thetas",
    "truncate",
]

MedianKind = Literal["numpy", "lower", "upper"]


def truncate(y: FloatArray, b: float | FloatArray) -> FloatArray:
    """``y · 1{|y| ≤ b}`` (Alg. 2, line 8): a reward above the level is set to 0, not clipped."""
    yy = check_array("y", y)
    bb = _levels(b)
    if bb.ndim and bb.shape != yy.shape:
        raise ValueError(f"b must be a scalar or have the shape of y {yy.shape}, got {bb.shape}")
    return np.asarray(np.where(np.abs(yy) <= bb, yy, 0.0), dtype=np.float64)


def _levels(b: float | FloatArray) -> FloatArray:
    """Truncation levels: numbers in ``[0, inf]`` (``inf`` = no truncation); NaN, negative,
    boolean and non-numeric levels are refused."""
    if isinstance(b, bool | np.bool_ | str | bytes) or b is None:
        raise ValueError(f"b must be a number or an array of numbers in [0, inf], got {b!r:.80}")
    try:
        bb = np.asarray(b, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(
            f"b must be a number or an array of numbers in [0, inf], got {b!r:.80}"
        ) from err
    if bb.dtype == np.bool_ or np.any(np.isnan(bb)) or np.any(bb < 0):
        raise ValueError("b must be >= 0 (inf allowed)")
    return bb


def _inv_sqrt_pd(V: FloatArray) -> FloatArray:
    w, U = linalg.eigh(V)
    return np.asarray((U / np.sqrt(w)) @ U.T, dtype=np.float64)


def ata_rows(Phi_hist: FloatArray, lam: float) -> tuple[FloatArray, FloatArray]:
    """``(U, Ṽ)`` with ``U = Ṽ^{−1/2}Φ̃ᵀ`` (``m × t``, rows ``u_iᵀ``, Alg. 1, line 9) and ``Ṽ``.

    ``Phi_hist`` is ``t × m`` (rows ``φ̃(x_τ)ᵀ``).  Each row has ``‖u_i‖₂ ≤ 1`` because
    ``UUᵀ = Ṽ^{−1/2}Φ̃ᵀΦ̃Ṽ^{−1/2} ⪯ I``; Hölder then gives ``‖u_i‖_{1+α} ≤ t^{(1−α)/(2(1+α))}``
    (Lemma 12 of [7], used in App. D.3).
    """
    U, V, _ = _ata(check_array("Phi_hist", Phi_hist, ndim=2), check_positive("lam", lam))
    return U, V


def _ata(Phi: FloatArray, lam: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(U, Ṽ, Ṽ^{−1/2})`` of :func:`ata_rows` (the root is reused by the caller)."""
    m = Phi.shape[1]
    V = Phi.T @ Phi + lam * np.eye(m)
    if m == 0:
        return np.zeros((0, Phi.shape[0])), V, np.zeros((0, 0))
    root = _inv_sqrt_pd(V)
    return np.asarray(root @ Phi.T, dtype=np.float64), V, root


def feature_adaptive_truncated_theta(
    Phi_hist: FloatArray, r_hist: FloatArray, lam: float, b: float | FloatArray
) -> tuple[FloatArray, FloatArray, int]:
    """``θ̃_t`` of Alg. 1, lines 10–11: ``θ̃ = Ṽ^{−1/2} r̂``, ``r̂_i = Σ_τ u_{iτ} r_τ 1{|u_{iτ} r_τ| ≤ b}``.

    ``b`` is either the scalar current-round level ``b_t`` (default resolution of T-4: TOFU, [7]) or
    a length-``t`` array ``(b_1, …, b_t)`` (the paper's printed per-sample ``b_τ``).  Returns
    ``(θ̃, Ṽ, number of truncated products u_{iτ}r_τ)``.  ``b = inf`` gives ridge regression.
    """
    Phi = check_array("Phi_hist", Phi_hist, ndim=2)
    r = check_array("r_hist", r_hist, ndim=1)
    if r.shape != (Phi.shape[0],):
        raise ValueError(
            f"r_hist must have one entry per row of Phi_hist ({Phi.shape[0]}), got shape {r.shape}"
        )
    bb = _levels(b)
    U, V, root = _ata(Phi, check_positive("lam", lam))
    m = Phi.shape[1]
    if m == 0:
        return np.zeros(0), V, 0
    if bb.ndim not in (0, 1) or (bb.ndim == 1 and bb.shape != r.shape):
        raise ValueError(f"b must be a scalar or have shape {r.shape}, got shape {bb.shape}")
    prod = U * r[None, :]
    keep = np.abs(prod) <= bb
    r_hat = np.sum(np.where(keep, prod, 0.0), axis=1)
    theta = root @ r_hat
    return np.asarray(theta, dtype=np.float64), V, int(np.sum(~keep))


def ridge_thetas(Phi_hist: FloatArray, Y: FloatArray, lam: float) -> tuple[FloatArray, FloatArray]:
    """``θ̃_{n,j} = Ṽ_n⁻¹ Σ_i y_{i,j} φ̃_n(x_i)`` for ``j = 1..k`` (Alg. 3, line 10).

    ``Phi_hist`` is ``n × m`` (one row per epoch point), ``Y`` is ``n × k`` (row ``i`` = the ``k``
    rewards of epoch ``i``; column ``j`` = "repetition ``j``", paper Fig. 1).  Returns
    ``(Θ, Ṽ)`` with ``Θ`` of shape ``m × k``.
    """
    lam_ = check_positive("lam", lam)
    Phi = check_array("Phi_hist", Phi_hist, ndim=2)
    YY = check_array("Y", Y, ndim=2)
    if YY.shape[0] != Phi.shape[0]:
        raise ValueError(
            f"Y must have one row per row of Phi_hist ({Phi.shape[0]}), got shape {YY.shape}"
        )
    m = Phi.shape[1]
    V = Phi.T @ Phi + lam_ * np.eye(m)
    if m == 0:
        return np.zeros((0, YY.shape[1])), V
    return np.asarray(np.linalg.solve(V, Phi.T @ YY), dtype=np.float64), V


def median_of_means_select(
    thetas: FloatArray, V: FloatArray, median_kind: MedianKind = "numpy"
) -> tuple[int, FloatArray]:
    """``k* = argmin_j r_j``, ``r_j = median{‖θ_j − θ_s‖_V : s ≠ j}`` (Alg. 3, lines 11–12).

    Pairwise distances from ``G = ΘᵀVΘ``: ``d²_{js} = G_jj + G_ss − 2G_js`` (clipped at 0).  The
    paper does not say which median of an even count; ``"numpy"`` averages the two middle values,
    ``"lower"``/``"upper"`` take one of them.  The "within 3γ" step of Lemma 11 holds for all three
    (property-tested).  Ties in ``r`` go to the lowest index.  Needs ``k ≥ 2``.
    """
    Th = check_array("thetas", thetas, ndim=2)
    k = Th.shape[1]
    if k < 2:
        raise ValueError(f"thetas must have at least 2 columns (k >= 2), got {k}")
    Vd = check_array("V", V, ndim=2)
    if Vd.shape != (Th.shape[0], Th.shape[0]):
        raise ValueError(
            f"V must have shape (m, m) = {(Th.shape[0], Th.shape[0])} with m = thetas.shape[0], "
            f"got {Vd.shape}"
        )
    check_choice("median_kind", median_kind, ("numpy", "lower", "upper"))
    G = Th.T @ Vd @ Th
    g = np.diag(G)
    dist = np.sqrt(np.clip(g[:, None] + g[None, :] - 2.0 * G, 0.0, None))
    r = np.empty(k, dtype=np.float64)
    for j in range(k):
        others = np.sort(np.delete(dist[j], j))
        if median_kind == "numpy":
            r[j] = float(np.median(others))
        elif median_kind == "lower":
            r[j] = float(others[(others.size - 1) // 2])
        elif median_kind == "upper":
            r[j] = float(others[others.size // 2])
        else:
            raise ValueError(
                f"median_kind must be 'numpy', 'lower' or 'upper', got {median_kind!r}"
            )
    return int(np.argmin(r)), r
