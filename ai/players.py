"""The per-game AIs (``normal``), found by name: ``ai/<engine package>.py`` with ``GAME`` and ``choose``.

Kept apart from ``ai/__init__.py`` and ``ai/search/`` so that the search can use the game's AI as its rollout
policy and prior without importing the module that imports the search (no import circle): only the game
modules are imported here, each named after its engine's package (``engines/hextri/`` -> ``ai/hextri.py``), and
they import nothing of ``ai`` but their own helpers.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from engines import ENGINES

Chooser = Callable[[Any, Any, int, Any], dict]


def random_player(engine, state, seat: int, rng) -> dict:
    """The baseline every AI must beat: a uniformly random legal action."""
    return rng.choice(engine.legal_actions(state, seat))


def _discover(attribute: str) -> dict[str, Chooser]:
    found: dict[str, Chooser] = {}
    package = __name__.rpartition(".")[0]
    for engine in ENGINES.values():
        name = f"{package}.{type(engine).__module__.split('.')[1]}"
        if importlib.util.find_spec(name) is None:
            continue
        module = importlib.import_module(name)
        key = getattr(module, "GAME", None)
        chooser = getattr(module, attribute, None)
        if key and chooser is not None:
            found[key] = chooser
    return found


#: engine key -> the game's own AI
AI_PLAYERS: dict[str, Chooser] = _discover("choose")
#: engine key -> the game's AI in a cheaper form for the search's rollouts (``rollout_choose``: the same
#: choices as ``choose``, without the parts of the view it does not read), where a game has one
ROLLOUT_PLAYERS: dict[str, Chooser] = _discover("rollout_choose")
