"""Combat-phase arithmetic: how many figures each side loses in a battle, and which fields are encircled.

Both are pure functions of counts and occupancy so they can be tested on hand-built positions.
"""

from __future__ import annotations

from .board import HEX, TRI, Board


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


#: encirclement rules by rules version: "entry" (2, the book): a group is open only while its region of empty
#: and own fields holds an empty entry TRI; "rim" (1, withdrawn): a group reaching any rim TRI is safe
ENTRY, RIM = "entry", "rim"


def _touches_way_out(board: Board, occ: dict[str, dict[int, int]], seat: int, start: str, exits: frozenset[str],
                     entry: bool, safe: set[str]) -> bool:
    """Is a neighbour of ``start`` passable for ``seat`` and a way out (or known to be safe)?"""
    for nb in board.adj[start]:
        here = occ.get(nb)
        if (not here or seat in here) and (nb in safe or (nb in exits and (not entry or not here))):
            return True
    return False


def _search_region(board: Board, occ: dict[str, dict[int, int]], seat: int, start: str, exits: frozenset[str],
                   entry: bool, safe: set[str]) -> tuple[bool, set[str]]:
    """Breadth first from ``start`` over the fields that are empty or hold ``seat``'s figures until a way out
    (or a field known to be safe) is met: (opened, the fields seen)."""
    adj = board.adj
    seen = {start}
    frontier = [start]
    opened = start in exits and not entry   # an own rim TRI is open under RIM; entry TRIs must be empty
    while frontier and not opened:
        nxt = []
        for f in frontier:
            for nb in adj[f]:
                if nb in seen:
                    continue
                here = occ.get(nb)
                if here and seat not in here:
                    continue  # enemy-held: a wall
                if nb in safe or (nb in exits and (not entry or not here)):
                    opened = True
                    break
                seen.add(nb)
                nxt.append(nb)
            if opened:
                break
        frontier = nxt
    return opened, seen


def encircled(board: Board, occ: dict[str, dict[int, int]], seat: int, kind: str, rule: str = ENTRY,
              known: tuple[set[str], set[str]] | None = None, on: dict[str, int] | None = None) -> list[str]:
    """Fields of ``kind`` holding ``seat``'s figures that are encircled: every way into their region (the
    connected fields that are empty or hold his figures) is enemy-held (a field is enemy-held for ``seat``
    when figures stand there and none are his).

    The board's edge gives no protection (the book: "minden olyan mezőt ellenséges bábuknak kell elfoglalni,
    amin keresztül be lehetne jutni"): from outside one gets in only through an *empty* entry TRI (a TRI
    touching one HEX), so a region without one is closed. ``rule=RIM`` is rules version 1's reading, where any
    rim TRI (touching fewer than 3 HEXes) that is not enemy-held counted as open.

    ``known``: (fields found safe, fields found closed) for this ``seat``, ``occ`` and ``rule``, shared by
    calls for both kinds and filled in here. ``on``: ``seat``'s figures per field, if at hand (the fields
    ``occ`` gives him; the answer does not depend on their order).
    """
    want = HEX if kind == "hex" else TRI
    kinds = board.kind
    if on is None:
        held = [f for f, here in occ.items() if here.get(seat) and kinds[f] == want]
    else:
        held = [f for f, n in on.items() if n and kinds[f] == want]
    if not held:
        return []
    # search outwards from each group (breadth first: the nearest way out is usually close) until it meets
    # a way out or a field already known to be safe; everything it saw shares the group's fate
    entry = rule != RIM
    exits = board.outer_set if entry else board.rim
    safe, closed = known if known is not None else (set(), set())
    out = []
    for start in held:
        if start in safe:
            continue
        if start in closed:
            out.append(start)
            continue
        if _touches_way_out(board, occ, seat, start, exits, entry, safe):  # most groups do, at once
            safe.add(start)
            continue
        opened, seen = _search_region(board, occ, seat, start, exits, entry, safe)
        if opened:
            safe |= seen
        else:
            closed |= seen
            out.append(start)
    # a field's fate is its region's, whichever field was searched from first: order only the answer
    out.sort(key=board.order.__getitem__)
    return out


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


def openings(board: Board, occ: dict[str, dict[int, int]], seat: int, rule: str = ENTRY) -> list[str]:
    """The fields through which ``seat``'s regions are open to the outside under ``rule``."""
    if rule == RIM:
        return [f for f in board.tris if f in board.rim and (not occ.get(f) or seat in occ[f])]
    return [f for f in board.outer if not occ.get(f)]


def safe_fields(board: Board, occ: dict[str, dict[int, int]], seat: int, rule: str = ENTRY,
                until: set[str] | None = None) -> set[str]:
    """The fields (empty or holding ``seat``'s figures) whose region is open to the outside. ``until``: stop
    as soon as all of these fields are known to be safe (the set returned may then be partial)."""
    # fields enemies hold are the walls; everything else is passable
    walls = {f for f, here in occ.items() if here and seat not in here}
    stack = openings(board, occ, seat, rule)
    safe = set(stack)
    adj = board.adj
    missing = -1 if until is None else len(until - safe)  # -1: no end but the search's
    while stack and missing != 0:
        for nb in adj[stack.pop()]:
            if nb not in safe and nb not in walls:
                safe.add(nb)
                stack.append(nb)
                if until is not None and nb in until:
                    missing -= 1
    return safe
