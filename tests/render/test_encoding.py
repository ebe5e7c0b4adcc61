"""The kit's own PNG writer (issue 29): every game's pictures show exactly the pixels Pillow's writer would have
written, the same view always gives the same bytes, and a machine without ISA-L still writes the same pictures."""

from __future__ import annotations

import io
import zlib

import pytest
from PIL import Image

from engines import ENGINES
from engines.rng import Rng
from render import RENDERERS, kit
from tests.render.snapshot import decoded


def _pictures(key: str, count: int = 4) -> list[tuple[Image.Image, Image.Image]]:
    """(picture, palette) of the public boards of a short random game, as the renderer hands them to encode (RGB
    and its palette), or as the kit writes them when the renderer asks for the PNG of a picture put together in its
    rows (kit.encode_over: the palette picture, and None)."""
    engine, renderer = ENGINES[key], RENDERERS[key]
    rng, state = Rng(2), engine.new_game(engine.min_players, 2, {})
    caught: list[tuple[Image.Image, Image.Image]] = []
    encode, from_rows, writing = kit.encode, kit._png_from_rows, [False]

    def keep(img, pal=None):
        caught.append((img.copy(), pal))
        writing[0] = True
        try:
            return encode(img, pal)
        finally:
            writing[0] = False

    def keep_rows(rows, coloured, *args):
        if not writing[0]:
            picture = Image.frombytes("P", (rows.width - 1, rows.height),
                                      rows.crop((1, 0, rows.width, rows.height)).tobytes())
            picture.putpalette(bytes(coloured.getpalette() or []))
            caught.append((picture, None))
        return from_rows(rows, coloured, *args)

    kit.encode, kit._png_from_rows = keep, keep_rows
    try:
        for step in range(count * 5):
            if not engine.to_act(state):
                break
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            if step % 5 == 0:
                renderer.render_public({**engine.view(state, None), "player_names": ["Ann", "Béla 🐙"], "lang": "en"})
    finally:
        kit.encode, kit._png_from_rows = encode, from_rows
    return caught


def _pillow_png(quantised: Image.Image) -> bytes:
    out = io.BytesIO()
    quantised.save(out, "PNG", compress_level=1)
    return out.getvalue()


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_every_game_shows_the_pixels_pillow_would_write(key):
    pictures = _pictures(key)
    assert pictures
    for img, pal in pictures:
        # (a game drawn in its palette, kit.PaletteDraw, hands the encoder its palette picture)
        quantised = img if img.mode == "P" else img.quantize(palette=pal or kit.palette(), dither=Image.Dither.NONE)
        ours = kit.encode(img, pal)
        assert ours[:8] == b"\x89PNG\r\n\x1a\n"
        assert decoded(ours) == decoded(_pillow_png(quantised))
        # with ISA-L smaller than Pillow's fastest level (with the standard library's zlib, about its size), far
        # under Discord's 10 MiB
        pillow = len(_pillow_png(quantised))
        assert len(ours) < (pillow if kit.DEFLATE is not zlib.compress else pillow * 1.1)
        assert len(ours) < 2 * 1024 * 1024
        assert kit.encode(img, pal) == ours  # same picture, same bytes


def test_without_isal_the_same_pixels(monkeypatch):
    img, pal = _pictures("hector-achilles", 1)[0]
    fast = kit.encode(img, pal)
    monkeypatch.setattr(kit, "DEFLATE", zlib.compress)
    slow = kit.encode(img, pal)
    assert decoded(slow) == decoded(fast)


@pytest.mark.parametrize("size", [(1, 1), (3, 7), (641, 5), (1023, 1497)])
def test_a_palette_image_of_any_size_round_trips(size):
    img = Image.new("P", size)
    img.putpalette(bytes(range(256)) * 3)
    img.putdata([(x * 7 + x // 3) % 256 for x in range(size[0] * size[1])])
    assert kit._raw_bytes(img) == img.tobytes()
    assert decoded(kit.png(img)) == decoded(_pillow_png(img))


def test_only_palette_images_are_written_by_png():
    with pytest.raises(ValueError, match="palette images"):
        kit.png(Image.new("RGB", (4, 4)))


def test_rows_unpacked_by_tobytes_when_one_piece_is_not_all(monkeypatch):
    """An encoder that stops short (a later Pillow's, say) is not trusted: ``tobytes`` unpacks the rows."""
    real, calls = Image._getencoder, []

    class Short:
        def setimage(self, *args):
            pass

        def encode(self, size):
            return 4, 0, b"\x07\x07\x07\x07"

    def first_short(*args):
        calls.append(args)
        return Short() if len(calls) == 1 else real(*args)

    monkeypatch.setattr(Image, "_getencoder", first_short)
    assert kit._raw_bytes(Image.new("L", (5, 3), 7)) == bytes([7] * 15)
    assert len(calls) == 2  # the short one, then tobytes' own
