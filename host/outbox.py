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

One board per turn (issue 25): a publication that only carries further decisions of the people the board that
is up asked (no AI move, no other news, nobody new asked) ``continues`` that board: the Discord layer updates it
in place instead of posting (an edit is repeatable, so a crash before :meth:`posted` shows nothing twice), told
from its first action on (``options.board_since``); ``options.board_turn`` keeps whom it asked.

Failures stay with their game: each entry keeps its own count of failed tries and its own next try, so the
publisher passes over it until then and goes on with the other games. An entry that has failed
``MAX_ATTEMPTS`` times is set aside (a dead letter, kept in the store: never tried again after a restart, never
lost); the game's thread is told once (:meth:`set_aside_note`) and ``/game status`` shows it. Failures that
only mean Discord is down or unreachable (``counts=False``) pause the entry but never set it aside. The next
board of the game that is posted replaces the entries set aside (its thread shows the game as it is now).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from host.locale import t, use_language
from host.outcome import Outcome
from host.presenters import presenter_for
from host.shards import Shards
from store import DeadLetter, GameRow, OutboxEntry

log = logging.getLogger(__name__)

#: pauses before the 1st, 2nd, ... retry of a delivery that failed (seconds); the last one repeats
RETRY_PAUSES = (5, 30, 120, 600, 1800)
#: failed tries after which an entry is set aside (a dead letter): with the pauses above, about 13 minutes
MAX_ATTEMPTS = 5


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
    #: the game's board message before this one (its buttons are cleared once this board is up)
    previous: int | None = None
    #: the seats (a bit each) of the people this board asks to decide
    turn: int = 0
    #: the same people's turn goes on: the board already up (``board_message_id``) is updated in place
    continues: bool = False
    #: the first action a new board tells (None: the board goes on)
    first: int | None = None

    @property
    def nonce(self) -> str:
        """Discord's duplicate guard for this board (at most 25 characters): the newest outbox entry it shows, so
        a second board of the same version (a warning, a resignation) is a new message, a repeat is not."""
        return f"gh{self.outcome.game.id}o{self.upto}"[:25]


