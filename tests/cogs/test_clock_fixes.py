"""Turn clocks as players meet them after a time-out, a restart or a vacation, through the real discord.py
dispatch with the service's clock driven by the test (issue 21): a bank that ran out gives a returning player
one bonus; a vacation that ended while the bot was down and a move made before the first clock round after a
restart are not charged the outage; the timed-out player is pinged and DMed how to come back; a player already
out is told so; against the AI a time-out waits for the person; one person left at a table ends it; vacations
and moved deadlines are posted with the board's new times; a bad clock option is refused with its own values;
and what BGA and lichess let an opponent do: claim the win (or a draw) and give more time."""

from __future__ import annotations

from datetime import timedelta

import discord

from engines.rng import Rng
from host import clock as clocks
from host.ending import Ending, How
from tests.cogs.driver import latest_board, take_turn, to_act
from tests.cogs.test_clocks import CY, Clock, _game, _replies, _restart, _ticks
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
from tests.discord_harness import button


def _texts(h, thread: int) -> str:
    return "\n".join(m["content"] for m in h.messages_in(thread))


async def _publish(h) -> None:
    await h.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))
    await h.settle()


async def _clock_of(h, seat: int) -> clocks.SeatClock:
    return (await h.bot.service._seat_clocks(1))[seat]


def _at(clock, **delta) -> int:
    return int((clock.now + timedelta(**delta)).timestamp())


async def _say(h, user: int, command: str, **options) -> str:
    """A slash command's private answer(s)."""
    before = len(h.fake.messages)
    await h.slash(user, command, **options)
    await h.settle()
    return "\n".join(m["content"] for m in _replies(h, before) if m["flags"] & 64)


async def _until_to_act(h, thread: int, user: int, rng: Rng) -> None:
    """The others play until ``user`` is asked to act."""
    for _ in range(50):
        if user in to_act(latest_board(h, thread)):
            return
        await take_turn(h, thread, rng)
    raise AssertionError("never their turn")


# -- a time-out, and the player coming back ----------------------------------------------------------------

async def test_a_player_whose_bank_ran_out_gets_a_bonus_back_and_keeps_the_seat(harness):
    """Today's code left the bank at 0 s: the returning player's next move ran out at once and the AI took the
    seat straight back."""
    h = harness
    thread, clock = await _game(h, time_control="bank", on_timeout="ai")
    clock.now += timedelta(days=3, minutes=1)
    assert await h.bot.service.expire_clocks() == [1]
    await _publish(h)
    board = latest_board(h, thread)
    assert "🤖 The AI plays for Ann" in board["content"]
    await h.click(ANN, board, button(board, "My hand")["custom_id"])  # Ann is back
    await _publish(h)
    await _until_to_act(h, thread, ANN, Rng(5))
    board = latest_board(h, thread)
    assert f"⏳ Ann: time runs out <t:{_at(clock, hours=12)}:R>" in board["content"], "one bonus: 12 h"
    clock.now += timedelta(minutes=5)
    assert await h.bot.service.expire_clocks() == []
    assert not (await _clock_of(h, 0)).stand_in, "the AI did not take the seat straight back"
    h.assert_no_errors()


