"""The Kiválasztottak presenter without Discord: options, labels and groups that fit Discord, secrecy of
choices and narration, the two priority settings, typed moves."""

from __future__ import annotations

import pytest

import ai
from engines import ENGINES
from engines.kivalasztottak.cards import card_defs
from engines.rng import Rng
from host.panels import MAX_LABEL, MAX_OPTIONS, Panel, layout
from host.presenters import PRESENTERS
from tests.engines.kivalasztottak.helpers import (
    act,
    add,
    blank,
    force_dice,
    lowest,
    pass_,
    settle,
    team,
    to_decision,
    until_step,
    who,
)

E = ENGINES["kivalasztottak"]
P = PRESENTERS["kivalasztottak"]
NAMES = ["Ann", "Bob"]
DECISIONS_WITH_HIDDEN_CARDS = {"tower_order", "mulligan", "adjust_discard", "omen_bottom", "close_discard"}


def panel_of(st: dict, seat: int) -> Panel:
    view = E.view(st, seat)
    choices = [P.describe(view, a, i) for i, a in enumerate(E.legal_actions(st, seat))]
    return Panel(1, 1, seat, P.prompt(view), choices, two_step=P.two_step)


# -- /kivalasztottak new options -------------------------------------------------------------------------------

def test_options_offer_both_decks_for_each_player_and_a_round_limit():
    specs = {s.name: s for s in P.options}
    assert set(specs) == {"deck", "opponent_deck", "round_limit"}
    for name in ("deck", "opponent_deck"):  # typed, with suggestions: a starter, one's own deck, or a code
        assert specs[name].kind == "text" and specs[name].suggest == "decks"
    assert all(1 <= len(s.description) <= 100 for s in specs.values())
    assert (specs["round_limit"].min_value, specs["round_limit"].max_value) == (0, 200)


def test_engine_options_give_each_seat_a_deck():
    """A deck not named is None: the seat's player's own chosen deck when the game starts, else the starter
    the other seat does not play (engines/kivalasztottak/decks.complete)."""
    from engines.kivalasztottak import decks as D
    assert P.engine_options({}) == (2, {"decks": [None, None]})
    assert D.complete([None, None]) == ["vadaszhaz", "medveklan"]
    assert P.engine_options({"deck": "medveklan"}) == (2, {"decks": ["medveklan", None]})
    assert D.complete(["medveklan", None]) == ["medveklan", "vadaszhaz"]
    assert P.engine_options({"opponent_deck": "The Hunters' Lodge"}) == (2, {"decks": [None, "vadaszhaz"]})
    assert P.engine_options({"deck": "a medve-klán", "opponent_deck": "medveklan", "round_limit": 5}) == \
        (2, {"decks": ["medveklan", "medveklan"], "round_limit": 5})
    # a deck code is read here; a spec (a player's deck looked up by the command) passes as it is
    code = D.encode(D.presets()["medveklan"])
    assert P.engine_options({"deck": code})[1]["decks"][0]["cards"] == D.normalise(D.presets()["medveklan"])["cards"]
    spec = {"name": "Mine", "cards": [["vadasz", 43]], "reserve": []}
    assert P.engine_options({"deck": spec})[1]["decks"] == [spec, None]
    # text that names no deck is refused with what may be named
    with pytest.raises(ValueError, match="No deck is called dragons"):
        P.engine_options({"deck": "dragons"})


# -- every decision of real games fits Discord and keeps secrets ------------------------------------------

