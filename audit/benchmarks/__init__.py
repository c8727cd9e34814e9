"""Benchmarks the audit methods are measured on.

:mod:`audit.benchmarks.classic` is the classic DP-auditing benchmark (StatDP, DP-Sniper, Lyu et
al.'s sparse-vector variants) as a registry of (mechanism, neighbouring pair) cases with exact ε
where computable; :mod:`audit.benchmarks.run` runs today's black box on it and writes the table;
:mod:`audit.benchmarks.calibration` measures every tester's false-alarm rate and power coverage
on the scenarios of :mod:`audit.benchmarks.calibration_scenarios`.
Proof note: ``proofs_notes/audit/benchmark.md``.
"""
