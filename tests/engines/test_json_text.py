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
