"""Troja pictures: the table (every hero with stats, Glory track, wrath, attachments and the Trojans waiting
in front of him; the challenge being played and the current fight with both fate cards and totals) and a
player's hand with the cards playable now marked.

Every word drawn is in the game's language (``view["lang"]``): ``say = kit.words("troja", view)`` reads
``data/locales/troja/picture/<lang>.json``; card, hero and patron names come in that language from the catalogue.

Reads views only. Card names and stats come from the static card catalogue (public data). Colour is never
the only cue: seats carry letters, card kinds a letter tag, playable cards a tick and a label.
"""

from __future__ import annotations

import json
import threading
from functools import lru_cache

from PIL import Image

from engines.troja import HEROES, PATRONS, TYPES, card_type, face
from render import kit

GAME = "troja"

kit.register_colours({
    "troja_bronze": (176, 124, 60),
    "troja_wine": (128, 32, 48),
    "troja_sea": (36, 84, 122),
    "troja_olive": (96, 110, 50),
    "troja_night": (34, 30, 44),
    "troja_sand": (236, 224, 196),
    "troja_playable": (24, 150, 80),
})
PALETTE = kit.make_palette(["troja_bronze", "troja_wine", "troja_sea", "troja_olive", "troja_night", "troja_sand",
                            "troja_playable", *kit.PLAYER_COLOURS])

#: The pictures are drawn 480 px wide and taller rather than wide: Discord shows a picture about 420 px wide
#: until it is tapped, so every text a player needs is at least MIN_TEXT px here (12 px and more at 420 px).
W = 480
MIN_TEXT = 14
HEADER_H = 44
PAD = 18  # inner left/right margin of a panel

KIND_COLOUR = {
    "unit": "troja_wine",
    "trojan": "reddish_purple",
    "beast": "troja_night",
    "intervention": "troja_sea",
    "item": "troja_bronze",
    "ally": "troja_olive",
    "event": "orange",
    "modifier": "dark_grey",
}


def _lang(view: dict) -> str:
    return view.get("lang") or "en"


#: the card kinds, each with its letter tag (``tag_<kind>``) and its name (``kind_<kind>``) in data/strings
KINDS = frozenset(("unit", "trojan", "beast", "intervention", "item", "ally", "event", "modifier"))


def _kind_tag(say, kind: str) -> str:
    """The letter tag of a card kind (colour is never the only cue)."""
    if kind not in KINDS:
        raise KeyError(kind)
    return say(f"tag_{kind}")


def _kind_label(say, kind: str) -> str:
    """The name of a card kind (only the kind asked for is looked up: a panel names a dozen cards)."""
    if kind not in KINDS:
        raise KeyError(kind)
    return say(f"kind_{kind}")


def _stat_short(say, kind: str) -> str:
    """The stat a fight is fought on, short ("STR"/"TAC" in English)."""
    return say("fight_str") if kind == "strength" else say("fight_tac")


def _fit(s: str, max_width: int, size: int, bold: bool = False, smallest: int | None = None) -> tuple[str, int]:
    """``s`` at ``size`` when it fits, else at a smaller size down to ``smallest``, else shortened there with
    an ellipsis: translated words are often longer, English keeps its size."""
    for sz in range(size, (smallest or size) - 1, -1):
        if kit.text_width(s, sz, bold) <= max_width:
            return s, sz
    sz = smallest or size
    return kit.fit_text(s, max_width, sz, bold), sz


def _text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bold: bool = False, anchor: str = "la") -> None:
    if not s:
        return
    kit.paste_text(img, xy, s, size, fill, bold, anchor, pal=PALETTE)


def _name(key: str, lang: str) -> str:
    for table in (TYPES, HEROES, PATRONS):
        if key in table:
            return table[key]["names"].get(lang) or table[key]["names"]["en"]
    return key


def player_name(view: dict, seat: int) -> str:
    """The display name of a seat's player (the host adds ``view["player_names"]``), emoji and every script
    kept (the kit draws them); empty when the view has no names (e.g. snapshot tests)."""
    names = view.get("player_names") or []
    if not 0 <= seat < len(names) or not names[seat]:
        return ""
    return " ".join(str(names[seat]).split())


def _who(view: dict, seat: int) -> str:
    """"Ann (A)", or just the seat letter when the name is unknown."""
    name = player_name(view, seat)
    letter = kit.PLAYER_LETTERS[seat]
    return f"{name} ({letter})" if name else letter


def _clip_words(s: str, max_width: int, size: int, bold: bool = False) -> str:
    """``s`` shortened by whole words with an ellipsis (never cut mid-word) so that it fits."""
    if kit.text_width(s, size, bold) <= max_width:
        return s
    words = s.split()
    while len(words) > 1:
        words.pop()
        trial = " ".join(words) + "…"
        if kit.text_width(trial, size, bold) <= max_width:
            return trial
    return words[0] if words else ""


def _wrap(s: str, width: int, size: int, bold: bool = False) -> list[str]:
    """Word wrap; a single word wider than ``width`` keeps its line whole (never cut mid-word)."""
    words, lines, line = s.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if kit.text_width(trial, size, bold) <= width:
            line = trial
        else:
            if line:
                lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


def _seat_badge(draw, xy, seat: int, radius: int = 15) -> None:
    kit.badge(draw, xy, radius, kit.PLAYER_COLOURS[seat], kit.PLAYER_LETTERS[seat], size=18)


def _card_stats(cid: str, say, grow: int = 0) -> str:
    card = card_type(cid)
    parts = []
    if card.get("strength"):
        parts.append(say("chip_str", value=card["strength"] + grow))
    if card.get("tactics"):
        parts.append(say("chip_tac", value=card["tactics"] + (grow if not card.get("strength") else 0)))
    if "glory" in card:
        parts.append(say("chip_glory", value=card["glory"]))
    if card["kind"] == "beast":
        parts.append(say("chip_power", value=card["power"]))
    return " · ".join(parts)


