"""Ave Caesar pictures, drawn from engine views only.

``render_public(view)``: the circus (lanes, walls, bottlenecks, the spina, Caesar's alley, the chequered finish
line, the start numerals and arrows for the race direction), every chariot as a disc in its colour with its
label (A1, B2, N1...), the last move(s) as arrows, and a table of the chariots in race order with lap, the
denarius (due / paid), cards left, distance to go and result. ``render_private(view)``: for the seat to act,
the same track with numbered destination markers (the numbers of ``view["choices"]``) and the hand of the
chariot to move with, under each card, the destinations it reaches; for a seat not to act, its hands.
``render_standings(view)``: laurels per race and in total, posted with the board by ``render_extras`` when a
race ends. Players are named by ``view["player_names"]`` (added by the host), else by seat letter. The static
track is drawn once per language and cached. Every word comes from ``data/locales/ave-caesar/picture/<lang>.json``
(``view["lang"]``, added by the host); longer words are drawn smaller or condensed, English keeps its layout.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from render import kit

GAME = "ave-caesar"

_DATA = Path(__file__).resolve().parent.parent / "data" / "ave_caesar"

SAND = (236, 222, 186)
SAND_LINE = (160, 138, 98)
STONE = (124, 112, 100)
INFIELD = (214, 196, 154)
ALLEY = (222, 200, 232)
IMPERIAL = (96, 44, 120)
NUMERAL = (186, 164, 120)
kit.register_colours({"ac_sand": SAND, "ac_sand_line": SAND_LINE, "ac_stone": STONE, "ac_infield": INFIELD,
                      "ac_alley": ALLEY, "ac_imperial": IMPERIAL, "ac_numeral": NUMERAL})
OWN_COLOURS = [SAND, SAND_LINE, STONE, INFIELD, ALLEY, IMPERIAL, NUMERAL]
PALETTE = kit.make_palette([*OWN_COLOURS, *kit.PLAYER_COLOURS])


def _encode(img: Image.Image) -> bytes:
    return kit.encode(img, PALETTE)


W = 1000
HEADER = 56
TRACK_H = 480
ROW_H = 38
TABLE_HEAD = 34
CARD_W, FACE_H = 118, 118
CARD_H = FACE_H + 56  # face and two lines of notes
ROMAN = ("I", "II", "III", "IV", "V", "VI")
LIGHT = {"orange", "sky", "yellow"}


@lru_cache(maxsize=4)
def _track(name: str) -> dict:
    return json.loads((_DATA / f"track_{name.lower()}.json").read_text("utf-8"))


def _centres(name: str) -> dict[str, tuple[float, float]]:
    return {sp["id"]: (sp["x"], sp["y"]) for sp in _track(name)["spaces"]}


def _colour(c: int) -> str:
    return kit.PLAYER_COLOURS[c % len(kit.PLAYER_COLOURS)]


def _ink_on(c: int) -> str:
    return "ink" if _colour(c) in LIGHT else "white"


def _lang(view: dict) -> str:
    return view.get("lang") or "en"


def _place(say, n: int) -> str:
    if n == 1:
        return say("place_1")
    if n == 2:
        return say("place_2")
    if n == 3:
        return say("place_3")
    return say("place_n", n=n)


def _status_text(say, status: str) -> str:
    if status == "removed":
        return say("out_of_cards")
    if status == "disqualified":
        return say("disqualified")
    if status == "stopped":
        return say("stopped")
    return "" if status == "racing" else status


def _owner(view: dict, seat: int, say) -> str:
    """The player's display name (``view["player_names"]``, added by the host), else his seat letter."""
    names = view.get("player_names") or []
    if 0 <= seat < len(names) and str(names[seat]).strip():
        return str(names[seat]).strip()
    return say("seat", letter="ABCDEF"[seat])


