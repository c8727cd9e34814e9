"""Worked examples of third-party implementations checked by ``privonline check`` (see README).

Proof note: ``proofs_notes/audit/README.md``.
"""
