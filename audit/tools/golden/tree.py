"""Golden entries of the shared tree mechanism (:mod:`reference.tree`; Shariff & Sheffet, NeurIPS 2018,
Sec. 4 and App. A.2; Algorithm 2 of Agarwal & Singh, ICML 2017): file
``audit/tools/golden_vectors/tree.json``.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

from audit.tools.golden.entries import GoldenFunction, _grid, _product
from reference import tree

__all__ = [
    "tree_entries",
]


def tree_entries() -> list[GoldenFunction]:
    p = "tree"
    big = (0, 1, 2, 3, 4, 5, 7, 8, 9, 1000, 2**20, 2**20 + 1, 10**12, 2**53 - 1, 2**53, 2**53 + 1)
    return [
        GoldenFunction(p, tree.tree_depth, _grid(_product(n=(*big[1:], 0, -1, 2.5)))),
        GoldenFunction(
            p,
            tree.node_leaf_range,
            _grid(_product(node=([0, 1], [1, 3], [3, 2], [39, 1], [40, 909], [0, 0], [-1, 1]))),
        ),
        # "tree node sets per t": the dyadic decomposition of every prefix s = 0..33, and extremes
        GoldenFunction(
            p,
            tree.dyadic_decomposition,
            _grid(_product(s=(*range(34), 255, 256, 2**40 - 1, 10**12, -1))),
        ),
        GoldenFunction(
            p,
            tree.nodes_containing_leaf,
            _grid(
                _product(leaf=(1, 5, 8, 9), m=(1, 4, 5)),
                _product(leaf=(1, 10**12 - 1, 10**12, 2**40), m=(41,)),
                {"leaf": 0, "m": 4},
                {"leaf": 1, "m": 0},
            ),
        ),
        GoldenFunction(
            p,
            tree.nodes_used_by_leaf,
            _grid(
                _product(leaf=(1, 2, 3, 5, 8), n=(1, 2, 8, 9, 16)),
                _product(leaf=(1, 2, 5 * 10**11, 10**12 - 1, 10**12), n=(10**12,)),
                {"leaf": 0, "n": 8},
                {"leaf": 1, "n": 0},
            ),
        ),
    ]
