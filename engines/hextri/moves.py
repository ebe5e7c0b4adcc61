"""Movement: which fields a figure can reach in one move and how the steps are paid.

A move is a sequence of steps by one figure (the original: "Egy mozgás lehet lépések sorozata ugyanazzal a
bábuval"). Each step costs 1 mana, taken off the board *before* the step from a peaceful field where the
mover's figures stand; the moving figure itself counts, so mana under a lone figure pays for the step that
leaves that field but is out of reach once it has gone. The leader has one free step per movement phase.

Two searches:
- :func:`plan` finds, for every reachable destination, the path with the fewest steps; among those the one
  that spends the least mana (the leader's free step is used when he still has it), then the one that takes
  the least from fields other than those the figure stands on. Its default sources: ``"free"`` for the
  leader's free step, the mana under a lone moving figure when it would otherwise be left behind, else the
  field with the most mana, ties by name.
- :func:`check` verifies a player's own choice of sources exactly and returns a path that fits them.
"""

from __future__ import annotations

from heapq import heapify, heappop, heapreplace

from engines import IllegalAction

from .board import HEX, TRI, Board

OFF = "off"
FREE = "free"
#: what :func:`plan` leaves in ``Mover.plain``: every step paid from the pool, or the first from the mana
#: under the lone mover and the rest from the pool (None: anything else)
#: or the leader's free step once and the pool for the others
POOL_ONLY, LOCAL_FIRST, FREE_POOL = "pool", "local", "free"


class SeatFacts:
    """What every mover of one seat on one board shares: what follows from the occupancy alone (the movers'
    searches ask these a hundred times per field)."""

    def __init__(self, state: dict, board: Board, occ: dict, seat: int) -> None:
        kind, mana = board.kind, state["mana"]
        blocked: set[str] = set()
        pool: dict[str, int] = {}
        # one pass over the occupied fields (every one holds some figure: the engine keeps no empty counts)
        for f, seats in occ.items():
            if seat in seats:
                if len(seats) == 1:
                    # a peaceful field with mana where own figures stand (see Mover.pool_fields)
                    n = mana.get(f, 0)
                    if n > 0:
                        pool[f] = n
            elif kind[f] == HEX:
                # a HEX beside enemies where no own figure stays: nobody may leave it (Mover.can_leave)
                blocked.add(f)
        self.blocked, self.pool = blocked, pool
        #: the fields with a figure on them (a TRI among them can be entered by nobody): ``in`` only
        self.taken = occ
        self.enter: dict[str, list[str]] = {}   # field -> neighbours one may step onto, filled lazily
        # mana on empty fields: only a lone mover standing there could spend it (see Mover.local)
        self.locals = {f for f, n in mana.items() if n > 0 and f not in occ}
        #: id(pool) -> (that pool, the longest default paying order computed from it, the mana it leaves
        #: as a heap; see :func:`longest`)
        self.seqs: dict[int, tuple[dict, list[str], list[tuple[int, str]]]] = {}
        #: the payment ways of the movers whose pool is ``pool`` (see :meth:`Mover.pool_ways`)
        self.ways: dict = {}


