"""Live pages: a move reaches every viewer of a game through server-sent events, in the bot's own process (the
game service pokes the hub) and in a separate web process over the same database (the hub polls it), on SQLite and
PostgreSQL; one message per change and language, however many viewers."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

import ai
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from host.tournaments import TournamentService
from host.weblinks import WebLinks
from store import connect
from tests.web.world import GUILD, PEOPLE, PUBLIC_URL, play_game, world
from web.app import WebServer, make_context


async def next_event(response: aiohttp.ClientResponse, timeout: float = 10.0) -> dict:
    """The next ``update`` event of a stream (pings and other lines skipped)."""
    async def read() -> dict:
        event = None
        while True:
            line = (await response.content.readline()).decode().rstrip("\r\n")
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "update":
                return json.loads(line.split(":", 1)[1].strip())
    return await asyncio.wait_for(read(), timeout)


async def latest_event(response: aiohttp.ClientResponse, version: int) -> dict:
    """The stream's ``update`` events up to the one of ``version`` (none later than it)."""
    while True:
        message = await next_event(response)
        assert message["version"] <= version, message["version"]
        if message["version"] == version:
            return message


async def test_a_move_in_the_bots_process_reaches_the_viewers_at_once(tmp_path):
    # a poll once a minute: only the game service's poke can bring the move in time
    async with world(tmp_path, poll_s=60.0) as w, aiohttp.ClientSession() as http:
        url = await w.url("game", w.running)
        game = await w.store.get_game(w.running)
        streams = [await http.get(f"{url}/events", headers={"Accept-Language": lang}) for lang in ("en", "hu")]
        await asyncio.sleep(0.2)  # (subscribed)
        hub = w.server.app[web_app_context()].hub
        built, delivered = hub.built, hub.delivered
        await w.service.act(w.running, PEOPLE[0][0], game.version, 0)
        after = await w.store.get_game(w.running)
        # (a move may bring more commits with it, an auto-pass: the viewers get each state, the newest last)
        english, hungarian = [await latest_event(s, after.version) for s in streams]
        assert english["version"] == hungarian["version"] == after.version > game.version
        assert english["lines"] and english["lines"] == hungarian["lines"]  # (the game's own language)
        assert english["status_text"].startswith("Waiting for") and hungarian["status_text"].startswith("Rá várunk")
        # a message is made once per change and language (here: one viewer per language), and every one made is
        # delivered; a later commit (the AI's reply) may be being told right now, so the counts are compared once
        # the hub is at rest (the same for 0.1 s)
        async def at_rest() -> tuple[int, int]:
            while True:
                counts = hub.built, hub.delivered
                await asyncio.sleep(0.1)
                if counts == (hub.built, hub.delivered):
                    return counts

        now_built, now_delivered = await asyncio.wait_for(at_rest(), 5)
        assert now_built - built == now_delivered - delivered >= 2
        async with http.get(f"{url}/board/{english['version']}.png") as r:
            assert r.status == 200
        for s in streams:
            s.close()


def web_app_context():
    from web.app import CONTEXT
    return CONTEXT


