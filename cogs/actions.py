"""What the persistent controls do (cogs/views.py declares them as the :class:`~cogs.views.Clicks` protocol, this
module carries them out): play a choice, open a private panel, join, start, rematch, leagues. The bot holds a
:class:`ClickActions` as ``bot.clicks`` (bot.py); the command cogs import the functions too."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from cogs import permissions, publish
from cogs.gamebot import game_bot
from cogs.limits import throttled
from cogs.places import PLACE_WAIT, places_of
from cogs.standings import bracket_link, post_matches, post_progress, registration_message
from cogs.views import CancelButton, ConfirmButton, Prefix, _FromCustomId, asker, guarded, panel_view, refuse
from engines import ENGINES
from host.errors import GameError, NeedsConfirmation
from host.locale import t
from host.outcome import Outcome
from host.places import waiting_for_place
from host.tournaments import tournaments_of
from store import GameRow

log = logging.getLogger(__name__)


async def play(interaction: discord.Interaction, game_id: int, version: int, index: int,
               digest: str | None = None, *, variant: int | None = None, confirmed: bool = False) -> None:
    """A chosen action (``variant``: one of its ways): defer within the 3 s limit, apply through the service,
    confirm, publish. A choice that loses something for good is first asked about privately ("Are you
    sure?", :class:`ConfirmButton`), unless ``confirmed`` (the second click) or the player turned that off."""
    await interaction.response.defer()
    service = game_bot(interaction).service
    try:
        outcome = await service.act(game_id, interaction.user.id, version, index, digest, asker=asker(interaction),
                                    variant=variant, confirmed=confirmed)
    except NeedsConfirmation as ask:
        await ask_first(interaction, game_id, version, index, digest, variant, ask)
        return
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    message = interaction.message
    private_panel = message is not None and (message.flags.ephemeral or message.guild is None)
    delivered = await publish.publish(game_bot(interaction), outcome, interaction=interaction)
    if private_panel:
        await _refresh_panel(interaction, outcome, delivered, game_id)
    explanation = delivered.explain(str(interaction.locale))
    if explanation:  # saved, but not (yet) shown where the player looks: say so, and what happens next
        await interaction.followup.send(explanation, ephemeral=True)


async def undo(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """The board's Undo: the clicker's last move taken back through the service (only theirs, only while the
    board is current), and the board of the game as it was before, updated in place; a refusal is said privately
    and changes nothing."""
    await interaction.response.defer()
    try:
        outcome = await game_bot(interaction).service.undo(game_id, interaction.user.id, version,
                                                           asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    # the same person is still to decide: the board that is up is updated in place through this click
    delivered = await publish.publish(game_bot(interaction), outcome, interaction=interaction)
    explanation = delivered.explain(str(interaction.locale))
    if explanation:
        await interaction.followup.send(explanation, ephemeral=True)


async def _refresh_panel(interaction: discord.Interaction, outcome: Outcome, delivered: publish.Delivered,
                         game_id: int) -> None:
    """The private panel (a DM or an ephemeral one) the player clicked in: while their turn goes on it shows
    their next choices and their hand as it is now (the one DM of the turn, kept up to date: publish.dm_update),
    else it is spent: it says what was done and drops its controls."""
    held = next((n for n in delivered.held if n.user_id == interaction.user.id), None)
    try:
        if held is None:
            await interaction.edit_original_response(content=t("done_action", label=outcome.done_label),
                                                     view=None)
            return
        bot = game_bot(interaction)
        if interaction.message is not None and interaction.message.flags.ephemeral:  # a panel, not their DM
            held = publish.still_warned(bot, game_id, held)
            await interaction.edit_original_response(**publish.nudge_message(outcome.game, held))
            return
        kwargs, remember = publish.dm_update(bot, outcome.game, held)
        await interaction.edit_original_response(**kwargs)
        remember()
    except discord.HTTPException:
        log.info("could not edit the private panel of game %s", game_id)


async def ask_first(interaction: discord.Interaction, game_id: int, version: int, index: int, digest: str | None,
                    variant: int | None, ask: NeedsConfirmation) -> None:
    """The private "Are you sure?" of a choice that loses something for good: what it loses, a button that
    makes the choice (the same action at the same version) and one that drops the question."""
    lang = str(interaction.locale)
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(game_id, version, ask.seat, index, digest, variant, t("confirm_button", lang)))
    view.add_item(CancelButton(game_id, t("confirm_cancel", lang)))
    text = t("confirm_question", lang, label=ask.label, warning=ask.warning) + "\n" + t("confirm_hint", lang)
    await interaction.followup.send(publish.clip_content(text), view=view, ephemeral=True)


class LeaveButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LEAVE.template()):
    """The confirmation of ``/game leave`` in a running game: only a click on it gives the seat to the AI
    (``gh:lv:<game>``)."""

    fields = ("game",)

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.danger, emoji="🚪",
                                           custom_id=f"gh:{Prefix.LEAVE}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=None)  # the question is spent
        await leave_game(interaction, self.game)


async def leave_game(interaction: discord.Interaction, game_id: int) -> None:
    """Leave a game (a lobby: free the seat; a running game: the AI takes it over), say so privately, publish.
    The interaction is answered already (deferred, or the question edited)."""
    bot = game_bot(interaction)
    try:
        row, outcome = await bot.service.leave(game_id, interaction.user.id, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    await interaction.followup.send(t("left", str(interaction.locale), name=interaction.user.display_name,
                                      game=game_id), ephemeral=True)
    if outcome is not None:
        await publish.publish(bot, outcome)
    elif row.board_message_id:
        await publish._refresh_lobby(bot, row)
        await publish.update_announcement(bot, row)  # the host left: the lobby is called off


async def show_group(interaction: discord.Interaction, game_id: int, version: int, group: int | None,
                     page: int) -> None:
    """Re-draw a private panel with one group of choices opened (two-step choices, paging)."""
    try:
        panel = await game_bot(interaction).service.panel_for(game_id, interaction.user.id, version,
                                                           asker=asker(interaction))
    except GameError as exc:
        await refuse(interaction, exc.text(interaction.locale))
        return
    await interaction.response.edit_message(view=panel_view(panel, group=group, page=page,
                                                            picture=_in_dm(interaction)))



async def show_variants(interaction: discord.Interaction, game_id: int, version: int, index: int) -> None:
    """Re-draw a panel with the ways to make one of its choices (``Choice.more``, e.g. who pays a move)."""
    try:
        panel = await game_bot(interaction).service.variants_panel(game_id, interaction.user.id, version, index,
                                                                asker=asker(interaction))
    except GameError as exc:
        await refuse(interaction, exc.text(interaction.locale))
        return
    await interaction.response.edit_message(view=panel_view(panel, picture=_in_dm(interaction)))


def _in_dm(interaction: discord.Interaction) -> bool:
    """The click was on a DM (not an ephemeral panel, which carries the private picture already)."""
    message = interaction.message
    return message is not None and message.guild is None and not message.flags.ephemeral


async def send_private(interaction: discord.Interaction, game_id: int, *, require_turn: bool) -> None:
    """Ephemeral private view (hand image + choices when it is the user's turn)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = game_bot(interaction).service
    try:
        private = await service.private(game_id, interaction.user.id, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    if require_turn and private.panel is None:
        await interaction.followup.send(private.text, ephemeral=True)
        return
    kwargs: dict[str, Any] = {"content": publish.clip_content(private.text), "ephemeral": True,
                              "view": panel_view(private.panel)}
    if private.image is not None:
        kwargs["file"] = discord.File(publish.BytesIO(private.image), filename=f"hand-{game_id}.png")
    await interaction.followup.send(**kwargs)
    # a player back after a timeout took the seat over from the AI: the thread is told (nothing else is owed)
    await publish.publish(game_bot(interaction), game_id=game_id)


async def join(interaction: discord.Interaction, game_id: int) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        game, outcome = await game_bot(interaction).service.join(game_id, interaction.user.id,
                                                              interaction.user.display_name, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    await joined(interaction, game, outcome)


async def joined(interaction: discord.Interaction, game: GameRow, outcome: Outcome | None) -> None:
    """Tell the person who took a seat (and, when that filled the table, that the game has started), update
    the lobby and the announcement, post the first board."""
    lang = str(interaction.locale)
    key = "joined" if outcome is None else "joined_started"
    await interaction.followup.send(t(key, lang, name=interaction.user.display_name, game=game.id,
                                      place=f"<#{game.thread_id or game.channel_id}>"), ephemeral=True)
    await publish._refresh_lobby(game_bot(interaction), game if outcome is None else outcome.game)
    if outcome is not None:
        await publish.update_announcement(game_bot(interaction), outcome.game)
        await publish.publish(game_bot(interaction), outcome)


async def start(interaction: discord.Interaction, game_id: int) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = game_bot(interaction).service
    try:
        outcome = await service.start(game_id, interaction.user.id, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    await interaction.followup.send(t("status_running", str(interaction.locale)).capitalize() + ".", ephemeral=True)
    await publish._refresh_lobby(game_bot(interaction), outcome.game)
    await publish.update_announcement(game_bot(interaction), outcome.game)
    await publish.publish(game_bot(interaction), outcome)


async def rematch(interaction: discord.Interaction, game_id: int) -> None:
    """A player of a finished game opens the same game again (or takes their seat in the rematch already open)."""
    if await throttled(interaction, "game_new"):
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = game_bot(interaction)
    place = permissions.place_for_game(interaction)  # before anything is saved
    if place.refusal is not None:
        await interaction.followup.send(place.refusal, ephemeral=True)
        return
    try:
        found = await bot.service.rematch(game_id, interaction.user.id, interaction.user.display_name,
                                          asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    if found.joined:  # another player opened it first: the clicker has a seat in theirs
        await joined(interaction, found.game, found.outcome)
        return
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent is not None:
        channel = channel.parent
    await open_game(interaction, channel, found.game, found.outcome, found.call, threads=place.threads,
                    note=place.note)


async def open_game(interaction: discord.Interaction, channel, game, outcome, call: Sequence[int] = (), *,
                    threads: bool = True, note: str | None = None) -> None:
    """A new game's place: its thread (from the opener, cogs/places.py; waited for up to ``PLACE_WAIT`` s, else
    the game is queued and the player told when), or the channel where threads are not possible (``threads``
    False: the bot may not make or use threads there, cogs/permissions.py; ``note`` tells the opener why); the
    lobby or first board there, the private confirmation and the announcement in the channel; ``call``: people
    to mention (e.g. the players of a rematch). If Discord refuses the game's first message there (a permission
    taken away since it was checked), the game is called off, nothing half open, and the opener told."""
    bot = game_bot(interaction)
    title = ENGINES[game.engine].title
    places = places_of(bot)
    lang = str(interaction.locale)
    threaded = threads and isinstance(channel, discord.TextChannel)
    if threaded:
        places.hold(game.id, outcome, call)
        place = await places.request(game.id, wait=PLACE_WAIT)
    else:
        place = channel.id if channel else interaction.channel_id
        assert place is not None, "Discord sends every command's and click's channel (only a PING has none)"
        await places.settle(game, place, outcome=outcome, call=call, tell=False, answered=True)
    game = await bot.service.game(game.id)
    if game.status == "abandoned":
        reason = places.refused.pop(game.id, None) or "403"
        await interaction.followup.send(t("open_failed", lang, place=f"<#{place or game.channel_id}>",
                                          reason=reason), ephemeral=True)
        return
    if place is None and not waiting_for_place(game):  # it got its place while the wait ran out
        place = game.thread_id or game.channel_id
    if place is None:
        await interaction.followup.send(t("created_queued", lang, game=game.id, title=title,
                                          place=places.where(game, lang)), ephemeral=True)
    else:
        created = t("created", lang, game=game.id, title=title, place=f"<#{place}>")
        await interaction.followup.send(created + (f"\n{note}" if note else ""), ephemeral=True)
    if threaded and place != channel.id:
        announce = publish.announcement(game, interaction.user.display_name)
        if not announce["view"].children:
            del announce["view"]
        try:
            message = await channel.send(**announce)
        except discord.HTTPException:
            log.info("could not announce game %s in channel %s", game.id, channel.id)
        else:
            if game.status == "lobby" or place is None:  # its Join button goes when the game starts
                await bot.service.store.set_announcement(game.id, message.id)
                if place is None and not waiting_for_place(now := await bot.service.game(game.id)):
                    await publish.update_announcement(bot, now)  # the thread opened meanwhile


async def _registration(interaction: discord.Interaction, change) -> None:
    """A change to a tournament's registration (``change()`` returns the event), then its message redrawn; a
    refusal is for the clicker only."""
    try:
        event = await change()
    except GameError as exc:
        await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
        return
    link = await bracket_link(game_bot(interaction), event)
    await interaction.response.edit_message(**registration_message(event, link))


async def league_join(interaction: discord.Interaction, league_id: int) -> None:
    """Enter an open tournament (up to its cap)."""
    await _registration(interaction, lambda: tournaments_of(game_bot(interaction)).join(
        league_id, interaction.user.id, interaction.user.display_name, asker=asker(interaction)))


async def league_leave(interaction: discord.Interaction, league_id: int) -> None:
    """Withdraw from a tournament before its start."""
    await _registration(interaction, lambda: tournaments_of(game_bot(interaction)).leave(
        league_id, interaction.user.id, asker=asker(interaction)))


async def league_check_in(interaction: discord.Interaction, league_id: int) -> None:
    """Check in to a tournament whose organizer asked for it."""
    await _registration(interaction, lambda: tournaments_of(game_bot(interaction)).check_in(
        league_id, interaction.user.id, asker=asker(interaction)))


async def league_start(interaction: discord.Interaction, league_id: int) -> None:
    """The organizer starts the tournament: a league opens every match at once, the other formats their first
    round; each match in its own thread."""
    bot = game_bot(interaction)
    await interaction.response.defer()
    try:
        event = await tournaments_of(bot).tournament(league_id, asker(interaction))
        if interaction.user.id == event.organizer_id:  # (the service refuses anyone else)
            refusal = permissions.matches_refusal(interaction, event.guild_id, event.channel_id)
            if refusal is not None:
                raise GameError(refusal)
        progress = await tournaments_of(bot).start(league_id, interaction.user.id, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    league, outcomes = progress.event, progress.started
    await interaction.edit_original_response(**registration_message(league, await bracket_link(bot, league)))
    channel = interaction.channel
    if league.format != "league":
        await post_progress(bot, progress, channel)
        return
    for outcome in outcomes:
        places_of(bot).hold(outcome.game.id, outcome)
    await post_matches(bot, channel, league.id, t("tournament_begun", tournament=league.id, count=len(outcomes)),
                       [o.game.id for o in outcomes], "event_match")


class ClickActions:
    """:class:`cogs.views.Clicks`, carried out by this module's functions: what the bot holds as ``bot.clicks``."""

    play = staticmethod(play)
    undo = staticmethod(undo)
    show_group = staticmethod(show_group)
    show_variants = staticmethod(show_variants)
    send_private = staticmethod(send_private)
    join = staticmethod(join)
    start = staticmethod(start)
    rematch = staticmethod(rematch)
    league_join = staticmethod(league_join)
    league_leave = staticmethod(league_leave)
    league_check_in = staticmethod(league_check_in)
    league_start = staticmethod(league_start)
