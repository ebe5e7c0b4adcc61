"""Discord's load rules against the real bot process (tests/discord/limits.py in the loopback fake Discord).

A Swiss round of 128 players opens 64 match threads under a thread bucket of 5 per minute, with a hard kill in
the middle; then a bucket that makes the bot wait minutes; then the global limit of 50 requests a second with no
thread bucket. Each checks that every interaction is answered within Discord's 3 s, every match gets exactly one
place (queued, never dropped), its players are told where and when, and prints its figures (``pytest -s``):
docs/discord.md quotes them."""

from __future__ import annotations

import asyncio
import json
import re
import signal

import pytest

from host.service import GameService
from host.tournaments import TournamentService
from store import connect
from tests.backends import fetch_row
from tests.discord.limits import Limits, Window, discord_rules
from tests.discord_harness import CHANNEL_ID, GUILD_ID
from tests.e2e.test_restart import start_bot
from tests.fake_server import FakeDiscordServer

pytestmark = pytest.mark.e2e

ORGANIZER = 500_000_000_000_000_000
SCALE = 60.0  # one minute of Discord's time is a second of the test's
MENTION = re.compile(r"<@(\d+)>")


async def seed_swiss(db: str, players: int, engine: str = "hextri", **options) -> int:
    """A Swiss tournament with ``players`` entries, open for its start (registration is tested elsewhere)."""
    store = await connect(db)
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


async def opened(db: str) -> int:
    return await count(db, f"SELECT COUNT(*) FROM games WHERE thread_id IS NOT NULL AND thread_id != {CHANNEL_ID}")


