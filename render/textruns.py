"""Text in any script, with emoji: a string split into runs of one font and one direction, in the order they are
drawn.

Player names are whatever Discord allows: emoji (families joined by zero-width joiners, flags, skin tones),
Chinese, Japanese, Korean, Arabic and Hebrew (right to left), Indic scripts, "fancy" mathematical letters. The
picture's own font (DejaVu Sans) draws Latin, Greek and Cyrillic; everything else falls back along a chain of fonts
shipped in data/fonts (``FALLBACK``; see tools/fonts.py for where each comes from and how it was made small):

- emoji, in Twemoji (Discord's own emoji style) as a colour font; a multi-code-point emoji is swapped for the
  private-use code point the font was given for it, so it is one picture with or without libraqm;
- a run of Arabic letters always in Noto Sans Arabic (one font, so its letters join);
- any other character in the first font of the chain that has it; a character no font has is left out (no
  .notdef box is ever drawn).

Right-to-left runs are put in their visual order here (a simplified Unicode bidirectional algorithm, enough for a
name or a line of narration); each run is then drawn with ``direction="rtl"`` by libraqm, which shapes it (Arabic
letters joined). Without libraqm (Pillow falls back to its basic layout when FriBiDi is missing) the run's
characters are reversed instead: the right order, letters unjoined.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from fontTools.ttLib import TTFont
from PIL import ImageFont, features

FONTS = Path(__file__).resolve().parent.parent / "data" / "fonts"

EMOJI = "Twemoji.ttf"
ARABIC = "NotoSansArabic-Regular.ttf"
#: the fallback chain after the picture's own face, in the order a character is looked up
FALLBACK = [
    "NotoSansHebrew-Regular.ttf", "NotoSansDevanagari-Regular.ttf", "NotoSansBengali-Regular.ttf",
    "NotoSansGurmukhi-Regular.ttf", "NotoSansGujarati-Regular.ttf", "NotoSansOriya-Regular.ttf",
    "NotoSansTamil-Regular.ttf", "NotoSansTelugu-Regular.ttf", "NotoSansKannada-Regular.ttf",
    "NotoSansMalayalam-Regular.ttf", "NotoSansSinhala-Regular.ttf", "NotoSansThai-Regular.ttf",
    "NotoSansLao-Regular.ttf", "NotoSansMyanmar-Regular.ttf", "NotoSansKhmer-Regular.ttf",
    "NotoSansGeorgian-Regular.ttf", "NotoSansArmenian-Regular.ttf", "NotoSansEthiopic-Regular.ttf",
    "DroidSansFallback-CJK.ttf", "NotoSansKR-Hangul.otf", "NotoSansMath-Regular.ttf",
    "NotoSansSymbols-Regular.ttf", "NotoSansSymbols2-Regular.ttf", ARABIC, EMOJI,
]

RAQM = features.check("raqm")
_LAYOUT = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC

# characters that belong to the character before them (drawn in its run, never on their own)
_JOINERS = {0x200D, 0x200C, 0x20E3, 0x034F}
_DROPPED = {0xFE0F, 0xFE0E, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
            0x2069, 0xFEFF, 0x00AD}
# BMP characters shown as emoji even without U+FE0F (Unicode's Emoji_Presentation property below U+1F000)
_EMOJI_PRESENTATION = {
    0x231A, 0x231B, 0x23E9, 0x23EA, 0x23EB, 0x23EC, 0x23F0, 0x23F3, 0x25FD, 0x25FE, 0x2614, 0x2615,
    *range(0x2648, 0x2654), 0x267F, 0x2693, 0x26A1, 0x26AA, 0x26AB, 0x26BD, 0x26BE, 0x26C4, 0x26C5, 0x26CE,
    0x26D4, 0x26EA, 0x26F2, 0x26F3, 0x26F5, 0x26FA, 0x26FD, 0x2705, 0x270A, 0x270B, 0x2728, 0x274C, 0x274E,
    0x2753, 0x2754, 0x2755, 0x2757, 0x2795, 0x2796, 0x2797, 0x27B0, 0x27BF, 0x2B1B, 0x2B1C, 0x2B50, 0x2B55,
}
_ARABIC_RANGES = ((0x0600, 0x0700), (0x0750, 0x0780), (0x0870, 0x0900), (0xFB50, 0xFE00), (0xFE70, 0xFF00))


@dataclass(frozen=True)
class Run:
    """A piece of a line drawn with one font file (None: the picture's own face) in one direction."""

    text: str
    font: str | None
    rtl: bool = False

    @property
    def emoji(self) -> bool:
        return self.font == EMOJI


# ---------------------------------------------------------------------------------------------- fonts and cmaps
# plain dicts, not lru_caches: tests clear every cache of render/ between pictures, and a cmap never changes

_CMAPS: dict[str, frozenset[int]] = {}
_FONTS: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}
_SEQUENCES: dict[str, str] = {}


