"""Worked example of ``privonline golden compare`` and of the pytest one-liners of
:mod:`audit.testing`: a third party's Wishart degrees of freedom, correct and off by one.

Proof note: ``proofs_notes/audit/golden_schema.md``.
"""
