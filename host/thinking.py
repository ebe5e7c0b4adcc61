"""Running an AI's decision without blocking the event loop: the heuristic levels in a thread (they take
milliseconds), the hard level - about a second of CPU - in a worker process, so neither the loop nor the
GIL is held while it searches."""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing

import ai

_pool: concurrent.futures.ProcessPoolExecutor | None = None
WORKERS = 2


def _executor() -> concurrent.futures.ProcessPoolExecutor:
    global _pool
    if _pool is None:
        # spawn, not fork: the parent runs an event loop and threads that a forked child must not inherit
        _pool = concurrent.futures.ProcessPoolExecutor(WORKERS, mp_context=multiprocessing.get_context("spawn"))
    return _pool


async def think(engine, state, seat: int, rng, level: str | None) -> dict:
    """The AI's action for ``seat`` at ``level``; hard searches in a worker process."""
    if level == "hard":
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(_executor(), ai.choose_by_key, engine.key, state, seat, rng.state,
                                              level)
        except concurrent.futures.process.BrokenProcessPool:
            shutdown()  # a worker died (killed, out of memory): think in a thread this time, a new pool next
    return await asyncio.to_thread(ai.choose, engine, state, seat, rng, level)


def shutdown() -> None:
    """Stop the worker processes (they are started again when next needed)."""
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
