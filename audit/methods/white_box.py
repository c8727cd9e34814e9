"""White-box privacy audits: exact privacy-loss laws and the sampled hockey-stick test (the exact
privacy curves live in :mod:`reference.accounting`).

A pair is ``(ε, δ)``-DP iff ``δ_{P‖Q}(ε) = E_P[(1 − e^{ε − L})₊] ≤ δ`` both ways, with
``L = ln(dP/dQ)(O)`` (Balle & Wang 2018, Thm 5).  :func:`privacy_loss_audit` bounds both
divergences from loss samples with empirical-Bernstein bounds (:mod:`audit.stats`) and rejects when
a lower bound exceeds ``δ`` (the test: ``white_box_hockey_stick.md``).  Exact loss samplers:
Gaussian shift (Shariff & Sheffet Sec. 4.2) and the Wishart node (Sec. 4.1: add, remove,
orthogonal replacement; Muirhead Thms 3.2.11-3.2.12).

Proof note: ``proofs_notes/audit/exact_privacy_curves.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Literal, TypeVar

import numpy as np
from scipy import stats

from audit.protocols import (
    DensityMechanism,
    NeighbouringPair,
    PrivacyClaim,
    _float_array,
    check_claim_matches_pair,
    check_log_densities,
    check_outputs,
    check_same_output_space,
)
from audit.results import POWER, CurvePoint, PrivacyAuditResult
from audit.stats import (
    empirical_bernstein_bounds,
    empirical_bernstein_pvalue,
    empirical_bernstein_width,
    hockey_stick_summands,
)
from reference._typing import FloatArray
from reference.rng import check_seed
from reference.validation import check_in_range, check_instance, check_int_at_least, check_positive

__all__ = [
    "compose_losses",
    "density_privacy_losses",
    "gaussian_losses",
    "privacy_loss_audit",
    "white_box_audit",
    "wishart_add_remove_losses",
    "wishart_replacement_losses",
]

DataT = TypeVar("DataT")


# --------------------------------------------------------------------------------------------
# Privacy-loss samplers (closed-form laws)
# --------------------------------------------------------------------------------------------


def gaussian_losses(rng: np.random.Generator, size: int, mu: float) -> FloatArray:
    """``size`` draws of the Gaussian-shift privacy loss ``N(μ²/2, μ²)`` (either direction)."""
    size = check_int_at_least("size", size, 1)
    mu = check_positive("mu", mu)
    return rng.normal(mu**2 / 2.0, mu, size=size)


def _wishart_a(k: int, p: int) -> float:
    k = check_int_at_least("k", k, p + 1)
    return (k - p - 1) / 2.0


def wishart_add_remove_losses(
    rng: np.random.Generator,
    size: int,
    *,
    k: int,
    p: int,
    r: float = 1.0,
    direction: Literal["add", "remove"] = "add",
) -> FloatArray:
    """Privacy loss of one Wishart node ``W_p(sI, k)`` for adding (``"add"``: ``L_{P‖Q}``, ``P``
    holds the row) or removing (``"remove"``: ``L_{Q‖P}``) a row of squared norm ``r·s``."""
    size = check_int_at_least("size", size, 1)
    p = check_int_at_least("p", p, 1)
    a = _wishart_a(k, p)
    r = check_positive("r", r)
    x = rng.chisquare(k - p + 1, size=size)
    if direction == "add":
        return -a * np.log1p(r / x) + r / 2.0
    if direction == "remove":
        out = np.full(size, np.inf)
        ok = x > r
        out[ok] = -a * np.log1p(-r / x[ok]) - r / 2.0
        return out
    raise ValueError(f"direction must be 'add' or 'remove', got {direction!r}")


def wishart_replacement_losses(
    rng: np.random.Generator, size: int, *, k: int, p: int, r: float = 1.0
) -> FloatArray:
    """Privacy loss of one Wishart node ``W_p(sI, k)`` for replacing a row ``v`` by ``v' ⊥ v`` of
    the same squared norm ``r·s`` (``r = 1``: the worst case of Shariff & Sheffet's neighbouring relation (Sec. 1.1), ``‖v‖ = L̃`` with
    ``s = L̃²``).  ``T = UᵀN⁻¹U = r·T₀`` with ``T₀⁻¹ ~ W₂(I₂, k − p + 2)``; both directions have
    this law by symmetry."""
    size = check_int_at_least("size", size, 1)
    p = check_int_at_least("p", p, 1)
    a = _wishart_a(k, p)
    r = check_positive("r", r)
    # T₀⁻¹ ~ W₂(I₂, df) by the Bartlett decomposition A Aᵀ, A = [[√c₁, 0], [z, √c₂]],
    # c₁ ~ χ²_df, c₂ ~ χ²_{df−1}, z ~ N(0, 1) (vectorised 2×2 case of scipy.stats.wishart, which
    # the tests cross-check); then T = r·T₀ in closed form: T₀ = adj(T₀⁻¹)/det(T₀⁻¹).
    df = k - p + 2
    c1 = rng.chisquare(df, size=size)
    c2 = rng.chisquare(df - 1, size=size)
    z = rng.standard_normal(size)
    det_inv = c1 * c2
    t = np.empty((size, 2, 2))
    t[:, 0, 0] = r * (z**2 + c2) / det_inv
    t[:, 1, 1] = r * c1 / det_inv
    t[:, 0, 1] = t[:, 1, 0] = -r * z * np.sqrt(c1) / det_inv
    # det(I + J T) with J = diag(1, -1): (1 + T11)(1 - T22) + T12 T21
    det = (1.0 + t[:, 0, 0]) * (1.0 - t[:, 1, 1]) + t[:, 0, 1] * t[:, 1, 0]
    out = np.full(size, np.inf)
    ok = det > 0.0
    out[ok] = -a * np.log(det[ok])
    return out


def compose_losses(
    sampler: Callable[[np.random.Generator, int], FloatArray],
    nodes: int,
    rng: np.random.Generator,
    size: int,
) -> FloatArray:
    """Privacy loss of ``nodes`` independent mechanisms with i.i.d. losses: the sum of ``nodes``
    independent draws of ``sampler`` (the tree's node-level view, Shariff & Sheffet App. A.2)."""
    nodes = check_int_at_least("nodes", nodes, 1)
    total = np.zeros(check_int_at_least("size", size, 1))
    for _ in range(nodes):
        total = total + sampler(rng, size)
    return total


# --------------------------------------------------------------------------------------------
# The sampled hockey-stick test
# --------------------------------------------------------------------------------------------


def _default_grid(losses: Sequence[FloatArray], claim: PrivacyClaim) -> FloatArray:
    finite = np.concatenate([x[np.isfinite(x)] for x in losses])
    top = float(np.quantile(finite, 0.9999)) if finite.size else 0.0
    hi = max(2.0 * claim.epsilon, top, 1e-3)
    return np.linspace(0.0, hi, 81)


def _check_losses(losses: object, name: str) -> FloatArray:
    """Privacy-loss draws: a 1-D float array of at least 2 losses (the empirical-Bernstein bound
    needs two), no NaN and no ``-inf`` (``+inf``, an output impossible under the other input, is
    allowed).  Nothing is flattened or dropped."""
    arr = _float_array(losses, name, "a numeric 1-D array of losses")
    if arr.ndim != 1 or arr.size < 2:
        raise ValueError(
            f"{name} must be a non-empty 1-D array of at least 2 losses, got shape {arr.shape}"
        )
    if np.isnan(arr).any():
        raise ValueError(f"{name} contain {int(np.isnan(arr).sum())} NaN values")
    if (arr == -np.inf).any():
        raise ValueError(
            f"{name} contain {int((arr == -np.inf).sum())} -inf values: a loss of -inf is an "
            "output impossible under the input that generated it"
        )
    return arr


def _check_epsilon_grid(epsilons: object) -> FloatArray:
    """The curve's grid: a non-empty 1-D array of finite ``ε ≥ 0``."""
    try:
        grid = np.asarray(epsilons, dtype=np.float64)
    except (TypeError, ValueError) as err:
        raise ValueError(f"epsilons must be a numeric 1-D array, got {epsilons!r}") from err
    if grid.ndim != 1 or grid.size == 0:
        raise ValueError(f"epsilons must be a non-empty 1-D array, got shape {grid.shape}")
    if not np.isfinite(grid).all() or (grid < 0.0).any():
        raise ValueError(f"epsilons must be finite and >= 0, got {grid.tolist()!r}")
    return grid


def _detectable_delta(summands: Sequence[FloatArray], beta: float, delta_claim: float) -> float:
    """The smallest ``δ(ε_claim) = d`` the test rejects with probability ``≥ POWER``: the test
    rejects iff the mean exceeds ``δ_claim`` plus the empirical Bernstein width (level ``β/2``),
    so ``d`` must exceed that plus a one-sided normal ``POWER`` quantile of the mean's spread.
    Both use the variance bound ``d(1 − d)`` of a ``[0, 1]`` summand with mean ``d`` (its
    second moment is at most its mean), or the measured variance if larger; ``d`` is the fixed
    point of that equation.  The larger of the two directions, since a violation may show in
    either."""
    z_power = float(stats.norm.ppf(POWER))
    needed = []
    for z in summands:
        n = z.size
        var = float(z.var(ddof=1))
        d = delta_claim
        for _ in range(100):
            v = max(var, d * (1.0 - d))
            width = empirical_bernstein_width(v, n, beta / 2.0)
            d_next = min(1.0, delta_claim + width + z_power * math.sqrt(v / n))
            if abs(d_next - d) <= 1e-12 * max(d, 1e-300):
                break
            d = d_next
        needed.append(d_next)
    return max(needed)


TILT_MIN_ESS = 200.0
"""Least effective sample size (Kish) of the importance weights of a tilted pair
(:func:`_tilted_delta`) for its curve to be read off the audited losses."""


TILT_MAX = 2.0**20
"""Largest tilt ``λ`` tried (a loss that is 0 almost everywhere never reaches the target)."""


def _tilted_delta(lp: FloatArray, lq: FloatArray, lam: float) -> Callable[[float], float] | None:
    """The privacy curve ``ε ↦ max(δ_{P_λ‖Q_λ}(ε), δ_{Q_λ‖P_λ}(ε))`` of the *tilted pair*
    ``P_λ ∝ p^{(1+λ)/2} q^{(1−λ)/2}``, ``Q_λ ∝ q^{(1+λ)/2} p^{(1−λ)/2}``, estimated from the audited
    losses by importance weighting, or ``None`` where the weights are too uneven
    (:data:`TILT_MIN_ESS`).

    ``λ = 1`` is the audited pair, ``λ = 0`` two equal laws, ``λ > 1`` the pair moved further
    apart along the same geodesic: its privacy loss is ``λ·L + log(Z_Q/Z_P)``, and for the
    Gaussian mechanism it is exactly the Gaussian with ``λ`` times the mean difference (a
    noise scale divided by ``λ``).  Under ``P``, ``dP_λ/dP = e^{(λ−1)L/2}/Z_P`` with ``Z_P =
    E_P[e^{(λ−1)L/2}]``, and the same with the roles swapped under ``Q``."""
    logs, weights = [], []
    for losses in (lp, lq):
        log_w = 0.5 * (lam - 1.0) * losses
        top = float(np.max(log_w))
        w = np.exp(log_w - top)
        logs.append(top + math.log(float(np.mean(w))))  # log Z of this side
        weights.append(w / float(np.sum(w)))
    if min(1.0 / float(np.sum(w * w)) for w in weights) < TILT_MIN_ESS:
        return None
    shift = logs[1] - logs[0]  # log(Z_Q/Z_P): P_λ's loss is λL + shift, Q_λ's λL' − shift
    tilted = (lam * lp + shift, lam * lq - shift)

    def delta(eps: float) -> float:
        return max(
            float(np.sum(w * np.maximum(0.0, -np.expm1(eps - loss))))
            for w, loss in zip(weights, tilted, strict=True)
        )

    return delta


def _curve_epsilon(delta: Callable[[float], float], target: float, top: float) -> float:
    """The smallest ``ε ≥ 0`` with ``delta(ε) ≤ target`` (``delta`` non-increasing), by bisection
    up to ``top`` (``inf`` beyond it)."""
    if delta(0.0) <= target:
        return 0.0
    if delta(top) > target:
        return math.inf
    lo, hi = 0.0, top
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (lo, mid) if delta(mid) <= target else (mid, hi)
    return hi


def _detectable_epsilon(
    lp: FloatArray, lq: FloatArray, claim: PrivacyClaim, detectable_delta: float
) -> float:
    """The power statement in ε: the smallest true ``ε(δ_claim)`` among the mechanisms of the
    audited one's tilted family (:func:`_tilted_delta`) that the test catches with probability
    ``≥ 0.95``.  The δ-form says the test catches ``δ(ε_claim) ≥ detectable_delta``; the member
    ``λ*`` with exactly that ``δ_λ*(ε_claim)`` (bisection in ``λ``, along which the curve grows) is
    the least leaky one caught, and its ``ε_λ*(δ_claim)`` is the statement.  For the Gaussian
    mechanism the family is the Gaussians, so the statement is exact whatever ``δ_claim``.

    ``inf`` when no member can be read off the samples (an infinite loss, whose tilt has no
    density, or weights too uneven before the target is reached).  Measured coverage:
    ``proofs_notes/audit/calibration.md``."""
    if not (np.isfinite(lp).all() and np.isfinite(lq).all()):
        return math.inf
    target = detectable_delta
    if target >= 1.0:
        return math.inf
    top = 2.0 * max(float(np.max(np.abs(lp))), float(np.max(np.abs(lq))), claim.epsilon, 1.0)

    def at(lam: float) -> Callable[[float], float] | None:
        return _tilted_delta(lp, lq, lam)

    lo, hi = 0.0, 1.0
    curve = at(hi)
    while curve is not None and curve(claim.epsilon) < target:
        if hi >= TILT_MAX:  # e.g. a loss that is 0 everywhere: no member reaches the target
            return math.inf
        lo, hi = hi, 2.0 * hi
        curve = at(hi)
    if curve is None:
        return math.inf
    for _ in range(40):  # delta_lo(ε_claim) < target <= delta_hi(ε_claim)
        mid = (lo + hi) / 2.0
        middle = at(mid)
        if middle is None:
            return math.inf
        if middle(claim.epsilon) >= target:
            hi, curve = mid, middle
        else:
            lo = mid
    return _curve_epsilon(curve, claim.delta, top * max(hi, 1.0))


PURE_LOSS_TOLERANCE = 1e-9
"""Relative rounding allowance when a drawn privacy loss is compared with a pure claim's ε."""


def privacy_loss_audit(
    losses_p: FloatArray,
    losses_q: FloatArray,
    claim: PrivacyClaim,
    *,
    name: str,
    mechanism: str,
    confidence: float = 0.95,
    epsilons: FloatArray | None = None,
    seed: int | None = None,
    started: float | None = None,
) -> PrivacyAuditResult:
    """Test ``claim`` from privacy-loss samples in both directions.

    Args:
        losses_p: draws of ``L_{P‖Q}`` (outputs drawn under ``P``).
        losses_q: draws of ``L_{Q‖P}`` (outputs drawn under ``Q``).
        claim: the claimed ``(ε, δ)``.
        confidence: ``1 − β``.  Each direction is tested at ``β/2`` (Bonferroni), so the test's
            false-alarm probability on a pair where the claim holds is at most ``β``.
        epsilons: grid for the reported curve (default: 81 points up to the 99.99% loss quantile);
            a non-empty 1-D array of finite ``ε ≥ 0``.
        seed: only a label for the report: the caller drew the losses.  ``None`` records that
            they were drawn without a recorded seed; otherwise it follows the one seed rule
            (:func:`reference.rng.check_seed`).

    Each loss array must be 1-D with at least 2 losses, no NaN and no ``-inf`` (``+inf``, an
    output impossible under the other input, is valid evidence); ``ValueError`` naming
    ``losses_p`` or ``losses_q`` otherwise, before anything is computed.

    The verdict is a violation iff ``max`` over directions of the level-``β/2`` empirical-Bernstein
    lower bound on ``δ(ε_claim)`` exceeds ``δ_claim``.  ``epsilon_lower_bound`` is the largest
    grid ``ε`` at which that lower bound still exceeds ``δ_claim`` (a lower confidence bound on the
    pair's true ``ε(δ_claim)``, up to grid resolution; valid because the lower bound is
    non-increasing in ε where positive, proofs_notes/audit/white_box_hockey_stick.md).  The
    ``epsilon_upper_descriptive`` detail (smallest grid ε whose upper bound is at most ``δ_claim``)
    is descriptive only: the grid is data-dependent and no union bound is taken.

    A pure claim (``δ_claim = 0``) is also tested exactly: it means ``L ≤ ε`` almost surely, so a
    drawn loss above ``ε·(1 + 10⁻⁹)`` refutes it with certainty (``p = 0``), and the largest
    drawn loss is then a lower bound on the pure ε that holds with probability 1 (given the
    declared densities).
    """
    t0 = time.perf_counter() if started is None else started
    confidence = check_in_range("confidence", confidence, 0.0, 1.0)
    if seed is not None:
        seed = check_seed(seed)
    beta = 1.0 - confidence
    lp = _check_losses(losses_p, "losses_p")
    lq = _check_losses(losses_q, "losses_q")
    grid = _default_grid([lp, lq], claim) if epsilons is None else _check_epsilon_grid(epsilons)

    def bounds_at(eps: float) -> tuple[CurvePoint, list[FloatArray]]:
        summands = [hockey_stick_summands(x, eps) for x in (lp, lq)]
        results = [empirical_bernstein_bounds(z, beta / 2.0) for z in summands]
        point = CurvePoint(
            epsilon=eps,
            delta_estimate=max(r.estimate for r in results),
            delta_lower=max(r.lower for r in results),
            delta_upper=max(r.upper for r in results),
        )
        return point, summands

    at_claim, claim_summands = bounds_at(claim.epsilon)
    p_value = min(
        1.0, 2.0 * min(empirical_bernstein_pvalue(z, claim.delta) for z in claim_summands)
    )
    curve = tuple(bounds_at(float(e))[0] for e in grid)
    violating = [pt.epsilon for pt in curve if pt.delta_lower > claim.delta]
    eps_lb = max(violating) if violating else -math.inf
    if at_claim.delta_lower > claim.delta:
        eps_lb = max(eps_lb, claim.epsilon)
    # ε = ∞: the summands are the indicators of an infinite loss (an output impossible under the
    # other input); if even their lower bound exceeds δ_claim, no finite ε is valid at δ_claim.
    infinite = [(x == np.inf).astype(np.float64) for x in (lp, lq)]
    if max(empirical_bernstein_bounds(z, beta / 2.0).lower for z in infinite) > claim.delta:
        eps_lb = math.inf
    violation = at_claim.delta_lower > claim.delta
    # A pure claim (δ = 0) says L ≤ ε almost surely: one drawn loss above ε (beyond rounding)
    # refutes it with certainty, and every ε below the largest drawn loss is refuted too.
    exceeding = 0
    if claim.delta == 0.0:
        tolerance = PURE_LOSS_TOLERANCE * max(1.0, claim.epsilon)
        top = max(float(lp.max()), float(lq.max()))
        exceeding = int(
            np.sum(lp > claim.epsilon + tolerance) + np.sum(lq > claim.epsilon + tolerance)
        )
        if exceeding:
            violation, p_value = True, 0.0
            eps_lb = max(eps_lb, top - tolerance)
    detectable_delta = _detectable_delta(claim_summands, beta, claim.delta)
    certified = [pt.epsilon for pt in curve if pt.delta_upper <= claim.delta]
    return PrivacyAuditResult(
        name=name,
        mechanism=mechanism,
        method="white_box",
        claim=claim,
        violation=violation,
        p_value=p_value,
        confidence=confidence,
        epsilon_lower_bound=eps_lb,
        delta_at_claim=at_claim,
        curve=curve,
        samples=int(min(lp.size, lq.size)),
        seed=seed,
        runtime_seconds=time.perf_counter() - t0,
        detectable_epsilon=_detectable_epsilon(lp, lq, claim, detectable_delta),
        detectable_delta=detectable_delta,
        details={
            "epsilon_upper_descriptive": min(certified) if certified else math.inf,
            "infinite_loss_fraction_p": float(np.mean(lp == np.inf)),
            "infinite_loss_fraction_q": float(np.mean(lq == np.inf)),
            "losses_above_pure_claim": exceeding,
            "mean_loss_p": float(np.mean(lp[np.isfinite(lp)]))
            if np.isfinite(lp).any()
            else math.nan,
        },
    )


def _density_losses(
    mechanism: DensityMechanism[DataT],
    data: DataT,
    other: DataT,
    rng: np.random.Generator,
    size: int,
    sides: tuple[str, str],
) -> tuple[FloatArray, FloatArray]:
    """Outputs drawn under ``data`` (checked) and their privacy losses against ``other``."""
    own_side, other_side = sides
    outputs = check_outputs(mechanism.sample(data, rng, size), size, f"outputs under {own_side}")
    drawn = f"at the outputs drawn under {own_side}"
    own = check_log_densities(
        mechanism.log_density(data, outputs),
        size,
        f"log_density under {own_side} {drawn}",
        generating=True,
    )
    alt = check_log_densities(
        mechanism.log_density(other, outputs),
        size,
        f"log_density under {other_side} {drawn}",
        generating=False,
        other=other_side,
    )
    out = np.full(own.shape, np.inf)
    possible = np.isfinite(alt)
    out[possible] = own[possible] - alt[possible]
    return outputs, out


def density_privacy_losses(
    mechanism: DensityMechanism[DataT],
    data: DataT,
    other: DataT,
    rng: np.random.Generator,
    size: int,
) -> FloatArray:
    """``size`` draws of ``L = log p_data(o) − log p_other(o)`` with ``o ~ M(data)``.

    An output impossible under ``other`` (``log p_other = −∞``) gives ``L = +∞``.  The outputs must
    be ``size`` finite rows, the density of ``data`` finite on them, and the density of ``other``
    finite or ``-inf`` (:func:`audit.protocols.check_outputs`,
    :func:`audit.protocols.check_log_densities`; ``ValueError`` otherwise).
    """
    size = check_int_at_least("size", size, 1)
    return _density_losses(mechanism, data, other, rng, size, ("data", "other"))[1]


def white_box_audit(
    mechanism: DensityMechanism[DataT],
    pair: NeighbouringPair[DataT],
    claim: PrivacyClaim,
    *,
    samples: int,
    seed: int,
    name: str = "white_box",
    confidence: float = 0.95,
    epsilons: FloatArray | None = None,
) -> PrivacyAuditResult:
    """Sample outputs under both inputs of ``pair``, compute the exact privacy loss from the
    mechanism's log-density, and run :func:`privacy_loss_audit`.

    ``L = log p_x(o) − log p_{x'}(o)``; an output impossible under the other input gives ``+∞``.
    Outputs are drawn from two independent streams spawned from ``seed``.

    Checked before anything is drawn: ``claim`` is made under ``pair``'s relation, ``seed``
    follows the one seed rule (:func:`reference.rng.check_seed`), ``confidence`` and
    ``epsilons`` are valid.  Checked before any statistic (``ValueError`` naming the side ``x``
    or ``x'``): each ``sample`` call returns ``samples`` finite outputs, of one shape per output
    on both inputs; ``log_density`` returns one value per output, finite under the input that
    drew the outputs and finite or ``-inf`` under the other, never NaN.
    """
    t0 = time.perf_counter()
    check_instance("mechanism", mechanism, DensityMechanism)
    samples = check_int_at_least("samples", samples, 2)
    check_in_range("confidence", confidence, 0.0, 1.0)
    if epsilons is not None:
        _check_epsilon_grid(epsilons)
    check_claim_matches_pair(claim, pair)
    seed = check_seed(seed)
    rng_p, rng_q = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(2))
    out_p, losses_p = _density_losses(mechanism, pair.x, pair.x_prime, rng_p, samples, ("x", "x'"))
    out_q, losses_q = _density_losses(mechanism, pair.x_prime, pair.x, rng_q, samples, ("x'", "x"))
    check_same_output_space(out_p, out_q, "outputs under x", "outputs under x'")
    return privacy_loss_audit(
        losses_p,
        losses_q,
        claim,
        name=name,
        mechanism=repr(mechanism),
        confidence=confidence,
        epsilons=epsilons,
        seed=seed,
        started=t0,
    )
