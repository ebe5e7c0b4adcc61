"""Helpers for the Ave Caesar rule tests: hand-built race positions on the real tracks.

``race(...)`` starts a real game and then puts chariots on chosen spaces with chosen hands (real card ids, the
rest of each 24-card deck below), so the engine runs its normal code from there.
"""

from __future__ import annotations

from engines.ave_caesar import ENGINE
from engines.ave_caesar.engine import COPIES
from engines.ave_caesar.track import get_track

E = ENGINE


def space(track: str, sec: str, col: int, lane: int, direction: str = "cw") -> str:
    """Id of the space of track ``track`` in section top/east/bottom/west/alley, column (or wedge) and lane."""
    for sp in get_track(track, direction).spaces.values():
        if sp["sec"] == sec and sp["col"] == col and sp["lane"] == lane:
            return sp["id"]
    raise KeyError((track, sec, col, lane))


def cards(c: int, values: list[int]) -> list[str]:
    """Distinct real card ids of chariot c with these values."""
    used: dict[int, int] = {}
    out = []
    for v in values:
        k = used.get(v, 0)
        used[v] = k + 1
        out.append(f"AC{c}-{v}{COPIES[k]}")
    return out


def set_car(state: dict, c: int, where: str | None, hand: list[int] | None = None, crossings: int = 1,
            paid: bool = False, deck: list[int] | None = None, status: str = "racing") -> None:
    """Put chariot c on space ``where`` with that hand (values); its deck becomes ``deck`` (values, top last)
    or the rest of its 24 cards."""
    car = state["race"]["cars"][c]
    car.update(space=where, crossings=crossings, paid=paid, status=status)
    neutral = state["chariots"][c]["owner"] is None
    hand = [] if neutral else (hand if hand is not None else [1, 2, 3])
    everything = cards(c, [v for v in range(1, 7) for _ in COPIES])
    car["hand"] = cards(c, hand)
    if deck is None:
        car["deck"] = [x for x in everything if x not in car["hand"]]
    else:
        taken = list(car["hand"])
        ids = []
        for v in deck:
            x = next(x for x in everything if x.split("-")[1][0] == str(v) and x not in taken)
            taken.append(x)
            ids.append(x)
        car["deck"] = ids
    if status != "racing":
        car["space"] = None
        car["left"] = 0 if status == "finished" else 50


def race(n: int = 2, options: dict | None = None, seed: int = 1, **cars) -> dict:
    """A game of n players (1 chariot each unless options say otherwise) with every chariot parked off the
    track (finished) unless placed with ``c<i>=dict(where=..., hand=[...], ...)``; chariot 0 is to act, the
    race is past its first move and turn order is chariot order. One race unless options say otherwise."""
    opts = {"chariots_per_player": 1, "races": 1, **(options or {})}
    state = E.new_game(n, seed, opts)
    r = state["race"]
    count = len(state["chariots"])
    r["grid"] = list(range(count))
    r["order"] = list(range(count))
    r["moves"] = 10
    r["turn"] = 0
    r["idle"] = 0
    r["last"] = []
    for c in range(count):
        spec = cars.get(f"c{c}")
        if spec is None:
            set_car(state, c, None, status="finished")
        else:
            set_car(state, c, **spec)
    return state


def dests(state: dict, card: int, c: int | None = None) -> set[str]:
    """Destinations the chariot to act (or c) may reach with ``card``."""
    c = E.current_chariot(state) if c is None else c
    return {ch["to"] for ch in E.choices(state, c) if any(m["card"] == card for m in ch["moves"])}


def move(state: dict, card: int, to: str) -> list[dict]:
    c = E.current_chariot(state)
    seat = state["chariots"][c]["owner"]
    return E.apply(state, seat, {"type": "move", "chariot": c, "card": card, "to": to})


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def finish_race(state):
    """Drive every racing chariot over the line (they are put on the start grid in their final lap)."""
    track = E.track(state)
    racing = [c for c, car in enumerate(state["race"]["cars"]) if car["status"] == "racing"]
    for i, c in enumerate(racing):
        set_car(state, c, track.start[i], hand=[2, 2, 2], crossings=3, paid=True)
    events = []
    E._advance(state, events, advance_first=False)  # the chariot to act may now be boxed in: skip it
    no = state["race"]["no"]
    while E.to_act(state) and state["race"]["no"] == no:
        seat = E.to_act(state)[0]
        events += E.apply(state, seat, E.legal_actions(state, seat)[0])
    return events
