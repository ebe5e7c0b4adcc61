"""Damage stays local (issue 21, item 5), through the real discord.py dispatch, on both store backends: one game
that cannot be read - bytes that are not text in its snapshot or its options (the driver used to fail every query
that read the row), invalid JSON in its snapshot or in its options, saved under newer rules or of a kind of game
this version does not have (a rollback to an older bot) -
is listed as such by ``/game list`` and answered in plain words by ``/game status``, ``/game hand`` and a click on
its board, never with the generic apology; it can still be ended; and every other game works: listed, played,
its board published by the background publisher, its clock run out in the clock round, its players reminded."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from datetime import timedelta

import asyncpg
import pytest

from bot import create_bot
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from settings import Settings
from store import Store
from tests.backends import fresh_postgres
from tests.cogs.driver import latest_board, take_turn, to_act
from tests.cogs.test_clocks import Clock
from tests.discord_harness import Harness, button, components

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
CAROL = 333_333_333_333_333_333
PLAYS = ENGINES["hector-achilles"].rules_version

DAMAGED = ("Game #1 cannot be loaded: its saved data is damaged (the bot's log says where). The server's other "
           "games are not affected; the game's host or a moderator can end it with `/game abandon`.")
NEWER = (f"Game #1 was saved by a newer version of the bot (rules version {PLAYS + 1}, this one plays {PLAYS}), so "
         "this version cannot go on with it. Nothing was changed: it can be played again once the bot is updated. "
         "The server's other games are not affected.")
#: what a player reads, and what /game list says, for each kind of damage
KINDS = {
    "bytes": (DAMAGED, "⚠️ cannot be read: its saved data is damaged"),
    "json": (DAMAGED, "⚠️ cannot be read: its saved data is damaged"),
    "options": (DAMAGED, "⚠️ cannot be read: its saved data is damaged"),
    "options_bytes": (DAMAGED, "⚠️ cannot be read: its saved data is damaged"),
    "kind": ("Game #1 is a kind of game this version of the bot does not have (`chess`): a newer version saved it. "
             "Nothing was changed: it can be played again once the bot is updated. The server's other games are not "
             "affected.", "⚠️ cannot be read: a kind of game this version does not have (chess)"),
    "newer": (NEWER, f"⚠️ cannot be read: saved by a newer version of the bot (rules version {PLAYS + 1}, this one "
                     f"plays {PLAYS})"),
}


@contextlib.asynccontextmanager
async def target_for(backend: str, tmp_path, kind: str):
    if backend == "sqlite":
        yield str(tmp_path / "bot.db")
    else:  # bytes that are not text can only be stored by a database that does not check them (C locale)
        async with fresh_postgres("SQL_ASCII" if kind.endswith("bytes") else None) as url:
            yield url


async def run_sql(target: str, sql: str, params: tuple = ()) -> list:
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            numbered = sql
            for i in range(len(params)):
                numbered = numbered.replace("?", f"${i + 1}", 1)
            return list(await conn.fetch(numbered, *params))
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        rows = conn.execute(sql, params).fetchall()
    conn.close()
    return rows


async def plant(target: str, kind: str) -> None:
    """Damage game 1 as ``kind`` says, behind the bot's back (a disk error, a hand edit, a rollback)."""
    ((text,),) = await run_sql(target, "SELECT snapshot FROM games WHERE id = 1")
    snapshot = json.loads(text)
    if kind == "bytes":  # a name in the snapshot with bytes that are not UTF-8 (here: Latin-2)
        raw = json.dumps(snapshot).replace('"phase"', '"ph\\u00e1se"', 1).encode().replace(b"\\u00e1", b"\xe1")
        if target.startswith("postgresql://"):
            await run_sql(target, "UPDATE games SET snapshot = convert_from(decode(?, 'hex'), 'SQL_ASCII')"
                                  " WHERE id = 1", (raw.hex(),))
        else:
            await run_sql(target, "UPDATE games SET snapshot = CAST(? AS TEXT) WHERE id = 1", (raw,))
    elif kind == "json":
        await run_sql(target, "UPDATE games SET snapshot = ? WHERE id = 1", (text[: len(text) // 2],))
    elif kind == "options":
        await run_sql(target, "UPDATE games SET options = '{\"lang\": ' WHERE id = 1")
    elif kind == "options_bytes":  # not in the snapshot: every listing reads this column
        raw = b'{"lang": "en", "note": "\xe1"}'
        if target.startswith("postgresql://"):
            await run_sql(target, "UPDATE games SET options = convert_from(decode(?, 'hex'), 'SQL_ASCII')"
                                  " WHERE id = 1", (raw.hex(),))
        else:
            await run_sql(target, "UPDATE games SET options = CAST(? AS TEXT) WHERE id = 1", (raw,))
    elif kind == "kind":  # a game a newer version has and this one does not
        await run_sql(target, "UPDATE games SET engine = 'chess' WHERE id = 1")
    else:  # what a newer bot wrote: newer rules in the row and in the snapshot
        snapshot["rules_version"] = PLAYS + 1
        await run_sql(target, "UPDATE games SET rules_version = ?, snapshot = ? WHERE id = 1",
                      (PLAYS + 1, json.dumps(snapshot)))


@pytest.fixture
async def harness(request, backend, tmp_path, monkeypatch):
    async with target_for(backend, tmp_path, request.node.callspec.params["kind"]) as target:
        store = await Store.connect(target)
        seeds = iter(range(1000, 2000))
        service = GameService(store, seed_source=lambda: next(seeds))
        bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                                  remind_after_hours=0), store=store, service=service)
        h = await Harness(bot, monkeypatch).start()
        h.target = target
        yield h
        await h.stop()


def _threads(h) -> list[int]:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11]


