"""Troja pictures: snapshots of fixed views (look at them after UPDATE_SNAPSHOTS=1), size and speed."""

from __future__ import annotations

import time

import pytest

from engines.troja import ENGINE as E
from render import RENDERERS
from render.troja import render_private, render_public
from tests.engines.test_troja_support import (  # noqa: F401 - pinned_heroes is a fixture
    attach,
    challenge,
    give,
    pass_all,
    pinned_heroes,
    roamer,
    stack,
    table,
)
from tests.render.phone import texts_at_phone_width, too_small
from tests.render.snapshot import assert_snapshot


def fight_view():
    """Four heroes, items, waiting Trojans, a battle in its fate window with a wrath played."""
    s = table(["achilles", "nestor", "odysseus", "agamemnon"], gp=[14, 7, 19, 12])
    attach(s, 0, "ash_spear", "bronze_armour")
    attach(s, 3, "myrmidons", "war_chariot", "palladium")
    roamer(s, 1, "hydra", by=0, grow=1)
    roamer(s, 2, "paris", by=3, arrived=False)
    give(s, 1, "aegis", "phalanx", "omen")
    ids = give(s, 0, "spearmen", "hector", "chariots")
    give(s, 0, "ketos", "hermes_gift")
    stack(s, 2, 5, 4)
    challenge(s, 0, 1, ids[0], ids[1], ids[2])
    pass_all(s, ("join",))
    E.apply(s, 2, {"type": "wrath", "side": "attacker"})
    return s


def test_registered():
    assert RENDERERS["troja"].render_public is render_public


#: display names as the host adds them (view["player_names"]): a long one, an emoji, an AI seat
NAMES = ["Ann", "Bartholomew the Unbreakable of Thessaly", "Cili 🐙", "AI 3"]


def test_table_fight_snapshot_names_the_players():
    s = fight_view()
    view = {**E.view(s, 1), "player_names": NAMES}
    assert_snapshot("troja-table-fight", render_public(view))


def test_player_names_on_the_picture():
    """Next to each hero its player's name (emoji too: tests/render/test_names.py); the seat letter when unknown."""
    from render.troja import _who, player_name

    view = {**E.view(fight_view(), None), "player_names": NAMES}
    assert [player_name(view, s) for s in range(4)] == ["Ann", NAMES[1], "Cili 🐙", "AI 3"]
    assert _who(view, 0) == "Ann (A)" and _who(E.view(fight_view(), None), 0) == "A"
    # the names change the picture (the panels are cached by their content, names included)
    assert render_public(view) != render_public(E.view(fight_view(), None))


def test_hand_snapshot_marks_playable_cards():
    s = fight_view()
    view = E.view(s, 1)
    assert view["playable"] == [c for c in view["hand"] if c.startswith("aegis")]
    assert_snapshot("troja-hand", render_private(view))


def test_hand_snapshot_wraps_long_card_facts():
    """A beast's POWER (why it may not be playable) is never cut off: the facts wrap to a second line."""
    s = table(["achilles", "nestor"])
    give(s, 0, "ketos", "sphinx", "hector", "phalanx", "aegis", "hera_intrigue")
    assert_snapshot("troja-hand-facts", render_private(E.view(s, 0)))


def test_table_camp_snapshot_two_players():
    s = E.new_game(2, 7)
    assert_snapshot("troja-table-camp", render_public(E.view(s, None)))


def test_join_window_and_game_over_snapshots():
    s = table(["menelaus", "ajax", "nestor"])
    ids = give(s, 0, "hector", "spearmen")
    give(s, 2, "amazons")
    E.apply(s, 0, {"type": "challenge", "card": ids[0], "target": 1})
    E.apply(s, 0, {"type": "combine", "card": ids[1]})
    E.apply(s, 0, {"type": "launch"})
    assert_snapshot("troja-table-join", render_public(E.view(s, 2)))
    s = table(["achilles", "odysseus"], gp=[12, 22])
    ids = give(s, 0, "spearmen", "archers")
    stack(s, 1, 6)
    challenge(s, 0, 1, *ids)
    pass_all(s)
    assert E.result(s) is not None
    assert_snapshot("troja-table-over", render_public({**E.view(s, None), "player_names": ["Ann", "AI"]}))


