"""An organizer's whole Swiss event through the real discord.py dispatch: tie-breaks chosen, check-in (one
player does not check in and is left out), the registration closed on the start, rounds cut to what the field
allows, the clock announced, a latecomer, a requested half-point bye, a pause that holds the next round for a
forbidden pair and a manual swap, the end of a round told once, a correction of an earlier result (standings and
ratings follow, both players told), and the podium. Round 1 is played by clicks; later matches are decided with
``/tournament adjudicate`` to keep the test short."""

from __future__ import annotations

from fractions import Fraction

import discord
import pytest

from engines.rng import Rng
from host.service import GameError
from host.tournaments import tournaments_of
from tests.cogs.test_tournament_play import PEOPLE, event_post, play_match, play_round, since
from tests.discord_harness import CHANNEL_ID, GUILD_ID, button, components


def users(*uids: int) -> dict:
    return {"users": {str(u): {"id": str(u), "username": f"u{u}", "discriminator": "0",
                               "global_name": PEOPLE.get(u, "x"), "avatar": None} for u in uids}}


def posts(h, words: str) -> list[dict]:
    return [m for m in h.messages_in(CHANNEL_ID) if words in m["content"]]


def private(h, before: int) -> list[str]:
    return [m["content"] for m in since(h, before) if m["flags"] & 64 and m["content"]]


async def decide_round(h, bot, round_no: int) -> None:
    """The organizer decides every open match of a round: the first seat wins."""
    for m in await bot.service.store.matches(1, round_no):
        if m.places is None:
            await h.slash(101, "tournament adjudicate", tournament=1, match=m.id,
                          winner=discord.Object(m.players[0]), name="P0", resolved=users(m.players[0]))


