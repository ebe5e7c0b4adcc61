"""More rules: Row and maneuver do not touch each other, the preparation phase, ranks, secrecy of events,
the auto-pass flag and the round limit."""

from __future__ import annotations

import json

from engines.kivalasztottak import state as S
from engines.rng import Rng

from .helpers import (
    E,
    act,
    add,
    blank,
    combat,
    give_prio,
    lowest,
    pass_,
    settle,
    team,
    to_decision,
    until_step,
)


def test_row_and_maneuver_do_not_affect_each_other_unless_permanent_without_combat():
    st = blank(mp=(20, 10))
    raider = add(st, 0, "dorgan", "row")
    home = add(st, 1, "vadasz", "row")
    sniper = add(st, 1, "kraniorvlovesz", "row")
    dog = add(st, 0, "vadkutya", "row")
    lowest(st, 1, "csontkapu")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [raider])
    give_prio(st, 1)
    targets = {a["target"] for a in E.legal_actions(st, 1) if a.get("card") == sniper}
    assert targets == {dog}  # the sniper in the Row cannot reach Dorgan in the maneuver
    st["cards"][raider]["dmg"] = 2
    give_prio(st, 0)
    heal = {a["target"] for a in E.legal_actions(st, 0) if a.get("card") == dog}
    assert raider in heal  # PERMANENT without COMBAT crosses over
    del home


def test_preparation_phase_each_adventurer_acts_at_most_once():
    st = blank(mp=(20, 10))
    a = add(st, 0, "dorgan", "row")
    b = add(st, 1, "kraniorvlovesz", "row")
    lowest(st, 1, "karamszint")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [a])
    to_decision(st)
    team(st, 1, [b])
    until_step(st, "prep")
    give_prio(st, 1)
    act(st, 1, {"type": "activate", "card": b, "ability": 0, "target": a})
    st["cards"][b]["state"] = "alert"  # even if it were alert again, it already acted in this phase
    give_prio(st, 1)
    assert not any(x.get("card") == b for x in E.legal_actions(st, 1))


def test_a_team_without_front_rank_moves_its_back_rank_forward():
    st = blank(mp=(20, 10))
    f, r = add(st, 0, "dorgan", "row"), add(st, 0, "vadasz", "row")
    b = add(st, 1, "klanharcos", "row")
    combat(st, [f, r], [b], front_a=[f])
    assert st["maneuver"]["front"] == [f, b]
    st["cards"][f]["dmg"] = 9
    give_prio(st, 0)
    E._close_thread(st, [])  # a thread closes: Dorgan dies
    assert r in st["maneuver"]["front"]


def test_only_one_maneuver_at_a_time_and_only_with_an_alert_adventurer():
    st = blank(mp=(20, 10))
    add(st, 0, "vadasz", "row", state="resting")
    assert not any(a["type"] == "maneuver" for a in E.legal_actions(st, 0))
    a = add(st, 0, "dorgan", "row")
    q = add(st, 1, "griff", "quests")
    kinds = {(x["kind"], x.get("target")) for x in E.legal_actions(st, 0) if x["type"] == "maneuver"}
    assert ("quest", q) in kinds and ("siege", None) in kinds  # the opponent's quest too
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [a])
    give_prio(st, 0)
    assert not any(x["type"] == "maneuver" for x in E.legal_actions(st, 0))


def test_events_and_views_never_carry_hidden_cards():
    for seed in range(3):
        st = E.new_game(2, seed, {})
        rng = Rng(seed + 40)
        while E.to_act(st):
            seat = rng.choice(E.to_act(st))
            events = E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
            hidden = E.secrets(st, None) | E.secrets(st, 0) | E.secrets(st, 1)
            text = json.dumps(events)
            assert not any(f'"{h}"' in text for h in hidden), events


def test_auto_pass_flag_tells_when_a_seat_can_only_pass():
    st = blank(mp=(10, 10))
    assert E.auto_passable(st, 0)
    assert E.view(st, 0)["can_act"] is False
    add(st, 0, "vadasz", "hand")
    assert not E.auto_passable(st, 0) and E.view(st, 0)["can_act"] is True
    assert not E.auto_passable(st, 1)  # not to act


def test_round_limit_ends_the_game_by_dp():
    st = E.new_game(2, 1, {"round_limit": 1})
    for s in range(2):
        act(st, s, E.legal_actions(st, s)[0])
    for s in range(2):
        act(st, s, {"type": "keep"})
    add(st, 1, "farkasvadaszat", "solved")
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert E.result(st)["reason"] == "round_limit" and E.result(st)["places"] == [2, 1]


