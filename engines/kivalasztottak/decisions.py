"""Decisions a player must make before anything else (tower order, mulligan, discards, teams, ranks, quest
choices, beast targets, trigger order, destroying a building, picking from the reserve): their legal
answers and applying one.
"""

from __future__ import annotations

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


def decision_actions(state: dict, dec: dict) -> list[dict]:
    seat = dec["seat"]
    p = state["p"][seat]
    kind = dec["kind"]
    if kind == "tower_order":
        return [{"type": "tower_order", "order": list(o)} for o in permutations(p["towers"])]
    if kind == "mulligan":
        acts = [{"type": "keep"}]
        if p["mulligans"] < 3:
            acts.append({"type": "mulligan"})
        return acts
    if kind in ("adjust_discard", "omen_bottom"):
        t = "discard" if kind == "adjust_discard" else "bottom"
        return [{"type": t, "card": cid} for cid in p["hand"]]
    if kind == "close_discard":
        return [{"type": "no_discard"}] + [{"type": "discard", "card": cid} for cid in p["hand"]]
    if kind == "team":
        return team_actions(state, seat, dec)
    if kind == "wall_choice":
        return [{"type": "end_siege"}, {"type": "continue_siege"}]
    if kind == "ranks":
        team = p["team"]
        acts = []
        for mask in range(1, 1 << len(team)):
            acts.append({"type": "ranks", "front": [c for i, c in enumerate(team) if mask >> i & 1]})
        return acts
    if kind == "continue_quest":
        return [{"type": "continue"}, {"type": "withdraw"}]
    if kind == "solve":
        m = state["maneuver"]
        q = S.cdef(state, m["target"])
        acts = []
        if p["mp"] >= q["mp"]:
            group = [S.adv_desc(state, a) for a in p["team"]]
            for i, cond in enumerate(q["conditions"]):
                if holds(cond, group, attr_fn(state)):
                    acts.append({"type": "solve", "condition": i})
        acts.append({"type": "decline"})
        return acts
    if kind == "beast_target":
        return [{"type": "beast_target", "card": cid} for cid in state["p"][seat]["team"]]
    if kind == "trigger_order":
        return [{"type": "order_trigger", "card": t["card"], "ability": t["ab"]}
                for t in state["trig"] if t["seat"] == seat]
    if kind == "destroy_building":
        return [{"type": "destroy_building", "card": cid} for cid in p["buildings"]]
    if kind == "reserve_pick":  # one choice per card of the reserve (copies alike: the first of them)
        seen: dict[str, str] = {}
        for cid in p["reserve"]:
            seen.setdefault(state["cards"][cid]["k"], cid)
        return [{"type": "reserve_pick", "card": cid} for cid in seen.values()]
    raise AssertionError(kind)


def team_actions(state: dict, seat: int, dec: dict) -> list[dict]:
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


def decide(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    kind = dec["kind"]
    p = state["p"][seat]
    t = action["type"]
    if kind == "tower_order":
        p["towers"] = list(action["order"])
        p["towers_set"] = True
        state["pending"].remove(dec)
        ev.append({"type": "towers_set", "seat": seat})
    elif kind == "mulligan":
        if t == "keep":
            p["kept"] = True
            if p["setaside"]:
                for cid in list(p["setaside"]):
                    S.move(state, cid, "future", seat)
                shuffle(state, p["future"])
            state["pending"].remove(dec)
            ev.append({"type": "kept_hand", "seat": seat, "hand": len(p["hand"])})
        else:
            p["mulligans"] += 1
            for cid in list(p["hand"]):
                S.move(state, cid, "setaside", seat)
            n = HAND_SIZE - 2 * p["mulligans"]
            for _ in range(n):
                if p["future"]:
                    S.move(state, p["future"][-1], "hand", seat)
            ev.append({"type": "mulligan", "seat": seat, "hand": len(p["hand"])})
    elif kind == "adjust_discard":
        S.move(state, action["card"], C.PAST, seat)
        ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
        if len(p["hand"]) <= HAND_SIZE:
            state["pending"].remove(dec)
    elif kind == "omen_bottom":
        S.take(state, action["card"])
        S.put(state, action["card"], "future", seat, bottom=True)
        ev.append({"type": "card_to_bottom", "seat": seat})
        state["pending"].remove(dec)
    elif kind == "close_discard":
        if t == "discard":
            S.move(state, action["card"], C.PAST, seat)
            ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
        state["pending"].remove(dec)
    elif kind == "team":
        team_decide(state, seat, dec, action, ev)
    elif kind == "wall_choice":
        state["pending"].remove(dec)
        m = state["maneuver"]
        if t == "end_siege":
            ev.append({"type": "siege_repelled_by_wall", "seat": seat})
            m["winner"] = seat
            end_maneuver(state, ev)
        else:
            form_block(state, ev)
    elif kind == "ranks":
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
    elif kind == "continue_quest":
        state["pending"].remove(dec)
        m = state["maneuver"]
        if t == "continue":
            ev.append({"type": "quest_continued", "seat": seat})
            m["solver"] = seat
            quest_obstacles(state, ev)
        else:
            return_team(state, seat, ev)
            end_maneuver(state, ev)
    elif kind == "solve":
        state["pending"].remove(dec)
        if t == "solve":
            solve_quest(state, seat, action["condition"], ev)
        else:
            ev.append({"type": "quest_not_solved", "seat": seat})
            end_maneuver(state, ev)
    elif kind == "beast_target":
        state["pending"].remove(dec)
        beast_attack(state, action["card"], ev)
    elif kind == "trigger_order":
        state["pending"].remove(dec)
        tr = next(x for x in state["trig"] if x["seat"] == seat and x["card"] == action["card"]
                  and x["ab"] == action["ability"])
        state["trig"].remove(tr)
        push_trigger(state, tr, ev)
    elif kind == "destroy_building":
        state["pending"].remove(dec)
        ev.append({"type": "building_destroyed", "seat": seat, "card": action["card"]})
        to_past(state, action["card"], ev)
    elif kind == "reserve_pick":
        state["pending"].remove(dec)
        S.move(state, action["card"], "hand", seat)
        # public: that a card came from the reserve; the card itself is the player's secret
        ev.append({"type": "reserve_searched", "seat": seat, "card": action["card"],
                   "left": len(p["reserve"])})
