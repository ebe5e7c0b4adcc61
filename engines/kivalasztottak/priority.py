"""The player holding priority: the legal actions (summons, abilities, obstacles, maneuvers, gear, quest
rewards) and applying one of them.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.protocol import IllegalAction

from . import common as C
from . import state as S
from .abilities import ability_actions, activate
from .cards import QUEST_LIMIT, SIEGE_COST
from .maneuvers import declare_maneuver
from .obstacles import activate_obstacle, obstacle_actions
from .resolution import pass_priority
from .summoning import summon, summon_actions, summon_reward
from .thread import push
from .zones import can_wear, stamp


# ---------------------------------------------------------------- the legal actions
def _hand_summons(state: dict, seat: int) -> list[dict]:
    """The summons of the hand's cards (the cheap refusals of summon_actions first: type, MP, timing)."""
    p = state["p"][seat]
    row_free = state["maneuver"] is None and state["thread"] is None
    cards = state["cards"]
    mp = p["mp"]
    hand_table = C.hand_table()
    sit = C.situation(state)
    acts: list[dict] = []
    for cid in p["hand"]:
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
    return acts


def _maneuver_actions(state: dict, seat: int) -> list[dict]:
    p = state["p"][seat]
    acts: list[dict] = []
    if not any(state["cards"][a]["state"] == "alert" for a in p["row"]):
        return acts
    opp = state["p"][1 - seat]
    if p["mp"] >= SIEGE_COST and opp["towers"]:
        acts.append({"type": "maneuver", "kind": "siege"})
    for q in [*p["quests"], *opp["quests"]]:
        acts.append({"type": "maneuver", "kind": "quest", "target": q})
    for b in opp["buildings"]:
        if p["mp"] >= S.cdef(state, b)["dp"]:
            acts.append({"type": "maneuver", "kind": "capture", "target": b})
    return acts


def _gear_actions(state: dict, seat: int) -> list[dict]:
    p = state["p"][seat]
    acts: list[dict] = []
    for item in p["store"]:
        for adv in p["row"]:
            if can_wear(state, adv, item):
                acts.append({"type": "equip", "item": item, "to": adv})
    for adv in p["row"]:
        for item in state["cards"][adv].get("worn", ()):
            if S.cdef(state, item)["action_type"] != "magic_item":
                acts.append({"type": "unequip", "item": item})
    return acts


def _reward_actions(state: dict, seat: int) -> list[dict]:
    """Equipment of the hand attached to one's own awaiting quest as its reward."""
    p = state["p"][seat]
    acts: list[dict] = []
    for cid in p["hand"]:
        d = S.cdef(state, cid)
        if d["type"] != "action" or d["action_type"] not in ("item", "magic_item"):
            continue
        for q in p["quests"]:
            qc = state["cards"][q]
            has_reward = any(S.cdef(state, a)["type"] == "action" for a in qc.get("att", ()))
            affordable = d["mp"] <= p["mp"] or not C.v2(state)
            if not has_reward and d["mp"] <= S.cdef(state, q)["dp"] and affordable:
                acts.append({"type": "attach_reward", "card": cid, "quest": q})
    return acts


def prio_actions(state: dict, seat: int, zones: dict) -> list[dict]:
    """The legal actions of ``seat`` holding priority; ``zones``: the memo of facts about the state's zones."""
    acts: list[dict] = [{"type": "pass"}]
    acts.extend(_hand_summons(state, seat))
    acts.extend(ability_actions(state, seat, zones))
    acts.extend(obstacle_actions(state, seat, zones))
    if state["maneuver"] is None and state["thread"] is None:  # MP-bound Row-phase actions
        acts.extend(_maneuver_actions(state, seat))
        acts.extend(_gear_actions(state, seat))
        acts.extend(_reward_actions(state, seat))
    return acts


# ---------------------------------------------------------------- applying one
def _gear_on_thread(state: dict, seat: int, action: dict, ev: list) -> None:
    """Rulebook l.166-171, 226: equipping and unequipping are actions, and every action opens a thread."""
    t = action["type"]
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


def _keep_priority(state: dict) -> None:
    state["prio"] = S.active(state)
    state["passes"] = 0


def _equip(state: dict, seat: int, action: dict, ev: list) -> None:
    if C.v2(state):
        _gear_on_thread(state, seat, action, ev)
        return
    S.move(state, action["item"], "worn", seat, on=action["to"])
    ev.append({"type": "equipped", "seat": seat, "item": action["item"], "to": action["to"]})
    _keep_priority(state)


def _unequip(state: dict, seat: int, action: dict, ev: list) -> None:
    if C.v2(state):
        _gear_on_thread(state, seat, action, ev)
        return
    S.move(state, action["item"], "store", seat)
    ev.append({"type": "unequipped", "seat": seat, "item": action["item"]})
    _keep_priority(state)


