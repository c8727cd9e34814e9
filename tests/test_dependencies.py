"""The packages import only the core dependencies at module level.

``nox -s audit`` (the main job) installs the package without extras, so a module-level import of a
test- or bench-only package (dask, mabwiser, pytest, hypothesis) would break it.  Optional
packages must be imported inside the function that needs them.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMPORT_NAMES = {"dp-accounting": "dp_accounting"}


def _core_modules() -> set[str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    names = set()
    for dep in deps:
        name = dep.split(";")[0].split("[")[0]
        for sep in "<>=!~ ":
            name = name.split(sep)[0]
        names.add(IMPORT_NAMES.get(name, name.replace("-", "_")))
    return names


def _module_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in tree.body:  # module level only: lazy imports inside functions are allowed
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_packages_import_only_core_dependencies_at_module_level() -> None:
    allowed = _core_modules() | set(sys.stdlib_module_names) | {"reference", "audit"}
    offenders = {
        str(path.relative_to(ROOT)): sorted(_module_level_imports(path) - allowed)
        for package in ("reference", "audit")
        for path in sorted((ROOT / package).rglob("*.py"))
        if _module_level_imports(path) - allowed
    }
    assert offenders == {}


def test_the_check_sees_a_bad_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import numpy\nfrom dask.distributed import Client\n\ndef f():\n    import mabwiser\n"
    )
    assert _module_level_imports(bad) == {"numpy", "dask"}
    assert "dp_accounting" in _core_modules()
