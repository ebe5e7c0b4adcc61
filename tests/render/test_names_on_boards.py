"""Every board names the player to act by name, with the seat's mark (letter or side) beside it, not by the
seat letter alone (issue 25, item 5)."""

from __future__ import annotations

import pytest

from engines import ENGINES
from render import RENDERERS
from tests.render.phone import texts_at_phone_width

#: the mark each game puts beside the first seat's name
MARK = {"hextri": "Ann (A)", "kivalasztottak": "Ann (A)", "hector-achilles": "Ann (Achaeans)", "troja": "Ann"}


def _first_turn_of_ann(key: str) -> dict:
    """A public view of a fresh two-player game, played on (first legal actions) until Ann (seat 0) acts."""
    engine = ENGINES[key]
    state = engine.new_game(2, 7, {"races": 1} if key == "ave-caesar" else None)
    for _ in range(200):
        acting = engine.to_act(state)
        if acting == [0]:
            break
        seat = acting[0]
        engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    assert engine.to_act(state) == [0]
    return {**engine.view(state, None), "player_names": ["Ann", "Bob"]}


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_the_board_names_who_is_to_act(key):
    view = _first_turn_of_ann(key)
    drawn = [t for t, _ in texts_at_phone_width(RENDERERS[key].render_public, view)[0]]
    if key == "ave-caesar":
        assert "Ann to move:" in drawn, drawn  # the chariot's badge (A1...) stands beside it
    else:
        assert any(MARK[key] in t for t in drawn), drawn
    # Bob is on the board too, by name
    assert any("Bob" in t for t in drawn), drawn


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_without_names_the_seat_mark_alone_is_drawn(key):
    """Views made outside the host (tools, snapshots) carry no names: the board still says whose turn it is."""
    view = {k: v for k, v in _first_turn_of_ann(key).items() if k != "player_names"}
    drawn = " ".join(t for t, _ in texts_at_phone_width(RENDERERS[key].render_public, view)[0])
    assert "Ann" not in drawn and "None" not in drawn
