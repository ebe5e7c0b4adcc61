"""Swiss pairing of two-player games by FIDE's Dutch system (Handbook C.04.3, the 2017 text), within a time
budget, with a fallback that is still a legal round. Seat 0 (the side that begins) plays the part of White.

What is followed:

* Absolute criteria: nobody meets anybody twice (C1; forfeited games do not count as meetings, pairs the
  organizer forbade count as met), nobody gets a second pairing-allocated bye (C2; a forfeit win counts as one),
  and two players with the same absolute colour preference never meet (C3: a colour difference beyond ±1, or the
  same colour in the last two games). Stricter than FIDE, C3 holds for the top scorers of the last round too, so
  nobody sits in the same seat three games running and nobody's seat balance leaves ±2 - unless a round cannot be
  paired otherwise (then C3 is relaxed first, and a rematch is the last resort: "no rematch while avoidable").
* The completion criterion (C4): a bracket is paired only in a way that lets the rest of the round be paired under
  the absolute criteria; the bye, too, goes to the lowest-ranked player without one whose absence leaves a round
  that can be paired without rematches.
* Score brackets top-down (A.3): the players moved down from a bracket are paired first in the next one, each with
  the highest resident it may meet; the remainder is split into S1 (the upper half) and S2 and paired S1 against
  S2, trying S2's orders lexicographically (the transpositions of D.1) and then S1 players against each other (an
  exchange, D.2, in a simplified order).
* Quality, in FIDE's order: as many pairs as possible in a bracket (C5), moved-down players paired rather than
  moved again (C6), as few colour preferences missed as possible (C10), strong ones first (C11), and nobody floating
  the same way as in the previous round (C12, C13). A bracket's candidates are searched for the best level of
  these criteria that exists, relaxing them one at a time; among equally good candidates the first in the order
  above is taken.
* Colours (E.1-E.5): both preferences when they differ; else the stronger one (absolute over strong over mild; two
  absolute ones: the larger colour difference); else alternate to the last round the two had different colours;
  else the higher-ranked player's preference; with no preference at all, the higher-ranked player takes seat 0 when
  their pairing number is odd.

Not followed: the criteria about top scorers and the collapsed last bracket (C7-C9), floats two rounds back
(C14-C21), and the exact order of exchanges of D.2. Each bracket's search counts its nodes; past the deadline the
round is paired by the fallback (:func:`fallback`): top-down, each player with the nearest one they may meet, repaired
by swaps. Pure: no discord, no I/O.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import networkx as nx

WHITE, BLACK = 1, -1  # seat 0, seat 1
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3

#: nodes one bracket's search may visit per level of criteria before it settles for the next level
NODES_PER_LEVEL = 4000
#: brackets (remainders) of more players try only the first exchanges of D.2 before pairing freely
SMALL_BRACKET = 16
EXCHANGES_IN_LARGE_BRACKETS = 24
#: a bracket and the players below it up to this many: the most pairs the bracket can make is computed exactly
EXACT_PAIRS = 64


class Overtime(Exception):
    """The deadline passed before the Dutch pairing was complete."""


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing sees them. ``number``: pairing number (1 = top seed); ``colours``: per round
    played so far, WHITE (seat 0), BLACK or 0 (no game that round); ``floats``: per round, "down", "up" or None."""

    id: int
    number: int
    score: Fraction
    colours: tuple[int, ...] = ()
    opponents: frozenset[int] = frozenset()
    had_bye: bool = False
    floats: tuple[str | None, ...] = ()

    @property
    def difference(self) -> int:
        return sum(self.colours)

    @property
    def preference(self) -> tuple[int, int]:
        """(colour, strength): the colour this player should get next and how strongly (A.6)."""
        played = [c for c in self.colours if c]
        if not played:
            return 0, NONE
        d = sum(played)
        if d > 1 or (len(played) >= 2 and played[-1] == played[-2] == WHITE):
            return BLACK, ABSOLUTE
        if d < -1 or (len(played) >= 2 and played[-1] == played[-2] == BLACK):
            return WHITE, ABSOLUTE
        if d == 1:
            return BLACK, STRONG
        if d == -1:
            return WHITE, STRONG
        return -played[-1], MILD

    def floated(self, back: int = 1) -> str | None:
        return self.floats[-back] if len(self.floats) >= back else None


