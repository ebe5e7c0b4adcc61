"""Where the pictures are drawn: in worker threads, or in a small pool of worker processes.

Drawing a board takes 5-20 ms of Pillow work that mostly holds the GIL. In threads that time is taken from the
event loop (heartbeats, other players' clicks) and a board's public and private pictures cannot really be drawn
at the same time. Worker processes (``RENDER_PROCESSES``, 2 by default in the bot) draw them truly in parallel
and leave the event loop free; a view goes in, PNG bytes come out, so the cost of the trip is small. Threads
remain the default for tests and scripts, and the fallback when a worker process dies."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from render import RENDERERS

log = logging.getLogger(__name__)


def _draw(key: str, method: str, args: tuple):
    return getattr(RENDERERS[key], method)(*args)


def _follow_parent() -> None:
    """In a worker: exit when the bot's process is gone, even if it was killed without closing the pool."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=lambda: (parent.join(), os._exit(0)), daemon=True).start()


def _ready() -> bool:
    return bool(RENDERERS)  # importing this module in the worker loaded every renderer


class Painter:
    """Runs renderer functions off the event loop: ``await painter.draw(game_key, "render_public", view)``."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.processes > 0 and self._pool is None:
            # spawn, not fork: the bot's process has threads (aiosqlite, asyncio) that fork would copy half-way
            self._pool = ProcessPoolExecutor(self.processes, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_follow_parent)
        return self._pool

    async def draw(self, key: str, method: str, *args):
        pool = self._executor()
        if pool is None:
            return await asyncio.to_thread(_draw, key, method, args)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _draw, key, method, args)
        except BrokenProcessPool:
            log.exception("a render process died; drawing in a thread and starting a new pool")
            self._pool = None
            return await asyncio.to_thread(_draw, key, method, args)

    async def warm_up(self) -> None:
        """Start the worker processes now (each imports Pillow and the renderers: about a second), so that
        the first click after start-up does not wait for it."""
        pool = self._executor()
        if pool is not None:
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(self.processes)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
