"""Rules version 3 (issue 26): heals as the book writes them ("Gyógyul x szintet: Lekerül róla legfeljebb X
sebzés" - at most X damage comes off, and nothing makes an activation wait for an effect), decks of one's own
with a reserve deck (Cserepakli) that cards search - and version-2 games keep their rules."""

from __future__ import annotations

import json

import pytest

from engines.kivalasztottak import decks as D
from engines.kivalasztottak.determinize import determinize
from engines.rng import Rng

from .helpers import E, act, add, blank, pass_, settle, types, who
from .test_rules_v2 import as_version

RESERVE = [["bardcsapas", 3], ["dobolandzsa", 3], ["ugra", 2], ["klanharcos", 3], ["menedek", 2],
           ["telihold", 2]]


def own_deck(reserve=RESERVE, extra=(("futargalamb", 2),)) -> dict:
    """The Bear Clan with two Carrier Pigeons, and a reserve deck of 15."""
    cards = D.presets()["medveklan"]["cards"] + [list(x) for x in extra]
    return {"name": "Bears with pigeons", "cards": cards, "reserve": [list(x) for x in reserve]}


def _shot_at_the_dog(version: int):
    """Seat 1's Kráni Sniper shoots at seat 0's Wild Dog (1 damage kills a level-1 dog); seat 0 also has an
    undamaged Clan Warrior. Returns the state with seat 0 to answer the shot."""
    st = blank(mp=(5, 20))  # seat 1 has more MP: the active player
    dog = add(st, 0, "vadkutya", "row")
    warrior = add(st, 0, "klanharcos", "row")
    sniper = add(st, 1, "kraniorvlovesz", "row")
    if version != 3:
        st = as_version(st, version)
    st["prio"] = 1
    E.forget(st)
    act(st, 1, {"type": "activate", "card": sniper, "ability": 0, "target": dog})
    pass_(st)  # the active player (seat 1) passes: seat 0 may answer
    assert who(st) == 0
    return st, dog, warrior, sniper


def test_the_wild_dog_sacrifices_itself_and_the_shot_at_it_loses_its_target():
    st, dog, warrior, sniper = _shot_at_the_dog(3)
    sacrifice = {"type": "activate", "card": dog, "ability": 0, "target": warrior}
    assert sacrifice in E.legal_actions(st, 0), "a heal on an undamaged adventurer is a legal activation"
    ev = act(st, 0, sacrifice)
    assert "sacrificed" in types(ev)
    ev = settle(st)
    healed = [e for e in ev if e["type"] == "healed"]
    assert healed and healed[0]["amount"] == 0, "nothing to heal: at most 2 damage came off"
    fizzled = [e for e in ev if e["type"] == "fizzled"]
    assert fizzled and fizzled[0]["name"] == "Kráni Sniper", "the shot lost its target and was neutralised"
    assert st["cards"][warrior]["dmg"] == 0 and st["cards"][warrior]["zone"] == "row"
    assert st["p"][1]["mp"] == 19, "the shot was paid for all the same"


def test_under_version_2_the_dog_could_not_answer_the_shot():
    st, dog, warrior, _ = _shot_at_the_dog(2)
    assert not any(a["type"] == "activate" and a["card"] == dog for a in E.legal_actions(st, 0))
    settle(st)
    assert st["cards"][dog]["zone"] != "row", "the dog died of the shot"


def test_ugra_and_the_old_huntmaster_may_heal_an_undamaged_adventurer():
    st = blank(mp=(10, 10))
    master = add(st, 0, "vadaszmester", "allies")
    hunter = add(st, 0, "vadasz", "row")
    heals = [a for a in E.legal_actions(st, 0) if a["type"] == "activate" and a["card"] == master
             and a["ability"] == 0]
    assert [a["target"] for a in heals] == [hunter]
    act(st, 0, heals[0])
    ev = settle(st)
    assert [e["amount"] for e in ev if e["type"] == "healed"] == [0]
    assert st["cards"][master]["szp"] == 2, "the cost is paid: 1 SZP"
    ugra = add(st, 1, "ugra", "row")
    st["prio"] = 1
    E.forget(st)
    assert {"type": "activate", "card": ugra, "ability": 0} in E.legal_actions(st, 1)


# ------------------------------------------------------------------------------------------- the reserve deck

