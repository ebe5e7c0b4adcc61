"""HEX-TRI pictures, drawn from engine views only.

``render_public(view)``: a header (round, phase, who acts), the board - HEXes shaded by value with the value
in their left corner, every field's name (HEX ``H-<label>``, TRI ``T-<label>``, see the legend), figures as
discs in the player's colour with his letter and a count, the leader as a disc with a gold ring,
mana as a white diamond with its number, contested HEXes with a red hatched border and crossed swords, this
round's moves as arrows (the latest one bold), last combat's battles and encirclements marked - and a
panel per player: leader's field or OUT, figures on the board, waiting off the board, sitting out (until
which round), usable mana and whether the leader's free step is left.

``render_private(view)`` returns None: HEX-TRI has perfect information, the public picture shows all.
``render_moves(view, origin, leader)`` is an extra for the UI: the board with one figure's reachable fields
and their mana cost outlined.

The board scales with the radius (the HEX circumradius is fixed in pixels): 702 px wide at radius 2, about
1,020 px at radius 3. Discord shows it about 420 px wide, so from radius 3 on the type grows with the width (12 px
or more there) and the board is drawn compact: a TRI shows only its number, its strip's letter stands at both ends
of the strip, a TRI holding a figure or mana shows that instead. The radius-4 and radius-5 boards would need type
too large for their TRIs at their whole width, so they are drawn in two halves, the left one above the right one,
each reaching 2.5 HEX radii past the centre (the middle is in both, between dashed lines): 783 and 910 px wide,
23 and 26 px type, 12 px or more at 420 px. On every board each player's row has the whole name
on a line of its own, and every field label is stamped last, with a halo of its field's colour, so nothing
drawn on the board covers a name a player must type. The empty board with names is a cached layer (per
language: it holds the legend). Every word comes from ``data/locales/hextri/picture/<lang>.json`` (``view["lang"]``, added
by the host); longer words are drawn smaller or condensed, English keeps its layout.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from PIL import Image, ImageDraw

from engines.hextri.board import board
from render import kit

GAME = "hextri"

S = 62            # HEX circumradius = TRI side, in pixels
MARGIN = 10
VMARGIN = 36      # above and below the board: room for the arrows of figures entering there
HEADER = 64
LEGEND_H = 96
#: the type size of everything a player reads to decide (field names, values, mana, figure marks, panel) on the
#: radius-2 board: Discord shows the picture about 420 px wide, and that board is 702 px wide, so 21 px here is
#: 12 px or more there (see tests/render/phone.py); larger boards solve for their own size (``_layout``)
T = 21
#: from this radius on the board is drawn compact (see ``_layout``)
COMPACT_RADIUS = 3
#: Discord's chat column, and the smallest type that reads in it (tests/render/phone.py), on every board
PHONE_WIDTH, PHONE_PX = 420, 12.0
#: from this radius on the board is drawn in two halves, the left one above the right one (see ``_layout``):
#: each half reaches this far (in HEX circumradii) past the board's centre line, so the middle columns are in
#: both and every field is whole in at least one half; a half-integer, so the cut passes between the labels
#: (HEX and TRI labels stand on whole-number columns)
FOLD_RADIUS, FOLD_REACH = 4, 2.5

VALUE_SHADES = {1: (238, 230, 205), 2: (226, 211, 170), 3: (214, 192, 136), 4: (200, 172, 104),
                5: (186, 152, 80), 6: (172, 134, 62)}
TRI_FILL = (250, 247, 238)
RIM_FILL = (236, 240, 244)
EDGE = (120, 104, 80)
MANA = (255, 255, 255)   # a white diamond with a dark number: no player's colour (seat B is blue)
MANA_INK = (40, 40, 40)
CONTEST = (190, 30, 45)
OWN_COLOURS = [*VALUE_SHADES.values(), TRI_FILL, RIM_FILL, EDGE, MANA, MANA_INK]
PALETTE = kit.make_palette([*OWN_COLOURS, *kit.PLAYER_COLOURS])


#: the forms of a counted phrase in the picture words (every table has all three: Polish needs them)
FORMS = ("_1", "_few", "_n")


def counted(key: str, n: int) -> str:
    """The picture word of ``key`` for ``n`` things: ``key_1``, ``key_few`` (2-4, 22-24, … but not 12-14:
    Polish "2 cele", "5 celów") or ``key_n``; the same rule as the presenter's ``count``."""
    if n == 1:
        return key + "_1"
    return key + ("_few" if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else "_n")


def _encode(img: Image.Image) -> bytes:
    return kit.encode(img, PALETTE)


def _lang(view: dict) -> str:
    return view.get("lang") or "en"


def _phase(say, phase: str) -> str:
    return {"move": say("phase_move"), "losses": say("phase_losses"), "over": say("phase_over")}.get(phase, phase)


def _reason(say, reason: str) -> str:
    return {"leader_down": say("reason_leader_down"), "first_blood": say("reason_first_blood"),
            "last_leader": say("reason_last_leader"), "leaders_fell_together": say("reason_leaders_fell_together"),
            "round_limit": say("reason_round_limit"), "stalemate": say("reason_stalemate")}.get(reason, reason)


class Layout(NamedTuple):
    """One radius's picture: the type size ``t`` of every needed text, and where the board sits.

    The board is drawn on a canvas ``canvas_w`` wide with the board ``draw_h`` tall under the header; a folded
    board (radius 4-5) is then cut into its left half (canvas columns up to ``width``) and its right half
    (from ``fold``), stacked with a band ``sep_h`` tall between them, so the picture is ``width`` wide and its
    board ``board_h`` tall (unfolded: the canvas is the picture, ``board_h == draw_h``)."""
    t: int
    compact: bool     # radius 3-5: TRIs show their number only, the strip letter at both ends of its strip
    width: int
    ox: float
    oy: float
    board_h: int
    header: int
    row_h: int
    legend_h: int
    canvas_w: int
    draw_h: int
    fold: int | None  # the canvas column where the right half starts
    sep_h: int


