"""The shared drawing kit: fonts with full Latin Extended glyphs, a fixed palette, text helpers and a
fast, deterministic PNG encoder.

Images are drawn in RGB and quantised to a fixed 256-colour palette (one per game, ``make_palette``) before
encoding: that keeps antialiased text, makes the bytes deterministic, and is 3-4x faster to encode than RGB
(see DISCORD-NOTES).
"""

from __future__ import annotations

import json
import math
import re
import struct
import zlib
from collections.abc import Callable, Hashable
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from render import textruns

try:  # ISA-L's deflate (pinned in pyproject.toml); the standard library's zlib where it is not installed
    from isal import isal_zlib
    DEFLATE: Callable[[bytes, int], bytes] = isal_zlib.compress
except ImportError:  # an older environment: the same pixels, slower and larger
    DEFLATE = zlib.compress

#: the deflate level of every picture: ISA-L's 1 (its 0 is no faster on these pictures and 25% larger; 2 and 3
#: cost more time than the bytes they save are worth on a move's path)
PNG_LEVEL = 1

DATA = Path(__file__).resolve().parent.parent / "data"
FONTS = DATA / "fonts"

# Named colours used by every renderer. Colour-blind safe player colours follow Okabe & Ito (2008);
# renderers always add a letter or a pattern so no information rests on colour alone.
COLOURS: dict[str, tuple[int, int, int]] = {
    "ink": (28, 28, 32),
    "paper": (246, 240, 226),
    "table": (58, 86, 66),
    "table_dark": (40, 62, 47),
    "panel": (228, 220, 200),
    "panel_dark": (196, 184, 158),
    "white": (255, 255, 255),
    "grey": (128, 128, 128),
    "light_grey": (205, 205, 205),
    "dark_grey": (72, 72, 72),
    "gold": (212, 170, 60),
    "highlight": (255, 214, 0),
    "danger": (190, 30, 45),
    "ok": (30, 140, 70),
    # Okabe-Ito
    "orange": (230, 159, 0),
    "sky": (86, 180, 233),
    "bluish_green": (0, 158, 115),
    "yellow": (240, 228, 66),
    "blue": (0, 114, 178),
    "vermillion": (213, 94, 0),
    "reddish_purple": (204, 121, 167),
    "black": (0, 0, 0),
}

# the kit's own colours, fixed here: games' registered names never change any palette
BASE_COLOURS: tuple[tuple[int, int, int], ...] = tuple(COLOURS.values())

PLAYER_COLOURS = ["vermillion", "blue", "bluish_green", "orange", "reddish_purple", "sky"]
PLAYER_LETTERS = ["A", "B", "C", "D", "E", "F"]


@lru_cache(maxsize=64)
def _words_table(game: str, lang: str) -> dict[str, str]:
    path = DATA / "locales" / game / "picture" / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


class Words:
    """``say(key, **fields)``: a picture's words in one language (``say.lang``), English where it has none."""

    def __init__(self, game: str, lang: str) -> None:
        self.game, self.lang = game, lang
        self._table, self._english = _words_table(game, lang), _words_table(game, "en")

    def __call__(self, key: str, **fields) -> str:
        template = self._table.get(key) or self._english.get(key)
        if template is None:
            raise KeyError(f"missing picture word {key!r} of {self.game}")
        return template.format(**fields)


def words(game: str, view: dict) -> Words:
    """``say(key, **fields)``: the picture's words (``data/locales/<game>/picture/<lang>.json``) in the
    game's language (``view["lang"]``, added by the host; English without it), English when missing; its
    ``lang`` names the language (part of the key of a picture kept by a renderer)."""
    return Words(game, view.get("lang") or "en")


def make_palette(colours=()) -> Image.Image:
    """A fixed 256-colour palette: ``colours`` (names or RGB; a game's own card and board colours) exactly,
    the kit's named colours exactly, then a colour cube and greys for antialiased edges.

    Each game encodes with its own palette (``encode(img, PALETTE)``), so adding or recolouring one game
    never changes another game's bytes or snapshots."""
    fixed: list[tuple[int, int, int]] = []
    for c in [*(rgb(c) for c in colours), *BASE_COLOURS]:
        if c not in fixed:
            fixed.append(c)
    steps = (0, 51, 102, 153, 204, 255) if len(fixed) + 216 <= 256 else (0, 64, 128, 191, 255)
    out = list(fixed)
    for r in steps:
        for g in steps:
            for b in steps:
                if (r, g, b) not in out:
                    out.append((r, g, b))
    grey = 8
    while len(out) < 256 and grey <= 255:
        if (grey, grey, grey) not in out:
            out.append((grey, grey, grey))
        grey += 9
    if len(out) > 256:
        raise ValueError(f"too many fixed colours for one palette: {len(fixed)}")
    flat = [v for c in out for v in c]
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat + [0] * (768 - len(flat)))
    return pal


def register_colours(colours: dict[str, tuple[int, int, int]]) -> None:
    """Give a game's colours names for ``rgb()``/``text()``; pass them to ``make_palette`` to keep them exact."""
    for name, value in colours.items():
        COLOURS.setdefault(name, value)


_DEFAULT_PALETTE: Image.Image | None = None


def palette() -> Image.Image:
    """The default palette (kit colours only), for pictures without colours of their own."""
    global _DEFAULT_PALETTE
    if _DEFAULT_PALETTE is None:
        _DEFAULT_PALETTE = make_palette()
    return _DEFAULT_PALETTE


def face_name(bold: bool = False, condensed: bool = False) -> str:
    """The file of the picture's own face (DejaVu Sans) in that weight and width."""
    return "DejaVuSans" + ("Condensed" if condensed else "") + ("-Bold" if bold else "") + ".ttf"


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / face_name(bold, condensed)), size)


def rgb(colour: str | tuple[int, int, int]) -> tuple[int, int, int]:
    return COLOURS[colour] if isinstance(colour, str) else colour


def canvas(width: int, height: int,
           background: str | tuple[int, int, int] = "paper") -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), rgb(background))
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=16384)
def plain(s: str, bold: bool = False, condensed: bool = False) -> bool:
    """Whether the face alone draws ``s`` left to right (no emoji, no other script, nothing right to left): the
    fast path every label of the games takes; anything else goes through ``render.textruns``."""
    cover = textruns.coverage(face_name(bold, condensed))
    for ch in s:
        cp = ord(ch)
        if cp not in cover or cp >= 0x1F000 or cp in textruns._EMOJI_PRESENTATION or cp == 0xFE0F:
            return False
        if 0x0590 <= cp < 0x0900 or 0xFB1D <= cp < 0xFF00:  # Hebrew, Arabic, Syriac... and their forms
            return False
    return True


