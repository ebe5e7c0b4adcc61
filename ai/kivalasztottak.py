"""A heuristic Kiválasztottak player.

It decides from ``engine.view(state, seat)`` and the legal actions only (plus the public card texts). Plan:
build a Row, take free triumph points (buildings, allies, quests it can solve), guard its tower with
obstacles and the highest WALL at the bottom, besiege when its team clearly outclasses any blocker, block
what threatens it, fight with its best attack into the weakest enemy, and pass fast-effect windows unless
something of its own is in danger.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.kivalasztottak.cards import card_defs
from engines.kivalasztottak.conditions import holds

GAME = "kivalasztottak"

#: a worth in a dispatch table: a number, or a function of the situation giving one
_Score = float | Callable[..., float]


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
    score = _PRIORITIES.get(a["type"], 0)
    return score(ctx, a) if callable(score) else score


def _card_def(ctx: _Ctx, a: dict) -> tuple[str, dict]:
    """The key and definition of the action's card (empty for a card not in sight)."""
    key = ctx.cards.get(a.get("card", ""), {}).get("key", "")
    return key, card_defs().get(key, {})


def _summon_score(ctx: _Ctx, a: dict) -> float:
    key, d = _card_def(ctx, a)
    score = _SUMMONS.get(d.get("type"), 5)
    return score(ctx, a, key, d) if callable(score) else score


def _summon_adventurer(ctx: _Ctx, a: dict, key: str, d: dict) -> float:
    return 60 + d["level"] * 3 - (10 if len(ctx.me["row"]) >= 6 else 0)


def _summon_quest(ctx: _Ctx, a: dict, key: str, d: dict) -> float:
    mine = [ctx.cards[c["id"]] for c in ctx.me["row"]]
    return 55 if _can_solve(key, mine) else 20


def _summon_obstacle(ctx: _Ctx, a: dict, key: str, d: dict) -> float:
    return 35 if ctx.v.get("thread") is None else 40


def _summon_action(ctx: _Ctx, a: dict, key: str, d: dict) -> float:
    if d.get("action_type") in ("item", "magic_item"):
        return 30 if ctx.me["row"] else 5
    if not d.get("attack"):
        return 5
    lvl = ctx.cards.get(a.get("target", ""), {}).get("level", 9)
    kill = d["attack"]["damage"] >= lvl
    if d["attack"]["range"] == "row":
        return 50 if kill else 8
    if not kill and not _worth_fighting(ctx, d["attack"]["damage"]):
        return -1
    return 70 + (20 if kill else 0) - lvl


def _summon_event(ctx: _Ctx, a: dict, key: str, d: dict) -> float:
    score = _EVENTS.get(d["effect"][0]["op"], 5)
    return score(ctx) if callable(score) else score


#: an event card's worth by its first effect (a number, or a function of the context)
_EVENTS: dict[str, _Score] = {
    "draw": lambda ctx: 45 if ctx.me["hand_count"] <= 4 else 10,
    "free_maneuver": lambda ctx: 65 if _siege_good(ctx) else -1,
    "buff_team": 40,
    "destroy": 50,
    "ward": lambda ctx: 30 if ctx.v.get("thread") else -1,
    "search_reserve": lambda ctx: 40 if ctx.me.get("reserve_count") else -1,
}

#: a summoned card's worth by its type (a number, or a function of the context, action, key and definition)
_SUMMONS: dict[str | None, _Score] = {
    "building": 90, "ally": 90, "adventurer": _summon_adventurer, "quest": _summon_quest,
    "obstacle": _summon_obstacle, "action": _summon_action, "event": _summon_event,
}


def _activate_score(ctx: _Ctx, a: dict) -> float:
    _, d = _card_def(ctx, a)
    ab = d["abilities"][a["ability"]]
    target = ctx.cards.get(a.get("target") or (a["card"] if ab.get("target") == "self" else ""), {})
    score = _ABILITIES.get(ab["effect"][0]["op"], 10)
    return score(ctx, a, ab, target) if callable(score) else score


def _ability_attack(ctx: _Ctx, a: dict, ab: dict, target: dict) -> float:
    dmg = ab["effect"][0]["damage"]
    if target.get("level", 9) > dmg and not _worth_fighting(ctx, dmg):
        return -1
    return 60 - target.get("level", 5)


