"""Every text a player needs reads on a phone: at Discord's 420 px chat column no text of any game's pictures
(the board and each seat's private picture) is under 12 px, in English, Hungarian and Polish, at every player
count and option set the game is played with, from the opening to the end of a game, with long names; and a
game's board keeps one size from move to move (the thread does not jump)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engines import ENGINES
from render import RENDERERS
from tests.render.phone import MIN_READABLE_PX, texts_at_phone_width

#: long names, and names in other scripts and with emoji, as Discord users have them
NAMES = ["Maximilian Schwarzenegger", "Wiśniewska-Kowalska 🐙", "Erzsébet Szabó-Kovács", "Dávid 😀",
         "王小明 Xiaoming", "أحمد محمد"]
LANGS = ["en", "hu", "pl"]
#: states looked at along one random game: the opening, some in between, the end
SAMPLES = 4


def _states(key: str, n: int, options: dict, seed: int = 11, limit: int = 600):
    """``(public views, private views)`` at a few points of one random game."""
    engine = ENGINES[key]
    rng = random.Random(seed)
    state = engine.new_game(n, seed, options)
    public, private = [], []
    steps = 0
    every = max(1, limit // SAMPLES)
    while engine.to_act(state) and steps < limit:
        if steps % every == 0:
            public.append(engine.view(state, None))
            seat = steps // every % n
            private.append(engine.view(state, seat))
        seat = rng.choice(engine.to_act(state))
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        steps += 1
    public.append(engine.view(state, None))
    private.append(engine.view(state, 0))
    return public, private


CASES = [(key, n, options) for key, engine in ENGINES.items() for n, options in engine.conformance_configs()]
IDS = [f"{k}-{n}-{i}" for i, (k, n, _) in enumerate(CASES)]


@pytest.mark.parametrize("key, n, options", CASES, ids=IDS)
def test_every_text_is_at_least_12_px_at_phone_width(key, n, options):
    renderer = RENDERERS[key]
    public, private = _states(key, n, options)
    small: set[tuple[str, str, float]] = set()
    for lang in LANGS:
        extra = {"player_names": NAMES[:n], "lang": lang}
        for view in public:
            texts, _ = texts_at_phone_width(renderer.render_public, {**view, **extra})
            small |= {(lang, s, round(px, 1)) for s, px in texts if px < MIN_READABLE_PX}
        for view in private:
            if renderer.render_private({**view, **extra}) is None:
                continue
            texts, _ = texts_at_phone_width(renderer.render_private, {**view, **extra})
            small |= {(lang, s, round(px, 1)) for s, px in texts if px < MIN_READABLE_PX}
    assert not small, sorted(small, key=lambda x: x[2])[:20]


@pytest.mark.parametrize("key, n, options", CASES, ids=IDS)
def test_the_board_keeps_one_size_through_a_game(key, n, options):
    renderer = RENDERERS[key]
    public, _ = _states(key, n, options)
    sizes = set()
    for lang in LANGS:
        for view in public:
            png = renderer.render_public({**view, "player_names": NAMES[:n], "lang": lang})
            sizes.add(Image.open(io.BytesIO(png)).size)
    assert len(sizes) == 1, f"the board changes size within a game: {sorted(sizes)}"


#: every HEX-TRI board (radius 2-5: 4 and 5 are opt-in) at every player count, beyond the conformance set above
HEXTRI_BOARDS = [(radius, n) for radius in (2, 3, 4, 5) for n in range(2, 7)]


@pytest.mark.parametrize("radius, n", HEXTRI_BOARDS, ids=[f"r{r}-{n}" for r, n in HEXTRI_BOARDS])
def test_every_hextri_board_reads_at_phone_width_at_every_player_count(radius, n):
    """The busiest point of a random game (its end) in each language, and one figure's destinations: no text
    under 12 px at 420 px wide; the picture keeps one size from the opening to the end."""
    renderer = RENDERERS["hextri"]
    engine = ENGINES["hextri"]
    public, _ = _states("hextri", n, {"radius": radius, "round_limit": 12}, seed=radius * 10 + n)
    assert engine.new_game(n, 1, {"radius": radius})["options"]["radius"] == radius
    small: set[tuple[str, str, float]] = set()
    sizes = set()
    for i, lang in enumerate(LANGS):
        view = {**public[max(0, len(public) - 1 - i)], "player_names": NAMES[:n], "lang": lang}
        texts, size = texts_at_phone_width(renderer.render_public, view)
        sizes.add(size)
        small |= {(lang, s, round(px, 1)) for s, px in texts if px < MIN_READABLE_PX}
    opening = public[0]
    seat = opening["to_act"][0]
    state = engine.new_game(n, radius * 10 + n, {"radius": radius, "round_limit": 12})
    own = engine.view(state, seat)
    origin = next(a["from"] for a in own["legal"] if a["type"] == "move")
    texts, size = texts_at_phone_width(renderer.render_moves, {**own, "lang": "pl", "player_names": NAMES[:n]},
                                       origin)
    small |= {("pl", s, round(px, 1)) for s, px in texts if px < MIN_READABLE_PX}
    sizes.add(size)
    assert not small, sorted(small, key=lambda x: x[2])[:20]
    assert len(sizes) == 1, f"the board changes size within a game: {sorted(sizes)}"
