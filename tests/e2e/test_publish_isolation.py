"""End to end: the real bot process, its own background publisher on its own timer, and a board that cannot be
drawn as the oldest entry of the outbox (issue 21, item 3). The bot is killed with boards owed in several games
(moves saved while it was down, as after a crash), game 1's saved state is one whose picture cannot be drawn; the
restarted bot posts every other game's board in its first publisher round, each with its player pinged, keeps
game 1's entry for a later try, and goes on working. On both store backends."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import sqlite3

import asyncpg
import pytest

from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from store import connect
from tests.backends import fetch_row
from tests.cogs.driver import boards, latest_board, take_turn, to_act, until_the_turn_passes_next
from tests.cogs.test_publish_isolation import POISON
from tests.e2e.test_restart import start_bot
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

GAMES = 8
PLAYER = 600_000_000_000_000_000


def version_of(board: dict) -> int:
    return int(board["attachments"][0]["filename"].rsplit("-v", 1)[1].split(".")[0])


async def poison(db: str, game_id: int) -> None:
    """Plant a board that cannot be drawn in game ``game_id``'s saved state."""
    (text,) = await fetch_row(db, f"SELECT snapshot FROM games WHERE id = {game_id}")
    snapshot = json.loads(text)
    snapshot["last"] = POISON
    if db.startswith("postgresql://"):
        conn = await asyncpg.connect(db)
        try:
            await conn.execute("UPDATE games SET snapshot = $1 WHERE id = $2", json.dumps(snapshot), game_id)
        finally:
            await conn.close()
    else:
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), game_id))
        conn.close()


async def test_the_real_publisher_posts_every_other_game_behind_a_board_that_cannot_be_drawn(tmp_path, database):
    server = await FakeDiscordServer().start()
    db, log = database, tmp_path / "bot.log"
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)
    try:
        threads = {}
        for i in range(1, GAMES + 1):
            await remote.slash(PLAYER + i, "hector-achilles new", name=f"P{i}", opponent="ai")
            threads[i] = [cid for cid, c in server.fake.channels.items() if c["type"] == 11][-1]
        proc.send_signal(signal.SIGKILL)
        await proc.wait()

        # while it is down: a move in every game is saved, its board owed (game 1's first: the oldest entry)
        store = await connect(db)
        try:
            service = GameService(store, render=False)
            for game_id in range(1, GAMES + 1):
                game = await service.game(game_id)
                await service.act(game_id, PLAYER + game_id, game.version, 0)
            service.close()
        finally:
            await store.close()
        await poison(db, 1)
        before = {g: len(boards(remote, t)) for g, t in threads.items()}
        saved = {g: (await fetch_row(db, f"SELECT status, version FROM games WHERE id = {g}"))[1] for g in threads}

        def published(game_id: int, thread: int) -> bool:
            """The move is shown: on a new board, or (the same turn going on: issue 25) on the board that is up,
            whose picture the restarted publisher uploads again."""
            found = boards(remote, thread)
            return bool(found) and version_of(found[-1]) == saved[game_id]

        proc = await start_bot(server, db, log)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while True:  # the bot's own publisher, on its own timer: nothing here asks it to publish
            shown = [g for g, t in threads.items() if published(g, t)]
            if len(shown) == GAMES - 1 and "publisher round" in log.read_text(errors="replace"):
                break
            assert loop.time() < deadline, f"only games {shown} were published"
            await asyncio.sleep(0.1)
        rounds = re.findall(r"publisher round: .*", log.read_text(errors="replace"))
        assert rounds[0].startswith(f"publisher round: {GAMES} games due, {GAMES - 1} shown, 1 not (1), 0 still "
                                    "going"), rounds
        for game_id, thread in threads.items():
            if game_id == 1:
                assert len(boards(remote, thread)) == before[1]
                continue
            board = latest_board(remote, thread)
            (_, version) = await fetch_row(db, f"SELECT status, version FROM games WHERE id = {game_id}")
            assert version_of(board) == version and to_act(board) == [PLAYER + game_id]
        attempts, dead = await fetch_row(db, "SELECT attempts, dead_at FROM outbox WHERE game_id = 1")
        assert attempts >= 1 and dead is None  # kept, for its own next try

        # the bot keeps working: a move in another game is answered and shown (one that hands the turn on, so that
        # its board is a new one: issue 25)
        async def state_of():
            (snapshot,) = await fetch_row(db, "SELECT snapshot FROM games WHERE id = 2")
            engine = ENGINES["hector-achilles"]
            return engine, engine.from_json(json.loads(snapshot))

        rng = Rng(4)
        await until_the_turn_passes_next(remote, threads[2], rng, state_of=state_of)
        (_, version) = await fetch_row(db, "SELECT status, version FROM games WHERE id = 2")
        await take_turn(remote, threads[2], rng)
        (_, after) = await fetch_row(db, "SELECT status, version FROM games WHERE id = 2")
        assert after > version and version_of(latest_board(remote, threads[2])) == after
        text = log.read_text(errors="replace")
        assert "the board of game 1 could not be built" in text
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
