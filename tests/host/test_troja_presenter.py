"""The Troja presenter on real game states: private choices, public prompts, public narration, auto-pass."""

from __future__ import annotations

import re

import pytest

import ai.troja as troja_ai
from engines import ENGINES
from engines.rng import Rng
from engines.troja import HEROES, PATRONS, TYPES, name
from host.panels import MAX_ROWS, Panel, layout
from host.presenters import PRESENTERS
from tests.engines.test_troja_support import challenge, give, pass_all, roamer, table

E = ENGINES["troja"]
P = PRESENTERS["troja"]
NAMES = ["Ann", "Bob", "Carol", "Dan"]
PRIVATE_KEYS = ("hand", "legal", "playable", "can_play")
CARD_NAMES = {name(k) for k in (*TYPES, *HEROES, *PATRONS)}


def played_states(seeds=range(4)):
    """(state, seat, view, events of the previous action) along AI games of 2, 3 and 4 heroes."""
    for seed in seeds:
        n = 2 + seed % 3
        state = E.new_game(n, seed, {"max_rounds": 10})
        rng = Rng(seed)
        events: list[dict] = []
        while E.to_act(state):
            for seat in E.to_act(state):
                yield state, seat, E.view(state, seat), events
            seat = E.to_act(state)[0]
            events = E.apply(state, seat, troja_ai.choose(E, state, seat, rng))
        yield state, None, E.view(state, None), events


@pytest.fixture(scope="module")
def samples():
    out = []
    for state, seat, view, events in played_states():
        if seat is not None:
            legal = E.legal_actions(state, seat)
            out.append((view, legal, [P.describe(view, a, i) for i, a in enumerate(legal)], events))
        else:
            out.append((view, [], [], events))
    return out


def test_every_choice_is_private_labelled_and_fits_discord(samples):
    steps = set()
    for view, _legal, choices, _ in samples:
        if not choices:
            continue
        steps.add(view["step"])
        assert all(c.secret for c in choices), "a public panel would show whether the hand holds anything"
        for c in choices:
            assert 1 <= len(c.label) <= 80 and "{" not in c.label and "#" not in c.label, c.label
            assert c.description is None or "{" not in c.description
        panel = Panel(1, 1, view["seat"], P.prompt(view), choices)
        assert not panel.public_safe
        assert len(layout(panel)) <= MAX_ROWS
    assert steps == {"camp", "main", "build", "join", "fate", "start", "discard"}


def test_reaction_windows_keep_pass_apart_from_the_card_plays(samples):
    for view, _legal, choices, _ in samples:
        if view.get("step") not in ("join", "fate", "start") or not choices:
            continue
        groups = dict(Panel(1, 1, view["seat"], "", choices).groups())
        assert [c.label.split(":")[0] for c in groups["Pass"]] == ["Pass"]
        plays = [c for c in choices if c.group != "Pass"]
        assert all(c.group in ("Play a card", "Wrath of your patron") for c in plays)


def test_reaction_windows_show_a_pass_button_and_a_play_a_card_select(samples):
    """The issue's reaction window: "Play a card" is a select however few cards (each option says what the
    card does), Pass a button of its own; outside the windows a few interventions stay buttons."""
    assert P.select_groups == ("Play a card",)
    seen = set()
    for view, _legal, choices, _ in samples:
        if not choices:
            continue
        panel = Panel(1, 1, view["seat"], "", choices, select_groups=set(P.select_groups))
        rows = layout(panel)
        window = view["step"] in ("join", "fate", "start")
        plays = [c for c in choices if c.group == "Play a card"]
        if not window:
            assert not plays, "only reaction windows have the Play a card select"
            continue
        pass_rows = [r for r in rows if r.kind == "buttons" and any(c.label.startswith("Pass") for c in r.choices)]
        assert len(pass_rows) == 1 and len(pass_rows[0].choices) == 1
        selects = [r for r in rows if r.kind == "select"]
        if plays:
            seen.add(view["step"])
            assert selects and selects[0].placeholder == "Play a card"
            assert {c.index for r in selects for c in r.choices} == {c.index for c in plays}
            assert all(c.description for c in plays), "a select option says what the card does"
        else:
            assert not selects
    assert seen == {"join", "fate", "start"}


