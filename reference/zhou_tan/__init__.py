"""Zhou & Tan (AAAI 2021), "Local Differential Privacy for Bayesian Optimization".

Proof notes: ``proofs_notes/zhou_tan/``; citations use the paper's own numbering.

* :mod:`~reference.zhou_tan.kernels` -- SE and Matérn kernels, ``γ_t`` rates and certified bounds.
* :mod:`~reference.zhou_tan.mechanism` -- CTL(ϵ) (Curator 1), Lemma 1, the §4.5 unbounded-noise claim.
* :mod:`~reference.zhou_tan.gp` -- exact GP posterior (Eqs. 3-4), finite feature map.
* :mod:`~reference.zhou_tan.nystrom` -- NyströmEmbedding (Alg. 4), approximate posterior, Def. 2.
* :mod:`~reference.zhou_tan.robust` -- truncation, feature-adaptive truncation, median of means.
* :mod:`~reference.zhou_tan.schedules` -- every ``β``, ``b``, ``q``, ``k`` (theory and presets).
* :mod:`~reference.zhou_tan.algorithms` -- GP-UCB, (LDP-)TGP-UCB, (LDP-)ATA-GP-UCB, (LDP-)MoMA-GP-UCB.
* :mod:`~reference.zhou_tan.environment` -- finite-arm environments, curator, trial loop.
* :mod:`~reference.zhou_tan.bounds` -- Theorem 1-4, Cor. 1 and the appendix lemmas as functions.
* :mod:`~reference.zhou_tan.datasets` -- Sec. 5.1 real-data problems and their seeded offline
  stand-ins (light sensor, stock prices); nothing is downloaded.
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
    make_tgp_ucb_nonprivate,
)
from reference.zhou_tan.environment import (
    Curator,
    FiniteArmEnvironment,
    StudentTNoise,
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
    "UniformNoise",
    "certified_gamma_upper",
    "ctl_privatize",
    "make_ata_gp_ucb",
    "make_gp_ucb",
    "make_ldp_ata_gp_ucb",
    "make_ldp_moma_gp_ucb",
    "make_ldp_tgp_ucb",
    "make_moma_gp_ucb",
    "make_tgp_ucb_nonprivate",
    "matern_kernel",
    "run_trial",
    "sample_rkhs_function",
    "se_kernel",
    "unit_grid",
]
