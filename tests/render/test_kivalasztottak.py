"""Kiválasztottak pictures: golden snapshots of fixed views, secrecy of the pictures' inputs, size and speed."""

from __future__ import annotations

import time

from render import RENDERERS
from render import kivalasztottak as R
from tests.engines.kivalasztottak.helpers import E, act, add, blank, combat
from tests.render.snapshot import assert_snapshot


def _midgame():
    st = blank(mp=(20, 12))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "vadaszmester", "allies")
    add(st, 0, "borpancel", "store")
    add(st, 0, "farkasvadaszat", "solved")
    q = add(st, 1, "griff", "quests")
    add(st, 1, "verem", "attached", on=q, up=False)
    add(st, 0, "szerzodes", "quests")
    add(st, 0, "vadasz", "row", state="resting")
    add(st, 0, "csapdaallito", "row", state="injured")
    d = add(st, 0, "dorgan", "row")
    add(st, 0, "vadaszkes", "worn", on=d)
    f = add(st, 0, "fejvadasz", "row")
    add(st, 1, "klanharcos", "row")
    u = add(st, 1, "ugra", "row")
    add(st, 1, "szellemtotem", "worn", on=u)
    add(st, 1, "nyomkereso", "row")
    for k in ("kardcsapas", "nyilzapor", "menedek", "griff", "verem", "orvtamadas", "vadasz"):
        add(st, 0, k, "hand")
    combat(st, [d, f], [u], front_a=[d])
    act(st, 0, {"type": "summon", "card": st["p"][0]["hand"][0], "by": d, "target": u})
    return st


def test_registered():
    assert RENDERERS["kivalasztottak"] is R


def test_table_during_combat_snapshot():
    assert_snapshot("kivalasztottak-combat", R.render_public(E.view(_midgame(), 0)))


def test_spectator_sees_no_hidden_tower_snapshot():
    view = E.view(_midgame(), None)
    assert all(t.get("hidden") for t in view["players"][0]["towers"])
    assert_snapshot("kivalasztottak-spectator", R.render_public(view))


def test_private_hand_snapshot():
    view = E.view(_midgame(), 0)
    assert R.render_private(E.view(_midgame(), None)) is None
    assert_snapshot("kivalasztottak-hand", R.render_private(view))


def test_opening_snapshot():
    st = E.new_game(2, 11, {})
    assert_snapshot("kivalasztottak-opening", R.render_public(E.view(st, 1)))


def test_pictures_are_small_fast_and_deterministic():
    view = E.view(_midgame(), 0)
    png = R.render_public(view)
    assert png == R.render_public(view) and len(png) < 150_000
    t = time.perf_counter()
    for _ in range(5):
        R.render_public(view)
        R.render_private(view)
    assert (time.perf_counter() - t) / 5 < 0.5  # generous: the CI machine is shared


def test_random_game_views_render():
    from engines.rng import Rng
    st = E.new_game(2, 4, {})
    rng = Rng(9)
    n = 0
    while E.to_act(st) and n < 400:
        seat = rng.choice(E.to_act(st))
        E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
        n += 1
        if n % 40 == 0:
            for viewer in (0, 1, None):
                assert R.render_public(E.view(st, viewer))[:4] == b"\x89PNG"


def _hungarian(viewer=0):
    view = E.view(_midgame(), viewer)
    view["lang"] = "hu"
    return view


def test_hungarian_table_snapshot():
    assert_snapshot("kivalasztottak-combat-hu", R.render_public(_hungarian()))


def test_hungarian_hand_snapshot():
    assert_snapshot("kivalasztottak-hand-hu", R.render_private(_hungarian()))


