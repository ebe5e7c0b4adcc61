"""The game service's settings: a person's own (``/game settings``), a server's (``/game server-settings``)
and the level of the AI that stands in for people on a server."""

from __future__ import annotations

import logging

from ai import levels as ai_levels
from host.errors import GameError
from host.service_core import AI_LEVEL, ServiceCore

log = logging.getLogger(__name__)


#: a server's settings and their defaults (``/game server-settings``): ``ai_level`` is the level of the AI that
#: stands in for a player whose time ran out and takes over a seat its player left or was dropped from (in
#: leagues, tournaments and every other game of the server); the AI seats of ``/game new`` keep their own
SERVER_SETTINGS = {"ai_level": AI_LEVEL}


class Settings(ServiceCore):
    """Personal and server settings of :class:`host.service.GameService`."""

    async def settings(self, user_id: int, **changes) -> dict:
        """A person's settings (``dm``, ``auto_pass``, game-specific ones), updated with ``changes``."""
        current = await self.store.user_settings(user_id)
        updates = {k: v for k, v in changes.items() if v is not None}
        if updates:
            current.update(updates)
            await self.store.set_user_settings(user_id, current)
        return current

    async def server_settings(self, guild_id: int, *, ai_level: str | None = None) -> tuple[dict, bool]:
        """A server's settings (defaults filled in, :data:`SERVER_SETTINGS`), updated with the values given, and
        whether anything changed. An unknown level is refused (GameError) and nothing is saved."""
        if ai_level is not None and ai_level not in ai_levels.LEVELS:
            raise GameError.of("unknown_ai_level", level=str(ai_level)[:20])
        saved = await self.store.guild_settings(guild_id)
        current = {**SERVER_SETTINGS, **saved}
        updates = {k: v for k, v in (("ai_level", ai_level),) if v is not None and current.get(k) != v}
        if updates:
            current.update(updates)
            await self.store.set_guild_settings(guild_id, {**saved, **updates})
        return current, bool(updates)

    async def stand_in_level(self, guild_id: int | None) -> str:
        """The level of the AI that stands in for people and takes their seats over on this server (the
        default outside a server, or when the stored setting is not a level)."""
        if guild_id is None:
            return AI_LEVEL
        level = (await self.store.guild_settings(guild_id)).get("ai_level", AI_LEVEL)
        return level if level in ai_levels.LEVELS else AI_LEVEL

    async def mark_dm_closed(self, game_id: int, seat: int) -> None:
        await self.store.set_dm_closed(game_id, seat, True)
