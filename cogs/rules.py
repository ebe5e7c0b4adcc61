"""/rules <game>: a paged embed of the game's rules digest, written in the bot's own words
(``data/rules/<key>.md``, one page per ``## `` section), in the reader's Discord language when a translation
``data/rules/<key>.<lang>.md`` exists."""

from __future__ import annotations

import re
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from cogs.gamebot import GameBot
from cogs.views import Prefix
from engines import ENGINES
from host.locale import DEFAULT, language, t

RULES = Path(__file__).resolve().parent.parent / "data" / "rules"
#: the tail of a page button's custom_id: the game's key and a page number (-1 on a disabled ◀ of page 1)
PAGE_ID = re.compile(r"(?P<key>[a-z-]{1,40}):(?P<page>-?[0-9]{1,4})")


def rules_file(key: str, locale: str | None = None) -> Path:
    """The rules page of ``key`` in the language of ``locale`` if translated, else the English one."""
    lang = language(locale)
    translated = RULES / f"{key}.{lang}.md"
    return translated if lang != DEFAULT and translated.exists() else RULES / f"{key}.md"


def pages(key: str, locale: str | None = None) -> list[tuple[str, str]]:
    """(heading, body) pages of a game's rules, each within an embed's limits."""
    path = rules_file(key, locale)
    if not path.exists():
        return [(ENGINES[key].title, "No rules summary yet.")]
    text = path.read_text(encoding="utf-8")
    out = []
    for chunk in re.split(r"^## ", text, flags=re.M)[1:]:
        heading, _, body = chunk.partition("\n")
        body = body.strip()
        while len(body) > 4000:  # an embed description holds 4096 characters
            cut = body.rfind("\n", 0, 4000)
            out.append((heading.strip(), body[:cut]))
            body = body[cut:].strip()
        out.append((heading.strip(), body))
    return out or [(ENGINES[key].title, text[:4000])]


def rules_embed(key: str, page: int, locale: str | None = None) -> tuple[discord.Embed, discord.ui.View]:
    all_pages = pages(key, locale)
    page = max(0, min(page, len(all_pages) - 1))
    heading, body = all_pages[page]
    embed = discord.Embed(title=f"{ENGINES[key].title} — {heading}"[:256], description=body,
                          colour=discord.Colour.dark_gold())
    embed.set_footer(text=t("rules_footer", language(locale), page=page + 1, pages=len(all_pages)))
    view = discord.ui.View(timeout=None)
    if len(all_pages) > 1:
        view.add_item(RulesPage(key, page - 1, "◀", disabled=page == 0))
        view.add_item(RulesPage(key, page + 1, "▶", disabled=page == len(all_pages) - 1))
    return embed, view


class RulesPage(discord.ui.DynamicItem[discord.ui.Button], template=Prefix.RULES.template()):
    """A page turn of a /rules embed (``gh:r:<game>:<page>``); works on old messages too. A custom_id that is
    not exactly that (ASCII digits, a short page number) is refused, not raised on."""

    def __init__(self, key: str, page: int, label: str = "▶", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"gh:{Prefix.RULES}:{key}:{page}", disabled=disabled,
                                           style=discord.ButtonStyle.secondary))
        self.key, self.page = key, page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        found = PAGE_ID.fullmatch(match["args"])
        return cls(found["key"], int(found["page"])) if found else cls("", 0)

    async def callback(self, interaction: discord.Interaction) -> None:
        if not self.key:
            await interaction.response.send_message(t("bad_custom_id", str(interaction.locale)), ephemeral=True)
            return
        if self.key not in ENGINES:
            await interaction.response.send_message(t("unknown_game", str(interaction.locale), key=self.key),
                                                    ephemeral=True)
            return
        embed, view = rules_embed(self.key, self.page, str(interaction.locale))
        await interaction.response.edit_message(embed=embed, view=view)


class Rules(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="rules", description="Read the rules of a game")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=[app_commands.Choice(name=e.title, value=k) for k, e in ENGINES.items()])
    async def rules(self, interaction: discord.Interaction[GameBot], game: str) -> None:
        if game not in ENGINES:  # (a stale client, or a hand-made request: the choices offer only games)
            await interaction.response.send_message(t("unknown_game", str(interaction.locale), key=game[:40]),
                                                    ephemeral=True)
            return
        embed, view = rules_embed(game, 0, str(interaction.locale))
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(RulesPage)
    await bot.add_cog(Rules(bot))
