"""The clock strip on every game's board picture (render/kit.py ``clock_strip``): the time left of the seats to
act, in words the host worked out in the game's language, readable on a phone, and absent without a clock."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engines import ENGINES
from render import RENDERERS, kit
from tests.render.phone import floor, texts_at_phone_width, too_small
from tests.render.snapshot import assert_snapshot

NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
CLOCK = {
    "en": [{"text": "Ann: 11 h 20 min left", "urgent": False}, {"text": "Bob: 42 min left", "urgent": True}],
    "hu": [{"text": "Ann hátralévő ideje: 11 óra 20 perc", "urgent": False},
           {"text": "Bob hátralévő ideje: 42 perc", "urgent": True}],
    "pl": [{"text": "Ann – pozostały czas: 11 godz. 20 min", "urgent": False},
           {"text": "Bob: nieobecność, zegar stoi", "urgent": False}],
}


def _view(key: str, players: int | None = None, lang: str = "en") -> dict:
    engine = ENGINES[key]
    n, options = engine.conformance_configs()[0] if players is None else (players, {})
    state = engine.new_game(n, 3, options)
    return {**engine.view(state, None), "player_names": NAMES[:n], "lang": lang}


@pytest.mark.parametrize("key", list(ENGINES))
def test_every_board_shows_the_clock_strip_snapshot(key):
    view = _view(key)
    plain = RENDERERS[key].render_public(view)
    timed = RENDERERS[key].render_public({**view, "clock": CLOCK["en"]})
    assert_snapshot(f"clock-{key}", timed)
    before, after = Image.open(io.BytesIO(plain)), Image.open(io.BytesIO(timed))
    assert after.width == before.width and after.height > before.height, "a strip on top of the same board"
    texts, _ = texts_at_phone_width(RENDERERS[key].render_public, {**view, "clock": CLOCK["en"]})
    drawn = [s for s, _ in texts]
    assert "Ann: 11 h 20 min left" in drawn and "Bob: 42 min left" in drawn


@pytest.mark.parametrize("key", list(ENGINES))
def test_without_a_clock_the_board_is_unchanged(key):
    view = _view(key)
    assert RENDERERS[key].render_public({**view, "clock": []}) == RENDERERS[key].render_public(view)


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
@pytest.mark.parametrize("key", list(ENGINES))
def test_the_strip_reads_on_a_phone(key, lang):
    view = {**_view(key, lang=lang), "clock": CLOCK[lang]}
    assert too_small(RENDERERS[key].render_public, view, minimum=floor(key)) == []


def test_a_six_seat_strip_wraps_and_still_reads_on_a_phone():
    """HEX-TRI with six players, all to act at once (a battle-loss choice): several lines, none cut."""
    view = {**_view("hextri", 6), "clock": [{"text": f"{n}: 3 h 5 min left", "urgent": n == "Flo"}
                                            for n in NAMES]}
    assert too_small(RENDERERS["hextri"].render_public, view, minimum=floor("hextri")) == []
    texts, _ = texts_at_phone_width(RENDERERS["hextri"].render_public, view)
    assert {f"{n}: 3 h 5 min left" for n in NAMES} <= {s for s, _ in texts}


def test_a_very_long_entry_is_fitted_not_dropped():
    img = Image.new("RGB", (420, 100), (255, 255, 255))
    long = "Bartholomew the Magnificent, Keeper of Hexagons and Lord of the Triangles: 2 days 23 h left"
    out = kit.clock_strip(img, {"clock": [{"text": long}]})
    assert out.width == 420 and out.height > 100
    texts, _ = texts_at_phone_width(lambda: kit.encode(kit.clock_strip(img, {"clock": [{"text": long}]})))
    assert len(texts) == 1 and texts[0][0].startswith("Bartholomew") and texts[0][1] >= 9


@pytest.mark.parametrize("key", sorted(RENDERERS))
def test_a_kept_strip_shows_the_clock_as_it_is_now(key):
    """The strip is kept between pictures (the same words come back move after move): the same clock gives the
    very same board, and any change of a clock's words or urgency shows in the next one."""
    view = _view(key)
    first = RENDERERS[key].render_public({**view, "clock": CLOCK["en"]})
    assert RENDERERS[key].render_public({**view, "clock": CLOCK["en"]}) == first
    later = [{"text": "Ann: 11 h 19 min left", "urgent": False}, CLOCK["en"][1]]
    calmer = [CLOCK["en"][0], {**CLOCK["en"][1], "urgent": False}]
    seen = {first}
    for clock in (later, calmer):
        drawn = RENDERERS[key].render_public({**view, "clock": clock})
        assert drawn not in seen
        seen.add(drawn)
    assert RENDERERS[key].render_public({**view, "clock": CLOCK["en"]}) == first  # (the kept strip unchanged)
