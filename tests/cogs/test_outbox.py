"""A saved move is always shown: the outbox through the real discord.py dispatch, with Discord failing to take
the board (500, 403), the thread deleted mid-game, and an AI turn that fails after the person's move was saved."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

from engines.rng import Rng
from tests.cogs.driver import boards, latest_board, take_turn, to_act, until_the_turn_passes_next
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
from tests.discord_harness import CHANNEL_ID, button, components


async def two_player_game(h) -> int:
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    return thread


def pending(h) -> list[tuple]:
    with sqlite3.connect(h.bot.settings.database_path) as db:
        return db.execute("SELECT game_id, version, attempts FROM outbox").fetchall()


def stored_version(h, game_id: int = 1) -> int:
    with sqlite3.connect(h.bot.settings.database_path) as db:
        return db.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()[0]


def ephemeral_texts(h, since: int) -> list[str]:
    return [m["content"] for m in list(h.fake.messages.values())[since:] if m["flags"] & 64]


def board_version(board: dict) -> int:
    name = board["attachments"][0]["filename"]  # hector-achilles-1-v7.png
    return int(name.rsplit("-v", 1)[1].split(".")[0])


def later(h, minutes: int = 5) -> None:
    """Move the publisher's clock on, past the pause before a retry."""
    h.bot.outbox.clock = lambda: datetime.now(UTC) + timedelta(minutes=minutes)


def assert_current_board(h, thread: int) -> dict:
    """The thread's newest board is the game's current one, posted once, with live buttons, mentioning who is
    to act."""
    board = latest_board(h, thread)
    version = stored_version(h)
    assert board_version(board) == version
    names = [b["attachments"][0]["filename"] for b in boards(h, thread)]
    assert len(names) == len(set(names)), "a board was posted twice"
    assert any(f":{version}:" in c["custom_id"] or c["custom_id"].startswith(("gh:t:", "gh:h:"))
               for c in components(board))
    assert to_act(board), "nobody is pinged on the current board"
    return board


async def test_a_board_discord_refuses_is_posted_later_and_the_player_is_told_the_truth(harness):
    h = harness
    thread = await two_player_game(h)
    rng = Rng(3)
    await take_turn(h, thread, rng)
    before_boards = len(boards(h, thread))
    h.fake.faults[thread] = (500, 0)
    since = len(h.fake.messages)
    version = stored_version(h)
    await take_turn(h, thread, rng)  # the move lands, its board cannot be posted
    assert stored_version(h) > version
    assert len(boards(h, thread)) == before_boards
    told = ephemeral_texts(h, since)
    assert any("Your move is saved" in text and "posted as soon as" in text for text in told), told
    assert not any("nothing was changed" in text for text in told)
    assert pending(h) and pending(h)[0][2] == 1  # kept, one failed attempt

    del h.fake.faults[thread]
    publisher = h.bot.get_cog("Publisher")
    await publisher.publish_pending(grace=timedelta(0))
    # (not yet due: a retry waits a few seconds)
    assert len(boards(h, thread)) == before_boards
    later(h)
    assert await publisher.publish_pending() == 1
    assert pending(h) == []
    assert_current_board(h, thread)
    h.assert_no_errors()


async def test_the_old_board_keeps_its_buttons_until_the_new_one_is_up(harness):
    h = harness
    thread = await two_player_game(h)
    rng = Rng(5)
    await take_turn(h, thread, rng)
    await until_the_turn_passes_next(h, thread, rng)  # (a decision within a turn updates the same board)
    old = latest_board(h, thread)
    h.fake.faults[thread] = (403, 50001)
    await take_turn(h, thread, rng)
    # the new board could not be posted: the old one is still the thread's working control
    assert components(h.fake.messages[int(old["id"])])
    del h.fake.faults[thread]
    start = len(h.fake.sent)
    later(h)
    await h.bot.get_cog("Publisher").publish_pending()
    calls = [(s.method, s.path) for s in h.fake.sent[start:] if s.path.startswith("/channels/")]
    post = calls.index(("POST", "/channels/{channel_id}/messages"))
    clear = calls.index(("PATCH", "/channels/{channel_id}/messages/{message_id}"))
    assert post < clear, calls
    assert not components(h.fake.messages[int(old["id"])])
    assert_current_board(h, thread)


