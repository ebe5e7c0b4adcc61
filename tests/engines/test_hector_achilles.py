"""Hector and Achilles rules, part 1: components, set-up, the opening, individual rounds and the fate phase.

One test per rule of the digest / rulebook; positions are hand-built with the support helpers.
"""

from __future__ import annotations

import collections

import pytest

from engines import ENGINES, IllegalAction
from engines.hector_achilles.data import COLOURS, HEROES, KINDS, TILES, TILES_BY_VERSION, TROOPS
from tests.engines.test_hector_achilles_support import (
    ENGINE,
    act,
    arrange,
    check_conservation,
    event,
    facing,
    hero,
    hero_order,
    new,
    position,
    set_deck,
    troop,
    types,
)

# ------------------------------------------------------------------------------------------- components


def test_engine_is_registered_under_its_key():
    assert ENGINES["hector-achilles"] is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)


def test_each_side_has_48_troops_six_colours_two_of_each_strength():
    for side in "AT":
        cards = [t for t in TROOPS.values() if t["side"] == side]
        assert len(cards) == 48
        count = collections.Counter((t["colour"], t["strength"]) for t in cards)
        assert set(count.values()) == {2}
        assert {c for c, _ in count} == set(COLOURS)
        assert {s for _, s in count} == {1, 2, 3, 4}
    assert [KINDS[s]["key"] for s in (1, 2, 3, 4)] == ["slinger", "archer", "spearman", "hoplite"]
    assert [COLOURS[c]["letter"] for c in COLOURS] == ["R", "G", "B", "Y", "P", "N"]


def test_card_ids_are_distinctive():
    assert troop(0, "red", 3, "b") in TROOPS
    assert TROOPS["HA-A-red-3b"] == {"id": "HA-A-red-3b", "side": "A", "colour": "red", "strength": 3,
                                     "kind": "spearman"}
    assert "HA-T-Hector" in HEROES
    assert all(i.startswith("HA-") for i in [*TROOPS, *HEROES, *TILES])


def test_heroes_one_per_colour_with_the_rulebook_values():
    for side in "AT":
        heroes = [h for h in HEROES.values() if h["side"] == side]
        assert sorted(h["colour"] for h in heroes) == sorted(COLOURS)
        assert all(3 <= h["value"] <= 6 for h in heroes)
    assert (HEROES["HA-A-Aias"]["colour"], HEROES["HA-A-Aias"]["value"]) == ("green", 5)
    assert (HEROES["HA-T-Acamas"]["colour"], HEROES["HA-T-Acamas"]["value"]) == ("purple", 4)
    assert {h["name"] for h in HEROES.values() if h["side"] == "T"} == {
        "Acamas", "Aeneas", "Glaucos", "Hector", "Paris", "Sarpedon"}
    assert {h["name"] for h in HEROES.values() if h["side"] == "A"} == {
        "Aias", "Achilles", "Agamemnon", "Diomedes", "Menelaos", "Odysseus"}


def test_fate_tiles_give_twelve_different_opposite_pairs():
    """Corrected digest: 12 different colour pairs face each other (yellow/blue among them), every colour on
    exactly four tiles, the four edges of a tile differ."""
    order = list(COLOURS)
    assert len(TILES) == 6
    pairs = set()
    for tile in TILES.values():
        assert len(set(tile)) == 4
        pairs |= {frozenset((tile[0], tile[2])), frozenset((tile[1], tile[3]))}
    assert len(pairs) == 12 and frozenset(("yellow", "blue")) in pairs
    assert all(sum(c in t for t in TILES.values()) == 4 for c in order)


def test_rules_version_1_keeps_its_fate_tile_layout():
    old = TILES_BY_VERSION[1]
    order = list(COLOURS)
    for i, tile in enumerate(old.values()):
        assert tile == [order[(i + k) % 6] for k in (0, 1, 3, 4)]
    assert sorted(old) == sorted(TILES) and TILES_BY_VERSION[ENGINE.rules_version] == TILES


