"""Proof-note freshness: every note was re-read since the code it covers last changed.

The first test is the check itself: it fails, naming the note and the function, when a covered
function's source differs from ``proofs_notes/freshness.json`` or a ``Covers`` entry does not
resolve.  The others show that the check can fail (on temporary copies of the repository) and pin
the ``Covers`` grammar and the hashed source against independent derivations (``inspect``,
``hashlib`` on hand-written text).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import inspect
import json
import shutil
from pathlib import Path

import pytest

import reference.tree
from audit.tools.freshness import (
    LOCK_PATH,
    FreshnessError,
    check_freshness,
    find_repo_root,
    load_lock,
    main,
    parse_note,
    resolve_tokens,
    source_hash,
    source_segment,
    tracked_notes,
    update_notes,
)

REPO = find_repo_root(Path(__file__))
TREE_NOTE = "proofs_notes/shariff_sheffet/tree_mechanism.md"


def test_every_proof_note_is_fresh() -> None:
    problems = check_freshness(REPO)
    assert not problems, "stale or unresolved proof notes:\n" + "\n".join(problems)


def test_every_proof_note_is_tracked() -> None:
    tracked, problems = tracked_notes(REPO)
    assert not problems
    notes = {
        p.relative_to(REPO).as_posix()
        for p in (REPO / "proofs_notes").glob("*/*.md")
        if p.name != "README.md" and p.parent.name != "site_src"
    }
    assert notes, "no proof notes found"
    assert notes <= set(tracked)
    assert set(load_lock(REPO)) == set(tracked)


def _copy_repo(tmp_path: Path) -> Path:
    """A temporary copy of the parts of the repository the check reads, with a fresh lock."""
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("reference", "audit", "proofs_notes"):
        shutil.copytree(REPO / folder, root / folder, ignore=ignore)
    # Start from a fresh lock, whatever the state of the working tree being copied.
    update_notes(root, tracked_notes(root)[0], None)
    return root


def test_changed_function_is_detected_and_update_clears_it(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    assert check_freshness(root) == []
    tree_py = root / "reference" / "tree.py"
    text = tree_py.read_text(encoding="utf-8")
    old = "    return 1 + (n - 1).bit_length()\n"
    assert text.count(old) == 1
    tree_py.write_text(text.replace(old, "    return 2 + (n - 1).bit_length()\n"), "utf-8")

    problems = check_freshness(root)
    assert problems, "a changed covered function went unnoticed"
    assert all("reference/tree.py::tree_depth changed" in p for p in problems)
    noted = {p.split(":", 1)[0] for p in problems}
    assert TREE_NOTE in noted
    # Every note that names tree_depth is flagged, and only those.
    expected = {
        note
        for note, entries in load_lock(root).items()
        if "reference/tree.py::tree_depth" in entries
    }
    assert noted == expected
    assert main(["--root", str(root)]) == 1

    # The re-read: the lock entry and the date are refreshed, nothing else in the note changes.
    before = (root / TREE_NOTE).read_text(encoding="utf-8").splitlines()
    for note in sorted(noted):
        assert main(["--root", str(root), "--update", note, "--date", "2031-02-03"]) == 0
    after = (root / TREE_NOTE).read_text(encoding="utf-8").splitlines()
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    assert len(changed) == 1
    assert changed[0][1] == "Last re-read against code: 2031-02-03"
    assert check_freshness(root) == []
    assert main(["--root", str(root)]) == 0


def test_unrelated_edit_leaves_notes_fresh(tmp_path: Path) -> None:
    """A blank line and a comment between functions change no covered object's hash."""
    root = _copy_repo(tmp_path)
    tree_py = root / "reference" / "tree.py"
    text = tree_py.read_text(encoding="utf-8")
    marker = "\n\ndef node_leaf_range("
    assert text.count(marker) == 1
    tree_py.write_text(text.replace(marker, "\n\n# an unrelated comment\n" + marker[2:]), "utf-8")
    assert check_freshness(root) == []


