"""Maintenance tools: golden vectors (:mod:`.golden`), proof-note freshness (:mod:`.freshness`) and
benchmarks (:mod:`.bench`).
"""

__all__: list[str] = []
