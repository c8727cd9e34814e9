"""Agarwal & Singh (ICML 2017), "The Price of Differential Privacy for Online Learning".

* :mod:`~reference.agarwal_singh.aggregation` -- Algorithm 2 (padded tree aggregation), Lemma 3.3.
* :mod:`~reference.agarwal_singh.sets` -- decision sets, loss sets, Cor. 3.2 regularisers.
* :mod:`~reference.agarwal_singh.full_info` -- Algorithm 1 (private FTRL), Algorithm 3 (FTPL).
* :mod:`~reference.agarwal_singh.bandits` -- Algorithm 4 (reduction), Algorithm 5 (EXP2).
* :mod:`~reference.agarwal_singh.scrible` -- SCRiBLe (inner learner of Thm 4.5), ball and cube.
* :mod:`~reference.agarwal_singh.theorems` -- Theorems 3.1, 3.4, 3.5, A.1, 4.1, 4.5, Cor. 3.2,
  Lemmas 4.2-4.4, Fact C.1: parameters (strict by default, paper on request) and bounds.
* :mod:`~reference.agarwal_singh.environments` -- oblivious loss sequences, neighbours, regret.

Proof note: ``proofs_notes/agarwal_singh/README.md``.
"""

from reference.agarwal_singh.aggregation import (
    PaddedRelease,
    TreeBasedAggregation,
    laplace_scale_tree,
    laplace_scale_tree_paper,
    laplace_scale_tree_strict,
    laplace_sum_chernoff_sf,
    laplace_sum_ppf,
    laplace_sum_sf,
    laplace_tree_node_max_loss,
    lemma33_uniform_error_bound,
    nodes_per_leaf,
    noise_draws_per_release,
    padding_count,
    prefix_noise_shared_draws,
    prefix_noise_variance,
)
from reference.agarwal_singh.bandits import (
    BanditRun,
    EXP2Exploration,
    PrivateBanditReduction,
    run_bandit,
)
from reference.agarwal_singh.environments import (
    pseudo_regret_mab,
    regret_full_info,
)
from reference.agarwal_singh.full_info import (
    FullInfoRun,
    OneShotFTRL,
    PrivateFTPL,
    PrivateFTRL,
    run_full_info,
)
from reference.agarwal_singh.scrible import BallBarrier, CubeBarrier, PolytopeBarrier, SCRiBLe
from reference.agarwal_singh.sets import (
    Cube,
    L2Ball,
    LossSet,
    NegativeEntropySimplex,
    Simplex,
    SquaredNormBall,
    SquaredNormCube,
    default_learning_rate,
)
from reference.agarwal_singh.theorems import (
    cor32_parameters,
    cor32_regret_bound,
    thm31_laplace_scale,
    thm34_regret_bound_certified,
    thm35_sigma,
    thm35_sigma_strict,
    thm41_parameters,
    thm41_regret_bound_proof_consistent,
    thm45_parameters,
)

__all__ = [
    "BallBarrier",
    "BanditRun",
    "Cube",
    "CubeBarrier",
    "EXP2Exploration",
    "FullInfoRun",
    "L2Ball",
    "LossSet",
    "NegativeEntropySimplex",
    "OneShotFTRL",
    "PaddedRelease",
    "PolytopeBarrier",
    "PrivateBanditReduction",
    "PrivateFTPL",
    "PrivateFTRL",
    "SCRiBLe",
    "Simplex",
    "SquaredNormBall",
    "SquaredNormCube",
    "TreeBasedAggregation",
    "cor32_parameters",
    "cor32_regret_bound",
    "default_learning_rate",
    "laplace_scale_tree",
    "laplace_scale_tree_paper",
    "laplace_scale_tree_strict",
    "laplace_sum_chernoff_sf",
    "laplace_sum_ppf",
    "laplace_sum_sf",
    "laplace_tree_node_max_loss",
    "lemma33_uniform_error_bound",
    "nodes_per_leaf",
    "noise_draws_per_release",
    "padding_count",
    "prefix_noise_shared_draws",
    "prefix_noise_variance",
    "pseudo_regret_mab",
    "regret_full_info",
    "run_bandit",
    "run_full_info",
    "thm31_laplace_scale",
    "thm34_regret_bound_certified",
    "thm35_sigma",
    "thm35_sigma_strict",
    "thm41_parameters",
    "thm41_regret_bound_proof_consistent",
    "thm45_parameters",
]
