"""A line drawn word by word (issue 29): a status line that changes with every move ("leader H-D7 · on board 2 ·
waiting 7 · mana 0") is made of words that come back, so it is blended from its words' kept glyphs instead of
rendered whole by FreeType - and gives the very pixels of the whole line, wherever it lands."""

from __future__ import annotations

import json
import random
import string
from collections import defaultdict
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from render import kit

LOCALES = Path(__file__).resolve().parents[2] / "data" / "locales"


def _lines() -> list[str]:
    """Every picture word of every game in every language with its fields filled in: lines of two words or more
    (single lines, in the face the pictures use)."""
    filled: defaultdict[str, str] = defaultdict(lambda: "H-D7")
    filled.update(n="3", count="12", round="5", battle="2", dp="4", mp="1")
    out = set()
    for path in sorted(LOCALES.glob("*/picture/*.json")):
        for template in json.loads(path.read_text("utf-8")).values():
            if not isinstance(template, str):
                continue
            try:
                line = string.Formatter().vformat(template, (), filled)
            except (IndexError, ValueError, KeyError):
                continue
            if "\n" not in line and " " in line.strip():
                out.add(line)
    return sorted(out)


LINES = _lines()
FACES = [(21, False, False), (18, True, False), (15, False, True), (30, True, True)]


def _met(line: str, size: int, bold: bool, condensed: bool) -> None:
    for word in line.split(" "):
        kit._WORDS_MET[(word, size, bold, condensed)] = True


def _placed(rng: random.Random, width: int, size: int, anchor: str) -> tuple[float, float]:
    x = {"l": 4.0, "m": 4 + width / 2, "r": 4.0 + width}[anchor[0]] + rng.randrange(64) / 64
    return x, 2 * size + rng.choice((0, 0.25, 0.5, 0.75))


def _cases(rng: random.Random, count: int):
    """``(line, size, bold, condensed, its font, its width)`` of ``count`` lines in faces drawn at random (the
    plain ones: the others are drawn run by run)."""
    for line in rng.sample(LINES, count):
        size, bold, condensed = rng.choice(FACES)
        if kit.plain(line, bold, condensed):
            f = kit.font(size, bold, condensed)
            yield line, size, bold, condensed, f, int(f.getlength(line))


def test_the_games_picture_words_make_enough_lines():
    assert len(LINES) > 500
    assert any("·" in line for line in LINES) and any("ő" in line for line in LINES)  # Hungarian too


@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "mm", "rm", "ra"])
def test_a_line_drawn_word_by_word_is_the_line_pillow_draws(anchor):
    rng = random.Random(anchor)
    checked = 0
    for line, size, bold, condensed, f, width in _cases(rng, 250):
        xy = _placed(rng, width, size, anchor)
        whole = Image.new("RGB", (width + 2 * size + 12, 4 * size), (228, 220, 200))
        ImageDraw.Draw(whole).text(xy, line, font=f, fill=(20, 30, 40), anchor=anchor)
        _met(line, size, bold, condensed)
        assert kit._word_stamps(xy, line, size, bold, condensed, anchor) is not None  # (it is drawn by words)
        kit._SEEN.pop((line, size, bold, condensed, anchor, xy[0] - int(xy[0]), xy[1] - int(xy[1])), None)
        by_words = Image.new("RGB", whole.size, (228, 220, 200))
        kit.text(ImageDraw.Draw(by_words), xy, line, size, (20, 30, 40), bold, anchor, condensed)
        assert by_words.tobytes() == whole.tobytes(), (line, size, bold, condensed, xy)
        checked += 1
    assert checked > 200


def test_a_line_on_a_palette_picture_drawn_word_by_word_is_the_rgb_line_quantised():
    rng = random.Random(5)
    pal = kit.make_palette([(52, 78, 60)])
    for line, size, bold, condensed, f, width in _cases(rng, 200):
        anchor = rng.choice(("lm", "la", "rm", "mm"))
        xy = _placed(rng, width, size, anchor)
        rgb = Image.new("RGB", (width + 2 * size + 12, 4 * size), (52, 78, 60))
        ImageDraw.Draw(rgb).text(xy, line, font=f, fill=kit.rgb("white"), anchor=anchor)
        _met(line, size, bold, condensed)
        kit._SEEN.clear()
        img, draw = kit.palette_canvas(rgb.width, rgb.height, (52, 78, 60), pal)
        kit.text(draw, xy, line, size, "white", bold, anchor, condensed)
        assert img.tobytes() == rgb.quantize(palette=pal, dither=Image.Dither.NONE).tobytes(), line


