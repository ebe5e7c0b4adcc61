"""The bot's event loop (host/eventloop.py): uvloop's by default, asyncio's on request or where uvloop is missing,
and a move through the real service and store behaves the same on both."""

from __future__ import annotations

import asyncio
import sys

import pytest

from engines import ENGINES
from engines.rng import Rng
from host import eventloop
from host.service import GameService
from settings import Settings
from store import SqliteStore


def _loop_module() -> str:
    async def which() -> str:
        return type(asyncio.get_running_loop()).__module__.split(".")[0]

    return which()  # type: ignore[return-value]


def test_the_bot_runs_on_uvloop_by_default_and_on_asyncio_when_asked():
    assert eventloop.run(_loop_module()) == "uvloop"
    assert eventloop.run(_loop_module(), "asyncio") == "asyncio"


def test_without_uvloop_the_bot_falls_back_to_asyncio(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvloop", None)  # (as on Windows, where it has no build)
    assert eventloop.kind() == "asyncio"
    assert eventloop.run(_loop_module()) == "asyncio"


def test_the_event_loop_setting():
    assert Settings.from_env({}).event_loop == "uvloop"
    assert Settings.from_env({"EVENT_LOOP": " AsyncIO "}).event_loop == "asyncio"
    with pytest.raises(SystemExit, match="EVENT_LOOP must be one of uvloop, asyncio"):
        Settings.from_env({"EVENT_LOOP": "trio"})
    with pytest.raises(ValueError, match="trio"):
        eventloop.kind("trio")


async def _play(path, moves: int) -> tuple[int, list]:
    """``moves`` random moves of a Troja game through the service and store: the game's version and its log."""
    store = await SqliteStore.open(path)
    service = GameService(store, seed_source=lambda: 7, render=False)
    try:
        users = [11, 12]
        for user in users:
            await service.settings(user, auto_pass=False)
        game, _ = await service.create("troja", user_id=11, user_name="A", guild_id=1, channel_id=1)
        game, _ = await service.join(game.id, 12, "B")
        if game.status == "lobby":
            await service.start(game.id, 11)
        rng = Rng(3)
        for _ in range(moves):
            game = await service.game(game.id)
            if game.status != "running":
                break
            engine = ENGINES[game.engine]
            state = await service._state(game)
            seat = engine.to_act(state)[0]
            index = rng.below(len(engine.legal_actions(state, seat)))
            await service.act(game.id, users[seat], game.version, index)
        game = await service.game(game.id)
        return game.version, [(a["seat"], a["action"]) for a in await store.actions(game.id)]
    finally:
        service.close()
        await store.close()


def test_the_same_moves_come_out_the_same_on_both_loops(tmp_path):
    on_uvloop = eventloop.run(_play(tmp_path / "uv.db", 40))
    on_asyncio = eventloop.run(_play(tmp_path / "aio.db", 40), "asyncio")
    assert on_uvloop == on_asyncio and on_uvloop[0] > 20
