"""The game service's queries over a game's history: ``/game log`` pages and the reminders of games that
wait for a person's move."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from engines import ENGINES
from host.asker import Asker
from host.errors import GameError
from host.locale import t, use_language
from host.outcome import Reminder
from host.presenters import presenter_for
from host.service_core import (
    ServiceCore,
    person,
    seat_row,
)
from host.shards import Shards
from host.undo import narrate
from store import GameRow

log = logging.getLogger(__name__)


REMIND_BATCH = 200  # due games read and reminded of at a time
#: the narration one page of ``/game log`` holds (a message is 2,000 characters, with its title)
LOG_PAGE_CHARS = 1800
#: most moves one page of ``/game log`` reads (moves that say nothing still cost a read), and per query
LOG_PAGE_MOVES, LOG_CHUNK = 400, 100


@dataclass
class LogPage:
    """A page of ``/game log``: the narration of moves ``first`` to ``last`` of the ``total`` made so far."""

    game: GameRow
    lines: list[str]
    first: int
    last: int
    total: int


class History(ServiceCore):
    """History and reminders of :class:`host.service.GameService`."""

    async def log(self, game_id: int, *, upto: int | None = None, start: int | None = None,
                  asker: Asker | None = None, chars: int = LOG_PAGE_CHARS) -> LogPage:
        """A page of what happened, told as the thread told it (narration is public by construction, so anybody
        who may see the game may read it), for players coming back after days: the moves up to move ``upto``
        (default: the latest) going back, or from move ``start`` on, as many as ``chars`` of text hold (at least
        one move, at most ``LOG_PAGE_MOVES``). Any page of a game of any length can be read, and reading one is
        bounded work."""
        game = await self.game(game_id, asker)
        if game.status == "lobby":
            raise GameError.of("not_started", game=game_id)
        total = game.version
        if total == 0:  # nothing to page through, whatever move was asked for
            return LogPage(game, [], 0, 0, 0)
        for value in (upto, start):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= total):
                raise GameError.of("log_move", max=total, game=game_id)
        presenter, names = presenter_for(game.engine), self.names(game)
        forward = start is not None
        at = start if start is not None else (upto or total)
        told: dict[int, list[str]] = {}
        used = 0
        while len(told) < LOG_PAGE_MOVES and 1 <= at <= total:
            low, high = (at, min(total, at + LOG_CHUNK - 1)) if forward else (max(1, at - LOG_CHUNK + 1), at)
            entries = await self.store.actions(game.id, after=low - 1, upto=high)
            full = False
            for entry in entries if forward else reversed(entries):
                lines = [line for event in entry["events"] if (line := narrate(presenter, event, names))]
                size = sum(len(line) + 1 for line in lines)
                if told and (used + size > chars or len(told) >= LOG_PAGE_MOVES):
                    full = True
                    break
                told[entry["seq"]], used = lines, used + size
            if full or not entries:
                break
            at = high + 1 if forward else low - 1
        seqs = sorted(told)
        return LogPage(game, [line for seq in seqs for line in told[seq]], seqs[0], seqs[-1], total)

    async def due_reminders(self, after: timedelta, now: datetime | None = None, *,
                            shards: Shards | None = None) -> list[Reminder]:
        """Reminders for the games that have waited for a person's move longer than ``after`` (see
        :meth:`reminders`), as a list."""
        return [reminder async for reminder in self.reminders(after, now, shards=shards)]

    async def reminders(self, after: timedelta, now: datetime | None = None, *,
                        shards: Shards | None = None) -> AsyncIterator[Reminder]:
        """Reminders for the games that have waited for a person's move longer than ``after``: one per board
        (a game is reminded of again only after someone has moved), in the game's language.

        Memory stays flat however many games are due: they are read ``REMIND_BATCH`` at a time, and a game's
        state is looked at (who is to act) and dropped, never kept in the live cache. ``shards``: only the games
        of these shards' servers (host/shards.py; None: all)."""
        now = now or datetime.now(UTC)
        after_id = 0
        while batch := await self.store.waiting_games(now - after, after_id=after_id, limit=REMIND_BATCH,
                                                      shards=shards):
            after_id = batch[-1][0]
            found, reminded = [], []
            for game_id, version in batch:
                async with self.lock(game_id):
                    try:
                        game = await self.game(game_id)
                        if game.status != "running" or game.version != version:
                            continue  # moved meanwhile
                        users = [person(game, s) for s in await self._to_act_now(game)
                                 if not seat_row(game, s).is_ai]
                    except GameError:  # it cannot be played (logged once): nobody to remind, the others go on
                        users = []
                reminded.append((game_id, version))
                if users:
                    # a Discord timestamp: every reader sees "2 days ago" in their own language and time zone
                    since = int(datetime.fromisoformat(game.updated_at).timestamp())
                    found.append(Reminder(game, users, t(
                        "reminder", mentions=" ".join(f"<@{u}>" for u in users), game=game.id,
                        title=self._title(game), since=f"<t:{since}:R>")))
            # marked before they are posted, as one transaction per batch: a failed post is not retried
            await self.store.set_reminded_many(reminded)
            for reminder in found:
                use_language(reminder.game.lang)
                yield reminder

    async def _to_act_now(self, game: GameRow) -> list[int]:
        """The seats to act in ``game`` at its version, from the live state if it is cached, else from the
        snapshot without caching it (so that looking at many games does not evict the ones being played)."""
        live = self._live.peek(game.id)
        if live is not None and live.version == game.version:
            return ENGINES[game.engine].to_act(live.state)
        version, state = await self._load_state(game)
        return ENGINES[game.engine].to_act(state) if version == game.version else []
