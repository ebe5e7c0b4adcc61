"""The HEX-TRI AI: strength against the random player, sensible single decisions, any number of seats."""

from __future__ import annotations

from ai import AI_PLAYERS, random_player
from ai import hextri as H
from ai.arena import play, win_rate
from engines.hextri import ENGINE as E
from engines.rng import Rng
from tests.engines.test_hextri import pass_round, position


def test_registered_for_the_game():
    assert AI_PLAYERS["hextri"] is H.choose


def test_beats_the_random_player():
    # 100 seeded games, the AI in each seat in turn; a short round limit keeps them fast
    rate = win_rate(E, H.choose, random_player, games=100, options={"round_limit": 12}, seed0=1000)
    assert rate >= 0.8, rate


def test_takes_a_winning_attack_on_the_enemy_leader():
    s = position({0: {"H-D4": 1, "H-C3": 2, "T-A1": 1}, 1: {"H-D4": 1, "H-G4": 3}}, {0: "T-A1", 1: "H-D4"},
                 mana={"H-C3": 2})
    action = H.choose(E, s, 0, Rng(1))
    assert action["type"] == "move" and action["to"] == "H-D4"
    E.apply(s, 0, action)
    pass_round(s)  # his lone leader may not leave H-D4, so he cannot escape the battle
    assert E.result(s)["winners"] == [0]


def test_never_gives_up_its_leader_in_a_battle():
    s = position({0: {"H-D4": 3}, 1: {"H-D4": 3}}, {0: "H-D4", 1: "H-D4"}, free_used=(0, 1))
    pass_round(s)
    for seat in (0, 1):
        assert H.choose(E, s, seat, Rng(seat)) == {"type": "losses", "field": "H-D4", "count": 2,
                                                   "leader": False}


def test_does_not_walk_its_lone_leader_into_a_stronger_enemy():
    # H-D3, the third HEX around T-D7, is free: the leader is not encircled yet and need not gamble
    s = position({0: {"T-D7": 1}, 1: {"H-D4": 2, "H-C3": 2, "T-H9": 1}}, {0: "T-D7", 1: "T-H9"})
    for seed in range(5):
        action = H.choose(E, s, 0, Rng(seed))
        assert action["type"] == "pass" or action["to"] not in ("H-D4", "H-C3"), action


def test_passes_when_nothing_is_worth_the_mana():
    # every figure already produces on its own HEX; wandering would only waste mana
    s = position({0: {"H-A1": 1, "H-A2": 1, "H-A3": 1, "H-A4": 1}, 1: {"T-H9": 1}}, {0: "H-A4", 1: "T-H9"},
                 mana={"H-A1": 3})
    for p in s["players"]:
        p["waiting"] = 0
    assert H.choose(E, s, 0, Rng(2)) == {"type": "pass"}


def test_fills_empty_seats_of_a_multi_player_game():
    for n, options in ((3, {"round_limit": 15}), (6, {"radius": 4, "round_limit": 10, "victory": "last_leader"})):
        state, result = play(E, [H.choose] * n, 3, options)
        assert result is not None and len(result["places"]) == n
        assert sum(result["scores"]) > 0  # the AIs brought figures onto the board


def test_two_ais_play_for_a_decision():
    # games between two AIs end with a fallen leader, not at the round limit with nobody attacking
    reasons = [play(E, [H.choose, H.choose], seed, {})[1]["reason"] for seed in range(6)]
    assert reasons.count("leader_down") >= 5, reasons
