"""Ave Caesar rules: Caesar's alley, finishing and laurels, running out of cards, stalled races, neutral
chariots, championships and counter-clockwise races."""

from __future__ import annotations

from engines.ave_caesar.engine import card_value
from engines.ave_caesar.track import get_track
from engines.rng import Rng
from tests.engines.test_ave_caesar_support import E, dests, finish_race, move, race, space, types

A = "A"
ACCESS = space(A, "bottom", 1, 0)  # the inner-lane space in front of the alley mouth (clockwise)
GATE = {space(A, "bottom", 2, lane) for lane in (0, 1, 2)}


def alley(i):
    return space(A, "alley", i, -1)


def bottom(col, lane):
    return space(A, "bottom", col, lane)


def top(col, lane):
    return space(A, "top", col, lane)


def advance(state):
    events = []
    E._advance(state, events, advance_first=False)
    return events


# ---------------------------------------------------------------- Caesar's alley
def test_track_a_alley_layout():
    track = get_track(A)
    assert track.alley == [alley(i) for i in range(4)]
    assert track.alley_access == ACCESS and track.gate == GATE
    assert track.next[alley(3)] == [bottom(5, 0)]


def test_entering_the_alley_means_stopping_in_it():
    s = race(c0=dict(where=ACCESS, hand=[1, 4, 5]), c1=dict(where=top(0, 0)))
    assert alley(0) in dests(s, 1)
    assert alley(3) in dests(s, 4)
    # a 5 could run through the alley to its exit, but a chariot that drives in must stop there
    assert dests(s, 5) == {bottom(6, 1)}
    choice = next(ch for ch in E.choices(s, 0) if ch["to"] == alley(3))
    assert choice["enters_alley"] and not choice["misses_alley"]


def test_stopping_in_the_alley_salutes_and_pays():
    s = race(c0=dict(where=ACCESS, hand=[2, 4, 5]), c1=dict(where=top(0, 0)))
    events = move(s, 2, alley(1))
    assert types(events)[:2] == ["moved", "ave_caesar"]
    assert events[1] == {"type": "ave_caesar", "chariot": 0, "seat": 0, "label": "A"}
    assert s["race"]["cars"][0]["paid"]
    assert E.view(s, None)["chariots"][0]["paid"]


def test_a_chariot_that_paid_drives_out_and_may_enter_again():
    s = race(c0=dict(where=alley(2), hand=[3, 4, 5], paid=True), c1=dict(where=top(0, 0)))
    assert dests(s, 3) == {bottom(6, 1)}  # out through the exit and on to the bottleneck
    # the book: every chariot must visit the alley "at least once": a paid one may drive in again (and stop)
    s = race(c0=dict(where=ACCESS, hand=[1, 2, 5], paid=True), c1=dict(where=top(0, 0)))
    assert alley(0) in dests(s, 1) and alley(1) in dests(s, 2)
    assert alley(3) not in dests(s, 5)  # it must stop there all the same: no running through
    choice = next(ch for ch in E.choices(s, 0) if ch["to"] == alley(1))
    assert not choice["enters_alley"] and not choice["misses_alley"]  # nothing to pay
    events = move(s, 2, alley(1))
    assert "ave_caesar" not in types(events) and s["race"]["cars"][0]["paid"]


def test_no_overtaking_in_the_alley():
    s = race(c0=dict(where=ACCESS, hand=[2, 3, 4]), c1=dict(where=alley(2), paid=True))
    assert alley(1) in dests(s, 2)
    assert not {alley(2), alley(3)} & (dests(s, 3) | dests(s, 4))
    s = race(c0=dict(where=alley(0), hand=[1, 2, 3], paid=True), c1=dict(where=alley(1), paid=True))
    assert E.choices(s, 0) == []


def test_lap_two_unpaid_chariot_waits_while_the_entrance_is_blocked():
    s = race(c0=dict(where=bottom(0, 1), hand=[2, 3, 4], crossings=2), c1=dict(where=alley(0), paid=True))
    assert E.choices(s, 0) == []
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 0, "seat": 0, "reason": "alley_wait", "card": None}
    # it may still close up to the entrance
    s = race(c0=dict(where=bottom(0, 1), hand=[1, 3, 4], crossings=2), c1=dict(where=alley(0), paid=True))
    assert dests(s, 1) == {bottom(1, 0)}  # not the middle lane beside it: from there the alley is out of reach
    # in lap 1 the same chariot may drive past (it can still pay in lap 2)
    s = race(c0=dict(where=bottom(0, 1), hand=[2, 3, 4], crossings=1), c1=dict(where=alley(0), paid=True))
    assert dests(s, 2)
    assert not any(ch["misses_alley"] for ch in E.choices(s, 0))
    # the access space taken by a rival blocks the entrance as well
    s = race(c0=dict(where=bottom(0, 1), hand=[2, 3, 4], crossings=2), c1=dict(where=ACCESS, paid=True))
    assert E.choices(s, 0) == []


