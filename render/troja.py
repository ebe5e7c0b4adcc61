"""Troja pictures: the table (every hero with stats, Glory track, wrath, attachments and the Trojans waiting
in front of him; the challenge being played and the current fight with both fate cards and totals) and a
player's hand with the cards playable now marked.

Reads views only. Card names and stats come from the static card catalogue (public data). Colour is never
the only cue: seats carry letters, card kinds a letter tag, playable cards a tick and a label.
"""

from __future__ import annotations

import json
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

W = 1000
PANEL_H = 168
HEADER_H = 56

KIND_STYLE = {  # colour, tag letter(s), label
    "unit": ("troja_wine", "U", "Trojan unit"),
    "trojan": ("reddish_purple", "TH", "Trojan hero"),
    "beast": ("troja_night", "B", "Beast"),
    "intervention": ("troja_sea", "I", "Intervention"),
    "item": ("troja_bronze", "IT", "Item"),
    "ally": ("troja_olive", "AU", "Achaean unit"),
    "event": ("orange", "E", "Event"),
    "modifier": ("dark_grey", "M", "Modifier"),
}
STAT_LETTER = {"strength": "STR", "tactics": "TAC"}


@lru_cache(maxsize=4096)
def _mask(s: str, size: int, bold: bool) -> tuple[Image.Image, int]:
    """Antialiased text as an L mask, rendered once: pasting it is far cheaper than drawing text again."""
    f = kit.font(size, bold)
    ascent, descent = f.getmetrics()
    mask = Image.new("L", (max(1, int(f.getlength(s)) + 2), ascent + descent), 0)
    from PIL import ImageDraw

    ImageDraw.Draw(mask).text((0, ascent), s, font=f, fill=255, anchor="ls")
    return mask, ascent


