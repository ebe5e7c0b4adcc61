"""Track validator: both tracks in both directions, the figures the rulebook implies, and that the validator
really fails a broken track."""

from __future__ import annotations

import copy
import subprocess
import sys
from pathlib import Path

import pytest

from engines.ave_caesar import validate
from engines.ave_caesar.track import Track, get_track, load_data

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["A", "B"])
@pytest.mark.parametrize("direction", ["cw", "ccw"])
def test_track_is_valid(name, direction):
    problems, figures = validate.check(name, direction)
    assert problems == []
    assert figures["route"] == {"A": 80, "B": 78}[name]
    penalty = 2
    for curve in figures["curves"]:
        assert curve["outer"] - curve["inner"] == penalty
        assert curve["inner"] < curve["middle"] < curve["outer"], "the inner arc is the cheapest, then the middle"
    # a chariot pushed outside on all six curves cannot make it with its 84 points
    assert figures["route_outside_on_every_curve"] == figures["route"] + 6 * penalty > 84


def test_tracks_have_the_circus_features():
    for name in ("A", "B"):
        data = load_data(name)
        lanes_per_col = {}
        for sp in data["spaces"]:
            if sp["sec"] in ("top", "bottom"):
                lanes_per_col.setdefault((sp["sec"], sp["col"]), set()).add(sp["lane"])
        widths = sorted(len(v) for v in lanes_per_col.values())
        assert widths.count(3) > len(widths) / 2, "mostly three lanes"
        assert 2 in widths and 1 in widths, "two-lane stretches and single-space bottlenecks"
        assert data["walls"], "walls"
        assert len(data["alley"]["spaces"]) >= 3
        assert len(data["start"]["cw"]) == len(data["start"]["ccw"]) == 6
        for sp in data["spaces"]:
            assert len(sp["poly"]) >= 4 and 0 <= sp["x"] <= data["frame"][0] and 0 <= sp["y"] <= data["frame"][1]


def test_inner_lane_is_shorter_in_curves():
    track = get_track("B")
    west = next(c for c in load_data("B")["curves"] if c["name"] == "west")
    # from the first wedge of each lane to leaving the curve: 5 steps inside, 7 outside
    assert track.to_line[west["inner"][0]] + 2 == track.to_line[west["outer"][0]]


def _broken(name: str, mutate) -> list[str]:
    data = copy.deepcopy(load_data(name))
    mutate(data)
    track = Track(data, "cw")
    original_get, original_load = validate.get_track, validate.load_data
    validate.get_track = lambda n, d: track
    validate.load_data = lambda n: data
    try:
        return validate.check(name, "cw")[0]
    finally:
        validate.get_track, validate.load_data = original_get, original_load


def test_no_lane_change_leads_sideways():
    """Movement is forward with diagonal lane changes only: the old links A33 -> A27 (outer to middle lane in the
    first wedge of the east curve, the space beside it) and B26 -> B21 are gone."""
    old_a = {sp["id"]: sp for sp in load_data("A", 1)["spaces"]}
    assert "A27" in old_a["A33"]["next"] and "B21" in {sp["id"]: sp for sp in load_data("B", 1)["spaces"]}["B26"]["next"]
    for name in ("A", "B"):
        data = load_data(name)
        assert validate.sideways_links(data) == []
    first_outer = next(sp for sp in load_data("A")["spaces"] if (sp["sec"], sp["col"], sp["lane"]) == ("east", 0, 2))
    beside = next(sp for sp in load_data("A")["spaces"] if (sp["sec"], sp["col"], sp["lane"]) == ("east", 0, 1))
    assert beside["id"] not in first_outer["next"]


def test_validator_rejects_a_sideways_link():
    def mutate(data):
        outer = next(sp for sp in data["spaces"] if (sp["sec"], sp["col"], sp["lane"]) == ("east", 0, 2))
        middle = next(sp for sp in data["spaces"] if (sp["sec"], sp["col"], sp["lane"]) == ("east", 0, 1))
        outer["next"].append(middle["id"])
    problems = _broken("A", mutate)
    assert any("sideways" in p for p in problems), problems


def test_validator_rejects_a_curve_whose_inner_lane_is_not_the_cheapest():
    def mutate(data):
        east = next(c for c in data["curves"] if c["name"] == "east")
        east["middle"] = east["middle"][:len(east["inner"])]  # as short as the inner arc (track A of version 1)
    problems = _broken("A", mutate)
    assert any("curve east: the inner lane must be the cheapest" in p for p in problems), problems


def test_validator_rejects_the_version_1_tracks():
    """Track A of rules version 1 breaks the corrected rule: its middle lane was as cheap as the inner one."""
    a = _broken("A", lambda data: data.update(load_data("A", 1)))
    assert any("inner lane must be the cheapest" in p for p in a)


def test_validator_catches_a_wrong_route_figure():
    def mutate(data):
        data["route"] = 79
    problems = _broken("A", mutate)
    assert any("expected 79" in p for p in problems)


def test_validator_catches_a_cut_track():
    def mutate(data):
        victim = next(sp for sp in data["spaces"] if sp["sec"] == "east" and sp["lane"] == 0 and sp["col"] == 2)
        victim["next"] = []
    problems = _broken("A", mutate)
    assert problems


def test_validator_catches_an_alley_side_exit():
    def mutate(data):
        alley = data["alley"]["spaces"]
        sp = next(s for s in data["spaces"] if s["id"] == alley[1])
        sp["next"].append(data["alley"]["gate"]["cw"][0])
    problems = _broken("A", mutate)
    assert any("alley" in p for p in problems)


def test_validator_command():
    out = subprocess.run([sys.executable, "-m", "engines.ave_caesar.validate"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "all tracks valid" in out.stdout
    assert "track A  cw: lap 26, 3 laps + alley 80" in out.stdout
    assert "track B ccw: lap 25, 3 laps + alley 78" in out.stdout
