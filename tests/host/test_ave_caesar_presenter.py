"""Ave Caesar's presenter without Discord: options, choices, prompts, typed moves, narration, results."""

from __future__ import annotations

import pytest

import ai
from engines import ENGINES
from engines.rng import Rng
from host.presenters import PRESENTERS
from tests.engines.test_ave_caesar_support import race, space

E = ENGINES["ave-caesar"]
P = PRESENTERS["ave-caesar"]
NAMES = ["Ann", "Bob", "Cy"]


def play_out(n: int, options: dict, seed: int) -> list[dict]:
    """Every event of a whole game between AI drivers."""
    state = E.new_game(n, seed, options)
    rng = Rng(seed)
    events = []
    while E.to_act(state):
        seat = E.to_act(state)[0]
        events += E.apply(state, seat, ai.choose(E, state, seat, rng))
    return events


def test_engine_options_fill_the_table_the_options_allow():
    assert P.engine_options({"players": None, "races": None}) == (None, {})
    assert P.engine_options({"players": 4, "races": 2, "track": "B"}) == (4, {"races": 2, "track": "B"})
    assert P.engine_options({"chariots_per_player": 2}) == (3, {"chariots_per_player": 2})
    assert P.engine_options({"chariots_per_player": 3}) == (2, {"chariots_per_player": 3})
    assert P.engine_options({"neutral_chariots": True})[0] == 5
    # against the AI without `players`: the smallest table the options allow (you and one AI driver)
    assert P.engine_options({}, opponent="ai") == (2, {})
    assert P.engine_options({"chariots_per_player": 2}, opponent="ai") == (2, {"chariots_per_player": 2})
    assert P.engine_options({"neutral_chariots": True}, opponent="ai") == (2, {"neutral_chariots": True})
    assert P.engine_options({"players": 4}, opponent="ai") == (4, {})
    assert P.engine_options({"chariots_per_player": 2}, opponent="open") == (3, {"chariots_per_player": 2})
    assert P.engine_options({"turn_order": "previous_results"}) == (None, {"turn_order": "previous_results"})
    with pytest.raises(ValueError, match="2 to 6 players, not 1"):
        P.engine_options({"players": 1})
    names = {o.name for o in P.options}
    assert names == {"players", "chariots_per_player", "races", "neutral_chariots", "turn_order", "track",
                     "neutral_vote"}
    assert all(1 <= len(o.description) <= 100 for o in P.options)


def test_a_vote_on_a_neutral_chariot_has_numbered_private_choices_a_prompt_and_narration():
    from tests.engines.test_ave_caesar_vote import first_vote
    st = first_vote()
    vote = st["race"]["vote"]
    label = st["chariots"][vote["chariot"]]["label"]
    view = E.view(st, 1)
    choices = [P.describe(view, a, i) for i, a in enumerate(view["legal"])]
    # (each space also in words: lane, curve, the chariot beside or behind)
    assert choices[0].label.startswith(f"Vote: {label} → 1: ") and choices[0].label.endswith(" (the rule's choice)")
    assert [c.label.split(": ")[1] for c in choices[1:]] == [f"{label} → {n}" for n in range(2, len(choices) + 1)]
    assert all(c.label.split(": ")[2].split(",")[0].split(" (")[0] in ("inner lane", "middle lane", "outer lane",
                                                                        "Caesar's alley") for c in choices)
    assert all(c.secret and len(c.label) <= 80 and len(c.description) <= 100 for c in choices)
    assert f"neutral chariot **{label}** turned a **{vote['card']}**" in P.prompt(view)
    assert P.parse(view, choices, "2") == 1
    with pytest.raises(ValueError, match="number of a space"):
        P.parse(view, choices, "99")
    events = []
    for seat in E.to_act(st):
        events += E.apply(st, seat, {"type": "vote", "to": vote["options"][-1]})
    lines = [P.narrate(e, NAMES) for e in events]
    result = next(line for e, line in zip(events, lines) if e["type"] == "vote_result")
    assert result.startswith(f"{label} (neutral): the vote is in (Ann: {len(vote['options'])}, Bob:")
    assert all(line is None or "{" not in line for line in lines)
    start = E.new_game(3, 1, {"neutral_chariots": True, "neutral_vote": True})
    assert "neutral_vote" in P.engine_options({"neutral_chariots": True, "neutral_vote": True})[1]
    assert start["options"]["neutral_vote"] is True


