"""Replay pictures: narration under the board, markdown and emoji left out, and a GIF under the size limit."""

from __future__ import annotations

import io

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
