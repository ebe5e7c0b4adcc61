"""Low-level state helpers for Kiválasztottak: zones, card moves, derived statistics, the active-player rule.

The whole game state is one JSON-compatible dict (see ``engine.py`` for its layout). Cards live in
``state["cards"]`` keyed by id; a card's ``zone``/``zs`` say which list of which player holds it, or
``worn``/``attached`` (held by the card ``on``), ``thread``, ``limbo`` (a victorious beast) or ``gone`` (a
token that left the Present).
"""

from __future__ import annotations

from .cards import MAX_LEVEL, card_defs

LIST_ZONES = ("future", "hand", "past", "depth", "row", "team", "store", "quests", "solved", "buildings",
              "allies", "towers", "events", "omen", "setaside", "reserve")
PRESENT_LISTS = ("row", "team", "store", "quests", "solved", "buildings", "allies", "towers", "events", "omen")
PRESENT = (*PRESENT_LISTS, "worn", "attached")

#: bumped by every take and put: the engine compares it around an action to know whether any card changed place
#: (then the "#n" labels of duplicate names cannot have changed). Not part of any state.
MOVES = [0]


def other(seat: int) -> int:
    return 1 - seat


def cdef(state: dict, cid: str) -> dict:
    return card_defs()[state["cards"][cid]["k"]]


def new_card(cid: str, key: str, owner: int, zone: str) -> dict:
    # optional keys (on, worn, att, szp, op, mods, wards) are left out while empty: smaller saved games
    return {"k": key, "owner": owner, "ctrl": owner, "zone": zone, "zs": owner, "state": "alert", "dmg": 0,
            "up": True, "inc": 0}


def take(state: dict, cid: str) -> None:
    """Remove a card from wherever it is (no other bookkeeping)."""
    MOVES[0] += 1
    c = state["cards"][cid]
    z = c["zone"]
    if z in LIST_ZONES:
        state["p"][c["zs"]][z].remove(cid)
    elif z == "worn":
        state["cards"][c["on"]]["worn"].remove(cid)
    elif z == "attached":
        state["cards"][c["on"]]["att"].remove(cid)
    c.pop("on", None)
    c["zone"] = None


def put(state: dict, cid: str, zone: str, seat: int, on: str | None = None, bottom: bool = False) -> None:
    """Place a (taken) card; every move bumps the card's incarnation so stale targets fizzle."""
    MOVES[0] += 1
    c = state["cards"][cid]
    c["zone"] = zone
    c["zs"] = seat
    c["inc"] += 1
    if zone in LIST_ZONES:
        lst = state["p"][seat][zone]
        if bottom:
            lst.insert(0, cid)
        else:
            lst.append(cid)
    elif zone in ("worn", "attached"):
        c["on"] = on
        state["cards"][on].setdefault("worn" if zone == "worn" else "att", []).append(cid)


def move(state: dict, cid: str, zone: str, seat: int, on: str | None = None) -> None:
    take(state, cid)
    put(state, cid, zone, seat, on)


def names(state: dict, cid: str) -> set[str]:
    d = cdef(state, cid)
    return {d["name_hu"], *d.get("true_names", [])}


def named_conflict(state: dict, seat: int, cid: str) -> bool:
    """The named-card rule: ``seat`` already has a card sharing a name with ``cid`` in the Present or Depth."""
    if not cdef(state, cid)["named"]:
        return False
    mine = names(state, cid)
    for other_id, c in state["cards"].items():
        if other_id == cid or not card_defs()[c["k"]]["named"]:
            continue
        here = (c["zone"] in PRESENT and c["ctrl"] == seat) or (c["zone"] == "depth" and c["zs"] == seat)
        if here and names(state, other_id) & mine:
            return True
    return False


def reset_card(c: dict) -> None:
    c["state"] = "alert"
    c["dmg"] = 0
    c.pop("mods", None)
    c.pop("wards", None)
    c["up"] = True
    c["ctrl"] = c["owner"]


_WEARER: tuple = (None, {})


def _wearer_statics() -> dict[str, dict[str, int]]:
    """Card key -> {stat: total} of its static abilities that apply to its wearer (keys without any left out)."""
    global _WEARER
    defs = card_defs()
    if _WEARER[0] is not defs:
        table: dict[str, dict[str, int]] = {}
        for k, d in defs.items():
            for ab in d["abilities"]:
                if ab["kind"] == "static" and ab.get("scope") == "wearer":
                    stats = table.setdefault(k, {})
                    stats[ab.get("stat")] = stats.get(ab.get("stat"), 0) + ab["amount"]
        _WEARER = (defs, table)
    return _WEARER[1]


