"""Effects as they resolve: attacks (2d6 against the threshold), damage against armour and wards, and the
table of effect operations (damage, heal, rest, buff, ward, counter, destroy, MP, draw, tokens, ...).
"""

from __future__ import annotations

from collections.abc import Callable

from . import common as C
from . import state as S
from .cards import card_defs
from .zones import draw_cards, roll, to_past


def ward_holder(state: dict, src: str) -> bool:
    """Does a ward that card ``src`` gave still protect some card?"""
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


def item_spec(state: dict, item: dict) -> str | None:
    """The target spec of the ability, trigger or card a thread item resolves."""
    d = S.cdef(state, item["card"])
    if item["kind"] in ("ability", "trigger"):
        return d["abilities"][item["ab"]].get("target")
    return d.get("target")


# ---------------------------------------------------------------- the effect operations
# each: (state, item being resolved, the effect, its still valid targets, events)
def _op_damage(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    spec = item_spec(state, item)
    tgs = list(state["p"][1 - item["seat"]]["team"]) if spec == "all_enemy_team" else targets
    for tg in tgs:
        if tg in state["cards"] and state["cards"][tg]["zone"] in ("row", "team"):
            deal_damage(state, tg, eff["amount"], eff.get("anyway", False), ev)


def _op_heal(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        c = state["cards"][tg]
        healed = min(c["dmg"], eff["amount"])
        c["dmg"] -= healed
        ev.append({"type": "healed", "card": tg, "amount": healed})


def _op_attack(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    if targets:
        attack_roll(state, item["seat"], item["by"], targets[0], eff["damage"], ev,
                    S.cdef(state, item["card"])["name_en"])


def _op_rest(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        if state["cards"][tg]["zone"] in ("row", "team"):
            state["cards"][tg]["state"] = "resting"
            ev.append({"type": "turned", "card": tg, "state": "resting"})


def _op_alert(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        state["cards"][tg]["state"] = "alert"
        ev.append({"type": "turned", "card": tg, "state": "alert"})


def _buff(state: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        state["cards"][tg].setdefault("mods", []).append({"stat": eff["stat"], "amount": eff["amount"],
                                                          "until": eff["until"]})
        ev.append({"type": "modified", "card": tg, "stat": eff["stat"], "amount": eff["amount"]})


def _op_buff(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    _buff(state, eff, targets, ev)


def _op_buff_team(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    _buff(state, eff, state["p"][item["seat"]]["team"], ev)


def _op_ward(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        state["cards"][tg].setdefault("wards", []).append({"src": item["card"]})
        ev.append({"type": "warded", "card": tg})


def _op_counter(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
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


def _op_destroy(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    for tg in targets:
        ev.append({"type": "destroyed", "card": tg, "name": S.cdef(state, tg)["name_en"]})
        state["cards"][tg]["up"] = True
        to_past(state, tg, ev)


def _op_gain_mp(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    seat = item["seat"]
    state["p"][seat]["mp"] += eff["amount"]
    ev.append({"type": "mp_gained", "seat": seat, "amount": eff["amount"]})


def _op_opp_lose_mp(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    seat = item["seat"]
    o = state["p"][1 - seat]
    lost = min(o["mp"], eff["amount"])
    o["mp"] -= lost
    ev.append({"type": "mp_lost", "seat": 1 - seat, "amount": lost})


def _op_draw(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    draw_cards(state, item["seat"], eff["n"], ev)


def _op_token(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    seat = item["seat"]
    state["tokens"] += 1
    tid = f"KVT-{state['tokens']}"
    state["cards"][tid] = S.new_card(tid, eff["card"], seat, "row")
    state["cards"][tid]["zone"] = None
    S.put(state, tid, "row", seat)
    ev.append({"type": "token_created", "seat": seat, "card": tid, "name": card_defs()[eff["card"]]["name_en"]})


def _op_search_reserve(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    # "Cserepakli: a Jövőtől különálló pakli, amiből csak bizonyos lapok, hatások által kereshet ki
    # lapot a játékos": its player picks one card of it (a decision), which goes to the hand.
    # An empty (or spent) reserve: the effect does nothing.
    seat = item["seat"]
    if state["p"][seat].get("reserve"):
        state["pending"].insert(0, {"kind": "reserve_pick", "seat": seat})
    else:
        ev.append({"type": "reserve_empty", "seat": seat})


def _op_free_maneuver(state: dict, item: dict, eff: dict, targets: list, ev: list) -> None:
    # an effect that starts a maneuver waits until the thread closes
    state["free_maneuver"] = {"seat": item["seat"], "kind": eff["kind"]}


EFFECT_OPS: dict[str, Callable[[dict, dict, dict, list, list], None]] = {
    "damage": _op_damage,
    "heal": _op_heal,
    "attack": _op_attack,
    "rest": _op_rest,
    "alert": _op_alert,
    "buff": _op_buff,
    "buff_team": _op_buff_team,
    "ward": _op_ward,
    "counter": _op_counter,
    "destroy": _op_destroy,
    "gain_mp": _op_gain_mp,
    "opp_lose_mp": _op_opp_lose_mp,
    "draw": _op_draw,
    "token": _op_token,
    "search_reserve": _op_search_reserve,
    "free_maneuver": _op_free_maneuver,
}


def run_effects(state: dict, item: dict, effects: list, targets: list, ev: list) -> None:
    """Run the effect operations of the resolving thread ``item`` in order (see ``EFFECT_OPS``)."""
    for eff in effects:
        EFFECT_OPS[eff["op"]](state, item, eff, targets, ev)
