"""Issue 25, item 3, at the service (on SQLite and PostgreSQL): a whole game against the AI with moves taken back
replays with the final choices only, while the log keeps every step; an undo does not give the player's time
back; an undo is refused after a move that revealed something."""

from __future__ import annotations

import pytest

from engines import ENGINES
from engines.rng import Rng
from host import replays
from host.errors import GameError
from host.service import GameService
from host.spectate import Spectator
from host.undo import UNDO, as_played, final_choices, last_standing, restepped, undoable
from store import connect
from tests.host.test_clock import Clock

ANN, BOB = 11, 22


def _user(game, seat: int) -> int:
    row = game.seat_row(seat)
    assert row is not None and row.user_id is not None
    return row.user_id


@pytest.fixture
async def store(database):
    s = await connect(database)
    yield s
    await s.close()


async def _play(service: GameService, game_id: int, key: str, rng: Rng, *, undo_every: int = 2,
                limit: int = 3000) -> int:
    """Ann plays at random against the AI, taking a move back whenever she may (about one in ``undo_every``),
    to the end; returns how many moves she took back."""
    undone = 0
    for _ in range(limit):
        game = await service.game(game_id)
        if game.status != "running":
            return undone
        if await service.undoer(game) == 0 and rng.below(undo_every) == 0:
            await service.undo(game_id, ANN, game.version)
            undone += 1
            continue
        legal = ENGINES[key].legal_actions(await service.state_of(game), 0)
        await service.act(game_id, ANN, game.version, rng.below(len(legal)))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("key", ["hextri", "hector-achilles"])
async def test_a_replay_shows_the_final_choices_and_the_log_every_step(store, key):
    service = GameService(store, seed_source=lambda: 77, render=False)
    try:
        game, _ = await service.create(key, user_id=ANN, user_name="Ann", guild_id=1, channel_id=2, opponent="ai")
        undone = await _play(service, game.id, key, Rng(7))
        game = await service.game(game.id)
        assert game.status == "finished" and undone >= 2
        log = await store.actions(game.id)
        undos = [e for e in log if e["action"]["type"] == UNDO]
        kept = final_choices(log)
        assert len(undos) == undone and len(kept) == len(log) - 2 * undone
        # the replay: the moves that stand, each step checked against the stored events
        _, record, frames = await replays.load(service, game.id, None)
        assert [a["action"] for a in record.actions] == [e["action"] for e in kept]
        assert len(frames) == len(kept) + 1
        assert not any("took back" in line for f in frames for line in f.lines)
        taken = {e["action"]["seq"] for e in undos}
        assert not taken & {e["seq"] for e in kept}
        # the web companion's replay too (host/spectate.py)
        web = await Spectator(service).replay(game)
        assert web.steps == len(kept) and not any("took back" in line for step in web.lines for line in step)
        # /game log: every step, the undos told by name with what was taken back
        page = await service.log(game.id, start=1, chars=10**6)
        told = [line for line in page.lines if "took back" in line]
        assert len(told) == undone and all("Ann" in line for line in told)
    finally:
        service.close()


async def test_an_undo_gives_no_time_back(store):
    """The clock of the player who takes a move back runs on: the deadline is the one of their turn."""
    clock = Clock()
    service = GameService(store, seed_source=lambda: 5, render=False, clock=clock)
    try:
        game, _ = await service.create("hextri", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                       time_control="1h")
        game, outcome = await service.join(game.id, BOB, "Bob")
        if outcome is None:
            await service.start(game.id, ANN)
        rng = Rng(1)
        for _ in range(200):
            game = await service.game(game.id)
            if await service.undoer(game) is not None:
                break
            state = await service.state_of(game)
            seat = ENGINES["hextri"].to_act(state)[0]
            user = _user(game, seat)
            clock.advance(minutes=1)
            legal = ENGINES["hextri"].legal_actions(state, seat)
            await service.act(game.id, user, game.version, rng.below(len(legal)))
        else:
            raise AssertionError("no move that can be taken back")
        clocks_before = await store.clocks(game.id)
        undoer = await service.undoer(game)
        assert undoer is not None
        clock.advance(minutes=5)
        await service.undo(game.id, _user(game, undoer), game.version)
        assert await store.clocks(game.id) == clocks_before, "the deadline stays: no time is given back"
    finally:
        service.close()


