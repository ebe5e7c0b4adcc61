"""Out-of-row maneuvers, combat, obstacles, equipment, buildings, allies and quests (a test per rule)."""

from __future__ import annotations

from engines.kivalasztottak import state as S

from .helpers import E, act, add, blank, force_dice, give_prio, pass_, settle, types, who


def _team(st, seat, cards, done=True):
    for c in cards:
        act(st, seat, {"type": "team_add", "card": c})
    if done:
        act(st, seat, {"type": "team_done"})


def _to_decision(st, limit=60):
    """Pass through maneuver threads until somebody must decide something (or the maneuver is over)."""
    ev = []
    for _ in range(limit):
        if st["pending"] or st["maneuver"] is None or (st["maneuver"]["step"] == "rounds" and st["thread"] is None):
            return ev
        ev += pass_(st)
    raise AssertionError("no decision reached")


def _until_step(st, step, limit=30):
    """Pass until the maneuver's ``step`` has its thread open."""
    for _ in range(limit):
        m = st["maneuver"]
        if m and m["step"] == step and st["thread"] is not None and not st["pending"]:
            return
        pass_(st)
    raise AssertionError(f"step {step} not reached")


def _lowest_wall(st, seat, key):
    """Put tower ``key`` at the bottom of ``seat``'s tower."""
    p = st["p"][seat]
    tid = next(t for t in p["towers"] if st["cards"][t]["k"] == key)
    p["towers"].remove(tid)
    p["towers"].insert(0, tid)
    return tid


def test_team_has_one_to_three_alert_adventurers_and_returns_resting():
    st = blank()
    advs = [add(st, 0, "vadasz", "row") for _ in range(4)]
    tired = add(st, 0, "vadasz", "row", state="resting")
    _lowest_wall(st, 1, "samanfeszek")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    legal = E.legal_actions(st, 0)
    assert {"type": "team_add", "card": tired} not in legal
    assert {"type": "team_done"} not in legal  # at least one adventurer
    _team(st, 0, advs[:3], done=False)
    assert not any(a["type"] == "team_add" for a in E.legal_actions(st, 0))  # at most three
    act(st, 0, {"type": "team_done"})
    assert st["p"][0]["mp"] == 8  # a siege costs 2 MP
    ev = _to_decision(st)
    assert "tower_revealed" in types(ev)
    # WALL 4 < team level 6: no wall choice; the defender has nobody to block with
    assert st["maneuver"] is None
    for a in advs[:3]:
        assert st["cards"][a]["zone"] == "row" and st["cards"][a]["state"] == "resting"
    assert len(st["p"][1]["towers"]) == 2


def test_siege_wall_lets_the_defender_end_it_and_the_level_turns_face_down_again():
    st = blank()
    a = add(st, 0, "vadasz", "row")
    tid = _lowest_wall(st, 1, "csontkapu")  # WALL 3 >= team level 2
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, [a])
    _to_decision(st)
    assert st["pending"][0]["kind"] == "wall_choice" and who(st) == 1
    assert st["cards"][tid]["up"] is True
    act(st, 1, {"type": "end_siege"})
    assert st["maneuver"] is None and tid in st["p"][1]["towers"] and st["cards"][tid]["up"] is False


def test_siege_combat_adds_the_wall_to_the_blockers():
    st = blank()
    a = [add(st, 0, "dorgan", "row"), add(st, 0, "fejvadasz", "row")]  # team level 7
    b = add(st, 1, "klanharcos", "row")  # 2 + WALL 2 = 4
    tid = _lowest_wall(st, 1, "karamszint")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, a)
    _to_decision(st)
    assert st["pending"][0] == {"kind": "team", "seat": 1, "role": "block"}
    _team(st, 1, [b])
    _to_decision(st)
    assert st["pending"][0]["kind"] == "ranks" and who(st) == 0  # the initiator sets ranks first
    assert len(E.legal_actions(st, 0)) == 3  # every split with at least one in front
    act(st, 0, {"type": "ranks", "front": a})
    act(st, 1, {"type": "ranks", "front": [b]})
    assert st["maneuver"]["step"] == "rounds"
    pass_(st)
    ev = pass_(st)  # a combat round where nobody acted ends the combat rounds
    res = next(e for e in ev if e["type"] == "combat_result")
    assert res["levels"] == [7, 4] and res["winner"] == 0
    _to_decision(st)
    assert tid not in st["p"][1]["towers"]


def test_destroying_the_last_tower_level_wins_at_once():
    st = blank()
    a = add(st, 0, "dorgan", "row")
    for t in st["p"][1]["towers"][1:]:
        E._to_past(st, t)
    _lowest_wall(st, 1, st["cards"][st["p"][1]["towers"][0]]["k"])
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, [a])
    _to_decision(st)
    if st["pending"] and st["pending"][0]["kind"] == "wall_choice":
        act(st, 1, {"type": "continue_siege"})
    assert E.result(st)["reason"] == "towers" and E.result(st)["places"] == [1, 2]


