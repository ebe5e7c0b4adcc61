"""Set-up, rounds, the active-player rule, the time thread and victory (a test per rule)."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.kivalasztottak import state as S

from .helpers import E, act, add, blank, force_dice, pass_, settle, started, types, who


def test_setup_towers_omen_hand_and_tower_order_is_hidden():
    st = E.new_game(2, 3, {})
    assert st["stage"] == "towers" and E.to_act(st) == [0, 1]
    for s in range(2):
        p = st["p"][s]
        assert len(p["towers"]) == 3 and len(p["hand"]) == 7 and p["mp"] == 10
    assert len(st["p"][1]["omen"]) == 1  # the Bear Clan's omen starts in the Present
    orders = E.legal_actions(st, 0)
    assert len(orders) == 6
    act(st, 0, orders[3])
    assert st["p"][0]["towers"] == orders[3]["order"]
    view = E.view(st, 1)
    assert all(t.get("hidden") for t in view["players"][0]["towers"])
    assert not any(t.get("hidden") for t in E.view(st, 0)["players"][0]["towers"])


def test_mulligan_draws_two_fewer_at_most_three_times_and_reshuffles_on_keep():
    st = E.new_game(2, 5, {})
    for s in range(2):
        act(st, s, E.legal_actions(st, s)[0])
    future = len(st["p"][0]["future"])
    for n in (5, 3, 1):
        act(st, 0, {"type": "mulligan"})
        assert len(st["p"][0]["hand"]) == n
    assert {"type": "mulligan"} not in E.legal_actions(st, 0)
    act(st, 0, {"type": "keep"})
    assert len(st["p"][0]["future"]) == future + 7 - 1
    assert st["p"][0]["setaside"] == []


def test_round_one_has_no_resource_phase_round_two_gives_4_mp_draws_to_7_and_turns_back():
    st = started(1)
    assert st["round"] == 1 and st["p"][0]["mp"] == 10
    a = add(st, 0, "vadasz", "row", state="resting")
    b = add(st, 0, "vadasz", "row", state="injured")
    S.move(st, st["p"][0]["hand"][0], "past", 0)
    pass_(st)
    pass_(st)
    assert st["stage"] == "close"
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    # the omen's player puts a card under his Future after the first adjustment
    if st["pending"]:
        seat = who(st)
        act(st, seat, E.legal_actions(st, seat)[0])
    assert st["round"] == 2
    assert st["p"][0]["mp"] == 14 and len(st["p"][0]["hand"]) == 7
    assert st["cards"][a]["state"] == "alert" and st["cards"][b]["state"] == "resting"


def test_omen_costs_a_card_after_first_adjustment_and_loses_a_point_each_round():
    st = started(2)
    omen = st["p"][1]["omen"][0]
    assert st["cards"][omen]["op"] == 3
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert st["cards"][omen]["op"] == 2
    assert [d["kind"] for d in st["pending"]] == ["omen_bottom"] and who(st) == 1
    card = st["p"][1]["hand"][0]
    act(st, 1, {"type": "bottom", "card": card})
    assert st["p"][1]["future"][0] == card and len(st["p"][1]["hand"]) == 6


def test_active_player_has_more_mp_ties_go_to_who_acted_longer_ago():
    st = blank(mp=(5, 7))
    assert who(st) == 1
    st = blank(mp=(7, 7))
    st["last_acted"] = [3, 1]
    st["prio"] = S.active(st)
    assert who(st) == 1


def test_pass_hands_over_one_action_and_two_passes_end_the_phase():
    st = blank(mp=(8, 5))
    add(st, 1, "vadasz", "hand")
    assert who(st) == 0
    pass_(st)
    assert who(st) == 1  # the opponent acts once
    act(st, 1, {"type": "summon", "card": st["p"][1]["hand"][0]})
    settle(st)
    assert who(st) == 0  # back to the MP rule
    pass_(st)
    pass_(st)
    assert st["stage"] == "close"


def test_thread_summon_waits_opponent_first_and_only_fast_effects_while_open():
    st = blank(mp=(10, 10))
    v = add(st, 0, "vadasz", "hand")
    add(st, 1, "vadasz", "hand")
    add(st, 1, "menedek", "hand")
    add(st, 1, "klanharcos", "row")
    act(st, 0, {"type": "summon", "card": v})
    assert st["p"][0]["mp"] == 8 and st["thread"] and who(st) == 1
    legal = E.legal_actions(st, 1)
    names = {S.cdef(st, a["card"])["key"] for a in legal if a["type"] == "summon"}
    assert names == {"menedek"}  # the adventurer is not fast; the INTERRUPT event is
    pass_(st)
    assert who(st) == 0
    ev = pass_(st)
    assert "entered" in types(ev) and v in st["p"][0]["row"] and st["thread"] == []
    settle(st)
    assert st["thread"] is None and st["cards"][v]["state"] == "alert"


def test_adventurers_die_only_when_the_thread_closes_and_row_damage_becomes_injury():
    st = blank(mp=(10, 10))
    sniper = add(st, 0, "kraniorvlovesz", "row")
    weak = add(st, 1, "vadkutya", "row")
    strong = add(st, 1, "vadasz", "row")
    act(st, 0, {"type": "activate", "card": sniper, "ability": 0, "target": weak})
    pass_(st)
    pass_(st)
    assert st["cards"][weak]["dmg"] == 1 and weak in st["p"][1]["row"]  # still there, at level 0
    st2 = E.from_json(E.to_json(st))
    settle(st)
    assert st["cards"][weak]["zone"] == "gone"  # tokens cease to exist
    # a survivor loses its damage and turns injured
    st2["cards"][weak]["dmg"] = 0
    st2["cards"][strong]["dmg"] = 1
    settle(st2)
    assert st2["cards"][strong]["dmg"] == 0 and st2["cards"][strong]["state"] == "injured"


def test_ability_once_per_thread():
    st = blank(mp=(10, 10))
    ally = add(st, 0, "vadaszmester", "allies")
    a = add(st, 0, "vadasz", "row", dmg=1)
    act(st, 0, {"type": "activate", "card": ally, "ability": 0, "target": a})
    pass_(st)  # seat 1 passes, seat 0 holds priority again
    assert who(st) == 0
    assert not any(x["type"] == "activate" and x["ability"] == 0 for x in E.legal_actions(st, 0))


def test_effect_that_lost_its_target_fizzles():
    st = blank(mp=(10, 10))
    hunter = add(st, 0, "fejvadasz", "row")
    orv = add(st, 0, "orvtamadas", "hand")
    dog = add(st, 1, "vadkutya", "row")
    other = add(st, 1, "vadasz", "row", dmg=1)
    act(st, 0, {"type": "summon", "card": orv, "by": hunter, "target": dog})
    # the dog is sacrificed in answer: the attack loses its only target
    act(st, 1, {"type": "activate", "card": dog, "ability": 0, "target": other})
    ev = settle(st)
    assert "fizzled" in types(ev) and "attack_roll" not in types(ev)
    assert orv in st["p"][0]["past"]


def test_attack_threshold_is_fixed_when_the_attack_resolves():
    st = blank(mp=(10, 10))
    hunter = add(st, 0, "fejvadasz", "row")
    orv = add(st, 0, "orvtamadas", "hand")
    target = add(st, 1, "vadasz", "row")
    act(st, 0, {"type": "summon", "card": orv, "by": hunter, "target": target})
    st["cards"][hunter]["mods"] = [{"stat": "phys", "amount": -5, "until": "round"}]
    force_dice(st, [(2, 2)])
    ev = settle(st)
    roll = next(e for e in ev if e["type"] == "attack_roll")
    assert roll["threshold"] == 3 and roll["hit"] is False


def test_illegal_actions_explain_themselves():
    st = blank(mp=(1, 0))
    card = add(st, 0, "dorgan", "hand")
    with pytest.raises(IllegalAction):
        act(st, 0, {"type": "summon", "card": card})
    with pytest.raises(IllegalAction, match="not in your hand"):
        act(st, 0, {"type": "summon", "card": "KV1-00"})


def test_named_rule_second_copy_goes_to_past_and_named_dead_go_to_depth():
    st = blank(mp=(20, 10))
    d1 = add(st, 0, "dorgan", "hand")
    d2 = add(st, 0, "dorgan", "hand")
    act(st, 0, {"type": "summon", "card": d1})
    settle(st)
    act(st, 0, {"type": "summon", "card": d2})
    ev = settle(st)
    assert "named_rule" in types(ev) and d2 in st["p"][0]["past"]
    E._to_past(st, d1)
    assert d1 in st["p"][0]["depth"]
    d3 = add(st, 0, "dorgan", "row")
    E._to_past(st, d3)
    assert d3 in st["p"][0]["past"]  # one Dorgan already in the Depth


def test_true_name_counts_for_the_named_rule():
    st = blank()
    u = add(st, 1, "ugra", "row")
    assert "Medvetorkú" in S.names(st, u)


def test_round_close_dp_victory_and_tie_plays_on():
    st = blank()
    for key in ("trofea", "trofea", "farkasvadaszat", "szerzodes"):
        add(st, 0, key, "solved")
    assert S.dp(st, 0) == 13
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert E.result(st)["places"] == [1, 2] and E.result(st)["reason"] == "dp11"

    st = blank()
    for seat in range(2):
        for key in ("trofea", "trofea", "farkasvadaszat", "szerzodes"):
            add(st, seat, key, "solved")
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert E.result(st) is None and st["round"] == 2


def test_empty_future_at_round_close_loses_both_empty_draw():
    st = blank()
    for cid in list(st["p"][0]["future"]):
        S.move(st, cid, "past", 0)
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert E.result(st)["places"] == [2, 1] and E.result(st)["reason"] == "future"
    st = blank()
    for seat in range(2):
        for cid in list(st["p"][seat]["future"]):
            S.move(st, cid, "past", seat)
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert E.result(st)["places"] == [1, 1]


def test_close_phase_may_discard_one_card():
    st = blank()
    c = add(st, 0, "vadasz", "hand")
    pass_(st)
    pass_(st)
    assert {"type": "discard", "card": c} in E.legal_actions(st, 0)
    act(st, 0, {"type": "discard", "card": c})
    assert c in st["p"][0]["past"]


def test_immediate_win_at_19_dp():
    st = blank()
    for key in ("trofea", "trofea", "trofea", "trofea"):
        add(st, 0, key, "solved")
    add(st, 0, "orhaz", "buildings")
    assert S.dp(st, 0) == 18 and E.result(st) is None
    add(st, 0, "vadaszkunyho", "buildings")
    q = add(st, 0, "vadasz", "hand")
    act(st, 0, {"type": "summon", "card": q})
    assert E.result(st)["reason"] == "dp19" and E.to_act(st) == []


def test_round_limit_option_and_bad_options():
    with pytest.raises(ValueError):
        E.new_game(2, 1, {"decks": ["vadaszhaz"]})
    with pytest.raises(ValueError):
        E.new_game(2, 1, {"colour": "red"})
    with pytest.raises(ValueError):
        E.new_game(3, 1, {})
    st = E.new_game(2, 1, {"decks": ["medveklan", "medveklan"], "round_limit": 0})
    assert st["p"][0]["deck"] == "medveklan"


def test_trigger_goes_on_the_thread_and_simultaneous_triggers_are_ordered_by_their_player():
    st = blank(mp=(10, 10))
    trapper = add(st, 0, "csapdaallito", "hand")
    act(st, 0, {"type": "summon", "card": trapper})
    pass_(st)
    ev = pass_(st)
    assert "trigger" in types(ev) and st["thread"][-1]["kind"] == "trigger"
    hand = len(st["p"][0]["hand"])
    settle(st)
    assert len(st["p"][0]["hand"]) == hand + 1

    st = blank(mp=(10, 10))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "orhaz", "buildings")
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert st["pending"][0]["kind"] == "trigger_order" and who(st) == 0
    opts = E.legal_actions(st, 0)
    assert len(opts) == 2
    act(st, 0, opts[0])
    assert len(st["thread"]) == 2


def test_once_per_player_effect_applies_once():
    st = blank(mp=(10, 10))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "vadaszkunyho", "buildings")
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert len(st["thread"]) == 1
    settle(st)
    assert st["p"][0]["mp"] == 10 + 1 + 4
