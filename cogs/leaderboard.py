"""/leaderboard <game>: the server's Elo table for one game, from its finished games between people."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from engines import ENGINES
from host.locale import t

SHOWN = 15


class Leaderboard(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best players of a game on this server (Elo)")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[app_commands.Choice(name=e.title, value=k) for k, e in ENGINES.items()])
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        lang = str(interaction.locale)
        table = await self.bot.service.leaderboard(game, interaction.guild_id)
        embed = discord.Embed(title=t("leaderboard_title", lang, title=ENGINES[game].title),
                              colour=discord.Colour.dark_gold())
        if not table:
            embed.description = t("leaderboard_empty", lang)
        else:
            medals = {1: "🥇", 2: "🥈", 3: "🥉"}
            embed.description = "\n".join(
                t("leaderboard_line", lang, place=medals.get(i, f"{i}."), name=discord.utils.escape_markdown(name),
                  rating=round(r.rating), games=r.games, wins=r.wins)
                for i, (r, name) in enumerate(table[:SHOWN], start=1))[:4000]
            embed.set_footer(text=t("leaderboard_footer", lang))
        await interaction.response.send_message(embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Leaderboard(bot))