def test_a_sprite_of_a_line_made_of_its_words_is_the_mask_pillow_draws():
    rng = random.Random(7)
    for line in rng.sample(LINES, 200):
        size, bold, condensed = rng.choice(FACES)
        if not kit.plain(line, bold, condensed):
            continue
        anchor = rng.choice(("la", "lm", "mm", "rm"))
        _met(line, size, bold, condensed)
        kit.text_mask.cache_clear()
        mask, colour, x0, y0 = kit.text_mask(line, size, bold, condensed, anchor)
        f = kit.font(size, bold, condensed)
        bx0, by0, bx1, by1 = f.getbbox(line, anchor=anchor)
        whole = Image.new("L", (max(1, int(bx1 - bx0)), max(1, int(by1 - by0))), 0)
        ImageDraw.Draw(whole).text((-bx0, -by0), line, font=f, fill=255, anchor=anchor)
        assert colour is None and (x0, y0) == (bx0, by0) and mask.tobytes() == whole.tobytes(), line


def test_a_line_is_as_wide_as_its_words():
    for line in LINES[:400]:
        for size, bold, condensed in FACES:
            if kit.plain(line, bold, condensed):
                _met(line, size, bold, condensed)
                kit.text_width.cache_clear()
                assert kit.text_width(line, size, bold, condensed) == int(
                    kit.font(size, bold, condensed).getlength(line)), line


@pytest.mark.parametrize("word", ["…", "...", "_", "free …", "· …"])
def test_a_word_low_on_its_line_is_stamped_where_pillow_draws_it(word):
    """A word whose ink lies well below its anchor point (an ellipsis, centred on the line) was stamped from a mask
    drawn at a negative point, which Pillow renders another way: the dots of "…" lost a row."""
    f = kit.font(21, False, True)
    for fy in (0, 0.25, 0.5, 0.75):
        xy = (40 + fy, 30 + fy)
        whole = Image.new("RGB", (120, 60), (228, 220, 200))
        ImageDraw.Draw(whole).text(xy, word, font=f, fill=(20, 30, 40), anchor="lm")
        mask, dx, dy = kit._glyphs(word, 21, False, True, "lm", xy[0] - int(xy[0]), xy[1] - int(xy[1]))
        stamped = Image.new("RGB", whole.size, (228, 220, 200))
        ImageDraw.Draw(stamped).bitmap((int(xy[0]) + dx, int(xy[1]) + dy), mask, fill=(20, 30, 40))
        assert stamped.tobytes() == whole.tobytes(), (word, fy)


def _renders(monkeypatch) -> list[str]:
    rendered: list[str] = []
    real = ImageFont.FreeTypeFont.getmask2

    def counted(self, text, *args, **kwargs):
        rendered.append(text)
        return real(self, text, *args, **kwargs)
    monkeypatch.setattr(ImageFont.FreeTypeFont, "getmask2", counted)
    return rendered


def test_a_line_of_words_met_before_renders_only_its_new_word(monkeypatch):
    kit._SEEN.clear()
    kit._WORDS_MET.clear()
    img, draw = kit.canvas(700, 60, "paper")
    kit.text(draw, (10, 30.5), "leader H-D7 · on board 2 · waiting 7 · mana 0", 21, anchor="lm")
    rendered = _renders(monkeypatch)
    kit.text(draw, (10, 30.5), "leader H-D7 · on board 3 · waiting 6 · mana 0", 21, anchor="lm")
    # the first line's words were met, so the second is drawn word by word: glyphs of words at points never
    # drawn at before are rendered, the others pasted; never the whole line
    assert rendered and "leader H-D7 · on board 3 · waiting 6 · mana 0" not in rendered
    assert all(" " not in text for text in rendered)


def test_a_line_of_new_words_is_rendered_whole(monkeypatch):
    kit._SEEN.clear()
    kit._WORDS_MET.clear()
    rendered = _renders(monkeypatch)
    img, draw = kit.canvas(700, 60, "paper")
    kit.text(draw, (10, 30.5), "Bartholomew crosses the Scamander", 21, anchor="lm")
    assert rendered == ["Bartholomew crosses the Scamander"]  # one call to FreeType, not four