@lru_cache(maxsize=8)
def _layout(radius: int) -> Layout:
    """The picture of a board of ``radius``: at radius 2 the type is ``T``; the larger boards are wider, so
    their type grows with the picture's width (12 px or more at 420 px wide) and their TRIs, too small for a
    whole name in that type, carry only their number (the strip letter at both ends). From radius 4 on the
    whole board would need type too large for its TRIs, so it is drawn in two halves one above the other:
    the picture is about as wide as radius 3's and twice as tall."""
    b = board(radius)
    x0, y0, x1, y1 = b.bounds
    compact = radius >= COMPACT_RADIUS
    folded = radius >= FOLD_RADIUS
    t = T

    def sizes(t: int) -> tuple[int, int]:
        canvas_w = max(int((x1 - x0) * S) + 2 * (MARGIN + (t + 6 if compact else 0)), 700)
        half = int(round(canvas_w / 2 - (x0 + x1) / 2 * S + FOLD_REACH * S))
        return canvas_w, half if folded else canvas_w

    if compact:
        # the side margins hold the strip letters, and they grow with the type: solve for the smallest size
        while t * PHONE_WIDTH / sizes(t)[1] < PHONE_PX:
            t += 1
    canvas_w, width = sizes(t)
    ox = canvas_w / 2 - (x0 + x1) / 2 * S
    header = HEADER + (t - T)
    oy = header + VMARGIN - y0 * S
    draw_h = int((y1 - y0) * S) + 2 * VMARGIN
    sep_h = t + 16 if folded else 0
    board_h = 2 * draw_h + sep_h if folded else draw_h
    # the legend: the names line (and the compact board's TRI line, and the folded board's halves line), each
    # wrapped onto a second line rather than cut, then up to two rows of marks; each player's row two lines:
    # the whole name, then the figures
    legend_h = (LEGEND_H + (t - T) * 3) + (1 + compact * 2 + folded * 2) * (t + 8)
    row_h = 2 * (t + 8) + 4
    return Layout(t, compact, width, ox, oy, board_h, header, row_h, legend_h, canvas_w, draw_h,
                  canvas_w - width if folded else None, sep_h)


def _geometry(radius: int):
    """``(board, canvas width, ox, oy, board height on the canvas)``."""
    lay = _layout(radius)
    return board(radius), lay.canvas_w, lay.ox, lay.oy, lay.draw_h


def _fold(img: Image.Image, view: dict, say, lay: Layout) -> Image.Image:
    """The picture of a folded board: the canvas's header, the board's left half, a band naming the halves,
    its right half, then the legend and the panel (an unfolded board's canvas as it is)."""
    if lay.fold is None:
        return img
    top, bottom = lay.header, lay.header + lay.draw_h
    out = Image.new(img.mode, (lay.width, img.height - lay.draw_h + lay.board_h), kit.rgb("paper"))
    out.paste(img.crop((0, 0, lay.width, bottom)), (0, 0))
    out.paste(img.crop((lay.fold, top, lay.fold + lay.width, bottom)), (0, bottom + lay.sep_h))
    out.paste(img.crop((0, bottom, lay.width, img.height)), (0, top + lay.board_h))
    draw = ImageDraw.Draw(out)
    draw.rectangle((0, bottom, lay.width, bottom + lay.sep_h - 1), fill=kit.rgb("panel"))
    words, size, narrow = kit.fitted(say("fold_band"), lay.width - 2 * MARGIN, lay.t, bold=True, smallest=lay.t)
    kit.text(draw, (lay.width / 2, bottom + lay.sep_h / 2), words, size=size, bold=True, anchor="mm",
             condensed=narrow)
    return out


def _fold_lines(draw: ImageDraw.ImageDraw, lay: Layout) -> None:
    """A folded board's two cut lines, dashed: in each half, the line beyond which the fields are in the other
    half too (the board's part between them is in both)."""
    if lay.fold is None:
        return
    for x in (lay.ox - FOLD_REACH * S, lay.ox + FOLD_REACH * S):
        y = lay.header + 6
        while y < lay.header + lay.draw_h - 6:
            draw.line((x, y, x, min(y + 14, lay.header + lay.draw_h - 6)), fill=kit.rgb("ink"), width=3)
            y += 24


def _px(ox: float, oy: float, p: tuple[float, float]) -> tuple[float, float]:
    return ox + p[0] * S, oy + p[1] * S


@lru_cache(maxsize=32)
def _board_layer(radius: int, height: int, n_players: int, lang: str) -> Image.Image:
    """The empty board: shaded HEXes with value and name, TRIs with names, the rim lighter; the legend
    (in ``lang``)."""
    b, width, ox, oy, _ = _geometry(radius)
    lay = _layout(radius)
    t = lay.t
    img, draw = kit.canvas(width, height, "paper")
    for tri in b.tris:
        pts = [_px(ox, oy, p) for p in b.polygon[tri]]
        draw.polygon(pts, fill=RIM_FILL if tri in b.rim else TRI_FILL, outline=EDGE)
    for h in b.hexes:
        pts = [_px(ox, oy, p) for p in b.polygon[h]]
        draw.polygon(pts, fill=VALUE_SHADES[b.value[h]], outline=EDGE)
        draw.line(pts + [pts[0]], fill=EDGE, width=2)
    if lay.compact:
        _strip_letters(draw, b, ox, oy, t)
    _fold_lines(draw, lay)
    for label in _labels(radius):
        if label.kind != "number":  # a compact board's TRI numbers: only on TRIs left free (``_draw_public``)
            _stamp(img, label)
    _legend(draw, height - lay.legend_h - lay.row_h * n_players - 16, lay.width,
            kit.words("hextri", {"lang": lang}), lay)
    return img


@lru_cache(maxsize=32)
def _numbered_layer(radius: int, height: int, n_players: int, lang: str) -> Image.Image:
    """The empty board with every compact TRI's number on it (as each picture stamps it on a free TRI): a
    picture takes the number away from the TRIs a figure or mana stands on, rather than stamping the others."""
    layer = _board_layer(radius, height, n_players, lang)
    img = layer.copy()
    for label in _labels(radius):
        if label.kind == "number":
            _stamp(img, label, layer)
    return img


