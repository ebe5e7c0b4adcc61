"""Round-robin leagues: everybody plays everybody once, all matches open at once (games here run over days, so
there is no need to wait for rounds). Pure: the schedule and the table."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.roundrobin import berger


def round_robin(players: list[int]) -> list[tuple[int, int]]:
    """Every pair once, as (first seat, second seat), round by round of FIDE's Berger tables
    (:func:`tournaments.roundrobin.berger`), so that nobody plays many matches before the others start and the
    first seat (in some games the side that begins) is shared out: everybody has it within one of half their
    games (exactly half with an odd number of players)."""
    return [t for tables in berger(players) for t in tables if len(t) == 2]


@dataclass
class Row:
    player: int
    points: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def table(players: list[int], results: list[tuple[int | None, int, int | None, int]]) -> list[Row]:
    """The league table: ``results`` are (player a, place of a, player b, place of b) of finished matches;
    a win is 1 point, a draw ½. A player who left a match (the AI finished it: None) scores nothing from it,
    the opponent does. Ordered by points, then wins, then the order of ``players`` (who joined first)."""
    rows = {p: Row(p) for p in players}
    for a, place_a, b, place_b in results:
        for me, mine, theirs in ((a, place_a, place_b), (b, place_b, place_a)):
            if me is None:
                continue
            row = rows.setdefault(me, Row(me))
            row.played += 1
            if mine < theirs:
                row.points += 1
                row.wins += 1
            elif mine == theirs:
                row.points += 0.5
                row.draws += 1
            else:
                row.losses += 1
    order = {p: i for i, p in enumerate(players)}
    return sorted(rows.values(), key=lambda r: (-r.points, -r.wins, order.get(r.player, len(order))))
