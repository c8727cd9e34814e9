"""Audits of Agarwal & Singh, "The Price of Differential Privacy for Online Learning" (ICML 2017):
tree-based aggregation, private FTRL/FTPL and the bandit reductions (:mod:`.battery`), and the
reproductions (:mod:`.reproduce`).
"""

__all__: list[str] = []
