"""The two starter decks obey the deck rules and together contain everything the rules describe."""

from __future__ import annotations

from engines.kivalasztottak.cards import (
    SYMBOLS,
    card_defs,
    deck_ids,
    deck_list,
    deck_problems,
)


def _all_cards():
    return [card_defs()[k] for d in deck_ids() for k in deck_list(d)]


def test_decks_are_legal():
    assert set(deck_ids()) == {"vadaszhaz", "medveklan"}
    for d in deck_ids():
        assert deck_problems(d) == []
        assert len(deck_list(d)) >= 43


def test_every_card_has_hungarian_and_english_names():
    for c in card_defs().values():
        assert c["name_hu"] and c["name_en"]


def test_decks_cover_every_card_type_symbol_and_condition_element():
    cards = _all_cards()
    assert {c["type"] for c in cards} == {"tower", "adventurer", "action", "quest", "building", "ally",
                                          "obstacle", "event", "omen"}
    syms = {s for c in [*cards, card_defs()["vadkutya"]] for ab in c["abilities"] for s in ab["sym"]}
    assert syms == set(SYMBOLS)
    assert any(ab["mp"] for c in cards for ab in c["abilities"])
    assert any(ab["szp"] for c in cards for ab in c["abilities"])
    parts = [p for c in cards for cond in c.get("conditions", []) + ([c["condition"]] if "condition" in c else [])
             for p in cond["parts"]]
    assert any("trait" in p for p in parts)
    assert any("caste" in p and p["caste"].isupper() for p in parts)
    assert any("caste" in p and p["caste"].islower() for p in parts)
    assert any("skill" in p and p["count"] > 1 for p in parts)
    assert any(p.get("named") for p in parts)
    assert any("attr" in p for p in parts)
    assert any(p["n"] > 1 for p in parts)
    assert any(len(cond["parts"]) > 1 for c in cards for cond in c.get("conditions", []))
    subs = {c["subcaste"] for c in cards if c["type"] == "adventurer"}
    assert subs == {"harcos", "fejvadasz"}
    assert any(c.get("animate") for c in cards) and any(c.get("kind") == "beast" for c in cards)
    assert any(c.get("kind") == "trap" for c in cards)
    assert any(c["named"] for c in cards) and any(c.get("true_names") for c in cards)
    assert sum(1 for c in cards if c["type"] == "omen") == 1
    ranges = {c["attack"]["range"] for c in cards if c["type"] == "action" and c.get("attack")}
    assert {"melee", "ranged"} <= ranges
    kinds = {(c.get("action_type"), c.get("subtype")) for c in cards if c["type"] == "action"}
    assert ("item", "melee_weapon") in kinds and ("item", "armour") in kinds
    assert any(k[0] == "magic_item" for k in kinds)
    assert {c["duration"] for c in cards if c["type"] in ("action", "event")} == {"permanent", "use", "instant", "combat"}
    assert {c.get("phase", "row") for c in cards if c["type"] in ("action", "event")} == {"row", "combat", "maneuver"}
    assert "SZOLGA NYELV" in {t for c in cards for t in c["traits"]}
