"""Who asks about a game, and where: what every per-game method of the host is fenced by."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Asker:
    """Who asks about a game, and where: ``guild_id`` is the server of the command or click (None in a direct
    message); ``moderator``: they may manage that server. Each game belongs to the server it was opened on:
    there, anybody may see it and moderators may end it; elsewhere it does not exist; in a direct message a
    person sees only the games they have a seat in. The cogs pass an Asker to every per-game method; None is
    the host itself (AI matches, reminders, benchmarks)."""

    user_id: int
    guild_id: int | None
    moderator: bool = False
