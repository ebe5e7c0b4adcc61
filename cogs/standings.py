"""League tables as Discord messages: the table embed, and the table (and winner) posted when a match ends."""

from __future__ import annotations

import discord

from engines import ENGINES
from host.locale import t


async def table_embed(bot, tournament_id: int, who=None) -> tuple[discord.Embed, object]:
    """The league table as an embed; ``who`` (an Asker) is fenced like any game (None: the bot itself)."""
    league, rows, over, total = await bot.service.tournament_table(tournament_id, asker=who)
    embed = discord.Embed(title=t("tournament_title", tournament=league.id, title=ENGINES[league.engine].title),
                          colour=discord.Colour.dark_gold())
    embed.description = "\n".join(
        t("tournament_row", place=i, name=discord.utils.escape_markdown(name), points=f"{r.points:g}", wins=r.wins,
          draws=r.draws, losses=r.losses) for i, (r, name) in enumerate(rows, start=1))
    embed.set_footer(text=t("tournament_progress", over=over, total=total))
    return embed, (league, rows)


async def match_over(bot, game) -> None:
    """Called when a league match has finished: the new table in the league's channel (and the winner)."""
    embed, (league, rows) = await table_embed(bot, game.tournament_id)
    channel = bot.get_channel(league.channel_id) or await bot.fetch_channel(league.channel_id)
    content = None
    if league.status == "finished" and rows:
        content = t("tournament_champion", tournament=league.id, name=rows[0][1])
    await channel.send(content=content, embed=embed, allowed_mentions=discord.AllowedMentions.none())
