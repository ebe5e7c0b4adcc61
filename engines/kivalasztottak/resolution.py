"""Passing priority and what two passes do: resolve the top of the time thread, close an empty thread (deaths,
Row damage, victorious beasts), or end a phase or combat round.
"""

from __future__ import annotations

from collections.abc import Callable

from . import state as S
from .cards import card_defs
from .effects import run_effects
from .maneuvers import combat_result, front_fix, new_combat_round
from .obstacles import resolve_obstacle
from .summoning import resolve_summon
from .thread import valid_targets
from .zones import can_wear, die, pub, to_past


def pass_priority(state: dict, seat: int, ev: list) -> None:
    """A pass: after two in a row the thread's top resolves, an empty thread closes, or the phase or round ends."""
    ev.append({"type": "passed", "seat": seat, "open": state["thread"] is not None})
    state["passes"] += 1
    th = state["thread"]
    if state["passes"] < 2:
        state["prio"] = 1 - seat
        return
    state["passes"] = 0
    if th:
        resolve_top(state, ev)
        if state["result"] is None:
            state["prio"] = S.active(state)
        return
    if th is not None:
        close_thread(state, ev)
        return
    # two passes with no thread open
    m = state["maneuver"]
    state["prio"] = None
    if m is None:
        state["stage"] = "close"
        ev.append({"type": "phase", "phase": "close"})
        state["pending"] = [{"kind": "close_discard", "seat": s, "simul": True} for s in range(2)]
    elif m["step"] == "rounds":
        if m["acted"]:
            new_combat_round(state, ev)
        else:
            combat_result(state, ev)


def close_thread(state: dict, ev: list) -> None:
    """Both passed on an empty thread: deaths, Row damage, victorious beasts; then the game moves on."""
    state["thread"] = None
    state["used_thread"] = []
    state["thread_quests"] = []
    state["prio"] = None
    m = state["maneuver"]
    cards = state["cards"]
    defs = card_defs()
    for seat in range(2):
        for cid in list(state["p"][seat]["row"]) + list(state["p"][seat]["team"]):
            c = cards[cid]
            if c.get("worn") or c.get("mods"):
                dead = S.level(state, cid) < 1
            else:  # no gear, no modifiers: S.level is the printed level minus the damage
                dead = defs[c["k"]]["level"] - c["dmg"] < 1
            if dead:
                die(state, cid, ev)
        for cid in state["p"][seat]["row"]:
            c = state["cards"][cid]
            if c["dmg"] > 0:
                c["dmg"] = 0  # Row adventurers lose their damage and turn injured
                c["state"] = "injured"
    for vb in state["victorious"]:
        cid, loc, team_seat = vb["card"], vb["loc"], vb["team"]
        loc_ok = loc in state["cards"] and state["cards"][loc]["zone"] in S.PRESENT
        if loc_ok and not state["p"][team_seat]["team"]:
            S.take(state, cid)
            S.put(state, cid, "attached", state["cards"][cid]["owner"], on=loc)
            state["cards"][cid]["up"] = False
            ev.append({"type": "beast_reattached", "seat": state["cards"][cid]["owner"],
                       "card_name": S.cdef(state, cid)["name_en"], "location": pub(state, loc)})
        else:
            to_past(state, cid, ev)
    state["victorious"] = []
    if m is not None:
        front_fix(state)
    ev.append({"type": "thread_closed"})


def _resolve_effect(state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
    """An ability or a timed effect: its effect runs unless every target is gone."""
    d = S.cdef(state, item["card"])
    ab = d["abilities"][item["ab"]]
    if fizzled:
        ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
        return
    ev.append({"type": "resolved", "uid": item["uid"], "seat": item["seat"], "name": d["name_en"]})
    run_effects(state, item, ab["effect"], targets, ev)


def _resolve_gear(state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
    resolve_gear(state, item, ev)


#: thread item kind -> how it resolves (item, its valid targets, whether it fizzled)
_RESOLVE: dict[str, Callable[[dict, dict, list, bool, list], None]] = {
    "summon": resolve_summon,
    "ability": _resolve_effect,
    "trigger": _resolve_effect,
    "obstacle": resolve_obstacle,
    "equip": _resolve_gear,
    "unequip": _resolve_gear,
}


def resolve_top(state: dict, ev: list) -> None:
    """The top item of the time thread resolves."""
    item = state["thread"].pop()
    targets = valid_targets(state, item)
    fizzled = bool(item["targets"]) and not targets
    _RESOLVE[item["kind"]](state, item, targets, fizzled, ev)


def resolve_gear(state: dict, item: dict, ev: list) -> None:
    """An equip or unequip on the thread resolves if the item and adventurer are still where they were."""
    cid, seat = item["card"], item["seat"]
    c = state["cards"][cid]
    name = S.cdef(state, cid)["name_en"]
    if item["kind"] == "equip":
        to = item["to"]
        ok = (c["zone"] == "store" and c["zs"] == seat and state["cards"][to]["zone"] == "row"
              and state["cards"][to]["ctrl"] == seat and can_wear(state, to, cid))
        if ok:
            S.move(state, cid, "worn", seat, on=to)
            ev.append({"type": "equipped", "seat": seat, "item": cid, "to": to})
            return
    elif c["zone"] == "worn" and c.get("on") == item["from"]:
        S.move(state, cid, "store", seat)
        ev.append({"type": "unequipped", "seat": seat, "item": cid})
        return
    ev.append({"type": "fizzled", "uid": item["uid"], "name": name})
