"""MkDocs hook: mount the proof notes (``proofs_notes/**/*.md``, the figures they link,
``**/*.png``, and the committed result files, ``**/*.json``) under ``notes/`` in the site, and add
the pages generated from the committed results (:mod:`audit.tools.site`): ``results/<paper>.md``,
``results/audit.md`` and ``cite.md``.

MkDocs refuses a ``docs_dir`` that contains ``mkdocs.yml``, so the site pages live in
``proofs_notes/site_src/`` and this hook adds every proof note (README files included) as a page
at ``notes/<path relative to proofs_notes>``.  Links between notes keep working, since their
relative layout is unchanged; the site pages link to ``../notes/...``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

__all__ = ["on_files"]

NOTES_ROOT = Path(__file__).resolve().parent
SITE_SOURCES = NOTES_ROOT / "site_src"
PROJECT_ROOT = NOTES_ROOT.parent


def on_files(files: Files, config: Any) -> Files:
    """Add each proof note, figure and result file to the site's files as
    ``notes/<relative path>``, and the generated results pages."""
    kinds = ("*.md", "*.png", "*.json")
    for path in sorted(p for kind in kinds for p in NOTES_ROOT.rglob(kind)):
        if SITE_SOURCES in path.parents or path.name == "freshness.json" or "cells" in path.parts:
            continue  # the site sources, the lock, and resumable runs' cells are not pages
        src_uri = "notes/" + path.relative_to(NOTES_ROOT).as_posix()
        files.append(File.generated(config, src_uri, abs_src_path=str(path)))
    if str(PROJECT_ROOT) not in sys.path:  # the docs session does not install the package
        sys.path.insert(0, str(PROJECT_ROOT))
    from audit.tools.site import pages

    for page in pages():
        files.append(File.generated(config, page.uri, content=page.text))
    return files
