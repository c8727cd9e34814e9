"""The kinds of target ``privonline check`` knows, one module per kind, and the one registry it
iterates (``--kind``, its help and defaults, the dispatch of ``run_check``).

A kind module ``audit/kinds/<name>.py`` defines ``KIND``, an instance of a subclass of
:class:`audit.kinds.base.Kind` (its protocol, claim, streams and tester, release records,
references and regret comparison).  Adding a kind is that module plus one line in :data:`KINDS`.
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import importlib

from audit.kinds.base import Kind

__all__ = ["KINDS", "by_name", "default", "names", "registered"]

KINDS: tuple[str, ...] = (
    "audit.kinds.linear",
    "audit.kinds.multi_armed",
    "audit.kinds.online_full",
    "audit.kinds.online_bandit",
    "audit.kinds.mechanism",
)
"""The module of every kind, in the order of ``--kind``'s choices."""


def registered() -> tuple[Kind, ...]:
    """Every registered kind (the ``KIND`` of each module of :data:`KINDS`)."""
    kinds = []
    for module in KINDS:
        kind = getattr(importlib.import_module(module), "KIND", None)
        if not isinstance(kind, Kind):
            raise ValueError(f"kind module {module!r} must define KIND, an audit.kinds.base.Kind")
        kinds.append(kind)
    return tuple(kinds)


def names() -> tuple[str, ...]:
    """The ``--kind`` name of every registered kind."""
    return tuple(kind.name for kind in registered())


def by_name(name: object) -> Kind:
    """The kind called ``name``; ``ValueError`` naming the choices."""
    for kind in registered():
        if kind.name == name:
            return kind
    raise ValueError(f"kind must be one of {', '.join(map(repr, names()))}, got {name!r}")


def default(pair: bool) -> Kind:
    """The kind of a target given with a pair (``pair``: a mechanism) or without one (a linear
    contextual policy): the first registered kind that takes a pair, or that does not."""
    return next(kind for kind in registered() if kind.takes_pair == pair)
