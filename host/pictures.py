"""The pictures drawn, kept so that none is drawn twice for the same version of its game.

The same board is asked for again by ``/game status``, a DM that shows the public board, ``/game hand`` of a
game without private pictures, the outbox when it rebuilds a board to add a clock warning, and a retried post. The
service keys each picture by everything it is drawn from (``GameService._picture_key``: the game, its version, the
seat, the language, the names, the clock strip's words) and keeps the newest ones here, bounded by count and bytes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

#: pictures kept by :class:`Pictures`: enough for every board and DM of the games being played at once in a
#: busy server (a board is 30-100 KB), and a bound on the memory they take
PICTURES_KEPT = 256
PICTURES_BYTES = 16 * 1024 * 1024


class Pictures:
    """The newest pictures drawn, least recently used dropped first; at most ``entries`` of them and ``size``
    bytes in all (a picture larger than that is not kept)."""

    def __init__(self, entries: int = PICTURES_KEPT, size: int = PICTURES_BYTES) -> None:
        self.entries, self.size = entries, size
        self._kept: OrderedDict[Hashable, bytes | tuple[bytes, ...]] = OrderedDict()
        self._bytes = 0
        self.hits = self.misses = 0

    @staticmethod
    def _size(value: bytes | tuple[bytes, ...]) -> int:
        return len(value) if isinstance(value, bytes) else sum(len(v) for v in value)

    def get(self, key: Hashable) -> bytes | tuple[bytes, ...] | None:
        value = self._kept.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        self._kept.move_to_end(key)
        return value

    def put(self, key: Hashable, value: bytes | tuple[bytes, ...]) -> None:
        size = self._size(value)
        if size > self.size:
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self._bytes -= self._size(old)
        self._kept[key] = value
        self._bytes += size
        while len(self._kept) > self.entries or self._bytes > self.size:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= self._size(dropped)

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        return self._bytes

