"""Turn clocks (host/clock.py) and the service around them, driven by an injected clock: time controls,
warnings, timeouts (AI stand-in, forfeit, the default of a simultaneous decision), vacations, restarts and
outages, resigning, and a league that finishes although one player never moves."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engines import ENGINES
from engines.base import BaseEngine
from host import clock as clocks
from host import presenters as presenter_registry
from host.clock import DAY, HOUR, TIME_CONTROLS, SeatClock, reconcile
from host.ending import Ending, How
from host.presenters import Presenter
from host.service import GameError, GameService
from host.tournaments import TournamentService
from store import SqliteStore

ANN, BOB, CY = 1, 2, 3
T0 = datetime(2030, 3, 1, 12, 0, tzinfo=UTC)



def _out(game) -> tuple[list[int], list[int]]:
    """A finished game's places and the seats that went out, in order (host/ending.py)."""
    ended = Ending.from_json(game.result)
    return list(ended.places), [d.seat for d in ended.left]

class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


# -- pure computation --------------------------------------------------------------------------------------

def test_per_move_deadline_and_warnings():
    control = TIME_CONTROLS["1d"]
    now = 1_000_000
    (c,) = reconcile(control, {}, [0], [0], {0}, now).values()
    assert c.deadline == now + DAY and not c.simultaneous
    assert clocks.due(c, now + HOUR) is None
    assert clocks.due(c, now + DAY // 2) == "half"
    c = clocks.warned(c, "half")
    assert clocks.due(c, now + DAY // 2 + 1) is None
    assert clocks.due(c, now + DAY - HOUR) == "hour"
    c = clocks.warned(c, "hour")
    assert clocks.due(c, now + DAY - 1) is None and clocks.due(c, now + DAY) == "timeout"


def test_a_one_hour_control_warns_at_half_time_only():
    (c,) = reconcile(TIME_CONTROLS["1h"], {}, [0], [0], {0}, 0).values()
    assert clocks.due(c, 1) is None and clocks.due(c, 1800) == "half"
    assert clocks.due(clocks.warned(c, "half"), 3599) is None  # never an "hour left" warning on a 1 h move


@pytest.mark.parametrize("name, limit", [("1h", HOUR), ("12h", 12 * HOUR), ("1d", DAY), ("3d", 3 * DAY)])
def test_every_per_move_control_gives_its_limit_each_move(name, limit):
    control = TIME_CONTROLS[name]
    got = reconcile(control, {}, [0, 1], [0], {0, 1}, 100)
    assert got[0].deadline == 100 + limit and not got[1].running
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 100 + limit - 5)  # seat 0 moved just in time
    assert not got[0].running and got[1].deadline == 100 + limit - 5 + limit


def test_a_bank_is_spent_and_gets_its_bonus_up_to_the_start():
    control = TIME_CONTROLS["bank"]
    got = reconcile(control, {}, [0, 1], [0], {0, 1}, 0)
    assert got[0].deadline == 3 * DAY and got[0].bank == 3 * DAY
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 2 * DAY)  # two days used, 12 h back
    assert got[0].bank == DAY + 12 * HOUR
    got = reconcile(control, got, [0, 1], [0], {0, 1}, 2 * DAY + 60)
    assert got[0].deadline == 2 * DAY + 60 + DAY + 12 * HOUR
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 2 * DAY + 120)  # 60 s used, 12 h back
    assert got[0].bank == 2 * DAY - 60
    got = reconcile(control, {}, [0, 1], [0], {0, 1}, 0)
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 60)  # a quick move: capped at the start
    assert got[0].bank == 3 * DAY


def test_simultaneous_decisions_get_the_short_limit_and_spare_the_bank():
    control = TIME_CONTROLS["bank"]
    got = reconcile(control, {}, [0, 1], [0, 1], {0, 1}, 0)
    assert all(c.simultaneous and c.deadline == control.simultaneous for c in got.values())
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 100)
    assert got[0].bank == 3 * DAY and got[1].deadline == control.simultaneous  # seat 1's window goes on


