"""Kiválasztottak decks: the book's deck rules, a deck's text form, and short deck codes. Pure, no I/O.

A deck is a *spec*: either a preset id (``"vadaszhaz"``, ``"medveklan"``: ``data/kivalasztottak/decks.json``)
or a dict ``{"name": str, "cards": [[key, copies], ...], "reserve": [[key, copies], ...]}``. ``cards`` is the
deck the game calls the Future (the book: "A paklit a játékban Jövőnek nevezzük"), ``reserve`` the
Cserepakli. The rules (rulebook, ``shared/seeds/003_…``):

- "Két pakli (kétszer minimum 43 lap)": at least 43 cards in the deck. The three starting tower levels and
  the omen count: the book has both searched out of the Future at the start.
- "3-3 különböző toronyszint": exactly 3 tower levels, all different (decision: exactly, because a tower
  level drawn later could never be played under these rules).
- "A játék kezdetén egy játékos Jövőjében legfeljebb 1 ómen lehet": at most one omen.
- "A Cserepakliban pontosan 0 vagy 15 lapnak kell lennie": a reserve of exactly 0 or 15 cards.
- "Jelző lap: olyan lap, ami nem kerülhet pakliba": no token card in the deck or the reserve.
- No copy limit: the book has none (the named-card rule acts in play, not when building).
- Decisions, not the book: no tower level or omen in the reserve (both come into play only at the start, so
  one searched out of the reserve could never be played), and at most :data:`MAX_DECK` cards in the deck, so
  that a game, its saves and its pictures stay bounded.

Problems are ``(code, fields)`` pairs, so that the interface can say them in the player's language;
:func:`describe` gives the English sentence the engine uses.
"""

from __future__ import annotations

import base64
import re
import unicodedata
import zlib
from typing import Any

from .cards import MIN_DECK, card_defs, deck_file

RESERVE_SIZES = (0, 15)
MAX_DECK = 100
MAX_COPIES = 99  # per line of a deck: a bound on input, not a rule
CODE_PREFIX = "KV"

#: English sentences of the problems (the interface has its own, in three languages)
SENTENCES = {
    "too_few": "The deck has {count} cards: at least {min} are needed.",
    "too_many": "The deck has {count} cards: at most {max} are allowed here.",
    "unknown_card": "There is no card {card!s} in the card pool.",
    "bad_count": "{card} has {count!s} copies: a number from 1 to 99 is needed.",
    "token": "{card} is a token: it never goes into a deck or the reserve.",
    "towers": "The deck needs exactly 3 different tower levels (it has {count}, {distinct} different).",
    "omens": "The deck has {count} omens: at most one is allowed.",
    "reserve_size": "The reserve deck (Cserepakli) has {count} cards: it must have exactly 0 or 15.",
    "reserve_type": "{card} cannot be in the reserve deck: a {type} comes into play only at the start.",
}


def describe(problem: tuple[str, dict]) -> str:
    code, fields = problem
    return SENTENCES[code].format(**fields)


def pool() -> list[str]:
    """The card keys a deck may be built from, in the order of the card file (tokens left out). The deck code
    numbers cards by this order: new cards are only ever appended to the card file."""
    return [key for key, d in card_defs().items() if not d.get("token")]


def presets() -> dict[str, dict]:
    """The starter decks as specs (``name``, ``name_hu``, ``cards``, ``reserve``), by preset id."""
    return {key: {"name": d["name_en"], "name_hu": d["name_hu"], "cards": [list(x) for x in d["cards"]],
                  "reserve": [list(x) for x in d.get("reserve", [])]}
            for key, d in deck_file()["decks"].items()}


def spec_of(entry) -> dict:
    """A deck spec from a preset id or a spec dict (ValueError for anything else)."""
    if isinstance(entry, str):
        found = presets().get(entry)
        if found is None:
            known = ", ".join(f"{k} ({v['name']})" for k, v in presets().items())
            raise ValueError(f"Unknown deck {entry!r}: choose one of {known}.")
        return found
    if not isinstance(entry, dict) or set(entry) - {"name", "cards", "reserve"}:
        raise ValueError("A deck is a preset id or {name, cards, reserve}.")
    name = entry.get("name", "")
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise ValueError("A deck needs a name of 1 to 100 characters.")
    out: dict[str, Any] = {"name": name.strip(), "cards": [], "reserve": []}
    for part in ("cards", "reserve"):
        rows = entry.get(part, [])
        if not isinstance(rows, list) or len(rows) > 500:
            raise ValueError(f"A deck's {part} must be a list of [card, copies].")
        for row in rows:
            if (not isinstance(row, (list, tuple)) or len(row) != 2 or not isinstance(row[0], str)
                    or not isinstance(row[1], int) or isinstance(row[1], bool)):
                raise ValueError(f"A deck's {part} must be a list of [card, copies].")
            out[part].append([row[0], row[1]])
    return out


