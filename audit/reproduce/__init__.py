"""Shared machinery of the reproductions: the resumable cell store, the command-line options and
the experiment selection (:mod:`.common`).  Each paper's experiments live in
``audit.papers.<paper>.reproduce``.

Proof note: ``proofs_notes/audit/README.md``.
"""

__all__: list[str] = []
