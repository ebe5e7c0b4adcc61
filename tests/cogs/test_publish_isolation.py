"""One game whose board cannot be drawn never holds the others back (issue 21, item 3), through the real
background publisher (cogs/publisher.py, host/outbox.py) and the real clock round (cogs/clocks.py): the other
games' boards are posted in the same round; the broken one is tried again after its own pauses, then set aside
(a dead letter) with a plain note in its thread, shown by ``/game status`` and counted by the metric
``gamehost_publish_failed_total``; a restart neither tries it again nor forgets it; the next board that can be
posted replaces it."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from datetime import UTC, datetime, timedelta

import discord

import render.hector_achilles as picture
from engines.rng import Rng
from host.outbox import MAX_ATTEMPTS, RETRY_PAUSES
from tests.cogs.driver import (
    boards,
    latest_board,
    newest_ephemeral,
    pick,
    take_turn,
    to_act,
    until_the_turn_passes_next,
)
from tests.cogs.test_clocks import Clock
from tests.cogs.test_tournament_play import restart
from tests.discord_harness import button

EVERYONE = "1071698660929"
NO_MANAGE = str(int(EVERYONE) & ~int(discord.Permissions(manage_guild=True).value))
MANAGE = str(int(EVERYONE) | discord.Permissions(manage_guild=True).value)
PLAYER = 500_000_000_000_000_000  # players PLAYER + 1, PLAYER + 2, ...: one person per game
MOD = 444_444_444_444_444_444

#: a colour no Hector and Achilles card has: the rules engine carries the last move's events through untouched,
#: the picture of the board looks the colour's name up and cannot be drawn (until the next move replaces them)
POISON = [{"type": "card_played", "seat": 1, "slot": 1, "card": {"colour": "mauve", "strength": 2, "kind": "archer"}}]


def poison(h, game_id: int) -> None:
    """Plant a board that cannot be drawn in a Hector and Achilles game's saved state (and forget the state the
    bot holds in memory, as after a restart)."""
    with sqlite3.connect(h.bot.settings.database_path) as db:
        (text,) = db.execute("SELECT snapshot FROM games WHERE id = ?", (game_id,)).fetchone()
        snapshot = json.loads(text)
        snapshot["last"] = POISON
        db.execute("UPDATE games SET snapshot = ? WHERE id = ?", (json.dumps(snapshot), game_id))
    db.close()
    h.bot.service._live.pop(game_id, None)


def owed(h, game_id: int) -> list[tuple]:
    """(attempts, next try, set aside) of the game's outbox entries."""
    with sqlite3.connect(h.bot.settings.database_path) as db:
        return db.execute("SELECT attempts, next_try, dead_at IS NOT NULL FROM outbox WHERE game_id = ? ORDER BY id",
                          (game_id,)).fetchall()


def failures(h, cause: str = "internal") -> float:
    return h.bot.metrics.registry.get_sample_value("gamehost_publish_failed_total", {"cause": cause}) or 0


def version_of(board: dict) -> int:
    return int(board["attachments"][0]["filename"].rsplit("-v", 1)[1].split(".")[0])


async def stored_version(h, game_id: int) -> int:
    return (await h.bot.service.store.get_game(game_id, with_snapshot=False)).version


def replies(h, since: int) -> list[str]:
    return [m["content"] for m in list(h.fake.messages.values())[since:]]


async def open_games(h, count: int) -> dict[int, tuple[int, int]]:
    """``count`` games of Hector and Achilles against the AI, one person each: game id -> (person, thread)."""
    games = {}
    for i in range(1, count + 1):
        await h.slash(PLAYER + i, "hector-achilles new", name=f"P{i}", opponent="ai")
        game = (await h.bot.service.store.list_games(user_id=PLAYER + i))[0]
        games[game.id] = (PLAYER + i, game.thread_id)
    return games


