"""Compiled engines: one fused numba loop per replicate, replicates spread over threads.

Not reference code.  Each loop draws from numpy ``Generator`` objects directly, bit for bit as
numpy does, so a compiled run consumes the random streams of the reference run with the same seed
and makes its decisions (``tests/reference/test_compiled*.py``).  Modules: ``linucb`` (Shariff &
Sheffet Algorithm 1 on App. D), ``tree`` (their tree mechanism alone), ``mab`` (Sajed & Sheffet
DP-SE and DP-UCB), ``stopping`` (their DP-NAS), ``ftrl`` (Agarwal & Singh's private FTRL and EXP2
reduction), ``scrible`` (their reduction over SCRiBLe).
Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from reference.engine.compiled.ftrl import (
    run_exp2_compiled,
    run_ftrl_compiled,
    run_ftrl_losses_compiled,
)
from reference.engine.compiled.linucb import run_gap_compiled
from reference.engine.compiled.mab import (
    dpse_bernoulli_compiled,
    dpucb_bernoulli_compiled,
    dpucb_table_compiled,
)
from reference.engine.compiled.scrible import SCRiBLeBatchResult, run_scrible_compiled
from reference.engine.compiled.stopping import DPNASBatchResult, dp_nas_two_point_compiled
from reference.engine.compiled.tree import tree_noise_compiled

__all__ = [
    "DPNASBatchResult",
    "SCRiBLeBatchResult",
    "dp_nas_two_point_compiled",
    "dpse_bernoulli_compiled",
    "dpucb_bernoulli_compiled",
    "dpucb_table_compiled",
    "run_exp2_compiled",
    "run_ftrl_compiled",
    "run_ftrl_losses_compiled",
    "run_gap_compiled",
    "run_scrible_compiled",
    "tree_noise_compiled",
]
