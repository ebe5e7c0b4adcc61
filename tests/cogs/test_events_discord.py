"""Swiss and elimination tournaments through the real discord.py dispatch: registration with the buttons and a
cap, Start, each round's matches in their own threads, results (set in the store as a finished game would,
then the publish hook), a dropped player, a restart on the same database between rounds, the next round paired
when the last match ends, the standings pictures and the podium at the end."""

from __future__ import annotations

import discord
import pytest

from bot import create_bot
from cogs.standings import match_over
from host.service import GameError, GameService
from host.tournaments import tournaments_of
from settings import Settings
from store import SqliteStore
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
        if m.places is not None:
            continue
        game = await bot.service.game(m.game_id)
        w = winner_of(m.players)
        places = [1 if w is None or p == w else 2 for p in m.players]
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
    assert sorted(len(m.players) for m in round1) == [1, 2, 2]  # five players: a bye
    games = [await h.bot.service.game(m.game_id) for m in round1 if m.game_id]
    assert all(g.status == "running" and g.thread_id for g in games), "each match in its own thread"
    assert any("round 1 has begun" in m["content"] for m in h.messages_in(CHANNEL_ID))
    # the lower seat number wins every match
    await _finish_round(h, h.bot, lambda players: min(players))
    assert any("round 1 is over" in m["content"] and m["attachments"] for m in h.messages_in(CHANNEL_ID))
    round2 = await store.matches(1, 2)
    assert len(round2) == 3
    met = {frozenset(m.players) for m in round1}
    assert not any(frozenset(m.players) in met for m in round2 if len(m.players) == 2), "no rematch"
    byes = [m.players[0] for m in round1 + round2 if len(m.players) == 1]
    assert len(set(byes)) == len(byes), "nobody gets a second bye"
    # a player drops mid-round: their match is forfeited at once
    victim = next(m for m in round2 if len(m.players) == 2)
    dropped = victim.players[0]
    await h.slash(101, "tournament drop", tournament=1, player=discord.Object(dropped), name="P0",
                  resolved={"users": {str(dropped): {"id": str(dropped), "username": "x", "discriminator": "0",
                                                     "global_name": "X", "avatar": None}}})
    settled = await store.match(victim.id)
    assert settled.how == "forfeit" and settled.places == [2, 1]
    assert (await h.bot.service.game(victim.game_id)).status == "finished"
    # a restart with the round half played: a new bot on the same database carries on
    await h.stop()
    store2 = await SqliteStore.open(tmp_path / "bot.db")
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
        assert dropped not in {p for m in round3 for p in m.players}, "a dropped player is not paired"
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
    assert [len(m.players) for m in round1].count(1) == 3, "five players in a bracket of 8: three byes"
    for _ in range(3):
        await _finish_round(h, h.bot, lambda players: max(players))  # the lower seed wins: upsets
    event = await tournaments_of(h.bot).tournament(1)
    assert event.status == "finished" and event.round == 3
    final_round = await store.matches(1, 3)
    assert sorted(m.slot for m in final_round) == [0, 1], "the final and the third-place match"
    podium = await tournaments_of(h.bot).podium(1)
    assert len(podium) == 3 and all(len(p) == 1 for p in podium)
    posted = [m for m in h.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]
    assert posted and len(posted[-1]["attachments"]) >= 3, "podium, table and bracket"
    h.assert_no_errors()


