"""Pure rules engines, one package per game, and the protocol they share.

Every game package ``engines/<name>/`` exposes ``ENGINE``: an object following :class:`Engine`
(``engines/protocol.py``, with :class:`IllegalAction`).
They are collected into :data:`ENGINES`, keyed by the public game key (``"hector-achilles"``, ...).
Engines never import discord, asyncio, sqlite or PIL: they are deterministic functions of
(seed, options, actions).
"""

from __future__ import annotations

import importlib
import pkgutil

from engines.protocol import Engine, IllegalAction

__all__ = ["ENGINES", "GAME_ORDER", "Engine", "IllegalAction"]


# The five games in the order the bot lists them; packages are discovered so that adding a game never
# means editing a shared list.
GAME_ORDER = ["hector-achilles", "ave-caesar", "hextri", "troja", "kivalasztottak"]


def _discover() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            found[engine.key] = engine
    order = {key: i for i, key in enumerate(GAME_ORDER)}
    return dict(sorted(found.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


ENGINES: dict[str, Engine] = _discover()