#: the ring around every field name restored from the empty board when the name is stamped over the picture,
#: so that a name over an arrow or a figure's edge still reads
HALO = 3


class Label(NamedTuple):
    """One field label: what it says, where, in which type, in which ink."""
    field: str
    kind: str          # "name" (a HEX's or a radius-2 TRI's), "value" (a HEX's), "number" (a compact TRI's)
    text: str
    xy: tuple[float, float]
    size: int
    bold: bool
    condensed: bool
    ink: tuple[int, int, int]


@lru_cache(maxsize=8)
def _labels(radius: int) -> tuple[Label, ...]:
    """Every field label of a board of ``radius``: the HEXes' names and values, and the TRIs' names (numbers on
    a compact board)."""
    b, _, ox, oy, _ = _geometry(radius)
    lay = _layout(radius)
    t = lay.t
    grey = kit.rgb("dark_grey")
    out = []
    for h in b.hexes:
        cx, cy = _px(ox, oy, b.xy[h])
        out.append(Label(h, "name", h[2:], (cx, cy - S * 0.66 + (t - T) * 0.4), t, True, False, grey))
        out.append(Label(h, "value", str(b.value[h]), (cx - S * 0.76 + (t - T) * 0.3, cy), t, True, False, EDGE))
    for tri in b.tris:
        cx, cy = _px(ox, oy, b.xy[tri])
        if lay.compact:
            out.append(Label(tri, "number", tri[3:], (cx, cy + _toward_base(b, tri, 3)), t, False, True, grey))
        else:
            # along the TRI's wide side, leaving its tip for a figure
            out.append(Label(tri, "name", tri[2:], (cx, cy + _toward_base(b, tri, 10)), T, False, True, grey))
    return tuple(out)


@lru_cache(maxsize=2048)
def _label_sprite(s: str, size: int, bold: bool, condensed: bool):
    """``(glyphs, halo, dx, dy)``: masks of a label centred on its point, and of the ring around it."""
    f = kit.font(size, bold, condensed)
    x0, y0, x1, y1 = f.getbbox(s, anchor="mm", stroke_width=HALO)
    box = (max(1, int(x1 - x0)), max(1, int(y1 - y0)))  # FreeType boxes are whole pixels already
    glyphs, halo = Image.new("L", box, 0), Image.new("L", box, 0)
    ImageDraw.Draw(halo).text((-x0, -y0), s, font=f, fill=255, anchor="mm", stroke_width=HALO, stroke_fill=255)
    ImageDraw.Draw(glyphs).text((-x0, -y0), s, font=f, fill=255, anchor="mm")
    return glyphs, halo, x0, y0


#: the side of the grid cells the labels are found by (px)
CELL = 64