async def test_a_whole_double_elimination_with_a_grand_final_reset(harness, tmp_path):
    """Five players: the winners' bracket goes to the better seed, the losers' bracket and the grand final to
    the worse, so P4 (the last seed) comes back through the losers' bracket, beats P0 in the grand final and
    again in its second match; the rounds are named, the winners' bracket is drawn, everybody is placed."""
    h = harness
    service = tournaments_of(h.bot)
    await _register(h, format="elimination", double=True)
    (post,) = event_posts(h)
    post = h.fake.messages[int(post["id"])]
    embed = post["embeds"][0]
    assert "double elimination" in embed["title"] and "losers' bracket" in embed["description"]
    assert "Rounds: 6 (or one more)" in embed["description"]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store

    def winner_of(players):
        return min(players) if slot_of[tuple(players)] < 1000 else max(players)

    for _ in range(10):
        event = await service.tournament(1)
        if event.status == "finished":
            break
        slot_of = {tuple(m.players): m.slot for m in await store.matches(1, event.round)}
        await _finish_round(h, h.bot, winner_of)
    event = await service.tournament(1)
    assert event.status == "finished" and event.round == 7, "six rounds and the grand final's second match"
    matches = await store.matches(1)
    lost: dict[int, int] = {}
    for m in matches:
        if len(m.players) == 2:
            loser = m.players[m.places.index(2)]
            lost[loser] = lost.get(loser, 0) + 1
    assert lost == {101: 2, 102: 2, 103: 2, 104: 2, 105: 1}, "everybody out after two losses; P4 lost once"
    assert [m.slot for m in matches if m.round >= 6] == [2000, 2001]
    assert set(next(m for m in matches if m.slot == 2001).players) == {101, 105}
    # P1 lost the winners' final (round 3) and then to P4 in round 5: out last of the rest
    assert await service.podium(1) == [["P4"], ["P0"], ["P1"]]
    texts = [m["content"] for m in h.messages_in(CHANNEL_ID)]
    assert sum("Round 1 (winners' round 1) under way" in x for x in texts) == 1
    assert sum("Round 3 (winners' final, losers' round 2) under way" in x for x in texts) == 1
    assert sum("Round 5 (losers' final) under way" in x for x in texts) == 1
    assert sum("Grand final under way" in x for x in texts) == 1
    assert sum("Grand final, second match under way" in x for x in texts) == 1
    over = [m for m in h.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]
    assert len(over) == 1 and "**P4**" in over[0]["content"] and len(over[0]["attachments"]) >= 3
    last = next(s for s in reversed(h.fake.sent) if s.files)
    for name, png in last.files.items():  # table, winners' bracket, losers' bracket: kept to be looked at
        (tmp_path / name).write_bytes(png)
    assert sorted(last.files) == ["podium-1.png", "tournament-1-0.png", "tournament-1-1.png", "tournament-1-2.png"], \
        "the podium, the table, the winners' bracket, the losers' bracket with the grand finals"
    h.assert_no_errors()