class Mover:
    """Everything about the board that matters to one figure's move, seen by that figure's owner."""

    # a few are made per legal-action listing: slots make them cheaper to build and to read
    __slots__ = ("state", "board", "occ", "seat", "origin", "leader", "mana", "free_avail", "escape",
                 "_leader_fields", "facts", "_alone", "_beside", "_pool", "_locals", "_ways", "_payer_order",
                 "plain", "local_steps")

    def __init__(self, state: dict, board: Board, occ: dict, seat: int, origin: str, leader: bool,
                 counts: SeatFacts | None = None) -> None:
        self.state = state
        self.board = board
        self.occ = occ
        self.seat = seat
        self.origin = origin
        self.leader = leader
        self.mana = state["mana"]
        player = state["players"][seat]
        self.free_avail = leader and not player["free_used"]
        self.escape = bool(state["options"]["leader_escape"])
        self._leader_fields: set | None = None
        if counts is None:
            counts = SeatFacts(state, board, occ, seat)
        self.facts = counts
        # the mover itself does not count on its origin: a lone figure's field differs for it alone
        here = occ.get(origin)
        self._alone = here is not None and here.get(seat) == 1
        #: enemy figures beside a lone mover on its origin (0 when it is not alone there)
        self._beside = sum(here.values()) - 1 if self._alone else 0
        self._pool: dict[str, int] | None = None
        self._locals: set[str] | None = None
        self._ways: dict | None = None
        self._payer_order: tuple[str, ...] | None = None
        self.plain: str | None = None
        #: after a full :func:`plan`: destination -> the steps its default pays from the lone mover's
        #: mana (destinations without any are left out)
        self.local_steps: dict[str, tuple[int, ...]] = {}

    @property
    def enemy_leader_fields(self) -> set[str]:
        """Fields where an enemy leader stands (only the leader-escape rule asks)."""
        if self._leader_fields is None:
            self._leader_fields = {p["leader"] for s, p in enumerate(self.state["players"])
                                   if s != self.seat and p["leader"] not in (None, OFF)}
        return self._leader_fields

    @staticmethod
    def counts(occ: dict, seat: int, state: dict, board: Board) -> SeatFacts:
        """What ``counts`` takes: the facts shared by the movers of ``seat``."""
        return SeatFacts(state, board, occ, seat)

    def entries(self, field: str) -> list[str]:
        """The neighbours of ``field`` a figure may step onto, shared by the movers of one seat: the same as
        :meth:`can_enter` except on the mover's own origin, which every search skips."""
        enter = self.facts.enter
        out = enter.get(field)
        if out is None:
            if field != OFF and self.board.kind[field] != HEX:
                out = enter[field] = self.board.adj[field]  # a TRI's neighbours are HEXes: always open
                return out
            # a HEX's (or the outside's) neighbours are TRIs or HEXes; only the TRIs can be taken
            taken = self.facts.taken
            out = [nb for nb in self.neighbours(field) if nb not in taken]
            enter[field] = out
        return out

    def blocked(self) -> set[str]:
        """The fields the mover may not leave (see :meth:`can_leave`)."""
        out = self.facts.blocked
        origin = self.origin
        if self._beside and self.board.kind[origin] == HEX:
            out = out | {origin}
        if self.escape and self.leader:
            out = {f for f in out if not self.can_leave(f)}
        return out

    def locals(self) -> set[str]:
        """The fields where :meth:`local` holds."""
        if self._locals is None:
            out = self.facts.locals
            origin = self.origin
            if self._alone and not self._beside and self.mana.get(origin, 0) > 0:
                out = out | {origin}
            self._locals = out
        return self._locals

    def own_static(self, field: str) -> int:
        """Own figures on ``field`` other than the mover."""
        here = self.occ.get(field)
        n = here.get(self.seat, 0) if here else 0
        return n - 1 if field == self.origin and n else n

    def enemies(self, field: str) -> int:
        here = self.occ.get(field)
        if not here:
            return 0
        return sum(here.values()) - here.get(self.seat, 0)

    def can_leave(self, field: str) -> bool:
        if field == OFF:
            return True
        if self.board.kind[field] != HEX or not self.enemies(field):
            return True
        if self.own_static(field) >= 1:
            return True
        # optional rule: the leader may slip away from beside one ordinary ("egyszerű") enemy figure
        if self.escape and self.leader and self.enemies(field) == 1:
            return field not in self.enemy_leader_fields
        return False

    def can_enter(self, field: str) -> bool:
        if self.board.kind[field] == HEX:
            return True
        return not self.own_static(field) and not self.enemies(field)

    def neighbours(self, field: str) -> list[str]:
        return self.board.outer if field == OFF else self.board.adj[field]

    def local(self, field: str) -> bool:
        """Mana under the lone mover that only it can spend (for the step that leaves the field)."""
        return (field != OFF and self.own_static(field) == 0 and self.enemies(field) == 0
                and self.mana.get(field, 0) > 0)

    def pool_fields(self) -> dict[str, int]:
        """Peaceful fields with mana where other own figures stand: they can pay any step of the move."""
        if self._pool is None:
            pool = self.facts.pool
            if self._alone and self.origin in pool:
                pool = dict(pool)
                del pool[self.origin]
            self._pool = pool
        return self._pool  # shared: callers copy before they change it

    def pool_ways(self, count: int, default: list[str]) -> list[list[str]]:
        """The ways to pay ``count`` steps from the pool other than the default one (see :func:`payments`:
        without the lone mover's mana, the default pays from the same fields whatever the destination, so
        the first ``default`` given stands for all; ``FREE`` entries are ignored). Shared lists: read-only."""
        cache = self._ways
        if cache is None:
            # movers with the seat's whole pool share their ways: the default of ``count`` steps pays the
            # first ``count`` fields of that pool's one default order
            cache = self._ways = self.facts.ways if self.pool_fields() is self.facts.pool else {}
        ways = cache.get(count)
        if ways is None:
            payers, caps = self._payers(count)
            key = (payers, caps, count, tuple(sorted(s for s in default if s != FREE)))
            ways = _WAYS.get(key)
            if ways is None:
                ways = [list(w) for w in _pool_ways(list(payers), dict(zip(payers, caps)), count)
                        if tuple(sorted(w)) != key[3]]
                _remember(key, ways)
            cache[count] = ways
        return ways

    def local_ways(self, count: int, default: list[str]) -> list[list[str]]:
        """:meth:`pool_ways` for moves whose default pays the first step from the mana under the lone
        mover's origin and the others from the pool (see ``LOCAL_FIRST``): the first step may take the pool
        instead; the ways in the order :func:`payments` finds them. Shared lists: read-only."""
        if self._ways is None:
            self._ways = self.facts.ways if self.pool_fields() is self.facts.pool else {}
        ways = self._ways.get(("local", count, self.origin))
        if ways is None:
            payers, caps = self._payers(count)
            origin = self.origin
            key = (payers, caps, count, tuple(sorted(default)), origin)
            ways = _WAYS.get(key)
            if ways is None:
                pool = dict(zip(payers, caps))
                ways = [list(w) for w in _pool_ways(list(payers), dict(pool), count)]
                ways += [[origin, *w] for w in _pool_ways(list(payers), dict(pool), count - 1)
                         if tuple(sorted((origin, *w))) != key[3]]
                _remember(key, ways)
            self._ways[("local", count, origin)] = ways
        return ways

    def _payers(self, count: int) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """The pool fields in board order and the mana each can give to ``count`` steps."""
        pool = self.pool_fields()
        payers = self._payer_order
        if payers is None:
            payers = self._payer_order = tuple(sorted(pool, key=self.board.order.__getitem__))
        return payers, tuple(min(pool[f], count) for f in payers)

    def source_ok(self, source: str, position: str, remaining: dict[str, int]) -> bool:
        if remaining.get(source, 0) <= 0 or self.enemies(source):
            return False
        return self.own_static(source) > 0 or source == position