@dataclass
class Pairing:
    """A round: ``pairs`` (seat 0, seat 1), the ``bye`` (or None), and how it was made (``"dutch"`` or
    ``"fallback"``); ``relaxed``: absolute criteria that had to give way ("colour", "rematch")."""

    pairs: list[tuple[int, int]]
    bye: int | None
    method: str = "dutch"
    relaxed: list[str] = field(default_factory=list)


class _Rules:
    """Who may meet whom (the absolute criteria at a level of strictness)."""

    def __init__(self, entrants: Sequence[Entrant], forbidden: Iterable[tuple[int, int]], colour: bool,
                 rematch: bool) -> None:
        self.by_id = {e.id: e for e in entrants}
        self.colour = colour  # C3 holds
        self.rematch = rematch  # C1 holds
        self.forbidden: dict[int, set[int]] = {e.id: set() for e in entrants}
        for a, b in forbidden:
            if a in self.forbidden and b in self.forbidden:
                self.forbidden[a].add(b)
                self.forbidden[b].add(a)
        self.absolute = {e.id: e.preference[0] for e in entrants if e.preference[1] == ABSOLUTE}
        self.eligible = any(not e.had_bye for e in entrants)  # somebody may still have a first bye (C2)

    def may_meet(self, a: int, b: int) -> bool:
        if a == b:
            return False
        if self.rematch and (b in self.by_id[a].opponents or b in self.forbidden[a]):
            return False
        return not (self.colour and a in self.absolute and self.absolute.get(b) == self.absolute[a])

    def blocked(self, a: int, group: set[int], same: dict[int, int]) -> int:
        """How many of ``group`` (which holds ``a``) ``a`` may not meet; ``same``: absolute colour counts."""
        out = 0
        if self.rematch:
            out += len((self.by_id[a].opponents | self.forbidden[a]) & group)
        if self.colour and a in self.absolute:
            out += same.get(self.absolute[a], 0) - 1
            if self.rematch:  # met and same colour: counted once
                colour = self.absolute[a]
                out -= sum(1 for q in (self.by_id[a].opponents | self.forbidden[a]) & group
                           if self.absolute.get(q) == colour)
        return out

    def complete(self, players: Sequence[int], deadline: float | None = None) -> bool:
        """Whether ``players`` can all be paired - an odd number: all but one who may have the bye (nobody with a
        bye before while somebody in the round has had none). Dirac's condition first (when everybody may meet at
        least half of the others a perfect matching exists), else an exact matching."""
        players = list(players)
        if len(players) % 2:
            byes = [p for p in reversed(players) if not self.by_id[p].had_bye or not self.eligible]
            return any(self._even([q for q in players if q != b], deadline) for b in byes)
        return self._even(players, deadline)

    def _even(self, players: list[int], deadline: float | None) -> bool:
        n = len(players)
        if n == 0:
            return True
        group = set(players)
        same: dict[int, int] = {}
        if self.colour:
            for p in players:
                if p in self.absolute:
                    same[self.absolute[p]] = same.get(self.absolute[p], 0) + 1
        if all((n - 1) - self.blocked(p, group, same) >= n / 2 for p in players):
            return True
        if deadline is not None and time.monotonic() > deadline:
            raise Overtime
        graph = nx.Graph()
        graph.add_nodes_from(players)
        graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1:] if self.may_meet(a, b))
        return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == n

    def may_have_bye(self, p: int) -> bool:
        return not self.by_id[p].had_bye or not self.eligible


def ranked(entrants: Iterable[Entrant]) -> list[Entrant]:
    """By score, then pairing number (A.2)."""
    return sorted(entrants, key=lambda e: (-e.score, e.number))


def pair(entrants: Sequence[Entrant], *, forbidden: Iterable[tuple[int, int]] = (), budget: float = 5.0) -> Pairing:
    """The round's pairing by the Dutch system within ``budget`` seconds, else by :func:`fallback`."""
    forbidden = list(forbidden)
    deadline = time.monotonic() + budget
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * len(entrants) + 1000))  # one frame per pair searched
    order = ranked(entrants)
    for colour, rematch in ((True, True), (False, True), (False, False)):
        rules = _Rules(order, forbidden, colour, rematch)
        try:
            if not rules.complete([e.id for e in order], deadline):
                continue
            pairs, bye = _Dutch(order, rules, deadline).run()
        except Overtime:
            return fallback(entrants, forbidden=forbidden)
        relaxed = ([] if colour else ["colour"]) + ([] if rematch else ["rematch"])
        return Pairing(pairs, bye, "dutch", relaxed)
    return fallback(entrants, forbidden=forbidden)  # (the last level always completes: anybody may meet anybody)


