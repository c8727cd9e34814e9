"""Exact GP posterior on a finite domain (Eqs. 3–4) and the finite feature map of App. D.1.

Paper: Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021); locators
are the paper's own section, theorem, lemma and algorithm-line numbers.

* Eq. (3)–(4): ``μ_t(x) = k_t(x)ᵀ(K_t + λI)⁻¹y_{1:t}``,
  ``σ_t²(x) = k(x,x) − k_t(x)ᵀ(K_t + λI)⁻¹k_t(x)``.
* On a finite domain the exact feature map is ``φ(x) = K_𝒟^{1/2} e_x``, so that
  ``V_t = Φ_tᵀΦ_t + λI`` is a finite matrix and Lemma 5 and Lemma 6 can be checked directly.

Proof note: ``proofs_notes/zhou_tan/gp_posterior_lemmas5_7.md``.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from reference._typing import FloatArray, IntArray
from reference.validation import (
    check_array,
    check_index_array,
    check_int_at_least,
    check_positive,
    check_psd,
)

__all__ = [
    "FiniteDomainGP",
    "finite_feature_map",
    "gp_posterior",
    "gp_posterior_on_domain",
    "lemma5_posterior_variance",
]


def _domain_kernel(name: str, K: FloatArray) -> FloatArray:
    """A non-empty square matrix over the ``n >= 1`` arms of the domain (finite)."""
    Kd = check_array(name, K, ndim=2)
    if Kd.shape[0] == 0 or Kd.shape[0] != Kd.shape[1]:
        raise ValueError(f"{name} must be a non-empty square matrix, got shape {Kd.shape}")
    return Kd


def gp_posterior(
    K_tt: FloatArray, K_tx: FloatArray, kxx_diag: FloatArray, y: FloatArray, lam: float
) -> tuple[FloatArray, FloatArray]:
    """Posterior mean and variance of Eqs. (3)–(4) by a Cholesky factorisation of ``K_t + λI``.

    ``K_tt`` is ``t × t`` (past points), ``K_tx`` is ``t × n`` (past points vs query points),
    ``kxx_diag`` the ``n`` prior variances ``k(x, x)``, ``y`` the ``t`` observations.  Variances are
    clipped at 0 (rounding only).  With ``t = 0`` the prior ``(0, k(x,x))`` is returned.
    """
    lam_ = check_positive("lam", lam)
    Ktt = check_array("K_tt", K_tt, ndim=2)
    t = Ktt.shape[0]
    if Ktt.shape != (t, t):
        raise ValueError(f"K_tt must be a square t x t matrix, got shape {Ktt.shape}")
    Ktx = check_array("K_tx", K_tx, ndim=2)
    if Ktx.shape[0] != t:
        raise ValueError(
            f"K_tx must have one row per past point (t = K_tt.shape[0] = {t}), got shape {Ktx.shape}"
        )
    kxx = check_array("kxx_diag", kxx_diag, ndim=1)
    if kxx.shape != (Ktx.shape[1],):
        raise ValueError(
            f"kxx_diag must have one entry per query point (K_tx.shape[1] = {Ktx.shape[1]}), "
            f"got shape {kxx.shape}"
        )
    yy = check_array("y", y, ndim=1)
    if yy.shape != (t,):
        raise ValueError(f"y must have one entry per past point (t = {t}), got shape {yy.shape}")
    if t == 0:
        return np.zeros_like(kxx), kxx.copy()
    factor = linalg.cho_factor(Ktt + lam_ * np.eye(t), lower=True)
    mean = Ktx.T @ linalg.cho_solve(factor, yy)
    L = np.tril(factor[0])
    W = linalg.solve_triangular(L, Ktx, lower=True)
    var = kxx - np.sum(W * W, axis=0)
    return np.asarray(mean, dtype=np.float64), np.clip(var, 0.0, None)


def gp_posterior_on_domain(
    K: FloatArray, arms: IntArray, y: FloatArray, lam: float
) -> tuple[FloatArray, FloatArray]:
    """Eqs. (3)–(4) on a finite domain with Gram matrix ``K`` after playing ``arms`` (repeats allowed)."""
    Kd = _domain_kernel("K", K)
    idx = check_index_array("arms", arms, Kd.shape[0], ndim=1)
    yy = check_array("y", y, ndim=1)
    if yy.shape != idx.shape:
        raise ValueError(
            f"y must have one observation per entry of arms ({idx.size}), got shape {yy.shape}"
        )
    return gp_posterior(Kd[np.ix_(idx, idx)], Kd[idx, :], np.diag(Kd).copy(), yy, lam)


def finite_feature_map(K: FloatArray) -> FloatArray:
    """``K_𝒟^{1/2}`` (symmetric PSD square root): column ``x`` is ``φ(x)``, so ``φ(x)ᵀφ(x') = k(x, x')``."""
    Kd = check_array("K", K, ndim=2)
    check_psd("K", Kd, atol=1e-8)
    w, U = linalg.eigh(Kd)
    root = (U * np.sqrt(np.clip(w, 0.0, None))) @ U.T
    return np.asarray(root, dtype=np.float64)


def lemma5_posterior_variance(K_root: FloatArray, arms: IntArray, lam: float) -> FloatArray:
    """Lemma 5: ``σ_t²(x) = λ‖φ(x)‖²_{V_t⁻¹}``, ``V_t = Φ_tᵀΦ_t + λI``, exact features.

    ``K_root`` is :func:`finite_feature_map` ``(K)``; column ``x`` is ``φ(x)``.  Equals Eq. (4).
    """
    lam_ = check_positive("lam", lam)
    root = _domain_kernel("K_root", K_root)
    idx = check_index_array("arms", arms, root.shape[1], ndim=1)
    Phi = root[:, idx].T
    V = Phi.T @ Phi + lam_ * np.eye(root.shape[0])
    return np.asarray(lam_ * np.sum(root * np.linalg.solve(V, root), axis=0), dtype=np.float64)


class FiniteDomainGP:
    """Exact GP posterior on ``n`` arms, updated by rank-one formulas.

    With ``a = Σ[:, i]`` and ``c = λ + Σ[i, i]`` an observation ``y`` at arm ``i`` gives
    ``μ ← μ + (y − μ_i) a/c`` and ``Σ ← Σ − a aᵀ/c``; this equals Eqs. (3)–(4) (checked against
    :func:`gp_posterior_on_domain` in the tests).  Every ``refresh_every`` updates the posterior is
    recomputed from scratch by Cholesky to stop rounding drift.
    """

    def __init__(self, K: FloatArray, lam: float, refresh_every: int = 200) -> None:
        Kd = _domain_kernel("K", K)
        check_psd("K", Kd, atol=1e-8)
        self.K = Kd.copy()
        self.lam = check_positive("lam", lam)
        self.refresh_every = check_int_at_least("refresh_every", refresh_every, 1)
        n = Kd.shape[0]
        self.mean = np.zeros(n, dtype=np.float64)
        self.cov = Kd.copy()
        self._arms: list[int] = []
        self._y: list[float] = []

    @property
    def var(self) -> FloatArray:
        """Posterior variances ``σ_t²`` on the domain (clipped at 0)."""
        return np.clip(np.diag(self.cov).copy(), 0.0, None)

    @property
    def n_obs(self) -> int:
        return len(self._arms)

    def update(self, arm: int, y: float) -> None:
        """Condition on one observation ``y`` at ``arm``."""
        i = check_int_at_least("arm", arm, 0)
        if i >= self.K.shape[0]:
            raise ValueError(f"arm must be in [0, {self.K.shape[0] - 1}], got {arm!r}")
        yv = float(check_array("y", np.asarray(y), shape=()))
        self._arms.append(i)
        self._y.append(yv)
        if len(self._arms) % self.refresh_every == 0:
            self.refresh()
            return
        a = self.cov[:, i].copy()
        c = self.lam + float(self.cov[i, i])
        self.mean = self.mean + (yv - float(self.mean[i])) * a / c
        self.cov = self.cov - np.outer(a, a) / c

    def refresh(self) -> None:
        """Recompute mean and covariance from all observations with Eqs. (3)–(4) (Cholesky)."""
        if not self._arms:
            return
        idx = np.asarray(self._arms, dtype=np.int64)
        Ktt = self.K[np.ix_(idx, idx)]
        Ktx = self.K[idx, :]
        factor = linalg.cho_factor(Ktt + self.lam * np.eye(idx.size), lower=True)
        self.mean = np.asarray(
            Ktx.T @ linalg.cho_solve(factor, np.asarray(self._y)), dtype=np.float64
        )
        self.cov = self.K - Ktx.T @ linalg.cho_solve(factor, Ktx)
        self.cov = 0.5 * (self.cov + self.cov.T)
