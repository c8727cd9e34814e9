"""Proof-note freshness: a note must be re-read whenever the code it covers changes.

Every proof note opens with a ``Covers:`` block naming the code it explains and a
``Last re-read against code: YYYY-MM-DD`` line; ``proofs_notes/freshness.json`` records the SHA-256
of each covered object's source as of the last re-read.  :func:`check_freshness` reports every
covered object whose source changed since, every ``Covers`` entry that does not resolve, and every
note whose lock disagrees with its ``Covers`` block; ``python -m audit.tools.freshness --update
NOTE`` records a re-read.  The grammar of ``Covers`` and what is hashed are in the proof note.

Proof note: ``proofs_notes/audit/README.md``.
"""

from __future__ import annotations

import argparse
import ast
import datetime as dt
import hashlib
import re
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeAlias

from reference.files import DamagedFileError, atomic_write_text, read_json, write_json

__all__ = [
    "LOCK_PATH",
    "NOTES_DIR",
    "SITE_DIR",
    "CoverEntry",
    "FreshnessError",
    "NoteCovers",
    "check_freshness",
    "compute_note_hashes",
    "find_repo_root",
    "load_lock",
    "main",
    "note_paths",
    "parse_note",
    "resolve_tokens",
    "source_hash",
    "source_segment",
    "tracked_notes",
    "update_notes",
    "write_lock",
]

NOTES_DIR = "proofs_notes"
"""Folder of the proof notes, relative to the repository root."""

LOCK_PATH = "proofs_notes/freshness.json"
"""The lock file, relative to the repository root: note -> {covered object -> SHA-256}."""

SITE_DIR = "proofs_notes/site_src"
"""Sources of the documentation site (not proof notes; never tracked)."""

_COVERS_PREFIX = "Covers:"
_DATE_RE = re.compile(r"^Last re-read against code:\s*(?P<date>\S.*?)\s*$")
_TOKEN_RE = re.compile(r"`([^`]+)`")
_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
_QUALNAME_RE = re.compile(rf"^{_IDENT}(\.{_IDENT})*$")
_PATH_RE = re.compile(r"^[A-Za-z0-9_./-]+\.py$")

_Cache: TypeAlias = dict[str, tuple[ast.Module, list[str]]]
"""Parsed modules (syntax tree and lines) by repository-relative path."""


class FreshnessError(ValueError):
    """A note cannot be tracked: no ``Covers`` block, or an entry that does not resolve to code."""


@dataclass(frozen=True)
class CoverEntry:
    """One back-quoted token of a ``Covers`` block and what it resolved to.

    ``key`` is ``"path/file.py::Qual.name"`` (or ``"path/file.py"`` for a whole module), with the
    path relative to the repository root; ``None`` when the token does not resolve, and then
    ``error`` says why.
    """

    token: str
    key: str | None
    error: str | None = None


@dataclass(frozen=True)
class NoteCovers:
    """The tracked header of one proof note.

    ``tokens`` are the back-quoted tokens of the ``Covers`` block in order; ``reread_date`` is the
    text after ``Last re-read against code:``; ``date_line`` is its 0-based line index.
    """

    note: str
    tokens: tuple[str, ...]
    reread_date: str
    date_line: int


def find_repo_root(start: Path | None = None) -> Path:
    """The nearest ancestor of ``start`` (default: this file) holding ``pyproject.toml`` and ``proofs_notes/``."""
    here = (start if start is not None else Path(__file__)).resolve()
    for candidate in (here, *here.parents):
        if (candidate / "pyproject.toml").is_file() and (candidate / NOTES_DIR).is_dir():
            return candidate
    raise FreshnessError(f"no repository root (pyproject.toml and {NOTES_DIR}/) above {here}")


def note_paths(root: Path) -> list[str]:
    """Every Markdown file under ``proofs_notes/`` except the site sources, as sorted posix paths."""
    notes_dir = root / NOTES_DIR
    site_dir = root / SITE_DIR
    out = []
    for path in notes_dir.rglob("*.md"):
        if site_dir in path.parents:
            continue
        out.append(path.relative_to(root).as_posix())
    return sorted(out)


def _is_readme(note: str) -> bool:
    return note.rsplit("/", 1)[-1].lower() == "readme.md"