def test_default_action_and_forfeit_places():
    assert clocks.default_action([{"type": "react", "card": 1}, {"type": "pass"}]) == {"type": "pass"}
    assert clocks.default_action([{"type": "lose", "unit": 2}, {"type": "lose", "unit": 1}]) == \
        {"type": "lose", "unit": 2}
    assert clocks.forfeit_places([1, 2, 3], {0}) == [3, 1, 2]
    assert clocks.forfeit_places([1, 1, 3], {2}) == [1, 1, 3]


def test_pause_and_resume_shift_the_deadline():
    c = SeatClock(0, started=0, deadline=100, paused_at=40)
    assert c.left(1000) == 60 and clocks.due(c, 5000) is None
    r = clocks.resume(c, 1040)
    assert r.deadline == 1100 and r.started == 1000 and r.paused_at is None


# -- the service ------------------------------------------------------------------------------------------

async def _two(store, control="1d", on_timeout=None, engine="hector-achilles"):
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    game, _ = await service.create(engine, user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   time_control=control, on_timeout=on_timeout)
    game, outcome = await service.join(game.id, BOB, "Bob")
    if game.status == "lobby":
        outcome = await service.start(game.id, ANN)
        game = outcome.game
    return service, clock, game, outcome


async def _to_act(service, game_id):
    game = await service.game(game_id)
    return game, ENGINES[game.engine].to_act(await service.state_of(game))


async def test_a_game_against_the_ai_has_no_clock_and_an_open_one_a_day(store):
    service = GameService(store, seed_source=lambda: 5, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai")
    assert game.options["clock"]["control"] == "none" and await store.clocks(game.id) == []
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    assert game.options["clock"] == {"control": "1d", "on_timeout": "ai"}
    with pytest.raises(GameError, match="time_control"):
        await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                             time_control="5 minutes")


async def test_the_board_and_dm_tell_the_deadline_and_warnings_come_once(store):
    service, clock, game, outcome = await _two(store, "1d")
    deadline = int((T0 + timedelta(days=1)).timestamp())
    assert f"⏳ Ann: time runs out <t:{deadline}:R>" in outcome.board.text
    assert outcome.nudges and f"<t:{deadline}:R>" in outcome.nudges[0].text
    assert await service.expire_clocks(clock.advance(hours=11)) == []
    assert await service.expire_clocks(clock.advance(hours=1)) == [game.id]
    (entry,) = [e for e in await store.outbox(game.id) if e.lines and "half of your time" in e.lines[0]]
    assert f"<@{ANN}>" in entry.lines[0]
    assert await service.expire_clocks(clock.advance(hours=1)) == []  # once only
    assert await service.expire_clocks(clock.advance(hours=10)) == [game.id]  # 23 h: one hour left
    assert any("one hour left" in line for e in await store.outbox(game.id) for line in e.lines)
    assert await service.expire_clocks(clock.advance(minutes=30)) == []


async def test_timeout_ai_stands_in_until_the_player_clicks(store):
    service, clock, game, _ = await _two(store, "1h", "ai")
    await service.expire_clocks(clock.advance(minutes=61))
    lines = [line for e in await store.outbox(game.id) for line in e.lines]
    assert any(f"<@{ANN}> ran out of time: the AI plays their seat" in line for line in lines)
    game, acting = await _to_act(service, game.id)
    assert acting == [1] and game.version >= 1  # the AI made Ann's move; Bob is to act
    actions = await store.actions(game.id)
    assert actions[0]["seat"] == 0 and actions[0]["user_id"] == ANN
    # Bob moves; the AI answers for Ann at once, without waiting for her clock
    await service.act(game.id, BOB, game.version, 0)
    game, acting = await _to_act(service, game.id)
    assert acting == [1], "the AI moved for Ann at once"
    # Ann clicks anything: she has her seat back, and her next move is hers again
    with pytest.raises(GameError, match="Welcome back"):
        await service.act(game.id, ANN, game.version, 0)
    assert not (await service._seat_clocks(game.id))[0].stand_in
    while acting == [1]:
        await service.act(game.id, BOB, game.version, 0)
        game, acting = await _to_act(service, game.id)
    game, acting = await _to_act(service, game.id)
    assert acting == [0] and (await service._seat_clocks(game.id))[0].running


