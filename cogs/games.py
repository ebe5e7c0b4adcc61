"""The /game command group: what every game has (join, start, status, hand, play, leave, abandon, list, log,
resign, away, settings, server-settings; replays from cogs/replays.py). A game is opened with its own ``/<game> new``
(cogs/newgame.py). Thin: every decision is the game service's."""

from __future__ import annotations

import logging
from io import BytesIO

import discord
from discord import app_commands
from discord.ext import commands

from cogs import actions, publish
from cogs.contexts import EVERYWHERE, GUILD_INSTALL
from cogs.newgame import LEVEL_CHOICES
from cogs.publisher import owned
from cogs.replays import REPLAY_ITEMS, commands_for
from cogs.views import DYNAMIC_ITEMS, CancelButton, Prefix, RematchButton, _FromCustomId, asker, guarded
from engines import ENGINES
from host.errors import GameError
from host.locale import t

log = logging.getLogger(__name__)

def title_of(game) -> str:
    """The game's title; the stored key of a kind of game this version does not have."""
    return ENGINES[game.engine].title if game.engine in ENGINES else game.engine


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    games = await interaction.client.service.visible_games(asker(interaction))
    out = []
    for g in games:
        label = f"#{g.id} {title_of(g)} — {', '.join(s.name for s in g.seats)}"
        if current in str(g.id) or current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=g.id))
    return out[:25]


async def log_page(interaction: discord.Interaction, game_id: int, *, upto: int | None = None,
                   start: int | None = None) -> dict:
    """A page of ``/game log`` (content and its paging buttons) in the asker's language; GameError as the
    service refuses."""
    lang = str(interaction.locale)
    page = await interaction.client.service.log(game_id, upto=upto, start=start, asker=asker(interaction))
    if not page.total:
        return {"content": t("log_empty", lang)}
    head = t("log_title", lang, game=game_id, title=ENGINES[page.game.engine].title, first=page.first,
             last=page.last, total=page.total)
    body = "\n".join(page.lines) or t("log_empty", lang)
    view = discord.ui.View(timeout=None)
    older, newer = page.first > 1, page.last < page.total
    for item in (LogButton(game_id, 1, 1, "⏮", not older), LogButton(game_id, max(1, page.first - 1), 0, "◀", not older),
                 LogButton(game_id, min(page.total, page.last + 1), 1, "▶", not newer),
                 LogButton(game_id, page.total, 0, "⏭", not newer)):
        view.add_item(item)
    return {"content": publish.clip_content(head + "\n" + body), "view": view}


class LogButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LOG.template()):
    """Another page of ``/game log``: ``gh:lg:<game>:<move>:<from>``, the page ending at ``move`` (``from`` 0) or
    starting at it (1)."""

    fields = ("game", "move", "forward")

    def __init__(self, game_id: int, move: int, forward: int, emoji: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"gh:{Prefix.LOG}:{game_id}:{move}:{forward}"))
        self.game, self.move, self.forward = game_id, move, forward

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            page = await log_page(interaction, self.game, **{"start" if self.forward else "upto": self.move})
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(**page, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(**page, ephemeral=True,
                                                    allowed_mentions=discord.AllowedMentions.none())


class Games(commands.Cog):
    """Slash commands to create, join and play games."""

    game = app_commands.Group(name="game", description="Play tabletop games in this server",
                              allowed_contexts=EVERYWHERE, allowed_installs=GUILD_INSTALL)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        for command in commands_for(self.game):  # replay, steps, history, export (cogs/replays.py)
            self.game.add_command(command)

    async def _which(self, interaction: discord.Interaction, game: int | None, *, readable: bool = True) -> int:
        thread_id = interaction.channel_id if isinstance(interaction.channel, discord.Thread) else None
        found = await self.bot.service.find_game(asker(interaction), thread_id=thread_id, game_id=game,
                                                 readable=readable)
        return found.id

    @game.command(name="join", description="Join an open game")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            game_id = await self._which(interaction, game)
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await actions.join(interaction, game_id)

    @game.command(name="start", description="Start your game with the players who have joined")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            game_id = await self._which(interaction, game)
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await actions.start(interaction, game_id)

    @game.command(name="play", description="Type your move instead of clicking (e.g. the text of a button)")
    @app_commands.describe(move="What to do, e.g. \"play red 3\" or a field name", game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def play(self, interaction: discord.Interaction, move: str, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            game_id = await self._which(interaction, game)
            outcome = await self.bot.service.act_text(game_id, interaction.user.id, move, asker=asker(interaction))
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.followup.send(t("done_action", label=outcome.done_label), ephemeral=True)
        await publish.publish(self.bot, outcome)

    @game.command(name="status", description="Show a game's board and whose turn it is")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def status(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = str(interaction.locale)
        who = asker(interaction)
        trouble: list[str] = []
        try:
            game_id = await self._which(interaction, game)
            # a board that could not be posted (host/outbox.py): said to everyone, the error to moderators
            trouble = await self.bot.outbox.trouble(game_id, lang, moderator=who.moderator)
            outcome = await self.bot.service.status(game_id, asker=who)
        except GameError as exc:
            answer = "\n".join([exc.text(interaction.locale), *trouble])
            await interaction.followup.send(publish.clip_content(answer), ephemeral=True)
            return
        row = outcome.game
        head = "\n".join([t("status_title", lang, title=ENGINES[row.engine].title, game=row.id,
                             status=t("status_" + row.status, lang)), *trouble])
        if outcome.board is None:
            await interaction.followup.send(head, ephemeral=True, **publish.lobby_message(row))
            return
        kwargs = {"content": publish.clip_content(head + "\n" + outcome.board.text), "ephemeral": True,
                  "allowed_mentions": discord.AllowedMentions.none()}
        if outcome.board.image is not None:
            kwargs["file"] = discord.File(BytesIO(outcome.board.image), filename=outcome.board.filename)
        if row.status == "finished" and row.seat_of(interaction.user.id) is not None:
            kwargs["view"] = discord.ui.View(timeout=None).add_item(RematchButton(row.id))
        await interaction.followup.send(**kwargs)

    @game.command(name="hand", description="See your hand (only you see it) and take your turn")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            game_id = await self._which(interaction, game)
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await actions.send_private(interaction, game_id, require_turn=False)

    @game.command(name="leave", description="Leave a game (in a running game the AI takes your seat)")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = str(interaction.locale)
        try:
            game_id = await self._which(interaction, game)
            row = await self.bot.service.game(game_id, asker(interaction))
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        # leaving a running game is for good (the AI keeps the seat): asked first, unless turned off
        if (row.status == "running" and row.seat_of(interaction.user.id) is not None
                and (await self.bot.service.settings(interaction.user.id)).get("confirm", True)):
            view = discord.ui.View(timeout=None)
            view.add_item(actions.LeaveButton(game_id, t("leave_button", lang)))
            view.add_item(CancelButton(game_id, t("confirm_cancel", lang)))
            await interaction.followup.send(t("leave_confirm", lang, game=game_id) + "\n" + t("confirm_hint", lang),
                                            view=view, ephemeral=True)
            return
        await actions.leave_game(interaction, game_id)

    @game.command(name="abandon", description="End a game without a result (host or Manage Server)")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def abandon(self, interaction: discord.Interaction, game: int | None = None) -> None:
        # deferred privately: a refusal ("no such game" for another server's game) is for the asker only; the
        # game's end is told publicly in its own place
        await interaction.response.defer(ephemeral=True, thinking=True)
        name = interaction.user.display_name
        try:
            # (a game this version cannot play can still be ended)
            game_id = await self._which(interaction, game, readable=False)
            before = await self.bot.service.game(game_id, asker(interaction), readable=False)
            # a game that was played gets a last board saying so (owed through the outbox with the change); one
            # that cannot be read is told in plain text below
            drawn = before.status == "running" and self.bot.service.unreadable(before) is None
            line = [t("abandoned", before.lang, game=game_id, name=name)] if drawn else None
            row = await self.bot.service.abandon(game_id, interaction.user.id, asker=asker(interaction),
                                                 publish=line, by=name)
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.followup.send(t("abandoned", str(interaction.locale), game=game_id, name=name),
                                        ephemeral=True)
        if line is not None:
            await publish.publish(self.bot, game_id=game_id)
            await publish.update_announcement(self.bot, row)
            return
        text = t("abandoned", row.lang, game=game_id, name=name)
        try:
            await publish.game_place(self.bot, row).send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("could not tell the place of game %s that it was abandoned", game_id)
        if row.board_message_id:
            try:
                await publish.game_place(self.bot, row).get_partial_message(row.board_message_id).edit(view=None)
            except discord.HTTPException:
                pass
        await publish.update_announcement(self.bot, row)

    @game.command(name="settings", description="Your own settings for every game (only you see them)")
    @app_commands.describe(dm="Send me my hand and choices by direct message on my turn",
                           auto_pass="Pass for me when I can do nothing but pass (reaction windows)",
                           stop_when_opponent_acts="Ask me to respond whenever the opponent acts (Kiválasztottak)",
                           confirm="Ask “Are you sure?” before a retreat, a phase passed away, leaving, resigning")
    async def settings(self, interaction: discord.Interaction, dm: bool | None = None,
                       auto_pass: bool | None = None, stop_when_opponent_acts: bool | None = None,
                       confirm: bool | None = None) -> None:
        current = await self.bot.service.settings(interaction.user.id, dm=dm, auto_pass=auto_pass,
                                                  stop_on_opponent=stop_when_opponent_acts, confirm=confirm)
        on = {True: "✅", False: "—"}
        lang = str(interaction.locale)
        lines = [t("settings_title", lang),
                 t("settings_dm", lang, value=on[current.get("dm", True)]),
                 t("settings_auto_pass", lang, value=on[current.get("auto_pass", True)]),
                 t("settings_stop", lang, value=on[current.get("stop_on_opponent", True)]),
                 t("settings_confirm", lang, value=on[current.get("confirm", True)])]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @game.command(name="server-settings", description="This server's game settings (Manage Server to change them)")
    @app_commands.describe(ai_level="How strong the AI plays for timed-out players and seats left (leagues, "
                                    "tournaments)")
    @app_commands.choices(ai_level=LEVEL_CHOICES)
    async def server_settings(self, interaction: discord.Interaction, ai_level: str | None = None) -> None:
        lang = str(interaction.locale)
        who = asker(interaction)
        if who.guild_id is None:
            await interaction.response.send_message(t("server_settings_no_server", lang), ephemeral=True)
            return
        if ai_level is not None and not who.moderator:
            await interaction.response.send_message(t("server_settings_need_manage", lang), ephemeral=True)
            return
        try:
            current, changed = await self.bot.service.server_settings(who.guild_id, ai_level=ai_level)
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        level = t("ai_level_" + current["ai_level"], lang)
        lines = [t("server_settings_saved" if changed else "server_settings_title", lang),
                 t("server_settings_ai_level", lang, value=level)]
        if ai_level is not None and not changed:
            lines.append(t("server_settings_unchanged", lang))
        await interaction.response.send_message("\n".join(lines), ephemeral=True)

    @game.command(name="log", description="What happened in a game, told again page by page")
    @app_commands.describe(game="Game number (defaults to the game of this thread)",
                           move="Up to this move (default: the latest)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def log(self, interaction: discord.Interaction, game: int | None = None, move: int | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            game_id = await self._which(interaction, game)
            page = await log_page(interaction, game_id, upto=move)
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.followup.send(**page, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @game.command(name="resign", description="Give a running game up: you are ranked last (asks to confirm)")
    @app_commands.describe(game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        from cogs.clocks import ResignButton  # the button's cog registers it

        lang = str(interaction.locale)
        try:
            game_id = await self._which(interaction, game)
            await self.bot.service.may_resign(game_id, interaction.user.id, asker(interaction))
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        if not (await self.bot.service.settings(interaction.user.id)).get("confirm", True):
            await ResignButton.resign(interaction, game_id)  # the player asked not to be asked
            return
        view = discord.ui.View(timeout=None).add_item(ResignButton(game_id, t("resign_button", lang)))
        view.add_item(CancelButton(game_id, t("confirm_cancel", lang)))
        await interaction.response.send_message(t("resign_confirm", lang, game=game_id) + "\n"
                                                + t("confirm_hint", lang), view=view, ephemeral=True)

    @game.command(name="claim", description="Win (or draw) a game whose opponent ran out of time long ago")
    @app_commands.describe(draw="Claim a draw instead of the win", game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def claim(self, interaction: discord.Interaction, draw: bool = False, game: int | None = None) -> None:
        await self._clock_act(interaction, game, lambda game_id: self.bot.service.claim(
            game_id, interaction.user.id, draw, asker=asker(interaction)), "claim_done")

    @game.command(name="moretime", description="Give an opponent more time for their move")
    @app_commands.describe(hours="How many hours", player="Whom (in a game of two: your opponent)",
                           game="Game number (defaults to the game of this thread)")
    @app_commands.autocomplete(game=game_autocomplete)
    async def moretime(self, interaction: discord.Interaction, hours: app_commands.Range[int, 1, 72],
                       player: discord.Member | None = None, game: int | None = None) -> None:
        await self._clock_act(interaction, game, lambda game_id: self.bot.service.give_time(
            game_id, interaction.user.id, hours, player.id if player else None, asker=asker(interaction)),
            "moretime_done")

    async def _clock_act(self, interaction: discord.Interaction, game: int | None, act, done: str) -> None:
        """A clock command on a game (claim, moretime): done, then the board that tells it is published."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            game_id = await self._which(interaction, game)
            await act(game_id)
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.followup.send(t(done, str(interaction.locale), game=game_id), ephemeral=True)
        await publish.publish(self.bot, game_id=game_id)

    away = app_commands.Group(name="away", description="Vacation: pause your clocks in all your games",
                              parent=game)

    @away.command(name="days", description="Go away for some days: your clocks stop in all your games")
    @app_commands.describe(days="How many days (at most 14 a month)")
    async def away_days(self, interaction: discord.Interaction, days: app_commands.Range[int, 1, 14]) -> None:
        await self._away(interaction, days)

    @away.command(name="off", description="You are back: your clocks run again")
    async def away_off(self, interaction: discord.Interaction) -> None:
        await self._away(interaction, None)

    async def _away(self, interaction: discord.Interaction, days: int | None) -> None:
        from host.locale import use_language

        use_language(str(interaction.locale))
        try:
            text = await self.bot.service.set_away(interaction.user.id, days)
        except GameError as exc:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
            return
        await interaction.response.send_message(text, ephemeral=True)
        # each game's thread is told, with its board's new times (another process's games: by its publisher)
        mine = owned(self.bot)
        for game_id in await self.bot.service.away_games(interaction.user.id):
            row = await self.bot.service.game(game_id)
            if mine is None or mine.owns(row.guild_id):
                await publish.publish(self.bot, game_id=game_id)

    @game.command(name="help", description="How to start a game and what the commands do")
    async def help(self, interaction: discord.Interaction) -> None:
        lang = str(interaction.locale)
        starts = "\n".join(f"`/{key} new` — {engine.title}" for key, engine in ENGINES.items())
        embed = discord.Embed(title=t("help_title", lang), colour=discord.Colour.dark_gold())
        embed.add_field(name=t("help_start", lang), value=f"{starts}\n{t('help_start_text', lang)}", inline=False)
        embed.add_field(name=t("help_play", lang), value=t("help_play_text", lang), inline=False)
        embed.add_field(name=t("help_more", lang), value=t("help_more_text", lang), inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @game.command(name="list", description="List the open and running games of this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        games = await self.bot.service.visible_games(asker(interaction))
        if not games:
            await interaction.response.send_message(t("list_empty", str(interaction.locale)), ephemeral=True)
            return
        embed = discord.Embed(title=t("list_title", str(interaction.locale)), colour=discord.Colour.dark_gold())
        lines = []
        lang = str(interaction.locale)
        # a game this version cannot play is listed as such, in plain words (damaged, saved by a newer version)
        unreadable = await self.bot.service.unreadable_in(games[:25], lang)
        for g in games[:25]:
            where = f"<#{g.thread_id}>" if g.thread_id else ""
            players = ", ".join(s.name for s in g.seats)
            if g.id in unreadable:
                lines.append(f"**#{g.id}** {title_of(g)} — {unreadable[g.id]} — {players} {where}")
                continue
            clock = await self.bot.service.clock_summary(g)
            lines.append(f"**#{g.id}** {title_of(g)} — {t('status_' + g.status, lang)} — {players} {where}"
                         + (f" — {clock}" if clock else ""))
        embed.description = "\n".join(lines)[:4000]
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, *REPLAY_ITEMS, actions.LeaveButton, LogButton)
    await bot.add_cog(Games(bot))
