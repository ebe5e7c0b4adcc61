"""Hector and Achilles pictures: golden snapshots of fixed positions, size, width and speed.

The positions are hand-built with the engine test helpers, so the views are the engine's real views.
Regenerate with UPDATE_SNAPSHOTS=1 and look at every picture before committing.
"""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image

from render import RENDERERS
from render import hector_achilles as R
from tests.engines.test_hector_achilles_support import ENGINE, act, hero, new, position, set_deck, troop
from tests.render.phone import floor, texts_at_phone_width, too_small
from tests.render.snapshot import assert_snapshot


def _battle_view() -> dict:
    """Round 3: the Trojans have just played and must turn the fate tile."""
    state = new(21)
    position(state, rnd=3, turn=1, tile="HA-FATE-1", seat0_facing="green",
             played=([troop(0, "red", 1), troop(0, "red", 3), troop(0, "blue", 2)],
                     [troop(1, "yellow", 2), troop(1, "green", 4)]),
             hand=([troop(0, "brown", 4), troop(0, "purple", 1)],
                   [troop(1, "purple", 4), troop(1, "blue", 1), troop(1, "yellow", 3)]),
             hand_hero=(None, hero(1, "Glaucos")), hero_on=((hero(0, "Achilles"), 0), None), tokens=((1,), ()))
    act(state, 1, {"type": "play", "card": troop(1, "purple", 4)})
    assert state["phase"] == "rotate"
    return ENGINE.view(state, None)


def _result_state() -> dict:
    """The rulebook's example battle, just settled: the next battle waits for its vanguard."""
    state = new(11)
    tom = [troop(0, "yellow", 3), troop(0, "yellow", 4), troop(0, "yellow", 2), troop(0, "red", 1),
           troop(0, "blue", 2)]
    lin = [troop(1, "blue", 1), troop(1, "purple", 3), troop(1, "green", 1), troop(1, "red", 4)]
    # HA-FATE-6 puts yellow opposite blue: turned clockwise, yellow faces Tom and blue faces Lin (9 : 11)
    position(state, rnd=4, turn=1, tile="HA-FATE-6", seat0_facing="brown", played=(tom, lin),
             hand=((), (troop(1, "blue", 3),)), hand_hero=(hero(0, "Aias"), None),
             hero_on=(None, (hero(1, "Acamas"), 0)), tokens=((), (1, 3)))
    act(state, 1, {"type": "play", "card": troop(1, "blue", 3)})
    act(state, 1, {"type": "rotate_fate", "direction": "cw"})
    assert state["phase"] == "vanguard" and state["last_battle"]["scores"] == [9, 11]
    return state


def _opening_view() -> dict:
    state = _result_state()
    act(state, 1, {"type": "take_vanguard", "deck": "2"})
    if state["phase"] == "choose_active":
        act(state, 1, {"type": "choose_active", "deck": "3"})
    return ENGINE.view(state, None)


def _retreat_view() -> dict:
    state = new(6)
    position(state, rnd=2, turn=0, played=([troop(0, "red", 1), troop(0, "red", 2)],
                                           [troop(1, "yellow", 1), troop(1, "yellow", 4)]),
             hand=([troop(0, "blue", 3), troop(0, "blue", 4), troop(0, "green", 1)],
                   [troop(1, "green", 2), troop(1, "green", 3), troop(1, "green", 4)]),
             hand_hero=(hero(0, "Aias"), None), hero_on=(None, (hero(1, "Hector"), 0)))
    state["players"][0]["shame"], state["shame_pool"] = 1, 5
    act(state, 0, {"type": "retreat"})
    return ENGINE.view(state, None)


