"""Audits of Agarwal & Singh, "The Price of Differential Privacy for Online Learning" (ICML 2017):
tree-based aggregation and private FTRL (:mod:`.cases`), the bandit reductions (:mod:`.reduction`),
the Gaussian tree and private FTPL (:mod:`.gaussian`), Lemma 3.3's accuracy (:mod:`.accuracy`), the
battery (:mod:`.battery`), the reproductions (:mod:`.reproduce`, with :mod:`.repro_common`,
:mod:`.repro_ftrl`, :mod:`.repro_bandits`, :mod:`.repro_eps_window`) and the golden entries
(:mod:`.golden`).

Proof note: ``proofs_notes/audit/agarwal_singh.md``.
"""

__all__: list[str] = []
