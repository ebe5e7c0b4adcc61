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
from functools import lru_cache

from PIL import Image, ImageDraw

from render import kit

GAME = "kivalasztottak"

W = 1000
PAD = 10
CARD_W, CARD_H = 128, 150
TYPE_COLOURS = {  # the rulebook's card-type colours, toned for legibility
    "tower": (196, 160, 110), "adventurer": (86, 150, 90), "action": (200, 170, 130), "quest": (120, 180, 220),
    "building": (225, 200, 80), "ally": (160, 160, 160), "obstacle": (70, 130, 70), "event": (110, 70, 140),
    "omen": (40, 40, 40),
}
TYPE_LETTER = {"tower": "T", "adventurer": "K", "action": "A", "quest": "Q", "building": "B", "ally": "S",
               "obstacle": "O", "event": "E", "omen": "Ó"}
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


@lru_cache(maxsize=8192)
def _mask(s: str, size: int, bold: bool, anchor: str):
    """The glyph mask of a label, cached: the same names and labels come back in every picture."""
    f = kit.font(size, bold, condensed=True)
    box = f.getbbox(s, anchor=anchor)
    im = Image.new("L", (max(1, box[2] - box[0]), max(1, box[3] - box[1])), 0)
    ImageDraw.Draw(im).text((-box[0], -box[1]), s, font=f, fill=255, anchor=anchor)
    return im, box[0], box[1]


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


