"""The typed rows the store hands out: games and their seats, tournaments, tournament matches, outbox entries and
what the outbox says about failed deliveries. Plain dataclasses with no SQL, shared by both dialects
(store/sqlite.py, store/postgres.py) and read by attribute (``entry.lines``, ``match.players``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    dm_closed: bool = False

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class GameRow:
    id: int
    engine: str
    options: dict
    seed: int
    status: str
    num_players: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    board_message_id: int | None
    host_user_id: int
    version: int
    rules_version: int | None
    snapshot: dict | None
    result: dict | None
    created_at: str
    updated_at: str
    seats: list[SeatRow] = field(default_factory=list)
    tournament_id: int | None = None
    #: a row read with ``tolerant=True`` whose options or result cannot be read: "json" or "bytes" (what cannot
    #: be read is left at its default: options {}, result None); None for a sound row
    damage: str | None = None

    @property
    def lang(self) -> str:
        """The language the game is played in (narration, prompts, buttons): "en", "hu" or "pl"."""
        return self.options.get("lang") or "en"

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def seat_row(self, seat: int) -> SeatRow | None:
        for s in self.seats:
            if s.seat == seat:
                return s
        return None


@dataclass
class Tournament:
    id: int
    engine: str
    lang: str
    status: str
    guild_id: int | None
    channel_id: int | None
    organizer_id: int
    entries: list[tuple[int, str]]  # (user id, name) in the order they joined


@dataclass
class MatchRow:
    """One match of a tournament round (``tournament_matches``): ``players`` in seat order, ``places`` once
    settled (None before), ``how`` it was settled (played, bye, clock, corrected, …), ``deadline`` (ISO time)."""

    id: int
    tournament_id: int
    round: int
    slot: int
    players: list[int]
    game_id: int | None
    places: list[int] | None
    how: str | None
    deadline: str | None


@dataclass
class OutboxEntry:
    """One pending outbox entry (host/outbox.py): what a committed change still owes the players."""

    id: int
    #: the game's version the entry shows (0: the opening board)
    version: int | None
    #: the action it narrates (None: narration without an action, or a retry marker)
    seq: int | None
    lines: list[str]
    #: its board is up (only its DMs are still owed)
    posted: bool
    attempts: int
    created_at: str
    #: seat -> text owed to that seat's next DM (a clock warning)
    dms: dict[int, str] = field(default_factory=dict)

    @property
    def marker(self) -> bool:
        """A retry marker (an AI turn is owed), not a change to show."""
        return self.seq is None and not self.lines and not self.dms and self.version != 0


@dataclass
class DeadLetter:
    """A game's publication set aside (its outbox entries that failed ``MAX_ATTEMPTS`` times)."""

    game_id: int
    #: how many entries are set aside, the newest of them, and the most failed tries of one
    entries: int
    upto: int
    attempts: int
    last_error: str | None
    dead_at: str | None
    #: the game's thread has been told
    noted: bool


@dataclass
class PublicationTrouble:
    """What went wrong with publishing a game (``/game status``): failed tries of the pending entries and when the
    next is due; the failed tries of the entries set aside (0: none) and when the newest was set aside."""

    attempts: int
    next_try: str | None
    last_error: str | None
    set_aside: int
    dead_at: str | None
