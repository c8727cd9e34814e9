"""Optimized engines: many replicates at once, cross-checked against the plain reference.

This subpackage is *not* reference code: it trades the one-function-per-equation layout of
:mod:`reference` for arrays of shape ``(R, …)`` over ``R`` independent replicates.  Every engine
reads the same block-stable random streams as the reference it accelerates (:mod:`reference.rng`),
so with the same seeds it makes the same decisions; ``tests/reference/test_engine.py`` checks this on a grid
of settings, and ``nox -s bench`` measures the speed-up.

* :mod:`reference.engine.tree` -- the tree mechanism's release noise for ``R`` replicates.
* :mod:`reference.engine.linucb` -- Algorithm 1 of Shariff & Sheffet on the App. D environment.
* :mod:`reference.engine.mab` -- DP-SE and DP-UCB of Sajed & Sheffet on Bernoulli arms (Sec. 5).
* :mod:`reference.engine.blocks` -- replicate blocks run through an executor (local processes or a
  Dask cluster), written as they finish and resumed after an interruption.
"""

from reference.engine.linucb import BatchResult, default_checkpoints, run_gap_batch
from reference.engine.tree import BatchedTreeNoise, draw_noise_sums

__all__ = [
    "BatchResult",
    "BatchedTreeNoise",
    "default_checkpoints",
    "draw_noise_sums",
    "run_gap_batch",
]
