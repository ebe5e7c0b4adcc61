"""``/<game> new … opponent:AI level:…`` seats an AI of that level."""

from __future__ import annotations

from tests.cogs.test_hector_achilles_discord import ANN


async def test_game_new_with_a_level_seats_that_ai(harness):
    h = harness
    await h.slash(ANN, "troja new", name="Ann", opponent="ai", level="easy", language="en")
    game = await h.bot.service.store.get_game(1)
    assert game.seats[1].ai_level == "easy" and game.seats[1].name == "AI (easy)"
    await h.slash(ANN, "troja new", name="Ann", opponent="ai", language="en")
    game = await h.bot.service.store.get_game(2)
    assert game.seats[1].ai_level == "normal"
    h.assert_no_errors()
