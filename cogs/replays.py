"""Replays and history under /game: ``replay`` (an animated GIF of a finished game), ``history`` (a person's
past games, paged, with Replay buttons) and ``export`` (the game record as JSON); step-through buttons.
Thin: the frames, pictures and records come from ``host.replays``.

custom_ids (numbers only, see ``cogs.views.parse_fields``):
``gh:rp:<game>:<step>:<view>[:<slot>]`` one step (view 0 = public, s+1 = seat s's own view; slot: the
button's place),
``gh:rv:<game>`` the animated replay, ``gh:hy:<user>:<page>:<game kind + 1, 0 = all>`` a history page."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from io import BytesIO

import discord
from discord import app_commands

from cogs import publish
from cogs.limits import throttled
from cogs.views import Prefix, _FromCustomId, asker, guarded
from engines import ENGINES, GAME_ORDER
from host import replays
from host.errors import GameError
from host.locale import t
from host.presenters import presenter_for
from host.replay_queue import replays_of

log = logging.getLogger(__name__)

#: a replay of more steps than this gets a progress message while it is drawn
PROGRESS_STEPS = 40
GAME_CHOICES = [app_commands.Choice(name=ENGINES[k].title, value=k) for k in GAME_ORDER if k in ENGINES]


async def _say(interaction: discord.Interaction, text: str) -> None:
    text = publish.clip_content(text)
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def finished_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    """Games that are over (host/replays.py ``replayable``) the asker may see: the server's, in a direct message
    their own."""
    who = asker(interaction)
    store = interaction.client.service.store
    games = await store.list_games(guild_id=who.guild_id, statuses=("finished", "abandoned"), limit=100,
                                   user_id=who.user_id if who.guild_id is None else None)
    out = []
    for g in games:
        if not replays.replayable(g):
            continue
        label = f"#{g.id} {ENGINES[g.engine].title} — {', '.join(s.name for s in g.seats)}"
        if current in str(g.id) or current.lower() in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=g.id))
    return out[:25]


# -- the animated replay -----------------------------------------------------------------------------------

async def send_replay(interaction: discord.Interaction, game_id: int, *, reveal: bool = False) -> None:
    """The animated replay of a finished game, posted where it was asked for (a progress message first when the
    game is long; it becomes the replay). ``reveal``: the hands at the end too, for the game's host only."""
    service = interaction.client.service
    who = asker(interaction)
    try:  # refusals before the public "thinking…": only the asker sees them
        game, record = await replays.record_of(service, game_id, who)
        if reveal:
            replays.may_reveal(game, who)
        if await throttled(interaction, "replay"):
            return
        # a finished game's replay comes from the cache; else it waits its turn in the replay queue (refused,
        # with when to try again, when the server already has as many being drawn as it allows)
        ticket = await replays_of(interaction.client).ticket(record, reveal, interaction.guild_id)
    except GameError as exc:
        await interaction.response.send_message(exc.text(interaction.locale), ephemeral=True)
        return
    await interaction.response.defer(thinking=True)
    lang = str(interaction.locale)
    progress = None
    if ticket.cached is None and (len(record.actions) > PROGRESS_STEPS or ticket.ahead):
        text = t("replay_working", lang, game=game.id, steps=len(record.actions))
        if ticket.ahead:
            text += " " + t("replay_queued", lang, count=ticket.ahead)
        progress = await interaction.followup.send(text, wait=True)
    try:
        animation = await ticket.animation()
    except GameError as exc:
        text = exc.text(interaction.locale)
        if progress is not None:
            await progress.edit(content=text)
        else:  # in place of the public "thinking…" everyone saw (a first followup keeps the deferral's visibility)
            await interaction.followup.send(text)
        return
    players = ", ".join(discord.utils.escape_markdown(n) for n in record.names)
    content = t("replay_title", lang, game=game.id, title=ENGINES[game.engine].title, players=players)
    if animation.sampled:
        content += "\n" + t("replay_sampled", lang, shown=animation.shown, steps=animation.steps - 1,
                             unit=t(animation.unit_key(game.engine), lang))
    if reveal:
        content += "\n" + (t("replay_hands_shown", lang) if animation.revealed
                           else t("replay_hands_empty", lang) if presenter_for(game.engine).has_private
                           else t("replay_hands_none", lang, title=ENGINES[game.engine].title))
    file = discord.File(BytesIO(animation.data), filename=f"replay-{game.engine}-{game.id}.gif")
    view = discord.ui.View(timeout=None).add_item(StepButton(game.id, 0, 0, "⏮", t("button_step_through", lang)))
    if progress is not None:
        await progress.edit(content=content, attachments=[file], view=view,
                            allowed_mentions=discord.AllowedMentions.none())
    else:
        await interaction.followup.send(content, file=file, view=view,
                                        allowed_mentions=discord.AllowedMentions.none())


class ReplayButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.REPLAY.template()):
    """The animated replay of a finished game (on a history page)."""

    fields = ("game",)

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label[:80], emoji="🎞️", style=discord.ButtonStyle.secondary,
                                           custom_id=f"gh:{Prefix.REPLAY}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await send_replay(interaction, self.game)


# -- step-through ------------------------------------------------------------------------------------------

class StepButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.REPLAY_STEP.template()):
    """One step of a replay, public (view 0) or a player's own (seat + 1); clicked on the step-through message
    it turns that message to the step, elsewhere it opens a step-through of one's own."""

    fields, optional = ("game", "step", "seat"), ("slot",)

    def __init__(self, game_id: int, step: int, seat: int, emoji: str | None = None, label: str | None = None,
                 disabled: bool = False, slot: int | None = None) -> None:
        # ``slot``: the button's place, so that two buttons leading to the same step differ (first and ◀ at 1)
        tail = f"{game_id}:{step}:{seat}" + (f":{slot}" if slot is not None else "")
        super().__init__(discord.ui.Button(label=label[:80] if label else None, emoji=emoji, disabled=disabled,
                                           style=discord.ButtonStyle.secondary, custom_id=f"gh:{Prefix.REPLAY_STEP}:{tail}"))
        self.game, self.step, self.seat, self.slot = game_id, step, seat, slot

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        message = interaction.message
        await show_step(interaction, self.game, self.step, self.seat,
                        edit=message is not None and bool(message.flags.ephemeral))


async def show_step(interaction: discord.Interaction, game_id: int, step: int, view_code: int, *,
                    edit: bool) -> None:
    """Draw one step with its controls, as an ephemeral message (a new one, or the clicked one edited)."""
    if edit:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    service = interaction.client.service
    who = asker(interaction)
    seat = None if view_code == 0 else view_code - 1
    lang = str(interaction.locale)
    try:
        game, record = await replays.record_of(service, game_id, who)
        if seat is not None:
            replays.own_seat(game, who, seat)
        total = len(record.actions)
        step = max(0, min(step, total))
        lines, image = await replays_of(interaction.client).step(record, seat, step)
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    head = t("replay_step_title", lang, game=game.id, title=ENGINES[game.engine].title, step=step, steps=total,
             whose=t("replay_own_view", lang) if seat is not None else "")
    body = "\n".join(lines) or t("replay_no_lines", lang)
    view = discord.ui.View(timeout=None)
    code = view_code
    later = [s for s in replays.chapters(record) if s > step]
    for item in (StepButton(game.id, 0, code, "⏮", disabled=step == 0, slot=1),
                 StepButton(game.id, max(step - 1, 0), code, "◀", disabled=step == 0, slot=2),
                 StepButton(game.id, min(step + 1, total), code, "▶", disabled=step >= total, slot=3),
                 StepButton(game.id, total, code, "⏭", disabled=step >= total, slot=4),
                 StepButton(game.id, later[0] if later else total, code, "⏩",
                            t(f"replay_next_chapter_{game.engine}", lang), disabled=not later, slot=5)):
        item.item.row = 0
        view.add_item(item)
    mine = game.seat_of(who.user_id)
    if mine is not None and presenter_for(game.engine).has_private:
        toggle = (StepButton(game.id, step, 0, "👁", t("button_public_view", lang), slot=6) if seat is not None
                  else StepButton(game.id, step, mine + 1, "🂠", t("button_my_view", lang), slot=6))
        toggle.item.row = 1
        view.add_item(toggle)
    file = discord.File(BytesIO(image), filename=f"replay-{game.id}-{step}.png")
    content = publish.clip_content(head + "\n" + body)
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view,
                                                 allowed_mentions=discord.AllowedMentions.none())
    else:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True,
                                        allowed_mentions=discord.AllowedMentions.none())


# -- history -----------------------------------------------------------------------------------------------

def _kind_code(engine: str | None) -> int:
    return GAME_ORDER.index(engine) + 1 if engine in GAME_ORDER else 0


