"""Hector and Achilles, rules version 2 (issue 11): the book's scoring example in one battle with the new fate
tiles, the home deck checked whenever it was used, Shame losses after the hand goes back, and games saved
under rules version 1 finishing with the rules they began with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engines.hector_achilles import ENGINE
from engines.hector_achilles.data import TILES, TILES_BY_VERSION
from tests.engines.test_hector_achilles_battle import R_A_HAND, _retreat_position
from tests.engines.test_hector_achilles_support import (
    act,
    arrange,
    check_conservation,
    event,
    hero,
    hero_order,
    new,
    set_deck,
    troop,
    types,
)

V1_GAME = Path(__file__).resolve().parent / "data" / "hector_achilles_v1_game.json"


def as_version_1(state: dict) -> dict:
    """The state as the version-1 engine saved it: its battles carry no home-deck bookkeeping."""
    state["rules_version"] = 1
    if state["battle"]:
        state["battle"].pop("home_used", None)
        state["battle"].pop("home_ran_out", None)
    return state


# ------------------------------------------------------------------------------------------- the book's example

def test_book_example_9_against_11_is_one_real_battle():
    """Rulebook 5.4 from the vanguard to the victory check: yellow faces Tom (Achaeans, unplayed Aias), blue
    faces Lin (Trojans, Acamas on her blue slinger vanguard, favour on the purple spearman and red hoplite)."""
    tile = next(t for t, c in TILES.items() if {c[0], c[2]} == {"yellow", "blue"} or {c[1], c[3]} == {"yellow", "blue"})
    state = new(11)
    state["fate_stack"].remove(tile)
    state["fate_stack"].insert(0, tile)
    tom_vanguard, tom_hand = troop(0, "red", 1), [troop(0, c, n) for c, n in
                                                  (("yellow", 3), ("yellow", 4), ("yellow", 2), ("blue", 2))]
    lin = [troop(1, c, n) for c, n in (("blue", 1), ("purple", 3), ("red", 4), ("green", 1), ("blue", 3))]
    arrange(state, 0, d1=[tom_vanguard, *tom_hand])
    arrange(state, 1, d1=lin)
    hero_order(state, 0, [hero(0, "Aias")])
    hero_order(state, 1, [hero(1, "Acamas")])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    act(state, 0, {"type": "orient_fate", "colour": "yellow"})
    assert event(state["last"], "fate_oriented")["facing"] == ["yellow", "blue"]
    lin_turns = [
        [{"type": "play_hero", "on": lin[0]}, {"type": "play", "card": lin[1]}],
        [{"type": "reinforce", "on": lin[1]}, {"type": "play", "card": lin[2]}],
        [{"type": "reinforce", "on": lin[2]}, {"type": "play", "card": lin[3]}],
        [{"type": "play", "card": lin[4]}],
    ]
    rotations = ["cw", "ccw", "cw", "ccw"]  # Lin is stronger every round; back and forth keeps yellow at Tom
    events: list[dict] = []
    for rnd in range(4):
        act(state, 0, {"type": "play", "card": tom_hand[rnd]})
        for action in lin_turns[rnd]:
            events = act(state, 1, action)
        assert event(events, "fate_phase")["rotator"] == 1
        events = act(state, 1, {"type": "rotate_fate", "direction": rotations[rnd]})
    scored = event(events, "battle_scored")
    assert scored["scores"] == [9, 11] and scored["winner"] == 1
    assert scored["scoring_colours"] == [["yellow", "green"], ["blue", "purple"]]
    assert event(events, "heroes_revealed")["heroes"][0] == {"name": "Aias", "colour": "green", "value": 5}
    check_conservation(state)


# ------------------------------------------------------------------------------------------- the home deck

def _battle_after_vanguard_from_home(home_size: int, version: int = 2) -> dict:
    """The Achaeans take their vanguard (a 1) from a home deck of ``home_size`` cards; deck 1 fights."""
    state = new(8)
    p = state["players"][0]
    vanguard = troop(0, "red", 1)
    set_deck(state, 0, "home", [vanguard, *p["decks"]["home"][1:home_size]])
    if version == 1:
        as_version_1(state)
    act(state, 0, {"type": "take_vanguard", "deck": "home"})
    assert state["battle"]["active"] == ["1", "1"]
    return state


def _retreat_now(state: dict, seat: int) -> list[dict]:
    """Finish the battle at once: ``seat`` retreats at its first chance (the other side wins)."""
    b = state["battle"]
    if state["phase"] == "orient":
        act(state, b["attacker"], {"type": "orient_fate", "colour": ENGINE.legal_actions(state, b["attacker"])[0]["colour"]})
    events = []
    while b["turn"] != seat:
        card = b["hand"][b["turn"]][0]
        events += act(state, b["turn"], {"type": "play", "card": card})
        if state["phase"] == "rotate":
            events += act(state, b["rotator"], {"type": "rotate_fate", "direction": "cw"})
    return events + act(state, seat, {"type": "retreat"})


def test_home_deck_used_for_the_vanguard_and_under_five_loses():
    # the vanguard leaves 4 cards in the home deck; deck 1 fights, so only the new rule checks the home deck
    state = _battle_after_vanguard_from_home(5)
    events = _retreat_now(state, 1)  # the Trojans retreat: the Achaeans win the battle and still lose the war
    assert event(events, "game_over") == {"type": "game_over", "winner": 1, "reason": "home_deck_exhausted"}
    assert ENGINE.result(state)["places"] == [2, 1]


def test_version_1_game_checks_the_home_deck_only_as_the_active_deck():
    state = _battle_after_vanguard_from_home(5, version=1)
    events = _retreat_now(state, 1)
    assert "game_over" not in types(events) and state["phase"] == "vanguard"


def test_unused_home_deck_under_five_does_not_lose():
    state = new(8)
    p = state["players"][0]
    set_deck(state, 0, "home", p["decks"]["home"][:4])
    arrange(state, 0, d1=[troop(0, "red", 1)])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    events = _retreat_now(state, 1)
    assert "game_over" not in types(events) and len(p["decks"]["home"]) == 4


def test_replacement_card_from_the_home_deck_counts_as_using_it():
    state = new(8)
    p = state["players"][0]
    arrange(state, 0, d1=[troop(0, "red", 1)])
    set_deck(state, 0, "home", p["decks"]["home"][:5])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    act(state, 0, {"type": "orient_fate", "colour": ENGINE.legal_actions(state, 0)[0]["colour"]})
    p["decks"]["home"].extend(p["decks"]["1"])  # deck 1 is empty now: a swap draws from the home deck
    p["decks"]["1"] = []
    p["decks"]["home"], rest = p["decks"]["home"][:5], p["decks"]["home"][5:]
    p["decks"]["2"].extend(rest)
    swapped = state["battle"]["hand"][0][0]
    events = act(state, 0, {"type": "swap_card", "card": swapped})
    assert event(events, "card_swapped")["deck"] == "home" and len(p["decks"]["home"]) == 4
    events = _retreat_now(state, 1)
    assert event(events, "game_over")["reason"] == "home_deck_exhausted"


def _only_home(p: dict, size: int) -> None:
    """An empty deck 1 and a home deck of ``size`` cards (the rest goes to deck 2)."""
    cards = p["decks"]["1"] + p["decks"]["home"]
    p["decks"]["1"], p["decks"]["home"] = [], cards[:size]
    p["decks"]["2"].extend(cards[size:])


def test_shame_loss_from_the_home_deck_counts_as_using_it():
    state = _retreat_position()
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 3, 3
    _only_home(a, 6)
    # 3 Shame losses: the 2 returned hand cards, then 1 from the home deck, which is left with 5: still fine
    events = act(state, 0, {"type": "retreat"})
    assert event(events, "shame_losses")["count"] == 3 and "game_over" not in types(events)
    assert len(a["decks"]["home"]) == 5

    state = _retreat_position()
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 3, 3
    _only_home(a, 5)
    events = act(state, 0, {"type": "retreat"})
    assert len(a["decks"]["home"]) == 4
    assert event(events, "game_over") == {"type": "game_over", "winner": 1, "reason": "home_deck_exhausted"}


# ------------------------------------------------------------------------------------------- Shame after the hand

def test_shame_losses_are_taken_after_the_hand_goes_back():
    """Book 5.4: the hand returns to the active deck, then the losses come from it: with one card left in the
    active deck and two Shame tokens, the second loss is a returned hand card, not the home deck's top card."""
    state = _retreat_position()
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 2, 4
    only = a["decks"]["1"][1]
    set_deck(state, 0, "1", [only])
    home = list(a["decks"]["home"])
    events = act(state, 0, {"type": "retreat"})
    assert event(events, "shame_losses")["count"] == 2
    assert only in a["removed"] and R_A_HAND[0] in a["removed"] and R_A_HAND[1] not in a["removed"]
    assert home[0] not in a["removed"]
    # deck 1 is left with one card: eliminated, onto the home deck, which lost nothing
    assert "1" in a["eliminated"] and sorted(a["decks"]["home"]) == sorted([*home, R_A_HAND[1]])
    check_conservation(state)