def test_hungarian_picture_differs_and_names_cards_in_hungarian(monkeypatch):
    english, hungarian = E.view(_midgame(), 0), _hungarian()
    assert R.render_public(hungarian) != R.render_public(english)
    assert R.render_private(hungarian) != R.render_private(english)
    drawn: list[str] = []
    real = R._t

    def spy(draw, xy, s, *args, **kwargs):
        drawn.append(s)
        return real(draw, xy, s, *args, **kwargs)

    monkeypatch.setattr(R, "_t", spy)
    R._card_sprite.cache_clear()  # (cards drawn above are pasted from kept sprites: drawn again for the spy)
    R.clear_caches()  # (and the sides drawn above are pasted whole: drawn again)
    R.render_public(hungarian)
    R.render_private(hungarian)
    text = "\n".join(drawn)
    assert "★ Vérkezű" in text and "Dorgan" in text and "Nyílzápor" in text and "Bőrpáncél" in text  # name_hu, not name
    assert "IDŐFONAL" in text and "Raktár: Bőrpáncél" in text
    assert "Arrow Volley" not in text and "Leather Armour" not in text and "TIME THREAD" not in text


# -- pictures that read on a phone (issue 11) -------------------------------------------------------------

def _busiest():
    """The fullest table the rules allow on one side: 3 quests with rewards and obstacles, a Row of seven with
    worn gear, 3 buildings, an ally, the Store, solved quests, the omen, a thread of five items."""
    st = _midgame()
    for key in ("farkasvadaszat", "trofea"):
        q = add(st, 0, key, "quests")
        add(st, 0, "verem", "attached", on=q, up=False)
    add(st, 0, "vadaszkes", "attached", on=st["p"][0]["quests"][0])
    for key in ("feherszarvas", "verbosszu"):
        add(st, 1, key, "quests")
    for key in ("vadasz", "kraniorvlovesz", "torpepajzsos"):
        add(st, 0, key, "row", dmg=1)
    for key in ("bestiaszelidito", "orkfejvadasz", "nyomkereso", "ugra"):
        a = add(st, 1, key, "row", state="injured")
        add(st, 1, "medvebunda", "worn", on=a)
    add(st, 1, "szeliditokaram", "buildings")
    add(st, 1, "szurkebunda", "allies")
    add(st, 1, "griff", "solved")
    add(st, 1, "telihold", "events")
    add(st, 0, "orhaz", "buildings")
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "solyomszem", "store")
    add(st, 0, "menedek", "hand")
    add(st, 0, "csapdaleszereles", "hand")
    for key in ("vadaszmester",):
        add(st, 0, key, "allies")
    return st


def _busy_view(viewer=0, lang=None):
    view = E.view(_busiest(), viewer)
    view["player_names"] = ["Annabella Longname", "Bob"]
    if lang:
        view["lang"] = lang
    return view


def test_busiest_table_reads_on_a_phone():
    from tests.render.phone import too_small
    for lang in (None, "hu", "pl"):
        assert too_small(R.render_public, _busy_view(0, lang)) == []
        assert too_small(R.render_public, _busy_view(None, lang)) == []


def test_busiest_hand_reads_on_a_phone():
    from tests.render.phone import too_small
    for lang in (None, "hu", "pl"):
        assert too_small(R.render_private, _busy_view(0, lang)) == []


def _card_labels(view, hu):
    out = []
    for p in view["players"]:
        for zone in ("row", "team", "quests", "towers"):
            out += [c for c in p[zone] if "name" in c]
    return [R._lbl(c, hu) for c in out]


def test_no_card_name_is_cut():
    from tests.render.phone import texts_at_phone_width
    for lang in (None, "hu"):
        view = _busy_view(0, lang)
        for fn in (R.render_public, R.render_private):
            texts, _ = texts_at_phone_width(fn, view)
            drawn = " ".join(t for t, _ in texts)
            assert "…" not in drawn, drawn  # nothing at all is shortened in the busiest pictures
            # (the recorder sees each distinct text once: a name on two lines is checked word by word)
            tokens = set(drawn.split())
            labels = _card_labels(view, lang == "hu") if fn is R.render_public else [
                R._lbl(c, lang == "hu") for c in view["hand"]]
            for label in labels:
                assert set(label.split()) <= tokens, label


def test_busiest_table_snapshot():
    assert_snapshot("kivalasztottak-busiest", R.render_public(_busy_view()))


def _deck_view(lang):
    from engines.kivalasztottak import decks as D
    from host.decks import Deck, deck_view
    spec = D.normalise({"name": "x", "cards": D.presets()["vadaszhaz"]["cards"] + [["futargalamb", 2]],
                        "reserve": [["bardcsapas", 3], ["dobolandzsa", 3], ["ugra", 2], ["klanharcos", 3],
                                    ["menedek", 2], ["telihold", 1]]})
    return deck_view(Deck("Hunters with pigeons, a long name", spec), lang)