@lru_cache(maxsize=8)
def _label_boxes(radius: int) -> tuple[tuple[tuple[int, int, int, int], ...], dict[tuple[int, int], tuple[int, ...]]]:
    """Each label's box as :func:`_stamp` pastes it (its halo included), by index into :func:`_labels`, and the
    labels by the grid cells (``CELL`` px) their boxes touch."""
    boxes: list[tuple[int, int, int, int]] = []
    cells: dict[tuple[int, int], list[int]] = {}
    for i, label in enumerate(_labels(radius)):
        _, halo, dx, dy = _label_sprite(label.text, label.size, label.bold, label.condensed)
        x, y = int(round(label.xy[0] + dx)), int(round(label.xy[1] + dy))
        box = (x, y, x + halo.width, y + halo.height)
        boxes.append(box)
        for cx in range(box[0] // CELL, box[2] // CELL + 1):
            for cy in range(box[1] // CELL, box[3] // CELL + 1):
                cells.setdefault((cx, cy), []).append(i)
    return tuple(boxes), {k: tuple(v) for k, v in cells.items()}


def _covered(radius: int, drawn: list[tuple[float, float, float, float]]) -> set[int]:
    """The labels (indices into :func:`_labels`) whose boxes meet one of the ``drawn`` boxes: the only ones that
    something was drawn over, so the only ones whose ring must be restored from the empty board."""
    boxes, cells = _label_boxes(radius)
    out: set[int] = set()
    for x0, y0, x1, y1 in drawn:
        for cx in range(int(x0) // CELL, int(x1) // CELL + 1):
            for cy in range(int(y0) // CELL, int(y1) // CELL + 1):
                for i in cells.get((cx, cy), ()):
                    bx0, by0, bx1, by1 = boxes[i]
                    if i not in out and bx0 <= x1 and x0 <= bx1 and by0 <= y1 and y0 <= by1:
                        out.add(i)
    return out


def _stamp(img: Image.Image, label: Label, layer: Image.Image | None = None) -> None:
    """Draw a field label (pasted: the same labels come back in every picture). Given the empty board
    ``layer``, the ring around the label is restored from it first (the field's colour and edges, not whatever
    was drawn over them), so the label reads over arrows and figures."""
    glyphs, halo, dx, dy = _label_sprite(label.text, label.size, label.bold, label.condensed)
    at = (int(round(label.xy[0] + dx)), int(round(label.xy[1] + dy)))
    if layer is not None:
        img.paste(layer.crop((at[0], at[1], at[0] + halo.width, at[1] + halo.height)), at, halo)
        if label.kind != "number":  # the layer holds the name itself; a compact TRI's number is drawn per picture
            return
    img.paste(label.ink, at, glyphs)


def _strip_letters(draw: ImageDraw.ImageDraw, b, ox: float, oy: float, t: int) -> None:
    """A compact board's TRI names: each strip's letter left and right of the strip, outside the board."""
    strips: dict[str, list[str]] = {}
    for tri in b.tris:
        strips.setdefault(tri[2], []).append(tri)
    for letter, tris in strips.items():
        first, last = tris[0], tris[-1]
        y = _px(ox, oy, b.xy[first])[1]
        left = min(_px(ox, oy, p)[0] for p in b.polygon[first])
        right = max(_px(ox, oy, p)[0] for p in b.polygon[last])
        kit.text(draw, (left - 4, y), letter, size=t, bold=True, anchor="rm", fill="dark_grey")
        kit.text(draw, (right + 4, y), letter, size=t, bold=True, anchor="lm", fill="dark_grey")


def _toward_base(b, t: str, d: float) -> float:
    """A vertical offset of ``d`` pixels towards the wide side of TRI ``t`` (negative: towards its tip)."""
    # an "N" TRI sits above its lowest corner HEX: its tip points up, its flat side is at the bottom
    return d if b.coord[t][0] == "N" else -d


def _colour(seat: int) -> str:
    return kit.PLAYER_COLOURS[seat % len(kit.PLAYER_COLOURS)]


def _letter(seat: int) -> str:
    return kit.PLAYER_LETTERS[seat % len(kit.PLAYER_LETTERS)]


def _who(view: dict, seats: list[int], short: int = 0) -> str:
    """Players by name with their seat letter beside it ("Ann (A), Bob (B)"); the letter alone for a seat
    without a name (views made outside the host). ``short``: 1 first names only, 2 letters only."""
    names = player_names(view)
    if short == 2:
        return " ".join(_letter(s) for s in seats)
    if short == 1:
        names = [n.split()[0] if n else n for n in names]
    return ", ".join(f"{names[s]} ({_letter(s)})" if s < len(names) and names[s] else _letter(s) for s in seats)


def _figure(draw: ImageDraw.ImageDraw, centre, seat: int, count: int, leader: bool, r: int = 15, t: int = T) -> None:
    """A player's figures: disc + letter (+ count); the leader gets a gold ring (no crown: over a HEX it stood on
    the field's name)."""
    x, y = centre
    if leader:
        ring = 4 if r < 17 else 3
        draw.ellipse((x - r - ring, y - r - ring, x + r + ring, y + r + ring), fill=kit.rgb("gold"),
                     outline=kit.rgb("ink"))
    kit.badge(draw, (x, y), r, _colour(seat), _letter(seat), size=t)
    if count > 1:
        kit.text(draw, (x + r + 2, y + 1), f"×{count}", size=t, bold=True, anchor="lm", condensed=True)


def _figure_box(centre, r: int, count: int, t: int) -> tuple[float, float, float, float]:
    """Where :func:`_figure` draws, with room to spare: the disc, its gold ring and the count beside it."""
    x, y = centre
    reach = max(r + 6, t + 4)
    return x - r - 6, y - reach, x + r + 6 + _count_w(count, t) + 4, y + reach


def _around(pts, pad: float) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _count_w(count: int, t: int = T) -> int:
    return kit.text_width(f"×{count}", t, bold=True, condensed=True) + 2 if count > 1 else 0


def _mana(draw: ImageDraw.ImageDraw, centre, amount: int | None, size: int = 10, t: int = T) -> None:
    """A mana counter: a white diamond and the amount (None: the diamond alone, for the legend)."""
    x, y = centre
    draw.polygon([(x, y - size), (x + size, y), (x, y + size), (x - size, y)], fill=MANA, outline=kit.rgb("ink"),
                 width=2)
    if amount is None:
        return
    kit.text(draw, (x + size + 2, y + 1), str(amount), size=t, bold=True, anchor="lm", fill=MANA_INK)


def _move_points(b, path: list[str], ox: float, oy: float, size: tuple[int, int], top: int):
    """The arrow of one move: from the centre of each field it passed; a figure entering the board comes in
    from just outside it, straight towards the entry TRI, from a point inside the picture (the radius-2 board
    has no side margin: the start is pulled in along the same line)."""
    pts = [_px(ox, oy, b.xy[f]) for f in path if f != "off"]
    if path[0] == "off" and pts:
        x, y = b.xy[path[1]]
        d = math.hypot(x, y) or 1.0
        ex, ey = pts[0]
        sx, sy = _px(ox, oy, (x + x / d * 0.9, y + y / d * 0.9))
        # the share of the way out that stays 6 px inside the picture (and below the header)
        keep = 1.0
        for start, end, low, high in ((ex, sx, 6, size[0] - 6), (ey, sy, top + 6, size[1] - 6)):
            if end < low:
                keep = min(keep, (start - low) / (start - end))
            elif end > high:
                keep = min(keep, (high - start) / (end - start))
        pts.insert(0, (ex + (sx - ex) * keep, ey + (sy - ey) * keep))
    return pts


def _arrow(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]], colour, width: int) -> None:
    if len(pts) < 2:
        return
    draw.line(pts, fill=kit.rgb("ink"), width=width + 4, joint="curve")
    draw.line(pts, fill=kit.rgb(colour), width=width, joint="curve")
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    ang = math.atan2(y1 - y0, x1 - x0)
    head = 10 + width
    tip = (x1 - math.cos(ang) * 12, y1 - math.sin(ang) * 12)
    left = (tip[0] - head * math.cos(ang - 0.45), tip[1] - head * math.sin(ang - 0.45))
    right = (tip[0] - head * math.cos(ang + 0.45), tip[1] - head * math.sin(ang + 0.45))
    draw.polygon([tip, left, right], fill=kit.rgb(colour), outline=kit.rgb("ink"))


def _hatch(draw: ImageDraw.ImageDraw, pts: list[tuple[float, float]]) -> None:
    """A red border with stripes along it: 'contested' without relying on colour alone."""
    draw.line(pts + [pts[0]], fill=CONTEST, width=5)
    for i in range(6):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % 6]
        for k in range(1, 4):
            f = k / 4
            mx, my = ax + (bx - ax) * f, ay + (by - ay) * f
            draw.line((mx - 4, my - 4, mx + 4, my + 4), fill=kit.rgb("ink"), width=2)


def render_public(view: dict) -> bytes:
    """The board and the players' panel, for everyone (a game ended outside its rules: how it ended instead of
    who moves)."""
    view = kit.at_rest(view)
    lay = _layout(view["radius"])
    say = kit.words("hextri", view)
    img, _, _, _, _, changed = _draw_public(view)
    # quantised where the picture differs from the empty board only, and put together with the clock strip in
    # the PNG's own rows (kit.encode_over): the strip drawn and quantised alone, and the board's 1.5 million
    # pixels copied once, not once per step (issue 29)
    base = _quantised_layer(view["radius"], img.height, view["num_players"], _lang(view))
    return kit.encode_over(_fold(img, view, say, lay), base, _folded_boxes(changed, lay), PALETTE, view)


@lru_cache(maxsize=32)
def _quantised_layer(radius: int, height: int, n_players: int, lang: str) -> Image.Image:
    """What every board picture is drawn over (the empty board, a compact board's TRI numbers on it), folded
    and quantised to the palette: a picture is this with the places it drew on quantised over it."""
    lay = _layout(radius)
    layer = (_numbered_layer if lay.compact else _board_layer)(radius, height, n_players, lang)
    folded = _fold(layer, {}, kit.words("hextri", {"lang": lang}), lay)
    return folded.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _folded_boxes(boxes: list[Box], lay: Layout) -> list[Box]:
    """``boxes`` on the canvas where they are in the picture once :func:`_fold` has put the board's right half
    under its left half (a box of the part both halves show, in both)."""
    if lay.fold is None:
        return boxes
    top, bottom, width, fold = lay.header, lay.header + lay.draw_h, lay.width, lay.fold
    below = bottom + lay.sep_h - top  # how far down the right half goes
    out: list[Box] = []
    for x0, y0, x1, y1 in boxes:
        if y0 < bottom and x0 < width:  # the header and the left half stay where they are
            out.append((x0, y0, min(x1, width), min(y1, bottom)))
        if y0 < bottom and y1 > top and x1 > fold:  # the right half goes under the left
            out.append((max(x0, fold) - fold, max(y0, top) + below, min(x1, fold + width) - fold,
                        min(y1, bottom) + below))
        if y1 > bottom:  # the legend and the panel go up under the right half
            shift = bottom - top - lay.board_h
            out.append((x0, max(y0, bottom) - shift, x1, y1 - shift))
    return out


def render_moves(view: dict, origin: str, leader: bool = False) -> bytes:
    """The public board with one figure's options: its field outlined, and every field it can reach this go
    (from ``view["legal"]``, so the viewer must be the seat to act) outlined with the mana it costs.

    An extra for the UI's "choose a destination" step; ``origin`` is a field name or ``"off"``.
    """
    say = kit.words("hextri", view)
    img, draw, b, ox, oy, _ = _draw_public(view)
    lay = _layout(view["radius"])
    t = lay.t
    # one mark per destination (view["legal"] lists each move once; a list of older games' form, with every
    # way to pay, gives the same marks: the ways cost the same mana)
    options = list({a["to"]: a for a in reversed(view.get("legal", [])) if a["type"] == "move"
                    and a["from"] == origin and a["leader"] == leader}.values())[::-1]
    for a in options:
        pts = [_px(ox, oy, p) for p in b.polygon[a["to"]]]
        draw.line(pts + [pts[0]], fill=kit.rgb("ink"), width=6)
        draw.line(pts + [pts[0]], fill=kit.rgb("highlight"), width=3)
    if origin != "off":
        pts = [_px(ox, oy, p) for p in b.polygon[origin]]
        draw.line(pts + [pts[0]], fill=kit.rgb("ink"), width=8)
    for a in options:
        cx, cy = _px(ox, oy, b.xy[a["to"]])
        if b.kind[a["to"]] == "tri":
            cy += _toward_base(b, a["to"], 0 if lay.compact else -8)
        else:
            # lower right, clear of the figures in the middle and the mana below them
            cx, cy = cx + S * 0.5, cy + S * 0.3
        label = f"{a['cost']}◆" if a["cost"] else say("free")
        w = kit.text_width(label, t, bold=True, condensed=True) + 6
        half = 13 if not lay.compact else t * 0.62
        draw.rectangle((cx - w / 2, cy - half, cx + w / 2, cy + half), fill=kit.rgb("highlight"),
                       outline=kit.rgb("ink"))
        kit.text(draw, (cx, cy), label, size=t, bold=True, anchor="mm", condensed=True)
    who = say("moves_leader") if leader else say("moves_figure")
    where = say("moves_off_board") if origin == "off" else origin
    title = say(counted("moves_title", len(options)), count=len(options), who=who, where=where)
    # the title over the folded picture: on the canvas the band would run on into the right half's top
    img = _fold(img, view, say, lay)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, lay.header - 8, img.width, lay.header + t + 1), fill=kit.rgb("highlight"))
    title, size, condensed = kit.fitted(title, img.width - 2 * MARGIN, t, bold=True, smallest=t)
    kit.text(draw, (MARGIN, lay.header + t / 3), title, size=size, bold=True, anchor="lm", condensed=condensed)
    return _encode(img)


