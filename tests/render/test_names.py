"""Every name a Discord user can have draws: emoji (with zero-width joiners, flags, skin tones), Chinese, Japanese,
Korean, Arabic and Hebrew (right to left), Indic scripts, "fancy" letters. No .notdef box (tofu) is ever drawn:
every character the pictures draw is in the font it is drawn with (render/textruns.py's fallback chain)."""

from __future__ import annotations

import io
from unittest import mock

import pytest
from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont

from engines import ENGINES
from render import RENDERERS, kit, textruns, tournament

NAMES = ["Dávid 😀", "Família 👨‍👩‍👧 🇭🇺", "王小明", "أحمد محمد", "김민준 👍🏽", "𝓐𝓵𝓲𝓬𝓮 🏳️‍🌈"]
# characters the chain treats as part of the one before (never drawn alone) or as formatting
_INVISIBLE = {0x200D, 0xFE0F, 0xFE0E, 0x20E3, 0x200C, 0x20}

_CMAPS: dict[str, set[int]] = {}


def _cmap(path: str) -> set[int]:
    if path not in _CMAPS:
        _CMAPS[path] = set(TTFont(path, lazy=True).getBestCmap())
    return _CMAPS[path]


def _drawn(render_fn, *args) -> tuple[list[tuple[str, str]], bytes]:
    """``([(text, font file), ...], png)``: every text ``render_fn`` draws, with the font it is drawn in."""
    for name in dir(kit):
        clear = getattr(getattr(kit, name), "cache_clear", None)
        if clear:
            clear()
    textruns.runs.cache_clear()
    for m in [*RENDERERS.values(), tournament]:
        for obj in vars(m).values():
            clear = getattr(obj, "cache_clear", None)
            if callable(clear):
                clear()
    seen: list[tuple[str, str]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self, xy, text, fill=None, font=None, *a, **kw):
        f = font if font is not None else kw.get("font")
        if isinstance(f, ImageFont.FreeTypeFont) and str(text).strip():
            seen.append((str(text), f.path))
        return original(self, xy, text, fill, font, *a, **kw)

    with mock.patch.object(ImageDraw.ImageDraw, "text", recording):
        png = render_fn(*args)
    return seen, png


