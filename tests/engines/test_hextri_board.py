"""HEX-TRI board geometry: counts, adjacency invariants, values, rim, names and coordinates."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from engines.hextri.board import HEX, TRI, board


@pytest.mark.parametrize("radius", [2, 3, 4, 5])
def test_counts_and_kinds(radius):
    b = board(radius)
    assert len(b.hexes) == 3 * radius * (radius + 1) + 1
    # every HEX has six TRIs; a TRI touching k HEXes is counted k times
    touch = Counter(b.touch.values())
    assert sum(k * n for k, n in touch.items()) == 6 * len(b.hexes)
    assert set(b.kind[f] for f in b.hexes) == {HEX} and set(b.kind[f] for f in b.tris) == {TRI}
    assert len(set(b.fields)) == len(b.fields)


def test_default_board_matches_the_digest():
    b = board(3)
    assert len(b.hexes) == 37 and len(b.tris) == 96
    assert Counter(b.touch.values()) == {3: 54, 2: 18, 1: 24}


@pytest.mark.parametrize("radius", [2, 3, 5])
def test_adjacency_alternates_hex_and_tri(radius):
    b = board(radius)
    for h in b.hexes:
        assert len(b.adj[h]) == 6
        assert all(b.kind[n] == TRI for n in b.adj[h])  # HEXes never touch each other
    for t in b.tris:
        assert 1 <= len(b.adj[t]) == b.touch[t] <= 3
        assert all(b.kind[n] == HEX for n in b.adj[t])
    for f in b.fields:
        for n in b.adj[f]:
            assert f in b.adj[n]


@pytest.mark.parametrize("radius", [2, 3, 4, 5])
def test_values_grow_inwards(radius):
    b = board(radius)
    values = Counter(b.value.values())
    assert values[radius + 1] == 1  # the centre
    assert values[1] == 6 * radius  # the outer ring
    for ring in range(1, radius + 1):
        assert values[radius + 1 - ring] == 6 * ring
    assert b.value[b.hexes[0]] == 1  # H-A1 is on the outer ring


def test_centre_and_corner_names():
    b = board(3)
    assert b.value["H-D4"] == 4
    assert b.adj["H-D4"] == ["T-D7", "T-D8", "T-D9", "T-E7", "T-E8", "T-E9"]
    assert b.adj["T-A1"] == ["H-A1"]


def test_outer_and_rim_tris():
    b = board(3)
    assert set(b.outer) == {t for t in b.tris if b.touch[t] == 1}
    assert len(b.outer) == 24
    assert b.rim == {t for t in b.tris if b.touch[t] < 3}
    # outer TRIs stick out: farther from the centre than any HEX centre
    far = max(math.hypot(*b.xy[h]) for h in b.hexes)
    assert all(math.hypot(*b.xy[t]) > far for t in b.outer)


@pytest.mark.parametrize("radius", [2, 5])
def test_coordinates_fit_the_tiling(radius):
    b = board(radius)
    for t in b.tris:
        for h in b.adj[t]:
            # a TRI's centre is apothem + inradius = 2/sqrt(3) away from each HEX it touches
            d = math.dist(b.xy[t], b.xy[h])
            assert abs(d - 2 / math.sqrt(3)) < 1e-9
    for t in b.tris:
        pts = b.polygon[t]
        sides = [math.dist(pts[i], pts[(i + 1) % 3]) for i in range(3)]
        assert all(abs(s - 1.0) < 1e-9 for s in sides)
    assert len({(round(x, 6), round(y, 6)) for x, y in b.xy.values()}) == len(b.fields)


@pytest.mark.parametrize("radius", [2, 3, 5])
def test_every_name_parses_back(radius):
    b = board(radius)
    for f in b.fields:
        assert b.parse(f) == f
        assert b.parse(f.lower()) == f
        assert b.parse(f.replace("-", " ")) == f
        assert b.parse(f.replace("-", "")) == f


def test_parse_variants_and_errors():
    b = board(3)
    assert b.parse("hex d4") == "H-D4"
    assert b.parse(" tri a1 ") == "T-A1"
    assert b.parse("T-B10") == "T-B10"
    assert b.parse("H7") == "T-H7"  # only a TRI strip H exists at radius 3
    with pytest.raises(ValueError, match="H-D4 for the hexagon or T-D4"):
        b.parse("D4")
    with pytest.raises(ValueError, match="no field H-Z9"):
        b.parse("H-Z9")
    with pytest.raises(ValueError, match="not a field name"):
        b.parse("centre")
    with pytest.raises(ValueError):
        board(6)