async def test_timeout_forfeit_ends_a_two_player_game_ranked_last(store):
    service, clock, game, _ = await _two(store, "12h", "forfeit")
    await service.expire_clocks(clock.advance(hours=13))
    game = await service.game(game.id)
    assert game.status == "finished" and _out(game) == ([2, 1], [0])
    assert Ending.from_json(game.result).how is How.TIMEOUT
    board = await service.status(game.id)
    assert "Bob" in board.board.text and any("forfeits" in line for e in await store.outbox(game.id)
                                             for line in e.lines)
    ratings = await TournamentService(service).leaderboard("hector-achilles", 1)
    assert [name for _, name in ratings] == ["Bob", "Ann"]


async def test_a_vacation_pauses_every_clock_and_is_limited_per_month(store):
    service, clock, game, _ = await _two(store, "1d")
    clock.advance(hours=2)
    text = await service.set_away(ANN, 3)
    assert "3 of 14 days" in text
    board = await service.status(game.id)
    assert "✈️ Ann is away until" in board.board.text  # shown to the others
    assert await service.expire_clocks(clock.advance(days=2)) == []  # paused: no warning, no timeout
    with pytest.raises(GameError, match="at most 14 days"):
        await service.set_away(BOB, 15)
    # the vacation runs out after 3 days: Ann gets her 22 hours back from then
    await service.expire_clocks(clock.advance(days=1, hours=1))
    c = (await service._seat_clocks(game.id))[0]
    assert c.paused_at is None and c.deadline == int((T0 + timedelta(days=4)).timestamp())
    # back early from a second vacation: the unused full days are given back for the month
    await service.set_away(ANN, 5)
    clock.advance(days=1, hours=1)
    assert "run again" in await service.set_away(ANN, None)
    assert (await store.away(ANN))["used_days"] == 3 + 2
    with pytest.raises(GameError, match="not away"):
        await service.set_away(ANN, None)


async def test_a_restart_during_a_countdown_keeps_the_clock_and_an_outage_is_given_back(store, tmp_path):
    service, clock, game, _ = await _two(store, "1h", "forfeit")
    for _ in range(20):  # the bot beats every minute: no outage
        assert await service.heartbeat(clock.advance(minutes=1)) == 0
    await store.close()
    # the bot is down for five hours; Ann's hour would have run out meanwhile
    store2 = await SqliteStore.open(tmp_path / "g.db")
    clock.advance(hours=5)
    service2 = GameService(store2, render=False, clock=clock)
    assert await service2.heartbeat() == 5 * 3600
    assert await service2.expire_clocks() == []
    assert (await service2.game(game.id)).status == "running"
    # she still has the 40 minutes she had when the bot went down
    assert await service2.expire_clocks(clock.advance(minutes=41)) == [game.id]
    assert (await service2.game(game.id)).status == "finished"
    await store2.close()


async def test_resign_ranks_last(store):
    service, clock, game, _ = await _two(store, "none")
    game = await service.resign(game.id, BOB)
    assert game.status == "finished" and game.result["places"] == [1, 2]
    with pytest.raises(GameError, match="over"):
        await service.resign(game.id, ANN)


# -- simultaneous decisions, on a tiny game where both seats answer at once ---------------------------------

class Both(BaseEngine):
    """Seat 0 leads; then both seats answer at once ("react" or "pass"); three rounds."""

    key, title, min_players, max_players = "test-both", "Both", 2, 3

    def new_game(self, num_players, seed, options=None):
        return {"n": num_players, "phase": "lead", "open": [], "round": 0, "reacts": [0] * num_players}

    def to_act(self, state):
        if state["round"] >= 3:
            return []
        return [0] if state["phase"] == "lead" else list(state["open"])

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "lead"}] if state["phase"] == "lead" else [{"type": "react"}, {"type": "pass"}]

    def _apply(self, state, seat, action):
        if action["type"] == "lead":
            state["phase"], state["open"] = "answer", list(range(state["n"]))
        else:
            state["reacts"][seat] += action["type"] == "react"
            state["open"].remove(seat)
            if not state["open"]:
                state["phase"], state["round"] = "lead", state["round"] + 1
        return [{"type": action["type"], "seat": seat}]

    def view(self, state, seat):
        return {"seat": seat, "phase": state["phase"]}

    def result(self, state):
        if state["round"] < 3:
            return None
        r = state["reacts"]
        return {"places": [1 + sum(x > r[s] for x in r) for s in range(len(r))], "scores": r}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)

    def secrets(self, state, seat):
        return set()