def test_spectator_has_no_hand_picture_and_pictures_are_small_and_fast():
    s = fight_view()
    assert render_private(E.view(s, None)) is None
    view = E.view(s, 0)
    render_public(view)
    started = time.perf_counter()
    png = render_public(view)
    elapsed = time.perf_counter() - started
    assert len(png) < 150_000 and len(render_private(view)) < 150_000
    assert elapsed < 0.25  # typically 15-35 ms on a slow shared core; generous for CI


# ------------------------------------------------------------------------------------------ languages


def test_table_fight_snapshot_in_polish():
    """The host adds view["lang"]: every word on the table and the card and hero names are Polish."""
    view = {**E.view(fight_view(), 1), "player_names": NAMES, "lang": "pl"}
    assert_snapshot("troja-table-fight-pl", render_public(view))


def test_hand_snapshot_in_hungarian():
    """Hungarian kinds, facts (a beast's HATALOM wraps, never cut off), rules text and the PLAYABLE mark."""
    s = table(["achilles", "nestor"])
    give(s, 0, "ketos", "sphinx", "hector", "phalanx", "aegis", "hera_intrigue")
    assert_snapshot("troja-hand-hu", render_private({**E.view(s, 0), "lang": "hu"}))


def test_a_polish_picture_differs_from_the_english_one():
    from render import kit
    from render.troja import _panel_words

    s = fight_view()
    english = {**E.view(s, 1), "player_names": NAMES}
    polish = {**english, "lang": "pl"}
    assert render_public(polish) != render_public(english)
    assert render_private(polish) != render_private(english)
    # no lang is English; the panel words (part of the panel cache key) follow the language
    assert render_public({**english, "lang": "en"}) == render_public(english)
    words = _panel_words(polish, 0, kit.words("troja", polish))
    assert words["stats"][0].startswith("SIŁA") and words["wrath"] == "Gniew"
    assert _panel_words({**english, "lang": "hu"}, 0, kit.words("troja", {"lang": "hu"}))["name"] == "Akhilleusz"


# ------------------------------------------------------------------------------- phone width, regressions

def busiest_view():
    """The busiest table: four heroes with long player names, several attachments each, Trojans waiting in
    front of three heroes (one of them grown), a battle of three cards with two modifiers in its fate window,
    an extra fate card and a wrath modifier."""
    s = table(["achilles", "nestor", "odysseus", "agamemnon"], gp=[14, 7, 19, 23])
    attach(s, 0, "ash_spear", "bronze_armour", "heracles_bow", "cretan_archers")
    attach(s, 1, "hephaestus_armour", "war_chariot", "boar_helmet")
    attach(s, 3, "myrmidons", "war_chariot", "palladium", "hoplites", "scouts")
    roamer(s, 1, "hydra", by=0, grow=2)
    roamer(s, 1, "penthesilea", by=2)
    roamer(s, 2, "paris", by=3, arrived=False)
    roamer(s, 3, "ketos", by=1, arrived=False)
    give(s, 1, "aegis", "phalanx")
    ids = give(s, 0, "spearmen", "sarpedon", "chariots")
    ambush, = give(s, 2, "ambush")
    shield, = give(s, 3, "shield_wall")
    stack(s, 5, 4, 2)
    challenge(s, 0, 1, *ids)
    E.apply(s, 1, {"type": "add", "card": give(s, 1, "volley")[0]})
    E.apply(s, 2, {"type": "add", "card": ambush})
    E.apply(s, 3, {"type": "add", "card": shield})
    pass_all(s, ("join",))
    E.apply(s, 0, {"type": "wrath", "side": "attacker"})  # Achilles: Ares, an extra fate card
    E.apply(s, 2, {"type": "wrath", "side": "defender"})  # Odysseus: Athena, +3
    return s


LONG_NAMES = ["Annabelle-Marie of Mykonos", "Bartholomew the Unbreakable of Thessaly", "Cili 🐙", "AI 3"]


def busiest_hand():
    s = table(["achilles", "nestor"])
    give(s, 1, "aeneas", "ketos", "sphinx", "hera_intrigue", "funeral_games", "hephaestus_armour", "phalanx")
    return s


