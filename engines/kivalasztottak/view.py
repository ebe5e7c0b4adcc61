"""What one seat may see of a Kiválasztottak game: the only place hidden information is stripped.

Hidden: hands (counts only), the Future (counts only), the reserve deck (Cserepakli: its count for everyone,
its cards for its player only), face-down tower levels and obstacles of the other player (shown as face-down
placeholders), mulligan set-asides. Everything else is public.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from . import state as S
from .cards import card_defs, deck_file, english
from .zones import pub


def _card(state: dict, cid: str, viewer: int | None) -> dict:
    """A card as the viewer may see it."""
    c = state["cards"][cid]
    d = card_defs()[c["k"]]
    if not c["up"] and viewer != c["owner"]:
        return {"hidden": True, "owner": c["owner"], "type": d["type"] if d["type"] == "tower" else "obstacle"}
    out = _printed(c["k"]).copy()  # (a view shows a score of cards: what is printed on them is made once)
    out["id"], out["owner"], out["ctrl"], out["face_up"] = cid, c["owner"], c["ctrl"], c["up"]
    t = d["type"]
    if t == "adventurer":
        out.update({"state": c["state"], "dmg": c["dmg"], "level": S.level(state, cid),
                    "base_level": S.base_level(state, cid), "phys": S.attr(state, cid, "phys"),
                    "astral": S.attr(state, cid, "astral"), "mental": S.attr(state, cid, "mental"),
                    "threshold": S.threshold(state, cid), "skills_en": list(out["skills_en"]),
                    "traits_en": list(out["traits_en"]),
                    "worn": [_card(state, w, viewer) for w in c.get("worn", ())], "wards": len(c.get("wards", ()))})
    elif t == "quest":
        out["conditions"], out["conditions_en"] = list(out["conditions"]), list(out["conditions_en"])
    elif t == "ally":
        out["szp"] = c.get("szp", 0)
    elif t == "omen":
        out["op"] = c.get("op", 0)
    if c.get("att"):
        out["attached"] = _label([_card(state, a, viewer) for a in c["att"]])
    return out


#: a card's own place in a view: None, filled in per card by :func:`_card`
_OWN = None


@cache
def _printed(key: str) -> dict:
    """What a visible card of ``key`` shows that is printed on it, in the order of its view's keys, with a place
    (None) for each of the card's own values, which :func:`_card` fills in."""
    d = card_defs()[key]
    out = {"id": _OWN, "key": d["key"], "name": d["name_en"], "name_hu": d["name_hu"], "type": d["type"],
           "owner": _OWN, "ctrl": _OWN, "face_up": _OWN, "text": d.get("text_en", ""),
           "text_hu": d.get("text_hu", ""), "named": d["named"]}
    if d.get("mp") is not None and d["type"] not in ("building", "ally"):
        out["mp"] = d.get("mp", 0)
    t = d["type"]
    if t == "adventurer":
        out.update(dict.fromkeys(("state", "dmg", "level", "base_level", "phys", "astral", "mental", "threshold")))
        out.update({"caste": d["caste"], "subcaste": d["subcaste"],
                    "skills": d["skills"], "traits": d["traits"], "token": bool(d.get("token")),
                    "race": d["race"], "race_en": english(d["race"]),
                    "skills_en": [english(k) for k in d["skills"]], "traits_en": [english(k) for k in d["traits"]],
                    "subcaste_en": english(d["subcaste"]), "worn": _OWN, "wards": _OWN})
    elif t == "tower":
        out.update({"wall": d["wall"], "obstacles": d["obstacles"]})
    elif t == "quest":
        out.update({"dp": d["dp"], "location": d["location"], "obstacles": d["obstacles"],
                    "conditions": [cd["text"] for cd in d["conditions"]],
                    "conditions_en": [english(cd["text"]) for cd in d["conditions"]]})
    elif t == "building":
        out.update({"dp": d["dp"], "location": d["location"], "obstacles": d["obstacles"],
                    "condition": d["condition"]["text"], "condition_en": english(d["condition"]["text"])})
    elif t == "ally":
        out.update({"szp": _OWN, "condition": d["condition"]["text"],
                    "condition_en": english(d["condition"]["text"])})
    elif t == "omen":
        out.update({"op": _OWN})
    elif t == "obstacle":
        out.update({"kind": d["kind"], "animate": bool(d.get("animate"))})
        if d["kind"] == "beast":
            out.update({"number": d["number"], "attack": d["attack"], "damage": d["damage"]})
    elif t in ("action", "event"):
        out.update({"duration": d["duration"], "phase": d.get("phase", "row")})
        if t == "action":
            out.update({"action_type": d["action_type"], "subtype": d.get("subtype")})
            if d.get("attack"):
                out.update({"range": d["attack"]["range"], "damage": d["attack"]["damage"]})
    return out


def _brief(state: dict, cid: str) -> dict:
    """A card in the Past or the Depth: public, named, nothing more needed."""
    d = card_defs()[state["cards"][cid]["k"]]
    return {"id": cid, "key": d["key"], "name": d["name_en"], "type": d["type"]}


