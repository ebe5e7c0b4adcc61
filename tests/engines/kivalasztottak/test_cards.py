"""A test per card: each exercises the card's own text. ``test_every_card_is_tested`` keeps the list whole."""

from __future__ import annotations

import pytest

from engines.kivalasztottak import state as S
from engines.kivalasztottak.cards import card_defs
from engines.kivalasztottak.conditions import holds

from .helpers import (
    E,
    act,
    add,
    blank,
    combat,
    force_dice,
    give_prio,
    lowest,
    pass_,
    settle,
    team,
    to_decision,
    types,
    until_step,
    who,
)

TESTED: set[str] = set()


def cards(*keys):
    TESTED.update(keys)
    return lambda f: f


def test_every_card_is_tested():
    assert TESTED == set(card_defs())


# ---------------------------------------------------------------- tower levels
TOWERS = {"ortorony": (3, 2), "fegyverterem": (2, 2), "trofeacsarnok": (4, 1), "csontkapu": (3, 2),
          "karamszint": (2, 3), "samanfeszek": (4, 1)}
cards(*TOWERS)


@pytest.mark.parametrize("key", sorted(TOWERS))
def test_tower_wall_and_obstacle_limit(key):
    wall, cap = TOWERS[key]
    seat = 0 if key in ("ortorony", "fegyverterem", "trofeacsarnok") else 1
    st = blank(mp=(30, 30))
    tid = lowest(st, seat, key)
    assert (S.cdef(st, tid)["wall"], S.cdef(st, tid)["obstacles"]) == (wall, cap)
    for _ in range(cap):
        add(st, seat, "verem", "attached", on=tid, up=False)
    assert not E._obstacle_room(st, tid)
    # a team whose level equals the WALL may be sent home by the defender
    st = blank(mp=(30, 30)) if seat == 1 else None
    if st is None:
        return
    tid = lowest(st, 1, key)
    members = [add(st, 0, "vadkutya", "row") for _ in range(min(3, wall))]
    if wall == 4:
        members = [add(st, 0, "vadasz", "row"), add(st, 0, "vadasz", "row")]
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, members)
    to_decision(st)
    assert st["pending"][0]["kind"] == "wall_choice"


# ---------------------------------------------------------------- adventurers without abilities
PLAIN = {"vadasz": (2, 7, 2), "fejvadasz": (3, 8, 3), "torpepajzsos": (3, 9, 3), "klanharcos": (2, 8, 2),
         "nyomkereso": (2, 7, 2), "orkfejvadasz": (3, 9, 3)}
cards(*PLAIN)


@pytest.mark.parametrize("key", sorted(PLAIN))
def test_plain_adventurer_costs_its_mp_and_enters_alert_with_its_stats(key):
    cost, phys, level = PLAIN[key]
    st = blank(mp=(10, 10))
    cid = add(st, 0, key, "hand")
    act(st, 0, {"type": "summon", "card": cid})
    settle(st)
    assert st["p"][0]["mp"] == 10 - cost and cid in st["p"][0]["row"]
    v = next(a for a in E.view(st, 1)["players"][0]["row"] if a["id"] == cid)
    assert (v["state"], v["phys"], v["level"], v["threshold"]) == ("alert", phys, level, phys)
    d = card_defs()[key]
    assert len(d["skills"]) == 3 and d["caste"] == "HARCOS"


@cards("orkfejvadasz")
def test_servant_tongue_is_a_trait_conditions_can_ask_for():
    st = blank()
    ork = add(st, 1, "orkfejvadasz", "row")
    cond = {"parts": [{"n": 1, "trait": "SZOLGA NYELV"}]}
    assert holds(cond, [S.adv_desc(st, ork)], lambda a, x: 0)


@cards("csapdaallito")
def test_trapper_draws_a_card_when_it_enters():
    st = blank(mp=(10, 10))
    c = add(st, 0, "csapdaallito", "hand")
    act(st, 0, {"type": "summon", "card": c})
    ev = settle(st)
    assert "trigger" in types(ev) and len(st["p"][0]["hand"]) == 1


