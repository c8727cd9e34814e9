"""No import circle among the project's modules (``reference``, ``audit``, ``examples``, ``tests``).

The graph is built from the source (``ast``), not by importing: an edge ``a -> b`` for every
``import b`` / ``from b import x`` in ``a`` that names a project module (``from p import m`` with
``m`` a submodule is an edge to ``p.m``, otherwise to ``p``).  Every import statement counts:
module level, inside a function (a deferred import) and under ``TYPE_CHECKING``, because deferring
one side of a circle hides it from the interpreter but not from the reader; the two modules still
need each other.  Packages are not implied: ``import a.b.c`` is an edge to ``a.b.c`` only (its
parents' ``__init__`` re-export the children, which would make every package a circle).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PACKAGES = ("reference", "audit", "examples", "tests")


def project_modules(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root`` by dotted name (a package by its own name)."""
    out: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def imported_modules(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The project modules that the module ``name`` (at ``path``) imports anywhere in its source."""
    is_package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names if alias.name in modules}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    out.add(f"{source}.{alias.name}")
                elif source in modules:
                    out.add(source)
    out.discard(name)
    return out


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    """``module -> modules it imports``, over ``modules``."""
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative), each
    sorted, in sorted order: every import circle is inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def successors(v: str) -> Iterator[str]:
        yield from sorted(graph.get(v, ()))

    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, successors(start))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, successors(child)))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_the_scan_finds_circles_and_resolves_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import A\n", encoding="utf-8")
    (pkg / "a.py").write_text("from pkg.sub import b\nA = 1\n", encoding="utf-8")
    (pkg / "sub" / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "sub" / "b.py").write_text(  # deferred and TYPE_CHECKING imports count
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..c import C\n"
        "def f():\n    import pkg.a\n",
        encoding="utf-8",
    )
    (pkg / "c.py").write_text("import os\nC = 2\n", encoding="utf-8")
    modules = project_modules(tmp_path, ("pkg",))
    graph = import_graph(modules)
    assert graph == {
        "pkg": {"pkg.a"},
        "pkg.a": {"pkg.sub.b"},
        "pkg.sub": set(),
        "pkg.sub.b": {"pkg.a", "pkg.c"},
        "pkg.c": set(),
    }
    assert circles(graph) == [["pkg.a", "pkg.sub.b"]]
    assert circles({"x": {"y"}, "y": {"z"}, "z": set()}) == []


def test_no_import_circle_among_the_projects_modules() -> None:
    modules = project_modules()
    assert "reference.engine.linucb" in modules and "audit.papers" in modules
    found = circles(import_graph(modules))
    assert not found, (
        "import circles (module-level, deferred or TYPE_CHECKING imports; move what both sides "
        f"share to a module both can import): {found}"
    )
