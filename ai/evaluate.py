"""Cheap position evaluations for cut-short playouts: per game, a *stage* of the game (a battle, a round,
a race: public counters) and each seat's reward in [0, 1] from a sampled state when the playout stops.

The search (``ai/search/``) calls these only on determinized samples, so they may read the whole sample:
it holds no more than the searching seat's view plus guesses. A reward is a logistic of the seat's margin
over the best other seat in the game's own currency (troops left, Glory, Triumph points, figures, laurels).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple


def reward_of_places(places: list[int]) -> list[float]:
    """Each seat's reward in [0, 1] from the places of a finished game: the share of other seats it finished
    ahead of (a tie counts half)."""
    n = len(places)
    if n < 2:
        return [1.0] * n
    return [(sum(1 for q in places if q > p) + 0.5 * (sum(1 for q in places if q == p) - 1)) / (n - 1)
            for p in places]


def _logistic(margins: Sequence[float], scale: float) -> list[float]:
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
    # laurels won so far, plus the laurels still to give out in the order the racing chariots would finish
    # at their own pace: every chariot plays one card a turn, so the one with the fewest turns left (the
    # route still to drive, Caesar's alley included while due, over its cards' mean value) crosses first;
    # a chariot whose cards cannot cover its route gets none
    from engines.ave_caesar.engine import LAURELS, card_value

    race, chariots = state["race"], state["chariots"]
    laurels = list(state["laurels"])
    if race["moves"] and not state["over"]:
        place = sum(1 for c in race["finish"] if chariots[c]["owner"] is not None)
        pace = []
        for c, car in enumerate(race["cars"]):
            if car["status"] != "racing" or chariots[c]["owner"] is None:
                continue
            points = sum(card_value(x) for x in car["hand"]) + sum(card_value(x) for x in car["deck"])
            cards = len(car["hand"]) + len(car["deck"])
            to_go = engine.to_go(state, c)
            if cards and points >= to_go:
                pace.append((to_go * cards / points, c))
        for i, (_, c) in enumerate(sorted(pace)):
            laurels[c] += LAURELS[place + i] if place + i < len(LAURELS) else 0
    seats = [0.0] * state["num_players"]
    for c, ch in enumerate(chariots):
        if ch["owner"] is not None:
            seats[ch["owner"]] += laurels[c]
    return _logistic(seats, AC_SCALE)


#: laurels per unit of the logistic: a race gives 16 (6+4+3+2+1+0), so 3 laurels ahead is a clear lead
AC_SCALE = 3.0


class Evaluation(NamedTuple):
    """A game's cut-off for playouts: its stage of a state, each seat's reward where a playout stops, and the
    most actions a playout runs past the tree before it is evaluated."""

    stage: Callable[[Any], int]
    evaluate: Callable[[Any, Any], list[float]]
    depth: int


#: engine key -> its :class:`Evaluation`
EVALUATIONS = {
    "hector-achilles": Evaluation(_ha_stage, _ha_eval, 40),
    "troja": Evaluation(_troja_stage, _troja_eval, 100),
    "kivalasztottak": Evaluation(_kiv_stage, _kiv_eval, 60),
    "hextri": Evaluation(_hextri_stage, _hextri_eval, 12),
    "ave-caesar": Evaluation(_ac_stage, _ac_eval, 10**9),
}


def _hextri_candidates(engine, state, seat: int, rng, k: int = 6) -> list[dict]:
    """The heuristic's ``k`` best-valued moves and the pass: a HEX-TRI turn has thousands of moves, too many
    to try each even once in a second."""
    from ai import hextri as H

    actions = engine.legal_actions(state, seat)
    if actions[0]["type"] != "move" and not any(a["type"] == "move" for a in actions):
        return actions
    moves = H.distinct_moves(actions)
    pos = H._Position(engine.view(state, None), seat)
    quick = sorted(((pos.quick(a), i) for i, a in enumerate(moves)), reverse=True)[:H.DEEP]
    valued = sorted(((pos.value(moves[i]), i) for _, i in quick), reverse=True)[:k]
    return [moves[i] for _, i in valued] + [a for a in actions if a["type"] == "pass"]


#: how many of the heuristic's best moves Ave Caesar's hard level searches
AC_CANDIDATES = 5


def _ac_candidates(engine, state, seat: int, rng, k: int = AC_CANDIDATES) -> list[dict]:
    """The heuristic's ``k`` best-scored moves: a turn has ~10 (card, destination) pairs, and a second of
    race playouts tries each only a dozen times."""
    from ai import ave_caesar as H

    view = engine.view(state, seat)
    if any(a["type"] != "move" for a in view["legal"]):
        # a vote on a neutral chariot's way (option neutral_vote): a few destinations, all searched
        return list(view["legal"])
    by_space = {ch["to"]: ch for ch in view["choices"]}
    scored = sorted(((H.score(view, a, by_space[a["to"]]), i) for i, a in enumerate(view["legal"])), reverse=True)
    return [view["legal"][i] for _, i in scored[:k]]


#: Kiválasztottak actions the search may not pick over the heuristic: unequipping costs nothing and undoes an
#: equip, so a search that found it no worse than passing equipped and unequipped the same item for ever and
#: the maneuvers phase never ended (arena seed 20166: 20,000 actions in round 4). Equipping alone cannot
#: loop: it only takes gear out of the store.
_KIV_CHURN = ("unequip",)


def _kiv_candidates(engine, state, seat: int, rng) -> list[dict]:
    """Every legal action but unequipping (``search.choose`` adds the heuristic's own pick back)."""
    actions = engine.legal_actions(state, seat)
    return [a for a in actions if a["type"] not in _KIV_CHURN] or actions


#: engine key -> (state, seat, rng) -> the root actions worth searching (default: every legal action)
CANDIDATES = {"hextri": _hextri_candidates, "ave-caesar": _ac_candidates, "kivalasztottak": _kiv_candidates}
