"""Where games live on Discord, without any Discord import: which games still wait for their own thread, and
how soon the queue of them moves (cogs/places.py opens the threads and archives finished games' threads).

Discord limits how fast threads can be made (a bucket per channel, with waits of minutes seen) and how many a
server may have active (1,000). A game of a server channel is therefore made first and given its thread by one
opener, in order: a game whose ``thread_id`` is still empty waits for its place, and a game whose place is
recorded with its first message still owed (``options.opening_owed``, cleared once it is posted) waits for that
message: a board posted first would mention only the player to act and leave the others out of the thread. The
queue is the database itself (:meth:`store.Store.games_waiting_for_place`), so it survives a restart, and nothing is dropped.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from store import GameRow

#: thread creations the pace is measured over
PACE_WINDOW = 10


def waiting_for_place(game: GameRow) -> bool:
    """True for a game of a server channel (lobby or running) whose thread has not been opened yet: nothing is
    posted for it until it has one."""
    return (game.thread_id is None and game.channel_id is not None and game.guild_id is not None
            and game.status in ("lobby", "running"))


def opening_owed(game: GameRow) -> bool:
    """True for a game (lobby or running) that has its place but not yet its first message there: the opener was
    stopped between the two (a restart), and posts it before any board (which would not mention the players)."""
    return (game.thread_id is not None and bool(game.options.get("opening_owed"))
            and game.status in ("lobby", "running"))


@dataclass
class Pace:
    """How long opening a thread has been taking (the last ``PACE_WINDOW`` openings, waits for Discord's rate
    limits included), to tell the players further down the queue when theirs will open."""

    spans: deque = field(default_factory=lambda: deque(maxlen=PACE_WINDOW))

    def record(self, seconds: float) -> None:
        self.spans.append(max(seconds, 0.0))

    def known(self) -> bool:
        """Enough openings were seen to say anything (a fresh bucket lets the first few through at once)."""
        return len(self.spans) >= min(PACE_WINDOW, 5)

    def per_thread(self) -> float:
        return sum(self.spans) / len(self.spans) if self.spans else 0.0

    def eta(self, ahead: int) -> float | None:
        """Seconds until the game with ``ahead`` games before it in the queue gets its thread (None: not known
        yet)."""
        if not self.known():
            return None
        return (ahead + 1) * self.per_thread()


def minutes(seconds: float) -> int:
    """A wait as whole minutes to tell a player (at least 1)."""
    return max(1, round(seconds / 60))
