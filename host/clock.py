"""Turn clocks: time controls, deadlines, warnings and what a timeout does, as pure computation.

A game's clock is chosen at ``/<game> new`` (``TIME_CONTROLS``) and stored in its options as
``{"control": name, "on_timeout": "ai" | "forfeit"}``. Each seat has a :class:`SeatClock` (stored per game and
seat, see store/base.py); the service asks :func:`reconcile` for the new clocks after every action, and
:func:`due` what is owed at a given moment. All times are whole seconds since the epoch (portable SQL: a
restart or a vacation shifts a deadline by plain addition). The time source is injected (``Clock``): tests
drive time forward without sleeping.

Rules:

* A move is a seat's turn, however many steps it takes: the clock runs from the moment the seat is to act
  until it is no longer to act (a seat that acts and is still the one to act goes on with the same move); a
  seat waiting while others act keeps its running clock, and a move that becomes a simultaneous decision
  starts the short limit, which lasts until the seat has answered.
* ``per move``: each move has the same limit. ``bank``: a seat's bank is spent while it is to act; every move
  it ends adds the bonus (Fischer) once, never above the starting bank. A player whose bank ran out and who
  takes the seat back from the AI starts again with one bonus (``comeback_bank``).
* Simultaneous decisions (several seats to act at once: reaction windows, battle losses, priority windows)
  get the control's short ``simultaneous`` limit, never charged to a bank; when it runs out the seat takes
  its default action (:func:`default_action`).
* Warnings: at half time and one hour before the end (the latter only when the limit is longer than two
  hours, so it never comes before the first), once each.
* A paused clock (its player is on vacation) neither runs nor expires; resuming shifts its deadline by the
  pause.
* Out of the game: a seat whose time ran out (the AI stands in) or that forfeited records when
  (``out_since``); the order in which seats went out ranks them at the end (the first out is last), and an
  opponent may claim the win once a seat has been out for ``claim_after``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

HOUR = 3600
DAY = 24 * HOUR


@dataclass(frozen=True)
class TimeControl:
    """``kind``: "none", "move" (``limit`` per move) or "bank" (``limit`` to start with, ``bonus`` per move);
    ``simultaneous``: the limit of a decision several seats make at once."""

    name: str
    kind: str
    limit: int = 0
    bonus: int = 0
    simultaneous: int = 0

    @property
    def timed(self) -> bool:
        return self.kind != "none"


#: the choices of ``/<game> new ... time_control:`` (name -> control)
TIME_CONTROLS: dict[str, TimeControl] = {c.name: c for c in (
    TimeControl("none", "none"),
    TimeControl("1h", "move", HOUR, simultaneous=10 * 60),
    TimeControl("12h", "move", 12 * HOUR, simultaneous=2 * HOUR),
    TimeControl("1d", "move", DAY, simultaneous=4 * HOUR),
    TimeControl("3d", "move", 3 * DAY, simultaneous=12 * HOUR),
    TimeControl("bank", "bank", 3 * DAY, bonus=12 * HOUR, simultaneous=4 * HOUR),
)}
ON_TIMEOUT = ("ai", "forfeit")
#: a game against the AI waits for nobody but its one person; an open table waits a day per move
DEFAULT_CONTROL = {"ai": "none", "open": "1d"}
DEFAULT_ON_TIMEOUT = "ai"
#: a league must finish: a day per move, and a player who lets it run out loses the match
LEAGUE_CLOCK = {"control": "1d", "on_timeout": "forfeit"}
#: vacation days a person may take per calendar month (UTC)
AWAY_DAYS_PER_MONTH = 14
#: a gap between heartbeats longer than this is an outage whose time every clock gets back
OUTAGE_AFTER = 120
#: an outage at least this long is told in the threads of the games whose deadlines it moved (a shorter one moves
#: them by too little to be worth a post in every game)
OUTAGE_TOLD_AFTER = 30 * 60

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def seconds(when: datetime) -> int:
    return int(when.timestamp())


def control_of(options: dict) -> TimeControl:
    """A game's time control from its stored options (games made before clocks have none)."""
    return TIME_CONTROLS.get((options.get("clock") or {}).get("control") or "none", TIME_CONTROLS["none"])


