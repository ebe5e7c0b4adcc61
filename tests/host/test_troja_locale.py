"""Troja in Polish and Hungarian: panels, prompts and narration come from the game's language table, and cards,
heroes and patrons are named (and described) in that language; typed moves accept the words of its buttons."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.locale import use_language
from host.presenters import PRESENTERS
from tests.engines.test_troja_support import challenge, give, pass_all, table

E = ENGINES["troja"]
P = PRESENTERS["troja"]
NAMES = ["Ann", "Bob", "Carol"]


@pytest.fixture
def lang():
    yield use_language
    use_language(None)


def choices(state, seat):
    view = E.view(state, seat)
    legal = E.legal_actions(state, seat)
    return view, legal, [P.describe(view, a, i) for i, a in enumerate(legal)]


def main_turn():
    """Odysseus (A) in his turn with Spearmen and Hermes' Gift in hand, Menelaus (B) across the table."""
    s = table(["odysseus", "menelaus"])
    give(s, 0, "spearmen", "hermes_gift")
    return s


def fight():
    """Achilles (A) challenges Nestor (B) with Spearmen; Odysseus (C), of Athena, holds Athena's Aegis."""
    s = table(["achilles", "nestor", "odysseus"])
    unit, = give(s, 0, "spearmen")
    give(s, 2, "aegis")
    events = challenge(s, 0, 1, unit) + pass_all(s, ("join",))
    return s, events


def test_polish_turn_panel_and_prompt(lang):
    lang("pl")
    s = main_turn()
    view, legal, cs = choices(s, 0)
    labels = [c.label for c in cs]
    assert "Włócznicy trojańscy (TAKTYKA 3, Chwała 1) → Menelaos (B)" in labels
    assert "Włócznicy trojańscy (TAKTYKA 3, Chwała 1) → siebie" in labels
    assert "Pojedynek na SIŁĘ: Menelaos (B)" in labels
    assert "Dar Hermesa: dobierz karty: 2" in labels
    assert labels[-1] == "Zakończ turę"
    groups = {c.group for c in cs}
    assert {"Zagraj Wyzwanie", "Pojedynek (raz na turę)", "Zagraj Interwencję", "Zakończ turę"} <= groups
    hermes = next(c for c in cs if c.label.startswith("Dar Hermesa"))
    assert hermes.description == "Interwencja · MOC 1 — Dobierz 2 karty (do limitu ręki)."
    assert P.prompt(view).startswith("tura bohatera Odyseusz: zagrywaj Wyzwania")
    # typed moves take the words of the Polish buttons
    assert legal[P.parse(view, cs, "pojedynek menelaos")] == {"type": "duel", "target": 1}
    assert legal[P.parse(view, cs, "zakończ turę")] == {"type": "end_turn"}
    assert legal[P.parse(view, cs, "włócznicy b")]["target"] == 1


def test_polish_fight_window_and_narration(lang):
    lang("pl")
    s, events = fight()
    view, _, cs = choices(s, 2)
    labels = [c.label for c in cs]
    assert "Egida Ateny: Włócznicy trojańscy +4" in labels
    assert "Egida Ateny: Nestor (B) +4" in labels
    assert "Gniew (Atena): Nestor (B) +3" in labels
    assert labels[-1] == "Pas: niech walka się rozstrzygnie"
    assert P.select_groups == ("Zagraj kartę",)
    assert {c.group for c in cs} == {"Zagraj kartę", "Gniew twojego patrona", "Pas"}
    wrath = next(c for c in cs if c.label.startswith("Gniew"))
    assert wrath.description == "Gniew: +3 dla jednej ze stron bieżącej walki."
    assert P.prompt(view).startswith("walka: Włócznicy trojańscy ")
    assert "Nestor (B)" in P.prompt(view) and "Zagraj Interwencję lub gniew albo pasuj." in P.prompt(view)
    lines = [line for line in (P.narrate(e, NAMES) for e in events) if line]
    assert "**Ann** (A) zagrywa Wyzwanie na gracza **Bob** (B): Włócznicy trojańscy." in lines
    assert "🥊 Bitwa na TAKTYKĘ — atakujący: Włócznicy trojańscy; obrońca: **Bob** (B)." in lines
    fate = {"type": "fate", "seat": 0, "card": "cerberus", "face": 5, "reason": "defender"}
    assert P.narrate(fate, NAMES) == "🎲 Karta losu — obrońca: **5** (Cerber)."
    glory = {"type": "glory", "seat": 2, "delta": -3, "gp": 9, "reason": "challenge_lost"}
    assert P.narrate(glory, NAMES) == "🩸 **Carol** (C): Chwała −3 za porażkę → **9**."
    disgrace = {"type": "disgrace", "seat": 1, "old": "ajax", "new": "odysseus", "returned": ["myrmidons"]}
    line = P.narrate(disgrace, NAMES)
    assert "Ajaks" in line and "odchodzi w niesławie" in line and "Myrmidoni" in line and "**Odyseusz**" in line