def _over_view() -> dict:
    state = _result_state()
    # a later, decisive battle: the Achaeans' last front deck falls
    p = state["players"][0]
    for deck in ("2", "3"):
        p["decks"]["home"] += p["decks"][deck]
        p["decks"][deck] = []
        p["eliminated"].append(deck)
    state["battle"]["attacker"] = 1
    position(state, attacker=1, rnd=4, turn=0, tile="HA-FATE-5", seat0_facing="purple",
             played=([troop(0, "green", 2), troop(0, "green", 3), troop(0, "brown", 1), troop(0, "purple", 2)],
                     [troop(1, "purple", 4), troop(1, "purple", 2), troop(1, "blue", 4), troop(1, "blue", 2),
                      troop(1, "brown", 3)]),
             hand=((troop(0, "red", 2),), ()), hand_hero=(hero(0, "Odysseus"), hero(1, "Paris")))
    set_deck(state, 0, "1", state["players"][0]["decks"]["1"][:3])
    act(state, 0, {"type": "play", "card": troop(0, "red", 2)})
    if state["phase"] == "rotate":
        act(state, state["battle"]["rotator"], {"type": "rotate_fate", "direction": "ccw"})
    assert state["phase"] == "over"
    return ENGINE.view(state, None)


def _hand_view() -> dict:
    state = new(21)
    position(state, rnd=1, turn=0, tile="HA-FATE-1", seat0_facing="yellow",
             played=([troop(0, "red", 1)], [troop(1, "yellow", 2)]),
             hand=([troop(0, "yellow", 4), troop(0, "red", 3), troop(0, "green", 2), troop(0, "purple", 1)],
                   [troop(1, "purple", 4), troop(1, "blue", 1), troop(1, "yellow", 3), troop(1, "red", 3)]),
             hand_hero=(hero(0, "Aias"), hero(1, "Glaucos")))
    return ENGINE.view(state, 0)


NAMES = ["Agamemnon the Wide-Ruling King of Mycenae and Lord of Men", "Hécuba"]


