"""The game service's modules (host/service.py and its concerns): each concern is a mixin of the typed core, what
one concern uses of another is declared there, and none imports another - so a newcomer reads one at a time."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import host.service_core as core
from host.clock_commands import ClockCommands
from host.service import GameService
from host.service_boards import Boards
from host.service_lobby import Lobby
from host.service_moves import Moves
from host.service_queries import History
from host.service_settings import Settings
from host.service_undo import Undo
from host.turn_clocks import TurnClocks

ROOT = Path(__file__).resolve().parents[2]
CONCERNS = {Lobby: "service_lobby", Moves: "service_moves", Undo: "service_undo", Boards: "service_boards", History: "service_queries",
            Settings: "service_settings", TurnClocks: "turn_clocks", ClockCommands: "clock_commands"}
#: a concern that extends another (a subclass, so what it uses of it is declared by its base)
EXTENDS = {"clock_commands": {"turn_clocks"}}


def _host_imports(module: str) -> set[str]:
    tree = ast.parse((ROOT / "host" / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("host."):
            found.add(node.module.removeprefix("host."))
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("host.") for a in node.names if a.name.startswith("host.")}
    return found


def test_each_concern_imports_only_the_core_of_the_service():
    concerns = set(CONCERNS.values()) | {"service"}
    for module in CONCERNS.values():
        assert _host_imports(module) & concerns <= EXTENDS.get(module, set()), f"host/{module}.py imports a concern"
        assert "service_core" in _host_imports(module)
    assert "service" not in _host_imports("service_core") and not _host_imports("service_core") & concerns


def test_the_seams_are_declared_and_each_is_kept_by_exactly_one_concern():
    declared = core.ServiceCore.__abstractmethods__
    assert {"_commit", "_outcome", "stand_in_level", "_hand_back"} <= declared
    for name in declared:
        keepers = [cls for cls in CONCERNS if name in vars(cls)]  # (defined there, not inherited)
        assert len(keepers) == 1, f"{name} is implemented by {keepers}"
        kept, seam = inspect.signature(getattr(keepers[0], name)), inspect.signature(getattr(core.ServiceCore, name))
        assert list(kept.parameters) == list(seam.parameters), f"{name} differs from its declaration"
    assert GameService.__abstractmethods__ == frozenset()  # the assembled service leaves none open


def test_a_concern_alone_cannot_be_used_as_a_service():
    for cls in CONCERNS:
        assert cls.__abstractmethods__, f"{cls.__name__} would run without the concerns it relies on"


def test_no_concern_uses_a_member_the_core_does_not_declare():
    """Every ``self.x`` a concern reads is its own, or the core's (declared or built in its __init__)."""
    core_members = set(dir(core.ServiceCore)) | set(
        n.attr for n in ast.walk(ast.parse(inspect.getsource(core.ServiceCore.__init__).strip().replace(
            "\n    ", "\n"))) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self")
    for cls, module in CONCERNS.items():
        tree = ast.parse((ROOT / "host" / f"{module}.py").read_text(encoding="utf-8"))
        used = {n.attr for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"}
        own = set(dir(cls)) - set(dir(core.ServiceCore))
        assert used - own - core_members == set(), f"host/{module}.py uses undeclared members"
