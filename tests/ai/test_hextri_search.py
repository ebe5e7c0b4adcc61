"""HEX-TRI's hard level (ai/hextri_search.py): playouts to the end by the heuristic over its best moves."""

from __future__ import annotations

import pytest

import ai
from ai import hextri as H
from ai import hextri_search as HS
from ai import search
from engines.base import _copy
from engines.hextri import ENGINE as E
from engines.rng import Rng
from tests.engines.test_hextri import position


def _to_move(seed: int, actions: int):
    """The game of ``seed`` after ``actions`` actions by the heuristic on both sides (Rng(5))."""
    state = E.new_game(2, seed, {})
    rng = Rng(5)
    for _ in range(actions):
        p = E.to_act(state)[0]
        E.apply(state, p, H.choose(E, state, p, rng))
    return state


def _winners_after(state, seat: int, action: dict, k: int) -> list[int]:
    s = _copy(state)
    E.apply(s, seat, action)
    rng = Rng(k)
    while E.to_act(s):
        p = E.to_act(s)[0]
        E.apply(s, p, H.choose(E, s, p, rng))
    return E.result(s)["winners"]


def test_the_hard_level_uses_the_rollout_search():
    assert search.SEARCHERS["hextri"] is HS.choose
    state = _to_move(20160, 4)
    assert ai.choose(E, state, 0, Rng(1), "hard") in E.legal_actions(state, 0)


def test_hard_finds_the_move_after_which_the_heuristic_wins_where_its_own_loses():
    # seed 20160, round 3: the heuristic steps its leader forward and, played on by the heuristic on both
    # sides, loses; the search waits instead, and the same play then wins
    state = _to_move(20160, 4)
    assert E.to_act(state) == [0] and state["round"] == 3
    prior = H.choose(E, state, 0, Rng(9))
    hard = HS.choose(E, state, 0, Rng(1), iterations=300)
    assert hard != prior and hard in E.legal_actions(state, 0)
    assert all(_winners_after(state, 0, prior, k) == [1] for k in range(3))
    assert all(_winners_after(state, 0, hard, k) == [0] for k in range(3))


def _scripted(monkeypatch, results):
    """Playouts that end as ``results`` says in turn (seat 0's reward), 10 actions each; returns the log."""
    log = []

    def playout(engine, state, rng, deadline, depth=HS.DEPTH):
        r = results[min(len(log), len(results) - 1)]
        log.append(depth)
        return [r, 1 - r], 10

    monkeypatch.setattr(HS, "_playout", playout)
    return log


def test_keeps_the_heuristics_move_when_its_playout_wins(monkeypatch):
    state = _to_move(20160, 4)
    log = _scripted(monkeypatch, [1.0])
    assert HS.choose(E, state, 0, Rng(1), iterations=300) == H.choose(E, state, 0, Rng(Rng(1).next64()))
    assert len(log) == 1


def test_takes_the_first_candidate_that_wins(monkeypatch):
    state = _to_move(20160, 4)
    moves = HS.candidates(E, state, 0, Rng(1), H.choose(E, state, 0, Rng(Rng(1).next64())))
    log = _scripted(monkeypatch, [0.0, 0.0, 1.0])
    assert HS.choose(E, state, 0, Rng(1), iterations=300) == moves[2]
    assert len(log) == 3


def test_when_nothing_wins_the_budget_counts_actions_and_a_tie_keeps_the_heuristics_move(monkeypatch):
    state = _to_move(20160, 4)
    prior = H.choose(E, state, 0, Rng(Rng(1).next64()))
    log = _scripted(monkeypatch, [0.0])
    assert HS.choose(E, state, 0, Rng(1), iterations=55) == prior
    assert len(log) == 5  # 11 actions a playout (the move and 10 more) within 55
    assert log[-1] == 55 - 44  # the last playout may run only as far as the budget left


def test_a_draw_beats_a_loss_and_a_slower_loss_a_quicker_one():
    assert HS._score(0.5, 30) > HS._score(0.0, 100) > HS._score(0.0, 20)
    assert HS._score(1.0, 10) > HS._score(1.0, 40) > HS._score(0.5, 10)


def test_a_playout_stops_before_a_turn_with_a_huge_list_of_ways_to_pay():
    # nine lone figures on HEXes, each with mana under it: hundreds of thousands of ways to pay a move
    fields = ["H-A3", "H-B1", "H-D1", "H-E1", "H-E3", "H-E6", "H-F4", "H-F5", "H-G2"]
    s = position({0: {f: 1 for f in fields}, 1: {"H-D4": 1}}, {0: "H-F4", 1: "H-D4"},
                 mana={f: 2 for f in fields})
    assert HS._costly(s, 0) and not HS._costly(s, 1)
    assert not HS._costly(E.new_game(2, 1, {}), 0)
    rewards, steps = HS._playout(E, s, Rng(1), None)
    assert steps == 0 and 0 < rewards[0] < 1 and rewards[0] > rewards[1]  # judged: nine figures to one


def test_the_judgement_favours_the_seat_with_more_figures():
    s = position({0: {"H-A3": 1, "H-B1": 1, "H-D1": 1}, 1: {"H-E6": 1}}, {0: "H-A3", 1: "H-E6"})
    mine, theirs = HS._judge(E, s)
    assert mine > 0.5 > theirs


@pytest.mark.parametrize("iterations", [1, 300])
def test_the_hard_choice_is_legal_through_a_game(iterations):
    state = E.new_game(2, 11, {"round_limit": 3})
    rng = Rng(2)
    while E.to_act(state):
        p = E.to_act(state)[0]
        a = HS.choose(E, state, p, rng, iterations=iterations, seconds=3.0) if p == 0 else \
            H.choose(E, state, p, rng)
        assert a in E.legal_actions(state, p)
        E.apply(state, p, a)