@cards("dorgan")
def test_dorgan_has_plus_one_threshold():
    st = blank()
    d = add(st, 0, "dorgan", "row")
    assert S.threshold(st, d) == 10 and S.attr(st, d, "phys") == 9


@cards("kraniorvlovesz")
def test_kráni_sniper_deals_one_damage_as_a_fast_effect():
    st = blank(mp=(10, 10))
    sniper = add(st, 0, "kraniorvlovesz", "row")
    target = add(st, 1, "vadasz", "row")
    adv = add(st, 1, "klanharcos", "hand")
    st["p"][1]["mp"] = 11
    st["prio"] = 1
    act(st, 1, {"type": "summon", "card": adv})
    # seat 0 answers in seat 1's thread
    act(st, 0, {"type": "activate", "card": sniper, "ability": 0, "target": target})
    assert st["p"][0]["mp"] == 9 and st["cards"][sniper]["state"] == "resting"  # 1 MP
    settle(st)
    assert st["cards"][target]["state"] == "injured"


@cards("bestiaszelidito", "vadkutya")
def test_beast_tamer_brings_a_wild_dog_token_that_can_be_sacrificed_to_heal():
    st = blank(mp=(10, 10))
    tamer = add(st, 0, "bestiaszelidito", "hand")
    act(st, 0, {"type": "summon", "card": tamer})
    assert st["p"][0]["mp"] == 6  # 4 MP
    settle(st)
    dog = next(c for c in st["p"][0]["row"] if c.startswith("KVT-"))
    assert S.cdef(st, dog)["token"] and S.level(st, dog) == 1
    st["cards"][tamer]["dmg"] = 2
    st["cards"][dog]["state"] = "injured"  # PERMANENT: works without being alert
    give_prio(st, 0)
    act(st, 0, {"type": "activate", "card": dog, "ability": 0, "target": tamer})
    assert st["cards"][dog]["zone"] == "gone"
    settle(st)
    assert st["cards"][tamer]["state"] == "alert"  # healed before the thread closed: no injury


@cards("ugra")
def test_ugra_heals_two_levels_once_per_round_even_when_resting():
    st = blank(mp=(10, 10))
    u = add(st, 1, "ugra", "row", state="resting")
    sniper = add(st, 0, "kraniorvlovesz", "row")
    act(st, 0, {"type": "activate", "card": sniper, "ability": 0, "target": u})
    pass_(st)
    pass_(st)  # the sniper's damage resolves; the thread is still open
    assert st["cards"][u]["dmg"] == 1 and st["thread"] == []
    give_prio(st, 1)
    act(st, 1, {"type": "activate", "card": u, "ability": 0})
    settle(st)
    assert st["cards"][u]["dmg"] == 0 and st["cards"][u]["state"] == "resting"  # no injury
    give_prio(st, 1)
    assert not any(a.get("card") == u for a in E.legal_actions(st, 1))  # once per round


# ---------------------------------------------------------------- attack cards
@cards("nyilzapor", "dobolandzsa")
@pytest.mark.parametrize("key", ["nyilzapor", "dobolandzsa"])
def test_ranged_attacks_deal_two_from_the_back_rank(key):
    st = blank(mp=(20, 10))
    f, r = add(st, 0, "torpepajzsos", "row"), add(st, 0, "vadasz", "row")
    b = add(st, 1, "ugra", "row")
    card = add(st, 0, key, "hand")
    combat(st, [f, r], [b], front_a=[f])
    assert [a["by"] for a in E.legal_actions(st, 0) if a.get("card") == card] == [r]
    force_dice(st, [(1, 2)])
    act(st, 0, {"type": "summon", "card": card, "by": r, "target": b})
    settle(st)
    assert st["cards"][b]["dmg"] == 2 and card in st["p"][0]["past"]


