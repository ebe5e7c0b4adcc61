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
