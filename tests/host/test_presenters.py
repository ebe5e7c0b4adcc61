"""Presenters: every action of a real game gets a label, every event a sentence, nothing is left raw."""

import pytest

from ai import random_player
from ai.arena import play
from engines import ENGINES
from host.presenters import PRESENTERS


@pytest.mark.parametrize("key", [k for k in ENGINES if k in PRESENTERS])
def test_every_action_and_event_of_random_games_has_words(key):
    engine = ENGINES[key]
    presenter = PRESENTERS[key]
    names = [f"Player {i}" for i in range(engine.max_players)]
    for seed in range(3):
        state = engine.new_game(engine.min_players, seed, {})
        from engines.rng import Rng
        rng = Rng(seed)
        while engine.to_act(state):
            seat = engine.to_act(state)[0]
            view = engine.view(state, seat)
            legal = engine.legal_actions(state, seat)
            for i, action in enumerate(legal):
                choice = presenter.describe(view, action, i)
                assert choice.label and "{" not in choice.label and choice.label != action["type"]
                assert 1 <= len(choice.label) <= 80, choice.label
            assert presenter.prompt(view) and "{" not in presenter.prompt(view)
            events = engine.apply(state, seat, rng.choice(legal))
            for event in events:
                line = presenter.narrate(event, names)
                assert line is None or ("{" not in line and "None" not in line), line
        lines = presenter.result_lines(engine.result(state), names[:engine.min_players])
        assert lines and all("{" not in line for line in lines)


def test_hector_achilles_hides_hand_actions_from_public_boards():
    engine = ENGINES["hector-achilles"]
    presenter = PRESENTERS["hector-achilles"]
    _, result = play(engine, [random_player, random_player], seed=4)
    assert result is not None
    state = engine.new_game(2, 4, {})
    from engines.rng import Rng
    rng = Rng(2)
    kinds = {}
    while engine.to_act(state) and len(kinds) < 8:
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        for i, action in enumerate(engine.legal_actions(state, seat)):
            kinds[action["type"]] = presenter.describe(view, action, i).secret
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert kinds.get("play") is True and kinds.get("take_vanguard") is False
