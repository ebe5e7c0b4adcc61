"""Hector and Achilles narration and buttons (issue 11): sums and scores name the sides, Achaeans first, and the
score line says which colours scored; the Retreat button states its Shame cost; the save-hero prompt states
the Divine Favour tokens left."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.locale import use_language
from host.presenters import PRESENTERS
from tests.engines.test_hector_achilles_battle import T_LAST, _achaeans_lose, _retreat_position, finish

E = ENGINES["hector-achilles"]
P = PRESENTERS["hector-achilles"]
NAMES = ["Ann", "Bob"]


@pytest.fixture(autouse=True)
def english():
    use_language(None)
    yield
    use_language(None)


def test_round_strength_names_the_sides_achaeans_first():
    rotate = {"type": "fate_phase", "round": 1, "totals": [8, 7], "rotator": 0}
    assert P.narrate(rotate, NAMES) == "Round 1 strength: Achaeans 8 – Trojans 7; **Ann** (Achaeans) must turn the fate tile."
    tie = {"type": "fate_phase", "round": 3, "totals": [9, 9], "rotator": None}
    assert P.narrate(tie, NAMES) == "Round 3 strength: Achaeans 9 – Trojans 9; equal: the fate tile stays."


def test_score_line_names_the_sides_and_the_colours_that_scored():
    scored = {"type": "battle_scored", "scores": [9, 11], "winner": 1,
              "scoring_colours": [["yellow", "green"], ["blue", "purple"]]}
    assert P.narrate(scored, NAMES) == ("Score: Achaeans 9 (yellow + green) – Trojans 11 (blue + purple): "
                                        "**Bob** (Trojans) wins the battle!")
    use_language("hu")
    assert P.narrate(scored, NAMES) == ("Eredmény: Akhájok 9 (sárga + zöld) – Trójaiak 11 (kék + lila), "
                                        "**Bob** (Trójaiak) nyeri a csatát!")
    use_language("pl")
    tie = {**scored, "scores": [6, 6], "winner": None}
    assert P.narrate(tie, NAMES).startswith("Wynik: Achajowie 6 (żółty + zielony) – Trojanie 6 (niebieski + ")


def test_a_real_battle_is_narrated_achaeans_first():
    state = _achaeans_lose()
    card = state["battle"]["hand"][1][0]
    events = E.apply(state, 1, {"type": "play", "card": card})
    lines = [P.narrate(e, NAMES) for e in events]
    phase = next(x for x in lines if x and x.startswith("Round 4 strength"))
    assert phase.index("Achaeans") < phase.index("Trojans")


def _retreat_label(shame: int) -> str:
    state = _retreat_position()
    state["players"][0]["shame"] = shame
    state["shame_pool"] = 6 - shame
    view = E.view(state, 0)
    index = view["legal"].index({"type": "retreat"})
    return P.describe(view, view["legal"][index], index).label


def test_retreat_button_states_its_shame_cost():
    assert _retreat_label(0) == "Retreat: lose the battle, take Shame 1/3"
    assert _retreat_label(1) == "Retreat: lose the battle and 1 more troop, take Shame 2/3"
    assert _retreat_label(2) == "Retreat: lose the battle and 2 more troops, take Shame 3/3"
    assert _retreat_label(3) == "Retreat: lose the battle and 3 more troops (Shame already 3/3)"
    use_language("pl")
    assert _retreat_label(2) == "Odwrót: przegrana bitwa i jeszcze 2 karty wojska, Hańba 3/3"


def test_save_hero_prompt_states_the_tokens_left():
    state = _achaeans_lose()  # one token on a card, two in reserve
    finish(state, T_LAST, "red")
    assert state["phase"] == "save_hero"
    view = E.view(state, 0)
    assert view["sides"][0]["favour"] == 2
    assert P.prompt(view) == ("you lost the battle: spend a Divine Favour token to save Achilles? "
                              "Favour tokens left: 2 (saving leaves 1).")
    use_language("hu")
    assert "Megmaradt jelzőid: 2 (mentés után 1)" in P.prompt(view)