async def test_an_organizers_whole_event(harness):
    h = harness
    bot = h.bot
    service = tournaments_of(bot)
    store = bot.service.store
    await h.slash(101, "tournament new", game="hector-achilles", name="P0", format="swiss", rounds=9,
                  time_control="1d", tiebreaks="bh, sb")
    for uid in (102, 103, 104, 105, 106):
        post = event_post(h)
        await h.click(uid, post, button(post, "Join")["custom_id"], name=PEOPLE[uid])
    # check-in: P1-P4 confirm, P5 does not (and a second check-in is refused)
    await h.slash(101, "tournament manage", tournament=1, action="checkin", name="P0")
    for uid in (102, 103, 104, 105):
        post = event_post(h)
        await h.click(uid, post, button(post, "Check in")["custom_id"], name=PEOPLE[uid])
    before = len(h.fake.messages)
    post = event_post(h)
    await h.click(102, post, button(post, "Check in")["custom_id"], name="P1")
    assert private(h, before) == ["You have checked in to tournament #1 (Swiss) already."]
    post = event_post(h)
    players = post["embeds"][0]["fields"][0]["value"]
    assert "P1 ✅" in players and "P5 ✅" not in players and "P5" in players
    settings_text = post["embeds"][0]["fields"][1]["value"]
    assert "Ties: Buchholz, Sonneborn-Berger" in settings_text and "Time control: 1 day per move" in settings_text
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    event = await service.tournament(1)
    assert event.status == "running" and 106 not in event.names, "not checked in: left out"
    assert posts(h, "Not checked in, so not playing: P5.")
    assert posts(h, "9 rounds were asked for, but with 5 players more than 4 would force rematches: 4 rounds")
    assert event.total_rounds() == 4
    assert not components(event_post(h)), "the registration is closed: no Join, Leave or Start"
    assert event_post(h)["embeds"][0]["footer"]["text"] == "running"
    begun = posts(h, "round 1 has begun")
    assert len(begun) == 1 and "Clock: 1 day per move" in begun[0]["content"]

    # round 1 by clicks; meanwhile P4 asks for a bye in round 2 and P6 joins late
    await h.slash(105, "tournament bye", tournament=1, name="P4")
    assert posts(h, "P4 sits out round 2 with a half-point bye.")
    await h.slash(107, "tournament join", tournament=1, name="P6")
    assert posts(h, "P6 joined late and plays from round 2 on")
    assert (await service.tournament(1)).seeds[-1] == 107, "the latecomer is seeded last"
    await h.slash(101, "tournament pause", tournament=1, name="P0")
    assert await play_round(h, bot, Rng(5)) == 1
    assert len(posts(h, "round 1 is over")) == 1
    # paused: round 2 is paired and held; P4 has the requested bye, P6 plays
    held = await store.matches(1, 2)
    assert all(m.game_id is None for m in held)
    assert [m.players for m in held if m.how == "half_bye"] == [[105]]
    assert 107 in {p for m in held for p in m.players}
    assert posts(h, "round 2 is paired and waits for the organizer")
    # the organizer forbids a pair of the held round: it is paired again without it
    pair = next(m.players for m in held if len(m.players) == 2)
    await h.slash(101, "tournament manage", tournament=1, action="forbid", player=discord.Object(pair[0]),
                  other=discord.Object(pair[1]), name="P0", resolved=users(*pair))
    held = await store.matches(1, 2)
    assert not any(set(pair) <= set(m.players) for m in held)
    # ...and swaps two players of it by hand (a forbidden pair is refused)
    a, b = [m.players for m in held if len(m.players) == 2][:2]
    met_in_1 = {frozenset(m.players) for m in await store.matches(1, 1)}
    before = len(h.fake.messages)
    await h.slash(101, "tournament manage", tournament=1, action="swap", player=discord.Object(a[1]),
                  other=discord.Object(b[1]), name="P0", resolved=users(a[1], b[1]))
    assert private(h, before) == ["Tournament #1: done (paused)."]
    swapped = {frozenset(m.players) for m in await store.matches(1, 2) if len(m.players) == 2}
    assert swapped == {frozenset((a[0], b[1])), frozenset((b[0], a[1]))}, "the organizer's swap, as asked"
    rematches = swapped & met_in_1
    for again in rematches:  # allowed (the organizer's choice), and said
        first_name, second_name = sorted(PEOPLE[p] for p in again)
        assert any(f"{first_name} and {second_name} have met before" in m["content"] or
                   f"{second_name} and {first_name} have met before" in m["content"] for m in since(h, before))
    # only the organizer manages
    before = len(h.fake.messages)
    await h.slash(102, "tournament manage", tournament=1, action="start-round", name="P1")
    assert private(h, before) == ["Only the organizer can do that in tournament #1 (Swiss)."]
    await h.slash(101, "tournament resume", tournament=1, name="P0")
    round2 = await store.matches(1, 2)
    assert all(m.game_id is not None for m in round2 if len(m.players) == 2)
    assert len(posts(h, "round 2 has begun")) == 1
    assert len(posts(h, "round 1 is over")) == 1, "the end of round 1 is told once, pause or not"

    # a correction of round 1: a result turned round; standings and ratings follow, both players told
    first = next(m for m in await store.matches(1, 1) if len(m.players) == 2)
    loser = first.players[0] if first.places[0] > first.places[1] else first.players[1]
    _, rows = await service.standings(1)
    points_before = {r.player: r.points for r, _ in rows}
    board_before = [(r.player, r.rating) for r, _ in await service.leaderboard("hector-achilles", GUILD_ID)]
    await h.slash(101, "tournament manage", tournament=1, action="correct", match=first.id,
                  winner=discord.Object(loser), name="P0", resolved=users(loser))
    told = posts(h, f"corrected match #{first.id} (round 1)")
    assert len(told) == 1 and all(f"<@{p}>" in told[0]["content"] for p in first.players)
    _, rows = await service.standings(1)
    after = {r.player: r.points for r, _ in rows}
    assert after[loser] == points_before[loser] + (1 if 1 in first.places and 2 in first.places else 0)
    assert [(p, r) for p, r in ((r.player, r.rating) for r, _ in await service.leaderboard("hector-achilles", GUILD_ID))] \
        != board_before, "the ratings are recomputed with the corrected result"
    assert len(await store.matches(1, 2)) == len(round2), "the round already paired stays as it was"

    # rounds 2-4 decided by the organizer; the end comes once with the podium
    for r in (2, 3, 4):
        await decide_round(h, bot, r)
    event = await service.tournament(1)
    assert event.status == "finished"
    assert len(posts(h, "is over! The winner")) == 1
    _, rows = await service.standings(1)
    by = {r.player: r for r, _ in rows}
    bye_round = next(x for x in by[105].rounds if x.round == 2)
    assert bye_round.kind == "half_bye" and bye_round.score == Fraction(1, 2)
    assert not by[107].rounds[0].played and by[107].rounds[0].score == 0, "the latecomer's missed round"
    matches = await store.matches(1)
    for r in (3, 4):
        earlier = {frozenset(m.players) for m in matches if m.round < r and len(m.players) == 2}
        assert not earlier & {frozenset(m.players) for m in matches if m.round == r}, "no rematch"
    assert all(set(pair) != set(m.players) for m in matches if m.round > 1), "the forbidden pair never met"
    h.assert_no_errors()


