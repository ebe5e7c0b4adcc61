"""Round robin in rounds by FIDE's Berger tables (Handbook C.05, annex 1): everybody meets everybody once, or
twice with the seats swapped in the second cycle. With an odd number of players a dummy completes the table and
whoever meets it sits the round out (a bye).

The tables: round 1 pairs 1 with n, 2 with n-1, ...; each next round adds n/2 to every number but n (counting
1..n-1 round and round) and moves n to the other side of its table, so n alternates seats every round and every
other player's seat alternates too, but for one repeat per cycle. In one cycle everybody has seat 0 (the side
that begins, White in chess) within one of half their games; with an odd number of players exactly half.
Pure: no discord, no I/O.
"""

from __future__ import annotations


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """FIDE's Berger table for ``n`` (even) numbers: each round's tables as (seat 0, seat 1)."""
    half = n // 2
    tables = [(i + 1, n - i) for i in range(half)]
    rounds = [tables]
    for r in range(1, n - 1):
        tables = [(_shift(a, n), _shift(b, n)) for a, b in rounds[-1]]
        other = tables[0][1] if tables[0][0] == n else tables[0][0]
        tables[0] = (n, other) if r % 2 else (other, n)  # n: seat 1 in round 1, seat 0 in round 2, ...
        rounds.append(tables)
    return rounds


def _shift(k: int, n: int) -> int:
    """Number ``k`` in the next round: n stays, the others move on by n/2 among 1..n-1."""
    return k if k == n else (k - 1 + n // 2) % (n - 1) + 1


def berger(players: list[int], *, double: bool = False) -> list[list[tuple[int, ...]]]:
    """The rounds for ``players`` in seed order (seed k plays as number k), each a list of tables in seat order;
    a table of one player is that round's bye. ``double``: a second cycle with the seats swapped."""
    n = len(players) + len(players) % 2
    number = {k + 1: p for k, p in enumerate(players)}
    rounds: list[list[tuple[int, ...]]] = []
    for tables in berger_numbers(n):
        out: list[tuple[int, ...]] = []
        byes = []
        for a, b in tables:
            if a in number and b in number:
                out.append((number[a], number[b]))
            else:
                byes += [number[x] for x in (a, b) if x in number]
        rounds.append(out + [(p,) for p in byes])
    if double:
        rounds += [[tuple(reversed(t)) for t in tables] for tables in rounds]
    return rounds