async def test_a_timed_out_player_is_pinged_in_the_thread_and_dmed_how_to_come_back(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    dms = len(h.dm_messages(ANN))
    await _ticks(h, clock, 61)
    line = next(m for m in h.messages_in(thread) if "ran out of time" in m["content"])
    assert f"<@{ANN}> ran out of time: the AI plays their seat until they are back" in line["content"]
    assert "`/game hand`" in line["content"]
    request = next(r for r in h.fake.sent if r.method == "POST" and r.json and r.json.get("content") == line["content"])
    assert ANN in [int(u) for u in request.json["allowed_mentions"]["users"]], "Ann is pinged, not only named"
    (dm,) = [m for m in h.dm_messages(ANN)[dms:] if "Your time ran out" in m["content"]]
    assert "the AI plays your seat until you are back" in dm["content"] and "`/game hand`" in dm["content"]
    assert dm["attachments"], "with the board"
    h.assert_no_errors()


async def test_a_player_out_of_a_running_game_of_three_is_told_so_and_not_offered_resign(harness):
    h = harness
    h.bot.service.clock = Clock()
    await h.slash(ANN, "hextri new", name="Ann", players=3, radius=2, time_control="1d")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.click(CY, h.fake.messages[int(lobby["id"])], button(lobby, "Join")["custom_id"], name="Cy")
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread)
    (ask,) = [m for m in _replies(h, before) if "Resign game #1?" in m["content"]]
    await h.click(ANN, ask, button(ask, "Resign")["custom_id"])
    await h.settle()
    assert (await h.bot.service.game(1)).status == "running", "Bob and Cy play on"
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread)
    replies = _replies(h, before)
    assert [m["content"] for m in replies] == [
        "You are already out of game #1 (your time ran out or you resigned): the AI finishes your seat."]
    assert not any(c for m in replies for c in m["components"]), "no Resign button"
    assert "is over" not in replies[0]["content"]
    h.assert_no_errors()


async def test_against_the_ai_a_time_out_waits_for_the_person(harness):
    """Today's code let the AI play both seats to the end in one clock round: the person came back to a
    finished game."""
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai", time_control="1h")
    thread = thread_of(h)
    version = (await h.bot.service.game(1)).version
    await _ticks(h, clock, 61)
    game = await h.bot.service.game(1)
    assert game.status == "running" and game.version == version, "the AI did not play Ann's seat"
    board = latest_board(h, thread)
    assert "⏸️ The game waits for Ann (their time ran out)" in board["content"]
    assert f"<@{ANN}> ran out of time: nobody else plays here, so the game waits for them" in _texts(h, thread)
    clock.now += timedelta(days=1)  # a day later it still waits
    assert await h.bot.service.expire_clocks() == []
    assert (await h.bot.service.game(1)).version == version
    await h.click(ANN, board, button(board, "My hand")["custom_id"])
    await _publish(h)
    assert not (await _clock_of(h, 0)).stand_in
    assert f"⏳ Ann: time runs out <t:{_at(clock, hours=1)}:R>" in latest_board(h, thread)["content"]
    rng = Rng(2)
    for _ in range(3):
        await take_turn(h, thread, rng)
    assert (await h.bot.service.game(1)).status == "running"
    h.assert_no_errors()


async def test_one_person_left_among_stand_ins_and_forfeits_ends_the_table_first(harness):
    """Ann runs out of time (the AI stands in), then Bob resigns: Cy is the only person left, and the table
    ends with Cy first, Bob second and Ann - the first to go - last. Today's code made Cy play on against two
    AI seats."""
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "hextri new", name="Ann", players=3, radius=2, time_control="1h")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.click(CY, h.fake.messages[int(lobby["id"])], button(lobby, "Join")["custom_id"], name="Cy")
    game = await h.bot.service.game(1)
    first = to_act(latest_board(h, thread))[0]
    others = [s.user_id for s in game.seats if s.user_id != first]
    await _ticks(h, clock, 61)
    assert (await h.bot.service.game(1)).status == "running", "two people still play"
    before = len(h.fake.messages)
    await h.slash(others[0], "game resign", channel_id=thread)
    (ask,) = [m for m in _replies(h, before) if "Resign game #1?" in m["content"]]
    await h.click(others[0], ask, button(ask, "Resign")["custom_id"])
    await h.settle()
    game = await h.bot.service.game(1)
    assert game.status == "finished"
    places = {s.user_id: game.result["places"][s.seat] for s in game.seats}
    assert places == {others[1]: 1, others[0]: 2, first: 3}
    last = game.seat_row(game.seat_of(others[1])).name
    assert f"Nobody is left to play against: the table ends, {last} first." in latest_board(h, thread)["content"]
    h.assert_no_errors()


# -- restarts and vacations --------------------------------------------------------------------------------

