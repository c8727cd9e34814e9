"""Golden entries of Zhou & Tan (AAAI 2021): CTL(ϵ) (Curator 1, Lemma 1), the kernels'
``γ_t``, the schedules and the regret bounds (:mod:`reference.zhou_tan`); file
``audit/tools/golden_vectors/zhou_tan.json``.  The golden vectors are described in the note's
golden-vectors row.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import numpy as np

from audit.tools.golden.compare import (
    ROUNDOFF_ATOL,
    ROUNDOFF_REASON,
    SOLVER_REASON,
    SOLVER_RTOL,
    Tolerance,
)
from audit.tools.golden.entries import (
    _EPS,
    _UNDERFLOW,
    _ZERO_FACTOR,
    GoldenFunction,
    _arr,
    _grid,
    _product,
)
from reference.zhou_tan import bounds as zt_bounds
from reference.zhou_tan import kernels as zt_kernels
from reference.zhou_tan import mechanism as zt_mech
from reference.zhou_tan import schedules as zt_sched

__all__ = [
    "zhou_tan_entries",
]


# Fixed points for the kernels: a 5-point grid of [0, 1] and 4 points of [0, 1]^2.
_X1 = [[0.0], [0.25], [0.5], [0.75], [1.0]]
_X2 = [[0.0, 0.0], [0.1, 0.9], [0.5, 0.5], [1.0, 0.3]]
_GRAM = [
    [1.0, 0.8, 0.3, 0.05],
    [0.8, 1.0, 0.6, 0.2],
    [0.3, 0.6, 1.0, 0.7],
    [0.05, 0.2, 0.7, 1.0],
]


def zhou_tan_entries() -> list[GoldenFunction]:
    p = "zhou_tan"
    # the axes shared by the LDP-TGP-UCB schedules (round, bounds, Laplace scale) and by the
    # LDP-ATA-GP-UCB ones (Nystrom size, horizon, delta, variance proxy)
    tgp_axes = {"t": (1, 1000, 10**12), "B": (1.0,), "R": (1.0,), "lap_scale": (1.0, 1e3)}
    ata_axes = {"m": (1, 100), "T": (1000, 10**12), "delta": (0.01,), "v": (1.0,)}
    T_axis = (10.0, 1e4, 1e12)
    rates = _grid(
        [
            {"T": T, "kernel": k, "d": d, "nu": nu}
            for T in T_axis
            for d in (1, 5, 256)
            for k, nu in (("se", None), ("linear", None), ("matern", 0.5), ("matern", 2.5))
        ],
        {"T": 1.0, "kernel": "se", "d": 1, "nu": None},
        {"T": 10.0, "kernel": "matern", "d": 1, "nu": None},
        {"T": 10.0, "kernel": "x", "d": 1, "nu": None},
    )
    regret_exprs = _product(
        T=T_axis, gamma_T=(1.0, 100.0), B=(1.0,), R=(1.0,), eps=_EPS, eps_nys=(0.5,), delta=(0.01,)
    )
    no_nys = [{k: v for k, v in c.items() if k != "eps_nys"} for c in regret_exprs]
    with_rate = _grid(
        [
            {
                "algorithm": a,
                "T": T,
                "kernel": k,
                "d": d,
                "B": 1.0,
                "R": 1.0,
                "eps": e,
                "delta": 0.01,
                "nu": nu,
            }
            for a in ("ldp_ata", "ldp_tgp", "moma", "ldp_moma")
            for T in (1e4, 1e12)
            for k, d, nu in (
                ("se", 1, None),
                ("se", 5, None),
                ("matern", 2, 2.5),
                ("linear", 256, None),
            )
            for e in (1e-3, 1.0)
        ],
    )
    lower_se = _grid(
        _product(T=T_axis, eps=_EPS, v=(1.0, 4.0), B=(1.0,), d=(1, 5, 256), alpha=(0.5, 1.0)),
        {"T": 1e4, "eps": 1.0, "v": 1.0, "B": 1.0, "d": 0},
    )
    lower_matern = _grid(
        [dict(c, nu=nu) for c in lower_se[:-1] if c["alpha"] == 1.0 for nu in (0.5, 2.5)]
    )
    return [
        GoldenFunction(p, zt_bounds.zeta_priv, _grid(_product(eps=(*_EPS, 0.0)))),
        GoldenFunction(
            p,
            zt_mech.laplace_scale,
            _grid(
                _product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS), {"B": 1.0, "R": -1.0, "eps": 1.0}
            ),
        ),
        GoldenFunction(
            p,
            zt_mech.ldp_reward_second_moment,
            _grid(_product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS)),
        ),
        GoldenFunction(
            p,
            zt_mech.ldp_noise_second_moment,
            _grid(_product(B=(1.0, 10.0), R=(0.0, 0.5), eps=_EPS)),
        ),
        GoldenFunction(p, zt_bounds.lower_bound_se, lower_se),
        GoldenFunction(p, zt_bounds.lower_bound_matern, lower_matern),
        GoldenFunction(
            p,
            zt_bounds.eq18_lower_bound,
            _grid(_product(T=T_axis, M=(1.0, 100.0), eps=_EPS, v=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_delta_max,
            _grid(
                _product(M=(1.0, 100.0), C=(1.0,), eps=_EPS, T=T_axis, v=(1.0,), alpha=(0.5, 1.0))
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_se,
            _grid(
                _product(
                    B=(1.0,),
                    Delta=(1e-3, 0.1),
                    lengthscale=(0.1, 1.0),
                    d=(1, 5, 256),
                    h0=(1.0,),
                    zeta_bump=(0.5,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_matern,
            _grid(
                _product(
                    B=(1.0,),
                    Delta=(1e-3, 0.1),
                    nu=(0.5, 2.5),
                    d=(1, 5, 256),
                    h0=(1.0,),
                    zeta_bump=(0.5,),
                    c_matern=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.bump_h0,
            _grid(_product(d=(1, 2, 3)), {"d": 0}),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            zt_bounds.bump_zeta,
            _grid(_product(d=(1, 2, 3))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_width_se_numeric,
            _grid(_product(B=(1.0,), Delta=(1e-3, 0.1), lengthscale=(0.1, 1.0), d=(1, 2))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # uses h(0) and zeta_bump, from quadrature and Brent's method
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_function_count,
            _grid(
                _product(w=(0.1, 0.5, 1.0, 2.0), d=(1, 5), convention=("paper", "grid")),
                {"w": 0.0, "d": 1},
            ),
        ),
        GoldenFunction(
            p,
            zt_bounds.lower_bound_reward_law,
            _grid(_product(f_value=(-0.5, 0.0, 0.01), Delta=(0.01,), v=(1.0,), alpha=(0.5, 1.0))),
            small_values="f = 0: a literal 0.0 value and a zero factor |f| in the probability",
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma3_count_bound,
            _grid(
                {
                    "T": 1000,
                    "E0_counts": _arr([100.0, 300.0, 600.0]),
                    "D_m": _arr([0.0, 1e-3, 0.01]),
                }
            ),
        ),
        GoldenFunction(
            p, zt_bounds.lemma4_delta_max, _grid(_product(v=(1.0, 4.0), alpha=(0.5, 1.0)))
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma4_kl_bound,
            _grid(_product(eps=_EPS, Delta=(1e-3, 0.1), v=(1.0,), v_mj=(0.0, 0.5), alpha=(1.0,))),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(
            p,
            zt_bounds.nonprivate_two_point_kl,
            _grid(_product(p=(0.0, 1e-3, 0.25, 0.5))),
            small_values="-log1p(-0.0) = 0.0 exactly (IEEE 754 / C99 Annex F)",
        ),
        GoldenFunction(
            p,
            zt_bounds.nonprivate_two_point_kl_bound,
            _grid(_product(Delta=(1e-3, 0.1), v=(1.0,), f_abs=(0.01, 0.1), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.duchi_symmetric_kl_bound,
            _grid(_product(eps=_EPS, tv=(0.0, 0.1, 1.0))),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(p, zt_bounds.thm2_regret_expr, _grid(regret_exprs)),
        GoldenFunction(p, zt_bounds.thm3_regret_expr, _grid(no_nys)),
        GoldenFunction(
            p,
            zt_bounds.thm3_confidence_terms,
            _grid(_product(**tgp_axes, K2=(1.0,), gamma_t=(1.0, 100.0), delta=(0.01,))),
        ),
        GoldenFunction(
            p,
            zt_bounds.thm4_regret_expr,
            _grid(
                _product(
                    T=T_axis,
                    gamma_T=(1.0, 100.0),
                    B=(1.0,),
                    c=(1.0,),
                    eps_nys=(0.5,),
                    delta=(0.01,),
                    alpha=(0.5, 1.0),
                )
            ),
        ),
        GoldenFunction(p, zt_bounds.cor1_regret_expr, _grid(regret_exprs)),
        GoldenFunction(p, zt_bounds.regret_upper_bound_with_rate, with_rate),
        GoldenFunction(
            p,
            zt_bounds.lemma6_residuals,
            _grid(_product(A=(_arr(_GRAM), np.eye(3)), lam=(0.1, 1.0))),
            # Eq. 19 and corrected Eq. 20 residuals are 0 in exact arithmetic; the printed
            # Eq. 20 residual (output[2]) is not 0 and keeps the ordinary relative tolerance.
            outputs={
                "output[0]": Tolerance(atol=ROUNDOFF_ATOL, reason=ROUNDOFF_REASON),
                "output[1]": Tolerance(atol=ROUNDOFF_ATOL, reason=ROUNDOFF_REASON),
            },
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma7_sum_sigma_sq_bound,
            _grid(_product(gamma_T=(1.0, 100.0), lam=(0.1, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma7_sum_sigma_bound,
            _grid(_product(T=(1000, 10**12), gamma_T=(1.0, 100.0), lam=(0.1, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.regret_certificate,
            _grid(_product(beta_T=(1.0, 50.0), T=(1000, 10**12), gamma_T=(1.0, 100.0), lam=(1.0,))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma8_dictionary_size_bound,
            _grid(_product(eps_nys=(0.1, 0.5), lam=(1.0,), q=(10.0, 1e4), gamma_n=(1.0, 100.0))),
        ),
        GoldenFunction(
            p, zt_bounds.lemma9_sigma_ratio_bound, _grid(_product(eps_nys=(0.1, 0.5, 0.99, 1.0)))
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma10_failure_bound,
            _grid(_product(m=(1, 10, 1000), n=(10, 10**6), c=(1.0, 10.0), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_hoeffding_bound,
            _grid(_product(k=(1, 24, 1000), version=("paper", "corrected"))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_exact_tail,
            _grid(_product(k=(1, 24, 1000), p=(0.1, 0.25))),
            small_values="a binomial upper tail from scipy (summed without cancellation)",
        ),
        GoldenFunction(
            p,
            zt_bounds.lemma11_union_failure,
            _grid(_product(k=(1, 24, 1000), n_epochs=(1, 100), version=("paper", "corrected"))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(p, zt_sched.rho_nys, _grid(_product(eps_nys=(0.1, 0.5, 1.0)))),
        GoldenFunction(
            p,
            zt_sched.first_beta_approx,
            _grid(_product(B=(1.0, 10.0), eps_nys=(0.1, 0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.nystrom_q,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01), eps_nys=(0.1, 0.5))),
        ),
        GoldenFunction(
            p,
            zt_sched.practical_nystrom_q,
            _grid(_product(T=(10, 10**4, 10**12), eps_nys=(0.1, 0.5))),
        ),
        GoldenFunction(
            p,
            zt_sched.ata_trunc_level,
            _grid(_product(**ata_axes, t=(1, 1000), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.ata_beta_next,
            _grid(
                _product(
                    **ata_axes,
                    lam=(1.0,),
                    B=(1.0,),
                    eps_nys=(0.5,),
                    t=(1, 1000),
                    alpha=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.ref7_ata_schedule,
            _grid(
                _product(
                    t=(1, 1000),
                    m=(1, 100),
                    T=(1000, 10**12),
                    v=(1.0,),
                    alpha=(1.0,),
                    B=(1.0,),
                    lam=(1.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_trunc_level,
            _grid(_product(**tgp_axes)),
        ),
        GoldenFunction(
            p,
            zt_sched.ldp_tgp_beta,
            _grid(
                _product(**tgp_axes, lam=(1.0,), delta=(0.01,), gamma_prev=(1.0, 100.0), K2=(1.0,))
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_nonprivate_trunc_level,
            _grid(_product(t=(1, 1000, 10**12), v=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.subweibull_trunc_level,
            _grid(
                _product(
                    t=(1, 1000, 10**12),
                    signal_bound=(0.5, 2.0),
                    a=(1.0, 2.0),
                    b=(0.5,),
                    theta=(0.5, 1.0, 2.0),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.subweibull_tgp_beta,
            _grid(
                _product(
                    t=(2, 1000),
                    B=(1.0,),
                    signal_bound=(2.0,),
                    a=(2.0,),
                    b=(0.5,),
                    theta=(0.5, 2.0),
                    lam=(1.0,),
                    delta=(0.05,),
                    gamma_prev=(0.0, 10.0),
                    K2=(5.0,),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_practical_beta,
            _grid(_product(t=(1, 1000, 10**12), b_t=(2.0, 1e3), B=(1.0,), lam=(1.0, 4.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.tgp_nonprivate_beta,
            _grid(
                _product(
                    t=(2, 1000, 10**12),
                    v=(1.0, 10.0),
                    alpha=(0.5, 1.0),
                    B=(1.0,),
                    lam=(1.0,),
                    delta=(0.05,),
                    gamma_prev=(0.0, 100.0),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.ref7_tgp_schedule,
            _grid(_product(t=(1, 1000, 10**12), v=(1.0,), alpha=(0.5, 1.0), B=(1.0,), lam=(1.0,))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_k_rep,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01)), {"T": 10, "delta": 0.0}),
        ),
        GoldenFunction(
            p,
            zt_sched.practical_k_rep,
            _grid(_product(T=(10, 10**4, 10**12), delta=(1e-10, 0.01))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_n_epochs,
            _grid(_product(T=(10, 10**4, 10**12), k_rep=(1, 24, 1000))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_radius,
            _grid(_product(n=(1, 100, 10**6), m=(1, 100), c=(1.0,), alpha=(0.5, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_sched.moma_beta_next,
            _grid(
                _product(
                    n=(1, 100),
                    m=(1, 100),
                    c=(1.0,),
                    B=(1.0,),
                    eps_nys=(0.5,),
                    lam=(1.0,),
                    alpha=(1.0,),
                    lam_factor=("proof", "statement"),
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_sched.igp_ucb_beta,
            _grid(
                _product(
                    t=(1, 1000, 10**12), B=(1.0,), R=(1.0,), gamma_prev=(1.0, 100.0), delta=(0.01,)
                )
            ),
        ),
        GoldenFunction(p, zt_kernels.unit_grid, _grid(_product(n_points=(1, 2, 5, 0)))),
        GoldenFunction(
            p,
            zt_kernels.pairwise_distances,
            _grid({"X": _arr(_X1), "Y": _arr(_X1)}, {"X": _arr(_X2), "Y": _arr(_X2[:2])}),
            small_values="the diagonal is sqrt(sum((x - x)**2)) with x - x = 0.0 exactly",
        ),
        GoldenFunction(
            p,
            zt_kernels.se_kernel,
            _grid(
                _product(X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0)),
                _product(X=(_arr(_X2),), Y=(_arr(_X2),), lengthscale=(0.5,)),
                {"X": _arr(_X1), "Y": _arr(_X1), "lengthscale": 0.0},
            ),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            zt_kernels.matern_kernel,
            _grid(
                _product(
                    X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0), nu=(0.5, 1.5, 2.5, 0.7)
                ),
                _product(X=(_arr(_X2),), Y=(_arr(_X2),), lengthscale=(0.5,), nu=(2.5,)),
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.matern_closed_form,
            _grid(
                _product(
                    X=(_arr(_X1),), Y=(_arr(_X1),), lengthscale=(0.1, 1.0), nu=(0.5, 1.5, 2.5, 0.7)
                )
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.linear_kernel,
            _grid({"X": _arr(_X1), "Y": _arr(_X1)}, {"X": _arr(_X2), "Y": _arr(_X2)}),
            small_values="x.y with x or y = 0: every product 0.0, exact in any BLAS",
        ),
        GoldenFunction(p, zt_kernels.gamma_rate, rates),
        GoldenFunction(
            p,
            zt_kernels.information_gain,
            _grid(
                _product(K_A=(_arr(_GRAM), np.eye(3)), lam=(0.01, 1.0)),
                {"K_A": _arr(_GRAM), "lam": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            zt_kernels.greedy_info_gain_curve,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_kernels.spectral_info_gain_bound,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
        GoldenFunction(
            p,
            zt_kernels.certified_gamma_upper,
            _grid(_product(K=(_arr(_GRAM),), T=(1, 4, 10), lam=(0.01, 1.0))),
        ),
    ]
