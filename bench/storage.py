"""What power-cut safety costs (``make bench`` runs it): commits per second and p50/p99 commit latency of
``Store.commit_action`` with ``synchronous=NORMAL`` (WAL fsynced only at checkpoints: a power cut can lose the
last commits) and ``synchronous=FULL`` (the bot's setting: the WAL is fsynced in every COMMIT).

Two loads: one game moving alone (each commit waits for the previous one: a player's click), and
``GAMES_AT_ONCE`` games committing concurrently through the one store (a busy server). The snapshot is about
the size of a real mid-game one. The database lives next to the project (``var/``), on the disk the bot would
use, not in /tmp (often a RAM disk, where an fsync costs nothing).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from store import SqliteStore, Store

COMMITS = 400
GAMES_AT_ONCE = 8
SNAPSHOT = {"board": [[i, i * 7 % 13, "x" * 12] for i in range(600)], "turn": 0}  # ~16 KB of JSON


async def _game(store: Store, n: int) -> int:
    gid = await store.create_game(engine="troja", options={"lang": "en"}, seed=n, num_players=2, guild_id=1,
                                  channel_id=2, host_user_id=100 + n)
    await store.set_seat(gid, 0, user_id=100 + n, name=f"P{n}")
    await store.set_seat(gid, 1, ai_level="normal", name="AI")
    await store.start_game(gid, num_players=2, snapshot=SNAPSHOT, rules_version=1)
    return gid


async def _moves(store: Store, gid: int, count: int, timings: list[float]) -> None:
    for v in range(count):
        start = time.perf_counter()
        await store.commit_action(gid, expected_version=v, seat=v % 2, user_id=100,
                                  action={"type": "move", "n": v}, events=[{"type": "moved", "n": v}],
                                  snapshot={**SNAPSHOT, "turn": v + 1}, result=None)
        timings.append(time.perf_counter() - start)


async def _run(folder: Path, synchronous: str, games: int) -> tuple[float, float, float]:
    store = await SqliteStore.open(folder / f"{synchronous}-{games}.db", synchronous=synchronous)
    try:
        gids = [await _game(store, n) for n in range(games)]
        timings: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(*(_moves(store, gid, COMMITS // games, timings) for gid in gids))
        wall = time.perf_counter() - start
    finally:
        await store.close()
    timings.sort()
    p99 = timings[min(len(timings) - 1, round(0.99 * (len(timings) - 1)))]
    return len(timings) / wall, statistics.median(timings) * 1000, p99 * 1000


def main() -> int:
    root = Path(__file__).resolve().parent.parent / "var"
    root.mkdir(exist_ok=True)
    print(f"storage: {COMMITS} commits of a ~{len(str(SNAPSHOT)) // 1000} KB snapshot, database in {root}")
    print(f"{'load':<22}{'synchronous':<13}{'commits/s':>10}{'p50 ms':>9}{'p99 ms':>9}")
    with tempfile.TemporaryDirectory(dir=root) as tmp:
        for label, games in (("one game", 1), (f"{GAMES_AT_ONCE} games at once", GAMES_AT_ONCE)):
            for synchronous in ("NORMAL", "FULL"):
                rate, p50, p99 = asyncio.run(_run(Path(tmp), synchronous, games))
                print(f"{label:<22}{synchronous:<13}{rate:>10.0f}{p50:>9.2f}{p99:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
