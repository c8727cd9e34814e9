"""Citation hygiene: the repository cites papers, not the machine it was written on.

Citations name the paper itself (section, theorem, lemma, equation, algorithm line as the paper
numbers them) and the proof note that explains the point.  No git-tracked text file may contain

1. an absolute development-machine path or a path into the shared working area (the paper text
   extractions and the implementation specs);
2. an issue number of the work tracker;
3. a pointer into a spec (a section, a spec file number, an item label of its registers);
4. a line number of a paper's text extraction (``l. N``, ``ll. N``).

Each finding is reported as ``path:line: kind: text``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN: dict[str, tuple[re.Pattern[str], ...]] = {
    "machine path": (
        re.compile(r"/w[o]rk/"),  # a class, so that this file does not match itself
        re.compile(r"\.\./shared/"),
        re.compile(r"\bshared/(?:seeds|specs)\b"),
        re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b"),
        re.compile(r"\bseed 00\d\b"),
    ),
    "issue number": (
        re.compile(r"\b[Ii]ssues?[ -]?(?:#|no\. ?)?\d+\b"),
        re.compile(r"(?<![\w&/])#\d+\b(?![0-9a-fA-F])"),
    ),
    "spec pointer": (
        re.compile(r"\b[Ss]pec(?:'s)? (?:00\d )?§"),
        re.compile(r"\b[Ss]pec:? §"),
        re.compile(r"\b[Ss]pec 00\d\b"),
        re.compile(r"§ ?[\d.]+ of the spec\b"),
        re.compile(r"\baudit plan [A-Z]+\d"),
        re.compile(r"\[A\d+\]"),
    ),
    "extraction line number": (
        re.compile(r"(?<![\w.])l\. ?\d+"),
        re.compile(r"(?<![\w.])ll\. ?\d+"),
        re.compile(r"\blines? \d{3}\b"),  # algorithm lines of the papers are below 100
        re.compile(r"\b(?:paper|seed)(?:'s)? lines?\b"),
    ),
}


def _tracked_text_files() -> list[Path]:
    """Every git-tracked file except binaries and the JSON golden vectors."""
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    files = []
    for name in listing.split("\0"):
        if not name or name.endswith(".json"):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        files.append(path)
    return files


def _findings(path: Path) -> list[str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return []
    rel = path.relative_to(ROOT).as_posix()
    out = []
    for number, line in enumerate(text.splitlines(), start=1):
        for kind, patterns in FORBIDDEN.items():
            for pattern in patterns:
                match = pattern.search(line)
                if match:
                    out.append(f"{rel}:{number}: {kind}: {match.group(0)!r} in {line.strip()}")
    return out


def test_the_scan_sees_the_repository() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _tracked_text_files()}
    assert "README.md" in names
    assert "tests/test_citations.py" in names
    assert not any(n.endswith(".json") for n in names)


def test_patterns_flag_forbidden_and_spare_legitimate_text() -> None:
    def kinds(line: str) -> set[str]:
        return {k for k, ps in FORBIDDEN.items() if any(p.search(line) for p in ps)}

    assert kinds("see " + "/wo" + "rk/shared/" + "seeds/002.txt") == {"machine path"}
    assert kinds("(" + "issue" + " 5)") == {"issue number"}
    assert kinds("Issue" + " 11 follow-up") == {"issue number"}
    assert kinds("spec" + " §2.7") == {"spec pointer"}
    assert kinds("spec" + " 003 §1.4") == {"spec pointer"}
    assert kinds("ambiguity [A" + "5]") == {"spec pointer"}
    assert kinds("Theorem 5 (" + "l" + ". 145–147)") == {"extraction line number"}
    assert kinds("confirmed at " + "l" + ". 312.") == {"extraction line number"}
    assert kinds("Thm 5 line" + " 450") == {"extraction line number"}
    for fine in (
        "tmp_path / 'out.json'",
        "l = np.ones(3); l.shape",
        "the issue of adaptivity",
        "Algorithm 2, line 5 (Sec. 4.2)",
        "https://github.com/google/differential-privacy",
        "cost O(#epochs · K)",
        "Lemma 3.3, Sec. 3.1, App. A.2, Eq. (4)",
    ):
        assert kinds(fine) == set(), fine


def test_no_machine_paths_issue_numbers_spec_pointers_or_extraction_lines() -> None:
    findings = [f for path in _tracked_text_files() for f in _findings(path)]
    assert not findings, "forbidden citations:\n" + "\n".join(findings)
