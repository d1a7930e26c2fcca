"""The shape of the package, read from its source with ``ast``: imports point down the floors of
DESIGN.md's last section and never round in a circle, no ``__import__``, and the size bars
(modules under 400 lines, functions under 60) where they are enforced."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "vidsleuth"

# Floors, lowest first (DESIGN.md, "The house after the straightening pass"). A module takes the
# floor of its longest listed prefix. The generated worlds (clips, demo corpus and levels, report
# cases, the compass demo set: the synth/ package) and what runs on them (the rubric calibration
# writes report cases and reports on them; testing's scripted server) are the synth floor.
FLOORS: list[tuple[str, ...]] = [
    ("vidsleuth", "vidsleuth.errors", "vidsleuth.files", "vidsleuth.timecode", "vidsleuth.limits", "vidsleuth.values",
     "vidsleuth.config", "vidsleuth.types", "vidsleuth.assets", "vidsleuth.progress", "vidsleuth.markdown",
     "vidsleuth.prompts", "vidsleuth.store", "vidsleuth.manifest", "vidsleuth.runner"),
    ("vidsleuth.schemas",),
    ("vidsleuth.media", "vidsleuth.perception", "vidsleuth.library"),
    ("vidsleuth.models",),
    ("vidsleuth.search", "vidsleuth.browse", "vidsleuth.report", "vidsleuth.rubric"),
    ("vidsleuth.bench",),
    ("vidsleuth.synth", "vidsleuth.rubric.calibration", "vidsleuth.testing"),
    ("vidsleuth.cli", "vidsleuth.mcp_tools", "vidsleuth.demo", "vidsleuth.skill", "vidsleuth.__main__"),
]
NAMES = ["base", "schemas", "media/perception/library", "models", "search/browse/report/rubric", "bench", "synth",
         "cli/mcp"]

# The size bars hold for every module of src/vidsleuth (data tables aside: only functions and whole
# modules are measured).
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def modules() -> dict[str, tuple[Path, ast.Module]]:
    return {module_name(p): (p, ast.parse(p.read_text(encoding="utf-8"), str(p))) for p in sorted(PACKAGE.rglob("*.py"))}


def _is_package(name: str) -> bool:
    return modules()[name][0].name == "__init__.py"


def _resolve(name: str, node: ast.ImportFrom) -> list[str]:
    """The vidsleuth modules an ``import``/``from … import`` names (a name imported from a
    package that is itself a module counts as that module)."""
    if node.level:
        base = name.split(".") if _is_package(name) else name.split(".")[:-1]
        base = base[: len(base) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    found = [target] if target in modules() else []
    found += [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules()]
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(name: str) -> set[str]:
    """Every vidsleuth module ``name`` imports, at the top or inside functions (both are edges);
    ``if TYPE_CHECKING:`` blocks are not imports at run time and are left out."""
    tree = modules()[name][1]
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
            for child in node.body for n in ast.walk(child)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name in modules())
        elif isinstance(node, ast.ImportFrom):
            out.update(_resolve(name, node))
    out.discard(name)
    return out


def floor(name: str) -> int:
    best, level = "", 0
    for n, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > len(best):
                best, level = prefix, n
    return level


def _parent_packages(name: str) -> set[str]:
    parts = name.split(".")
    return {".".join(parts[:k]) for k in range(1, len(parts))}


def graph() -> dict[str, set[str]]:
    """Edges between modules; importing ``a.b.c`` runs ``a/__init__`` and ``a.b/__init__`` too,
    but a package's own re-exports of its submodules are not arrows back up."""
    return {name: {t for t in imports_of(name) if t not in _parent_packages(name)} for name in modules()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_reader_sees_edges_inside_functions_and_resolves_relative_imports():
    """The checks below can fail: the reader finds known edges of this package."""
    assert "vidsleuth.errors" in imports_of("vidsleuth.cli")
    assert {"vidsleuth.media", "vidsleuth.library"} <= imports_of("vidsleuth.cli.media")
    assert "vidsleuth.search.index" in imports_of("vidsleuth.search.evaluate")
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert floor("vidsleuth.synth.report_cases") == floor("vidsleuth.rubric.calibration") == floor("vidsleuth.synth")
    assert floor("vidsleuth.synth") > floor("vidsleuth.bench.compass") > floor("vidsleuth.report.check")


def test_no_import_cycle_among_vidsleuth_modules():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_no_arrow_from_a_lower_floor_to_a_higher_one():
    up = sorted(f"{a} ({NAMES[floor(a)]}) imports {b} ({NAMES[floor(b)]})"
                for a, targets in graph().items() for b in targets if floor(b) > floor(a))
    assert not up, "imports pointing up:\n" + "\n".join(up)


def test_no_dunder_import():
    calls = [f"{name}:{node.lineno}" for name, (_, tree) in modules().items() for node in ast.walk(tree)
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__"]
    assert not calls, "__import__ hides an edge: " + ", ".join(calls)


def sizes() -> tuple[list[tuple[str, int]], list[tuple[str, int, int]]]:
    """Modules over the line bar, and functions over theirs (module, line, length)."""
    long_modules, long_functions = [], []
    for name, (path, tree) in modules().items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_MODULE_LINES:
            long_modules.append((name, n))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long_functions.append((f"{name}.{node.name}", node.lineno, length))
    return long_modules, long_functions


def test_sizes():
    """No module over 400 lines and no function over 60 anywhere in src/vidsleuth."""
    long_modules, long_functions = sizes()
    over = [f"{m}: {n} lines" for m, n in long_modules]
    over += [f"{f} (line {at}): {n} lines" for f, at, n in long_functions]
    assert not over, (f"over {MAX_MODULE_LINES} lines per module / {MAX_FUNCTION_LINES} per function:\n"
                      + "\n".join(over))


@pytest.mark.parametrize("name", ["vidsleuth.cli"])
def test_cli_modules_stay_under_250_lines(name):
    over = [f"{m}: {len(p.read_text().splitlines())}" for m, (p, _) in modules().items()
            if (m == name or m.startswith(name + ".")) and len(p.read_text().splitlines()) >= 250]
    assert not over, over


def test_every_backend_has_its_capabilities_as_data():
    from vidsleuth.models.config import BACKEND_CAPABILITIES
    from vidsleuth.models.registry import BACKENDS

    assert set(BACKENDS) == set(BACKEND_CAPABILITIES)