def parse_note(root: Path, note: str) -> NoteCovers | None:
    """The ``Covers`` block of ``note`` (a path relative to ``root``), or ``None`` if it has none.

    Only a ``Covers:`` line before the first ``## `` heading and outside fenced code counts (the
    README's template is not a note).  A ``Covers`` block must be followed by a
    ``Last re-read against code:`` line; a ``Covers`` line without one raises
    :class:`FreshnessError`.
    """
    lines = (root / note).read_text(encoding="utf-8").splitlines()
    in_fence = False
    start: int | None = None
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        if line.startswith("## "):
            break
        if line.startswith(_COVERS_PREFIX):
            start = i
            break
    if start is None:
        return None
    for j in range(start, len(lines)):
        match = _DATE_RE.match(lines[j])
        if match is not None:
            block = "\n".join(lines[start:j])[len(_COVERS_PREFIX) :]
            tokens = tuple(t.strip() for t in _TOKEN_RE.findall(block))
            return NoteCovers(note, tokens, match.group("date"), j)
        if lines[j].startswith("## ") or (j > start and not lines[j].strip()):
            break
    raise FreshnessError(
        f"{note}: the Covers block is not followed by a 'Last re-read against code:' line"
    )


def _resolve_path(root: Path, raw: str, current: str | None) -> str | None:
    """The repository-relative posix path that ``raw`` names, or ``None``."""
    candidates = [Path(raw)]
    if current is not None:
        directory = Path(current).parent
        candidates += [d / raw for d in (directory, *directory.parents)]
    for candidate in candidates:
        if (root / candidate).is_file():
            return candidate.as_posix()
    return None


def _module_tree(root: Path, path: str, cache: _Cache) -> tuple[ast.Module, list[str]]:
    if path not in cache:
        text = (root / path).read_text(encoding="utf-8")
        cache[path] = (ast.parse(text, filename=path), text.splitlines())
    return cache[path]


def _named_nodes(body: Sequence[ast.stmt], name: str) -> list[ast.stmt]:
    """Statements of ``body`` that define ``name``: def, class or a plain/annotated assignment."""
    found: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if stmt.name == name:
                found.append(stmt)
        elif isinstance(stmt, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
                found.append(stmt)
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id == name
        ):
            found.append(stmt)
    return found


def _lookup(tree: ast.Module, qualname: str) -> list[ast.stmt]:
    """The statements defining the dotted ``qualname`` in ``tree`` (empty if there are none)."""
    body: Sequence[ast.stmt] = tree.body
    nodes: list[ast.stmt] = []
    for depth, part in enumerate(qualname.split(".")):
        if depth > 0:
            classes = [n for n in nodes if isinstance(n, ast.ClassDef)]
            if len(classes) != 1:
                return []
            body = classes[0].body
        nodes = _named_nodes(body, part)
        if not nodes:
            return []
    return nodes


def _segment(lines: list[str], node: ast.stmt) -> str:
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(d.lineno for d in decorators)])
    last = node.end_lineno if node.end_lineno is not None else node.lineno
    return "\n".join(lines[first - 1 : last]) + "\n"


def source_segment(root: Path, key: str, cache: _Cache | None = None) -> str:
    """The source text that ``key`` (``path.py::Qual.name`` or ``path.py``) hashes.

    ``cache`` (optional) keeps parsed modules between calls.  Raises :class:`FreshnessError` if
    the key does not resolve.
    """
    path, sep, qualname = key.partition("::")
    if not (root / path).is_file():
        raise FreshnessError(f"{key}: no file {path}")
    if not sep:
        return (root / path).read_text(encoding="utf-8").replace("\r\n", "\n")
    tree, lines = _module_tree(root, path, {} if cache is None else cache)
    nodes = _lookup(tree, qualname)
    if not nodes:
        raise FreshnessError(f"{key}: {qualname} is not defined in {path}")
    return "".join(_segment(lines, node) for node in nodes)


def source_hash(root: Path, key: str, cache: _Cache | None = None) -> str:
    """SHA-256 (hex) of :func:`source_segment` encoded as UTF-8."""
    return hashlib.sha256(source_segment(root, key, cache).encode("utf-8")).hexdigest()