@lru_cache(maxsize=2048)
def _runs(s: str, size: int, bold: bool, condensed: bool):
    """``[(run, font, text, kwargs, width), ...]`` of a string that is not :func:`plain` (cached: the same names
    come back in every picture; the list is never changed by its readers)."""
    own = font(size, bold, condensed)
    out = []
    for run in textruns.runs(s, face_name(bold, condensed)):
        f = own if run.font is None else textruns.font(run.font, size)
        t, kw = textruns.drawn_text(run)
        out.append((run, f, t, kw, f.getlength(t, **kw)))
    return tuple(out)


def _origin(xy, width: float, size: int, bold: bool, condensed: bool, anchor: str) -> tuple[float, float]:
    """Left end and baseline of a line ``width`` px wide placed at ``xy`` by a Pillow ``anchor``."""
    ascent, descent = font(size, bold, condensed).getmetrics()
    dx = {"l": 0, "m": width / 2, "r": width}[anchor[0]]
    dy = {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent, "b": -descent}[anchor[1]]
    return xy[0] - dx, xy[1] + dy


def _draw_runs(draw: ImageDraw.ImageDraw, xy, s: str, size: int, fill, bold: bool, anchor: str,
               condensed: bool, colour: ImageDraw.ImageDraw | None = None, stamped: bool = False) -> None:
    """Draw a string that is not :func:`plain`, run by run (emoji in colour, on ``colour`` when ``draw`` is a
    mask). ``stamped`` (an RGB picture): each run blended from its cached stamp (:func:`_stamp_run`)."""
    laid = _runs(s, size, bold, condensed)
    x, baseline = _origin(xy, sum(w for *_, w in laid), size, bold, condensed, anchor)
    for run, f, t, kw, w in laid:
        if stamped and x >= 0 and baseline >= 0:
            _stamp_run(draw, (x, baseline), f, t, kw.get("direction"), run.emoji, fill)
        elif run.emoji:
            target = colour or draw
            if target.im.mode in ("RGB", "RGBA"):
                target.text((x, baseline), t, font=f, anchor="ls", embedded_color=True)
            else:  # a one-channel mask and no colour layer: the emoji's shape
                target.text((x, baseline), t, font=f, fill=fill, anchor="ls")
        else:
            draw.text((x, baseline), t, font=f, fill=fill, anchor="ls", **kw)
        x += w


#: the plain texts :func:`text` has drawn (with their size and sub-pixel position), and how often: from the
#: :data:`_WHOLE_AFTER`-th time on, from a sprite of the whole line; before, word by word (:func:`_by_words`)
_SEEN: dict[tuple, int] = {}
_SEEN_MAX = 16384
_WHOLE_AFTER = 2


def _saw(key: tuple) -> None:
    if len(_SEEN) >= _SEEN_MAX:
        _SEEN.clear()
    _SEEN[key] = _SEEN.get(key, 0) + 1


@lru_cache(maxsize=8192)
def _glyphs(s: str, size: int, bold: bool, condensed: bool, anchor: str, fx: float, fy: float):
    """``(mask, dx, dy)``: what ``ImageDraw.text`` blends into a picture for a plain single line at a point whose
    fractional part is ``(fx, fy)`` (FreeType renders it shifted by that fraction), as an L image, and where its
    top left corner goes relative to the point's whole part. Drawn by Pillow's own ``text`` into the mask, so
    blending it with ``ImageDraw.bitmap`` gives the very pixels ``text`` gives."""
    x0, y0, x1, y1 = font(size, bold, condensed).getbbox(s, anchor=anchor)
    # a margin of a pixel and a whole-pixel origin: the glyphs land where they land in the picture. The origin
    # is never above or left of the mask (a word low on its line, "…", has its ink well below the anchor): Pillow
    # splits a point into whole pixels and a fraction toward zero, so a negative one is rendered another way
    left, top = max(0, 1 - int(x0) + (x0 < 0)), max(0, 1 - int(y0) + (y0 < 0))
    mask = Image.new("L", (left + int(x1) + 2, top + int(y1) + 2), 0)
    ImageDraw.Draw(mask).text((left + fx, top + fy), s, font=font(size, bold, condensed), fill=255, anchor=anchor)
    return mask, -left, -top


#: a line's words, each with the spaces after it (only the space: a no-break space keeps its words together)
_WORD = re.compile(r"[^ ]+ *")


@lru_cache(maxsize=16384)
def _advance(s: str, size: int, bold: bool, condensed: bool) -> float:
    """Pillow's advance of ``s`` (``getlength``, in 64ths of a pixel): a line's is the sum of its words' (with
    the spaces after them), since nothing is kerned across a space."""
    return font(size, bold, condensed).getlength(s)


@lru_cache(maxsize=4096)
def _words_of(s: str, size: int, bold: bool, condensed: bool) -> tuple[tuple[tuple[str, float], ...], float] | None:
    """``((word, its offset from the line's left end), ...), the line's advance`` of a plain line of two words or
    more, None for one word (drawn whole)."""
    lead = len(s) - len(s.lstrip(" "))
    words = _WORD.findall(s, lead)
    if len(words) < 2:
        return None
    x = _advance(s[:lead], size, bold, condensed) if lead else 0.0
    out = []
    for w in words:
        out.append((w.rstrip(" "), x))
        x += _advance(w, size, bold, condensed)
    return tuple(out), x


def _by_words(xy, s: str, size: int, bold: bool, condensed: bool, anchor: str
              ) -> list[tuple[str, str, float, float]] | None:
    """A plain single line placed at ``xy`` by ``anchor``, as ``(word, its anchor, x, y)``: each word placed by the
    same vertical anchor at its own point, which gives the very pixels of the whole line (FreeType places each
    glyph at its sub-pixel pen position, and nothing is kerned or inked across a space; Pillow rounds a centred
    or right-aligned line's offset half up). So a line seen for the first time (a status line that changes with
    every move) is blended from the kept glyphs of its words, which come back, instead of rendered whole (issue
    29). None for a line of one word, or anchored by its own ink (``t``, ``b``)."""
    if anchor[1] not in "amsd":
        return None
    laid = _words_of(s, size, bold, condensed)
    if laid is None:
        return None
    words, width = laid
    left = xy[0] - {"l": 0, "m": math.floor(width / 2 + 0.5), "r": math.floor(width + 0.5)}[anchor[0]]
    own = "l" + anchor[1]
    return [(w, own, left + dx, xy[1]) for w, dx in words]


#: the words :func:`_word_stamps` has met, by face and size: a word met before is likely to come back
_WORDS_MET: dict[tuple[str, int, bool, bool], bool] = {}
_WORDS_MET_MAX = 32768


