"""The background publisher: delivers what the outbox still owes (boards not yet shown after a crash or a failed
post, DMs, AI turns to resume), at start-up and then every few seconds (``host/outbox.py``).

One game never holds up another: each due game is published by a task of its own, a few at a time
(``AT_ONCE``); a game whose publication fails waits for its own next try (host/outbox.py) while the round goes on
with the others; a round waits at most ``ROUND_WAIT`` for its games, so one that hangs (Discord not answering)
keeps its task but does not delay the next round's games. Notes owed to the threads of games whose board was set
aside go out in the same rounds."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta

from discord.ext import commands, tasks

from cogs import publish
from cogs.gamebot import GameBot

log = logging.getLogger(__name__)

EVERY_SECONDS = 5.0
#: an entry younger than this is left to the click that made it (it is being published right now)
GRACE = timedelta(seconds=10)
#: games published at the same time by one round
AT_ONCE = 4
#: how long a round waits for its games; a game still being published then goes on in the background
ROUND_WAIT = 30.0


class Publisher(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._first = True
        self._resumed = False
        self._slots = asyncio.Semaphore(AT_ONCE)
        #: game id -> the task publishing it (a game is never published by two tasks of the publisher at once)
        self._busy: dict[int, asyncio.Task] = {}

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()
        busy = list(self._busy.values())
        for task in busy:  # as a crash would: whatever was not recorded is published again after the restart
            task.cancel()
        await asyncio.gather(*busy, return_exceptions=True)

    @tasks.loop(seconds=EVERY_SECONDS)
    async def loop(self) -> None:
        try:
            if not self._resumed:
                resumed = await self.bot.outbox.resume_stalled(owned(self.bot))
                self._resumed = True
                if resumed:
                    log.info("resuming the AI turns of %d games", resumed)
        except Exception:  # tried again next round; the boards owed are published meanwhile
            log.exception("resuming the AI turns failed")
        try:
            await self.publish_pending(grace=timedelta(0) if self._first else GRACE)
            self._first = False
        except Exception:  # a failed round must not stop the publisher
            log.exception("publishing pending boards failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def publish_pending(self, grace: timedelta = GRACE) -> int:
        """Deliver every due publication (of this process's shards), and the notes owed for those set aside;
        returns how many games were handled."""
        started = time.perf_counter()
        games = await self.bot.outbox.due(owned(self.bot), older_than=grace)
        results: dict[int, publish.Delivered | None] = {}
        waiting = [self._start(game_id, results) for game_id in games if game_id not in self._busy]
        if waiting:
            await asyncio.wait(waiting, timeout=ROUND_WAIT)
        await publish.tell_set_aside(self.bot)
        if games:
            failed = sorted(g for g, d in results.items() if d is None or not d.shown)
            log.info("publisher round: %d games due, %d shown, %d not (%s), %d still going after %.1f s",
                     len(games), sum(1 for d in results.values() if d is not None and d.shown), len(failed),
                     ", ".join(map(str, failed)) or "-", len(games) - len(results), time.perf_counter() - started)
        return len(games)

    def _start(self, game_id: int, results: dict) -> asyncio.Task:
        task = asyncio.create_task(self._publish_one(game_id, results), name=f"publish game {game_id}")
        self._busy[game_id] = task
        task.add_done_callback(lambda _: self._busy.pop(game_id, None))
        return task

    async def _publish_one(self, game_id: int, results: dict) -> None:
        async with self._slots:
            try:
                delivered = await publish.publish(self.bot, game_id=game_id)
            except Exception:  # (the store failed while recording the failure) this game only
                log.exception("publishing game %s failed", game_id)
                results[game_id] = None
                return
        results[game_id] = delivered
        if not delivered.shown:
            log.info("game %s: %s", game_id, delivered.status)


def owned(bot: GameBot):
    """The shards whose games this process handles (host/shards.py; None: all). By Discord's formula from the
    settings, not by ``bot.guilds``: a server that is briefly unavailable is still this process's, and never
    another's."""
    return getattr(bot, "owned", None)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Publisher(bot))
