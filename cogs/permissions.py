"""The permissions the bot needs, checked before it acts: a game never half opens.

A game is hosted in its own thread: the bot must see the channel, post in it (the announcement), create public
threads, post in them, embed (lobbies, tables), attach files (boards) and read the history (a board is looked for
among the thread's last messages before it is posted again). Where it may post in the channel but not open or
use threads, the game is played in the channel itself and the opener is told why; where it cannot even post,
nothing is opened and the member is told, in plain words and in their language, which permissions are missing.

Per channel, the interaction says what the bot may do there (``app_permissions``); at start (and when the bot
joins a server) the server-wide permissions of its role are checked. Either way the server's admins are told
once (the owner by DM, else the server's system channel), per place and set of missing permissions, remembered
in the database across restarts; the log gets a WARNING. Other cogs report through the
``gamehost_missing_permissions`` event.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import discord
from discord.ext import commands

from cogs.gamebot import GameBot
from host.locale import t

log = logging.getLogger(__name__)

#: what a game in a thread needs, in the order they are listed to people
IN_THREAD = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history",
             "create_public_threads", "send_messages_in_threads")
#: what a game played in the channel itself needs
IN_CHANNEL = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")
#: the key of server-wide problems (found at start) among the notices a server's admins were given
SERVER = "0"


def missing(perms: discord.Permissions, needed: tuple[str, ...] = IN_THREAD) -> tuple[str, ...]:
    """The permissions of ``needed`` that ``perms`` lacks (an administrator lacks none)."""
    if perms.administrator:
        return ()
    return tuple(name for name in needed if not getattr(perms, name))


def names(permissions: tuple[str, ...], lang: str | None) -> str:
    """The permissions as Discord's settings call them, in ``lang``: "**Attach Files**, **Embed Links**"."""
    return ", ".join(f"**{t('perm_' + name, lang)}**" for name in permissions)


@dataclass
class Place:
    """Where a new game can live, decided before anything is saved."""

    threads: bool = True  # in a thread of the channel (else in the channel itself, or a DM)
    refusal: str | None = None  # nothing can be opened here: what to tell the member
    note: str | None = None  # opened, with something the opener should know (played in the channel)


def _channel(interaction: discord.Interaction):
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent is not None:
        return channel.parent
    return channel


def report(interaction: discord.Interaction, lacking: tuple[str, ...]) -> None:
    """Tell the server's admins (once per channel and set of permissions) what the bot lacks where it was used."""
    channel = _channel(interaction)
    if interaction.guild_id is not None and lacking:
        interaction.client.dispatch("gamehost_missing_permissions", interaction.guild_id,
                                    channel.id if channel else interaction.channel_id, lacking)


def place_for_game(interaction: discord.Interaction) -> Place:
    """Where a game opened by this interaction can live: its own thread, the channel, or nowhere (refused)."""
    if interaction.guild_id is None:
        return Place(threads=False)  # the bot's DM with the member: it may always answer there
    lang = str(interaction.locale)
    perms = interaction.app_permissions
    channel = _channel(interaction)
    threads_here = isinstance(channel, discord.TextChannel)
    lacking = missing(perms, IN_THREAD if threads_here else IN_CHANNEL)
    if not lacking:
        return Place(threads=threads_here)
    report(interaction, lacking)
    if threads_here and not missing(perms, IN_CHANNEL):
        return Place(threads=False, note=t("perm_no_threads", lang, missing=names(lacking, lang)))
    return Place(threads=False, refusal=t("perm_missing", lang, missing=names(lacking, lang)))


def tournament_refusal(interaction: discord.Interaction) -> str | None:
    """Why a tournament cannot be opened where this interaction happened (None: it can). Its matches each get a
    thread of this channel, so threads must be possible here."""
    lang = str(interaction.locale)
    if interaction.guild_id is None:
        return t("server_only", lang)
    if not isinstance(_channel(interaction), discord.TextChannel):
        return t("tournament_text_channel", lang)
    lacking = missing(interaction.app_permissions)
    if lacking:
        report(interaction, lacking)
        return t("perm_missing_tournament", lang, missing=names(lacking, lang))
    return None


