"""Ave Caesar pictures: golden snapshots of fixed views plus size, privacy and robustness checks."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines.ave_caesar import ENGINE as E
from engines.ave_caesar.track import get_track
from engines.rng import Rng
from render import RENDERERS
from render import ave_caesar as R
from tests.engines.test_ave_caesar_support import finish_race, race, space
from tests.render.phone import PHONE_WIDTH, texts_at_phone_width, too_small
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
    assert _size(png)[0] == 480 and len(png) < 150_000
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
    # the host asks first, and sends no view to a worker for a move without standings
    assert not R.wants_extras([]) and not R.wants_extras([{"type": "moved"}, {"type": "finished"}])
    events = finish_race(state)
    assert R.wants_extras(events)
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


# ---------------------------------------------------------------- pictures that read on a phone
NAMES = ["Ann", "Maximilian Aurelius Longname", "Bob"]


def _busiest_public() -> dict:
    """Six chariots of two players mid-race in a championship (every table column filled, a long name)."""
    state = _played(2, {"races": 4}, 40)
    return {**E.view(state, None), "player_names": NAMES[:2]}


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_the_busiest_public_track_reads_at_phone_width(lang):
    view = {**_busiest_public(), "lang": lang}
    assert too_small(R.render_public, view) == []
    texts, (width, _) = texts_at_phone_width(R.render_public, view)
    assert width <= 480  # a narrow, tall picture: scaled at most 420/480 in Discord's column
    drawn = {t for t, _ in texts}
    assert {"A1", "B3", "III", "VI"} <= drawn  # chariot labels and start numerals are drawn as text


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_the_private_picture_with_numbered_destinations_reads_at_phone_width(lang):
    state = _played(2, {"races": 4}, 40)
    seat = E.to_act(state)[0]
    view = {**E.view(state, seat), "player_names": NAMES[:2], "lang": lang}
    assert view["choices"]
    assert too_small(R.render_private, view) == []
    drawn = {t for t, _ in texts_at_phone_width(R.render_private, view)[0]}
    assert {str(ch["n"]) for ch in view["choices"]} <= drawn
    # the alley position, with its notes under the cards
    assert too_small(R.render_private, {**E.view(_alley_position(), 0), "lang": lang}) == []


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
def test_the_standings_picture_reads_at_phone_width_and_names_are_not_cut_mid_word(lang):
    state = E.new_game(3, 5, {"races": 4, "chariots_per_player": 2})
    finish_race(state)
    finish_race(state)
    view = {**E.view(state, None), "player_names": ["Ann", "Bob", "Maximilian Aurelius Longname Extraordinaire"],
            "lang": lang}
    assert too_small(R.render_standings, view) == []
    drawn = [t for t, _ in texts_at_phone_width(R.render_standings, view)[0]]
    # the header's "<name> to move:" shortens the name alone, at a word too
    suffixes = (" to move:", " lép:", ", ruch:")
    drawn = [next((t[:-len(x)] for x in suffixes if t.endswith(x)), t) for t in drawn]
    long = [t for t in drawn if t.startswith("Maximilian")]
    assert long and all(t.rstrip("…") in view["player_names"][2] and
                        (t == view["player_names"][2] or view["player_names"][2][len(t.rstrip("…"))] == " ")
                        for t in long), long
    full = view["player_names"][2]
    public = texts_at_phone_width(R.render_public, {**E.view(state, None), "player_names": view["player_names"]})
    shown = [t.removesuffix(" to move:") for t, _ in public[0] if t.startswith("Maximilian")]
    assert shown and all(t == full or full.startswith(t.rstrip("…") + " ") for t in shown), shown


def test_chariots_on_the_grid_leave_the_start_numerals_readable():
    """Version 1 drew III under the chariot's disc so that it read as II; each numeral now sits clear of the
    disc of a chariot standing on its space."""
    from render import kit
    for name in ("A", "B"):
        for direction in ("cw", "ccw"):
            centres = R._centres(name)
            start = get_track(name, direction).start
            for (numeral, (x, y), anchor), sid in zip(R.numeral_spots(name, direction), start):
                x0, y0, x1, y1 = kit.font(R.NUMERAL_SIZE, True).getbbox(numeral, anchor=anchor)
                cx, cy = centres[sid]
                reach = 17 + 1  # the disc and its outline
                nearest_y = min(abs(y + y0 - cy), abs(y + y1 - cy))
                assert not (y + y0 <= cy <= y + y1) and nearest_y >= reach, (name, direction, numeral)
                assert x + x0 >= cx - 20 and x + x1 <= cx + 20  # inside its own lane


def test_a_move_that_leaves_the_alley_out_of_reach_is_marked_on_the_picture():
    state = race(2, c0=dict(where=space("A", "east", 7, 2), hand=[1, 2, 3], crossings=2),
                 c1=dict(where=space("A", "top", 0, 0)))
    view = E.view(state, 0)
    trap = next(ch for ch in view["choices"] if ch["to"] == space("A", "bottom", 0, 2))
    assert trap["misses_alley"]
    drawn = [t for t, _ in texts_at_phone_width(R.render_private, view)[0]]
    assert "!" in drawn and "red with !: passes the alley unpaid: excluded" in drawn
    png = Image.open(io.BytesIO(R.render_private(view))).convert("RGB")
    x, y = R._centres("A")[trap["to"]]
    assert png.getpixel((int(x + 24), int(y + R.HEADER - 17))) == kit_rgb("danger")  # the red "!" disc
    assert too_small(R.render_private, view) == []


def kit_rgb(name):
    from render import kit
    return kit.rgb(name)


def test_a_game_of_rules_version_1_is_drawn_on_its_own_track():
    import json
    from pathlib import Path
    saved = json.loads((Path(__file__).resolve().parents[1] / "engines" / "data" / "ave_caesar_v1_state.json")
                       .read_text())
    state = E.from_json(saved)
    view = E.view(state, None)
    assert view["track_version"] == 1
    old = R.render_public(view)
    assert old != R.render_public({**view, "track_version": 2}) and _size(old)[0] == 480
    assert PHONE_WIDTH == 420


@pytest.mark.parametrize("lang, words", [
    ("en", "* The leader may play a 6 only by an exception (see /rules)."),
    ("hu", "* A vezető csak kivételes esetben játszhat ki 6-ost (lásd /rules)."),
    ("pl", "* Prowadzący może zagrać 6 tylko w wyjątkowej sytuacji (zob. /rules).")])
def test_the_public_table_does_not_say_no_6_for_the_leader(lang, words):
    """Whether a 6-exception lets the leader play a 6 depends on his hidden hand: the public table must not
    say "no 6" (it would be false whenever an exception applies)."""
    view = {**_busiest_public(), "lang": lang}
    assert any(ch["leader"] for ch in view["chariots"]) and not view.get("first_move")
    drawn = [t for t, _ in texts_at_phone_width(R.render_public, view)[0]]
    assert words in drawn and {"leads*", "vezet*", "prowadzi*"} & set(drawn)
    assert not any(t in ("leads: no 6", "vezet: nincs 6-os", "prowadzi: bez 6") for t in drawn)


def test_a_voters_picture_numbers_the_neutral_chariots_spaces_and_reads_on_a_phone():
    """Option neutral_vote (issue 26): a voter's picture shows the turned card and the numbered spaces."""
    from engines import ENGINES
    from render import ave_caesar as R
    from tests.engines.test_ave_caesar_vote import first_vote
    from tests.render.phone import texts_at_phone_width, too_small
    st = first_vote()
    for lang in ("en", "hu", "pl"):
        view = ENGINES["ave-caesar"].view(st, 1)
        view["lang"] = lang
        assert too_small(R.render_private, view) == []
        texts, _ = texts_at_phone_width(R.render_private, view)
        drawn = [t for t, _ in texts]
        assert {str(n) for n in range(1, len(st["race"]["vote"]["options"]) + 1)} <= set(drawn)
        if lang == "en":
            assert f"Vote: where does N1 go with its {st['race']['vote']['card']}?" in drawn


