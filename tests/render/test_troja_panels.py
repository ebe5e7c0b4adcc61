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


def _panels(views: list[dict]) -> list[bytes]:
    """Every hero panel of ``views``, drawn anew (nothing kept but the rows), as bytes."""
    out = []
    for view in views:
        say = R.kit.words("troja", view)
        for seat in range(len(view["players"])):
            panel = R._panel_once(view, seat, R._panel_words(view, seat, say))
            out.append((panel.mode, panel.size, panel.tobytes()))
    return out


def test_panel_rows_kept_are_the_rows_drawn(monkeypatch):
    """A panel's rows are kept as bands and pasted when they come back (issue 29): the very panels of drawing
    every row, in a whole game of each table size and in Hungarian's longer words too, wherever the rows land
    (a long player name pushes them down)."""
    views = []
    for players, lang in ((2, "en"), (3, "hu"), (4, "pl")):
        views += [{**v, "lang": lang, "player_names": ["Kristóf Wiśniewski-Papadopoulos", *NAMES[1:players]]}
                  for v in _views(players, 40 + players, 200)[::2]]
    R.clear_caches()
    kept = _panels(views)
    assert R._ROWS  # the rows were kept
    again = _panels(views)  # now from the kept rows
    # every row drawn on the canvas and the whole panel quantised: the panel drawn as it was before rows were kept
    monkeypatch.setattr(R, "_SAND_H", 40)
    monkeypatch.setattr(R, "_sand", threading.local())
    assert kept == again == _panels(views)


def test_a_panel_whose_glory_changed_draws_only_that_row(monkeypatch):
    view = _views(2, 5, 30)[-1]
    say = R.kit.words("troja", view)
    R.clear_caches()
    R._panel_once(view, 0, R._panel_words(view, 0, say))
    drawn: list[str] = []
    for name in ("_row_who", "_row_stats", "_row_glory", "_row_ability", "_row_cards"):
        real = getattr(R, name)
        monkeypatch.setattr(R, name, lambda *args, name=name, real=real: (drawn.append(name), real(*args))[1])
    players = [dict(p) for p in view["players"]]
    players[0]["gp"] = (players[0]["gp"] + 5) % 24
    moved = {**view, "players": players}
    panel = R._panel_once(moved, 0, R._panel_words(moved, 0, say))
    assert drawn == ["_row_glory"]
    monkeypatch.setattr(R, "_SAND_H", 40)
    monkeypatch.setattr(R, "_sand", threading.local())
    assert panel.tobytes() == R._panel_once(moved, 0, R._panel_words(moved, 0, say)).tobytes()


def test_kept_rows_are_bounded(monkeypatch):
    monkeypatch.setattr(R, "_ROWS_MAX_PIXELS", 50_000)
    R.clear_caches()
    _panels(_views(3, 8, 120)[::3])
    assert sum(band.width * band.height for band in R._ROWS.values()) < 50_000 + 480 * 200
