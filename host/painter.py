"""Where the pictures are drawn: in worker threads, or in a small pool of worker processes.

Drawing a board takes 5-20 ms of Pillow work that mostly holds the GIL. In threads that time is taken from the
event loop (heartbeats, other players' clicks) and a board's public and private pictures cannot really be drawn
at the same time. Worker processes (``RENDER_PROCESSES``, 2 by default in the bot) draw them truly in parallel
and leave the event loop free; a view goes in, PNG bytes come out, so the cost of the trip is small. Threads
remain the default for tests and scripts, and the fallback when a worker process dies.

A picture is drawn once per version of its game: the same board is asked for again by ``/game status``, a DM that
shows the public board, the outbox when it rebuilds a board to add a clock warning, and a retried post.
:class:`Pictures` keeps the newest ones (bounded by count and bytes), keyed by everything the picture is drawn
from (:meth:`Painter.draw_once`)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections import OrderedDict
from collections.abc import Hashable
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


#: pictures kept by :class:`Pictures`: enough for every board and DM of the games being played at once in a
#: busy server (a board is 30-100 KB), and a bound on the memory they take
PICTURES_KEPT = 256
PICTURES_BYTES = 16 * 1024 * 1024


class Pictures:
    """The newest pictures drawn, least recently used dropped first; at most ``entries`` of them and ``size``
    bytes in all (a picture larger than that is not kept)."""

    def __init__(self, entries: int = PICTURES_KEPT, size: int = PICTURES_BYTES) -> None:
        self.entries, self.size = entries, size
        self._kept: OrderedDict[Hashable, bytes | tuple[bytes, ...]] = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0

    @staticmethod
    def _size(value: bytes | tuple[bytes, ...]) -> int:
        return len(value) if isinstance(value, bytes) else sum(len(v) for v in value)

    def get(self, key: Hashable) -> bytes | tuple[bytes, ...] | None:
        value = self._kept.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept.move_to_end(key)
        return value

    def put(self, key: Hashable, value: bytes | tuple[bytes, ...]) -> None:
        size = self._size(value)
        if size > self.size:
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self._bytes -= self._size(old)
        self._kept[key] = value
        self._bytes += size
        while len(self._kept) > self.entries or self._bytes > self.size:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= self._size(dropped)

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        return self._bytes


class Painter:
    """Runs renderer functions off the event loop: ``await painter.draw(game_key, "render_public", view)``."""

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self.pictures = Pictures()

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

    async def draw_once(self, key: Hashable, game: str, method: str, *args):
        """``draw(game, method, *args)``, or the picture drawn before under ``key``: the caller's key names
        everything the picture is drawn from (the game, its version, the seat, the language, the names...). A
        picture that cannot be drawn is not kept (the next call tries again)."""
        kept = self.pictures.get(key)
        if kept is not None:
            return list(kept) if isinstance(kept, tuple) else kept  # a list the caller may change: a copy
        drawn = await self.draw(game, method, *args)
        if isinstance(drawn, bytes):
            self.pictures.put(key, drawn)
        elif isinstance(drawn, list) and all(isinstance(p, bytes) for p in drawn):
            self.pictures.put(key, tuple(drawn))
        return drawn

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
