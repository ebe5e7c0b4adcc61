"""``engine.json_text`` (issue 29: the state's JSON made once per move, saved and handed to the workers as text) is
``to_json`` serialised, for every game over random playouts - also where it skips ``to_json``'s copy - and
leaves the state as it was; ``engine.from_text`` (how the workers load it) is ``from_json`` of the text."""

import json

import pytest

from engines import ENGINES
from engines.rng import Rng


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_json_text_is_to_json_as_text(key):
    engine = ENGINES[key]
    for seed in range(2):
        state, rng = engine.new_game(engine.min_players, seed, {}), Rng(seed)
        for _ in range(120):
            before = engine.to_json(state)
            text = engine.json_text(state)
            assert json.loads(text) == before
            assert engine.to_json(state) == before
            assert engine.to_json(engine.from_json(json.loads(text))) == before
            assert engine.to_json(engine.from_text(text)) == before, "from_text is from_json of the text"
            acting = engine.to_act(state)
            if not acting:
                break
            engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])))


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_legal_actions_listed_from_the_text_are_the_states_own(key):
    """The host's workers list a seat's legal actions from the state's JSON text, and the host hands that list to
    the engine (``remember_legal``, issue 29) so that ``apply`` does not list them again: it is the list the engine
    gives for the state itself, in the same order, and it is forgotten once the state changes."""
    engine = ENGINES[key]
    for seed in range(2):
        state, rng = engine.new_game(engine.max_players, seed, {}), Rng(seed)
        for _ in range(150):
            acting = engine.to_act(state)
            if not acting:
                break
            seat = acting[0]
            copy = engine.from_text(engine.json_text(state))
            listed = engine.legal_actions(copy, seat)
            engine.forget(state)
            assert listed == engine.legal_actions(state, seat)
            engine.forget(state)
            engine.remember_legal(state, seat, [{"type": "marker"}])  # (what it keeps is what it is given)
            # (Ave Caesar keeps nothing: a turn's list comes with facts of its own, see its engine)
            kept = [{"type": "marker"}] if key != "ave-caesar" else listed
            assert engine.legal_actions(state, seat) == kept
            engine.forget(state)
            engine.remember_legal(state, seat, listed)
            index = rng.below(len(listed))
            # the action as the host makes it (the listed object itself), and its ways to be made (HEX-TRI's
            # payments), are what they are without the list handed over
            twin = engine.from_text(engine.json_text(state))
            assert engine.variants(state, seat, listed[index]) == engine.variants(twin, seat,
                                                                                  engine.legal_actions(twin, seat)[index])
            events = engine.apply(state, seat, engine.legal_actions(state, seat)[index])
            assert events == engine.apply(twin, seat, engine.legal_actions(twin, seat)[index])
            assert engine.to_json(state) == engine.to_json(twin)
            assert engine._known is None or id(state) not in engine._known, "a changed state's list is forgotten"


def test_the_state_text_is_the_standard_librarys_text():
    """``json_text`` (by orjson, issue 29) writes what ``json.dumps`` with compact separators and
    non-ASCII characters as they are writes, for every game's states and for the odd values (integer keys,
    64-bit integers, text in every script); what orjson cannot write goes to the standard library, which writes
    it (or fails on it) as it always did; ``json_value`` reads what the standard library reads (NaN too)."""
    from engines.base import json_text, json_value

    def same(obj):
        expected = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
        assert json_text(obj) == expected
        assert json_value(expected) == json.loads(expected)

    for engine in ENGINES.values():
        state, rng = engine.new_game(engine.max_players, 5, {}), Rng(5)
        for _ in range(60):
            same(engine.to_json(state))
            acting = engine.to_act(state)
            if not acting:
                break
            engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])))
    same({"names": ["Ádám", "Łucja", "刘", "🏛️", "a\u2028b", "\"quoted\"\\"], 1: [True, None, -0], "x": 2**64 - 1})
    same({"big": 2**70, "lone": "\ud800"})  # (past orjson: the standard library's text)
    with pytest.raises(TypeError):
        json_text({"not json": object()})
    assert json_value("[NaN]")[0] != json_value("[NaN]")[0]
