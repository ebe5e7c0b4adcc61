"""Threads under Discord's rules, against the real bot process: finished games' threads are archived with a last
message; at the cap of 1,000 active threads (160006) a new game still starts (threads of games that are over are
archived to make room, else the game is played in the channel) and nothing is lost; edits Discord refuses (30046
on old messages, 50083 in an archived thread, 10008 for a deleted message) never hold up a move or a board."""

from __future__ import annotations

import asyncio
import json

import pytest

from engines import ENGINES
from engines.rng import Rng
from tests.backends import fetch_row
from tests.cogs.driver import latest_board, take_turn, until_the_turn_passes_next
from tests.discord.limits import Limits, Window, discord_rules
from tests.discord_harness import CHANNEL_ID, GUILD_ID, button
from tests.e2e.test_restart import start_bot
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222


def threads(fake) -> list[int]:
    return [cid for cid, c in fake.channels.items() if c.get("type") == 11]


async def place_of(db: str, game_id: int) -> int | None:
    return (await fetch_row(db, f"SELECT thread_id FROM games WHERE id = {game_id}"))[0]


async def wait_until(check, what: str, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


async def test_at_the_cap_finished_threads_make_room_then_the_channel_holds_the_game(tmp_path):
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    limits = Limits(discord_rules(threads=(), other_threads=997))  # 997 threads of other people
    server = await FakeDiscordServer(limits=limits).start()
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)  # finished games keep their threads 10 minutes (the default)
    try:
        for _ in range(3):  # games 1-3: the server's 998th, 999th and 1,000th active threads
            await remote.slash(ANN, "hector-achilles new", name="Ann")
        await remote.slash(ANN, "game abandon", game=1, name="Ann")  # game 1 is over, its thread still active
        assert len(threads(server.fake)) == 3 and not any(server.fake.archived(t) for t in threads(server.fake))

        # game 4: the cap; the thread of game 1 (over) is archived, with its last message, and game 4 gets one
        await remote.slash(ANN, "hector-achilles new", name="Ann")
        first = await place_of(db, 1)
        assert server.fake.archived(first)
        assert "is over, so this thread is archived" in remote.messages_in(first)[-1]["content"]
        fourth = await place_of(db, 4)
        assert fourth not in (None, CHANNEL_ID) and fourth in threads(server.fake)
        assert limits.refused[(400, 160006)] == 1

        # game 5: still at the cap and nothing over to archive: played in the channel, and it says why
        await remote.slash(ANN, "hector-achilles new", name="Ann")
        assert await place_of(db, 5) == CHANNEL_ID
        assert limits.refused[(400, 160006)] == 2  # nothing over to archive: not tried again
        lobby = next(m for m in remote.messages_in(CHANNEL_ID) if m["embeds"] and "#5" in m["embeds"][0]["title"])
        assert "limit of 1,000 active threads" in lobby["content"]
        # nothing is lost: Bob joins, the game starts in the channel and is played there
        await remote.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")

        async def board_posted() -> bool:  # the first board is drawn in a worker: on a loaded host it takes a while
            return any(m["attachments"] for m in remote.messages_in(CHANNEL_ID))

        await wait_until(board_posted, "the first board of game 5 in the channel")
        rng = Rng(5)
        for _ in range(3):
            await take_turn(remote, CHANNEL_ID, rng)
        assert (await fetch_row(db, "SELECT status, version FROM games WHERE id = 5")) == ("running", 3)
        assert limits.late == []
        assert "Traceback" not in log.read_text(errors="replace")
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


