"""Hector and Achilles pictures, drawn from engine views only.

``render_public(view)``: the battle table seen from above with the Achaeans at the bottom and the Trojans at
the top (front decks 1, 2, 3 face each other as in the rulebook, home decks behind them), both sides' played
cards, the fate tile with the colour facing each side, reserves, the attacker, the round, strength totals,
whose turn it is and, between battles, the last battle's result. ``render_private(view)``: one seat's hand and
the colours that score for it now. Every colour also carries its letter and a pattern; card faces are cached
sprites so a picture takes a few milliseconds.

Every word on a picture comes from ``data/locales/hector-achilles/picture/<lang>.json`` in the game's language
(``view["lang"]``): ``say = kit.words("hector-achilles", view)`` is read once per picture and handed down, and
cached sprites take the drawn text itself as part of their key.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from render import kit

GAME = "hector-achilles"

_DATA = Path(__file__).resolve().parent.parent / "data" / "hector_achilles"
_COLOURS = {c["key"]: c for c in json.loads((_DATA / "colours.json").read_text("utf-8"))["colours"]}
_KINDS = {k["strength"]: k for k in json.loads((_DATA / "troops.json").read_text("utf-8"))["kinds"]}


def _shade(rgb: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    if f < 1:
        r, g, b = (int(c * f) for c in rgb)
    else:
        r, g, b = (int(c + (255 - c) * (f - 1)) for c in rgb)
    return r, g, b


ARMY = {k: tuple(c["rgb"]) for k, c in _COLOURS.items()}
ARMY_DARK = {k: _shade(v, 0.72) for k, v in ARMY.items()}
TABLE = (52, 78, 60)
TABLE_LINE = (74, 104, 82)
CARD_BACK = (112, 40, 34)
CARD_BACK_LINE = (140, 62, 52)
HERO_FRAME = (190, 150, 50)
HERO_BG = (250, 238, 200)
GOLD = (222, 178, 58)
SHAME = (90, 40, 90)
ACHAEAN_PANEL = (232, 222, 198)
TROJAN_PANEL = (214, 222, 232)
HIGHLIGHT = (255, 214, 0)

_OWN_COLOURS = [*ARMY.values(), *ARMY_DARK.values(), TABLE, TABLE_LINE, CARD_BACK, CARD_BACK_LINE, HERO_FRAME,
                HERO_BG, GOLD, SHAME, ACHAEAN_PANEL, TROJAN_PANEL]

kit.register_colours({f"ha_{k}": v for k, v in ARMY.items()})
kit.register_colours({f"ha_{k}_dark": v for k, v in ARMY_DARK.items()})
kit.register_colours({"ha_table": TABLE, "ha_table_line": TABLE_LINE, "ha_back": CARD_BACK,
                      "ha_back_line": CARD_BACK_LINE, "ha_hero_frame": HERO_FRAME, "ha_hero_bg": HERO_BG,
                      "ha_gold": GOLD, "ha_shame": SHAME, "ha_achaean": ACHAEAN_PANEL,
                      "ha_trojan": TROJAN_PANEL})

#: Discord shows a picture about 420 px wide until it is tapped: at 640 px wide every text of at least
#: ``MIN_TEXT`` px is 12 px or more there (tests/render/phone.py), so the table is tall and narrow
W = 640
MIN_TEXT = 19


def _px(size: int) -> int:
    """A text size at least ``MIN_TEXT`` (the floor every text of the pictures is held to)."""
    return max(MIN_TEXT, size)
CARD_W, CARD_H = 116, 144  # five cards a row: a hero's name ("Agamemnon") fits at MIN_TEXT
PITCH = 120
ROW_X = 12
SLOTS = 5
TILE = 124


def colour_name(say, key: str) -> str:
    return say(f"colour_{key}")


def letter(say, key: str) -> str:
    return say(f"letter_{key}")


def kind_name(say, strength: int) -> str:
    return say(f"kind_{strength}")


def side_name(say, seat: int) -> str:
    return say(f"side_{seat}")


def named_side(view: dict, say, seat: int) -> str:
    """The player's name with his side beside it ("Ann (Achaeans)"), the side alone without a name."""
    name = player_name(view, seat)
    # a long name gives way at a word (the panel below has it in full), so the decision keeps its room
    return f"{_fit_words(name, 200, 18, True)} ({side_name(say, seat)})" if name else side_name(say, seat)


def hero_name(say, name: str) -> str:
    """The hero's name as the game's language spells it (the name itself when the table has none)."""
    try:
        return say(f"hero_{name}")
    except KeyError:
        return name


def _fit_size(s: str, max_width: int, size: int, bold: bool = False, condensed: bool = False,
              least: int = MIN_TEXT) -> int:
    """The largest size up to ``size`` at which ``s`` fits ``max_width`` (longer words in other languages)."""
    while size > least and kit.text_width(s, size, bold, condensed) > max_width:
        size -= 1
    return size


PALETTE = kit.make_palette(_OWN_COLOURS)


def _encode(img: Image.Image) -> bytes:
    return kit.encode(img, PALETTE)


