"""Single elimination: a bracket seeded by rating, two players a match, the winner goes on.

The bracket has the next power of two of slots; seeds are placed so that 1 and 2 can meet only in the final
(1 v 16, 8 v 9, 5 v 12, ... for sixteen), and the missing players are byes, which fall to the top seeds. Round
``r`` slot ``i`` is fed by the winners of round ``r-1`` slots ``2i`` and ``2i+1``. With a third-place match the
last round has a second slot (1) for the semi-final losers. A drawn match goes to the higher seed. Pure.
"""

from __future__ import annotations

from dataclasses import dataclass


def rounds_for(count: int) -> int:
    """Rounds of a bracket of ``count`` players."""
    rounds = 0
    while (1 << rounds) < count:
        rounds += 1
    return rounds


def slot_seeds(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of ``size`` (a power of two) slots."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


@dataclass(frozen=True)
class Match:
    round: int
    slot: int
    players: tuple[int, ...]  # seat order; one player: a bye (they go through)


def first_round(seeded: list[int]) -> list[Match]:
    """Round 1 for players in seed order (best first); seat 0 to the higher seed."""
    size = 1 << rounds_for(len(seeded))
    order = slot_seeds(size)
    out = []
    for i in range(size // 2):
        pair = [seeded[s - 1] for s in order[2 * i:2 * i + 2] if s <= len(seeded)]
        out.append(Match(1, i, tuple(pair)))
    return out


def winner(players: tuple[int, ...], places: tuple[int, ...] | None, seed: dict[int, int]) -> int:
    """Who goes through: the best place; level, the higher seed."""
    if len(players) == 1 or not places:
        return players[0]
    return players[min(range(len(players)), key=lambda i: (places[i], seed[players[i]]))]


def loser(players: tuple[int, ...], places: tuple[int, ...] | None, seed: dict[int, int]) -> int | None:
    """Who goes out (None for a bye)."""
    if len(players) < 2:
        return None
    w = winner(players, places, seed)
    return next(p for p in players if p != w)


def next_round(seeded: list[int], finished: list[tuple[Match, tuple[int, ...] | None]], *,
               third_place: bool = False, seats: dict[int, int] | None = None) -> list[Match]:
    """The next round from the last one (every match with its places), or [] when the final was the last.
    ``seats``: seat-0 games so far per player, so seat 0 goes to whoever has had it less (the higher seed when
    level)."""
    seed = {p: i for i, p in enumerate(seeded)}
    last = max(m.round for m, _ in finished)
    total = rounds_for(len(seeded))
    if last >= total:
        return []
    main = sorted((m for m in finished if m[0].slot < (1 << (total - last))), key=lambda x: x[0].slot)
    seats = seats or {}

    def ordered(pair: list[int]) -> tuple[int, ...]:
        return tuple(sorted(pair, key=lambda p: (seats.get(p, 0), seed[p])))

    out = []
    for i in range(0, len(main), 2):
        pair = [winner(m.players, places, seed) for m, places in main[i:i + 2]]
        out.append(Match(last + 1, i // 2, ordered(pair)))
    if third_place and last + 1 == total and len(main) == 2:
        losers = [x for m, places in main if (x := loser(m.players, places, seed)) is not None]
        if len(losers) == 2:
            out.append(Match(last + 1, 1, ordered(losers)))
    return out


def final_places(seeded: list[int], matches: list[tuple[Match, tuple[int, ...] | None]]) -> list[list[int]]:
    """Places once the bracket is over: champion, runner-up, third (the third-place match's winner, else
    both semi-final losers), then everybody else by the round they went out in (later first), then seed."""
    seed = {p: i for i, p in enumerate(seeded)}
    total = rounds_for(len(seeded))
    out_in: dict[int, int] = {}
    for m, places in matches:
        gone = loser(m.players, places, seed) if not (m.round == total and m.slot == 1) else None
        if gone is not None:
            out_in[gone] = m.round
    final = [(m, p) for m, p in matches if m.round == total and m.slot == 0]
    if not final:
        return []
    (fm, fp), = final
    standing = [[winner(fm.players, fp, seed)]]
    if (runner_up := loser(fm.players, fp, seed)) is not None:
        standing.append([runner_up])
    third = [(m, p) for m, p in matches if m.round == total and m.slot == 1]
    if third:
        tm, tp = third[0]
        standing.append([winner(tm.players, tp, seed)])
        if (fourth := loser(tm.players, tp, seed)) is not None:  # (a third-place match has two players)
            standing.append([fourth])
    placed = {p for group in standing for p in group}
    rest = sorted((p for p in seeded if p not in placed), key=lambda p: (-out_in.get(p, 0), seed[p]))
    for r in sorted({out_in.get(p, 0) for p in rest}, reverse=True):
        standing.append([p for p in rest if out_in.get(p, 0) == r])
    return standing
