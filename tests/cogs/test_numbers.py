"""Every number a member or an admin can type is read with bounds before it is used (issue 22): huge, odd or
foreign digits get a clear message, never a crash."""

from __future__ import annotations

import pytest

from cogs.tournaments import parse_options
from host.service import GameError
from settings import Settings
from tests.cogs.test_hector_achilles_discord import ANN
from tests.discord_harness import CHANNEL_ID


@pytest.mark.parametrize("text", ["rounds=" + "9" * 4400, "laps=1e400", "laps=1.5", "laps=٣", "laps=1_000",
                                  "laps=9999999999", "laps=-" + "1" * 50])
def test_a_number_that_is_not_a_plain_small_whole_number_is_refused_by_name(text):
    with pytest.raises(GameError) as refused:
        parse_options(text)
    assert refused.value.key == "event_bad_number"
    message = refused.value.text("en")
    assert "not a number I can use" in message and len(message) < 200
    assert text.split("=")[0] + "=" in message


def test_ordinary_options_are_read_as_before():
    assert parse_options("laps=2 variant=short fast=true slow=False x=-3 y=+4") == {
        "laps": 2, "variant": "short", "fast": True, "slow": False, "x": -3, "y": 4}
    assert parse_options("name=abc1 sup=²") == {"name": "abc1", "sup": "²"}  # words: the game's own check says


async def test_tournament_new_with_a_page_of_digits_is_answered_not_crashed(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament new", game="hextri", options="radius=" + "9" * 4400, name="Ann")
    answers = [m["content"] for m in list(h.fake.messages.values())[before:]]
    assert len(answers) == 1 and "radius=" in answers[0] and "not a number I can use" in answers[0]
    assert len(answers[0]) < 300
    # a number of the right shape but out of the game's bounds gets the game's own words
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament new", game="hextri", options="radius=999999999", name="Ann")
    (answer,) = [m["content"] for m in list(h.fake.messages.values())[before:]]
    assert "radius" in answer and "999999999" in answer
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament new", game="hextri", options="radius=²", name="Ann")
    (answer,) = [m["content"] for m in list(h.fake.messages.values())[before:]]
    assert "radius" in answer
    assert await h.bot.service.store.tournament(1) is None
    assert not [m for m in h.messages_in(CHANNEL_ID) if m["embeds"]]
    h.assert_no_errors()


@pytest.mark.parametrize(("env", "words"), [
    ({"LIVE_GAMES": "9" * 5000}, "LIVE_GAMES must be a whole number"),
    ({"LIVE_GAMES": "²"}, "LIVE_GAMES must be a whole number"),
    ({"RENDER_PROCESSES": "１"}, "RENDER_PROCESSES"),  # a full-width digit
    ({"REMIND_AFTER_HOURS": "inf"}, "REMIND_AFTER_HOURS must be a number"),
    ({"REMIND_AFTER_HOURS": "nan"}, "REMIND_AFTER_HOURS must be a number"),
    ({"REMIND_AFTER_HOURS": "1e400"}, "REMIND_AFTER_HOURS must be a number"),
    ({"REMIND_AFTER_HOURS": "100000"}, "at most"),
    ({"HEALTH_PORT": "8" * 5000}, "HEALTH_PORT must be a TCP port"),
    ({"SHARD_COUNT": "9" * 40}, "SHARD_COUNT"),
    ({"SHARD_COUNT": "4", "SHARD_IDS": "0-" + "9" * 60}, "SHARD_IDS"),
    ({"DEV_GUILD_ID": "1" * 4400}, "DEV_GUILD_ID"),
])
def test_a_setting_with_a_huge_or_odd_number_stops_the_bot_with_a_short_message(env, words):
    with pytest.raises(SystemExit) as stopped:
        Settings.from_env(env)
    message = str(stopped.value)
    assert words in message and len(message) < 300, message
