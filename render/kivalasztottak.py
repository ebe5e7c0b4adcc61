"""Kiválasztottak pictures from engine views: the table (both sides, the time thread, the maneuver) and the
private hand.

Each side shows its tower levels (face-down ones hatched, with their place: 1 is besieged first), the Row
(and the team of a running maneuver) with states, levels and damage, awaiting quests with attachments,
buildings, allies with SZP, the Store, solved quests, MP, DP and the zone counts. States are written out
and patterned (resting: one hatch, injured: cross-hatch), so colour is never the only cue.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render import kit

GAME = "kivalasztottak"

# Discord shows a picture about 420 px wide until it is tapped: the pictures are 560 px wide and no text is
# smaller than 13 px, so every text is at least 9.75 px at that width (tests/render/phone.py checks it)
W = 480
PAD = 6
SMALL, BODY, HEAD = 14, 14, 16
CARDS_PER_ROW = 3  # at 480 px: an adventurer's name and gear in type that reads on a phone
CARD_W = (W - 2 * PAD - 12 - (CARDS_PER_ROW - 1) * 6) // CARDS_PER_ROW
TYPE_COLOURS = {  # the rulebook's card-type colours, toned for legibility
    "tower": (196, 160, 110), "adventurer": (86, 150, 90), "action": (200, 170, 130), "quest": (120, 180, 220),
    "building": (225, 200, 80), "ally": (160, 160, 160), "obstacle": (70, 130, 70), "event": (110, 70, 140),
    "omen": (40, 40, 40),
}
kit.register_colours({f"kv_{k}": v for k, v in TYPE_COLOURS.items()}
                     | {"kv_side": (236, 229, 210), "kv_rest": (214, 206, 186), "kv_inj": (236, 196, 186),
                        "kv_thread": (250, 246, 236), "kv_hidden": (120, 100, 80)})
PALETTE = kit.make_palette([*TYPE_COLOURS.values(), (236, 229, 210), (214, 206, 186), (236, 196, 186),
                            (250, 246, 236), (120, 100, 80), *kit.PLAYER_COLOURS])

# the rulebook's ability marks (an icon font in the printed cards) as words, for the Hungarian card texts
HU_MARKS = {"Š": "ÁLLANDÓ", "ź": "ELFORGATÁS", "ś": "FORDULÓNKÉNT EGYSZERI", "Ž": "HARCI", "Ś": "MEGSZAKÍTÓ",
            "▲": "JÁTÉKOSONKÉNT EGYSZERI", "Ë": "SZP", "Ť": "SZOLGA NYELV"}
HU_SUBCASTE = {"fejvadasz": "fejvadász"}


def _opt(say, key: str, default: str) -> str:
    """A picture word chosen by a value of the view (a stage, a step...): the raw value when not listed."""
    try:
        return say(key)
    except KeyError:
        return default


@lru_cache(maxsize=1)
def _hu_by_en() -> dict[str, str]:
    """English card name -> Hungarian name, for names the view gives in English only (events, the Past)."""
    data = json.loads((kit.DATA / "kivalasztottak" / "cards.json").read_text(encoding="utf-8"))
    return {c["name_en"]: c["name_hu"] for c in data["cards"]}


def _nm(c: dict, hu: bool) -> str:
    """A card's name in the picture's language (the cards have English and Hungarian names only)."""
    if not hu:
        return c["name"]
    if c.get("name_hu"):
        return c["name_hu"]
    base, sep, number = c["name"].rpartition(" #")  # an event names a card with its "#n" label
    if sep and number.isdigit() and base in _hu_by_en():
        return f"{_hu_by_en()[base]} #{number}"
    return _hu_by_en().get(c["name"], c["name"])


def _lbl(c: dict, hu: bool) -> str:
    """A card's label (its name, "#n" when a zone shows the name twice) in the picture's language."""
    label = c.get("label", c["name"])
    if not hu:
        return label
    return _nm(c, hu) + (label[len(c["name"]):] if label.startswith(c["name"]) else "")


def _marks(text: str) -> str:
    """Hungarian card text with the ability marks written out: "[1 MP, ź, Ž]" -> "[1 MP, ELFORGATÁS, HARCI]"."""
    def one(m: re.Match) -> str:
        inner = m.group(1)
        for g in HU_MARKS:
            inner = inner.replace(g, f",{g},")
        parts = [HU_MARKS.get(x.strip(), x.strip()) for x in inner.split(",") if x.strip()]
        return "[" + ", ".join(parts) + "]"
    return re.sub(r"\[([^\]]*)\]", one, text)


def _text(c: dict, hu: bool) -> str:
    return _marks(c.get("text_hu") or "") if hu else c["text"]


# ------------------------------------------------------------------ small drawing helpers
def _hatch(draw: ImageDraw.ImageDraw, box, colour, step=10, cross=False) -> None:
    x0, y0, x1, y1 = box
    c = kit.rgb(colour)
    for k in range(-(y1 - y0), x1 - x0, step):
        a = (x0 + max(k, 0), y0 + max(-k, 0))
        b = (x0 + min(k + (y1 - y0), x1 - x0), y0 + min(x1 - x0 - k, y1 - y0))
        draw.line([a, b], fill=c, width=1)
        if cross:
            draw.line([(a[0], y1 - (a[1] - y0)), (b[0], y1 - (b[1] - y0))], fill=c, width=1)


@lru_cache(maxsize=8192)
def _width(s: str, size: int, bold: bool) -> int:
    return kit.text_width(s, size, bold, condensed=True)


def _wrap(s: str, width: int, size: int, bold=False, lines=2) -> list[str]:
    words = s.split()
    out: list[str] = []
    cur = ""
    for w in words:
        cand = (cur + " " + w).strip()
        if _width(cand, size, bold) <= width:
            cur = cand
        else:
            if cur:
                out.append(cur)
            cur = w
        if len(out) == lines:
            break
    if cur and len(out) < lines:
        out.append(cur)
    if len(out) == lines and " ".join(out) != s.strip():
        out[-1] = _fit(out[-1], width, size, bold)
        if not out[-1].endswith("…") and " ".join(out) != s.strip():
            out[-1] = _fit(out[-1] + " …", width, size, bold)
    return out


def _fit(s: str, width: int, size: int, bold=False) -> str:
    if _width(s, size, bold) <= width:
        return s
    while s and _width(s + "…", size, bold) > width:
        s = s[:-1]
    return s + "…"


def _words(s: str, width: int, size: int, bold=False, lines=2) -> list[str]:
    """A name on at most ``lines`` lines, broken only between words; a word that fits on no line is the only
    thing ever shortened (with "…"), so a name is never cut inside a word while a whole word would fit."""
    out = _wrap(s, width, size, bold, lines)
    if " ".join(out).replace(" …", "").rstrip("…") != s and out and out[-1].endswith("…"):
        kept = " ".join(out)[:-1].rstrip()
        words = s.split()
        whole: list[str] = []
        for w in words:  # keep the whole words that fitted, and mark the rest as left out
            if len(" ".join(whole + [w])) <= len(kept):
                whole.append(w)
        out = _wrap(" ".join(whole), width, size, bold, lines)
        out[-1] = out[-1] + " …" if _width(out[-1] + " …", size, bold) <= width else _fit(out[-1], width, size, bold)
    return [ln if _width(ln, size, bold) <= width else _fit(ln, width, size, bold) for ln in out]


def _t(draw, xy, s, size=BODY, fill="ink", bold=False, anchor="la"):
    if not s:
        return
    im, colour, dx, dy = kit.text_mask(s, size, bold, True, anchor)
    at = (int(xy[0] + dx), int(xy[1] + dy))
    kit.bitmap(draw, at, im, kit.rgb(fill), ("kv", s, size, bold, anchor))
    if colour is not None:  # emoji in a name
        if isinstance(draw, kit.PaletteDraw):
            kit.blended(draw, (*at, at[0] + colour.width, at[1] + colour.height),
                        lambda d, ox, oy: d._image.paste(colour, (at[0] + ox, at[1] + oy), colour))
        else:
            draw._image.paste(colour, at, colour)


def _names(view: dict, say, hu: bool) -> dict[str, str]:
    """Card id -> name for every visible card (to name thread targets)."""
    out: dict[str, str] = {}
    stack: list = [view.get("players", []), view.get("hand", [])]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "id" in x and "name" in x:
                out[x["id"]] = _nm(x, hu)
            stack.extend(v for v in x.values() if isinstance(v, (dict, list)))
        elif isinstance(x, list):
            stack.extend(x)
    for s in range(2):
        for i in range(3):
            out[f"tower-{s}-{i}"] = say("tower_n", n=i + 1)
        out[f"hidden-{s}"] = say("face_down_card")
    return out


# ------------------------------------------------------------------ pieces
NAME_LH = 17  # line height of a two-line card name


def _adventurer_h(a: dict) -> int:
    return 40 + 22 + 18 + 22 + 2 * 16 * min(2, len(a.get("worn", []))) + 22


def _adventurer_drawn(draw, x, y, h, a: dict, say, hu: bool, rank: str | None = None, highlight=False) -> None:
    st = a.get("state", "alert")
    bg = {"alert": "white", "resting": "kv_rest", "injured": "kv_inj"}[st]
    draw.rectangle((x, y, x + CARD_W, y + h), fill=kit.rgb(bg),
                   outline=kit.rgb("highlight" if highlight else "ink"), width=3 if highlight else 1)
    if st == "resting":
        _hatch(draw, (x + 1, y + 40, x + CARD_W - 1, y + h - 1), "panel_dark", 12)
    elif st == "injured":
        _hatch(draw, (x + 1, y + 40, x + CARD_W - 1, y + h - 1), "danger", 14, cross=True)
    draw.rectangle((x, y, x + CARD_W, y + 38), fill=kit.rgb("kv_adventurer"), outline=kit.rgb("ink"))
    name = ("★ " if a.get("named") else "") + _lbl(a, hu)
    lines = _words(name, CARD_W - 8, BODY, True, 2)
    for i, ln in enumerate(lines):
        _t(draw, (x + 4, y + 3 + (NAME_LH // 2 if len(lines) == 1 else 0) + i * NAME_LH), ln, BODY, "white", True)
    yy = y + 41
    level = say("level", level=a["level"], base=a["base_level"])
    _t(draw, (x + 5, yy), _fit(level, CARD_W - (40 if a.get("dmg") else 10), 18, True), 18, "ink", True)
    if a.get("dmg"):
        kit.badge(draw, (x + CARD_W - 17, yy + 10), 14, "danger", f"-{a['dmg']}", size=SMALL)
    yy += 22
    _t(draw, (x + 5, yy), say("attrs", phys=a["phys"], astral=a["astral"], mental=a["mental"]), BODY, "ink", True)
    yy += 18
    label = _fit(_opt(say, f"state_{st}", st.upper()), CARD_W - 16, SMALL, True)
    draw.rectangle((x + 4, yy, x + 4 + _width(label, SMALL, True) + 8, yy + 18), fill=kit.rgb("white"),
                   outline=kit.rgb("ink"))
    _t(draw, (x + 8, yy + 1), label, SMALL, "ink", True)
    yy += 22
    for w in a.get("worn", [])[:2]:
        for line in _words("⚔ " + _nm(w, hu), CARD_W - 10, SMALL, False, 2):
            # a white strip under the gear's name: it stays legible on a hatched (resting, injured) card
            draw.rectangle((x + 3, yy, x + 7 + _width(line, SMALL, False), yy + 15), fill=kit.rgb("white"))
            _t(draw, (x + 5, yy), line, SMALL, "ink")
            yy += 16
    if rank:
        draw.rectangle((x, y + h - 18, x + CARD_W, y + h), fill=kit.rgb("ink"))
        _t(draw, (x + CARD_W // 2, y + h - 9), _fit(rank, CARD_W - 6, SMALL, True), SMALL, "white", True, "mm")
    elif a.get("token"):
        _t(draw, (x + CARD_W - 6, y + h - 3), say("token"), SMALL, "dark_grey", False, "rd")


TOWER_H = 74


def _tower_drawn(draw, x, y, w, h, t: dict, place: int, own: bool, say, hu: bool) -> None:
    hidden = t.get("hidden") or not t.get("face_up", True)
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("kv_tower"), outline=kit.rgb("ink"))
    if hidden:
        _hatch(draw, (x + 1, y + 1, x + w - 1, y + h - 1), "kv_hidden", 8)
    _t(draw, (x + 4, y + 2), f"{place}", HEAD, "ink", True)
    if t.get("hidden"):
        _t(draw, (x + w // 2, y + h // 2), _fit(say("tower_face_down"), w - 8, BODY, True), BODY, "ink", True, "mm")
        return
    _t(draw, (x + 20, y + 3), _words(_nm(t, hu), w - 24, BODY, True, 1)[0], BODY, "ink", True)
    _t(draw, (x + 5, y + 21), _fit(say("tower_wall", wall=t["wall"]), w - 10, BODY, True), BODY, "ink", True)
    obst = [c for c in t.get("attached", [])]
    _t(draw, (x + 5, y + 38), _fit(say("tower_obstacles", n=len(obst), max=t["obstacles"]), w - 10, SMALL),
       SMALL)
    if hidden and own:
        _t(draw, (x + 5, y + 55), _fit(say("tower_hidden_own"), w - 10, SMALL, True), SMALL, "ink", True)


# ------------------------------------------------------------------ cards as kept sprites
# A card (tower, quest, adventurer, a hand's card) is drawn inside its own rectangle only, from its own dict:
# drawn once on a sprite of its size and pasted, it gives the very pixels drawing it on the table gives, and
# the same cards come back in every picture of a game (issue 29: only what changed is drawn).

_CARD_SPRITES = 1024


@lru_cache(maxsize=_CARD_SPRITES)
def _card_sprite(kind: str, card: str, w: int, h: int, lang: str, extra: tuple) -> Image.Image:
    say = kit.words(GAME, {"lang": lang})
    img, draw = kit.canvas(w + 1, h + 1, "kv_side")
    _DRAWN[kind](draw, 0, 0, w, h, json.loads(card), say, lang == "hu", *extra)
    # kept quantised (a byte a pixel): the pictures it goes on are drawn in the palette
    return img.quantize(palette=PALETTE, dither=Image.Dither.NONE)


def _pasted(kind: str, draw, x: int, y: int, w: int, h: int, card: dict, say, *extra) -> None:
    key = json.dumps(card, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    draw._image.paste(_card_sprite(kind, key, w, h, say.lang, extra), (x, y))  # (a palette picture's draw)


def _tower(draw, x, y, w, h, t: dict, place: int, own: bool, say, hu: bool) -> None:
    _pasted("tower", draw, x, y, w, h, t, say, place, own)


def _quest(draw, x, y, w, h, q: dict, say, hu: bool) -> None:
    _pasted("quest", draw, x, y, w, h, q, say)


def _adventurer(draw, x, y, h, a: dict, say, hu: bool, rank: str | None = None, highlight=False) -> None:
    _pasted("adventurer", draw, x, y, CARD_W, h, a, say, rank, bool(highlight))


def _hand_card(draw, x, y, w, h, c: dict, playable: bool, say, hu: bool) -> None:
    _pasted("hand", draw, x, y, w, h, c, say, bool(playable))


_DRAWN: dict[str, Callable[..., None]] = {
    "tower": lambda draw, x, y, w, h, t, say, hu, place, own: _tower_drawn(draw, x, y, w, h, t, place, own, say, hu),
    "quest": lambda draw, x, y, w, h, q, say, hu: _quest_drawn(draw, x, y, w, h, q, say, hu),
    "adventurer": lambda draw, x, y, w, h, a, say, hu, rank, highlight: _adventurer_drawn(draw, x, y, h, a, say, hu,
                                                                                        rank, highlight),
    "hand": lambda draw, x, y, w, h, c, say, hu, playable: _hand_card_drawn(draw, x, y, w, h, c, playable, say, hu),
}


def _attach_text(items: list[dict], hu: bool) -> str:
    """Attached cards in a few characters: ▲×N obstacles (face down or not), +name for a reward."""
    obstacles = sum(1 for c in items if c.get("hidden") or c.get("type") == "obstacle")
    parts = [f"▲ {obstacles}"] if obstacles else []
    parts += ["+" + _nm(c, hu) for c in items if not c.get("hidden") and c.get("type") != "obstacle"]
    return " ".join(parts)


def _quest_lines(q: dict, w: int, hu: bool) -> list[str]:
    conditions = q.get("conditions", []) if hu else (q.get("conditions_en") or q.get("conditions", []))
    out = []
    for i, cond in enumerate(conditions[:3]):
        out += _wrap(f"{i + 1}. {cond}", w - 8, SMALL, lines=2)
    return out


def _quest_title(q: dict, w: int, say, hu: bool) -> list[str]:
    return _words(say("quest_title", name=_lbl(q, hu)), w - 8, BODY, True, 2)


def _quest_h(q: dict, w: int, hu: bool, say=None) -> int:
    title = len(_quest_title(q, w, say, hu)) if say else 2
    return 2 + 18 * title + 16 * len(_quest_lines(q, w, hu)) + 20 + (
        16 if _attach_text(q.get("attached", []), hu) else 0)


def _quest_drawn(draw, x, y, w, h, q: dict, say, hu: bool) -> None:
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"), outline=kit.rgb("ink"))
    title = _quest_title(q, w, say, hu)
    top = 2 + 18 * len(title)
    draw.rectangle((x, y, x + w, y + top - 1), fill=kit.rgb("kv_quest"))
    for i, line in enumerate(title):
        _t(draw, (x + 4, y + 1 + 18 * i), line, BODY, "ink", True)
    for i, line in enumerate(_quest_lines(q, w, hu)):
        _t(draw, (x + 4, y + top + 16 * i), line, SMALL)
    tag = say("quest_tag", dp=q["dp"], mp=q.get("mp", 0))
    _t(draw, (x + w - 4, y + h - 18), tag, BODY, "ink", True, "ra")
    att = _attach_text(q.get("attached", []), hu)
    if att:  # its own line: a reward's name is never cut for the price beside it
        _t(draw, (x + 4, y + h - 34), _fit(att, w - 8, SMALL), SMALL, "dark_grey")


def _chip(draw, x, y, label: str, colour: str, max_w: int) -> int:
    label = _words(label, max_w - 12, SMALL, False, 1)[0]
    w = _width(label, SMALL, False) + 12
    draw.rectangle((x, y, x + w, y + 20), fill=kit.rgb(colour), outline=kit.rgb("ink"))
    dark = colour in ("kv_event", "kv_omen", "kv_obstacle", "kv_adventurer")
    _t(draw, (x + 6, y + 2), label, SMALL, "white" if dark else "ink")
    return w


def _head_lines(view: dict, seat: int, viewer, say, hu: bool) -> tuple[str, str, str, str | None]:
    """A side's heading, its figures and the "to act" mark, with where the mark goes: after the heading or the
    figures when it fits there, else on a line of its own (never at the cost of the name or a figure)."""
    p = view["players"][seat]
    own = viewer == seat
    names = view.get("player_names") or []
    who = say("you") if own else say("seat", n=seat + 1)
    if seat < len(names):  # the host adds the players' display names
        who = say("name_you", name=names[seat]) if own else names[seat]
    deck = (p.get("deck_name_hu") or p["deck_name"]) if hu else p["deck_name"]
    room = W - 2 * PAD - 48
    head = _words(say("side_head", deck=deck, who=who), room, HEAD, True, 1)[0]
    stats = say("stats", mp=p["mp"], dp=p["dp"], hand=p["hand_count"], future=p["future_count"],
                past=p["past_count"], depth=p["depth_count"])
    if p.get("reserve_count"):  # a reserve deck (Cserepakli): its count is public
        stats = say("stats_reserve", mp=p["mp"], dp=p["dp"], hand=p["hand_count"], future=p["future_count"],
                    past=p["past_count"], depth=p["depth_count"], reserve=p["reserve_count"])
    stats = _fit(stats, room, BODY)
    # who left before the end (resigned, out of time, dropped) is marked where whose turn it is would be
    gone = (kit.ending(view) or {}).get("left", {}).get(str(seat))
    if seat not in view.get("to_act", []) and not gone:
        return head, stats, "", None
    mark = say("to_act_mark") if seat in view.get("to_act", []) else gone
    if _width(head, HEAD, True) + _width(mark, HEAD, True) + 12 <= room:
        return head, stats, mark, "head"
    if _width(stats, BODY, False) + _width(mark, BODY, True) + 12 <= room:
        return head, stats, mark, "stats"
    return head, stats, mark, "own"


def _side_layout(view: dict, seat: int, hu: bool) -> dict:
    """Sizes of a side's parts (the picture's height follows from what is in play)."""
    p = view["players"][seat]
    m = view.get("maneuver")
    cards = list(p["row"]) + list(p["team"])
    qw = (W - 2 * PAD - 12 - 6) // 2
    quest_rows = [p["quests"][i:i + 2] for i in range(0, len(p["quests"][:3]), 2)]
    say = kit.words("kivalasztottak", view)
    qh = [max(_quest_h(q, qw, hu, say) for q in row) for row in quest_rows] or [20]
    card_rows = [cards[i:i + CARDS_PER_ROW] for i in range(0, len(cards), CARDS_PER_ROW)] or [[]]
    ch = [max((_adventurer_h(a) for a in row), default=30) for row in card_rows]
    chips = len(p["buildings"]) + len(p["allies"]) + len(p["store"]) + len(p["solved"]) + len(p["events"])
    chip_lines = 3 if chips else 1
    place = _head_lines(view, seat, view.get("seat"), say, hu)[3]
    head = 44 + (18 if place == "own" else 0) + (24 if p["omen"] else 0)
    height = head + TOWER_H + 6 + sum(h + 6 for h in qh) + 18 + sum(h + 6 for h in ch) + 24 * chip_lines + 8
    return {"qw": qw, "quest_rows": quest_rows, "qh": qh, "card_rows": card_rows, "ch": ch, "head": head,
            "height": height, "front": set(m["front"]) if m else set()}


def _side(draw, y, view: dict, seat: int, viewer, say, hu: bool) -> int:
    p = view["players"][seat]
    lay = _side_layout(view, seat, hu)
    own = viewer == seat
    colour = kit.PLAYER_COLOURS[seat]
    draw.rectangle((PAD, y, W - PAD, y + lay["height"] - 6), fill=kit.rgb("kv_side"), outline=kit.rgb(colour),
                   width=3)
    to_act = seat in view.get("to_act", [])
    kit.badge(draw, (PAD + 20, y + 21), 15, colour, kit.PLAYER_LETTERS[seat], size=HEAD,
              outline="highlight" if to_act else "ink")
    head, stats, mark, place = _head_lines(view, seat, viewer, say, hu)
    _t(draw, (PAD + 42, y + 4), head, HEAD, "ink", True)
    _t(draw, (PAD + 42, y + 24), stats, BODY, "ink")
    if place == "head":
        _t(draw, (W - PAD - 6, y + 4), mark, HEAD, "danger", True, "ra")
    elif place == "stats":
        _t(draw, (W - PAD - 6, y + 24), mark, BODY, "danger", True, "ra")
    elif place == "own":
        _t(draw, (PAD + 42, y + 42), mark, BODY, "danger", True)
    if p["omen"]:
        o = p["omen"][0]
        _chip(draw, PAD + 8, y + 44 + (18 if place == "own" else 0), say("omen", name=_nm(o, hu), op=o["op"]), "kv_omen", W - 2 * PAD - 16)
    # towers: three across
    ty = y + lay["head"]
    tw = (W - 2 * PAD - 16 - 2 * 6) // 3
    for i, t in enumerate(p["towers"]):
        _tower(draw, PAD + 8 + i * (tw + 6), ty, tw, TOWER_H, t, i + 1, own, say, hu)
    # quests: two across
    qy = ty + TOWER_H + 6
    if not p["quests"]:
        _t(draw, (PAD + 8, qy), _fit(say("no_quests"), W - 2 * PAD - 16, SMALL), SMALL, "dark_grey")
    for row, h in zip(lay["quest_rows"], lay["qh"]):
        for i, q in enumerate(row):
            _quest(draw, PAD + 8 + i * (lay["qw"] + 6), qy, lay["qw"], h, q, say, hu)
        qy += h + 6
    if not p["quests"]:
        qy += lay["qh"][0] + 6
    # the Row (and the team while a maneuver runs)
    ry = qy
    _t(draw, (PAD + 8, ry), say("row"), SMALL, "dark_grey", True)
    ry += 18
    last_ids = {str(e.get("card")) for e in view.get("last", [])}
    team_ids = {a["id"] for a in p["team"]}
    if not p["row"] and not p["team"]:
        _t(draw, (PAD + 8, ry + 6), say("no_adventurers"), SMALL, "dark_grey")
    for row, h in zip(lay["card_rows"], lay["ch"]):
        for i, a in enumerate(row):
            rank = None
            if a["id"] in team_ids:
                rank = say("team_front") if a["id"] in lay["front"] else say("team_back")
            _adventurer(draw, PAD + 8 + i * (CARD_W + 6), ry, h, a, say, hu, rank, a["id"] in last_ids)
        ry += h + 6
    # buildings, allies, store, solved quests, cards in play
    cy = ry
    x = PAD + 8
    chips = [(say("chip_building", name=_lbl(b, hu), dp=b["dp"]) + (" ▲" * len(b.get("attached", []))),
              "kv_building") for b in p["buildings"]]
    chips += [(say("chip_ally", name=_nm(a, hu), szp=a["szp"]), "kv_ally") for a in p["allies"]]
    chips += [(say("chip_store", name=_lbl(c, hu)), "kv_action") for c in p["store"]]
    chips += [(say("chip_solved", name=_nm(q, hu), dp=q["dp"]), "kv_quest") for q in p["solved"]]
    chips += [(say("chip_event", name=_nm(e, hu)), "kv_event") for e in p["events"]]
    if not chips:
        _t(draw, (x, cy + 2), _fit(say("no_chips"), W - 2 * PAD - 16, SMALL), SMALL, "dark_grey")
    line = 0
    for label, colour in chips:
        w = _width(_words(label, W - 2 * PAD - 28, SMALL, False, 1)[0], SMALL, False) + 12
        if x + w > W - PAD - 8:
            line += 1
            x = PAD + 8
            if line > 2:
                break
        _chip(draw, x, cy + line * 24, label, colour, W - 2 * PAD - 16)
        x += w + 6
    return lay["height"]


#: each side as drawn on the palette board, by everything it shows (:func:`_side_key`): its band of pixels (its
#: height with it). A move leaves one side as it was about half the time (issue 29); 48 sides of at most 640 x
#: 900 px
_SIDES = kit.KeptBands(48)


def clear_caches() -> None:
    """Forget the kept sides (tests measure every text drawn)."""
    _SIDES.clear()


def _side_key(view: dict, seat: int, viewer) -> str:
    """Everything :func:`_side` (and its layout) draws from: the language, the seat and who looks, whether it is
    to act or has left, its player's name, the side itself, which of its adventurers the last move touched and
    which stand in front in a maneuver."""
    p = view["players"][seat]
    names = view.get("player_names") or []
    last_ids = {str(e.get("card")) for e in view.get("last", [])}
    m = view.get("maneuver")
    front = set(m["front"]) if m else set()
    cards = [*p["row"], *p["team"]]
    return json.dumps([view.get("lang"), seat, viewer, seat in view.get("to_act", []),
                       (kit.ending(view) or {}).get("left", {}).get(str(seat)), names[seat] if seat < len(names) else None,
                       [a["id"] in last_ids for a in cards], [a["id"] in front for a in cards], p],
                      sort_keys=True, ensure_ascii=False, default=str)


def _kept_side(img: Image.Image, draw, y: int, view: dict, seat: int, viewer, key: str, say, hu: bool) -> int:
    """:func:`_side` on the palette board, its band kept by ``key`` (:func:`_side_key`) and pasted the next time
    the side shows the same (drawn on the board's plain colour at whole pixels: the same pixels wherever it
    lands). Returns its height."""
    height = _SIDES.paste(img, key, y)
    if height is None:
        height = _side(draw, y, view, seat, viewer, say, hu)
        _SIDES.keep(img, key, y, y + height)
    return height


def _event_line(e: dict, names: dict[str, str], say, hu: bool) -> str | None:
    t = e.get("type")

    def nm(k):
        return names.get(str(e.get(k)), name())

    def name():
        return _nm(e, hu) if e.get("name") else "?"

    def outcome():
        return say("hit") if e["hit"] else say("miss")

    if t == "attack_roll":
        return say("ev_attack", name=name(), a=e["dice"][0], b=e["dice"][1], threshold=e["threshold"],
                   outcome=outcome())
    if t == "beast_roll":
        return say("ev_beast", a=e["dice"][0], b=e["dice"][1], attack=e["attack"], outcome=outcome())
    if t == "damaged":
        return say("ev_damaged", name=nm("card"), amount=e["amount"], level=e["level"])
    if t == "died":
        return say("ev_died", name=name())
    if t == "combat_result":
        return say("ev_combat", a=e["levels"][0], b=e["levels"][1])
    if t in ("summoned", "activated", "obstacle_activated"):
        return say("ev_card", who=kit.PLAYER_LETTERS[e["seat"]], name=name())
    if t == "quest_solved":
        return say("ev_solved", who=kit.PLAYER_LETTERS[e["seat"]], name=name(), dp=e["dp"])
    if t == "tower_destroyed":
        return say("ev_tower", name=name())
    if t == "game_over":
        return say("ev_over", outcome=_outcome(e.get("winner"), say), reason=_reason(e["reason"], say))
    return None


def _outcome(winner, say) -> str:
    return say("outcome_draw") if winner is None else say("outcome_wins", who=kit.PLAYER_LETTERS[winner])


def _reason(reason: str, say) -> str:
    return _opt(say, f"reason_{reason}", reason)


def _middle_h(view: dict) -> int:
    th = view.get("thread") or []
    lines = [ln for ln in view.get("last", []) if ln]
    return 30 + 20 * max(1, min(5, len(th))) + (44 if view.get("maneuver") else 0) + 18 * min(4, len(lines)) + 8


def _middle(draw, y, h, view: dict, say, hu: bool) -> None:
    names = _names(view, say, hu)
    draw.rectangle((PAD, y, W - PAD, y + h), fill=kit.rgb("kv_thread"), outline=kit.rgb("ink"))
    th = view.get("thread")
    _t(draw, (PAD + 8, y + 5), say("thread_closed") if th is None else say("thread_open", n=len(th)), HEAD,
       "ink", True)
    yy = y + 28
    if th:
        for i, it in enumerate(reversed(th[-5:])):
            who = kit.PLAYER_LETTERS[it["seat"]]
            tg = ", ".join(names.get(t, t) for t in it.get("targets", []))
            name = say("face_down_obstacle") if it.get("hidden") else _nm(it, hu)
            label = say("thread_top" if i == 0 else "thread_below", who=who, name=name) + (f" → {tg}" if tg else "")
            if it["kind"] == "trigger":
                label += say("thread_timed")
            kit.badge(draw, (PAD + 18, yy + 9), 9, kit.PLAYER_COLOURS[it["seat"]], who, size=SMALL)
            _t(draw, (PAD + 32, yy), _words(label, W - 2 * PAD - 40, BODY, False, 1)[0], BODY)
            yy += 20
    else:
        if th is not None:
            _t(draw, (PAD + 18, yy), _fit(say("thread_empty"), W - 2 * PAD - 30, BODY), BODY, "dark_grey")
        yy += 20
    m = view.get("maneuver")
    if m:
        who = kit.PLAYER_LETTERS[m["initiator"]]
        tgt = names.get(m["target"], m["target"] or "")
        kind = _opt(say, f"maneuver_{m['kind']}", m["kind"].upper())
        _t(draw, (PAD + 8, yy + 2), _words(say("maneuver_by", kind=kind, who=who, target=tgt), W - 2 * PAD - 16,
                                           HEAD, True, 1)[0], HEAD, "danger", True)
        step = _opt(say, f"step_{m['step']}", m["step"].replace("_", " "))
        extra = say("maneuver_round", n=m["combat_round"]) if m["combat_round"] else ""
        if "wall" in m:
            extra += say("maneuver_wall", wall=m["wall"])
        _t(draw, (PAD + 8, yy + 22), _fit(say("maneuver_step", step=step, extra=extra), W - 2 * PAD - 16, BODY),
           BODY)
        yy += 44
    lines = [ln for ln in (_event_line(e, names, say, hu) for e in view.get("last", [])) if ln][-4:]
    for ln in lines:
        _t(draw, (PAD + 8, yy), _words(ln, W - 2 * PAD - 16, SMALL, False, 1)[0], SMALL, "dark_grey")
        yy += 18


#: the board's height (a game of two): what the busiest positions of random games need, so the thread does not
#: jump from picture to picture
BOARD_H = {2: 1870}
LEGEND_H = 42


def render_public(view: dict) -> bytes:
    """The table: the opponent's side on top, the viewer's (seat A for spectators) at the bottom."""
    viewer = view.get("seat")
    bottom = viewer if viewer is not None else 0
    top = 1 - bottom
    hu = view.get("lang") == "hu"
    mid_h = _middle_h(view)
    view = kit.at_rest(view)
    keys = {seat: _side_key(view, seat, viewer) for seat in (top, bottom)}
    height = 50 + mid_h + 8 + sum(_SIDES.height(keys[seat]) or _side_layout(view, seat, hu)["height"]
                                  for seat in (top, bottom))
    height += LEGEND_H
    # drawn in the palette (kit.PaletteDraw): no picture-wide quantising (issue 29), the same pixels
    img, draw = kit.palette_canvas(W, kit.steady_height(height, BOARD_H, 2), "table", PALETTE)
    say = kit.words("kivalasztottak", view)
    stage = _opt(say, f"stage_{view['stage']}", view["stage"])
    title = say("title", round=view["round"], stage=stage)
    ended = kit.ending(view)
    if (view["stage"] == "maneuvers" or view.get("maneuver")) and ended is None:
        active, names = view["active"], view.get("player_names") or []
        who = kit.PLAYER_LETTERS[active]
        if active < len(names) and str(names[active]).strip():
            name = " ".join(str(names[active]).split())
            # a name too long for the title keeps its first word (the line below and the panel have it whole)
            who = f"{name if _width(name, HEAD, True) <= 150 else name.split()[0]} ({who})"
        named = title + say("title_active", who=who)
        # the line below names who acts: a title too long for the name says the letter only
        title = named if _width(named, HEAD, True) <= W - 2 * PAD - 8 else \
            title + say("title_active", who=kit.PLAYER_LETTERS[active])
    res = view.get("result")
    if res and ended is None:
        title = say("game_over", outcome=_outcome(res.get("winner"), say), reason=_reason(res["reason"], say))
    _t(draw, (PAD + 4, 5), _words(title, W - 2 * PAD - 8, HEAD, True, 1)[0], HEAD, "white", True)
    if ended is not None:  # ended outside its rules: how, instead of whose turn
        _t(draw, (PAD + 4, 26), _fit(ended["headline"], W - 2 * PAD - 8, BODY, True), BODY, "highlight", True)
    if view.get("to_act") and not res:
        names = view.get("player_names") or []
        acting = (", " if names else "").join(f"{_fit(names[s], 170, BODY, True)} ({kit.PLAYER_LETTERS[s]})"
                                              if s < len(names) else kit.PLAYER_LETTERS[s] for s in view["to_act"])
        pend = view.get("pending") or []
        kind = pend[0]["kind"] if pend else "priority"
        what = _opt(say, f"pending_{kind}", kind.replace("_", " "))
        _t(draw, (PAD + 4, 26), _fit(say("to_act", who=acting, what=what), W - 2 * PAD - 8, BODY, True), BODY,
           "highlight", True)
    y = 50
    y += _kept_side(img, draw, y, view, top, viewer, keys[top], say, hu)
    _middle(draw, y, mid_h, view, say, hu)
    y += mid_h + 8
    _kept_side(img, draw, y, view, bottom, viewer, keys[bottom], say, hu)
    # what the abbreviations stand for, in the game's language
    legend = _words(say("legend"), W - 2 * PAD - 8, BODY, False, 2)
    for i, line in enumerate(legend):
        _t(draw, (PAD + 4, img.height - LEGEND_H + 4 + 18 * i), line, BODY, "white")
    return kit.encode_with_clock(img, view, PALETTE)


def _hand_body(c: dict, say, hu: bool) -> tuple[str, str]:
    """A hand card's info line and its text."""
    t = c["type"]
    text = _text(c, hu)
    if t == "adventurer":
        sub = HU_SUBCASTE.get(c["subcaste"], c["subcaste"]) if hu else c.get("subcaste_en", c["subcaste"])
        info = say("info_adventurer", level=c["base_level"], phys=c["phys"], astral=c["astral"], mental=c["mental"],
                   subcaste=sub)
        skills = c["skills"] if hu else (c.get("skills_en") or c["skills"])
        return info, ", ".join(skills) + (" · " + text if text else "")
    if t == "quest":
        info = say("info_quest", dp=c["dp"], mp=c["mp"], location=c["location"])
        conditions = c["conditions"] if hu else (c.get("conditions_en") or c["conditions"])
        return info, " | ".join(conditions) + " · " + text
    if t in ("building", "ally"):
        cond = c["condition"] if hu else c.get("condition_en", c["condition"])
        return (say("info_building", dp=c["dp"], condition=cond) if t == "building"
                else say("info_ally", szp=c["szp"], condition=cond)), text
    if t == "obstacle":
        info = _opt(say, f"obstacle_{c['kind']}", c["kind"]) + (say("info_animate") if c.get("animate") else "")
        if c["kind"] == "beast":
            info += say("info_beast", number=c["number"], attack=c["attack"], damage=c["damage"])
        return info, text
    # (an omen starts in play, never in a hand; drawn anyway, it shows without phase and duration)
    phase = _opt(say, f"phase_{c.get('phase')}", c.get("phase") or "")
    duration = _opt(say, f"duration_{c.get('duration')}", c.get("duration") or "")
    if c.get("damage"):
        return say("info_attack", range=_opt(say, f"range_{c['range']}", c["range"]), damage=c["damage"],
                   phase=phase, duration=duration), text
    kind = c.get("action_type") or "event"
    return say("info_action", kind=_opt(say, f"action_{kind}", kind.replace("_", " ")), phase=phase,
               duration=duration), text


