"""/tournament: community tournaments. ``/tournament new <game>`` posts the registration with Join, Leave and
Start buttons (format: league, swiss, elimination or roundrobin; rounds, a size cap, tables of N for Swiss,
a third-place match, a double round robin, hours per round, a time control from those offered, tie-breaks, a
review of every round, game options). Start closes the registration and opens the first round, each match in its
own thread; when a round's last match ends its standings are posted and the next round begins; the podium comes
at the end. Organizer tools: start, drop, adjudicate, pause, resume, cancel, and ``manage`` (check-in, start the
held round, swap two players in it, forbid a pair, correct an earlier result); players: table, my-matches, leave,
join (a running Swiss takes latecomers until half its rounds), bye (a half-point bye for the next round)."""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.ext import commands, tasks

from cogs import permissions, publish
from cogs.contexts import GUILD_INSTALL, SERVERS
from cogs.limits import throttled
from cogs.newgame import TIME_CONTROL_CHOICES
from cogs.places import places_of
from cogs.publisher import owned
from cogs.standings import (
    bracket_link,
    match_over,
    pictures_of,
    post_progress,
    redraw_registration,
    registration_message,
    table_embed,
)
from cogs.views import asker
from cogs.weblinks import with_link
from engines import ENGINES
from host.errors import GameError
from host.locale import LANGUAGES, t
from host.tournaments import FORMATS, Event, tournaments_of

log = logging.getLogger(__name__)


#: a whole number in game options: ASCII digits, at most 9 of them (every game's numbers are far smaller; the
#: game's own bounds are checked after this)
WHOLE = re.compile(r"[+-]?[0-9]{1,9}")
#: what looks like a number but is not one we read: too many digits, other scripts' digits, fractions, exponents
NUMBERISH = re.compile(r"[+-]?[\d.,_]*\d[\d.,_eE+-]*")


def parse_options(text: str | None) -> dict:
    """``"laps=2 variant=short"`` -> {"laps": 2, "variant": "short"} (whole numbers and true/false read as such).
    A number that is not a plain whole number of at most 9 digits is refused with a message, never read."""
    out: dict = {}
    for part in (text or "").replace(",", " ").split():
        if "=" not in part:
            raise GameError.of("event_bad_options", text=part[:40])
        key, value = part.split("=", 1)
        low = value.lower()
        if WHOLE.fullmatch(value):
            out[key.strip()] = int(value)
        elif NUMBERISH.fullmatch(value):
            raise GameError.of("event_bad_number", name=key.strip()[:40], text=value[:20] + ("…" if len(value) > 20
                                                                                             else ""))
        else:
            out[key.strip()] = True if low == "true" else False if low == "false" else value
    return out


#: ``/tournament manage`` actions: (name shown, value)
MANAGE = [("Open check-in (before the start)", "checkin"), ("Start the held round", "start-round"),
          ("Swap two players in the held round", "swap"), ("Forbid a pair", "forbid"),
          ("Correct a result", "correct")]


