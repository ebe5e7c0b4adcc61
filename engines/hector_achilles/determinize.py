"""Determinization for Hector and Achilles: a full state consistent with what one seat can see.

Hidden from a seat: the order and split of every troop deck (its own too: decks are face down), the
opponent's hand, hand hero and face-down removed cards, both hero decks, the order of the fate stack and the
rng that drives future reshuffles. Each side's hidden troops are pooled and redealt over its decks (same
sizes); the same for heroes. Public things (played cards, lost heroes, sizes) stay.
"""

from __future__ import annotations

from engines.hidden import redeal, reseed

from . import ENGINE


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    s = ENGINE.from_json(ENGINE.to_json(state))
    b = s["battle"]
    for side in (0, 1):
        p = s["players"][side]
        troops = [p["decks"][k] for k in sorted(p["decks"])]
        heroes = [p["heroes"]]
        if side != seat:
            if b is not None:
                troops.append(b["hand"][side])
                if b["hand_hero"][side] is not None:
                    slot = [b["hand_hero"][side]]
                    heroes.append(slot)
            troops.append(p["removed"])
        redeal(troops, rng)
        redeal(heroes, rng)
        if side != seat and b is not None and b["hand_hero"][side] is not None:
            b["hand_hero"][side] = heroes[-1][0]
    redeal([s["fate_stack"]], rng)
    s["rng"] = reseed(rng)
    return s