def test_lap_two_chariot_unable_to_enter_passes_and_is_disqualified_at_the_line():
    # the entrance is free but every card overshoots the alley: it must play one and earns Caesar's wrath
    s = race(c0=dict(where=ACCESS, hand=[5, 6, 6], crossings=2, deck=[5, 5]),
             c1=dict(where=top(5, 1), crossings=2, paid=True))
    choices = E.choices(s, 0)
    assert choices and all(ch["misses_alley"] for ch in choices)
    events = move(s, 5, bottom(6, 1))
    assert "alley_missed" in types(events)
    assert s["race"]["cars"][0]["status"] == "racing"  # it drives on until the end of lap 2
    s["race"]["cars"][0]["space"] = top(1, 1)
    s["race"]["turn"] = 0
    s["race"]["cars"][0]["hand"] = s["race"]["cars"][0]["hand"][:1] + ["AC0-2a", "AC0-3a"]
    events = move(s, 2, top(3, 1))
    assert {"type": "disqualified", "chariot": 0, "seat": 0, "reason": "caesar_wrath", "label": "A"} in events
    car = s["race"]["cars"][0]
    assert car["status"] == "disqualified" and car["space"] is None


def test_a_disqualified_chariot_scores_nothing_even_if_first_across():
    s = race(c0=dict(where=top(1, 1), hand=[2, 3, 4], crossings=2, paid=False),
             c1=dict(where=top(0, 0), hand=[3, 3, 3], crossings=3, paid=True))
    move(s, 2, top(3, 1))
    assert s["race"]["cars"][0]["status"] == "disqualified"
    events = move(s, 3, top(3, 0))
    assert {"type": "finished", "chariot": 1, "seat": 1, "place": 1, "laurels": 6, "label": "B"} in events
    assert E.result(s)["scores"] == [0, 6]


def test_neutral_chariots_need_not_enter_the_alley():
    """The book: a neutral chariot need not stop in the alley (it is not forbidden to); its shortest-route
    policy drives past."""
    s = race(2, {"neutral_chariots": True},
             c0=dict(where=top(0, 0)), c2=dict(where=ACCESS, deck=[1]))
    ends = E._paths(s, 2, {1, 2})
    assert alley(0) in {e["to"] for e in ends[1]}
    best = E.neutral_destination(s, 2, 1, ends[1])
    assert best["to"] not in get_track(A).alley_set


# ---------------------------------------------------------------- finishing, laurels, end of race
def test_crossing_the_line_after_three_laps_wins_and_the_race_goes_on():
    s = race(3, c0=dict(where=top(1, 0), hand=[2, 3, 4], crossings=3, paid=True),
             c1=dict(where=top(4, 1), crossings=3, paid=True), c2=dict(where=bottom(3, 0), paid=True))
    events = move(s, 2, top(3, 0))
    assert {"type": "finished", "chariot": 0, "seat": 0, "place": 1, "laurels": 6, "label": "A"} in events
    assert s["race"]["cars"][0]["space"] is None  # finished chariots leave the track
    assert E.result(s) is None and E.to_act(s) == [1]


def test_laurels_six_four_three_two_one_nothing():
    s = race(6, **{f"c{c}": dict(where=get_track(A).start[c], hand=[2, 2, 2], crossings=3, paid=True)
                   for c in range(6)})
    events = []
    while E.to_act(s):
        seat = E.to_act(s)[0]
        events += E.apply(s, seat, E.legal_actions(s, seat)[0])
    finished = [e for e in events if e["type"] == "finished"]
    assert [e["laurels"] for e in finished] == [6, 4, 3, 2, 1, 0]
    result = E.result(s)
    assert sorted(result["scores"]) == [0, 1, 2, 3, 4, 6]
    assert sorted(result["places"]) == [1, 2, 3, 4, 5, 6]
    over = next(e for e in events if e["type"] == "race_over")
    assert over["ranking"] == [e["chariot"] for e in finished]


