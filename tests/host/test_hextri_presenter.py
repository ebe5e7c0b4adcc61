"""HEX-TRI presenter: option specs, buttons, typed moves, narration of moves, production, battles and the end."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.panels import Panel, layout
from host.presenters import PRESENTERS, Refined

ENGINE = ENGINES["hextri"]
P = PRESENTERS["hextri"]
NAMES = ["Ann", "Bob", "Cy"]


def position(radius: int = 3, **players) -> dict:
    """A fresh 2-player state with seat 0 to move and the given figures: {"on": {...}, "leader": ...}."""
    state = ENGINE.new_game(2, 1, {"radius": radius})
    state["turn"], state["first"] = 0, 0
    for seat, spec in players.items():
        p = state["players"][int(seat[1:])]
        p.update(spec)
    return state


def panel_of(state, seat=0):
    view = ENGINE.view(state, seat)
    choices = [P.describe(view, a, i) for i, a in enumerate(ENGINE.legal_actions(state, seat))]
    return view, Panel(1, 0, seat, P.prompt(view), choices, two_step=P.two_step)


def test_options_and_their_checks():
    specs = {s.name: s for s in P.options}
    assert list(specs) == ["players", "radius", "leader_escape", "victory", "round_limit"]
    assert all(1 <= len(s.description) <= 100 for s in specs.values())
    assert (specs["radius"].min_value, specs["radius"].max_value, specs["radius"].default) == (2, 5, 3)
    assert [v for _, v in specs["victory"].choices] == ["first_blood", "last_leader", "first_blood_play_on"]
    assert P.engine_options({"players": None, "radius": 4, "victory": None}) == (2, {"radius": 4})
    assert P.engine_options({"players": 5, "round_limit": 0}) == (5, {"round_limit": 0})
    from host.service import GameError
    with pytest.raises(GameError, match="2 to 6 players"):
        P.engine_options({"players": 8})
    assert not P.has_private and P.two_step
    assert [P.seat_label(s) for s in range(3)] == ["Vermilion A", "Blue B", "Green C"]


def test_first_panel_groups_the_leader_and_a_pass_and_says_what_is_decided():
    state = ENGINE.new_game(2, 1, {"round_limit": 9})
    seat = ENGINE.to_act(state)[0]
    view, panel = panel_of(state, seat)
    assert [g for g, _ in panel.groups()] == ["Enter your leader 👑", "Pass"]
    assert panel.public_safe, "HEX-TRI choices reveal nothing"
    leader = panel.groups()[0][1]
    assert len(leader) == 24 and leader[0].label == "T-A1 (free step)"
    assert leader[0].description == "1 step · uses the leader's free step"
    assert panel.prompt == ("round 1/9, movement: move one figure (pick it, then where to, then who pays when other "
                            "fields could) or pass — 0 mana to spend, the leader's free step is left.")
    rows = layout(panel)
    assert [r.kind for r in rows] == ["group_buttons"]
    assert list(rows[0].direct) == [1], "Pass is a group of one: its own button, one click"
    assert [r.kind for r in layout(panel, group=0)] == ["group_buttons", "select"]
    assert [r.kind for r in layout(panel, group=1)] == ["group_buttons"]


def test_groups_per_figure_field_with_costs_and_attacks():
    state = position(p0={"on": {"H-D4": 3, "T-C6": 1}, "leader": "H-D4", "waiting": 4},
                     p1={"on": {"H-C3": 2}, "leader": "H-C3", "waiting": 7})
    state["mana"] = {"H-D4": 5}
    view, panel = panel_of(state)
    assert [g for g, _ in panel.groups()] == ["Enter a figure (4 waiting)", "Figure on H-D4 (2 here)",
                                              "Leader 👑 on H-D4", "Figure on T-C6 (1 here)", "Pass"]
    by_label = {c.label: c for g, cs in panel.groups() if g == "Figure on T-C6 (1 here)" for c in cs}
    attack = by_label["H-C3 (1 mana)"]
    assert attack.emoji == "⚔️" and "enemy there: B×2 👑" in attack.description
    assert "mana from H-D4" in attack.description
    leader = dict(panel.groups())["Leader 👑 on H-D4"]
    assert any(c.label.endswith("(free step + 1 mana)") for c in leader)
    assert all(len(c.label) <= 80 and (c.description is None or len(c.description) <= 100) for c in panel.choices)


def test_huge_groups_are_paged_within_discord_limits():
    state = position(radius=5, p0={"on": {"H-F6": 5}, "leader": "H-F6", "waiting": 4})
    state["mana"] = {"H-F6": 60}
    view, panel = panel_of(state)
    groups = dict(panel.groups())
    big = groups["Figure on H-F6 (4 here)"]
    assert len(big) > 100
    index = list(groups).index("Figure on H-F6 (4 here)")
    rows = layout(panel, group=index)
    assert rows[-1].kind == "pager" and len(rows) <= 5
    seen = set()
    for page in range(rows[-1].pages):
        seen |= {c.index for r in layout(panel, group=index, page=page) for c in r.choices}
    assert seen == {c.index for c in big}


def test_typed_moves():
    state = position(p0={"on": {"H-D4": 3, "T-C6": 1}, "leader": "H-D4", "waiting": 4},
                     p1={"on": {"H-C3": 2}, "leader": "H-C3", "waiting": 7})
    state["mana"] = {"H-D4": 5}
    view, panel = panel_of(state)
    legal = ENGINE.legal_actions(state, 0)

    def parsed(text):
        return legal[P.parse(view, panel.choices, text)]

    assert parsed("pass") == {"type": "pass"}
    a = parsed("H-D4 T-D8")
    assert (a["from"], a["to"], a["leader"]) == ("H-D4", "T-D8", False)
    a = parsed("leader hex d4 -> t d8")
    assert (a["from"], a["to"], a["leader"]) == ("H-D4", "T-D8", True)
    a = parsed("off T-A1")
    assert (a["from"], a["to"], a["leader"]) == ("off", "T-A1", False)
    assert parsed("Pass this go") == {"type": "pass"}
    a = parsed("T-C6 → H-C3 (1 mana)")
    assert (a["from"], a["to"]) == ("T-C6", "H-C3")
    a = parsed("tc6 hc3")
    assert (a["from"], a["to"]) == ("T-C6", "H-C3")
    errors = {
        "": "Type a move",
        "H-A1 T-A1": "no figure on H-A1",
        "H-Q1 T-A1": "no field H-Q1",
        "dance": "do not understand",
        "T-D8": "Several figures can reach T-D8: a figure on H-D4",
        "D4 D8": "Say H-D4 for the hexagon or T-D4 for the triangle",
        "leader T-C6 H-C3": "leader is not on T-C6",
        "move leader": "Name the figure's field",
    }
    for text, words in errors.items():
        with pytest.raises(ValueError, match=words):
            P.parse(view, panel.choices, text)


def test_loss_choices_and_their_words():
    state = position(p0={"on": {"H-D4": 3}, "leader": "H-D4", "waiting": 6},
                     p1={"on": {"H-D4": 3}, "leader": "H-D4", "waiting": 6})
    events = ENGINE.apply(state, 0, {"type": "pass"})
    events += ENGINE.apply(state, 1, {"type": "pass"})
    assert ENGINE.to_act(state) == [0, 1]
    lines = [P.narrate(e, NAMES) for e in events]
    assert "⚔️ Battle losses to choose: **Ann** (A), **Bob** (B) on H-D4 — is the leader among them?" in lines
    view, panel = panel_of(state, 1)
    assert panel.prompt == ("battle on H-D4: you have 3 figures there and lose 2 of them — keep your leader or "
                            "lose him with them?")
    assert [(c.label, c.group, c.style) for c in panel.choices] == [
        ("Lose 2 ordinary figures, keep the leader", "Battle on H-D4", "success"),
        ("Lose the leader among the 2 (your team leaves!)", "Battle on H-D4", "danger")]
    legal = ENGINE.legal_actions(state, 1)
    assert legal[P.parse(view, panel.choices, "keep")]["leader"] is False
    assert legal[P.parse(view, panel.choices, "lose leader")]["leader"] is True
    with pytest.raises(ValueError, match="keep"):
        P.parse(view, panel.choices, "H-D4 T-D8")
    with pytest.raises(ValueError, match="cannot pass now"):
        P.parse(view, panel.choices, "pass")
    first = ENGINE.apply(state, 1, legal[1])
    assert [P.narrate(e, NAMES) for e in first] == ["**Bob** (B) has chosen their losses."]
    rest = ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    lines = [line for e in rest if (line := P.narrate(e, NAMES))]
    assert lines[1] == ("⚔️ Battle on H-D4 (**Ann** (A) 3 · **Bob** (B) 3): **Ann** (A) loses 2, **Bob** (B) loses 2; "
                        "**Ann** (A) holds H-D4. 💀 **Bob** (B)'s leader falls! Each of the 4 figures leaves 1 mana "
                        "on its field. The figures **Ann** (A) lost sit out the next round.")
    assert "💀 **Bob** (B)'s leader has fallen to **Ann** (A): the team (1 figure) leaves the board and **Bob** (B) is " \
        "out." \
        in lines
    assert lines[-1] == "🏆 **Ann** (A) wins — the enemy leader is down."
    result = P.result_lines(ENGINE.result(state), NAMES[:2])
    assert result[0] == "Winner: **Ann** (A), after 1 round."
    assert result[1].startswith("1. **Ann** (A): 1 figure on the board")


def test_narration_of_moves_production_encirclement_and_shared_ends():
    move = {"type": "move", "seat": 1, "from": "off", "to": "T-A1", "leader": False, "path": ["off", "T-A1"],
            "cost": 1, "sources": ["H-B2"]}
    assert P.narrate(move, NAMES) == "**Bob** (B) brings a figure onto the board at T-A1 (1 mana)."
    move = {"type": "move", "seat": 0, "from": "T-A1", "to": "T-B2", "leader": True,
            "path": ["T-A1", "H-A1", "T-B2"], "cost": 1, "sources": ["free", "H-A1"]}
    assert P.narrate(move, NAMES) == "👑 **Ann** (A)'s leader moves T-A1 → H-A1 → T-B2 (free step + 1 mana)."
    production = {"type": "production", "round": 4, "total": 4, "fields": [
        {"field": "H-A1", "seat": 0, "mana": 1}, {"field": "H-B2", "seat": 1, "mana": 2},
        {"field": "H-D4", "seat": 0, "mana": 1}]}
    assert P.narrate(production, NAMES) == ("💎 Round 4 production: **Ann** (A) +2 (H-A1 +1, H-D4 +1); "
                                            "**Bob** (B) +2 (H-B2 +2).")
    assert P.narrate({"type": "production", "round": 2, "fields": [], "total": 0}, NAMES) == \
        "💎 Round 2: no HEX produced mana."
    battle = {"type": "battle", "field": "H-C3", "before": {"0": 3, "2": 1}, "losses": {"0": 1, "2": 1},
              "leaders_lost": []}
    assert P.narrate(battle, NAMES) == ("⚔️ Battle on H-C3 (**Ann** (A) 3 · **Cy** (C) 1): **Ann** (A) loses 1, "
                                        "**Cy** (C) loses 1; **Ann** (A) holds H-C3. Each of the 2 figures removed leaves 1 mana on "
                                        "its field and sits out the next round.")
    standoff = {"type": "battle", "field": "H-C3", "before": {"0": 1, "1": 1}, "losses": {"0": 0, "1": 0},
                "leaders_lost": []}
    assert "nobody falls" in P.narrate(standoff, NAMES)
    circle = {"type": "encircled", "seat": 2, "field": "T-C4", "count": 1, "leader": True}
    assert P.narrate(circle, NAMES) == ("⭕ **Cy** (C): 1 figure on T-C4 encircled and removed — the leader among "
                                        "them! It leaves 1 mana on its field.")
    assert P.narrate({"type": "round", "round": 3, "first": 2}, NAMES) == "🔔 **Round 3** — **Cy** (C) moves first."
    assert P.narrate({"type": "figures_return", "seat": 0, "count": 2}, NAMES).startswith("↩️ **Ann** (A): 2")
    over = {"type": "game_over", "reason": "first_blood", "places": [1, 1, 3], "winners": [0, 1]}
    assert P.narrate(over, NAMES) == ("🏆 **Ann** (A) & **Bob** (B) share the win — first blood: they helped bring "
                                      "down a leader.")
    draw = {"type": "game_over", "reason": "round_limit", "places": [1, 1], "winners": [0, 1]}
    assert P.narrate(draw, NAMES).startswith("🤝 The game is a draw — the round limit")
    together = {"type": "game_over", "reason": "leaders_fell_together", "places": [1, 1], "winners": []}
    assert P.narrate(together, NAMES).startswith("🤝")
    assert P.result_lines({"places": [1, 1], "scores": [3, 3], "mana": [2, 2], "reason": "round_limit",
                           "round": 60, "winners": [0, 1]}, NAMES[:2])[0] == "A draw after 60 rounds."


# -- issue 11: paying, reasons, narration --------------------------------------------------------------

def _two_sources():
    """Ann can pay from H-A1 (2 mana) or H-A2 (1 mana); her leader's free step is used."""
    state = position(p0={"on": {"H-A1": 2, "H-A2": 1, "T-A1": 1}, "leader": "T-A1", "waiting": 5,
                         "free_used": True},
                     p1={"on": {"T-H9": 1}, "leader": "T-H9", "waiting": 8})
    state["mana"] = {"H-A1": 2, "H-A2": 1}
    return state


