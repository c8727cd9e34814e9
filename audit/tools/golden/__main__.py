"""``python -m audit.tools.golden``: check (default) or ``--rebuild`` the golden vectors
(:func:`audit.tools.golden.cli.main`).

Proof note: ``proofs_notes/audit/README.md``.
"""

from audit.tools.golden.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
