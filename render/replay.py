"""Replay pictures: a board with its step's narration under it, and those frames as one animated GIF. Pure:
PNG bytes and text in, image bytes out (no ``GAME`` key: this is no game's renderer).

GIF because the boards are already drawn on the fixed palette of ``render.kit`` (so every frame shares one
palette) and consecutive boards differ in a small area, which GIF stores as a small changed rectangle."""

from __future__ import annotations

import io
import re
import unicodedata

from PIL import Image

from render import kit

MAX_WIDTH = 900  # wide enough to read a board, small enough for a long game under Discord's limit
TEXT_SIZE = 17
HEADER_SIZE = 18
MAX_LINES = 6
MARGIN = 12

_MARKDOWN = re.compile(r"\*\*|__|`|~~|\|\||<@!?[0-9]+>|<#[0-9]+>|<t:[0-9]+(?::[a-zA-Z])?>")


def plain(line: str) -> str:
    """A narration line as a picture can show it: without Discord markdown, mentions and emoji (the
    picture's font has no emoji; letters of every language stay)."""
    text = _MARKDOWN.sub("", line)
    kept = [c for c in text if ord(c) < 0x2190 or unicodedata.category(c)[0] in "LNP" and ord(c) < 0x2E80]
    return re.sub(r"\s+", " ", "".join(kept)).strip()


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


def frame(board_png: bytes, header: str, lines: list[str], note: str | None = None) -> Image.Image:
    """One frame: ``header`` (step n/m) and an optional ``note`` above the board, the narration below it
    (the last ``MAX_LINES`` lines; earlier ones give way to an ellipsis)."""
    board = Image.open(io.BytesIO(board_png)).convert("RGB")
    if board.width > MAX_WIDTH:
        board = board.resize((MAX_WIDTH, round(board.height * MAX_WIDTH / board.width)), Image.LANCZOS)
    width = max(board.width, 480)
    inner = width - 2 * MARGIN
    told: list[str] = []
    for line in lines:
        told += _wrap(plain(line), inner, TEXT_SIZE)
    if len(told) > MAX_LINES:
        told = ["…"] + told[-(MAX_LINES - 1):]
    top = [(plain(header), True)] + ([(plain(note), False)] if note else [])
    line_h = TEXT_SIZE + 6
    top_h = MARGIN + len(top) * (HEADER_SIZE + 6)
    height = top_h + board.height + MARGIN + max(1, len(told)) * line_h + MARGIN
    img, draw = kit.canvas(width, height, "paper")
    y = MARGIN
    for text, bold in top:
        kit.text(draw, (MARGIN, y), kit.fit_text(text, inner, HEADER_SIZE, bold), size=HEADER_SIZE, bold=bold,
                 fill="ink" if bold else "vermillion")
        y += HEADER_SIZE + 6
    img.paste(board, ((width - board.width) // 2, top_h))
    y = top_h + board.height + MARGIN
    for text in told:
        kit.text(draw, (MARGIN, y), text, size=TEXT_SIZE)
        y += line_h
    return img


def compact(img: Image.Image) -> Image.Image:
    """A frame on the kit's palette: a byte a pixel instead of three, which is what keeps a replay of a hundred
    frames within a hundred MB or so (the GIF is written from these very images)."""
    if img.mode == "P":
        return img
    return img.convert("RGB").quantize(palette=kit.palette(), dither=Image.Dither.NONE)


def animation(frames: list[Image.Image], durations: list[int]) -> bytes:
    """The frames (RGB, or already :func:`compact`) as one looping GIF on the kit's palette (frames of different
    sizes are centred on the largest)."""
    width = max(f.width for f in frames)
    height = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size != (width, height):
            back, _ = kit.canvas(width, height, "paper")
            back.paste(f.convert("RGB"), ((width - f.width) // 2, 0))
            f = back
        out.append(compact(f))
    buffer = io.BytesIO()
    out[0].save(buffer, "GIF", save_all=True, append_images=out[1:], duration=durations, loop=0,
                optimize=False, disposal=1)
    return buffer.getvalue()
