"""Animated replays, bounded: drawn in a worker process of their own (``REPLAY_PROCESSES``, one by default), one
at a time per process, in a queue; each server may have only so many queued or being drawn (``/limits``:
``replays_per_server``); and a finished game's replay is kept in the store (``replay_cache``, at most
``CACHE_BYTES``), so asking again costs a read.

Drawing the replay of a 900-step game takes seconds of CPU and a few hundred MB: in a process of its own, which
is replaced after every replay (its memory goes back to the machine) and may use at most ``MEMORY`` bytes, that
never touches the bot's own event loop or memory, and three members asking at once wait their turn instead of
adding up. The same game asked for twice while it is drawn is drawn once.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass

from host import replays
from host.errors import GameError
from host.limits import Refused, ServerLimits, retry_at
from host.workers import Overrun, Workers

#: bump when replay pictures change, so that cached replays are drawn again
CACHE_VERSION = 1
#: bytes of replays the store keeps (the least recently used go first)
CACHE_BYTES = 256 * 1024 * 1024
#: replays queued or being drawn at once, all servers together
QUEUE_MAX = 20
#: address space a replay process may use (a 900-step game needs about 320 MB more than a fresh process)
MEMORY = 2 * 1024 * 1024 * 1024


def _animate(record: dict, reveal: bool) -> dict:
    """The job (in the replay process): the animation of ``record``, or the refusal's key and fields."""
    try:
        animation = replays.animate(replays.Record.from_json(record), reveal=reveal)
    except GameError as exc:
        return {"error": exc.key, "fields": exc.fields, "text": str(exc)}
    return {"data": animation.data, "shown": animation.shown, "steps": animation.steps,
            "revealed": animation.revealed}


def _step(record: dict, seat: int | None, step: int) -> dict:
    """The job of one step of a step-through: its narration lines and picture (or the refusal)."""
    rec = replays.Record.from_json(record)
    try:
        (frame,) = replays.frames(rec, seat, upto=step, only={step})
        return {"lines": frame.lines, "image": replays.picture(rec, frame, seat)}
    except GameError as exc:
        return {"error": exc.key, "fields": exc.fields, "text": str(exc)}


def _retrieved(task: asyncio.Task) -> None:
    if not task.cancelled():
        task.exception()


def _refusal(result: dict) -> GameError:
    return GameError(result["text"], result["error"], result["fields"])


@dataclass
class Ticket:
    """A request for a replay: already made (``cached``), or its place in the queue (``ahead``: replays queued or
    drawn before it) and the task drawing it."""

    cached: replays.Animation | None = None
    task: asyncio.Task[replays.Animation] | None = None
    ahead: int = 0

    async def animation(self) -> replays.Animation:
        """The replay (GameError when it cannot be drawn, or took longer than its budget)."""
        if self.cached is not None:
            return self.cached
        if self.task is None:
            raise ValueError("a ticket holds its replay or the task drawing it")
        return await asyncio.shield(self.task)


class ReplayQueue:
    """The replay queue of one bot process (see the module's docstring)."""

    def __init__(self, store, limits: ServerLimits, processes: int = 1, *, workers: Workers | None = None) -> None:
        self.store, self.limits = store, limits
        self.workers = Workers(processes, name="replays", max_tasks=1, memory=MEMORY, threads=max(1, processes))
        #: for one step of a step-through: the service's workers (a step is short; it need not queue behind
        #: a whole animation)
        self.step_workers = workers or self.workers
        #: (game id - None for a record from a file -, kind) -> the task drawing it
        self._drawing: dict[tuple[int | None, str], asyncio.Task[replays.Animation]] = {}
        self._per_server: dict[int | None, int] = {}
        self._took: deque[float] = deque([10.0], maxlen=20)

    @staticmethod
    def kind(reveal: bool) -> str:
        return f"v{CACHE_VERSION}:{'hands' if reveal else 'public'}"

    def estimate(self, jobs: int) -> float:
        """Seconds until ``jobs`` replays now queued will have been drawn (by the recent ones' times)."""
        per = sum(self._took) / len(self._took)
        return per * max(1, jobs) / max(1, self.workers.processes)

    async def ticket(self, record: replays.Record, reveal: bool, guild_id: int | None) -> Ticket:
        """The cached replay, or a place in the queue; :class:`Refused` (saying when to try again) when the
        server already has as many replays queued or drawn as it allows, or the queue is full."""
        kind = self.kind(reveal)
        cached = await self.store.cached_replay(record.game_id, kind)
        if cached is not None:
            return Ticket(cached=replays.Animation(cached["data"], cached["shown"], cached["steps"],
                                                   cached["revealed"]))
        key = (record.game_id, kind)
        task = self._drawing.get(key)
        if task is not None:  # somebody asked for the same replay a moment ago: it is drawn once
            return Ticket(task=task, ahead=len(self._drawing) - 1)
        limit = (await self.limits.of(guild_id))["replays_per_server"]
        busy = self._per_server.get(guild_id, 0)
        task = self._drawing.get(key)
        if task is not None:
            return Ticket(task=task, ahead=len(self._drawing) - 1)
        if busy >= limit or len(self._drawing) >= QUEUE_MAX:
            count = busy if busy >= limit else len(self._drawing)
            raise Refused.of("limits_replays_busy", count=count, retry=retry_at(self.estimate(len(self._drawing))))
        ahead = len(self._drawing)
        self._per_server[guild_id] = busy + 1
        task = self._drawing[key] = asyncio.create_task(self._draw(record, reveal, guild_id, key))
        task.add_done_callback(_retrieved)  # (whoever asked may be gone by the time it fails)
        return Ticket(task=task, ahead=ahead)

    async def _draw(self, record: replays.Record, reveal: bool, guild_id: int | None,
                    key: tuple[int | None, str]) -> replays.Animation:
        try:
            began = time.monotonic()
            try:
                result = await self.workers.run("replay", _animate, record.to_json(), reveal)
            except Overrun as exc:
                raise GameError.of("replay_too_slow", game=record.game_id, seconds=f"{exc.budget:g}") from None
            if "error" in result:
                raise _refusal(result)
            self._took.append(time.monotonic() - began)
            animation = replays.Animation(result["data"], result["shown"], result["steps"], result["revealed"])
            if record.game_id is not None:
                await self.store.cache_replay(record.game_id, key[1], animation.data, shown=animation.shown,
                                              steps=animation.steps, revealed=animation.revealed, budget=CACHE_BYTES)
            return animation
        finally:
            del self._drawing[key]
            self._per_server[guild_id] -= 1
            if not self._per_server[guild_id]:
                del self._per_server[guild_id]

    async def step(self, record: replays.Record, seat: int | None, step: int) -> tuple[list[str], bytes]:
        """(narration lines, picture) of one step of a step-through, worked out off the loop with a budget."""
        try:
            result = await self.step_workers.run("replay_step", _step, record.to_json(), seat, step)
        except Overrun as exc:
            raise GameError.of("replay_too_slow", game=record.game_id, seconds=f"{exc.budget:g}") from None
        if "error" in result:
            raise _refusal(result)
        return result["lines"], result["image"]

    def close(self) -> None:
        self.workers.close()


def replays_of(bot) -> ReplayQueue:
    """The bot's replay queue (made when first needed, over its game service's store, limits and workers)."""
    if getattr(bot, "replay_queue", None) is None:
        service = bot.service
        bot.replay_queue = ReplayQueue(service.store, service.limits, getattr(bot.settings, "replay_processes", 1),
                                       workers=service.workers)
    return bot.replay_queue
