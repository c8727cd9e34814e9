"""Accuracy-event audit of a regularizer source (Shariff & Sheffet Definition 3).

For one padded tree release (a noise law summed over exactly ``m`` node noises), a shift, and
claimed ``(ρ_min, ρ_max, γ)``, the event ``ρ_min ≤ λ_min(H)``, ``λ_max(H) ≤ ρ_max``,
``‖h‖_{H⁻¹} ≤ γ`` (``H = N[:d, :d] + shift·I``, ``h = N[:d, d]``) must fail with probability at most
``q`` per release; a one-sided Clopper–Pearson bound over ``R`` releases rejects with false-alarm
probability ``≤ β`` (:mod:`audit.methods.binomial`).  Whole runs and the confidence ellipsoid of
Proposition 4 are audited in :mod:`audit.papers.shariff_sheffet.theorems`.

Proof note: ``proofs_notes/audit/accuracy_event.md``.
"""

from __future__ import annotations

import time

import numpy as np

from audit.methods.binomial import RunAuditResult, check_ratios
from reference.noise import NodeNoise
from reference.rng import as_generator
from reference.shariff_sheffet.bounds import RegularizerBounds
from reference.validation import (
    check_array,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
    check_size,
)

__all__ = [
    "definition3_ratios",
    "regularizer_accuracy_audit",
    "regularizer_extremes",
    "regularizer_extremes_batch",
]


def regularizer_extremes(H: np.ndarray, h: np.ndarray) -> tuple[float, float, float]:
    """``(λ_min(H), λ_max(H), ‖h‖_{H⁻¹})``, with ``‖h‖_{H⁻¹} = ∞`` when ``H`` is not PD."""
    H = check_array("H", H, ndim=2)
    if H.shape[0] == 0 or H.shape[0] != H.shape[1]:
        raise ValueError(f"H must be a non-empty square matrix, got shape {H.shape}")
    h = check_array("h", h, ndim=1)
    if h.shape != (H.shape[0],):
        raise ValueError(f"h must have shape ({H.shape[0]},) to match H, got {h.shape}")
    lam_min, lam_max, norm = regularizer_extremes_batch(H[None], h[None])
    return float(lam_min[0]), float(lam_max[0]), float(norm[0])