def test_alley_choices_are_flagged_and_every_move_is_secret():
    state = race(3, c0=dict(where=space("A", "bottom", 1, 0), hand=[2, 6, 6], crossings=2),
                 c1=dict(where=space("A", "west", 2, 0), crossings=2, paid=True),
                 c2=dict(where=space("A", "east", 3, 2), crossings=2, paid=False))
    view = E.view(state, 0)
    choices = [P.describe(view, a, i) for i, a in enumerate(view["legal"])]
    assert all(c.secret and 1 <= len(c.label) <= 80 for c in choices)
    alley = [c for c in choices if "enters Caesar's alley" in c.label]
    passing = [c for c in choices if "passes the alley unpaid" in c.label]
    assert alley and passing
    assert all(c.style == "success" and c.emoji == "🏛️" for c in alley)
    assert all(c.style == "danger" and c.emoji == "⚠️" for c in passing)
    assert any(c.label.startswith("6 → ") for c in passing)
    # labels carry the numbers of the picture's markers, groups the card
    for c, action in zip(choices, view["legal"]):
        n = next(ch["n"] for ch in view["choices"] if ch["to"] == action["to"])
        assert c.label.startswith(f"{action['card']} → {n}") and c.group == f"Card {action['card']}"
    prompt = P.prompt(view)
    assert "stop in Caesar's alley this lap" in prompt and "AC" not in prompt


def test_prompt_names_the_chariot_and_the_first_move_exception():
    state = E.new_game(2, 3, {"races": 2})
    view = E.view(state, E.to_act(state)[0])
    me = view["chariots"][view["turn"]]
    prompt = P.prompt(view)
    assert prompt.startswith(f"race 1/2: move **{me['label']}** (lap 1/3")
    assert "even a 6 may be played" in prompt
    assert "highest card" not in prompt  # the opening lines say who starts on I and why


def test_typed_moves():
    state = E.new_game(2, 3, {})
    seat = E.to_act(state)[0]
    view = E.view(state, seat)
    choices = [P.describe(view, a, i) for i, a in enumerate(view["legal"])]
    for i, action in enumerate(view["legal"]):
        n = next(ch["n"] for ch in view["choices"] if ch["to"] == action["to"])
        for text in (f"{action['card']} {n}", f"{action['card']}->{n}", f"card {action['card']} to {n}",
                     f"{action['card']} → {n}", f"A1 {action['card']} {n}"):
            assert P.parse(view, choices, text) == i
    cards = sorted({a["card"] for a in view["legal"]})
    missing = next(v for v in range(1, 7) if v not in cards)
    with pytest.raises(ValueError, match=f"no playable {missing}"):
        P.parse(view, choices, f"{missing} 1")
    with pytest.raises(ValueError, match="cannot take you to marker 99"):
        P.parse(view, choices, f"{cards[0]} 99")
    with pytest.raises(ValueError, match="type the card and the destination"):
        P.parse(view, choices, "99")


def test_narration_of_a_championship_with_neutral_chariots():
    events = play_out(2, {"races": 2, "neutral_chariots": True, "chariots_per_player": 2}, seed=8)
    lines = [line for e in events if (line := P.narrate(e, NAMES[:2]))]
    assert all("{" not in line and "None" not in line for line in lines)
    text = "\n".join(lines)
    assert "🏛️ **Ave Caesar!** A1 (**Ann**) stops in Caesar's alley" in text or "**Ave Caesar!** A" in text
    assert "N1 (neutral)" in text and "(no laurels for neutral chariots)" in text
    assert "🏟️ **Race 2 of 2** — Track B (Circus Flaminius), clockwise." in text
    assert "Start: I " in text and "**Race 1 result:** 1st " in text
    assert "Championship after race 1 of 2: " in text and "Final championship laurels: " in text
    for e in events:
        if e["type"] in ("moved", "ave_caesar", "finished", "disqualified", "skipped", "new_lap", "race_over",
                         "out_of_cards", "alley_missed", "race_started", "race_stalled"):
            assert P.narrate(e, NAMES[:2]), e


