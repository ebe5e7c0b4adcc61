"""Rebuild the fallback fonts of data/fonts from the packages they come from (run by hand, not by the bot).

    python -m tools.fonts SOURCE_DIR

SOURCE_DIR holds the unpacked packages (``apt-get download fonts-noto-core fonts-noto-cjk fonts-droid-fallback``
then ``dpkg -x`` each into SOURCE_DIR; ``npm pack twemoji-colr-font`` and its tarball unpacked into
SOURCE_DIR/twemoji). What it writes, and why each is kept small:

- ``Twemoji.ttf``: Discord's own emoji style (Twemoji 15 as a COLR/CPAL font, twemoji-colr-font on npm), turned
  from WOFF2 into TTF, with every multi-code-point emoji (ZWJ families, flags, skin tones, keycaps) also given a
  private-use code point, listed in ``emoji-sequences.json``. The kit swaps a sequence for its code point before
  drawing, so families and flags come out as one picture with or without libraqm's shaping.
- ``DroidSansFallback-CJK.ttf``: Chinese and Japanese (Droid Sans Fallback, the ideographs of GB 2312, Big5,
  Shift JIS and EUC-KR plus kana, CJK punctuation and full-width forms): 16,000 of its 28,600 glyphs.
- ``NotoSansKR-Hangul.otf``: the 11,172 Hangul syllables and the jamo from Noto Sans CJK KR (Droid has none).
- ``NotoSans<Script>-Regular.ttf``: Noto Sans for the scripts DejaVu lacks (or draws poorly, Arabic), unhinted.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parent.parent / "data" / "fonts"
NOTO = "usr/share/fonts/truetype/noto"
SCRIPTS = ["Arabic", "Hebrew", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu",
           "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Myanmar", "Khmer", "Georgian", "Armenian",
           "Ethiopic", "Math", "Symbols", "Symbols2"]
PUA = 0xF0000  # supplementary private use area A: never typed in a name


def _subset(src: Path, dst: Path, unicodes=None, font_number: int = 0) -> None:
    font = TTFont(src, fontNumber=font_number)
    opts = subset.Options()
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.hinting = False
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    if unicodes is None:
        sub.populate(unicodes=font.getBestCmap().keys())
    else:
        sub.populate(unicodes=unicodes)
    sub.subset(font)
    font.save(dst)


def _outline_colour_glyphs(font: TTFont) -> None:
    """Give every colour glyph the outline of its layers together (a composite glyph). twemoji-colr leaves the
    base glyphs empty, and Pillow sizes what it draws by the base glyph's box, so a lone emoji drew nothing; the
    outline also makes a fair one-colour emoji where a picture draws text as a mask."""
    from fontTools.ttLib.tables._g_l_y_f import Glyph, GlyphComponent

    glyf = font["glyf"]
    for base, layers in font["COLR"].ColorLayers.items():
        composite = Glyph()
        composite.numberOfContours = -1
        composite.components = []
        for layer in layers:
            comp = GlyphComponent()
            comp.glyphName, comp.x, comp.y, comp.flags = layer.name, 0, 0, 0x4  # ROUND_XY_TO_GRID
            composite.components.append(comp)
        glyf[base] = composite
        composite.recalcBounds(glyf)


def emoji(src_woff2: Path) -> None:
    font = TTFont(src_woff2)
    font.flavor = None
    sequences: dict[str, int] = {}
    cmap = font.getBestCmap()
    glyph_of = dict(cmap)
    extra: dict[int, str] = {}
    for name in sorted(font["COLR"].ColorLayers):
        parts = name[1:].replace("-", "_").split("_")
        try:
            cps = [int(p, 16) for p in parts]
        except ValueError:
            continue
        key = "".join(chr(c) for c in cps if c != 0xFE0F)
        if len(key) < 2 or key in sequences:
            continue
        cp = PUA + len(sequences)
        sequences[key] = cp
        extra[cp] = name
    _outline_colour_glyphs(font)
    for table in font["cmap"].tables:
        if table.isUnicode() and table.format == 12:
            table.cmap.update(extra)
    if not any(t.format == 12 for t in font["cmap"].tables):
        raise SystemExit("the emoji font has no format 12 cmap to extend")
    font.save(OUT / "Twemoji.ttf")
    (OUT / "emoji-sequences.json").write_text(
        json.dumps({k: v for k, v in sorted(sequences.items(), key=lambda kv: kv[1])}, ensure_ascii=False,
                   indent=0), encoding="utf-8")
    print("Twemoji.ttf:", len(glyph_of), "code points,", len(sequences), "sequences")


def _encodable(cp: int) -> bool:
    for enc in ("gb2312", "big5", "shift_jis", "euc_kr"):
        try:
            chr(cp).encode(enc)
            return True
        except UnicodeEncodeError:
            pass
    return False


def cjk(src: Path) -> None:
    han = [cp for cp in range(0x4E00, 0xA000) if _encodable(cp)]
    kana = [*range(0x3000, 0x3130), *range(0x31F0, 0x3200), *range(0xFF00, 0xFFF0)]
    _subset(src / "usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf", OUT / "DroidSansFallback-CJK.ttf",
            han + kana)
    hangul = [*range(0xAC00, 0xD7A4), *range(0x1100, 0x1200), *range(0x3130, 0x3190)]
    _subset(src / "usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", OUT / "NotoSansKR-Hangul.otf", hangul,
            font_number=1)


def scripts(src: Path) -> None:
    for script in SCRIPTS:
        name = f"NotoSans{script}-Regular.ttf"
        _subset(src / NOTO / name, OUT / name)


def main(argv: list[str]) -> None:
    src = Path(argv[0])
    emoji(src / "twemoji" / "package" / "twemoji.woff2")
    shutil.copy(src / "twemoji" / "package" / "LICENSE", OUT / "LICENSE-Twemoji.txt")
    scripts(src)
    cjk(src)


if __name__ == "__main__":
    main(sys.argv[1:])