@cards("kardcsapas", "bardcsapas")
@pytest.mark.parametrize("key,dmg", [("kardcsapas", 2), ("bardcsapas", 3)])
def test_melee_attack_damage(key, dmg):
    st = blank(mp=(20, 10))
    f = add(st, 0, "torpepajzsos", "row")
    b = add(st, 1, "ugra", "row")
    card = add(st, 0, key, "hand")
    combat(st, [f], [b])
    force_dice(st, [(1, 2)])
    act(st, 0, {"type": "summon", "card": card, "by": f, "target": b})
    settle(st)
    assert st["cards"][b]["dmg"] == dmg


@cards("orvtamadas")
def test_ambush_is_a_row_attack_for_bounty_hunters_only():
    st = blank(mp=(10, 10))
    warrior = add(st, 0, "vadasz", "row")
    card = add(st, 0, "orvtamadas", "hand")
    target = add(st, 1, "ugra", "row")
    assert not any(a.get("card") == card for a in E.legal_actions(st, 0))  # no fejvadász
    hunter = add(st, 0, "fejvadasz", "row")
    assert [a["by"] for a in E.legal_actions(st, 0) if a.get("card") == card] == [hunter]
    del warrior
    force_dice(st, [(2, 2)])
    act(st, 0, {"type": "summon", "card": card, "by": hunter, "target": target})
    ev = settle(st)
    assert "damaged" in types(ev) and st["cards"][target]["state"] == "injured"


@cards("medveoleles")
def test_bear_hug_rests_the_target_even_on_a_miss_and_lasts_the_combat():
    st = blank(mp=(20, 10))
    f = add(st, 0, "klanharcos", "row")
    b = add(st, 1, "ugra", "row")
    card = add(st, 0, "medveoleles", "hand")
    combat(st, [f, add(st, 0, "vadasz", "row")], [b], front_a=[f])  # team level 4 > WALL 2
    force_dice(st, [(6, 6)])
    act(st, 0, {"type": "summon", "card": card, "by": f, "target": b})
    settle(st)
    assert st["cards"][b]["dmg"] == 0 and st["cards"][b]["state"] == "resting"
    assert card in st["p"][0]["events"]  # Combat duration
    _finish_combat(st)
    assert card in st["p"][0]["past"]


def _finish_combat(st):
    for _ in range(40):
        m = st["maneuver"]
        if m is None or m["step"] not in ("rounds", "result") or st["pending"]:
            return
        pass_(st)
    raise AssertionError("combat did not end")


# ---------------------------------------------------------------- equipment
@cards("vadaszkes", "csontbard")
@pytest.mark.parametrize("key,dmg", [("vadaszkes", 1), ("csontbard", 2)])
def test_melee_weapon_attacks_for_one_mp_from_the_front(key, dmg):
    st = blank(mp=(20, 10))
    f = add(st, 0, "torpepajzsos", "row")
    back = add(st, 0, "vadasz", "row")
    w = add(st, 0, key, "worn", on=f)
    w2 = add(st, 0, key, "worn", on=back)
    b = add(st, 1, "ugra", "row")
    combat(st, [f, back], [b], front_a=[f])
    legal = E.legal_actions(st, 0)
    assert {"type": "activate", "card": w, "ability": 0, "target": b} in legal
    assert not any(a.get("card") == w2 for a in legal)  # only from the front rank
    force_dice(st, [(1, 1)])
    act(st, 0, {"type": "activate", "card": w, "ability": 0, "target": b})
    assert st["p"][0]["mp"] == 17 and st["cards"][f]["state"] == "resting"
    settle(st)
    assert st["cards"][b]["dmg"] == dmg


@cards("borpancel", "medvebunda")
@pytest.mark.parametrize("key", ["borpancel", "medvebunda"])
def test_armour_takes_one_off_each_damage_but_not_damage_dealt_anyway(key):
    st = blank()
    a = add(st, 1, "ugra", "row")
    add(st, 1, key, "worn", on=a)
    E._damage(st, a, 2, False, [])
    assert st["cards"][a]["dmg"] == 1
    E._damage(st, a, 1, True, [])
    assert st["cards"][a]["dmg"] == 2
    if key == "medvebunda":
        assert S.attr(st, a, "phys") == 11


