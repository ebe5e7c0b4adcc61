"""The Ave Caesar engine's speed shortcuts give exactly what the plain code gives (issue 16, engine speed)."""

from __future__ import annotations

from engines import ENGINES
from engines.ave_caesar.engine import CARD_VALUES, DECKS

E = ENGINES["ave-caesar"]


def test_decks_hold_every_card_id_once_with_its_value():
    assert [len(set(deck)) for deck in DECKS] == [24] * 6
    assert CARD_VALUES == {f"AC{c}-{v}{x}": v for c in range(6) for v in range(1, 7) for x in "abcd"}


def test_to_json_is_a_json_round_trip_of_the_state():
    import json

    state = E.new_game(3, 7, {})
    for _ in range(40):
        seat = E.to_act(state)[0]
        E.apply(state, seat, E.legal_actions(state, seat)[-1])
    data = E.to_json(state)
    assert json.dumps(data) == json.dumps(json.loads(json.dumps(state)))
    data["race"]["cars"][0]["hand"].append("changed")  # a copy: the live state is not touched
    assert "changed" not in state["race"]["cars"][0]["hand"]