def _attach_reward(state: dict, seat: int, action: dict, ev: list) -> None:
    if C.v2(state):
        summon_reward(state, seat, action, ev)
        return
    # Decision (version 1): attaching equipment to one's own awaiting quest is done openly and at once, for free.
    S.move(state, action["card"], "attached", seat, on=action["quest"])
    ev.append({"type": "reward_attached", "seat": seat, "card": action["card"], "quest": action["quest"]})
    _keep_priority(state)


def _maneuver(state: dict, seat: int, action: dict, ev: list) -> None:
    declare_maneuver(state, seat, action["kind"], action.get("target"), ev)


_ACTS: dict[str, Callable[[dict, int, dict, list], None]] = {
    "summon": summon,
    "activate": activate,
    "activate_obstacle": activate_obstacle,
    "maneuver": _maneuver,
    "equip": _equip,
    "unequip": _unequip,
    "attach_reward": _attach_reward,
}


def prio_act(state: dict, seat: int, action: dict, ev: list) -> None:
    """Apply ``seat``'s (legal) priority action: a pass, or an action that counts as having acted."""
    t = action["type"]
    if t == "pass":
        pass_priority(state, seat, ev)
        return
    handler = _ACTS.get(t)
    if handler is None:  # pragma: no cover - validated before
        raise IllegalAction("That move is not allowed now.")
    stamp(state, seat)
    m = state["maneuver"]
    if m is not None and m["step"] == "rounds" and state["thread"] is None:
        m["acted"] = True
    handler(state, seat, action, ev)


# ---------------------------------------------------------------- why an action is refused
_THREAD_OPEN = "The time thread is open: only fast effects may be added now."


def _why_summon(state: dict, seat: int, action: dict) -> str:
    p = state["p"][seat]
    cid = action.get("card")
    if not isinstance(cid, str) or cid not in p["hand"]:
        return "That card is not in your hand."
    d = S.cdef(state, cid)
    m = state["maneuver"]
    cost = 0 if d["type"] in ("quest", "building", "ally", "obstacle") else d.get("mp", 0)
    if cost > p["mp"]:
        return f"You cannot pay {cost} MP for {d['name_en']}: you have {p['mp']}."
    if d["type"] == "quest" and len(p["quests"]) >= QUEST_LIMIT:
        return "You already have 3 quests awaiting solution."
    if d["type"] in ("building", "ally"):
        return f"Your Row does not fulfil {d['name_en']}'s condition ({d['condition']['text']})."
    if state["thread"] is not None and not C.fast(d):
        return _THREAD_OPEN
    if d.get("phase") == "combat" and not (m and m["step"] == "rounds"):
        return f"{d['name_en']} can only be summoned in combat rounds."
    if d.get("castes"):
        return f"{d['name_en']} needs an alert {' or '.join(d['castes'])} adventurer in the right place."
    return f"You may not summon {d['name_en']} now."


#: the Row-phase actions' own reasons, once the thread is closed and no maneuver runs
_ROW_ACTION_REASONS = {
    "unequip": "Magic items cannot be unequipped.",
    "equip": "An adventurer may wear at most one melee weapon and one armour.",
    "attach_reward": "That move is not allowed now.",
}


def _why_row_action(state: dict, seat: int, action: dict) -> str:
    """Maneuvers, gear and quest rewards: only in a free Row phase."""
    if state["thread"] is not None:
        return _THREAD_OPEN
    if state["maneuver"] is not None:
        return "A maneuver is under way: that has to wait until it ends."
    t = action["type"]
    if t == "maneuver":
        if not any(state["cards"][a]["state"] == "alert" for a in state["p"][seat]["row"]):
            return "You need an alert adventurer in your Row to start a maneuver."
        return "You cannot pay for that maneuver or it has no such target."
    return _ROW_ACTION_REASONS[t]


def _why_activate(state: dict, seat: int, action: dict) -> str:
    return "That ability cannot be used now (cost, state, timing or once-only limit)."


_WHY: dict[str, Callable[[dict, int, dict], str]] = {
    "summon": _why_summon,
    "maneuver": _why_row_action,
    "equip": _why_row_action,
    "unequip": _why_row_action,
    "attach_reward": _why_row_action,
    "activate": _why_activate,
}


def explain_refusal(state: dict, seat: int, action: dict) -> str:
    """Why ``action`` is refused to ``seat``, in words a player understands."""
    pend = [d for d in state["pending"] if d["seat"] == seat]
    if pend:
        return f"First decide: {pend[0]['kind'].replace('_', ' ')}."
    t = action.get("type")
    why = _WHY.get(t) if isinstance(t, str) else None
    return why(state, seat, action) if why is not None else "That move is not allowed now."
