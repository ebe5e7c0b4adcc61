"""How a game ended: one typed notion (:class:`Ending`) carried by the stored result and read by every presenter,
picture, replay, history, rating and tournament table.

A game ends in one of these ways (:class:`How`): the rules ended it (``natural``), a player resigned, ran out of
time (``timeout``), was dropped from a tournament, the organizer decided the match (``adjudicated``), the round's
deadline settled it (``deadline``), or it was called off without a result (``abandoned``). Players may also
leave a running game of three or more before its end (a :class:`Departure`: resigned, out of time or dropped):
the AI finishes their seat and the order in which they left decides their places - the first to leave is last,
the last to leave comes just after everybody who stayed. When a table ends for want of players (a game of two
when one leaves; one person left at a table of people; nobody but AI seats) is the turn clocks' decision
(host/turn_clocks.py); the ending then is how the last player left.

The JSON form (the ``games.result`` column)::

    {"places": [1, 2], "ending": {"how": "resigned", "step": 12, "left": [{"seat": 1, "how": "resigned",
     "step": 12}]}, "details": {...the engine's own result, when the rules ended the game...}}

Results saved before endings were typed are read too (:meth:`Ending.from_json`): an engine's result (a natural
end), a forfeit ``{"places", "scores", "forfeited"}`` (resigned or out of time: not told which, so ``forfeit``),
or an engine's result with forfeited seats moved last. No Discord, no store: pure data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class How(StrEnum):
    """How a game (or one player's part in it) ended."""

    NATURAL = "natural"
    RESIGNED = "resigned"
    TIMEOUT = "timeout"
    DROPPED = "dropped"
    ADJUDICATED = "adjudicated"
    DEADLINE = "deadline"
    ABANDONED = "abandoned"
    #: results saved before endings were typed: a seat resigned or ran out of time, the record does not say which
    FORFEIT = "forfeit"


#: the ways one player leaves a game that goes on without them (or ends because of them)
LEAVING = (How.RESIGNED, How.TIMEOUT, How.DROPPED, How.FORFEIT)
#: endings decided by the players at the table (the rules, a resignation, their own clocks; a game that ended
#: because a player was dropped, for those who stayed) count in ratings; a decision of the organizer, a round's
#: deadline or a game without a result does not
RATED = (How.NATURAL, How.RESIGNED, How.TIMEOUT, How.FORFEIT, How.DROPPED)


@dataclass(frozen=True)
class Departure:
    """A player who left before the end: ``seat``, ``how`` (one of :data:`LEAVING`) and ``step``, the number of
    moves made when they left (a replay tells it after that move; None when not known: a player whose time ran
    out with the AI standing in, who never came back, or a forfeit saved before endings were typed)."""

    seat: int
    how: How
    step: int | None = None

    def to_json(self) -> dict:
        return {"seat": self.seat, "how": self.how.value, "step": self.step}

    @classmethod
    def from_json(cls, data: dict) -> Departure:
        step = data.get("step")
        return cls(int(data["seat"]), How(data.get("how") or How.FORFEIT), int(step) if step is not None else None)


@dataclass(frozen=True)
class Ending:
    """How a game ended and who came where.

    ``places``: per seat, 1 = best, shared places are ties, all first is a draw; None when the game has no
    result (abandoned). ``left``: the players who left before the end, in the order they left. ``details``: the
    engine's own result when the rules ended the game (its scores, reasons), else None. ``step``: the number of
    moves made when it ended."""

    how: How
    places: tuple[int, ...] | None
    left: tuple[Departure, ...] = ()
    details: dict | None = None
    step: int = 0
    #: extra words some endings keep (``by``: who abandoned a game; ``tournament``/``match``: where it counted)
    note: dict = field(default_factory=dict)

    # -- reading ----------------------------------------------------------------------------------------

    @property
    def has_result(self) -> bool:
        return self.places is not None

    @property
    def draw(self) -> bool:
        """Everybody shares the first place."""
        return self.places is not None and len(self.places) > 0 and len(set(self.places)) == 1

    @property
    def winners(self) -> list[int]:
        """The seats on the first place (empty for a draw or no result)."""
        if not self.places or self.draw:
            return []
        best = min(self.places)
        return [s for s, p in enumerate(self.places) if p == best]

    @property
    def plain(self) -> bool:
        """The rules ended the game with everybody still at the table: the game's own words tell it best."""
        return self.how is How.NATURAL and not self.left and self.details is not None

    def departure(self, seat: int) -> Departure | None:
        return next((d for d in self.left if d.seat == seat), None)

    def place(self, seat: int) -> int | None:
        return self.places[seat] if self.places and 0 <= seat < len(self.places) else None

    def rated_seats(self) -> list[int]:
        """The seats whose places count in ratings: none when the ending is not decided at the table
        (:data:`RATED`), and never a seat dropped from its tournament."""
        if self.places is None or self.how not in RATED:
            return []
        dropped = {d.seat for d in self.left if d.how is How.DROPPED}
        return [s for s in range(len(self.places)) if s not in dropped]

    # -- JSON -------------------------------------------------------------------------------------------

    def to_json(self) -> dict:
        out: dict[str, Any] = {"places": list(self.places) if self.places is not None else None,
                               "ending": {"how": self.how.value, "step": self.step,
                                          "left": [d.to_json() for d in self.left]}}
        if self.note:
            out["ending"]["note"] = dict(self.note)
        if self.details is not None:
            out["details"] = self.details
        return out

    @classmethod
    def from_json(cls, data: dict | None, *, abandoned: bool = False) -> Ending:
        """An ending from its JSON form, or from a result saved before endings were typed (see the module's
        docstring). ``abandoned``: the game's status says it was called off (older rows have no result then)."""
        if not data:
            return cls(How.ABANDONED if abandoned else How.NATURAL, None)
        if isinstance(data.get("ending"), dict):
            e = data["ending"]
            places = data.get("places")
            return cls(How(e.get("how") or How.NATURAL), tuple(places) if places is not None else None,
                       tuple(Departure.from_json(d) for d in e.get("left") or []), data.get("details"),
                       int(e.get("step") or 0), dict(e.get("note") or {}))
        places = tuple(data["places"]) if data.get("places") is not None else None
        gone = [int(s) for s in data.get("forfeited") or []]
        # the order they left is not recorded: the worst placed (placed last) counts as the first to go
        worst_first = sorted(gone, key=lambda s: -places[s] if places and 0 <= s < len(places) else 0)
        left = tuple(Departure(s, How.FORFEIT) for s in worst_first)
        if abandoned:
            return cls(How.ABANDONED, None)
        if "forfeited" in data and set(data) <= {"places", "scores", "forfeited"}:
            return cls(How.FORFEIT, places, left)  # a forfeit that ended the game: the engine had no result
        details = {k: v for k, v in data.items() if k != "forfeited"}
        return cls(How.NATURAL, places, left, details)


def ending_of(status: str, result: dict | None) -> Ending | None:
    """A game's ending from its status and stored result; None while it has not ended."""
    if status == "finished":
        return Ending.from_json(result)
    if status == "abandoned":
        return Ending.from_json(result, abandoned=True)
    return None


def ranked(places: list[int]) -> list[int]:
    """Competition ranking of ``places`` (1 + how many are strictly better), so ties share a place."""
    return [1 + sum(1 for q in places if q < p) for p in places]


def places_after(count: int, left: list[Departure] | tuple[Departure, ...],
                 places: list[int] | tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Places of ``count`` seats when ``left`` players left in that order: those who stayed come first, in
    the order of ``places`` (the engine's, when the rules ended the game; else all level), then those who left,
    the last to leave first and the first to leave last."""
    gone = [d.seat for d in left if 0 <= d.seat < count]
    stayed = [s for s in range(count) if s not in gone]
    own = ranked([places[s] if places else 1 for s in stayed])
    out = [0] * count
    for s, p in zip(stayed, own):
        out[s] = p
    for i, s in enumerate(reversed(gone)):
        out[s] = len(stayed) + 1 + i
    return tuple(out)


def natural(count: int, details: dict, left: list[Departure] | tuple[Departure, ...] = (),
            step: int = 0) -> Ending:
    """The rules ended the game (``details``: the engine's result); ``left``: who left it before."""
    return Ending(How.NATURAL, places_after(count, left, details.get("places")), tuple(left), details, step)


def walked_out(count: int, left: list[Departure] | tuple[Departure, ...], step: int = 0) -> Ending:
    """The game ended because too few stayed: it ends the way the last player left (resigned, out of time,
    dropped), those who stayed share the first place."""
    return Ending(left[-1].how, places_after(count, left), tuple(left), None, step)


def decided(how: How, places: list[int], left: list[Departure] | tuple[Departure, ...] = (), step: int = 0,
            **note) -> Ending:
    """An ending decided outside play: ``adjudicated`` (the organizer's places), ``deadline`` (the places the
    clocks give at a round's deadline; ``left``: who ran out of time) or ``dropped`` (a match of two whose
    player was dropped from the tournament; ``left``: that player)."""
    return Ending(how, tuple(places), tuple(left), None, step, dict(note))


def abandoned(step: int = 0, **note) -> Ending:
    """Called off without a result."""
    return Ending(How.ABANDONED, None, (), None, step, dict(note))