CASES = {
    "battle": lambda: R.render_public(_battle_view()),
    # the host adds the players' display names: beside ACHAEANS / TROJANS and in the hand's header, shortened
    "names": lambda: R.render_public({**_battle_view(), "player_names": NAMES}),
    "hand-names": lambda: R.render_private({**_hand_view(), "player_names": NAMES}),
    "result": lambda: R.render_public(ENGINE.view(_result_state(), None)),
    "opening": lambda: R.render_public(_opening_view()),
    "retreat": lambda: R.render_public(_retreat_view()),
    "over": lambda: R.render_public(_over_view()),
    "hand": lambda: R.render_private(_hand_view()),
    # the host adds the game's language: every word on the picture follows it
    "battle-hu": lambda: R.render_public({**_battle_view(), "lang": "hu"}),
    "hand-pl": lambda: R.render_private({**_hand_view(), "lang": "pl"}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_snapshot(name):
    png = CASES[name]()
    assert_snapshot(f"hector-achilles-{name}", png)
    img = Image.open(io.BytesIO(png))
    assert img.width == R.W and len(png) < 150_000


def test_names_are_drawn_only_when_the_host_gives_them():
    view = _battle_view()
    assert R.render_public({**view, "player_names": ["Ann", "Bob"]}) != R.render_public(view)
    # missing or blank names fall back to the sides alone
    for names in ([], ["  ", None]):
        assert R.render_public({**view, "player_names": names}) == R.render_public(view)
    assert R.player_name({"player_names": ["  Ann\n  Lee "]}, 0) == "Ann Lee"
    assert R.player_name({}, 1) is None and R.player_name({"player_names": ["Ann"]}, 1) is None


def test_pictures_speak_the_game_language():
    for view, render in ((_battle_view(), R.render_public), (_over_view(), R.render_public),
                         (_hand_view(), R.render_private)):
        english = render(view)
        assert render({**view, "lang": "en"}) == english
        hungarian, polish = render({**view, "lang": "hu"}), render({**view, "lang": "pl"})
        assert hungarian != english and polish != english and hungarian != polish


def test_renderer_is_registered():
    assert RENDERERS["hector-achilles"] is R


def test_spectator_has_no_private_picture():
    assert R.render_private(_battle_view()) is None


def test_same_view_same_bytes_and_fast():
    view = _battle_view()
    first = R.render_public(view)
    start = time.perf_counter()
    for _ in range(5):
        assert R.render_public(view) == first
    per_picture = (time.perf_counter() - start) / 5
    assert per_picture < 0.08, f"{per_picture * 1000:.0f} ms per picture"


def test_every_phase_of_a_random_game_renders():
    from ai import random_player
    from engines.rng import Rng

    state, rng = new(3), Rng(3)
    phases = set()
    while ENGINE.to_act(state):
        seat = ENGINE.to_act(state)[0]
        view = ENGINE.view(state, seat)
        if view["phase"] not in phases:
            phases.add(view["phase"])
            assert R.render_public(ENGINE.view(state, None))[:4] == b"\x89PNG"
            assert R.render_private(view)[:4] == b"\x89PNG"
        ENGINE.apply(state, seat, random_player(ENGINE, state, seat, rng))
    assert R.render_public(ENGINE.view(state, None))[:4] == b"\x89PNG"
    assert {"vanguard", "orient", "turn", "rotate"} <= phases


# ------------------------------------------------------------------------------------------- on a phone

#: the busiest pictures: a battle in full swing with long player names, a settled battle with six cards a row
#: (the unplayed hero too) and the scores, the end of the war, and a full hand with both scoring colours
PHONE_CASES = {
    "public-battle": lambda lang: (R.render_public, {**_battle_view(), "player_names": NAMES, "lang": lang}),
    "public-result": lambda lang: (R.render_public, {**ENGINE.view(_result_state(), None), "lang": lang}),
    "public-over": lambda lang: (R.render_public, {**_over_view(), "lang": lang}),
    "hand": lambda lang: (R.render_private, {**_hand_view(), "player_names": NAMES, "lang": lang}),
}


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
@pytest.mark.parametrize("case", list(PHONE_CASES))
def test_every_text_reads_at_phone_width(case, lang):
    """Discord shows a picture about 420 px wide: every text (no exemptions) is at least 9 px there."""
    render, view = PHONE_CASES[case](lang)
    assert too_small(render, view, minimum=floor("hector-achilles")) == []
    texts, (width, _) = texts_at_phone_width(render, view)
    assert width == R.W and len(texts) > 20  # the recording saw the picture being drawn


def test_long_player_names_are_shortened_at_a_word():
    for render, view in (PHONE_CASES["public-battle"]("en"), PHONE_CASES["hand"]("en")):
        texts, _ = texts_at_phone_width(render, view)
        shortened = [s for s, _ in texts if "Agamemnon" in s and s != "Agamemnon" and not s.startswith("▶")]
        assert shortened
        for s in shortened:
            name = s.split(" · ")[-1]
            # whole on the board's own line for the player, shortened at a word where it shares a line
            assert name == NAMES[0] or name.endswith("…") and (NAMES[0] + " ").startswith(name[:-1] + " "), s


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_side_panels_kept_are_the_panels_drawn_through_whole_games(lang, monkeypatch):
    """A side's panel is kept by everything it shows (issue 29): a move changes one side's panel at most, so the
    other is pasted; the boards are the very boards with both panels drawn each time."""
    from engines.rng import Rng

    names = [["Ann", "Bartholomew the Unbreakable"], ["Cili 🐙", "Bo"]]
    drawn = 0
    real = R._side_panel

    def counted(*args):
        nonlocal drawn
        drawn += 1
        return real(*args)

    boards = 0
    for seed in (3, 4):
        R.clear_caches()
        rng, state = Rng(seed), ENGINE.new_game(2, seed, {})
        views = []
        while ENGINE.result(state) is None and len(views) < 120:
            seat = ENGINE.to_act(state)[0]
            ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
            views.append({**ENGINE.view(state, None), "player_names": names[seed % 2], "lang": lang})
        monkeypatch.setattr(R, "_side_panel", counted)
        kept = [R.render_public(v) for v in views]
        monkeypatch.setattr(R, "_side_panel", real)
        R.clear_caches()
        monkeypatch.setattr(R, "_kept_side_panel", lambda img, d, view, seat, say: real(img, d, view, seat, say))
        assert kept == [R.render_public(v) for v in views]
        monkeypatch.undo()
        boards += len(views)
    assert boards > 150 and drawn < 0.8 * 2 * boards  # panels that did not change were pasted


def test_side_panels_kept_are_bounded():
    R.clear_caches()
    view = {**ENGINE.view(new(), None), "lang": "en"}
    for i in range(R._PANELS.limit * 2):
        R.render_public({**view, "player_names": [f"Ann {i}", f"Bo {i}"]})
    assert 0 < len(R._PANELS) <= R._PANELS.limit