# ------------------------------------------------------------------------------------------- set-up


def test_set_up_four_decks_of_twelve_hero_deck_and_fate_stack():
    state = new(5)
    for seat in (0, 1):
        p = state["players"][seat]
        assert [len(p["decks"][k]) for k in ("1", "2", "3", "home")] == [12, 12, 12, 12]
        assert len(p["heroes"]) == 6 and p["favour"] == 3 and p["shame"] == 0
    assert sorted(state["fate_stack"]) == sorted(TILES)
    assert state["shame_pool"] == 6
    check_conservation(state)


def test_achaeans_attack_first():
    state = new(3)
    assert ENGINE.to_act(state) == [0]
    assert state["battle"]["attacker"] == 0
    assert ENGINE.view(state, None)["decision"] == {"seat": 0, "kind": "take_vanguard"}


def test_shuffle_depends_on_the_seed_only():
    assert new(1) == new(1)
    assert new(1)["players"][0]["decks"] != new(2)["players"][0]["decks"]


def test_options_are_rejected():
    with pytest.raises(ValueError, match="no options"):
        ENGINE.new_game(2, 1, {"variant": "x"})
    with pytest.raises(ValueError, match="2 players"):
        ENGINE.new_game(3, 1, {})
    assert ENGINE.new_game(2, 1, None) == ENGINE.new_game(2, 1, {})


# ------------------------------------------------------------------------------------------- opening


def test_vanguard_may_come_from_any_non_empty_deck():
    state = new()
    set_deck(state, 0, "3", [])
    assert ENGINE.legal_actions(state, 0) == [{"type": "take_vanguard", "deck": d} for d in ("1", "2", "home")]
    with pytest.raises(IllegalAction, match="no cards"):
        act(state, 0, {"type": "take_vanguard", "deck": "3"})


def test_vanguard_strength_names_the_active_deck_of_both_players():
    state = new()
    arrange(state, 0, home=[troop(0, "red", 2)])
    events = act(state, 0, {"type": "take_vanguard", "deck": "home"})
    assert event(events, "vanguard_taken")["card"] == {"colour": "red", "strength": 2, "kind": "archer"}
    assert event(events, "active_decks") == {"type": "active_decks", "called": "2", "decks": ["2", "2"]}
    assert len(state["players"][0]["decks"]["home"]) == 11
    assert state["phase"] == "orient"
    assert event(events, "fate_revealed")["colours"] == TILES[state["battle"]["tile"]]


def test_a_four_lets_the_attacker_choose_the_deck():
    state = new()
    arrange(state, 0, d1=[troop(0, "blue", 4)])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    assert state["phase"] == "choose_active"
    assert ENGINE.legal_actions(state, 0) == [{"type": "choose_active", "deck": d} for d in ("1", "2", "3", "home")]
    events = act(state, 0, {"type": "choose_active", "deck": "home"})
    assert event(events, "active_decks")["decks"] == ["home", "home"]


def test_a_deck_that_is_gone_means_the_home_deck():
    state = new()
    # the defender's deck 3 is eliminated; the attacker empties his own deck 3 by taking its last card
    p1 = state["players"][1]
    p1["decks"]["home"] += p1["decks"]["3"]
    p1["decks"]["3"] = []
    p1["eliminated"].append("3")
    set_deck(state, 0, "3", [troop(0, "green", 3)])
    act(state, 0, {"type": "take_vanguard", "deck": "3"})
    assert state["battle"]["active"] == ["home", "home"]
    check_conservation(state)


def test_attacker_lays_the_fate_tile_and_the_opposite_edge_faces_the_defender():
    state = new()
    arrange(state, 0, d1=[troop(0, "red", 1)])
    state["fate_stack"].remove("HA-FATE-1")
    state["fate_stack"].insert(0, "HA-FATE-1")  # red, yellow, green, brown clockwise
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    assert ENGINE.legal_actions(state, 0) == [{"type": "orient_fate", "colour": c}
                                              for c in ("red", "yellow", "green", "brown")]
    events = act(state, 0, {"type": "orient_fate", "colour": "yellow"})
    assert event(events, "fate_oriented")["facing"] == ["yellow", "brown"]