def coverage(name: str) -> frozenset[int]:
    """The code points the font file ``name`` (in data/fonts) has a glyph for."""
    cover = _CMAPS.get(name)
    if cover is None:
        font = TTFont(str(FONTS / name), lazy=True)
        cover = frozenset(font.getBestCmap())
        font.close()
        _CMAPS[name] = cover
    return cover


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The font file ``name`` at ``size`` px (cached for the life of the process)."""
    key = (name, size)
    f = _FONTS.get(key)
    if f is None:
        f = _FONTS[key] = ImageFont.truetype(str(FONTS / name), size, layout_engine=_LAYOUT)
    return f


def sequences() -> dict[str, str]:
    """Multi-code-point emoji (without U+FE0F) -> the private-use character the emoji font draws them with."""
    if not _SEQUENCES:
        table = json.loads((FONTS / "emoji-sequences.json").read_text(encoding="utf-8"))
        _SEQUENCES.update({k: chr(v) for k, v in table.items()})
        _SEQUENCES[""] = ""  # marks the table loaded
    return _SEQUENCES


@lru_cache(maxsize=1)
def _sequence_index() -> tuple[frozenset[str], int]:
    seqs = [k for k in sequences() if k]
    return frozenset(k[0] for k in seqs), max(len(k) for k in seqs)


# ---------------------------------------------------------------------------------------------------- clusters

def _extends(cp: int) -> bool:
    """Whether ``cp`` belongs to the character before it (combining mark, joiner, skin tone, tag...)."""
    return (cp in _JOINERS or cp in _DROPPED or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F
            or unicodedata.category(chr(cp)) in ("Mn", "Me", "Mc"))


def clusters(s: str) -> list[str]:
    """``s`` cut into what a reader sees as one character each (a letter with its accents, a whole emoji with its
    joiners, skin tone and flag pair), so that shortening a name never leaves half an emoji."""
    out: list[str] = []
    joined = False
    for ch in s:
        cp = ord(ch)
        regional_pair = (out and 0x1F1E6 <= cp <= 0x1F1FF and len(out[-1]) == 1
                         and 0x1F1E6 <= ord(out[-1]) <= 0x1F1FF)
        if out and (joined or _extends(cp) or regional_pair):
            out[-1] += ch
        else:
            out.append(ch)
        joined = cp == 0x200D
    return out


# ---------------------------------------------------------------------------------------------------- the runs

def _is_arabic(cp: int) -> bool:
    return any(lo <= cp < hi for lo, hi in _ARABIC_RANGES)


def _emoji_tokens(s: str) -> list[tuple[str, bool]]:
    """``s`` as (text, is_emoji) pieces: known emoji sequences swapped for their one private-use character."""
    starts, longest = _sequence_index()
    seqs = sequences()
    emoji_cover = coverage(EMOJI)
    out: list[tuple[str, bool]] = []
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        cp = ord(ch)
        if cp in _DROPPED:
            i += 1
            continue
        if ch in starts:
            # the longest known sequence from here, U+FE0F skipped
            kept: list[str] = []
            ends: list[int] = []
            j = i
            while j < n and len(kept) < longest:
                if ord(s[j]) != 0xFE0F:
                    kept.append(s[j])
                    ends.append(j + 1)
                j += 1
            for k in range(len(kept), 1, -1):
                hit = seqs.get("".join(kept[:k]))
                if hit:
                    i = ends[k - 1]
                    if i < n and ord(s[i]) == 0xFE0F:
                        i += 1
                    out.append((hit, True))
                    break
            else:
                hit = None
            if hit:
                continue
        emoji_wanted = (cp >= 0x1F000 or cp in _EMOJI_PRESENTATION
                        or (i + 1 < n and ord(s[i + 1]) == 0xFE0F))
        if emoji_wanted and cp in emoji_cover and not 0x1F3FB <= cp <= 0x1F3FF:
            out.append((ch, True))
        elif 0x1F3FB <= cp <= 0x1F3FF and out and out[-1][1]:
            pass  # a skin tone the font has no combined picture for: the emoji without it
        else:
            out.append((ch, False))
        i += 1
    return out


def _font_for(cp: int, face: str) -> str | Literal[False] | None:
    if _is_arabic(cp):
        return ARABIC if cp in coverage(ARABIC) else (face if cp in coverage(face) else None)
    if cp in coverage(face):
        return None
    for name in FALLBACK:
        if name != EMOJI and cp in coverage(name):
            return name
    return EMOJI if cp in coverage(EMOJI) else False  # False: no font has it


def _direction(ch: str) -> str:
    kind = unicodedata.bidirectional(ch)
    if kind == "L":
        return "L"
    if kind in ("R", "AL"):
        return "R"
    if kind in ("EN", "AN"):
        return "N"  # a number
    return ""  # neutral


def _levels(dirs: list[str]) -> list[int]:
    """Embedding levels (even: left to right) of a line by a simplified UBA: the first strong letter sets the
    line's direction, numbers read left to right, neutrals take the direction of letters on both sides."""
    base = 1 if next((d for d in dirs if d in "LR" and d), "L") == "R" else 0
    strong: list[str] = []
    last = "R" if base else "L"
    for d in dirs:
        if d == "L" or d == "R":
            last = d
        strong.append(d if d else "")
        if d == "N":
            strong[-1] = "N" if last == "L" and not base else "n"  # n: a number in right-to-left context
    levels: list[int] = []
    for i, d in enumerate(strong):
        if d == "L":
            levels.append(2 if base else 0)
        elif d == "R":
            levels.append(1)
        elif d == "n":
            levels.append(2)
        elif d == "N":
            levels.append(0)
        else:
            before = next((strong[j] for j in range(i - 1, -1, -1) if strong[j]), None)
            after = next((strong[j] for j in range(i + 1, len(strong)) if strong[j]), None)
            rtl = lambda x: x in ("R", "n")  # noqa: E731 - numbers count as right to left for neutrals (N1)
            if before is not None and after is not None and rtl(before) == rtl(after):
                levels.append(1 if rtl(before) else (2 if base else 0))
            else:
                levels.append(base)
    return levels


