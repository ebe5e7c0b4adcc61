"""Link buttons to the web companion (web/): "Watch" and "Replay" on boards, "Bracket" on tournament posts, the
player's page on /profile. A link button opens ``PUBLIC_URL``'s page in the browser; it has no custom_id and
Discord never calls the bot back for it. No button when there is no ``PUBLIC_URL``, in a direct message, or when
the server turned its pages off (``/settings web off``); a link that cannot be made (the database failing) only
costs the button, never the post it goes on."""

from __future__ import annotations

import logging

import discord

from cogs.gamebot import GameBot
from host.locale import game_text

log = logging.getLogger(__name__)

LINKS = {"watch": ("game", "button_watch"), "replay": ("replay", "button_replay"),
         "bracket": ("tournament", "button_bracket"), "profile": ("player", "button_profile")}


async def link_button(bot: GameBot, kind: str, guild_id: int | None, number: int, lang: str | None) -> discord.ui.Button | None:
    """The ``kind`` (watch, replay, bracket, profile) link button of a game, tournament or person, labelled in
    ``lang``; None when there is nothing to link to."""
    links = getattr(bot, "weblinks", None)
    if links is None or links.base is None or guild_id is None:
        return None
    method, label = LINKS[kind]
    try:
        guild = bot.get_guild(guild_id)
        if guild is not None:
            await links.site(guild_id, name=guild.name)  # (the pages show the server's name)
        url = await getattr(links, method)(guild_id, number)
    except Exception:
        log.exception("the web link of %s %s could not be made; the post goes out without it", kind, number)
        return None
    if url is None:
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, label=game_text("web", label, lang), url=url)


async def board_link(bot: GameBot, game) -> discord.ui.Button | None:
    """"Watch" on a running game's board, "Replay" on a finished game's last one."""
    kind = {"running": "watch", "finished": "replay"}.get(game.status)
    return await link_button(bot, kind, game.guild_id, game.id, game.lang) if kind else None


def with_link(view: discord.ui.View | None, button: discord.ui.Button | None) -> discord.ui.View | None:
    """``view`` with ``button`` added on a row of its own after its last one (a new view when there is none);
    unchanged when it has no room left (Discord's 5 rows)."""
    if button is None:
        return view
    view = view or discord.ui.View(timeout=None)
    rows = [getattr(item, "row", None) for item in view.children]
    used = max((r for r in rows if r is not None), default=-1 if not view.children else 0)
    if used >= 4:
        return view
    button.row = used + 1
    view.add_item(button)
    return view