def test_trojan_attacker_orients_the_tile_toward_himself():
    state = new()
    state["battle"]["attacker"] = 1
    arrange(state, 1, d2=[troop(1, "red", 2)])
    state["fate_stack"].remove("HA-FATE-2")
    state["fate_stack"].insert(0, "HA-FATE-2")  # green, blue, purple, red
    act(state, 1, {"type": "take_vanguard", "deck": "2"})
    act(state, 1, {"type": "orient_fate", "colour": "blue"})
    assert facing(state) == ["red", "blue"]
    assert ENGINE.view(state, 1)["scoring_colours"][0] == "blue"


def test_defender_vanguard_and_both_hands_are_drawn_automatically():
    state = new()
    a_cards = [troop(0, "red", 2), *(troop(0, c, 1) for c in ("green", "blue", "yellow", "purple"))]
    t_cards = [troop(1, c, 3) for c in ("red", "green", "blue", "yellow", "purple")]
    arrange(state, 0, d2=a_cards)
    arrange(state, 1, d2=t_cards)
    hero_order(state, 0, [hero(0, "Achilles")])
    hero_order(state, 1, [hero(1, "Paris")])
    act(state, 0, {"type": "take_vanguard", "deck": "2"})
    events = act(state, 0, ENGINE.legal_actions(state, 0)[0])
    b = state["battle"]
    assert event(events, "vanguard_revealed") == {"type": "vanguard_revealed", "seat": 1,
                                                  "card": {"colour": "red", "strength": 3, "kind": "spearman"}}
    assert b["played"][1][0]["id"] == t_cards[0] and b["played"][1][0]["vanguard"]
    assert b["hand"][0] == a_cards[1:] and b["hand"][1] == t_cards[1:]
    assert b["hand_hero"] == [hero(0, "Achilles"), hero(1, "Paris")]
    assert [len(state["players"][s]["decks"]["2"]) for s in (0, 1)] == [7, 7]
    assert ENGINE.to_act(state) == [0] and state["phase"] == "turn" and b["round"] == 1
    check_conservation(state)


def test_draws_continue_from_the_home_deck_when_the_active_deck_runs_out():
    state = new()
    set_deck(state, 1, "1", [troop(1, "red", 1), troop(1, "red", 2)])
    arrange(state, 1, home=[troop(1, "blue", 4), troop(1, "blue", 3), troop(1, "blue", 2)])
    arrange(state, 0, d1=[troop(0, "red", 1)])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    assert state["battle"]["active"][1] == "1"
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    b = state["battle"]
    assert b["played"][1][0]["id"] == troop(1, "red", 1)
    assert b["hand"][1] == [troop(1, "red", 2), troop(1, "blue", 4), troop(1, "blue", 3), troop(1, "blue", 2)]


