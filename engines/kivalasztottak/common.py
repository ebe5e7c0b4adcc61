"""Rules facts shared by the sections of the Kiválasztottak engine: rules-version switches, the timing rules of
fast effects, abilities and cards (tabled per timing situation), English card names, which zones are hidden.
"""

from __future__ import annotations

from .cards import card_defs

PAST = "past"

_NAMES: tuple = (None, {})


def names_en() -> dict[str, str]:
    """Card key -> English name (rebuilt if the card definitions were reloaded)."""
    global _NAMES
    defs = card_defs()
    if _NAMES[0] is not defs:
        _NAMES = (defs, {k: d["name_en"] for k, d in defs.items()})
    return _NAMES[1]


def v2(state: dict) -> bool:
    """The game began under rules version 2 or later (version-1 games keep their rules to the end)."""
    return state.get("rules_version", 1) >= 2


def heals_damaged_only(state: dict) -> bool:
    """Version 2 offered a heal only for a damaged adventurer; versions 1 and 3 on any the card allows (the
    book: "Gyógyul x szintet: Lekerül róla legfeljebb X sebzés" - at most X damage comes off, and nothing
    makes an activation wait for an effect)."""
    return state.get("rules_version", 1) == 2


def fast(ab_or_card: dict) -> bool:
    """Fast effect: INTERRUPT, or PERMANENT together with ONCE PER ROUND."""
    sym = ab_or_card.get("sym", [])
    if ab_or_card.get("interrupt"):
        return True
    return "INTERRUPT" in sym or ("PERMANENT" in sym and "ONCE_ROUND" in sym)


def timing(ab: dict, th: bool, no_maneuver: bool, rounds: bool) -> bool:
    """May activated ability ``ab`` be used now (a thread open or not, outside maneuvers, in combat rounds)?"""
    quick = fast(ab)
    sym = ab["sym"]
    if "COMBAT" in sym:
        return rounds and (quick or not th)
    if rounds:
        return "PERMANENT" in sym and (quick or not th)
    if no_maneuver:
        return quick or not th
    return quick and th


#: the timing situations of timing: (thread open, no maneuver, combat rounds)
_SITUATIONS = [(th, none, rounds) for th in (False, True) for none, rounds in ((True, False), (False, False),
                                                                                   (False, True))]
_ACTIVATED: tuple = (None, {})
_HAND: tuple = (None, {})


def card_timing(d: dict, th: bool, no_maneuver: bool, rounds: bool) -> bool:
    """May the action or event card ``d`` be summoned now (same situations as timing)?"""
    quick = fast(d)
    phase = d.get("phase", "row")
    if phase == "combat":
        return rounds and (quick or not th)
    if phase == "maneuver":
        # Decision: Maneuver-phase cards may be summoned in any thread a maneuver phase opens.
        return not no_maneuver and not rounds and th
    if no_maneuver:
        return quick or not th
    return quick and th and not rounds


def hand_table() -> dict[str, tuple[int, int, list[bool]]]:
    """Card key -> (kind, MP needed, timing per situation) for the quick refusals of a hand card: kind 1 is
    summoned only in a free Row phase, 2 an action or event card, 3 an obstacle, 0 never (towers, omens)."""
    global _HAND
    defs = card_defs()
    if _HAND[0] is not defs:
        table: dict[str, tuple[int, int, list[bool]]] = {}
        for k, d in defs.items():
            t = d["type"]
            if t in _ROW_ONLY_TYPES:
                table[k] = (1, d["mp"] if t == "adventurer" else -(10 ** 9), [])
            elif t in ("action", "event"):
                table[k] = (2, d["mp"], [card_timing(d, *sit) for sit in _SITUATIONS])
            elif t == "obstacle":
                table[k] = (3, 0, [])
            else:
                table[k] = (0, 0, [])
        _HAND = (defs, table)
    return _HAND[1]


def situation(state: dict) -> int:
    """The index in _SITUATIONS of the state's timing situation."""
    m = state["maneuver"]
    return (3 if state["thread"] is not None else 0) + (0 if m is None else 2 if m["step"] == "rounds" else 1)


def activated() -> dict[str, list[list[tuple[int, dict]]]]:
    """Card key -> per timing situation, its activated abilities usable then as (index, ability); keys
    without activated abilities are left out."""
    global _ACTIVATED
    defs = card_defs()
    if _ACTIVATED[0] is not defs:
        table = {}
        for k, d in defs.items():
            abl = [(i, ab) for i, ab in enumerate(d["abilities"]) if ab["kind"] == "activated"]
            if abl:
                table[k] = [[(i, ab) for i, ab in abl if timing(ab, *sit)] for sit in _SITUATIONS]
        _ACTIVATED = (defs, table)
    return _ACTIVATED[1]


_ROW_ONLY_TYPES = ("adventurer", "quest", "building", "ally")
HIDDEN_ZONES = ("hand", "future", "setaside", "reserve")
FACE_DOWN_ZONES = ("towers", "attached", "thread")


class Hidden:
    """``cid in hidden``: is card ``cid`` hidden now (in a hand, the Future, set aside, or face down)? Asked
    of the few ids in events, instead of building the set of every hidden card after each action."""

    __slots__ = ("cards",)

    def __init__(self, cards: dict) -> None:
        self.cards = cards

    def __contains__(self, cid: object) -> bool:
        c = self.cards.get(cid)
        if c is None:
            return False
        zone = c["zone"]
        return zone in HIDDEN_ZONES or (not c["up"] and zone in FACE_DOWN_ZONES)
