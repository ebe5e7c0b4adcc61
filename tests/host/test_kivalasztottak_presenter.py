"""The Kiválasztottak presenter without Discord: options, labels and groups that fit Discord, secrecy of
choices and narration, the two priority settings, typed moves."""

from __future__ import annotations

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


# -- /game new options ------------------------------------------------------------------------------------

def test_options_offer_both_decks_for_each_player_and_a_round_limit():
    specs = {s.name: s for s in P.options}
    assert set(specs) == {"deck", "opponent_deck", "round_limit"}
    for name in ("deck", "opponent_deck"):
        assert [v for _, v in specs[name].choices] == ["vadaszhaz", "medveklan"]
        assert all(1 <= len(label) <= 100 for label, _ in specs[name].choices)
    assert all(1 <= len(s.description) <= 100 for s in specs.values())
    assert (specs["round_limit"].min_value, specs["round_limit"].max_value) == (0, 200)


def test_engine_options_give_each_seat_a_deck():
    assert P.engine_options({}) == (2, {"decks": ["vadaszhaz", "medveklan"]})
    assert P.engine_options({"deck": "medveklan"}) == (2, {"decks": ["medveklan", "vadaszhaz"]})
    assert P.engine_options({"opponent_deck": "vadaszhaz"}) == (2, {"decks": ["medveklan", "vadaszhaz"]})
    assert P.engine_options({"deck": "medveklan", "opponent_deck": "medveklan", "round_limit": 5}) == \
        (2, {"decks": ["medveklan", "medveklan"], "round_limit": 5})
    # a bad value reaches the engine, which says what is allowed
    _, options = P.engine_options({"deck": "dragons"})
    try:
        E.new_game(2, 0, options)
    except ValueError as exc:
        assert "Unknown deck 'dragons'" in str(exc) and "The Bear Clan" in str(exc)
    else:
        raise AssertionError("a bad deck was accepted")


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
    assert "**Ann** attaches a face-down obstacle to Wolf Hunt." in lines
    assert not any("Pit" in (line or "") for line in lines)
    act(st, 1, {"type": "pass"})  # Ann's own item is on top: her prompt (posted in the thread) hides its name
    assert "Pit" not in P.prompt(E.view(st, 0)) and "face-down obstacle" in P.prompt(E.view(st, 0))
    lines = [P.narrate(e, NAMES) for e in settle(st)]
    assert "↳ **Ann**'s face-down obstacle is in place at Wolf Hunt." in lines
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
        "Kráni Sniper: 1 damage (2 MP, tap) → Clan Warrior #1"
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
    assert panel_of(st, 0).choices[-1].label == "Done: the team of 2 (level 6) sets out"
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
    assert "Leather Armour as the reward of The Bounty Contract" in labels
    act(st, 0, {"type": "attach_reward", "card": reward, "quest": quest})
    hunter = add(st, 0, "fejvadasz", "row")
    labels = {c.label for c in panel_of(st, 0).choices}
    assert "Solve your quest The Bounty Contract (DP 3)" in labels
    act(st, 0, {"type": "maneuver", "kind": "quest", "target": quest})
    team(st, 0, [hunter])
    to_decision(st)
    assert P.prompt(E.view(st, 0)) == ("solve The Bounty Contract: choose a condition your team fulfils "
                                       "(you pay 2 MP), or do not solve it.")
    assert [c.label for c in panel_of(st, 0).choices] == [
        "Condition 1: bounty hunter + Ambushing II (pay 2 MP)", "Do not solve it"]
    lines = [P.narrate(e, NAMES) for e in act(st, 0, {"type": "solve", "condition": 0})]
    assert ("🏆 **Ann** solves **The Bounty Contract** (bounty hunter + Ambushing II), paying 2 MP: **+3 DP**."
            in lines)
    assert "**Ann** takes the reward Leather Armour into their Store." in lines
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
    assert "🏴 **Ann** captures **Taming Pen** (DP 2)!" in lines
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
    assert "🐾 **Bob**'s **Wolf Pack** attacks 3× (ATTACK 6, DAMAGE 1)." in lines
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
    add(st, 1, "ugra", "row")
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
