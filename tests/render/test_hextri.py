"""HEX-TRI pictures: golden snapshots of fixed views plus size, scale and privacy checks."""

from __future__ import annotations

import io
import math

from PIL import Image

from engines.hextri import ENGINE as E
from engines.rng import Rng
from render import hextri as R
from tests.engines.test_hextri import CENTRE_TRIS, moves_of, pass_round, position
from tests.render.snapshot import assert_snapshot


def _midgame():
    """Leaders on a HEX and a TRI, a contested HEX, mana, stacks, and three moves this round (one entering)."""
    s = position({0: {"H-D4": 3, "H-C3": 2, "T-D8": 1, "H-A1": 1, "H-E3": 1},
                  1: {"H-E3": 1, "H-F2": 4, "T-G4": 1, "H-G2": 2}},
                 {0: "H-D4", 1: "T-G4"}, mana={"H-D4": 5, "H-C3": 2, "H-F2": 3, "H-G2": 1, "T-B3": 1})
    E.apply(s, 0, moves_of(s, 0, "H-C3")["H-B2"])
    E.apply(s, 1, moves_of(s, 1, "off")["T-H4"])
    E.apply(s, 0, moves_of(s, 0, "H-D4", leader=True)["H-D5"])
    return s


def _png(view) -> Image.Image:
    return Image.open(io.BytesIO(R.render_public(view)))


def test_midgame_snapshot():
    s = _midgame()
    assert_snapshot("hextri-r3-midgame", R.render_public(E.view(s, 1)))


def test_player_names_snapshot():
    # the host adds the display names; a long one is shortened, and the rows keep their facts
    s = _midgame()
    s["players"][0]["resting"] = [[14, 2]]
    view = {**E.view(s, 1), "player_names": ["Ann", "Bartholomew the Magnificent, Keeper of Hexagons"]}
    assert_snapshot("hextri-r3-names", R.render_public(view))


def test_names_fall_back_to_letters_when_missing():
    s = _midgame()
    view = E.view(s, None)
    assert R.player_names(view) == [None, None]
    assert R.player_names({**view, "player_names": ["  Ann  Lee ", ""]}) == ["Ann Lee", None]
    plain = R.render_public(view)
    assert R.render_public({**view, "player_names": ["", " "]}) == plain
    assert R.render_public({**view, "player_names": ["Ann", "Bob"]}) != plain


def test_losses_phase_and_last_combat_snapshot():
    enemy = {t: 1 for t in CENTRE_TRIS[:5]}
    s = position({0: {"H-B2": 3, "T-A1": 1, "H-D4": 1, "H-E4": 2}, 1: {"H-B2": 3, **enemy, "T-E9": 1}},
                 {0: "H-B2", 1: "H-B2"}, free_used=(0, 1))
    pass_round(s)
    assert s["phase"] == "losses"
    assert_snapshot("hextri-r3-losses", R.render_public(E.view(s, 0)))
    # what each battle takes is in each player's row, in his language (a box on the board covered field names)
    from tests.render.phone import texts_at_phone_width

    for lang, words in (("en", "to lose: H-B2 −2"), ("hu", "veszteség: H-B2 −2"), ("pl", "straty: H-B2 −2")):
        texts = texts_at_phone_width(R.render_public, {**E.view(s, 0), "lang": lang})[0]
        assert sum(words in t for t, _ in texts) == 2, lang
    E.apply(s, 0, {"type": "losses", "field": "H-B2", "leader": False})
    E.apply(s, 1, {"type": "losses", "field": "H-B2", "leader": False})
    v = E.view(s, None)
    assert v["last_round"]["encircled"] and v["round"] == 2
    assert_snapshot("hextri-r3-after-combat", R.render_public(v))


