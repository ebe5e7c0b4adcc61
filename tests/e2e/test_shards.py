"""End to end, sharded: two real bot processes on one PostgreSQL, SHARD_COUNT=4, one running shards 0-1 and the
other shards 2-3, against the loopback fake Discord, which sends each server's events to its shard's connection.
Games in servers of all four shards (two against the AI, two between people) are played to the end; the second
process SIGKILLs itself in the middle of an AI's chain of moves (a move saved, its board not yet posted).

While it is down, the first process must leave its games alone: no board, no reminder, no resumed AI turn in
their threads, the owed board still owed. Started again, it catches its own games up (the AI turn resumed, the
owed board posted, the reminder of the game that waited); then everything is played out. Every board is posted
exactly once (one POST per board nonce), no board is reminded of twice, and every shard keeps its own heartbeat.

Needs a PostgreSQL server (TEST_DATABASE_URL; .ci/run starts one): several processes on one SQLite file is not a
supported deployment.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections import Counter
from pathlib import Path

import aiohttp
import asyncpg
import pytest

from engines.rng import Rng
from tests.backends import fresh_postgres, server_url
from tests.cogs.driver import boards, game_over, latest_board, take_turn, to_act
from tests.discord_harness import button
from tests.e2e.test_crash_points import board_version
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
COUNT = 4
#: a board that waited this long gets its reminder (7.2 s; the fast launcher checks every second)
REMIND_HOURS = "0.002"
REMINDER = "is waiting for your move"


def guild_on(shard: int) -> int:
    gid = ((1_100_000_000_000 // COUNT * COUNT + shard) << 22) | 4242
    assert (gid >> 22) % COUNT == shard
    return gid


class Process:
    """One bot process running some shards."""

    def __init__(self, server: FakeDiscordServer, url: str, shard_ids: str, log: Path) -> None:
        self.server, self.url, self.shard_ids, self.log = server, url, shard_ids, log
        self.proc: asyncio.subprocess.Process | None = None
        self.health = free_port()

    async def start(self, **extra: str) -> None:
        env = {k: v for k, v in os.environ.items() if k != "CRASH_AT"}
        env.update(DISCORD_TOKEN="fake-token", LOG_LEVEL="INFO", FAKE_DISCORD_API=self.server.api_url,
                   FAKE_DISCORD_GATEWAY=self.server.gateway_url, DEV_GUILD_ID="", DATABASE_URL=self.url,
                   SHARD_COUNT=str(COUNT), SHARD_IDS=self.shard_ids, REMIND_AFTER_HOURS=REMIND_HOURS,
                   RENDER_PROCESSES="0", HEALTH_PORT=str(self.health), OPS_HOST="127.0.0.1", **extra)
        with open(self.log, "ab") as handle:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, str(ROOT / "tests" / "e2e" / "fast_jobs_bot.py"), env=env, cwd=str(ROOT),
                stdout=handle, stderr=asyncio.subprocess.STDOUT)

    async def ready(self, before: int) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 90
        while self.text().count("logged in as") == before:
            if self.proc.returncode is not None or loop.time() > deadline:
                raise AssertionError(f"shards {self.shard_ids} did not come up:\n" + self.text()[-3000:])
            await asyncio.sleep(0.05)

    async def healthz(self) -> int:
        async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{self.health}/healthz") as r:
            return r.status

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def query(url: str, sql: str, *args):
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql, *args)
    finally:
        await conn.close()


async def owed(url: str, game_id: int) -> int:
    return (await query(url, "SELECT COUNT(*) AS n FROM outbox WHERE game_id = $1", game_id))[0]["n"]


async def version(url: str, game_id: int) -> int:
    return (await query(url, "SELECT version FROM games WHERE id = $1", game_id))[0]["version"]


async def wait_for(check, what: str, timeout: float = 40.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not (found := await check()):
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)
    return found


async def turn_or_death(remote: RemoteBot, proc: Process, thread: int, rng: Rng) -> bool:
    """One turn in ``thread``; False if ``proc`` died meanwhile (the turn is then abandoned)."""
    turn = asyncio.ensure_future(take_turn(remote, thread, rng))
    died = asyncio.ensure_future(proc.proc.wait())
    await asyncio.wait({turn, died}, return_when=asyncio.FIRST_COMPLETED)
    if died.done():
        turn.cancel()
        await asyncio.gather(turn, return_exceptions=True)
        return False
    died.cancel()
    turn.result()
    return True


async def test_two_shard_processes_share_the_work_and_survive_a_kill(tmp_path):
    server_url()  # skips, with the reason, before anything is started
    guilds = [guild_on(s) for s in range(COUNT)]
    server = await FakeDiscordServer(guilds=guilds).start()
    remote = RemoteBot(server)
    async with fresh_postgres() as url:
        low = Process(server, url, "0-1", tmp_path / "low.log")
        high = Process(server, url, "2-3", tmp_path / "high.log")
        try:
            # the AI's 4th move in shard 2's game kills the second process: saved, not yet shown
            await asyncio.gather(low.start(), high.start(CRASH_AT="ai_commit:4"))
            await asyncio.gather(low.ready(0), high.ready(0))
            assert sorted(server.identifies) == [(s, COUNT) for s in range(COUNT)]
            assert sorted(server.shards) == list(range(COUNT))
            assert "shards 0,1/4" in low.text() and "shards 2,3/4" in high.text()
            # the readiness check (Docker's HEALTHCHECK) sees all of a sharded process's connections
            assert [await low.healthz(), await high.healthz()] == [200, 200]

            games: dict[int, tuple[int, int]] = {}  # shard -> (game id, thread)
            for shard, opponent in [(0, "open"), (1, "ai"), (2, "ai"), (3, "open")]:
                channel = server.channel_of[guilds[shard]]
                before = set(server.fake.channels)
                await remote.slash(ANN, "hector-achilles new", channel, name="Ann", opponent=opponent)
                thread = next(c for c in server.fake.channels if c not in before)
                assert server.fake.guild_of[thread] == guilds[shard]
                if opponent == "open":
                    lobby = remote.messages_in(thread)[0]
                    await remote.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
                game_id = (await query(url, "SELECT id FROM games WHERE thread_id = $1", thread))[0]["id"]
                games[shard] = (game_id, thread)
            rows = await query(url, "SELECT id, guild_id FROM games ORDER BY id")
            assert [r["guild_id"] for r in rows] == guilds

            rng = Rng(12)
            alive = True
            for _ in range(60):  # round after round, until the second process has killed itself
                for shard in (0, 1, 3, 2):
                    thread = games[shard][1]
                    if shard >= 2:
                        alive = await turn_or_death(remote, high, thread, rng)
                        if not alive:
                            break
                    else:
                        await take_turn(remote, thread, rng)
                if not alive:
                    break
            assert not alive, "the crash point was never reached"
            killed_game = games[2][0]
            assert await owed(url, killed_game) > 0, "the kill left nothing owed: not mid-move"

            # down: the first process plays on, and must not touch the second's games (reminder rounds every
            # second, the publisher every 5 s for entries over 10 s old, so 16 s covers both)
            seen = {s: len(remote.messages_in(games[s][1])) for s in (2, 3)}
            owed_then = await owed(url, killed_game)
            loop = asyncio.get_running_loop()
            until = loop.time() + 16
            while loop.time() < until:
                for shard in (0, 1):
                    if not game_over(latest_board(remote, games[shard][1])):
                        await take_turn(remote, games[shard][1], rng)
                await asyncio.sleep(0.5)
            assert {s: len(remote.messages_in(games[s][1])) for s in (2, 3)} == seen, \
                "the other process posted in the games of the shards that were down"
            assert await owed(url, killed_game) == owed_then, "the other process took over the dead one's outbox"

            # back: it catches its own games up
            await high.start()
            await high.ready(1)
            assert sorted(server.shards) == list(range(COUNT))

            async def caught_up():
                found = boards(remote, games[2][1])
                return (found and board_version(found[-1]) == await version(url, killed_game)
                        and await owed(url, killed_game) == 0)
            await wait_for(caught_up, "the restarted process to post its owed board")
            board = latest_board(remote, games[2][1])
            assert game_over(board) or to_act(board) == [ANN], "the AI's turn was not resumed"

            async def reminded():
                return any(REMINDER in m["content"] for m in remote.messages_in(games[3][1])[seen[3]:])
            await wait_for(reminded, "the reminder of the game that waited while its process was down")

            for _ in range(3000):
                open_games = [s for s in range(COUNT) if not game_over(latest_board(remote, games[s][1]))]
                if not open_games:
                    break
                for shard in open_games:
                    await take_turn(remote, games[shard][1], rng)
            statuses = await query(url, "SELECT status FROM games ORDER BY id")
            assert [r["status"] for r in statuses] == ["finished"] * COUNT
            await asyncio.sleep(1.5)  # a last round of every job, which must find nothing to do

            # every board posted once: one POST per board nonce, one message per board picture
            posts = Counter(s.json.get("nonce") for s in server.fake.sent
                            if s.method == "POST" and s.path == "/channels/{channel_id}/messages" and s.files)
            assert posts and max(posts.values()) == 1, [n for n, k in posts.items() if k > 1]
            for game_id, thread in games.values():
                names = [b["attachments"][0]["filename"] for b in boards(remote, thread)]
                assert len(names) == len(set(names)), f"a board was posted twice in game {game_id}: {names}"
                # at most one reminder per board
                since_board = 0
                for message in remote.messages_in(thread):
                    if message["attachments"]:
                        since_board = 0
                    elif REMINDER in message["content"]:
                        since_board += 1
                        assert since_board == 1, f"game {game_id}: a board was reminded of twice"
            beats = {r["name"] for r in await query(url, "SELECT name FROM heartbeat")}
            assert beats == {f"shard {s}/{COUNT}" for s in range(COUNT)}
            for proc in (low, high):
                text = proc.text()
                assert "Traceback" not in text, text[text.index("Traceback") - 500:][:4000]
        finally:
            for proc in (low, high):
                proc.stop()
                if proc.proc is not None:
                    await proc.proc.wait()
            await server.stop()
