"""Standings of a tournament from its results: points by place, Buchholz and Sonneborn-Berger tie-breaks.

A match is a table of two or more players (or a bye: one player). Points by place are normalised to one point
per match: a player scores, for each other player at the table, 1 for finishing above them and ½ for sharing
their place, divided by the number of opponents, so a two-player win is 1, a draw ½, and at a table of four the
places are worth 1, ⅔, ⅓ and 0. A bye is worth a win. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

BYE_POINTS = 1.0


@dataclass(frozen=True)
class Result:
    """A finished match of round ``round``: ``players`` in seat order and their ``places`` (1 = best, shared
    places tie). One player is a bye."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]

    @property
    def bye(self) -> bool:
        return len(self.players) == 1


def points(places: tuple[int, ...] | list[int], i: int) -> float:
    """The points of the player at index ``i`` of a table that finished in ``places``."""
    if len(places) < 2:
        return BYE_POINTS
    mine = places[i]
    above = sum(1 for j, p in enumerate(places) if j != i and p > mine)
    shared = sum(1 for j, p in enumerate(places) if j != i and p == mine)
    return (above + 0.5 * shared) / (len(places) - 1)


def versus(places: tuple[int, ...], i: int, j: int) -> float:
    """The score of player ``i`` against player ``j`` at the same table: 1 above, ½ level, 0 below."""
    return 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0


@dataclass
class Standing:
    player: int
    points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    buchholz: float = 0.0
    sonneborn: float = 0.0
    dropped: bool = False
    opponents: list[int] = field(default_factory=list)  # one entry per meeting (repeats kept)
    seats: list[int] = field(default_factory=list)  # the seat taken in each match played


def standings(players: list[int], results: Iterable[Result], dropped: Iterable[int] = ()) -> list[Standing]:
    """Everybody in ``players`` (seed order) ranked by points, then Buchholz (the sum of the points of every
    opponent met), then Sonneborn-Berger (for every opponent met, their points times one's score against
    them), then seed order. Dropped players stay in the table, marked."""
    results = list(results)
    rows = {p: Standing(p) for p in players}
    gone = set(dropped)
    for r in results:
        for i, p in enumerate(r.players):
            row = rows.setdefault(p, Standing(p))
            row.points += points(r.places, i)
            if r.bye:
                row.byes += 1
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
            row.opponents += [q for j, q in enumerate(r.players) if j != i]
    total = {p: row.points for p, row in rows.items()}
    for r in results:
        if r.bye:
            continue
        for i, p in enumerate(r.players):
            for j, q in enumerate(r.players):
                if i != j:
                    rows[p].buchholz += total[q]
                    rows[p].sonneborn += total[q] * versus(r.places, i, j)
    for p in gone & rows.keys():
        rows[p].dropped = True
    seed = {p: i for i, p in enumerate(players)}
    return sorted(rows.values(), key=lambda r: (-r.points, -r.buchholz, -r.sonneborn, seed.get(r.player, len(seed)),
                                                r.player))


def podium(table: list[Standing]) -> list[list[int]]:
    """The first three places of a final table, players sharing a place when everything is level."""
    out: list[list[int]] = []
    key = None
    for row in table:
        k = (row.points, row.buchholz, row.sonneborn)
        if out and k == key:
            out[-1].append(row.player)
        elif len(out) < 3:
            out.append([row.player])
        else:
            break
        key = k
    return out