def test_a_chariot_out_of_cards_is_taken_off_and_scores_nothing():
    s = race(c0=dict(where=top(4, 1), hand=[2], deck=[]), c1=dict(where=top(0, 0), hand=[1, 1, 1], deck=[]))
    events = move(s, 2, top(6, 1))
    assert {"type": "out_of_cards", "chariot": 0, "seat": 0, "label": "A"} in events
    assert s["race"]["cars"][0]["status"] == "removed" and s["race"]["cars"][0]["space"] is None


def test_race_ends_when_every_chariot_has_finished_or_stopped():
    s = race(c0=dict(where=top(4, 1), hand=[2], deck=[]),
             c1=dict(where=top(1, 1), hand=[3, 3, 3], deck=[], crossings=3, paid=True))
    events = move(s, 2, top(6, 1))
    assert types(events) == ["moved", "out_of_cards"] and E.to_act(s) == [1]
    events = move(s, 3, top(4, 1))
    assert types(events) == ["moved", "finished", "race_over", "game_over"]
    assert E.result(s) == {"places": [2, 1], "scores": [0, 6], "reason": "race", "laurels": [0, 6],
                           "races": s["history"],
                           "chariots": [{"label": "A", "owner": 0}, {"label": "B", "owner": 1}]}
    assert E.to_act(s) == [] and E.legal_actions(s, 0) == []


def test_a_race_where_nothing_can_move_any_more_is_stopped():
    # chariot 1 leads on the alley's access space with nothing but a 6 (no bottleneck, nobody ahead): it may not
    # move. Chariot 0, coin due in lap 2, must wait for the blocked entrance and its 2s would pass the alley.
    s = race(c0=dict(where=bottom(0, 1), hand=[2, 2], deck=[], crossings=2),
             c1=dict(where=ACCESS, hand=[6], deck=[], crossings=2, paid=True))
    events = advance(s)
    assert types(events) == ["skipped", "skipped", "race_stalled", "race_over", "game_over"]
    assert [e["reason"] for e in events[:2]] == ["alley_wait", "leader_six"]
    assert [car["status"] for car in s["race"]["cars"]] == ["stopped", "stopped"]
    assert E.result(s)["scores"] == [0, 0]


# ---------------------------------------------------------------- neutral chariots
def neutral_race(**cars):
    return race(3, {"neutral_chariots": True}, **cars)  # chariots 0-2 owned, 3-5 neutral


def test_neutral_chariot_plays_its_top_card_along_the_shortest_route():
    s = neutral_race(c0=dict(where=bottom(0, 1), hand=[1, 1, 1]), c3=dict(where=top(3, 1), deck=[4, 2]))
    s["race"]["turn"] = 3
    events = advance(s)
    moved = events[0]
    assert moved["type"] == "moved" and moved["chariot"] == 3 and moved["card"] == 2 and moved["auto"]
    assert moved["seat"] is None and moved["to"] == top(5, 0)  # straight on, the inner lane
    assert [card_value(x) for x in s["race"]["cars"][3]["deck"]] == [4]


def test_neutral_chariot_stands_in_the_way_when_the_route_is_equal():
    # two equally short destinations in column 5; the middle one is right in front of chariot 0
    s = neutral_race(c0=dict(where=top(4, 1), hand=[1, 1, 1], crossings=0), c1=dict(where=top(5, 0)),
                     c3=dict(where=top(3, 2), deck=[2]))
    s["race"]["turn"] = 3
    E.neutral_destination(s, 3, 2, E._paths(s, 3, {2})[2])
    events = advance(s)
    assert events[0]["to"] == top(5, 1)


def test_neutral_chariot_discards_an_unplayable_card_and_stays():
    s = neutral_race(c0=dict(where=top(6, 0)), c1=dict(where=top(6, 1)), c2=dict(where=top(6, 2)),
                     c3=dict(where=top(4, 1), deck=[1, 3]))
    s["race"]["turn"] = 3
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 3, "seat": None, "reason": "blocked", "card": 3}
    assert s["race"]["cars"][3]["space"] == top(4, 1) and len(s["race"]["cars"][3]["deck"]) == 1


def test_neutral_leader_turning_a_six_discards_it():
    s = neutral_race(c0=dict(where=top(1, 1), crossings=0), c3=dict(where=top(5, 1), deck=[1, 6]))
    s["race"]["turn"] = 3
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 3, "seat": None, "reason": "leader_six", "card": 6}
    assert s["race"]["cars"][3]["space"] == top(5, 1)


