"""Sajed & Sheffet, "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal Private Stopping
Rule" (ICML 2019).

* :mod:`~reference.sajed_sheffet.constants` -- every constant of Algorithms 1-3 and of DP-UCB.
* :mod:`~reference.sajed_sheffet.stopping` -- NAS, DP-NAS (Algorithm 1), DP exponential NAS
  (Algorithm 2), sample streams, the two-arm test.
* :mod:`~reference.sajed_sheffet.bandits` -- the environment, DP-SE (Algorithm 3) and its limit,
  the Bernoulli fast path, guess-and-double, UCB1, DP-UCB, the run loop.
* :mod:`~reference.sajed_sheffet.bounds` -- every theorem, lemma and corollary as a function.
Replicate-vectorised DP-SE and DP-UCB for Sec. 5: :mod:`reference.engine.mab`.

Proof note: ``proofs_notes/sajed_sheffet/README.md``.
"""

from reference.sajed_sheffet.bandits import (
    DPUCB,
    UCB1,
    BanditEnvironment,
    DPSERun,
    DPSuccessiveElimination,
    EpochRecord,
    GuessAndDoubleDPSE,
    Policy,
    RunResult,
    dpse_eliminate,
    pseudo_regret_trajectories,
    run_policy,
    simulate_dpse_bernoulli,
    successive_elimination,
)
from reference.sajed_sheffet.constants import (
    DPNASNoiseScales,
    EpochParameters,
    dp_exp_nas_c,
    dp_exp_nas_h,
    dp_nas_c,
    dp_nas_h,
    dp_nas_noise_scales,
    dpse_epoch_parameters,
    dpucb_confidence_width,
    dpucb_tree_epsilon,
    nas_h,
)
from reference.sajed_sheffet.stopping import (
    SampleStream,
    StoppingResult,
    StoppingTrace,
    TwoArmTestResult,
    TwoPointDistribution,
    UniformDistribution,
    dp_exp_nas,
    dp_nas,
    nas,
    two_arm_test,
)

__all__ = [
    "DPUCB",
    "UCB1",
    "BanditEnvironment",
    "DPNASNoiseScales",
    "DPSERun",
    "DPSuccessiveElimination",
    "EpochParameters",
    "EpochRecord",
    "GuessAndDoubleDPSE",
    "Policy",
    "RunResult",
    "SampleStream",
    "StoppingResult",
    "StoppingTrace",
    "TwoArmTestResult",
    "TwoPointDistribution",
    "UniformDistribution",
    "dp_exp_nas",
    "dp_exp_nas_c",
    "dp_exp_nas_h",
    "dp_nas",
    "dp_nas_c",
    "dp_nas_h",
    "dp_nas_noise_scales",
    "dpse_eliminate",
    "dpse_epoch_parameters",
    "dpucb_confidence_width",
    "dpucb_tree_epsilon",
    "nas",
    "nas_h",
    "pseudo_regret_trajectories",
    "run_policy",
    "simulate_dpse_bernoulli",
    "successive_elimination",
    "two_arm_test",
]