@cards("solyomszem")
def test_hawkeye_amulet_adds_threshold_and_cannot_be_unequipped():
    st = blank(mp=(10, 10))
    a = add(st, 0, "vadasz", "row")
    am = add(st, 0, "solyomszem", "hand")
    act(st, 0, {"type": "summon", "card": am})
    settle(st)
    assert am in st["p"][0]["store"]
    give_prio(st, 0)
    act(st, 0, {"type": "equip", "item": am, "to": a})
    settle(st)  # equipping goes on the time thread
    assert S.threshold(st, a) == 8
    give_prio(st, 0)
    assert {"type": "unequip", "item": am} not in E.legal_actions(st, 0)


@cards("szellemtotem")
def test_spirit_totem_raises_base_level_but_never_above_seven():
    st = blank()
    a = add(st, 1, "klanharcos", "row")
    add(st, 1, "szellemtotem", "worn", on=a)
    assert S.level(st, a) == 3
    u = add(st, 1, "ugra", "row", mods=[{"stat": "level", "amount": 1, "until": "round"}])
    add(st, 1, "szellemtotem", "worn", on=u)
    assert S.base_level(st, u) == 7


# ---------------------------------------------------------------- quests
def _group(st, seat, keys, **f):
    return [S.adv_desc(st, add(st, seat, k, "row", **f)) for k in keys]


QUEST_CASES = {  # (condition, a group that fulfils it, a group that does not)
    "farkasvadaszat": [(0, ["vadasz", "fejvadasz"], ["vadasz"]), (1, ["vadasz", "nyomkereso"], ["vadasz"]),
                       (2, ["orkfejvadasz", "bestiaszelidito"], ["dorgan"])],
    "szerzodes": [(0, ["fejvadasz"], ["orkfejvadasz", "nyomkereso"]), (1, ["dorgan"], ["fejvadasz"]),
                  (2, ["orkfejvadasz", "nyomkereso"], ["orkfejvadasz", "dorgan"])],
    "trofea": [(0, ["vadasz", "csapdaallito", "fejvadasz"], ["vadasz", "vadasz", "dorgan"]),
               (1, ["torpepajzsos", "vadasz"], ["vadasz"]), (2, ["ugra", "klanharcos"], ["ugra"])],
    "feherszarvas": [(0, ["klanharcos", "nyomkereso"], ["klanharcos"]), (1, ["bestiaszelidito"], ["klanharcos"]),
                     (2, ["kraniorvlovesz", "fejvadasz"], ["nyomkereso"])],
    "griff": [(0, ["bestiaszelidito", "klanharcos"], ["bestiaszelidito"]), (1, ["ugra"], ["dorgan"]),
              (2, ["dorgan", "fejvadasz"], ["dorgan"])],
    "verbosszu": [(0, ["orkfejvadasz", "orkfejvadasz"], ["orkfejvadasz", "nyomkereso"]),
                  (1, ["orkfejvadasz", "nyomkereso"], ["orkfejvadasz"]), (2, ["csapdaallito", "vadasz"], ["csapdaallito"])],
}
cards(*QUEST_CASES)


@pytest.mark.parametrize("key", sorted(QUEST_CASES))
def test_quest_conditions(key):
    st = blank()
    q = card_defs()[key]
    attr = E._attr_fn(st)
    for i, good, bad in QUEST_CASES[key]:
        assert holds(q["conditions"][i], _group(st, 0, good), attr), (key, i, good)
        assert not holds(q["conditions"][i], _group(st, 0, bad), attr), (key, i, bad)
    assert q["dp"] >= 2 and q["mp"] >= 1