def test_a_move_other_fields_could_pay_asks_who_pays_as_a_third_step():
    state = _two_sources()
    view = ENGINE.view(state, 0)
    choices = P.describe_all(view, view["legal"])
    assert len(choices) == len(view["legal"]), "one choice per figure and destination"
    entering = {c.label: c for c in choices if c.group == "Enter a figure (5 waiting)"}
    to_a2 = entering["T-A2 (1 mana)"]
    assert to_a2.more and to_a2.variant is None
    assert to_a2.description == "1 step · other fields could pay: you choose next"
    # three steps take all three mana: one way only, the choice acts at once and says who pays
    three = next(c for c in choices if view["legal"][c.index].get("cost") == 3)
    assert not three.more and "mana from H-A1 ×2, H-A2" in three.description
    listed = view["legal"][to_a2.index]
    ways = P.describe_variants(view, listed, to_a2.index, ENGINE.variants(state, 0, listed))
    assert [(c.label, c.group, c.index, c.variant) for c in ways] == [
        ("H-A1 (default)", "T-A2 (1 mana): who pays?", to_a2.index, 0),
        ("H-A2", "T-A2 (1 mana): who pays?", to_a2.index, 1)]
    assert [c.description for c in ways] == ["most mana first · mana left: H-A1 1", "spares H-A1 · mana left: H-A2 0"]
    # the label the host shows after a click names the fields of a way other than the default
    other = ENGINE.variants(state, 0, listed)[1]
    assert P.describe(view, other, to_a2.index).label == "T-A2 (from H-A2)"
    assert P.describe(view, listed, to_a2.index).label == "T-A2 (1 mana)"
    # the ways as the host shows them: one select saying what is chosen, and a way back to the figure
    panel = Panel(1, 0, 0, P.prompt(view), ways, back=(0, "Enter a figure (5 waiting)"),
                  select_groups={c.group for c in ways})
    rows = layout(panel, reserved_rows=1)
    assert [r.kind for r in rows] == ["select"] and rows[0].placeholder == "T-A2 (1 mana): who pays?"


