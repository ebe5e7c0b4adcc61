"""Replays rebuilt from the action log: every game, old rules versions, hidden cards, fences, refusals."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

import ai
from engines import ENGINES, GAME_ORDER
from engines.rng import Rng
from host import replays
from host.service import Asker, GameError, GameService
from render import RENDERERS
from store import SqliteStore, Store

GUILD = 77


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) | _strings(k) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


async def play_into_store(store: Store, key: str, *, seed: int, rules_version: int, num: int = 2,
                          guild_id: int = GUILD, user_id: int | None = None, host_user_id: int = 0) -> int:
    """A game played by random moves and saved as the service saves games, stamped ``rules_version``
    (``user_id``: the person in seat 0, else every seat is an AI)."""
    engine = ENGINES[key]
    game_id = await store.create_game(engine=key, options={"engine": {}, "players": num, "lang": "en"}, seed=seed,
                                      num_players=num, guild_id=guild_id, channel_id=None,
                                      host_user_id=host_user_id)
    for seat in range(num):
        if seat == 0 and user_id is not None:
            await store.set_seat(game_id, 0, user_id=user_id, name="Ann")
        else:
            await store.set_seat(game_id, seat, ai_level="normal", name=f"AI {seat}")
    record = replays.Record(key, seed, num, {}, rules_version, [], [], "en")
    state = replays.start_state(record)
    await store.start_game(game_id, num_players=num, snapshot=engine.to_json(state), rules_version=rules_version)
    rng, version = Rng(seed), 0
    while engine.result(state) is None:
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        events = engine.apply(state, seat, action)
        version = await store.commit_action(game_id, expected_version=version, seat=seat, user_id=None,
                                            action=action, events=events, snapshot=engine.to_json(state),
                                            result=engine.result(state))
    return game_id


def _hidden_ids_per_step(record: replays.Record) -> list[set[str]]:
    """At every step: the ids no public view may carry (nobody's, and every seat's own)."""
    engine = ENGINES[record.engine]
    state = replays.start_state(record)
    out = []
    for entry in [None, *record.actions]:
        if entry is not None:
            engine.apply(state, entry["seat"], entry["action"])
        hidden = set(engine.secrets(state, None))
        for seat in range(record.num_players):
            hidden |= engine.secrets(state, seat)
        out.append(hidden)
    return out


@pytest.mark.parametrize("key", GAME_ORDER)
async def test_a_public_replay_shows_every_step_ends_on_the_stored_board_and_hides_every_card(store, key):
    service = GameService(store, seed_source=lambda: 5, render=False)
    outcome = await service.ai_match(key, guild_id=GUILD)
    game = outcome.game
    assert game.status == "finished"
    row, record, frames = await replays.load(service, game.id, Asker(1, GUILD))
    engine = ENGINES[key]
    assert len(frames) == game.version + 1 == len(record.actions) + 1
    assert [f.step for f in frames] == list(range(game.version + 1))
    _, snapshot = await store.snapshot(game.id)
    stored_public = engine.view(engine.from_json(snapshot), None)
    assert json.dumps(frames[-1].view, sort_keys=True) == json.dumps(stored_public, sort_keys=True)
    # the narration under each frame is what the log's events tell
    presenter = service.names(row)
    assert frames[0].lines  # the opening
    assert sum(len(f.lines) for f in frames[1:]) > 0
    assert presenter == record.names
    for frame, hidden in zip(frames, _hidden_ids_per_step(record)):
        leaked = _strings(frame.view) & hidden
        assert not leaked, f"step {frame.step} shows {sorted(leaked)[:3]}"


@pytest.mark.parametrize("key", ["hector-achilles", "hextri", "troja", "kivalasztottak"])
async def test_a_game_saved_under_rules_version_1_replays_with_version_1(store, key):
    engine = ENGINES[key]
    assert engine.rules_version > 1
    game_id = await play_into_store(store, key, seed=11, rules_version=1)
    service = GameService(store, render=False)
    game, record, frames = await replays.load(service, game_id, Asker(1, GUILD))
    assert record.rules_version == 1
    _, snapshot = await store.snapshot(game_id)
    assert frames[-1].view == engine.view(engine.from_json(snapshot), None)
    state = replays.final_state(record)
    assert engine.result(state) == game.result
    # the replayed game kept version 1's rules: Troja by its retired card set, the others by their stamp
    data = engine.to_json(state)
    assert data.get("card_set") == 1 if key == "troja" else data["rules_version"] == 1


async def test_a_version_the_engine_no_longer_knows_is_refused_with_the_reason(store):
    game_id = await play_into_store(store, "ave-caesar", seed=3, rules_version=1)
    await store._db.execute("UPDATE games SET rules_version = 0 WHERE id = ?", (game_id,))
    service = GameService(store, render=False)
    with pytest.raises(GameError) as err:
        await replays.load(service, game_id, Asker(1, GUILD))
    assert err.value.key == "replay_old_rules"
    assert "0" in err.value.text("hu") and "rules version" in err.value.text("en")


async def test_a_log_that_does_not_replay_is_refused_not_shown(store):
    game_id = await play_into_store(store, "troja", seed=4, rules_version=2)
    service = GameService(store, render=False)
    game, record = await replays.record_of(service, game_id, None)
    record.seed += 1  # another deal: the logged moves no longer fit
    with pytest.raises(GameError) as err:
        replays.frames(record)
    assert err.value.key == "replay_diverged"


async def test_replays_are_fenced_finished_only_and_private_replays_are_the_players_own(store):
    game_id = await play_into_store(store, "troja", seed=8, rules_version=2, user_id=1)
    service = GameService(store, render=False)
    with pytest.raises(GameError) as err:
        await replays.load(service, game_id, Asker(1, GUILD + 1))  # another server
    assert err.value.key == "no_game"
    with pytest.raises(GameError) as err:
        await replays.load(service, game_id, Asker(2, GUILD), seat=0)  # not their seat
    assert err.value.key == "replay_not_your_seat"
    await store.set_seat(game_id, 1, user_id=3, name="Cy")
    with pytest.raises(GameError) as err:
        await replays.load(service, game_id, Asker(3, GUILD), seat=0)  # a player, but of the other seat
    assert err.value.key == "replay_other_seat" and "another player's view" in err.value.text("en")
    _, record, mine = await replays.load(service, game_id, Asker(1, GUILD), seat=0, upto=5)
    assert len(mine) == 6 and mine[-1].view == replays.frames(record, 0, upto=5)[-1].view
    hand = set(mine[-1].view["hand"])  # Troja's own view carries the seat's hand
    public = replays.frames(record, None, upto=5)[-1].view
    assert hand and not hand & _strings(public)
    lobby = await store.create_game(engine="troja", options={"engine": {}}, seed=1, num_players=2,
                                    guild_id=GUILD, channel_id=None, host_user_id=1)
    with pytest.raises(GameError) as err:
        await replays.load(service, lobby, Asker(1, GUILD))
    assert err.value.key == "replay_not_finished"


def test_sampling_keeps_the_first_and_last_step_and_the_limit():
    assert replays.sample(5, 10) == [0, 1, 2, 3, 4]
    picked = replays.sample(1000, 120)
    assert picked[0] == 0 and picked[-1] == 999 and len(picked) <= 120 and picked == sorted(set(picked))


async def test_chapters_are_the_steps_that_open_a_battle(store):
    service = GameService(store, seed_source=lambda: 2, render=False)
    outcome = await service.ai_match("hector-achilles", guild_id=GUILD)
    _, record = await replays.record_of(service, outcome.game.id, None)
    steps = replays.chapters(record)
    assert steps and all(any(e["type"] == "battle_started" for e in record.actions[s - 1]["events"]) for s in steps)


def _spy_pictures(monkeypatch, key: str) -> dict[str, list[tuple[dict, bool]]]:
    """Record the views the game's renderer is asked to draw, public and private (and whether it drew one)."""
    renderer = RENDERERS[key]
    seen: dict[str, list[tuple[dict, bool]]] = {"public": [], "private": []}
    for kind in seen:
        real = getattr(renderer, f"render_{kind}")

        def spy(view, *args, _real=real, _kind=kind, **kwargs):
            png = _real(view, *args, **kwargs)
            seen[_kind].append(({k: v for k, v in view.items() if k not in ("player_names", "lang")},
                                png is not None))
            return png
        monkeypatch.setattr(renderer, f"render_{kind}", spy)
    return seen


