"""The game service without Discord: lobby rules, the action pipeline, AI turns, auto-pass, restarts."""

from __future__ import annotations

import pytest

from engines import ENGINES
from engines.base import BaseEngine
from host import presenters as presenter_registry
from host.presenters import Presenter
from host.service import GameError, GameService, StaleBoard
from store import SqliteStore

ANN, BOB = 1, 2


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


async def test_lobby_start_and_refusals(store):
    service = GameService(store, seed_source=lambda: 5, render=False)
    game, outcome = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1)
    assert game.status == "lobby" and outcome is None
    with pytest.raises(GameError, match="needs at least 2 players"):
        await service.start(game.id, ANN)
    with pytest.raises(GameError, match="not started"):
        await service.act(game.id, ANN, 0, 0)
    game, outcome = await service.join(game.id, BOB, "Bob")
    assert game.status == "running" and outcome is not None
    assert outcome.board.mentions == [ANN]  # the Achaeans (seat 0) take the first vanguard
    with pytest.raises(GameError, match="already started"):
        await service.join(game.id, 3, "Carol")
    with pytest.raises(GameError, match="not your turn"):
        await service.act(game.id, BOB, game.version, 0)
    with pytest.raises(GameError, match="not playing"):
        await service.act(game.id, 3, game.version, 0)
    with pytest.raises(GameError, match="no longer exists"):
        await service.act(game.id, ANN, game.version, 99)


async def test_unknown_options_are_refused_before_anyone_joins(store):
    service = GameService(store, render=False)
    with pytest.raises(GameError, match="no options"):
        await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                             options={"speed": 3})
    assert await store.list_games(guild_id=1) == []


async def test_actions_are_versioned_and_logged(store):
    service = GameService(store, seed_source=lambda: 9, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    game, _ = await service.join(game.id, BOB, "Bob")
    outcome = await service.act(game.id, ANN, 0, 0)
    assert outcome.game.version >= 1 and outcome.done_label.startswith("Vanguard from")
    assert any("takes a vanguard" in line for line in outcome.lines)
    with pytest.raises(StaleBoard):
        await service.act(game.id, ANN, 0, 0)
    log = await store.actions(game.id)
    assert [a["seq"] for a in log] == list(range(1, outcome.game.version + 1))
    assert log[0]["action"]["type"] == "take_vanguard" and log[0]["user_id"] == ANN


async def test_ai_seats_move_by_themselves_and_a_new_service_resumes(store):
    service = GameService(store, seed_source=lambda: 3, render=False)
    game, outcome = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1, opponent="ai")
    assert game.status == "running" and game.seats[1].is_ai
    engine = ENGINES["hector-achilles"]
    # Ann plays the first legal action whenever asked; the AI answers inside the same call
    fresh = service
    for step in range(400):
        game = await fresh.game(game.id)
        if game.status != "running":
            break
        if step == 20:  # a restart: a new service on the same store continues from the snapshot
            fresh = GameService(store, render=False)
        state = await fresh._state(game)
        assert engine.to_act(state) == [0], "only the person is ever waited for"
        await fresh.act(game.id, ANN, game.version, 0)
    assert (await fresh.game(game.id)).status == "finished"


async def test_ai_match_and_observers(store):
    service = GameService(store, seed_source=lambda: 1, render=False)
    seen = []
    service.observers.append(lambda game, state, events: seen.append(game.version))
    outcome = await service.ai_match("hector-achilles")
    assert outcome.game.status == "finished" and outcome.game.result["places"] in ([1, 2], [2, 1], [1, 1])
    assert seen == list(range(1, outcome.game.version + 1))


async def test_leaving_hands_the_seat_to_the_ai(store):
    service = GameService(store, seed_source=lambda: 2, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    await service.join(game.id, BOB, "Bob")
    game, outcome = await service.leave(game.id, ANN)
    assert game.seats[0].is_ai and any("AI takes over" in line for line in outcome.lines)
    assert ANN not in outcome.board.mentions


# -- auto-pass, on a tiny reaction-window game ------------------------------------------------------------

class Window(BaseEngine):
    """Seat 0 plays or passes; then seat 1 may only pass (a reaction window with nothing to play)."""

    key, title, min_players, max_players = "test-window", "Window", 2, 2

    def new_game(self, num_players, seed, options=None):
        return {"rules_version": 1, "turn": 0, "plays": 0, "over": False}

    def to_act(self, state):
        return [] if state["over"] else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "play"}, {"type": "pass"}] if seat == 0 else [{"type": "pass"}]

    def _apply(self, state, seat, action):
        if action["type"] == "play":
            state["plays"] += 1
        state["turn"] = 1 - state["turn"]
        state["over"] = state["plays"] >= 2
        return [{"type": action["type"], "seat": seat}]

    def view(self, state, seat):
        return {"seat": seat, "turn": state["turn"]}

    def result(self, state):
        return {"places": [1, 2], "scores": [state["plays"], 0], "reason": "done"} if state["over"] else None

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)

    def secrets(self, state, seat):
        return set()


