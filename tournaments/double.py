"""Double elimination: a player goes out after a second lost match. Pure.

The winners' bracket is the single-elimination bracket of :mod:`tournaments.elimination` (``k`` rounds for a
bracket of 2^k slots, same seeding, byes to the top seeds). Its losers drop into the losers' bracket of
2(k-1) rounds: round 1 pairs the losers of winners' round 1; an even round 2j pairs the winners of losers' round
2j-1 with the losers of winners' round j+1 (in reverse order, so that two players who met early do not meet
again at once); an odd round 2j+1 pairs the winners of round 2j among themselves. The grand final is the
winners' champion against the losers' champion; if the losers' champion wins it, both have lost once and a
second grand final (the reset) decides.

The tournament plays these together: round ``t`` holds winners' round ``t`` and losers' round ``t-1``; the grand
final is round 2k, the reset 2k+1. A match's slot says where it is: below :data:`LOSERS` the winners' bracket,
``LOSERS + i`` the losers' bracket, :data:`GRAND` the grand final and :data:`RESET` its second match. A slot whose
feeders are both byes has nobody and is not played; one with one player is a bye. A drawn match goes to the
higher seed.
"""

from __future__ import annotations

from tournaments.elimination import Match, first_round, loser, rounds_for, winner

LOSERS = 1000
GRAND = 2000
RESET = 2001

Node = tuple[int | None, int | None]  # the two entrants (None: nobody)
Done = list[tuple[Match, tuple[int, ...] | None]]


def total_rounds(count: int) -> int:
    """Rounds of a double elimination of ``count`` players without the reset (which adds one)."""
    return 2 * rounds_for(max(count, 2))


def bracket_of(slot: int) -> str:
    """"winners", "losers" or "grand" (the grand final and its reset)."""
    return "winners" if slot < LOSERS else "losers" if slot < GRAND else "grand"


