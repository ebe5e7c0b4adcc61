"""Ave Caesar pictures: golden snapshots of fixed views plus size, privacy and robustness checks."""

from __future__ import annotations

import io

from PIL import Image

from engines.ave_caesar import ENGINE as E
from engines.rng import Rng
from render import RENDERERS
from render import ave_caesar as R
from tests.engines.test_ave_caesar_support import finish_race, race, space
from tests.render.snapshot import assert_snapshot


def _played(n: int, options: dict, steps: int, seed: int = 3) -> dict:
    state = E.new_game(n, seed, options)
    rng = Rng(seed)
    for _ in range(steps):
        if not E.to_act(state):
            break
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
    return state


def _played_on(state: dict, steps: int, seed: int) -> None:
    rng = Rng(seed)
    for _ in range(steps):
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def _alley_position() -> dict:
    """Chariot A at the alley mouth in lap 2 with the coin due: some moves stop in the alley, the 6 would pass."""
    return race(3, c0=dict(where=space("A", "bottom", 1, 0), hand=[2, 6, 6], crossings=2),
                c1=dict(where=space("A", "west", 2, 0), crossings=2, paid=True),
                c2=dict(where=space("A", "east", 3, 2), crossings=2, paid=False))


def test_registered():
    assert RENDERERS["ave-caesar"] is R


def test_start_of_a_two_player_race_snapshot():
    state = E.new_game(2, 3, {})
    assert_snapshot("ave-caesar-start", R.render_public(E.view(state, None)))


def test_midrace_public_snapshot():
    state = _played(2, {}, 40)
    png = R.render_public(E.view(state, None))
    assert _size(png)[0] == 1000 and len(png) < 150_000
    assert_snapshot("ave-caesar-midrace", png)


def test_turn_with_numbered_destinations_snapshot():
    state = _played(2, {}, 40)
    seat = E.to_act(state)[0]
    assert_snapshot("ave-caesar-turn", R.render_private(E.view(state, seat)))


def test_hands_of_a_seat_not_to_act_snapshot():
    state = _played(2, {}, 40)
    seat = 1 - E.to_act(state)[0]
    assert_snapshot("ave-caesar-hands", R.render_private(E.view(state, seat)))


def test_alley_choice_snapshot():
    state = _alley_position()
    view = E.view(state, 0)
    assert any(ch["enters_alley"] for ch in view["choices"]) and any(ch["misses_alley"] for ch in view["choices"])
    assert_snapshot("ave-caesar-alley", R.render_private(view))


def test_track_b_counter_clockwise_with_neutral_chariots_snapshot():
    state = E.new_game(4, 3, {"neutral_chariots": True, "track": "B", "races": 3})
    finish_race(state)
    finish_race(state)
    assert (state["race"]["no"], state["race"]["track"], state["race"]["direction"]) == (3, "B", "ccw")
    rng = Rng(4)
    for _ in range(5):
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
    assert_snapshot("ave-caesar-b-ccw-neutral", R.render_public(E.view(state, None)))


def test_finished_race_and_standings_snapshots():
    state = E.new_game(3, 5, {"races": 2, "chariots_per_player": 1})
    finish_race(state)
    _played_on(state, 12, seed=5)  # some real racing in race 2 ...
    finish_race(state)  # ... then everybody over the line
    assert E.result(state) is not None
    view = E.view(state, None)
    assert_snapshot("ave-caesar-over", R.render_public(view))
    assert_snapshot("ave-caesar-standings", R.render_standings(view))


def test_spectators_get_no_private_picture():
    state = _played(2, {}, 5)
    assert R.render_private(E.view(state, None)) is None


def test_every_picture_of_whole_games_renders():
    for n, options in [(6, {}), (2, {"neutral_chariots": True, "chariots_per_player": 2, "races": 2})]:
        state = E.new_game(n, 8, options)
        rng = Rng(8)
        step = 0
        while E.to_act(state):
            seat = E.to_act(state)[0]
            if step % 25 == 0:
                for png in (R.render_public(E.view(state, None)), R.render_private(E.view(state, seat)),
                            R.render_standings(E.view(state, seat))):
                    assert png[:4] == b"\x89PNG" and len(png) < 150_000
            E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
            step += 1
        assert R.render_public(E.view(state, None))[:4] == b"\x89PNG"


def test_players_are_named_in_the_table_and_the_standings_snapshots():
    """The host adds the display names: the table and the standings show them (long ones shortened)."""
    state = E.new_game(2, 5, {"races": 2})
    finish_race(state)
    _played_on(state, 9, seed=2)
    names = ["Ann", "Maximilian Aurelius Longname"]
    view = {**E.view(state, None), "player_names": names}
    public = R.render_public(view)
    assert public != R.render_public(E.view(state, None))  # without names: the seat letters
    assert_snapshot("ave-caesar-names", public)
    assert_snapshot("ave-caesar-standings-names", R.render_standings(view))


def test_extras_are_the_standings_when_a_race_ends():
    state = E.new_game(3, 5, {"races": 2, "chariots_per_player": 1})
    view = E.view(state, None)
    assert R.render_extras(view, []) == []
    assert R.render_extras(view, [{"type": "moved"}, {"type": "finished"}]) == []
    events = finish_race(state)
    view = {**E.view(state, None), "player_names": ["Ann", "Bob", "Cy"]}
    assert any(e["type"] == "race_over" for e in events)
    assert R.render_extras(view, events) == [R.render_standings(view)]


def test_hungarian_midrace_snapshot():
    """The host adds ``view["lang"]``: the circus, the header and the table speak Hungarian."""
    state = _played(2, {"races": 3}, 40)
    view = {**E.view(state, None), "lang": "hu", "player_names": ["Ann", "Maximilian Aurelius"]}
    assert_snapshot("ave-caesar-midrace-hu", R.render_public(view))


def test_polish_standings_snapshot():
    state = E.new_game(3, 5, {"races": 2, "chariots_per_player": 1})
    finish_race(state)
    _played_on(state, 12, seed=5)
    finish_race(state)
    assert_snapshot("ave-caesar-standings-pl", R.render_standings({**E.view(state, None), "lang": "pl"}))


def test_a_hungarian_picture_differs_from_the_english_one():
    state = _played(2, {}, 40)
    seat = E.to_act(state)[0]
    for view in (E.view(state, None), E.view(state, seat), E.view(state, 1 - seat)):
        pictures = {lang: (R.render_public(v), R.render_private(v), R.render_standings(v))
                    for lang, v in (("none", view), ("en", {**view, "lang": "en"}), ("hu", {**view, "lang": "hu"}))}
        assert pictures["en"] == pictures["none"]  # English without a language, and the cache keeps them apart
        for en, hu in zip(pictures["en"], pictures["hu"]):
            assert en is None and hu is None or en != hu
    assert R.render_public({**E.view(state, None), "lang": "pl"}) != pictures["en"][0]
