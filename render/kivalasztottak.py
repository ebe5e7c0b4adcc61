"""Kiválasztottak pictures from engine views: the table (both sides, the time thread, the maneuver) and the
private hand.

Each side shows its tower levels (face-down ones hatched, with their place: 1 is besieged first), the Row
(and the team of a running maneuver) with states, levels and damage, awaiting quests with attachments,
buildings, allies with SZP, the Store, solved quests, MP, DP and the zone counts. States are written out
and patterned (resting: one hatch, injured: cross-hatch), so colour is never the only cue.
"""

from __future__ import annotations

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

STATE_LABEL = {"alert": "ALERT", "resting": "RESTING", "injured": "INJURED"}
STAGE_LABEL = {"towers": "placing tower levels", "mulligan": "mulligan", "open": "round opening",
               "adjust": "resource phase", "omen_bottom": "resource phase", "maneuvers": "maneuvers phase",
               "close": "round close", "over": "game over"}
REASONS = {"dp11": "most DP (11+) at round close", "dp19": "19 DP", "towers": "no tower level left",
           "future": "a Future ran out", "future_draw": "both Futures ran out", "round_limit": "round limit",
           "simultaneous": "both won at once"}
MANEUVER_LABEL = {"siege": "SIEGE", "quest": "QUEST SOLVING", "capture": "BUILDING CAPTURE"}


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


def _names(view: dict) -> dict[str, str]:
    """Card id -> name for every visible card (to name thread targets)."""
    out: dict[str, str] = {}
    stack: list = [view.get("players", []), view.get("hand", [])]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "id" in x and "name" in x:
                out[x["id"]] = x["name"]
            stack.extend(v for v in x.values() if isinstance(v, (dict, list)))
        elif isinstance(x, list):
            stack.extend(x)
    for s in range(2):
        for i in range(3):
            out[f"tower-{s}-{i}"] = f"tower level {i + 1}"
        out[f"hidden-{s}"] = "a face-down card"
    return out


