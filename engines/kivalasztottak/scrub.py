"""Events are public: hidden cards named by their place, shown cards given their names.
"""

from __future__ import annotations

from . import common as C
from .zones import pub


def group_labels(group: list[str], names: list[str]) -> dict[str, str]:
    """The "#n" labels of one zone's cards (empty when no name appears twice)."""
    out: dict[str, str] = {}
    if len(set(names)) == len(names):
        return out
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    for cid, name in zip(group, names):
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            out[cid] = f"{name} #{seen[name]}"
    return out


def _thread_item(state: dict, uid: str) -> dict | None:
    return next((it for it in state["thread"] or () if it["uid"] == uid), None)


def _scrub_ref(state: dict, e: dict, k: str, v: str, labels: dict[str, str], extra: dict) -> None:
    """One string field: a hidden card becomes its place; a shown card gets its name; a thread item named as
    a target gets the name of what it is."""
    c = state["cards"].get(v)
    if c is not None:
        zone = c["zone"]
        if zone in C.HIDDEN_ZONES or (not c["up"] and zone in C.FACE_DOWN_ZONES):
            e[k] = pub(state, v)
        elif k != "type":
            extra[f"{k}_name"] = labels.get(v) or C.names_en()[c["k"]]
            if k == "card":
                extra["card_key"] = c["k"]
    elif k == "target":
        it = _thread_item(state, v)
        if it is not None:
            extra["target_name"] = ("face-down obstacle" if it.get("hidden")
                                    else C.names_en()[state["cards"][it["card"]]["k"]])


def _scrub_list(state: dict, e: dict, k: str, v: list, labels: dict[str, str], extra: dict) -> None:
    """One list field: hidden cards become their places, and the shown ones' names go alongside."""
    if not v:
        e[k] = []  # events never share a list with the state or an action
        return
    cards = state["cards"]
    hidden = C.Hidden(cards)
    e[k] = [pub(state, x) if isinstance(x, str) and x in hidden else x for x in v]
    if any(isinstance(x, str) and x in cards for x in v):
        name_of = C.names_en()
        extra[f"{k}_names"] = [None if not isinstance(x, str) or x in hidden or x not in cards
                               else labels.get(x) or name_of[cards[x]["k"]] for x in v]


def scrub(state: dict, ev: list, labels: dict[str, str] | None = None) -> None:
    """Events are public: a card that is hidden once the action is over (a besieged level turned face
    down again, say) is named by its place, never by its id. Every card that may be shown gets its English
    name next to its id (``<field>_name`` / ``<field>_names``; ``card_key`` for the card itself), and a
    thread item named as a target gets the name of what it is (``target_name``), so a narrator needs no
    state."""
    cards = state["cards"]
    labels = labels or {}
    name_of = C.names_en()
    for e in ev:
        extra: dict = {}
        for k, v in e.items():
            if isinstance(v, str):
                _scrub_ref(state, e, k, v, labels, extra)
            elif isinstance(v, list):
                _scrub_list(state, e, k, v, labels, extra)
        if labels:
            card = e.get("card")
            if card in labels and e.get("name") == name_of[cards[card]["k"]]:
                e["name"] = labels[card]  # the card's own name, with the "#n" its button showed
        if extra:
            e.update(extra)