def _boards(players: int, seed: int, lang: str, names: list[str]) -> list[bytes]:
    rng, state, out = Rng(seed), E.new_game(players, seed, {"races": 3} if players == 3 else {}), []
    for _ in range(160):
        if not E.to_act(state):
            break
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        out.append(R.render_public({**E.view(state, None), "player_names": names, "lang": lang}))
    return out


def test_table_rows_kept_are_the_rows_drawn(monkeypatch):
    """The public table's rows are kept as bands of the palette picture and pasted when a row shows the same
    (issue 29): the very boards of drawing every row, through whole games in three languages, a long name among
    them, wherever the race order puts each row."""
    tables = [(2, 5, "en", ["Ann", "Bob"]), (3, 6, "hu", ["Zsófia Kovácsné Nagy-Szabó", "Bob", "Cili 🐙"]),
              (4, 7, "pl", ["Ann", "Bartholomew the Unbreakable", "Cy", "Di"])]
    R._ROWS.clear()
    drawn: list[int] = []
    shown: list[int] = []
    real, real_kept = R._draw_row, R._kept_row
    monkeypatch.setattr(R, "_draw_row", lambda *args: (drawn.append(1), real(*args))[1])
    monkeypatch.setattr(R, "_kept_row", lambda *args: (shown.append(1), real_kept(*args))[1])
    kept = [_boards(*table) for table in tables]
    rows = len(shown)
    assert R._ROWS and rows > 1000
    assert len(drawn) < rows / 2  # most rows came back as they were: a move changes one or two
    monkeypatch.setattr(R, "_kept_row", real)
    assert [_boards(*table) for table in tables] == kept