def resolve_tokens(
    root: Path, tokens: Iterable[str], cache: _Cache | None = None
) -> list[CoverEntry]:
    """Resolve the ``Covers`` tokens in order, following the grammar of the module docstring."""
    if cache is None:
        cache = {}
    current: str | None = None
    out: list[CoverEntry] = []
    for token in tokens:
        raw_path, sep, qualname = token.partition("::")
        if sep or _PATH_RE.match(token):
            if not _PATH_RE.match(raw_path):
                out.append(CoverEntry(token, None, "not a code reference"))
                continue
            path = _resolve_path(root, raw_path, current)
            if path is None:
                out.append(CoverEntry(token, None, f"no file {raw_path}"))
                continue
            current = path
            if not sep:
                out.append(CoverEntry(token, path))
                continue
        elif _QUALNAME_RE.match(token):
            if current is None:
                out.append(CoverEntry(token, None, "a bare name needs a file before it"))
                continue
            qualname = token
        else:
            out.append(CoverEntry(token, None, "not a code reference"))
            continue
        if not _QUALNAME_RE.match(qualname):
            out.append(CoverEntry(token, None, "not a code reference"))
            continue
        try:
            tree, _ = _module_tree(root, current, cache)
        except SyntaxError as exc:
            out.append(CoverEntry(token, None, f"{current} does not parse: {exc}"))
            continue
        if _lookup(tree, qualname):
            out.append(CoverEntry(token, f"{current}::{qualname}"))
        else:
            out.append(CoverEntry(token, None, f"{qualname} is not defined in {current}"))
    return out


def compute_note_hashes(root: Path, note: str) -> dict[str, str]:
    """``{key: sha256}`` for every object the note covers; :class:`FreshnessError` if one does not resolve."""
    covers = parse_note(root, note)
    if covers is None:
        raise FreshnessError(f"{note}: no 'Covers:' line")
    if not covers.tokens:
        raise FreshnessError(f"{note}: the Covers block names no code")
    cache: _Cache = {}
    entries = resolve_tokens(root, covers.tokens, cache)
    bad = [e for e in entries if e.key is None]
    if bad:
        raise FreshnessError(
            "; ".join(f"{note}: Covers entry `{e.token}` does not resolve ({e.error})" for e in bad)
        )
    return {e.key: source_hash(root, e.key, cache) for e in entries if e.key is not None}


def load_lock(root: Path) -> dict[str, dict[str, str]]:
    """The lock file as ``{note: {key: sha256}}`` (empty if there is no lock file)."""
    path = root / LOCK_PATH
    if not path.is_file():
        return {}
    try:
        data = read_json(path)
    except DamagedFileError as err:
        raise FreshnessError(
            f"{LOCK_PATH} is damaged ({err.reason}); restore it from version control "
            f"(git checkout -- {LOCK_PATH}) and run again"
        ) from err
    if not isinstance(data, dict):
        raise FreshnessError(f"{LOCK_PATH}: expected a JSON object")
    lock: dict[str, dict[str, str]] = {}
    for note, entries in data.items():
        if not isinstance(entries, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in entries.items()
        ):
            raise FreshnessError(f"{LOCK_PATH}: entry {note!r} is not a {{name: sha256}} object")
        lock[str(note)] = dict(entries)
    return lock


def write_lock(root: Path, lock: dict[str, dict[str, str]]) -> None:
    """Write the lock file with sorted keys (stable diffs)."""
    ordered = {note: dict(sorted(lock[note].items())) for note in sorted(lock)}
    write_json(root / LOCK_PATH, ordered, indent=2)


def tracked_notes(root: Path) -> tuple[list[str], list[str]]:
    """``(tracked, problems)``: notes with a ``Covers`` block, and notes that should have one.

    Every note except a README must have a ``Covers`` block; a README may have one.
    """
    tracked: list[str] = []
    problems: list[str] = []
    for note in note_paths(root):
        try:
            covers = parse_note(root, note)
        except FreshnessError as exc:
            problems.append(str(exc))
            continue
        if covers is not None:
            tracked.append(note)
        elif not _is_readme(note):
            problems.append(
                f"{note}: no 'Covers:' line (every proof note names the code it covers)"
            )
    return tracked, problems


