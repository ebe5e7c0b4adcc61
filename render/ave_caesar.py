"""Ave Caesar pictures, drawn from engine views only.

Every picture is 480 px wide and as tall as it needs: Discord shows a picture about 420 px wide until it is
tapped, so the circus (1000 x 480 in the track data) is drawn a quarter turn round, standing up, and every
text a player needs stays at 12 px or more (10.5 px at phone width; ``tests/render/phone.py``).

``render_public(view)``: the circus (lanes, walls, bottlenecks, the spina, Caesar's alley, the chequered finish
line, the start numerals and arrows for the race direction), every chariot as a disc in its colour with its
label (A1, B2, N1...), the last move(s) as arrows, and a table of the chariots in race order with lap, the
denarius (due / paid), cards left, distance to go and result. ``render_private(view)``: for the seat to act,
the same track with numbered destination markers (the numbers of ``view["choices"]``) and the hand of the
chariot to move with, under each card, the destinations it reaches; for a seat not to act, its hands.
``render_standings(view)``: laurels per race and in total, posted with the board by ``render_extras`` when a
race ends. Players are named by ``view["player_names"]`` (added by the host), else by seat letter. The static
track is drawn once per language and cached; a game of rules version 1 is drawn on its v1 track
(``view["track_version"]``). Every word comes from ``data/locales/ave-caesar/picture/<lang>.json``
(``view["lang"]``, added by the host); longer words are drawn smaller or condensed, English keeps its layout.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from engines.ave_caesar.track import TRACK_VERSION, load_data
from render import kit

GAME = "ave-caesar"

SAND = (236, 222, 186)
SAND_LINE = (160, 138, 98)
STONE = (124, 112, 100)
INFIELD = (214, 196, 154)
ALLEY = (222, 200, 232)
IMPERIAL = (96, 44, 120)
NUMERAL = (118, 96, 58)
kit.register_colours({"ac_sand": SAND, "ac_sand_line": SAND_LINE, "ac_stone": STONE, "ac_infield": INFIELD,
                      "ac_alley": ALLEY, "ac_imperial": IMPERIAL, "ac_numeral": NUMERAL})
OWN_COLOURS = [SAND, SAND_LINE, STONE, INFIELD, ALLEY, IMPERIAL, NUMERAL]
PALETTE = kit.make_palette([*OWN_COLOURS, *kit.PLAYER_COLOURS])


def _encode(img: Image.Image) -> bytes:
    return kit.encode(img, PALETTE)


W = 480  # picture width: the circus stands up (a quarter turn), so the type stays readable at 420 px
FW = 1000  # width of the track data's frame (it becomes the height)
TRACK_W, TRACK_H = 480, 1000
HEADER = 60
ROW_H = 64
TABLE_HEAD = 6
CARD_W, FACE_H = 130, 96
ROMAN = ("I", "II", "III", "IV", "V", "VI")
LIGHT = {"orange", "sky", "yellow"}
MIN_SIZE = 14  # the smallest type drawn (12.25 px at Discord's 420 px)


def _t(x: float, y: float) -> tuple[float, float]:
    """Track data coordinates -> picture coordinates: a quarter turn (clockwise stays clockwise)."""
    return (y, FW - x)


def _tp(pts) -> list[tuple[float, float]]:
    return [_t(x, y) for x, y in pts]


def _version(view: dict) -> int:
    return view.get("track_version") or TRACK_VERSION


@lru_cache(maxsize=8)
def _track(name: str, version: int = TRACK_VERSION) -> dict:
    return load_data(name, version)


@lru_cache(maxsize=8)
def _centres(name: str, version: int = TRACK_VERSION) -> dict[str, tuple[float, float]]:
    return {sp["id"]: _t(sp["x"], sp["y"]) for sp in _track(name, version)["spaces"]}


def _colour(c: int) -> str:
    return kit.PLAYER_COLOURS[c % len(kit.PLAYER_COLOURS)]


def _ink_on(c: int) -> str:
    return "ink" if _colour(c) in LIGHT else "white"


def _lang(view: dict) -> str:
    return view.get("lang") or "en"


def _place(say, n: int) -> str:
    if n in (1, 2, 3):
        return say(f"place_{n}")
    return say("place_n", n=n)


def _status_text(say, status: str) -> str:
    if status == "removed":
        return say("out_of_cards")
    if status == "disqualified":
        return say("disqualified_short")
    if status == "stopped":
        return say("stopped")
    return "" if status == "racing" else status


def _owner(view: dict, seat: int, say) -> str:
    """The player's display name (``view["player_names"]``, added by the host), else his seat letter."""
    names = view.get("player_names") or []
    if 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat]).strip()
    return say("seat", letter="ABCDEF"[seat])


