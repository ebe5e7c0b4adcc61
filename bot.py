"""Entry point: settings from the environment, logging, the store, the cogs; then run.

``create_bot(settings)`` builds the bot without connecting (tests use it).
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord
from discord.ext import commands

from cogs.translator import Translator
from host.cache import Locks
from host.locale import t
from host.outbox import Outbox
from host.service import GameService
from settings import NO_TOKEN_HELP, Settings
from store import Store

log = logging.getLogger("gamehost")

COGS = ["cogs.games", "cogs.rules", "cogs.reminders", "cogs.leaderboard", "cogs.tournaments", "cogs.publisher"]


class GameBot(commands.Bot):
    """The bot: one store, one game service, the game cogs and the persistent DynamicItems."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 service: GameService | None = None) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands and components only
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.store = store
        self.service = service
        # one publication per game at a time (cogs/publish.py); a lock lives while held or awaited (host/cache.py)
        self.publish_locks: dict[int, asyncio.Lock] = Locks()
        self.outbox: Outbox | None = None

    async def setup_hook(self) -> None:
        if self.store is None:
            self.store = await Store.connect(self.settings.database_url or self.settings.database_path)
        if self.service is None:
            self.service = GameService(self.store, render_processes=self.settings.render_processes,
                                       live_games=self.settings.live_games)
            await self.service.painter.warm_up()
        self.outbox = Outbox(self.service)
        await self.tree.set_translator(Translator())
        self.tree.on_error = self.on_app_command_error
        for name in COGS:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_commands()

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: discord.app_commands.AppCommandError) -> None:
        """Unexpected errors in slash commands: logged, and the user gets a short apology, not silence."""
        log.error("error in /%s", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        message = t("error_generic", str(interaction.locale))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            pass

    async def sync_commands(self) -> None:
        """Register the slash commands: instantly on DEV_GUILD_ID, else globally (may take up to an hour)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self.service is not None:
                self.service.close()
            if self.store is not None:
                store, self.store = self.store, None
                await store.close()


def create_bot(settings: Settings | None = None, **kwargs) -> GameBot:
    """Build the bot without connecting."""
    return GameBot(settings or Settings.from_env(), **kwargs)


def main() -> int:
    settings = Settings.from_env()
    logging.basicConfig(level=getattr(logging, settings.log_level, logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not settings.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    bot = create_bot(settings)

    async def runner() -> None:
        async with bot:
            await bot.start(settings.token)

    try:
        asyncio.run(runner())
    except discord.LoginFailure:
        print("Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal and try again.",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
