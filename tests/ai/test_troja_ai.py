"""Troja AI: beats random players and fills every seat of 3-4 player games with legal moves."""

from __future__ import annotations

from ai import AI_PLAYERS, random_player
from ai.arena import play, win_rate
from ai.troja import choose
from engines.rng import Rng
from engines.troja import ENGINE as E


def test_registered():
    assert AI_PLAYERS["troja"] is choose


def test_beats_random_players_in_200_seeded_two_player_games():
    rate = win_rate(E, choose, random_player, 200)
    assert rate >= 0.60, rate


def test_fills_seats_of_three_and_four_player_games():
    for n in (3, 4):
        for seed in range(3):
            state, result = play(E, [choose] * n, 500 + seed)
            assert result is not None and min(result["places"]) == 1


def test_only_legal_actions_and_uses_its_view():
    state = E.new_game(3, 11)
    rng = Rng(3)
    steps = 0
    while E.to_act(state) and steps < 400:
        seat = E.to_act(state)[-1]
        action = choose(E, state, seat, rng)
        assert action in E.legal_actions(state, seat)
        E.apply(state, seat, action)
        steps += 1


def test_spends_wrath_to_save_its_own_fight():
    from tests.engines.test_troja_support import challenge, give, pass_all, stack, table

    s = table(["achilles", "odysseus"])  # Odysseus: Athena, +3
    unit, = give(s, 0, "spearmen")
    stack(s, 5, 1)  # spearmen 3 + 5 = 8 vs Odysseus 6 + 1 = 7
    challenge(s, 0, 1, unit)
    pass_all(s, ("join",))
    action = choose(E, s, 1, Rng(1))
    assert action == {"type": "wrath", "side": "defender"}
