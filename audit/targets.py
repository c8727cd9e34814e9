"""The target of ``privonline check``: a third-party implementation named ``module:attribute``,
imported (after ``--path``), built (a class or factory, with ``--target-kwargs``) and required to
satisfy the protocol of a kind of :mod:`audit.kinds`; its stated calibration.  What the target's
own code raises while it is imported or built is a :class:`TargetError` (the target's failure,
exit code 4), a name that does not exist a ``ValueError`` (the user's, exit code 2).
Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import importlib
import json
import math
import sys
import traceback
from collections.abc import Sequence
from typing import Any

import audit.kinds as registry
from audit.kinds.base import calling
from audit.protocols import NeighbouringPair
from audit.watchdog import Watch

__all__ = [
    "TargetError",
    "check_paths",
    "load_object",
    "load_pair",
    "load_target",
    "split_spec",
    "stated_calibration",
]


def stated_calibration(target: Any) -> dict[str, float] | None:
    """The ``epsilon`` and ``delta`` a target states as numeric attributes (either or both), or
    ``None``; a wrapper's inner target is read through."""
    inner = getattr(target, "inner", target)
    found = {}
    for key in ("epsilon", "delta"):
        value = getattr(inner, key, None)
        if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value):
            found[key] = float(value)
    return found or None


class TargetError(ValueError):
    """The target's own code raised while it was imported or built (a ``SyntaxError`` in its
    module, an exception at import or in its constructor): its failure, not the user's;
    ``privonline check`` reports it with exit code 4 and :attr:`traceback` in the report."""

    def __init__(self, message: str, traceback_text: str) -> None:
        super().__init__(message)
        self.traceback = traceback_text


def split_spec(name: str, spec: object) -> tuple[str, str]:
    """``(module, attribute)`` of a ``module:attribute`` spec; ``ValueError`` naming ``name``."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise ValueError(f"{name} must be 'module:attribute', got {spec!r}")
    module_name, attribute = spec.split(":")
    if not all(part.isidentifier() for part in module_name.split(".")) or not (
        attribute.isidentifier()
    ):
        raise ValueError(
            f"{name} must be 'module:attribute' with a dotted module name and an identifier, "
            f"got {spec!r}"
        )
    return module_name, attribute


def check_paths(paths: object) -> tuple[str, ...]:
    """``paths`` as a tuple of folder names (a bare string is refused, not split into letters)."""
    if isinstance(paths, str | bytes) or not isinstance(paths, Sequence):
        raise ValueError(f"paths must be a sequence of folder names, got {paths!r:.80}")
    for path in paths:
        if not isinstance(path, str):
            raise ValueError(f"paths must hold folder names (str), got {path!r:.80}")
    return tuple(paths)


def _module_missing(error: ModuleNotFoundError, module_name: str) -> bool:
    """Whether ``error`` says the named module itself (or a package on its path) does not exist,
    rather than something its code imports."""
    parts = module_name.split(".")
    return error.name in {".".join(parts[: i + 1]) for i in range(len(parts))}


def load_object(spec: str, paths: Sequence[str] = (), watch: Watch | None = None) -> Any:
    """Import ``module:attribute`` after prepending ``paths`` to ``sys.path``.

    A module that does not exist, or has no such attribute, is a ``ValueError``; any exception
    its code raises while it is imported (``SyntaxError``, ``RuntimeError``, ``SystemExit``, a
    module *it* imports missing) is a :class:`TargetError` carrying the traceback.  ``watch``
    marks the import as one call of the target."""
    module_name, attribute = split_spec("target", spec)
    for path in reversed(check_paths(paths)):
        if path not in sys.path:
            sys.path.insert(0, path)
    try:
        with calling(watch, f"import of module {module_name!r}"):
            module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if not _module_missing(error, module_name):
            raise TargetError(
                f"target module {module_name!r} raised while it was imported: {error}",
                traceback.format_exc(),
            ) from error
        raise ValueError(f"target module {module_name!r} cannot be imported: {error}") from error
    except (Exception, SystemExit) as error:
        raise TargetError(
            f"target module {module_name!r} raised while it was imported: "
            f"{type(error).__name__}: {error}",
            traceback.format_exc(),
        ) from error
    with calling(watch, f"lookup of {attribute!r} in module {module_name!r}"):
        if not hasattr(module, attribute):
            raise ValueError(f"target module {module_name!r} has no attribute {attribute!r}")
        return getattr(module, attribute)


def load_target(
    spec: str,
    paths: Sequence[str] = (),
    kwargs: dict[str, Any] | None = None,
    watch: Watch | None = None,
) -> Any:
    """The target named ``module:attribute``, of a kind of :mod:`audit.kinds` (it satisfies the
    protocol of one); a class or factory is called first, with ``kwargs`` (``--target-kwargs``).
    A class is always instantiated: the class object itself has the protocol's methods as plain
    functions, so it would pass a runtime protocol check.  ``kwargs`` for a target that is
    already an instance is a ``ValueError``; an exception other than ``TypeError`` (wrong
    arguments) raised by the constructor is a :class:`TargetError`."""
    kinds = registry.registered()
    protocols = tuple(dict.fromkeys(k.protocol for k in kinds))
    target: Any = load_object(spec, paths, watch)
    kwargs = {} if kwargs is None else dict(kwargs)
    with calling(watch, f"protocol check of {spec!r}"):
        build = isinstance(target, type) or (not isinstance(target, protocols) and callable(target))
    if build:
        try:
            with calling(watch, f"construction of {spec!r}"):
                target = target(**kwargs)
        except TypeError as err:
            given = f"with --target-kwargs {json.dumps(kwargs)}" if kwargs else "with no arguments"
            raise ValueError(
                f"target {spec!r} cannot be constructed {given}: {err}; pass its constructor "
                "arguments as a JSON object with --target-kwargs"
            ) from err
        except (Exception, SystemExit) as err:
            raise TargetError(
                f"target {spec!r} raised while it was constructed: {type(err).__name__}: {err}",
                traceback.format_exc(),
            ) from err
    elif kwargs:
        raise ValueError(
            f"target {spec!r} is already an instance: --target-kwargs applies only to a class "
            "or factory"
        )
    with calling(watch, f"protocol check of {spec!r}"):
        satisfied = isinstance(target, protocols)
    if not satisfied:
        texts = dict.fromkeys(k.protocol_text for k in kinds)
        raise ValueError(f"target {spec!r} must satisfy {' or '.join(texts)}")
    return target


def load_pair(
    spec: str, paths: Sequence[str] = (), watch: Watch | None = None
) -> NeighbouringPair[Any]:
    """The :class:`~audit.protocols.NeighbouringPair` named ``module:attribute``."""
    split_spec("pair", spec)
    pair = load_object(spec, paths, watch)
    if not isinstance(pair, NeighbouringPair):
        raise ValueError(f"pair {spec!r} must be an audit.protocols.NeighbouringPair")
    return pair