def _paste(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste a kept sprite: as it is on an RGB picture, quantised (once) on a palette picture. The table and the
    hand are drawn in the palette (``kit.PaletteDraw``): every part of them is a sprite pasted whole or a shape,
    so they need no quantising (issue 29) and are the very pixels an RGB picture quantised gives."""
    img.paste(kit.paletted(sprite, PALETTE) if img.mode == "P" else sprite, xy)



# ------------------------------------------------------------------------------------------------ cached text

@lru_cache(maxsize=4096)
def _text_sprite(s: str, size: int, fill, bg, bold: bool, anchor: str, condensed: bool):
    mask, colour, x0, y0 = kit.text_mask(s, size, bold, condensed, anchor)
    img = Image.new("RGB", mask.size, bg)
    img.paste(fill, (0, 0), mask)
    if colour is not None:
        img.paste(colour, (0, 0), colour)
    return img, x0, y0


def _text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bg="paper", bold: bool = False,
          anchor: str = "la", condensed: bool = False) -> None:
    """Text on a solid background, cached as a sprite: most labels repeat from picture to picture, and
    rendering glyphs is the slowest part of a picture."""
    sprite, dx, dy = _text_sprite(s, _px(size), kit.rgb(fill), kit.rgb(bg), bold, anchor, condensed)
    _paste(img, sprite, (int(xy[0]) + dx, int(xy[1]) + dy))


@lru_cache(maxsize=512)
def _badge_sprite(r: int, fill, label: str, text_fill, size: int, bg) -> Image.Image:
    img = Image.new("RGB", (2 * r + 3, 2 * r + 3), bg)
    kit.badge(ImageDraw.Draw(img), (r + 1, r + 1), r, fill, label, text_fill=text_fill, size=_px(size))
    return img


def _badge(img: Image.Image, centre, r: int, fill, label: str, text_fill="white", size: int = 16,
           bg="paper") -> None:
    sprite = _badge_sprite(r, kit.rgb(fill), label, kit.rgb(text_fill), size, kit.rgb(bg))
    _paste(img, sprite, (int(centre[0]) - r - 1, int(centre[1]) - r - 1))


# ------------------------------------------------------------------------------------------------ sprites

def _pattern(draw: ImageDraw.ImageDraw, box, pattern: str, fill) -> None:
    x0, y0, x1, y1 = box
    if pattern == "diagonal":
        for d in range(-(y1 - y0), x1 - x0, 12):
            draw.line((x0 + d, y1, x0 + d + (y1 - y0), y0), fill=fill, width=3)
    elif pattern == "horizontal":
        for y in range(y0 + 5, y1, 10):
            draw.line((x0, y, x1, y), fill=fill, width=3)
    elif pattern == "vertical":
        for x in range(x0 + 5, x1, 10):
            draw.line((x, y0, x, y1), fill=fill, width=3)
    elif pattern == "dots":
        for y in range(y0 + 6, y1, 12):
            for x in range(x0 + 6 + (y // 12 % 2) * 6, x1, 12):
                draw.ellipse((x - 2, y - 2, x + 2, y + 2), fill=fill)
    elif pattern == "cross":
        for d in range(-(y1 - y0), x1 - x0, 14):
            draw.line((x0 + d, y1, x0 + d + (y1 - y0), y0), fill=fill, width=2)
            draw.line((x0 + d, y0, x0 + d + (y1 - y0), y1), fill=fill, width=2)


@lru_cache(maxsize=256)
def troop_sprite(colour: str, strength: int, scale: float, dim: bool, mark: str, name: str, kind: str,
                 name_at: tuple[int, int]) -> Image.Image:
    """A face-up troop card: colour and pattern, the colour's letter (``mark``) and ``name`` (at x and size
    ``name_at``), the strength and the ``kind``."""
    w, h = int(CARD_W * scale), int(CARD_H * scale)
    img, d = kit.canvas(w, h, "paper")
    d.rectangle((0, 0, w - 1, h - 1), fill=ARMY[colour])
    _pattern(d, (0, 0, w, h), _COLOURS[colour]["pattern"], ARMY_DARK[colour])
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(8 * scale), outline=kit.rgb("ink"), width=2)
    # the colour's name on a white strip, its letter (as on the fate tile) in the lower left corner
    d.rectangle((4, 4, w - 5, int(30 * scale)), fill=kit.rgb("white"))
    kit.text(d, (w // 2, int(17 * scale)), name, size=_px(name_at[1]), bold=True, anchor="mm", condensed=True)
    kit.badge(d, (int(17 * scale), int(94 * scale)), int(13 * scale), ARMY[colour], mark,
              size=_px(int(16 * scale)), text_fill="white" if colour not in ("yellow",) else "ink")
    # strength in a white disc
    cx, cy, r = w // 2, int(72 * scale), int(27 * scale)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=kit.rgb("white"), outline=kit.rgb("ink"), width=2)
    kit.text(d, (cx, cy), str(strength), size=_px(int(36 * scale)), bold=True, anchor="mm")
    # troop kind on a strip
    y = int(108 * scale)
    d.rectangle((4, y, w - 5, y + int(24 * scale)), fill=kit.rgb("white"))
    size = _fit_size(kind, w - 12, int(16 * scale), True, True)
    kit.text(d, (w // 2, y + int(12 * scale)), kind, size=_px(size), bold=True, anchor="mm", condensed=True)
    if dim:
        img = Image.blend(img, Image.new("RGB", img.size, kit.rgb("dark_grey")), 0.55)
    return img


@lru_cache(maxsize=64)
def hero_sprite(name: str, colour: str, value: int, scale: float, dim: bool, bg, title: str, mark: str,
                colour_label: str) -> Image.Image:
    """A hero card: gold frame, ``title`` ("HERO"), the name, the hero's colour (letter ``mark``, pattern and
    ``colour_label``) and value."""
    w, h = int(CARD_W * scale), int(CARD_H * scale)
    img, d = kit.canvas(w, h, bg)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(8 * scale), fill=HERO_FRAME, outline=kit.rgb("ink"),
                        width=2)
    d.rectangle((5, 5, w - 6, h - 6), fill=HERO_BG)
    kit.text(d, (w // 2, int(15 * scale)), title, size=_px(int(16 * scale)), bold=True, anchor="mm", fill="ink",
             condensed=kit.text_width(title, _px(int(16 * scale)), True) > w - 12)
    size = _px(int(17 * scale))
    bold = kit.text_width(name, size, True, True) <= w - 10  # "Agamemnon" fits a card only unbolded
    kit.text(d, (w // 2, int(36 * scale)), name, size=size, bold=bold, anchor="mm", condensed=True)
    band = (6, int(50 * scale), w - 7, int(74 * scale))
    d.rectangle(band, fill=ARMY[colour])
    _pattern(d, band, _COLOURS[colour]["pattern"], ARMY_DARK[colour])
    kit.badge(d, (w // 2, int(62 * scale)), int(12 * scale), ARMY[colour], mark,
              size=_px(int(15 * scale)), text_fill="white" if colour != "yellow" else "ink")
    kit.text(d, (w // 2, int(85 * scale)), colour_label, size=_px(int(16 * scale)), bold=True, anchor="mm",
             condensed=True)
    cx, cy, r = w // 2, int(116 * scale), int(20 * scale)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=kit.rgb("ink"), width=2)
    kit.text(d, (cx, cy), str(value), size=_px(int(28 * scale)), bold=True, anchor="mm")
    if dim:
        img = Image.blend(img, Image.new("RGB", img.size, kit.rgb("grey")), 0.35)
    return img


@lru_cache(maxsize=64)
def covered_band(colour: str, strength: int, mark: str) -> Image.Image:
    """The strip of a troop card that peeks out above the hero covering it: letter, strength, 'covered'."""
    img, d = kit.canvas(CARD_W, 30, "light_grey")
    for x in range(-30, CARD_W, 8):  # hatching: this card no longer counts
        d.line((x, 30, x + 30, 0), fill=kit.rgb("grey"), width=2)
    d.rectangle((0, 0, CARD_W - 1, 29), outline=kit.rgb("ink"), width=2)
    kit.badge(d, (16, 15), 13, ARMY[colour], mark, size=_px(16),
              text_fill="ink" if colour == "yellow" else "white")
    d.rounded_rectangle((34, 3, 60, 27), radius=4, fill=kit.rgb("white"), outline=kit.rgb("ink"))
    kit.text(d, (47, 15), str(strength), size=_px(18), bold=True, anchor="mm")
    return img


@lru_cache(maxsize=8)
def back_sprite(w: int, h: int, bg) -> Image.Image:
    img, d = kit.canvas(w, h, bg)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=5, fill=CARD_BACK, outline=kit.rgb("ink"), width=2)
    for x in range(-h, w, 9):
        d.line((x, h, x + h, 0), fill=CARD_BACK_LINE, width=2)
    return img


@lru_cache(maxsize=64)
def _token_sprite(r: int, state: str, bg) -> Image.Image:
    """A Divine Favour token: gold '+1' in the reserve or on a card, a gold ring while it lies on a card
    (seen from the reserve), grey and crossed when lost for good."""
    img = Image.new("RGB", (2 * r + 3, 2 * r + 3), bg)
    d = ImageDraw.Draw(img)
    c = r + 1
    if state == "lost":
        d.ellipse((c - r, c - r, c + r, c + r), fill=kit.rgb("light_grey"), outline=kit.rgb("dark_grey"), width=2)
        d.line((c - r + 5, c - r + 5, c + r - 5, c + r - 5), fill=kit.rgb("dark_grey"), width=3)
        d.line((c - r + 5, c + r - 5, c + r - 5, c - r + 5), fill=kit.rgb("dark_grey"), width=3)
    elif state == "placed":
        d.ellipse((c - r, c - r, c + r, c + r), outline=GOLD, width=3)
        kit.text(d, (c, c), "+1", size=MIN_TEXT, bold=True, fill="dark_grey", anchor="mm")
    else:
        kit.badge(d, (c, c), r, GOLD, "+1", text_fill="ink", size=_px(14))
    return img


def _token(img: Image.Image, centre, r: int, state: str, bg) -> None:
    _paste(img, _token_sprite(r, state, kit.rgb(bg)), (int(centre[0]) - r - 1, int(centre[1]) - r - 1))


@lru_cache(maxsize=512)
def _deck_sprite(label: str, size: int, eliminated: bool, active: bool, bg, out: str) -> Image.Image:
    """One deck position: a card back with its number and card count, crossed out (``out``) when eliminated,
    framed when it is the active deck of this battle."""
    w, h = 72, 46
    img = Image.new("RGB", (w + 10, h + 10), bg)
    d = ImageDraw.Draw(img)
    x, y = 5, 5
    if eliminated:
        d.rectangle((x, y, x + w, y + h), fill=kit.rgb("light_grey"), outline=kit.rgb("danger"), width=3)
        kit.text(d, (x + w // 2, y + 14), label, size=_px(16), bold=True, anchor="mm", fill="dark_grey")
        # a longer word than "OUT": condensed, and unbolded when even that is too wide
        bold = kit.text_width(out, MIN_TEXT, True, True) <= w - 6
        kit.text(d, (x + w // 2, y + 33), out, size=MIN_TEXT, bold=bold, anchor="mm", fill="danger", condensed=True)
        return img
    if size:
        img.paste(back_sprite(w, h, bg), (x, y))
    else:
        d.rectangle((x, y, x + w, y + h), outline=kit.rgb("grey"), width=2)
    if active:
        d.rectangle((x - 4, y - 4, x + w + 4, y + h + 4), outline=HIGHLIGHT, width=4)
    kit.badge(d, (x + 14, y + 14), 13, "white", label, text_fill="ink", size=_px(14))
    kit.text(d, (x + w - 6, y + h - 4), str(size), size=_px(18), bold=True, fill="white" if size else "ink",
             anchor="rd")
    return img


# ------------------------------------------------------------------------------------------------ table

# top to bottom: header, Trojan panel, Trojan cards, the fate strip (tile, strengths, what happened), Achaean
# cards, Achaean panel, footer
# (every text at least MIN_TEXT: the panels have five lines, the rows a 22 px strip above the cards, the fate
# strip room for two-line labels above and below the tile)
PANEL_H, ROW_H, STRIP_H = 210, 204, 230
Y_TROJAN = 80
Y_TABLE = Y_TROJAN + PANEL_H
ROW_TOP = {1: Y_TABLE + 4}
STRIP_TOP = ROW_TOP[1] + ROW_H
STRIP_BOTTOM = STRIP_TOP + STRIP_H
ROW_TOP[0] = STRIP_BOTTOM + 4
Y_ACHAEAN = ROW_TOP[0] + ROW_H
Y_FOOTER = Y_ACHAEAN + PANEL_H
H = Y_FOOTER + 60
PANEL_TOP = {1: Y_TROJAN, 0: Y_ACHAEAN}
PANEL_BG = {1: TROJAN_PANEL, 0: ACHAEAN_PANEL}
TILE_CENTRE = (84, (STRIP_TOP + STRIP_BOTTOM) // 2)
#: the strength / score boxes in the fate strip (Trojans above, Achaeans below) and the text column beside them
BOX_X0, BOX_X1 = 492, 628
BOX_H = 96
BOX_TOP = {1: STRIP_TOP + 12, 0: STRIP_BOTTOM - 12 - BOX_H}
TEXT_X0, TEXT_X1 = 176, BOX_X0 - 12


def _fit_words(s: str, max_width: int, size: int, bold: bool = False) -> str:
    """``s`` shortened at a word boundary (with an ellipsis) to fit; a single over-long word is cut."""
    if kit.text_width(s, size, bold) <= max_width:
        return s
    words = s.split(" ")
    while len(words) > 1:
        words.pop()
        short = " ".join(words).rstrip(" ·,:;") + "…"
        if kit.text_width(short, size, bold) <= max_width:
            return short
    return kit.fit_text(s, max_width, size, bold)


def _wrap(s: str, max_width: int, size: int, bold: bool, lines: int) -> list[str]:
    """Word-wrapped lines of ``s`` (at most ``lines``; the last one shortened at a word if need be)."""
    out: list[str] = []
    words = s.split(" ")
    while words and len(out) < lines:
        line = words.pop(0)
        while words and kit.text_width(line + " " + words[0], size, bold) <= max_width:
            line += " " + words.pop(0)
        out.append(line)
    if words:
        out[-1] = _fit_words(out[-1] + " " + " ".join(words), max_width, size, bold)
    return [_fit_words(x, max_width, size, bold) for x in out]


@lru_cache(maxsize=4)
def _base_cached(favour: str, shame: str) -> Image.Image:
    img, d = kit.canvas(W, H, "paper")
    d.rectangle((0, 0, W, Y_TROJAN), fill=kit.rgb("ink"))
    d.rectangle((0, Y_TROJAN, W, Y_TABLE), fill=TROJAN_PANEL)
    d.rectangle((0, Y_TABLE, W, Y_ACHAEAN), fill=TABLE)
    d.rectangle((0, Y_ACHAEAN, W, Y_FOOTER), fill=ACHAEAN_PANEL)
    d.rectangle((0, Y_FOOTER, W, H), fill=kit.rgb("panel"))
    for y in (Y_TABLE, Y_ACHAEAN, Y_FOOTER):
        d.line((0, y, W, y), fill=kit.rgb("ink"), width=2)
    for y in (STRIP_TOP, STRIP_BOTTOM):
        d.line((0, y, W, y), fill=TABLE_LINE, width=2)
    tokens_x, shame_x, boxes_x = _favour_row(favour, shame)
    for seat in (0, 1):
        top, bg = PANEL_TOP[seat], PANEL_BG[seat]
        _text(img, (12, top + FAVOUR_Y), favour, MIN_TEXT, bold=True, anchor="lm", bg=bg)
        _text(img, (shame_x, top + FAVOUR_Y), shame, MIN_TEXT, bold=True, anchor="lm", bg=bg)
    return img


#: a panel's lines: side and role; player; decks; favour and shame; hand, heroes and troops (two lines)
NAME_Y, PLAYER_Y, DECKS_Y, FAVOUR_Y, STATS_Y = 22, 50, 68, 138, 172
TOKEN_R, TOKEN_GAP, BOX_GAP = 17, 38, 34


def _favour_row(favour: str, shame: str) -> tuple[int, int, int]:
    """x of the favour tokens, of the word for shame and of the shame boxes (after the words in the language)."""
    tokens_x = 12 + kit.text_width(favour, MIN_TEXT, True) + 12
    shame_x = tokens_x + 3 * TOKEN_GAP + 24
    return tokens_x, shame_x, shame_x + kit.text_width(shame, MIN_TEXT, True) + 12


def _fate_tile(img: Image.Image, d: ImageDraw.ImageDraw, fate: dict | None, decision: dict | None, say) -> None:
    cx, cy = TILE_CENTRE
    s = TILE // 2

    def label(y, text: str, fill: str = "white", condensed: bool = False, up: bool = False) -> None:
        # the tile's column ends where the text column starts: two lines when one is too long
        room = TEXT_X0 - 10
        lines = [text] if kit.text_width(text, MIN_TEXT, True, True) <= room else _wrap(text, room, MIN_TEXT, True, 2)
        if up:
            y -= 23 * (len(lines) - 1)
        for i, line in enumerate(lines):
            narrow = condensed or kit.text_width(line, MIN_TEXT, True) > room
            _text(img, (cx, y + 23 * i), line, MIN_TEXT, fill=fill, bg=TABLE, bold=True, anchor="mm",
                  condensed=narrow)

    if not fate:
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=CARD_BACK, outline=kit.rgb("ink"), width=2)
        title = say("fate")
        _text(img, (cx, cy), title, _fit_size(title, TILE - 12, 18, True), fill="white", bg=CARD_BACK, bold=True,
              anchor="mm")
        label(cy + s + 16, say("face_down"))
        return
    colours, k = fate["colours"], fate["orientation"]
    # clockwise from the Achaean edge (bottom): south, west, north, east
    south, west, north, east = (colours[(k + i) % 4] for i in range(4))
    inner = 32
    polys = {
        "S": [(cx - s, cy + s), (cx + s, cy + s), (cx + inner, cy + inner), (cx - inner, cy + inner)],
        "N": [(cx - s, cy - s), (cx + s, cy - s), (cx + inner, cy - inner), (cx - inner, cy - inner)],
        "W": [(cx - s, cy - s), (cx - s, cy + s), (cx - inner, cy + inner), (cx - inner, cy - inner)],
        "E": [(cx + s, cy - s), (cx + s, cy + s), (cx + inner, cy + inner), (cx + inner, cy - inner)],
    }
    mid = (s + inner) // 2
    centres = {"S": (cx, cy + mid), "N": (cx, cy - mid), "W": (cx - mid, cy), "E": (cx + mid, cy)}
    for edge, colour in (("S", south), ("N", north), ("W", west), ("E", east)):
        d.polygon(polys[edge], fill=ARMY[colour], outline=kit.rgb("ink"))
        d.ellipse((centres[edge][0] - 14, centres[edge][1] - 14, centres[edge][0] + 14, centres[edge][1] + 14),
                  fill=kit.rgb("white"), outline=kit.rgb("ink"), width=2)
        _text(img, centres[edge], letter(say, colour), 16, bg="white", bold=True, anchor="mm")
    d.rectangle((cx - inner, cy - inner, cx + inner, cy + inner), fill=kit.rgb("paper"), outline=kit.rgb("ink"))
    title = say("fate")
    _text(img, (cx, cy), title, _fit_size(title, 2 * inner - 4, MIN_TEXT, True), bold=True, anchor="mm")
    d.rectangle((cx - s, cy - s, cx + s, cy + s), outline=kit.rgb("ink"), width=3)
    if fate.get("oriented", True):
        label(cy - s - 16, say("fate_trojans", colour=colour_name(say, north)), up=True)
        label(cy + s + 16, say("fate_achaeans", colour=colour_name(say, south)))
    else:
        label(cy - s - 16, say("not_laid"), "highlight", up=True)
        label(cy + s + 16, say("attacker_picks"), "highlight")
    if decision and decision["kind"] == "rotate_fate":
        # the two ways to turn, beside the tile (the status lines go below them)
        y = STRIP_TOP + 16
        for key, after in (("turn_cw", "after_cw"), ("turn_ccw", "after_ccw")):
            a, t = fate[after]
            for text, fill in ((say(key), "highlight"),
                               (say("after_turn", achaeans=colour_name(say, a), trojans=colour_name(say, t)), "white")):
                _text(img, (TEXT_X0, y), text, MIN_TEXT, fill=fill, bg=TABLE, bold=True, anchor="lm", condensed=True)
                y += 24
            y += 6


DECK_X = {"1": 12, "2": 84, "3": 156, "home": 238}


def _deck_block(img: Image.Image, side: dict, top: int, bg, say) -> None:
    """Fronts 1, 2, 3 left to right (equal numbers face each other across the table), then the home deck."""
    for key, x in DECK_X.items():
        deck = side["decks"][key]
        sprite = _deck_sprite(say("home_letter") if key == "home" else key, deck["size"], deck["eliminated"],
                              side["active_deck"] == key, kit.rgb(bg), say("deck_out"))
        _paste(img, sprite, (x - 5, top + DECKS_Y - 5))


def player_name(view: dict, seat: int) -> str | None:
    """The display name the host put into the view for ``seat`` (``view["player_names"]``), or None when the
    view has none (snapshot tests, tools): the pictures then name the sides only."""
    names = view.get("player_names") or []
    if not 0 <= seat < len(names) or not isinstance(names[seat], str):
        return None
    name = " ".join(names[seat].split())
    return name or None


def _side_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, seat: int, say) -> None:
    """Five lines: the side, its role and battles won; the player; the decks; favour and shame; hand, hero deck,
    troops and fallen heroes (two lines)."""
    side = view["sides"][seat]
    top, bg = PANEL_TOP[seat], PANEL_BG[seat]
    _deck_block(img, side, top, bg, say)
    x = 12
    name = side_name(say, seat).upper()
    _text(img, (x, top + NAME_Y), name, 22, bold=True, bg=bg, anchor="lm")
    nx = x + kit.text_width(name, 22, True) + 12
    won = say("battles_won", count=side["battles_won"])
    _text(img, (W - 12, top + NAME_Y), won, MIN_TEXT, bold=True, anchor="rm", bg=bg)
    if view["attacker"] is not None:
        attacking = view["attacker"] == seat
        role = say("attacker") if seat == view["attacker"] else say("defender")
        role_w = max(kit.text_width(role, MIN_TEXT, True), 70) + 16
        d.rounded_rectangle((nx, top + NAME_Y - 14, nx + role_w, top + NAME_Y + 14), radius=6,
                            fill=kit.rgb("danger") if attacking else bg,
                            outline=None if attacking else kit.rgb("dark_grey"), width=2)
        _text(img, (nx + role_w // 2, top + NAME_Y), role, MIN_TEXT, bold=True,
              fill="white" if attacking else "dark_grey", bg="danger" if attacking else bg, anchor="mm")
    player = player_name(view, seat)
    if player:  # the player's name on its own line, shortened at a word only when it is longer than the panel
        _text(img, (x, top + PLAYER_Y), _fit_words(player, W - 24, MIN_TEXT), MIN_TEXT, bg=bg, anchor="lm")
    y = top + FAVOUR_Y
    tokens_x, _, boxes_x = _favour_row(say("favour"), say("shame"))
    placed = sum(1 for c in side["played"] if c["token"])
    states = ["reserve"] * side["favour"] + ["placed"] * placed + ["lost"] * side["favour_lost"]
    for i, st in enumerate(states[:3]):
        _token(img, (tokens_x + TOKEN_R + i * TOKEN_GAP, y), TOKEN_R, st, bg)
    mark = say("shame_letter")
    for i in range(3):
        bx = boxes_x + i * BOX_GAP
        if i < side["shame"]:
            d.rectangle((bx, y - 14, bx + 28, y + 14), fill=SHAME, outline=kit.rgb("ink"), width=2)
            _text(img, (bx + 14, y), mark, MIN_TEXT, bold=True, fill="white", bg=SHAME, anchor="mm")
        else:
            d.rectangle((bx, y - 14, bx + 28, y + 14), outline=kit.rgb("grey"), width=2)
    hero_deck = say("hero_deck", count=side["hero_deck"])
    hand = say("hand_hero" if side["has_hero"] else "hand", count=side["hand_size"])
    y = top + STATS_Y
    _text(img, (x, y), hand, MIN_TEXT, bold=True, anchor="lm", bg=bg)
    hx = x + kit.text_width(hand, MIN_TEXT, True) + 18
    _text(img, (hx, y), hero_deck, MIN_TEXT, anchor="lm", bg=bg)
    y += 24
    room = W - 24
    line = say("troops", left=side["troops_left"], lost=side["removed"])
    if side["lost_heroes"]:
        names = [hero_name(say, h["name"]) for h in side["lost_heroes"]]
        shown = len(names)
        while True:  # whole names only: the ones that fit, then "+N"
            heroes = ", ".join(names[:shown]) + (f" +{len(names) - shown}" if shown < len(names) else "")
            line = say("troops_fallen", left=side["troops_left"], lost=side["removed"], heroes=heroes.strip())
            if shown == 0 or kit.text_width(line, MIN_TEXT, False, True) <= room:
                break
            shown -= 1
    _text(img, (x, y), line, MIN_TEXT, anchor="lm", bg=bg, condensed=kit.text_width(line, MIN_TEXT) > room)


#: each side's panel as drawn on the palette table, by everything it shows (:func:`_panel_key`): a move changes
#: one side's panel at most, often neither (issue 29); 64 panels of 640 x 210 px, 8.6 MB
_PANELS = kit.KeptBands(64)


def clear_caches() -> None:
    """Forget the kept side panels (tests measure every text drawn)."""
    _PANELS.clear()


def _panel_key(view: dict, seat: int, say) -> tuple:
    """Everything :func:`_side_panel` draws from: the language, the seat, its role, its player and the side's
    decks, battles, favour, shame, hand, hero deck, troops and fallen heroes (not its cards on the table)."""
    side = view["sides"][seat]
    role = None if view["attacker"] is None else view["attacker"] == seat
    return (say.lang, seat, role, player_name(view, seat),
            tuple((key, deck["size"], deck["eliminated"]) for key, deck in side["decks"].items()),
            side["active_deck"], side["battles_won"], side["favour"], side["favour_lost"], side["shame"],
            sum(1 for c in side["played"] if c["token"]), side["hero_deck"], side["has_hero"], side["hand_size"],
            side["troops_left"], side["removed"], tuple(h["name"] for h in side["lost_heroes"]))


def _kept_side_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, seat: int, say) -> None:
    """:func:`_side_panel` on the palette table, its band kept and pasted the next time the panel shows the same
    (drawn on the base's plain panel colour, and only there: the same pixels)."""
    key, top = _panel_key(view, seat, say), PANEL_TOP[seat]
    if _PANELS.paste(img, key, top) is None:
        _side_panel(img, d, view, seat, say)
        _PANELS.keep(img, key, top, top + PANEL_H)


def _hero_card(say, hero: dict, scale: float = 1.0, dim: bool = False, bg=TABLE) -> Image.Image:
    c = hero["colour"]
    return hero_sprite(hero_name(say, hero["name"]), c, hero["value"], scale, dim, bg, say("hero"), letter(say, c),
                       colour_name(say, c))


@lru_cache(maxsize=16)
def _card_name_at(names: tuple[str, ...], scale: float) -> tuple[int, int]:
    """Where and how large the colour names go on troop cards: one size for all six colours of a language, so a
    row of cards looks even; names too long for the strip beside the letter start closer to it, smaller."""
    w, size = int(CARD_W * scale), int(16 * scale)
    x = int(33 * scale)
    if all(kit.text_width(n, size, True, True) <= w - 7 - x for n in names):
        return x, size
    x = int(31 * scale)
    return x, min(_fit_size(n, w - 5 - x, size, True, True) for n in names)


def _troop_card(say, card: dict, scale: float = 1.0, dim: bool = False) -> Image.Image:
    c, n = card["colour"], card["strength"]
    at = _card_name_at(tuple(colour_name(say, k) for k in _COLOURS), scale)
    return troop_sprite(c, n, scale, dim, letter(say, c), colour_name(say, c), kind_name(say, n), at)


STRIP_LABEL_H = 22


def _strip_label(img: Image.Image, x: int, top: int, text: str, bg: str) -> None:
    """The dark strip above a card ("VANGUARD")."""
    bold = kit.text_width(text, MIN_TEXT, True, True) <= CARD_W - 4
    _text(img, (x + CARD_W // 2, top + STRIP_LABEL_H // 2), text, MIN_TEXT, bold=bold, fill="white", bg=bg,
          anchor="mm", condensed=True)


def _played_row(img: Image.Image, d: ImageDraw.ImageDraw, played: list[dict], hero: dict | None,
                top: int, highlight: set[str], say, revealed: dict | None = None) -> None:
    for i, card in enumerate(played):
        x = ROW_X + i * PITCH
        covered = hero is not None and hero["on"] == i
        y = top + STRIP_LABEL_H + 3
        _paste(img, _troop_card(say, card, 1.0, covered), (x, y))
        if covered:
            _paste(img, covered_band(card["colour"], card["strength"], letter(say, card["colour"])), (x, y + 2))
        if card.get("vanguard"):
            d.rectangle((x, top, x + CARD_W - 1, top + STRIP_LABEL_H - 1), fill=kit.rgb("ink"))
            _strip_label(img, x, top, say("vanguard"), "ink")
        if covered and hero is not None:  # (covered: a hero is on this card)
            hy = y + 32
            _paste(img, _hero_card(say, hero), (x, hy))
            if "hero" in highlight:
                d.rectangle((x - 3, hy - 3, x + CARD_W + 2, hy + CARD_H + 2), outline=HIGHLIGHT, width=4)
        elif f"slot{i}" in highlight:
            d.rectangle((x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2), outline=HIGHLIGHT, width=4)
        if card.get("token"):
            _token(img, (x + CARD_W - 18, y + 48), TOKEN_R, "reserve", ARMY[card["colour"]])
    if revealed:
        # the hero held back: beside the cards when a slot is free, else named above the row
        if len(played) < SLOTS:
            x, y = ROW_X + len(played) * PITCH, top + STRIP_LABEL_H + 3
            _paste(img, _hero_card(say, revealed, 1.0, True), (x, y))
            d.rectangle((x, top, x + CARD_W - 1, top + STRIP_LABEL_H - 1), fill=kit.rgb("dark_grey"))
            _strip_label(img, x, top, say("not_played"), "dark_grey")
        else:
            text = say("not_played_named", hero=hero_name(say, revealed["name"]),
                       colour=colour_name(say, revealed["colour"]), value=revealed["value"])
            x0 = ROW_X + PITCH + 4
            _text(img, (W - 12, top + STRIP_LABEL_H // 2), _fit_words(text, W - 12 - x0, MIN_TEXT, True), MIN_TEXT,
                  bold=True, fill="white", bg=TABLE, anchor="rm")


def _total_box(img: Image.Image, d: ImageDraw.ImageDraw, seat: int, label: str, value, strong: bool,
               note: str | None = None) -> None:
    """A side's strength (or score) in the fate strip, on that side's half; ``note``: the colours that scored."""
    x0, x1, top = BOX_X0, BOX_X1, BOX_TOP[seat]
    d.rounded_rectangle((x0, top, x1, top + BOX_H), radius=10, fill=kit.rgb("paper"),
                        outline=HIGHLIGHT if strong else kit.rgb("ink"), width=4 if strong else 2)
    cx = (x0 + x1) // 2
    text = label
    _text(img, (cx, top + 17), text, MIN_TEXT, bold=True, anchor="mm",
          condensed=kit.text_width(text, MIN_TEXT, True) > x1 - x0 - 10)
    if note:
        _text(img, (cx, top + 48), str(value), 28, bold=True, anchor="mm")
        _text(img, (cx, top + 78), note, MIN_TEXT, bold=True, anchor="mm", condensed=True)
    else:
        _text(img, (cx, top + 56), str(value), 36, bold=True, anchor="mm")


#: the decisions the header names (``decision_<kind>`` in the picture words)
DECISIONS = ("take_vanguard", "choose_active", "orient_fate", "optional_or_play", "play", "rotate_fate",
             "save_hero")

#: why a game ended (``reason_<reason>`` in the picture words)
REASONS = ("front_decks_lost", "home_deck_exhausted", "no_troops", "draw")


def _decision(say, kind: str, unknown: str) -> str:
    return say(f"decision_{kind}") if kind in DECISIONS else unknown


def _header(img: Image.Image, view: dict, say) -> None:
    """Two lines: the battle (and round); then who must decide what, or how the game ended."""
    if view["round"]:
        left = say("battle_round", battle=view["battle"], round=view["round"])
    else:
        left = say("battle", battle=view["battle"])
    _text(img, (12, 22), left, 22, bold=True, fill="white", bg="ink", anchor="lm")
    result = view.get("result")
    msg = None
    if (ended := kit.ending(view)) is not None:
        msg = ended["headline"]
    elif result:
        reason = say(f"reason_{result['reason']}") if result["reason"] in REASONS else result["reason"]
        if result["winner"] is None:
            msg = say("game_over_draw", reason=reason)
        else:
            msg = say("game_over_win", side=side_name(say, result["winner"]), reason=reason)
    elif view.get("decision"):
        dec = view["decision"]
        msg = say("to_act", side=named_side(view, say, dec["seat"]), decision=_decision(say, dec["kind"], dec["kind"]))
    if msg:
        _text(img, (12, 58), _fit_words(msg, W - 24, 18, True), 18, bold=True, fill="highlight", bg="ink",
              anchor="lm")


def _card_words(say, card: dict | None) -> str:
    if not card:
        return say("no_card")
    return say("card", colour=colour_name(say, card["colour"]), kind=kind_name(say, card["strength"]).lower(),
               strength=card["strength"])


def describe(event: dict, say, view: dict | None = None) -> str | None:
    """A short line for the picture's status strip in the picture's language (``say``), naming the player
    when ``view`` has names; the host narrates events itself."""
    t = event["type"]
    who = named_side(view or {}, say, event["seat"]) if event.get("seat") is not None else ""
    if t == "card_played":
        return say("ev_card_played", who=who, card=_card_words(say, event["card"]))
    if t == "hero_played":
        h = event["hero"]
        return say("ev_hero_played", who=who, hero=hero_name(say, h["name"]), colour=colour_name(say, h["colour"]),
                   value=h["value"])
    if t == "reinforced":
        return say("ev_reinforced", who=who, card=_card_words(say, event["on"]))
    if t == "card_swapped":
        return say("ev_card_swapped", who=who)
    if t == "hero_swapped":
        return say("ev_hero_swapped", who=who)
    if t == "fate_rotated":
        a, b = event["facing"]
        return say("ev_fate_rotated", who=who, achaeans=colour_name(say, a), trojans=colour_name(say, b))
    if t == "fate_phase":
        a, b = event["totals"]
        if event["rotator"] is None:
            return say("ev_fate_tie", a=a, b=b)
        return say("ev_fate_stronger", side=side_name(say, event["rotator"]), high=max(a, b), low=min(a, b))
    if t == "vanguard_taken":
        deck = say("vanguard_home") if event["deck"] == "home" else say("deck_n", deck=event["deck"])
        return say("ev_vanguard_taken", who=who, card=_card_words(say, event["card"]), deck=deck)
    if t == "vanguard_revealed":
        return say("ev_vanguard_revealed", who=who, card=_card_words(say, event["card"]))
    if t == "fate_oriented":
        a, b = event["facing"]
        return say("ev_fate_oriented", achaeans=colour_name(say, a), trojans=colour_name(say, b))
    if t == "passed":
        return say("ev_passed", who=who)
    if t == "battle_started":
        return say("ev_battle_started", battle=event["battle"], side=side_name(say, event["attacker"]))
    if t == "active_decks":
        a, b = (say("deck_home") if d == "home" else say("deck_n", deck=d) for d in event["decks"])
        if a == b:
            return say("ev_active_same", deck=a)
        return say("ev_active_decks", achaeans=a, trojans=b)
    if t == "hero_in_danger":
        return say("ev_hero_in_danger", who=who, hero=hero_name(say, event["hero"]["name"]))
    return None


def _status(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, showing_last: bool, say) -> None:
    """What just happened, in the text column of the fate strip (below the turn choices when there are any)."""
    lb = view.get("last_battle")
    width = TEXT_X1 - TEXT_X0
    if showing_last and lb:
        if lb["kind"] == "retreat":
            msg = say("last_retreat", battle=lb["battle"], retreated=side_name(say, lb["retreated"]),
                      winner=side_name(say, lb["winner"]))
        elif lb["kind"] == "tie":
            msg = say("last_tie", battle=lb["battle"], a=lb["scores"][0], b=lb["scores"][1])
        else:
            msg = say("last_win", battle=lb["battle"], winner=side_name(say, lb["winner"]), a=lb["scores"][0],
                      b=lb["scores"][1])
        # a score "9 : 11" stays on one line
        lines = [x.replace("\u00a0", " ") for x in _wrap(msg.replace(" : ", "\u00a0:\u00a0"), width - 24, 20, True, 3)]
        top = (STRIP_TOP + STRIP_BOTTOM) // 2 - 14 * len(lines) - 8
        d.rounded_rectangle((TEXT_X0, top, TEXT_X1, top + 28 * len(lines) + 16), radius=8, fill=kit.rgb("paper"),
                            outline=HIGHLIGHT, width=3)
        for i, line in enumerate(lines):
            _text(img, (TEXT_X0 + 12, top + 22 + 28 * i), line, 20, bold=True, anchor="lm")
        return
    rotating = (view.get("decision") or {}).get("kind") == "rotate_fate"
    room = 3 if rotating else 8
    y = STRIP_TOP + (138 if rotating else 20)
    lines = []
    for event_line in reversed([s for s in (describe(e, say, view) for e in view.get("last", [])) if s]):
        wrapped = _wrap(event_line, width, MIN_TEXT, True, room)
        if len(lines) + len(wrapped) > room:
            break
        lines = wrapped + lines
    for i, line in enumerate(lines):
        _text(img, (TEXT_X0, y + 24 * i), line, MIN_TEXT, bold=True, fill="white", bg=TABLE, anchor="lm")


def _highlights(view: dict) -> dict[int, set[str]]:
    """What the last action changed on the table, framed in the picture."""
    out: dict[int, set[str]] = {0: set(), 1: set()}
    for e in view.get("last", []):
        if e["type"] in ("card_played", "reinforced"):
            out[e["seat"]].add(f"slot{e['slot']}")
        elif e["type"] == "hero_played":
            out[e["seat"]].add("hero")
    return out


def render_public(view: dict) -> bytes:
    """The battle table everyone sees (a game ended outside its rules: how it ended instead of whose turn)."""
    view = kit.at_rest(view, decision=None)
    say = kit.words("hector-achilles", view)
    img = kit.paletted(_base_cached(say("favour"), say("shame")), PALETTE).copy()
    d = kit.PaletteDraw(img, PALETTE)
    _header(img, view, say)
    _kept_side_panel(img, d, view, 1, say)
    _kept_side_panel(img, d, view, 0, say)
    lb = view.get("last_battle")
    # between battles (and at the end) the table shows how the last battle ended
    showing_last = lb is not None and view["phase"] in ("vanguard", "over")
    if showing_last and lb is not None:
        for seat in (0, 1):
            hero, on_table, revealed = lb["heroes"][seat], None, None
            if hero and hero["played"]:
                on_table = {**hero, "on": next(i for i, c in enumerate(lb["played"][seat]) if c["covered"])}
            elif hero:
                revealed = hero
            _played_row(img, d, lb["played"][seat], on_table, ROW_TOP[seat], set(), say, revealed)
            if lb["scores"] is not None:
                cols = " + ".join(letter(say, c) for c in lb["scoring_colours"][seat])
                _total_box(img, d, seat, side_name(say, seat), lb["scores"][seat], lb["winner"] == seat,
                           note=say("scoring", colours=cols))
            else:
                retreated = lb["retreated"] == seat
                _total_box(img, d, seat, say("retreated") if retreated else say("won"), "-" if retreated else "✓",
                           not retreated)
        _fate_tile(img, d, {**lb["fate"], "oriented": True}, None, say)
    else:
        hl = _highlights(view)
        for seat in (0, 1):
            side = view["sides"][seat]
            _played_row(img, d, side["played"], side["hero"], ROW_TOP[seat], hl[seat], say)
            if side["played"]:
                other = view["sides"][1 - seat]["total"]
                _total_box(img, d, seat, side_name(say, seat), side["total"], side["total"] > other)
        _fate_tile(img, d, view.get("fate"), view.get("decision"), say)
    _status(img, d, view, showing_last, say)
    y = Y_FOOTER + 18
    foot = say("footer", stack=view["fate_stack"], used=view["fate_used"], pool=view["shame_pool"])
    for line in _wrap(foot, W - 24, MIN_TEXT, False, 2):
        _text(img, (12, y), line, MIN_TEXT, anchor="lm", bg="panel")
        y += 24
    if view.get("called_deck") and not showing_last:
        deck = say("home") if view["called_deck"] == "home" else view["called_deck"]
        called = say("battle_deck", deck=deck)
        _text(img, (W - 12, Y_FOOTER + 42), called, MIN_TEXT, bold=True, anchor="rm", bg="panel")
    return kit.encode_with_clock(img, view, PALETTE)


HAND_SCALE = 1.0


def render_private(view: dict) -> bytes | None:
    """A seat's hand (up to four troops and the hero) and the colours that score for it now."""
    if view.get("seat") not in (0, 1) or "hand" not in view:
        return None
    view = kit.at_rest(view, decision=None)
    say = kit.words("hector-achilles", view)
    seat = view["seat"]
    scale = HAND_SCALE
    cw, ch = int(CARD_W * scale), int(CARD_H * scale)
    cards = [("troop", c) for c in view["hand"]]
    if view.get("hand_hero"):
        cards.append(("hero", view["hand_hero"]))
    top = 164
    img, d = kit.palette_canvas(W, top + ch + 48 if cards else top + 60, "paper", PALETTE)
    d.rectangle((0, 0, W, 80), fill=kit.rgb("ink"))
    title = say("your_hand", side=side_name(say, seat))
    player = player_name(view, seat)
    if player:
        room = W - 24 - kit.text_width(title + " · ", 22, True)
        if room >= kit.text_width("M…", 22, True):
            title += " · " + _fit_words(player, room, 22, True)
    _text(img, (12, 22), title, 22, bold=True, fill="white", bg="ink", anchor="lm")
    dec = view.get("decision")
    if dec and dec["seat"] == seat:
        turn = _fit_words(say("your_turn", decision=_decision(say, dec["kind"], "")), W - 24, 18, True)
        _text(img, (12, 58), turn, 18, bold=True, fill="highlight", bg="ink", anchor="lm")
    scoring = view.get("scoring_colours") or []
    if scoring:
        _text(img, (12, 102), say("scoring_now"), 18, bold=True, anchor="lm")
        hero = view.get("hand_hero") or view["sides"][seat]["hero"]
        fate_colour = view["fate"]["facing"][seat]
        x, y = 12, 138
        for c in scoring:
            why = ([say("why_fate")] if c == fate_colour else []) + (
                [hero_name(say, hero["name"])] if hero and hero["colour"] == c else [])
            text = say("scoring_colour", colour=colour_name(say, c), why=", ".join(why))
            _badge(img, (x + 15, y), 15, ARMY[c], letter(say, c), text_fill="ink" if c == "yellow" else "white",
                   size=_px(16))
            size = _fit_size(text, (W - 24) // len(scoring) - 46, 18, True, True)
            _text(img, (x + 36, y), text, size, bold=True, anchor="lm")
            x += 36 + kit.text_width(text, size, True) + 24
    else:
        for i, line in enumerate(_wrap(say("scoring_not_yet"), W - 24, 18, True, 2)):
            _text(img, (12, 102 + 26 * i), line, 18, bold=True, anchor="lm")
    gap = (W - 24 - 5 * cw) // 4
    x = 12
    for kind, c in cards:
        if kind == "troop":
            _paste(img, _troop_card(say, c, scale), (x, top))
        else:
            _paste(img, _hero_card(say, c, scale, bg=kit.rgb("paper")), (x, top))
        if c["colour"] in scoring:
            d.rectangle((x, top + ch + 8, x + cw, top + ch + 38), fill=kit.rgb("ok"))
            note = say("scores_now")
            narrow = kit.text_width(note, MIN_TEXT, True) > cw - 8
            bold = kit.text_width(note, MIN_TEXT, True, narrow) <= cw - 8
            _text(img, (x + cw // 2, top + ch + 23), note, MIN_TEXT, bold=bold, fill="white", bg="ok", anchor="mm",
                  condensed=narrow)
        x += cw + gap
    if not cards:
        for i, line in enumerate(_wrap(say("no_cards"), W - 24, 16, False, 2)):
            _text(img, (12, top + 8 + 22 * i), line, 16, anchor="lm")
    return _encode(img)