class BothPresenter(Presenter):
    game = "test-both"


@pytest.fixture
def both_game(monkeypatch):
    monkeypatch.setitem(ENGINES, "test-both", Both())
    monkeypatch.setitem(presenter_registry.PRESENTERS, "test-both", BothPresenter())


async def test_a_simultaneous_window_defaults_to_pass_after_its_short_limit(store, both_game):
    service, clock, game, _ = await _two(store, "1d", "forfeit", engine="test-both")
    await service.act(game.id, ANN, game.version, 0)  # lead: both answer at once
    game, acting = await _to_act(service, game.id)
    assert acting == [0, 1]
    c = await service._seat_clocks(game.id)
    assert c[0].simultaneous and c[0].deadline - clocks.seconds(clock.now) == 4 * HOUR
    await service.act(game.id, BOB, game.version, 0)  # Bob reacts; Ann lets the window run out
    await service.expire_clocks(clock.advance(hours=4, seconds=1))
    game, acting = await _to_act(service, game.id)
    assert game.status == "running" and acting == [0]  # no forfeit: only the default was played for her
    last = (await store.actions(game.id))[-1]
    assert last["seat"] == 0 and last["action"] == {"type": "pass"}
    assert any("default choice" in line for e in await store.outbox(game.id) for line in e.lines)


async def test_a_forfeit_in_a_game_of_three_lets_the_ai_finish_the_seat_ranked_last(store, both_game):
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    game, _ = await service.create("test-both", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   time_control="1h", on_timeout="forfeit")
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CY, "Cy")  # the table is full: it starts
    game = await service.resign(game.id, ANN)
    assert game.status == "running"
    game, acting = await _to_act(service, game.id)
    assert 0 not in acting
    for _ in range(20):
        game, acting = await _to_act(service, game.id)
        if game.status != "running":
            break
        seat = acting[0]
        await service.act(game.id, game.seat_row(seat).user_id, game.version, 0)  # always react
    game = await service.game(game.id)
    places, left = _out(game)
    assert game.status == "finished" and places[0] == 3 and left == [0]
    assert Ending.from_json(game.result).left[0].how is How.RESIGNED


# -- leagues -----------------------------------------------------------------------------------------------

async def test_a_league_finishes_although_one_player_never_moves(store):
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    events = TournamentService(service)
    league = await events.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    await events.join(league.id, BOB, "Bob")
    await events.join(league.id, CY, "Cy")
    outcomes = (await events.start(league.id, ANN)).started
    assert all(o.game.options["clock"] == clocks.LEAGUE_CLOCK for o in outcomes)
    # Ann and Bob play their moves as they come; Cy never moves
    for _ in range(400):
        moved = False
        for o in outcomes:
            game = await service.game(o.game.id)
            if game.status != "running":
                continue
            for seat in ENGINES[game.engine].to_act(await service.state_of(game)):
                user = game.seat_row(seat).user_id
                if user != CY:
                    await service.act(game.id, user, game.version, 0)
                    moved = True
                    break
        if not moved:
            await service.expire_clocks(clock.advance(days=1, seconds=1))
        _, rows, over, total = await events.tournament_table(league.id)
        if over == total:
            break
    league, rows, over, total = await events.tournament_table(league.id)
    assert league.status == "finished" and over == total == 3
    assert rows[-1][1] == "Cy" and rows[-1][0].points == 0


