"""Ave Caesar AI driver: a one-move heuristic over the engine's numbered destinations.

The deck holds only 84 points for a route of 78-80, so the driver's first concern is not to waste movement:
for every (card, destination) it measures how many of the card's points do not bring the chariot closer to the
finish (remaining route including the alley detour while the denarius is still due). Then, in order: never
pass Caesar's alley unpaid in lap 2 (disqualification) if anything else is possible, stop in the alley when a
card allows it (the coin is paid early and lap 2 stays free), play high cards first (the cards left in hand at
the finish are turns saved, and a leader may not play a 6 anyway), and stand in a rival's way when it is free.

It decides from ``engine.view(state, seat)`` only. Neutral chariots are driven by the engine's own rule
(``AveCaesarEngine.neutral_destination``), as the rulebook makes their policy part of the rules.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from engines.ave_caesar.track import TRACK_VERSION, get_track

GAME = "ave-caesar"


def score(view: dict, action: dict, choice: dict) -> float:
    """Higher is better; see the module docstring for the terms."""
    track = _track(view)
    me = view["chariots"][action["chariot"]]
    detour = track.detour
    doomed = not me["paid"] and me["space"] is not None and not track.alley_reachable(me["space"], me["crossings"])
    before = me["remaining"] + (0 if me["paid"] or doomed else detour)
    paid_after = me["paid"] or choice["enters_alley"]
    after = 0 if choice["finishes"] else choice["remaining"] + (0 if paid_after else detour)
    waste = 0 if choice["finishes"] else action["card"] - (before - after)
    value = -10.0 * waste
    if choice["misses_alley"]:
        value -= 1000.0
    if choice["enters_alley"]:
        value += 15.0
    if choice["finishes"]:
        value += 100.0
    value += 0.5 * action["card"]
    if not paid_after and not doomed and not choice["misses_alley"]:
        value += _approach(view, track, me, action, choice)
    # in front of a rival: he has one way fewer
    rivals = {ch["space"] for ch in view["chariots"]
              if ch["space"] and ch["owner"] != me["owner"] and ch["status"] == "racing"}
    value += 0.3 * sum(1 for p in track.prev[choice["to"]] if p in rivals)
    return value


def _track(view: dict):
    return get_track(view["track"], view["direction"], view.get("track_version", TRACK_VERSION))


@lru_cache(maxsize=8)
def _to_access(name: str, direction: str, version: int = TRACK_VERSION) -> dict[str, int]:
    """Steps from each space to the alley's access space without crossing the finish line."""
    track = get_track(name, direction, version)
    dist = {track.alley_access: 0}
    queue = deque([track.alley_access])
    while queue:
        cur = queue.popleft()
        for p in track.prev[cur]:
            if p not in dist and not track.crosses(p, cur) and p not in track.alley_set:
                dist[p] = dist[cur] + 1
                queue.append(p)
    return dist


def _approach(view: dict, track, me: dict, action: dict, choice: dict) -> float:
    """Closing in on the alley with the coin still due: end where a card kept in hand can drive in
    (from k spaces before the access space, cards k+1 .. k+alley length enter); vital in lap 2."""
    k = _to_access(view["track"], view["direction"], track.version).get(choice["to"])
    if k is None or k > 8:
        return 0.0
    hand = next(h["cards"] for h in view["hands"] if h["chariot"] == me["id"])
    kept = [c["value"] for c in hand]
    kept.remove(action["card"])
    fits = any(k + 1 <= v <= k + len(track.alley) for v in kept)
    weight = 8.0 if choice["lap"] >= 2 else 2.0
    return weight if fits else (-weight if k <= 6 else 0.0)


def vote(view: dict, legal: list[dict]) -> dict:
    """A vote on a neutral chariot's move (option ``neutral_vote``): the space in front of the most rival
    chariots, less those of its own it would block; a tie goes to the fixed rule's choice (listed first)."""
    track = _track(view)
    seat = view["seat"]

    def worth(action: dict) -> int:
        total = 0
        for ch in view["chariots"]:
            if ch["owner"] is None or ch["status"] != "racing" or ch["space"] is None:
                continue
            if action["to"] in track.next[ch["space"]]:
                total += -1 if ch["owner"] == seat else 1
        return total

    return max(legal, key=worth)  # max keeps the first of equals: the rule's order


def choose(engine, state, seat: int, rng) -> dict:
    view = engine.view(state, seat)
    legal = view["legal"]
    if view.get("vote") is not None:
        return vote(view, legal)
    by_space = {ch["to"]: ch for ch in view["choices"]}
    return max(legal, key=lambda action: score(view, action, by_space[action["to"]]))