HAND_COLS = 2
HAND_CW = (W - 2 * PAD - (HAND_COLS - 1) * 8) // HAND_COLS
HAND_CH = 200


def _hand_card_drawn(draw, x, y, w, h, c: dict, playable: bool, say, hu: bool) -> None:
    """One card of the hand: name (two lines at most, broken between words), cost, its Hungarian name (or, in a
    Hungarian picture, its type), an info line and the card text."""
    t = c["type"]
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"),
                   outline=kit.rgb("highlight" if playable else "ink"), width=4 if playable else 1)
    dark = t in ("event", "omen", "obstacle", "adventurer")
    if t == "obstacle":  # attached for free; what it costs is revealing it
        cost = say("cost_reveal", mp=c.get("mp", 0))
    elif t in ("quest", "building", "ally"):
        cost = say("cost_free")
    else:
        cost = say("cost_mp", mp=c.get("mp", 0))
    cost_w = _width(cost, BODY, True)
    lines = _words(_lbl(c, hu), w - 16 - cost_w, HEAD, True, 2)
    top = 6 + 19 * len(lines)
    draw.rectangle((x, y, x + w, y + top), fill=kit.rgb(f"kv_{t}"))
    for i, ln in enumerate(lines):
        _t(draw, (x + 6, y + 4 + 19 * i), ln, HEAD, "white" if dark else "ink", True)
    _t(draw, (x + w - 6, y + 5), cost, BODY, "white" if dark else "ink", True, "ra")
    yy = y + top + 3
    # the card's kind in words (no one-letter code), and in a picture not in Hungarian its Hungarian name
    kind = _opt(say, f"typename_{t}", t)
    sub = kind if hu else f"{kind} · {c['name_hu']}"
    _t(draw, (x + 6, yy), _words(sub, w - 12, SMALL, False, 1)[0], SMALL, "dark_grey")
    yy += 17
    info, body = _hand_body(c, say, hu)
    for ln in _wrap(info, w - 12, SMALL, True, lines=2):
        _t(draw, (x + 6, yy), ln, SMALL, "ink", True)
        yy += 16
    room = (y + h - 20 - yy) // 16
    for ln in _wrap(body, w - 12, SMALL, lines=max(1, room)):
        _t(draw, (x + 6, yy), ln, SMALL)
        yy += 16
    if playable:
        _t(draw, (x + w - 6, y + h - 3), say("playable"), SMALL, "ok", True, "rd")


