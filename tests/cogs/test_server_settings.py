"""``/game server-settings`` through the real discord.py dispatch: the AI level of a server's stand-ins and
take-overs (a player whose time ran out, a player who left a running game or was dropped from a tournament)
is the server's setting, normal by default; only members who may manage the server change it."""

from __future__ import annotations

from datetime import timedelta

import discord

from engines import ENGINES
from host import thinking
from tests.cogs.driver import latest_board
from tests.cogs.fence import OTHER_GUILD, from_dm, from_other_server, send
from tests.cogs.test_clocks import _game
from tests.cogs.test_commands import MANAGE, replies_since
from tests.cogs.test_hector_achilles_discord import ANN, BOB
from tests.cogs.test_tournament_play import register, start, user
from tests.discord_harness import GUILD_ID, button


def _spy_levels(monkeypatch) -> list[str | None]:
    """The levels the service asks the AI to think at (the real AI still thinks)."""
    asked: list[str | None] = []
    real = thinking.think

    async def think(engine, state, seat, rng, level, **kwargs):
        asked.append(level)
        return await real(engine, state, seat, rng, level, **kwargs)

    monkeypatch.setattr(thinking, "think", think)
    return asked


async def test_only_a_manager_changes_the_level_and_everyone_sees_it(harness):
    h = harness
    store = h.bot.service.store
    before = len(h.fake.messages)
    await h.slash(ANN, "game server-settings", name="Ann")
    reply = replies_since(h, before)[-1]
    assert reply["flags"] & 64 and "**normal**" in reply["content"], "the default is normal"
    before = len(h.fake.messages)
    await h.slash(ANN, "game server-settings", name="Ann", ai_level="hard")
    reply = replies_since(h, before)[-1]
    assert "Only members who may manage this server" in reply["content"] and "nothing was changed" in reply["content"]
    assert await store.guild_settings(GUILD_ID) == {}
    before = len(h.fake.messages)
    await h.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE, ai_level="hard")
    reply = replies_since(h, before)[-1]
    assert reply["content"].startswith("Saved.") and "**hard**" in reply["content"]
    assert await store.guild_settings(GUILD_ID) == {"ai_level": "hard"}
    before = len(h.fake.messages)
    await h.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE, ai_level="hard")
    reply = replies_since(h, before)[-1]
    assert "already the setting: nothing was changed" in reply["content"] and not reply["content"].startswith("Saved")
    # in Hungarian, for anybody
    payload = h.payloads.slash(ANN, "game server-settings", name="Ann")
    payload["locale"] = "hu"
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(payload)
    await h.settle()
    assert "**nehéz**" in replies_since(h, before)[-1]["content"]
    h.assert_no_errors()


async def test_server_settings_in_a_direct_message_are_refused(harness):
    h = harness
    payload = from_dm(h, h.payloads.slash(ANN, "game server-settings", name="Ann", ai_level="hard"), ANN)
    replies = await send(h, payload)
    assert "Server settings belong to a server" in replies[-1]["content"]
    assert await h.bot.service.store.guild_settings(GUILD_ID) == {}
    h.assert_no_errors()


async def test_settings_of_one_server_do_not_reach_another(harness):
    h = harness
    await send(h, from_other_server(h, h.payloads.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE,
                                                        ai_level="hard")))
    assert await h.bot.service.store.guild_settings(OTHER_GUILD) == {"ai_level": "hard"}
    assert await h.bot.service.stand_in_level(GUILD_ID) == "normal"
    assert await h.bot.service.stand_in_level(None) == "normal"
    h.assert_no_errors()


async def test_a_timed_out_player_gets_a_stand_in_of_the_servers_level(harness, monkeypatch):
    h = harness
    asked = _spy_levels(monkeypatch)
    await h.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE, ai_level="hard")
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    cog = h.bot.get_cog("Clocks")
    for _ in range(61):
        clock.now += timedelta(minutes=1)
        await cog.tick()
    await h.settle()
    assert "🤖 The AI plays for Ann" in latest_board(h, thread)["content"]
    assert asked and set(asked) == {"hard"}, "the stand-in thought at the server's level"
    h.assert_no_errors()


async def test_by_default_the_stand_in_plays_normal(harness, monkeypatch):
    h = harness
    asked = _spy_levels(monkeypatch)
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    cog = h.bot.get_cog("Clocks")
    for _ in range(61):
        clock.now += timedelta(minutes=1)
        await cog.tick()
    await h.settle()
    assert "🤖 The AI plays for Ann" in latest_board(h, thread)["content"]
    assert asked and set(asked) == {"normal"}
    h.assert_no_errors()


async def test_a_seat_left_is_taken_over_at_the_servers_level_and_says_so(harness, monkeypatch):
    h = harness
    asked = _spy_levels(monkeypatch)
    await h.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE, ai_level="easy")
    thread, _ = await _game(h)
    game = await h.bot.service.game(1)
    (to_act,) = [s.seat for s in game.seats if s.user_id == ANN]  # Ann hosts: seat 0, the first attacker
    before = len(h.fake.messages)
    await h.slash(ANN, "game leave", channel_id=thread, name="Ann")
    (ask,) = [m for m in replies_since(h, before) if "Leave game #1?" in m["content"]]
    await h.click(ANN, ask, button(ask, "Leave the game")["custom_id"], name="Ann")
    await h.settle()
    row = (await h.bot.service.game(1)).seat_row(to_act)
    assert row.is_ai and row.ai_level == "easy" and row.name == "AI (Ann, easy)"
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert "left game #1; the AI takes over their seat" in texts
    assert asked and set(asked) == {"easy"}, "the AI that took the seat over played it at once"
    h.assert_no_errors()


async def test_a_player_dropped_from_a_tournament_table_is_replaced_at_the_servers_level(harness, monkeypatch):
    h = harness
    asked = _spy_levels(monkeypatch)
    await h.slash(BOB, "game server-settings", name="Mod", permissions=MANAGE, ai_level="hard")
    await register(h, 3, game="hextri", format="swiss", rounds=1, table_size=3, options="round_limit=2")
    await start(h)
    (table,) = await h.bot.service.store.matches(1, 1)
    game = await h.bot.service.game(table.game_id)
    (first,) = ENGINES["hextri"].to_act(await h.bot.service._state(game))
    dropped = game.seat_row(first).user_id  # the one to move: the AI plays the seat at once
    await h.slash(101, "tournament drop", tournament=1, player=discord.Object(dropped), name="P0",
                  resolved=user(dropped))
    # since issue 21 the dropped player keeps their seat's name and is marked out (dropped); the AI stands in
    assert asked and set(asked) == {"hard"}, "the AI that took the seat over played it at the server's level"
    h.assert_no_errors()