def _mostly_met(s: str, size: int, bold: bool, condensed: bool, meet: bool = True) -> bool:
    """Whether ``s`` is two words or more, most of its letters in words drawn before (in any line, this face
    and size); with ``meet``, its words count as drawn from now on. A line of words drawn before is drawn and
    measured word by word (they come back: their glyphs and advances are kept); a line of new words whole (each
    word alone costs FreeType more than its share of the line)."""
    if " " not in s.strip(" "):
        return False
    new = 0
    for word in s.split(" "):
        met = (word, size, bold, condensed)
        if word and met not in _WORDS_MET:
            new += len(word)
            if meet:
                if len(_WORDS_MET) >= _WORDS_MET_MAX:
                    _WORDS_MET.clear()
                _WORDS_MET[met] = True
    return 3 * new <= len(s)


def _word_stamps(xy, s: str, size: int, bold: bool, condensed: bool, anchor: str) -> list[tuple[tuple, int, int]] | None:
    """:func:`_by_words` as stamps: ``(key of its glyphs (:func:`_glyphs`), x, y)`` of each word, its glyphs
    blended at ``(x, y)``; None where the line is drawn whole: one word, a word at a negative point (Pillow
    splits a point into whole pixels and a fraction toward zero, which :func:`_glyphs` keeps for points >= 0),
    or a line most of whose letters are in words met for the first time (each word drawn alone costs FreeType
    more than its share of the whole line: worth it only for words that come back)."""
    if anchor[1] not in "amsd" or not _mostly_met(s, size, bold, condensed):
        return None
    placed = _by_words(xy, s, size, bold, condensed, anchor)
    if placed is None:
        return None
    out = []
    for word, own, x, y in placed:
        if x < 0 or y < 0:
            return None
        key = (word, size, bold, condensed, own, x - int(x), y - int(y))
        _, dx, dy = _glyphs(*key)
        out.append((key, int(x) + dx, int(y) + dy))
    return out


@lru_cache(maxsize=2048)
def _run_glyphs(f: ImageFont.FreeTypeFont, t: str, direction: str | None, fx: float, fy: float):
    """:func:`_glyphs` of one run of a text that is not :func:`plain`, in its own font (``f``) and direction,
    placed by its baseline's left end (``anchor="ls"``, as :func:`_draw_runs` places runs)."""
    x0, y0, x1, y1 = f.getbbox(t, anchor="ls", direction=direction)
    left, top = max(0, 1 - int(x0) + (x0 < 0)), max(0, 1 - int(y0) + (y0 < 0))  # (as :func:`_glyphs`)
    mask = Image.new("L", (left + int(x1) + 2, top + int(y1) + 2), 0)
    ImageDraw.Draw(mask).text((left + fx, top + fy), t, font=f, fill=255, anchor="ls", direction=direction)
    return mask, -left, -top


@lru_cache(maxsize=512)
def _emoji_stamp(f: ImageFont.FreeTypeFont, t: str, ink: int, fx: float, fy: float):
    """``(colour, mask, offset)``: what ``ImageDraw.text(..., embedded_color=True)`` pastes for an emoji run at a
    point whose fractional part is ``(fx, fy)`` - the same call to FreeType, kept (an emoji's colour layers are
    the slowest glyphs to render)."""
    colour, offset = f.getmask2(t, "RGBA", None, None, None, 0, "ls", ink, (fx, fy), stroke_filled=True)
    mask = colour.getband(3)
    colour.fillband(3, struct.pack("i", ink)[3])
    return colour, mask, offset


def _stamp_run(draw: ImageDraw.ImageDraw, at: tuple[float, float], f: ImageFont.FreeTypeFont, t: str,
               direction: str | None, emoji: bool, fill) -> None:
    """One run of :func:`_draw_runs` blended from its cached stamp: the very pixels ``ImageDraw.text`` draws."""
    x, y = at
    fx, fy = x - int(x), y - int(y)
    if emoji:
        ink, fill_ink = draw._getink(None)
        colour, mask, (dx, dy) = _emoji_stamp(f, t, ink if ink is not None else fill_ink, fx, fy)
        left, top = int(x) + dx, int(y) + dy
        draw.im.paste(colour, (left, top, left + mask.size[0], top + mask.size[1]), mask)
        return
    glyphs, dx, dy = _run_glyphs(f, t, direction, fx, fy)
    draw.bitmap((int(x) + dx, int(y) + dy), glyphs, fill=fill)


def text(draw: ImageDraw.ImageDraw, xy, s: str, size: int = 18, fill="ink", bold: bool = False,
         anchor: str = "la", condensed: bool = False) -> None:
    """Draw ``s`` at ``xy``: any script, emoji in colour, right to left where it should be.

    A single line (every label of the games, names in any script) drawn a second time is blended from a mask
    FreeType rendered once per text, size and sub-pixel position - run by run, and emoji pasted from their kept
    colour layers, for a text that is not :func:`plain`: the same labels and names come back in every picture."""
    if isinstance(draw, PaletteDraw):
        _text_paletted(draw, xy, s, size, fill, bold, anchor, condensed)
        return
    if plain(s, bold, condensed):
        x, y = xy
        if x >= 0 and y >= 0 and "\n" not in s and draw.fontmode == "L":
            key = (s, size, bold, condensed, anchor, x - int(x), y - int(y))
            if _SEEN.get(key, 0) >= _WHOLE_AFTER:  # drawn before: from the cache
                mask, dx, dy = _glyphs(*key)
                draw.bitmap((int(x) + dx, int(y) + dy), mask, fill=rgb(fill))
                return
            # a text seen once or twice (a status line that changes with every move) is blended from its words'
            # glyphs, or drawn as it is: making its own sprite would cost more than drawing it
            _saw(key)
            stamps = _word_stamps(xy, s, size, bold, condensed, anchor)
            if stamps is not None:
                for word, at_x, at_y in stamps:
                    draw.bitmap((at_x, at_y), _glyphs(*word)[0], fill=rgb(fill))
                return
        draw.text(xy, s, font=font(size, bold, condensed), fill=rgb(fill), anchor=anchor)
        return
    # names with emoji or in other scripts: the same, run by run (they come back in every picture too)
    x, y = xy
    stamped = False
    if x >= 0 and y >= 0 and "\n" not in s and draw.fontmode == "L" and draw.im.mode == "RGB":
        seen = ("runs", s, size, bold, condensed, anchor, x - int(x), y - int(y))
        stamped = seen in _SEEN
        if not stamped:
            _saw(seen)
    _draw_runs(draw, xy, s, size, rgb(fill), bold, anchor, condensed, stamped=stamped)


