"""Who an effect may target: Row and maneuver kept apart, thread items, face-down obstacles.
"""

from __future__ import annotations

from . import state as S


def attack_targets(state: dict, seat: int, d: dict, by: str) -> list[str | None]:
    rng_ = d.get("attack", {}).get("range")
    opp = state["p"][1 - seat]
    if rng_ == "row":
        return list(opp["row"])
    if rng_ == "melee":
        return [a for a in opp["team"] if a in state["maneuver"]["front"]]
    if rng_ == "ranged":
        return list(opp["team"])
    return [None]


def effect_targets(state: dict, seat: int, spec: str | None, ctx: str, src: str | None) -> list:
    """Candidate targets of an effect. ``ctx`` keeps Row and maneuver apart: an adventurer's effects
    reach only its own side of that divide (unless PERMANENT without COMBAT: ctx "any")."""
    opp = 1 - seat
    m = state["maneuver"]

    def pool(s: int) -> list[str]:
        if ctx == "row":
            return list(state["p"][s]["row"])
        if ctx == "maneuver":
            return list(state["p"][s]["team"])
        return S.adventurers(state, s)

    if spec is None or spec in ("all_enemy_team", "self"):
        return [None]
    if spec == "enemy_adv":
        return pool(opp)
    if spec == "own_adv":
        return pool(seat)
    if spec == "own_adv_other":
        return [a for a in pool(seat) if a != src]
    if spec == "own_adv_not_alert":
        return [a for a in pool(seat) if state["cards"][a]["state"] != "alert"]
    if spec == "enemy_team":
        return list(state["p"][opp]["team"])
    if spec == "enemy_front":
        return [a for a in state["p"][opp]["team"] if m and a in m["front"]]
    if spec == "thread_item":
        return [it["uid"] for it in (state["thread"] or [])]
    if spec == "hidden_obstacle_here":
        if not m:
            return []
        loc = m["target"]
        if loc is None or loc not in state["cards"]:
            return []
        out = []
        for i, a in enumerate(state["cards"][loc].get("att", ())):
            c = state["cards"][a]
            if c["owner"] != seat and not c["up"] and S.cdef(state, a)["type"] == "obstacle":
                out.append(f"obstacle-{i}")  # the i-th card attached at the maneuver's location
        return out
    raise AssertionError(spec)