def test_typed_moves_name_the_paying_fields():
    state = _two_sources()
    view = ENGINE.view(state, 0)
    choices = P.describe_all(view, view["legal"])
    legal = view["legal"]

    def typed(text):
        """What the host applies for a typed move: the listed action, or the way the player named."""
        got = P.parse(view, choices, text)
        return got.action if isinstance(got, Refined) else legal[got]

    assert typed("off T-A2 H-A2")["sources"] == ["H-A2"]
    assert isinstance(P.parse(view, choices, "off T-A2 H-A2"), Refined)
    assert P.parse(view, choices, "off T-A2 pay H-A1") == P.parse(view, choices, "off T-A2")  # the default
    assert typed("off T-A2")["sources"] == ["H-A1"]
    # one field may pay every step; two fields, one each, in any order
    assert sorted(typed("off H-A2 H-A1")["sources"]) == ["H-A1", "H-A1"]
    assert sorted(typed("off H-A2 H-A1 H-A2")["sources"]) == ["H-A1", "H-A2"]
    assert sorted(typed("off H-A2 H-A2 H-A1")["sources"]) == ["H-A1", "H-A2"]
    for text in ("off H-A2 H-A1 H-A2", "off H-A2 H-A2 H-A1"):
        copy = ENGINE.from_json(ENGINE.to_json(state))
        ENGINE.apply(copy, 0, typed(text))
        assert copy["mana"] == {"H-A1": 1}, "the same fields pay, whatever order they were typed in"
    with pytest.raises(ValueError, match="T-A2 cannot be paid from T-H9: mana comes from fields where only your"):
        P.parse(view, choices, "off T-A2 T-H9")
    with pytest.raises(ValueError, match="H-A2 cannot be paid from H-A2 ×2"):
        P.parse(view, choices, "off H-A2 H-A2 H-A2")  # H-A2 holds one mana
    with pytest.raises(ValueError, match="H-A2 costs 2 mana: name one paying field per paid step, or one field "
                                         "for all. The default way: H-A1 ×2."):
        P.parse(view, choices, "off H-A2 H-A1 H-A2 H-A1")


