"""Troja rule tests: phases, challenges and fights, windows, glory, disgrace, the win, the round end."""

from __future__ import annotations

import random

import pytest

from ai import troja as troja_ai
from engines import IllegalAction
from engines.troja import HEROES, PHYSICAL
from tests.engines.test_troja_support import (  # noqa: F401 - pinned_heroes is a fixture
    E,
    act,
    attach,
    challenge,
    give,
    of,
    pass_all,
    pinned_heroes,
    roamer,
    stack,
    table,
)

# ------------------------------------------------------------------------------------------- setup, options

def test_new_game_heroes_glory_wrath_and_first_draw():
    s = E.new_game(3, 5)
    heroes = [p["hero"] for p in s["players"]]
    assert len(set(heroes)) == 3 and all(h in HEROES for h in heroes)
    assert all(p["gp"] == 12 and p["wrath"] == 2 for p in s["players"])
    assert all(len(p["hand"]) == 3 for p in s["players"])  # round 1 draw phase: 3 cards each
    assert s["phase"] == "camp" and E.to_act(s) == [s["first"]]
    assert len(s["deck"]) == 84 - 9 - len(s["discard"])


def _rounds_of_firsts(s: dict, count: int) -> list[int]:
    """Play ``count`` empty rounds; the first seat of each following round."""
    out = []
    for _ in range(count):
        for seat in (s["turn"], (s["turn"] + 1) % 3, (s["turn"] + 2) % 3):
            act(s, seat, {"type": "end_turn"})
        out.append(s["first"])
        assert E.to_act(s) == [s["first"]]  # camp starts with him too
        while s["step"] == "camp":
            act(s, E.to_act(s)[0], {"type": "done"})
        for p in s["players"]:
            s["deck"].extend(p["hand"])
            p["hand"] = []
        assert s["turn"] == s["first"]
    return out


def test_the_first_seat_is_fixed_by_default_as_in_the_book():
    """Book §4: the hero with the highest POWER begins, then clockwise: the same order every round."""
    s = table(["achilles", "nestor", "ajax"])
    assert s["options"]["rotate_first"] is False
    assert _rounds_of_firsts(s, 3) == [0, 0, 0]


def test_the_first_seat_passes_clockwise_each_round_with_the_rotation_option():
    s = table(["achilles", "nestor", "ajax"])
    s["options"]["rotate_first"] = True
    assert _rounds_of_firsts(s, 3) == [1, 2, 0]
    with pytest.raises(ValueError, match="rotate_first"):
        E.new_game(2, 1, {"rotate_first": 1})
    assert E.new_game(2, 1, {"rotate_first": True})["options"]["rotate_first"] is True


@pytest.mark.parametrize("seed", range(12))
def test_the_hero_with_the_highest_power_starts(seed):
    s = E.new_game(4, seed)
    powers = [HEROES[p["hero"]]["power"] for p in s["players"]]
    assert powers[s["first"]] == max(powers)


def test_options_are_validated():
    assert E.new_game(2, 1, {"max_rounds": 10})["options"] == {"max_rounds": 10, "rotate_first": False}
    with pytest.raises(ValueError, match="Unknown option"):
        E.new_game(2, 1, {"speed": 3})
    with pytest.raises(ValueError, match="max_rounds"):
        E.new_game(2, 1, {"max_rounds": 2})
    with pytest.raises(ValueError, match="max_rounds"):
        E.new_game(2, 1, {"max_rounds": "10"})
    assert E.new_game(2, 1, {"max_rounds": 0})["options"]["max_rounds"] == 0  # no limit: the book's game
    with pytest.raises(ValueError, match="or 0: no limit"):
        E.new_game(2, 1, {"max_rounds": -1})
    with pytest.raises(ValueError, match="2 to 4"):
        E.new_game(5, 1)


# ----------------------------------------------------------------------------------------- draw and camp

def test_draw_phase_draws_three_but_never_above_six():
    s = table(["achilles", "nestor"])
    give(s, 0, "spearmen", "archers", "chariots", "lycians", "thracians")  # 5 cards
    give(s, 1, "spearmen")
    s["phase"], s["step"] = "end", "discard"
    for p in s["players"]:
        p["done"] = False
    act(s, 0, {"type": "done"})
    act(s, 1, {"type": "done"})
    assert s["phase"] == "camp" and s["round"] == 2
    assert len(s["players"][0]["hand"]) == 6  # drew only 1
    assert len(s["players"][1]["hand"]) == 4  # drew 3


