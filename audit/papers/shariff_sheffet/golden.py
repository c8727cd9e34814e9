"""Golden entries of Shariff & Sheffet (NeurIPS 2018): every constant and bound of
:mod:`reference.shariff_sheffet` (Eq. 4, Props. 4, 9, 11, Theorems 5 and 6); file
``audit/tools/golden_vectors/shariff_sheffet.json``.  The golden vectors are described in the
note's golden-vectors row.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math

from audit.tools.golden.codec import Params
from audit.tools.golden.compare import DIFFERENCE_REASON, SOLVER_REASON, SOLVER_RTOL
from audit.tools.golden.entries import (
    _BOTH_UNDERFLOW,
    _D,
    _DELTA,
    _EPS,
    GoldenFunction,
    _arr,
    _gaussian_delta_atol,
    _grid,
    _product,
    object_parameter,
)
from reference import accounting
from reference.shariff_sheffet import bounds as sh_bounds
from reference.shariff_sheffet import tight as sh_tight
from reference.shariff_sheffet.bounds import RegularizerBounds

__all__ = [
    "shariff_sheffet_entries",
]


_WITH_BOUNDS = object_parameter("bounds", RegularizerBounds)


def _gdp_delta_atol(kwargs: Params) -> float:
    """Case tolerance of ``gaussian_delta(epsilon, mu=mu)``."""
    return _gaussian_delta_atol(kwargs["mu"], kwargs["epsilon"])


# Tree depths of the horizons used by the grids, hard-coded (m = 1 + ceil(log2 n)) so that the
# grids do not depend on the code under test.
_N_M = ((2, 2), (1000, 11), (10**5, 18), (10**12, 41))

_BOUNDS = (
    {"rho_min": 1.0, "rho_max": 1.0, "gamma": 0.0, "shift": 1.0},
    {"rho_min": 4.0, "rho_max": 12.0, "gamma": 2.5, "shift": 8.0},
    {"rho_min": 1e6, "rho_max": 3e6, "gamma": 30.0, "shift": 2e6},
)


def shariff_sheffet_entries() -> list[GoldenFunction]:
    p = "shariff_sheffet"
    node_privacy = _grid(
        _product(epsilon=_EPS, delta=_DELTA, m=(1, 2, 41)),
        {"epsilon": 0.0, "delta": 0.1, "m": 2},
        {"epsilon": 1.0, "delta": 1.0, "m": 2},
        {"epsilon": 1.0, "delta": 0.1, "m": 0},
    )
    dof = _grid(
        [
            {"d": d, "m": m, "epsilon": e, "delta": dl}
            for d in _D
            for _n, m in _N_M
            for e in _EPS
            for dl in _DELTA
        ],
        {"d": 0, "m": 2, "epsilon": 1.0, "delta": 0.1},
        {"d": 5, "m": 1, "epsilon": 1.0, "delta": 0.9},
    )
    # (d, n, m, k): k from tiny (Claim 19 fails) to the size of the paper's configurations
    wishart = _grid(
        [
            {"d": d, "m": m, "k": k, "L_tilde": L, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for k in (d + 1, 10**4, 10**7, 10**12)
            for L in (1.0, math.sqrt(2.0))
        ],
        {"d": 5, "m": 11, "k": 5, "L_tilde": 1.0, "n": 1000, "alpha": 0.001},
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 0.0, "n": 1000, "alpha": 0.001},
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 1.0, "n": 1000, "alpha": 1.0},
    )
    wishart_shifted = _grid(
        [dict(case, gamma_mode=mode) for case in wishart for mode in ("paper", "tight")],
        {"d": 5, "m": 11, "k": 10**6, "L_tilde": 1.0, "n": 1000, "alpha": 0.001, "gamma_mode": "x"},
    )
    gauss_std = _grid(
        _product(m=(1, 11, 41), L_tilde=(1.0, math.sqrt(2.0)), epsilon=_EPS, delta=_DELTA),
        {"m": 0, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1},
        {"m": 2, "L_tilde": -1.0, "epsilon": 1.0, "delta": 0.1},
    )
    upsilon = _grid(
        [
            {"sigma_noise": s, "m": m, "d": d, "n": n, "alpha": 1.0 / n}
            for s in (1e-3, 1.0, 1e4)
            for n, m in _N_M
            for d in _D
        ],
        {"sigma_noise": 0.0, "m": 2, "d": 1, "n": 2, "alpha": 0.5},
    )
    closed = _grid(
        [
            {"m": m, "L_tilde": 1.0, "epsilon": e, "delta": 0.1, "d": d, "n": n, "alpha": 1.0 / n}
            for n, m in _N_M
            for e in _EPS
            for d in _D
        ],
        {"m": 2, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "d": 0, "n": 2, "alpha": 0.5},
    )
    gauss_bounds = _grid(
        [
            {"d": d, "m": m, "L_tilde": L, "epsilon": e, "delta": dl, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for L in (1.0, math.sqrt(2.0))
            for e in (1e-3, 1.0)
            for dl in _DELTA
        ],
        {"d": 5, "m": 11, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "n": 1000, "alpha": 0.0},
    )
    release_std = _grid(
        [
            {"d": d, "release_std": s, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, _ in _N_M
            for s in (1e-3, 1.0, 1e4)
        ],
        {"d": 1, "release_std": 0.0, "n": 2, "alpha": 0.5},
    )
    gauss_sigma = _grid(
        [
            {"d": d, "m": m, "sigma_noise": s, "n": n, "alpha": 1.0 / n}
            for d in _D
            for n, m in _N_M
            for s in (1e-3, 1.0, 1e4)
        ],
    )
    beta_common = _product(
        d=(1, 5, 256), sigma=(0.0, 1.0), alpha=(1e-12, 0.05), S=(1.0,), bounds=_BOUNDS
    )
    beta_t_grid = _grid(
        [dict(c, log_det_V=v) for c in beta_common for v in (-5.0, 0.0, 50.0, 3000.0)],
        {
            "log_det_V": math.inf,
            "d": 5,
            "sigma": 1.0,
            "alpha": 0.05,
            "S": 1.0,
            "bounds": _BOUNDS[0],
        },
        {"log_det_V": 1.0, "d": 5, "sigma": -1.0, "alpha": 0.05, "S": 1.0, "bounds": _BOUNDS[0]},
    )
    beta_batch_grid = _grid(
        [dict(c, log_det_V=_arr([-5.0, 0.0, 50.0, 3000.0])) for c in beta_common[:12]],
    )
    beta_bar_grid = _grid(
        [dict(c, t=t, L=1.0) for c in beta_common for t in (0, 1000, 10**12)],
        {"t": -1, "d": 5, "L": 1.0, "sigma": 1.0, "alpha": 0.05, "S": 1.0, "bounds": _BOUNDS[0]},
    )
    thm5_grid = _grid(
        [
            {
                "n": n,
                "d": d,
                "L": 1.0,
                "S": 1.0,
                "B": 1.0,
                "sigma": 1.0,
                "alpha": 1.0 / n,
                "bounds": b,
            }
            for n, _m in _N_M
            for d in _D
            for b in _BOUNDS
        ],
        {
            "n": 1000,
            "d": 5,
            "L": 1.0,
            "S": 1.0,
            "B": 0.5,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": _BOUNDS[0],
        },
    )
    thm6_grid = _grid(
        [dict(c, gap=g) for c in thm5_grid[:-1] for g in (1e-3, 0.1)],
        {
            "n": 1000,
            "d": 5,
            "L": 1.0,
            "S": 1.0,
            "B": 1.0,
            "sigma": 1.0,
            "alpha": 0.001,
            "bounds": _BOUNDS[0],
            "gap": 0.0,
        },
    )
    lower = _grid(
        _product(n=(2, 1000, 10**12), epsilon=_EPS, gap=(1e-3, 0.5)),
        {"n": 1, "epsilon": 1.0, "gap": 0.1},
    )
    cor15 = _grid(
        _product(num_arms=(2, 10, 256), n=(2, 1000, 10**12), epsilon=_EPS),
        {"num_arms": 1, "n": 1000, "epsilon": 1.0},
    )
    used = _grid(_product(n=(1, 2, 3, 8, 9, 1000, 10**5, 10**12)), {"n": 0})
    tree_mu = _grid(
        _product(
            sigma_noise=(1e-3, 1.0, 100.0), n=(1, 2, 1000, 10**12), L_tilde=(1.0, math.sqrt(2.0))
        )
    )
    tight_std = _grid(
        _product(n=(2, 1000, 10**12), L_tilde=(1.0, math.sqrt(2.0)), epsilon=_EPS, delta=_DELTA)
    )
    tight_bounds = _grid(
        [
            {"d": d, "n": n, "L_tilde": 1.0, "epsilon": e, "delta": 0.1, "alpha": 1.0 / n}
            for d in _D
            for n, _m in _N_M
            for e in _EPS
        ],
        {"d": 5, "n": 1000, "L_tilde": 1.0, "epsilon": 1.0, "delta": 0.1, "alpha": 1.5},
    )
    gdp_delta = _grid(
        _product(
            mu=(1e-3, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0), epsilon=(0.0, 1e-3, 0.1, 1.0, 5.0, 10.0)
        ),
        {"mu": 0.0, "epsilon": 1.0},
        {"mu": 1.0, "epsilon": -1.0},
    )
    gdp_eps = _grid(
        _product(mu=(0.01, 0.5, 1.0, 2.0, 5.0), delta=(1e-10, 1e-5, 0.1, 0.5)),
        {"mu": 1.0, "delta": 0.0},
    )
    gdp_mu = _grid(
        _product(epsilon=_EPS, delta=(1e-10, 1e-5, 0.1)),
        {"epsilon": 0.0, "delta": 0.1},
    )
    return [
        GoldenFunction(p, sh_bounds.wishart_node_privacy, node_privacy),
        GoldenFunction(p, sh_bounds.gaussian_node_privacy, node_privacy),
        GoldenFunction(p, sh_bounds.wishart_degrees_of_freedom, dof),
        GoldenFunction(
            p,
            sh_bounds.wishart_unshifted_bounds,
            wishart,
            small_values="shift is a literal 0.0; gamma is small only next to rho (no cancellation)",
        ),
        GoldenFunction(p, sh_bounds.wishart_shift, wishart),
        GoldenFunction(p, sh_bounds.wishart_shifted_bounds, wishart_shifted),
        GoldenFunction(p, sh_bounds.gaussian_noise_std, gauss_std),
        GoldenFunction(p, sh_bounds.gaussian_operator_norm_bound, upsilon),
        GoldenFunction(p, sh_bounds.gaussian_operator_norm_bound_closed_form, closed),
        GoldenFunction(p, sh_bounds.gaussian_bounds, gauss_bounds),
        GoldenFunction(p, sh_bounds.gaussian_bounds_for_sigma, gauss_sigma),
        GoldenFunction(p, sh_bounds.gaussian_bounds_for_release_std, release_std),
        GoldenFunction(
            p,
            sh_bounds.nonprivate_bounds,
            _grid(_product(rho=(1e-3, 1.0, 1e6, 0.0, math.inf))),
            small_values="gamma is a literal 0.0",
        ),
        GoldenFunction(p, sh_bounds.beta_t, beta_t_grid, prepare=_WITH_BOUNDS),
        GoldenFunction(p, sh_bounds.beta_t_batch, beta_batch_grid, prepare=_WITH_BOUNDS),
        GoldenFunction(p, sh_bounds.beta_bar, beta_bar_grid, prepare=_WITH_BOUNDS),
        GoldenFunction(p, sh_bounds.regret_bound_thm5, thm5_grid, prepare=_WITH_BOUNDS),
        GoldenFunction(p, sh_bounds.regret_bound_thm6, thm6_grid, prepare=_WITH_BOUNDS),
        GoldenFunction(p, sh_bounds.claim14_min_pulls, lower),
        GoldenFunction(p, sh_bounds.cor15_regret_lower_bound, cor15),
        GoldenFunction(p, sh_tight.gaussian_tree_used_nodes, used),
        GoldenFunction(p, sh_tight.gaussian_tree_mu, tree_mu),
        # sigma = sqrt(h) L~^2 / mu with mu = gaussian_mu_for (bisection); the bounds use that sigma
        GoldenFunction(
            p,
            sh_tight.gaussian_tight_noise_std,
            tight_std,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            sh_tight.gaussian_tight_bounds,
            tight_bounds,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            accounting.gaussian_delta,
            gdp_delta,
            reason=DIFFERENCE_REASON,
            case_atol=_gdp_delta_atol,
            small_values=_BOTH_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            accounting.gaussian_epsilon,
            gdp_eps,
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
            small_values="0.0 is the branch delta(0) <= delta (margins >= 23% of delta here)",
        ),
        GoldenFunction(
            p, accounting.gaussian_mu_for, gdp_mu, rtol=SOLVER_RTOL, reason=SOLVER_REASON
        ),
    ]