#: payment ways by (payers, their mana, steps, the default's fields[, origin]): pure, so shared by every
#: position with the same pool (a playout's pool changes slowly); bounded
_WAYS: dict[tuple, list[list[str]]] = {}
_WAYS_MAX = 4096


def _remember(key: tuple, ways: list[list[str]]) -> None:
    if len(_WAYS) >= _WAYS_MAX:
        _WAYS.clear()
    _WAYS[key] = ways


def seat_counts(occ: dict, seat: int) -> tuple[dict, dict]:
    """``seat``'s figures and its enemies' figures on every occupied field."""
    own = {f: seats.get(seat, 0) for f, seats in occ.items()}
    enemies = {f: sum(seats.values()) - own[f] for f, seats in occ.items()}
    return own, enemies


def pool_sequence(pool: dict[str, int], count: int) -> list[str]:
    """The default order of paying ``count`` steps from ``pool``: most mana first, ties by name."""
    return _extend([], _heap(pool), count)


def _heap(pool: dict[str, int]) -> list[tuple[int, str]]:
    """The mana left on each field as a heap of (-mana, field): its top is the default's next field."""
    heap = [(-n, f) for f, n in pool.items() if n > 0]
    heapify(heap)
    return heap


def _extend(seq: list[str], heap: list[tuple[int, str]], count: int) -> list[str]:
    """``seq`` with ``count`` more fields of the default order (the field with the most mana left, ties by
    name), taken off the mana in ``heap`` (both change)."""
    for _ in range(count):
        neg, field = heap[0]
        seq.append(field)
        if neg < -1:
            heapreplace(heap, (neg + 1, field))
        else:
            heappop(heap)
    return seq


