"""The bot the cogs see (cogs/gamebot.py): what exists before ``setup_hook`` and what only after it."""

import pytest

from bot import GameTree, create_bot
from cogs.gamebot import GameBot
from cogs.places import places_of
from settings import Settings


@pytest.mark.parametrize("shards", [None, 2])
def test_the_built_bot_is_the_declared_one(shards):
    bot = create_bot(Settings(sync_commands=False, shard_count=shards))
    assert isinstance(bot, GameBot)
    assert isinstance(bot.tree, GameTree)  # (times every command, sends its errors to the bot's handler)
    assert bot.clicks is not None and bot.settings.shard_count == shards


@pytest.mark.parametrize("name", ["service", "store", "outbox"])
def test_before_setup_hook_the_services_say_so(name):
    bot = create_bot(Settings(sync_commands=False))
    with pytest.raises(RuntimeError, match="setup_hook"):
        getattr(bot, name)
    assert bot.weblinks is None and bot.replay_queue is None and bot.tournaments is None


def test_a_missing_cog_is_named():
    bot = create_bot(Settings(sync_commands=False))
    with pytest.raises(RuntimeError, match="Places cog"):
        places_of(bot)


async def test_after_setup_hook_they_are_there(tmp_path):
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              render_processes=0))
    async with bot:
        await bot.setup_hook()
        assert bot.service.store is bot.store
        assert bot.outbox is not None and bot.weblinks is not None
        assert places_of(bot).qualified_name == "Places"
    with pytest.raises(RuntimeError, match="setup_hook"):
        assert bot.store is None, "closed with the bot: never reached"
