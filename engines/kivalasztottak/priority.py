"""The player holding priority: the legal actions (summons, abilities, obstacles, maneuvers, gear, quest
rewards) and applying one of them.
"""

from __future__ import annotations

from engines.protocol import IllegalAction

from . import common as C
from . import state as S
from .abilities import ability_actions, activate
from .cards import SIEGE_COST
from .maneuvers import declare_maneuver
from .obstacles import activate_obstacle, obstacle_actions
from .resolution import pass_priority
from .summoning import summon, summon_actions, summon_reward
from .thread import push
from .zones import can_wear, stamp


def prio_actions(state: dict, seat: int, zones: dict) -> list[dict]:
    acts: list[dict] = [{"type": "pass"}]
    p = state["p"][seat]
    th = state["thread"] is not None
    m = state["maneuver"]
    row_free = m is None and not th  # MP-bound Row-phase actions
    cards = state["cards"]
    mp = p["mp"]
    hand_table = C.hand_table()
    sit = C.situation(state)
    for cid in p["hand"]:
        # the cheap refusals of _summon_actions (type, MP, timing), before calling it
        kind, need, timing = hand_table[cards[cid]["k"]]
        if kind == 1:
            if not row_free or mp < need:
                continue
        elif kind == 2:
            if mp < need or not timing[sit]:
                continue
        elif kind != 3:
            continue
        acts.extend(summon_actions(state, seat, cid))
    acts.extend(ability_actions(state, seat, zones))
    acts.extend(obstacle_actions(state, seat, zones))
    if row_free:
        alert = [a for a in p["row"] if state["cards"][a]["state"] == "alert"]
        if alert:
            opp = state["p"][1 - seat]
            if p["mp"] >= SIEGE_COST and opp["towers"]:
                acts.append({"type": "maneuver", "kind": "siege"})
            for q in [*p["quests"], *opp["quests"]]:
                acts.append({"type": "maneuver", "kind": "quest", "target": q})
            for b in opp["buildings"]:
                if p["mp"] >= S.cdef(state, b)["dp"]:
                    acts.append({"type": "maneuver", "kind": "capture", "target": b})
        for item in p["store"]:
            for adv in p["row"]:
                if can_wear(state, adv, item):
                    acts.append({"type": "equip", "item": item, "to": adv})
        for adv in p["row"]:
            for item in state["cards"][adv].get("worn", ()):
                if S.cdef(state, item)["action_type"] != "magic_item":
                    acts.append({"type": "unequip", "item": item})
        for cid in p["hand"]:
            d = S.cdef(state, cid)
            if d["type"] == "action" and d["action_type"] in ("item", "magic_item"):
                for q in p["quests"]:
                    qc = state["cards"][q]
                    has_reward = any(S.cdef(state, a)["type"] == "action" for a in qc.get("att", ()))
                    affordable = d["mp"] <= p["mp"] or not C.v2(state)
                    if not has_reward and d["mp"] <= S.cdef(state, q)["dp"] and affordable:
                        acts.append({"type": "attach_reward", "card": cid, "quest": q})
    return acts


def prio_act(state: dict, seat: int, action: dict, ev: list) -> None:
    t = action["type"]
    if t == "pass":
        pass_priority(state, seat, ev)
        return
    stamp(state, seat)
    m = state["maneuver"]
    if m is not None and m["step"] == "rounds" and state["thread"] is None:
        m["acted"] = True
    if t == "summon":
        summon(state, seat, action, ev)
    elif t == "activate":
        activate(state, seat, action, ev)
    elif t == "activate_obstacle":
        activate_obstacle(state, seat, action, ev)
    elif t == "maneuver":
        declare_maneuver(state, seat, action["kind"], action.get("target"), ev)
    elif t in ("equip", "unequip") and C.v2(state):
        # Rulebook l.166-171, 226: equipping and unequipping are actions, and every action opens a thread
        item = {"kind": t, "seat": seat, "card": action["item"], "ab": None, "by": None, "targets": [],
                "tinc": [], "labels": []}
        if t == "equip":
            item["to"] = action["to"]
            item["labels"] = [action["to"]]
        else:
            item["from"] = state["cards"][action["item"]]["on"]
        push(state, item, seat)
        ev.append({"type": f"{t}_started", "seat": seat, "item": action["item"], "to": action.get("to"),
                   "uid": item["uid"]})
    elif t == "attach_reward" and C.v2(state):
        summon_reward(state, seat, action, ev)
    elif t == "equip":
        S.move(state, action["item"], "worn", seat, on=action["to"])
        ev.append({"type": "equipped", "seat": seat, "item": action["item"], "to": action["to"]})
        state["prio"] = S.active(state)
        state["passes"] = 0
    elif t == "unequip":
        S.move(state, action["item"], "store", seat)
        ev.append({"type": "unequipped", "seat": seat, "item": action["item"]})
        state["prio"] = S.active(state)
        state["passes"] = 0
    elif t == "attach_reward":
        # Decision: attaching equipment to one's own awaiting quest is done openly and at once, for free.
        S.move(state, action["card"], "attached", seat, on=action["quest"])
        ev.append({"type": "reward_attached", "seat": seat, "card": action["card"], "quest": action["quest"]})
        state["prio"] = S.active(state)
        state["passes"] = 0
    else:  # pragma: no cover - validated before
        raise IllegalAction("That move is not allowed now.")
