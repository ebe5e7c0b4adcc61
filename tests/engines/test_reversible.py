"""``engine.reversible`` (issue 25, undo within a turn), for every game over random playouts: it never changes
the state it is asked about; an action it calls reversible draws nothing at random, shows nobody anything
hidden and leaves the same seat alone to act; each game that lets players take moves back does so in ordinary
play, and Ave Caesar never (every move shows a card and draws one)."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from engines import ENGINES
from engines.base import BaseEngine
from engines.rng import Rng

#: what each game lets a player take back (its rules, engines/*/engine.py ``take_back``)
EXPECTED = {"hector-achilles": {"reinforce", "rotate_fate"}, "ave-caesar": set(), "hextri": {"move", "pass"},
            "troja": {"pass", "end_turn"},
            "kivalasztottak": {"team_add", "team_done", "equip", "unequip", "ranks"}}


def _playout(key: str, seed: int, steps: int = 300):
    """(state, seat, action) of a random playout, each before its action is applied."""
    engine = ENGINES[key]
    rng = Rng(seed)
    state = engine.new_game(engine.min_players, seed, {})
    for _ in range(steps):
        acting = engine.to_act(state)
        if not acting:
            return
        seat = acting[rng.below(len(acting))]
        legal = engine.legal_actions(state, seat)
        action = legal[rng.below(len(legal))]
        yield state, seat, action
        engine.apply(state, seat, action)


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_reversible_actions_reveal_nothing_and_keep_the_turn(key):
    engine = ENGINES[key]
    assert isinstance(engine, BaseEngine)
    assert engine.take_back == EXPECTED[key]
    seen: collections.Counter = collections.Counter()
    for seed in range(1, 5):
        for state, seat, action in _playout(key, seed):
            before = engine.to_json(state)
            legal = engine.legal_actions(state, seat)
            reversible = engine.reversible(state, seat, action)
            assert engine.to_json(state) == before, "asking changes nothing"
            assert engine.legal_actions(state, seat) == legal
            if not reversible:
                continue
            seen[action["type"]] += 1
            assert action["type"] in engine.take_back
            trial = engine.from_json(before)
            seats = [None, *range(engine.seat_count(state))]
            hidden = {s: engine.secrets(trial, s) for s in seats}
            engine.apply(trial, seat, action)
            after = engine.to_json(trial)
            assert after["rng"] == before["rng"], "no dice, no shuffle"
            assert engine.to_act(trial) == [seat] and engine.result(trial) is None
            for s in seats:
                assert hidden[s] <= engine.secrets(trial, s), f"{action} shows a secret of {s}"
    assert set(seen) == EXPECTED[key], f"{key}: reversible kinds met in play {dict(seen)}"


def test_not_reversible_when_not_to_act_or_not_allowed():
    engine = ENGINES["hextri"]
    state = engine.new_game(2, 3, {})
    (seat,) = engine.to_act(state)
    other = 1 - seat
    action = engine.legal_actions(state, seat)[0]
    assert not engine.reversible(state, other, action), "only the seat to act"
    assert not engine.reversible(state, seat, {"type": "move", "nonsense": 1}), "an illegal action"
    assert not engine.reversible(state, seat, {"type": "losses"}), "a kind the game does not take back"
    bogus: Any = "move"
    assert not engine.reversible(state, seat, bogus), "not an action"


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_reversible_of_a_given_away_copy_answers_as_of_the_state(key):
    """The host asks ``reversible`` of the state it just loaded from the saved text (no copy made first,
    issue 29): every answer is the one ``reversible`` gives, yes and no alike."""
    engine = ENGINES[key]
    answers: collections.Counter = collections.Counter()
    for seed in range(1, 4):
        for state, seat, action in _playout(key, seed):
            expected = engine.reversible(state, seat, action)
            legal = engine.legal_actions(state, seat)
            copy = engine.from_text(engine.json_text(state))
            assert engine.reversible(copy, seat, action, given_away=True) == expected
            assert engine.legal_actions(state, seat) == legal, "the trial costs the real state nothing"
            answers[expected] += 1
    assert answers[False] and (answers[True] or not engine.take_back)
