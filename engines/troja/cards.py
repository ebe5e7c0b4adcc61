"""The Troja card set, loaded from ``data/troja/*.json``, and the effect vocabulary the engine interprets.

Every ability, intervention, event, item and wrath is a small dict ``{"op": ..., params}``; the engine has
one interpreter per op and no per-card code. Loading validates every op and parameter, so a typo in the data
fails at import instead of at the table.

Physical cards get ids ``"<key>#<n>"`` (``"spearmen#2"``): distinctive, so a hidden card's id can never be
mistaken for an ordinary word of a view.

``cards_v1.json`` keeps the version-1 definitions of the cards that rules version 2 redesigned, under keys
``"<key>_v1"``: they are known (names, texts, abilities) but never dealt, so that a game begun under version 1
finishes with its original cards (see ``TrojaEngine.from_json``).
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data" / "troja"

KINDS = ("unit", "trojan", "beast", "intervention", "item", "ally", "event", "modifier")
CHALLENGE_KINDS = ("unit", "trojan", "beast")
ATTACHMENT_KINDS = ("item", "ally")
FIGHTS = ("strength", "tactics")
SIDES = ("attacker", "defender")

# Passive ops (abilities of heroes, items, units, Trojan heroes and beasts) and their allowed parameters.
PASSIVE_OPS: dict[str, set[str]] = {
    "stat": {"stat", "amount", "fight", "vs", "combined", "roaming", "vs_patron"},
    "glory_on_win": {"amount", "fight", "vs"},
    "loss_reduction": {"amount"},
    "extra_loss": {"amount", "fight"},
    "tie_wins": {"fight"},
    "hand_limit": {"amount"},
    "cost_discount": {"kind", "amount"},
    "ignore_items": {"fight"},
    "fate_best_of": {"count"},
    "escape": {"min_face", "fight"},
    "grows": {"amount"},
    "discard_on_win": {"amount", "fight"},
    "drain_wrath": {"amount", "fight"},
    "wreck_on_win": {"fight"},
    "reward_draw": {"amount", "fight"},
    "draw_on_win": {"amount"},
}
# Active ops (interventions, events, wrath). FIGHT_OPS need a fight whose fate cards are on the table.
ACTIVE_OPS: dict[str, set[str]] = {
    "fight_mod": {"amount", "by_patron", "fight"},
    "redraw_fate": set(),
    "extra_fate": set(),
    "cancel_fight": set(),
    "banish": set(),
    "move_roamer": set(),
    "draw": {"amount"},
    "gain": {"amount", "by_patron"},
    "discard_random": {"amount"},
    "each_fate": {"table"},
    "contest": {"amount"},
    "omen": {"table"},
    "each_draw": {"amount"},
    "wreck": set(),
    "restore_wrath": {"amount"},
    "take_wrath": {"amount"},
}
FIGHT_OPS = {"fight_mod", "redraw_fate", "extra_fate", "cancel_fight"}


def _check_effect(effect: dict, ops: dict[str, set[str]], where: str) -> None:
    op = effect.get("op")
    if op not in ops:
        raise ValueError(f"{where}: unknown effect op {op!r}")
    extra = set(effect) - {"op"} - ops[op]
    if extra:
        raise ValueError(f"{where}: op {op!r} does not take {sorted(extra)}")
    if "fight" in effect and effect["fight"] not in FIGHTS:
        raise ValueError(f"{where}: bad fight {effect['fight']!r}")


def _load(name: str) -> dict:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def load() -> tuple[dict, dict, dict, list[str], dict]:
    """Read and validate the data files: (heroes, patrons, card types, deck ids, physical cards)."""
    heroes = {h["key"]: h for h in _load("heroes.json")["heroes"]}
    patrons = {p["key"]: p for p in _load("patrons.json")["patrons"]}
    types = {c["key"]: c for c in _load("cards.json")["cards"]}
    retired = {c["key"]: c for c in _load("cards_v1.json")["cards"]}
    if set(types) & set(retired):
        raise ValueError("cards_v1.json: a retired card type must have its own key")
    types.update(retired)
    for key, hero in heroes.items():
        if hero["patron"] not in patrons:
            raise ValueError(f"hero {key}: unknown patron")
        for eff in hero["ability"]:
            _check_effect(eff, PASSIVE_OPS, f"hero {key}")
    for key, patron in patrons.items():
        _check_effect(patron["wrath"], ACTIVE_OPS, f"patron {key}")
    deck: list[str] = []
    physical: dict[str, dict] = {}
    for key, card in types.items():
        if card["kind"] not in KINDS:
            raise ValueError(f"card {key}: unknown kind {card['kind']!r}")
        for eff in card.get("ability", []):
            _check_effect(eff, PASSIVE_OPS, f"card {key}")
        if "effect" in card:
            _check_effect(card["effect"], ACTIVE_OPS, f"card {key}")
        if card["kind"] in ("unit", "trojan", "beast") and not (card.get("strength") or card.get("tactics")):
            raise ValueError(f"card {key}: a challenge needs STRENGTH or TACTICS")
        for n, face in enumerate(card["faces"], start=1):
            if face not in range(1, 7):
                raise ValueError(f"card {key}: die face {face}")
            cid = f"{key}#{n}"
            if not card.get("retired"):
                deck.append(cid)
            physical[cid] = {"id": cid, "key": key, "face": face}
    return heroes, patrons, types, deck, physical


HEROES, PATRONS, TYPES, DECK, PHYSICAL = load()
#: version-1 physical id -> the id of its retired copy ("cerberus#1" -> "cerberus_v1#1")
V1_IDS = {cid.replace("_v1#", "#"): cid for cid in PHYSICAL if TYPES[PHYSICAL[cid]["key"]].get("retired")}


def card_type(card_id: str) -> dict:
    """The type (name, stats, ability) of a physical card id."""
    return TYPES[PHYSICAL[card_id]["key"]]


def face(card_id: str) -> int:
    """The die face printed on a physical card."""
    return PHYSICAL[card_id]["face"]


def name(key: str, lang: str = "en") -> str:
    """Localised name (pl, en, hu) of a card type, hero or patron key."""
    for table in (TYPES, HEROES, PATRONS):
        if key in table:
            names = table[key]["names"]
            return names.get(lang) or names["en"]
    raise KeyError(key)
