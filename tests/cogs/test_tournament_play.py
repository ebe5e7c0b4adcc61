"""Tournaments whose matches are really played through the discord.py dispatch (every move a click on a board
in the match's thread, as people do), with the organizer's tools as slash commands: leave before the start,
pause and resume, adjudicate, cancel, a player dropped from a table of three (the AI plays their seat on, they
are placed last), a player leaving a match game (the AI finishes it for them), and a restart (a new bot on the
same database, the same Discord) in the middle of a round."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import discord
import pytest

from bot import create_bot
from cogs.standings import post_progress
from engines.rng import Rng
from host.service import GameService
from host.tournaments import tournaments_of
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import latest_board, take_turn, to_act
from tests.discord_harness import CHANNEL_ID, GUILD_ID, Harness, button, components

PEOPLE = {101 + i: f"P{i}" for i in range(8)}


def event_post(h) -> dict:
    (post,) = [m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"]]
    return h.fake.messages[int(post["id"])]


def since(h, count: int) -> list[dict]:
    return list(h.fake.messages.values())[count:]


def user(uid: int) -> dict:
    return {"users": {str(uid): {"id": str(uid), "username": f"u{uid}", "discriminator": "0",
                                 "global_name": PEOPLE.get(uid, "x"), "avatar": None}}}


async def register(h, count: int, game: str = "hector-achilles", **options) -> list[int]:
    people = list(PEOPLE)[:count]
    await h.slash(people[0], "tournament new", game=game, name=PEOPLE[people[0]], **options)
    for uid in people[1:]:
        post = event_post(h)
        await h.click(uid, post, button(post, "Join")["custom_id"], name=PEOPLE[uid])
    return people


async def start(h) -> None:
    post = event_post(h)
    await h.click(101, post, button(post, "Start")["custom_id"], name="P0")


async def play_match(h, bot, match: dict, rng: Rng, limit: int = 3000) -> dict:
    """Click through a match's game until it is over; returns the game's row."""
    for _ in range(limit):
        game = await bot.service.game(match.game_id)
        if game.status != "running":
            return game
        await take_turn(h, game.thread_id, rng)
    raise AssertionError(f"match {match.id} did not finish")


async def play_round(h, bot, rng: Rng) -> int:
    """Play every open match of the current round to its end; returns the round played."""
    event = await tournaments_of(bot).tournament(1)
    for m in await bot.service.store.matches(1, event.round):
        if m.game_id is not None and m.places is None:
            await play_match(h, bot, m, rng)
    return event.round


async def restart(h, tmp_path, monkeypatch, seeds: int) -> Harness:
    """Stop the bot; a new one on the same database, talking to the same (fake) Discord."""
    await h.stop()
    store = await SqliteStore.open(tmp_path / "bot.db")
    numbers = iter(range(seeds, seeds + 1000))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0), store=store,
                     service=GameService(store, seed_source=lambda: next(numbers)))
    h2 = Harness(bot, monkeypatch)
    h2.fake, h2.payloads = h.fake, h.payloads
    return await h2.start()


async def board_of(h, bot, game_id: int) -> dict:
    """The newest board of a match game's thread (before it is ended)."""
    game = await bot.service.game(game_id)
    board = latest_board(h, game.thread_id)
    assert components(board), "a board being played has buttons"
    return board


async def assert_told_the_end(h, bot, game_id: int, board_before: dict, words: str) -> None:
    """A match game ended outside play: its thread's last board says how (``words``) and mentions its players,
    pinging them; that board has no buttons, and the board they played on lost its buttons. A game decided
    (adjudicated, a deadline, a drop) is finished with that result; a cancelled one is abandoned."""
    game = await bot.service.game(game_id)
    assert game.status in ("finished", "abandoned")
    last = latest_board(h, game.thread_id)
    assert last["id"] != board_before["id"], "a new last board is posted in the thread"
    assert words in last["content"]
    players = [s.user_id for s in game.seats if s.user_id]
    assert (f"Game #{game_id} is over." if game.status == "abandoned" else "**Game over.**") in last["content"]
    assert all(f"<@{u}>" in last["content"] for u in players), "the players are mentioned"
    request = next(r for r in reversed(h.fake.sent) if r.method == "POST" and isinstance(r.json, dict)
                   and r.json.get("content") == last["content"])
    assert sorted(int(u) for u in request.json["allowed_mentions"]["users"]) == sorted(players), "and pinged"
    assert all(c["custom_id"].startswith("gh:rm:") for c in components(last)), "no buttons to play (a Rematch)"
    assert not components(h.fake.messages[int(board_before["id"])]), "the old board lost its buttons"
    assert len([m for m in h.messages_in(game.thread_id) if words in m["content"]]) == 1, "told once"