def _draw_public(view: dict):
    """The public picture on the canvas, in full colour: ``(img, draw, board, ox, oy, changed)``, ``changed`` the
    boxes of every place drawn on over the empty board's layer (:func:`kit.quantized_over`)."""
    say = kit.words("hextri", view)
    radius = view["radius"]
    n = view["num_players"]
    b, width, ox, oy, board_h = _geometry(radius)
    lay = _layout(radius)
    t = lay.t
    height = lay.header + board_h + lay.legend_h + lay.row_h * n + 16
    layer = _board_layer(radius, height, n, _lang(view))
    labels = _labels(radius)
    boxes, _ = _label_boxes(radius)
    # the numbers of the TRIs a figure or mana stands on are taken away (before anything is drawn there)
    held = set(view["mana"]) | {p["field"] for p in view["pieces"]}
    hidden = [i for i, label in enumerate(labels) if label.kind == "number" and label.field in held]
    img = _numbered_layer(radius, height, n, _lang(view)).copy() if lay.compact else layer.copy()
    for i in hidden:
        img.paste(layer.crop(boxes[i]), boxes[i][:2])
    draw = ImageDraw.Draw(img)
    _header(draw, view, lay.width, say, lay)

    pieces: dict[str, list[dict]] = {}
    for piece in view["pieces"]:
        pieces.setdefault(piece["field"], []).append(piece)
    contested = set(view["contested"])
    last_round = view.get("last_round") or {}
    fresh_round = not view["moves"] and last_round and last_round.get("round") == view["round"] - 1

    # what is drawn over the empty board, as boxes with room to spare: the labels they meet are stamped again
    drawn = _draw_battles(draw, b, ox, oy, t, contested, last_round if fresh_round else {})
    moves = view["moves"] if view["moves"] else (last_round.get("moves", []) if fresh_round else [])
    drawn += _draw_moves(draw, b, ox, oy, img.size, lay, moves, latest=bool(view["moves"]))
    # a figure's disc holds its letter in the picture's type
    disc = 15 if not lay.compact else round(t * 0.6)
    drawn += _draw_pieces(draw, b, ox, oy, lay, pieces, disc)
    drawn += _draw_mana(draw, b, ox, oy, lay, view["mana"], pieces, disc)

    # every field's label last, over the arrows and figures: a name a player must type is never hidden (a
    # compact board's TRI holding a figure or mana shows that instead of its number)
    # (the layer holds the labels already, a compact board's TRI numbers too: where nothing was drawn, there is
    # nothing to restore)
    covered = _covered(radius, drawn + [boxes[i] for i in hidden])
    grown = covered
    while grown:  # a label stamped again restores its ring from the empty board: its neighbours are stamped too
        grown = _covered(radius, [boxes[i] for i in grown]) - covered
        covered |= grown
    hidden_set = set(hidden)
    for i, label in enumerate(labels):
        if i in covered and i not in hidden_set:
            _stamp(img, label, layer)

    panel_top = lay.header + board_h + lay.legend_h
    _panel(draw, view, panel_top, lay.width, say, lay)
    # every place drawn on over the layer: the header, the board's marks and labels, the panel
    changed = [(0, 0, img.width, lay.header), *drawn, *(boxes[i] for i in covered | hidden_set),
               (0, panel_top, img.width, img.height)]
    return img, draw, b, ox, oy, changed