def _tofu(seen: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The characters drawn with a font that has no glyph for them (each would be a .notdef box)."""
    return sorted({(ch, path.rsplit("/", 1)[-1]) for text, path in seen for ch in text
                   if ord(ch) not in _INVISIBLE and ord(ch) not in _cmap(path)})


def _public_view(key: str, n: int) -> dict:
    engine = ENGINES[key]
    options = next((o for k, o in engine.conformance_configs() if k == n), {})
    state = engine.new_game(n, 5, options)
    return {**engine.view(state, None), "player_names": NAMES[:n], "lang": "en"}


def _colourful(png: bytes) -> int:
    """How many pixels are strongly coloured emoji colours the games never use as-is (a rough check that the
    emoji came out in colour)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(1 for r, g, b in img.get_flattened_data() if r > 200 and 150 < g < 215 and b < 90)  # the smiley's yellow


# one character that must show of each name (the family and the flag as their one private-use glyph each)
_MARKS = ["😀", "\U0001F468", "王", "أ", "김", "𝓐"]


@pytest.mark.parametrize("key", list(ENGINES))
def test_names_in_every_script_draw_without_tofu_on_every_board(key):
    engine = ENGINES[key]
    n = engine.min_players
    fonts: set[str] = set()
    for first in range(0, len(NAMES), n):  # every name on the board of this game, n at a time
        names = (NAMES * 2)[first:first + n]
        view = {**_public_view(key, n), "player_names": names}
        seen, _ = _drawn(RENDERERS[key].render_public, view)
        assert not _tofu(seen), _tofu(seen)
        drawn = "".join(t for t, _ in seen)
        fonts |= {p.rsplit("/", 1)[-1] for _, p in seen}
        for name in names:
            mark = _MARKS[NAMES.index(name)]
            if mark == "\U0001F468":
                mark = textruns.sequences()["👨\u200d👩\u200d👧"]
            assert mark in drawn, (key, name, drawn[:300])
    assert {"Twemoji.ttf", "DroidSansFallback-CJK.ttf", "NotoSansArabic-Regular.ttf", "NotoSansKR-Hangul.otf",
            "NotoSansMath-Regular.ttf"} <= fonts, fonts


def test_a_line_of_every_script_draws_in_its_font_and_in_colour():
    img, draw = kit.canvas(900, 60)
    line = " · ".join(NAMES)
    seen, _ = _drawn(lambda: (kit.text(draw, (10, 30), line, 24, anchor="lm"), kit.encode(img))[1])
    assert not _tofu(seen)
    by_font = {}
    for text, path in seen:
        by_font.setdefault(path.rsplit("/", 1)[-1], []).append(text)
    assert {"DroidSansFallback-CJK.ttf", "NotoSansKR-Hangul.otf", "NotoSansArabic-Regular.ttf", "Twemoji.ttf",
            "NotoSansMath-Regular.ttf"} <= set(by_font)
    # a family joined by zero-width joiners, a flag, a skin tone: each one picture (one private-use glyph)
    emoji = "".join(by_font["Twemoji.ttf"])
    seqs = textruns.sequences()
    for seq in ("👨‍👩‍👧", "🇭🇺", "👍🏽", "🏳️‍🌈"):
        assert seqs[seq.replace("\ufe0f", "")] in emoji, seq
    assert "\u200d" not in emoji
    rgb = img.convert("RGB")
    assert _colourful(kit.encode(rgb)) > 50, "the smiley is yellow, not a black shape"


def test_arabic_reads_right_to_left_and_a_mixed_name_keeps_its_parts_in_order():
    runs = textruns.runs("Ahmed أحمد 😀", "DejaVuSans.ttf")
    assert [(r.text, r.font, r.rtl) for r in runs] == [
        ("Ahmed ", None, False), ("أحمد", "NotoSansArabic-Regular.ttf", True), (" ", None, False),
        ("😀", "Twemoji.ttf", False)]
    # a name that starts right to left is a right-to-left line: the Latin part is drawn on its left
    runs = textruns.runs("أحمد Ahmed", "DejaVuSans.ttf")
    assert [r.text for r in runs] == ["Ahmed", " ", "أحمد"]
    assert runs[-1].rtl and not runs[0].rtl


def test_without_libraqm_right_to_left_runs_are_reversed_so_the_letters_still_come_in_order(monkeypatch):
    monkeypatch.setattr(textruns, "RAQM", False)
    run = textruns.Run("أحمد", "NotoSansArabic-Regular.ttf", True)
    text, kwargs = textruns.drawn_text(run)
    assert text == "دمحأ" and kwargs == {}
    monkeypatch.setattr(textruns, "RAQM", True)
    assert textruns.drawn_text(run) == ("أحمد", {"direction": "rtl"})


def test_shortening_a_name_never_cuts_an_emoji_in_half():
    name = "Maximilian 👨‍👩‍👧‍👦👨‍👩‍👧‍👦"
    short = kit.fit_text(name, kit.text_width("Maximilian 👨‍👩‍👧‍👦", 16) + 4, 16)
    assert short in ("Maximilian 👨‍👩‍👧‍👦…", "Maximilian …"), short
    assert not short.rstrip("…").endswith("\u200d")
    assert kit.shorter("ab👍🏽") == "ab"


def test_a_character_no_font_has_is_left_out_not_drawn_as_a_box():
    unknown = "\U0001D800"  # Sutton SignWriting: in no font of the chain
    runs = textruns.runs(f"Ann{unknown}", "DejaVuSans.ttf")
    assert "".join(r.text for r in runs) == "Ann"


def test_tournament_pictures_draw_emoji_names():
    from tests.render.test_tournament import standings

    view = standings(6)
    for row, name in zip(view["rows"], NAMES):
        row["name"] = name
    for render_fn, arg in ((tournament.render_standings, view),
                           (tournament.render_podium, {"title": "Podium", "places": [[n] for n in NAMES[:3]]})):
        seen, _ = _drawn(render_fn, arg)
        assert not _tofu(seen)
        assert "Twemoji.ttf" in {p.rsplit("/", 1)[-1] for _, p in seen}


@pytest.mark.skipif(not textruns.RAQM, reason="libraqm (FriBiDi) is not available here")
def test_an_arabic_name_is_drawn_exactly_as_libraqm_shapes_it_right_to_left():
    from PIL import ImageChops

    name = "أحمد محمد"
    ours, draw = kit.canvas(300, 60, "white")
    kit.text(draw, (10, 40), name, 24, anchor="ls")
    shaped, draw = kit.canvas(300, 60, "white")
    draw.text((10, 40), name, font=textruns.font("NotoSansArabic-Regular.ttf", 24), fill=kit.rgb("ink"),
              anchor="ls", direction="rtl")
    assert ImageChops.difference(ours, shaped).getbbox() is None