async def check_every_match_once(store, tournament_id: int = 1) -> list[dict]:
    """Every match has at most one game, each game belongs to one match, and a played match's places are its
    game's (a dropped player last)."""
    matches = await store.matches(tournament_id)
    game_ids = [m.game_id for m in matches if m.game_id is not None]
    assert len(game_ids) == len(set(game_ids)), "a game counted for two matches"
    games = await store.tournament_games(tournament_id)
    assert sorted(g.id for g in games) == sorted(game_ids), "a match game without its match (or twice)"
    for m in matches:
        if len(m.players) > 1:
            assert m.places is not None and m.game_id is not None
    return matches


async def test_a_whole_swiss_played_by_clicks_with_an_ai_seat_a_drop_and_a_restart(harness, tmp_path,
                                                                                   monkeypatch):
    h = harness
    people = await register(h, 5, format="swiss", rounds=3)
    await start(h)
    store = h.bot.service.store
    rng = Rng(3)
    round1 = await store.matches(1, 1)
    assert sorted(len(m.players) for m in round1) == [1, 2, 2]
    # in one match a player leaves the game half-way: the AI finishes it for them, and the result counts
    first = next(m for m in round1 if len(m.players) == 2)
    game = await h.bot.service.game(first.game_id)
    for _ in range(10):
        await take_turn(h, game.thread_id, rng)
    leaver = first.players[1]
    before = len(h.fake.messages)
    await h.slash(leaver, "game leave", channel_id=game.thread_id, name=PEOPLE[leaver])
    (ask,) = [m for m in list(h.fake.messages.values())[before:] if "Leave game" in m["content"]]
    await h.click(leaver, ask, button(ask, "Leave the game")["custom_id"], name=PEOPLE[leaver])  # leaving is for good
    await h.settle()
    game = await h.bot.service.game(first.game_id)
    assert game.seat_row(1).is_ai and "the AI takes over their seat" in latest_board(h, game.thread_id)["content"]
    assert await play_round(h, h.bot, rng) == 1
    played = await store.match(first.id)
    assert played.how == "played" and played.places == (await h.bot.service.game(first.game_id)).result["places"]
    assert any("round 1 is over" in m["content"] and m["attachments"] for m in h.messages_in(CHANNEL_ID))
    assert any("round 2 has begun" in m["content"] for m in h.messages_in(CHANNEL_ID))
    # round 2: a player drops themselves mid-round (their game is forfeited), one match is played, then the
    # bot restarts with the round's other match half played
    round2 = await store.matches(1, 2)
    assert not {frozenset(m.players) for m in round2 if len(m.players) == 2} \
        & {frozenset(m.players) for m in round1}, "no rematch"
    two = [m for m in round2 if len(m.players) == 2]
    dropped = two[0].players[0]
    board_before = await board_of(h, h.bot, two[0].game_id)
    await h.slash(dropped, "tournament drop", tournament=1, name=PEOPLE[dropped])
    forfeited = await store.match(two[0].id)
    assert forfeited.how == "forfeit" and forfeited.places == [2, 1]
    other_player = PEOPLE[two[0].players[1]]
    await assert_told_the_end(h, h.bot, two[0].game_id, board_before,
                              f"{PEOPLE[dropped]} dropped out of tournament #1: match #{two[0].id} is "
                              f"forfeited, {other_player} wins it.")
    other = await h.bot.service.game(two[1].game_id)
    for _ in range(12):
        await take_turn(h, other.thread_id, rng)
    h.assert_no_errors()
    h2 = await restart(h, tmp_path, monkeypatch, 5000)
    try:
        bot2 = h2.bot
        store = bot2.service.store
        await h2.settle()
        assert (await tournaments_of(bot2).tournament(1)).round == 2, "nothing was paired by the restart"
        # the old board's buttons work in the new process; the round ends there and round 3 is paired
        assert await play_round(h2, bot2, rng) == 2
        event = await tournaments_of(bot2).tournament(1)
        assert event.round == 3
        round3 = await store.matches(1, 3)
        assert dropped not in {p for m in round3 for p in m.players}
        assert sorted(len(m.players) for m in round3) == [2, 2], "four players left: no bye"
        assert await play_round(h2, bot2, rng) == 3
        event = await tournaments_of(bot2).tournament(1)
        assert event.status == "finished" and not event.cancelled
        matches = await check_every_match_once(bot2.service.store)
        assert len(matches) == 8
        byes = [m.players[0] for m in matches if len(m.players) == 1]
        assert len(byes) == len(set(byes)) == 2
        for m in matches:
            if m.how == "played":
                assert m.places == (await bot2.service.game(m.game_id)).result["places"]
        final = [m for m in h2.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]
        assert len(final) == 1 and len(final[0]["attachments"]) >= 2, "the podium once, with the standings"
        _, rows = await tournaments_of(bot2).standings(1)
        assert {r.player for r, _ in rows} == set(people)
        assert [r.player for r, _ in rows if r.dropped] == [dropped]
        total = sum(r.points for r, _ in rows)
        assert total == 8, "six matches of a point each and two byes worth a win: nothing lost or doubled"
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_leave_before_the_start_pause_adjudicate_resume_and_cancel(harness):
    h = harness
    await register(h, 5, format="swiss", rounds=3)
    before = len(h.fake.messages)
    await h.slash(105, "tournament leave", tournament=1, name="P4")
    assert any("Tournament #1" in m["content"] for m in since(h, before))
    assert [u for u, _ in (await tournaments_of(h.bot).tournament(1)).entries] == [101, 102, 103, 104]
    await start(h)
    store = h.bot.service.store
    round1 = await store.matches(1, 1)
    assert [len(m.players) for m in round1] == [2, 2], "P4 left before the start: four players, no bye"
    # only the organizer pauses and adjudicates
    before = len(h.fake.messages)
    await h.slash(102, "tournament pause", tournament=1, name="P1")
    assert [m["content"] for m in since(h, before) if m["flags"] & 64 and m["content"]] == [
        "Only the organizer can do that in tournament #1 (Swiss)."]
    assert not (await tournaments_of(h.bot).tournament(1)).paused
    await h.slash(101, "tournament pause", tournament=1, name="P0")
    assert (await tournaments_of(h.bot).tournament(1)).paused
    assert [m["content"] for m in h.messages_in(CHANNEL_ID) if "is now" in m["content"]] == [
        "Tournament #1 is now paused (P0)."], "the change is told in the tournament's channel"
    # the organizer decides one match while its game is on: the game ends, the winner is the one named
    decided, played = round1
    winner = decided.players[1]
    board_before = await board_of(h, h.bot, decided.game_id)
    await h.slash(101, "tournament adjudicate", tournament=1, match=decided.id, winner=discord.Object(winner),
                  name="P0", resolved=user(winner))
    settled = await store.match(decided.id)
    assert settled.how == "adjudicated" and settled.places == [2, 1]
    await assert_told_the_end(h, h.bot, decided.game_id, board_before,
                              f"The organizer decided match #{decided.id}: {PEOPLE[winner]} win(s) it.")
    # the other match is played out; paused, the next round is paired but held: no games until resumed
    await play_match(h, h.bot, played, Rng(9))
    assert any("round 1 is over" in m["content"] for m in h.messages_in(CHANNEL_ID))
    held = await store.matches(1, 2)
    assert len(held) == 2 and all(m.game_id is None for m in held), "paired, held while paused"
    assert any("round 2 is paired and waits for the organizer" in m["content"] for m in h.messages_in(CHANNEL_ID))
    await h.slash(101, "tournament resume", tournament=1, name="P0")
    round2 = await store.matches(1, 2)
    assert len(round2) == 2 and any("round 2 has begun" in m["content"] for m in h.messages_in(CHANNEL_ID))
    games = [await h.bot.service.game(m.game_id) for m in round2]
    assert all(g.status == "running" for g in games)
    # a later click in a thread still works... until the organizer cancels
    await take_turn(h, games[0].thread_id, Rng(1))
    before_cancel = [await board_of(h, h.bot, g.id) for g in games]
    await h.slash(101, "tournament cancel", tournament=1, name="P0")
    for g, board_before in zip(games, before_cancel):
        await assert_told_the_end(h, h.bot, g.id, board_before,
                                  "Tournament #1 was cancelled: this game ends without a result.")
    event = await tournaments_of(h.bot).tournament(1)
    assert event.status == "finished" and event.cancelled
    assert [(await h.bot.service.game(g.id)).status for g in games] == ["abandoned", "abandoned"]
    before = len(h.fake.messages)
    await h.slash(101, "tournament resume", tournament=1, name="P0")
    assert any("not running" in m["content"] for m in since(h, before))
    h.assert_no_errors()


