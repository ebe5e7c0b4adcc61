"""Tournament pictures read on a phone: the standings of 64 players on one page (more are paged), a 64-player
bracket in pages of three rounds, and the podium - nothing under 9 px at 420 px wide."""

from __future__ import annotations

import io

from PIL import Image

from render import tournament as pictures
from tests.render.phone import too_small

LABELS = {"place": "#", "name": "Játékos", "points": "Pont", "buchholz": "Buch.", "sonneborn": "S-B",
          "record": "Gy–D–V"}


def standings(count: int) -> dict:
    return {"title": "#3 Kiválasztottak — svájci rendszerű", "subtitle": "5. forduló / 7", "labels": LABELS,
            "rows": [{"place": i + 1, "name": f"Szabó-Kovács Erzsébet {i}", "points": 7.5 - i / 10,
                      "buchholz": 31.25, "sonneborn": 22.75, "record": "12–3–4", "dropped": i == 4}
                     for i in range(count)]}


def bracket(rounds: int) -> dict:
    matches = [{"round": r, "slot": s, "names": [f"Wiśniewska-Kowalska {r}.{s}", f"Bob {s}"], "places": [1, 2],
                "winner": f"Wiśniewska-Kowalska {r}.{s}"} for r in range(1, rounds + 1)
               for s in range(1 << (rounds - r))]
    matches.append({"round": rounds, "slot": 1, "names": ["C", "D"], "places": [2, 1], "winner": "D"})
    return {"title": "Bracket", "rounds": rounds, "matches": matches,
            "labels": {"round": "Round {round}", "final": "Final", "third": "Third place", "bye": "(bye)"}}


def test_standings_of_64_players_read_on_a_phone_and_larger_tables_are_paged():
    assert too_small(pictures.render_standings, standings(64)) == []
    assert len(pictures.standings_pages(standings(64))) == 1
    pages = pictures.standings_pages(standings(130))
    assert len(pages) == 3
    assert Image.open(io.BytesIO(pages[0])).size[0] == pictures.WIDTH


def test_a_64_player_bracket_reads_on_a_phone():
    view = bracket(6)
    assert too_small(pictures.render_bracket, view, 1, 0) == []
    assert too_small(pictures.render_bracket, view, 4, 0) == []
    pages = pictures.bracket_pages(view)
    assert len(pages) == 4 + 1, "rounds 1-3 in four pages of eight first matches, rounds 4-6 in one"
    assert all(Image.open(io.BytesIO(png)).size[1] <= 600 for png in pages), "each page fits a phone's screen"
    assert len(pictures.bracket_pages(view, from_round=4)) == 1, "the rounds played are left out"
    assert len(pictures.bracket_pages(bracket(8), from_round=7)) == 1


def test_a_bye_is_no_box(monkeypatch):
    """A 40-player bracket (64 slots, 24 byes): no "(bye)" anywhere, only the eight real first-round matches."""
    view = bracket(6)
    view["matches"] = [m for m in view["matches"] if m["round"] > 1]
    view["matches"] += [{"round": 1, "slot": s, "names": [f"Seed {s}"], "places": [1], "winner": f"Seed {s}"}
                        for s in range(24)]
    view["matches"] += [{"round": 1, "slot": s, "names": [f"A{s}", f"B{s}"], "places": None, "winner": None}
                        for s in range(24, 32)]
    drawn = []
    real = pictures.text

    def spy(draw, xy, s, *a, **kw):
        drawn.append(s)
        return real(draw, xy, s, *a, **kw)

    monkeypatch.setattr(pictures, "text", spy)
    for page in range(4):
        pictures.render_bracket(view, 1, page)
    assert not [s for s in drawn if "bye" in s.lower() or s.startswith("Seed")]
    assert sum(1 for s in drawn if s.startswith("A")) == 8


def test_the_podium_reads_on_a_phone():
    assert too_small(pictures.render_podium, {"title": "Podium", "places": [["Ann"], ["Bob"], ["Carol", "Dave"]]}) == []


def test_names_are_shortened_at_a_word_or_hyphen_never_inside_one(monkeypatch):
    drawn = []
    real = pictures.text

    def spy(draw, xy, s, *a, **kw):
        drawn.append(s)
        return real(draw, xy, s, *a, **kw)

    monkeypatch.setattr(pictures, "text", spy)
    pictures.render_bracket(bracket(3), 1, 0)
    shortened = [s for s in drawn if s.endswith("…")]
    assert shortened and all(s.startswith("Wiśniewska-") and s == "Wiśniewska-…" for s in shortened), shortened


def test_a_double_eliminations_losers_bracket_of_64_reads_on_a_phone():
    """The losers' bracket of 64 players: 16 matches in its first round, so two pictures of eight a column."""
    columns = [{"head": f"Losers' round {r}", "matches": [
        {"round": r + 1, "slot": 1000 + s, "names": [f"Wiśniewska-Kowalska {r}.{s}", f"Bob {s}"], "places": [1, 2],
         "winner": f"Wiśniewska-Kowalska {r}.{s}"} for s in range(count)]} for r, count in ((1, 16), (2, 16), (3, 8))]
    view = {"title": "#1 Troja — losers' bracket, grand final", "columns": columns}
    pages = pictures.column_pages(view)
    assert len(pages) == 2
    for page in pages:
        assert Image.open(io.BytesIO(page)).size == (pictures.WIDTH, 70 + 8 * (pictures.BOX_H + pictures.GAP) + 8)
    assert too_small(pictures.render_columns, {**view, "columns": [
        {**c, "matches": c["matches"][:8]} for c in columns]}) == []
    assert pictures.column_pages({**view, "columns": [{"head": "Grand final", "matches": []}]}) == [], \
        "nothing to draw: no picture"
