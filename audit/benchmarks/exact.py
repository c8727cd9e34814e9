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
from reference.validation import check_array, check_finite, check_nonempty, check_positive

__all__ = [
    "discrete_epsilon",
    "noisy_max_index_law",
    "noisy_max_value_binned_laws",
    "noisy_max_value_epsilon",
    "oracle_event_bound",
    "svt_bits_law",
    "svt_first_above_law",
    "svt_no_query_noise_law",
    "svt_released_value_binned_laws",
    "svt_released_value_epsilon",
    "svt_released_value_log_density",
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
    x: FloatArray, threshold: float, rho_scale: float, nu_scale: float, cuts: Sequence[float]
) -> tuple[FloatArray, FloatArray]:
    """Panel edges ``s`` (60 scales past ``cuts``) and ``ln H_i(s)``, shape ``(n, edges)``, with
    ``H_i(s) = ∫_{−∞}^{s} f_ρ(r) Π_{j<i} F_ν(r + T − x_j) dr`` accumulated panel by panel (the part
    left of the grid is neglected)."""
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
    below = np.cumsum(_log_laplace_cdf(u, nu_scale), axis=0)
    prefix = np.concatenate([np.zeros((1, *r.shape)), below[:-1]], axis=0)
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
