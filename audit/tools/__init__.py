"""Maintenance tools: golden vectors (:mod:`.golden`), proof-note freshness (:mod:`.freshness`) and
benchmarks (:mod:`.bench`).

Proof note: ``proofs_notes/audit/README.md``.
"""

__all__: list[str] = []
