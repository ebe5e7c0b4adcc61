"""Limits a server can tune (``/limits``), so that one member - careless or hostile - cannot flood a server or
slow the bot down for everyone: open lobbies and tournaments per member and per channel, replays drawn at once
per server, and a cooldown per member on the expensive commands. Stored per server in the store
(``guild_settings``); every refusal says when to try again.

No Discord here: the cogs pass who asks (``Asker``) and turn a :class:`Refused` into a private answer.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from host.cache import Bounded, Locks
from host.errors import GameError


@dataclass(frozen=True)
class Limit:
    """One tunable limit: its default and the values ``/limits`` accepts."""

    name: str
    default: int
    low: int
    high: int


#: the limits, in the order ``/limits`` shows them
LIMITS = {limit.name: limit for limit in (
    Limit("lobbies_per_member", 3, 1, 50),
    Limit("lobbies_per_channel", 15, 1, 500),
    Limit("tournaments_per_member", 2, 1, 20),
    Limit("tournaments_per_channel", 5, 1, 100),
    Limit("replays_per_server", 2, 1, 20),
    Limit("cooldown_seconds", 5, 0, 3600),
)}
#: the commands the cooldown applies to (each has its own: opening a game does not hold up a replay)
EXPENSIVE = ("game_new", "tournament_new", "replay", "steps", "export", "history")
#: cooldowns remembered at most (members of every server together; a forgotten one has expired anyway)
COOLDOWN_MEMORY = 100_000


class Refused(GameError):
    """A request over a server's limit; its text says when to try again."""


