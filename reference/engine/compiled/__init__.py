"""Compiled engines: one fused numba loop per replicate, replicates spread over threads.

Not reference code.  Each replicate's loop reads numpy ``Generator`` objects directly (numba draws
from them bit for bit as numpy does and advances their state), so a compiled run consumes exactly
the random streams of the reference run with the same seed and makes the same decisions
(``tests/reference/test_compiled*.py``; ``nox -s bench`` times Algorithm 1).
:mod:`~reference.engine.compiled.linucb`: Shariff & Sheffet Algorithm 1 on App. D;
:mod:`~reference.engine.compiled.mab`: Sajed & Sheffet DP-SE (Algorithm 3) and DP-UCB (Sec. 5);
:mod:`~reference.engine.compiled.stopping`: their DP-NAS (Algorithm 1) on the two-point law;
:mod:`~reference.engine.compiled.ftrl`: Agarwal & Singh's private FTRL and EXP2 reduction.
Proof note: ``proofs_notes/shariff_sheffet/algorithm1_linucb.md``.
"""

from reference.engine.compiled.ftrl import run_exp2_compiled, run_ftrl_compiled
from reference.engine.compiled.linucb import run_gap_compiled
from reference.engine.compiled.mab import (
    dpse_bernoulli_compiled,
    dpucb_bernoulli_compiled,
    dpucb_table_compiled,
)
from reference.engine.compiled.stopping import DPNASBatchResult, dp_nas_two_point_compiled

__all__ = [
    "DPNASBatchResult",
    "dp_nas_two_point_compiled",
    "dpse_bernoulli_compiled",
    "dpucb_bernoulli_compiled",
    "dpucb_table_compiled",
    "run_exp2_compiled",
    "run_ftrl_compiled",
    "run_gap_compiled",
]
