"""rust_core's modules form layers: imports go one way, there are no cycles.

    py → kernels → linalg → simd → real;  runtime (and error) below every layer that needs them

Read from the source: every ``crate::`` / ``super::`` / ``self::`` path of every file under
rust_core/src (``use`` lists with braces expanded, paths written inline too, test modules
included), outside comments and strings, resolved to the file that defines it. A file is a module:
``lib.rs`` the crate, ``a/mod.rs`` module ``a``, ``a/b.rs`` module ``a::b``.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "rust_core" / "src"

#: What each layer (the first folder or file under src) may use, itself included. "" is lib.rs,
#: which declares the tree and registers the binding.
ALLOWED: dict[str, set[str]] = {
    "py": {"py", "kernels", "linalg", "simd", "runtime", "real", "error"},
    "kernels": {"kernels", "linalg", "simd", "runtime", "real", "error"},
    "linalg": {"linalg", "simd", "runtime", "real", "error"},
    "simd": {"simd", "real"},
    "runtime": {"runtime", "error"},
    "real": {"real"},
    "error": {"error"},
    "": {"py", "runtime"},
}
#: Only the binding (and lib.rs, which holds the #[pymodule]) may name Python's types.
PYTHON_CRATES = ("pyo3", "numpy")
PYTHON_USERS = {"py", ""}


def module_of(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(SRC).with_suffix("").parts
    if parts == ("lib",):
        return ()
    return parts[:-1] if parts[-1] == "mod" else parts


MODULES: dict[tuple[str, ...], Path] = {module_of(p): p for p in sorted(SRC.rglob("*.rs"))}


def name(module: tuple[str, ...]) -> str:
    return "::".join(module) or "crate"


def layer(module: tuple[str, ...]) -> str:
    return module[0] if module else ""


_TOKENS = re.compile(
    r"""//[^\n]*|/\*.*?\*/|r(\#*)".*?"\1|b?"(?:\\.|[^"\\])*"|b?'(?:\\.|[^'\\])'""", re.S
)


def code_of(source: str) -> str:
    """The source with comments, strings and character literals blanked (lengths kept)."""

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    return _TOKENS.sub(blank, source)


def expand(tree: str) -> Iterator[list[str]]:
    """The paths of one ``use`` tree: ``a::{b, c::{d, e as f}}`` → a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    brace = tree.find("{")
    if brace < 0:
        yield [s for s in tree.split("::") if s and s != "*"]
        return
    prefix = [s for s in tree[:brace].split("::") if s]
    depth, start = 0, brace + 1
    for i in range(brace, len(tree)):
        if tree[i] == "{":
            depth += 1
        elif tree[i] == "}":
            depth -= 1
        if (tree[i] == "," and depth == 1) or depth == 0:
            item = tree[start:i]
            start = i + 1
            for rest in expand(item) if item else []:
                yield prefix + [s for s in rest if s != "self"]
            if depth == 0:
                return


_INLINE_MOD = re.compile(r"\bmod\s+(\w+)\s*\{|[{}]")
_USE = re.compile(r"\buse\s+([^;]+);")
_PATH = re.compile(r"(?<![\w:$])(\$?crate|super|self|[a-z_]\w*)((?:::\w+)+)")


def inline_scopes(code: str) -> tuple[list[int], list[tuple[str, ...]]]:
    """Where each inline ``mod name { … }`` opens and closes: positions and the stack from each."""
    positions, stacks = [0], [()]
    stack: list[tuple[str, int]] = []
    depth = 0
    for m in _INLINE_MOD.finditer(code):
        if m.group(0) == "}":
            depth -= 1
            if stack and stack[-1][1] == depth:
                stack.pop()
        else:
            if m.group(1):
                stack.append((m.group(1), depth))
            depth += 1
        positions.append(m.end())
        stacks.append(tuple(s for s, _ in stack))
    return positions, stacks


def resolve(module: tuple[str, ...], inline: tuple[str, ...], path: list[str]) -> tuple[str, ...]:
    """The file module that defines ``path`` as written in ``module`` (inside ``inline``)."""
    if path[0] in ("crate", "$crate"):
        full = path[1:]
    else:
        here = list(module + inline)
        while path and path[0] == "super":
            here, path = here[:-1], path[1:]
        full = here + [s for s in path if s != "self"]
    for end in range(len(full), -1, -1):
        if tuple(full[:end]) in MODULES:
            return tuple(full[:end])
    return ()


def uses(
    module: tuple[str, ...], source: str | None = None
) -> Iterator[tuple[int, tuple[str, ...]]]:
    """(line, module used) for every path in ``module`` that leads to another file's module:
    from the crate's root, ``super`` or ``self``, or through a child module by its name."""
    code = code_of(source if source is not None else MODULES[module].read_text(encoding="utf-8"))
    positions, stacks = inline_scopes(code)
    found: list[tuple[int, list[str]]] = []
    for m in _USE.finditer(code):
        found += [(m.start(), p) for p in expand(m.group(1)) if p]
    used = [(m.start(), m.end()) for m in _USE.finditer(code)]
    for m in _PATH.finditer(code):
        if not any(a <= m.start() < b for a, b in used):
            found.append((m.start(), [m.group(1), *m.group(2).split("::")[1:]]))
    for pos, path in found:
        inline = stacks[bisect.bisect_right(positions, pos) - 1]
        if path[0] not in ("crate", "$crate", "super", "self"):
            if inline or module + (path[0],) not in MODULES:
                continue  # an outside crate, std, or a name brought in by a `use`
            path = ["self", *path]  # a child module, named relative to its parent
        target = resolve(module, inline, path)
        if target and target != module:
            yield code.count("\n", 0, pos) + 1, target