def sequence(mover: Mover, pool: dict[str, int], count: int) -> list[str]:
    """:func:`pool_sequence` of one of the seat's pools (a new list)."""
    return longest(mover, pool, count)[:count]


def longest(mover: Mover, pool: dict[str, int], count: int) -> list[str]:
    """The seat's kept default paying order of ``pool``, at least ``count`` long (read-only; it grows in
    place). The order for fewer steps is a prefix of the order for more (each step takes the field with the
    most mana left), so one is kept per pool and extended on demand."""
    seqs = mover.facts.seqs
    got = seqs.get(id(pool))
    if got is None:
        got = seqs[id(pool)] = (pool, [], _heap(pool))  # the pool is kept alive with it: its id stays its own
    seq = got[1]
    if len(seq) < count:
        _extend(seq, got[2], count - len(seq))
    return seq


def plan(mover: Mover) -> dict[str, tuple[list[str], list[str]]]:
    """Every destination reachable in one move -> (path including the origin, default sources)."""
    pool = mover.pool_fields()
    pool_total = sum(pool.values())
    origin = mover.origin
    blocked = mover.blocked()
    locals_ = mover.locals()
    free_avail = mover.free_avail
    if not free_avail:
        plain = _plain(mover, pool, pool_total, blocked, locals_)
        if plain is not None:
            mover.plain = LOCAL_FIRST if origin in locals_ else POOL_ONLY
            return plain
    mover.plain = None
    if free_avail and origin not in locals_:
        fast = _free_plain(mover, pool, pool_total, blocked, locals_)
        if fast is not None:
            mover.plain = FREE_POOL
            return fast
    entries = mover.entries
    enter = mover.facts.enter
    limit = pool_total + 1
    # a search state: (field, free step used, mana spent, path, sources, the steps the lone mover's mana
    # pays); the j-th step paid from the pool takes the j-th field of the pool's default order, and j is the
    # mana spent so far, so each state carries its route and its default sources
    start = (origin, False, 0, [origin], [], ())
    seq: list[str] = []
    # the fewest mana spent so far on reaching a field without / with the leader's free step used
    best_unused: dict[str, int] = {origin: 0}
    best_used: dict[str, int] = {}
    found: dict[str, tuple] = {}
    current = [start]
    depth = 0
    while current:
        nxt: list[tuple] = []
        add = nxt.append
        # states with ``depth`` steps spend at most ``depth``: the pool's order that far is enough
        if len(seq) < pool_total and len(seq) <= depth:
            seq = longest(mover, pool, min(depth + 1, pool_total))
        for key in current:
            node, used, spent, path, sources, locs = key
            if node in blocked:
                continue
            # the free step first, then the lone mover's mana (never worse than the pool), else the pool
            if node in locals_:
                n_spent, paid, n_locs = spent, sources + [node], locs + (depth,)
            elif spent < pool_total:
                n_spent, paid, n_locs = spent + 1, sources + [seq[spent]], locs
            elif used or not free_avail:
                continue  # nothing can pay another step
            else:
                n_spent = -1
            free = free_avail and not used
            if free:
                freed = sources + [FREE]
            onward = enter.get(node)
            for nb in (onward if onward is not None else entries(node)):
                if nb == origin:
                    continue
                low = best_unused.get(nb, limit)
                if free and low > spent and best_used.get(nb, limit) > spent:
                    best_used[nb] = spent
                    add((nb, True, spent, path + [nb], freed, locs))
                if n_spent < 0 or low <= n_spent:
                    continue
                if used:
                    if best_used.get(nb, limit) <= n_spent:
                        continue
                    best_used[nb] = n_spent
                else:
                    best_unused[nb] = n_spent
                add((nb, used, n_spent, path + [nb], paid, n_locs))
        # a field's route is the first layer's best state there: the free step used, then the least mana
        layer: dict[str, tuple] = {}
        for key in nxt:
            node = key[0]
            if node in found:
                continue
            have = layer.get(node)
            if have is None or (key[1] and not have[1]) or (key[1] == have[1] and key[2] < have[2]):
                layer[node] = key
        found.update(layer)
        current = nxt
        depth += 1
    if not found:
        return {}
    out = {}
    local_steps = mover.local_steps = {}
    for dest in sorted(found, key=mover.board.order.__getitem__):
        _, _, _, path, sources, locs = found[dest]
        out[dest] = (path, sources)
        if locs:
            local_steps[dest] = locs
    return out


