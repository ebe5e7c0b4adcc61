"""Effects as they resolve: attacks (2d6 against the threshold), damage against armour and wards, and the
table of effect operations (damage, heal, rest, buff, ward, counter, destroy, MP, draw, tokens, ...).
"""

from __future__ import annotations

from . import common as C
from . import state as S
from .cards import card_defs
from .zones import draw_cards, roll, to_past


def ward_holder(state: dict, src: str) -> bool:
    return any(any(w.get("src") == src for w in c.get("wards", ())) for c in state["cards"].values())


def attack_roll(state: dict, seat: int, by: str, target: str, damage: int, ev: list, name: str) -> None:
    """An attack: 2d6 against the attacker's threshold (fixed now, at resolution); hits deal damage."""
    thr = S.threshold(state, by) if by in state["cards"] and state["cards"][by]["zone"] in S.PRESENT else 0
    a, b = roll(state)
    hit = a + b <= thr
    ev.append({"type": "attack_roll", "seat": seat, "by": by, "target": target, "dice": [a, b],
               "threshold": thr, "hit": hit, "name": name})
    if hit:
        deal_damage(state, target, damage, False, ev)


def deal_damage(state: dict, target: str, amount: int, anyway: bool, ev: list) -> None:
    """Override strengths: armour (weak) and wards (prohibiting) stop ordinary damage; damage dealt
    "anyway" (strong) ignores both."""
    c = state["cards"][target]
    if not anyway:
        if c.get("wards"):
            w = c["wards"].pop(0)
            ev.append({"type": "damage_prevented", "card": target})
            src = w.get("src")
            if src and state["cards"][src]["zone"] == "events":
                to_past(state, src, ev)
            return
        amount = max(0, amount - S.armour(state, target))
    c["dmg"] += amount
    ev.append({"type": "damaged", "card": target, "amount": amount, "level": S.level(state, target),
               "anyway": anyway})


def run_effects(state: dict, item: dict, effects: list, targets: list, ev: list) -> None:
    seat = item["seat"]
    for eff in effects:
        op = eff["op"]
        if op == "damage":
            spec = item_spec(state, item)
            tgs = list(state["p"][1 - seat]["team"]) if spec == "all_enemy_team" else targets
            for tg in tgs:
                if tg in state["cards"] and state["cards"][tg]["zone"] in ("row", "team"):
                    deal_damage(state, tg, eff["amount"], eff.get("anyway", False), ev)
        elif op == "heal":
            for tg in targets:
                c = state["cards"][tg]
                healed = min(c["dmg"], eff["amount"])
                c["dmg"] -= healed
                ev.append({"type": "healed", "card": tg, "amount": healed})
        elif op == "attack":
            if targets:
                attack_roll(state, seat, item["by"], targets[0], eff["damage"], ev, S.cdef(state, item["card"])["name_en"])
        elif op == "rest":
            for tg in targets:
                if state["cards"][tg]["zone"] in ("row", "team"):
                    state["cards"][tg]["state"] = "resting"
                    ev.append({"type": "turned", "card": tg, "state": "resting"})
        elif op == "alert":
            for tg in targets:
                state["cards"][tg]["state"] = "alert"
                ev.append({"type": "turned", "card": tg, "state": "alert"})
        elif op == "buff":
            for tg in targets:
                state["cards"][tg].setdefault("mods", []).append({"stat": eff["stat"], "amount": eff["amount"], "until": eff["until"]})
                ev.append({"type": "modified", "card": tg, "stat": eff["stat"], "amount": eff["amount"]})
        elif op == "buff_team":
            for tg in state["p"][seat]["team"]:
                state["cards"][tg].setdefault("mods", []).append({"stat": eff["stat"], "amount": eff["amount"], "until": eff["until"]})
                ev.append({"type": "modified", "card": tg, "stat": eff["stat"], "amount": eff["amount"]})
        elif op == "ward":
            for tg in targets:
                state["cards"][tg].setdefault("wards", []).append({"src": item["card"]})
                ev.append({"type": "warded", "card": tg})
        elif op == "counter":
            for tg in targets:
                victim = next(it for it in state["thread"] if it["uid"] == tg)
                state["thread"].remove(victim)
                victim_def = S.cdef(state, victim["card"])
                ev.append({"type": "neutralised", "uid": tg, "name": victim_def["name_en"]})
                if victim["kind"] in ("summon", "obstacle"):
                    vc = state["cards"][victim["card"]]
                    vc["zone"] = None
                    vc["up"] = True
                    S.put(state, victim["card"], C.PAST, vc["owner"])
        elif op == "destroy":
            for tg in targets:
                ev.append({"type": "destroyed", "card": tg, "name": S.cdef(state, tg)["name_en"]})
                state["cards"][tg]["up"] = True
                to_past(state, tg, ev)
        elif op == "gain_mp":
            state["p"][seat]["mp"] += eff["amount"]
            ev.append({"type": "mp_gained", "seat": seat, "amount": eff["amount"]})
        elif op == "opp_lose_mp":
            o = state["p"][1 - seat]
            lost = min(o["mp"], eff["amount"])
            o["mp"] -= lost
            ev.append({"type": "mp_lost", "seat": 1 - seat, "amount": lost})
        elif op == "draw":
            draw_cards(state, seat, eff["n"], ev)
        elif op == "token":
            state["tokens"] += 1
            tid = f"KVT-{state['tokens']}"
            state["cards"][tid] = S.new_card(tid, eff["card"], seat, "row")
            state["cards"][tid]["zone"] = None
            S.put(state, tid, "row", seat)
            ev.append({"type": "token_created", "seat": seat, "card": tid, "name": card_defs()[eff["card"]]["name_en"]})
        elif op == "search_reserve":
            # "Cserepakli: a Jövőtől különálló pakli, amiből csak bizonyos lapok, hatások által kereshet ki
            # lapot a játékos": its player picks one card of it (a decision), which goes to the hand.
            # An empty (or spent) reserve: the effect does nothing.
            if state["p"][seat].get("reserve"):
                state["pending"].insert(0, {"kind": "reserve_pick", "seat": seat})
            else:
                ev.append({"type": "reserve_empty", "seat": seat})
        elif op == "free_maneuver":
            # an effect that starts a maneuver waits until the thread closes
            state["free_maneuver"] = {"seat": seat, "kind": eff["kind"]}
        else:  # pragma: no cover
            raise AssertionError(op)


def item_spec(state: dict, item: dict) -> str | None:
    d = S.cdef(state, item["card"])
    if item["kind"] in ("ability", "trigger"):
        return d["abilities"][item["ab"]].get("target")
    return d.get("target")
