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

And the ways to pay one move, never all of them at once (with mana piled up on many fields a move of twenty
steps can be paid in millions of ways): :func:`payment` says what each field could give to the move along its
path, :meth:`Payment.has_choice` whether there is more than one way (a constant-time test), and
:meth:`Payment.ways` lists at most ``limit`` of them, the most useful first.
"""

from __future__ import annotations

from collections.abc import Iterator
from heapq import heapify, heappop, heapreplace

from engines.protocol import IllegalAction

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


class Mover:
    """Everything about the board that matters to one figure's move, seen by that figure's owner."""

    # a few are made per legal-action listing: slots make them cheaper to build and to read
    __slots__ = ("state", "board", "occ", "seat", "origin", "leader", "mana", "free_avail", "escape",
                 "_leader_fields", "facts", "_alone", "_beside", "_pool", "_locals", "_reach",
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
        self._beside = sum(here.values()) - 1 if here is not None and self._alone else 0
        self._pool: dict[str, int] | None = None
        self._locals: set[str] | None = None
        #: steps -> the most mana the pool can give a move of that many paid steps (see :meth:`pool_reach`)
        self._reach: dict[int, int] = {}
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

    def pool_reach(self, count: int) -> int:
        """The most mana the pool can give a move of ``count`` paid steps (each field at most its mana)."""
        got = self._reach.get(count)
        if got is None:
            got = self._reach[count] = sum(n if n < count else count for n in self.pool_fields().values())
        return got

    def source_ok(self, source: str, position: str, remaining: dict[str, int]) -> bool:
        if remaining.get(source, 0) <= 0 or self.enemies(source):
            return False
        return self.own_static(source) > 0 or source == position


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
    found = _search(mover, pool, pool_total, blocked, locals_)
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


def _first_best(nxt: list[tuple], found: dict[str, tuple]) -> dict[str, tuple]:
    """A field's route is the first layer's best state there: the free step used, then the least mana."""
    layer: dict[str, tuple] = {}
    for key in nxt:
        node = key[0]
        if node in found:
            continue
        have = layer.get(node)
        if have is None or (key[1] and not have[1]) or (key[1] == have[1] and key[2] < have[2]):
            layer[node] = key
    return layer


def _search(mover: Mover, pool: dict[str, int], pool_total: int, blocked: set[str],
            locals_: set[str]) -> dict[str, tuple]:
    """The general move search (free step and lone-mover mana mixed with the pool): destination -> its
    search state (field, free step used, mana spent, path, sources, the steps the lone mover's mana pays)."""
    origin = mover.origin
    free_avail = mover.free_avail
    entries = mover.entries
    enter = mover.facts.enter
    limit = pool_total + 1
    # a search state: (field, free step used, mana spent, path, sources, the steps the lone mover's mana
    # pays); the j-th step paid from the pool takes the j-th field of the pool's default order, and j is the
    # mana spent so far, so each state carries its route and its default sources
    start: tuple = (origin, False, 0, [origin], [], ())
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
        found.update(_first_best(nxt, found))
        current = nxt
        depth += 1
    return found


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
    current: list[tuple] = [(origin, False, [origin], [])]
    seq: list[str] = []
    depth = 0
    while current:
        depth += 1
        if len(seq) < pool_total and len(seq) < depth:
            seq = longest(mover, pool, min(depth, pool_total))
        nxt: list[tuple] = []
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
    if not listed:
        _check_sources(mover, sources)
    layer, parents = _step_layers(mover, sources)
    if dest not in layer or dest == mover.origin:
        raise IllegalAction(f"Your figure cannot reach {dest} in {len(sources)} step(s) paid from those fields: "
                            f"each step is paid, before it is taken, from a peaceful field where your "
                            f"figures stand.")
    path = [dest]
    for i in range(len(sources), 0, -1):
        step_from = parents[i][path[-1]]
        assert step_from is not None  # only the origin's entry is None, and it begins the path
        path.append(step_from)
    path.reverse()
    return path


def _check_sources(mover: Mover, sources: list[str]) -> None:
    """The tests a hand-made action can fail: a free step only the leader's and once, mana where it is taken."""
    board = mover.board
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


def _step_layers(mover: Mover, sources: list[str]) -> tuple[dict[str, str | None], list[dict[str, str | None]]]:
    """Breadth first, one layer per paid step: (the last layer, every layer as field -> the field before)."""
    # mana left on each step's own source just before that step
    left_at: list[int] = []
    taken: dict[str, int] = {}
    for source in sources:
        if source == FREE:
            left_at.append(0)
            continue
        left_at.append(mover.mana.get(source, 0) - taken.get(source, 0))
        taken[source] = taken.get(source, 0) + 1
    layer: dict[str, str | None] = {mover.origin: None}
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
    return layer, parents


__all__ = ["FREE", "OFF", "HEX", "TRI", "Mover", "Payment", "check", "payment", "plan", "pool_sequence"]


# ------------------------------------------------------------------------------------------ ways to pay

def has_choice(count: int, caps: list[int] | tuple[int, ...] | None = None, *, fields: int = 0,
               total: int = 0) -> bool:
    """Whether ``count`` paid steps can be paid in more than one way (ways that take the same mana from the
    same fields are one way) when field i may give at most ``caps[i]`` (or: ``fields`` fields with a positive
    cap, ``total`` between them). The ways are the whole-number vectors under the caps that sum to
    ``count``; there is only one exactly when nothing is paid, when every field gives all it can, or when
    one field alone can give anything (else a unit can move from a field that gives to one that could give
    more)."""
    if caps is not None:
        fields = sum(1 for c in caps if c > 0)
        total = sum(caps)
    return count > 0 and fields >= 2 and total > count


class Payment:
    """What each field could give to one move along one path: the paid steps (the leader's free step stays
    where the default takes it), the steps that only the mana under the lone mover could pay (``spots``:
    step -> that field; he stands there alone before the step), and each paying field's most for this move
    (``caps``: a pool field up to its mana, a spot up to its steps). Any amounts under the caps that add up to
    the paid steps are a way to pay: pool fields pay any step, so the spots' steps they do not pay are paid
    from the pool."""

    __slots__ = ("mover", "sources", "steps", "spots", "caps", "fields")

    def __init__(self, mover: Mover, path: list[str], sources: list[str]) -> None:
        self.mover = mover
        self.sources = list(sources)
        self.steps = [i for i, s in enumerate(sources) if s != FREE]
        count = len(self.steps)
        locals_ = mover.locals()
        self.spots = {i: path[i] for i in self.steps if path[i] in locals_} if locals_ else {}
        caps = {f: min(n, count) for f, n in mover.pool_fields().items()}
        mana = mover.mana
        for f in self.spots.values():
            caps[f] = min(caps.get(f, 0) + 1, mana.get(f, 0))
        self.caps = caps
        #: the paying fields in board order (the order ways are searched and shown in)
        self.fields = sorted(caps, key=mover.board.order.__getitem__)

    def has_choice(self) -> bool:
        return has_choice(len(self.steps), list(self.caps.values()))

    def amounts(self, sources: list[str]) -> dict[str, int]:
        """How much each field gives in ``sources`` (the free step left out)."""
        out: dict[str, int] = {}
        for s in sources:
            if s != FREE:
                out[s] = out.get(s, 0) + 1
        return out

    def sources_of(self, amounts: dict[str, int]) -> list[str]:
        """One list of sources (one per step, the free step where the default has it) that takes
        ``amounts``: each spot pays its own step first, the pool fields the other steps, the default's
        fields first."""
        out = list(self.sources)
        left = {f: n for f, n in amounts.items() if n > 0}
        pooled = []
        for i in self.steps:
            f = self.spots.get(i)
            if f is not None and left.get(f, 0) > 0:
                out[i] = f
                left[f] -= 1
            else:
                pooled.append(i)
        order = list(dict.fromkeys(s for s in self.sources if s != FREE and s in left))
        order += [f for f in self.fields if f not in order]
        units = [f for f in order for _ in range(left.get(f, 0))]
        for i, f in zip(pooled, units):
            out[i] = f
        return out

    def _fill(self, fixed: dict[str, int], count: int) -> dict[str, int] | None:
        """``fixed`` and ``count`` more units by the default rule among the other fields: the spots first
        (their mana stays behind otherwise), then the pool field with the most mana left, ties by name;
        None when the other fields cannot give that much."""
        out = dict(fixed)
        for i in self.steps:
            f = self.spots.get(i)
            if count and f is not None and f not in fixed and out.get(f, 0) < self.caps[f]:
                out[f] = out.get(f, 0) + 1
                count -= 1
        if count:
            pool = self.mover.pool_fields()
            heap = [(-n, f) for f, n in pool.items() if f not in fixed and n > 0]
            heapify(heap)
            while count and heap:
                neg, f = heap[0]
                out[f] = out.get(f, 0) + 1
                count -= 1
                if neg < -1:
                    heapreplace(heap, (neg + 1, f))
                else:
                    heappop(heap)
        return None if count else out

    def _every(self) -> Iterator[dict[str, int]]:
        """Every way, lazily: the fields in board order, each giving as much as it can first."""
        fields, caps = self.fields, self.caps
        after = [0] * (len(fields) + 1)  # what the fields from i on can give together
        for i in range(len(fields) - 1, -1, -1):
            after[i] = after[i + 1] + caps[fields[i]]
        chosen: dict[str, int] = {}

        def place(i: int, count: int) -> Iterator[dict[str, int]]:
            if i == len(fields):
                if not count:
                    yield {f: n for f, n in chosen.items() if n}
                return
            f = fields[i]
            for n in range(min(caps[f], count), max(0, count - after[i + 1]) - 1, -1):
                chosen[f] = n
                yield from place(i + 1, count - n)
            chosen.pop(f, None)

        return place(0, len(self.steps))

    def ways(self, limit: int) -> list[list[str]]:
        """At most ``limit`` ways to pay (lists of sources, one per step), each taking different mana from
        the fields: the default first; then, per paying field in board order, the way that takes the most
        from it and the way that spares it most (the rest by the default rule); then any others, in a fixed
        order, until ``limit``. Only as many are worked out as are returned."""
        if limit <= 0:
            return []
        out = [list(self.sources)]
        seen = {tuple(sorted(self.amounts(self.sources).items()))}
        if not self.has_choice():
            return out
        count = len(self.steps)
        total = sum(self.caps.values())

        def add(amounts: dict[str, int] | None) -> bool:
            if amounts is not None:
                key = tuple(sorted((f, n) for f, n in amounts.items() if n))
                if key not in seen:
                    seen.add(key)
                    out.append(self.sources_of(amounts))
            return len(out) >= limit

        for f in self.fields:
            cap = self.caps[f]
            most = min(cap, count)
            if add(self._fill({f: most}, count - most)):
                return out
            least = max(0, count - (total - cap))
            if add(self._fill({f: least}, count - least)):
                return out
        for amounts in self._every():
            if add(amounts):
                break
        return out


def payment(mover: Mover, path: list[str], sources: list[str]) -> Payment:
    """The :class:`Payment` of the move along ``path`` whose default sources are ``sources``."""
    return Payment(mover, path, sources)

