"""The Ave Caesar engine's speed shortcuts give exactly what the plain code gives (issue 16, engine speed)."""

from __future__ import annotations

from engines import ENGINES
from engines.ave_caesar.engine import CARD_VALUES, DECKS, _shuffle
from engines.rng import Rng

E = ENGINES["ave-caesar"]


def test_the_inlined_shuffle_deals_as_rng_shuffle_does():
    # every deck size up to a full deck, seeds small and large: same order of cards, same rng state after
    for seed in [0, 1, 2, 12345, (1 << 64) - 1, 0x9E3779B97F4A7C15] + list(range(100, 400)):
        for size in (0, 1, 2, 3, 7, 23, 24):
            plain, fast = list(range(size)), list(range(size))
            a, b = Rng(seed), Rng(seed)
            a.shuffle(plain)
            _shuffle(b, fast)
            assert fast == plain and b.state == a.state


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
