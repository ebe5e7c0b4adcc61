"""Determinization for Kiválasztottak: a full state consistent with what one seat can see.

Card ids carry no information; what a card *is* is its key (``cards[id]["k"]``). Hidden from a seat: which
keys lie where in each Future (its own too), the opponent's hand, reserve deck and mulligan set-aside, the opponent's
face-down tower levels and face-down obstacles, and the rng (dice, shuffles). Keys are redealt over the ids
of each group of places that look alike to the seat: the Future with the hidden hand and set-aside, the
face-down towers, the other face-down cards (so a tower stays a tower and an obstacle an obstacle).
"""

from __future__ import annotations

from engines.hidden import redeal, reseed

from . import ENGINE

_LOOSE = ("hand", "future", "setaside")


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    s = ENGINE.from_json(ENGINE.to_json(state))
    cards = s["cards"]
    for owner in range(2):
        p = s["p"][owner]
        # the opponent's reserve deck (rules version 3) looks like the rest of his unseen cards to ``seat``
        loose = list(p["future"]) + ([*p["hand"], *p["setaside"], *p.get("reserve", ())] if owner != seat else [])
        towers: list[str] = []
        down: list[str] = []
        if owner != seat:
            for cid in sorted(cards):
                c = cards[cid]
                if c["owner"] == owner and not c["up"] and c["zone"] not in _LOOSE:
                    (towers if c["zone"] == "towers" else down).append(cid)
        for ids in (loose, towers, down):
            ids = sorted(ids)
            keys = [[cards[cid]["k"] for cid in ids]]
            redeal(keys, rng)
            for cid, key in zip(ids, keys[0]):
                cards[cid]["k"] = key
    s["rng"] = reseed(rng)
    return s