def _ability_heal(ctx: _Ctx, a: dict, ab: dict, target: dict) -> float:
    if target.get("dmg", 0) > 0:
        return 50
    # nothing to heal: only worth it where the cost is the point - a card sacrificed while an enemy
    # effect on the thread aims at it (the effect loses its target and is neutralised)
    return 52 if ab.get("sacrifice") and _aimed_at(ctx, a["card"]) else -1


def _ability_counter(ctx: _Ctx, a: dict, ab: dict, target: dict) -> float:
    thread = ctx.v.get("thread")
    top = thread[-1] if thread else None
    return 55 if top and top["seat"] != ctx.seat and top["kind"] == "summon" else -1


#: an activated ability's worth by its first effect (a number, or a function of the context, action, ability
#: and target)
_ABILITIES: dict[str, _Score] = {
    "attack": _ability_attack,
    "damage": lambda ctx, a, ab, target: _damage_score(ctx, ab["effect"][0], target),
    "heal": _ability_heal,
    "counter": _ability_counter,
    "alert": lambda ctx, a, ab, target: 25 if target.get("state") == "injured" else 10,
    "draw": 15,
}


def _maneuver_score(ctx: _Ctx, a: dict) -> float:
    score = _MANEUVERS.get(a["kind"])
    return score(ctx, a) if score else 0


def _quest_maneuver(ctx: _Ctx, a: dict) -> float:
    q = ctx.cards.get(a["target"], {})
    if _best_subset(ctx.alert(ctx.me), q.get("key", "")) and ctx.me["mp"] >= card_defs()[q["key"]]["mp"]:
        return 80 + q.get("dp", 0)
    return -1


def _capture_maneuver(ctx: _Ctx, a: dict) -> float:
    b = ctx.cards.get(a["target"], {})
    return 70 + b.get("dp", 0) if _top3(ctx.alert(ctx.me)) > _top3(ctx.alert(ctx.opp)) + 1 else -1


def _top3(advs: list[dict]) -> int:
    """The level of the three strongest adventurers."""
    return sum(x["level"] for x in sorted(advs, key=lambda x: -x["level"])[:3])


_MANEUVERS: dict[str, Callable[[_Ctx, dict], float]] = {
    "quest": _quest_maneuver,
    "siege": lambda ctx, a: 75 if _siege_good(ctx) else -1,
    "capture": _capture_maneuver,
}

#: an action's worth by its type (a number, or a function of the context and the action); others score 0
_PRIORITIES: dict[str, _Score] = {
    "pass": 0.0, "summon": _summon_score, "activate": _activate_score, "activate_obstacle": 55,
    "maneuver": _maneuver_score, "equip": 28, "unequip": -5, "attach_reward": -2,
}


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
    tower = ctx.opp["towers"][0] if ctx.opp["towers"] else {}
    return _top3(ctx.alert(ctx.me)) > tower.get("wall", 3) + _top3(ctx.alert(ctx.opp)) and ctx.me["mp"] >= 2


def _decide(ctx: _Ctx, kind: str, legal: list[dict], rng) -> dict:
    """The answer to a pending decision of ``kind`` (the first legal one for a kind without a rule)."""
    decide = _DECISIONS.get(kind)
    return decide(ctx, legal) if decide else legal[0]


def _tower_order(ctx: _Ctx, legal: list[dict]) -> dict:
    # the highest WALL at the bottom: it is besieged first
    return min(legal, key=lambda a: [-ctx.cards[c]["wall"] for c in a["order"]])


def _mulligan(ctx: _Ctx, legal: list[dict]) -> dict:
    advs = sum(1 for c in ctx.v["hand"] if c["type"] == "adventurer")
    if advs >= 2 or ctx.me["mulligans"] >= 1 or {"type": "mulligan"} not in legal:
        return {"type": "keep"}
    return {"type": "mulligan"}


#: what a card in hand is worth keeping, by type (a discard gives up the least)
_KEEP = {"adventurer": 5, "building": 6, "ally": 6, "quest": 3, "obstacle": 2}


def _discard(ctx: _Ctx, legal: list[dict]) -> dict:
    hand = {c["id"]: c for c in ctx.v["hand"]}
    return min(legal, key=lambda a: _KEEP.get(hand[a["card"]]["type"], 4))


