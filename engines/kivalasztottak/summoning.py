"""Summoning cards from the hand ("megidézés"): which summons are legal, paying for them, putting them on the
thread, and what a summoned card does when it resolves (enters its zone, attacks, runs its effect).
"""

from __future__ import annotations

from collections.abc import Callable

from . import common as C
from . import state as S
from .cards import BUILDING_LIMIT, QUEST_LIMIT
from .conditions import holds
from .effects import attack_roll, run_effects, ward_holder
from .obstacles import obstacle_room
from .targets import attack_targets, effect_targets
from .thread import push, set_target
from .zones import attr_fn, pub, to_past


def card_timing(state: dict, d: dict) -> bool:
    """May action or event card ``d`` be summoned in the state's timing situation?"""
    m = state["maneuver"]
    return C.card_timing(d, state["thread"] is not None, m is None, m is not None and m["step"] == "rounds")


def _obstacle_summons(state: dict, seat: int, cid: str, d: dict) -> list[dict]:
    """A face-down obstacle onto one's own quest, tower or building (in a free Row phase), or as a fast effect
    onto an opponent's quest summoned in this very thread."""
    p = state["p"][seat]
    th = state["thread"] is not None
    locs: list[str] = []
    if state["maneuver"] is None:
        if not th:
            locs = [q for q in p["quests"]] + list(p["towers"]) + list(p["buildings"])
        else:
            locs = [q for q in state["thread_quests"] if state["cards"][q]["ctrl"] != seat
                    and state["cards"][q]["zone"] == "quests"]
    return [{"type": "summon", "card": cid, "target": loc} for loc in locs if obstacle_room(state, loc)]


def _row_summons(state: dict, seat: int, cid: str, d: dict) -> list[dict]:
    """Adventurers, quests, buildings and allies: only in a free Row phase."""
    p = state["p"][seat]
    t = d["type"]
    if state["maneuver"] is not None or state["thread"] is not None:
        return []
    if t == "adventurer" and p["mp"] < d["mp"]:
        return []
    if t == "quest" and len(p["quests"]) >= QUEST_LIMIT:
        return []
    if t in ("building", "ally"):
        group = [S.adv_desc(state, a) for a in p["row"]]
        if not holds(d["condition"], group, attr_fn(state)):
            return []
    return [{"type": "summon", "card": cid}]


def _event_summons(state: dict, seat: int, cid: str, d: dict) -> list[dict]:
    p = state["p"][seat]
    spec = d.get("target")
    if spec is None or spec == "all_enemy_team":
        op = d["effect"][0]["op"]
        if op == "free_maneuver" and not any(state["cards"][a]["state"] == "alert" for a in p["row"]):
            return []
        if op == "buff_team" and not p["team"]:
            return []
        return [{"type": "summon", "card": cid}]
    return [{"type": "summon", "card": cid, "target": tg} for tg in effect_targets(state, seat, spec, "any", None)]


def _action_summons(state: dict, seat: int, cid: str, d: dict) -> list[dict]:
    """Action cards and events: paid for in MP, at their timing."""
    if state["p"][seat]["mp"] < d["mp"] or not card_timing(state, d):
        return []
    t = d["type"]
    if t == "action" and d["action_type"] in ("item", "magic_item"):
        return [{"type": "summon", "card": cid}]
    if t == "event":
        return _event_summons(state, seat, cid, d)
    # a non-equipment action card needs an alert summoner of a matching caste
    return [{"type": "summon", "card": cid, "by": by, "target": tg}
            for by in summoners(state, seat, d) for tg in attack_targets(state, seat, d, by)]


def _no_summons(state: dict, seat: int, cid: str, d: dict) -> list[dict]:
    return []  # towers and omens are never summoned


_SUMMONS: dict[str, Callable[[dict, int, str, dict], list[dict]]] = {
    "obstacle": _obstacle_summons, "tower": _no_summons, "omen": _no_summons,
    "adventurer": _row_summons, "quest": _row_summons, "building": _row_summons, "ally": _row_summons,
}


def summon_actions(state: dict, seat: int, cid: str) -> list[dict]:
    """The legal summons of hand card ``cid`` (one per summoner, target or location)."""
    d = S.cdef(state, cid)
    return _SUMMONS.get(d["type"], _action_summons)(state, seat, cid, d)


def summoners(state: dict, seat: int, d: dict) -> list[str]:
    """The seat's alert adventurers that may summon card ``d`` (caste, rank for melee or ranged attacks)."""
    p = state["p"][seat]
    m = state["maneuver"]
    pool = p["team"] if m is not None else p["row"]
    out = []
    for a in pool:
        c = state["cards"][a]
        ad = S.cdef(state, a)
        if c["state"] != "alert":
            continue
        if ad["subcaste"] not in d["castes"] and ad["caste"] not in d["castes"]:
            continue
        if m is not None and m["step"] == "prep" and a in m["prep_acted"]:
            continue
        rng_ = d.get("attack", {}).get("range")
        if rng_ == "melee" and a not in m["front"]:
            continue
        if rng_ == "ranged" and a in m["front"]:
            continue
        out.append(a)
    return out


def summon_reward(state: dict, seat: int, action: dict, ev: list) -> None:
    """Equipment from the hand summoned onto one's own awaiting quest: paid for like any summon (book
    l.188; only obstacles are attached for 0 MP), it goes on the thread and attaches when it resolves."""
    cid, quest = action["card"], action["quest"]
    d = S.cdef(state, cid)
    state["p"][seat]["mp"] -= d["mp"]
    S.take(state, cid)
    c = state["cards"][cid]
    c["zone"] = "thread"
    c["zs"] = seat
    c["ctrl"] = seat
    c["inc"] += 1
    item = {"kind": "summon", "seat": seat, "card": cid, "ab": None, "by": None, "targets": [], "tinc": [],
            "labels": [quest], "reward": quest, "qinc": state["cards"][quest]["inc"]}
    push(state, item, seat)
    ev.append({"type": "summoned", "seat": seat, "card": cid, "name": d["name_en"], "cost": d["mp"],
               "by": None, "target": quest, "uid": item["uid"]})


