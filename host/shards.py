"""Which process owns which games when the bot runs as several shard processes on one database.

Discord puts a server on shard ``(guild_id >> 22) % shard_count``; a game belongs to its server, so to that
shard, and a game without a server (a DM game) to shard 0. Every background job (the outbox publisher, reminders,
clocks, resumed AI turns, tournament recovery) handles only the games of the shards its process runs: by this
rule, never by which servers happen to be in the process's cache (a server that is briefly unavailable is still
served by its own process, and never by another).

``None`` in place of a :class:`Shards` means one process for everything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: a shard id as SHARD_IDS writes it: ASCII digits, few of them (SHARD_COUNT is checked first, so a range is
#: never longer than the shards there are)
_ID = re.compile(r"[0-9]{1,9}")

def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of a server (Discord's formula); a game without a server belongs to shard 0."""
    if guild_id is None:
        return 0
    return (int(guild_id) >> 22) % shard_count


def owns(guild_id: int | None, shard_ids, shard_count: int | None) -> bool:
    """Whether a process running ``shard_ids`` of ``shard_count`` shards owns the games of ``guild_id``
    (``shard_count`` None: not sharded, it owns everything; ``shard_ids`` None: all shards)."""
    if not shard_count:
        return True
    return shard_ids is None or shard_of(guild_id, shard_count) in shard_ids


def parse_ids(text: str, count: int) -> tuple[int, ...]:
    """``SHARD_IDS`` as a sorted tuple: ranges and single ids separated by commas (``0-3``, ``0,2``, ``0-1,5``),
    each below ``count``; raises ValueError with a reason."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part:
            raise ValueError("an empty entry")
        low, dash, high = part.partition("-")
        if not _ID.fullmatch(low) or (dash and not _ID.fullmatch(high)):
            raise ValueError(f"{part[:20]!r} is neither a shard id nor a range like 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ValueError(f"the range {part!r} runs backwards")
        if last >= count:
            raise ValueError(f"shard {last} does not exist: SHARD_COUNT={count} has shards 0-{count - 1}")
        ids.update(range(first, last + 1))
    return tuple(sorted(ids))


@dataclass(frozen=True)
class Shards:
    """The shards one process runs: ``ids`` of ``count``."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shards {self.ids} of {self.count}")

    @classmethod
    def of(cls, shard_ids, shard_count: int | None) -> Shards | None:
        """From the settings (None when not sharded: one process owns everything)."""
        if not shard_count:
            return None
        return cls(tuple(sorted(shard_ids)) if shard_ids is not None else tuple(range(shard_count)), shard_count)

    def owns(self, guild_id: int | None) -> bool:
        return owns(guild_id, self.ids, self.count)

    def sql(self, column: str) -> str:
        """A condition on a guild id column selecting this process's games, the same in SQLite and PostgreSQL
        (both have ``>>`` and ``%`` on 64-bit integers). The numbers are ints checked above, written into the SQL
        text so that neither database has to guess a parameter's type."""
        if len(self.ids) == self.count:
            return "1 = 1"
        ids = ", ".join(str(int(i)) for i in self.ids)
        return f"(CASE WHEN {column} IS NULL THEN 0 ELSE ({column} >> 22) % {int(self.count)} END) IN ({ids})"

    def label(self) -> str:
        """For logs and the heartbeat names: ``0-1,3/4``."""
        return f"{','.join(map(str, self.ids))}/{self.count}"