async def test_swiss_of_hextri_at_tables_of_three_with_a_drop_the_ai_plays_on(harness):
    h = harness
    await h.slash(101, "tournament new", game="hextri", name="P0", format="swiss", rounds=2, table_size=3,
                  options="round_limit=2")
    # the refusals name the format, in the asker's language
    h.payloads.locales[102] = "pl"
    for uid in (102, 101):
        before = len(h.fake.messages)
        post = event_post(h)
        await h.click(uid, post, button(post, "Start")["custom_id"], name=PEOPLE[uid])
        assert [m["content"] for m in since(h, before) if m["flags"] & 64] == [
            "W turnieju #1 (szwajcarski) może to zrobić tylko organizator." if uid == 102 else
            "Tournament #1 (Swiss) needs at least 3 players."]
    post = event_post(h)
    await h.click(102, post, button(post, "Join")["custom_id"], name="P1")
    before = len(h.fake.messages)
    await h.click(102, post, button(post, "Join")["custom_id"], name="P1")
    assert [m["content"] for m in since(h, before) if m["flags"] & 64] == ["Już jesteś w turnieju #1 (szwajcarski)."]
    h.payloads.locales.pop(102)
    for uid in list(PEOPLE)[2:6]:
        post = event_post(h)
        await h.click(uid, post, button(post, "Join")["custom_id"], name=PEOPLE[uid])
    people = list(PEOPLE)[:6]
    post = event_post(h)
    assert "Tables of 3" in "\n".join(f["value"] for f in post["embeds"][0]["fields"])
    await start(h)
    store = h.bot.service.store
    round1 = await store.matches(1, 1)
    assert sorted(len(m.players) for m in round1) == [3, 3]
    games = [await h.bot.service.game(m.game_id) for m in round1]
    assert all(g.status == "running" and g.thread_id and len(g.seats) == 3 for g in games)
    assert len({g.thread_id for g in games}) == 2, "each table in its own thread"
    # a player at the first table drops out: the AI plays their seat to the end, the seat stays theirs (placed
    # last as the first to leave)
    table = round1[0]
    dropped = table.players[0]
    await h.slash(101, "tournament drop", tournament=1, player=discord.Object(dropped), name="P0",
                  resolved=user(dropped))
    game = await h.bot.service.game(table.game_id)
    assert game.seat_of(dropped) == 0 and 0 in await h.bot.service._stand_ins(game), "the AI plays the seat"
    texts = "\n".join(m["content"] for m in h.messages_in(game.thread_id))
    assert f"{PEOPLE[dropped]} was dropped from the tournament and leaves game #{game.id}" in texts, "told"
    assert "The AI finishes their seat." in texts
    rng = Rng(4)
    assert await play_round(h, h.bot, rng) == 1
    settled = await store.match(table.id)
    places = dict(zip(settled.players, settled.places))
    assert places[dropped] > max(p for u, p in places.items() if u != dropped), "the dropped player is last"
    assert any("round 1 is over" in m["content"] for m in h.messages_in(CHANNEL_ID))
    round2 = await store.matches(1, 2)
    assert dropped not in {p for m in round2 for p in m.players}
    assert sorted(p for m in round2 for p in m.players) == sorted(set(people) - {dropped})
    assert max(len(m.players) for m in round2) == 3
    assert await play_round(h, h.bot, rng) == 2
    event = await tournaments_of(h.bot).tournament(1)
    assert event.status == "finished"
    await check_every_match_once(store)
    assert any("is over! The winner" in m["content"] for m in h.messages_in(CHANNEL_ID))
    h.assert_no_errors()


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_match_over_its_rounds_deadline_is_settled_by_the_clock_job(harness):
    h = harness
    h.bot.service.clock = clock = Clock()
    await register(h, 4, format="swiss", rounds=2, round_hours=1)
    await start(h)
    store = h.bot.service.store
    cog = h.bot.get_cog("Clocks")

    async def run_for(minutes: int) -> None:
        """The clock job as it runs: a tick a minute."""
        for _ in range(minutes):
            clock.now += timedelta(minutes=1)
            await cog.tick()
        await h.settle()

    finished, late = await store.matches(1, 1)
    rng = Rng(6)
    await play_match(h, h.bot, finished, rng)
    game = await h.bot.service.game(late.game_id)
    for _ in range(5):
        await take_turn(h, game.thread_id, rng)
    waiting = to_act(latest_board(h, game.thread_id))
    assert len(waiting) == 1
    await run_for(50)
    assert (await store.match(late.id)).places is None, "not before the deadline"
    board_before = await board_of(h, h.bot, late.game_id)
    await run_for(11)
    settled = await store.match(late.id)
    assert settled.how == "clock"
    assert settled.places == [2 if p == waiting[0] else 1 for p in settled.players], \
        "the player the match waited for loses it"
    await assert_told_the_end(h, h.bot, late.game_id, board_before,
                              f"reached the round's deadline: {PEOPLE[waiting[0]]} ran out of time")
    assert any("round 1 is over" in m["content"] for m in h.messages_in(CHANNEL_ID))
    round2 = await store.matches(1, 2)
    assert len(round2) == 2 and any("round 2 has begun" in m["content"] for m in h.messages_in(CHANNEL_ID))
    # round 2's deadline is an hour after it began (on the same clock): nobody moves, both are settled
    await run_for(59)
    assert [(await store.match(m.id)).places for m in round2] == [None, None]
    await run_for(2)
    assert [(await store.match(m.id)).how for m in round2] == ["clock", "clock"]
    event = await tournaments_of(h.bot).tournament(1)
    assert event.status == "finished"
    assert len([m for m in h.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]) == 1
    await run_for(2)
    assert len([m for m in h.messages_in(CHANNEL_ID) if "is over! The winner" in m["content"]]) == 1
    h.assert_no_errors()


