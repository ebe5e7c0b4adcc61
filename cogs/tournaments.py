"""/tournament: round-robin leagues. ``/tournament new <game>`` posts the league with Join and Start buttons;
Start opens every match at once, each in its own thread; whenever a match ends, the league's channel gets the
new table, and the winner is announced when the last match is over. ``/tournament table <number>`` shows it."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs import publish
from cogs.components import _FromCustomId, asker, guarded
from engines import ENGINES
from host.locale import LANGUAGES, t, use_language
from host.service import MAX_ENTRIES, GameError

log = logging.getLogger(__name__)


def league_message(league) -> dict:
    """The league's public message: who is in, and the Join/Start buttons while it is open."""
    use_language(league.lang)
    embed = discord.Embed(title=t("tournament_title", tournament=league.id, title=ENGINES[league.engine].title),
                          description=t("tournament_body", organizer=f"<@{league.organizer_id}>"),
                          colour=discord.Colour.dark_gold())
    embed.add_field(name=t("tournament_players", count=len(league.entries), max=MAX_ENTRIES),
                    value="\n".join(f"{i}. {discord.utils.escape_markdown(name)}"
                                    for i, (_, name) in enumerate(league.entries, start=1)), inline=False)
    embed.set_footer(text=t(f"tournament_status_{league.status}"))
    view = discord.ui.View(timeout=None)
    if league.status == "open":
        view.add_item(LeagueJoin(league.id))
        view.add_item(LeagueStart(league.id))
    return {"embed": embed, "view": view}


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


class LeagueJoin(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:tj:(?P<args>.*)"):
    """Enter an open league (``gh:tj:<league>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_join"), style=discord.ButtonStyle.success,
                                           custom_id=f"gh:tj:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            league = await interaction.client.service.join_tournament(
                self.league_id, interaction.user.id, interaction.user.display_name, asker=asker(interaction))
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.response.edit_message(**league_message(league))


class LeagueStart(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:ts:(?P<args>.*)"):
    """The organizer starts the league (``gh:ts:<league>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_start"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:ts:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        await interaction.response.defer()
        try:
            league, outcomes = await bot.service.start_tournament(self.league_id, interaction.user.id,
                                                                  asker=asker(interaction))
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.edit_original_response(**league_message(league))
        channel = interaction.channel
        lines = []
        for outcome in outcomes:
            place = await open_match(bot, channel, outcome)
            game = outcome.game
            lines.append(t("tournament_match", first=game.seat_row(0).name, second=game.seat_row(1).name,
                           place=f"<#{place}>"))
        text = t("tournament_begun", tournament=league.id, count=len(outcomes)) + "\n" + "\n".join(lines)
        await channel.send(publish.clip_content(text), allowed_mentions=discord.AllowedMentions.none())


async def open_match(bot, channel, outcome) -> int:
    """A league match's own thread (or the channel when threads are not possible) with its first board."""
    game = outcome.game
    place = channel.id
    if isinstance(channel, discord.TextChannel):
        try:
            thread = await channel.create_thread(name=f"{ENGINES[game.engine].title} #{game.id}"[:100],
                                                 type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
            place = thread.id
        except discord.HTTPException as exc:
            log.warning("cannot create a thread for match %s: %s", game.id, exc)
    await bot.service.attach(game.id, thread_id=place)
    game = await bot.service.game(game.id)
    lobby = await publish.game_place(bot, game).send(**publish.lobby_message(game))
    await bot.service.attach(game.id, board_message_id=lobby.id)
    outcome.game = await bot.service.game(game.id)
    await publish.publish(bot, outcome)
    return place


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
        await interaction.response.send_message(**league_message(league))

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
    bot.add_dynamic_items(LeagueJoin, LeagueStart)
    await bot.add_cog(Tournaments(bot))
