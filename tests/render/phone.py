"""How a picture reads on a phone: Discord shows an image in the chat column at about 420 px wide (phone and
desktop alike) until it is tapped, so every text a player needs must stay readable at that width.

``texts_at_phone_width(render, view)`` renders a view while recording every text drawn (through Pillow's
``ImageDraw.text``, which every renderer ends in) with its font size, scaled to a 420 px wide column. Caches of
drawn sprites are cleared first, so that every text is really drawn during the call.
"""

from __future__ import annotations

import importlib
import io
import pkgutil
from unittest import mock

from PIL import Image, ImageDraw

import render
from render import kit

#: Discord's chat column shows a picture about this wide before it is tapped
PHONE_WIDTH = 420
#: the smallest font size (em, in CSS pixels) that reads without zooming at that width: Discord's own smallest
#: labels are 12 px (a phone shows them at 2-3 device pixels per CSS pixel)
MIN_READABLE_PX = 12.0


def _clear_render_caches() -> None:
    for info in pkgutil.iter_modules(render.__path__):
        module = importlib.import_module(f"render.{info.name}")
        for obj in list(vars(module).values()):
            clear = getattr(obj, "cache_clear", None)
            if callable(clear):
                clear()
        extra = getattr(module, "clear_caches", None)
        if callable(extra):
            extra()


def texts_at_phone_width(render_fn, *args) -> tuple[list[tuple[str, float]], tuple[int, int]]:
    """``([(text, font px at 420 px wide), …], (width, height))`` of the picture ``render_fn(*args)`` draws."""
    _clear_render_caches()
    drawn: list[tuple[str, int]] = []
    original = ImageDraw.ImageDraw.text

    def recording(self, xy, text, fill=None, font=None, *a, **kw):
        size = getattr(font if font is not None else kw.get("font"), "size", None)
        if size is not None and str(text).strip():
            drawn.append((str(text), size))
        return original(self, xy, text, fill, font, *a, **kw)

    def recording_checked(self, xy, text, fill=None, font=None, *a, **kw):
        f = font if font is not None else kw.get("font")
        if getattr(f, "path", "").endswith("Twemoji.ttf"):
            return original(self, xy, text, fill, font, *a, **kw)  # an emoji beside text of its own size
        return recording(self, xy, text, fill, font, *a, **kw)

    # each line drawn whole, so that it is recorded as the one text it is (drawn word by word it has the same
    # pixels: tests/render/test_text_words.py)
    with mock.patch.object(ImageDraw.ImageDraw, "text", recording_checked), \
            mock.patch.object(kit, "_word_stamps", lambda *a, **kw: None):
        png = render_fn(*args)
    _clear_render_caches()
    width, height = Image.open(io.BytesIO(png)).size
    scale = min(1.0, PHONE_WIDTH / width)
    return [(s, size * scale) for s, size in drawn], (width, height)


def floor(game: str) -> float:
    """The least text size (px at phone width) a game's pictures are held to: 12 px for every game (issue 27;
    HEX-TRI's radius-4 and radius-5 boards, the last held to 9 px, are drawn in two halves for it)."""
    return MIN_READABLE_PX


def too_small(render_fn, *args, minimum: float = MIN_READABLE_PX) -> list[tuple[str, float]]:
    """The texts of the picture that are smaller than ``minimum`` px at phone width (empty = all readable)."""
    texts, _ = texts_at_phone_width(render_fn, *args)
    return sorted({(s, round(px, 1)) for s, px in texts if px < minimum}, key=lambda x: x[1])
