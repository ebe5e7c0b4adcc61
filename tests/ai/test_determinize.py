"""Determinization: samples look the same to the seat, differ where something is hidden, play on to the end,
and the search's choice depends only on what the seat can see. (These build their other states with the
determinizers themselves, so they cannot see what a determinizer wrongly keeps: the check that re-deals by
the rules, independently of them, is ``tests/ai/test_hidden_redeal.py``.)"""

from __future__ import annotations

import importlib
import json

import pytest

import ai
from ai import search
from engines import ENGINES
from engines.rng import Rng

HIDDEN = {"hector-achilles": "hector_achilles", "ave-caesar": "ave_caesar", "troja": "troja",
          "kivalasztottak": "kivalasztottak"}


def _determinize(key):
    return importlib.import_module(f"engines.{HIDDEN[key]}.determinize").determinize


def _positions(engine, seed: int, every: int, limit: int = 400):
    """States along a game played by the heuristic AI, every ``every`` actions (copies)."""
    state = engine.new_game(engine.min_players, seed, {})
    rng = Rng(seed + 17)
    step = 0
    while engine.to_act(state) and step < limit:
        if step % every == 0:
            yield engine.from_json(engine.to_json(state))
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, ai.choose(engine, state, seat, rng))
        step += 1


def _dump(engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


@pytest.mark.parametrize("key", sorted(HIDDEN))
def test_samples_agree_with_the_seat_view_vary_and_play_to_the_end(key):
    engine = ENGINES[key]
    determinize = _determinize(key)
    varied = checked = 0
    for seed in (1, 2):
        for state in _positions(engine, seed, every=9):
            before = _dump(engine, state)
            for seat in range(engine.min_players):
                samples = [determinize(state, seat, Rng(k)) for k in range(4)]
                for sample in samples:
                    assert engine.view(sample, seat) == engine.view(state, seat)
                    checked += 1
                varied += len({_dump(engine, s) for s in samples}) > 1
                sample, rng = samples[0], Rng(seat)
                while engine.to_act(sample) and (checked // 4) % 3 == 0:  # a sample is a whole, playable game
                    p = engine.to_act(sample)[0]
                    engine.apply(sample, p, rng.choice(engine.legal_actions(sample, p)))
                assert engine.result(sample) is not None or (checked // 4) % 3
            assert _dump(engine, state) == before, "determinizing must not touch the real state"
    assert checked > 20
    assert varied >= checked // 8, "hidden cards are reshuffled in most positions"


@pytest.mark.parametrize("key", sorted(HIDDEN))
def test_the_sample_does_not_depend_on_where_the_hidden_cards_really_are(key):
    engine = ENGINES[key]
    determinize = _determinize(key)
    for state in _positions(engine, 3, every=13):
        seat = engine.to_act(state)[0]
        other = determinize(state, seat, Rng(99))  # same view for the seat, other hidden cards
        assert _dump(engine, determinize(state, seat, Rng(5))) == _dump(engine, determinize(other, seat, Rng(5)))


@pytest.mark.parametrize("key", sorted(HIDDEN))
def test_the_hard_ai_choice_does_not_depend_on_hidden_cards(key):
    engine = ENGINES[key]
    determinize = _determinize(key)
    compared = differed = 0
    for state in _positions(engine, 4, every=11, limit=250):
        seat = engine.to_act(state)[0]
        if len(engine.legal_actions(state, seat)) < 2:
            continue
        other = determinize(state, seat, Rng(123))
        differed += _dump(engine, other) != _dump(engine, state)
        for rollout in ("random", "heuristic"):
            a = search.choose(engine, state, seat, Rng(8), iterations=4, rollout=rollout)
            b = search.choose(engine, other, seat, Rng(8), iterations=4, rollout=rollout)
            assert a == b
        compared += 1
        if compared >= 4:
            break
    assert compared >= 3 and differed >= 1


def test_hextri_has_nothing_hidden_and_searches_on_copies():
    engine = ENGINES["hextri"]
    state = engine.new_game(2, 1, {})
    before = _dump(engine, state)
    seat = engine.to_act(state)[0]
    action = search.choose(engine, state, seat, Rng(1), iterations=4)
    assert action in engine.legal_actions(state, seat)
    assert _dump(engine, state) == before
