"""HEX-TRI in Hungarian and Polish: panels, prompts and narration come from the game's language table, and
typed moves accept the words of that language (English ones keep working)."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.locale import use_language
from host.presenters import PRESENTERS
from tests.host.test_hextri_presenter import panel_of, position

ENGINE = ENGINES["hextri"]
P = PRESENTERS["hextri"]
NAMES = ["Ann", "Bob", "Cy"]


@pytest.fixture
def lang():
    def use(code):
        use_language(code)

    yield use
    use_language(None)


def midgame():
    state = position(p0={"on": {"H-D4": 3, "T-C6": 1}, "leader": "H-D4", "waiting": 4},
                     p1={"on": {"H-C3": 2}, "leader": "H-C3", "waiting": 7})
    state["mana"] = {"H-D4": 5}
    return state


def battle_position():
    state = position(p0={"on": {"H-D4": 3}, "leader": "H-D4", "waiting": 6},
                     p1={"on": {"H-D4": 3}, "leader": "H-D4", "waiting": 6})
    events = ENGINE.apply(state, 0, {"type": "pass"})
    events += ENGINE.apply(state, 1, {"type": "pass"})
    return state, events


BATTLE = {"type": "battle", "field": "H-C3", "before": {"0": 3, "2": 1}, "losses": {"0": 1, "2": 1},
          "leaders_lost": []}
PRODUCTION = {"type": "production", "round": 4, "total": 4, "fields": [
    {"field": "H-A1", "seat": 0, "mana": 1}, {"field": "H-B2", "seat": 1, "mana": 2}]}


def test_hungarian_panel_prompt_and_narration(lang):
    lang("hu")
    view, panel = panel_of(midgame())
    assert [g for g, _ in panel.groups()] == ["Bábu behozása (4 vár)", "Bábu a H-D4 mezőn (2 itt)",
                                              "Vezér 👑 a H-D4 mezőn", "Bábu a T-C6 mezőn (1 itt)", "Passz"]
    attack = next(c for g, cs in panel.groups() if g == "Bábu a T-C6 mezőn (1 itt)" for c in cs
                  if c.label == "H-C3 (1 manna)")
    assert attack.description == "1 lépés · manna innen: H-D4 · ellenség ott: B×2 👑"
    leader = dict(panel.groups())["Vezér 👑 a H-D4 mezőn"]
    assert any(c.label.endswith("(ingyenes lépés + 1 manna)") for c in leader)
    assert panel.prompt.startswith("1/60. forduló, mozgás-fázis: lépj egy bábuval")
    assert "5 mannád van, és megvan a vezér ingyenes lépése." in panel.prompt
    assert all(len(c.label) <= 80 and (c.description is None or len(c.description) <= 100) for c in panel.choices)

    assert P.narrate(BATTLE, NAMES) == ("⚔️ Csata a H-C3 mezőn (**Ann** (A) 3 · **Cy** (C) 1): **Ann** (A) 1 bábut "
                                        "veszít, **Cy** (C) 1 bábut veszít; **Ann** (A) tartja a H-C3 mezőt. Elesett: 2 bábu; mindegyik 1 "
                                        "mannát hagy a mezőjén, és kimarad a következő fordulóból.")
    assert P.narrate(PRODUCTION, NAMES) == "💎 4. forduló, termelés: **Ann** (A) +1 (H-A1 +1); **Bob** (B) +2 (H-B2 +2)."
    assert P.narrate({"type": "pass", "seat": 1}, NAMES) == "**Bob** (B) passzol."
    circle = {"type": "encircled", "seat": 2, "field": "T-C4", "count": 1, "leader": True}
    assert P.narrate(circle, NAMES) == "⭕ **Cy** (C): 1 bábu bekerítve a T-C4 mezőn, lekerül a tábláról — köztük a vezér! " \
        "1 mannát hagy a mezőjén."
    assert [label for label, _ in P.options[3].choices] == ["Első vér — aki segít leütni egy vezért, az nyer",
                                                            "Az utolsó talpon maradt vezér",
                                                            "Első vér, tovább — aki elsőként leüt egy vezért, nyer; "
                                                            "a többiek a helyekért"]
    assert P.seat_label(0) == "Vörös A"


def test_hungarian_battle_losses_and_the_end(lang):
    lang("hu")
    state, events = battle_position()
    lines = [P.narrate(e, NAMES) for e in events]
    assert any(line and line.startswith("⚔️ Veszteséget kell választani: **Ann** (A), **Bob** (B) a H-D4 mezőn") for line in lines)
    view, panel = panel_of(state, 1)
    assert panel.prompt == ("csata a H-D4 mezőn: 3 bábu áll ott, ebből 2 elesik — megtartod a vezért, vagy ő is köztük van?")
    assert [c.label for c in panel.choices] == ["Veszteség: 2 egyszerű bábu, a vezér marad",
                                                "Veszteség: 2 bábu, köztük a vezér (a csapatod kiesik!)"]
    legal = ENGINE.legal_actions(state, 1)
    assert legal[P.parse(view, panel.choices, "megtartom")]["leader"] is False
    assert legal[P.parse(view, panel.choices, "vezér elesik")]["leader"] is True
    assert legal[P.parse(view, panel.choices, "keep")]["leader"] is False, "English still works"
    with pytest.raises(ValueError, match="Most nem passzolhatsz"):
        P.parse(view, panel.choices, "passz")
    ENGINE.apply(state, 1, legal[1])
    rest = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    lines = [line for e in rest if (line := P.narrate(e, NAMES))]
    assert " 💀 **Bob** (B) vezére elesik!" in lines[1]
    assert lines[-1] == "🏆 **Ann** (A) nyert — az ellenséges vezér elesett."
    assert P.result_lines(ENGINE.result(state), NAMES[:2])[0] == "Győztes: **Ann** (A), 1 forduló után."


def test_hungarian_typed_moves(lang):
    lang("hu")
    state = midgame()
    view, panel = panel_of(state)
    legal = ENGINE.legal_actions(state, 0)

    def parsed(text):
        a = legal[P.parse(view, panel.choices, text)]
        return a if a["type"] == "pass" else (a["from"], a["to"], a["leader"])

    assert parsed("passz") == parsed("Passz ebben a körben") == parsed("pass") == {"type": "pass"}
    assert parsed("vezér H-D4 T-D8") == ("H-D4", "T-D8", True)
    assert parsed("vezérrel lépek H-D4-ről T-D8-ra") == ("H-D4", "T-D8", True)
    assert parsed("bábu H-D4 T-D8") == ("H-D4", "T-D8", False)
    assert parsed("be T-A1") == ("off", "T-A1", False)
    assert parsed("leader H-D4 T-D8") == ("H-D4", "T-D8", True)
    assert parsed("T-C6 → H-C3 (1 manna)") == ("T-C6", "H-C3", False)
    errors = {
        "": "Írj be egy lépést",
        "tánc": "Nem értem: „tánc”",
        "H-A1 T-A1": "Nincs olyan bábud a H-A1 mezőn",
        "H-Q1 T-A1": "Ezen a táblán nincs H-Q1 mező",
        "D4 D8": "Írd ki: H-D4 a HEX, T-D4 a TRI",
        "T-D8": "Több bábu is eljuthat ide: T-D8 — bábu a H-D4 mezőn, a vezéred a H-D4 mezőn "
                r"\(`vezér H-D4`\)",
        "vezér T-C6 H-C3": "A vezéred nincs a T-C6 mezőn",
    }
    for text, words in errors.items():
        with pytest.raises(ValueError, match=words):
            P.parse(view, panel.choices, text)


def test_polish_panel_prompt_narration_and_words(lang):
    lang("pl")
    state = midgame()
    view, panel = panel_of(state)
    assert [g for g, _ in panel.groups()] == ["Wprowadź pionek (czeka: 4)", "Pionek na H-D4 (tu: 2)",
                                              "Wódz 👑 na H-D4", "Pionek na T-C6 (tu: 1)", "Pas"]
    leader = dict(panel.groups())["Wódz 👑 na H-D4"]
    assert any(c.label.endswith("(darmowy krok + 1 many)") for c in leader)
    assert panel.prompt.startswith("runda 1/60, faza ruchu: rusz jeden pionek")
    assert panel.prompt.endswith("masz 5 many, zostaje też darmowy krok wodza.")
    pass_button = next(c for c in panel.choices if c.group == "Pas")
    assert pass_button.label == "Pasuję w tej kolejce"
    assert all(len(c.label) <= 80 and (c.description is None or len(c.description) <= 100) for c in panel.choices)

    assert P.narrate(BATTLE, NAMES) == ("⚔️ Bitwa na H-C3 (**Ann** (A) 3 · **Cy** (C) 1): **Ann** (A) traci 1, "
                                        "**Cy** (C) traci 1; **Ann** (A) utrzymuje H-C3. Zdjęte: 2 pionki; każdy "
                                        "zostawia 1 manę na swoim polu i pauzuje w następnej rundzie.")
    assert P.narrate(PRODUCTION, NAMES) == ("💎 Produkcja w rundzie 4: **Ann** (A) +1 (H-A1 +1); "
                                            "**Bob** (B) +2 (H-B2 +2).")
    assert P.narrate({"type": "figures_return", "seat": 0, "count": 2}, NAMES).startswith("↩️ **Ann** (A): 2 pionki")
    eliminated = {"type": "eliminated", "seat": 1, "figures_removed": 5, "by": [0]}
    assert P.narrate(eliminated, NAMES) == ("💀 **Ann** (A) pokonuje wodza gracza **Bob** (B): drużyna (5 pionków) "
                                            "schodzi z planszy, **Bob** (B) odpada z gry.")
    assert [P.count("figure", n) for n in (1, 3, 5, 12, 22)] == ["1 pionek", "3 pionki", "5 pionków", "12 pionków",
                                                                 "22 pionki"]

    legal = ENGINE.legal_actions(state, 0)
    assert legal[P.parse(view, panel.choices, "pas")] == {"type": "pass"}
    a = legal[P.parse(view, panel.choices, "wódz H-D4 T-D8")]
    assert (a["from"], a["to"], a["leader"]) == ("H-D4", "T-D8", True)
    a = legal[P.parse(view, panel.choices, "spoza T-A1")]
    assert (a["from"], a["to"], a["leader"]) == ("off", "T-A1", False)
    a = legal[P.parse(view, panel.choices, "pionek z H-D4 na T-D8")]
    assert (a["from"], a["to"], a["leader"]) == ("H-D4", "T-D8", False)
    with pytest.raises(ValueError, match="Nie rozumiem „taniec”"):
        P.parse(view, panel.choices, "taniec")


def test_polish_battle_losses(lang):
    lang("pl")
    state, _ = battle_position()
    view, panel = panel_of(state, 1)
    assert panel.prompt.startswith("bitwa na H-D4: masz tam 3 pionki, tracisz z nich 2")
    assert [c.label for c in panel.choices] == ["Tracisz 2 zwykłe pionki, wódz zostaje",
                                                "Wódz wśród 2 straconych (twoja drużyna odpada!)"]
    legal = ENGINE.legal_actions(state, 1)
    assert legal[P.parse(view, panel.choices, "zachowaj")]["leader"] is False
    assert legal[P.parse(view, panel.choices, "trać wodza")]["leader"] is True


def test_english_is_back_after_the_language_is_reset(lang):
    lang("pl")
    lang(None)
    view, panel = panel_of(midgame())
    assert panel.groups()[-1][0] == "Pass"
    assert P.narrate({"type": "pass", "seat": 1}, NAMES) == "**Bob** (B) passes."