def test_every_decision_of_ai_games_fits_discord_and_hides_what_it_must():
    seen_kinds: set[str] = set()
    for seed in (3, 11):
        st = E.new_game(2, seed, {})
        rng = Rng(seed)
        while E.to_act(st):
            seat = E.to_act(st)[0]
            view = E.view(st, seat)
            panel = panel_of(st, seat)
            kind = view["pending"][0]["kind"] if view["pending"] else "priority"
            seen_kinds.add(kind)
            assert all(1 <= len(c.label) <= MAX_LABEL for c in panel.choices)
            assert len({c.label for c in panel.choices}) == len(panel.choices), [c.label for c in panel.choices]
            assert len(panel.groups()) <= MAX_OPTIONS
            if kind == "priority" or kind in DECISIONS_WITH_HIDDEN_CARDS:
                assert all(c.secret for c in panel.choices), kind  # only ever in a private panel
            else:
                assert not any(c.secret for c in panel.choices), kind  # public facts: buttons on the board
            # every choice is reachable within Discord's five rows (one row is kept for extra buttons)
            reachable = set()
            for g in [None, *range(len(panel.groups()))]:
                rows = layout(panel, reserved_rows=1, group=g)
                assert len(rows) <= 4
                reachable |= {c.index for r in rows for c in [*r.choices, *r.direct.values()]}
                pages = max((r.pages for r in rows if r.kind == "pager"), default=1)
                for page in range(1, pages):
                    reachable |= {c.index for r in layout(panel, 1, g, page) for c in r.choices}
                assert all(len(r.choices) <= 5 or r.kind == "select" for r in rows)
            assert reachable == set(range(len(panel.choices)))
            E.apply(st, seat, ai.choose(E, st, seat, rng))
    assert {"priority", "tower_order", "mulligan", "team", "ranks", "close_discard"} <= seen_kinds


def test_events_name_only_cards_everybody_may_see():
    for seed in (1, 5):
        st = E.new_game(2, seed, {})
        rng = Rng(seed + 7)
        while E.to_act(st):
            seat = E.to_act(st)[0]
            events = E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
            hidden = E.secrets(st, None) | E.secrets(st, 0) | E.secrets(st, 1)
            for e in events:
                for key, value in list(e.items()):
                    if key.endswith("_name") and value is not None and key != "card_name":
                        assert e[key[:-5]] not in hidden, e
                    if key == "card_name" and value is not None:
                        assert e["card"] not in hidden, e
                line = P.narrate(e, NAMES)
                assert line is None or ("{" not in line and "None" not in line), line


def test_a_face_down_obstacle_is_never_named_in_public_words():
    st = blank(mp=(10, 10))
    quest = add(st, 0, "farkasvadaszat", "quests")
    pit = add(st, 0, "verem", "hand")
    events = act(st, 0, {"type": "summon", "card": pit, "target": quest})
    lines = [P.narrate(e, NAMES) for e in events]
    assert "**Ann** (A) attaches a face-down obstacle to Wolf Hunt." in lines
    assert not any("Pit" in (line or "") for line in lines)
    act(st, 1, {"type": "pass"})  # Ann's own item is on top: her prompt (posted in the thread) hides its name
    assert "Pit" not in P.prompt(E.view(st, 0)) and "face-down obstacle" in P.prompt(E.view(st, 0))
    lines = [P.narrate(e, NAMES) for e in settle(st)]
    assert "↳ **Ann** (A)'s face-down obstacle is in place at Wolf Hunt." in lines
    assert not any("Pit" in (line or "") for line in lines)


def test_summon_choices_cascade_card_then_summoner_and_target():
    st = blank(mp=(10, 10))
    me = [add(st, 0, k, "row") for k in ("fejvadasz", "fejvadasz", "kraniorvlovesz")]
    them = [add(st, 1, k, "row") for k in ("klanharcos", "klanharcos", "ugra")]
    ambush = add(st, 0, "orvtamadas", "hand")
    add(st, 0, "jozsakmany", "hand")
    panel = panel_of(st, 0)
    assert P.two_step  # Ambush has 9 summoner → target choices: pick the card first
    groups = dict(panel.groups())
    assert set(groups) >= {"Pass", "Ambush (2 MP)", "Good Bounty (free)", "Kráni Sniper: ability",
                           "Start a maneuver"}
    labels = [c.label for c in groups["Ambush (2 MP)"]]
    assert len(labels) == 9 and "Ambush: Bounty Hunter #1 → Clan Warrior #2" in labels
    assert "Ambush: Kráni Sniper → Ugra Bearthroat" in labels
    assert [c.label for c in groups["Kráni Sniper: ability"]][0] == \
        "Kráni Sniper: 1 damage (1 MP, tap) → Clan Warrior #1"
    assert ambush and me and them
    # a panel of single choices shows everything at once
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    panel_of(st, 0)
    assert not P.two_step


