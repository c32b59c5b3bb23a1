"""The layout holds: imports go one way, there are no cycles, the public API is at the top.

    app → bench, topics, models → core → rust_core

Read from the source with ``ast`` (every import, also those inside functions), so a lazy import
cannot hide a wrong direction or a cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import transformer_walk

PACKAGE = Path(transformer_walk.__file__).parent
NAME = "transformer_walk"

#: What each layer may import from the package (itself included). The top ``__init__`` re-exports
#: the public API from core and models.
ALLOWED: dict[str, set[str]] = {
    "core": {"core"},
    "models": {"core", "models"},
    "topics": {"core", "models", "topics"},
    "bench": {"core", "models", "bench"},
    "app": {"core", "models", "topics", "bench", "app"},
    "": {"core", "models"},
}
#: Only the backends touch the extension; everyone else asks ``core.get_backend("rust")``.
RUST_CORE_USERS = {"core"}
MAX_TOP_LEVEL_MODULES = 8


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module: str) -> str:
    """The first package below transformer_walk ("" for the top ``__init__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def imports(module: str) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of the package or of rust_core in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{module}:{node.lineno}: relative import"
            base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                yield node.lineno, full if full in MODULES else base


def internal(target: str) -> bool:
    return target == NAME or target.startswith(NAME + ".")


def test_at_most_eight_modules_at_the_top() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, top


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_one_way(module: str) -> None:
    wrong = []
    for line, target in imports(module):
        if target == "rust_core" or target.startswith("rust_core."):
            if layer(module) not in RUST_CORE_USERS:
                wrong.append(f"line {line}: {target} (only core/ imports rust_core)")
        elif target == NAME and module != NAME:
            wrong.append(f"line {line}: the package top (import from its subpackages instead)")
        elif internal(target) and layer(target) not in ALLOWED[layer(module)]:
            wrong.append(f"line {line}: {target}")
    assert not wrong, f"{module} imports against the layers: {wrong}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith(f"{NAME}.app.charts")))
def test_charts_know_no_model(module: str) -> None:
    """Charts draw what they are given: labels and arrays, never a model or a trace."""
    outside = [
        t for _, t in imports(module) if internal(t) and not t.startswith(f"{NAME}.app.charts")
    ]
    assert not outside, f"{module} imports {outside}"


def test_no_import_cycles() -> None:
    graph = {m: {t for _, t in imports(m) if t in MODULES and t != m} for m in MODULES}
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    cycles: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycles.append(path[path.index(t) :] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, [*path, t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles, cycles


def test_public_api_at_the_top() -> None:
    from transformer_walk.core import get_backend
    from transformer_walk.models.minilm import load_minilm
    from transformer_walk.models.smollm2 import load_smollm2
    from transformer_walk.models.toy import ToyTransformer

    assert transformer_walk.get_backend is get_backend
    assert transformer_walk.load_minilm is load_minilm
    assert transformer_walk.load_smollm2 is load_smollm2
    assert transformer_walk.ToyTransformer is ToyTransformer
    missing = [name for name in transformer_walk.__all__ if not hasattr(transformer_walk, name)]
    assert not missing, missing


PAGES = sorted(m for m in MODULES if m.startswith(f"{NAME}.app.pages.") and m.count(".") == 3)


@pytest.mark.parametrize("module", PAGES)
def test_every_page_is_one_render(module: str) -> None:
    """Every page has the same shape: definitions, then one ``render()`` call that draws it, so
    that nothing runs at import but that call."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    assert "render" in functions, f"{module} has no render()"
    calls = [n for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    assert [ast.unparse(c) for c in calls] == ["render()"], module
    assert tree.body[-1] is calls[0], f"{module}: render() is not its last statement"
