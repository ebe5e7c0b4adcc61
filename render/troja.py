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


def _kind_tag(say, kind: str) -> str:
    """The letter tag of a card kind (colour is never the only cue)."""
    return {"unit": say("tag_unit"), "trojan": say("tag_trojan"), "beast": say("tag_beast"),
            "intervention": say("tag_intervention"), "item": say("tag_item"), "ally": say("tag_ally"),
            "event": say("tag_event"), "modifier": say("tag_modifier")}[kind]


def _kind_label(say, kind: str) -> str:
    return {"unit": say("kind_unit"), "trojan": say("kind_trojan"), "beast": say("kind_beast"),
            "intervention": say("kind_intervention"), "item": say("kind_item"), "ally": say("kind_ally"),
            "event": say("kind_event"), "modifier": say("kind_modifier")}[kind]


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
    return " ".join(parts)


def _chip_words(cid: str, say, lang: str, grow: int = 0) -> list:
    """What a chip shows: [kind, tag, name, stats tail]; part of the panel cache key."""
    card = card_type(cid)
    stats = _card_stats(cid, say, grow) if card["kind"] in ("unit", "trojan", "beast") else _attach_bonus(cid, say)
    return [card["kind"], _kind_tag(say, card["kind"]), _name(card["key"], lang), f" {stats}" if stats else ""]