@lru_cache(maxsize=4096)
def text_mask(s: str, size: int, bold: bool = False, condensed: bool = False, anchor: str = "la"):
    """``(mask, colour, dx, dy)``: the glyphs of ``s`` as an L mask to paste in the text's colour, the emoji as an
    RGBA layer to paste over it (None without emoji), and their offset from the anchor point. Renderers cache
    labels as these sprites, since the same names come back in every picture."""
    if plain(s, bold, condensed):
        f = font(size, bold, condensed)
        x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
        mask = Image.new("L", (max(1, int(x1 - x0)), max(1, int(y1 - y0))), 0)
        stamps = _word_stamps((-x0, -y0), s, size, bold, condensed, anchor)
        if stamps is None:
            ImageDraw.Draw(mask).text((-x0, -y0), s, font=f, fill=255, anchor=anchor)
        else:  # (word by word: the same mask, from glyphs that come back in other texts)
            draw = ImageDraw.Draw(mask)
            for word, at_x, at_y in stamps:
                draw.bitmap((at_x, at_y), _glyphs(*word)[0], fill=255)
        return mask, None, x0, y0
    laid = _runs(s, size, bold, condensed)
    width = sum(w for *_, w in laid)
    ascent, descent = font(size, bold, condensed).getmetrics()
    pad = max(2, size // 4)  # scripts with tall marks and emoji reach past the face's ascent and descent
    left, base = _origin((0, 0), width, size, bold, condensed, anchor)
    x0, y0 = int(left) - 1, int(base - ascent - pad)
    box = (int(width) + 3, ascent + descent + 2 * pad)
    mask = Image.new("L", box, 0)
    has_emoji = any(run.emoji for run, *_ in laid)
    colour = Image.new("RGBA", box, (0, 0, 0, 0)) if has_emoji else None
    _draw_runs(ImageDraw.Draw(mask), (-x0, -y0), s, size, 255, bold, anchor, condensed,
               ImageDraw.Draw(colour) if colour is not None else None)
    return mask, colour, x0, y0


def paste_text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bold: bool = False, anchor: str = "la",
               condensed: bool = False, pal: Image.Image | None = None) -> None:
    """``text`` through the sprite cache of :func:`text_mask` (pasting is far cheaper than drawing again); on a
    palette picture too (:func:`blended`; ``pal``: its palette, when the caller knows it)."""
    mask, colour, dx, dy = text_mask(s, size, bold, condensed, anchor)
    at = (int(round(xy[0] + dx)), int(round(xy[1] + dy)))
    if img.mode == "P":
        def paint(d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
            d._image.paste(rgb(fill), (at[0] + ox, at[1] + oy), mask)
            if colour is not None:
                d._image.paste(colour, (at[0] + ox, at[1] + oy), colour)
        blended(PaletteDraw(img, pal or palette_of(img)), (*at, at[0] + mask.width, at[1] + mask.height), paint,
                ("paste_text", s, size, bold, condensed, anchor, rgb(fill)))
        return
    img.paste(rgb(fill), at, mask)
    if colour is not None:
        img.paste(colour, at, colour)


@lru_cache(maxsize=8192)
def text_width(s: str, size: int = 18, bold: bool = False, condensed: bool = False) -> int:
    """Width in pixels; cached, since the same labels are measured again on every picture (fitting them)."""
    if plain(s, bold, condensed):
        laid = _words_of(s, size, bold, condensed) if _mostly_met(s, size, bold, condensed, meet=False) else None
        # (a line's advance is its words', exactly: nothing is kerned across a space)
        return int(laid[1] if laid is not None else font(size, bold, condensed).getlength(s))
    return int(sum(w for *_, w in _runs(s, size, bold, condensed)))


def shorter(s: str) -> str:
    """``s`` less its last character as a reader sees it (a whole emoji, a letter with its accents)."""
    parts = textruns.clusters(s)
    return "".join(parts[:-1])


def fitted(s: str, max_width: float, size: int, bold: bool = False, condensed: bool = False,
           smallest: int = 12) -> tuple[str, int, bool]:
    """``(s, size, condensed)`` that fit ``max_width`` pixels: the given size and face if they fit, else a
    condensed face at the largest size that fits, and only if even ``smallest`` is too wide, ``s`` shortened
    with an ellipsis. (Translated words are often longer than the English ones a layout was made for.)"""
    if text_width(s, size, bold, condensed) <= max_width:
        return s, size, condensed
    for k in range(size, smallest - 1, -1):
        if text_width(s, k, bold, True) <= max_width:
            return s, k, True
    while s and text_width(s + "…", smallest, bold, True) > max_width:
        s = shorter(s)
    return s + "…", smallest, True


def fit_words(s: str, max_width: float, size: int, bold: bool = False, smallest: int = 12) -> tuple[str, int, bool]:
    """Like :func:`fitted`, but a text that must be shortened loses whole words (split at spaces and hyphens, so
    "Wiśniewska-Kowalska" becomes "Wiśniewska-…"), never part of one; only a first word too wide on its own is
    cut."""
    fit = fitted(s, max_width, size, bold, smallest=smallest)
    if not fit[0].endswith("…") or fit[0] == s:
        return fit
    parts = re.split(r"(?<=[ -])", s)
    while len(parts) > 1:
        parts.pop()
        short = "".join(parts).rstrip(" ·,:;") + "…"
        if text_width(short, smallest, bold, True) <= max_width:
            return fitted(short, max_width, size, bold, smallest=smallest)
    return fit


def fit_text(s: str, max_width: int, size: int = 18, bold: bool = False) -> str:
    """Shorten ``s`` with an ellipsis so it fits ``max_width`` pixels."""
    if text_width(s, size, bold) <= max_width:
        return s
    while s and text_width(s + "…", size, bold) > max_width:
        s = shorter(s)
    return s + "…"


def steady_height(content: int, heights: dict[int, int], players: int) -> int:
    """The height of a board picture: one fixed height per player count (``heights``, measured as what the
    busiest positions of random games need), so the pictures of one game never change size as the thread
    goes on; a position that needs more (rare) gets what it needs."""
    return max(content, heights.get(players, content))


def badge(draw: ImageDraw.ImageDraw, centre, radius: int, fill, label: str, text_fill="white",
          size: int | None = None, outline="ink") -> None:
    """A filled disc with a letter or number: the mark used for players, tokens and counters."""
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=rgb(fill), outline=rgb(outline), width=2)
    text(draw, (x, y), label, size=size or int(radius * 1.1), fill=text_fill, bold=True, anchor="mm")