def test_prompts_use_public_information_only(samples):
    """The prompt is printed on the public board after the mention: it must not depend on the hand."""
    for view, _, choices, _ in samples:
        if not choices:
            continue
        public = {k: v for k, v in view.items() if k not in PRIVATE_KEYS}
        assert P.prompt(view) == P.prompt(public)
        assert "{" not in P.prompt(view) and "None" not in P.prompt(view)


def test_narration_names_only_cards_the_event_names(samples):
    """Narration is public: a line may name a card only when its event does (events never carry a hand)."""
    seen = set()
    for _, _, _, events in samples:
        for event in events:
            line = P.narrate(event, NAMES)
            if line is None:
                continue
            seen.add(event["type"])
            assert "{" not in line and "None" not in line, line
            named = {name(v) for v in _strings(event) if v in TYPES or v in HEROES or v in PATRONS}
            for card in CARD_NAMES:
                if re.search(rf"\b{re.escape(card)}\b", line):
                    assert any(card in allowed for allowed in named), (card, line, event)
    assert {"challenge", "fight", "fate", "fight_result", "glory", "turn", "round", "draw"} <= seen


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _strings(v)


def test_narration_of_the_decisive_moments():
    fight = {"type": "fight_result", "winner": "attacker", "cancelled": False, "target": 1, "duel": True,
             "attacker": 0, "attacker_total": 11, "defender_total": 9}
    assert P.narrate(fight, NAMES) == "🏅 **Ann** (A) wins the duel against **Bob** (B), **11–9**."
    lost = dict(fight, duel=False, attacker=None, winner="attacker", attacker_total=10, defender_total=7)
    assert P.narrate(lost, NAMES) == "💥 The challenge beats **Bob** (B), **10–7**."
    tie = dict(lost, winner=None, attacker_total=8, defender_total=8)
    assert "A tie, 8–8" in P.narrate(tie, NAMES)
    assert P.narrate({"type": "glory", "seat": 2, "delta": -3, "gp": 9, "reason": "challenge_lost"}, NAMES) == \
        "🩸 **Carol** (C) −3 Glory for the defeat → **9**."
    fate = {"type": "fate", "seat": 0, "card": "hydra", "face": 5, "reason": "defender"}
    assert P.narrate(fate, NAMES) == "🎲 Fate for the defender: **5** (Hydra)."
    disgrace = {"type": "disgrace", "seat": 1, "old": "ajax", "new": "nestor", "returned": ["myrmidons"]}
    line = P.narrate(disgrace, NAMES)
    assert "Ajax" in line and "disgrace" in line and "Myrmidons go back into the deck" in line and "Nestor" in line
    win = {"type": "game_over", "reason": "glory", "winner": 3, "scores": [12, 9, 20, 24]}
    assert P.narrate(win, NAMES) == "👑 **Dan** (D) reaches **24 Glory** and wins the war!"
    limit = {"type": "game_over", "reason": "round_limit", "winner": None, "scores": [15, 15, 3]}
    assert "**Ann** (A), **Bob** (B) share the most Glory" in P.narrate(limit, NAMES[:3])
    assert P.narrate({"type": "pass", "seat": 1, "window": "join"}, NAMES) == "**Bob** (B) adds nothing."
    assert P.narrate({"type": "pass", "seat": 1, "window": "fate"}, NAMES) is None  # the result follows at once


