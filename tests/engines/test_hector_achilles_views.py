"""Hector and Achilles, part 3: what each seat may see, the result, the JSON round trip, and whole random
games that keep every card and token accounted for."""

from __future__ import annotations

import json

import pytest

from ai import random_player
from engines.rng import Rng
from tests.engines.test_hector_achilles_support import (
    ENGINE,
    act,
    check_conservation,
    hero,
    new,
    position,
    troop,
)


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def _opened(seed: int = 8) -> dict:
    state = new(seed)
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    if state["phase"] == "choose_active":
        act(state, 0, {"type": "choose_active", "deck": "1"})
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    return state


def test_private_view_shows_the_hand_of_five_and_the_scoring_colours():
    state = _opened()
    b = state["battle"]
    view = ENGINE.view(state, 0)
    assert [c["id"] for c in view["hand"]] == b["hand"][0] and len(view["hand"]) == 4
    assert view["hand"][0].keys() == {"id", "colour", "strength", "kind"}
    assert view["hand_hero"]["id"] == b["hand_hero"][0]
    hero_colour = view["hand_hero"]["colour"]
    facing = view["fate"]["facing"][0]
    assert view["scoring_colours"] == ([facing] if hero_colour == facing else [facing, hero_colour])
    assert view["legal"] == ENGINE.legal_actions(state, 0)


def test_opponent_and_spectator_do_not_see_the_hand():
    state = _opened()
    b = state["battle"]
    secret = set(b["hand"][0]) | {b["hand_hero"][0]}
    for viewer in (1, None):
        view = ENGINE.view(state, viewer)
        assert not secret & _strings(view)
        assert "legal" not in view
    assert "hand" not in ENGINE.view(state, None)
    side = ENGINE.view(state, 1)["sides"][0]
    assert side["hand_size"] == 4 and side["has_hero"] is True


def test_public_view_keys():
    state = _opened()
    view = ENGINE.view(state, None)
    assert {"game", "seat", "to_act", "phase", "decision", "battle", "attacker", "round", "called_deck",
            "vanguard_from", "sides", "fate", "fate_stack", "fate_used", "shame_pool", "outcome", "last",
            "last_battle", "result"} <= view.keys()
    side = view["sides"][1]
    assert {"seat", "side", "name", "decks", "troops_left", "hero_deck", "lost_heroes", "removed", "favour",
            "favour_lost", "shame", "battles_won", "active_deck", "played", "hero", "total", "hand_size",
            "has_hero"} <= side.keys()
    assert side["played"][0]["vanguard"] and side["played"][0].keys() == {
        "id", "colour", "strength", "kind", "vanguard", "token", "covered"}
    assert view["round"] == 1 and view["decision"] == {"seat": 0, "kind": "optional_or_play"}
    assert view["fate"]["oriented"] and len(view["fate"]["facing"]) == 2
    json.dumps(view)


def test_fate_tile_is_shown_unoriented_while_the_attacker_lays_it():
    state = new(8)
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    if state["phase"] == "choose_active":
        act(state, 0, {"type": "choose_active", "deck": "2"})
    view = ENGINE.view(state, 0)
    assert view["decision"]["kind"] == "orient_fate" and view["fate"]["facing"] is None
    assert view["scoring_colours"] is None


def test_last_battle_shows_revealed_heroes_and_scores_without_ids():
    state = new(4)
    a_played = [troop(0, "red", 1), troop(0, "red", 2), troop(0, "green", 1), troop(0, "green", 2),
                troop(0, "blue", 1)]
    t_played = [troop(1, "yellow", 4), troop(1, "yellow", 3), troop(1, "yellow", 2), troop(1, "red", 4)]
    position(state, rnd=4, turn=1, seat0_facing="red", played=(a_played, t_played),
             hand=((), (troop(1, "yellow", 1),)), hand_hero=(hero(0, "Aias"), hero(1, "Paris")))
    act(state, 1, {"type": "play", "card": troop(1, "yellow", 1)})
    if state["phase"] == "rotate":
        act(state, 1, {"type": "rotate_fate", "direction": "cw"})
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        record = view["last_battle"]
        assert record["kind"] == "victory" and record["scores"] is not None
        assert [h["name"] for h in record["heroes"]] == ["Aias", "Paris"]
        assert all(h["played"] is False for h in record["heroes"])
        assert len(record["played"][0]) == 5 and "id" not in record["played"][0][0]
        hidden = ENGINE.secrets(state, None)
        assert not hidden & _strings(view), "a card that went back into a deck is still in the view"


def test_secrets_cover_decks_heroes_and_the_fate_stack():
    state = _opened()
    hidden = ENGINE.secrets(state, None)
    p = state["players"][0]
    assert set(p["decks"]["home"]) <= hidden and set(p["heroes"]) <= hidden
    assert set(state["fate_stack"]) <= hidden and state["battle"]["tile"] not in hidden
    own = ENGINE.secrets(state, 1)
    assert own == set(state["battle"]["hand"][1]) | {state["battle"]["hand_hero"][1]}


def test_json_round_trip_and_rules_version():
    state = _opened()
    data = json.loads(json.dumps(ENGINE.to_json(state)))
    assert data["rules_version"] == ENGINE.rules_version
    assert ENGINE.from_json(data) == state
    data["rules_version"] = 99
    with pytest.raises(ValueError, match="rules version"):
        ENGINE.from_json(data)


def test_result_is_none_while_the_game_runs():
    assert ENGINE.result(new()) is None


@pytest.mark.parametrize("seed", range(6))
def test_random_games_keep_every_card_and_token_accounted_for(seed):
    state = new(seed)
    rng = Rng(seed)
    battles = 0
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        events = ENGINE.apply(state, seat, random_player(ENGINE, state, seat, rng))
        battles += sum(e["type"] == "battle_started" for e in events)
        check_conservation(state)
    result = ENGINE.result(state)
    assert result["reason"] in {"front_decks_lost", "home_deck_exhausted", "no_troops", "draw"}
    assert result["battles"] == battles + 1  # the first battle starts in new_game
