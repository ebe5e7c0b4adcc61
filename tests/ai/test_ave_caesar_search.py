"""Ave Caesar's hard level: paired race playouts, scored by the laurels won and still to come."""

from __future__ import annotations

from dataclasses import replace

import ai
from ai import ave_caesar as AC
from ai import evaluate, search
from ai.search import hard
from engines.ave_caesar import ENGINE as E
from engines.rng import Rng
from tests.engines.test_ave_caesar_support import race, space

NEAR = space("A", "top", 3, 0)  # lap 3, a few spaces before the line


def test_the_evaluation_ranks_a_race_by_who_would_finish_first():
    # nobody has crossed the line yet: the places alone say "a draw"; the chariot in its last lap leads
    s = race(c0=dict(where=NEAR, crossings=3, paid=True), c1=dict(where=space("A", "top", 3, 1), crossings=1))
    ahead = evaluate._ac_eval(E, s)
    assert ahead[0] > 0.6 and ahead[1] < 0.4  # 6 laurels to come against 4
    behind = race(c0=dict(where=space("A", "top", 3, 1), crossings=1),
                  c1=dict(where=NEAR, crossings=3, paid=True))
    assert evaluate._ac_eval(E, behind)[0] < 0.4


def test_a_chariot_whose_cards_cannot_cover_its_route_counts_for_nothing():
    # chariot 0 is nearer the finish but holds only three 1s and no deck: it cannot get there
    s = race(c0=dict(where=NEAR, crossings=2, paid=True, hand=[1, 1, 1], deck=[]),
             c1=dict(where=space("A", "top", 3, 1), crossings=1))
    assert evaluate._ac_eval(E, s)[1] > 0.6


def test_the_candidates_are_the_heuristics_best_moves():
    engine, state = E, E.new_game(2, 7, {"races": 1})
    rng = Rng(7)
    for _ in range(20):
        p = min(engine.to_act(state))
        engine.apply(state, p, ai.choose(engine, state, p, rng))
    seat = min(engine.to_act(state))
    picks = evaluate._ac_candidates(engine, state, seat, Rng(1))
    assert picks[0] == AC.choose(engine, state, seat, Rng(1))
    assert len(picks) == min(evaluate.AC_CANDIDATES, len(engine.legal_actions(state, seat)))


def test_hard_plays_paired_playouts_that_stop_at_the_end_of_the_race():
    state = E.new_game(2, 3, {"races": 2})
    rng = Rng(3)
    while not state["race"]["finish"]:  # late in race 1: playouts reach its end
        p = min(E.to_act(state))
        E.apply(state, p, ai.choose(E, state, p, rng))
    seat = min(E.to_act(state))
    while len(E.legal_actions(state, seat)) < 2:
        E.apply(state, seat, ai.choose(E, state, seat, rng))
        seat = min(E.to_act(state))
    seen = []
    base = search.rollout_policy(E, 0.0)

    def watching(s, p, r):
        seen.append((s["race"]["no"], len(s["race"]["finish"])))
        return base(s, p, r)

    assert search.SHAPES["ave-caesar"] == search.PairedConfig(stage=True)
    real = hard.paired
    try:
        hard.paired = lambda e, st, se, r, config: real(e, st, se, r, replace(config, rollout=watching))
        action = search.choose(E, state, seat, Rng(2), iterations=20, **{
            k: v for k, v in search.hard_budget(E).items() if k not in ("iterations", "seconds")})
    finally:
        hard.paired = real
    assert action in E.legal_actions(state, seat)
    assert {no for no, _ in seen} == {1}, "no playout drives on into the second race"
    assert max(done for _, done in seen) > len(state["race"]["finish"]), "but they do run on to its end"


def test_the_hard_level_votes_on_a_neutral_chariots_way():
    # option neutral_vote: the players vote where a neutral chariot goes; the hard level used to look for the
    # card and chariot of a move in a vote and failed (KeyError), leaving the AI seat without an answer
    state = E.new_game(3, 0, {"neutral_chariots": True, "neutral_vote": True})
    rng = Rng(3)
    for _ in range(200):
        seat = min(E.to_act(state))
        legal = E.legal_actions(state, seat)
        if len(legal) > 1 and legal[0]["type"] == "vote":
            break
        E.apply(state, seat, ai.choose(E, state, seat, rng, "normal"))
    assert len(legal) > 1 and legal[0]["type"] == "vote", "a vote with a choice comes early in the race"
    assert evaluate._ac_candidates(E, state, seat, Rng(1)) == legal
    budget = {**search.hard_budget(E), "iterations": 12, "seconds": None}
    assert search.choose(E, state, seat, Rng(1), **budget) in legal