def encode(img: Image.Image, pal: Image.Image | None = None) -> bytes:
    """Quantise to a fixed palette (no dithering) and encode as PNG; same image, same bytes. A palette picture
    (mode P: drawn in ``pal`` by :class:`PaletteDraw`) is written as it is.

    The PNG is written here (:func:`png`) rather than by Pillow: the deflate is ISA-L's (``isal``), 3 times as
    fast as zlib's level 1 on these pictures and 10-20% smaller (issue 29; ``python -m bench.render
    --encodings``)."""
    if img.mode == "P":  # drawn in its palette already (:class:`PaletteDraw`): nothing to quantise
        return png(img)
    rgb_img = img if img.mode == "RGB" else img.convert("RGB")
    return png(rgb_img.quantize(palette=pal or palette(), dither=Image.Dither.NONE))


#: the side of the cells :func:`quantized_over` finds the places drawn on by (px): smaller cells quantise fewer
#: pixels but cut them into more pieces (HEX-TRI's board: 16 px quantised a fifth of it, in about 25 pieces)
CHANGED_CELL = 16

_RUN = re.compile(b"\x01+")


def _changed_rects(size: tuple[int, int], boxes, cell: int) -> list[tuple[int, int, int, int]]:
    """The rectangles, in whole cells of ``cell`` px, that cover every box of ``boxes`` (clipped to ``size``):
    runs of cells along each row, a run that goes on unchanged in the next rows made one rectangle."""
    width, height = size
    cols, rows = (width + cell - 1) // cell, (height + cell - 1) // cell
    grid = bytearray(cols * rows)
    for x0, y0, x1, y1 in boxes:
        c0, c1 = max(0, int(x0) // cell), min(cols - 1, (int(x1) + 1) // cell)
        r0, r1 = max(0, int(y0) // cell), min(rows - 1, (int(y1) + 1) // cell)
        if c0 > c1 or r0 > r1:
            continue
        for r in range(r0, r1 + 1):
            grid[r * cols + c0:r * cols + c1 + 1] = b"\x01" * (c1 - c0 + 1)
    out: list[tuple[int, int, int, int]] = []
    running: dict[tuple[int, int], int] = {}  # a run of cells (first, end) -> the row its rectangle began
    before = None
    for r in range(rows + 1):
        row = bytes(grid[r * cols:(r + 1) * cols]) if r < rows else b""
        if row == before:  # the same runs as the row above: its rectangles go on (most rows of a tall box)
            continue
        before = row
        now = {(m.start(), m.end()): running.pop((m.start(), m.end()), r) for m in _RUN.finditer(row)}
        out += [(c0 * cell, r0 * cell, min(width, c1 * cell), min(height, r * cell))
                for (c0, c1), r0 in running.items()]
        running = now
    return out


def quantized_over(img: Image.Image, base: Image.Image, boxes, pal: Image.Image) -> Image.Image:
    """``img`` (RGB) quantised to ``pal`` as :func:`encode` would, quantising only where it was drawn on: ``base``
    is the palette picture of what ``img`` was drawn over (the same size, quantised to ``pal``), ``boxes`` every
    place drawn on since (room to spare costs a little time; a place left out would show ``base`` there).

    Quantising is pixel by pixel, so the result is the very picture quantised whole; each call of Pillow's
    quantise pays for its colour cache anew, so the places are packed side by side into one sheet and quantised
    in one call (issue 29: HEX-TRI's board is 1.4 million pixels, of which a move changes about a fifth)."""
    out = base.copy()
    _paste_quantized(out.im, (0, 0), img, boxes, pal)
    return out


def _paste_quantized(target, at: tuple[int, int], img: Image.Image, boxes, pal: Image.Image) -> None:
    """The places of ``img`` within ``boxes`` (:func:`quantized_over`), quantised to ``pal`` in one sheet and
    pasted onto the core image ``target`` with ``img``'s corner at ``at``."""
    rects = sorted(_changed_rects(img.size, boxes, CHANGED_CELL), key=lambda r: r[1] - r[3])
    if not rects:
        return
    # shelves as wide as the picture, the tallest pieces first
    places: list[tuple[int, int]] = []
    x = y = shelf = 0
    for x0, y0, x1, y1 in rects:
        if x + x1 - x0 > img.width:
            x, y, shelf = 0, y + shelf, 0
        places.append((x, y))
        x, shelf = x + x1 - x0, max(shelf, y1 - y0)
    sheet = Image.new("RGB", (img.width, y + shelf))
    # (Pillow's own images, not its Image objects: some forty pieces a picture, each cut and pasted twice)
    source, sheet_core = img.im, sheet.im
    for (x0, y0, x1, y1), (x, y) in zip(rects, places, strict=True):
        sheet_core.paste(source.crop((x0, y0, x1, y1)), (x, y, x + x1 - x0, y + y1 - y0))
    quantised = sheet.quantize(palette=pal, dither=Image.Dither.NONE).im
    dx, dy = at
    for (x0, y0, x1, y1), (x, y) in zip(rects, places, strict=True):
        target.paste(quantised.crop((x, y, x + x1 - x0, y + y1 - y0)), (x0 + dx, y0 + dy, x1 + dx, y1 + dy))


def encode_over(img: Image.Image, base: Image.Image, boxes, pal: Image.Image, view: dict) -> bytes:
    """``encode(clock_strip(quantized_over(img, base, boxes, pal), view), pal)`` with the same bytes, the picture
    put together once, in the rows the PNG is written from: the base, the places drawn on quantised over it, the
    clock strip on top (issue 29: HEX-TRI's board is 1.4 million pixels; each whole copy of it costs time)."""
    strip = _clock_strip_of(base, view)
    top = strip.height if strip is not None else 0
    rows = _png_rows(base.width, base.height + top)
    if strip is not None:
        rows.im.paste(strip.im, (1, 0, base.width + 1, top))
    rows.im.paste(base.im, (1, top, base.width + 1, top + base.height))
    _paste_quantized(rows.im, (1, top), img, boxes, pal)
    return _png_from_rows(rows, base)


def encode_with_clock(img: Image.Image, view: dict, pal: Image.Image) -> bytes:
    """``encode(clock_strip(img, view), pal)`` with the same bytes; a palette picture and its strip put together
    once, in the rows the PNG is written from, instead of in a picture of their own first."""
    strip = _clock_strip_of(img, view)
    if strip is None or img.mode != "P":
        return encode(_under_strip(img, strip), pal)
    rows = _png_rows(img.width, img.height + strip.height)
    rows.im.paste(strip.im, (1, 0, img.width + 1, strip.height))
    rows.im.paste(img.im, (1, strip.height, img.width + 1, strip.height + img.height))
    return _png_from_rows(rows, img)


#: palette index of a colour, per palette: (the palette, {colour: index})
_NEAREST: dict[int, tuple[Image.Image, dict[tuple[int, int, int], int]]] = {}
#: palette pictures of kept RGB sprites: id(sprite) -> (sprite, palette, its palette picture)
_PALETTED: dict[int, tuple[Image.Image, Image.Image, Image.Image]] = {}
#: pixels of the sprites :data:`_PALETTED` keeps alive (it holds them: an id is never reused while kept)
_PALETTED_PIXELS = [0]
_PALETTED_MAX_PIXELS = 4_000_000


class KeptBands:
    """Bands of palette pictures - their whole width, from one row to another - kept by everything drawn in them,
    and pasted when the same is drawn again (issue 29: a part of a board that a move leaves as it was: a table
    row, a side's panel). A band is drawn on the picture's plain background at whole pixels, so its pixels are
    the same wherever it lands. At most ``limit`` bands, all forgotten when full."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._bands: dict[Hashable, Image.Image] = {}

    def __len__(self) -> int:
        return len(self._bands)

    def clear(self) -> None:
        self._bands.clear()

    def height(self, key: Hashable) -> int | None:
        """The height of the band kept by ``key``, None when none is."""
        band = self._bands.get(key)
        return None if band is None else band.height

    def paste(self, img: Image.Image, key: Hashable, top: int) -> int | None:
        """The band kept by ``key`` pasted onto ``img`` at ``top``: its height; None (nothing pasted) when none
        is kept."""
        band = self._bands.get(key)
        if band is None:
            return None
        img.paste(band, (0, top))
        return band.height

    def keep(self, img: Image.Image, key: Hashable, top: int, bottom: int) -> None:
        """Keep ``img``'s band from row ``top`` to ``bottom`` by ``key`` (not one the picture cuts off)."""
        if bottom > img.height:
            return
        if len(self._bands) >= self.limit:
            self._bands.clear()
        self._bands[key] = img.crop((0, top, img.width, bottom))


def nearest(colour: str | tuple[int, int, int], pal: Image.Image) -> int:
    """The index of ``pal`` a pixel of ``colour`` gets when :func:`encode` quantises a picture to ``pal``."""
    kept = _NEAREST.get(id(pal))
    if kept is None or kept[0] is not pal:
        kept = _NEAREST[id(pal)] = (pal, {})
    c = rgb(colour)
    index = kept[1].get(c)
    if index is None:
        pixel = Image.new("RGB", (1, 1), c).quantize(palette=pal, dither=Image.Dither.NONE).getpixel((0, 0))
        index = kept[1][c] = int(pixel) if isinstance(pixel, int | float) else 0
    return index


def paletted(sprite: Image.Image, pal: Image.Image) -> Image.Image:
    """``sprite`` (a kept RGB picture: a card, a label on its background) quantised to ``pal`` as :func:`encode`
    would, kept for as long as the sprite is (by identity: sprites are never changed once drawn)."""
    kept = _PALETTED.get(id(sprite))
    if kept is not None and kept[0] is sprite and kept[1] is pal:
        return kept[2]
    if _PALETTED_PIXELS[0] >= _PALETTED_MAX_PIXELS:
        _PALETTED.clear()
        _PALETTED_PIXELS[0] = 0
    out = sprite.convert("RGB").quantize(palette=pal, dither=Image.Dither.NONE)
    _PALETTED[id(sprite)] = (sprite, pal, out)
    _PALETTED_PIXELS[0] += sprite.width * sprite.height
    return out


#: id(sprite) -> (sprite, whether its alpha is all 0 or 255)
_BINARY_ALPHA: dict[int, tuple[Image.Image, bool]] = {}


def paste_masked(img: Image.Image, sprite: Image.Image, xy: tuple[int, int], pal: Image.Image) -> None:
    """``img.paste(sprite, xy, sprite)`` of a kept RGBA sprite, on a palette picture (of ``pal``) too: a sprite
    whose alpha is all or nothing pasted quantised (kept), another one blended (:func:`blended`)."""
    if img.mode != "P":
        img.paste(sprite, xy, sprite)
        return
    kept = _BINARY_ALPHA.get(id(sprite))
    if kept is None or kept[0] is not sprite:
        if len(_BINARY_ALPHA) > 4096:
            _BINARY_ALPHA.clear()
        counts = sprite.getchannel("A").histogram()
        kept = _BINARY_ALPHA[id(sprite)] = (sprite, sum(counts[1:255]) == 0)
    if kept[1]:
        img.paste(paletted(sprite, pal), xy, sprite.getchannel("A"))
        return
    x, y = xy
    blended(PaletteDraw(img, pal), (x, y, x + sprite.width, y + sprite.height),
            lambda d, ox, oy: d._image.paste(sprite, (x + ox, y + oy), sprite))


def draw_on(img: Image.Image, pal: Image.Image) -> ImageDraw.ImageDraw:
    """The draw of a picture: a :class:`PaletteDraw` of ``pal`` for a palette picture."""
    return PaletteDraw(img, pal) if img.mode == "P" else ImageDraw.Draw(img)


_PALETTES: dict[bytes, Image.Image] = {}


def palette_of(img: Image.Image) -> Image.Image:
    """The palette (an image to quantise to) of a palette picture."""
    colours = bytes(img.getpalette() or [])
    pal = _PALETTES.get(colours)
    if pal is None:
        if len(_PALETTES) > 64:
            _PALETTES.clear()
        pal = _PALETTES[colours] = Image.new("P", (1, 1))
        pal.putpalette(colours)
    return pal


class PaletteDraw(ImageDraw.ImageDraw):
    """``ImageDraw`` on a palette picture (mode P, indices of ``pal``) that takes colours as names or RGB, each
    drawn as the index :func:`encode` would give it. Shapes drawn here (rectangles, lines, polygons, discs: Pillow
    draws them without blending) are the very pixels drawing them in RGB and quantising gives, and the picture
    needs no quantising (issue 29: a picture made of kept sprites and shapes is drawn in its palette). Text is
    blended, so it is not drawn here: it comes as sprites on their background (:func:`paletted`)."""

    def __init__(self, img: Image.Image, pal: Image.Image) -> None:
        super().__init__(img)
        self.pal = pal

    def _index(self, colour):
        return nearest(colour, self.pal) if isinstance(colour, str | tuple) else colour

    def _getink(self, ink, fill=None):
        return super()._getink(self._index(ink), self._index(fill))


def palette_canvas(width: int, height: int, background: str | tuple[int, int, int],
                   pal: Image.Image) -> tuple[Image.Image, PaletteDraw]:
    """:func:`canvas` as a palette picture of ``pal`` (see :class:`PaletteDraw`)."""
    img = Image.new("P", (width, height), nearest(background, pal))
    img.putpalette(pal.getpalette() or [])
    return img, PaletteDraw(img, pal)


#: what :func:`blended` made on a background of one colour: (key, size, index) -> its palette picture
_ON_FLAT: dict[tuple, Image.Image] = {}
_ON_FLAT_MAX = 4096


def blended(draw: PaletteDraw, box: tuple[int, int, int, int], paint: Callable[[ImageDraw.ImageDraw, int, int], None],
            key: tuple | None = None) -> None:
    """Something blended (antialiased text, a masked paste) onto a palette picture: ``paint(rgb_draw, dx, dy)``
    draws it as it would on the RGB picture, shifted by ``(dx, dy)``, on the RGB colours of ``box`` (the pixels it
    may touch); that part is quantised back to the palette as :func:`encode` would. A part of one colour with a
    ``key`` (what is drawn: the same key, the same pixels) is kept, so a label on a plain background is pasted
    the second time. The same pixels as the RGB picture quantised wherever what lies under it is drawn in the
    palette's own colours (shapes of the game's colours, not another antialiased edge)."""
    img = draw._image
    x0, y0, x1, y1 = max(0, box[0]), max(0, box[1]), min(img.width, box[2]), min(img.height, box[3])
    if x0 >= x1 or y0 >= y1:
        return
    under = img.crop((x0, y0, x1, y1))
    lo, hi = under.getextrema()
    # (a palette picture's index is its colour: one index, one colour under it)
    flat_key = (key, box[0] - x0, box[1] - y0, x1 - x0, y1 - y0, lo) if key is not None and lo == hi else None
    if flat_key is not None:
        kept = _ON_FLAT.get(flat_key)
        if kept is not None:
            img.paste(kept, (x0, y0))
            return
    region = under.convert("RGB")
    paint(ImageDraw.Draw(region), -x0, -y0)
    out = region.quantize(palette=draw.pal, dither=Image.Dither.NONE)
    img.paste(out, (x0, y0))
    if flat_key is not None:
        if len(_ON_FLAT) >= _ON_FLAT_MAX:
            _ON_FLAT.clear()
        _ON_FLAT[flat_key] = out


def bitmap(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mask: Image.Image, fill, key: tuple | None = None) -> None:
    """``draw.bitmap(xy, mask, fill)``, on a palette picture too (:func:`blended`; ``key``: what the mask is, for
    keeping it on a plain background)."""
    if not isinstance(draw, PaletteDraw):
        draw.bitmap(xy, mask, fill=fill)
        return
    x, y = int(xy[0]), int(xy[1])
    blended(draw, (x, y, x + mask.width, y + mask.height),
            lambda d, dx, dy: d.bitmap((x + dx, y + dy), mask, fill=fill),
            None if key is None else (*key, rgb(fill)))


def _text_paletted(draw: PaletteDraw, xy, s: str, size: int, fill, bold: bool, anchor: str, condensed: bool) -> None:
    """:func:`text` on a palette picture: what the RGB picture's text blends, from the same stamps."""
    x, y = xy
    if x < 0 or y < 0 or "\n" in s:  # (never on the games' pictures) the whole picture blended
        blended(draw, (0, 0, draw._image.width, draw._image.height),
                lambda d, dx, dy: text(d, (x + dx, y + dy), s, size, fill, bold, anchor, condensed))
        return
    if plain(s, bold, condensed):
        key = (s, size, bold, condensed, anchor, x - int(x), y - int(y))
        if _SEEN.get(key, 0) >= _WHOLE_AFTER:  # drawn before: from its stamp
            mask, dx, dy = _glyphs(*key)
            bitmap(draw, (int(x) + dx, int(y) + dy), mask, rgb(fill), ("glyphs", *key))
            return
        # a text seen once or twice (a status line that changes with every move): word by word, or drawn as it
        # is, as on an RGB picture
        _saw(key)
        stamps = _word_stamps(xy, s, size, bold, condensed, anchor)
        if stamps is not None:
            for word, at_x, at_y in stamps:
                bitmap(draw, (at_x, at_y), _glyphs(*word)[0], rgb(fill), ("glyphs", *word))
            return
        f = font(size, bold, condensed)
        x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
        blended(draw, (int(x) + int(x0) - 2, int(y) + int(y0) - 2, int(x) + int(x1) + 3, int(y) + int(y1) + 3),
                lambda d, dx, dy: d.text((x + dx, y + dy), s, font=f, fill=rgb(fill), anchor=anchor))
        return
    laid = _runs(s, size, bold, condensed)
    left, baseline = _origin(xy, sum(w for *_, w in laid), size, bold, condensed, anchor)
    for run, f, t, kw, w in laid:
        fx, fy = left - int(left), baseline - int(baseline)
        if run.emoji:  # the box of its colour layer, as an RGB picture's default ink stamps it
            ink, fill_ink = ImageDraw.Draw(Image.new("RGB", (1, 1)))._getink(None)
            _, mask, (bx, by) = _emoji_stamp(f, t, ink if ink is not None else fill_ink, fx, fy)
            size_x, size_y = mask.size
        else:
            glyphs, bx, by = _run_glyphs(f, t, kw.get("direction"), fx, fy)
            size_x, size_y = glyphs.size
        at_x, at_y = int(left) + bx, int(baseline) + by
        blended(draw, (at_x, at_y, at_x + size_x, at_y + size_y),
                _run_painter((left, baseline), f, t, kw.get("direction"), run.emoji, rgb(fill)))
        left += w


def _run_painter(at: tuple[float, float], f: ImageFont.FreeTypeFont, t: str, direction: str | None, emoji: bool,
                 fill) -> Callable[[ImageDraw.ImageDraw, int, int], None]:
    """:func:`_stamp_run` of one run at ``at``, on a part of the picture shifted by ``(dx, dy)``."""
    def paint(d: ImageDraw.ImageDraw, dx: int, dy: int) -> None:
        _stamp_run(d, (at[0] + dx, at[1] + dy), f, t, direction, emoji, fill)
    return paint


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(tag)))


