"""Shared test configuration.

Hypothesis runs derandomised (a fixed example sequence) with no deadline, so the suite is
deterministic: no test can pass on one run and fail on the next.

Every JSON file a test leaves in its ``tmp_path`` is checked afterwards: it must be strict JSON (no
``NaN``/``Infinity`` tokens), and every *report* (anything but a cell, run, block, manifest or
configuration record) must carry ``schema_version``.  So each command exercised by the suite is
also a check of its report format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

settings.register_profile("privonline", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("privonline")

# The reports the commands write (cells, runs, manifests and folder records are not reports).
REPORT_NAME = re.compile(
    r"(report|papers|zoo|check|bench|results|d[123]|scaling|sec5|thm43|stopping|fig[23]|ftrl|ftpl"
    r"|mab|blo|eps_window)\.json"
)


def _refuse_constant(token: str) -> Any:
    raise ValueError(f"non-standard JSON token {token}")


def _is_report(path: Path, root: Path) -> bool:
    parts = path.relative_to(root).parts[:-1]
    in_cells = any(p in ("runs", "cells") or p.endswith("_cells") for p in parts)
    return bool(REPORT_NAME.fullmatch(path.name)) and not in_cells


@pytest.fixture(autouse=True)
def _json_reports_are_strict_and_versioned(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    root = request.node.funcargs.get("tmp_path") if hasattr(request.node, "funcargs") else None
    if not isinstance(root, Path) or not root.exists():
        return
    for path in root.rglob("*.json"):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # a file a test damaged on purpose
        if not text.strip() or "golden" in path.parts[-2]:
            continue
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except ValueError as err:
            if _is_report(path, root):
                raise AssertionError(f"{path} is not strict JSON: {err}") from err
            continue  # damaged on purpose by a test of damaged-file handling
        if _is_report(path, root) and isinstance(data, dict):
            assert "schema_version" in data, f"report {path} has no schema_version"
