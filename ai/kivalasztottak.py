"""A heuristic Kiválasztottak player.

It decides from ``engine.view(state, seat)`` and the legal actions only (plus the public card texts). Plan:
build a Row, take free triumph points (buildings, allies, quests it can solve), guard its tower with
obstacles and the highest WALL at the bottom, besiege when its team clearly outclasses any blocker, block
what threatens it, fight with its best attack into the weakest enemy, and pass fast-effect windows unless
something of its own is in danger.
"""

from __future__ import annotations

from engines.kivalasztottak.cards import card_defs
from engines.kivalasztottak.conditions import holds

GAME = "kivalasztottak"


def _adv_desc(a: dict) -> dict:
    d = card_defs()[a["key"]]
    return {"id": a["id"], "named": d["named"], "traits": d["traits"], "caste": d["caste"],
            "subcaste": d["subcaste"], "skills": d["skills"], "phys": a["phys"], "astral": a["astral"],
            "mental": a["mental"]}


def _attr(adv: dict, name: str) -> int:
    return adv[name]


def _can_solve(quest_key: str, advs: list[dict]) -> bool:
    q = card_defs()[quest_key]
    group = [_adv_desc(a) for a in advs]
    return any(holds(c, group, _attr) for c in q["conditions"])


def _best_subset(advs: list[dict], quest_key: str) -> list[dict] | None:
    """Up to three alert adventurers that fulfil a condition of the quest (strongest first)."""
    from itertools import combinations
    advs = sorted(advs, key=lambda a: -a["level"])
    for n in (1, 2, 3):
        for combo in combinations(advs, n):
            if _can_solve(quest_key, list(combo)):
                return list(combo)
    return None


class _Ctx:
    def __init__(self, view: dict, seat: int):
        self.v = view
        self.seat = seat
        self.me = view["players"][seat]
        self.opp = view["players"][1 - seat]
        self.cards: dict[str, dict] = {}
        for p in view["players"]:
            for zone in ("row", "team", "store", "quests", "buildings", "allies", "solved", "towers"):
                for c in p[zone]:
                    if "id" in c:
                        self.cards[c["id"]] = c
                        for w in c.get("worn", []):
                            self.cards[w["id"]] = w
        for c in view.get("hand", []):
            self.cards[c["id"]] = c

    def alert(self, p: dict) -> list[dict]:
        return [a for a in p["row"] if a["state"] == "alert"]


def _score_priority(ctx: _Ctx, a: dict) -> float:
    """Higher is better; passing scores 0."""
    t = a["type"]
    v = ctx.v
    thread = v.get("thread")
    card = ctx.cards.get(a.get("card", ""), {})
    key = card.get("key", "")
    d = card_defs().get(key, {})
    if t == "pass":
        return 0.0
    if t == "summon":
        ty = d.get("type")
        if ty == "building" or ty == "ally":
            return 90
        if ty == "adventurer":
            return 60 + d["level"] * 3 - (10 if len(ctx.me["row"]) >= 6 else 0)
        if ty == "quest":
            mine = [ctx.cards[c["id"]] for c in ctx.me["row"]]
            return 55 if _can_solve(key, mine) else 20
        if ty == "obstacle":
            return 35 if thread is None else 40
        if ty == "action" and d.get("action_type") in ("item", "magic_item"):
            return 30 if ctx.me["row"] else 5
        if ty == "action" and d.get("attack"):
            target = ctx.cards.get(a.get("target"), {})
            lvl = target.get("level", 9)
            kill = d["attack"]["damage"] >= lvl
            if d["attack"]["range"] == "row":
                return 50 if kill else 8
            if not kill and not _worth_fighting(ctx, d["attack"]["damage"]):
                return -1
            return 70 + (20 if kill else 0) - lvl
        if ty == "event":
            op = d["effect"][0]["op"]
            if op == "draw":
                return 45 if ctx.me["hand_count"] <= 4 else 10
            if op == "free_maneuver":
                return 65 if _siege_good(ctx) else -1
            if op == "buff_team":
                return 40
            if op == "destroy":
                return 50
            if op == "ward":
                return 30 if thread else -1
            if op == "search_reserve":
                return 40 if ctx.me.get("reserve_count") else -1
        return 5
    if t == "activate":
        ab = d["abilities"][a["ability"]]
        op = ab["effect"][0]["op"]
        target = ctx.cards.get(a.get("target") or (a["card"] if ab.get("target") == "self" else ""), {})
        if op == "attack":
            dmg = ab["effect"][0]["damage"]
            if target.get("level", 9) > dmg and not _worth_fighting(ctx, dmg):
                return -1
            return 60 - target.get("level", 5)
        if op == "damage":
            return _damage_score(ctx, ab["effect"][0], target)
        if op == "heal":
            if target.get("dmg", 0) > 0:
                return 50
            # nothing to heal: only worth it where the cost is the point - a card sacrificed while an enemy
            # effect on the thread aims at it (the effect loses its target and is neutralised)
            return 52 if ab.get("sacrifice") and _aimed_at(ctx, a["card"]) else -1
        if op == "counter":
            top = thread[-1] if thread else None
            return 55 if top and top["seat"] != ctx.seat and top["kind"] == "summon" else -1
        if op == "alert":
            return 25 if target.get("state") == "injured" else 10
        if op == "draw":
            return 15
        return 10
    if t == "activate_obstacle":
        return 55
    if t == "maneuver":
        if a["kind"] == "quest":
            q = ctx.cards.get(a["target"], {})
            if _best_subset(ctx.alert(ctx.me), q.get("key", "")) and ctx.me["mp"] >= card_defs()[q["key"]]["mp"]:
                return 80 + q.get("dp", 0)
            return -1
        if a["kind"] == "siege":
            return 75 if _siege_good(ctx) else -1
        if a["kind"] == "capture":
            b = ctx.cards.get(a["target"], {})
            mine = sum(x["level"] for x in sorted(ctx.alert(ctx.me), key=lambda x: -x["level"])[:3])
            theirs = sum(x["level"] for x in sorted(ctx.alert(ctx.opp), key=lambda x: -x["level"])[:3])
            return 70 + b.get("dp", 0) if mine > theirs + 1 else -1
    if t == "equip":
        return 28
    if t == "unequip":
        return -5
    if t == "attach_reward":
        return -2
    return 0