def _raw_bytes(img: Image.Image) -> bytes:
    """``img.tobytes()`` of a one-byte-per-pixel image in one piece: ``tobytes`` unpacks in 64 KB blocks and joins
    them, which costs ten times as long on a board of 1.5 million pixels (1.3 ms against 0.14 ms)."""
    size = img.width * img.height
    encoder = Image._getencoder(img.mode, "raw", img.mode)  # (what tobytes uses; Pillow is pinned)
    encoder.setimage(img.im, (0, 0, *img.size))
    _, done, data = encoder.encode(size + 16)
    return data if done == 1 and len(data) == size else img.tobytes()


def png(quantised: Image.Image, level: int = PNG_LEVEL) -> bytes:
    """A palette image (mode P, 8 bits) as PNG bytes: one IDAT of its rows, each with filter 0 (none: what the
    PNG specification advises for palette images, and what Pillow writes for them), compressed by
    :data:`DEFLATE` at ``level``. A function of the pixels and the palette alone."""
    if quantised.mode != "P":
        raise ValueError(f"png() writes palette images, not {quantised.mode}")
    w, h = quantised.size
    rows = _png_rows(w, h)
    rows.im.paste(quantised.im, (1, 0, w + 1, h))
    return _png_from_rows(rows, quantised, level)


