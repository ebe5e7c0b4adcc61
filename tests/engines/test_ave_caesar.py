"""Ave Caesar rules: setup, movement, the leader's 6-ban and its exceptions, views."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.ave_caesar.engine import card_value, normalize_options, race_plan
from engines.ave_caesar.track import get_track
from tests.engines.test_ave_caesar_support import E, dests, move, race, set_car, space

A = "A"


def top(col, lane):
    return space(A, "top", col, lane)


def bottom(col, lane):
    return space(A, "bottom", col, lane)


def advance(state):
    """Let the engine take the turn of the chariot to act if it has no choice (skips, neutral turns)."""
    events = []
    E._advance(state, events, advance_first=False)
    return events


# ---------------------------------------------------------------- options and setup
@pytest.mark.parametrize("n,owned,per", [(2, 6, 3), (3, 6, 2), (4, 4, 1), (5, 5, 1), (6, 6, 1)])
def test_default_chariots_per_player(n, owned, per):
    state = E.new_game(n, 3, {})
    assert len(state["chariots"]) == owned
    for seat in range(n):
        assert sum(1 for ch in state["chariots"] if ch["owner"] == seat) == per
    assert state["options"] == {"chariots_per_player": per, "races": 4, "neutral_chariots": False,
                                "turn_order": "seat", "track": "A"}


def test_neutral_chariots_fill_the_empty_start_spaces():
    state = E.new_game(4, 3, {"neutral_chariots": True})
    owners = [ch["owner"] for ch in state["chariots"]]
    assert owners == [0, 1, 2, 3, None, None]
    assert [ch["label"] for ch in state["chariots"]] == ["A", "B", "C", "D", "N1", "N2"]
    two = E.new_game(2, 3, {"neutral_chariots": True, "chariots_per_player": 2})
    assert [ch["label"] for ch in two["chariots"]] == ["A1", "B1", "A2", "B2", "N1", "N2"]


@pytest.mark.parametrize("n,options,message", [
    (1, {}, "2 to 6"),
    (2, {"colour": "red"}, "Unknown option"),
    (2, {"chariots_per_player": 4}, "1, 2 or 3"),
    (3, {"chariots_per_player": 3}, "more than the 6"),
    (6, {"neutral_chariots": True}, "free start space"),
    (2, {"neutral_chariots": "yes"}, "true or false"),
    (2, {"races": 5}, "races"),
    (2, {"races": True}, "races"),
    (2, {"turn_order": "random"}, "turn_order"),
    (2, {"track": "C"}, "track"),
])
def test_bad_options_are_refused(n, options, message):
    with pytest.raises(ValueError, match=message):
        normalize_options(n, options)


def test_every_chariot_has_a_full_deck_and_a_hand_of_three():
    state = E.new_game(4, 9, {"neutral_chariots": True})
    for c, car in enumerate(state["race"]["cars"]):
        everything = car["hand"] + car["deck"]
        assert sorted(card_value(x) for x in everything) == sorted([v for v in range(1, 7) for _ in range(4)])
        assert len(set(everything)) == 24
        assert len(car["hand"]) == (0 if state["chariots"][c]["owner"] is None else 3)


def test_highest_revealed_card_takes_start_space_one_and_ties_reveal_again():
    tie_seen = False
    for seed in range(30):
        state = E.new_game(6, seed, {})
        race_ = state["race"]
        rounds = race_["reveal"]
        contenders = list(range(6))
        for shown in rounds:
            assert [c for c, _ in shown] == contenders
            best = max(v for _, v in shown)
            contenders = [c for c, v in shown if v == best]
        assert contenders == [race_["grid"][0]]
        tie_seen |= len(rounds) > 1
        first = race_["grid"][0]
        # the others follow in table order from the start player's left; turn order is the same
        assert race_["grid"] == [(first + i) % 6 for i in range(6)] == race_["order"]
        track = get_track("A")
        for i, c in enumerate(race_["grid"]):
            assert race_["cars"][c]["space"] == track.start[i]
    assert tie_seen


def test_race_plan_alternates_tracks_then_goes_counter_clockwise():
    assert race_plan("A", 4) == [("A", "cw"), ("B", "cw"), ("A", "ccw"), ("B", "ccw")]
    assert race_plan("B", 2) == [("B", "cw"), ("A", "cw")]


# ---------------------------------------------------------------- movement
def test_a_card_moves_exactly_its_value_straight_or_diagonally():
    s = race(c0=dict(where=top(3, 1), hand=[1, 2, 5]), c1=dict(where=bottom(0, 1)))
    assert dests(s, 1) == {top(4, 0), top(4, 1), top(4, 2)}
    assert dests(s, 2) == {top(5, 0), top(5, 1), top(5, 2)}
    # never sideways: no destination in the chariot's own column
    for ch in E.choices(s, 0):
        for m in ch["moves"]:
            assert len(m["path"]) == m["card"] + 1


def test_chariots_block_but_can_be_overtaken_in_another_lane():
    s = race(c0=dict(where=top(3, 1), hand=[1, 2, 3]), c1=dict(where=top(4, 1)))
    assert dests(s, 1) == {top(4, 0), top(4, 2)}
    assert top(5, 1) in dests(s, 2)  # past the blocker by a diagonal
    assert all(top(4, 1) not in m["path"] for ch in E.choices(s, 0) for m in ch["moves"])


def test_a_card_is_playable_only_if_the_whole_move_is_possible():
    s = race(4, c0=dict(where=top(3, 1), hand=[1, 2, 4]), c1=dict(where=top(5, 0)), c2=dict(where=top(5, 1)),
             c3=dict(where=top(5, 2)))
    assert dests(s, 1) == {top(4, 0), top(4, 1), top(4, 2)}
    assert dests(s, 2) == dests(s, 4) == set()
    assert {a["card"] for a in E.legal_actions(s, 0)} == {1}
    with pytest.raises(IllegalAction, match="cannot take chariot A"):
        E.apply(s, 0, {"type": "move", "chariot": 0, "card": 2, "to": top(5, 1)})


def test_a_blocked_chariot_skips_without_playing_or_drawing():
    s = race(4, c0=dict(where=top(3, 1), hand=[1, 2, 4]), c1=dict(where=top(4, 0)), c2=dict(where=top(4, 1)),
             c3=dict(where=top(4, 2)))
    hand, deck = list(s["race"]["cars"][0]["hand"]), list(s["race"]["cars"][0]["deck"])
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 0, "seat": 0, "reason": "blocked", "card": None}
    assert s["race"]["cars"][0]["hand"] == hand and s["race"]["cars"][0]["deck"] == deck
    assert E.to_act(s) == [1]


def test_playing_a_card_draws_the_next_one():
    s = race(c0=dict(where=top(3, 1), hand=[1, 2, 5], deck=[4, 3]), c1=dict(where=bottom(0, 1)))
    events = move(s, 2, top(5, 1))
    car = s["race"]["cars"][0]
    assert sorted(card_value(x) for x in car["hand"]) == [1, 3, 5]
    assert [card_value(x) for x in car["deck"]] == [4]
    assert car["played"] == [2] and car["space"] == top(5, 1)
    assert events[0]["type"] == "moved" and events[0]["path"] == [top(3, 1), top(4, 1), top(5, 1)]


def test_walls_forbid_lane_changes():
    # track A has a wall between the middle and the outer lane along bottom columns 0-2
    s = race(c0=dict(where=bottom(0, 2), hand=[1, 2, 3]), c1=dict(where=top(0, 0)))
    assert dests(s, 1) == {bottom(1, 2)}
    assert dests(s, 2) == {bottom(2, 2)}
    assert dests(s, 3) == {bottom(3, 2), bottom(3, 1)}  # the wall ends in the middle of column 2
    s = race(c0=dict(where=bottom(0, 1), hand=[1, 2, 3]), c1=dict(where=top(0, 0)))
    assert dests(s, 1) == {bottom(1, 0), bottom(1, 1)}


def test_a_lane_that_ends_at_a_wall_forces_a_diagonal_move():
    s = race(c0=dict(where=bottom(3, 2), hand=[1, 2, 3]), c1=dict(where=top(0, 0)))
    assert dests(s, 1) == {bottom(4, 1)}


def test_all_lanes_merge_into_a_bottleneck_and_spread_again():
    s = race(c0=dict(where=bottom(5, 0), hand=[1, 2, 3]), c1=dict(where=top(0, 0)))
    assert dests(s, 1) == {bottom(6, 1)}
    assert len(dests(s, 2)) == 3  # the three lanes of the west curve
    assert get_track(A).bottlenecks == {bottom(6, 1)}


def test_each_lane_further_out_in_a_curve_costs_more():
    track = get_track(A)
    east = {lane: [sp for sp in track.spaces.values() if sp["sec"] == "east" and sp["lane"] == lane]
            for lane in (0, 1, 2)}
    assert len(east[2]) == len(east[1]) + 1 == len(east[0]) + 2  # version 1: the middle lane cost nothing extra
    # from the start of the curve to its end: straight round in each lane, the inner one fewest steps
    first = {lane: east[lane][0]["id"] for lane in (0, 1, 2)}
    assert [track.to_line[first[lane]] for lane in (0, 1, 2)] == [track.to_line[first[0]] + k for k in (0, 1, 2)]
    # a chariot hemmed in on the outside of the east curve by two rivals is one space worse off
    s = race(3, c0=dict(where=top(6, 2), hand=[1, 1, 1]), c1=dict(where=space(A, "east", 0, 0)),
             c2=dict(where=space(A, "east", 0, 1)))
    assert dests(s, 1) == {space(A, "east", 0, 2)}


# ---------------------------------------------------------------- the leader's 6
def test_the_leader_may_not_play_a_six():
    # top columns 0-2 lie behind the finish line: crossings=0 puts c1 on its way to the start of lap 1
    s = race(c0=dict(where=top(5, 1), hand=[6, 2, 3]), c1=dict(where=top(1, 1), crossings=0))
    assert E.leaders(s) == [0]
    assert {a["card"] for a in E.legal_actions(s, 0)} == {2, 3}
    with pytest.raises(IllegalAction, match="You may not play a 6 while you lead the race."):
        E.apply(s, 0, {"type": "move", "chariot": 0, "card": 6, "to": space(A, "east", 4, 0)})


def test_a_chariot_behind_may_play_a_six():
    s = race(c0=dict(where=top(1, 1), hand=[6, 2, 3], crossings=0), c1=dict(where=top(5, 1)))
    assert 6 in {a["card"] for a in E.legal_actions(s, 0)}


def test_tied_leaders_may_not_play_a_six_until_one_moves():
    s = race(c0=dict(where=top(5, 0), hand=[6, 2, 3]), c1=dict(where=top(5, 1), hand=[6, 1, 1]))
    assert sorted(E.leaders(s)) == [0, 1]
    assert 6 not in {a["card"] for a in E.legal_actions(s, 0)}
    move(s, 2, space(A, "east", 0, 0))
    assert E.to_act(s) == [1]
    assert 6 in {a["card"] for a in E.legal_actions(s, 1)}


def test_a_leader_holding_only_sixes_skips_until_overtaken():
    s = race(c0=dict(where=top(5, 1), hand=[6, 6, 6]), c1=dict(where=top(3, 1), hand=[5, 5, 5]))
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 0, "seat": 0, "reason": "leader_six", "card": None}
    assert E.to_act(s) == [1]
    move(s, 5, space(A, "east", 1, 0))  # chariot 1 takes the lead
    assert E.to_act(s) == [0]
    assert {a["card"] for a in E.legal_actions(s, 0)} == {6}


def test_the_start_player_may_open_with_a_six():
    state = E.new_game(2, 5, {"chariots_per_player": 1})
    first = state["race"]["grid"][0]
    set_car(state, first, state["race"]["cars"][first]["space"], hand=[6, 1, 2], crossings=0)
    assert first in E.leaders(state)  # I touches the line: a leader at the start
    assert 6 in {a["card"] for a in E.legal_actions(state, first)}
    state["race"]["moves"] = 1  # any later move of a leader: no 6
    E.forget(state)
    assert 6 not in {a["card"] for a in E.legal_actions(state, first)}


def test_exception_leader_on_a_bottleneck_with_three_sixes():
    s = race(c0=dict(where=bottom(6, 1), hand=[6, 6, 6]), c1=dict(where=bottom(0, 0)))
    assert E.leaders(s) == [0]
    assert {a["card"] for a in E.legal_actions(s, 0)} == {6}
    s = race(c0=dict(where=bottom(6, 1), hand=[6, 6, 5]), c1=dict(where=bottom(0, 0)))
    assert {a["card"] for a in E.legal_actions(s, 0)} == {5}
    s = race(c0=dict(where=bottom(5, 1), hand=[6, 6, 6]), c1=dict(where=bottom(0, 0)))
    assert E.legal_actions(s, 0) == []  # three 6s, but not on a bottleneck
    # deck used up: the last card, a 6, counts as a hand of nothing but 6s
    s = race(c0=dict(where=bottom(6, 1), hand=[6], deck=[]), c1=dict(where=bottom(0, 0)))
    assert {a["card"] for a in E.legal_actions(s, 0)} == {6}


def test_exception_two_leaders_side_by_side_blocking_with_only_sixes():
    # both lanes of the two-lane stretch taken: nobody behind can get past
    s = race(3, c0=dict(where=bottom(5, 0), hand=[6, 6, 6]), c1=dict(where=bottom(5, 1), hand=[6, 6, 6]),
             c2=dict(where=bottom(1, 1), hand=[1, 2, 3]))
    assert sorted(E.leaders(s)) == [0, 1]
    assert {a["card"] for a in E.legal_actions(s, 0)} == {6}
    move(s, 6, E.legal_actions(s, 0)[0]["to"])
    assert E.to_act(s) == [1]
    assert {a["card"] for a in E.legal_actions(s, 1)} == {6}  # no longer a leader


def test_no_exception_when_a_lane_is_free_or_a_leader_holds_another_card():
    s = race(3, c0=dict(where=top(5, 0), hand=[6, 6, 6]), c1=dict(where=top(5, 1), hand=[6, 6, 6]),
             c2=dict(where=top(1, 1), hand=[1, 2, 3], crossings=0))
    assert E.legal_actions(s, 0) == []  # the outer lane is open: the chasers can pass
    s = race(3, c0=dict(where=bottom(5, 0), hand=[6, 6, 6]), c1=dict(where=bottom(5, 1), hand=[6, 6, 2]),
             c2=dict(where=bottom(1, 1), hand=[1, 2, 3]))
    assert E.legal_actions(s, 0) == []


def test_a_chariot_alone_on_the_track_leads_nobody():
    s = race(c0=dict(where=top(5, 1), hand=[6, 6, 6]))
    assert E.leaders(s) == []
    assert {a["card"] for a in E.legal_actions(s, 0)} == {6}


# ---------------------------------------------------------------- actions, views and secrets
def test_actions_list_every_destination_per_card_with_numbered_choices():
    s = race(c0=dict(where=top(3, 1), hand=[1, 2, 2]), c1=dict(where=top(4, 0)))
    actions = E.legal_actions(s, 0)
    choices = E.choices(s, 0)
    assert [ch["n"] for ch in choices] == list(range(1, len(choices) + 1))
    pairs = {(m["card"], ch["to"]) for ch in choices for m in ch["moves"]}
    assert pairs == {(a["card"], a["to"]) for a in actions}
    assert len(actions) == len(pairs)  # the two 2s give the same actions once
    assert all(a == {"type": "move", "chariot": 0, "card": a["card"], "to": a["to"]} for a in actions)
    # nearest destinations first
    assert [ch["remaining"] for ch in choices] == sorted((ch["remaining"] for ch in choices), reverse=True)


def test_wrong_chariot_or_missing_card_are_explained():
    s = race(c0=dict(where=top(3, 1), hand=[1, 2, 3]), c1=dict(where=top(0, 0)))
    with pytest.raises(IllegalAction, match="It is chariot A's turn"):
        E.apply(s, 0, {"type": "move", "chariot": 1, "card": 1, "to": top(4, 1)})
    with pytest.raises(IllegalAction, match="holds no 5"):
        E.apply(s, 0, {"type": "move", "chariot": 0, "card": 5, "to": top(4, 1)})
    with pytest.raises(IllegalAction, match="not your turn"):
        E.apply(s, 1, {"type": "move", "chariot": 0, "card": 1, "to": top(4, 1)})


def test_views_show_own_hands_only():
    state = E.new_game(2, 4, {})  # 2 players x 3 chariots
    seat = E.to_act(state)[0]
    other = 1 - seat
    mine = E.view(state, seat)
    theirs = E.view(state, other)
    spectator = E.view(state, None)
    assert {h["chariot"] for h in mine["hands"]} == {c for c, ch in enumerate(state["chariots"]) if ch["owner"] == seat}
    assert all(len(h["cards"]) == 3 for h in mine["hands"])
    assert "legal" in mine and "choices" in mine and "legal" not in theirs and "hands" not in spectator
    own_ids = {card["id"] for h in mine["hands"] for card in h["cards"]}
    assert own_ids == E.secrets(state, seat)
    assert not own_ids & {card["id"] for h in theirs["hands"] for card in h["cards"]}
    for v in (mine, theirs, spectator):
        assert {"track", "direction", "chariots", "turn", "order", "last", "standings", "race", "races"} <= set(v)
        c = v["chariots"][0]
        assert {"label", "owner", "space", "lap", "paid", "status", "cards_left", "remaining", "start"} <= set(c)


def test_distance_to_go_counts_the_alley_while_the_coin_is_due():
    for track, route in (("A", 80), ("B", 78)):
        state = E.new_game(6, 2, {"track": track})
        view = E.view(state, None)
        first = view["chariots"][view["grid"][0]]
        assert first["to_go"] == route and first["remaining"] == route - get_track(track).detour
    s = race(c0=dict(where=top(3, 1), paid=True), c1=dict(where=top(3, 0)))
    view = E.view(s, None)
    assert view["chariots"][0]["to_go"] == view["chariots"][0]["remaining"]
    assert view["chariots"][1]["to_go"] == view["chariots"][1]["remaining"] + 1


def test_the_leader_is_the_one_furthest_along_laps_first():
    # c1 is physically behind c0 on the straight but a whole lap ahead
    s = race(c0=dict(where=top(5, 1), hand=[6, 2, 3], crossings=1), c1=dict(where=top(4, 1), crossings=2))
    assert E.leaders(s) == [1]
    assert 6 in {a["card"] for a in E.legal_actions(s, 0)}


def test_crossing_the_line_starts_the_next_lap():
    s = race(c0=dict(where=top(2, 1), hand=[2, 3, 4], crossings=1), c1=dict(where=bottom(0, 0)))
    events = move(s, 2, top(4, 1))
    assert {"type": "new_lap", "chariot": 0, "seat": 0, "lap": 2, "label": "A"} in events
    assert s["race"]["cars"][0]["crossings"] == 2 and E.view(s, None)["chariots"][0]["lap"] == 2
