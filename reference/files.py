"""Every file privonline writes goes through here: atomically, as strict JSON, into checked folders.

* Atomic writes: unique temporary file in the target's folder, flushed, ``fsync``-ed, then
  :func:`os.replace`; a reader sees the old file or the new one, never a half-written one.
* Strict JSON: :func:`to_jsonable` writes ``inf``, ``-inf``, ``nan`` as strings; :func:`dumps_json`
  refuses anything else that is not JSON.
* Damaged files: :func:`read_json` and :func:`load_npz` raise :class:`DamagedFileError` naming
  the file.
* Output folders: :func:`prepare_output_dir` checks the folder is writable before any computation.

Proof note: ``proofs_notes/audit/files_and_seeds.md``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib.metadata
import json
import math
import os
import subprocess
import tempfile
import warnings
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import numpy as np

__all__ = [
    "DamagedFileError",
    "DamagedFileWarning",
    "atomic_savefig",
    "atomic_savez",
    "atomic_write_bytes",
    "atomic_write_text",
    "dumps_json",
    "load_npz",
    "prepare_output_dir",
    "produced_by",
    "read_json",
    "record_or_refuse",
    "source_revision",
    "to_jsonable",
    "warn_damaged",
    "write_json",
]


class DamagedFileError(ValueError):
    """A file privonline wrote earlier is empty, truncated or unreadable; the message names it."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"{path} is damaged ({reason}); it was probably left by an interrupted run: "
            "delete it and run again"
        )


class DamagedFileWarning(UserWarning):
    """A damaged file that can be recomputed from its seed is being recomputed (and replaced)."""


def warn_damaged(error: DamagedFileError) -> None:
    """Say that the file named by ``error`` is recomputed (the caller then overwrites it)."""
    warnings.warn(
        f"{error.path} is damaged ({error.reason}); recomputing it",
        DamagedFileWarning,
        stacklevel=3,
    )


def _fsync_dir(folder: Path) -> None:
    """Make a rename in ``folder`` durable where the platform allows it (best effort)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once, at import (single-threaded): reading the umask means setting it for a moment, which
# must not happen while another thread of a run creates a file.
_UMASK = _read_umask()


def _mkstemp_like_open(path: Path) -> tuple[int, str]:
    """A unique temporary file beside ``path`` with the permissions ``open(path, "w")`` would give
    (``0o666`` less the umask; ``mkstemp`` alone makes it owner-only)."""
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with contextlib.suppress(OSError, AttributeError):  # no fchmod on some platforms
        os.fchmod(fd, 0o666 & ~_UMASK)
    return fd, tmp_name


@contextlib.contextmanager
def _atomic_handle(path: Path) -> Iterator[IO[bytes]]:
    """A binary handle on a unique temporary file beside ``path``; on success it replaces
    ``path``, on error it is removed and ``path`` is untouched."""
    path = Path(path)
    fd, tmp_name = _mkstemp_like_open(path)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (module docstring)."""
    with _atomic_handle(path) as handle:
        handle.write(data)


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (module docstring)."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_savez(path: Path, arrays: dict[str, Any]) -> None:
    """:func:`numpy.savez` of ``arrays`` to ``path`` (which should end in ``.npz``), atomically."""
    with _atomic_handle(path) as handle:
        np.savez(handle, **arrays)


def atomic_savefig(fig: Any, path: Path, **kwargs: Any) -> None:
    """``fig.savefig(path, **kwargs)`` atomically; the format is taken from ``path``'s suffix."""
    kwargs.setdefault("format", Path(path).suffix.lstrip(".") or "png")
    with _atomic_handle(path) as handle:
        fig.savefig(handle, **kwargs)