def test_summoner_turns_resting_and_damage_on_a_row_attack_needs_a_target():
    st = blank(mp=(10, 10))
    hunter = add(st, 0, "fejvadasz", "row")
    orv = add(st, 0, "orvtamadas", "hand")
    assert not any(a.get("card") == orv for a in E.legal_actions(st, 0))  # no target in the enemy Row
    add(st, 1, "vadasz", "row")
    acts = [a for a in E.legal_actions(st, 0) if a.get("card") == orv]
    assert acts and all(a.get("target") for a in acts)
    act(st, 0, acts[0])
    assert st["cards"][hunter]["state"] == "resting" and st["p"][0]["mp"] == 8
    settle(st)


def test_non_winner_returns_and_returning_damaged_adventurers_are_injured():
    st = blank(mp=(20, 10))
    f = add(st, 0, "vadasz", "row")
    f2 = add(st, 0, "vadasz", "row")
    b = add(st, 1, "ugra", "row")
    combat(st, [f, f2], [b])
    st["cards"][f]["dmg"] = 1
    for _ in range(10):
        if st["maneuver"] is None:
            break
        pass_(st)
    assert st["maneuver"] is None
    assert st["cards"][f]["state"] == "injured" and st["cards"][f2]["state"] == "resting"
    assert st["cards"][f]["dmg"] == 0 and S.level(st, f) == 2


def test_refusals_say_why():
    import pytest

    from engines import IllegalAction
    st = blank(mp=(1, 10))
    st["prio"] = 0
    d = add(st, 0, "dorgan", "hand")
    with pytest.raises(IllegalAction, match="cannot pay 5 MP"):
        act(st, 0, {"type": "summon", "card": d})
    lodge = add(st, 0, "vadaszkunyho", "hand")
    with pytest.raises(IllegalAction, match="condition"):
        act(st, 0, {"type": "summon", "card": lodge})
    with pytest.raises(IllegalAction, match="alert adventurer"):
        act(st, 0, {"type": "maneuver", "kind": "quest", "target": "KV0-01"})
    st["p"][0]["mp"] = 10
    sword = add(st, 0, "kardcsapas", "hand")
    with pytest.raises(IllegalAction, match="combat rounds"):
        act(st, 0, {"type": "summon", "card": sword, "by": "x", "target": "y"})


def test_quest_combat_draw_sends_both_teams_home_unsolved():
    st = blank(mp=(20, 10))
    q = add(st, 1, "farkasvadaszat", "quests")
    a = add(st, 0, "vadasz", "row")
    b = add(st, 1, "klanharcos", "row")  # both level 2
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    team(st, 0, [a])
    to_decision(st)
    team(st, 1, [b])
    to_decision(st)
    act(st, 0, {"type": "ranks", "front": [a]})
    act(st, 1, {"type": "ranks", "front": [b]})
    for _ in range(10):
        if st["maneuver"] is None:
            break
        pass_(st)
    assert st["maneuver"] is None and q in st["p"][1]["quests"]
    assert st["cards"][a]["zone"] == "row" and st["cards"][b]["zone"] == "row"


def test_saves_round_trip_and_refuse_other_rules():
    import pytest
    st = blank()
    add(st, 0, "vadasz", "row", dmg=1, state="resting")
    data = E.to_json(st)
    assert E.from_json(data) == st
    data["rules_version"] = 99
    with pytest.raises(ValueError):
        E.from_json(data)


def test_round_long_modifiers_end_with_the_round():
    st = blank()
    a = add(st, 0, "vadasz", "row", mods=[{"stat": "phys", "amount": 2, "until": "round"}])
    assert S.attr(st, a, "phys") == 9
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert S.attr(st, a, "phys") == 7


def test_card_adjustment_discards_down_to_seven():
    st = blank()
    extra = [add(st, 0, "vadasz", "hand") for _ in range(9)]
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    assert st["pending"][0]["kind"] == "adjust_discard" and E.to_act(st) == [0]
    act(st, 0, {"type": "discard", "card": extra[0]})
    assert st["pending"] and st["pending"][0]["kind"] == "adjust_discard"
    act(st, 0, {"type": "discard", "card": extra[1]})
    assert len(st["p"][0]["hand"]) == 7 and extra[0] in st["p"][0]["past"]
    assert not any(d["kind"] == "adjust_discard" for d in st["pending"])


def test_team_members_may_take_gear_from_the_store_when_leaving_the_row():
    st = blank(mp=(20, 10))
    a = add(st, 0, "vadasz", "row")
    knife = add(st, 0, "vadaszkes", "store")
    lowest(st, 1, "samanfeszek")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    act(st, 0, {"type": "team_add", "card": a})
    assert {"type": "equip", "item": knife, "to": a} in E.legal_actions(st, 0)
    act(st, 0, {"type": "equip", "item": knife, "to": a})
    assert st["cards"][knife]["zone"] == "worn" and st["cards"][knife]["on"] == a
