"""Helpers for the Hector and Achilles rule tests: hand-built positions and a card-conservation check.

The helpers move real cards out of the real decks, so every position stays a legal game state (each troop
and hero exists exactly once) and the engine runs its normal code from there.
"""

from __future__ import annotations

from engines.hector_achilles import ENGINE, facing_colours, rotate
from engines.hector_achilles.data import DECK_KEYS, HEROES, TILES, TROOPS, side_heroes, side_troops

SIDE = {0: "A", 1: "T"}


def troop(seat: int, colour: str, strength: int, copy: str = "a") -> str:
    """The id of a troop card, e.g. troop(0, "red", 3, "b") == "HA-A-red-3b"."""
    return f"HA-{SIDE[seat]}-{colour}-{strength}{copy}"


def hero(seat: int, name: str) -> str:
    return f"HA-{SIDE[seat]}-{name}"


def new(seed: int = 1) -> dict:
    return ENGINE.new_game(2, seed, {})


def _take_troop(state: dict, seat: int, card: str) -> str:
    for key, deck in state["players"][seat]["decks"].items():
        if card in deck:
            deck.remove(card)
            return key
    raise AssertionError(f"{card} is not in a deck of seat {seat}")


def arrange(state: dict, seat: int, **decks: list[str]) -> None:
    """Put the given cards on top of the named decks (``home=[...]`` for the home deck), in order;
    ``d1``/``d2``/``d3`` name the front decks. Deck sizes stay the same: a card fetched from another deck
    is replaced there by a card from the bottom of the target deck."""
    p = state["players"][seat]
    for name, cards in decks.items():
        key = "home" if name == "home" else name.lstrip("d")
        for card in cards:
            source = _take_troop(state, seat, card)
            p["decks"][key].insert(0, card)
            if source != key:
                p["decks"][source].append(p["decks"][key].pop())
        p["decks"][key][:len(cards)] = list(cards)


def set_deck(state: dict, seat: int, key: str, cards: list[str]) -> None:
    """Make a deck hold exactly ``cards``; its previous cards go to the home deck (or to deck 1 when the
    home deck itself is set)."""
    p = state["players"][seat]
    for card in cards:
        _take_troop(state, seat, card)
    rest = p["decks"][key]
    p["decks"][key] = list(cards)
    p["decks"]["1" if key == "home" else "home"].extend(rest)


def hero_order(state: dict, seat: int, heroes: list[str]) -> None:
    """Put these heroes on top of the seat's hero deck, in order."""
    deck = state["players"][seat]["heroes"]
    for h in heroes:
        deck.remove(h)
    deck[:0] = list(heroes)


def orientation_for(tile: str, seat0_colour: str) -> int:
    return TILES[tile].index(seat0_colour)


def position(state: dict, *, attacker: int = 0, active=("1", "1"), tile: str = "HA-FATE-3",
             seat0_facing: str = "yellow", played=((), ()), hand=((), ()), hand_hero=(None, None),
             hero_on=(None, None), tokens=((), ()), rnd: int = 4, turn: int | None = None,
             step: str = "optional") -> dict:
    """Build a battle in progress. ``played``: troop ids per seat, the first being the vanguard;
    ``hero_on``: (hero id, slot) per seat or None; ``tokens``: slots carrying a favour token per seat."""
    b = state["battle"]
    b.update({"attacker": attacker, "round": rnd, "turn": attacker if turn is None else turn, "step": step,
              "called": active[attacker], "active": list(active), "vanguard_from": active[attacker],
              "tile": tile, "orientation": orientation_for(tile, seat0_facing), "rotator": None,
              "outcome": None, "played": [[], []], "hero": [None, None], "hand": [[], []],
              "hand_hero": [None, None]})
    state["fate_stack"].remove(tile)
    for seat in (0, 1):
        p = state["players"][seat]
        for i, card in enumerate(played[seat]):
            _take_troop(state, seat, card)
            b["played"][seat].append({"id": card, "token": i in tokens[seat], "vanguard": i == 0})
        p["favour"] -= len(tokens[seat])
        for card in hand[seat]:
            _take_troop(state, seat, card)
            b["hand"][seat].append(card)
        if hand_hero[seat]:
            p["heroes"].remove(hand_hero[seat])
            b["hand_hero"][seat] = hand_hero[seat]
        if hero_on[seat]:
            h, slot = hero_on[seat]
            p["heroes"].remove(h)
            b["hero"][seat] = {"id": h, "on": slot}
    state["phase"] = "turn"
    return state


def facing(state: dict) -> list[str]:
    b = state["battle"]
    return facing_colours(b["tile"], b["orientation"])


def act(state: dict, seat: int, action: dict) -> list[dict]:
    return ENGINE.apply(state, seat, action)


def event(events: list[dict], kind: str) -> dict:
    found = [e for e in events if e["type"] == kind]
    assert found, f"no {kind} event in {[e['type'] for e in events]}"
    return found[0]


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


def deck_total(state: dict, seat: int) -> int:
    return sum(len(d) for d in state["players"][seat]["decks"].values())


def check_conservation(state: dict) -> None:
    """Every troop and hero of each side is in exactly one place; tokens and shame add up."""
    b = state["battle"]
    for seat in (0, 1):
        p = state["players"][seat]
        places = [c for k in DECK_KEYS for c in p["decks"][k]] + list(p["removed"])
        heroes = list(p["heroes"]) + list(p["lost_heroes"])
        placed = 0
        if b is not None:
            places += [s["id"] for s in b["played"][seat]] + list(b["hand"][seat])
            placed = sum(1 for s in b["played"][seat] if s["token"])
            if b["hero"][seat]:
                heroes.append(b["hero"][seat]["id"])
            if b["hand_hero"][seat]:
                heroes.append(b["hand_hero"][seat])
        assert sorted(places) == sorted(side_troops(seat)), f"troops of seat {seat} do not add up"
        assert sorted(heroes) == sorted(side_heroes(seat)), f"heroes of seat {seat} do not add up"
        assert p["favour"] + p["favour_lost"] + placed == 3
        assert 0 <= p["shame"] <= 3
    assert state["shame_pool"] + sum(p["shame"] for p in state["players"]) == 6
    stack = list(state["fate_stack"]) + list(state["fate_used"])
    if b is not None and b["tile"]:
        stack.append(b["tile"])
    assert sorted(stack) == sorted(TILES)


__all__ = ["ENGINE", "HEROES", "TROOPS", "act", "arrange", "check_conservation", "deck_total", "event",
           "facing", "hero", "hero_order", "new", "orientation_for", "position", "rotate", "set_deck",
           "troop", "types"]