Box = tuple[float, float, float, float]


def _mark(x: float, y: float, size: int) -> Box:
    return (x - size - 4, y - size - 4, x + size + 4, y + size + 4)


def _draw_battles(draw: ImageDraw.ImageDraw, b, ox: float, oy: float, t: int, contested: set,
                  last_round: dict) -> list[Box]:
    """The contested fields (hatched, crossed swords) and, from ``last_round`` (until this round's first move),
    what the last combat phase did: its battles and encirclements. Returns the boxes drawn over."""
    drawn: list[Box] = []
    for h in contested:
        pts = [_px(ox, oy, p) for p in b.polygon[h]]
        _hatch(draw, pts)
        drawn.append(_around(pts, 8))
        cx, cy = _px(ox, oy, b.xy[h])
        kit.text(draw, (cx + S * 0.62, cy - S * 0.42), "⚔", size=max(26, t), bold=True, anchor="mm", fill=CONTEST)
        drawn.append(_mark(cx + S * 0.62, cy - S * 0.42, max(26, t)))
    for battle in last_round.get("battles", []):
        if battle["field"] not in contested:
            cx, cy = _px(ox, oy, b.xy[battle["field"]])
            kit.text(draw, (cx + S * 0.62, cy - S * 0.42), "⚔", size=max(26, t), bold=True, anchor="mm",
                     fill="dark_grey")
            drawn.append(_mark(cx + S * 0.62, cy - S * 0.42, max(26, t)))
    for enc in last_round.get("encircled", []):
        cx, cy = _px(ox, oy, b.xy[enc["field"]])
        kit.text(draw, (cx, cy), "✖", size=max(30, t + 4), bold=True, anchor="mm", fill=CONTEST)
        drawn.append(_mark(cx, cy, max(30, t + 4)))
    return drawn


def _draw_moves(draw: ImageDraw.ImageDraw, b, ox: float, oy: float, size: tuple[int, int], lay: Layout,
                moves: list[dict], latest: bool) -> list[Box]:
    """The moves' arrows, the last one bold when ``latest`` (moves of this round). Returns the boxes."""
    drawn: list[Box] = []
    for i, move in enumerate(moves):
        pts = _move_points(b, move["path"], ox, oy, size, lay.header)
        bold = i == len(moves) - 1 and latest
        _arrow(draw, pts, _colour(move["seat"]), 6 if bold else 3)
        if len(pts) >= 2:  # the line's width and the head beyond its points
            drawn.append(_around(pts, (6 if bold else 3) + 16))
    return drawn


def _draw_pieces(draw: ImageDraw.ImageDraw, b, ox: float, oy: float, lay: Layout, pieces: dict[str, list[dict]],
                 disc: int) -> list[Box]:
    """The figures: one on a TRI by its tip, several on a HEX in rows. Returns the boxes."""
    t = lay.t
    drawn: list[Box] = []
    for field, here in pieces.items():
        cx, cy = _px(ox, oy, b.xy[field])
        if b.kind[field] == "tri":
            p = here[0]
            if lay.compact:
                at, r = (cx, cy + _toward_base(b, field, 2)), disc
                _figure(draw, at, p["seat"], 1, p["leader"], r=r, t=t)
            else:
                at, r = (cx, cy + _toward_base(b, field, -14)), 12
                _figure(draw, at, p["seat"], 1, p["leader"], r=r)
            drawn.append(_figure_box(at, r, 1, t))
            continue
        # two players per row while they fit between the value and the right corner, else one; each item a
        # disc plus its count; more rows for a crowded battle
        widths = [2 * disc + _count_w(p["count"], t) for p in here]
        per_row = 2 if len(here) > 1 and max(widths) * 2 + 6 <= S * 1.45 else 1
        rows = [list(range(i, min(i + per_row, len(here)))) for i in range(0, len(here), per_row)]
        pitch = (28 if len(rows) <= 2 else 25) + 2 * (disc - 15)
        top = cy + 2 - (len(rows) - 1) * pitch / 2 + (3 if lay.compact else 0)
        for r, row in enumerate(rows):
            x = cx + 6 - (sum(widths[i] for i in row) + 6 * (len(row) - 1)) / 2
            for i in row:
                p = here[i]
                _figure(draw, (x + disc, top + r * pitch), p["seat"], p["count"], p["leader"], r=disc, t=t)
                drawn.append(_figure_box((x + disc, top + r * pitch), disc, p["count"], t))
                x += widths[i] + 6
    return drawn