def test_quest_solving_pays_mp_gives_dp_reward_and_on_solve_effect():
    st = blank(mp=(12, 10))
    q = add(st, 0, "szerzodes", "quests")
    reward = add(st, 0, "borpancel", "hand")
    act(st, 0, {"type": "attach_reward", "card": reward, "quest": q})
    settle(st)
    assert reward in st["cards"][q]["att"] and st["p"][0]["mp"] == 11  # the 1-MP armour is paid for
    st["p"][0]["mp"] = 12
    f = add(st, 0, "fejvadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    _team(st, 0, [f])
    _to_decision(st)
    legal = E.legal_actions(st, 0)
    assert {"type": "solve", "condition": 0} in legal  # fejvadász + Lesvetés II
    assert {"type": "solve", "condition": 1} not in legal  # needs a named zsoldos
    act(st, 0, {"type": "solve", "condition": 0})
    assert q in st["p"][0]["solved"] and S.dp(st, 0) == 3 and st["p"][0]["mp"] == 10
    assert reward in st["p"][0]["store"]
    settle(st)
    assert st["p"][0]["mp"] == 12  # +2 MP when solved


def test_quest_obstacles_are_activated_against_the_solvers_and_can_spoil_the_condition():
    st = blank(mp=(10, 10))
    q = add(st, 0, "farkasvadaszat", "quests")
    pit = add(st, 1, "verem", "attached", on=q, up=False)
    v1, v2 = add(st, 0, "vadasz", "row"), add(st, 0, "vadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    _team(st, 0, [v1, v2])
    # no blocker possible: straight to the obstacles phase, where seat 1 may spring its pit
    _until_step(st, "obstacles")
    for _ in range(4):
        if who(st) == 1:
            break
        pass_(st)
    act(st, 1, {"type": "activate_obstacle", "card": pit, "target": v1})
    assert st["p"][1]["mp"] == 9 and st["cards"][pit]["up"]
    ev = _to_decision(st)
    assert "died" in types(ev) and pit in st["p"][1]["past"]
    assert E.legal_actions(st, 0) == [{"type": "decline"}]  # 2x vadász no longer holds


def test_quest_blocker_who_wins_the_combat_may_solve_the_quest_himself():
    st = blank(mp=(10, 10))
    q = add(st, 0, "farkasvadaszat", "quests")
    v = add(st, 0, "vadasz", "row")
    u = add(st, 1, "ugra", "row")
    tamer = add(st, 1, "bestiaszelidito", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    _team(st, 0, [v])
    _to_decision(st)
    _team(st, 1, [u, tamer])
    _to_decision(st)
    act(st, 0, {"type": "ranks", "front": [v]})
    act(st, 1, {"type": "ranks", "front": [u]})
    pass_(st)
    pass_(st)
    _to_decision(st)
    assert st["cards"][v]["zone"] == "row"  # the loser went back to the Row
    assert st["pending"][0] == {"kind": "continue_quest", "seat": 1}
    act(st, 1, {"type": "continue"})
    _to_decision(st)
    act(st, 1, {"type": "solve", "condition": 2})  # Fizikum>8 (Ugra) + Nyomolvasás (the Beast Tamer)
    assert q in st["p"][1]["solved"] and S.dp(st, 1) == 2


def test_building_capture_costs_its_dp_changes_control_and_drops_attachments():
    st = blank(mp=(10, 10))
    b = add(st, 1, "szeliditokaram", "buildings")
    obst = add(st, 1, "verem", "attached", on=b, up=False)
    for key in ("vadaszkunyho", "vadaszkunyho", "orhaz"):
        add(st, 0, key, "buildings")
    d = add(st, 0, "dorgan", "row")
    act(st, 0, {"type": "maneuver", "kind": "capture", "target": b})
    _team(st, 0, [d])
    assert st["p"][0]["mp"] == 8
    _to_decision(st)
    assert b in st["p"][0]["buildings"] and st["cards"][b]["ctrl"] == 0
    assert obst in st["p"][1]["past"]
    # a fourth building: its new controller destroys one before anybody acts
    assert st["pending"][0]["kind"] == "destroy_building" and who(st) == 0
    act(st, 0, {"type": "destroy_building", "card": b})
    assert len(st["p"][0]["buildings"]) == 3


def test_beast_attacks_number_times_victim_chosen_by_attacked_player_omen_adds_attack():
    st = blank(mp=(10, 10))
    tid = _lowest_wall(st, 1, "karamszint")
    wolves = add(st, 1, "farkasfalka", "attached", on=tid, up=False)
    a1, a2 = add(st, 0, "dorgan", "row"), add(st, 0, "fejvadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, [a1, a2])
    _until_step(st, "obstacles")
    while who(st) != 1:
        pass_(st)
    act(st, 1, {"type": "activate_obstacle", "card": wolves})
    force_dice(st, [(3, 3), (6, 6)])
    pass_(st)
    ev = pass_(st)
    assert "beast_attacks" in types(ev)
    atk = next(e for e in ev if e["type"] == "beast_attacks")
    assert atk["number"] == 3 and atk["attack"] == 6  # ATTACK 5 + 1 from the Blood Moon omen
    assert st["pending"][0] == {"kind": "beast_target", "seat": 0}
    ev = act(st, 0, {"type": "beast_target", "card": a2})
    ev += act(st, 0, {"type": "beast_target", "card": a2})
    ev += act(st, 0, {"type": "beast_target", "card": a1})
    rolls = [e for e in ev if e["type"] == "beast_roll"]
    assert len(rolls) == 3 and rolls[0]["hit"] and not rolls[1]["hit"]
    assert st["cards"][a2]["dmg"] == 1  # 6 <= 6 hit, 12 missed


def test_victorious_beast_is_reattached():
    st = blank(mp=(10, 10))
    tid = _lowest_wall(st, 1, "csontkapu")
    bear = add(st, 1, "barlangimedve", "attached", on=tid, up=False)
    a = add(st, 0, "vadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, [a])
    _until_step(st, "obstacles")
    while who(st) != 1:
        pass_(st)
    act(st, 1, {"type": "activate_obstacle", "card": bear})
    force_dice(st, [(1, 1)])
    ev = settle(st)
    assert "beast_victorious" in types(ev) and "beast_reattached" in types(ev)
    assert bear in st["cards"][tid]["att"] and st["cards"][bear]["up"] is False
    assert st["maneuver"] is None and a in st["p"][0]["past"]


def _combat(st, a, b, front_a=None, front_b=None):
    tid = _lowest_wall(st, 1, "karamszint")  # WALL 2
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, a)
    _to_decision(st)
    _team(st, 1, b)
    _to_decision(st)
    act(st, 0, {"type": "ranks", "front": front_a or a})
    act(st, 1, {"type": "ranks", "front": front_b or b})
    return tid


def test_melee_attacks_from_front_to_front_and_ranged_from_back_to_anyone():
    st = blank(mp=(20, 10))
    f, r = add(st, 0, "fejvadasz", "row"), add(st, 0, "vadasz", "row")
    bf, bb = add(st, 1, "klanharcos", "row"), add(st, 1, "nyomkereso", "row")
    sword, arrows = add(st, 0, "kardcsapas", "hand"), add(st, 0, "nyilzapor", "hand")
    _combat(st, [f, r], [bf, bb], front_a=[f], front_b=[bf])
    assert who(st) == 0
    legal = E.legal_actions(st, 0)
    melee = [a for a in legal if a.get("card") == sword]
    ranged = [a for a in legal if a.get("card") == arrows]
    assert melee == [{"type": "summon", "card": sword, "by": f, "target": bf}]
    assert {(a["by"], a["target"]) for a in ranged} == {(r, bf), (r, bb)}
    force_dice(st, [(3, 4)])
    act(st, 0, {"type": "summon", "card": sword, "by": f, "target": bf})
    assert st["cards"][f]["state"] == "resting"
    ev = settle(st)
    roll = next(e for e in ev if e["type"] == "attack_roll")
    hit = next(e for e in ev if e["type"] == "damaged")
    assert roll["threshold"] == 8 and roll["hit"] and hit["amount"] == 2 and hit["level"] == 0
    assert "died" in types(ev) and bf in st["p"][1]["past"]  # level 0 dies when the thread closes


def test_combat_round_restarts_with_everybody_alert_and_ends_after_an_empty_round():
    st = blank(mp=(20, 10))
    f = add(st, 0, "fejvadasz", "row")
    bf = add(st, 1, "klanharcos", "row")
    sword = add(st, 0, "kardcsapas", "hand")
    _combat(st, [f], [bf])
    force_dice(st, [(6, 6)])
    act(st, 0, {"type": "summon", "card": sword, "by": f, "target": bf})
    settle(st)
    assert st["cards"][f]["state"] == "resting"
    pass_(st)
    ev = pass_(st)
    assert "combat_round" in types(ev) and st["maneuver"]["round"] == 2
    assert st["cards"][f]["state"] == "alert"
    pass_(st)
    ev = pass_(st)
    assert "combat_result" in types(ev)


def test_animate_obstacle_fights_in_combat_rounds_for_a_turned_team_member():
    st = blank(mp=(12, 10))
    f = add(st, 0, "fejvadasz", "row")
    bf = add(st, 1, "klanharcos", "row")
    hedge = add(st, 1, "tuskessoveny", "attached", on=st["p"][1]["towers"][2], up=False)
    _combat(st, [f], [bf])
    assert who(st) == 1
    legal = E.legal_actions(st, 1)
    assert {"type": "activate_obstacle", "card": hedge, "tap": bf} in legal
    act(st, 1, {"type": "activate_obstacle", "card": hedge, "tap": bf})
    assert st["cards"][bf]["state"] == "resting"
    settle(st)
    assert st["cards"][f]["dmg"] == 1 and hedge in st["p"][1]["past"]


def test_equipment_limits_magic_items_stay_and_gear_of_the_fallen():
    st = blank(mp=(20, 10))
    a = add(st, 0, "vadasz", "row")
    k1, k2 = add(st, 0, "vadaszkes", "store"), add(st, 0, "vadaszkes", "store")
    amulet = add(st, 0, "solyomszem", "store")
    act(st, 0, {"type": "equip", "item": k1, "to": a})
    settle(st)
    give_prio(st, 0)
    assert {"type": "equip", "item": k2, "to": a} not in E.legal_actions(st, 0)  # one melee weapon
    act(st, 0, {"type": "equip", "item": amulet, "to": a})
    settle(st)
    give_prio(st, 0)
    assert S.threshold(st, a) == 8
    legal = E.legal_actions(st, 0)
    assert {"type": "unequip", "item": k1} in legal and {"type": "unequip", "item": amulet} not in legal
    # dying in the Row: the gear goes back to the Store
    st["cards"][a]["dmg"] = 5
    E._die(st, a, [])
    assert k1 in st["p"][0]["store"] and amulet in st["p"][0]["store"]


def test_gear_of_an_adventurer_dying_in_a_maneuver_is_destroyed():
    st = blank(mp=(10, 10))
    a = add(st, 0, "vadasz", "row")
    armour = add(st, 0, "borpancel", "worn", on=a)
    _lowest_wall(st, 1, "csontkapu")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    _team(st, 0, [a])
    st["cards"][a]["dmg"] = 9
    _to_decision(st)
    assert armour in st["p"][0]["past"] and a in st["p"][0]["past"]


def test_buildings_and_allies_need_their_condition_in_the_row_allies_spend_szp():
    st = blank(mp=(10, 10))
    lodge = add(st, 0, "vadaszkunyho", "hand")
    master = add(st, 0, "vadaszmester", "hand")
    assert not any(a.get("card") in (lodge, master) for a in E.legal_actions(st, 0))
    add(st, 0, "vadasz", "row")
    assert {"type": "summon", "card": master} in E.legal_actions(st, 0)
    assert {"type": "summon", "card": lodge} not in E.legal_actions(st, 0)  # 2x vadász
    add(st, 0, "csapdaallito", "row")
    act(st, 0, {"type": "summon", "card": master})
    settle(st)
    assert st["cards"][master]["szp"] == 3
    for _ in range(3):
        while who(st) != 0:
            pass_(st)
        act(st, 0, {"type": "activate", "card": master, "ability": 1})
        settle(st)
    assert master in st["p"][0]["past"]  # 0 SZP: destroyed


def test_quest_limit_three_and_opponent_may_attach_an_obstacle_to_a_new_quest():
    st = blank(mp=(10, 10))
    for _ in range(3):
        add(st, 0, "trofea", "quests")
    q = add(st, 0, "farkasvadaszat", "hand")
    assert {"type": "summon", "card": q} not in E.legal_actions(st, 0)
    st = blank(mp=(10, 10))
    q = add(st, 0, "farkasvadaszat", "hand")
    pit = add(st, 1, "verem", "hand")
    act(st, 0, {"type": "summon", "card": q})
    pass_(st)
    pass_(st)
    assert q in st["p"][0]["quests"] and st["thread"] == []
    while who(st) != 1:
        pass_(st)
    assert {"type": "summon", "card": pit, "target": q} in E.legal_actions(st, 1)
    ev = act(st, 1, {"type": "summon", "card": pit, "target": q})
    assert "summoned_hidden" in types(ev) and pit not in str(E.view(st, 0))
    settle(st)
    assert pit in st["cards"][q]["att"]


def test_obstacles_attach_hidden_to_own_places_up_to_their_limit():
    st = blank(mp=(10, 10))
    tower = _lowest_wall(st, 0, "trofeacsarnok")  # OBSTACLES 1
    p1, p2 = add(st, 0, "verem", "hand"), add(st, 0, "verem", "hand")
    act(st, 0, {"type": "summon", "card": p1, "target": tower})
    settle(st)
    assert p1 in st["cards"][tower]["att"] and not st["cards"][p1]["up"]
    assert {"type": "summon", "card": p2, "target": tower} not in E.legal_actions(st, 0)
    opp_view = E.view(st, 1)
    assert opp_view["players"][0]["towers"][0].get("hidden")
