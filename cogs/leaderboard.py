"""/leaderboard <game>: the server's ratings for one game (openskill, the conservative mu - 3 sigma, and the
number of games), from its finished games between people; /profile [user]: a person's ratings, games and wins
per game on this server."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.gamebot import GameBot
from cogs.weblinks import link_button, with_link
from engines import ENGINES
from host.locale import t
from host.tournaments import tournaments_of
from tournaments.ratings import shown

SHOWN = 15


class Leaderboard(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best players of a game on this server (ratings)")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[app_commands.Choice(name=e.title, value=k) for k, e in ENGINES.items()])
    async def leaderboard(self, interaction: discord.Interaction[GameBot], game: str) -> None:
        lang = str(interaction.locale)
        if game not in ENGINES:  # (a stale client, or a hand-made request: the choices offer only games)
            await interaction.response.send_message(t("unknown_game", lang, key=game[:40]), ephemeral=True)
            return
        table = await tournaments_of(self.bot).leaderboard(game, interaction.guild_id)
        embed = discord.Embed(title=t("leaderboard_title", lang, title=ENGINES[game].title),
                              colour=discord.Colour.dark_gold())
        if not table:
            embed.description = t("leaderboard_empty", lang)
        else:
            medals = {1: "🥇", 2: "🥈", 3: "🥉"}
            embed.description = "\n".join(
                t("leaderboard_line", lang, place=medals.get(i, f"{i}."), name=discord.utils.escape_markdown(name),
                  rating=shown(r.rating), games=r.games, wins=r.wins)
                for i, (r, name) in enumerate(table[:SHOWN], start=1))[:4000]
            embed.set_footer(text=t("leaderboard_footer", lang))
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="profile", description="Ratings, games and wins of a player on this server")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose profile (default: yours)")
    async def profile(self, interaction: discord.Interaction[GameBot], user: discord.User | None = None) -> None:
        lang = str(interaction.locale)
        who = user or interaction.user
        found = await tournaments_of(self.bot).profile(who.id, interaction.guild_id)
        embed = discord.Embed(title=t("profile_title", lang, name=discord.utils.escape_markdown(who.display_name)),
                              colour=discord.Colour.dark_gold())
        if not found:
            embed.description = t("profile_empty", lang)
        for key, r, rank in found:
            embed.add_field(name=ENGINES[key].title, inline=False, value=t(
                "profile_line", lang, rating=shown(r.rating), mu=f"{r.mu:.1f}", sigma=f"{r.sigma:.1f}",
                games=r.games, wins=r.wins, rank=rank))
        embed.set_footer(text=t("leaderboard_footer", lang))
        view = with_link(None, await link_button(self.bot, "profile", interaction.guild_id, who.id, lang)) \
            if found else None
        await interaction.response.send_message(embed=embed, ephemeral=True, view=view or discord.utils.MISSING)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Leaderboard(bot))
