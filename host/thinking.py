"""Running an AI's decision without blocking the event loop, with a time budget (host/workers.py).

The easy and normal levels take milliseconds in ordinary positions, but the AI lists the legal actions first,
and a position can have hundreds of thousands of them: they run in the game service's workers (worker processes
in the bot). The hard level - about a second of CPU - runs in worker processes of its own, so that searches do
not hold up the pictures. Both get the state as its JSON snapshot (``host/seatwork.py``)."""

from __future__ import annotations

import json

from host import seatwork
from host.workers import Workers

#: the hard AI's own worker processes
SEARCH_PROCESSES = 2
_search: Workers | None = None
_light: Workers | None = None


def _searchers() -> Workers:
    global _search
    if _search is None:
        _search = Workers(SEARCH_PROCESSES, name="search")
    return _search


async def think(engine, state, seat: int, rng, level: str | None, *, workers: Workers | None = None,
                snapshot: str | None = None) -> tuple[dict, str | None]:
    """(the AI's action for ``seat`` at ``level``, a complaint about the AI or None: see
    :func:`host.seatwork.ai_decision`): hard in the search processes, the others in ``workers`` (worker threads
    when None). ``snapshot``: ``state`` as JSON text, if the caller has it. Raises
    :class:`host.workers.Overrun` when the decision runs past its budget."""
    global _light
    text = snapshot if snapshot is not None else json.dumps(engine.to_json(state))
    if level == "hard":
        return await _searchers().run("search", seatwork.ai_decision, engine.key, text, seat, rng.state, level)
    if workers is None:
        if _light is None:
            _light = Workers(0, name="ai")
        workers = _light
    return await workers.run("ai", seatwork.ai_decision, engine.key, text, seat, rng.state, level)


def shutdown() -> None:
    """Stop the search processes (they are started again when next needed)."""
    global _search
    if _search is not None:
        _search.close()
        _search = None