class _Dutch:
    """The bracket-by-bracket search of one round."""

    def __init__(self, field_: list[Entrant], rules: _Rules, deadline: float) -> None:
        self.field = field_
        self.rules = rules
        self.deadline = deadline
        self.by_id = {e.id: e for e in field_}

    def run(self) -> tuple[list[tuple[int, int]], int | None]:
        """The pairs (seat order) and the bye (the one left over in the last bracket of an odd field)."""
        groups: list[list[Entrant]] = []
        for e in self.field:
            if groups and groups[-1][0].score == e.score:
                groups[-1].append(e)
            else:
                groups.append([e])
        pairs: list[tuple[Entrant, Entrant]] = []
        carried: list[Entrant] = []
        for i, group in enumerate(groups):
            rest = [e.id for g in groups[i + 1:] for e in g]
            following = groups[i + 1] if i + 1 < len(groups) else None
            made, carried = self._bracket(carried, group, rest, following)
            pairs += made
        if len(carried) > 1:  # (cannot happen: the last bracket's search leaves at most the bye)
            raise Overtime
        return [_seats(a, b) for a, b in pairs], (carried[0].id if carried else None)

    # -- one bracket ----------------------------------------------------------------------------------

    def _bracket(self, mdps: list[Entrant], residents: list[Entrant], rest: list[int],
                 following: list[Entrant] | None) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant]]:
        if time.monotonic() > self.deadline:
            raise Overtime
        players = mdps + residents
        last = following is None
        most = len(players) // 2
        if last:
            counts = [most]  # the last bracket pairs everybody (the field can be completed)
        else:
            if len(players) + len(rest) <= EXACT_PAIRS:  # a small field: the most pairs the rest allows, exactly
                most = min(most, self._most_pairs([e.id for e in players], rest))
            counts = list(range(most, -1, -1))
        for target in counts:
            for level in self._levels(players, target):
                found = _Search(self, mdps, residents, rest, target, level, following).first()
                if found is not None:
                    return found
        raise Overtime  # (unreachable with a completable field: the lowest level accepts any legal candidate)

    def _most_pairs(self, bracket: list[int], rest: list[int]) -> int:
        """The most pairs ``bracket`` can make while it and ``rest`` can still all be paired (an odd number: but
        for one who may have the bye): a matching of maximum cardinality weighing pairs within the bracket."""
        graph = nx.Graph()
        people = bracket + rest
        graph.add_nodes_from(people)
        inside = set(bracket)
        may = self.rules.may_meet
        graph.add_edges_from((a, b, {"weight": 2 if a in inside and b in inside else 1})
                             for i, a in enumerate(people) for b in people[i + 1:] if may(a, b))
        if len(people) % 2:
            graph.add_edges_from(("bye", p, {"weight": 0}) for p in people if self.rules.may_have_bye(p))
        pairs = nx.max_weight_matching(graph, maxcardinality=True)
        return sum(1 for a, b in pairs if a in inside and b in inside)

    def _levels(self, players: list[Entrant], target: int) -> list[tuple[int, int, int, int, int]]:
        """Levels of quality to search, best first: (moved-down players floated again (C6), players moved down who
        could not be paired in the next bracket (C7), colour preferences missed (C10), strong ones among them
        (C11), repeated floats (C12, C13)); the last accepts anything legal."""
        room = len(players) - target

        def low(strength: int) -> int:
            wish = [e.preference for e in players]
            return sum(max(0, sum(1 for c, s in wish if c == colour and s >= strength) - room)
                       for colour in (WHITE, BLACK))

        colour_low, strong_low = low(MILD), low(STRONG)
        n = len(players)
        out = []
        for ahead in (0, n):
            for colour in range(colour_low, min(colour_low + 3, n + 1)):
                for strong in sorted({min(strong_low, colour), colour}):
                    out += [(0, ahead, colour, strong, 0), (0, ahead, colour, strong, n)]
        out += [(0, n, n, n, n), (n, n, n, n, n)]
        return list(dict.fromkeys(out))


