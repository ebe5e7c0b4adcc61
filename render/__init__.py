"""Pure renderers: engine *views* in, PNG bytes out. One module per game, found by its ``GAME`` key.

A game module exposes ``render_public(view) -> bytes`` (the board everyone sees) and
``render_private(view) -> bytes | None`` (a seat's hand; None when the game has nothing private).
Renderers read views only, never engine state, so hidden information cannot leak into a picture.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def _discover() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name in {"kit"} or info.ispkg and info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        key = getattr(module, "GAME", None)
        if key:
            found[key] = module
    return found


RENDERERS: dict[str, ModuleType] = _discover()
