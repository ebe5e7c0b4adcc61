"""Persistent buttons and selects. Every custom_id carries what the click means (game id, state version,
seat, choice), so a click works after any number of restarts: discord.py rebuilds the item from the
custom_id through ``DynamicItem.from_custom_id``. Register with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``.
"""

from __future__ import annotations

import functools
import logging
import re
import time

import discord

from cogs import publish
from host.locale import t
from host.panels import MAX_OPTION_LABEL, Choice, Panel, Row, clip, layout
from host.service import Asker, GameError

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def asker(interaction: discord.Interaction) -> Asker:
    """Who clicks or commands, and on which server (None in a DM): what the game service fences games by."""
    permissions = interaction.permissions
    return Asker(interaction.user.id, interaction.guild_id,
                 moderator=bool(interaction.guild_id and permissions and permissions.manage_guild))


#: a number in a custom_id: ASCII digits only, few enough for SQLite's 64-bit integers
_NUMBER = re.compile(r"[0-9]{1,18}")
_DIGEST = re.compile(r"[0-9a-f]{1,40}")


def parse_fields(text: str, names: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, int | str | None]:
    """The ``:``-separated fields of a custom_id's tail, strictly: numbers (``[0-9]``, at most 18 digits), a
    ``digest`` as lower-case hex; ``optional`` ones may be missing (None). ValueError for anything else."""
    parts = text.split(":")
    if not len(names) <= len(parts) <= len(names) + len(optional):
        raise ValueError(f"{len(parts)} fields")
    out: dict[str, int | str | None] = dict.fromkeys(optional)
    for name, part in zip((*names, *optional), parts):
        if not (_DIGEST if name == "digest" else _NUMBER).fullmatch(part):
            raise ValueError(f"bad {name}")
        out[name] = part if name == "digest" else int(part)
    return out


def guarded(callback):
    """A click on a damaged custom_id (``self.unparsed``, see :class:`_FromCustomId`) is refused; an unexpected
    error in a click is logged and answered with a short apology (instead of Discord's "This interaction
    failed"); the game is unchanged unless the store committed before the error. Its handling time goes to
    the bot's interaction latency histogram (host/metrics.py)."""

    @functools.wraps(callback)
    async def wrapper(self, interaction: discord.Interaction):
        started = time.perf_counter()
        try:
            if getattr(self, "unparsed", False):
                await _refuse(interaction, t("bad_custom_id", str(interaction.locale)))
                return
            await callback(self, interaction)
        except Exception:
            log.exception("error in %s", type(self).__name__)
            try:
                await _refuse(interaction, t("error_generic", str(interaction.locale)))
            except discord.HTTPException:
                pass
        finally:
            metrics = getattr(interaction.client, "metrics", None)
            if metrics is not None:
                metrics.observe_interaction(type(self).__name__, time.perf_counter() - started)

    return wrapper


async def _refuse(interaction: discord.Interaction, message: str) -> None:
    message = publish.clip_content(message)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