def test_narration_of_every_special_event():
    who = {"chariot": 0, "seat": 0, "label": "A1"}
    neutral = {"chariot": 4, "seat": None, "label": "N1"}
    assert P.narrate({"type": "ave_caesar", **who}, NAMES).startswith("🏛️ **Ave Caesar!** A1 (**Ann**)")
    assert "Caesar's wrath" in P.narrate({"type": "disqualified", "reason": "caesar_wrath", **who}, NAMES)
    assert "without paying" in P.narrate({"type": "alley_missed", **who}, NAMES)
    assert P.narrate({"type": "finished", "place": 2, "laurels": 4, **who}, NAMES) == \
        "🏁 A1 (**Ann**) finishes **2nd**: 4 laurels!"
    assert "no laurels" in P.narrate({"type": "finished", "place": 6, "laurels": 0, **who}, NAMES)
    assert "1 laurel!" in P.narrate({"type": "finished", "place": 5, "laurels": 1, **who}, NAMES)
    assert "lap 3" in P.narrate({"type": "new_lap", "lap": 3, **who}, NAMES)
    assert "used up all its cards" in P.narrate({"type": "out_of_cards", **who}, NAMES)
    reasons = {"blocked": "boxed in", "leader_six": "may not play a 6", "alley_wait": "entrance is blocked"}
    for reason, words in reasons.items():
        line = P.narrate({"type": "skipped", "reason": reason, "card": None, **who}, NAMES)
        assert words in line and line.startswith("A1 (**Ann**)")
    assert "turns up a 3 but cannot drive it" in P.narrate(
        {"type": "skipped", "reason": "blocked", "card": 3, **neutral}, NAMES)
    assert "turns up a 6: the card is discarded" in P.narrate(
        {"type": "skipped", "reason": "leader_six", "card": 6, **neutral}, NAMES)
    assert "turns up no card" in P.narrate({"type": "skipped", "reason": "blocked", "card": None, **neutral}, NAMES)
    stalled = P.narrate({"type": "race_stalled", "chariots": [1], "labels": ["A", "B"], "owners": [0, 1]}, NAMES)
    assert "race is stopped" in stalled and "B (**Bob**)" in stalled
    over = P.narrate({"type": "race_over", "race": 1, "races": 1, "ranking": [1, 0], "laurels": [0, 6],
                      "status": ["disqualified", "finished"], "totals": [0, 6], "labels": ["A", "B"],
                      "owners": [0, 1]}, NAMES)
    assert over == "🏆 **Race 1 result:** 1st B (**Bob**) +6 · A (**Ann**) disqualified."
    assert P.narrate({"type": "game_over", "places": [2, 1], "scores": [0, 6]}, NAMES) is None


def test_result_lines():
    base = {"chariots": [{"label": "A1", "owner": 0}, {"label": "B1", "owner": 1}, {"label": "A2", "owner": 0},
                         {"label": "B2", "owner": 1}],
            "races": [{"laurels": [6, 4, 0, 3]}, {"laurels": [0, 6, 4, 3]}]}
    lines = P.result_lines({"places": [2, 1], "scores": [10, 16], "reason": "championship",
                            "laurels": [6, 10, 4, 6], **base}, NAMES[:2])
    assert lines[0] == "🏆 **Bob** wins the championship with 16 laurels!"
    assert lines[1] == "1. Bob — 16 laurels (B1 10, B2 6; races: 7 + 9)"
    assert lines[2] == "2. Ann — 10 laurels (A1 6, A2 4; races: 6 + 4)"
    tied = P.result_lines({"places": [1, 1], "scores": [4, 4], "reason": "race", "laurels": [4, 0, 0, 4],
                           "chariots": base["chariots"], "races": [{"laurels": [4, 0, 0, 4]}]}, NAMES[:2])
    assert tied[0] == "Everyone ties in the race with 4 laurels."
    ais = P.result_lines({"places": [2, 1, 1], "scores": [3, 6, 6], "reason": "race", "laurels": [3, 6, 6],
                          "chariots": [{"label": x, "owner": i} for i, x in enumerate("ABC")],
                          "races": [{"laurels": [3, 6, 6]}]}, ["Ann", "AI 2", "AI 3"])
    assert ais == ["🏆 **AI 2** & **AI 3** share first place in the race with 6 laurels each!",
                   "1. AI 2 — 6 laurels", "1. AI 3 — 6 laurels", "2. Ann — 3 laurels"]
    nobody = P.result_lines({"places": [1, 1], "scores": [0, 0], "reason": "race", "laurels": [0] * 4,
                             "chariots": base["chariots"], "races": [{"laurels": [0] * 4}]}, NAMES[:2])
    assert "no laurels in the race" in nobody[0]


