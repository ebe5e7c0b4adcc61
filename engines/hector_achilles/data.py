"""Hector and Achilles components, loaded once from ``data/hector_achilles/*.json``.

Ids are distinctive strings so they can never collide with ordinary words in a view:
troops ``HA-<side>-<colour>-<strength><copy>`` (``"HA-A-red-3b"``), heroes ``HA-<side>-<Name>``
(``"HA-T-Hector"``) and fate tiles ``HA-FATE-<n>``.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "hector_achilles"


def _load(name: str) -> dict:
    with open(DATA_DIR / name, encoding="utf-8") as fh:
        return json.load(fh)


_colours = _load("colours.json")["colours"]
_troops = _load("troops.json")
_sides_file = _load("sides.json")
_heroes = _load("heroes.json")["heroes"]
_tiles = _load("fate_tiles.json")["tiles"]
_tiles_v1 = _load("fate_tiles_v1.json")["tiles"]

COLOURS: dict[str, dict] = {c["key"]: c for c in _colours}
"""Colour key -> {key, en, hu, letter, pattern, rgb}; insertion order is the rulebook order."""
COLOUR_ORDER: list[str] = [c["key"] for c in _colours]

KINDS: dict[int, dict] = {k["strength"]: k for k in _troops["kinds"]}
"""Strength -> troop kind {strength, key, en, hu}."""

SIDES: list[dict] = sorted(_sides_file["sides"], key=lambda s: s["seat"])
"""Per seat: {seat, key ("A"/"T"), en, hu, favour_tokens}."""

RULES: dict = {k: v for k, v in _sides_file.items() if k != "sides"}
"""Numbers of the game: shame pool, deck size, front/home deck keys, minimum deck size, rounds..."""

FRONT_DECKS: list[str] = list(RULES["front_decks"])
HOME: str = RULES["home_deck"]
DECK_KEYS: list[str] = [*FRONT_DECKS, HOME]

TROOPS: dict[str, dict] = {}
"""Troop id -> {id, side, colour, strength, kind}."""
for _side in SIDES:
    for _colour in COLOUR_ORDER:
        for _strength in sorted(KINDS):
            for _copy in _troops["copies_per_strength"]:
                _id = f"HA-{_side['key']}-{_colour}-{_strength}{_copy}"
                TROOPS[_id] = {"id": _id, "side": _side["key"], "colour": _colour, "strength": _strength,
                               "kind": KINDS[_strength]["key"]}

HEROES: dict[str, dict] = {h["id"]: dict(h) for h in _heroes}
"""Hero id -> {id, name, side, colour, value}."""

TILES: dict[str, list[str]] = {t["id"]: list(t["colours"]) for t in _tiles}
"""Fate tile id -> its four edge colours in clockwise order (the layout of the current rules)."""

TILES_BY_VERSION: dict[int, dict[str, list[str]]] = {
    1: {t["id"]: list(t["colours"]) for t in _tiles_v1},
    2: TILES,
}
"""Rules version -> its fate-tile layout: a game keeps the tiles it began with (the ids are the same)."""


def side_troops(seat: int) -> list[str]:
    """The 48 troop ids of a seat's army in a fixed order (shuffled at set-up)."""
    key = SIDES[seat]["key"]
    return [tid for tid, t in TROOPS.items() if t["side"] == key]


def side_heroes(seat: int) -> list[str]:
    """The 6 hero ids of a seat in a fixed order (shuffled at set-up)."""
    key = SIDES[seat]["key"]
    return [hid for hid, h in HEROES.items() if h["side"] == key]


def troop_face(card_id: str) -> dict:
    """What anyone sees of a face-up troop: colour, strength and kind, without the id."""
    t = TROOPS[card_id]
    return {"colour": t["colour"], "strength": t["strength"], "kind": t["kind"]}


def hero_face(hero_id: str) -> dict:
    """What anyone sees of a revealed hero: name, colour and value, without the id."""
    h = HEROES[hero_id]
    return {"name": h["name"], "colour": h["colour"], "value": h["value"]}
