"""The outbox: every saved change is shown, exactly once, also after a crash or a failed post.

The transaction that saves a move also writes an outbox entry with the move's narration (``store.commit_action``;
starting a game and an AI taking over a seat do the same). Whatever publishes a board (the click that made the
move, or the background publisher after a restart or a failure) goes through :meth:`Outbox.prepare`, which

1. lets the seats nobody has to click for move first (AI turns, auto-passes): a turn the bot owes is resumed
   here, so a game never waits for its AI after a crash between a person's move and the AI's reply;
2. turns all of the game's pending entries into one board (their narration in order, the board and DMs of the
   game as it is now, with the DM text the entries owe, e.g. a clock warning), reusing the board the click
   already rendered when it is the same one.

The Discord layer posts it and reports back: :meth:`posted` (the board is up; the DMs are still owed) and
:meth:`done` (entries deleted), or :meth:`failed` (kept, tried again later with a growing pause). Posting carries
a nonce made of the game and the newest entry it shows, which Discord uses to refuse a second copy of the same
board (see cogs/publish.py), so a crash between posting and :meth:`posted` does not post it twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from host.locale import use_language
from host.outcome import Outcome
from host.shards import Shards

log = logging.getLogger(__name__)

#: pauses before the 1st, 2nd, ... retry of a delivery that failed (seconds); the last one repeats
RETRY_PAUSES = (5, 30, 120, 600, 1800)


def retry_pause(attempts: int) -> timedelta:
    return timedelta(seconds=RETRY_PAUSES[min(attempts, len(RETRY_PAUSES) - 1)])


@dataclass
class Publication:
    """What a game owes its players now."""

    outcome: Outcome
    #: the newest outbox entry this covers (entries added meanwhile stay pending for the next board)
    upto: int
    #: False when the board is up already and only the DMs are owed
    board: bool
    #: failed deliveries of these entries so far
    attempts: int
    #: an AI turn is still owed (it failed): a retry marker stays behind when this is done
    retry_ai: bool
    #: when the oldest entry was written (ISO time)
    since: str

    @property
    def nonce(self) -> str:
        """Discord's duplicate guard for this board (at most 25 characters): the newest outbox entry it shows, so
        a second board of the same version (a warning, a resignation) is a new message, a repeat is not."""
        return f"gh{self.outcome.game.id}o{self.upto}"[:25]


def _marker(entry: dict) -> bool:
    """A retry marker (an AI turn is owed), not a change to show."""
    return entry["seq"] is None and not entry["lines"] and not entry.get("dms") and entry["version"] != 0


class Outbox:
    """Turns pending outbox entries into publications, and records how their delivery went."""

    def __init__(self, service, clock=lambda: datetime.now(UTC)) -> None:
        self.service = service
        self.store = service.store
        self.clock = clock

    async def due(self, shards: Shards | None = None, older_than: timedelta = timedelta(0)) -> list[int]:
        """Games whose pending entries are due now and at least ``older_than`` old (of the servers of ``shards``
        only, when given: host/shards.py)."""
        now = self.clock()
        return await self.store.pending_publications(now, created_before=now - older_than, shards=shards)

    async def prepare(self, game_id: int, prepared: Outcome | None = None) -> Publication | None:
        """The game's pending entries as one publication (None: nothing owed). ``prepared``: the Outcome the
        caller already built for the same board (used when it still is the same)."""
        service = self.service
        async with service.lock(game_id):
            entries = await self.store.outbox(game_id)
            if not entries:
                return None
            game = await self.store.get_game(game_id, with_snapshot=False)
            # an abandoned game shows one last board (no buttons) for the narration of how it was called off
            # (/game abandon; a cancelled tournament: host/tournaments.py); anything else is dropped
            final = game is not None and game.status == "abandoned" and any(
                e["lines"] and not e["posted"] and e["seq"] is None for e in entries)
            if game is None or (game.status not in ("running", "finished") and not final):
                await self.store.outbox_done(game_id, entries[-1]["id"])  # nothing left to show
                return None
            use_language(game.lang)
            resumed = True
            if game.status == "running" and service.ai_to_act(game, await service.state_of(game)):
                resumed = await service.run_automatic(game)  # its commits add entries of their own
                entries = await self.store.outbox(game_id)
            retry_ai = not resumed
            upto = entries[-1]["id"]
            attempts = max(e["attempts"] for e in entries)
            todo = [e for e in entries if not e["posted"] and not _marker(e)]
            if not todo and not any(e["posted"] for e in entries):
                # only retry markers, and still nothing new to show
                if retry_ai:
                    await self.store.outbox_failed(game_id, upto, "AI turn failed",
                                                   self.clock() + retry_pause(attempts))
                else:
                    await self.store.outbox_done(game_id, upto)
                return None
            lines = [line for e in todo for line in e["lines"]]
            # what the entries owe to DMs (clock warnings; the newest for a seat wins), posted entries included:
            # their DMs are still owed. Deleted with the entries by :meth:`done`, so sent once
            warnings = {seat: text for e in entries for seat, text in e.get("dms", {}).items()}
            if (prepared is not None and prepared.board is not None and prepared.game.version == game.version
                    and prepared.lines == lines and not warnings):
                outcome = prepared
            else:
                outcome = await service.outcome_for(game, lines, await self._events(game_id, todo), renudge=True,
                                                    warnings=warnings)
            if final:  # its players are told how it ended
                outcome.board.mentions = [s.user_id for s in game.seats if s.user_id]
            return Publication(outcome, upto, board=bool(todo), attempts=attempts, retry_ai=retry_ai,
                               since=entries[0]["created_at"])

    async def _events(self, game_id: int, entries: list[dict]) -> list[dict]:
        seqs = {e["seq"] for e in entries if e["seq"] is not None}
        if not seqs:
            return []
        return [event for a in await self.store.actions(game_id, after=min(seqs) - 1) if a["seq"] in seqs
                for event in a["events"]]

    async def resume_stalled(self, shards: Shards | None = None) -> int:
        """At start-up: running games whose AI is to act but that owe nothing (e.g. saved before the outbox
        existed) get a retry marker, so their AI turn is played (of the servers of ``shards`` only, when
        given). Returns how many."""
        from engines import ENGINES

        count = 0
        for game in await self.store.list_games(statuses=("running",), limit=1_000_000, shards=shards):
            if await self.store.outbox(game.id):
                continue
            _, snapshot = await self.store.snapshot(game.id)
            state = ENGINES[game.engine].from_json(snapshot)  # not cached: most games are not touched now
            if self.service.ai_to_act(game, state):
                await self.store.add_outbox(game.id, [])
                count += 1
        return count

    async def posted(self, publication: Publication, message_id: int) -> None:
        await self.store.outbox_posted(publication.outcome.game.id, publication.upto, message_id)

    async def done(self, publication: Publication) -> None:
        retry = self.clock() + retry_pause(publication.attempts) if publication.retry_ai else None
        await self.store.outbox_done(publication.outcome.game.id, publication.upto, retry_at=retry)

    async def failed(self, publication: Publication, error: str) -> timedelta:
        """Keep the entries for a later try; returns the pause before it."""
        pause = retry_pause(publication.attempts)
        await self.store.outbox_failed(publication.outcome.game.id, publication.upto, error, self.clock() + pause)
        return pause
