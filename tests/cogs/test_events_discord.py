"""Swiss and elimination tournaments through the real discord.py dispatch: registration with the buttons and a
cap, Start, each round's matches in their own threads, results (set in the store as a finished game would,
then the publish hook), a dropped player, a restart on the same database between rounds, the next round paired
when the last match ends, the standings pictures and the podium at the end."""

from __future__ import annotations

import discord

from bot import create_bot
from cogs.standings import match_over
from host.service import GameService
from host.tournaments import tournaments_of
from settings import Settings
from store import Store
from tests.discord_harness import CHANNEL_ID, Harness, button

PEOPLE = {101 + i: f"P{i}" for i in range(5)}


def event_posts(h) -> list[dict]:
    return [m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"]]


async def _register(h, **options) -> None:
    first = next(iter(PEOPLE))
    await h.slash(first, "tournament new", game="hector-achilles", name="P0", **options)
    (post,) = event_posts(h)
    for user, name in list(PEOPLE.items())[1:]:
        await h.click(user, post, button(post, "Join")["custom_id"], name=name)


async def _finish_round(h, bot, winner_of) -> None:
    """Every running match of the current round ends: ``winner_of(players)`` wins (None: a draw)."""
    service = tournaments_of(bot)
    event = await service.tournament(1)
    for m in await bot.service.store.matches(1, event.round):
        if m["places"] is not None:
            continue
        game = await bot.service.game(m["game_id"])
        w = winner_of(m["players"])
        places = [1 if w is None or p == w else 2 for p in m["players"]]
        await bot.service.store.set_status(game.id, "finished", {"places": places, "scores": [0, 0], "reason": "t"})
        await match_over(bot, await bot.service.game(game.id))


async def test_a_whole_swiss_with_a_drop_and_a_restart(harness, tmp_path, monkeypatch):
    h = harness
    await _register(h, format="swiss", rounds=3, cap=5)
    (post,) = event_posts(h)
    post = h.fake.messages[int(post["id"])]
    assert "(5/5)" in post["embeds"][0]["fields"][0]["name"]
    before = len(h.fake.messages)
    await h.click(999, post, button(post, "Join")["custom_id"], name="Late")  # the cap
    assert [m["content"] for m in list(h.fake.messages.values())[before:]] == [
        "Tournament #1 (Swiss) is full (5 players)."], "the refusal names the format"
    await h.click(105, post, button(post, "Leave")["custom_id"], name="P4")  # leave before the start
    post = h.fake.messages[int(post["id"])]
    assert "(4/5)" in post["embeds"][0]["fields"][0]["name"]
    await h.click(105, post, button(post, "Join")["custom_id"], name="P4")
    post = h.fake.messages[int(post["id"])]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store
    round1 = await store.matches(1, 1)
    assert sorted(len(m["players"]) for m in round1) == [1, 2, 2]  # five players: a bye
    games = [await h.bot.service.game(m["game_id"]) for m in round1 if m["game_id"]]
    assert all(g.status == "running" and g.thread_id for g in games), "each match in its own thread"
    assert any("round 1 has begun" in m["content"] for m in h.messages_in(CHANNEL_ID))
    # the lower seat number wins every match
    await _finish_round(h, h.bot, lambda players: min(players))
    assert any("round 1 is over" in m["content"] and m["attachments"] for m in h.messages_in(CHANNEL_ID))
    round2 = await store.matches(1, 2)
    assert len(round2) == 3
    met = {frozenset(m["players"]) for m in round1}
    assert not any(frozenset(m["players"]) in met for m in round2 if len(m["players"]) == 2), "no rematch"
    byes = [m["players"][0] for m in round1 + round2 if len(m["players"]) == 1]
    assert len(set(byes)) == len(byes), "nobody gets a second bye"
    # a player drops mid-round: their match is forfeited at once
    victim = next(m for m in round2 if len(m["players"]) == 2)
    dropped = victim["players"][0]
    await h.slash(101, "tournament drop", tournament=1, player=discord.Object(dropped), name="P0",
                  resolved={"users": {str(dropped): {"id": str(dropped), "username": "x", "discriminator": "0",
                                                     "global_name": "X", "avatar": None}}})
    settled = await store.match(victim["id"])
    assert settled["how"] == "forfeit" and settled["places"] == [2, 1]
    assert (await h.bot.service.game(victim["game_id"])).status == "finished"
    # a restart with the round half played: a new bot on the same database carries on
    await h.stop()
    store2 = await Store.open(tmp_path / "bot.db")
    seeds = iter(range(3000, 4000))
    bot2 = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                               remind_after_hours=0), store=store2,
                      service=GameService(store2, seed_source=lambda: next(seeds)))
    h2 = await Harness(bot2, monkeypatch).start()
    try:
        await _finish_round(h2, bot2, lambda players: max(players))
        event = await tournaments_of(bot2).tournament(1)
        assert event.round == 3
        round3 = await store2.matches(1, 3)
        assert dropped not in {p for m in round3 for p in m["players"]}, "a dropped player is not paired"
        await _finish_round(h2, bot2, lambda players: None)
        event = await tournaments_of(bot2).tournament(1)
        assert event.status == "finished"
        final = [m for m in h2.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]
        assert final and len(final[-1]["attachments"]) >= 2, "podium and standings pictures"
        _, rows = await tournaments_of(bot2).standings(1)
        assert [r.dropped for r, _ in rows].count(True) == 1
        assert rows[0][0].points >= rows[1][0].points
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_whole_elimination_with_a_third_place_match(harness):
    h = harness
    await _register(h, format="elimination", third_place=True)
    (post,) = event_posts(h)
    post = h.fake.messages[int(post["id"])]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store
    round1 = await store.matches(1, 1)
    assert [len(m["players"]) for m in round1].count(1) == 3, "five players in a bracket of 8: three byes"
    for _ in range(3):
        await _finish_round(h, h.bot, lambda players: max(players))  # the lower seed wins: upsets
    event = await tournaments_of(h.bot).tournament(1)
    assert event.status == "finished" and event.round == 3
    final_round = await store.matches(1, 3)
    assert sorted(m["slot"] for m in final_round) == [0, 1], "the final and the third-place match"
    podium = await tournaments_of(h.bot).podium(1)
    assert len(podium) == 3 and all(len(p) == 1 for p in podium)
    posted = [m for m in h.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]
    assert posted and len(posted[-1]["attachments"]) >= 3, "podium, table and bracket"
    h.assert_no_errors()
