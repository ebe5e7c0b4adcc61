"""HEX-TRI positions whose move lists grow without bound in mana (issue 22), for the benchmark and the tests.

- :func:`pass_until_huge`: radius 5, no round limit, two players who bring their figures onto empty HEXes of
  their own and then only pass; every lone figure's HEX produces a mana a round, so the mana piles up on
  nine fields per player and a move of many steps can be paid in millions of ways (the position that froze
  the bot: 100,619 actions after 30 clicks, 371,523 two rounds later when every way to pay was listed).
- :func:`ai_game`: two AIs playing a game (radius 5, no round limit), the states of the seat to act one after
  another; :func:`ai_against_passing`: the normal AI against a player who only passes, a game that runs for
  hundreds of rounds while the AI's mana piles up (a game against the normal AI reached 3,525,551 listed
  actions when every way to pay was listed).

Both play through the engine protocol only (``legal_actions`` and ``apply``), so they run against any
listing the engine has: with ways to pay listed one by one they become very slow after some rounds (that is
the point), with moves by destination they stay quick.
"""

from __future__ import annotations

from collections.abc import Iterator

from engines import ENGINES
from engines.hextri.board import board
from engines.rng import Rng

ENGINE = ENGINES["hextri"]
OPTIONS = {"radius": 5, "round_limit": 0}


def _distances(bd, sources: set[str]) -> dict[str, int]:
    """Steps from the nearest of ``sources`` to every field (who stands where ignored)."""
    dist = dict.fromkeys(sources, 0)
    frontier = list(sources)
    while frontier:
        nxt = []
        for f in frontier:
            for g in bd.adj[f]:
                if g not in dist:
                    dist[g] = dist[f] + 1
                    nxt.append(g)
        frontier = nxt
    return dist


def _placing_move(state: dict, seat: int, actions: list[dict]) -> dict | None:
    """The move that brings a figure not yet on a HEX of its own (waiting off the board, or on a TRI) onto
    the empty HEX farthest from the enemy's figures, the cheapest of those; while no HEX is in reach, the
    leader's free entry onto the outer TRI farthest from them. None when every figure has a HEX of its own
    (or none can get one now). Far apart, nobody is ever encircled or attacked: both sides only grow."""
    bd = board(state["options"]["radius"])
    on = state["players"][seat]["on"]
    taken = {f for p in state["players"] for f in p["on"]}
    enemy = {f for s, p in enumerate(state["players"]) if s != seat for f in p["on"]}
    far = _distances(bd, enemy) if enemy else {}
    best = None
    for a in actions:
        if a["type"] != "move" or a["to"] in taken:
            continue
        origin, dest = a["from"], a["to"]
        if origin != "off" and bd.kind[origin] == "hex" and on.get(origin) == 1:
            continue  # already alone on a HEX of its own: it stays
        away = min(far.get(dest, 99), 8)
        if away < 4:
            continue  # near the enemy: a battle or a ring could follow
        if bd.kind[dest] == "hex":
            key = (0, -away, a["cost"], not a["leader"])
        elif origin == "off" and a["leader"] and not any(h in taken for h in bd.adj[dest]):
            key = (1, -away, a["cost"], 0)
        else:
            continue
        if best is None or key < best[0]:
            best = (key, a)
    return best[1] if best else None


def pass_until_huge(clicks: int, seed: int = 1) -> dict:
    """The state after ``clicks`` actions of two players who place their figures and then pass."""
    state = ENGINE.new_game(2, seed, dict(OPTIONS))
    for _ in range(clicks):
        acting = ENGINE.to_act(state)
        if not acting:
            break
        seat = acting[0]
        actions = ENGINE.legal_actions(state, seat)
        if state["phase"] == "losses":
            action = next(a for a in actions if not a["leader"])
        else:
            action = _placing_move(state, seat, actions) or {"type": "pass"}
        ENGINE.apply(state, seat, action)
    return state


def pass_until_huge_states(clicks: int, seed: int = 1) -> Iterator[dict]:
    """Every state of :func:`pass_until_huge` up to ``clicks`` actions (the same object, changed in place)."""
    state = ENGINE.new_game(2, seed, dict(OPTIONS))
    for _ in range(clicks):
        acting = ENGINE.to_act(state)
        if not acting:
            return
        yield state
        seat = acting[0]
        actions = ENGINE.legal_actions(state, seat)
        if state["phase"] == "losses":
            action = next(a for a in actions if not a["leader"])
        else:
            action = _placing_move(state, seat, actions) or {"type": "pass"}
        ENGINE.apply(state, seat, action)


def ai_game(seed: int, actions: int, level: str = "normal", options: dict | None = None) -> Iterator[dict]:
    """The states of an AI-against-AI game (both seats ``level``), before each of up to ``actions`` actions."""
    from ai import choose

    state = ENGINE.new_game(2, seed, dict(options or OPTIONS))
    rng = Rng(seed * 7 + 1)
    for _ in range(actions):
        acting = ENGINE.to_act(state)
        if not acting:
            return
        yield state
        seat = acting[0]
        ENGINE.apply(state, seat, choose(ENGINE, state, seat, rng, level))


def ai_against_passing(seed: int, actions: int, level: str = "normal") -> Iterator[dict]:
    """The states of a game of the AI (seat 0, ``level``) against a player who only passes (radius 5, no round
    limit), before each of up to ``actions`` actions."""
    from ai import choose

    state = ENGINE.new_game(2, seed, dict(OPTIONS))
    rng = Rng(seed * 7 + 3)
    for _ in range(actions):
        acting = ENGINE.to_act(state)
        if not acting:
            return
        yield state
        seat = acting[0]
        if seat == 0 or state["phase"] != "move":
            action = choose(ENGINE, state, seat, rng, level)
        else:
            action = {"type": "pass"}
        ENGINE.apply(state, seat, action)