class WindowPresenter(Presenter):
    game = "test-window"
    supports_auto_pass = True


@pytest.fixture
def window_game(monkeypatch):
    monkeypatch.setitem(ENGINES, "test-window", Window())
    monkeypatch.setitem(presenter_registry.PRESENTERS, "test-window", WindowPresenter())


async def _window(store):
    service = GameService(store, seed_source=lambda: 1, render=False)
    game, _ = await service.create("test-window", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    game, _ = await service.join(game.id, BOB, "Bob")
    return service, game


async def test_auto_pass_answers_a_window_with_nothing_to_play(store, window_game):
    service, game = await _window(store)
    outcome = await service.act(game.id, ANN, game.version, 0)  # Ann plays
    # Bob could only pass: his setting (on by default) passed for him, so Ann is asked again
    assert outcome.game.version == 2 and outcome.board.mentions == [ANN]
    log = await store.actions(game.id)
    assert log[-1]["seat"] == 1 and log[-1]["action"] == {"type": "pass"} and log[-1]["user_id"] == BOB


async def test_auto_pass_off_asks_the_player(store, window_game):
    service, game = await _window(store)
    await service.settings(BOB, auto_pass=False)
    outcome = await service.act(game.id, ANN, game.version, 0)
    assert outcome.game.version == 1 and outcome.board.mentions == [BOB]


async def test_opening_lines_extra_pictures_and_ai_names(store, window_game, monkeypatch):
    import types

    from render import RENDERERS

    def extras(view, events):
        return [b"\x89PNG-extra"] if any(e["type"] == "play" for e in events) else []

    monkeypatch.setitem(RENDERERS, "test-window", types.SimpleNamespace(
        render_public=lambda view: b"\x89PNG-board", render_private=lambda view: None, render_extras=extras))
    monkeypatch.setattr(WindowPresenter, "opening_lines", lambda self, view, names: [f"{names[0]} opens."],
                        raising=False)
    service = GameService(store, seed_source=lambda: 1)
    game, outcome = await service.create("test-window", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1, opponent="ai")
    assert "Ann opens." in outcome.board.text and outcome.board.extras == []
    assert [s.name for s in game.seats] == ["Ann", "AI"]
    outcome = await service.act(game.id, ANN, outcome.game.version, 0)  # Ann plays: an extra picture
    assert outcome.board.image == b"\x89PNG-board" and outcome.board.extras == [b"\x89PNG-extra"]


async def test_extra_pictures_only_drawn_when_the_renderer_wants_them(store, window_game, monkeypatch):
    """A renderer's ``wants_extras(events)`` is asked first: a move without an extra picture sends nothing to a
    render worker for it (issue 29), a move with one still gets it."""
    import types

    from render import RENDERERS

    drawn: list[list[str]] = []

    def extras(view, events):
        drawn.append([e["type"] for e in events])
        return [b"\x89PNG-extra"] if any(e["type"] == "play" for e in events) else []

    wanted = {"play": False}
    monkeypatch.setitem(RENDERERS, "test-window", types.SimpleNamespace(
        render_public=lambda view: b"\x89PNG-board", render_private=lambda view: None, render_extras=extras,
        wants_extras=lambda events: wanted["play"] and any(e["type"] == "play" for e in events)))
    service = GameService(store, seed_source=lambda: 1)
    game, outcome = await service.create("test-window", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1, opponent="ai")
    outcome = await service.act(game.id, ANN, outcome.game.version, 0)  # a play the renderer does not want
    assert outcome.board.extras == [] and drawn == []
    wanted["play"] = True
    outcome = await service.act(game.id, ANN, outcome.game.version, 0)
    assert outcome.board.extras == [b"\x89PNG-extra"] and len(drawn) == 1 and "play" in drawn[0]


async def test_several_ai_seats_are_told_apart(store):
    service = GameService(store, seed_source=lambda: 1, render=False)
    game, _ = await service.create("ave-caesar", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   options={"players": 3}, opponent="ai")
    assert [s.name for s in game.seats] == ["Ann", "AI 2", "AI 3"]


def test_long_narration_keeps_the_first_and_newest_lines():
    from cogs.publish import clip_content

    text = "\n".join(["Game #1 begins!", *[f"move {i}: " + "x" * 40 for i in range(200)], "@Ann, your turn."])
    clipped = clip_content(text)
    assert len(clipped) <= 2000
    lines = clipped.split("\n")
    assert lines[0] == "Game #1 begins!" and lines[-1] == "@Ann, your turn."
    assert lines[1].startswith("… (") and "more lines" in lines[1]


class Both(Window):
    """Both seats decide at once: play (reopens the window for everybody) or pass; two passes end a round."""

    key = "test-both"

    def new_game(self, num_players, seed, options=None):
        return {"rules_version": 1, "passed": [], "plays": 0, "rounds": 0}

    def to_act(self, state):
        return [] if state["rounds"] >= 2 else [s for s in (0, 1) if s not in state["passed"]]

    def legal_actions(self, state, seat):
        return [{"type": "play"}, {"type": "pass"}] if seat in self.to_act(state) else []

    def _apply(self, state, seat, action):
        if action["type"] == "play":
            state["plays"] += 1
            state["passed"] = []
        else:
            state["passed"].append(seat)
            if len(state["passed"]) == 2:
                state["passed"], state["rounds"] = [], state["rounds"] + 1
        return [{"type": action["type"], "seat": seat}]

    def result(self, state):
        return {"places": [1, 1], "scores": [0, 0], "reason": "done"} if state["rounds"] >= 2 else None

    def view(self, state, seat):
        return {"seat": seat, "passed": list(state["passed"])}


async def test_a_click_survives_other_players_passes_but_not_their_plays(store, monkeypatch):
    monkeypatch.setitem(ENGINES, "test-both", Both())
    service = GameService(store, seed_source=lambda: 1, render=False)
    game, outcome = await service.create("test-both", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    game, outcome = await service.join(game.id, BOB, "Bob")
    ann_panel = next(n.panel for n in outcome.nudges if n.user_id == ANN)
    bob_panel = next(n.panel for n in outcome.nudges if n.user_id == BOB)
    # Bob passes: Ann's panel (an older version) still acts, her choices have not changed
    await service.act(game.id, BOB, bob_panel.version, 1, bob_panel.digest)
    outcome = await service.act(game.id, ANN, ann_panel.version, 0, ann_panel.digest)  # Ann plays
    assert outcome.game.version == 2
    # after a play, a panel from before it is refused (the situation changed), whatever its choices
    bob_old = next(n.panel for n in outcome.nudges if n.user_id == BOB)
    ann_now = next(n.panel for n in outcome.nudges if n.user_id == ANN)
    await service.act(game.id, ANN, ann_now.version, 0, ann_now.digest)  # Ann plays again
    with pytest.raises(StaleBoard):
        await service.act(game.id, BOB, bob_old.version, 1, bob_old.digest)
    with pytest.raises(StaleBoard):  # without a digest any older version is stale
        await service.act(game.id, BOB, ann_now.version, 1)


async def test_a_failing_ai_never_blocks_the_game(store, monkeypatch, caplog):
    import ai

    def broken(engine, state, seat, rng):
        raise RuntimeError("bug in the AI")

    monkeypatch.setitem(ai.AI_PLAYERS, "hector-achilles", broken)
    service = GameService(store, seed_source=lambda: 3, render=False)
    game, outcome = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1, opponent="ai")
    for _ in range(30):
        game = await service.game(game.id)
        if ENGINES["hector-achilles"].to_act(await service._state(game)) != [0]:
            break
        await service.act(game.id, ANN, game.version, 0)
    log = await store.actions(game.id)
    assert any(a["seat"] == 1 for a in log), "the AI seat still moved (randomly)"
    assert "AI of hector-achilles failed" in caplog.text


async def test_a_dm_is_not_sent_again_when_only_others_passed(store, monkeypatch):
    monkeypatch.setitem(ENGINES, "test-both", Both())
    service = GameService(store, seed_source=lambda: 1, render=False)
    game, _ = await service.create("test-both", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    game, outcome = await service.join(game.id, BOB, "Bob")
    assert {n.user_id for n in outcome.nudges} == {ANN, BOB}
    bob = next(n.panel for n in outcome.nudges if n.user_id == BOB)
    outcome = await service.act(game.id, BOB, bob.version, 1, bob.digest)  # Bob passes
    assert outcome.nudges == [], "Ann's DM still works: no second DM"
    assert outcome.board.mentions == [ANN], "the board still says whom it waits for"


async def test_pictures_drawn_in_worker_processes_are_the_same_pictures(tmp_path):
    """RENDER_PROCESSES: the bot draws in a process pool; the boards and hands must not change for it."""
    boards = {}
    for processes in (0, 2):
        store = await SqliteStore.open(tmp_path / f"p{processes}.db")
        service = GameService(store, seed_source=lambda: 11, render_processes=processes)
        try:
            await service.painter.warm_up()
            game, _ = await service.create("ave-caesar", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                           opponent="ai")
            outcome = await service.act(game.id, ANN, (await service.game(game.id)).version, 0)
            boards[processes] = (outcome.board.image, [n.image for n in outcome.nudges])
        finally:
            service.close()
            await store.close()
    assert boards[0][0][:8] == b"\x89PNG\r\n\x1a\n"
    assert boards[2] == boards[0]


# -- the fence between servers, refusals, races (issue 10) -------------------------------------------------


async def test_a_game_is_seen_only_on_its_server_and_by_its_players_in_dms(store):
    from host.service import Asker

    service = GameService(store, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   opponent="ai")
    assert (await service.game(game.id, Asker(BOB, 1))).id == game.id
    for asker in (Asker(BOB, 2), Asker(BOB, None), Asker(ANN, 2, moderator=True)):
        with pytest.raises(GameError, match=f"There is no game #{game.id}"):
            await service.game(game.id, asker)
        assert await service.visible_games(asker) == []
    assert (await service.game(game.id, Asker(ANN, None))).id == game.id  # her own game, in her DMs
    assert [g.id for g in await service.visible_games(Asker(ANN, None))] == [game.id]
    with pytest.raises(GameError, match="There is no game"):
        await service.abandon(game.id, BOB, asker=Asker(BOB, 2, moderator=True))
    for huge in (2**63, 10**30):
        with pytest.raises(GameError, match="There is no game"):
            await service.game(huge)


async def test_strings_may_have_fields_called_key_and_lang():
    from host.locale import t

    assert t("unknown_game", key="chess") == "Unknown game chess."
    assert GameError.of("unknown_game", key="chess").text("pl") == t("unknown_game", "pl", key="chess")


BOUNDED = sorted(k for k, p in presenter_registry.PRESENTERS.items() if any(s.kind == "int" for s in p.options))


@pytest.mark.parametrize("key", BOUNDED)
async def test_every_advertised_option_bound_holds_in_the_service(store, key):
    """Generic: each presenter's OptionSpec bounds, just outside, are refused (as a stale client sends them)."""
    assert len(BOUNDED) >= 4
    service = GameService(store, render=False)
    specs = [s for s in presenter_registry.PRESENTERS[key].options if s.kind == "int"]
    for spec in specs:
        for value in (spec.min_value - 1, spec.max_value + 1, 10**9):
            with pytest.raises(GameError, match=spec.name):
                await service.create(key, user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                     opponent="ai", options={spec.name: value})
    assert await store.list_games(guild_id=1) == []


async def test_rematch_once_and_join_then_start_under_one_lock(store):
    import asyncio

    service = GameService(store, render=False)
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    # Bob's seat fills the table while Ann presses Start: Bob is told the game started, Ann that it had
    joined, started = await asyncio.gather(service.join(game.id, BOB, "Bob"), service.start(game.id, ANN),
                                           return_exceptions=True)
    assert joined[1] is not None and joined[0].status == "running"
    assert isinstance(started, GameError) and started.key == "already_started"
    await store.set_status(game.id, "finished", {"places": [1, 2], "scores": [1, 0], "reason": "test"})
    first, second = await asyncio.gather(service.rematch(game.id, BOB, "Bob"), service.rematch(game.id, BOB, "Bob"),
                                         return_exceptions=True)
    assert not first.joined and first.game.seat_of(BOB) == 0
    assert isinstance(second, GameError) and second.key == "already_rematched"
    ann = await service.rematch(game.id, ANN, "Ann")
    assert ann.joined and ann.game.id == first.game.id and ann.game.status == "running"
    assert len(await store.list_games(guild_id=1, statuses=("lobby", "running", "finished"))) == 2