def _png_rows(width: int, height: int) -> Image.Image:
    """The rows of a PNG ``width`` x ``height``, each behind its filter byte (0): a zeroed L image one column
    wider, the palette indices to be pasted one column right."""
    return Image.new("L", (width + 1, height), 0)


def _png_from_rows(rows: Image.Image, coloured: Image.Image, level: int = PNG_LEVEL) -> bytes:
    """The PNG of :func:`_png_rows` filled in, in the palette of the palette picture ``coloured``."""
    colours = bytes(coloured.getpalette() or [])[:768]
    colours += bytes(768 - len(colours))
    return b"".join((b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", rows.width - 1, rows.height, 8, 3, 0, 0, 0)),
                     _chunk(b"PLTE", colours), _chunk(b"IDAT", DEFLATE(_raw_bytes(rows), level)),
                     _chunk(b"IEND", b"")))


def ending(view: dict) -> dict | None:
    """How the game ended, when the host says it ended other than by its rules alone (resigned, out of time,
    decided by an organizer, called off; host/ending.py): ``{"headline": "Bob wins: Ann resigned", "places":
    [...] or None, "left": {"<seat>": "resigned", ...}}``, in the game's language. A picture with one shows the
    headline where it names whose turn it is, and asks nobody for a move."""
    found = view.get("ending")
    return found if isinstance(found, dict) and found.get("headline") else None