async def test_when_the_others_give_up_the_last_to_hold_out_wins_and_the_first_to_leave_is_last(store, both_game):
    """BGA ends a table when one player is left: nobody plays on against the AI for a first place already
    theirs. The order of going out ranks the others (the first out is last)."""
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    game, _ = await service.create("test-both", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   time_control="1h", on_timeout="forfeit")
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CY, "Cy")
    await service.resign(game.id, BOB)
    clock.advance(minutes=1)
    game = await service.resign(game.id, ANN)
    assert game.status == "finished"
    assert _out(game) == ([2, 3, 1], [1, 0]) and Ending.from_json(game.result).how is How.RESIGNED
    lines = [line for e in await store.outbox(game.id) for line in e.lines]
    assert "Nobody is left to play against: the table ends, Cy first." in lines
    with pytest.raises(GameError, match="over"):
        await service.resign(game.id, CY)


# -- issue 21: turns of several steps, coming back, stand-ins that wait, the absent ranked last ------------

def test_a_turn_of_several_steps_is_one_move_with_one_bonus():
    control = TIME_CONTROLS["bank"]
    got = reconcile(control, {}, [0, 1], [0], {0, 1}, 0)
    got = reconcile(control, got, [0, 1], [0], {0, 1}, DAY, moved=0)  # a first step: the turn goes on
    assert got[0].running and got[0].started == 0 and got[0].bank == 3 * DAY
    got = reconcile(control, got, [0, 1], [0], {0, 1}, 2 * DAY, moved=0)
    got = reconcile(control, got, [0, 1], [1], {0, 1}, 2 * DAY + 60, moved=0)  # the turn ends: one bonus
    assert not got[0].running and got[0].bank == DAY - 60 + 12 * HOUR
    # a per-move limit is for the whole turn too
    move = TIME_CONTROLS["1h"]
    got = reconcile(move, {}, [0, 1], [0], {0, 1}, 0)
    got = reconcile(move, got, [0, 1], [0], {0, 1}, 1800, moved=0)
    assert got[0].deadline == HOUR


def test_an_answer_to_a_simultaneous_decision_ends_its_short_clock():
    control = TIME_CONTROLS["1d"]
    got = reconcile(control, {}, [0, 1], [0, 1], {0, 1}, 0)
    got = reconcile(control, got, [0, 1], [0], {0, 1}, 60, moved=0)  # seat 0 answered; its own turn follows
    assert not got[0].simultaneous and got[0].deadline == 60 + DAY


def test_a_comeback_bank_a_claim_and_the_order_of_going_out():
    bank, move = TIME_CONTROLS["bank"], TIME_CONTROLS["12h"]
    assert clocks.comeback_bank(bank, 0) == 12 * HOUR and clocks.comeback_bank(bank, DAY) == DAY
    assert clocks.comeback_bank(move, None) is None
    assert clocks.claim_after(bank) == 12 * HOUR and clocks.claim_after(move) == 12 * HOUR
    assert clocks.claim_after(TIME_CONTROLS["1h"]) == HOUR
    out = {0: SeatClock(0, stand_in=True, out_since=50), 1: SeatClock(1), 2: SeatClock(2, stand_in=True,
                                                                                      forfeited=True, out_since=10)}
    assert clocks.out_order(out) == [2, 0]
    assert clocks.forfeit_places([1, 2, 3, 4], [2, 0]) == [3, 1, 4, 2], "the first out is last"
    with pytest.raises(clocks.BadClockOption) as bad:
        clocks.clock_options("1d", "later", "open")
    assert bad.value.option == "on_timeout" and bad.value.choices == ("ai", "forfeit")


class SeatZeroWins(BaseEngine):
    """Two or three seats take turns of two steps, four rounds; seat 0 always wins (whoever plays it)."""

    key, title, min_players, max_players = "test-zero", "Zero", 2, 3

    def new_game(self, num_players, seed, options=None):
        return {"n": num_players, "turn": 0, "step": 0}

    def to_act(self, state):
        return [] if state["turn"] >= 4 * state["n"] else [state["turn"] % state["n"]]

    def legal_actions(self, state, seat):
        return [{"type": "step"}] if seat in self.to_act(state) else []

    def _apply(self, state, seat, action):
        state["step"] += 1
        if state["step"] == 2:
            state["turn"], state["step"] = state["turn"] + 1, 0
        return [{"type": "step", "seat": seat}]

    def view(self, state, seat):
        return {"seat": seat, "turn": state["turn"]}

    def result(self, state):
        if state["turn"] < 4 * state["n"]:
            return None
        return {"places": list(range(1, state["n"] + 1)), "scores": [0] * state["n"]}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)

    def secrets(self, state, seat):
        return set()