def test_many_one_choice_cards_are_merged_so_that_every_choice_stays_reachable():
    st = blank(mp=(30, 10))
    add(st, 0, "vadasz", "row")
    for key in ("fejvadasz", "csapdaallito", "torpepajzsos", "kraniorvlovesz", "dorgan", "jozsakmany"):
        add(st, 0, key, "hand")
    panel = panel_of(st, 0)
    groups = dict(panel.groups())
    assert [c.label for c in groups["Cards from your hand"]] == [
        "Summon Bounty Hunter (3 MP)", "Summon Trapper (2 MP)", "Summon Dwarf Shieldbearer (3 MP)",
        "Summon Kráni Sniper (3 MP)", "Summon Dorgan Bloodhand (5 MP)", "Play Good Bounty (free)"]
    rows = layout(panel)
    assert rows[0].kind == "group_buttons" and rows[0].direct  # Pass and the siege: one click each
    assert {c.label for c in rows[0].direct.values()} == {"Pass", "Siege the enemy's tower level 1 (2 MP)"}


def test_team_ranks_beast_and_trigger_decisions_have_words():
    st = blank(mp=(20, 20))
    a = [add(st, 0, k, "row") for k in ("dorgan", "vadasz")]
    b = [add(st, 1, k, "row") for k in ("klanharcos",)]
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    panel = panel_of(st, 0)
    assert P.prompt(E.view(st, 0)).startswith("choose your team for the siege of the enemy's tower level 1")
    assert [c.label for c in panel.choices] == ["Dorgan Bloodhand (level 4)", "Hunter (level 2)"]
    for c in a:
        act(st, 0, {"type": "team_add", "card": c})
    assert panel_of(st, 0).choices[-1].label == "The team of 2 (level 6) sets out"
    act(st, 0, {"type": "team_done"})
    while not st["pending"]:
        act(st, E.to_act(st)[0], {"type": "pass"})
    assert st["pending"][0]["kind"] in ("team", "wall_choice")
    if st["pending"][0]["kind"] == "wall_choice":
        assert [c.label for c in panel_of(st, 1).choices] == ["End the siege: the WALL holds",
                                                               "Let the siege go on"]
        act(st, 1, {"type": "continue_siege"})
    assert P.prompt(E.view(st, 1)).startswith("your opponent starts a siege of your tower level 1")
    assert [c.label for c in panel_of(st, 1).choices] == ["Clan Warrior (level 2)", "Do not block"]
    act(st, 1, {"type": "team_add", "card": b[0]})
    act(st, 1, {"type": "team_done"})
    while not st["pending"]:
        act(st, E.to_act(st)[0], {"type": "pass"})
    labels = [c.label for c in panel_of(st, 0).choices]
    assert labels == ["Front: Dorgan Bloodhand · back: Hunter", "Front: Hunter · back: Dorgan Bloodhand",
                      "Everyone in front: Dorgan Bloodhand, Hunter"]


