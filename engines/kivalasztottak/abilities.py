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
    m = state["maneuver"]
    return C.timing(ab, state["thread"] is not None, m is None, m is not None and m["step"] == "rounds")


def ability_actions(state: dict, seat: int, zones: dict) -> list[dict]:
    p = state["p"][seat]
    m = state["maneuver"]
    cards = state["cards"]
    defs = card_defs()
    activated = C.activated()
    sit = C.situation(state)  # abilities are listed per timing situation (_ability_timing)
    mp = p["mp"]
    used_thread = state["used_thread"]
    heal_filter = C.heals_damaged_only(state)
    out: list[dict] = []
    owners = zones.get(("abilities", seat))
    if owners is None:  # the seat's present cards that have activated abilities, in listing order
        owners = zones[("abilities", seat)] = [
            (cid, activated[cards[cid]["k"]]) for cid in controlled_present(state, seat)
            if cards[cid]["k"] in activated]
    for cid, per_situation in owners:
        abl = per_situation[sit]
        if not abl:
            continue
        c = cards[cid]
        d = defs[c["k"]]
        for i, ab in abl:
            sym = ab["sym"]
            if ab["mp"] > mp or ab["szp"] > c.get("szp", 0):
                continue
            if used_thread and [cid, i] in used_thread:
                continue  # an ability at most once per thread
            if "ONCE_ROUND" in sym and [cid, i] in p["used_round"]:
                continue
            actor = cid
            if d["type"] == "action":  # worn equipment: its wearer acts
                if c["zone"] != "worn":
                    continue
                actor = c["on"]
            if d["type"] == "omen" and c.get("op", 0) <= 0:
                continue
            ac = cards[actor]
            if defs[ac["k"]]["type"] == "adventurer":
                if ac["zone"] not in ("row", "team"):
                    continue
                needs_alert = "PERMANENT" not in sym or "TAP" in sym
                if needs_alert and ac["state"] != "alert":
                    continue
                if "COMBAT" in sym and ac["zone"] != "team":
                    continue
                if m is not None and m["step"] == "prep" and actor in m["prep_acted"]:
                    continue
                if d.get("subtype") == "melee_weapon" and actor not in (m or {}).get("front", []):
                    continue
            spec = ab.get("target")
            ctx = S.context(state, cid)
            if "PERMANENT" in sym and "COMBAT" not in sym:
                ctx = "any"  # the one kind of effect that crosses between Row and maneuver
            tgs = effect_targets(state, seat, spec, ctx, cid)
            if heal_filter and ab.get("effect") and all(e["op"] == "heal" for e in ab["effect"]):
                # version 2 only: a heal is offered only for an adventurer that has damage to heal
                tgs = [tg for tg in tgs if cards[tg if tg is not None else cid]["dmg"] > 0]
            for tg in tgs:
                a = {"type": "activate", "card": cid, "ability": i}
                if tg is not None:
                    a["target"] = tg
                out.append(a)
    return out


def activate(state: dict, seat: int, action: dict, ev: list) -> None:
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
