"""A heuristic HEX-TRI player: builds an economy, keeps its leader safe and goes for the enemy leader.

It reads only ``engine.view(state, seat)`` and ``engine.legal_actions(state, seat)`` (HEX-TRI has perfect
information) and scores every legal move without simulating, so a decision costs about as much as listing
the moves. The score of a move, in rough "figure-rounds":
- a figure entering the board is worth most (it produces, and the round-limit ranking counts figures);
- a figure standing on a peaceful HEX below the HEX's value produces 1 mana a round: moving onto such a
  HEX gains, leaving one loses;
- a move that ends the phase with more of our figures than an enemy leader's side on his HEX wins the game;
  so does holding every HEX around an enemy leader on an inner TRI (encirclement); steps towards either
  are rewarded;
- our leader must never end up where enemies could outnumber him: he stays with an escort, and flees to a
  rim TRI (where nothing can reach him) when threatened;
- every mana spent costs a little; a move worth nothing is replaced by a pass.
Battle losses: the leader is never chosen as a loss.
"""

from __future__ import annotations

from engines.hextri.board import board

GAME = "hextri"

ENTER = 10.0
PRODUCE = 6.0
MANA = 1.5
KILL = 1000.0


def choose(engine, state, seat: int, rng) -> dict:
    actions = engine.legal_actions(state, seat)
    if actions[0]["type"] == "losses":
        return next(a for a in actions if not a["leader"])
    view = engine.view(state, seat)
    ctx = _Context(view, seat)
    best, best_score = {"type": "pass"}, 0.0
    scored = []
    for action in actions:
        if action["type"] != "move":
            continue
        score = ctx.score(action)
        scored.append((score, action))
    if scored:
        top = max(s for s, _ in scored)
        if top > best_score:
            # ties broken at random so that the AI does not always pick the first field by name
            choices = [a for s, a in scored if s >= top - 1e-9]
            best = rng.choice(choices)
    return best


class _Context:
    """What the scorer needs from a view: who stands where, leaders, threats."""

    def __init__(self, view: dict, seat: int) -> None:
        self.seat = seat
        self.board = board(view["radius"])
        self.occ: dict[str, dict[int, int]] = {}
        for p in view["pieces"]:
            self.occ.setdefault(p["field"], {})[p["seat"]] = p["count"]
        self.leaders = {p["seat"]: p["leader"] for p in view["players"] if p["alive"]}
        self.my_leader = self.leaders.get(seat)
        self.rounds_left = (view["round_limit"] - view["round"] + 1) if view["round_limit"] else 30
        self.enemy_leaders = {s: f for s, f in self.leaders.items() if s != seat and f not in (None, "off")}
        self.threat_cache: dict[str, int] = {}

    def mine(self, field: str) -> int:
        return self.occ.get(field, {}).get(self.seat, 0)

    def enemies(self, field: str) -> int:
        return sum(n for s, n in self.occ.get(field, {}).items() if s != self.seat)

    def threat(self, hex_field: str) -> int:
        """Enemy figures that could stand on ``hex_field`` after a step or three: on it, on its TRIs, or on
        the HEXes beyond them."""
        if hex_field in self.threat_cache:
            return self.threat_cache[hex_field]
        b = self.board
        seen = {hex_field}
        total = self.enemies(hex_field)
        for t in b.adj[hex_field]:
            seen.add(t)
            total += self.enemies(t)
        for t in b.adj[hex_field]:
            for h in b.adj[t]:
                if h not in seen:
                    seen.add(h)
                    total += self.enemies(h)
        self.threat_cache[hex_field] = total
        return total

    def producing(self, field: str, count: int) -> int:
        """Mana a peaceful HEX of ours yields with ``count`` of our figures."""
        if self.board.kind[field] != "hex" or self.enemies(field):
            return 0
        return min(count, self.board.value[field])

    def score(self, a: dict) -> float:
        b = self.board
        src, dst, leader = a["from"], a["to"], a["leader"]
        horizon = min(self.rounds_left, 6)
        s = -MANA * a["cost"]
        if src == "off":
            s += ENTER + (0 if leader else 0.1 * horizon)
        else:
            n = self.mine(src)
            s -= (self.producing(src, n) - self.producing(src, n - 1)) * PRODUCE * horizon / 6
        if b.kind[dst] == "hex":
            m = self.mine(dst)
            foes = {x: k for x, k in self.occ.get(dst, {}).items() if x != self.seat}
            if not foes:
                s += (self.producing(dst, m + 1) - self.producing(dst, m)) * PRODUCE * horizon / 6
                s += 0.1 * b.value[dst]
            else:
                s += self._attack(dst, m + 1, foes, leader)
        s += self._encircle(dst)
        s += self._leader_safety(a)
        return s

    def _attack(self, field: str, m: int, foes: dict[int, int], leader: bool) -> float:
        strongest = max(foes.values())
        victims = [x for x, f in self.enemy_leaders.items() if f == field]
        if leader and m <= strongest:
            return -KILL
        if victims:
            if m > foes[victims[0]]:
                return KILL
            return 20.0 * m  # piling up on the enemy leader
        return 2.0 if m > strongest else -4.0

    def _encircle(self, dst: str) -> float:
        """Reward holding the HEXes around an enemy leader standing on an inner TRI."""
        b = self.board
        if b.kind[dst] != "hex" or self.enemies(dst):
            return 0.0
        bonus = 0.0
        for f in self.enemy_leaders.values():
            if b.kind.get(f) == "tri" and f not in b.rim and dst in b.adj[f]:
                held = sum(1 for h in b.adj[f] if h == dst or (self.mine(h) and not self.enemies(h)))
                bonus += KILL if held == len(b.adj[f]) else 15.0 * held
        return bonus

    def _leader_safety(self, a: dict) -> float:
        b = self.board
        home = self.my_leader
        if home in (None, "off") or b.kind.get(home) != "hex":
            if a["leader"] and home not in (None, "off") and b.kind[a["to"]] == "hex":
                # from a TRI onto a HEX: fine while nobody is near
                guard = self.mine(a["to"]) + 1
                return -KILL / 2 if self.threat(a["to"]) >= guard else 0.0
            return 0.0
        guard = self.mine(home)
        danger = self.threat(home)
        if a["leader"]:
            to = a["to"]
            if danger >= guard and to in b.rim and b.kind[to] == "tri":
                return 50.0  # flee to the rim, where neither battle nor encirclement can reach him
            if b.kind[to] == "hex":
                return -KILL / 2 if self.threat(to) >= self.mine(to) + 1 else -3.0
            return -8.0 if to not in b.rim else -4.0
        if danger and danger >= guard - 1:
            if a["to"] == home:
                return 25.0  # reinforce the escort
            if a["from"] == home:
                return -25.0
        return 0.0
