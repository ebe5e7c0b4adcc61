"""The IS-MCTS player: rewards per seat, budgets, and that the search finds a won line a heuristic misses."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

import ai
from ai import levels, search
from ai.search import PairedConfig, SearchConfig, hard
from engines import IllegalAction
from engines.base import BaseEngine
from engines.rng import Rng


class Race21(BaseEngine):
    """A test game with perfect information: players add 1 or 2 to a count; who reaches 7 wins."""

    key = "test-race"
    min_players = max_players = 2

    def new_game(self, num_players, seed, options=None):
        return {"count": 0, "turn": 0, "winner": None}

    def to_act(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [{"type": "add", "n": n} for n in (1, 2) if state["count"] + n <= 7]

    def _apply(self, state, seat, action):
        state["count"] += action["n"]
        if state["count"] == 7:
            state["winner"] = seat
        state["turn"] = 1 - seat
        return []

    def view(self, state, seat):
        return dict(state)

    def result(self, state):
        if state["winner"] is None:
            return None
        return {"places": [1 if s == state["winner"] else 2 for s in (0, 1)]}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)


def test_rewards_give_each_seat_its_own_result():
    class Fixed:
        def __init__(self, places):
            self.places = places

        def result(self, state):
            return {"places": self.places}

    assert search.rewards(Fixed([2, 1]), None) == [0.0, 1.0]
    assert search.rewards(Fixed([1, 1]), None) == [0.5, 0.5]
    assert search.rewards(Fixed([1, 3, 2, 3]), None) == [1.0, 1 / 6, 2 / 3, 1 / 6]


@pytest.mark.parametrize("count", [0, 3, 5])
def test_plain_mcts_finds_the_winning_move(count):
    # from 0, 3 or 5 the winning move leaves the count at 1, 4 or 7
    engine = Race21()
    state = {"count": count, "turn": 0, "winner": None}
    best = {0: 1, 3: 1, 5: 2}[count]
    config = SearchConfig(iterations=300, rollout=search.random_rollout(engine))
    picks = [search.search(engine, state, 0, Rng(s), config) for s in range(5)]
    assert all(p == {"type": "add", "n": best} for p in picks)


def test_the_prior_stands_unless_the_search_clearly_beats_it():
    engine = Race21()
    state = {"count": 3, "turn": 0, "winner": None}
    wrong = {"type": "add", "n": 2}
    rollout = search.random_rollout(engine)
    few, many = (SearchConfig(iterations=n, rollout=rollout, prior=wrong) for n in (2, 400))
    assert search.search(engine, state, 0, Rng(1), few) == wrong
    assert search.search(engine, state, 0, Rng(1), many) != wrong


def test_budgets_are_kept():
    engine = Race21()
    state = engine.new_game(2, 0)
    calls = []

    def counting(s, seat, rng):
        calls.append(1)
        return rng.choice(engine.legal_actions(s, seat))

    search.search(engine, state, 0, Rng(1), SearchConfig(iterations=25, rollout=counting))
    assert 0 < len(calls) <= 25 * 7
    start = time.perf_counter()
    search.search(engine, state, 0, Rng(1), SearchConfig(seconds=0.2, rollout=search.random_rollout(engine)))
    assert 0.2 <= time.perf_counter() - start < 0.6


def test_levels():
    from engines import ENGINES

    engine = ENGINES["troja"]
    state = engine.new_game(2, 4, {})
    with pytest.raises(ValueError):
        ai.choose(engine, state, 0, Rng(1), "impossible")
    # a position with real choices: easy sometimes plays something normal never would
    rng = Rng(2)
    while len(engine.legal_actions(state, engine.to_act(state)[0])) < 4:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, ai.choose(engine, state, seat, rng))
    seat = engine.to_act(state)[0]
    normal = {repr(ai.choose(engine, state, seat, Rng(k), "normal")) for k in range(30)}
    easy = {repr(ai.choose(engine, state, seat, Rng(k), "easy")) for k in range(30)}
    assert len(easy - normal) >= 1
    start = time.perf_counter()
    hard = ai.choose(engine, state, seat, Rng(3), "hard")
    assert hard in engine.legal_actions(state, seat)
    assert time.perf_counter() - start < levels.HARD_SECONDS + 0.5


def test_an_illegal_action_is_never_proposed_by_the_hard_ai():
    engine = Race21()
    state = {"count": 6, "turn": 1, "winner": None}
    assert search.search(engine, state, 1, Rng(1), SearchConfig(iterations=3)) == {"type": "add", "n": 1}
    with pytest.raises(IllegalAction):
        engine.apply(state, 1, {"type": "add", "n": 2})


def test_ave_caesar_playouts_end_with_the_race():
    from engines import ENGINES

    engine = ENGINES["ave-caesar"]
    state = engine.new_game(2, 3, {})  # a four-race championship by default
    assert state["options"]["races"] == 4
    seat = engine.to_act(state)[0]
    steps = []

    def counting(s, p, rng):
        steps.append(len(s["history"]))
        return rng.choice(engine.legal_actions(s, p))

    search.search(engine, state, seat, Rng(1), SearchConfig(iterations=3, rollout=counting))
    assert steps and set(steps) == {0}, "no playout runs into the second race"


def _played(key: str, moves: int, seed: int = 4):
    from engines import ENGINES

    engine = ENGINES[key]
    state = engine.new_game(2, seed, {})
    rng = Rng(seed)
    for _ in range(moves):
        p = min(engine.to_act(state))
        engine.apply(state, p, ai.choose(engine, state, p, rng))
    return engine, state


@pytest.mark.parametrize("key", ["hector-achilles", "troja", "kivalasztottak", "hextri"])
def test_evaluations_are_shares_that_sum_to_one(key):
    from ai.evaluate import EVALUATIONS

    engine, state = _played(key, 12)
    values = EVALUATIONS[key][1](engine, state)
    assert len(values) == 2 and all(0 < v < 1 for v in values)
    assert sum(values) == pytest.approx(1.0)


def test_evaluations_favour_the_seat_ahead():
    from ai.evaluate import EVALUATIONS

    engine, state = _played("hector-achilles", 12)
    before = EVALUATIONS["hector-achilles"][1](engine, state)[0]
    for deck in state["players"][1]["decks"].values():
        del deck[:3]  # the other army loses troops
    assert EVALUATIONS["hector-achilles"][1](engine, state)[0] > before + 0.2

    engine, state = _played("troja", 12)
    before = EVALUATIONS["troja"][1](engine, state)[0]
    state["players"][0]["gp"] += 5
    assert EVALUATIONS["troja"][1](engine, state)[0] > before + 0.2

    engine, state = _played("kivalasztottak", 40)
    before = EVALUATIONS["kivalasztottak"][1](engine, state)[0]
    state["p"][1]["towers"] = state["p"][1]["towers"][:1]
    assert EVALUATIONS["kivalasztottak"][1](engine, state)[0] > before + 0.2


def test_cut_playouts_stay_in_the_battle_and_within_the_depth():
    from ai.evaluate import EVALUATIONS

    engine, state = _played("hector-achilles", 6)
    seat = min(engine.to_act(state))
    battle = state["battle_no"]
    calls = []

    def counting(s, p, rng):
        calls.append(s["battle_no"])
        return rng.choice(engine.legal_actions(s, p))

    search.search(engine, state, seat, Rng(1), SearchConfig(iterations=1, rollout=counting))
    assert 0 < len(calls) <= EVALUATIONS["hector-achilles"][2]
    assert set(calls) == {battle}, "a playout never runs into the next battle"
    calls.clear()
    search.search(engine, state, seat, Rng(1), SearchConfig(iterations=1, rollout=counting, evaluation=False))
    assert len(set(calls)) > 1, "without the evaluation the playout runs to the end of the game"


def test_the_search_keeps_to_its_candidates_and_a_flat_search_still_finds_the_win():
    engine = Race21()
    state = {"count": 5, "turn": 0, "winner": None}
    only = [{"type": "add", "n": 1}]
    rollout = search.random_rollout(engine)
    assert search.search(engine, state, 0, Rng(1), SearchConfig(iterations=50, candidates=only,
                                                                rollout=rollout)) == only[0]
    flat = SearchConfig(iterations=200, flat=True, rollout=rollout)
    picks = [search.search(engine, state, 0, Rng(s), flat) for s in range(3)]
    assert picks == [{"type": "add", "n": 2}] * 3


def test_hextri_hard_searches_a_short_list_of_legal_moves():
    from ai.evaluate import CANDIDATES

    engine, state = _played("hextri", 0, seed=7)
    rng = Rng(3)
    while True:  # to a turn with many moves
        seat = min(engine.to_act(state))
        legal = engine.legal_actions(state, seat)
        if len(legal) > 20:
            break
        engine.apply(state, seat, ai.choose(engine, state, seat, rng))
    short = CANDIDATES["hextri"](engine, state, seat, Rng(1))
    assert 1 < len(short) <= 7 < len(legal) and all(a in legal for a in short)
    assert search.choose(engine, state, seat, Rng(2), iterations=10) in legal


class Bonus(BaseEngine):
    """A test game of luck: seat 0 takes a bonus of 0 or 1 (or another 0, or a hopeless -6), then seat 1, the
    dice, rolls 1..6 (the rollout's random choice); seat 0 wins with a total of 6 or more. The bonus is worth
    only one roll in six, too little for unpaired playouts of this size to tell reliably."""

    key = "test-bonus"
    min_players = max_players = 2

    def new_game(self, num_players, seed, options=None):
        return {"bonus": None, "roll": None}

    def to_act(self, state):
        if state["bonus"] is None:
            return [0]
        return [1] if state["roll"] is None else []

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if seat == 0:
            return [{"type": "bonus", "n": 0}, {"type": "bonus", "n": 1}, {"type": "bonus", "n": 0, "dud": True},
                    {"type": "bonus", "n": -6}]
        return [{"type": "roll", "n": n} for n in range(1, 7)]

    def _apply(self, state, seat, action):
        state["bonus" if seat == 0 else "roll"] = action["n"]
        return []

    def view(self, state, seat):
        return dict(state)

    def result(self, state):
        if state["roll"] is None:
            return None
        won = state["roll"] + state["bonus"] >= 6
        return {"places": [1, 2] if won else [2, 1]}

    def to_json(self, state):
        return dict(state)

    def from_json(self, data):
        return dict(data)


def test_paired_playouts_share_their_luck_and_find_a_small_edge():
    engine = Bonus()
    state = engine.new_game(2, 0)
    plain, bonus = {"type": "bonus", "n": 0}, {"type": "bonus", "n": 1}
    rolls = []

    def dice(s, seat, rng):
        rolls.append((s["bonus"], rng.below(6) + 1))
        return {"type": "roll", "n": rolls[-1][1]}

    search.paired(engine, state, 0, Rng(1), PairedConfig(iterations=16, rollout=dice, prior=plain,
                                                         prune=None))
    by_round = [rolls[i:i + 4] for i in range(0, 16, 4)]
    assert all(len({r for _, r in rnd}) == 1 for rnd in by_round), "every candidate meets the same dice"
    assert len({rnd[0][1] for rnd in by_round}) > 1, "and the dice differ from one round to the next"
    # the bonus wins one roll in six more than the plain move: paired, 60 rounds always see it at 2 SE
    config = PairedConfig(iterations=180, rollout=search.random_rollout(engine), prior=plain, margin=2.0)
    picks = [search.paired(engine, state, 0, Rng(s), config) for s in range(6)]
    assert picks == [bonus] * 6


def test_paired_keeps_the_prior_over_an_action_that_changes_nothing():
    engine = Bonus()
    state = engine.new_game(2, 0)
    plain, dud = {"type": "bonus", "n": 0}, {"type": "bonus", "n": 0, "dud": True}
    rollout = search.random_rollout(engine)
    for prior in (plain, dud):
        config = PairedConfig(iterations=30, rollout=rollout, prior=prior, candidates=[plain, dud],
                              margin=0.0)
        picks = {repr(search.paired(engine, state, 0, Rng(s), config)) for s in range(8)}
        assert picks == {repr(prior)}, "equal in every sample: never a reason to overrule the heuristic"


def test_paired_prunes_a_clearly_worse_candidate_and_keeps_its_budget():
    engine = Bonus()
    state = engine.new_game(2, 0)
    played = []

    def dice(s, seat, rng):
        played.append(s["bonus"])
        return {"type": "roll", "n": rng.below(6) + 1}

    plain = {"type": "bonus", "n": 0}
    search.paired(engine, state, 0, Rng(3),
                  PairedConfig(iterations=200, rollout=dice, prior=plain, prune=1.0, check_every=8))
    assert 200 <= len(played) <= 200 + 3, "the budget counts playouts"
    assert played.count(-6) <= 16, "the hopeless move is dropped after a round or two of checks"
    assert played.count(1) > 50 and played.count(0) > 50, "the best move and the heuristic's are kept"


def test_paired_stops_within_its_budget_of_actions_after_whole_rounds():
    """Playouts that run to the end of a long game: the budget in actions played out bounds a decision's cost
    (here a playout is two actions: the candidate and the roll; a round is four playouts)."""
    engine = Bonus()
    state = engine.new_game(2, 0)
    played = []

    def dice(s, seat, rng):
        played.append(s["bonus"])
        return {"type": "roll", "n": rng.below(6) + 1}

    search.paired(engine, state, 0, Rng(3), PairedConfig(iterations=200, actions=40, rollout=dice,
                                                         prior={"type": "bonus", "n": 0}, prune=None))
    assert len(played) == 20, "five whole rounds of four playouts of two actions"
    played.clear()
    search.paired(engine, state, 0, Rng(3), PairedConfig(iterations=200, actions=42, rollout=dice,
                                                         prior={"type": "bonus", "n": 0}, prune=None))
    assert len(played) == 24, "a round begun is finished, so every candidate meets the same samples"


def test_paired_stops_once_nothing_but_the_prior_is_left():
    """The prior is never dropped: once every other candidate is, the rest of the budget could change nothing."""
    engine = Bonus()
    state = engine.new_game(2, 0)
    played = []

    def dice(s, seat, rng):
        played.append(s["bonus"])
        return {"type": "roll", "n": rng.below(6) + 1}

    plain, hopeless = {"type": "bonus", "n": 0}, {"type": "bonus", "n": -6}
    pick = search.paired(engine, state, 0, Rng(3), PairedConfig(iterations=200, rollout=dice, prior=plain,
                                                                candidates=[plain, hopeless], prune=1.0,
                                                                check_every=8))
    assert pick == plain and len(played) == 16, "dropped at the first check, after 8 rounds of 2 playouts"


def test_paired_stops_at_its_wall_clock_cap_within_a_round():
    """A loaded host: the seconds cap ends the search after the playout that crossed it, not at the end of
    a round of every candidate (a round of slow playouts could run the decision far past the cap)."""
    engine = Bonus()
    state = engine.new_game(2, 0)
    played = []

    def slow(s, seat, rng):
        played.append(s["bonus"])
        time.sleep(0.05)
        return {"type": "roll", "n": rng.below(6) + 1}

    start = time.perf_counter()
    pick = search.paired(engine, state, 0, Rng(4), PairedConfig(seconds=0.22, rollout=slow,
                                                                prior={"type": "bonus", "n": 0}, prune=None))
    assert pick in engine.legal_actions(state, 0)
    assert time.perf_counter() - start < 0.22 + 0.12, "at most one playout past the cap"
    assert 4 < len(played) < 8, "the first round is played whole, the second stops at the cap"


def _troja_choice():
    """A Troja game 30 actions in, played on to a decision with a choice: (engine, state, seat)."""
    engine, state = _played("troja", 30)
    seat = min(engine.to_act(state))
    while len(engine.legal_actions(state, seat)) < 2:
        engine.apply(state, seat, ai.choose(engine, state, seat, Rng(1)))
        seat = min(engine.to_act(state))
    return engine, state, seat


def _watching(engine, ends: list):
    """The heuristic rollout without random moves, noting every state it is asked about in ``ends``."""
    base = search.rollout_policy(engine, 0.0)

    def watching(s, p, rng):
        ends.append(s)
        return base(s, p, rng)

    return watching


def test_troja_hard_plays_paired_playouts_to_the_end_of_the_game():
    engine, state, seat = _troja_choice()
    ends = []
    watching = _watching(engine, ends)

    assert isinstance(search.SHAPES["troja"], PairedConfig)
    real = hard.paired
    try:
        hard.paired = lambda e, st, se, r, config: real(e, st, se, r, replace(config, rollout=watching))
        action = search.choose(engine, state, seat, Rng(2), iterations=6, **{
            k: v for k, v in search.hard_budget(engine).items() if k not in ("iterations", "seconds")})
    finally:
        hard.paired = real
    assert action in engine.legal_actions(state, seat)
    finished = {id(s): engine.result(s) is not None for s in ends}
    assert sum(finished.values()) >= 5, "every playout runs to the end of the game"


def test_paired_playouts_cut_at_a_depth_are_scored_by_the_evaluation():
    engine, state, seat = _troja_choice()
    ends = []
    watching = _watching(engine, ends)

    action = search.paired(engine, state, seat, Rng(2),
                           PairedConfig(iterations=4, rollout=watching, depth=6, prune=None))
    assert action in engine.legal_actions(state, seat)
    per_playout = {}
    for s in ends:
        per_playout[id(s)] = per_playout.get(id(s), 0) + 1
    assert per_playout and max(per_playout.values()) <= 6
    assert not any(engine.result(s) for s in ends), "no playout reaches the end of the game in 6 actions"
