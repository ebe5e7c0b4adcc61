"""Hector and Achilles in Hungarian and Polish: a real position's buttons and prompt, and narrated events, use
the rulebook's words; typed moves work in the game's language and in English."""

from __future__ import annotations

import pytest

from engines import ENGINES
from engines.hector_achilles.data import HEROES
from engines.rng import Rng
from host.locale import use_language
from host.presenters import PRESENTERS

E = ENGINES["hector-achilles"]
P = PRESENTERS["hector-achilles"]
NAMES = ["Ann", "Bob"]


@pytest.fixture
def lang():
    def use(code: str | None) -> None:
        use_language(code)
    yield use
    use_language(None)


def advance_to(kind: str, seed: int = 4):
    """A real game played at random until the seat to act faces a decision of ``kind``."""
    state = E.new_game(2, seed, {})
    rng = Rng(seed)
    for _ in range(500):
        seat = E.to_act(state)[0]
        view = E.view(state, seat)
        if (view.get("decision") or {}).get("kind") == kind:
            return state, seat, view
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
    raise AssertionError(f"no {kind} decision")


def labels(view: dict) -> list:
    return [P.describe(view, a, i) for i, a in enumerate(view["legal"])]


def test_opening_in_hungarian(lang):
    lang("hu")
    state = E.new_game(2, 4, {})
    view = E.view(state, 0)
    choices = labels(view)
    assert P.prompt(view) == "1. csata: vedd fel az előhadat — válaszd ki, melyik pakliból."
    assert {c.group for c in choices} == {"Előhad"}
    assert any(c.label == "Előhad innen: hazai pakli (12 lap)" for c in choices)
    assert any(c.label == "Előhad innen: 1. pakli (12 lap)" for c in choices)
    assert P.seat_labels == ["Akhájok", "Trójaiak"]
    # typed in Hungarian and, in a Hungarian game, in English too
    hungarian = P.parse(view, choices, "hazai pakli")
    english = P.parse(view, choices, "vanguard from the home deck")
    assert hungarian == english and view["legal"][hungarian]["deck"] == "home"


def test_a_round_in_hungarian_uses_the_rulebook_words(lang):
    lang("hu")
    _, _, view = advance_to("optional_or_play")
    choices = labels(view)
    assert P.prompt(view).startswith("1/4. forduló: játssz ki egy csapatlapot")
    groups = {c.group for c in choices}
    assert {"Csapatlap kijátszása", "Visszavonulás", "Kártya cseréje (végleg kikerül)"} <= groups
    played = [c.label for c in choices if c.label.startswith("Kijátszás: ")]
    words = ("vörös", "zöld", "kék", "sárga", "lila", "barna")
    kinds = ("parittyás", "íjász", "lándzsás", "hoplita")
    assert played and all(any(w in x for w in words) and any(k in x for k in kinds) for x in played)
    assert "Visszavonulás: elveszted a csatát, Szégyen 1/3" in {c.label for c in choices}
    hero = view["hand_hero"]["name"]
    assert any(c.label.startswith(f"{hero} ráhelyezése: ") for c in choices)
    # "pass"-like and English typed moves
    assert P.parse(view, choices, "visszavonulás") == P.parse(view, choices, "retreat")


def test_events_in_hungarian(lang):
    lang("hu")
    achilles = {k: v for k, v in HEROES["HA-A-Achilles"].items() if k != "id"}
    card = {"colour": "blue", "strength": 3, "kind": "spearman"}
    assert P.narrate({"type": "card_played", "seat": 0, "card": card}, NAMES) == \
        "**Ann** (Akhájok) kijátssza: kék 3 (lándzsás)."
    assert P.narrate({"type": "hero_played", "seat": 0, "on": card, "hero": achilles}, NAMES) == \
        "**Ann** (Akhájok) kijátssza a hősét, Achilles (vörös 6), erre: kék 3 (lándzsás)."
    assert P.narrate({"type": "fate_rotated", "seat": 1, "facing": ["yellow", "purple"], "direction": "ccw"},
                     NAMES) == ("**Bob** (Trójaiak) az óramutatóval ellentétesen forgatja a Sors lapot: **Ann** (Akhájok) felé sárga, "
                                "**Bob** (Trójaiak) felé lila.")
    assert P.narrate({"type": "shame_taken", "seat": 1, "shame": 2}, NAMES) == "**Bob** (Trójaiak) Szégyen jelzőt kap (2/3)."
    assert P.narrate({"type": "game_over", "winner": 0, "reason": "no_troops"}, NAMES) == \
        "🏆 **Ann** (Akhájok) megnyerte a háborút: az ellenfélnek nem maradt csapatlapja."


def test_fate_tile_and_events_in_polish(lang):
    lang("pl")
    _, _, view = advance_to("orient_fate")
    choices = labels(view)
    assert P.prompt(view) == "połóż płytkę losu: wybierz kolor zwrócony do ciebie."
    assert {c.group for c in choices} == {"Połóż płytkę losu"}
    polish = ("Czerwony", "Zielony", "Niebieski", "Żółty", "Fioletowy", "Brązowy")
    assert all(c.label.split(" do mnie, ")[0] in polish and c.label.endswith(" do rywala") for c in choices)
    hector = {k: v for k, v in HEROES["HA-T-Hector"].items() if k != "id"}
    assert P.narrate({"type": "hero_lost", "seat": 1, "hero": hector}, NAMES) == "**Bob** (Trojanie) traci bohatera: Hektor."
    assert P.narrate({"type": "hero_in_danger", "seat": 1, "hero": hector}, NAMES) == \
        "**Bob** (Trojanie) może wydać żeton Boskiej Łaski, by ocalić bohatera: Hektor (niebieski 6)."
    assert P.narrate({"type": "battle_started", "battle": 2, "attacker": 1}, NAMES) == \
        "⚔️ **Bitwa 2** — atakuje **Bob** (Trojanie)."
    assert P.narrate({"type": "vanguard_taken", "seat": 0, "deck": "home",
                      "card": {"colour": "green", "strength": 1, "kind": "slinger"}}, NAMES) == \
        "**Ann** (Achajowie) dobiera awangardę (talia domowa): zielony 1 (procarz)."


def test_a_round_in_polish(lang):
    lang("pl")
    _, _, view = advance_to("optional_or_play")
    choices = labels(view)
    assert P.prompt(view).startswith("runda 1/4: zagraj oddział")
    assert "Odwrót: przegrana bitwa, Hańba 1/3" in {c.label for c in choices}
    assert {"Zagraj oddział", "Odwrót"} <= {c.group for c in choices}
    assert P.parse(view, choices, "odwrót") == P.parse(view, choices, "retreat")


def test_english_is_unchanged(lang):
    lang(None)
    state = E.new_game(2, 4, {})
    view = E.view(state, 0)
    assert any(c.label == "Vanguard from the home deck (12 cards)" for c in labels(view))
    achilles = {k: v for k, v in HEROES["HA-A-Achilles"].items() if k != "id"}
    assert P.narrate({"type": "hero_lost", "seat": 0, "hero": achilles}, NAMES) == "**Ann** (Achaeans) loses the hero Achilles."
