"""Zhou & Tan (AAAI 2021), "Local Differential Privacy for Bayesian Optimization".

:mod:`~reference.zhou_tan.kernels` (kernels, ``γ_t``), :mod:`~reference.zhou_tan.mechanism`
(CTL(ϵ), Curator 1, Lemma 1), :mod:`~reference.zhou_tan.gp` (GP posterior, Eqs. 3-4),
:mod:`~reference.zhou_tan.nystrom` (Alg. 4, Def. 2), :mod:`~reference.zhou_tan.robust`
(truncation, median of means), :mod:`~reference.zhou_tan.schedules` (every ``β``, ``b``, ``q``,
``k``), :mod:`~reference.zhou_tan.algorithms` (GP-UCB and Algs. 1-3),
:mod:`~reference.zhou_tan.environment` (environments, curator, trial loop),
:mod:`~reference.zhou_tan.bounds` (Theorems 1-4, Cor. 1, lemmas), :mod:`~reference.zhou_tan.datasets`
(Sec. 5.1 problems and seeded offline stand-ins).  Citations use the paper's own numbering.

Proof note: ``proofs_notes/zhou_tan/README.md``.
"""

from reference.zhou_tan.algorithms import (
    ATAGPUCB,
    GPUCB,
    TGPUCB,
    MoMAGPUCB,
    make_ata_gp_ucb,
    make_gp_ucb,
    make_ldp_ata_gp_ucb,
    make_ldp_moma_gp_ucb,
    make_ldp_tgp_ucb,
    make_moma_gp_ucb,
    make_subweibull_tgp_ucb,
    make_tgp_ucb_nonprivate,
)
from reference.zhou_tan.environment import (
    Curator,
    FiniteArmEnvironment,
    StudentTNoise,
    SubWeibullGaussianNoise,
    UniformNoise,
    run_trial,
    sample_rkhs_function,
)
from reference.zhou_tan.kernels import (
    certified_gamma_upper,
    matern_kernel,
    se_kernel,
    unit_grid,
)
from reference.zhou_tan.mechanism import ConvertToLaplace, LDPParams, ctl_privatize

__all__ = [
    "ATAGPUCB",
    "GPUCB",
    "TGPUCB",
    "ConvertToLaplace",
    "Curator",
    "FiniteArmEnvironment",
    "LDPParams",
    "MoMAGPUCB",
    "StudentTNoise",
    "SubWeibullGaussianNoise",
    "UniformNoise",
    "certified_gamma_upper",
    "ctl_privatize",
    "make_ata_gp_ucb",
    "make_gp_ucb",
    "make_ldp_ata_gp_ucb",
    "make_ldp_moma_gp_ucb",
    "make_ldp_tgp_ucb",
    "make_moma_gp_ucb",
    "make_subweibull_tgp_ucb",
    "make_tgp_ucb_nonprivate",
    "matern_kernel",
    "run_trial",
    "sample_rkhs_function",
    "se_kernel",
    "unit_grid",
]