def test_no_hero_is_drawn_from_an_empty_hero_deck():
    state = new()
    p = state["players"][1]
    p["lost_heroes"], p["heroes"] = p["heroes"], []
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    if state["phase"] == "choose_active":
        act(state, 0, {"type": "choose_active", "deck": "1"})
    events = act(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state["battle"]["hand_hero"][1] is None
    assert {"type": "hand_drawn", "seat": 1, "troops": 4, "hero": False} in events
    assert ENGINE.view(state, None)["sides"][1]["has_hero"] is False


# ------------------------------------------------------------------------------------------- individual rounds

HAND0 = [troop(0, "red", 4), troop(0, "blue", 2), troop(0, "yellow", 1), troop(0, "green", 3)]
HAND1 = [troop(1, "red", 4), troop(1, "blue", 2), troop(1, "yellow", 1), troop(1, "green", 3)]


def _round_one(**kw) -> dict:
    state = new()
    args = {"rnd": 1, "played": ([troop(0, "purple", 2)], [troop(1, "purple", 2)]),
            "hand": (HAND0, HAND1), "hand_hero": (hero(0, "Aias"), hero(1, "Hector"))}
    args.update(kw)
    return position(state, **args)


def test_optional_step_offers_the_optional_actions_and_the_plays():
    state = _round_one()
    legal = ENGINE.legal_actions(state, 0)
    assert collections.Counter(a["type"] for a in legal) == {
        "swap_card": 4, "swap_hero": 1, "play_hero": 1, "retreat": 1, "play": 4}
    assert legal[-4:] == [{"type": "play", "card": c} for c in HAND0]
    assert ENGINE.view(state, 0)["decision"] == {"seat": 0, "kind": "optional_or_play"}


def test_playing_directly_skips_the_optional_action_and_passes_the_turn():
    state = _round_one()
    events = act(state, 0, {"type": "play", "card": HAND0[0]})
    assert event(events, "card_played") == {"type": "card_played", "seat": 0, "slot": 1,
                                            "card": {"colour": "red", "strength": 4, "kind": "hoplite"}}
    assert ENGINE.to_act(state) == [1] and state["battle"]["step"] == "optional"


def test_only_one_optional_action_per_round():
    state = _round_one()
    act(state, 0, {"type": "swap_hero"})
    assert {a["type"] for a in ENGINE.legal_actions(state, 0)} == {"play"}
    assert ENGINE.view(state, 0)["decision"]["kind"] == "play"
    with pytest.raises(IllegalAction, match="already taken an optional action"):
        act(state, 0, {"type": "retreat"})


def test_a_single_legal_play_is_still_the_players_choice():
    state = _round_one(rnd=4, hand=([HAND0[0]], [HAND1[0]]),
                       played=([troop(0, "purple", 2), *HAND0[1:]], [troop(1, "purple", 2), *HAND1[1:]]))
    act(state, 0, {"type": "swap_hero"})
    assert ENGINE.legal_actions(state, 0) == [{"type": "play", "card": HAND0[0]}]
    assert ENGINE.to_act(state) == [0]  # nothing was played for him


def test_the_played_card_must_be_in_hand():
    state = _round_one()
    with pytest.raises(IllegalAction, match="not in your hand"):
        act(state, 0, {"type": "play", "card": HAND1[0]})


def test_swap_card_removes_the_card_for_good_and_draws_from_the_active_deck():
    state = _round_one()
    top = state["players"][0]["decks"]["1"][0]
    events = act(state, 0, {"type": "swap_card", "card": HAND0[1]})
    assert event(events, "card_swapped") == {"type": "card_swapped", "seat": 0, "deck": "1"}
    hand = state["battle"]["hand"][0]
    assert HAND0[1] not in hand and top in hand and len(hand) == 4
    assert state["players"][0]["removed"] == [HAND0[1]]
    check_conservation(state)


def test_swap_card_draws_from_home_when_the_active_deck_is_empty_and_is_illegal_when_both_are():
    state = _round_one()
    set_deck(state, 0, "1", [])
    home_top = state["players"][0]["decks"]["home"][0]
    act(state, 0, {"type": "swap_card", "card": HAND0[1]})
    assert home_top in state["battle"]["hand"][0]
    state = _round_one()
    p = state["players"][0]
    p["decks"]["2"] += p["decks"]["1"] + p["decks"]["home"]
    p["decks"]["1"], p["decks"]["home"] = [], []
    assert not any(a["type"] == "swap_card" for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="both empty"):
        act(state, 0, {"type": "swap_card", "card": HAND0[1]})


def test_swap_hero_puts_the_hero_under_the_hero_deck_and_draws_the_top():
    state = _round_one()
    top = state["players"][0]["heroes"][0]
    act(state, 0, {"type": "swap_hero"})
    assert state["battle"]["hand_hero"][0] == top
    assert state["players"][0]["heroes"][-1] == hero(0, "Aias")


def test_swap_hero_needs_a_hero_in_hand_and_a_hero_deck():
    state = _round_one(hand_hero=(None, hero(1, "Hector")))
    with pytest.raises(IllegalAction, match="no hero in hand"):
        act(state, 0, {"type": "swap_hero"})
    state = _round_one()
    p = state["players"][0]
    p["lost_heroes"], p["heroes"] = p["heroes"], []
    with pytest.raises(IllegalAction, match="hero deck is empty"):
        act(state, 0, {"type": "swap_hero"})


def test_play_hero_covers_a_played_card_which_stops_counting():
    state = _round_one()
    vanguard = troop(0, "purple", 2)
    assert [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "play_hero"] == [
        {"type": "play_hero", "on": vanguard}]
    assert ENGINE.view(state, None)["sides"][0]["total"] == 2
    events = act(state, 0, {"type": "play_hero", "on": vanguard})
    assert event(events, "hero_played")["hero"] == {"name": "Aias", "colour": "green", "value": 5}
    side = ENGINE.view(state, None)["sides"][0]
    assert side["total"] == 5  # Aias 5; the covered purple 2 no longer counts
    assert side["played"][0]["covered"] and side["hero"]["on"] == 0
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "play_hero", "on": troop(1, "purple", 2)})