def test_events_name_their_chariots_and_pictures_show_the_moves_since_the_next_players_last_decision():
    state = E.new_game(3, 5, {"chariots_per_player": 1, "neutral_chariots": True})
    rng = Rng(5)
    for step in range(40):
        seat = E.to_act(state)[0]
        events = E.apply(state, seat, ai.choose(E, state, seat, rng))
        labels = [ch["label"] for ch in state["chariots"]]
        assert all(e["label"] == labels[e["chariot"]] for e in events if "chariot" in e)
        last = E.view(state, None)["last"]
        decisions = [item["by"] for item in last if "by" in item]
        nxt = E.to_act(state)[0]
        if step >= 3:  # everybody has decided once: the picture starts at the next player's latest decision
            assert decisions[0] == nxt and decisions.count(nxt) == 1
        # ... so it shows every move of this action (what the new post narrates)
        moves = [e["chariot"] for e in events if e["type"] == "moved"]
        shown = [item["chariot"] for item in last if item["kind"] == "move"]
        assert shown[len(shown) - len(moves):] == moves
    assert len(state["race"]["last"]) <= 12, "old moves are forgotten"


def test_prompt_warns_a_chariot_that_passed_the_alley_unpaid():
    state = race(2, c0=dict(where=space("A", "west", 2, 0), hand=[1, 2, 3], crossings=2),
                 c1=dict(where=space("A", "east", 3, 2), crossings=2, paid=True))
    prompt = P.prompt(E.view(state, 0))
    assert "drove past Caesar's alley without paying" in prompt and "stop in Caesar's alley" not in prompt


def test_opening_lines_name_the_start_cards_the_grid_and_the_early_neutral_moves():
    names = ["Ann", "AI 2", "AI 3"]
    # a start decided by a tie-break (several rounds of turned cards); the neutral chariots turn no card and
    # take the start spaces left after the players (IV-VI)
    options = {"neutral_chariots": True, "races": 1}
    seed = next(s for s in range(200) if len(E.new_game(3, s, options)["race"]["reveal"]) > 1
                and E.new_game(3, s, options)["race"]["grid"][0] == 2)
    state = E.new_game(3, seed, options)
    view = E.view(state, None)
    lines = P.opening_lines(view, names)
    text = "\n".join(lines)
    assert lines[0] == "🏟️ **One race, three laps** — Track A (Circus Maximus), clockwise."
    first_round = ", ".join(f"{P.chariot(view['chariots'][c]['label'], view['chariots'][c]['owner'], names)} {v}"
                            for c, v in view["reveal"][0])
    assert lines[1] == f"For the start every player's chariot turned up a card: {first_round}."
    assert "A (**Ann**) " in lines[1] and "B (**AI 2**) " in lines[1] and "(neutral)" not in lines[1]
    assert text.count("they turned again: ") == len(view["reveal"]) - 1
    assert "C (**AI 3**) won the tie-break with a " in text
    grid = ", ".join(f"{r} {P.chariot(view['chariots'][c]['label'], view['chariots'][c]['owner'], names)}"
                     for r, c in zip(["I", "II", "III", "IV", "V", "VI"], view["grid"]))
    assert f"Start: {grid}." in lines
    assert grid.endswith("IV N1 (neutral), V N2 (neutral), VI N3 (neutral)")
    # C on I moves first (an AI seat, not yet played here): nothing drove before anybody was asked
    assert view["last"] == [] and not any("(neutral) turns up a" in ln for ln in lines)
    assert all("{" not in ln and "None" not in ln for ln in lines)


def test_opening_lines_of_a_championship_without_ties_or_neutral_chariots():
    seed = next(s for s in range(200) if len(E.new_game(2, s, {"races": 3})["race"]["reveal"]) == 1)
    view = E.view(E.new_game(2, seed, {"races": 3}), None)
    lines = P.opening_lines(view, ["Ann", "Bob"])
    assert lines[0] == "🏟️ **A championship of 3 races.** Race 1 — Track A (Circus Maximus), clockwise, three laps."
    starter = view["chariots"][view["grid"][0]]
    top = max(v for _, v in view["reveal"][0])
    assert lines[2].startswith(f"{starter['label']} (**{['Ann', 'Bob'][starter['owner']]}**) turned the highest "
                               f"card ({top}) and takes start space I")
    assert lines[3].startswith("Start: I ") and len(lines) == 4