def _text(img: Image.Image, xy, s: str, size: int = 18, fill="ink", bold: bool = False, anchor: str = "la") -> None:
    if not s:
        return
    mask, ascent = _mask(s, size, bold)
    x, y = xy
    w, h = mask.size
    x0 = {"l": x, "m": x - w // 2, "r": x - w}[anchor[0]]
    y0 = {"a": y, "m": y - h // 2, "s": y - ascent}[anchor[1]]
    img.paste(kit.rgb(fill), (int(x0), int(y0)), mask)


def _name(key: str, lang: str) -> str:
    for table in (TYPES, HEROES, PATRONS):
        if key in table:
            return table[key]["names"].get(lang) or table[key]["names"]["en"]
    return key


def player_name(view: dict, seat: int) -> str:
    """The display name of a seat's player (the host adds ``view["player_names"]``), without characters the
    font cannot draw (emoji); empty when the view has no names (e.g. snapshot tests)."""
    names = view.get("player_names") or []
    if not 0 <= seat < len(names) or not names[seat]:
        return ""
    cleaned = "".join(ch for ch in str(names[seat]) if ord(ch) <= 0xFFFF and ch not in "\u200d\ufe0f\ufe0e")
    return " ".join(cleaned.split())


def _who(view: dict, seat: int) -> str:
    """"Ann (A)", or just the seat letter when the name is unknown."""
    name = player_name(view, seat)
    letter = kit.PLAYER_LETTERS[seat]
    return f"{name} ({letter})" if name else letter


def _seat_badge(draw, xy, seat: int, radius: int = 17) -> None:
    kit.badge(draw, xy, radius, kit.PLAYER_COLOURS[seat], kit.PLAYER_LETTERS[seat], size=20)


def _card_stats(cid: str, grow: int = 0) -> str:
    card = card_type(cid)
    parts = []
    if card.get("strength"):
        parts.append(f"S{card['strength'] + grow}")
    if card.get("tactics"):
        parts.append(f"T{card['tactics'] + (grow if not card.get('strength') else 0)}")
    if "glory" in card:
        parts.append(f"G{card['glory']}")
    if card["kind"] == "beast":
        parts.append(f"P{card['power']}")
    return " ".join(parts)


def _chip(img, draw, x: int, y: int, cid: str, lang: str, max_w: int, grow: int = 0, mark: str = "") -> int:
    """A small card chip: kind tag, name, stats. Returns its width."""
    card = card_type(cid)
    colour, tag, _ = KIND_STYLE[card["kind"]]
    stats = _card_stats(cid, grow) if card["kind"] in ("unit", "trojan", "beast") else _attach_bonus(cid)
    label = f"{_name(card['key'], lang)}"
    tail = f" {stats}{mark}" if stats or mark else ""
    w_tag = kit.text_width(tag, 16, True) + 10
    label = kit.fit_text(label, max_w - w_tag - kit.text_width(tail, 16) - 14, 16)
    width = w_tag + kit.text_width(label + tail, 16) + 14
    draw.rounded_rectangle((x, y, x + width, y + 26), 5, fill=kit.rgb("white"), outline=kit.rgb(colour), width=2)
    draw.rectangle((x + 2, y + 2, x + w_tag, y + 24), fill=kit.rgb(colour))
    _text(img, (x + 5 + (w_tag - 10) // 2, y + 13), tag, 15, "white", True, "mm")
    _text(img, (x + w_tag + 6, y + 13), label + tail, 16, "ink", anchor="lm")
    return width


def _attach_bonus(cid: str) -> str:
    out = []
    for eff in card_type(cid).get("ability", []):
        if eff["op"] == "stat":
            letter = {"strength": "S", "tactics": "T", "power": "P"}[eff["stat"]]
            vs = " vs beasts" if eff.get("vs") == ["beast"] else ""
            out.append(f"+{eff['amount']}{letter}{vs}")
        elif eff["op"] == "loss_reduction":
            out.append(f"-{eff['amount']} loss")
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


def _glory_track(img, draw, x: int, y: int, gp: int, width: int) -> None:
    """24 cells; the start (12) and the goal (24) are marked; the number is printed too."""
    cell = width / 24
    for i in range(24):
        x0 = int(x + i * cell)
        x1 = int(x + (i + 1) * cell) - 2
        filled = i < gp
        colour = "gold" if filled else "panel"
        draw.rectangle((x0, y, x1, y + 18), fill=kit.rgb(colour), outline=kit.rgb("panel_dark"))
        if i in (11, 23):
            draw.line((x1 + 1, y - 4, x1 + 1, y + 22), fill=kit.rgb("ink"), width=2)
    _text(img, (x + width + 8, y + 9), f"{gp}/24", 18, "ink", True, "lm")


def _header(img, draw, view: dict, lang: str) -> None:
    draw.rectangle((0, 0, W, HEADER_H), fill=kit.rgb("troja_night"))
    phase = {"camp": "Camp", "battle": "Battlefield", "end": "End of round", "draw": "Draw", "setup": "Setup"}.get(
        view["phase"], view["phase"])
    title = f"TROJA  ·  Round {view['round']}/{view['max_rounds']}  ·  {phase}"
    _text(img, (16, HEADER_H // 2), title, 22, "white", True, "lm")
    info = f"Deck {view['deck_size']}  Discard {view['discard_size']}"
    _text(img, (W - 16, HEADER_H // 2), info, 18, "troja_sand", anchor="rm")


_PANELS: dict[str, Image.Image] = {}


def _player_panel(view: dict, seat: int, lang: str) -> Image.Image:
    """One hero's panel; panels are cached by their content, so an action redraws only what changed."""
    p = view["players"][seat]
    key = json.dumps([p, lang, player_name(view, seat), view["turn"] == seat, view.get("camp_seat") == seat, seat in view["to_act"],
                      view["phase"]], sort_keys=True)
    panel = _PANELS.get(key)
    if panel is None:
        if len(_PANELS) > 256:
            _PANELS.clear()
        panel, draw = kit.canvas(W, PANEL_H, "table")
        _draw_panel(panel, draw, view, seat, 0, lang)
        _PANELS[key] = panel
    return panel


def _draw_panel(img, draw, view: dict, seat: int, y: int, lang: str) -> None:
    p = view["players"][seat]
    hero = HEROES[p["hero"]]
    over = bool(view.get("result"))  # a finished game has no turn player
    active = not over and (view["turn"] == seat or view.get("camp_seat") == seat)
    to_act = seat in view["to_act"]
    border = "highlight" if active else "panel_dark"
    draw.rounded_rectangle((8, y + 4, W - 8, y + PANEL_H - 4), 10, fill=kit.rgb("troja_sand"),
                           outline=kit.rgb(border), width=4 if active else 2)
    _seat_badge(draw, (34, y + 30), seat)
    name = _name(p["hero"], lang)
    patron = _name(p["patron"], lang)
    _text(img, (58, y + 30), name, 24, "ink", True, "lm")
    nx = 58 + kit.text_width(name, 24, True) + 12
    player = player_name(view, seat)
    if player:  # who plays this hero, next to it (long names are shortened)
        player = kit.fit_text(player, 260, 20, True)
        _text(img, (nx, y + 31), player, 20, "troja_sea", True, "lm")
        nx += kit.text_width(player, 20, True) + 12
    _text(img, (nx, y + 31), f"patron {patron}", 17, "dark_grey", anchor="lm")
    tags = []
    if view["turn"] == seat and not over:
        tags.append("TURN")
    if to_act:
        tags.append("TO ACT")
    if view.get("phase") == "end" and p.get("done"):
        tags.append("DONE")
    tx = W - 20
    for tag in reversed(tags):
        tw = kit.text_width(tag, 16, True) + 16
        fill = "troja_wine" if tag == "TO ACT" else "ink"
        draw.rounded_rectangle((tx - tw, y + 16, tx, y + 42), 6, fill=kit.rgb(fill))
        _text(img, (tx - tw // 2, y + 29), tag, 16, "white", True, "mm")
        tx -= tw + 8
    # stats line
    stats = [("STR", p["strength"], hero["strength"]), ("TAC", p["tactics"], hero["tactics"]),
             ("POW", p["power"], hero["power"])]
    x = 20
    for label, value, base in stats:
        s = f"{label} {value}" + ("*" if value != base else "")
        _text(img, (x, y + 66), s, 19, "ink", True, "lm")
        x += kit.text_width(s, 19, True) + 16
    _text(img, (x, y + 66), f"LOSS {hero['glory']}", 19, "troja_wine", True, "lm")
    x += kit.text_width(f"LOSS {hero['glory']}", 19, True) + 18
    # wrath tokens: filled discs with W, spent ones hollow
    _text(img, (x, y + 66), "Wrath", 17, "dark_grey", anchor="lm")
    x += kit.text_width("Wrath", 17) + 16
    for i in range(2):
        if i < p["wrath"]:
            kit.badge(draw, (x + i * 30, y + 66), 12, "vermillion", "W", size=14)
        else:
            draw.ellipse((x + i * 30 - 12, y + 54, x + i * 30 + 12, y + 78), outline=kit.rgb("grey"), width=2)
    x += 64
    _text(img, (x, y + 66), f"Hand {p['hand_size']}", 18, "ink", anchor="lm")
    _glory_track(img, draw, 20, y + 88, p["gp"], 470)
    ability = HEROES[p["hero"]]["text"].get(lang) or HEROES[p["hero"]]["text"]["en"]
    lines = _wrap(ability, W - 600, 16)
    if len(lines) > 2:
        lines = [lines[0], kit.fit_text(" ".join(lines[1:]), W - 600, 16)]
    for i, line in enumerate(lines):
        _text(img, (580, y + (97 if len(lines) == 1 else 88 + 19 * i)), line, 16, "dark_grey", anchor="lm")
    # attachments (left) and waiting Trojans/beasts (right)
    x = 20
    row_y = y + 122
    if not p["attached"]:
        _text(img, (x, row_y + 13), "No items or units", 16, "grey", anchor="lm")
        x += kit.text_width("No items or units", 16)
    for cid in p["attached"]:
        if x > 470:
            _text(img, (x, row_y + 13), "…", 18, anchor="lm")
            break
        x += _chip(img, draw, x, row_y, cid, lang, 200) + 6
    # Trojan heroes and beasts in front of the hero: "Attacks" at his next turn start, or "Moves on" (placed
    # this round, they move clockwise at the end of the round)
    x = max(x + 10, 470)
    for arrived, label in ((True, "Attacks:"), (False, "Moves on:")):
        group = [r for r in p["roamers"] if r["arrived"] == arrived]
        if not group:
            continue
        _text(img, (x, row_y + 13), label, 17, "troja_wine" if arrived else "dark_grey", True, "lm")
        x += kit.text_width(label, 17, True) + 6
        for r in group:
            if x > W - 120:
                _text(img, (x, row_y + 13), "…", 18, anchor="lm")
                break
            x += _chip(img, draw, x, row_y, r["card"], lang, W - 20 - x, r.get("grow", 0)) + 6
        x += 8


def _fate_box(img, draw, x: int, y: int, cards: list[dict], extra: list[dict]) -> int:
    """Fate cards as dice (Cerberus' two, the better counts; extra fate cards after a +)."""
    if not cards:
        _text(img, (x, y + 20), "fate ?", 18, "dark_grey", anchor="lm")
        return x + 60
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


def _fight_panel(img, draw, view: dict, y: int, lang: str) -> int:
    a = view["assault"]
    fight = view["fight"]
    players = view["players"]
    height = _fight_height(view)
    draw.rounded_rectangle((8, y, W - 8, y + height - 8), 10, fill=kit.rgb("white"), outline=kit.rgb("troja_wine"),
                           width=3)
    target = a["target"]
    tname = _name(players[target]["hero"], lang)
    if a["origin"] == "duel":
        title = f"DUEL: {_name(players[a['by']]['hero'], lang)} challenges {tname}"
    elif a["origin"] == "roam":
        title = f"ATTACK at turn start on {tname}"
    else:
        own = " (on himself)" if a["by"] == target else ""
        title = f"CHALLENGE on {tname}{own} by {_who(view, a['by'])}"
    _text(img, (24, y + 22), kit.fit_text(title, W - 290, 21, True), 21, "troja_wine", True, "lm")
    step = {"build": "being built", "join": "others may add a card", "fate": "fate window: play or pass"}.get(
        view["step"], "")
    if step:
        _text(img, (W - 24, y + 22), step, 17, "dark_grey", anchor="rm")
    # the fights of this challenge with their totals before fate
    x = 24
    fy = y + 44
    for i, f in enumerate(a["fights"]):
        current = a["index"] == i
        label = "Duel" if f["duel"] else ("Battle" if f["kind"] == "tactics" else "Duel")
        names = " + ".join(_name(k, lang) for k in f["keys"]) or "hero"
        s = f"{i + 1}. {label} ({STAT_LETTER[f['kind']]}): {names}  {f['attacker']} vs {f['defender']}"
        if f["glory"]:
            s += f"  G{f['glory']}"
        if f["done"]:
            s += "  done"
        colour = "ink" if current or a["index"] is None else "dark_grey"
        _text(img, (x, fy + 12), kit.fit_text(("▶ " if current else "") + s, W - 60, 17), 17, colour,
                 current, "lm")
        fy += 24
        if i == 2 and len(a["fights"]) > 3:
            break
    mods = a["mods"]
    if mods:
        ms = "Modifiers: " + ", ".join(_name(card_type(m["card"])["key"], lang) for m in mods)
        _text(img, (x, fy + 12), kit.fit_text(ms, W - 60, 16), 16, "dark_grey", anchor="lm")
        fy += 22
    if fight is None:
        return y + height
    # the current fight: two sides with fate cards and totals
    by = fy + 24
    kind = STAT_LETTER[fight["kind"]]
    if fight["duel"]:
        left = _name(players[fight["attacker"]]["hero"], lang)
    else:
        left = " + ".join(_name(card_type(e["card"])["key"], lang) for e in fight["cards"])
    right = _name(players[fight["defender"]]["hero"], lang)
    base = fight.get("base", {})
    totals = fight.get("totals")
    for side, text_, x0 in (("attacker", left, 24), ("defender", right, W // 2 + 12)):
        label = f"{kit.fit_text(text_, W // 2 - 110, 19, True)} ({kind})"
        _text(img, (x0, by), label, 19, "ink", True, "lm")
        fx = x0
        if base:
            _text(img, (fx, by + 42), f"{base[side]} +", 22, "ink", True, "lm")
            fx += kit.text_width(f"{base[side]} +", 22, True) + 8
        fx = _fate_box(img, draw, fx, by + 22, fight["fate"][side], fight["extra"][side])
        mod = fight["mod"][side]
        if mod:
            _text(img, (fx + 6, by + 42), f"{mod:+d}", 22, "troja_sea", True, "lm")
            fx += kit.text_width(f"{mod:+d}", 22, True) + 10
        if totals:
            win = totals[side] > totals["defender" if side == "attacker" else "attacker"]
            _text(img, (fx + 10, by + 42), f"= {totals[side]}", 26, "ok" if win else "ink", True, "lm")
    if totals:
        if totals["attacker"] == totals["defender"]:
            tie = fight.get("tie_to")
            note = "Tie: nothing happens" if tie is None else f"Tie: goes to the {tie}"
        else:
            who = "attacker" if totals["attacker"] > totals["defender"] else "defender"
            if who == "defender":
                note = f"{right} leads: +{fight.get('glory', 0)} Glory if it stays so"
                if fight["duel"]:
                    note += f", {left} would lose {fight['loss']['attacker']}"
            elif fight["duel"]:
                note = f"{left} leads: +{fight.get('glory', 0)} Glory, {right} would lose {fight['loss']['defender']}"
            else:
                note = f"The Trojan side leads: {right} would lose {fight['loss']['defender']} Glory"
        if fight["cancelled"]:
            note = "Fight cancelled"
        _text(img, (W // 2, by + 88), note, 18, "troja_wine", True, "mm")
    return y + height


def _result_panel(img, draw, view: dict, y: int, lang: str) -> int:
    r = view["result"]
    draw.rounded_rectangle((8, y, W - 8, y + 60), 10, fill=kit.rgb("gold"), outline=kit.rgb("ink"), width=2)
    if r["winner"] is not None:
        s = f"{_who(view, r['winner'])} wins with {_name(view['players'][r['winner']]['hero'], lang)}"
    else:
        s = "Game over: shared first place"
    reason = {"glory": "24 Glory", "round_limit": "round limit: most Glory"}.get(r["reason"], r["reason"])
    _text(img, (W // 2, y + 30), kit.fit_text(f"{s} ({reason})", W - 48, 22, True), 22, "ink", True, "mm")
    return y + 68


def _last_line(img, draw, view: dict, y: int, lang: str = "en") -> int:
    results = [e for e in view.get("last", []) if e["type"] == "fight_result"]
    if not results:
        return y
    e = results[-1]
    hero = _name(view["players"][e["target"]]["hero"], lang)
    if e.get("cancelled"):
        s = f"Last fight (against {hero}): cancelled"
    elif e["winner"] is None:
        s = f"Last fight: {hero} tied {e['defender_total']} to {e['attacker_total']}"
    elif e["winner"] == "defender":
        s = f"Last fight: {hero} won {e['defender_total']} to {e['attacker_total']}"
    elif e.get("duel"):
        other = _name(view["players"][e["attacker"]]["hero"], lang)
        s = f"Last fight: {other} beat {hero} {e['attacker_total']} to {e['defender_total']}"
    else:
        s = f"Last fight: {hero} was beaten {e['attacker_total']} to {e['defender_total']}"
    _text(img, (20, y + 14), s, 17, "white", anchor="lm")
    return y + 28


def _fight_height(view: dict) -> int:
    a = view.get("assault")
    if not a:
        return 0
    rows = min(len(a["fights"]), 3) + (1 if a["mods"] else 0)
    return 56 + 24 * rows + (150 if view.get("fight") else 0)


def render_public(view: dict, lang: str = "en") -> bytes:
    """The table everyone sees."""
    n = len(view["players"])
    fight_h = _fight_height(view)
    height = HEADER_H + n * PANEL_H + fight_h + 16 + (68 if view.get("result") else 0) + 28
    img, draw = kit.canvas(W, height, "table")
    _header(img, draw, view, lang)
    y = HEADER_H + 6
    for seat in range(n):
        img.paste(_player_panel(view, seat, lang), (0, y))
        y += PANEL_H
    if view.get("result"):
        y = _result_panel(img, draw, view, y + 4, lang)
    if view.get("assault"):
        _fight_panel(img, draw, view, y + 4, lang)
        y += fight_h
    _last_line(img, draw, view, y + 4)
    return kit.encode(img, PALETTE)


# -------------------------------------------------------------------------------------------------- hand

CARD_W, CARD_H = 190, 236


def _wrap(s: str, width: int, size: int) -> list[str]:
    words, lines, line = s.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if kit.text_width(trial, size) <= width:
            line = trial
        else:
            if line:
                lines.append(line)
            line = word
    if line:
        lines.append(line)
    return lines


@lru_cache(maxsize=256)
def _card_image(cid_key: str, card_face: int, lang: str) -> Image.Image:
    card = TYPES[cid_key]
    colour, tag, label = KIND_STYLE[card["kind"]]
    img, d = kit.canvas(CARD_W, CARD_H, "white")
    d.rectangle((0, 0, CARD_W - 1, 34), fill=kit.rgb(colour))
    _text(img, (8, 17), tag, 18, "white", True, "lm")
    _text(img, (CARD_W - 8, 17), kit.fit_text(label, CARD_W - 50, 16), 16, "white", anchor="rm")
    y = 40
    for line in _wrap(_name(cid_key, lang), CARD_W - 16, 18)[:2]:
        _text(img, (8, y), line, 18, "ink", True)
        y += 22
    facts = []
    if card.get("strength"):
        facts.append(f"STR {card['strength']}")
    if card.get("tactics"):
        facts.append(f"TAC {card['tactics']}")
    if "glory" in card:
        facts.append(f"GLORY {card['glory']}")
    if card["kind"] in ("beast", "intervention"):
        facts.append(f"POWER {card['power']}")
    if "cost" in card:
        facts.append(f"COST {card['cost']}")
    if card["kind"] == "modifier":
        facts.append(("+" + str(card["amount"])) + (" hero" if card["side"] == "defender" else " Trojans"))
    y += 2
    # the facts wrap between items (never inside one): a beast's POWER must not be cut off
    fact_lines: list[str] = []
    for fact in facts:
        trial = f"{fact_lines[-1]}  {fact}" if fact_lines else fact
        if fact_lines and kit.text_width(trial, 16, True) <= CARD_W - 16:
            fact_lines[-1] = trial
        else:
            fact_lines.append(fact)
    for line in fact_lines[:2] or [""]:
        _text(img, (8, y), kit.fit_text(line, CARD_W - 16, 16, True), 16, "troja_wine", True)
        y += 20
    y += 4
    text = card.get("text", {}).get(lang) or card.get("text", {}).get("en", "")
    for line in _wrap(text, CARD_W - 16, 15)[:6 - len(fact_lines)]:
        _text(img, (8, y), line, 15, "dark_grey")
        y += 19
    img.paste(_die(card_face, 30), (CARD_W - 38, CARD_H - 38))
    return img


def render_private(view: dict, lang: str = "en") -> bytes | None:
    """The viewer's hand; cards playable right now carry a green frame, a tick and the word PLAYABLE."""
    if view.get("seat") is None or "hand" not in view:
        return None
    hand = view["hand"]
    playable = set(view.get("playable", []))
    per_row = 5
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    height = 64 + rows * (CARD_H + 44)
    img, draw = kit.canvas(W, height, "table")
    seat = view["seat"]
    me = view["players"][seat]
    _seat_badge(draw, (28, 30), seat)
    title = f"Your hand ({len(hand)}/{me['hand_limit']}) · {_name(me['hero'], lang)} · POWER {me['power']} · " \
            f"Wrath {me['wrath']}"
    _text(img, (52, 30), kit.fit_text(title, W - 70, 20), 20, "white", True, "lm")
    if not hand:
        _text(img, (W // 2, 64 + CARD_H // 2), "No cards in hand", 22, "white", True, "mm")
    for i, cid in enumerate(hand):
        col, row = i % per_row, i // per_row
        x = 10 + col * (CARD_W + 8)
        y = 60 + row * (CARD_H + 44)
        card = _card_image(card_type(cid)["key"], face(cid), lang)
        ok = cid in playable
        if not ok and playable:
            card = Image.blend(card, Image.new("RGB", card.size, kit.rgb("grey")), 0.35)
        img.paste(card, (x, y))
        outline = "troja_playable" if ok else "panel_dark"
        draw.rectangle((x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2), outline=kit.rgb(outline), width=5 if ok else 2)
        if ok:
            draw.rectangle((x - 3, y + CARD_H + 4, x + CARD_W + 2, y + CARD_H + 32), fill=kit.rgb("troja_playable"))
            _text(img, (x + CARD_W // 2, y + CARD_H + 18), "✓ PLAYABLE", 17, "white", True, "mm")
    return kit.encode(img, PALETTE)
