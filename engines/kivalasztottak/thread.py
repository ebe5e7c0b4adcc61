"""The time thread ("időszál"): putting items on it, opening a phase's thread, targets of thread items,
timed effects (triggers) waiting to go on it.
"""

from __future__ import annotations

from . import common as C
from . import state as S
from .zones import pub


def push(state: dict, item: dict, actor: int) -> None:
    """Put ``item`` on the time thread (opening it if closed); the active player acts next (version 1: the
    opponent of ``actor``)."""
    state["uid"] += 1
    item["uid"] = f"T{state['uid']}"
    if state["thread"] is None:
        state["thread"] = []
        state["used_thread"] = []
        state["thread_quests"] = []
    state["thread"].append(item)
    state["passes"] = 0
    # Rulebook l.229: in an open thread the active player (MP rule) acts first; rules version 1 let the
    # opponent answer first
    state["prio"] = S.active(state) if C.v2(state) else 1 - actor


def open_phase_thread(state: dict) -> None:
    """Open an empty thread for a phase or maneuver step; the active player acts first."""
    state["thread"] = []
    state["used_thread"] = []
    state["thread_quests"] = []
    state["passes"] = 0
    state["prio"] = S.active(state)


def place_triggers(state: dict, ev: list) -> bool:
    """Put waiting timed effects on the thread; a player with several chooses their order.
    Returns True when a decision is needed."""
    first = S.active(state)
    for seat in (first, 1 - first):
        mine = [t for t in state["trig"] if t["seat"] == seat]
        if len(mine) > 1:
            state["pending"] = [{"kind": "trigger_order", "seat": seat}]
            return True
        if mine:
            t = mine[0]
            state["trig"].remove(t)
            push_trigger(state, t, ev)
    return False


def push_trigger(state: dict, t: dict, ev: list) -> None:
    """Put a waiting timed effect on the thread."""
    d = S.cdef(state, t["card"])
    ab = d["abilities"][t["ab"]]
    item = {"kind": "trigger", "seat": t["seat"], "card": t["card"], "ab": t["ab"], "by": None,
            "targets": [], "tinc": [], "labels": []}
    push(state, item, t["seat"])
    state["prio"] = S.active(state)
    ev.append({"type": "trigger", "seat": t["seat"], "card": t["card"], "name": d["name_en"],
               "on": ab["on"], "uid": item["uid"]})


def set_target(state: dict, item: dict, tg: str) -> None:
    """Record a thread item's target (a thread item, an obstacle at the location, or a card) and its label."""
    if tg.startswith("T"):  # a thread item
        item["targets"] = [tg]
        item["tinc"] = [0]
        item["labels"] = [tg]
    elif tg.startswith("obstacle-"):
        loc = state["maneuver"]["target"]
        real = state["cards"][loc]["att"][int(tg[len("obstacle-"):])]
        item["targets"] = [real]
        item["tinc"] = [state["cards"][real]["inc"]]
        item["labels"] = [tg]
    else:
        item["targets"] = [tg]
        item["tinc"] = [state["cards"][tg]["inc"]]
        item["labels"] = [pub(state, tg)]


def valid_targets(state: dict, item: dict) -> list[str]:
    """The item's targets that are still there (a card that left and came back is another card)."""
    out = []
    for tg, inc in zip(item["targets"], item["tinc"]):
        if tg.startswith("T"):
            if any(it["uid"] == tg for it in state["thread"] or []):
                out.append(tg)
        elif tg in state["cards"] and state["cards"][tg]["inc"] == inc:
            out.append(tg)
    return out
