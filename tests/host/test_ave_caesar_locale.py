"""Ave Caesar in Hungarian and Polish: a real position's choices and prompt, the narration of a race and its
results use the rulebook's words; typed moves (numbers) work whatever the language."""

from __future__ import annotations

import pytest

from engines import ENGINES
from engines.ave_caesar.track import get_track
from host.locale import use_language
from host.presenters import PRESENTERS
from tests.engines.test_ave_caesar_support import race, space

E = ENGINES["ave-caesar"]
P = PRESENTERS["ave-caesar"]
NAMES = ["Ann", "Bob", "Cy"]
WHO = {"chariot": 0, "seat": 0, "label": "A1"}


@pytest.fixture
def lang():
    yield use_language
    use_language(None)


def alley_position():
    state = race(3, c0=dict(where=space("A", "bottom", 1, 0), hand=[2, 6, 6], crossings=2),
                 c1=dict(where=space("A", "west", 2, 0), crossings=2, paid=True),
                 c2=dict(where=space("A", "east", 3, 2), crossings=2, paid=False))
    view = E.view(state, 0)
    return view, [P.describe(view, a, i) for i, a in enumerate(view["legal"])]


def test_choices_and_prompt_in_hungarian(lang):
    lang("hu")
    view, choices = alley_position()
    alley = [c for c in choices if "behajt a Császár előtti sikátorba" in c.label]
    passing = [c for c in choices if "fizetés nélkül elhagyja a sikátort: kizárás" in c.label]
    assert alley and passing and all(c.emoji == "🏛️" for c in alley)
    assert all(c.group.startswith("Lap: ") and len(c.label) <= 80 for c in choices)
    assert all(len(c.description) <= 100 for c in choices)
    assert all(c.label.split(" → ")[1].split(": ", 1)[1].startswith("Császár előtti sikátor") for c in alley)
    prompt = P.prompt(view)
    assert prompt.startswith("lépj a szekereddel (**A**, 2/3. kör")
    assert "dénár befizetendő" in prompt and "állj meg a Császár előtti sikátorban" in prompt
    # typed moves are numbers: the same in every language; mistakes are explained in Hungarian
    action = view["legal"][0]
    n = next(ch["n"] for ch in view["choices"] if ch["to"] == action["to"])
    assert P.parse(view, choices, f"{action['card']} {n}") == 0
    with pytest.raises(ValueError, match="Kijátszható lapok: "):
        P.parse(view, choices, "99")


def test_narration_in_hungarian(lang):
    lang("hu")
    assert P.narrate({"type": "ave_caesar", **WHO}, NAMES).startswith(
        "🏛️ **Ave Caesar!** A1 (**Ann**) megáll a Császár előtti sikátorban")
    assert P.narrate({"type": "finished", "place": 2, "laurels": 4, **WHO}, NAMES) == \
        "🏁 A1 (**Ann**) **2.** helyen ér célba: 4 babér!"
    assert "A Császár haragja!" in P.narrate({"type": "disqualified", **WHO}, NAMES)
    assert P.narrate({"type": "moved", "card": 5, "to": "A40", **WHO}, NAMES) == \
        "A1 (**Ann**) kijátszik egy 5 értékű lapot (kanyar, külső sáv)."
    started = P.narrate({"type": "race_started", "race": 2, "races": 2, "track": "B", "direction": "cw",
                         "grid": [0], "labels": ["A1"], "owners": [0], "turn_order": "seat"}, NAMES)
    assert started.startswith("🏟️ **2/2. futam** — „B” pálya (Circus Flaminius), az óramutató járásával")
    assert "Rajt: I A1 (**Ann**)." in started
    lines = P.result_lines({"places": [1, 2], "scores": [6, 4], "reason": "race",
                            "chariots": [{"owner": 0, "label": "A1"}, {"owner": 1, "label": "B1"}],
                            "laurels": [6, 4], "races": []}, NAMES[:2])
    assert lines == ["🏆 A futam győztese **Ann**: 6 babér!", "1. Ann — 6 babér", "2. Bob — 4 babér"]


def test_a_move_says_where_the_chariot_went(lang):
    """Not just "plays a 5": the lane it drove to, on a straight or in a curve, or Caesar's alley."""
    lang("en")
    assert P.narrate({"type": "moved", "card": 5, "to": "A00", **WHO}, NAMES) == \
        "A1 (**Ann**) plays a 5 (inner lane)."
    alley = next(sid for sid, sp in get_track("B").spaces.items() if sp["sec"] == "alley")
    assert P.narrate({"type": "moved", "card": 2, "to": alley, **WHO}, NAMES).endswith("(Caesar's alley).")
    lang("pl")
    assert P.narrate({"type": "moved", "card": 5, "to": "A40", **WHO}, NAMES).endswith(
        "zagrywa 5 (zewnętrzny tor, zakręt).")


def test_choices_prompt_and_narration_in_polish(lang):
    lang("pl")
    view, choices = alley_position()
    assert any("wjeżdża w aleję Cezara" in c.label for c in choices)
    assert any("mija aleję bez opłaty" in c.label for c in choices)
    assert all(c.group.startswith("Karta ") for c in choices)
    prompt = P.prompt(view)
    assert prompt.startswith("ruch rydwanem **A** (okrążenie 2/3")
    assert "denar do zapłaty" in prompt and "gniew Cezara" in prompt
    assert P.narrate({"type": "finished", "place": 1, "laurels": 6, **WHO}, NAMES) == \
        "🏁 A1 (**Ann**) kończy na **1.** miejscu: 6 laurów!"
    assert P.narrate({"type": "finished", "place": 3, "laurels": 3, **WHO}, NAMES).endswith("3 laury!")
    assert P.narrate({"type": "ave_caesar", **WHO}, NAMES).startswith(
        "🏛️ **Ave Caesar!** A1 (**Ann**) zatrzymuje się w alei Cezara")
    over = P.narrate({"type": "race_over", "race": 1, "races": 2, "ranking": [1, 0], "laurels": [0, 6],
                      "status": ["disqualified", "finished"], "totals": [0, 6], "labels": ["A1", "B1"],
                      "owners": [0, 1]}, NAMES)
    assert over.startswith("🏆 **Wynik wyścigu 1:** 1. B1 (**Bob**) +6 · A1 (**Ann**) zdyskwalifikowany.")
    assert "Klasyfikacja po wyścigu 1 z 2: **Bob** 6, **Ann** 0." in over


def test_opening_lines_in_polish(lang):
    lang("pl")
    state = E.new_game(2, 3, {"races": 2})
    lines = P.opening_lines(E.view(state, 0), NAMES[:2])
    assert lines[0] == ("🏟️ **Mistrzostwa: 2 wyścigi.** Wyścig 1 — Tor A (Circus Maximus), "
                        "zgodnie z ruchem wskazówek zegara, trzy okrążenia.")
    assert lines[1].startswith("Na start każdy rydwan graczy odkrył kartę: ")
    assert any(line.startswith("Start: I ") for line in lines)


def test_english_is_unchanged(lang):
    lang(None)
    assert P.narrate({"type": "finished", "place": 2, "laurels": 4, **WHO}, NAMES) == \
        "🏁 A1 (**Ann**) finishes **2nd**: 4 laurels!"
    assert P.place(11) == "11th" and P.laurels(3) == "3 laurels"