@dataclass
class Setback:
    """What a failed delivery did to a game's entries: ``pause`` before the next try, or None when they were set
    aside (``attempts``: the failed tries of the oldest of them, this one included)."""

    attempts: int
    pause: timedelta | None

    @property
    def set_aside(self) -> bool:
        return self.pause is None


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
        async with self.service.lock(game_id):
            entries = await self.store.outbox(game_id)
            if not entries:
                return None
            game = await self._showable(game_id, entries)
            if game is None:
                return None
            entries, retry_ai = await self._resume(game, entries)
            todo = [e for e in entries if not e.posted and not e.marker]
            if not todo and not any(e.posted for e in entries):
                await self._only_markers(game_id, entries, retry_ai)  # still nothing new to show
                return None
            outcome = await self._outcome(game, entries, todo, prepared)
            if game.status == "abandoned":  # its last board: its players are told how it ended
                if outcome.board is not None:
                    outcome.board.mentions = [s.user_id for s in game.seats if s.user_id]
            publication = Publication(outcome, entries[-1].id, board=bool(todo),
                                      attempts=max(e.attempts for e in entries), retry_ai=retry_ai,
                                      since=entries[0].created_at, previous=game.board_message_id)
            await self._place(game, publication, todo)
            return publication

    async def _showable(self, game_id: int, entries: list[OutboxEntry]) -> GameRow | None:
        """The game whose entries are to be shown (in its language from now on), or None when nothing of it is
        shown any more (its entries are dropped); raises the GameError of a game this version cannot show (a
        failed try: cogs/publish.py, the other games go on)."""
        game = await self.store.get_game(game_id, with_snapshot=False, tolerant=True)
        # an abandoned game shows one last board (no buttons) for the narration of how it was called off
        # (/game abandon; a cancelled tournament: host/tournaments.py); anything else is dropped
        final = game is not None and game.status == "abandoned" and any(
            e.lines and not e.posted and e.seq is None for e in entries)
        if game is None or (game.status not in ("running", "finished") and not final):
            await self.store.outbox_done(game_id, entries[-1].id)  # nothing left to show
            return None
        use_language(game.lang)
        if (problem := self.service.unreadable(game)) is not None:
            raise problem
        return game

    async def _resume(self, game: GameRow, entries: list[OutboxEntry]) -> tuple[list[OutboxEntry], bool]:
        """Let the AI turns (and automatic passes) the game owes be played first: (the entries now, whether an AI
        turn is still owed because it failed)."""
        service = self.service
        if game.status != "running" or not service.ai_to_act(game, await service.state_of(game)):
            return entries, False
        resumed = await service.run_automatic(game)  # its commits add entries of their own
        return await self.store.outbox(game.id), not resumed

    async def _only_markers(self, game_id: int, entries: list[OutboxEntry], retry_ai: bool) -> None:
        """Nothing to show, only retry markers: tried again later while the AI turn still fails, else done."""
        upto = entries[-1].id
        if retry_ai:
            attempts = max(e.attempts for e in entries)
            await self.store.outbox_failed(game_id, upto, "AI turn failed", self.clock() + retry_pause(attempts))
        else:
            await self.store.outbox_done(game_id, upto, set_aside=False)

    async def _outcome(self, game: GameRow, entries: list[OutboxEntry], todo: list[OutboxEntry],
                       prepared: Outcome | None) -> Outcome:
        """The board (and DMs) the entries owe: ``prepared`` when it is that board already, else built now."""
        lines = [line for e in todo for line in e.lines]
        # what the entries owe to DMs (clock warnings; the newest for a seat wins), posted entries included:
        # their DMs are still owed. Deleted with the entries by :meth:`done`, so sent once
        warnings = {seat: text for e in entries for seat, text in e.dms.items()}
        if (prepared is not None and prepared.board is not None and prepared.game.version == game.version
                and prepared.lines == lines and not warnings):
            return prepared
        return await self.service.outcome_for(game, lines, await self._events(game.id, todo), renudge=True,
                                              warnings=warnings)

    async def _place(self, game: GameRow, publication: Publication, todo: list[OutboxEntry]) -> None:
        """Where the publication's board goes: a new board (``first``: the action it starts telling from), or
        the board that is up, updated in place (``continues``), told from its first action on."""
        outcome = publication.outcome
        publication.turn = sum(1 << seat for seat in outcome.board.acting) if outcome.board is not None else 0
        publication.continues = bool(todo) and await self._continues(game, outcome, todo, publication.turn)
        if publication.continues:
            await self._tell_turn(game, outcome, todo)
        else:
            publication.first = min((e.seq for e in todo if e.seq is not None), default=game.version + 1)

    async def _tell_turn(self, game: GameRow, outcome: Outcome, todo: list[OutboxEntry]) -> None:
        """An updated board still tells what happened since it was posted (the earlier decisions of the turn,
        and the AI's moves before it), told again from the action log, ahead of the newest lines."""
        since = game.options.get("board_since")
        first = min(e.seq for e in todo if e.seq is not None)
        if not isinstance(since, int) or since >= first or outcome.board is None:
            return
        presenter = presenter_for(game.engine)
        names = [s.name for s in sorted(game.seats, key=lambda s: s.seat)]
        earlier = [line for a in await self.store.actions(game.id, after=since - 1, upto=first - 1)
                   for e in a["events"] if (line := presenter.narrate(e, names))]
        if earlier:
            outcome.board.text = "\n".join([*earlier, outcome.board.text])

    async def _continues(self, game: GameRow, outcome: Outcome, todo: list[OutboxEntry], turn: int) -> bool:
        """Whether these entries go on the turn of the board that is up (updated in place, no new post): only
        moves of the people that board asked to decide (no AI move, no timeout or other news between), and
        nobody new is asked now. A new person's turn, an AI's move, a simultaneous decision opening, news with a
        picture of its own (a race's end), or the end of the game is a new board (whose mention notifies)."""
        before = game.options.get("board_turn")
        if (game.status != "running" or not game.board_message_id or not isinstance(before, int) or not before
                or outcome.board is None or outcome.board.extras  # (news with its own picture: a race's end)
                or not turn or turn & ~before or any(e.seq is None for e in todo)):
            return False
        for action in await self._actions(game.id, todo):
            row = game.seat_row(action["seat"])
            if action["user_id"] is None or row is None or row.is_ai or not before >> action["seat"] & 1:
                return False
        # a board set aside before these (host/outbox.py's dead letters) left the thread behind: a new one
        trouble = await self.store.publication_trouble(game.id)
        return not (trouble and trouble.set_aside)

    async def _actions(self, game_id: int, entries: list[OutboxEntry]) -> list[dict]:
        seqs = {e.seq for e in entries if e.seq is not None}
        if not seqs:
            return []
        return [a for a in await self.store.actions(game_id, after=min(seqs) - 1) if a["seq"] in seqs]

    async def _events(self, game_id: int, entries: list[OutboxEntry]) -> list[dict]:
        return [event for a in await self._actions(game_id, entries) for event in a["events"]]

    async def resume_stalled(self, shards: Shards | None = None) -> int:
        """At start-up: running games whose AI is to act but that owe nothing (e.g. saved before the outbox
        existed) get a retry marker, so their AI turn is played (of the servers of ``shards`` only, when
        given). Returns how many. A game that cannot be read, or whose publication was set aside, is left
        alone (a restart does not start its tries again)."""
        from engines import ENGINES

        count = 0
        set_aside = {d.game_id for d in await self.store.dead_letters(shards=shards)}
        for game in await self.store.list_games(statuses=("running",), limit=1_000_000, shards=shards):
            if game.id in set_aside or await self.store.outbox(game.id):
                continue
            try:
                _, snapshot = await self.store.snapshot(game.id)
                state = ENGINES[game.engine].from_json(snapshot)  # not cached: most games are not touched now
                owed = self.service.ai_to_act(game, state)
            except Exception as exc:  # (a damaged or newer game: its own commands say so) the others go on
                log.warning("game %s cannot be read at start-up, its AI turns are not resumed: %r", game.id, exc)
                continue
            if owed:
                await self.store.add_outbox(game.id, [])
                count += 1
        return count

    async def posted(self, publication: Publication, message_id: int) -> None:
        await self.store.outbox_posted(publication.outcome.game.id, publication.upto, message_id,
                                       turn=publication.turn, since=publication.first)

    async def done(self, publication: Publication) -> None:
        """Everything the publication owed is delivered (its board was recorded by :meth:`posted`, or it owed
        DMs only)."""
        # a board that is up replaces the entries set aside before it; DMs alone do not
        await self.store.outbox_done(publication.outcome.game.id, publication.upto, retry_at=self._retry(publication),
                                     set_aside=publication.board)

    async def delivered(self, publication: Publication, message_id: int) -> None:
        """The board is up (message ``message_id``) and its DMs are sent: :meth:`posted` and :meth:`done` in one
        transaction. Safe without the separate :meth:`posted` before the DMs: a crash while they are sent leaves
        the entries unposted, and the board posted again carries the same nonce, which Discord answers with the
        message already posted (later: it is found among the thread's newest messages; cogs/publish.py), so the
        board is still shown once (a board updated in place is only updated again); the DMs go again, as after a
        crash between :meth:`posted` and :meth:`done`."""
        await self.store.outbox_delivered(publication.outcome.game.id, publication.upto, message_id,
                                          turn=publication.turn, since=publication.first,
                                          retry_at=self._retry(publication), set_aside=True)

    def _retry(self, publication: Publication) -> datetime | None:
        """When a failed AI turn is tried again (a marker stays behind), or None."""
        return self.clock() + retry_pause(publication.attempts) if publication.retry_ai else None

    async def failed(self, game_id: int, error: str, *, upto: int | None = None, counts: bool = True) -> Setback:
        """A delivery of the game's entries (up to ``upto``; all of them when the publication could not even be
        built) failed: each entry is kept for a later try after its own pause, or set aside once it has failed
        ``MAX_ATTEMPTS`` times. ``counts=False`` (Discord down or unreachable): never set aside."""
        entries = [e for e in await self.store.outbox(game_id) if upto is None or e.id <= upto]
        if not entries:
            return Setback(0, timedelta(0))
        now = self.clock()
        plan = [(e.id, now + retry_pause(e.attempts) if not counts or e.attempts + 1 < MAX_ATTEMPTS else None)
                for e in entries]
        await self.store.outbox_setback(game_id, error, plan)
        attempts = max(e.attempts for e in entries) + 1
        pauses = [when for _, when in plan if when is not None]
        if len(pauses) < len(plan):
            return Setback(attempts, None)
        return Setback(attempts, min(pauses) - now)

    async def unnoted(self, shards: Shards | None = None) -> list[DeadLetter]:
        """Games whose entries were set aside and whose thread has not been told yet (see :meth:`set_aside_note`)."""
        return await self.store.dead_letters(unnoted=True, shards=shards)

    async def noted(self, game_id: int, upto: int) -> None:
        await self.store.outbox_noted(game_id, upto)

    async def trouble(self, game_id: int, lang: str | None, *, moderator: bool) -> list[str]:
        """What ``/game status`` says about a game whose boards fail to be posted (in ``lang``): that a board is
        set aside, that the newest is still being tried and when next; to a moderator also the last error."""
        found = await self.store.publication_trouble(game_id)
        if found is None:
            return []
        lines = []
        if found.set_aside:
            lines.append(t("status_set_aside", lang, attempts=found.set_aside, when=_when(found.dead_at)))
        if found.attempts:
            lines.append(t("status_failing", lang, attempts=found.attempts, when=_when(found.next_try)))
        if moderator and found.last_error and lines:
            lines.append(t("status_publish_error", lang, error=found.last_error[:300].replace("`", "'")))
        return lines

    @staticmethod
    def set_aside_note(game_id: int, attempts: int) -> str:
        """What the game's thread is told when its board is set aside (in the current game's language)."""
        return t("publish_set_aside", game=game_id, attempts=attempts)

    @staticmethod
    def nonce_of_note(game_id: int, upto: int) -> str:
        """Discord's duplicate guard for that note (a crash between posting it and recording it)."""
        return f"gh{game_id}d{upto}"[:25]


def _when(stamp: str | None) -> str:
    """A stored time as a Discord timestamp ("in 5 minutes", "2 hours ago" in each reader's language)."""
    if not stamp:
        return "?"
    return f"<t:{int(datetime.fromisoformat(stamp).timestamp())}:R>"