async def test_a_vacation_that_ended_while_the_bot_was_down_gives_the_downtime_back(harness, tmp_path,
                                                                                       monkeypatch):
    """Ann (1 h per move, forfeit) has used 10 minutes, goes away for a day, and the bot is down for two days
    across the vacation's end: she still has her 50 minutes at the restart. Today's code ran her clock from the
    vacation's end and she forfeited at the restart."""
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="forfeit")
    await _ticks(h, clock, 10)
    await h.slash(ANN, "game away days", days=1)
    await _ticks(h, clock, 5)
    clock.now += timedelta(days=2)
    h2 = await _restart(h, tmp_path, monkeypatch, clock, same_discord=True)
    try:
        assert await h2.bot.get_cog("Clocks").tick() == [1]  # the vacation's end, told
        game = await h2.bot.service.game(1)
        assert game.status == "running", "no forfeit at the restart"
        assert (await h2.bot.service._seat_clocks(1))[0].deadline == _at(clock, minutes=50)
        await _publish(h2)
        texts = _texts(h2, thread)
        assert "✈️ Ann is back from vacation: their clock runs again." in texts
        assert f"⏳ Ann: time runs out <t:{_at(clock, minutes=50)}:R>" in latest_board(h2, thread)["content"]
        await _ticks(h2, clock, 49)
        assert (await h2.bot.service.game(1)).status == "running"
        await _ticks(h2, clock, 1)
        assert (await h2.bot.service.game(1)).status == "finished"
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def _thinks(h, clock, **delta) -> None:
    """Time passes while the bot is up: its clock job beats all along (no outage), nothing else is due."""
    clock.now += timedelta(**delta)
    await h.bot.service.store.beat(int(clock.now.timestamp()))


async def _whole_turn(h, thread: int, user: int, rng: Rng) -> int:
    """``user`` plays their whole turn (however many steps); returns the steps."""
    steps = 0
    while user in to_act(latest_board(h, thread)):
        await take_turn(h, thread, rng)
        steps += 1
    return steps


async def test_a_move_before_the_first_clock_round_after_a_restart_is_not_charged_the_outage(
        harness, tmp_path, monkeypatch):
    """Ann (time bank) thinks for two days; the bot is down for 30 hours; she moves as soon as it is back,
    before its first clock round: her bank is charged the two days, not 2 days 30 hours."""
    h = harness
    thread, clock = await _game(h, time_control="bank")
    deadline = (await _clock_of(h, 0)).deadline
    await _thinks(h, clock, days=2)
    clock.now += timedelta(hours=30)
    h2 = await _restart(h, tmp_path, monkeypatch, clock, same_discord=True)
    try:
        assert (await h2.bot.service._seat_clocks(1))[0].deadline == deadline + 30 * 3600, "given back at start"
        await _whole_turn(h2, thread, ANN, Rng(3))
        assert (await h2.bot.service._seat_clocks(1))[0].bank == clocks.DAY + 12 * clocks.HOUR
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_the_bank_bonus_is_paid_once_per_turn_not_per_click(harness):
    """A turn of several steps is one move: the bank is charged once and gets one bonus. Today's code paid the
    12 h bonus for every click, so a turn of three steps refilled the bank by 36 h."""
    h = harness
    thread, clock = await _game(h, time_control="bank")
    await _thinks(h, clock, days=2)
    steps = await _whole_turn(h, thread, ANN, Rng(3))
    assert steps >= 2, "a turn of several steps"
    assert (await _clock_of(h, 0)).bank == clocks.DAY + 12 * clocks.HOUR, "3 days - 2 days + one 12 h bonus"
    await _thinks(h, clock, hours=1)
    await _whole_turn(h, thread, BOB, Rng(4))
    board = latest_board(h, thread)
    assert f"⏳ Ann: time runs out <t:{_at(clock, hours=36)}:R>" in board["content"]
    h.assert_no_errors()