@cards("griff")
def test_griffin_quest_draws_two_when_solved():
    st = blank(mp=(12, 10))
    q = add(st, 1, "griff", "quests")
    u = add(st, 0, "ugra", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    team(st, 0, [u])
    to_decision(st)
    act(st, 0, {"type": "solve", "condition": 1})
    settle(st)
    assert len(st["p"][0]["hand"]) == 2 and S.dp(st, 0) == 3 and st["p"][0]["mp"] == 10


# ---------------------------------------------------------------- buildings
@cards("vadaszkunyho", "orhaz")
def test_lodge_gives_one_mp_and_guardhouse_takes_one_when_a_round_opens():
    st = blank(mp=(10, 10))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 1, "orhaz", "buildings")
    pass_(st)
    pass_(st)
    for s in E.to_act(st):
        act(st, s, {"type": "no_discard"})
    settle(st)
    assert st["p"][0]["mp"] == 10 + 1 - 1 + 4


@cards("orhaz")
def test_guardhouse_condition():
    st = blank(mp=(10, 10))
    b = add(st, 0, "orhaz", "hand")
    add(st, 0, "vadasz", "row")
    assert {"type": "summon", "card": b} not in E.legal_actions(st, 0)
    add(st, 0, "fejvadasz", "row")  # fejvadász + Fizikum>7
    act(st, 0, {"type": "summon", "card": b})
    settle(st)
    assert S.dp(st, 0) == 2


@cards("szeliditokaram")
def test_taming_pen_turns_an_adventurer_alert_for_two_mp_once_per_round():
    st = blank(mp=(10, 10))
    pen = add(st, 0, "szeliditokaram", "buildings")
    a = add(st, 0, "klanharcos", "row", state="injured")
    add(st, 0, "klanharcos", "row", state="resting")
    act(st, 0, {"type": "activate", "card": pen, "ability": 0, "target": a})
    settle(st)
    assert st["cards"][a]["state"] == "alert" and st["p"][0]["mp"] == 8
    give_prio(st, 0)
    assert not any(x.get("card") == pen for x in E.legal_actions(st, 0))


# ---------------------------------------------------------------- allies
@cards("vadaszmester")
def test_huntmaster_heals_as_a_fast_effect_for_one_szp():
    st = blank(mp=(10, 10))
    m = add(st, 0, "vadaszmester", "allies")
    a = add(st, 0, "vadasz", "row")
    hunter = add(st, 1, "fejvadasz", "row")
    orv = add(st, 1, "orvtamadas", "hand")
    st["prio"] = 1
    force_dice(st, [(1, 1)])
    act(st, 1, {"type": "summon", "card": orv, "by": hunter, "target": a})
    pass_(st)
    pass_(st)  # the ambush resolves: 2 damage
    assert st["cards"][a]["dmg"] == 2
    give_prio(st, 0)
    act(st, 0, {"type": "activate", "card": m, "ability": 0, "target": a})
    settle(st)
    assert a in st["p"][0]["row"] and st["cards"][m]["szp"] == 2


@cards("szurkebunda")
def test_greypelt_neutralises_a_thread_effect_and_wounds_anyway():
    st = blank(mp=(10, 10))
    g = add(st, 1, "szurkebunda", "allies")
    adv = add(st, 0, "dorgan", "hand")
    act(st, 0, {"type": "summon", "card": adv})
    uid = st["thread"][0]["uid"]
    act(st, 1, {"type": "activate", "card": g, "ability": 1, "target": uid})
    settle(st)
    assert adv in st["p"][0]["past"] and st["cards"][g]["szp"] == 1
    # in combat: 1 damage anyway, through armour
    st = blank(mp=(20, 10))
    f = add(st, 0, "torpepajzsos", "row")
    add(st, 0, "borpancel", "worn", on=f)
    b = add(st, 1, "ugra", "row")
    g = add(st, 1, "szurkebunda", "allies")
    combat(st, [f], [b])
    give_prio(st, 1)
    act(st, 1, {"type": "activate", "card": g, "ability": 0, "target": f})
    settle(st)
    assert st["cards"][f]["dmg"] == 1


