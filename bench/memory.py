"""Memory of a bot that has touched many games (``make bench`` runs it).

Through the real game service on a temporary SQLite database, pictures off: ``GAMES`` games (all five kinds in
turn) are created, started and given one move each; the resident set size (RSS) is printed along the way, with
how many live states, locks and DM marks the service keeps (``LIVE_GAMES`` bounds the states). Then, in a fresh
process on the same database (so that the first part's peak does not count), one reminder round over all of
those games, now due: its peak RSS and how far that is above the process's RSS before the round.

``python -m bench.memory [games]``; ``LIVE_GAMES=1000000`` shows what an unbounded cache would cost.
"""

from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engines import ENGINES
from host.service import GameService
from settings import Settings
from store import SqliteStore

GAMES = 10_000
KEYS = sorted(ENGINES)


def rss_mb() -> float:
    """The process's resident set size now, in MB."""
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def peak_rss_mb() -> float:
    """The process's largest resident set size since it started or since :func:`reset_peak`, in MB (VmHWM:
    unlike ``getrusage``'s, it is not inherited from the parent process)."""
    with open("/proc/self/status") as f:
        kib = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    return kib / 1024


def reset_peak() -> None:
    """Start measuring the peak from the current RSS (Linux 4.0+; without it the peak counts from start-up)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


async def touch_one(service: GameService, i: int) -> None:
    """Create, start and play one move of game number ``i`` (two people; larger tables wait for no one)."""
    key = KEYS[i % len(KEYS)]
    ann, bob = 2 * i + 1, 2 * i + 2
    game, outcome = await service.create(key, user_id=ann, user_name="Ann", guild_id=1, channel_id=1,
                                         invite=(bob, "Bob"))
    if outcome is None:
        outcome = await service.start(game.id, ann)
    game = outcome.game
    state = await service._state(game)
    seat = ENGINES[key].to_act(state)[0]
    await service.act(game.id, game.seat_row(seat).user_id, game.version, 0)


async def touch(path: Path, games: int) -> None:
    store = await SqliteStore.open(path)
    live_games = Settings.from_env().live_games
    service = GameService(store, render=False, live_games=live_games)
    try:
        print(f"touching {games} games (LIVE_GAMES={live_games}); RSS at start {rss_mb():.0f} MB", flush=True)
        start = time.perf_counter()
        marks = {games // 10, games // 4, games // 2, games}
        for i in range(games):
            await touch_one(service, i)
            if i + 1 in marks:
                print(f"  after {i + 1:>6} games: RSS {rss_mb():6.0f} MB; kept: {len(service._live)} states, "
                      f"{len(service._locks)} locks, {len(service._nudged)} DM marks", flush=True)
        took = time.perf_counter() - start
        print(f"RSS after touching {games} games: {rss_mb():.0f} MB ({took:.0f} s, "
              f"{service._live.evictions} states evicted)", flush=True)
    finally:
        service.close()
        await store.close()


async def remind(path: Path) -> None:
    store = await SqliteStore.open(path)
    service = GameService(store, render=False, live_games=Settings.from_env().live_games)
    try:
        before = rss_mb()
        reset_peak()
        start = time.perf_counter()
        count = 0
        async for _ in service.reminders(timedelta(hours=24), datetime.now(UTC) + timedelta(days=2)):
            count += 1
        took = time.perf_counter() - start
        peak = peak_rss_mb()
        print(f"reminder round over {count} due games: peak RSS {peak:.0f} MB ({peak - before:+.0f} MB over the "
              f"{before:.0f} MB before it; {took:.1f} s); live states kept: {len(service._live)}", flush=True)
    finally:
        service.close()
        await store.close()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--remind"]:
        asyncio.run(remind(Path(argv[1])))
        return 0
    games = int(argv[0]) if argv else GAMES
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "memory.db"
        asyncio.run(touch(path, games))
        return subprocess.call([sys.executable, "-m", "bench.memory", "--remind", str(path)])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
