"""Combat-phase arithmetic: how many figures each side loses in a battle, and which fields are encircled.

Both are pure functions of counts and occupancy so they can be tested on hand-built positions.
"""

from __future__ import annotations

from .board import Board


def battle_losses(counts: dict[int, int]) -> dict[int, int]:
    """Figures each player loses on one HEX: every side still present removes one figure, again and again,
    until one side is left or every side left has exactly one figure (the HEX then stays contested).

    The stop test comes first, so a 1-against-1 HEX loses nothing and stays contested ("döntetlen esetén
    továbbra is vitás terület marad").
    """
    left = {seat: n for seat, n in counts.items() if n > 0}
    lost = {seat: 0 for seat in counts}
    while len(left) > 1 and any(n > 1 for n in left.values()):
        for seat in list(left):
            left[seat] -= 1
            lost[seat] += 1
            if not left[seat]:
                del left[seat]
    return lost


def encircled(board: Board, occ: dict[str, dict[int, int]], seat: int, kind: str) -> list[str]:
    """Fields of ``kind`` holding ``seat``'s figures that cannot reach the rim through fields that are not
    enemy-held (a field is enemy-held for ``seat`` when figures stand there and none are his).

    Rim TRIs (touching fewer than 3 HEXes) border the outside, so a group that reaches one is safe.
    """
    safe = _safe_fields(board, occ, seat)
    return [f for f in (board.hexes if kind == "hex" else board.tris)
            if occ.get(f, {}).get(seat) and f not in safe]


def encirclers(board: Board, occ: dict[str, dict[int, int]], seat: int, field: str) -> set[int]:
    """The players holding the enemy fields around the encircled group that contains ``field``."""
    seen = {field}
    stack = [field]
    holders: set[int] = set()
    while stack:
        f = stack.pop()
        for nb in board.adj[f]:
            if nb in seen:
                continue
            here = occ.get(nb, {})
            if here and seat not in here:
                holders.update(here)
                continue
            seen.add(nb)
            stack.append(nb)
    return holders


def _safe_fields(board: Board, occ: dict[str, dict[int, int]], seat: int) -> set[str]:
    def passable(f: str) -> bool:
        here = occ.get(f)
        return not here or seat in here

    stack = [f for f in board.rim if passable(f)]
    safe = set(stack)
    while stack:
        f = stack.pop()
        for nb in board.adj[f]:
            if nb not in safe and passable(nb):
                safe.add(nb)
                stack.append(nb)
    return safe
