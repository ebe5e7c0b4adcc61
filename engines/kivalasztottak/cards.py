"""Card data for Kiválasztottak: loads ``data/kivalasztottak/*.json`` and checks the decks against the deck rules.

Card text is data in a small effect vocabulary (see ``docs/kivalasztottak.md``); this module only loads and
validates it, the engine interprets it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "kivalasztottak"

CARD_TYPES = ("tower", "adventurer", "action", "quest", "building", "ally", "obstacle", "event", "omen")
SYMBOLS = ("TAP", "ONCE_ROUND", "PERMANENT", "COMBAT", "INTERRUPT", "ONCE_PLAYER")
DURATIONS = ("permanent", "use", "instant", "combat")
PHASES = ("row", "combat", "maneuver")
COPY_LIMIT = 3
MIN_DECK = 43
HAND_SIZE = 7
MAX_LEVEL = 7
QUEST_LIMIT = 3
BUILDING_LIMIT = 3
START_MP = 10
ROUND_MP = 4
SIEGE_COST = 2
IMMEDIATE_DP = 19
ROUND_END_DP = 11
HUMAN = "ember"


@lru_cache(maxsize=1)
def card_defs() -> dict[str, dict]:
    """Every card definition by key (tokens included)."""
    raw = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    defs = {c["key"]: c for c in raw["cards"]}
    races = raw["races"]
    for c in defs.values():
        assert c["type"] in CARD_TYPES, c["key"]
        if c["type"] == "tower":
            c["mp"] = raw["tower_mp"]  # "A toronyszint MP-értéke 4." (not printed on the level)
        if c["type"] == "adventurer":
            # "Ha egy kalandozón nincs faj feltüntetve, akkor embernek minősül.": no race printed = human
            race = next((t for t in c.get("traits", []) if t in races), None)
            if race is None:
                race = HUMAN
                c["traits"] = [*c.get("traits", []), HUMAN]
            c["race"] = race
        c.setdefault("abilities", [])
        c.setdefault("named", False)
        c.setdefault("traits", [])
        c.setdefault("mp", 0)
        for ab in c["abilities"]:
            ab.setdefault("sym", [])
            ab.setdefault("mp", 0)
            ab.setdefault("szp", 0)
            assert all(s in SYMBOLS for s in ab["sym"]), c["key"]
        if c["type"] in ("action", "event"):
            c.setdefault("phase", "row")
            assert c["phase"] in PHASES and c["duration"] in DURATIONS, c["key"]
    return defs


@lru_cache(maxsize=1)
def deck_file() -> dict:
    return json.loads((DATA / "decks.json").read_text(encoding="utf-8"))


def deck_ids() -> list[str]:
    return list(deck_file()["decks"])


def default_decks() -> list[str]:
    return list(deck_file()["default"])


def deck_list(deck_id: str) -> list[str]:
    """The card keys of a deck, one entry per copy."""
    deck = deck_file()["decks"][deck_id]
    return [key for key, n in deck["cards"] for _ in range(n)]


def deck_problems(deck_id: str) -> list[str]:
    """Deck-building rule violations (empty when the deck is legal)."""
    defs = card_defs()
    deck = deck_file()["decks"][deck_id]
    problems = []
    cards = deck_list(deck_id)
    if len(cards) < MIN_DECK:
        problems.append(f"{deck_id}: {len(cards)} cards, at least {MIN_DECK} needed")
    for key, n in deck["cards"]:
        if key not in defs:
            problems.append(f"{deck_id}: unknown card {key}")
        elif n > COPY_LIMIT:
            problems.append(f"{deck_id}: {n} copies of {key}")
        elif defs[key].get("token"):
            problems.append(f"{deck_id}: token {key} may not be in a deck")
    towers = [k for k in cards if defs.get(k, {}).get("type") == "tower"]
    if len(towers) != 3 or len(set(towers)) != 3:
        problems.append(f"{deck_id}: needs exactly 3 different starting tower levels")
    if sum(1 for k in cards if defs.get(k, {}).get("type") == "omen") > 1:
        problems.append(f"{deck_id}: at most one omen")
    return problems


@lru_cache(maxsize=1)
def _terms() -> list[tuple[str, str]]:
    raw = json.loads((DATA / "cards.json").read_text(encoding="utf-8"))
    return sorted(raw.get("terms_en", {}).items(), key=lambda kv: -len(kv[0]))


@lru_cache(maxsize=512)
def english(text: str) -> str:
    """A condition, skill, trait or caste in English ("2x vadász + Fizikum>8" -> "2x hunter + Physique>8")."""
    import re

    for hu, en in _terms():
        text = re.sub(rf"(?<![\wÀ-ž]){re.escape(hu)}(?![\wÀ-ž])", en, text)
    return text


def name_of(key: str) -> str:
    """English name of a card definition."""
    return card_defs()[key]["name_en"]