def test_camp_attach_pays_glory_in_turn_order():
    s = E.new_game(2, 3)
    first = s["first"]
    other = 1 - first
    spear, = give(s, first, "ash_spear")
    hop, = give(s, other, "hoplites")
    assert E.to_act(s) == [first]
    events = act(s, first, {"type": "attach", "card": spear})
    assert s["players"][first]["gp"] == 11 and spear in s["players"][first]["attached"]
    assert of(events, "attach")[0]["cost"] == 1
    act(s, first, {"type": "done"})
    assert E.to_act(s) == [other]
    act(s, other, {"type": "attach", "card": hop})
    act(s, other, {"type": "done"})
    assert s["phase"] == "battle" and s["turn"] == first


def test_camp_cannot_pay_into_disgrace_and_only_items_attach():
    s = E.new_game(2, 3)
    first = s["first"]
    s["players"][first]["gp"] = 3
    s["players"][first]["hero"] = "nestor"  # no discount on units
    s["deck"].extend(s["players"][first]["hand"])
    s["players"][first]["hand"] = []
    armour, = give(s, first, "hephaestus_armour")  # costs 4
    myrm, = give(s, first, "myrmidons")  # costs 3: would leave 0
    unit, = give(s, first, "spearmen")
    aegis, = give(s, first, "aegis")
    legal = E.legal_actions(s, first)
    assert legal == [{"type": "done"}]
    with pytest.raises(IllegalAction, match="more than 4 Glory"):
        act(s, first, {"type": "attach", "card": armour})
    with pytest.raises(IllegalAction, match="Only items"):
        act(s, first, {"type": "attach", "card": unit})
    with pytest.raises(IllegalAction, match="not be played in the camp"):
        act(s, first, {"type": "intervene", "card": aegis, "side": "defender"})
    assert myrm in s["players"][first]["hand"]


# ------------------------------------------------------------------------------------------ challenges

def test_units_and_a_trojan_hero_make_one_tactics_battle_with_one_fate_card_per_side():
    s = table(["nestor", "odysseus"])
    ids = give(s, 0, "spearmen", "chariots", "hector")
    stack(s, 1, 6)
    events = challenge(s, 0, 1, *ids)
    assert E.to_act(s) == [1] and s["step"] == "join"
    events += pass_all(s)
    fights = of(events, "fight")
    assert len(fights) == 1 and fights[0]["kind"] == "tactics"
    fates = of(events, "fate")
    assert [(f["seat"], f["face"]) for f in fates] == [(0, 1), (1, 6)]
    result = of(events, "fight_result")[0]
    assert (result["attacker_total"], result["defender_total"]) == (3 + 4 + 6 + 1, 6 + 6)
    assert result["winner"] == "attacker"
    assert s["players"][1]["gp"] == 12 - 3  # Odysseus' GLORY
    # the units are discarded, Hector stays in front of Odysseus
    assert [r["card"] for r in s["players"][1]["roamers"]] == [ids[2]]
    assert ids[0] in s["discard"] and ids[1] in s["discard"]
    assert s["step"] == "main" and E.to_act(s) == [0]


def test_beating_a_combined_challenge_gains_the_summed_glory():
    s = table(["nestor", "odysseus"])
    ids = give(s, 0, "spearmen", "archers")  # TACTICS 3+2, GLORY 1+1
    stack(s, 1, 6)
    events = challenge(s, 0, 1, *ids) + pass_all(s)
    assert of(events, "fight_result")[0]["winner"] == "defender"
    assert s["players"][1]["gp"] == 14


def test_lone_trojan_heroes_duel_separately_in_the_order_played():
    s = table(["achilles", "nestor"])
    hector, paris = give(s, 0, "hector", "paris")
    stack(s, 1, 6, 1, 6)
    events = challenge(s, 0, 1, hector, paris) + pass_all(s)
    fights = of(events, "fight")
    assert [f["kind"] for f in fights] == ["strength", "strength"]
    assert [f["cards"] for f in fights] == [["hector"], ["paris"]]
    assert len(of(events, "fate")) == 4


def test_a_beast_always_fights_alone():
    s = table(["odysseus", "nestor"])
    ids = give(s, 0, "spearmen", "chimera")
    events = challenge(s, 0, 1, *ids) + pass_all(s)
    fights = of(events, "fight")
    assert [(f["kind"], f["cards"]) for f in fights] == [("tactics", ["spearmen"]), ("strength", ["chimera"])]


