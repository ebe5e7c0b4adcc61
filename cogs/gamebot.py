"""The bot as the cogs see it: :class:`GameBot`, a ``commands.Bot`` with its attributes declared.

bot.py builds the bot (its ``GameBot`` subclasses this one and fills the attributes in ``__init__`` and
``setup_hook``); the cogs annotate with this class, so ``self.bot.service`` and ``interaction.client.outbox`` are
checked by mypy. This module imports no command module of cogs/ (only the :class:`~cogs.views.Clicks` protocol),
so every cog can import it without an import circle (tests/test_layers.py).

The game service, the store and the outbox exist once ``setup_hook`` has run, before any cog is
loaded: their properties return them, typed without ``None``, and raise ``RuntimeError`` if asked earlier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, cast

import discord
from discord.ext import commands

from cogs.views import Clicks
from host.cache import Locks
from host.metrics import Metrics
from host.outbox import Outbox
from host.replay_queue import ReplayQueue
from host.service import GameService
from host.shards import Shards
from host.tournaments import TournamentService
from host.weblinks import WebLinks
from settings import Settings
from store import Store

T = TypeVar("T")


def _ready(value: T | None, name: str) -> T:
    if value is None:
        raise RuntimeError(f"the bot's {name} is made in setup_hook, which has not run yet")
    return value


@dataclass(frozen=True)
class Pictured:
    """The hand picture last DMed to a seat: what identifies it, and the hand it shows in words (None: the
    game does not say its hand in words)."""

    digest: str
    items: tuple[str, ...] | None


class GameBot(commands.Bot):
    """A game host bot: its settings, store, game service, outbox and the controls' :class:`Clicks`."""

    settings: Settings
    #: the shards whose servers' games this process's background jobs handle (None: all games)
    owned: Shards | None
    #: what the persistent controls do when clicked (cogs/views.py's Clicks protocol; docs/click-path.md)
    clicks: Clicks
    metrics: Metrics
    #: one publication per game at a time (cogs/publish.py)
    publish_locks: Locks
    #: made when first needed (host/tournaments.py's ``tournaments_of``, host/replay_queue.py's ``replays_of``)
    tournaments: TournamentService | None = None
    replay_queue: ReplayQueue | None = None
    #: the links to the web companion the cogs post (host/weblinks.py); made with the store (None before)
    weblinks: WebLinks | None = None

    #: cogs/publish.py's memory of this process's boards and DMs, made there when first needed: the hand picture
    #: last DMed per (game, seat, user), the DM of each (game, seat)'s turn (channel, message, clock warning), the
    #: pictures last uploaded with each game's board
    hands_shown: dict[tuple[int, int, int], Pictured]
    turn_dms: dict[tuple[int, int], tuple[int, int, str | None]]
    board_pictures: dict[int, str | None]

    _store: Store | None = None
    _service: GameService | None = None
    _outbox: Outbox | None = None

    @property
    def store(self) -> Store:
        return _ready(self._store, "store")

    @property
    def service(self) -> GameService:
        return _ready(self._service, "game service")

    @property
    def outbox(self) -> Outbox:
        return _ready(self._outbox, "outbox")


def game_interaction(interaction: discord.Interaction) -> discord.Interaction[GameBot]:
    """The interaction, typed as one that came to a :class:`GameBot`. Slash commands annotate
    ``discord.Interaction[GameBot]`` directly; a component's callback cannot (discord.py's ``Item.callback`` is
    declared over any client), so it starts with ``interaction = game_interaction(interaction)``: every
    interaction this process receives comes to its one bot, a GameBot (bot.py)."""
    return cast("discord.Interaction[GameBot]", interaction)


def game_bot(interaction: discord.Interaction) -> GameBot:
    """The bot an interaction came to, typed (see :func:`game_interaction`)."""
    return game_interaction(interaction).client