class _Search:
    """Depth-first search for the first candidate of one bracket within a level of quality.

    Players are taken in order - the moved-down players, then the remainder's S1, then S2 - and each one not yet
    paired picks a partner: a moved-down player the free residents in order (then another moved-down player),
    an S1 player S2 in order and then S1 from the bottom up (an exchange), an S2 player the S2 players after it;
    or, while floaters are still allowed, moves down. A lower bound on the colour preferences still to be missed
    prunes the search."""

    def __init__(self, dutch: _Dutch, mdps: list[Entrant], residents: list[Entrant], rest: list[int], target: int,
                 level: tuple[int, int, int, int, int], following: list[Entrant] | None) -> None:
        self.d = dutch
        self.players = mdps + residents
        self.m = len(mdps)
        self.rest = rest
        self.target = target
        self.refloat_max, self.ahead_max, self.colour_max, self.strong_max, self.float_max = level
        self.floats_allowed = len(self.players) - 2 * target
        self.last = following is None
        self.following = [e.id for e in following or ()]
        self.nodes = 0
        self.pref = [e.preference for e in self.players]
        self.key = [(e.score, -e.number) for e in self.players]
        self.free = [True] * len(self.players)
        self.side = [0] * len(self.players)  # 1: in S1 of the remainder, 2: in S2
        # free players per side (0: all) and colour wish: [side][colour] and the strong ones [side][colour]
        self.wish = [{WHITE: 0, BLACK: 0, 0: 0} for _ in range(3)]
        self.strong_wish = [{WHITE: 0, BLACK: 0, 0: 0} for _ in range(3)]
        for i in range(len(self.players)):
            self._count(i, 1)
        self.pairs: list[tuple[int, int]] = []
        self.floaters: list[int] = []
        self.order: list[int] = list(range(self.m))
        self.s2_from = len(self.players)
        self.split = False
        self.mode = "any"
        self.may = dutch.rules.may_meet
        self.ids = [e.id for e in self.players]

    def first(self) -> tuple[list[tuple[Entrant, Entrant]], list[Entrant]] | None:
        try:
            found = self._step(0, (0, 0, 0, 0))
        except _Exhausted:
            return None
        if not found:
            return None
        p = self.players
        return [(p[a], p[b]) for a, b in self.pairs], [p[f] for f in self.floaters]

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > NODES_PER_LEVEL:
            raise _Exhausted
        if self.nodes % 256 == 0 and time.monotonic() > self.d.deadline:
            raise Overtime

    def _count(self, i: int, delta: int) -> None:
        colour, strength = self.pref[i]
        for side in {0, self.side[i]}:
            self.wish[side][colour] += delta
            if strength >= STRONG:
                self.strong_wish[side][colour] += delta

    def _take(self, i: int) -> None:
        self.free[i] = False
        self._count(i, -1)

    def _give(self, i: int) -> None:
        self.free[i] = True
        self._count(i, 1)

    def _bound(self, cost) -> bool:
        """Whether the level can still be met: the colour preferences (and strong ones) that must still be
        missed - two players wishing the same colour cost one; S1 against S2 only, an S1 player wishing a colour
        needs an S2 player who does not."""
        pairs_left = self.target - len(self.pairs)
        floats_left = self.floats_allowed - len(self.floaters)
        if pairs_left < 0 or floats_left < 0:
            return False
        room = pairs_left + floats_left
        w, ws = self.wish[0], self.strong_wish[0]
        low = max(0, w[WHITE] - room) + max(0, w[BLACK] - room)
        strong = max(0, ws[WHITE] - room) + max(0, ws[BLACK] - room)
        if self.mode == "transpose" and self.split:
            one, two = self.wish[1], self.wish[2]
            low = max(low, max(0, one[WHITE] - two[BLACK] - two[0]) + max(0, one[BLACK] - two[WHITE] - two[0]))
        return cost[1] + low <= self.colour_max and cost[2] + strong <= self.strong_max

    def _cost(self, cost, a: int, b: int):
        refloat, colour, strong, floats = cost
        (ca, sa), (cb, sb) = self.pref[a], self.pref[b]
        if ca and ca == cb:  # one of them misses their colour: the weaker preference gives way (E.2)
            colour += 1
            strong += min(sa, sb) >= STRONG
        if self.key[a][0] != self.key[b][0]:  # the lower one floats up (the higher one's downfloat was counted)
            low = b if self.key[a] > self.key[b] else a
            floats += self.players[low].floated() == "up"
        if colour > self.colour_max or strong > self.strong_max or floats > self.float_max:
            return None
        return refloat, colour, strong, floats

    def _partners(self, pos: int, i: int) -> list[int]:
        if i < self.m:  # a moved-down player: residents in order, then the other moved-down players
            return [j for j in range(self.m, len(self.players)) if self.free[j]] + \
                [j for j in range(i + 1, self.m) if self.free[j]]
        if pos < self.s2_from:  # S1: S2 in order (a transposition), then S1 from the bottom up
            s2 = [j for j in self.order[self.s2_from:] if self.free[j]]
            if self.mode == "transpose":
                return s2
            return s2 + [j for j in reversed(self.order[pos + 1:self.s2_from]) if self.free[j]]
        if self.mode == "transpose":  # an S2 player nobody took moves down
            return []
        return [j for j in self.order[pos + 1:] if self.free[j]]

    def _split(self, cost) -> bool:
        """The moved-down players are placed: the remainder's S1 and S2, tried as they are and then with the
        exchanges of D.2 (one player, then two), each with every transposition of S2; last, any pairing."""
        free = [j for j in range(self.m, len(self.players)) if self.free[j]]
        k = self.target - len(self.pairs)
        if k < 0 or 2 * k > len(free):
            return False
        s1, s2 = free[:k], free[k:]
        self.split = True
        try:
            exchanges = _exchanges(s1, s2)
            if len(free) > SMALL_BRACKET:  # a large bracket: a few exchanges, then any pairing
                exchanges = itertools.islice(exchanges, EXCHANGES_IN_LARGE_BRACKETS + 1)
            tries = itertools.chain((("transpose", x, y) for x, y in exchanges), [("any", s1, s2)])
            for mode, one, two in tries:
                self.mode = mode
                self.order, self.s2_from = self.order[:self.m] + one + two, self.m + len(one)
                self._sides(one, two)
                if self._step(self.m, cost):
                    return True
            return False
        finally:
            self._sides([], [])
            self.order, self.s2_from, self.split, self.mode = self.order[:self.m], len(self.players), False, "any"

    def _sides(self, one: list[int], two: list[int]) -> None:
        for i in range(self.m, len(self.players)):
            if self.free[i]:
                self._count(i, -1)
            self.side[i] = 0
        for side, group in ((1, one), (2, two)):
            for i in group:
                self.side[i] = side
        for i in range(self.m, len(self.players)):
            if self.free[i]:
                self._count(i, 1)

    def _step(self, pos: int, cost) -> bool:
        while pos < len(self.order) and not self.free[self.order[pos]]:
            pos += 1
        if pos >= self.m and not self.split:
            return self._split(cost)
        if pos >= len(self.order):
            return self._leaf(cost)
        self._tick()
        if not self._bound(cost):
            return False
        i = self.order[pos]
        self._take(i)
        for j in self._partners(pos, i):
            if not self.may(self.ids[i], self.ids[j]):
                continue
            c = self._cost(cost, i, j)
            if c is None:
                continue
            self._take(j)
            self.pairs.append((i, j))
            if self._step(pos + 1, c):
                return True
            self.pairs.pop()
            self._give(j)
        if len(self.floaters) < self.floats_allowed and (self.mode == "any" or pos >= self.s2_from or i < self.m):
            c = cost
            if i < self.m:
                c = (cost[0] + 1, *cost[1:]) if cost[0] < self.refloat_max else None
            elif self.players[i].floated() == "down" and not self.last:
                c = (*cost[:3], cost[3] + 1) if cost[3] < self.float_max else None
            if c is not None and (not self.last or self.d.rules.may_have_bye(self.ids[i])):
                self.floaters.append(i)
                if self._step(pos + 1, c):
                    return True
                self.floaters.pop()
        self._give(i)
        return False

    def _leaf(self, cost) -> bool:
        if len(self.pairs) != self.target:
            return False
        if self.last:  # what is left of the last bracket is the bye, if the field is odd
            return len(self.floaters) == self.floats_allowed
        moving = [self.ids[f] for f in self.floaters]
        if self.ahead_max < len(self.players) and len(moving) - _matched(moving, self.following, self.may) > \
                self.ahead_max:
            return False
        return self.d.rules.complete(moving + self.rest, self.d.deadline)