async def test_a_double_elimination_refuses_a_third_place_match(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(101, "tournament new", game="hector-achilles", name="P0", format="elimination", double=True,
                  third_place=True)
    assert [m["content"] for m in list(h.fake.messages.values())[before:]] == [
        "A double elimination has no third-place match: the losers' bracket decides third place. "
        "Leave out third_place or double."]
    assert not event_posts(h), "nothing was created"


async def test_a_player_dropped_from_a_double_elimination_forfeits_in_both_brackets(harness, tmp_path, monkeypatch):
    """P3 is dropped during round 1: that match is forfeited at once, and the losers' bracket match P3 drops
    into is forfeited when it is paired (no game is opened for it); P3 is placed last and never plays again. A
    restart with round 2 half played: a new bot on the same database carries the brackets on."""
    h = harness
    service = tournaments_of(h.bot)
    await _register(h, format="elimination", double=True)
    (post,) = event_posts(h)
    await h.click(105, h.fake.messages[int(post["id"])], button(post, "Leave")["custom_id"], name="P4")
    post = h.fake.messages[int(post["id"])]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store
    assert {frozenset(m.players) for m in await store.matches(1, 1)} == {frozenset((101, 104)),
                                                                             frozenset((102, 103))}
    await service.drop(1, 101, 104)
    (forfeit,) = [m for m in await store.matches(1, 1) if 104 in m.players]
    assert forfeit.how == "forfeit" and forfeit.places[forfeit.players.index(104)] == 2
    await _finish_round(h, h.bot, lambda players: min(players))
    (final,) = [m for m in await store.matches(1, 2) if m.game_id is not None]
    assert set(final.players) == {101, 102}, "the winners' final; the losers' round 1 was a forfeit"
    h.assert_no_errors()
    await h.stop()
    store2 = await SqliteStore.open(tmp_path / "bot.db")
    seeds = iter(range(3000, 4000))
    bot2 = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                               remind_after_hours=0), store=store2,
                      service=GameService(store2, seed_source=lambda: next(seeds)))
    h2 = await Harness(bot2, monkeypatch).start()
    try:
        service = tournaments_of(bot2)
        for _ in range(8):
            event = await service.tournament(1)
            if event.status == "finished":
                break
            await _finish_round(h2, bot2, lambda players: min(players))
        event = await service.tournament(1)
        assert event.status == "finished" and event.round == 4, "no second grand final: P0 won the first"
        later = [m for m in await store2.matches(1) if 104 in m.players and m.round > 1]
        assert [(m.round, m.how, m.game_id) for m in later] == [(2, "forfeit", None)], \
            "the losers' bracket match forfeited when paired, no game opened"
        # round 3: the losers' final, P1 (beaten in the winners' final) against P2; the grand final P0 - P1
        assert [set(m.players) for m in await store2.matches(1, 3)] == [{102, 103}]
        assert [set(m.players) for m in await store2.matches(1, 4)] == [{101, 102}]
        _, rows = await service.standings(1)
        assert [name for _, name in rows] == ["P0", "P1", "P2", "P3"]
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_double_elimination_of_best_of_three_matches(harness):
    """Best of three in a double elimination: every match (the grand final's second one too) lasts until one
    player has won two games."""
    h = harness
    service = tournaments_of(h.bot)
    await h.slash(101, "tournament new", game="hector-achilles", name="P0", format="elimination", double=True,
                  best_of=3)
    (post,) = event_posts(h)
    await h.click(102, h.fake.messages[int(post["id"])], button(post, "Join")["custom_id"], name="P1")
    post = h.fake.messages[int(post["id"])]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store
    for _ in range(12):  # a game at a time: P0 wins the winners' final, P1 the grand final and its second match
        event = await service.tournament(1)
        if event.status == "finished":
            break
        (match,) = [m for m in await store.matches(1, event.round) if m.places is None]
        game = await h.bot.service.game(match.game_id)
        won = 101 if event.round == 1 else 102
        places = [1 if s.user_id == won else 2 for s in sorted(game.seats, key=lambda s: s.seat)]
        await store.set_status(game.id, "finished", {"places": places, "scores": [0, 0], "reason": "t"})
        await match_over(h.bot, await h.bot.service.game(game.id))
    event = await service.tournament(1)
    assert event.status == "finished" and event.round == 3
    matches = await store.matches(1)
    assert [m.slot for m in matches] == [0, 2000, 2001]
    assert [len(await store.match_games(1, m.id)) for m in matches] == [2, 2, 2], "two games won each"
    assert await service.podium(1) == [["P1"], ["P0"]]
    h.assert_no_errors()


async def test_a_double_elimination_result_is_corrected_only_before_it_feeds_a_round(harness):
    """The organizer corrects a losers' bracket match of the round being played: the corrected winner goes on
    in the next round; a match of round 1 (which round 2 was paired from) is refused with the reason."""
    h = harness
    service = tournaments_of(h.bot)
    await _register(h, format="elimination", double=True)
    (post,) = event_posts(h)
    await h.click(105, h.fake.messages[int(post["id"])], button(post, "Leave")["custom_id"], name="P4")
    post = h.fake.messages[int(post["id"])]
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    store = h.bot.service.store
    await _finish_round(h, h.bot, lambda players: min(players))
    first = (await store.matches(1, 1))[0]
    with pytest.raises(GameError, match="has fed the next round of the bracket already"):
        await service.correct(1, 101, first.id, [2, 1])
    (losers,) = [m for m in await store.matches(1, 2) if m.slot >= 1000]
    assert set(losers.players) == {103, 104}
    game = await h.bot.service.game(losers.game_id)
    await store.set_status(game.id, "finished", {"places": [1 if p == 104 else 2 for p in losers.players],
                                                 "scores": [0, 0], "reason": "t"})
    await match_over(h.bot, await h.bot.service.game(game.id))
    await service.correct(1, 101, losers.id, [1 if p == 103 else 2 for p in losers.players])
    await _finish_round(h, h.bot, lambda players: min(players))  # the winners' final: P0 beats P1
    assert [set(m.players) for m in await store.matches(1, 3)] == [{102, 103}], \
        "the losers' final: P1 against the corrected winner P2"
    h.assert_no_errors()