def test_hungarian_turn_panel_and_prompt(lang):
    lang("hu")
    s = main_turn()
    view, legal, cs = choices(s, 0)
    labels = [c.label for c in cs]
    assert "Trójai lándzsások (TAKTIKA 3, Dicsőség 1) → Menelaosz (B)" in labels
    assert "Trójai lándzsások (TAKTIKA 3, Dicsőség 1) → magad" in labels
    assert "ERŐ-párbaj: Menelaosz (B)" in labels
    assert "Hermész ajándéka: húzz 2 lapot" in labels
    assert labels[-1] == "Köröd befejezése"
    assert {"Kihívás", "Párbaj (körönként egyszer)", "Beavatkozás kijátszása"} <= {c.group for c in cs}
    spear = next(c for c in cs if c.label.startswith("Trójai lándzsások"))
    assert spear.description == "Trójai egység · TAKTIKA 3, Dicsőség 1"
    assert P.prompt(view).startswith("Odüsszeusz köre: hívj ki hősöket")
    assert legal[P.parse(view, cs, "párbaj menelaosz")] == {"type": "duel", "target": 1}


def test_hungarian_fight_window_and_narration(lang):
    lang("hu")
    s, events = fight()
    view, _, cs = choices(s, 2)
    labels = [c.label for c in cs]
    assert "Athéné égisze: Trójai lándzsások +4" in labels
    assert "Athéné égisze: Nesztór (B) +4" in labels
    assert "Athéné haragja: Nesztór (B) +3" in labels
    assert labels[-1] == "Passz: döntsön a harc"
    assert P.select_groups == ("Lap kijátszása",)
    assert {c.group for c in cs} == {"Lap kijátszása", "Pártfogód haragja", "Passz"}
    assert P.prompt(view).startswith("harc: Trójai lándzsások ")
    assert "Nesztór (B)" in P.prompt(view) and "passzolj." in P.prompt(view)
    mine = E.view(s, 1)
    assert "Athéné haragja: Nesztór (te) +3" in [P.describe(mine, a, i).label
                                                for i, a in enumerate(E.legal_actions(s, 1))]
    lines = [line for line in (P.narrate(e, NAMES) for e in events) if line]
    assert "**Ann** (A) kihívást indít **Bob** (B) ellen: Trójai lándzsások." in lines
    assert "🥊 TAKTIKA-csata — támadó: Trójai lándzsások; védő: **Bob** (B)." in lines
    fate = {"type": "fate", "seat": 0, "card": "cerberus", "face": 5, "reason": "defender"}
    assert P.narrate(fate, NAMES) == "🎲 Sorslap a védő számára: **5** (Kerberosz)."
    result = {"places": [2, 1], "scores": [14, 26], "reason": "glory", "winner": 1,
              "heroes": ["ajax", "nestor"], "rounds": 7}
    assert P.result_lines(result, NAMES[:2]) == [
        "Győztes: Bob (B), 26 Dicsőséggel, 7 forduló után.",
        "1. Bob (B) — Nesztór — 26 Dicsőség", "2. Ann (A) — Aiasz — 14 Dicsőség"]


def test_english_stays_the_default(lang):
    lang("pl")
    lang(None)
    s, _ = fight()
    labels = [c.label for c in choices(s, 2)[2]]
    assert "Athena's Aegis: +4 for Trojan Spearmen" in labels
    assert P.select_groups == ("Play a card",)
