"""The move planner against a brute-force search of every way to pay every step.

For positions taken from random games, every destination the engine lists must be reachable, every
reachable destination must be listed, and the listed number of steps must be the fewest possible.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations_with_replacement, permutations

import pytest

from engines import IllegalAction
from engines.hextri import ENGINE as E
from engines.hextri.board import board
from engines.hextri.engine import _occupancy
from engines.hextri.moves import OFF, Mover, check
from engines.rng import Rng


def brute_force(mover: Mover) -> dict[str, int]:
    """Fewest steps to each destination, trying every source for every step (exponential, small cases)."""
    fields = sorted(f for f, n in mover.mana.items() if n > 0)
    start = (mover.origin, tuple(mover.mana[f] for f in fields), False)
    dist = {start: 0}
    best: dict[str, int] = {}
    queue = deque([start])
    while queue:
        key = queue.popleft()
        pos, left, used = key
        d = dist[key]
        if pos != mover.origin and pos not in best:
            best[pos] = d
        if not mover.can_leave(pos):
            continue
        remaining = dict(zip(fields, left))
        payments = []
        if mover.free_avail and not used:
            payments.append((left, True))
        for i, f in enumerate(fields):
            if mover.source_ok(f, pos, remaining):
                payments.append((left[:i] + (left[i] - 1,) + left[i + 1:], used))
        for nb in mover.neighbours(pos):
            if not mover.can_enter(nb):
                continue
            for n_left, n_used in payments:
                new = (nb, n_left, n_used)
                if new not in dist:
                    dist[new] = d + 1
                    queue.append(new)
    return best


def _positions(seed: int, count: int):
    """Movement-phase positions of a random game on the small board, with a few mana counters sprinkled on
    random fields (own, enemy, empty, TRIs) so that moves of several steps and lone figures' mana occur."""
    s = E.new_game(2, seed, {"radius": 2, "round_limit": 40})
    rng = Rng(seed)
    out = []
    fields = board(2).fields
    while E.to_act(s) and len(out) < count:
        seat = E.to_act(s)[0]
        actions = E.legal_actions(s, seat)
        if s["phase"] == "move" and s["round"] >= 3 and rng.below(4) == 0:
            data = E.to_json(s)
            data["mana"] = {}
            occupied = sorted({f for p in s["players"] for f in p["on"]})
            for f in (rng.choice(occupied), rng.choice(occupied), rng.choice(fields)):
                data["mana"][f] = data["mana"].get(f, 0) + 1 + rng.below(2)
            out.append((data, seat))
        E.apply(s, seat, rng.choice(actions))
    return out


@pytest.mark.parametrize("seeds", [range(0, 6), range(6, 12)])
def test_planner_matches_brute_force(seeds):
    checked = 0
    for data, seat in [p for seed in seeds for p in _positions(seed, 3)]:
        state = E.from_json(data)
        bd = board(state["options"]["radius"])
        occ = _occupancy(state)
        for origin, leader in E._groups(state, seat):
            mover = Mover(state, bd, occ, seat, origin, leader)
            truth = brute_force(mover)
            listed = {a["to"]: a for a in E.legal_actions(state, seat)
                      if a["type"] == "move" and a["from"] == origin and a["leader"] == leader}
            assert set(listed) == set(truth), (origin, leader)
            for dest, action in listed.items():
                assert len(action["sources"]) == truth[dest]
                assert check(mover, dest, action["sources"])[-1] == dest
                checked += 1
    assert checked > 100


def test_brute_force_sees_the_lone_figure_rule():
    s = E.new_game(2, 0, {})
    p = s["players"][0]
    p.update(on={"H-D4": 1, "T-A1": 1}, leader="T-A1", waiting=7)
    s["players"][1].update(on={"T-H9": 1}, leader="T-H9")
    s["mana"] = {"H-D4": 3}
    mover = Mover(s, board(3), _occupancy(s), 0, "H-D4", False)
    assert set(brute_force(mover)) == set(board(3).adj["H-D4"])
    assert OFF not in brute_force(mover)


def brute_ways(mover: Mover, dest: str, sources: list[str]) -> set[tuple[str, ...]]:
    """Every choice of paying fields (as a sorted tuple) with which the figure reaches ``dest`` in as many
    steps, the free step where ``sources`` has it: every field with mana in every paid step, tried in
    every order through :func:`check` (small moves only)."""
    steps = [i for i, s in enumerate(sources) if s != "free"]
    fields = sorted(f for f, n in mover.mana.items() if n > 0)
    found = set()
    for chosen in combinations_with_replacement(fields, len(steps)):
        for order in set(permutations(chosen)):
            trial = list(sources)
            for i, f in zip(steps, order):
                trial[i] = f
            try:
                check(mover, dest, trial)
            except IllegalAction:
                continue
            found.add(chosen)
            break
    return found


@pytest.mark.parametrize("seeds", [range(0, 6), range(6, 12)])
def test_ways_to_pay_match_brute_force(seeds):
    """The ways the engine offers for a move all pay it; ``other_ways`` is true exactly when there is more
    than one; with no lone figure's mana off the origin, the ways along the default path are all there are."""
    checked = several = 0
    cases = [p for seed in seeds for p in _positions(seed, 3)]
    # and each position again with one more mana on every occupied field: more fields that can pay
    cases += [({**data, "mana": {**data["mana"], **{f: data["mana"].get(f, 0) + 1 for p in data["players"]
                                                   for f in p["on"]}}}, seat) for data, seat in cases]
    for data, seat in cases:
        state = E.from_json(data)
        bd = board(state["options"]["radius"])
        occ = _occupancy(state)
        for a in E.legal_actions(state, seat):
            if a["type"] != "move" or a["cost"] > 3:
                continue
            mover = Mover(state, bd, occ, seat, a["from"], a["leader"])
            truth = brute_ways(mover, a["to"], a["sources"])
            offered = {tuple(sorted(s for s in v["sources"] if s != "free"))
                       for v in E.variants(state, seat, a, limit=10_000)}
            assert tuple(sorted(s for s in a["sources"] if s != "free")) in offered
            assert offered <= truth, (a, offered - truth)
            assert a["other_ways"] == (len(offered) > 1), a
            if mover.locals() <= {a["from"]}:
                assert offered == truth, (a, truth - offered)
            checked += 1
            several += len(offered) > 1
    assert checked > 200 and several > 50
