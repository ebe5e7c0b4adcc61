"""The layers of DESIGN.md hold: nothing imports upwards or reaches for another layer's tools."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engines": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "render", "ai"},
    "render": {"discord", "asyncio", "sqlite3", "aiosqlite", "host", "cogs", "store"},
    "ai": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "render"},
    "host": {"discord", "sqlite3", "aiosqlite", "PIL", "cogs", "web"},
    "store": {"discord", "PIL", "host", "cogs", "engines", "render", "ai", "web"},
    "tournaments": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "engines",
                    "render", "ai"},
    # the web companion is a second front end beside cogs/: over host/ and store/, never Discord, never SQL of its
    # own (all SQL stays in store/), pictures only through the host's painter; and the cogs never import it
    "web": {"discord", "cogs", "sqlite3", "aiosqlite", "asyncpg", "PIL", "render", "ai"},
    "cogs": {"web"},
}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


@pytest.mark.parametrize("layer", list(FORBIDDEN))
def test_layer_imports(layer):
    bad = {}
    for path in (ROOT / layer).rglob("*.py"):
        found = imports(path) & FORBIDDEN[layer]
        if found:
            bad[str(path.relative_to(ROOT))] = sorted(found)
    assert not bad, bad


# -- no import circles -------------------------------------------------------------------------------------------
def _project_modules() -> dict[str, Path]:
    """Module name -> file, for the whole project: every package folder at the top (with an ``__init__.py``:
    the bot's code, its tests, benchmarks and tools) and the top-level modules."""
    found = {}
    packages = [d for d in ROOT.iterdir() if (d / "__init__.py").exists()]
    for path in [*ROOT.glob("*.py"), *(p for d in packages for p in d.rglob("*.py"))]:
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _own(name: str, modules: dict) -> str | None:
    """The project module an import of ``name`` runs: itself, or the nearest package above it."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _imported(name: str, path: Path, modules: dict) -> set[str]:
    """Every project module ``name`` imports, wherever the import stands: at the top, inside a function (an
    import there still runs, only later), under ``if TYPE_CHECKING``; ``importlib.import_module`` of a
    constant string or a module's dotted name kept as a string (a registry of module names); and, for a
    package that discovers its plugins (``pkgutil.iter_modules(__path__)``), every module of its folder."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, base] if base else up)
            # ``from pkg import sub`` runs pkg/sub.py; ``from pkg import name`` runs pkg/__init__.py
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args and isinstance(node.args[0], ast.Constant)):
            targets = [node.args[0].value]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in modules \
                and "." in node.value:
            targets = [node.value]  # a module's dotted name kept as a string, to be imported by name later
        elif (path.name == "__init__.py" and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "iter_modules" and any(isinstance(a, ast.Name) and a.id == "__path__"
                                                           for a in node.args)):
            targets = [m for m in modules if m.rpartition(".")[0] == name]  # discovery imports its folder
        out |= {own for t in targets if (own := _own(t, modules)) and own != name}
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _project_modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def circle_groups(graph: dict[str, set[str]]) -> list[set[str]]:
    """The groups of modules that import each other (strongly connected, more than one module)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm; the graph is a few hundred modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (``a -> b -> ... -> a``) per group of modules that import each other."""
    return [_cycle_in(group, graph) for group in circle_groups(graph)]


def _report(graph: dict[str, set[str]]) -> str:
    """A circle of each group, then every import inside the group (it may hold several circles; all must go)."""
    lines = []
    for group in circle_groups(graph):
        lines.append(" -> ".join(_cycle_in(group, graph)))
        lines += [f"    {v} imports {', '.join(sorted(graph[v] & group))}" for v in sorted(group)]
    return "\n".join(lines)


def _cycle_in(group: set[str], graph: dict[str, set[str]]) -> list[str]:
    """A shortest way from the group's first module back to itself, through the group."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return [*paths[v], start]
            if w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(f"no cycle through {start}")


def test_no_import_circles():
    graph = import_graph()
    cycles = import_cycles(graph)
    assert not cycles, "import circles:\n" + _report(graph)


def test_the_circle_finder_finds_hidden_circles(tmp_path):
    """The check itself: a circle closed by an import inside a function, under ``TYPE_CHECKING``, by a module
    name kept as a string, or by a package discovering the module that imports it, is found and printed; a
    plain chain is not a circle."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    assert "d" not in _report(graph) and "    c imports a" in _report(graph)
    assert import_cycles({"a": {"b"}, "b": set()}) == []
    files = {
        "pkg/__init__.py": "",
        "pkg/one.py": "from pkg import two\n",
        "pkg/two.py": "def later():\n    from pkg.one import x\n",
        "pkg/three.py": "import importlib\nREG = {'k': 'pkg.four'}\n",
        "pkg/four.py": "from pkg import three\n",
        "pkg/five.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.six import Six\n",
        "pkg/six.py": "import pkg.five\n",
        "plug/__init__.py": "import importlib, pkgutil\nSHARED = 1\n"
                            "FOUND = [importlib.import_module(f'plug.{m.name}') for m in pkgutil.iter_modules(__path__)]\n",
        "plug/game.py": "from plug import SHARED\n",
        "plug/shared.py": "SHARED = 1\n",
    }
    modules = {}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
        modules[name[:-3].replace("/__init__", "").replace("/", ".")] = tmp_path / name
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert graph["pkg.one"] == {"pkg.two"} and graph["pkg.two"] == {"pkg.one"}
    assert graph["pkg.three"] == {"pkg.four"} and graph["plug"] == {"plug.game", "plug.shared"}
    assert sorted(map(tuple, import_cycles(graph))) == [
        ("pkg.five", "pkg.six", "pkg.five"), ("pkg.four", "pkg.three", "pkg.four"), ("pkg.one", "pkg.two", "pkg.one"),
        ("plug", "plug.game", "plug")]


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for w in graph[todo.pop()] - seen:
            seen.add(w)
            todo.append(w)
    return seen


def test_the_game_ais_found_by_a_name_built_at_run_time_do_not_import_their_finder():
    """``ai/players.py`` imports ``ai/<engine package>.py`` by a name the graph cannot read: none of those
    modules may lead back to it (else the search, which uses the game AIs, would close a circle)."""
    from ai.players import AI_PLAYERS

    graph = import_graph()
    found = {choose.__module__ for choose in AI_PLAYERS.values()}
    assert len(found) == 5
    for name in found:
        assert "ai.players" not in _reachable(graph, name), name
    assert "ai.players" in _reachable(graph, "ai.search")  # (the check can see the way when there is one)
