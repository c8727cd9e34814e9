"""privonline reference implementations: plain, typed algorithms that read like the source papers.

Shared building blocks at the top level (:mod:`reference.tree`, :mod:`reference.noise`,
:mod:`reference.validation`, :mod:`reference.rng`); one subpackage per paper:
:mod:`reference.shariff_sheffet` (NeurIPS 2018), :mod:`reference.sajed_sheffet` (ICML 2019),
:mod:`reference.zhou_tan` (AAAI 2021), :mod:`reference.agarwal_singh` (ICML 2017).  Optimized,
replicate-vectorised paths live apart in :mod:`reference.engine`.  Every random function takes an
explicit :class:`numpy.random.Generator`; nothing uses global state.

Proof note: ``proofs_notes/README.md``.
"""

from reference.noise import (
    GaussianVectorNoise,
    LaplaceNoise,
    NodeNoise,
    SymmetricGaussianNoise,
    WishartNoise,
    ZeroNoise,
)
from reference.tree import (
    PanPrivateTree,
    Release,
    TreeAggregator,
    TreeMode,
    dyadic_decomposition,
    nodes_containing_leaf,
    tree_depth,
)

__all__ = [
    "GaussianVectorNoise",
    "LaplaceNoise",
    "NodeNoise",
    "PanPrivateTree",
    "Release",
    "SymmetricGaussianNoise",
    "TreeAggregator",
    "TreeMode",
    "WishartNoise",
    "ZeroNoise",
    "dyadic_decomposition",
    "nodes_containing_leaf",
    "tree_depth",
]