def test_duels_and_roaming_attacks_are_announced_once():
    """A duel or a Trojan attacking at the turn start says both sides and the stat in one line; the fight
    event adds nothing (boards of 4-player AI chains stay short). A challenge's fights keep their lines."""
    assert P.narrate({"type": "duel", "seat": 0, "target": 1}, NAMES) == \
        "⚔️ **Ann** (A) challenges **Bob** (B) to a duel on STRENGTH!"
    duel = {"type": "fight", "kind": "strength", "target": 1, "duel": True, "attacker": 0, "cards": [],
            "roaming": False}
    assert P.narrate(duel, NAMES) is None
    roam = {"type": "roam_attack", "card": "hydra", "target": 2, "kind": "strength"}
    assert P.narrate(roam, NAMES) == \
        "🐗 Hydra attacks **Carol** (C) at the start of the turn: a duel on STRENGTH!"
    assert P.narrate(dict(roam, kind="tactics"), NAMES).endswith("a battle on TACTICS!")
    fight = {"type": "fight", "kind": "strength", "target": 2, "duel": False, "attacker": None, "cards": ["hydra"]}
    assert P.narrate(dict(fight, roaming=True), NAMES) is None
    assert P.narrate(dict(fight, roaming=False), NAMES) == \
        "🥊 Duel on STRENGTH — attacker: Hydra; defender: **Carol** (C)."
    # on a real table: Hydra waits before Nestor and attacks when his turn starts
    s = table(["achilles", "nestor"])
    roamer(s, 1, "hydra", by=0)
    events = E.apply(s, 0, {"type": "end_turn"}) + pass_all(s, ("start",))
    lines = [line for line in (P.narrate(e, NAMES) for e in events) if line]
    assert "🐗 Hydra attacks **Bob** (B) at the start of the turn: a duel on STRENGTH!" in lines
    assert not any(line.startswith("🥊") for line in lines)
    # nor is the end of a turn: the next line says whose turn it is
    assert P.narrate({"type": "end_turn", "seat": 0}, NAMES) is None
    assert lines[0] == "⚔️ **Bob** (B)'s turn."
    # the same AI name twice is told apart by the seat letters
    assert P.narrate({"type": "turn", "seat": 2}, ["Ann", "AI", "AI"]) == "⚔️ **AI** (C)'s turn."


def test_result_lines():
    result = {"places": [2, 1, 3], "scores": [14, 26, 3], "reason": "glory", "winner": 1,
              "heroes": ["ajax", "odysseus", "nestor"], "rounds": 7}
    assert P.result_lines(result, NAMES[:3]) == [
        "Winner: Bob (B) with 26 Glory, after 7 round(s).",
        "1. Bob (B) — Odysseus — 26 Glory", "2. Ann (A) — Ajax — 14 Glory", "3. Carol (C) — Nestor — 3 Glory"]
    shared = {"places": [1, 1], "scores": [15, 15], "reason": "round_limit", "winner": None,
              "heroes": ["ajax", "nestor"], "rounds": 30}
    assert P.result_lines(shared, NAMES[:2])[0] == "First place shared after 30 rounds."


def test_labels_name_the_sides_of_the_fight():
    s = table(["achilles", "nestor", "odysseus"])
    unit, = give(s, 0, "spearmen")
    give(s, 2, "aegis")
    challenge(s, 0, 1, unit)
    pass_all(s, ("join",))
    view = E.view(s, 2)
    labels = [P.describe(view, a, i).label for i, a in enumerate(E.legal_actions(s, 2))]
    assert "Athena's Aegis: +4 for Trojan Spearmen" in labels  # Odysseus serves Athena: +4
    assert "Athena's Aegis: +4 for Nestor (B)" in labels
    assert "Wrath of Athena: +3 for Nestor (B)" in labels
    assert labels[-1] == "Pass: let the fight be decided"
    mine = E.view(s, 1)
    assert "Wrath of Athena: +3 for you (Nestor)" in [P.describe(mine, a, i).label
                                                     for i, a in enumerate(E.legal_actions(s, 1))]