class Tournaments(commands.Cog):
    tournament = app_commands.Group(name="tournament", description="Tournaments: Swiss, elimination, round robin, leagues",
                                    guild_only=True, allowed_contexts=SERVERS, allowed_installs=GUILD_INSTALL)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def service(self):
        return tournaments_of(self.bot)

    async def cog_load(self) -> None:
        self.recovery.start()

    async def cog_unload(self) -> None:
        self.recovery.cancel()
        self.service.pairing.close()

    @tasks.loop(count=1)
    async def recovery(self) -> None:
        """Once connected after a start, finish what a crash interrupted (``TournamentService.recover``)."""
        await self.recover()

    @recovery.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

    async def recover(self) -> None:
        try:
            for progress in await self.service.recover(shards=owned(self.bot)):
                await post_progress(self.bot, progress)
        except Exception:
            log.exception("tournament recovery failed")

    @commands.Cog.listener("on_gamehost_match_over")
    async def on_match_over(self, game) -> None:
        """A tournament match's last board is posted (cogs/publish.py dispatches ``gamehost_match_over``): count
        it; post the league's table, or the round's end and the next round (cogs/standings.py)."""
        try:
            await match_over(self.bot, game)
        except (discord.HTTPException, GameError):
            log.exception("could not post the table of tournament %s", game.tournament_id)

    async def _refuse(self, interaction: discord.Interaction, exc: GameError) -> None:
        if interaction.response.is_done():
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        else:
            await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)

    @tournament.command(name="new", description="Open a tournament of a game; players join with the button")
    @app_commands.describe(game="Which game", format="League (all at once), Swiss, single elimination or round robin",
                           rounds="Swiss: how many rounds", cap="Most players who may join",
                           table_size="Swiss: players at each table (games of 3-6 players)",
                           third_place="Elimination: play a third-place match",
                           double="Round robin: everybody twice; elimination: double elimination (out after two lost matches)",
                           round_hours="Hours each round may last (its deadline)",
                           time_control="Time per move in every match",
                           tiebreaks="Tie-breaks in order: bh-c1, bh, sb, de, wins, rating",
                           review="Hold each round for you to check and start",
                           best_of="Elimination: games a match lasts (best of 3, 5 or 7)",
                           options="Game options, e.g. laps=2", language="Language of the matches (default: yours)")
    @app_commands.choices(game=[app_commands.Choice(name=e.title, value=k) for k, e in ENGINES.items()],
                          format=[app_commands.Choice(name=f, value=f) for f in FORMATS],
                          time_control=TIME_CONTROL_CHOICES,
                          language=[app_commands.Choice(name=n, value=c) for c, n in LANGUAGES.items()])
    async def new(self, interaction: discord.Interaction, game: str, format: str = "league",
                  rounds: app_commands.Range[int, 1, 30] | None = None,
                  cap: app_commands.Range[int, 2, 512] | None = None,
                  table_size: app_commands.Range[int, 2, 6] | None = None, third_place: bool = False,
                  double: bool = False, round_hours: app_commands.Range[int, 1, 1440] | None = None,
                  time_control: str | None = None, tiebreaks: str | None = None, review: bool = False,
                  best_of: app_commands.Range[int, 1, 7] | None = None,
                  options: str | None = None, language: str | None = None) -> None:
        if await throttled(interaction, "tournament_new"):
            return
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        refusal = permissions.tournament_refusal(interaction)
        if refusal is not None:  # its matches could not be opened here: nothing is saved
            await interaction.response.send_message(refusal, ephemeral=True)
            return
        try:
            event = await self.service.create(
                game, user_id=interaction.user.id, user_name=interaction.user.display_name,
                guild_id=interaction.guild_id, channel_id=channel.id if channel else interaction.channel_id,
                lang=language or str(interaction.locale), format=format, rounds=rounds, cap=cap,
                table_size=table_size, third_place=third_place, double=double, round_hours=round_hours,
                time_control=time_control, tiebreaks=tiebreaks, review=review, best_of=best_of,
                options=parse_options(options))
        except GameError as exc:
            await self._refuse(interaction, exc)
            return
        await interaction.response.send_message(**registration_message(event, await bracket_link(self.bot, event)))
        try:
            message = await interaction.original_response()
            await self.service.set_message(event.id, message.id)
        except discord.HTTPException:
            pass

    @tournament.command(name="table", description="The standings of a tournament")
    @app_commands.describe(tournament="Tournament number")
    async def table(self, interaction: discord.Interaction, tournament: int) -> None:
        try:
            event = await self.service.tournament(tournament, asker(interaction))
            if event.format == "league":
                embed, _ = await table_embed(self.bot, tournament, asker(interaction))
                await interaction.response.send_message(embed=embed, ephemeral=True)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            _, files = await pictures_of(self.bot, tournament, asker(interaction))
        except GameError as exc:
            await self._refuse(interaction, exc)
            return
        view = with_link(None, await bracket_link(self.bot, event))
        await interaction.followup.send(t("event_table_caption", str(interaction.locale),
                                          tournament=tournament, round=event.round, rounds=event.total_rounds()),
                                        files=files, ephemeral=True, **({"view": view} if view else {}))

    @tournament.command(name="my-matches", description="Your matches in this server's tournaments")
    async def my_matches(self, interaction: discord.Interaction) -> None:
        lang = str(interaction.locale)
        found = await self.service.my_matches(interaction.user.id, asker(interaction))
        if not found:
            await interaction.response.send_message(t("event_no_matches", lang), ephemeral=True)
            return
        lines = []
        for m in found[:25]:
            where = " " + places_of(self.bot).where(g, lang) if m.game_id and (
                g := await self.bot.service.store.get_game(m.game_id, with_snapshot=False)) else ""
            against = ", ".join(discord.utils.escape_markdown(n) for n in m.opponents) or "—"
            lines.append(t("event_my_match", lang, tournament=m.tournament, round=m.round, match=m.match_id,
                           opponents=against, status=t(f"event_status_{m.status}", lang, place=m.place if m.status == "placed" else "")) + where)
        await interaction.response.send_message("\n".join(lines)[:1900], ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())

    async def _organizer(self, interaction: discord.Interaction, call, *, announce: bool = False) -> None:
        """An organizer's (or a player's) change to a tournament. Deferred privately: the answer may be a refusal,
        and the first followup of a deferral keeps the deferral's visibility (a public "thinking…" would show the
        refusal to everyone). What everybody should know goes to the tournament's channel: its registration
        message redrawn, ``announce``: a line saying what changed, and the rounds and games the change started
        or ended."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await call()
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        event: Event = getattr(result, "event", result)
        lang = str(interaction.locale)
        await interaction.followup.send(t("event_done", lang, tournament=event.id,
                                          status=t("tournament_status_" + _status(event), lang)), ephemeral=True)
        await redraw_registration(self.bot, event)
        if announce:
            try:
                channel = self.bot.get_channel(event.channel_id) or await self.bot.fetch_channel(event.channel_id)
                await channel.send(t("event_now", event.lang, tournament=event.id,
                                     status=t("tournament_status_" + _status(event), event.lang),
                                     name=discord.utils.escape_markdown(interaction.user.display_name)),
                                   allowed_mentions=discord.AllowedMentions.none())
            except discord.HTTPException:
                log.info("could not tell the channel of tournament %s what changed", event.id)
        if hasattr(result, "started"):
            # first the boards owed: the AI took a dropped player's seat, or a game ended (its last board)
            for game_id in result.changed:
                await publish.publish(self.bot, game_id=game_id)
            await post_progress(self.bot, result)

    @tournament.command(name="start", description="Start a tournament (its organizer)")
    @app_commands.describe(tournament="Tournament number")
    async def start(self, interaction: discord.Interaction, tournament: int) -> None:
        async def call():
            event = await self.service.tournament(tournament, asker(interaction))
            if interaction.user.id == event.organizer_id:  # (the service refuses anyone else)
                refusal = permissions.matches_refusal(interaction, event.guild_id, event.channel_id)
                if refusal is not None:
                    raise GameError(refusal)
            return await self.service.start(tournament, interaction.user.id, asker(interaction))
        await self._organizer(interaction, call)

    @tournament.command(name="leave", description="Withdraw from a tournament before it starts")
    @app_commands.describe(tournament="Tournament number")
    async def leave(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._organizer(interaction, lambda: self.service.leave(tournament, interaction.user.id,
                                                                      asker(interaction)))

    @tournament.command(name="drop", description="Drop a player (organizer; or yourself): their matches are forfeited")
    @app_commands.describe(tournament="Tournament number", player="Who drops out (default: you)")
    async def drop(self, interaction: discord.Interaction, tournament: int, player: discord.User | None = None) -> None:
        who = (player or interaction.user).id
        await self._organizer(interaction, lambda: self.service.drop(tournament, interaction.user.id, who,
                                                                     asker(interaction)))

    @tournament.command(name="adjudicate", description="Decide a match of the current round (organizer)")
    @app_commands.describe(tournament="Tournament number", match="Match number (see /tournament my-matches)",
                           winner="Who won (leave empty for a draw)")
    async def adjudicate(self, interaction: discord.Interaction, tournament: int, match: int,
                         winner: discord.User | None = None) -> None:
        async def call():
            found = await self.bot.service.store.match(match) if 0 < match < 2**63 else None
            players = found.players if found else []
            if winner is not None and winner.id not in players:
                raise GameError.of("tournament_not_entry", tournament=tournament)
            places = [1 if winner is None or p == winner.id else 2 for p in players]
            return await self.service.adjudicate(tournament, interaction.user.id, match, places, asker(interaction))
        await self._organizer(interaction, call)

    @tournament.command(name="join", description="Join a tournament (a running Swiss takes latecomers)")
    @app_commands.describe(tournament="Tournament number")
    async def join(self, interaction: discord.Interaction, tournament: int) -> None:
        async def call():
            event = await self.service.tournament(tournament, asker(interaction))
            join = self.service.late_join if event.status == "running" else self.service.join
            return await join(tournament, interaction.user.id, interaction.user.display_name, asker(interaction))
        await self._organizer(interaction, call)

    @tournament.command(name="bye", description="A half-point bye for the next round (Swiss)")
    @app_commands.describe(tournament="Tournament number", player="Who sits out (organizer; default: you)")
    async def bye(self, interaction: discord.Interaction, tournament: int, player: discord.User | None = None) -> None:
        who = (player or interaction.user).id
        await self._organizer(interaction, lambda: self.service.request_bye(tournament, interaction.user.id, who,
                                                                            asker(interaction)))

    @tournament.command(name="manage", description="Organizer tools: check-in, held round, pairs, corrections")
    @app_commands.describe(tournament="Tournament number", action="What to do", player="First player",
                           other="Second player", match="Match number (correct)", winner="Winner (correct; none: draw)")
    @app_commands.choices(action=[app_commands.Choice(name=n, value=v) for n, v in MANAGE])
    async def manage(self, interaction: discord.Interaction, tournament: int, action: str,
                     player: discord.User | None = None, other: discord.User | None = None,
                     match: app_commands.Range[int, 1, 2**53 - 1] | None = None,
                     winner: discord.User | None = None) -> None:
        service, me, who = self.service, interaction.user.id, asker(interaction)

        def two() -> tuple[int, int]:
            if player is None or other is None:
                raise GameError.of("manage_two_players")
            return player.id, other.id

        async def correct():
            if match is None:
                raise GameError.of("manage_match")
            found = await self.bot.service.store.match(match)
            players = found.players if found and found.tournament_id == tournament else []
            if winner is not None and winner.id not in players:
                raise GameError.of("tournament_not_entry", tournament=tournament)
            places = [1 if winner is None or p == winner.id else 2 for p in players]
            return await service.correct(tournament, me, match, places, who)

        calls = {"checkin": lambda: service.open_checkin(tournament, me, who),
                 "start-round": lambda: service.start_round(tournament, me, who),
                 "swap": lambda: service.swap(tournament, me, *two(), who),
                 "forbid": lambda: service.forbid(tournament, me, *two(), who),
                 "correct": correct}
        await self._organizer(interaction, calls[action])

    @tournament.command(name="pause", description="Hold the next round until resumed (organizer)")
    @app_commands.describe(tournament="Tournament number")
    async def pause(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._organizer(interaction, lambda: self.service.pause(tournament, interaction.user.id,
                                                                      asker(interaction)), announce=True)

    @tournament.command(name="resume", description="Resume a paused tournament (organizer)")
    @app_commands.describe(tournament="Tournament number")
    async def resume(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._organizer(interaction, lambda: self.service.resume(tournament, interaction.user.id,
                                                                      asker(interaction)), announce=True)

    @tournament.command(name="cancel", description="Cancel a tournament (organizer)")
    @app_commands.describe(tournament="Tournament number")
    async def cancel(self, interaction: discord.Interaction, tournament: int) -> None:
        await self._organizer(interaction, lambda: self.service.cancel(tournament, interaction.user.id,
                                                                      asker(interaction)), announce=True)


def _status(event) -> str:
    return "cancelled" if event.cancelled else "paused" if event.paused else event.status


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Tournaments(bot))
