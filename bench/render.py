"""Board pictures alone: per game, the public render time split into drawing and encoding, and the PNG size.

The same positions every run (random games of fixed seeds, every third position, the players' display names
and the game's language added as the host adds them), so two commits can be compared figure for figure::

    python -m bench.render [positions] [--encodings] [--clock]

Per game: ``render`` p50 (CPU ms of ``render_public``, after an untimed game of another seed has warmed the
caches as in a bot that has drawn other boards), its ``draw`` and ``encode`` parts (p50 each), the PNG size (mean KB), and the floor (the fastest
encode measured: Pillow's PNG level 0 of the same palette image). ``--encodings`` also times the candidate
encoders on the same pictures (quantising alone; Pillow's PNG writer at zlib levels 0-9 and strategies; the kit's
own writer at each level of its deflate, ISA-L's) so each game's choice can be checked; ``--clock`` draws every picture with a clock strip of two seats on top, as the bot does for a
game with a turn clock. The last line printed is one JSON object.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import time
import zlib
from typing import Any

from PIL import Image

from engines import ENGINES
from engines.rng import Rng
from render import RENDERERS, kit

NAMES = ["Ann", "Bartholomew the Unbreakable", "Cili 🐙", "Dóra", "AI 5", "AI 6"]
CLOCK = [{"text": "Ann: 11 h 20 min left", "urgent": False}, {"text": "Bartholomew the Unbreakable: 48 min left",
                                                              "urgent": True}]
SEEDS = (3, 11)
#: the game drawn first, untimed: a bot's caches hold what other games needed (fonts, sprites, static layers)
WARM_SEED = 5


def positions(key: str, count: int, seeds: tuple[int, ...] = SEEDS) -> list[dict]:
    """Public picture views of random games of ``key`` (every third position; the same every run)."""
    engine = ENGINES[key]
    out: list[dict] = []
    for seed in seeds:
        rng = Rng(seed)
        players = min(engine.max_players, max(engine.min_players, 3))
        state = engine.new_game(players, seed, {})
        step = 0
        while engine.to_act(state) and len(out) < count * (seeds.index(seed) + 1) // len(seeds):
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            step += 1
            if step % 3 == 0:
                out.append({**engine.view(state, None), "player_names": NAMES[:players], "lang": "en"})
    return out


def _encoder_timer(parts: list[tuple[float, Any, Image.Image | None]]):
    """Wrappers of the kit's encoders that record (CPU seconds, the picture as encoded, palette); the clock strip
    drawn inside ``encode_with_clock`` counts as drawing, not encoding."""
    original = {name: getattr(kit, name) for name in ("encode", "encode_with_clock", "_strip") if hasattr(kit, name)}
    strip_time = [0.0]

    def encode(img, pal=None):
        start = time.process_time()
        png = original["encode"](img, pal)
        parts.append((time.process_time() - start, img, pal))
        return png

    def strip(width, view):
        start = time.process_time()
        out = original["_strip"](width, view)
        strip_time[0] += time.process_time() - start
        return out

    def encode_with_clock(img, view, pal=None):
        strip_time[0] = 0.0
        before = len(parts)
        start = time.process_time()
        png = original["encode_with_clock"](img, view, pal)
        spent = time.process_time() - start - strip_time[0]
        if len(parts) == before:  # (without a strip it calls ``encode``, which counted itself)
            parts.append((spent, (img, view), pal))  # the picture as encoded: put together after the timing
        return png

    wrappers = {"encode": encode, "encode_with_clock": encode_with_clock, "_strip": strip}
    return original, {name: wrappers[name] for name in original}


def measure(key: str, views: list[dict]) -> dict:
    renderer = RENDERERS[key]
    for view in positions(key, 30, (WARM_SEED,)):  # warm the caches as a running bot has them
        renderer.render_public(view)
    totals, encodes, sizes, images = [], [], [], []
    parts: list = []
    original, timed = _encoder_timer(parts)
    for name, wrapper in timed.items():
        setattr(kit, name, wrapper)
    try:
        for view in views:
            parts.clear()
            start = time.process_time()
            png = renderer.render_public(view)
            totals.append(time.process_time() - start)
            encodes.append(sum(p[0] for p in parts))
            sizes.append(len(png))
            images.append(parts[-1][1:])
    finally:
        for name, function in original.items():
            setattr(kit, name, function)
    images = [(kit.clock_strip(*img) if isinstance(img, tuple) else img, pal) for img, pal in images]
    floor = []
    for img, pal in images:
        quantised = img.convert("RGB").quantize(palette=pal or kit.palette(), dither=Image.Dither.NONE)
        start = time.process_time()
        quantised.save(io.BytesIO(), "PNG", compress_level=0)
        floor.append(time.process_time() - start)
    ms = lambda xs: round(statistics.median(xs) * 1000, 2)  # noqa: E731
    return {"render_ms": ms(totals), "draw_ms": ms([t - e for t, e in zip(totals, encodes)]),
            "encode_ms": ms(encodes), "floor_ms": ms(floor), "png_kb": round(statistics.mean(sizes) / 1024, 1),
            "positions": len(views), "_images": images}


def encodings(images: list) -> dict[str, tuple[float, float]]:
    """Candidate settings on the same pictures: name -> (p50 ms, mean KB)."""
    out = {}
    quantised = []
    qtimes = []
    for img, pal in images:
        start = time.process_time()
        quantised.append(img.convert("RGB").quantize(palette=pal or kit.palette(), dither=Image.Dither.NONE))
        qtimes.append(time.process_time() - start)
    out["quantise only"] = (round(statistics.median(qtimes) * 1000, 2), 0.0)
    # Pillow's writer (zlib), with zlib's strategies (Pillow's ``compress_type``): default, run-length only,
    # Huffman only
    for name, level, strategy in (("Pillow level 0", 0, -1), ("Pillow level 1", 1, -1), ("Pillow level 2", 2, -1),
                                  ("Pillow level 3", 3, -1), ("Pillow level 6", 6, -1), ("Pillow level 9", 9, -1),
                                  ("Pillow 1, RLE", 1, 3), ("Pillow 6, RLE", 6, 3), ("Pillow 9, RLE", 9, 3),
                                  ("Pillow Huffman only", 1, 2)):
        out[name] = _timed(quantised, lambda q, buf, level=level, strategy=strategy: q.save(
            buf, "PNG", compress_level=level, compress_type=strategy))
    # the kit's own writer (render/kit.py: ``png``) at each level of its deflate (ISA-L's 0-3 where installed)
    for level in range(4 if kit.DEFLATE is not zlib.compress else 10):
        out[f"kit level {level}" + (" (used)" if level == kit.PNG_LEVEL else "")] = _timed(
            quantised, lambda q, buf, level=level: buf.write(kit.png(q, level)))
    return out


def _timed(quantised: list[Image.Image], save) -> tuple[float, float]:
    """(p50 CPU ms, mean KB) of ``save(picture, buffer)`` over the pictures."""
    times, sizes = [], []
    for q in quantised:
        buf = io.BytesIO()
        start = time.process_time()
        save(q, buf)
        times.append(time.process_time() - start)
        sizes.append(buf.tell())
    return round(statistics.median(times) * 1000, 2), round(statistics.mean(sizes) / 1024, 1)


def main(argv: list[str]) -> int:
    count = int(next((a for a in argv if a.isdigit()), "60"))
    figures = {}
    for key in ENGINES:
        if key not in RENDERERS:
            continue
        views = positions(key, count)
        if "--clock" in argv:
            views = [{**view, "clock": CLOCK} for view in views]
        result = measure(key, views)
        images = result.pop("_images")
        figures[key] = result
        print(f"{key}: render p50 {result['render_ms']} ms (draw {result['draw_ms']}, encode {result['encode_ms']}, "
              f"floor {result['floor_ms']}); PNG {result['png_kb']} KB over {result['positions']} positions",
              flush=True)
        if "--encodings" in argv:
            for name, (ms, kb) in encodings(images).items():
                print(f"    {name:22} {ms:7.2f} ms {kb:7.1f} KB", flush=True)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