@pytest.mark.parametrize("key", ["troja", "hector-achilles", "ave-caesar", "kivalasztottak"])
async def test_a_public_replay_draws_no_hidden_card_and_the_hosts_reveal_adds_each_last_hand(store, monkeypatch,
                                                                                           key):
    game_id = await play_into_store(store, key, seed=2, rules_version=ENGINES[key].rules_version, user_id=1,
                                    host_user_id=1)
    service = GameService(store, render=False)
    game, record = await replays.record_of(service, game_id, Asker(2, GUILD))
    public_views = [json.dumps(f.view, sort_keys=True) for f in replays.frames(record)]
    hidden = _hidden_ids_per_step(record)
    seen = _spy_pictures(monkeypatch, key)
    plain = replays.animate(record)
    assert not seen["private"]  # nobody's own picture is drawn for a public replay
    assert len(seen["public"]) >= plain.shown  # more when a first try passed 3 MB and fewer pictures were drawn
    for view, _ in seen["public"]:
        step = public_views.index(json.dumps(view, sort_keys=True))  # every picture is of a public view
        assert not _strings(view) & hidden[step], f"step {step} draws a hidden card"
    assert plain.revealed == 0 and Image.open(io.BytesIO(plain.data)).n_frames == plain.shown

    seen["public"].clear()
    shown = replays.animate(record, reveal=True)
    assert shown.revealed == record.num_players
    gif = Image.open(io.BytesIO(shown.data))
    assert gif.n_frames == shown.shown + record.num_players and len(shown.data) <= replays.MAX_BYTES
    # each seat's own view of the last step at which its private picture shows something (the end, or for a
    # game that puts the hands away as it ends, the last hand held), and of no other seat
    revealed = [(seat, step) for seat, step, _ in replays.hands(record)]
    assert [seat for seat, _ in revealed] == list(range(record.num_players))
    for seat, step in revealed:
        assert len(record.actions) - replays.REVEAL_LOOKBACK <= step <= len(record.actions)
        own = replays.held(replays.frames(record, seat, upto=step, only={step})[0].view)
        assert own["seat"] == seat and (own, True) in seen["private"]
        later = [replays.held(replays.frames(record, seat, only={s})[0].view)
                 for s in range(step + 1, len(record.actions) + 1)]
        assert all((view, False) in seen["private"] for view in later)  # nothing to show after it


