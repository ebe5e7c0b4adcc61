"""Troja's cheaper rollout AI (issue 30): the hard level's playouts use ``ai.troja.rollout_choose`` (a lean
view, fights priced once per table), which must choose exactly what the normal AI (``choose``, the engine's
full view) chooses, read no more than the seat's view, and leave the search's samples, rewards and choice
unchanged."""

from __future__ import annotations

from dataclasses import replace

import pytest

import ai
from ai import search
from ai import troja as T
from ai.players import ROLLOUT_PLAYERS
from ai.search import hard
from ai.search.determinization import determinizer
from engines.rng import Rng
from engines.troja import ENGINE as E
from engines.troja import card_type

CHALLENGES = ("unit", "trojan", "beast")


def _positions(players: int, seed: int, level: str, limit: int = 600):
    """Every decision of a game at ``level`` for all seats: (state, seat) before each action."""
    state = E.new_game(players, seed)
    rng = Rng(seed)
    steps = 0
    while E.to_act(state) and steps < limit:
        seat = min(E.to_act(state))
        yield state, seat
        E.apply(state, seat, ai.choose(E, state, seat, rng, level))
        steps += 1


@pytest.mark.parametrize(("players", "seed", "level"), [(2, 31, "normal"), (2, 32, "easy"), (3, 33, "easy"),
                                                        (4, 34, "normal")])
def test_rollout_choice_is_the_normal_choice_at_every_decision_of_whole_games(players, seed, level):
    decisions = 0
    for state, seat in _positions(players, seed, level):
        legal = E.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        assert T.rollout_choose(E, state, seat, Rng(1)) == T.choose(E, state, seat, Rng(1))
        decisions += 1
    assert decisions > 40


def test_lean_view_is_the_views_figures_and_nothing_hidden():
    checked = 0
    parts = {"assault": 0, "fight": 0}
    for state, seat in _positions(3, 35, "easy", 300):
        lean = T.lean_view(E, state, seat)
        view = E.view(state, seat)
        for key, value in lean.items():
            if key in ("players", "assault", "fight") or (key == "hand" and "hand" not in view):
                continue
            assert value == view[key], key
        for mine, theirs in zip(lean["players"], view["players"]):
            assert mine == {k: theirs[k] for k in mine}
        for part in ("assault", "fight"):
            if lean[part] is not None:
                assert lean[part] == {k: view[part][k] for k in lean[part]}, part
                parts[part] += 1
        # a re-deal of what the seat cannot see (the deck, the other hands) changes nothing in it
        sample = determinizer(E)(state, seat, Rng(checked))
        assert T.lean_view(E, sample, seat) == lean
        checked += 1
    assert checked > 100 and min(parts.values()) > 5, parts


def test_fight_memo_gives_the_fresh_figures_and_stays_bounded(monkeypatch):
    monkeypatch.setattr(T, "FIGHT_MEMO_SIZE", 50)
    T._FIGHT_MEMO.clear()
    checked = 0
    for state, seat in _positions(2, 36, "easy", 250):
        ev = T._Eval(E.view(state, seat))
        for target in range(2):
            for cid in [c for c in E.view(state, seat)["hand"] if card_type(c)["kind"] in CHALLENGES]:
                fight = ev.fight_for([cid], target)
                remembered = ev.challenge_ev(fight, [])
                assert remembered == ev.challenge_ev(fight, []) == ev._challenge_ev(fight, [], False)
                checked += 1
        assert len(T._FIGHT_MEMO) <= 50
    assert checked > 200
    T._FIGHT_MEMO.clear()


def _decision(actions: int = 30):
    state = E.new_game(2, 37)
    rng = Rng(2)
    for _ in range(actions):
        seat = min(E.to_act(state))
        E.apply(state, seat, ai.choose(E, state, seat, rng))
    seat = min(E.to_act(state))
    while len(E.legal_actions(state, seat)) < 2:
        E.apply(state, seat, ai.choose(E, state, seat, rng))
        seat = min(E.to_act(state))
    return state, seat


def _plain_policy(state, seat, rng):
    """``search.rollout_policy(E, 0.0)`` as it was before issue 30: the normal AI on the engine's view."""
    legal = E.legal_actions(state, seat)
    if rng.below(1000) < 0:  # the same draws as the rollout policy (no random moves at epsilon 0)
        return rng.choice(legal)
    return T.choose(E, state, seat, rng)


def test_hard_search_with_the_rollout_ai_matches_the_search_with_the_normal_ai(monkeypatch):
    """The same samples, playouts, rewards and choice as playouts by ``choose`` itself."""
    state, seat = _decision()
    budget = {k: v for k, v in search.hard_budget(E).items() if k not in ("iterations", "seconds", "actions")}
    lean_trace: list = []
    lean = search.choose(E, state, seat, Rng(5), iterations=24, trace=lean_trace, **budget)
    real = hard.paired
    monkeypatch.setattr(hard, "paired", lambda e, st, se, r, config: real(e, st, se, r, replace(
        config, rollout=_plain_policy)))
    plain_trace: list = []
    plain = search.choose(E, state, seat, Rng(5), iterations=24, trace=plain_trace, **budget)
    assert lean == plain
    assert lean_trace == plain_trace and len(lean_trace) > 24


def test_troja_rollouts_use_the_rollout_ai(monkeypatch):
    state, seat = _decision(12)
    calls = []

    def counting(engine, s, p, rng):
        calls.append(p)
        return T.rollout_choose(engine, s, p, rng)

    monkeypatch.setitem(ROLLOUT_PLAYERS, "troja", counting)
    action = search.rollout_policy(E, 0.0)(state, seat, Rng(1))
    assert calls == [seat] and action == T.choose(E, state, seat, Rng(1))
