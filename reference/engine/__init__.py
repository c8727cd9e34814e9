"""Optimized engines: many replicates at once, cross-checked against the plain reference.

Not reference code: arrays of shape ``(R, …)`` over ``R`` independent replicates, reading the same
block-stable random streams (:mod:`reference.rng`) as the reference, so the same seeds give the
same decisions (``tests/reference/test_engine.py``; ``nox -s bench`` measures the speed-up).
:mod:`reference.engine.tree` (tree noise), :mod:`reference.engine.linucb` (Shariff & Sheffet
Algorithm 1 on App. D), :mod:`reference.engine.mab` (Sajed & Sheffet DP-SE and DP-UCB, Sec. 5),
:mod:`reference.engine.blocks` (replicate blocks on any executor, resumable),
:mod:`reference.engine.tasks` (the App. D block task, on the compiled or the numpy engine).

Proof note: ``proofs_notes/README.md``.
"""

from reference.engine.linucb import BatchResult, default_checkpoints, run_gap_batch
from reference.engine.tree import BatchedPanPrivateNoise, BatchedTreeNoise, draw_noise_sums

__all__ = [
    "BatchResult",
    "BatchedPanPrivateNoise",
    "BatchedTreeNoise",
    "default_checkpoints",
    "draw_noise_sums",
    "run_gap_batch",
]
