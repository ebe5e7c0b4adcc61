"""/deck: players build, keep and share their own Kiválasztottak decks (host/decks.py does the work).

``/deck new name [start]`` (empty, or a copy of a starter deck, one's own deck or a deck code), ``/deck edit``
(the whole list as text in a form: paste or type, one card a line), ``/deck show`` (the deck-list picture, its
code, what breaks the rules, and an editor: a card type, a card, then one copy more or less in the deck or the
reserve deck), ``/deck list``, ``/deck use`` (the deck a game uses when none is named), ``/deck delete``.
Everything answers privately. The editor's controls carry the deck's row id (``gh:dk:<action>:<deck>...``) and
work after a restart; the text form's answer is handled by its custom_id (``gh:dkm:<deck>``) the same way."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.contexts import EVERYWHERE, GUILD_INSTALL
from cogs.gamebot import GameBot, game_interaction
from cogs.views import Prefix
from engines.kivalasztottak import decks as D
from engines.kivalasztottak.cards import card_defs
from host.decks import MAX_NAME, Deck, DeckError, deck_view, problem_lines, text
from host.locale import language

log = logging.getLogger(__name__)

TYPES = ("tower", "adventurer", "action", "quest", "building", "ally", "obstacle", "event", "omen")
#: Discord's limit on a text input's value
TEXT_LIMIT = 4000
EDIT = re.compile(r"(?P<action>[a-z+-]{1,3}):(?P<deck>[0-9]{1,18})(?::(?P<arg>[a-z_0-9]{1,40}))?")


def _lang(interaction: discord.Interaction) -> str:
    return language(str(interaction.locale))


def _card_name(key: str, lang: str) -> str:
    d = card_defs()[key]
    return d["name_hu"] if lang == "hu" else d["name_en"]


def _counts(deck: Deck, key: str) -> tuple[int, int]:
    return (sum(n for k, n in deck.spec["cards"] if k == key), sum(n for k, n in deck.spec["reserve"] if k == key))


def summary(deck: Deck, lang: str) -> str:
    """The deck in a few lines: its size, the reserve, playable or why not, the code."""
    lines = [text("deckui_summary", lang, name=deck.name, size=deck.size, reserve=deck.reserve_size)]
    problems = problem_lines(deck, lang)
    lines += [f"✗ {p}" for p in problems] if problems else [text("deckui_playable", lang)]
    lines.append(text("deckui_code", lang, code=deck.code))
    return "\n".join(lines)[:1900]


def editor(deck: Deck, lang: str, card_type: str | None = None, card: str | None = None) -> discord.ui.View:
    """The editor's controls: a select of card types; with a type, a select of its cards; with a card, one
    copy more or less in the deck and in the reserve deck; and the text form."""
    view = discord.ui.View(timeout=None)
    types: discord.ui.Select = discord.ui.Select(custom_id=f"gh:{Prefix.DECK}:t:{deck.id}", placeholder=text("deckui_pick_type", lang),
                              options=[discord.SelectOption(label=text(f"deckui_type_{t}", lang), value=t,
                                                            default=t == card_type) for t in TYPES], row=0)
    view.add_item(DeckControl(types))
    if card_type in TYPES:
        keys = [k for k in D.pool() if card_defs()[k]["type"] == card_type][:25]
        options = []
        for k in keys:
            deck_n, reserve_n = _counts(deck, k)
            options.append(discord.SelectOption(
                label=_card_name(k, lang)[:100], value=k, default=k == card,
                description=text("deckui_card_counts", lang, deck=deck_n, reserve=reserve_n)[:100]))
        view.add_item(DeckControl(discord.ui.Select(custom_id=f"gh:{Prefix.DECK}:c:{deck.id}:{card_type}", options=options,
                                                    row=1, placeholder=text("deckui_pick_card", lang))))
    if card is not None and card in card_defs():
        for action, key, style in [("+d", "deckui_add_deck", discord.ButtonStyle.success),
                                   ("-d", "deckui_remove_deck", discord.ButtonStyle.secondary),
                                   ("+r", "deckui_add_reserve", discord.ButtonStyle.success),
                                   ("-r", "deckui_remove_reserve", discord.ButtonStyle.secondary)]:
            view.add_item(DeckControl(discord.ui.Button(custom_id=f"gh:{Prefix.DECK}:{action}:{deck.id}:{card}", style=style,
                                                        row=2, label=text(key, lang)[:80])))
    view.add_item(DeckControl(discord.ui.Button(custom_id=f"gh:{Prefix.DECK}:e:{deck.id}", style=discord.ButtonStyle.primary,
                                                label=text("deckui_edit_text", lang)[:80], row=3)))
    view.add_item(DeckControl(discord.ui.Button(custom_id=f"gh:{Prefix.DECK}:p:{deck.id}", style=discord.ButtonStyle.secondary,
                                                label=text("deckui_picture", lang)[:80], row=3)))
    return view


def text_form(deck: Deck, lang: str) -> discord.ui.Modal:
    """The whole deck as text in a form (what ``/deck edit`` and the editor's button open)."""
    modal = discord.ui.Modal(title=text("deckui_form_title", lang, name=deck.name)[:45],
                             custom_id=f"gh:{Prefix.DECK_MODAL}:{deck.id}", timeout=900)
    current = D.format_text(deck.spec, lang)
    modal.add_item(discord.ui.TextInput(
        label=text("deckui_form_label", lang)[:45], custom_id="text", style=discord.TextStyle.paragraph,
        default=current[:TEXT_LIMIT] or None, required=False, max_length=TEXT_LIMIT,
        placeholder=text("deckui_form_placeholder", lang)[:100]))
    return modal


async def picture(interaction: discord.Interaction[GameBot], deck: Deck, lang: str) -> discord.File:
    png = await interaction.client.service.painter.draw("kivalasztottak", "render_deck", deck_view(deck, lang))
    return discord.File(io.BytesIO(png), filename="deck.png")


async def suggest(interaction: discord.Interaction[GameBot], current: str, *, starters: bool = True,
                  own: bool = True) -> list[app_commands.Choice[str]]:
    """Autocomplete: the player's decks, then the starter decks, whose name contains what was typed."""
    lang = _lang(interaction)
    want = D.fold(current)
    found: list[app_commands.Choice[str]] = []
    if own:
        for deck in await interaction.client.service.decks.list(interaction.user.id):
            if want in D.fold(deck.name):
                mark = "✓" if not deck.problems else "✗"
                found.append(app_commands.Choice(name=f"{deck.name} ({deck.size}, {mark})"[:100], value=deck.name))
    if starters:
        for key, spec in D.presets().items():
            name = spec["name_hu"] if lang == "hu" else spec["name"]
            if want in D.fold(name) or want in D.fold(key):
                found.append(app_commands.Choice(name=text("deckui_starter", lang, name=name)[:100], value=key))
    return found[:25]


async def deck_autocomplete(interaction: discord.Interaction[GameBot], current: str) -> list[app_commands.Choice[str]]:
    """For ``/kivalasztottak new deck:`` and ``opponent_deck:`` (cogs/newgame.py)."""
    return await suggest(interaction, current)


async def resolve_decks(interaction: discord.Interaction[GameBot], values: dict, names: list[str]) -> None:
    """Replace the named options' texts by the decks they name (a player's own deck, a starter, a code): the
    game's options then hold the deck itself. DeckError (with the reasons) for a deck that cannot be played."""
    lang = _lang(interaction)
    for name in names:
        wanted = values.get(name)
        if isinstance(wanted, str) and wanted.strip():
            deck = await interaction.client.service.decks.playable(interaction.user.id, wanted, lang)
            values[name] = deck.engine_value


class DeckControl(discord.ui.DynamicItem[discord.ui.Button | discord.ui.Select], template=Prefix.DECK.template()):
    """Every control of the deck editor (a button or a select): ``gh:dk:<action>:<deck id>[:<type or card>]``."""

    def __init__(self, item: discord.ui.Button | discord.ui.Select, args: str | None = None) -> None:
        super().__init__(item)
        self.args = args if args is not None else str(item.custom_id)[len(f"gh:{Prefix.DECK}:"):]

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(item, match["args"])

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction = game_interaction(interaction)
        lang = _lang(interaction)
        found = EDIT.fullmatch(self.args)
        if found is None:
            await interaction.response.send_message(text("deckui_bad_control", lang), ephemeral=True)
            return
        book = interaction.client.service.decks
        action, arg = found["action"], found["arg"]
        try:
            deck = await book.by_id(interaction.user.id, int(found["deck"]), lang)
            data: Mapping[str, Any] = interaction.data or {}
            values = data.get("values") or []
            if action == "e":
                await interaction.response.send_modal(text_form(deck, lang))
                return
            if action == "p":
                await interaction.response.send_message(summary(deck, lang), ephemeral=True,
                                                        file=await picture(interaction, deck, lang))
                return
            card_type = card = None
            if action == "t":
                card_type = values[0] if values and values[0] in TYPES else None
            elif action == "c":
                card_type = arg if arg in TYPES else None
                card = values[0] if values and values[0] in D.pool() else None
            elif action in ("+d", "-d", "+r", "-r"):
                if arg not in D.pool():
                    raise DeckError(text("deckui_bad_control", lang))
                card, card_type = arg, card_defs()[arg]["type"]
                part = "cards" if action[1] == "d" else "reserve"
                deck = await book.change(interaction.user.id, deck, arg, part, 1 if action[0] == "+" else -1, lang)
            await interaction.response.edit_message(content=summary(deck, lang),
                                                    view=editor(deck, lang, card_type, card))
        except DeckError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)


