"""One command group per game: ``/<game> new`` opens a game of it (``/troja new players:3 opponent:AI``), with
the options every game has (opponent, AI level, invite, language, time control) and the game's own (from its
presenter). A group per game keeps each command small (Discord counts at most 8,000 characters of names,
descriptions and choices per command, and five games' options under one ``/game new`` came to 7,000) and gives
each game a place for its own commands later.

Before anything is saved, the bot checks that it can host a game where it was asked (cogs/permissions.py): a
game never half opens. In a direct message only a game against the AI can be opened (nobody else could see or
join it)."""

from __future__ import annotations

import inspect
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs import actions, decks, permissions
from cogs.contexts import EVERYWHERE, GUILD_INSTALL
from cogs.limits import throttled
from engines import ENGINES
from host.errors import GameError
from host.locale import LANGUAGES
from host.presenters import OptionSpec, presenter_for

log = logging.getLogger(__name__)

LANGUAGE_CHOICES = [app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
TIME_CONTROL_CHOICES = [
    app_commands.Choice(name="None — no clock (default against the AI)", value="none"),
    app_commands.Choice(name="1 hour per move", value="1h"),
    app_commands.Choice(name="12 hours per move", value="12h"),
    app_commands.Choice(name="1 day per move (default for open games)", value="1d"),
    app_commands.Choice(name="3 days per move", value="3d"),
    app_commands.Choice(name="Time bank: 3 days, +12 hours per move", value="bank"),
]
ON_TIMEOUT_CHOICES = [
    app_commands.Choice(name="AI plays for them until they are back (default)", value="ai"),
    app_commands.Choice(name="Forfeit: ranked last (a 2-player game ends)", value="forfeit"),
]
OPPONENT_CHOICES = [app_commands.Choice(name="AI — play alone against the computer", value="ai"),
                    app_commands.Choice(name="Open — others join with the Join button", value="open")]
LEVEL_CHOICES = [app_commands.Choice(name="Easy — makes mistakes", value="easy"),
                 app_commands.Choice(name="Normal", value="normal"),
                 app_commands.Choice(name="Hard — searches about a second per move", value="hard")]
DESCRIPTIONS = {"opponent": "AI fills the other seats and the game starts now; Open waits for players",
                "invite": "Reserve the second seat for this member",
                "level": "How strong the AI plays (with opponent: AI; default Normal)",
                "language": "Language of the game's messages and buttons (default: your Discord language)",
                "time_control": "Time per move (default: none against the AI, 1 day for open games)",
                "on_timeout": "When time runs out: the AI plays until they are back, or they forfeit"}
CHOICES = {"opponent": OPPONENT_CHOICES, "language": LANGUAGE_CHOICES, "time_control": TIME_CONTROL_CHOICES,
           "on_timeout": ON_TIMEOUT_CHOICES, "level": LEVEL_CHOICES}


def _annotation(spec: OptionSpec):
    if spec.kind == "bool":
        return bool
    if spec.kind == "int":
        if spec.min_value is not None and spec.max_value is not None:
            return app_commands.Range[int, spec.min_value, spec.max_value]
        return int
    return type(spec.choices[0][1]) if spec.choices else str


#: what an option's ``suggest`` offers while it is typed, and how its text becomes a value (OptionSpec)
SUGGESTIONS = {"decks": decks.deck_autocomplete}
RESOLVERS = {"decks": decks.resolve_decks}


def _parameter(name: str, annotation, default=None) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


def new_command(key: str, group: app_commands.Group) -> app_commands.Command:
    """``/<key> new`` with the options every game has and the game's own."""
    engine = ENGINES[key]
    specs = list(presenter_for(key).options)

    async def callback(interaction: discord.Interaction, **values) -> None:
        await create_game(interaction, key, values, {s.name for s in specs},
                          {s.name: s.suggest for s in specs if s.suggest in RESOLVERS})

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=discord.Interaction),
              _parameter("opponent", str | None), _parameter("level", str | None),
              _parameter("invite", discord.User | None), _parameter("language", str | None),
              _parameter("time_control", str | None), _parameter("on_timeout", str | None)]
    descriptions, choices = dict(DESCRIPTIONS), dict(CHOICES)
    for spec in specs:
        params.append(_parameter(spec.name, _annotation(spec)))
        descriptions[spec.name] = spec.description
        if spec.choices:
            choices[spec.name] = [app_commands.Choice(name=label, value=value) for label, value in spec.choices]
    callback.__signature__ = inspect.Signature(params)
    callback.__annotations__ = {p.name: p.annotation for p in params}
    callback = app_commands.describe(**descriptions)(callback)
    callback = app_commands.choices(**choices)(callback)
    suggested = {s.name: SUGGESTIONS[s.suggest] for s in specs if s.suggest in SUGGESTIONS}
    if suggested:
        callback = app_commands.autocomplete(**suggested)(callback)
    return app_commands.Command(name="new", description=f"Start a game of {engine.title}"[:100], callback=callback,
                                parent=group)