def _plain(mover: Mover, pool: dict[str, int], pool_total: int, blocked: set[str],
           locals_: set[str]) -> dict | None:
    """:func:`plan` when each step has one price: no free step, and no lone mover's mana on the way except
    perhaps under the mover at its origin (it pays the first step, the pool every later one). Then the
    mana spent grows with every step after the first, so the search is a breadth-first search, the first
    path found to each field kept. None when the search meets mana under an empty field (a cheaper, longer
    path may then exist: :func:`plan` searches in full)."""
    origin = mover.origin
    local = origin in locals_
    others = len(locals_) > local
    entries = mover.entries
    enter = mover.facts.enter
    paths: dict[str, list[str]] = {origin: [origin]}
    frontier = [origin]
    depth = steps = 0
    reach = pool_total + (1 if local else 0)
    while frontier and depth < reach:
        depth += 1
        nxt = []
        for node in frontier:
            if node in blocked:
                continue
            here = paths[node]
            onward = enter.get(node)
            for nb in (onward if onward is not None else entries(node)):
                if nb not in paths:
                    if others and nb in locals_:
                        return None
                    paths[nb] = here + [nb]
                    nxt.append(nb)
        if nxt:
            steps = depth
        frontier = nxt
    if not steps:
        return {}
    del paths[origin]
    if local:
        seq = [origin] + sequence(mover, pool, steps - 1)
    else:
        seq = sequence(mover, pool, steps)
    # the default sources of a move of k steps: the first k of seq (one list per length, read-only)
    prefix = [seq[:k] for k in range(steps + 1)]
    return {dest: (paths[dest], prefix[len(paths[dest]) - 1])
            for dest in sorted(paths, key=mover.board.order.__getitem__)}


def _free_plain(mover: Mover, pool: dict[str, int], pool_total: int, blocked: set[str],
                locals_: set[str]) -> dict | None:
    """:func:`plan` for a leader with his free step and no lone mover's mana on the way (None when the
    search meets some: :func:`plan` then searches in full). Every step but the free one costs 1, so a
    search state is (field, free step used) with the mana spent fixed by the depth; each state is reached
    at most once, and the states, parents and preferences are those of the full search. A state carries
    its path and default sources (the j-th step paid from the pool takes the j-th field of its order)."""
    origin = mover.origin
    entries = mover.entries
    enter = mover.facts.enter
    unused_at: dict[str, int] = {origin: 0}          # depth at which a field was reached, free step unused
    used_seen: set[str] = set()                      # fields reached with the free step used
    found: dict[str, tuple] = {}                     # field -> its first layer's state, free step used first
    current = [(origin, False, [origin], [])]
    seq: list[str] = []
    depth = 0
    while current:
        depth += 1
        if len(seq) < pool_total and len(seq) < depth:
            seq = longest(mover, pool, min(depth, pool_total))
        nxt = []
        add = nxt.append
        for node, used, path, sources in current:
            if node in blocked:
                continue
            spent = depth - 1 - used          # mana spent on reaching ``node``
            pay = spent < pool_total
            if used and not pay:
                continue
            if pay:
                paid = sources + [seq[spent]]
            if not used:
                freed = sources + [FREE]
            onward = enter.get(node)
            for nb in (onward if onward is not None else entries(node)):
                if nb == origin:
                    continue
                if locals_ and nb in locals_:
                    return None
                if not used:
                    # the free step first (as the full search tries it first), then the pool
                    if nb not in used_seen and unused_at.get(nb, depth) >= depth:
                        used_seen.add(nb)
                        add((nb, True, path + [nb], freed))
                    if pay and nb not in unused_at:
                        unused_at[nb] = depth
                        add((nb, False, path + [nb], paid))
                elif nb not in used_seen and unused_at.get(nb, depth) >= depth:
                    used_seen.add(nb)
                    add((nb, True, path + [nb], paid))
        layer: dict[str, tuple] = {}
        for key in nxt:
            node = key[0]
            if node in found:
                continue
            if key[1] or node not in layer:
                layer[node] = key
        found.update(layer)
        current = nxt
    if not found:
        return {}
    out = {}
    for dest in sorted(found, key=mover.board.order.__getitem__):
        key = found[dest]
        out[dest] = (key[2], key[3])
    return out