def test_a_beast_needs_power_from_the_hero_who_plays_it():
    s = table(["ajax", "nestor"])  # Ajax: POWER 1
    hydra, = give(s, 0, "hydra")  # POWER 3
    boar, = give(s, 0, "boar")  # POWER 1
    cards = {a.get("card") for a in E.legal_actions(s, 0)}
    assert boar in cards and hydra not in cards
    with pytest.raises(IllegalAction, match="needs POWER 3"):
        act(s, 0, {"type": "challenge", "card": hydra, "target": 1})
    # the Palladium raises POWER
    attach(s, 0, "palladium")
    act(s, 0, {"type": "challenge", "card": hydra, "target": 1})


def test_self_challenge_fate_is_drawn_by_the_player_on_the_left():
    s = table(["achilles", "nestor", "ajax"], turn=1)
    unit, = give(s, 1, "spearmen")
    events = challenge(s, 1, 1, unit) + pass_all(s)
    fates = of(events, "fate")
    assert [f["seat"] for f in fates] == [2, 1]


def test_duel_or_self_challenge_only_once_per_turn():
    s = table(["achilles", "nestor"])
    u1, u2 = give(s, 0, "spearmen", "archers")
    stack(s, 3, 3)
    events = act(s, 0, {"type": "duel", "target": 1}) + pass_all(s)
    assert of(events, "fight")[0]["duel"]
    legal = E.legal_actions(s, 0)
    assert not any(a["type"] == "duel" for a in legal)
    assert not any(a["type"] == "challenge" and a["target"] == 0 for a in legal)
    assert any(a["type"] == "challenge" and a["target"] == 1 for a in legal)  # others: any number of times
    with pytest.raises(IllegalAction, match="once per turn"):
        act(s, 0, {"type": "challenge", "card": u1, "target": 0})


def test_duel_winner_gains_three_and_loser_loses_own_glory():
    s = table(["menelaus", "nestor"])  # STRENGTH 6 vs 3
    stack(s, 2, 2)
    events = act(s, 0, {"type": "duel", "target": 1}) + pass_all(s)
    assert [f["seat"] for f in of(events, "fate")] == [0, 1]  # the challenger draws first
    assert s["players"][0]["gp"] == 15 and s["players"][1]["gp"] == 10


def test_tie_does_nothing_but_units_are_discarded_and_trojans_stay():
    s = table(["nestor", "odysseus"])
    ids = give(s, 0, "spearmen", "sarpedon")  # 3 + 5 + 2 (with units) = 10 vs Odysseus 6
    stack(s, 1, 5)
    events = challenge(s, 0, 1, *ids) + pass_all(s)
    result = of(events, "fight_result")[0]
    assert result["winner"] is None and result["attacker_total"] == result["defender_total"] == 11
    assert [p["gp"] for p in s["players"]] == [12, 12]
    assert ids[0] in s["discard"]
    assert [r["card"] for r in s["players"][1]["roamers"]] == [ids[1]]


# ------------------------------------------------------------------------------------------------ joining

def test_join_window_each_other_player_adds_one_card_target_only_modifiers():
    s = table(["achilles", "nestor", "ajax"])
    hector, = give(s, 0, "hector")
    paris_1, phalanx_1 = give(s, 1, "deiphobos", "phalanx")
    paris_2, = give(s, 2, "paris")
    act(s, 0, {"type": "challenge", "card": hector, "target": 1})
    act(s, 0, {"type": "launch"})
    assert E.to_act(s) == [1, 2]
    # the target may not add challenges, but may add a modifier that fits
    legal1 = E.legal_actions(s, 1)
    assert {"type": "add", "card": paris_1} not in legal1
    assert {"type": "add", "card": phalanx_1} not in legal1  # Phalanx is for battles; this is a duel
    with pytest.raises(IllegalAction, match="own hero"):
        act(s, 1, {"type": "add", "card": paris_1})
    act(s, 1, {"type": "pass"})
    act(s, 2, {"type": "add", "card": paris_2})
    # an addition reopens the window for those who passed; seat 2 has used its one card
    assert E.to_act(s) == [1]
    act(s, 1, {"type": "pass"})
    assert s["step"] == "fate"
    assert [e["card"] for e in s["assault"]["cards"]] == [hector, paris_2]