def _draw_mana(draw: ImageDraw.ImageDraw, b, ox: float, oy: float, lay: Layout, mana: dict[str, int],
               pieces: dict[str, list[dict]], disc: int) -> list[Box]:
    """The mana on the fields. Returns the boxes."""
    t = lay.t
    drawn: list[Box] = []
    for field, amount in mana.items():
        cx, cy = _px(ox, oy, b.xy[field])
        if b.kind[field] == "hex":
            at, size, tt = (cx - 12 - (t - T), cy + S * 0.6), 10, t
        elif lay.compact:
            # in place of the TRI's number (a TRI's mana mostly lies where a figure was removed); beside the
            # figure's disc when one stands there
            dx = -disc - 2 if field in pieces else -t * 0.35
            at, size, tt = (cx + dx, cy + _toward_base(b, field, 6 if field in pieces else 3)), 6, t
        else:
            # beside the tip, where a figure would stand (a TRI's mana mostly lies where a figure was removed)
            at, size, tt = (cx - 14, cy + _toward_base(b, field, -12)), 6, T
        _mana(draw, at, amount, size=size, t=tt)
        reach = max(size + 4, tt + 4)
        drawn.append((at[0] - size - 4, at[1] - reach,
                      at[0] + size + 6 + kit.text_width(str(amount), tt, bold=True) + 4, at[1] + reach))
    return drawn

def render_private(view: dict) -> bytes | None:
    """None: everything in HEX-TRI is public."""
    return None


def _header(draw: ImageDraw.ImageDraw, view: dict, width: int, say, lay: Layout) -> None:
    draw.rectangle((0, 0, width, lay.header - 8), fill=kit.rgb("panel"))
    big, small = lay.t + 3, lay.t + 1
    limit = view["round_limit"]
    rnd = say("round_of", round=view["round"], limit=limit) if limit else say("round", round=view["round"])
    ended = kit.ending(view)
    title = f"HEX-TRI · {rnd} · {_phase(say, 'over' if ended else view['phase'])}"
    result = view.get("result")
    if ended is not None:
        label, colour = ended["headline"], "ok"
    elif result:
        label = _result_label(result, view["num_players"], say)
        colour = "ok"
    else:
        label = ""
        colour = "danger" if view["phase"] == "losses" else "ink"
    # the title keeps its size while both fit; the label on the right gives way first, then the title. How a game
    # ended is the label that matters most: the title gives up its round for it before it is shortened
    room = width - 2 * MARGIN - 24
    short = title
    if ended is not None:  # the shortest title that leaves the whole headline room: "HEX-TRI · Game over", "HEX-TRI"
        short = f"HEX-TRI · {_phase(say, 'over')}"
        if kit.fitted(label, room - kit.text_width(short, big, bold=True), small, bold=True,
                      smallest=lay.t)[0].endswith("…"):
            short = "HEX-TRI"
    title_w = kit.text_width(short, big, bold=True)
    label_room = max(room - title_w, room * 0.45)
    if ended is None and not result:
        key = "choosing_losses" if view["phase"] == "losses" else "to_move"
        # who is to act by name, else (no room beside the whole title, even condensed) by first name, else by
        # letter: never cut (the panel below has every name whole)
        for shortened in (0, 1, 2):
            label = say(key, who=_who(view, view["to_act"], shortened))
            if kit.text_width(label, lay.t, True, True) <= room - title_w:
                label_room = room - title_w
                break
    label, lsize, lcond = kit.fitted(label, label_room, small, bold=True, smallest=lay.t)
    left = room - kit.text_width(label, lsize, True, lcond)
    if kit.text_width(title, big, bold=True) > left:
        title = short
    title, tsize, tcond = kit.fitted(title, left, big, bold=True, smallest=lay.t)
    kit.text(draw, (MARGIN, lay.header / 2 - 4), title, size=tsize, bold=True, anchor="lm", condensed=tcond)
    kit.text(draw, (width - MARGIN, lay.header / 2 - 4), label, size=lsize, bold=True, anchor="rm", fill=colour,
             condensed=lcond)


def _result_label(result: dict, num_players: int, say=None) -> str:
    """"B wins (round limit)", "A C win (first blood)", "Draw (...)" (nobody, or everybody, came first)."""
    say = say or kit.words("hextri", {})
    winners = result["winners"]
    letters = " ".join(_letter(s) for s in winners)
    if not winners or len(winners) == num_players:
        who = say("draw")
    else:
        who = say("wins", who=letters) if len(winners) == 1 else say("win", who=letters)
    return say("result", who=who, reason=_reason(say, result["reason"]))


