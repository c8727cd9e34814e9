"""Algorithm 1 of Shariff & Sheffet: linear UCB with changing perturbations.

Line 7 picks ``x_t ← argmax_{x ∈ D_t} ⟨θ̃_t, x⟩ + β_t ‖x‖_{V_t⁻¹}`` (Eq. 1) with
``θ̃_t = V_t⁻¹ ũ_t`` and ``β_t`` from Proposition 4.  Lines 4 and 9 are delegated to a
:class:`~reference.shariff_sheffet.regularizers.Regularizer`, where privacy lives; :class:`LinUCB`
itself is deterministic.  Off the accuracy event of Definition 3, ``pd_policy="repair"`` (default)
raises eigenvalues of ``V_t`` below ``ρ_min`` to ``ρ_min`` and warns with
:class:`AccuracyEventWarning`; ``pd_policy="raise"`` raises :class:`AccuracyEventError`.

Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np

from reference._typing import FloatArray, IntArray
from reference.shariff_sheffet.bounds import RegularizerBounds, beta_t
from reference.shariff_sheffet.regularizers import ProblemConstants, Regularizer
from reference.validation import (
    check_alpha,
    check_array,
    check_choice,
    check_instance,
    check_row_norms,
)

__all__ = [
    "UCB_TIE_RTOL",
    "AccuracyEventError",
    "AccuracyEventWarning",
    "LinUCB",
    "PDPolicy",
    "RoundDiagnostics",
    "ucb_argmax",
]

PDPolicy: TypeAlias = Literal["repair", "raise"]


class AccuracyEventWarning(UserWarning):
    """``V_t`` had an eigenvalue below ``ρ_min`` (outside the accuracy event) and was repaired."""


class AccuracyEventError(RuntimeError):
    """``V_t`` had an eigenvalue below ``ρ_min`` and ``pd_policy="raise"`` was chosen."""


@dataclass(frozen=True)
class RoundDiagnostics:
    """What Algorithm 1 computed in one round (for audits and plots)."""

    beta: float
    log_det_V: float
    lambda_min_V: float
    repaired: bool
    theta_tilde: FloatArray


UCB_TIE_RTOL = 1e-12
"""UCB values within this relative distance of the maximum are ties (:func:`ucb_argmax`)."""


def ucb_argmax(ucb: FloatArray) -> IntArray:
    """Line 7's ``argmax`` over the last axis, ties to the lowest index.

    Values within ``UCB_TIE_RTOL · max(1, |max|)`` of the maximum count as tied.  Exact ties are
    common -- at ``t = 1`` the non-private ``V_1 = ρI`` and ``θ̃_1 = 0`` make every unit-norm arm's
    index ``β_1`` -- and rounding noise would otherwise decide them, differently in
    mathematically equivalent computations (the engine's Cholesky and the reference's
    eigendecomposition).  Batched over leading axes (the engine's replicates).
    """
    ucb = check_array("ucb", ucb)
    if ucb.ndim == 0 or ucb.shape[-1] == 0:
        raise ValueError(f"ucb must have shape (..., K) with K >= 1, got {ucb.shape}")
    best = np.max(ucb, axis=-1, keepdims=True)
    tolerance = UCB_TIE_RTOL * np.maximum(1.0, np.abs(best))
    return np.asarray(np.argmax(ucb >= best - tolerance, axis=-1), dtype=np.int64)


class LinUCB:
    """Algorithm 1 (linear UCB with changing perturbations) as a policy object.

    Use :meth:`select` with the decision set ``D_t`` (shape ``(K, d)``) to get the index of
    ``x_t``, then :meth:`update` with ``x_t`` and the observed reward ``y_t``.

    Args:
        regularizer: source of ``(V_t, ũ_t)`` and of the bounds ``ρ_min, ρ_max, γ``.
        constants: the problem constants (``d``, ``L``, ``S``, ``σ``).
        alpha: confidence parameter ``α ∈ (0, 1)`` of Proposition 4 (the paper's experiments use
            ``α = 1/n``).
        pd_policy: ``"repair"`` or ``"raise"``, see the module docstring.
    """

    def __init__(
        self,
        regularizer: Regularizer,
        constants: ProblemConstants,
        alpha: float,
        *,
        pd_policy: PDPolicy = "repair",
    ) -> None:
        check_instance("regularizer", regularizer, Regularizer)
        check_instance("constants", constants, ProblemConstants)
        if regularizer.d != constants.d:
            raise ValueError(
                f"regularizer dimension {regularizer.d} does not match constants.d={constants.d}"
            )
        check_choice("pd_policy", pd_policy, ("repair", "raise"))
        self.regularizer = regularizer
        self.constants = constants
        self.alpha = check_alpha(alpha)
        self.pd_policy: PDPolicy = pd_policy
        self.repairs = 0
        self.rounds = 0
        self.last: RoundDiagnostics | None = None

    @property
    def bounds(self) -> RegularizerBounds:
        """The regularizer's accuracy bounds used in ``β_t``."""
        return self.regularizer.bounds

    def _eigendecomposition(self, V: FloatArray) -> tuple[FloatArray, FloatArray, bool]:
        """Eigen-decomposition of ``V_t`` with the PD guard applied (module docstring)."""
        lam, Q = np.linalg.eigh(V)
        rho_min = self.bounds.rho_min
        if lam[0] >= rho_min * (1.0 - 1e-9):
            return lam, Q, False
        if self.pd_policy == "raise":
            raise AccuracyEventError(
                f"round {self.rounds + 1}: lambda_min(V_t) = {lam[0]} < rho_min = {rho_min}"
            )
        if self.repairs == 0:
            warnings.warn(
                f"round {self.rounds + 1}: lambda_min(V_t) = {lam[0]} < rho_min = {rho_min}; "
                "eigenvalues raised to rho_min (outside the accuracy event of Definition 3)",
                AccuracyEventWarning,
                stacklevel=3,
            )
        self.repairs += 1
        return np.maximum(lam, rho_min), Q, True

    def select(self, arms: FloatArray) -> int:
        """Lines 4-7: the index of the arm maximising ``⟨θ̃_t, x⟩ + β_t ‖x‖_{V_t⁻¹}``.

        Ties go to the lowest index (:func:`ucb_argmax`).  ``arms`` has shape ``(K, d)``, ``K ≥ 1``, with every row of norm
        at most ``L`` (Assumption 1).
        """
        d = self.constants.d
        X = check_array("arms", arms, shape=(None, d))
        if X.shape[0] == 0:
            raise ValueError("arms must contain at least one action (shape (K, d) with K >= 1)")
        check_row_norms("arms", X, self.constants.L)
        V, u_tilde = self.regularizer.current()
        lam, Q, repaired = self._eigendecomposition(V)
        # V_t^{-1} = Q diag(1/λ) Qᵀ
        theta_tilde = Q @ ((Q.T @ u_tilde) / lam)
        log_det_V = float(np.sum(np.log(lam)))
        beta = beta_t(log_det_V, d, self.constants.sigma, self.alpha, self.constants.S, self.bounds)
        projected = X @ Q  # row i: Qᵀ x_i
        width_sq = np.maximum(np.sum(projected**2 / lam, axis=1), 0.0)  # ‖x_i‖²_{V⁻¹}
        ucb = X @ theta_tilde + beta * np.sqrt(width_sq)
        self.last = RoundDiagnostics(
            beta=beta,
            log_det_V=log_det_V,
            lambda_min_V=float(lam[0]),
            repaired=repaired,
            theta_tilde=theta_tilde,
        )
        return int(ucb_argmax(ucb))

    def update(self, x: FloatArray, y: float) -> None:
        """Lines 8-9: feed the chosen action ``x_t`` and its reward ``y_t`` to the regularizer."""
        self.regularizer.update(x, y)
        self.rounds += 1