def test_joined_cards_are_ordered_by_turn_order_from_the_challenger():
    s = table(["achilles", "nestor", "ajax", "odysseus"])
    hector, = give(s, 0, "hector")
    paris, = give(s, 1, "paris")
    deiph, = give(s, 3, "deiphobos")
    act(s, 0, {"type": "challenge", "card": hector, "target": 2})
    act(s, 0, {"type": "launch"})
    act(s, 3, {"type": "add", "card": deiph})  # seat 3 decides first ...
    act(s, 1, {"type": "add", "card": paris})  # ... but seat 1 sits earlier in turn order
    act(s, 2, {"type": "pass"})
    assert [e["card"] for e in s["assault"]["cards"]] == [hector, paris, deiph]
    assert [f["cards"] for f in E.view(s, None)["assault"]["fights"]] == [[hector], [paris], [deiph]]


def test_a_joined_unit_turns_a_lone_trojan_hero_into_a_battle():
    s = table(["achilles", "nestor", "ajax"])
    hector, = give(s, 0, "hector")
    unit, = give(s, 2, "amazons")
    phalanx, = give(s, 1, "phalanx")
    act(s, 0, {"type": "challenge", "card": hector, "target": 1})
    act(s, 0, {"type": "launch"})
    act(s, 2, {"type": "add", "card": unit})
    stack(s, 3, 3)
    # now it is a battle, so the target's Phalanx fits
    events = act(s, 1, {"type": "add", "card": phalanx})
    events += pass_all(s)
    result = of(events, "fight_result")[0]
    assert of(events, "fight")[0]["kind"] == "tactics"
    assert result["attacker_total"] == 6 + 5 + 3 and result["defender_total"] == 7 + 3 + 3


# -------------------------------------------------------------------------------------- roaming attackers

def test_undefeated_trojans_move_clockwise_and_attack_at_the_next_turn_start_in_play_order():
    s = table(["achilles", "nestor", "ajax"])
    s["options"]["rotate_first"] = True
    hector, = give(s, 0, "hector")
    boar, = give(s, 0, "boar")
    stack(s, 6, 1)
    challenge(s, 0, 1, hector)
    pass_all(s)  # Hector beats Nestor and stays
    stack(s, 6, 1)
    challenge(s, 0, 1, boar)
    pass_all(s)
    assert [r["card"] for r in s["players"][1]["roamers"]] == [hector, boar]
    act(s, 0, {"type": "end_turn"})
    # placed this round: they do not attack Nestor at his turn start
    assert s["turn"] == 1 and s["step"] == "main"
    act(s, 1, {"type": "end_turn"})
    act(s, 2, {"type": "end_turn"})
    assert s["phase"] == "camp"  # nobody held a card to discard; the end phase moved them on
    assert [r["card"] for r in s["players"][2]["roamers"]] == [hector, boar]
    assert all(r["arrived"] for r in s["players"][2]["roamers"])
    while s["step"] == "camp":
        act(s, E.to_act(s)[0], {"type": "done"})
    assert s["first"] == 1  # the first seat passes clockwise each round (the option)
    act(s, 1, {"type": "end_turn"})
    # seat 2's turn starts with a window, then Hector attacks, then the boar
    assert s["turn"] == 2 and s["step"] == "start" and E.to_act(s) == [0, 1, 2]
    stack(s, 1, 6, 1, 6)
    events = pass_all(s)
    assert [e["card"] for e in of(events, "roam_attack")] == ["hector", "boar"]
    # the events say which stat each attack is fought on, and that its fight is the roaming attack's
    assert [e["kind"] for e in of(events, "roam_attack")] == ["strength", "strength"]
    assert [e["roaming"] for e in of(events, "fight")] == [True, True]
    # the roaming challenge's fate card is drawn by the player who first played it
    assert of(events, "fate")[0]["seat"] == 0
    results = of(events, "fight_result")
    assert [(r["attacker_total"], r["defender_total"]) for r in results] == [(8 + 1, 7 + 6), (6 + 2 + 1, 7 + 6)]
    assert s["step"] == "main" and not s["players"][2]["roamers"]  # Ajax beat both
    assert s["players"][2]["gp"] == 12 + 5 + 2


def test_a_trojan_hero_without_strength_fights_alone_on_tactics():
    # none of our Trojan heroes lacks STRENGTH, so a lone unit shows the same rule for cards without it
    s = table(["achilles", "nestor"])
    unit, = give(s, 0, "amazons")
    events = challenge(s, 0, 1, unit) + pass_all(s)
    assert of(events, "fight")[0]["kind"] == "tactics"


# --------------------------------------------------------------------------------------- glory, disgrace, win

