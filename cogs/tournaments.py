"""/tournament: round-robin leagues. ``/tournament new <game>`` posts the league with Join and Start buttons;
Start opens every match at once, each in its own thread; whenever a match ends, the league's channel gets the
new table, and the winner is announced when the last match is over. ``/tournament table <number>`` shows it."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs import publish
from cogs.standings import table_embed
from cogs.views import asker
from engines import ENGINES
from host.locale import LANGUAGES
from host.service import GameError

log = logging.getLogger(__name__)


class Tournaments(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Leagues: everybody plays everybody once")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @tournament.command(name="new", description="Open a league of a game; players join with the button")
    @app_commands.describe(game="Which game", language="Language of the matches (default: yours)")
    @app_commands.choices(game=[app_commands.Choice(name=e.title, value=k) for k, e in ENGINES.items()],
                          language=[app_commands.Choice(name=n, value=c) for c, n in LANGUAGES.items()])
    async def new(self, interaction: discord.Interaction, game: str, language: str | None = None) -> None:
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        try:
            league = await self.bot.service.create_tournament(
                game, user_id=interaction.user.id, user_name=interaction.user.display_name,
                guild_id=interaction.guild_id, channel_id=channel.id if channel else interaction.channel_id,
                lang=language or str(interaction.locale))
        except GameError as exc:  # an unknown game (from a stale client)
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.response.send_message(**publish.league_message(league))

    @tournament.command(name="table", description="The table of a league")
    @app_commands.describe(tournament="League number")
    async def table(self, interaction: discord.Interaction, tournament: int) -> None:
        try:
            embed, _ = await table_embed(self.bot, tournament, asker(interaction))
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tournaments(bot))