def lacking_in(bot: discord.Client, guild_id: int | None, channel_id: int | None,
               needed: tuple[str, ...] = IN_THREAD) -> tuple[str, ...] | None:
    """What the bot lacks in a channel of a server it has in its cache (None: unknown, e.g. not cached)."""
    guild = bot.get_guild(guild_id) if guild_id else None
    channel = guild.get_channel_or_thread(channel_id) if guild and channel_id else None
    if guild is None or guild.me is None or channel is None:
        return None
    return missing(channel.permissions_for(guild.me), needed)


def matches_refusal(interaction: discord.Interaction, guild_id: int | None, channel_id: int | None) -> str | None:
    """Why a tournament's matches cannot be opened in its channel now (None: they can, or it is not known)."""
    lacking = lacking_in(interaction.client, guild_id, channel_id)
    if not lacking:
        return None
    interaction.client.dispatch("gamehost_missing_permissions", guild_id, channel_id, lacking)
    lang = str(interaction.locale)
    return t("perm_missing_matches", lang, channel=f"<#{channel_id}>", missing=names(lacking, lang))


class Permissions(commands.Cog):
    """Checks the server-wide permissions at start and when the bot joins a server; tells admins once."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.check_server(guild)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.check_server(guild)

    async def check_server(self, guild: discord.Guild) -> tuple[str, ...]:
        """The permissions the bot's roles lack on the whole server (channels may still grant them)."""
        me = guild.me
        if me is None:
            return ()
        lacking = missing(me.guild_permissions)
        if lacking:
            log.warning("server %s (%s): the bot's roles lack %s; games open only in channels that grant them",
                        guild.id, guild.name, ", ".join(lacking))
        await self.tell_admins(guild.id, SERVER, lacking)
        return lacking

    @commands.Cog.listener()
    async def on_gamehost_missing_permissions(self, guild_id: int, channel_id: int,
                                              lacking: tuple[str, ...]) -> None:
        if await self.tell_admins(guild_id, str(channel_id), lacking):
            log.warning("server %s, channel %s: the bot lacks %s (its admins were told)", guild_id, channel_id,
                        ", ".join(lacking))

    async def tell_admins(self, guild_id: int, where: str, lacking: tuple[str, ...]) -> bool:
        """Tell the admins of ``guild_id`` what the bot lacks at ``where`` (a channel id, or ``SERVER``) unless
        they were told that already; an empty ``lacking`` forgets an earlier notice (the problem was fixed, so a
        new one is told again). True when a notice was sent."""
        store = self.bot.service.store
        settings = await store.guild_settings(guild_id)
        notices = settings.setdefault("permission_notices", {})
        key = ",".join(sorted(lacking))
        if notices.get(where, "") == key:
            return False
        if not lacking:
            notices.pop(where, None)
            await store.set_guild_settings(guild_id, settings)
            return False
        guild = self.bot.get_guild(guild_id)
        sent = await self._deliver(guild, where, lacking) if guild is not None else False
        if sent:  # told: not again for the same problem (an undelivered notice is tried again next time)
            notices[where] = key
            await store.set_guild_settings(guild_id, settings)
        return sent

    async def _deliver(self, guild: discord.Guild, where: str, lacking: tuple[str, ...]) -> bool:
        lang = str(guild.preferred_locale)
        place = t("perm_where_server", lang) if where == SERVER else t("perm_where_channel", lang, channel=where)
        bot_name = self.bot.user.name if self.bot.user else "Game host"
        text = t("perm_admin_notice", lang, bot=discord.utils.escape_markdown(bot_name),
                 server=discord.utils.escape_markdown(guild.name), where=place, missing=names(lacking, lang))
        none = discord.AllowedMentions.none()
        try:
            if guild.owner_id is not None:  # (Discord always sends it; discord.py types it as optional)
                owner = await self.bot.create_dm(discord.Object(guild.owner_id))
                await owner.send(text, allowed_mentions=none)
                return True
        except discord.HTTPException as exc:
            log.info("could not DM the owner of server %s (%s); trying its system channel", guild.id, exc)
        channel = guild.system_channel
        if channel is None or guild.me is None or missing(channel.permissions_for(guild.me), ("view_channel",
                                                                                               "send_messages")):
            log.warning("server %s: no way to tell its admins that the bot lacks %s", guild.id, ", ".join(lacking))
            return False
        try:
            await channel.send(text, allowed_mentions=none)
            return True
        except discord.HTTPException as exc:
            log.warning("server %s: could not tell its admins about missing permissions (%s)", guild.id, exc)
            return False


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Permissions(bot))