class ZeroPresenter(Presenter):
    game = "test-zero"

    def engine_options(self, raw):
        return raw.get("players"), {}


@pytest.fixture
def zero_game(monkeypatch):
    monkeypatch.setitem(ENGINES, "test-zero", SeatZeroWins())
    monkeypatch.setitem(presenter_registry.PRESENTERS, "test-zero", ZeroPresenter())


async def _play_out(service, game_id, skip=()):
    for _ in range(100):
        game, acting = await _to_act(service, game_id)
        if game.status != "running":
            return game
        (seat,) = acting
        assert seat not in skip, "the AI plays the absent seat"
        await service.act(game_id, game.seat_row(seat).user_id, game.version, 0)
    raise AssertionError("the game did not end")


async def test_the_absent_player_never_gets_a_rated_win_for_what_the_ai_did(store, zero_game):
    """Ann (seat 0, the seat that always wins) runs out of time on her first move and never comes back: the
    AI plays her seat to the end and "wins", but the win is Bob's, in the result and the ratings."""
    service, clock, game, _ = await _two(store, "1h", "ai", engine="test-zero")
    await service.expire_clocks(clock.advance(minutes=61))
    game = await _play_out(service, game.id, skip={0})
    assert game.status == "finished"
    assert _out(game) == ([2, 1], [0]), "the AI's win counts as the absent player's loss"
    assert Ending.from_json(game.result).left[0].how is How.TIMEOUT
    ratings = await TournamentService(service).leaderboard("test-zero", 1)
    assert [name for _, name in ratings] == ["Bob", "Ann"]


async def test_a_player_back_before_the_end_keeps_their_result(store, zero_game):
    service, clock, game, _ = await _two(store, "1h", "ai", engine="test-zero")
    await service.expire_clocks(clock.advance(minutes=61))
    game, acting = await _to_act(service, game.id)
    with pytest.raises(GameError, match="Welcome back"):
        await service.act(game.id, ANN, game.version, 0)
    game = await _play_out(service, game.id)
    assert _out(game) == ([1, 2], [])


async def test_resigning_against_the_ai_at_a_table_of_three_ends_the_game(store, zero_game):
    """Nobody is left to play for: the AI does not play the whole game out on its own."""
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    game, _ = await service.create("test-zero", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai", options={"players": 3}, time_control="1h")
    game = await service.game(game.id)
    assert game.num_players == 3 and game.status == "running"
    version = game.version
    game = await service.resign(game.id, ANN)
    assert game.status == "finished" and game.version == version
    assert _out(game) == ([3, 1, 1], [0])


async def test_time_cannot_be_given_in_a_tournament_match_nor_claimed_without_a_clock(store):
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    events = TournamentService(service)
    league = await events.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    await events.join(league.id, BOB, "Bob")
    (outcome,) = (await events.start(league.id, ANN)).started
    with pytest.raises(GameError, match="tournament match"):
        await service.give_time(outcome.game.id, ANN, 2)
    _, _, game, _ = await _two(store, "none")
    with pytest.raises(GameError, match="has no clock"):
        await service.claim(game.id, ANN)
    with pytest.raises(GameError, match="has no clock"):
        await service.give_time(game.id, ANN, 2)


async def test_an_outage_is_told_in_the_thread_only_when_it_moved_deadlines_by_half_an_hour_or_more(store):
    service, clock, game, _ = await _two(store, "12h")
    await service.heartbeat()
    entries = len(await store.outbox(game.id))
    assert await service.heartbeat(clock.advance(minutes=10)) == 600  # given back, not worth a post
    assert len(await store.outbox(game.id)) == entries
    assert await service.heartbeat(clock.advance(hours=2)) == 7200
    (note,) = (await store.outbox(game.id))[entries:]
    assert note.lines == ["🔧 The bot was offline for 2 h: every clock got that time back."]
    assert (await service._seat_clocks(game.id))[0].deadline == int((T0 + timedelta(hours=12, minutes=10 + 120)
                                                                     ).timestamp())
