"""Standings of a tournament from its results: points by place and the organizer's tie-breaks, in exact
arithmetic (``fractions.Fraction``: at a table of four the places are worth 1, ⅔, ⅓ and 0, and 1 + ⅔ + ⅓ is
exactly 2, never 1.9999999999999998).

A match is a table of two or more players, or one player alone: a bye (``Result.kind``: ``"bye"``, the
pairing-allocated bye, worth a win; ``"half_bye"``, a bye the player asked for, worth a draw). Points by place are
normalised to one point per round: a player scores, for each other player at the table, 1 for finishing above
them and ½ for sharing their place, divided by the number of opponents, so a two-player win is 1, a draw ½.

Tie-breaks (``TIEBREAKS``), applied in the organizer's order after the points, each a per-round sum so that a
table of four weighs like a table of two:

* ``buchholz``: per round, the mean score of the opponents met at that table; ``buchholz_cut1``: the same
  without the least contribution (``sonneborn``): per round, the opponents' scores weighted by one's score
  against each of them, divided by the number of opponents (a win over a 5-point player adds 5, a draw 2½);
* ``direct``: among the players tied on everything before it, the points scored against each other - used only
  when every two of them have met (FIDE's direct encounter); ``wins``: matches won outright (a sole first place;
  byes and forfeits do not count); ``rating``: the rating each had when the tournament started.

Unplayed rounds follow FIDE's tie-break regulations (2023, article 16): an opponent's unplayed rounds (byes,
forfeits, rounds missed after a late entry or a withdrawal) count as draws in the score that opponent lends to
others, and each of one's own unplayed rounds counts as a game against a "dummy opponent" with one's own score
(for Sonneborn-Berger weighted by the points that round gave). A cut removes a voluntary unplayed round first (a
requested bye, a forfeit loss, a missed round), otherwise the least contribution. Players still level after every
tie-break share their place; the table lists them in seed order. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

WIN = Fraction(1)
DRAW = Fraction(1, 2)
ZERO = Fraction(0)
BYE_POINTS = WIN

#: the tie-breaks an organizer may choose from, in the order they are offered
TIEBREAKS = ("buchholz_cut1", "buchholz", "sonneborn", "direct", "wins", "rating")
#: FIDE's recommendations (tie-break regulations, 2023): Swiss events by the opponents' strength, all-play-all
#: events by the games between the tied players first
DEFAULT_TIEBREAKS = {"swiss": ("buchholz_cut1", "buchholz", "sonneborn"),
                     "roundrobin": ("direct", "wins", "sonneborn"),
                     "elimination": ("buchholz", "sonneborn")}
MAX_TIEBREAKS = 3
#: the rating tie-break of a player without a rating: below everybody's
NO_RATING = Fraction(-10**9)

#: kinds of result (``Result.kind``); the unplayed ones a player chose (``VOLUNTARY``) are cut first
PLAYED = "played"
BYE = "bye"
HALF_BYE = "half_bye"
FORFEIT = "forfeit"


@dataclass(frozen=True)
class Result:
    """A finished match of round ``round``: ``players`` in seat order and their ``places`` (1 = best, shared
    places tie). One player is a bye (``kind`` ``"bye"`` or ``"half_bye"``); ``kind`` ``"forfeit"``: the match
    was not played (somebody dropped), its places stand but nobody met anybody."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    kind: str = PLAYED

    def __post_init__(self) -> None:
        if len(self.players) == 1 and self.kind not in (BYE, HALF_BYE):
            object.__setattr__(self, "kind", BYE)  # one player alone: the pairing-allocated bye

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def played(self) -> bool:
        return len(self.players) > 1 and self.kind != FORFEIT


def points(places: Sequence[int], i: int, kind: str = PLAYED) -> Fraction:
    """The points of the player at index ``i`` of a table that finished in ``places`` (exact)."""
    if len(places) < 2:
        return DRAW if kind == HALF_BYE else BYE_POINTS
    mine = places[i]
    above = sum(1 for j, p in enumerate(places) if j != i and p > mine)
    shared = sum(1 for j, p in enumerate(places) if j != i and p == mine)
    return (above + DRAW * shared) / (len(places) - 1)