def test_later_races_say_why_their_grid_is_as_it_is():
    for order, words in (("seat", "came last in race 1 and starts on I"),
                         ("previous_results", "The grid follows the results of race 1: its winner on I")):
        events = play_out(2, {"races": 2, "chariots_per_player": 1, "turn_order": order}, seed=4)
        started = [e for e in events if e["type"] == "race_started"]
        assert len(started) == 1 and started[0]["race"] == 2
        line = P.narrate(started[0], ["Ann", "Bob"])
        assert words in line, line
        over = next(e for e in events if e["type"] == "race_over")
        first = started[0]["grid"][0]
        expect = over["ranking"][-1] if order == "seat" else over["ranking"][0]
        assert first == expect
        if order == "seat":
            assert line.split("\n")[1].startswith(f"{'AB'[first]} (**{['Ann', 'Bob'][first]}**) came last")


def test_a_move_that_leaves_the_alley_out_of_reach_is_flagged_on_its_button():
    """Lap 2, coin due, entrance free: the outer lane beyond the east curve is walled off from the alley's
    access space; its button says what that means."""
    state = race(2, c0=dict(where=space("A", "east", 7, 2), hand=[1, 2, 3], crossings=2),
                 c1=dict(where=space("A", "top", 0, 0)))
    view = E.view(state, 0)
    by_to = {a["to"]: P.describe(view, a, i) for i, a in enumerate(view["legal"]) if a["card"] == 1}
    trap = by_to[space("A", "bottom", 0, 2)]
    assert "passes the alley unpaid: excluded" in trap.label and trap.style == "danger"
    assert "passes the alley" not in by_to[space("A", "bottom", 0, 1)].label


def test_the_leader_prompt_does_not_say_no_6_when_an_exception_allows_one():
    bottleneck = space("A", "bottom", 6, 1)
    state = race(2, c0=dict(where=bottleneck, hand=[6, 6, 6]), c1=dict(where=space("A", "bottom", 0, 0)))
    view = E.view(state, 0)
    assert view["chariots"][0]["leader"] and any(a["card"] == 6 for a in view["legal"])
    prompt = P.prompt(view)
    assert "no 6" not in prompt and "a 6 may be played here" in prompt
    state = race(2, c0=dict(where=space("A", "bottom", 5, 0), hand=[6, 2, 3]),
                 c1=dict(where=space("A", "bottom", 0, 0)))
    assert "no 6" in P.prompt(E.view(state, 0))


def test_n_to_go_and_n_to_the_finish_count_the_same_way():
    """The prompt's "N to go" includes the alley stop while it is due; so does every button's "N to the
    finish": a card of k along the shortest way leaves N - k."""
    state = race(2, c0=dict(where=space("A", "top", 3, 0), hand=[1, 2, 3], crossings=1),
                 c1=dict(where=space("A", "bottom", 0, 0)))
    view = E.view(state, 0)
    to_go = view["chariots"][0]["to_go"]
    assert f"{to_go} to go" in P.prompt(view)
    for i, a in enumerate(view["legal"]):
        if E.track(state).spaces[a["to"]]["lane"] == 0:  # straight on along the inner lane
            assert P.describe(view, a, i).description.endswith(f"with {to_go - a['card']} to the finish")
    # once paid, neither counts the alley any more
    state = race(2, c0=dict(where=space("A", "top", 3, 0), hand=[1, 2, 3], crossings=1, paid=True),
                 c1=dict(where=space("A", "bottom", 0, 0)))
    view = E.view(state, 0)
    assert view["chariots"][0]["to_go"] == to_go - E.track(state).detour
    a = next(a for a in view["legal"] if a["card"] == 1 and E.track(state).spaces[a["to"]]["lane"] == 0)
    assert P.describe(view, a, 0).description.endswith(f"with {to_go - E.track(state).detour - 1} to the finish")


def test_the_championship_option_defaults_to_four_races():
    races = next(o for o in P.options if o.name == "races")
    assert (races.default, races.min_value, races.max_value) == (4, 1, 4)