async def history_page(interaction: discord.Interaction, user_id: int, name: str, engine: str | None,
                       page: int) -> dict:
    """The message (content and view) of one page of a person's past games."""
    lang = str(interaction.locale)
    found, pages = await replays.history(interaction.client.service, asker(interaction), user_id, engine, page)
    name = discord.utils.escape_markdown(name)
    if not found:
        return {"content": t("history_empty", lang, name=name), "view": None}
    page = max(0, min(page, pages - 1))
    lines = [t("history_title", lang, name=name, page=page + 1, pages=pages)]
    view = discord.ui.View(timeout=None)
    for n, past in enumerate(found):
        g = past.game
        result = replays.history_result(past, lang)
        stamp = int(datetime.fromisoformat(past.ended).timestamp())
        lines.append(t("history_line", lang, game=g.id, title=ENGINES[g.engine].title, date=f"<t:{stamp}:d>",
                       opponents=", ".join(discord.utils.escape_markdown(o) for o in past.opponents) or "—",
                       result=result))
        button = ReplayButton(g.id, f"#{g.id}")
        button.item.row = n // 5
        view.add_item(button)
    if pages > 1:
        kind = _kind_code(engine)
        for item in (HistoryButton(user_id, max(page - 1, 0), kind, "◀", disabled=page == 0),
                     HistoryButton(user_id, min(page + 1, pages - 1), kind, "▶", disabled=page + 1 >= pages)):
            item.item.row = 2
            view.add_item(item)
    return {"content": publish.clip_content("\n".join(lines)), "view": view}


class HistoryButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.HISTORY.template()):
    """Another page of a person's past games: ``gh:hy:<user>:<page>:<kind>``."""

    fields = ("user", "page", "kind")

    def __init__(self, user_id: int, page: int, kind: int, emoji: str, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(emoji=emoji, style=discord.ButtonStyle.secondary, disabled=disabled,
                                           custom_id=f"gh:{Prefix.HISTORY}:{user_id}:{page}:{kind}"))
        self.user, self.page, self.kind = user_id, page, kind

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        engine = GAME_ORDER[self.kind - 1] if 0 < self.kind <= len(GAME_ORDER) else None
        member = interaction.guild.get_member(self.user) if interaction.guild else None
        name = member.display_name if member else (interaction.user.display_name
                                                   if self.user == interaction.user.id else str(self.user))
        page = await history_page(interaction, self.user, name, engine, self.page)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(**page, allowed_mentions=discord.AllowedMentions.none())
        else:
            await interaction.response.send_message(**{k: v for k, v in page.items() if v is not None},
                                                    ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


REPLAY_ITEMS = (StepButton, ReplayButton, HistoryButton)


# -- the commands (added to /game by cogs.games) -----------------------------------------------------------

@app_commands.describe(game="Game number of a finished game",
                       hands="Show every player's hand at the end too (only the game's host may)")
@app_commands.autocomplete(game=finished_autocomplete)
async def replay_command(interaction: discord.Interaction, game: int, hands: bool = False) -> None:
    await send_replay(interaction, game, reveal=hands)


@app_commands.describe(game="Game number of a finished game",
                       step="Step to start from (0 = the opening; default: the end)")
@app_commands.autocomplete(game=finished_autocomplete)
async def steps_command(interaction: discord.Interaction, game: int, step: int | None = None,
                        ) -> None:
    if await throttled(interaction, "steps"):
        return
    await show_step(interaction, game, 10**9 if step is None else max(0, step), 0, edit=False)


@app_commands.describe(user="Whose games (default: yours)", game="Only games of this kind")
@app_commands.choices(game=GAME_CHOICES)
async def history_command(interaction: discord.Interaction, user: discord.User | None = None,
                          game: str | None = None) -> None:
    if await throttled(interaction, "history"):
        return
    who = user or interaction.user
    page = await history_page(interaction, who.id, who.display_name, game, 0)
    await interaction.response.send_message(**{k: v for k, v in page.items() if v is not None}, ephemeral=True,
                                            allowed_mentions=discord.AllowedMentions.none())


@app_commands.describe(game="Game number of a finished game")
@app_commands.autocomplete(game=finished_autocomplete)
async def export_command(interaction: discord.Interaction, game: int) -> None:
    try:
        row, record = await replays.record_of(interaction.client.service, game, asker(interaction))
    except GameError as exc:
        await _say(interaction, exc.text(interaction.locale))
        return
    if await throttled(interaction, "export"):
        return
    name = f"game-{row.id}.json"
    data = json.dumps(record.to_json(), ensure_ascii=False, indent=1).encode()
    await interaction.response.send_message(t("export_done", str(interaction.locale), game=row.id, file=name),
                                            file=discord.File(BytesIO(data), filename=name), ephemeral=True)


def commands_for(group: app_commands.Group) -> list[app_commands.Command]:
    """The replay subcommands of ``/game``."""
    made = [("replay", "Watch a finished game again (an animated picture, every move told)", replay_command),
            ("steps", "Step through a finished game move by move (only you see it)", steps_command),
            ("history", "Past games of a player on this server, with replays", history_command),
            ("export", "The record of a finished game as a file anyone can replay", export_command)]
    return [app_commands.Command(name=name, description=desc, callback=callback, parent=group)
            for name, desc, callback in made]