def _thread_item(state: dict, it: dict, viewer: int | None) -> dict:
    c = state["cards"][it["card"]]
    d = card_defs()[c["k"]]
    hidden = it.get("hidden") and viewer != it["seat"]
    out = {"uid": it["uid"], "kind": it["kind"], "seat": it["seat"], "targets": list(it["labels"])}
    if hidden:
        out.update({"name": "face-down obstacle", "hidden": True})
    else:
        out.update({"card": it["card"], "name": d["name_en"], "name_hu": d["name_hu"]})
        if it.get("hidden"):
            out["face_down"] = True  # the viewer's own face-down obstacle: the opponent does not see its name
        if it["kind"] in ("ability", "trigger"):
            ab = d["abilities"][it["ab"]]
            out["ability"] = it["ab"]
            out["text"] = d.get("text_en", "")
            out["on"] = ab.get("on")
    if it.get("by"):
        out["by"] = it["by"]
    return out


def _label(cards: list[dict]) -> list[dict]:
    """Every visible card gets a ``label``: its name, with "#n" when the same zone shows the name twice (so a
    button and the picture can tell two Hunters apart)."""
    counts: dict[str, int] = {}
    for c in cards:
        if "name" in c:
            counts[c["name"]] = counts.get(c["name"], 0) + 1
    seen: dict[str, int] = {}
    for c in cards:
        if "name" in c:
            seen[c["name"]] = seen.get(c["name"], 0) + 1
            c["label"] = c["name"] if counts[c["name"]] == 1 else f"{c['name']} #{seen[c['name']]}"
    return cards


class _Engine(Protocol):
    """What the view asks of the engine: who is to act, and the legal actions as fresh objects."""

    def to_act(self, state: dict) -> list[int]: ...

    def legal_copy(self, state: dict, seat: int) -> list[dict]: ...


def _player(state: dict, s: int, seat: int | None, decks: dict) -> dict:
    """Seat ``s``'s side of the table as ``seat`` sees it."""
    p = state["p"][s]
    own_deck = p.get("deck_name")  # a deck of the player's own (rules version 3), else a preset

    def cards(zone: str) -> list[dict]:
        return [_card(state, c, seat) for c in p[zone]]

    out = {
        "seat": s, "deck": p["deck"], "deck_name": own_deck or decks[p["deck"]]["name_en"],
        "deck_name_hu": own_deck or decks[p["deck"]]["name_hu"], "mp": p["mp"], "dp": S.dp(state, s),
        "hand_count": len(p["hand"]), "future_count": len(p["future"]),
        "past": [_brief(state, c) for c in p["past"]],
        "depth": [_brief(state, c) for c in p["depth"]],
        "past_count": len(p["past"]), "depth_count": len(p["depth"]),
        "towers": cards("towers"), "row": cards("row"), "team": cards("team"),
        "store": _label(cards("store")), "quests": _label(cards("quests")), "solved": _label(cards("solved")),
        "buildings": _label(cards("buildings")), "allies": _label(cards("allies")),
        "events": _label(cards("events")), "omen": cards("omen"),
        "mulligans": p["mulligans"],
    }
    if "reserve" in p:  # rules version 3 on
        out["reserve_count"] = len(p["reserve"])
    _label(out["row"] + out["team"])
    _label(out["towers"])
    return out


def _maneuver(state: dict) -> dict | None:
    m = state["maneuver"]
    if m is None:
        return None
    man = {"kind": m["kind"], "initiator": m["init"], "step": m["step"],
           "target": pub(state, m["target"]) if m["target"] else None,
           "front": list(m["front"]), "combat_round": m["round"], "combat": m["combat"],
           "winner": m["winner"], "solver": m["solver"]}
    if m["kind"] == "siege" and m["target"] and state["cards"][m["target"]]["up"]:
        man["wall"] = S.cdef(state, m["target"])["wall"]
    return man


def build_view(engine: _Engine, state: dict, seat: int | None) -> dict:
    """What ``seat`` (None: a spectator) may see of ``state``, with its legal actions when it is to act."""
    decks = deck_file()["decks"]
    players = [_player(state, s, seat, decks) for s in range(2)]
    man = _maneuver(state)
    to_act = engine.to_act(state)
    out = {
        "game": "kivalasztottak", "seat": seat, "to_act": to_act, "round": state["round"], "stage": state["stage"],
        "first": state["first"], "active": S.active(state), "prio": state["prio"], "passes": state["passes"],
        "players": players,
        "thread": None if state["thread"] is None else [_thread_item(state, it, seat) for it in state["thread"]],
        "maneuver": man,
        "pending": [{"kind": d["kind"], "seat": d["seat"]} for d in state["pending"]],
        "last": list(state["last"]),
        "result": state["result"],
    }
    if seat is not None:
        out["hand"] = _label([_card(state, c, seat) for c in state["p"][seat]["hand"]])
        if "reserve" in state["p"][seat]:
            out["reserve"] = _label([_card(state, c, seat) for c in state["p"][seat]["reserve"]])
        if seat in to_act:
            out["legal"] = engine.legal_copy(state, seat)
            out["can_act"] = any(a["type"] != "pass" for a in out["legal"])
        else:
            out["can_act"] = False
    return out
