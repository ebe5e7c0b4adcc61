"""Replay figures per game: one random game of each (the seed and player count below), drawn as the bot draws
``/game replay``: steps, frames shown, file size, format and drawing time.

    python -m bench.replays [games] [--webp]

``--webp`` also encodes the same frames as an animated WebP (lossless) and prints its size, for comparison. Times: CPU seconds of
the drawing process, and wall-clock seconds (which include waiting for the CPU on a shared machine).
"""

from __future__ import annotations

import io
import sys
import time

import ai
from engines import ENGINES
from engines.rng import Rng
from host import replays

#: the games measured: (engine, players, seed); the long ones are the interesting ones
GAMES = [("hector-achilles", 2, 3), ("ave-caesar", 6, 3), ("hextri", 4, 3), ("hextri", 6, 5), ("troja", 4, 3),
         ("kivalasztottak", 2, 3)]
NAMES = ["Ann 😀", "Bob", "王小明", "أحمد", "Dávid", "Zoë 👍🏽"]


def record(key: str, num: int, seed: int) -> replays.Record:
    engine = ENGINES[key]
    state = engine.new_game(num, seed, {})
    rng, actions = Rng(seed), []
    while engine.result(state) is None:
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        actions.append({"seat": seat, "action": action, "events": engine.apply(state, seat, action)})
    return replays.Record(key, seed, num, {}, engine.rules_version, actions, NAMES[:num], "en",
                          result=engine.result(state))


def main(argv: list[str]) -> None:
    wanted = [a for a in argv if not a.startswith("--")]
    webp = "--webp" in argv
    print(f"{'game':<16} {'pl':>2} {'steps':>5} {'frames':>6} {'chapters':>8} {'KB':>6} {'format':>6} {'cpu s':>6} "
          f"{'wall s':>6}"
          + ("  webp KB" if webp else ""))
    for key, num, seed in GAMES:
        if wanted and key not in wanted[0].split(","):
            continue
        rec = record(key, num, seed)
        t0, w0 = time.process_time(), time.perf_counter()
        anim = replays.animate(rec)
        took, wall = time.process_time() - t0, time.perf_counter() - w0
        from PIL import Image

        fmt = Image.open(io.BytesIO(anim.data)).format
        line = (f"{key:<16} {num:>2} {len(rec.actions):>5} {anim.shown:>6} {str(getattr(anim, 'chapters', '-')):>8} "
                f"{len(anim.data) // 1024:>6} {fmt:>6} {took:>6.1f} {wall:>6.1f}")
        if webp:
            frames = list(_frames(anim.data))
            out = io.BytesIO()
            frames[0].save(out, "WEBP", save_all=True, append_images=frames[1:], lossless=True, quality=60,
                           method=2)
            line += f"  {len(out.getvalue()) // 1024:>7}"
        print(line, flush=True)


def _frames(data: bytes):
    from PIL import Image, ImageSequence

    for f in ImageSequence.Iterator(Image.open(io.BytesIO(data))):
        yield f.convert("RGB")


if __name__ == "__main__":
    main(sys.argv[1:])
