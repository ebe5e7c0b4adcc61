"""Persistent buttons and selects, and the views made of them. Every custom_id carries what the click means (game
id, state version, seat, choice), so a click works after any number of restarts: discord.py rebuilds the item from
the custom_id through ``DynamicItem.from_custom_id``. Register with ``bot.add_dynamic_items(*DYNAMIC_ITEMS)``.

This module imports nothing of cogs/: what a click does is a method of :class:`Clicks`, a typed protocol whose
implementation the bot holds (``bot.clicks``: cogs/actions.py's ``ClickActions``, set in bot.py), so commands
and publish import views and views import no command module. Every ``gh:`` custom_id starts with one of
:class:`Prefix`, which feeds the items' templates and the guard that refuses any other (:class:`UnknownItem`).
docs/click-path.md follows a click from here to the posted board.
"""

from __future__ import annotations

import functools
import logging
import re
import time
from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Protocol, cast

import discord

from host.asker import Asker
from host.locale import t
from host.outcome import Outcome
from host.panels import MAX_OPTION_LABEL, Choice, Panel, Row, clip, layout

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


MAX_CONTENT = 2000


def clip_content(text: str) -> str:
    """Discord's 2000-character limit: keep the first line and the newest lines (and whose turn it is),
    saying how many lines in between were left out."""
    if len(text) <= MAX_CONTENT:
        return text
    lines = text.split("\n")
    head = lines[:1]
    tail: list[str] = []
    budget = MAX_CONTENT - len(head[0]) - 40
    for line in reversed(lines[1:]):
        if len(line) + 1 > budget:
            break
        tail.insert(0, line)
        budget -= len(line) + 1
    skipped = len(lines) - 1 - len(tail)
    if budget < 0 or not tail:
        return "…\n" + text[-(MAX_CONTENT - 2):]
    return "\n".join([*head, t("more_lines", count=skipped), *tail])


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
                await refuse(interaction, t("bad_custom_id", str(interaction.locale)))
                return
            await callback(self, interaction)
        except Exception:
            log.exception("error in %s", type(self).__name__)
            try:
                await refuse(interaction, t("error_generic", str(interaction.locale)))
            except discord.HTTPException:
                pass
        finally:
            metrics = getattr(interaction.client, "metrics", None)
            if metrics is not None:
                metrics.observe_interaction(type(self).__name__, time.perf_counter() - started)

    return wrapper


class Prefix(StrEnum):
    """The kinds of persistent control: a custom_id is ``gh:<prefix>:<fields>``. The one list of them: each
    control's template (:meth:`template`) and the guard against any other kind (:class:`UnknownItem`) are made
    from it, so a new kind is added here or its clicks are refused as unknown."""

    ACT = "a"  # ActButton
    WAYS = "w"  # WaysButton
    SELECT = "s"  # ActSelect
    GROUP = "g"  # GroupSelect
    GROUP_BUTTON = "gb"  # GroupButton
    PAGE = "pg"  # PageButton
    TURN = "t"  # TurnButton
    HAND = "h"  # HandButton
    JOIN = "j"  # JoinButton
    START = "st"  # StartButton
    REMATCH = "rm"  # RematchButton
    LEAGUE_JOIN = "tj"  # LeagueJoin
    LEAGUE_START = "ts"  # LeagueStart
    LEAGUE_LEAVE = "tl"  # LeagueLeave
    LEAGUE_CHECK_IN = "tc"  # LeagueCheckIn
    CONFIRM = "cf"  # ConfirmButton: the second click of an "Are you sure?" choice
    CANCEL = "cx"  # CancelButton: "no" to an "Are you sure?" question
    UNDO = "u"  # UndoButton: take one's last move back within one's turn
    LEAVE = "lv"  # cogs/actions.py: LeaveButton (/game leave's confirmation)
    LOG = "lg"  # cogs/games.py: LogButton (a page of /game log)
    RULES = "r"  # cogs/rules.py: RulesPage
    REPLAY = "rv"  # cogs/replays.py: ReplayButton
    REPLAY_STEP = "rp"  # cogs/replays.py: StepButton
    HISTORY = "hy"  # cogs/replays.py: HistoryButton
    RESIGN = "rs"  # cogs/clocks.py: ResignButton
    DECK = "dk"  # cogs/decks.py: DeckControl
    DECK_MODAL = "dkm"  # cogs/decks.py: the deck list's text form (a modal, read in its on_interaction)

    def template(self) -> str:
        """The DynamicItem template of this kind: its fields go to the group ``args``."""
        return rf"gh:{self.value}:(?P<args>.*)"


