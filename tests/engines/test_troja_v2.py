"""Troja rules version 2 (issue 11): the fate card of an added challenge card, the Glory actually lost,
events the narration needs, and games saved under rules version 1 that load and finish with their cards."""

from __future__ import annotations

import json
from pathlib import Path

from ai.troja import choose
from engines.rng import Rng
from engines.troja import TYPES, card_type
from tests.engines.test_troja_support import (  # noqa: F401 - pinned_heroes is a fixture
    E,
    act,
    challenge,
    give,
    of,
    pass_all,
    pinned_heroes,
    stack,
    table,
)

V1_SNAPSHOT = Path(__file__).with_name("troja_v1_snapshot.json")


def test_the_fate_card_of_an_added_challenge_card_is_drawn_by_the_player_who_added_it():
    """Book §2: "Za Wyzwanie kartę losu ciągnie rzucający" — a beast added by C fights alone; C draws for it."""
    s = table(["odysseus", "achilles", "nestor"])
    paris, = give(s, 0, "paris")
    boar, = give(s, 2, "boar")
    challenge(s, 0, 1, paris)
    act(s, 2, {"type": "add", "card": boar})
    stack(s, 3, 3, 3, 3)
    events = pass_all(s, ("join",))
    events += pass_all(s, ("fate",))
    events += pass_all(s, ("fate",))
    fights = of(events, "fight")
    assert [f["cards"] for f in fights] == [["paris"], ["boar"]]
    attacker_fates = [e["seat"] for e in of(events, "fate") if e["reason"] == "attacker"]
    assert attacker_fates == [0, 2]


def test_the_glory_event_states_the_glory_actually_lost():
    """A hero at 2 whose GLORY is 4 loses 2, not 4, and leaves in disgrace."""
    s = table(["odysseus", "achilles"], gp=[12, 2])
    amazons, = give(s, 0, "amazons")
    stack(s, 6, 1)
    events = challenge(s, 0, 1, amazons) + pass_all(s)
    loss = of(events, "glory")[0]
    assert loss["seat"] == 1 and loss["delta"] == -2 and loss["due"] == 4 and loss["gp"] == 0
    assert of(events, "disgrace")


def test_funeral_games_tie_and_failed_escape_and_extra_draws_have_events():
    s = table(["odysseus", "achilles"])
    games, = give(s, 0, "funeral_games")
    stack(s, 5, 5)
    events = act(s, 0, {"type": "event", "card": games})
    assert of(events, "contest") == [{"type": "contest", "best": 5, "seats": [0, 1], "amount": 2}]
    assert not of(events, "glory")
    # Aeneas beaten and his escape roll fails: the event says so, with the roll
    s = table(["achilles", "odysseus"])
    aeneas, glaukos = give(s, 0, "aeneas", "glaukos")
    stack(s, 1, 6, 2)
    events = challenge(s, 0, 1, aeneas) + pass_all(s)
    failed = of(events, "escape_failed")
    assert failed == [{"type": "escape_failed", "card": "aeneas", "target": 1, "face": 2, "need": 5}]
    # Odysseus draws after a won fight, and the winner over Glaucus draws: each draw names its reason
    draws = of(events, "draw")
    assert [d["reason"] for d in draws] == ["ability"]
    stack(s, 1, 6)
    events = challenge(s, 0, 1, glaukos) + pass_all(s)
    assert [d["reason"] for d in of(events, "draw")] == ["reward", "ability"]


def test_the_view_counts_the_discards_of_the_end_phase():
    s = table(["odysseus", "achilles"])
    a, b, c = give(s, 0, "omen", "feast", "plague")
    act(s, 0, {"type": "end_turn"})
    act(s, 1, {"type": "end_turn"})
    assert s["step"] == "discard"
    act(s, 0, {"type": "discard", "card": a})
    assert E.view(s, 0)["players"][0]["discarded"] == 1


# ---------------------------------------------------------------------------------------- version 1

def _v1_state() -> dict:
    data = json.loads(V1_SNAPSHOT.read_text(encoding="utf-8"))
    assert data["rules_version"] == 1
    return data


def test_a_version_1_game_loads_with_its_original_cards_and_rotation():
    data = _v1_state()
    s = E.from_json(data)
    assert s["rules_version"] == E.rules_version and s["card_set"] == 1
    assert s["options"]["rotate_first"] is True
    held = [c for p in s["players"] for c in p["hand"] + p["attached"]]
    cerberus = next(c for c in held if c.startswith("cerberus"))
    armour = next(c for c in held if c.startswith("bronze_armour"))
    assert cerberus.startswith("cerberus_v1#") and armour.startswith("bronze_armour_v1#")
    assert card_type(cerberus)["ability"] == [{"op": "fate_best_of", "count": 2}]
    assert card_type(armour)["ability"] == [{"op": "loss_reduction", "amount": 1}]
    # same number of cards, same faces; no current-version copy of a redesigned card slipped in
    everything = s["deck"] + s["discard"] + held
    assert len(everything) == len(data["deck"]) + len(data["discard"]) + len(held)
    assert not any(c.split("#")[0] in ("cerberus", "bronze_armour", "hector", "chimera", "divine_anger")
                   for c in everything)
    # loading the migrated state again is a plain load
    assert E.from_json(json.loads(json.dumps(E.to_json(s)))) == s
    assert TYPES["cerberus"]["ability"] != card_type(cerberus)["ability"]


def test_a_version_1_game_plays_to_the_end():
    s = E.from_json(_v1_state())
    rngs = [Rng(100 + i) for i in range(s["n"])]
    for _ in range(E.max_playout_steps()):
        acting = E.to_act(s)
        if not acting:
            break
        seat = acting[0]
        E.apply(s, seat, choose(E, s, seat, rngs[seat]))
        s = E.from_json(json.loads(json.dumps(E.to_json(s))))
    result = E.result(s)
    assert result is not None and min(result["places"]) == 1
