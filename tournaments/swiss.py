"""Swiss pairing of a round from the results so far.

Two-player games follow FIDE's Dutch system (:mod:`tournaments.dutch`, within a time budget, with a legal
fallback). Games of 3-6 players use the rule of :func:`tables` (documented there): tables filled down the
ranking, each player joining the table whose players they have met least, seats rotated so that everybody has
the first seat about equally often. Players the organizer excused from the round (a requested bye) are not
paired; dropped players neither. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from tournaments import dutch
from tournaments.dutch import BLACK, WHITE, Entrant
from tournaments.standings import BYE, FORFEIT, Result, Standing, points, standings

#: seconds the Dutch search of one round may take before the fallback pairs it
BUDGET = 5.0


@dataclass
class Plan:
    """A round's pairing: ``tables`` (seat order), ``byes`` (pairing-allocated), how it was made and which
    absolute criteria had to give way (see :class:`tournaments.dutch.Pairing`)."""

    tables: list[tuple[int, ...]]
    byes: list[int]
    method: str = "dutch"
    relaxed: list[str] = field(default_factory=list)


def seat_balance(row: Standing) -> int:
    """Seat-0 games minus other-seat games (the "colour" of two-player games: seat 0 begins)."""
    return sum(1 for s in row.seats if s == 0) - sum(1 for s in row.seats if s != 0)


def entrants(players: Sequence[int], results: Iterable[Result], absent: Iterable[int] = ()) -> list[Entrant]:
    """The Dutch system's view of ``players`` (seed order = pairing numbers) after ``results``, leaving out
    ``absent``: score, seat history (WHITE = seat 0) per round, opponents met over the board, whether they had a
    bye (or a forfeit win), and floats per round."""
    results = sorted(results, key=lambda r: r.round)
    rounds = max((r.round for r in results), default=0)
    score = {p: Fraction(0) for p in players}
    colours = {p: [0] * rounds for p in players}
    floats: dict[int, list[str | None]] = {p: [None] * rounds for p in players}
    met: dict[int, set[int]] = {p: set() for p in players}
    had_bye: set[int] = set()
    by_round: dict[int, list[Result]] = {}
    for r in results:
        by_round.setdefault(r.round, []).append(r)
    for n in range(1, rounds + 1):
        before = dict(score)
        for r in by_round.get(n, []):
            for i, p in enumerate(r.players):
                if p not in score:
                    continue
                got = points(r.places, i, r.kind)
                score[p] += got
                if r.bye:
                    if r.kind == BYE:
                        had_bye.add(p)
                        floats[p][n - 1] = "down"
                    continue
                if r.kind == FORFEIT or len(r.players) != 2:
                    if r.kind == FORFEIT and got == 1:
                        had_bye.add(p)
                        floats[p][n - 1] = "down"
                    continue
                q = r.players[1 - i]
                met[p].add(q)
                colours[p][n - 1] = WHITE if i == 0 else BLACK
                if q in before and before[p] != before[q]:
                    floats[p][n - 1] = "down" if before[p] > before[q] else "up"
    gone = set(absent)
    return [Entrant(p, k, score[p], tuple(colours[p]), frozenset(met[p]), p in had_bye, tuple(floats[p]))
            for k, p in enumerate(players, start=1) if p not in gone]


def plan_round(players: list[int], results: Iterable[Result], round_number: int, *, table_size: int = 2,
               min_table: int = 2, dropped: Iterable[int] = (), absent: Iterable[int] = (),
               forbidden: Iterable[tuple[int, int]] = (), budget: float = BUDGET) -> Plan:
    """The tables of round ``round_number`` and its byes, for ``players`` (seed order) who have not dropped and
    are not ``absent`` (excused from this round), given the ``results`` so far; ``forbidden``: pairs the organizer
    does not want to meet (treated as met)."""
    results = list(results)
    out = set(dropped) | set(absent)
    if table_size == 2:
        field_ = entrants([p for p in players], results, out)
        made = dutch.pair(field_, forbidden=forbidden, budget=budget)
        return Plan([tuple(p) for p in made.pairs], [made.bye] if made.bye is not None else [], made.method,
                    made.relaxed)
    ranked = [r for r in standings(players, results, out) if r.player in set(players) and r.player not in out]
    seated, byes = tables(ranked, table_size, min_table, forbidden)
    return Plan(seated, byes, "tables")


def pair_round(players: list[int], results: Iterable[Result], round_number: int, *, table_size: int = 2,
               dropped: Iterable[int] = (), **kwargs) -> tuple[list[tuple[int, ...]], list[int]]:
    """(tables, byes) of :func:`plan_round`."""
    plan = plan_round(players, results, round_number, table_size=table_size, dropped=dropped, **kwargs)
    return plan.tables, plan.byes


def table_sizes(count: int, size: int, smallest: int = 2) -> list[int]:
    """Tables for ``count`` players at tables of ``size``: as few tables as possible, sizes spread evenly,
    larger ones first, none below ``smallest`` (the game's minimum); the players who do not fit (fewer than
    ``smallest``) are byes, a table of one each."""
    if count <= 0:
        return []
    for byes in range(count):
        seated = count - byes
        tables = -(-seated // size)
        sizes = [seated // tables + (1 if i < seated % tables else 0) for i in range(tables)]
        if min(sizes) >= smallest:
            return sizes + [1] * byes
    return [1] * count


def tables(ranked: list[Standing], size: int, smallest: int = 2,
           forbidden: Iterable[tuple[int, int]] = ()) -> tuple[list[tuple[int, ...]], list[int]]:
    """The rule for games of 3-6 players, in the order of the current ranking (``ranked``):

    1. Table sizes by :func:`table_sizes`; the byes (when some players do not fit) go to the lowest-ranked players
       without a bye (everybody has had one: the lowest-ranked).
    2. Tables are filled top-down: a table starts with the highest-ranked player left, and each next seat goes to
       whoever of the next ``2 × size`` players left has met that table's players least (forbidden pairs count as
       many meetings), nearest in the ranking on a tie - so tables group players of equal score and rematches are
       spread thin.
    3. Seats: whoever has had seat 0 least takes it; the other seats by the same rule, seat by seat (fewest games in
       that seat first, then the lower average seat so far, then the ranking).
    """
    sizes = table_sizes(len(ranked), size, smallest)
    bye_count = sum(1 for s in sizes if s == 1)
    byes: list[int] = []
    left = list(ranked)
    for _ in range(bye_count):
        pick = next((r for r in reversed(left) if r.byes == 0), left[-1])
        byes.append(pick.player)
        left.remove(pick)
    met = {r.player: Counter(r.opponents) for r in ranked}
    for a, b in forbidden:
        if a in met and b in met:
            met[a][b] += 10
            met[b][a] += 10
    out = []
    for n in (s for s in sizes if s > 1):
        table = [left.pop(0)]
        while len(table) < n:
            reach = left[:max(n * 2, 4)]
            best = min(range(len(reach)), key=lambda k: (sum(met[t.player][reach[k].player] for t in table), k))
            table.append(left.pop(best))
        out.append(_seat(table, ranked))
    return out, byes


def _seat(table: list[Standing], ranked: list[Standing]) -> tuple[int, ...]:
    rank = {r.player: i for i, r in enumerate(ranked)}
    free = list(table)
    order = []
    for seat in range(len(table)):
        pick = min(free, key=lambda r: (sum(1 for s in r.seats if s == seat),
                                        -(sum(r.seats) / len(r.seats)) if r.seats else 0, rank[r.player]))
        order.append(pick.player)
        free.remove(pick)
    return tuple(order)
