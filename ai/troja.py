"""Troja AI: a one-ply heuristic that prices every legal action in expected Glory.

It reads only its own view and legal actions. Fights are evaluated with the engine's own arithmetic
(:mod:`engines.troja.rules`) on view data, with fate faces taken as uniform 1..6 (Cerberus: the best of two).
A change of Glory is worth its size to the AI and minus its size (weighted towards the leader) to an
opponent; reaching 24 is worth a lot. Cards and wrath tokens have a small keep value, so they are spent only
when they change an expected result.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

from engines.troja import HEROES, PATRONS, card_type, rules

GAME = "troja"

WIN_GP = 24
CARD_VALUE = 0.6
WRATH_VALUE = 1.0
DUEL_GLORY = 3


#: the worth of challenge fights already priced, by the table (:attr:`_Eval.table`) and the fight: the AI
#: prices the same fights again and again (every set of hand cards against every target, and as the
#: search's rollout policy thousands of times per decision on tables whose Glory has not moved); a pure
#: function of its key, so remembering changes no choice. Emptied when full.
_FIGHT_MEMO: dict[tuple, float] = {}
FIGHT_MEMO_SIZE = 20_000


@cache
def _fate_dist(k: int) -> tuple[float, ...]:
    """Probability of each face 0..6 for the best of k fate cards."""
    probs = [0.0] * 7
    for f in range(1, 7):
        probs[f] = (f / 6) ** k - ((f - 1) / 6) ** k
    return tuple(probs)


@lru_cache(maxsize=4096)
def _odds(margin: int, att_k: int = 1, def_k: int = 1) -> tuple[float, float, float]:
    """(attacker wins, defender wins, tie) when defender base - attacker base == margin before fate."""
    pa = _fate_dist(att_k)
    pd = _fate_dist(def_k)
    a = d = t = 0.0
    for fa in range(1, 7):
        for fd in range(1, 7):
            p = pa[fa] * pd[fd]
            diff = margin + fd - fa
            if diff > 0:
                d += p
            elif diff < 0:
                a += p
            else:
                t += p
    return a, d, t


class _Eval:
    """Everything the AI derives from its view once per decision."""

    def __init__(self, view: dict):
        self.v = view
        self.me = view["seat"]
        self.players = view["players"]
        self.n = len(self.players)
        # a card held in a full hand blocks the next draw, so it is worth less
        full = len(view.get("hand", [])) >= self.players[self.me]["hand_limit"] - 1
        self.card = CARD_VALUE * (0.35 if full else 1.0)
        opp = [p["gp"] for i, p in enumerate(self.players) if i != self.me]
        self.lead = max(opp)
        # everything a fight's worth depends on besides the fight: whose eyes, heroes, Glory, attachments
        self.table = (self.me, tuple((p["hero"], p["gp"], tuple(p["attached"])) for p in self.players))

    # ------------------------------------------------------------------------------------------- values
    def weight(self, seat: int) -> float:
        if seat == self.me:
            return 1.0
        if self.n == 2:
            return 1.0
        return 0.75 if self.players[seat]["gp"] == self.lead else 0.35

    def gp_value(self, seat: int, delta: float) -> float:
        """What a Glory change of ``seat`` is worth to me."""
        if not delta:
            return 0.0
        gp = self.players[seat]["gp"]
        value = delta
        if delta > 0 and gp + delta >= WIN_GP:
            value += 30
        if delta < 0 and gp + delta <= 0:
            value = -(gp - 12) - 2  # disgrace: back to 12 with a new hero, items gone
        value *= 1.0 + max(0, gp - 16) * 0.08  # swings near the finish matter more
        return value if seat == self.me else -value * self.weight(seat)

    # ------------------------------------------------------------------------------------------- fights
    def fight_for(self, cards: list[str], target: int, kind: str | None = None, roaming: bool = False) -> dict:
        entries = [{"card": c, "grow": 0} for c in cards]
        return {"kind": kind or rules.group_kind(entries), "cards": entries, "defender": target,
                "duel": False, "attacker": None, "roaming": roaming}

    def challenge_ev(self, fight: dict, mods: list[dict], odds_only: bool = False) -> float:
        """Expected worth to me of a challenge fight against ``fight["defender"]`` (remembered: see
        :data:`_FIGHT_MEMO`)."""
        key = (self.table, tuple((e["card"], e["grow"]) for e in fight["cards"]), fight["kind"],
               fight["defender"], fight["roaming"], tuple(m["card"] for m in mods), odds_only)
        value = _FIGHT_MEMO.get(key)
        if value is None:
            value = self._challenge_ev(fight, mods, odds_only)
            if len(_FIGHT_MEMO) >= FIGHT_MEMO_SIZE:  # after pricing: the fights it prices are remembered too
                _FIGHT_MEMO.clear()
            _FIGHT_MEMO[key] = value
        return value

    def _challenge_ev(self, fight: dict, mods: list[dict], odds_only: bool) -> float:
        target = fight["defender"]
        hero = self.players[target]
        base = rules.bases(self.players, fight, mods)
        k = max([e["count"] for e in rules.card_effects(fight) if e["op"] == "fate_best_of"] or [1])
        pa, pd, pt = _odds(base["defender"] - base["attacker"], k)
        tie = rules.tie_winner(self.players, fight)
        if tie == "attacker":
            pa, pt = pa + pt, 0.0
        elif tie == "defender":
            pd, pt = pd + pt, 0.0
        gain = rules.glory_of(fight) + rules.win_bonus(hero, fight)
        loss = rules.hero_loss(hero, fight)
        value = pd * self.gp_value(target, gain) + pa * self.gp_value(target, -loss)
        if odds_only:
            return value
        # undefeated Trojan heroes and beasts stay and later attack the next hero clockwise
        stays = [e["card"] for e in fight["cards"] if card_type(e["card"])["kind"] != "unit"]
        if stays and pa + pt > 0:
            nxt = (target + 1) % self.n
            later = 0.0
            for card in stays:
                later += self.challenge_ev(self.fight_for([card], nxt, rules.single_kind(card_type(card)["key"]),
                                                          roaming=True), [], odds_only=True)
            value += 0.5 * (pa + pt) * later
        return value

    def assault_ev(self, cards: list[str], target: int, mods: list[dict]) -> float:
        entries = [{"card": c, "grow": 0} for c in cards]
        total = 0.0
        for group in rules.compose(entries):
            total += self.challenge_ev(self.fight_for([e["card"] for e in group], target), mods)
        return total

    def duel_ev(self, target: int) -> float:
        fight = {"kind": "strength", "cards": [], "defender": target, "duel": True, "attacker": self.me}
        base = rules.bases(self.players, fight, [])
        pa, pd, pt = _odds(base["defender"] - base["attacker"])
        tie = rules.tie_winner(self.players, fight)
        if tie == "attacker":
            pa += pt
        elif tie == "defender":
            pd += pt
        me, them = self.players[self.me], self.players[target]
        bonus = rules.win_bonus(me, fight)
        bonus_t = rules.win_bonus(them, fight)
        my_loss = rules.hero_loss(me, fight)
        their_loss = rules.hero_loss(them, fight)
        return (pa * (self.gp_value(self.me, DUEL_GLORY + bonus) + self.gp_value(target, -their_loss))
                + pd * (self.gp_value(target, DUEL_GLORY + bonus_t) + self.gp_value(self.me, -my_loss)))

    # ---------------------------------------------------------------------------------- current fight
    def outcome_value(self, fight: dict, totals: dict, tie_to: str | None) -> float:
        """Worth to me of the current fight ending with these totals."""
        winner: str | None
        if totals["defender"] > totals["attacker"]:
            winner = "defender"
        elif totals["attacker"] > totals["defender"]:
            winner = "attacker"
        else:
            winner = tie_to
        if winner is None:
            return 0.0
        players = self.players
        if fight["duel"]:
            win_seat = fight["defender"] if winner == "defender" else fight["attacker"]
            lose_seat = fight["attacker"] if winner == "defender" else fight["defender"]
            loss = rules.hero_loss(players[lose_seat], fight)
            return self.gp_value(win_seat, DUEL_GLORY) + self.gp_value(lose_seat, -loss)
        target = fight["defender"]
        hero = players[target]
        if winner == "defender":
            return self.gp_value(target, fight.get("glory", 0))
        return self.gp_value(target, -rules.hero_loss(hero, fight))


def _choose(view: dict, legal: list[dict]) -> dict:
    ev = _Eval(view)
    step = view["step"]
    if step == "camp":
        return _camp(ev, legal)
    if step == "main":
        return _main(ev, legal)
    if step == "build":
        return _build(ev, legal)
    if step == "join":
        return _join(ev, legal)
    if step == "fate":
        return _fate(ev, legal)
    if step == "start":
        return _start(ev, legal)
    if step == "discard":
        return _discard(ev, legal)
    return legal[-1]


# ---------------------------------------------------------------------------------------------- phases

def _attachment_worth(ev: _Eval, cid: str) -> float:
    me = ev.players[ev.me]
    hero = HEROES[me["hero"]]
    card = card_type(cid)
    worth = 0.0
    for eff in card.get("ability", []):
        if eff["op"] == "stat":
            if eff["stat"] == "power":
                worth += 0.4 * eff["amount"] if hero["power"] < 5 else 0.0
            elif "vs" in eff:
                worth += 0.35 * eff["amount"]
            else:
                main = eff["stat"] == ("strength" if hero["strength"] >= hero["tactics"] else "tactics")
                worth += (0.7 if main else 0.55) * eff["amount"]
        elif eff["op"] == "loss_reduction":  # version-1 Bronze Armour
            worth += 0.5 * hero["glory"] / 3
        elif eff["op"] == "tie_wins" and not any(e["op"] == "tie_wins" for e in hero["ability"]):
            worth += 0.08 * (hero["glory"] + 2)  # a tie (about 1 fight in 7) becomes a win
    return worth


def _camp(ev: _Eval, legal: list[dict]) -> dict:
    me = ev.players[ev.me]
    best, best_score = None, 0.0
    for action in legal:
        if action["type"] != "attach":
            continue
        cost = rules.attach_cost(me, card_type(action["card"])["key"])
        if me["gp"] - cost < 8 or me["gp"] >= WIN_GP - 3:
            continue
        # rounds left to enjoy the item; with no round limit (0) as many as a long game has left
        left = ev.v["max_rounds"] - ev.v["round"] if ev.v["max_rounds"] else 20
        score = _attachment_worth(ev, action["card"]) * (1.0 + 0.1 * max(0, left) / 10) - cost
        if score > best_score:
            best, best_score = action, score
    return best or {"type": "done"}


def _hand_challenges(ev: _Eval, legal: list[dict], kind: str) -> list[str]:
    return sorted({a["card"] for a in legal if a["type"] == kind})


def _best_set(ev: _Eval, cards: list[str], target: int, fixed: list[str]) -> tuple[float, list[str]]:
    best_v, best_set = -1e9, []
    limit = min(4, len(cards))
    for size in range(0 if fixed else 1, limit + 1):
        for combo in combinations(cards, size):
            chosen = fixed + list(combo)
            value = ev.assault_ev(chosen, target, []) - ev.card * size
            if value > best_v:
                best_v, best_set = value, list(combo)
    return best_v, best_set


def _main(ev: _Eval, legal: list[dict]) -> dict:
    me = ev.me
    options: list[tuple[float, dict]] = []
    cards = _hand_challenges(ev, legal, "challenge")
    targets = sorted({a["target"] for a in legal if a["type"] == "challenge"})
    for target in targets:
        value, chosen = _best_set(ev, cards, target, [])
        if chosen:
            # others may add cards against me: be a little careful on myself
            margin = 0.4 if target == me else 0.2
            options.append((value - margin, {"type": "challenge", "card": chosen[0], "target": target}))
    for action in legal:
        if action["type"] == "duel":
            options.append((ev.duel_ev(action["target"]) - 0.3, action))
        elif action["type"] in ("intervene", "event"):
            effect = _table_effect_value(ev, action)
            if effect is not None:
                options.append((effect, action))
    options.sort(key=lambda o: -o[0])
    if options and options[0][0] > 0:
        return options[0][1]
    return {"type": "end_turn"}


def _build(ev: _Eval, legal: list[dict]) -> dict:
    a = ev.v["assault"]
    current = [e["card"] for e in a["cards"]]
    cards = _hand_challenges(ev, legal, "combine")
    base = ev.assault_ev(current, a["target"], [])
    value, chosen = _best_set(ev, cards, a["target"], current)
    if chosen and value > base:
        return {"type": "combine", "card": chosen[0]}
    return {"type": "launch"}


def _join(ev: _Eval, legal: list[dict]) -> dict:
    a = ev.v["assault"]
    current = [e["card"] for e in a["cards"] + a["joined"]]
    mods = a["mods"]
    target = a["target"]
    now = ev.assault_ev(current, target, mods)
    best, best_gain = {"type": "pass"}, ev.card + 0.2
    for action in legal:
        if action["type"] != "add":
            continue
        card = card_type(action["card"])
        if card["kind"] == "modifier":
            value = ev.assault_ev(current, target, mods + [{"card": action["card"]}])
        else:
            value = ev.assault_ev(current + [action["card"]], target, mods)
        if value - now > best_gain:
            best, best_gain = action, value - now
    return best


def _fight_candidates(ev: _Eval, fight: dict, action: dict, effect: dict, by_seat: int) -> float | None:
    """Expected worth of the current fight after this fight effect."""
    op = effect["op"]
    if op not in ("fight_mod", "cancel_fight", "extra_fate", "redraw_fate"):
        return None
    tot = dict(fight["totals"])
    tie_to = fight["tie_to"]
    if op == "fight_mod":
        amount = effect.get("by_patron", {}).get(ev.players[by_seat]["patron"], effect["amount"])
        tot[action["side"]] += amount
        return ev.outcome_value(fight, tot, tie_to)
    if op == "cancel_fight":
        return 0.0
    side = action["side"]
    if op == "extra_fate":
        return sum(ev.outcome_value(fight, {**tot, side: tot[side] + f}, tie_to) for f in range(1, 7)) / 6
    if op == "redraw_fate":
        old = max((c["face"] for c in fight["fate"][side]), default=0)
        return sum(ev.outcome_value(fight, {**tot, side: tot[side] - old + f}, tie_to) for f in range(1, 7)) / 6
    return None


def _fate(ev: _Eval, legal: list[dict]) -> dict:
    fight = ev.v["fight"]
    now = ev.outcome_value(fight, fight["totals"], fight["tie_to"])
    best, best_gain = {"type": "pass"}, 0.0
    patron = ev.players[ev.me]["patron"]
    for action in legal:
        if action["type"] == "wrath":
            value = _fight_candidates(ev, fight, action, PATRONS[patron]["wrath"], ev.me)
            cost = WRATH_VALUE * (1.3 if ev.v["round"] < 4 else 1.0)
        elif action["type"] == "intervene":
            effect = card_type(action["card"])["effect"]
            value = _fight_candidates(ev, fight, action, effect, ev.me)
            cost = CARD_VALUE
            if value is None:
                table = _table_effect_value(ev, action)
                if table is not None and table > best_gain:
                    best, best_gain = action, table
                continue
        else:
            continue
        if value is not None and value - now - cost > best_gain:
            best, best_gain = action, value - now - cost
    return best


def _start(ev: _Eval, legal: list[dict]) -> dict:
    best, best_gain = {"type": "pass"}, 0.0
    for action in legal:
        if action["type"] == "intervene":
            value = _table_effect_value(ev, action)
            if value is not None and value > best_gain:
                best, best_gain = action, value
    return best


def _roamer_threat(ev: _Eval, holder: int, roamer: dict) -> float:
    """Worth to me of this waiting attacker's next attack (it moves on at the end of the round)."""
    seat = holder if roamer["arrived"] and ev.v["step"] == "start" and ev.v["turn"] == holder else (holder + 1) % ev.n
    fight = ev.fight_for([roamer["card"]], seat, rules.single_kind(card_type(roamer["card"])["key"]), roaming=True)
    fight["cards"][0]["grow"] = roamer["grow"]
    return ev.challenge_ev(fight, [], odds_only=True)


