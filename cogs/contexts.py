"""Where the slash commands are offered (Discord's ``contexts`` and ``integration_types``): the bot is installed
on servers only (not on users' accounts), so its commands run in servers and, where that works, in the bot's own
DMs, never in other people's DMs or group DMs. Each top-level command says which: ``EVERYWHERE`` (games against
the AI, rules, your own games and settings work in a DM) or ``SERVERS`` (tournaments and ratings belong to a
server)."""

from __future__ import annotations

from discord import app_commands

EVERYWHERE = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
GUILD_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
