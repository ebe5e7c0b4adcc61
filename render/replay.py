"""Replay pictures: a board with its step's narration under it, and those frames as one animated GIF. Pure:
PNG bytes and text in, image bytes out (no ``GAME`` key: this is no game's renderer).

The GIF keeps the game's own colours: every board is drawn on its game's fixed 256-colour palette
(``render.kit.make_palette``), and the frames are put on that same palette (the narration's ink and paper are
kit colours, which every game's palette has), so nothing is re-quantised and HEX-TRI's graded hexes stay graded.
Consecutive boards differ in a small area, which GIF stores as a small changed rectangle. GIF because Discord
plays it inline everywhere; ``bench/replays.py --webp`` measures an animated WebP of the same frames (larger, see
the README).

Every frame of one replay has the same size: the narration area is as tall as the replay's longest narration
(``lines_room``), and a board smaller than the largest is centred on paper of the board's own colour at its
edge, so no frame is padded with a band of blank paper.
"""

from __future__ import annotations

import io
import re

from PIL import Image

from render import kit

MAX_WIDTH = 1030  # HEX-TRI's radius-3 board (1,022 px) unscaled, in its exact colours; larger boards are narrowed
TEXT_SIZE = 17
HEADER_SIZE = 18
MAX_LINES = 6
MARGIN = 12
LINE_H = TEXT_SIZE + 6

_MARKDOWN = re.compile(r"\*\*|__|`|~~|\|\||<@[!&]?[0-9]+>|<#[0-9]+>|<t:[0-9]+(?::[a-zA-Z])?>|<a?:\w+:[0-9]+>")


def plain(line: str) -> str:
    """A narration line as a picture can show it: without Discord markdown, mentions and custom emoji (Unicode
    emoji and every script stay: the kit draws them)."""
    return re.sub(r"\s+", " ", _MARKDOWN.sub("", line)).strip()


def _wrap(text: str, width: int, size: int) -> list[str]:
    words, lines, current = text.split(" "), [], ""
    for word in words:
        candidate = f"{current} {word}".strip()
        if kit.text_width(candidate, size) <= width or not current:
            current = candidate
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return [kit.fit_text(line, width, size) for line in lines]


def told(lines: list[str], width: int, room: int = MAX_LINES, earlier: str = "…") -> list[str]:
    """The narration wrapped to ``width`` px, at most ``room`` lines: whole sentences only, the latest kept; when
    earlier ones give way, the first line says so (``earlier``, with ``{count}`` for how many)."""
    wrapped = [_wrap(plain(line), width, TEXT_SIZE) for line in lines if plain(line)]
    kept: list[list[str]] = []
    for block in reversed(wrapped):
        if kept and sum(map(len, kept)) + len(block) > room:
            break
        kept.insert(0, block)
    while len(kept) > 1 and len(kept) < len(wrapped) and sum(map(len, kept)) + 1 > room:
        kept.pop(0)  # room for the line that says how many gave way
    dropped = len(wrapped) - len(kept)
    out = [ln for block in kept for ln in block]
    if dropped:
        out = [kit.fit_text(earlier.format(count=dropped), width, TEXT_SIZE)] + out
    if len(out) > room:  # one sentence longer than the room: its end, whole words
        out = ["…"] + out[-(room - 1):]
    return out


def lines_needed(lines: list[str], width: int, room: int = MAX_LINES) -> int:
    """How many narration lines :func:`frame` would draw for ``lines`` (to size a replay's frames alike)."""
    return max(1, len(told(lines, width, room)))


def frame_width(board_png: bytes) -> int:
    """The width of the frame a board is shown in."""
    w = Image.open(io.BytesIO(board_png)).width
    return max(min(w, MAX_WIDTH), 480)


def top_lines(header: str, note: str | None, width: int) -> list[tuple[str, bool]]:
    """The lines above the board: the header on one line, the note wrapped (``(text, is_header)``)."""
    inner = width - 2 * MARGIN
    out = [(kit.fit_text(plain(header), inner, HEADER_SIZE, True), True)]
    if note:
        out += [(line, False) for line in _wrap(plain(note), inner, HEADER_SIZE)]
    return out