async def test_a_vacation_is_posted_in_the_thread_with_the_boards_new_times(harness):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    await _ticks(h, clock, 60)
    await h.slash(ANN, "game away days", days=2)
    await h.settle()
    board = latest_board(h, thread)
    assert "✈️ Ann is away until" in board["content"] and "their clock is paused" in board["content"]
    clock.now += timedelta(hours=5)
    await h.slash(ANN, "game away off")
    await h.settle()
    board = latest_board(h, thread)
    assert "✈️ Ann is back from vacation: their clock runs again." in board["content"]
    assert f"⏳ Ann: time runs out <t:{_at(clock, hours=11)}:R>" in board["content"], "11 h left, as before"
    h.assert_no_errors()


async def test_an_outage_is_posted_in_the_thread_with_the_moved_deadline(harness, tmp_path, monkeypatch):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    await _ticks(h, clock, 60)
    clock.now += timedelta(hours=5)
    h2 = await _restart(h, tmp_path, monkeypatch, clock, same_discord=True)
    try:
        await _publish(h2)
        board = latest_board(h2, thread)
        assert "🔧 The bot was offline for 5 h: every clock got that time back." in board["content"]
        assert f"⏳ Ann: time runs out <t:{_at(clock, hours=11)}:R>" in board["content"]
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_bad_clock_option_is_refused_with_its_own_values(harness):
    """A stale client may send a value the command no longer offers: each option names its own values."""
    h = harness
    told = await _say(h, ANN, "hector-achilles new", name="Ann", time_control="2h")
    assert "time_control must be one of: none, 1h, 12h, 1d, 3d, bank (not 2h)." in told
    assert "forfeit" not in told
    told = await _say(h, ANN, "hector-achilles new", name="Ann", on_timeout="pass")
    assert "on_timeout must be one of: ai, forfeit (not pass)." in told
    assert "bank" not in told
    assert not [c for c in h.fake.channels.values() if c["type"] == 11], "no game was opened"
    h.assert_no_errors()


# -- claiming the win, giving time --------------------------------------------------------------------------

async def _out(h, clock, minutes: int) -> None:
    """Time passes without the clock job's heartbeat (no outage), then one clock round."""
    clock.now += timedelta(minutes=minutes)
    await h.bot.service.expire_clocks()
    await _publish(h)