def test_game_over_snapshot():
    s = position({0: {"H-D4": 1}, 1: {"H-D4": 2, "T-H9": 1}}, {0: "H-D4", 1: "T-H9"}, free_used=(0, 1))
    pass_round(s)
    assert E.result(s) is not None
    assert_snapshot("hextri-r3-over", R.render_public(E.view(s, None)))


def _random_game(n, radius, seed, steps):
    s = E.new_game(n, seed, {"radius": radius})
    rng = Rng(seed)
    for _ in range(steps):
        if not E.to_act(s):
            break
        seat = E.to_act(s)[0]
        actions = E.legal_actions(s, seat)
        moves = [a for a in actions if a["type"] == "move"]
        E.apply(s, seat, rng.choice(moves) if moves and rng.below(5) else rng.choice(actions))
    return s


def test_six_players_radius_five_snapshot():
    s = _random_game(6, 5, 2, 700)
    assert_snapshot("hextri-r5-six", R.render_public(E.view(s, None)))


def test_start_radius_two_snapshot():
    assert_snapshot("hextri-r2-start", R.render_public(E.view(E.new_game(3, 1, {"radius": 2}), 0)))


def test_size_scales_with_the_radius_and_stays_small():
    sizes = {}
    for radius in (2, 3, 4, 5):
        s = _random_game(4, radius, 7, 300)
        png = R.render_public(E.view(s, None))
        # radius 4-5 are drawn in two halves one above the other (so they read on a phone): a taller picture,
        # still a small upload
        assert len(png) < (150_000 if radius < 4 else 250_000)
        sizes[radius] = Image.open(io.BytesIO(png)).size
    assert 960 <= sizes[3][0] <= 1040  # ~1,020 px wide in 30 px type: 12 px at 420 px (tests/render/test_phone.py)
    assert sizes[2][0] <= sizes[3][0] and sizes[4][0] < sizes[5][0] <= sizes[3][0]
    # the halves: about twice the board's height, within what Discord shows (a picture, tapped, is scrolled)
    assert 2 * sizes[3][1] < sizes[5][1] < 4000 and sizes[4][1] < sizes[5][1]


def test_the_picture_changes_with_the_position():
    s = _midgame()
    before = R.render_public(E.view(s, None))
    E.apply(s, 1, {"type": "pass"})
    E.apply(s, 0, moves_of(s, 0, "H-D4")["T-D9"])
    assert R.render_public(E.view(s, None)) != before


def test_moves_picture_snapshot():
    s = _midgame()
    view = E.view(s, 1)
    png = R.render_moves(view, "H-F2")
    assert png != R.render_public(view)
    assert_snapshot("hextri-r3-moves", png)


def test_private_picture_is_none():
    s = _midgame()
    assert R.render_private(E.view(s, 0)) is None
    assert R.GAME == "hextri"


def test_result_header_names_single_and_shared_winners_and_draws():
    def label(winners, n=3, reason="first_blood"):
        return R._result_label({"winners": winners, "reason": reason}, n)

    assert label([1], 2, "round_limit") == "B wins (round limit)"
    assert label([0, 2]) == "A C win (first blood)"
    assert label([], 2, "leaders_fell_together") == "Draw (both leaders fell together)"
    assert label([0, 1], 2, "round_limit") == "Draw (round limit)"


def test_hungarian_midgame_snapshot():
    """The host adds ``view["lang"]``: header, legend and panel speak Hungarian; field names stay."""
    s = _midgame()
    s["players"][1]["resting"] = [[3, 2]]  # two figures sit out until round 3
    view = {**E.view(s, 1), "lang": "hu", "player_names": ["Ann", "Bartholomew"]}
    assert_snapshot("hextri-r3-midgame-hu", R.render_public(view))


def test_a_hungarian_picture_differs_from_the_english_one():
    s = _midgame()
    view = E.view(s, 1)
    english = R.render_public(view)
    assert R.render_public({**view, "lang": "hu"}) != english
    assert R.render_public({**view, "lang": "pl"}) != english
    assert R.render_moves({**view, "lang": "hu"}, "H-F2") != R.render_moves(view, "H-F2")
    # the cached board with its legend is kept per language: English comes back unchanged
    assert R.render_public({**view, "lang": "en"}) == english
    assert R.render_public(view) == english