def worn_statics(state: dict, cid: str, stat: str) -> int:
    worn = state["cards"][cid].get("worn")
    if not worn:
        return 0
    cards = state["cards"]
    table = _wearer_statics()
    total = 0
    for item in worn:
        stats = table.get(cards[item]["k"])
        if stats:
            total += stats.get(stat, 0)
    return total


def self_statics(state: dict, cid: str, stat: str) -> int:
    return sum(ab["amount"] for ab in cdef(state, cid)["abilities"]
               if ab["kind"] == "static" and ab.get("stat") == stat and ab.get("scope") == "self")


def temp_mods(state: dict, cid: str, stat: str) -> int:
    mods = state["cards"][cid].get("mods")
    if not mods:
        return 0
    return sum(m["amount"] for m in mods if m["stat"] == stat)


def attr(state: dict, cid: str, name: str) -> int:
    """Physique / Astral / Mental with every modifier in force."""
    base = cdef(state, cid)[name]
    return base + worn_statics(state, cid, name) + temp_mods(state, cid, name)


def base_level(state: dict, cid: str) -> int:
    d = cdef(state, cid)
    bonus = worn_statics(state, cid, "level") + temp_mods(state, cid, "level")
    # "An adventurer's base level may not rise above 7."
    return min(MAX_LEVEL, d["level"] + bonus) if bonus > 0 else d["level"] + bonus


def level(state: dict, cid: str) -> int:
    c = state["cards"][cid]
    if not c.get("worn") and not c.get("mods"):
        return card_defs()[c["k"]]["level"] - c["dmg"]  # no bonus: base_level is the printed level
    return base_level(state, cid) - c["dmg"]


def threshold(state: dict, cid: str) -> int:
    """Attack threshold: the adventurer's Physique plus threshold modifiers, fixed when the attack resolves."""
    return (attr(state, cid, "phys") + self_statics(state, cid, "threshold")
            + worn_statics(state, cid, "threshold") + temp_mods(state, cid, "threshold"))


def armour(state: dict, cid: str) -> int:
    return worn_statics(state, cid, "armour")


def omen_bonus(state: dict, seat: int, stat: str) -> int:
    """Statics of the seat's omen; an omen without omen points has no abilities."""
    total = 0
    for cid in state["p"][seat]["omen"]:
        c = state["cards"][cid]
        if c.get("op", 0) <= 0:
            continue
        for ab in cdef(state, cid)["abilities"]:
            if ab["kind"] == "static" and ab.get("stat") == stat:
                total += ab["amount"]
    return total


def dp(state: dict, seat: int) -> int:
    """Triumph points: solved quests plus controlled buildings."""
    p = state["p"][seat]
    cards = state["cards"]
    defs = card_defs()
    total = 0
    for cid in p["solved"]:
        total += defs[cards[cid]["k"]]["dp"]
    for cid in p["buildings"]:
        total += defs[cards[cid]["k"]]["dp"]
    return total


def active(state: dict) -> int:
    """The active player: more MP; on equal MP the one who acted longer ago."""
    a, b = state["p"][0]["mp"], state["p"][1]["mp"]
    if a != b:
        return 0 if a > b else 1
    la = state["last_acted"]
    return 0 if la[0] <= la[1] else 1


def adventurers(state: dict, seat: int, where: str = "both") -> list[str]:
    p = state["p"][seat]
    if where == "row":
        return list(p["row"])
    if where == "team":
        return list(p["team"])
    return [*p["row"], *p["team"]]


def adv_desc(state: dict, cid: str) -> dict:
    """What a condition looks at."""
    d = cdef(state, cid)
    return {"id": cid, "named": d["named"], "traits": d["traits"], "caste": d["caste"], "subcaste": d["subcaste"],
            "skills": d["skills"]}


def context(state: dict, cid: str) -> str:
    """Where a card acts from: "row" (Row adventurers and their gear), "maneuver" (team members and their gear)
    or "any" (cards that are not adventurers)."""
    c = state["cards"][cid]
    if c["zone"] == "worn":
        c = state["cards"][c["on"]]
    if c["zone"] == "row":
        return "row"
    if c["zone"] == "team":
        return "maneuver"
    return "any"