def _chip(img, draw, x: int, y: int, words: list, max_w: int) -> int:
    """A small card chip: kind tag, name, stats. Returns its width."""
    kind, tag, label, tail = words
    colour = KIND_COLOUR[kind]
    w_tag = kit.text_width(tag, 16, True) + 10
    label = kit.fit_text(label, max_w - w_tag - kit.text_width(tail, 16) - 14, 16)
    width = w_tag + kit.text_width(label + tail, 16) + 14
    draw.rounded_rectangle((x, y, x + width, y + 26), 5, fill=kit.rgb("white"), outline=kit.rgb(colour), width=2)
    draw.rectangle((x + 2, y + 2, x + w_tag, y + 24), fill=kit.rgb(colour))
    _text(img, (x + 5 + (w_tag - 10) // 2, y + 13), tag, 15, "white", True, "mm")
    _text(img, (x + w_tag + 6, y + 13), label + tail, 16, "ink", anchor="lm")
    return width


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
        elif eff["op"] == "loss_reduction":
            out.append(say("bonus_loss", amount=eff["amount"]))
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


def _header(img, draw, view: dict, say) -> None:
    draw.rectangle((0, 0, W, HEADER_H), fill=kit.rgb("troja_night"))
    phase = {"camp": say("phase_camp"), "battle": say("phase_battle"), "end": say("phase_end"),
             "draw": say("phase_draw"), "setup": say("phase_setup")}.get(view["phase"], view["phase"])
    title = say("title", round=view["round"], max_rounds=view["max_rounds"], phase=phase)
    info = say("piles", deck=view["deck_size"], discard=view["discard_size"])
    title, size = _fit(title, W - 48 - kit.text_width(info, 18), 22, True, 18)
    _text(img, (16, HEADER_H // 2), title, size, "white", True, "lm")
    _text(img, (W - 16, HEADER_H // 2), info, 18, "troja_sand", anchor="rm")


_PANELS: dict[str, Image.Image] = {}


def _panel_words(view: dict, seat: int, say) -> dict:
    """Every word of a hero's panel, in the view's language (the panel cache key includes them)."""
    p = view["players"][seat]
    lang = _lang(view)
    hero = HEROES[p["hero"]]
    over = bool(view.get("result"))
    tags = []
    if view["turn"] == seat and not over:
        tags.append([say("tag_turn"), "ink"])
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
    """One hero's panel; panels are cached by their content (words included), so an action redraws only what
    changed."""
    p = view["players"][seat]
    words = _panel_words(view, seat, say)
    over = bool(view.get("result"))
    key = json.dumps([p, words, view["turn"] == seat, view.get("camp_seat") == seat, seat in view["to_act"],
                      view["phase"], over], sort_keys=True)
    panel = _PANELS.get(key)
    if panel is None:
        if len(_PANELS) > 256:
            _PANELS.clear()
        panel, draw = kit.canvas(W, PANEL_H, "table")
        _draw_panel(panel, draw, view, seat, 0, words)
        _PANELS[key] = panel
    return panel


def _draw_panel(img, draw, view: dict, seat: int, y: int, words: dict) -> None:
    p = view["players"][seat]
    over = bool(view.get("result"))  # a finished game has no turn player
    active = not over and (view["turn"] == seat or view.get("camp_seat") == seat)
    border = "highlight" if active else "panel_dark"
    draw.rounded_rectangle((8, y + 4, W - 8, y + PANEL_H - 4), 10, fill=kit.rgb("troja_sand"),
                           outline=kit.rgb(border), width=4 if active else 2)
    _seat_badge(draw, (34, y + 30), seat)
    name = words["name"]
    _text(img, (58, y + 30), name, 24, "ink", True, "lm")
    nx = 58 + kit.text_width(name, 24, True) + 12
    player = words["player"]
    if player:  # who plays this hero, next to it (long names are shortened)
        player = kit.fit_text(player, 260, 20, True)
        _text(img, (nx, y + 31), player, 20, "troja_sea", True, "lm")
        nx += kit.text_width(player, 20, True) + 12
    tags = words["tags"]
    tags_w = sum(kit.text_width(tag, 16, True) + 24 for tag, _ in tags)
    _text(img, (nx, y + 31), kit.fit_text(words["patron"], W - 28 - tags_w - nx, 17), 17, "dark_grey", anchor="lm")
    tx = W - 20
    for tag, fill in reversed(tags):
        tw = kit.text_width(tag, 16, True) + 16
        draw.rounded_rectangle((tx - tw, y + 16, tx, y + 42), 6, fill=kit.rgb(fill))
        _text(img, (tx - tw // 2, y + 29), tag, 16, "white", True, "mm")
        tx -= tw + 8
    # stats line (a smaller size when a language's words would run past the panel)
    wrath_w = kit.text_width(words["wrath"], 17) + 16 + 64
    size = 19
    while size > 15 and (sum(kit.text_width(s, size, True) + 16 for s in words["stats"]) + 2
                         + kit.text_width(words["loss"], size, True) + 18 + wrath_w
                         + kit.text_width(words["hand"], size - 1) > W - 44):
        size -= 1
    x = 20
    for s in words["stats"]:
        _text(img, (x, y + 66), s, size, "ink", True, "lm")
        x += kit.text_width(s, size, True) + 16
    _text(img, (x, y + 66), words["loss"], size, "troja_wine", True, "lm")
    x += kit.text_width(words["loss"], size, True) + 18
    # wrath tokens: filled discs with a letter (W in English), spent ones hollow
    _text(img, (x, y + 66), words["wrath"], 17, "dark_grey", anchor="lm")
    x += kit.text_width(words["wrath"], 17) + 16
    for i in range(2):
        if i < p["wrath"]:
            kit.badge(draw, (x + i * 30, y + 66), 12, "vermillion", words["wrath_mark"], size=14)
        else:
            draw.ellipse((x + i * 30 - 12, y + 54, x + i * 30 + 12, y + 78), outline=kit.rgb("grey"), width=2)
    x += 64
    _text(img, (x, y + 66), words["hand"], size - 1, "ink", anchor="lm")
    _glory_track(img, draw, 20, y + 88, p["gp"], 470)
    lines = _wrap(words["ability"], W - 600, 16)
    if len(lines) > 2:
        lines = [lines[0], kit.fit_text(" ".join(lines[1:]), W - 600, 16)]
    for i, line in enumerate(lines):
        _text(img, (580, y + (97 if len(lines) == 1 else 88 + 19 * i)), line, 16, "dark_grey", anchor="lm")
    # attachments (left) and waiting Trojans/beasts (right)
    x = 20
    row_y = y + 122
    if not words["attached"]:
        empty = kit.fit_text(words["no_attached"], 440, 16)
        _text(img, (x, row_y + 13), empty, 16, "grey", anchor="lm")
        x += kit.text_width(empty, 16)
    for chip in words["attached"]:
        if x > 470:
            _text(img, (x, row_y + 13), "…", 18, anchor="lm")
            break
        x += _chip(img, draw, x, row_y, chip, 200) + 6
    # Trojan heroes and beasts in front of the hero: "Attacks" at his next turn start, or "Moves on" (placed
    # this round, they move clockwise at the end of the round)
    x = max(x + 10, 470)
    for arrived, label, group in words["roamers"]:
        if not group:
            continue
        _text(img, (x, row_y + 13), label, 17, "troja_wine" if arrived else "dark_grey", True, "lm")
        x += kit.text_width(label, 17, True) + 6
        for chip in group:
            if x > W - 120:
                _text(img, (x, row_y + 13), "…", 18, anchor="lm")
                break
            x += _chip(img, draw, x, row_y, chip, W - 20 - x) + 6
        x += 8


def _fate_box(img, draw, x: int, y: int, cards: list[dict], extra: list[dict], say) -> int:
    """Fate cards as dice (Cerberus' two, the better counts; extra fate cards after a +)."""
    if not cards:
        _text(img, (x, y + 20), say("fate_unknown"), 18, "dark_grey", anchor="lm")
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


def _fight_panel(img, draw, view: dict, y: int, say) -> int:
    lang = _lang(view)
    a = view["assault"]
    fight = view["fight"]
    players = view["players"]
    height = _fight_height(view)
    draw.rounded_rectangle((8, y, W - 8, y + height - 8), 10, fill=kit.rgb("white"), outline=kit.rgb("troja_wine"),
                           width=3)
    target = a["target"]
    tname = _name(players[target]["hero"], lang)
    if a["origin"] == "duel":
        title = say("title_duel", attacker=_name(players[a["by"]]["hero"], lang), target=tname)
    elif a["origin"] == "roam":
        title = say("title_attack", target=tname)
    else:
        own = say("on_himself") if a["by"] == target else ""
        title = say("title_challenge", target=tname, own=own, who=_who(view, a["by"]))
    step = {"build": say("step_build"), "join": say("step_join"), "fate": say("step_fate")}.get(view["step"], "")
    step = kit.fit_text(step, 380, 17)
    step_w = kit.text_width(step, 17) if step else 0
    title_w = min(W - 290, W - 72 - step_w)  # English: W - 290
    _text(img, (24, y + 22), kit.fit_text(title, title_w, 21, True), 21, "troja_wine", True, "lm")
    if step:
        _text(img, (W - 24, y + 22), step, 17, "dark_grey", anchor="rm")
    # the fights of this challenge with their totals before fate
    x = 24
    fy = y + 44
    for i, f in enumerate(a["fights"]):
        current = a["index"] == i
        label = say("fight_duel") if f["duel"] or f["kind"] != "tactics" else say("fight_battle")
        names = " + ".join(_name(k, lang) for k in f["keys"]) or say("fight_hero")
        s = say("fight_row", n=i + 1, label=label, stat=_stat_short(say, f["kind"]), names=names,
                attacker=f["attacker"], defender=f["defender"])
        if f["glory"]:
            s += say("fight_row_glory", glory=f["glory"])
        if f["done"]:
            s += say("fight_row_done")
        colour = "ink" if current or a["index"] is None else "dark_grey"
        _text(img, (x, fy + 12), kit.fit_text(("▶ " if current else "") + s, W - 60, 17), 17, colour,
                 current, "lm")
        fy += 24
        if i == 2 and len(a["fights"]) > 3:
            break
    mods = a["mods"]
    if mods:
        ms = say("modifiers", names=", ".join(_name(card_type(m["card"])["key"], lang) for m in mods))
        _text(img, (x, fy + 12), kit.fit_text(ms, W - 60, 16), 16, "dark_grey", anchor="lm")
        fy += 22
    if fight is None:
        return y + height
    # the current fight: two sides with fate cards and totals
    by = fy + 24
    kind = _stat_short(say, fight["kind"])
    if fight["duel"]:
        left = _name(players[fight["attacker"]]["hero"], lang)
    else:
        left = " + ".join(_name(card_type(e["card"])["key"], lang) for e in fight["cards"])
    right = _name(players[fight["defender"]]["hero"], lang)
    base = fight.get("base", {})
    totals = fight.get("totals")
    for side, text_, x0 in (("attacker", left, 24), ("defender", right, W // 2 + 12)):
        # the names shorten so that the stat (longer in some languages) still fits its half
        room = min(W // 2 - 110, W // 2 - 40 - kit.text_width(say("side", name="", stat=kind), 19, True))
        label = say("side", name=kit.fit_text(text_, room, 19, True), stat=kind)
        _text(img, (x0, by), label, 19, "ink", True, "lm")
        fx = x0
        if base:
            _text(img, (fx, by + 42), f"{base[side]} +", 22, "ink", True, "lm")
            fx += kit.text_width(f"{base[side]} +", 22, True) + 8
        fx = _fate_box(img, draw, fx, by + 22, fight["fate"][side], fight["extra"][side], say)
        mod = fight["mod"][side]
        if mod:
            _text(img, (fx + 6, by + 42), f"{mod:+d}", 22, "troja_sea", True, "lm")
            fx += kit.text_width(f"{mod:+d}", 22, True) + 10
        if totals:
            win = totals[side] > totals["defender" if side == "attacker" else "attacker"]
            _text(img, (fx + 10, by + 42), f"= {totals[side]}", 26, "ok" if win else "ink", True, "lm")
    if totals:
        if totals["attacker"] == totals["defender"]:
            note = {None: say("tie_nothing"), "attacker": say("tie_attacker"),
                    "defender": say("tie_defender")}[fight.get("tie_to")]
        else:
            who = "attacker" if totals["attacker"] > totals["defender"] else "defender"
            if who == "defender":
                note = say("lead_defender", hero=right, glory=fight.get("glory", 0))
                if fight["duel"]:
                    note += say("lead_defender_duel", other=left, loss=fight["loss"]["attacker"])
            elif fight["duel"]:
                note = say("lead_attacker_duel", hero=left, glory=fight.get("glory", 0), other=right,
                           loss=fight["loss"]["defender"])
            else:
                note = say("lead_trojans", hero=right, loss=fight["loss"]["defender"])
        if fight["cancelled"]:
            note = say("fight_cancelled")
        note, size = _fit(note, W - 48, 18, True, 15)
        _text(img, (W // 2, by + 88), note, size, "troja_wine", True, "mm")
    return y + height


def _result_panel(img, draw, view: dict, y: int, say) -> int:
    r = view["result"]
    draw.rounded_rectangle((8, y, W - 8, y + 60), 10, fill=kit.rgb("gold"), outline=kit.rgb("ink"), width=2)
    if r["winner"] is not None:
        s = say("result_winner", who=_who(view, r["winner"]), hero=_name(view["players"][r["winner"]]["hero"],
                                                                          _lang(view)))
    else:
        s = say("result_shared")
    reason = {"glory": say("reason_glory"), "round_limit": say("reason_round_limit")}.get(r["reason"], r["reason"])
    line, size = _fit(say("result_line", text=s, reason=reason), W - 48, 22, True, 18)
    _text(img, (W // 2, y + 30), line, size, "ink", True, "mm")
    return y + 68


def _last_line(img, draw, view: dict, y: int, say) -> int:
    results = [e for e in view.get("last", []) if e["type"] == "fight_result"]
    if not results:
        return y
    e = results[-1]
    lang = _lang(view)
    hero = _name(view["players"][e["target"]]["hero"], lang)
    att, dfd = e["attacker_total"], e["defender_total"]
    if e.get("cancelled"):
        s = say("last_cancelled", hero=hero)
    elif e["winner"] is None:
        s = say("last_tie", hero=hero, defender_total=dfd, attacker_total=att)
    elif e["winner"] == "defender":
        s = say("last_won", hero=hero, defender_total=dfd, attacker_total=att)
    elif e.get("duel"):
        other = _name(view["players"][e["attacker"]]["hero"], lang)
        s = say("last_beat", other=other, hero=hero, attacker_total=att, defender_total=dfd)
    else:
        s = say("last_beaten", hero=hero, attacker_total=att, defender_total=dfd)
    _text(img, (20, y + 14), kit.fit_text(s, W - 40, 17), 17, "white", anchor="lm")
    return y + 28


def _fight_height(view: dict) -> int:
    a = view.get("assault")
    if not a:
        return 0
    rows = min(len(a["fights"]), 3) + (1 if a["mods"] else 0)
    return 56 + 24 * rows + (150 if view.get("fight") else 0)


def render_public(view: dict, lang: str | None = None) -> bytes:
    """The table everyone sees, in ``view["lang"]`` (``lang`` overrides it)."""
    if lang:
        view = {**view, "lang": lang}
    say = kit.words("troja", view)
    n = len(view["players"])
    fight_h = _fight_height(view)
    height = HEADER_H + n * PANEL_H + fight_h + 16 + (68 if view.get("result") else 0) + 28
    img, draw = kit.canvas(W, height, "table")
    _header(img, draw, view, say)
    y = HEADER_H + 6
    for seat in range(n):
        img.paste(_player_panel(view, seat, say), (0, y))
        y += PANEL_H
    if view.get("result"):
        y = _result_panel(img, draw, view, y + 4, say)
    if view.get("assault"):
        _fight_panel(img, draw, view, y + 4, say)
        y += fight_h
    _last_line(img, draw, view, y + 4, say)
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
def _card_image(words: tuple, card_face: int) -> Image.Image:
    """One hand card; cached by its words (``_card_words``) and die face."""
    kind, tag, label, name, facts, text = words
    colour = KIND_COLOUR[kind]
    img, d = kit.canvas(CARD_W, CARD_H, "white")
    d.rectangle((0, 0, CARD_W - 1, 34), fill=kit.rgb(colour))
    _text(img, (8, 17), tag, 18, "white", True, "lm")
    label, size = _fit(label, CARD_W - 24 - kit.text_width(tag, 18, True), 16, False, 13)
    _text(img, (CARD_W - 8, 17), label, size, "white", anchor="rm")
    y = 40
    lines = _wrap(name, CARD_W - 16, 18)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    for line in lines:
        _text(img, (8, y), kit.fit_text(line, CARD_W - 16, 18, True), 18, "ink", True)
        y += 22
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
    for line in _wrap(text, CARD_W - 16, 15)[:6 - len(fact_lines)]:
        _text(img, (8, y), line, 15, "dark_grey")
        y += 19
    img.paste(_die(card_face, 30), (CARD_W - 38, CARD_H - 38))
    return img


def render_private(view: dict, lang: str | None = None) -> bytes | None:
    """The viewer's hand; cards playable right now carry a green frame, a tick and the word PLAYABLE (in
    ``view["lang"]``; ``lang`` overrides it)."""
    if view.get("seat") is None or "hand" not in view:
        return None
    if lang:
        view = {**view, "lang": lang}
    say = kit.words("troja", view)
    lang = _lang(view)
    hand = view["hand"]
    playable = set(view.get("playable", []))
    per_row = 5
    rows = max(1, (len(hand) + per_row - 1) // per_row)
    height = 64 + rows * (CARD_H + 44)
    img, draw = kit.canvas(W, height, "table")
    seat = view["seat"]
    me = view["players"][seat]
    _seat_badge(draw, (28, 30), seat)
    title = say("hand_title", count=len(hand), limit=me["hand_limit"], hero=_name(me["hero"], lang),
                power=me["power"], wrath=me["wrath"])
    _text(img, (52, 30), kit.fit_text(title, W - 70, 20), 20, "white", True, "lm")
    if not hand:
        _text(img, (W // 2, 64 + CARD_H // 2), say("hand_empty"), 22, "white", True, "mm")
    mark, mark_size = _fit(say("playable"), CARD_W, 17, True, 13)
    for i, cid in enumerate(hand):
        col, row = i % per_row, i // per_row
        x = 10 + col * (CARD_W + 8)
        y = 60 + row * (CARD_H + 44)
        card = _card_image(_card_words(card_type(cid)["key"], say, lang), face(cid))
        ok = cid in playable
        if not ok and playable:
            card = Image.blend(card, Image.new("RGB", card.size, kit.rgb("grey")), 0.35)
        img.paste(card, (x, y))
        outline = "troja_playable" if ok else "panel_dark"
        draw.rectangle((x - 3, y - 3, x + CARD_W + 2, y + CARD_H + 2), outline=kit.rgb(outline), width=5 if ok else 2)
        if ok:
            draw.rectangle((x - 3, y + CARD_H + 4, x + CARD_W + 2, y + CARD_H + 32), fill=kit.rgb("troja_playable"))
            _text(img, (x + CARD_W // 2, y + CARD_H + 18), mark, mark_size, "white", True, "mm")
    return kit.encode(img, PALETTE)
