"""Run the real bot (``bot.main()``, unmodified) against the loopback fake Discord of the e2e tests.

Only the two addresses are redirected: ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``
(from FAKE_DISCORD_API and FAKE_DISCORD_GATEWAY).
"""

import os
import sys
from pathlib import Path

import discord.gateway
import discord.http
import yarl

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot  # noqa: E402

discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])

if __name__ == "__main__":
    sys.exit(bot.main())