async def test_a_time_control_nobody_offers_is_refused_with_the_list(harness):
    service = tournaments_of(harness.bot)
    with pytest.raises(GameError) as refused:
        await service.create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID,
                             channel_id=CHANNEL_ID, format="swiss", rounds=3, time_control="5+3")
    assert refused.value.text() == ('There is no time control "5+3"; the ones offered: none, 1h, 12h, 1d, 3d, bank.')
    command = harness.bot.tree.get_command("tournament").get_command("new")
    offered = [c.value for c in command._params["time_control"].choices]
    assert offered == ["none", "1h", "12h", "1d", "3d", "bank"], "Discord offers exactly those"
    with pytest.raises(GameError) as refused:
        await service.create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID,
                             channel_id=CHANNEL_ID, format="swiss", rounds=3, tiebreaks="median")
    assert "bh-c1, bh, sb, de, wins, rating" in refused.value.text()


async def test_an_organizer_corrects_nothing_that_is_not_there(harness):
    service = tournaments_of(harness.bot)
    await service.create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID, channel_id=CHANNEL_ID,
                         format="swiss", rounds=2)
    for uid in (102, 103):
        await service.join(1, uid, PEOPLE[uid])
    await service.start(1, 101)
    (match, bye) = await harness.bot.service.store.matches(1, 1)
    with pytest.raises(GameError, match="has no result yet"):
        await service.correct(1, 101, match.id, [1, 2])
    with pytest.raises(GameError, match="no match"):
        await service.correct(1, 101, bye.id, [1])
    with pytest.raises(GameError, match="no round waiting"):
        await service.start_round(1, 101)
    with pytest.raises(GameError, match="Only the organizer"):
        await service.correct(1, 102, match.id, [1, 2])
    with pytest.raises(GameError, match="last round"):
        await service.request_bye(1, 102, 102)  # round 2 of 2 is the last


async def test_an_elimination_final_best_of_three_played_by_clicks(harness):
    """Two players, best of three: games are played until one has won two, each next game with the seats
    swapped and announced with the score; the bracket shows the games won; the winner is the champion."""
    h = harness
    bot = h.bot
    store = bot.service.store
    await h.slash(101, "tournament new", game="hector-achilles", name="P0", format="elimination", best_of=3)
    post = event_post(h)
    assert "Matches: best of 3 games" in post["embeds"][0]["fields"][1]["value"]
    await h.click(102, post, button(post, "Join")["custom_id"], name="P1")
    post = event_post(h)
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")
    (match,) = await store.matches(1, 1)
    rng = Rng(8)
    seen = []
    for _ in range(7):
        match = await store.match(match.id)
        if match.places is not None:
            break
        game = await bot.service.game(match.game_id)
        seen.append([s.user_id for s in sorted(game.seats, key=lambda s: s.seat)])
        await play_match(h, bot, match, rng)
    games = await store.match_games(1, match.id)
    wins, _ = await tournaments_of(bot).series_score(await tournaments_of(bot).tournament(1), match.id, match.players)
    assert sorted(wins.values())[-1] == 2 and len(games) == len(seen) >= 2
    assert all(a == b[::-1] for a, b in zip(seen, seen[1:])), "the seats swap every game"
    assert len(posts(h, f"match #{match.id} (best of 3)")) == len(games) - 1
    champion = max(wins, key=wins.get)
    assert match.places == [1 if p == champion else 2 for p in match.players]
    event = await tournaments_of(bot).tournament(1)
    assert event.status == "finished"
    assert posts(h, f"The winner: **{PEOPLE[champion]}**")
    with pytest.raises(GameError, match="only in an elimination"):
        await tournaments_of(bot).create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID,
                                         channel_id=CHANNEL_ID, format="swiss", rounds=2, best_of=3)
    with pytest.raises(GameError, match="best of 3, 5, 7"):
        await tournaments_of(bot).create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID,
                                         channel_id=CHANNEL_ID, format="elimination", best_of=2)
    h.assert_no_errors()
