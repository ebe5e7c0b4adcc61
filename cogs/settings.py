"""/settings: a server's own settings (members with Manage Server). ``/settings web public|unlisted|off``: whether
the web companion shows this server's games to everybody (its hub listed on the front page), only through the
links the bot posts (the default), or not at all (host/weblinks.py)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.contexts import GUILD_INSTALL, SERVERS
from cogs.gamebot import GameBot
from host.locale import game_text
from host.weblinks import MODES

MODE_CHOICES = [app_commands.Choice(name="public — listed on the front page", value="public"),
                app_commands.Choice(name="unlisted — only through the bot's links (default)", value="unlisted"),
                app_commands.Choice(name="off — no web pages, no links", value="off")]


class ServerSettings(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    settings = app_commands.Group(name="settings", description="This server's settings (Manage Server)",
                                  guild_only=True, allowed_contexts=SERVERS, allowed_installs=GUILD_INSTALL,
                                  default_permissions=discord.Permissions(manage_guild=True))

    @settings.command(name="web", description="Game pages on the web: public, unlisted (only by link) or off")
    @app_commands.describe(mode="Who may see this server's game pages on the web")
    @app_commands.choices(mode=MODE_CHOICES)
    async def web(self, interaction: discord.Interaction[GameBot], mode: str) -> None:
        lang = str(interaction.locale)
        if interaction.guild_id is None:
            await interaction.response.send_message(game_text("web", "settings_server_only", lang), ephemeral=True)
            return
        # the command's default permissions can be widened by a server's admins: checked here as well
        permissions = interaction.permissions
        if not (permissions and permissions.manage_guild):
            await interaction.response.send_message(game_text("web", "settings_manage_only", lang), ephemeral=True)
            return
        if mode not in MODES:  # (a stale client may send anything)
            mode = "unlisted"
        links = self.bot.weblinks
        if links is None:  # (made in the bot's setup_hook, before any command can come)
            raise RuntimeError("the bot's web links are not set up")
        guild = interaction.guild
        await links.set_mode(interaction.guild_id, mode, name=guild.name if guild else None)
        hub = await links.hub(interaction.guild_id)
        if links.base is None:
            text = game_text("web", "settings_web_no_url", lang, mode=mode)
        else:
            text = game_text("web", f"settings_web_{mode}", lang, url=hub or "")
        await interaction.response.send_message(text, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ServerSettings(bot))