async def test_a_deleted_thread_gets_a_new_one_and_the_players_are_told(harness):
    h = harness
    thread = await two_player_game(h)
    rng = Rng(8)
    await take_turn(h, thread, rng)
    board = latest_board(h, thread)
    user = to_act(board)[0]
    h.fake.delete_channel(thread)
    # the player acts from the DM panel they were sent (their thread is gone)
    dm = [m for m in h.dm_messages(user) if components(m)][-1]
    since = len(h.fake.messages)
    choice = next(c for c in components(dm) if c["custom_id"].startswith(("gh:a:", "gh:s:")))
    if choice["custom_id"].startswith("gh:s:"):
        await h.click(user, dm, choice["custom_id"], values=[choice["options"][0]["value"]])
    else:
        await h.click(user, dm, choice["custom_id"])
    new_thread = thread_of(h)
    assert new_thread != thread
    told = ephemeral_texts(h, since)
    assert any("new thread" in text and f"<#{new_thread}>" in text for text in told), told
    in_new = h.messages_in(new_thread)
    assert "was deleted" in in_new[0]["content"] and f"<@{ANN}>" in in_new[0]["content"]
    assert any(f"<#{new_thread}>" in m["content"] for m in h.messages_in(CHANNEL_ID))
    assert_current_board(h, new_thread)
    assert pending(h) == []
    # the game goes on in the new thread
    await take_turn(h, new_thread, rng)
    assert_current_board(h, new_thread)
    h.assert_no_errors()


async def test_an_ai_turn_that_fails_after_the_persons_move_is_resumed(harness, monkeypatch):
    h = harness
    await h.slash(ANN, "hector-achilles new", opponent="ai", name="Ann")
    thread = thread_of(h)
    store = h.bot.store
    real = store.commit_action
    failing = {"on": True}

    async def commit(game_id, **kw):
        if kw["user_id"] is None and failing["on"]:  # the AI's move: the disk is full
            raise sqlite3.OperationalError("database or disk is full")
        return await real(game_id, **kw)

    monkeypatch.setattr(store, "commit_action", commit)
    rng = Rng(2)
    for _ in range(6):  # until a person's move hands the turn to the AI
        version = stored_version(h)
        await take_turn(h, thread, rng)
        if stored_version(h) == version + 1 and not to_act(latest_board(h, thread)):
            break
    else:
        raise AssertionError("the AI never had to move")
    assert [p[0] for p in pending(h)] == [1], "the owed AI turn must stay in the outbox"
    failing["on"] = False
    later(h)
    await h.bot.get_cog("Publisher").publish_pending()
    assert stored_version(h) > version + 1, "the AI turn was not resumed"
    assert pending(h) == []
    board = assert_current_board(h, thread)
    assert to_act(board) == [ANN]
    h.errors.records.clear()  # the failed AI turn was logged as an error, on purpose


def owed_rows(h) -> list[tuple]:
    with sqlite3.connect(h.bot.settings.database_path) as db:
        return db.execute("SELECT posted, attempts FROM outbox ORDER BY id").fetchall()


def dms_sent(h) -> int:
    return sum(len(h.dm_messages(user)) for user in (ANN, BOB))


async def test_a_moves_board_and_its_dm_are_recorded_in_one_commit_after_the_dm(harness, monkeypatch):
    """Issue 29: the outbox's bookkeeping of a move's publication (its board is up, the DM of the player to act
    is sent, its entries are done) is one transaction, written once the DM is out, not two."""
    h = harness
    thread = await two_player_game(h)
    rng = Rng(7)
    await take_turn(h, thread, rng)
    await until_the_turn_passes_next(h, thread, rng)  # (the next decision posts a new board and DMs the next)
    store, calls = h.bot.service.store, []

    def spy(name: str):
        real = getattr(store, name)

        def record(*args, **kwargs):
            calls.append((name, dms_sent(h)))
            return real(*args, **kwargs)
        return record
    for name in ("outbox_posted", "outbox_done", "outbox_delivered"):
        monkeypatch.setattr(store, name, spy(name))
    dms = dms_sent(h)
    await take_turn(h, thread, rng)
    board = assert_current_board(h, thread)
    assert dms_sent(h) == dms + 1, "the player to act is DMed"
    assert calls == [("outbox_delivered", dms + 1)], "one record, after the DM"
    assert owed_rows(h) == []
    assert (await store.get_game(1)).board_message_id == int(board["id"])


async def test_a_dm_that_fails_after_the_board_is_up_is_sent_later_without_a_second_board(harness, monkeypatch):
    """The board is up but the DM fails with more than a transient error: the board is recorded as posted before
    the failure is counted, so the retry sends only the DM."""
    import cogs.publish as publish

    h = harness
    thread = await two_player_game(h)
    rng = Rng(9)
    await take_turn(h, thread, rng)
    await until_the_turn_passes_next(h, thread, rng)  # (the next decision posts a new board and DMs the next)
    real, failing = publish.send_nudge, [True]

    async def send_nudge(bot, game, nudge):
        if failing[0]:
            raise RuntimeError("the DM could not be built")
        await real(bot, game, nudge)
    monkeypatch.setattr(publish, "send_nudge", send_nudge)
    shown, dms = len(boards(h, thread)), dms_sent(h)
    await take_turn(h, thread, rng)
    assert len(boards(h, thread)) == shown + 1 and dms_sent(h) == dms
    assert owed_rows(h) and all(row == (1, 1) for row in owed_rows(h)), "posted, one failed try"
    failing[0] = False
    later(h)
    await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))
    assert owed_rows(h) == []
    assert len(boards(h, thread)) == shown + 1, "the board is not posted again"
    assert dms_sent(h) == dms + 1
    assert_current_board(h, thread)