async def test_only_the_host_may_reveal_the_hands_and_only_of_a_finished_game(store):
    game_id = await play_into_store(store, "troja", seed=8, rules_version=2, user_id=1, host_user_id=1)
    service = GameService(store, render=False)
    game, _ = await replays.record_of(service, game_id, Asker(1, GUILD))
    replays.may_reveal(game, Asker(1, GUILD))  # the host may
    with pytest.raises(GameError) as err:
        replays.may_reveal(game, Asker(2, GUILD))  # anyone else is told who may
    assert err.value.key == "replay_hands_host_only" and "host" in err.value.text("en")
    lobby = await store.create_game(engine="troja", options={"engine": {}}, seed=1, num_players=2,
                                    guild_id=GUILD, channel_id=None, host_user_id=1)
    with pytest.raises(GameError) as err:
        replays.may_reveal(await store.get_game(lobby), Asker(1, GUILD))
    assert err.value.key == "replay_not_finished"


async def test_a_game_without_hidden_cards_has_no_hands_to_reveal(store):
    game_id = await play_into_store(store, "hextri", seed=1, rules_version=ENGINES["hextri"].rules_version)
    service = GameService(store, render=False)
    _, record = await replays.record_of(service, game_id, None)
    assert replays.hands(record) == []
    assert replays.animate(record, reveal=True).revealed == 0