def render_private(view: dict) -> bytes | None:
    """The viewer's hand; cards that can be played right now are framed."""
    hand = view.get("hand")
    if hand is None:
        return None
    playable = {a.get("card") for a in view.get("legal", []) if a["type"] in ("summon", "attach_reward")}
    rows = max(1, (len(hand) + HAND_COLS - 1) // HAND_COLS)
    img, draw = kit.palette_canvas(W, 34 + rows * (HAND_CH + 8), "table", PALETTE)
    say = kit.words("kivalasztottak", view)
    hu = view.get("lang") == "hu"
    p = view["players"][view["seat"]]
    _t(draw, (PAD + 4, 7), _fit(say("hand_title", n=len(hand), mp=p["mp"], dp=p["dp"]), W - 2 * PAD, HEAD, True),
       HEAD, "white", True)
    if not hand:
        _t(draw, (PAD + 4, 50), say("hand_empty"), HEAD, "white")
    for i, c in enumerate(hand):
        x = PAD + (i % HAND_COLS) * (HAND_CW + 8)
        y = 32 + (i // HAND_COLS) * (HAND_CH + 8)
        _hand_card(draw, x, y, HAND_CW, HAND_CH, c, c["id"] in playable, say, hu)
    return kit.encode(img, PALETTE)


# ------------------------------------------------------------------------------------------- a deck list

DECK_LINE = 22  # one card a line: its copies, name (the other language's name under it, smaller) and MP


def deck_view_height(view: dict) -> int:
    lines = sum(len(g["cards"]) for s in view["sections"] for g in s["groups"])
    heads = sum(len(s["groups"]) for s in view["sections"]) + len(view["sections"])
    problems = len(view.get("problems") or [])
    return 62 + lines * DECK_LINE + heads * 24 + (problems * 36 + 28 if problems else 8) + 3 * 17 + 16


def render_deck(view: dict) -> bytes:
    """A deck list a phone reads: the name and counts on top (legal or not), then per section (the deck, the
    reserve deck) the cards by type, each type with its colour and its name; what breaks the rules in red; the
    deck code at the bottom. ``view``: built by ``host/decks.py`` (``deck_view``)."""
    say = kit.words("kivalasztottak", view)
    img, draw = kit.canvas(W, deck_view_height(view), "table")
    ok = not view.get("problems")
    _t(draw, (PAD + 4, 6), _words(view["name"], W - 2 * PAD - 8, HEAD + 2, True, 1)[0], HEAD + 2, "white", True)
    status = say("deck_counts", size=view["size"], reserve=view["reserve_size"]) + "   " + \
        say("deck_legal" if ok else "deck_not_legal")
    _t(draw, (PAD + 4, 32), _fit(status, W - 2 * PAD - 8, BODY, True), BODY, "highlight" if ok else "white", True)
    y = 62
    for section in view["sections"]:
        draw.rectangle((PAD, y, W - PAD, y + 20), fill=kit.rgb("kv_side"))
        _t(draw, (PAD + 6, y + 2), say(f"deck_section_{section['kind']}", n=section["count"]), BODY, "ink", True)
        y += 24
        for group in section["groups"]:
            colour = f"kv_{group['type']}"
            # the type's colour beside its name in words (no letter: a kind is named, never coded)
            draw.rectangle((PAD, y + 2, PAD + 18, y + 20), fill=kit.rgb(colour))
            _t(draw, (PAD + 24, y + 3), say(f"deck_type_{group['type']}", n=group["count"]), BODY, "white", True)
            y += 24
            for card in group["cards"]:
                _t(draw, (PAD + 28, y + 2), f"{card['count']}×", BODY, "white", True, "ra")
                name = _fit(card["name"], 300, BODY, True)
                _t(draw, (PAD + 34, y + 2), name, BODY, "white", True)
                if card.get("other"):
                    x = PAD + 40 + _width(name, BODY, True)
                    _t(draw, (x, y + 3), _fit(card["other"], W - PAD - 60 - x, SMALL), SMALL, "kv_rest")
                if card.get("mp") is not None:
                    _t(draw, (W - PAD - 4, y + 2), say("deck_mp", mp=card["mp"]), BODY, "white", False, "ra")
                y += DECK_LINE
    y += 4
    if view.get("problems"):
        _t(draw, (PAD + 4, y), say("deck_problems"), BODY, "highlight", True)
        y += 22
        for line in view["problems"]:
            for part in _wrap(line, W - 2 * PAD - 16, BODY, False, 2):
                _t(draw, (PAD + 12, y), part, BODY, "white")
                y += 18
    else:
        y += 4
    line = say("deck_code", code=view["code"])
    for part in _chunks(line, W - 2 * PAD - 8, SMALL)[:3]:  # a code has no spaces: broken where the width ends
        _t(draw, (PAD + 4, y + 8), part, SMALL, "kv_rest")
        y += 17
    return kit.encode(img, PALETTE)


def _chunks(s: str, width: int, size: int) -> list[str]:
    out, cur = [], ""
    for ch in s:
        if cur and _width(cur + ch, size, False) > width:
            out.append(cur)
            cur = ""
        cur += ch
    return [*out, cur] if cur else out