class Decks(commands.Cog):
    """The /deck group and the text form's answers."""

    group = app_commands.Group(name="deck", description="Your own Kiválasztottak decks: build, share, choose",
                               allowed_contexts=EVERYWHERE, allowed_installs=GUILD_INSTALL)

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _show(self, interaction: discord.Interaction[GameBot], deck: Deck, lang: str, note: str = "") -> None:
        content = (note + "\n" if note else "") + summary(deck, lang)
        await interaction.followup.send(content[:2000], file=await picture(interaction, deck, lang),
                                        view=editor(deck, lang), ephemeral=True)

    @group.command(name="new", description="Start a deck: empty, or a copy of a starter deck, your deck or a code")
    @app_commands.describe(deck="Your name for the deck (1-40 characters)",
                           start="A starter deck, one of your decks or a deck code to copy (default: empty)")
    async def new(self, interaction: discord.Interaction[GameBot], deck: app_commands.Range[str, 1, MAX_NAME],
                  start: app_commands.Range[str, 1, 1000] | None = None) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = _lang(interaction)
        book = self.bot.service.decks
        try:
            base = await book.resolve(interaction.user.id, start, lang) if start else None
            spec = base.spec if base else {"cards": [], "reserve": []}
            made = await book.save(interaction.user.id, deck, spec, lang, new=True)
        except DeckError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        await self._show(interaction, made, lang, text("deckui_created", lang, name=made.name))

    @group.command(name="edit", description="Change a deck as text: paste or type its list, one card a line")
    @app_commands.describe(deck="Which of your decks")
    async def edit(self, interaction: discord.Interaction[GameBot], deck: app_commands.Range[str, 1, MAX_NAME]) -> None:
        lang = _lang(interaction)
        try:
            found = await self.bot.service.decks.get(interaction.user.id, deck, lang)
        except DeckError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await interaction.response.send_modal(text_form(found, lang))

    @group.command(name="show", description="A deck's list as a picture, its code, and the card editor")
    @app_commands.describe(deck="One of your decks, a starter deck or a deck code")
    async def show(self, interaction: discord.Interaction[GameBot], deck: app_commands.Range[str, 1, 1000]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = _lang(interaction)
        try:
            found = await self.bot.service.decks.resolve(interaction.user.id, deck, lang)
        except DeckError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        if found.id is None:  # a starter deck or a code: a picture and the code, no editor
            await interaction.followup.send(summary(found, lang), file=await picture(interaction, found, lang),
                                            ephemeral=True)
            return
        await self._show(interaction, found, lang)

    @group.command(name="list", description="Your decks: size, reserve, playable or not, codes")
    async def list_(self, interaction: discord.Interaction[GameBot]) -> None:
        lang = _lang(interaction)
        book = self.bot.service.decks
        decks = await book.list(interaction.user.id)
        chosen = await book.chosen(interaction.user.id)
        if not decks:
            await interaction.response.send_message(text("deckui_none", lang), ephemeral=True)
            return
        lines = [text("deckui_list_line", lang, name=d.name, size=d.size, reserve=d.reserve_size,
                      mark="✓" if not d.problems else "✗", chosen=" ★" if chosen and chosen.id == d.id else "",
                      code=d.code) for d in decks]
        lines.append(text("deckui_list_chosen", lang, name=chosen.name if chosen else text("deckui_starters", lang)))
        await interaction.response.send_message("\n".join(lines)[:2000], ephemeral=True)

    list_.name = "list"

    @group.command(name="use", description="The deck your Kiválasztottak games use when you name none")
    @app_commands.describe(deck="One of your playable decks, or a starter deck")
    async def use(self, interaction: discord.Interaction[GameBot], deck: app_commands.Range[str, 1, 1000]) -> None:
        lang = _lang(interaction)
        try:
            chosen = await self.bot.service.decks.choose(interaction.user.id, deck, lang)
        except DeckError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await interaction.response.send_message(text("deckui_chosen", lang, name=chosen.name), ephemeral=True)

    @group.command(name="delete", description="Delete one of your decks")
    @app_commands.describe(deck="Which of your decks")
    async def delete(self, interaction: discord.Interaction[GameBot], deck: app_commands.Range[str, 1, MAX_NAME]) -> None:
        lang = _lang(interaction)
        try:
            gone = await self.bot.service.decks.delete(interaction.user.id, deck, lang)
        except DeckError as exc:
            await interaction.response.send_message(str(exc), ephemeral=True)
            return
        await interaction.response.send_message(text("deckui_deleted", lang, name=gone), ephemeral=True)

    @new.autocomplete("start")
    @show.autocomplete("deck")
    @use.autocomplete("deck")
    async def _any_deck(self, interaction: discord.Interaction[GameBot], current: str):
        return await suggest(interaction, current)

    @edit.autocomplete("deck")
    @delete.autocomplete("deck")
    async def _own_deck(self, interaction: discord.Interaction[GameBot], current: str):
        return await suggest(interaction, current, starters=False)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[GameBot]) -> None:
        """The text form's answer (``gh:dkm:<deck>``), also after a restart: read the list, save it, show it."""
        data: Mapping[str, Any] = interaction.data or {}
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        found = re.fullmatch(rf"gh:{Prefix.DECK_MODAL}:([0-9]{{1,18}})", str(data.get("custom_id", "")))
        if found is None:
            return
        lang = _lang(interaction)
        typed = "".join(str(c.get("value") or "") for row in data.get("components") or []
                        for c in row.get("components") or [] if c.get("custom_id") == "text")
        await interaction.response.defer(ephemeral=True, thinking=True)
        book = self.bot.service.decks
        try:
            deck = await book.by_id(interaction.user.id, int(found[1]), lang)
            spec, bad = D.parse_text(typed[:TEXT_LIMIT], deck.name)
            if bad:  # nothing is changed: the player gets the lines back to fix them
                lines = "\n".join(text("deckui_bad_line", lang, line=f["line"], text=f["text"]) for _, f in bad[:10])
                await interaction.followup.send(text("deckui_not_saved", lang, lines=lines)[:2000], ephemeral=True)
                return
            deck = await book.save(interaction.user.id, deck.name, spec, lang)
        except DeckError as exc:
            await interaction.followup.send(str(exc), ephemeral=True)
            return
        await self._show(interaction, deck, lang, text("deckui_saved", lang, name=deck.name))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Decks(bot))
    bot.add_dynamic_items(DeckControl)