def _table_effect_value(ev: _Eval, action: dict) -> float | None:
    """Worth of an intervention or event that does not act on a fight (None for fight effects)."""
    card = card_type(action["card"])
    effect = card["effect"]
    op = effect["op"]
    me = ev.players[ev.me]
    hand = len(ev.v["hand"])
    limit = me["hand_limit"]
    if op == "gain":
        return ev.gp_value(ev.me, effect.get("by_patron", {}).get(me["patron"], effect["amount"])) - CARD_VALUE * 0.5
    if op in ("draw",):
        room = min(effect["amount"], limit - hand + 1)
        return CARD_VALUE * (room - 1) - 0.1 if hand <= 3 else None
    if op == "each_draw":
        return 0.05 if hand <= 2 and ev.n == 2 else None
    if op == "restore_wrath":
        return WRATH_VALUE - CARD_VALUE
    if op == "take_wrath":
        return 0.8 * WRATH_VALUE * effect["amount"] * ev.weight(action["target"]) - CARD_VALUE
    if op == "omen":
        return 0.5 * ev.gp_value(ev.me, 2) + 0.5 * ev.gp_value(ev.me, -1) - CARD_VALUE * 0.5
    if op == "contest":
        return sum(ev.gp_value(s, effect["amount"]) for s in range(ev.n)) / ev.n - CARD_VALUE * 0.5
    if op == "each_fate":
        row = effect["table"][0]
        chance = len(row["faces"]) / 6
        return sum(chance * ev.gp_value(s, row["gain"]) for s in range(ev.n)) - CARD_VALUE * 0.5
    if op == "discard_random":
        return 0.7 * effect["amount"] * CARD_VALUE * ev.weight(action["target"]) - CARD_VALUE
    if op == "wreck":
        for seat, p in enumerate(ev.players):
            if action["target"] in p["attached"]:
                if seat == ev.me:
                    return None
                return card_type(action["target"])["cost"] * 0.5 * ev.weight(seat) - CARD_VALUE * 0.5
        return None
    if op in ("banish", "move_roamer"):
        for holder, p in enumerate(ev.players):
            for r in p["roamers"]:
                if r["card"] != action["target"]:
                    continue
                threat = _roamer_threat(ev, holder, r)
                if op == "banish":
                    return -threat - CARD_VALUE
                dest = {**r, "arrived": False}
                after = _roamer_threat(ev, action["to"], dest)
                return after - threat - CARD_VALUE
        return None
    return None