def versus(places: Sequence[int], i: int, j: int) -> Fraction:
    """The score of player ``i`` against player ``j`` at the same table: 1 above, ½ level, 0 below."""
    return WIN if places[i] < places[j] else DRAW if places[i] == places[j] else ZERO


@dataclass(frozen=True)
class Round:
    """One round of one player: what it gave and whom it was against (nobody: an unplayed round)."""

    round: int
    score: Fraction
    opponents: tuple[int, ...] = ()
    against: tuple[Fraction, ...] = ()  # one's score against each opponent
    kind: str = PLAYED
    voluntary: bool = False  # an unplayed round the player chose (cut first)

    @property
    def played(self) -> bool:
        return bool(self.opponents)


@dataclass
class Standing:
    player: int
    points: Fraction = ZERO
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)  # one entry per meeting (repeats kept)
    seats: list[int] = field(default_factory=list)  # the seat taken in each match played
    rounds: list[Round] = field(default_factory=list)
    tiebreaks: dict[str, Fraction] = field(default_factory=dict)
    place: int = 0  # shared by players level on points and every tie-break

    @property
    def buchholz(self) -> Fraction:
        return self.tiebreaks.get("buchholz", ZERO)

    @property
    def sonneborn(self) -> Fraction:
        return self.tiebreaks.get("sonneborn", ZERO)

    def values(self, order: Sequence[str]) -> tuple:
        """Points, then the tie-breaks of ``order`` (what the table shows)."""
        return (self.points, *(self.tiebreaks.get(k, ZERO) for k in order))


def check_tiebreaks(order: Iterable[str]) -> tuple[str, ...]:
    """The organizer's tie-breaks, checked: known names, none twice, at most ``MAX_TIEBREAKS``; ValueError
    names what is wrong."""
    out = tuple(order)
    unknown = [k for k in out if k not in TIEBREAKS]
    if unknown:
        raise ValueError(unknown[0])
    if len(set(out)) != len(out) or len(out) > MAX_TIEBREAKS:
        raise ValueError(",".join(out))
    return out


def standings(players: list[int], results: Iterable[Result], dropped: Iterable[int] = (), *,
              tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS["swiss"], ratings: dict[int, float] | None = None,
              rounds: int | None = None) -> list[Standing]:
    """Everybody in ``players`` (seed order) ranked by points, then ``tiebreaks`` in order, then seed order
    (players level on everything share a place). ``rounds``: the rounds completed (default: the last round of
    ``results``); a round without a result for a player (not yet entered, withdrawn) is an unplayed round with
    no points. ``ratings``: for the ``rating`` tie-break. Dropped players stay in the table, marked."""
    results = list(results)
    rows = {p: Standing(p) for p in players}
    for r in results:
        for p in r.players:
            rows.setdefault(p, Standing(p))
    for r in sorted(results, key=lambda r: r.round):
        _count(rows, r)
    last = rounds if rounds is not None else max((r.round for r in results), default=0)
    for row in rows.values():
        seen = {x.round for x in row.rounds}
        row.rounds += [Round(n, ZERO, kind="absent", voluntary=True) for n in range(1, last + 1) if n not in seen]
        row.rounds.sort(key=lambda x: x.round)
    for p in set(dropped) & rows.keys():
        rows[p].dropped = True
    adjusted = {p: _adjusted(row) for p, row in rows.items()}
    for row in rows.values():
        _opponent_tiebreaks(row, adjusted)
        row.tiebreaks["wins"] = Fraction(row.wins)
        rating = (ratings or {}).get(row.player)
        row.tiebreaks["rating"] = Fraction(rating) if rating is not None else NO_RATING
    seed = {p: i for i, p in enumerate(players)}
    return _rank(list(rows.values()), tuple(tiebreaks), seed)


def _count(rows: dict[int, Standing], r: Result) -> None:
    for i, p in enumerate(r.players):
        row = rows[p]
        score = points(r.places, i, r.kind)
        row.points += score
        if r.bye:
            row.byes += 1
            row.rounds.append(Round(r.round, score, kind=r.kind, voluntary=r.kind == HALF_BYE))
            continue
        if not r.played:  # a forfeit: nobody met anybody; the loser's unplayed round was their choice
            row.rounds.append(Round(r.round, score, kind=FORFEIT, voluntary=score < WIN))
            continue
        row.played += 1
        row.seats.append(i)
        best = min(r.places)
        if r.places[i] == best:
            if r.places.count(best) > 1:
                row.draws += 1
            else:
                row.wins += 1
        else:
            row.losses += 1
        others = tuple(q for j, q in enumerate(r.players) if j != i)
        row.opponents += list(others)
        row.rounds.append(Round(r.round, score, others,
                                tuple(versus(r.places, i, j) for j in range(len(r.players)) if j != i)))


