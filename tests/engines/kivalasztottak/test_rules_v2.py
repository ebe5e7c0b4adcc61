"""Rules version 2 (issue 11): the rulebook's thread priority, gear actions on the thread, paid quest rewards,
the blocking phase's thread, tower MP value, "no race = human", heals only for the damaged — and games saved
under version 1 still load and finish."""

from __future__ import annotations

import json
from pathlib import Path

from engines.kivalasztottak import state as S
from engines.kivalasztottak.cards import card_defs
from engines.kivalasztottak.conditions import holds
from engines.rng import Rng

from .helpers import E, act, add, blank, give_prio, pass_, settle, team, who

V1_SNAPSHOT = Path(__file__).parent / "data" / "v1_snapshot.json"


def test_the_active_player_acts_first_in_an_open_thread():
    st = blank(mp=(20, 10))
    add(st, 0, "vadasz", "hand")
    act(st, 0, {"type": "summon", "card": st["p"][0]["hand"][0]})
    # seat 0 still has more MP (18 against 10): it is the active player and acts first (book l.229)
    assert st["thread"] and who(st) == 0
    pass_(st)
    assert who(st) == 1  # then the opponent


def test_after_a_pass_the_opponents_action_still_gives_the_active_player_the_first_answer():
    st = blank(mp=(20, 10))
    add(st, 1, "vadasz", "hand")
    pass_(st)  # seat 0 passes: seat 1 may act once
    act(st, 1, {"type": "summon", "card": st["p"][1]["hand"][0]})
    assert st["thread"] and who(st) == 0


def test_equipping_and_unequipping_go_on_the_time_thread():
    st = blank(mp=(10, 10))
    a = add(st, 0, "vadasz", "row")
    knife = add(st, 0, "vadaszkes", "store")
    act(st, 0, {"type": "equip", "item": knife, "to": a})
    assert [it["kind"] for it in st["thread"]] == ["equip"]
    assert knife in st["p"][0]["store"]  # not worn before it resolves
    view = E.view(st, 1)
    assert view["thread"][0]["name"] == "Hunting Knife" and view["thread"][0]["targets"] == [a]
    settle(st)
    assert st["cards"][knife]["zone"] == "worn" and st["cards"][knife]["on"] == a
    give_prio(st, 0)
    act(st, 0, {"type": "unequip", "item": knife})
    assert [it["kind"] for it in st["thread"]] == ["unequip"] and st["cards"][knife]["zone"] == "worn"
    settle(st)
    assert knife in st["p"][0]["store"]


def test_gear_attached_from_the_hand_to_a_quest_is_paid_for():
    st = blank(mp=(12, 10))
    q = add(st, 0, "griff", "quests")  # DP 3
    cloak = add(st, 0, "medvebunda", "hand")  # MP 2
    act(st, 0, {"type": "attach_reward", "card": cloak, "quest": q})
    assert st["p"][0]["mp"] == 10 and st["thread"][0]["reward"] == q
    settle(st)
    assert cloak in st["cards"][q]["att"]


def test_a_reward_that_cannot_be_paid_is_not_offered():
    st = blank(mp=(1, 10))
    q = add(st, 0, "griff", "quests")
    cloak = add(st, 0, "medvebunda", "hand")
    st["prio"] = 0
    assert q and not any(a["type"] == "attach_reward" and a["card"] == cloak for a in E.legal_actions(st, 0))


def test_the_blocking_phase_closes_with_a_thread_even_when_nobody_blocks():
    st = blank(mp=(10, 10))
    v = add(st, 0, "dorgan", "row")
    add(st, 1, "klanharcos", "row")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [v])
    seen = []
    for _ in range(40):
        if st["pending"] and st["pending"][0]["kind"] == "team":
            act(st, 1, {"type": "no_block"})
            continue
        if st["pending"] and st["pending"][0]["kind"] == "wall_choice":
            act(st, 1, {"type": "continue_siege"})
            continue
        if st["maneuver"] is None:
            break
        if st["thread"] is not None:
            seen.append(st["maneuver"]["step"])
        pass_(st)
    assert "block_thread" in seen
    assert seen.index("block_thread") > seen.index("obstacles")