def _answers(h, since: int) -> list[str]:
    return [m["content"] for m in list(h.fake.messages.values())[since:]]


async def _version(h, game_id: int) -> int:
    return (await h.bot.service.store.get_game(game_id, with_snapshot=False)).version


@pytest.mark.parametrize("kind", list(KINDS))
async def test_a_game_that_cannot_be_read_is_told_in_plain_words_and_every_other_game_works(harness, kind):
    h = harness
    said, listed = KINDS[kind]
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai", time_control="1h")
    ann_thread = _threads(h)[-1]
    await h.slash(BOB, "hector-achilles new", name="Bob", time_control="1h", on_timeout="ai")
    bob_thread = _threads(h)[-1]
    lobby = h.messages_in(bob_thread)[0]
    await h.click(CAROL, lobby, button(lobby, "Join")["custom_id"], name="Carol")
    ann_board = latest_board(h, ann_thread)
    # game 2 owes a board (a move saved, not posted yet: the bot was busy); game 1 owes one too
    board = latest_board(h, bob_thread)
    late = to_act(board)[0]
    await plant(h.target, kind)
    h.bot.service._live.pop(1, None)  # as after a restart: nothing of game 1 left in memory
    await h.bot.service.store.add_outbox(1, ["owed before the damage"])

    # /game list: game 1 listed as such, game 2 as ever
    since = len(h.fake.messages)
    await h.slash(CAROL, "game list", name="Carol")
    (text,) = [m["embeds"][0]["description"] for m in list(h.fake.messages.values())[since:] if m["embeds"]]
    lines = text.split("\n")
    assert any(line.startswith("**#2** Hector and Achilles — running — Bob, Carol") for line in lines), text
    title = "chess" if kind == "kind" else "Hector and Achilles"
    assert any(line.startswith(f"**#1** {title} — {listed} — Ann, AI") for line in lines), text

    # status, hand and a click on its board: plain words, nothing else
    for ask in ("game status", "game hand"):
        since = len(h.fake.messages)
        await h.slash(ANN, ask, name="Ann", game=1)
        assert _answers(h, since)[-1] == said, (ask, _answers(h, since))
    control = next(c for c in components(ann_board) if c["custom_id"].startswith(("gh:t:", "gh:a:", "gh:h:")))
    since = len(h.fake.messages)
    await h.click(ANN, ann_board, control["custom_id"])
    assert _answers(h, since)[-1] == said
    assert not any("Something went wrong" in a for a in _answers(h, 0))

    # every other game works: its move, its board published by the background publisher
    version = await _version(h, 2)
    await take_turn(h, bob_thread, Rng(3))
    assert await _version(h, 2) > version
    await h.bot.service.act(2, to_act(latest_board(h, bob_thread))[0], await _version(h, 2), 0)
    assert await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 2
    board = latest_board(h, bob_thread)
    assert int(board["attachments"][0]["filename"].rsplit("-v", 1)[1].split(".")[0]) == await _version(h, 2)
    late = to_act(board)[0]
    owed = await run_sql(h.target, "SELECT attempts FROM outbox WHERE game_id = 1")
    assert [tuple(r) for r in owed] == [(1,)], "game 1's board is a failed try, kept for later"
    assert await h.bot.outbox.resume_stalled() == 0  # (start-up) game 1 passed over

    # the clock round: game 2's player runs out of time and is replaced; game 1's clock waits
    cog = h.bot.get_cog("Clocks")
    changed = []
    for _ in range(61):
        clock.now += timedelta(minutes=1)
        changed += await cog.tick()
    await h.settle()
    assert 2 in changed and 1 not in changed
    assert any(f"<@{late}> ran out of time" in m["content"] for m in h.messages_in(bob_thread))
    # reminders: game 1 is passed over, the round goes on
    reminders = await h.bot.service.due_reminders(timedelta(0), clock.now + timedelta(days=2))
    assert 1 not in [r.game.id for r in reminders]

    # its host may still end it, and then it leaves the list
    since = len(h.fake.messages)
    await h.slash(ANN, "game abandon", name="Ann", game=1)
    assert any("Game #1 was abandoned" in a or "abandoned" in a for a in _answers(h, since)), _answers(h, since)
    since = len(h.fake.messages)
    await h.slash(CAROL, "game list", name="Carol")
    (text,) = [m["embeds"][0]["description"] for m in list(h.fake.messages.values())[since:] if m["embeds"]]
    assert "**#1**" not in text and "**#2**" in text

    # the damage was logged, once, by the store (bad bytes, bad JSON) or the service (newer rules)
    logged = [r.getMessage() for r in h.errors.records]
    if kind in ("newer", "kind"):
        assert logged == []
    else:
        column = "options" if kind.startswith("options") else "snapshot"
        assert len(logged) == 1 and logged[0].startswith("game 1: ") and column in logged[0], logged
        assert ("not UTF-8 text" if kind.endswith("bytes") else "invalid JSON") in logged[0], logged
    h.errors.records.clear()