def _aimed_at(ctx: _Ctx, cid: str) -> bool:
    """An enemy item on the time thread targets card ``cid``."""
    return any(it["seat"] != ctx.seat and cid in it.get("targets", ()) for it in ctx.v.get("thread") or ())


def _armour(adv: dict) -> int:
    return sum(ab.get("amount", 0) for w in adv.get("worn", ()) for ab in card_defs()[w["key"]]["abilities"]
               if ab["kind"] == "static" and ab.get("stat") == "armour")


def _margin(ctx: _Ctx) -> int | None:
    """My team's level minus the enemy's (with a siege's WALL for the defender) while a combat is on."""
    m = ctx.v.get("maneuver")
    if not m or not m.get("combat") or m["step"] not in ("prep", "ranks", "rounds"):
        return None
    mine = sum(max(0, a["level"]) for a in ctx.me["team"])
    theirs = sum(max(0, a["level"]) for a in ctx.opp["team"])
    if m["kind"] == "siege":
        wall = m.get("wall", 0)
        if m["initiator"] == ctx.seat:
            theirs += wall
        else:
            mine += wall
    return mine - theirs


def _worth_fighting(ctx: _Ctx, amount: int) -> bool:
    """Spend MP or a card on damage only while the combat is close: not when it is safely won or lost."""
    margin = _margin(ctx)
    return margin is None or -(amount + 3) <= margin <= 3


def _damage_score(ctx: _Ctx, eff: dict, target: dict) -> float:
    """Damage to one enemy adventurer. In a close combat it lowers the enemy team's level; in the Row only a
    kill is worth paying for (Row damage is gone when the thread closes, leaving a mere injury)."""
    if not target:
        return 30
    amount = eff["amount"] if eff.get("anyway") else max(0, eff["amount"] - _armour(target))
    if amount <= 0:
        return -1
    kills = target["level"] - amount < 1
    if target["id"] in {a["id"] for a in ctx.opp["team"]}:
        if kills:
            return 55
        return 45 if _worth_fighting(ctx, amount) else -1
    if kills:
        return 50
    return -1


def _siege_good(ctx: _Ctx) -> bool:
    mine = sorted(ctx.alert(ctx.me), key=lambda x: -x["level"])[:3]
    level = sum(x["level"] for x in mine)
    tower = ctx.opp["towers"][0] if ctx.opp["towers"] else {}
    wall = tower.get("wall", 3)
    blockers = sum(x["level"] for x in sorted(ctx.alert(ctx.opp), key=lambda x: -x["level"])[:3])
    return level > wall + blockers and ctx.me["mp"] >= 2