def test_quest_reward_solving_and_building_decisions_have_words():
    st = blank(mp=(12, 10))
    quest = add(st, 0, "szerzodes", "quests")
    reward = add(st, 0, "borpancel", "hand")
    labels = {c.label for c in panel_of(st, 0).choices}
    assert "Leather Armour as the reward of The Bounty Contract (1 MP)" in labels  # paid for
    act(st, 0, {"type": "attach_reward", "card": reward, "quest": quest})
    settle(st)
    hunter = add(st, 0, "fejvadasz", "row")
    labels = {c.label for c in panel_of(st, 0).choices}
    assert "Solve your quest The Bounty Contract (DP 3)" in labels
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": quest})
    team(st, 0, [hunter])
    to_decision(st)
    assert P.prompt(E.view(st, 0)) == ("solve The Bounty Contract: choose a condition your team fulfils "
                                       "(you pay 2 MP), or do not solve it.")
    assert [c.label for c in panel_of(st, 0).choices] == [
        "Condition 1: mercenary + Ambushing II (pay 2 MP)", "Do not solve it"]
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "solve", "condition": 0})]
    assert ("🏆 **Ann** (A) solves **The Bounty Contract** (mercenary + Ambushing II), paying 2 MP: **+3 DP**."
            in lines)
    assert "**Ann** (A) takes the reward Leather Armour into their Store." in lines
    # a fourth building: its new controller destroys one
    st = blank(mp=(10, 10))
    pen = add(st, 1, "szeliditokaram", "buildings")
    for key in ("vadaszkunyho", "vadaszkunyho", "orhaz"):
        add(st, 0, key, "buildings")
    dorgan = add(st, 0, "dorgan", "row")
    assert "Capture Taming Pen (2 MP)" in {c.label for c in panel_of(st, 0).choices}
    act(st, 0, {"type": "maneuver", "kind": "capture", "target": pen})
    team(st, 0, [dorgan])
    lines = [P.narrate(e, NAMES) for e in to_decision(st)]
    assert "🏴 **Ann** (A) captures **Taming Pen** (DP 2)!" in lines
    assert [c.label for c in panel_of(st, 0).choices] == [
        "Destroy Hunting Lodge #1", "Destroy Hunting Lodge #2", "Destroy Guardhouse on the Pass",
        "Destroy Taming Pen"]


def test_beast_victims_are_chosen_by_buttons_and_narrated_with_their_rolls():
    st = blank(mp=(10, 10))
    tower = lowest(st, 1, "karamszint")
    wolves = add(st, 1, "farkasfalka", "attached", on=tower, up=False)
    a1, a2 = add(st, 0, "dorgan", "row"), add(st, 0, "fejvadasz", "row")
    act(st, 0, {"type": "maneuver", "kind": "siege"})
    team(st, 0, [a1, a2])
    until_step(st, "obstacles")
    while who(st) != 1:
        pass_(st)
    assert "Reveal Wolf Pack (2 MP)" in {c.label for c in panel_of(st, 1).choices}
    assert P.prompt(E.view(st, 1)).startswith("obstacles of the siege of")
    act(st, 1, {"type": "activate_obstacle", "card": wolves})
    force_dice(st, [(3, 3)])
    lines = [P.narrate(e, NAMES) for e in pass_(st) + pass_(st)]
    assert "🐾 **Bob** (B)'s **Wolf Pack** attacks 3× (ATTACK 6, DAMAGE 1)." in lines
    panel = panel_of(st, 0)
    assert [c.label for c in panel.choices] == ["Dorgan Bloodhand faces the attack", "Bounty Hunter faces the attack"]
    assert not any(c.secret for c in panel.choices)
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "beast_target", "card": a2})]
    assert "🎲 Wolf Pack attacks Bounty Hunter: 3+3 = 6 against ATTACK 6 — **hit**." in lines
    assert "Bounty Hunter takes 1 damage (level 2)." in lines


def test_trigger_order_names_each_timed_effect():
    st = blank(mp=(10, 10))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "orhaz", "buildings")
    act(st, 0, {"type": "pass"})
    act(st, 1, {"type": "pass"})
    for seat in (0, 1):
        act(st, seat, {"type": "no_discard"})
    assert st["pending"][0]["kind"] == "trigger_order"
    panel = panel_of(st, 0)
    assert sorted(c.label for c in panel.choices) == ["Guardhouse on the Pass: opponent loses 1 MP",
                                                        "Hunting Lodge: +1 MP"]
    assert not any(c.secret for c in panel.choices)
    assert P.prompt(E.view(st, 0)).startswith("several of your timed effects")


# -- the two priority settings -------------------------------------------------------------------------------

def _answer_window(extra_for_bob=()):
    """Ann summons a Hunter; Bob (with Ugra in his Row: a public fast ability) is asked to answer."""
    st = blank(mp=(10, 10))
    add(st, 1, "ugra", "row", dmg=1)  # wounded: his heal is on offer
    for key in extra_for_bob:
        add(st, 1, key, "hand")
    hunter = add(st, 0, "vadasz", "hand")
    act(st, 0, {"type": "summon", "card": hunter})
    assert E.to_act(st) == [1] and st["thread"]
    return st


