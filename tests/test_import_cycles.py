"""No import cycle in graphbrain/: each module can be imported first, by anyone.

A module-level cycle makes the import order decide what works. Imports inside functions (the lazy ones
that keep start-up fast) may not point back either: two modules that import each other, even lazily, have
a dependency the wrong way round. Only ``if TYPE_CHECKING:`` imports (annotations, never run) may.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "graphbrain"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING"
    )


def _top_level_imports(tree: ast.Module, module: str, is_package: bool, modules: Collection[str]) -> set[str]:
    """Modules named by the imports run when ``module`` is imported (not in functions, not TYPE_CHECKING)."""
    out: set[str] = set()
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for a in node.names:
                # `from graphbrain.x import y` names the submodule graphbrain.x.y when there is one
                # (graphbrain.x itself is then initialised already: a parent package always is first).
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
        elif isinstance(node, ast.If) and not _is_type_checking(node):
            stack += node.body + node.orelse
        elif isinstance(node, ast.Try):
            stack += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
        elif isinstance(node, ast.With):
            stack += node.body
    return out


def import_graph() -> dict[str, set[str]]:
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = _top_level_imports(tree, name, path.name == "__init__.py", files)
        graph[name] = {m for m in imported if m in files and m != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_level_import_cycle() -> None:
    graph = import_graph()
    assert "graphbrain.brain" in graph  # the walk found the package
    assert cycles(graph) == []


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    """ids of the import nodes under ``if TYPE_CHECKING:`` (annotations only: never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def lazy_import_graph() -> dict[str, set[str]]:
    """Every import that can run, the ones inside functions included."""
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_nodes(tree)
        body = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and id(n) not in skip]
        imported = _top_level_imports(ast.Module(body=body, type_ignores=[]), name, path.name == "__init__.py", files)
        graph[name] = {m for m in imported if m in files and m != name}
    return graph


def test_no_two_modules_import_each_other_even_lazily() -> None:
    # A lazy import back (brain ↔ composer, once) hides a dependency the wrong way round.
    graph = lazy_import_graph()
    both_ways = sorted((a, b) for a, targets in graph.items() for b in targets if a < b and a in graph.get(b, ()))
    assert both_ways == []
