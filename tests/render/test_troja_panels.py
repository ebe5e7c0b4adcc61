"""Troja's hero panels drawn once (issue 29): the content on a kept sand canvas, framed afterwards - the same
pictures as measuring and drawing each panel twice, in any thread."""

from __future__ import annotations

import threading

from engines.rng import Rng
from engines.troja import ENGINE as E
from render import troja as R

NAMES = ["Ann", "Bartholomew the Unbreakable", "Cili 🐙", "Dóra"]


def _views(players: int, seed: int, count: int) -> list[dict]:
    rng, state = Rng(seed), E.new_game(players, seed, {})
    out: list[dict] = []
    while E.to_act(state) and len(out) < count:
        seat = E.to_act(state)[0]
        E.apply(state, seat, rng.choice(E.legal_actions(state, seat)))
        out.append({**E.view(state, None), "player_names": NAMES[:players], "lang": "en"})
    return out


def _fresh(view: dict) -> bytes:
    R._PANELS.clear()
    return R.render_public(view)


def test_panels_drawn_once_are_the_panels_drawn_twice(monkeypatch):
    views = _views(4, 31, 120)[::6]
    once = [_fresh(v) for v in views]
    # a canvas too short for any panel: every panel is measured first, then drawn again at its height
    monkeypatch.setattr(R, "_SAND_H", 40)
    monkeypatch.setattr(R, "_sand", threading.local())
    assert [_fresh(v) for v in views] == once


def test_panels_drawn_in_threads_at_once_are_the_same():
    views = _views(3, 17, 90)[::3]
    alone = [_fresh(v) for v in views]
    got: dict[int, list[bytes]] = {}

    def draw(n: int) -> None:
        got[n] = [_fresh(v) for v in views]

    workers = [threading.Thread(target=draw, args=(n,)) for n in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert all(got[n] == alone for n in range(3))
