"""Determinization for Troja: a full state consistent with what one seat can see.

Hidden from a seat: the order of the draw deck, the other players' hands and the rng (reshuffles, hero
draws, random discards). The deck and the other hands are pooled and redealt with the same sizes; the
discard pile, attached cards and heroes are public and stay.
"""

from __future__ import annotations

from engines.hidden import redeal, reseed

from . import ENGINE


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    s = ENGINE.from_json(ENGINE.to_json(state))
    places = [s["deck"]] + [p["hand"] for i, p in enumerate(s["players"]) if i != seat]
    redeal(places, rng)
    s["rng"] = reseed(rng)
    return s