def _busiest_radius_three():
    """Six players on the default board after a long random game: stacks, battles, mana on HEXes and TRIs,
    long names, Polish words (the longest)."""
    s = _random_game(6, 3, 2, 700)
    names = ["Ann", "Bartholomew the Magnificent", "Zsófia Kovácsné", "Grzegorz Brzęczyszczykiewicz", "Eve",
             "Fitzgerald"]
    return s, {**E.view(s, None), "lang": "pl", "player_names": names}


def test_the_busiest_radius_three_board_reads_on_a_phone():
    from tests.render.phone import floor, too_small

    s, view = _busiest_radius_three()
    assert len(view["pieces"]) >= 25 and view["contested"] and view["mana"]
    exempt: set[str] = set()
    for lang in ("pl", "hu", "en"):
        assert [t for t in too_small(R.render_public, {**view, "lang": lang}, minimum=floor("hextri")) if t[0] not in exempt] == [], lang
    # and the picture of one figure's destinations, with its cost labels
    mid = _midgame()
    assert [t for t in too_small(R.render_moves, E.view(mid, 1), "H-F2", minimum=floor("hextri")) if t[0] not in exempt] == []


def test_the_busiest_radius_four_and_five_boards_read_on_a_phone():
    """The larger boards are drawn in two halves one above the other, their TRIs carrying only their number
    (the strip letter stands at both ends of the strip), so every needed text is 12 px or more at 420 px wide."""
    from tests.render.phone import floor, too_small

    exempt: set[str] = set()
    names = ["Ann", "Bartholomew the Magnificent", "Zsófia Kovácsné", "Grzegorz Brzęczyszczykiewicz", "Eve",
             "Fitzgerald"]
    for radius in (4, 5):
        s = _random_game(6, radius, 6, 700)
        view = E.view(s, None)
        assert len(view["pieces"]) >= 25 and view["mana"], radius
        for lang in ("pl", "hu", "en"):
            shown = {**view, "lang": lang, "player_names": names}
            assert [t for t in too_small(R.render_public, shown, minimum=floor("hextri")) if t[0] not in exempt] == [], (radius, lang)
        # one figure's destinations, with their cost labels, early in a game on that board
        s = E.new_game(4, 3, {"radius": radius})
        seat = E.to_act(s)[0]
        view = E.view(s, seat)
        assert any(a["type"] == "move" for a in view["legal"])
        assert [t for t in too_small(R.render_moves, view, "off", minimum=floor("hextri")) if t[0] not in exempt] == [], radius


def test_a_compact_board_names_its_triangles_by_strip_letter_and_number():
    from tests.render.phone import texts_at_phone_width

    s = E.new_game(2, 1, {"radius": 5})
    texts = [t for t, _ in texts_at_phone_width(R.render_public, E.view(s, None))[0]]
    # every strip letter at both ends of its strip, each TRI's number (no "A1"-style TRI names)
    b = R.board(5)
    for letter in {tri[2] for tri in b.tris}:
        assert texts.count(letter) >= 2, letter
    assert "23" in texts and "F23" not in texts


def test_mana_is_not_drawn_in_a_players_colour():
    from render import kit

    assert R.MANA not in [kit.rgb(c) for c in kit.PLAYER_COLOURS]
    assert R.MANA_INK not in [kit.rgb(c) for c in kit.PLAYER_COLOURS]


