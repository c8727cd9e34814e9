"""Shariff & Sheffet (NeurIPS 2018), "Differentially Private Contextual Linear Bandits".

* :mod:`~reference.shariff_sheffet.bounds` -- every constant and bound: ``k``, ``c`` (Eq. 4),
  Prop. 9, ``σ_noise``, ``Υ``, Prop. 11, ``β_t`` (Prop. 4), Theorems 5 and 6, Claim 14, Cor. 15.
* :mod:`~reference.shariff_sheffet.regularizers` -- the sources of ``(V_t, ũ_t)``: non-private
  ridge, and the tree release with Wishart or Gaussian node noise.
* :mod:`~reference.shariff_sheffet.linucb` -- Algorithm 1 as a policy object.
* :mod:`~reference.shariff_sheffet.environments` -- the synthetic environments of App. D.
* :mod:`~reference.shariff_sheffet.simulation` -- running episodes and pseudo-regret.

Proof note: ``proofs_notes/README.md``.
"""

from reference.shariff_sheffet.bounds import (
    RegularizerBounds,
    beta_bar,
    beta_t,
    claim14_min_pulls,
    cor15_regret_lower_bound,
    gaussian_bounds,
    gaussian_node_privacy,
    gaussian_noise_std,
    gaussian_operator_norm_bound,
    nonprivate_bounds,
    regret_bound_thm5,
    regret_bound_thm6,
    wishart_degrees_of_freedom,
    wishart_node_privacy,
    wishart_shift,
    wishart_shifted_bounds,
    wishart_unshifted_bounds,
)
from reference.shariff_sheffet.environments import DecisionRound, LinearGapEnvironment
from reference.shariff_sheffet.linucb import (
    AccuracyEventError,
    AccuracyEventWarning,
    LinUCB,
    RoundDiagnostics,
)
from reference.shariff_sheffet.regularizers import (
    SOURCES,
    VARIANTS,
    ExactStatistics,
    PrivacyParameters,
    ProblemConstants,
    Regularizer,
    TreeStatistics,
    Variant,
    make_regularizer,
)
from reference.shariff_sheffet.simulation import (
    EpisodeResult,
    make_policy,
    run_episode,
    run_gap_experiment,
)

__all__ = [
    "SOURCES",
    "VARIANTS",
    "AccuracyEventError",
    "AccuracyEventWarning",
    "DecisionRound",
    "EpisodeResult",
    "ExactStatistics",
    "LinUCB",
    "LinearGapEnvironment",
    "PrivacyParameters",
    "ProblemConstants",
    "Regularizer",
    "RegularizerBounds",
    "RoundDiagnostics",
    "TreeStatistics",
    "Variant",
    "beta_bar",
    "beta_t",
    "claim14_min_pulls",
    "cor15_regret_lower_bound",
    "gaussian_bounds",
    "gaussian_node_privacy",
    "gaussian_noise_std",
    "gaussian_operator_norm_bound",
    "make_policy",
    "make_regularizer",
    "nonprivate_bounds",
    "regret_bound_thm5",
    "regret_bound_thm6",
    "run_episode",
    "run_gap_experiment",
    "wishart_degrees_of_freedom",
    "wishart_node_privacy",
    "wishart_shift",
    "wishart_shifted_bounds",
    "wishart_unshifted_bounds",
]
