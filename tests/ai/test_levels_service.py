"""AI levels through the game service, and the hard AI thinking without blocking the event loop."""

from __future__ import annotations

import asyncio
import time

import pytest

from engines import ENGINES
from engines.rng import Rng
from host import thinking
from host.service import GameError, GameService
from store import SqliteStore

ANN = 1


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


async def test_a_game_against_an_easy_ai_stores_and_names_the_level(store):
    service = GameService(store, seed_source=lambda: 3, render=False)
    game, _ = await service.create("troja", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai", level="easy", lang="en")
    assert game.seats[1].ai_level == "easy" and game.seats[1].name == "AI (easy)"
    game, _ = await service.create("troja", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai", lang="hu")
    assert game.seats[1].ai_level == "normal" and game.seats[1].name == "AI"
    with pytest.raises(GameError) as err:
        await service.create("troja", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                             opponent="ai", level="godlike", lang="pl")
    assert "godlike" in err.value.text("pl") and "trudny" in err.value.text("pl")


async def test_the_service_asks_the_ai_of_the_seat_level(store, monkeypatch):
    asked = []

    async def think(engine, state, seat, rng, level, **where):
        asked.append(level)
        return engine.legal_actions(state, seat)[0], None

    monkeypatch.setattr(thinking, "think", think)
    service = GameService(store, seed_source=lambda: 3, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai", level="hard")
    for _ in range(40):
        game = await service.game(game.id)
        if "hard" in asked or game.status != "running":
            break
        await service.act(game.id, ANN, game.version, 0)
    assert asked and set(asked) == {"hard"}


async def test_the_hard_ai_thinks_without_blocking_the_event_loop():
    engine = ENGINES["troja"]
    state = engine.new_game(2, 4, {})
    rng = Rng(2)
    import ai

    while len(engine.legal_actions(state, engine.to_act(state)[0])) < 3:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, ai.choose(engine, state, seat, rng))
    seat = engine.to_act(state)[0]
    lateness = []

    async def ticker():
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            lateness.append(time.perf_counter() - start - 0.01)

    tick = asyncio.create_task(ticker())
    try:
        begun = time.perf_counter()
        action, complaint = await thinking.think(engine, state, seat, Rng(5), "hard")
        took = time.perf_counter() - begun
    finally:
        tick.cancel()
        thinking.shutdown()
    assert action in engine.legal_actions(state, seat) and complaint is None
    assert took > 0.5, "the hard AI really searched for about a second"
    # a search on the event loop would hold it for the whole search (over 0.5 s, asserted above); a quarter
    # second leaves room for a loaded 2-core host's scheduling (0.106 s was seen there with the search away)
    assert len(lateness) > 30 and max(lateness) < 0.25