def test_hero_goes_only_on_an_own_uncovered_played_troop():
    state = _round_one()
    with pytest.raises(IllegalAction, match="own played troop"):
        act(state, 0, {"type": "play_hero", "on": troop(1, "purple", 2)})
    with pytest.raises(IllegalAction, match="own played troop"):
        act(state, 0, {"type": "play_hero", "on": HAND0[0]})


def test_reinforce_only_after_the_hero_is_played():
    state = _round_one()
    with pytest.raises(IllegalAction, match="only reinforce after your hero"):
        act(state, 0, {"type": "reinforce", "on": troop(0, "purple", 2)})


def test_reinforce_adds_one_on_an_uncovered_card_without_token():
    played = [troop(0, "purple", 2), troop(0, "red", 1), troop(0, "blue", 1)]
    state = _round_one(rnd=3, played=(played, [troop(1, "purple", 2)]), hand_hero=(None, None),
                       hero_on=((hero(0, "Aias"), 0), None), tokens=([2], []))
    legal = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "reinforce"]
    assert legal == [{"type": "reinforce", "on": played[1]}]  # slot 0 is covered, slot 2 has a token
    before = ENGINE.view(state, None)["sides"][0]["total"]
    act(state, 0, {"type": "reinforce", "on": played[1]})
    side = ENGINE.view(state, None)["sides"][0]
    assert side["total"] == before + 1 and side["favour"] == 1 and side["played"][1]["token"]
    with pytest.raises(IllegalAction):
        act(state, 0, {"type": "reinforce", "on": played[2]})


def test_reinforce_needs_an_unplaced_token():
    played = [troop(0, "purple", 2), troop(0, "red", 1)]
    state = _round_one(rnd=3, played=(played, [troop(1, "purple", 2)]), hand_hero=(None, None),
                       hero_on=((hero(0, "Aias"), 0), None))
    state["players"][0]["favour"] = 0
    state["players"][0]["favour_lost"] = 3
    with pytest.raises(IllegalAction, match="no Divine Favour"):
        act(state, 0, {"type": "reinforce", "on": played[1]})


def test_a_player_without_troops_in_hand_passes():
    state = _round_one(hand=((), HAND1))
    legal = ENGINE.legal_actions(state, 0)
    assert {"type": "pass"} in legal and not any(a["type"] == "play" for a in legal)
    act(state, 0, {"type": "pass"})
    assert ENGINE.to_act(state) == [1]
    with pytest.raises(IllegalAction, match="must play a troop"):
        act(state, 1, {"type": "pass"})


