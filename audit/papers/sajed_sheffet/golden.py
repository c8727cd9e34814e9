"""Golden entries of Sajed & Sheffet (ICML 2019): the constants of Algorithms 1-3 and
their bounds (:mod:`reference.sajed_sheffet`); file ``audit/tools/golden_vectors/sajed_sheffet.json``.
The golden vectors are described in the note's golden-vectors row.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math

from audit.tools.golden.compare import FLOAT_INTEGER_REASON, Tolerance
from audit.tools.golden.entries import _EPS, _UNDERFLOW, GoldenFunction, _grid, _product
from reference.sajed_sheffet import bounds as ss_bounds
from reference.sajed_sheffet import constants as ss_const

__all__ = [
    "sajed_sheffet_entries",
]


def sajed_sheffet_entries() -> list[GoldenFunction]:
    p = "sajed_sheffet"
    eps_inf = (*_EPS, math.inf)
    nas = _grid(
        _product(t=(1, 10, 10**6, 10**12), range_R=(1.0, 256.0), beta=(1e-10, 0.1)),
        {"t": 0, "range_R": 1.0, "beta": 0.1},
        {"t": 1, "range_R": 1.0, "beta": 1.0},
    )
    dpnas = _grid(
        _product(
            t=(1, 10**6, 10**12), range_R=(1.0,), epsilon=_EPS, alpha=(1e-3, 0.1), beta=(1e-10, 0.1)
        ),
        {"t": 1, "range_R": 1.0, "epsilon": 1.0, "alpha": 1.0, "beta": 0.1},
    )
    exp_h = _grid(
        _product(t=(1, 2**20), k=(1, 20, 40), range_R=(1.0, 256.0), beta=(1e-10, 0.1)),
        {"t": 1, "k": 0, "range_R": 1.0, "beta": 0.1},
    )
    exp_c = _grid(
        _product(k=(1, 20, 40), range_R=(1.0,), epsilon=_EPS, alpha=(1e-3, 0.1), beta=(1e-10, 0.1)),
        {"k": 1, "range_R": 0.0, "epsilon": 1.0, "alpha": 0.1, "beta": 0.1},
    )
    dpse = _grid(
        _product(n_viable=(1, 2, 256), epoch=(1, 10, 40), beta=(1e-10, 0.1), epsilon=eps_inf),
        {"n_viable": 0, "epoch": 1, "beta": 0.1, "epsilon": 1.0},
        {"n_viable": 2, "epoch": 0, "beta": 0.1, "epsilon": 1.0},
    )
    dpse_params = _grid(
        [dict(c, noise_on=mode) for c in dpse[:-2] for mode in ("r", "R_e")],
        {"n_viable": 2, "epoch": 1, "beta": 0.1, "epsilon": 1.0, "noise_on": "x"},
    )
    thm33 = _product(
        range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1), beta=(1e-10, 0.05), epsilon=_EPS
    )
    thm33_modes = _grid(
        [dict(c, inner_log=mode) for c in thm33 for mode in ("paper", "clamped")],
        {
            "range_R": 1.0,
            "mu": 2.0,
            "alpha": 0.1,
            "beta": 0.1,
            "epsilon": 1.0,
            "inner_log": "paper",
        },
    )
    halting = _grid(
        [
            dict(c, variant=v)
            for c in _product(
                range_R=(1.0,), mu=(0.1, 1.0), alpha=(0.1, 0.5), beta=(0.1,), epsilon=(0.1, 1.0)
            )
            for v in ("exponential", "every_step")
        ],
    )
    mu_grid = _grid(
        _product(range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1), beta=(1e-10, 0.1)),
        {"range_R": 1.0, "mu": 0.0, "alpha": 0.1, "beta": 0.1},
    )
    gaps = ([0.0, 0.5], [0.0, 0.1, 0.2, 0.5], [0.0] + [1e-3] * 8 + [0.9], [0.5], [0.1, 0.2])
    thm43 = _grid(
        _product(gaps=gaps, T=(1000, 10**12), epsilon=_EPS),
        {"gaps": [-0.1], "T": 1000, "epsilon": 1.0},
    )
    minimax = _grid(
        _product(T=(1000, 10**12), K=(2, 256), epsilon=_EPS),
        {"T": 1000, "K": 0, "epsilon": 1.0},
    )
    kt = _grid(_product(K=(2, 256), T=(1000, 10**12)), {"K": 2, "T": 0})
    kte = _grid(
        _product(K=(2, 256), T=(1000, 10**12), epsilon=_EPS), {"K": 2, "T": 1000, "epsilon": 0.0}
    )
    return [
        GoldenFunction(
            p,
            ss_const.hoeffding_radius,
            _grid(
                _product(t=(1, 1000, 10**12), width=(1.0, 2.0), failure=(1e-10, 0.1)),
                {"t": 0, "width": 1.0, "failure": 0.1},
            ),
        ),
        GoldenFunction(p, ss_const.nas_h, nas),
        GoldenFunction(
            p,
            ss_const.dp_nas_noise_scales,
            _grid(_product(range_R=(1.0, 256.0), epsilon=_EPS), {"range_R": 1.0, "epsilon": 0.0}),
        ),
        GoldenFunction(p, ss_const.dp_nas_h, nas),
        GoldenFunction(p, ss_const.dp_nas_c, dpnas),
        GoldenFunction(p, ss_const.dp_nas_threshold, dpnas),
        GoldenFunction(p, ss_const.dp_exp_nas_h, exp_h),
        GoldenFunction(p, ss_const.dp_exp_nas_c, exp_c),
        GoldenFunction(p, ss_const.dp_exp_nas_threshold, exp_c),
        GoldenFunction(
            p,
            ss_const.dpse_epoch_gap,
            _grid(_product(epoch=(1, 2, 10, 40, 0))),
            small_values="2**-epoch: exact powers of two",
        ),
        GoldenFunction(p, ss_const.dpse_rounds, dpse),
        GoldenFunction(
            p,
            ss_const.dpse_epoch_parameters,
            dpse_params,
            outputs={
                "output.fields.rounds": Tolerance(integers=True, reason=FLOAT_INTEGER_REASON),
            },
            small_values=(
                "privacy_term, c and noise_scale are literal 0.0 for epsilon = inf; gap = 2**-e "
                "exact; h, c and the threshold are products and quotients of positive terms"
            ),
        ),
        GoldenFunction(
            p,
            ss_const.dpse_elimination_threshold,
            dpse,
            small_values="2h + 2c: a sum of positive terms (no cancellation)",
        ),
        GoldenFunction(
            p,
            ss_const.dpucb_tree_epsilon,
            _grid(
                _product(epsilon=_EPS, K=(1, 256), calibration=("per_tree", "split")),
                {"epsilon": 1.0, "K": 2, "calibration": "x"},
            ),
        ),
        GoldenFunction(
            p,
            ss_const.dpucb_confidence_width,
            _grid(
                _product(K=(1, 256), T=(1, 1000, 10**12), epsilon_tree=_EPS, beta_u=(1e-10, 0.1)),
                {"K": 2, "T": 1000, "epsilon_tree": 1.0, "beta_u": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.laplace_tail,
            _grid(_product(tau=(0.0, 1.0, 50.0), scale=(1e-3, 1.0)), {"tau": 1.0, "scale": 0.0}),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            ss_bounds.hoeffding_tail,
            _grid(_product(deviation=(0.01, 0.5), t=(1, 1000, 10**12), width=(1.0, 2.0))),
            small_values=_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            ss_bounds.fact21_function,
            _grid(_product(x=(1.5, 10.0, 1e12), a=(0.5, 1.0, 100.0)), {"x": 1.0, "a": 1.0}),
        ),
        GoldenFunction(
            p,
            ss_bounds.fact21_thresholds,
            _grid(
                _product(a=(1.5, 10.0, 100.0, 1e6), b=(1e-6, 0.01, 0.06)),
                {"a": 1.0, "b": 0.01},
                {"a": 10.0, "b": 0.1},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.svt_privacy_loss,
            _grid(
                _product(
                    sensitivity=(1.0, 2.0), threshold_scale=(1.0, 12.0), query_scale=(1.0, 12.0)
                )
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.laplace_mechanism_privacy_loss,
            _grid(
                _product(sensitivity=(1.0, 2.0), scale=(1e-3, 4.0)),
                {"sensitivity": 1.0, "scale": 0.0},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.thm31_privacy_account,
            _grid(_product(range_R=(1.0, 256.0), epsilon=_EPS)),
        ),
        GoldenFunction(p, ss_bounds.thm31_failure_budget, _grid(_product(beta=(1e-10, 0.1, 0.0)))),
        GoldenFunction(p, ss_bounds.cor32_failure_budget, _grid(_product(beta=(1e-10, 0.1, 0.0)))),
        GoldenFunction(p, ss_bounds.thm33_terms, thm33_modes),
        GoldenFunction(p, ss_bounds.thm33_halting_bound, thm33_modes),
        GoldenFunction(p, ss_bounds.good_event_halting_time, halting),
        GoldenFunction(p, ss_bounds.thm34_sample_size, _grid(thm33)),
        GoldenFunction(
            p,
            ss_bounds.thm34_two_point_laws,
            _grid(_product(range_R=(1.0,), mu=(1e-3, 0.5, 1.0), alpha=(1e-3, 0.1))),
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma35_group_privacy_factor,
            _grid(_product(epsilon=_EPS, n=(1.0, 1e6), tv_distance=(1e-6, 0.1))),
        ),
        GoldenFunction(
            p,
            ss_bounds.thm34_exceedance_probability,
            _grid(_product(beta=(1e-10, 0.1), form=("paper", "proof_chain"))),
        ),
        GoldenFunction(p, ss_bounds.cor36_sample_complexity_lower_bound, _grid(thm33)),
        GoldenFunction(
            p,
            ss_bounds.dagum_sample_complexity_lower_bound,
            _grid(
                _product(
                    range_R=(1.0,), variance=(0.0, 0.25), mu=(1e-3, 0.5), alpha=(0.1,), beta=(0.1,)
                )
            ),
        ),
        GoldenFunction(p, ss_bounds.domingo_nas_sample_complexity_order, mu_grid),
        GoldenFunction(p, ss_bounds.mnih_nas_sample_complexity_order, mu_grid),
        GoldenFunction(p, ss_bounds.section31_assumption_holds, mu_grid),
        GoldenFunction(p, ss_bounds.thm41_privacy_loss, dpse_params),
        GoldenFunction(
            p,
            ss_bounds.lemma42_elimination_epoch,
            _grid(_product(gap=(1e-3, 0.1, 0.5, 1.0, 0.0))),
        ),
        GoldenFunction(
            p, ss_bounds.lemma42_failure_probability, _grid(_product(beta=(1e-10, 0.1, 1.0)))
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma42_pull_bound,
            _grid(
                _product(K=(2, 256), gap=(1e-3, 0.5), beta=(1e-10, 0.1), epsilon=_EPS),
                {"K": 2, "gap": 0.1, "beta": 0.1, "epsilon": 1.0, "T": 1000},
                {"K": 2, "gap": 0.1, "beta": 0.1, "epsilon": 1.0, "T": 10**12},
            ),
        ),
        GoldenFunction(
            p,
            ss_bounds.lemma42_proof_pull_bound,
            _grid(_product(K=(2, 256), gap=(1e-3, 0.5), beta=(1e-10, 0.1), epsilon=_EPS)),
        ),
        GoldenFunction(p, ss_bounds.thm43_regret_bound, thm43),
        GoldenFunction(p, ss_bounds.thm43_regret_bound_paper_form, thm43),
        GoldenFunction(
            p,
            ss_bounds.thm44_per_arm_regret_bound,
            _grid(_product(gap=(1e-3, 0.5), T=(1000, 10**12), epsilon=_EPS, C=(1.0, 2.0))),
        ),
        GoldenFunction(p, ss_bounds.thm44_critical_gap, minimax),
        GoldenFunction(p, ss_bounds.thm44_critical_gap_order, minimax),
        GoldenFunction(p, ss_bounds.thm44_minimax_regret_bound, minimax),
        GoldenFunction(p, ss_bounds.thm44_minimax_regret_order, minimax),
        GoldenFunction(
            p,
            ss_bounds.lai_robbins_regret_order,
            _grid(_product(gaps=gaps, T=(1000, 10**12))),
        ),
        GoldenFunction(p, ss_bounds.private_regret_lower_bound_order, kte),
        GoldenFunction(p, ss_bounds.minimax_regret_lower_bound_order, kt),
        GoldenFunction(p, ss_bounds.ucb_minimax_regret_order, kt),
        GoldenFunction(
            p,
            ss_bounds.tree_release_noise_variance,
            _grid(
                _product(count=(0, 1, 5, 1000), T=(1000, 10**12), epsilon=_EPS),
                {"count": 1001, "T": 1000, "epsilon": 1.0},
            ),
            small_values="popcount(0) = 0 times the node variance: exact",
        ),
        GoldenFunction(p, ss_bounds.dpucb_added_regret_order, kte),
    ]
