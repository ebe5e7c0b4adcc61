"""HEX-TRI rules, one test (or a few) per rule, mostly on small hand-built positions.

Board names at radius 3 used below: H-D4 is the centre (value 4) with TRIs T-D7 T-D8 T-D9 T-E7 T-E8 T-E9;
H-C3 and H-D3 are its neighbours across T-D7; H-A1 is the top-left outer HEX (value 1) with the outer TRIs
T-A1 and T-A2.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from engines import IllegalAction
from engines.hextri import ENGINE as E
from engines.hextri.board import board
from engines.hextri.engine import FIGURES
from engines.hextri.moves import OFF

CENTRE_TRIS = ["T-D7", "T-D8", "T-D9", "T-E7", "T-E8", "T-E9"]


def position(on, leaders, mana=None, n=2, turn=0, options=None, free_used=()):
    """A movement-phase position of round 1: ``on[seat] = {field: figures}`` (the leader included),
    ``leaders[seat]`` = field or "off"; the other figures wait off the board."""
    opts = {"radius": 3, **(options or {})}
    s = E.new_game(n, 0, opts)
    for seat, p in enumerate(s["players"]):
        p["on"] = dict(on.get(seat, {}))
        p["leader"] = leaders.get(seat, OFF)
        if p["leader"] != OFF:
            assert p["on"].get(p["leader"], 0) >= 1, "put the leader's figure into on"
        p["waiting"] = FIGURES - sum(p["on"].values()) - (1 if p["leader"] == OFF else 0)
        p["resting"] = []
        p["free_used"] = seat in free_used
        p["stuck"] = False
    s.update(mana=dict(mana or {}), round=1, first=0, turn=turn, passes=0, phase="move", moves=[], last=None)
    return s


def moves_of(state, seat, origin, leader=False):
    """Destination -> its move (listed once, paid the default way)."""
    out = {}
    for a in E.legal_actions(state, seat):
        if a["type"] == "move" and a["from"] == origin and a["leader"] == leader:
            out.setdefault(a["to"], a)
    return out


def pass_round(state):
    """Everyone passes until the round is over (or a loss choice / the end stops it); returns the events."""
    events = []
    rnd = state["round"]
    while state["round"] == rnd and state["phase"] == "move" and E.to_act(state):
        events += E.apply(state, E.to_act(state)[0], {"type": "pass"})
    return events


def of_type(events, kind):
    return [e for e in events if e["type"] == kind]


# ------------------------------------------------------------------ setup and options
def test_new_game_starts_empty_with_everyone_off_board():
    s = E.new_game(3, 5, {})
    assert s["mana"] == {} and s["round"] == 1
    for p in s["players"]:
        assert p["on"] == {} and p["leader"] == OFF and p["waiting"] == FIGURES - 1
    v = E.view(s, None)
    assert v["pieces"] == [] and all(p["waiting"] == 9 for p in v["players"])


def test_round_one_only_the_leader_can_enter_for_free():
    s = E.new_game(2, 3, {})
    seat = E.to_act(s)[0]
    actions = E.legal_actions(s, seat)
    moves = [a for a in actions if a["type"] == "move"]
    assert actions[-1] == {"type": "pass"}
    assert all(a["leader"] and a["from"] == OFF and a["sources"] == ["free"] and a["cost"] == 0 for a in moves)
    assert sorted(a["to"] for a in moves) == sorted(board(3).outer)


def test_options_are_validated():
    with pytest.raises(ValueError, match="Unknown"):
        E.new_game(2, 0, {"speed": 3})
    with pytest.raises(ValueError, match="radius"):
        E.new_game(2, 0, {"radius": 6})
    with pytest.raises(ValueError, match="victory"):
        E.new_game(3, 0, {"victory": "most_mana"})
    with pytest.raises(ValueError, match="leader_escape"):
        E.new_game(2, 0, {"leader_escape": "yes"})
    with pytest.raises(ValueError, match="round_limit"):
        E.new_game(2, 0, {"round_limit": -1})
    with pytest.raises(ValueError):
        E.new_game(7, 0, {})
    s = E.new_game(6, 0, {"radius": 5, "leader_escape": True, "victory": "last_leader", "round_limit": 0})
    assert s["options"] == {"radius": 5, "leader_escape": True, "victory": "last_leader", "round_limit": 0}
    assert E.new_game(2, 0)["options"] == {"radius": 3, "leader_escape": False, "victory": "first_blood",
                                           "round_limit": 60}


def test_first_player_rotates_every_round():
    s = E.new_game(3, 11, {})
    first = s["first"]
    assert E.to_act(s) == [first]
    pass_round(s)
    assert s["round"] == 2 and s["first"] == (first + 1) % 3 and E.to_act(s) == [(first + 1) % 3]


# ------------------------------------------------------------------ steps and mana
def test_steps_cost_one_mana_each_from_a_peaceful_own_field():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-D4": 3})
    dest = moves_of(s, 0, "H-D4")
    assert dest["T-D8"]["cost"] == 1 and dest["H-C3"]["cost"] == 2
    assert dest["H-C3"]["sources"] == ["H-D4", "H-D4"]
    assert "H-B2" not in dest  # four steps away, only three mana
    events = E.apply(s, 0, dest["H-C3"])
    assert events[0]["type"] == "move" and events[0]["path"][0] == "H-D4" and events[0]["path"][-1] == "H-C3"
    assert len(events[0]["path"]) == 3
    assert s["mana"] == {"H-D4": 1}
    assert s["players"][0]["on"] == {"H-D4": 1, "H-C3": 1, "T-A1": 1}


def test_mana_on_a_contested_field_cannot_be_used():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-D4": 3}, free_used=(0,))
    assert not moves_of(s, 0, "H-D4") and not moves_of(s, 0, OFF)
    assert not E._can_move(s, 0)
    s["players"][1]["on"] = {"T-H9": 1}  # the enemy leaves: the mana becomes his again
    E.forget(s)
    assert moves_of(s, 0, "H-D4")["H-C3"]["cost"] == 2


def test_mana_under_a_lone_figure_pays_only_the_step_that_leaves_it():
    s = position({0: {"H-D4": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-D4": 5})
    # once the figure has stepped off H-D4 nobody of his stands there: the rest of the mana is out of reach
    assert set(moves_of(s, 0, "H-D4")) == set(CENTRE_TRIS)
    assert moves_of(s, 0, "H-D4")["T-D7"]["sources"] == ["H-D4"]
    with pytest.raises(IllegalAction, match="cannot reach H-C3"):
        E.apply(s, 0, {"type": "move", "from": "H-D4", "to": "H-C3", "leader": False,
                       "sources": ["H-D4", "H-D4"]})
    # the leader elsewhere can use it all: H-D4 stays occupied by the other figure
    far = moves_of(s, 0, "T-A1", leader=True)
    assert far["H-A1"]["sources"] == ["free"]
    assert far["T-B4"]["sources"] == ["free", "H-D4"] and far["T-B4"]["cost"] == 1


def test_the_default_keeps_mana_that_would_be_left_behind():
    # the lone figure's own 1 mana pays the first step; the pool field pays the rest
    s = position({0: {"H-D4": 1, "H-A1": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-D4": 1, "H-A1": 2})
    dest = moves_of(s, 0, "H-D4")
    assert dest["H-C3"]["sources"] == ["H-D4", "H-A1"]
    assert "T-C5" in dest and dest["T-C5"]["sources"] == ["H-D4", "H-A1", "H-A1"]


def test_default_sources_take_the_richest_field_ties_by_name():
    s = position({0: {"H-C3": 1, "H-B2": 1, "T-A1": 1, "H-E4": 2}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-C3": 2, "H-B2": 2})
    assert moves_of(s, 0, "H-E4")["T-E8"]["sources"] == ["H-B2"]
    s["mana"]["H-C3"] = 3
    E.forget(s)
    assert moves_of(s, 0, "H-E4")["T-E8"]["sources"] == ["H-C3"]
    assert moves_of(s, 0, "H-E4")["H-D4"]["sources"] == ["H-C3", "H-B2"]


def test_the_mover_may_choose_other_sources():
    s = position({0: {"H-C3": 1, "H-B2": 1, "T-A1": 1, "H-E4": 2}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-C3": 3, "H-B2": 2})
    E.apply(s, 0, {"type": "move", "from": "H-E4", "to": "H-D4", "leader": False, "sources": ["h-b2", "H-B2"]})
    assert s["mana"] == {"H-C3": 3}
    assert s["players"][0]["on"]["H-D4"] == 1
    # without sources the engine uses its default; a wrong cost is refused
    s2 = position({0: {"H-C3": 1, "T-A1": 1, "H-E4": 2}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                  mana={"H-C3": 3})
    with pytest.raises(IllegalAction, match="costs 2 mana, not 1"):
        E.apply(s2, 0, {"type": "move", "from": "H-E4", "to": "H-D4", "cost": 1})
    E.apply(s2, 0, {"type": "move", "from": "H-E4", "to": "H-D4"})
    assert s2["mana"] == {"H-C3": 1}


def test_bad_sources_are_refused_with_a_reason():
    s = position({0: {"H-C3": 1, "T-A1": 1, "H-E4": 2}, 1: {"T-H9": 1, "H-A1": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-C3": 1, "H-A1": 4})
    base = {"type": "move", "from": "H-E4", "to": "H-D4", "leader": False}
    with pytest.raises(IllegalAction, match="holds only 1 mana"):
        E.apply(s, 0, {**base, "sources": ["H-C3", "H-C3"]})
    with pytest.raises(IllegalAction, match="Only the leader"):
        E.apply(s, 0, {**base, "sources": ["free", "H-C3"]})
    with pytest.raises(IllegalAction, match="your figures stand alone"):
        E.apply(s, 0, {**base, "sources": ["H-A1", "H-A1"]})  # the enemy's mana
    with pytest.raises(IllegalAction, match="cannot reach"):
        E.apply(s, 0, {**base, "sources": ["H-C3"]})  # H-D4 is two steps away
    with pytest.raises(IllegalAction, match="holds only 0 mana"):
        E.apply(s, 0, {**base, "sources": ["H-C3", "H-E4"]})
    with pytest.raises(IllegalAction, match="no field"):
        E.apply(s, 0, {**base, "sources": ["H-Q1", "H-C3"]})
    assert s["mana"] == {"H-C3": 1, "H-A1": 4}


def test_the_leader_has_one_free_step_per_movement_phase():
    s = position({0: {"T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"})
    dest = moves_of(s, 0, "T-A1", leader=True)
    assert set(dest) == {"H-A1"} and dest["H-A1"]["sources"] == ["free"] and dest["H-A1"]["cost"] == 0
    E.apply(s, 0, dest["H-A1"])
    assert s["players"][0]["free_used"]
    E.apply(s, 1, {"type": "pass"})
    # no mana anywhere and the free step spent: player 0 cannot move, so the phase ends
    assert s["round"] == 2 and not s["players"][0]["free_used"]
    assert s["mana"] == {"H-A1": 1}  # his leader produced on the outer HEX


def test_the_leaders_default_spends_the_least_mana():
    s = position({0: {"H-A1": 1}, 1: {"T-H9": 1}}, {0: "H-A1", 1: "T-H9"}, mana={"H-A1": 1})
    dest = moves_of(s, 0, "H-A1", leader=True)
    assert dest["T-A1"]["sources"] == ["free"] and dest["T-A1"]["cost"] == 0
    # two steps: the mana under him pays the first (it is out of reach later), the free step the second
    assert dest["H-A2"]["sources"] == ["H-A1", "free"] and dest["H-A2"]["cost"] == 1
    assert "T-A4" not in dest


def test_the_free_step_can_be_saved_by_paying():
    s = position({0: {"T-A1": 1, "H-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-A1": 2})
    E.apply(s, 0, {"type": "move", "from": "T-A1", "to": "H-A1", "leader": True, "sources": ["H-A1"]})
    assert not s["players"][0]["free_used"] and s["mana"] == {"H-A1": 1}
    s["players"][0]["free_used"] = True
    E.apply(s, 1, {"type": "pass"})
    with pytest.raises(IllegalAction, match="already taken his free step"):
        E.apply(s, 0, {"type": "move", "from": "H-A1", "to": "T-A2", "leader": True, "sources": ["free"]})


# ------------------------------------------------------------------ where figures may go
def test_a_tri_holds_one_figure():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"T-D8": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-D4": 3})
    dest = moves_of(s, 0, "H-D4")
    assert "T-D8" not in dest and "T-D7" in dest
    with pytest.raises(IllegalAction, match="triangle holds only one figure"):
        E.apply(s, 0, {"type": "move", "from": "H-D4", "to": "T-D8"})
    # H-C4 is still reachable, around the blocked TRI
    assert dest["H-C4"]["cost"] == 2


def test_paths_do_not_pass_through_occupied_tris():
    # the only TRI between H-A1 and the rest is blocked on every side but one
    occupied = {"T-B2": 1, "T-B3": 1, "T-B4": 1, "T-A3": 1, "T-A2": 1}
    s = position({0: {"H-A1": 2, "T-H9": 1}, 1: {**occupied, "T-H1": 1}}, {0: "T-H9", 1: "T-H1"},
                 mana={"H-A1": 5})
    assert set(moves_of(s, 0, "H-A1")) == {"T-A1"}


def test_entering_from_off_board_onto_empty_outer_tris_only():
    s = position({0: {"H-D4": 1, "T-A1": 1}, 1: {"T-A2": 1}}, {0: "H-D4", 1: "T-A2"}, mana={"H-D4": 2})
    one_step = {d for d, a in moves_of(s, 0, OFF).items() if a["cost"] == 1}
    outer = set(board(3).outer)
    assert one_step == outer - {"T-A1", "T-A2"}
    E.apply(s, 0, moves_of(s, 0, OFF)["T-H8"])
    assert s["players"][0]["waiting"] == FIGURES - 3 and s["players"][0]["on"]["T-H8"] == 1


def test_a_move_can_enter_and_walk_on():
    s = position({0: {"H-D4": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "H-D4", 1: "T-H9"}, mana={"H-D4": 3})
    dest = moves_of(s, 0, OFF)
    assert dest["H-G4"]["cost"] == 2 and dest["T-G9"]["cost"] == 3


def test_leaving_an_enemy_held_hex_needs_a_figure_to_stay():
    s = position({0: {"H-D4": 1, "H-A1": 1, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 4})
    assert moves_of(s, 0, "H-D4") == {}
    with pytest.raises(IllegalAction, match="unless one of your figures stays"):
        E.apply(s, 0, {"type": "move", "from": "H-D4", "to": "T-D7"})
    s["players"][0]["on"]["H-D4"] = 2
    E.forget(s)
    assert "T-D7" in moves_of(s, 0, "H-D4")


def test_entering_an_enemy_held_hex_is_allowed():
    s = position({0: {"T-D7": 1, "H-A1": 1, "T-A1": 1}, 1: {"H-D4": 3, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 1})
    dest = moves_of(s, 0, "T-D7")
    assert "H-D4" in dest
    # ... but the figure may not walk on through it: it would leave an enemy-held HEX alone
    assert "T-D8" not in dest


@pytest.mark.parametrize("escape,enemy_is_leader,enemies,can", [
    (False, False, 1, False),
    (True, False, 1, True),
    (True, True, 1, False),   # "egyszerű" = an ordinary figure, not a leader
    (True, False, 2, False),
])
def test_leader_escape_option(escape, enemy_is_leader, enemies, can):
    on1 = {"H-D4": enemies, "T-H9": 1}
    leader1 = "T-H9"
    if enemy_is_leader:
        on1 = {"H-D4": 1}
        leader1 = "H-D4"
    s = position({0: {"H-D4": 1}, 1: on1}, {0: "H-D4", 1: leader1}, options={"leader_escape": escape})
    assert bool(moves_of(s, 0, "H-D4", leader=True)) is can
    # the same with the seats swapped (the escaping leader sits after his enemy)
    s = position({1: {"H-D4": 1}, 0: on1}, {1: "H-D4", 0: leader1}, options={"leader_escape": escape}, turn=1)
    assert bool(moves_of(s, 1, "H-D4", leader=True)) is can


# ------------------------------------------------------------------ turns
def test_passing_does_not_end_a_players_phase():
    s = position({0: {"T-A1": 1, "H-A1": 1}, 1: {"T-H9": 1, "H-G4": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 3, "H-G4": 3})
    E.apply(s, 0, {"type": "pass"})
    assert E.to_act(s) == [1]
    E.apply(s, 1, moves_of(s, 1, OFF)["T-H8"])
    assert E.to_act(s) == [0] and s["round"] == 1
    E.apply(s, 0, {"type": "pass"})
    E.apply(s, 1, {"type": "pass"})
    assert s["round"] == 2  # two passes in a row end the phase


def test_a_player_who_cannot_move_is_passed_over():
    s = position({0: {"T-A1": 1, "H-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 3}, free_used=(1,))
    events = E.apply(s, 0, moves_of(s, 0, OFF)["T-A2"])
    assert E.to_act(s) == [0]
    # he has no mana and his leader's free step is spent: the event says so
    assert of_type(events, "cannot_move") == [{"type": "cannot_move", "seat": 1, "why": "no_mana"}]
    events = E.apply(s, 0, {"type": "pass"})
    assert s["round"] == 2 and not of_type(events, "cannot_move")[1:]


# ------------------------------------------------------------------ production
def test_production_on_peaceful_hexes_capped_by_value():
    s = position({0: {"H-D4": 5, "H-A1": 2, "T-A1": 1, "H-C3": 1},
                  1: {"H-C3": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    prod = of_type(events, "production")[0]
    assert {(x["field"], x["seat"], x["mana"]) for x in prod["fields"]} == {("H-D4", 0, 4), ("H-A1", 0, 1)}
    assert s["mana"] == {"H-D4": 4, "H-A1": 1}  # H-C3 is contested (1 v 1, no losses), TRIs never produce
    assert prod["total"] == 5


# ------------------------------------------------------------------ battles
@pytest.mark.parametrize("counts,lost", [
    ({0: 3, 1: 1}, {0: 1, 1: 1}),
    ({0: 2, 1: 2}, {0: 1, 1: 1}),
    ({0: 1, 1: 1}, {0: 0, 1: 0}),
    ({0: 3, 1: 2}, {0: 2, 1: 2}),
    ({0: 3, 1: 1, 2: 1}, {0: 1, 1: 1, 2: 1}),
    ({0: 2, 1: 2, 2: 1}, {0: 1, 1: 1, 2: 1}),
    ({0: 4, 1: 2, 2: 3}, {0: 3, 1: 2, 2: 3}),
])
def test_battle_losses(counts, lost):
    from engines.hextri.combat import battle_losses
    assert battle_losses(counts) == lost


def test_a_battle_removes_figures_and_leaves_mana():
    s = position({0: {"H-D4": 3, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 free_used=(0, 1))
    events = pass_round(s)
    battle = of_type(events, "battle")[0]
    assert battle["field"] == "H-D4" and battle["before"] == {"0": 3, "1": 1}
    assert battle["losses"] == {"0": 1, "1": 1} and battle["leaders_lost"] == []
    assert s["players"][0]["on"]["H-D4"] == 2 and "H-D4" not in s["players"][1]["on"]
    assert s["mana"] == {"H-D4": 2}  # contested during production: only the two removed figures' mana
    v = E.view(s, None)
    assert v["last_round"]["battles"][0]["field"] == "H-D4" and v["contested"] == []


def test_removed_figures_sit_out_the_next_round():
    s = position({0: {"H-D4": 3, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 free_used=(0, 1))
    s["players"][1]["waiting"] = 0  # his only other figures are on the board
    pass_round(s)
    p1 = s["players"][1]
    assert s["round"] == 2 and p1["waiting"] == 0 and p1["resting"] == [[3, 1]]
    assert E.view(s, None)["players"][1]["resting"] == 1
    s["mana"]["H-G4"] = 2
    p1["on"]["H-G4"] = 1
    s["turn"] = 1
    with pytest.raises(IllegalAction, match="sit out this round"):
        E.apply(s, 1, {"type": "move", "from": "off", "to": "T-H8"})
    while s["round"] == 2:
        E.apply(s, E.to_act(s)[0], {"type": "pass"})
    assert s["round"] == 3 and p1["waiting"] == 1 and p1["resting"] == []


def test_figures_return_event():
    s = position({0: {"H-D4": 3, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 free_used=(0, 1))
    pass_round(s)
    events = pass_round(s)
    assert {"type": "figures_return", "seat": 1, "count": 1} in events


def test_leader_losses_are_the_owners_choice():
    s = position({0: {"H-D4": 3}, 1: {"H-D4": 2, "T-H9": 1}}, {0: "H-D4", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    assert s["phase"] == "losses" and E.to_act(s) == [0]
    assert of_type(events, "choose_losses")[0]["seats"] == [0]
    legal = E.legal_actions(s, 0)
    assert legal == [{"type": "losses", "field": "H-D4", "count": 2, "leader": False},
                     {"type": "losses", "field": "H-D4", "count": 2, "leader": True}]
    events = E.apply(s, 0, legal[0])
    assert s["players"][0]["on"] == {"H-D4": 1} and s["players"][0]["leader"] == "H-D4"
    assert s["players"][1]["on"] == {"T-H9": 1} and s["round"] == 2
    assert s["mana"] == {"H-D4": 4}


def test_choosing_the_leader_as_a_loss_ends_a_two_player_game():
    s = position({0: {"H-D4": 3, "H-A1": 2}, 1: {"H-D4": 2, "T-H9": 1}}, {0: "H-D4", 1: "T-H9"},
                 free_used=(0, 1))
    pass_round(s)
    events = E.apply(s, 0, {"type": "losses", "field": "H-D4", "leader": True})
    assert of_type(events, "eliminated")[0] == {"type": "eliminated", "seat": 0, "figures_removed": 3, "by": [1]}
    r = E.result(s)
    assert r["places"] == [2, 1] and r["reason"] == "leader_down" and r["winners"] == [1]
    assert E.to_act(s) == []
    # the whole team left the board, 1 mana per figure: H-A1 had 2 (+1 produced), H-D4 got 4 + 1
    assert s["mana"]["H-A1"] == 3 and s["mana"]["H-D4"] == 5


def test_loss_choices_are_simultaneous_and_private_until_all_chose():
    s = position({0: {"H-D4": 3, "H-A1": 1}, 1: {"H-D4": 3}}, {0: "H-D4", 1: "H-D4"}, free_used=(0, 1))
    pass_round(s)
    assert E.to_act(s) == [0, 1]
    E.apply(s, 1, {"type": "losses", "field": "H-D4", "count": 2, "leader": False})
    assert E.to_act(s) == [0]
    v = E.view(s, 0)
    assert v["battle"]["decided"] == [1] and v["battle"]["deciding"] == [0]
    assert "choices" not in json.dumps(v)
    with pytest.raises(IllegalAction):
        E.apply(s, 1, {"type": "losses", "field": "H-D4", "count": 2, "leader": True})
    with pytest.raises(IllegalAction, match="You lose 2"):
        E.apply(s, 0, {"type": "losses", "field": "H-D4", "count": 1, "leader": False})
    E.apply(s, 0, {"type": "losses", "field": "H-D4", "count": 2, "leader": False})
    assert s["round"] == 2 and s["players"][0]["on"] == {"H-D4": 1, "H-A1": 1}
    assert s["players"][1]["on"] == {"H-D4": 1}
    assert E.view(s, None)["contested"] == ["H-D4"]


def test_a_leader_that_is_the_last_figure_falls():
    s = position({0: {"H-D4": 1}, 1: {"H-D4": 2, "T-H9": 1}}, {0: "H-D4", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    assert of_type(events, "battle")[0]["leaders_lost"] == [0]
    assert E.result(s)["places"] == [2, 1]


def test_both_leaders_falling_together_is_a_draw():
    s = position({0: {"H-D4": 1, "H-A1": 2}, 1: {"H-A1": 1, "H-D4": 2}}, {0: "H-D4", 1: "H-A1"},
                 free_used=(0, 1))
    pass_round(s)
    r = E.result(s)
    assert r["places"] == [1, 1] and r["reason"] == "leaders_fell_together" and r["winners"] == [0, 1]


# ------------------------------------------------------------------ encirclement
def test_a_hex_surrounded_by_enemy_tris_is_encircled():
    enemy = {t: 1 for t in CENTRE_TRIS}
    s = position({0: {"H-D4": 1, "T-A1": 1}, 1: {**enemy, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    assert of_type(events, "encircled") == [{"type": "encircled", "seat": 0, "field": "H-D4", "count": 1,
                                             "leader": False}]
    assert "H-D4" not in s["players"][0]["on"]
    assert s["mana"]["H-D4"] == 2  # 1 produced + 1 for the removed figure
    assert all(s["players"][1]["on"][t] == 1 for t in CENTRE_TRIS)  # the ring itself reaches the rim


def test_a_tri_whose_hexes_are_all_enemy_held_is_encircled():
    s = position({0: {"T-D7": 1, "T-A1": 1}, 1: {"H-C3": 1, "H-D3": 1, "H-D4": 1, "T-H9": 1}},
                 {0: "T-A1", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    assert of_type(events, "encircled") == [{"type": "encircled", "seat": 0, "field": "T-D7", "count": 1,
                                             "leader": False}]
    assert s["mana"]["T-D7"] == 1  # mana can lie on a TRI


def test_a_group_with_empty_fields_inside_is_encircled_hexes_first_then_tris():
    ring = {"H-C3": 1, "H-C4": 1, "H-D3": 1, "H-D5": 1, "H-E3": 1, "H-E4": 1}
    s = position({0: {"H-D4": 2, "T-D8": 1, "T-A1": 1}, 1: {**ring, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 free_used=(0, 1))
    events = pass_round(s)
    enc = of_type(events, "encircled")
    assert [(e["field"], e["count"]) for e in enc] == [("H-D4", 2), ("T-D8", 1)]
    assert s["players"][0]["on"] == {"T-A1": 1}
    assert s["players"][0]["resting"] == [[3, 3]]


def test_the_rim_gives_no_protection():
    # T-A3 touches only H-A1 and H-A2, both enemy-held: every way into it is enemy-held, the edge does not count
    s = position({0: {"T-A3": 1, "T-H1": 1}, 1: {"H-A1": 1, "H-A2": 1, "T-H9": 1}}, {0: "T-H1", 1: "T-H9"},
                 free_used=(0, 1))
    events = pass_round(s)
    assert [(e["field"], e["count"]) for e in of_type(events, "encircled")] == [("T-A3", 1)]
    assert s["players"][0]["on"] == {"T-H1": 1} and s["mana"]["T-A3"] == 1


def test_a_leader_parked_on_an_entry_tri_falls_when_his_hex_is_taken():
    # T-A1 touches H-A1 only: once an enemy holds H-A1 the leader is encircled and his team leaves
    s = position({0: {"T-A1": 1, "H-D4": 2}, 1: {"H-A1": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 free_used=(0, 1))
    events = pass_round(s)
    assert of_type(events, "encircled")[0] == {"type": "encircled", "seat": 0, "field": "T-A1", "count": 1,
                                                "leader": True}
    assert E.result(s)["winners"] == [1] and E.result(s)["reason"] == "leader_down"


def test_a_region_with_an_empty_entry_tri_stays_open():
    # H-A1 is enemy-held but T-A2 (an empty entry TRI) opens H-A2's side: T-A3 reaches it through H-A2
    s = position({0: {"T-A3": 1, "T-H1": 1}, 1: {"H-A1": 1, "T-H9": 1}}, {0: "T-H1", 1: "T-H9"},
                 free_used=(0, 1))
    events = pass_round(s)
    assert not of_type(events, "encircled")
    assert s["players"][0]["on"]["T-A3"] == 1


def test_own_figures_on_the_entry_tris_do_not_keep_a_region_open():
    # H-A1's two entry TRIs hold his own figures, its four other TRIs are enemy-held: nobody could get in
    ring = {"T-A3": 1, "T-B2": 1, "T-B3": 1, "T-B4": 1}
    s = position({0: {"H-A1": 1, "T-A1": 1, "T-A2": 1, "T-H1": 1}, 1: {**ring, "T-H9": 1}},
                 {0: "T-H1", 1: "T-H9"}, free_used=(0, 1))
    assert sorted(board(3).adj["H-A1"]) == ["T-A1", "T-A2", *ring]
    events = pass_round(s)
    assert [e["field"] for e in of_type(events, "encircled")] == ["H-A1", "T-A1", "T-A2"]


def test_games_begun_under_rules_version_1_keep_the_rim_rule():
    s = position({0: {"T-A3": 1, "T-H1": 1}, 1: {"H-A1": 1, "H-A2": 1, "T-H9": 1}}, {0: "T-H1", 1: "T-H9"},
                 free_used=(0, 1))
    s["rules_version"] = 1
    s = E.from_json(json.loads(json.dumps(E.to_json(s))))
    events = pass_round(s)
    assert not of_type(events, "encircled") and s["players"][0]["on"]["T-A3"] == 1


def test_version_1_snapshots_load_and_play_to_the_end():
    from ai import hextri as H
    from engines.rng import Rng

    saved = json.loads((Path(__file__).parent / "data" / "hextri_v1_snapshots.json").read_text())
    for key, snap in saved.items():
        assert snap["rules_version"] == 1
        s = E.from_json(snap)
        rngs = [Rng(7 + i) for i in range(s["num_players"])]
        for _ in range(20_000):
            if not E.to_act(s):
                break
            seat = E.to_act(s)[0]
            E.apply(s, seat, H.choose(E, s, seat, rngs[seat]))
            s = E.from_json(json.loads(json.dumps(E.to_json(s))))
        assert E.result(s) is not None, key
        assert s["rules_version"] == 1 and E.view(s, None)["rules_version"] == 1


def test_states_of_unknown_rules_versions_are_refused():
    s = E.new_game(2, 0)
    assert s["rules_version"] == 2
    with pytest.raises(ValueError):
        E.from_json({**E.to_json(s), "rules_version": 3})


def test_an_encircled_leader_takes_his_team_with_him():
    enemy = {t: 1 for t in CENTRE_TRIS}
    s = position({0: {"H-D4": 2, "H-A1": 3}, 1: {**enemy, "T-H9": 1}}, {0: "H-D4", 1: "T-H9"}, free_used=(0, 1))
    events = pass_round(s)
    assert of_type(events, "encircled")[0]["leader"] is True
    assert of_type(events, "eliminated")[0]["by"] == [1]
    assert s["players"][0]["on"] == {} and E.result(s)["places"] == [2, 1]


# ------------------------------------------------------------------ winning with more players
def _three_player_kill(victory):
    return position({0: {"H-D4": 2, "T-A1": 1}, 1: {"H-D4": 1}, 2: {"T-H9": 1, "H-G4": 2}},
                    {0: "T-A1", 1: "H-D4", 2: "T-H9"}, n=3, options={"victory": victory}, free_used=(0, 1, 2))


def test_first_blood_wins_for_the_player_who_brought_a_leader_down():
    s = _three_player_kill("first_blood")
    pass_round(s)
    r = E.result(s)
    assert r["reason"] == "first_blood" and r["places"] == [1, 3, 2] and r["winners"] == [0]


def test_last_leader_standing_plays_on_and_skips_the_fallen():
    s = _three_player_kill("last_leader")
    events = pass_round(s)
    assert E.result(s) is None and of_type(events, "eliminated")[0]["seat"] == 1
    assert s["players"][1]["leader"] is None
    seen = set()
    for _ in range(30):
        if not E.to_act(s):
            break
        seat = E.to_act(s)[0]
        seen.add(seat)
        E.apply(s, seat, {"type": "pass"})
    assert 1 not in seen and seen


def test_last_leader_standing_ends_when_one_leader_is_left():
    s = position({0: {"H-D4": 2, "T-A1": 1, "H-A1": 2}, 1: {"H-D4": 1}, 2: {"H-A1": 1}},
                 {0: "T-A1", 1: "H-D4", 2: "H-A1"}, n=3, options={"victory": "last_leader"}, free_used=(0, 1, 2))
    pass_round(s)
    r = E.result(s)
    assert r["reason"] == "last_leader" and r["places"] == [1, 2, 2]


def test_first_blood_by_encirclement_names_the_encircler():
    enemy = {t: 1 for t in CENTRE_TRIS}
    s = position({0: {"H-D4": 1}, 1: {**enemy, "T-H9": 1}, 2: {"T-H1": 1}}, {0: "H-D4", 1: "T-H9", 2: "T-H1"},
                 n=3, free_used=(0, 1, 2))
    pass_round(s)
    assert E.result(s)["winners"] == [1]


# ------------------------------------------------------------------ round limit
def test_round_limit_ranks_by_figures_then_mana():
    s = position({0: {"H-A1": 2, "T-A1": 1}, 1: {"H-G4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 options={"round_limit": 1}, free_used=(0, 1))
    events = pass_round(s)
    r = E.result(s)
    assert r["reason"] == "round_limit" and r["places"] == [1, 2] and r["scores"] == [3, 2]
    assert of_type(events, "game_over")
    s = position({0: {"H-A1": 1, "T-A1": 1}, 1: {"H-G4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 options={"round_limit": 1}, free_used=(0, 1), mana={"H-G4": 2})
    pass_round(s)
    assert E.result(s)["places"] == [2, 1] and E.result(s)["mana"] == [1, 3]
    s = position({0: {"H-A1": 1, "T-A1": 1}, 1: {"H-G4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 options={"round_limit": 1}, free_used=(0, 1))
    pass_round(s)
    assert E.result(s)["places"] == [1, 1]


def test_a_frozen_board_without_round_limit_ends_in_a_stalemate():
    # two lone leaders on one HEX: neither may leave, 1 v 1 never fights, a contested HEX never produces
    s = position({0: {"H-D4": 1}, 1: {"H-D4": 1}}, {0: "H-D4", 1: "H-D4"}, options={"round_limit": 0})
    for p in s["players"]:
        p["waiting"] = 0
    events: list = []
    E._proceed(s, events, 0)  # what the engine does after any go: it must not loop for ever
    r = E.result(s)
    assert r["reason"] == "stalemate" and r["places"] == [1, 1] and s["round"] <= 3
    assert E.to_act(s) == []


# ------------------------------------------------------------------ field names, view, errors
def test_parse_field_is_part_of_the_engine_api():
    s = E.new_game(2, 0, {})
    assert E.parse_field(s, "h-d4") == "H-D4" and E.parse_field(s, "T a1") == "T-A1"
    assert E.parse_field(s, "off") == OFF
    with pytest.raises(IllegalAction, match="no field H-J1"):
        E.parse_field(s, "H-J1")
    small = E.new_game(2, 0, {"radius": 2})
    with pytest.raises(IllegalAction, match="no field H-F1"):
        E.parse_field(small, "H-F1")


def test_typed_field_names_work_in_actions():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-D4": 3})
    E.apply(s, 0, {"type": "move", "from": "hd4", "to": "h c3"})
    assert s["players"][0]["on"]["H-C3"] == 1


def test_illegal_moves_explain_themselves():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-D4": 1})
    cases = [
        ({"type": "move", "from": "H-A1", "to": "T-A2"}, "no figure on H-A1"),
        ({"type": "move", "from": "H-D4", "to": "T-D7", "leader": True}, "leader is not on H-D4"),
        ({"type": "move", "from": "H-D4", "to": "H-A1"}, "cannot reach H-A1"),
        ({"type": "move", "from": "H-D4", "to": "H-D4"}, "another field"),
        ({"type": "move", "from": "H-D4"}, "where to"),
        ({"type": "move", "from": "H-D4", "to": "T-D7", "speed": 2}, "does not take speed"),
        ({"type": "losses", "leader": False}, "no battle"),
        ({"type": "pass", "x": 1}, "carries nothing"),
        ({"type": "dance"}, "not a HEX-TRI action"),
    ]
    before = json.dumps(E.to_json(s), sort_keys=True)
    for action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            E.apply(s, 0, action)
    assert json.dumps(E.to_json(s), sort_keys=True) == before
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(s, 1, {"type": "pass"})


def test_view_shows_everything_public_and_legal_only_to_the_actor():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"H-D4": 1, "T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-D4": 3, "H-A1": 1})
    v = E.view(s, 0)
    for key in ("seat", "to_act", "round", "phase", "players", "pieces", "mana", "contested", "moves", "last",
                "legal", "radius", "round_limit", "battle", "last_round", "result", "options"):
        assert key in v
    assert v["contested"] == ["H-D4"] and v["mana"] == {"H-D4": 3, "H-A1": 1}
    assert {"field": "T-A1", "seat": 0, "count": 1, "leader": True} in v["pieces"]
    assert v["players"][0]["waiting"] == FIGURES - 3 and v["players"][0]["mana"] == 0
    assert "legal" not in E.view(s, 1) and "legal" not in E.view(s, None)
    json.dumps(v)


def test_moves_are_recorded_for_the_picture():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"T-H9": 1, "H-G4": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-D4": 3})
    E.apply(s, 0, moves_of(s, 0, "H-D4")["H-C3"])
    v = E.view(s, None)
    assert v["moves"][0]["path"][0] == "H-D4" and v["moves"][0]["to"] == "H-C3"
    assert v["last"]["type"] == "move" and v["last"]["seat"] == 0


def test_json_round_trip_mid_battle():
    s = position({0: {"H-D4": 3}, 1: {"H-D4": 3}}, {0: "H-D4", 1: "H-D4"}, free_used=(0, 1))
    pass_round(s)
    data = json.loads(json.dumps(E.to_json(s)))
    restored = E.from_json(data)
    assert E.to_json(restored) == E.to_json(s) and data["rules_version"] == E.rules_version
    with pytest.raises(ValueError):
        E.from_json({**data, "rules_version": 99})


# ------------------------------------------------------------------ choosing who pays (issue 22: moves by destination)
def _two_sources():
    """Seat 0 can pay from H-A1 (2 mana) or H-A2 (1 mana); his leader's free step is used."""
    return position({0: {"H-A1": 2, "H-A2": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                    mana={"H-A1": 2, "H-A2": 1}, free_used=(0,))


def _rich(mana=40):
    """Seat 0 alone on nine HEXes with ``mana`` each (the pass-until-huge case on the default board)."""
    fields = ["H-A1", "H-A2", "H-A3", "H-B1", "H-C1", "H-D1", "H-B3", "H-C4", "H-D4"]
    return position({0: {f: 1 for f in fields}, 1: {"T-H9": 1}}, {0: "H-D4", 1: "T-H9"},
                    mana={f: mana for f in fields}, free_used=(0,))


def test_a_move_is_listed_once_per_figure_and_destination_paid_the_default_way():
    s = _two_sources()
    moves = [a for a in E.legal_actions(s, 0) if a["type"] == "move"]
    keys = [(a["from"], a["to"], a["leader"]) for a in moves]
    assert len(keys) == len(set(keys))
    a = moves_of(s, 0, OFF)["T-A2"]
    assert a == {"type": "move", "from": OFF, "to": "T-A2", "leader": False, "cost": 1, "sources": ["H-A1"],
                 "other_ways": True}
    assert [v["sources"] for v in E.variants(s, 0, a)] == [["H-A1"], ["H-A2"]]
    assert E.variants(s, 0, a)[0] is a, "the listed move itself comes first"
    # a two-step move: H-A1 x2, or H-A1 + H-A2 (H-A2's one mana under the mover pays its first step only)
    far = E.variants(s, 0, moves_of(s, 0, OFF)["H-A2"])
    assert [sorted(v["sources"]) for v in far] == [["H-A1", "H-A1"], ["H-A1", "H-A2"]]
    # the same move named by its fields (as typed) has the same variants
    assert E.variants(s, 0, {"type": "move", "from": "off", "to": "h-a2", "leader": False}) == far


def test_a_move_that_can_be_paid_one_way_only_says_so():
    # one paying field; every field giving all it has; the leader's free step alone
    s = position({0: {"H-A1": 2, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"}, mana={"H-A1": 5},
                 free_used=(0,))
    assert not any(a["other_ways"] for a in E.legal_actions(s, 0) if a["type"] == "move")
    s = _two_sources()
    three = [a for a in E.legal_actions(s, 0) if a["type"] == "move" and a["cost"] == 3]
    assert three and not any(a["other_ways"] for a in three), "three steps take all three mana: one way"
    s = position({0: {}, 1: {"T-H9": 1}}, {1: "T-H9"})
    leader = moves_of(s, 0, OFF, leader=True)
    assert leader and not any(a["other_ways"] for a in leader.values())
    assert [v["sources"] for v in E.variants(s, 0, leader["T-A1"])] == [["free"]]
    assert E.variants(s, 0, {"type": "pass"}) == [{"type": "pass"}]


def test_a_chosen_way_to_pay_is_what_the_move_takes():
    s = _two_sources()
    other = E.variants(s, 0, moves_of(s, 0, OFF)["T-A2"])[1]
    E.apply(s, 0, other)
    assert s["mana"] == {"H-A1": 2}
    # typed sources of the player's own choosing, or none at all (the default)
    s = _two_sources()
    E.apply(s, 0, {"type": "move", "from": "off", "to": "H-A2", "leader": False, "sources": ["H-A2", "H-A1"]})
    assert s["mana"] == {"H-A1": 1}
    s = _two_sources()
    E.apply(s, 0, {"type": "move", "from": "off", "to": "T-A2", "leader": False})
    assert s["mana"] == {"H-A1": 1, "H-A2": 1}


def test_a_typed_way_to_pay_is_taken_in_the_order_the_path_needs():
    # a lone figure on H-A1 (its 2 mana pay only the step that leaves it) and a figure on H-B1 (2 mana)
    s = position({0: {"H-A1": 1, "H-B1": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 2, "H-B1": 2}, free_used=(0,))
    two = next(a for a in E.legal_actions(s, 0) if a["type"] == "move" and a["from"] == "H-A1" and a["cost"] == 2)
    typed = {"type": "move", "from": "H-A1", "to": two["to"], "leader": False, "sources": ["H-B1", "H-A1"]}
    events = E.apply(s, 0, typed)
    assert events[0]["sources"] == ["H-A1", "H-B1"] and s["mana"] == {"H-A1": 1, "H-B1": 1}
    # H-A1's mana cannot pay a step taken elsewhere, whatever the order: refused with the reason
    s = position({0: {"H-A1": 1, "H-B1": 1, "T-A1": 1}, 1: {"T-H9": 1}}, {0: "T-A1", 1: "T-H9"},
                 mana={"H-A1": 2, "H-B1": 2}, free_used=(0,))
    with pytest.raises(IllegalAction, match="paid from those fields"):
        E.apply(s, 0, {**typed, "sources": ["H-A1", "H-A1"]})
    assert s["mana"] == {"H-A1": 2, "H-B1": 2}


def test_ways_to_pay_are_listed_lazily_and_bounded_most_useful_first():
    s = _rich()
    moves = [a for a in E.legal_actions(s, 0) if a["type"] == "move"]
    assert len(moves) <= 9 * len(board(3).fields), "one move per figure and destination"
    long = max(moves, key=lambda a: a["cost"])
    assert long["cost"] >= 8 and long["other_ways"]
    ways = E.variants(s, 0, long, limit=25)
    assert len(ways) == 25 and ways[0] is long
    amounts = [tuple(sorted((f, v["sources"].count(f)) for f in set(v["sources"]))) for v in ways]
    assert len(set(amounts)) == 25, "every way takes different mana from the fields"
    # after the default, per paying field: the most it can give (all of it from a field where other
    # figures stand; one mana from under the lone mover, the first step's), and the way that spares it
    for f in s["mana"]:
        if f != long["from"]:
            assert any(set(v["sources"]) == {f} for v in ways[1:19])
        assert any(f not in v["sources"] for v in ways[1:19])
    assert len(E.variants(s, 0, long, limit=3)) == 3 and E.variants(s, 0, long, limit=3) == ways[:3]
    for way in ways:
        copy = E.from_json(E.to_json(s))
        E.apply(copy, 0, way)
        spent = {f: 40 - copy["mana"].get(f, 0) for f in s["mana"]}
        assert {f: n for f, n in spent.items() if n} == dict(Counter(way["sources"]))


def test_variants_of_a_move_not_listed_now_are_refused():
    s = _two_sources()
    with pytest.raises(IllegalAction):
        E.variants(s, 0, {"type": "move", "from": "off", "to": "H-D4", "leader": False})
    with pytest.raises(IllegalAction):
        E.variants(s, 0, {"type": "move", "from": "H-Q9", "to": "T-A2", "leader": False})
    with pytest.raises(IllegalAction):
        E.apply(s, 0, {**moves_of(s, 0, OFF)["T-A2"], "other_ways": "maybe"})


def test_action_logs_saved_when_every_way_to_pay_was_listed_still_replay():
    """Games recorded with the engine that listed every way to pay (before issue 22; 13 games, some of
    them paying the non-default ways, in rules versions 1 and 2) replay to the very same events and
    final states."""
    saved = json.loads((Path(__file__).parent / "data" / "hextri_old_action_logs.json").read_text())
    paid_otherwise = 0
    for game in saved:
        s = E.new_game(game["players"], game["seed"], dict(game["options"]))
        if game["rules_version"] != E.rules_version:
            s = E.from_json({**E.to_json(s), "rules_version": game["rules_version"]})
        h = hashlib.sha256()
        for seat, action in game["actions"]:
            assert "other_ways" not in action
            if action["type"] == "move":
                listed = moves_of(s, seat, action["from"], action["leader"])[action["to"]]
                paid_otherwise += sorted(listed["sources"]) != sorted(action["sources"])
            events = E.apply(s, seat, action)
            h.update(json.dumps([seat, action, events], sort_keys=True, separators=(",", ":")).encode())
        assert h.hexdigest()[:24] == game["events"]
        final = json.dumps(E.to_json(s), sort_keys=True, separators=(",", ":")).encode()
        assert hashlib.sha256(final).hexdigest()[:24] == game["final"]
    assert paid_otherwise >= 50


def test_the_pass_until_huge_position_lists_one_move_per_destination():
    """Issue 22: radius 5, no round limit, two players who place their figures and then pass. With every way
    to pay listed, the position after 34 actions had 2,453,881 of them; now one per figure and destination,
    however much mana piles up."""
    from bench.hextri_positions import pass_until_huge

    s = pass_until_huge(160)
    seat = E.to_act(s)[0]
    assert sum(s["mana"].values()) > 1000 and s["result"] is None
    moves = [a for a in E.legal_actions(s, seat) if a["type"] == "move"]
    assert 1000 < len(moves) <= len(E._groups(s, seat)) * len(board(5).fields)
    assert len({(a["from"], a["to"], a["leader"]) for a in moves}) == len(moves)
    long = max(moves, key=lambda a: a["cost"])
    assert long["other_ways"] and len(E.variants(s, seat, long)) == 25


# ------------------------------------------------------------------ first blood, then play on
def test_first_blood_play_on_with_three_players_ends_when_one_is_left_to_play():
    s = _three_player_kill("first_blood_play_on")
    events = pass_round(s)
    assert of_type(events, "champion") == [{"type": "champion", "seat": 0, "figures_removed": 2,
                                            "playing_on": [2]}]
    assert s["players"][0]["on"] == {}  # the winner's figures have left the board
    # nobody is left for C to play on against: C takes second place, the fallen B third
    r = E.result(s)
    assert r["places"] == [1, 3, 2] and r["winners"] == [0] and r["reason"] == "first_blood_play_on"


def test_first_blood_play_on_ranks_the_rest_by_the_play_on():
    # four players: A brings B's leader down; C and D play on for the places until D's leader falls
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"H-D4": 1}, 2: {"T-H9": 1, "H-G4": 3}, 3: {"H-G4": 1}},
                 {0: "T-A1", 1: "H-D4", 2: "T-H9", 3: "H-G4"}, n=4, options={"victory": "first_blood_play_on"},
                 free_used=(0, 1, 2, 3))
    events = pass_round(s)
    # B falls on H-D4 (to A) and D falls on H-G4 (to C) in the same combat: A is first to a leader, C too
    champs = sorted(e["seat"] for e in of_type(events, "champion"))
    r = E.result(s)
    assert champs == [0, 2] and r is not None and r["places"][0] == r["places"][2] == 1


def test_first_blood_play_on_keeps_playing_for_second_place():
    s = position({0: {"H-D4": 2, "T-A1": 1}, 1: {"H-D4": 1}, 2: {"T-H9": 1, "H-G4": 2}, 3: {"T-H1": 1}},
                 {0: "T-A1", 1: "H-D4", 2: "T-H9", 3: "T-H1"}, n=4, options={"victory": "first_blood_play_on"},
                 free_used=(0, 1, 2, 3))
    events = pass_round(s)
    assert [e["seat"] for e in of_type(events, "champion")] == [0] and E.result(s) is None
    assert E.to_act(s) and 0 not in E.to_act(s) and s["players"][0]["on"] == {}
    seen = set()
    for _ in range(40):
        if not E.to_act(s):
            break
        seat = E.to_act(s)[0]
        seen.add(seat)
        E.apply(s, seat, {"type": "pass"})
    assert seen == {2, 3}  # the winner has left the table, the fallen player is out
    view = E.view(s, None)
    assert view["players"][0]["won"] == 1
    # the play-on ends at the round limit: first place stays with A, C and D are ranked after him
    s["options"]["round_limit"] = s["round"]
    pass_round(s)
    r = E.result(s)
    assert r["winners"] == [0] and r["places"][0] == 1 and r["places"][1] == 4 and r["reason"] == \
        "first_blood_play_on"
