"""``python -m audit.tools.golden``: check (default) or ``--rebuild`` the golden vectors
(:func:`audit.tools.golden.cli.main`); ``compare`` compares a third-party function with them
(:func:`audit.tools.golden.third_party.main`).

Proof note: ``proofs_notes/audit/README.md``.
"""

import sys

from audit.tools.golden import third_party
from audit.tools.golden.cli import main

if __name__ == "__main__":
    if sys.argv[1:2] == ["compare"]:
        raise SystemExit(
            third_party.main(sys.argv[2:], prog="python -m audit.tools.golden compare")
        )
    raise SystemExit(main())
