"""Audits of Sajed & Sheffet, "An Optimal Private Stochastic-MAB Algorithm Based on an Optimal
Private Stopping Rule" (ICML 2019): the DP-NAS stopping rules (:mod:`.nas`), DP-SE and the battery
(:mod:`.battery`), the reproductions (:mod:`.reproduce`, with :mod:`.repro_cells`,
:mod:`.repro_stopping_times`, :mod:`.repro_sec5`, :mod:`.repro_thm43`, :mod:`.repro_stopping`) and
the golden entries (:mod:`.golden`).

Proof note: ``proofs_notes/audit/sajed_sheffet.md``.
"""

__all__: list[str] = []
