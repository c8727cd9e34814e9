"""Audits of Sajed & Sheffet, "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal
Private Stopping Rule" (ICML 2019): the DP-NAS stopping rules (:mod:`.nas`), DP-SE and the battery
(:mod:`.battery`), and the reproductions (:mod:`.reproduce`).
"""

__all__: list[str] = []