def test_disgrace_at_zero_new_hero_keeps_hand_items_back_to_deck_turn_ends():
    s = table(["nestor", "achilles"], gp=[2, 12])
    unit, = give(s, 0, "spearmen")
    kept, = give(s, 0, "aegis")
    spear, = attach(s, 0, "ash_spear")
    s["players"][0]["wrath"] = 0
    stack(s, 6, 1)  # the unit: 3 + 6 = 9, Nestor: 7 + 1 = 8
    events = challenge(s, 0, 0, unit) + pass_all(s)
    p = s["players"][0]
    assert of(events, "disgrace")[0]["old"] == "nestor"
    assert p["hero"] != "nestor" and p["hero"] in HEROES and p["hero"] != "achilles"
    assert p["gp"] == 12 and p["wrath"] == 2 and p["attached"] == [] and p["hand"] == [kept]
    assert spear in s["deck"]
    assert "nestor" in s["aside"]
    assert s["turn"] == 1  # his turn ended


def test_reaching_24_wins_at_once_even_in_another_players_turn():
    s = table(["achilles", "odysseus"], gp=[12, 22])
    ids = give(s, 0, "spearmen", "archers")
    stack(s, 1, 6)
    challenge(s, 0, 1, *ids)
    pass_all(s)
    assert E.to_act(s) == []
    result = E.result(s)
    assert result["places"] == [2, 1] and result["reason"] == "glory" and result["winner"] == 1
    assert result["scores"] == [12, 24]
    with pytest.raises(IllegalAction, match="over"):
        act(s, 0, {"type": "end_turn"})


def test_round_limit_ends_by_glory():
    s = table(["achilles", "odysseus"], gp=[15, 11])
    s["options"]["max_rounds"] = 1
    act(s, 0, {"type": "end_turn"})
    act(s, 1, {"type": "end_turn"})
    for seat in E.to_act(s):
        act(s, seat, {"type": "done"})
    assert E.result(s)["reason"] == "round_limit"
    assert E.result(s)["places"] == [1, 2]


def _quiet_rounds(s: dict, until: int) -> None:
    """Everyone does nothing (camp done, end turn, keep the cards) until round ``until`` or the end."""
    quiet = ("done", "end_turn", "pass", "launch")
    while E.result(s) is None and s["round"] < until:
        seat = E.to_act(s)[0]
        legal = E.legal_actions(s, seat)
        act(s, seat, next((a for a in legal if a["type"] in quiet), legal[0]))


def test_the_books_game_goes_past_30_rounds_and_ends_at_24_glory():
    """max_rounds 0: the book's game, no round limit. A quiet table plays round 31 and beyond; the default
    table of the same seed stops after round 30."""
    limited = E.new_game(2, 7)
    _quiet_rounds(limited, 40)
    assert E.result(limited)["reason"] == "round_limit" and limited["round"] == 30

    s = E.new_game(2, 7, {"max_rounds": 0})
    _quiet_rounds(s, 35)
    assert E.result(s) is None and s["round"] == 35
    assert E.view(s, 0)["max_rounds"] == 0
    # from here the AI plays both heroes: the game ends the book's way, at 24 Glory, in round 35 or later
    rng = random.Random(3)
    for _ in range(20_000):
        if E.result(s) is not None:
            break
        seat = E.to_act(s)[0]
        act(s, seat, troja_ai.choose(E, s, seat, rng))
    result = E.result(s)
    assert result["reason"] == "glory" and max(result["scores"]) >= 24 and s["round"] >= 35


# ------------------------------------------------------------------------------------------- wrath and windows

def test_fate_window_lists_every_seat_and_wrath_spends_a_token():
    s = table(["achilles", "nestor", "odysseus"])  # Achilles: Ares, Odysseus: Athena
    unit, = give(s, 0, "spearmen")
    stack(s, 3, 3)
    challenge(s, 0, 1, unit)
    pass_all(s, ("join",))
    assert s["step"] == "fate" and E.to_act(s) == [0, 1, 2]
    act(s, 2, {"type": "wrath", "side": "attacker"})  # Athena: +3 to the unit
    assert s["players"][2]["wrath"] == 1
    view = E.view(s, None)
    assert view["fight"]["totals"] == {"attacker": 3 + 3 + 3, "defender": 7 + 3}
    events = pass_all(s)
    assert of(events, "fight_result")[0]["winner"] == "defender"
    assert s["players"][1]["gp"] == 13