def on_timeout_of(options: dict) -> str:
    return (options.get("clock") or {}).get("on_timeout") or DEFAULT_ON_TIMEOUT


class BadClockOption(ValueError):
    """A value that is not offered: ``option`` ("time_control" or "on_timeout"), the ``value`` given and the
    ``choices`` of that option only."""

    def __init__(self, option: str, value: str, choices: tuple[str, ...]) -> None:
        super().__init__(value)
        self.option, self.value, self.choices = option, value, choices


def clock_options(control: str | None, on_timeout: str | None, opponent: str) -> dict:
    """The ``clock`` entry of a new game's options; :class:`BadClockOption` names a value that is not offered."""
    name = control or DEFAULT_CONTROL.get(opponent, "1d")
    if name not in TIME_CONTROLS:
        raise BadClockOption("time_control", str(name), tuple(TIME_CONTROLS))
    policy = on_timeout or DEFAULT_ON_TIMEOUT
    if policy not in ON_TIMEOUT:
        raise BadClockOption("on_timeout", str(policy), ON_TIMEOUT)
    return {"control": name, "on_timeout": policy}


def claim_after(control: TimeControl) -> int:
    """How long a seat must have been out of time before an opponent may claim the win (or a draw): as long
    as one more move (a bank: its bonus)."""
    return control.bonus if control.kind == "bank" else control.limit


def comeback_bank(control: TimeControl, bank: int | None) -> int | None:
    """The bank of a player who takes their seat back after it ran out: at least one move's bonus (else their
    next move would start at 0 s and the AI would take the seat straight back)."""
    if control.kind != "bank" or bank is None:
        return bank
    return max(bank, control.bonus)


@dataclass(frozen=True)
class SeatClock:
    """One seat's clock. ``started``/``deadline``: the running move (None when the seat is not to act);
    ``bank``: seconds left (bank controls); ``paused_at``: its player went away then; ``stand_in``: the AI
    plays the seat (it timed out); ``forfeited``: it lost on time (or resigned) and is ranked last;
    ``out_since``: when it went out (timed out or forfeited), None while its player plays."""

    seat: int
    started: int | None = None
    deadline: int | None = None
    bank: int | None = None
    paused_at: int | None = None
    warned_half: bool = False
    warned_hour: bool = False
    simultaneous: bool = False
    stand_in: bool = False
    forfeited: bool = False
    out_since: int | None = None

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self, now: int) -> int | None:
        """Seconds left of the running move (a paused clock stands still)."""
        if self.deadline is None:
            return None
        return max(0, self.deadline - (self.paused_at if self.paused_at is not None else now))


def reconcile(control: TimeControl, clocks: dict[int, SeatClock], seats: list[int], acting: list[int],
              people: set[int], now: int, away: set[int] = frozenset(),
              moved: int | None = None) -> dict[int, SeatClock]:
    """The clocks after the seats to act became ``acting``: stopped for the seats whose move is over (a bank is
    charged and gets its bonus), started for the people newly to act (``away``: seats whose player is on
    vacation start paused), kept for the others. ``moved``: the seat whose action this was: its move goes on
    while it is still the one to act (a turn of several steps is one move, with one bonus), but its answer to
    a simultaneous decision ends that decision's clock. ``people``: seats played by a person (the AI needs no
    clock)."""
    out: dict[int, SeatClock] = {}
    simultaneous = len(acting) > 1
    for seat in seats:
        c = clocks.get(seat) or SeatClock(seat, bank=control.limit if control.kind == "bank" else None)
        # a seat still to act keeps its clock while others act (a window stays short while the others answer
        # it) and while its own turn goes on, unless its move turned into a simultaneous decision
        if c.running and ((seat == moved and c.simultaneous) or seat not in acting or seat not in people
                          or (simultaneous and not c.simultaneous)):
            c = _stop(control, c, now)
        if seat in acting and seat in people and not c.running and not c.stand_in:
            c = _start(control, c, now, simultaneous, paused=seat in away)
        out[seat] = c
    return out


