"""Names with emoji or in other scripts drawn from kept stamps the second time (issue 29): the very pixels Pillow
draws, wherever the text lands (sub-pixel positions, anchors, colours)."""

from __future__ import annotations

import pytest

from render import kit


@pytest.mark.parametrize("s", ["Cili 🐙", "مريم 🙂 Ann", "李雷 and Dóra", "👩‍👩‍👧 family"])
@pytest.mark.parametrize("xy, anchor", [((10, 20), "la"), ((130.5, 40.25), "mm"), ((299.75, 33.5), "rm")])
def test_a_name_drawn_again_gives_the_same_pixels(s, xy, anchor):
    kit._SEEN.clear()
    pictures = []
    for _ in range(3):
        img, draw = kit.canvas(320, 80, "panel")
        kit.text(draw, xy, s, size=23, fill="blue", bold=True, anchor=anchor)
        pictures.append(img.tobytes())
    emoji, runs = kit._emoji_stamp.cache_info().hits, kit._run_glyphs.cache_info().hits
    img, draw = kit.canvas(320, 80, "panel")
    kit.text(draw, xy, s, size=23, fill="blue", bold=True, anchor=anchor)
    assert kit._emoji_stamp.cache_info().hits + kit._run_glyphs.cache_info().hits > emoji + runs  # from stamps
    pictures.append(img.tobytes())
    assert len(set(pictures)) == 1
    assert pictures[0] != kit.canvas(320, 80, "panel")[0].tobytes()  # something was drawn


def test_a_text_off_the_picture_is_drawn_as_pillow_draws_it():
    kit._SEEN.clear()
    drawn = []
    for _ in range(2):
        img, draw = kit.canvas(200, 40, "paper")
        kit.text(draw, (-6.5, 20), "🐙 Cili", size=20, anchor="lm")
        drawn.append(img.tobytes())
    assert drawn[0] == drawn[1]