async def test_fifty_games_are_published_on_time_behind_a_board_that_cannot_be_drawn(harness, caplog, tmp_path):
    h = harness
    caplog.set_level(logging.INFO, logger="cogs.publisher")
    games = await open_games(h, 51)
    service = h.bot.service
    # every game owes a board: a move each was saved and its board not posted yet (the bot was busy, or died);
    # game 1's is the oldest entry of the outbox, and its board cannot be drawn
    for game_id, (person, _) in games.items():
        await service.act(game_id, person, await stored_version(h, game_id), 0)
    poison(h, 1)
    shown_before = {g: len(boards(h, thread)) for g, (_, thread) in games.items()}
    publisher = h.bot.get_cog("Publisher")
    started = datetime.now(UTC)

    assert await publisher.publish_pending(grace=timedelta(0)) == 51  # one round of the background publisher
    took = (datetime.now(UTC) - started).total_seconds()
    for game_id, (person, thread) in games.items():
        if game_id == 1:
            assert len(boards(h, thread)) == shown_before[1], "a board that cannot be drawn was posted"
            continue
        board = latest_board(h, thread)
        assert version_of(board) == await stored_version(h, game_id), f"game {game_id} was held back"
        assert to_act(board) == [person], f"game {game_id}: its player was not pinged"
    (round_log,) = [line for line in caplog.messages if line.startswith("publisher round")]
    assert re.fullmatch(r"publisher round: 51 games due, 50 shown, 1 not \(1\), 0 still going after [\d.]+ s",
                        round_log), round_log
    print(f"\n50 boards published behind the broken one in one round of {took:.2f} s")
    (entry,) = owed(h, 1)
    assert entry[0] == 1 and not entry[2]  # one failed try, its own pause before the next
    due = datetime.fromisoformat(entry[1])
    assert timedelta(seconds=RETRY_PAUSES[0] - 2) < due - started < timedelta(seconds=RETRY_PAUSES[0] + took + 2)
    assert failures(h) == 1
    (logged,) = [r for r in h.errors.records if r.getMessage() == "the board of game 1 could not be built"]
    assert "colour_mauve" in str(logged.exc_info[1])
    h.errors.records.clear()

    # game 1 is tried again after each of its own pauses, until it is set aside; game 2 goes on meanwhile,
    # its boards posted at once
    rng, second = Rng(5), games[2][1]
    h.bot.outbox.clock = clock = Clock()
    for attempt in range(2, MAX_ATTEMPTS + 1):
        await until_the_turn_passes_next(h, second, rng, game_id=2)  # (so that a new board is posted: issue 25)
        before = await stored_version(h, 2)
        await take_turn(h, second, rng)
        assert version_of(latest_board(h, second)) == await stored_version(h, 2) > before
        await publisher.publish_pending(grace=timedelta(0))  # not yet due: left alone
        assert owed(h, 1)[0][0] == attempt - 1
        clock.now += timedelta(seconds=RETRY_PAUSES[attempt - 2] + 1)
        await publisher.publish_pending(grace=timedelta(0))
        assert owed(h, 1)[0][0] == attempt
    assert owed(h, 1)[0][2], "not set aside after the last try"
    assert failures(h) == MAX_ATTEMPTS
    assert h.bot.metrics.registry.get_sample_value("gamehost_publish_set_aside_total") == 1
    person, thread = games[1]
    notes = [m["content"] for m in h.messages_in(thread) if "set aside" in m["content"]]
    assert notes == [f"⚠️ The board of game #1 could not be posted ({MAX_ATTEMPTS} tries), so it is set aside. No "
                     "move is lost: every move is saved, `/game status` shows where the game stands, and the next "
                     "move posts a new board. Moderators see what went wrong in `/game status`."]
    assert any(r.getMessage().startswith("game 1: publication set aside after 5 failed tries") for r in h.errors.records)
    h.errors.records.clear()

    # /game status says so: to the player in plain words, to a moderator with the error
    since = len(h.fake.messages)
    await h.slash(person, "game status", channel_id=thread, permissions=NO_MANAGE)
    (answer,) = replies(h, since)[-1:]
    assert "The board of game #1 cannot be drawn right now" in answer
    assert f"A board of this game could not be posted after {MAX_ATTEMPTS} tries and is set aside" in answer
    assert "KeyError" not in answer and "Something went wrong" not in answer
    since = len(h.fake.messages)
    await h.slash(MOD, "game status", channel_id=thread, name="Mod", permissions=MANAGE)
    (answer,) = replies(h, since)[-1:]
    assert "set aside" in answer and "Last error (for moderators): `KeyError: \"missing picture word" in answer
    h.errors.records.clear()  # (/game status logged the picture that cannot be drawn)

    # the metric, as Prometheus reads it
    await h.bot._refresh_gauges()
    assert h.bot.metrics.registry.get_sample_value("gamehost_publish_set_aside_games") == 1

    # a restart neither tries it again nor loses it, nor tells the thread twice
    clock.now += timedelta(days=1)
    h2 = await restart(h, tmp_path, h._monkeypatch, 3000)
    try:
        h2.bot.outbox.clock = clock
        notes_before = len(h2.messages_in(thread))
        await h2.bot.get_cog("Publisher").loop.coro(h2.bot.get_cog("Publisher"))  # the first round after a start
        assert [e[0] for e in owed(h2, 1)] == [MAX_ATTEMPTS] and owed(h2, 1)[0][2]
        assert len(h2.messages_in(thread)) == notes_before
        since = len(h2.fake.messages)
        await h2.slash(person, "game status", channel_id=thread, permissions=NO_MANAGE)
        assert "is set aside" in replies(h2, since)[-1]
        h2.errors.records.clear()

        # the player goes on from their private panel; the new board can be drawn and replaces the one set aside
        since = len(h2.fake.messages)
        await h2.slash(person, "game hand", channel_id=thread)
        panel = newest_ephemeral(h2, since)
        await pick(h2, person, panel, Rng(1))
        board = latest_board(h2, thread)
        assert version_of(board) == await stored_version(h2, 1) and to_act(board) == [person]
        assert owed(h2, 1) == []
        since = len(h2.fake.messages)
        await h2.slash(person, "game status", channel_id=thread, permissions=NO_MANAGE)
        assert "set aside" not in replies(h2, since)[-1]
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_another_games_time_out_in_the_same_clock_round_is_posted_and_the_next_player_pinged(harness):
    h = harness
    h.bot.service.clock = clock = Clock()
    ann, bob, cat, dan = (PLAYER + i for i in range(1, 5))
    # game 1: its player forfeits on time, and its last board cannot be drawn; game 2: the AI stands in
    for first, second, timeout in ((ann, bob, "forfeit"), (cat, dan, "ai")):
        await h.slash(first, "hector-achilles new", name=f"P{first % 10}", time_control="1h",
                      on_timeout=timeout)
        thread = (await h.bot.service.store.list_games(user_id=first))[0].thread_id
        lobby = h.messages_in(thread)[0]
        await h.click(second, lobby, button(lobby, "Join")["custom_id"], name=f"P{second % 10}")
    one, two = [(await h.bot.service.game(g)) for g in (1, 2)]
    late_two = to_act(latest_board(h, two.thread_id))
    assert len(late_two) == 1
    waiting = next(s.user_id for s in two.seats if s.user_id != late_two[0])
    tick = h.bot.get_cog("Clocks").tick
    for _ in range(59):  # the clock round runs every minute
        clock.now += timedelta(minutes=1)
        await tick()
    poison(h, 1)
    boards_before = len(boards(h, one.thread_id))
    clock.now += timedelta(seconds=90)  # (a longer gap would be an outage, given back to every clock)
    assert sorted(await tick()) == [1, 2], "both games ran out of time in this round"
    await h.settle()
    board = latest_board(h, two.thread_id)
    assert version_of(board) == await stored_version(h, 2)
    assert "ran out of time" in "\n".join(m["content"] for m in h.messages_in(two.thread_id))
    assert to_act(board) == [waiting], "the next player of game 2 was not pinged"
    assert len(boards(h, one.thread_id)) == boards_before
    assert (await h.bot.service.game(1)).status == "finished"  # saved; its board is owed, tried again later
    assert owed(h, 1) and owed(h, 1)[0][0] >= 1 and not owed(h, 1)[0][2]
    assert failures(h) >= 1
    h.errors.records.clear()