@lru_cache(maxsize=4096)
def runs(s: str, face: str) -> tuple[Run, ...]:
    """The runs of ``s`` (drawn with ``face`` where it has the characters) in the order they are drawn, left to
    right; a right-to-left run's own text stays in logical order (libraqm lays it out)."""
    pieces: list[tuple[str, str | None, str]] = []  # (char, font, direction)
    for text, is_emoji in _emoji_tokens(s):
        if is_emoji:
            pieces.append((text, EMOJI, ""))
            continue
        cp = ord(text)
        if pieces and _extends(cp):
            pieces.append((text, pieces[-1][1], ""))
            continue
        name = _font_for(cp, face)
        if name is False:
            continue
        pieces.append((text, name, _direction(text)))
    if not pieces:
        return ()
    # a space or a mark of punctuation between two letters of one fallback font stays in that font's run (an
    # Arabic name's words are then shaped and spaced as one line)
    for i in range(1, len(pieces) - 1):
        ch, name, d = pieces[i]
        before, after = pieces[i - 1][1], pieces[i + 1][1]
        if not d and name is None and before == after and before not in (None, EMOJI) \
                and ord(ch[0]) in coverage(before):
            pieces[i] = (ch, before, d)
    levels = _levels([d for _, _, d in pieces])
    # marks and joiners keep their base's level
    for i, (ch, _, d) in enumerate(pieces):
        if i and not d and _extends(ord(ch[0])) and pieces[i][1] != EMOJI:
            levels[i] = levels[i - 1]
    grouped: list[tuple[str, str | None, int]] = []
    for (ch, name, _), level in zip(pieces, levels):
        if grouped and grouped[-1][1] == name and grouped[-1][2] == level:
            grouped[-1] = (grouped[-1][0] + ch, name, level)
        else:
            grouped.append((ch, name, level))
    # rule L2: reverse every sequence at or above each odd-or-higher level, from the highest down
    order = list(range(len(grouped)))
    for level in range(max(g[2] for g in grouped), 0, -1):
        i = 0
        while i < len(order):
            if grouped[order[i]][2] >= level:
                j = i
                while j < len(order) and grouped[order[j]][2] >= level:
                    j += 1
                order[i:j] = order[i:j][::-1]
                i = j
            else:
                i += 1
    return tuple(Run(grouped[k][0], grouped[k][1], grouped[k][2] % 2 == 1) for k in order)


def drawn_text(run: Run) -> tuple[str, dict]:
    """The text and keyword arguments ``ImageDraw.text`` / ``getlength`` take for ``run``."""
    if not run.rtl:
        return run.text, {}
    if RAQM:
        return run.text, {"direction": "rtl"}
    return "".join(reversed(clusters(run.text))), {}
