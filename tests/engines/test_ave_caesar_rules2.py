"""Ave Caesar rules version 2 (issue 11): the lap-2 alley trap, neutral chariots behind the players, the
4-race championship by default, and games saved under rules version 1 finishing on their old tracks."""

from __future__ import annotations

import json
from pathlib import Path

from engines.ave_caesar.track import get_track, load_data
from engines.rng import Rng
from tests.engines.test_ave_caesar_support import E, dests, move, race, space, types

A = "A"
V1_STATE = Path(__file__).resolve().parent / "data" / "ave_caesar_v1_state.json"


def bottom(col, lane):
    return space(A, "bottom", col, lane)


def alley(i):
    return space(A, "alley", i, -1)


CURVE_EXIT = space(A, "east", 7, 2)  # the last wedge of the east curve's outer lane


# ---------------------------------------------------------------- the lap-2 trap
def test_blocked_entrance_lap_two_waits_instead_of_leaving_the_alley_behind():
    """Unpaid in lap 2 with a rival in the alley's mouth: the outer lane beyond the east curve is walled off
    from the access space, so a move there would make the alley unreachable; the chariot may only close up."""
    s = race(c0=dict(where=CURVE_EXIT, hand=[1, 2, 3], crossings=2), c1=dict(where=alley(0), paid=True))
    assert dests(s, 1) == {bottom(0, 1)}  # not bottom(0, 2): walled from the inner lanes up to the gate
    assert dests(s, 2) == {bottom(1, 0)}  # the access space; the middle lane beside it is past reach
    assert dests(s, 3) == set()
    assert not any(ch["misses_alley"] for ch in E.choices(s, 0))
    # with only cards that would leave the alley behind it waits (skips, the reason said)
    s = race(c0=dict(where=CURVE_EXIT, hand=[3, 4, 5], crossings=2), c1=dict(where=alley(0), paid=True))
    assert E.choices(s, 0) == []
    events = []
    E._advance(s, events, advance_first=False)
    assert events[0]["type"] == "skipped" and events[0]["reason"] == "alley_wait"


def test_free_entrance_a_move_that_leaves_the_alley_out_of_reach_is_flagged():
    s = race(c0=dict(where=CURVE_EXIT, hand=[1, 2, 3], crossings=2), c1=dict(where=space(A, "top", 0, 0)))
    by_to = {ch["to"]: ch for ch in E.choices(s, 0)}
    assert by_to[bottom(0, 2)]["misses_alley"]  # not past the gate yet, but walled off from the alley
    assert not by_to[bottom(0, 1)]["misses_alley"]
    assert by_to[bottom(1, 1)]["misses_alley"] and not by_to[bottom(1, 0)]["misses_alley"]
    events = move(s, 1, bottom(0, 2))
    assert "alley_missed" in types(events)
    # from there on it can no longer pay: nothing more is flagged, and the wait rule no longer holds it
    s["race"]["turn"] = 0
    assert not any(ch["misses_alley"] for ch in E.choices(s, 0))
    assert not get_track(A).alley_reachable(bottom(0, 2), 2)


def test_lap_one_never_flags_and_never_waits():
    s = race(c0=dict(where=CURVE_EXIT, hand=[1, 2, 3], crossings=1), c1=dict(where=alley(0), paid=True))
    assert bottom(0, 2) in dests(s, 1)
    assert not any(ch["misses_alley"] for ch in E.choices(s, 0))


# ---------------------------------------------------------------- neutral chariots, championship
def test_neutral_chariots_take_the_start_spaces_left_after_the_players():
    for seed in range(12):
        state = E.new_game(2, seed, {"neutral_chariots": True, "chariots_per_player": 2})
        race_ = state["race"]
        neutral = {c for c, ch in enumerate(state["chariots"]) if ch["owner"] is None}
        assert len(neutral) == 2
        assert set(race_["grid"][4:]) == neutral, seed  # start spaces V and VI
        assert all(c not in neutral for shown in race_["reveal"] for c, _ in shown)
        view = E.view(state, None)
        assert {ch["start"] for ch in view["chariots"] if ch["neutral"]} == {"V", "VI"}


def test_neutral_chariots_start_behind_the_players_in_later_races_too():
    from tests.engines.test_ave_caesar_support import finish_race
    state = E.new_game(3, 4, {"neutral_chariots": True, "races": 2})
    finish_race(state)
    assert state["race"]["no"] == 2
    assert [state["chariots"][c]["owner"] is None for c in state["race"]["grid"]] == [False] * 3 + [True] * 3


def test_a_game_is_a_championship_of_four_races_by_default():
    state = E.new_game(2, 1, {})
    assert state["options"]["races"] == 4
    assert E.view(state, None)["races"] == 4
    assert E.new_game(2, 1, {"races": 1})["options"]["races"] == 1


# ---------------------------------------------------------------- games saved under rules version 1
def test_a_game_saved_under_rules_version_1_loads_and_finishes_on_its_old_tracks():
    saved = json.loads(V1_STATE.read_text())
    assert saved["rules_version"] == 1
    state = E.from_json(saved)
    view = E.view(state, None)
    assert view["track_version"] == 1
    old_ids = {sp["id"] for sp in load_data("A", 1)["spaces"]}
    assert E.track(state).alley == ["A76", "A77", "A78", "A79"]  # the v1 layout (v2 has 84 spaces)
    assert get_track("A").alley != E.track(state).alley
    rng = Rng(5)
    races_seen = set()
    steps = 0
    while E.to_act(state):
        races_seen.add(state["race"]["no"])
        for car in state["race"]["cars"]:
            if car["space"] is not None and state["race"]["track"] == "A":
                assert car["space"] in old_ids
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        state = E.from_json(E.to_json(state))  # saved and loaded between moves, as the host does
        steps += 1
        assert steps < 1000
    assert races_seen == {1, 2} and E.result(state) is not None
    assert state["rules_version"] == 1
    assert len(state["history"]) == 2 and state["history"][1]["track"] == "B"