def _legend(draw: ImageDraw.ImageDraw, y: int, width: int, say, lay: Layout) -> None:
    """What the marks mean, in full-size type: how to type a field, then the marks, flowing onto a second
    row when one is not wide enough (translations are longer)."""
    t = lay.t
    x = MARGIN
    lines = [say("legend_names")]
    if lay.compact:
        lines.append(say("legend_compact"))
    if lay.fold is not None:
        lines.append(say("legend_fold"))
    for line in lines:
        names, size, condensed = kit.fitted(line, width - 2 * MARGIN, t, smallest=t)
        parts = [(names, condensed)]
        if names.endswith("…"):  # two whole lines rather than one cut
            parts = [(part, True) for part in _wrap_words(line, width - 2 * MARGIN, t)]
        for part, narrow in parts:
            kit.text(draw, (x, y + 12 + (t - T) // 2), part, size=size, anchor="lm", condensed=narrow)
            y += t + 8
    items = [("leader", say("legend_leader")), ("mana", say("legend_mana")), ("contested", say("legend_contested")),
             ("encircled", say("legend_encircled")), (None, say("legend_moves"))]
    mark_w = 32 + (t - T)
    yy, row = y + 11 + (t - T), 0
    for mark, words in items:
        w = (mark_w if mark else 0) + kit.text_width(words, t, condensed=True)
        if x + w > width - MARGIN and x > MARGIN and row == 0:
            x, yy, row = MARGIN, yy + t + 7, 1
        if mark == "leader":
            _figure(draw, (x + 12, yy), 0, 1, True, r=10 + (t - T) // 2, t=t)
        elif mark == "mana":
            _mana(draw, (x + 11, yy), None, size=9)
        elif mark == "contested":
            kit.text(draw, (x + 11, yy), "⚔", size=t, anchor="mm", bold=True, fill=CONTEST)
        elif mark == "encircled":
            kit.text(draw, (x + 11, yy), "✖", size=t, anchor="mm", bold=True, fill=CONTEST)
        kit.text(draw, (x + (mark_w if mark else 0), yy), words, size=t, anchor="lm", condensed=True)
        x += w + 16


def player_names(view: dict) -> list[str | None]:
    """The players' display names by seat from ``view["player_names"]`` (the host adds them), None for a seat
    without one: the panel then shows the seat's letter only, as in views made outside the host."""
    given = view.get("player_names") or []
    out = []
    for seat in range(view["num_players"]):
        name = given[seat] if seat < len(given) and isinstance(given[seat], str) else ""
        out.append(" ".join(name.split()) or None)
    return out


def _wrap_words(s: str, width: int, t: int) -> list[str]:
    """``s`` in condensed type, broken between words into lines of ``width``."""
    lines: list[str] = []
    for word in s.split():
        if lines and kit.text_width(lines[-1] + " " + word, t, condensed=True) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


def _panel_two_lines(draw: ImageDraw.ImageDraw, view: dict, y: int, width: int, say, lay: Layout) -> None:
    """The panel: each player's whole name on a line of its own, the figures under it."""
    t, row_h = lay.t, lay.row_h
    names = player_names(view)
    badge_r = 14 + (t - T) // 2
    for p in view["players"]:
        seat = p["seat"]
        top = y + seat * row_h
        acting = seat in view["to_act"]
        fill = "highlight" if acting else ("panel" if seat % 2 == 0 else "paper")
        draw.rectangle((MARGIN - 6, top, width - MARGIN + 6, top + row_h - 4), fill=kit.rgb(fill))
        kit.badge(draw, (MARGIN + badge_r - 2, top + row_h / 2 - 2), badge_r, _colour(seat), _letter(seat), size=t)
        x = MARGIN + 2 * badge_r + 6
        room = width - x - MARGIN
        line1, line2 = top + (t + 8) / 2 + 2, top + (t + 8) * 1.5 + 2
        if names[seat]:
            name, size, narrow = kit.fit_words(names[seat], room, t, bold=True, smallest=t)
            kit.text(draw, (x, line1), name, size=size, anchor="lm", bold=True, condensed=narrow)
        status = _status(view, p, acting, short=False, say=say)
        if kit.text_width(status, t, bold=acting) > room:
            status = _status(view, p, acting, short=True, say=say)
        status, size, narrow = kit.fitted(status, room, t, bold=acting, smallest=t)
        kit.text(draw, (x, line2 if names[seat] else top + row_h / 2 - 2), status, size=size, anchor="lm",
                 bold=acting, condensed=narrow)


def _panel(draw: ImageDraw.ImageDraw, view: dict, y: int, width: int, say, lay: Layout) -> None:
    """Each player's row: the whole name on a line of its own (never cut), the figures under it."""
    _panel_two_lines(draw, view, y, width, say, lay)


def _losses(view: dict, seat: int) -> str:
    """The figures the pending battles take from ``seat`` ("H-B2 −2, H-C3 −1"), or ""."""
    battle = view.get("battle") if view["phase"] == "losses" else None
    if not battle:
        return ""
    return ", ".join(f"{b['field']} −{b['losses'][str(seat)]}" for b in battle["battles"]
                     if b["losses"].get(str(seat)))


def _status(view: dict, p: dict, acting: bool, short: bool, say=None) -> str:
    """A player's row: leader, figures, mana; ``short`` words it tighter for a row that also holds a name."""
    say = say or kit.words("hextri", view)
    if not p["alive"]:
        status = say("status_out", round=p["out_round"])
    else:
        leader = say("off_board") if p["leader"] == "off" else p["leader"]
        bits = [say("status_leader", field=leader),
                say("status_board_short", n=p["on_board"]) if short else say("status_on_board", n=p["on_board"]),
                say("status_waiting", n=p["waiting"])]
        if p["resting"]:
            n = p["resting"]
            bits.append(say(counted("status_resting_short", n), count=n, round=p["resting_until"]) if short
                        else say(counted("status_resting", n), count=n, round=p["resting_until"]))
        bits.append(say("status_mana", n=p["mana"]))
        losses = _losses(view, p["seat"])
        if losses:  # what the battles take from him, first: on the board a box would cover field names
            bits.insert(0, say("status_losses", losses=losses))
        if p["free_step"] and view["phase"] == "move" and not kit.ending(view):
            bits.append(say("status_free_step"))
        status = " · ".join(bits)
    gone = (kit.ending(view) or {}).get("left", {}).get(str(p["seat"]))
    if gone:
        status = f"{gone} · {status}"
    return "▶ " + status if acting else status