def _keep_value(ev: _Eval, cid: str) -> float:
    """How much a card is worth keeping (for end-of-round discards)."""
    me = ev.players[ev.me]
    card = card_type(cid)
    kind = card["kind"]
    if card.get("power", 0) > me["power"] or ("patrons" in card and me["patron"] not in card["patrons"]):
        return 0.0
    if kind in ("item", "ally"):
        cost = rules.attach_cost(me, card["key"])
        return 0.2 if me["gp"] - cost < 8 else 0.4 + _attachment_worth(ev, cid) - 0.3 * cost
    if kind == "modifier":
        return 0.45
    if kind == "unit":
        return 0.3 + 0.1 * card["tactics"] + 0.1 * card["glory"]
    if kind in ("trojan", "beast"):
        return 0.5 + 0.1 * card["glory"]
    if kind == "intervention":
        return 0.9
    return 0.5


def _discard(ev: _Eval, legal: list[dict]) -> dict:
    """Keep the cards flowing: with a nearly full hand, throw away the least useful card (twice)."""
    me = ev.players[ev.me]
    hand = ev.v["hand"]
    cards = [a for a in legal if a["type"] == "discard"]
    if not cards:
        return {"type": "done"}
    worst = min(cards, key=lambda a: (_keep_value(ev, a["card"]), a["card"]))
    value = _keep_value(ev, worst["card"])
    if value <= 0.0 or (len(hand) >= me["hand_limit"] - 1 and value < 0.7):
        return worst
    return {"type": "done"}