def _adjusted(row: Standing) -> Fraction:
    """The score a player lends to their opponents' tie-breaks: unplayed rounds count as draws."""
    return sum((x.score if x.played else DRAW for x in row.rounds), ZERO)


def _opponent_tiebreaks(row: Standing, adjusted: dict[int, Fraction]) -> None:
    """Buchholz, Buchholz Cut-1 and Sonneborn-Berger of one player, per round (a dummy opponent with the
    player's own score stands in for every unplayed round)."""
    buchholz: list[tuple[Fraction, bool]] = []
    sonneborn = ZERO
    for x in row.rounds:
        if x.played:
            n = len(x.opponents)
            buchholz.append((sum((adjusted[q] for q in x.opponents), ZERO) / n, False))
            sonneborn += sum((adjusted[q] * s for q, s in zip(x.opponents, x.against)), ZERO) / n
        else:
            buchholz.append((row.points, x.voluntary))
            sonneborn += row.points * x.score
    total = sum((b for b, _ in buchholz), ZERO)
    row.tiebreaks["buchholz"] = total
    if buchholz:
        voluntary = [b for b, v in buchholz if v]
        cut = min(voluntary) if voluntary else min(b for b, _ in buchholz)
        row.tiebreaks["buchholz_cut1"] = total - cut
    else:
        row.tiebreaks["buchholz_cut1"] = ZERO
    row.tiebreaks["sonneborn"] = sonneborn


def _direct(group: list[Standing]) -> dict[int, Fraction]:
    """Direct encounter within a tied group: the points each scored against the others, when every two of
    them have met; otherwise level (the tie is not broken this way)."""
    ids = {r.player for r in group}
    met: set[frozenset[int]] = set()
    score = {r.player: ZERO for r in group}
    for row in group:
        for x in row.rounds:
            for q, s in zip(x.opponents, x.against):
                if q in ids:
                    met.add(frozenset((row.player, q)))
                    score[row.player] += s
    if len(met) < len(ids) * (len(ids) - 1) // 2:
        return dict.fromkeys(ids, ZERO)
    return score


def _rank(rows: list[Standing], order: tuple[str, ...], seed: dict[int, int]) -> list[Standing]:
    groups = _split([rows], lambda g: {r.player: r.points for r in g})
    for row in rows:
        row.tiebreaks["direct"] = ZERO
    for key in order:
        if key == "direct":
            groups = _split(groups, _direct_shown)
        else:
            groups = _split(groups, lambda g, key=key: {r.player: r.tiebreaks[key] for r in g})
    out: list[Standing] = []
    for group in groups:
        place = len(out) + 1
        for row in sorted(group, key=lambda r: (seed.get(r.player, len(seed)), r.player)):
            row.place = place
            out.append(row)
    return out


def _direct_shown(group: list[Standing]) -> dict[int, Fraction]:
    """Direct encounter within ``group``, kept on the rows for the table to show."""
    values = _direct(group)
    for row in group:
        row.tiebreaks["direct"] = values[row.player]
    return values


def _split(groups: list[list[Standing]], value) -> list[list[Standing]]:
    """Each group split by ``value(group)`` (player -> number), highest first."""
    out = []
    for group in groups:
        if len(group) == 1:
            out.append(group)
            continue
        values = value(group)
        for v in sorted(set(values.values()), reverse=True):
            out.append([r for r in group if values[r.player] == v])
    return out


def podium(table: list[Standing]) -> list[list[int]]:
    """The first three places of a final table, players sharing a place when everything is level."""
    out: list[list[int]] = []
    last = None
    for row in table:
        if out and row.place == last:
            out[-1].append(row.player)
        elif len(out) < 3:
            out.append([row.player])
        else:
            break
        last = row.place
    return out
