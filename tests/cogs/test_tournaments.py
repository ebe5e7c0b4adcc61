"""Leagues on Discord: /tournament new posts the league with Join and Start; Start opens every match at once in
its own thread; each finished match brings the new table to the channel, and the last one the winner."""

from __future__ import annotations

from cogs.standings import match_over
from tests.cogs.driver import latest_board, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL
from tests.discord_harness import CHANNEL_ID, button


def league_posts(h) -> list[dict]:
    return [m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "#1" in m["embeds"][0]["title"]]


async def test_a_league_from_the_first_click_to_the_winner(harness):
    h = harness
    await h.slash(ANN, "tournament new", game="hector-achilles", name="Ann")
    (league,) = league_posts(h)
    assert "Ann" in league["embeds"][0]["fields"][0]["value"]
    for user, name in ((BOB, "Bob"), (CAROL, "Carol")):
        await h.click(user, league, button(league, "Join")["custom_id"], name=name)
    league = h.fake.messages[int(league["id"])]
    assert league["embeds"][0]["fields"][0]["value"].split("\n") == ["1. Ann", "2. Bob", "3. Carol"]
    # only the organizer starts it
    before = len(h.fake.messages)
    await h.click(BOB, league, button(league, "Start")["custom_id"], name="Bob")
    assert [m["content"] for m in list(h.fake.messages.values())[before:]] == [
        "Only the organizer can do that in tournament #1 (league)."]
    await h.click(ANN, league, button(league, "Start")["custom_id"], name="Ann")
    games = await h.bot.service.store.tournament_games(1)
    assert len(games) == 3 and all(g.status == "running" for g in games)
    pairs = {frozenset(s.user_id for s in g.seats) for g in games}
    assert pairs == {frozenset((ANN, BOB)), frozenset((ANN, CAROL)), frozenset((BOB, CAROL))}
    begun = [m for m in h.messages_in(CHANNEL_ID) if m["content"].startswith("🏆 League #1 has begun")]
    assert begun and begun[0]["content"].count("<#") == 3
    for game in games:  # every match has its thread, with the first board asking its first player
        board = latest_board(h, game.thread_id)
        assert to_act(board) == [game.seat_row(0).user_id]
    assert not h.fake.messages[int(league["id"])].get("components"), "a started league takes no more players"
    # the matches end (Ann beats both, Bob beats Carol): the table after each, the winner after the last
    store = h.bot.service.store
    for game in games:
        users = [game.seat_row(0).user_id, game.seat_row(1).user_id]
        winner = ANN if ANN in users else BOB
        places = [1 if u == winner else 2 for u in users]
        await store.set_status(game.id, "finished", {"places": places, "scores": [0, 0], "reason": "test"})
        await match_over(h.bot, await h.bot.service.game(game.id))
    tables = [m for m in league_posts(h) if m["embeds"][0].get("footer", {}).get("text", "").startswith("Matches")]
    assert len(tables) == 3 and tables[-1]["embeds"][0]["footer"]["text"] == "Matches over: 3 of 3."
    rows = tables[-1]["embeds"][0]["description"].split("\n")
    assert rows[0].startswith("1. **Ann** — 2 pts") and rows[2].startswith("3. **Carol** — 0 pts")
    assert "The winner: **Ann**" in tables[-1]["content"]
    h.assert_no_errors()


async def test_the_table_command_and_refusals(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament table", tournament=7, name="Ann")
    assert any("There is no tournament #7." in m["content"] for m in list(h.fake.messages.values())[before:])
    h.payloads.locales[ANN] = "hu"
    await h.slash(ANN, "tournament new", game="troja", name="Ann")
    (league,) = league_posts(h)
    assert "bajnokság" in league["embeds"][0]["title"]
    before = len(h.fake.messages)
    await h.click(ANN, league, button(league, "Csatlakozás")["custom_id"], name="Ann")
    assert any("Already" in m["content"] or "benne vagy" in m["content"] for m in list(h.fake.messages.values())[before:])
    before = len(h.fake.messages)
    await h.click(ANN, league, button(league, "Indítás")["custom_id"], name="Ann")
    assert any("at least 2" in m["content"] or "legalább 2" in m["content"]
               for m in list(h.fake.messages.values())[before:])
    before = len(h.fake.messages)
    await h.slash(BOB, "tournament table", tournament=1, name="Bob")
    (reply,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
    assert reply["flags"] & 64 and "Ann" in reply["embeds"][0]["description"]
    h.assert_no_errors()