async def test_the_opponent_claims_the_win_once_the_absent_player_has_been_out_a_while(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    assert "Nobody in game #1 has run out of time" in await _say(h, BOB, "game claim", channel_id=thread)
    await _out(h, clock, 61)  # Ann ran out; the AI made her move
    told = await _say(h, BOB, "game claim", channel_id=thread)
    assert f"Ann ran out of time only recently: you can claim <t:{_at(clock, hours=1)}:R>" in told
    assert (await h.bot.service.game(1)).status == "running"
    clock.now += timedelta(minutes=60)
    dms = len(h.dm_messages(ANN))
    assert "Done" in await _say(h, BOB, "game claim", channel_id=thread)
    game = await h.bot.service.game(1)
    ended = Ending.from_json(game.result)
    assert game.status == "finished" and ended.places == (2, 1) and [(d.seat, d.how) for d in ended.left] == [(0, How.TIMEOUT)]
    assert "🏆 Bob (Trojans) wins: Ann (Achaeans) ran out of time." in latest_board(h, thread)["content"]
    assert "🏁 Bob claimed the win: Ann ran out of time long ago and did not come back" in _texts(h, thread)
    assert any("Bob claimed the win in game #1" in m["content"] for m in h.dm_messages(ANN)[dms:])
    assert "Game #1 is over" in await _say(h, BOB, "game claim", channel_id=thread)
    h.assert_no_errors()


async def test_the_opponent_may_claim_a_draw_instead(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    await _out(h, clock, 61)
    clock.now += timedelta(minutes=60)
    await _say(h, BOB, "game claim", channel_id=thread, draw=True)
    game = await h.bot.service.game(1)
    ended = Ending.from_json(game.result)
    assert game.status == "finished" and ended.places == (1, 1) and ended.draw
    assert "🤝 A draw: Ann (Achaeans) ran out of time." in latest_board(h, thread)["content"]
    assert "🤝 Bob claimed a draw in game #1: Ann ran out of time long ago" in _texts(h, thread)
    h.assert_no_errors()


async def test_a_returning_player_cannot_be_claimed_against_and_a_stranger_cannot_claim(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    await _out(h, clock, 61)
    clock.now += timedelta(minutes=60)
    assert "You are not playing in game #1" in await _say(h, CY, "game claim", channel_id=thread)
    board = latest_board(h, thread)
    await h.click(ANN, board, button(board, "My hand")["custom_id"])  # Ann is back
    assert "Nobody in game #1 has run out of time" in await _say(h, BOB, "game claim", channel_id=thread)
    assert (await h.bot.service.game(1)).status == "running"
    h.assert_no_errors()


async def test_a_draw_is_claimed_only_in_a_game_of_two(harness):
    h = harness
    h.bot.service.clock = Clock()
    await h.slash(ANN, "hextri new", name="Ann", players=3, radius=2, time_control="1h")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.click(CY, h.fake.messages[int(lobby["id"])], button(lobby, "Join")["custom_id"], name="Cy")
    told = await _say(h, BOB, "game claim", channel_id=thread, draw=True)
    assert "A draw can be claimed only in a game of two" in told
    h.assert_no_errors()


async def test_giving_more_time_moves_the_deadline_and_tells_the_thread(harness):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    deadline = _at(clock, hours=12)
    assert "Done" in await _say(h, BOB, "game moretime", channel_id=thread, hours=2)
    await h.settle()
    board = latest_board(h, thread)
    assert f"⏱️ Bob gave Ann 2 h more: their time runs out <t:{deadline + 7200}:R>." in board["content"]
    assert f"⏳ Ann: time runs out <t:{deadline + 7200}:R>" in board["content"]
    assert (await _clock_of(h, 0)).deadline == deadline + 7200
    # nothing else changes: no time for oneself, none for a clock that is not running, none from a stranger
    assert "You cannot give yourself time" in await _say(h, ANN, "game moretime", channel_id=thread, hours=1,
                                                           player=discord.Object(ANN), resolved=_member(ANN))
    assert "Bob's clock is not running now" in await _say(h, ANN, "game moretime", channel_id=thread, hours=1)
    assert "You are not playing in game #1" in await _say(h, CY, "game moretime", channel_id=thread, hours=1)
    assert (await _clock_of(h, 0)).deadline == deadline + 7200
    h.assert_no_errors()


async def test_more_time_with_a_bank_fills_the_bank_and_lasts_past_the_move(harness):
    h = harness
    thread, clock = await _game(h, time_control="bank")
    await _say(h, ANN, "game moretime", channel_id=thread, hours=5)  # Bob is not to act: his bank grows
    assert (await _clock_of(h, 1)).bank == 3 * clocks.DAY + 5 * clocks.HOUR
    assert "⏱️ Ann gave Bob 5 h more: their time bank holds 3 days 5 h." in _texts(h, thread)
    await _say(h, BOB, "game moretime", channel_id=thread, hours=4)  # Ann's running move: deadline and bank
    assert (await _clock_of(h, 0)).deadline == _at(clock, days=3, hours=4)
    clock.now += timedelta(days=3, hours=2)  # she uses 3 days 2 h of her 3 days 4 h
    rng = Rng(8)
    while ANN in to_act(latest_board(h, thread)):
        await take_turn(h, thread, rng)
    assert (await _clock_of(h, 0)).bank == 14 * clocks.HOUR, "2 h left of the gift, and the 12 h bonus"
    clock.now += timedelta(hours=1)  # Bob's quick turn keeps the time he was given above the 3 days
    await _whole_turn(h, thread, BOB, Rng(9))
    assert (await _clock_of(h, 1)).bank == 3 * clocks.DAY + 4 * clocks.HOUR
    h.assert_no_errors()


def _member(user_id: int) -> dict:
    user = {"id": str(user_id), "username": "Ann", "discriminator": "0", "global_name": "Ann", "avatar": None}
    return {"users": {str(user_id): user}, "members": {str(user_id): {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                                                                    "deaf": False, "mute": False, "flags": 0,
                                                                    "permissions": "1071698660929",
                                                                    "nick": None, "avatar": None, "pending": False}}}
