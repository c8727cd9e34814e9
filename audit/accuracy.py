"""Accuracy-event audit of a regularizer source (Shariff & Sheffet Definition 3).

For a noise law summed over exactly ``m`` node noises (one padded tree release), a shift, and
claimed bounds ``(ρ_min, ρ_max, γ)``, the event

    ``ρ_min ≤ λ_min(H)``, ``λ_max(H) ≤ ρ_max`` and ``‖h‖_{H⁻¹} ≤ γ``,
    with ``H = N[:d, :d] + shift·I`` and ``h = N[:d, d]``,

must fail with probability at most ``q`` per release.  Over ``R`` independent releases the number
of failures is ``Bin(R, q')`` with ``q' ≤ q`` under the claim, so a one-sided Clopper–Pearson lower
bound on the failure rate above ``q`` rejects the claim with false-alarm probability ``≤ β``.
(Issue 5 extends this to whole runs and to the confidence ellipsoid of Proposition 4.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from audit.stats import clopper_pearson
from reference.noise import NodeNoise
from reference.rng import as_generator
from reference.shariff_sheffet.bounds import RegularizerBounds
from reference.validation import (
    check_array,
    check_finite,
    check_in_range,
    check_instance,
    check_int_at_least,
)

__all__ = [
    "RunAuditResult",
    "definition3_ratios",
    "ratio_quantiles",
    "regularizer_accuracy_audit",
    "regularizer_extremes",
    "regularizer_extremes_batch",
]


def _values(name: str, value: np.ndarray, *, allow_inf: bool, ndim: int = 1) -> np.ndarray:
    """A non-empty array of numbers: NaN and ``-inf`` are refused, ``+inf`` only if ``allow_inf``
    (a ratio to a bound is ``+inf`` where the bound's premise fails, e.g. ``λ_min ≤ 0``)."""
    if isinstance(value, bool | np.bool_ | str | bytes) or value is None:
        raise ValueError(f"{name} must be an array of real numbers, got {value!r:.80}")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} must be an array of real numbers, got {value!r:.80}") from err
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-dimensional array, got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} must not be empty")
    bad = np.isnan(arr) | (arr == -np.inf) | ((arr == np.inf) & (not allow_inf))
    if np.any(bad):
        allowed = "+inf allowed" if allow_inf else "finite values only"
        raise ValueError(f"{name} must not contain NaN or -inf ({allowed})")
    return arr


def ratio_quantiles(x: np.ndarray) -> tuple[float, float, float]:
    """1%, 50% and 99% empirical quantiles (no interpolation, so infinite ratios are allowed).

    ``x`` is a non-empty 1-D array of ratios; NaN and ``-inf`` are refused."""
    x = _values("x", x, allow_inf=True)
    a, b, c = np.quantile(x, [0.01, 0.5, 0.99], method="inverted_cdf")
    return float(a), float(b), float(c)


@dataclass(frozen=True)
class RunAuditResult:
    """Failure count over independent trials (releases or runs), its Clopper–Pearson bounds, and
    slack quantiles.

    ``slack`` maps a quantity to its (1%, 50%, 99%) empirical quantiles over trials, each expressed
    as a ratio to its bound (``≤ 1`` on the event; e.g. ``rho_min / lambda_min(H)``).
    """

    name: str
    runs: int
    failures: int
    nominal_failure_rate: float
    failure_rate_lower: float
    failure_rate_upper: float
    violation: bool
    confidence: float
    seed: int
    runtime_seconds: float
    slack: dict[str, tuple[float, float, float]]

    @classmethod
    def from_ratios(
        cls,
        name: str,
        ratios: dict[str, np.ndarray],
        nominal_failure_rate: float,
        *,
        confidence: float,
        seed: int,
        started: float,
    ) -> RunAuditResult:
        """A trial fails when any of its ratios to a bound exceeds 1.  Failures are
        ``Bin(trials, q')`` with ``q' ≤ q`` under the claim, so a one-sided Clopper–Pearson lower
        bound (level ``1 − confidence``) above ``q`` rejects with probability ``≤ 1 − confidence``.
        """
        confidence = check_in_range("confidence", confidence, 0.0, 1.0)
        values = [_values(f"ratios[{key!r}]", v, allow_inf=True) for key, v in ratios.items()]
        if not values:
            raise ValueError("ratios must hold at least one quantity")
        trials = len(values[0])
        failed = np.zeros(trials, dtype=bool)
        for ratio in values:
            failed |= ratio > 1.0
        failures = int(failed.sum())
        beta = 1.0 - confidence
        low, _ = clopper_pearson(failures, trials, beta)
        _, high = clopper_pearson(failures, trials, beta)
        return cls(
            name=name,
            runs=trials,
            failures=failures,
            nominal_failure_rate=nominal_failure_rate,
            failure_rate_lower=low,
            failure_rate_upper=high,
            violation=low > nominal_failure_rate,
            confidence=confidence,
            seed=seed,
            runtime_seconds=time.perf_counter() - started,
            slack={key: ratio_quantiles(ratio) for key, ratio in ratios.items()},
        )


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
    """:func:`regularizer_extremes` for stacks ``H`` of shape ``(R, d, d)`` and ``h`` ``(R, d)``."""
    H = check_array("H", H, ndim=3)
    if H.shape[0] == 0 or H.shape[1] == 0 or H.shape[1] != H.shape[2]:
        raise ValueError(f"H must have shape (R, d, d) with R, d >= 1, got {H.shape}")
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
    lam_min = _values("lam_min", lam_min, allow_inf=False)
    lam_max = _values("lam_max", lam_max, allow_inf=False)
    h_norm = _values("h_norm", h_norm, allow_inf=True)
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
    releases = check_int_at_least("releases", releases, 1)
    q = check_in_range("nominal_failure_rate", nominal_failure_rate, 0.0, 1.0, low_open=False)
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    applied = bounds.shift if shift is None else check_finite("shift", shift)
    rng = as_generator(seed, "seed")
    extremes = np.empty((releases, 3))
    for r in range(releases):
        total = noise.sample_sum(rng, m)
        extremes[r] = regularizer_extremes(total[:d, :d] + applied * np.eye(d), total[:d, d])
    min_ratio, max_ratio, gamma_ratio = definition3_ratios(
        extremes[:, 0], extremes[:, 1], extremes[:, 2], bounds
    )
    return RunAuditResult.from_ratios(
        name,
        {
            "rho_min / lambda_min(H)": min_ratio,
            "lambda_max(H) / rho_max": max_ratio,
            "||h||_{H^-1} / gamma": gamma_ratio,
        },
        q,
        confidence=confidence,
        seed=seed,
        started=t0,
    )
