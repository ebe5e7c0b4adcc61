"""Kiválasztottak's hard AI never stalls a game by moving gear back and forth."""

import json
from pathlib import Path

import ai
from ai import search
from engines import ENGINES
from engines.rng import Rng

#: round 4's maneuvers phase of arena seed 20166 (hard as seat 1 against normal), where the hard AI used to
#: equip and unequip the same item for ever: the phase never ended (20,000 actions without a result)
CHURN = Path(__file__).parent / "data" / "kiv_gear_churn.json"


def test_the_hard_ai_lets_the_maneuvers_phase_end_instead_of_moving_gear_for_ever():
    engine = ENGINES["kivalasztottak"]
    state = engine.from_json(json.loads(CHURN.read_text()))
    assert (state["round"], state["stage"]) == (4, "maneuvers")
    rngs = [Rng(5), Rng(6)]
    gear = 0
    for _ in range(400):
        if engine.result(state) is not None or state["round"] > 4:
            break
        seat = engine.to_act(state)[0]
        if seat == 1:
            budget = search.hard_budget(engine)
            budget["seconds"] = None
            action = search.choose(engine, state, seat, rngs[seat], **budget)
            gear += action["type"] == "unequip"
        else:
            action = ai.choose(engine, state, seat, rngs[seat], "normal")
        engine.apply(state, seat, action)
    assert engine.result(state) is not None or state["round"] > 4, "the phase ended and the game went on"
    assert gear == 0, "the heuristic never unequipped here"


def test_unequipping_is_searched_only_when_the_heuristic_picks_it():
    from ai.evaluate import CANDIDATES

    engine = ENGINES["kivalasztottak"]
    state = engine.from_json(json.loads(CHURN.read_text()))
    for _ in range(10):  # both pass until the hard seat could move its gear
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        if seat == 1 and "equip" in {a["type"] for a in legal}:
            break
        engine.apply(state, seat, {"type": "pass"})
    assert seat == 1 and "equip" in {a["type"] for a in legal}, "the hard seat may move gear here"
    shortlist = CANDIDATES["kivalasztottak"](engine, state, seat, Rng(1))
    assert [a for a in legal if a["type"] != "unequip"] == shortlist
    assert any(a["type"] == "equip" for a in shortlist), "equipping (which cannot loop) is still searched"
