"""Decisions a player must make before anything else (tower order, mulligan, discards, teams, ranks, quest
choices, beast targets, trigger order, destroying a building, picking from the reserve): their legal
answers and applying one.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

from . import common as C
from . import state as S
from .cards import HAND_SIZE
from .conditions import holds
from .maneuvers import (
    end_maneuver,
    form_block,
    new_combat_round,
    quest_obstacles,
    return_team,
    solve_quest,
    team_decide,
)
from .obstacles import beast_attack
from .thread import push_trigger
from .zones import attr_fn, can_wear, shuffle, to_past


# ---------------------------------------------------------------- the legal answers, per kind of decision
def _tower_order_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "tower_order", "order": list(o)} for o in permutations(state["p"][seat]["towers"])]


def _mulligan_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    acts = [{"type": "keep"}]
    if state["p"][seat]["mulligans"] < 3:
        acts.append({"type": "mulligan"})
    return acts


def _hand_card_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    t = "discard" if dec["kind"] == "adjust_discard" else "bottom"
    return [{"type": t, "card": cid} for cid in state["p"][seat]["hand"]]


def _close_discard_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "no_discard"}] + [{"type": "discard", "card": cid} for cid in state["p"][seat]["hand"]]


def team_actions(state: dict, seat: int, dec: dict) -> list[dict]:
    """The answers while forming a team: add an alert Row adventurer (up to 3), equip a team member, done or no block."""
    p = state["p"][seat]
    acts = []
    if len(p["team"]) < 3:
        acts += [{"type": "team_add", "card": cid} for cid in p["row"]
                 if state["cards"][cid]["state"] == "alert"]
    for item in p["store"]:
        for adv in p["team"]:
            if can_wear(state, adv, item):
                acts.append({"type": "equip", "item": item, "to": adv})
    if p["team"]:
        acts.append({"type": "team_done"})
    elif dec["role"] == "block":
        acts.append({"type": "no_block"})
    return acts


def _wall_choice_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "end_siege"}, {"type": "continue_siege"}]


def _ranks_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    team = state["p"][seat]["team"]
    acts = []
    for mask in range(1, 1 << len(team)):
        acts.append({"type": "ranks", "front": [c for i, c in enumerate(team) if mask >> i & 1]})
    return acts


def _continue_quest_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "continue"}, {"type": "withdraw"}]


def _solve_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    p = state["p"][seat]
    m = state["maneuver"]
    q = S.cdef(state, m["target"])
    acts: list[dict] = []
    if p["mp"] >= q["mp"]:
        group = [S.adv_desc(state, a) for a in p["team"]]
        for i, cond in enumerate(q["conditions"]):
            if holds(cond, group, attr_fn(state)):
                acts.append({"type": "solve", "condition": i})
    acts.append({"type": "decline"})
    return acts


def _beast_target_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "beast_target", "card": cid} for cid in state["p"][seat]["team"]]


def _trigger_order_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "order_trigger", "card": t["card"], "ability": t["ab"]}
            for t in state["trig"] if t["seat"] == seat]


def _destroy_building_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    return [{"type": "destroy_building", "card": cid} for cid in state["p"][seat]["buildings"]]


def _reserve_pick_answers(state: dict, seat: int, dec: dict) -> list[dict]:
    seen: dict[str, str] = {}  # one choice per card of the reserve (copies alike: the first of them)
    for cid in state["p"][seat]["reserve"]:
        seen.setdefault(state["cards"][cid]["k"], cid)
    return [{"type": "reserve_pick", "card": cid} for cid in seen.values()]


_ANSWERS: dict[str, Callable[[dict, int, dict], list[dict]]] = {
    "tower_order": _tower_order_answers,
    "mulligan": _mulligan_answers,
    "adjust_discard": _hand_card_answers,
    "omen_bottom": _hand_card_answers,
    "close_discard": _close_discard_answers,
    "team": team_actions,
    "wall_choice": _wall_choice_answers,
    "ranks": _ranks_answers,
    "continue_quest": _continue_quest_answers,
    "solve": _solve_answers,
    "beast_target": _beast_target_answers,
    "trigger_order": _trigger_order_answers,
    "destroy_building": _destroy_building_answers,
    "reserve_pick": _reserve_pick_answers,
}


def decision_actions(state: dict, dec: dict) -> list[dict]:
    """The legal answers to decision ``dec`` (pending for ``dec["seat"]``)."""
    return _ANSWERS[dec["kind"]](state, dec["seat"], dec)


# ---------------------------------------------------------------- applying an answer, per kind of decision
def _tower_order(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    p = state["p"][seat]
    p["towers"] = list(action["order"])
    p["towers_set"] = True
    state["pending"].remove(dec)
    ev.append({"type": "towers_set", "seat": seat})


def _mulligan(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    p = state["p"][seat]
    if action["type"] == "keep":
        p["kept"] = True
        if p["setaside"]:
            for cid in list(p["setaside"]):
                S.move(state, cid, "future", seat)
            shuffle(state, p["future"])
        state["pending"].remove(dec)
        ev.append({"type": "kept_hand", "seat": seat, "hand": len(p["hand"])})
        return
    p["mulligans"] += 1
    for cid in list(p["hand"]):
        S.move(state, cid, "setaside", seat)
    n = HAND_SIZE - 2 * p["mulligans"]
    for _ in range(n):
        if p["future"]:
            S.move(state, p["future"][-1], "hand", seat)
    ev.append({"type": "mulligan", "seat": seat, "hand": len(p["hand"])})


def _adjust_discard(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    S.move(state, action["card"], C.PAST, seat)
    ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
    if len(state["p"][seat]["hand"]) <= HAND_SIZE:
        state["pending"].remove(dec)


def _omen_bottom(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    S.take(state, action["card"])
    S.put(state, action["card"], "future", seat, bottom=True)
    ev.append({"type": "card_to_bottom", "seat": seat})
    state["pending"].remove(dec)


def _close_discard(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    if action["type"] == "discard":
        S.move(state, action["card"], C.PAST, seat)
        ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
    state["pending"].remove(dec)


def _wall_choice(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    m = state["maneuver"]
    if action["type"] == "end_siege":
        ev.append({"type": "siege_repelled_by_wall", "seat": seat})
        m["winner"] = seat
        end_maneuver(state, ev)
    else:
        form_block(state, ev)


def _ranks(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    p = state["p"][seat]
    state["pending"].remove(dec)
    m = state["maneuver"]
    for cid in p["team"]:
        if cid in m["front"]:
            m["front"].remove(cid)
    m["front"].extend(action["front"])
    ev.append({"type": "ranks", "seat": seat, "front": action["front"],
               "back": [c for c in p["team"] if c not in action["front"]]})
    if not state["pending"]:
        new_combat_round(state, ev)


def _continue_quest(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    m = state["maneuver"]
    if action["type"] == "continue":
        ev.append({"type": "quest_continued", "seat": seat})
        m["solver"] = seat
        quest_obstacles(state, ev)
    else:
        return_team(state, seat, ev)
        end_maneuver(state, ev)


def _solve(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    if action["type"] == "solve":
        solve_quest(state, seat, action["condition"], ev)
    else:
        ev.append({"type": "quest_not_solved", "seat": seat})
        end_maneuver(state, ev)


def _beast_target(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    beast_attack(state, action["card"], ev)


def _trigger_order(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    tr = next(x for x in state["trig"] if x["seat"] == seat and x["card"] == action["card"]
              and x["ab"] == action["ability"])
    state["trig"].remove(tr)
    push_trigger(state, tr, ev)


def _destroy_building(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    ev.append({"type": "building_destroyed", "seat": seat, "card": action["card"]})
    to_past(state, action["card"], ev)


def _reserve_pick(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    state["pending"].remove(dec)
    S.move(state, action["card"], "hand", seat)
    # public: that a card came from the reserve; the card itself is the player's secret
    ev.append({"type": "reserve_searched", "seat": seat, "card": action["card"],
               "left": len(state["p"][seat]["reserve"])})


_DECIDE: dict[str, Callable[[dict, int, dict, dict, list], None]] = {
    "tower_order": _tower_order,
    "mulligan": _mulligan,
    "adjust_discard": _adjust_discard,
    "omen_bottom": _omen_bottom,
    "close_discard": _close_discard,
    "team": team_decide,
    "wall_choice": _wall_choice,
    "ranks": _ranks,
    "continue_quest": _continue_quest,
    "solve": _solve,
    "beast_target": _beast_target,
    "trigger_order": _trigger_order,
    "destroy_building": _destroy_building,
    "reserve_pick": _reserve_pick,
}


def decide(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    """Apply ``seat``'s (legal) answer ``action`` to its pending decision ``dec``."""
    _DECIDE[dec["kind"]](state, seat, dec, action, ev)