def check(mover: Mover, dest: str, sources: list[str], listed: bool = False) -> list[str]:
    """The path that moves the figure to ``dest`` paying step i from ``sources[i]``; IllegalAction if none.
    ``listed``: the sources of an action listed as legal for this very position, which skips the tests
    that only a hand-made action can fail."""
    board = mover.board
    if not listed:
        if not sources:
            raise IllegalAction("A move needs at least one step.")
        if sources.count(FREE) > 1:
            raise IllegalAction("The leader has only one free step per movement phase.")
        if FREE in sources and not mover.leader:
            raise IllegalAction("Only the leader has a free step.")
        if FREE in sources and not mover.free_avail:
            raise IllegalAction("Your leader has already taken his free step this round.")
        for source in sources:
            if source == FREE:
                continue
            if source not in board.kind:
                raise IllegalAction(f"There is no field {source} to take mana from.")
            if sources.count(source) > mover.mana.get(source, 0):
                have = mover.mana.get(source, 0)
                raise IllegalAction(f"{source} holds only {have} mana, not {sources.count(source)}.")
            if mover.enemies(source):
                raise IllegalAction(f"You may not take mana from {source}: only fields where your figures stand "
                                    f"alone give you mana.")
    # mana left on each step's own source just before that step
    left_at: list[int] = []
    taken: dict[str, int] = {}
    for source in sources:
        if source == FREE:
            left_at.append(0)
            continue
        left_at.append(mover.mana.get(source, 0) - taken.get(source, 0))
        taken[source] = taken.get(source, 0) + 1
    layer = {mover.origin: None}
    parents: list[dict[str, str | None]] = [layer]
    blocked = mover.blocked()  # the fields can_leave refuses
    can_enter, neighbours = mover.can_enter, mover.neighbours
    steps: dict[str, list[str]] = {}  # field -> the neighbours the mover may enter (fields recur by layer)
    beside_origin = set(neighbours(mover.origin))
    for i, source in enumerate(sources):
        nxt: dict[str, str | None] = {}
        paid = source != FREE
        if paid:
            # Mover.source_ok: mana left there, no enemies, and own figures stay there or the mover stands there
            usable = left_at[i] > 0 and not mover.enemies(source)
            anywhere = mover.own_static(source) > 0
        for node in layer:
            if node in blocked:
                continue
            if paid and not (usable and (anywhere or source == node)):
                continue
            onward = steps.get(node)
            if onward is None:
                if node in beside_origin:
                    onward = [nb for nb in neighbours(node) if can_enter(nb)]
                else:
                    onward = mover.entries(node)  # the same except on the origin, not among them
                steps[node] = onward
            for nb in onward:
                if nb not in nxt:
                    nxt[nb] = node
        parents.append(nxt)
        layer = nxt
        if not layer:
            break
    if dest not in layer or dest == mover.origin:
        raise IllegalAction(f"Your figure cannot reach {dest} in {len(sources)} step(s) paid from those fields: "
                            f"each step is paid, before it is taken, from a peaceful field where your "
                            f"figures stand.")
    path = [dest]
    for i in range(len(sources), 0, -1):
        path.append(parents[i][path[-1]])
    path.reverse()
    return path


__all__ = ["FREE", "OFF", "HEX", "TRI", "Mover", "check", "plan", "pool_sequence"]


