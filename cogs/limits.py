"""/limits: what this server allows (host/limits.py), shown and changed by members with Manage Server; and
:func:`throttled`, the cooldown check the command cogs make before an expensive command."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.views import asker, refuse
from host.errors import GameError
from host.limits import LIMITS
from host.locale import t


async def throttled(interaction: discord.Interaction, kind: str) -> bool:
    """True, after telling the member when to try again, while the expensive command ``kind`` is in its
    cooldown for them (host/limits.py); else False, and the cooldown starts."""
    try:
        await interaction.client.service.limits.cooldown(interaction.guild_id, interaction.user.id, kind)
    except GameError as exc:
        await refuse(interaction, exc.text(interaction.locale))
        return True
    return False


class Limits(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="limits", description="This server's limits; set one (Manage Server)")
    @app_commands.describe(name="Limit to set", value="New value")
    @app_commands.choices(name=[app_commands.Choice(name=n, value=n) for n in LIMITS])
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def limits(self, interaction: discord.Interaction, name: str | None = None,
                     value: app_commands.Range[int, 0, 3600] | None = None) -> None:
        lang = str(interaction.locale)
        who = asker(interaction)
        if interaction.guild_id is None:
            await refuse(interaction, t("limits_no_server", lang))
            return
        if not who.moderator:  # (the command's default permission can be changed by the server)
            await refuse(interaction, t("limits_admin_only", lang))
            return
        service = self.bot.service.limits
        head = t("limits_title", lang)
        try:
            if name is not None and value is not None:
                values = await service.set(interaction.guild_id, name, value)
                head = t("limits_set", lang, name=name, value=value)
            else:
                values = await service.of(interaction.guild_id)
        except GameError as exc:
            await refuse(interaction, exc.text(interaction.locale))
            return
        lines = [f"**{head}**"] + [f"`{n}` = **{values[n]}** — {t('limit_' + n, lang)}" for n in LIMITS]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Limits(bot))
