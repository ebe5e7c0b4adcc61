"""Helpers for determinizers: redeal hidden cards among the places they could be, without looking at them.

A determinizer copies a state and refills every hidden place from a pool made of all the cards those places
hold. The pool is sorted before it is shuffled, so the sample depends only on what the seat may know (which
cards are unaccounted for, and how many each place holds) and on ``rng`` - never on where the hidden cards
really are.
"""

from __future__ import annotations


def redeal(places: list[list], rng) -> None:
    """Refill each list in ``places`` (in place, same lengths) from their pooled, sorted, shuffled contents."""
    pool = sorted(x for place in places for x in place)
    rng.shuffle(pool)
    i = 0
    for place in places:
        n = len(place)
        place[:] = pool[i:i + n]
        i += n


def reseed(rng) -> int:
    """A fresh engine-rng state, so future chance (reshuffles, dice) is unknown to the search as well."""
    return rng.next64()
