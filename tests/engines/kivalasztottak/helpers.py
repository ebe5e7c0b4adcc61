"""Hand-built positions for the Kiválasztottak rule tests."""

from __future__ import annotations

from engines.kivalasztottak import ENGINE
from engines.kivalasztottak import state as S
from engines.rng import Rng

E = ENGINE


def started(seed: int = 0, decks=None) -> dict:
    """A game in round 1's maneuvers phase with both starting hands kept (towers in deck order)."""
    st = E.new_game(2, seed, {"decks": decks} if decks else {})
    for seat in range(2):
        E.apply(st, seat, E.legal_actions(st, seat)[0])
    for seat in range(2):
        E.apply(st, seat, {"type": "keep"})
    assert st["stage"] == "maneuvers"
    return st


def blank(seed: int = 0, mp=(10, 10)) -> dict:
    """A started game with empty hands (cards moved to the Past) and chosen MP; seat 0 holds priority."""
    st = started(seed)
    for seat in range(2):
        p = st["p"][seat]
        for cid in list(p["hand"]):
            S.move(st, cid, "past", seat)
        p["mp"] = mp[seat]
    st["last_acted"] = [-2, -1]
    st["prio"] = S.active(st)
    st["passes"] = 0
    E.forget(st)
    return st


_n = [0]


def add(st: dict, seat: int, key: str, zone: str = "hand", **fields) -> str:
    """Create a card of ``key`` owned by ``seat`` straight into ``zone``."""
    _n[0] += 1
    cid = f"KX{seat}-{_n[0]}"
    c = S.new_card(cid, key, seat, zone)
    c["zone"] = None
    st["cards"][cid] = c
    on = fields.pop("on", None)
    S.put(st, cid, zone, seat, on=on)
    c.update(fields)
    if S.cdef(st, cid)["type"] == "ally" and "szp" not in fields:
        c["szp"] = S.cdef(st, cid)["szp"]
    E.forget(st)  # the position was edited by hand: the engine's memo of it is stale
    return cid


def act(st: dict, seat: int, action: dict) -> list[dict]:
    return E.apply(st, seat, action)


def who(st: dict) -> int:
    return E.to_act(st)[0]


def pass_(st: dict) -> list[dict]:
    return E.apply(st, who(st), {"type": "pass"})


def settle(st: dict, limit: int = 40) -> list[dict]:
    """Both players pass until the time thread is closed (decisions are left for the test)."""
    ev = []
    for _ in range(limit):
        if st["thread"] is None or st["pending"]:
            return ev
        ev += pass_(st)
    raise AssertionError("thread did not close")


def force_dice(st: dict, rolls: list[tuple[int, int]]) -> None:
    """Set the game's RNG so that the next 2d6 rolls are exactly ``rolls``."""
    for seed in range(1, 10_000_000):
        r = Rng(seed)
        if all((r.randint(1, 6), r.randint(1, 6)) == tuple(x) for x in rolls):
            st["rng"] = seed
            E.forget(st)
            return
    raise AssertionError("no seed found")


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def team(st: dict, seat: int, cards: list[str], done: bool = True) -> None:
    for c in cards:
        act(st, seat, {"type": "team_add", "card": c})
    if done:
        act(st, seat, {"type": "team_done"})


def to_decision(st: dict, limit: int = 60) -> list[dict]:
    """Pass through maneuver threads until somebody must decide (or a combat round waits, or it is over)."""
    ev: list[dict] = []
    for _ in range(limit):
        if st["pending"] or st["maneuver"] is None or (st["maneuver"]["step"] == "rounds" and st["thread"] is None):
            return ev
        ev += pass_(st)
    raise AssertionError("no decision reached")


def until_step(st: dict, step: str, limit: int = 30) -> None:
    """Pass until the maneuver's ``step`` has its thread open."""
    for _ in range(limit):
        m = st["maneuver"]
        if m and m["step"] == step and st["thread"] is not None and not st["pending"]:
            return
        pass_(st)
    raise AssertionError(f"step {step} not reached")


def lowest(st: dict, seat: int, key: str) -> str:
    """Put tower ``key`` at the bottom of ``seat``'s tower (the level a siege targets)."""
    p = st["p"][seat]
    tid = next(t for t in p["towers"] if st["cards"][t]["k"] == key)
    p["towers"].remove(tid)
    p["towers"].insert(0, tid)
    E.forget(st)
    return tid


def combat(st: dict, a: list[str], b: list[str], front_a=None, front_b=None, tower: str = "karamszint") -> str:
    """Seat 0 besieges seat 1 with team ``a``; seat 1 blocks with ``b``; ranks set; combat round 1 starts."""
    tid = lowest(st, 1, tower)
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, a)
    to_decision(st)
    team(st, 1, b)
    to_decision(st)
    act(st, 0, {"type": "ranks", "front": front_a or a})
    act(st, 1, {"type": "ranks", "front": front_b or b})
    return tid


def give_prio(st: dict, seat: int, limit: int = 6) -> None:
    for _ in range(limit):
        if who(st) == seat:
            return
        pass_(st)
    raise AssertionError("no priority")