class ServerLimits:
    """The limits of each server (read from the store, cached for ``CACHE_SECONDS``), the members' cooldowns (in
    memory: a server's members are served by one process) and one lock per server around "count, then open", so
    that forty commands at once cannot all see room for one more."""

    CACHE_SECONDS = 30.0

    def __init__(self, store, defaults: dict[str, int] | None = None) -> None:
        self.store = store
        #: every server's limits until its admins set their own (``DEFAULT_LIMITS``; else ``LIMITS``' defaults)
        self.defaults = dict(defaults or {})
        self._cached: Bounded = Bounded(10_000)
        self._cooldowns: Bounded = Bounded(COOLDOWN_MEMORY)
        self._locks = Locks()

    # -- the settings ------------------------------------------------------------------------------------

    async def of(self, guild_id: int | None) -> dict[str, int]:
        """Every limit of a server (the defaults for a direct message, or where nothing was set)."""
        values = {name: self.defaults.get(name, limit.default) for name, limit in LIMITS.items()}
        if guild_id is None:
            return values
        cached = self._cached.get(guild_id)
        if cached is not None and time.monotonic() - cached[0] < self.CACHE_SECONDS:
            return dict(cached[1])
        stored = (await self.store.guild_settings(guild_id)).get("limits") or {}
        for name, value in stored.items():
            limit = LIMITS.get(name)
            if limit is not None and isinstance(value, int) and limit.low <= value <= limit.high:
                values[name] = value
        self._cached[guild_id] = (time.monotonic(), dict(values))
        return values

    async def set(self, guild_id: int, name: str, value: int) -> dict[str, int]:
        """Set one limit of a server (its admin's ``/limits``); GameError for an unknown name or a value out of
        bounds. Returns every limit of the server."""
        limit = LIMITS.get(name)
        if limit is None:
            raise GameError.of("limits_unknown", name=str(name)[:40], names=", ".join(LIMITS))
        if isinstance(value, bool) or not isinstance(value, int) or not limit.low <= value <= limit.high:
            raise GameError.of("limits_range", name=name, value=str(value)[:20], low=limit.low, high=limit.high)
        settings = await self.store.guild_settings(guild_id)
        settings["limits"] = {**(settings.get("limits") or {}), name: value}
        await self.store.set_guild_settings(guild_id, settings)
        self._cached.pop(guild_id, None)
        return await self.of(guild_id)

    # -- the checks ----------------------------------------------------------------------------------------

    def lock(self, guild_id: int | None) -> asyncio.Lock:
        """Held around counting a server's open lobbies or tournaments and opening one more."""
        return self._locks(("open", guild_id))

    async def cooldown(self, guild_id: int | None, user_id: int, kind: str) -> None:
        """Refused when ``user_id`` used the expensive command ``kind`` less than the server's
        ``cooldown_seconds`` ago; else the cooldown starts now. Checked and set without waiting in between, so
        that commands arriving together cannot all pass."""
        seconds = (await self.of(guild_id))["cooldown_seconds"]
        key = (guild_id, user_id, kind)
        now = time.monotonic()
        until = self._cooldowns.get(key)
        if until is not None and now < until:
            raise Refused.of("limits_cooldown", retry=_when(until - now))
        if seconds:
            self._cooldowns[key] = now + seconds

    async def check_lobbies(self, guild_id: int | None, channel_id: int | None, user_id: int) -> None:
        """Refused when the member, or the channel, already has as many open lobbies as the server allows
        (hold :meth:`lock` until the new lobby is stored)."""
        if guild_id is None:
            return
        limits = await self.of(guild_id)
        mine = await self.store.open_lobbies(guild_id, host_user_id=user_id, limit=limits["lobbies_per_member"])
        if len(mine) >= limits["lobbies_per_member"]:
            raise Refused.of("limits_lobbies_member", count=len(mine), games=_numbers(mine))
        if channel_id is not None:
            here = await self.store.open_lobbies(guild_id, channel_id=channel_id,
                                                 limit=limits["lobbies_per_channel"])
            if len(here) >= limits["lobbies_per_channel"]:
                raise Refused.of("limits_lobbies_channel", count=len(here))

    async def check_tournaments(self, guild_id: int | None, channel_id: int | None, user_id: int) -> None:
        """Refused when the member, or the channel, already has as many tournaments open or under way as the
        server allows (hold :meth:`lock` until the new tournament is stored)."""
        if guild_id is None:
            return
        limits = await self.of(guild_id)
        mine = await self.store.open_tournaments(guild_id, organizer_id=user_id,
                                                 limit=limits["tournaments_per_member"])
        if len(mine) >= limits["tournaments_per_member"]:
            raise Refused.of("limits_tournaments_member", count=len(mine), tournaments=_numbers(mine))
        if channel_id is not None:
            here = await self.store.open_tournaments(guild_id, channel_id=channel_id,
                                                     limit=limits["tournaments_per_channel"])
            if len(here) >= limits["tournaments_per_channel"]:
                raise Refused.of("limits_tournaments_channel", count=len(here))


def parse_defaults(text: str) -> dict[str, int]:
    """``DEFAULT_LIMITS``: ``"name=value,name=value"`` -> {name: value}; ValueError naming what is wrong."""
    out: dict[str, int] = {}
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        name, _, value = part.partition("=")
        limit = LIMITS.get(name)
        if limit is None:
            raise ValueError(f"{name[:40]!r} is not a limit (the limits: {', '.join(LIMITS)})")
        if not value.isascii() or not value.isdigit() or len(value) > 6 or not limit.low <= int(value) <= limit.high:
            raise ValueError(f"{name} must be a whole number from {limit.low} to {limit.high}, not {value[:20]!r}")
        out[name] = int(value)
    return out


def _when(seconds: float) -> str:
    """A moment ``seconds`` from now as a Discord timestamp ("in 4 seconds", in the reader's language)."""
    return f"<t:{int(time.time() + seconds) + 1}:R>"


def _numbers(ids: list[int]) -> str:
    return ", ".join(f"#{i}" for i in ids)


def retry_at(seconds: float) -> str:
    """:func:`_when` for other modules (the replay queue's estimate)."""
    return _when(seconds)