async def test_a_match_ended_before_its_last_board_was_posted_gets_it_from_the_publisher(harness):
    """The organizer's decision is saved, then the process dies before posting (the service called alone):
    the background publisher posts the last board from the outbox, in the game's language."""
    h = harness
    service = tournaments_of(h.bot)
    await service.create("hector-achilles", user_id=101, user_name="P0", guild_id=GUILD_ID, channel_id=CHANNEL_ID,
                         lang="hu", format="swiss", rounds=1)
    await service.join(1, 102, "P1")
    await post_progress(h.bot, await service.start(1, 101))
    await h.settle()
    (match,) = await h.bot.service.store.matches(1, 1)
    board_before = await board_of(h, h.bot, match.game_id)
    await service.adjudicate(1, 101, match.id, [1, 2])
    game = await h.bot.service.game(match.game_id)
    assert latest_board(h, game.thread_id)["id"] == board_before["id"], "nothing posted yet"
    assert await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 1
    last = latest_board(h, game.thread_id)
    assert f"A szervező döntött a(z) #{match.id} meccsről: P0 nyerte." in last["content"]
    assert "**Vége a játéknak.**" in last["content"] and "Köszönjük a játékot, <@101> <@102>!" in last["content"]
    assert all(c["custom_id"].startswith("gh:rm:") for c in components(last)), "nothing to play on it"
    assert not components(h.fake.messages[int(board_before["id"])])
    assert await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 0, "posted once"
    h.assert_no_errors()


