"""A picture worker's first boards, drawn before any player waits for them.

A renderer builds its fonts, empty boards and sprites the first time it draws a game in a language, and a new
worker process grows its heap to what a board needs: the first board of each game cost a player 14-100 ms more
than the next (HEX-TRI's 100 ms against 8; issue 29), on every start of the bot and after every worker process
that was stopped for running past its budget. :func:`warm_pictures` draws a board and a hand of every game once,
in the default language, when the process starts (``Workers(..., warm=True)``: the bot's picture workers only,
not the replay or AI workers): about a third of a second of a worker's CPU before it takes its first job, and
about 45 MB of caches (those it builds as it draws those games). Another language's first board of a game still
builds that language's empty board (12-30 ms, once): warming all three languages would double the memory a
worker holds, most of it for languages a server may never use.
"""

from __future__ import annotations

import logging
import random
import time

from host.locale import DEFAULT

log = logging.getLogger(__name__)

#: random legal moves played before the sample is drawn: a board in play (figures, cards, marks), not an empty one
MOVES = 12
#: what the worker process drew when it started: (game, language) -> ms (tests and logs read it)
WARMED: dict[tuple[str, str], float] = {}


def _sample(key: str, seed: int) -> tuple[dict, dict, int]:
    """A public view, seat 0's view and the number of players of a game of ``key`` a few moves in (a fixed seed:
    the same every start)."""
    from engines import ENGINES

    engine = ENGINES[key]
    rng = random.Random(seed)
    state = engine.new_game(engine.min_players, seed, {})
    for _ in range(MOVES):
        acting = engine.to_act(state)
        if not acting:
            break
        engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])))
    return engine.view(state, None), engine.view(state, 0), engine.min_players


def warm_pictures(seed: int = 1, langs: tuple[str, ...] = (DEFAULT,)) -> dict[tuple[str, str], float]:
    """Draw one board and one hand of every game in each of ``langs`` (see the module's docstring); a game that
    fails to draw is logged and skipped (a worker must start whatever a sample does). Returns :data:`WARMED`."""
    from render import RENDERERS

    names = ["Ann", "Bob", "Cyd", "Dan", "Eve", "Fay"]
    for key, renderer in RENDERERS.items():
        try:
            public, private, players = _sample(key, seed)
            for lang in langs:
                start = time.perf_counter()
                shown = {"player_names": names[:players], "lang": lang}
                renderer.render_public({**public, **shown, "clock": [{"text": "5:00", "urgent": False}]})
                renderer.render_private({**private, **shown})
                WARMED[(key, lang)] = (time.perf_counter() - start) * 1000
        except Exception:  # noqa: BLE001 - a sample that cannot be drawn costs its first player the wait, no more
            log.exception("warming up the pictures of %s failed", key)
    return WARMED