async def play(interaction: discord.Interaction, game_id: int, version: int, index: int,
               digest: str | None = None) -> None:
    """A chosen action: defer within the 3 s limit, apply through the service, confirm, publish."""
    await interaction.response.defer()
    service = interaction.client.service
    try:
        outcome = await service.act(game_id, interaction.user.id, version, index, digest, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    message = interaction.message
    private_panel = message is not None and (message.flags.ephemeral or message.guild is None)
    if private_panel:
        # the clicked panel is spent: say what was done and drop its controls
        try:
            await interaction.edit_original_response(content=t("done_action", label=outcome.done_label),
                                                     view=None)
        except discord.HTTPException:
            log.info("could not edit the spent panel of game %s", game_id)
    delivered = await publish.publish(interaction.client, outcome)
    explanation = delivered.explain(str(interaction.locale))
    if explanation:  # saved, but not (yet) shown where the player looks: say so, and what happens next
        await interaction.followup.send(explanation, ephemeral=True)


class _FromCustomId:
    """Rebuilds a clicked item from its custom_id: the template's tail (``args``) is read by
    :func:`parse_fields` into attributes named by ``fields`` (then ``optional``): ``game``, ``version``, ...
    An unreadable tail (letters, non-ASCII digits, numbers over 64 bits, missing parts) does not raise: the
    item is marked ``unparsed`` and its (guarded) callback refuses the click."""

    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    unparsed = False

    @classmethod
    async def from_custom_id(cls, interaction, item, match: re.Match[str]):
        self = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(self, item)
        try:
            values = parse_fields(match["args"], cls.fields, cls.optional)
        except ValueError:
            log.info("refused custom_id %r", item.custom_id)
            self.unparsed = True
            values = dict.fromkeys((*cls.fields, *cls.optional))
        for name, value in values.items():
            setattr(self, name, value)
        return self


class ActButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:a:(?P<args>.*)"):
    """One legal action of one seat at one state version (and the digest of the choices it was one of):
    ``gh:a:<game>:<version>:<seat>:<index>[:<digest>]``."""

    fields, optional = ("game", "version", "seat", "index"), ("digest",)

    def __init__(self, panel: Panel, choice: Choice) -> None:
        tail = f":{panel.digest}" if panel.digest else ""
        super().__init__(discord.ui.Button(
            label=clip(choice.label), style=STYLES.get(choice.style, discord.ButtonStyle.secondary),
            emoji=choice.emoji,
            custom_id=f"gh:a:{panel.game_id}:{panel.version}:{panel.seat}:{choice.index}{tail}"))
        self.game, self.version, self.index, self.digest = panel.game_id, panel.version, choice.index, panel.digest

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await play(interaction, self.game, self.version, self.index, self.digest or None)


class ActSelect(_FromCustomId, discord.ui.DynamicItem[discord.ui.Select], template=r"gh:s:(?P<args>.*)"):
    """A select of legal actions (used when a group has more than five):
    ``gh:s:<game>:<version>:<seat>:<n>[:<digest>]``."""

    fields, optional = ("game", "version", "seat", "n"), ("digest",)

    def __init__(self, panel: Panel, row: Row, n: int) -> None:
        game_id, version, seat = panel.game_id, panel.version, panel.seat
        tail = f":{panel.digest}" if panel.digest else ""
        options = [discord.SelectOption(label=clip(c.label, MAX_OPTION_LABEL), value=str(c.index),
                                        description=clip(c.description, MAX_OPTION_LABEL) if c.description
                                        else None, emoji=c.emoji)
                   for c in row.choices]
        super().__init__(discord.ui.Select(custom_id=f"gh:s:{game_id}:{version}:{seat}:{n}{tail}",
                                           placeholder=clip(row.placeholder, 150), options=options))
        self.game, self.version, self.digest = game_id, version, panel.digest

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        if not values or not _NUMBER.fullmatch(values[0]):
            await _refuse(interaction, t("bad_choice", str(interaction.locale)))
            return
        await play(interaction, self.game, self.version, int(values[0]), self.digest or None)


class GroupSelect(_FromCustomId, discord.ui.DynamicItem[discord.ui.Select], template=r"gh:g:(?P<args>.*)"):
    """First step of a two-step choice when a panel does not fit five rows: pick a group of actions
    (``gh:g:<game>:<version>:<seat>[:<n>]``)."""

    fields, optional = ("game", "version", "seat"), ("n",)

    def __init__(self, game_id: int, version: int, seat: int, groups: list[tuple[int, str]],
                 selected: int | None = None, n: int = 0) -> None:
        options = [discord.SelectOption(label=clip(name, MAX_OPTION_LABEL), value=str(i), default=i == selected)
                   for i, name in groups]
        super().__init__(discord.ui.Select(custom_id=f"gh:g:{game_id}:{version}:{seat}:{n}",
                                           placeholder=t("select_group"), options=options))
        self.game, self.version = game_id, version

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        group = int(values[0]) if values and _NUMBER.fullmatch(values[0]) else None
        await show_group(interaction, self.game, self.version, group, 0)


class GroupButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:gb:(?P<args>.*)"):
    """First step of a two-step choice as a button (e.g. the card to play); shows that group's choices
    (``gh:gb:<game>:<version>:<seat>:<group>``)."""

    fields = ("game", "version", "seat", "group")

    def __init__(self, game_id: int, version: int, seat: int, group: int, name: str, selected: bool) -> None:
        super().__init__(discord.ui.Button(
            label=clip(name), custom_id=f"gh:gb:{game_id}:{version}:{seat}:{group}",
            style=discord.ButtonStyle.primary if selected else discord.ButtonStyle.secondary))
        self.game, self.version, self.group = game_id, version, group

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_group(interaction, self.game, self.version, self.group, 0)


class PageButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:pg:(?P<args>.*)"):
    """Turns the page of a group with more choices than fit in one message
    (``gh:pg:<game>:<version>:<seat>:<group>:<page>``)."""

    fields = ("game", "version", "seat", "group", "page")

    def __init__(self, game_id: int, version: int, seat: int, group: int, page: int, label: str,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"gh:pg:{game_id}:{version}:{seat}:{group}:{page}"))
        self.game, self.version, self.group, self.page = game_id, version, group, page

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await show_group(interaction, self.game, self.version, self.group, self.page)


async def show_group(interaction: discord.Interaction, game_id: int, version: int, group: int | None,
                     page: int) -> None:
    """Re-draw a private panel with one group of choices opened (two-step choices, paging)."""
    try:
        panel = await interaction.client.service.panel_for(game_id, interaction.user.id, version,
                                                           asker=asker(interaction))
    except GameError as exc:
        await _refuse(interaction, exc.text(interaction.locale))
        return
    await interaction.response.edit_message(view=panel_view(panel, group=group, page=page))


class TurnButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:t:(?P<args>.*)"):
    """On the public board: opens the clicking player's private panel (their hand and choices)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_turn"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:t:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await send_private(interaction, self.game, require_turn=True)


class HandButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:h:(?P<args>.*)"):
    """"My hand": the clicking player's private view as an ephemeral reply, always available."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_hand"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"gh:h:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await send_private(interaction, self.game, require_turn=False)


class JoinButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:j:(?P<args>.*)"):
    """Take a seat in a lobby (on the lobby and on its announcement in the channel)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_join"), style=discord.ButtonStyle.success,
                                           custom_id=f"gh:j:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await publish.join(interaction, self.game)


class StartButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:st:(?P<args>.*)"):
    """The host starts the lobby with the players who have joined."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_start"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:st:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await publish.start(interaction, self.game)


class RematchButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=r"gh:rm:(?P<args>.*)"):
    """On a finished game's last board: a player opens the same game again (same options, language, AI seats)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_rematch"), style=discord.ButtonStyle.success,
                                           emoji="🔁", custom_id=f"gh:rm:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        from cogs.games import open_game  # late: cogs.games imports this module

        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = interaction.client
        try:
            rematch = await bot.service.rematch(self.game, interaction.user.id, interaction.user.display_name,
                                                asker=asker(interaction))
        except GameError as exc:
            await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
            return
        if rematch.joined:  # another player opened it first: the clicker has a seat in theirs
            await publish.joined(interaction, rematch.game, rematch.outcome)
            return
        channel = interaction.channel
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        await open_game(interaction, channel, rematch.game, rematch.outcome, rematch.call)


class UnknownItem(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button],
                  template=r"gh:(?!(?:a|s|g|gb|pg|t|h|j|st|rm|r|tj|ts):)(?P<args>.*)"):
    """Any other ``gh:`` custom_id (damaged, or of a control this version no longer has): refused clearly."""

    unparsed = True

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:  # (guarded refuses it)
        raise AssertionError("an unknown control is refused before its callback")


DYNAMIC_ITEMS = (ActButton, ActSelect, GroupSelect, GroupButton, PageButton, TurnButton, HandButton, JoinButton,
                 StartButton, RematchButton, UnknownItem)


def panel_view(panel: Panel | None, *, group: int | None = None, page: int = 0,
               extra: list[discord.ui.Item] = ()) -> discord.ui.View:
    """Buttons/selects for a panel within Discord's 5 rows, plus ``extra`` items on the last row."""
    view = discord.ui.View(timeout=None)
    rows = layout(panel, reserved_rows=1 if extra else 0, group=group, page=page) if panel else []
    selects = 0
    for r, row in enumerate(rows):
        items: list[discord.ui.Item] = []
        if row.kind == "buttons":
            items = [ActButton(panel, choice) for choice in row.choices]
        elif row.kind == "select":
            items = [ActSelect(panel, row, selects)]
            selects += 1
        elif row.kind == "groups":
            items = [GroupSelect(panel.game_id, panel.version, panel.seat, row.groups, row.selected, r)]
        elif row.kind == "group_buttons":
            items = [ActButton(panel, row.direct[i]) if i in row.direct
                     else GroupButton(panel.game_id, panel.version, panel.seat, i, name, i == row.selected)
                     for i, name in row.groups]
        elif row.kind == "pager":
            items = [PageButton(panel.game_id, panel.version, panel.seat, row.group, max(row.page - 1, 0), "◀",
                                disabled=row.page == 0),
                     PageButton(panel.game_id, panel.version, panel.seat, row.group, row.page + 1,
                                f"{row.page + 2}/{row.pages} ▶" if row.page + 1 < row.pages else "▶",
                                disabled=row.page + 1 >= row.pages)]
        for item in items:
            item.item.row = r
            view.add_item(item)
    for item in extra:
        item.item.row = len(rows)
        view.add_item(item)
    return view


async def send_private(interaction: discord.Interaction, game_id: int, *, require_turn: bool) -> None:
    """Ephemeral private view (hand image + choices when it is the user's turn)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    service = interaction.client.service
    try:
        private = await service.private(game_id, interaction.user.id, asker=asker(interaction))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    if require_turn and private.panel is None:
        await interaction.followup.send(private.text, ephemeral=True)
        return
    kwargs = {"content": publish.clip_content(private.text), "ephemeral": True,
              "view": panel_view(private.panel)}
    if private.image is not None:
        kwargs["file"] = discord.File(publish.BytesIO(private.image), filename=f"hand-{game_id}.png")
    await interaction.followup.send(**kwargs)
