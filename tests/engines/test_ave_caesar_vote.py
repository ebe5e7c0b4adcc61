"""Ave Caesar's neutral chariots moved by the players' vote (option ``neutral_vote``, issue 26). The book: a
neutral chariot moves in its own interest and against the opponents; "Ha nincs egyetértés, hogy miként
mozogjon, a játékosok többségének véleménye fog dönteni" - where the players disagree, the majority decides."""

from __future__ import annotations

import json

import pytest

from ai import ave_caesar as ai
from engines import IllegalAction
from engines.rng import Rng
from tests.engines.test_ave_caesar_support import E

OPTIONS = {"neutral_chariots": True, "neutral_vote": True}


def first_vote(num_players: int = 3, seeds=range(200)) -> dict:
    """A game that has reached a vote (the players' moves chosen at random until a neutral chariot turns a
    card that leaves more than one space)."""
    for seed in seeds:
        st = E.new_game(num_players, seed, OPTIONS)
        rng = Rng(seed)
        for _ in range(400):
            if st["race"].get("vote") is not None or st["over"]:
                break
            seat = E.to_act(st)[0]
            E.apply(st, seat, rng.choice(E.legal_actions(st, seat)))
        if st["race"].get("vote") is not None:
            return st
    raise AssertionError("no vote came up")


def test_the_option_needs_neutral_chariots_and_games_without_it_keep_their_options():
    with pytest.raises(ValueError, match="needs neutral_chariots"):
        E.new_game(2, 1, {"neutral_vote": True})
    with pytest.raises(ValueError, match="true or false"):
        E.new_game(2, 1, {"neutral_chariots": True, "neutral_vote": "yes"})
    assert "neutral_vote" not in E.new_game(2, 1, {"neutral_chariots": True})["options"]


def test_every_player_votes_at_once_and_the_majority_moves_the_neutral_chariot():
    st = first_vote()
    vote = st["race"]["vote"]
    c, options = vote["chariot"], vote["options"]
    assert st["chariots"][c]["owner"] is None and len(options) > 1
    assert E.to_act(st) == [0, 1, 2], "a simultaneous decision: to_act lists every voter"
    assert E.legal_actions(st, 1) == [{"type": "vote", "to": to} for to in options]
    view = E.view(st, 1)
    assert view["vote"]["card"] == vote["card"] and [ch["n"] for ch in view["choices"]] == \
        list(range(1, len(options) + 1))
    # two players want the second space, one the first (the fixed rule's choice): the majority wins
    assert E.apply(st, 0, {"type": "vote", "to": options[1]})[0]["type"] == "voted"
    assert E.to_act(st) == [1, 2] and E.view(st, 2)["vote"]["voted"] == [0]
    with pytest.raises(IllegalAction, match="voted already"):
        E.apply(st, 0, {"type": "vote", "to": options[0]})
    E.apply(st, 1, {"type": "vote", "to": options[0]})
    events = E.apply(st, 2, {"type": "vote", "to": options[1]})
    result = next(e for e in events if e["type"] == "vote_result")
    assert result["to"] == options[1] and result["votes"] == [options[1], options[0], options[1]]
    assert not result["tie"]
    moved = next(e for e in events if e["type"] == "moved" and e["chariot"] == c)
    assert moved["to"] == options[1] and moved["card"] == vote["card"]
    assert st["race"].get("vote") is not vote, "this vote is over (the next neutral chariot may bring another)"


def test_a_tie_goes_to_the_fixed_rules_choice():
    st = first_vote(num_players=2)
    options = st["race"]["vote"]["options"]
    policy = options[0]
    E.apply(st, 0, {"type": "vote", "to": options[1]})
    events = E.apply(st, 1, {"type": "vote", "to": policy})
    result = next(e for e in events if e["type"] == "vote_result")
    assert result["tie"] and result["to"] == policy


def test_a_vote_survives_a_save_and_illegal_votes_change_nothing():
    st = first_vote()
    E.apply(st, 2, {"type": "vote", "to": st["race"]["vote"]["options"][0]})
    saved = json.loads(json.dumps(E.to_json(st)))
    again = E.from_json(saved)
    assert E.to_act(again) == [0, 1]
    for bad in ({"type": "vote", "to": "nowhere"}, {"type": "move", "chariot": 0, "card": 1, "to": "x"}):
        with pytest.raises(IllegalAction):
            E.apply(again, 0, bad)
    assert E.to_json(again) == saved


def test_the_ai_votes_to_block_a_rival_and_games_with_votes_end():
    st = first_vote()
    for seat in E.to_act(st):
        choice = ai.choose(E, st, seat, Rng(1))
        assert choice in E.legal_actions(st, seat)
    # whole games with votes, AI in every seat, come to their end
    for seed in range(3):
        st = E.new_game(3, seed, {**OPTIONS, "races": 1})
        votes = 0
        for _ in range(2000):
            if st["over"]:
                break
            votes += st["race"].get("vote") is not None
            seat = E.to_act(st)[0]
            E.apply(st, seat, ai.choose(E, st, seat, Rng(seed)))
        assert st["over"] and E.result(st) is not None
        assert votes > 0


def test_a_clock_that_runs_out_votes_for_the_fixed_rule_which_moves_as_without_the_vote():
    """The short clock of a simultaneous decision plays each silent voter's default (host/clock.py): the first
    option, the fixed rule's choice - the same space the chariot takes in a game without the vote."""
    from host.clock import default_action
    for seed in range(60):
        voting, plain = E.new_game(3, seed, OPTIONS), E.new_game(3, seed, {"neutral_chariots": True})
        rng = Rng(seed)
        for _ in range(400):
            seat = E.to_act(voting)[0]
            action = rng.choice(E.legal_actions(voting, seat))
            E.apply(voting, seat, action)
            plain_events = E.apply(plain, seat, action)
            if voting["race"].get("vote") is not None:
                break
        vote = voting["race"].get("vote")
        if vote is None:
            continue
        expected = next(e["to"] for e in plain_events if e["type"] == "moved" and e["chariot"] == vote["chariot"])
        events = []
        for seat in list(E.to_act(voting)):
            events += E.apply(voting, seat, default_action(E.legal_actions(voting, seat)))
        moved = next(e for e in events if e["type"] == "moved" and e["chariot"] == vote["chariot"])
        assert moved["to"] == expected == vote["options"][0]
        return
    raise AssertionError("no vote came up")
