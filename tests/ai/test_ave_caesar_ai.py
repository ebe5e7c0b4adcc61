"""The Ave Caesar AI driver: strength against the random driver, and sensible single decisions."""

from __future__ import annotations

from ai import AI_PLAYERS, random_player
from ai import ave_caesar as AC
from ai.arena import play, win_rate
from engines.ave_caesar import ENGINE as E
from engines.rng import Rng
from tests.engines.test_ave_caesar_support import race, space

ACCESS = space("A", "bottom", 1, 0)


def test_registered_for_the_game():
    assert AI_PLAYERS["ave-caesar"] is AC.choose


def test_beats_the_random_driver_in_200_two_chariot_races():
    rate = win_rate(E, AC.choose, random_player, games=200, options={"chariots_per_player": 1, "races": 1})
    assert rate >= 0.8, rate


def test_finishes_races_with_many_chariots():
    state, result = play(E, [AC.choose, AC.choose], 11, {"track": "B", "races": 1})  # 2 players x 3 chariots
    statuses = [car["status"] for car in state["race"]["cars"]]
    assert statuses.count("finished") >= 5
    assert sum(result["scores"]) == 6 + 4 + 3 + 2 + 1


def test_stops_in_the_alley_when_it_can():
    s = race(c0=dict(where=ACCESS, hand=[2, 3, 6]), c1=dict(where=space("A", "top", 0, 0)))
    action = AC.choose(E, s, 0, Rng(1))
    assert action["to"] in E.track(s).alley_set


def test_does_not_pass_the_alley_unpaid_in_lap_two_if_it_can_wait_in_front():
    # both 6s would run past the alley (Caesar's wrath at the line); the 1 keeps the chance to pay
    s = race(c0=dict(where=space("A", "bottom", 0, 1), hand=[1, 6, 6], crossings=2),
             c1=dict(where=space("A", "west", 2, 0), crossings=2, paid=True))
    assert any(ch["misses_alley"] for ch in E.choices(s, 0))
    action = AC.choose(E, s, 0, Rng(1))
    choice = next(ch for ch in E.choices(s, 0) if ch["to"] == action["to"])
    assert not choice["misses_alley"] and action["card"] == 1


def test_keeps_to_the_inner_lane_in_a_curve():
    s = race(c0=dict(where=space("A", "top", 6, 0), hand=[3, 3, 3]), c1=dict(where=space("A", "top", 0, 0)))
    action = AC.choose(E, s, 0, Rng(1))
    assert E.track(s).spaces[action["to"]]["lane"] == 0


def test_prefers_the_higher_card_when_nothing_is_wasted():
    s = race(c0=dict(where=space("A", "top", 3, 1), hand=[1, 4, 2]), c1=dict(where=space("A", "bottom", 0, 0)))
    assert AC.choose(E, s, 0, Rng(1))["card"] == 4
