"""Bounded per-game memory: the live-state cache and the per-game locks and marks that must not grow with every
game the bot has ever touched (a bot that runs for months touches tens of thousands).

Nothing here is needed for correctness: a game evicted from the cache is reloaded from its stored snapshot, a
forgotten lock is one nobody holds or waits for, a forgotten mark costs at most one repeated DM.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

#: live game states kept by default (``LIVE_GAMES``); a state is 30-90 KiB, so this is at most ~45 MB
DEFAULT_LIVE_GAMES = 500

_MISSING = object()


class Bounded(OrderedDict):
    """A dict that forgets its least recently used entries beyond ``limit`` (reads and writes count as use)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        if limit < 1:
            raise ValueError("a bounded dict needs room for at least one entry")
        self.limit = limit

    def get(self, key: Hashable, default: Any = None) -> Any:
        if key in self:
            self.move_to_end(key)
            return super().__getitem__(key)
        return default

    def __setitem__(self, key: Hashable, value: Any) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class Locks(weakref.WeakValueDictionary):
    """One ``asyncio.Lock`` per key, kept only while somebody references it: whoever holds a lock or waits for
    it keeps it alive (``async with`` and ``acquire`` hold a reference), so an entry disappears exactly when
    nobody holds or waits for it, and two users of a key can never end up with two different locks.

    ``locks(key)`` (or the dict-style ``setdefault(key, asyncio.Lock())``) returns the key's lock."""

    def __call__(self, key: Hashable) -> asyncio.Lock:
        lock = self.get(key)
        if lock is None:
            lock = self[key] = asyncio.Lock()
        return lock

    def held(self, key: Hashable) -> bool:
        """Whether somebody holds the key's lock now."""
        lock = self.get(key)
        return lock is not None and lock.locked()


class LiveCache:
    """Game id -> live state entry, at most ``limit`` of them.

    Beyond the limit, games that are over (see :meth:`retire`) go first, then the least recently used ones —
    those idle longest. Entries for which ``pinned(key)`` is true (a game being played right now) are kept as
    long as another can go; the limit itself is never exceeded."""

    def __init__(self, limit: int = DEFAULT_LIVE_GAMES, pinned: Callable[[Hashable], bool] | None = None) -> None:
        if limit < 1:
            raise ValueError("LIVE_GAMES must be at least 1")
        self.limit = limit
        self._pinned = pinned or (lambda key: False)
        self._playing: OrderedDict = OrderedDict()  # least recently used first
        self._over: OrderedDict = OrderedDict()
        #: how many entries were evicted (for the benchmark and the log)
        self.evictions = 0

    def __len__(self) -> int:
        return len(self._playing) + len(self._over)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._playing or key in self._over

    def __getitem__(self, key: Hashable) -> Any:
        value = self.get(key, _MISSING)
        if value is _MISSING:
            raise KeyError(key)
        return value

    def get(self, key: Hashable, default: Any = None) -> Any:
        """The entry (marked as just used), or ``default``."""
        for part in (self._playing, self._over):
            if key in part:
                part.move_to_end(key)
                return part[key]
        return default

    def peek(self, key: Hashable, default: Any = None) -> Any:
        """The entry without marking it as used (a reminder looking at a game does not make it busy)."""
        return self._playing.get(key, self._over.get(key, default))

    def __setitem__(self, key: Hashable, value: Any) -> None:
        # a new state of a game that was over (it cannot be, but a caller may retire too early) plays again
        self._over.pop(key, None)
        self._playing[key] = value
        self._playing.move_to_end(key)
        self._shrink(key)

    def pop(self, key: Hashable, default: Any = None) -> Any:
        value = self._playing.pop(key, _MISSING)
        if value is _MISSING:
            value = self._over.pop(key, default)
        return value

    def __delitem__(self, key: Hashable) -> None:
        if self.pop(key, _MISSING) is _MISSING:
            raise KeyError(key)

    def retire(self, key: Hashable) -> None:
        """Mark a game as over (finished or abandoned): it is the first to go when room is needed."""
        if key in self._playing:
            self._over[key] = self._playing.pop(key)

    def keys(self) -> list:
        return [*self._over, *self._playing]

    def _shrink(self, added: Hashable) -> None:
        """Evict down to the limit; ``added``, just stored for someone about to use it, goes last."""
        while len(self) > self.limit:
            if self._over:
                self._over.popitem(last=False)
            else:
                victim = next((k for k in self._playing if k != added and not self._pinned(k)), None)
                if victim is None:  # every other entry is in play: the oldest goes anyway, it reloads when needed
                    victim = next(iter(self._playing))
                del self._playing[victim]
            self.evictions += 1
