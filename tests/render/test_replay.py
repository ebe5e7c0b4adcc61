"""Replay pictures: narration under the board (markdown left out, emoji kept), frames of one size in the game's
own colours, one picture per chapter for a long game, a pause on the last frame, and a GIF under 3 MB."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageSequence

from engines import ENGINES
from host import replays
from render import RENDERERS, kit
from render import replay as pictures


def _board() -> bytes:
    engine = ENGINES["troja"]
    view = {**engine.view(engine.new_game(2, 3, {}), None), "player_names": ["Ann", "Bob"], "lang": "en"}
    return RENDERERS["troja"].render_public(view)


def test_plain_drops_markdown_mentions_and_custom_emoji_but_keeps_emoji_and_every_language():
    assert pictures.plain("**Ann** <@123> wins 🏆 <:crown:1234> — ő łódź 王") == "Ann wins 🏆 — ő łódź 王"


def test_narration_keeps_whole_sentences_and_says_how_many_gave_way():
    lines = [f"Sentence number {i} is rather long and needs most of a line to be told on the picture." for i in
             range(9)]
    shown = pictures.told(lines, 456, room=6, earlier="… {count} earlier lines")
    assert len(shown) <= 6 and shown[0].startswith("… ") and "earlier lines" in shown[0]
    count = int(shown[0].split()[1])
    # the kept sentences are the last ones, each whole (its first wrapped line starts the sentence)
    assert f"Sentence number {9 - 1}" in " ".join(shown) and count + sum(
        1 for ln in shown if ln.startswith("Sentence number")) == 9


def test_a_frame_puts_the_narration_under_the_board_and_keeps_the_last_lines():
    board = Image.open(io.BytesIO(_board()))
    short = pictures.frame(_board(), "Step 1/9", ["one line"])
    long = pictures.frame(_board(), "Step 1/9", [f"line {i}" for i in range(20)], note="Shortened")
    assert short.width >= min(board.width, pictures.MAX_WIDTH) and short.height > board.height
    assert long.height > short.height
    assert long.height - short.height < 12 * (pictures.TEXT_SIZE + 6)  # 20 lines are cut to MAX_LINES


def test_a_long_game_is_told_in_fewer_pictures_under_the_limit_and_a_short_one_step_by_step():
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
def test_a_long_game_fits_3_mb_in_one_picture_per_chapter_and_says_every_step_is_in_game_steps(monkeypatch, key,
                                                                                               num):
    record = _random_record(key, num, 3)
    if key == "ave-caesar":  # a championship of four races, six players
        assert len([e for a in record.actions for e in a["events"] if e["type"] == "race_over"]) == 4
        assert len(record.actions) > 400
    else:  # four players on HEX-TRI's big board
        assert len(record.actions) > 200
    drawn: list[tuple[str, str | None]] = []
    real = pictures.frame

    def spy(board, header, lines, note=None, **kw):
        drawn.append((header, note))
        return real(board, header, lines, note, **kw)
    monkeypatch.setattr(pictures, "frame", spy)
    animation = replays.animate(record)
    total = len(record.actions)
    assert len(animation.data) <= replays.MAX_BYTES == 3 * 1024 * 1024
    assert animation.sampled and animation.shown <= replays.MAX_FRAMES
    gif = Image.open(io.BytesIO(animation.data))
    assert gif.n_frames == animation.shown
    final = drawn[-animation.shown:]  # the frames of the attempt that fitted
    assert final[0][0] == f"Step 0 of {total}"
    assert final[0][1].startswith(f"{animation.shown} pictures for {total} moves") and "/game steps" in final[0][1]
    assert all(note is None for _, note in final[1:])
    # each later picture names its chapter and the moves it covers; together they cover every move once
    spans = [header.rsplit("moves ", 1)[1] for header, _ in final[1:]]
    covered = []
    for span in spans:
        first, last = span.split(" of ")[0].split("–")
        covered += list(range(int(first), int(last) + 1))
    assert covered == list(range(1, total + 1))
    chapter = {"ave-caesar": "Race ", "hextri": "Round "}[key]
    assert all(header.startswith(chapter) for header, _ in final[1:])


def _durations(data: bytes) -> list[int]:
    return [f.info["duration"] for f in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]


def test_every_frame_has_one_size_the_game_s_colours_and_the_last_one_stays():
    record = _random_record("hextri", 2, 4)
    animation = replays.animate(record, max_bytes=50 * 1024 * 1024, most=1000)
    gif = Image.open(io.BytesIO(animation.data))
    sizes = {f.size for f in ImageSequence.Iterator(gif)}
    assert len(sizes) == 1
    # the board is shown in its own colours: the frame's palette is the board's, and the board's pixels are there
    built = replays.frames(record)
    board = RENDERERS["hextri"].render_public({**built[-1].view, "player_names": record.names, "lang": "en"})
    board_img = Image.open(io.BytesIO(board))
    gif.seek(0)
    assert gif.getpalette()[:48] == board_img.getpalette()[:48]
    gif.seek(gif.n_frames - 1)
    last = gif.convert("RGB")
    board_rgb = board_img.convert("RGB")
    top = pictures.MARGIN + pictures.HEADER_SIZE + 6
    x = (last.width - board_rgb.width) // 2
    crop = last.crop((x, top, x + board_rgb.width, top + board_rgb.height))
    assert crop.tobytes() == board_rgb.tobytes(), "the board is drawn exactly, not re-quantised"
    durations = _durations(animation.data)
    assert durations[-1] == replays.LAST_MS >= 4 * replays.STEP_MS and durations[0] == replays.FIRST_MS


def test_a_smaller_board_sits_on_its_own_edge_colour_not_on_blank_paper():
    small = kit.encode(kit.canvas(500, 300, "table")[0])
    tall = kit.encode(kit.canvas(500, 700, "table")[0])
    size = pictures.board_area([small, tall])
    img = pictures.frame(small, "Step 1 of 2", ["a line"], lines_room=2, board_size=size).convert("RGB")
    assert img.size == pictures.frame(tall, "Step 2 of 2", ["a line"], lines_room=2, board_size=size).size
    top = pictures.MARGIN + pictures.HEADER_SIZE + 6
    column = [img.getpixel((250, y)) for y in range(top, top + 700)]
    assert set(column) == {kit.rgb("table")}