def _chip_words(cid: str, say, lang: str, grow: int = 0) -> list:
    """What a chip shows: [kind, tag, name, stats tail]; part of the panel cache key."""
    card = card_type(cid)
    stats = _card_stats(cid, say, grow) if card["kind"] in ("unit", "trojan", "beast") else _attach_bonus(cid, say)
    # the kind in words (a letter code would need a legend), the whole name, the stats in words
    return [card["kind"], _kind_label(say, card["kind"]), _name(card["key"], lang), f" · {stats}" if stats else ""]


CHIP_SIZE = 15
CHIP_H = 24


def _chip_width(words: list) -> int:
    _, tag, label, tail = words
    return kit.text_width(tag, 14, True) + 10 + kit.text_width(label + tail, CHIP_SIZE) + 14


def _chip(img, draw, x: int, y: int, words: list, room: int | None = None) -> tuple[int, int]:
    """A small card chip: kind in words, the whole name, stats. Returns its width and height: a chip wider
    than ``room`` puts its stats on a second line (a chip is never cut)."""
    kind, tag, label, tail = words
    colour = KIND_COLOUR[kind]
    w_tag = kit.text_width(tag, 14, True) + 10
    width, height = _chip_width(words), CHIP_H
    lines = [label + tail]
    if room is not None and width > room and tail:
        lines = [label, tail.lstrip(" ·")]
        width = w_tag + max(kit.text_width(t, CHIP_SIZE) for t in lines) + 14
        height = 2 * CHIP_H - 4
    draw.rounded_rectangle((x, y, x + width, y + height), 5, fill=kit.rgb("white"), outline=kit.rgb(colour),
                           width=2)
    draw.rectangle((x + 2, y + 2, x + w_tag, y + height - 2), fill=kit.rgb(colour))
    _text(img, (x + 5 + (w_tag - 10) // 2, y + height // 2), tag, 14, "white", True, "mm")
    for i, line in enumerate(lines):
        _text(img, (x + w_tag + 6, y + CHIP_H // 2 + i * (CHIP_H - 4)), line, CHIP_SIZE, "ink", anchor="lm")
    return width, height


def _chip_rows(img, draw, x0: int, y: int, label: tuple | None, chips: list[list], right: int) -> int:
    """A label and chips that wrap onto further rows (a chip is never cut); returns the y below them."""
    x = x0
    if label:
        text_, colour = label
        _text(img, (x, y + CHIP_H // 2), text_, 15, colour, True, "lm")
        x += kit.text_width(text_, 15, True) + 6
    row_h = CHIP_H
    for chip in chips:
        width = _chip_width(chip)
        if x + width > right and x > x0 + 40:
            x = x0 + 12
            y += row_h + 4
            row_h = CHIP_H
        w, h = _chip(img, draw, x, y, chip, right - x)
        x += w + 6
        row_h = max(row_h, h)
    return y + row_h + 4


def _attach_bonus(cid: str, say) -> str:
    out = []
    for eff in card_type(cid).get("ability", []):
        if eff["op"] == "stat":
            letter = {"strength": say("letter_str"), "tactics": say("letter_tac"),
                      "power": say("letter_power")}[eff["stat"]]
            if eff.get("vs") == ["beast"]:
                out.append(say("bonus_vs_beasts", amount=eff["amount"], stat=letter))
            else:
                out.append(say("bonus", amount=eff["amount"], stat=letter))
        elif eff["op"] == "loss_reduction":  # version-1 Bronze Armour
            out.append(say("bonus_loss", amount=eff["amount"]))
        elif eff["op"] == "tie_wins":
            out.append(say("bonus_ties"))
    return " ".join(out)


@lru_cache(maxsize=8)
def _die(face_value: int, size: int = 40) -> Image.Image:
    img, d = kit.canvas(size, size, "white")
    d.rounded_rectangle((1, 1, size - 2, size - 2), 7, outline=kit.rgb("ink"), width=2, fill=kit.rgb("white"))
    pips = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
            5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}
    step = (size - 16) / 2
    r = max(3, size // 11)
    for cx, cy in pips.get(face_value, []):
        px, py = 8 + cx * step, 8 + cy * step
        d.ellipse((px - r, py - r, px + r, py + r), fill=kit.rgb("ink"))
    return img


def _glory_track(img, draw, x: int, y: int, gp: int, width: int) -> int:
    """24 cells; the start (12) and the goal (24) are marked; the number is printed too. Returns the x after."""
    cell = width / 24
    for i in range(24):
        x0 = int(x + i * cell)
        x1 = int(x + (i + 1) * cell) - 2
        filled = i < gp
        colour = "gold" if filled else "panel"
        draw.rectangle((x0, y, x1, y + 18), fill=kit.rgb(colour), outline=kit.rgb("panel_dark"))
        if i in (11, 23):
            draw.line((x1 + 1, y - 4, x1 + 1, y + 22), fill=kit.rgb("ink"), width=2)
    label = f"{gp}/24"
    _text(img, (x + width + 8, y + 9), label, 18, "ink", True, "lm")
    return x + width + 8 + kit.text_width(label, 18, True)


def _header(img, draw, view: dict, say) -> None:
    draw.rectangle((0, 0, W, HEADER_H), fill=kit.rgb("troja_night"))
    phase = {"camp": say("phase_camp"), "battle": say("phase_battle"), "end": say("phase_end"),
             "draw": say("phase_draw"), "setup": say("phase_setup")}.get(view["phase"], view["phase"])
    title = (say("title", round=view["round"], max_rounds=view["max_rounds"], phase=phase) if view["max_rounds"]
             else say("title_open", round=view["round"], phase=phase))
    info = say("piles", deck=view["deck_size"], discard=view["discard_size"])
    title, size = _fit(title, W - 36 - kit.text_width(info, 15), 19, True, 15)
    _text(img, (12, HEADER_H // 2), title, size, "white", True, "lm")
    _text(img, (W - 12, HEADER_H // 2), info, 15, "troja_sand", anchor="rm")


_PANELS: dict[str, Image.Image] = {}


def clear_caches() -> None:
    """Forget the cached hero panels and their rows (tests measure every text drawn)."""
    _PANELS.clear()
    _ROWS.clear()
    _ROWS_PIXELS[0] = 0


def _panel_words(view: dict, seat: int, say) -> dict:
    """Every word of a hero's panel, in the view's language (the panel cache key includes them)."""
    p = view["players"][seat]
    lang = _lang(view)
    hero = HEROES[p["hero"]]
    over = bool(view.get("result")) or kit.ending(view) is not None
    tags = []
    if view["turn"] == seat and not over:
        tags.append([say("tag_turn"), "ink"])
    gone = (kit.ending(view) or {}).get("left", {}).get(str(seat))
    if gone:  # left before the end (resigned, out of time, dropped): the host's words
        tags.append([gone, "danger"])
    if seat in view["to_act"]:
        tags.append([say("tag_to_act"), "troja_wine"])
    if view.get("phase") == "end" and p.get("done"):
        tags.append([say("tag_done"), "ink"])
    stats = []
    for label, value, base in ((say("stat_str", value=p["strength"]), p["strength"], hero["strength"]),
                               (say("stat_tac", value=p["tactics"]), p["tactics"], hero["tactics"]),
                               (say("stat_pow", value=p["power"]), p["power"], hero["power"])):
        stats.append(label + ("*" if value != base else ""))
    return {
        "name": _name(p["hero"], lang),
        "player": player_name(view, seat),
        "patron": say("patron", name=_name(p["patron"], lang)),
        "tags": tags,
        "stats": stats,
        "loss": say("stat_loss", value=hero["glory"]),
        "wrath": say("wrath"),
        "wrath_mark": say("wrath_mark"),
        "hand": say("hand_size", count=p["hand_size"]),
        "ability": hero["text"].get(lang) or hero["text"]["en"],
        "no_attached": say("no_attachments"),
        "attached": [_chip_words(cid, say, lang) for cid in p["attached"]],
        "roamers": [[arrived, label, [_chip_words(r["card"], say, lang, r.get("grow", 0))
                                      for r in p["roamers"] if r["arrived"] == arrived]]
                    for arrived, label in ((True, say("roamers_attack")), (False, say("roamers_move")))],
    }


def _player_panel(view: dict, seat: int, say) -> Image.Image:
    """One hero's panel (its height follows its content); panels are cached by their content (words
    included), so an action redraws only what changed."""
    p = view["players"][seat]
    words = _panel_words(view, seat, say)
    over = bool(view.get("result")) or kit.ending(view) is not None
    key = json.dumps([p, words, view["turn"] == seat, view.get("camp_seat") == seat, seat in view["to_act"],
                      view["phase"], over], sort_keys=True)
    panel = _PANELS.get(key)
    if panel is None:
        if len(_PANELS) > 256:
            _PANELS.clear()
        panel = _panel_once(view, seat, words)
        _PANELS[key] = panel
    return panel


#: a panel's content is drawn once, on a sand canvas of this height kept per thread (render workers may be
#: threads), then framed
_SAND_H = 900
_sand = threading.local()


def _inside(height: int) -> tuple[tuple[int, int, int, int], ...]:
    """Inside the frame of a panel ``height`` px tall: clear of the border (4 px at most) and of the corners'
    arcs (radius 10), pure sand in the frame, where the content goes."""
    return (16, 6, W - 16, height - 7), (10, 12, W - 10, height - 13)


def _panel_once(view: dict, seat: int, words: dict) -> Image.Image:
    """One hero's panel as a palette picture (of ``PALETTE``), its content drawn once: row by row, each row
    that is not kept drawn on a clean sand canvas (the frame's fill) and kept quantised (:func:`_row`), which
    gives the height; then the frame is drawn at that height in the palette and the rows pasted inside it - all
    but the frame's border and rounded corners, where no content goes. The very pixels of drawing the panel
    twice (first to measure) and quantising it: a panel whose Glory changed quantises that row only."""
    scratch = getattr(_sand, "canvas", None)
    if scratch is None:
        scratch = _sand.canvas = kit.canvas(W, _SAND_H, "troja_sand")
    img, draw = scratch
    bands: list[tuple[int, Image.Image]] = []
    height = _draw_panel(img, draw, view, seat, words, bands=bands)
    draw.rectangle((0, 0, W, min(height, _SAND_H) + 1), fill=kit.rgb("troja_sand"))  # clean for the next panel
    if height >= _SAND_H - 16:  # (never in a real game) taller than the canvas: measured, then drawn again
        panel, pdraw = kit.canvas(W, height, "table")
        _draw_panel(panel, pdraw, view, seat, words, height)
        return panel.quantize(palette=PALETTE, dither=Image.Dither.NONE)
    panel, pdraw = kit.palette_canvas(W, height, "table", PALETTE)
    _panel_frame(pdraw, view, seat, height)
    for top, band in bands:
        for x0, y0, x1, y1 in _inside(height):
            a, b = max(y0, top), min(y1, top + band.height)
            if a < b:
                panel.paste(band.crop((x0, a - top, x1, b - top)), (x0, a))
    return panel


def _panel_frame(draw, view: dict, seat: int, height: int) -> None:
    """The frame of a panel ``height`` px tall: highlighted for the hero whose turn it is."""
    over = bool(view.get("result")) or kit.ending(view) is not None  # a finished game has no turn player
    active = not over and (view["turn"] == seat or view.get("camp_seat") == seat)
    border = "highlight" if active else "panel_dark"
    draw.rounded_rectangle((6, 2, W - 6, height - 3), 10, fill=kit.rgb("troja_sand"), outline=kit.rgb(border),
                           width=4 if active else 2)


def _draw_panel(img, draw, view: dict, seat: int, words: dict, height: int | None = None,
                bands: list[tuple[int, Image.Image]] | None = None) -> int:
    """Rows: name, player and tags; stats, loss and patron; Glory track, wrath and hand; the ability;
    attachments; waiting Trojans. Returns the panel's height (the frame is drawn once it is known).

    Given ``bands``, each row is not drawn on ``img`` (the sand canvas) but added to ``bands`` as ``(its top, its
    band of pixels quantised)``, drawn on the canvas only when it is not kept (:func:`_row`): an action changes a
    row or two of a panel (the Glory, a hand's size, a tag), and the others are as they were."""
    p = view["players"][seat]
    if height is not None:
        _panel_frame(draw, view, seat, height)
    y = _row(img, 8, bands, ("who", seat, words["name"], words["player"], tuple(map(tuple, words["tags"]))),
             lambda y: _row_who(img, draw, y, seat, words))
    y = _row(img, y, bands, ("stats", tuple(words["stats"]), words["loss"], words["patron"]),
             lambda y: _row_stats(img, y, words))
    y = _row(img, y, bands, ("glory", p["gp"], p["wrath"], words["wrath"], words["wrath_mark"], words["hand"]),
             lambda y: _row_glory(img, draw, y, p, words), reach=4)
    y = _row(img, y, bands, ("ability", words["ability"]), lambda y: _row_ability(img, y, words))
    y = _row(img, y, bands, ("cards", repr(words["attached"]), words["no_attached"], repr(words["roamers"])),
             lambda y: _row_cards(img, draw, y, words))
    return y + 8


#: rows of hero panels kept by :func:`_row` (content -> its band of pixels, quantised), and the pixels they hold:
#: a band is 480 px wide and 25-80 px tall, so at most about 3 million pixels (3 MB) are kept per drawing process
_ROWS: dict[tuple, Image.Image] = {}
_ROWS_PIXELS = [0]
_ROWS_MAX_PIXELS = 3_000_000


def _row(img, y: int, bands: list[tuple[int, Image.Image]] | None, key: tuple, paint, reach: int = 0) -> int:
    """One row of a panel at ``y``: ``paint(y)`` draws it on ``img`` and returns the y below it. Given ``bands``,
    the row is added to them as its band of pixels quantised to ``PALETTE`` (from ``y - reach`` to the y below
    it, the panel's whole width: ``reach`` px above the row for marks that stand out over the row above, there
    on bare sand), kept by ``key`` (everything the row shows): the next row with the same ``key`` is not drawn
    at all (text drawn at whole pixels: the same pixels wherever the row lands). Returns the y below the row."""
    if bands is None:
        return paint(y)
    band = _ROWS.get(key)
    if band is None:
        end = paint(y)
        band = img.crop((0, y - reach, W, end)).quantize(palette=PALETTE, dither=Image.Dither.NONE)
        if end <= img.height:  # (a row beyond the canvas is cut: its panel is drawn again, and the row not kept)
            if _ROWS_PIXELS[0] >= _ROWS_MAX_PIXELS:
                _ROWS.clear()
                _ROWS_PIXELS[0] = 0
            _ROWS[key] = band
            _ROWS_PIXELS[0] += band.width * band.height
    bands.append((y - reach, band))
    return y - reach + band.height


def _row_who(img, draw, y: int, seat: int, words: dict) -> int:
    """Row 1: badge, hero, player (shortened by whole words), tags on the right."""
    right = W - PAD
    _seat_badge(draw, (PAD + 12, y + 20), seat)
    name = words["name"]
    _text(img, (PAD + 32, y + 20), name, 22, "ink", True, "lm")
    nx = PAD + 32 + kit.text_width(name, 22, True) + 10
    tags = words["tags"]
    tx = right
    for tag, fill in reversed(tags):
        tw = kit.text_width(tag, 15, True) + 14
        draw.rounded_rectangle((tx - tw, y + 8, tx, y + 32), 6, fill=kit.rgb(fill))
        _text(img, (tx - tw // 2, y + 20), tag, 15, "white", True, "mm")
        tx -= tw + 6
    if words["player"]:
        if kit.text_width(words["player"], 17, True) <= tx - nx - 8:
            _text(img, (nx, y + 21), words["player"], 17, "troja_sea", True, "lm")
        else:  # a long name: on a line of its own, under the hero's (never under the tags)
            y += 30
            player = _clip_words(words["player"], right - PAD - 32, 17, True)
            _text(img, (PAD + 32, y + 21), player, 17, "troja_sea", True, "lm")
    return y + 42


def _row_stats(img, y: int, words: dict) -> int:
    """Row 2: stats, loss, patron (a smaller size when a language's words are longer)."""
    right = W - PAD
    parts = words["stats"] + [words["loss"]]
    size = 17
    while size > 14 and sum(kit.text_width(s, size, True) + 12 for s in parts) \
            + kit.text_width(words["patron"], max(14, size - 2)) > right - PAD:
        size -= 1
    x = PAD
    for i, s in enumerate(parts):
        _text(img, (x, y + 11), s, size, "troja_wine" if i == len(parts) - 1 else "ink", True, "lm")
        x += kit.text_width(s, size, True) + 12
    patron = words["patron"]
    if x + kit.text_width(patron, max(14, size - 2)) > right:  # no room: a line of its own
        y += 24
        x = PAD
    _text(img, (x, y + 11), patron, max(14, size - 2), "dark_grey", anchor="lm")
    return y + 28


def _row_glory(img, draw, y: int, p: dict, words: dict) -> int:
    """Row 3: Glory track, wrath tokens, hand size (the marks of the track's middle and goal stand 4 px out
    above the row)."""
    right = W - PAD
    x = _glory_track(img, draw, PAD, y + 2, p["gp"], 170) + 12
    _text(img, (x, y + 11), words["wrath"], 15, "dark_grey", anchor="lm")
    x += kit.text_width(words["wrath"], 15) + 16
    for i in range(2):
        if i < p["wrath"]:
            kit.badge(draw, (x + i * 26, y + 11), 11, "vermillion", words["wrath_mark"], size=14)
        else:
            draw.ellipse((x + i * 26 - 11, y, x + i * 26 + 11, y + 22), outline=kit.rgb("grey"), width=2)
    x += 52
    _text(img, (max(x, right - kit.text_width(words["hand"], 15)), y + 11), words["hand"], 15, "ink", anchor="lm")
    return y + 28


def _row_ability(img, y: int, words: dict) -> int:
    """Row 4: the hero's ability, wrapped."""
    for line in _wrap(words["ability"], W - 2 * PAD, 15):
        _text(img, (PAD, y + 9), line, 15, "dark_grey", anchor="lm")
        y += 19
    return y + 4


def _row_cards(img, draw, y: int, words: dict) -> int:
    """Rows 5 and 6: attachments; Trojan heroes and beasts in front of the hero ("Attacks" at his next turn
    start; "Moves on": placed this round, they move clockwise at the end of the round)."""
    right = W - PAD
    if words["attached"]:
        y = _chip_rows(img, draw, PAD, y, None, words["attached"], right)
    else:
        _text(img, (PAD, y + CHIP_H // 2), words["no_attached"], 15, "grey", anchor="lm")
        y += CHIP_H + 4
    for arrived, label, group in words["roamers"]:
        if group:
            y = _chip_rows(img, draw, PAD, y, (label, "troja_wine" if arrived else "dark_grey"), group, right)
    return y


def _fate_box(img, draw, x: int, y: int, cards: list[dict], extra: list[dict], say) -> int:
    """Fate cards as dice (a version-1 Cerberus' two: the lower one struck out; extra fate cards after a +)."""
    if not cards:
        _text(img, (x, y + 20), say("fate_unknown"), 17, "dark_grey", anchor="lm")
        return x + kit.text_width(say("fate_unknown"), 17) + 6
    best = max(c["face"] for c in cards)
    for c in cards:
        img.paste(_die(c["face"]), (x, y))
        if len(cards) > 1 and c["face"] != best:
            draw.line((x, y, x + 40, y + 40), fill=kit.rgb("danger"), width=3)
        x += 46
    for c in extra:
        _text(img, (x + 2, y + 20), "+", 22, "ink", True, "lm")
        img.paste(_die(c["face"]), (x + 18, y))
        x += 64
    return x


def _lines(img, x: int, y: int, s: str, width: int, size: int, fill: str, bold: bool = False,
           step: int | None = None) -> int:
    """``s`` wrapped at word boundaries from (x, y); returns the y below it."""
    step = step or size + 5
    for line in _wrap(s, width, size, bold):
        _text(img, (x, y + step // 2), line, size, fill, bold, "lm")
        y += step
    return y


def _fight_panel(img, draw, view: dict, say, height: int | None = None) -> int:
    """The challenge being played: title, its fights (totals before fate), modifiers, then the current fight
    side by side in rows (names wrap, never cut) with fate dice and totals. Returns the panel's height."""
    lang = _lang(view)
    a = view["assault"]
    fight = view["fight"]
    if height is not None:
        _frame(draw, "_fight_panel", height)
    right = W - PAD
    y = _lines(img, PAD, 8, _fight_title(view, say), right - PAD, 18, "troja_wine", True)
    step = {"build": say("step_build"), "join": say("step_join"), "fate": say("step_fate")}.get(view["step"], "")
    if step:
        y = _lines(img, PAD, y, step, right - PAD, 15, "dark_grey")
    y = _fight_rows(img, a, say, lang, y + 4)
    if a["mods"]:
        ms = say("modifiers", names=", ".join(_name(card_type(m["card"])["key"], lang) for m in a["mods"]))
        y = _lines(img, PAD, y, ms, right - PAD, 15, "dark_grey")
    if fight is None:
        return y + 10
    # the current fight: one row per side, the name above its value + fate dice + modifiers = total
    y += 6
    draw.line((PAD, y, right, y), fill=kit.rgb("panel_dark"), width=1)
    return _current_fight(img, draw, view, say, y + 6) + 10


def _fight_title(view: dict, say) -> str:
    """The title of the challenge being played: a duel, a roaming attack, or a challenge (maybe on oneself)."""
    lang, a, players = _lang(view), view["assault"], view["players"]
    target = a["target"]
    tname = _name(players[target]["hero"], lang)
    if a["origin"] == "duel":
        return say("title_duel", attacker=_name(players[a["by"]]["hero"], lang), target=tname)
    if a["origin"] == "roam":
        return say("title_attack", target=tname)
    own = say("on_himself") if a["by"] == target else ""
    return say("title_challenge", target=tname, own=own, who=_who(view, a["by"]))


def _fight_rows(img, a: dict, say, lang: str, y: int) -> int:
    """The fights of this challenge with their totals before fate; the card names on the lines below."""
    right = W - PAD
    for i, f in enumerate(a["fights"]):
        current = a["index"] == i
        label = say("fight_duel") if f["duel"] or f["kind"] != "tactics" else say("fight_battle")
        s = say("fight_row", n=i + 1, label=label, stat=_stat_short(say, f["kind"]),
                attacker=f["attacker"], defender=f["defender"])
        if f["glory"]:
            s += say("fight_row_glory", glory=f["glory"])
        if f["done"]:
            s += say("fight_row_done")
        colour = "ink" if current or a["index"] is None else "dark_grey"
        y = _lines(img, PAD, y, ("▶ " if current else "") + s, right - PAD, 16, colour, True)
        names = " + ".join(_name(k, lang) for k in f["keys"])
        if names:
            y = _lines(img, PAD + 22, y, names, right - PAD - 22, 15, colour)
        y += 2
    return y


def _current_fight(img, draw, view: dict, say, y: int) -> int:
    """The current fight: one row per side (its value, fate dice, modifiers, total), then who leads."""
    lang, fight, players = _lang(view), view["fight"], view["players"]
    right = W - PAD
    kind = _stat_short(say, fight["kind"])
    if fight["duel"]:
        left = _name(players[fight["attacker"]]["hero"], lang)
    else:
        left = " + ".join(_name(card_type(e["card"])["key"], lang) for e in fight["cards"])
    right_name = _name(players[fight["defender"]]["hero"], lang)
    base = fight.get("base", {})
    totals = fight.get("totals")
    for side, name in (("attacker", left), ("defender", right_name)):
        y = _lines(img, PAD, y, say("side", name=name, stat=kind), right - PAD, 17, "ink", True)
        fx = PAD
        if base:
            _text(img, (fx, y + 22), f"{base[side]} +", 22, "ink", True, "lm")
            fx += kit.text_width(f"{base[side]} +", 22, True) + 8
        fx = _fate_box(img, draw, fx, y + 2, fight["fate"][side], fight["extra"][side], say)
        mod = fight["mod"][side]
        if mod:
            _text(img, (fx + 6, y + 22), f"{mod:+d}", 22, "troja_sea", True, "lm")
            fx += kit.text_width(f"{mod:+d}", 22, True) + 10
        if totals:
            win = totals[side] > totals["defender" if side == "attacker" else "attacker"]
            _text(img, (fx + 10, y + 22), f"= {totals[side]}", 26, "ok" if win else "ink", True, "lm")
        y += 50
    if totals:
        note = _fight_note(fight, totals, say, left, right_name)
        y = _lines(img, PAD, y, note, right - PAD, 17, "troja_wine", True)
    return y


def _fight_note(fight: dict, totals: dict, say, left: str, right_name: str) -> str:
    """What the totals of the current fight mean: cancelled, a tie, or who leads and what it costs."""
    if fight["cancelled"]:
        return say("fight_cancelled")
    if totals["attacker"] == totals["defender"]:
        return {None: say("tie_nothing"), "attacker": say("tie_attacker"),
                "defender": say("tie_defender")}[fight.get("tie_to")]
    who = "attacker" if totals["attacker"] > totals["defender"] else "defender"
    if who == "defender":
        note = say("lead_defender", hero=right_name, glory=fight.get("glory", 0))
        if fight["duel"]:
            note += say("lead_defender_duel", other=left, loss=fight["loss"]["attacker"])
        return note
    if fight["duel"]:
        return say("lead_attacker_duel", hero=left, glory=fight.get("glory", 0), other=right_name,
                   loss=fight["loss"]["defender"])
    return say("lead_trojans", hero=right_name, loss=fight["loss"]["defender"])


def _ending_panel(img, draw, view: dict, say, height: int | None = None) -> int:
    """How a game ended outside its rules (resigned, out of time, decided, called off): the host's headline."""
    if height is not None:
        _frame(draw, "_ending_panel", height)
    return _lines(img, PAD, 10, (kit.ending(view) or {})["headline"], W - 2 * PAD, 20, "ink", True) + 12


def _result_panel(img, draw, view: dict, say, height: int | None = None) -> int:
    r = view["result"]
    if height is not None:
        _frame(draw, "_result_panel", height)
    if r["winner"] is not None:
        s = say("result_winner", who=_who(view, r["winner"]), hero=_name(view["players"][r["winner"]]["hero"],
                                                                          _lang(view)))
    else:
        s = say("result_shared")
    # the winner's real total: a win can overshoot 24 (22 + a 5-Glory challenge = 27)
    gp = r["scores"][r["winner"]] if r["winner"] is not None else max(r["scores"])
    reason = {"glory": say("reason_glory", gp=gp),
              "round_limit": say("reason_round_limit")}.get(r["reason"], r["reason"])
    return _lines(img, PAD, 10, say("result_line", text=s, reason=reason), W - 2 * PAD, 20, "ink", True) + 12


def _last_words(view: dict, say) -> str | None:
    """The last fight's result in one sentence (a cancelled fight has no totals)."""
    results = [e for e in view.get("last", []) if e["type"] == "fight_result"]
    if not results:
        return None
    e = results[-1]
    lang = _lang(view)
    hero = _name(view["players"][e["target"]]["hero"], lang)
    if e.get("cancelled"):
        return say("last_cancelled", hero=hero)
    att, dfd = e["attacker_total"], e["defender_total"]
    if e["winner"] is None:
        return say("last_tie", hero=hero, defender_total=dfd, attacker_total=att)
    if e["winner"] == "defender":
        return say("last_won", hero=hero, defender_total=dfd, attacker_total=att)
    if e.get("duel"):
        other = _name(view["players"][e["attacker"]]["hero"], lang)
        return say("last_beat", other=other, hero=hero, attacker_total=att, defender_total=dfd)
    return say("last_beaten", hero=hero, attacker_total=att, defender_total=dfd)


def _last_line(img, draw, view: dict, say, height: int | None = None) -> int:
    s = _last_words(view, say)
    if not s:
        return 0
    return _lines(img, PAD, 2, s, W - 2 * PAD, 16, "white") + 4


def _scratch(height: int, background: str):
    """A canvas a section is drawn on, kept per thread (render workers may be threads; what is drawn on it is
    read back) and cleaned after each section (:func:`_section`)."""
    kept = getattr(_sand, "sections", None)
    if kept is None:
        kept = _sand.sections = {}
    if (height, background) not in kept:
        kept[(height, background)] = kit.canvas(W, height, background)
    return kept[(height, background)]


#: the frame of each framed section (drawn at the section's height): its fill, border colour and width
_FRAMES = {"_fight_panel": ("white", "troja_wine", 3), "_result_panel": ("gold", "ink", 2),
           "_ending_panel": ("gold", "ink", 2)}
_SCRATCH_H = 1400


def _frame(draw, section: str, height: int) -> None:
    fill, outline, width = _FRAMES[section]
    draw.rounded_rectangle((6, 0, W - 6, height - 4), 10, fill=kit.rgb(fill), outline=kit.rgb(outline), width=width)


def _section(fn, view: dict, say, background: str = "table") -> Image.Image:
    """A section drawn once, on a kept canvas of the colour its content lies on (inside its frame: the frame's
    fill), which gives its height; a framed section's frame is then drawn at that height and the content copied
    inside it (all but the border and the rounded corners, where no content goes) - the very pixels of drawing
    it twice, first to measure (issue 29). A section taller than the canvas (never in a game) is drawn twice."""
    framed = fn.__name__ in _FRAMES
    fill = _FRAMES[fn.__name__][0] if framed else background
    scratch, sdraw = _scratch(_SCRATCH_H, fill)
    try:
        height = fn(scratch, sdraw, view, say)
    except BaseException:  # (a section that fails leaves nothing on the canvas for the next one)
        sdraw.rectangle((0, 0, W, _SCRATCH_H), fill=kit.rgb(fill))
        raise
    if height >= _SCRATCH_H - 16 or framed and height < 30:  # (never in a game) drawn again at its height
        sdraw.rectangle((0, 0, W, _SCRATCH_H), fill=kit.rgb(fill))
        img, draw = kit.canvas(W, max(1, height), background)
        fn(img, draw, view, say, height)
        return img
    if framed:
        img, draw = kit.canvas(W, height, background)
        _frame(draw, fn.__name__, height)
        # inside the border (3 px at most) and clear of the corners' arcs (radius 10): the frame's fill
        for box in ((16, 4, W - 16, height - 8), (10, 10, W - 10, height - 14)):
            img.paste(scratch.crop(box), box[:2])
    else:
        img = scratch.crop((0, 0, W, max(1, height)))
    sdraw.rectangle((0, 0, W, height + 1), fill=kit.rgb(fill))  # clean for the next section
    return img


#: the board's height per player count: what the busiest positions of random games need (tests/render/
#: test_phone.py checks that it stays the same through a game)
BOARD_H = {2: 1160, 3: 1360, 4: 1550}


def render_public(view: dict, lang: str | None = None) -> bytes:
    """The table everyone sees, in ``view["lang"]`` (``lang`` overrides it): 600 px wide, ``BOARD_H`` tall."""
    if lang:
        view = {**view, "lang": lang}
    view = kit.at_rest(view, camp_seat=None, assault=None)  # a fight left unfinished asks nothing any more
    say = kit.words("troja", view)
    parts = [_player_panel(view, seat, say) for seat in range(len(view["players"]))]
    kept = len(parts)  # the hero panels: palette pictures, kept until their content changes
    if kit.ending(view) is not None:  # ended outside its rules: how, instead of whose turn
        parts.append(_section(_ending_panel, view, say))
    elif view.get("result"):
        parts.append(_section(_result_panel, view, say))
    if view.get("assault"):
        parts.append(_section(_fight_panel, view, say))
    if _last_words(view, say):
        parts.append(_section(_last_line, view, say))
    height = kit.steady_height(HEADER_H + 6 + sum(p.height + 4 for p in parts) + 6, BOARD_H,
                               len(view["players"]))
    # drawn in the palette (kit.PaletteDraw): the hero panels kept quantised with them, the other sections
    # quantised alone, no picture-wide quantising (issue 29; the same pixels)
    img, draw = kit.palette_canvas(W, height, "table", PALETTE)
    _header(img, draw, view, say)
    y = HEADER_H + 6
    for i, part in enumerate(parts):
        img.paste(part if i < kept else part.quantize(palette=PALETTE, dither=Image.Dither.NONE), (0, y))
        y += part.height + 4
    return kit.encode_with_clock(img, view, PALETTE)


# -------------------------------------------------------------------------------------------------- hand

PER_ROW = 2  # two cards a row: the hand is as wide as the board (480 px), so its texts read on a phone
CARD_W, CARD_H = (W - 10 * (PER_ROW + 1)) // PER_ROW, 236


def _card_words(cid_key: str, say, lang: str) -> tuple:
    """What a hand card shows, in the view's language: (kind, tag, kind label, name, facts, rules text)."""
    card = TYPES[cid_key]
    facts = []
    if card.get("strength"):
        facts.append(say("card_str", value=card["strength"]))
    if card.get("tactics"):
        facts.append(say("card_tac", value=card["tactics"]))
    if "glory" in card:
        facts.append(say("card_glory", value=card["glory"]))
    if card["kind"] in ("beast", "intervention"):
        facts.append(say("card_power", value=card["power"]))
    if "cost" in card:
        facts.append(say("card_cost", value=card["cost"]))
    if card["kind"] == "modifier":
        facts.append(say("card_mod_hero", amount=card["amount"]) if card["side"] == "defender"
                     else say("card_mod_trojans", amount=card["amount"]))
    text = card.get("text", {}).get(lang) or card.get("text", {}).get("en", "")
    return (card["kind"], _kind_tag(say, card["kind"]), _kind_label(say, card["kind"]), _name(cid_key, lang),
            tuple(facts), text)


def _fact_lines(facts: tuple, size: int) -> list[str]:
    """The facts wrap between items (never inside one)."""
    lines: list[str] = []
    for fact in facts:
        trial = f"{lines[-1]}  {fact}" if lines else fact
        if lines and kit.text_width(trial, size, True) <= CARD_W - 16:
            lines[-1] = trial
        else:
            lines.append(fact)
    return lines


@lru_cache(maxsize=256)
def _card_image(words: tuple, card_face: int, dim: bool = False) -> Image.Image:
    """One hand card; cached by its words (``_card_words``), die face and whether it is dimmed (not playable
    while others are)."""
    card = _card_drawn(words, card_face)
    return Image.blend(card, Image.new("RGB", card.size, kit.rgb("grey")), 0.35) if dim else card


@lru_cache(maxsize=256)
def _card_drawn(words: tuple, card_face: int) -> Image.Image:
    """One hand card as drawn (:func:`_card_image`)."""
    kind, tag, label, name, facts, text = words
    colour = KIND_COLOUR[kind]
    img, d = kit.canvas(CARD_W, CARD_H, "white")
    d.rectangle((0, 0, CARD_W - 1, 34), fill=kit.rgb(colour))
    # the kind in words (no letter code)
    label, size = _fit(label, CARD_W - 16, 17, True, 14)
    _text(img, (8, 17), label, size, "white", True, "lm")
    y = 40
    # the name wraps at word boundaries (a smaller size for a long one), never cut
    name_size = 18
    lines = _wrap(name, CARD_W - 16, name_size, True)
    while (len(lines) > 2 or any(kit.text_width(ln, name_size, True) > CARD_W - 16 for ln in lines)) \
            and name_size > 15:
        name_size -= 1
        lines = _wrap(name, CARD_W - 16, name_size, True)
    for line in lines:
        _text(img, (8, y), line, name_size, "ink", True)
        y += name_size + 4
    y += 2
    # the facts wrap between items (never inside one): a beast's POWER must not be cut off, so longer words
    # take a slightly smaller size, or else a third line (the rules text then gets one line less)
    size = 16
    fact_lines = _fact_lines(facts, size)
    while len(fact_lines) > 2 and size > 14:
        size -= 1
        fact_lines = _fact_lines(facts, size)
    if len(fact_lines) > 2:
        size = 16
        fact_lines = _fact_lines(facts, size)
    for line in fact_lines[:3] or [""]:
        _text(img, (8, y), kit.fit_text(line, CARD_W - 16, size, True), size, "troja_wine", True)
        y += 20
    y += 4
    # the rules text: a smaller size (never below 14) when it would run into the die
    text_size = 15
    lines = _wrap(text, CARD_W - 16, text_size)
    while y + len(lines) * (text_size + 4) > CARD_H - 40 and text_size > 14:
        text_size -= 1
        lines = _wrap(text, CARD_W - 16, text_size)
    for i, line in enumerate(lines):
        # the last lines run beside the die, which sits in the bottom right corner
        room = CARD_W - 16 if y + text_size + 4 < CARD_H - 40 else CARD_W - 50
        if kit.text_width(line, text_size) > room and i + 1 < len(lines):
            lines[i + 1] = line.rsplit(" ", 1)[-1] + " " + lines[i + 1]
            line = line.rsplit(" ", 1)[0]
        _text(img, (8, y), line, text_size, "dark_grey")
        y += text_size + 4
    img.paste(_die(card_face, 30), (CARD_W - 38, CARD_H - 38))
    return img


def render_private(view: dict, lang: str | None = None) -> bytes | None:
    """The viewer's hand; cards playable right now carry a green frame, a tick and the word PLAYABLE (in
    ``view["lang"]``; ``lang`` overrides it)."""
    if view.get("seat") is None or "hand" not in view:
        return None
    seat = view["seat"]
    me = view["players"][seat]
    return _hand_png(seat, tuple(view["hand"]), frozenset(view.get("playable", [])), me["hand_limit"], me["hero"],
                     me["power"], me["wrath"], lang or _lang(view))


@lru_cache(maxsize=64)
def _hand_png(seat: int, hand: tuple[str, ...], playable: frozenset[str], limit: int, hero: str, power: int,
              wrath: int, lang: str) -> bytes:
    """The hand picture of :func:`render_private` from everything it shows, kept: a seat's hand comes back the same
    move after move (another seat's turn, a pass), and is then not drawn again (issue 29)."""
    say = kit.words("troja", {"lang": lang})
    per_row = PER_ROW
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    title = say("hand_title", count=len(hand), limit=limit, hero=_name(hero, lang), power=power, wrath=wrath)
    title_lines = _wrap(title, W - 62, 18, True)
    top = 16 + 24 * len(title_lines)
    height = top + rows * (CARD_H + 44)
    img, draw = kit.palette_canvas(W, height, "table", PALETTE)
    _seat_badge(draw, (26, 22), seat)
    for i, line in enumerate(title_lines):
        _text(img, (48, 22 + 24 * i), line, 18, "white", True, "lm")
    if not hand:
        _text(img, (W // 2, top + CARD_H // 2), say("hand_empty"), 22, "white", True, "mm")
    mark, mark_size = _fit(say("playable"), CARD_W, 17, True, 14)
    for i, cid in enumerate(hand):
        col, row = i % per_row, i // per_row
        x = 10 + col * (CARD_W + 10)
        y = top + row * (CARD_H + 44)
        ok = cid in playable
        card = _card_image(_card_words(card_type(cid)["key"], say, lang), face(cid), not ok and bool(playable))
        img.paste(kit.paletted(card, PALETTE), (x, y))
        outline = "troja_playable" if ok else "panel_dark"
        draw.rectangle((x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2), outline=kit.rgb(outline), width=5 if ok else 2)
        if ok:
            draw.rectangle((x - 3, y + CARD_H + 4, x + CARD_W + 2, y + CARD_H + 32), fill=kit.rgb("troja_playable"))
            _text(img, (x + CARD_W // 2, y + CARD_H + 18), mark, mark_size, "white", True, "mm")
    return kit.encode(img, PALETTE)