def test_version_1_game_takes_shame_losses_before_the_hand_goes_back():
    state = as_version_1(_retreat_position())
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 2, 4
    only = a["decks"]["1"][1]
    set_deck(state, 0, "1", [only])
    home_top = a["decks"]["home"][0]
    act(state, 0, {"type": "retreat"})
    assert {only, home_top} <= set(a["removed"]) and not set(R_A_HAND) & set(a["removed"])


# ------------------------------------------------------------------------------------------- version 1 games

def test_version_1_snapshot_loads_and_plays_to_the_end_with_its_rules():
    """A game saved by the version-1 engine replays move for move to the version-1 result: its fate tiles keep
    the old layout (an orientation the new layout lacks would be illegal) and the old closing rules."""
    saved = json.loads(V1_GAME.read_text(encoding="utf-8"))
    assert saved["snapshot"]["rules_version"] == 1
    state = ENGINE.from_json(saved["snapshot"])
    revealed = []
    for seat, action in saved["actions"]:
        events = ENGINE.apply(state, seat, action)
        revealed += [e["colours"] for e in events if e["type"] == "fate_revealed"]
    assert ENGINE.result(state) == saved["result"]
    assert ENGINE.to_json(state) == saved["final"]
    assert revealed and all(c in TILES_BY_VERSION[1].values() for c in revealed)
    assert any(c not in TILES.values() for c in revealed)


def test_new_games_use_rules_version_2_and_unknown_versions_are_refused():
    state = new(1)
    assert state["rules_version"] == ENGINE.rules_version == 2
    assert ENGINE.from_json(ENGINE.to_json(state)) == state
    with pytest.raises(ValueError):
        ENGINE.from_json({**ENGINE.to_json(state), "rules_version": 3})