def to_jsonable(value: Any) -> Any:
    """Recursively convert dataclasses, tuples, numpy scalars and arrays and non-finite floats into
    JSON values.

    ``inf``/``-inf``/``nan`` become the strings ``"inf"``, ``"-inf"``, ``"nan"`` (so every file is
    strict JSON, and ``float(s)`` reads them back); paths become strings.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return value
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, np.generic):  # numpy scalars
        return to_jsonable(value.item())
    return value


def dumps_json(value: Any, *, indent: int | None = 2, sort_keys: bool = False) -> str:
    """``value`` as strict JSON text (:func:`to_jsonable` first; ``NaN``/``Infinity`` never
    appear; anything else that is not JSON raises ``TypeError``)."""
    return json.dumps(to_jsonable(value), indent=indent, sort_keys=sort_keys, allow_nan=False)


def write_json(path: Path, value: Any, *, indent: int | None = 2, sort_keys: bool = False) -> None:
    """Write ``value`` to ``path`` as strict JSON (:func:`dumps_json`), atomically."""
    atomic_write_text(path, dumps_json(value, indent=indent, sort_keys=sort_keys) + "\n")


def _reject_constant(token: str) -> Any:
    raise ValueError(f"non-standard JSON token {token}")


def read_json(path: Path) -> Any:
    """The JSON value stored in ``path``; :class:`DamagedFileError` if it is empty, truncated or
    not strict JSON (``FileNotFoundError`` if it does not exist)."""
    path = Path(path)
    text = path.read_bytes()
    if not text.strip():
        raise DamagedFileError(path, "empty file")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DamagedFileError(path, f"not valid JSON: {exc}") from exc


def load_npz(path: Path, keys: Callable[[list[str]], bool] | None = None) -> dict[str, Any]:
    """Every array stored in the ``.npz`` file ``path``, loaded into memory.

    Raises :class:`DamagedFileError` if the file is empty, truncated or not an ``.npz`` archive,
    or if ``keys`` (a predicate on the stored names) rejects it.
    """
    path = Path(path)
    if path.stat().st_size == 0:
        raise DamagedFileError(path, "empty file")
    try:
        with np.load(path, allow_pickle=False) as data:
            names = list(data.files)
            if keys is not None and not keys(names):
                raise DamagedFileError(path, f"unexpected contents {sorted(names)}")
            return {name: np.asarray(data[name]) for name in names}
    except DamagedFileError:
        raise
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as exc:
        raise DamagedFileError(path, f"not a readable .npz archive: {exc}") from exc


def record_or_refuse(path: Path, record: Any, *, holds: str, folder_name: str = "--out") -> None:
    """Claim a folder for one configuration: write ``record`` to ``path`` (strict JSON) if it is
    absent, else require the stored record to equal it.

    The first writer wins atomically (a complete temporary file is hard-linked to ``path``, which
    fails if another run created it first), so two runs with different configurations can never
    both think they own the folder.  A different stored record raises ``ValueError`` ("<folder>
    holds <holds> of another configuration"); a damaged one raises ``ValueError`` with
    instructions, since what the folder holds can then no longer be matched to a configuration.
    """
    path = Path(path)
    now = json.loads(dumps_json(record))
    if not path.exists():
        fd, tmp_name = _mkstemp_like_open(path)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write((dumps_json(now) + "\n").encode("utf-8"))
                handle.flush()
                os.fsync(handle.fileno())
            with contextlib.suppress(FileExistsError):
                os.link(tmp_name, path)
        finally:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    try:
        stored = read_json(path)
    except DamagedFileError as err:
        # Not "delete the record": without it, what the folder holds could be mixed with results
        # of another configuration (block files carry no configuration of their own).
        raise ValueError(
            f"{path} is damaged ({err.reason}); the {holds} in {path.parent} cannot be matched to "
            f"a configuration without it: use a fresh {folder_name} folder, or delete this folder"
        ) from err
    if stored != now:
        raise ValueError(
            f"{folder_name} {path.parent} holds {holds} of another configuration (stored: "
            f"{stored}; now: {now}); use a fresh {folder_name} folder"
        )


def prepare_output_dir(path: Path, name: str = "--out") -> Path:
    """Create ``path`` (and its parents) if needed and check it is a writable folder.

    Called before any computation starts, so a bad output folder fails in a second with a message
    naming the user's argument ``name`` instead of after an hour of work.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{name} must be a folder, got {str(path)!r}, which is a file")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=path, prefix=".privonline-write-check.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ValueError(f"{name} must be a writable folder, got {str(path)!r}: {exc}") from exc
    return path


@functools.cache
def source_revision() -> str:
    """``git describe --always --dirty`` of the checkout holding this package (``-dirty`` when it
    has uncommitted changes), or ``"unknown"`` (an installed copy, or no git).  Computed once per
    process."""
    root = Path(__file__).resolve().parents[1]
    try:
        done = subprocess.run(
            ["git", "describe", "--always", "--dirty", "--abbrev=12"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def produced_by() -> dict[str, str]:
    """What made a report: ``{"privonline": version, "revision": source_revision()}``, the
    ``produced_by`` field of every JSON report (``"not installed"`` for a version-less copy)."""
    try:
        version = importlib.metadata.version("privonline")
    except importlib.metadata.PackageNotFoundError:
        version = "not installed"
    return {"privonline": version, "revision": source_revision()}
