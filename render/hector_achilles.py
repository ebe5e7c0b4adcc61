"""Hector and Achilles pictures, drawn from engine views only.

``render_public(view)``: the battle table seen from above with the Achaeans at the bottom and the Trojans at
the top (front decks 1, 2, 3 face each other as in the rulebook, home decks behind them), both sides' played
cards, the fate tile with the colour facing each side, reserves, the attacker, the round, strength totals,
whose turn it is and, between battles, the last battle's result. ``render_private(view)``: one seat's hand and
the colours that score for it now. Every colour also carries its letter and a pattern; card faces are cached
sprites so a picture takes a few milliseconds.
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
_SIDES = json.loads((_DATA / "sides.json").read_text("utf-8"))["sides"]
SIDE_NAMES = [s["en"] for s in sorted(_SIDES, key=lambda s: s["seat"])]


def _shade(rgb: tuple[int, int, int], f: float) -> tuple[int, int, int]:
    if f < 1:
        return tuple(int(c * f) for c in rgb)
    return tuple(int(c + (255 - c) * (f - 1)) for c in rgb)


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

W = 1000
CARD_W, CARD_H = 100, 144
PITCH = 110
ROW_X = 200
ROW_H = 184
TILE = 124


def colour_name(key: str) -> str:
    return _COLOURS[key]["en"].capitalize()


PALETTE = kit.make_palette(_OWN_COLOURS)


def _encode(img: Image.Image) -> bytes:
    return kit.encode(img, PALETTE)



# ------------------------------------------------------------------------------------------------ cached text

@lru_cache(maxsize=4096)
def _text_sprite(s: str, size: int, fill, bg, bold: bool, anchor: str, condensed: bool):
    f = kit.font(size, bold, condensed)
    x0, y0, x1, y1 = f.getbbox(s, anchor=anchor)
    img = Image.new("RGB", (max(1, x1 - x0), max(1, y1 - y0)), bg)
    ImageDraw.Draw(img).text((-x0, -y0), s, font=f, fill=fill, anchor=anchor)
    return img, x0, y0


def _text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bg="paper", bold: bool = False,
          anchor: str = "la", condensed: bool = False) -> None:
    """Text on a solid background, cached as a sprite: most labels repeat from picture to picture, and
    rendering glyphs is the slowest part of a picture."""
    sprite, dx, dy = _text_sprite(s, size, kit.rgb(fill), kit.rgb(bg), bold, anchor, condensed)
    img.paste(sprite, (int(xy[0]) + dx, int(xy[1]) + dy))


@lru_cache(maxsize=512)
def _badge_sprite(r: int, fill, label: str, text_fill, size: int, bg) -> Image.Image:
    img = Image.new("RGB", (2 * r + 3, 2 * r + 3), bg)
    kit.badge(ImageDraw.Draw(img), (r + 1, r + 1), r, fill, label, text_fill=text_fill, size=size)
    return img


def _badge(img: Image.Image, centre, r: int, fill, label: str, text_fill="white", size: int = 16,
           bg="paper") -> None:
    sprite = _badge_sprite(r, kit.rgb(fill), label, kit.rgb(text_fill), size, kit.rgb(bg))
    img.paste(sprite, (int(centre[0]) - r - 1, int(centre[1]) - r - 1))


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
def troop_sprite(colour: str, strength: int, scale: float = 1.0, dim: bool = False) -> Image.Image:
    """A face-up troop card: colour and pattern, the colour's letter and name, the strength and the kind."""
    w, h = int(CARD_W * scale), int(CARD_H * scale)
    img, d = kit.canvas(w, h, "paper")
    d.rectangle((0, 0, w - 1, h - 1), fill=ARMY[colour])
    _pattern(d, (0, 0, w, h), _COLOURS[colour]["pattern"], ARMY_DARK[colour])
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(8 * scale), outline=kit.rgb("ink"), width=2)
    # letter badge and colour name on a white strip
    d.rectangle((4, 4, w - 5, int(30 * scale)), fill=kit.rgb("white"))
    kit.badge(d, (int(17 * scale), int(17 * scale)), int(12 * scale), ARMY[colour], _COLOURS[colour]["letter"],
              size=int(16 * scale), text_fill="white" if colour not in ("yellow",) else "ink")
    kit.text(d, (int(33 * scale), int(17 * scale)), colour_name(colour), size=int(16 * scale), bold=True,
             anchor="lm", condensed=True)
    # strength in a white disc
    cx, cy, r = w // 2, int(72 * scale), int(27 * scale)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=kit.rgb("white"), outline=kit.rgb("ink"), width=2)
    kit.text(d, (cx, cy), str(strength), size=int(36 * scale), bold=True, anchor="mm")
    # troop kind on a strip
    y = int(108 * scale)
    d.rectangle((4, y, w - 5, y + int(24 * scale)), fill=kit.rgb("white"))
    kit.text(d, (w // 2, y + int(12 * scale)), _KINDS[strength]["en"], size=int(16 * scale), bold=True,
             anchor="mm", condensed=True)
    if dim:
        img = Image.blend(img, Image.new("RGB", img.size, kit.rgb("dark_grey")), 0.55)
    return img


@lru_cache(maxsize=64)
def hero_sprite(name: str, colour: str, value: int, scale: float = 1.0, dim: bool = False,
                bg=TABLE) -> Image.Image:
    """A hero card: gold frame, the name, the hero's colour (letter and pattern) and value."""
    w, h = int(CARD_W * scale), int(CARD_H * scale)
    img, d = kit.canvas(w, h, bg)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(8 * scale), fill=HERO_FRAME, outline=kit.rgb("ink"),
                        width=2)
    d.rectangle((5, 5, w - 6, h - 6), fill=HERO_BG)
    kit.text(d, (w // 2, int(14 * scale)), "HERO", size=int(16 * scale), bold=True, anchor="mm", fill="ink")
    size = int(17 * scale)
    while kit.text_width(name, size, True, True) > w - 12:
        size -= 1
    kit.text(d, (w // 2, int(36 * scale)), name, size=size, bold=True, anchor="mm", condensed=True)
    band = (6, int(50 * scale), w - 7, int(74 * scale))
    d.rectangle(band, fill=ARMY[colour])
    _pattern(d, band, _COLOURS[colour]["pattern"], ARMY_DARK[colour])
    kit.badge(d, (w // 2, int(62 * scale)), int(11 * scale), ARMY[colour], _COLOURS[colour]["letter"],
              size=int(15 * scale), text_fill="white" if colour != "yellow" else "ink")
    kit.text(d, (w // 2, int(84 * scale)), colour_name(colour), size=int(16 * scale), bold=True, anchor="mm",
             condensed=True)
    cx, cy, r = w // 2, int(116 * scale), int(20 * scale)
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=GOLD, outline=kit.rgb("ink"), width=2)
    kit.text(d, (cx, cy), str(value), size=int(28 * scale), bold=True, anchor="mm")
    if dim:
        img = Image.blend(img, Image.new("RGB", img.size, kit.rgb("grey")), 0.35)
    return img


@lru_cache(maxsize=64)
def covered_band(colour: str, strength: int) -> Image.Image:
    """The strip of a troop card that peeks out above the hero covering it: letter, strength, 'covered'."""
    img, d = kit.canvas(CARD_W, 30, "light_grey")
    for x in range(-30, CARD_W, 8):  # hatching: this card no longer counts
        d.line((x, 30, x + 30, 0), fill=kit.rgb("grey"), width=2)
    d.rectangle((0, 0, CARD_W - 1, 29), outline=kit.rgb("ink"), width=2)
    kit.badge(d, (16, 15), 12, ARMY[colour], _COLOURS[colour]["letter"], size=15,
              text_fill="ink" if colour == "yellow" else "white")
    d.rounded_rectangle((34, 4, 56, 26), radius=4, fill=kit.rgb("white"), outline=kit.rgb("ink"))
    kit.text(d, (45, 15), str(strength), size=18, bold=True, anchor="mm")
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
        kit.text(d, (c, c), "+1", size=13, bold=True, fill="dark_grey", anchor="mm")
    else:
        kit.badge(d, (c, c), r, GOLD, "+1", text_fill="ink", size=14)
    return img


def _token(img: Image.Image, centre, r: int, state: str, bg) -> None:
    img.paste(_token_sprite(r, state, kit.rgb(bg)), (int(centre[0]) - r - 1, int(centre[1]) - r - 1))


@lru_cache(maxsize=512)
def _deck_sprite(label: str, size: int, eliminated: bool, active: bool, bg) -> Image.Image:
    """One deck position: a card back with its number and card count, crossed out when eliminated,
    framed when it is the active deck of this battle."""
    w, h = 64, 46
    img = Image.new("RGB", (w + 10, h + 10), bg)
    d = ImageDraw.Draw(img)
    x, y = 5, 5
    if eliminated:
        d.rectangle((x, y, x + w, y + h), fill=kit.rgb("light_grey"), outline=kit.rgb("danger"), width=3)
        kit.text(d, (x + w // 2, y + 14), label, size=16, bold=True, anchor="mm", fill="dark_grey")
        kit.text(d, (x + w // 2, y + 33), "OUT", size=16, bold=True, anchor="mm", fill="danger")
        return img
    if size:
        img.paste(back_sprite(w, h, bg), (x, y))
    else:
        d.rectangle((x, y, x + w, y + h), outline=kit.rgb("grey"), width=2)
    if active:
        d.rectangle((x - 4, y - 4, x + w + 4, y + h + 4), outline=HIGHLIGHT, width=4)
    kit.badge(d, (x + 14, y + 14), 11, "white", label, text_fill="ink", size=14)
    kit.text(d, (x + w - 6, y + h - 4), str(size), size=18, bold=True, fill="white" if size else "ink",
             anchor="rd")
    return img


# ------------------------------------------------------------------------------------------------ table

Y_HEADER, Y_TROJAN, Y_TABLE, Y_ACHAEAN, Y_FOOTER, H = 0, 54, 176, 614, 736, 792
PANEL_TOP = {1: Y_TROJAN + 2, 0: Y_ACHAEAN + 2}
PANEL_BG = {1: TROJAN_PANEL, 0: ACHAEAN_PANEL}
ROW_TOP = {1: 180, 0: 418}
TILE_CENTRE = (100, 404)


@lru_cache(maxsize=1)
def _base_cached() -> Image.Image:
    img, d = kit.canvas(W, H, "paper")
    d.rectangle((0, Y_HEADER, W, Y_TROJAN), fill=kit.rgb("ink"))
    d.rectangle((0, Y_TROJAN, W, Y_TABLE), fill=TROJAN_PANEL)
    d.rectangle((0, Y_TABLE, W, Y_ACHAEAN), fill=TABLE)
    d.rectangle((0, Y_ACHAEAN, W, Y_FOOTER), fill=ACHAEAN_PANEL)
    d.rectangle((0, Y_FOOTER, W, H), fill=kit.rgb("panel"))
    for y in (Y_TABLE, Y_ACHAEAN, Y_FOOTER):
        d.line((0, y, W, y), fill=kit.rgb("ink"), width=2)
    for seat in (0, 1):
        top, bg = PANEL_TOP[seat], PANEL_BG[seat]
        _text(img, (250, top + 58), "Favour", 18, bold=True, anchor="lm", bg=bg)
        _text(img, (446, top + 58), "Shame", 18, bold=True, anchor="lm", bg=bg)
    return img


def _fate_tile(img: Image.Image, d: ImageDraw.ImageDraw, fate: dict | None, decision: dict | None) -> None:
    cx, cy = TILE_CENTRE
    s = TILE // 2
    if not fate:
        d.rectangle((cx - s, cy - s, cx + s, cy + s), fill=CARD_BACK, outline=kit.rgb("ink"), width=2)
        _text(img, (cx, cy), "FATE", 18, fill="white", bg=CARD_BACK, bold=True, anchor="mm")
        _text(img, (cx, cy + s + 14), "face down", 16, fill="white", bg=TABLE, bold=True, anchor="mm")
        return
    colours, k = fate["colours"], fate["orientation"]
    # clockwise from the Achaean edge (bottom): south, west, north, east
    south, west, north, east = (colours[(k + i) % 4] for i in range(4))
    inner = 24
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
        d.ellipse((centres[edge][0] - 13, centres[edge][1] - 13, centres[edge][0] + 13, centres[edge][1] + 13),
                  fill=kit.rgb("white"), outline=kit.rgb("ink"), width=2)
        _text(img, centres[edge], _COLOURS[colour]["letter"], 16, bg="white", bold=True, anchor="mm")
    d.rectangle((cx - inner, cy - inner, cx + inner, cy + inner), fill=kit.rgb("paper"), outline=kit.rgb("ink"))
    _text(img, (cx, cy), "FATE", 12, bold=True, anchor="mm")
    d.rectangle((cx - s, cy - s, cx + s, cy + s), outline=kit.rgb("ink"), width=3)
    if fate.get("oriented", True):
        _text(img, (cx, cy - s - 14), f"Trojans: {colour_name(north)}", 16, fill="white", bg=TABLE, bold=True,
              anchor="mm")
        _text(img, (cx, cy + s + 14), f"Achaeans: {colour_name(south)}", 16, fill="white", bg=TABLE,
              bold=True, anchor="mm")
    else:
        _text(img, (cx, cy - s - 14), "Not laid yet:", 16, fill="highlight", bg=TABLE, bold=True, anchor="mm")
        _text(img, (cx, cy + s + 14), "attacker picks", 16, fill="highlight", bg=TABLE, bold=True, anchor="mm")
    if decision and decision["kind"] == "rotate_fate":
        y = cy + s + 44
        for label, key in (("Turn clockwise ↻", "after_cw"), ("Counter-clockwise ↺", "after_ccw")):
            a, t = fate[key]
            _text(img, (cx, y), label, 16, fill="highlight", bg=TABLE, bold=True, anchor="mm")
            _text(img, (cx, y + 20), f"A {colour_name(a)} · T {colour_name(t)}", 16, fill="white", bg=TABLE,
                  bold=True, anchor="mm", condensed=True)
            y += 48


def _deck_block(img: Image.Image, side: dict, top: int, trojan: bool, bg) -> None:
    """Fronts 1, 2, 3 left to right (so equal numbers face each other across the table); the home deck
    behind them (above for the Trojans at the top, below for the Achaeans)."""
    front_y = top + 64 if trojan else top + 6
    home_y = top + 6 if trojan else top + 64
    for key, x in (("1", 16), ("2", 86), ("3", 156), ("home", 86)):
        deck = side["decks"][key]
        sprite = _deck_sprite("H" if key == "home" else key, deck["size"], deck["eliminated"],
                              side["active_deck"] == key, kit.rgb(bg))
        img.paste(sprite, (x - 5, (home_y if key == "home" else front_y) - 5))


def player_name(view: dict, seat: int) -> str | None:
    """The display name the host put into the view for ``seat`` (``view["player_names"]``), or None when the
    view has none (snapshot tests, tools): the pictures then name the sides only."""
    names = view.get("player_names") or []
    if not 0 <= seat < len(names) or not isinstance(names[seat], str):
        return None
    name = " ".join(names[seat].split())
    return name or None


def _side_panel(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, seat: int) -> None:
    side = view["sides"][seat]
    top, bg = PANEL_TOP[seat], PANEL_BG[seat]
    _deck_block(img, side, top, seat == 1, bg)
    x = 250
    name = side["name"].upper()
    _text(img, (x, top + 8), name, 26, bold=True, bg=bg)
    nx = x + kit.text_width(name, 26, True) + 14
    won = f"Battles won: {side['battles_won']}"
    player = player_name(view, seat)
    if player:
        # the player's name beside the side's, shortened to leave room for the badge and "Battles won"
        room = W - 20 - kit.text_width(won, 18, True) - 16 - nx
        if view["attacker"] is not None:
            room -= 116 + 14
        player = kit.fit_text(player, room, 22)
        _text(img, (nx, top + 23), player, 22, bg=bg, anchor="lm")
        nx += kit.text_width(player, 22) + 14
    if view["attacker"] is not None:
        attacking = view["attacker"] == seat
        d.rounded_rectangle((nx, top + 8, nx + 116, top + 36), radius=6,
                            fill=kit.rgb("danger") if attacking else bg,
                            outline=None if attacking else kit.rgb("dark_grey"), width=2)
        _text(img, (nx + 58, top + 22), "ATTACKER" if attacking else "DEFENDER", 16, bold=True,
              fill="white" if attacking else "dark_grey", bg="danger" if attacking else bg, anchor="mm")
    _text(img, (W - 20, top + 10), won, 18, bold=True, anchor="ra", bg=bg)
    y = top + 58
    placed = sum(1 for c in side["played"] if c["token"])
    states = ["reserve"] * side["favour"] + ["placed"] * placed + ["lost"] * side["favour_lost"]
    for i, st in enumerate(states[:3]):
        _token(img, (x + 90 + i * 34, y), 14, st, bg)
    for i in range(3):
        bx = 530 + i * 32
        if i < side["shame"]:
            d.rectangle((bx, y - 13, bx + 26, y + 13), fill=SHAME, outline=kit.rgb("ink"), width=2)
            _text(img, (bx + 13, y), "S", 16, bold=True, fill="white", bg=SHAME, anchor="mm")
        else:
            d.rectangle((bx, y - 13, bx + 26, y + 13), outline=kit.rgb("grey"), width=2)
    hand = f"Hand: {side['hand_size']}" + (" + hero" if side["has_hero"] else "")
    _text(img, (640, y), hand, 18, bold=True, anchor="lm", bg=bg)
    _text(img, (W - 20, y), f"Hero deck: {side['hero_deck']}", 18, anchor="rm", bg=bg)
    line = f"Troops left: {side['troops_left']}   Lost: {side['removed']}"
    if side["lost_heroes"]:
        line += "   Fallen heroes: " + ", ".join(h["name"] for h in side["lost_heroes"])
    _text(img, (x, top + 94), kit.fit_text(line, W - x - 20, 18), 18, anchor="lm", bg=bg)


def _played_row(img: Image.Image, d: ImageDraw.ImageDraw, played: list[dict], hero: dict | None,
                top: int, highlight: set[str], revealed: dict | None = None) -> None:
    for i, card in enumerate(played):
        x = ROW_X + i * PITCH
        covered = hero is not None and hero["on"] == i
        y = top + 18
        img.paste(troop_sprite(card["colour"], card["strength"], 1.0, covered), (x, y))
        if covered:
            img.paste(covered_band(card["colour"], card["strength"]), (x, y + 2))
        if card.get("vanguard"):
            d.rectangle((x, top, x + CARD_W - 1, top + 15), fill=kit.rgb("ink"))
            _text(img, (x + CARD_W // 2, top + 8), "VANGUARD", 16, bold=True, fill="white", bg="ink",
                  anchor="mm", condensed=True)
        if covered:
            hy = y + 32
            img.paste(hero_sprite(hero["name"], hero["colour"], hero["value"]), (x, hy))
            if "hero" in highlight:
                d.rectangle((x - 3, hy - 3, x + CARD_W + 2, hy + CARD_H + 2), outline=HIGHLIGHT, width=4)
        elif f"slot{i}" in highlight:
            d.rectangle((x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2), outline=HIGHLIGHT, width=4)
        if card.get("token"):
            _token(img, (x + CARD_W - 14, y + 46), 15, "reserve", ARMY[card["colour"]])
    if revealed:
        x, y = ROW_X + 5 * PITCH, top + 18
        img.paste(hero_sprite(revealed["name"], revealed["colour"], revealed["value"], 1.0, True), (x, y))
        d.rectangle((x, top, x + CARD_W - 1, top + 15), fill=kit.rgb("dark_grey"))
        _text(img, (x + CARD_W // 2, top + 8), "NOT PLAYED", 16, bold=True, fill="white", bg="dark_grey",
              anchor="mm", condensed=True)


def _total_box(img: Image.Image, d: ImageDraw.ImageDraw, top: int, label: str, value, strong: bool) -> None:
    x0, x1 = 868, 988
    d.rounded_rectangle((x0, top + 38, x1, top + 138), radius=10, fill=kit.rgb("paper"),
                        outline=HIGHLIGHT if strong else kit.rgb("ink"), width=4 if strong else 2)
    _text(img, ((x0 + x1) // 2, top + 58), label, 16, bold=True, anchor="mm")
    _text(img, ((x0 + x1) // 2, top + 100), str(value), 40, bold=True, anchor="mm")


DECISIONS = {
    "take_vanguard": "take a vanguard from a deck",
    "choose_active": "vanguard is a 4: choose the battle deck",
    "orient_fate": "lay the fate tile",
    "optional_or_play": "optional action or play a troop",
    "play": "play a troop",
    "rotate_fate": "turn the fate tile",
    "save_hero": "save the hero with a favour token?",
}

REASONS = {
    "front_decks_lost": "all front decks lost",
    "home_deck_exhausted": "home deck exhausted",
    "no_troops": "no troops left",
    "draw": "both armies broken",
}


def _header(img: Image.Image, view: dict) -> None:
    left = f"Battle {view['battle']}"
    if view["round"]:
        left += f" · Round {view['round']}/4"
    _text(img, (16, 27), left, 22, bold=True, fill="white", bg="ink", anchor="lm")
    room = W - 52 - kit.text_width(left, 22, True)
    result = view.get("result")
    if result:
        msg = "Game over: a draw" if result["winner"] is None else f"Game over: {SIDE_NAMES[result['winner']]} win"
        msg += f" ({REASONS.get(result['reason'], result['reason'])})"
        _text(img, (W - 16, 27), kit.fit_text(msg, room, 20, True), 20, bold=True, fill="highlight", bg="ink",
              anchor="rm")
        return
    dec = view.get("decision")
    if dec:
        msg = f"▶ {SIDE_NAMES[dec['seat']]}: {DECISIONS.get(dec['kind'], dec['kind'])}"
        _text(img, (W - 16, 27), kit.fit_text(msg, room, 20, True), 20, bold=True, fill="highlight", bg="ink",
              anchor="rm")


def _card_words(card: dict | None) -> str:
    if not card:
        return "no card"
    return f"{colour_name(card['colour'])} {_KINDS[card['strength']]['en'].lower()} {card['strength']}"


def describe(event: dict) -> str | None:
    """A short English line for the picture's status strip (the host narrates events itself)."""
    t = event["type"]
    who = SIDE_NAMES[event["seat"]] if event.get("seat") is not None else ""
    if t == "card_played":
        return f"{who} played {_card_words(event['card'])}"
    if t == "hero_played":
        h = event["hero"]
        return f"{who} played {h['name']} ({colour_name(h['colour'])} {h['value']})"
    if t == "reinforced":
        return f"{who} put a favour token on a {_card_words(event['on'])}"
    if t == "card_swapped":
        return f"{who} swapped a card"
    if t == "hero_swapped":
        return f"{who} swapped their hero"
    if t == "fate_rotated":
        a, b = event["facing"]
        return f"{who} turned the tile: Achaeans {colour_name(a)}, Trojans {colour_name(b)}"
    if t == "fate_phase":
        a, b = event["totals"]
        if event["rotator"] is None:
            return f"Equal strength {a} : {b}, the tile stays"
        return f"{SIDE_NAMES[event['rotator']]} stronger ({max(a, b)} : {min(a, b)})"
    if t == "vanguard_taken":
        return f"{who} vanguard: {_card_words(event['card'])} from deck {event['deck']}"
    if t == "vanguard_revealed":
        return f"{who} vanguard: {_card_words(event['card'])}"
    if t == "fate_oriented":
        a, b = event["facing"]
        return f"Fate tile laid: Achaeans {colour_name(a)}, Trojans {colour_name(b)}"
    if t == "passed":
        return f"{who} had no troop to play"
    if t == "battle_started":
        return f"Battle {event['battle']} begins: the {SIDE_NAMES[event['attacker']]} attack"
    if t == "active_decks":
        a, b = ("home" if d == "home" else f"deck {d}" for d in event["decks"])
        return f"Both armies fight from {a}" if a == b else f"Achaeans fight from {a}, Trojans from {b}"
    if t == "hero_in_danger":
        return f"{who} may spend a favour token to save {event['hero']['name']}"
    return None


def _status(img: Image.Image, d: ImageDraw.ImageDraw, view: dict, showing_last: bool) -> None:
    y = 396
    lb = view.get("last_battle")
    if showing_last and lb:
        if lb["kind"] == "retreat":
            msg = f"Battle {lb['battle']}: {SIDE_NAMES[lb['retreated']]} retreated, {SIDE_NAMES[lb['winner']]} win"
        elif lb["kind"] == "tie":
            msg = f"Battle {lb['battle']}: a tie, {lb['scores'][0]} : {lb['scores'][1]}"
        else:
            msg = f"Battle {lb['battle']}: {SIDE_NAMES[lb['winner']]} win, {lb['scores'][0]} : {lb['scores'][1]}"
        w = kit.text_width(msg, 22, True) + 30
        d.rounded_rectangle((ROW_X, y - 20, ROW_X + w, y + 20), radius=8, fill=kit.rgb("paper"),
                            outline=HIGHLIGHT, width=3)
        _text(img, (ROW_X + 15, y), msg, 22, bold=True, anchor="lm")
        return
    lines = [s for s in (describe(e) for e in view.get("last", [])) if s]
    if lines:
        msg = " · ".join(lines[-2:])
        if kit.text_width(msg, 18, True) > 860 - ROW_X:
            msg = lines[-1]
        _text(img, (ROW_X, y), kit.fit_text(msg, 860 - ROW_X, 18, True), 18, bold=True, fill="white", bg=TABLE,
              anchor="lm")


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
    """The battle table everyone sees."""
    img = _base_cached().copy()
    d = ImageDraw.Draw(img)
    _header(img, view)
    _side_panel(img, d, view, 1)
    _side_panel(img, d, view, 0)
    lb = view.get("last_battle")
    # between battles (and at the end) the table shows how the last battle ended
    showing_last = lb is not None and view["phase"] in ("vanguard", "over")
    if showing_last:
        for seat in (0, 1):
            hero, on_table, revealed = lb["heroes"][seat], None, None
            if hero and hero["played"]:
                on_table = {**hero, "on": next(i for i, c in enumerate(lb["played"][seat]) if c["covered"])}
            elif hero:
                revealed = hero
            top = ROW_TOP[seat]
            _played_row(img, d, lb["played"][seat], on_table, top, set(), revealed)
            if lb["scores"] is not None:
                _total_box(img, d, top, "Score", lb["scores"][seat], lb["winner"] == seat)
                cols = " + ".join(_COLOURS[c]["letter"] for c in lb["scoring_colours"][seat])
                _text(img, (928, top + 156), f"scoring {cols}", 16, bold=True, fill="white", bg=TABLE,
                      anchor="mm")
            else:
                retreated = lb["retreated"] == seat
                _total_box(img, d, top, "Retreated" if retreated else "Won", "-" if retreated else "✓",
                           not retreated)
        _fate_tile(img, d, {**lb["fate"], "oriented": True}, None)
    else:
        hl = _highlights(view)
        for seat in (0, 1):
            side = view["sides"][seat]
            _played_row(img, d, side["played"], side["hero"], ROW_TOP[seat], hl[seat])
            if side["played"]:
                other = view["sides"][1 - seat]["total"]
                _total_box(img, d, ROW_TOP[seat], "Strength", side["total"], side["total"] > other)
        _fate_tile(img, d, view.get("fate"), view.get("decision"))
    _status(img, d, view, showing_last)
    foot = f"Fate tiles: {view['fate_stack']} in the stack, {view['fate_used']} set aside   Shame pool: {view['shame_pool']}"
    _text(img, (16, 764), foot, 18, anchor="lm", bg="panel")
    if view.get("called_deck") and not showing_last:
        deck = "home" if view["called_deck"] == "home" else view["called_deck"]
        _text(img, (W - 16, 764), f"Battle deck: {deck}", 18, bold=True, anchor="rm", bg="panel")
    return _encode(img)


def render_private(view: dict) -> bytes | None:
    """A seat's hand (up to four troops and the hero) and the colours that score for it now."""
    if view.get("seat") not in (0, 1) or "hand" not in view:
        return None
    seat = view["seat"]
    scale = 1.5
    cw, ch = int(CARD_W * scale), int(CARD_H * scale)
    cards = [("troop", c) for c in view["hand"]]
    if view.get("hand_hero"):
        cards.append(("hero", view["hand_hero"]))
    img, d = kit.canvas(W, ch + 160 if cards else 150, "paper")
    d.rectangle((0, 0, W, 54), fill=kit.rgb("ink"))
    title = f"Your hand · {SIDE_NAMES[seat]}"
    dec = view.get("decision")
    turn = "▶ your turn: " + DECISIONS.get(dec["kind"], "") if dec and dec["seat"] == seat else ""
    if turn:
        _text(img, (W - 16, 27), turn, 20, bold=True, fill="highlight", bg="ink", anchor="rm")
    player = player_name(view, seat)
    if player:
        room = W - 16 - (kit.text_width(turn, 20, True) + 24 if turn else 0) - 16
        room -= kit.text_width(title + " · ", 24, True)
        if room >= kit.text_width("M…", 24, True):
            title += " · " + kit.fit_text(player, room, 24, True)
    _text(img, (16, 27), title, 24, bold=True, fill="white", bg="ink", anchor="lm")
    scoring = view.get("scoring_colours") or []
    y = 78
    if scoring:
        label = "Scoring for you now:"
        _text(img, (16, y), label, 20, bold=True, anchor="lm")
        x = 16 + kit.text_width(label, 20, True) + 16
        hero = view.get("hand_hero") or view["sides"][seat]["hero"]
        fate_colour = view["fate"]["facing"][seat]
        for c in scoring:
            why = (["fate"] if c == fate_colour else []) + ([hero["name"]] if hero and hero["colour"] == c else [])
            _badge(img, (x + 14, y), 14, ARMY[c], _COLOURS[c]["letter"], text_fill="ink" if c == "yellow" else "white")
            text = f"{colour_name(c)} ({', '.join(why)})"
            _text(img, (x + 34, y), text, 20, bold=True, anchor="lm")
            x += 34 + kit.text_width(text, 20, True) + 24
    else:
        _text(img, (16, y), "Scoring colours: the fate tile is not laid yet", 20, bold=True, anchor="lm")
    x, top = 24, 106
    for kind, c in cards:
        if kind == "troop":
            img.paste(troop_sprite(c["colour"], c["strength"], scale), (x, top))
        else:
            img.paste(hero_sprite(c["name"], c["colour"], c["value"], scale, bg=kit.rgb("paper")), (x, top))
        if c["colour"] in scoring:
            d.rectangle((x, top + ch + 8, x + cw, top + ch + 38), fill=kit.rgb("ok"))
            _text(img, (x + cw // 2, top + ch + 23), "★ scores now", 18, bold=True, fill="white", bg="ok",
                  anchor="mm")
        x += cw + 40
    if not cards:
        _text(img, (16, 120), "No cards in hand: both hands are drawn once the fate tile is laid.", 20, anchor="lm")
    return _encode(img)