async def test_no_undo_after_a_move_that_revealed_something(store):
    """Hector and Achilles: swapping a card draws one (hidden until then) and keeps the turn - it is final; the
    refusal changes nothing."""
    service = GameService(store, seed_source=lambda: 9, render=False)
    try:
        game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=2,
                                       opponent="ai")
        engine, rng = ENGINES["hector-achilles"], Rng(6)
        for _ in range(400):
            game = await service.game(game.id)
            assert game.status == "running"
            state = await service.state_of(game)
            legal = engine.legal_actions(state, 0)
            swaps = [i for i, a in enumerate(legal) if a["type"] == "swap_card"]
            if swaps:
                await service.act(game.id, ANN, game.version, swaps[0])
                break
            await service.act(game.id, ANN, game.version, rng.below(len(legal)))
        else:
            raise AssertionError("no card swap was offered")
        game = await service.game(game.id)
        last = (await store.actions(game.id))[-1]
        assert last["action"]["type"] == "swap_card" and last["seat"] == 0 and not undoable(last)
        assert engine.to_act(await service.state_of(game)) == [0], "the turn is still Ann's"
        assert await service.undoer(game) is None
        version, snapshot = await store.snapshot(game.id)
        with pytest.raises(GameError, match="nothing you can take back"):
            await service.undo(game.id, ANN, game.version)
        assert await store.snapshot(game.id) == (version, snapshot)
    finally:
        service.close()


async def test_who_may_take_back_is_read_from_the_log_after_a_restart(store):
    """The Undo button's question (``undoer``) is answered from the saved log by a freshly started service:
    the move's mark is saved with it, and an undo entry is looked through to the move before it."""
    service = GameService(store, seed_source=lambda: 77, render=False)
    try:
        game, _ = await service.create("hextri", user_id=ANN, user_name="Ann", guild_id=1, channel_id=2,
                                       opponent="ai")
        rng, engine = Rng(2), ENGINES["hextri"]
        for _ in range(300):
            game = await service.game(game.id)
            state = await service.state_of(game)
            legal = engine.legal_actions(state, 0)
            # a move that can be taken back, after which another such move is open
            index = next((i for i, a in enumerate(legal) if engine.reversible(state, 0, a)), None)
            if await service.undoer(game) == 0 and index is not None:
                break
            await service.act(game.id, ANN, game.version, rng.below(len(legal)))
        else:
            raise AssertionError("no two moves in a turn that can be taken back")
        again = GameService(store, render=False)
        try:
            assert await again.undoer(await again.game(game.id)) == 0
            # a second reversible move of the same turn, then its undo: the first may be taken back next
            await again.act(game.id, ANN, (await again.game(game.id)).version, index)
            await again.undo(game.id, ANN, (await again.game(game.id)).version)
            third = GameService(store, render=False)
            try:
                assert await third.undoer(await third.game(game.id)) == 0
            finally:
                third.close()
            await again.undo(game.id, ANN, (await again.game(game.id)).version)
        finally:
            again.close()
    finally:
        service.close()