class Crash(Exception):
    """The process dies: no later save happens."""


async def test_a_crash_right_after_a_match_game_is_ended_still_posts_its_last_board(harness, tmp_path, monkeypatch):
    """The organizer adjudicates a match while its game is on, and the bot dies at the very next save after the
    one that ends the game: the last board is owed all the same (the ending and its outbox entry are one save),
    and the next bot's publisher posts it, once."""
    h = harness
    await register(h, 4, format="swiss", rounds=2)
    await start(h)
    store = h.bot.service.store
    decided = (await store.matches(1, 1))[0]
    board_before = await board_of(h, h.bot, decided.game_id)
    real = store._transaction
    ended = False

    async def dies_after_the_abandon(statements, *args, **kwargs):
        nonlocal ended
        if ended:
            raise Crash("the process died")
        done = await real(statements, *args, **kwargs)
        ended = any("SET status = ?" in sql and params[0] == "finished" for sql, params in statements)
        return done

    monkeypatch.setattr(store, "_transaction", dies_after_the_abandon)
    winner = decided.players[0]
    with pytest.raises(Crash):
        await tournaments_of(h.bot).adjudicate(1, 101, decided.id, [1, 2])
    assert ended, "the game was ended before the crash"
    owed = await store.outbox(decided.game_id)
    assert any(f"The organizer decided match #{decided.id}: {PEOPLE[winner]} win(s) it." in line
               for e in owed for line in e.lines), "the last board is owed with the ending"
    monkeypatch.setattr(store, "_transaction", real)
    h2 = await restart(h, tmp_path, monkeypatch, 7000)
    try:
        assert await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) >= 1
        await h2.settle()
        await assert_told_the_end(h2, h2.bot, decided.game_id, board_before,
                                  f"The organizer decided match #{decided.id}: {PEOPLE[winner]} win(s) it.")
        assert await h2.bot.service.store.outbox(decided.game_id) == []
        h2.assert_no_errors()
    finally:
        await h2.stop()