def choose(engine, state, seat: int, rng) -> dict:
    """Pick an action for ``seat`` from its own view (no hidden information)."""
    view = engine.view(state, seat)
    return _checked(engine, state, seat, rng, view, view.get("legal") or engine.legal_actions(state, seat))


#: the steps whose choices read the assault being built or joined, and the fight being fated
_ASSAULT_STEPS = ("build", "join")
_FIGHT_STEPS = ("fate",)


def lean_view(engine, state: dict, seat: int) -> dict:
    """The part of ``engine.view(state, seat)`` this AI reads, built without the view's copies: the seat's
    own hand and the public table (no other hand, no deck), shared with the state, so it must not be
    changed; the assault and the fight only in the steps that read them. For the search's rollouts, where
    the AI decides thousands of times per move (``rollout_choose``)."""
    players = []
    for i, p in enumerate(state["players"]):
        hero = HEROES[p["hero"]]
        power, hand_limit = _hero_stats(p["hero"], tuple(p["attached"]))
        players.append({"seat": i, "hero": p["hero"], "patron": hero["patron"], "gp": p["gp"],
                        "wrath": p["wrath"], "power": power, "glory": hero["glory"],
                        "hand_size": len(p["hand"]), "hand_limit": hand_limit,
                        "attached": p["attached"], "roamers": p["roamers"], "heroes": p["heroes"]})
    step = state["step"]
    return {"game": "troja", "seat": seat, "round": state["round"], "max_rounds": state["options"]["max_rounds"],
            "phase": state["phase"], "step": step, "turn": state["turn"], "players": players,
            "hand": state["players"][seat]["hand"],
            "assault": _lean_assault(state) if step in _ASSAULT_STEPS else None,
            "fight": _lean_fight(state) if step in _FIGHT_STEPS else None}


