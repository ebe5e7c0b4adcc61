"""Engines behave exactly as they did when the digests were recorded (before the speed work of issue 16).

Fixed-seed random games of every engine, every conformance configuration and every older rules version still
loadable: a digest of every seat choice, legal-action list, event list, some views, the answers to some illegal
or tweaked actions, the final ``to_json`` and the result is compared with ``data/engine_digests.json``. An
optimisation that changes what a player would see, what the AI may choose or how a saved game replays fails
here.

``python -m tests.engines.test_determinism`` rewrites the data file: only do that for a deliberate rules change
(which also bumps the engine's rules_version) or a deliberate change of what ``legal_actions`` lists.

HEX-TRI's digests were recorded again in issue 22 (its rules unchanged, rules_version 2 kept): its list of
legal actions became one move per figure and destination, paid the default way and saying whether it could
be paid otherwise (``other_ways``), instead of one action per way to pay. The ``legal`` digests change with
the list, and the random games that pick from it pick other actions, so their events, views, probes, final
states and results change too (the other engines' digests are untouched). That the rules did not change is
checked where it shows: action logs recorded with the old listing, paying the non-default ways too, replay
to the same events and final states (``test_hextri.py::
test_action_logs_saved_when_every_way_to_pay_was_listed_still_replay``), and every destination, default
way and set of ways to pay the old listing had is what the new one lists and ``variants`` offers, and
``other_ways`` is true exactly where it had several ways (compared over thousands of positions of random games
when the change was made; the figures are in docs/architecture.md).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from engines import ENGINES, IllegalAction
from engines.rng import Rng

DATA = Path(__file__).parent / "data" / "engine_digests.json"
SEEDS = range(4)
# Older rules versions saved games may still carry; each is played from a fresh state stamped with it,
# the way host/replays.py starts an old game.
OLD_VERSIONS = {"hector-achilles": [1], "ave-caesar": [1], "hextri": [1], "troja": [], "kivalasztottak": [1, 2]}


def _cases():
    for key, engine in ENGINES.items():
        versions = [engine.rules_version, *OLD_VERSIONS.get(key, [])]
        for version in versions:
            for num_players, options in engine.conformance_configs():
                for seed in SEEDS:
                    opt = ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "default"
                    yield f"{key}/v{version}/{num_players}p/{opt}/{seed}", key, version, num_players, options, seed


def _dump(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def _tweak(action: dict) -> dict:
    """A nearby action that is usually illegal: the first int field shifted, or an unknown extra key."""
    out = dict(action)
    for k, v in action.items():
        if isinstance(v, int) and not isinstance(v, bool):
            out[k] = v + 97
            return out
    out["zz"] = 1
    return out


def _probe(engine, state, seat, action) -> object:
    """What applying ``action`` answers, on a copy; the original state must stay as it was."""
    copy = engine.from_json(json.loads(json.dumps(engine.to_json(state))))
    try:
        return ["ok", engine.apply(copy, seat, action)]
    except IllegalAction as exc:
        return ["illegal", str(exc)]


def play(key: str, version: int, num_players: int, options: dict, seed: int) -> dict:
    """Digests of one fixed-seed random game."""
    engine = ENGINES[key]
    state = engine.new_game(num_players, seed, dict(options))
    if version != engine.rules_version:
        data = engine.to_json(state)
        data["rules_version"] = version
        state = engine.from_json(data)
    rng = Rng(seed * 104729 + 11)
    h_events, h_legal, h_views, h_probes = (hashlib.sha256() for _ in range(4))
    steps = 0
    while True:
        acting = engine.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        actions = engine.legal_actions(state, seat)
        h_legal.update(_dump([acting, seat, actions]))
        action = rng.choice(actions)
        if steps % 9 == 0:
            for viewer in [None, *range(num_players)]:
                h_views.update(_dump(engine.view(state, viewer)))
            idle = [s for s in range(num_players) if s not in acting]
            probes = [_probe(engine, state, seat, _tweak(action)),
                      _probe(engine, state, seat, {"type": "no-such-action"})]
            if idle:
                probes.append(_probe(engine, state, idle[0], action))
            h_probes.update(_dump(probes))
        events = engine.apply(state, seat, action)
        h_events.update(_dump([seat, action, events]))
        steps += 1
        assert steps <= engine.max_playout_steps()
    for viewer in [None, *range(num_players)]:
        h_views.update(_dump(engine.view(state, viewer)))
    return {
        "steps": steps,
        "events": h_events.hexdigest()[:24],
        "legal": h_legal.hexdigest()[:24],
        "views": h_views.hexdigest()[:24],
        "probes": h_probes.hexdigest()[:24],
        "final": hashlib.sha256(_dump(engine.to_json(state))).hexdigest()[:24],
        "result": hashlib.sha256(_dump(engine.result(state))).hexdigest()[:24],
    }


CASES = list(_cases())
RECORDED = json.loads(DATA.read_text()) if DATA.exists() else {}


@pytest.mark.parametrize("name,key,version,num_players,options,seed", CASES, ids=[c[0] for c in CASES])
def test_fixed_seed_games_play_exactly_as_recorded(name, key, version, num_players, options, seed):
    assert name in RECORDED, f"no recorded digest for {name}"
    assert play(key, version, num_players, options, seed) == RECORDED[name]


def test_every_recorded_game_is_still_played():
    assert sorted(RECORDED) == sorted(c[0] for c in CASES)


if __name__ == "__main__":
    out = {name: play(key, version, n, options, seed) for name, key, version, n, options, seed in CASES}
    DATA.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} digests to {DATA}", file=sys.stderr)