class Clicks(Protocol):
    """What the persistent controls do (the bot's ``clicks``: cogs/actions.py's ``ClickActions``). Each method
    gets the interaction and the fields its control's custom_id carries, already parsed."""

    async def play(self, interaction: discord.Interaction, game_id: int, version: int, index: int,
                   digest: str | None = None, *, variant: int | None = None, confirmed: bool = False) -> None:
        """A chosen action (``variant``: one of its ways), from a button or a select; ``confirmed``: the second
        click of a choice asked about first ("Are you sure?")."""

    async def undo(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        """The clicker's last move taken back (the board of ``version`` offered it)."""

    async def show_group(self, interaction: discord.Interaction, game_id: int, version: int, group: int | None,
                         page: int) -> None:
        """A private panel re-drawn with one group of choices open (and its page)."""

    async def show_variants(self, interaction: discord.Interaction, game_id: int, version: int,
                            index: int) -> None:
        """A panel re-drawn with the ways to make one of its choices."""

    async def send_private(self, interaction: discord.Interaction, game_id: int, *, require_turn: bool) -> None:
        """The clicker's private view (hand and choices)."""

    async def join(self, interaction: discord.Interaction, game_id: int) -> None:
        """Take a seat in a lobby."""

    async def start(self, interaction: discord.Interaction, game_id: int) -> None:
        """The host starts a lobby."""

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """The same game again, with the same players."""

    async def league_join(self, interaction: discord.Interaction, league_id: int) -> None:
        """Enter an open tournament."""

    async def league_leave(self, interaction: discord.Interaction, league_id: int) -> None:
        """Withdraw from a tournament before its start."""

    async def league_check_in(self, interaction: discord.Interaction, league_id: int) -> None:
        """Check in to a tournament."""

    async def league_start(self, interaction: discord.Interaction, league_id: int) -> None:
        """The organizer starts a tournament."""


class HasClicks(Protocol):
    """A bot that holds :class:`Clicks` (bot.py's GameBot)."""

    clicks: Clicks


def clicks(interaction: discord.Interaction) -> Clicks:
    """The bot's :class:`Clicks`."""
    return cast(HasClicks, interaction.client).clicks


async def refuse(interaction: discord.Interaction, message: str) -> None:
    message = clip_content(message)
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


def _values(interaction: discord.Interaction) -> list[str]:
    """A select's chosen values (none for anything else)."""
    data: Mapping[str, Any] = interaction.data or {}
    return data.get("values") or []


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
        assert isinstance(self, discord.ui.DynamicItem), "_FromCustomId is mixed into DynamicItems only"
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


class ActButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.ACT.template()):
    """One legal action of one seat at one state version (and the digest of the choices it was one of), or
    one of its variants (e.g. who pays a HEX-TRI move): ``gh:a:<game>:<version>:<seat>:<index>[:<digest>
    [:<variant>]]``."""

    fields, optional = ("game", "version", "seat", "index"), ("digest", "variant")

    def __init__(self, panel: Panel, choice: Choice) -> None:
        tail = f":{panel.digest}" if panel.digest else ""
        if choice.variant is not None and panel.digest:
            tail += f":{choice.variant}"
        super().__init__(discord.ui.Button(
            label=clip(choice.label), style=STYLES.get(choice.style, discord.ButtonStyle.secondary),
            emoji=choice.emoji,
            custom_id=f"gh:{Prefix.ACT}:{panel.game_id}:{panel.version}:{panel.seat}:{choice.index}{tail}"))
        self.game, self.version, self.index, self.digest = panel.game_id, panel.version, choice.index, panel.digest
        self.variant = choice.variant if panel.digest else None

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).play(interaction, self.game, self.version, self.index, self.digest or None,
                       variant=self.variant)


class ConfirmButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.CONFIRM.template()):
    """The second click of a choice that loses something for good ("Are you sure?"): the same action as the
    first click, at the same state version, applied without asking again
    (``gh:cf:<game>:<version>:<seat>:<index>[:<digest>[:<variant>]]``). A board the game has moved past makes
    it out of date like any other click."""

    fields, optional = ("game", "version", "seat", "index"), ("digest", "variant")

    def __init__(self, game_id: int, version: int, seat: int, index: int, digest: str | None,
                 variant: int | None, label: str) -> None:
        tail = f":{digest}" if digest else ""
        if variant is not None and digest:
            tail += f":{variant}"
        super().__init__(discord.ui.Button(label=clip(label), style=discord.ButtonStyle.danger,
                                           custom_id=f"gh:{Prefix.CONFIRM}:{game_id}:{version}:{seat}:{index}{tail}"))
        self.game, self.version, self.index, self.digest = game_id, version, index, digest
        self.variant = variant if digest else None

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).play(interaction, self.game, self.version, self.index, self.digest or None,
                                       variant=self.variant, confirmed=True)


class CancelButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.CANCEL.template()):
    """"No" to an "Are you sure?" question: the question goes, nothing is applied (``gh:cx:<game>``)."""

    fields = ("game",)

    def __init__(self, game_id: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=clip(label), style=discord.ButtonStyle.secondary,
                                           custom_id=f"gh:{Prefix.CANCEL}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=t("confirm_cancelled", str(interaction.locale)), view=None)


class UndoButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.UNDO.template()):
    """On the board of a person's turn whose last move may be taken back (``Board.undo_button``): takes it back
    (``gh:u:<game>:<version>``). Only that person may; a board the game has moved past is out of date."""

    fields = ("game", "version")

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_undo"), style=discord.ButtonStyle.secondary, emoji="↩️",
                                           custom_id=f"gh:{Prefix.UNDO}:{game_id}:{version}"))
        self.game, self.version = game_id, version

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).undo(interaction, self.game, self.version)


class WaysButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.WAYS.template()):
    """A choice that can be made in several ways (``Choice.more``): shows them, e.g. who pays a HEX-TRI move
    (``gh:w:<game>:<version>:<seat>:<index>``)."""

    fields = ("game", "version", "seat", "index")

    def __init__(self, panel: Panel, choice: Choice) -> None:
        super().__init__(discord.ui.Button(
            label=clip(choice.label), style=STYLES.get(choice.style, discord.ButtonStyle.secondary),
            emoji=choice.emoji,
            custom_id=f"gh:{Prefix.WAYS}:{panel.game_id}:{panel.version}:{panel.seat}:{choice.index}"))
        self.game, self.version, self.index = panel.game_id, panel.version, choice.index

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).show_variants(interaction, self.game, self.version, self.index)


def choice_button(panel: Panel, choice: Choice) -> discord.ui.DynamicItem:
    """A choice as a button: one that acts, or one that opens the choice's ways (``Choice.more``)."""
    return WaysButton(panel, choice) if choice.more else ActButton(panel, choice)


#: a select option's value: ``<index>`` acts, ``<index>.<variant>`` acts in that way, ``w<index>`` shows the ways
_OPTION = re.compile(r"(w)?([0-9]{1,18})(?:\.([0-9]{1,4}))?")


def option_value(choice: Choice) -> str:
    if choice.more:
        return f"w{choice.index}"
    return str(choice.index) if choice.variant is None else f"{choice.index}.{choice.variant}"


class ActSelect(_FromCustomId, discord.ui.DynamicItem[discord.ui.Select], template=Prefix.SELECT.template()):
    """A select of legal actions (used when a group has more than five), or of one action's ways:
    ``gh:s:<game>:<version>:<seat>:<n>[:<digest>]``, each option's value as :func:`option_value` writes it."""

    fields, optional = ("game", "version", "seat", "n"), ("digest",)

    def __init__(self, panel: Panel, row: Row, n: int) -> None:
        game_id, version, seat = panel.game_id, panel.version, panel.seat
        tail = f":{panel.digest}" if panel.digest else ""
        options = [discord.SelectOption(label=clip(c.label, MAX_OPTION_LABEL), value=option_value(c),
                                        description=clip(c.description, MAX_OPTION_LABEL) if c.description
                                        else None, emoji=c.emoji)
                   for c in row.choices]
        super().__init__(discord.ui.Select(custom_id=f"gh:{Prefix.SELECT}:{game_id}:{version}:{seat}:{n}{tail}",
                                           placeholder=clip(row.placeholder, 150), options=options))
        self.game, self.version, self.digest = game_id, version, panel.digest

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        match = _OPTION.fullmatch(values[0]) if values and isinstance(values[0], str) else None
        if match is None or (match[1] and match[3]):
            await refuse(interaction, t("bad_choice", str(interaction.locale)))
            return
        index = int(match[2])
        if match[1]:
            await clicks(interaction).show_variants(interaction, self.game, self.version, index)
            return
        variant = int(match[3]) if match[3] else None
        await clicks(interaction).play(interaction, self.game, self.version, index, self.digest or None, variant=variant)


