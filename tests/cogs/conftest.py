"""Fixtures: a bot built by ``create_bot`` on a temporary database, driven by the offline harness."""

import pytest

from bot import create_bot
from host.service import GameService
from settings import Settings
from store import SqliteStore
from tests.discord_harness import Harness


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    store = await SqliteStore.open(tmp_path / "bot.db")
    seeds = iter(range(1000, 2000))
    service = GameService(store, seed_source=lambda: next(seeds))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0),  # tests run reminders themselves (remind_once)
                     store=store, service=service)
    h = await Harness(bot, monkeypatch).start()
    yield h
    await h.stop()
