"""privonline reference implementations.

Plain, typed algorithms that read like the source papers.  Shared building blocks live at the top
level of this package (:mod:`reference.tree`, :mod:`reference.noise`, :mod:`reference.validation`,
:mod:`reference.rng`); each paper has its own subpackage:

* :mod:`reference.shariff_sheffet` -- Shariff & Sheffet (NeurIPS 2018), "Differentially Private
  Contextual Linear Bandits".
* :mod:`reference.sajed_sheffet` -- Sajed & Sheffet (ICML 2019), "An Optimal Private Stochastic-MAB
  Algorithm Based on an Optimal Private Stopping Rule".
* :mod:`reference.zhou_tan` -- Zhou & Tan (AAAI 2021), "Local Differential Privacy for Bayesian
  Optimization".
* :mod:`reference.agarwal_singh` -- Agarwal & Singh (ICML 2017), "The Price of Differential Privacy
  for Online Learning".

Optimized, replicate-vectorised paths live apart in :mod:`reference.engine` and are cross-checked
against the reference on identical random streams.

Every random function takes an explicit :class:`numpy.random.Generator`; nothing uses global state.
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
    Release,
    TreeAggregator,
    dyadic_decomposition,
    nodes_containing_leaf,
    tree_depth,
)

__all__ = [
    "GaussianVectorNoise",
    "LaplaceNoise",
    "NodeNoise",
    "Release",
    "SymmetricGaussianNoise",
    "TreeAggregator",
    "WishartNoise",
    "ZeroNoise",
    "dyadic_decomposition",
    "nodes_containing_leaf",
    "tree_depth",
]