def test_auto_pass_follows_the_seats_own_view_and_setting():
    s = table(["achilles", "nestor"])
    unit, = give(s, 0, "spearmen")
    give(s, 1, "hermes_gift")
    challenge(s, 0, 1, unit)
    # join window: Nestor may add nothing (an intervention is no challenge card)
    view, legal = E.view(s, 1), E.legal_actions(s, 1)
    assert P.auto_pass(view, legal, {}) and P.auto_pass(view, legal, {"auto_pass": True})
    assert not P.auto_pass(view, legal, {"auto_pass": False})
    pass_all(s, ("join",))
    # fate window: wrath tokens (and here a card) are something to play
    assert not P.auto_pass(E.view(s, 1), E.legal_actions(s, 1), {})
    s["players"][0]["wrath"] = 0
    s["players"][0]["hand"] = []
    assert P.auto_pass(E.view(s, 0), E.legal_actions(s, 0), {})
    # never outside a reaction window (e.g. the discard of the end phase)
    s2 = table(["achilles", "nestor"])
    give(s2, 0, "spearmen")
    E.apply(s2, 0, {"type": "end_turn"})
    E.apply(s2, 1, {"type": "end_turn"})
    assert s2["step"] == "discard"
    assert not P.auto_pass(E.view(s2, 0), E.legal_actions(s2, 0), {})


def test_start_window_prompt_counts_the_waiting_attackers():
    s = table(["achilles", "nestor"])
    roamer(s, 1, "hydra", by=0)
    E.apply(s, 0, {"type": "end_turn"})
    assert s["step"] == "start"
    assert P.prompt(E.view(s, 0)) == \
        "1 waiting Trojan(s) will attack Nestor (B): play an intervention first, or pass."


def test_typed_moves_accept_the_words_of_a_label_in_any_order():
    s = table(["achilles", "nestor"])
    give(s, 0, "spearmen", "spearmen", "hermes_gift")
    view = E.view(s, 0)
    legal = E.legal_actions(s, 0)
    choices = [P.describe(view, a, i) for i, a in enumerate(legal)]

    def parsed(text: str) -> dict:
        return legal[P.parse(view, choices, text)]

    assert parsed("end turn") == {"type": "end_turn"}
    assert parsed("duel b") == {"type": "duel", "target": 1}
    # two Spearmen in hand make two identical choices: the same move, whichever copy
    assert parsed("spearmen nestor")["type"] == "challenge" and parsed("spearmen nestor")["target"] == 1
    assert parsed("Spearmen yourself")["target"] == 0
    assert parsed("hermes") == {"type": "intervene", "card": legal[-2]["card"]}
    with pytest.raises(ValueError, match="matches"):
        P.parse(view, choices, "spearmen")
    with pytest.raises(ValueError, match="none of your choices"):
        P.parse(view, choices, "zeus")


def test_options_are_checked_with_clear_messages():
    assert P.engine_options({"players": None, "max_rounds": None}) == (None, {})
    assert P.engine_options({"players": 3, "max_rounds": 12}) == (3, {"max_rounds": 12})
    with pytest.raises(ValueError, match="2 to 4 heroes"):
        P.engine_options({"players": 5, "max_rounds": None})
    specs = {o.name: o for o in P.options}
    assert all(1 <= len(o.description) <= 100 for o in specs.values())
    assert (specs["players"].min_value, specs["players"].max_value) == (2, 4)


def test_opening_lines_say_who_plays_which_hero_and_who_begins():
    state = E.new_game(3, 3, {})  # Agamemnon and Menelaus tie on POWER 3: fate cards decide
    lines = P.opening_lines(E.view(state, None), ["Ann", "AI 2", "AI 3"])
    heroes = [name(p["hero"]) for p in state["players"]]
    assert lines[0] == (f"🛡️ The heroes: **Ann** (A) — {heroes[0]} (patron {name(HEROES[state['players'][0]['hero']]['patron'])}), "
                        f"**AI 2** (B) — {heroes[1]} (patron {name(HEROES[state['players'][1]['hero']]['patron'])}), "
                        f"**AI 3** (C) — {heroes[2]} (patron {name(HEROES[state['players'][2]['hero']]['patron'])}).")
    first = "ABC"[state["first"]]
    assert any(line.startswith("🎲 Equal POWER:") for line in lines)
    assert f"({first}) has the highest POWER and begins." in lines[-2]
    assert lines[-1].startswith("📜 **Round 1**")


# ------------------------------------------------------------------------------ issue 11: narration gaps

