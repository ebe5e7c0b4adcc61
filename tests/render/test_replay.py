"""Replay pictures: narration under the board, markdown and emoji left out, and a GIF under the size limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines import ENGINES
from host import replays
from render import RENDERERS
from render import replay as pictures


def _board() -> bytes:
    engine = ENGINES["troja"]
    view = {**engine.view(engine.new_game(2, 3, {}), None), "player_names": ["Ann", "Bob"], "lang": "en"}
    return RENDERERS["troja"].render_public(view)


def test_plain_drops_markdown_mentions_and_emoji_but_keeps_every_language():
    assert pictures.plain("**Ann** <@123> wins 🏆 — ő łódź") == "Ann wins — ő łódź"


def test_a_frame_puts_the_narration_under_the_board_and_keeps_the_last_lines():
    board = Image.open(io.BytesIO(_board()))
    short = pictures.frame(_board(), "Step 1/9", ["one line"])
    long = pictures.frame(_board(), "Step 1/9", [f"line {i}" for i in range(20)], note="Shortened")
    assert short.width >= min(board.width, pictures.MAX_WIDTH) and short.height > board.height
    assert long.height > short.height
    assert long.height - short.height < 12 * (pictures.TEXT_SIZE + 6)  # 20 lines are cut to MAX_LINES


def test_a_long_game_is_sampled_to_fit_the_limit_and_its_first_frame_says_so():
    engine = ENGINES["hextri"]
    state = engine.new_game(2, 1, {})
    import ai
    from engines.rng import Rng
    rng, actions = Rng(1), []
    while engine.result(state) is None:
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        actions.append({"seat": seat, "action": action, "events": engine.apply(state, seat, action)})
    record = replays.Record("hextri", 1, 2, {}, engine.rules_version, actions, ["Ann", "Bob"], "en",
                            result=engine.result(state))
    limit = 600 * 1024
    animation = replays.animate(record, max_bytes=limit, most=60)
    assert len(animation.data) <= limit
    assert animation.sampled and animation.shown < len(actions) + 1
    gif = Image.open(io.BytesIO(animation.data))
    assert gif.format == "GIF" and gif.n_frames == animation.shown
    full = replays.animate(record, max_bytes=50 * 1024 * 1024, most=1000)
    assert not full.sampled and Image.open(io.BytesIO(full.data)).n_frames == len(actions) + 1


def _random_record(key: str, num: int, seed: int) -> replays.Record:
    import ai
    from engines.rng import Rng
    engine = ENGINES[key]
    state = engine.new_game(num, seed, {})
    rng, actions = Rng(seed), []
    while engine.result(state) is None:
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        actions.append({"seat": seat, "action": action, "events": engine.apply(state, seat, action)})
    return replays.Record(key, seed, num, {}, engine.rules_version, actions, [f"P{i}" for i in range(num)], "en",
                          result=engine.result(state))


@pytest.mark.parametrize("key, num", [("ave-caesar", 6), ("hextri", 4)])
def test_a_long_game_fits_the_attachment_limit_and_its_first_frame_says_it_is_shortened(monkeypatch, key, num):
    record = _random_record(key, num, 3)
    if key == "ave-caesar":  # a championship of four races, six players
        assert len([e for a in record.actions for e in a["events"] if e["type"] == "race_over"]) == 4
        assert len(record.actions) > 400
    else:  # four players on HEX-TRI's big board: 120 frames would pass the limit, so it samples fewer
        assert len(record.actions) > 200
    drawn: list[tuple[str, str | None]] = []
    real = pictures.frame

    def spy(board, header, lines, note=None):
        drawn.append((header, note))
        return real(board, header, lines, note)
    monkeypatch.setattr(pictures, "frame", spy)
    animation = replays.animate(record)
    assert len(animation.data) <= replays.MAX_BYTES < 8 * 1024 * 1024
    assert animation.sampled and animation.shown <= replays.MAX_FRAMES
    assert Image.open(io.BytesIO(animation.data)).n_frames == animation.shown
    final = drawn[-animation.shown:]  # the frames of the attempt that fitted
    assert final[0] == (f"Step 0/{len(record.actions)}",
                        f"Shortened: {animation.shown} of the {len(record.actions) + 1} steps are shown.")
    assert all(note is None for _, note in final[1:])
    assert final[-1][0] == f"Step {len(record.actions)}/{len(record.actions)}"  # it still ends on the end
    if key == "hextri":
        assert animation.shown < replays.MAX_FRAMES and len(drawn) > animation.shown  # shortened again by size