def complete(decks: list) -> list:
    """The two seats' decks with ``None`` (no deck named) filled in: both missing, the default pair; one
    missing, the starter deck the other seat does not play (a game pits the two starters against each other
    unless both are named), or the seat's default when the other plays a deck of its own."""
    default = list(deck_file()["default"])
    ids = list(presets())
    out = list(decks)
    for seat, deck in enumerate(out):
        if deck is None:
            other = out[1 - seat]
            if isinstance(other, str) and other in ids:
                out[seat] = next((d for d in ids if d != other), other)
            else:
                out[seat] = default[seat]
    return out


def from_text(text: str):
    """A deck named by text without a player's own decks: a starter deck (id or name) or a deck code; None
    when it is neither."""
    want = fold(text or "")
    for key, spec in presets().items():
        if want in (fold(key), fold(spec["name"]), fold(spec["name_hu"])):
            return key
    try:
        return normalise(decode(text))
    except ValueError:
        return None


def expand(rows: list) -> list[str]:
    """Card keys, one entry per copy."""
    return [key for key, n in rows for _ in range(max(0, min(n, MAX_COPIES)))]


def problems(spec: dict) -> list[tuple[str, dict]]:
    """What breaks the deck rules (empty: the deck may be played)."""
    defs = card_defs()
    out: list[tuple[str, dict]] = []
    for part in ("cards", "reserve"):
        for key, n in spec[part]:
            d = defs.get(key)
            name = d["name_en"] if d else key
            if d is None:
                out.append(("unknown_card", {"card": key[:40]}))
            elif not 1 <= n <= MAX_COPIES:
                out.append(("bad_count", {"card": name, "count": n}))
            elif d.get("token"):
                out.append(("token", {"card": name}))
            elif part == "reserve" and d["type"] in ("tower", "omen"):
                out.append(("reserve_type", {"card": name, "type": d["type"]}))
    cards = [k for k in expand(spec["cards"]) if k in defs]
    if len(cards) < MIN_DECK:
        out.append(("too_few", {"count": len(cards), "min": MIN_DECK}))
    elif len(cards) > MAX_DECK:
        out.append(("too_many", {"count": len(cards), "max": MAX_DECK}))
    towers = [k for k in cards if defs[k]["type"] == "tower"]
    if len(towers) != 3 or len(set(towers)) != 3:
        out.append(("towers", {"count": len(towers), "distinct": len(set(towers))}))
    omens = sum(1 for k in cards if defs[k]["type"] == "omen")
    if omens > 1:
        out.append(("omens", {"count": omens}))
    reserve = len(expand(spec["reserve"]))
    if reserve not in RESERVE_SIZES:
        out.append(("reserve_size", {"count": reserve}))
    return out


def normalise(spec: dict) -> dict:
    """The same deck with each card on one row, in card-pool order (equal decks compare equal)."""
    order = {key: i for i, key in enumerate(card_defs())}
    out = {"name": spec["name"], "cards": [], "reserve": []}
    for part in ("cards", "reserve"):
        counts: dict[str, int] = {}
        for key, n in spec[part]:
            counts[key] = counts.get(key, 0) + n
        out[part] = [[k, n] for k, n in sorted(counts.items(), key=lambda kv: order.get(kv[0], len(order)))
                     if n > 0]
    return out


# ------------------------------------------------------------------------------------------------ deck codes

def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def encode(spec: dict) -> str:
    """A short code of a deck's cards and reserve (not its name): ``KV`` + base64url. Each part is a list of
    (gap in the card pool, copies) varints ending with a 0 gap, then one check byte."""
    index = {key: i for i, key in enumerate(pool())}
    body = bytearray()
    for part in ("cards", "reserve"):
        counts: dict[int, int] = {}
        for key, n in spec[part]:
            if key not in index:
                raise ValueError(f"{key} is not in the card pool")
            counts[index[key]] = counts.get(index[key], 0) + n
        last = -1
        for i in sorted(counts):
            if counts[i] > 0:
                body += _varint(i - last) + _varint(counts[i])
                last = i
        body += b"\0"
    body.append(zlib.crc32(bytes(body)) & 0xFF)
    return CODE_PREFIX + base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")