def test_a_deck_of_ones_own_with_a_reserve_starts_hidden_from_the_opponent():
    st = E.new_game(2, 5, {"decks": [own_deck(), "vadaszhaz"]})
    p = st["p"][0]
    assert len(p["reserve"]) == 15 and len(p["future"]) + len(p["hand"]) + 3 + 1 == 49  # towers, omen
    assert st["p"][1]["reserve"] == []
    mine, theirs = E.view(st, 0), E.view(st, 1)
    assert len(mine["reserve"]) == 15 and mine["players"][0]["reserve_count"] == 15
    assert theirs["players"][0]["reserve_count"] == 15 and theirs["reserve"] == []
    text = json.dumps(theirs)
    assert not any(cid in text for cid in p["reserve"]), "the opponent never sees the reserve's cards"
    assert set(p["reserve"]) <= E.secrets(st, 0)
    assert mine["players"][0]["deck_name"] == "Bears with pigeons"
    # saved and loaded: exactly the same game
    again = E.from_json(json.loads(json.dumps(E.to_json(st))))
    assert E.to_json(again) == E.to_json(st)


def test_the_carrier_pigeon_searches_the_reserve_for_a_card():
    st = E.new_game(2, 5, {"decks": [own_deck(), "vadaszhaz"]})
    for seat in range(2):
        E.apply(st, seat, E.legal_actions(st, seat)[0])
    for seat in range(2):
        E.apply(st, seat, {"type": "keep"})
    pigeon = next(cid for cid, c in st["cards"].items() if c["k"] == "futargalamb")
    from engines.kivalasztottak import state as S
    S.move(st, pigeon, "hand", 0)
    st["p"][0]["mp"] = 20
    st["prio"] = 0
    st["passes"] = 0
    E.forget(st)
    act(st, 0, {"type": "summon", "card": pigeon})
    settle(st)
    assert E.to_act(st) == [0] and st["pending"][0]["kind"] == "reserve_pick"
    picks = E.legal_actions(st, 0)
    assert len(picks) == 6, "one choice per different card of the reserve"
    ugra = next(a for a in picks if st["cards"][a["card"]]["k"] == "ugra")
    hand = len(st["p"][0]["hand"])
    ev = act(st, 0, ugra)
    assert st["cards"][ugra["card"]]["zone"] == "hand" and len(st["p"][0]["hand"]) == hand + 1
    assert len(st["p"][0]["reserve"]) == 14 and E.view(st, 1)["players"][0]["reserve_count"] == 14
    searched = next(e for e in ev if e["type"] == "reserve_searched")
    assert searched["card"] != ugra["card"] and searched["left"] == 14, "the events do not name the card"


def test_a_pigeon_with_no_reserve_does_nothing():
    st = blank(mp=(10, 10))
    pigeon = add(st, 0, "futargalamb", "hand")
    act(st, 0, {"type": "summon", "card": pigeon})
    ev = settle(st)
    assert "reserve_empty" in types(ev) and not st["pending"]


def test_the_determinizer_redeals_the_opponents_reserve_but_keeps_ones_own():
    st = E.new_game(2, 5, {"decks": [own_deck(), own_deck()]})
    sample = determinize(st, 0, Rng(1))
    assert E.view(sample, 0) == E.view(st, 0)
    assert [sample["cards"][c]["k"] for c in sample["p"][0]["reserve"]] == \
        [st["cards"][c]["k"] for c in st["p"][0]["reserve"]]
    assert len(sample["p"][1]["reserve"]) == 15
    truth = sorted(st["cards"][c]["k"] for c in st["p"][1]["reserve"])
    samples = [sorted(s["cards"][c]["k"] for c in s["p"][1]["reserve"])
               for s in (determinize(st, 0, Rng(i)) for i in range(5))]
    assert any(s != truth for s in samples), "the opponent's reserve is a guess, not a peek"


def test_a_deck_that_breaks_the_rules_is_refused_with_its_reasons():
    bad = own_deck(reserve=RESERVE[:-1])  # 13 in the reserve
    with pytest.raises(ValueError, match="exactly 0 or 15"):
        E.new_game(2, 1, {"decks": [bad, "vadaszhaz"]})
    with pytest.raises(ValueError, match="preset id or"):
        E.new_game(2, 1, {"decks": [7, "vadaszhaz"]})


# ------------------------------------------------------------------------------------------- deck legality

def _spec(cards, reserve=()):
    return {"name": "t", "cards": [list(x) for x in cards], "reserve": [list(x) for x in reserve]}