class GroupSelect(_FromCustomId, discord.ui.DynamicItem[discord.ui.Select], template=Prefix.GROUP.template()):
    """First step of a two-step choice when a panel does not fit five rows: pick a group of actions
    (``gh:g:<game>:<version>:<seat>[:<n>]``)."""

    fields, optional = ("game", "version", "seat"), ("n",)

    def __init__(self, game_id: int, version: int, seat: int, groups: list[tuple[int, str]],
                 selected: int | None = None, n: int = 0) -> None:
        options = [discord.SelectOption(label=clip(name, MAX_OPTION_LABEL), value=str(i), default=i == selected)
                   for i, name in groups]
        super().__init__(discord.ui.Select(custom_id=f"gh:{Prefix.GROUP}:{game_id}:{version}:{seat}:{n}",
                                           placeholder=t("select_group"), options=options))
        self.game, self.version = game_id, version

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        values = _values(interaction)
        group = int(values[0]) if values and _NUMBER.fullmatch(values[0]) else None
        await clicks(interaction).show_group(interaction, self.game, self.version, group, 0)


class GroupButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.GROUP_BUTTON.template()):
    """First step of a two-step choice as a button (e.g. the card to play); shows that group's choices
    (``gh:gb:<game>:<version>:<seat>:<group>``)."""

    fields = ("game", "version", "seat", "group")

    def __init__(self, game_id: int, version: int, seat: int, group: int, name: str, selected: bool) -> None:
        super().__init__(discord.ui.Button(
            label=clip(name), custom_id=f"gh:{Prefix.GROUP_BUTTON}:{game_id}:{version}:{seat}:{group}",
            style=discord.ButtonStyle.primary if selected else discord.ButtonStyle.secondary))
        self.game, self.version, self.group = game_id, version, group

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).show_group(interaction, self.game, self.version, self.group, 0)


class PageButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.PAGE.template()):
    """Turns the page of a group with more choices than fit in one message
    (``gh:pg:<game>:<version>:<seat>:<group>:<page>``)."""

    fields = ("game", "version", "seat", "group", "page")

    def __init__(self, game_id: int, version: int, seat: int, group: int, page: int, label: str,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, disabled=disabled,
                                           custom_id=f"gh:{Prefix.PAGE}:{game_id}:{version}:{seat}:{group}:{page}"))
        self.game, self.version, self.group, self.page = game_id, version, group, page

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).show_group(interaction, self.game, self.version, self.group, self.page)


class TurnButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.TURN.template()):
    """On the public board: opens the clicking player's private panel (their hand and choices)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_turn"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:{Prefix.TURN}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).send_private(interaction, self.game, require_turn=True)


class HandButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.HAND.template()):
    """"My hand": the clicking player's private view as an ephemeral reply, always available."""

    fields = ("game",)

    def __init__(self, game_id: int, label: str | None = None, emoji: str | None = None) -> None:
        # (also on a DM said in words, as "Track picture": the same private view, its picture included)
        super().__init__(discord.ui.Button(label=label or t("button_hand"), style=discord.ButtonStyle.secondary,
                                           emoji=emoji, custom_id=f"gh:{Prefix.HAND}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).send_private(interaction, self.game, require_turn=False)


class JoinButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.JOIN.template()):
    """Take a seat in a lobby (on the lobby and on its announcement in the channel)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_join"), style=discord.ButtonStyle.success,
                                           custom_id=f"gh:{Prefix.JOIN}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).join(interaction, self.game)


class StartButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.START.template()):
    """The host starts the lobby with the players who have joined."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_start"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:{Prefix.START}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).start(interaction, self.game)


class RematchButton(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.REMATCH.template()):
    """On a finished game's last board: a player opens the same game again (same options, language, AI seats)."""

    fields = ("game",)

    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_rematch"), style=discord.ButtonStyle.success,
                                           emoji="🔁", custom_id=f"gh:{Prefix.REMATCH}:{game_id}"))
        self.game = game_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).rematch(interaction, self.game)


