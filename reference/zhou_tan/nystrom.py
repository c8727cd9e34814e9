"""NyströmEmbedding (Algorithm 4) and the approximate posterior it induces (Alg. 1, line 13, Alg. 3, line 14).

Zhou & Tan (AAAI 2021), Algorithm 4: each index ``i ≤ t`` enters the dictionary with probability
``min{q σ̃²_{t−1}(x_i), 1}`` (line 4), and ``φ̃_t(x) = (K_{𝒟_t}^{1/2})^† k_{𝒟_t}(x)`` (line 7).
The dictionary is a *set* of distinct arms rebuilt at each call; ``dedupe_mode`` is
``"per_index_then_set"`` (default, the paper's) or ``"per_distinct_arm"`` (the code of reference
[7]).  Per-index ``(p_i, z_i)`` are returned for the ε-accuracy check of Definition 2.

Proof note: ``proofs_notes/zhou_tan/nystrom_alg4_lemma8.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from scipy import linalg

from reference._typing import FloatArray, IntArray
from reference.rng import SeedLike, as_generator
from reference.validation import (
    check_array,
    check_choice,
    check_index_array,
    check_instance,
    check_nonnegative,
    check_positive,
)

__all__ = [
    "DedupeMode",
    "NystromResult",
    "approx_posterior",
    "dictionary_accuracy",
    "nystrom_embedding",
    "psd_pinv_sqrt",
]

DedupeMode = Literal["per_index_then_set", "per_distinct_arm"]


def _kernel(name: str, K: FloatArray) -> FloatArray:
    """A non-empty square matrix over the arms (finite)."""
    Kd = check_array(name, K, ndim=2)
    if Kd.shape[0] == 0 or Kd.shape[0] != Kd.shape[1]:
        raise ValueError(f"{name} must be a non-empty square matrix, got shape {Kd.shape}")
    return Kd


def psd_pinv_sqrt(A: FloatArray, rtol: float = 1e-10) -> FloatArray:
    """``(A^{1/2})^†`` of a symmetric PSD matrix: eigenvalues ``w_i ≤ rtol·max w`` are dropped."""
    Ad = check_array("A", A, ndim=2)
    if Ad.shape[0] != Ad.shape[1]:
        raise ValueError(f"A must be a square matrix, got shape {Ad.shape}")
    rtol = check_nonnegative("rtol", rtol)
    if Ad.shape[0] == 0:
        return Ad.copy()
    w, U = linalg.eigh(Ad)
    keep = w > rtol * max(float(np.max(w)), 0.0)
    inv = np.zeros_like(w)
    inv[keep] = 1.0 / np.sqrt(w[keep])
    return np.asarray((U * inv) @ U.T, dtype=np.float64)


@dataclass(frozen=True)
class NystromResult:
    """Output of Alg. 4: dictionary arms, per-index probabilities/draws, features of every arm.

    ``features`` has shape ``(m, n_arms)``: column ``x`` is ``φ̃(x) = (K_{𝒟}^{1/2})^† k_{𝒟}(x)``.
    ``probs[i]``, ``selected[i]`` refer to history index ``i`` (``"per_index_then_set"``) or to the
    ``i``-th distinct arm of ``hist_arms`` in order of first appearance (``"per_distinct_arm"``).
    """

    dict_arms: IntArray
    probs: FloatArray
    selected: NDArray[np.bool_]
    features: FloatArray

    @property
    def m(self) -> int:
        """``m_t``, the dimension of ``φ̃_t`` (= number of distinct dictionary arms)."""
        return int(self.features.shape[0])


def nystrom_embedding(
    K: FloatArray,
    hist_arms: IntArray,
    sigma_prev_hist: FloatArray,
    q: float,
    rng: np.random.Generator | SeedLike,
    dedupe_mode: DedupeMode = "per_index_then_set",
    previous: NystromResult | None = None,
) -> NystromResult:
    """Algorithm 4 on a finite domain with Gram matrix ``K``.

    ``sigma_prev_hist[i]`` is ``σ̃_{t−1}(x_i)`` (the standard deviation, not the variance) at the
    ``i``-th history point.  ``p_i = min{q σ̃²_{t−1}(x_i), 1}``, ``z_i ~ Bern(p_i)``.
    ``previous``: the last result on the same ``K``; when the new dictionary equals its
    dictionary its features are reused (they are a function of ``K`` and the dictionary only, so
    the result is the same as recomputing them).
    """
    rng = as_generator(rng)
    Kd = _kernel("K", K)
    arms = check_index_array("hist_arms", hist_arms, Kd.shape[0], ndim=1)
    sig = check_array("sigma_prev_hist", sigma_prev_hist, ndim=1)
    if sig.shape != arms.shape:
        raise ValueError(
            f"sigma_prev_hist must have one entry per entry of hist_arms ({arms.size}), "
            f"got shape {sig.shape}"
        )
    q_ = check_positive("q", q)
    check_choice("dedupe_mode", dedupe_mode, ("per_index_then_set", "per_distinct_arm"))
    if np.any(sig < 0):
        raise ValueError("sigma_prev_hist must be >= 0 (standard deviations)")
    if dedupe_mode == "per_index_then_set":
        probs = np.minimum(q_ * sig * sig, 1.0)
        selected = rng.random(arms.size) < probs
        dict_arms = np.unique(arms[selected])
    elif dedupe_mode == "per_distinct_arm":
        _, first = np.unique(arms, return_index=True)
        order = np.sort(first)
        probs = np.minimum(q_ * sig[order] ** 2, 1.0)
        selected = rng.random(order.size) < probs
        dict_arms = np.sort(arms[order][selected])
    else:
        raise ValueError(
            f"dedupe_mode must be 'per_index_then_set' or 'per_distinct_arm', got {dedupe_mode!r}"
        )
    dict_arms = np.asarray(dict_arms, dtype=np.int64)
    n = Kd.shape[0]
    if previous is not None:
        check_instance("previous", previous, NystromResult)
        if previous.features.shape[1] != n:
            raise ValueError(
                f"previous must come from the same K ({n} arms), got {previous.features.shape[1]}"
            )
        if np.array_equal(previous.dict_arms, dict_arms):
            return NystromResult(
                dict_arms, np.asarray(probs, dtype=np.float64), selected, previous.features
            )
    if dict_arms.size == 0:
        features = np.zeros((0, n), dtype=np.float64)
    else:
        A = psd_pinv_sqrt(Kd[np.ix_(dict_arms, dict_arms)])
        features = np.asarray(A @ Kd[dict_arms, :], dtype=np.float64)
    return NystromResult(dict_arms, np.asarray(probs, dtype=np.float64), selected, features)


def approx_posterior(
    features: FloatArray, hist_arms: IntArray, K_diag: FloatArray, lam: float
) -> tuple[FloatArray, FloatArray]:
    """``(Ṽ_t, σ̃_t²)`` of Alg. 1, lines 8, 13 / Alg. 3, lines 9, 14.

    ``Ṽ = Φ̃ᵀΦ̃ + λI_m`` with rows ``φ̃(x_τ)ᵀ`` of the history, and
    ``σ̃²(x) = k(x,x) − φ̃(x)ᵀφ̃(x) + λ φ̃(x)ᵀṼ⁻¹φ̃(x)`` for every arm (clipped at 0; the first two
    terms are the projection residual, ``≥ 0``).  With ``m = 0``: ``Ṽ`` is ``0 × 0`` and
    ``σ̃² = k(x, x)``.
    """
    lam_ = check_positive("lam", lam)
    F = check_array("features", features, ndim=2)
    kd = check_array("K_diag", K_diag, ndim=1)
    if kd.shape != (F.shape[1],):
        raise ValueError(
            f"K_diag must have one entry per column (arm) of features ({F.shape[1]}), "
            f"got shape {kd.shape}"
        )
    arms = check_index_array("hist_arms", hist_arms, F.shape[1], ndim=1)
    m = F.shape[0]
    Phi = F[:, arms].T
    V = Phi.T @ Phi + lam_ * np.eye(m)
    return np.asarray(V, dtype=np.float64), _posterior_variance(F, V, kd, lam_)


def _posterior_variance(F: FloatArray, V: FloatArray, kd: FloatArray, lam: float) -> FloatArray:
    """``σ̃²`` of :func:`approx_posterior` given its ``Ṽ`` (callers that already hold ``Ṽ``)."""
    if F.shape[0] == 0:
        return kd.copy()
    quad = np.sum(F * np.linalg.solve(V, F), axis=0)
    var = kd - np.sum(F * F, axis=0) + lam * quad
    return np.asarray(np.clip(var, 0.0, None), dtype=np.float64)


def dictionary_accuracy(
    K_root: FloatArray, hist_arms: IntArray, result: NystromResult, lam: float
) -> tuple[float, float]:
    """Extreme generalised eigenvalues of ``(V_𝒟, V)`` of Definition 2.

    ``V = ΦᵀΦ + λI`` with exact features ``φ(x) = K^{1/2}e_x`` (``K_root`` from
    :func:`reference.zhou_tan.gp.finite_feature_map`) and ``V_𝒟 = ΦᵀS²Φ + λI`` with
    ``S = diag(1/√p_i if z_i = 1 else 0)`` per history index.  The dictionary is ε-accurate iff
    both returned numbers lie in ``[1 − ε, 1 + ε]``.  Only for ``"per_index_then_set"`` results.
    """
    lam_ = check_positive("lam", lam)
    root = _kernel("K_root", K_root)
    arms = check_index_array("hist_arms", hist_arms, root.shape[0], ndim=1)
    check_instance("result", result, NystromResult)
    if result.probs.shape != arms.shape:
        raise ValueError("result must come from dedupe_mode='per_index_then_set' on hist_arms")
    Phi = root[:, arms].T
    weights = np.where(result.selected, 1.0 / np.maximum(result.probs, 1e-300), 0.0)
    n = root.shape[0]
    V = Phi.T @ Phi + lam_ * np.eye(n)
    VD = Phi.T @ (weights[:, None] * Phi) + lam_ * np.eye(n)
    w = linalg.eigh(VD, V, eigvals_only=True)
    return float(np.min(w)), float(np.max(w))