@pytest.mark.parametrize("dies", ["before the opening", "after the opening"])
async def test_a_crash_while_a_match_thread_opens_still_opens_it_with_its_players_mentioned(
        harness, tmp_path, monkeypatch, dies):
    """The bot dies while it opens a match's thread: after the thread is recorded but before its first message
    (which mentions the players, adding them to the thread), or after Discord took that message but before it was
    recorded. The next bot posts that first message once, before any board, in the same thread: a board posted
    first would mention only the player to act and leave the other out of the thread."""
    h = harness
    places = h.bot.get_cog("Places")
    real_attach = h.bot.service.attach
    died: list[int] = []

    async def dies_while_opening(game_id, **kwargs):
        if died:
            raise Crash("the process died")
        if dies == "after the opening" and kwargs.get("board_message_id") is not None:
            died.append(game_id)
            raise Crash("the process died")
        await real_attach(game_id, **kwargs)
        if dies == "before the opening" and kwargs.get("thread_id") is not None:
            died.append(game_id)
            raise Crash("the process died")

    monkeypatch.setattr(h.bot.service, "attach", dies_while_opening)
    monkeypatch.setattr(places, "kick", lambda: None)  # the opener runs below, where the crash can be caught
    await register(h, 4, format="swiss", rounds=2)
    await start(h)
    with pytest.raises(Crash):
        await places.open_waiting()
    (game_id,) = died
    store = h.bot.service.store
    thread = (await store.get_game(game_id)).thread_id
    assert thread is not None, "the thread was made and recorded before the crash"
    openings_before = [m for m in h.messages_in(thread) if "<@" in m["content"]]
    assert len(openings_before) == (dies == "after the opening")
    threads_before = len([c for c in h.fake.channels.values() if c.get("type") == 11])
    h.errors.records.clear()  # the crash itself was logged by the dying process
    monkeypatch.setattr(h.bot.service, "attach", real_attach)
    h2 = await restart(h, tmp_path, monkeypatch, 9000)
    try:
        await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))  # the publisher may come first
        assert [m for m in h2.messages_in(thread)] == openings_before, "nothing before the opening"
        while await h2.bot.get_cog("Places").open_waiting():
            pass
        await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))
        await h2.settle()
        assert len([c for c in h2.fake.channels.values() if c.get("type") == 11]) == threads_before + 1, \
            "the other match got its thread; the crashed one kept its own"
        for m in await h2.bot.service.store.matches(1, 1):
            game = await h2.bot.service.game(m.game_id)
            messages = h2.messages_in(game.thread_id)
            first = messages[0]
            assert all(f"<@{p}>" in first["content"] for p in m.players), first["content"]
            assert len([x for x in messages if "<@" in x["content"] and "begins" not in x["content"]
                        and not x["attachments"]]) == 1, "the opening once"
            assert any(x["attachments"] for x in messages[1:]), "then the board"
        assert (await h2.bot.service.store.get_game(game_id)).options.get("opening_owed") is None
        h2.assert_no_errors()
    finally:
        await h2.stop()