def at_rest(view: dict, **cleared) -> dict:
    """``view`` as a finished game's picture draws it: nobody to act (``to_act`` empty) and the ``cleared``
    keys (a game's own "who decides what") set as given; unchanged while the game has no :func:`ending`."""
    if ending(view) is None:
        return view
    return {**view, "to_act": [], **cleared}


#: the clock strip's type at Discord's 420 px chat column (tests/render/phone.py reads 12 px as the least)
CLOCK_STRIP_PX = 12.5


def clock_strip(img: Image.Image, view: dict) -> Image.Image:
    """``img`` with a strip on top telling the time left of the seats to act: ``view["clock"]`` (added by the
    host) lists ``{"text": "Ann: 11 h 20 min left", "urgent": bool}``, already in the game's language and
    worked out when the picture is drawn (a picture cannot show a deadline in each reader's time zone).
    Without clock entries the picture is returned as it is. The type grows with the picture's width, so it
    stays readable when Discord shrinks a wide board to its chat column; urgent entries (an hour or less
    left) are in the highlight colour."""
    return _under_strip(img, _clock_strip_of(img, view))


def _under_strip(img: Image.Image, strip: Image.Image | None) -> Image.Image:
    """``img`` with ``strip`` (:func:`_clock_strip_of`) on top; ``img`` itself when there is no strip."""
    if strip is None:
        return img
    if img.mode == "P":  # the strip drawn alone in RGB and quantised to the board's palette (as encode would)
        board = Image.new("P", (img.width, img.height + strip.height))
        board.putpalette(bytes(img.getpalette() or []))
        board.paste(strip, (0, 0))
        board.paste(img, (0, strip.height))
        return board
    out = Image.new("RGB", (img.width, img.height + strip.height))
    out.paste(strip, (0, 0))
    out.paste(img.convert("RGB") if img.mode != "RGB" else img, (0, strip.height))
    return out


def _clock_strip_of(img: Image.Image, view: dict) -> Image.Image | None:
    """The clock strip :func:`clock_strip` puts on top of ``img`` (quantised to its palette when ``img`` is a
    palette picture), or None when the view has no clock entries. Every board picture asks this once."""
    entries = [e for e in view.get("clock") or [] if str(e.get("text", "")).strip()]
    if not entries:
        return None
    colours = bytes(img.getpalette() or []) if img.mode == "P" else b""
    return _strip(img.width, tuple((str(e["text"]), bool(e.get("urgent"))) for e in entries), colours)


#: clock strips kept by :func:`_strip`: the same words come back move after move (a strip is 40-120 KB: at most about 4 MB)
_STRIPS_KEPT = 32


@lru_cache(maxsize=_STRIPS_KEPT)
def _strip(width: int, entries: tuple[tuple[str, bool], ...], colours: bytes) -> Image.Image:
    """The clock strip of :func:`clock_strip` alone, ``width`` wide: RGB, or quantised to the palette
    ``colours`` (a palette board's). Kept, and never changed by a caller (pasted only): a board's strip reads the
    same until a clock's words change."""
    size = max(16, round(CLOCK_STRIP_PX * max(1.0, width / 420)))
    pad, gap = size // 2, "   ·   "
    room = width - 2 * pad
    # greedy lines: as many entries side by side as fit, an entry wider than a line fitted on its own
    lines: list[list[tuple[str, int, bool, bool]]] = [[]]
    used = 0
    for entry, urgent in entries:
        s, k, condensed = fitted(entry, room, size, bold=True, smallest=max(12, round(size * 0.8)))
        w = text_width(s, k, True, condensed) + (text_width(gap, size) if lines[-1] else 0)
        if lines[-1] and used + w > room:
            lines.append([])
            used, w = 0, text_width(s, k, True, condensed)
        lines[-1].append((s, k, condensed, urgent))
        used += w
    line_h = round(size * 1.45)
    strip_h = len(lines) * line_h + pad + 3
    out = Image.new("RGB", (width, strip_h), rgb("ink"))
    draw = ImageDraw.Draw(out)
    # a gold rule parts the strip from a board whose own header is dark too
    draw.rectangle((0, strip_h - 3, width, strip_h - 1), fill=rgb("gold"))
    for i, line in enumerate(lines):
        x, y = pad, pad // 2 + i * line_h + line_h // 2
        for j, (s, k, condensed, urgent) in enumerate(line):
            if j:
                text(draw, (x, y), gap, size=size, fill="light_grey", anchor="lm")
                x += text_width(gap, size)
            text(draw, (x, y), s, size=k, fill="highlight" if urgent else "white", bold=True, anchor="lm",
                 condensed=condensed)
            x += text_width(s, k, True, condensed)
    if not colours:
        return out
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours)
    return out.quantize(palette=pal, dither=Image.Dither.NONE)