class _Bracket:
    """The whole bracket replayed from the results so far."""

    def __init__(self, seeded: list[int], finished: Done) -> None:
        self.seed = {p: i for i, p in enumerate(seeded)}
        self.k = rounds_for(max(len(seeded), 2))
        self.played = {(m.round, m.slot): (m, places) for m, places in finished}
        first = first_round(seeded)
        self.wb: dict[int, list[Node]] = {1: [_node(m.players) for m in first]}
        self.lb: dict[int, list[Node]] = {}

    def result(self, t: int, slot: int, node: Node) -> tuple[int | None, int | None] | None:
        """(winner, loser) of a slot, or None while it is not decided."""
        present = [p for p in node if p is not None]
        if len(present) < 2:
            return (present[0] if present else None), None
        got = self.played.get((t, slot))
        if got is None or got[1] is None:
            return None
        m, places = got
        return winner(m.players, places, self.seed), loser(m.players, places, self.seed)

    def results(self, t: int, offset: int, nodes: list[Node]) -> list[tuple[int | None, int | None]] | None:
        out = []
        for i, n in enumerate(nodes):
            r = self.result(t, offset + i, n)
            if r is None:
                return None
            out.append(r)
        return out

    def build(self, upto: int) -> None:
        """Fill the winners' and losers' rounds played up to tournament round ``upto`` (while decided)."""
        for t in range(2, upto + 1):
            w_prev = self.results(t - 1, 0, self.wb.get(t - 1, [])) if t - 1 <= self.k else []
            if w_prev is None:
                return
            if t <= self.k:
                self.wb[t] = [(w_prev[2 * i][0], w_prev[2 * i + 1][0]) for i in range(len(w_prev) // 2)]
            lr = t - 1  # the losers' round played in tournament round t
            if not 1 <= lr <= 2 * self.k - 2:
                continue
            if lr == 1:
                self.lb[1] = [(w_prev[2 * i][1], w_prev[2 * i + 1][1]) for i in range(len(w_prev) // 2)]
                continue
            l_prev = self.results(t - 1, LOSERS, self.lb[lr - 1])
            if l_prev is None:
                return
            if lr % 2 == 0:  # the losers of winners' round lr/2 + 1 drop in, in reverse order
                wr = lr // 2 + 1
                dropped = [r[1] for r in self.results(wr, 0, self.wb[wr]) or []][::-1]
                self.lb[lr] = [(l_prev[i][0], dropped[i]) for i in range(len(l_prev))]
            else:
                self.lb[lr] = [(l_prev[2 * i][0], l_prev[2 * i + 1][0]) for i in range(len(l_prev) // 2)]

    def champions(self) -> tuple[int | None, int | None] | None:
        """(winners' champion, losers' champion) once both are known."""
        self.build(2 * self.k - 1)
        final = self.results(self.k, 0, self.wb.get(self.k, []))
        if final is None:
            return None
        if self.k == 1:  # two players: the loser of the only winners' match is the losers' champion
            return final[0][0], final[0][1]
        last = 2 * self.k - 2
        if last not in self.lb:
            return None
        lb = self.results(2 * self.k - 1, LOSERS, self.lb[last])
        return None if lb is None else (final[0][0], lb[0][0])


def _node(players: tuple[int, ...]) -> Node:
    """A first-round match's two places (the second None for a bye)."""
    padded = (*players, None, None)
    return padded[0], padded[1]


def _ordered(pair: list[int], seats: dict[int, int], seed: dict[int, int]) -> tuple[int, ...]:
    return tuple(sorted(pair, key=lambda p: (seats.get(p, 0), seed[p])))


def round_matches(seeded: list[int], finished: Done, round_no: int, *,
                  seats: dict[int, int] | None = None) -> list[Match]:
    """The matches of tournament round ``round_no`` given every earlier match with its places ([] once the
    tournament is over). ``seats``: seat-0 games so far per player (seat 0 to whoever had it less)."""
    b = _Bracket(seeded, finished)
    seats = seats or {}
    if round_no == 1:
        return first_round(seeded)
    k = b.k
    if round_no < 2 * k:
        b.build(round_no)
        out = []
        for offset, nodes in ((0, b.wb.get(round_no, [])), (LOSERS, b.lb.get(round_no - 1, []))):
            for i, node in enumerate(nodes):
                present = [p for p in node if p is not None]
                if present:
                    out.append(Match(round_no, offset + i, _ordered(present, seats, b.seed)))
        return out
    champs = b.champions()
    if champs is None:
        return []
    first, second = champs
    if first is None or second is None:
        return []
    if round_no == 2 * k:
        return [Match(round_no, GRAND, _ordered([first, second], seats, b.seed))]
    grand = b.played.get((2 * k, GRAND))
    if round_no == 2 * k + 1 and grand and grand[1] is not None:
        if winner(grand[0].players, grand[1], b.seed) == second:  # the losers' champion won: a reset
            return [Match(round_no, RESET, _ordered([first, second], seats, b.seed))]
    return []


def final_places(seeded: list[int], finished: Done) -> list[list[int]]:
    """Places once it is over: the champion (the grand final's, or its reset's, winner), the runner-up, then
    everybody else by the losers' round they went out in (later first; those out in the same round share a
    place), the seed breaking nothing. [] while the grand final is undecided."""
    seed = {p: i for i, p in enumerate(seeded)}
    decided = {m.slot: (m, places) for m, places in finished if m.slot in (GRAND, RESET) and places is not None}
    last = decided.get(RESET) or decided.get(GRAND)
    if last is None:
        return []
    m, places = last
    losses: dict[int, int] = {}
    out_in: dict[int, int] = {}
    for match, got in sorted(finished, key=lambda x: x[0].round):
        if len(match.players) < 2 or got is None or match.slot in (GRAND, RESET):
            continue
        lost = loser(match.players, got, seed)
        if lost is None:  # (never: a match of two players has a loser)
            continue
        losses[lost] = losses.get(lost, 0) + 1
        if losses[lost] == 2:
            out_in[lost] = match.round
    champion, runner = winner(m.players, places, seed), loser(m.players, places, seed)
    if RESET not in decided and losses.get(champion):  # the losers' champion won the first: the reset is owed
        return []
    result = [[champion], [runner]] if runner is not None else [[champion]]
    rest = [p for p in seeded if p not in (champion, runner)]
    for r in sorted({out_in.get(p, 0) for p in rest}, reverse=True):
        result.append(sorted((p for p in rest if out_in.get(p, 0) == r), key=seed.__getitem__))
    return result