def game_group(key: str) -> app_commands.Group:
    """``/<key>``: the game's own commands (``new``), usable in servers and in the bot's DMs."""
    group = app_commands.Group(name=key, description=f"Play {ENGINES[key].title}"[:100],
                               allowed_contexts=EVERYWHERE, allowed_installs=GUILD_INSTALL)
    group.add_command(new_command(key, group))
    return group


async def create_game(interaction: discord.Interaction, key: str, values: dict, option_names: set[str],
                      resolved: dict[str, str] | None = None) -> None:
    """Check that the game can live here, open its thread, post the lobby there (or the first board when the
    AI fills the seats) and announce it in the channel. Answered privately: a refusal (a bad option, a missing
    permission) is for the asker only, and the first followup keeps the deferral's visibility."""
    if await throttled(interaction, "game_new"):
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    bot = interaction.client
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent is not None:
        channel = channel.parent  # a game thread cannot live inside another thread
    lang = str(interaction.locale)
    place = permissions.place_for_game(interaction)
    if place.refusal is not None:  # nothing is saved: no lobby without a message, no empty thread
        await interaction.followup.send(place.refusal, ephemeral=True)
        return
    invite = values.get("invite")
    options = {name: values.get(name) for name in option_names}
    try:  # options named by text (a player's own deck): looked up now, so that the game holds the thing itself
        for kind in set((resolved or {}).values()):
            await RESOLVERS[kind](interaction, options, [n for n, k in resolved.items() if k == kind])
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    # by default others may join; in a DM with the bot nobody else could, so the AI is the opponent there
    opponent = values.get("opponent") or ("open" if interaction.guild_id is not None else "ai")
    try:
        game, outcome = await bot.service.create(
            key, user_id=interaction.user.id, user_name=interaction.user.display_name,
            guild_id=interaction.guild_id, channel_id=channel.id if channel else interaction.channel_id,
            options=options, opponent=opponent,
            invite=(invite.id, invite.display_name) if invite else None,
            lang=values.get("language") or lang,
            time_control=values.get("time_control"), on_timeout=values.get("on_timeout"), level=values.get("level"))
    except GameError as exc:
        await interaction.followup.send(exc.text(interaction.locale), ephemeral=True)
        return
    await actions.open_game(interaction, channel, game, outcome, threads=place.threads, note=place.note)


class NewGame(commands.Cog):
    """``/<game> new`` for every game (the groups are made from the engines found, so adding a game adds its
    command)."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        self.groups = [game_group(key) for key in ENGINES]

    async def cog_load(self) -> None:
        for group in self.groups:
            self.bot.tree.add_command(group)

    async def cog_unload(self) -> None:
        for group in self.groups:
            self.bot.tree.remove_command(group.name)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(NewGame(bot))