def test_whole_names_and_whole_rows_on_every_board():
    """Each player's row holds the whole name on a line of its own and the whole status under it (no "…"),
    and the legend wraps onto a second line rather than being cut, on the radius-2 board as on the larger."""
    from tests.render.phone import texts_at_phone_width

    names = ["Maximilian Schwarzenegger", "Bartholomew the Magnificent, Keeper of Hexagons 🐙"]
    for radius in (2, 3):
        s = _random_game(2, radius, 3, 40)
        for lang in ("en", "hu", "pl"):
            view = {**E.view(s, None), "player_names": names, "lang": lang}
            texts = [t for t, _ in texts_at_phone_width(R.render_public, view)[0]]
            assert not [t for t in texts if t.endswith("…")], (radius, lang)
            drawn = " ".join(texts)
            assert "Maximilian Schwarzenegger" in drawn and "Keeper of Hexagons" in drawn, (radius, lang)


def _without_marks(view: dict) -> dict:
    """The same position with nothing on its HEXes and no arrows or battle marks (a TRI's figure and mana stay:
    on a compact board they take the place of its number)."""
    b = R.board(view["radius"])
    return {**view, "pieces": [p for p in view["pieces"] if b.kind[p["field"]] == "tri"],
            "mana": {f: m for f, m in view["mana"].items() if b.kind[f] == "tri"}, "moves": [], "contested": [],
            "last_round": {}, "battle": None}


def test_no_figure_arrow_or_mark_covers_a_field_name():
    """Every pixel of every field name of the empty board (HEX names, TRI names or numbers) is still the
    name's ink on a crowded board with arrows, stacks, leaders, battles and mana: a name a player must type is
    never under a piece."""
    from render import kit

    grey = kit.rgb("dark_grey")
    cases = [_busiest_radius_three()[1], E.view(_random_game(4, 2, 5, 120), None),
             E.view(_random_game(6, 5, 2, 700), None), E.view(_random_game(6, 4, 6, 700), None)]
    s = _midgame()
    cases.append(E.view(s, 1))
    for view in cases:
        lay = R._layout(view["radius"])
        full = _png(view).convert("RGB")
        empty = _png(_without_marks(view)).convert("RGB")
        top, bottom = lay.header, lay.header + lay.board_h
        ink = [(x, y) for y in range(top, bottom) for x in range(full.width) if empty.getpixel((x, y)) == grey]
        assert len(ink) > 2000, view["radius"]
        covered = [xy for xy in ink if full.getpixel(xy) != grey]
        assert covered == [], (view["radius"], len(covered), covered[:5])


def test_counted_picture_words_agree_with_their_number_in_every_language():
    from tests.render.phone import texts_at_phone_width

    s = _midgame()
    view = E.view(s, 1)
    moves = [a for a in view["legal"] if a["type"] == "move" and a["from"] == "H-F2"]
    by_dest = list({a["to"]: a for a in moves}.values())

    def title(lang, n, resting=0):
        shown = {**view, "lang": lang, "legal": by_dest[:n]}
        if resting:
            shown["players"] = [{**p, "resting": resting, "resting_until": 4} for p in view["players"]]
            return " ".join(t for t, _ in texts_at_phone_width(R.render_public, shown)[0])
        return " ".join(t for t, _ in texts_at_phone_width(R.render_moves, shown, "H-F2")[0])

    assert "1 destination for the figure H-F2" in title("en", 1)
    assert "3 destinations for" in title("en", 3)
    assert "1 cel;" in title("pl", 1) and "3 cele;" in title("pl", 3) and "5 celów;" in title("pl", 5)
    assert "12 celów;" in title("pl", 12) and "22 cele;" in title("pl", 22)
    assert "2 pauzują" in title("pl", 1, resting=2) and "5 pauzuje" in title("pl", 1, resting=5)
    for key in ("moves_title", "status_resting", "status_resting_short"):
        for lang in ("en", "hu", "pl"):
            words = kit_words(lang)
            assert all(key + form in words for form in R.FORMS), (key, lang)


def kit_words(lang):
    import json
    from pathlib import Path

    return json.loads((Path(__file__).parents[2] / "data/locales/hextri/picture" / f"{lang}.json").read_text("utf-8"))


