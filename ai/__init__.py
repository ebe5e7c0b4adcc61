"""AI players: one module per game exposing ``GAME`` (the engine key) and
``choose(engine, state, seat, rng) -> action``.

An AI must pick one of ``engine.legal_actions(state, seat)`` and base its choice only on what that seat may
know: ``engine.view(state, seat)``. Search over hidden information is allowed only on copies made from the
seat's own knowledge (determinisation); perfect-information games may simulate on
``engine.from_json(engine.to_json(state))`` copies. ``rng`` is an ``engines.rng.Rng`` owned by the caller, so
the same game and seed always give the same AI moves (the hard level's budget is a number of iterations,
``ai/levels.py``; only its wall-clock safety cap, on a loaded host, can make them depend on the machine).

Levels (``ai/levels.py``): ``easy`` is the game's AI taking a random legal action now and then, ``normal``
the game's AI, ``hard`` a search (``ai/search/``: IS-MCTS or paired playouts; HEX-TRI's own) with the game's
AI as rollout policy and prior, over determinizations that redeal everything the seat did not see.
"""

from __future__ import annotations

from ai import levels, search
from ai.players import AI_PLAYERS, Chooser, random_player

__all__ = ["AI_PLAYERS", "Chooser", "choose", "choose_by_key", "random_player"]


def choose(engine, state, seat: int, rng, level: str | None = None) -> dict:
    """The AI of ``level`` (default ``normal``: the game's own AI when there is one, else the random player)."""
    level = levels.check(level)
    heuristic = AI_PLAYERS.get(engine.key, random_player)
    if level == "easy":
        legal = engine.legal_actions(state, seat)
        if rng.below(1000) < levels.EASY_MISTAKES * 1000:
            return rng.choice(legal)
        return heuristic(engine, state, seat, rng)
    if level == "hard":
        return search.choose(engine, state, seat, rng, **search.hard_budget(engine))
    return heuristic(engine, state, seat, rng)


def choose_by_key(engine_key: str, state, seat: int, rng_state: int, level: str | None = None) -> dict:
    """:func:`choose` with plain arguments (engine key, rng state) so a worker process can run it."""
    from engines import ENGINES
    from engines.rng import Rng

    return choose(ENGINES[engine_key], state, seat, Rng(rng_state), level)
