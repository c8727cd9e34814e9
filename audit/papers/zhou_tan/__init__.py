"""Audits of Zhou & Tan, "Local Differential Privacy for Bayesian Optimization" (AAAI 2021): the
LDP mechanisms (:mod:`.cases`), the GP-UCB variants and median-of-means (:mod:`.accuracy`), the
battery (:mod:`.battery`), the reproductions (:mod:`.reproduce`, with :mod:`.repro_common`,
:mod:`.repro_figures`, :mod:`.repro_scaling`) and the golden entries (:mod:`.golden`).

Proof note: ``proofs_notes/audit/zhou_tan.md``.
"""

__all__: list[str] = []