class LeagueJoin(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LEAGUE_JOIN.template()):
    """Enter an open league (``gh:tj:<league>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_join"), style=discord.ButtonStyle.success,
                                           custom_id=f"gh:{Prefix.LEAGUE_JOIN}:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).league_join(interaction, self.league_id)


class LeagueStart(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LEAGUE_START.template()):
    """The organizer starts the league (``gh:ts:<league>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_start"), style=discord.ButtonStyle.primary,
                                           custom_id=f"gh:{Prefix.LEAGUE_START}:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).league_start(interaction, self.league_id)


class LeagueLeave(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LEAGUE_LEAVE.template()):
    """Withdraw from a tournament before it starts (``gh:tl:<tournament>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_leave_tournament"), style=discord.ButtonStyle.secondary,
                                           custom_id=f"gh:{Prefix.LEAGUE_LEAVE}:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).league_leave(interaction, self.league_id)


class LeagueCheckIn(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=Prefix.LEAGUE_CHECK_IN.template()):
    """Confirm one will play, while the organizer's check-in is open (``gh:tc:<tournament>``)."""

    fields = ("league_id",)

    def __init__(self, league_id: int) -> None:
        super().__init__(discord.ui.Button(label=t("button_check_in"), style=discord.ButtonStyle.success,
                                           custom_id=f"gh:{Prefix.LEAGUE_CHECK_IN}:{league_id}"))
        self.league_id = league_id

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:
        await clicks(interaction).league_check_in(interaction, self.league_id)


#: a ``gh:`` custom_id of none of the kinds in :class:`Prefix`
UNKNOWN_TEMPLATE = rf"gh:(?!(?:{'|'.join(re.escape(p.value) for p in Prefix)}):)(?P<args>.*)"


class UnknownItem(_FromCustomId, discord.ui.DynamicItem[discord.ui.Button], template=UNKNOWN_TEMPLATE):
    """Any other ``gh:`` custom_id (damaged, or of a control this version no longer has): refused clearly."""

    unparsed = True

    @guarded
    async def callback(self, interaction: discord.Interaction) -> None:  # (guarded refuses it)
        raise AssertionError("an unknown control is refused before its callback")


DYNAMIC_ITEMS = (ActButton, ConfirmButton, CancelButton, UndoButton, WaysButton, ActSelect, GroupSelect, GroupButton, PageButton,
                 TurnButton, HandButton, JoinButton, StartButton, RematchButton, LeagueJoin, LeagueStart, LeagueLeave,
                 LeagueCheckIn, UnknownItem)


def panel_view(panel: Panel | None, *, group: int | None = None, page: int = 0,
               extra: Sequence[discord.ui.Item] = (), picture: bool = False) -> discord.ui.View:
    """Buttons/selects for a panel within Discord's 5 rows, plus ``extra`` items on the last row. ``picture``:
    a panel sent without the game's private picture (a DM, ``Panel.picture_on_request``) offers it on a button."""
    if picture and panel is not None and panel.picture_on_request:
        extra = [*extra, HandButton(panel.game_id, label=t("button_track_picture"), emoji="🖼️")]
    view = discord.ui.View(timeout=None)
    used = _add_panel(view, panel, group=group, page=page, reserved=1 if extra else 0) if panel is not None else 0
    for item in extra:
        getattr(item, "item", item).row = used  # (a DynamicItem's button, or a plain link button)
        view.add_item(item)
    return view


def _add_panel(view: discord.ui.View, panel: Panel, *, group: int | None, page: int, reserved: int) -> int:
    """The panel's rows on ``view`` (and the way back of a panel of one action's ways, on a row of its own),
    leaving ``reserved`` rows free; returns how many rows they take."""
    rows = layout(panel, reserved_rows=reserved + (1 if panel.back is not None else 0), group=group, page=page)
    selects = 0
    for r, row in enumerate(rows):
        items: list[discord.ui.DynamicItem] = []
        if row.kind == "buttons":
            items = [choice_button(panel, choice) for choice in row.choices]
        elif row.kind == "select":
            items = [ActSelect(panel, row, selects)]
            selects += 1
        elif row.kind == "groups":
            items = [GroupSelect(panel.game_id, panel.version, panel.seat, row.groups, row.selected, r)]
        elif row.kind == "group_buttons":
            items = [choice_button(panel, row.direct[i]) if i in row.direct
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
    if panel.back is None:
        return len(rows)
    # a panel of one action's ways: back to the group it was chosen from (its own row, before any extras)
    back, name = panel.back
    button = GroupButton(panel.game_id, panel.version, panel.seat, back, f"◀ {name}", False)
    button.item.row = len(rows)
    view.add_item(button)
    return len(rows) + 1




def board_view(outcome: Outcome, link: discord.ui.Button | None = None) -> discord.ui.View:
    """The board's controls: its panel, then Rematch / Undo / My turn / My hand and the web link (``link``: Watch or
    Replay, cogs/weblinks.py) on the last row."""
    board = outcome.board
    assert board is not None, "an outcome published with its controls has a board (cogs/publish.py)"
    extra: list[discord.ui.Item] = []
    if outcome.finished:
        extra.append(RematchButton(outcome.game.id))
    if board.undo_button:
        extra.append(UndoButton(outcome.game.id, outcome.game.version))
    if board.turn_button:
        extra.append(TurnButton(outcome.game.id))
    if board.hand_button:
        extra.append(HandButton(outcome.game.id))
    if link is not None:
        extra.append(link)
    return panel_view(board.panel, extra=extra)