def test_a_typed_entry_onto_an_occupied_tri_gets_the_engines_reason():
    state = _two_sources()
    view = ENGINE.view(state, 0)
    choices = P.describe_all(view, view["legal"])
    with pytest.raises(ValueError, match="T-A1 is occupied: a triangle holds only one figure"):
        P.parse(view, choices, "off T-A1")
    with pytest.raises(ValueError, match="T-H9 is occupied: a triangle holds only one figure"):
        P.parse(view, choices, "T-H9")


def test_battle_loss_narration_names_only_each_players_own_battle():
    event = {"type": "choose_losses", "seats": [0, 2], "fields": {"0": "H-D4", "2": "H-C3"},
             "battles": [{"field": "H-D4", "before": {"0": 3, "1": 3}, "losses": {"0": 2, "1": 2}},
                         {"field": "H-C3", "before": {"1": 2, "2": 3}, "losses": {"1": 1, "2": 1}},
                         {"field": "H-E5", "before": {"0": 2, "2": 2}, "losses": {"0": 1, "2": 1}}]}
    assert P.narrate(event, NAMES) == ("⚔️ Battle losses to choose: **Ann** (A) on H-D4; **Cy** (C) on H-C3 — is the "
                                       "leader among them?")


def test_cannot_move_says_why_and_returns_follow_the_round_line():
    assert P.narrate({"type": "cannot_move", "seat": 1, "why": "blocked"}, NAMES).startswith(
        "**Bob** (B) cannot move this round: every step is barred")
    assert "has nowhere to take his free step" in P.narrate({"type": "cannot_move", "seat": 1,
                                                             "why": "leader_blocked"}, NAMES)
    # a figure removed in round 1 is back in round 3: the "Round 3" line comes first
    state = position(p0={"on": {"T-A1": 1}, "leader": "T-A1", "waiting": 6, "resting": [[3, 2]]},
                     p1={"on": {"T-H9": 1}, "leader": "T-H9", "waiting": 8})
    state["round"] = 2
    events = []
    while state["round"] == 2:
        events += ENGINE.apply(state, ENGINE.to_act(state)[0], {"type": "pass"})
    lines = [line for e in events if (line := P.narrate(e, NAMES))]
    at = next(i for i, line in enumerate(lines) if "**Round 3**" in line)
    assert lines[at + 1] == "↩️ **Ann** (A): 2 figures back from sitting out, free to enter again."


