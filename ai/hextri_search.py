"""HEX-TRI's hard level: a rollout search over the heuristic's best moves.

HEX-TRI has perfect information and no luck, and a game is short (about ten rounds, some thirty moves by
each side), while a turn has hundreds of moves (thousands on the largest board). So the search is one ply
wide and the rest of the game deep: each of the heuristic's best few moves (and the pass) is tried on a copy of the real state, and the
game is played out to its end by the heuristic itself for every seat, with no random moves - the heuristic
is a far better guess of each side's later play than noise. A move is judged by how its playouts end (a
win 1, a draw 1/2, a loss 0; a quicker win and a slower loss count a little more), and the heuristic's own
choice is kept unless another move does better (policy improvement by rollouts: at worst it plays the
heuristic's move, and it finds the moves after which the heuristic, on both sides, goes on to win).

Playouts differ only where the heuristic picks at random between equally valued moves, so the budget
(iterations = playouts) goes round the candidates and each is played out a few times.
"""

from __future__ import annotations

import math
import time

from ai import hextri as H
from engines.base import _copy
from engines.rng import Rng

#: root moves searched: the heuristic's best ``WIDTH`` by its position value, plus its choice and the pass
WIDTH = 8
#: a playout longer than this many actions is judged by the heuristic's value of the position (a game
#: between heuristics lasts some 35 actions; one in which both sides stall can run to the round limit)
DEPTH = 80
#: a playout stops before a turn whose mover has (peaceful fields with mana + mana on them) this high: with
#: that much mana every figure reaches most of the board, and the heuristic scores thousands of moves a turn
#: (some 50 ms on the largest board). The engine's listing stays cheap (one move per figure and destination;
#: until issue 22 it listed every way to pay, ~640,000 actions with 8 fields of 18 mana, which is what this
#: cut-off was first set for; kept so that the hard level plays as it was measured)
COSTLY = 18
#: the value's scale in that judgement: a lead of ``SCALE`` (two figures on the board) is a 73% chance
SCALE = 20.0
#: a playout reward above this is a win (a cut-off playout's evaluation rarely gets there)
WON = 0.9
#: a win is worth a little more the sooner it comes, a loss a little less (in [0, 1] rewards)
PACE = 0.002


def _playout(engine, state: dict, rng, deadline: float | None, depth: int = DEPTH) -> tuple[list[float], int]:
    """Play ``state`` to its end with the heuristic for every seat, or ``depth`` actions (then the position
    is judged): (each seat's reward, actions played)."""
    steps = 0
    while steps < depth:
        acting = engine.to_act(state)
        if not acting:
            break
        if deadline is not None and steps and time.perf_counter() >= deadline:
            break
        p = acting[0]
        if _costly(state, p):
            break
        engine.apply(state, p, H.choose(engine, state, p, rng))
        steps += 1
    result = engine.result(state)
    if result is None:
        return _judge(engine, state), steps
    from ai.search import _reward_of_places

    return _reward_of_places(result["places"]), steps


def _costly(state: dict, seat: int) -> bool:
    """Whether the heuristic's turn would take long: with much mana on many fields every figure reaches
    most of the board, thousands of moves to score. A playout stops there and the position is judged
    instead (see :data:`COSTLY`)."""
    if state["phase"] != "move":
        return False
    held: dict[str, int] = {}
    for s, p in enumerate(state["players"]):
        for field in p["on"]:
            held[field] = -1 if field in held else s
    mana = state["mana"]
    fields = total = 0
    for field, n in mana.items():
        if n > 0 and held.get(field) == seat:
            fields += 1
            total += n
    return fields + total >= COSTLY


def _judge(engine, state: dict) -> list[float]:
    """Each seat's chance from the heuristic's value of the position (its own side of it)."""
    view = engine.view(state, None)
    out = []
    for seat in range(len(state["players"])):
        value = H._Position(view, seat).value() if view["players"][seat]["alive"] else -H.WIN
        out.append(1.0 / (1.0 + math.exp(-max(min(value / SCALE, 50.0), -50.0))))
    return out


def _score(reward: float, steps: int) -> float:
    if reward > 0.5:
        return reward - PACE * min(steps, 100) * (reward - 0.5)
    if reward < 0.5:
        return reward + PACE * min(steps, 100) * (0.5 - reward)
    return reward


def candidates(engine, state: dict, seat: int, rng, prior: dict) -> list[dict]:
    """The root moves worth a playout: the heuristic's best by its position value, its choice, the pass."""
    from ai.evaluate import _hextri_candidates

    short = _hextri_candidates(engine, state, seat, rng, k=WIDTH)
    if prior not in short:
        short.insert(0, prior)
    else:
        short.remove(prior)
        short.insert(0, prior)
    return short


def choose(engine, state: dict, seat: int, rng, *, iterations: int | None = None,
           seconds: float | None = None, **_) -> dict:
    """The hard AI's HEX-TRI move. Budget: ``iterations`` actions played out in all (a turn's cost grows with
    its moves, so actions, not playouts, keep a decision near its second), or ``seconds`` of wall time,
    whichever ends first; the heuristic's own move is always played out (up to :data:`DEPTH` actions).

    The heuristic's move is played out first and kept when it wins. Otherwise the other candidates are
    played out in the heuristic's order, and the first that wins is taken; when none does, the budget left
    goes round the candidates again (their playouts differ where the heuristic breaks ties at random) and
    the best mean is taken, the heuristic's move on a tie. A playout the budget cuts short is judged by
    the heuristic's value of where it stands."""
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    prior = H.choose(engine, state, seat, Rng(rng.next64()))
    if legal[0]["type"] == "losses":
        return prior  # whether the leader is among the losses: never
    moves = candidates(engine, state, seat, rng, prior)
    if len(moves) == 1:
        return moves[0]
    budget = iterations if iterations is not None else (None if seconds is not None else DEPTH * len(moves))
    deadline = time.perf_counter() + seconds if seconds is not None else None
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    done = used = 0
    while True:
        i = done % len(moves)
        s = _copy(state)
        engine.apply(s, seat, moves[i])
        depth = DEPTH if budget is None or not done else max(1, min(DEPTH, budget - used))
        rewards, steps = _playout(engine, s, rng, deadline, depth)
        totals[i] += _score(rewards[seat], steps)
        counts[i] += 1
        done += 1
        used += steps + 1
        if done <= len(moves) and rewards[seat] > WON:
            return moves[i]
        if budget is not None and used >= budget:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    played = [i for i in range(len(moves)) if counts[i]]
    best = max(played, key=lambda i: (totals[i] / counts[i], i == 0))
    # the heuristic's choice (index 0) stays unless another move does better
    if totals[best] / counts[best] <= totals[0] / counts[0] + 1e-9:
        return moves[0]
    return moves[best]