def test_stop_when_the_opponent_acts_on_asks_for_an_answer():
    st = _answer_window()
    view, legal = E.view(st, 1), E.legal_actions(st, 1)
    assert P.auto_pass(view, legal, {}) is False  # the defaults: both settings on
    assert P.auto_pass(view, legal, {"stop_on_opponent": True}) is False
    assert "time thread (1 open), on top: Hunter (put by your opponent)" in P.prompt(view)


def test_stop_when_the_opponent_acts_off_passes_unless_a_hidden_fast_effect_or_a_dying_adventurer():
    off = {"stop_on_opponent": False}
    st = _answer_window()
    assert P.auto_pass(E.view(st, 1), E.legal_actions(st, 1), off) is True
    # a fast card in hand (Refuge) is worth a stop
    st = _answer_window(extra_for_bob=("menedek",))
    assert any(a["type"] == "summon" for a in E.legal_actions(st, 1))
    assert P.auto_pass(E.view(st, 1), E.legal_actions(st, 1), off) is False
    # an adventurer at level 0 dies when the thread closes: stop so a heal can save it
    st = _answer_window()
    ugra = st["p"][1]["row"][0]
    st["cards"][ugra]["dmg"] = 5
    assert P.auto_pass(E.view(st, 1), E.legal_actions(st, 1), off) is False
    # outside a thread (the player's own action) nobody is passed for
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    assert P.auto_pass(E.view(st, 0), E.legal_actions(st, 0), off) is False


def test_auto_pass_setting_covers_windows_with_nothing_but_pass():
    st = blank(mp=(10, 10))
    hunter = add(st, 0, "vadasz", "hand")
    act(st, 0, {"type": "summon", "card": hunter})
    view, legal = E.view(st, 1), E.legal_actions(st, 1)
    assert legal == [{"type": "pass"}]
    assert P.auto_pass(view, legal, {}) is True
    assert P.auto_pass(view, legal, {"auto_pass": False}) is False
    assert P.auto_pass(view, legal, {"auto_pass": False, "stop_on_opponent": False}) is True


def test_heals_with_nothing_to_heal_are_grouped_apart_and_labelled():
    """Rules version 3 offers a heal on any own adventurer (the book); one that changes nothing but its cost
    waits in a group of its own, says so, and is no reason to stop an auto-pass."""
    st = blank(mp=(10, 10))
    add(st, 0, "vadaszmester", "allies")
    fine = add(st, 0, "vadasz", "row")
    hurt = add(st, 0, "csapdaallito", "row")
    st["cards"][hurt]["dmg"] = 1
    E.forget(st)
    panel = panel_of(st, 0)
    by_target = {E.legal_actions(st, 0)[c.index].get("target"): c for c in panel.choices
                 if E.legal_actions(st, 0)[c.index]["type"] == "activate"
                 and E.legal_actions(st, 0)[c.index]["ability"] == 0}
    assert by_target[fine].group == "No healing effect (only the cost)"
    assert by_target[fine].label.endswith("· no healing effect") and len(by_target[fine].label) <= MAX_LABEL
    assert by_target[hurt].group != by_target[fine].group and "no healing" not in by_target[hurt].label
    # answering a thread with only such heals at hand: the auto-pass setting passes
    st = blank(mp=(10, 10))
    hunter = add(st, 0, "vadasz", "hand")
    add(st, 1, "vadaszmester", "allies")
    add(st, 1, "fejvadasz", "row")
    act(st, 0, {"type": "summon", "card": hunter})
    view, legal = E.view(st, 1), E.legal_actions(st, 1)
    assert any(a["type"] == "activate" for a in legal) and who(st) == 1
    assert P.auto_pass(view, legal, {}) is True
    assert P.auto_pass(view, legal, {"auto_pass": False}) is False


def test_the_dog_under_fire_is_a_real_choice_on_the_panel():
    from tests.engines.kivalasztottak.test_rules_v3 import _shot_at_the_dog
    st, dog, warrior, _ = _shot_at_the_dog(3)
    view, legal = E.view(st, 0), E.legal_actions(st, 0)
    sacrifice = next(i for i, a in enumerate(legal) if a["type"] == "activate" and a["card"] == dog)
    choice = P.describe(view, legal[sacrifice], sacrifice)
    assert "no healing" not in choice.label and "No healing" not in choice.group
    assert P.auto_pass(view, legal, {}) is False
    assert P.auto_pass(view, legal, {"stop_on_opponent": False}) is False