# ------------------------------------------------------------------ pieces
def _adventurer(draw, x, y, a: dict, rank: str | None = None, highlight=False) -> None:
    st = a.get("state", "alert")
    bg = {"alert": "white", "resting": "kv_rest", "injured": "kv_inj"}[st]
    draw.rectangle((x, y, x + CARD_W, y + CARD_H), fill=kit.rgb(bg),
                   outline=kit.rgb("highlight" if highlight else "ink"), width=3 if highlight else 1)
    if st == "resting":
        _hatch(draw, (x + 1, y + 28, x + CARD_W - 1, y + CARD_H - 1), "panel_dark", 12)
    elif st == "injured":
        _hatch(draw, (x + 1, y + 28, x + CARD_W - 1, y + CARD_H - 1), "danger", 14, cross=True)
    draw.rectangle((x, y, x + CARD_W, y + 26), fill=kit.rgb("kv_adventurer"), outline=kit.rgb("ink"))
    name = ("★ " if a.get("named") else "") + a.get("label", a["name"])
    _t(draw, (x + 4, y + 4), _fit(name, CARD_W - 8, 16, True), 16, "white", True)
    # level: current / base, damage in red
    _t(draw, (x + 5, y + 31), f"Lv {a['level']}/{a['base_level']}", 20, "ink", True)
    if a.get("dmg"):
        kit.badge(draw, (x + CARD_W - 18, y + 42), 15, "danger", f"-{a['dmg']}", size=15)
    _t(draw, (x + 5, y + 57), f"P{a['phys']} A{a['astral']} M{a['mental']}", 16)
    label = STATE_LABEL[st]
    draw.rectangle((x + 4, y + 78, x + 4 + _width(label, 16, True) + 8, y + 98),
                   fill=kit.rgb("white"), outline=kit.rgb("ink"))
    _t(draw, (x + 8, y + 80), label, 16, "ink", True)
    yy = y + 102
    for w in a.get("worn", [])[:2]:
        _t(draw, (x + 5, yy), _fit("⚔ " + w["name"], CARD_W - 10, 16), 16, "dark_grey")
        yy += 18
    if rank:
        draw.rectangle((x, y + CARD_H - 20, x + CARD_W, y + CARD_H), fill=kit.rgb("ink"))
        _t(draw, (x + CARD_W // 2, y + CARD_H - 10), rank, 16, "white", True, "mm")
    elif a.get("token"):
        _t(draw, (x + CARD_W - 6, y + CARD_H - 4), "token", 16, "dark_grey", False, "rd")


def _tower(draw, x, y, w, h, t: dict, place: int, own: bool) -> None:
    hidden = t.get("hidden") or not t.get("face_up", True)
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("kv_tower"), outline=kit.rgb("ink"))
    if hidden:
        _hatch(draw, (x + 1, y + 1, x + w - 1, y + h - 1), "kv_hidden", 8)
    _t(draw, (x + 4, y + 3), f"{place}", 18, "ink", True)
    if t.get("hidden"):
        _t(draw, (x + w // 2, y + h // 2), "FACE DOWN", 16, "ink", True, "mm")
        return
    _t(draw, (x + 22, y + 4), _fit(t["name"], w - 26, 16, True), 16, "ink", True)
    _t(draw, (x + 6, y + 26), f"WALL {t['wall']}", 16, "ink", True)
    obst = [c for c in t.get("attached", [])]
    _t(draw, (x + 6, y + 46), f"obstacles {len(obst)}/{t['obstacles']}", 16)
    if hidden and own:
        _t(draw, (x + 6, y + 68), "face down", 16, "ink", True)


def _attach_text(items: list[dict]) -> str:
    """Attached cards in a few characters: ▲×N obstacles (face down or not), +name for a reward."""
    obstacles = sum(1 for c in items if c.get("hidden") or c.get("type") == "obstacle")
    parts = [f"▲×{obstacles}"] if obstacles else []
    parts += ["+" + c["name"] for c in items if not c.get("hidden") and c.get("type") != "obstacle"]
    return " ".join(parts)


def _quest(draw, x, y, w, h, q: dict) -> None:
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"), outline=kit.rgb("ink"))
    draw.rectangle((x, y, x + w, y + 20), fill=kit.rgb("kv_quest"))
    _t(draw, (x + 4, y + 1), _fit("Q " + q.get("label", q["name"]), w - 8, 16, True), 16, "ink", True)
    for i, cond in enumerate((q.get("conditions_en") or q.get("conditions", []))[:3]):
        _t(draw, (x + 4, y + 21 + 18 * i), _fit(f"{i + 1}. {cond}", w - 8, 16), 16)
    tag = f"DP {q['dp']} · {q.get('mp', 0)} MP"
    _t(draw, (x + w - 4, y + h - 19), tag, 16, "ink", True, "ra")
    att = _attach_text(q.get("attached", []))
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


def _side(draw, y, view: dict, seat: int, viewer) -> None:
    p = view["players"][seat]
    own = viewer == seat
    colour = kit.PLAYER_COLOURS[seat]
    draw.rectangle((PAD, y, W - PAD, y + SIDE_H - 6), fill=kit.rgb("kv_side"), outline=kit.rgb(colour), width=3)
    to_act = seat in view.get("to_act", [])
    kit.badge(draw, (PAD + 22, y + 22), 16, colour, kit.PLAYER_LETTERS[seat],
              outline="highlight" if to_act else "ink")
    names = view.get("player_names") or []
    who = "you" if own else f"seat {seat + 1}"
    if seat < len(names):  # the host adds the players' display names
        who = f"{names[seat]}, you" if own else names[seat]
    head = _fit(f"{p['deck_name']} ({who})", 330, 18, True)
    _t(draw, (PAD + 46, y + 5), head, 18, "ink", True)
    if to_act:
        _t(draw, (PAD + 56 + _width(head, 18, True), y + 5), "▶ TO ACT", 18, "danger", True)
    stats = f"MP {p['mp']}   DP {p['dp']}   hand {p['hand_count']}   Future {p['future_count']}"
    stats += f"   Past {p['past_count']}   Depth {p['depth_count']}"
    _t(draw, (PAD + 46, y + 25), stats, 16, "ink")
    if p["omen"]:
        o = p["omen"][0]
        label = f"Ó {o['name']} · OP {o['op']}"
        _chip(draw, W - PAD - 8 - min(330, _width(label, 16, False) + 12), y + 8, label, "kv_omen", 330)
    # towers and quests
    ty = y + 46
    tw, th = 126, 96
    for i, t in enumerate(p["towers"]):
        _tower(draw, PAD + 8 + i * (tw + 6), ty, tw, th, t, i + 1, own)
    qx = PAD + 8 + 3 * (tw + 6) + 8
    qw = (W - PAD - 8 - qx - 12) // 3
    for i, q in enumerate(p["quests"][:3]):
        _quest(draw, qx + i * (qw + 6), ty, qw, th, q)
    if not p["quests"]:
        _t(draw, (qx + 4, ty + 30), "no quests awaiting", 16, "dark_grey")
    # the Row (and the team while a maneuver runs)
    ry = ty + th + 8
    m = view.get("maneuver")
    front = set(m["front"]) if m else set()
    cards = [(a, None) for a in p["row"]]
    cards += [(a, "TEAM·FRONT" if a["id"] in front else "TEAM·BACK") for a in p["team"]]
    _t(draw, (PAD + 8, ry), "ROW", 16, "dark_grey", True)
    if not cards:
        _t(draw, (PAD + 60, ry + 60), "no adventurers", 16, "dark_grey")
    last_ids = {str(e.get("card")) for e in view.get("last", [])}
    per_line = (W - 2 * PAD - 56) // (CARD_W + 6)
    for i, (a, rank) in enumerate(cards[:per_line]):
        _adventurer(draw, PAD + 48 + i * (CARD_W + 6), ry, a, rank, a["id"] in last_ids)
    if len(cards) > per_line:
        _t(draw, (W - PAD - 8, ry + CARD_H - 18), f"+{len(cards) - per_line} more", 16, "ink", True, "ra")
    # buildings, allies, store, solved quests, cards in play
    cy = ry + CARD_H + 8
    x = PAD + 8
    chips = [(f"B {b.get('label', b['name'])} DP{b['dp']}" + (" ▲" * len(b.get("attached", []))), "kv_building")
             for b in p["buildings"]]
    chips += [(f"S {a['name']} SZP {a['szp']}", "kv_ally") for a in p["allies"]]
    chips += [(f"Store: {c.get('label', c['name'])}", "kv_action") for c in p["store"]]
    chips += [(f"Solved: {q['name']} DP{q['dp']}", "kv_quest") for q in p["solved"]]
    chips += [(f"E {e['name']}", "kv_event") for e in p["events"]]
    if not chips:
        _t(draw, (x, cy + 4), "no buildings, allies, stored gear or solved quests", 16, "dark_grey")
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


def _event_line(e: dict, names: dict[str, str]) -> str | None:
    t = e.get("type")

    def nm(k):
        return names.get(str(e.get(k)), e.get("name") or "?")

    if t == "attack_roll":
        return (f"{e['name']}: {e['dice'][0]}+{e['dice'][1]} vs threshold {e['threshold']} — "
                + ("HIT" if e["hit"] else "miss"))
    if t == "beast_roll":
        return f"beast: {e['dice'][0]}+{e['dice'][1]} vs ATTACK {e['attack']} — " + ("HIT" if e["hit"] else "miss")
    if t == "damaged":
        return f"{nm('card')} takes {e['amount']} damage (level {e['level']})"
    if t == "died":
        return f"{e['name']} dies"
    if t == "combat_result":
        return f"combat: team levels {e['levels'][0]} : {e['levels'][1]}"
    if t in ("summoned", "activated", "obstacle_activated"):
        return f"{kit.PLAYER_LETTERS[e['seat']]}: {e['name']}"
    if t == "quest_solved":
        return f"{kit.PLAYER_LETTERS[e['seat']]} solves {e['name']} (+{e['dp']} DP)"
    if t == "tower_destroyed":
        return f"tower level {e['name']} destroyed"
    if t == "game_over":
        w = e.get("winner")
        reason = REASONS.get(e["reason"], e["reason"])
        return ("draw" if w is None else f"{kit.PLAYER_LETTERS[w]} wins") + f": {reason}"
    return None


def _middle(draw, y, h, view: dict) -> None:
    names = _names(view)
    draw.rectangle((PAD, y, W - PAD, y + h), fill=kit.rgb("kv_thread"), outline=kit.rgb("ink"))
    th = view.get("thread")
    _t(draw, (PAD + 8, y + 6), "TIME THREAD" + (" (closed)" if th is None else f" · {len(th)} open"), 18,
       "ink", True)
    if th:
        for i, it in enumerate(reversed(th[-5:])):
            who = kit.PLAYER_LETTERS[it["seat"]]
            tg = ", ".join(names.get(t, t) for t in it.get("targets", []))
            label = f"{'TOP ' if i == 0 else '    '}{who}: {it['name']}" + (f" → {tg}" if tg else "")
            if it["kind"] == "trigger":
                label += " (timed)"
            kit.badge(draw, (PAD + 20, y + 40 + i * 22), 9, kit.PLAYER_COLOURS[it["seat"]], who, size=11)
            _t(draw, (PAD + 34, y + 31 + i * 22), _fit(label, 440, 16), 16)
    elif th is not None:
        _t(draw, (PAD + 20, y + 34), "empty: both passing closes it", 16, "dark_grey")
    m = view.get("maneuver")
    x2 = W // 2 + 10
    if m:
        who = kit.PLAYER_LETTERS[m["initiator"]]
        tgt = names.get(m["target"], m["target"] or "")
        _t(draw, (x2, y + 6), _fit(f"{MANEUVER_LABEL[m['kind']]} by {who} → {tgt}", W // 2 - 30, 18, True),
           18, "danger", True)
        step = m["step"].replace("_", " ")
        extra = f" · combat round {m['combat_round']}" if m["combat_round"] else ""
        if "wall" in m:
            extra += f" · WALL {m['wall']}"
        _t(draw, (x2, y + 30), f"step: {step}{extra}", 16)
    lines = [ln for ln in (_event_line(e, names) for e in view.get("last", [])) if ln][-4:]
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
    title = f"Kiválasztottak · round {view['round']} · {STAGE_LABEL.get(view['stage'], view['stage'])}"
    if view["stage"] == "maneuvers" or view.get("maneuver"):
        title += f" · active: {kit.PLAYER_LETTERS[view['active']]}"
    res = view.get("result")
    if res:
        w = res.get("winner")
        title = ("GAME OVER · " + ("draw" if w is None else f"{kit.PLAYER_LETTERS[w]} wins")
                 + f" ({REASONS.get(res['reason'], res['reason'])})")
    _t(draw, (PAD + 4, 8), title, 20, "white", True)
    if view.get("to_act") and not res:
        names = view.get("player_names") or []
        acting = (", " if names else "").join(_fit(f"{kit.PLAYER_LETTERS[s]} {names[s]}", 170, 18, True) if s < len(names)
                           else kit.PLAYER_LETTERS[s] for s in view["to_act"])
        pend = view.get("pending") or []
        what = pend[0]["kind"].replace("_", " ") if pend else "priority"
        _t(draw, (W - PAD - 4, 8), f"to act: {acting} ({what})", 18, "highlight", True, "ra")
    y = 40
    _side(draw, y, view, top, viewer)
    y += SIDE_H
    _middle(draw, y, mid_h, view)
    y += mid_h + 8
    _side(draw, y, view, bottom, viewer)
    return kit.encode(img, PALETTE)


def _hand_card(draw, x, y, w, h, c: dict, playable: bool) -> None:
    t = c["type"]
    draw.rectangle((x, y, x + w, y + h), fill=kit.rgb("white"),
                   outline=kit.rgb("highlight" if playable else "ink"), width=4 if playable else 1)
    draw.rectangle((x, y, x + w, y + 28), fill=kit.rgb(f"kv_{t}"))
    dark = t in ("event", "omen", "obstacle", "adventurer")
    _t(draw, (x + 6, y + 4), _fit(f"{TYPE_LETTER[t]} {c.get('label', c['name'])}", w - 50, 18, True), 18,
       "white" if dark else "ink", True)
    cost = "free" if t in ("quest", "building", "ally", "obstacle") else f"{c.get('mp', 0)} MP"
    _t(draw, (x + w - 6, y + 5), cost, 16, "white" if dark else "ink", True, "ra")
    _t(draw, (x + 6, y + 32), _fit(c["name_hu"], w - 12, 16), 16, "dark_grey")
    info = ""
    if t == "adventurer":
        info = (f"Lv {c['base_level']} · P{c['phys']} A{c['astral']} M{c['mental']} · "
                f"{c.get('subcaste_en', c['subcaste'])}")
        body = ", ".join(c.get("skills_en") or c["skills"]) + (" · " + c["text"] if c.get("text") else "")
    elif t == "quest":
        info = f"DP {c['dp']} · solve {c['mp']} MP · {c['location']}"
        body = " | ".join(c.get("conditions_en") or c["conditions"]) + " · " + c["text"]
    elif t in ("building", "ally"):
        info = (f"DP {c['dp']}" if t == "building" else f"SZP {c['szp']}") + f" · needs {c.get('condition_en', c['condition'])}"
        body = c["text"]
    elif t == "obstacle":
        info = f"{c['kind']}" + (" · ANIMATE" if c.get("animate") else "")
        if c["kind"] == "beast":
            info += f" · N{c['number']} A{c['attack']} D{c['damage']}"
        body = c["text"]
    else:
        if c.get("damage"):
            info = f"{c['range']} attack {c['damage']} dmg · {c['phase']} phase · {c['duration']}"
        else:
            kind = (c.get("action_type") or "event").replace("_", " ")
            info = f"{kind} · {c['phase']} phase · {c['duration']}"
        body = c["text"]
    _t(draw, (x + 6, y + 52), _fit(info, w - 12, 16, True), 16, "ink", True)
    for i, line in enumerate(_wrap(body, w - 12, 16, lines=3)):
        _t(draw, (x + 6, y + 74 + 19 * i), line, 16)
    if playable:
        _t(draw, (x + w - 6, y + h - 4), "playable now", 16, "ok", True, "rd")


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
    p = view["players"][view["seat"]]
    _t(draw, (PAD + 4, 10), f"Your hand ({len(hand)}) · MP {p['mp']} · DP {p['dp']}", 20, "white", True)
    if not hand:
        _t(draw, (PAD + 4, 60), "no cards in hand", 18, "white")
    for i, c in enumerate(hand):
        x = PAD + (i % cols) * (cw + 8)
        y = 42 + (i // cols) * (ch + 8)
        _hand_card(draw, x, y, cw, ch, c, c["id"] in playable)
    return kit.encode(img, PALETTE)