async def test_a_player_whose_board_cannot_be_drawn_is_told_the_truth_and_sees_it_later(harness, monkeypatch):
    h = harness
    games = await open_games(h, 1)
    person, thread = games[1]
    real = picture.render_public

    def broken(view):
        raise RuntimeError("the picture cannot be drawn")

    monkeypatch.setattr(picture, "render_public", broken)
    version = await stored_version(h, 1)
    since = len(h.fake.messages)
    await take_turn(h, thread, Rng(2))
    assert await stored_version(h, 1) > version, "the move was not saved"
    told = replies(h, since)
    assert any(text.startswith("Your move is saved, but its board could not be drawn just now") for text in told), told
    assert not any("Something went wrong" in text for text in told)
    assert version_of(latest_board(h, thread)) == version  # (nothing drawn, nothing posted)
    since = len(h.fake.messages)
    await h.slash(person, "game status", channel_id=thread)
    answer = replies(h, since)[-1]
    assert "The board of game #1 cannot be drawn right now" in answer
    assert "The newest board of this game could not be posted yet (tries so far: 1)" in answer
    h.errors.records.clear()  # (logged: the picture that cannot be drawn, with its traceback)

    monkeypatch.setattr(picture, "render_public", real)  # (a fixed bot) the next try posts it
    h.bot.outbox.clock = Clock()
    h.bot.outbox.clock.now += timedelta(seconds=RETRY_PAUSES[0] + 1)
    assert await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 1
    board = latest_board(h, thread)
    assert version_of(board) == await stored_version(h, 1) and to_act(board) == [person]
    assert owed(h, 1) == []
    h.assert_no_errors()