def test_fully_blocked_neutral_draws_nothing():
    s = neutral_race(c0=dict(where=top(5, 0)), c1=dict(where=top(5, 1)), c2=dict(where=top(5, 2)),
                     c3=dict(where=top(4, 1), deck=[1, 3]))
    s["race"]["turn"] = 3
    events = advance(s)
    assert events[0] == {"type": "skipped", "chariot": 3, "seat": None, "reason": "blocked", "card": None}
    assert len(s["race"]["cars"][3]["deck"]) == 2


def test_neutral_chariots_take_no_laurels():
    s = neutral_race(c0=dict(where=top(0, 0), hand=[3, 3, 3], crossings=3, paid=True),
                     c3=dict(where=top(2, 1), crossings=3, deck=[1]))
    s["race"]["turn"] = 3
    events = advance(s)
    assert {"type": "finished", "chariot": 3, "seat": None, "place": None, "laurels": None} in events
    events = move(s, 3, top(3, 0))
    assert {"type": "finished", "chariot": 0, "seat": 0, "place": 1, "laurels": 6, "label": "A"} in events


# ---------------------------------------------------------------- championships
def test_last_place_starts_the_next_race_on_the_other_track():
    s = E.new_game(3, 2, {"chariots_per_player": 1, "races": 2})
    events = finish_race(s)
    ranking = s["history"][0]["ranking"]
    assert s["history"][0]["laurels"][ranking[0]] == 6
    assert s["race"]["no"] == 2 and s["race"]["track"] == "B" and s["race"]["direction"] == "cw"
    last = ranking[-1]
    assert s["race"]["grid"] == [(last + i) % 3 for i in range(3)] == s["race"]["order"]
    assert "race_started" in types(events)
    assert s["race"]["cars"][last]["space"] == get_track("B").start[0]


def test_previous_results_variant_puts_the_winner_on_start_space_one():
    s = E.new_game(3, 2, {"chariots_per_player": 1, "races": 2, "turn_order": "previous_results"})
    finish_race(s)
    ranking = s["history"][0]["ranking"]
    assert s["race"]["grid"] == ranking
    # turn order: the chariot on I, then table order
    assert s["race"]["order"] == [(ranking[0] + i) % 3 for i in range(3)]


def test_four_race_championship_counter_clockwise_and_laurels_add_up():
    s = E.new_game(2, 6, {"races": 4})  # 2 players x 3 chariots
    plans = []
    while E.to_act(s):
        plans.append((s["race"]["track"], s["race"]["direction"]))
        if s["race"]["direction"] == "ccw" and s["race"]["moves"] == 0:
            # the first move of a counter-clockwise race crosses the line the other way
            seat = E.to_act(s)[0]
            action = E.legal_actions(s, seat)[0]
            assert E.track(s).start[0] == s["race"]["cars"][action["chariot"]]["space"]
            E.apply(s, seat, action)
            assert s["race"]["cars"][action["chariot"]]["crossings"] == 1
        finish_race(s)
    assert sorted(set(plans), key=plans.index) == [("A", "cw"), ("B", "cw"), ("A", "ccw"), ("B", "ccw")]
    result = E.result(s)
    assert result["reason"] == "championship" and len(result["races"]) == 4
    per_seat = [sum(s["laurels"][c] for c, ch in enumerate(s["chariots"]) if ch["owner"] == seat)
                for seat in range(2)]
    assert result["scores"] == per_seat and sum(per_seat) == 4 * (6 + 4 + 3 + 2 + 1)


def test_counter_clockwise_start_grid_lies_on_the_other_side_of_the_line():
    track = get_track(A, "ccw")
    assert track.start[:3] == [top(3, 0), top(3, 1), top(3, 2)]
    assert track.crosses(top(3, 1), top(2, 1)) and not track.crosses(top(2, 1), top(3, 1))
    assert track.alley_access == bottom(5, 0) and track.alley_entry == alley(3)


# ---------------------------------------------------------------- invariants over whole games
def test_invariants_hold_over_random_games():
    for n, options in [(6, {}), (4, {"neutral_chariots": True, "track": "B", "races": 2})]:
        for seed in range(4):
            s = E.new_game(n, seed, options)
            rng = Rng(seed)
            while E.to_act(s):
                seat = E.to_act(s)[0]
                E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
                track = E.track(s)
                spaces = [car["space"] for car in s["race"]["cars"] if car["space"]]
                assert len(spaces) == len(set(spaces)), "one chariot per space"
                for car in s["race"]["cars"]:
                    assert len(car["hand"]) + len(car["deck"]) + len(car["played"]) == 24
                    assert len(car["hand"]) <= 3
                    assert car["space"] not in track.alley_set or car["paid"]
                    assert (car["status"] == "racing") == (car["space"] is not None)