def test_the_moves_that_stand_and_the_steps_of_an_ending():
    """Pure: undos take back the entries they name (an undo of an undo's target only once), marks are dropped for
    replays, and an ending's steps (log versions) count the moves that stand, as a replay numbers its steps."""
    def move(seq: int, seat: int = 0, mark: bool = False) -> dict:
        return {"seq": seq, "seat": seat, "action": {"type": "move", "n": seq},
                "events": [{"type": "moved"}] + ([{"type": "undoable"}] if mark else [])}

    def undo(seq: int, target: int) -> dict:
        return {"seq": seq, "seat": 0, "action": {"type": UNDO, "seq": target}, "events": []}

    log = [move(1, 1), move(2, mark=True), move(3, mark=True), undo(4, 3), undo(5, 2), move(6, mark=True),
           move(7, 1)]
    assert [e["seq"] for e in final_choices(log)] == [1, 6, 7]
    assert as_played(log) == [{"seat": 1, "action": {"type": "move", "n": 1}, "events": [{"type": "moved"}]},
                               {"seat": 0, "action": {"type": "move", "n": 6}, "events": [{"type": "moved"}]},
                               {"seat": 1, "action": {"type": "move", "n": 7}, "events": [{"type": "moved"}]}]
    assert (last_standing(log[:5], set()) or {}).get("seq") == 1
    taken: set[int] = set()
    assert last_standing(log[3:5], taken) is None and taken == {2, 3}
    assert (last_standing(log[:3], taken) or {}).get("seq") == 1, "an older stretch goes on with what was taken back"
    result = {"places": [1, 2], "ending": {"how": "resigned", "step": 7, "left": [{"seat": 1, "how": "resigned",
                                                                                   "step": 6}]}}
    assert (restepped(result, log) or {}).get("ending") == {"how": "resigned", "step": 3,
                                                "left": [{"seat": 1, "how": "resigned", "step": 2}]}
    assert restepped(result, log[:3]) is result, "nothing taken back: the same result"
    assert restepped(None, log) is None


async def test_a_failing_reversibility_check_does_not_cost_the_move(store, monkeypatch, caplog):
    """Should the engine's check fail (a bug), the move is made all the same, only without an Undo."""
    service = GameService(store, seed_source=lambda: 77, render=False)
    try:
        game, _ = await service.create("hextri", user_id=ANN, user_name="Ann", guild_id=1, channel_id=2,
                                       opponent="ai")
        engine = ENGINES["hextri"]

        def broken(state, seat, action, **options):
            raise RuntimeError("a bug")

        monkeypatch.setattr(engine, "reversible", broken)
        game = await service.game(game.id)
        legal = engine.legal_actions(await service.state_of(game), 0)
        move = next(i for i, a in enumerate(legal) if a["type"] == "move")
        await service.act(game.id, ANN, game.version, move)
        mine = [e for e in await store.actions(game.id) if e["seat"] == 0]
        assert mine and not undoable(mine[0])
        assert "could not be worked out" in caplog.text and "a bug" in caplog.text  # the check's own failure
    finally:
        service.close()



@pytest.mark.parametrize("key", ["hector-achilles", "kivalasztottak", "troja"])  # (HEX-TRI checks a move alone)
def test_the_undo_check_tries_the_move_without_listing_the_moves_again(monkeypatch, key):
    """The service's undo check makes the move again on a copy of the position before it; given the seat's legal
    actions there (which the move was checked against), it does not list them again, answers as the engine
    does without them, and keeps nothing of the copy (issue 29)."""
    from host.service_moves import Moves

    engine, rng = ENGINES[key], Rng(4)
    state = engine.new_game(engine.min_players, 4, {})
    listed = []
    real = type(engine)._legal_actions
    monkeypatch.setattr(type(engine), "_legal_actions", lambda self, s, seat: listed.append(seat) or real(self, s, seat))
    game = type("Row", (), {"id": 1, "engine": key})()
    answers = {True: 0, False: 0}
    for _ in range(300):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        before, action = engine.json_text(state), legal[rng.below(len(legal))]
        if action["type"] in engine.take_back and engine.to_act(state) == [seat]:  # (as the service asks)
            listed.clear()
            kept = set(engine._known or {})
            known = Moves._reversible(game, before, seat, action, legal)
            # (nothing new is kept; one state another test left may have made room, as the engine keeps 32)
            assert listed == [] and set(engine._known or {}) <= kept, "the trial listed the moves again, or kept its copy"
            assert known == engine.reversible(engine.from_text(before), seat, action)
            answers[known] += 1
        engine.apply(state, seat, action)
        if engine.result(state) is not None:
            break
    assert answers[True] and answers[False], answers  # both answers were tried