def _stop(control: TimeControl, c: SeatClock, now: int) -> SeatClock:
    bank = c.bank
    if control.kind == "bank" and not c.simultaneous and bank is not None:
        used = (c.paused_at if c.paused_at is not None else now) - (c.started if c.started is not None else now)
        left = max(0, bank - used)
        # the bonus fills the bank up to its start, never above; time an opponent gave stays (``moretime``)
        bank = max(left, min(control.limit, left + control.bonus))
    return replace(c, started=None, deadline=None, bank=bank, paused_at=None, warned_half=False,
                   warned_hour=False, simultaneous=False)


def _start(control: TimeControl, c: SeatClock, now: int, simultaneous: bool, paused: bool) -> SeatClock:
    if simultaneous:
        limit = control.simultaneous
    elif control.kind == "bank":
        limit = c.bank if c.bank is not None else control.limit
    else:
        limit = control.limit
    return replace(c, started=now, deadline=now + limit, paused_at=now if paused else None, warned_half=False,
                   warned_hour=False, simultaneous=simultaneous)


def due(c: SeatClock, now: int) -> str | None:
    """What a running clock owes at ``now``: "timeout", "hour" (the one-hour warning), "half" or None."""
    if not c.running or c.paused_at is not None or c.stand_in or c.started is None:
        return None
    if now >= c.deadline:
        return "timeout"
    length = c.deadline - c.started
    if not c.warned_hour and length > 2 * HOUR and now >= c.deadline - HOUR:
        return "hour"
    if not c.warned_half and not c.warned_hour and now >= c.started + length // 2:
        return "half"
    return None


def warned(c: SeatClock, kind: str) -> SeatClock:
    """The clock with warning ``kind`` given (an hour warning implies the half one: never both at once)."""
    return replace(c, warned_half=True, warned_hour=c.warned_hour or kind == "hour")


def resume(c: SeatClock, now: int) -> SeatClock:
    """A paused clock running again, its deadline moved on by the pause."""
    if c.paused_at is None:
        return c
    gap = max(0, now - c.paused_at)
    return replace(c, paused_at=None, started=None if c.started is None else c.started + gap,
                   deadline=None if c.deadline is None else c.deadline + gap)


def default_action(legal: list[dict]) -> dict | None:
    """What a seat does when a simultaneous decision runs out: the first legal "pass", else the first legal
    action (engines list their default choice first, e.g. the cheapest battle loss)."""
    return next((a for a in legal if a.get("type") == "pass"), legal[0] if legal else None)


def forfeit_places(places: list[int], forfeited) -> list[int]:
    """Places with the forfeited seats last, the others keeping their order. ``forfeited``: a list in the order
    the seats went out (the first out is ranked last), or a set (seat order)."""
    seats = range(len(places))
    gone = list(forfeited) if isinstance(forfeited, (list, tuple)) else sorted(forfeited)
    keep = sorted((s for s in seats if s not in gone), key=lambda s: (places[s], s))
    out = [0] * len(places)
    rank, previous = 0, None
    for i, s in enumerate(keep):
        if places[s] != previous:
            rank, previous = i + 1, places[s]
        out[s] = rank
    for i, s in enumerate(reversed([s for s in gone if s in seats])):
        out[s] = len(keep) + 1 + i
    return out


def out_order(clocks: dict[int, SeatClock]) -> list[int]:
    """The seats out of the game (timed out or forfeited), in the order they went out (ties: seat order)."""
    out = [(c.out_since if c.out_since is not None else 0, s) for s, c in clocks.items() if c.stand_in]
    return [s for _, s in sorted(out)]