async def test_a_separate_web_process_learns_of_moves_by_polling_the_database(database, tmp_path):
    """The bot's store and the web process's store are two connections to one database (SQLite file or
    PostgreSQL), as with ``python bot.py web`` beside the bot."""
    bot_store = await connect(database)
    web_store = await connect(database)
    service = GameService(web_store, render_processes=0)
    server = WebServer(make_context(service, TournamentService(service), poll_s=0.2), port=0, rate_per_minute=None)
    await server.start()
    try:
        game_id = await play_game(bot_store, "troja", seed=3, people=PEOPLE[:2], steps=4)
        links = WebLinks(bot_store, PUBLIC_URL)
        url = (await links.game(GUILD, game_id)).replace(PUBLIC_URL, f"http://127.0.0.1:{server.port}")
        async with aiohttp.ClientSession() as http:
            async with http.get(url) as r:
                assert r.status == 200
            stream = await http.get(f"{url}/events")
            await asyncio.sleep(0.3)
            # the bot's process commits a move, as the game service does
            engine = ENGINES["troja"]
            version, snapshot = await bot_store.snapshot(game_id)
            state = engine.from_json(snapshot)
            seat = engine.to_act(state)[0]
            action = ai.random_player(engine, state, seat, Rng(1))
            events = engine.apply(state, seat, action)
            await bot_store.commit_action(game_id, expected_version=version, seat=seat, user_id=None, action=action,
                                          events=events, snapshot=engine.to_json(state), result=None)
            message = await next_event(stream, timeout=10)
            assert message["version"] == version + 1 and message["status"] == "running"
            async with http.get(f"{url}/board/{version + 1}.png") as r:
                assert r.status == 200
            stream.close()
    finally:
        await server.stop()
        service.close()
        await web_store.close()
        await bot_store.close()


async def test_many_viewers_get_the_same_message_and_the_end_of_the_game(tmp_path, monkeypatch):
    from web import pages
    monkeypatch.setattr(pages, "STREAMS_PER_CLIENT", 100)  # (every viewer here is on 127.0.0.1)
    async with world(tmp_path, poll_s=0.2) as w, aiohttp.ClientSession() as http:
        hub = w.server.app[web_app_context()].hub
        game_id = await play_game(w.store, "hector-achilles", seed=21, people=PEOPLE[:2], steps=2)
        url = await w.url("game", game_id)
        streams = [await http.get(f"{url}/events") for _ in range(40)]
        await asyncio.sleep(0.3)
        assert hub.streams == 40
        built = hub.built
        # the rest of the game, committed at once: the viewers see its end
        engine = ENGINES["hector-achilles"]
        version, snapshot = await w.store.snapshot(game_id)
        state, rng = engine.from_json(snapshot), Rng(2)
        while engine.result(state) is None:
            seat = engine.to_act(state)[0]
            action = ai.random_player(engine, state, seat, rng)
            events = engine.apply(state, seat, action)
            version = await w.store.commit_action(game_id, expected_version=version, seat=seat, user_id=None,
                                                  action=action, events=events, snapshot=engine.to_json(state),
                                                  result=engine.result(state))
        messages = await asyncio.gather(*(next_event(s) for s in streams))
        last = messages[0]
        while last["status"] != "finished":  # (a poll may have caught the game half-way)
            last = await next_event(streams[0])
        assert last["version"] == version and last["result_lines"]
        assert hub.built - built <= 3  # one message per change, whatever the number of viewers
        for s in streams:
            s.close()
        await asyncio.sleep(0.3)
        assert hub.streams == 0  # closed pages are forgotten


async def test_one_client_may_not_open_streams_without_end(tmp_path, monkeypatch):
    from web import pages
    monkeypatch.setattr(pages, "STREAMS_PER_CLIENT", 3)
    async with world(tmp_path) as w, aiohttp.ClientSession() as http:
        url = await w.url("game", w.running)
        opened = [await http.get(f"{url}/events") for _ in range(3)]
        assert all(s.status == 200 for s in opened)
        async with http.get(f"{url}/events") as r:
            assert r.status == 429
        for s in opened:
            s.close()


@pytest.mark.parametrize("status", ["lobby"])
async def test_a_lobby_page_waits_for_its_board(tmp_path, status):
    async with world(tmp_path, games=False) as w, aiohttp.ClientSession() as http:
        game, _ = await w.service.create("troja", user_id=PEOPLE[0][0], user_name=PEOPLE[0][1], guild_id=GUILD,
                                         channel_id=1)
        async with http.get(await w.url("game", game.id)) as r:
            body = await r.text()
        assert r.status == 200 and "Waiting for players (1/" in body and 'id="board"' not in body
