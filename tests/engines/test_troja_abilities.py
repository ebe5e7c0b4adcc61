"""One test per ability of the effect vocabulary (heroes, items, units, Trojan heroes, beasts, interventions,
events, modifiers and wrath), plus the card-set facts the data must satisfy."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.troja import HEROES, PATRONS, TYPES
from engines.troja.cards import ACTIVE_OPS, PASSIVE_OPS, load
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


def to_fate(s, seat, target, *keys, faces=(3, 3)):
    """Play these cards as a challenge, let everybody pass the join window, stop in the fate window."""
    ids = give(s, seat, *keys)
    stack(s, *faces)
    events = challenge(s, seat, target, *ids)
    events += pass_all(s, ("join",))
    assert s["step"] == "fate"
    return ids, events


def fight_view(s):
    return E.view(s, None)["fight"]


def finish(s):
    return pass_all(s)


def result_of(events):
    return of(events, "fight_result")[0]


# ---------------------------------------------------------------------------------------------- passive

def test_stat_vs_menelaus_is_stronger_against_trojan_heroes_only():
    s = table(["odysseus", "menelaus"])
    to_fate(s, 0, 1, "paris")
    assert fight_view(s)["base"] == {"attacker": 4, "defender": 6 + 2}
    s = table(["odysseus", "menelaus"])
    to_fate(s, 0, 1, "boar")
    assert fight_view(s)["base"]["defender"] == 6


def test_stat_vs_bow_of_heracles_against_beasts():
    s = table(["odysseus", "achilles"])
    attach(s, 1, "heracles_bow")
    to_fate(s, 0, 1, "boar")
    assert fight_view(s)["base"]["defender"] == 8 + 3
    s = table(["odysseus", "achilles"])
    attach(s, 1, "heracles_bow")
    to_fate(s, 0, 1, "deiphobos")
    assert fight_view(s)["base"]["defender"] == 8


def test_stat_combined_sarpedon_only_with_units():
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "sarpedon")
    assert fight_view(s)["kind"] == "strength" and fight_view(s)["base"]["attacker"] == 6
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "sarpedon", "archers")
    assert fight_view(s)["kind"] == "tactics" and fight_view(s)["base"]["attacker"] == 5 + 2 + 2


def test_stat_roaming_boar_is_stronger_when_it_attacks_at_turn_start():
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "boar")
    assert fight_view(s)["base"]["attacker"] == 6
    s = table(["odysseus", "achilles"])
    roamer(s, 1, "boar", by=0)
    act(s, 0, {"type": "end_turn"})
    pass_all(s, ("start",))
    assert fight_view(s)["roaming"] and fight_view(s)["base"]["attacker"] == 6 + 2


def test_stat_vs_patron_penthesilea_against_heroes_of_ares():
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "penthesilea")
    assert fight_view(s)["base"]["attacker"] == 7 + 2
    s = table(["odysseus", "agamemnon"])
    to_fate(s, 0, 1, "penthesilea")
    assert fight_view(s)["base"]["attacker"] == 7


def test_glory_on_win_achilles_in_duels_only():
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "paris", faces=(1, 6))
    finish(s)
    assert s["players"][1]["gp"] == 12 + 2 + 1
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "archers", faces=(1, 6))
    finish(s)
    assert s["players"][1]["gp"] == 12 + 1


def test_loss_reduction_v1_bronze_armour_but_a_defeat_costs_at_least_one():
    """Version-1 Bronze Armour (kept for games begun under rules version 1)."""
    s = table(["odysseus", "achilles"], v1=True)
    attach(s, 1, "bronze_armour_v1")
    to_fate(s, 0, 1, "amazons", faces=(6, 1))
    finish(s)
    assert s["players"][1]["gp"] == 12 - 3
    s = table(["odysseus", "nestor"], v1=True)
    attach(s, 1, "bronze_armour_v1", "bronze_armour_v1")
    to_fate(s, 0, 1, "amazons", faces=(6, 1))
    finish(s)
    assert s["players"][1]["gp"] == 12 - 1


def test_extra_loss_v1_hector_in_a_duel_but_not_in_a_battle_and_v1_chimera_always():
    s = table(["odysseus", "nestor"], v1=True)
    to_fate(s, 0, 1, "hector_v1", faces=(6, 1))
    finish(s)
    assert s["players"][1]["gp"] == 12 - 2 - 1
    s = table(["odysseus", "nestor"], v1=True)
    to_fate(s, 0, 1, "hector_v1", "spearmen", faces=(6, 1))
    finish(s)
    assert s["players"][1]["gp"] == 12 - 2
    s = table(["odysseus", "nestor"], v1=True)
    to_fate(s, 0, 1, "chimera_v1", faces=(6, 1))
    finish(s)
    assert s["players"][1]["gp"] == 12 - 2 - 1


def test_tie_wins_ajax_deiphobus_sphinx_and_both_claiming_is_a_tie():
    s = table(["odysseus", "ajax"])
    to_fate(s, 0, 1, "spearmen", "archers", faces=(3, 3))  # 5 + 3 vs 5 + 3
    assert result_of(finish(s))["winner"] == "defender"
    s = table(["odysseus", "nestor"])
    to_fate(s, 0, 1, "deiphobos", faces=(1, 4))  # 6 + 1 vs 3 + 4
    assert result_of(finish(s))["winner"] == "attacker"
    s = table(["odysseus", "ajax"])
    to_fate(s, 0, 1, "deiphobos", faces=(4, 3))  # 6 + 4 vs 7 + 3: both claim the tie
    assert result_of(finish(s))["winner"] is None
    s = table(["odysseus", "nestor"])
    to_fate(s, 0, 1, "sphinx", faces=(2, 3))  # 8 + 2 vs 7 + 3
    assert result_of(finish(s))["winner"] == "attacker"


def test_hand_limit_nestor_draws_up_to_seven():
    s = table(["odysseus", "nestor"])
    give(s, 0, "spearmen", "spearmen", "spearmen", "spearmen", "archers")
    give(s, 1, "archers", "archers", "chariots", "chariots", "chariots")
    act(s, 0, {"type": "end_turn"})
    act(s, 1, {"type": "end_turn"})
    act(s, 0, {"type": "done"})
    act(s, 1, {"type": "done"})
    assert [len(p["hand"]) for p in s["players"]] == [6, 7]
    assert E.view(s, None)["players"][1]["hand_limit"] == 7


def test_cost_discount_agamemnon_pays_less_for_units_only():
    s = E.new_game(2, 3)
    first = s["first"]
    s["players"][first]["hero"] = "agamemnon"
    myrm, spear = give(s, first, "myrmidons", "ash_spear")
    act(s, first, {"type": "attach", "card": myrm})
    act(s, first, {"type": "attach", "card": spear})
    assert s["players"][first]["gp"] == 12 - 2 - 1


def test_ignore_items_paris_in_duels_and_the_birds_always():
    s = table(["odysseus", "achilles"])
    attach(s, 1, "ash_spear", "war_chariot")
    to_fate(s, 0, 1, "paris")
    assert fight_view(s)["base"]["defender"] == 8
    s = table(["odysseus", "achilles"])
    attach(s, 1, "ash_spear", "war_chariot")
    to_fate(s, 0, 1, "paris", "archers")  # a battle: Paris' duel ability does nothing
    assert fight_view(s)["base"]["defender"] == 4 + 2
    s = table(["odysseus", "achilles"])
    attach(s, 1, "war_chariot", "myrmidons")
    to_fate(s, 0, 1, "birds")
    assert fight_view(s)["base"]["defender"] == 4
    assert E.view(s, None)["players"][1]["tactics"] == 4 + 2 + 3


def test_fate_best_of_v1_cerberus_keeps_the_higher_of_two():
    s = table(["odysseus", "achilles"], v1=True)
    _, events = to_fate(s, 0, 1, "cerberus_v1", faces=(2, 5, 1))
    fates = of(events, "fate")
    assert [f["face"] for f in fates] == [2, 5, 1]
    assert fight_view(s)["totals"] == {"attacker": 8 + 5, "defender": 8 + 1}


def test_escape_aeneas_may_survive_a_lost_duel():
    s = table(["odysseus", "achilles"])
    (aeneas,), _ = to_fate(s, 0, 1, "aeneas", faces=(1, 6))
    stack(s, 5)
    events = finish(s)
    assert of(events, "escape") and [r["card"] for r in s["players"][1]["roamers"]] == [aeneas]
    assert s["players"][1]["gp"] == 12 + 4 + 1  # the glory is gained all the same
    s = table(["odysseus", "achilles"])
    (aeneas,), _ = to_fate(s, 0, 1, "aeneas", faces=(1, 6))
    stack(s, 4)
    events = finish(s)
    assert not of(events, "escape") and aeneas in s["discard"]


def test_grows_hydra_gets_stronger_each_time_it_is_not_beaten():
    s = table(["odysseus", "nestor"])
    (hydra,), _ = to_fate(s, 0, 1, "hydra", faces=(6, 1))
    finish(s)
    entry = s["players"][1]["roamers"][0]
    assert entry["card"] == hydra and entry["grow"] == 1
    give(s, 0, "spearmen")
    s2 = table(["odysseus", "nestor"])
    roamer(s2, 1, "hydra", by=0, grow=1)
    act(s2, 0, {"type": "end_turn"})
    stack(s2, 3, 3)
    pass_all(s2, ("start",))
    assert fight_view(s2)["base"]["attacker"] == 6 + 1


def test_discard_on_win_harpies_take_a_random_card():
    s = table(["odysseus", "achilles"])
    kept = give(s, 1, "aegis", "omen")
    to_fate(s, 0, 1, "harpies", faces=(6, 1))  # 5 + 6 vs 4 + 1
    events = finish(s)
    assert len(s["players"][1]["hand"]) == 1 and of(events, "discard")[0]["random"]
    lost = [c for c in kept if c not in s["players"][1]["hand"]][0]
    assert lost in s["discard"]


def test_drain_wrath_pandarus_in_duels():
    s = table(["odysseus", "nestor"])
    to_fate(s, 0, 1, "pandaros", faces=(6, 1))
    finish(s)
    assert s["players"][1]["wrath"] == 1


def test_wreck_on_win_sea_monster_takes_the_most_valuable_attachment():
    s = table(["odysseus", "nestor"])
    spear, armour = attach(s, 1, "ash_spear", "hephaestus_armour")
    to_fate(s, 0, 1, "ketos", faces=(6, 1))
    finish(s)
    assert s["players"][1]["attached"] == [spear] and armour in s["discard"]


def test_reward_draw_glaucus_gives_the_winner_a_card():
    s = table(["odysseus", "achilles"])
    to_fate(s, 0, 1, "glaukos", faces=(1, 6))
    finish(s)
    assert len(s["players"][1]["hand"]) == 1


def test_draw_on_win_odysseus():
    s = table(["achilles", "odysseus"])
    to_fate(s, 0, 1, "archers", faces=(1, 6))
    finish(s)
    assert len(s["players"][1]["hand"]) == 1 and s["players"][1]["gp"] == 13


# ------------------------------------------------------------------------------------------- interventions

def test_fight_mod_aegis_depends_on_the_patron():
    s = table(["odysseus", "achilles", "menelaus"])
    a1, = give(s, 0, "aegis")
    a2, = give(s, 2, "aegis")
    to_fate(s, 0, 1, "spearmen")
    act(s, 0, {"type": "intervene", "card": a1, "side": "attacker"})  # Odysseus: Athena: +4
    act(s, 2, {"type": "intervene", "card": a2, "side": "defender"})  # Menelaus: +2
    assert fight_view(s)["mod"] == {"attacker": 4, "defender": 2}


def test_fight_mod_apollo_arrow_lowers_a_side():
    s = table(["odysseus", "achilles"])
    arrow, = give(s, 0, "apollo_arrow")
    to_fate(s, 0, 1, "spearmen")
    act(s, 0, {"type": "intervene", "card": arrow, "side": "defender"})
    assert fight_view(s)["totals"]["defender"] == 4 + 3 - 3


def test_fight_mod_ares_frenzy_only_in_duels():
    s = table(["achilles", "nestor"])
    frenzy, = give(s, 0, "ares_frenzy")
    to_fate(s, 0, 1, "spearmen")
    assert not any(a.get("card") == frenzy for a in E.legal_actions(s, 0))
    s = table(["achilles", "nestor"])
    frenzy, = give(s, 0, "ares_frenzy")
    to_fate(s, 0, 1, "paris")
    act(s, 0, {"type": "intervene", "card": frenzy, "side": "attacker"})
    assert fight_view(s)["mod"]["attacker"] == 4


def test_redraw_fate_will_of_the_gods():
    s = table(["odysseus", "achilles"])
    will, = give(s, 0, "will_of_gods")
    to_fate(s, 0, 1, "spearmen", faces=(3, 6))
    stack(s, 1)
    act(s, 0, {"type": "intervene", "card": will, "side": "defender"})
    assert [c["face"] for c in fight_view(s)["fate"]["defender"]] == [1]


def test_wrath_of_hera_redraws_and_wrath_of_ares_adds_a_fate_card():
    s = table(["menelaus", "achilles"])
    to_fate(s, 0, 1, "spearmen", faces=(3, 6))
    stack(s, 2, 5)
    act(s, 0, {"type": "wrath", "side": "defender"})  # Hera
    assert [c["face"] for c in fight_view(s)["fate"]["defender"]] == [2]
    act(s, 1, {"type": "wrath", "side": "defender"})  # Ares
    assert fight_view(s)["totals"]["defender"] == 4 + 2 + 5
    assert [p["wrath"] for p in s["players"]] == [1, 1]


def test_extra_fate_heras_intrigue_only_for_heroes_of_hera():
    s = table(["odysseus", "agamemnon"])
    intrigue, = give(s, 0, "hera_intrigue")
    to_fate(s, 0, 1, "spearmen", faces=(3, 3))
    assert not any(a.get("card") == intrigue for a in E.legal_actions(s, 0))
    with pytest.raises(IllegalAction, match="Only heroes of Hera"):
        act(s, 0, {"type": "intervene", "card": intrigue, "side": "attacker"})
    give(s, 1, intrigue)
    stack(s, 4)
    act(s, 1, {"type": "intervene", "card": intrigue, "side": "defender"})
    assert fight_view(s)["totals"]["defender"] == 7 + 3 + 4


def test_cancel_fight_aphrodites_mist_needs_power_four():
    s = table(["achilles", "nestor"])
    mist, = give(s, 0, "mist")
    (unit, hector), _ = to_fate(s, 0, 1, "spearmen", "hector", faces=(6, 1))
    with pytest.raises(IllegalAction, match="needs POWER 4"):
        act(s, 0, {"type": "intervene", "card": mist})
    give(s, 1, mist)
    events = act(s, 1, {"type": "intervene", "card": mist})
    assert result_of(events)["cancelled"] and s["step"] == "main"
    assert s["players"][1]["gp"] == 12
    assert unit in s["discard"] and [r["card"] for r in s["players"][1]["roamers"]] == [hector]


def test_banish_zeus_thunderbolt_discards_a_waiting_attacker():
    s = table(["odysseus", "achilles"])
    bolt, = give(s, 0, "thunderbolt")
    hector = roamer(s, 1, "hector", by=0)
    act(s, 0, {"type": "intervene", "card": bolt, "target": hector})
    assert not s["players"][1]["roamers"] and hector in s["discard"]


def test_move_roamer_poseidons_wave():
    s = table(["odysseus", "nestor", "achilles"])
    wave, = give(s, 1, "poseidon_wave")
    hector = roamer(s, 1, "hector", by=0)
    act(s, 0, {"type": "end_turn"})
    assert s["step"] == "start"
    act(s, 1, {"type": "intervene", "card": wave, "target": hector, "to": 2})
    pass_all(s, ("start",))
    assert s["step"] == "main" and s["players"][2]["roamers"][0]["card"] == hector
    assert not s["players"][2]["roamers"][0]["arrived"]  # it waits for the end of the round


def test_draw_hermes_gift_up_to_the_hand_limit():
    s = table(["odysseus", "achilles"])
    gift, = give(s, 0, "hermes_gift")
    give(s, 0, "spearmen", "spearmen", "spearmen", "spearmen", "archers")
    act(s, 0, {"type": "intervene", "card": gift})
    assert len(s["players"][0]["hand"]) == 6  # 5 left + 1: the limit


def test_gain_heras_favour_depends_on_the_patron():
    s = table(["agamemnon", "odysseus"])
    fav, = give(s, 0, "hera_favour")
    act(s, 0, {"type": "intervene", "card": fav})
    assert s["players"][0]["gp"] == 15
    s = table(["odysseus", "agamemnon"])
    fav, = give(s, 0, "hera_favour")
    act(s, 0, {"type": "intervene", "card": fav})
    assert s["players"][0]["gp"] == 13


def test_discard_random_deceitful_dream():
    s = table(["odysseus", "achilles"])
    dream, = give(s, 0, "false_dream")
    give(s, 1, "spearmen", "archers", "omen")
    act(s, 0, {"type": "intervene", "card": dream, "target": 1})
    assert len(s["players"][1]["hand"]) == 1


def test_interventions_in_the_start_window_and_only_table_effects_there():
    s = table(["odysseus", "achilles"])
    gift, aegis = give(s, 0, "hermes_gift", "aegis")
    roamer(s, 1, "hector", by=0)
    act(s, 0, {"type": "end_turn"})
    legal = E.legal_actions(s, 0)
    assert {"type": "intervene", "card": gift} in legal
    assert not any(a.get("card") == aegis for a in legal)


# ---------------------------------------------------------------------------------------------- events

def test_each_fate_apollos_plague():
    s = table(["odysseus", "achilles", "nestor"])
    plague, = give(s, 0, "plague")
    stack(s, 1, 3, 2)
    act(s, 0, {"type": "event", "card": plague})
    assert [p["gp"] for p in s["players"]] == [10, 12, 10]


def test_contest_funeral_games_single_highest_only():
    s = table(["odysseus", "achilles", "nestor"])
    games, = give(s, 0, "funeral_games")
    stack(s, 2, 6, 5)
    act(s, 0, {"type": "event", "card": games})
    assert [p["gp"] for p in s["players"]] == [12, 14, 12]
    s = table(["odysseus", "achilles"])
    games, = give(s, 0, "funeral_games")
    stack(s, 6, 6)
    act(s, 0, {"type": "event", "card": games})
    assert [p["gp"] for p in s["players"]] == [12, 12]


def test_omen():
    s = table(["odysseus", "achilles"])
    omen, = give(s, 0, "omen")
    stack(s, 5)
    act(s, 0, {"type": "event", "card": omen})
    assert s["players"][0]["gp"] == 14
    s = table(["odysseus", "achilles"])
    omen, = give(s, 0, "omen")
    stack(s, 2)
    act(s, 0, {"type": "event", "card": omen})
    assert s["players"][0]["gp"] == 11


def test_each_draw_feast():
    s = table(["odysseus", "achilles", "nestor"])
    feast, = give(s, 0, "feast")
    act(s, 0, {"type": "event", "card": feast})
    assert [len(p["hand"]) for p in s["players"]] == [1, 1, 1]


def test_wreck_desertion_discards_any_attachment():
    s = table(["odysseus", "achilles"])
    desertion, = give(s, 0, "desertion")
    myrm, = attach(s, 1, "myrmidons")
    targets = [a["target"] for a in E.legal_actions(s, 0) if a.get("card") == desertion]
    assert targets == [myrm]
    act(s, 0, {"type": "event", "card": desertion, "target": myrm})
    assert s["players"][1]["attached"] == [] and myrm in s["discard"]


def test_restore_wrath_v1_divine_anger_only_when_a_token_is_spent():
    s = table(["odysseus", "achilles"], v1=True)
    anger, = give(s, 0, "divine_anger_v1")
    assert not any(a.get("card") == anger for a in E.legal_actions(s, 0))
    s["players"][0]["wrath"] = 0
    E.forget(s)
    act(s, 0, {"type": "event", "card": anger})
    assert s["players"][0]["wrath"] == 1


def test_events_only_in_your_own_turn():
    s = table(["odysseus", "achilles"])
    omen, = give(s, 1, "omen")
    roamer(s, 0, "hector", by=1)
    s["turn"], s["first"] = 1, 1
    act(s, 1, {"type": "end_turn"})  # seat 0's turn opens with a start window
    assert s["step"] == "start"
    assert not any(a.get("card") == omen for a in E.legal_actions(s, 1))


# -------------------------------------------------------------------------------------------- modifiers

@pytest.mark.parametrize("mod,keys,side,amount", [
    ("phalanx", ["spearmen"], "defender", 3),
    ("ambush", ["spearmen"], "attacker", 3),
    ("war_cry", ["paris"], "defender", 2),
    ("treachery", ["paris"], "attacker", 2),
    ("volley", ["paris"], "attacker", 2),
    ("volley", ["spearmen"], "attacker", 2),
    ("shield_wall", ["spearmen"], "defender", 2),
])
def test_modifier_cards(mod, keys, side, amount):
    s = table(["odysseus", "achilles", "nestor"])
    ids = give(s, 0, *keys)
    m, = give(s, 2, mod)
    challenge(s, 0, 1, *ids)
    plain = E.view(s, None)["assault"]["fights"][0][side]
    act(s, 2, {"type": "add", "card": m})
    assert E.view(s, None)["assault"]["fights"][0][side] == plain + amount


@pytest.mark.parametrize("mod,keys", [("phalanx", ["paris"]), ("war_cry", ["spearmen"]), ("ambush", ["boar"])])
def test_modifier_for_the_other_kind_of_fight_is_not_playable(mod, keys):
    s = table(["odysseus", "achilles", "nestor"])
    ids = give(s, 0, *keys)
    m, = give(s, 2, mod)
    challenge(s, 0, 1, *ids)
    assert {"type": "add", "card": m} not in E.legal_actions(s, 2)


# ------------------------------------------------------------------------------------------------- data

TESTED_OPS = {
    "stat", "glory_on_win", "loss_reduction", "extra_loss", "tie_wins", "hand_limit", "cost_discount",
    "ignore_items", "fate_best_of", "escape", "grows", "discard_on_win", "drain_wrath", "wreck_on_win",
    "reward_draw", "draw_on_win", "fight_mod", "redraw_fate", "extra_fate", "cancel_fight", "banish",
    "move_roamer", "draw", "gain", "discard_random", "each_fate", "contest", "omen", "each_draw", "wreck",
    "restore_wrath", "take_wrath",
}


def test_every_op_of_the_vocabulary_is_used_and_tested():
    heroes, patrons, types, _, _ = load()  # the data as shipped, not the pinned test heroes
    used = set()
    for hero in heroes.values():
        used |= {e["op"] for e in hero["ability"]}
    for patron in patrons.values():
        used.add(patron["wrath"]["op"])
    for card in types.values():
        used |= {e["op"] for e in card.get("ability", [])}
        if "effect" in card:
            used.add(card["effect"]["op"])
    assert used == set(PASSIVE_OPS) | set(ACTIVE_OPS) == TESTED_OPS


def test_card_set_facts():
    heroes, _, _, deck, physical = load()
    assert len(heroes) == 6 and len(PATRONS) == 3
    per_patron = {}
    for hero in heroes.values():
        per_patron.setdefault(hero["patron"], []).append(hero["key"])
    assert sorted(len(v) for v in per_patron.values()) == [2, 2, 2]
    assert 76 <= len(deck) <= 90
    counts = [sum(1 for c in deck if physical[c]["face"] == f) for f in range(1, 7)]
    assert max(counts) - min(counts) <= 1
    kinds = {c["kind"] for c in TYPES.values()}
    assert kinds == {"unit", "trojan", "beast", "intervention", "item", "ally", "event", "modifier"}
    for table_ in (HEROES, PATRONS, TYPES):
        for entry in table_.values():
            assert set(entry["names"]) == {"pl", "en", "hu"} and all(entry["names"].values())
    for card in TYPES.values():
        if card["kind"] != "unit":
            assert set(card["text"]) == {"pl", "en", "hu"}
        if card["kind"] == "beast":
            assert card["power"] >= 1
        if card["kind"] in ("item", "ally"):
            assert card["cost"] >= 1
    assert any("patrons" in c for c in TYPES.values())
    assert any("by_patron" in c.get("effect", {}) for c in TYPES.values())
    trojans = {k for k, c in TYPES.items() if c["kind"] == "trojan"}
    assert {"hector", "paris", "aeneas", "sarpedon", "glaukos"} <= trojans


# ------------------------------------------------------------------ version 2: the book's "always" rules

def test_no_card_dealt_breaks_an_always_rule_of_the_book():
    """One fate card per side, always (§2); the loss is always the hero card's GLORY (§3.3); wrath twice in
    the game, no more (§3.2): no card of the deck draws two fate cards, changes the loss or gives a token back."""
    _, _, types, deck, physical = load()
    dealt = {physical[c]["key"] for c in deck}
    assert {"hector", "chimera", "cerberus", "bronze_armour", "divine_anger"} <= dealt
    for key in dealt:
        card = types[key]
        assert not card.get("retired")
        ops = {e["op"] for e in card.get("ability", [])} | {card.get("effect", {}).get("op")}
        assert not ops & {"fate_best_of", "extra_loss", "loss_reduction", "restore_wrath"}, key
    assert all(types[k]["retired"] for k in types if k.endswith("_v1"))


def test_cerberus_draws_one_fate_card_and_a_win_costs_the_hero_a_wrath_token():
    s = table(["odysseus", "achilles"])
    _, events = to_fate(s, 0, 1, "cerberus", faces=(6, 1, 4))
    assert [f["face"] for f in of(events, "fate")] == [6, 1]  # one per side, the 4 stays on the deck
    assert fight_view(s)["totals"] == {"attacker": 9 + 6, "defender": 8 + 1}
    events = finish(s)
    assert s["players"][1]["wrath"] == 1 and of(events, "wrath_lost")[0]["seat"] == 1
    assert s["players"][1]["gp"] == 12 - HEROES["achilles"]["glory"]


def test_hector_takes_the_best_item_in_a_duel_and_the_loss_stays_the_heroes_glory():
    s = table(["odysseus", "nestor"])
    spear, bow = attach(s, 1, "ash_spear", "heracles_bow")
    to_fate(s, 0, 1, "hector", faces=(6, 1))
    events = finish(s)
    assert s["players"][1]["gp"] == 12 - HEROES["nestor"]["glory"]
    assert s["players"][1]["attached"] == [spear] and of(events, "wrecked")[0]["card"] == "heracles_bow"
    # in a battle with units his duel ability does nothing
    s = table(["odysseus", "nestor"])
    spear, = attach(s, 1, "ash_spear")
    to_fate(s, 0, 1, "hector", "spearmen", faces=(6, 1))
    finish(s)
    assert s["players"][1]["attached"] == [spear] and s["players"][1]["gp"] == 12 - HEROES["nestor"]["glory"]


def test_chimera_is_stronger_when_it_roams_and_a_win_costs_a_random_card_not_glory():
    s = table(["odysseus", "nestor"])
    give(s, 1, "omen", "feast")
    to_fate(s, 0, 1, "chimera", faces=(6, 1))
    assert fight_view(s)["base"]["attacker"] == 7
    events = finish(s)
    assert s["players"][1]["gp"] == 12 - HEROES["nestor"]["glory"] and len(s["players"][1]["hand"]) == 1
    assert of(events, "discard")[0]["random"] is True
    s = table(["odysseus", "nestor"])
    roamer(s, 1, "chimera", by=0)
    s["turn"], s["first"] = 1, 1
    from engines.troja.engine import _Ctx, _start_turn
    _start_turn(_Ctx(s), 1)
    pass_all(s, ("start",))
    assert fight_view(s)["base"]["attacker"] == 7 + 1


def test_bronze_armour_wins_tied_fights_and_is_ignored_with_the_other_items():
    s = table(["odysseus", "nestor"])
    attach(s, 1, "bronze_armour")
    to_fate(s, 0, 1, "spearmen", faces=(6, 2))  # 3 + 6 vs 7 + 2
    assert fight_view(s)["tie_to"] == "defender"
    finish(s)
    assert s["players"][1]["gp"] == 12 + 1
    s = table(["odysseus", "nestor"])
    attach(s, 1, "bronze_armour", "war_chariot")
    to_fate(s, 0, 1, "birds", faces=(5, 4))  # 6 + 5 vs 7 + 4: the birds ignore items, the armour too
    assert fight_view(s)["tie_to"] is None


def test_divine_anger_takes_a_token_from_another_hero_and_never_gives_one_back():
    s = table(["odysseus", "achilles", "nestor"])
    anger, = give(s, 0, "divine_anger")
    s["players"][0]["wrath"] = 0
    s["players"][2]["wrath"] = 0
    targets = [a for a in E.legal_actions(s, 0) if a.get("card") == anger]
    assert targets == [{"type": "event", "card": anger, "target": 1}]
    events = act(s, 0, targets[0])
    assert [p["wrath"] for p in s["players"]] == [0, 1, 0] and of(events, "wrath_lost")[0]["seat"] == 1
    s["players"][1]["wrath"] = 0
    anger2, = give(s, 0, "divine_anger")
    assert not any(a.get("card") == anger2 for a in E.legal_actions(s, 0))  # nobody has a token to lose