def test_a_leader_falling_alone_is_not_a_team_of_zero():
    line = P.narrate({"type": "eliminated", "seat": 1, "figures_removed": 0, "by": [0]}, NAMES)
    assert line == ("💀 **Bob** (B)'s leader has fallen to **Ann** (A), the last of the team on the board: **Bob** (B) "
                    "is out.")
    assert "0 figures" not in line
    one = P.narrate({"type": "eliminated", "seat": 1, "figures_removed": 1, "by": []}, NAMES)
    assert "(1 figure)" in one


def test_removed_figures_leave_mana_and_sit_out_singular_and_plural():
    one = {"type": "encircled", "seat": 0, "field": "T-A3", "count": 1, "leader": False}
    assert P.narrate(one, NAMES).endswith("The removed figure leaves 1 mana on its field and sits out the next round.")
    three = {**one, "field": "H-D4", "count": 3}
    assert P.narrate(three, NAMES) == ("⭕ **Ann** (A): 3 figures on H-D4 encircled and removed. Each of the 3 figures "
                                       "removed leaves 1 mana on its field and sits out the next round.")
    battle = {"type": "battle", "field": "H-C3", "before": {"0": 2, "1": 1}, "losses": {"0": 1, "1": 1},
              "leaders_lost": [1]}
    assert P.narrate(battle, NAMES).endswith("Each of the 2 figures leaves 1 mana on its field. The figure **Ann** (A) "
                                             "lost sits out the next round.")


