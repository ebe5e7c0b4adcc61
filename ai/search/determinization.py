"""Determinization: the full states the searching seat cannot tell from the real one.

Each game with hidden information has ``engines/<game>/determinize.py``: ``determinize(state, seat, rng)``
redeals everything the seat did not see and reseeds the engine's future chance. A perfect-information game
just copies the state (the search is then plain MCTS). The real state is only ever passed to the
determinizer, so the searches never read hidden cards.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from collections.abc import Callable
from typing import Any

from ai.search.config import Game
from engines.rng import Rng

Determinizer = Callable[[Any, int, Rng], Any]


def determinizer(engine: Game) -> Determinizer:
    """The game's ``determinize(state, seat, rng)``, or a plain copy for perfect-information games."""
    package = type(engine).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.determinize").determinize
    except ModuleNotFoundError:
        return lambda state, seat, rng: engine.from_json(engine.to_json(state))


def fingerprint(engine: Game, state: Any) -> str:
    """A short fingerprint of a whole state (for traces)."""
    return hashlib.sha256(json.dumps(engine.to_json(state), sort_keys=True).encode()).hexdigest()[:16]