def _text_in(img: Image.Image, xy, s: str, max_width: float, size: int = 18, fill="ink", bold: bool = False,
             anchor: str = "la", condensed: bool = False) -> None:
    """``_text`` made to fit ``max_width`` pixels (smaller, condensed, or at worst shortened)."""
    s, size, condensed = kit.fitted(s, max_width, size, bold, condensed)
    _text(img, xy, s, size=size, fill=fill, bold=bold, anchor=anchor, condensed=condensed)


def _draw_in(draw: ImageDraw.ImageDraw, xy, s: str, max_width: float, size: int = 18, fill="ink",
             bold: bool = False, anchor: str = "la") -> None:
    """``kit.text`` made to fit ``max_width`` pixels (for the cached layers)."""
    s, size, condensed = kit.fitted(s, max_width, size, bold)
    kit.text(draw, xy, s, size=size, fill=fill, bold=bold, anchor=anchor, condensed=condensed)


def _shift(pts, dy):
    return [(x, y + dy) for x, y in pts]


@lru_cache(maxsize=24)
def _track_layer(name: str, direction: str, lang: str) -> Image.Image:
    """The empty circus for one track and direction (TRACK_H high) with its words in ``lang``, drawn once."""
    say = kit.words("ave-caesar", {"lang": lang})
    data = _track(name)
    img, draw = kit.canvas(W, TRACK_H, INFIELD)
    # stands around the arena
    draw.rectangle((0, 0, W, TRACK_H), fill=kit.rgb("table"))
    draw.rounded_rectangle((6, 4, W - 6, TRACK_H - 4), radius=230, fill=INFIELD)
    for sp in data["spaces"]:
        poly = [tuple(p) for p in sp["poly"]]
        draw.polygon(poly, fill=ALLEY if sp["sec"] == "alley" else SAND, outline=SAND_LINE)
    for poly in data["stone"]:
        pts = [tuple(p) for p in poly]
        draw.polygon(pts, fill=STONE)
        x0, y0 = min(p[0] for p in pts), min(p[1] for p in pts)
        x1, y1 = max(p[0] for p in pts), max(p[1] for p in pts)
        for x in range(int(x0) - 40, int(x1), 12):  # hatching: stone is not a lane, whatever the colours
            draw.line((max(x, x0), y0 + max(0, x0 - x), min(x + (y1 - y0), x1), y0 + min(y1 - y0, x1 - x)),
                      fill=kit.rgb("dark_grey"), width=2)
    for x0, y0, x1, y1 in data["walls"]:
        draw.line((x0, y0, x1, y1), fill=kit.rgb("ink"), width=6)
    # spina with the track's name
    sx0, sy0 = data["spina"][0]
    sx1, sy1 = data["spina"][2]
    draw.rounded_rectangle((sx0, sy0, sx1, sy1), radius=24, fill=STONE, outline=kit.rgb("ink"), width=2)
    for ox in (sx0 + 30, sx1 - 30):
        draw.polygon([(ox - 9, sy1 - 8), (ox + 9, sy1 - 8), (ox + 4, sy0 + 6), (ox - 4, sy0 + 6)],
                     fill=kit.rgb("gold"), outline=kit.rgb("ink"))
    title = say("track_A") if name == "A" else say("track_B")
    _draw_in(draw, ((sx0 + sx1) / 2, (sy0 + sy1) / 2), title, sx1 - sx0 - 80, size=20, bold=True,
             fill="white", anchor="mm")
    # Caesar's alley: tinted lane, imperial box and a label
    bx, by = data["alley"]["box"]
    _draw_in(draw, (bx, by), say("alley"), 200, size=16, bold=True, fill=IMPERIAL, anchor="mm")
    # chequered finish line
    lx0, ly0, lx1, ly1 = data["line"]["draw"]
    sq = 8
    rows = int((ly1 - ly0) // sq)
    for i in range(rows):
        for j in (0, 1):
            fill = "ink" if (i + j) % 2 == 0 else "white"
            draw.rectangle((lx0 - sq + j * sq, ly0 + i * sq, lx0 + j * sq, ly0 + (i + 1) * sq), fill=kit.rgb(fill))
    kit.text(draw, (lx0, ly1 + 4), say("finish"), size=16, bold=True, fill="ink", anchor="mt")
    # start numerals of this direction, at the edge away from the line
    polys = {sp["id"]: sp["poly"] for sp in data["spaces"]}
    for i, sid in enumerate(data["start"][direction]):
        xs = [p[0] for p in polys[sid]]
        y = sum(p[1] for p in polys[sid]) / len(polys[sid])
        x, anchor = (min(xs) + 3, "lm") if direction == "cw" else (max(xs) - 3, "rm")
        kit.text(draw, (x, y), ROMAN[i], size=16, bold=True, condensed=True, fill=NUMERAL, anchor=anchor)
    # direction arrows in the infield along both straights, clear of the alley's bay
    bay = [p[0] for sid in data["alley"]["spaces"] for p in polys[sid]]
    sign = 1 if direction == "cw" else -1
    for ax, ay, d in ((330, 150, sign), (670, 150, sign), (330, 330, -sign), (670, 330, -sign)):
        if ay > 240 and min(bay) - 30 < ax < max(bay) + 30:
            ax = max(bay) + 80 if ax > (min(bay) + max(bay)) / 2 or min(bay) < 340 else min(bay) - 80
        pts = [(ax - 26 * d, ay - 5), (ax + 8 * d, ay - 5), (ax + 8 * d, ay - 12), (ax + 26 * d, ay),
               (ax + 8 * d, ay + 12), (ax + 8 * d, ay + 5), (ax - 26 * d, ay + 5)]
        draw.polygon(pts, fill=SAND_LINE)
    return img


@lru_cache(maxsize=4096)
def _text_mask(s: str, size: int, bold: bool, condensed: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased glyphs of ``s`` as a mask, with its offset from the anchor point (rendered once)."""
    font = kit.font(size, bold, condensed)
    x0, y0, x1, y1 = font.getbbox(s, anchor=anchor)
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), s, font=font, fill=255, anchor=anchor)
    return mask, x0, y0


def _text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bold: bool = False, anchor: str = "la",
          condensed: bool = False) -> None:
    """kit.text through a sprite cache: the same labels come back in every picture."""
    mask, dx, dy = _text_mask(s, size, bold, condensed, anchor)
    img.paste(kit.rgb(fill), (int(round(xy[0] + dx)), int(round(xy[1] + dy))), mask)


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
    kit.badge(draw, (mid, mid), radius, _colour(c), label, text_fill=_ink_on(c),
              size=(16 if radius >= 17 else 15) if len(label) > 1 else (19 if radius >= 17 else 17))
    return sprite


def _badge(img: Image.Image, xy, c: int, label: str, radius: int = 17, ring: bool = False) -> None:
    sprite = _badge_sprite(c, label, radius, ring)
    half = sprite.size[0] // 2
    img.paste(sprite, (int(round(xy[0])) - half, int(round(xy[1])) - half), sprite)


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
        img.paste(_track_layer(view["track"], view["direction"], _lang(view)), (0, oy))
    draw = ImageDraw.Draw(img)
    centres = _centres(view["track"])
    if paths:
        for item in view.get("last", []):
            if item.get("kind") == "move":
                pts = [(centres[s][0], centres[s][1] + oy) for s in item["path"]]
                _arrow(draw, pts, _colour(item["chariot"]))
    for ch in view["chariots"]:
        if ch["space"]:
            x, y = centres[ch["space"]]
            _badge(img, (x, y + oy), ch["id"], ch["label"], ring=ch["id"] == view.get("turn"))
    return draw


def _header(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, say, title: str | None = None,
            band: bool = True) -> None:
    if band:
        draw.rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    right = 0  # where the words on the right begin, from the right edge
    if view["over"]:
        over = say("race_over") if view["races"] == 1 else say("championship_over")
        over, size, condensed = kit.fitted(over, 300, 20, True)
        _text(img, (W - 16, HEADER / 2), over, size=size, bold=True, fill="highlight", anchor="rm",
              condensed=condensed)
        right = 16 + kit.text_width(over, size, True, condensed)
    elif view.get("turn") is not None and title is None:
        ch = view["chariots"][view["turn"]]
        to_move, size, condensed = kit.fitted(say("to_move"), 200, 20, True)
        _text(img, (W - 50, HEADER / 2), to_move, size=size, bold=True, fill="white", anchor="rm",
              condensed=condensed)
        right = 50 + kit.text_width(to_move, size, True, condensed)
        _badge(img, (W - 28, HEADER / 2), ch["id"], ch["label"])
    if title is None:
        way = say("clockwise") if view["direction"] == "cw" else say("counter_clockwise")
        if view["races"] > 1:
            title = say("header_race", track=view["track"], way=way, race=view["race"], races=view["races"])
        else:
            title = say("header", track=view["track"], way=way)
    _text_in(img, (16, HEADER / 2), title, W - 16 - right - 16, size=20, bold=True, fill="white", anchor="lm")


def _race_order(view: dict) -> list[dict]:
    def key(ch):
        if ch["status"] == "finished":
            return (0, ch["place"] or 9, ch["id"])
        if ch["status"] == "racing":
            return (1, ch["remaining"], ch["id"])
        return (2, -(ch["remaining"] or 0), ch["id"])
    return sorted(view["chariots"], key=key)


COLS = (16, 232, 300, 425, 500, 590)
NAME_X = 58  # the owner's name next to the chariot's badge


@lru_cache(maxsize=48)
def _table_layer(rows: int, lang: str) -> Image.Image:
    say = kit.words("ave-caesar", {"lang": lang})
    height = TABLE_HEAD + ROW_H * rows + 10
    img, draw = kit.canvas(W, height, "paper")
    heads = (say("head_chariot"), say("head_lap"), say("head_caesar"), say("head_cards"), say("head_to_go"),
             say("head_result"))
    for x, right, h in zip(COLS, (*COLS[1:], W - 16), heads):
        _draw_in(draw, (x, TABLE_HEAD / 2 + 2), h, right - x - 6, size=16, bold=True, fill="dark_grey",
                 anchor="lm")
    draw.line((10, TABLE_HEAD, W - 10, TABLE_HEAD), fill=kit.rgb("panel_dark"), width=2)
    return img


def _table(img: Image.Image, draw: ImageDraw.ImageDraw, view: dict, y: int, say, base: bool = True) -> None:
    if base:
        img.paste(_table_layer(len(view["chariots"]), _lang(view)), (0, y))
    for i, ch in enumerate(_race_order(view)):
        ry = y + TABLE_HEAD + i * ROW_H + ROW_H / 2
        if ch["id"] == view.get("turn"):
            draw.rectangle((6, ry - ROW_H / 2 + 2, W - 6, ry + ROW_H / 2 - 2), fill=kit.rgb("panel"))
        _badge(img, (34, ry), ch["id"], ch["label"], radius=15)
        owner = say("neutral") if ch["neutral"] else _owner(view, ch["owner"], say)
        _text(img, (NAME_X, ry), kit.fit_text(owner, COLS[1] - NAME_X - 12, 16), size=16, fill="dark_grey",
              anchor="lm")
        racing = ch["status"] == "racing"
        _text(img, (COLS[1], ry), f"{ch['lap']}/3" if racing else "-", size=18, bold=True, anchor="lm")
        if ch["neutral"]:
            _text(img, (COLS[2], ry), "-", size=18, fill="grey", anchor="lm")
        elif ch["paid"]:
            _text_in(img, (COLS[2], ry), say("paid"), COLS[3] - COLS[2] - 8, size=18, bold=True, fill="ok",
                     anchor="lm")
        else:
            draw.ellipse((COLS[2], ry - 10, COLS[2] + 20, ry + 10), fill=kit.rgb("gold"), outline=kit.rgb("ink"))
            _text(img, (COLS[2] + 10, ry + 1), "D", size=13, bold=True, anchor="mm")
            _text_in(img, (COLS[2] + 26, ry), say("due"), COLS[3] - COLS[2] - 38, size=18, bold=True, anchor="lm")
        _text(img, (COLS[3], ry), str(ch["cards_left"]), size=18, anchor="lm")
        _text(img, (COLS[4], ry), str(ch["to_go"]) if racing else "-", size=18, anchor="lm")
        if ch["status"] == "finished":
            result = say("finished")
            if ch["place"]:
                gained = (6, 4, 3, 2, 1, 0)[ch["place"] - 1] if ch["place"] <= 6 else 0
                result = say("finished_place", place=_place(say, ch["place"]), gained=gained)
        elif racing:
            opening = view.get("first_move") and view["grid"][0] == ch["id"]
            result = (say("leads") if opening else say("leads_no_6")) if ch["leader"] else ""
        else:
            result = _status_text(say, ch["status"])
        colour = "danger" if ch["status"] in ("removed", "disqualified", "stopped") else "ink"
        room = W - 16 - COLS[5]
        if view["races"] > 1 and not ch["neutral"]:
            in_all = say("in_all", laurels=ch["laurels"])
            _text(img, (W - 16, ry), in_all, size=16, fill="dark_grey", anchor="rm")
            room -= kit.text_width(in_all, 16) + 12
        if result:
            _text_in(img, (COLS[5], ry), result, room, size=18, bold=ch["status"] == "finished", fill=colour,
                     anchor="lm")


@lru_cache(maxsize=48)
def _public_layer(track: str, direction: str, rows: int, lang: str) -> Image.Image:
    """Header band, empty circus and table heading: everything of the public picture that never moves."""
    img = Image.new("RGB", (W, HEADER + TRACK_H + TABLE_HEAD + ROW_H * rows + 10), kit.rgb("paper"))
    ImageDraw.Draw(img).rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    img.paste(_track_layer(track, direction, lang), (0, HEADER))
    img.paste(_table_layer(rows, lang), (0, HEADER + TRACK_H))
    return img


def render_public(view: dict) -> bytes:
    """The circus with every chariot, the last move and the race table."""
    say = kit.words("ave-caesar", view)
    img = _public_layer(view["track"], view["direction"], len(view["chariots"]), _lang(view)).copy()
    draw = _draw_track(img, view, HEADER, paths=True, base=False)
    _header(img, draw, view, say, band=False)
    _table(img, draw, view, HEADER + TRACK_H, say, base=False)
    return _encode(img)


def _wrap(words: list[str], width: int, size: int = 18, bold: bool = True) -> list[str]:
    lines: list[str] = []
    for w in words:
        if lines and kit.text_width(lines[-1] + " " + w, size, bold) <= width:
            lines[-1] += " " + w
        else:
            lines.append(w)
    return lines


def _card(img: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, value: int, c: int, note: list[str],
          playable: bool) -> None:
    """A card face (value and pips) with up to two lines of notes under it."""
    frame = _colour(c) if playable else "grey"
    draw.rounded_rectangle((x, y, x + CARD_W, y + FACE_H), radius=12, fill=kit.rgb("white"),
                           outline=kit.rgb(frame), width=6)
    _text(img, (x + CARD_W / 2, y + FACE_H / 2 - 8), str(value), size=60, bold=True,
          fill="ink" if playable else "grey", anchor="mm")
    pip, gap = 10, 5  # pips: the value without reading the number
    total = value * pip + (value - 1) * gap
    px = x + (CARD_W - total) / 2
    for i in range(value):
        cx = px + i * (pip + gap)
        draw.ellipse((cx, y + FACE_H - 24, cx + pip, y + FACE_H - 24 + pip), fill=kit.rgb("ink" if playable else "grey"))
    for k, line in enumerate(note[:2]):
        _text(img, (x + CARD_W / 2, y + FACE_H + 16 + 24 * k), line, size=18, bold=playable,
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
    row = FACE_H + 16
    height = 48 + len(hands) * row
    img, draw = kit.canvas(W, height, "paper")
    _text_in(img, (16, 24), say("your_hands") if len(hands) > 1 else say("your_hand"), W - 32, size=20,
             bold=True, anchor="lm")
    for k, h in enumerate(hands):
        ch = view["chariots"][h["chariot"]]
        y = 48 + k * row
        _badge(img, (44, y + FACE_H / 2), ch["id"], ch["label"], radius=20)
        for i, card in enumerate(h["cards"]):
            _card(img, draw, 90 + i * (CARD_W + 16), y, card["value"], ch["id"], [], True)
        x = 90 + 3 * (CARD_W + 16) + 10
        room = W - 16 - x
        _text_in(img, (x, y + 24), say("hand_line", label=ch["label"], lap=ch["lap"], to_go=ch["to_go"]), room,
                 size=18, bold=True, anchor="lm")
        _text_in(img, (x, y + 52), say("caesar_paid") if ch["paid"] else say("caesar_due"), room, size=18,
                 fill="ok" if ch["paid"] else "ink", anchor="lm")
        _text_in(img, (x, y + 80), say("cards_left", n=ch["cards_left"]), room, size=18, anchor="lm")
    return _encode(img)


def _render_turn(view: dict) -> bytes:
    say = kit.words("ave-caesar", view)
    c = view["turn"]
    ch = view["chariots"][c]
    height = HEADER + TRACK_H + CARD_H + 24
    img = Image.new("RGB", (W, height), kit.rgb("paper"))
    draw = _draw_track(img, view, HEADER, paths=False)
    centres = _centres(view["track"])
    for choice in view["choices"]:
        x, y = centres[choice["to"]]
        y += HEADER
        ring = "danger" if choice["misses_alley"] else (IMPERIAL if choice["enters_alley"] else "ink")
        draw.ellipse((x - 17, y - 17, x + 17, y + 17), fill=kit.rgb("white"), outline=kit.rgb(ring), width=4)
        _text(img, (x, y + 1), str(choice["n"]), size=20, bold=True, anchor="mm")
        if choice["misses_alley"]:  # a second cue besides the red ring
            draw.ellipse((x + 8, y - 26, x + 26, y - 8), fill=kit.rgb("danger"))
            _text(img, (x + 17, y - 17), "!", size=16, bold=True, fill="white", anchor="mm")
    _header(img, draw, view, say, say("your_move", label=ch["label"]))
    hand = next((h["cards"] for h in view["hands"] if h["chariot"] == c), [])
    y0 = HEADER + TRACK_H + 12
    _badge(img, (40, y0 + 26), c, ch["label"], radius=20)
    _text_in(img, (72, y0 + 16), say("lap", lap=ch["lap"]), 220 - 72 - 14, size=18, bold=True, anchor="lm")
    _text_in(img, (72, y0 + 40), say("to_go", n=ch["to_go"]), 220 - 72 - 14, size=16, anchor="lm")
    _text_in(img, (16, y0 + 72), say("caesar_paid") if ch["paid"] else say("caesar_due"), 220 - 16 - 6, size=16,
             fill="ok" if ch["paid"] else "ink", bold=True, anchor="lm")
    _text_in(img, (16, y0 + 96), say("cards_left", n=ch["cards_left"]), 220 - 16 - 6, size=16, anchor="lm")
    for i, card in enumerate(hand):
        v = card["value"]
        reach = [str(choice["n"]) for choice in view["choices"] if any(m["card"] == v for m in choice["moves"])]
        if reach:
            note = _wrap(["→", *reach], CARD_W + 40)
            if len(note) > 2:
                note = [note[0], kit.fit_text(" ".join(note[1:]), CARD_W + 40, 18, True)]
        elif v == 6 and ch["leader"]:
            note = [say("leader"), say("no_6")]
        else:
            note = [say("no_move")]
        _card(img, draw, 220 + i * (CARD_W + 40), y0, v, c, note, bool(reach))
    notes = []
    if any(choice["enters_alley"] for choice in view["choices"]):
        notes.append((say("note_alley_1"), IMPERIAL))
        notes.append((say("note_alley_2"), IMPERIAL))
    if any(choice["misses_alley"] for choice in view["choices"]):
        notes.append((say("note_misses_1"), "danger"))
        notes.append((say("note_misses_2"), "danger"))
    if any(choice["finishes"] for choice in view["choices"]):
        notes.append((say("note_finishes"), "ok"))
    # the notes stand right of the cards (and of the notes under the last card)
    room = W - 16 - (220 + len(hand) * (CARD_W + 40) - 40 + 20 + 12) if hand else W - 32
    for i, (line, colour) in enumerate(notes):
        _text_in(img, (W - 16, y0 + 12 + i * 24), line, room, size=16, bold=True, fill=colour, anchor="rm")
    return _encode(img)


def render_standings(view: dict) -> bytes:
    """Laurels per race and in total, per player (with his chariots when he drives several)."""
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
    row_h = 46
    height = HEADER + 44 + row_h * n + 12
    img, draw = kit.canvas(W, height, "paper")
    draw.rectangle((0, 0, W, HEADER), fill=kit.rgb("ink"))
    title = (say("standings_final") if view["over"] else
             say("standings_after", race=len(history), races=races))
    if not history:
        title = say("standings_under_way", races=races)
    _text_in(img, (16, HEADER / 2), title, W - 32, size=20, bold=True, fill="white", anchor="lm")
    y = HEADER + 22
    _text_in(img, (16, y), say("head_place"), 100 - 16 - 6, size=16, bold=True, fill="dark_grey", anchor="lm")
    _text_in(img, (100, y), say("head_player"), 170, size=16, bold=True, fill="dark_grey", anchor="lm")
    xs = [460 + i * 125 for i in range(races)]
    for i, x in enumerate(xs):
        _text_in(img, (x, y - 9), say("head_race", n=i + 1), 112, size=16, bold=True, fill="dark_grey",
                 anchor="mm")
        if i < len(history):
            track = history[i]["track"]
            way = (say("clockwise_short", track=track) if history[i]["direction"] == "cw" else
                   say("counter_clockwise_short", track=track))
            _text_in(img, (x, y + 11), way, 112, size=16, fill="dark_grey", anchor="mm")
    laurels = say("head_laurels")
    room = W - 24 - (xs[-1] + 62 if xs else 460) - 6
    _text_in(img, (W - 24, y), laurels, room, size=16, bold=True, fill="dark_grey", anchor="rm")
    for i, (place, seat, mine, per_race, total) in enumerate(rows):
        ry = HEADER + 44 + i * row_h + row_h / 2
        if i % 2 == 0:
            draw.rectangle((6, ry - row_h / 2, W - 6, ry + row_h / 2), fill=kit.rgb("panel"))
        _text(img, (16, ry), _place(say, place), size=20, bold=place == 1, anchor="lm")
        _text(img, (100, ry), kit.fit_text(_owner(view, seat, say), 170, 18, True), size=18, bold=True, anchor="lm")
        for k, ch in enumerate(mine):
            _badge(img, (296 + k * 38, ry), ch["id"], ch["label"], radius=16)
        for x, got in zip(xs, per_race):
            _text(img, (x, ry), str(got), size=20, anchor="mm")
        for x in xs[len(per_race):]:
            _text(img, (x, ry), "-", size=20, fill="grey", anchor="mm")
        _text(img, (W - 24, ry), str(total), size=22, bold=True, anchor="rm")
    return _encode(img)


def render_extras(view: dict, events: list[dict]) -> list[bytes]:
    """Pictures posted with the board besides the circus: the standings (laurels per race and in all) when
    a race has just ended, so the result stays visible while the board already shows the next race."""
    if any(e.get("type") == "race_over" for e in events):
        return [render_standings(view)]
    return []
