"""Swiss pairing: each round, players of equal (or close) score meet, nobody meets anybody twice while that can
be avoided, and an odd player out gets a bye (the lowest-ranked who has not had one).

Two-player games are paired as a maximum-weight matching (networkx's blossom algorithm): an edge's weight falls
with the score gap, a rematch costs more than anything else, a pair who would leave one of them three games
off balance between the seats more than any score gap, a pair who both lean to the same seat a little; the matching has maximum cardinality, so everybody plays. For speed, the ranking is first cut into
blocks of ``BLOCK`` neighbours, each matched on its own (a block that cannot pair without a rematch is merged
with the next); only when that still forces a rematch is the whole field solved as one graph. Games of 3-6 players sit at tables of N filled down the ranking (so tables are grouped by score), each
player joining the table whose players they have met least. Pure: no discord, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import networkx as nx

from tournaments.standings import Result, Standing, standings

#: players per block of the ranking paired on their own first (the blossom algorithm grows as n³)
BLOCK = 16
# weights, each tier above any sum of the tiers below it: a rematch, a pair who both had seat 0 (or both not)
# twice more often than the other seats, the score gap, a pair who both lean the same way, the ranking distance
_BASE = 10**20
_REMATCH = 10**17
_SIDE_STRONG = 10**12
_SIDE = 10**3


def seat_balance(row: Standing) -> int:
    """Seat-0 games minus other-seat games (the "colour" of two-player games: seat 0 begins)."""
    return sum(1 for s in row.seats if s == 0) - sum(1 for s in row.seats if s != 0)


def order_pair(a: Standing, b: Standing, round_number: int) -> tuple[int, int]:
    """Seat order for two players: seat 0 to whoever has had it less; level, to whoever had seat 1 last;
    still level, by round parity (the higher-ranked ``a`` on odd rounds)."""
    ba, bb = seat_balance(a), seat_balance(b)
    if ba != bb:
        return (a.player, b.player) if ba < bb else (b.player, a.player)
    last_a, last_b = (a.seats[-1] if a.seats else None), (b.seats[-1] if b.seats else None)
    if last_a != last_b and last_a is not None and last_b is not None:
        return (a.player, b.player) if last_a != 0 else (b.player, a.player)
    return (a.player, b.player) if round_number % 2 else (b.player, a.player)


def bye_player(ranked: list[Standing]) -> int:
    """The lowest-ranked player without a bye (everybody has had one: the lowest-ranked)."""
    for row in reversed(ranked):
        if row.byes == 0:
            return row.player
    return ranked[-1].player


def table_sizes(count: int, size: int) -> list[int]:
    """Tables for ``count`` players at tables of ``size``: as few tables as possible, sizes spread evenly (a
    table of one is a bye)."""
    if count <= 0:
        return []
    tables = -(-count // size)
    return [count // tables + (1 if i < count % tables else 0) for i in range(tables)]


def _pair_two(ranked: list[Standing], round_number: int) -> list[tuple[int, int]]:
    met = {r.player: Counter(r.opponents) for r in ranked}

    def weight(i: int, j: int) -> int:
        a, b = ranked[i], ranked[j]
        gap = round(abs(a.points - b.points) * 2)
        w = _BASE - gap * gap * 10**6 - abs(i - j)
        if met[a.player][b.player]:
            w -= _REMATCH * met[a.player][b.player]
        sa, sb = seat_balance(a), seat_balance(b)
        if (sa >= 2 and sb >= 2) or (sa <= -2 and sb <= -2):
            w -= _SIDE_STRONG
        elif (sa >= 1 and sb >= 1) or (sa <= -1 and sb <= -1):
            w -= _SIDE
        return w

    def solve(nodes: list[int]) -> set[tuple[int, int]]:
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        for x, i in enumerate(nodes):
            for j in nodes[x + 1:]:
                graph.add_edge(i, j, weight=weight(i, j))
        return {tuple(sorted(e)) for e in nx.max_weight_matching(graph, maxcardinality=True)}

    def clean(matching: set[tuple[int, int]], count: int) -> bool:
        return len(matching) * 2 == count and not any(met[ranked[i].player][ranked[j].player] for i, j in matching)

    n = len(ranked)
    matching: set[tuple[int, int]] = set()
    start = 0
    while start < n:
        end = min(n, start + BLOCK)
        if n - end < BLOCK // 2:
            end = n  # no small block at the bottom
        while True:
            part = solve(list(range(start, end)))
            if clean(part, end - start) or end == n:
                break
            end = min(n, end + BLOCK)
        matching |= part
        start = end
    if not clean(matching, n):
        matching = solve(list(range(n)))
    pairs = [order_pair(ranked[i], ranked[j], round_number) for i, j in sorted(matching)]
    return pairs


def _tables(ranked: list[Standing], size: int) -> list[tuple[int, ...]]:
    met = {r.player: Counter(r.opponents) for r in ranked}
    left = list(ranked)
    out = []
    for n in table_sizes(len(ranked), size):
        table = [left.pop(0)]
        while len(table) < n:
            # among the next few in the ranking, whoever has met this table least (nearest first on a tie)
            reach = left[:max(n * 2, 4)]
            best = min(range(len(reach)), key=lambda k: (sum(met[t.player][reach[k].player] for t in table), k))
            table.append(left.pop(best))
        # seat 0 first to whoever has had it least, then the other seats likewise, by their average seat
        table.sort(key=lambda r: (sum(1 for s in r.seats if s == 0), -(sum(r.seats) / len(r.seats)
                                                                         if r.seats else 0)))
        out.append(tuple(r.player for r in table))
    return out


def pair_round(players: list[int], results: Iterable[Result], round_number: int, *, table_size: int = 2,
               dropped: Iterable[int] = ()) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables of round ``round_number`` (seat order) and the byes, for ``players`` (seed order) who have
    not dropped, given the ``results`` so far."""
    gone = set(dropped)
    ranked = [r for r in standings(players, results, gone) if not r.dropped and r.player in set(players)]
    byes: list[int] = []
    if table_size == 2:
        if len(ranked) % 2:
            bye = bye_player(ranked)
            byes.append(bye)
            ranked = [r for r in ranked if r.player != bye]
        return [tuple(p) for p in _pair_two(ranked, round_number)], byes
    tables = _tables(ranked, table_size)
    return [t for t in tables if len(t) > 1], [t[0] for t in tables if len(t) == 1]
