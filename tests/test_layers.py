"""The layers of DESIGN.md hold: nothing imports upwards or reaches for another layer's tools."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "engines": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "render", "ai"},
    "render": {"discord", "asyncio", "sqlite3", "aiosqlite", "host", "cogs", "store"},
    "ai": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "render"},
    "host": {"discord", "sqlite3", "aiosqlite", "PIL", "cogs"},
    "store": {"discord", "PIL", "host", "cogs", "engines", "render", "ai"},
    "tournaments": {"discord", "asyncio", "sqlite3", "aiosqlite", "PIL", "host", "cogs", "store", "engines",
                    "render", "ai"},
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
