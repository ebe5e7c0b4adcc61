"""Live pages: the server-sent events that bring each move to everybody watching a game.

One :class:`LiveHub` per process watches the games somebody has open. It learns of a move in two ways: in the
bot's own process the game service tells it right after the commit (``poke``, an observer of the service); and
every ``POLL_S`` it reads ``(version, status)`` of every watched game in one indexed query
(``Store.game_versions``). The poll is what a separate web process (``python bot.py web``) relies on, and it also
catches what happens outside moves (a game abandoned, a clock running out in another process). It was chosen over
PostgreSQL's LISTEN/NOTIFY because it works the same on SQLite and PostgreSQL, needs no trigger or extra
connection per process, and costs one small query per second per process however many games and viewers there
are (a second of delay at most, nothing for a board game).

A change is turned into a message once per game and language (not per viewer) and put in each viewer's queue;
a viewer who cannot keep up loses older messages, never the newest (each message is the whole state of the page).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

POLL_S = 1.0
QUEUE = 4
#: most event streams one process serves at once (each is an open connection and a queue)
MAX_STREAMS = 20_000


class Full(Exception):
    """The process serves ``MAX_STREAMS`` streams already."""


class LiveHub:
    """Watches games for viewers. ``build(game_id, lang)`` makes the message of a game's current state (None:
    nothing to say, e.g. the game is gone)."""

    def __init__(self, store, build: Callable[[int, str], Awaitable[dict | None]], *, poll_s: float = POLL_S,
                 max_streams: int = MAX_STREAMS) -> None:
        self.store = store
        self.build = build
        self.poll_s = poll_s
        self.max_streams = max_streams
        self._viewers: dict[int, dict[asyncio.Queue, str]] = {}
        self._seen: dict[int, tuple[int, str]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task | None = None
        #: messages built and delivered since start (the benchmark's figures)
        self.built = 0
        self.delivered = 0

    @property
    def streams(self) -> int:
        return sum(len(v) for v in self._viewers.values())

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="web-live-hub")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def poke(self, game_id: int) -> None:
        """A game changed (called by the game service after a commit): look now, not at the next poll."""
        if game_id in self._viewers:
            self._wake.set()

    def observer(self, game, state, events) -> None:
        """The game service's observer signature (``GameService.observers``)."""
        self.poke(game.id)

    def subscribe(self, game_id: int, lang: str, seen: tuple[int, str]) -> asyncio.Queue:
        """A queue of messages for one viewer of ``game_id``, who was shown ``seen`` (version, status)."""
        if self.streams >= self.max_streams:
            raise Full
        queue: asyncio.Queue = asyncio.Queue(QUEUE)
        self._viewers.setdefault(game_id, {})[queue] = lang
        self._seen.setdefault(game_id, seen)
        if self._seen[game_id] != seen:  # it moved between the page and the stream: tell at once
            self._wake.set()
            self._seen[game_id] = (-1, "")
        return queue

    def unsubscribe(self, game_id: int, queue: asyncio.Queue) -> None:
        viewers = self._viewers.get(game_id)
        if viewers is not None:
            viewers.pop(queue, None)
            if not viewers:
                del self._viewers[game_id]
                self._seen.pop(game_id, None)

    async def _run(self) -> None:
        while True:
            # (asyncio.timeout, not wait_for: no extra task per round, which a caller waiting for the bot's
            # tasks to settle would count as work)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll_s):
                    await self._wake.wait()
            self._wake.clear()
            try:
                await self.check()
            except Exception:  # a database hiccup: the next round tries again
                log.exception("the live pages could not look for moves")

    async def check(self) -> int:
        """Look at every watched game once; tell the viewers of those that changed. Returns how many changed."""
        watched = list(self._viewers)
        if not watched:
            return 0
        now = await self.store.game_versions(watched)
        changed = [g for g in watched if g in now and now[g] != self._seen.get(g)]
        for game_id in changed:
            self._seen[game_id] = now[game_id]
            await self._tell(game_id)
        return len(changed)

    async def _tell(self, game_id: int) -> None:
        viewers = self._viewers.get(game_id, {})
        messages: dict[str, dict | None] = {}
        for lang in set(viewers.values()):
            try:
                messages[lang] = await self.build(game_id, lang)
            except Exception:
                log.exception("the live message of game %s could not be made", game_id)
                messages[lang] = None
            self.built += 1
        for queue, lang in list(self._viewers.get(game_id, {}).items()):
            message = messages.get(lang)
            if message is None:
                continue
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()  # the oldest goes: each message is the whole page
            queue.put_nowait(message)
            self.delivered += 1
