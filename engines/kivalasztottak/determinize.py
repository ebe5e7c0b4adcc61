"""Determinization for Kiválasztottak: a full state consistent with what one seat can see.

Card ids carry no information; what a card *is* is its key (``cards[id]["k"]``). Hidden from a seat: which
keys lie where in its own Future (its order: the owner does not see it either), and of the other player: his
Future, hand, reserve deck (rules version 3) and mulligan set-aside, and his face-down cards (tower levels and
obstacles), which show only their type. So the other player's unseen keys are pooled: each face-down card gets
a key of the type it shows (any unseen card of that type could lie there: one still in his hand, reserve or
Future as well), and the rest are redealt over his Future, hand, reserve deck and set-aside. The seat's own
face-down cards and reserve it knows; the rng (dice, shuffles) is reseeded.
"""

from __future__ import annotations

from engines.hidden import reseed

from . import ENGINE
from .cards import card_defs

_LOOSE = ("hand", "future", "setaside", "reserve")


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    s = ENGINE.from_json(ENGINE.to_json(state))
    cards = s["cards"]
    _deal(cards, sorted(s["p"][seat]["future"]), [], rng)
    other = 1 - seat
    p = s["p"][other]
    # the other player's reserve deck (rules version 3) looks like the rest of his unseen cards to ``seat``
    loose = sorted([*p["future"], *p["hand"], *p["setaside"], *p.get("reserve", ())])
    down = [cid for cid in sorted(cards)
            if cards[cid]["owner"] == other and not cards[cid]["up"] and cards[cid]["zone"] not in _LOOSE]
    _deal(cards, loose, down, rng)
    s["rng"] = reseed(rng)
    return s


def _deal(cards: dict, loose: list[str], down: list[str], rng) -> None:
    """Redeal the keys of ``loose`` and ``down`` (sorted ids): each face-down id gets a key of its own card
    type, drawn from every pooled key of that type; the remaining keys fill ``loose``."""
    defs = card_defs()
    pool = sorted(cards[cid]["k"] for cid in (*loose, *down))
    by_type: dict[str, list[str]] = {}
    for cid in down:
        by_type.setdefault(defs[cards[cid]["k"]]["type"], []).append(cid)
    for kind in sorted(by_type):
        fitting = [k for k in pool if defs[k]["type"] == kind]
        rng.shuffle(fitting)
        for cid, key in zip(by_type[kind], fitting):
            cards[cid]["k"] = key
            pool.remove(key)
    rng.shuffle(pool)
    for cid, key in zip(loose, pool):
        cards[cid]["k"] = key