def test_the_reserve_pick_is_private_and_named_in_the_players_own_words():
    st = blank(mp=(10, 10))
    ugra = add(st, 0, "ugra", "reserve")
    pigeon = add(st, 0, "futargalamb", "hand")
    act(st, 0, {"type": "summon", "card": pigeon})
    settle(st)
    panel = panel_of(st, 0)
    assert [c.label for c in panel.choices] == ["Take Ugra Bearthroat (6 MP)"]
    assert all(c.secret for c in panel.choices)
    assert "reserve deck" in panel.prompt
    assert E.legal_actions(st, 0) == [{"type": "reserve_pick", "card": ugra}]


# -- typed moves ------------------------------------------------------------------------------------------

def test_typed_moves_ignore_case_and_accents_and_explain_ambiguity():
    st = blank(mp=(10, 10))
    add(st, 0, "kraniorvlovesz", "hand")
    add(st, 0, "vadasz", "hand")
    add(st, 0, "fejvadasz", "hand")
    panel = panel_of(st, 0)
    view = E.view(st, 0)
    by_label = {c.label: c.index for c in panel.choices}
    assert P.parse(view, panel.choices, "pass") == by_label["Pass"]
    assert P.parse(view, panel.choices, "summon KRANI sniper") == by_label["Summon Kráni Sniper (3 MP)"]
    assert P.parse(view, panel.choices, "bounty") == by_label["Summon Bounty Hunter (3 MP)"]
    try:
        P.parse(view, panel.choices, "hunter")
    except ValueError as exc:
        assert "fits 2 choices" in str(exc)
    else:
        raise AssertionError("an ambiguous text was accepted")
    try:
        P.parse(view, panel.choices, "dragon")
    except ValueError as exc:
        assert "fits none" in str(exc) and "Pass" in str(exc)
    else:
        raise AssertionError("a text without a match was accepted")


def test_every_card_ability_has_a_short_description():
    for key, d in card_defs().items():
        for i, ab in enumerate(d["abilities"]):
            if ab["kind"] in ("activated", "trigger"):
                text = P.ability_text(key, i)
                assert text and "{" not in text, (key, text)


