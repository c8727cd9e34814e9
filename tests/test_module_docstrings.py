"""Every module of ``reference/``, ``audit/`` and ``examples/`` opens with a short docstring.

The rule: a module docstring of at most :data:`MAX_LINES` lines (a summary line, what the module
holds, the paper's own citation) plus exactly one line linking its proof note,
``Proof note: ``proofs_notes/<path>.md``.``, which is not counted.  Derivations and design
rationale live in the linked note (or in the docstring of the function they explain), and the
linked note must exist.  Each finding names the module and its line count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PACKAGES = ("reference", "audit", "examples")

MAX_LINES = 10
"""Lines of a module docstring, the proof-note link line excluded."""

NOTE_RE = re.compile(r"proofs_notes/[A-Za-z0-9_./-]+\.md")
"""A link to a proof note anywhere in a docstring."""

LINK_LINE_RE = re.compile(r"^Proof note: ``(?P<note>proofs_notes/[A-Za-z0-9_./-]+\.md)``\.$")
"""The one line that links a module to its note."""


def _modules() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def docstring_problems(rel: str, source: str, root: Path = ROOT) -> list[str]:
    """What is wrong with the module docstring of ``source`` (the module ``rel``); empty if fine."""
    doc = ast.get_docstring(ast.parse(source, filename=rel), clean=True)
    if doc is None or not doc.strip():
        return [f"{rel}: no module docstring"]
    lines = doc.splitlines()
    problems: list[str] = []
    links = [m.group(0) for line in lines for m in NOTE_RE.finditer(line)]
    link_lines = [i for i, line in enumerate(lines) if LINK_LINE_RE.match(line.strip())]
    if len(links) != 1 or len(link_lines) != 1:
        problems.append(
            f"{rel}: needs exactly one proof-note link, on a line of its own "
            f"'Proof note: ``proofs_notes/<path>.md``.'; found {len(links)} link(s) "
            f"({', '.join(links) or 'none'}) and {len(link_lines)} such line(s)"
        )
    else:
        match = LINK_LINE_RE.match(lines[link_lines[0]].strip())
        assert match is not None
        note = match.group("note")
        if not (root / note).is_file():
            problems.append(f"{rel}: links {note}, which does not exist")
    counted = [line for i, line in enumerate(lines) if i not in link_lines]
    while counted and not counted[-1].strip():
        counted.pop()
    if len(counted) > MAX_LINES:
        problems.append(
            f"{rel}: module docstring has {len(counted)} lines (at most {MAX_LINES}, the "
            f"proof-note line excluded); move derivations and design notes into the linked note"
        )
    return problems


def test_the_scan_sees_every_package() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _modules()}
    for expected in ("reference/__init__.py", "audit/__init__.py", "examples/__init__.py"):
        assert expected in names


def test_the_rule_flags_long_unlinked_and_dangling_docstrings(tmp_path: Path) -> None:
    (tmp_path / "proofs_notes").mkdir()
    (tmp_path / "proofs_notes" / "n.md").write_text("# n\n", encoding="utf-8")
    link = "Proof note: ``proofs_notes/n.md``."
    good = '"""Summary.\n\n' + "body\n" * 8 + link + '\n"""\n'
    assert docstring_problems("m.py", good, tmp_path) == []
    long = '"""Summary.\n\n' + "body\n" * 9 + link + '\n"""\n'
    assert "has 11 lines" in " ".join(docstring_problems("m.py", long, tmp_path))
    assert "no module docstring" in " ".join(docstring_problems("m.py", "x = 1\n", tmp_path))
    unlinked = '"""Summary."""\n'
    assert "exactly one" in " ".join(docstring_problems("m.py", unlinked, tmp_path))
    twice = f'"""Summary ``proofs_notes/n.md``.\n\n{link}\n"""\n'
    assert "exactly one" in " ".join(docstring_problems("m.py", twice, tmp_path))
    dangling = '"""Summary.\n\nProof note: ``proofs_notes/gone.md``.\n"""\n'
    assert "does not exist" in " ".join(docstring_problems("m.py", dangling, tmp_path))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_module_docstring_is_short_and_links_its_proof_note(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    problems = docstring_problems(rel, path.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)
