"""Helpers for the Troja rule tests: hand-built tables, stacked fate cards and short-cuts through windows."""

from __future__ import annotations

import pytest

from engines.troja import ENGINE, HEROES, PHYSICAL, TYPES

E = ENGINE

# The rule tests pin the heroes to these stats, so that tuning the card set for balance (data/troja) does not
# change what the tests assert about the rules; each ability op is still the one the engine interprets.
PINNED_HEROES = {
    "achilles": {"strength": 8, "tactics": 4, "power": 2, "glory": 4, "patron": "ares",
                 "ability": [{"op": "glory_on_win", "amount": 1, "fight": "strength"}]},
    "ajax": {"strength": 7, "tactics": 5, "power": 1, "glory": 3, "patron": "ares", "ability": [{"op": "tie_wins"}]},
    "menelaus": {"strength": 6, "tactics": 5, "power": 3, "glory": 3, "patron": "hera",
                 "ability": [{"op": "stat", "stat": "strength", "amount": 2, "vs": ["trojan"]}]},
    "agamemnon": {"strength": 5, "tactics": 7, "power": 3, "glory": 4, "patron": "hera",
                  "ability": [{"op": "cost_discount", "kind": "ally", "amount": 1}]},
    "nestor": {"strength": 3, "tactics": 7, "power": 4, "glory": 2, "patron": "athena",
               "ability": [{"op": "hand_limit", "amount": 1}]},
    "odysseus": {"strength": 5, "tactics": 6, "power": 5, "glory": 3, "patron": "athena",
                 "ability": [{"op": "draw_on_win", "amount": 1}]},
}


@pytest.fixture(autouse=True)
def pinned_heroes(monkeypatch):
    """Pin hero stats for rule tests (import this fixture into a test module to use it)."""
    for key, stats in PINNED_HEROES.items():
        for field, value in stats.items():
            monkeypatch.setitem(HEROES[key], field, value)
    yield


def cid(key: str, face: int | None = None, skip: set | None = None) -> str:
    """The id of a physical copy of ``key`` (with the given die face, if asked)."""
    for card_id, info in PHYSICAL.items():
        if info["key"] == key and (face is None or info["face"] == face) and card_id not in (skip or set()):
            return card_id
    raise KeyError((key, face))


def _pull(state: dict, card_id: str) -> None:
    zones = [state["deck"], state["discard"]]
    for p in state["players"]:
        zones += [p["hand"], p["attached"]]
    for zone in zones:
        if card_id in zone:
            zone.remove(card_id)
            return
    for p in state["players"]:
        for r in list(p["roamers"]):
            if r["card"] == card_id:
                p["roamers"].remove(r)
                return
    raise AssertionError(f"{card_id} not found")


def table(heroes: list[str], turn: int = 0, gp: list[int] | None = None, seed: int = 1, v1: bool = False) -> dict:
    """A battlefield-phase table at the start of ``turn``'s main step, all hands empty. ``v1``: a game begun
    under rules version 1, loaded through the engine's migration (its cards are the version-1 cards)."""
    s = E.new_game(len(heroes), seed)
    for p in s["players"]:
        s["deck"].extend(p["hand"])
        p["hand"] = []
    for i, hero in enumerate(heroes):
        p = s["players"][i]
        p["hero"] = hero
        p["heroes"] = [hero]
        p["gp"] = gp[i] if gp else 12
    s["pool"] = [h for h in sorted(HEROES) if h not in heroes]
    s["aside"] = []
    s.update(phase="battle", step="main", turn=turn, first=0, camp_seat=None, turn_used=False, round=1)
    if v1:
        old = {**s, "rules_version": 1, "options": {"max_rounds": s["options"]["max_rounds"]}}
        old["deck"] = [c.replace("_v1#", "#") for c in s["deck"]]
        return E.from_json(old)
    return s


def give(state: dict, seat: int, *keys: str) -> list[str]:
    """Move one copy of each card key (or exact id) into a hand; returns the ids."""
    ids = []
    for key in keys:
        card_id = key if key in PHYSICAL else _free_copy(state, key)
        _pull(state, card_id)
        state["players"][seat]["hand"].append(card_id)
        ids.append(card_id)
    E.forget(state)  # the position was edited by hand: the engine's memo of it is stale
    return ids


def attach(state: dict, seat: int, *keys: str) -> list[str]:
    ids = []
    for key in keys:
        card_id = _free_copy(state, key)
        _pull(state, card_id)
        state["players"][seat]["attached"].append(card_id)
        ids.append(card_id)
    E.forget(state)  # the position was edited by hand: the engine's memo of it is stale
    return ids


def _free_copy(state: dict, key: str) -> str:
    """A copy of ``key`` that is in the deck or the discard pile."""
    for card_id in state["deck"] + state["discard"]:
        if PHYSICAL[card_id]["key"] == key:
            return card_id
    raise AssertionError(f"no free copy of {key}")


def stack(state: dict, *faces: int) -> list[str]:
    """Put cards with these die faces on top of the deck, drawn in the order given (non-challenge cards
    where possible, so they do not matter otherwise)."""
    chosen = []
    for f in faces:
        pool = [c for c in state["deck"] if PHYSICAL[c]["face"] == f and c not in chosen]
        if not pool:
            pool = [c for c in state["discard"] if PHYSICAL[c]["face"] == f and c not in chosen]
        card_id = pool[0]
        _pull(state, card_id)
        chosen.append(card_id)
    for card_id in reversed(chosen):
        state["deck"].append(card_id)
    return chosen


def roamer(state: dict, seat: int, key: str, by: int, arrived: bool = True, grow: int = 0) -> str:
    card_id = _free_copy(state, key)
    _pull(state, card_id)
    state["counter"] += 1
    state["players"][seat]["roamers"].append({"card": card_id, "by": by, "order": state["counter"],
                                              "grow": grow, "arrived": arrived})
    E.forget(state)
    return card_id


def act(state: dict, seat: int, action: dict) -> list[dict]:
    return E.apply(state, seat, action)


def pass_all(state: dict, kinds=("join", "fate", "start")) -> list[dict]:
    """Everyone passes the open reaction window(s) of the given kinds until none is open."""
    events = []
    while state["step"] in kinds:
        seat = E.to_act(state)[0]
        events += E.apply(state, seat, {"type": "pass"})
    return events


def challenge(state: dict, seat: int, target: int, *card_ids: str) -> list[dict]:
    """Play a challenge of these cards on ``target`` and launch it."""
    events = act(state, seat, {"type": "challenge", "card": card_ids[0], "target": target})
    for card_id in card_ids[1:]:
        events += act(state, seat, {"type": "combine", "card": card_id})
    events += act(state, seat, {"type": "launch"})
    return events


def of(events: list[dict], kind: str) -> list[dict]:
    return [e for e in events if e["type"] == kind]


def types(kind: str) -> list[str]:
    return [k for k, c in TYPES.items() if c["kind"] == kind]