# ---------------------------------------------------------------- obstacles
def _obstacle_siege(key, team_keys=("dorgan", "fejvadasz")):
    st = blank(mp=(20, 10))
    tid = lowest(st, 1, "karamszint")
    o = add(st, 1, key, "attached", on=tid, up=False)
    members = [add(st, 0, k, "row") for k in team_keys]
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, members)
    until_step(st, "obstacles")
    give_prio(st, 1)
    return st, o, members


@cards("verem")
def test_pit_deals_two_damage():
    st, o, (a, b) = _obstacle_siege("verem")
    act(st, 1, {"type": "activate_obstacle", "card": o, "target": b})
    assert st["p"][1]["mp"] == 9
    ev = settle(st)
    assert {"type": "damaged", "card": b, "amount": 2, "level": 1, "anyway": False, "card_name": "Bounty Hunter",
            "card_key": "fejvadasz"} in ev
    assert st["cards"][b]["state"] == "injured"  # back in the Row after the siege, hurt


@cards("halocsapda")
def test_net_trap_lowers_physique_and_rests():
    st, o, (a, b) = _obstacle_siege("halocsapda")
    act(st, 1, {"type": "activate_obstacle", "card": o, "target": a})
    pass_(st)
    pass_(st)
    assert S.attr(st, a, "phys") == 6 and st["cards"][a]["state"] == "resting"
    settle(st)
    assert S.attr(st, a, "phys") == 9  # until the maneuver ends


@cards("vadaszkopok", "barlangimedve", "farkasfalka")
@pytest.mark.parametrize("key,number,attack,damage", [("vadaszkopok", 2, 7, 1), ("barlangimedve", 1, 8, 3),
                                                      ("farkasfalka", 3, 5, 1)])
def test_beast_number_attack_damage(key, number, attack, damage):
    st, o, _members = _obstacle_siege(key, ("ugra",) if key != "farkasfalka" else ("ugra", "torpepajzsos"))
    st["cards"][st["p"][1]["omen"][0]]["op"] = 0  # no omen bonus
    force_dice(st, [(1, 1)] * number)
    act(st, 1, {"type": "activate_obstacle", "card": o})
    ev = []
    for _ in range(8):
        if st["pending"]:
            ev += act(st, 0, E.legal_actions(st, 0)[0])
        elif st["thread"]:
            ev += pass_(st)
        else:
            break
    rolls = [e for e in ev if e["type"] == "beast_roll"]
    assert len(rolls) == number and all(r["attack"] == attack for r in rolls)
    assert all(e["amount"] == damage for e in ev if e["type"] == "damaged")


@cards("farkasfalka", "tuskessoveny")
def test_animate_obstacles_are_usable_in_combat():
    st = blank(mp=(12, 10))
    f = add(st, 0, "fejvadasz", "row")
    bf = add(st, 1, "klanharcos", "row")
    wolves = add(st, 1, "farkasfalka", "attached", on=st["p"][1]["towers"][1], up=False)
    add(st, 1, "barlangimedve", "attached", on=st["p"][1]["towers"][1], up=False)
    combat(st, [f], [bf])
    legal = E.legal_actions(st, 1)
    ids = {a["card"] for a in legal if a["type"] == "activate_obstacle"}
    assert wolves in ids and len(ids) == 1  # the cave bear is not ANIMATE
    st2 = blank(mp=(12, 10))
    f = add(st2, 0, "fejvadasz", "row")
    f2 = add(st2, 0, "fejvadasz", "row")
    bf = add(st2, 1, "klanharcos", "row")
    hedge = add(st2, 1, "tuskessoveny", "attached", on=st2["p"][1]["towers"][2], up=False)
    combat(st2, [f, f2], [bf])
    act(st2, 1, {"type": "activate_obstacle", "card": hedge, "tap": bf})
    settle(st2)
    assert st2["cards"][f]["dmg"] == 1 and st2["cards"][f2]["dmg"] == 1