def test_wrath_is_not_offered_outside_a_fight_or_without_tokens():
    s = table(["achilles", "nestor"])
    assert not any(a["type"] == "wrath" for a in E.legal_actions(s, 0))
    unit, = give(s, 0, "spearmen")
    challenge(s, 0, 1, unit)
    pass_all(s, ("join",))
    s["players"][1]["wrath"] = 0
    E.forget(s)
    assert not any(a["type"] == "wrath" for a in E.legal_actions(s, 1))
    with pytest.raises(IllegalAction, match="no wrath tokens"):
        act(s, 1, {"type": "wrath", "side": "defender"})


def test_playable_flag_for_auto_pass():
    s = table(["achilles", "nestor"])
    unit, = give(s, 0, "spearmen")
    challenge(s, 0, 1, unit)
    # join window: Nestor holds nothing he may add
    assert E.to_act(s) == [1] and not E.playable(s, 1) and E.view(s, 1)["can_play"] is False
    give(s, 1, "shield_wall")
    assert E.playable(s, 1) and E.view(s, 1)["can_play"] is True
    pass_all(s, ("join",))
    # fate window: wrath tokens are always playable
    assert E.playable(s, 1)
    s["players"][1]["wrath"] = 0
    E.forget(s)
    assert not E.playable(s, 1)


def test_start_window_only_when_attackers_wait():
    s = table(["achilles", "nestor"])
    roamer(s, 1, "hector", by=0)
    act(s, 0, {"type": "end_turn"})
    assert s["step"] == "start" and E.to_act(s) == [0, 1]
    s2 = table(["achilles", "nestor"])
    act(s2, 0, {"type": "end_turn"})
    assert s2["step"] == "main"


# ------------------------------------------------------------------------------------------- end of round

def test_end_phase_discard_up_to_two_then_done():
    s = table(["achilles", "nestor"])
    ids = give(s, 0, "spearmen", "archers", "chariots")
    act(s, 0, {"type": "end_turn"})
    act(s, 1, {"type": "end_turn"})
    assert s["phase"] == "end" and E.to_act(s) == [0]  # Nestor holds nothing: nothing to decide
    act(s, 0, {"type": "discard", "card": ids[0]})
    assert E.to_act(s) == [0]
    act(s, 0, {"type": "discard", "card": ids[1]})
    assert s["phase"] == "camp"  # two discards end it
    assert ids[0] in s["discard"] or ids[0] in s["deck"]
    assert ids[2] in s["players"][0]["hand"]


def test_deck_reshuffles_discard_pile_when_empty():
    s = table(["achilles", "nestor"])
    s["discard"].extend(s["deck"])
    s["deck"] = []
    ids = give(s, 0, "hermes_gift")
    events = act(s, 0, {"type": "intervene", "card": ids[0]})
    assert of(events, "reshuffle") and len(s["players"][0]["hand"]) == 2
    assert s["discard"] == []


def test_view_hides_hands_and_deck_and_shows_own_hand():
    s = E.new_game(3, 2)
    v0 = E.view(s, 0)
    assert v0["hand"] == s["players"][0]["hand"]
    assert "hand" not in E.view(s, None)
    text = repr(E.view(s, 1))
    assert not any(c in text for c in s["players"][0]["hand"])
    assert not any(c in text for c in s["deck"])
    assert v0["players"][1]["hand_size"] == 3


def test_every_event_and_view_is_json_and_card_ids_are_distinct():
    assert len(PHYSICAL) == len(set(PHYSICAL))
    assert all("#" in c for c in PHYSICAL)


def test_a_resolved_fight_shows_its_cards_by_name_only():
    # its unit is discarded and may be reshuffled into the deck while the next fight is still on
    s = table(["odysseus", "nestor"])
    ids = give(s, 0, "spearmen", "chimera")
    stack(s, 1, 6)
    challenge(s, 0, 1, *ids)
    pass_all(s, ("join",))
    s["deck"], s["discard"] = [], s["deck"] + s["discard"]  # the chimera's fate draw reshuffles
    act(s, 0, {"type": "pass"})
    act(s, 1, {"type": "pass"})  # the battle is resolved, the chimera's fight begins
    view = E.view(s, None)
    done, current = view["assault"]["fights"]
    assert done["done"] and done["cards"] == [] and done["keys"] == ["spearmen"]
    assert current["cards"] == [ids[1]] and [e["card"] for e in view["assault"]["cards"]] == [ids[1]]
    assert ids[0] in s["deck"] and ids[0] not in repr(view)
