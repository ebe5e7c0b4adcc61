"""Round robin in rounds: Berger tables (the circle method), everybody meets everybody once, or twice with the
seats swapped in the second cycle. With an odd number of players one sits out each round (a bye). Seats are
balanced: in one cycle every player has seat 0 (the side that begins, where a game has sides) within one of
half their games. Pure: no discord, no I/O."""

from __future__ import annotations


def berger(players: list[int], *, double: bool = False) -> list[list[tuple[int, ...]]]:
    """The rounds, each a list of tables in seat order; a table of one player is that round's bye."""
    field: list[int | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(field)
    rounds: list[list[tuple[int, ...]]] = []
    for r in range(n - 1):
        tables = []
        for i in range(n // 2):
            a, b = field[i], field[n - 1 - i]
            if i == 0 and r % 2:  # the fixed player changes seat every round
                a, b = b, a
            tables.append(tuple(p for p in (a, b) if p is not None))
        rounds.append(tables)
        field = [field[0], field[-1], *field[1:-1]]
    if double:
        rounds += [[tuple(reversed(t)) for t in tables] for tables in rounds]
    return rounds