async def test_a_finished_games_thread_is_archived_with_a_last_message(tmp_path):
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    limits = Limits(discord_rules(threads=()))
    server = await FakeDiscordServer(limits=limits).start()
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log, ARCHIVE_AFTER_MINUTES="0")
    try:
        await remote.slash(ANN, "hextri new", name="Ann", opponent="ai", round_limit=1, radius=2,
                           level="easy")
        thread = threads(server.fake)[-1]

        async def first_board() -> bool:
            return any(m["attachments"] for m in remote.messages_in(thread))
        await wait_until(first_board, "the first board")
        rng = Rng(3)
        while (await fetch_row(db, "SELECT status FROM games WHERE id = 1"))[0] == "running":
            await take_turn(remote, thread, rng)

        async def archived() -> bool:
            return server.fake.archived(thread)
        await wait_until(archived, "the finished game's thread archived")
        last = remote.messages_in(thread)[-1]["content"]
        assert "Game #1 is over, so this thread is archived" in last and "/game status 1" in last
        assert limits.active_threads(GUILD_ID) == 0
        # a message in it reopens it (Discord's rule); the bot leaves it alone from then on
        await server.fake.rest("POST", "/channels/{channel_id}/messages", {"channel_id": str(thread)},
                               {"content": "gg"}, {})
        assert not server.fake.archived(thread)
        await asyncio.sleep(1.0)
        assert not server.fake.archived(thread)
        assert sum("is archived" in m["content"] for m in remote.messages_in(thread)) == 1
        assert "Traceback" not in log.read_text(errors="replace")
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()


@pytest.mark.parametrize("window", [3600, 20])
async def test_refused_edits_never_hold_up_a_move_or_a_board(tmp_path, window):
    """30046 (every edit of a message older than an hour refused: for an hour, which discord.py reports at once,
    or for 20 s, which it would sleep through five times), 10008 (the lobby message deleted), 50083 (the thread
    archived while the lobby waited): each move is still answered within 3 s and its board posted."""
    db, log = str(tmp_path / "g.db"), tmp_path / "bot.log"
    limits = Limits(discord_rules(threads=(), old_edits=Window(0, window)))
    server = await FakeDiscordServer(limits=limits).start()
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)
    try:
        await remote.slash(ANN, "hector-achilles new", name="Ann")
        thread = threads(server.fake)[-1]
        lobby = remote.messages_in(thread)[0]
        announce = next(m for m in remote.messages_in(CHANNEL_ID) if "opened" in m["content"])
        # the lobby waited long: Discord archived its thread (50083 on the lobby's edit) and someone deleted the
        # lobby message (10008 when its buttons are cleared)
        server.fake.channels[thread]["thread_metadata"]["archived"] = True
        del server.fake.messages[int(lobby["id"])]
        await remote.click(BOB, announce, button(announce, "Join")["custom_id"], name="Bob")
        assert not server.fake.archived(thread), "the first board reopened the thread"
        boards = [m for m in remote.messages_in(thread) if m["attachments"]]
        assert len(boards) == 1
        rng = Rng(8)
        await take_turn(remote, thread, rng)

        async def state_of():
            (snapshot,) = await fetch_row(db, "SELECT snapshot FROM games WHERE id = 1")
            engine = ENGINES["hector-achilles"]
            return engine, engine.from_json(json.loads(snapshot))

        # (the next decision hands the turn on, so that its board is a new post: issue 25)
        await until_the_turn_passes_next(remote, thread, rng, state_of=state_of)
        # two hours later every earlier message is old: clearing the last board's buttons gets 30046
        limits.clock.advance(2 * 3600)
        before = latest_board(remote, thread)
        loop = asyncio.get_running_loop()
        began = loop.time()
        await take_turn(remote, thread, rng)
        after = latest_board(remote, thread)
        assert after["id"] != before["id"], "the move's board was posted"
        assert loop.time() - began < 10
        assert limits.refused[(429, 30046)] >= 1
        assert before["components"], "the refused edit left the old board as it was (its buttons say out of date)"
        await take_turn(remote, thread, rng)
        assert limits.late == []
        assert (await fetch_row(db, "SELECT version FROM games WHERE id = 1"))[0] >= 3
        text = log.read_text(errors="replace")
        assert "Traceback" not in text
        assert "50083" in text and "10008" in text and "could not clear the buttons" in text
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
