"""A saved move is always shown, once: the real bot process SIGKILLs itself at a chosen point (before a move is
saved, after it is saved and before its board is posted, after the board is posted and before that is recorded,
in the middle of an AI's chain of moves), is started again on the same database, and every game ends up with its
current board posted exactly once, working buttons, and the right person pinged. On both store backends."""

from __future__ import annotations

import asyncio

import pytest

from engines.rng import Rng
from tests.backends import fetch_row
from tests.cogs.driver import boards, take_turn, to_act
from tests.discord_harness import button, components
from tests.e2e.test_restart import ANN, BOB, start_bot, thread_of
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e


async def stored(db) -> tuple[str, int]:
    return await fetch_row(db, "SELECT status, version FROM games WHERE id = 1")


async def owed(db) -> int:
    return (await fetch_row(db, "SELECT COUNT(*) FROM outbox"))[0]


def board_version(board: dict) -> int:
    return int(board["attachments"][0]["filename"].rsplit("-v", 1)[1].split(".")[0])


async def until_killed(remote: RemoteBot, proc, thread: int, rng: Rng, limit: int = 80) -> None:
    """Play on until the process has killed itself."""
    for _ in range(limit):
        turn = asyncio.ensure_future(take_turn(remote, thread, rng))
        died = asyncio.ensure_future(proc.wait())
        await asyncio.wait({turn, died}, return_when=asyncio.FIRST_COMPLETED)
        if died.done():
            turn.cancel()
            await asyncio.gather(turn, return_exceptions=True)
            return
        died.cancel()
        turn.result()
    raise AssertionError("the crash point was never reached")


async def recorded_board(db) -> int | None:
    return (await fetch_row(db, "SELECT board_message_id FROM games WHERE id = 1"))[0]


async def until_shown(remote: RemoteBot, db, thread: int, timeout: float = 40.0) -> dict:
    """Wait for the restarted bot to catch the thread up with the game: the newest board is the game's current
    one (its picture, or, within a person's turn whose board was updated in place, the board the game recorded
    as its current one: issue 25) and the outbox owes nothing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = boards(remote, thread)
        if found and await owed(db) == 0 and (board_version(found[-1]) == (await stored(db))[1]
                                              or int(found[-1]["id"]) == await recorded_board(db)):
            return found[-1]
        if loop.time() > deadline:
            raise AssertionError(f"the thread stayed behind the game: board v{board_version(found[-1])}, "
                                 f"game v{(await stored(db))[1]}, {await owed(db)} owed")
        await asyncio.sleep(0.1)


@pytest.mark.parametrize("point,nth,opponent", [
    ("before_commit", 4, None), ("after_commit", 3, None), ("after_commit", 6, None), ("after_post", 5, None),
    ("ai_commit", 2, "ai"), ("ai_commit", 5, "ai"),
    # a board updated in place within a person's turn (issue 25), before that is recorded
    ("after_update", 1, None), ("after_update", 2, "ai"),
])
async def test_every_saved_move_is_shown_once_after_a_kill(tmp_path, database, point, nth, opponent):
    server = await FakeDiscordServer().start()
    db, log = database, tmp_path / "bot.log"
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log, CRASH_AT=f"{point}:{nth}")
    try:
        if opponent:
            await remote.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
        else:
            await remote.slash(ANN, "hector-achilles new", name="Ann")
        thread = thread_of(server.fake)
        if not opponent:
            lobby = remote.messages_in(thread)[0]
            await remote.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
        rng = Rng(nth)
        await until_killed(remote, proc, thread, rng)
        killed_at = (await stored(db))[1]

        proc = await start_bot(server, db, log)
        board = await until_shown(remote, db, thread)
        names = [b["attachments"][0]["filename"] for b in boards(remote, thread)]
        assert len(names) == len(set(names)), f"a board was posted twice: {names}"
        assert (await stored(db))[1] >= killed_at
        mentioned = to_act(board)
        assert mentioned and set(mentioned) <= {ANN, BOB}
        if opponent:
            assert mentioned == [ANN], "the AI's turn was not resumed"
        # the buttons of the newest board (or the DM panel it announced) work: the game goes on
        live = [c for c in components(board) if c["custom_id"].startswith(("gh:a:", "gh:s:", "gh:t:", "gh:gb:"))]
        assert live, "the current board has no working control"
        version = (await stored(db))[1]
        await take_turn(remote, thread, rng)
        assert (await stored(db))[1] > version
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[text.index("Traceback") - 500:][:4000]
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