def _decide(ctx: _Ctx, kind: str, legal: list[dict], rng) -> dict:
    v = ctx.v
    if kind == "tower_order":
        # the highest WALL at the bottom: it is besieged first
        def walls(a):
            return [-ctx.cards[c]["wall"] for c in a["order"]]
        return min(legal, key=walls)
    if kind == "mulligan":
        advs = sum(1 for c in v["hand"] if c["type"] == "adventurer")
        if advs >= 2 or ctx.me["mulligans"] >= 1 or {"type": "mulligan"} not in legal:
            return {"type": "keep"}
        return {"type": "mulligan"}
    if kind in ("adjust_discard", "omen_bottom", "close_discard"):
        if kind == "close_discard":
            return {"type": "no_discard"}
        hand = {c["id"]: c for c in v["hand"]}

        def worth(a):
            c = hand[a["card"]]
            return {"adventurer": 5, "building": 6, "ally": 6, "quest": 3, "obstacle": 2}.get(c["type"], 4)
        return min(legal, key=worth)
    if kind == "team":
        role = "block" if any(a["type"] == "no_block" for a in legal) or ctx.me["team"] else None
        adds = [a for a in legal if a["type"] == "team_add"]
        m = v["maneuver"]
        if m and m["kind"] == "quest" and m["initiator"] == ctx.seat and not ctx.me["team"]:
            q = ctx.cards.get(m["target"], {})
            subset = _best_subset(ctx.alert(ctx.me), q.get("key", ""))
            if subset:
                for a in adds:
                    if a["card"] == subset[0]["id"]:
                        return a
        if m and m["kind"] == "quest" and m["initiator"] == ctx.seat and ctx.me["team"]:
            q = ctx.cards.get(m["target"], {})
            if _can_solve(q.get("key", ""), ctx.me["team"]) and {"type": "team_done"} in legal:
                # add one more fighter only if a blocker could beat us
                if len(ctx.me["team"]) >= 2 or not adds:
                    return {"type": "team_done"}
        equips = [a for a in legal if a["type"] == "equip"]
        if equips:
            return equips[0]
        if adds:
            best = max(adds, key=lambda a: ctx.cards[a["card"]]["level"])
            if role == "block" and not ctx.me["team"]:
                m_init = ctx.opp["team"]
                if m and m["kind"] == "quest" and m["target"] in [q["id"] for q in ctx.opp["quests"]]:
                    pass
                threat = sum(x["level"] for x in m_init)
                mine = sum(x["level"] for x in sorted(ctx.alert(ctx.me), key=lambda x: -x["level"])[:3])
                if mine + (m.get("wall", 0) if m and m["kind"] == "siege" else 0) <= threat // 2:
                    return {"type": "no_block"}
            return best
        for a in legal:
            if a["type"] == "team_done":
                return a
        return legal[0]
    if kind == "wall_choice":
        return {"type": "end_siege"}
    if kind == "ranks":
        team = ctx.me["team"]
        has_ranged = any(c.get("range") == "ranged" for c in v["hand"])
        if has_ranged and len(team) >= 2:
            back = max(team, key=lambda a: a["phys"] if a["level"] <= 2 else 0)
            want = sorted(a["id"] for a in team if a["id"] != back["id"])
        else:
            want = sorted(a["id"] for a in team)
        for a in legal:
            if sorted(a["front"]) == want:
                return a
        return legal[-1]
    if kind == "continue_quest":
        m = v["maneuver"]
        q = ctx.cards.get(m["target"], {})
        return {"type": "continue"} if _can_solve(q.get("key", ""), ctx.me["team"]) else {"type": "withdraw"}
    if kind == "solve":
        solves = [a for a in legal if a["type"] == "solve"]
        return solves[0] if solves else {"type": "decline"}
    if kind == "beast_target":
        team = {a["id"]: a for a in ctx.me["team"]}
        return max(legal, key=lambda a: team[a["card"]]["level"])
    if kind == "destroy_building":
        return min(legal, key=lambda a: ctx.cards.get(a["card"], {}).get("dp", 0))
    if kind == "reserve_pick":  # the card of the reserve most worth having now: the strongest adventurer first
        reserve = {c["id"]: c for c in v.get("reserve", [])}

        def worth(a):
            c = reserve.get(a["card"], {})
            return (c.get("type") == "adventurer", c.get("level", 0), -c.get("mp", 0))
        return max(legal, key=worth)
    return legal[0]


def choose(engine, state, seat: int, rng) -> dict:
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    view = engine.view(state, seat)
    ctx = _Ctx(view, seat)
    pend = [d for d in view["pending"] if d["seat"] == seat]
    if pend:
        return _decide(ctx, pend[0]["kind"], legal, rng)
    best, best_score = legal[0], float("-inf")
    for a in legal:
        s = _score_priority(ctx, a)
        if s > best_score:
            best, best_score = a, s
    return best