def _fit(s: str, max_width: float, size: int, bold: bool = False) -> tuple[str, int, bool]:
    """``(s, size, condensed)`` fitting ``max_width``: condensed or smaller down to MIN_SIZE, then whole words
    dropped from the end (with an ellipsis), so a name is never cut inside a word."""
    for sz in range(size, MIN_SIZE - 1, -1):
        for condensed in (False, True):
            if kit.text_width(s, sz, bold, condensed) <= max_width:
                return s, sz, condensed
    words = s.split()
    while len(words) > 1:
        words.pop()
        short = " ".join(words) + "…"
        for condensed in (False, True):
            if kit.text_width(short, MIN_SIZE, bold, condensed) <= max_width:
                return short, MIN_SIZE, condensed
    return kit.fit_text(s, int(max_width), MIN_SIZE, bold), MIN_SIZE, True  # one huge word: no other way


def _text_in(img: Image.Image, xy, s: str, max_width: float, size: int = 16, fill="ink", bold: bool = False,
             anchor: str = "la") -> None:
    """``_text`` made to fit ``max_width`` pixels (see ``_fit``)."""
    s, size, condensed = _fit(s, max_width, size, bold)
    _text(img, xy, s, size=size, fill=fill, bold=bold, anchor=anchor, condensed=condensed)


def _text(img: Image.Image, xy, s: str, size: int = 16, fill="ink", bold: bool = False, anchor: str = "la",
          condensed: bool = False) -> None:
    """kit.text through the kit's sprite cache: the same labels come back in every picture."""
    kit.paste_text(img, xy, s, size, fill, bold, anchor, condensed, PALETTE)


def _text_up(img: Image.Image, centre, s: str, max_len: float, size: int, fill, bold: bool = True) -> None:
    """Text reading upwards (along the standing spina or the alley), centred on ``centre``."""
    s, size, condensed = _fit(s, max_len, size, bold)
    mask, _, _, _ = kit.text_mask(s, size, bold, condensed, "la")
    up = mask.rotate(90, expand=True)
    img.paste(kit.rgb(fill), (int(centre[0] - up.size[0] / 2), int(centre[1] - up.size[1] / 2)), up)


