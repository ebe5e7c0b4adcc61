"""Turn clocks on Discord: a background job that records the host's heartbeat (an outage is given back to every
clock; sharded, each shard's outage to its own games), then applies what the clocks owe (warnings, timeouts,
ended vacations) through the service and publishes the boards that changed, and settles the tournament matches
past their round's deadline; and the Resign confirmation button. The service decides everything (host/clock.py)."""

from __future__ import annotations

import functools
import logging
from datetime import datetime

import discord
from discord.ext import commands, tasks

from cogs import publish
from cogs.publisher import owned
from cogs.standings import round_deadlines
from cogs.views import Prefix, _FromCustomId, asker, guarded
from host.errors import GameError
from host.locale import t

log = logging.getLogger(__name__)

CHECK_EVERY_SECONDS = 60.0


class ResignButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.RESIGN.template()):
    """The confirmation of ``/game resign``: only a click on it gives the game up."""

    fields = ("game",)

    def __init__(self, game_id: int, label: str | None = None) -> None:
        super().__init__(discord.ui.Button(label=label or t("resign_button"), style=discord.ButtonStyle.danger,
                                           emoji="🏳️", custom_id=f"gh:{Prefix.RESIGN}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await self.resign(interaction, self.game, edit=True)

    @staticmethod
    async def resign(interaction: discord.Interaction, game_id: int, edit: bool = False) -> None:
        """Give the game up and say so (``edit``: in place of the question), then publish."""
        bot = interaction.client
        reply = interaction.response.edit_message if edit else functools.partial(
            interaction.response.send_message, ephemeral=True)
        try:
            await bot.service.resign(game_id, interaction.user.id, asker=asker(interaction))
        except GameError as exc:
            await reply(content=exc.text(interaction.locale), **({"view": None} if edit else {}))
            return
        await reply(content=t("resign_done", str(interaction.locale), game=game_id),
                    **({"view": None} if edit else {}))
        await publish.publish(bot, game_id=game_id)


class Clocks(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # before any interaction is handled (cog_load runs in setup_hook, before the gateway connects): a move
        # made before the first clock round must not be charged the time the bot was down
        try:
            await self.bot.service.heartbeat(shards=owned(self.bot), restart=True)
        except Exception:  # the clock round tries again
            log.exception("the start-up heartbeat failed")
        self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=CHECK_EVERY_SECONDS)
    async def loop(self) -> None:
        try:
            await self.tick()
        except Exception:  # a failed round must not stop the clocks
            log.exception("turn clocks failed")

    @loop.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def tick(self, now: datetime | None = None) -> list[int]:
        """One round: heartbeat (and outage give-back), then timeouts and warnings; the changed games' boards
        are published (their narration is in the outbox). Returns the games changed."""
        service = self.bot.service
        shards = owned(self.bot)  # this process's games only; its shards' heartbeats
        await service.heartbeat(now, shards=shards)
        changed = await service.expire_clocks(now, shards=shards)
        for game_id in changed:
            await publish.publish(self.bot, game_id=game_id)
        await round_deadlines(self.bot, now)
        return changed


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(ResignButton)
    await bot.add_cog(Clocks(bot))