def decode(code: str, name: str = "") -> dict:
    """The deck of a code (ValueError with a sentence for anything that is not one)."""
    code = "".join(code.split())
    if not code.upper().startswith(CODE_PREFIX) or len(code) > 1000:
        raise ValueError("not_a_code")
    raw = code[len(CODE_PREFIX):]
    try:
        data = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
    except (ValueError, TypeError) as exc:
        raise ValueError("not_a_code") from exc
    if len(data) < 3 or zlib.crc32(data[:-1]) & 0xFF != data[-1]:
        raise ValueError("not_a_code")
    keys = pool()
    pos = 0

    def read() -> int:
        nonlocal pos
        n = shift = 0
        while True:
            if pos >= len(data) - 1 or shift > 28:
                raise ValueError("not_a_code")
            byte = data[pos]
            pos += 1
            n |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return n

    spec: dict = {"name": name or "Deck", "cards": [], "reserve": []}
    for part in ("cards", "reserve"):
        at = -1
        while True:
            gap = read()
            if gap == 0:
                break
            at += gap
            count = read()
            if at >= len(keys) or not 1 <= count <= MAX_COPIES:
                raise ValueError("not_a_code")
            spec[part].append([keys[at], count])
    if pos != len(data) - 1:
        raise ValueError("not_a_code")
    return spec


# ------------------------------------------------------------------------------------------------ text form

RESERVE_HEADERS = ("cserepakli", "reserve", "reserve deck", "rezerwa", "talia rezerwowa")
_LINE = re.compile(r"^\s*(?:(\d{1,3})\s*[x×*]?\s+)?(.+?)\s*$", re.I)


def fold(text: str) -> str:
    """Lower case without accents, apostrophes or extra spaces: "Kráni  orvlövész" -> "krani orvlovesz"."""
    text = unicodedata.normalize("NFKD", text.replace("’", "'"))
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(text.replace("'", "").split())


def _names() -> dict[str, str]:
    out: dict[str, str] = {}
    for key in pool():
        d = card_defs()[key]
        for name in (key, d["name_hu"], d["name_en"], *d.get("true_names", [])):
            out.setdefault(fold(name), key)
    return out


def parse_text(text: str, name: str) -> tuple[dict, list[tuple[str, dict]]]:
    """A deck from its text form: one card a line, ``3 Hunter``, ``3x Vadász``, ``Hunter`` (one copy), in
    Hungarian or English, accents and case as you like; a line ``Reserve:`` (``Cserepakli:``) starts the
    reserve deck; ``#`` starts a comment. Returns the deck and the lines it could not read
    (``("bad_line", {"line": n, "text": ...})``)."""
    names = _names()
    spec: dict = {"name": name, "cards": [], "reserve": []}
    bad: list[tuple[str, dict]] = []
    part = "cards"
    for number, line in enumerate(text.splitlines()[:600], 1):
        line = line.split("#", 1)[0].strip().strip("-•*").strip()
        if not line:
            continue
        head = fold(line.rstrip(":").strip())
        if line.endswith(":") or head in RESERVE_HEADERS:
            if head in RESERVE_HEADERS or head.split(" (")[0] in RESERVE_HEADERS:
                part = "reserve"
                continue
            if head in ("deck", "pakli", "talia", "jovo", "future"):
                part = "cards"
                continue
        m = _LINE.match(line)
        count = int(m.group(1)) if m and m.group(1) else 1
        key = names.get(fold(m.group(2))) if m else None
        if key is None or not 1 <= count <= MAX_COPIES:
            bad.append(("bad_line", {"line": number, "text": line[:60]}))
            continue
        spec[part].append([key, count])
    return normalise(spec), bad


def format_text(spec: dict, lang: str = "en") -> str:
    """The text form of a deck (what :func:`parse_text` reads back): names in Hungarian for ``hu``, else
    English; the reserve after a ``Reserve (Cserepakli):`` line."""
    defs = card_defs()
    field = "name_hu" if lang == "hu" else "name_en"
    lines = [f"{n} {defs[k][field] if k in defs else k}" for k, n in spec["cards"]]
    if spec["reserve"]:
        lines.append("Cserepakli:" if lang == "hu" else "Reserve (Cserepakli):")
        lines += [f"{n} {defs[k][field] if k in defs else k}" for k, n in spec["reserve"]]
    return "\n".join(lines)