def regularizer_extremes_batch(
    H: np.ndarray, h: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`regularizer_extremes` for stacks ``H`` of shape ``(R, d, d)`` and ``h`` ``(R, d)``.

    Each ``H[r]`` must be symmetric (up to ``1e-10`` of its largest entry), as a regularizer is:
    the eigenvalues of an asymmetric matrix are not what Definition 3 bounds."""
    H = check_array("H", H, ndim=3)
    if H.shape[0] == 0 or H.shape[1] == 0 or H.shape[1] != H.shape[2]:
        raise ValueError(f"H must have shape (R, d, d) with R, d >= 1, got {H.shape}")
    scale = np.maximum(1.0, np.max(np.abs(H), axis=(1, 2)))
    if np.any(np.max(np.abs(H - np.swapaxes(H, 1, 2)), axis=(1, 2)) > 1e-10 * scale):
        raise ValueError("H must be symmetric (every H[r] in a stack)")
    h = check_array("h", h, ndim=2)
    if h.shape != H.shape[:2]:
        raise ValueError(f"h must have shape {H.shape[:2]} to match H, got {h.shape}")
    lam, Q = np.linalg.eigh(H)
    pd = lam[:, 0] > 0
    safe = np.where(pd[:, None], lam, 1.0)
    projected = np.matmul(np.swapaxes(Q, 1, 2), h[:, :, None])[:, :, 0]
    norm = np.where(pd, np.sqrt(np.sum(projected**2 / safe, axis=1)), np.inf)
    return lam[:, 0], lam[:, -1], norm


def definition3_ratios(
    lam_min: np.ndarray, lam_max: np.ndarray, h_norm: np.ndarray, bounds: RegularizerBounds
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratios to the Definition-3 bounds: ``ρ_min/λ_min``, ``λ_max/ρ_max``, ``‖h‖_{H⁻¹}/γ``
    (each ``≤ 1`` on the event; ``∞`` where ``λ_min ≤ 0`` or ``γ = 0 < ‖h‖``).

    ``lam_min``, ``lam_max`` and ``h_norm`` are non-empty 1-D arrays of one shape; ``h_norm`` may be
    ``+inf`` (:func:`regularizer_extremes` where ``H`` is not PD); NaN is refused."""
    lam_min = check_ratios("lam_min", lam_min, allow_inf=False)
    lam_max = check_ratios("lam_max", lam_max, allow_inf=False)
    h_norm = check_ratios("h_norm", h_norm, allow_inf=True)
    if not lam_min.shape == lam_max.shape == h_norm.shape:
        raise ValueError(
            "lam_min, lam_max and h_norm must have one shape, got "
            f"{lam_min.shape}, {lam_max.shape} and {h_norm.shape}"
        )
    if np.any(h_norm < 0.0):
        raise ValueError("h_norm must hold norms (>= 0)")
    check_instance("bounds", bounds, RegularizerBounds)
    safe = np.where(lam_min > 0, lam_min, 1.0)
    min_ratio = np.where(lam_min > 0, bounds.rho_min / safe, np.inf)
    gamma_ratio = h_norm / bounds.gamma if bounds.gamma > 0 else np.where(h_norm > 0, np.inf, 0.0)
    return min_ratio, lam_max / bounds.rho_max, gamma_ratio


def _definition3_result(
    name: str,
    extremes: np.ndarray,
    bounds: RegularizerBounds,
    labels: tuple[str, str, str],
    nominal_failure_rate: float,
    confidence: float,
    seed: int,
    started: float,
) -> RunAuditResult:
    """The run audit of the Definition-3 event from per-run ``extremes`` (rows ``(λ_min, λ_max,
    ‖h‖_{H⁻¹})``): the three :func:`definition3_ratios` against ``bounds``, named ``labels``."""
    ratios = definition3_ratios(extremes[:, 0], extremes[:, 1], extremes[:, 2], bounds)
    return RunAuditResult.from_ratios(
        name,
        dict(zip(labels, ratios, strict=True)),
        nominal_failure_rate,
        confidence=confidence,
        seed=seed,
        started=started,
    )


def regularizer_accuracy_audit(
    noise: NodeNoise,
    m: int,
    d: int,
    bounds: RegularizerBounds,
    nominal_failure_rate: float,
    *,
    releases: int,
    seed: int,
    name: str = "accuracy",
    confidence: float = 0.95,
    shift: float | None = None,
) -> RunAuditResult:
    """Count violations of the Definition-3 event over ``releases`` independent padded releases
    (``runs`` of the result).

    ``shift`` defaults to ``bounds.shift``; passing another value audits an implementation that
    applies a different shift (e.g. forgets it) against the claimed bounds.
    """
    t0 = time.perf_counter()
    check_instance("noise", noise, NodeNoise)
    m = check_int_at_least("m", m, 1)
    d = check_int_at_least("d", d, 1)
    if tuple(noise.shape) != (d + 1, d + 1):
        raise ValueError(
            f"noise.shape must be (d + 1, d + 1) = {(d + 1, d + 1)}, got {noise.shape}"
        )
    check_instance("bounds", bounds, RegularizerBounds)
    releases = check_size("releases", releases, 1, item_bytes=8, what="a release")
    q = check_in_range("nominal_failure_rate", nominal_failure_rate, 0.0, 1.0, low_open=False)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    applied = bounds.shift if shift is None else check_finite("shift", shift)
    rng = as_generator(seed, "seed")
    extremes = np.empty((releases, 3))
    for r in range(releases):
        total = noise.sample_sum(rng, m)
        extremes[r] = regularizer_extremes(total[:d, :d] + applied * np.eye(d), total[:d, d])
    labels = ("rho_min / lambda_min(H)", "lambda_max(H) / rho_max", "||h||_{H^-1} / gamma")
    return _definition3_result(name, extremes, bounds, labels, q, confidence, seed, t0)
