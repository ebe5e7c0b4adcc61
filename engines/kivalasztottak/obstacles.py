"""Obstacles ("akadályok") and beasts: room for obstacles at a location, revealing and activating them
during a maneuver (ANIMATE ones in combat rounds too), resolving them, beast attacks.
"""

from __future__ import annotations

from . import state as S
from .cards import card_defs
from .effects import deal_damage, run_effects
from .targets import effect_targets
from .thread import push, set_target
from .zones import roll, to_past


def obstacle_room(state: dict, loc: str) -> bool:
    """Is there room for one more obstacle at location ``loc`` (those on the thread counted)?"""
    cap = S.cdef(state, loc).get("obstacles", 0)
    attached = sum(1 for a in state["cards"][loc].get("att", ()) if S.cdef(state, a)["type"] == "obstacle")
    pending = sum(1 for it in (state["thread"] or []) if it["kind"] == "summon" and it.get("loc") == loc)
    return attached + pending < cap


def _hidden_here(state: dict, seat: int) -> list[tuple[str, bool]]:
    """The seat's face-down obstacles at the maneuver's location (the obstacle step's thread)."""
    m = state["maneuver"]
    if m["target"] not in state["cards"]:
        return []
    out = []
    for a in state["cards"][m["target"]].get("att", ()):
        c = state["cards"][a]
        if c["owner"] == seat and not c["up"] and S.cdef(state, a)["type"] == "obstacle":
            out.append((a, False))
    return out


def _animates(state: dict, seat: int, zones: dict) -> list[tuple[str, bool]]:
    """ANIMATE obstacles also fight in combat rounds, wherever they are attached (an alert team member taps)."""
    p = state["p"][seat]
    if not any(state["cards"][a]["state"] == "alert" for a in p["team"]):
        return []
    animates = zones.get(("animate", seat))
    if animates is None:  # the seat's ANIMATE obstacles, in card order (owner and kind never change)
        defs = card_defs()
        animates = zones[("animate", seat)] = [
            a for a, c in state["cards"].items() if c["owner"] == seat
            and defs[c["k"]]["type"] == "obstacle" and defs[c["k"]].get("animate")]
    out = []
    for a in animates:
        c = state["cards"][a]
        if c["zone"] == "attached" and not c["up"]:
            out.append((a, True))
    return out


def obstacle_actions(state: dict, seat: int, zones: dict) -> list[dict]:
    """The legal obstacle activations of ``seat`` in a maneuver; ``zones``: the zones memo."""
    m = state["maneuver"]
    if m is None or not state["p"][1 - seat]["team"]:
        return []
    p = state["p"][seat]
    th = state["thread"] is not None
    cands: list[tuple[str, bool]] = []
    if m["step"] == "obstacles" and th:
        cands = _hidden_here(state, seat)
    elif m["step"] == "rounds" and not th:
        cands = _animates(state, seat, zones)
    out = []
    for a, animate in cands:
        d = S.cdef(state, a)
        if d["mp"] > p["mp"]:
            continue
        tgs = [None] if d["kind"] == "beast" else effect_targets(state, seat, d.get("target"), "maneuver", None)
        taps = [t for t in p["team"] if state["cards"][t]["state"] == "alert"] if animate else [None]
        for tg in tgs:
            for tp in taps:
                act = {"type": "activate_obstacle", "card": a}
                if tg is not None:
                    act["target"] = tg
                if tp is not None:
                    act["tap"] = tp
                out.append(act)
    return out


def activate_obstacle(state: dict, seat: int, action: dict, ev: list) -> None:
    """Reveal an obstacle (ANIMATE: tapping a team member) and put it on the thread."""
    cid = action["card"]
    d = S.cdef(state, cid)
    p = state["p"][seat]
    c = state["cards"][cid]
    p["mp"] -= d["mp"]
    if action.get("tap"):
        state["cards"][action["tap"]]["state"] = "resting"  # ANIMATE's extra cost
    loc = c["on"]
    S.take(state, cid)
    c["zone"] = "thread"
    c["zs"] = seat
    c["up"] = True
    c["inc"] += 1
    item = {"kind": "obstacle", "seat": seat, "card": cid, "ab": None, "by": None, "targets": [], "tinc": [],
            "labels": [], "loc": loc, "animate": bool(action.get("tap"))}
    if action.get("target") is not None:
        set_target(state, item, action["target"])
    push(state, item, seat)
    state["used_thread"].append([cid, -1])
    ev.append({"type": "obstacle_activated", "seat": seat, "card": cid, "name": d["name_en"],
               "kind": d["kind"], "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})


def resolve_obstacle(state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
    """A revealed obstacle resolves: a beast attacks the team, any other runs its effect; then it goes."""
    cid = item["card"]
    d = S.cdef(state, cid)
    seat = item["seat"]
    if d["kind"] == "beast":
        team_seat = 1 - seat
        bonus = S.omen_bonus(state, seat, "beast_attack")
        state["beast"] = {"card": cid, "left": d["number"], "attack": d["attack"] + bonus, "damage": d["damage"],
                          "team": team_seat, "loc": item["loc"], "animate": item.get("animate", False),
                          "uid": item["uid"]}
        ev.append({"type": "beast_attacks", "seat": seat, "card": cid, "name": d["name_en"],
                   "number": d["number"], "attack": d["attack"] + bonus, "damage": d["damage"]})
        next_beast_attack(state, ev)
        return
    if fizzled:
        ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
    else:
        ev.append({"type": "resolved", "uid": item["uid"], "seat": seat, "name": d["name_en"]})
        run_effects(state, item, d["effect"], targets, ev)
    to_past(state, cid, ev)


def next_beast_attack(state: dict, ev: list) -> None:
    """The beast's next attack: at the team's only member, or its player chooses the victim."""
    b = state["beast"]
    team = state["p"][b["team"]]["team"]
    if b["left"] <= 0 or not team:
        finish_beast(state, ev)
        return
    if len(team) == 1:
        beast_attack(state, team[0], ev)
        return
    # the attacked team's player chooses the victim of every single attack
    state["pending"].insert(0, {"kind": "beast_target", "seat": b["team"]})


def beast_attack(state: dict, target: str, ev: list) -> None:
    """One beast attack on ``target``: 2d6 against the beast's attack value; a hit deals its damage."""
    b = state["beast"]
    b["left"] -= 1
    x, y = roll(state)
    hit = x + y <= b["attack"]
    ev.append({"type": "beast_roll", "card": b["card"], "target": target, "dice": [x, y],
               "attack": b["attack"], "hit": hit})
    if hit:
        deal_damage(state, target, b["damage"], False, ev)
    next_beast_attack(state, ev)


def finish_beast(state: dict, ev: list) -> None:
    """The beast has attacked: victorious if it felled the whole team in the obstacle step, else it goes."""
    b = state["beast"]
    state["beast"] = None
    team = state["p"][b["team"]]["team"]
    m = state["maneuver"]
    in_obstacle_phase = m is not None and m["step"] == "obstacles" and not b["animate"]
    if in_obstacle_phase and team and all(S.level(state, a) < 1 for a in team):
        ev.append({"type": "beast_victorious", "card": b["card"], "name": S.cdef(state, b["card"])["name_en"]})
        state["cards"][b["card"]]["zone"] = "limbo"
        state["victorious"].append({"card": b["card"], "loc": b["loc"], "team": b["team"]})
    else:
        to_past(state, b["card"], ev)
