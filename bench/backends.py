"""Moves per second through the game service on each store backend (``make bench`` runs it).

Hector and Achilles games between two people, each move a random legal action through ``GameService.act`` with
pictures off (``render=False``): validate, apply, one transaction (action, snapshot, outbox entry), the
narration — what a click costs without Pillow. 1, 10 and 100 games play at once, as on a quiet, a busy and a
very busy server; a game that ends is replaced by a new one. Also p50/p99 of one move.

SQLite: a file in ``var/`` (the disk the bot would use), ``synchronous=FULL`` as the bot runs it. PostgreSQL: when
``TEST_DATABASE_URL`` or ``DATABASE_URL`` names a server, a throw-away database is created on it (so the user
needs CREATEDB) and dropped afterwards; the bot's own database is never written. Without either it says it
skipped PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bench.pipeline import open_table
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from store import connect

GAME = "hector-achilles"
LOADS = (1, 10, 100)
#: moves per load in all (split between its games): enough for a steady rate, short enough for make bench
MOVES = 1500


async def _play(target: str, games: int) -> tuple[float, float, float]:
    store = await connect(target)
    service = GameService(store, seed_source=lambda: 4242, render=False)
    engine = ENGINES[GAME]
    timings: list[float] = []

    async def one(k: int) -> None:
        users = [10_000 * (k + 1) + i for i in range(2)]
        game = await open_table(service, GAME, users)
        rng = Rng(k)
        for _ in range(MOVES // games):
            row = await service.game(game.id)
            if row.status != "running":
                game = await open_table(service, GAME, users)
                row = await service.game(game.id)
            state = await service._state(row)
            seat = engine.to_act(state)[0]
            index = rng.below(len(engine.legal_actions(state, seat)))
            start = time.perf_counter()
            await service.act(row.id, users[seat], row.version, index)
            timings.append(time.perf_counter() - start)

    try:
        start = time.perf_counter()
        await asyncio.gather(*(one(k) for k in range(games)))
        wall = time.perf_counter() - start
    finally:
        service.close()
        await store.close()
    timings.sort()
    p99 = timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))]
    return len(timings) / wall, statistics.median(timings) * 1000, p99 * 1000


def _server() -> str | None:
    for name in ("TEST_DATABASE_URL", "DATABASE_URL"):
        url = os.environ.get(name, "").strip()
        if url.startswith(("postgresql://", "postgres://")):
            return url
    return None


async def _throwaway(url: str, create: bool, name: str) -> str:
    import asyncpg

    admin = await asyncpg.connect(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"' if create else f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()
    return urlunsplit(urlsplit(url)._replace(path="/" + name))


def _row(backend: str, games: int, figures: tuple[float, float, float]) -> None:
    rate, p50, p99 = figures
    print(f"{backend:<12}{games:>6}{rate:>10.0f}{p50:>9.2f}{p99:>9.2f}", flush=True)


def main() -> int:
    root = Path(__file__).resolve().parent.parent / "var"
    root.mkdir(exist_ok=True)
    print(f"backends: {GAME}, random moves through GameService.act (pictures off), {MOVES} moves per load")
    print(f"{'backend':<12}{'games':>6}{'moves/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        for games in LOADS:
            _row("sqlite", games, asyncio.run(_play(str(Path(tmp) / f"b{games}.db"), games)))
    url = _server()
    if url is None:
        print("postgresql: skipped (set TEST_DATABASE_URL or DATABASE_URL to a server where you may CREATE DATABASE)")
        return 0
    name = f"gamehost_bench_{uuid.uuid4().hex[:10]}"
    for games in LOADS:
        target = asyncio.run(_throwaway(url, True, name))
        try:
            _row("postgresql", games, asyncio.run(_play(target, games)))
        finally:
            asyncio.run(_throwaway(url, False, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