def summon(state: dict, seat: int, action: dict, ev: list) -> None:
    """Pay for a hand card and put it on the thread (an obstacle face down, at its location)."""
    cid = action["card"]
    d = S.cdef(state, cid)
    p = state["p"][seat]
    t = d["type"]
    cost = 0 if t in ("quest", "building", "ally", "obstacle") else d["mp"]
    p["mp"] -= cost
    by = action.get("by")
    if by:
        state["cards"][by]["state"] = "resting"  # the summoner turns resting
        m = state["maneuver"]
        if m is not None and m["step"] == "prep":
            m["prep_acted"].append(by)
    S.take(state, cid)
    c = state["cards"][cid]
    c["zone"] = "thread"
    c["zs"] = seat
    c["ctrl"] = seat
    c["inc"] += 1
    tg = action.get("target")
    item = {"kind": "summon", "seat": seat, "card": cid, "ab": None, "by": by, "targets": [], "tinc": [],
            "labels": []}
    hidden_at = None  # an obstacle: where it is summoned, face down, as everybody may see it
    if t == "obstacle":
        assert tg is not None  # an obstacle's summon names its location
        hidden_at = pub(state, tg)
        c["up"] = False
        item["loc"] = tg
        item["hidden"] = True
        item["labels"] = [hidden_at]
    elif tg is not None:
        set_target(state, item, tg)
    push(state, item, seat)
    if hidden_at is not None:
        ev.append({"type": "summoned_hidden", "seat": seat, "location": hidden_at, "uid": item["uid"]})
    else:
        ev.append({"type": "summoned", "seat": seat, "card": cid, "name": d["name_en"], "cost": cost,
                   "by": by, "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})


def resolve_summon(state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
    """A summoned card resolves: it enters its zone (the named-card rule), or attacks and runs its effect."""
    cid = item["card"]
    seat = item["seat"]
    d = S.cdef(state, cid)
    t = d["type"]
    c = state["cards"][cid]
    if t == "obstacle":
        loc = item["loc"]
        if loc in state["cards"] and state["cards"][loc]["zone"] in S.PRESENT:
            c["zone"] = None
            S.put(state, cid, "attached", seat, on=loc)
            c["up"] = False
            ev.append({"type": "obstacle_attached", "seat": seat, "location": pub(state, loc),
                       "uid": item["uid"]})
        else:
            c["zone"] = None
            S.put(state, cid, C.PAST, c["owner"])
            c["up"] = True
            ev.append({"type": "fizzled", "uid": item["uid"], "name": "obstacle"})
        return
    if fizzled:
        ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
        c["zone"] = None
        S.put(state, cid, C.PAST, c["owner"])
        return
    ev.append({"type": "resolved", "uid": item["uid"], "seat": seat, "name": d["name_en"]})
    if item.get("reward"):
        q = item["reward"]
        qc = state["cards"][q]
        c["zone"] = None
        if qc["zone"] == "quests" and qc["inc"] == item["qinc"]:
            S.put(state, cid, "attached", seat, on=q)
            ev.append({"type": "reward_attached", "seat": seat, "card": cid, "quest": q})
        else:
            # Decision: the quest left before the reward arrived; the paid-for gear goes to the Store
            S.put(state, cid, "store", seat)
            ev.append({"type": "entered", "seat": seat, "card": cid, "name": d["name_en"], "zone": "store"})
        return
    if t in ("adventurer", "quest", "building", "ally") or (t == "action" and d["action_type"] in ("item", "magic_item")):
        zone = {"adventurer": "row", "quest": "quests", "building": "buildings", "ally": "allies",
                "action": "store"}[t]
        c["zone"] = "nowhere"
        if S.named_conflict(state, seat, cid):
            # the named-card rule: a second card of the same name goes to the Past instead
            ev.append({"type": "named_rule", "seat": seat, "card": cid, "name": d["name_en"]})
            S.put(state, cid, C.PAST, c["owner"])
            return
        c["zone"] = None
        c["state"] = "alert"
        S.put(state, cid, zone, seat)
        ev.append({"type": "entered", "seat": seat, "card": cid, "name": d["name_en"], "zone": zone})
        if t == "ally":
            c["szp"] = d["szp"]
        if t == "quest":
            state["thread_quests"].append(cid)
        if t == "building" and len(state["p"][seat]["buildings"]) > BUILDING_LIMIT:
            state["pending"].insert(0, {"kind": "destroy_building", "seat": seat})
        for i, ab in enumerate(d["abilities"]):
            if ab["kind"] == "trigger" and ab["on"] == "enter":
                state["trig"].append({"seat": seat, "card": cid, "ab": i})
        return
    # attack cards and events
    c["zone"] = None
    S.put(state, cid, "events", seat)
    if d.get("attack"):
        attack_roll(state, seat, item["by"], targets[0], d["attack"]["damage"], ev, d["name_en"])
        if d.get("effect"):
            run_effects(state, item, d["effect"], targets, ev)
    elif d.get("effect"):
        run_effects(state, item, d["effect"], targets, ev)
    dur = d["duration"]
    if dur == "instant" or (dur == "use" and state["cards"][cid]["zone"] == "events"
                            and not ward_holder(state, cid)):
        if state["cards"][cid]["zone"] == "events":
            to_past(state, cid, ev)