GRAPH: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: {t for _, t in uses(m)} for m in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk meets, each as the path that closes it."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    found: list[list[str]] = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                found.append(path[path.index(t) :] + [t])
            elif t not in state:
                visit(t, [*path, t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    return found


def test_every_layer_is_known() -> None:
    unknown = sorted({layer(m) for m in MODULES} - set(ALLOWED))
    assert not unknown, f"give these a layer in ALLOWED: {unknown}"


def test_the_layers_form_no_cycle() -> None:
    assert not cycles({k: v - {k} for k, v in ALLOWED.items()})


@pytest.mark.parametrize("module", sorted(MODULES), ids=name)
def test_imports_go_down(module: tuple[str, ...]) -> None:
    wrong = [
        f"line {line}: {name(target)}"
        for line, target in uses(module)
        if layer(target) not in ALLOWED[layer(module)]
    ]
    assert not wrong, f"{name(module)} ({MODULES[module].name}) uses a layer above it: {wrong}"


def test_no_cycle_between_modules() -> None:
    found = cycles({name(m): {name(t) for t in ts} for m, ts in GRAPH.items()})
    assert not found, "module cycles: " + "; ".join(" → ".join(c) for c in found)


def test_no_cycle_between_folders() -> None:
    folders: dict[str, set[str]] = {}
    for m, ts in GRAPH.items():
        folders.setdefault(layer(m), set()).update(layer(t) for t in ts if layer(t) != layer(m))
    found = cycles(folders)
    assert not found, "layer cycles: " + "; ".join(" → ".join(c) for c in found)


@pytest.mark.parametrize("module", sorted(MODULES), ids=name)
def test_only_the_binding_knows_python(module: tuple[str, ...]) -> None:
    if layer(module) in PYTHON_USERS:
        return
    code = code_of(MODULES[module].read_text(encoding="utf-8"))
    named = sorted({c for c in PYTHON_CRATES if re.search(rf"(?<![\w:]){c}::", code)})
    assert not named, f"{name(module)} names {named}: kernels are plain Rust over slices"


def test_the_reader_resolves_what_rust_writes() -> None:
    """The parser itself, on the forms the crate uses, and a cycle it must report."""
    source = """
        // use crate::py::convert;  (a comment)
        use crate::linalg::{mat::Mat, rows::{self, Layout as L}};
        use super::*;
        const S: &str = "crate::kernels::dense";
        fn f() { crate::runtime::threads::run(0, || ()); std::mem::swap(); }
        mod x86 { use super::Norm; fn g() { super::super::mat::Mat::new(); } }
    """
    found = sorted({name(t) for _, t in uses(("linalg", "norm"), source)})
    assert found == ["linalg", "linalg::mat", "linalg::rows", "runtime::threads"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
