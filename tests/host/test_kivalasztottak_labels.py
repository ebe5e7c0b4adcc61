"""Kiválasztottak buttons and narration (issue 11): "#n" tags kept in narration, obstacles' reveal cost, the
first of two passes, labels cut at word boundaries with the card and target kept."""

from __future__ import annotations

from engines import ENGINES
from engines.rng import Rng
from host.locale import use_language
from host.panels import MAX_LABEL
from host.presenters import PRESENTERS
from host.presenters.kivalasztottak import _shorten
from tests.engines.kivalasztottak.helpers import act, add, blank, pass_, who

E = ENGINES["kivalasztottak"]
P = PRESENTERS["kivalasztottak"]
NAMES = ["Ann", "Bob"]


def _labels(st, seat):
    view = E.view(st, seat)
    return [P.describe(view, a, i).label for i, a in enumerate(E.legal_actions(st, seat))]


def test_narration_keeps_the_number_tag_the_buttons_use():
    st = blank(mp=(10, 10))
    sniper = add(st, 0, "kraniorvlovesz", "row")
    add(st, 1, "vadasz", "row")
    second = add(st, 1, "vadasz", "row")
    assert "Kráni Sniper: 1 damage (1 MP, tap) → Hunter #2" in _labels(st, 0)
    events = act(st, 0, {"type": "activate", "card": sniper, "ability": 0, "target": second})
    lines = [P.narrate(e, NAMES) for e in events]
    assert any("Hunter #2" in (ln or "") for ln in lines), lines
    while st["thread"]:
        events = pass_(st)
        lines += [P.narrate(e, NAMES) for e in events]
    assert any(ln and "Hunter #2" in ln and "damage" in ln for ln in lines), lines


def test_an_obstacle_in_hand_shows_its_reveal_cost_not_free():
    st = blank(mp=(10, 10))
    add(st, 0, "farkasvadaszat", "quests")
    add(st, 0, "vadaszkopok", "hand")  # Hunting Hounds: 2 MP to reveal
    view = E.view(st, 0)
    groups = {P.describe(view, a, i).group for i, a in enumerate(E.legal_actions(st, 0)) if a["type"] == "summon"}
    assert groups == {"Hunting Hounds (reveal: 2 MP)"}
    assert not any("free" in g for g in groups)


def test_the_first_of_two_passes_neither_resolves_nor_closes():
    st = blank(mp=(14, 10))
    add(st, 0, "vadasz", "hand")
    act(st, 0, {"type": "summon", "card": st["p"][0]["hand"][0]})
    assert "Pass (your opponent may still act)" in _labels(st, 0)
    pass_(st)
    assert "Pass (let the top item resolve)" in _labels(st, 1)
    pass_(st)  # the Hunter resolves; the thread is open and empty
    first = who(st)
    assert st["thread"] == [] and "Pass (your opponent may still act)" in _labels(st, first)
    assert not any("close the thread" in lab for lab in _labels(st, first))
    pass_(st)
    assert "Pass (close the thread)" in _labels(st, 1 - first)


def test_labels_are_cut_at_word_boundaries():
    long = "Dorgan Bloodhand: " + "attack for two damage and more words " * 4 + "→ Clan Warrior #2"
    short = _shorten(long)
    assert len(short) <= MAX_LABEL and short.endswith("…")
    assert long.startswith(short[:-1]) and long[len(short) - 1] == " "  # a whole word was the last kept


def test_a_long_effect_gives_way_so_that_card_and_target_are_kept():
    label = P._fitted("label_activate_target", "what", card="Old Greypelt", what="neutralise " * 20,
                      target="Dorgan Bloodhand #2")
    assert len(label) <= MAX_LABEL
    assert label.startswith("Old Greypelt: neutralise") and label.endswith("… → Dorgan Bloodhand #2")


def test_every_label_of_random_games_fits_and_is_never_cut_inside_a_word():
    for lang in ("en", "hu", "pl"):
        use_language(lang)
        try:
            st = E.new_game(2, 5, {})
            rng = Rng(2)
            for _ in range(300):
                if not E.to_act(st):
                    break
                seat = rng.choice(E.to_act(st))
                legal = E.legal_actions(st, seat)
                view = E.view(st, seat)
                for i, a in enumerate(legal):
                    label = P.describe(view, a, i).label
                    assert 0 < len(label) <= MAX_LABEL
                E.apply(st, seat, rng.choice(legal))
        finally:
            use_language(None)


def test_the_rules_pages_teach_the_active_player_first_in_a_thread():
    from pathlib import Path
    rules = Path(__file__).resolve().parents[2] / "data" / "rules"
    en = (rules / "kivalasztottak.md").read_text(encoding="utf-8")
    hu = (rules / "kivalasztottak.hu.md").read_text(encoding="utf-8")
    pl = (rules / "kivalasztottak.pl.md").read_text(encoding="utf-8")
    assert "the opponent may answer first" not in en and "**active\nplayer acts first**" in en
    assert "először az ellenfél reagálhat" not in hu and "**először\naz aktív játékos cselekedhet**" in hu
    assert "pierwszy może odpowiedzieć przeciwnik" not in pl and "**pierwszy działa\naktywny gracz**" in pl
    assert "you pay its MP" in en and "equipping and unequipping" in en