async def wait_for(check, what: str, timeout: float = 120.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


class Asker:
    """Players asking the bot things while the threads open (not waiting for the bot to go quiet, which it is
    not while it opens threads): ``/tournament my-matches`` from a player, every ``every`` seconds."""

    def __init__(self, server: FakeDiscordServer, every: float = 0.3) -> None:
        self.server, self.every = server, every
        self.tokens: list[tuple[int, str]] = []
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        i = 0
        while True:
            user = ORGANIZER + 127 - (i % 64)  # the players whose matches come last
            payload = self.server.payloads.slash(user, "tournament my-matches", name=f"P{user - ORGANIZER}")
            i += 1
            if not self.server.shards:  # the bot is down (killed, not started again yet)
                await asyncio.sleep(self.every)
                continue
            self.tokens.append((user, payload["token"]))
            await self.server.dispatch("INTERACTION_CREATE", payload)
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def stop(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    def answers(self) -> list[str]:
        fake = self.server.fake
        return [fake.messages[fake.interaction_messages[tok]]["content"] for _, tok in self.tokens
                if tok in fake.interaction_messages]


def check_places(server: FakeDiscordServer, games: list[tuple]) -> None:
    """Every match has its own thread, opened once, whose first message mentions both its players; no board of
    a match was posted in the tournament's channel."""
    fake = server.fake
    threads = [cid for cid, c in fake.channels.items() if c.get("type") == 11]
    places = [thread for _, thread, _ in games]
    assert len(set(places)) == len(games) == 64 and set(places) <= set(threads)
    for _, thread, players in games:
        first = [m for m in fake.messages.values() if int(m["channel_id"]) == thread][0]
        assert set(MENTION.findall(first["content"])) >= {str(p) for p in players}, first["content"]
    boards_in_channel = [m for m in fake.messages.values()
                         if int(m["channel_id"]) == CHANNEL_ID and m["attachments"]]
    assert boards_in_channel == []


async def match_games(db: str) -> list[tuple]:
    rows = []
    for slot in range(64):
        game_id, thread, players = await fetch_row(
            db, "SELECT g.id, g.thread_id, m.players FROM tournament_matches m JOIN games g ON g.id = m.game_id"
                f" WHERE m.slot = {slot}")
        rows.append((game_id, thread, json.loads(players)))
    return rows


@pytest.mark.parametrize("kill", [False, True], ids=["straight", "killed-midway"])
async def test_a_round_of_64_matches_under_a_thread_bucket_of_5_per_minute(tmp_path, kill):
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    tid = await seed_swiss(db, 128, round_limit=2)
    limits = Limits(discord_rules(scale=SCALE, threads=(Window(5, 60),)))
    server = await FakeDiscordServer(limits=limits).start()
    proc = await start_bot(server, db, log)
    asker = Asker(server)
    try:
        began = limits.clock.now()
        await server.dispatch("INTERACTION_CREATE",
                              server.payloads.slash(ORGANIZER, "tournament start", tournament=tid, name="P0"))
        await wait_for(lambda: count(db, "SELECT COUNT(*) FROM games WHERE status = 'running'"), "games started")
        asker.start()
        # the round's post: every match listed, most of them queued with their place in the queue
        post = await wait_for(lambda: asyncio.sleep(0, [m for m in server.fake.messages.values()
                                                        if "round 1 has begun" in m["content"]]), "round post")
        await wait_for(lambda: _above(opened(db), 20), "20 threads")
        killed_at = None
        if kill:
            proc.send_signal(signal.SIGKILL)  # a hard kill while the queue is half done
            await proc.wait()
            killed_at = await opened(db)
            proc = await start_bot(server, db, log)
        await wait_for(lambda: _above(opened(db), 63), "all 64 match threads", timeout=180)
        took = max(limits.threads_created) - began
        await asyncio.sleep(1.5)  # the last answers and the round post's last update
        await asyncio.sleep(0.5)
        await asker.stop()

        games = await match_games(db)
        check_places(server, games)
        assert await count(db, "SELECT COUNT(*) FROM games") == 64
        assert limits.late == [], f"answered late: {limits.late}"
        # players were told where and when: queued ones their place in the queue (and, once the pace was
        # known, about how many minutes), then their thread
        answers = asker.answers()
        assert any("ahead)" in a for a in answers), answers[:5]
        assert any("min (" in a for a in answers), answers[:5]
        assert any("<#" in a for a in answers[-10:]), answers[-3:]
        lines = "\n".join(m["content"] for m in server.fake.messages.values() if int(m["channel_id"]) == CHANNEL_ID
                          and ("round 1 has begun" in m["content"] or " — " in m["content"]))
        assert len(re.findall(r"<#\d+>", lines)) == 64 and "⏳" not in lines, lines[:500]
        assert post
        figures = {"open_64_discord_min": round(took / 60, 2), "opened_before_kill": killed_at,
                   "threads_made": len(limits.threads_created), **limits.figures()}
        print(f"\nFIGURES 64 matches, threads 5/min, kill={kill}:", json.dumps(figures))
        assert len(limits.threads_created) <= 65  # at most one orphan: a thread made just before the kill
        assert "Traceback" not in log.read_text(errors="replace")
        assert "event loop: uvloop" in log.read_text(errors="replace")  # (the bot's default loop, under this load)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


async def _above(value, n: int) -> bool:
    return (await value) > n


async def test_a_thread_bucket_that_makes_the_bot_wait_minutes(tmp_path):
    """Threads: 5 a minute and 10 in ten minutes (after the 10th, a wait of minutes). The bot keeps answering,
    and the 16 matches of a 32-player round all open."""
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    tid = await seed_swiss(db, 32, round_limit=2)
    limits = Limits(discord_rules(scale=SCALE, threads=(Window(5, 60), Window(10, 600))))
    server = await FakeDiscordServer(limits=limits).start()
    proc = await start_bot(server, db, log)
    asker = Asker(server, every=0.5)
    try:
        began = limits.clock.now()
        await server.dispatch("INTERACTION_CREATE",
                              server.payloads.slash(ORGANIZER, "tournament start", tournament=tid, name="P0"))
        asker.start()

        async def sixteen() -> bool:
            return await count(db, "SELECT COUNT(*) FROM games WHERE thread_id IS NOT NULL") == 16
        await wait_for(sixteen, "16 match threads", timeout=120)
        took = max(limits.threads_created) - began
        await asker.stop()
        await asyncio.sleep(0.5)
        assert limits.late == []
        assert took > 600, "the second window made the bot wait (minutes of Discord's time)"
        print("\nFIGURES 16 matches, threads 5/min and 10/10 min:",
              json.dumps({"open_16_discord_min": round(took / 60, 2), **limits.figures()}))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


async def test_the_global_limit_of_50_requests_a_second(tmp_path):
    """No thread bucket, Discord's real time (scale 1): opening 64 matches at once is several hundred requests;
    the global limit answers 429 and discord.py holds every request until it passes; nothing is lost and every
    interaction is answered (callbacks do not count against the global limit)."""
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    tid = await seed_swiss(db, 128, round_limit=2)
    limits = Limits(discord_rules(scale=1.0, threads=(), global_per_second=50))
    limits.rules.routes = {}  # only the global limit: the per-channel buckets would hide it
    server = await FakeDiscordServer(limits=limits).start()
    proc = await start_bot(server, db, log)
    asker = Asker(server, every=0.5)
    try:
        began = limits.clock.now()
        await server.dispatch("INTERACTION_CREATE",
                              server.payloads.slash(ORGANIZER, "tournament start", tournament=tid, name="P0"))
        asker.start()
        await wait_for(lambda: _above(opened(db), 63), "all 64 match threads", timeout=180)
        took = max(limits.threads_created) - began
        await asker.stop()
        await asyncio.sleep(1)
        games = await match_games(db)
        check_places(server, games)
        assert limits.late == []
        figures = {"open_64_s": round(took, 1), **limits.figures()}
        print("\nFIGURES 64 matches, global 50/s:", json.dumps(figures))
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
