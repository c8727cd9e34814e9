"""Audits of Shariff & Sheffet, "Differentially Private Contextual Linear Bandits" (NeurIPS 2018):
the tree mechanism's cases and broken variants (:mod:`.cases`), Definition 3 accuracy
(:mod:`.accuracy`), Propositions 4, 9, 11 over whole runs (:mod:`.theorems`), Theorems 5 and 6
(:mod:`.regret`), the battery (:mod:`.battery`) and the App. D reproductions (:mod:`.reproduce`).

Proof note: ``proofs_notes/audit/README.md``.
"""

__all__: list[str] = []