def _matched(movers: list[int], residents: list[int], may) -> int:
    """How many of ``movers`` can each meet a different one of ``residents`` (augmenting paths)."""
    partner: dict[int, int] = {}

    def place(m: int, seen: set[int]) -> bool:
        for r in residents:
            if r in seen or not may(m, r):
                continue
            seen.add(r)
            if r not in partner or place(partner[r], seen):
                partner[r] = m
                return True
        return False

    return sum(1 for m in movers if place(m, set()))


def _exchanges(s1: list[int], s2: list[int]):
    """S1 and S2 as they are, then after each exchange of D.2 in its order: fewest players exchanged, the least
    difference between the numbers moved up and those moved down, the highest numbers leaving S1, the lowest
    leaving S2 (numbers: places in the bracket). Two-player exchanges only in brackets of up to 16."""
    yield s1, s2
    singles = sorted((b - a, -a, b, (a,), (b,)) for a in s1 for b in s2)
    pools: list[list[tuple[Any, ...]]] = [singles]  # (single exchanges, then pairs: their keys differ in length)
    if len(s1) >= 2 and len(s2) >= 2 and len(s1) + len(s2) <= SMALL_BRACKET:
        pools.append(sorted(((b1 + b2 - a1 - a2, -max(a1, a2), -min(a1, a2), min(b1, b2), max(b1, b2),
                              (a1, a2), (b1, b2))
                             for i, a1 in enumerate(s1) for a2 in s1[i + 1:]
                             for j, b1 in enumerate(s2) for b2 in s2[j + 1:])))
    for pool in pools:
        for *_, out, into in pool:
            yield sorted((set(s1) - set(out)) | set(into)), sorted((set(s2) - set(into)) | set(out))


