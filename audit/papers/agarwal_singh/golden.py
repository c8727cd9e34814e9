"""Golden entries of Agarwal & Singh (ICML 2017): Algorithm 2 and Lemma 3.3 (tree-based
aggregation) and the theorems (:mod:`reference.agarwal_singh`); file
``audit/tools/golden_vectors/agarwal_singh.json``.  The golden vectors are described in the note's
golden-vectors row.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import math

from audit.tools.golden.codec import Params
from audit.tools.golden.compare import DIFFERENCE_REASON, SOLVER_REASON, SOLVER_RTOL
from audit.tools.golden.entries import (
    _BOTH_UNDERFLOW,
    _DELTA,
    _EPS,
    _POSITIVE_TERMS,
    _ZERO_FACTOR,
    GoldenFunction,
    _arr,
    _gaussian_delta_atol,
    _grid,
    _product,
    object_parameter,
)
from reference.agarwal_singh import aggregation as as_agg
from reference.agarwal_singh import theorems as as_thm
from reference.agarwal_singh.sets import LossSet

__all__ = [
    "agarwal_singh_entries",
    "cor32_regret_bound_at",
]


def _tree_node_delta_atol(kwargs: Params) -> float:
    """Case tolerance of ``gaussian_tree_node_delta``: its ``μ = √h Δ₂/σ`` (0 when no node is used,
    where the output is a literal 0)."""
    h = as_agg.nodes_per_leaf(kwargs["T"], kwargs["view"])
    if h == 0:
        return 0.0
    mu = math.sqrt(h) * kwargs["Y_l2_diameter"] / kwargs["sigma"]
    return _gaussian_delta_atol(mu, kwargs["epsilon"])


_LN_256 = 5.545177444479562
"""``ln 256`` as stored in the files (``math.log(256)`` may differ in its last bit across libms)."""


def cor32_regret_bound_at(
    instance: as_thm.Instance, N: int, T: int, epsilon: float, calibration: as_agg.Calibration
) -> float:
    """Adapter: :func:`reference.agarwal_singh.theorems.cor32_regret_bound` at the parameters of
    :func:`~reference.agarwal_singh.theorems.cor32_parameters` (its input is an object)."""
    params = as_thm.cor32_parameters(instance, N, T, epsilon, calibration=calibration)
    return as_thm.cor32_regret_bound(params, T)


def agarwal_singh_entries() -> list[GoldenFunction]:
    p = "agarwal_singh"
    T_axis = (1, 2, 1000, 10**12)
    tree_eps = _grid(
        _product(
            epsilon=_EPS, T=T_axis, Y_l1_diameter=(2.0, 512.0), view=("actions", "prefix_sums")
        ),
        {"epsilon": 1.0, "T": 0, "Y_l1_diameter": 2.0, "view": "actions"},
        {"epsilon": 1.0, "T": 8, "Y_l1_diameter": 2.0, "view": "x"},
    )
    instances = [
        {"instance": i, "N": N, "T": T, "epsilon": e}
        for i in ("experts", "sphere", "cube")
        for N in (2, 256)
        for T in (1000, 10**12)
        for e in _EPS
    ]
    mab = _product(N=(2, 256), T=(1000, 10**12), epsilon=_EPS)
    blo = _product(N=(2, 256), T=(1000, 10**12), epsilon=(1e-3, 1.0))
    blo_shape = {"nu": 1.0, "M": 1.0, "X_l2": 1.0, "Y_l1": 1.0}
    # the axes of the Thm 4.5 regret expressions, before their eta
    thm45_axes = {
        "N": (2, 256),
        "T": (1000, 10**12),
        "nu": (1.0,),
        "M": (1.0,),
        "X_l2": (1.0,),
        "scale": (1.0, 1e3),
    }
    return [
        GoldenFunction(
            p, as_agg.noise_draws_per_release, _grid(_product(T=(*T_axis, 3, 4, 5, 2**40, 0)))
        ),
        GoldenFunction(
            p,
            as_agg.padding_count,
            _grid(
                _product(t=(0, 1, 3, 7, 8), T=(8, 9)),
                _product(t=(0, 10**12 - 1, 10**12), T=(10**12,)),
                {"t": 9, "T": 8},
            ),
        ),
        GoldenFunction(
            p,
            as_agg.nodes_per_leaf,
            _grid(
                _product(T=(*T_axis, 3, 8, 9), view=("actions", "prefix_sums")),
                {"T": 8, "view": "x"},
            ),
        ),
        GoldenFunction(
            p,
            as_agg.log_T,
            _grid(_product(T=T_axis, base=("e", "2")), {"T": 8, "base": "10"}),
            small_values="log(1) = log2(1) = +0.0 exactly (IEEE 754 / C99 Annex F)",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_scale_tree_paper,
            _grid(_product(epsilon=_EPS, T=T_axis, Y_l1_radius=(1.0, 256.0), log_base=("e", "2"))),
        ),
        GoldenFunction(p, as_agg.laplace_scale_tree_strict, tree_eps[:-2]),
        GoldenFunction(
            p,
            as_agg.laplace_scale_tree,
            _grid(
                [
                    {
                        "epsilon": e,
                        "T": T,
                        "Y_l1_radius": 256.0,
                        "Y_l1_diameter": 512.0,
                        "mode": mode,
                    }
                    for e in _EPS
                    for T in T_axis
                    for mode in ("strict", "paper")
                ],
            ),
        ),
        GoldenFunction(
            p,
            as_agg.laplace_tree_node_max_loss,
            _grid(
                [
                    dict({k: v for k, v in c.items() if k != "epsilon"}, scale=s)
                    for c in tree_eps[:-2:4]
                    for s in (1.0, 100.0)
                ],
            ),
            small_values=_ZERO_FACTOR,
        ),
        GoldenFunction(
            p,
            as_agg.prefix_noise_variance,
            _grid(_product(node_variance=(1.0, 2e6), T=T_axis)),
        ),
        GoldenFunction(
            p,
            as_agg.prefix_noise_shared_draws,
            _grid(_product(s=(0, 1, 5, 8), t=(1, 6, 8, 10**12)), {"s": -1, "t": 1}),
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_sf,
            _grid(_product(a=(0.0, 1.0, 10.0, 100.0), K=(1, 2, 10, 40), scale=(1.0,))),
            small_values="a sum of positive terms w_j Q(K - j, a): tiny tails without cancellation",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_ppf,
            _grid(_product(q=(1e-10, 0.1, 0.5), K=(1, 2, 10), scale=(1.0,))),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,
            small_values="0.0 is the branch q = 0.5 (the median of a symmetric law)",
        ),
        GoldenFunction(
            p,
            as_agg.laplace_sum_chernoff_sf,
            _grid(_product(a=(1.0, 10.0, 100.0), K=(1, 2, 10, 40), scale=(1.0,))),
            small_values="exp of the Chernoff exponent: tiny tails without cancellation",
        ),
        GoldenFunction(
            p,
            as_agg.lemma33_uniform_error_bound,
            _grid(
                _product(
                    node_law=("laplace", "gaussian"),
                    scale=(1.0,),
                    T=(1000, 10**12),
                    N=(2, 256),
                    releases=(1000,),
                    beta=(1e-10, 0.1),
                    method=("exact", "chernoff"),
                )
            ),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # the Laplace quantile by Brent's method
        ),
        GoldenFunction(
            p,
            as_thm.thm34_regret_bound_paper,
            # D_R = ln 256 written as a literal: a grid must not depend on the platform's libm
            _grid(_product(D_R=(1.0, _LN_256), G2_sum=(1000.0, 1e12), D_Dprime=(0.0, 10.0))),
        ),
        GoldenFunction(
            p,
            as_thm.thm34_regret_bound_certified,
            _grid(
                _product(D_R=(1.0,), G2_sum=(1000.0, 1e12), eta=(1e-6, 0.1), D_Dprime=(0.0, 10.0))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.thm31_laplace_scale,
            _grid(
                [
                    {
                        "epsilon": e,
                        "T": T,
                        "loss_set": {"kind": k, "dim": N, "r": 1.0},
                        "calibration": c,
                    }
                    for e in _EPS
                    for T in (1000, 10**12)
                    for k in ("linf_ball", "l2_ball", "l1_ball", "box01")
                    for N in (2, 256)
                    for c in ("strict", "paper")
                ]
            ),
            prepare=object_parameter("loss_set", LossSet),
        ),
        GoldenFunction(
            p,
            as_thm.thm31_regret_bound,
            _grid(_product(D_R=(1.0,), G2_sum=(1000.0, 1e12), D_Lap=(0.0, 10.0))),
        ),
        GoldenFunction(
            p,
            as_thm.noise_width_upper_bound,
            _grid(
                _product(
                    instance=("experts", "sphere", "cube"), N=(2, 256), K=(1, 40), scale=(1.0, 1e4)
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.cor32_parameters,
            _grid(
                [dict(c, calibration=cal) for c in instances for cal in ("strict", "paper")],
                {"instance": "x", "N": 2, "T": 1000, "epsilon": 1.0},
            ),
            small_values="eta is small next to the other fields only: " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            cor32_regret_bound_at,
            _grid([dict(c, calibration=cal) for c in instances for cal in ("strict", "paper")]),
        ),
        GoldenFunction(p, as_thm.cor32_rate_paper, _grid(instances)),
        GoldenFunction(
            p,
            as_thm.gaussian_tree_node_delta,
            _grid(
                _product(
                    sigma=(1.0, 100.0),
                    epsilon=(1e-3, 1.0),
                    T=(2, 1000, 10**12),
                    Y_l2_diameter=(2.0,),
                    view=("actions", "prefix_sums"),
                )
            ),
            reason=DIFFERENCE_REASON,
            case_atol=_tree_node_delta_atol,
            small_values="0.0 is the branch h = 0 (no node carries the leaf), or "
            + _BOTH_UNDERFLOW,
        ),
        GoldenFunction(
            p,
            as_thm.gaussian_output_level_sensitivity,
            _grid(
                _product(
                    T=(1, 2, 8, 64, 256),
                    Y_l2_diameter=(2.0,),
                    sigma=(1.0, 100.0),
                    view=("actions", "prefix_sums"),
                )
            ),
            small_values="(0.0, 1) is the branch of a tree with no release carrying data",
        ),
        GoldenFunction(
            p,
            as_thm.thmA1_min_sigma,
            _grid(_product(epsilon=_EPS, delta=_DELTA, T=(1000, 10**12), Y_l2=(1.0,))),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_sigma,
            _grid(_product(epsilon=_EPS, delta=_DELTA, T=(1000, 10**12), N=(2, 256), Y_l2=(1.0,))),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_sigma_strict,
            _grid(
                _product(
                    epsilon=(1e-3, 1.0),
                    delta=_DELTA,
                    T=(1000, 10**12),
                    N=(2, 256),
                    Y_l2_radius=(1.0,),
                    Y_l2_diameter=(2.0,),
                    view=("actions", "prefix_sums"),
                )
            ),
            rtol=SOLVER_RTOL,
            reason=SOLVER_REASON,  # sensitivity / mu*, mu* by Brent's method
        ),
        GoldenFunction(
            p,
            as_thm.thm35_regret_bound_paper,
            _grid(
                _product(sigma=(1.0, 1e4), N=(2, 256), T=(1000, 10**12), X_l2=(1.0,), Y_l2=(1.0,))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.thm35_regret_bound_certified,
            _grid(
                _product(sigma=(1.0, 1e4), N=(2, 256), T=(1000, 10**12), X_l2=(1.0,), Y_l2=(1.0,))
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma42_laplace_scale,
            _grid(
                _product(
                    epsilon=_EPS, B=(1.0, 2.0), Delta_B=(1.0, 2.0), calibration=("strict", "paper")
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma42_effective_epsilon,
            _grid(_product(scale=(1e-3, 1.0, 1e3), Delta_B=(1.0, 2.0))),
        ),
        GoldenFunction(
            p,
            as_thm.lemma43_cross_term,
            _grid(
                {
                    "noise": _arr([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]]),
                    "actions": _arr([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]),
                    "comparator": _arr([0.0, 1.0]),
                }
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma44_regret_bound,
            _grid(
                _product(
                    gamma=(0.01, 0.5),
                    T=(1000, 10**12),
                    N=(2, 256),
                    eta=(1e-4, 0.1),
                    second_moment_sum=(10.0, 1e6),
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.lemma44_condition_holds,
            _grid(
                _product(
                    eta=(1e-4, 0.1), gamma=(0.01, 0.5), N=(2, 256), feedback_bound=(1.0, 100.0)
                )
            ),
        ),
        GoldenFunction(
            p,
            as_thm.factC1_threshold,
            _grid(_product(scale=(1.0, 1e3), N=(2, 256), T=(1000, 10**12))),
        ),
        GoldenFunction(
            p,
            as_thm.factC1_tail_probability,
            _grid(_product(N=(2, 256), T=(1000, 10**12))),
            small_values="-expm1(N log1p(-p)): the tail computed without cancellation",
        ),
        GoldenFunction(
            p,
            as_thm.factC1_bound,
            _grid(_product(T=(1, 1000, 10**12, 0))),
            small_values="1/T**2: " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm41_parameters,
            _grid(
                [
                    dict(c, preset=pr, calibration=cal, loss_range=lr)
                    for c in mab
                    for pr in ("paper", "proof_consistent")
                    for cal in ("strict", "paper")
                    for lr in ("01", "sym")
                    if c["epsilon"] in (1e-3, 1.0)
                    or (pr, cal, lr) == ("proof_consistent", "strict", "01")
                ]
            ),
            small_values="eta = sqrt(log N/(N T ...)): " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm41_regret_bound_proof_consistent,
            _grid(_product(N=(2, 256), T=(1000, 10**12), scale=(1.0, 1e3))),
        ),
        GoldenFunction(
            p,
            as_thm.thm41_regret_expression_paper,
            _grid(
                _product(
                    N=(2, 256), T=(1000, 10**12), eta=(1e-4,), gamma=(0.01, 0.5), scale=(1.0, 1e3)
                )
            ),
        ),
        GoldenFunction(p, as_thm.thm41_rate_paper, _grid(mab)),
        GoldenFunction(
            p,
            as_thm.thm45_parameters,
            _grid(
                [
                    dict(c, **blo_shape, preset=pr, calibration=cal)
                    for c in blo
                    for pr in ("paper", "clipped")
                    for cal in ("strict", "paper")
                ]
            ),
            small_values="eta = sqrt(nu log T/(2 N^2 T ...)): " + _POSITIVE_TERMS,
        ),
        GoldenFunction(
            p,
            as_thm.thm45_regret_bound_certified,
            _grid(_product(**thm45_axes, eta=(1e-10, 1e-7, 0.1))),
        ),
        GoldenFunction(
            p, as_thm.thm45_regret_expression_paper, _grid(_product(**thm45_axes, eta=(1e-4, 0.1)))
        ),
        GoldenFunction(p, as_thm.thm45_rate_paper, _grid([dict(c, **blo_shape) for c in blo])),
    ]
