"""The public API refuses bad input clearly: the hostile-input sweep of ``tests/hostile.py``.

Every public name of ``reference`` and of the audit modules of :data:`hostile.AUDIT_MODULES` is
called from a known-good baseline with one argument replaced by a hostile value (NaN, ±inf,
``None``, a string, ``-1``, ``0``, ``True``, an empty array, a wrong shape, a fractional integer,
a bad generator or seed...).  Every call must end in a ``ValueError`` (or ``TypeError``) whose
message names the argument, unless the value is one the function documents as valid -- the
allow-lists below, each with its reason.  No other exception may escape, no result may contain
NaN, and no warning may be raised.  A public name with neither a baseline nor a reason in
:data:`hostile.NOT_CALLED` fails the coverage test.

The summary table (cases by family, category and outcome) is printed by ``python tests/hostile.py``
and written to the pytest report by :func:`test_summary_counts_every_case` (``-s`` or ``-rA``).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hostile

# ------------------------------------------------------------------------------------------------
# Registry family (the golden registry's bounds and constants): keyed by function name
# ------------------------------------------------------------------------------------------------

_ZERO_RANGE = "the argument's documented range is [0, inf) (or starts at 0)"
_M0 = "epoch or round index m counts from 0 in the schedule"
_MU = "the sample complexities and Theorem 3.3 take any mean mu != 0 (they use |mu|)"
_NONPRIVATE = "epsilon = inf is the documented non-private limit of DP-SE (Sec. 4)"
_EPS0 = "delta(0) of a privacy curve is defined (the curve at epsilon = 0)"

ACCEPTED: dict[tuple[str, str], tuple[set[str], str]] = {
    ("ata_beta_next", "m"): ({"zero"}, _M0),
    ("ata_trunc_level", "m"): ({"zero"}, _M0),
    ("moma_beta_next", "m"): ({"zero"}, _M0),
    ("moma_radius", "m"): ({"zero"}, _M0),
    ("ref7_ata_schedule", "m"): ({"zero"}, _M0),
    ("beta_bar", "t"): ({"zero"}, "beta_bar is defined from t = 0 (no data yet)"),
    ("beta_t", "log_det_V"): (
        {"zero", "negative"},
        "ln det V < 0 when the regularizer's eigenvalues are below 1",
    ),
    ("beta_t_batch", "log_det_V"): (
        {"zero", "negative", "empty array"},
        "ln det V may be <= 0; an empty batch of replicates gives an empty result",
    ),
    ("cor36_sample_complexity_lower_bound", "mu"): ({"negative"}, _MU),
    ("dagum_sample_complexity_lower_bound", "mu"): ({"negative"}, _MU),
    ("domingo_nas_sample_complexity_order", "mu"): ({"negative"}, _MU),
    ("good_event_halting_time", "mu"): ({"negative"}, _MU),
    ("mnih_nas_sample_complexity_order", "mu"): ({"negative"}, _MU),
    ("section31_assumption_holds", "mu"): ({"negative"}, _MU),
    ("thm33_halting_bound", "mu"): ({"negative"}, _MU),
    ("thm33_terms", "mu"): ({"negative"}, _MU),
    ("thm34_sample_size", "mu"): ({"negative"}, _MU),
    ("dpse_elimination_threshold", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("dpse_epoch_parameters", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("dpse_rounds", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("lemma42_proof_pull_bound", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("lemma42_pull_bound", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("thm43_regret_bound", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("thm43_regret_bound_paper_form", "epsilon"): ({"inf"}, _NONPRIVATE),
    ("gaussian_delta", "epsilon"): ({"zero"}, _EPS0),
    ("gaussian_tree_node_delta", "epsilon"): ({"zero"}, _EPS0),
    ("gamma_rate", "nu"): ({"None"}, "nu is only needed (and then required) for Matern"),
    ("regret_upper_bound_with_rate", "nu"): ({"None"}, "nu is only needed for Matern"),
    ("laplace_sum_sf", "a"): ({"zero", "negative"}, "P(S > a) is defined for every real a"),
    ("laplace_sum_chernoff_sf", "a"): ({"zero", "negative"}, "the bound holds for every a"),
    ("lower_bound_reward_law", "f_value"): ({"zero", "negative"}, "f takes any real value"),
    ("dyadic_decomposition", "s"): ({"zero"}, "the empty prefix s = 0 has no node"),
    ("padding_count", "t"): ({"zero"}, "defined for 0 <= t <= T"),
    ("prefix_noise_shared_draws", "s"): ({"zero"}, "the empty prefix shares no draw"),
    ("prefix_noise_shared_draws", "t"): ({"zero"}, "the empty prefix shares no draw"),
    ("tree_release_noise_variance", "count"): ({"zero"}, "a prefix of zero rewards has no noise"),
    ("lemma11_exact_tail", "p"): ({"zero"}, "a Bernoulli(0) count never exceeds the level"),
    ("lemma11_union_failure", "n_epochs"): ({"zero"}, "no epoch, no failure"),
    ("lemma35_group_privacy_factor", "n"): ({"zero"}, _ZERO_RANGE),
    ("lemma35_group_privacy_factor", "tv_distance"): ({"zero"}, _ZERO_RANGE),
    ("duchi_symmetric_kl_bound", "tv"): ({"zero"}, "tv in [0, 1]"),
    ("nonprivate_two_point_kl", "p"): ({"zero"}, "p in [0, 1)"),
}
for _name, _param in [
    *((f, p) for f in ("beta_bar", "beta_t", "beta_t_batch") for p in ("S", "sigma")),
    *((f, p) for f in ("regret_bound_thm5", "regret_bound_thm6") for p in ("S", "sigma")),
    *((f, "R") for f in ("cor1_regret_expr", "igp_ucb_beta", "laplace_scale", "tgp_trunc_level")),
    *((f, "R") for f in ("ldp_noise_second_moment", "ldp_reward_second_moment", "ldp_tgp_beta")),
    *((f, "R") for f in ("regret_upper_bound_with_rate", "thm2_regret_expr", "thm3_regret_expr")),
    ("thm3_confidence_terms", "R"),
    ("thm3_confidence_terms", "gamma_t"),
    ("igp_ucb_beta", "gamma_prev"),
    ("ldp_tgp_beta", "gamma_prev"),
    ("tgp_nonprivate_beta", "gamma_prev"),
    ("subweibull_tgp_beta", "gamma_prev"),
    *((f, "signal_bound") for f in ("subweibull_trunc_level", "subweibull_tgp_beta")),
    *((f, "gamma_T") for f in ("lemma7_sum_sigma_bound", "lemma7_sum_sigma_sq_bound")),
    ("regret_certificate", "gamma_T"),
    ("lemma8_dictionary_size_bound", "gamma_n"),
    ("dagum_sample_complexity_lower_bound", "variance"),
    ("laplace_tail", "tau"),
    ("lemma44_regret_bound", "second_moment_sum"),
    ("lemma4_kl_bound", "v_mj"),
    ("nonprivate_two_point_kl_bound", "f_abs"),
    *((f, p) for f in ("thm34_regret_bound_certified", "thm34_regret_bound_paper")
      for p in ("D_Dprime", "G2_sum")),
    ("thm31_regret_bound", "D_Lap"),
    ("thm31_regret_bound", "G2_sum"),
]:  # fmt: skip
    ACCEPTED[(_name, _param)] = ({"zero"}, _ZERO_RANGE)

# ------------------------------------------------------------------------------------------------
# Api family: keyed by "module:name", each with the outcome it is allowed and why
# ------------------------------------------------------------------------------------------------

_DEFAULT = "None is the documented default (see the docstring)"
_ZERO = "0 is in the documented range"
_REAL = "any real number is valid (a mean, a threshold, a shift, a reward, a loss...)"
_ELEMENTWISE = (
    "elementwise on an array of any shape: an empty array gives an empty result, another shape "
    "the same shape"
)
_BATCH = "batched over leading axes: an empty batch (no round, no replicate) gives an empty result"
_NO_HISTORY = "t = 0 (no history yet) or m = 0 (empty dictionary) is documented: the prior"
_INF_RATIO = "a ratio or privacy loss is +inf where the premise fails (documented)"
_NEG_INF_LOG = "a log-probability is -inf for an impossible outcome (documented)"
_GAP0 = "gap = 0 is documented (App. D.2 runs gap 0)"
_FEEDBACK = (
    "bandit feedback is any real: a loss <l, x> in [-1, 1], plus privacy noise when forwarded"
)
_TOL = "tol >= 0 (0: the exact set)"
_P_INF = "p in {1, 2, inf}: the l_inf norm"
_ARM0 = "arm 0 is an arm (0-based indices)"
_NONE_DRAWN = "a count >= 0: zero draws give an empty array (the empty batch)"

ALLOWED_API: list[tuple[str, str, set[str], str]] = [
    ("audit.tools.golden.third_party:golden_compare", "rename", {"None"}, _DEFAULT + ": no renaming"),
    ("audit.testing:assert_golden", "rename", {"None"}, _DEFAULT + ": no renaming"),
    ("reference.shariff_sheffet.factorized:factorized_bounds", "blt", {"None"}, _DEFAULT + ": optimal_blt"),
    ("reference.shariff_sheffet.factorized:factorized_noise_std", "blt", {"None"}, _DEFAULT + ": optimal_blt"),
    ("reference.shariff_sheffet.regularizers:make_factorized_regularizer", "blt", {"None"}, _DEFAULT + ": optimal_blt"),
    ("reference.accounting.chi2:chi2_location_loss_cdf", "losses", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.accounting.chi2:chi2_location_loss_cdf", "shift", {"zero"}, "shift s >= 0 for 'add' (s = 0: zero loss)"),
    ("reference.accounting.chi2:chi2_location_loss_cdf", "coefficient", {"None"}, _DEFAULT + ": df/2 - 1"),
    ("reference.accounting.chi2:chi2_location_pld", "shift", {"zero"}, "shift s >= 0 for 'add'"),
    ("reference.accounting.laplace:laplace_delta", "epsilon", {"zero"}, _EPS0),
    ("reference.accounting.laplace:laplace_epsilon", "delta", {"zero"}, "delta = 0 gives eps0 (documented)"),
    ("reference.accounting.laplace:laplace_composition_epsilon", "delta", {"zero"}, "delta = 0: the pure composition"),
    ("reference.accounting.laplace:laplace_tree_delta", "epsilon", {"zero"}, _EPS0),
    ("reference.accounting.wishart:wishart_tree_delta", "epsilon", {"zero"}, _EPS0),
    ("reference.accounting.wishart:wishart_tree_delta_lower", "epsilon", {"zero"}, _EPS0),
    ("reference.accounting.laplace:laplace_tree_epsilon", "delta", {"zero"}, "delta = 0 gives the pure composition nodes*eps0 (documented)"),
    ("reference.accounting.laplace:laplace_tree_epsilon_0_for", "delta", {"zero"}, "delta = 0: eps/nodes (documented)"),
    ("reference.agarwal_singh.aggregation:laplace_scale_tree_tight", "delta", {"zero"}, "delta = 0 is the strict pure-eps scale (documented)"),
    ("reference.agarwal_singh.bandits:EXP2Exploration", "mu", {"None"}, _DEFAULT + ": uniform exploration"),
    ("reference.agarwal_singh.environments:cube_signed_basis", "bias", {"zero"}, "bias in [0, 1/2]"),
    ("reference.agarwal_singh.environments:mab_constant_gap", "best", {"negative", "zero"}, "losses in [-1, 1]"),
    ("reference.agarwal_singh.environments:mab_constant_gap", "other", {"negative", "zero"}, "losses in [-1, 1]"),
    ("reference.agarwal_singh.environments:mab_switching", "gap", {"zero"}, "gap in [0, 1/2]"),
    ("reference.agarwal_singh.environments:mab_switching", "switches", {"empty array"}, "no switch: one segment (documented)"),
    ("reference.agarwal_singh.environments:sphere_drift", "drift", {"zero"}, "drift in [0, 1]"),
    ("reference.agarwal_singh.full_info:PrivateFTPL", "loss_set", {"None"}, _DEFAULT + ": no declared loss set"),
    ("reference.agarwal_singh.full_info:PrivateFTRL", "loss_set", {"None"}, _DEFAULT + ": no declared loss set"),
    ("reference.engine.compiled.ftrl:run_ftrl_compiled", "epsilon", {"inf"}, "epsilon = inf is the documented non-private run (ZeroNoise)"),
    ("reference.engine.compiled.ftrl:run_ftrl_compiled", "checkpoints", {"None"}, _DEFAULT + ": (T,)"),
    ("reference.engine.compiled.ftrl:run_ftrl_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.ftrl:run_exp2_compiled", "epsilon", {"inf"}, "epsilon = inf is the documented non-private run (EXP2 at lambda = 0)"),
    ("reference.engine.compiled.ftrl:run_exp2_compiled", "checkpoints", {"None"}, _DEFAULT + ": (T,)"),
    ("reference.engine.compiled.ftrl:run_exp2_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.ftrl:run_ftrl_losses_compiled", "lam", {"None"}, "lam = None is the documented non-private run (ZeroNoise)"),
    ("reference.engine.compiled.ftrl:run_ftrl_losses_compiled", "loss_set", {"None"}, _DEFAULT + ": no declared loss set"),
    ("reference.engine.compiled.ftrl:run_ftrl_losses_compiled", "checkpoints", {"None"}, _DEFAULT + ": (T,)"),
    ("reference.engine.compiled.ftrl:run_ftrl_losses_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.scrible:run_scrible_compiled", "lam", {"None"}, "lam = None is the documented non-private run (SCRiBLe alone)"),
    ("reference.engine.compiled.scrible:run_scrible_compiled", "checkpoints", {"None"}, _DEFAULT + ": (T,)"),
    ("reference.engine.compiled.scrible:run_scrible_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.linucb:run_gap_batch", "gap", {"zero"}, _GAP0),
    ("reference.engine.linucb:run_gap_batch", "alpha", {"None"}, _DEFAULT + ": alpha = 1/n"),
    ("reference.engine.linucb:run_gap_batch", "constants", {"None"}, _DEFAULT + ": L = S = B = sigma = 1"),
    ("reference.engine.linucb:run_gap_batch", "checkpoints", {"None"}, _DEFAULT),
    ("reference.engine.linucb:run_gap_batch", "block_rounds", {"None"}, _DEFAULT),
    ("reference.engine.linucb:gap_setup", "alpha", {"None"}, _DEFAULT + ": alpha = 1/n"),
    ("reference.engine.linucb:gap_setup", "constants", {"None"}, _DEFAULT + ": L = S = B = sigma = 1"),
    ("reference.engine.linucb:gap_setup", "checkpoints", {"None"}, _DEFAULT),
    ("reference.engine.linucb:gap_setup", "target_rho_min", {"None"}, _DEFAULT + ": the variant's own shift"),
    ("reference.engine.compiled.linucb:run_gap_compiled", "gap", {"zero"}, _GAP0),
    ("reference.engine.compiled.linucb:run_gap_compiled", "alpha", {"None"}, _DEFAULT + ": alpha = 1/n"),
    ("reference.engine.compiled.linucb:run_gap_compiled", "constants", {"None"}, _DEFAULT + ": L = S = B = sigma = 1"),
    ("reference.engine.compiled.linucb:run_gap_compiled", "checkpoints", {"None"}, _DEFAULT),
    ("reference.engine.compiled.linucb:run_gap_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.linucb:environment_seconds", "gap", {"zero"}, _GAP0),
    ("reference.engine.tree:draw_noise_sums", "terms", {"empty array"}, _BATCH),
    ("reference.sajed_sheffet.bandits:DPUCB", "beta_u", {"None"}, _DEFAULT + ": 1/T"),
    ("reference.sajed_sheffet.bandits:DPSuccessiveElimination", "epsilon", {"inf"}, _NONPRIVATE),
    ("reference.sajed_sheffet.bandits:GuessAndDoubleDPSE", "epsilon", {"inf"}, _NONPRIVATE),
    ("reference.sajed_sheffet.bandits:simulate_dpse_bernoulli", "epsilon", {"inf"}, _NONPRIVATE),
    ("reference.sajed_sheffet.bandits:dpse_eliminate", "threshold", {"zero"}, "threshold in [0, inf)"),
    ("reference.sajed_sheffet.constants:check_epsilon_or_inf", "value", {"inf"}, _NONPRIVATE),
    ("reference.engine.mab:dpse_bernoulli_batch", "epsilon", {"inf"}, _NONPRIVATE),
    ("reference.engine.mab:dpse_bernoulli_batch", "checkpoints", {"None"}, _DEFAULT + ": T only"),
    ("reference.engine.mab:dpucb_bernoulli_batch", "beta_u", {"None"}, _DEFAULT + ": 1/T"),
    ("reference.engine.mab:dpucb_bernoulli_batch", "checkpoints", {"None"}, _DEFAULT + ": T only"),
    ("reference.engine.mab:dpucb_bernoulli_batch", "rounds", {"None"}, _DEFAULT + ": T"),
    ("reference.engine.compiled.mab:dpse_bernoulli_compiled", "epsilon", {"inf"}, _NONPRIVATE),
    ("reference.engine.compiled.mab:dpse_bernoulli_compiled", "checkpoints", {"None"}, _DEFAULT + ": T only"),
    ("reference.engine.compiled.mab:dpse_bernoulli_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.mab:dpucb_bernoulli_compiled", "beta_u", {"None"}, _DEFAULT + ": 1/T"),
    ("reference.engine.compiled.mab:dpucb_bernoulli_compiled", "checkpoints", {"None"}, _DEFAULT + ": T only"),
    ("reference.engine.compiled.mab:dpucb_bernoulli_compiled", "rounds", {"None"}, _DEFAULT + ": T"),
    ("reference.engine.compiled.mab:dpucb_bernoulli_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.mab:dpucb_table_compiled", "beta_u", {"None"}, _DEFAULT + ": 1/T"),
    ("reference.shariff_sheffet.bounds:cor10_regret_order", "gap", {"None"}, "gap=None: the general (gap-free) order"),
    ("reference.shariff_sheffet.bounds:cor12_regret_order", "gap", {"None"}, "gap=None: the general (gap-free) order"),
    ("reference.shariff_sheffet.bounds:cor10_regret_order", "sigma", {"zero"}, "sigma = 0: noiseless rewards"),
    ("reference.shariff_sheffet.bounds:cor12_regret_order", "sigma", {"zero"}, "sigma = 0: noiseless rewards"),
    ("reference.shariff_sheffet.bounds:cor10_regret_order", "S", {"zero"}, "S = 0: theta* = 0"),
    ("reference.shariff_sheffet.bounds:cor12_regret_order", "S", {"zero"}, "S = 0: theta* = 0"),
    ("reference.zhou_tan.bounds:lemma91_error_bound", "eps_nys", {"zero"}, "eps = 0: an exact dictionary"),
    ("reference.zhou_tan.bounds:lemma91_error_bound", "estimation_error", {"zero"}, "0: theta is the ridge estimate on f"),
    ("reference.shariff_sheffet.bounds:claim13_daily_regret_bound", "p", {"zero"}, "p = 0: a¹ never played under c¹"),
    ("reference.shariff_sheffet.bounds:lemma21_regret_bound", "potential", {"zero"}, "a zero potential (no exploration width left) bounds the regret by 0"),
    ("reference.engine.compiled.tree:tree_noise_compiled", "counts", {"None"}, _DEFAULT + ": every count 0..n-1"),
    ("reference.engine.compiled.tree:tree_noise_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.engine.compiled.stopping:dp_nas_two_point_compiled", "mu", {"negative", "zero"}, "mu in [-R, R]"),
    ("reference.engine.compiled.stopping:dp_nas_two_point_compiled", "workers", {"None"}, _DEFAULT + ": the cores this process may use"),
    ("reference.sajed_sheffet.stopping:TwoPointDistribution", "mu", {"negative", "zero"}, "mu in [-R, R]"),
    ("reference.sajed_sheffet.stopping:UniformDistribution", "low", {"negative", "zero"}, _REAL),
    ("reference.sajed_sheffet.stopping:UniformDistribution", "high", {"zero"}, _REAL),
    ("reference.sajed_sheffet.stopping:svt_query_value", "prefix_sum", {"negative", "zero"}, _REAL),
    ("reference.sajed_sheffet.stopping:svt_query_value", "c", {"zero"}, "c = 0 is the non-private NAS"),
    ("reference.shariff_sheffet.bounds:RegularizerBounds", "gamma", {"zero"}, "gamma = 0 for the non-private ridge"),
    ("reference.shariff_sheffet.bounds:RegularizerBounds", "shift", {"negative", "zero"}, "the shift is -c (shifted Wishart), 0 (unshifted)..."),
    ("reference.shariff_sheffet.environments:BandArmSampler", "low", {"negative", "zero"}, "band in [-1, 1]"),
    ("reference.shariff_sheffet.environments:LinearGapEnvironment", "gap", {"zero"}, _GAP0),
    ("reference.shariff_sheffet.environments:assemble_gap_arms", "optimal_mean", {"negative", "zero"}, "optimal_mean in [-1, 1]"),
    ("reference.shariff_sheffet.environments:gaussian_reward_table", "sigma", {"zero"}, "sigma in [0, inf)"),
    ("reference.shariff_sheffet.environments:optimal_positions", "uniforms", {"empty array", "wrong shape"}, _BATCH),
    ("reference.shariff_sheffet.environments:sample_band_heads", "size", {"zero"}, "size >= 0 (no head drawn)"),
    ("reference.shariff_sheffet.environments:sample_band_heads", "low", {"negative", "zero"}, "band in [-1, 1]"),
    ("reference.shariff_sheffet.environments:sample_gap_arms", "gap", {"zero"}, _GAP0),
    ("reference.shariff_sheffet.environments:sample_gap_arms", "optimal_mean", {"zero"}, "optimal_mean in (-1, 1]"),
    ("reference.shariff_sheffet.environments:sample_gap_arms", "lowest_mean", {"negative", "zero"}, "lowest_mean in [-1, optimal_mean)"),
    ("reference.shariff_sheffet.environments:unit_rows", "g", {"empty array"}, _BATCH + " (draw_block(0))"),
    ("reference.shariff_sheffet.linucb:ucb_argmax", "ucb", {"wrong shape"}, "batched over leading axes (the engine's replicates)"),
    ("reference.shariff_sheffet.regularizers:make_regularizer", "target_rho_min", {"None"}, _DEFAULT),
    ("reference.shariff_sheffet.regularizers:rows_within_norm", "rows", {"empty array", "wrong shape"}, _BATCH),
    ("reference.shariff_sheffet.regularizers:tree_rewards", "y", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.shariff_sheffet.simulation:run_gap_experiment", "gap", {"zero"}, _GAP0),
    ("reference.shariff_sheffet.simulation:run_gap_experiment", "alpha", {"None"}, _DEFAULT + ": alpha = 1/n"),
    ("reference.shariff_sheffet.simulation:run_gap_experiment", "constants", {"None"}, _DEFAULT),
    ("reference.validation:check_finite", "value", {"negative", "zero"}, _REAL),
    ("reference.validation:check_nonnegative", "value", {"zero"}, _ZERO),
    ("reference.validation:check_nonempty", "value", {"inf", "-inf", "wrong shape"}, "checks emptiness only (finiteness and shape are check_array's)"),
    ("reference.validation:check_row_norms", "rows", {"empty array", "wrong shape"}, "rows along the last axis, any number of them"),
    ("reference.zhou_tan.algorithms:make_gp_ucb", "R", {"zero"}, "R >= 0 (noise-free rewards)"),
    ("reference.zhou_tan.algorithms:ucb_argmax", "beta", {"zero"}, "beta >= 0 (beta = 0: greedy)"),
    ("reference.zhou_tan.algorithms:make_subweibull_tgp_ucb", "signal_bound", {"zero"}, "signal_bound >= 0 (f = 0)"),
    ("reference.zhou_tan.bounds:bump_fourier_h", "x", {"empty array"}, _ELEMENTWISE),
    ("reference.zhou_tan.bounds:bump_fourier_h_radial", "r", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.zhou_tan.bounds:lower_bound_bump_g", "x", {"empty array"}, _ELEMENTWISE),
    ("reference.zhou_tan.datasets:DataProblem", "R", {"zero"}, _ZERO),
    ("reference.zhou_tan.datasets:DataProblem", "v", {"zero"}, _ZERO),
    ("reference.zhou_tan.datasets:DataProblem", "c", {"zero"}, _ZERO),
    ("reference.zhou_tan.environment:Curator", "mechanism", {"None"}, "None: the identity curator (documented)"),
    ("reference.zhou_tan.gp:lemma5_posterior_variance", "arms", {"empty array"}, _NO_HISTORY),
    ("reference.zhou_tan.mechanism:LDPParams", "R", {"zero"}, "R >= 0"),
    ("reference.zhou_tan.mechanism:clip_reward", "y", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.zhou_tan.mechanism:clip_reward", "R", {"zero"}, "R >= 0"),
    ("reference.zhou_tan.mechanism:ctl_privatize", "y", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.zhou_tan.mechanism:laplace_privacy_loss", "z", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.zhou_tan.mechanism:laplace_privacy_loss", "y", {"negative", "zero"}, _REAL),
    ("reference.zhou_tan.mechanism:laplace_privacy_loss", "y_prime", {"negative", "zero"}, _REAL),
    ("reference.zhou_tan.mechanism:laplace_tail_probability", "threshold", {"zero"}, _ZERO),
    ("reference.zhou_tan.mechanism:max_privacy_loss", "y", {"negative", "zero"}, _REAL),
    ("reference.zhou_tan.mechanism:max_privacy_loss", "y_prime", {"negative", "zero"}, _REAL),
    ("reference.zhou_tan.nystrom:approx_posterior", "features", {"empty array"}, _NO_HISTORY),
    ("reference.zhou_tan.nystrom:approx_posterior", "hist_arms", {"empty array"}, _NO_HISTORY),
    ("reference.zhou_tan.nystrom:psd_pinv_sqrt", "rtol", {"zero"}, "rtol >= 0 (0 keeps every positive eigenvalue)"),
    ("reference.zhou_tan.robust:ata_rows", "Phi_hist", {"empty array"}, _NO_HISTORY),
    ("reference.zhou_tan.robust:feature_adaptive_truncated_theta", "b", {"inf", "zero"}, "b in [0, inf]; inf = ridge regression (documented)"),
    ("reference.zhou_tan.robust:truncate", "y", {"empty array", "wrong shape"}, _ELEMENTWISE),
    ("reference.zhou_tan.robust:truncate", "b", {"inf", "zero"}, "b in [0, inf]; inf = no truncation (documented)"),
    ("audit.papers.shariff_sheffet.regret:regret_containment_audit", "gap", {"zero"}, _GAP0),
    ("audit.papers.shariff_sheffet.regret:regret_containment_audit", "alpha", {"None"}, _DEFAULT + ": alpha = 1/n"),
    ("audit.papers.shariff_sheffet.regret:regret_containment_audit", "claimed_bound", {"None"}, _DEFAULT + ": the theorem's bound"),
    ("audit.papers.shariff_sheffet.regret:regret_regression_check", "gap", {"zero"}, _GAP0),
    ("audit.papers.shariff_sheffet.regret:regret_regression_check", "privacy", {"None"}, "None for the non-private reference (documented)"),
    ("audit.papers.shariff_sheffet.regret:regret_scaling_in_dimension", "gap", {"zero"}, _GAP0),
    ("audit.papers.shariff_sheffet.regret:regret_scaling_in_dimension", "privacy", {"None"}, "None for the non-private variant (documented)"),
    ("audit.papers.shariff_sheffet.regret:regret_scaling_in_n", "gap", {"zero"}, _GAP0),
    ("audit.papers.shariff_sheffet.regret:regret_scaling_in_privacy", "gap", {"zero"}, _GAP0 + " (Theorem 5's form)"),
    ("audit.papers.shariff_sheffet.regret:regret_scaling_in_privacy", "mechanism_epsilon", {"None"}, _DEFAULT + ": the identity"),
    ("audit.papers.shariff_sheffet.regret:theorem_bound", "gap", {"zero"}, "gap >= 0 (Theorem 5 does not read it)"),
    ("audit.papers.shariff_sheffet.accuracy:definition3_ratios", "h_norm", {"inf"}, "||h||_{H^-1} = inf where H is not PD (regularizer_extremes)"),
    ("audit.methods.binomial:ratio_quantiles", "x", {"inf"}, _INF_RATIO),
    ("audit.methods.binomial:check_ratios", "value", {"inf"}, "allow_inf=True in the baseline: " + _INF_RATIO),
    ("audit.papers.shariff_sheffet.accuracy:regularizer_accuracy_audit", "nominal_failure_rate", {"zero"}, "nominal rate in [0, 1)"),
    ("audit.papers.shariff_sheffet.accuracy:regularizer_accuracy_audit", "shift", {"None", "negative", "zero"}, "None: bounds.shift; a shift is any real"),
    ("audit.papers.shariff_sheffet.theorems:TreeSourceSpec", "shift", {"negative", "zero"}, "a shift is any real"),
    ("audit.papers.shariff_sheffet.theorems:confidence_ellipsoid_audit", "gap", {"zero"}, _GAP0),
    ("audit.papers.shariff_sheffet.theorems:confidence_ellipsoid_audit", "constants", {"None"}, _DEFAULT),
    ("audit.papers.shariff_sheffet.theorems:regularizer_run_audit", "nominal_failure_rate", {"zero"}, "nominal rate in [0, 1)"),
    ("audit.papers.sajed_sheffet.battery:dpse_accuracy_audit", "epsilon", {"inf"}, _NONPRIVATE),
    ("audit.papers.sajed_sheffet.battery:dpse_sample_outcomes", "arm1_sum", {"zero"}, "a reward sum in [0, r_1]"),
    ("audit.papers.sajed_sheffet.battery:dpse_two_arm_log_pmf", "arm1_sum", {"zero"}, "a reward sum in [0, r_1]"),
    ("audit.papers.sajed_sheffet.battery:laplace_difference_log_tail", "y", {"negative", "zero"}, _REAL),
    ("audit.papers.sajed_sheffet.nas:ClosedFormNAS", "log_pmf", {"-inf"}, _NEG_INF_LOG),
    ("audit.papers.sajed_sheffet.nas:ClosedFormNAS", "log_pmf_prime", {"-inf"}, _NEG_INF_LOG),
    ("audit.papers.sajed_sheffet.nas:ClosedFormNAS", "halting_epsilon", {"inf", "zero"}, "a closed-form epsilon in [0, inf]"),
    ("audit.papers.sajed_sheffet.nas:ClosedFormNAS", "epsilon", {"inf", "zero"}, "a closed-form epsilon in [0, inf]"),
    ("audit.papers.sajed_sheffet.nas:NASVariant", "release_scale", {"zero"}, "0: the L-forgotten bug variant (documented)"),
    ("audit.papers.sajed_sheffet.nas:closed_form_audit_result", "closed_form_epsilon", {"inf", "zero"}, "a closed-form epsilon in [0, inf]"),
    ("audit.papers.sajed_sheffet.nas:closed_form_audit_result", "started", {"negative", "zero"}, "a perf_counter timestamp (any real)"),
    ("audit.papers.sajed_sheffet.nas:max_abs_log_ratio", "lp", {"-inf"}, _NEG_INF_LOG),
    ("audit.papers.sajed_sheffet.nas:max_abs_log_ratio", "lq", {"-inf"}, _NEG_INF_LOG),
    ("audit.papers.sajed_sheffet.nas:max_abs_log_ratio", "extra", {"inf"}, _INF_RATIO + " (a release without L)"),
    ("audit.papers.sajed_sheffet.nas_sampled:nas_accuracy_audit", "variant", {"None"}, _DEFAULT + ": the reference rule"),
    ("audit.papers.zhou_tan.battery:ZhouTanConfig", "R", {"zero"}, "R >= 0"),
    ("audit.papers.zhou_tan.accuracy:binomial_power", "failure_rate", {"zero"}, "a rate in [0, 1]"),
    ("audit.papers.zhou_tan.accuracy:binomial_power", "nominal", {"zero"}, "a nominal rate in [0, 1)"),
    ("audit.papers.zhou_tan.accuracy:critical_failure_count", "nominal", {"zero"}, "a nominal rate in [0, 1)"),
    ("audit.papers.zhou_tan.cases:learner_arm_transcripts", "first_reward", {"negative", "zero"}, _REAL),
    ("audit.papers.agarwal_singh.reduction:CanaryLearner", "threshold", {"negative", "zero"}, _REAL),
    ("audit.papers.agarwal_singh.reduction:DenseCanaryLearner", "threshold", {"negative", "zero"}, _REAL),
    ("audit.papers.agarwal_singh.battery:run_agarwal_singh_battery", "names", {"None"}, _DEFAULT + ": every case"),
    ("audit.papers.agarwal_singh.battery:run_agarwal_singh_battery", "strategy", {"None"}, _DEFAULT + ": Holm at config.family_alpha"),
    ("audit.papers.agarwal_singh.battery:cases", "names", {"None"}, _DEFAULT + ": every case"),
    ("audit.papers.agarwal_singh.battery:cases", "config", {"None"}, _DEFAULT + ": the default configuration (building cases draws nothing)"),
    ("audit.papers.zhou_tan.battery:cases", "config", {"None"}, _DEFAULT + ": the default configuration (building cases draws nothing)"),
    ("audit.papers.zhou_tan.battery:run_zhou_tan_battery", "strategy", {"None"}, _DEFAULT + ": PerTest at 1 - config.confidence"),
    ("audit.papers.sajed_sheffet.battery:cases", "config", {"None"}, _DEFAULT + ": the default configuration (building cases draws nothing)"),
    ("audit.papers.sajed_sheffet.battery:run_sajed_sheffet_battery", "strategy", {"None"}, _DEFAULT + ": Holm at config.family_alpha"),
    ("audit.papers.agarwal_singh.accuracy:tree_error_audit", "claimed_scale", {"None"}, _DEFAULT + ": scale"),
    # method family ------------------------------------------------------------------------
    *((f"reference.agarwal_singh.{c}.{m}", "feedback", {"negative", "zero"}, _FEEDBACK) for c, m in (
        ("bandits:EXP2Exploration", "estimate"), ("bandits:EXP2Exploration", "update"),
        ("bandits:PrivateBanditReduction", "update"), ("scrible:SCRiBLe", "estimate"),
        ("scrible:SCRiBLe", "update"))),
    *((f"audit.papers.agarwal_singh.reduction:{c}.update", "feedback", {"negative", "zero"}, _FEEDBACK)
      for c in ("CanaryLearner", "DenseCanaryLearner", "ReusedNoiseReduction")),
    *((f"reference.agarwal_singh.scrible:{c}.contains", "tol", {"zero"}, _TOL)
      for c in ("BallBarrier", "CubeBarrier", "PolytopeBarrier")),
    *((f"reference.agarwal_singh.sets:{c}.contains", "tol", {"zero"}, _TOL)
      for c in ("Cube", "L2Ball", "LossSet", "Simplex")),
    *((f"reference.agarwal_singh.scrible:{c}.ftrl_argmin", "start", {"None"}, _DEFAULT + ": the analytic centre")
      for c in ("BallBarrier", "CubeBarrier", "PolytopeBarrier")),
    ("reference.agarwal_singh.scrible:SCRiBLe.estimate", "k", {"zero"}, "axis 0 is an axis"),
    ("reference.agarwal_singh.scrible:SCRiBLe.estimate", "s", {"negative"}, "s = -1 is one of the two signs"),
    *((f"reference.agarwal_singh.sets:{c}.radius", "p", {"inf"}, _P_INF) for c in ("Cube", "L2Ball", "Simplex")),
    ("reference.agarwal_singh.sets:LossSet.diameter", "p", {"inf"}, _P_INF),
    ("reference.agarwal_singh.sets:LossSet.norm_radius", "p", {"inf"}, _P_INF),
    *((f"reference.noise:{c}.sample_sum", "j", {"zero"}, "the sum of j = 0 draws is zero (documented)")
      for c in ("GaussianVectorNoise", "LaplaceNoise", "SymmetricGaussianNoise", "WishartNoise", "ZeroNoise")),
    *((f"reference.sajed_sheffet.bandits:{c}.update", p, {"zero"}, r) for c in (
        "DPUCB", "UCB1", "DPSuccessiveElimination", "GuessAndDoubleDPSE")
      for p, r in (("arm", _ARM0), ("reward", "a reward in [0, 1]"))),
    ("reference.sajed_sheffet.bandits:BanditEnvironment.pull", "arm", {"zero"}, _ARM0),
    ("reference.sajed_sheffet.bandits:BanditEnvironment.pull_many", "arm", {"zero"}, _ARM0),
    ("reference.sajed_sheffet.bandits:BanditEnvironment.pull_many", "n", {"zero"}, _NONE_DRAWN),
    ("reference.sajed_sheffet.stopping:SampleStream.take", "n", {"zero"}, _NONE_DRAWN),
    ("reference.sajed_sheffet.stopping:TwoPointDistribution.sample", "size", {"zero"}, _NONE_DRAWN),
    ("reference.sajed_sheffet.stopping:UniformDistribution.sample", "size", {"zero"}, _NONE_DRAWN),
    ("reference.shariff_sheffet.environments:BandArmSampler.draw", "count", {"zero"}, _NONE_DRAWN),
    ("reference.shariff_sheffet.environments:LinearGapEnvironment.draw_block", "rounds", {"zero"}, _NONE_DRAWN),
    *((f"reference.shariff_sheffet.{c}.update", "y", {"negative", "zero"}, "a reward in [-B~, B~]") for c in (
        "regularizers:FactorizedStatistics", "linucb:LinUCB", "regularizers:ExactStatistics",
        "regularizers:TreeStatistics")),
    *((f"reference.zhou_tan.algorithms:{c}.observe", "arm", {"zero"}, _ARM0)
      for c in ("ATAGPUCB", "GPUCB", "TGPUCB", "MoMAGPUCB")),
    *((f"reference.zhou_tan.{c}", p, {"zero"}, _ARM0 if p == "arm" else _NONE_DRAWN) for c in (
        "datasets:EmpiricalRowEnvironment.pull", "environment:Curator.respond",
        "environment:FiniteArmEnvironment.pull") for p in ("arm", "n")),
    *((f"reference.zhou_tan.environment:{c}.sample", "n", {"zero"}, _NONE_DRAWN)
      for c in ("StudentTNoise", "SubWeibullGaussianNoise", "UniformNoise")),
    ("reference.zhou_tan.gp:FiniteDomainGP.update", "arm", {"zero"}, _ARM0),
    ("reference.zhou_tan.gp:FiniteDomainGP.update", "y", {"negative", "zero"}, _REAL),
    ("audit.papers.zhou_tan.cases:CTLRandomiser.centre", "y", {"negative", "zero"}, _REAL),
    ("audit.papers.zhou_tan.cases:CTLRandomiser.log_density", "outputs", {"empty array"}, _BATCH),
    ("audit.papers.agarwal_singh.gaussian:GaussianReleaseView.log_density", "outputs", {"empty array"}, _BATCH),
    ("audit.papers.agarwal_singh.gaussian:GaussianReleaseView.mean", "data", {"empty array"}, "the empty stream's releases: L~_0 = 0 alone"),
]  # fmt: skip
"""Documented values the api family accepts: ``(function, parameter, categories, reason)``."""

OTHER_OUTCOMES: list[tuple[str, str, set[str], str, str]] = [
    (
        "reference.zhou_tan.datasets:load_light_sensor_mat",
        "path",
        {"string"},
        "raw:FileNotFoundError",
        "a path to no file: the OSError names the file",
    ),
    (
        "reference.zhou_tan.datasets:load_stock_csv",
        "path",
        {"string"},
        "raw:FileNotFoundError",
        "a path to no file: the OSError names the file",
    ),
    (
        "reference.validation:check_nonempty",
        "value",
        {"nan"},
        "nan-output",
        "checks emptiness only (finiteness is check_array's): the value is returned as given",
    ),
    (
        "reference.sajed_sheffet.bandits:DPSuccessiveElimination.__init__",
        "rng",
        {"None"},
        "unclear",
        "rng = None is documented for DP-SE without privacy (no noise drawn); the placeholder "
        "arguments of the rng family are refused first",
    ),
    (
        "reference.sajed_sheffet.bandits:GuessAndDoubleDPSE.__init__",
        "rng",
        {"None"},
        "unclear",
        "rng = None is documented for DP-SE without privacy (see DPSuccessiveElimination)",
    ),
]
"""Outcomes other than a clear refusal or a documented acceptance, each with its reason."""

_ALLOWED = {(f, p, k, "accepted") for f, p, categories, _ in ALLOWED_API for k in categories} | {
    (f, p, k, outcome) for f, p, categories, outcome, _ in OTHER_OUTCOMES for k in categories
}


@pytest.fixture(scope="module")
def cases() -> list[hostile.Case]:
    return hostile.sweep()


def _allowed(case: hostile.Case) -> bool:
    if case.family == "cli":
        return case.outcome == "clear"
    if case.outcome in ("clear", "type-clear", "not called"):
        return True
    if case.family == "size":  # a finite result within the time limit (module docstring)
        return case.outcome == "accepted"
    if (case.function, case.parameter, case.category, case.outcome) in _ALLOWED:
        return True
    if case.outcome != "accepted" or case.family != "registry":
        return False
    allowed = ACCEPTED.get((case.function.split(":")[1], case.parameter))
    return allowed is not None and case.category in allowed[0]


def test_every_public_name_has_a_baseline_or_a_reason() -> None:
    from audit.tools import golden

    registered = {e.key for e in golden.registry()}
    missing = [
        name
        for name in hostile.public_names()
        if name not in registered
        and name not in hostile.baselines()
        and name not in hostile.NOT_CALLED
    ]
    assert not missing, f"public names with neither a baseline nor a reason: {missing}"
    stale = [
        n for n in [*hostile.baselines(), *hostile.NOT_CALLED] if n not in hostile.public_names()
    ]
    assert not stale, f"baselines or reasons for names that are not public: {stale}"


def test_every_horizon_case_names_a_method_with_a_baseline() -> None:
    assert set(hostile.HORIZONS) <= set(hostile.method_baselines())


def test_every_public_method_has_a_baseline_or_a_reason() -> None:
    methods = hostile.public_methods()
    missing = [
        m
        for m in methods
        if m not in hostile.method_baselines() and m not in hostile.NOT_CALLED_METHODS
    ]
    assert not missing, f"public methods with neither a baseline nor a reason: {missing}"
    stale = [
        m for m in [*hostile.method_baselines(), *hostile.NOT_CALLED_METHODS] if m not in methods
    ]
    assert not stale, f"baselines or reasons for methods that are not public: {stale}"


def test_every_command_but_check_is_swept() -> None:
    import argparse

    top = hostile._capture_parser([])
    commands = {
        name
        for action in top._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    }
    swept = {prefix[0] for prefix in hostile.cli_commands()}
    left_out = {prefix[0] for prefix in hostile.NOT_SWEPT_COMMANDS}
    assert commands == swept | left_out and not swept & left_out


def test_the_sweep_covers_the_public_api(cases: list[hostile.Case]) -> None:
    families = {c.family: {x.function for x in cases if x.family == c.family} for c in cases}
    assert len(families["registry"]) >= 190
    assert len(families["api"]) >= 280
    assert len(families["method"]) >= 100
    assert len(families["rng"]) >= 60
    assert len(families["seed"]) >= 8
    assert len(families["size"]) >= 300
    assert len(families["cli"]) >= 10
    bad_baselines = [c for c in cases if c.parameter == "-"]
    assert not bad_baselines, f"baselines that do not run: {bad_baselines}"


def test_no_silent_acceptance_nan_or_raw_exception(cases: list[hostile.Case]) -> None:
    bad = [c for c in cases if not _allowed(c)]
    report = "\n".join(
        f"{c.function}({c.parameter}={c.category}): {c.outcome}: {c.detail}" for c in bad[:40]
    )
    assert not bad, f"{len(bad)} hostile calls not refused clearly:\n{report}"


def test_every_allowed_acceptance_is_still_exercised(cases: list[hostile.Case]) -> None:
    """The allow-lists stay minimal: an entry no call needs any more must be removed."""
    seen_registry = {
        (c.function.split(":")[1], c.parameter, c.category)
        for c in cases
        if c.outcome == "accepted" and c.family == "registry"
    }
    stale: list[tuple[str, ...]] = [
        (f, p, k)
        for (f, p), (cats, _) in ACCEPTED.items()
        for k in cats
        if (f, p, k) not in seen_registry
    ]
    seen = {(c.function, c.parameter, c.category, c.outcome) for c in cases}
    stale += [key for key in _ALLOWED if key not in seen]
    assert not stale, f"allow-list entries no case needs: {stale}"


def test_not_swept_parameters_exist() -> None:
    """Every parameter left out of the sweep names a real parameter of a baseline."""
    table = hostile.baselines()
    unknown = [(f, p) for f, p in hostile.NOT_SWEPT if f not in table or p not in table[f].kwargs()]
    unknown += [
        (f, p)
        for f, p, _ in hostile.NOT_CALLED_CASES
        if f not in table or p not in table[f].kwargs()
    ]
    assert not unknown


def test_summary_counts_every_case(cases: list[hostile.Case]) -> None:
    """The table of counts (shown with ``pytest -rA`` or ``-s``)."""
    text = hostile.summary(cases)
    assert text.startswith(f"{len(cases)} hostile calls")
    print(text)


# ------------------------------------------------------------------------------------------------
# Regressions found by the sweep, one per kind (each failed before its fix)
# ------------------------------------------------------------------------------------------------


def test_no_verdict_from_a_nan_confidence_or_ratio() -> None:
    from audit.methods.binomial import RunAuditResult, ratio_quantiles
    from audit.papers.sajed_sheffet.nas import max_abs_log_ratio
    from audit.papers.shariff_sheffet.regret import cor15_floor_check

    regrets = np.array([5.0, 6.0, 7.0])
    with pytest.raises(ValueError, match="confidence"):
        cor15_floor_check(regrets, num_arms=2, n=100, epsilon=1.0, confidence=math.nan)
    with pytest.raises(ValueError, match="confidence"):
        RunAuditResult.from_ratios("r", {"q": np.ones(3)}, 0.1, confidence=2.0, seed=0, started=0.0)
    with pytest.raises(ValueError, match="ratios"):  # a NaN ratio is not "below the bound"
        RunAuditResult.from_ratios(
            "r", {"q": np.array([0.5, np.nan])}, 0.1, confidence=0.9, seed=0, started=0.0
        )
    with pytest.raises(ValueError, match="x"):
        ratio_quantiles(np.array([0.5, np.nan]))
    with pytest.raises(ValueError, match="lp"):  # the NaN outcome used to be skipped
        max_abs_log_ratio(np.array([np.nan, -1.0]), np.array([-0.5, -1.0]), np.zeros(2))


def test_messages_name_the_users_parameter() -> None:
    from audit.methods.stream import Algorithm1Policy
    from audit.papers.sajed_sheffet.battery import DPSE_VARIANTS, DPSEConfig, dpse_blackbox_audit
    from audit.papers.sajed_sheffet.nas import (
        NAS_VARIANTS,
        NASConfig,
        nas_closed_form_epsilon,
        nas_worst_case_pair,
    )
    from audit.papers.shariff_sheffet.regret import regret_regression_check
    from audit.protocols import PrivacyClaim
    from reference.agarwal_singh.environments import mab_switching
    from reference.engine.mab import dpucb_bernoulli_batch
    from reference.zhou_tan.algorithms import make_ldp_moma_gp_ucb
    from reference.zhou_tan.mechanism import LDPParams

    policy = Algorithm1Policy(lambda n, rng: None, "x")  # type: ignore[arg-type, return-value]
    with pytest.raises(ValueError, match=r"^reference must be one of"):  # was "variant ..."
        regret_regression_check(
            policy,
            "hostile",  # type: ignore[arg-type]
            d=2,
            num_arms=3,
            gap=0.1,
            n=8,
            runs=2,
            seed=0,
        )
    with pytest.raises(ValueError, match=r"^samples must"):  # was "size must ..."
        dpse_blackbox_audit(
            DPSEConfig(), DPSE_VARIANTS["correct"], [PrivacyClaim(1.0, 0.0)], samples=0, seed=0
        )
    config = NASConfig(cap=3)
    pair = nas_worst_case_pair(config)
    with pytest.raises(ValueError, match=r"^x_prime must"):  # was "stream must ..."
        nas_closed_form_epsilon(pair.x, pair.x_prime[:2], config, NAS_VARIANTS["correct"])
    with pytest.raises(ValueError, match=r"^switches\[0\] must"):  # was "switch must ..."
        mab_switching(2, 4, 0.2, [0])
    with pytest.raises(ValueError, match="rounds=4"):  # was "T=4" for the rounds cap
        dpucb_bernoulli_batch(
            [0.6, 0.4], 8, 1.0, [np.random.SeedSequence(1)], checkpoints=[6], rounds=4
        )
    with pytest.raises(ValueError, match=r"^k_rep_const must"):  # was "const must ..."
        make_ldp_moma_gp_ucb(
            np.eye(2), LDPParams(1.0, 1.0, 1.0), 1.0, 0.1, 0.5, 8, 0, k_rep_const=0.0
        )


def test_no_raw_exception_escapes() -> None:
    from audit.papers.shariff_sheffet.theorems import claim18_coverage, proof_failure_rate
    from reference.accounting import laplace_tree_epsilon
    from reference.sajed_sheffet.bandits import run_policy
    from reference.shariff_sheffet.simulation import run_episode
    from reference.tree import TreeAggregator

    with pytest.raises(ValueError, match=r"^variant must"):  # was KeyError
        proof_failure_rate("hostile", 0.1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^interval must"):  # was ZeroDivisionError
        laplace_tree_epsilon(0.1, epsilon_0=0.5, nodes=2, interval=0.0)
    with pytest.raises(ValueError, match=r"^rows must"):  # was IndexError
        claim18_coverage(0, 2, 0.1, reps=1, seed=0)
    with pytest.raises(ValueError, match=r"^noise must"):  # was AttributeError
        TreeAggregator(4, None, np.random.default_rng(0))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^env must"):  # was AttributeError
        run_policy(hostile._ucb1(), None, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^policy must"):
        run_episode("hostile", hostile._gap_env(), 4)  # type: ignore[arg-type]


def test_empty_inputs_are_refused() -> None:
    from audit.papers.sajed_sheffet.battery import DPSE_VARIANTS, DPSEConfig, dpse_closed_form_audit
    from reference.agarwal_singh.environments import best_fixed_action, experts_bernoulli
    from reference.agarwal_singh.sets import Simplex
    from reference.sajed_sheffet.bandits import dpse_eliminate
    from reference.shariff_sheffet.linucb import ucb_argmax

    with pytest.raises(ValueError, match=r"^losses must have at least one round"):
        best_fixed_action(np.zeros((0, 2)), Simplex(2))
    with pytest.raises(ValueError, match=r"^means must have at least one expert"):
        experts_bernoulli(np.zeros(0), 3, 0)
    with pytest.raises(ValueError, match=r"^noisy_means must have at least one arm"):
        dpse_eliminate(np.zeros(0), 0.5)
    with pytest.raises(ValueError, match=r"^ucb must"):
        ucb_argmax(np.zeros(0))
    with pytest.raises(ValueError, match=r"^claims must hold at least one"):  # was an empty list
        dpse_closed_form_audit(DPSEConfig(), DPSE_VARIANTS["correct"], [])


def test_no_silent_index_wrap_or_integer_truncation() -> None:
    from reference.engine.mab import dpse_bernoulli_batch
    from reference.shariff_sheffet.environments import assemble_gap_arms
    from reference.zhou_tan.gp import gp_posterior_on_domain

    band = np.array([[0.3, 0.1], [0.2, 0.4]])
    with pytest.raises(ValueError, match=r"^positions must"):  # -1 used to mean "the last slot"
        assemble_gap_arms(band, np.array([1.0]), np.array(-1), 0.75)
    with pytest.raises(ValueError, match=r"^arms must"):  # -1 used to read the last arm
        gp_posterior_on_domain(np.eye(3), np.array([-1]), np.array([0.1]), 1.0)
    with pytest.raises(ValueError, match=r"^checkpoints must"):  # 4.5 used to become 4
        dpse_bernoulli_batch(
            [0.6, 0.4],
            8,
            1.0,
            0.1,
            [np.random.SeedSequence(1)],
            checkpoints=[4.5],  # type: ignore[list-item]
        )


def test_flags_options_and_names_are_checked() -> None:
    from audit.papers.agarwal_singh.battery import run_agarwal_singh_battery
    from audit.papers.zhou_tan.accuracy import lemma11_count_audit
    from reference.agarwal_singh.aggregation import TreeBasedAggregation
    from reference.noise import ZeroNoise
    from reference.sajed_sheffet.stopping import nas
    from reference.zhou_tan.mechanism import LDPParams

    with pytest.raises(ValueError, match=r"^pad must be True or False"):  # "no" was truthy
        TreeBasedAggregation(4, ZeroNoise((2,)), 0, pad="no")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^record must be True or False"):
        nas(lambda: 1.0, range_R=1.0, alpha=0.5, beta=0.1, t_max=2, record=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^bound must be one of"):  # was read as "paper"
        lemma11_count_audit(
            LDPParams(1.0, 1.0, 1.0),
            "hostile",  # type: ignore[arg-type]
            k=3,
            p=0.2,
            runs=2,
            seed=0,
            confidence=0.9,
        )
    with pytest.raises(ValueError, match=r"^names must be case names"):  # was an empty report
        run_agarwal_singh_battery(hostile._as_config(), names=["tree_node_strict"])


def test_seeds_and_generators_follow_the_one_rule() -> None:
    from audit.papers.agarwal_singh.reduction import exp2_reduction_arms
    from audit.papers.sajed_sheffet.nas import NAS_VARIANTS, NASConfig, nas_worst_case_pair
    from audit.papers.sajed_sheffet.nas_sampled import nas_sample_outputs
    from audit.papers.shariff_sheffet.theorems import claim19_coverage

    with pytest.raises(ValueError, match=r"^seed must"):  # scipy used to draw unseeded
        claim19_coverage(2, 30, 0.1, reps=2, seed=None)  # type: ignore[arg-type]
    config = NASConfig(cap=3)
    x = nas_worst_case_pair(config).x
    with pytest.raises(ValueError, match=r"^rng must"):  # was AttributeError
        nas_sample_outputs(x, config, NAS_VARIANTS["correct"], None, 5)  # type: ignore[arg-type]
    by_seed = nas_sample_outputs(x, config, NAS_VARIANTS["correct"], 3, 5)
    by_generator = nas_sample_outputs(
        x, config, NAS_VARIANTS["correct"], np.random.default_rng(3), 5
    )
    np.testing.assert_array_equal(by_seed, by_generator)
    # an integer rng is one generator for every run (it used to restart in each run)
    losses = np.array([[0.1, 0.9], [0.2, 0.8], [0.9, 0.1]])
    runs = exp2_reduction_arms(losses, 1.0, False, 0.3, 0.2, 5, 30)
    expected = exp2_reduction_arms(losses, 1.0, False, 0.3, 0.2, np.random.default_rng(5), 30)
    np.testing.assert_array_equal(runs, expected)
    assert len({tuple(r) for r in runs}) > 1


def test_valid_input_is_unchanged_where_it_used_to_fail() -> None:
    """DP-SE's epoch-1 law far from the decision boundary: ``P[none]`` underflowed to a math
    domain error; it is now computed in log space (and the law still sums to one)."""
    from scipy.special import logsumexp

    from audit.papers.sajed_sheffet.battery import DPSE_VARIANTS, DPSEConfig, dpse_two_arm_log_pmf

    config = DPSEConfig()
    for s in (0, 100, 300):
        log_pmf = dpse_two_arm_log_pmf(config, DPSE_VARIANTS["correct"], s)
        assert np.all(np.isfinite(log_pmf) | (log_pmf == -np.inf))
        assert float(logsumexp(log_pmf)) == pytest.approx(0.0, abs=1e-12)


# ------------------------------------------------------------------------------------------------
# Regressions of the last sweep (each failed before its fix: NaN out, silent acceptance, a raw or
# unclear error, a MemoryError or an endless loop)
# ------------------------------------------------------------------------------------------------


def test_no_nan_out_of_a_nan_input() -> None:
    from audit.methods.billboard import correct_billboard_mu
    from audit.methods.black_box import EventCounts, epsilon_lower_bound

    counts = EventCounts(50, 100, 10, 100)
    with pytest.raises(ValueError, match=r"^delta must be finite"):  # was nan
        epsilon_lower_bound(counts, math.nan, 0.05)
    with pytest.raises(ValueError, match=r"^beta must be in \(0.0, 1.0\), got 2.0"):  # was "1.0"
        epsilon_lower_bound(counts, 0.0, 2.0)
    with pytest.raises(ValueError, match=r"^difference must be finite"):  # was nan
        correct_billboard_mu(4, 1, math.nan, 1.0)


def test_event_counts_name_the_count() -> None:
    from audit.methods.black_box import EventCounts

    with pytest.raises(ValueError, match=r"^count must be in \[0, trials=100\], got 150"):
        EventCounts(150, 100, 10, 100)  # was "successes must ..." at the first bound
    with pytest.raises(ValueError, match=r"^count_prime must be an integer >= 0"):
        EventCounts(5, 100, -1, 100)


def test_invalid_streams_pairs_and_matrices_are_refused() -> None:
    from audit.methods.pairs import statdp_patterns
    from audit.methods.release import release_streams
    from audit.methods.stream import Stream
    from audit.papers.shariff_sheffet.accuracy import regularizer_extremes
    from audit.protocols import NeighbouringPair
    from reference.agarwal_singh.environments import pseudo_regret_mab
    from reference.zhou_tan.environment import sample_rkhs_function

    arms = np.ones((2, 2))
    with pytest.raises(ValueError, match=r"^reward_tables\[0\] must contain only finite"):
        Stream((arms,), (np.array([math.nan, 1.0]),))
    with pytest.raises(ValueError, match=r"^decision_sets\[0\] must contain only finite"):
        Stream((np.array([[math.nan, 1.0], [1.0, 1.0]]),), (np.zeros(2),))
    with pytest.raises(ValueError, match=r"^relation must be 'add_remove'"):
        NeighbouringPair(np.zeros(1), np.ones(1), "hostile")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^relation must be 'add_remove'"):
        statdp_patterns(5, "hostile")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^days must hold at least one day"):  # was []
        release_streams("linear", 4, 3, days=())
    with pytest.raises(ValueError, match=r"^K must be positive semi-definite"):
        sample_rkhs_function(np.array([[1.0, 2.0], [2.0, 1.0]]), 2, 0)
    with pytest.raises(ValueError, match=r"^probs must be distributions"):
        pseudo_regret_mab(np.array([[0.9, 0.5], [0.4, 0.6]]), np.array([[0.1, 0.9], [0.2, 0.8]]))
    with pytest.raises(ValueError, match=r"^probs must hold probabilities"):
        pseudo_regret_mab(np.array([[2.0, -1.0], [0.4, 0.6]]), np.array([[0.1, 0.9], [0.2, 0.8]]))
    with pytest.raises(ValueError, match=r"^H must be symmetric"):
        regularizer_extremes(np.array([[2.0, 1.0], [0.0, 1.5]]), np.array([0.1, 0.2]))


def _no_result(pair: object, samples: int, seed: int) -> Any:
    """A tester that forgets to return its audit."""
    return None


def test_audits_name_what_is_wrong_with_their_arguments(tmp_path: Path) -> None:
    from audit.mechanisms import GaussianMechanism
    from audit.methods.pairs import search_pairs, searched_audit
    from audit.methods.release import release_audit
    from audit.methods.white_box import white_box_audit
    from audit.protocols import NeighbouringPair, PrivacyClaim

    pair = NeighbouringPair(np.zeros(1), np.ones(1))
    day = PrivacyClaim(1.0, 1e-3, "t_neighbouring")
    search: dict[str, Any] = {"samples": 8, "seed": 0, "top": 1, "name": "s"}
    with pytest.raises(ValueError, match=r"^candidates must hold at least one"):  # was 1/0
        searched_audit([], lambda level: _no_result, confidence=0.9, **search)
    with pytest.raises(ValueError, match=r"^confidence must be in"):  # was "alpha must ..."
        searched_audit([pair], lambda level: _no_result, confidence=2.0, **search)
    with pytest.raises(ValueError, match=r"^tester must return a PrivacyAuditResult, got NoneType"):
        search_pairs([pair], _no_result, screen_samples=4, samples=4, seed=0)  # AttributeError
    with pytest.raises(ValueError, match=r"^mechanism must be a DensityMechanism"):
        white_box_audit(object(), pair, PrivacyClaim(1.0, 1e-3), samples=10, seed=0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^mechanism must be a Mechanism"):
        release_audit(object(), "linear", day, n=4, m=3, samples=10, seed=0, confidence=0.9)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^confidence must be in"):
        release_audit(GaussianMechanism(sigma=1.0), "linear", day, n=4, m=3, samples=10, seed=0,
                      confidence=2.0)  # fmt: skip


def test_no_raw_error_from_an_extreme_epsilon_a_generator_or_a_folder(tmp_path: Path) -> None:
    from reference.engine.blocks import run_blocks
    from reference.engine.tasks import GapBatchTask
    from reference.rng import split_generator
    from reference.shariff_sheffet.bounds import wishart_degrees_of_freedom

    with pytest.raises(ValueError, match=r"^epsilon must be large enough"):  # ZeroDivisionError
        wishart_degrees_of_freedom(2, 2, 1e-300, 0.1)
    with pytest.raises(ValueError, match=r"^rng must be a numpy Generator"):  # AttributeError
        split_generator(None, ["a"])  # type: ignore[arg-type]
    a_file = tmp_path / "a-file"
    a_file.write_text("x\n")
    with pytest.raises(ValueError, match=r"^out_dir must be a folder"):  # FileExistsError
        run_blocks(GapBatchTask("nonprivate", 2, 4, 0.1, 5), seed=0, replicates=1, block_size=1,
                   executor="serial", out_dir=a_file)  # fmt: skip


def test_losses_and_steps_beyond_the_horizon_name_the_users_parameter() -> None:
    from reference.agarwal_singh.aggregation import TreeBasedAggregation
    from reference.agarwal_singh.full_info import run_full_info
    from reference.noise import ZeroNoise
    from reference.sajed_sheffet.bandits import DPUCB

    tree = TreeBasedAggregation(2, ZeroNoise((2,)), 0)
    with pytest.raises(ValueError, match=r"^loss must have shape \(2,\)"):  # numpy's broadcast
        tree.step(np.ones(3))
    with pytest.raises(ValueError, match=r"^loss must contain only finite"):  # was "item ..."
        tree.step(np.array([math.nan, 1.0]))
    tree.step(np.ones(2))
    tree.step(np.ones(2))
    with pytest.raises(ValueError, match=r"at most T=2"):  # was "more than n=2 leaves"
        tree.step(np.ones(2))
    dpucb = DPUCB(2, 2, 1.0, 0)
    dpucb.update(0, 0.5)
    dpucb.update(1, 0.5)
    with pytest.raises(ValueError, match=r"at most T=2"):
        dpucb.update(0, 0.5)
    with pytest.raises(ValueError, match=r"^losses must have at most T=4 rounds"):
        run_full_info(hostile._ftrl(), np.full((6, 2), 0.5))


def test_absurd_sizes_are_refused_naming_the_parameter_and_the_limit() -> None:
    from reference.factorization import sqrt_factorization
    from reference.shariff_sheffet import ProblemConstants, make_policy
    from reference.shariff_sheffet.regularizers import PrivacyParameters
    from reference.shariff_sheffet.simulation import run_gap_experiment
    from reference.zhou_tan.kernels import unit_grid

    huge = 10**18
    with pytest.raises(ValueError, match=r"^n must be at most"):  # MemoryError
        run_gap_experiment("nonprivate", d=2, num_arms=3, gap=0.1, n=huge, seed=0, privacy=None)
    with pytest.raises(ValueError, match=r"^n_points must be at most"):  # MemoryError
        unit_grid(huge)
    with pytest.raises(ValueError, match=r"^n must be at most"):  # an endless loop
        sqrt_factorization(huge)
    with pytest.raises(ValueError, match=r"^n must be at most 2\*\*53"):  # decays rounded to 1
        make_policy("factorized", ProblemConstants(d=2), huge, 0.1, 0, PrivacyParameters(1.0, 0.1),
                    calibration="tight")  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["audit", "benchmark", "--confidence", "2"],  # was a raw ValueError traceback
        ["audit", "benchmark", "--n", str(10**18)],  # was a MemoryError
        ["audit", "privacy", "--stream-runs", str(10**18)],  # ran the battery
        ["experiment", "--n", str(10**18)],  # ran forever
        ["bench", "--rounds", str(10**18)],  # ValueError: array is too big
        ["reproduce", "--runs", str(10**18)],  # ran
    ],
)
def test_the_command_line_refuses_before_anything_runs(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from audit.cli import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[-2]}" in err and "Traceback" not in err


def test_golden_refuses_a_file_as_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from audit.cli import main

    a_file = tmp_path / "a-file"
    a_file.write_text("x\n")
    with pytest.raises(SystemExit) as stop:  # was exit 1 after reading every paper's vectors
        main(["golden", "--dir", str(a_file)])
    assert stop.value.code == 2
    assert "--dir must be a folder" in capsys.readouterr().err