# ---------------------------------------------------------------- events
@cards("hajtovadaszat")
def test_drive_hunt_starts_a_free_siege_after_the_thread_closes():
    st = blank(mp=(10, 10))
    a = add(st, 0, "dorgan", "row")
    ev = add(st, 0, "hajtovadaszat", "hand")
    act(st, 0, {"type": "summon", "card": ev})
    pass_(st)
    pass_(st)
    assert st["maneuver"] is None  # waits for the thread to close
    settle(st)
    assert st["maneuver"]["kind"] == "siege" and st["maneuver"]["cost"] == 0
    team(st, 0, [a])
    assert st["p"][0]["mp"] == 9


@cards("jozsakmany")
def test_good_bounty_is_free_and_draws_two():
    st = blank(mp=(0, 10))
    st["prio"] = 0
    c = add(st, 0, "jozsakmany", "hand")
    act(st, 0, {"type": "summon", "card": c})
    settle(st)
    assert len(st["p"][0]["hand"]) == 2


@cards("futargalamb")
def test_carrier_pigeon_brings_a_card_of_the_reserve_to_the_hand():
    st = blank(mp=(10, 10))
    kept = add(st, 0, "ugra", "reserve")
    c = add(st, 0, "futargalamb", "hand")
    act(st, 0, {"type": "summon", "card": c})
    settle(st)
    assert st["p"][0]["mp"] == 9 and E.legal_actions(st, 0) == [{"type": "reserve_pick", "card": kept}]
    act(st, 0, {"type": "reserve_pick", "card": kept})
    assert st["p"][0]["hand"] == [kept] and st["p"][0]["reserve"] == []
    assert st["cards"][c]["zone"] == "past"


@cards("csapdaleszereles")
def test_disarm_destroys_a_hidden_obstacle_at_the_location():
    st = blank(mp=(20, 10))
    tid = lowest(st, 1, "karamszint")
    o = add(st, 1, "verem", "attached", on=tid, up=False)
    d = add(st, 0, "csapdaleszereles", "hand")
    a = add(st, 0, "dorgan", "row")
    assert not any(x.get("card") == d for x in E.legal_actions(st, 0))  # Maneuver phase only
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [a])
    give_prio(st, 0)
    act(st, 0, {"type": "summon", "card": d, "target": "obstacle-0"})
    settle(st)
    assert o in st["p"][1]["past"] and st["cards"][o]["up"]


@cards("telihold")
def test_full_moon_gives_the_team_plus_one_physique_for_the_combat():
    st = blank(mp=(20, 10))
    f = add(st, 0, "klanharcos", "row")
    b = add(st, 1, "vadasz", "row")
    moon = add(st, 0, "telihold", "hand")
    combat(st, [f, add(st, 0, "vadasz", "row")], [b], front_a=[f])
    act(st, 0, {"type": "summon", "card": moon})
    settle(st)
    assert S.attr(st, f, "phys") == 9 and moon in st["p"][0]["events"]
    _finish_combat(st)
    assert S.attr(st, f, "phys") == 8 and moon in st["p"][0]["past"]


@cards("menedek")
def test_refuge_prevents_the_next_damage_then_goes_to_the_past():
    st = blank(mp=(10, 10))
    a = add(st, 1, "vadasz", "row")
    sniper = add(st, 0, "kraniorvlovesz", "row")
    r = add(st, 1, "menedek", "hand")
    act(st, 0, {"type": "activate", "card": sniper, "ability": 0, "target": a})
    act(st, 1, {"type": "summon", "card": r, "target": a})
    assert who(st) == 0
    settle(st)
    assert st["cards"][a]["dmg"] == 0 and st["cards"][a]["state"] == "alert"
    assert r in st["p"][1]["past"]


# ---------------------------------------------------------------- omen
@cards("verhold")
def test_blood_moon_adds_one_beast_attack_while_it_has_omen_points():
    st = blank()
    omen = st["p"][1]["omen"][0]
    assert S.omen_bonus(st, 1, "beast_attack") == 1
    st["cards"][omen]["op"] = 0
    assert S.omen_bonus(st, 1, "beast_attack") == 0
