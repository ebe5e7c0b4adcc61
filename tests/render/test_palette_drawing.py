"""Pictures drawn in their palette (issue 29): ``kit.PaletteDraw``, ``kit.text``/``kit.paste_text``/``kit.bitmap``/
``kit.paste_masked`` on a palette picture, and the clock strip over one, give the very pixels of the same picture
drawn in RGB and quantised by ``kit.encode`` - which then has nothing left to quantise."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from engines import ENGINES
from engines.rng import Rng
from render import RENDERERS, kit

PAL = kit.make_palette([(12, 200, 90), (200, 40, 160)])
TEXTS = ["Ann", "Bartholomew the Unbreakable", "Cili 🐙", "محمد", "李小龙", "Zsófia-Kovács Wiśniewska"]


def decoded(png: bytes) -> tuple:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.mode, img.size, img.tobytes(), bytes(img.getpalette() or [])


def _scene(img: Image.Image, draw: ImageDraw.ImageDraw, round_: int) -> None:
    """Shapes in the palette's own colours (a border in a colour it only approximates), text over them and over
    the paper, side by side (text over another antialiased edge is not promised the same pixels)."""
    draw.rectangle((10, 10, 300, 120), fill=(12, 200, 90), outline=kit.rgb("ink"), width=3)
    draw.rounded_rectangle((320, 10, 590, 120), radius=12, fill=kit.rgb("gold"), outline=(90, 90, 91), width=2)
    draw.ellipse((40, 140, 120, 220), fill=(200, 40, 160), outline=kit.rgb("ink"), width=2)
    draw.polygon([(150, 140), (260, 160), (200, 230)], fill=(77, 140, 201), outline=kit.rgb("ink"))
    draw.line([(300, 150), (420, 230), (560, 140)], fill=kit.rgb("vermillion"), width=7, joint="curve")
    for i, s in enumerate(TEXTS):
        x, y = 14 + (i % 2) * 310 + round_ * 0.4, 20 + (i // 2) * 32
        kit.text(draw, (x, y), s, size=18 + i % 3, fill="white" if i % 2 else "ink", bold=i % 2 == 0,
                 condensed=i == 5)
        kit.paste_text(img, (20 + (i % 2) * 20, 240 + i * 28 + round_), s, 15, fill="highlight", bold=True)
    kit.badge(draw, (80, 180), 22, "blue", "B", size=20)
    mask = Image.new("L", (40, 30), 0)
    ImageDraw.Draw(mask).text((2, 2), "Mg", font=kit.font(22, True), fill=255)
    kit.bitmap(draw, (480, 170), mask, (240, 228, 66))
    binary = Image.new("RGBA", (30, 30), (0, 0, 0, 0))
    ImageDraw.Draw(binary).ellipse((2, 2, 27, 27), fill=(213, 94, 0, 255))
    soft = Image.new("RGBA", (30, 30), (0, 0, 0, 0))
    ImageDraw.Draw(soft).text((3, 3), "7", font=kit.font(22, True), fill=(0, 114, 178, 255))
    kit.paste_masked(img, binary, (530, 180), PAL)
    kit.paste_masked(img, soft, (560, 180), PAL)


@pytest.mark.parametrize("round_", [0, 1, 2])  # the second and third time: from the kept stamps
def test_a_palette_picture_is_the_rgb_picture_quantised(round_):
    rgb_img, rgb_draw = kit.canvas(600, 420, "paper")
    _scene(rgb_img, rgb_draw, round_)
    p_img, p_draw = kit.palette_canvas(600, 420, "paper", PAL)
    _scene(p_img, p_draw, round_)
    assert p_img.mode == "P"
    assert decoded(kit.encode(p_img, PAL)) == decoded(kit.encode(rgb_img, PAL))


def test_the_clock_strip_over_a_palette_picture():
    view = {"clock": [{"text": "Ann: 11 h 20 min left", "urgent": False},
                      {"text": "Cili 🐙: 48 min left", "urgent": True}]}
    rgb_img, rgb_draw = kit.canvas(600, 420, "paper")
    _scene(rgb_img, rgb_draw, 0)
    p_img, p_draw = kit.palette_canvas(600, 420, "paper", PAL)
    _scene(p_img, p_draw, 0)
    with_strip = kit.clock_strip(p_img, view)
    assert with_strip.mode == "P" and with_strip.height > 420
    assert decoded(kit.encode(with_strip, PAL)) == decoded(kit.encode(kit.clock_strip(rgb_img, view), PAL))


def test_a_picture_and_its_clock_strip_written_in_one_piece_are_the_same_bytes():
    """kit.encode_with_clock and kit.encode_over put the picture and its clock strip together in the PNG's rows
    (one copy of the picture, not three): the very bytes of the strip put on first and the whole encoded."""
    view = {"clock": [{"text": "Ann: 11 h 20 min left", "urgent": False},
                      {"text": "Cili 🐙: 48 min left", "urgent": True}]}
    for round_ in range(3):
        rgb_img, rgb_draw = kit.canvas(600, 420, "paper")
        _scene(rgb_img, rgb_draw, round_)
        p_img, p_draw = kit.palette_canvas(600, 420, "paper", PAL)
        _scene(p_img, p_draw, round_)
        for clocked in (view, {}, {"clock": [{"text": "  "}]}):
            for img in (p_img, rgb_img):
                assert kit.encode_with_clock(img, clocked, PAL) == kit.encode(kit.clock_strip(img, clocked), PAL)
            # the empty canvas quantised, the scene drawn over it in full colour: only where it was drawn
            base = kit.canvas(600, 420, "paper")[0].quantize(palette=PAL, dither=Image.Dither.NONE)
            boxes = [(40, 30, 360, 200), (380, 250, 590, 410), (0, 0, 600, 24)]
            over = kit.encode_over(rgb_img, base, boxes, PAL, clocked)
            assert over == kit.encode(kit.clock_strip(kit.quantized_over(rgb_img, base, boxes, PAL), clocked), PAL)
        # a place left out of the boxes shows the base there: the boxes are what is quantised, nothing else
        left_out = kit.encode_over(rgb_img, base, boxes[:1], PAL, view)
        assert decoded(left_out) != decoded(kit.encode(kit.clock_strip(rgb_img, view), PAL))


def test_nearest_is_what_quantising_gives():
    for colour in [(0, 0, 0), (12, 200, 90), (13, 201, 91), (250, 3, 128), (127, 127, 127)]:
        expected = Image.new("RGB", (1, 1), colour).quantize(palette=PAL, dither=Image.Dither.NONE).getpixel((0, 0))
        assert kit.nearest(colour, PAL) == expected


@pytest.mark.parametrize("key", ["hector-achilles", "ave-caesar", "troja", "kivalasztottak"])
def test_boards_drawn_in_their_palette_need_no_quantising(key, monkeypatch):
    """What the encoder gets from these games is a palette picture already (public boards; hands too but for
    Ave Caesar's, which a player asks for)."""
    engine, renderer = ENGINES[key], RENDERERS[key]
    modes: list[str] = []
    encode = kit.encode

    def spy(img, pal=None):
        modes.append(img.mode)
        return encode(img, pal)

    monkeypatch.setattr(kit, "encode", spy)
    rng, state = Rng(4), engine.new_game(engine.min_players, 4, {})
    for _ in range(12):
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        renderer.render_public({**engine.view(state, None), "player_names": ["Ann", "Cili 🐙"], "lang": "en"})
        if key != "ave-caesar":
            renderer.render_private({**engine.view(state, seat), "player_names": ["Ann", "Cili 🐙"], "lang": "en"})
    assert modes and set(modes) == {"P"}


#: HEX-TRI's tables: (players, options): the radius-2 board, the compact radius-3 board, the folded radius-5 one
HEXTRI_TABLES = [(2, {}), (2, {"radius": 2}), (3, {}), (4, {"radius": 2}), (6, {"radius": 5, "round_limit": 6})]


@pytest.mark.parametrize(("players", "options"), HEXTRI_TABLES)
def test_hextri_board_quantised_where_it_changed_is_the_same_picture(players, options):
    """HEX-TRI draws in full colour; its board is quantised only where it differs from the empty board
    (kit.quantized_over: the marks, figures, labels stamped again, the header and the panel) and before the clock
    strip goes on top (the strip then quantised alone): the very pixels of the whole picture quantised at once, in
    every position of a whole game (a place drawn on and left out would show the empty board there)."""
    from render import hextri

    engine, rng = ENGINES["hextri"], Rng(9 + players)
    state = engine.new_game(players, 9, options)
    names = ["Ann", "Cili 🐙", "Bo", "Dóra", "Ede", "Feri"][:players]
    clock = [{"text": "Ann: 11 h 20 min left", "urgent": False}, {"text": "Cili 🐙: 48 min left", "urgent": True}]
    checked = step = 0
    while True:
        acting = engine.to_act(state)
        if not acting or step % 7 == 0:
            view = {**engine.view(state, None), "player_names": names, "lang": "en",
                    **({"clock": clock} if step % 2 else {})}
            lay = hextri._layout(view["radius"])
            whole = hextri._fold(hextri._draw_public(kit.at_rest(view))[0], view, kit.words("hextri", view), lay)
            at_once = kit.encode(kit.clock_strip(whole, view), hextri.PALETTE)
            drawn = hextri.render_public(view)
            assert decoded(drawn) == decoded(at_once), f"step {step}"
            checked += 1
        if not acting or checked >= 12:
            break
        engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])))
        step += 1
    assert checked >= 6