@lru_cache(maxsize=24)
def _track_layer(name: str, direction: str, lang: str, version: int = TRACK_VERSION) -> Image.Image:
    """The empty circus for one track and direction, standing up, with its words in ``lang``, drawn once."""
    say = kit.words("ave-caesar", {"lang": lang})
    data = _track(name, version)
    img, draw = kit.canvas(TRACK_W, TRACK_H, INFIELD)
    draw.rectangle((0, 0, TRACK_W, TRACK_H), fill=kit.rgb("table"))  # the stands
    draw.rounded_rectangle((4, 6, TRACK_W - 4, TRACK_H - 6), radius=230, fill=INFIELD)
    for sp in data["spaces"]:
        draw.polygon(_tp(sp["poly"]), fill=ALLEY if sp["sec"] == "alley" else SAND, outline=SAND_LINE)
    for poly in data["stone"]:
        pts = [tuple(p) for p in poly]
        draw.polygon(_tp(pts), fill=STONE)
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
        for x in range(int(x0) - 40, int(x1), 12):  # hatching: stone is not a lane, whatever the colours
            seg = [(max(x, x0), y0 + max(0, x0 - x)), (min(x + (y1 - y0), x1), y0 + min(y1 - y0, x1 - x))]
            draw.line(_tp(seg), fill=kit.rgb("dark_grey"), width=2)
    for x0, y0, x1, y1 in data["walls"]:
        draw.line(_tp([(x0, y0), (x1, y1)]), fill=kit.rgb("ink"), width=6)
    # the spina, standing, with the track's name reading upwards
    (sx0, sy0), (sx1, sy1) = data["spina"][0], data["spina"][2]
    draw.rounded_rectangle((sy0, FW - sx1, sy1, FW - sx0), radius=24, fill=STONE, outline=kit.rgb("ink"), width=2)
    for ox in (sx0 + 30, sx1 - 30):
        obelisk = [(ox - 9, sy1 - 8), (ox + 9, sy1 - 8), (ox + 4, sy0 + 6), (ox - 4, sy0 + 6)]
        draw.polygon(_tp(obelisk), fill=kit.rgb("gold"), outline=kit.rgb("ink"))
    title = say("track_A") if name == "A" else say("track_B")
    _text_up(img, _t((sx0 + sx1) / 2, (sy0 + sy1) / 2), title, sx1 - sx0 - 90, 18, "white")
    # Caesar's alley: its name along the bay
    bx, by = data["alley"]["box"]
    bay = [p for sid in data["alley"]["spaces"] for p in next(sp["poly"] for sp in data["spaces"] if sp["id"] == sid)]
    length = max(p[0] for p in bay) - min(p[0] for p in bay)
    _text_up(img, _t(bx, by + 4), say("alley"), length + 60, 14, IMPERIAL)
    # chequered finish line
    lx0, ly0, lx1, ly1 = data["line"]["draw"]
    sq = 8
    for i in range(int((ly1 - ly0) // sq)):
        for j in (0, 1):
            fill = "ink" if (i + j) % 2 == 0 else "white"
            (ax, ay), (bx2, by2) = _tp([(lx0 - sq + j * sq, ly0 + i * sq), (lx0 + j * sq, ly0 + (i + 1) * sq)])
            draw.rectangle((min(ax, bx2), min(ay, by2), max(ax, bx2), max(ay, by2)), fill=kit.rgb(fill))
    fx, fy = _t(lx0, ly1 + 4)
    s, size, condensed = _fit(say("finish"), (_spina_left(data) - fx) - 6, 15, True)
    kit.text(draw, (fx, fy), s, size=size, bold=True, fill="ink", anchor="lm", condensed=condensed)
    # (the start numerals are drawn with the chariots, above them: see ``_draw_track``)
    # direction arrows in the infield along both straights, clear of the alley's bay
    bay_x = [p[0] for p in bay]
    sign = 1 if direction == "cw" else -1
    for ax, ay, d in ((330, 150, sign), (670, 150, sign), (330, 330, -sign), (670, 330, -sign)):
        if ay > 240 and min(bay_x) - 30 < ax < max(bay_x) + 30:
            ax = max(bay_x) + 80 if ax > (min(bay_x) + max(bay_x)) / 2 or min(bay_x) < 340 else min(bay_x) - 80
        pts = [(ax - 26 * d, ay - 5), (ax + 8 * d, ay - 5), (ax + 8 * d, ay - 12), (ax + 26 * d, ay),
               (ax + 8 * d, ay + 12), (ax + 8 * d, ay + 5), (ax - 26 * d, ay + 5)]
        draw.polygon(_tp(pts), fill=SAND_LINE)
    return img


NUMERAL_SIZE = 14


def numeral_spots(name: str, direction: str, version: int = TRACK_VERSION) -> list[tuple[str, tuple, str]]:
    """``(numeral, xy, anchor)`` of the start numerals I..VI: at the end of each start space away from the line,
    where a chariot's disc (centred on the space) leaves them readable."""
    data = _track(name, version)
    polys = {sp["id"]: sp["poly"] for sp in data["spaces"]}
    spots = []
    for i, sid in enumerate(data["start"][direction]):
        xs = [p[0] for p in polys[sid]]
        ymid = sum(p[1] for p in polys[sid]) / len(polys[sid])
        if direction == "cw":
            px, py = _t(min(xs), ymid)
            spots.append((ROMAN[i], (px, py - 2), "mb"))
        else:
            px, py = _t(max(xs), ymid)
            spots.append((ROMAN[i], (px, py + 2), "mt"))
    return spots


@lru_cache(maxsize=32)
def _numeral_box(numeral: str, anchor: str) -> tuple[float, float, float, float]:
    """The box of a start numeral around its point (measured once: FreeType lays the string out each time)."""
    return kit.font(NUMERAL_SIZE, True).getbbox(numeral, anchor=anchor)


def _spina_left(data: dict) -> float:
    """Picture x of the spina's side facing the finish straight: the room the finish label may use."""
    return min(p[1] for p in data["spina"])


@lru_cache(maxsize=256)
def _badge_sprite(c: int, label: str, radius: int, ring: bool) -> Image.Image:
    pad = 7 if ring else 1
    size = 2 * (radius + pad) + 1
    sprite = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    mid = radius + pad
    if ring:
        draw.ellipse((mid - radius - 6, mid - radius - 6, mid + radius + 6, mid + radius + 6),
                     fill=kit.rgb("highlight") + (255,), outline=kit.rgb("ink") + (255,), width=2)
    font_size = max(MIN_SIZE + 1, round(radius * (0.95 if len(label) > 1 else 1.15)))
    kit.badge(draw, (mid, mid), radius, _colour(c), label, text_fill=_ink_on(c), size=font_size)
    return sprite


def _badge(img: Image.Image, xy, c: int, label: str, radius: int = 17, ring: bool = False) -> None:
    sprite = _badge_sprite(c, label, radius, ring)
    half = sprite.size[0] // 2
    kit.paste_masked(img, sprite, (int(round(xy[0])) - half, int(round(xy[1])) - half), PALETTE)


def _arrow(draw: ImageDraw.ImageDraw, pts, colour: str, width: int = 6) -> None:
    if len(pts) < 2:
        return
    draw.line(pts, fill=kit.rgb("ink"), width=width + 4, joint="curve")
    draw.line(pts, fill=kit.rgb(colour), width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    tip = (x1 - math.cos(ang) * 17, y1 - math.sin(ang) * 17)
    head = 16
    left = (tip[0] - head * math.cos(ang - 0.5), tip[1] - head * math.sin(ang - 0.5))
    right = (tip[0] - head * math.cos(ang + 0.5), tip[1] - head * math.sin(ang + 0.5))
    draw.polygon([tip, left, right], fill=kit.rgb(colour), outline=kit.rgb("ink"))
    sx, sy = pts[0]
    draw.ellipse((sx - 7, sy - 7, sx + 7, sy + 7), fill=kit.rgb("white"), outline=kit.rgb(colour), width=3)


def _draw_track(img: Image.Image, view: dict, oy: int, paths: bool, base: bool = True) -> ImageDraw.ImageDraw:
    if base:
        img.paste(_track_layer(view["track"], view["direction"], _lang(view), _version(view)), (0, oy))
    draw = kit.draw_on(img, PALETTE)
    centres = _centres(view["track"], _version(view))
    if paths:
        for item in view.get("last", []):
            if item.get("kind") == "move":
                pts = [(centres[s][0], centres[s][1] + oy) for s in item["path"]]
                _arrow(draw, pts, _colour(item["chariot"]))
    for ch in view["chariots"]:
        if ch["space"]:
            x, y = centres[ch["space"]]
            _badge(img, (x, y + oy), ch["id"], ch["label"], ring=ch["id"] == view.get("turn"))
    # the start numerals last: clear of the discs, and above a turn ring or a move's arrow
    for numeral, (x, y), anchor in numeral_spots(view["track"], view["direction"], _version(view)):
        x0, y0, x1, y1 = _numeral_box(numeral, anchor)
        draw.rectangle((x + x0 - 2, y + oy + y0 - 1, x + x1 + 2, y + oy + y1 + 1), fill=SAND)  # over any arrow
        _text(img, (x, y + oy), numeral, size=NUMERAL_SIZE, bold=True, fill=NUMERAL, anchor=anchor)
    return draw


def _header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, say, lines: tuple[str, str] | None = None,
            band: bool = True) -> None:
    """Two lines on the dark band: the title, and below it the race (or a hint) with who moves at the right."""
    if band:
        draw.rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    right = 12
    ended = kit.ending(view) if lines is None else None
    if ended is not None:  # how the game ended, across the band, instead of who moves
        way = say("clockwise") if view["direction"] == "cw" else say("counter_clockwise")
        _text_in(img, (12, 18), say("header", track=view["track"], way=way), W - 24, size=17, bold=True,
                 fill="white", anchor="lm")
        _text_in(img, (12, 42), ended["headline"], W - 24, size=15, bold=True, fill="highlight", anchor="lm")
        return
    if view["over"]:
        over = say("race_over") if view["races"] == 1 else say("championship_over")
        s, size, condensed = _fit(over, 200, 15, True)
        _text(img, (W - 12, 42), s, size=size, bold=True, fill="highlight", anchor="rm", condensed=condensed)
        right += kit.text_width(s, size, True, condensed) + 10
    elif view.get("turn") is not None and lines is None:
        ch = view["chariots"][view["turn"]]
        _badge(img, (W - 26, 40), ch["id"], ch["label"], radius=14)
        named = not ch["neutral"] and bool(view.get("player_names"))
        # a long name gives way at a word, never the words "to move"
        short = _fit(_owner(view, ch["owner"], say), 130, 15, True)[0] if named else ""
        s, size, condensed = _fit(say("to_move_name", name=short) if named
                                  else say("to_move"), 220 if named else 150, 15, True)
        _text(img, (W - 46, 42), s, size=size, bold=True, fill="white", anchor="rm", condensed=condensed)
        right += 34 + kit.text_width(s, size, True, condensed) + 10
    if lines is None:
        way = say("clockwise") if view["direction"] == "cw" else say("counter_clockwise")
        sub = say("header_race_no", race=view["race"], races=view["races"]) if view["races"] > 1 else ""
        if view["over"] and view.get("standings"):
            sub = _winners(view, say)
        lines = (say("header", track=view["track"], way=way), sub)
    _text_in(img, (12, 18), lines[0], W - 24, size=17, bold=True, fill="white", anchor="lm")
    if lines[1]:
        _text_in(img, (12, 42), lines[1], W - 12 - right - 8, size=15, fill="white", anchor="lm")


def _winners(view: dict, say) -> str:
    """Who won the race or the championship, with the laurels they won in all."""
    first = [st for st in view["standings"] if st["place"] == 1]
    names = ", ".join(_owner(view, st["seat"], say) for st in first)
    return say("winners" if len(first) > 1 else "winner", names=names, laurels=first[0]["laurels"])


def _race_order(view: dict) -> list[dict]:
    def key(ch):
        if ch["status"] == "finished":
            return (0, ch["place"] or 9, ch["id"])
        if ch["status"] == "racing":
            return (1, ch["remaining"], ch["id"])
        return (2, -(ch["remaining"] or 0), ch["id"])
    return sorted(view["chariots"], key=key)


NAME_X = 48  # the owner's name next to the chariot's badge


@lru_cache(maxsize=48)
def _table_layer(rows: int, lang: str) -> Image.Image:
    """The table's paper (no column heads: every figure is said in words on its row)."""
    img, _ = kit.canvas(W, TABLE_HEAD + ROW_H * rows + 8, "paper")
    return img


def _result(view: dict, ch: dict, say) -> str:
    if ch["status"] == "finished":
        if ch["place"]:
            gained = (6, 4, 3, 2, 1, 0)[ch["place"] - 1] if ch["place"] <= 6 else 0
            return say("finished_place", place=_place(say, ch["place"]), gained=gained)
        return say("finished")
    if ch["status"] == "racing":
        opening = view.get("first_move") and view["grid"][0] == ch["id"]
        # whether a 6-exception applies depends on the leader's hidden hand: the public table says only what is
        # true for everyone who sees it (the note under the table)
        return (say("leads") if opening else say("leads_6_exception")) if ch["leader"] else ""
    return _status_text(say, ch["status"])


def _table(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, y: int, say, base: bool = True) -> None:
    """One row of two lines per chariot: badge, owner and result; then lap, spaces to go, cards, laurels and
    Caesar's denarius, each in words. On a palette picture each row is kept as its band of pixels
    (:func:`_kept_row`): a move changes the row of the chariot that moved and of the turn's, not the others."""
    if base:
        img.paste(_table_layer(len(view["chariots"]), _lang(view)), (0, y))
    for i, ch in enumerate(_race_order(view)):
        top = y + TABLE_HEAD + i * ROW_H
        row = _row_words(view, ch, say)
        if img.mode == "P":
            _kept_row(img, draw, top, row)
        else:
            _draw_row(img, draw, top, row)


#: what a table row shows: (whose turn, chariot id, its label, owner, result, result colour, line 2, Caesar's
#: words or None for a neutral chariot, Caesar paid)
RowWords = tuple[bool, int, str, str, str, str, str, str | None, bool]


def _row_words(view: dict, ch: dict, say) -> RowWords:
    """Everything a chariot's table row shows, in words."""
    owner = say("neutral") if ch["neutral"] else _owner(view, ch["owner"], say)
    # a player who left before the end (the AI drove on for them): how, beside their name
    gone = None if ch["neutral"] else (kit.ending(view) or {}).get("left", {}).get(str(ch["owner"]))
    if gone:
        owner = f"{owner} ({gone})"
    colour = "danger" if ch["status"] in ("removed", "disqualified", "stopped") else "ink"
    parts = []
    if ch["status"] == "racing":
        parts += [say("lap", lap=ch["lap"]), say("to_go", n=ch["to_go"])]
    parts.append(say("cards_left", n=ch["cards_left"]))
    if view["races"] > 1 and not ch["neutral"]:
        parts.append(say("in_all", laurels=ch["laurels"]))
    caesar = None if ch["neutral"] else (say("caesar_paid") if ch["paid"] else say("caesar_due"))
    return (ch["id"] == view.get("turn"), ch["id"], ch["label"], owner, _result(view, ch, say), colour,
            " · ".join(parts), caesar, bool(ch["paid"]))


def _draw_row(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, row: RowWords) -> None:
    """A chariot's table row, ``ROW_H`` tall from ``top`` (on the table's plain paper)."""
    turn, chariot, label, owner, result, colour, line2, caesar, paid = row
    l1, l2, l3 = top + 14, top + 33, top + 51
    if turn:
        draw.rectangle((4, top + 2, W - 4, top + ROW_H - 2), fill=kit.rgb("panel"))
    _badge(img, (28, top + ROW_H / 2), chariot, label, radius=16)
    room = 0
    if result:
        s, size, condensed = _fit(result, W - NAME_X - 150, 15, True)
        room = kit.text_width(s, size, True, condensed) + 12
        _text(img, (W - 10, l1), s, size=size, bold=True, fill=colour, anchor="rm", condensed=condensed)
    _text_in(img, (NAME_X, l1), owner, W - 10 - NAME_X - room, size=16, bold=True, anchor="lm")
    _text_in(img, (NAME_X, l2), line2, W - 10 - NAME_X, size=14, fill="dark_grey", anchor="lm")
    if caesar is not None:
        _text_in(img, (NAME_X, l3), caesar, W - 10 - NAME_X, size=14, bold=True, fill="ok" if paid else "vermillion",
                 anchor="lm")


#: table rows kept by :func:`_kept_row` (what the row shows -> its band of a palette picture); a band is 480 x 64
#: px, so at most about 4 million pixels (4 MB) are kept per drawing process
_ROWS = kit.KeptBands(128)


def clear_caches() -> None:
    """Forget the kept table rows (tests measure every text drawn)."""
    _ROWS.clear()


def _kept_row(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, row: RowWords) -> None:
    """:func:`_draw_row` on a palette picture, its band kept and pasted the next time the row shows the same (on
    the same plain paper, at whole pixels: the same pixels wherever the row lands)."""
    if _ROWS.paste(img, row, top) is None:
        _draw_row(img, draw, top, row)
        _ROWS.keep(img, row, top, top + ROW_H)


#: under the public table: the footnote of the leader's "leads*"
FOOT_H = 26


@lru_cache(maxsize=48)
def _public_layer(track: str, direction: str, rows: int, lang: str, version: int = TRACK_VERSION) -> Image.Image:
    """Header band, empty circus and table heading: everything of the public picture that never moves."""
    img = Image.new("RGB", (W, HEADER + TRACK_H + TABLE_HEAD + ROW_H * rows + 8 + FOOT_H), kit.rgb("paper"))
    ImageDraw.Draw(img).rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    img.paste(_track_layer(track, direction, lang, version), (0, HEADER))
    img.paste(_table_layer(rows, lang), (0, HEADER + TRACK_H))
    return img


def render_public(view: dict) -> bytes:
    """The circus with every chariot, the last move and the race table (a game ended outside its rules: how it
    ended instead of who moves)."""
    view = kit.at_rest(view, turn=None)
    say = kit.words("ave-caesar", view)
    # drawn in the palette (kit.PaletteDraw): no picture-wide quantising (issue 29; the same pixels)
    img = kit.paletted(_public_layer(view["track"], view["direction"], len(view["chariots"]), _lang(view),
                                     _version(view)), PALETTE).copy()
    draw = _draw_track(img, view, HEADER, paths=True, base=False)
    _header(img, draw, view, say, band=False)
    _table(img, draw, view, HEADER + TRACK_H, say, base=False)
    if any(ch["leader"] for ch in view["chariots"]) and not view.get("first_move") and not kit.ending(view):
        # the table's "leads*": whether an exception lets him play a 6 is in his hidden hand
        _text_in(img, (8, img.height - FOOT_H / 2 - 2), say("note_leader_6"), W - 16, size=15, fill="dark_grey",
                 anchor="lm")
    return kit.encode_with_clock(img, view, PALETTE)


def _wrap(words: list[str], width: int, size: int = 16, bold: bool = True) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and kit.text_width(lines[-1] + " " + w, size, bold) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


def _card(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, value: int, c: int, note: list[str],
          playable: bool, face_h: int = FACE_H, width: int = CARD_W) -> None:
    """A card face (value and pips) with up to two lines of notes under it."""
    frame = _colour(c) if playable else "grey"
    draw.rounded_rectangle((x, y, x + width, y + face_h), radius=12, fill=kit.rgb("white"),
                           outline=kit.rgb(frame), width=6)
    _text(img, (x + width / 2, y + face_h / 2 - 8), str(value), size=round(face_h / 2), bold=True,
          fill="ink" if playable else "grey", anchor="mm")
    pip, gap = 9, 5  # pips: the value without reading the number
    total = value * pip + (value - 1) * gap
    px = x + (width - total) / 2
    for i in range(value):
        cx = px + i * (pip + gap)
        draw.ellipse((cx, y + face_h - 20, cx + pip, y + face_h - 20 + pip),
                     fill=kit.rgb("ink" if playable else "grey"))
    for k, line in enumerate(note[:2]):
        _text_in(img, (x + width / 2, y + face_h + 14 + 22 * k), line, width + 16, size=16, bold=playable,
                 fill="ink" if playable else "danger", anchor="mm")


def render_private(view: dict) -> bytes | None:
    """For the seat to act: the track with numbered destinations and the hand; otherwise its hands."""
    seat = view.get("seat")
    if seat is None or not view.get("hands"):
        return None
    if view.get("choices") is not None and view.get("turn") is not None:
        return _render_turn(view)
    say = kit.words("ave-caesar", view)
    hands = view["hands"]
    row = 52 + 80 + 14
    height = 44 + len(hands) * row
    img, draw = kit.canvas(W, height, "paper")
    _text_in(img, (12, 22), say("your_hands") if len(hands) > 1 else say("your_hand"), W - 24, size=17,
             bold=True, anchor="lm")
    for k, h in enumerate(hands):
        ch = view["chariots"][h["chariot"]]
        y = 44 + k * row
        _badge(img, (28, y + 22), ch["id"], ch["label"], radius=17)
        _text_in(img, (54, y + 12), say("hand_line", label=ch["label"], lap=ch["lap"], to_go=ch["to_go"]),
                 W - 66, size=16, bold=True, anchor="lm")
        info = (say("caesar_paid") if ch["paid"] else say("caesar_due")) + " · " + say("cards_left", n=ch["cards_left"])
        _text_in(img, (54, y + 34), info, W - 66, size=14, fill="ok" if ch["paid"] else "ink", anchor="lm")
        for i, card in enumerate(h["cards"]):
            _card(img, draw, 54 + i * (100 + 14), y + 52, card["value"], ch["id"], [], True, face_h=80, width=100)
    return _encode(img)


def _render_turn(view: dict) -> bytes:
    say = kit.words("ave-caesar", view)
    c = view["turn"]
    ch = view["chariots"][c]
    hand: list[dict] = next((h["cards"] for h in view["hands"] if h["chariot"] == c), [])
    vote = view.get("vote")
    if vote is not None:  # a vote on a neutral chariot's move: its turned card, the spaces numbered
        hand = [{"value": vote["card"]}]
    notes: list[tuple[str, str | tuple[int, int, int]]] = []
    if any(choice["enters_alley"] for choice in view["choices"]):
        notes.append((say("note_alley_1") + " " + say("note_alley_2"), IMPERIAL))
    if any(choice["misses_alley"] for choice in view["choices"]):
        notes.append((say("note_misses_1") + " " + say("note_misses_2"), "danger"))
    if any(choice["finishes"] for choice in view["choices"]):
        notes.append((say("note_finishes"), "ok"))
    note_lines = [(line, colour) for text, colour in notes for line in _wrap(text.split(), W - 24, 14)]
    y0 = HEADER + TRACK_H + 10
    y1 = y0 + 52
    height = y1 + FACE_H + 58 + 20 * len(note_lines) + 8
    img = Image.new("RGB", (W, height), kit.rgb("paper"))
    draw = _draw_track(img, view, HEADER, paths=False)
    centres = _centres(view["track"], _version(view))
    for choice in view["choices"]:
        x, y = centres[choice["to"]]
        y += HEADER
        ring = "danger" if choice["misses_alley"] else (IMPERIAL if choice["enters_alley"] else "ink")
        draw.ellipse((x - 17, y - 17, x + 17, y + 17), fill=kit.rgb("white"), outline=kit.rgb(ring), width=4)
        _text(img, (x, y + 1), str(choice["n"]), size=19, bold=True, anchor="mm")
        if choice["misses_alley"]:  # a second cue besides the red ring
            draw.ellipse((x + 7, y - 27, x + 27, y - 7), fill=kit.rgb("danger"))
            _text(img, (x + 17, y - 17), "!", size=15, bold=True, fill="white", anchor="mm")
    if vote is not None:
        _header(img, draw, view, say, (say("vote_title", label=ch["label"], card=vote["card"]), say("vote_pick")))
    else:
        _header(img, draw, view, say, (say("your_move_short", label=ch["label"]), say("pick")))
    _badge(img, (28, y0 + 22), c, ch["label"], radius=18)
    line1 = say("lap", lap=ch["lap"]) + " · " + say("to_go", n=ch["to_go"])
    _text_in(img, (56, y0 + 12), line1, W - 68, size=16, bold=True, anchor="lm")
    info = (say("caesar_paid") if ch["paid"] else say("caesar_due")) + " · " + say("cards_left", n=ch["cards_left"])
    if vote is not None:
        info = say("vote_info", n=ch["cards_left"])
    _text_in(img, (56, y0 + 34), info, W - 68, size=14, fill="ok" if ch["paid"] else "ink", anchor="lm")
    gap = 20
    x0 = (W - (3 * CARD_W + 2 * gap)) // 2
    for i, card in enumerate(hand):
        v = card["value"]
        reach = [str(choice["n"]) for choice in view["choices"] if any(m["card"] == v for m in choice["moves"])]
        if reach:
            note = _wrap(["→", *reach], CARD_W + 10)
            if len(note) > 2:
                note = [note[0], " ".join(note[1:])]
        elif v == 6 and ch["leader"]:
            note = [say("leader"), say("no_6")]
        else:
            note = [say("no_move")]
        _card(img, draw, x0 + i * (CARD_W + gap), y1, v, c, note, bool(reach))
    for i, (line, colour) in enumerate(note_lines):
        _text_in(img, (12, y1 + FACE_H + 62 + 20 * i), line, W - 24, size=14, bold=True, fill=colour, anchor="lm")
    return _encode(img)


NAME_COL = 72  # the standings' player column (room for "miejsce", "place", "hely" before it)


def render_standings(view: dict) -> bytes:
    """Laurels per race and in total, per player (with his chariots when he drives several): one row of two
    lines per player, narrow enough for a phone."""
    n = view["num_players"]
    history = view["history"]
    races = view["races"]
    rows = []
    for seat in range(n):
        mine = [ch for ch in view["chariots"] if ch["owner"] == seat]
        per_race = [sum(r["laurels"][ch["id"]] for ch in mine) for r in history]
        total = next(s for s in view["standings"] if s["seat"] == seat)
        rows.append((total["place"], seat, mine, per_race, total["laurels"]))
    rows.sort(key=lambda r: (r[0], r[1]))
    say = kit.words("ave-caesar", view)
    row_h = 58
    top = HEADER + 26
    height = top + row_h * n + 10
    img, draw = kit.canvas(W, height, "paper")
    draw.rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    title = (say("standings_final") if view["over"] else
             say("standings_after", race=len(history), races=races))
    if not history:
        title = say("standings_under_way", races=races)
    _text_in(img, (12, HEADER / 2), title, W - 24, size=17, bold=True, fill="white", anchor="lm")
    y = HEADER + 14
    _text_in(img, (12, y), say("head_place"), NAME_COL - 16, size=14, bold=True, fill="dark_grey", anchor="lm")
    _text_in(img, (NAME_COL, y), say("head_player"), 200, size=14, bold=True, fill="dark_grey", anchor="lm")
    _text_in(img, (W - 12, y), say("head_laurels"), 120, size=14, bold=True, fill="dark_grey", anchor="rm")
    for i, (place, seat, mine, per_race, total) in enumerate(rows):
        ry = top + i * row_h + row_h / 2
        if i % 2 == 0:
            draw.rectangle((4, ry - row_h / 2, W - 4, ry + row_h / 2), fill=kit.rgb("panel"))
        _text(img, (12, ry - 10), _place(say, place), size=18, bold=place == 1, anchor="lm")
        badges_w = 30 * len(mine)
        name_room = W - 80 - NAME_COL - badges_w - 10
        name, size, condensed = _fit(_owner(view, seat, say), name_room, 17, True)
        _text(img, (NAME_COL, ry - 10), name, size=size, bold=True, anchor="lm", condensed=condensed)
        bx = NAME_COL + kit.text_width(name, size, True, condensed) + 22
        for k, ch in enumerate(mine):
            _badge(img, (bx + k * 30, ry - 10), ch["id"], ch["label"], radius=13)
        parts = []
        for r in range(races):
            got = str(per_race[r]) if r < len(per_race) else "–"
            parts.append(f"{say('head_race', n=r + 1)}: {got}")
        _text_in(img, (NAME_COL, ry + 14), "   ".join(parts), W - 80 - NAME_COL, size=14, fill="dark_grey", anchor="lm")
        _text(img, (W - 16, ry), str(total), size=24, bold=True, anchor="rm")
    return _encode(img)


def wants_extras(events: list[dict]) -> bool:
    """Whether :func:`render_extras` has a picture for ``events``: asked by the host before it sends the view to
    a render worker, so that the moves without one (nearly all) cost no trip to a worker."""
    return any(e.get("type") == "race_over" for e in events)


def render_extras(view: dict, events: list[dict]) -> list[bytes]:
    """Pictures posted with the board besides the circus: the standings (laurels per race and in all) when
    a race has just ended, so the result stays visible while the board already shows the next race. None after
    the only race of a one-race game: its final board lists the same places and laurels (and its text the
    totals), so a second picture would repeat it."""
    if view.get("races", 1) == 1:
        return []
    if wants_extras(events):
        return [render_standings(view)]
    return []
