"""The Kiválasztottak AI: legal, sensible, and much stronger than random play."""

from __future__ import annotations

from ai import AI_PLAYERS, random_player
from ai import kivalasztottak as K
from ai.arena import play, win_rate
from engines.kivalasztottak import ENGINE as E
from engines.rng import Rng
from tests.engines.kivalasztottak.helpers import add, blank, lowest, team, to_decision


def test_registered_for_the_game():
    assert AI_PLAYERS["kivalasztottak"] is K.choose


def test_beats_random_in_at_least_70_of_100_seeded_games():
    assert win_rate(E, K.choose, random_player, games=100) >= 0.7


def test_fills_both_seats_and_games_end():
    for seed in range(3):
        _, res = play(E, [K.choose, K.choose], seed)
        assert res is not None and min(res["places"]) == 1


def test_puts_the_highest_wall_at_the_bottom():
    st = E.new_game(2, 1, {})
    a = K.choose(E, st, 0, Rng(1))
    walls = [st["cards"][c]["k"] for c in a["order"]]
    assert walls[0] == "trofeacsarnok"  # WALL 4


def test_sends_a_siege_home_when_the_wall_allows_it():
    st = blank()
    v = add(st, 0, "vadasz", "row")
    lowest(st, 1, "csontkapu")
    E.apply(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [v])
    to_decision(st)
    assert K.choose(E, st, 1, Rng(1)) == {"type": "end_siege"}


def test_solves_a_quest_it_can_fulfil():
    st = blank(mp=(12, 10))
    q = add(st, 0, "farkasvadaszat", "quests")
    add(st, 0, "vadasz", "row")
    add(st, 0, "vadasz", "row")
    a = K.choose(E, st, 0, Rng(1))
    assert a == {"type": "maneuver", "kind": "quest", "target": q}


def test_summons_a_building_whose_condition_holds():
    st = blank(mp=(12, 10))
    lodge = add(st, 0, "vadaszkunyho", "hand")
    add(st, 0, "vadasz", "row")
    add(st, 0, "vadasz", "row")
    add(st, 0, "vadasz", "hand")
    assert K.choose(E, st, 0, Rng(1)) == {"type": "summon", "card": lodge}