def payments(mover: Mover, path: list[str], sources: list[str]) -> list[list[str]]:
    """Every way to pay the move along ``path`` that differs in which fields give how much mana: the
    default ``sources`` first, then the others (the free step stays where the default takes it).

    Step i may be paid from any peaceful field where other own figures stand, or from the mana under the
    lone mover where it stands before that step; two ways that take the same mana from the same fields
    are one way."""
    pool = mover.pool_fields()
    locals_ = mover.locals()
    free = FREE in sources
    steps = [i for i, s in enumerate(sources) if s != FREE] if free else range(len(sources))
    local = {i: path[i] for i in steps if path[i] in locals_} if locals_ else None
    if not local:
        if len(pool) <= 1:
            return [list(sources)]  # one field pays every step (or none is paid): the default is the only way
        # only pool fields pay: the ways are the multisets of payers (the default's excluded), in the order
        # the general search below finds them; they depend on the number of paid steps alone
        others = mover.pool_ways(len(steps), sources)
        if not free:
            return [list(sources)] + others
        return [list(sources)] + [ordered(sources, steps, c) for c in others]
    if len(local) == 1 and 0 in local:
        # only the first step may take the mana under the lone mover: the ways of LOCAL_FIRST moves
        others = mover.local_ways(len(steps), [sources[i] for i in steps])
        if not free:
            return [list(sources)] + others
        return [list(sources)] + [ordered(sources, steps, c) for c in others]
    count = len(steps)
    payers, caps = mover._payers(count)
    spots = tuple(local.get(i) for i in steps)       # per paid step: the lone mover's mana there, if any
    mana = mover.mana
    key = ("any", payers, caps, spots, tuple(min(mana.get(f, 0), count) for f in local.values()),
           tuple(sorted(s for s in sources if s != FREE)))
    chosen = _WAYS.get(key)
    if chosen is None:
        chosen = _any_ways(payers, caps, spots, key[4], key[5])
        _remember(key, chosen)
    return [list(sources)] + [ordered(sources, steps, c) for c in chosen]


def _any_ways(payers: tuple[str, ...], caps: tuple[int, ...], spots: tuple[str | None, ...],
              spot_caps: tuple[int, ...], default: tuple[str, ...]) -> list[list[str]]:
    """:func:`payments`' general search: for paid step k, any payer from the last one chosen on, or the
    lone mover's mana at ``spots[k]``; one way per multiset of fields (the default's excluded), in search
    order."""
    pool = dict(zip(payers, caps))
    left = dict(pool)
    for field, cap in zip((f for f in spots if f is not None), spot_caps):
        left[field] = cap
    seen = {default}
    out: list[list[str]] = []
    count = len(spots)

    def place(k: int, chosen: list[str], first: int) -> None:
        if k == count:
            key = tuple(sorted(chosen))
            if key not in seen:
                seen.add(key)
                out.append(chosen)
            return
        spot = spots[k]
        options = list(payers[first:]) + ([spot] if spot is not None and left.get(spot, 0) > 0 else [])
        for j, field in enumerate(options):
            if left.get(field, 0) <= 0:
                continue
            left[field] -= 1
            place(k + 1, chosen + [field], first + j if field in pool else first)
            left[field] += 1

    place(0, [], 0)
    return out


def _pool_ways(payers: list[str], left: dict[str, int], count: int) -> list[tuple[str, ...]]:
    """Every multiset of ``count`` payers within their mana, as tuples in payer order, in lexicographic
    order of payer positions."""
    out: list[tuple[str, ...]] = []

    def place(k: int, chosen: tuple, first: int) -> None:
        if k == count:
            out.append(chosen)
            return
        for j in range(first, len(payers)):
            field = payers[j]
            if left[field] <= 0:
                continue
            left[field] -= 1
            place(k + 1, chosen + (field,), j)
            left[field] += 1

    place(0, (), 0)
    return out


def ordered(sources: list[str], steps: list[int], chosen: list[str]) -> list[str]:
    """``chosen`` (one per paid step, in step order) put into the paid steps of ``sources``."""
    out = list(sources)
    for i, field in zip(steps, chosen):
        out[i] = field
    return out