def test_narration_gaps_are_filled():
    # a Funeral Games tie has an outcome line
    line = P.narrate({"type": "contest", "best": 5, "seats": [0, 2], "amount": 2}, NAMES)
    assert "tie" in line and "nobody" in line and "**Ann** (A)" in line and "**Carol** (C)" in line
    assert P.narrate({"type": "contest", "best": 6, "seats": [1], "amount": 2}, NAMES) is None  # the Glory line
    # a failed escape roll has an outcome
    line = P.narrate({"type": "escape_failed", "card": "aeneas", "target": 1, "face": 2, "need": 5}, NAMES)
    assert "Aeneas" in line and "fails to escape" in line and "5+" in line
    # extra draws after a win give their reason
    assert "won fight" in P.narrate({"type": "draw", "seat": 0, "count": 1, "reason": "ability"}, NAMES)
    assert "reward" in P.narrate({"type": "draw", "seat": 0, "count": 1, "reason": "reward"}, NAMES)
    assert P.narrate({"type": "draw", "seat": 0, "count": 3, "reason": "round"}, NAMES) == "**Ann** (A) draws 3 card(s)."
    # a self-challenge is not "Ann launches the challenge on Ann"
    line = P.narrate({"type": "launch", "seat": 0, "target": 0}, NAMES)
    assert line.count("Ann") == 1 and "own hero" in line
    # number agreement of what goes back into the deck
    one = P.narrate({"type": "disgrace", "seat": 1, "old": "ajax", "new": "nestor", "returned": ["boar_helmet"]},
                    NAMES)
    assert "Boar's Tusk Helmet goes back into the deck" in one
    two = P.narrate({"type": "disgrace", "seat": 1, "old": "ajax", "new": "nestor",
                     "returned": ["boar_helmet", "ash_spear"]}, NAMES)
    assert "Boar's Tusk Helmet, Ash Spear go back into the deck" in two


def test_the_glory_line_states_the_glory_actually_lost():
    """A hero at 2 whose GLORY is 6 loses 2: the engine's event and the line say 2 (and that 6 were due)."""
    s = table(["odysseus", "achilles"], gp=[12, 2])
    amazons, = give(s, 0, "amazons")
    from tests.engines.test_troja_support import stack
    stack(s, 6, 1)
    events = challenge(s, 0, 1, amazons) + pass_all(s)
    loss = next(e for e in events if e["type"] == "glory")
    line = P.narrate(loss, NAMES)
    due = HEROES["achilles"]["glory"]
    assert due > 2 and loss["delta"] == -2
    assert "−2 Glory" in line and f"the loss was {due}" in line and f"−{due}" not in line


def test_discard_prompt_counts_the_discards_left():
    s = table(["odysseus", "achilles"])
    a, b, c = give(s, 0, "omen", "feast", "plague")
    E.apply(s, 0, {"type": "end_turn"})
    E.apply(s, 1, {"type": "end_turn"})
    assert "up to 2" in P.prompt(E.view(s, 0))
    E.apply(s, 0, {"type": "discard", "card": a})
    prompt = P.prompt(E.view(s, 0))
    assert "up to 2" not in prompt and "1 more card" in prompt


def test_redrawing_ones_own_fate_card_is_said_in_the_second_person():
    """Not "redraw the fate card of you (Odysseus)"."""
    s = table(["achilles", "menelaus"])  # Menelaus: Hera, the redraw
    spearmen, = give(s, 0, "spearmen")
    from tests.engines.test_troja_support import stack
    stack(s, 3, 3)
    challenge(s, 0, 1, spearmen)
    pass_all(s, ("join",))
    view = E.view(s, 1)
    labels = [P.describe(view, a, i).label for i, a in enumerate(view["legal"]) if a["type"] == "wrath"]
    assert any("redraw your own fate card" in label for label in labels)
    assert not any("of you" in label for label in labels)


def test_rotation_is_an_option_of_game_new():
    assert "rotate_first" in [o.name for o in P.options]
    assert P.engine_options({"rotate_first": True}) == (None, {"rotate_first": True})
    assert P.engine_options({}) == (None, {})