def _team(ctx: _Ctx, legal: list[dict]) -> dict:
    """Who joins the team of a maneuver: the quest's solvers, gear first, then the strongest (or no block
    against a threat too big to stop)."""
    adds = [a for a in legal if a["type"] == "team_add"]
    m = ctx.v["maneuver"]
    if m and m["kind"] == "quest" and m["initiator"] == ctx.seat:
        chosen = _quest_team(ctx, legal, adds, m)
        if chosen is not None:
            return chosen
    equips = [a for a in legal if a["type"] == "equip"]
    if equips:
        return equips[0]
    if adds:
        return _team_add(ctx, legal, adds, m)
    return next((a for a in legal if a["type"] == "team_done"), legal[0])


def _quest_team(ctx: _Ctx, legal: list[dict], adds: list[dict], m: dict) -> dict | None:
    """On one's own quest: the first of the best solving subset, or done once the team solves it."""
    q = ctx.cards.get(m["target"], {})
    if not ctx.me["team"]:
        subset = _best_subset(ctx.alert(ctx.me), q.get("key", ""))
        if subset:
            return next((a for a in adds if a["card"] == subset[0]["id"]), None)
        return None
    # add one more fighter only if a blocker could beat us
    if _can_solve(q.get("key", ""), ctx.me["team"]) and {"type": "team_done"} in legal \
            and (len(ctx.me["team"]) >= 2 or not adds):
        return {"type": "team_done"}
    return None


def _team_add(ctx: _Ctx, legal: list[dict], adds: list[dict], m: dict | None) -> dict:
    best = max(adds, key=lambda a: ctx.cards[a["card"]]["level"])
    blocking = any(a["type"] == "no_block" for a in legal) or ctx.me["team"]
    if blocking and not ctx.me["team"]:
        threat = sum(x["level"] for x in ctx.opp["team"])
        wall = m.get("wall", 0) if m and m["kind"] == "siege" else 0
        if _top3(ctx.alert(ctx.me)) + wall <= threat // 2:
            return {"type": "no_block"}
    return best


def _ranks(ctx: _Ctx, legal: list[dict]) -> dict:
    team = ctx.me["team"]
    has_ranged = any(c.get("range") == "ranged" for c in ctx.v["hand"])
    if has_ranged and len(team) >= 2:
        back = max(team, key=lambda a: a["phys"] if a["level"] <= 2 else 0)
        want = sorted(a["id"] for a in team if a["id"] != back["id"])
    else:
        want = sorted(a["id"] for a in team)
    return next((a for a in legal if sorted(a["front"]) == want), legal[-1])


def _continue_quest(ctx: _Ctx, legal: list[dict]) -> dict:
    q = ctx.cards.get(ctx.v["maneuver"]["target"], {})
    return {"type": "continue"} if _can_solve(q.get("key", ""), ctx.me["team"]) else {"type": "withdraw"}


def _solve(ctx: _Ctx, legal: list[dict]) -> dict:
    return next((a for a in legal if a["type"] == "solve"), {"type": "decline"})


def _beast_target(ctx: _Ctx, legal: list[dict]) -> dict:
    team = {a["id"]: a for a in ctx.me["team"]}
    return max(legal, key=lambda a: team[a["card"]]["level"])


def _reserve_pick(ctx: _Ctx, legal: list[dict]) -> dict:
    """The card of the reserve most worth having now: the strongest adventurer first."""
    reserve = {c["id"]: c for c in ctx.v.get("reserve", [])}

    def worth(a: dict) -> tuple:
        c = reserve.get(a["card"], {})
        return (c.get("type") == "adventurer", c.get("level", 0), -c.get("mp", 0))
    return max(legal, key=worth)


#: pending decision kind -> its answer
_DECISIONS: dict[str, Callable[[_Ctx, list[dict]], dict]] = {
    "tower_order": _tower_order,
    "mulligan": _mulligan,
    "adjust_discard": _discard,
    "omen_bottom": _discard,
    "close_discard": lambda ctx, legal: {"type": "no_discard"},
    "team": _team,
    "wall_choice": lambda ctx, legal: {"type": "end_siege"},
    "ranks": _ranks,
    "continue_quest": _continue_quest,
    "solve": _solve,
    "beast_target": _beast_target,
    "destroy_building": lambda ctx, legal: min(legal,
                                               key=lambda a: ctx.cards.get(a["card"], {}).get("dp", 0)),
    "reserve_pick": _reserve_pick,
}


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
