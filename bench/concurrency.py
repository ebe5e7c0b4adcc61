"""Several games at once (``make bench`` runs it before the pipeline benchmark).

Four games of each kind act at the same time through one game service, as on a busy server: per game, the
time per action (p50/p99 ms) and the actions per second the service gets through, once with the pictures drawn
in worker threads (``RENDER_PROCESSES=0``) and once in two worker processes (the bot's default). Threads share
the GIL with the event loop and with each other; processes draw truly in parallel.
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.pipeline import open_table, timed_random_action
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from host.workers import settle_heap
from render import RENDERERS
from store import SqliteStore

GAMES_AT_ONCE = 4
ACTIONS_PER_GAME = 40


async def _run(key: str, processes: int) -> tuple[float, float, float]:
    engine = ENGINES[key]
    with tempfile.TemporaryDirectory() as tmp:
        store = await SqliteStore.open(Path(tmp) / "c.db")
        service = GameService(store, seed_source=lambda: 4242, render_processes=processes)
        await service.painter.warm_up()
        settle_heap()  # (as the bot, once set up)
        timings: list[float] = []

        async def one_game(k: int) -> None:
            users = [1000 * (k + 1) + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            rng = Rng(k)
            for _ in range(ACTIONS_PER_GAME):
                took = await timed_random_action(service, game.id, users, rng)
                if took is None:
                    break
                timings.append(took)

        try:
            start = time.perf_counter()
            await asyncio.gather(*(one_game(k) for k in range(GAMES_AT_ONCE)))
            wall = time.perf_counter() - start
        finally:
            service.close()
            await store.close()
    timings.sort()
    return (statistics.median(timings), timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))],
            len(timings) / wall)


def main() -> int:
    for key in ENGINES:
        if key not in RENDERERS:
            continue
        parts = []
        for processes in (0, 2):
            p50, p99, rate = asyncio.run(_run(key, processes))
            parts.append(f"{'threads' if processes == 0 else '2 processes'}: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
                         f"{rate:.0f} actions/s")
        print(f"{key}, {GAMES_AT_ONCE} games at once — " + "; ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
