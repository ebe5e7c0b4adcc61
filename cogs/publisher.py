"""The background publisher: delivers what the outbox still owes (boards not yet shown after a crash or a failed
post, DMs, AI turns to resume), at start-up and then every few seconds (``host/outbox.py``)."""

from __future__ import annotations

import logging
from datetime import timedelta

from discord.ext import commands, tasks

from cogs import publish

log = logging.getLogger(__name__)

EVERY_SECONDS = 5.0
#: an entry younger than this is left to the click that made it (it is being published right now)
GRACE = timedelta(seconds=10)


class Publisher(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self._first = True

    async def cog_load(self) -> None:
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=EVERY_SECONDS)
    async def loop(self) -> None:
        try:
            if self._first:
                resumed = await self.bot.outbox.resume_stalled(owned(self.bot))
                if resumed:
                    log.info("resuming the AI turns of %d games", resumed)
            await self.publish_pending(grace=timedelta(0) if self._first else GRACE)
            self._first = False
        except Exception:  # a failed round must not stop the publisher
            log.exception("publishing pending boards failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def publish_pending(self, grace: timedelta = GRACE) -> int:
        """Deliver every due publication (of this process's shards); returns how many games were handled."""
        games = await self.bot.outbox.due(owned(self.bot), older_than=grace)
        for game_id in games:
            delivered = await publish.publish(self.bot, game_id=game_id)
            if not delivered.shown:
                log.info("game %s: %s", game_id, delivered.status)
        return len(games)

def owned(bot: commands.Bot):
    """The shards whose games this process handles (host/shards.py; None: all). By Discord's formula from the
    settings, not by ``bot.guilds``: a server that is briefly unavailable is still this process's, and never
    another's."""
    return getattr(bot, "owned", None)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Publisher(bot))
