"""Exact ε of one neighbouring pair for the benchmark mechanisms with a computable output law.

Pure ε-DP on a pair is ``sup_o |ln p_x(o) − ln p_x'(o)|`` over outputs ``o`` (``inf`` if an output
is possible under one input only). Discrete laws (noisy-max index, sparse-vector answers) are
computed as one-dimensional integrals by composite Gauss–Legendre quadrature, split at every kink;
the noisy-max value law and SVT's released-value law are densities evaluated in log space on
grids reaching past the data until the log-ratio has reached its tail limits.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
from scipy.special import logsumexp

from audit.stats import clopper_pearson_lower, clopper_pearson_upper
from reference._typing import FloatArray
from reference.validation import (
    check_array,
    check_finite,
    check_in_range,
    check_int_at_least,
    check_nonempty,
    check_positive,
)

__all__ = [
    "bloom_report_laws",
    "discrete_epsilon",
    "laplace_loss_binned_laws",
    "noisy_max_index_law",
    "noisy_max_value_binned_laws",
    "noisy_max_value_epsilon",
    "oracle_event_bound",
    "svt_answers_law",
    "svt_bits_law",
    "svt_first_above_law",
    "svt_no_query_noise_law",
    "svt_released_value_binned_laws",
    "svt_released_value_epsilon",
    "svt_released_value_log_density",
    "svt_released_value_ratio_range",
    "truncated_geometric_law",
]

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(24)


def _checked(
    x: object, scales: dict[str, float], threshold: float = 0.0, noise: str = "laplace"
) -> FloatArray:
    """``x`` as a non-empty 1-D float array after checking the scales (> 0), the threshold
    (finite) and the noise law; ``ValueError`` naming the argument otherwise."""
    for name, value in scales.items():
        check_positive(name, value)
    check_finite("threshold", threshold)
    if noise not in ("laplace", "exponential"):
        raise ValueError(f"noise must be 'laplace' or 'exponential', got {noise!r}")
    return check_nonempty("x", check_array("x", x, ndim=1), what="query")


def _log_laplace_cdf(u: FloatArray, b: float) -> FloatArray:
    z = u / b
    return np.where(
        z < 0.0, math.log(0.5) + np.minimum(z, 0.0), np.log1p(-0.5 * np.exp(-np.abs(z)))
    )


def _log_laplace_sf(u: FloatArray, b: float) -> FloatArray:
    return _log_laplace_cdf(-u, b)


def _log_laplace_pdf(u: FloatArray, b: float) -> FloatArray:
    return -math.log(2.0 * b) - np.abs(u) / b


def _log_exp_cdf(u: FloatArray, b: float) -> FloatArray:
    with np.errstate(divide="ignore"):
        return np.where(u > 0.0, np.log(-np.expm1(-np.maximum(u, 0.0) / b)), -np.inf)


def _log_exp_pdf(u: FloatArray, b: float) -> FloatArray:
    return np.where(u >= 0.0, -math.log(b) - u / b, -np.inf)


def _log_cdf(law: str, u: FloatArray, b: float) -> FloatArray:
    return _log_laplace_cdf(u, b) if law == "laplace" else _log_exp_cdf(u, b)


def _log_pdf(law: str, u: FloatArray, b: float) -> FloatArray:
    return _log_laplace_pdf(u, b) if law == "laplace" else _log_exp_pdf(u, b)


def _quadrature(
    lo: float, hi: float, breaks: Sequence[float], width: float
) -> tuple[FloatArray, FloatArray]:
    """Nodes and log-weights of composite 24-point Gauss–Legendre on ``[lo, hi]``, with panel edges
    at every break point and panels no wider than ``width``."""
    edges = sorted({lo, hi, *(b for b in breaks if lo < b < hi)})
    nodes, weights = [], []
    for a, b in itertools.pairwise(edges):
        k = max(1, math.ceil((b - a) / width))
        for j in range(k):
            left, right = a + (b - a) * j / k, a + (b - a) * (j + 1) / k
            half = (right - left) / 2.0
            nodes.append(left + half * (_NODES + 1.0))
            weights.append(half * _WEIGHTS)
    return np.concatenate(nodes), np.log(np.concatenate(weights))


def _integrate_log(log_integrand: FloatArray, log_w: FloatArray) -> FloatArray:
    """``ln ∫`` along the last axis from log-integrand values at the nodes."""
    return np.asarray(logsumexp(log_integrand + log_w, axis=-1), dtype=np.float64)


def discrete_epsilon(log_p: FloatArray, log_q: FloatArray) -> float:
    """``max_o |ln p(o) − ln q(o)|`` over outcomes possible under either law (``inf`` if one is
    possible under one law only)."""
    log_p, log_q = np.asarray(log_p, dtype=np.float64), np.asarray(log_q, dtype=np.float64)
    if (
        log_p.shape != log_q.shape
        or log_p.ndim != 1
        or np.isnan(log_p).any()
        or np.isnan(log_q).any()
    ):
        raise ValueError(
            f"log_p and log_q must be 1-D log-probabilities of one shape without NaN, got shapes "
            f"{log_p.shape} and {log_q.shape}"
        )
    seen = np.isfinite(log_p) | np.isfinite(log_q)
    if np.any(np.isfinite(log_p[seen]) != np.isfinite(log_q[seen])):
        return math.inf
    return float(np.max(np.abs(log_p[seen] - log_q[seen])))


def oracle_event_bound(log_p: FloatArray, log_q: FloatArray, n_eval: int, beta: float) -> float:
    """The ``ε_LB`` an event audit that knew these discrete laws would typically report, with
    ``n_eval`` evaluation draws per side and one-sided Clopper–Pearson bounds at ``β/2`` each: the
    maximum of ``ln(P̲/P̄')`` over the Neyman–Pearson events (unions of the outcomes of largest
    ratio, either direction; each has the largest ``P`` among events of its ``P'``) at their
    *expected* counts.  The yardstick for a black box at this sample size: a bound above it is
    luck of the draw, one far below it is a weak event search."""
    log_p, log_q = np.asarray(log_p, dtype=np.float64), np.asarray(log_q, dtype=np.float64)
    discrete_epsilon(log_p, log_q)  # checks the shapes and NaN
    best = -math.inf
    for a, b in ((log_p, log_q), (log_q, log_p)):
        keep = np.isfinite(a)
        a, b = a[keep], b[keep]
        with np.errstate(invalid="ignore"):
            ratio = np.where(np.isfinite(b), a - b, math.inf)
        order = np.argsort(-ratio, kind="stable")
        p = np.minimum(np.cumsum(np.exp(a[order])), 1.0) * n_eval
        q = np.minimum(np.cumsum(np.exp(b[order])), 1.0) * n_eval
        low = clopper_pearson_lower(p, n_eval, beta / 2.0)
        high = clopper_pearson_upper(q, n_eval, beta / 2.0)
        ok = low > 0.0
        if ok.any():
            best = max(best, float(np.max(np.log(low[ok] / high[ok]))))
    return best


def noisy_max_index_law(x: FloatArray, scale: float, noise: str) -> FloatArray:
    """``ln P[argmax_i (x_i + η_i) = i]`` for i.i.d. Laplace or exponential ``η`` of ``scale``:
    ``∫ f(z − x_i) Π_{j≠i} F(z − x_j) dz`` (ties have probability 0)."""
    x = _checked(x, {"scale": scale}, noise=noise)
    lo = float(x.min()) - (60.0 * scale if noise == "laplace" else 0.0)
    hi = float(x.max()) + 60.0 * scale
    z, log_w = _quadrature(lo, hi, list(x), scale / 4.0)
    u = z[None, :] - x[:, None]
    log_f, log_big_f = _log_pdf(noise, u, scale), _log_cdf(noise, u, scale)
    total = log_big_f.sum(axis=0)
    with np.errstate(invalid="ignore"):
        others = np.where(np.isfinite(log_big_f), total[None, :] - log_big_f, -np.inf)
    # others: Σ_{j≠i} ln F(z − x_j); recomputed exactly where ln F(z − x_i) = −inf
    for i in range(x.size):
        bad = ~np.isfinite(log_big_f[i])
        if bad.any():
            others[i, bad] = np.delete(log_big_f[:, bad], i, axis=0).sum(axis=0)
    return _integrate_log(log_f + others, log_w)


def _log_max_density(z: FloatArray, x: FloatArray, scale: float, noise: str) -> FloatArray:
    u = z[None, :] - x[:, None]
    log_f, log_big_f = _log_pdf(noise, u, scale), _log_cdf(noise, u, scale)
    terms = np.empty_like(log_f)
    for i in range(x.size):
        terms[i] = log_f[i] + np.delete(log_big_f, i, axis=0).sum(axis=0)
    return np.asarray(logsumexp(terms, axis=0), dtype=np.float64)


def _log_bin_masses(log_cdf: FloatArray, log_sf: FloatArray) -> FloatArray:
    """``ln P`` of the bins ``(−∞, z₀], (z₀, z₁], …, (z_K, ∞)`` from ``ln F`` and ``ln S`` at the
    edges: differences of ``F`` left of the median and of ``S`` right of it (no cancellation)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        left = log_cdf[1:] + np.log1p(-np.exp(log_cdf[:-1] - log_cdf[1:]))
        right = log_sf[:-1] + np.log1p(-np.exp(log_sf[1:] - log_sf[:-1]))
    inner = np.where(log_cdf[1:] < math.log(0.5), left, right)
    inner = np.where(np.isneginf(log_cdf[:-1]) & (log_cdf[1:] < math.log(0.5)), log_cdf[1:], inner)
    return np.concatenate([log_cdf[:1], np.nan_to_num(inner, nan=-np.inf), log_sf[-1:]])


def noisy_max_value_binned_laws(
    x: FloatArray, x_prime: FloatArray, scale: float, noise: str
) -> tuple[FloatArray, FloatArray]:
    """``(ln P, ln P')`` of ``max_i (x_i + η_i)`` on common bins: a hundredth of a scale wide over
    60 scales past the data, with log-spaced edges just above every ``x_i`` (where exponential
    noise has its support gap), from the exact CDF ``Π_i F(z − x_i)``.  A one-query input is the
    Laplace mechanism itself."""
    x = _checked(x, {"scale": scale}, noise=noise)
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    lo, hi = min(x.min(), xp.min()) - 60.0 * scale, max(x.max(), xp.max()) + 60.0 * scale
    near = scale * np.logspace(-6.0, 0.0, 200)
    edges = np.unique(
        np.concatenate(
            [np.arange(lo, hi, scale / 100.0), *(v + near for v in np.concatenate([x, xp]))]
        )
    )

    def laws(v: FloatArray) -> FloatArray:
        log_cdf = np.sum(_log_cdf(noise, edges[None, :] - v[:, None], scale), axis=0)
        with np.errstate(divide="ignore"):
            log_sf = np.log(-np.expm1(log_cdf))
        return _log_bin_masses(log_cdf, log_sf)

    return laws(x), laws(xp)


def noisy_max_value_epsilon(x: FloatArray, x_prime: FloatArray, scale: float, noise: str) -> float:
    """``sup_z |ln g_x(z) − ln g_x'(z)|`` for the density ``g`` of ``max_i (x_i + η_i)``.

    Exponential noise: the law of the max starts at ``m = max x`` and behaves like ``(z − m)^{k−1}``
    there, ``k`` the number of entries equal to ``m``; if ``(m, k)`` differ between the inputs the
    ratio is unbounded (``inf``). Otherwise, and for Laplace noise, the log-ratio is evaluated on a
    grid to 60 scales past the data (its tails have converged there).
    """
    x = _checked(x, {"scale": scale}, noise=noise)
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    if noise == "exponential":
        m, mp = float(x.max()), float(xp.max())
        if m != mp or int(np.sum(x == m)) != int(np.sum(xp == mp)):
            return math.inf
        z = m + scale * np.concatenate([np.logspace(-9, 0, 2000), np.linspace(1.0, 60.0, 20000)])
    else:
        z = np.linspace(
            min(x.min(), xp.min()) - 60.0 * scale, max(x.max(), xp.max()) + 60.0 * scale, 60001
        )
    gap = _log_max_density(z, x, scale, noise) - _log_max_density(z, xp, scale, noise)
    return float(np.max(np.abs(gap)))


def _rho_grid(
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float
) -> tuple[FloatArray, FloatArray]:
    spread = 60.0 * max(rho_scale, nu_scale)
    breaks = [0.0, *(float(v) - threshold for v in x)]
    lo, hi = min(breaks) - spread, max(breaks) + spread
    return _quadrature(lo, hi, breaks, min(rho_scale, nu_scale) / 2.0)


def svt_first_above_law(
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float
) -> FloatArray:
    """``ln P`` of the answers of SVT with cutoff ``c = 1``: outcome ``i < n`` is "first ⊤ at query
    ``i``", outcome ``n`` is "no ⊤". ``P(i) = ∫ f_ρ(r) Π_{j<i} F_ν(r + T − x_j) S_ν(r + T − x_i) dr``."""
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    r, log_w = _rho_grid(x, threshold, rho_scale, nu_scale)
    u = r[None, :] + threshold - x[:, None]
    below, above = _log_laplace_cdf(u, nu_scale), _log_laplace_sf(u, nu_scale)
    prefix = np.vstack([np.zeros((1, r.size)), np.cumsum(below, axis=0)])
    log_rho = _log_laplace_pdf(r, rho_scale)
    first = prefix[:-1] + above
    rows = np.vstack([first, prefix[-1:]])
    return _integrate_log(rows + log_rho[None, :], log_w)


def svt_bits_law(
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float
) -> tuple[FloatArray, FloatArray]:
    """``(outcomes, ln P)`` for SVT without cutoff (Lyu Alg. 6): every ``2ⁿ`` answer vector ``b``,
    ``P(b) = ∫ f_ρ(r) Π_i S_ν(r + T − x_i)^{b_i} F_ν(r + T − x_i)^{1−b_i} dr``."""
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    r, log_w = _rho_grid(x, threshold, rho_scale, nu_scale)
    u = r[None, :] + threshold - x[:, None]
    below, above = _log_laplace_cdf(u, nu_scale), _log_laplace_sf(u, nu_scale)
    outcomes = np.array(list(itertools.product((0.0, 1.0), repeat=x.size)))
    log_rho = _log_laplace_pdf(r, rho_scale)
    out = np.empty(len(outcomes))
    for start in range(0, len(outcomes), 64):
        b = outcomes[start : start + 64]
        rows = b @ above + (1.0 - b) @ below + log_rho[None, :]
        out[start : start + 64] = _integrate_log(rows, log_w)
    return outcomes, out


def svt_no_query_noise_law(
    x: FloatArray, threshold: float, rho_scale: float
) -> dict[tuple[float, ...], float]:
    """``{answers: ln P}`` for SVT without query noise or cutoff (Lyu Alg. 5): ``b_i = 1`` iff
    ``ρ ≤ x_i − T``, so each answer vector is an interval of ``ρ`` between consecutive cut points
    (Laplace CDF differences, exact)."""
    x = _checked(x, {"rho_scale": rho_scale}, threshold)
    cuts = np.unique(x - threshold)
    cdf: Callable[[float], float] = lambda t: (  # noqa: E731
        0.5 * math.exp(t / rho_scale) if t < 0 else 1.0 - 0.5 * math.exp(-t / rho_scale)
    )
    law: dict[tuple[float, ...], float] = {}
    edges = [-math.inf, *cuts.tolist(), math.inf]
    for lo, hi in itertools.pairwise(edges):
        # ρ in (lo, hi]: query i is ⊤ iff x_i − T ≥ hi
        answers = tuple(float(v) for v in (x - threshold >= hi))
        p = (1.0 if hi == math.inf else cdf(hi)) - (0.0 if lo == -math.inf else cdf(lo))
        law[answers] = law.get(answers, 0.0) + p
    return {k: math.log(v) for k, v in law.items() if v > 0.0}


def _released_value_table(
    x: FloatArray,
    threshold: float,
    rho_scale: float,
    nu_scale: float,
    cuts: Sequence[float],
    below_sets: Sequence[Sequence[int]] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """Panel edges ``s`` (60 scales past ``cuts``) and ``ln H_i(s)``, shape ``(n, edges)``, with
    ``H_i(s) = ∫_{−∞}^{s} f_ρ(r) Π_{j<i} F_ν(r + T − x_j) dr`` accumulated panel by panel (the part
    left of the grid is neglected). With ``below_sets`` the rows are ``ln H_S`` for each set ``S``
    of queries answered ⊥, ``Π_{j ∈ S}`` in place of ``Π_{j<i}``."""
    scale = max(rho_scale, nu_scale)
    lo, hi = min(cuts) - 60.0 * scale, max(cuts) + 60.0 * scale
    edges = sorted({lo, hi, *(b for b in cuts if lo < b < hi)})
    width = min(rho_scale, nu_scale) / 32.0
    bounds = np.concatenate(
        [
            np.linspace(a, b, max(1, math.ceil((b - a) / width)) + 1)[:-1]
            for a, b in itertools.pairwise(edges)
        ]
        + [np.array([hi])]
    )
    half = np.diff(bounds) / 2.0
    r = bounds[:-1, None] + half[:, None] * (_NODES[None, :] + 1.0)  # (panels, nodes)
    u = r[None, :, :] + threshold - x[:, None, None]
    if below_sets is None:
        below = np.cumsum(_log_laplace_cdf(u, nu_scale), axis=0)
        prefix = np.concatenate([np.zeros((1, *r.shape)), below[:-1]], axis=0)
    else:
        member = np.zeros((len(below_sets), x.size))
        for row, below_set in enumerate(below_sets):
            member[row, list(below_set)] = 1.0
        prefix = np.tensordot(member, _log_laplace_cdf(u, nu_scale), axes=1)
    rows = prefix + _log_laplace_pdf(r, rho_scale)[None, :, :]
    panels = logsumexp(rows + np.log(half[:, None] * _WEIGHTS[None, :])[None, :, :], axis=2)
    log_h = np.logaddexp.accumulate(panels, axis=1)
    return bounds[1:], np.asarray(log_h, dtype=np.float64)


def svt_released_value_log_density(
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float, values: FloatArray
) -> FloatArray:
    """``ln p(i, v)`` at each ``v`` in ``values`` for SVT with cutoff ``c = 1`` that releases the
    noisy answer of its ⊤ (Lyu Alg. 3): shape ``(n, len(values))``.

    ``p(i, v) = f_ν(v − x_i) H_i(v − T)`` (:func:`_released_value_table`), ``ln H`` interpolated
    linearly between panel edges a 32nd of the smaller noise scale apart.
    """
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    values = check_array("values", values, ndim=1)
    grid, log_h = _released_value_table(
        x, threshold, rho_scale, nu_scale, [0.0, *(float(v) - threshold for v in x)]
    )
    s = values - threshold
    if s.min() < grid[0] or s.max() > grid[-1]:
        raise ValueError(f"values must lie in [{grid[0] + threshold}, {grid[-1] + threshold}]")
    at = np.vstack([np.interp(s, grid, row) for row in log_h])
    return at + _log_laplace_pdf(values[None, :] - x[:, None], nu_scale)


def svt_released_value_epsilon(
    x: FloatArray, x_prime: FloatArray, threshold: float, rho_scale: float, nu_scale: float
) -> float:
    """Exact ε of a pair for Lyu Alg. 3 with ``c = 1``: the larger of the "no ⊤" log-ratio and
    ``sup_{i, v} |ln p_x(i, v) − ln p_x'(i, v)|`` (:func:`svt_released_value_log_density`), the
    supremum taken at the common panel edges from 40 scales left of the data (where the left
    tail has reached its limit and the neglected part of ``H`` is below ``e⁻²⁰`` of it) to 60
    scales right of it."""
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    none = discrete_epsilon(
        svt_first_above_law(x, threshold, rho_scale, nu_scale)[-1:],
        svt_first_above_law(xp, threshold, rho_scale, nu_scale)[-1:],
    )
    cuts = [0.0, *(float(v) - threshold for v in np.concatenate([x, xp]))]
    grid, log_h = _released_value_table(x, threshold, rho_scale, nu_scale, cuts)
    _, log_h_prime = _released_value_table(xp, threshold, rho_scale, nu_scale, cuts)
    keep = grid >= grid[0] + 20.0 * max(rho_scale, nu_scale)
    v = grid[keep] + threshold
    p = log_h[:, keep] + _log_laplace_pdf(v[None, :] - x[:, None], nu_scale)
    q = log_h_prime[:, keep] + _log_laplace_pdf(v[None, :] - xp[:, None], nu_scale)
    return max(none, float(np.max(np.abs(p - q))))


def svt_released_value_binned_laws(
    x: FloatArray, x_prime: FloatArray, threshold: float, rho_scale: float, nu_scale: float
) -> tuple[FloatArray, FloatArray]:
    """``(ln P, ln P')`` of Lyu Alg. 3 with ``c = 1`` on common outcomes: "no ⊤", and "first ⊤ at
    query ``i`` with its released value in the cell between consecutive panel edges" (the grid of
    :func:`svt_released_value_epsilon`; trapezoid masses of the density
    ``f_ν(v − x_i) H_i(v − T)``).  The cells left of the grid hold a negligible mass."""
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    cuts = [0.0, *(float(v) - threshold for v in np.concatenate([x, xp]))]

    def law(v_in: FloatArray) -> FloatArray:
        grid, log_h = _released_value_table(v_in, threshold, rho_scale, nu_scale, cuts)
        v = grid + threshold
        dens = log_h + _log_laplace_pdf(v[None, :] - v_in[:, None], nu_scale)
        cells = np.logaddexp(dens[:, 1:], dens[:, :-1]) + np.log(np.diff(grid) / 2.0)[None, :]
        none = svt_first_above_law(v_in, threshold, rho_scale, nu_scale)[-1:]
        return np.concatenate([none, cells.ravel()])

    return law(x), law(xp)


def truncated_geometric_law(count: int, n: int, k: int) -> FloatArray:
    """``ln P[z]``, ``z = 0, …, n``, of Balcer & Vadhan's GeoSample on the count ``c``: the
    two-sided geometric law ``P(t) = ((1 − α)/(1 + α)) α^{|t|}``, ``α = 2^k/(2^k + 1)``, of the
    noise ``t = z − c``, its tails folded onto the ends: ``P[0] = α^c/(1 + α)``,
    ``P[n] = α^{n−c}/(1 + α)``. Adjacent counts give the ratio ``1/α = 1 + 2^{−k}`` at every ``z``."""
    n = check_int_at_least("n", n, 1)
    k = check_int_at_least("k", k, 1)
    c = check_int_at_least("count", count, 0)
    if c > n:
        raise ValueError(f"count must be in [0, {n}], got {count!r}")
    alpha = 2.0**k / (2.0**k + 1.0)
    z = np.arange(n + 1)
    out = np.abs(z - c) * math.log(alpha) + math.log((1.0 - alpha) / (1.0 + alpha))
    out[0] = c * math.log(alpha) - math.log1p(alpha)
    out[n] = (n - c) * math.log(alpha) - math.log1p(alpha)
    return np.asarray(out, dtype=np.float64)


def bloom_report_laws(
    bits: FloatArray, bits_prime: FloatArray, p_set: float, p_unset: float
) -> tuple[FloatArray, FloatArray]:
    """``(ln P, ln P')`` of a report that keeps each bit independently: 1 with probability
    ``p_set`` where the Bloom filter has a 1, ``p_unset`` where it has a 0 (RAPPOR's steps 2–3).
    The bits where the two filters agree have one law under both and are left out; the outcomes
    are the ``2^m`` values of the ``m`` bits where they differ (one outcome if none)."""
    b = check_array("bits", bits, ndim=1)
    bp = check_array("bits_prime", bits_prime, shape=(b.size,))
    if not (np.isin(b, (0.0, 1.0)).all() and np.isin(bp, (0.0, 1.0)).all()):
        raise ValueError("bits and bits_prime must hold 0 and 1 only")
    for name, value in (("p_set", p_set), ("p_unset", p_unset)):
        check_in_range(name, value, 0.0, 1.0, low_open=False, high_open=False)
    differ = np.flatnonzero(b != bp)
    if differ.size > 20:
        raise ValueError(f"the filters differ in {differ.size} bits: at most 20 are enumerated")
    outcomes = np.array(list(itertools.product((0.0, 1.0), repeat=differ.size)))

    def law(filt: FloatArray) -> FloatArray:
        one = np.where(filt[differ] == 1.0, p_set, p_unset)
        with np.errstate(divide="ignore"):
            terms = outcomes * np.log(one) + (1.0 - outcomes) * np.log1p(-one)
        return np.asarray(np.sum(np.nan_to_num(terms, nan=0.0), axis=1), dtype=np.float64)

    return law(b), law(bp)


def laplace_loss_binned_laws(
    x: FloatArray, x_prime: FloatArray, scale: float, bins: int = 200
) -> tuple[FloatArray, FloatArray]:
    """``(ln P, ln P')`` of the binned privacy loss of independent Laplace noise of ``scale`` on
    every entry, ``y = x + η``, or of any bijective post-processing of ``y`` (prefix sums).

    The loss of entry ``i`` is ``g_i(y_i) = (|y_i − x'_i| − |y_i − x_i|)/scale``, monotone in
    ``y_i`` with atoms ``±|x_i − x'_i|/scale``; the statistic is ``K = Σ_i round(g_i(y_i)/h)``,
    ``h = min_i |x_i − x'_i|/(scale · bins)`` over the entries that differ (the others carry no
    information). ``K`` is a function of the output, so its law is exact (Laplace CDF differences
    per entry, convolved in linear space: positive terms, no cancellation) and its ε is at most
    the pair's; the loss itself is sufficient for the pair, so ``K`` loses at most ``h`` per entry.
    """
    x = check_nonempty("x", check_array("x", x, ndim=1), what="query")
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    check_positive("scale", scale)
    check_int_at_least("bins", bins, 1)
    gaps = np.abs(x - xp)
    moved = np.flatnonzero(gaps > 0.0)
    if moved.size == 0:
        return np.zeros(1), np.zeros(1)
    h = float(gaps[moved].min()) / (scale * bins)
    p_total, q_total = np.ones(1), np.ones(1)
    for i in moved:
        # reflect so that x_i > x'_i: then g is increasing, y = (scale·g + x_i + x'_i)/2 inside
        hi, lo = (x[i], xp[i]) if x[i] > xp[i] else (-x[i], -xp[i])
        atom = (hi - lo) / scale
        top = round(atom / h)
        ks = np.arange(-top + 1, top + 1)
        g_edges = np.clip((ks - 0.5) * h, -atom, atom)
        edges = np.concatenate([[-np.inf], (scale * g_edges + hi + lo) / 2.0, [np.inf]])

        def masses(loc: float, edges: FloatArray = edges) -> FloatArray:
            z = (edges - loc) / scale
            cdf = np.where(
                z < 0.0, 0.5 * np.exp(np.minimum(z, 0.0)), 1.0 - 0.5 * np.exp(-np.abs(z))
            )
            sf = np.where(z < 0.0, 1.0 - 0.5 * np.exp(np.minimum(z, 0.0)), 0.5 * np.exp(-np.abs(z)))
            # differences of F left of loc and of S right of it (no cancellation in the tails)
            return np.asarray(
                np.where(edges[1:] <= loc, np.diff(cdf), -np.diff(sf)), dtype=np.float64
            )

        p_total = np.convolve(p_total, masses(hi))
        q_total = np.convolve(q_total, masses(lo))
    with np.errstate(divide="ignore"):
        return np.log(p_total), np.log(q_total)


def _answer_vectors(n: int, c: int) -> FloatArray:
    """Every answer vector of SVT with cutoff ``c`` on ``n`` queries: at most ``c`` ⊤ (1), ⊥ (0)
    elsewhere, and -1 after the ``c``-th ⊤; "no ⊤" first, then by number of ⊤."""
    rows = []
    for k in range(min(c, n) + 1):
        for tops in itertools.combinations(range(n), k):
            row = np.zeros(n)
            row[list(tops)] = 1.0
            if k == c:
                row[tops[-1] + 1 :] = -1.0
            rows.append(row)
    return np.array(rows)


def svt_answers_law(
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float, c: int
) -> tuple[FloatArray, FloatArray]:
    """``(outcomes, ln P)`` of the answers of SVT with one threshold noise and cutoff ``c`` (Lyu
    Alg. 1 and 4; Alg. 2 when ``c = 1``): every answer vector ``b`` of :func:`_answer_vectors`,
    ``P(b) = ∫ f_ρ(r) Π_{b_i = 1} S_ν(r + T − x_i) Π_{b_i = 0} F_ν(r + T − x_i) dr`` (queries
    after the cutoff, -1, are not asked). With ``c = 1`` it is :func:`svt_first_above_law`."""
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    c = check_int_at_least("c", c, 1)
    if math.comb(x.size, min(c, x.size)) > 2**16:
        raise ValueError(f"c = {c} on {x.size} queries has too many answer vectors to enumerate")
    r, log_w = _rho_grid(x, threshold, rho_scale, nu_scale)
    u = r[None, :] + threshold - x[:, None]
    below, above = _log_laplace_cdf(u, nu_scale), _log_laplace_sf(u, nu_scale)
    outcomes = _answer_vectors(x.size, c)
    log_rho = _log_laplace_pdf(r, rho_scale)
    out = np.empty(len(outcomes))
    for start in range(0, len(outcomes), 64):
        b = outcomes[start : start + 64]
        rows = (b == 1.0) @ above + (b == 0.0) @ below + log_rho[None, :]
        out[start : start + 64] = _integrate_log(rows, log_w)
    return outcomes, out


def svt_released_value_ratio_range(
    x: FloatArray,
    x_prime: FloatArray,
    threshold: float,
    rho_scale: float,
    nu_scale: float,
    c: int,
) -> tuple[float, float]:
    """``(inf, sup)`` of ``ln p_x(o) − ln p_x'(o)`` over the outputs of Lyu Alg. 3 with cutoff
    ``c ∈ {1, 2}`` (the answers, and the noisy answer ``v_i = x_i + ν_i`` of each ⊤).

    Given ``ρ`` the queries are independent, so an output with ⊤ at the set ``I`` (values ``v_I``)
    and ⊥ at ``S`` has density ``Π_{i∈I} f_ν(v_i − x_i) · H_S(min v_I − T)``,
    ``H_S(s) = ∫_{−∞}^{s} f_ρ(r) Π_{j∈S} F_ν(r + T − x_j) dr`` (:func:`_released_value_table`).
    Its log-ratio is ``Σ_{i∈I} A_i(v_i) + D_S(min v_I − T)`` with the monotone
    ``A_i(v) = (|v − x'_i| − |v − x_i|)/b_ν`` and ``D_S = ln H_S − ln H'_S``; with two ⊤ the value
    that is not the minimum ranges over ``[m, ∞)``, where ``A`` is extreme at ``m`` or at ``∞``, so
    the supremum is one-dimensional in ``m``. It is taken at the panel edges from 40 scales left of
    the data to 60 scales right (as :func:`svt_released_value_epsilon`), "no ⊤" from ``H`` at the
    grid's end. With ``c = 1`` ``max(sup, −inf)`` is :func:`svt_released_value_epsilon`.
    """
    x = _checked(x, {"rho_scale": rho_scale, "nu_scale": nu_scale}, threshold)
    xp = check_array("x_prime", x_prime, shape=(x.size,))
    c = check_int_at_least("c", c, 1)
    if c > 2:
        raise ValueError(f"c must be 1 or 2, got {c!r}")
    n = x.size
    every = list(range(n))
    singles = [(i, None, [j for j in every if j != i] if c == 2 else every[:i]) for i in every]
    pairs = (
        [(i, j, [k for k in range(j) if k != i]) for i, j in itertools.combinations(every, 2)]
        if c == 2
        else []
    )
    outcomes = [(None, None, every), *singles, *pairs]
    sets = [below for _, _, below in outcomes]
    cuts = [0.0, *(float(v) - threshold for v in np.concatenate([x, xp]))]
    grid, log_h = _released_value_table(x, threshold, rho_scale, nu_scale, cuts, sets)
    _, log_h_prime = _released_value_table(xp, threshold, rho_scale, nu_scale, cuts, sets)
    keep = grid >= grid[0] + 20.0 * max(rho_scale, nu_scale)
    m = grid[keep] + threshold
    d = log_h[:, keep] - log_h_prime[:, keep]
    a = (np.abs(m[None, :] - xp[:, None]) - np.abs(m[None, :] - x[:, None])) / nu_scale
    a_end = (x - xp) / nu_scale  # A_i at +∞
    hi = lo = float(log_h[0, -1] - log_h_prime[0, -1])  # no ⊤
    for row, (i, j, _) in enumerate(outcomes[1:], start=1):
        if j is None:
            top = bottom = a[i]
        else:  # the minimum is v_i (v_j ≥ m) or v_j (v_i ≥ m)
            top = np.maximum(a[i] + np.maximum(a[j], a_end[j]), a[j] + np.maximum(a[i], a_end[i]))
            bottom = np.minimum(
                a[i] + np.minimum(a[j], a_end[j]), a[j] + np.minimum(a[i], a_end[i])
            )
        hi = max(hi, float(np.max(d[row] + top)))
        lo = min(lo, float(np.min(d[row] + bottom)))
    return lo, hi