def test_first_blood_play_on_is_narrated():
    line = P.narrate({"type": "champion", "seat": 0, "figures_removed": 3, "playing_on": [1, 2]}, NAMES)
    assert line == ("🏆 **Ann** (A) brought down the first leader and wins! Their figures leave the board; **Bob** (B), "
                    "**Cy** (C) play on for the places.")
    end = P.narrate({"type": "game_over", "reason": "first_blood_play_on", "winners": [0], "places": [1, 2, 3]},
                    NAMES)
    assert end == "🏆 **Ann** (A) wins — first to bring down a leader; the others played on for the places."


@pytest.mark.parametrize("lang, before, expected", [
    ("en", 1, "you have 1 figure there and lose 1 of them"),
    ("pl", 1, "masz tam 1 pionek, tracisz z nich 1"),
    ("pl", 3, "masz tam 3 pionki, tracisz z nich 1"),
    ("pl", 5, "masz tam 5 pionków, tracisz z nich 1"),
    ("hu", 5, "5 bábu áll ott, ebből 1 elesik"),
])
def test_the_loss_prompt_counts_the_figures_in_each_language(lang, before, expected):
    from host.locale import use_language

    view = {"seat": 0, "phase": "losses", "legal": [{"type": "losses", "field": "H-D4", "count": 1,
                                                     "leader": False}],
            "battle": {"battles": [{"field": "H-D4", "before": {"0": before, "1": 2}}]}}
    use_language(lang)
    try:
        assert expected in P.prompt(view)
    finally:
        use_language(None)


def test_ways_to_pay_each_take_different_mana():
    state = _two_sources()
    view = ENGINE.view(state, 0)
    listed = next(a for a in view["legal"] if a["type"] == "move" and a["from"] == "off" and a["to"] == "H-A2")
    index = view["legal"].index(listed)
    ways = P.describe_variants(view, listed, index, ENGINE.variants(state, 0, listed))
    assert [c.label for c in ways] == ["H-A1 ×2 (default)", "H-A1, H-A2"]
    assert len({P.way_key(v) for v in ENGINE.variants(state, 0, listed)}) == 2