# ------------------------------------------------------------------------------------------- fate phase


def test_stronger_side_must_turn_the_fate_tile():
    state = _round_one(turn=1)  # attacker already played this round
    events = act(state, 1, {"type": "play", "card": HAND1[0]})  # Trojans 2 + 4 = 6 against 2
    assert event(events, "fate_phase") == {"type": "fate_phase", "round": 1, "totals": [2, 6], "rotator": 1}
    assert ENGINE.to_act(state) == [1]
    assert ENGINE.legal_actions(state, 1) == [{"type": "rotate_fate", "direction": "cw"},
                                              {"type": "rotate_fate", "direction": "ccw"}]
    with pytest.raises(IllegalAction, match="turn the fate tile"):
        act(state, 1, {"type": "retreat"})


def test_clockwise_and_counter_clockwise_turns():
    # HA-FATE-3 clockwise: blue, yellow, brown, red; yellow faces the Achaeans (bottom), brown the Trojans
    state = _round_one(turn=1, tile="HA-FATE-3", seat0_facing="yellow")
    view = ENGINE.view(state, None)["fate"]
    assert view["facing"] == ["yellow", "red"]
    assert view["after_cw"] == ["blue", "brown"] and view["after_ccw"] == ["brown", "blue"]
    act(state, 1, {"type": "play", "card": HAND1[0]})
    events = act(state, 1, {"type": "rotate_fate", "direction": "cw"})
    assert event(events, "fate_rotated")["facing"] == ["blue", "brown"]
    assert state["battle"]["round"] == 2 and ENGINE.to_act(state) == [0]


def test_equal_strength_leaves_the_tile_and_starts_the_next_round():
    state = _round_one(turn=1, played=([troop(0, "purple", 2), troop(0, "red", 2)], [troop(1, "purple", 2)]))
    before = facing(state)
    events = act(state, 1, {"type": "play", "card": HAND1[1]})  # 2 + 2 = 4 each
    assert event(events, "fate_phase")["rotator"] is None
    assert "fate_rotated" not in types(events)
    assert facing(state) == before and state["battle"]["round"] == 2 and ENGINE.to_act(state) == [0]


def test_fate_strength_counts_tokens_and_hero_and_ignores_colours():
    played = [troop(0, "purple", 2), troop(0, "red", 1), troop(0, "blue", 3)]
    state = _round_one(rnd=2, turn=1, played=(played, [troop(1, "purple", 2), troop(1, "red", 3)]),
                       hand_hero=(None, hero(1, "Hector")), hero_on=((hero(0, "Menelaos"), 1), None),
                       tokens=([2], []))
    events = act(state, 1, {"type": "play", "card": HAND1[2]})
    # Achaeans: purple 2 + (red 1 covered) + blue 3+1 + Menelaos 3 = 9; Trojans 2 + 3 + 1 = 6
    assert event(events, "fate_phase")["totals"] == [9, 6]


def test_illegal_actions_explain_themselves_and_change_nothing():
    state = _round_one()
    before = ENGINE.to_json(state)
    cases = [
        (1, {"type": "play", "card": HAND1[0]}, "not your turn"),
        (0, {"type": "take_vanguard", "deck": "1"}, "battle is under way"),
        (0, {"type": "rotate_fate", "direction": "cw"}, "battle is under way"),
        (0, {"type": "charge"}, "not an action of Hector and Achilles"),
        (0, {"type": "swap_card", "card": HAND1[0]}, "not in your hand"),
    ]
    for seat, action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            act(state, seat, action)
    assert ENGINE.to_json(state) == before
    fresh = new()
    with pytest.raises(IllegalAction, match="First take your vanguard"):
        act(fresh, 0, {"type": "play", "card": HAND0[0]})
    with pytest.raises(IllegalAction, match="decks are 1, 2, 3 and home"):
        act(fresh, 0, {"type": "take_vanguard", "deck": "4"})