def test_an_entering_figures_arrow_starts_inside_the_picture_and_points_at_its_tri():
    """A figure entering the board comes in from outside the board, and the arrow's start is in the picture
    (the radius-2 board has no side margin), on the line towards the entry TRI, never under the header. A
    folded board (radius 4-5) is drawn on a wider canvas and cut into halves: the start is in the half that
    shows the entry TRI (the left one for the left side, the right one for the right side), below its top."""
    for radius in (2, 3, 4, 5):
        lay = R._layout(radius)
        b = R.board(radius)
        height = lay.header + lay.draw_h + lay.legend_h + lay.row_h * 2 + 16
        for tri in b.rim:
            start, end = R._move_points(b, ["off", tri], lay.ox, lay.oy, (lay.canvas_w, height), lay.header)
            left = 0 if lay.fold is None or b.xy[tri][0] <= 0 else lay.fold
            assert left + 6 <= start[0] <= left + lay.width - 6, (radius, tri, start)
            assert lay.header + 6 <= start[1] <= lay.header + lay.draw_h - 6, (radius, tri, start)
            centre = R._px(lay.ox, lay.oy, b.xy[tri])
            assert end == centre
            # outside the board: farther from its centre than the entry TRI, in the same direction
            mid = (lay.ox, lay.oy)
            out = (start[0] - mid[0], start[1] - mid[1])
            inn = (centre[0] - mid[0], centre[1] - mid[1])
            assert out[0] * inn[0] + out[1] * inn[1] > inn[0] ** 2 + inn[1] ** 2 - 1, (radius, tri)
            cross = out[0] * inn[1] - out[1] * inn[0]
            assert abs(cross) <= 1e-9 * math.hypot(*out) * math.hypot(*inn), (radius, tri)


def test_a_folded_board_cuts_no_label_and_shows_every_field_whole():
    """Radius 4 and 5 are drawn in two halves: every field label (HEX names and values, TRI numbers, with their
    halo) is either wholly in a half or wholly outside it (the cut never slices a name), every field is whole in
    at least one half, and the halves share the middle columns."""
    for radius in (4, 5):
        lay = R._layout(radius)
        b = R.board(radius)
        assert lay.fold is not None and lay.width < lay.canvas_w and lay.board_h == 2 * lay.draw_h + lay.sep_h
        halves = [(0, lay.width), (lay.fold, lay.fold + lay.width)]
        assert halves[1][0] < lay.ox < halves[0][1]  # the centre line is in both
        boxes, _ = R._label_boxes(radius)
        for label, (x0, _, x1, _) in zip(R._labels(radius), boxes):
            for left, right in halves:
                assert x1 <= left or x0 >= right or left <= x0 and x1 <= right, (radius, label.field, label.kind)
            assert any(left <= x0 and x1 <= right for left, right in halves), (radius, label.field)
        for field, polygon in b.polygon.items():
            xs = [R._px(lay.ox, lay.oy, p)[0] for p in polygon]
            assert any(left <= min(xs) and max(xs) <= right for left, right in halves), (radius, field)
    assert R._layout(3).fold is None and R._layout(3).width == R._layout(3).canvas_w


def test_a_folded_board_names_its_halves_in_the_players_language():
    from tests.render.phone import texts_at_phone_width

    s = E.new_game(2, 1, {"radius": 4})
    for lang in ("en", "hu", "pl"):
        texts = [t for t, _ in texts_at_phone_width(R.render_public, {**E.view(s, None), "lang": lang})[0]]
        assert kit_words(lang)["fold_band"] in texts, lang
        assert any(kit_words(lang)["legend_fold"].startswith(t) for t in texts), lang
    plain = _png(E.view(s, None))
    lay = R._layout(4)
    assert plain.size == (lay.width, lay.header + lay.board_h + lay.legend_h + 2 * lay.row_h + 16)
