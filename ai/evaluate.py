"""Cheap position evaluations for cut-short playouts: per game, a *stage* of the game (a battle, a round,
a race: public counters) and each seat's reward in [0, 1] from a sampled state when the playout stops.

The search (``ai/search.py``) calls these only on determinized samples, so they may read the whole sample:
it holds no more than the searching seat's view plus guesses. A reward is a logistic of the seat's margin
over the best other seat in the game's own currency (troops left, Glory, Triumph points, figures, laurels).
"""

from __future__ import annotations

import math


def _logistic(margins: list[float], scale: float) -> list[float]:
    out = []
    for s, mine in enumerate(margins):
        best_other = max(m for o, m in enumerate(margins) if o != s)
        out.append(1.0 / (1.0 + math.exp(-(mine - best_other) / scale)))
    return out


# ------------------------------------------------------------------------------------------ Hector and Achilles
def _ha_stage(state) -> int:
    return state["battle_no"]


def _ha_eval(engine, state) -> list[float]:
    # troop cards an army still has (losing them all, or the home deck, loses the game), battles won
    margins = [sum(len(d) for d in p["decks"].values()) + 4 * p["battles_won"] for p in state["players"]]
    return _logistic(margins, 6.0)


# ------------------------------------------------------------------------------------------------------ Troja
def _troja_stage(state) -> int:
    # a round is only ~10 actions, too short for Glory to tell: a stage is four rounds
    return state["round"] // 4


def _troja_eval(engine, state) -> list[float]:
    return _logistic([p["gp"] for p in state["players"]], 4.0)


# --------------------------------------------------------------------------------------------- Kiválasztottak
def _kiv_stage(state) -> int:
    return state["round"]


def _kiv_eval(engine, state) -> list[float]:
    from engines.kivalasztottak import state as S

    # Triumph points win (11 / 19), a player without towers loses
    margins = [S.dp(state, s) + 2 * len(state["p"][s]["towers"]) for s in range(len(state["p"]))]
    return _logistic(margins, 3.0)


# ---------------------------------------------------------------------------------------------------- HEX-TRI
def _hextri_stage(state) -> int:
    return state["round"]


def _hextri_eval(engine, state) -> list[float]:
    margins = []
    for p in state["players"]:
        figures = sum(p["on"].values()) + p.get("waiting", 0)
        leader = 0 if p.get("leader") in (None, "off") else 3
        margins.append(figures + leader)
    return _logistic(margins, 2.0)


# ------------------------------------------------------------------------------------------------- Ave Caesar
def _ac_stage(state) -> int:
    return len(state["history"])  # races run so far (public)


def _ac_eval(engine, state) -> list[float]:
    from ai.search import _reward_of_places

    return _reward_of_places([row["place"] for row in engine.view(state, None)["standings"]])


#: engine key -> (stage, evaluation, most actions a playout runs past the tree before it is evaluated)
EVALUATIONS = {
    "hector-achilles": (_ha_stage, _ha_eval, 40),
    "troja": (_troja_stage, _troja_eval, 100),
    "kivalasztottak": (_kiv_stage, _kiv_eval, 60),
    "hextri": (_hextri_stage, _hextri_eval, 12),
    "ave-caesar": (_ac_stage, _ac_eval, 10**9),
}


def _hextri_candidates(engine, state, seat: int, rng, k: int = 6) -> list[dict]:
    """The heuristic's ``k`` best-valued moves and the pass: a HEX-TRI turn has thousands of moves, too many
    to try each even once in a second."""
    from ai import hextri as H

    actions = engine.legal_actions(state, seat)
    if actions[0]["type"] != "move" and not any(a["type"] == "move" for a in actions):
        return actions
    seen: set[tuple] = set()
    moves = []
    for a in actions:
        if a["type"] == "move" and (a["from"], a["to"], a["leader"]) not in seen:
            seen.add((a["from"], a["to"], a["leader"]))
            moves.append(a)
    pos = H._Position(engine.view(state, None), seat)
    quick = sorted(((pos.quick(a), i) for i, a in enumerate(moves)), reverse=True)[:H.DEEP]
    valued = sorted(((pos.value(moves[i]), i) for _, i in quick), reverse=True)[:k]
    return [moves[i] for _, i in valued] + [a for a in actions if a["type"] == "pass"]


#: engine key -> (state, seat, rng) -> the root actions worth searching (default: every legal action)
CANDIDATES = {"hextri": _hextri_candidates}
