"""One damaged game row, seen through the real discord.py dispatch: the server's other games are still listed
and played; the damaged game is logged, and only a command about that game fails."""

from __future__ import annotations

import sqlite3

import pytest

from bot import create_bot
from engines.rng import Rng
from host.service import GameService
from settings import Settings
from store import Store
from tests.cogs.driver import latest_board, take_turn
from tests.discord_harness import Harness

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
CAROL = 333_333_333_333_333_333


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    store = await Store.open(tmp_path / "bot.db")
    seeds = iter(range(1000, 2000))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0),
                     store=store, service=GameService(store, seed_source=lambda: next(seeds)))
    h = await Harness(bot, monkeypatch).start()
    h.db_path = tmp_path / "bot.db"
    yield h
    await h.stop()


def _threads(h) -> list[int]:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11]


async def test_game_list_still_works_when_one_game_row_is_damaged(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    await h.slash(BOB, "hector-achilles new", name="Bob", opponent="ai")
    bob_thread = _threads(h)[-1]
    with sqlite3.connect(h.db_path) as raw:  # game 1's row: invalid JSON in options and snapshot
        raw.execute("UPDATE games SET options = '{\"lang\": ', snapshot = '{\"turn' WHERE id = 1")
    raw.close()
    h.bot.service._live.pop(1, None)  # as after a restart: nothing of game 1 left in memory

    before = len(h.fake.messages)
    await h.slash(CAROL, "game list", name="Carol")
    listing = list(h.fake.messages.values())[before:][-1]
    text = listing["embeds"][0]["description"]
    assert "**#2**" in text and "Bob" in text and "**#1**" not in text
    damaged = [r.getMessage() for r in h.errors.records]
    assert damaged == ["game 1: invalid JSON in its options column (Expecting value: line 1 column 10 (char 9));"
                       " only this game is affected"]
    h.errors.records.clear()

    # Bob's game goes on, with its own board and buttons
    version = (await h.bot.service.store.get_game(2)).version
    await take_turn(h, bob_thread, Rng(3))
    assert (await h.bot.service.store.get_game(2)).version > version
    assert latest_board(h, bob_thread)
    await h.slash(CAROL, "game list", name="Carol")  # the damage is logged once, not at every listing
    h.assert_no_errors()

    # a command about the damaged game itself says so (and that the others are fine); the store logs it
    before = len(h.fake.messages)
    await h.slash(ANN, "game status", name="Ann", game=1)
    answers = [m["content"] for m in list(h.fake.messages.values())[before:]]
    assert any("Game #1 cannot be loaded: its saved data is damaged" in a for a in answers), answers
    assert not any("Something went wrong" in a for a in answers)
    h.errors.records.clear()