def _t(draw, xy, s, size=16, fill="ink", bold=False, anchor="la"):
    if not s:
        return
    im, dx, dy = _mask(s, size, bold, anchor)
    draw.bitmap((xy[0] + dx, xy[1] + dy), im, fill=kit.rgb(fill))


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
def _adventurer(draw, x, y, a: dict, say, hu: bool, rank: str | None = None, highlight=False) -> None:
    st = a.get("state", "alert")
    bg = {"alert": "white", "resting": "kv_rest", "injured": "kv_inj"}[st]
    draw.rectangle((x, y, x + CARD_W, y + CARD_H), fill=kit.rgb(bg),
                   outline=kit.rgb("highlight" if highlight else "ink"), width=3 if highlight else 1)
    if st == "resting":
        _hatch(draw, (x + 1, y + 28, x + CARD_W - 1, y + CARD_H - 1), "panel_dark", 12)
    elif st == "injured":
        _hatch(draw, (x + 1, y + 28, x + CARD_W - 1, y + CARD_H - 1), "danger", 14, cross=True)
    draw.rectangle((x, y, x + CARD_W, y + 26), fill=kit.rgb("kv_adventurer"), outline=kit.rgb("ink"))
    name = ("★ " if a.get("named") else "") + _lbl(a, hu)
    _t(draw, (x + 4, y + 4), _fit(name, CARD_W - 8, 16, True), 16, "white", True)
    # level: current / base, damage in red
    level = say("level", level=a["level"], base=a["base_level"])
    _t(draw, (x + 5, y + 31), _fit(level, CARD_W - (44 if a.get("dmg") else 10), 20, True), 20, "ink", True)
    if a.get("dmg"):
        kit.badge(draw, (x + CARD_W - 18, y + 42), 15, "danger", f"-{a['dmg']}", size=15)
    _t(draw, (x + 5, y + 57), say("attrs", phys=a["phys"], astral=a["astral"], mental=a["mental"]), 16)
    label = _fit(_opt(say, f"state_{st}", st.upper()), CARD_W - 16, 16, True)
    draw.rectangle((x + 4, y + 78, x + 4 + _width(label, 16, True) + 8, y + 98),
                   fill=kit.rgb("white"), outline=kit.rgb("ink"))
    _t(draw, (x + 8, y + 80), label, 16, "ink", True)
    yy = y + 102
    for w in a.get("worn", [])[:2]:
        _t(draw, (x + 5, yy), _fit("⚔ " + _nm(w, hu), CARD_W - 10, 16), 16, "dark_grey")
        yy += 18
    if rank:
        draw.rectangle((x, y + CARD_H - 20, x + CARD_W, y + CARD_H), fill=kit.rgb("ink"))
        _t(draw, (x + CARD_W // 2, y + CARD_H - 10), _fit(rank, CARD_W - 6, 16, True), 16, "white", True, "mm")
    elif a.get("token"):
        _t(draw, (x + CARD_W - 6, y + CARD_H - 4), say("token"), 16, "dark_grey", False, "rd")


def _tower(draw, x, y, w, h, t: dict, place: int, own: bool, say, hu: bool) -> None:
    hidden = t.get("hidden") or not t.get("face_up", True)
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("kv_tower"), outline=kit.rgb("ink"))
    if hidden:
        _hatch(draw, (x + 1, y + 1, x + w - 1, y + h - 1), "kv_hidden", 8)
    _t(draw, (x + 4, y + 3), f"{place}", 18, "ink", True)
    if t.get("hidden"):
        _t(draw, (x + w // 2, y + h // 2), _fit(say("tower_face_down"), w - 8, 16, True), 16, "ink", True, "mm")
        return
    _t(draw, (x + 22, y + 4), _fit(_nm(t, hu), w - 26, 16, True), 16, "ink", True)
    _t(draw, (x + 6, y + 26), _fit(say("tower_wall", wall=t["wall"]), w - 10, 16, True), 16, "ink", True)
    obst = [c for c in t.get("attached", [])]
    _t(draw, (x + 6, y + 46), _fit(say("tower_obstacles", n=len(obst), max=t["obstacles"]), w - 10, 16), 16)
    if hidden and own:
        _t(draw, (x + 6, y + 68), _fit(say("tower_hidden_own"), w - 10, 16, True), 16, "ink", True)


def _attach_text(items: list[dict], hu: bool) -> str:
    """Attached cards in a few characters: ▲×N obstacles (face down or not), +name for a reward."""
    obstacles = sum(1 for c in items if c.get("hidden") or c.get("type") == "obstacle")
    parts = [f"▲×{obstacles}"] if obstacles else []
    parts += ["+" + _nm(c, hu) for c in items if not c.get("hidden") and c.get("type") != "obstacle"]
    return " ".join(parts)


def _quest(draw, x, y, w, h, q: dict, say, hu: bool) -> None:
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"), outline=kit.rgb("ink"))
    draw.rectangle((x, y, x + w, y + 20), fill=kit.rgb("kv_quest"))
    _t(draw, (x + 4, y + 1), _fit(say("quest_title", name=_lbl(q, hu)), w - 8, 16, True), 16, "ink", True)
    conditions = q.get("conditions", []) if hu else (q.get("conditions_en") or q.get("conditions", []))
    for i, cond in enumerate(conditions[:3]):
        _t(draw, (x + 4, y + 21 + 18 * i), _fit(f"{i + 1}. {cond}", w - 8, 16), 16)
    tag = say("quest_tag", dp=q["dp"], mp=q.get("mp", 0))
    _t(draw, (x + w - 4, y + h - 19), tag, 16, "ink", True, "ra")
    att = _attach_text(q.get("attached", []), hu)
    if att:
        _t(draw, (x + 4, y + h - 19), _fit(att, w - 16 - _width(tag, 16, True), 16), 16, "dark_grey")


def _chip(draw, x, y, label: str, colour: str, max_w: int) -> int:
    label = _fit(label, max_w - 12, 16)
    w = _width(label, 16, False) + 12
    draw.rectangle((x, y, x + w, y + 24), fill=kit.rgb(colour), outline=kit.rgb("ink"))
    dark = colour in ("kv_event", "kv_omen", "kv_obstacle", "kv_adventurer")
    _t(draw, (x + 6, y + 3), label, 16, "white" if dark else "ink")
    return w


SIDE_H = 44 + 104 + CARD_H + 12 + 64


def _side(draw, y, view: dict, seat: int, viewer, say, hu: bool) -> None:
    p = view["players"][seat]
    own = viewer == seat
    colour = kit.PLAYER_COLOURS[seat]
    draw.rectangle((PAD, y, W - PAD, y + SIDE_H - 6), fill=kit.rgb("kv_side"), outline=kit.rgb(colour), width=3)
    to_act = seat in view.get("to_act", [])
    kit.badge(draw, (PAD + 22, y + 22), 16, colour, kit.PLAYER_LETTERS[seat],
              outline="highlight" if to_act else "ink")
    names = view.get("player_names") or []
    who = say("you") if own else say("seat", n=seat + 1)
    if seat < len(names):  # the host adds the players' display names
        who = say("name_you", name=names[seat]) if own else names[seat]
    deck = (p.get("deck_name_hu") or p["deck_name"]) if hu else p["deck_name"]
    head = _fit(say("side_head", deck=deck, who=who), 330, 18, True)
    _t(draw, (PAD + 46, y + 5), head, 18, "ink", True)
    if to_act:
        _t(draw, (PAD + 56 + _width(head, 18, True), y + 5), say("to_act_mark"), 18, "danger", True)
    stats = say("stats", mp=p["mp"], dp=p["dp"], hand=p["hand_count"], future=p["future_count"],
                past=p["past_count"], depth=p["depth_count"])
    omen_x = W - PAD - 8
    if p["omen"]:
        o = p["omen"][0]
        label = say("omen", name=_nm(o, hu), op=o["op"])
        omen_x -= min(330, _width(label, 16, False) + 12)
        _chip(draw, omen_x, y + 8, label, "kv_omen", 330)
    if p["omen"] and PAD + 46 + _width(stats, 16, False) > omen_x - 6:  # a long line must not run under the omen
        stats = _fit(stats, omen_x - 6 - PAD - 46, 16)
    _t(draw, (PAD + 46, y + 25), stats, 16, "ink")
    # towers and quests
    ty = y + 46
    tw, th = 126, 96
    for i, t in enumerate(p["towers"]):
        _tower(draw, PAD + 8 + i * (tw + 6), ty, tw, th, t, i + 1, own, say, hu)
    qx = PAD + 8 + 3 * (tw + 6) + 8
    qw = (W - PAD - 8 - qx - 12) // 3
    for i, q in enumerate(p["quests"][:3]):
        _quest(draw, qx + i * (qw + 6), ty, qw, th, q, say, hu)
    if not p["quests"]:
        _t(draw, (qx + 4, ty + 30), _fit(say("no_quests"), W - PAD - 12 - qx, 16), 16, "dark_grey")
    # the Row (and the team while a maneuver runs)
    ry = ty + th + 8
    m = view.get("maneuver")
    front = set(m["front"]) if m else set()
    cards = [(a, None) for a in p["row"]]
    cards += [(a, say("team_front") if a["id"] in front else say("team_back")) for a in p["team"]]
    row, size = say("row"), 16
    while size > 12 and _width(row, size, True) > 40:  # the label stands left of the first card
        size -= 1
    _t(draw, (PAD + 8, ry), row, size, "dark_grey", True)
    if not cards:
        _t(draw, (PAD + 60, ry + 60), say("no_adventurers"), 16, "dark_grey")
    last_ids = {str(e.get("card")) for e in view.get("last", [])}
    per_line = (W - 2 * PAD - 56) // (CARD_W + 6)
    for i, (a, rank) in enumerate(cards[:per_line]):
        _adventurer(draw, PAD + 48 + i * (CARD_W + 6), ry, a, say, hu, rank, a["id"] in last_ids)
    if len(cards) > per_line:
        _t(draw, (W - PAD - 8, ry + CARD_H - 18), say("more", n=len(cards) - per_line), 16, "ink", True, "ra")
    # buildings, allies, store, solved quests, cards in play
    cy = ry + CARD_H + 8
    x = PAD + 8
    chips = [(say("chip_building", name=_lbl(b, hu), dp=b["dp"]) + (" ▲" * len(b.get("attached", []))),
              "kv_building") for b in p["buildings"]]
    chips += [(say("chip_ally", name=_nm(a, hu), szp=a["szp"]), "kv_ally") for a in p["allies"]]
    chips += [(say("chip_store", name=_lbl(c, hu)), "kv_action") for c in p["store"]]
    chips += [(say("chip_solved", name=_nm(q, hu), dp=q["dp"]), "kv_quest") for q in p["solved"]]
    chips += [(say("chip_event", name=_nm(e, hu)), "kv_event") for e in p["events"]]
    if not chips:
        _t(draw, (x, cy + 4), _fit(say("no_chips"), W - 2 * PAD - 16, 16), 16, "dark_grey")
    line = 0
    for label, colour in chips:
        w = _width(_fit(label, 300, 16), 16, False) + 12
        if x + w > W - PAD - 8:
            line += 1
            x = PAD + 8
            if line > 1:
                break
        _chip(draw, x, cy + line * 28, label, colour, 312)
        x += w + 6


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


def _middle(draw, y, h, view: dict, say, hu: bool) -> None:
    names = _names(view, say, hu)
    draw.rectangle((PAD, y, W - PAD, y + h), fill=kit.rgb("kv_thread"), outline=kit.rgb("ink"))
    th = view.get("thread")
    _t(draw, (PAD + 8, y + 6), say("thread_closed") if th is None else say("thread_open", n=len(th)), 18,
       "ink", True)
    if th:
        for i, it in enumerate(reversed(th[-5:])):
            who = kit.PLAYER_LETTERS[it["seat"]]
            tg = ", ".join(names.get(t, t) for t in it.get("targets", []))
            name = say("face_down_obstacle") if it.get("hidden") else _nm(it, hu)
            label = say("thread_top" if i == 0 else "thread_below", who=who, name=name) + (f" → {tg}" if tg else "")
            if it["kind"] == "trigger":
                label += say("thread_timed")
            kit.badge(draw, (PAD + 20, y + 40 + i * 22), 9, kit.PLAYER_COLOURS[it["seat"]], who, size=11)
            _t(draw, (PAD + 34, y + 31 + i * 22), _fit(label, 440, 16), 16)
    elif th is not None:
        _t(draw, (PAD + 20, y + 34), _fit(say("thread_empty"), 460, 16), 16, "dark_grey")
    m = view.get("maneuver")
    x2 = W // 2 + 10
    if m:
        who = kit.PLAYER_LETTERS[m["initiator"]]
        tgt = names.get(m["target"], m["target"] or "")
        kind = _opt(say, f"maneuver_{m['kind']}", m["kind"].upper())
        _t(draw, (x2, y + 6), _fit(say("maneuver_by", kind=kind, who=who, target=tgt), W // 2 - 30, 18, True),
           18, "danger", True)
        step = _opt(say, f"step_{m['step']}", m["step"].replace("_", " "))
        extra = say("maneuver_round", n=m["combat_round"]) if m["combat_round"] else ""
        if "wall" in m:
            extra += say("maneuver_wall", wall=m["wall"])
        _t(draw, (x2, y + 30), _fit(say("maneuver_step", step=step, extra=extra), W // 2 - 30, 16), 16)
    lines = [ln for ln in (_event_line(e, names, say, hu) for e in view.get("last", [])) if ln][-4:]
    for i, ln in enumerate(lines):
        _t(draw, (x2, y + 54 + i * 19 - (0 if m else 48)), _fit(ln, W // 2 - 30, 16), 16, "dark_grey")


def render_public(view: dict) -> bytes:
    """The table: the opponent's side on top, the viewer's (seat A for spectators) at the bottom."""
    viewer = view.get("seat")
    bottom = viewer if viewer is not None else 0
    top = 1 - bottom
    mid_h = 142
    height = 40 + SIDE_H + mid_h + 8 + SIDE_H
    img, draw = kit.canvas(W, height, "table")
    say = kit.words("kivalasztottak", view)
    hu = view.get("lang") == "hu"
    stage = _opt(say, f"stage_{view['stage']}", view["stage"])
    title = say("title", round=view["round"], stage=stage)
    if view["stage"] == "maneuvers" or view.get("maneuver"):
        title += say("title_active", who=kit.PLAYER_LETTERS[view["active"]])
    res = view.get("result")
    if res:
        title = say("game_over", outcome=_outcome(res.get("winner"), say), reason=_reason(res["reason"], say))
    right = ""
    if view.get("to_act") and not res:
        names = view.get("player_names") or []
        acting = (", " if names else "").join(_fit(f"{kit.PLAYER_LETTERS[s]} {names[s]}", 170, 18, True) if s < len(names)
                           else kit.PLAYER_LETTERS[s] for s in view["to_act"])
        pend = view.get("pending") or []
        kind = pend[0]["kind"] if pend else "priority"
        what = _opt(say, f"pending_{kind}", kind.replace("_", " "))
        right = say("to_act", who=acting, what=what)
        _t(draw, (W - PAD - 4, 8), right, 18, "highlight", True, "ra")
    room = W - 2 * PAD - 8 - (_width(right, 18, True) + 16 if right else 0)
    _t(draw, (PAD + 4, 8), _fit(title, room, 20, True) if _width(title, 20, True) > room else title, 20, "white", True)
    y = 40
    _side(draw, y, view, top, viewer, say, hu)
    y += SIDE_H
    _middle(draw, y, mid_h, view, say, hu)
    y += mid_h + 8
    _side(draw, y, view, bottom, viewer, say, hu)
    return kit.encode(img, PALETTE)


def _hand_card(draw, x, y, w, h, c: dict, playable: bool, say, hu: bool, english: bool) -> None:
    """One card of the hand. English pictures keep their layout; other languages may shrink a long info line."""
    t = c["type"]
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"),
                   outline=kit.rgb("highlight" if playable else "ink"), width=4 if playable else 1)
    draw.rectangle((x, y, x + w, y + 28), fill=kit.rgb(f"kv_{t}"))
    dark = t in ("event", "omen", "obstacle", "adventurer")
    letter = _opt(say, f"type_{t}", TYPE_LETTER[t])
    cost = say("cost_free") if t in ("quest", "building", "ally", "obstacle") else say("cost_mp", mp=c.get("mp", 0))
    cost_w = _width(cost, 16, True)
    _t(draw, (x + 6, y + 4), _fit(f"{letter} {_lbl(c, hu)}", w - 50 - max(0, cost_w - 39), 18, True), 18,
       "white" if dark else "ink", True)
    _t(draw, (x + w - 6, y + 5), cost, 16, "white" if dark else "ink", True, "ra")
    # under the name: the Hungarian name (the cards' own), or in a Hungarian picture the card's type
    sub = _opt(say, f"typename_{t}", t) if hu else c["name_hu"]
    _t(draw, (x + 6, y + 32), _fit(sub, w - 12, 16), 16, "dark_grey")
    info = ""
    text = _text(c, hu)
    if t == "adventurer":
        sub = HU_SUBCASTE.get(c["subcaste"], c["subcaste"]) if hu else c.get("subcaste_en", c["subcaste"])
        info = say("info_adventurer", level=c["base_level"], phys=c["phys"], astral=c["astral"], mental=c["mental"],
                   subcaste=sub)
        skills = c["skills"] if hu else (c.get("skills_en") or c["skills"])
        body = ", ".join(skills) + (" · " + text if text else "")
    elif t == "quest":
        info = say("info_quest", dp=c["dp"], mp=c["mp"], location=c["location"])
        conditions = c["conditions"] if hu else (c.get("conditions_en") or c["conditions"])
        body = " | ".join(conditions) + " · " + text
    elif t in ("building", "ally"):
        cond = c["condition"] if hu else c.get("condition_en", c["condition"])
        info = (say("info_building", dp=c["dp"], condition=cond) if t == "building"
                else say("info_ally", szp=c["szp"], condition=cond))
        body = text
    elif t == "obstacle":
        info = _opt(say, f"obstacle_{c['kind']}", c["kind"]) + (say("info_animate") if c.get("animate") else "")
        if c["kind"] == "beast":
            info += say("info_beast", number=c["number"], attack=c["attack"], damage=c["damage"])
        body = text
    else:
        # (an omen starts in play, never in a hand; drawn anyway, it shows without phase and duration)
        phase = _opt(say, f"phase_{c.get('phase')}", c.get("phase") or "")
        duration = _opt(say, f"duration_{c.get('duration')}", c.get("duration") or "")
        if c.get("damage"):
            info = say("info_attack", range=_opt(say, f"range_{c['range']}", c["range"]), damage=c["damage"],
                       phase=phase, duration=duration)
        else:
            kind = c.get("action_type") or "event"
            info = say("info_action", kind=_opt(say, f"action_{kind}", kind.replace("_", " ")), phase=phase,
                       duration=duration)
        body = text
    size = 16
    while not english and size > 14 and _width(info, size, True) > w - 12:  # longer words: a size smaller first
        size -= 1
    _t(draw, (x + 6, y + 52), _fit(info, w - 12, size, True), size, "ink", True)
    lines = _wrap(body, w - 12, 16, lines=3)
    if playable and not english and len(lines) == 3:  # the third line stops short of the "playable" mark
        lines[2] = _fit(lines[2], w - 20 - _width(say("playable"), 16, True), 16)
    for i, line in enumerate(lines):
        _t(draw, (x + 6, y + 74 + 19 * i), line, 16)
    if playable:
        _t(draw, (x + w - 6, y + h - 4), say("playable"), 16, "ok", True, "rd")


def render_private(view: dict) -> bytes | None:
    """The viewer's hand; cards that can be played right now are framed."""
    hand = view.get("hand")
    if hand is None:
        return None
    playable = {a.get("card") for a in view.get("legal", []) if a["type"] in ("summon", "attach_reward")}
    cols = 3
    cw, ch = (W - 2 * PAD - (cols - 1) * 8) // cols, 150
    rows = max(1, (len(hand) + cols - 1) // cols)
    img, draw = kit.canvas(W, 46 + rows * (ch + 8), "table")
    say = kit.words("kivalasztottak", view)
    hu = view.get("lang") == "hu"
    p = view["players"][view["seat"]]
    _t(draw, (PAD + 4, 10), say("hand_title", n=len(hand), mp=p["mp"], dp=p["dp"]), 20, "white", True)
    if not hand:
        _t(draw, (PAD + 4, 60), say("hand_empty"), 18, "white")
    for i, c in enumerate(hand):
        x = PAD + (i % cols) * (cw + 8)
        y = 42 + (i // cols) * (ch + 8)
        _hand_card(draw, x, y, cw, ch, c, c["id"] in playable, say, hu, (view.get("lang") or "en") == "en")
    return kit.encode(img, PALETTE)
