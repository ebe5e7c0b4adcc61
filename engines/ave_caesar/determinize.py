"""Determinization for Ave Caesar: a full state consistent with what one seat can see.

Hidden from a seat: every chariot's draw pile order and the hands of the chariots it does not own, and the
rng (the next race's shuffles). Each chariot's unseen cards (its pile, plus its hand when another seat owns
it) are pooled and redealt with the same sizes; played cards are public and stay. The seat can see that
the chariot to move has a move (a chariot without one is skipped), so a deal that leaves it none is drawn
again.
"""

from __future__ import annotations

from engines.hidden import redeal, reseed

from . import ENGINE

_TRIES = 50


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    for _ in range(_TRIES):
        s = _deal(state, seat, rng)
        if all(ENGINE.legal_actions(s, p) for p in ENGINE.to_act(s)):
            return s
    # practically never: keep the real hand of the chariot to move (its owner can move it; that is public)
    s = _deal(state, seat, rng, keep=ENGINE.current_chariot(state))
    return s


def _deal(state: dict, seat: int, rng, keep: int | None = None) -> dict:
    s = ENGINE.to_json(state)  # a fresh copy of a live state, as from_json(to_json(state)) would give
    for c, car in enumerate(s["race"]["cars"]):
        places = [car["deck"]]
        if s["chariots"][c]["owner"] != seat and c != keep:
            places.append(car["hand"])
        redeal(places, rng)
    s["rng"] = reseed(rng)
    return s