class _Exhausted(Exception):
    pass


def _seats(a: Entrant, b: Entrant) -> tuple[int, int]:
    """Seat order of a pair by the colour allocation rules E.1-E.5 (the first gets seat 0)."""
    high, low = (a, b) if (a.score, -a.number) > (b.score, -b.number) else (b, a)
    (ch, sh), (cl, sl) = high.preference, low.preference
    if ch and cl and ch != cl:
        colour = ch
    elif ch and not cl:
        colour = ch
    elif cl and not ch:
        colour = -cl
    elif ch and cl:  # the same preference
        if sh != sl:
            colour = ch if sh > sl else -cl
        elif sh == ABSOLUTE and abs(high.difference) != abs(low.difference):
            colour = ch if abs(high.difference) > abs(low.difference) else -cl
        else:
            alternated = _alternate(high, low)
            colour = ch if alternated is None else alternated
    else:
        colour = WHITE if high.number % 2 else BLACK
    return (high.id, low.id) if colour == WHITE else (low.id, high.id)


def _alternate(high: Entrant, low: Entrant) -> int | None:
    """E.3: the colour ``high`` gets when the two alternate from the latest round they had different colours."""
    for x, y in zip(reversed(high.colours), reversed(low.colours)):
        if x and y and x != y:
            return -x
    return None


def fallback(entrants: Sequence[Entrant], *, forbidden: Iterable[tuple[int, int]] = ()) -> Pairing:
    """A legal round fast (used when the Dutch search runs out of time): the bye as the Dutch system gives it
    when that is quick to see (else the lowest-ranked without one), then top-down each player with the nearest
    one below they may meet, and swaps between pairs to undo what that left wrong. Everybody plays once; a
    rematch or a colour clash is left only when the swaps cannot remove it."""
    order = ranked(entrants)
    strict = _Rules(order, forbidden, True, True)
    loose = _Rules(order, forbidden, False, True)
    bye = None
    if len(order) % 2:
        bye = next((e.id for e in reversed(order) if not e.had_bye), order[-1].id)
    players = [e for e in order if e.id != bye]
    free = list(players)
    pairs: list[tuple[Entrant, Entrant]] = []
    while free:
        a = free.pop(0)
        k = next((j for j, b in enumerate(free) if strict.may_meet(a.id, b.id)), None)
        if k is None:
            k = next((j for j, b in enumerate(free) if loose.may_meet(a.id, b.id)), 0)
        pairs.append((a, free.pop(k)))
    relaxed: set[str] = set()
    for i in range(len(pairs)):
        a, b = pairs[i]
        if strict.may_meet(a.id, b.id):
            continue
        for j in range(len(pairs) - 1, -1, -1):  # swap partners with another pair, nearest to the bottom first
            if j == i:
                continue
            c, d = pairs[j]
            if strict.may_meet(a.id, c.id) and strict.may_meet(b.id, d.id):
                pairs[i], pairs[j] = (a, c), (b, d)
                break
            if strict.may_meet(a.id, d.id) and strict.may_meet(b.id, c.id):
                pairs[i], pairs[j] = (a, d), (b, c)
                break
        else:
            relaxed.add("colour" if loose.may_meet(a.id, b.id) else "rematch")
    return Pairing([_seats(a, b) for a, b in pairs], bye, "fallback", sorted(relaxed))
