"""Card movements and small helpers every section uses: dice and shuffles, public card references, drawing,
the clock of actions, cards leaving the Present (to the Past or the Depth, and what hangs on them), deaths,
what a seat controls, who may wear what.
"""

from __future__ import annotations

from engines.rng import Rng

from . import common as C
from . import state as S


def roll(state: dict) -> tuple[int, int]:
    """Two dice from the game's own generator."""
    rng = Rng(state["rng"])
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    state["rng"] = rng.state
    return a, b


def shuffle(state: dict, items: list) -> None:
    """Shuffle ``items`` in place with the game's own generator."""
    rng = Rng(state["rng"])
    rng.shuffle(items)
    state["rng"] = rng.state


def pub(state: dict, cid: str) -> str:
    """A reference to a card that may be shown to everybody (face-down cards are not named)."""
    c = state["cards"][cid]
    if c["up"] and c["zone"] not in C.HIDDEN_ZONES:
        return cid
    if c["zone"] == "towers":
        return f"tower-{c['zs']}-{state['p'][c['zs']]['towers'].index(cid)}"
    return f"hidden-{c['owner']}"


def draw_cards(state: dict, seat: int, n: int, ev: list) -> int:
    """The seat draws up to ``n`` cards from its Future; returns how many it drew."""
    p = state["p"][seat]
    got = 0
    for _ in range(n):
        if not p["future"]:
            break
        S.move(state, p["future"][-1], "hand", seat)
        got += 1
    if got:
        ev.append({"type": "drew", "seat": seat, "n": got})
    return got


def stamp(state: dict, seat: int) -> None:
    """Record that ``seat`` acted now (on equal MP the active player is the one who acted longer ago)."""
    state["clock"] += 1
    state["last_acted"][seat] = state["clock"]


def to_past(state: dict, cid: str, ev: list | None = None) -> None:
    """Present -> Past (a named card goes to the Depth instead, unless its player already has one there
    or in the Present: then the Past). Tokens cease to exist."""
    c = state["cards"][cid]
    was_present = c["zone"] in S.PRESENT or c["zone"] in ("thread", "limbo")
    strip(state, cid, ev)
    S.take(state, cid)
    d = S.cdef(state, cid)
    if d.get("token"):
        c["zone"] = "gone"
        c["inc"] += 1
        return
    S.reset_card(c)
    dest = C.PAST
    if was_present and d["named"]:
        c["zone"] = "nowhere"
        if not S.named_conflict(state, c["owner"], cid):
            dest = "depth"
    S.put(state, cid, dest, c["owner"])


def strip(state: dict, cid: str, ev: list | None) -> None:
    """Cards hanging on a card that leaves the Present fall off: worn gear to the Store (or the Past when
    the wearer dies in a maneuver: handled by the caller), attached cards to their owners' Past."""
    c = state["cards"][cid]
    for item in list(c.get("worn", ())):
        S.move(state, item, "store", state["cards"][item]["ctrl"])
    for att in list(c.get("att", ())):
        to_past(state, att, ev)
    for w in c.get("wards", ()):
        src = w.get("src")
        if src and state["cards"][src]["zone"] in S.PRESENT:
            to_past(state, src, ev)
    c.pop("wards", None)


def controlled_present(state: dict, seat: int) -> list[str]:
    """The seat's cards in the Present, with the gear its adventurers wear."""
    p = state["p"][seat]
    out = []
    for z in S.PRESENT_LISTS:
        out.extend(p[z])
    for cid in [*p["row"], *p["team"]]:
        out.extend(state["cards"][cid].get("worn", ()))
    return out


def alive_team(state: dict, seat: int) -> list[str]:
    """The seat's team in the maneuver."""
    return list(state["p"][seat]["team"])


def die(state: dict, cid: str, ev: list) -> None:
    """An adventurer dies: one dying in a maneuver takes its gear with it."""
    c = state["cards"][cid]
    seat = c["ctrl"]
    in_team = c["zone"] == "team"
    ev.append({"type": "died", "seat": seat, "card": cid, "name": S.cdef(state, cid)["name_en"]})
    if in_team:
        # gear worn by an adventurer who dies in a maneuver is destroyed
        for item in list(c.get("worn", ())):
            to_past(state, item, ev)
        m = state["maneuver"]
        if m and cid in m["front"]:
            m["front"].remove(cid)
    to_past(state, cid, ev)


def attr_fn(state: dict):
    """The attribute reader Row and quest conditions use."""
    names = {"phys": "phys", "astral": "astral", "mental": "mental"}
    return lambda adv, a: S.attr(state, adv["id"], names[a])


def can_wear(state: dict, adv: str, item: str) -> bool:
    """May adventurer ``adv`` wear ``item`` (at most one melee weapon and one armour)?"""
    sub = S.cdef(state, item).get("subtype")
    if sub in ("melee_weapon", "armour"):
        for w in state["cards"][adv].get("worn", ()):
            if S.cdef(state, w).get("subtype") == sub:
                return False  # at most one melee weapon and one armour
    return True
