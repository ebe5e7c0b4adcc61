"""The engine conformance suite: every registered engine must pass it unchanged.

Random legal playouts for many seeds (they must end with a result), an exact JSON round trip after every
action (the playout continues from the restored copy), determinism, illegal and out-of-turn actions that
raise IllegalAction and leave the state untouched, views that never carry another seat's secrets, and the
variants of listed actions (``engine.variants``: the action first, each of them applied as it is).
"""

from __future__ import annotations

import json

import pytest

from engines import ENGINES, IllegalAction
from engines.rng import Rng

SEEDS = range(8)


def _cases():
    for key, engine in ENGINES.items():
        for num_players, options in engine.conformance_configs():
            for seed in SEEDS:
                yield pytest.param(key, num_players, options, seed, id=f"{key}-{num_players}p-{seed}-{_opt_id(options)}")


def _opt_id(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"


def _strings(obj) -> set[str]:
    out: set[str] = set()
    stack = [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


def _snapshot(engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def _check_views(engine, state, num_players):
    hidden_from_all = engine.secrets(state, None)
    own = {seat: engine.secrets(state, seat) for seat in range(num_players)}
    for viewer in [None, *range(num_players)]:
        view = engine.view(state, viewer)
        json.dumps(view)  # views travel to renderers and embeds as JSON
        seen = _strings(view)
        forbidden = set(hidden_from_all)
        for seat, ids in own.items():
            if seat != viewer:
                forbidden |= ids
        leaked = seen & forbidden
        assert not leaked, f"view of seat {viewer} leaks {sorted(leaked)[:5]}"


def _check_illegal(engine, state, num_players, rng: Rng):
    before = _snapshot(engine, state)
    acting = engine.to_act(state)
    for seat in range(num_players):
        if seat not in acting:
            assert engine.legal_actions(state, seat) == []
            with pytest.raises(IllegalAction):
                engine.apply(state, seat, {"type": "pass"})
            assert _snapshot(engine, state) == before
    for bad in ({}, {"type": 7}, {"type": "no-such-action"}, "move", None):
        seat = acting[0]
        with pytest.raises(IllegalAction):
            engine.apply(state, seat, bad)
        assert _snapshot(engine, state) == before
    # a legal action of one seat played by a seat that is not to act
    idle = [s for s in range(num_players) if s not in acting]
    if idle:
        action = rng.choice(engine.legal_actions(state, acting[0]))
        with pytest.raises(IllegalAction):
            engine.apply(state, idle[0], action)
        assert _snapshot(engine, state) == before


def _check_variants(engine, state, rng: Rng):
    """A listed action's variants: the action itself first, at most ``limit``, all different, each one that
    ``apply`` takes (on a copy); the state is untouched."""
    before = _snapshot(engine, state)
    seat = engine.to_act(state)[0]
    action = rng.choice(engine.legal_actions(state, seat))
    ways = engine.variants(state, seat, action, 4)
    assert ways[0] == action and 1 <= len(ways) <= 4
    assert len({json.dumps(w, sort_keys=True) for w in ways}) == len(ways)
    for way in ways:
        copy = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
        engine.apply(copy, seat, json.loads(json.dumps(way)))
    assert engine.variants(state, seat, action, 1) == [action]
    with pytest.raises(IllegalAction):
        engine.variants(state, seat, {"type": "no-such-action"})
    assert _snapshot(engine, state) == before


@pytest.mark.parametrize("key,num_players,options,seed", list(_cases()))
def test_random_playout(key, num_players, options, seed):
    engine = ENGINES[key]
    rng = Rng(seed * 7919 + 17)
    state = engine.new_game(num_players, seed, dict(options))
    log: list[tuple[int, dict]] = []
    steps = 0
    while engine.to_act(state):
        assert engine.result(state) is None
        steps += 1
        assert steps <= engine.max_playout_steps(), "random playout did not end"
        if steps % 5 == 1:
            _check_views(engine, state, num_players)
            _check_illegal(engine, state, num_players, rng)
            _check_variants(engine, state, rng)
        acting = engine.to_act(state)
        assert len(set(acting)) == len(acting)
        seat = rng.choice(acting)
        actions = engine.legal_actions(state, seat)
        assert actions, f"seat {seat} is to act but has no legal action"
        action = rng.choice(actions)
        json.dumps(action)
        events = engine.apply(state, seat, json.loads(json.dumps(action)))
        assert isinstance(events, list)
        json.dumps(events)
        log.append((seat, action))
        # exact round trip, and the game continues from the restored copy
        data = json.loads(json.dumps(engine.to_json(state)))
        restored = engine.from_json(data)
        assert engine.to_json(restored) == engine.to_json(state)
        state = restored
    result = engine.result(state)
    assert result is not None
    assert len(result["places"]) == num_players and len(result["scores"]) == num_players
    assert min(result["places"]) == 1
    json.dumps(result)
    _check_views(engine, state, num_players)

    # determinism: the same seed and the same actions give the same state
    replay = engine.new_game(num_players, seed, dict(options))
    for seat, action in log:
        engine.apply(replay, seat, action)
    assert engine.to_json(replay) == engine.to_json(state)


@pytest.mark.parametrize("key", list(ENGINES))
def test_engine_shape(key):
    engine = ENGINES[key]
    assert engine.key == key
    assert engine.title and 1 <= engine.min_players <= engine.max_players
    assert isinstance(engine.rules_version, int)
    state = engine.new_game(engine.min_players, 1, {})
    assert engine.to_json(state).get("rules_version") == engine.rules_version