def _fits_discord(panel):
    """Every group of ``panel``, on every page, within Discord's limits; the choices reachable."""
    from host.panels import MAX_OPTIONS

    for index, (_name, group) in enumerate(panel.groups()):
        rows = layout(panel, group=index)
        assert len(rows) <= 5
        pages = rows[-1].pages if rows[-1].kind == "pager" else 1
        seen = set()
        for page in range(pages):
            page_rows = layout(panel, group=index, page=page)
            assert len(page_rows) <= 5
            for row in page_rows:
                assert len(row.choices) <= MAX_OPTIONS and len(row.placeholder) <= 150
                for c in row.choices:
                    assert len(c.label) <= 80 and len(c.description or "") <= 100
                seen |= {c.index for c in row.choices}
        assert seen >= {c.index for c in group}


def test_the_busiest_position_keeps_one_choice_per_destination_and_fits_discord():
    """Many mana marks around several figures: one choice per figure and destination, and the panel and
    every move's who-pays panel keep to Discord's limits (5 rows, 25 options a select, labels and
    descriptions within bounds) on every page."""
    fields = ["H-C3", "H-C4", "H-D3", "H-D4", "H-D5", "H-E4", "H-E5"]
    state = position(radius=3, p0={"on": {f: 2 for f in fields}, "leader": "H-D4", "waiting": 3})
    state["mana"] = {f: 1 for f in fields}
    view = ENGINE.view(state, 0)
    legal = view["legal"]
    choices = P.describe_all(view, legal)
    keys = [(legal[c.index]["from"], legal[c.index]["leader"], legal[c.index]["to"]) for c in choices
            if legal[c.index]["type"] == "move"]
    assert len(keys) == len(set(keys)) == len(legal) - 1
    panel = Panel(1, 0, 0, P.prompt(view), choices, two_step=True)
    _fits_discord(panel)
    for c in choices:
        if c.more:
            ways = P.describe_variants(view, legal[c.index], c.index, ENGINE.variants(state, 0, legal[c.index]))
            assert 2 <= len(ways) <= 25
            _fits_discord(Panel(1, 0, 0, "", ways, select_groups={w.group for w in ways}))


def test_the_pass_until_huge_position_makes_a_panel_that_fits_discord():
    """Issue 22's position: the panel holds one choice per figure and destination, and a move of twenty
    steps offers 25 ways to pay it (of millions), the select saying how to type any other."""
    from bench.hextri_positions import pass_until_huge

    state = pass_until_huge(200)
    seat = ENGINE.to_act(state)[0]
    view = ENGINE.view(state, seat)
    legal = view["legal"]
    choices = P.describe_all(view, legal)
    assert len(choices) == len(legal) > 1000
    _fits_discord(Panel(1, 0, seat, P.prompt(view), choices, two_step=True))
    longest = max(range(len(legal)), key=lambda i: legal[i].get("cost", 0))
    ways = P.describe_variants(view, legal[longest], longest, ENGINE.variants(state, seat, legal[longest]))
    assert len(ways) == 25 and ways[0].label.endswith("(default)")
    assert ways[0].group.endswith("who pays? Any other way: type it with /game play")
    _fits_discord(Panel(1, 0, seat, "", ways, select_groups={w.group for w in ways}))
    # a typed way that is not among the 25 is taken as it is
    listed = legal[longest]
    field = listed["sources"][-1]
    text = f"{listed['from']} {listed['to']} {field}"
    got = P.parse(view, choices, text)
    assert isinstance(got, Refined) and set(got.action["sources"]) == {field}
    copy = ENGINE.from_json(ENGINE.to_json(state))
    ENGINE.apply(copy, seat, got.action)
    assert copy["mana"][field] == state["mana"][field] - listed["cost"]
