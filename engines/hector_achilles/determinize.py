"""Determinization for Hector and Achilles: a full state consistent with what one seat can see.

Hidden from a seat (rules: decks, hands and hero decks are face down; swapped-out troops are discarded face
down; Shame losses are the top cards of face-down decks):

- its own side: which of its troops lie in which deck and in what order (decks are face down, its own too),
  the troops it lost to Shame (nobody saw them), its hero deck's order;
- the other side: its decks, its hand and hand hero, the troops it swapped out or lost to Shame, its hero deck;
- the order of the fate stack, and the rng that drives future reshuffles.

Each side's hidden troops are pooled and redealt over its hidden places (same sizes); the same for heroes.
Public things (played cards, troops lost face up in battle, lost heroes, sizes) and what only this seat saw
(its hand, hand hero, the troops it swapped out) stay. Which removed troop went how is kept by the engine
(``removed_how``); a game saved before that counts every removed troop as unseen.
"""

from __future__ import annotations

from engines.hidden import redeal, reseed

from . import ENGINE
from .engine import removed_how

#: removed troops a seat did not see, of its own side and of the other
_UNSEEN_OWN = ("shame", "unknown")
_UNSEEN_OTHER = ("swap", "shame", "unknown")


def determinize(state: dict, seat: int, rng) -> dict:
    """A sample of ``state`` that ``seat`` cannot tell from it (``view(sample, seat) == view(state, seat)``)."""
    s = ENGINE.to_json(state)  # a fresh copy of a live state
    b = s["battle"]
    for side in (0, 1):
        p = s["players"][side]
        unseen = _UNSEEN_OWN if side == seat else _UNSEEN_OTHER
        lost = [i for i, how in enumerate(removed_how(p)) if how in unseen]
        removed = [p["removed"][i] for i in lost]
        troops = [p["decks"][k] for k in sorted(p["decks"])] + [removed]
        heroes = [p["heroes"]]
        if side != seat and b is not None:
            troops.append(b["hand"][side])
            if b["hand_hero"][side] is not None:
                heroes.append([b["hand_hero"][side]])
        redeal(troops, rng)
        redeal(heroes, rng)
        for i, card in zip(lost, removed):
            p["removed"][i] = card
        if side != seat and b is not None and b["hand_hero"][side] is not None:
            b["hand_hero"][side] = heroes[-1][0]
    redeal([s["fate_stack"]], rng)
    s["rng"] = reseed(rng)
    return s