def test_unresolved_entry_and_stale_lock_are_reported(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    note = root / TREE_NOTE
    text = note.read_text(encoding="utf-8")
    old = "`tree.py::Release`"
    assert text.count(old) == 1
    note.write_text(text.replace(old, "`tree.py::Releases`"), encoding="utf-8")
    problems = check_freshness(root)
    assert any(
        p.startswith(TREE_NOTE) and "`tree.py::Releases` does not resolve" in p for p in problems
    )
    # The lock still records the old name: the Covers block and the lock disagree.
    assert any(
        "reference/tree.py::Release, which the Covers block no longer names" in p for p in problems
    )
    with pytest.raises(FreshnessError, match="Releases"):
        update_notes(root, [TREE_NOTE], dt.date(2031, 1, 1))
    # Nothing was written by the failed update.
    assert "reference/tree.py::Release" in load_lock(root)[TREE_NOTE]


def test_missing_lock_entry_and_unknown_note_are_reported(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    lock = json.loads((root / LOCK_PATH).read_text(encoding="utf-8"))
    del lock[TREE_NOTE]
    lock["proofs_notes/gone.md"] = {}
    (root / LOCK_PATH).write_text(json.dumps(lock), encoding="utf-8")
    problems = check_freshness(root)
    assert any(p.startswith(f"{TREE_NOTE}: not in {LOCK_PATH}") for p in problems)
    assert any("proofs_notes/gone.md" in p for p in problems)


def _toy_repo(tmp_path: Path, covers: str) -> Path:
    root = tmp_path / "toy"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "proofs_notes" / "topic").mkdir(parents=True)
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    (root / "pkg" / "mod.py").write_text(
        "import functools\n"
        "\n"
        "LIMIT: int = 3\n"
        "\n"
        "@functools.cache\n"
        "def f(x: int) -> int:\n"
        "    return x + 1\n"
        "\n"
        "class C:\n"
        "    def m(self) -> int:\n"
        "        return 2\n",
        encoding="utf-8",
    )
    (root / "pkg" / "sub" / "other.py").write_text("def g() -> None:\n    pass\n", "utf-8")
    (root / "proofs_notes" / "README.md").write_text(
        "# Index\n\n## Template\n\n```markdown\nCovers: `<file>::<function>`\n```\n", "utf-8"
    )
    (root / "proofs_notes" / "topic" / "note.md").write_text(
        f"# A note\n\nCovers: {covers}\nLast re-read against code: 2026-01-01\n\n## Statement\n",
        encoding="utf-8",
    )
    return root


def test_covers_grammar(tmp_path: Path) -> None:
    root = _toy_repo(
        tmp_path,
        "`pkg/mod.py::f` (a decorated function), `C.m`, `LIMIT`,\n"
        "`sub/other.py::g`, `mod.py::C`; `pkg/sub/other.py`",
    )
    covers = parse_note(root, "proofs_notes/topic/note.md")
    assert covers is not None
    assert covers.reread_date == "2026-01-01"
    keys = [e.key for e in resolve_tokens(root, covers.tokens)]
    assert keys == [
        "pkg/mod.py::f",
        "pkg/mod.py::C.m",
        "pkg/mod.py::LIMIT",
        "pkg/sub/other.py::g",  # relative to the previous file's directory
        "pkg/mod.py::C",  # relative to a parent of the previous file's directory
        "pkg/sub/other.py",
    ]
    # The README's template (inside a code fence, after a heading) is not a note.
    assert parse_note(root, "proofs_notes/README.md") is None
    assert tracked_notes(root) == (["proofs_notes/topic/note.md"], [])


def test_hashed_source_is_the_definition_with_its_decorators(tmp_path: Path) -> None:
    root = _toy_repo(tmp_path, "`pkg/mod.py::f`")
    expected = "@functools.cache\ndef f(x: int) -> int:\n    return x + 1\n"
    assert source_segment(root, "pkg/mod.py::f") == expected
    assert source_hash(root, "pkg/mod.py::f") == hashlib.sha256(expected.encode()).hexdigest()
    assert source_segment(root, "pkg/mod.py::C.m") == "    def m(self) -> int:\n        return 2\n"
    assert source_segment(root, "pkg/mod.py::LIMIT") == "LIMIT: int = 3\n"
    # On the real code, the segment is what inspect.getsource returns.
    for name in ("tree_depth", "TreeAggregator", "dyadic_decomposition"):
        obj = getattr(reference.tree, name)
        assert source_segment(REPO, f"reference/tree.py::{name}") == inspect.getsource(obj)


@pytest.mark.parametrize(
    ("covers", "message"),
    [
        ("`f`", "a bare name needs a file before it"),
        ("`pkg/mod.py::nope`", "nope is not defined in pkg/mod.py"),
        ("`pkg/mod.py::C.nope`", "C.nope is not defined"),
        ("`pkg/missing.py::f`", "no file pkg/missing.py"),
        ("`pkg/mod.py::f` (`x=1`)", "not a code reference"),
    ],
)
def test_unresolvable_entries(tmp_path: Path, covers: str, message: str) -> None:
    root = _toy_repo(tmp_path, covers)
    # The toy has no lock yet: the check reports the entry (and the missing lock).
    problems = check_freshness(root)
    assert any(message in p and p.startswith("proofs_notes/topic/note.md") for p in problems)
    with pytest.raises(FreshnessError, match="does not resolve"):
        update_notes(root, ["proofs_notes/topic/note.md"], None)


def test_toy_change_detection_round_trip(tmp_path: Path) -> None:
    root = _toy_repo(tmp_path, "`pkg/mod.py::f`, `C.m`")
    update_notes(root, ["proofs_notes/topic/note.md"], None)
    assert check_freshness(root) == []
    # update without a date leaves the note alone
    assert "2026-01-01" in (root / "proofs_notes/topic/note.md").read_text(encoding="utf-8")
    mod = root / "pkg" / "mod.py"
    mod.write_text(mod.read_text("utf-8").replace("return 2", "return 3"), "utf-8")
    problems = check_freshness(root)
    assert len(problems) == 1
    assert problems[0].startswith("proofs_notes/topic/note.md: pkg/mod.py::C.m changed")


def test_a_note_without_covers_is_reported(tmp_path: Path) -> None:
    root = _toy_repo(tmp_path, "`pkg/mod.py::f`")
    (root / "proofs_notes" / "topic" / "bare.md").write_text(
        "# No covers\n\n## Statement\n", "utf-8"
    )
    (root / "proofs_notes" / "topic" / "nodate.md").write_text(
        "# No date\n\nCovers: `pkg/mod.py::f`\n\n## Statement\n", "utf-8"
    )
    _, problems = tracked_notes(root)
    assert any(p.startswith("proofs_notes/topic/bare.md: no 'Covers:' line") for p in problems)
    assert any(
        p.startswith("proofs_notes/topic/nodate.md") and "Last re-read" in p for p in problems
    )


def _public_modules(package: str) -> set[str]:
    root = REPO / package
    return {
        ".".join(path.relative_to(REPO).with_suffix("").parts)
        for path in root.rglob("*.py")
        if path.name != "__init__.py" and not any(part.startswith("_") for part in path.parts)
    }


def test_every_public_module_has_an_api_page() -> None:
    """The documentation site's API pages (``::: module`` directives) cover every public module."""
    documented: set[str] = set()
    for page in (REPO / "proofs_notes" / "site_src" / "api").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("::: "):
                documented.add(line.removeprefix("::: ").strip())
    public = _public_modules("reference") | _public_modules("audit")
    assert "reference.tree" in public
    assert "audit.tools.freshness" in public
    assert not public - documented, f"modules without an API page: {sorted(public - documented)}"
    assert not documented - public, f"API pages name unknown modules: {sorted(documented - public)}"
