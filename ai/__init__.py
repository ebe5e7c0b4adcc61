"""AI players: one module per game exposing ``GAME`` (the engine key) and
``choose(engine, state, seat, rng) -> action``.

An AI must pick one of ``engine.legal_actions(state, seat)`` and base its choice only on what that seat may
know: ``engine.view(state, seat)``. Search over hidden information is allowed only on copies made from the
seat's own knowledge (determinisation); perfect-information games may simulate on
``engine.from_json(engine.to_json(state))`` copies. ``rng`` is an ``engines.rng.Rng`` owned by the caller, so
the same game and seed always give the same AI moves.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

Chooser = Callable[[Any, Any, int, Any], dict]


def random_player(engine, state, seat: int, rng) -> dict:
    """The baseline every AI must beat: a uniformly random legal action."""
    return rng.choice(engine.legal_actions(state, seat))


def _discover() -> dict[str, Chooser]:
    found: dict[str, Chooser] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        key = getattr(module, "GAME", None)
        if key:
            found[key] = module.choose
    return found


AI_PLAYERS: dict[str, Chooser] = _discover()


def choose(engine, state, seat: int, rng) -> dict:
    """The game's own AI when there is one, else the random player."""
    return AI_PLAYERS.get(engine.key, random_player)(engine, state, seat, rng)
