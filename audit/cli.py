"""The ``privonline`` command line.

Subcommands:

* ``privonline experiment ...`` -- the experiment runner of :mod:`reference.experiments`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from reference import experiments

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``privonline`` console script; returns the exit code."""
    args = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="privonline",
        description="Verified reference implementations of DP online learning, and their audits.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.add_parser(
        "experiment",
        help="run Algorithm 1 of Shariff & Sheffet on the App. D environment",
        add_help=False,
    )
    if not args or args[0] in ("-h", "--help") or args[0] not in sub.choices:
        parser.parse_args(args)  # prints help or an error and exits
        parser.print_help()
        return 2
    command, rest = args[0], args[1:]
    if command == "experiment":
        return experiments.main(rest, prog="privonline experiment")
    return 2  # pragma: no cover - unreachable, argparse rejected unknown commands


if __name__ == "__main__":
    raise SystemExit(main())
