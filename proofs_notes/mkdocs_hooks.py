"""MkDocs hook: mount the proof notes (``proofs_notes/**/*.md``, and the figures they link,
``**/*.png``) under ``notes/`` in the site.

MkDocs refuses a ``docs_dir`` that contains ``mkdocs.yml``, so the site pages live in
``proofs_notes/site_src/`` and this hook adds every proof note (README files included) as a page
at ``notes/<path relative to proofs_notes>``.  Links between notes keep working, since their
relative layout is unchanged; the site pages link to ``../notes/...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

__all__ = ["on_files"]

NOTES_ROOT = Path(__file__).resolve().parent
SITE_SOURCES = NOTES_ROOT / "site_src"


def on_files(files: Files, config: Any) -> Files:
    """Add each proof note and figure to the site's files as ``notes/<relative path>``."""
    for path in sorted([*NOTES_ROOT.rglob("*.md"), *NOTES_ROOT.rglob("*.png")]):
        if SITE_SOURCES in path.parents:
            continue
        src_uri = "notes/" + path.relative_to(NOTES_ROOT).as_posix()
        files.append(File.generated(config, src_uri, abs_src_path=str(path)))
    return files
