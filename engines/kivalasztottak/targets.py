"""Who an effect may target: Row and maneuver kept apart, thread items, face-down obstacles.
"""

from __future__ import annotations

from collections.abc import Callable

from . import state as S


def attack_targets(state: dict, seat: int, d: dict, by: str) -> list[str | None]:
    """The targets of an attack card by its range (Row, the enemy front, the enemy team); [None]: none."""
    rng_ = d.get("attack", {}).get("range")
    opp = state["p"][1 - seat]
    if rng_ == "row":
        return list(opp["row"])
    if rng_ == "melee":
        return [a for a in opp["team"] if a in state["maneuver"]["front"]]
    if rng_ == "ranged":
        return list(opp["team"])
    return [None]


def _adventurers(state: dict, s: int, ctx: str) -> list[str]:
    """Seat ``s``'s adventurers on the effect's side of the Row / maneuver divide (``ctx`` "any": both)."""
    if ctx == "row":
        return list(state["p"][s]["row"])
    if ctx == "maneuver":
        return list(state["p"][s]["team"])
    return S.adventurers(state, s)


def _no_target(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return [None]


def _enemy_adv(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return _adventurers(state, 1 - seat, ctx)


def _own_adv(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return _adventurers(state, seat, ctx)


def _own_adv_other(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return [a for a in _adventurers(state, seat, ctx) if a != src]


def _own_adv_not_alert(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return [a for a in _adventurers(state, seat, ctx) if state["cards"][a]["state"] != "alert"]


def _enemy_team(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return list(state["p"][1 - seat]["team"])


def _enemy_front(state: dict, seat: int, ctx: str, src: str | None) -> list:
    m = state["maneuver"]
    return [a for a in state["p"][1 - seat]["team"] if m and a in m["front"]]


def _thread_item(state: dict, seat: int, ctx: str, src: str | None) -> list:
    return [it["uid"] for it in (state["thread"] or [])]


def _hidden_obstacle_here(state: dict, seat: int, ctx: str, src: str | None) -> list:
    """The other players' face-down obstacles at the maneuver's location, as "obstacle-<i>" (the i-th card
    attached there)."""
    m = state["maneuver"]
    if not m:
        return []
    loc = m["target"]
    if loc is None or loc not in state["cards"]:
        return []
    out = []
    for i, a in enumerate(state["cards"][loc].get("att", ())):
        c = state["cards"][a]
        if c["owner"] != seat and not c["up"] and S.cdef(state, a)["type"] == "obstacle":
            out.append(f"obstacle-{i}")
    return out


#: a card's target spec -> its candidate targets (state, seat, ctx, source card)
_TARGETS: dict[str, Callable[[dict, int, str, str | None], list]] = {
    "all_enemy_team": _no_target,
    "self": _no_target,
    "enemy_adv": _enemy_adv,
    "own_adv": _own_adv,
    "own_adv_other": _own_adv_other,
    "own_adv_not_alert": _own_adv_not_alert,
    "enemy_team": _enemy_team,
    "enemy_front": _enemy_front,
    "thread_item": _thread_item,
    "hidden_obstacle_here": _hidden_obstacle_here,
}


def effect_targets(state: dict, seat: int, spec: str | None, ctx: str, src: str | None) -> list:
    """Candidate targets of an effect. ``ctx`` keeps Row and maneuver apart: an adventurer's effects
    reach only its own side of that divide (unless PERMANENT without COMBAT: ctx "any")."""
    if spec is None:
        return [None]
    return _TARGETS[spec](state, seat, ctx, src)