# one event of every kind the engine emits (as the engine's scrub leaves it): each gets its sentence
EVENTS = [
    {"type": "towers_set", "seat": 0}, {"type": "mulligan", "seat": 0, "hand": 5},
    {"type": "kept_hand", "seat": 1, "hand": 7}, {"type": "round_started", "round": 2},
    {"type": "resources", "mp": [6, 8]}, {"type": "drew", "seat": 0, "n": 2}, {"type": "drew", "seat": 0, "n": 1},
    {"type": "discarded", "seat": 0, "card": "KV0-01", "card_name": "Pit"}, {"type": "card_to_bottom", "seat": 1},
    {"type": "turned_back"}, {"type": "phase", "phase": "maneuvers", "active": 1}, {"type": "phase", "phase": "close"},
    {"type": "omen_point_lost", "seat": 1, "card": "KV1-01", "left": 2, "card_name": "Omen of the Blood Moon"},
    {"type": "passed", "seat": 0, "open": False},
    {"type": "summoned", "seat": 0, "card": "KV0-02", "name": "Hunter", "cost": 2, "by": None, "target": None,
     "uid": "T1", "card_key": "vadasz"},
    {"type": "summoned_hidden", "seat": 1, "location": "tower-1-0", "uid": "T2"},
    {"type": "activated", "seat": 1, "card": "KV1-02", "name": "Old Greypelt", "ability": 1, "target": "T2",
     "uid": "T3", "card_key": "szurkebunda", "target_name": "face-down obstacle"},
    {"type": "obstacle_activated", "seat": 1, "card": "KV1-03", "name": "Pit", "kind": "trap", "target": "KV0-02",
     "uid": "T4", "target_name": "Hunter"},
    {"type": "trigger", "seat": 0, "card": "KV0-03", "name": "Trapper", "on": "enter", "uid": "T5"},
    {"type": "resolved", "uid": "T5", "seat": 0, "name": "Trapper"}, {"type": "fizzled", "uid": "T6", "name": "Ambush"},
    {"type": "fizzled", "uid": "T6", "name": "obstacle"}, {"type": "neutralised", "uid": "T2", "name": "Net Trap"},
    {"type": "entered", "seat": 0, "card": "KV0-02", "name": "Hunter", "zone": "row", "card_key": "vadasz"},
    {"type": "entered", "seat": 0, "card": "KV0-04", "name": "Wolf Hunt", "zone": "quests"},
    {"type": "entered", "seat": 0, "card": "KV0-05", "name": "Hunting Lodge", "zone": "buildings",
     "card_key": "vadaszkunyho"},
    {"type": "entered", "seat": 0, "card": "KV0-06", "name": "The Old Huntmaster", "zone": "allies",
     "card_key": "vadaszmester"},
    {"type": "entered", "seat": 0, "card": "KV0-07", "name": "Hunting Knife", "zone": "store"},
    {"type": "named_rule", "seat": 0, "card": "KV0-08", "name": "Dorgan Bloodhand"},
    {"type": "obstacle_attached", "seat": 1, "location": "KV0-04", "uid": "T7", "location_name": "Wolf Hunt"},
    {"type": "attack_roll", "seat": 0, "by": "KV0-02", "target": "KV1-04", "dice": [3, 4], "threshold": 7, "hit": True,
     "name": "Arrow Volley", "by_name": "Hunter", "target_name": "Clan Warrior"},
    {"type": "damaged", "card": "KV1-04", "amount": 2, "level": 0, "anyway": False, "card_name": "Clan Warrior"},
    {"type": "damaged", "card": "KV1-04", "amount": 1, "level": 1, "anyway": True, "card_name": "Clan Warrior"},
    {"type": "damage_prevented", "card": "KV1-04", "card_name": "Clan Warrior"},
    {"type": "healed", "card": "KV1-04", "amount": 2, "card_name": "Clan Warrior"},
    {"type": "turned", "card": "KV1-04", "state": "resting", "card_name": "Clan Warrior"},
    {"type": "modified", "card": "KV1-04", "stat": "phys", "amount": -3, "card_name": "Clan Warrior"},
    {"type": "warded", "card": "KV1-04", "card_name": "Clan Warrior"},
    {"type": "destroyed", "card": "KV1-05", "name": "Cave Bear"}, {"type": "mp_gained", "seat": 0, "amount": 1},
    {"type": "mp_lost", "seat": 1, "amount": 1},
    {"type": "token_created", "seat": 1, "card": "KVT-1", "name": "Wild Dog"},
    {"type": "sacrificed", "seat": 1, "card": "KVT-1", "name": "Wild Dog"},
    {"type": "ally_exhausted", "seat": 1, "card": "KV1-02", "name": "Old Greypelt"},
    {"type": "died", "seat": 1, "card": "KV1-04", "name": "Clan Warrior"},
    {"type": "equipped", "seat": 0, "item": "KV0-07", "to": "KV0-02", "item_name": "Hunting Knife", "to_name": "Hunter"},
    {"type": "unequipped", "seat": 0, "item": "KV0-07", "item_name": "Hunting Knife"},
    {"type": "reward_attached", "seat": 0, "card": "KV0-09", "quest": "KV0-04", "card_name": "Leather Armour",
     "quest_name": "Wolf Hunt"},
    {"type": "maneuver_declared", "seat": 0, "kind": "siege", "target": "tower-1-0", "cost": 2},
    {"type": "maneuver_declared", "seat": 0, "kind": "quest", "target": "KV0-04", "cost": 0, "target_name": "Wolf Hunt"},
    {"type": "maneuver_declared", "seat": 0, "kind": "capture", "target": "KV1-06", "cost": 2,
     "target_name": "Taming Pen"},
    {"type": "maneuver_impossible", "seat": 0, "kind": "siege"},
    {"type": "team_joined", "seat": 0, "card": "KV0-02", "card_name": "Hunter"},
    {"type": "team_left_row", "seat": 0, "team": ["KV0-02"], "cost": 2, "team_names": ["Hunter"]},
    {"type": "no_block", "seat": 1},
    {"type": "tower_revealed", "seat": 1, "card": "KV1-07", "name": "Bone Gate", "wall": 3},
    {"type": "siege_repelled_by_wall", "seat": 1},
    {"type": "beast_attacks", "seat": 1, "card": "KV1-05", "name": "Cave Bear", "number": 1, "attack": 8, "damage": 3},
    {"type": "beast_roll", "card": "KV1-05", "target": "KV0-02", "dice": [6, 6], "attack": 8, "hit": False,
     "card_name": "Cave Bear", "target_name": "Hunter"},
    {"type": "beast_victorious", "card": "KV1-05", "name": "Cave Bear", "card_name": "Cave Bear"},
    {"type": "beast_reattached", "seat": 1, "card_name": "Cave Bear", "location": "tower-1-0"},
    {"type": "combat_started"},
    {"type": "ranks", "seat": 0, "front": ["KV0-02"], "back": ["KV0-03"], "front_names": ["Hunter"],
     "back_names": ["Trapper"]},
    {"type": "ranks", "seat": 0, "front": ["KV0-02"], "back": [], "front_names": ["Hunter"]},
    {"type": "combat_round", "round": 1}, {"type": "combat_result", "levels": [4, 4], "winner": None},
    {"type": "combat_result", "levels": [5, 4], "winner": 0},
    {"type": "team_returned", "seat": 0, "cards": ["KV0-02"], "cards_names": ["Hunter"]},
    {"type": "quest_continued", "seat": 0},
    {"type": "quest_solved", "seat": 0, "card": "KV0-04", "name": "Wolf Hunt", "condition": 0, "dp": 2, "mp": 1,
     "card_key": "farkasvadaszat"},
    {"type": "reward_taken", "seat": 0, "card": "KV0-09", "name": "Leather Armour"},
    {"type": "quest_not_solved", "seat": 0},
    {"type": "tower_destroyed", "seat": 1, "card": "KV1-07", "name": "Bone Gate"},
    {"type": "building_captured", "seat": 0, "card": "KV1-06", "name": "Taming Pen", "card_key": "szeliditokaram"},
    {"type": "building_destroyed", "seat": 0, "card": "KV1-06", "card_name": "Taming Pen"},
    {"type": "reserve_searched", "seat": 0, "card": "hidden-0", "left": 14},
    {"type": "reserve_empty", "seat": 1},
    {"type": "maneuver_no_teams"}, {"type": "maneuver_ended", "kind": "capture", "winner": 0},
    {"type": "game_over", "places": [1, 2], "scores": [11, 4], "reason": "dp11", "winner": 0},
    {"type": "game_over", "places": [1, 1], "scores": [0, 0], "reason": "future_draw", "winner": None},
]


def test_every_event_kind_has_a_sentence():
    kinds = {e["type"] for e in EVENTS}
    emitted = set()
    import re
    from pathlib import Path
    # the engine's rules are split over its package's modules (engines/kivalasztottak/*.py): read them all
    package = Path(E.__class__.__module__.replace(".", "/")).parent
    source = "\n".join(f.read_text(encoding="utf-8") for f in sorted(package.glob("*.py")))
    for kind in re.findall(r'ev\.append\(\{"type": "([a-z_]+)"', source):
        emitted.add(kind)
    assert len(emitted) > 60 and emitted - {"thread_closed"} <= kinds, emitted - kinds  # deaths tell the close
    for e in EVENTS:
        line = P.narrate(e, NAMES)
        assert line and "{" not in line and "None" not in line and "KV" not in line and "tower-" not in line, (e, line)
    assert P.narrate({"type": "passed", "seat": 0, "open": True}, NAMES) is None  # passes inside a thread
    assert P.narrate(EVENTS[15], NAMES) == "**Bob** (B) attaches a face-down obstacle to their tower level 1."
