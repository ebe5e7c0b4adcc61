"""HEX-TRI presenter: option specs, buttons, typed moves, narration of moves, production, battles and the end."""

from __future__ import annotations

import pytest

from engines import ENGINES
from host.panels import Panel, layout
from host.presenters import PRESENTERS

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
    assert [v for _, v in specs["victory"].choices] == ["first_blood", "last_leader"]
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
    assert panel.prompt == ("round 1/9, movement: move one figure (pick it, then where to) or pass — 0 mana to "
                            "spend, the leader's free step is left.")
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
    assert "⚔️ Battle on H-D4: **Ann** (A), **Bob** (B) must decide whether their leader is among their losses." \
        in lines
    view, panel = panel_of(state, 1)
    assert panel.prompt == ("battle on H-D4: you lose 2 of your 3 figures there — keep your leader or lose him "
                            "with them?")
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
                        "**Ann** (A) holds H-D4. 💀 **Bob** (B)'s leader falls!")
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
                                        "**Cy** (C) loses 1; **Ann** (A) holds H-C3.")
    standoff = {"type": "battle", "field": "H-C3", "before": {"0": 1, "1": 1}, "losses": {"0": 0, "1": 0},
                "leaders_lost": []}
    assert "nobody falls" in P.narrate(standoff, NAMES)
    circle = {"type": "encircled", "seat": 2, "field": "T-C4", "count": 1, "leader": True}
    assert P.narrate(circle, NAMES) == "⭕ **Cy** (C): 1 figure on T-C4 encircled and removed — the leader among them!"
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
