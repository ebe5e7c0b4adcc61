"""Kiválasztottak in Hungarian and Polish: panels, prompts and narration of real positions come out in the
game's language; Hungarian games use the cards' Hungarian names and condition words, Polish ones keep the
English card names (the cards have no Polish names)."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.locale import current_language, use_language
from host.presenters import PRESENTERS
from tests.engines.kivalasztottak.helpers import act, add, blank, team, to_decision

E = ENGINES["kivalasztottak"]
P = PRESENTERS["kivalasztottak"]
NAMES = ["Ann", "Bob"]


@pytest.fixture
def language():
    def use(lang):
        use_language(lang)
        assert current_language() == lang

    yield use
    use_language(None)


def _sniper_position():
    """Ann (seat 0) has a Kráni Sniper in her Row and a Hunter in hand; Bob has a Clan Warrior."""
    st = blank(mp=(10, 10))
    add(st, 0, "kraniorvlovesz", "row")
    add(st, 1, "klanharcos", "row")
    hunter = add(st, 0, "vadasz", "hand")
    return st, hunter


def _panel(st, seat):
    view = E.view(st, seat)
    return P.prompt(view), [P.describe(view, a, i) for i, a in enumerate(E.legal_actions(st, seat))]


def _solve_position():
    st = blank(mp=(12, 10))
    quest = add(st, 0, "szerzodes", "quests")
    hunter = add(st, 0, "fejvadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": quest})
    team(st, 0, [hunter])
    to_decision(st)
    return st


def test_hungarian_panel_prompt_and_narration_use_the_rulebook_words_and_hungarian_card_names(language):
    language("hu")
    st, hunter = _sniper_position()
    prompt, choices = _panel(st, 0)
    assert prompt.startswith("te vagy az aktív játékos (10 MP, az ellenfélnek 10)")
    labels = {c.label for c in choices}
    groups = {c.group for c in choices}
    assert {"Passz", "Vadász leidézése (2 MP)", "Ostrom: az ellenfél 1. toronyszintje (2 MP)",
            "Kráni orvlövész: 1 sebzés (1 MP, elforgatás) → Klánharcos"} <= labels
    assert {"Passz", "Vadász (2 MP)", "Kráni orvlövész: képesség", "Manőver kezdeményezése"} <= groups
    assert not any("Hunter" in label or "Sniper" in label for label in labels)
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "summon", "card": hunter})]
    assert "**Ann** (A) leidézi: **Vadász** (2 MP)." in lines
    assert P.prompt(E.view(st, 1)) == ("időfonal (1 elem), legfelül: Vadász (betette: az ellenfeled). "
                                       "Élj gyors hatással, vagy passzolj.")
    # a typed move matches the Hungarian labels
    st, _ = _sniper_position()
    _, choices = _panel(st, 0)
    by_label = {c.label: c.index for c in choices}
    assert P.parse(E.view(st, 0), choices, "vadasz") == by_label["Vadász leidézése (2 MP)"]


def test_hungarian_quest_solving_says_the_hungarian_quest_and_condition(language):
    language("hu")
    st = _solve_position()
    prompt, choices = _panel(st, 0)
    assert prompt.startswith("küldetés megoldása (A fejvadász szerződése)")
    assert [c.label for c in choices] == ["1. feltétel: zsoldos + Lesvetés II (2 MP)", "Nem oldom meg"]
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "solve", "condition": 0})]
    assert "🏆 **Ann** (A) megoldja: **A fejvadász szerződése** (zsoldos + Lesvetés II), 2 MP-ért: **+3 DP**." in lines


def test_hungarian_narration_of_engine_events_and_towers():
    use_language("hu")
    try:
        assert P.narrate({"type": "died", "seat": 1, "card": "KV1-04", "name": "Clan Warrior"}, NAMES) == \
            "💀 Meghal **Bob** (B) kalandozója: **Klánharcos**."
        assert P.narrate({"type": "maneuver_declared", "seat": 0, "kind": "siege", "target": "tower-1-0",
                          "cost": 2}, NAMES) == "⚔️ **Ann** (A) **ostromot** kezdeményez: **Bob** (B) 1. toronyszintje (2 MP)."
        assert P.narrate({"type": "ranks", "seat": 0, "front": ["KV0-02"], "back": ["KV0-03"],
                          "front_names": ["Hunter"], "back_names": ["Trapper"]}, NAMES) == \
            "**Ann** (A) hadrendje — frontemberek: Vadász; védettek: Csapdaállító."
        assert P.narrate({"type": "summoned_hidden", "seat": 1, "location": "tower-1-0", "uid": "T2"}, NAMES) == \
            "**Bob** (B) rejtett akadálylapot csatol ide: saját 1. toronyszintje."
    finally:
        use_language(None)
    # English is unchanged once the language is reset
    assert P.narrate({"type": "died", "seat": 1, "card": "KV1-04", "name": "Clan Warrior"}, NAMES) == \
        "💀 **Bob** (B)'s **Clan Warrior** dies."


def test_polish_panel_prompt_and_narration_keep_the_english_card_names(language):
    language("pl")
    st, hunter = _sniper_position()
    prompt, choices = _panel(st, 0)
    assert prompt.startswith("jesteś aktywnym graczem (10 MP, przeciwnik 10)")
    labels = {c.label for c in choices}
    assert {"Pas", "Przywołaj Hunter (2 MP)", "Oblężenie: poziom wieży 1 przeciwnika (2 MP)",
            "Kráni Sniper: 1 pkt obrażeń (1 MP, obrócenie) → Clan Warrior"} <= labels
    assert "Rozpocznij manewr" in {c.group for c in choices}
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "summon", "card": hunter})]
    assert "**Ann** (A) przywołuje kartę **Hunter** (2 MP)." in lines
    assert P.prompt(E.view(st, 1)).startswith("nić czasu (elementy: 1), na górze: Hunter (położył: przeciwnik)")
    st = _solve_position()
    _, choices = _panel(st, 0)
    assert [c.label for c in choices] == ["Warunek 1: mercenary + Ambushing II (płacisz 2 MP)", "Nie wykonuj"]
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "solve", "condition": 0})]
    assert "🏆 **Ann** (A) wykonuje misję **The Bounty Contract** (mercenary + Ambushing II), płacąc 2 MP: **+3 DP**." \
        in lines


def test_opening_lines_and_results_in_both_languages(language):
    view = E.view(E.new_game(2, 0, {}), 0)
    language("hu")
    assert P.opening_lines(view, NAMES)[0] == ("Paklik: **Ann** (A) paklija: A Vadászház (The Hunters' Lodge); "
                                               "**Bob** (B) paklija: A Medve-klán (The Bear Clan).")
    assert P.result_lines({"winner": 0, "scores": [11, 4], "reason": "dp11"}, NAMES)[0] == \
        "Győztes: Ann (A) — legalább 11 DP és több, mint az ellenfélé a forduló zárásakor."
    language("pl")
    assert P.narrate({"type": "game_over", "reason": "towers", "winner": 1}, NAMES) == \
        "🏆 Wygrywa **Bob** (B): przeciwnikowi nie został żaden poziom wieży."


@pytest.mark.parametrize("lang", ["hu", "pl"])
def test_every_event_kind_has_a_sentence_in_each_language(language, lang):
    from tests.host.test_kivalasztottak_presenter import EVENTS

    language(lang)
    for e in EVENTS:
        line = P.narrate(e, NAMES)
        assert line and "{" not in line and "None" not in line and "KV" not in line and "tower-" not in line, (e, line)
        if lang == "hu":  # the Hungarian names, never the English ones
            assert not any(w in line for w in ("Hunter", "Clan Warrior", "Wolf Hunt", "Cave Bear", "'s ")), line
