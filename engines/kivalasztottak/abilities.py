"""Activated abilities of cards in the Present: when they may be used (timing, cost, once per round / thread,
alert actor) and activating them.
"""

from __future__ import annotations

from . import common as C
from . import state as S
from .cards import card_defs
from .targets import effect_targets
from .thread import push, set_target
from .zones import controlled_present, to_past


def ability_timing(state: dict, ab: dict) -> bool:
    """May activated ability ``ab`` be used in the state's timing situation (thread, maneuver, combat rounds)?"""
    m = state["maneuver"]
    return C.timing(ab, state["thread"] is not None, m is None, m is not None and m["step"] == "rounds")


def _owners(state: dict, seat: int, zones: dict) -> list:
    """The seat's present cards that have activated abilities, in listing order (kept in the zones memo)."""
    owners = zones.get(("abilities", seat))
    if owners is None:
        cards = state["cards"]
        activated = C.activated()
        owners = zones[("abilities", seat)] = [
            (cid, activated[cards[cid]["k"]]) for cid in controlled_present(state, seat)
            if cards[cid]["k"] in activated]
    return owners


def _paid_and_unused(state: dict, p: dict, cid: str, i: int, ab: dict) -> bool:
    """The ability's MP and SZP can be paid, and it was not used in this thread (nor this round when ONCE)."""
    if ab["mp"] > p["mp"] or ab["szp"] > state["cards"][cid].get("szp", 0):
        return False
    used_thread = state["used_thread"]
    if used_thread and [cid, i] in used_thread:
        return False  # an ability at most once per thread
    return not ("ONCE_ROUND" in ab["sym"] and [cid, i] in p["used_round"])


def _actor(state: dict, cid: str, d: dict, sym: list) -> str | None:
    """Who acts for the ability of ``cid`` (worn equipment: its wearer), or None when it cannot act now."""
    c = state["cards"][cid]
    actor = cid
    if d["type"] == "action":
        if c["zone"] != "worn":
            return None
        actor = c["on"]
    if d["type"] == "omen" and c.get("op", 0) <= 0:
        return None
    ac = state["cards"][actor]
    if card_defs()[ac["k"]]["type"] != "adventurer":
        return actor
    if ac["zone"] not in ("row", "team"):
        return None
    needs_alert = "PERMANENT" not in sym or "TAP" in sym
    if needs_alert and ac["state"] != "alert":
        return None
    if "COMBAT" in sym and ac["zone"] != "team":
        return None
    m = state["maneuver"]
    if m is not None and m["step"] == "prep" and actor in m["prep_acted"]:
        return None
    if d.get("subtype") == "melee_weapon" and actor not in (m or {}).get("front", []):
        return None
    return actor


def _ability_targets(state: dict, seat: int, cid: str, ab: dict) -> list:
    sym = ab["sym"]
    ctx = S.context(state, cid)
    if "PERMANENT" in sym and "COMBAT" not in sym:
        ctx = "any"  # the one kind of effect that crosses between Row and maneuver
    tgs = effect_targets(state, seat, ab.get("target"), ctx, cid)
    if C.heals_damaged_only(state) and ab.get("effect") and all(e["op"] == "heal" for e in ab["effect"]):
        # version 2 only: a heal is offered only for an adventurer that has damage to heal
        cards = state["cards"]
        tgs = [tg for tg in tgs if cards[tg if tg is not None else cid]["dmg"] > 0]
    return tgs


def ability_actions(state: dict, seat: int, zones: dict) -> list[dict]:
    """The legal activations of ``seat``'s abilities (one per target); ``zones``: the zones memo."""
    p = state["p"][seat]
    defs = card_defs()
    sit = C.situation(state)  # abilities are listed per timing situation (ability_timing)
    out: list[dict] = []
    for cid, per_situation in _owners(state, seat, zones):
        abl = per_situation[sit]
        if not abl:
            continue
        d = defs[state["cards"][cid]["k"]]
        for i, ab in abl:
            if not _paid_and_unused(state, p, cid, i, ab) or _actor(state, cid, d, ab["sym"]) is None:
                continue
            for tg in _ability_targets(state, seat, cid, ab):
                a = {"type": "activate", "card": cid, "ability": i}
                if tg is not None:
                    a["target"] = tg
                out.append(a)
    return out


def activate(state: dict, seat: int, action: dict, ev: list) -> None:
    """Pay for an ability (MP, SZP, turning the actor resting when TAP) and put it on the thread; a sacrifice or an exhausted ally leaves at once."""
    cid, i = action["card"], action["ability"]
    d = S.cdef(state, cid)
    ab = d["abilities"][i]
    p = state["p"][seat]
    c = state["cards"][cid]
    p["mp"] -= ab["mp"]
    if ab["szp"]:
        c["szp"] -= ab["szp"]
    actor = c["on"] if c["zone"] == "worn" else cid
    if "TAP" in ab["sym"]:
        state["cards"][actor]["state"] = "resting"
    if "ONCE_ROUND" in ab["sym"]:
        p["used_round"].append([cid, i])
    m = state["maneuver"]
    if m is not None and m["step"] == "prep" and S.cdef(state, actor)["type"] == "adventurer":
        m["prep_acted"].append(actor)
    item = {"kind": "ability", "seat": seat, "card": cid, "ab": i, "by": actor, "targets": [], "tinc": [],
            "labels": []}
    if action.get("target") is not None:
        set_target(state, item, action["target"])
    elif ab.get("target") == "self":
        set_target(state, item, cid)
    push(state, item, seat)
    state["used_thread"].append([cid, i])
    ev.append({"type": "activated", "seat": seat, "card": cid, "name": d["name_en"], "ability": i,
               "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})
    if ab.get("sacrifice"):
        ev.append({"type": "sacrificed", "seat": seat, "card": cid, "name": d["name_en"]})
        to_past(state, cid, ev)
    if c["zone"] == "allies" and c.get("szp", 0) <= 0:
        ev.append({"type": "ally_exhausted", "seat": seat, "card": cid, "name": d["name_en"]})
        to_past(state, cid, ev)
