"""Issue 22's figures: nobody can slow the bot down for everyone else.

    python -m bench.bounded

1. ``/metrics`` with 4,000 games in the store: the gauges read from the counters the database keeps
   (``Store.gauges``) against counting the games as scrapes did before, and 20 scrapes through the ops port.
2. The four load scenarios against the real bot process (tests/e2e/test_bounded.py, with its longer loads and
   games): the worst position of every game shown, asked for and clicked at once; three long replays at once;
   300 slow connections on the ops port; forty lobbies in 0.3 s. Each prints how long another member waited for
   an answer and how late the bot's event loop woke up (and, for comparison, this process's own loop: what the
   machine's load alone does)."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

import aiohttp


async def scrapes(games: int = 4000) -> None:
    from host.metrics import Metrics
    from host.ops import OpsServer
    from store import SqliteStore
    from tests.test_docker_image import free_port

    with tempfile.TemporaryDirectory() as folder:
        store = await SqliteStore.open(Path(folder) / "g.db")
        try:
            statuses = ("lobby", "running", "finished", "abandoned")
            await store._transaction([(
                "INSERT INTO games (engine, options, seed, status, num_players, host_user_id, created_at,"
                " updated_at) VALUES ('troja', '{}', 1, ?, 2, 1, '', '')", (statuses[i % 4],)) for i in range(games)])
            began = time.perf_counter()
            for status in statuses:  # what a scrape did before: list every game of each status
                await store.list_games(statuses=(status,), limit=2**53)
            listed = time.perf_counter() - began
            began = time.perf_counter()
            counts, _, _ = await store.gauges()
            counted = time.perf_counter() - began
            assert sum(counts.values()) == games
            metrics = Metrics()
            port = free_port()
            ops = OpsServer(metrics, lambda: True, lambda: metrics.refresh(store), health_port=None,
                            metrics_port=port)
            await ops.start()
            try:
                async with aiohttp.ClientSession() as http:
                    began = time.perf_counter()
                    for _ in range(20):
                        async with http.get(f"http://127.0.0.1:{port}/metrics") as answer:
                            await answer.read()
                    twenty = time.perf_counter() - began
            finally:
                await ops.stop()
        finally:
            await store.close()
    print(f"/metrics with {games:,} games: the gauges read in {counted * 1000:.1f} ms (counting the games as "
          f"before: {listed * 1000:.0f} ms); 20 scrapes one after another: {twenty * 1000:.0f} ms")


def main() -> int:
    asyncio.run(scrapes())
    import pytest

    os.environ["GAMEHOST_BENCH"] = "1"
    root = Path(__file__).resolve().parent.parent
    return pytest.main(["-q", "-s", "-p", "no:cacheprovider", str(root / "tests" / "e2e" / "test_bounded.py")])


if __name__ == "__main__":
    sys.exit(main())
