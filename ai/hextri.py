"""A HEX-TRI player that plays for a decision: it builds an economy, spends its mana to bring its army
forward, fights the battles it can win, closes rings around an enemy leader and attacks him, and keeps its
own leader out of reach.

It reads only ``engine.view(state, None)`` (HEX-TRI has perfect information) and the legal moves. Every move
is first given a cheap score from what changes on its two fields; the most promising ones (and every move
near a leader) are then scored properly: the position after the move is judged as if the movement phase
ended there - the battles and encirclements the combat phase would bring, with their dead leaders - plus the
economy and how close each leader is to falling. A move must improve that judgement by more than a little
to be made; otherwise the AI passes.

How close a leader is to falling, ``_Position.moves_to_kill``: the fewest enemy moves (one figure each) that
would leave him dead if the phase then ended - outnumbering him on his HEX, or holding every field around
him (his HEX's six TRIs, or his inner TRI's three HEXes) - counting only enemy figures that can get there
this phase with the enemy's mana. Encirclement follows the game's rules version: from version 2 (the book) a
region of a player's fields is open only through an empty entry TRI, so the rim is no refuge; in games begun
under version 1 a leader on a rim TRI cannot be reached at all, and the AI sends its leader there only when
he is in danger (a leader who sits on the rim for good makes a game that nobody can win).

Paying: the engine lists each figure's destinations once, paid the default way (the most mana first; the
other ways are only worked out on request, ``engine.variants``, and never by the AI); the AI judges each
destination and pays it the default way.

Battle losses: the leader is never chosen as a loss.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterator
from functools import lru_cache

from engines.hextri import combat
from engines.hextri.board import board

GAME = "hextri"

OFF = "off"
INF = 99

WIN = 10_000.0          # a fallen enemy leader (our own: minus)
ON_BOARD = 10.0         # a figure on the board ...
WAITING = 4.0           # ... one waiting off the board, free to enter ...
RESTING = 2.0           # ... one removed in a battle, sitting out a round
HORIZON = 6             # rounds of production a figure on a peaceful HEX is credited with
ADVANCE = 0.5           # per step a figure stands nearer the enemy leader
ESCORT = 1.0            # per figure within two steps of our own leader
# what a leader K enemy moves away from falling costs its owner (for an enemy leader: is worth to us)
PIN = 2.5               # "moves to kill" of a lone leader one enemy figure could pin (see _moves_to_kill)
PIN_LATER = 3.5         # ... that the enemy could pin next round
DANGER = {1: 400.0, 2: 140.0, PIN: 40.0, 3: 40.0, PIN_LATER: 30.0, 4: 10.0}
PRESSURE = 0.6          # an enemy leader's danger, as a share of the table above
ANSWERABLE = 0.35       # ... when his owner can answer every attacker with a defender of his own
CAN_FLEE = 0.6          # ... when he can still step away this phase
PINNED = 20.0           # our leader alone on a HEX with enemies: he cannot step away
ROOM = 0.5              # per step (up to 4) between our lone leader and the nearest enemy figure
SPACE = 2.0             # per step between our entering leader and the nearest enemy figure
HIDING = 15.0           # our leader sitting on a rim TRI
GUARD = 3.0             # per escort (up to 2) on our leader's HEX
MIN_GAIN = 0.5          # a move must be worth more than this, else the AI passes
DEEP = 24               # moves scored properly (besides those near a leader)


def distinct_moves(actions: list[dict]) -> list[dict]:
    """The moves among ``actions``: the engine lists each (from, to, leader) once, paid the default way."""
    return [a for a in actions if a["type"] == "move"]


def choose(engine, state, seat: int, rng) -> dict:
    actions = engine.legal_actions(state, seat)
    if actions[0]["type"] == "losses":
        return next(a for a in actions if not a["leader"])
    moves = distinct_moves(actions)
    if not moves:
        return {"type": "pass"}
    pos = _Position(engine.view(state, None), seat)
    base = pos.value()
    quick = sorted(((pos.quick(a), i) for i, a in enumerate(moves)), reverse=True)
    chosen = {i for _, i in quick[:DEEP]}
    # and the moves around the leaders, whatever their first look: our leader's nearby steps and refuges,
    # the cheapest figure onto each field beside a leader
    cheapest: dict[str, tuple[int, int]] = {}
    for _, i in quick:
        a = moves[i]
        if a["leader"]:
            if pos.leader_candidate(a):
                chosen.add(i)
        elif pos.beside_leader(a["to"]) and (a["to"] not in cheapest or a["cost"] < cheapest[a["to"]][0]):
            cheapest[a["to"]] = (a["cost"], i)
    chosen |= {i for _, i in cheapest.values()}
    best, best_score = [], MIN_GAIN
    for i in sorted(chosen):
        score = pos.value(moves[i]) - base
        if score > best_score + 1e-9:
            best, best_score = [moves[i]], score
        elif score >= best_score - 1e-9 and best:
            best.append(moves[i])
    if not best:
        return {"type": "pass"}
    # equal moves are picked at random, so that the AI does not always take the first field by name
    return best[0] if len(best) == 1 else rng.choice(best)


# ------------------------------------------------------------------------------------------ board data

class _Geometry:
    """Step distances between all fields (ignoring who stands where) and from off the board."""

    def __init__(self, radius: int) -> None:
        b = board(radius)
        self.board = b
        self.dist: dict[str, dict[str, int]] = {}
        for f in b.fields:
            d = {f: 0}
            queue = deque([f])
            while queue:
                x = queue.popleft()
                for y in b.adj[x]:
                    if y not in d:
                        d[y] = d[x] + 1
                        queue.append(y)
            self.dist[f] = d
        self.dist[OFF] = {f: 1 + min(self.dist[o][f] for o in b.outer) for f in b.fields}
        self.near2 = {f: [g for g, k in self.dist[f].items() if 0 < k <= 2] for f in b.fields}


@lru_cache(maxsize=8)
def _geometry(radius: int) -> _Geometry:
    return _Geometry(radius)


def _utility(mana: float) -> float:
    """What a stock of mana is worth: the first few are precious, hundreds hardly matter."""
    return 12.0 * math.log1p(max(mana, 0.0) / 4.0)


def _marginal(mana: float) -> float:
    return 12.0 / (4.0 + max(mana, 0.0))


# ------------------------------------------------------------------------------------------ judging

class _Position:
    """The public view, seen from ``seat``, and the judgement of the position after one move."""

    def __init__(self, view: dict, seat: int) -> None:
        self.seat = seat
        self.geo = _geometry(view["radius"])
        self.board = self.geo.board
        # version 1's withdrawn reading: a group reaching any rim TRI is safe
        self.rim_rule = view.get("rules_version", 1) == 1
        self.occ: dict[str, dict[int, int]] = {}
        for p in view["pieces"]:
            self.occ.setdefault(p["field"], {})[p["seat"]] = p["count"]
        self.players = {p["seat"]: p for p in view["players"]}
        self.alive = [s for s, p in self.players.items() if p["alive"]]
        self.leaders = {s: self.players[s]["leader"] for s in self.alive}
        self.enemies = [s for s in self.alive if s != seat]
        self.enemy_weight = 1.0 / max(1, len(self.enemies))
        self.mana = {s: self.players[s]["mana"] for s in self.alive}
        self.loose = view["mana"]
        self.moving = view["phase"] == "move"
        limit = view["round_limit"]
        self.rounds_left = (limit - view["round"] + 1) if limit else 30
        self.horizon = min(HORIZON, self.rounds_left)
        # the enemy leader we go for: the nearest one on the board
        # next round's order of play (the first player passes one seat on each round)
        first = view["first"]
        n = view["num_players"]
        ahead = [(first + k) % n for k in range(1, n + 1)]
        start = next((x for x in ahead if x in self.alive), first)
        self.next_order = [x for x in ((start + k) % n for k in range(n)) if x in self.alive]
        self._reach_cache: dict[tuple, int] = {}
        self._rings: dict | None = None     # the position's cut fields, see _caught
        self._rings_board: dict = {}
        self.target = None
        mine = self.leaders.get(seat)
        on_board = [f for s, f in self.leaders.items() if s != seat and f not in (None, OFF)]
        if on_board:
            self.target = min(on_board, key=lambda f: (self.geo.dist[mine][f] if mine not in (None, OFF)
                                                      else 0, f))

    # -- cheap first look ------------------------------------------------------------------------------

    def quick(self, a: dict) -> float:
        """A rough score from what changes on the move's two fields (production, entering, the mana,
        getting nearer the target, a battle there)."""
        b, me = self.board, self.seat
        src, dst = a["from"], a["to"]
        s = _utility(self.mana[me] - a["cost"]) - _utility(self.mana[me])
        prod = self._production_value(me)
        if src == OFF:
            s += ON_BOARD - WAITING
        else:
            here = self.occ.get(src, {})
            n = here.get(me, 0)
            if b.kind[src] == "hex" and len(here) == 1:
                s -= (min(n, b.value[src]) - min(n - 1, b.value[src])) * prod
        there = self.occ.get(dst, {})
        m = there.get(me, 0)
        if b.kind[dst] == "hex":
            foes = sum(k for x, k in there.items() if x != me)
            if not foes:
                s += (min(m + 1, b.value[dst]) - min(m, b.value[dst])) * prod
            else:
                s += 2.0 if m + 1 > foes else (-3.0 if m + 1 < foes else 0.5)
        if a["leader"] and src == OFF:
            s += self._entry_space(dst)
        if self.target and not a["leader"]:
            d = self.geo.dist
            before = d[src][self.target] if src != OFF else d[OFF][self.target]
            s += ADVANCE * (min(before, 8) - min(d[dst][self.target], 8))
        return s

    def _entry_space(self, dst: str) -> float:
        """Our leader enters far from the enemy: next to him he can be shut in or chased from the start."""
        dist = self.geo.dist[dst]
        near = min((dist[f] for f, d in self.occ.items() if any(x != self.seat for x in d)), default=12)
        return SPACE * min(near, 12)

    def leader_candidate(self, a: dict) -> bool:
        """Our leader's moves worth a proper look: a step or two, onto a HEX of ours, onto an enemy leader,
        or to one of the nearest rim TRIs."""
        b, src, dst = self.board, a["from"], a["to"]
        if src == OFF:
            return b.kind[dst] == "tri"
        d = self.geo.dist[src][dst]
        if d <= 2 or dst in self.leaders.values():
            return True
        here = self.occ.get(dst, {})
        if b.kind[dst] == "hex":
            return self.seat in here and len(here) == 1
        return self.rim_rule and dst in b.rim and d <= 4

    def beside_leader(self, field: str) -> bool:
        for f in self.leaders.values():
            if f not in (None, OFF) and self.geo.dist[f][field] <= 1:
                return True
        return False

    # -- the judgement ---------------------------------------------------------------------------------

    def value(self, a: dict | None = None) -> float:
        """The position after move ``a`` (None: as it is), from our seat's side."""
        score = 0.0
        occ, leaders, mana = self.occ, self.leaders, dict(self.mana)
        waiting: dict[int, int] = {}
        if a is not None:
            occ, leaders, score = self._moved(a, mana, waiting)
        score = self._economy(score, occ, mana)
        # the combat phase, as if everybody passed now
        after, dead, removed = self._combat(occ, leaders, None if a is None else (a["from"], a["to"]))
        score = self._figures(score, after, dead, removed, waiting)
        score = self._dangers(score, occ, leaders, mana, dead)
        return self._army(score, occ, leaders)

    def _moved(self, a: dict, mana: dict, waiting: dict) -> tuple[dict, dict, float]:
        """The board and leaders after our move ``a``, and the score of a leader's entry; ``mana`` and
        ``waiting`` are changed in place (mana taken out of reach, frozen, gained, paid)."""
        me, score, leaders = self.seat, 0.0, self.leaders
        occ = {f: d for f, d in self.occ.items()}
        src, dst = a["from"], a["to"]
        if src != OFF:
            here = dict(occ[src])
            here[me] -= 1
            if not here[me]:
                del here[me]
                # a field we leave empty takes its mana out of our reach
                if len(occ[src]) == 1:
                    mana[me] -= self.loose.get(src, 0)
            if here:
                occ[src] = here
            else:
                del occ[src]
        else:
            waiting[me] = -1
        there = dict(occ.get(dst, {}))
        if not there and self.loose.get(dst):
            mana[me] += self.loose[dst]  # loose mana on a field we now hold alone
        elif len(there) == 1 and me not in there:
            (owner,) = there
            mana[owner] -= self.loose.get(dst, 0)  # his mana there is frozen while we contest it
        there[me] = there.get(me, 0) + 1
        occ[dst] = there
        mana[me] -= a["cost"]
        if a["leader"]:
            leaders = {**leaders, me: dst}
            if src == OFF:
                score += self._entry_space(dst)
        return occ, leaders, score

    def _weight(self, s: int) -> float:
        """How a seat's gain counts for us: ours fully, an enemy's against us, shared among the enemies."""
        return 1.0 if s == self.seat else -self.enemy_weight

    def _economy(self, score: float, occ: dict, mana: dict) -> float:
        """``score`` plus the economy before the combat phase: production this round and the mana stock."""
        for s in self.alive:
            produced = self._production(occ, s) * self._production_value(s)
            score += self._weight(s) * (produced + _utility(mana[s]))
        return score

    def _figures(self, score: float, after: dict, dead: set[int], removed: dict, waiting: dict) -> float:
        """``score`` plus the fallen leaders and every living seat's figures after the combat phase."""
        me = self.seat
        if me in dead:
            score -= WIN
        if dead - {me}:
            score += WIN  # two players: the game; more: first blood (or one rival fewer)
        for s in self.alive:
            if s in dead and s != me:
                continue
            on = sum(d.get(s, 0) for d in after.values())
            wait = self.players[s]["waiting"] + waiting.get(s, 0)
            score += self._weight(s) * (ON_BOARD * on + WAITING * wait + RESTING * removed.get(s, 0))
        return score

    def _dangers(self, score: float, occ: dict, leaders: dict, mana: dict, dead: set[int]) -> float:
        """``score`` plus the leaders in danger (judged on the board before combat: what the rest of the
        phase can bring): ours against us, the enemies' as pressure."""
        for s in self.alive:
            if s in dead:
                continue
            k, answerable, can_flee = self._moves_to_kill(occ, leaders, s, mana)
            if k in DANGER:
                d = DANGER[k] * (ANSWERABLE if answerable else 1.0) * (CAN_FLEE if can_flee else 1.0)
                score += -d if s == self.seat else d * PRESSURE * self.enemy_weight
        return score

    def _army(self, score: float, occ: dict, leaders: dict) -> float:
        """``score`` plus the army's stand: forward towards the target, and some of it near our own leader."""
        me = self.seat
        mine_at = leaders.get(me)
        dist = self.geo.dist
        if mine_at not in (None, OFF):
            score = self._guard(score, occ, mine_at)
        for f, d in occ.items():
            n = d.get(me, 0)
            if not n:
                continue
            if self.target:
                score -= ADVANCE * n * min(dist[f][self.target], 8)
            if mine_at not in (None, OFF) and 0 < dist[mine_at][f] <= 2:
                score += ESCORT * n
        return score

    def _guard(self, score: float, occ: dict, mine_at: str) -> float:
        """``score`` plus our leader's own field: pinned, escorted, hiding on the rim, or room around him."""
        me = self.seat
        here = occ.get(mine_at, {})
        if len(here) > 1 and here.get(me) == 1:
            score -= PINNED  # alone beside an enemy: he may not leave
        escorts = here.get(me, 0) - 1
        score += GUARD * min(escorts, 2)
        if self.rim_rule and mine_at in self.board.rim and self.board.kind[mine_at] == "tri":
            score -= HIDING  # out of reach, but a game nobody can win: only a refuge from real danger
        if not escorts:
            dist = self.geo.dist
            near = min((dist[mine_at][f] for f, d in occ.items() if any(x != me for x in d)), default=9)
            score += ROOM * min(near, 4)
        return score

    def _production_value(self, s: int) -> float:
        """A mana a round for the next few rounds, at what mana is worth to ``s`` now."""
        return self.horizon * _marginal(self.mana[s])

    def _production(self, occ: dict, s: int) -> int:
        b = self.board
        total = 0
        for f, d in occ.items():
            if len(d) == 1 and s in d and b.kind[f] == "hex":
                total += min(d[s], b.value[f])
        return total

    def _combat(self, occ: dict, leaders: dict, changed: tuple[str, ...] | None = None):
        """Battles, fallen teams, then encirclement (HEXes and TRIs at once): (board after, dead seats,
        figures removed by seat). ``changed``: the fields a move changed, for the quick encirclement test;
        None judges the position as it is and remembers it for that test."""
        b = self.board
        after = {f: dict(d) for f, d in occ.items()}
        dead: set[int] = set()
        removed: dict[int, int] = {}
        for f, d in occ.items():
            if len(d) > 1 and b.kind[f] == "hex":
                for s, k in combat.battle_losses(d).items():
                    if not k:
                        continue
                    if leaders.get(s) == f and k == d[s]:
                        dead.add(s)
                    after[f][s] -= k
                    removed[s] = removed.get(s, 0) + k
                    if not after[f][s]:
                        del after[f][s]
        for s in dead:
            for d in after.values():
                d.pop(s, None)
        after = {f: d for f, d in after.items() if d}
        if changed is None and self._rings is None:
            # the position as it is: remember where it could be cut, for the moves' quick test
            self._rings_board = {f: dict(d) for f, d in after.items()}
            self._rings = {s: self._cut_fields(after, s, {f for f, d in after.items() if s in d})
                           for s in self.alive if s not in dead}
        for s in self.alive:
            if s in dead:
                continue
            caught = self._caught(after, s, changed if not dead else None)
            for f in caught:
                removed[s] = removed.get(s, 0) + after[f][s]
                if leaders.get(s) == f:
                    dead.add(s)
            for f in caught:
                del after[f][s]
        return after, dead, removed

    def _caught(self, after: dict, s: int, changed: tuple[str, ...] | None) -> list[str]:
        """``s``'s fields that would be encircled on board ``after``. The full search is needed only when
        the move's fields could cut something off: a field that closes is a cut field of the position as
        it was (see :meth:`_cut_fields`), or a figure arrives where the safe region does not reach."""
        ring = self._rings.get(s) if changed is not None and self._rings else None
        if ring is not None and changed is not None:
            safe, cuts = ring
            before = self._rings_board
            adj, rim = self.board.adj, (self.board.rim if self.rim_rule else frozenset())
            for f in changed:
                if f == OFF:
                    continue
                if not self.rim_rule and f in self.board.outer:
                    break  # an entry TRI filled or emptied opens or closes a region: search in full
                was = f not in before or s in before[f]
                now = f not in after or s in after[f]
                if was and not now and f in cuts:
                    break
                if now and f in after and s in after[f] and f not in safe and f not in rim and not any(
                        g in safe and (g not in after or s in after[g]) for g in adj[f]):
                    break
            else:
                return []
        safe = self._safe(after, s)
        return [f for f, d in after.items() if s in d and f not in safe]

    def _cut_fields(self, occ: dict, s: int, figures: set[str]) -> tuple[set[str], set[str]] | None:
        """(the fields from which ``s`` reaches the rim, the fields among them whose closing would cut some
        of ``s``'s figures off the rim): articulation points of the fields ``s`` may pass, with the outside
        as one more field beside every rim TRI. None when some figures are cut off already."""
        b = self.board
        adj = b.adj

        def passable(f: str) -> bool:
            return f not in occ or s in occ[f]

        # the fields the outside touches: rim TRIs not held by enemies (version 1), empty entry TRIs (2)
        rim = set(combat.openings(b, occ, s, combat.RIM if self.rim_rule else combat.ENTRY))
        outside = ""
        disc, low, below = {outside: 0}, {outside: 0}, {}
        cuts: set[str] = set()
        count = 1
        stack: list[tuple[str, str | None, Iterator[str]]] = [
            (outside, None, iter([f for f in b.tris if f in rim]))]
        while stack:
            v, parent, it = stack[-1]
            for w in it:
                if w == parent:
                    continue
                if w in disc:
                    if disc[w] < low[v]:
                        low[v] = disc[w]
                    continue
                disc[w] = low[w] = count
                count += 1
                below[w] = w in figures
                nbrs = [x for x in adj[w] if passable(x)]
                if w in rim:
                    nbrs.append(outside)
                stack.append((w, v, iter(nbrs)))
                break
            else:
                stack.pop()
                if stack:
                    u = stack[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if u != outside:
                        if low[v] >= disc[u] and below[v]:
                            cuts.add(u)
                        below[u] = below[u] or below[v]
        safe = set(disc) - {outside}
        if figures - safe:
            return None
        return safe, cuts

    def _safe(self, occ: dict, s: int) -> set[str]:
        """Fields from which ``s``'s figures reach the rim through fields not held by enemies alone."""
        adj = self.board.adj
        stack = combat.openings(self.board, occ, s, combat.RIM if self.rim_rule else combat.ENTRY)
        safe = set(stack)
        while stack:
            f = stack.pop()
            for g in adj[f]:
                if g not in safe and (g not in occ or s in occ[g]):
                    safe.add(g)
                    stack.append(g)
        return safe

    def _reach(self, s: int, target: str, occ: dict, mana: dict, exclude_leader: bool = True) -> int:
        """How many of ``s``'s figures could get onto ``target`` this phase (each step 1 mana; who stands
        in the way is ignored); figures already there do not count."""
        if not self.moving:
            return 0
        budget = mana.get(s, 0)
        key = (s, target, budget, exclude_leader)
        if s != self.seat:
            # our move leaves every other player's figures where they are: their answer can be kept
            hit = self._reach_cache.get(key)
            if hit is not None:
                return hit
        dist = self.geo.dist
        steps = []
        lead = self.leaders.get(s)
        for f, d in occ.items():
            n = d.get(s, 0)
            if not n or f == target:
                continue
            if exclude_leader and f == lead:
                n -= 1
            steps += [dist[f][target]] * n
        wait = self.players[s]["waiting"]
        if wait:
            steps += [dist[OFF][target]] * wait
        steps.sort()
        count = 0
        for k in steps:
            if k > budget:
                break
            budget -= k
            count += 1
        if s != self.seat:
            self._reach_cache[key] = count
        return count

    def _moves_to_kill(self, occ: dict, leaders: dict, s: int, mana: dict) -> tuple[float, bool, bool]:
        """(fewest enemy moves after which ``s``'s leader would fall if the phase then ended, whether ``s``
        can answer them one for one, whether the leader can still step away)."""
        b = self.board
        lead = leaders.get(s)
        if lead in (None, OFF) or (self.rim_rule and b.kind[lead] == "tri" and lead in b.rim):
            return INF, True, True
        free = self.players[s]["free_step"] or mana.get(s, 0) > 0
        if b.kind[lead] == "hex":
            return self._kill_on_hex(occ, s, mana, lead, free)
        return self._kill_on_tri(occ, s, mana, lead, free)

    def _kill_on_hex(self, occ: dict, s: int, mana: dict, lead: str, free: bool) -> tuple[float, bool, bool]:
        """:meth:`_moves_to_kill` for a leader on a HEX: a battle there, a pin, or the ring of TRIs taken."""
        b = self.board
        foes = [x for x in self.alive if x != s]
        here = occ.get(lead, {})
        g = here.get(s, 0)
        exits = [t for t in b.adj[lead] if t not in occ]
        can_flee = free and bool(exits) and (g > 1 or len(here) == 1)
        best, answerable = self._attacks(occ, s, mana, lead, foes)
        # the ring of six TRIs (a TRI of ours leads on to its other HEXes, which must be taken too)
        ring = self._hex_ring(occ, s, lead)
        if ring < best and ring <= max(self._reach(e, lead, occ, mana) for e in foes) + 1:
            best, answerable = ring, True
        return best, answerable, can_flee

    def _attacks(self, occ: dict, s: int, mana: dict, lead: str, foes: list[int]) -> tuple[float, bool]:
        """The fewest enemy moves that win a battle on the leader's HEX, or pin a lone leader there, and
        whether ``s`` can answer them."""
        here = occ.get(lead, {})
        g = here.get(s, 0)
        best: float = INF
        answerable = True
        own_reach = self._reach(s, lead, occ, mana)
        for e in foes:
            e0 = here.get(e, 0)
            need = g - e0 + 1
            reach = self._reach(e, lead, occ, mana, exclude_leader=False)
            if reach >= need and need < best:
                best = need
                answerable = g + own_reach >= e0 + reach
            elif g == 1 and PIN < best:
                k = self._pin(occ, s, mana, lead, e, reach >= 1 or bool(e0), best)
                if k is None:
                    continue
                rest = {**mana, s: mana.get(s, 0) - self.loose.get(lead, 0)}
                best, answerable = k, self._reach(s, lead, occ, rest) >= 1
        return best, answerable

    def _pin(self, occ: dict, s: int, mana: dict, lead: str, e: int, now: bool, best: float) -> float | None:
        """A lone leader can be pinned (he may not leave a HEX with an enemy on it) and his mana there
        frozen; the kill then follows next round unless an escort can come. Next round's pin (with next
        round's mana) is a smaller worry, but a worry. ``now``: ``e`` is there or can get there this phase.
        The moves to kill it counts as, or None (no pin)."""
        if now:
            return PIN
        if PIN_LATER < best and self._reach(e, lead, occ, {
                e: mana.get(e, 0) + self._production(occ, e)}, exclude_leader=False) >= 1:
            # whoever moves first next round gets there first
            return PIN if self.next_order.index(e) < self.next_order.index(s) else PIN_LATER
        return None

    def _hex_ring(self, occ: dict, s: int, lead: str) -> int:
        """Enemy moves needed to take the six TRIs around the leader's HEX (INF: one of ours is a way out)."""
        b = self.board
        ring = 0
        for t in b.adj[lead]:
            d = occ.get(t)
            if not d:
                ring += 1
            elif s in d:
                if self.rim_rule and t in b.rim:
                    return INF
                ring += sum(self._to_take(occ, h, s) for h in b.adj[t] if h != lead)
        return ring

    def _kill_on_tri(self, occ: dict, s: int, mana: dict, lead: str, free: bool) -> tuple[float, bool, bool]:
        """:meth:`_moves_to_kill` for a leader on a TRI: its HEXes taken."""
        b = self.board
        foes = [x for x in self.alive if x != s]
        exits = [h for h in b.adj[lead] if not (occ.get(h) and s not in occ[h])]
        can_flee = free and bool(exits)
        ring = sum(self._to_take(occ, h, s) for h in b.adj[lead])
        reach = max(self._reach(e, lead, occ, mana) for e in foes)
        best: float = INF
        if ring < best and ring <= reach + 1:
            # a rim TRI has only one or two HEXes to take: a threat the enemy cannot carry out this phase
            # is one for a later round (the leader can still step away or be escorted)
            later = not self.rim_rule and ring > reach and b.touch[lead] < 3
            best = ring + 2 if later else ring
        return best, True, can_flee

    @staticmethod
    def _to_take(occ: dict, h: str, s: int) -> int:
        """Enemy moves needed before HEX ``h`` is enemy-held in the combat phase (for ``s``)."""
        d = occ.get(h)
        if not d:
            return 1
        own = d.get(s, 0)
        if not own:
            return 0
        foes = max((k for x, k in d.items() if x != s), default=0)
        return max(1, own - foes + 1)