TOWERS = [["ortorony", 1], ["fegyverterem", 1], ["trofeacsarnok", 1]]


def _codes(spec):
    return [code for code, _ in D.problems(spec)]


def test_the_two_presets_are_legal_decks():
    for spec in D.presets().values():
        assert D.problems(spec) == []


def test_at_least_43_cards_with_the_towers_and_the_omen_counted():
    assert _codes(_spec([*TOWERS, ["vadasz", 39]])) == ["too_few"]  # 42
    assert _codes(_spec([*TOWERS, ["vadasz", 40]])) == []  # 43: and no copy limit in the book
    assert _codes(_spec([*TOWERS, ["verhold", 1], ["vadasz", 39]])) == []  # the omen counts
    assert _codes(_spec([*TOWERS, ["vadasz", 98]])) == ["too_many"]  # 101: our bound, not the book's


def test_exactly_three_different_tower_levels():
    assert _codes(_spec([["ortorony", 2], ["fegyverterem", 1], ["vadasz", 40]])) == ["towers"]
    assert _codes(_spec([*TOWERS, ["csontkapu", 1], ["vadasz", 40]])) == ["towers"]
    assert _codes(_spec([["ortorony", 1], ["vadasz", 42]])) == ["towers"]


def test_at_most_one_omen_no_tokens_and_known_cards():
    two_omens = _spec([*TOWERS, ["verhold", 2], ["vadasz", 40]])
    assert _codes(two_omens) == ["omens"]
    assert _codes(_spec([*TOWERS, ["vadkutya", 1], ["vadasz", 40]])) == ["token"]
    assert _codes(_spec([*TOWERS, ["nosuchcard", 1], ["vadasz", 40]])) == ["unknown_card"]
    assert _codes(_spec([*TOWERS, ["vadasz", 0], ["fejvadasz", 40]])) == ["bad_count"]


def test_the_reserve_has_exactly_0_or_15_cards_and_no_tower_omen_or_token():
    deck = [*TOWERS, ["vadasz", 40]]
    assert _codes(_spec(deck, [["kardcsapas", 15]])) == []
    assert _codes(_spec(deck, [["kardcsapas", 14]])) == ["reserve_size"]
    assert _codes(_spec(deck, [["kardcsapas", 16]])) == ["reserve_size"]
    assert _codes(_spec(deck, [["kardcsapas", 14], ["csontkapu", 1]])) == ["reserve_type"]
    assert _codes(_spec(deck, [["kardcsapas", 14], ["verhold", 1]])) == ["reserve_type"]
    assert _codes(_spec(deck, [["kardcsapas", 14], ["vadkutya", 1]])) == ["token"]
    assert "exactly 0 or 15" in D.describe(D.problems(_spec(deck, [["kardcsapas", 3]]))[0])


def test_deck_codes_are_short_and_read_back_exactly():
    spec = D.normalise(own_deck())
    code = D.encode(spec)
    assert code.startswith("KV") and len(code) < 100
    back = D.decode(code, "Bears with pigeons")
    assert D.normalise(back) == spec
    # the presets' codes are pinned: a card file that reorders its cards would break every shared code
    assert D.encode(D.presets()["vadaszhaz"]) == PINNED_VADASZHAZ
    for broken in ("", "KV", "XY" + code[2:], code[:-2], code[:10] + ("A" if code[10] != "A" else "B") + code[11:]):
        with pytest.raises(ValueError):
            D.decode(broken)


PINNED_VADASZHAZ = "KVAQEBAQEBBAMBAwEDAQIBAgECBgMBAwECBAIBAgEBBAIBAgEBBAIBAQIBAgIBAgECBAEBAQECAADZ"


def test_the_text_form_reads_back_in_both_languages_and_names_bad_lines():
    spec = D.normalise(own_deck())
    for lang in ("en", "hu"):
        back, bad = D.parse_text(D.format_text(spec, lang), spec["name"])
        assert bad == [] and back == spec
    back, bad = D.parse_text("3x Hunter\n2 vadász  # more\nKRANI ORVLOVESZ\n\nReserve:\n15 Sword Stroke\n"
                             "7 Dragons", "x")
    assert back["cards"] == [["vadasz", 5], ["kraniorvlovesz", 1]]
    assert back["reserve"] == [["kardcsapas", 15]]
    assert bad == [("bad_line", {"line": 7, "text": "7 Dragons"})]