def test_no_blocker_at_all_also_gets_the_blocking_thread():
    st = blank(mp=(10, 10))
    q = add(st, 0, "farkasvadaszat", "quests")
    v1, v2 = add(st, 0, "vadasz", "row"), add(st, 0, "vadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": q})
    team(st, 0, [v1, v2])
    steps = []
    for _ in range(10):
        if st["thread"] is not None:
            steps.append(st["maneuver"]["step"])
        if st["pending"]:
            break
        pass_(st)
    assert steps[:2] == ["init_thread", "init_thread"] and "block_thread" in steps


def test_tower_levels_have_mp_value_four():
    towers = [d for d in card_defs().values() if d["type"] == "tower"]
    assert towers and all(d["mp"] == 4 for d in towers)
    st = blank()
    view = E.view(st, 0)
    assert all(t["mp"] == 4 for t in view["players"][0]["towers"])


def test_an_adventurer_without_a_printed_race_is_human():
    defs = card_defs()
    assert defs["vadasz"]["race"] == "ember" and "ember" in defs["vadasz"]["traits"]
    assert defs["kraniorvlovesz"]["race"] == "ember"  # Kráni is an allegiance, not a race
    assert defs["torpepajzsos"]["race"] == "törpe" and "ember" not in defs["torpepajzsos"]["traits"]
    assert defs["orkfejvadasz"]["race"] == "ork"
    st = blank()
    hunter, orc = add(st, 0, "vadasz", "row"), add(st, 0, "orkfejvadasz", "row")
    human = {"parts": [{"n": 1, "trait": "ember"}]}
    attr = E._attr_fn(st)
    assert holds(human, [S.adv_desc(st, hunter)], attr)
    assert not holds(human, [S.adv_desc(st, orc)], attr)
    view = E.view(st, 0)
    assert view["players"][0]["row"][0]["race_en"] == "human"


def as_version(st: dict, version: int) -> dict:
    """The same position as a game begun under ``version`` (loaded the way a saved game is)."""
    data = E.to_json(st)
    data["rules_version"] = version
    return E.from_json(data)


def test_heals_are_offered_only_for_damaged_adventurers():
    """Version 2 only (version 3 went back to the book: see test_rules_v3.py)."""
    st = as_version(blank(mp=(10, 10)), 2)
    add(st, 0, "vadaszmester", "allies")
    add(st, 0, "vadasz", "row")  # undamaged: no heal for it
    hurt = add(st, 0, "csapdaallito", "row")
    st["cards"][hurt]["dmg"] = 1
    E.forget(st)
    heals = [a for a in E.legal_actions(st, 0) if a["type"] == "activate" and a["ability"] == 0]
    assert [a["target"] for a in heals] == [hurt]
    u = add(st, 1, "ugra", "row")
    st["prio"] = 1
    E.forget(st)
    assert not any(a["type"] == "activate" and a["card"] == u for a in E.legal_actions(st, 1))
    st["cards"][u]["dmg"] = 2
    E.forget(st)
    assert any(a["type"] == "activate" and a["card"] == u for a in E.legal_actions(st, 1))


def _play_out(st: dict, seed: int) -> int:
    rng = Rng(seed)
    n = 0
    while E.to_act(st) and n < 20_000:
        seat = rng.choice(E.to_act(st))
        E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
        n += 1
    return n


def test_a_game_saved_under_rules_version_1_loads_and_plays_to_the_end_with_its_rules():
    data = json.loads(V1_SNAPSHOT.read_text(encoding="utf-8"))
    assert data["rules_version"] == 1
    st = E.from_json(data)
    assert st["rules_version"] == 1 and st["maneuver"] is not None
    _play_out(st, 3)
    assert E.result(st) is not None
    # and a fresh version-1 game keeps version 1's thread order: the opponent answers first
    v1 = blank(mp=(20, 10))
    v1["rules_version"] = 1
    add(v1, 0, "vadasz", "hand")
    act(v1, 0, {"type": "summon", "card": v1["p"][0]["hand"][0]})
    assert who(v1) == 1
    v1 = E.from_json(json.loads(json.dumps(E.to_json(v1))))
    assert v1["rules_version"] == 1


def test_new_games_are_version_3_and_unknown_versions_are_refused():
    import pytest
    st = E.new_game(2, 1, {})
    assert st["rules_version"] == 3 == E.rules_version
    bad = E.to_json(st)
    bad["rules_version"] = 99
    with pytest.raises(ValueError):
        E.from_json(bad)