@pytest.mark.parametrize("lang", ["en", "pl", "hu"])
def test_busiest_table_reads_at_phone_width(lang):
    """Every text of the busiest table is at least 9 px high when Discord shows it 420 px wide."""
    s = busiest_view()
    view = {**E.view(s, 1), "player_names": LONG_NAMES, "lang": lang}
    assert view["fight"]["extra"]["attacker"] and view["assault"]["mods"]
    assert too_small(render_public, view) == []
    texts, size = texts_at_phone_width(render_public, view)
    assert size[0] <= 600
    # names are never cut mid-word: every card name on the table is drawn whole
    drawn = " ".join(t for t, _ in texts)
    from engines.troja import name as card_name
    for key in ("spearmen", "sarpedon", "chariots", "hydra", "penthesilea", "paris", "ketos", "hephaestus_armour"):
        assert card_name(key, lang) in drawn


@pytest.mark.parametrize("lang", ["en", "pl", "hu"])
def test_busiest_hand_reads_at_phone_width(lang):
    s = busiest_hand()
    view = {**E.view(s, 1), "lang": lang}
    assert len(view["hand"]) == 7
    assert too_small(render_private, view) == []
    texts, size = texts_at_phone_width(render_private, view)
    drawn = " ".join(t for t, _ in texts)
    from engines.troja import TYPES
    for cid in view["hand"]:
        key = cid.split("#")[0]
        text = TYPES[key]["text"][lang]
        # the whole rules text is drawn (nothing dropped), word by word
        assert all(word in drawn for word in text.split()), key


def test_busiest_pictures_snapshots():
    assert_snapshot("troja-table-busiest", render_public({**E.view(busiest_view(), 1), "player_names": LONG_NAMES}))
    assert_snapshot("troja-hand-busiest", render_private(E.view(busiest_hand(), 1)))


def test_the_board_is_drawn_after_a_cancelled_fight():
    """Aphrodite's Mist calls a fight off: its result has no totals; the board still renders and says so."""
    s = table(["odysseus", "achilles"])
    mist, = give(s, 0, "mist")
    spearmen, = give(s, 0, "spearmen")
    stack(s, 3, 3)
    challenge(s, 0, 1, spearmen)
    pass_all(s, ("join",))
    E.apply(s, 0, {"type": "intervene", "card": mist})
    results = [e for e in E.view(s, None)["last"] if e["type"] == "fight_result"]
    assert results[-1]["cancelled"] and "attacker_total" not in results[-1]
    texts, _ = texts_at_phone_width(render_public, E.view(s, None))
    assert any("cancelled" in t for t, _ in texts)


def test_the_final_picture_shows_the_winners_real_glory():
    """Odysseus at 22 beats a 4-Glory challenge: he wins with 26 Glory, and the picture says 26, not 24."""
    s = table(["achilles", "odysseus"], gp=[12, 22])
    ids = give(s, 0, "amazons", "spearmen")
    stack(s, 1, 6)
    challenge(s, 0, 1, *ids)
    pass_all(s)
    assert E.result(s)["scores"][1] == 26
    texts, _ = texts_at_phone_width(render_public, {**E.view(s, None), "player_names": ["Ann", "AI"]})
    result = [t for t, _ in texts if "wins with" in t]
    assert result and "26 Glory" in " ".join(result) and "24 Glory" not in " ".join(result)


def test_a_hand_that_comes_back_the_same_is_not_drawn_again(monkeypatch):
    """A seat's hand picture is kept by everything it shows (issue 29): the same hand, marks and title give the
    same bytes without drawing; another language, a card made playable or another Glory-free stat (power) draws
    anew."""
    from engines.rng import Rng
    from render import troja

    rng, state = Rng(12), E.new_game(2, 12, {})
    for _ in range(25):
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
    seat = E.to_act(state)[0]
    view = {**E.view(state, seat), "lang": "en", "player_names": ["Ann", "Bob"]}
    assert view["hand"]
    troja._hand_png.cache_clear()
    first = render_private(view)
    drawn: list[int] = []
    real = troja.kit.palette_canvas
    monkeypatch.setattr(troja.kit, "palette_canvas", lambda *a: (drawn.append(1), real(*a))[1])
    # the same hand in a later view (another seat's Glory, the round): the same picture, not drawn
    players = [dict(p) for p in view["players"]]
    players[1 - seat]["gp"] = (players[1 - seat]["gp"] + 3) % 24
    assert render_private({**view, "players": players, "round": view["round"] + 1}) == first and not drawn
    others = [{**view, "lang": "hu"}, {**view, "playable": [] if view.get("playable") else view["hand"][:1]},
              {**view, "players": [{**p, "power": p["power"] + 1} if p["seat"] == seat else p
                                   for p in view["players"]]}]
    for other in others:
        assert render_private(other) != first
    assert len(drawn) == 3