def check_freshness(root: Path) -> list[str]:
    """Every freshness problem of the repository at ``root``, one message each (empty = fresh).

    A message names the note and the covered object: a changed source (re-read the note, then
    ``python -m audit.tools.freshness --update NOTE``), an entry that does not resolve, a ``Covers``
    block that disagrees with the lock, or a lock entry for a note that no longer exists.
    """
    lock = load_lock(root)
    tracked, problems = tracked_notes(root)
    cache: _Cache = {}
    for note in tracked:
        covers = parse_note(root, note)
        assert covers is not None
        entries = resolve_tokens(root, covers.tokens, cache)
        if not entries:
            problems.append(f"{note}: the Covers block names no code")
        for entry in entries:
            if entry.key is None:
                problems.append(
                    f"{note}: Covers entry `{entry.token}` does not resolve ({entry.error})"
                )
        keys = {e.key for e in entries if e.key is not None}
        locked = lock.get(note)
        if locked is None:
            problems.append(
                f"{note}: not in {LOCK_PATH}; run `python -m audit.tools.freshness --update {note}`"
            )
            continue
        for key in sorted(keys - locked.keys()):
            problems.append(
                f"{note}: covers {key}, which the lock does not record; re-read the note and run "
                f"`python -m audit.tools.freshness --update {note}`"
            )
        for key in sorted(locked.keys() - keys):
            problems.append(
                f"{note}: the lock records {key}, which the Covers block no longer names; run "
                f"`python -m audit.tools.freshness --update {note}`"
            )
        for key in sorted(keys & locked.keys()):
            if source_hash(root, key, cache) != locked[key]:
                problems.append(
                    f"{note}: {key} changed since the note was last re-read; re-read the note "
                    f"against the code, then run `python -m audit.tools.freshness --update {note}`"
                )
    for note in sorted(lock.keys() - set(tracked)):
        problems.append(f"{LOCK_PATH}: records {note}, which is not a tracked note")
    return problems


def _normalise_note(root: Path, note: str) -> str:
    path = Path(note)
    absolute = path if path.is_absolute() else (Path.cwd() / path)
    try:
        return absolute.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        if (root / note).is_file():
            return Path(note).as_posix()
        raise FreshnessError(f"{note}: not a file under {root}") from None


def update_notes(root: Path, notes: Iterable[str], reread_date: dt.date | None) -> None:
    """Record that ``notes`` were re-read: rewrite their lock entries from the current code.

    With a ``reread_date`` each note's ``Last re-read against code:`` line is set to it (the note
    file is rewritten); with ``None`` only the lock changes.  Raises :class:`FreshnessError`, and
    writes nothing, if an entry of any of the notes does not resolve.
    """
    lock = load_lock(root)
    updates: dict[str, dict[str, str]] = {}
    for raw in notes:
        note = _normalise_note(root, raw)
        updates[note] = compute_note_hashes(root, note)
    for note, hashes in updates.items():
        lock[note] = hashes
        if reread_date is not None:
            covers = parse_note(root, note)
            assert covers is not None
            path = root / note
            text = path.read_text(encoding="utf-8")
            lines = text.splitlines(keepends=True)
            ending = "\n" if lines[covers.date_line].endswith("\n") else ""
            lines[covers.date_line] = (
                f"Last re-read against code: {reread_date.isoformat()}{ending}"
            )
            atomic_write_text(path, "".join(lines))
    write_lock(root, lock)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m audit.tools.freshness [--update NOTE ...] [--root DIR]``: check, or record re-reads."""
    parser = argparse.ArgumentParser(
        prog="python -m audit.tools.freshness",
        description="Check that the proof notes were re-read since the code they cover changed.",
    )
    parser.add_argument(
        "--update",
        nargs="+",
        metavar="NOTE",
        help="record that NOTE was re-read: refresh its lock entries and its 'Last re-read' date",
    )
    parser.add_argument(
        "--date",
        type=dt.date.fromisoformat,
        default=None,
        help="the re-read date to record (YYYY-MM-DD; default: today)",
    )
    parser.add_argument("--root", type=Path, default=None, help="repository root")
    args = parser.parse_args(argv)
    root = args.root.resolve() if args.root is not None else find_repo_root(Path.cwd())
    if args.update:
        reread = args.date if args.date is not None else dt.date.today()
        try:
            update_notes(root, args.update, reread)
        except FreshnessError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"recorded re-read on {reread.isoformat()}: {', '.join(args.update)}")
        return 0
    try:
        problems = check_freshness(root)
    except FreshnessError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} freshness problem(s)", file=sys.stderr)
        return 1
    print("all proof notes are fresh")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