def _lean_assault(state: dict) -> dict | None:
    """The view's assault as the AI reads it while it is built or joined: its cards, mods and target."""
    a = state["assault"]
    if a is None or a["fights"]:  # (fights are formed at launch: no build or join step after that)
        return None
    return {"by": a["by"], "target": a["target"], "cards": a["cards"], "joined": a["joined"], "mods": a["mods"]}


def _lean_fight(state: dict) -> dict | None:
    """The view's current fight as the AI reads it in a fate window: the fight with its totals, the side a
    tie goes to and the Glory at stake once fate is drawn."""
    a = state["assault"]
    if a is None or not a["fights"] or a["index"] >= len(a["fights"]):
        return None
    fight = a["fights"][a["index"]]
    out = dict(fight)
    if fight["fate"]["defender"]:
        players = state["players"]
        out["totals"] = rules.totals(players, fight, a["mods"])
        out["tie_to"] = rules.tie_winner(players, fight)
        out["glory"] = rules.glory_of(fight) if not fight["duel"] else DUEL_GLORY
    return out


@lru_cache(maxsize=4096)
def _hero_stats(hero: str, attached: tuple[str, ...]) -> tuple[int, int]:
    """A hero's POWER and hand limit with these cards attached (the view's figures)."""
    player = {"hero": hero, "attached": list(attached)}
    return rules.power(player), rules.hand_limit(player)


def rollout_choose(engine, state, seat: int, rng) -> dict:
    """The same choice as :func:`choose`, from :func:`lean_view` (a test plays whole games checking that)."""
    return _checked(engine, state, seat, rng, lean_view(engine, state, seat), engine.legal_actions(state, seat))


def _checked(engine, state, seat: int, rng, view: dict, legal: list[dict]) -> dict:
    action = _choose(view, legal)
    if action not in legal:  # a safety net: never return an illegal action
        passive = [a for a in legal if a["type"] in ("pass", "done", "end_turn", "launch")]
        return passive[0] if passive else rng.choice(legal)
    return action
