"""Signals between cogs are discord.py events: publishing a tournament match's last board dispatches
``gamehost_match_over``, and the tournaments cog's listener counts the match and posts the table (as
Red-DiscordBot's cogs signal each other); publishing imports no tournament code."""

from __future__ import annotations

from tests.cogs.test_hector_achilles_discord import ANN, BOB
from tests.discord_harness import CHANNEL_ID, button


def _record(h) -> list[tuple[str, tuple]]:
    seen: list[tuple[str, tuple]] = []
    dispatch = h.bot.dispatch

    def recording(event: str, *args, **kwargs):
        if event.startswith("gamehost_"):
            seen.append((event, args))
        return dispatch(event, *args, **kwargs)

    h.bot.dispatch = recording
    return seen


async def _league_of_two(h):
    await h.slash(ANN, "tournament new", game="hector-achilles", name="Ann")
    (league,) = [m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "#1" in m["embeds"][0]["title"]]
    await h.click(BOB, league, button(league, "Join")["custom_id"], name="Bob")
    league = h.fake.messages[int(league["id"])]
    await h.click(ANN, league, button(league, "Start")["custom_id"], name="Ann")
    (game,) = await h.bot.service.store.tournament_games(1)
    return game


async def _resign(h, user: int, thread: int) -> None:
    before = len(h.fake.messages)
    await h.slash(user, "game resign", channel_id=thread)
    (ask,) = [m for m in list(h.fake.messages.values())[before:] if "Resign game" in m["content"]]
    await h.click(user, ask, button(ask, "Resign")["custom_id"])
    await h.settle()


def _tables(h) -> list[dict]:
    return [m for m in h.messages_in(CHANNEL_ID)
            if m["embeds"] and m["embeds"][0].get("footer", {}).get("text", "").startswith("Matches")]


async def test_a_finished_match_is_signalled_once_and_the_tournaments_cog_posts_the_table(harness):
    h = harness
    game = await _league_of_two(h)
    seen = _record(h)
    await _resign(h, BOB, game.thread_id)
    over = [args for event, args in seen if event == "gamehost_match_over"]
    assert len(over) == 1 and over[0][0].id == game.id and over[0][0].tournament_id == 1
    assert ("gamehost_game_over", (game.id,)) in seen
    (table,) = _tables(h)
    assert table["embeds"][0]["footer"]["text"] == "Matches over: 1 of 1."
    assert "The winner: **Ann**" in table["content"]
    h.assert_no_errors()


async def test_without_the_tournaments_cog_the_signal_goes_unheard(harness):
    """The listener is what posts the table: with the cog unloaded the game still ends and its last board is
    posted, the signal is sent, and no table comes."""
    h = harness
    game = await _league_of_two(h)
    await h.bot.remove_cog("Tournaments")
    seen = _record(h)
    await _resign(h, BOB, game.thread_id)
    assert [e for e, _ in seen].count("gamehost_match_over") == 1
    assert (await h.bot.service.game(game.id)).status == "finished"
    assert any("Bob resigned" in m["content"] for m in h.messages_in(game.thread_id))
    assert _tables(h) == []
    h.assert_no_errors()


async def test_a_casual_game_signals_its_end_but_no_match(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = [c for c in h.fake.channels.values() if c["type"] == 11][0]["id"]
    lobby = h.messages_in(int(thread))[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    seen = _record(h)
    await _resign(h, BOB, int(thread))
    assert ("gamehost_game_over", (1,)) in seen
    assert not [e for e, _ in seen if e == "gamehost_match_over"]
    h.assert_no_errors()