def test_a_deck_list_reads_on_a_phone_and_names_every_card_and_what_breaks_the_rules():
    """/deck show's picture (issue 26): every card with its copies, by type, the reserve deck apart, the
    problems and the code; nothing under the phone minimum, no card name cut."""
    from tests.render.phone import texts_at_phone_width, too_small
    for lang in ("en", "hu", "pl"):
        view = _deck_view(lang)
        assert too_small(R.render_deck, view) == []
        texts, (width, height) = texts_at_phone_width(R.render_deck, view)
        drawn = " ".join(t for t, _ in texts)
        names = [c["name"] for s in view["sections"] for g in s["groups"] for c in g["cards"]]
        assert all(name in drawn for name in names)
        assert view["problems"] and view["problems"][0].split()[0] in drawn  # the reserve of 14
        assert "".join(t for t, _ in texts if t.startswith(("Deck code", "Paklikód", "Kod talii")) or
                       all(ch.isalnum() or ch in "-_" for ch in t)).count(view["code"][-8:]) >= 1
        assert width == R.W and height < 1400  # the table pictures' width (480 px)
    png = R.render_deck(_deck_view("en"))
    assert png == R.render_deck(_deck_view("en")) and len(png) < 150_000


def test_the_table_counts_a_reserve_deck_for_both_players():
    from engines.kivalasztottak import decks as D
    from tests.render.phone import texts_at_phone_width, too_small
    spec = {"name": "Bears with pigeons", "cards": D.presets()["medveklan"]["cards"] + [["futargalamb", 2]],
            "reserve": [["bardcsapas", 3], ["dobolandzsa", 3], ["ugra", 2], ["klanharcos", 3], ["menedek", 2],
                        ["telihold", 2]]}
    st = E.new_game(2, 5, {"decks": [spec, "vadaszhaz"]})
    view = E.view(st, 1)
    texts, _ = texts_at_phone_width(R.render_public, view)
    drawn = " ".join(t for t, _ in texts)
    assert "Reserve 15" in drawn and "Bears with pigeons" in drawn
    assert drawn.count("Reserve") == 1, "the starter deck has no reserve: nothing is said of it"
    assert too_small(R.render_public, view) == []


def test_sides_kept_are_the_sides_drawn_through_whole_games(monkeypatch):
    """A side is kept by everything it shows (issue 29): a move that leaves a side as it was pastes it, and the
    boards are the very boards with both sides drawn each time - for spectators and each seat, in three
    languages."""
    from engines.rng import Rng

    drawn = shown = 0
    real = R._side

    def counted(*args):
        nonlocal drawn
        drawn += 1
        return real(*args)

    for seed, lang in ((3, "en"), (4, "hu"), (5, "pl")):
        R.clear_caches()
        rng, state = Rng(seed), E.new_game(2, seed, {})
        views = []
        while E.result(state) is None and len(views) < 150:
            seat = E.to_act(state)[0]
            E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            for viewer in (None, seat):
                views.append({**E.view(state, viewer), "player_names": ["Ann", "Cili 🐙"], "lang": lang})
        monkeypatch.setattr(R, "_side", counted)
        kept = [R.render_public(v) for v in views]
        monkeypatch.setattr(R, "_side", real)
        R.clear_caches()
        monkeypatch.setattr(R, "_kept_side", lambda img, draw, y, view, seat, viewer, key, say, hu:
                            real(draw, y, view, seat, viewer, say, hu))
        assert kept == [R.render_public(v) for v in views], lang
        monkeypatch.undo()
        shown += 2 * len(views)
    assert shown > 600 and drawn < 0.8 * shown  # sides that did not change were pasted


def test_sides_kept_are_bounded():
    R.clear_caches()
    state = E.new_game(2, 1, {})
    for i in range(R._SIDES.limit * 2):
        R.render_public({**E.view(state, None), "player_names": [f"Ann {i}", "Bo"], "lang": "en"})
    assert 0 < len(R._SIDES) <= R._SIDES.limit