def frame(board_png: bytes, header: str, lines: list[str], note: str | None = None, *,
          lines_room: int | None = None, board_size: tuple[int, int] | None = None,
          earlier: str = "…", top_rows: int | None = None) -> Image.Image:
    """One frame (on the board's palette when the board keeps its size): ``header`` (which step) and an optional ``note`` above the board, the narration below it
    (whole sentences, the latest kept). ``lines_room``: the narration area's height in lines, and ``board_size``
    the board area's size, and ``top_rows`` the lines above the board, the same for every frame of a replay
    (default: what this frame needs)."""
    source = Image.open(io.BytesIO(board_png))
    board = source.convert("RGB")
    if board.width > MAX_WIDTH:
        board = board.resize((MAX_WIDTH, round(board.height * MAX_WIDTH / board.width)), Image.Resampling.LANCZOS)
    area_w, area_h = board_size or board.size
    width = max(area_w, 480)
    inner = width - 2 * MARGIN
    room = lines_room or MAX_LINES
    shown = told(lines, inner, room, earlier)
    top = top_lines(header, note, width)
    top_h = MARGIN + max(len(top), top_rows or 0) * (HEADER_SIZE + 6)
    rows = lines_room or max(1, len(shown))
    height = top_h + area_h + MARGIN + rows * LINE_H + MARGIN
    img, draw = kit.canvas(width, height, "paper")
    y = MARGIN
    for text, bold in top:
        kit.text(draw, (MARGIN, y), text, size=HEADER_SIZE, bold=bold, fill="ink" if bold else "vermillion")
        y += HEADER_SIZE + 6
    if board.size != (area_w, area_h):  # a smaller board on its own edge colour, not on a band of paper
        edge = board.getpixel((0, 0))
        draw.rectangle(((width - area_w) // 2, top_h, (width + area_w) // 2 - 1, top_h + area_h - 1), fill=edge)
    at = ((width - board.width) // 2, top_h + (area_h - board.height) // 2)
    img.paste(board, at)
    y = top_h + area_h + MARGIN
    for text in shown:
        kit.text(draw, (MARGIN, y), text, size=TEXT_SIZE)
        y += LINE_H
    if source.mode == "P" and board.size == source.size:
        # on the board's own palette, with the board's own pixels: mapping them again could move a colour a step
        framed = img.quantize(palette=board_palette(board_png), dither=Image.Dither.NONE)
        framed.paste(source, at)
        return framed
    return img


def compact(img: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """A frame on ``palette`` (the kit's when None): a byte a pixel instead of three, which is what keeps a replay
    of a hundred frames within a hundred MB or so (the GIF is written from these very images)."""
    pal = palette or kit.palette()
    if img.mode == "P" and img.getpalette() == pal.getpalette():
        return img
    return img.convert("RGB").quantize(palette=pal, dither=Image.Dither.NONE)


def board_palette(png: bytes) -> Image.Image:
    """The palette a board was encoded with (each game has its own fixed one), as a palette image."""
    img = Image.open(io.BytesIO(png))
    if img.mode != "P":
        return kit.palette()
    pal = Image.new("P", (1, 1))
    pal.putpalette(img.getpalette() or [])
    return pal


def animation(frames: list[Image.Image], durations: list[int], palette: Image.Image | None = None) -> bytes:
    """The frames as one looping GIF on ``palette`` (the game's: see :func:`board_palette`; the kit's when
    None). Frames of different sizes are centred on the largest."""
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    pal = palette or kit.palette()
    out = []
    for f in frames:
        if f.size != (width, height):
            back, _ = kit.canvas(width, height, "paper")
            back.paste(f.convert("RGB"), ((width - f.width) // 2, 0))
            f = back
        out.append(compact(f, pal))
    buffer = io.BytesIO()
    out[0].save(buffer, "GIF", save_all=True, append_images=out[1:], duration=durations, loop=0,
                optimize=False, disposal=1)
    return buffer.getvalue()


def board_area(pngs: list[bytes]) -> tuple[int, int]:
    """The board area every frame of one replay shares: as large as its largest board (after narrowing to
    ``MAX_WIDTH``), so frames never change size and no board is cut."""
    width = height = 0
    for png in pngs:
        w, h = Image.open(io.BytesIO(png)).size
        if w > MAX_WIDTH:
            w, h = MAX_WIDTH, round(h * MAX_WIDTH / w)
        width, height = max(width, w), max(height, h)
    return width, height
