"""Turn reminders for games played over days: a game that has waited longer than ``REMIND_AFTER_HOURS`` for a
person's move mentions them in its thread, once per board. The service decides who and what; this cog only
runs the timer and posts."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import discord
from discord.ext import commands, tasks

from cogs import publish
from cogs.gamebot import GameBot
from cogs.publisher import owned
from host.locale import use_language

log = logging.getLogger(__name__)

CHECK_EVERY_MINUTES = 10


class Reminders(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.after = timedelta(hours=bot.settings.remind_after_hours)

    async def cog_load(self) -> None:
        if self.after > timedelta(0):
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(minutes=CHECK_EVERY_MINUTES)
    async def loop(self) -> None:
        try:
            await self.remind_once()
        except Exception:  # a failed round must not stop the timer
            log.exception("reminders failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def remind_once(self, now: datetime | None = None) -> int:
        """Post the reminders that are due; returns how many were posted."""
        posted = 0
        # a batch at a time; of this process's shards only
        async for reminder in self.bot.service.reminders(self.after, now, shards=owned(self.bot)):
            use_language(reminder.game.lang)
            try:
                await publish.game_place(self.bot, reminder.game).send(
                    reminder.text, allowed_mentions=publish.mentions(reminder.users))
                posted += 1
            except discord.HTTPException as exc:  # e.g. the thread was deleted: nothing to remind in
                log.info("cannot remind in game %s: %s", reminder.game.id, exc)
        return posted


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Reminders(bot))
