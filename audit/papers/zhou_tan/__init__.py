"""Audits of Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021): the
LDP mechanisms, the GP-UCB variants and median-of-means (:mod:`.battery`), and the reproductions
(:mod:`.reproduce`).
"""

__all__: list[str] = []
